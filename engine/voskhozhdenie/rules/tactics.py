"""Tactic Resolution (5.6.4, AMB-22, AMB-25, CK-118): each Tactic in the order played,
the totals of its sides, the winner's wound or Superiority, outcome abilities, then
cleanup.
"""

from __future__ import annotations

from collections.abc import Mapping


class Tactics:
    """Tactic Resolution (5.6.4); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # Tactic Resolution (5.6.4)
    # ===================================================================================

    def tactic_step(self) -> None:
        """5.6.4: each Tactic in the order played: 1-2 choose, 3 outcome, 4 others,
        5 unassign, 6 to the Graveyard."""
        s = self.s
        ready = [t for t in s["tactics"] if t["ready"]]
        if not ready:
            s["tactics"] = []
            s["tr"] = None
            self.goto("round_end")
            return
        t = ready[0]
        if s["tr"].get("tactic") != t["id"]:
            s["tr"] = {"sub": "choose", "tactic": t["id"]}
        sub = s["tr"]["sub"]
        if sub == "choose":
            attack, defence = self.side_totals(t)
            s["tr"]["sub"] = "outcome"
            if attack > defence and not self.player(t["declarer"])["eliminated"]:
                options = self.tactic_targets(t)
                sup = self.superiority(t)
                if options or sup:
                    self.set_pending(
                        t["declarer"],
                        "tactic",
                        tactic=t["id"],
                        amount=attack - defence,
                        options=options,
                        superiority=sup,
                    )
            return
        if sub == "outcome":
            attack, defence = self.side_totals(t)
            s["tr"]["sub"] = "others"
            result = "win" if attack > defence else "lose" if attack < defence else "tie"
            s["tr"]["result"] = result
            if t["iid"] is not None and self.has_abilities(t["iid"]):
                info = self.info(t["iid"])
                for i in info.kind("outcome"):  # 5.6.4.3: trigger simultaneously
                    if info.abilities[i]["result"] in (result, "any"):
                        s["waiting"].append(
                            {
                                "source": t["iid"],
                                "ab": i,
                                "controller": t["declarer"],
                                "ctx": {
                                    "event_card": t["iid"],
                                    "event_player": t["declarer"],
                                    "defender": t["defender"],
                                },
                            }
                        )
            return
        if sub == "others":
            s["tr"]["sub"] = "cleanup"
            if t["iid"] is not None:
                self.trigger("tactic_resolved", t["iid"], t["declarer"])  # 5.6.4.4
            return
        # 5.6.4.5 / 5.6.4.6
        for side in ("attack", "defence"):
            for iid in list(t[side]):
                self.unassign(iid)
        s["tactics"].remove(t)
        if t["iid"] is not None and s["cards"][t["iid"]]["zone"] == "battlefield":
            self.move(t["iid"], "graveyard")
        self.emit("tactic_resolved", tactic=t["id"], result=s["tr"].get("result"))
        s["tr"] = {"sub": "choose"}

    def side_totals(self, t: Mapping) -> tuple[int, int]:
        """5.6.4.1, AMB-25: the current Strength of the Squads on each side."""
        strength = self.strength
        attack = 0
        for i in t["attack"]:
            attack += strength(i) or 0
        defence = 0
        for i in t["defence"]:
            defence += strength(i) or 0
        return attack, defence

    def tactic_targets(self, t: Mapping) -> list[int]:
        """5.6.4.2.1, AMB-25, CK-118: a Squad in this Tactic, a Squad in no Tactic, or a
        non-ruined City of the defender."""
        s = self.s
        out = []
        for iid in s["battlefield"]:
            c = s["cards"][iid]
            kind = self.card(iid).type
            if (kind == "squad" and (c["tactic"] is None or c["tactic"] == t["id"])) or (
                kind == "city"
                and t["defender"] is not None
                and c["owner"] == t["defender"]
                and not c["ruined"]
            ):
                out.append(iid)
        return out

    def superiority(self, t: Mapping) -> bool:
        if t["iid"] is None or not self.has_abilities(t["iid"]):
            return False
        return bool(self.info(t["iid"]).kind("superiority"))
