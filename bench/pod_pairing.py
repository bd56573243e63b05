"""Benchmark Swiss pairing into pods of 3-4: time round 4 of a simulated pod event.

Rounds 1-3 are seated with ``tournaments.pods.pair_pods`` itself and played out with
random placements from a fixed seed; round 4 is then timed (median of ``--repeat`` runs)
at each field size, with the repeats (players sharing a pod again) and the score spread
of the result. The pairing runs while the event's row is locked, so its time is the time
an organiser waits for "pair the next round".

    .venv/bin/python bench/pod_pairing.py [--sizes 16,64,256,512] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pods import PLACEMENT_POINTS, pair_pods
from tournaments.swiss import SwissPlayer

SEED = 20261122
TIMED_ROUND = 4


def standings(points: dict[int, int], met: dict[int, set[int]]) -> list[SwissPlayer]:
    ranked = sorted(points, key=lambda k: (-points[k], k))
    return [
        SwissPlayer(id=k, points=points[k], rank=r, opponents=frozenset(met[k]))
        for r, k in enumerate(ranked, start=1)
    ]


def simulate(n: int) -> list[SwissPlayer]:
    """Play rounds 1..TIMED_ROUND-1 and return the standings going into TIMED_ROUND."""
    rng = random.Random(SEED + n)
    points = dict.fromkeys(range(n), 0)
    met: dict[int, set[int]] = {k: set() for k in range(n)}
    for rnd in range(1, TIMED_ROUND):
        for pod in pair_pods(standings(points, met), seed=SEED + rnd).pods:
            order = list(pod)
            rng.shuffle(order)
            for place, k in enumerate(order):
                points[k] += PLACEMENT_POINTS[len(pod)][place]
                met[k] |= set(pod) - {k}
    return standings(points, met)


def run(sizes: list[int], repeat: int) -> list[dict]:
    rows = []
    for n in sizes:
        players = simulate(n)
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            result = pair_pods(players, seed=SEED + TIMED_ROUND)
            times.append(time.perf_counter() - started)
        rows.append(
            {
                "players": n,
                "pods": len(result.pods),
                "seconds": round(statistics.median(times), 3),
                "repeats": result.repeats,
                "score_spread": result.score_spread,
            }
        )
        print(f"  ... {n} players done", file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,64,256,512", help="comma-separated field sizes")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the median is shown")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    rows = run([int(x) for x in args.sizes.split(",") if x.strip()], args.repeat)
    if args.json:
        print(json.dumps({"round": TIMED_ROUND, "rows": rows}))
        return 0
    print(f"Pod pairing, round {TIMED_ROUND} (median of {args.repeat} runs)")
    print(f"{'players':>8} {'pods':>5} {'seconds':>8} {'repeats':>8} {'spread':>7}")
    for r in rows:
        print(
            f"{r['players']:>8} {r['pods']:>5} {r['seconds']:>8} {r['repeats']:>8} "
            f"{r['score_spread']:>7}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
