"""The simulator and the engine bench are game-neutral: every system plugs in a kit."""

from __future__ import annotations

import pytest

from bench import engine as engine_bench
from engine import simulate
from engine.core import registry


@pytest.mark.parametrize("system", ["voskhozhdenie", "ascension"])
def test_simulator_plays_bot_games_of_every_registered_engine(system, capsys):
    code = simulate.main([system, "--games", "4", "--quiet", "--sample"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "errors: 0" in out and f"{system} (" in out


@pytest.mark.parametrize("system", ["voskhozhdenie", "ascension"])
def test_engine_bench_reports_the_promised_fields(system):
    report = engine_bench.run(games=2, seed=3, sample=True, system_key=system)
    assert report["system"] == system
    for key in ("games_per_second", "apply_p50_ms", "apply_p99_ms", "state_bytes"):
        assert report[key] > 0, key


def test_every_system_with_an_engine_has_a_simulation_kit():
    for info in registry.all_systems():
        if info.engine:
            kit = info.load("simulation")
            system, _pool = kit.system(True)
            assert len(kit.decks(system, 2, 1)) == 2


def test_simulator_plays_2v2_with_allies_and_more_players(capsys):
    assert simulate.main(["voskhozhdenie", "--games", "3", "--quiet", "--teams"]) == 0
    out = capsys.readouterr().out
    assert "4 players (heuristic, random, heuristic, random, two teams" in out
    assert "errors: 0" in out
    assert simulate.main(["voskhozhdenie", "--games", "2", "--quiet", "--players", "3"]) == 0
    assert "3 players (heuristic, random, heuristic)" in capsys.readouterr().out


def test_teams_need_a_kit_that_has_them(capsys):
    with pytest.raises(SystemExit):
        simulate.main(["ascension", "--games", "1", "--quiet", "--teams"])
    assert "no team play" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        simulate.main(["voskhozhdenie", "--games", "1", "--quiet", "--teams", "--players", "3"])
    assert "even number of players" in capsys.readouterr().err


def test_unknown_system_is_a_clear_error():
    with pytest.raises(SystemExit, match="no simulator for 'chess'"):
        simulate.load_kit("chess")
