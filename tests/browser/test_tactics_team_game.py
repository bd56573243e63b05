"""Two teammates play an Ascension Tactics 2 vs 2 team event's game (T-78/T-79), each from
their own Chromium context, against a team of bots, from the champion draft to the end.

The event (format ``2v2``, one Swiss round, online) is run through the organiser's
services: a team of two people and a team of bots register, round 1 is paired and
published, and its game is dealt by the platform (``start_round_games``) with every member
at their own seat, teammates at seats 0 and 2 or 1 and 3 (the registry's table mode "2v2"). Each teammate opens "my match" and follows its link to the table.

As in test_tactics_table.py the daphne server has no Celery worker: a click posts the move
(play.js, fetch, 202) and the test then runs what the task would run
(``acting.apply_action`` with the clicked action and ``seq``), and the bots' moves
(``acting.run_bot``). The people click in the table's list of their actions; their moves
are those of the engine's heuristic bot. In a joint turn both teammates' tables offer
actions at once; neither table ever offers the other's.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from engine.core.protocol import interrupts
from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.acting import apply_action, run_bot
from play.services.starting import start_round_games
from tests.browser.conftest import log_in
from tournaments.models import Event, Match
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.starting import start_event
from tournaments.services.teams import register_team

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MAX_CLICKS = 400
EVENT_SEED = 1  # the pairing: which team sits at seats 0 and 2
GAME_SEED = 131  # a game of 351 moves, about half of them the people's, some 70 in joint turns
BRAIN = make_bot("heuristic", SYSTEM, 9)


def _deal(queued: list[int], organiser_name: str) -> tuple[str, int]:
    from django.contrib.auth import get_user_model

    users = {u.username: u for u in get_user_model().objects.all()}
    organiser = users[organiser_name]
    event = create_event(
        organiser, name="Tactics pairs online", game_system="tactics", format="2v2",
        swiss_rounds=1, best_of=1, play_online=True,
    )  # fmt: skip
    register_team(event, name="Alice and Bob", members=[users["alice"], users["bob"]],
                  actor=users["alice"])  # fmt: skip
    register_team(event, name="The Bots", members=[users["charlie"], users["dave"]],
                  actor=organiser, is_bot=True)  # fmt: skip
    Event.objects.filter(pk=event.pk).update(seed=EVENT_SEED)
    event = start_event(organiser, Event.objects.get(pk=event.pk))
    rnd = publish_round(organiser, pair_next_round(organiser, event))
    assert queued == [rnd.pk]
    (game,) = start_round_games(rnd)
    # Dealt again from a fixed seed before anyone moves: every run plays the same game.
    game.refresh_from_db()
    assert game.seq == 0 and game.state["phase"] == "draft"
    game.seed = GAME_SEED
    game.state = SYSTEM.new_game(game.config, list(game.decks), GAME_SEED)
    game.save(update_fields=["seed", "state"])
    return event.slug, game.pk


def _seats(session_id: int) -> dict[str, int]:
    session = GameSession.objects.get(pk=session_id)
    return {s.user.username: s.number for s in session.seats.select_related("user")}


def _turn(session_id: int) -> tuple[str, int, tuple[int, ...], dict]:
    """Let the bots move while one of them is to act; then the status, seq, the seats to
    act and the state."""
    while True:
        session = GameSession.objects.get(pk=session_id)
        if session.status != GameSession.Status.RUNNING:
            return session.status, session.seq, (), session.state
        to_act = SYSTEM.to_act(session.state)
        if not session.seats.filter(is_bot=True, number__in=to_act).exists():
            return session.status, session.seq, to_act, session.state
        assert run_bot(session_id, session.seq).status == "applied"


def _apply(session_id: int, seat: int, seq: int, action: dict) -> str:
    return apply_action(session_id, seat, seq, action).status


def _outcome(session_id: int):
    session = GameSession.objects.get(pk=session_id)
    match = Match.objects.get(pk=session.match_id)
    event = Event.objects.get(pk=match.round.event_id)
    winner = match.winner.display_name if match.winner_id else None
    return session.result, match.status, match.result_source, winner, event.status


def compact(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def css(action: dict) -> str:
    return compact(action).replace("\\", "\\\\").replace("'", "\\'")


def offered(page: Page) -> list[str]:
    """The actions the table offers its player: its list of them (the game's own table),
    else every action button (the generic table)."""
    scope = ".tx-all" if page.locator(".play-table .tx-all").count() else ".play-table"
    values = page.eval_on_selector_all(
        f"{scope} form.act input[name=action]", "els => els.map(e => e.value)"
    )
    return sorted(set(values))


def click(page: Page, action: dict) -> None:
    """Click the action in the table's list of the player's actions."""
    listing = page.locator("details.tx-all")
    if listing.count():
        if not listing.evaluate("d => d.open"):
            listing.locator("summary").click()
        target = listing.locator(f"button[data-action='{css(action)}']")
    else:  # the generic table: every action is a button
        target = page.locator(f".play-table button[data-action='{css(action)}']")
    expect(target).to_have_count(1)
    target.click()


def send(page: Page, session_id: int, action: dict):
    """Click the action and return the post's response. A redraw still on its way (the
    bots' moves push one after another) may replace the table between the press and the
    release of the button, which is then no click: the test clicks again (nothing was
    posted, and the game has not moved)."""
    for _attempt in range(3):
        try:
            with page.expect_response(
                re.compile(rf"/play/{session_id}/act/$"), timeout=4000
            ) as posted:
                click(page, action)
            return posted.value
        except PlaywrightTimeoutError:
            continue
    raise AssertionError(f"the click on {action} posted nothing")


def test_two_teammates_play_a_team_events_game_from_their_own_browsers(
    alice, bob, charlie, dave, live_server_url, db_thread, new_page, monkeypatch
):
    queued: list[int] = []  # the round's task; no worker reads this process's queue
    monkeypatch.setattr(tasks.start_round_games, "delay", queued.append)
    slug, session_id = db_thread(_deal, queued, "alice")
    seats = db_thread(_seats, session_id)
    people = (seats["alice"], seats["bob"])
    assert people in ((0, 2), (1, 3))  # teammates: seats 0 and 2 or 1 and 3 (T-78)

    pages: dict[int, Page] = {}
    errors: list[str] = []
    for name in ("alice", "bob"):
        page = new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, name)
        page.goto(f"/events/{slug}/my-match/")
        with page.expect_navigation(url=re.compile(rf"/play/{session_id}/$")):
            page.get_by_role("link", name="Play your game").first.click()
        pages[seats[name]] = page

    clicks = dict.fromkeys(people, 0)
    picks = dict.fromkeys(people, 0)
    joint = 0
    for _ in range(MAX_CLICKS):
        status, seq, to_act, state = db_thread(_turn, session_id)
        if status != GameSession.Status.RUNNING:
            break
        for seat, page in pages.items():
            expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
            # Its own moves, or out of turn its own treasure (C-55): never the teammate's.
            own = SYSTEM.legal_actions(state, seat) + interrupts(SYSTEM, state, seat)
            mine = sorted(compact(a) for a in own)
            assert offered(page) == mine, (seat, seq)
        joint += len(to_act) == 2
        seat = to_act[0]
        action = BRAIN.choose(state, seat)
        posted = send(pages[seat], session_id, action)
        assert posted.status == 202, posted.text()
        assert db_thread(_apply, session_id, seat, seq, action) == "applied"
        clicks[seat] += 1
        picks[seat] += action["type"] == "pick"
    else:
        raise AssertionError(f"the game is not over after {sum(clicks.values())} clicks")

    assert picks == dict.fromkeys(people, 3)  # T-78: the team's 6 champions, 3 each, each their own
    assert all(n > 3 for n in clicks.values()) and joint > 0  # T-79: joint turns
    result, match_status, source, winner, event_status = db_thread(_outcome, session_id)
    assert match_status == Match.Status.FINAL and source == Match.Source.ENGINE
    if result["draw"]:
        assert winner is None
    else:
        team = "Alice and Bob" if set(result["winners"]) == set(people) else "The Bots"
        assert sorted(result["winners"]) in ([0, 2], [1, 3]) and winner == team
    assert event_status == Event.Status.FINISHED  # one round: the event is over
    for page in pages.values():
        expect(page.locator("#play")).to_have_attribute("data-status", "finished")
        expect(page.locator(".play-result")).to_be_visible()
    page = pages[seats["alice"]]
    page.goto(f"/events/{slug}/standings/")
    expect(page.locator("main")).to_contain_text("Alice and Bob")
    expect(page.locator("main")).to_contain_text("@alice, @bob")
    assert not errors, errors
