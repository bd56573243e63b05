"""The state as plain JSON data, setup, copying, and the effect-language coverage."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from engine.core.errors import IllegalAction, InvalidConfig, NotYourTurn
from engine.core.protocol import GameSystem
from engine.voskhozhdenie import effects as fx
from engine.voskhozhdenie import game as game_module
from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.rules import Rules
from tests.engine.voskhozhdenie.helpers import act, deck, start, to_actions


def test_state_is_plain_json(system):
    state = start(system)
    assert json.loads(json.dumps(state)) == state
    state = to_actions(system, state)
    assert json.loads(json.dumps(state)) == state


def test_state_has_players_zones_and_instances(system):
    state = start(system)
    p = state["players"][0]
    for key in ("seat", "team", "coins", "supply", "eliminated", "mulligans", "passed"):
        assert key in p
    for zone in ("main", "hand", "reinforcement", "graveyard", "oblivion"):
        assert isinstance(p[zone], list)
    iids = [c["iid"] for c in state["cards"]]
    assert iids == list(range(len(iids)))  # unique instance ids
    assert state["queue"] == [] and state["tactics"] == []
    assert isinstance(state["rng"], list)


def test_system_implements_protocol(system):
    assert isinstance(system, GameSystem)
    assert isinstance(SYSTEM, GameSystem)
    assert SYSTEM.key == "voskhozhdenie"


def test_apply_never_mutates_input(system):
    state = to_actions(system, start(system))
    before = json.dumps(state, sort_keys=True)
    for action in system.legal_actions(state, state["active"]):
        system.apply(state, state["active"], action)
    assert json.dumps(state, sort_keys=True) == before


def test_illegal_action_leaves_state_unchanged_and_names_rule(system):
    state = to_actions(system, start(system))
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        system.apply(state, state["active"], {"type": "direct_attack", "target": state["active"]})
    assert err.value.rule == "5.6.3.2.2.1"
    with pytest.raises(NotYourTurn):
        system.apply(state, 1 - state["active"], {"type": "pass"})
    assert json.dumps(state, sort_keys=True) == before


def test_bad_configs_are_rejected(system):
    with pytest.raises(InvalidConfig):
        system.new_game({}, [deck()], 1)
    with pytest.raises(InvalidConfig):
        system.new_game({"dice": "d"}, [deck(), deck()], 1)
    with pytest.raises(InvalidConfig):
        system.new_game({"teams": [[0], [0]]}, [deck(), deck()], 1)
    with pytest.raises(InvalidConfig):
        system.new_game({}, [deck(main=["NOPE"]), deck()], 1)


def test_same_seed_same_game(system):
    a = start(system, seed=5)
    b = start(system, seed=5)
    assert a == b
    c = start(system, seed=6)
    assert [p["main"] for p in a["players"]] != [p["main"] for p in c["players"]]


def test_dice_option_2d6(system):
    state = start(system, config={"dice": "2d6"})
    assert state["dice"] == [2, 6]


def test_every_effect_op_is_implemented():
    """Every op of engine.voskhozhdenie.effects has a handler, and no handler is unknown."""
    missing = [op for op in fx.DYNAMIC_OPS if not hasattr(Rules, "op_" + op)]
    assert not missing, f"dynamic ops without a handler: {missing}"
    assert set(game_module.IMPLEMENTED_DYNAMIC_OPS) == set(fx.DYNAMIC_OPS)
    handled = {name[3:] for name in dir(Rules) if name.startswith("op_")}
    internal = {"end_replace", "finish_order", "choose_replacement"}
    extra = handled - set(fx.DYNAMIC_OPS) - internal
    assert not extra, f"handlers for ops the effect language lacks: {extra}"
    here = Path(game_module.__file__).parent  # game.py and the rules package
    paths = [here / "game.py", *sorted((here / "rules").glob("*.py"))]
    source = "".join(path.read_text(encoding="utf-8") for path in paths)
    for op in fx.STATIC_OPS:
        assert f'"{op}"' in source, f"static op {op} not implemented"
    for op in fx.COST_OPS:
        assert f'"{op}"' in source, f"cost op {op} not implemented"
    for name in fx.CONDITIONS:
        assert f'"{name}"' in source, f"condition {name} not implemented"
    for action in fx.CANNOT_ACTIONS:
        assert f'"{action}"' in source, f"prohibition {action} not implemented"
    for event in fx.EVENTS:
        assert f'trigger("{event}"' in source, f"trigger event {event} never raised"
    if len(fx.DYNAMIC_OPS) + len(fx.STATIC_OPS) < 20:  # pragma: no cover
        warnings.warn("the effect language looks truncated", stacklevel=1)


def test_action_count_in_log(system):
    state = to_actions(system, start(system))
    n = state["log"]
    state = act(system, state, {"type": "pass"})
    assert state["log"] == n + 1


def test_rule_options(system):
    with pytest.raises(InvalidConfig):
        system.new_game({"options": {"nope": 1}}, [deck(), deck()], 1)
    state = start(system, config={"options": {"coins_reset": True, "mulligan": "shuffle"}})
    state = to_actions(system, state)
    coins = [p["coins"] for p in state["players"]]
    state = act(system, state, {"type": "pass"})
    state = act(system, state, {"type": "pass"})
    assert [p["coins"] for p in state["players"]] == [
        state["players"][k]["supply"] for k in range(2)
    ]  # AMB-17 option: not carried over
    assert coins == [p["supply"] for p in state["players"]]


def test_registry_finds_the_lazy_system():
    from engine.core.registry import get

    loaded = get("voskhozhdenie").load("engine")
    assert loaded is SYSTEM
    assert game_module._default_system.cache_info().currsize in (0, 1)  # loads on first use


def test_engine_imports_nothing_from_django():
    import subprocess
    import sys

    code = (
        "import sys, engine.voskhozhdenie.game, engine.voskhozhdenie.bots, "
        "engine.voskhozhdenie.views, engine.simulate; "
        "print(any(m.startswith('django') for m in sys.modules))"
    )
    root = __file__.rsplit("/tests/", 1)[0]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "False"
