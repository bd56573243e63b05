"""Zone moves (1.4.4) and the card rules of chapter 2.3: wounding, destroying, healing
and restoring Cities (2.3.1), Squads (2.3.2), Fortifications (2.3.6) and Patrons (2.3.7);
Orders go to the Graveyard (2.3.4.2), Minor components leave the game (2.1.5.3).
"""

from __future__ import annotations

from collections.abc import Mapping


def _ceil_half(value: int) -> int:
    return -(-value // 2)


class Zones:
    """Zone moves (1.4.4) and card rules (2.3); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # zone moves (1.4.4) and card rules (2.3)
    # ===================================================================================

    def move(self, iid: int, dest: str, bottom: bool = True) -> None:
        """Move an instance to ``dest`` (a zone name; individual zones are the owner's)."""
        self._ver += 1
        s = self.s
        c = s["cards"][iid]
        src = c["zone"]
        card = self.card(iid)
        if src == dest == "battlefield":
            return
        if dest == "battlefield" and card.type == "order":
            dest = "graveyard"  # 2.3.4.2
        if src == "battlefield" and card.minor and dest != "battlefield":
            dest = "gone"  # 2.1.5.3, AMB-35
        c = self.mut(iid)
        if src != "queue":
            self.zone_list(iid).remove(iid)
        # 1.4.4 step 1: effects that depend on the zone stop applying.
        for t in s["temp"]:
            if iid in t["iids"]:
                t["iids"].remove(iid)
        if src == "battlefield":
            self.unassign(iid)
            if card.type == "tactic":
                # A Tactic that leaves the Battlefield before it resolves is gone from play:
                # its Squads are removed from it (inferred from 5.6.4.5).
                for t in [t for t in s["tactics"] if t["iid"] == iid]:
                    for side in ("attack", "defence"):
                        for i in list(t[side]):
                            self.unassign(i)
                    s["tactics"].remove(t)
            c["wounded"] = False  # AMB-32
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            c["ruined"] = False
            c["strength"] = card.strength  # 2.3.6.2, AMB-32
            c["entered"] = None
        c["zone"] = dest
        self._zw += 1  # a zone or wounded status changed (``_statics``)
        if dest in ("battlefield", "gone"):
            s[dest].append(iid)
        elif dest == "main" and not bottom:
            s["players"][c["owner"]]["main"].insert(0, iid)
        else:
            s["players"][c["owner"]][dest].append(iid)
        if dest == "battlefield":
            c["entered"] = s["round"]  # AMB-24
            self.trigger("enters_battlefield", iid, c["owner"])
        if src == "battlefield":
            self.trigger("leaves_battlefield", iid, c["owner"])
            if dest == "graveyard":
                self.trigger("destroyed", iid, c["owner"])

    def unassign(self, iid: int) -> None:
        self._ver += 1
        c = self.s["cards"][iid]
        tid = c["tactic"]
        if tid is None:
            return
        c = self.mut(iid)
        for t in self.s["tactics"]:
            if t["id"] == tid:
                side = t[c["side"]]
                if iid in side:
                    side.remove(iid)
        c["tactic"] = None
        c["side"] = None

    def wound(self, iid: int, amount: int, ctx: Mapping | None = None) -> None:
        """2.3.1.5 / 2.3.2.6 / 2.3.6.2 / 2.3.7.2; amounts <= 0 do nothing (AMB-32)."""
        self._ver += 1
        s = self.s
        c = s["cards"][iid]
        if amount <= 0 or c["zone"] != "battlefield":
            return
        if self.prohibited("be_wounded", iid=iid):
            return
        if self.replace("wounded", iid, c["owner"], {"amount": amount}):
            return
        c = self.mut(iid)
        kind = self.card(iid).type
        if kind == "city":
            if c["ruined"]:
                return  # 2.3.1.4
            c["strength"] -= amount
            self.emit("wounded", iid=iid, amount=amount)
            self.trigger("wounded", iid, c["owner"])
            if self.strength(iid) <= 0:
                c["ruined"] = True  # 2.3.1.5
                self.emit("city_ruined", iid=iid)
                self.trigger("city_ruined", iid, c["owner"])
                self.check_elimination(c["owner"])
        elif kind == "squad":
            value = self.strength(iid) or 0
            if amount >= value:
                self.destroy(iid)  # 2.3.2.6.1
            elif amount >= _ceil_half(value):
                if c["wounded"]:
                    self.destroy(iid)  # 2.3.2.6.3
                else:
                    c["wounded"] = True  # 2.3.2.6.2
                    self._zw += 1  # a zone or wounded status changed (``_statics``)
                    self.unassign(iid)  # 2.3.2.5
                    self.emit("wounded", iid=iid, amount=amount)
                    self.trigger("wounded", iid, c["owner"])
            # 2.3.2.6.4: less than half does nothing
        elif kind == "fortification":
            c["strength"] -= amount
            self.emit("wounded", iid=iid, amount=amount)
            self.trigger("wounded", iid, c["owner"])
            if self.strength(iid) <= 0:
                self.destroy(iid)  # 2.3.6.2 (Strength reset in move)
        elif kind == "patron" and amount >= (self.strength(iid) or 0):
            self.destroy(iid)  # 2.3.7.2.1; else nothing (2.3.7.2.2)

    def destroy(self, iid: int) -> None:
        """To the owner's Graveyard from the Battlefield (replaceable: "destroyed")."""
        c = self.s["cards"][iid]
        if c["zone"] != "battlefield":
            return
        if self.replace("destroyed", iid, c["owner"]):
            return
        self.emit("destroyed", iid=iid)
        self.move(iid, "graveyard")

    def heal(self, iid: int) -> None:
        self._ver += 1
        c = self.s["cards"][iid]
        if c["zone"] == "battlefield" and c["wounded"]:
            if self.replace("healed", iid, c["owner"]):
                return
            c = self.mut(iid)
            c["wounded"] = False  # 2.3.2.8
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            self.emit("healed", iid=iid)
            self.trigger("healed", iid, c["owner"])

    def restore(self, iid: int) -> bool:
        self._ver += 1
        c = self.s["cards"][iid]
        kind = self.card(iid).type
        if c["zone"] != "battlefield" or kind not in ("city", "fortification"):
            return False
        if kind == "city" and c["ruined"]:
            return False  # 2.3.1.7
        self.mut(iid)["strength"] = self.card(iid).strength  # 2.3.1.8, 2.3.6.5
        return True
