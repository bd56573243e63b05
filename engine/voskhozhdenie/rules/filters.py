"""The terms of the effect language (6.2): filters over card instances, selectors'
player words, amounts and conditions (as ``engine.voskhozhdenie.effects`` defines them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import EngineBug
from engine.voskhozhdenie.cards import Card

ZONE_NAMES = {"main_deck": "main"}  # effect-language zone names -> state zone names
NO_FILTER: dict = {}  # a selector without "filter" (never changed)


class _Filter:
    """An effect-language filter, prepared once: its zone and owner words, whether it
    needs the instance's state, and the verdict of its card-level keys by card id."""

    __slots__ = ("by_card", "flt", "owner", "state", "zone")

    def __init__(self, flt: Mapping):
        self.flt = flt  # keeps the dict alive, so its id names it while memoised
        zone = flt.get("zone")
        self.zone = None if zone is None else ZONE_NAMES.get(zone, zone)
        self.owner = flt.get("owner", "any")
        card_keys = ("type", "subtype", "colour", "minor", "name")
        self.by_card: dict[str, bool] | None = {} if any(k in flt for k in card_keys) else None
        state_keys = ("wounded", "assigned", "ruined", "max_strength", "min_strength")
        self.state = any(k in flt for k in (*state_keys, "keyword", "other"))

    def card_ok(self, card: Card, card_id: str) -> bool:
        flt = self.flt
        if "type" in flt:
            types = flt["type"] if isinstance(flt["type"], list) else [flt["type"]]
            if card.type not in types:
                return False
        if "subtype" in flt:
            subs = flt["subtype"] if isinstance(flt["subtype"], list) else [flt["subtype"]]
            if not set(subs) & set(card.subtypes):
                return False
        if "colour" in flt:
            cols = flt["colour"] if isinstance(flt["colour"], list) else [flt["colour"]]
            if not set(cols) & set(card.colours):
                return False
        if "minor" in flt and card.minor != flt["minor"]:
            return False
        return not ("name" in flt and card_id != flt["name"])


# Prepared filters by the id of their dict (the entry holds the dict, so the id is not
# reused while it is here). Filters are card data or built once per use, never changed
# after their first match.
_FILTERS: dict[int, _Filter] = {}


_OWNED: dict[tuple[int, str, bool], tuple[Mapping, dict]] = {}


def with_owner(flt: Mapping, owner: str, force: bool = True) -> dict:
    """A copy of a card-data filter with its "owner" set (or defaulted: ``force=False``),
    made once per filter and owner."""
    key = (id(flt), owner, force)
    hit = _OWNED.get(key)
    if hit is not None and hit[0] is flt:
        return hit[1]
    derived = dict(flt)
    if force:
        derived["owner"] = owner
    else:
        derived.setdefault("owner", owner)
    if len(_OWNED) > 4096:
        _OWNED.clear()
    _OWNED[key] = (flt, derived)  # holds ``flt``: its id is not reused while here
    return derived


def _compile_filter(flt: Mapping) -> _Filter:
    if len(_FILTERS) > 8192:
        _FILTERS.clear()
    f = _FILTERS[id(flt)] = _Filter(flt)
    return f


class Selection:
    """Filters, selectors, amounts and conditions of effects (6.2); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # filters, selectors, amounts, conditions
    # ===================================================================================

    def matches(self, flt: Mapping, iid: int, ctx: Mapping, any_zone: bool = False) -> bool:
        """Does instance ``iid`` match an effect-language filter? ``any_zone``: a filter
        without "zone" matches in every zone (trigger and replacement filters: the card of
        a "destroyed" or "discarded" event is already in the Graveyard)."""
        f = _FILTERS.get(id(flt))
        if f is None or f.flt is not flt:
            f = _compile_filter(flt)
        c = self.s["cards"][iid]
        zone = f.zone
        if zone is None:
            if not any_zone and c["zone"] != "battlefield":
                return False
        elif c["zone"] != zone:
            return False
        owner = f.owner
        if owner != "any":
            me = ctx.get("controller")
            if owner == "you":
                if c["owner"] != me:
                    return False
            elif owner == "opponent":
                if me is None or self.allies(me, c["owner"]):
                    return False
            elif owner == "ally":
                if me is None or c["owner"] == me or not self.allies(me, c["owner"]):
                    return False
            elif owner == "defender" and c["owner"] != ctx.get("defender"):
                return False
        by_card = f.by_card
        if by_card is not None:  # type, subtype, colour, minor, name: fixed per card
            ok = by_card.get(c["card"])
            if ok is None:
                cid = c["card"]
                ok = by_card[cid] = f.card_ok(self.sys.info(cid).card, cid)
            if not ok:
                return False
        if not f.state:
            return True
        return self._state_matches(flt, c, iid, ctx)

    def _state_matches(self, flt: Mapping, c: dict, iid: int, ctx: Mapping) -> bool:
        """The checks of ``matches`` that need the instance's state (``_Filter.state``)."""
        if "wounded" in flt and bool(c["wounded"]) != flt["wounded"]:
            return False
        if "assigned" in flt and (c["tactic"] is not None) != flt["assigned"]:
            return False
        if "ruined" in flt and bool(c["ruined"]) != flt["ruined"]:
            return False
        if "max_strength" in flt or "min_strength" in flt:
            value = self.strength(iid)
            if value is None:
                return False
            if "max_strength" in flt and value > flt["max_strength"]:
                return False
            if "min_strength" in flt and value < flt["min_strength"]:
                return False
        if "keyword" in flt and not self.has_keyword(iid, flt["keyword"]):
            return False
        return not (flt.get("other") and iid == ctx.get("source"))

    def zone_candidates(self, flt: Mapping, ctx: Mapping) -> list[int]:
        s = self.s
        zone = flt.get("zone", "battlefield")
        zone = ZONE_NAMES.get(zone, zone)
        if zone == "battlefield":
            return list(s["battlefield"])
        if zone == "queue":
            return [o["iid"] for o in s["queue"] if o["kind"] == "card"]
        out = []
        for p in s["players"]:
            out.extend(p[zone])
        return out

    def matching(self, flt: Mapping, ctx: Mapping) -> list[int]:
        """The instances of the filter's zone that match it, in zone order."""
        return self.prefilter(flt, ctx, self.zone_candidates(flt, ctx), True)

    def prefilter(self, flt: Mapping, ctx: Mapping, candidates: list[int], full: bool) -> list:
        """``candidates`` that pass the filter's zone, owner and card-level keys (the
        checks of ``matches`` that need no rules); with ``full`` only those that match."""
        f = _FILTERS.get(id(flt))
        if f is None or f.flt is not flt:
            f = _compile_filter(flt)
        owner = f.owner
        me = ctx.get("controller")
        if owner not in ("any", "you", "opponent"):  # the other words: ask ``matches``
            return [i for i in candidates if self.matches(flt, i, ctx)] if full else candidates
        if owner == "opponent" and me is None:
            return []
        players = self.s["players"]
        team = players[me]["team"] if owner == "opponent" else None
        cards = self.s["cards"]
        zone = f.zone or "battlefield"
        by_card = f.by_card
        out = []
        for i in candidates:
            c = cards[i]
            if c["zone"] != zone:
                continue
            if owner == "you":
                if c["owner"] != me:
                    continue
            elif team is not None and players[c["owner"]]["team"] == team:
                continue
            if by_card is not None:
                cid = c["card"]
                ok = by_card.get(cid)
                if ok is None:
                    ok = by_card[cid] = f.card_ok(self.sys.info(cid).card, cid)
                if not ok:
                    continue
            out.append(i)
        if full and f.state:  # the other checks of ``matches`` are made above
            return [i for i in out if self._state_matches(flt, cards[i], i, ctx)]
        return out

    def count_matching(self, flt: Mapping, ctx: Mapping, enough: int | None = None) -> int:
        """How many instances match (counting stops at ``enough``)."""
        found = self.prefilter(flt, ctx, self.zone_candidates(flt, ctx), False)
        f = _FILTERS[id(flt)]  # prepared by ``prefilter``
        if not f.state and f.owner in ("any", "you", "opponent"):
            # ``prefilter`` made every check ``matches`` would make: each one matches.
            count = len(found)
            return enough if enough is not None and 0 < enough < count else count
        count = 0
        if f.owner in ("any", "you", "opponent"):
            # ``prefilter`` made the other checks of ``matches``: only the state remains.
            cards = self.s["cards"]
            for i in found:
                if self._state_matches(flt, cards[i], i, ctx):
                    count += 1
                    if count == enough:
                        break
            return count
        for i in found:
            if self.matches(flt, i, ctx):
                count += 1
                if count == enough:
                    break
        return count

    def amount(self, value: Any, ctx: Mapping) -> int:
        if isinstance(value, int):
            return value
        if isinstance(value, Mapping):
            if value.get("x"):
                return int(ctx.get("x") or 0)
            if "count" in value:
                flt = value["count"]
                return len(self.matching(flt, ctx))
        raise EngineBug(f"bad amount {value!r}")

    def players_word(self, word: str | None, ctx: Mapping, choose: bool = True) -> list[int]:
        """The seats an effect's ``player`` word names (choose_opponent is resolved by a
        pending choice before this is called: ctx["_player"])."""
        me = ctx.get("controller")
        if word in (None, "you"):
            return [me]
        if word == "each_opponent":
            return self.opponents(me)
        if word == "each_player":
            return [q for q in self.order_from(me) if not self.player(q)["eliminated"]]
        if word == "defender":
            return [ctx["defender"]] if ctx.get("defender") is not None else []
        if word == "event_player":
            return [ctx["event_player"]] if ctx.get("event_player") is not None else []
        if word == "owner":
            ref = ctx.get("event_card")
            if ref is None:
                ref = ctx.get("source")
            return [self.s["cards"][ref]["owner"]] if ref is not None else [me]
        if word == "choose_opponent":
            if "_player" in ctx:
                return [ctx["_player"]]
            return self.opponents(me)[:1] if not choose else self.opponents(me)
        raise EngineBug(f"bad player word {word!r}")

    def condition(self, cond: Mapping, ctx: Mapping) -> bool:
        ((name, arg),) = cond.items()
        me = ctx.get("controller")

        def amount_of(a: Any) -> int:
            if isinstance(a, Mapping) and "amount" in a:
                return self.amount(a["amount"], ctx)
            return self.amount(a, ctx)

        if name == "all":
            return all(self.condition(c, ctx) for c in arg)
        if name == "any":
            return any(self.condition(c, ctx) for c in arg)
        if name == "not":
            return not self.condition(arg, ctx)
        if name == "control":
            flt = with_owner(arg["filter"], "you", force=False)
            least = arg.get("min", 1)
            if "max" not in arg:  # enough once ``least`` are found
                return self.count_matching(flt, ctx, least) >= least
            count = self.count_matching(flt, ctx)
            return count >= least and count <= arg["max"]
        if name == "opponent_has":
            flt = with_owner(arg["filter"], "opponent")
            least = arg.get("min", 1)
            return self.count_matching(flt, ctx, least) >= least
        if name == "coins_at_least":
            return self.player(me)["coins"] >= amount_of(arg)
        if name == "hand_at_most":
            return len(self.player(me)["hand"]) <= amount_of(arg)
        if name == "hand_at_least":
            return len(self.player(me)["hand"]) >= amount_of(arg)
        if name == "round_at_least":
            return self.s["round"] >= amount_of(arg)
        if name == "cities_ruined_at_least":
            word = arg.get("player", "you") if isinstance(arg, Mapping) else "you"
            need = amount_of(arg)
            for q in self.players_word(word, ctx, choose=False):
                ruined = sum(
                    1
                    for i in self.s["battlefield"]
                    if self.s["cards"][i]["owner"] == q and self.s["cards"][i]["ruined"]
                )
                if ruined >= need:
                    return True
            return False
        raise EngineBug(f"unknown condition {name!r}")
