"""Swiss pairings (Magic Tournament Rules style), as a pure function of the standings.

Round 1 (or a field where nobody has points or history yet) is a random pairing drawn
from ``random.Random(seed)``.

Later rounds solve one optimisation problem, lexicographically:

1. as few rematches as possible (zero whenever a rematch-free pairing exists);
2. the smallest total score difference, ``sum(|points_a - points_b|)`` over the pairs;
3. remaining ties go to pairing neighbours in a seeded random order inside each score
   group, i.e. opponents within a score group are random but reproducible.

With an odd number of players one bye is given first. The candidates are the players who
have not had a bye yet (everybody, if all of them have); the lowest-ranked candidate gets
it unless that would force more rematches than another choice, in which case it goes to
the lowest-ranked candidate that keeps the rematch count minimal. The score difference is
deliberately not a reason to move the bye: it follows standings, not pairing comfort.

How it is solved
----------------
Players are sorted by points (descending), ties in the seeded order, giving positions
``0..n-1``. The problem is a minimum-cost perfect matching, solved with
``rustworkx.max_weight_matching(max_cardinality=True)`` on integer weights
``P * (not rematch) + S * (max_diff - diff) + tie_break`` where ``P`` and ``S`` are large
enough for the three goals to be strictly lexicographic. A full graph is out of the
question for big events (and the blossom algorithm is super-linear even on sparse ones),
so two exchange arguments cut it down without changing the optimum. Both look at ``M*``,
the optimal matching that also minimises the sum of squared position distances of its
pairs, and show that some swap would lower that sum without hurting the objective.

*Window lemma.* Say ``M*`` pairs ``u`` (position i) with ``v`` (position j > i + 1). Each
player ``x`` strictly between them plays some ``y``. Replacing ``{u-v, x-y}`` with
``{u-x, v-y}`` or ``{u-y, v-x}`` never raises the score difference, because points are
monotone along the order (``p_u >= p_x >= p_v``, so e.g. ``|p_v - p_y| <= (p_x - p_v) +
|p_x - p_y|``), and for every ``x`` at least one of the two strictly lowers the squared
distances. Such a swap is only impossible when ``x`` or ``y`` has already met ``u`` or
``v``. Each such opponent ``z`` blocks at most two in-between positions (its own and its
partner's), and can only do so if it lies within ``longest`` places of ``[i, j]``, where
``longest`` is the longest pair in ``M*``. Hence ``j - i <= 2 * (near(u) + near(v)) + 1``
where ``near`` counts opponents within ``2 * longest`` places. ``longest`` itself is found
as a fixed point: start from ``2 * (sum of the two largest opponent counts) + 1``
(a valid bound), recount ``near`` with it, take ``2 * (two largest near) + 1``, and repeat
while it shrinks; every step stays a valid bound. Only pairs allowed by this lemma become
edges: about ``17 n`` at round 5 instead of ``n^2 / 2``.

*Clean-cut lemma.* Cut the order at an even position ``a``. Players above the cut that
could be paired across it are those whose allowed pairs reach past ``a``; likewise below.
Call the cut clean when no two of the possible upper ends have met, and no two of the
possible lower ends. ``M*`` never pairs across a clean cut: two crossing pairs ``u1-v1``,
``u2-v2`` (``u`` above, ``v`` below) could become ``u1-u2`` and ``v1-v2`` - no rematch by
cleanliness, no larger score difference since every ``u`` has at least the points of every
``v``, and strictly smaller squared distances - so at most one pair crosses, and the even
number of players above makes that zero. So ``M*`` splits into perfect matchings of the
pieces between clean cuts, and the optimum of each piece (over its allowed pairs) is at
least as good as ``M*``'s part: the union of the pieces' optima is globally optimal.
Pieces of a couple of hundred players keep each blossom run in the milliseconds.

Both bounds are proven rather than tuned, so no retry is needed: the result equals the
full-graph optimum in rematches and total score difference (the tests check this against
networkx over all pairs).
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import rustworkx as rx

__all__ = [
    "PairingError",
    "Pairings",
    "PlayerId",
    "SwissPlayer",
    "TableConflict",
    "TableNumbers",
    "assign_tables",
    "pair_first_round",
    "pair_round",
]

PlayerId = Hashable  # ints in practice

# Target piece size for the matching. The blossom algorithm is super-linear, so big pieces
# are slow; at 16384 players the time is flat from 32 to 192 and grows beyond that.
CHUNK_SIZE = 128


@dataclass(frozen=True)
class SwissPlayer:
    id: PlayerId
    points: int  # match points so far (3 win / 1 draw / 0 loss; a bye counts 3)
    rank: int  # 1-based position in the current standings (1 = best)
    opponents: frozenset = frozenset()  # ids already played (byes are not opponents)
    had_bye: bool = False


@dataclass(frozen=True)
class Pairings:
    # Table order: table 1 first (highest points first); within a pair the higher-ranked
    # player first.
    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None
    rematches: int  # how many pairs are rematches (0 unless unavoidable)
    score_diff: int  # sum over pairs of |points_a - points_b|


class PairingError(ValueError):
    """The input cannot be paired as given (too few players, duplicate ids, ...)."""


def pair_first_round(player_ids: Sequence[PlayerId], seed: int) -> Pairings:
    """Random pairing from ``random.Random(seed)``; the bye, if any, goes to a random player.

    Ids are sorted first when they are comparable, so the result does not depend on the
    order the caller happened to list them in.
    """
    ids = list(player_ids)
    _check_ids(ids)
    with contextlib.suppress(TypeError):  # unorderable ids: keep the caller's order
        ids.sort()
    rng = random.Random(seed)
    rng.shuffle(ids)
    bye = ids.pop() if len(ids) % 2 else None
    pairs = tuple((ids[k], ids[k + 1]) for k in range(0, len(ids), 2))
    return Pairings(pairs=pairs, bye=bye, rematches=0, score_diff=0)


def pair_round(players: Sequence[SwissPlayer], round_number: int, seed: int) -> Pairings:
    """Pair one Swiss round; see the module docstring for the rules and the method.

    ``players`` is everybody to be paired this round (leave dropped players out);
    opponents who are not in it are ignored. Round 1, or a field where nobody has points
    or history, is paired at random from ``seed``. Later rounds pair by score with the
    fewest rematches and then the smallest total score difference, ties broken from
    ``seed`` and the ranks. The same arguments always give the same ``Pairings``.

    Raises ``PairingError`` for fewer than two players, duplicate ids or a round number
    below 1.
    """
    return _pair_round(players, round_number, seed, chunk_size=CHUNK_SIZE)


# --- implementation ------------------------------------------------------------------


def _check_ids(ids: Sequence[PlayerId]) -> None:
    if len(ids) < 2:
        raise PairingError(f"At least 2 players are needed to pair a round (got {len(ids)}).")
    seen: set[PlayerId] = set()
    duplicates = []
    for player_id in ids:
        if player_id in seen:
            duplicates.append(player_id)
        seen.add(player_id)
    if duplicates:
        shown = ", ".join(repr(d) for d in duplicates[:5])
        raise PairingError(f"Each player may appear only once; duplicated: {shown}.")


def _pair_round(
    players: Sequence[SwissPlayer], round_number: int, seed: int, *, chunk_size: int
) -> Pairings:
    players = list(players)
    _check_ids([p.id for p in players])
    if round_number < 1:
        raise PairingError(f"Round numbers start at 1 (got {round_number}).")

    # Canonical order: standings, then input order for equal ranks.
    by_rank = sorted(range(len(players)), key=lambda k: players[k].rank)
    players = [players[k] for k in by_rank]

    fresh = all(p.points == 0 and not p.opponents and not p.had_bye for p in players)
    if round_number == 1 or fresh:
        return _random_round(players, seed)

    # Seeded keys to order players inside a score group; drawn in standings order.
    rng = random.Random(f"swiss:{seed}:{round_number}")
    shuffle_key = [rng.random() for _ in players]

    if len(players) % 2 == 0:
        chosen_bye, solution = None, _solve(players, shuffle_key, chunk_size)
    else:
        chosen_bye, solution = _solve_with_bye(players, shuffle_key, chunk_size)
    pairs, rematches, score_diff = solution
    return Pairings(
        pairs=_table_order(pairs),
        bye=None if chosen_bye is None else players[chosen_bye].id,
        rematches=rematches,
        score_diff=score_diff,
    )


def _random_round(players: list[SwissPlayer], seed: int) -> Pairings:
    """Round 1: random pairs; if odd, the bye goes to a random player without one."""
    order = list(range(len(players)))
    random.Random(seed).shuffle(order)
    bye = None
    if len(order) % 2:
        eligible = [k for k in order if not players[k].had_bye] or order
        bye = eligible[-1]
        order.remove(bye)
    pairs = [(players[order[k]], players[order[k + 1]]) for k in range(0, len(order), 2)]
    return Pairings(
        pairs=_table_order(pairs),
        bye=None if bye is None else players[bye].id,
        rematches=sum(1 for a, b in pairs if b.id in a.opponents or a.id in b.opponents),
        score_diff=sum(abs(a.points - b.points) for a, b in pairs),
    )


_Solution = tuple[list[tuple[SwissPlayer, SwissPlayer]], int, int]


def _solve_with_bye(
    players: list[SwissPlayer], shuffle_key: list[float], chunk_size: int
) -> tuple[int, _Solution]:
    """Pick the bye (lowest-ranked eligible player who keeps rematches minimal) and pair."""
    eligible = [k for k, p in enumerate(players) if not p.had_bye] or list(range(len(players)))
    best: tuple[int, _Solution] | None = None
    for candidate in reversed(eligible):  # lowest-ranked first
        rest = [k for k in range(len(players)) if k != candidate]
        solution = _solve([players[k] for k in rest], [shuffle_key[k] for k in rest], chunk_size)
        if best is None or solution[1] < best[1][1]:
            best = (candidate, solution)
        # Zero is the floor. Once the field has at least 2 * max_degree + 2 others it is
        # always reached (Dirac's theorem on the "not yet played" graph), so this loop
        # only goes further for tiny or exhausted fields.
        if solution[1] == 0:
            break
    assert best is not None
    return best


def _solve(players: list[SwissPlayer], shuffle_key: list[float], chunk_size: int) -> _Solution:
    """Optimal perfect matching of an even number of players (see module docstring)."""
    order = sorted(
        range(len(players)), key=lambda k: (-players[k].points, shuffle_key[k], players[k].rank)
    )
    sorted_players = [players[k] for k in order]
    points = [p.points for p in sorted_players]
    position = {p.id: i for i, p in enumerate(sorted_players)}
    met: list[set[int]] = [set() for _ in sorted_players]
    for i, p in enumerate(sorted_players):
        for opponent in p.opponents:
            j = position.get(opponent)
            if j is not None and j != i:  # absent (dropped) opponents cannot be rematched
                met[i].add(j)
                met[j].add(i)  # tolerate a history recorded on one side only
    near, reach = _windows(met)

    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    rematches = score_diff = 0
    for start, end in _chunks(met, reach, chunk_size):
        for i, j in _match_chunk(start, end, points, met, near, reach):
            pairs.append((sorted_players[i], sorted_players[j]))
            rematches += j in met[i]
            score_diff += abs(points[i] - points[j])
    return pairs, rematches, score_diff


def _windows(met: list[set[int]]) -> tuple[list[int], list[int]]:
    """Per position: opponents met nearby, and the longest pair it may need (``reach``).

    Some optimal matching only pairs positions ``i < j`` with
    ``j - i <= 2 * (near[i] + near[j]) + 1``, and no pair is longer than ``longest``; see
    the module docstring. ``near`` counts opponents within ``2 * longest`` places, found
    by a fixed point that starts from the plain opponent counts and only shrinks.
    """
    n = len(met)

    def bound(counts: list[int]) -> int:
        top_two = sorted(counts, reverse=True)[:2]
        return min(2 * sum(top_two) + 1, max(n - 1, 1))

    near = [len(m) for m in met]
    longest = bound(near)
    while True:
        radius = 2 * longest
        near = [sum(1 for y in m if abs(y - x) <= radius) for x, m in enumerate(met)]
        shorter = bound(near)
        if shorter >= longest:
            break
        longest = shorter

    # A partner of i lies within ``longest`` places, so only the largest ``near`` in that
    # neighbourhood can lengthen i's pairs.
    local_max = _sliding_max(near, longest)
    reach = [min(longest, 2 * (near[i] + local_max[i]) + 1) for i in range(n)]
    return near, reach


def _sliding_max(values: list[int], radius: int) -> list[int]:
    """``max(values[i - radius : i + radius + 1])`` for every i, in linear time."""
    n = len(values)
    result = [0] * n
    window: deque[int] = deque()  # indices whose values are decreasing
    ahead = 0
    for i in range(n):
        while ahead < n and ahead <= i + radius:
            while window and values[window[-1]] <= values[ahead]:
                window.pop()
            window.append(ahead)
            ahead += 1
        while window[0] < i - radius:
            window.popleft()
        result[i] = values[window[0]]
    return result


def _chunks(met: list[set[int]], reach: list[int], chunk_size: int) -> list[tuple[int, int]]:
    """Split positions at clean cuts, aiming for pieces of about ``chunk_size``.

    Cutting before position ``a`` is clean when no two players who could be the upper
    ends of pairs across it (``i < a <= i + reach[i]``) have met, and likewise no two
    possible lower ends (``j - reach[j] < a <= j``).
    """
    n = len(met)
    # blocked[a] > 0 marks an unclean cut, built as a difference array over intervals.
    delta = [0] * (n + 2)

    def block(low: int, high: int) -> None:
        low, high = max(low, 1), min(high, n - 1)
        if low <= high:
            delta[low] += 1
            delta[high + 1] -= 1

    for x, opponents in enumerate(met):
        for y in opponents:
            if y > x:
                block(y + 1, min(x + reach[x], y + reach[y]))  # both possible upper ends
                block(max(x - reach[x], y - reach[y]) + 1, x)  # both possible lower ends
    chunks = []
    start = 0
    blocked = 0
    for a in range(n):
        blocked += delta[a]
        if a % 2 == 0 and a - start >= chunk_size and n - a >= 2 and blocked == 0:
            chunks.append((start, a))
            start = a
    chunks.append((start, n))
    return chunks


def _match_chunk(
    start: int,
    end: int,
    points: list[int],
    met: list[set[int]],
    near: list[int],
    reach: list[int],
) -> list[tuple[int, int]]:
    """Optimal perfect matching of positions ``start..end-1`` over the allowed pairs."""
    size = end - start
    if size == 2:
        return [(start, start + 1)]
    max_diff = points[start] - points[end - 1]
    # Weight = rematch_scale * (not rematch) + diff_scale * (max_diff - diff) + tie break.
    # Each scale exceeds what all lower terms can add up to over a perfect matching.
    tie_scale = max(reach[start:end]) + 1
    diff_scale = (size // 2) * tie_scale + 1
    rematch_scale = (size // 2) * (diff_scale * (max_diff + 1)) + 1

    edges = []
    for i in range(start, end):
        near_i = near[i]
        met_i = met[i]
        points_i = points[i]
        for j in range(i + 1, min(end, i + reach[i] + 1)):
            length = j - i
            if length > 2 * (near_i + near[j]) + 1:
                continue
            weight = (
                (0 if j in met_i else rematch_scale)
                + diff_scale * (max_diff - (points_i - points[j]))
                # Prefer near neighbours in the seeded order: random but stable opponents.
                + (tie_scale - length)
            )
            edges.append((i - start, j - start, weight))
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from(edges)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    # Adjacent positions are always connected, so a perfect matching exists.
    assert len(matching) * 2 == size, "window graph lost its perfect matching"
    return sorted((start + min(a, b), start + max(a, b)) for a, b in matching)


def _table_order(
    pairs: list[tuple[SwissPlayer, SwissPlayer]],
) -> tuple[tuple[PlayerId, PlayerId], ...]:
    """Higher-ranked player first in each pair; tables by points, then by ranks."""
    oriented = [(a, b) if a.rank <= b.rank else (b, a) for a, b in pairs]

    def table_key(pair: tuple[SwissPlayer, SwissPlayer]) -> tuple[int, int, int, int]:
        first, second = pair
        high, low = max(first.points, second.points), min(first.points, second.points)
        return (-high, -low, first.rank, second.rank)

    oriented.sort(key=table_key)
    return tuple((a.id, b.id) for a, b in oriented)


# --- table numbers ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableConflict:
    """A player with a fixed table who could not sit there: ``wanted`` was taken by a
    pairing listed earlier (or by the fixed table of a partner listed first), so the
    player's pairing got ``table``, the nearest free number."""

    player: PlayerId
    wanted: int
    table: int


@dataclass(frozen=True)
class TableNumbers:
    tables: tuple[int, ...]  # one per group, in the order given; all distinct
    conflicts: tuple[TableConflict, ...]


def assign_tables(
    groups: Sequence[Sequence[PlayerId]],
    fixed: Mapping[PlayerId, int],
    taken: Iterable[int] = (),
) -> TableNumbers:
    """Table numbers for ``groups`` (pairings or pods, in table order), honouring fixed
    tables (a player who must always sit at one table, e.g. for access).

    * A group with a fixed-table player sits at that table. Its first such player (in
      seat order) decides; partners fixed elsewhere are reported as conflicts, partners
      fixed to the same table are not.
    * When two groups want the same table, the one listed first gets it; the later one
      gets the nearest number nobody wants (the lower of two equally near) and each of its
      players fixed to the wanted table is reported in ``conflicts``.
    * Every other group takes the lowest number still free, in the order given.
    * Numbers in ``taken`` (tables already set by hand) are never given out.

    Numbers start at 1; a fixed table beyond the number of groups leaves a gap. The
    same arguments always give the same answer.
    """
    used = set(taken)
    if any(n < 1 for n in used) or any(n < 1 for n in fixed.values()):
        raise PairingError("Table numbers start at 1.")
    wanted: list[int | None] = []
    for group in groups:
        wanted.append(next((fixed[p] for p in group if p in fixed), None))
    # First claims: in order, a wanted table nobody took yet.
    tables: list[int | None] = [None] * len(groups)
    for index, want in enumerate(wanted):
        if want is not None and want not in used:
            tables[index] = want
            used.add(want)
    # Everyone fixed to a table taken before them: the nearest number not yet claimed.
    for index, want in enumerate(wanted):
        if want is not None and tables[index] is None:
            tables[index] = _nearest_free(want, used)
            used.add(tables[index])
    # The rest: the lowest numbers left, in order.
    free = (n for n in itertools.count(1) if n not in used)
    for index, table in enumerate(tables):
        if table is None:
            tables[index] = next(free)
    conflicts = tuple(
        TableConflict(player=p, wanted=fixed[p], table=table)
        for group, table in zip(groups, tables, strict=True)
        for p in group
        if p in fixed and fixed[p] != table
    )
    return TableNumbers(tables=tuple(tables), conflicts=conflicts)  # type: ignore[arg-type]


def _nearest_free(want: int, used: set[int]) -> int:
    for distance in itertools.count(1):
        if want - distance >= 1 and want - distance not in used:
            return want - distance
        if want + distance not in used:
            return want + distance
    raise AssertionError("unreachable")  # pragma: no cover
