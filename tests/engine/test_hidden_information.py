"""Hidden information by construction, for every registered system: over bot games
with full seeds, no view and no event names a card (an ``{"iid", "card"}`` pair) that
is hidden from its recipient at that moment, except the events a system declares as
reveals by its rules (``PUBLIC_REVEALS``); views never carry the generator's state."""

from __future__ import annotations

import json

import pytest

from engine.core import registry, rng

SYSTEMS = [info.key for info in registry.all_systems() if info.simulation]


def pairs(value, out=None) -> set[tuple[int, str]]:
    """Every card a piece of JSON names with its instance: ``{"iid": n, "card": id}``."""
    out = set() if out is None else out
    if isinstance(value, dict):
        if type(value.get("iid")) is int and isinstance(value.get("card"), str):
            out.add((value["iid"], value["card"]))
        for item in value.values():
            pairs(item, out)
    elif isinstance(value, list):
        for item in value:
            pairs(item, out)
    return out


@pytest.mark.rule("1.4.2.6", "1.4.2.7")
@pytest.mark.parametrize("key", SYSTEMS)
def test_no_event_names_a_card_hidden_from_anyone_who_receives_it(key):
    kit = registry.get(key).load("simulation")
    system, _pool = kit.system(False)
    reveals = getattr(system, "PUBLIC_REVEALS", frozenset())
    info = registry.get(key)
    checked = 0
    for game in range(4):
        players = max(2, info.min_players) + game % (info.max_players - 1)
        decks = kit.decks(system, players, game, kit.formats[0])
        config = {"players": players} if not any(decks) else {}
        state = system.new_game(config, decks, rng.new_seed(game * 7919))
        bots = [kit.make_bot("random", system, game * 10 + i) for i in range(players)]
        viewers = [None, *range(players)]
        views = {r: system.view(state, r) for r in viewers}
        for _step in range(400):
            if system.result(state).finished:
                break
            seat = system.to_act(state)[0]
            state, events = system.apply(state, seat, bots[seat].choose(state, seat))
            after = {r: system.view(state, r) for r in viewers}
            for r in viewers:
                assert "rng" not in json.dumps(after[r])
                seen = pairs(views[r]) | pairs(after[r])
                for event in events:
                    if event.get("type") in reveals:
                        continue
                    leaked = pairs(event) - seen
                    assert not leaked, (key, r, event)
                    checked += 1
            views = after
    assert checked > 1000
