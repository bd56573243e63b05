"""Play many bot games of a rules engine and report win rates, lengths and errors.

    .venv/bin/python -m engine.simulate voskhozhdenie --games 1000 --bots heuristic,random
        [--seed N] [--max-rounds 200] [--format <the game's formats>] [--sample]
        [--players N] [--teams]
    .venv/bin/python -m engine.simulate ascension --games 1000 --bots heuristic,random

One seat per bot named in ``--bots``; ``--players N`` seats N players, giving them the
bots in turn (``--players 4 --bots heuristic,random``: heuristic, random, heuristic,
random). ``--teams`` plays two teams of allies in alternate seats (2v2 by default). The
seats rotate from game to game so that no bot always sits first. A bot "wins" a game
when a seat it plays wins it (with allies, the whole team wins). Each game system
registers a simulation kit (``engine.core.registry``: its engine, bots, decks and game
config); for «Восхождение» the decks are random decks from the real card sets that the
deck checker accepts for ``--format`` (``--sample``: the engine's small synthetic pool). A game that reaches ``--max-rounds`` (or 50 000 actions) is stopped and
counted as a draw ("capped"). Games are played under the event rules every game on the
site is played under (the registry's ``play_config``: for «Восхождение» a draw after ten
Rounds in which everyone only passed, or after Round 60, 1.3.3 and 1.3.10), so a
position the rules give no end is a drawn game, as online; ``--no-event-rules`` plays
without them. Any exception is counted as an error with its first occurrence printed; the
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


def load_kit(system_key: str):
    """The simulation kit a game system registers (bots, sample decks, its engine)."""
    from engine.core import registry

    try:
        return registry.get(system_key).load("simulation")
    except registry.UnknownGameSystem as exc:
        raise SystemExit(f"no simulator for {system_key!r}: {exc}") from None


MAX_ACTIONS = 50_000  # a safety cap too: a round of endless free activations ends the game


def play_game(system, bots, decks, seed: int, max_rounds: int, config=None) -> dict:
    """One game; returns {"winners", "draw", "capped", "rounds", "actions"}."""
    state = system.new_game(config or {}, decks, seed)
    actions = 0
    while not state["finished"] and state["round"] <= max_rounds and actions < MAX_ACTIONS:
        seat = system.to_act(state)[0]
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
    parser.add_argument(
        "--format", default=None, help="deck format for sample decks (default: the game's first)"
    )
    parser.add_argument("--sample", action="store_true", help="use the synthetic card pool")
    parser.add_argument("--players", type=int, default=None, help="seats (default: one per bot)")
    parser.add_argument("--teams", action="store_true", help="two teams of allies (2v2)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--no-event-rules",
        action="store_true",
        help="leave out the event rules every game on the site is played under (the registry's "
        "play_config, e.g. a draw after Round 60 of a game nobody can win)",
    )
    args = parser.parse_args(argv)

    kit = load_kit(args.system)
    system, pool = kit.system(args.sample)
    args.format = args.format or kit.formats[0]
    if args.format not in kit.formats:
        parser.error(f"--format is one of {', '.join(kit.formats)} for {args.system}")
    names = args.bots.split(",")
    players = args.players or (max(4, len(names)) if args.teams else len(names))
    fewest = getattr(kit, "min_players", 2)  # 1 for a game with a solo mode
    if players < fewest:
        parser.error(f"--players: a game needs at least {fewest} player(s)")
    if len(names) < fewest and args.players is None:
        parser.error("--bots needs at least two bots, one per seat (or give --players)")
    seats = [names[i % len(names)] for i in range(players)]
    game_config = getattr(kit, "game_config", None)
    if args.teams and game_config is None:
        parser.error(f"--teams: {args.system} has no team play in its simulation kit")
    try:
        config = game_config(players, teams=args.teams) if game_config else {}
    except ValueError as exc:
        parser.error(f"--teams: {exc}")
    mode_config = getattr(kit, "mode_config", None)  # a mode chosen with --format
    try:
        config = {**config, **(mode_config(args.format, players) if mode_config else {})}
    except ValueError as exc:
        parser.error(f"--format: {exc}")
    from engine.core import registry

    event_rules = {} if args.no_event_rules else dict(registry.get(args.system).play_config)
    config = {**event_rules, **config}
    wins: Counter[str] = Counter()
    draws = capped = errors = 0
    rounds = actions = 0
    first_error = None
    started = time.perf_counter()
    for k in range(args.games):
        seed = args.seed * 1_000_003 + k
        # Alternate seats so that neither bot always sits first.
        order = seats[k % len(seats) :] + seats[: k % len(seats)]
        bots = [kit.make_bot(name, system, seed + i) for i, name in enumerate(order)]
        decks = kit.decks(system, len(order), seed, args.format)
        try:
            outcome = play_game(system, bots, decks, seed, args.max_rounds, config)
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
            for name in {order[seat] for seat in outcome["winners"]}:
                wins[name] += 1
        if not args.quiet and (k % 10 == 9 or k == args.games - 1):
            _progress(k + 1, args.games, started)
    elapsed = time.perf_counter() - started
    if not args.quiet:
        sys.stderr.write("\n")
    played = max(args.games - errors, 1)
    teams = ", two teams in alternate seats" if args.teams else ""
    print(
        f"{args.system} ({pool}, {args.format}): {args.games} games, {players} players "
        f"({', '.join(seats)}{teams}), {elapsed:.1f} s"
    )
    rules = ", ".join(f"{k}={v}" for k, v in event_rules.items()) or "none"
    print(f"  event rules: {rules}")
    for name in dict.fromkeys(names):
        print(f"  {name:>10} wins: {wins[name]:5d} ({100 * wins[name] / played:.1f}%)")
    print(f"  draws: {draws} (capped at {args.max_rounds} rounds: {capped})")
    print(
        f"  capped: {capped} of {played} ({100 * capped / played:.1f}%; "
        f"the cap: {args.max_rounds} rounds or {MAX_ACTIONS} actions)"
    )
    print(f"  average length: {rounds / played:.1f} rounds, {actions / played:.1f} actions")
    print(f"  errors: {errors}")
    if first_error:
        print(first_error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
