"""Fingerprints of recorded bot games, to show that engine changes keep behaviour.

A fingerprint is a SHA-256 over everything a game produces, action by action: the
legal actions offered to the player to act, the action chosen, the new state (the RNG
position included), the events, and the views of every seat and of a spectator. The
same seed and the same bots must give the same fingerprint before and after a change
that is meant to keep behaviour (``test_fingerprints.py`` compares with the stored
``fingerprints.json``).

    .venv/bin/python -m tests.engine.voskhozhdenie.fingerprints            # print them
    .venv/bin/python -m tests.engine.voskhozhdenie.fingerprints --write    # store them
    .venv/bin/python -m tests.engine.voskhozhdenie.fingerprints --games 300 --json

``--games N`` adds N more 2-player real-set games (heuristic against random, like the
engine bench) for a wider one-off comparison; only the default set is stored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

STORE = Path(__file__).with_name("fingerprints.json")
MAX_ROUNDS = 200
MAX_ACTIONS = 20_000

# (name, real sets?, bots, teams or None, format, seed). The games were recorded with the
# random "legal-ish" decks the simulation kit built before it built legal ones
# (``recorded_decks``): the decks are part of the record, so they stay as they were.
GAMES = (
    *[(f"real-2p-{k}", True, ("heuristic", "random"), None, "standard", k) for k in range(8)],
    *[(f"real-2p-rr-{k}", True, ("random", "random"), None, "standard", 100 + k) for k in range(1)],
    *[(f"real-2p-hh-{k}", True, ("heuristic", "heuristic"), None, "standard", 200 + k) for k in range(3)],
    ("real-blitz", True, ("heuristic", "random"), None, "blitz", 300),
    ("real-3p", True, ("heuristic", "random", "random"), None, "standard", 400),
    ("real-4p-teams", True, ("heuristic", "random", "random", "heuristic"), [[0, 2], [1, 3]], "standard", 500),
    ("sample-2p", False, ("heuristic", "random"), None, "standard", 600),
    ("sample-4p", False, ("random", "heuristic", "random", "random"), None, "standard", 700),
)  # fmt: skip


RECORDED_SHAPES = {"standard": (4, 40), "blitz": (2, 20)}  # Cities, Main Deck size


def recorded_decks(system, players: int, seed: int, fmt: str) -> list[dict]:
    """The decks of the recorded games (``sample_deck``, not checked against the format)."""
    from engine.voskhozhdenie.sample import sample_deck

    cities, main = RECORDED_SHAPES[fmt]
    return [sample_deck(system.db, seed * 31 + i, cities=cities, main=main) for i in range(players)]


def _dump(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def play(kit, system, bots, decks, config, seed) -> tuple[str, dict]:
    """Play one game and return its fingerprint and a summary."""
    digest = hashlib.sha256()
    state = system.new_game(config, decks, seed)
    digest.update(_dump(state))
    players = len(decks)
    actions = 0
    kinds: dict[str, int] = {}
    while not state["finished"] and state["round"] <= MAX_ROUNDS and actions < MAX_ACTIONS:
        (seat,) = system.to_act(state)
        legal = system.legal_actions(state, seat)
        if state["pending"] is not None:
            kind = state["pending"]["kind"]
            kinds[kind] = kinds.get(kind, 0) + 1
        action = bots[seat].choose(state, seat)
        state, events = system.apply(state, seat, action)
        actions += 1
        digest.update(_dump([seat, action, legal]))
        digest.update(_dump(state))
        digest.update(_dump(events))
        for viewer in [*range(players), None]:
            digest.update(_dump(system.view(state, viewer)))
    summary = {
        "actions": actions,
        "rounds": state["round"],
        "winners": list(state["winners"]),
        "pending": dict(sorted(kinds.items())),
    }
    return digest.hexdigest(), summary


def compute(extra: int = 0) -> dict[str, dict]:
    from engine.simulate import load_kit

    kit = load_kit("voskhozhdenie")
    real, _ = kit.system(False)
    sample, _ = kit.system(True)
    games = list(GAMES)
    games += [
        (f"extra-{k}", True, ("heuristic", "random")[:: 1 if k % 2 == 0 else -1], None, "standard", 1_000_003 + k)
        for k in range(extra)
    ]  # fmt: skip
    out = {}
    for name, use_real, names, teams, fmt, seed in games:
        system = real if use_real else sample
        bots = [kit.make_bot(b, system, seed + i) for i, b in enumerate(names)]
        decks = recorded_decks(system, len(names), seed, fmt)
        config = {"teams": teams} if teams else {}
        fingerprint, summary = play(kit, system, bots, decks, config, seed)
        out[name] = {"sha256": fingerprint, **summary}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="store the default set")
    parser.add_argument("--games", type=int, default=0, help="extra 2-player games")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = compute(args.games)
    if args.write:
        stored = {k: v for k, v in result.items() if not k.startswith("extra-")}
        STORE.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for name, item in result.items():
            print(f"{name:16} {item['sha256'][:16]} actions={item['actions']} {item['pending']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
