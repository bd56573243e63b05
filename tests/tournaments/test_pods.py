"""Tests for Swiss pairing into pods and placement standings (pure, no Django)."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import pods as pods_module
from tournaments.pods import (
    PLACEMENT_POINTS,
    PairingError,
    PodResult,
    PodStandingsError,
    pair_pods,
    placements,
    pod_sizes,
    standings_by_placement,
)
from tournaments.swiss import SwissPlayer

# --- helpers -------------------------------------------------------------------------


def field(points: dict[int, int], pods_played: list[tuple[int, ...]] = ()) -> list[SwissPlayer]:
    """Players ranked by points (ties by id), with a symmetric pod history."""
    opponents: dict[int, set[int]] = {pid: set() for pid in points}
    for pod in pods_played:
        for a, b in itertools.permutations(pod, 2):
            opponents[a].add(b)
    order = sorted(points, key=lambda pid: (-points[pid], pid))
    return [
        SwissPlayer(id=pid, points=points[pid], rank=rank, opponents=frozenset(opponents[pid]))
        for rank, pid in enumerate(order, start=1)
    ]


def repeats_of(players: list[SwissPlayer], seated: tuple[tuple[int, ...], ...]) -> int:
    by_id = {p.id: p for p in players}
    return sum(
        1 for pod in seated for a, b in itertools.combinations(pod, 2) if b in by_id[a].opponents
    )


def spread_of(players: list[SwissPlayer], seated: tuple[tuple[int, ...], ...]) -> int:
    by_id = {p.id: p for p in players}
    return sum(
        max(by_id[i].points for i in pod) - min(by_id[i].points for i in pod) for pod in seated
    )


def check_seated_once(players: list[SwissPlayer], seated) -> None:
    ids = [pid for pod in seated for pid in pod]
    assert sorted(ids) == sorted(p.id for p in players)


def play_round(
    players: list[SwissPlayer], seated, history: list[tuple[int, ...]], points: dict[int, int]
) -> list[SwissPlayer]:
    """Everybody plays; the table order inside the pod is the finish order."""
    for pod in seated:
        history.append(pod)
        for place, pid in enumerate(pod):
            points[pid] += PLACEMENT_POINTS[len(pod)][place]
    return field(points, history)


def partitions(items: list[int], sizes: list[int]):
    """Every partition of ``items`` into pods of ``sizes`` (a multiset), for brute force."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        left = sizes[:]
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [k for k in rest if k not in others]
            for tail in partitions(remaining, left):
                yield [(head, *others), *tail]


# --- pod sizes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (2, (2,)),
        (3, (3,)),
        (4, (4,)),
        (5, (3, 2)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (13, (4, 3, 3, 3)),
        (40, (4,) * 10),
    ],
)
def test_pod_sizes_examples(n, sizes):
    assert pod_sizes(n) == sizes


@pytest.mark.parametrize("n", range(3, 41))
def test_pod_sizes_use_3_and_4_except_for_5(n):
    sizes = pod_sizes(n)
    assert sum(sizes) == n
    assert list(sizes) == sorted(sizes, reverse=True)
    if n == 5:
        assert sizes == (3, 2)  # the documented fallback: one heads-up pod
    else:
        assert set(sizes) <= {3, 4}
        assert len(sizes) == -(-n // 4)  # as few pods as possible
        assert sizes.count(3) <= 3  # 4s wherever possible


def test_other_pod_size_settings():
    assert pod_sizes(10, pod_size=5, min_size=3) == (5, 5)
    assert pod_sizes(9, pod_size=4, min_size=4) == (4, 3, 2)  # two short pods, no 5
    assert pod_sizes(6, pod_size=2, min_size=2) == (2, 2, 2)


@pytest.mark.parametrize(("n", "size", "minimum"), [(1, 4, 3), (0, 4, 3), (8, 3, 4), (8, 4, 1)])
def test_impossible_settings_raise(n, size, minimum):
    with pytest.raises(PairingError):
        pod_sizes(n, size, minimum)


def test_duplicate_ids_raise():
    players = field({1: 0, 2: 0, 3: 0})
    with pytest.raises(PairingError, match="once"):
        pair_pods([*players, players[0]])


# --- round 1 -------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(3, 41))
def test_round_one_seats_everyone_once_in_the_right_sizes(n):
    players = field(dict.fromkeys(range(n), 0))
    result = pair_pods(players, seed=n)
    check_seated_once(players, result.pods)
    assert sorted((len(p) for p in result.pods), reverse=True) == list(pod_sizes(n))
    assert result.repeats == 0


def test_round_one_is_random_but_reproducible_and_order_free():
    players = field(dict.fromkeys(range(16), 0))
    first = pair_pods(players, seed=7)
    assert pair_pods(list(reversed(players)), seed=7) == first
    assert len({pair_pods(players, seed=s).pods for s in range(10)}) > 1


# --- later rounds --------------------------------------------------------------------


def test_players_with_similar_points_sit_together():
    points = {k: (8 if k < 4 else 4 if k < 8 else 0) for k in range(12)}
    result = pair_pods(field(points), seed=1)
    assert result.pods == ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11))
    assert result.score_spread == 0


@pytest.mark.parametrize("n", [16, 17, 20, 24, 30, 40])
def test_no_repeats_in_round_two_when_avoidable(n):
    points = dict.fromkeys(range(n), 0)
    history: list[tuple[int, ...]] = []
    players = field(points)
    seated = pair_pods(players, seed=n).pods
    players = play_round(players, seated, history, points)
    result = pair_pods(players, seed=n)
    check_seated_once(players, result.pods)
    assert result.repeats == 0 == repeats_of(players, result.pods)


def test_repeat_avoided_at_the_cost_of_score_spread():
    # 1-4 met; sitting 5 with 1-3 and 4 below would repeat 1-4: the points give way.
    points = {1: 8, 2: 8, 3: 8, 4: 8, 5: 0, 6: 0, 7: 0, 8: 0}
    players = field(points, [(1, 4), (5, 6), (5, 7), (5, 8), (6, 7), (6, 8), (7, 8)])
    result = pair_pods(players, seed=3)
    assert repeats_of(players, result.pods) == result.repeats
    # Optimal: 1-4 apart costs nothing in repeats for 5..8 only if each goes with a top pair.
    best = min(
        repeats_of(players, tuple(map(tuple, parts)))
        for parts in partitions(sorted(points), [4, 4])
    )
    assert result.repeats == best


def test_a_six_round_event_of_21_has_few_repeats_and_stays_deterministic():
    points = dict.fromkeys(range(21), 0)
    history: list[tuple[int, ...]] = []
    players = field(points)
    for round_number in range(1, 7):
        result = pair_pods(players, seed=99 + round_number)
        assert result == pair_pods(players, seed=99 + round_number)
        check_seated_once(players, result.pods)
        if round_number <= 2:
            assert result.repeats == 0
        players = play_round(players, result.pods, history, points)


def test_table_order_best_pod_first_and_players_by_rank():
    points = {k: 12 - k for k in range(8)}
    result = pair_pods(field(points), seed=5)
    assert result.pods == ((0, 1, 2, 3), (4, 5, 6, 7))


@st.composite
def small_fields(draw):
    n = draw(st.integers(min_value=2, max_value=9))
    points = {k: draw(st.integers(min_value=0, max_value=8)) for k in range(n)}
    pairs = list(itertools.combinations(range(n), 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=2 * n, unique=True)) if pairs else []
    return field(points, met), draw(st.integers(min_value=0, max_value=2**32))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_fields())
def test_small_fields_are_optimal_against_brute_force(case):
    players, seed = case
    result = pair_pods(players, seed=seed)
    check_seated_once(players, result.pods)
    assert result.repeats == repeats_of(players, result.pods)
    assert result.score_spread == spread_of(players, result.pods)
    if all(p.points == 0 and not p.opponents for p in players):
        return  # round 1: random
    best = min(
        (repeats_of(players, tuple(parts)), spread_of(players, tuple(parts)))
        for parts in partitions([p.id for p in players], list(pod_sizes(len(players))))
    )
    assert (result.repeats, result.score_spread) == best


@st.composite
def big_fields(draw):
    n = draw(st.integers(min_value=11, max_value=40))
    rounds = draw(st.integers(min_value=0, max_value=4))
    return n, rounds, draw(st.integers(min_value=0, max_value=2**32))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_fields())
def test_big_fields_seat_everyone_once_deterministically_never_worse_than_the_cut(case):
    n, rounds, seed = case
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0)
    history: list[tuple[int, ...]] = []
    players = field(points)
    for _ in range(rounds):
        order = [p.id for p in players]
        rng.shuffle(order)  # random finishes
        seated = []
        start = 0
        for size in pod_sizes(n):
            seated.append(tuple(order[start : start + size]))
            start += size
        players = play_round(players, seated, history, points)
    result = pair_pods(players, seed=seed)
    check_seated_once(players, result.pods)
    assert sorted((len(p) for p in result.pods), reverse=True) == list(pod_sizes(n))
    assert result == pair_pods(list(reversed(players)), seed=seed)
    assert result.repeats == repeats_of(players, result.pods)
    # Never worse than cutting the standings into pods (the local search's start).
    ranked = [p.id for p in sorted(players, key=lambda p: p.rank)]
    cut, start = [], 0
    for size in pod_sizes(n):
        cut.append(tuple(ranked[start : start + size]))
        start += size
    if rounds:
        assert result.repeats <= repeats_of(players, tuple(cut))


def test_a_large_field_is_fast_enough():
    import time

    n = 200
    points = dict.fromkeys(range(n), 0)
    history: list[tuple[int, ...]] = []
    players = field(points)
    for round_number in range(1, 5):
        started = time.perf_counter()
        result = pair_pods(players, seed=round_number)
        assert time.perf_counter() - started < 10
        check_seated_once(players, result.pods)
        players = play_round(players, result.pods, history, points)
    assert result.repeats == 0


# --- placements and standings --------------------------------------------------------


def test_placement_points_table():
    assert PLACEMENT_POINTS[4] == (4, 2, 1, 0)
    assert PLACEMENT_POINTS[3] == (4, 2, 0)
    assert PLACEMENT_POINTS[2] == (4, 0)


def test_placements_share_the_better_place_on_ties():
    assert placements({"a": 10, "b": 7, "c": 7, "d": 1}) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert placements({"a": 5, "b": 5, "c": 0}) == {"a": 1, "b": 1, "c": 3}


def test_standings_points_pods_firsts_and_average_placement():
    rows = standings_by_placement(
        ["a", "b", "c", "d", "e", "f", "g"],
        [
            PodResult(1, {"a": 30, "b": 20, "c": 10, "d": 5}),
            PodResult(1, {"e": 12, "f": 12, "g": 3}),
            PodResult(2, {"a": 1, "e": 9, "c": 9, "g": 0}),
            PodResult(2, {"b": 20, "d": 19, "f": 30}),
        ],
    )
    by = {r.player: r for r in rows}
    # a: first (4), then third behind e and c who share first (1)
    assert by["a"].points == 5 and by["a"].firsts == 1 and by["a"].average_placement == 2.0
    assert by["e"].points == 8 and by["e"].firsts == 2 and by["e"].average_placement == 1.0
    assert by["c"].points == 1 + 4  # 3rd of 4, then shared first
    assert by["f"].points == 4 + 4
    assert by["b"].points == 2 + 2
    assert by["g"].points == 0 + 0 and by["g"].pods == 2
    assert [r.rank for r in rows] == list(range(1, 8))
    assert rows[0].player in {"e", "f"} and rows[1].player in {"e", "f"}
    points = [r.points for r in rows]
    assert points == sorted(points, reverse=True)


def test_opponents_average_breaks_ties_then_firsts_then_placement_then_order():
    # x and y both have 4 points; x met stronger opponents.
    rows = standings_by_placement(
        ["y", "x", "s1", "s2", "w1", "w2"],
        [
            PodResult(1, {"x": 10, "s1": 5, "s2": 4}),  # x 4, s1 2, s2 0
            PodResult(1, {"y": 10, "w1": 5, "w2": 4}),  # y 4, w1 2, w2 0
            PodResult(2, {"s1": 10, "s2": 9, "w1": 1, "w2": 0}),  # s1 4, s2 2, w1 1, w2 0
        ],
    )
    order = [r.player for r in rows]
    assert order.index("x") < order.index("y")
    x = next(r for r in rows if r.player == "x")
    assert x.exact["opponents_average"] == Fraction(Fraction(6, 2) + Fraction(2, 2), 2)


def test_firsts_break_ties_before_average_placement():
    # The same four play twice: A and D win once and finish last once, B is second twice.
    rows = standings_by_placement(
        ["B", "D", "A", "C"],
        [
            PodResult(1, {"A": 9, "B": 5, "C": 3, "D": 0}),
            PodResult(2, {"D": 9, "B": 5, "C": 3, "A": 0}),
        ],
    )
    assert [(r.player, r.points, r.firsts) for r in rows] == [
        ("D", 4, 1),  # equal to A in everything: the players' order
        ("A", 4, 1),
        ("B", 4, 0),  # better average placement (2.0 against 2.5), but no first
        ("C", 2, 0),
    ]
    assert len({r.exact["opponents_average"] for r in rows[:3]}) == 1
    assert rows[2].average_placement == 2.0 and rows[0].average_placement == 2.5


def test_complete_ties_keep_the_players_order():
    rows = standings_by_placement(["b", "a"], [PodResult(1, {"a": 3, "b": 3})])
    assert [r.player for r in rows] == ["b", "a"]
    assert [r.points for r in rows] == [4, 4]


def test_players_without_pods_come_last_among_equals():
    rows = standings_by_placement(["idle", "a", "b"], [PodResult(1, {"a": 3, "b": 1})])
    assert [r.player for r in rows] == ["a", "b", "idle"]
    assert rows[2].pods == 0 and rows[2].average_placement == 0.0


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([PodResult(1, {"a": 1, "z": 2})], "unknown player"),
        ([PodResult(1, {"a": 1, "b": 2}), PodResult(1, {"a": 3, "c": 1})], "two pods"),
        ([PodResult(1, {"a": 1})], "pod of 1"),
        ([PodResult(1, {"a": 1, "b": "2"})], "must be an int"),
    ],
)
def test_bad_results_raise(results, message):
    with pytest.raises(PodStandingsError, match=message):
        standings_by_placement(["a", "b", "c"], results)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 12), min_size=2, max_size=4), min_size=1, max_size=8))
def test_standings_are_ranked_by_points_and_count_every_pod(pod_scores):
    players = list(range(4 * len(pod_scores)))
    results = []
    next_id = 0
    for number, scores in enumerate(pod_scores, start=1):
        ids = range(next_id, next_id + len(scores))
        next_id += len(scores)
        results.append(PodResult(number, dict(zip(ids, scores, strict=True))))
    rows = standings_by_placement(players, results)
    assert [r.rank for r in rows] == list(range(1, len(players) + 1))
    assert sorted(r.player for r in rows) == players
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert sum(r.pods for r in rows) == sum(len(s) for s in pod_scores)
    for result in results:
        assert sum(
            PLACEMENT_POINTS[len(result.scores)][p - 1] for p in placements(result.scores).values()
        ) >= sum(PLACEMENT_POINTS[len(result.scores)])


def test_module_imports_no_django():
    code = "import sys, tournaments.pods; print(any(m.startswith('django') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=6, max_value=16).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.integers(0, 12), min_size=n, max_size=n),
            st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n),
            st.permutations(range(n)),
            st.integers(2, 4),
        )
    )
)
def test_the_local_search_prices_a_swapped_seat_exactly_as_the_whole_pod(case):
    # The swap search prices a pod with one seat changed from the pod's other players
    # (``_without``/``_with``); the figures must be those of ``_pod_cost`` itself.
    n, points, pairs, order, size = case
    met = [set() for _ in range(n)]
    for a, b in pairs:
        if a != b:
            met[a].add(b)
            met[b].add(a)
    pod, outside = list(order[:size]), order[size:]
    seats = pods_module._without(pod, points, met)
    for i, x in itertools.product(range(size), [*outside, pod[0]]):
        if x in pod and x != pod[i]:
            continue
        changed = [*pod[:i], x, *pod[i + 1 :]]
        assert pods_module._with(seats[i], x, points, met) == pods_module._pod_cost(
            changed, points, met
        )
