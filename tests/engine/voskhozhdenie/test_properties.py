"""Property tests: random legal play never breaks the engine's invariants."""

from __future__ import annotations

import contextlib
import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.protocol import replay
from engine.voskhozhdenie.sample import sample_deck
from tests.engine.voskhozhdenie.helpers import new_system, shown_iids
from tests.engine.voskhozhdenie.test_zones import _assert_one_zone_each

SYSTEM = new_system()


def _hidden_from(state, viewer):
    hidden = set()
    for p in state["players"]:
        hidden.update(p["main"])
        if viewer != p["seat"]:
            hidden.update(p["hand"])
    return hidden


@settings(
    max_examples=int(os.environ.get("VOSK_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 2, 3, 4]),
    teams=st.booleans(),
    picks=st.lists(st.integers(0, 10**6), min_size=0, max_size=120),
    options=st.fixed_dictionaries(
        {},
        optional={
            "mulligan": st.sampled_from(["bottom", "shuffle"]),
            "coins_reset": st.booleans(),
            "supply_recompute": st.booleans(),
            "passing": st.sampled_from(["final", "consecutive"]),
        },
    ),
)
def test_random_legal_play_keeps_invariants(seed, players, teams, picks, options):
    system = SYSTEM
    config = {"teams": [[0, 2], [1, 3]]} if teams and players == 4 else {}
    config["options"] = options
    decks = [sample_deck(system.db, seed + k) for k in range(players)]
    state = system.new_game(config, decks, seed)
    log = []
    for pick in picks:
        if state["finished"]:
            break
        (seat,) = system.to_act(state)
        actions = system.legal_actions(state, seat)
        assert actions, "a player to act always has a legal action"
        action = actions[pick % len(actions)]
        before = json.dumps(state, sort_keys=True)
        previous = state
        state, events = system.apply(state, seat, action)
        assert json.dumps(previous, sort_keys=True) == before, "apply mutated its input"
        log.append((seat, action))
        _assert_one_zone_each(state)
        json.dumps(events)
        for viewer in [*range(players), None]:
            view = system.view(state, viewer)
            assert not shown_iids(view) & _hidden_from(state, viewer)
            json.dumps(view)
    assert json.loads(json.dumps(state)) == state
    assert replay(system, config, decks, seed, log) == state


def test_long_random_games_keep_invariants():
    """Deterministic long runs (the property above explores short ones)."""
    import random

    system = SYSTEM
    for seed in range(6):
        players = 2 + seed % 3
        config = {"teams": [[0, 2], [1, 3]]} if players == 4 else {}
        decks = [sample_deck(system.db, seed * 7 + k) for k in range(players)]
        state = system.new_game(config, decks, seed)
        r = random.Random(seed)
        log = []
        for _ in range(400):
            if state["finished"]:
                break
            (seat,) = system.to_act(state)
            actions = system.legal_actions(state, seat)
            # bias towards doing things rather than passing
            doing = [a for a in actions if a["type"] != "pass"] or actions
            action = r.choice(doing if r.random() < 0.9 else actions)
            before = json.dumps(state, sort_keys=True)
            previous = state
            state, _ = system.apply(state, seat, action)
            assert json.dumps(previous, sort_keys=True) == before, "apply mutated its input"
            log.append((seat, action))
            _assert_one_zone_each(state)
            for viewer in [*range(players), None]:
                assert not shown_iids(system.view(state, viewer)) & _hidden_from(state, viewer)
        assert replay(system, config, decks, seed, log) == state


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 80),
    st.text(max_size=3),
    st.lists(st.integers(-1, 80), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
_TYPES = st.sampled_from(
    [
        "pass",
        "declare",
        "play",
        "direct_attack",
        "assign",
        "activate",
        "keep",
        "mulligan",
        "discard",
        "decree",
        "decline",
        "tactic_wound",
        "superiority",
        "choose",
        "first_player",
        "shuffle",
        "nonsense",
    ]
)


@settings(
    max_examples=int(os.environ.get("VOSK_JUNK", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 1000),
    steps=st.integers(0, 60),
    junk=st.lists(
        st.fixed_dictionaries(
            {"type": _TYPES},
            optional=dict.fromkeys(
                ("iid", "target", "tactic", "side", "x", "seat", "picks", "choice_id"), _VALUES
            ),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_malformed_actions_raise_only_illegal_action(seed, steps, junk):
    from engine.core.errors import IllegalAction

    system = SYSTEM
    decks = [sample_deck(system.db, seed + k) for k in range(2)]
    state = system.new_game({}, decks, seed)
    for k in range(steps):
        if state["finished"]:
            break
        (seat,) = system.to_act(state)
        actions = system.legal_actions(state, seat)
        state, _ = system.apply(state, seat, actions[(seed + k) % len(actions)])
    before = json.dumps(state, sort_keys=True)
    for action in junk:
        for seat in range(2):
            with contextlib.suppress(IllegalAction):
                system.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


def test_fast_legal_actions_equal_the_validated_ones():
    """``legal_actions`` trusts per-card checks in ``candidates``; they must agree with
    ``validate`` on every candidate."""
    import random

    from engine.core.errors import IllegalAction
    from engine.voskhozhdenie.rules import Rules

    system = SYSTEM
    for seed in range(4):
        decks = [sample_deck(system.db, seed * 5 + k) for k in range(2)]
        state = system.new_game({}, decks, seed)
        r = random.Random(seed)
        for _ in range(250):
            if state["finished"]:
                break
            (seat,) = system.to_act(state)
            fast = system.legal_actions(state, seat)
            slow_game = Rules(system, state)
            slow_game._fast = False
            slow = []
            for action in slow_game.candidates(seat) + slow_game._trusted:
                try:
                    slow_game.validate(seat, action)
                except IllegalAction:
                    continue
                slow.append(action)
            key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
            assert sorted(map(key, fast)) == sorted(map(key, slow))
            state, _ = system.apply(state, seat, r.choice(fast))
