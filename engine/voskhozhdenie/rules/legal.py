"""Legal actions: the candidates ``legal_actions`` lists and the validation of every
action against the rules, with the rule it breaks: the Actions phase (5.6.3.2: play,
declare, Direct Attack, assign), activated abilities and their costs (6.3.5, 6.3.6) and
the answers to pending decisions (5.3, 5.4, 5.6.1.1, 5.6.2, 5.6.4.2, 6.2, 6.3.14,
AMB-31).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from engine.core.errors import EngineBug, IllegalAction, NotYourTurn
from engine.core.protocol import Action
from engine.voskhozhdenie.rules.filters import NO_FILTER, with_owner
from engine.voskhozhdenie.rules.flow import MAX_MULLIGANS

MAX_COMBOS = 24  # bound on listed combinations of picks


class Legal:
    """Candidate actions and their validation; part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # actions: candidates (for legal_actions), validation, performing
    # ===================================================================================

    def candidates(self, seat: int) -> list[Action]:
        s = self.s
        pending = s["pending"]
        if pending is not None:
            kind = pending["kind"]
            if kind == "first_player":
                return [{"type": "first_player", "seat": q} for q in pending["options"]]
            if kind == "mulligan":
                hand = self.player(seat)["hand"]
                return [{"type": "keep"}] + [{"type": "mulligan", "iid": i} for i in hand]
            if kind == "discard_down":
                return [{"type": "discard", "iid": i} for i in pending["options"]]
            if kind == "decree":
                return [*self.available_decrees(seat), {"type": "decline"}]
            if kind == "tactic":
                out = [{"type": "tactic_wound", "target": i} for i in pending["options"]]
                if pending["superiority"]:
                    out.append({"type": "superiority"})
                return [*out, {"type": "decline"}]
            if kind in ("choose", "order", "replacement"):
                options = pending["options"]
                count = min(pending["count"], len(options))
                combos = itertools.islice(itertools.combinations(options, count), MAX_COMBOS)
                out = [
                    {"type": "choose", "choice_id": pending["id"], "picks": list(c)} for c in combos
                ]
                if pending.get("optional"):
                    out.append({"type": "choose", "choice_id": pending["id"], "picks": []})
                return out
            return []
        out: list[Action] = [{"type": "pass"}]
        trusted = self._trusted = []
        p = self.player(seat)
        opponents = self.opponents(seat)
        # Playing and declaring (6.4.2, 5.6.3.2.2, 5.6.3.2.4): checked here once per card
        # (the same checks as ``validate``; a test compares both paths).
        fast = self._fast
        target = trusted if fast else out
        can_declare = not self.prohibited("declare_tactic", seat=seat)
        can_orders = not self.prohibited("play_orders", seat=seat)
        coins = p["coins"]
        for zone in ("hand", "reinforcement"):
            for iid in p[zone]:
                card = self.card(iid)
                kind = card.type
                if kind == "city" or (kind == "tactic" and zone != "hand"):
                    continue
                if fast:
                    if card.cost is None or self.cost(iid) > coins:
                        continue
                    if kind == "tactic" and not can_declare:
                        continue
                    if kind == "order" and not can_orders:
                        continue
                xs = self.x_options(iid, seat)
                if kind != "tactic":
                    target.extend(self._with_x({"type": "play", "iid": iid}, x) for x in xs)
                elif "confrontation" in card.subtypes:
                    for q in opponents:
                        target.extend(
                            self._with_x({"type": "declare", "iid": iid, "target": q}, x)
                            for x in xs
                        )
                else:
                    target.extend(self._with_x({"type": "declare", "iid": iid}, x) for x in xs)
        for q in opponents:
            out.append({"type": "direct_attack", "target": q})
        ready = [t for t in s["tactics"] if t["ready"]]
        if ready:
            for iid in s["battlefield"]:
                c = s["cards"][iid]
                if c["owner"] == seat and self.card(iid).type == "squad" and c["tactic"] is None:
                    try:
                        self.check_assignable(seat, iid)
                    except IllegalAction:
                        continue
                    for t in ready:  # checked once per Squad: no need to validate again
                        trusted.extend(
                            {"type": "assign", "iid": iid, "tactic": t["id"], "side": side}
                            for side in ("attack", "defence")
                        )
        for iid in s["battlefield"]:
            if s["cards"][iid]["owner"] != seat:
                continue
            info = self.info(iid)
            for i in info.kind("activated"):
                out.append(self.activation(iid, i, seat))
        return out

    def action_phase_actions(self, seat: int) -> list[Action]:
        """``legal_actions`` in the Actions phase: the candidates of ``candidates`` in the
        same order, each checked once here with the checks of ``validate`` (the caller
        made sure that ``seat`` is the active player and the Queue is empty; a test
        compares this with validating every candidate)."""
        s = self.s
        cards = s["cards"]
        infos = self.sys._infos
        p = s["players"][seat]
        out: list[Action] = [{"type": "pass"}]
        opponents = self.opponents(seat)
        cannot = bool(self.static_ops("cannot"))  # any prohibition at all (1.1.3)?
        can_declare = not (cannot and self.prohibited("declare_tactic", seat=seat))
        if opponents and can_declare:  # 5.6.3.2.2.2
            existing = sum(1 for t in s["tactics"] if t["iid"] is None)
            if existing < self.max_direct_attacks():
                out.extend({"type": "direct_attack", "target": q} for q in opponents)
        ready = [t["id"] for t in s["tactics"] if t["ready"]]
        used = s["used"]
        squads = []  # Squads that may be assignable (checked below)
        for iid in s["battlefield"]:
            c = cards[iid]
            if c["owner"] != seat:
                continue
            try:
                info = infos[c["card"]]
            except KeyError:
                info = self.sys.info(c["card"])
            if ready and c["tactic"] is None and not c["wounded"] and info.card.type == "squad":
                squads.append(iid)
            for i in info.activated:  # own card, on the Battlefield, its ability
                pay = info.pay_only.get(i)
                if pay is not None:  # the checks of activation_error for a coin cost
                    if not self.has_abilities(iid):
                        continue
                    limit = pay[1]
                    if limit and f"{limit[0]}:{iid}:{i}" in used:
                        continue
                    if p["coins"] < pay[0]:
                        continue
                    out.append({"type": "activate", "iid": iid, "ability": i})
                    continue
                action = self.activation(iid, i, seat)
                if self.activation_error(seat, iid, i, action) is None:
                    out.append(action)
        # Playing and declaring (6.4.2, 5.6.3.2.2, 5.6.3.2.4).
        can_orders = not (cannot and self.prohibited("play_orders", seat=seat))
        coins = p["coins"]
        cost_ops = self.static_ops("cost")
        for zone in ("hand", "reinforcement"):
            for iid in p[zone]:
                try:
                    card = infos[cards[iid]["card"]].card
                except KeyError:
                    card = self.info(iid).card
                kind = card.type
                if kind == "city" or (kind == "tactic" and zone != "hand"):
                    continue
                printed = card.cost
                if printed is None:
                    continue
                cost = self.cost(iid) if cost_ops else max(0, card.cost_value)
                if cost > coins:
                    continue
                if kind == "tactic":
                    if not can_declare:
                        continue
                elif kind == "order" and not can_orders:
                    continue
                if not printed.x:
                    if kind != "tactic":
                        out.append({"type": "play", "iid": iid})
                    elif "confrontation" in card.subtypes:
                        out.extend({"type": "declare", "iid": iid, "target": q} for q in opponents)
                    else:
                        out.append({"type": "declare", "iid": iid})
                    continue
                xs = range(0, max(0, min(coins - cost, 10)) + 1)
                if kind != "tactic":
                    out.extend(self._with_x({"type": "play", "iid": iid}, x) for x in xs)
                elif "confrontation" in card.subtypes:
                    for q in opponents:
                        out.extend(
                            self._with_x({"type": "declare", "iid": iid, "target": q}, x)
                            for x in xs
                        )
                else:
                    out.extend(self._with_x({"type": "declare", "iid": iid}, x) for x in xs)
        # Assigning (5.6.3.2.3): each Squad checked once, for every (Tactic, side).
        if squads:
            may_assign = not (cannot and self.prohibited("assign", seat=seat))
            rnd = s["round"]
            for iid in squads:
                if cards[iid]["entered"] == rnd and not self.has_keyword(iid, "zeal"):
                    continue
                if not may_assign or (cannot and self.prohibited("be_assigned", iid=iid)):
                    continue
                for tid in ready:
                    out.append({"type": "assign", "iid": iid, "tactic": tid, "side": "attack"})
                    out.append({"type": "assign", "iid": iid, "tactic": tid, "side": "defence"})
        return out

    @staticmethod
    def _with_x(action: dict, x: int | None) -> dict:
        if x is not None:
            action["x"] = x
        return action

    def x_options(self, iid: int, seat: int) -> list[int | None]:
        card = self.card(iid)
        if card.cost is None or not card.cost.x:
            return [None]
        spare = self.player(seat)["coins"] - self.cost(iid)
        return list(range(0, max(0, min(spare, 10)) + 1))

    def activation(self, iid: int, ab: int, seat: int) -> dict:
        """An activate action with concrete cost choices (first cards that fit)."""
        action: dict = {"type": "activate", "iid": iid, "ability": ab}
        ability = self.info(iid).abilities[ab]
        for cost in ability["cost"]:
            if cost["op"] == "discard":
                n = self.amount(cost["count"], {"controller": seat})
                action["discard"] = list(self.player(seat)["hand"][:n])
            elif cost["op"] == "sacrifice":
                ctx = {"controller": seat, "source": iid}
                if cost["target"]["select"] == "self":
                    action["sacrifice"] = iid
                else:  # the first card that fits
                    flt = with_owner(cost["target"].get("filter", NO_FILTER), "you")
                    found = self.prefilter(flt, ctx, self.zone_candidates(flt, ctx), False)
                    action["sacrifice"] = next(
                        (i for i in found if self.matches(flt, i, ctx)), None
                    )
        return action

    def validate(self, seat: int, action: Mapping) -> None:
        """Raise IllegalAction (with the rule) unless ``action`` is legal for ``seat``."""
        s = self.s
        kind = action.get("type")
        pending = s["pending"]
        if pending is not None:
            self.validate_pending(seat, action, pending)
            return
        if s["step"] != "action" or s["active"] != seat:
            raise NotYourTurn("It is not your turn.", "5.6.3")
        if s["queue"] or s["frames"] or s["waiting"]:
            raise IllegalAction("The Queue must be empty before anyone acts.", "5.7")
        p = self.player(seat)
        if kind == "pass":
            return
        if kind in ("declare", "play"):
            iid = self.own_card(action, seat)
            c = s["cards"][iid]
            card = self.card(iid)
            if kind == "declare":
                if card.type != "tactic":
                    raise IllegalAction("Only a Tactic can be declared.", "5.6.3.2.2")
                if c["zone"] != "hand":
                    raise IllegalAction("You declare Tactics from your hand.", "5.6.3.2.2")
                if self.prohibited("declare_tactic", seat=seat):
                    raise IllegalAction("An effect forbids you to declare Tactics.", "1.1.3")
                if "confrontation" in card.subtypes:
                    target = action.get("target")
                    if target not in self.opponents(seat):
                        raise IllegalAction(
                            "A Confrontation is declared against exactly one opponent.",
                            "5.6.3.2.2.1",
                        )
            else:
                if card.type == "tactic":
                    raise IllegalAction("Tactics are declared, not played.", "5.6.3.2.2")
                if c["zone"] not in ("hand", "reinforcement"):
                    raise IllegalAction(
                        "You can play cards from your hand or Reinforcement Deck.", "5.6.3.2.4"
                    )
                if card.type == "order" and self.prohibited("play_orders", seat=seat):
                    raise IllegalAction("An effect forbids you to play Orders.", "1.1.3")
            if card.cost is None:
                raise IllegalAction("A card without a Cost cannot be played.", "2.1.2.1")
            x = action.get("x", 0) if card.cost.x else 0
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                raise IllegalAction("X must be a whole number of at least 0.", "2.1.2.2")
            if self.cost(iid) + x > p["coins"]:
                raise IllegalAction("You do not have enough coins to pay the cost.", "6.4.2.2")
            return
        if kind == "direct_attack":
            if action.get("target") not in self.opponents(seat):
                raise IllegalAction(
                    "A Direct Attack is made against exactly one opponent.", "5.6.3.2.2.1"
                )
            existing = sum(1 for t in s["tactics"] if t["iid"] is None)
            if existing >= self.max_direct_attacks():
                raise IllegalAction(
                    "There are already as many Direct Attacks as non-eliminated players + 1.",
                    "5.6.3.2.2.2",
                )
            if self.prohibited("declare_tactic", seat=seat):
                raise IllegalAction("An effect forbids you to declare Tactics.", "1.1.3")
            return
        if kind == "assign":
            iid = self.own_card(action, seat)
            self.check_assignable(seat, iid)
            tactic = self.tactic_by_id(action.get("tactic"))
            if tactic is None or not tactic["ready"]:
                raise IllegalAction("There is no such Tactic in play.", "5.6.3.2.3")
            if action.get("side") not in ("attack", "defence"):
                raise IllegalAction("Choose the side: attack or defence.", "5.6.3.2.3.2")
            return
        if kind == "activate":
            self.validate_activation(seat, action)
            return
        raise IllegalAction(f"Unknown action {kind!r} now.", "5.6.3.2")

    def check_assignable(self, seat: int, iid: int) -> None:
        """5.6.3.2.3 with AMB-23/AMB-24: may ``seat`` assign this Squad to a Tactic?"""
        s = self.s
        c = s["cards"][iid]
        if self.card(iid).type != "squad" or c["zone"] != "battlefield":
            raise IllegalAction(
                "You can assign only your own Squads on the Battlefield.", "5.6.3.2.3"
            )
        if c["wounded"]:
            raise IllegalAction("A wounded Squad cannot be assigned.", "2.3.2.4")
        if c["tactic"] is not None:
            raise IllegalAction("This Squad is already assigned to a Tactic.", "5.6.3.2.3")
        if c["entered"] == s["round"] and not self.has_keyword(iid, "zeal"):
            raise IllegalAction(
                "A Squad summoned this round needs Zeal to be assigned.", "5.6.3.2.3.1"
            )
        if self.prohibited("assign", seat=seat) or self.prohibited("be_assigned", iid=iid):
            raise IllegalAction("An effect forbids this assignment.", "1.1.3")

    def own_card(self, action: Mapping, seat: int) -> int:
        iid = action.get("iid")
        if not isinstance(iid, int) or isinstance(iid, bool) or not 0 <= iid < len(self.s["cards"]):
            raise IllegalAction("There is no such card.")
        if self.s["cards"][iid]["owner"] != seat:
            raise IllegalAction("That card is not yours.", "5.6.3.2.3")
        return iid

    def tactic_by_id(self, tid: Any) -> dict | None:
        for t in self.s["tactics"]:
            if t["id"] == tid:
                return t
        return None

    def validate_activation(self, seat: int, action: Mapping) -> None:
        s = self.s
        iid = self.own_card(action, seat)
        info = self.info(iid)
        ab = action.get("ability")
        if ab not in info.kind("activated"):
            raise IllegalAction("That card has no such activated ability.", "6.3.1.3")
        if s["cards"][iid]["zone"] != "battlefield":
            raise IllegalAction("Only cards on the Battlefield can activate abilities.", "6.3.6")
        error = self.activation_error(seat, iid, ab, action)
        if error is not None:
            raise IllegalAction(*error)

    def activation_error(
        self, seat: int, iid: int, ab: int, action: Mapping
    ) -> tuple[str, str] | None:
        """Why one's own card on the Battlefield cannot activate ability ``ab`` as
        ``action`` says (message, rule), or None if it can (6.3.5)."""
        s = self.s
        if not self.has_abilities(iid):
            return "This card has lost its abilities.", "2.3.2.3"
        ability = self.info(iid).abilities[ab]
        limit = ability.get("limit")
        if limit and f"{limit[0]}:{iid}:{ab}" in s["used"]:
            return f"This ability can be activated once per {limit}.", "6.3.5"
        p = self.player(seat)
        for cost in ability["cost"]:
            op = cost["op"]
            ctx = {"controller": seat, "source": iid}
            if op == "pay" and p["coins"] < self.amount(cost["coins"], ctx):
                return "You do not have enough coins.", "6.3.5"
            if op == "discard":
                n = self.amount(cost["count"], ctx)
                picks = action.get("discard") or []
                if (
                    len(picks) != n
                    or len(set(picks)) != n
                    or any(i not in p["hand"] for i in picks)
                ):
                    return f"Discard exactly {n} card(s) from your hand.", "6.3.5"
            if op == "exile_from_graveyard" and len(p["graveyard"]) < self.amount(
                cost["count"], ctx
            ):
                return "Not enough cards in your Graveyard.", "6.3.5"
            if op == "sacrifice":
                target = action.get("sacrifice")
                flt = with_owner(cost["target"].get("filter", NO_FILTER), "you")
                if cost["target"]["select"] == "self":
                    ok = target == iid
                else:
                    ok = (
                        isinstance(target, int)
                        and target in self.zone_candidates(flt, ctx)
                        and self.matches(flt, target, ctx)
                    )
                if not ok:
                    return "Choose one of your cards to sacrifice.", "6.3.5"
        return None

    def validate_pending(self, seat: int, action: Mapping, pending: Mapping) -> None:
        if pending["player"] != seat:
            raise NotYourTurn("Another player must decide first.")
        kind = action.get("type")
        pk = pending["kind"]
        p = self.player(seat)
        if pk == "first_player":
            if kind != "first_player" or action.get("seat") not in pending["options"]:
                raise IllegalAction("Choose which player takes the first turn.", "5.3")
            return
        if pk == "mulligan":
            if kind == "keep":
                return
            if kind != "mulligan":
                raise IllegalAction("Mulligan a card or keep your hand.", "5.4")
            if p["mulligans"] >= MAX_MULLIGANS:
                raise IllegalAction("You cannot mulligan more than five times.", "5.4")
            if action.get("iid") not in p["hand"]:
                raise IllegalAction("Choose a card from your hand.", "5.4")
            return
        if pk == "discard_down":
            if kind != "discard" or action.get("iid") not in pending["options"]:
                raise IllegalAction(
                    "Discard a card from your hand down to your Supply value.", "5.6.1.1"
                )
            return
        if pk == "decree":
            if kind == "decline":
                return
            wanted = {"type": "decree", "iid": action.get("iid"), "ability": action.get("ability")}
            if kind != "decree" or wanted not in self.available_decrees(seat):
                raise IllegalAction("You cannot issue that Decree now.", "5.6.2.1")
            return
        if pk == "tactic":
            if kind == "decline":
                return
            if kind == "superiority" and pending["superiority"]:
                return
            if kind == "tactic_wound" and action.get("target") in pending["options"]:
                return
            raise IllegalAction(
                "Wound a Squad in this Tactic, a Squad in no Tactic or a City of the "
                "defender, or use Superiority.",
                "5.6.4.2.1",
            )
        if pk in ("choose", "order", "replacement"):
            if kind != "choose" or action.get("choice_id") != pending["id"]:
                raise IllegalAction("Answer the pending choice.", "6.2")
            picks = action.get("picks")
            count = min(pending["count"], len(pending["options"]))
            if (
                not isinstance(picks, list)
                or len(set(map(repr, picks))) != len(picks)
                or any(x not in pending["options"] for x in picks)
            ):
                raise IllegalAction("Pick from the offered options.", "6.2")
            if len(picks) != count and not (pending.get("optional") and len(picks) <= count):
                raise IllegalAction(f"Pick exactly {count} option(s).", "6.2")
            return
        raise EngineBug(f"unknown pending kind {pk!r}")
