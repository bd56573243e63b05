"""Playing cards (6.4) and resolving the Queue (6.5, 1.4.5.8): a played card enters the
Queue and resolves onto the Battlefield, an Order carries out its effects (6.4.3), an
ability copy resolves its effects (6.3.2, 6.3.3).
"""

from __future__ import annotations

from engine.voskhozhdenie.rules.state import HIDDEN_ZONES


class Playing:
    """Playing cards (6.4) and the Queue (6.5); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # playing cards (6.4) and the Queue (6.5)
    # ===================================================================================

    def play(
        self, seat: int, iid: int, x: int = 0, defender: int | None = None, pay: bool = True
    ) -> None:
        """6.4.2: reveal, pay, enter the Queue, trigger "played"."""
        s = self.s
        c = self.mut(iid)
        card = self.card(iid)
        if pay:
            price = self.cost(iid) + (x if card.cost is not None and card.cost.x else 0)
            self.player(seat)["coins"] -= price  # 6.4.2.2 (checked by validate)
        self.zone_list(iid).remove(iid)
        c["zone"] = "queue"
        self._zw += 1  # a zone or wounded status changed (``_statics``)
        s["queue"].append(
            {"kind": "card", "iid": iid, "controller": seat, "x": x, "defender": defender}
        )
        self.emit("played", player=seat, iid=iid, card=c["card"])
        if card.type == "tactic":
            # 5.6.4: Tactics resolve in the order they were played.
            s["tactics"].append(
                {
                    "id": s["next_id"],
                    "iid": iid,
                    "declarer": seat,
                    "defender": defender,
                    "battle": "battle" in card.subtypes,
                    "ready": False,
                    "attack": [],
                    "defence": [],
                }
            )
            s["next_id"] += 1
            self.trigger("tactic_declared", iid, seat)
        self.trigger("played", iid, seat)  # 6.4.2.4

    def resolve_head(self) -> None:
        """6.5.2: resolve the object at the start of the Queue."""
        self._ver += 1
        s = self.s
        obj = s["queue"][0]
        if obj.get("resolving"):  # its effects ended early (e.g. the owner was eliminated)
            self.op_finish_order({"iid": obj["iid"]}, {})
            return
        if obj["kind"] == "card" and self.card(obj["iid"]).type == "order":
            obj["resolving"] = True  # stays at the head of the Queue until carried out
        else:
            s["queue"].pop(0)
        if obj["kind"] == "card":
            iid = obj["iid"]
            info = self.info(iid)
            if self.card(iid).type == "order":
                # 6.4.3, 6.3.1.1: carry out the dynamic abilities, then to the Graveyard.
                ctx = {
                    "controller": obj["controller"],
                    "source": iid,
                    "x": obj.get("x", 0),
                    "defender": obj.get("defender"),
                }
                ops: list = []
                for i in info.kind("dynamic"):
                    ops.extend(info.abilities[i]["effects"])
                ops.append({"op": "_finish_order", "iid": iid})
                self.push(ops, ctx)
                self.emit("resolved", iid=iid)
                return
            c = self.mut(iid)
            c["zone"] = "limbo"
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            s["battlefield"].append(iid)
            c["zone"] = "battlefield"
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            c["entered"] = s["round"]
            for t in s["tactics"]:
                if t["iid"] == iid:
                    t["ready"] = True
            self.emit("resolved", iid=iid)
            self.trigger("enters_battlefield", iid, c["owner"])
            return
        # An ability copy (6.3.2, 6.3.3).
        src = obj["source"]
        info = self.info(src)
        ability = info.abilities[obj["ab"]]
        if self.s["cards"][src]["zone"] in HIDDEN_ZONES:
            # 1.4.2.6, 1.4.2.7: a card in a Hand or Main Deck stays unnamed to the table
            # (its id and ability number would tell which card it is); its effects show.
            self.emit("ability_resolved", source=None, ability=None, player=obj["controller"])
        else:
            self.emit("ability_resolved", source=src, ability=obj["ab"])
        self.push(ability["effects"], obj["ctx"])
