"""The dynamic effects (6.2.1, 6.2.2) of the effect language: one ``op_<name>`` handler
for each op of ``engine.voskhozhdenie.effects.DYNAMIC_OPS`` (drawing 1.4.5.2.1,
discarding, wounding, moving cards, coins and Supply, temporary effects, choices), and
the interpreter's internal ops (replacements AMB-31, finishing an Order 6.4.3).
"""

from __future__ import annotations

from typing import Any

from engine.core import rng


class Ops:
    """The handlers of the effect ops (6.2); part of ``Rules``."""

    __slots__ = ()

    # -- dynamic ops (engine.voskhozhdenie.effects.DYNAMIC_OPS) --------------------------------

    def op_draw(self, op, ctx):
        n = self.amount(op["count"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            self.draw(seat, n)

    def draw(self, seat: int, n: int) -> int:
        """1.4.5.2.1 / 1.4.5.6.1: top of the Main Deck to the Hand; as many as possible
        (6.2.2, AMB-16)."""
        p = self.player(seat)
        drawn = 0
        for _ in range(n):
            if not p["main"] or p["eliminated"] or self.prohibited("draw", seat=seat):
                break
            iid = p["main"][0]
            if self.replace("drawn", iid, seat):
                continue
            self.move(iid, "hand")
            drawn += 1
            self.trigger("drawn", iid, seat)
        if drawn:
            self.emit("draw", player=seat, count=drawn)
        return drawn

    def op_discard(self, op, ctx):
        n = self.amount(op["count"], ctx)
        if "_player_one" in op:
            seats = [op["_player_one"]]
        else:
            seats = self.players_word(op.get("player"), ctx)
        if "_picks" in op:
            for iid in op["_picks"]:
                self.discard(iid)
            return
        for k, seat in enumerate(seats):
            hand = self.player(seat)["hand"]
            if not hand or n <= 0:
                continue
            if op.get("random"):
                cards = list(hand)
                rng.shuffle(self.s["rng"], cards)
                for iid in cards[:n]:
                    self.discard(iid)
            elif len(hand) <= n:
                for iid in list(hand):
                    self.discard(iid)
            else:
                rest = [dict(op, _player_one=q) for q in seats[k + 1 :]]
                if rest:  # the others discard after this choice
                    self.push(rest, ctx)
                self.set_pending(
                    seat,
                    "choose",
                    options=list(hand),
                    count=n,
                    op=dict(op),
                    ctx=dict(ctx),
                )
                return

    def discard(self, iid: int) -> None:
        c = self.s["cards"][iid]
        seat = c["owner"]
        if self.replace("discarded", iid, seat):
            return
        self.move(iid, "graveyard")
        self.emit("discard", player=seat, iid=iid, card=c["card"])
        self.trigger("discarded", iid, seat)

    def op_mill(self, op, ctx):
        n = self.amount(op["count"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            main = self.player(seat)["main"]
            for iid in main[:n]:
                self.move(iid, "graveyard")
                self.emit("mill", player=seat, iid=iid, card=self.s["cards"][iid]["card"])

    def op_gain_coins(self, op, ctx):
        n = self.amount(op["amount"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            self.player(seat)["coins"] += max(0, n)

    def op_lose_coins(self, op, ctx):
        n = self.amount(op["amount"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            p = self.player(seat)
            p["coins"] = max(0, p["coins"] - max(0, n))

    def op_change_supply(self, op, ctx):
        n = self.amount(op["amount"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            p = self.player(seat)
            p["supply"] = max(0, p["supply"] + n)

    def op_wound(self, op, ctx):
        targets = self.select(op, ctx)
        if targets is None:
            return
        n = self.amount(op["amount"], ctx)
        for iid in targets:
            self.wound(iid, n, ctx)

    def op_heal(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.heal(iid)

    def op_restore(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.restore(iid)

    def op_destroy(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.destroy(iid)

    def _to_zone(self, op, ctx, dest: str, bottom: bool = True):
        targets = self.select(op, ctx)
        for iid in targets or ():
            if self.s["cards"][iid]["zone"] not in ("gone", "queue", dest):
                self.move(iid, dest, bottom=bottom)

    def op_exile(self, op, ctx):
        self._to_zone(op, ctx, "oblivion")

    def op_return_to_hand(self, op, ctx):
        self._to_zone(op, ctx, "hand")

    def op_to_bottom_of_deck(self, op, ctx):
        self._to_zone(op, ctx, "main")

    def op_return_from_graveyard(self, op, ctx):
        targets = self.select(op, ctx)
        for iid in targets or ():
            if self.s["cards"][iid]["zone"] == "graveyard":
                self.move(iid, "hand")

    def op_unassign(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.unassign(iid)

    def op_create_minor(self, op, ctx):
        n = self.amount(op.get("count", 1), ctx)
        for seat in self.players_word(op.get("player"), ctx):
            for _ in range(n):
                iid = self.new_instance(op["card"], seat, "limbo")
                c = self.mut(iid)  # new: already this state's own
                c["zone"] = "battlefield"
                self._zw += 1  # a zone or wounded status changed (``_statics``)
                self.s["battlefield"].append(iid)
                c["entered"] = self.s["round"]
                self.emit("created", iid=iid, card=op["card"], player=seat)
                self.trigger("enters_battlefield", iid, seat)

    def _temp(self, kind: str, value: Any, op, ctx):
        self._ver += 1
        targets = self.select(op, ctx)
        if targets is None:
            return
        entry = {
            "kind": kind,
            "iids": list(targets),
            "duration": op.get("duration", "turn"),
            "controller": ctx.get("controller"),
        }
        entry["amount" if kind == "strength" else "keyword"] = value
        self.s["temp"].append(entry)

    def op_modify_strength(self, op, ctx):
        self._temp("strength", self.amount(op["amount"], ctx), op, ctx)

    def op_grant_keyword(self, op, ctx):
        self._temp("keyword", op["keyword"], op, ctx)

    def op_play_free(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            c = self.s["cards"][iid]
            if c["zone"] in ("battlefield", "queue", "gone") or self.card(iid).cost is None:
                continue  # 2.1.2.1: no Cost, cannot be played (AMB-19)
            defender = None
            if self.card(iid).type == "tactic" and "confrontation" in self.card(iid).subtypes:
                opp = self.opponents(ctx["controller"])
                if not opp:
                    continue
                defender = opp[0]
            self.play(ctx["controller"], iid, x=0, defender=defender, pay=False)

    def op_look_at_top(self, op, ctx):
        """The player looks at the top cards of their Main Deck: the event tells everyone
        how many; the cards themselves appear in that player's view only ("looked")."""
        n = self.amount(op["count"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            p = self.player(seat)
            p["looked"] = p["main"][: max(0, n)]  # replaced, never changed in place
            self.emit("look_at_top", player=seat, count=min(n, len(p["main"])))

    def op_choose_one(self, op, ctx):
        if "_picks" in op:
            self.push(op["options"][op["_picks"][0]], ctx)
            return
        self.ask(op, ctx, ctx["controller"], list(range(len(op["options"]))), 1)

    def op_if(self, op, ctx):
        branch = op["then"] if self.condition(op["condition"], ctx) else op.get("else")
        if branch:
            self.push(branch, ctx)

    def op_repeat(self, op, ctx):
        times = self.amount(op["times"], ctx)
        if times > 0:
            self.push(list(op["effects"]) * times, ctx)

    # -- internal ops ------------------------------------------------------------------

    def op_choose_replacement(self, op, ctx):
        """AMB-31: ask the affected object's owner which replacement is carried out."""
        found = op["found"]
        self.set_pending(
            ctx["controller"],
            "replacement",
            options=list(range(len(found))),
            count=1,
            event=op["event"],
            iid=op["iid"],
            event_player=op["seat"],
            replacements=[{"source": src, "ability": ab} for src, ab in found],
        )

    def op_end_replace(self, op, ctx):
        done = self.s.get("replacing", [])
        if op["key"] in done:
            done.remove(op["key"])
        if not done:
            self.s.pop("replacing", None)

    def op_finish_order(self, op, ctx):
        """6.4.3: after its dynamic abilities, an Order goes to its owner's Graveyard."""
        iid = op["iid"]
        c = self.s["cards"][iid]
        self.s["queue"] = [
            o for o in self.s["queue"] if not (o["kind"] == "card" and o["iid"] == iid)
        ]
        if c["zone"] == "queue":
            self.mut(iid)["zone"] = "graveyard"
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            self.s["players"][c["owner"]]["graveyard"].append(iid)
