"""Bots for «Восхождение»: a random legal player and a simple heuristic player.

Both are deterministic from their seed and choose only among ``legal_actions``. The
heuristic player reads only what its seat may see (its own hand and the open zones).

    bot = make_bot("heuristic", system, seed=1)
    action = bot.choose(state, seat)
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.protocol import Action, State
from engine.voskhozhdenie.rules import Rules


class RandomBot:
    name = "random"

    def __init__(self, system: Any, seed: int = 0):
        self.system = system
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int, actions: list[Action] | None = None) -> Action:
        actions = actions if actions is not None else self.system.legal_actions(state, seat)
        return self.rng.choice(actions)


class HeuristicBot:
    """Plays affordable cards, fights Tactics it can win, wounds Cities."""

    name = "heuristic"

    def __init__(self, system: Any, seed: int = 0):
        self.system = system
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int, actions: list[Action] | None = None) -> Action:
        if actions is None:
            actions, g = self.system.legal_actions_game(state, seat)
        else:
            g = Rules(self.system, state, readonly=True)
        if len(actions) == 1:
            return actions[0]
        pending = state["pending"]
        cards = state["cards"]

        def card(iid):
            return g.card(iid)

        by_type: dict[str, list[Action]] = {}
        for a in actions:
            by_type.setdefault(a["type"], []).append(a)

        if pending is not None:
            kind = pending["kind"]
            if kind == "first_player":
                return {"type": "first_player", "seat": seat}
            if kind == "mulligan":
                expensive = [
                    a
                    for a in by_type.get("mulligan", [])
                    if card(a["iid"]).cost_value >= 5 and state["players"][seat]["mulligans"] < 2
                ]
                return expensive[0] if expensive else {"type": "keep"}
            if kind == "discard_down":
                return max(actions, key=lambda a: (card(a["iid"]).cost_value, -a["iid"]))
            if kind == "decree":
                return by_type.get("decree", actions)[0]
            if kind == "tactic":
                wounds = by_type.get("tactic_wound", [])
                amount = pending["amount"]
                cities = [
                    a
                    for a in wounds
                    if card(a["target"]).type == "city" and cards[a["target"]]["owner"] != seat
                ]
                ruined = [a for a in cities if amount >= (cards[a["target"]]["strength"] or 0)]
                if ruined:  # a City the wounds ruin (2.3.1.2): the way to win
                    return max(ruined, key=lambda a: cards[a["target"]]["strength"] or 0)
                enemy = [
                    a
                    for a in wounds
                    if not g.allies(cards[a["target"]]["owner"], seat)
                    and amount >= -(-(g.strength(a["target"]) or 0) // 2)
                ]
                if enemy:  # thin the defence for the next fight
                    return max(enemy, key=lambda a: g.strength(a["target"]) or 0)
                if cities:
                    return min(cities, key=lambda a: cards[a["target"]]["strength"])
                if "superiority" in by_type:
                    return by_type["superiority"][0]
                return {"type": "decline"}
            if kind == "replacement":
                # AMB-31: keep the card if a replacement can (hand, then deck), exile last.
                keep = {"return_to_hand": 3, "to_bottom_of_deck": 2, "exile": 0}

                def kept(a):
                    chosen = pending["replacements"][a["picks"][0]]
                    ability = g.info(chosen["source"]).abilities[chosen["ability"]]
                    return max((keep.get(op["op"], 1) for op in ability["effects"]), default=1)

                return max(actions, key=kept)
            if kind == "choose":
                # Prefer picks that hit opponents' cards, else the first offer.
                def score(a):
                    total = 0
                    for x in a["picks"]:
                        if pending.get("pick") == "player":
                            continue
                        if (
                            isinstance(x, int)
                            and x < len(cards)
                            and pending["op"]["op"] != "choose_one"
                        ):
                            owner = cards[x]["owner"]
                            total += 1 if not g.allies(owner, seat) else -1
                    return total

                return max(actions, key=score)
            return actions[0]

        p = state["players"][seat]
        tactics = {t["id"]: t for t in state["tactics"]}

        def weakest_city(owner):
            strengths = [
                cards[i]["strength"] or 0
                for i in state["battlefield"]
                if owner is not None
                and cards[i]["owner"] == owner
                and not cards[i]["ruined"]
                and card(i).type == "city"
            ]
            return min(strengths, default=0)

        # 1. Help fights: push my Tactics over the top, defend against the others'.
        best = None
        # By Tactic id, computed when first needed: the side to help, and the value of
        # helping it (the same for every Squad).
        wants: dict[int, tuple[str, bool]] = {}
        values: dict[int, int] = {}
        for a in by_type.get("assign", []):
            tid = a["tactic"]
            want = wants.get(tid)
            if want is None:
                t = tactics[tid]
                mine = g.allies(t["declarer"], seat)
                # Defend a Tactic aimed at me or an ally (or a Battle, open to all); a
                # fight between two others is theirs: joining it only saves a rival and
                # keeps a game of three or four from ever ending.
                theirs = (
                    not mine and t["defender"] is not None and not g.allies(t["defender"], seat)
                )
                want = wants[tid] = ("none" if theirs else "attack" if mine else "defence", mine)
            if a["side"] != want[0]:
                continue
            value = values.get(tid)
            if value is None:
                attack, defence = g.side_totals(tactics[tid])
                if want[1]:
                    # Win by enough to ruin the defender's weakest City, not just to win.
                    gap = defence - attack + max(1, weakest_city(tactics[tid]["defender"]))
                else:
                    gap = attack - defence
                # Past that, more attack still wounds more; more defence does nothing.
                value = values[tid] = 10 + gap if gap >= 0 else int(want[1])
            if best is None or value > best[0]:
                best = (value, a)
        if best is not None and best[0] >= 10:
            return best[1]
        # 2. Play the most expensive affordable card (Squads first).
        plays = by_type.get("play", [])
        if plays:

            def value(a):
                c = card(a["iid"])
                return (c.type == "squad", c.cost_value, a.get("x", 0), -a["iid"])

            return max(plays, key=value)
        # 3. Attack when there is something to fight with.
        ready_squads = [
            a for a in by_type.get("assign", []) if tactics[a["tactic"]]["declarer"] == seat
        ]
        my_tactics = [t for t in state["tactics"] if t["declarer"] == seat]
        if len(my_tactics) < 2 and any(
            cards[i]["owner"] == seat
            and not cards[i]["wounded"]
            and cards[i]["tactic"] is None
            and card(i).type == "squad"
            for i in state["battlefield"]
        ):
            declares = by_type.get("declare", [])
            if declares:
                return declares[0]
            if "direct_attack" in by_type:
                # the weakest opponent by City Strength
                def weakness(a):
                    return sum(
                        cards[i]["strength"] or 0
                        for i in state["battlefield"]
                        if cards[i]["owner"] == a["target"] and card(i).type == "city"
                    )

                return min(by_type["direct_attack"], key=weakness)
        if best is not None and best[0] > 0:
            return best[1]
        if ready_squads:
            return ready_squads[0]
        if "activate" in by_type and p["coins"] > 0:
            return by_type["activate"][0]
        return {"type": "pass"}


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, system: Any, seed: int = 0):
    try:
        return BOTS[name](system, seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
