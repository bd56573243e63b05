"""Bots: legal, deterministic from their seed, and able to finish a game."""

from __future__ import annotations

import pytest

from engine.ascension.bots import BOTS, heuristic_bot, make_bot, random_bot
from engine.core import registry
from engine.core.protocol import GameSystem
from engine.core.rng import seed_state
from tests.engine.ascension.helpers import S, check_invariants


def play_out(names, seed, n=None, check=False):
    n = n or len(names)
    state = S.new_game({"players": n}, [], seed)
    rngs = [seed_state(seed * 7 + i) for i in range(n)]
    actions = []
    while not state["finished"]:
        (seat,) = S.to_act(state)
        action = BOTS[names[seat]](S, state, seat, rngs[seat])
        if check:
            assert action in S.legal_actions(state, seat)
        state, _ = S.apply(state, seat, action)
        actions.append(action)
        assert len(actions) < 20_000, "the game does not end"
    if check:
        check_invariants(state)
    return state, actions


def test_registry_loads_this_system():
    system = registry.get("ascension").load("engine")
    assert system is S and isinstance(S, GameSystem)
    assert set(BOTS) == {"random", "heuristic"}
    assert BOTS["random"] is random_bot and BOTS["heuristic"] is heuristic_bot


def test_a_full_two_player_bot_game_ends_with_a_result():
    state, _ = play_out(["heuristic", "random"], seed=3, check=True)
    result = S.result(state)
    assert result.finished and len(result.winners) == 1
    assert set(result.scores) == {0, 1}
    assert result.scores[result.winners[0]] == max(result.scores.values())


@pytest.mark.parametrize("names", [["random", "random"], ["heuristic", "heuristic", "random"],
                                   ["heuristic", "random", "heuristic", "random"], ["heuristic"]])  # fmt: skip
def test_bots_only_choose_legal_actions_and_finish(names):
    state, _ = play_out(names, seed=11, check=True)
    assert S.result(state).finished


def test_bots_are_deterministic_from_their_seed():
    a = play_out(["heuristic", "random"], seed=21)
    b = play_out(["heuristic", "random"], seed=21)
    assert a == b
    c = play_out(["random", "random"], seed=22)
    assert c != play_out(["random", "random"], seed=23)


def test_the_heuristic_bot_beats_the_random_bot():
    wins = 0
    for seed in range(10):
        names = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        state, _ = play_out(names, seed)
        wins += names[S.result(state).winners[0]] == "heuristic"
    assert wins >= 8


def test_make_bot_gives_an_object_with_choose():
    bot = make_bot("heuristic", S, 1)
    state = S.new_game({"players": 2}, [], 1)
    assert bot.choose(state, state["active"]) in S.legal_actions(state, state["active"])
    with pytest.raises(ValueError):
        make_bot("nobody", S)
