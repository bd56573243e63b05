"""Berserk played on the site by its rules engine: a casual game against a bot from a
starter deck, and an online Swiss event whose games bots play to the final standings.
Every task a worker would run is run here in-process (``task.apply``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.berserk.bots import make_bot
from engine.berserk.game import SYSTEM
from engine.core import registry
from play import tasks
from play.decks import DeckChoice
from play.models import GameSession
from play.services.reading import replay_state
from play.services.starting import create_bot_game
from tournaments.models import Event, Match, Round
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 3)
STARTERS = registry.get("berserk").load_starter_decks()


def play_out(session: GameSession, limit: int = 3000) -> GameSession:
    for _ in range(limit):
        session = GameSession.objects.get(pk=session.pk)
        if session.status != GameSession.Status.RUNNING:
            return session
        (seat,) = SYSTEM.to_act(session.state)
        if session.seats.get(number=seat).is_bot:
            assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
        else:
            action = BRAIN.choose(session.state, seat)
            args = (session.pk, seat, session.seq, action)
            assert tasks.apply_action.apply(args=args).get() == "applied"
    raise AssertionError("the game did not end")


def test_a_casual_berserk_game_against_a_bot_is_played_to_the_end(client, alice):
    session = create_bot_game(alice, "berserk", deck=DeckChoice(STARTERS[0].key))
    assert session.status == GameSession.Status.RUNNING
    client.force_login(alice)
    assert client.get(reverse("play:game", args=[session.pk])).status_code == 200
    state = client.get(reverse("play:state", args=[session.pk])).json()
    assert state["seat"] == 0
    session = play_out(session)
    assert session.status == GameSession.Status.FINISHED
    assert replay_state(session) == session.state
    assert client.get(reverse("play:replay", args=[session.pk])).status_code == 200


def test_an_online_berserk_event_is_played_by_bots_to_the_end(
    alice, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice,
        name="Berserk Online",
        game_system="berserk",
        format="constructed",
        swiss_rounds=2,
        best_of=1,
        play_online=True,
    )
    for n in range(4):
        bot = make_user(f"bk-bot{n}")
        reg = register(event, user=bot, display_name=f"Bot {n}", is_bot=True)
        assert submit_decklist(bot, reg, STARTERS[n % len(STARTERS)].text).is_legal
    event = start_event(alice, event)
    for number in (1, 2):
        with django_capture_on_commit_callbacks(execute=False):
            rnd = publish_round(alice, pair_next_round(alice, event))
        assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 2
        for _game in range(10):  # a drawn game is played again
            running = list(GameSession.objects.filter(match__round=rnd, status="running"))
            if not running:
                break
            for session in running:
                with django_capture_on_commit_callbacks(execute=False):
                    play_out(session)
        rnd.refresh_from_db()
        assert rnd.number == number and rnd.status == Round.Status.COMPLETED
        assert all(m.result_source == Match.Source.ENGINE for m in rnd.matches.all())
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_the_winner_of_a_game_chooses_who_goes_first_in_the_next(
    alice, make_user, django_capture_on_commit_callbacks
):
    """302.2: in a match the previous game's winner chooses; the play app asks the engine
    (``next_game_config``) what the next game starts from."""
    event = create_event(
        alice,
        name="Berserk Bo3",
        game_system="berserk",
        format="constructed",
        swiss_rounds=1,
        best_of=3,
        play_online=True,
    )
    for n in range(2):
        bot = make_user(f"bo3-bot{n}")
        reg = register(event, user=bot, display_name=f"Bot {n}", is_bot=True)
        submit_decklist(bot, reg, STARTERS[n].text)
    event = start_event(alice, event)
    with django_capture_on_commit_callbacks(execute=False):
        rnd = publish_round(alice, pair_next_round(alice, event))
    assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 1
    first = GameSession.objects.get(match__round=rnd)
    assert first.config.get("chooser") is None  # game 1: the die decides
    with django_capture_on_commit_callbacks(execute=False):
        first = play_out(first)
    winners = first.result["winners"]
    second = GameSession.objects.get(match__round=rnd, game_number=2)  # bo3: never over in 1
    expected = winners[0] if len(winners) == 1 else None
    assert second.config["chooser"] == expected
    if expected is not None:
        assert SYSTEM.to_act(second.state) == (expected,)
        assert {a["type"] for a in SYSTEM.legal_actions(second.state, expected)} == {"choose_first"}
    assert SYSTEM.next_game_config({"chooser": 1}, first_draw())["chooser"] is None


def first_draw():
    from engine.core.protocol import GameResult

    return GameResult(True, draw=True)
