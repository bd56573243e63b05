"""The places of a bracket-only event (single or double elimination, no Swiss rounds).

Pure: no Django, no database. A bracket gives each eliminated player a finish, ``1 + the
number of players who finish above`` in a full bracket (see ``tournaments.bracket``): 1 for
the champion, 2 for the losing finalist, 3 for both semifinal losers, 5 for the quarterfinal
losers, and so on. The standings show the range of places each finish covers, as shared
places: 1, 2, 3–4, 5–8, 9–16 in single elimination; 1, 2, 3, 4, 5–6, 7–8 in double
elimination; 1–2 for both players of an agreed split final (MTR 5.2).

A finish covers the places from itself down to just above the next finish (an eliminated
player who finishes lower), or, for the lowest finish, down to the last entrant. Players who
share a finish always get at least one place each, so a split final covers 1–2. Players still
in the bracket play for the places from 1 down to their number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping

__all__ = ["bracket_places", "place_text"]


def bracket_places(
    finishes: Mapping[Hashable, int], alive: Collection[Hashable], entrants: int
) -> dict[Hashable, tuple[int, int]]:
    """Each player's shared places as (first, last).

    ``finishes``: eliminated players (and the champion, or both players of a split final)
    -> their finish; ``alive``: the players still in the bracket; ``entrants``: how many
    players the bracket started with.
    """
    if set(finishes) & set(alive):
        raise ValueError("a player is both eliminated and still in the bracket")
    if any(isinstance(f, bool) or not isinstance(f, int) or f < 1 for f in finishes.values()):
        raise ValueError("a finish must be an int >= 1")
    counts = Counter(finishes.values())
    ordered = sorted(counts)
    places: dict[Hashable, tuple[int, int]] = {}
    span: dict[int, tuple[int, int]] = {}
    for i, finish in enumerate(ordered):
        below = ordered[i + 1] - 1 if i + 1 < len(ordered) else entrants
        span[finish] = (finish, max(finish + counts[finish] - 1, below))
    for player, finish in finishes.items():
        places[player] = span[finish]
    for player in alive:
        places[player] = (1, len(alive))
    return places


def place_text(first: int, last: int) -> str:
    """A shared place as the standings print it: ``3`` or ``3–4`` (an en dash)."""
    return str(first) if first == last else f"{first}–{last}"
