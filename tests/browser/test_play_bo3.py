"""Two people play an online best-of-3 match of a Swiss round in two Chromium contexts, and
the standings page (open in a third) changes when the match ends.

The event is an online Ascension event (Swiss, best of 3). Publishing round 1 deals game 1
of the one match (``play.services.start_round_games``, what the round's task runs). To
keep game 1 short yet real, it is dealt again from a fixed seed with an honor pool of 2
(the engine has no config key for the pool; see ``test_ascension_game.py``): a full game
of 18 moves, each one clicked on the table of the player to act. The daphne server has no
Celery worker: after a click has been accepted (202) the test runs what the queued task
runs, ``services.apply_action`` with that button's action and ``seq``, and the server's
pushes update both pages. Game 1's end creates game 2; both players follow the page's
"Next game" link, and the loser of game 1 concedes game 2 with the page's Concede button
(the rules' way to end a game at once), which decides the match 2-0. The standings page,
live over its websocket, then shows the winner's 1-0-0.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import Page, expect

from config import push
from engine.ascension.game import SYSTEM
from play import services
from play.models import GameSession
from tournaments import services as tournament_services
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 1  # with the strategy below: 18 moves over one round (as in test_ascension_game)
POOL = 2
MAX_MOVES = 200
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
    """One thread for the test's ORM calls while Playwright runs (Django refuses them in
    the thread of Playwright's event loop)."""
    from django.db import connection

    pool = ThreadPoolExecutor(max_workers=1)

    def run(fn, *args):
        return pool.submit(fn, *args).result(timeout=60)

    yield run
    pool.submit(lambda: connection.close()).result(timeout=60)
    pool.shutdown()


@pytest.fixture
def bo3_match(alice, bob, charlie, live_server_url):
    event = tournament_services.create_event(
        alice,
        name="Online best of three",
        game_system="ascension",
        format="standard",
        swiss_rounds=2,
        best_of=3,
        play_online=True,
    )
    for user in (bob, charlie):
        tournament_services.register(event, user=user)
    event = tournament_services.start_event(alice, event)
    rnd = tournament_services.publish_round(
        alice, tournament_services.pair_next_round(alice, event)
    )
    (game,) = services.start_round_games(rnd)
    game = GameSession.objects.get(pk=game.pk)
    # Dealt again from a known seed, with a short honor pool (see the module doc).
    state = SYSTEM.new_game(game.config, [None, None], SEED)
    state["pool"] = state["pool_start"] = POOL
    game.seed, game.state = SEED, state
    game.save(update_fields=["seed", "state"])
    return event, game


def _next_move(session_id: int) -> tuple[int, int, dict] | None:
    session = GameSession.objects.get(pk=session_id)
    if session.status != GameSession.Status.RUNNING:
        return None
    (seat,) = SYSTEM.to_act(session.state)
    legal = SYSTEM.legal_actions(session.state, seat)
    return seat, session.seq, min(legal, key=lambda a: PRIORITY[a["type"]])


def _apply(session_id: int, seat: int, seq: int, action: dict) -> str:
    return services.apply_action(session_id, seat, seq, action).status


def _session(session_id: int) -> GameSession:
    return GameSession.objects.get(pk=session_id)


def _seat_users(session_id: int) -> dict[int, str]:
    return {
        s.number: s.user.username
        for s in GameSession.objects.get(pk=session_id).seats.select_related("user")
    }


def _game_two(match_id: int) -> GameSession | None:
    return GameSession.objects.filter(match_id=match_id, game_number=2).first()


def _match(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def test_two_people_play_a_best_of_three_match_and_the_standings_change(
    bo3_match, db_thread, new_page
):
    event, game1 = bo3_match
    errors: list[str] = []
    users = db_thread(_seat_users, game1.pk)
    pages: dict[int, Page] = {}
    for seat, name in users.items():
        page = new_page()
        page.set_viewport_size({"width": 360, "height": 740})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())  # "Concede this game?"
        log_in(page, name)
        page.goto(f"/play/{game1.pk}/")
        pages[seat] = page
    standings = new_page()
    standings.goto(f"/events/{event.slug}/standings/")
    table = standings.locator("#standings")
    expect(table).not_to_contain_text("1-0-0")

    # Game 1, played to its end by clicks on the table of whoever is to act.
    moves = 0
    while (move := db_thread(_next_move, game1.pk)) is not None:
        seat, seq, action = move
        page = pages[seat]
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        values = page.eval_on_selector_all(
            ".asc-actions form.act input[name=action]", "els => els.map(e => e.value)"
        )
        assert compact(action) in values, (action, values)
        button = page.locator(".asc-actions form.act button").nth(values.index(compact(action)))
        with page.expect_response(re.compile(rf"/play/{game1.pk}/act/$")) as posted:
            button.click()
        assert posted.value.status == 202, posted.value.text()
        assert db_thread(_apply, game1.pk, seat, seq, action) == "applied"  # the worker's part
        moves += 1
        assert moves < MAX_MOVES, "game 1 did not end"

    game1 = db_thread(_session, game1.pk)
    assert game1.status == GameSession.Status.FINISHED
    assert game1.end_reason == GameSession.EndReason.RULES
    (winner,) = game1.result["winners"]
    game2 = db_thread(_game_two, game1.match_id)
    assert game2 is not None and game2.status == GameSession.Status.RUNNING
    assert db_thread(_match, game1.match_id).status != Match.Status.FINAL  # 1-0: not decided
    expect(table).not_to_contain_text("1-0-0")

    # Both pages offer the next game; both players follow the link.
    for page in pages.values():
        result = page.locator(".play-result")
        expect(result).to_contain_text("Game over")
        expect(result).to_contain_text(f"seat {winner + 1}")
        result.get_by_role("link", name="Next game").click()
        expect(page).to_have_url(re.compile(rf"/play/{game2.pk}/$"))
        expect(page.locator("#play")).to_have_attribute("data-status", "running")

    # Game 2: the player who lost game 1 concedes it, deciding the match 2-0.
    winner_name = db_thread(_seat_users, game2.pk)
    loser_name = users[1 - winner]
    (loser_seat2,) = [s for s, n in winner_name.items() if n == loser_name]
    loser_page = pages[1 - winner]
    loser_page.locator("form.concede button").click()
    expect(loser_page.locator(".play-result")).to_contain_text("Conceded")
    expect(pages[winner].locator(".play-result")).to_contain_text("Game over")

    game2 = db_thread(_session, game2.pk)
    assert game2.end_reason == GameSession.EndReason.CONCEDE
    assert game2.result["winners"] == [1 - loser_seat2]
    match = db_thread(_match, game1.match_id)
    assert match.status == Match.Status.FINAL
    assert db_thread(_game_three_absent, game1.match_id)

    # The standings page, open all along, shows the decided match.
    row = table.locator("tr", has_text=users[winner])
    expect(row).to_contain_text("1-0-0")
    expect(row.locator("td.num strong")).to_have_text("3")
    expect(table.locator("tr", has_text=loser_name)).to_contain_text("0-1-0")
    assert errors == []


def _game_three_absent(match_id: int) -> bool:
    return not GameSession.objects.filter(match_id=match_id, game_number=3).exists()


# A push that never arrives: the open game page catches up on its own. The opponent's move
# is stored with the live push switched off (as when a server restarts or a channel
# overflows), so the socket stays open and silent; the page's safety net re-fetches its
# table after a stretch of silence (``data-silence-ms``, shortened here from 20 s).


def test_a_page_whose_push_was_lost_refetches_after_silence(
    bo3_match, db_thread, new_page, monkeypatch
):
    _event, game = bo3_match
    users = db_thread(_seat_users, game.pk)
    seat, seq, action = db_thread(_next_move, game.pk)
    watcher = 1 - seat  # the player who is not to act watches the move arrive
    page = new_page()
    log_in(page, users[watcher])
    page.goto(f"/play/{game.pk}/")
    expect(page.locator("body")).to_have_attribute("data-live", "on")
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))

    sent: list = []
    monkeypatch.setattr(push, "send", lambda messages: sent.append(messages))
    assert db_thread(_apply, game.pk, seat, seq, action) == "applied"
    assert sent  # the move would have been pushed; it went nowhere

    page.wait_for_timeout(1500)  # no push: the page still shows the old position
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    page.evaluate("document.getElementById('play').dataset.silenceMs = '1000'")
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq + 1), timeout=10_000)
    assert page.evaluate("document.body.dataset.live") == "on"  # the socket stayed open
