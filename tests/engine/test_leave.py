"""A player leaving a game (concession, a clock run out) through ``GameSystem.leave``:
every system eliminates that seat by its own rules and play goes on for the others
(«Восхождение» 1.3.7-1.3.9, 1.2.3, 1.2.5); a two-sided game ends."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction
from engine.core.protocol import LEAVE, leave_action, replay
from engine.voskhozhdenie.sample import sample_deck
from tests.engine.ascension.helpers import S as ASCENSION
from tests.engine.voskhozhdenie.helpers import new_system

VOSKHOZHDENIE = new_system()


def vosk_game(players: int, seed: int, teams=None):
    config = {"teams": teams} if teams else {}
    decks = [sample_deck(VOSKHOZHDENIE.db, seed + k) for k in range(players)]
    return config, decks, VOSKHOZHDENIE.new_game(config, decks, seed)


def play_randomly(system, state, rnd: random.Random, log: list, moves: int):
    for _ in range(moves):
        if system.result(state).finished:
            break
        (seat,) = system.to_act(state)
        action = rnd.choice(system.legal_actions(state, seat))
        state, _events = system.apply(state, seat, action)
        log.append((seat, action))
    return state


def leave(system, state, seat, log, reason="concede"):
    before = json.dumps(state, sort_keys=True)
    new, events = system.leave(state, seat, reason)
    assert json.dumps(state, sort_keys=True) == before, "leave mutated its input"
    log.append((seat, leave_action(reason)))
    json.dumps(new)
    json.dumps(events)
    return new


@pytest.mark.rule("1.3.9", "1.2.5", "CK-142")
def test_in_a_two_player_game_the_other_player_wins_at_once():
    _config, _decks, state = vosk_game(2, 3)
    state = leave(VOSKHOZHDENIE, state, 0, [])
    result = VOSKHOZHDENIE.result(state)
    assert result.finished and result.winners == (1,) and result.eliminated == (0,)
    assert VOSKHOZHDENIE.to_act(state) == ()

    state = ASCENSION.new_game({"players": 2}, [], 3)
    state = leave(ASCENSION, state, 1, [])
    result = ASCENSION.result(state)
    assert result.finished and result.winners == (0,) and result.eliminated == (1,)


@pytest.mark.rule("1.3.7", "1.3.9", "1.2.3", "1.2.5")
def test_two_vs_two_a_concession_leaves_the_ally_playing_and_the_team_can_still_win():
    teams = [[0, 2], [1, 3]]
    rnd = random.Random(5)
    config, decks, state = vosk_game(4, 11, teams)
    log: list = []
    state = play_randomly(VOSKHOZHDENIE, state, rnd, log, 40)
    state = leave(VOSKHOZHDENIE, state, 1, log)
    result = VOSKHOZHDENIE.result(state)
    assert not result.finished, "one concession does not end a game of two teams"
    assert result.eliminated == (1,) and result.winners == ()
    assert 1 not in VOSKHOZHDENIE.to_act(state)
    assert VOSKHOZHDENIE.legal_actions(state, 1) == []
    # The seat's cards left the game (1.3.8).
    assert not any(c["owner"] == 1 and c["zone"] != "gone" for c in state["cards"])
    with pytest.raises(IllegalAction):
        VOSKHOZHDENIE.leave(state, 1, "concede")
    state = play_randomly(VOSKHOZHDENIE, state, rnd, log, 30)
    # The second player of that team leaves too: the other team wins, both of its
    # players (1.2.3), and the team that left loses (1.2.5).
    state = leave(VOSKHOZHDENIE, state, 3, log, reason="time")
    result = VOSKHOZHDENIE.result(state)
    assert result.finished and not result.draw
    assert result.winners == (0, 2) and result.eliminated[:2] == (1, 3)
    assert replay(VOSKHOZHDENIE, config, decks, 11, log) == state
    with pytest.raises(IllegalAction):
        VOSKHOZHDENIE.leave(state, 0, "concede")


@pytest.mark.rule("1.3.7", "1.3.9")
def test_free_for_all_the_game_goes_on_until_one_player_is_left():
    config, decks, state = vosk_game(3, 21)
    rnd = random.Random(2)
    log: list = []
    state = play_randomly(VOSKHOZHDENIE, state, rnd, log, 25)
    state = leave(VOSKHOZHDENIE, state, 2, log)
    assert not VOSKHOZHDENIE.result(state).finished
    state = play_randomly(VOSKHOZHDENIE, state, rnd, log, 25)
    if not VOSKHOZHDENIE.result(state).finished:
        state = leave(VOSKHOZHDENIE, state, 0, log)
        result = VOSKHOZHDENIE.result(state)
        assert result.finished and result.winners == (1,)
        assert result.eliminated[-2:] == (2, 0)
    assert replay(VOSKHOZHDENIE, config, decks, 21, log) == state


def test_ascension_pod_the_player_who_left_places_below_everyone_still_in():
    config = {"players": 4}
    state = ASCENSION.new_game(config, [], 8)
    rnd = random.Random(8)
    log: list = []
    state = play_randomly(ASCENSION, state, rnd, log, 60)
    first_out = ASCENSION.to_act(state)[0]  # the player to act leaves: the turn moves on
    state = leave(ASCENSION, state, first_out, log)
    assert not ASCENSION.result(state).finished
    assert first_out not in ASCENSION.to_act(state)
    second_out = next(s for s in range(4) if s != first_out and s not in ASCENSION.to_act(state))
    state = leave(ASCENSION, state, second_out, log, reason="time")
    for _ in range(5000):
        if ASCENSION.result(state).finished:
            break
        (seat,) = ASCENSION.to_act(state)
        assert seat not in (first_out, second_out)
        state = play_randomly(ASCENSION, state, rnd, log, 1)
    result = ASCENSION.result(state)
    assert result.finished and result.eliminated == (first_out, second_out)
    assert len(result.winners) == 1 and result.winners[0] not in (first_out, second_out)
    assert ASCENSION.placements(state)[-2:] == [second_out, first_out]
    assert replay(ASCENSION, config, [], 8, log) == state


def test_ascension_solo_a_concession_is_a_win_for_samael():
    state = ASCENSION.new_game({"players": 1}, [], 4)
    state = leave(ASCENSION, state, 0, [])
    result = ASCENSION.result(state)
    assert result.finished and result.winners == ()


def test_the_log_record_of_a_departure_is_refused_as_a_move():
    for system, state in (
        (VOSKHOZHDENIE, vosk_game(2, 1)[2]),
        (ASCENSION, ASCENSION.new_game({"players": 2}, [], 1)),
    ):
        seat = system.to_act(state)[0]
        with pytest.raises(IllegalAction):
            system.apply(state, seat, {"type": LEAVE, "reason": "concede"})


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    system_key=st.sampled_from(["voskhozhdenie", "ascension"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    plan=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 3)), min_size=1, max_size=4),
)
def test_any_departures_at_any_time_keep_the_game_consistent_and_replayable(
    system_key, players, seed, plan
):
    if system_key == "voskhozhdenie":
        system = VOSKHOZHDENIE
        config, decks, state = vosk_game(players, seed)
    else:
        system, config, decks = ASCENSION, {"players": players}, []
        state = system.new_game(config, decks, seed)
    rnd = random.Random(seed)
    log: list = []
    left: list[int] = []
    for moves, who in plan:
        state = play_randomly(system, state, rnd, log, moves)
        if system.result(state).finished:
            break
        seat = who % players
        if seat in left:
            with pytest.raises(IllegalAction):
                system.leave(state, seat, "concede")
            continue
        state = leave(system, state, seat, log)
        left.append(seat)
        result = system.result(state)
        assert tuple(left) == tuple(q for q in result.eliminated if q in left)
        if not result.finished:
            assert seat not in system.to_act(state)
            assert system.to_act(state), "someone still in the game acts"
            assert system.legal_actions(state, system.to_act(state)[0])
    assert replay(system, config, decks, seed, log) == state
