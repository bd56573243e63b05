"""Helpers for the Ascension engine tests: build positions by moving card instances."""

from __future__ import annotations

import json
from collections import Counter

from engine.ascension.game import PLAYER_ZONES, SYSTEM

S = SYSTEM


def cid(name: str) -> str:
    return S.db.find(name).id


def new(n: int = 2, seed: int = 1, first: int = 0) -> dict:
    return S.new_game({"players": n, "first": first}, [], seed)


def places(state: dict):
    """(place name, list) for every place a card can be in."""
    for p in state["players"]:
        for zone in PLAYER_ZONES:
            yield f"p{p['seat']}.{zone}", p[zone]
    yield "row", state["row"]
    yield "center", state["center"]
    yield "void", state["void"]
    yield "box", state["box"]
    for key, pile in state["piles"].items():
        yield f"pile.{key}", pile
    if state["samael"] is not None:
        yield "samael", state["samael"]["cards"]


def where(state: dict, iid: int) -> str:
    found = [name for name, cards in places(state) if iid in cards]
    assert len(found) == 1, (iid, found)
    return found[0]


def check_invariants(state: dict) -> None:
    counts = Counter(i for _, cards in places(state) for i in cards if i is not None)
    assert sorted(counts) == list(range(len(state["cards"]))), "a card is missing"
    assert max(counts.values()) == 1, "a card is in two places"
    tokens = sum(p["honor"] for p in state["players"])
    if state["samael"] is not None:
        tokens += state["samael"]["honor"]
    assert state["pool"] + tokens == state["pool_start"] + state["reserve"]
    assert state["pool"] >= 0


def _detach(state: dict, iid: int) -> None:
    for name, cards in places(state):
        if iid in cards:
            if name == "row":  # keep the row full: the top center card takes its place
                cards[cards.index(iid)] = state["center"].pop() if state["center"] else None
            else:
                cards.remove(iid)
            return
    raise AssertionError(f"card {iid} is nowhere")


def pick(state: dict, name: str, seat: int | None = None) -> int:
    """An instance of the card ``name``: from the center deck or a pile, or (starter
    cards) from ``seat``'s deck, hand or discard pile."""
    card_id = cid(name)
    sources = [state["center"], *state["piles"].values(), state["void"]]
    if seat is not None:
        p = state["players"][seat]
        sources = [p["deck"], p["discard"], *sources, p["hand"]]
    for cards in sources:
        for iid in cards:
            if state["cards"][iid] == card_id:
                return iid
    for iid in state["row"]:
        if iid is not None and state["cards"][iid] == card_id:
            return iid
    raise AssertionError(f"no free {name}")


def to_row(state: dict, name: str, slot: int = 0) -> int:
    iid = pick(state, name)
    _detach(state, iid)
    old = state["row"][slot]
    if old is not None:
        state["center"].insert(0, old)  # the bottom of the center deck
    state["row"][slot] = iid
    return iid


def to_zone(state: dict, seat: int, zone: str, name: str) -> int:
    iid = pick(state, name, seat)
    _detach(state, iid)
    state["players"][seat][zone].append(iid)
    return iid


def move_to(state: dict, iid: int, seat: int, zone: str) -> int:
    """Put the card instance ``iid`` into ``seat``'s ``zone`` (a test position; works for
    any engine's state, e.g. one over a test set)."""
    _detach(state, iid)
    state["players"][seat][zone].append(iid)
    return iid


def to_hand(state: dict, seat: int, name: str) -> int:
    return to_zone(state, seat, "hand", name)


def set_hand(state: dict, seat: int, names: list[str]) -> list[int]:
    """Make ``seat``'s hand exactly these cards (the old hand goes under the deck)."""
    p = state["players"][seat]
    p["deck"][0:0] = p["hand"]
    p["hand"] = []
    return [to_hand(state, seat, name) for name in names]


def iids_in(view) -> set[int]:
    """Every card instance a view shows (values under "iid" keys, pending options)."""
    found: set[int] = set()
    if isinstance(view, dict):
        for key, value in view.items():
            if key == "iid" and isinstance(value, int):
                found.add(value)
            elif key == "options":
                found.update(value)
            else:
                found |= iids_in(value)
    elif isinstance(view, list):
        for value in view:
            found |= iids_in(value)
    return found


def act(state: dict, seat: int, action: dict):
    """Apply, checking that the input is unchanged and the invariants hold."""
    before = json.dumps(state, sort_keys=True)
    new_state, events = S.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before, "apply mutated its input"
    check_invariants(new_state)
    return new_state, events


def play(state: dict, seat: int, iid: int) -> dict:
    return act(state, seat, {"type": "play", "iid": iid})[0]


def end_turn(state: dict, seat: int) -> dict:
    return act(state, seat, {"type": "end_turn"})[0]
