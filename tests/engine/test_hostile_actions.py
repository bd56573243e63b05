"""Any JSON a client may send, against every registered game system: the result is
either a legal move or ``IllegalAction``/``NotYourTurn`` with the state untouched.

States come from random legal play with the system's own simulation kit; the actions
are arbitrary JSON, legal actions bent out of shape (another type for a value: a float,
a bool, a text, null, a list; a key more or less; huge numbers), actions of other seats
and actions of other systems.
"""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import registry
from engine.core.errors import IllegalAction
from engine.core.legality import canonical
from tests import strategies

SYSTEMS = [info.key for info in registry.all_systems() if info.simulation]


@cache
def kit_system(key: str):
    kit = registry.get(key).load("simulation")
    system, _pool = kit.system(True)
    return kit, system


@cache
def states(key: str) -> list[dict]:
    """States reached by random legal play: openings, middles, every table size."""
    info = registry.get(key)
    kit, system = kit_system(key)
    out = []
    for players in range(max(2, info.min_players), info.max_players + 1):
        for seed in range(2):
            decks = kit.decks(system, players, seed, kit.formats[0])
            config = {"players": players} if key == "ascension" else {}
            state = system.new_game(config, decks, seed)
            rnd = random.Random(seed)
            for moves in range(160):
                if moves in (0, 3, 12, 40, 90, 159):
                    out.append(state)
                if system.result(state).finished:
                    break
                seat = system.to_act(state)[0]
                state, _events = system.apply(
                    state, seat, rnd.choice(system.legal_actions(state, seat))
                )
    return out


@cache
def foreign_actions() -> list[dict]:
    """Legal actions of every system's games (sent to the others' games)."""
    found = []
    for key in SYSTEMS:
        _kit, system = kit_system(key)
        for state in states(key)[:6]:
            for seat in system.to_act(state):
                found.extend(system.legal_actions(state, seat)[:10])
    return found


json_values = strategies.json_values(4)


def twist(value, draw):
    """Another value of another (or the same) type, close to ``value``."""
    if type(value) is int:
        return draw(
            st.sampled_from(
                [
                    float(value),
                    bool(value % 2),
                    str(value),
                    None,
                    [value],
                    value + 2**64,
                    -value - 1,
                ]
            )
        )
    if type(value) is bool:
        return draw(st.sampled_from([int(value), float(value), str(value).lower(), None]))
    if isinstance(value, list):
        return draw(st.sampled_from([tuple(value), {}, value * 2, [*value, value], None, 0]))
    return draw(json_values)


@st.composite
def hostile(draw, key: str):
    """(state, player, action) for one system."""
    _kit, system = kit_system(key)
    state = draw(st.sampled_from(states(key)))
    seats = len(system.view(state, None).get("players", [])) or 2
    to_act = list(system.to_act(state))
    player = draw(
        st.sampled_from(to_act or [0])
        | st.integers(-2, seats + 1)
        | st.sampled_from([True, 0.0, "0", None])
    )
    legal = []
    for seat in to_act:
        legal.extend(system.legal_actions(state, seat))
    how = draw(st.sampled_from(["junk", "twist", "extra", "missing", "foreign", "legal"]))
    if how == "junk" or not legal:
        action = draw(json_values | st.dictionaries(st.just("type"), json_values, min_size=1))
    elif how == "foreign":
        action = draw(st.sampled_from(foreign_actions()))
    else:
        action = dict(draw(st.sampled_from(legal)))
        keys = [k for k in action if k != "type"]
        if how == "twist" and keys:
            k = draw(st.sampled_from(keys))
            action[k] = twist(action[k], draw)
        elif how == "extra":
            action[draw(st.sampled_from(["target", "ability", "x", "seat", "iid", "zz"]))] = draw(
                json_values
            )
        elif how == "missing" and keys:
            del action[draw(st.sampled_from(keys))]
    return state, player, action


def is_offered(system, state, player, action) -> bool:
    if type(player) is not int or player not in system.to_act(state):
        return False
    try:
        form = canonical(action)
    except IllegalAction:
        return False
    return any(canonical(a) == form for a in system.legal_actions(state, player))


@pytest.mark.parametrize("key", SYSTEMS)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_any_input_is_a_legal_move_or_refused_with_the_state_untouched(key, data):
    _kit, system = kit_system(key)
    state, player, action = data.draw(hostile(key))
    before = json.dumps(state, sort_keys=True)
    schemas = getattr(system, "ACTION_SCHEMAS", {})
    try:
        new, events = system.apply(state, player, action)
    except IllegalAction as exc:
        assert str(exc)
    else:
        kind = action.get("type") if isinstance(action, dict) else None
        assert kind in schemas or is_offered(system, state, player, action), action
        json.dumps(new)
        json.dumps(events)
    assert json.dumps(state, sort_keys=True) == before, "apply changed its input"


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_offered_action_is_accepted(key):
    """The other side of the check: nothing ``legal_actions`` offers is refused."""
    _kit, system = kit_system(key)
    for state in states(key):
        for seat in system.to_act(state):
            for action in system.legal_actions(state, seat)[:40]:
                system.apply(state, seat, json.loads(json.dumps(action)))
