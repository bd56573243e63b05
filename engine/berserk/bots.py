"""Bots for Berserk: a random legal player and a heuristic player.

A bot is a callable ``bot(system, state, seat, rng_state) -> action``: ``system`` the
Berserk GameSystem (``engine.berserk.game.SYSTEM``), ``state`` a state with ``seat`` in
``system.to_act(state)``, ``rng_state`` the bot's own generator (``engine.core.rng``),
advanced in place, so a bot is deterministic from its seed. The result is one of
``system.legal_actions(state, seat)``.

``BOTS = {"random": random_bot, "heuristic": heuristic_bot}``; ``make_bot(name, system,
seed)`` returns an object with ``choose(state, seat)``.

The heuristic player reads only its seat's ``view`` and its legal actions: it goes first,
keeps its deal (one redeal of a deal poor in creatures), recruits the strongest creatures
it can pay for (avoiding a third element), places the strongest in front, reveals
everything, and in battle strikes where its blow is worth most (a kill first, a strong
retaliation avoided), otherwise walks its creatures towards the nearest enemy; as the
defending player it puts a sturdier creature in front of a threatened one and weakens
only to save its own creature. (Recruiting, it asks the engine which ``recruit`` actions
are offered for its best Deal cards first, rather than listing them all: the same choice.)
"""

from __future__ import annotations

from typing import Any

from engine.berserk import board
from engine.berserk.model import Card
from engine.core.protocol import Action, State
from engine.core.rng import choice, seed_state


def random_bot(system: Any, state: State, seat: int, rng_state: list[int]) -> Action:
    """A uniformly random legal action."""
    return choice(rng_state, system.legal_actions(state, seat))


_VALUES: dict[int, tuple[Card, float]] = {}  # id(card) -> (card, _value(card))
_CELLS: dict[str, tuple[int, int]] = {}  # cell name -> cell (board.parse_cell)
_ROWS: dict[tuple[tuple[int, int], int], int | None] = {}  # (cell, role) -> board.seat_row


def _value(card: Card) -> float:
    """A creature's worth in battle: lives and its medium strike, movement a little."""
    known = _VALUES.get(id(card))
    if known is not None and known[0] is card:
        return known[1]
    score = _card_value(card)
    _VALUES[id(card)] = (card, score)
    return score


def _card_value(card: Card) -> float:
    if card.type != "creature":
        return -1.0
    if card.subtype in ("symbiote", "parasite"):
        return -0.5
    score = card.lives + 2.0 * card.strike[1] + 0.5 * card.strike[2] + 0.5 * card.movement
    if card.is_flyer:
        score += 1.0
    if card.has("armour"):
        score += card.ability_x("armour") or 0
    for ranged in ("shot", "throw", "discharge"):
        score += 1.5 * (card.ability_x(ranged) or 0)
    return score


def _parse(name: str) -> tuple[int, int]:
    cell = _CELLS.get(name)
    if cell is None:
        cell = _CELLS[name] = board.parse_cell(name)
    return cell


def _cell(name: str | None) -> tuple[int, int] | None:
    return None if name is None else _parse(name)


def _seat_row(cell: tuple[int, int], role: int) -> int | None:
    key = (cell, role)
    if key not in _ROWS:
        _ROWS[key] = board.seat_row(cell, role)
    return _ROWS[key]


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """``board.distance`` of two cells known to be on the Battlefield."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def heuristic_bot(system: Any, state: State, seat: int, rng_state: list[int]) -> Action:
    if state["phase"] == "recruit" and not state["finished"] and seat in system.to_act(state):
        return _recruit_choice(system, state, seat)
    actions = system.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    kinds = {a["type"] for a in actions}
    if state["phase"] in ("vanguard", "main", "final"):  # battle: _battle reads these parts
        view = system.battle_view(state, seat)
    else:
        view = system.view(state, seat)
    info = system.info
    if "choose_first" in kinds:
        return {"type": "choose_first", "first": seat}
    if "keep" in kinds:
        me = view["players"][seat]
        creatures = sum(info[c["id"]].type == "creature" for c in me["deal"])
        if "redeal" in kinds and me["redeals"] == 0 and creatures < len(me["deal"]) // 2:
            return {"type": "redeal"}
        return {"type": "keep"}
    if "recruit_done" in kinds:
        me = view["players"][seat]
        elements = {info[c["id"]].element for c in me["recruit"]} - {""}
        deal = {c["card"]: info[c["id"]] for c in me["deal"]}
        best, best_score = None, 0.0
        for a in actions:
            if a["type"] != "recruit" or a.get("x", 0):
                continue
            card = deal[a["card"]]
            score = _value(card)
            if card.element and card.element not in elements and len(elements) >= 2:
                score -= 6
            if score > best_score:
                best, best_score = a, score
        return best or {"type": "recruit_done"}
    if "place" in kinds:
        me = view["players"][seat]
        recruit = {c["card"]: info[c["id"]] for c in me["recruit"]}
        role = board.FIRST if view["first"] == seat else board.SECOND

        worths: dict[int, tuple[float, bool]] = {}  # card -> (value, flyer)
        places: dict[str, tuple[int, int]] = {}  # cell -> (front, col)

        def place_score(a: Action) -> tuple[float, str]:
            worth = worths.get(a["card"])
            if worth is None:
                card = recruit[a["card"]]
                worth = worths[a["card"]] = (_value(card), card.is_flyer)
            place = places.get(a["cell"])
            if place is None:
                cell = _parse(a["cell"])
                row = _seat_row(cell, role) or 3
                place = places[a["cell"]] = (4 - row, abs(cell[0] - 2))
            v, flyer = worth
            front, col = place
            return (v * front - col * 0.1 if v > 0 and not flyer else -front, a["cell"])

        return max(actions, key=place_score)
    if "reveal_done" in kinds:
        return {"type": "reveal_done"}
    if "host" in kinds:
        return actions[0]
    return _battle(system, view, seat, actions)


def _recruit_choice(system: Any, state: State, seat: int) -> Action:
    """The strongest creature it can pay for (avoiding a third element), else done: the
    first best of the ``recruit`` actions offered with no X or X 0, asking the engine
    about the Deal cards best first rather than listing every offered action."""
    view = system.view(state, seat)
    info = system.info
    me = view["players"][seat]
    elements = {info[c["id"]].element for c in me["recruit"]} - {""}
    ranked = []
    for position, c in enumerate(me["deal"]):
        card = info[c["id"]]
        score = _value(card)
        if card.element and card.element not in elements and len(elements) >= 2:
            score -= 6
        if score > 0.0:
            ranked.append((-score, position, c["card"]))
    ranked.sort()
    for _score, _position, iid in ranked:
        for a in system.recruit_offers(state, seat, iid):
            if not a.get("x", 0):
                return a
    return {"type": "recruit_done"}


def _battle(system: Any, view: dict, seat: int, actions: list[Action]) -> Action:
    info = system.info
    pieces = {p["card"]: p for p in view["pieces"] if "card" in p}
    by_type: dict[str, list[Action]] = {}  # the actions of each type, in their order
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    answers = by_type.get("ability")
    if answers and (view["stack"] or view["active"] != seat or view["phase"] != "main"):
        # instant abilities offered outside one's own Main Phase on an empty stack (404.6):
        # kept to answer a destruction on top, on the creature it destroys (402.3б)
        top = view["stack"][-1] if view["stack"] else None
        doomed = top.get("card") if top is not None and top["kind"] == "destruction" else None
        by_type["ability"] = [
            a for a in answers if doomed is not None and a.get("target") == doomed
        ]
    weaken = by_type.get("weaken", [])
    if weaken:
        return _weaken_choice(system, view, seat) or {"type": "pass"}
    defenders = by_type.get("defender", [])
    if defenders:
        chain = view["chains"][str(view["stack"][-1]["chain"])]
        source, target = pieces.get(chain["source"]), pieces.get(chain["target"])
        if source and target:
            hit = info[source["id"]].strike[2]
            best = max(defenders, key=lambda a: pieces[a["card"]]["lives"])
            d = pieces[best["card"]]
            if target["lives"] <= hit < d["lives"] and _worth(info, d) <= _worth(info, target) * 2:
                return best
        return {"type": "pass"}
    reveals = by_type.get("reveal", [])
    if reveals and not view["stack"] and view["active"] == seat:
        return reveals[0]  # a hidden card declares only instant abilities (D-21)
    strikes = by_type.get("strike", [])
    best, best_score = None, 0.2
    for a in strikes:
        me = pieces[a["card"]]
        mine = info[me["id"]]
        target = pieces.get(a.get("target"))
        if target is None:  # a hidden card: worth a blow
            score = 0.5
        else:
            theirs = info[target["id"]]
            if theirs.type in ("terrain", "equipment"):
                continue
            medium = mine.strike[1]
            score = min(medium, target["lives"]) / max(1, target["lives"])
            if mine.strike[2] >= target["lives"]:
                score += 1.0
            fights = theirs.type == "creature" and not target["closed"]
            if fights and theirs.strike[1] >= me["lives"]:
                score -= 0.6
            score += 0.05 * _worth(info, target)
            if theirs.is_flyer and not mine.is_flyer:
                score += 1.0  # 211.9: the one strike a slow action bought
        if score > best_score:
            best, best_score = a, score
    for a in by_type.get("ability", []):
        if a["ability"] in _LATER:
            continue
        me = pieces[a["card"]]
        mine = info[me["id"]]
        target = pieces.get(a.get("target"))
        x = mine.ability_x(a["ability"]) or 0
        script = _script(mine, a["ability"])
        if script is not None:
            amount = script.get("amount")
            x = amount if isinstance(amount, int) else 1
            do = script["do"]
            if target is None:
                score = 0.0
            elif do == "heal":
                score = 0.3 * min(x, target["wounds"])
            elif do == "wound":
                score = min(x, target["lives"]) / max(1, target["lives"])
                score += 1.0 if x >= target["lives"] else 0.0
            elif do == "add_lives":
                score = 0.25 * x
            elif do == "take_control":  # the enemy's creature becomes ours: take the best
                score = 1.5 + 0.1 * _worth(info, target)
            elif do == "lose_abilities":  # 407.4: worth it on a card with much text
                score = 0.25 * len(info[target["id"]].abilities)
            else:  # open
                score = 0.3
        elif a["ability"] in ("summon", "resurrection"):
            score = 0.9
        elif a["ability"] == "redistribution":
            to = pieces.get(a["to"])
            healed = min(x, target["wounds"]) if target else 0
            score = 0.4 * healed + (1.0 if to and healed >= to["lives"] else 0.0)
        elif a["ability"] == "heal":
            score = 0.3 * min(x, target["wounds"]) if target and target["owner"] == seat else -1
        elif a["ability"] == "finishing":
            score = 2.0 if target is None or target["owner"] != seat else -1
        elif target is None:
            score = 0.4
        else:
            score = min(x, target["lives"]) / max(1, target["lives"])
            score += 1.0 if x >= target["lives"] else 0.0
            score += 0.05 * _worth(info, target)
        if score > best_score:
            best, best_score = a, score
    if best is not None:
        return best
    moves = by_type.get("move", [])
    enemies = [
        _cell(p["cell"]) for p in view["pieces"] if p["owner"] != seat and p["cell"] is not None
    ]
    if moves and enemies:
        best, best_gain = None, 0
        nearest: dict[int, int] = {}  # card -> its distance to the nearest enemy
        for a in moves:
            d0 = nearest.get(a["card"])
            if d0 is None:
                hx, hy = _cell(pieces[a["card"]]["cell"])
                d0 = nearest[a["card"]] = min(max(abs(hx - x), abs(hy - y)) for x, y in enemies)
            if d0 <= 1:
                continue  # already next to an enemy: strike next turn instead
            tx, ty = _parse(a["cell"])
            d1 = min(max(abs(tx - x), abs(ty - y)) for x, y in enemies)  # _distance
            if a["type"] == "ability" and d1 != 2:
                continue  # a leap ends two cells away: a step and a blow next turn
            gain = d0 - d1
            if gain > best_gain:
                best, best_gain = a, gain
                if a["type"] == "move":
                    # a move is one step (203.2), which brings no card more than one cell
                    # nearer any enemy (king-move distances): no later move gains more, so
                    # the first to gain one is chosen without weighing the rest
                    break
        if best is not None:
            return best
    slow = by_type.get("slow", [])
    armed = sum(
        1 for p in pieces.values() if p["owner"] == seat and (p.get("slow") or 0) >= view["turn"]
    )
    if slow and armed < 2:  # 211.9: the only way to reach the last flyers; keep the rest open
        return max(slow, key=lambda a: (pieces[a["card"]]["lives"], -a["card"]))
    return {"type": "pass"}


_LATER = ("jump", "teleport", "manoeuvre")  # relocations: weighed with the moves, or never


def _script(card: Card, ability: str) -> dict | None:
    """The playable script "script<n>" of a card (its n-th ability), if that is one."""
    if not ability.startswith("script"):
        return None
    a = card.abilities[int(ability[6:])]
    return a.script


def _worth(info: dict, piece: dict) -> float:
    return _value(info[piece["id"]])


def _weaken_choice(system: Any, view: dict, seat: int) -> Action | None:
    """Weaken only when the blow back would destroy this player's own creature."""
    from engine.berserk import fight

    info = system.info
    chain = view["chains"][str(view["stack"][-1]["chain"])]
    pieces = {p["card"]: p for p in view["pieces"] if "card" in p}
    source, target = pieces.get(chain["source"]), pieces.get(chain["target"])
    if not source or not target or not chain["final"]:
        return None
    a, r = chain["final"]
    kinds = fight.strike_table(a, r)
    if source["owner"] == seat:
        back = fight.strike_value(info[target["id"]].strike, kinds[1])
        if back >= source["lives"]:
            return {"type": "weaken"}
    else:
        hit = fight.strike_value(info[source["id"]].strike, kinds[0])
        if hit >= target["lives"]:
            return {"type": "weaken"}
    return None


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
