"""Bots, the simulator and the benchmark, on the synthetic card pool."""

from __future__ import annotations

import json

import pytest

from engine import simulate
from engine.voskhozhdenie.bots import make_bot
from engine.voskhozhdenie.sample import sample_deck
from tests.engine.voskhozhdenie.helpers import new_system


def _play(system, names, seed, max_rounds=60):
    decks = [sample_deck(system.db, seed * 3 + k) for k in range(len(names))]
    bots = [make_bot(name, system, seed + k) for k, name in enumerate(names)]
    return simulate.play_game(system, bots, decks, seed, max_rounds)


def test_bots_are_deterministic():
    system = new_system()
    assert _play(system, ["heuristic", "random"], 3) == _play(system, ["heuristic", "random"], 3)
    assert _play(system, ["random", "random"], 4) == _play(system, ["random", "random"], 4)


def test_heuristic_beats_random():
    system = new_system()
    wins = 0
    for seed in range(10):
        outcome = _play(system, ["heuristic", "random"], seed)
        wins += outcome["winners"] == (0,)
    assert wins >= 8


def test_bots_only_choose_legal_actions_in_multiplayer():
    system = new_system()
    outcome = _play(system, ["heuristic", "random", "heuristic"], 5)
    assert outcome["actions"] > 0


def test_unknown_bot():
    with pytest.raises(ValueError):
        make_bot("genius", new_system())


def test_simulate_cli(capsys):
    code = simulate.main(
        ["voskhozhdenie", "--games", "4", "--bots", "heuristic,random", "--sample", "--quiet"]
    )
    out = capsys.readouterr().out
    assert code == 0 and "errors: 0" in out and "heuristic wins" in out


def test_bench_json(capsys):
    from bench import engine as bench_engine

    assert bench_engine.main(["--games", "2", "--sample", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"system", "games_per_second", "apply_p50_ms", "apply_p99_ms", "state_bytes"} <= set(
        report
    )


@pytest.mark.rule("1.3.9")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_that_play_to_win_end_their_games_on_real_decks(players):
    """Heuristic bots in every seat, real card sets: every game ends by the rules, well
    inside the simulator's cap (``bench/games_end.py`` measures it over 1,000 games)."""
    kit = simulate.load_kit("voskhozhdenie")
    system, _pool = kit.system(False)
    for k in range(6 if players < 4 else 4):
        seed = 9_000 + 10 * players + k
        decks = kit.decks(system, players, seed, "standard")
        bots = [kit.make_bot("heuristic", system, seed + i) for i in range(players)]
        outcome = simulate.play_game(system, bots, decks, seed, max_rounds=60)
        assert not outcome["capped"], (seed, outcome)
        assert outcome["draw"] or len(outcome["winners"]) == 1
