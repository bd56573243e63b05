"""Do bot games of «Восхождение» end? The share of games that hit the simulator's cap
(200 rounds or 50 000 actions) at 2, 3 and 4 players, for bots that play to win
(heuristic in every seat) and for a table with random bots among them.

    .venv/bin/python bench/games_end.py [--games 1000] [--mixed]

Prints each run of ``python -m engine.simulate`` as it goes; the figure to watch is
the "capped" line of each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repo root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.simulate import main as simulate


def run(games: int, mixed: bool) -> int:
    status = 0
    tables = [("heuristic", n) for n in (2, 3, 4)]
    if mixed:
        tables += [("heuristic,random", n) for n in (2, 3, 4)]
    for bots, players in tables:
        status |= simulate(
            ["voskhozhdenie", "--games", str(games), "--players", str(players),
             "--bots", bots, "--quiet"]
        )  # fmt: skip
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--mixed", action="store_true", help="also tables with random bots")
    args = parser.parse_args()
    sys.exit(run(args.games, args.mixed))
