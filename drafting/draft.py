"""The Draft passing state machine (rules 3.2.5, AMB-06, AMB-07). Pure Python, no Django.

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
from typing import Any

__all__ = [
    "DraftError",
    "current_pack",
    "direction",
    "is_finished",
    "neighbour",
    "new_draft",
    "pack_id",
    "pick",
    "pick_number",
    "picks_left_in_pack",
    "pools",
    "round_pick_number",
    "upstream",
    "waiting_on",
]

State = dict[str, Any]


class DraftError(ValueError):
    """A pick that cannot be made. ``message`` is for the player; ``code`` for the program.

    Codes: ``finished``, ``seat``, ``waiting`` (no pack waiting for the seat), ``card``
    (card not in the pack), ``already_picked`` (expected_pick lower than the next pick:
    a duplicate or an old request), ``stale`` (expected_pick higher than the next pick),
    ``packs`` (bad input to ``new_draft``).
    """

    def __init__(self, message: str, code: str = "invalid"):
        super().__init__(message)
        self.message = message
        self.code = code


# ---------------------------------------------------------------- passing order
# The order in which packs travel is these small functions; a different pick order
# (e.g. an open row picked in reverse turn order) would replace them.


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


def current_pack(state: State, seat: int) -> dict[str, Any] | None:
    """The pack at the head of the seat's queue (None while the seat waits)."""
    _check_seat(state, seat)
    queue = state["queues"][seat]
    return state["packs"][queue[0]] if queue else None


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

    That is the nearest seat upstream (against the round's direction) that holds a pack:
    any pack reaching the waiting seat must first pass through it, so nothing arrives
    until that seat picks. Seats that hold a pack are not listed; a finished draft
    gives ``{}``.
    """
    if state["finished"]:
        return {}
    seats = state["seats"]
    booster_round = state["round"]
    queues = state["queues"]
    holder: int | None = None
    # Walk the table twice in the passing direction, remembering the last seat seen
    # holding a pack: for a seat that waits, that is its nearest upstream holder.
    out: dict[int, int] = {}
    seat = 0
    for _ in range(2 * seats):
        if queues[seat]:
            holder = seat
        elif holder is not None:
            out[seat] = holder
        seat = neighbour(seat, seats, booster_round)
    return out


# ---------------------------------------------------------------- picking


def pick(state: State, seat: int, card_id: str, *, expected_pick: int | None = None) -> State:
    """A new state in which ``seat`` has taken ``card_id`` from the pack it holds.

    The rest of the pack goes at once to the end of the neighbour's queue (unless it is
    empty). When the last card of the booster round is taken, the next round opens (each
    seat's own next booster) or the draft is finished. ``expected_pick`` (the number from
    ``pick_number`` the client answered) must equal the seat's next pick number.
    Raises DraftError and leaves ``state`` unchanged otherwise.
    """
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
    queue = state["queues"][seat]
    if not queue:
        raise DraftError("No pack is waiting for you yet.", "waiting")
    head = queue[0]
    pack = state["packs"][head]
    cards = pack["cards"]
    try:
        index = cards.index(card_id)
    except ValueError:
        raise DraftError(f"{card_id!r} is not in your pack.", "card") from None

    seats = state["seats"]
    booster_round = state["round"]
    new_cards = cards[:index] + cards[index + 1 :]
    new_pack = dict(pack)
    new_pack["cards"] = new_cards
    new_pack["picks_made"] = pack["picks_made"] + 1

    new_state = dict(state)
    packs = dict(state["packs"])
    packs[head] = new_pack
    new_state["packs"] = packs

    queues = list(state["queues"])
    queues[seat] = queue[1:]
    if new_cards:
        target = neighbour(seat, seats, booster_round)
        queues[target] = [*queues[target], head]
    new_state["queues"] = queues

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
                "pack": head,
                "card": card_id,
            },
        ]
    new_state["cards_left"] = state["cards_left"] - 1
    if new_state["cards_left"] == 0:
        _open_round(new_state, booster_round + 1)
    return new_state
