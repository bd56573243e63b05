"""Fingerprints of recorded Berserk bot games, to show that engine changes keep behaviour.

A fingerprint is a SHA-256 over everything a game produces, action by action: the legal
actions offered to the player to act, the action chosen, the new state (the RNG position
included), the events, and the views of both seats and of a spectator. The same seed and
the same bots must give the same fingerprint before and after a change meant to keep
behaviour (``test_fingerprints.py`` compares with the stored ``fingerprints.json``).

    .venv/bin/python -m tests.engine.berserk.fingerprints            # print them
    .venv/bin/python -m tests.engine.berserk.fingerprints --write    # store them
    .venv/bin/python -m tests.engine.berserk.fingerprints --games 300 --json

``--games N`` adds N more games (heuristic against random, like the engine bench) for a
wider one-off comparison; only the default set is stored.
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

# (name, bots, config, seed): decks from the simulation kit (random legal constructed
# decks drawn from the seed).
GAMES = (
    *[(f"hr-{k}", ("heuristic", "random"), {}, k) for k in range(8)],
    *[(f"rh-{k}", ("random", "heuristic"), {}, 50 + k) for k in range(4)],
    *[(f"hh-{k}", ("heuristic", "heuristic"), {}, 100 + k) for k in range(4)],
    *[(f"rr-{k}", ("random", "random"), {}, 200 + k) for k in range(3)],
    ("hr-chooser", ("heuristic", "random"), {"chooser": 1, "turn_limit": 12}, 300),
)  # fmt: skip


def _dump(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def play(system, bots, decks, config, seed) -> tuple[str, dict]:
    """Play one game and return its fingerprint and a summary."""
    digest = hashlib.sha256()
    state = system.new_game(config, decks, seed)
    digest.update(_dump(state))
    actions = 0
    kinds: dict[str, int] = {}
    while not state["finished"] and state["round"] <= MAX_ROUNDS and actions < MAX_ACTIONS:
        (seat,) = system.to_act(state)
        legal = system.legal_actions(state, seat)
        action = bots[seat].choose(state, seat)
        kinds[action["type"]] = kinds.get(action["type"], 0) + 1
        state, events = system.apply(state, seat, action)
        actions += 1
        digest.update(_dump([seat, action, legal]))
        digest.update(_dump(state))
        digest.update(_dump(events))
        for viewer in (0, 1, None):
            digest.update(_dump(system.view(state, viewer)))
    summary = {
        "actions": actions,
        "rounds": state["round"],
        "winners": list(state["winners"]),
        "kinds": dict(sorted(kinds.items())),
    }
    return digest.hexdigest(), summary


def compute(extra: int = 0) -> dict[str, dict]:
    from engine.simulate import load_kit

    kit = load_kit("berserk")
    system, _ = kit.system(False)
    games = list(GAMES)
    games += [
        (f"extra-{k}", ("heuristic", "random")[:: 1 if k % 2 == 0 else -1], {}, 1_000_003 + k)
        for k in range(extra)
    ]
    out = {}
    for name, names, config, seed in games:
        bots = [kit.make_bot(b, system, seed + i) for i, b in enumerate(names)]
        decks = kit.decks(system, 2, seed)
        fingerprint, summary = play(system, bots, decks, config, seed)
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
            print(f"{name:12} {item['sha256'][:16]} actions={item['actions']} {item['kinds']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
