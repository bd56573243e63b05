"""Later games of a match, and bots at the clock.

Who goes first in each game of a best-of-N match is what the rules say, with nothing
carried over from the game before: «Восхождение» opens every game with its Initiative
stage (rule 5.3; AMB-13: tied highest players re-roll, the winner chooses who takes the
first turn), and Ascension chooses the first player at random (A-12). So game 2 is dealt
from a seed of its own, with the same engine config as game 1 and no first player set
by play.

Bots have no clock: a bot seat never loses on time and no clock task is queued for it.
"""

from __future__ import annotations

import pytest

from engine.ascension.game import SYSTEM as ASCENSION
from engine.voskhozhdenie.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.acting import concede
from play.services.starting import MATCH_TIME_BANK, create_bot_game, engine_config, start_match
from tests.play.helpers import legal_deck_text
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


def online_match(alice, players, bots=()):
    """A published Swiss round of a best-of-3 online event; its one match."""
    event = create_event(
        alice, name="Best of three", format="blitz", swiss_rounds=1, best_of=3, play_online=True
    )
    for n, user in enumerate(players, start=1):
        reg = register(event, user=user)
        submit_decklist(user, reg, legal_deck_text(n))
    for n, user in enumerate(bots, start=7):
        reg = register(event, user=user, display_name=f"Bot {n}", is_bot=True)
        submit_decklist(user, reg, legal_deck_text(n))
    event = start_event(alice, event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    (match,) = rnd.matches.filter(is_bye=False)
    return match


def roll_winner(state) -> int:
    """The seat that won the last Initiative roll-off (5.3): the strict highest total."""
    last = state["initiative"][-1]
    best = max(total for _seat, total in last)
    (winner,) = [seat for seat, total in last if total == best]  # AMB-13: no tie survives
    return winner


def test_game_two_opens_with_its_own_initiative_roll(alice, bob, charlie):
    match = online_match(alice, [bob, charlie])
    first = start_match(match)
    assert first.game_number == 1
    # Rule 5.3: game 1 opens with the roll; its winner is the one to choose the first player.
    assert first.state["initiative"]
    assert first.state["pending"]["kind"] == "first_player"
    assert first.state["pending"]["player"] == roll_winner(first.state)

    loser = first.seats.get(number=roll_winner(first.state)).user
    concede(loser, first)  # the roll's winner loses game 1
    second = GameSession.objects.get(match=match, game_number=2)
    assert second.status == GameSession.Status.RUNNING
    assert second.seed != first.seed
    assert second.config == first.config  # play sets no first player of its own
    assert "first" not in second.config and "first_player" not in second.config
    # Game 2 is decided afresh: its own roll, from its own seed, names who chooses.
    assert second.state == SYSTEM.new_game(second.config, second.decks, second.seed)
    assert second.state["initiative"]
    assert second.state["pending"]["kind"] == "first_player"
    assert second.state["pending"]["player"] == roll_winner(second.state)
    assert SYSTEM.to_act(second.state) == (roll_winner(second.state),)


def test_the_roll_winner_chooses_who_takes_the_first_turn(alice, bob, charlie):
    # 5.3: the winner may choose any player, itself included (AMB-13).
    match = online_match(alice, [bob, charlie])
    session = start_match(match)
    chooser = roll_winner(session.state)
    other = 1 - chooser
    legal = SYSTEM.legal_actions(session.state, chooser)
    assert {"type": "first_player", "seat": other} in legal
    assert {"type": "first_player", "seat": chooser} in legal
    assert SYSTEM.legal_actions(session.state, other) == []
    result = tasks.apply_action.apply(
        args=(session.pk, chooser, 0, {"type": "first_player", "seat": other})
    ).get()
    assert result == "applied"
    session.refresh_from_db()
    assert session.state["turn_order"][0] == other


def test_a_bot_seat_has_no_clock_and_never_loses_on_time(alice, bob, make_user):
    bot = make_user("clockless-bot")
    match = online_match(alice, [bob], bots=[bot])
    session = start_match(match)
    bot_seat = session.seats.get(is_bot=True)
    person = session.seats.get(is_bot=False)
    assert bot_seat.time_left is None and bot_seat.deadline is None
    assert person.time_left == MATCH_TIME_BANK
    # Play until the bot has acted a few times; its clock never starts.
    for _ in range(60):
        session.refresh_from_db()
        if session.status != GameSession.Status.RUNNING:
            break
        (seat,) = SYSTEM.to_act(session.state)
        if seat == bot_seat.number:
            bot_seat.refresh_from_db()
            assert bot_seat.deadline is None and bot_seat.clock_check_at is None
            # A clock task for the bot (late, forged, repeated) changes nothing.
            assert tasks.clock_expired.apply(args=(session.pk, seat, session.seq)).get() is False
            assert GameSession.objects.get(pk=session.pk).status == GameSession.Status.RUNNING
            assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
        else:
            person.refresh_from_db()
            assert person.deadline is not None  # the person's clock runs on their turn
            action = SYSTEM.legal_actions(session.state, seat)[0]
            result = tasks.apply_action.apply(args=(session.pk, seat, session.seq, action)).get()
            assert result == "applied"
    bot_seat.refresh_from_db()
    assert bot_seat.time_left is None and bot_seat.deadline is None


def test_a_casual_bot_game_queues_clock_tasks_for_the_person_only(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    for task in (tasks.clock_expired, tasks.bot_move):
        monkeypatch.setattr(
            task, "apply_async", lambda args, _name=task.name, **kw: sent.append((_name, args))
        )
    with django_capture_on_commit_callbacks(execute=True):
        session = create_bot_game(alice, "ascension", "heuristic", time_bank=300)
    clock_tasks = [args for name, args in sent if name == tasks.clock_expired.name]
    (human,) = session.seats.filter(is_bot=False)
    (bot_seat,) = session.seats.filter(is_bot=True)
    if human.number in ASCENSION.to_act(session.state):
        assert len(clock_tasks) == 1 and human.deadline is not None
    else:
        assert clock_tasks == [] and human.deadline is None
    assert bot_seat.time_left is None and bot_seat.deadline is None
    assert bot_seat.clock_check_at is None


def test_games_on_the_site_are_dealt_with_the_systems_online_event_rules():
    """The registry's ``play_config`` is merged under a game's own config and stored with
    the session, so a replay deals the game as it was dealt."""
    from engine.core import registry

    defaults = registry.get("voskhozhdenie").play_config
    assert defaults["idle_rounds"] and defaults["round_limit"]
    assert engine_config("voskhozhdenie", {"teams": [[0, 1], [2, 3]]}) == {
        **defaults,
        "teams": [[0, 1], [2, 3]],
    }
    assert engine_config("voskhozhdenie", {"idle_rounds": 3})["idle_rounds"] == 3
    assert engine_config("ascension", {"players": 1}) == {"players": 1}
