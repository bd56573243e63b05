"""Triggered abilities (6.3.7-6.3.9, 6.3.13, 6.3.14, AMB-27, AMB-29) and replacement
abilities (6.3.11, 6.3.12, AMB-31).
"""

from __future__ import annotations

from collections.abc import Mapping


class Triggers:
    """Triggers and replacements (6.3.7-6.3.14); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # triggers (6.3.7-6.3.9, 6.3.13, 6.3.14) and replacements (6.3.11, 6.3.12)
    # ===================================================================================

    def trigger(self, event: str, iid: int | None, seat: int | None) -> None:
        s = self.s
        if not s["trig"]:
            return
        lost = None
        trig = s["trig"]
        index = self._trig_index
        if index is None or index[0] is not trig or index[2] != len(trig):
            memo = self.sys._trig_memo
            index = memo.get(id(trig))
            if index is None or index[0] is not trig or index[2] != len(trig):
                by_event: dict[str, list[int]] = {}
                for src in trig:
                    for name in self.info(src).events:
                        by_event.setdefault(name, []).append(src)
                if len(memo) > 4096:
                    memo.clear()
                index = memo[id(trig)] = (trig, by_event, len(trig))
            self._trig_index = index
        for src in index[1].get(event, ()):
            c = s["cards"][src]
            if c["zone"] in ("main", "gone"):
                continue  # 6.3.9: hidden zones (AMB-29: only the Main Deck is hidden)
            info = self.info(src)
            for i in info.triggered_by.get(event, ()):
                trig = info.abilities[i]["trigger"]
                if not self.event_matches(trig, src, iid, seat):
                    continue
                if lost is None:
                    lost = self.lost_abilities()
                if not self.has_abilities(src, lost):
                    continue
                s["waiting"].append(
                    {
                        "source": src,
                        "ab": i,
                        "controller": c["owner"],
                        "ctx": {"event_card": iid, "event_player": seat},
                    }
                )

    def event_matches(self, trig: Mapping, src: int, iid: int | None, seat: int | None) -> bool:
        owner = self.s["cards"][src]["owner"]
        want = trig.get("card")
        if want == "self":
            if iid != src:
                return False
        elif want is not None and (
            iid is None
            or not self.matches(want, iid, {"controller": owner, "source": src}, any_zone=True)
        ):
            return False
        who = trig.get("player", "any")
        if who == "you" and seat != owner:
            return False
        return not (who == "opponent" and (seat is None or self.allies(owner, seat)))

    def replace(
        self, event: str, iid: int | None, seat: int | None, extra: Mapping | None = None
    ) -> bool:
        """6.3.11: replacement abilities whose replaced effect is this event; True if the
        event is replaced. AMB-31: each replacement applies at most once to one event (no
        loops), and when several apply, the owner of the affected object chooses which
        one is carried out (a pending "replacement" decision; the others do not apply to
        this event unless it happens again)."""
        s = self.s
        if not s["repl"]:
            return False
        done = s.setdefault("replacing", [])
        found: list[list[int]] = []
        for src in s["repl"]:
            c = s["cards"][src]
            if c["zone"] in ("main", "gone") or not self.has_abilities(src):
                continue
            info = self.info(src)
            for i in info.kind("replacement"):
                if f"{src}:{i}:{event}:{iid}" in done:
                    continue
                rep = info.abilities[i]["replaces"]
                if rep["event"] != event or not self.event_matches(rep, src, iid, seat):
                    continue
                found.append([src, i])
        if not found:
            return False
        if len(found) == 1:
            self.carry_out_replacement(found[0][0], found[0][1], event, iid, seat)
            return True
        # AMB-31: the affected object's owner (the player of a card-less event) decides,
        # once the effect being carried out is done (6.3.12: before anything else).
        chooser = s["cards"][iid]["owner"] if iid is not None else seat
        op = {"op": "_choose_replacement", "event": event, "iid": iid, "seat": seat}
        op["found"] = found
        s["frames"].append({"ops": [op], "ctx": {"controller": chooser}})
        return True

    def carry_out_replacement(
        self, src: int, ab: int, event: str, iid: int | None, seat: int | None
    ) -> None:
        """6.3.12: prevent the event and carry out the replacing effects at once, without
        the Queue (a frame on top of the interpreter's stack)."""
        key = f"{src}:{ab}:{event}:{iid}"
        self.s.setdefault("replacing", []).append(key)
        ctx = {
            "controller": self.s["cards"][src]["owner"],
            "source": src,
            "event_card": iid,
            "event_player": seat,
        }
        effects = self.info(src).abilities[ab]["effects"]
        self.s["frames"].append({"ops": [*effects, {"op": "_end_replace", "key": key}], "ctx": ctx})
        self.emit("replaced", source=src, event=event)

    def flush_waiting(self) -> bool:
        """Queue waiting triggers; returns False if a player must order theirs."""
        s = self.s
        waiting = s["waiting"]
        if not waiting:
            return True
        for seat in self.order_from(self.sim_start()):
            mine = [w for w in waiting if w["controller"] == seat]
            if not mine:
                continue
            distinct = {(w["source"], w["ab"]) for w in mine}
            if len(mine) > 1 and len(distinct) > 1:
                self.set_pending(
                    seat,
                    "order",
                    options=list(range(len(mine))),
                    count=1,
                    triggers=[{"source": w["source"], "ability": w["ab"]} for w in mine],
                )
                return False  # 6.3.14: the owner chooses the order
            for w in mine:
                self.enqueue_trigger(w)
                waiting.remove(w)
        for w in list(waiting):  # controllers no longer in turn order
            self.enqueue_trigger(w)
            waiting.remove(w)
        return True

    def enqueue_trigger(self, w: Mapping) -> None:
        ctx = dict(w["ctx"])
        ctx.update(controller=w["controller"], source=w["source"])
        self.s["queue"].append(
            {
                "kind": "ability",
                "source": w["source"],
                "ab": w["ab"],
                "controller": w["controller"],
                "ctx": ctx,
            }
        )
