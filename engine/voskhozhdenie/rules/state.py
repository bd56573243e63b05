"""The state dict and plain access to it: players and teams (1.2), zones (1.4, 1.4.5),
card instances and their cached card data (2.1), pending decisions.

``copy_state`` is the structural copy ``apply`` works on; ``StateAccess`` is the part of
``Rules`` that reads and writes the state without applying a rule of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import EngineBug
from engine.core.protocol import State
from engine.voskhozhdenie.cards import Card

INDIVIDUAL_ZONES = ("main", "hand", "reinforcement", "graveyard", "oblivion")
HIDDEN_ZONES = ("hand", "main")  # zones whose cards only their owner may know (1.4.2)


def plain(value: Any) -> Any:
    """Deep-convert card data (Mappings, tuples) to JSON data."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(plain(v) for v in value)
    return value


# "trig", "stat" and "repl" are shared between copies: ``new_instance`` replaces them
# rather than appending in place, so a list object always has the same contents.
_LIST_KEYS = ("battlefield", "gone", "turn_order", "elim", "winners", "rng", "waiting")


def copy_state(state: State) -> State:
    """A structural copy of everything ``apply`` may mutate (about 8x faster than a deep
    copy). Immutable leaves are shared: ability ops inside frames and the waiting and
    pending entries are never mutated in place (they are replaced). The card instance
    dicts are shared too: ``Rules.mut`` copies one before its first change."""
    new = dict(state)
    players = []
    for p in state["players"]:
        q = p.copy()
        # a player's only lists (INDIVIDUAL_ZONES), unrolled
        q["main"] = p["main"][:]
        q["hand"] = p["hand"][:]
        q["reinforcement"] = p["reinforcement"][:]
        q["graveyard"] = p["graveyard"][:]
        q["oblivion"] = p["oblivion"][:]
        players.append(q)
    new["players"] = players
    new["cards"] = state["cards"][:]  # the card dicts are copied on write (Rules.mut)
    # _LIST_KEYS, unrolled
    new["battlefield"] = state["battlefield"][:]
    new["gone"] = state["gone"][:]
    new["turn_order"] = state["turn_order"][:]
    new["elim"] = state["elim"][:]
    new["winners"] = state["winners"][:]
    new["rng"] = state["rng"][:]
    new["waiting"] = state["waiting"][:]
    if "idle" in state:  # the idle-rounds event rule's counters, when the event sets it
        new["idle"] = state["idle"].copy()
    # (empty lists are the common case: no comprehension then)
    queue = state["queue"]
    new["queue"] = [o.copy() for o in queue] if queue else []
    tactics = state["tactics"]
    new["tactics"] = (
        [dict(t, attack=t["attack"][:], defence=t["defence"][:]) for t in tactics]
        if tactics
        else []
    )
    frames = state["frames"]
    new["frames"] = [{"ops": f["ops"][:], "ctx": f["ctx"].copy()} for f in frames] if frames else []
    temp = state["temp"]
    new["temp"] = [dict(t, iids=t["iids"][:]) for t in temp] if temp else []
    new["used"] = state["used"].copy()
    if state["tr"] is not None:
        new["tr"] = state["tr"].copy()
    if "replacing" in state:
        new["replacing"] = state["replacing"][:]
    return new


class CardInfo:
    """Cached per-card data: the abilities by kind, as plain JSON data."""

    __slots__ = (
        "abilities",
        "activated",
        "by_kind",
        "card",
        "decrees",
        "events",
        "pay_only",
        "triggered_by",
    )

    def __init__(self, card: Card):
        self.card = card
        self.abilities = [plain(a) for a in card.abilities]
        self.by_kind: dict[str, list[int]] = {}
        self.events: set[str] = set()  # trigger events of its triggered abilities
        # its triggered abilities by trigger event, in ability order
        self.triggered_by: dict[str, list[int]] = {}
        for i, ability in enumerate(self.abilities):
            self.by_kind.setdefault(ability["kind"], []).append(i)
            if ability["kind"] == "triggered":
                self.events.add(ability["trigger"]["event"])
                self.triggered_by.setdefault(ability["trigger"]["event"], []).append(i)
        self.activated = tuple(self.by_kind.get("activated", ()))
        # Activated abilities whose only cost is a fixed number of coins (6.3.5):
        # {ability: (coins, limit)}, checked without building the cost context.
        self.pay_only: dict[int, tuple[int, Any]] = {}
        for i in self.activated:
            costs = self.abilities[i]["cost"]
            if len(costs) == 1 and costs[0]["op"] == "pay" and type(costs[0]["coins"]) is int:
                self.pay_only[i] = (costs[0]["coins"], self.abilities[i].get("limit"))
        self.decrees = tuple(self.by_kind.get("decree", ()))

    def kind(self, kind: str) -> list[int]:
        return self.by_kind.get(kind, [])


class StateAccess:
    """Basic accessors of the state (1.2, 1.4) and pending decisions; part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # basic accessors
    # ===================================================================================

    def card(self, iid: int) -> Card:
        cid = self.s["cards"][iid]["card"]
        try:
            return self.sys._infos[cid].card
        except KeyError:
            return self.sys.info(cid).card

    def info(self, iid: int) -> CardInfo:
        cid = self.s["cards"][iid]["card"]
        try:
            return self.sys._infos[cid]
        except KeyError:
            return self.sys.info(cid)

    def mut(self, iid: int) -> dict:
        """The card instance dict of ``iid``, to change it: ``copy_state`` shares the dicts
        with the input state, so the first change copies it. Every write to a card dict
        goes through here; a dict returned by ``mut`` stays the state's own."""
        cards = self.s["cards"]
        if iid in self._own:
            return cards[iid]
        self._own.add(iid)
        c = cards[iid] = cards[iid].copy()
        return c

    def player(self, seat: int) -> dict:
        return self.s["players"][seat]

    def alive(self) -> list[int]:
        out = []  # (a plain loop: cheaper than a comprehension for a few players)
        for p in self.s["players"]:
            if not p["eliminated"]:
                out.append(p["seat"])
        return out

    def allies(self, a: int, b: int) -> bool:
        players = self.s["players"]
        return players[a]["team"] == players[b]["team"]

    def opponents(self, seat: int, alive_only: bool = True) -> list[int]:
        players = self.s["players"]
        team = players[seat]["team"]
        out = []
        for q in self.order_from(seat):
            other = players[q]
            if other["team"] != team and not (alive_only and other["eliminated"]):
                out.append(q)
        return out

    def order_from(self, seat: int | None) -> list[int]:
        """Turn order starting at ``seat`` (6.3.13, 6.6.1); seat order before 5.3."""
        order = self.s["turn_order"] or list(range(self.s["n"]))
        if seat is None or seat not in order:
            return list(order)
        i = order.index(seat)
        return order[i:] + order[:i] if i else order[:]

    def sim_start(self) -> int | None:
        """AMB-27: the active player during a turn, else the first player."""
        if self.s["step"] in ("turn_start", "action", "turn_end"):
            return self.s["active"]
        return self.s["turn_order"][0] if self.s["turn_order"] else 0

    def emit(self, kind: str, **data: Any) -> None:
        data["type"] = kind
        self.events.append(data)

    def new_instance(self, card_id: str, owner: int, zone: str) -> int:
        self._ver += 1
        s = self.s
        card = self.sys.info(card_id).card
        iid = len(s["cards"])
        s["cards"].append(
            {
                "iid": iid,
                "card": card_id,
                "owner": owner,
                "zone": zone,
                "strength": card.strength,
                "wounded": False,
                "ruined": False,
                "entered": 0 if zone == "battlefield" else None,
                "tactic": None,
                "side": None,
            }
        )
        self._own.add(iid)
        info = self.sys.info(card_id)
        if info.kind("triggered"):
            s["trig"] = [*s["trig"], iid]  # copy-on-write: shared between state copies
        if info.kind("static"):
            s["stat"] = [*s["stat"], iid]
        if info.kind("replacement"):
            s["repl"] = [*s["repl"], iid]
        return iid

    def zone_list(self, iid: int) -> list:
        c = self.s["cards"][iid]
        zone = c["zone"]
        if zone in ("battlefield", "gone"):
            return self.s[zone]
        if zone == "queue":
            raise EngineBug("the Queue holds objects, not ids")
        return self.s["players"][c["owner"]][zone]

    # ===================================================================================
    # pending decisions
    # ===================================================================================

    def set_pending(self, seat: int, kind: str, **data: Any) -> None:
        s = self.s
        pending = {"id": s["next_id"], "player": seat, "kind": kind}
        s["next_id"] += 1
        pending.update(data)
        s["pending"] = pending
