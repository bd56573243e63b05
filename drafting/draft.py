"""Draft state machines: booster passing (rules 3.2.5, AMB-06, AMB-07) and the open-row
champion draft of Ascension Tactics (tactics.md T-76..T-78, T-81, T-96). Pure Python, no
Django.

One abstraction, two kinds of draft
-----------------------------------
Every draft here is "each seat in turn picks one card from the pile in front of it, then
the rest of that pile goes somewhere". A ``PickOrder`` answers the two questions that
differ between kinds: **which pile does a seat pick from now** (``pile``; None while the
seat waits) and **where does the rest go** (``pass_on``: who picks next, and when the
draft ends). ``pick`` does everything else once for both: it checks the seat, the pick
number, that the draft runs and the card is in the pile, adds the card to the seat's
pool and the history, then hands over to the order. ``current_pack``,
``picks_left_in_pack``, ``waiting_on`` and ``pick_number`` work for both kinds.

- ``BOOSTER`` (state without ``"kind"``, or ``"kind": "booster"``): packs travel round
  the table, as described below.
- ``OPEN_ROW`` (``"kind": "open_row"``, made by ``new_open_row``): one face-up row of 6
  refilled from a deck; the seats pick one at a time in reverse turn order until each
  has its quota; what is left goes back to the box. See ``new_open_row``.

Booster passing
---------------

The state is plain JSON data (dicts, lists, ints, strs, bools), so it can be stored as
is. Passing is asynchronous (AMB-07, "Decided for Gauntlet"): every seat keeps a
first-in-first-out queue of packs; a pick moves that pack at once to the end of the
neighbour's queue in the booster round's direction. Every seat sees the same sequence of
packs as under lock-step passing; only the timing differs. The next booster is opened
only when every pack of the current booster round is empty (3.2.5.1.4).

Directions (AMB-06): booster round 0 passes left (+1, the next seat number, the turn
order direction of 5.3.2), round 1 right (-1), round 2 left, round 3 right.

Pick numbers
------------
``pick_number(state, seat)`` is the seat's NEXT pick counted across the whole draft,
1-based: ``len(pools[seat]) + 1`` (1..60 in a VS1 draft). It never repeats for a seat, so
``(pod, seat, pick_number)`` alone already identifies a pick; with the round it stays
unique. ``pick(..., expected_pick=n)`` refuses anything but that number. The pick
records also carry the number within the booster round (``"pick"``, 1-based, what a
player sees as "pack 2, pick 3") and the draft-wide ``"number"``.

State
-----
``{"seats": int, "rounds": int, "round": int (current booster round, 0-based),
"queues": [[pack id, ...] per seat, head first], "packs": {pack id: {"id", "round",
"origin_seat", "cards": [card ids], "picks_made": int}}, "pools": [[card ids] per seat, in
pick order], "picks": [{"seat", "round", "pick", "number", "pack", "card"}, ...] (unless
made with ``history=False``),
"finished": bool, "round_picks": [picks made in the current round, per seat],
"cards_left": int (cards still in the current round's packs)}``.

Every pack of every round is in ``packs`` from the start (id ``"r<round>s<seat>"``);
a round's packs are put in the queues when the round opens. ``pick`` returns a new
state and never changes its input: it copies only what changes (the outer containers,
the picking seat's pool, the two queues and the one pack involved), so states share
their unchanged parts: treat every state (and what ``current_pack`` returns) as
read-only. The state holds the contents of every booster, the unopened ones too: it is
server-side data, never to be shown to players as is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.core.opendraft import (  # the open-row core lives with the engines (T-76..T-78)
    OPEN_ROW,
    ROW_ID,
    ROW_SIZE,
    DraftError,
    champion_quota,
    new_open_row,
    turn_order_picker,
)

__all__ = [
    "BOOSTER",
    "OPEN_ROW",
    "ROW_ID",
    "ROW_SIZE",
    "DraftError",
    "PickOrder",
    "champion_quota",
    "current_pack",
    "direction",
    "is_finished",
    "neighbour",
    "new_draft",
    "new_open_row",
    "order_of",
    "pack_id",
    "pick",
    "pick_number",
    "picks_left_in_pack",
    "pools",
    "round_pick_number",
    "turn_order_picker",
    "upstream",
    "waiting_on",
]

State = dict[str, Any]


# ---------------------------------------------------------------- booster passing order
# The order in which packs travel round the table (used by ``BOOSTER`` below).


def direction(booster_round: int) -> int:
    """+1 (left: the next seat number) for even booster rounds, -1 (right) for odd ones."""
    return 1 if booster_round % 2 == 0 else -1


def neighbour(seat: int, seats: int, booster_round: int) -> int:
    """The seat a pack goes to after ``seat`` picks from it in ``booster_round``."""
    return (seat + direction(booster_round)) % seats


def upstream(seat: int, seats: int, booster_round: int) -> int:
    """The seat whose picks feed ``seat`` in ``booster_round``."""
    return (seat - direction(booster_round)) % seats


def pack_id(booster_round: int, seat: int) -> str:
    """The id of the booster ``seat`` opens in ``booster_round``."""
    return f"r{booster_round}s{seat}"


# ---------------------------------------------------------------- state


def new_draft(packs: Sequence[Sequence[Sequence[str]]], *, history: bool = True) -> State:
    """The start of a draft from ``packs[seat][booster_round]`` (card ids).

    Every seat needs the same number of booster rounds (at least one). Boosters of one
    round may differ in size: passing goes on until every pack is empty (AMB-07).
    ``history=False`` leaves out the ``picks`` records (a caller that keeps every pick
    elsewhere saves carrying a list that grows with each pick); nothing else reads them.
    """
    seats = len(packs)
    if seats < 1:
        raise DraftError("A draft needs at least one seat.", "packs")
    rounds = len(packs[0])
    if rounds < 1:
        raise DraftError("A draft needs at least one booster round.", "packs")
    table: dict[str, dict[str, Any]] = {}
    for seat, boosters in enumerate(packs):
        if isinstance(boosters, str) or len(boosters) != rounds:
            raise DraftError(
                f"Seat {seat} has {len(boosters)} boosters; every seat needs {rounds}.", "packs"
            )
        for booster_round, cards in enumerate(boosters):
            if isinstance(cards, str) or not all(isinstance(c, str) for c in cards):
                raise DraftError("A booster is a list of card ids.", "packs")
            pid = pack_id(booster_round, seat)
            table[pid] = {
                "id": pid,
                "round": booster_round,
                "origin_seat": seat,
                "cards": list(cards),
                "picks_made": 0,
            }
    state: State = {
        "seats": seats,
        "rounds": rounds,
        "round": 0,
        "queues": [[] for _ in range(seats)],
        "packs": table,
        "pools": [[] for _ in range(seats)],
        "finished": False,
        "round_picks": [0] * seats,
        "cards_left": 0,
    }
    if history:
        state["picks"] = []
    _open_round(state, 0)
    return state


def _open_round(state: State, booster_round: int) -> None:
    """Put each seat's own booster of ``booster_round`` in its queue (mutates ``state``,
    which must already be a fresh copy). Rounds whose packs are all empty are skipped."""
    seats = state["seats"]
    packs = state["packs"]
    while booster_round < state["rounds"]:
        ids = [pack_id(booster_round, seat) for seat in range(seats)]
        left = sum(len(packs[pid]["cards"]) for pid in ids)
        if left:
            state["round"] = booster_round
            state["queues"] = [[pid] if packs[pid]["cards"] else [] for pid in ids]
            state["round_picks"] = [0] * seats
            state["cards_left"] = left
            return
        booster_round += 1
    state["round"] = state["rounds"] - 1
    state["queues"] = [[] for _ in range(seats)]
    state["cards_left"] = 0
    state["finished"] = True


def _check_seat(state: State, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        raise DraftError(f"There is no seat {seat!r} in this draft.", "seat")


# ---------------------------------------------------------------- the pick order


class PickOrder(Protocol):
    """What differs between kinds of draft: who picks from which pile, where the rest goes.

    ``pile`` is the pile ``seat`` picks from now (a dict with at least ``"id"``,
    ``"round"`` and ``"cards"``), or None while the seat waits; it must not change
    ``state``. ``pass_on`` is called by ``pick`` with ``new_state`` (a shallow copy of
    ``state`` whose ``pools``, ``round_picks`` and history are already updated) and the
    cards left in the pile after ``seat`` took one; it puts them where they go, in
    fresh containers (never mutating what ``state`` shares), and marks the draft
    finished when it is. ``waiting_on`` maps each seat that waits to the seat it waits
    for.
    """

    kind: str

    def pile(self, state: State, seat: int) -> dict[str, Any] | None: ...

    def pass_on(
        self, state: State, new_state: State, seat: int, pile: dict[str, Any], rest: list[str]
    ) -> None: ...

    def waiting_on(self, state: State) -> dict[int, int]: ...


class _BoosterPassing:
    """Packs travel round the table (3.2.5, AMB-06/07): see the module doc."""

    kind = "booster"

    def pile(self, state: State, seat: int) -> dict[str, Any] | None:
        queue = state["queues"][seat]
        return state["packs"][queue[0]] if queue else None

    def pass_on(
        self, state: State, new_state: State, seat: int, pile: dict[str, Any], rest: list[str]
    ) -> None:
        head = pile["id"]
        new_pack = dict(pile)
        new_pack["cards"] = rest
        new_pack["picks_made"] = pile["picks_made"] + 1
        packs = dict(state["packs"])
        packs[head] = new_pack
        new_state["packs"] = packs

        booster_round = state["round"]
        queues = list(state["queues"])
        queues[seat] = state["queues"][seat][1:]
        if rest:
            target = neighbour(seat, state["seats"], booster_round)
            queues[target] = [*queues[target], head]
        new_state["queues"] = queues
        new_state["cards_left"] = state["cards_left"] - 1
        if new_state["cards_left"] == 0:
            _open_round(new_state, booster_round + 1)

    def waiting_on(self, state: State) -> dict[int, int]:
        seats = state["seats"]
        booster_round = state["round"]
        queues = state["queues"]
        holder: int | None = None
        # Walk the table twice in the passing direction, remembering the last seat seen
        # holding a pack: for a seat that waits, that is its nearest upstream holder.
        # A seat no pack will reach again this round waits on no one seat but for the
        # round to end (3.2.5.1.4): it is not listed.
        coming = self._seats_packs_reach(state)
        out: dict[int, int] = {}
        seat = 0
        for _ in range(2 * seats):
            if queues[seat]:
                holder = seat
            elif holder is not None and seat in coming:
                out[seat] = holder
            seat = neighbour(seat, seats, booster_round)
        return out

    @staticmethod
    def _seats_packs_reach(state: State) -> set[int]:
        """The seats some pack of the round still reaches after its holder picks: a pack
        of c cards queued at seat q goes on to the c - 1 seats after q."""
        seats = state["seats"]
        booster_round = state["round"]
        reached: set[int] = set()
        for holder, queue in enumerate(state["queues"]):
            for pack in queue:
                seat = holder
                for _ in range(min(len(state["packs"][pack]["cards"]) - 1, seats - 1)):
                    seat = neighbour(seat, seats, booster_round)
                    reached.add(seat)
        return reached


BOOSTER: PickOrder = _BoosterPassing()
_ORDERS: dict[str, PickOrder] = {BOOSTER.kind: BOOSTER, OPEN_ROW.kind: OPEN_ROW}


def order_of(state: State) -> PickOrder:
    """The pick order a state follows (a state without ``"kind"`` is a booster draft)."""
    kind = state.get("kind", BOOSTER.kind)
    try:
        return _ORDERS[kind]
    except KeyError:
        raise DraftError(f"Unknown kind of draft {kind!r}.", "packs") from None


# ---------------------------------------------------------------- reading


def current_pack(state: State, seat: int) -> dict[str, Any] | None:
    """The pile the seat picks from now: the pack at the head of its queue in a booster
    draft, the row on its turn in an open-row draft (None while the seat waits)."""
    _check_seat(state, seat)
    return order_of(state).pile(state, seat)


def pick_number(state: State, seat: int) -> int:
    """The seat's NEXT pick, counted across the whole draft, 1-based (see module doc)."""
    _check_seat(state, seat)
    return len(state["pools"][seat]) + 1


def round_pick_number(state: State, seat: int) -> int:
    """The seat's next pick within the current booster round, 1-based (for display)."""
    _check_seat(state, seat)
    return state["round_picks"][seat] + 1


def picks_left_in_pack(state: State, seat: int) -> int:
    """Cards in the pack the seat holds now (0 while it waits)."""
    pack = current_pack(state, seat)
    return len(pack["cards"]) if pack else 0


def is_finished(state: State) -> bool:
    return bool(state["finished"])


def pools(state: State) -> list[list[str]]:
    """Every seat's picked cards, in pick order (copies)."""
    return [list(pool) for pool in state["pools"]]


def waiting_on(state: State) -> dict[int, int]:
    """For each seat with nothing to pick: the seat it is waiting on.

    In a booster draft that is the nearest seat upstream (against the round's direction)
    that holds a pack: any pack reaching the waiting seat must first pass through it, so
    nothing arrives until that seat picks. A seat no pack reaches again this booster round
    waits for the round to end, on no one seat, and is not listed either (3.2.5.1.4). In
    an open-row draft it is the seat whose turn it is. Seats that can pick are not listed;
    a finished draft gives ``{}``.
    """
    if state["finished"]:
        return {}
    return order_of(state).waiting_on(state)


# ---------------------------------------------------------------- picking


def pick(state: State, seat: int, card_id: str, *, expected_pick: int | None = None) -> State:
    """A new state in which ``seat`` has taken ``card_id`` from the pile it picks from.

    Booster draft: the rest of the pack goes at once to the end of the neighbour's queue
    (unless it is empty); when the last card of the booster round is taken, the next
    round opens (each seat's own next booster) or the draft is finished. Open row: the
    gap is refilled from the deck and the next seat in reverse turn order is on; once
    every seat has its quota the leftovers are boxed. ``expected_pick`` (the number from
    ``pick_number`` the client answered) must equal the seat's next pick number.
    Raises DraftError and leaves ``state`` unchanged otherwise.
    """
    order = order_of(state)
    _check_seat(state, seat)
    pool = state["pools"][seat]
    number = len(pool) + 1
    if expected_pick is not None and (isinstance(expected_pick, bool) or expected_pick != number):
        if type(expected_pick) is int and expected_pick < number:
            raise DraftError(
                f"Pick {expected_pick} was already made; the next pick is {number}.",
                "already_picked",
            )
        raise DraftError(
            f"This is a stale pick ({expected_pick!r}); the next pick is {number}.", "stale"
        )
    if state["finished"]:
        raise DraftError("The draft is over.", "finished")
    pile = order.pile(state, seat)
    if pile is None:
        message = "No pack is waiting for you yet." if order is BOOSTER else "It is not your pick."
        raise DraftError(message, "waiting")
    cards = pile["cards"]
    try:
        index = cards.index(card_id)
    except ValueError:
        where = "your pack" if order is BOOSTER else "the row"
        raise DraftError(f"{card_id!r} is not in {where}.", "card") from None

    booster_round = state["round"]
    new_state = dict(state)

    pools_ = list(state["pools"])
    pools_[seat] = [*pool, card_id]
    new_state["pools"] = pools_

    round_picks = list(state["round_picks"])
    round_picks[seat] += 1
    new_state["round_picks"] = round_picks

    if "picks" in state:
        new_state["picks"] = [
            *state["picks"],
            {
                "seat": seat,
                "round": booster_round,
                "pick": round_picks[seat],
                "number": number,
                "pack": pile["id"],
                "card": card_id,
            },
        ]
    order.pass_on(state, new_state, seat, pile, cards[:index] + cards[index + 1 :])
    return new_state
