"""Player ratings: OpenSkill's Plackett–Luce model over finished matches. No ORM.

A player's skill in one game system is a normal belief, mean ``mu`` and spread
``sigma``; a new player starts at 25 ± 25/3. A finished match is an ``Outcome``: its
sides in seat order, each side the players who played it together (one player, or the
members of a team), and each side's rank (1 = first, equal ranks = a draw). Two-player
matches have ranks 1 and 2 (or 1 and 1 for a draw), pods of 3–4 the placements, 2 vs 2
teams two sides of two players each. ``rate`` returns the new skills of everybody in the
outcome; ``rate_all`` folds a sequence of outcomes in order.

The number shown and sorted by is the conservative estimate ``mu - 3 sigma``
(``Skill.ordinal``): a player must play to climb, and one lucky win does not put a newcomer
on top. ``seeded_order`` orders players by it (strongest first) and
``seeded_first_round`` pairs a Swiss first round top half against bottom half from it;
``seeded_pods`` seats a pod event's first round so that every pod gets one player of each
band of strength.

Keys are whatever the caller uses for a player (a user id); unknown keys start fresh.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from openskill.models import PlackettLuce

K = TypeVar("K", bound=Hashable)

MU = 25.0
SIGMA = MU / 3
Z = 3.0


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown and ranked by: ``mu - 3 sigma``."""
        return self.mu - Z * self.sigma


NEW = Skill()


@dataclass(frozen=True)
class Outcome:
    """One finished match: ``sides`` (players by key) and each side's ``ranks`` (1 = first)."""

    sides: tuple[tuple[Hashable, ...], ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.sides) != len(self.ranks):
            raise ValueError("one rank per side")
        if len(self.sides) < 2:
            raise ValueError("a rated match needs at least two sides")
        if any(not side for side in self.sides):
            raise ValueError("every side needs at least one player")
        keys = [key for side in self.sides for key in side]
        if len(keys) != len(set(keys)):
            raise ValueError("a player is on more than one side")


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def rate(skills: Mapping[K, Skill], outcome: Outcome) -> dict[K, Skill]:
    """The new skills of every player of ``outcome`` (players missing from ``skills`` start
    as ``NEW``). ``skills`` is not changed."""
    model = _model()
    teams = [
        [model.rating(mu=skills.get(key, NEW).mu, sigma=skills.get(key, NEW).sigma) for key in side]
        for side in outcome.sides
    ]
    rated = model.rate(teams, ranks=[float(rank) for rank in outcome.ranks])
    result: dict[K, Skill] = {}
    for side, new_side in zip(outcome.sides, rated, strict=True):
        for key, new in zip(side, new_side, strict=True):
            before = skills.get(key, NEW)
            result[key] = Skill(mu=new.mu, sigma=new.sigma, matches=before.matches + 1)
    return result


def rate_all(
    outcomes: Iterable[Outcome], skills: Mapping[K, Skill] | None = None
) -> dict[K, Skill]:
    """Every player's skill after ``outcomes`` in order, starting from ``skills``."""
    current: dict[K, Skill] = dict(skills or {})
    for outcome in outcomes:
        current.update(rate(current, outcome))
    return current


def two_player_outcome(first: Sequence[K], second: Sequence[K], winner: int | None) -> Outcome:
    """A match of two sides: ``winner`` 0 or 1, or ``None`` for a draw."""
    ranks = (1, 1) if winner is None else ((1, 2) if winner == 0 else (2, 1))
    return Outcome(sides=(tuple(first), tuple(second)), ranks=ranks)


def seeded_order(players: Iterable[K], skills: Mapping[K, Skill]) -> list[K]:
    """``players`` strongest first by ``ordinal``; equal ones keep the order given."""
    return sorted(players, key=lambda key: -skills.get(key, NEW).ordinal)


def seeded_first_round(
    players: Sequence[K], skills: Mapping[K, Skill]
) -> tuple[list[tuple[K, K]], K | None]:
    """A Swiss first round by rating: with the players ordered strongest first, the
    weakest gets the bye when the count is odd, then seed ``k`` of the top half meets seed
    ``k`` of the bottom half. Returns the pairs (by table) and the bye."""
    ordered = seeded_order(players, skills)
    bye = ordered.pop() if len(ordered) % 2 else None
    half = len(ordered) // 2
    return list(zip(ordered[:half], ordered[half:], strict=True)), bye


def seeded_pods(
    players: Sequence[K], skills: Mapping[K, Skill], sizes: Sequence[int]
) -> list[list[K]]:
    """A pod event's first round by rating: the players, strongest first, dealt to the
    pods of ``sizes`` in a snake (pods 1, 2, ..., n, then n, ..., 1, ...; a full pod is
    passed over), so each pod holds one player of each band of strength, as seed ``k``
    of the top half meets seed ``k`` of the bottom half in a two-player first round.
    Returns the pods in order, each strongest first."""
    if sum(sizes) != len(players):
        raise ValueError("the pod sizes must seat every player")
    ordered = seeded_order(players, skills)
    pods: list[list[K]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    lane: list[int] = []
    for player in ordered:
        while True:
            if not lane:
                lane = forward[:]
                forward.reverse()
            k = lane.pop(0)
            if len(pods[k]) < sizes[k]:
                pods[k].append(player)
                break
    return pods
