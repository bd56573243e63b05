"""Static abilities (6.2.1.1, 6.3.10) in stage order: lost abilities (stage 4, with the
6.2.1.1.5 approximation), keywords, Strength (2.1.9, stage 7, AMB-28), cost (2.1.2,
stage 8), Supply (5.5, AMB-18), the Direct Attack limit (5.6.3.2.2.2) and prohibitions
(1.1.3, 6.2.1.1.3).
"""

from __future__ import annotations

from engine.voskhozhdenie.rules.filters import NO_FILTER

_EMPTY: list = []


class Statics:
    """Static abilities computed on demand (6.2.1.1); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # static abilities (6.2.1.1): computed on demand, in stage order
    # ===================================================================================

    def _statics(self) -> dict:
        """The static abilities in force, grouped by op, cached until the next mutation:
        {"sources": [(src, op)], "by_name": {op: [(src, op)]}, "lose": bool,
        "filtered": {op: [(src, op)] whose source still has its abilities}}."""
        hit = self._stat_cache
        if hit is not None and self._ro_ops is not None:
            return hit[3]  # a read-only caller: the state never changes
        s = self.s
        ver = self._ver
        n_cards = len(s["cards"])
        n_bf = len(s["battlefield"])
        if hit is not None and hit[1] == n_cards and hit[2] == n_bf:
            if hit[0] == ver:
                return hit[3]
            # Which sources are in force depends only on the "zone" and "wounded" of the
            # instances in "stat": with no such write since the table was found (and the
            # same "stat" list), the sources are the same ones, and so is the table.
            if hit[5] == self._zw and hit[6] is s["stat"]:
                self._stat_cache = (ver, n_cards, n_bf, hit[3], hit[4], hit[5], hit[6])
                return hit[3]
        # The table depends only on which sources are in force (and their cards): find
        # them, and reuse the table built for the same sources (here or in another state).
        cards = s["cards"]
        stat = s["stat"]
        pairs = self.sys._stat_pairs.get(id(stat))
        if pairs is None or pairs[0] is not stat or len(pairs[1]) != len(stat):
            memo = self.sys._stat_pairs
            if len(memo) > 4096:
                memo.clear()
            found = []
            for src in stat:
                info = self.info(src)
                found.append((src, info.card.type == "squad", (src, info)))
            pairs = memo[id(stat)] = (stat, found)  # holds the list: its id stays its own
        sig = []
        for src, squad, pair in pairs[1]:
            c = cards[src]
            if c["zone"] != "battlefield" or (squad and c["wounded"]):
                continue
            sig.append(pair)  # (src, info), built once
        sig_t = tuple(sig)
        if hit is not None and hit[4] == sig_t:
            table = hit[3]
        else:
            memo = self.sys._stat_memo
            table = memo.get(sig_t)
            if table is None:
                sources = []
                by_name: dict[str, list] = {}
                for src, info in sig_t:
                    for i in info.kind("static"):
                        for op in info.abilities[i]["effects"]:
                            sources.append((src, op))
                            by_name.setdefault(op["op"], []).append((src, op))
                table = {
                    "sources": sources,
                    "by_name": by_name,
                    "lose": "lose_abilities" in by_name,
                }
                if len(memo) > 4096:
                    memo.clear()
                memo[sig_t] = table
        self._stat_cache = (ver, n_cards, n_bf, table, sig_t, self._zw, stat)
        return table

    def static_sources(self) -> list[tuple[int, dict]]:
        """(source iid, static op) for every static ability on the Battlefield."""
        return self._statics()["sources"]

    def lost_abilities(self) -> set[int]:
        """Stage 6.2.1.1.1.4: instances without abilities (wounded Squads 2.3.2.3 and the
        targets of "lose_abilities" statics)."""
        s = self.s
        if not s["stat"] or self._busy:
            return set()
        key = (self._ver, len(self.s["cards"]), len(self.s["battlefield"]))
        hit = self._cache.get("lost")
        if hit is not None and hit[0] == key:
            return hit[1]
        self._busy = True
        try:
            lost = self._lost_abilities()
        finally:
            self._busy = False
        self._cache["lost"] = (key, lost)
        return lost

    def _lost_abilities(self) -> set[int]:
        removers: dict[int, set[int]] = {}
        for src, op in self.static_sources():
            if op["op"] == "lose_abilities":
                removers.setdefault(src, set()).update(self.static_targets(src, op))
        lost: set[int] = set()
        for src, targets in removers.items():
            for t in targets:
                if t in removers and src in removers[t] and t != src:
                    continue  # 6.2.1.1.5: mutually dependent, neither applies
                lost.add(t)
        return lost

    def has_abilities(self, iid: int, lost: set[int] | None = None) -> bool:
        c = self.s["cards"][iid]
        if c["wounded"] and self.card(iid).type == "squad":
            return False  # 2.3.2.3
        if lost is not None:
            return iid not in lost
        if not self.s["stat"] or not self._statics()["lose"]:
            return True
        return iid not in self.lost_abilities()

    def static_ops(self, name: str) -> list[tuple[int, dict]]:
        """Static ops of one kind whose source still has its abilities (stage 4 first)."""
        ro = self._ro_ops
        if ro is not None:
            hit = ro.get(name)
            if hit is not None:
                return hit
            if not self._busy:
                found = ro[name] = self._static_ops(name)
                return found
        return self._static_ops(name)

    def _static_ops(self, name: str) -> list[tuple[int, dict]]:
        if not self.s["stat"]:
            return []
        table = self._statics()
        found = table["by_name"].get(name, _EMPTY)
        if not found or not table["lose"]:
            return found
        # Some source removes abilities: filter, cached until the next mutation.
        s = self.s
        key = (self._ver, len(s["cards"]), len(s["battlefield"]))
        filtered = self._filtered
        if filtered is None or filtered[0] != key:
            filtered = self._filtered = (key, {})
        hit = filtered[1].get(name)
        if hit is not None:
            return hit
        lost = self.lost_abilities()
        found = [(src, op) for src, op in found if src not in lost]
        if not self._busy:  # not while the lost set itself is being computed
            filtered[1][name] = found
        return found

    def static_targets(self, src: int, op: dict) -> list[int]:
        target = op.get("target") or {"select": "self"}
        ctx = {"controller": self.s["cards"][src]["owner"], "source": src}
        if target.get("select") in ("self", "event_card"):
            return [src]
        return self.matching(target.get("filter", NO_FILTER), ctx)

    def static_applies(self, src: int, op: dict, iid: int) -> bool:
        """Does a static op of ``src`` apply to ``iid`` (without listing every target)?"""
        target = op.get("target")
        if not target:  # no target: the source itself
            return iid == src
        select = target.get("select")
        if select == "self" or select == "event_card":
            return iid == src
        ctx = {"controller": self.s["cards"][src]["owner"], "source": src}
        return self.matches(target.get("filter", NO_FILTER), iid, ctx)

    def strength(self, iid: int) -> int | None:
        """Current Strength (2.1.9): base, then static and temporary changes (stage 7);
        Strength statics apply on the Battlefield only (AMB-28)."""
        memo = self._strength
        if memo is not None and not self._busy:
            if iid in memo:
                return memo[iid]
            memo[iid] = value = self._strength_of(iid)
            return value
        return self._strength_of(iid)

    def _strength_of(self, iid: int) -> int | None:
        s = self.s
        c = s["cards"][iid]
        base = c["strength"]
        if base is None or c["zone"] != "battlefield":
            return self.card(iid).strength if base is not None else None
        total = base
        for src, op in self.static_ops("strength"):
            if self.static_applies(src, op, iid):
                amount = op["amount"]
                if type(amount) is not int:
                    amount = self.amount(amount, {"controller": s["cards"][src]["owner"]})
                total += amount
        for t in s["temp"]:
            if t["kind"] == "strength" and iid in t["iids"]:
                total += t["amount"]
        return total

    def has_keyword(self, iid: int, keyword: str) -> bool:
        if not self.has_abilities(iid):
            return False
        if keyword in self.card(iid).keywords:
            return True
        for src, op in self.static_ops("keyword"):
            if op["keyword"] == keyword and self.static_applies(src, op, iid):
                return True
        temp = self.s["temp"]
        return bool(temp) and any(
            t["kind"] == "keyword" and t["keyword"] == keyword and iid in t["iids"] for t in temp
        )

    def cost(self, iid: int) -> int:
        """The cost when interacting (2.1.2), then cost statics (stage 8), at least 0."""
        value = self.card(iid).cost_value
        for src, op in self.static_ops("cost"):
            if self.static_applies(src, op, iid):
                value += self.amount(op["amount"], {"controller": self.s["cards"][src]["owner"]})
        return max(0, value)

    def supply(self, seat: int) -> int:
        value = self.player(seat)["supply"]
        for src, op in self.static_ops("supply"):
            if self.s["cards"][src]["owner"] == seat:
                value += self.amount(op["amount"], {"controller": seat})
        return max(0, value)

    def max_direct_attacks(self) -> int:
        """5.6.3.2.2.2: non-eliminated players + 1 (plus statics)."""
        value = 1
        for p in self.s["players"]:
            if not p["eliminated"]:
                value += 1
        for src, op in self.static_ops("max_direct_attacks"):
            value += self.amount(op["amount"], {"controller": self.s["cards"][src]["owner"]})
        return value

    def prohibited(self, action: str, seat: int | None = None, iid: int | None = None) -> bool:
        """1.1.3, 6.2.1.1.3: a "cannot" static forbids, whatever permits."""
        for src, op in self.static_ops("cannot"):
            if op["action"] != action:
                continue
            owner = self.s["cards"][src]["owner"]
            ctx = {"controller": owner, "source": src}
            if (
                "player" in op
                and seat is not None
                and seat not in self.players_word(op["player"], ctx, choose=False)
            ):
                continue
            if "target" in op and (iid is None or not self.static_applies(src, op, iid)):
                continue
            return True
        return False
