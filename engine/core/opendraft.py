"""The open-row draft: one face-up row refilled from a deck, the seats picking one card at
a time in reverse turn order until each holds its quota (Ascension Tactics' champion
draft, tactics.md T-76..T-78, T-81, T-96, D-13). Pure Python, game-neutral: a rules
engine runs it as a setup phase, the drafting app through its pick orders
(``drafting.draft``, which re-exports these names).

Seats are numbered in **turn order** (seat 0 takes the first turn). The seat taking the
last turn picks first, then the others in reverse turn order, in a repeating cycle; each
pick refills the gap from the deck at once, so the next picker again sees the whole row
while the deck lasts; once every seat holds ``quota`` the leftovers go back to the box.

State (plain JSON data): ``{"kind": "open_row", "seats", "rounds": 1, "round": 0,
"quota", "row", "deck", "box", "turn" (picks made so far), "pools" (per seat, in pick
order), "round_picks", "finished", "cards_left", "picks" (unless made with
``history=False``)}``. The deck's order is hidden information: show players the row, the
pools and the deck's size only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

State = dict[str, Any]

KIND = "open_row"
ROW_SIZE = 6  # T-76: reveal 6
ROW_ID = "row"


class DraftError(ValueError):
    """A pick that cannot be made. ``message`` is for the player; ``code`` for the program.

    Codes: ``finished``, ``seat``, ``waiting`` (not the seat's pick), ``card`` (card not
    in the row or pack), ``already_picked`` / ``stale`` (an old or future pick number),
    ``packs`` (bad input to a new draft).
    """

    def __init__(self, message: str, code: str = "invalid"):
        super().__init__(message)
        self.message = message
        self.code = code


def champion_quota(players: int, mode: str = "versus") -> int:
    """Champions each seat drafts (tactics.md).

    ``versus``: 4 each with 2 players, 3 each with 3-4 (T-77); ``solo``: 4, picked in a
    row (T-81); ``teams`` (2v2, one seat per team): 6 per team (T-78); ``coop``: 3 each
    (T-96).
    """
    if mode == "solo":
        return 4
    if mode == "teams":
        return 6
    if mode == "coop":
        return 3
    if mode != "versus":
        raise DraftError(f"Unknown champion draft mode {mode!r}.", "packs")
    if players == 2:
        return 4
    if players in (3, 4):
        return 3
    raise DraftError("A champion draft between players needs 2 to 4 of them (T-75).", "packs")


def new_open_row(
    champions: Sequence[str],
    seats: int,
    *,
    quota: int | None = None,
    seed: int | None = None,
    row_size: int = ROW_SIZE,
    history: bool = True,
) -> State:
    """The start of an open-row draft (T-76/77).

    ``champions`` are the draft pool (the champions not in the central deck, T-76),
    taken in the order given, or shuffled with ``seed``; the first ``row_size`` are
    revealed as the row, the rest are the deck. Each seat is to hold ``quota`` (default
    ``champion_quota(seats)``). For 2v2 give one seat per team and ``quota=6`` (T-78:
    team 2 picks first); for solo one seat and ``quota=4`` (T-81).
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
        raise DraftError("A draft needs at least one seat.", "packs")
    if isinstance(champions, str) or not all(isinstance(c, str) for c in champions):
        raise DraftError("The champions are a list of card ids.", "packs")
    if quota is None:
        quota = champion_quota(seats, "solo" if seats == 1 else "versus")
    if isinstance(quota, bool) or not isinstance(quota, int) or quota < 1:
        raise DraftError("Each seat must draft at least one champion.", "packs")
    if row_size < 1:
        raise DraftError("The row shows at least one card.", "packs")
    cards = list(champions)
    if len(cards) < seats * quota:
        raise DraftError(f"{len(cards)} champions cannot give {seats} seats {quota} each.", "packs")
    if seed is not None:
        random.Random(seed).shuffle(cards)
    state: State = {
        "kind": KIND,
        "seats": seats,
        "rounds": 1,
        "round": 0,
        "quota": quota,
        "row": cards[:row_size],
        "deck": cards[row_size:],
        "box": [],
        "turn": 0,
        "pools": [[] for _ in range(seats)],
        "finished": False,
        "round_picks": [0] * seats,
        "cards_left": len(cards),
    }
    if history:
        state["picks"] = []
    return state


def turn_order_picker(state: State) -> int:
    """The seat that picks next: the last seat in turn order first, then the others in
    reverse turn order, over and over (T-77, D-13)."""
    seats = state["seats"]
    return seats - 1 - state["turn"] % seats


class OpenRowOrder:
    """The pick order of an open row (the ``PickOrder`` of ``drafting.draft``): the row is
    the one pile, on the picker's turn only; a pick refills its gap from the deck."""

    kind = KIND

    def pile(self, state: State, seat: int) -> dict[str, Any] | None:
        if state["finished"] or turn_order_picker(state) != seat:
            return None
        return {
            "id": ROW_ID,
            "round": 0,
            "origin_seat": None,
            "cards": state["row"],
            "picks_made": state["turn"],
        }

    def pass_on(
        self, state: State, new_state: State, seat: int, pile: dict[str, Any], rest: list[str]
    ) -> None:
        # T-77: the picker refills the gap at once from the deck (as the center row does,
        # T-31), so the next picker again sees 6 cards while the deck lasts.
        row = list(state["row"])
        index = row.index(new_state["pools"][seat][-1])
        deck = state["deck"]
        if deck:
            row[index] = deck[0]
            new_state["deck"] = deck[1:]
        else:
            del row[index]
        new_state["row"] = row
        new_state["turn"] = state["turn"] + 1
        new_state["cards_left"] = state["cards_left"] - 1
        if all(len(pool) >= state["quota"] for pool in new_state["pools"]):
            # T-77: the reserves are full; leftover cards go back in the box.
            new_state["box"] = [*state["box"], *row, *new_state["deck"]]
            new_state["row"] = []
            new_state["deck"] = []
            new_state["cards_left"] = 0
            new_state["finished"] = True

    def waiting_on(self, state: State) -> dict[int, int]:
        picker = turn_order_picker(state)
        return {seat: picker for seat in range(state["seats"]) if seat != picker}


OPEN_ROW = OpenRowOrder()


def to_pick(state: State) -> int | None:
    """The seat to pick now, None once the draft is over."""
    return None if state["finished"] else turn_order_picker(state)


def pick(state: State, seat: int, card_id: str) -> State:
    """A new state in which ``seat`` has taken ``card_id`` from the row (the input is not
    changed); ``DraftError`` if it is not the seat's pick or the card is not in the row."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["seats"]:
        raise DraftError(f"There is no seat {seat!r} in this draft.", "seat")
    if state["finished"]:
        raise DraftError("The draft is over.", "finished")
    pile = OPEN_ROW.pile(state, seat)
    if pile is None:
        raise DraftError("It is not your pick.", "waiting")
    cards = pile["cards"]
    if card_id not in cards:
        raise DraftError(f"{str(card_id)[:40]!r} is not in the row.", "card")
    index = cards.index(card_id)
    new_state = dict(state)
    pools = list(state["pools"])
    pools[seat] = [*state["pools"][seat], card_id]
    new_state["pools"] = pools
    round_picks = list(state["round_picks"])
    round_picks[seat] += 1
    new_state["round_picks"] = round_picks
    if "picks" in state:
        new_state["picks"] = [
            *state["picks"],
            {
                "seat": seat,
                "round": 0,
                "pick": round_picks[seat],
                "number": len(pools[seat]),
                "pack": ROW_ID,
                "card": card_id,
            },
        ]
    OPEN_ROW.pass_on(state, new_state, seat, pile, cards[:index] + cards[index + 1 :])
    return new_state
