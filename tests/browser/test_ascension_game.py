"""Two people play a 2-player online game of Ascension to the end, each in their own
Chromium context, on the Ascension table (``templates/play/ascension/table.html``).

The game is a friend game made with ``play.services`` before Chromium starts. To keep it
short the dealt state gets a honor pool of 2 instead of 60 (the engine has no config key
for the pool): the game ends at the end of the round in which two honor were taken.

The daphne server has no Celery worker, and settings keep Celery non-eager: a click on one
of the table's action buttons posts the move (play.js, with fetch), the server checks it
and queues ``play.tasks.apply_action``; the
test then runs what that task runs, ``services.apply_action`` with the very action and
``seq`` of the clicked button, and the server's pushes update both pages. Django refuses
ORM calls in the thread where Playwright's event loop runs, so the test's own database
work between browser steps happens on one helper thread.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect

from play import services
from play.models import GameSession

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 1  # with the strategy below: 18 moves over one round (checked with the engine)
POOL = 2
MAX_MOVES = 200
# The players' plan: make the pending choice, play every card, use constructs, fight,
# buy, then end the turn; the first legal action of the best kind.
PRIORITY = {"choose": 0, "play": 1, "activate": 2, "defeat": 3, "acquire": 4, "end_turn": 5}


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"pw-{username}")
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out ({username})")).to_be_visible()


def compact(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


@pytest.fixture
def db_thread():
    """One thread for the test's ORM calls while Playwright runs (see the module doc)."""
    from django.db import connection

    pool = ThreadPoolExecutor(max_workers=1)

    def run(fn, *args):
        return pool.submit(fn, *args).result(timeout=60)

    yield run
    pool.submit(lambda: connection.close()).result(timeout=60)  # the helper thread's connection
    pool.shutdown()


@pytest.fixture
def ascension_game(alice, bob, live_server_url):
    session = services.create_friend_game(alice, "ascension", time_bank=None)
    session.seed = SEED
    session.save(update_fields=["seed"])
    session = services.join_game(bob, session.invite_token)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    state = session.state
    state["pool"] = state["pool_start"] = POOL
    session.state = state
    session.save(update_fields=["state"])
    return session


def _next_move(session_id: int) -> tuple[str, int, int, dict] | None:
    session = GameSession.objects.get(pk=session_id)
    if session.status != GameSession.Status.RUNNING:
        return None
    system = services.engine_of(session.system)
    (seat,) = system.to_act(session.state)
    legal = system.legal_actions(session.state, seat)
    action = min(legal, key=lambda a: PRIORITY[a["type"]])
    return session.status, seat, session.seq, action


def _apply(session_id: int, seat: int, seq: int, action: dict) -> str:
    return services.apply_action(session_id, seat, seq, action).status


def _final(session_id: int) -> GameSession:
    return GameSession.objects.get(pk=session_id)


def test_two_players_play_an_ascension_game_to_the_end(ascension_game, db_thread, new_page):
    session_id = ascension_game.pk
    pages = {}
    errors: list[str] = []
    for seat, name in ((0, "alice"), (1, "bob")):
        page = new_page()
        page.set_viewport_size({"width": 360, "height": 740})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, name)
        page.goto(f"/play/{session_id}/")
        pages[seat] = page

    for seat, page in pages.items():
        table = page.locator(".play-table.asc")
        expect(table.locator(".asc-row .asc-card")).to_have_count(6)
        expect(table.locator(".asc-piles")).to_contain_text("Mystic")
        expect(table.locator(".asc-piles")).to_contain_text("Heavy Infantry")
        expect(table.locator(".asc-piles")).to_contain_text("Cultist")
        expect(table.locator(".asc-pool")).to_have_text(str(POOL))
        expect(table.locator(".asc-player")).to_have_count(2)
        expect(
            table.locator(f".asc-player.mine[data-seat='{seat}'] .asc-hand .asc-card")
        ).to_have_count(5)
        expect(table.locator(".asc-hand")).to_have_count(1)  # only your own hand is shown
        expect(table.locator(".asc-player.mine .asc-deck")).to_have_text("5")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0

    moves = 0
    while (move := db_thread(_next_move, session_id)) is not None:
        _status, seat, seq, action = move
        page = pages[seat]
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        values = page.eval_on_selector_all(
            ".asc-actions form.act input[name=action]", "els => els.map(e => e.value)"
        )
        assert compact(action) in values, (action, values)
        button = page.locator(".asc-actions form.act button").nth(values.index(compact(action)))
        with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as posted:
            button.click()
        # play.js posts the move with fetch; the server queues it (202) and pushes the
        # new table once it is applied.
        assert posted.value.status == 202, posted.value.text()
        # What the Celery worker would do with the queued task.
        assert db_thread(_apply, session_id, seat, seq, action) == "applied"
        moves += 1
        assert moves < MAX_MOVES, "the game did not end"

    session = db_thread(_final, session_id)
    assert session.status == GameSession.Status.FINISHED
    winner = session.result["winners"][0] + 1
    for page in pages.values():
        result = page.locator(".play-result")
        expect(result).to_contain_text("Game over")
        expect(result).to_contain_text(f"seat {winner}")
        expect(page.locator(".asc-final")).to_contain_text("Final honor")
        expect(page.locator(".asc-actions")).to_have_count(0)
    assert not errors
