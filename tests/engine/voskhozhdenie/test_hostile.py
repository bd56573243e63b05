"""The exploits found by sending actions ``legal_actions`` never offers (rules cited):
each is refused now with ``IllegalAction`` and the state untouched."""

from __future__ import annotations

import json
import random

import pytest

from engine.core.errors import IllegalAction
from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.simkit import legal_deck


def states_where(predicate, limit=3, games=40):
    """States of random legal play on real decks where ``predicate(state, seat, legal)``."""
    found = []
    for seed in range(games):
        decks = [legal_deck(SYSTEM.db, seed * 7 + k) for k in range(2)]
        state = SYSTEM.new_game({}, decks, seed)
        rnd = random.Random(seed)
        for _ in range(400):
            if state["finished"]:
                break
            (seat,) = SYSTEM.to_act(state)
            legal = SYSTEM.legal_actions(state, seat)
            hit = predicate(state, seat, legal)
            if hit is not None:
                found.append((state, seat, hit))
                if len(found) >= limit:
                    return found
                break
            state, _events = SYSTEM.apply(state, seat, rnd.choice(legal))
    assert found, "no such position in the games played"
    return found


def refused(state, seat, action):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction):
        SYSTEM.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.rule("5.6.3.2.2.1")
def test_a_battle_cannot_be_declared_with_a_target():
    def battle(state, seat, legal):
        return next((a for a in legal if a["type"] == "declare" and "target" not in a), None)

    for state, seat, action in states_where(battle):
        for target in (seat, 1 - seat, 1.0, True):
            refused(state, seat, {**action, "target": target})


@pytest.mark.rule("5.6.2.1", "6.3.5", "AMB-02")
def test_a_decree_is_named_by_its_exact_ability_number():
    def decree(state, seat, legal):
        return next((a for a in legal if a["type"] == "decree"), None)

    for state, seat, action in states_where(decree):
        SYSTEM.apply(state, seat, action)  # as offered: fine
        for ability in (
            bool(action["ability"]) if action["ability"] in (0, 1) else None,
            float(action["ability"]),
            str(action["ability"]),
        ):
            refused(state, seat, {**action, "ability": ability})


@pytest.mark.rule("5.3", "5.6.3.2.2")
def test_seats_and_targets_must_be_whole_numbers_not_floats():
    def with_seat(state, seat, legal):
        return next((a for a in legal if "seat" in a or "target" in a), None)

    for state, seat, action in states_where(with_seat):
        key = "seat" if "seat" in action else "target"
        refused(state, seat, {**action, key: float(action[key])})
        refused(state, seat, {**action, key: [action[key]]})
