"""The definition of done for a game-neutral platform: «High card», a game that exists only
under ``tests/toygame/``, is registered here and runs through every part of the site with
no change outside its folder: a casual game through the pages, a draft pod of eight
bots and a player's deck built on the deck page, and a Swiss event with decklists whose
games bots play online to the final standings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from drafting.models import Pod
from drafting.services.creating import create_pod, quick_pod
from drafting.services.decks import check_deck
from drafting.services.pods import seat_of
from drafting.services.pools import deck_pool_of, pool_of
from drafting.services.starting import start_pod
from engine.core import registry
from engine.core.registry import Format, GameSystemInfo
from play import tasks
from play.models import GameSession
from tests.toygame.bots import make_bot
from tests.toygame.decks import DECKLISTS, random_list
from tests.toygame.game import SYSTEM
from tournaments.models import Event, Match, Round
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.standings import refresh_standings
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db

KEY = "highcard"


@pytest.fixture(autouse=True)
def highcard():
    registry.register(
        GameSystemInfo(
            key=KEY,
            name="High card",
            formats=(
                Format("standard", "Standard", "Стандарт"),
                Format("draft", "Draft", "Драфт", limited=True),
                Format("sealed", "Sealed", "Силед", limited=True, sealed=True),
            ),
            engine="tests.toygame.game:SYSTEM",
            decks="tests.toygame.decks:DECKLISTS",
            limited="tests.toygame.decks:KIT",
            draft_sets=("HC1",),
            boosters_per_player=3,
            sealed_boosters=3,
            casual_format="standard",
            starter_decks=str(Path(__file__).resolve().parent / "starters.txt"),
        )
    )
    yield registry.get(KEY)
    registry.unregister(KEY)


BRAIN = make_bot("heuristic", SYSTEM, 7)


def fresh(session: GameSession) -> GameSession:
    return GameSession.objects.get(pk=session.pk)


def play_out(session: GameSession, client=None, limit: int = 50) -> GameSession:
    """Every move to the end: a bot's through its task; a person's sent through the page
    (``play:act``, which queues it) and applied by the task a worker would run."""
    for _ in range(limit):
        session = fresh(session)
        if session.status != GameSession.Status.RUNNING:
            return session
        (seat,) = SYSTEM.to_act(session.state)
        if session.seats.get(number=seat).is_bot:
            assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
            continue
        action = BRAIN.choose(session.state, seat)
        if client is not None:
            sent = client.post(
                reverse("play:act", args=[session.pk]),
                {"seq": session.seq, "action": json.dumps(action)},
                HTTP_ACCEPT="application/json",
            )
            assert sent.status_code == 202, sent.content
        args = (session.pk, seat, session.seq, action)
        assert tasks.apply_action.apply(args=args).get() == "applied"
    raise AssertionError("the game did not end")


def test_a_casual_game_against_a_bot_through_the_pages(client, alice):
    client.force_login(alice)
    home = client.get(reverse("play:home")).content.decode()
    assert "High card" in home  # offered, from the registry
    bad = client.post(
        reverse("play:new_bot_game"),
        {"system": KEY, "bot": "heuristic", "deck": "paste", "decklist": "3 Sun 1"},
    )
    assert bad.status_code in (200, 302, 400) and not GameSession.objects.exists()  # HC-1
    response = client.post(
        reverse("play:new_bot_game"),
        {"system": KEY, "bot": "heuristic", "deck": "paste", "decklist": random_list(1)},
    )
    session = GameSession.objects.get()
    assert response["Location"] == reverse("play:game", args=[session.pk])
    assert session.system == KEY and session.decks[0] == DECKLISTS.to_engine_deck(random_list(1))
    page = client.get(reverse("play:game", args=[session.pk]))
    assert page.status_code == 200  # the generic table: the game ships no template
    state = client.get(reverse("play:state", args=[session.pk])).json()
    assert state["seat"] == 0 and isinstance(state["view"]["hands"][0], list)
    assert not isinstance(state["view"]["hands"][1], list)  # the bot's hand stays hidden
    session = play_out(session, client)
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.RULES
    assert client.get(reverse("play:replay", args=[session.pk])).status_code == 200
    end = client.get(reverse("play:game", args=[session.pk]))
    assert end.status_code == 200
    assert "Decided by the rules." in end.content.decode()  # no ``ending`` hook: the generic line


def test_a_pod_of_eight_bots_drafts_and_builds_and_a_player_builds_on_the_deck_page(client, alice):
    pod = create_pod(alice, join=False, game_system=KEY, bots_inline=True)
    assert pod.set_codes == ["HC1", "HC1", "HC1"]  # the registry's boosters
    pod = start_pod(alice, pod)
    pod.refresh_from_db()
    assert pod.status == Pod.Status.FINISHED  # bots drafted and built at once
    for seat in pod.seats.all():
        pool = pool_of(pod, seat)
        assert len(pool) == 18 and seat.deck_by_bot
        assert check_deck(pod, seat, seat.deck) == []
    client.force_login(alice)
    assert client.get(reverse("drafting:manage", args=[pod.pk])).status_code == 200

    # A player drafts with seven bots through the room and builds on the deck page.
    pod = quick_pod(alice, game_system=KEY, bots_inline=True)
    seat = seat_of(alice, pod)
    for _ in range(18):
        room = client.get(reverse("drafting:room", args=[pod.pk]))
        assert room.status_code == 200
        pod.refresh_from_db()
        if pod.status != Pod.Status.DRAFTING:
            break
        from drafting import draft as draft_core

        pack = draft_core.current_pack(pod.state, seat.number)
        number = draft_core.pick_number(pod.state, seat.number)
        picked = client.post(
            reverse("drafting:pick", args=[pod.pk]), {"pick": number, "card": pack["cards"][0]}
        )
        assert picked.status_code in (200, 302)
    pod.refresh_from_db()
    assert pod.status == Pod.Status.BUILDING
    page = client.get(reverse("drafting:deck", args=[pod.pk])).content.decode()
    assert "At least 8 cards." in page and "Deck" in page  # the game's own rules and part
    pool = deck_pool_of(pod, seat)
    short = {f"slot-{i}": "deck" for i in range(5)}
    client.post(reverse("drafting:deck", args=[pod.pk]), short)
    assert seat_of(alice, pod).deck is None  # HC-3: refused, nothing saved
    every = {f"slot-{i}": "deck" for i in range(len(pool))}
    client.post(reverse("drafting:deck", args=[pod.pk]), every)
    assert sorted(seat_of(alice, pod).deck["deck"]) == sorted(pool)
    pod.refresh_from_db()
    assert pod.status == Pod.Status.FINISHED


def test_a_swiss_event_with_decklists_is_played_online_by_bots_to_the_end(
    alice, bob, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice,
        name="High card open",
        game_system=KEY,
        format="standard",
        swiss_rounds=2,
        best_of=1,
        play_online=True,
    )
    reg = register(event, user=bob)
    refused = submit_decklist(bob, reg, "12 Sun 1")
    assert not refused.is_legal and {p["rule"] for p in refused.problems} >= {"HC-1", "HC-2"}
    assert submit_decklist(bob, reg, random_list(0)).is_legal
    for n in range(5):
        bot = make_user(f"hc-bot{n}")
        bot_reg = register(event, user=bot, display_name=f"Bot {n}", is_bot=True)
        assert submit_decklist(bot, bot_reg, random_list(10 + n)).is_legal
    event = start_event(alice, event)
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=False):
            rnd = publish_round(alice, pair_next_round(alice, event))
        assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 3
        for _game in range(10):  # a drawn game is played again until the match is decided
            running = list(GameSession.objects.filter(match__round=rnd, status="running"))
            if not running:
                break
            for session in running:
                assert all(isinstance(deck, list) and len(deck) == 10 for deck in session.decks)
                with django_capture_on_commit_callbacks(execute=False):
                    play_out(session)
        rnd.refresh_from_db()
        assert rnd.number == number and rnd.status == Round.Status.COMPLETED
        for match in rnd.matches.all():
            assert match.status == Match.Status.FINAL
            assert match.result_source == Match.Source.ENGINE
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = refresh_standings(event).rows
    matches = Match.objects.filter(round__event=event)
    assert matches.count() == 6 and all(m.games.count() >= 1 for m in matches)
    drawn = sum(1 for m in matches if m.winner_id is None)
    assert len(rows) == 6 and sum(r["points"] for r in rows) == 3 * 6 - drawn  # 3 or 1 + 1
