"""Checklist 3.3 (zones and visibility) and 3.4 (card attributes): CK-045..CK-066."""

from __future__ import annotations

import json

import pytest

from engine.cards.model import CARD_TYPES, Cost
from engine.core.errors import IllegalAction
from tests.engine.voskhozhdenie.helpers import (
    card,
    game,
    new_system,
    place,
    start,
    to_actions,
    zone_of,
)


def _iids(view) -> set[int]:
    found = set()

    def walk(x):
        if isinstance(x, dict):
            if "iid" in x and "card" in x and isinstance(x["iid"], int):
                found.add(x["iid"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(view)
    return found


@pytest.mark.rule("1.4.5.2", "1.4.2.6", "CK-045")
def test_main_deck_shows_only_its_count_to_everyone_ck045(system):
    state = start(system)
    for viewer in (0, 1, None):
        view = system.view(state, viewer)
        for p, vp in zip(state["players"], view["players"], strict=True):
            assert vp["main_count"] == len(p["main"])
            assert "main" not in vp
            assert not _iids(view) & set(p["main"])
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
    assert not _iids(system.view(state, 1)) & set(state["players"][0]["hand"])


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


@pytest.mark.rule("1.4.3.3", "CK-053")
def test_no_component_is_in_a_hidden_and_an_open_zone_at_once_ck053(system):
    """The engine never puts a component in two zones (no effect of the effect language
    does); every instance is in exactly one zone list, so 1.4.3.3 never arises."""
    state = to_actions(system, start(system))
    _assert_one_zone_each(state)


@pytest.mark.rule("1.4.3.4", "CK-054")
def test_no_component_is_in_a_hidden_and_a_private_zone_at_once_ck054(system):
    state = start(system)
    _assert_one_zone_each(state)
    hand = set(state["players"][0]["hand"])
    assert not hand & set(state["players"][0]["main"])


@pytest.mark.rule("1.4.3.2", "CK-055")
def test_ownership_is_the_single_owner_of_each_instance_ck055(system):
    """AMB-38: one owner per object; no effect makes shared ownership."""
    state = start(system)
    for c in state["cards"]:
        assert isinstance(c["owner"], int)


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
