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


def _twin_ascension(state):
    """Two cards of the center deck (hidden from everyone, A-9) trade places."""
    center = state["center"]
    x = center[0]  # the bottom: drawn last
    y = next(i for i in center if state["cards"][i] != state["cards"][x])
    twin = json.loads(json.dumps(state))
    twin["cards"][x], twin["cards"][y] = state["cards"][y], state["cards"][x]
    return twin, lambda s: x in s["center"] and y in s["center"], (None, 0, 1)


def _twin_voskhozhdenie(state):
    """Two cards at the bottom of seat 1's Main Deck (hidden from the others) trade places."""
    main = state["players"][1]["main"]
    x = main[-1]
    y = next(i for i in reversed(main) if state["cards"][i]["card"] != state["cards"][x]["card"])
    twin = json.loads(json.dumps(state))
    for field in ("card", "strength"):
        twin["cards"][x][field], twin["cards"][y][field] = (
            state["cards"][y][field],
            state["cards"][x][field],
        )

    def hidden(s):
        p = s["players"][1]
        return all(i in p["main"] and i not in p.get("looked", ()) for i in (x, y))

    return twin, hidden, (None, 0)


def _twin_berserk(state):
    """Two cards of seat 1's deck (closed to everyone, 206.5) trade places."""
    deck = state["players"][1]["deck"]
    x = deck[-1]
    y = next(i for i in reversed(deck) if state["cards"][i] != state["cards"][x])
    twin = json.loads(json.dumps(state))
    twin["cards"][x], twin["cards"][y] = state["cards"][y], state["cards"][x]

    def hidden(s):
        return all(i in s["players"][1]["deck"] for i in (x, y))

    return twin, hidden, (None, 0, 1)


def _twin_tactics(state):
    """Two cards of the central deck (hidden from everyone, T-17) trade places."""
    center = state["center"]
    x = center[0]
    y = next(i for i in center if state["cards"][i] != state["cards"][x])
    twin = json.loads(json.dumps(state))
    twin["cards"][x], twin["cards"][y] = state["cards"][y], state["cards"][x]
    return twin, lambda s: x in s["center"] and y in s["center"], (None, 0, 1)


TWINS = {
    "tactics": _twin_tactics,
    "ascension": _twin_ascension,
    "voskhozhdenie": _twin_voskhozhdenie,
    "berserk": _twin_berserk,
}


@pytest.mark.rule("1.4.2.6", "1.4.2.7")
@pytest.mark.parametrize("key", SYSTEMS)
def test_two_games_that_differ_only_in_hidden_cards_look_the_same_to_those_who_cannot_see_them(
    key,
):
    """Every system: swap the identities of two cards hidden from some viewers; while they
    stay hidden, those viewers get the same views and the same events from both games."""
    import random

    assert key in TWINS, f"{key}: add how to make a twin of a game of it"
    kit = registry.get(key).load("simulation")
    system, _pool = kit.system(False)
    compared = 0
    for game in range(6):
        decks = kit.decks(system, 2, game, kit.formats[0])
        config = {"players": 2} if not any(decks) else {}
        a = system.new_game(config, decks, rng.new_seed(game))
        b, still_hidden, viewers = TWINS[key](a)
        rnd = random.Random(game)
        for _ in range(300):
            if system.result(a).finished or not (still_hidden(a) and still_hidden(b)):
                break
            for viewer in viewers:
                assert system.view(a, viewer) == system.view(b, viewer), (key, viewer)
            seat = system.to_act(a)[0]
            action = rnd.choice(system.legal_actions(a, seat))
            if action not in system.legal_actions(b, seat):
                break
            a, events_a = system.apply(a, seat, action)
            b, events_b = system.apply(b, seat, action)
            assert events_a == events_b, key
            compared += 1
    assert compared > 100
