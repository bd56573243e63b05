"""Benchmark a rules engine: full bot games per second on one core.

Plays 2-player games, heuristic bot against random bot, through the game system's
simulation kit (for «Восхождение»: random decks from the real card sets that the deck
checker accepts in Standard; ``--sample``: the engine's synthetic pool). Reports games per second (bots included),
the median and 99th percentile time of ``apply()`` alone, and the size of a mid-game
state as JSON. On a shared machine the wall-clock figure depends on the load: the bench
also prints the games per second of this process's own CPU time and the load average
before and after, and ``--repeat N`` plays the same games N times and reports the median
run (each run's figure is printed too).

    .venv/bin/python bench/engine.py [--system voskhozhdenie|ascension] [--games 200]
        [--seed 1] [--sample] [--repeat 1] [--json]
    .venv/bin/python -m bench.engine --system ascension --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.simulate import load_kit

MAX_ROUNDS = 200


def run(games: int, seed: int, sample: bool, system_key: str = "voskhozhdenie") -> dict:
    kit = load_kit(system_key)
    system, pool = kit.system(sample)
    apply_times: list[float] = []
    mid_sizes: list[int] = []
    total_actions = 0
    cpu_started = time.process_time()
    started = time.perf_counter()
    for k in range(games):
        game_seed = seed * 1_000_003 + k
        names = ("heuristic", "random") if k % 2 == 0 else ("random", "heuristic")
        bots = [kit.make_bot(name, system, game_seed + i) for i, name in enumerate(names)]
        decks = kit.decks(system, 2, game_seed)
        state = system.new_game({}, decks, game_seed)
        actions = 0
        states_seen = []
        while not state["finished"] and state["round"] <= MAX_ROUNDS and actions < 50_000:
            seat = system.to_act(state)[0]
            action = bots[seat].choose(state, seat)
            t0 = time.perf_counter()
            state, _events = system.apply(state, seat, action)
            apply_times.append(time.perf_counter() - t0)
            actions += 1
            if actions % 16 == 0:
                states_seen.append(state)
        if states_seen:
            mid_sizes.append(len(json.dumps(states_seen[len(states_seen) // 2])))
        total_actions += actions
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    apply_times.sort()
    p99 = apply_times[min(len(apply_times) - 1, int(len(apply_times) * 0.99))]
    return {
        "system": system_key,
        "games_per_second": round(games / elapsed, 2),
        "cpu_games_per_second": round(games / cpu, 2) if cpu > 0 else None,
        "apply_p50_ms": round(statistics.median(apply_times) * 1000, 4),
        "apply_p99_ms": round(p99 * 1000, 4),
        "state_bytes": int(statistics.median(mid_sizes)) if mid_sizes else 0,
        "games": games,
        "actions_per_game": round(total_actions / games, 1),
        "pool": pool,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--system", default="voskhozhdenie", help="game system key")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sample", action="store_true", help="use the synthetic card pool")
    parser.add_argument("--repeat", type=int, default=1, help="runs; the median is reported")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    runs = [
        run(args.games, args.seed, args.sample, args.system) for _ in range(max(1, args.repeat))
    ]
    runs.sort(key=lambda r: r["games_per_second"])
    report = dict(runs[len(runs) // 2])
    report["runs"] = [r["games_per_second"] for r in runs]
    report["load_average"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['system']} engine ({report['pool']}), {report['games']} games")
        print(f"  games per second:  {report['games_per_second']}")
        print(f"    (CPU time:       {report['cpu_games_per_second']})")
        if len(runs) > 1:
            print(f"    (runs, sorted:   {', '.join(map(str, report['runs']))})")
        print(f"  apply p50 / p99:   {report['apply_p50_ms']} ms / {report['apply_p99_ms']} ms")
        print(f"  mid-game state:    {report['state_bytes']} bytes of JSON")
        print(f"  actions per game:  {report['actions_per_game']}")
        before, after = report["load_average"]
        busy = " (a busy machine: noisy figures)" if max(before, after) >= 1 else ""
        print(f"  load average:      {before} before, {after} after{busy}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
