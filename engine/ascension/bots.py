"""Bots for Ascension: a random legal player and a heuristic player.

A bot is a callable ``bot(system, state, seat, rng_state) -> action``:

* ``system`` is the Ascension GameSystem (``engine.ascension.game.SYSTEM``);
* ``state`` the current game state, with ``seat`` in ``system.to_act(state)``;
* ``rng_state`` the bot's own random generator, a list from
  ``engine.core.rng.seed_state(seed)``; the bot advances it **in place**, so a bot is
  deterministic from its seed (keep one list per bot and pass it on every call);
* the result is one of ``system.legal_actions(state, seat)``.

``BOTS = {"random": random_bot, "heuristic": heuristic_bot}``. For drivers that want an
object, ``make_bot(name, system, seed)`` returns one with ``choose(state, seat)``.

The heuristic player reads only what its seat may see: its own hand and the open zones.
It plays every card in hand (card-drawing cards first), uses its Constructs, defeats the
Monster with the best reward it can pay for (else the Cultist), then acquires the best
affordable card by a rating (cost, honor value, card draw) and ends its turn.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Action, State
from engine.core.rng import choice, seed_state


def random_bot(system: Any, state: State, seat: int, rng_state: list[int]) -> Action:
    """A uniformly random legal action."""
    return choice(rng_state, system.legal_actions(state, seat))


def _rating(card) -> float:
    draws = any(op["op"] == "draw" for a in card.abilities for op in a["effects"])
    return card.cost + 0.6 * card.honor + (0.8 if draws else 0.0)


def _reward(system, cid: str) -> tuple[int, int]:
    ops = system.reward_ops[cid]
    return (sum(op["amount"] for op in ops if op["op"] == "honor"), len(ops))


def _choose_pending(system, state: State, seat: int, pending: dict) -> Action:
    cards, info = state["cards"], system.info
    options = pending["options"]
    kind = pending["kind"]
    best = None
    if kind == "banish":
        if pending["from"] == "center":
            best = max(options, key=lambda i: (info[cards[i]].cost, -i))
        else:
            weak = [i for i in options if info[cards[i]].pile == "starter"]
            if weak:  # a Militia before an Apprentice: runes buy honor cards
                best = max(weak, key=lambda i: (info[cards[i]].effects("play")[0]["op"], -i))
            elif not pending["optional"]:
                best = min(options, key=lambda i: (_rating(info[cards[i]]), i))
    elif kind == "defeat_free":
        best = max(options, key=lambda i: (_reward(system, cards[i]), -i))
    elif kind == "acquire_free":
        best = max(options, key=lambda i: (_rating(info[cards[i]]), -i))
    else:  # keep: the most valuable Construct
        best = max(options, key=lambda i: (_rating(info[cards[i]]), -i))
    if best is None and not pending["optional"]:
        best = options[0]
    return {"type": "choose", "iid": best}


def heuristic_bot(system: Any, state: State, seat: int, rng_state: list[int]) -> Action:
    pending = state["pending"]
    if pending is not None:
        return _choose_pending(system, state, seat, pending)
    cards, info = state["cards"], system.info
    p = state["players"][seat]
    if p["hand"]:
        # Draw first (more cards to play), then Constructs, then the rest.
        def order(i):
            ops = system.play_ops[cards[i]]
            return (
                any(op["op"] == "draw" for op in ops),
                info[cards[i]].type == "construct",
                info[cards[i]].faction is not None,
                -i,
            )

        return {"type": "play", "iid": max(p["hand"], key=order)}
    for iid in p["constructs"]:
        if iid not in p["used"] and system.activate_ops[cards[iid]]:
            return {"type": "activate", "iid": iid}
    power, runes = p["power"], p["runes"]
    monsters = [
        i
        for i in state["row"]
        if i is not None and info[cards[i]].type == "monster" and info[cards[i]].cost <= power
    ]
    if monsters:
        return {
            "type": "defeat",
            "iid": max(monsters, key=lambda i: (_reward(system, cards[i]), -i)),
        }
    for cid, pile in state["piles"].items():
        if pile and info[cid].type == "monster" and info[cid].cost <= power:
            return {"type": "defeat", "pile": cid}
    best, best_rating = None, 1.5
    for i in state["row"]:
        if i is not None:
            c = info[cards[i]]
            if c.type != "monster" and c.cost <= runes and _rating(c) > best_rating:
                best, best_rating = {"type": "acquire", "iid": i}, _rating(c)
    for cid, pile in state["piles"].items():
        c = info[cid]
        if pile and c.type != "monster" and c.cost <= runes and _rating(c) > best_rating:
            best, best_rating = {"type": "acquire", "pile": cid}, _rating(c)
    return best or {"type": "end_turn"}


BOTS = {"random": random_bot, "heuristic": heuristic_bot}


class BotPlayer:
    """A named bot with its own generator: ``make_bot("heuristic", system, 7).choose(s, 0)``."""

    def __init__(self, name: str, system: Any, seed: int = 0):
        try:
            self.fn = BOTS[name]
        except KeyError:
            raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
        self.name = name
        self.system = system
        self.rng_state = seed_state(seed)

    def choose(self, state: State, seat: int) -> Action:
        return self.fn(self.system, state, seat, self.rng_state)


def make_bot(name: str, system: Any, seed: int = 0) -> BotPlayer:
    return BotPlayer(name, system, seed)
