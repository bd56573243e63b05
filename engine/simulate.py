"""Play many bot games of a rules engine and report win rates, lengths and errors.

    .venv/bin/python -m engine.simulate voskhozhdenie --games 1000 --bots heuristic,random
        [--seed N] [--players 2] [--max-rounds 200] [--format standard|blitz] [--sample]

Decks are random legal-ish decks built from the default card database
(``engine.cards.loader.load_system``); ``--sample`` uses the engine's small synthetic
pool instead. A game that reaches ``--max-rounds`` (or 50 000 actions) is stopped and
counted as a draw ("capped"). Any exception is counted as an error with its first occurrence printed; the
exit status is 1 if there was any error.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.0f} games/s"
    )
    sys.stderr.flush()


def _load(system_key: str, sample: bool):
    if system_key != "voskhozhdenie":
        raise SystemExit(f"no simulator for game system {system_key!r} (known: voskhozhdenie)")
    from engine.voskhozhdenie.game import Voskhozhdenie
    from engine.voskhozhdenie.sample import sample_db

    if sample:
        return Voskhozhdenie(sample_db())
    try:
        from engine.cards.loader import load_system
    except ImportError:
        raise SystemExit(
            "the card loader engine.cards.loader.load_system is not available yet; "
            "run with --sample to use the engine's synthetic card pool"
        ) from None
    try:
        db = load_system("voskhozhdenie")
    except Exception as exc:  # the loader reports bad set files
        raise SystemExit(f"cannot load the voskhozhdenie card sets: {exc}") from None
    if not any(c.type == "city" for c in db.all_cards()):
        raise SystemExit("the voskhozhdenie card sets hold no City cards: cannot build decks")
    return Voskhozhdenie(db)


MAX_ACTIONS = 50_000  # a safety cap too: a round of endless free activations ends the game


def play_game(system, bots, decks, seed: int, max_rounds: int, config=None) -> dict:
    """One game; returns {"winners", "draw", "capped", "rounds", "actions"}."""
    state = system.new_game(config or {}, decks, seed)
    actions = 0
    while not state["finished"] and state["round"] <= max_rounds and actions < MAX_ACTIONS:
        (seat,) = system.to_act(state)
        action = bots[seat].choose(state, seat)
        state, _events = system.apply(state, seat, action)
        actions += 1
    result = system.result(state)
    return {
        "winners": result.winners,
        "draw": result.draw,
        "capped": not state["finished"],
        "rounds": state["round"],
        "actions": actions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__)
    parser.add_argument("system", help="game system key, e.g. voskhozhdenie")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bots", default="heuristic,random", help="one bot name per seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-rounds", type=int, default=200)
    parser.add_argument("--format", choices=("standard", "blitz"), default="standard")
    parser.add_argument("--sample", action="store_true", help="use the synthetic card pool")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)

    from engine.voskhozhdenie.bots import make_bot
    from engine.voskhozhdenie.sample import sample_deck

    system = _load(args.system, args.sample)
    names = args.bots.split(",")
    if len(names) < 2:
        parser.error("--bots needs at least two bots, one per seat")
    cities, main_size = (4, 40) if args.format == "standard" else (2, 20)
    wins: Counter[str] = Counter()
    draws = capped = errors = 0
    rounds = actions = 0
    first_error = None
    started = time.perf_counter()
    for k in range(args.games):
        seed = args.seed * 1_000_003 + k
        # Alternate seats so that neither bot always sits first.
        order = names[k % len(names) :] + names[: k % len(names)]
        bots = [make_bot(name, system, seed + i) for i, name in enumerate(order)]
        decks = [
            sample_deck(system.db, seed * 31 + i, cities=cities, main=main_size)
            for i in range(len(order))
        ]
        try:
            outcome = play_game(system, bots, decks, seed, args.max_rounds)
        except Exception:
            errors += 1
            if first_error is None:
                first_error = f"game {k} (seed {seed}):\n{traceback.format_exc()}"
            continue
        rounds += outcome["rounds"]
        actions += outcome["actions"]
        if outcome["capped"]:
            capped += 1
            draws += 1
        elif outcome["draw"]:
            draws += 1
        else:
            for seat in outcome["winners"]:
                wins[order[seat]] += 1
        if not args.quiet and (k % 10 == 9 or k == args.games - 1):
            _progress(k + 1, args.games, started)
    elapsed = time.perf_counter() - started
    if not args.quiet:
        sys.stderr.write("\n")
    played = max(args.games - errors, 1)
    print(f"{args.system}: {args.games} games, bots {args.bots}, {elapsed:.1f} s")
    for name in dict.fromkeys(names):
        print(f"  {name:>10} wins: {wins[name]:5d} ({100 * wins[name] / played:.1f}%)")
    print(f"  draws: {draws} (capped at {args.max_rounds} rounds: {capped})")
    print(f"  average length: {rounds / played:.1f} rounds, {actions / played:.1f} actions")
    print(f"  errors: {errors}")
    if first_error:
        print(first_error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
