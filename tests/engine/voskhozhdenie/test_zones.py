"""Checklist 3.3 (zones and visibility) and 3.4 (card attributes): CK-045..CK-066."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction
from engine.voskhozhdenie.cards import CARD_TYPES, Cost
from tests.engine.voskhozhdenie.helpers import (
    card,
    game,
    new_system,
    place,
    shown_iids,
    start,
    to_actions,
    zone_of,
)


@pytest.mark.rule("1.4.5.2", "1.4.2.6", "CK-045")
def test_main_deck_shows_only_its_count_to_everyone_ck045(system):
    state = start(system)
    for viewer in (0, 1, None):
        view = system.view(state, viewer)
        for p, vp in zip(state["players"], view["players"], strict=True):
            assert vp["main_count"] == len(p["main"])
            assert "main" not in vp
            assert not shown_iids(view) & set(p["main"])
    assert "rng" not in json.dumps(system.view(state, 0))


@pytest.mark.rule("1.4.2.1", "CK-046")
def test_main_deck_cannot_be_reordered_or_shuffled_ck046(system):
    state = to_actions(system, start(system))
    for kind in ("shuffle", "reorder"):
        with pytest.raises(IllegalAction):
            system.apply(state, state["active"], {"type": kind, "zone": "main"})
    assert not [a for a in system.legal_actions(state, 0) if a["type"] in ("shuffle", "reorder")]


@pytest.mark.rule("1.4.5.6", "1.4.2.7", "CK-047")
def test_hand_is_visible_to_its_owner_only_ck047(system):
    state = to_actions(system, start(system))
    mine = system.view(state, 0)["players"][0]
    theirs = system.view(state, 1)["players"][0]
    spectator = system.view(state, None)["players"][0]
    assert [c["iid"] for c in mine["hand"]] == state["players"][0]["hand"]
    assert theirs["hand"] is None and theirs["hand_count"] == len(state["players"][0]["hand"])
    assert spectator["hand"] is None
    assert not shown_iids(system.view(state, 1)) & set(state["players"][0]["hand"])


@pytest.mark.rule("1.4.5.3", "5.2.2", "CK-048")
def test_reinforcement_deck_is_open_ck048(system):
    state = start(
        system, decks=[{"cities": ["CITY-A"], "main": [], "reinforcement": ["PATRON"]}] * 2
    )
    for viewer in (0, 1, None):
        assert [c["card"] for c in system.view(state, viewer)["players"][0]["reinforcement"]] == [
            "PATRON"
        ]


@pytest.mark.rule("1.4.5.4", "1.4.5.5", "CK-049")
def test_graveyard_and_oblivion_start_empty_and_open_ck049(system):
    state = start(system)
    for p in state["players"]:
        assert p["graveyard"] == [] and p["oblivion"] == []
    s = json.loads(json.dumps(state))
    iid = s["players"][0]["main"][0]
    game(system, s).move(iid, "graveyard")
    assert system.view(s, 1)["players"][0]["graveyard"][0]["iid"] == iid


@pytest.mark.rule("1.4.5.7", "5.2.3", "CK-050")
def test_battlefield_holds_exactly_the_cities_after_setup_ck050(system):
    state = start(system)
    assert sorted(state["cards"][i]["card"] for i in state["battlefield"]) == sorted(
        ["CITY-A", "CITY-B"] * 2
    )


@pytest.mark.rule("1.4.5.8", "CK-051")
def test_queue_is_open_and_ordered_and_starts_empty_ck051(system):
    state = start(system)
    assert state["queue"] == []
    s = json.loads(json.dumps(state))
    g = game(system, s)
    a = place(system, s, "SQ-1", 0, "hand")
    b = place(system, s, "SQ-2", 1, "hand")
    g.play(0, a, pay=False)
    g.play(1, b, pay=False)
    view = system.view(s, None)
    assert [o["iid"] for o in view["queue"]] == [a, b]


@pytest.mark.rule("1.4.5.2.1", "1.4.5.6.1", "CK-052")
def test_draw_takes_the_top_card_into_the_hand_ck052(system):
    s = start(system)
    top = s["players"][0]["main"][0]
    game(system, s).draw(0, 1)
    assert s["players"][0]["hand"][-1] == top and zone_of(s, top) == "hand"


# Rule 1.4.3 (a component in several zones at once) and AMB-38 (owners as a set): the
# engine keeps every instance in exactly one zone list with a single ``owner`` (a seat),
# because no op of the effect language puts a component in two zones or into another
# player's individual zone (``Rules.move`` always uses the owner's zone). A set of owners
# would always hold one seat; the documented deviation (game.py, *Decisions and
# deviations*) is that 1.4.3.1-1.4.3.5 never arise. The three tests below assert what the
# engine does in the situations nearest to each statement, through actions and views.


def _order(cid, *effects):
    return card(
        cid, "order", cost=Cost(0), abilities=({"kind": "dynamic", "effects": list(effects)},)
    )


MILL2 = _order("MILL2", {"op": "mill", "count": 2})
LOOK2 = _order("LOOK2", {"op": "look_at_top", "count": 2})
BOUNCE = _order(
    "BOUNCE",
    {
        "op": "return_to_hand",
        "target": {"select": "choose", "filter": {"type": "squad", "owner": "opponent"}},
    },
)


def _play_order(system, cid, seat=None):
    """A state at the Actions phase where ``seat`` played Order ``cid`` through ``apply``."""
    state = json.loads(json.dumps(to_actions(system, start(system))))
    seat = state["active"] if seat is None else seat
    iid = place(system, state, cid, seat, "hand")
    after, _events = system.apply(state, seat, {"type": "play", "iid": iid})
    return state, after, seat


@pytest.mark.rule("1.4.3.3", "AMB-38", "CK-053")
def test_a_card_leaving_the_hidden_deck_for_an_open_zone_is_seen_by_all_ck053():
    """Deviation (1.4.3, AMB-38): no component is ever both in the hidden Main Deck and an
    open zone; a card is open exactly when its one zone is. Milled through an Order, the
    top two cards leave the hidden deck for the open Graveyard: every seat and a spectator
    see them there at once, and before that nobody (the owner included) saw them."""
    system = new_system(MILL2)
    before, after, seat = _play_order(system, "MILL2")
    top = before["players"][seat]["main"][:2]
    for viewer in (0, 1, None):
        assert not shown_iids(system.view(before, viewer)) & set(top)
        grave = system.view(after, viewer)["players"][seat]["graveyard"]
        shown = {c["iid"]: c["card"] for c in grave}
        assert {i: after["cards"][i]["card"] for i in top}.items() <= shown.items()
    assert all(after["cards"][i]["zone"] == "graveyard" for i in top)
    _assert_one_zone_each(after)


@pytest.mark.rule("1.4.3.4", "AMB-38", "CK-054")
def test_cards_looked_at_in_the_hidden_deck_are_open_to_the_looker_only_ck054():
    """The engine's hidden-and-private case: "look_at_top" leaves the cards in the hidden
    Main Deck (one zone) and shows them, top first, in the looking player's own view only
    (``looked_at``); the other seat and a spectator see the count alone, and neither the
    instance ids nor (beyond the open zones) the card ids reach them."""
    system = new_system(LOOK2)
    _before, after, seat = _play_order(system, "LOOK2")
    p = after["players"][seat]
    top = p["main"][:2]
    assert all(after["cards"][i]["zone"] == "main" for i in top)
    mine = system.view(after, seat)["players"][seat]
    assert [c["iid"] for c in mine["looked_at"]] == top
    assert [c["card"] for c in mine["looked_at"]] == [after["cards"][i]["card"] for i in top]
    for viewer in (1 - seat, None):
        view = system.view(after, viewer)
        assert view["players"][seat]["looked_at"] is None
        assert view["players"][seat]["main_count"] == len(p["main"])
        assert not shown_iids(view) & set(top)
    # a card that leaves the Main Deck (drawn) is no longer listed as looked at
    drawn = json.loads(json.dumps(after))
    g = game(system, drawn)
    g.draw(seat, 1)
    assert [c["iid"] for c in system.view(drawn, seat)["players"][seat]["looked_at"]] == top[1:]


@pytest.mark.rule("1.4.3.2", "1.4.2.3", "AMB-38", "CK-055")
def test_each_card_has_one_owner_and_goes_to_its_owners_zones_ck055():
    """Deviation (AMB-38 recommends ``owners: set``): the engine keeps one ``owner`` seat per
    instance because no component is ever in an individual and a shared zone at once, so
    the set of 1.4.3.2 would always be {owner}. An effect of seat A that moves seat B's
    Squad from the shared Battlefield into "hand" puts it into B's Hand (its owner's
    individual zone, 1.4.2.3), not A's: B stays its only owner, sees it and A does not."""
    system = new_system(BOUNCE)
    state = json.loads(json.dumps(to_actions(system, start(system))))
    seat = state["active"]
    other = 1 - seat
    theirs = place(system, state, "SQ-2", other)
    bounce = place(system, state, "BOUNCE", seat, "hand")
    state, _ = system.apply(state, seat, {"type": "play", "iid": bounce})
    choice = state["pending"]
    if choice is not None:  # a single target may be taken without asking
        assert choice["player"] == seat and theirs in choice["options"]
        state, _ = system.apply(
            state, seat, {"type": "choose", "choice_id": choice["id"], "picks": [theirs]}
        )
    assert theirs in state["players"][other]["hand"]
    assert theirs not in state["players"][seat]["hand"]
    assert state["cards"][theirs]["owner"] == other  # one owner, a seat (not a set)
    assert isinstance(state["cards"][theirs]["owner"], int)
    assert [
        c["owner"]
        for c in system.view(state, other)["players"][other]["hand"]
        if c["iid"] == theirs
    ] == [other]
    assert theirs not in shown_iids(system.view(state, seat))
    # and every instance anywhere has exactly one owner seat and sits in that seat's zones
    for c in state["cards"]:
        assert isinstance(c["owner"], int) and 0 <= c["owner"] < state["n"]
        if c["zone"] in ("main", "hand", "reinforcement", "graveyard", "oblivion"):
            assert c["iid"] in state["players"][c["owner"]][c["zone"]]
    _assert_one_zone_each(state)


def _assert_one_zone_each(state):
    seen: dict[int, str] = {}
    lists = [("battlefield", state["battlefield"]), ("gone", state["gone"])]
    lists.append(("queue", [o["iid"] for o in state["queue"] if o["kind"] == "card"]))
    for p in state["players"]:
        for z in ("main", "hand", "reinforcement", "graveyard", "oblivion"):
            lists.append((z, p[z]))
    for name, items in lists:
        for iid in items:
            assert iid not in seen, f"{iid} in {seen[iid]} and {name}"
            seen[iid] = name
            assert state["cards"][iid]["zone"] == name
    assert len(seen) == len(state["cards"])


@pytest.mark.rule("1.4.4", "CK-056")
def test_zone_change_drops_buffs_and_reapplies_statics_ck056(system):
    s = start(system)
    g = game(system, s)
    sq = place(system, s, "SQ-2", 0)
    lord = place(system, s, "SQ-LORD", 0)
    g.execute(
        {"op": "modify_strength", "amount": 2, "target": {"select": "self"}, "duration": "round"},
        {"controller": 0, "source": sq},
    )
    assert g.strength(sq) == 3 + 2 + 1
    g.move(sq, "graveyard")
    assert g.strength(sq) == 3
    assert all(sq not in t["iids"] for t in s["temp"])
    g.move(sq, "battlefield")
    assert g.strength(sq) == 3 + 1  # the static applies anew, the temporary buff does not
    assert lord in s["battlefield"]


@pytest.mark.rule("1.4.6", "CK-057")
def test_unspecified_hand_lets_the_effect_owner_choose_ck057(system):
    s = start(system)
    s["pending"] = None
    g = game(system, s)
    mine = place(system, s, "SQ-1", 0, "hand")
    theirs = place(system, s, "SQ-2", 1, "hand")
    g.execute(
        {
            "op": "exile",
            "target": {"select": "choose", "filter": {"zone": "hand", "type": "squad"}},
        },
        {"controller": 0, "source": None},
    )
    pending = s["pending"]
    assert pending["player"] == 0 and {mine, theirs} <= set(pending["options"])


@pytest.mark.rule("2.3.4.2", "CK-058")
def test_order_moved_to_battlefield_goes_to_graveyard_ck058(system):
    s = start(system)
    o = place(system, s, "ORD-BOLT", 0, "hand")
    game(system, s).move(o, "battlefield")
    assert zone_of(s, o) == "graveyard" and o not in s["battlefield"]


@pytest.mark.rule("2.1.5.3", "CK-059")
def test_minor_squad_leaving_battlefield_leaves_the_game_ck059(system):
    s = start(system)
    g = game(system, s)
    g.execute({"op": "create_minor", "card": "TOKEN"}, {"controller": 0})
    token = s["battlefield"][-1]
    assert s["cards"][token]["owner"] == 0  # AMB-35
    g.move(token, "graveyard")
    assert zone_of(s, token) == "gone" and token not in s["players"][0]["graveyard"]


TRIGGER = card(
    "SQ-WATCH",
    "squad",
    cost=Cost(1),
    strength=1,
    abilities=(
        {
            "kind": "triggered",
            "trigger": {"event": "drawn", "player": "opponent"},
            "effects": [{"op": "gain_coins", "amount": 1}],
        },
    ),
)


@pytest.mark.rule("6.3.9", "CK-060")
def test_card_in_main_deck_does_not_trigger_ck060():
    system = new_system(TRIGGER)
    s = start(system)
    place(system, s, "SQ-WATCH", 0, "main")
    game(system, s).draw(1, 1)
    assert s["waiting"] == []


@pytest.mark.rule("6.3.9", "CK-061")
def test_card_in_hand_triggers_literal_reading_ck061():
    system = new_system(TRIGGER)
    s = start(system)
    w = place(system, s, "SQ-WATCH", 0, "hand")
    game(system, s).draw(1, 1)
    assert [x["source"] for x in s["waiting"]] == [w]


@pytest.mark.rule("1.4.2.7", "1.4.5.8", "6.3.9", "AMB-29")
def test_an_ability_from_a_hand_card_in_the_queue_keeps_the_card_private():
    """A card in a Hand triggers (literal 6.3.9); its ability waits in the open Queue. Its
    owner sees which card it came from; the other players and spectators see only that
    an ability of that player is there, not the card (the Hand stays private)."""
    system = new_system(TRIGGER)
    s = start(system)
    w = place(system, s, "SQ-WATCH", 0, "hand")
    g = game(system, s)
    g.draw(1, 1)
    s["queue"].append({"kind": "ability", "source": w, "ab": 0, "controller": 0, "ctx": {}})
    own = system.view(s, 0)["queue"][-1]
    assert (own["source"], own["card"], own["ability"]) == (w, "SQ-WATCH", 0)
    for viewer in (1, None):
        view = system.view(s, viewer)
        assert view["queue"][-1] == {
            "kind": "ability",
            "source": None,
            "card": None,
            "ability": None,
            "controller": 0,
        }
        assert "SQ-WATCH" not in json.dumps(view) and w not in shown_iids(view)
    g.move(w, "battlefield")  # once the card is in an open zone, everyone sees the source
    assert system.view(s, 1)["queue"][-1]["card"] == "SQ-WATCH"


@pytest.mark.rule("2.1.2.1", "CK-062")
def test_card_without_cost_cannot_be_played_and_costs_zero_ck062(system):
    state = to_actions(system, start(system))
    seat = state["active"]
    s = json.loads(json.dumps(state))
    iid = place(system, s, "NOCOST", seat, "hand")
    s["players"][seat]["coins"] = 10
    with pytest.raises(IllegalAction) as err:
        system.apply(s, seat, {"type": "play", "iid": iid})
    assert err.value.rule == "2.1.2.1"
    assert {"type": "play", "iid": iid} not in system.legal_actions(s, seat)
    assert game(system, s).cost(iid) == 0


@pytest.mark.rule("2.1.2.2", "CK-063")
def test_x_cost_counts_as_zero_ck063(system):
    s = start(system)
    iid = place(system, s, "ORD-X", 0, "hand")
    g = game(system, s)
    assert g.cost(iid) == 0
    assert g.matches({"zone": "hand", "max_strength": 0} | {}, iid, {"controller": 0}) is False
    assert g.condition(
        {"control": {"filter": {"zone": "hand", "name": "ORD-X"}}}, {"controller": 0}
    )


@pytest.mark.rule("2.1.2.3", "CK-064")
def test_supply_symbol_cost_counts_as_the_symbols_ck064():
    system = new_system(card("SUP3", "squad", cost=Cost(supply=3), strength=2))
    s = start(system)
    iid = place(system, s, "SUP3", 0, "hand")
    assert game(system, s).cost(iid) == 3


@pytest.mark.rule("2.1.5.2", "CK-065")
def test_a_card_has_exactly_one_type_ck065(system):
    """The loader rejects two types (its tests); the engine's model holds one type."""
    for c in system.db.all_cards():
        assert isinstance(c.type, str) and c.type in CARD_TYPES


@pytest.mark.rule("2.1.9.1", "CK-066")
def test_tactic_order_relic_have_no_strength_ck066(system):
    s = start(system)
    g = game(system, s)
    for cid in ("TAC-C", "ORD-BOLT", "RELIC"):
        iid = place(system, s, cid, 0, "hand")
        assert g.strength(iid) is None
