"""The places of a bracket-only event (single or double elimination, no Swiss rounds).

Pure: no Django, no database. A bracket gives each eliminated player a finish, ``1 + the
number of players who finish above`` in a full bracket (see ``tournaments.bracket``): 1 for
the champion, 2 for the losing finalist, 3 for both semifinal losers, 5 for the quarterfinal
losers, and so on. The standings show the range of places each finish covers, as shared
places: 1, 2, 3–4, 5–8, 9–16 in single elimination; 1, 2, 3, 4, 5–6, 7–8 in double
elimination; 1–2 for both players of an agreed split final (MTR 5.2).

While the bracket is in play a finish keeps the full bracket's range (two quarterfinals of
four lost: both losers share 5–8, since others may join them), and players still in the
bracket play for the places from 1 down to their number. Once it is finished, places are
counted among the event's own players: a finish's first place is one below everyone who
finishes above it, players who share a finish take one place each (a split final covers
1–2), and the lowest finish runs down to the last entrant. With byes a full bracket's
finish numbers can run past the entrants (a double elimination of 12 in 16 slots); the
places never do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping

__all__ = ["bracket_places", "place_text", "row_finish"]


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
    span: dict[int, tuple[int, int]] = {}
    above = 0  # eliminated players (or the champion) finishing above this finish
    for i, finish in enumerate(ordered):
        lowest = i + 1 == len(ordered)
        if alive:
            # In play, a finish keeps the full bracket's range: other matches of its
            # round may still add players to it (two quarterfinals of four lost: 5-8).
            below = entrants if lowest else ordered[i + 1] - 1
            first, last = finish, max(finish + counts[finish] - 1, below)
        else:
            # Finished: counted among the event's own players, so that byes never give
            # a place past the last entrant (a double elimination of 12 in 16 slots).
            first = above + 1
            last = (
                max(first + counts[finish] - 1, entrants) if lowest else first + counts[finish] - 1
            )
        last = min(last, entrants)
        span[finish] = (min(first, last), last)
        above += counts[finish]
    places: dict[Hashable, tuple[int, int]] = {
        player: span[finish] for player, finish in finishes.items()
    }
    for player in alive:
        places[player] = (1, len(alive))
    return places


def place_text(first: int, last: int) -> str:
    """A shared place as the standings print it: ``3`` or ``3–4`` (an en dash)."""
    return str(first) if first == last else f"{first}–{last}"


def row_finish(row: Mapping) -> tuple[int, str]:
    """A standings snapshot row's finish as (rank, place text): a bracket-only event's
    shared place by its first ("3–4": 3, as its standings show it), else the row's rank."""
    place = str(row.get("place") or "")
    first = place.split("–")[0]
    if first.isdigit():
        return int(first), place
    return row["rank"], str(row["rank"])
