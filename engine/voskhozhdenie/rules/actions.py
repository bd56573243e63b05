"""Performing a validated action: the turn's action (5.6.3.2), activating an ability
(6.3.5, 6.3.6) and the answers to pending decisions (first player 5.3, mulligans 5.4
with AMB-01, discarding down 5.6.1.1, Decrees 5.6.2, a Tactic's wound or Superiority
5.6.4.2, the order of triggers 6.3.14, replacements AMB-31, an effect's choice 6.2).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import rng
from engine.voskhozhdenie.rules.flow import OPENING_HAND


class Actions:
    """Performing actions and answers to decisions; part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # performing actions (5.6.3.2) and answers to pending decisions
    # ===================================================================================

    def perform(self, seat: int, action: dict) -> None:
        self._ver += 1
        s = self.s
        kind = action["type"]
        pending = s["pending"]
        if pending is not None:
            s["pending"] = None
            self.perform_pending(seat, action, pending)
            return
        p = self.player(seat)
        if kind == "pass":
            p["passed"] = True  # AMB-26: final for this Actions phase
            self.emit("pass", player=seat)
        elif kind == "declare":
            self.play(seat, action["iid"], x=action.get("x", 0), defender=action.get("target"))
        elif kind == "play":
            self.play(seat, action["iid"], x=action.get("x", 0))
        elif kind == "direct_attack":
            s["tactics"].append(
                {
                    "id": s["next_id"],
                    "iid": None,
                    "declarer": seat,
                    "defender": action["target"],
                    "battle": False,
                    "ready": True,
                    "attack": [],
                    "defence": [],
                }
            )
            s["next_id"] += 1
            self.emit("direct_attack", player=seat, target=action["target"])
            self.trigger("direct_attack", None, seat)  # effects.EVENTS: no event card
        elif kind == "assign":
            c = self.mut(action["iid"])
            t = self.tactic_by_id(action["tactic"])
            t[action["side"]].append(action["iid"])
            c["tactic"] = t["id"]
            c["side"] = action["side"]
            self.emit("assign", iid=action["iid"], tactic=t["id"], side=action["side"])
            self.trigger("assigned", action["iid"], seat)
        elif kind == "activate":
            self.activate(seat, action)
        if kind != "pass" and "idle" in s:
            s["idle"]["acted"] = True
        if kind != "pass" and s["options"]["passing"] == "consecutive":
            for q in s["players"]:  # the AMB-26 alternative: only consecutive passes count
                q["passed"] = q["eliminated"]
        s["step"] = "turn_end"  # 5.6.3.2: one action per turn
        s["flag"] = False

    def activate(self, seat: int, action: Mapping) -> None:
        """6.3.5, 6.3.6: pay the cost, then a copy goes to the end of the Queue."""
        s = self.s
        iid = action["iid"]
        ab = action["ability"]
        ability = self.info(iid).abilities[ab]
        ctx = {"controller": seat, "source": iid}
        p = self.player(seat)
        for cost in ability["cost"]:
            op = cost["op"]
            if op == "pay":
                p["coins"] -= self.amount(cost["coins"], ctx)
            elif op == "discard":
                for i in action["discard"]:
                    self.discard(i)
            elif op == "wound_self":
                self.wound(iid, self.amount(cost["amount"], ctx), ctx)
            elif op == "destroy_self":
                if s["cards"][iid]["zone"] == "battlefield":
                    self.move(iid, "graveyard")
            elif op == "exile_from_graveyard":
                for i in list(p["graveyard"][: self.amount(cost["count"], ctx)]):
                    self.move(i, "oblivion")
            elif op == "sacrifice" and s["cards"][action["sacrifice"]]["zone"] == "battlefield":
                self.move(action["sacrifice"], "graveyard")
        if ability.get("limit"):
            s["used"][f"{ability['limit'][0]}:{iid}:{ab}"] = s["round"]
        s["queue"].append(
            {"kind": "ability", "source": iid, "ab": ab, "controller": seat, "ctx": ctx}
        )
        self.emit("activate", iid=iid, ability=ab)

    def perform_pending(self, seat: int, action: dict, pending: dict) -> None:
        s = self.s
        pk = pending["kind"]
        kind = action["type"]
        p = self.player(seat)
        if pk == "first_player":
            self.set_turn_order(action["seat"])
            self.emit("first_player", chooser=seat, first=action["seat"])
            for q in s["turn_order"]:
                self.draw(q, OPENING_HAND)  # 5.4
            s["stage"] = "mulligan"
            self.goto("mulligan")
        elif pk == "mulligan":
            if kind == "keep":
                s["idx"] += 1
                self.emit("keep", player=seat)
            else:
                # AMB-01: the card goes to the bottom of the Main Deck, then draw 1.
                self.move(action["iid"], "main")
                if s["options"]["mulligan"] == "shuffle":
                    rng.shuffle(s["rng"], p["main"])  # the AMB-01 alternative
                    p.pop("looked", None)  # the order they saw is gone
                p["mulligans"] += 1
                self.emit("mulligan", player=seat)
                self.draw(seat, 1)
        elif pk == "discard_down":
            self.discard(action["iid"])
        elif pk == "decree":
            if kind == "decline":
                s["idx"] += 1
                return
            iid, ab = action["iid"], action["ability"]
            s["used"][f"d:{iid}:{ab}"] = s["round"]
            ctx = {"controller": seat, "source": iid}
            s["queue"].append(
                {"kind": "ability", "source": iid, "ab": ab, "controller": seat, "ctx": ctx}
            )
            self.emit("decree", iid=iid, ability=ab)
            self.trigger("decree_issued", iid, seat)
            s["flag"] = True
            s["idx"] += 1
        elif pk == "tactic":
            t = self.tactic_by_id(pending["tactic"])
            if kind == "tactic_wound":
                self.emit("tactic_wound", target=action["target"], amount=pending["amount"])
                ctx = {"controller": seat, "defender": t["defender"] if t else None}
                self.wound(action["target"], pending["amount"], ctx)  # 5.6.4.2.1
            elif kind == "superiority" and t is not None:
                info = self.info(t["iid"])
                ctx = {"controller": seat, "source": t["iid"], "defender": t["defender"]}
                ops = [op for i in info.kind("superiority") for op in info.abilities[i]["effects"]]
                self.push(ops, ctx)  # 5.6.4.2.2
        elif pk == "order":
            w = s["waiting"].pop(
                [k for k, w in enumerate(s["waiting"]) if w["controller"] == seat][
                    action["picks"][0]
                ]
            )
            self.enqueue_trigger(w)  # 6.3.14: the owner's chosen order
        elif pk == "replacement":  # AMB-31: the chosen replacement is carried out
            chosen = pending["replacements"][action["picks"][0]]
            self.carry_out_replacement(
                chosen["source"],
                chosen["ability"],
                pending["event"],
                pending["iid"],
                pending["event_player"],
            )
        elif pk == "choose":
            op = dict(pending["op"])
            ctx = dict(pending["ctx"])
            if pending.get("pick") == "player":
                ctx["_player"] = action["picks"][0]
            else:
                op["_picks"] = list(action["picks"])
            self.push([op], ctx)
