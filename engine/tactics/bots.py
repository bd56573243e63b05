"""Bots for Ascension Tactics: a random legal player and a heuristic player.

A bot is a callable ``bot(system, state, seat, rng_state) -> action`` returning one of
``system.legal_actions(state, seat)``; ``rng_state`` is the bot's own generator
(``engine.core.rng.seed_state``), advanced in place. ``make_bot(name, system, seed)``
returns an object with ``choose(state, seat)``.

The heuristic player drafts the champions of the best value (stats and keywords against
the command cost), uses its gate, plays every card (card draw first, constructs on its
strongest champion), commands its champions (on the battlefield first, then entering):
each attacks the enemy it can defeat (else the weakest it can reach) and moves to hold
the shrines (T-64), then it spends the rest of its power on monsters and cultists and its
runes on the dearest card it can pay for.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Action, State
from engine.core.rng import choice, seed_state
from engine.tactics import draft as champion_draft
from engine.tactics import hexes, villains
from engine.tactics.game import pc


def random_bot(system: Any, state: State, seat: int, rng_state: list[int]) -> Action:
    """A uniformly random legal action."""
    return choice(rng_state, system.legal_actions(state, seat))


def _shrines(state: State) -> list[tuple[int, int]]:
    return sorted(pc(c) for c, t in state["terrain"].items() if t == "shrine")


def _cell_score(system, state: State, seat: int, fig: dict, cell: str) -> float:
    return _cell_scorer(system, state, seat, fig)(cell)


_SHRINE_DISTANCES: dict[tuple, dict[str, tuple[int, ...]]] = {}


def _cell_scorer(system, state: State, seat: int, fig: dict):
    """``cell -> score`` of a cell for ``fig`` to stand on: near a shrine few of its
    allies crowd, next to enemies. What does not depend on the cell is worked out once,
    and a cell's distances to the shrines once for every position of the shrines."""
    mine = [pc(f["cell"]) for f in system.on_board(state, seat) if f["id"] != fig["id"]]
    shrines = tuple(_shrines(state))
    crowds = [2.5 * sum(1 for m in mine if hexes.distance(m, sh) <= 1) for sh in shrines]
    near: dict[tuple[int, int], int] = {}  # cell -> the enemies next to it
    for e in system.enemies_on_board(state, seat):
        for n in hexes.neighbours(pc(e["cell"])):
            near[n] = near.get(n, 0) + 1
    distances = _SHRINE_DISTANCES.get(shrines)
    if distances is None:
        if len(_SHRINE_DISTANCES) >= 64:
            _SHRINE_DISTANCES.clear()
        distances = _SHRINE_DISTANCES[shrines] = {}

    def score(cell: str) -> float:
        ds = distances.get(cell)
        if ds is None:
            h = pc(cell)
            ds = distances[cell] = tuple(hexes.distance(h, sh) for sh in shrines)
        best = -99.0
        for d, crowd in zip(ds, crowds, strict=True):
            value = (8.0 if d <= 1 else -d) - crowd
            if value > best:  # max(best, value)
                best = value
        for _ in range(near.get(pc(cell), 0)):
            best += 0.5
        return best

    return score


def _target_value(system, state: State, fig: dict, cell: str) -> float:
    enemy = next(f for f in system.on_board(state) if f["cell"] == cell)
    left = system.stat(state, enemy, "defence") - enemy["damage"]
    kills = system.stat(state, fig, "strength") >= left
    return (10.0 if kills else 0.0) - left


def _choose_pending(system, state: State, seat: int) -> Action:
    pend = state["pending"]
    opts = pend["options"]
    kind = pend["kind"]
    cards, info = state["cards"], system.info
    best = None
    if kind == "ambush":
        best = 0
    elif kind == "banish":
        weak = [i for i, o in enumerate(opts) if info[cards[o["iid"]]].pile == "starter"]
        if pend["effect"]["from"] == "row":
            best = max(range(len(opts)), key=lambda i: info[cards[opts[i]["iid"]]].cost or 0)
        elif weak:
            best = weak[0]
    elif kind == "acquire":
        best = max(range(len(opts)), key=lambda i: info[cards[opts[i]["iid"]]].cost or 0)
    elif kind == "damage":
        best = max(
            range(len(opts)),
            key=lambda i: (
                -(
                    system.stat(state, state["figs"][opts[i]["fig"]], "defence")
                    - state["figs"][opts[i]["fig"]]["damage"]
                )
            ),
        )
    elif kind == "move":
        scorers: dict[int, Any] = {}

        def move_score(i: int) -> float:
            f = opts[i]["fig"]
            if f not in scorers:
                scorers[f] = _cell_scorer(system, state, seat, state["figs"][f])
            return scorers[f](opts[i]["cell"])

        best = max(range(len(opts)), key=move_score)
    elif kind in ("boost", "grant", "command", "enter"):
        on = [i for i, o in enumerate(opts) if state["figs"][o["fig"]]["cell"] is not None]
        best = on[0] if on else 0
    elif kind == "terrain":
        enemy_cells = [pc(f["cell"]) for f in system.enemies_on_board(state, seat)]
        if enemy_cells:
            best = min(
                range(len(opts)),
                key=lambda i: min(hexes.distance(pc(opts[i]["cell"]), e) for e in enemy_cells),
            )
        else:
            best = 0
    if best is None:
        best = None if pend["optional"] else 0
    return {"type": "choose", "i": best}


def _pick_champion(system: Any, state: State, seat: int) -> Action:
    """The champion draft (T-77): the best value in the row, a cheaper command breaking
    ties (champion_draft.champion_value)."""
    picks = system.legal_actions(state, seat)
    return max(
        picks,
        key=lambda a: (
            champion_draft.champion_value(system.info[a["champion"]]),
            -(system.info[a["champion"]].command or 0),
            a["champion"],
        ),
    )


def heuristic_bot(system: Any, state: State, seat: int, rng_state: list[int]) -> Action:
    if villains.is_villain_seat(state, seat):  # the archvillain (T-100)
        return villains.villain_bot(system, state, seat)
    if state.get("phase") == champion_draft.PHASE:
        return _pick_champion(system, state, seat)
    if state["pending"] is not None:
        return _choose_pending(system, state, seat)
    legal = system.legal_actions(state, seat)
    if state.get("villain") is not None:  # against the villains (T-81..T-98)
        hint = villains.hero_hint(system, state, seat, legal)
        if hint is not None:
            return hint
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    cards, info = state["cards"], system.info
    p = state["players"][seat]
    cmd = state["cmd"]
    if cmd is not None:
        fig = state["figs"][cmd["fig"]]
        attacks = by_type.get("attack", [])
        if attacks:
            best = max(attacks, key=lambda a: _target_value(system, state, fig, a["cell"]))
            if _target_value(system, state, fig, best["cell"]) > 0 or cmd["moved"]:
                return best
        moves = by_type.get("move", [])
        if moves:
            cell_score = _cell_scorer(system, state, seat, fig)
            here = cell_score(fig["cell"])
            best = max(moves, key=lambda a: cell_score(a["cell"]))
            if cell_score(best["cell"]) > here:
                return best
        if attacks:
            return max(attacks, key=lambda a: _target_value(system, state, fig, a["cell"]))
        return {"type": "done"}
    if "gate" in by_type:
        return {"type": "gate"}
    plays = by_type.get("play", [])
    if plays:

        def order(a):
            c = info[cards[a["iid"]]]
            draws = any(e["op"] == "draw" for ab in c.abilities for e in ab.effects)
            fig = state["figs"][a["fig"]] if "fig" in a else None
            strength = system.stat(state, fig, "strength") if fig else 0
            on = fig is not None and fig["cell"] is not None
            return (draws, c.type != "construct", on, strength)

        return max(plays, key=order)
    commands = by_type.get("command", [])
    if commands:
        on = [a for a in commands if "cell" not in a]
        if on:
            return on[0]
        return max(
            commands,
            key=lambda a: (
                system.stat(state, state["figs"][a["fig"]], "strength")
                + system.stat(state, state["figs"][a["fig"]], "defence")
            ),
        )
    acquires = by_type.get("acquire", [])
    monsters = [a for a in acquires if "iid" in a and info[cards[a["iid"]]].type == "monster"]
    if monsters:
        return max(monsters, key=lambda a: info[cards[a["iid"]]].cost or 0)
    if by_type.get("cultist") and p["power"] >= 2:
        return by_type["cultist"][0]
    buys = [a for a in acquires if a not in monsters]
    if buys:

        def worth(a):
            c = info[cards[a["iid"]]] if "iid" in a else info[a["pile"]]
            return ((c.cost or 0) + (1.5 if c.is_champion else 0), "iid" in a)

        best = max(buys, key=worth)
        if (worth(best)[0]) >= 2:
            return best
    uses = by_type.get("treasure", [])
    if uses:
        on = [a for a in uses if state["figs"][a["fig"]]["cell"] is not None]
        if on:
            return on[0]
    return {"type": "end_turn"}


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
