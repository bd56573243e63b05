"""Recorded Berserk bot games replay to the stored fingerprints (behaviour is unchanged).

``fingerprints.json`` holds, for a fixed set of seeded games (heuristic and random bots,
random legal constructed decks), a SHA-256 over the legal actions, the chosen action, the
state, the events and every seat's view after each action. An engine change meant to keep
behaviour (a speed-up) must leave them equal; a change of the rules regenerates them on
purpose (``python -m tests.engine.berserk.fingerprints --write``) and says why.
"""

from __future__ import annotations

import json

from engine.core.protocol import replay
from engine.simulate import load_kit
from tests.engine.berserk import fingerprints


def test_recorded_games_match_their_fingerprints():
    stored = json.loads(fingerprints.STORE.read_text(encoding="utf-8"))
    assert set(stored) == {name for name, *_ in fingerprints.GAMES}
    now = fingerprints.compute()
    changed = [name for name in stored if stored[name] != now[name]]
    assert not changed, f"games that no longer replay identically: {changed}"


def test_replaying_the_action_log_gives_the_same_state_and_events():
    """Same seed and actions: the same state and the same events, action by action."""
    kit = load_kit("berserk")
    system, _ = kit.system(False)
    seed = 12345
    decks = kit.decks(system, 2, seed)
    bots = [kit.make_bot(name, system, seed + i) for i, name in enumerate(("heuristic", "random"))]
    state = system.new_game({}, decks, seed)
    log, events = [], []
    while not state["finished"] and len(log) < 600:
        (seat,) = system.to_act(state)
        action = bots[seat].choose(state, seat)
        state, produced = system.apply(state, seat, action)
        log.append((seat, action))
        events.append(produced)
    again = system.new_game({}, decks, seed)
    for (seat, action), produced in zip(log, events, strict=True):
        again, replayed = system.apply(again, seat, action)
        assert replayed == produced
    assert again == state == replay(system, {}, decks, seed, log)
