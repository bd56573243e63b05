"""Swiss pairing into pods of 3-4 players, and standings by placement points (pure).

For multiplayer games (Ascension pods of 3-4) a Swiss round seats players in *pods*
instead of pairs. This module is the pod counterpart of :mod:`tournaments.swiss` and
:mod:`tournaments.standings`: plain data in, plain data out, no Django.

Pod sizes
=========

``pair_pods(players, pod_size=4, min_size=3)`` seats everybody in exactly one pod:

* as few pods as possible with every pod between ``min_size`` and ``pod_size`` players,
  the extra players going to the top tables: 10 players -> 4+3+3, 11 -> 4+4+3,
  12 -> 4+4+4, 9 -> 3+3+3, 6 -> 3+3, 7 -> 4+3;
* when no such split exists (with 3-4: 2 and 5 players only) the fewest *short* pods
  are used, as large as possible: 5 -> 3+2, 2 -> 2. A short pod is an ordinary
  heads-up game (Ascension is played by 2 to 4) scored from :data:`PLACEMENT_POINTS`
  like any other pod. Pods of more than ``pod_size`` are never made, and nobody gets a
  bye: a bye would hand out placement points without a game, and the short pod keeps
  everyone playing. (Fewer than 2 players cannot be paired: ``PairingError``.)
* table order: pods with the most points first, larger pods before smaller ones among
  equal points; within a pod, players in standings order.

Who sits with whom
==================

Round 1 (or a field where nobody has points or history) is random: ids are sorted,
shuffled with ``random.Random(seed)`` and cut into the pod sizes.

Later rounds minimise, lexicographically over the whole round:

1. *repeats*: pairs of players in the same pod who already shared a pod (``opponents``);
2. *score spread*: the sum over pods of ``max(points) - min(points)``, i.e. players with
   similar points sit together, as Swiss does;
3. *distance*: the sum over pods of the spread of the players' positions in the seeded
   standings order (points, then a seeded shuffle inside each score group), so that
   opponents inside a score group are random but reproducible.

Fields of up to :data:`EXACT_LIMIT` players are solved exactly (branch and bound over all
partitions into the pod sizes). Bigger fields start from the pods cut in standings order
(top pods take the best players, the natural Swiss pod) and improve them by moving
players between pods - swaps of two players, then rotations of three players across three
pods - accepting only strict improvements of the objective, until none is left. If that
local optimum still has repeats, the same search runs again from a few seeded random
seatings (at most ``RESTART_BUDGET // n`` of them) and the best result is kept. That is
still not a proven optimum (pod assignment with forbidden pairs is NP-hard in general),
but it reaches zero repeats whenever the tests construct a field where that is possible
(16 players in pods of 4 for three rounds needed the restarts in about one seed in
twenty), and it never does worse than the plain standings cut.

Placement points
================

:data:`PLACEMENT_POINTS`: 4 players 4/2/1/0, 3 players 4/2/0, 2 players (the short-pod
fallback) 4/0. This follows the usual multiplayer league scoring (a win worth twice a
second place, nothing for last), with the same 4 for a win in any pod so that the
points of players from different pod sizes stay comparable.

Placements come from the final scores (Ascension: honor, A-43): the highest score places
first. Players on equal scores *share the better placement* and each gets its points
(standard competition ranking, "1224"): two players tied for first in a 4-pod both
score 4 and the next one is third. The engine's own tie-break of the *game winner*
(AA-4: the tied player seated latest) depends on the seating, not on play, so standings
do not use it.

Standings order
===============

``standings_by_placement(players, pod_results)``: points (descending), then opponents'
average points (descending: the mean, over every co-player of every pod, of that
player's points per pod played; a strength-of-schedule figure like OMW%), then firsts
(descending), then average placement (ascending), then the order of ``players``. All
figures are exact fractions; the floats in a row are converted once at the end.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.swiss import PairingError, PlayerId, SwissPlayer

__all__ = [
    "EXACT_LIMIT",
    "PLACEMENT_POINTS",
    "PairingError",
    "PodPairings",
    "PodResult",
    "PodStandingRow",
    "PodStandingsError",
    "pair_pods",
    "placements",
    "pod_sizes",
    "standings_by_placement",
]

# Placement points by pod size: index 0 = first place.
PLACEMENT_POINTS: dict[int, tuple[int, ...]] = {
    4: (4, 2, 1, 0),
    3: (4, 2, 0),
    2: (4, 0),
}

EXACT_LIMIT = 10  # fields up to this size are partitioned exactly (<= 2100 partitions)


@dataclass(frozen=True)
class PodPairings:
    # Table order: pod 1 first (most points); within a pod, standings order.
    pods: tuple[tuple[PlayerId, ...], ...]
    repeats: int  # pairs of players sharing a pod again (0 unless unavoidable)
    score_spread: int  # sum over pods of max(points) - min(points)


# ---------------------------------------------------------------------- pod sizes


def pod_sizes(n: int, pod_size: int = 4, min_size: int = 3) -> tuple[int, ...]:
    """The pod sizes for ``n`` players, largest first (see the module docstring).

    Fewest pods below ``min_size`` (never below 2), then fewest pods, then the largest
    pods first. Raises ``PairingError`` for fewer than 2 players or bad sizes.
    """
    if not 2 <= min_size <= pod_size:
        raise PairingError(
            f"Pod sizes need 2 <= min_size <= pod_size (got {min_size}, {pod_size})."
        )
    if n < 2:
        raise PairingError(f"At least 2 players are needed to pair a round (got {n}).")
    # best[m] = (short pods, pods) for m players, with the first (largest) pod's size.
    inf = (n + 1, n + 1)
    best: list[tuple[int, int]] = [(0, 0)] + [inf] * n
    first: list[int] = [0] * (n + 1)
    for m in range(2, n + 1):
        for size in range(pod_size, 1, -1):  # larger first: ties keep the larger pod
            if size > m or best[m - size] == inf:
                continue
            short, pods = best[m - size]
            cost = (short + (size < min_size), pods + 1)
            if cost < best[m]:
                best[m], first[m] = cost, size
    if best[n] == inf:  # cannot happen: 2 and 3 are always available
        raise PairingError(f"{n} players cannot be seated in pods.")
    sizes = []
    m = n
    while m:
        sizes.append(first[m])
        m -= first[m]
    return tuple(sorted(sizes, reverse=True))


# ---------------------------------------------------------------------- pairing


def pair_pods(
    players: Sequence[SwissPlayer], pod_size: int = 4, min_size: int = 3, seed: int = 0
) -> PodPairings:
    """Seat one Swiss round in pods; see the module docstring for the rules.

    ``players`` is everybody to be seated (leave dropped players out); ``points`` are
    placement points so far and ``opponents`` everybody a player already shared a pod
    with (absent ids are ignored; ``had_bye`` is not used: pods give no byes). The same
    arguments always give the same ``PodPairings``. Raises ``PairingError`` for fewer
    than two players or duplicate ids.
    """
    players = list(players)
    _check_ids([p.id for p in players])
    sizes = pod_sizes(len(players), pod_size, min_size)
    players.sort(key=lambda p: p.rank)  # canonical: standings, then input order

    fresh = all(p.points == 0 and not p.opponents for p in players)
    if fresh:
        ids = [p.id for p in players]
        with contextlib.suppress(TypeError):  # unorderable ids: keep the standings order
            ids.sort()
        random.Random(seed).shuffle(ids)
        by_id = {p.id: p for p in players}
        order = [by_id[i] for i in ids]
        pods = _cut(list(range(len(order))), sizes)
        return _result(order, pods, _met(order))

    rng = random.Random(f"pods:{seed}")
    shuffle_key = [rng.random() for _ in players]
    index = sorted(range(len(players)), key=lambda k: (-players[k].points, shuffle_key[k]))
    order = [players[k] for k in index]  # position = place in the seeded standings
    met = _met(order)
    points = [p.points for p in order]
    if len(order) <= EXACT_LIMIT:
        pods = _exact(sizes, points, met)
    else:
        pods = _improve(_cut(list(range(len(order))), sizes), points, met)
        pods = _restart(pods, sizes, points, met, rng)
    return _result(order, pods, met)


def _check_ids(ids: Sequence[PlayerId]) -> None:
    seen: set[PlayerId] = set()
    for player_id in ids:
        if player_id in seen:
            raise PairingError(f"Each player may appear only once; duplicated: {player_id!r}.")
        seen.add(player_id)


def _met(order: list[SwissPlayer]) -> list[set[int]]:
    position = {p.id: i for i, p in enumerate(order)}
    met: list[set[int]] = [set() for _ in order]
    for i, p in enumerate(order):
        for other in p.opponents:
            j = position.get(other)
            if j is not None and j != i:
                met[i].add(j)
                met[j].add(i)  # tolerate a history recorded on one side only
    return met


def _cut(positions: list[int], sizes: Sequence[int]) -> list[list[int]]:
    pods, start = [], 0
    for size in sizes:
        pods.append(positions[start : start + size])
        start += size
    return pods


def _pod_cost(pod: Sequence[int], points: list[int], met: list[set[int]]) -> tuple[int, int, int]:
    repeats = sum(1 for a, b in itertools.combinations(pod, 2) if b in met[a])
    values = [points[k] for k in pod]
    return repeats, max(values) - min(values), max(pod) - min(pod)


def _add(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _sub(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def _exact(sizes: Sequence[int], points: list[int], met: list[set[int]]) -> list[list[int]]:
    """Best partition of positions into pods of ``sizes`` (branch and bound).

    Pods are built in order of their lowest free position, which enumerates each
    partition once per arrangement of equal sizes; fields are at most ``EXACT_LIMIT``.
    """
    n = len(points)
    best: list = [None, None]  # cost, pods

    def search(free: list[int], remaining: list[int], pods: list[list[int]], cost) -> None:
        if best[0] is not None and cost >= best[0]:
            return  # every term only grows
        if not free:
            best[0], best[1] = cost, [p[:] for p in pods]
            return
        head, rest = free[0], free[1:]
        for size in sorted(set(remaining), reverse=True):
            left = remaining[:]
            left.remove(size)
            for others in itertools.combinations(rest, size - 1):
                pod = [head, *others]
                chosen = set(others)
                pods.append(pod)
                search(
                    [k for k in rest if k not in chosen],
                    left,
                    pods,
                    _add(cost, _pod_cost(pod, points, met)),
                )
                pods.pop()

    search(list(range(n)), list(sizes), [], (0, 0, 0))
    return best[1]


RESTART_BUDGET = 400  # players seated by the restarts of one round, at most (see _restart)


def _total(pods: list[list[int]], points: list[int], met: list[set[int]]) -> tuple[int, int, int]:
    cost = (0, 0, 0)
    for pod in pods:
        cost = _add(cost, _pod_cost(pod, points, met))
    return cost


def _restart(
    pods: list[list[int]],
    sizes: Sequence[int],
    points: list[int],
    met: list[set[int]],
    rng: random.Random,
) -> list[list[int]]:
    """While repeats remain, improve a few seeded random seatings too; keep the best.

    A local optimum can keep a repeat that another seating avoids (16 players in pods of 4,
    third round). Restarts run only when the first search left repeats, at most
    ``RESTART_BUDGET // n`` of them (none for fields above the budget), and each must beat
    the best so far on the whole objective, so the result is never worse.
    """
    best, best_cost = pods, _total(pods, points, met)
    for _ in range(RESTART_BUDGET // len(points)):
        if best_cost[0] == 0:
            break
        positions = list(range(len(points)))
        rng.shuffle(positions)
        candidate = _improve(_cut(positions, sizes), points, met)
        cost = _total(candidate, points, met)
        if cost < best_cost:
            best, best_cost = candidate, cost
    return best


def _without(pod: list[int], points: list[int], met: list[set[int]]) -> list[tuple]:
    """For each seat ``i`` of ``pod``: the other players, the repeats among them, and the
    range of their points and positions, so that the cost of the pod with someone else in
    seat ``i`` (``_with``) needs no pass over all its pairs."""
    out = []
    for i in range(len(pod)):
        others = pod[:i] + pod[i + 1 :]
        repeats = sum(1 for a, b in itertools.combinations(others, 2) if b in met[a])
        values = [points[k] for k in others]
        out.append((others, repeats, max(values), min(values), max(others), min(others)))
    return out


def _with(seat: tuple, x: int, points: list[int], met: list[set[int]]) -> tuple[int, int, int]:
    """``_pod_cost`` of the pod whose seat (from ``_without``) now holds player ``x``."""
    others, repeats, high, low, last, first = seat
    value = points[x]
    return (
        repeats + len(met[x].intersection(others)),
        (value if value > high else high) - (value if value < low else low),
        (x if x > last else last) - (x if x < first else first),
    )


def _improve(pods: list[list[int]], points: list[int], met: list[set[int]]) -> list[list[int]]:
    """Local search: strictly improving swaps (2 pods) and rotations (3 pods).

    A swap's two new pod costs come from ``_with`` (the same figures as ``_pod_cost``
    of the swapped pods, in a fraction of the time: the search tries every swap of every
    pair of pods, 130,000 of them per pass at 512 players).
    """
    costs = [_pod_cost(p, points, met) for p in pods]
    seats = [_without(p, points, met) for p in pods]
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(pods)), 2):
            pod_a, pod_b, seats_a, seats_b = pods[a], pods[b], seats[a], seats[b]
            (ra, sa, da), (rb, sb, db) = costs[a], costs[b]
            before = (ra + rb, sa + sb, da + db)
            for i in range(len(pod_a)):  # swaps keep the sizes: the ranges hold
                for j in range(len(pod_b)):
                    x, y = pod_a[i], pod_b[j]
                    ca, cb = _with(seats_a[i], y, points, met), _with(seats_b[j], x, points, met)
                    if (ca[0] + cb[0], ca[1] + cb[1], ca[2] + cb[2]) < before:
                        pod_a, pod_b = pod_a[:], pod_b[:]
                        pod_a[i], pod_b[j] = y, x
                        seats_a, seats_b = (
                            _without(pod_a, points, met),
                            _without(pod_b, points, met),
                        )
                        pods[a], pods[b], costs[a], costs[b] = pod_a, pod_b, ca, cb
                        seats[a], seats[b] = seats_a, seats_b
                        before = _add(ca, cb)
                        improved = True
        if improved:
            continue
        # Only worth it while repeats remain: a rotation can untangle what no swap can.
        if not any(c[0] for c in costs):
            break
        for a, b, c in itertools.permutations(range(len(pods)), 3):
            if not costs[a][0]:  # rotations out of a pod with a repeat
                continue
            before = _add(_add(costs[a], costs[b]), costs[c])
            for i, j, k in itertools.product(
                range(len(pods[a])), range(len(pods[b])), range(len(pods[c]))
            ):
                pa, pb, pc = pods[a][:], pods[b][:], pods[c][:]
                pa[i], pb[j], pc[k] = pc[k], pa[i], pb[j]
                new = [_pod_cost(p, points, met) for p in (pa, pb, pc)]
                if _add(_add(new[0], new[1]), new[2]) < before:
                    pods[a], pods[b], pods[c] = pa, pb, pc
                    costs[a], costs[b], costs[c] = new
                    for q in (a, b, c):
                        seats[q] = _without(pods[q], points, met)
                    improved = True
                    break
            if improved:
                break
    return pods


def _result(order: list[SwissPlayer], pods: list[list[int]], met: list[set[int]]) -> PodPairings:
    def pod_key(pod: list[int]) -> tuple:
        values = sorted((order[k].points for k in pod), reverse=True)
        return (-values[0], -sum(values), -len(pod), min(order[k].rank for k in pod))

    seated = []
    repeats = spread = 0
    for pod in sorted(pods, key=pod_key):
        members = sorted(pod, key=lambda k: (order[k].rank, k))
        seated.append(tuple(order[k].id for k in members))
        repeats += sum(1 for a, b in itertools.combinations(pod, 2) if b in met[a])
        values = [order[k].points for k in pod]
        spread += max(values) - min(values)
    return PodPairings(pods=tuple(seated), repeats=repeats, score_spread=spread)


# ---------------------------------------------------------------------- standings


class PodStandingsError(ValueError):
    """The results cannot be scored as given (unknown player, pod size, ...)."""


@dataclass(frozen=True)
class PodResult:
    """One finished pod: every player's final score (Ascension: honor)."""

    round: int
    scores: Mapping[PlayerId, int]


@dataclass(frozen=True)
class PodStandingRow:
    rank: int
    player: PlayerId
    points: int
    pods: int  # pods played
    firsts: int  # first places (shared firsts included)
    average_placement: float  # 1 = always first; 0.0 when no pod was played
    opponents_average: float  # mean over co-players of their points per pod played
    exact: dict[str, Fraction] = field(default_factory=dict, compare=False, repr=False)


def placements(scores: Mapping[PlayerId, int]) -> dict[PlayerId, int]:
    """1-based placements from scores; equal scores share the better placement (1224)."""
    values = sorted(scores.values(), reverse=True)
    return {player: values.index(score) + 1 for player, score in scores.items()}


def standings_by_placement(
    players: Sequence[PlayerId], pod_results: Iterable[PodResult]
) -> list[PodStandingRow]:
    """Rank ``players`` by placement points; see the module docstring for the order.

    ``players`` lists every entrant once (its order breaks complete ties). Raises
    ``PodStandingsError`` for an unknown player, a player twice in one round, or a pod
    size without placement points.
    """
    players = list(players)
    position = {}
    for k, player in enumerate(players):
        if player in position:
            raise PodStandingsError(f"player {player!r} is listed twice in players")
        position[player] = k
    points = dict.fromkeys(players, 0)
    pods = dict.fromkeys(players, 0)
    firsts = dict.fromkeys(players, 0)
    place_sum = dict.fromkeys(players, 0)
    opponents: dict[PlayerId, list[PlayerId]] = {p: [] for p in players}
    busy: set[tuple[int, PlayerId]] = set()
    for result in pod_results:
        table = PLACEMENT_POINTS.get(len(result.scores))
        if table is None:
            raise PodStandingsError(
                f"no placement points for a pod of {len(result.scores)} in round {result.round}"
            )
        for player, score in result.scores.items():
            if player not in position:
                raise PodStandingsError(f"unknown player {player!r} in round {result.round}")
            if (result.round, player) in busy:
                raise PodStandingsError(f"player {player!r} has two pods in round {result.round}")
            if isinstance(score, bool) or not isinstance(score, int):
                raise PodStandingsError(f"score of {player!r} must be an int, got {score!r}")
            busy.add((result.round, player))
        for player, place in placements(result.scores).items():
            points[player] += table[place - 1]
            pods[player] += 1
            firsts[player] += place == 1
            place_sum[player] += place
            opponents[player].extend(p for p in result.scores if p != player)

    per_pod = {p: Fraction(points[p], pods[p]) if pods[p] else Fraction(0) for p in players}
    opp_avg = {
        p: sum((per_pod[o] for o in opponents[p]), Fraction(0)) / len(opponents[p])
        if opponents[p]
        else Fraction(0)
        for p in players
    }
    avg_place = {p: Fraction(place_sum[p], pods[p]) if pods[p] else Fraction(0) for p in players}

    def key(p: PlayerId) -> tuple:
        # Never-played players sort after played ones on average placement.
        return (-points[p], -opp_avg[p], -firsts[p], (pods[p] == 0, avg_place[p]), position[p])

    return [
        PodStandingRow(
            rank=rank,
            player=p,
            points=points[p],
            pods=pods[p],
            firsts=firsts[p],
            average_placement=float(avg_place[p]),
            opponents_average=float(opp_avg[p]),
            exact={"average_placement": avg_place[p], "opponents_average": opp_avg[p]},
        )
        for rank, p in enumerate(sorted(players, key=key), start=1)
    ]
