"""Helpers: a small test card pool, games driven to a given point, direct placement."""

from __future__ import annotations

from engine.voskhozhdenie.cards import Card
from engine.voskhozhdenie.game import Voskhozhdenie
from engine.voskhozhdenie.rules import Rules
from engine.voskhozhdenie.sample import card, make_db, sample_cards

MAIN = ["SQ-1", "SQ-2", "SQ-3", "SQ-Z", "ORD-X"] * 4


def new_system(*extra: Card) -> Voskhozhdenie:
    return Voskhozhdenie(make_db(sample_cards() + list(extra)))


def deck(cities=("CITY-A", "CITY-B"), main=None, reinforcement=()):
    return {
        "cities": list(cities),
        "main": list(MAIN if main is None else main),
        "reinforcement": list(reinforcement),
    }


def start(system, n=2, seed=1, decks=None, config=None):
    return system.new_game(config or {}, decks or [deck() for _ in range(n)], seed)


def act(system, state, action, player=None):
    if player is None:
        player = system.to_act(state)[0]
    new, _events = system.apply(state, player, action)
    return new


def to_actions(system, state, first=0):
    """Choose ``first`` as first player, keep every hand, decline Decrees: stop at the
    first Action phase."""
    for _ in range(200):
        if state["step"] == "action" and state["pending"] is None:
            return state
        seat = system.to_act(state)[0]
        kind = state["pending"]["kind"]
        if kind == "first_player":
            action = {"type": "first_player", "seat": first}
        elif kind == "mulligan":
            action = {"type": "keep"}
        elif kind == "discard_down":
            action = {"type": "discard", "iid": state["pending"]["options"][0]}
        elif kind == "decree":
            action = {"type": "decline"}
        else:
            action = system.legal_actions(state, seat)[0]
        state = act(system, state, action, seat)
    raise AssertionError("no Action phase reached")


def game(system, state) -> Rules:
    """The rules over ``state`` (mutates it: use on states the test owns)."""
    return Rules(system, state)


def place(system, state, card_id, owner, zone="battlefield", entered=0) -> int:
    g = Rules(system, state)
    iid = g.new_instance(card_id, owner, zone)
    if zone in ("battlefield", "gone"):
        state[zone].append(iid)
    elif zone == "main_top":
        state["cards"][iid]["zone"] = "main"
        state["players"][owner]["main"].insert(0, iid)
    else:
        state["players"][owner][zone].append(iid)
    if zone == "battlefield":
        state["cards"][iid]["entered"] = entered
    return iid


def cities(state, seat):
    return [
        i
        for i in state["battlefield"]
        if state["cards"][i]["owner"] == seat and state["cards"][i]["card"].startswith("CITY")
    ]


def zone_of(state, iid):
    return state["cards"][iid]["zone"]


def shown_iids(view) -> set[int]:
    """Every card instance a view shows as card data (a ``{"iid", "card"}`` dict, at any
    depth): what a test of hidden information checks the hidden ones against."""
    found: set[int] = set()

    def walk(x):
        if isinstance(x, dict):
            if isinstance(x.get("iid"), int) and "card" in x:
                found.add(x["iid"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(view)
    return found


__all__ = ["Card", "card"]
