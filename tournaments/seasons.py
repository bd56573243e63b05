"""The season table of a series: finishes in several events added up by a points table.

Pure: no Django, no database. ``season_table`` takes each player's finish (rank) in each
event and a ``PointsTable`` and returns ranked rows. A finish earns the points of its
place (``places``: the last place of a band and its points, in order, e.g. 1st 10, 2nd 7,
3rd–4th 5, 5th–8th 3) or ``participation`` below them. Players who share a rank in an
event share the points of the places they cover: two players tied for 3rd of a table
``3rd 6, 4th 4`` get 5 each. The season's ranking is by points, then by the number of
best finishes (most firsts, then seconds, ...), then by fewer events played; players
equal on all three share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


class PointsTableError(ValueError):
    """A points table that cannot be used (the message says why)."""


@dataclass(frozen=True)
class PointsTable:
    places: tuple[tuple[int, int], ...]  # (last place of the band, points), bands in order
    participation: int = 0

    def __post_init__(self) -> None:
        last = 0
        previous_points = None
        for band in self.places:
            if len(band) != 2:
                raise PointsTableError("Each band is a last place and its points.")
            upto, points = band
            if not isinstance(upto, int) or not isinstance(points, int):
                raise PointsTableError("Places and points are whole numbers.")
            if upto <= last:
                raise PointsTableError("Places must go up: each band ends after the one before.")
            if points < 0:
                raise PointsTableError("Points cannot be negative.")
            if previous_points is not None and points > previous_points:
                raise PointsTableError("A lower place cannot earn more points than a higher one.")
            last, previous_points = upto, points
        if not isinstance(self.participation, int) or self.participation < 0:
            raise PointsTableError("Participation points are a whole number, 0 or more.")
        if previous_points is not None and self.participation > previous_points:
            raise PointsTableError("Participation cannot earn more than the last band.")

    def points_for_place(self, place: int) -> int:
        for upto, points in self.places:
            if place <= upto:
                return points
        return self.participation

    def as_dict(self) -> dict:
        return {"places": [list(b) for b in self.places], "participation": self.participation}

    @classmethod
    def from_dict(cls, data: object) -> PointsTable:
        if not isinstance(data, dict):
            raise PointsTableError("A points table is an object with places and participation.")
        places = data.get("places", [])
        if not isinstance(places, list) or not all(
            isinstance(b, list | tuple) and len(b) == 2 for b in places
        ):
            raise PointsTableError("Places are a list of [last place, points] pairs.")
        return cls(
            places=tuple((b[0], b[1]) for b in places),
            participation=data.get("participation", 0),
        )


# 1st 10, 2nd 7, 3rd–4th 5, 5th–8th 3, any other finish 1.
DEFAULT_POINTS = PointsTable(places=((1, 10), (2, 7), (4, 5), (8, 3)), participation=1)


@dataclass(frozen=True)
class Finish:
    event: Hashable
    player: Hashable
    rank: int  # 1 = first; players who tied share the rank
    # What finished: the player's own entry, or the team they played in. Ties are counted
    # by entries: the members of a team that finished 1st each earn 1st place's points.
    entry: Hashable = None

    @property
    def finisher(self) -> Hashable:
        return self.player if self.entry is None else ("entry", self.entry)


def places_covered(finishes: Iterable[Finish]) -> dict[tuple[Hashable, int], int]:
    """(event, rank) -> the last place that finish covers: two entries 3rd cover 3-4."""
    entries: dict[tuple[Hashable, int], set] = defaultdict(set)
    for f in finishes:
        entries[f.event, f.rank].add(f.finisher)
    return {key: key[1] + len(found) - 1 for key, found in entries.items()}


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    player: Hashable
    points: Fraction
    events: int
    best: int  # best finish
    finishes: dict = field(default_factory=dict)  # event → (rank, points)


def event_points(finishes: Sequence[Finish], table: PointsTable) -> dict[Hashable, Fraction]:
    """Points of each player of one event; a tie shares the points of the places it covers."""
    shared: dict[int, Fraction] = {}
    for (_event, rank), last in places_covered(finishes).items():
        total = sum(table.points_for_place(place) for place in range(rank, last + 1))
        shared[rank] = Fraction(total, last - rank + 1)
    return {f.player: shared[f.rank] for f in finishes}


def season_table(finishes: Iterable[Finish], table: PointsTable) -> list[SeasonRow]:
    """Rank the players of a series by the points their finishes earn."""
    by_event: dict[Hashable, list[Finish]] = defaultdict(list)
    for finish in finishes:
        if finish.rank < 1:
            raise ValueError(f"A rank starts at 1, not {finish.rank}.")
        by_event[finish.event].append(finish)
    totals: dict[Hashable, Fraction] = defaultdict(Fraction)
    results: dict[Hashable, dict] = defaultdict(dict)
    for event, rows in by_event.items():
        players = [f.player for f in rows]
        if len(set(players)) != len(players):
            raise ValueError(f"A player finishes event {event!r} more than once.")
        points = event_points(rows, table)
        for f in rows:
            totals[f.player] += points[f.player]
            results[f.player][event] = (f.rank, points[f.player])

    def key(player):
        ranks = sorted(rank for rank, _p in results[player].values())
        return (-totals[player], ranks, len(ranks))

    ordered = sorted(totals, key=lambda p: (key(p), str(p)))
    rows_out: list[SeasonRow] = []
    previous = None
    for position, player in enumerate(ordered, start=1):
        k = key(player)
        rank = rows_out[-1].rank if previous == k else position
        previous = k
        rows_out.append(
            SeasonRow(
                rank=rank,
                player=player,
                points=totals[player],
                events=len(results[player]),
                best=min(r for r, _p in results[player].values()),
                finishes=dict(results[player]),
            )
        )
    return rows_out
