"""Two people play an online best-of-3 match of a Swiss round in two Chromium contexts, and
the standings page (open in a third) changes when the match ends.

The event is an online Ascension event (Swiss, best of 3) run through the organiser's
services: two players register, round 1 is paired and published. Publishing queues the
round's task (``play.tasks.start_round_games``); the test records that it was queued and
runs what it runs, ``play.services.starting.start_round_games``, with one engine setting
of its own: ``honor_pool`` 1 (a house rule for short games, docs/ascension.md), which the
match's later games keep. So game 1 is dealt by the platform, from a seed of its own, and each later game
is dealt by the platform when the one before ends.

The games are played on a second daphne in embedded mode (``embedded_server`` in
``conftest.py``) whose Celery worker threads apply every move: a click on the table's
button posts it (play.js, 202), the worker applies it and the push redraws both pages. The
test never touches a game's state. Both players race for the one honor in the pool: make a
pending choice, else fight anything they can, else play a Militia, else end the turn; the
first Monster defeated empties the pool and the game ends with that round (A-41, A-44).
Played out by the engine alone, such a game takes 10.5 moves on average over 400 seeds (95%
within 22, the longest 43), and a whole match 27 (95% within 48; it goes to a third game
46% of the time). The worker picks each move up within about a second (kombu's in-memory
transport polls its queue), so the match takes 20 to 40 seconds here.

When a game ends both pages offer its result and the "Next game" link; the players follow
it until one of them has won two games. The standings page, open all along on the same
server, then shows the winner's 1-0-0, and the pairings page the winner with 2–0 or 2–1.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from config import push
from engine.ascension.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.acting import apply_action
from play.services.reading import replay_state
from play.services.starting import start_round_games
from tests.browser.conftest import log_in
from tournaments.models import Game, Match
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POOL = 1  # config["honor_pool"]; the rulebook's pool for 2 players is 60
MAX_MOVES = 200  # a game of the race below; the longest of 400 seeds took 43
PRIORITY = {"choose": 0, "play": 1, "activate": 2, "defeat": 3, "acquire": 4, "end_turn": 5}
POWER_CARD = "Militia"  # the starter deck's power card (1 power); the race buys nothing


@pytest.fixture
def bo3_match(alice, bob, charlie, live_server_url, monkeypatch):
    """An online Swiss event, best of 3, with round 1 published; game 1 dealt by the
    platform with the short honor pool. Returns the event and game 1."""
    event = create_event(
        alice,
        name="Online best of three",
        game_system="ascension",
        format="standard",
        swiss_rounds=2,
        best_of=3,
        play_online=True,
    )
    for user in (bob, charlie):
        register(event, user=user)
    event = start_event(alice, event)
    queued: list[int] = []  # the round's task; no worker reads this process's queue
    monkeypatch.setattr(tasks.start_round_games, "delay", queued.append)
    rnd = publish_round(alice, pair_next_round(alice, event))
    assert queued == [rnd.pk]
    (game,) = start_round_games(rnd, config={"honor_pool": POOL})
    game.refresh_from_db()
    assert game.game_number == 1 and game.status == GameSession.Status.RUNNING
    assert game.state["pool"] == game.state["pool_start"] == POOL
    return event, game


def _seat_users(session_id: int) -> dict[int, str]:
    return {
        s.number: s.user.username
        for s in GameSession.objects.get(pk=session_id).seats.select_related("user")
    }


def _final(session_id: int):
    session = GameSession.objects.get(pk=session_id)
    log = list(session.actions.order_by("seq").values_list("seq", "seat", "action"))
    return session, log, replay_state(session)


def _next_game(session: GameSession) -> GameSession | None:
    return GameSession.objects.filter(
        match_id=session.match_id, game_number=session.game_number + 1
    ).first()


def _match(match_id: int):
    match = Match.objects.get(pk=match_id)
    games = list(Game.objects.filter(match=match).values_list("number", "winner_seat"))
    wins = dict(match.seats.values_list("seat", "game_wins"))
    return match, games, wins


def _seq(page: Page) -> int:
    return int(page.locator("#play").get_attribute("data-seq"))


def _choice(page: Page) -> tuple[int, dict]:
    """The button a player racing for the pool's honor clicks, and its action."""
    values = page.eval_on_selector_all(
        ".asc-actions form.act input[name=action]", "els => els.map(e => e.value)"
    )
    labels = page.locator(".asc-actions form.act button").all_inner_texts()
    assert len(values) == len(labels)

    def rank(k: int) -> int:
        kind = json.loads(values[k])["type"]
        if kind == "play":
            return 2 if POWER_CARD in labels[k] else 9
        return {"choose": 0, "defeat": 1, "end_turn": 3}.get(kind, 9)

    choice = min(range(len(values)), key=rank)
    return choice, json.loads(values[choice])


def _play_to_the_end(pages: dict[int, Page], session_id: int) -> list[tuple[int, int, dict]]:
    """Click until the game is over; the moves clicked as (seq, seat, action)."""
    clicked: list[tuple[int, int, dict]] = []
    seq = _seq(pages[0])
    while True:
        for page in pages.values():  # both tables show the same position
            expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        if pages[0].locator(".play-result").count():
            return clicked
        acting = [seat for seat, page in pages.items() if page.locator(".asc-actions").count()]
        assert len(acting) == 1, f"at seq {seq} the buttons are on seats {acting}"
        (seat,) = acting
        page = pages[seat]
        choice, action = _choice(page)
        with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as posted:
            page.locator(".asc-actions form.act button").nth(choice).click()
        assert posted.value.status == 202, posted.value.text()  # queued for the worker
        clicked.append((seq, seat, action))
        seq += 1
        assert len(clicked) < MAX_MOVES, f"game {session_id} did not end"


def test_two_people_play_a_best_of_three_match_and_the_standings_change(
    bo3_match, embedded_server, db_thread, browser: Browser
):
    event, game = bo3_match
    users = db_thread(_seat_users, game.pk)  # the same seats in every game of the match
    errors: list[str] = []

    def open_page(width: int = 360) -> Page:
        context = browser.new_context(base_url=embedded_server, locale="en-US")
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.set_viewport_size({"width": width, "height": 740})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    pages: dict[int, Page] = {}
    for seat, name in users.items():
        pages[seat] = page = open_page()
        log_in(page, name)
        page.goto(f"/play/{game.pk}/")
        expect(page.locator("#play")).to_have_attribute("data-status", "running")
    standings = open_page()  # a visitor, not signed in
    standings.goto(f"/events/{event.slug}/standings/")
    table = standings.locator("#standings")
    for name in users.values():
        expect(table.locator("tr", has_text=name)).to_contain_text("0-0-0")

    winners: list[int] = []  # the winning seat of each game
    total = 0
    started = time.monotonic()
    while True:
        clicked = _play_to_the_end(pages, game.pk)
        total += len(clicked)
        session, log, replayed = db_thread(_final, game.pk)
        assert session.status == GameSession.Status.FINISHED
        assert session.end_reason == GameSession.EndReason.RULES
        assert session.config["honor_pool"] == POOL
        # Every move in the log is a click, applied by the worker in the order clicked,
        # and the seed, the config and that log rebuild the stored state.
        assert log == clicked
        assert replayed == session.state
        assert session.state["pool"] == 0 and session.state["finished"]
        (winner,) = session.result["winners"]
        winners.append(winner)
        for page in pages.values():
            result = page.locator(".play-result")
            expect(result).to_contain_text("Game over")
            expect(result).to_contain_text(f"seat {winner + 1}")
            expect(page.locator(".asc-actions")).to_have_count(0)

        match, games, wins = db_thread(_match, session.match_id)
        assert games == [(k + 1, w) for k, w in enumerate(winners)]
        assert wins == {s: winners.count(s) for s in (0, 1)}
        following = db_thread(_next_game, session)
        if max(wins.values()) == 2:
            assert match.status == Match.Status.FINAL
            assert match.result_source == Match.Source.ENGINE
            assert following is None
            for page in pages.values():
                expect(page.locator(".play-result")).not_to_contain_text("Next game")
            break
        # Undecided: the platform has dealt the next game, with the same config.
        assert match.status == Match.Status.PENDING
        assert following is not None and following.status == GameSession.Status.RUNNING
        assert following.config == session.config and following.seed != session.seed
        expect(table).not_to_contain_text("1-0-0")
        for page in pages.values():
            page.locator(".play-result").get_by_role("link", name="Next game").click()
            expect(page).to_have_url(re.compile(rf"/play/{following.pk}/$"))
            expect(page.locator("#play")).to_have_attribute("data-status", "running")
        game = following

    elapsed = time.monotonic() - started
    assert len(winners) in (2, 3)
    champion = max(wins, key=wins.get)
    score = f"2-{wins[1 - champion]}"
    match_winner, loser = users[champion], users[1 - champion]
    # The standings page, open all along, shows the decided match without a reload.
    row = table.locator("tr", has_text=match_winner)
    expect(row).to_contain_text("1-0-0")
    expect(row.locator("td.num strong")).to_have_text("3")
    gw = "100.00" if score == "2-0" else "66.67"  # game-win percentage
    expect(row).to_contain_text(gw)
    expect(table.locator("tr", has_text=loser)).to_contain_text("0-1-0")
    standings.goto(f"/events/{event.slug}/pairings/")
    # The pairings name the match's winner with the score, the winner's games first.
    expect(standings.locator("td.result")).to_have_text(
        f"{match_winner} won 2\u2013{wins[1 - champion]}"
    )
    assert errors == []
    print(f"{len(winners)} games ({score}), {total} moves in {elapsed:.1f} s")


# A push that never arrives: the open game page catches up on its own. The opponent's move
# is stored with the live push switched off (as when a server restarts or a channel
# overflows), so the socket stays open and silent; the page's safety net re-fetches its
# table after a stretch of silence (``data-silence-ms``, shortened here from 20 s). This
# test plays no game: the move is stored directly, on the session's daphne.


def _next_move(session_id: int) -> tuple[int, int, dict]:
    session = GameSession.objects.get(pk=session_id)
    (seat,) = SYSTEM.to_act(session.state)
    legal = SYSTEM.legal_actions(session.state, seat)
    return seat, session.seq, min(legal, key=lambda a: PRIORITY[a["type"]])


def _apply(session_id: int, seat: int, seq: int, action: dict) -> str:
    return apply_action(session_id, seat, seq, action).status


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
