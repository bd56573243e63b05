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


def test_unknown_system_is_a_clear_error():
    with pytest.raises(SystemExit, match="no simulator for 'chess'"):
        simulate.load_kit("chess")
