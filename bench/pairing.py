"""Benchmark Swiss pairing: time round 5 of a simulated event at several field sizes.

Rounds 1-4 are paired with ``tournaments.swiss`` itself and played out with random results
(some draws) from a fixed seed; round 5 is then timed. The same round can also be solved
with networkx's ``max_weight_matching`` over all pairs (full graph, same objective) as a
reference for quality and speed. networkx is pure Python and O(n^3): about 30 s at 512
players and about 3 minutes at 1024 on the 2-core dev machine (much longer when the CPU
is shared); both are on by default, ``--reference-sizes 512`` skips the long one.

    .venv/bin/python bench/pairing.py [--sizes 64,512] [--reference-sizes 512,1024] [--json]
    .venv/bin/python -m bench.pairing
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.swiss import Pairings, SwissPlayer, pair_first_round, pair_round

DEFAULT_SIZES = (64, 512, 1024, 4096, 16384)
DEFAULT_REFERENCE_SIZES = (512, 1024)  # 1024 takes about 3 minutes
TIMED_ROUND = 5
DRAW_RATE = 0.08
SEED = 20240501
REPEATS = 3  # timed runs per size; the median is reported


def simulate(n_players: int, seed: int = SEED) -> list[SwissPlayer]:
    """Play rounds 1..TIMED_ROUND-1 and return the standings going into TIMED_ROUND."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(n_players), 0)
    opponents: dict[int, set[int]] = {k: set() for k in range(n_players)}
    had_bye = dict.fromkeys(range(n_players), False)
    players = standings(points, opponents, had_bye)
    for round_number in range(1, TIMED_ROUND):
        if round_number == 1:
            pairings = pair_first_round(list(range(n_players)), seed=rng.randrange(2**32))
        else:
            pairings = pair_round(players, round_number, seed=rng.randrange(2**32))
        for a, b in pairings.pairs:
            opponents[a].add(b)
            opponents[b].add(a)
            outcome = rng.random()
            if outcome < DRAW_RATE:
                points[a] += 1
                points[b] += 1
            else:
                points[a if outcome < (1 + DRAW_RATE) / 2 else b] += 3
        if pairings.bye is not None:
            points[pairings.bye] += 3
            had_bye[pairings.bye] = True
        players = standings(points, opponents, had_bye)
    return players


def standings(
    points: dict[int, int], opponents: dict[int, set[int]], had_bye: dict[int, bool]
) -> list[SwissPlayer]:
    """Rank by points, then by opponents' points (a crude tiebreaker), then by id."""
    strength = {k: sum(points[o] for o in opponents[k]) for k in points}
    order = sorted(points, key=lambda k: (-points[k], -strength[k], k))
    return [
        SwissPlayer(
            id=k,
            points=points[k],
            rank=rank,
            opponents=frozenset(opponents[k]),
            had_bye=had_bye[k],
        )
        for rank, k in enumerate(order, start=1)
    ]


def reference_pairing(players: list[SwissPlayer]) -> tuple[object, int, int]:
    """networkx over all pairs with the same objective: (bye, rematches, score_diff).

    The bye rule is the same: lowest-ranked player without a bye, moving up only while
    that choice forces more rematches than the best choice.
    """
    import networkx as nx

    eligible = [p for p in players if not p.had_bye] or list(players)
    eligible.sort(key=lambda p: -p.rank)
    candidates = eligible if len(players) % 2 else [None]
    best = None
    for bye in candidates:
        field = [p for p in players if p is not bye]
        max_diff = max(p.points for p in field) - min(p.points for p in field)
        rematch_scale = (len(field) // 2) * (max_diff + 1) + 1
        graph = nx.Graph()
        for i, a in enumerate(field):
            for b in field[i + 1 :]:
                weight = (0 if b.id in a.opponents else rematch_scale) + (
                    max_diff - abs(a.points - b.points)
                )
                graph.add_edge(a.id, b.id, weight=weight)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        by_id = {p.id: p for p in field}
        rematches = sum(1 for a, b in matching if b in by_id[a].opponents)
        score_diff = sum(abs(by_id[a].points - by_id[b].points) for a, b in matching)
        result = (None if bye is None else bye.id, rematches, score_diff)
        if best is None or rematches < best[1]:
            best = result
        if rematches == 0:
            break
    assert best is not None
    return best


def quality(players: list[SwissPlayer], pairings: Pairings) -> dict[str, int]:
    """Recompute the figures from the pairs rather than trusting the reported ones."""
    by_id = {p.id: p for p in players}
    seen = [pid for pair in pairings.pairs for pid in pair]
    if pairings.bye is not None:
        seen.append(pairings.bye)
    assert sorted(seen) == sorted(by_id), "somebody is unpaired or paired twice"
    rematches = sum(1 for a, b in pairings.pairs if b in by_id[a].opponents)
    score_diff = sum(abs(by_id[a].points - by_id[b].points) for a, b in pairings.pairs)
    assert (rematches, score_diff) == (pairings.rematches, pairings.score_diff)
    return {
        "rematches": rematches,
        "score_diff": score_diff,
        "byes": int(pairings.bye is not None),
    }


def run(sizes: list[int], reference_sizes: set[int]) -> list[dict]:
    rows = []
    for n_players in sizes:
        players = simulate(n_players)
        timings, results = [], []
        for _ in range(REPEATS):
            started = time.perf_counter()
            results.append(pair_round(players, TIMED_ROUND, seed=SEED))
            timings.append(time.perf_counter() - started)
        assert all(r == results[0] for r in results), "pairing is not deterministic"
        pairings = results[0]
        seconds = sorted(timings)[len(timings) // 2]  # median
        row = {"players": n_players, "seconds": round(seconds, 4), **quality(players, pairings)}
        row["reference_seconds"] = row["reference_score_diff"] = None
        if n_players in reference_sizes:
            started = time.perf_counter()
            _bye, _rematches, reference_diff = reference_pairing(players)
            row["reference_seconds"] = round(time.perf_counter() - started, 4)
            row["reference_score_diff"] = reference_diff
        rows.append(row)
        print(f"  ... {n_players} players done", file=sys.stderr, flush=True)
    return rows


def print_table(rows: list[dict]) -> None:
    header = (
        f"{'players':>8} {'seconds':>9} {'rematch':>7} {'diff':>6} {'byes':>4}"
        f"   {'nx seconds':>10} {'nx diff':>7} {'speed-up':>8} {'same diff':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        line = (
            f"{row['players']:>8} {row['seconds']:>9.3f} {row['rematches']:>7}"
            f" {row['score_diff']:>6} {row['byes']:>4}"
        )
        if row["reference_seconds"] is not None:
            speed_up = row["reference_seconds"] / max(row["seconds"], 1e-9)
            same = "yes" if row["reference_score_diff"] == row["score_diff"] else "NO"
            line += (
                f"   {row['reference_seconds']:>10.2f} {row['reference_score_diff']:>7}"
                f" {speed_up:>7.0f}x {same:>9}"
            )
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--sizes",
        default=",".join(str(s) for s in DEFAULT_SIZES),
        help="comma-separated field sizes (default: %(default)s)",
    )
    parser.add_argument(
        "--reference-sizes",
        default=",".join(str(s) for s in DEFAULT_REFERENCE_SIZES),
        help="sizes also solved by networkx over all pairs; '' for none (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    reference_sizes = {int(s) for s in args.reference_sizes.split(",") if s.strip()}
    rows = run(sizes, reference_sizes)
    if args.json:
        print(json.dumps({"rows": rows}))
    else:
        print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
