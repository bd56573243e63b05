"""Each op, cost, condition and static of engine.voskhozhdenie.effects, carried out once."""

from __future__ import annotations

import json

import pytest

from engine.voskhozhdenie import effects as fx
from engine.voskhozhdenie.cards import Cost
from tests.engine.voskhozhdenie.helpers import (
    act,
    card,
    cities,
    game,
    new_system,
    place,
    start,
    to_actions,
)

SELF = {"select": "self"}
ENEMY_SQUAD = {"select": "all", "filter": {"type": "squad", "owner": "opponent"}}

# op name -> (effect, check(state, me, source, enemy_squad))
DYNAMIC_EXAMPLES = {
    "draw": ({"op": "draw", "count": 2}, lambda s, me, src, e: len(s["players"][me]["hand"]) == 6),
    "discard": (
        {"op": "discard", "count": 1, "random": True},
        lambda s, me, src, e: len(s["players"][me]["hand"]) == 3,
    ),
    "mill": (
        {"op": "mill", "count": 2},
        lambda s, me, src, e: len(s["players"][me]["graveyard"]) == 3,
    ),
    "gain_coins": (
        {"op": "gain_coins", "amount": 3},
        lambda s, me, src, e: s["players"][me]["coins"] == 3,
    ),
    "lose_coins": (
        {"op": "lose_coins", "amount": 3, "player": "each_opponent"},
        lambda s, me, src, e: s["players"][1 - me]["coins"] == 0,
    ),
    "change_supply": (
        {"op": "change_supply", "amount": 1},
        lambda s, me, src, e: s["players"][me]["supply"] == 5,
    ),
    "wound": (
        {"op": "wound", "amount": 3, "target": ENEMY_SQUAD},
        lambda s, me, src, e: s["cards"][e]["wounded"],
    ),
    "heal": ({"op": "heal", "target": SELF}, lambda s, me, src, e: not s["cards"][src]["wounded"]),
    "restore": (
        {"op": "restore", "target": {"select": "all", "filter": {"type": "city", "owner": "you"}}},
        lambda s, me, src, e: all(s["cards"][c]["strength"] in (10, 8) for c in cities(s, me)),
    ),
    "destroy": (
        {"op": "destroy", "target": ENEMY_SQUAD},
        lambda s, me, src, e: s["cards"][e]["zone"] == "graveyard",
    ),
    "exile": (
        {"op": "exile", "target": ENEMY_SQUAD},
        lambda s, me, src, e: s["cards"][e]["zone"] == "oblivion",
    ),
    "return_to_hand": (
        {"op": "return_to_hand", "target": ENEMY_SQUAD},
        lambda s, me, src, e: s["cards"][e]["zone"] == "hand",
    ),
    "to_bottom_of_deck": (
        {"op": "to_bottom_of_deck", "target": ENEMY_SQUAD},
        lambda s, me, src, e: s["players"][1 - me]["main"][-1] == e,
    ),
    "unassign": (
        {"op": "unassign", "target": ENEMY_SQUAD},
        lambda s, me, src, e: s["cards"][e]["tactic"] is None,
    ),
    "create_minor": (
        {"op": "create_minor", "card": "TOKEN", "count": 2},
        lambda s, me, src, e: sum(s["cards"][i]["card"] == "TOKEN" for i in s["battlefield"]) == 2,
    ),
    "modify_strength": (
        {"op": "modify_strength", "amount": 2, "target": ENEMY_SQUAD, "duration": "round"},
        lambda s, me, src, e: s["temp"][0]["iids"] == [e],
    ),
    "grant_keyword": (
        {"op": "grant_keyword", "keyword": "zeal", "target": SELF},
        lambda s, me, src, e: s["temp"][0]["keyword"] == "zeal",
    ),
    "play_free": (
        {
            "op": "play_free",
            "target": {"select": "all", "filter": {"zone": "graveyard", "owner": "you"}},
        },
        lambda s, me, src, e: any(s["cards"][i]["card"] == "SQ-3" for i in s["battlefield"]),
    ),
    "return_from_graveyard": (
        {
            "op": "return_from_graveyard",
            "target": {"select": "all", "filter": {"zone": "graveyard", "owner": "you"}},
        },
        lambda s, me, src, e: any(
            s["cards"][i]["card"] == "SQ-3" for i in s["players"][me]["hand"]
        ),
    ),
    "look_at_top": ({"op": "look_at_top", "count": 3}, lambda s, me, src, e: True),
    "choose_one": (
        {
            "op": "choose_one",
            "options": [[{"op": "gain_coins", "amount": 1}], [{"op": "gain_coins", "amount": 2}]],
        },
        lambda s, me, src, e: s["pending"]["kind"] == "choose",
    ),
    "if": (
        {
            "op": "if",
            "condition": {"round_at_least": 1},
            "then": [{"op": "gain_coins", "amount": 4}],
            "else": [{"op": "gain_coins", "amount": 1}],
        },
        lambda s, me, src, e: s["players"][me]["coins"] == 4,
    ),
    "repeat": (
        {"op": "repeat", "times": 3, "effects": [{"op": "gain_coins", "amount": 1}]},
        lambda s, me, src, e: s["players"][me]["coins"] == 3,
    ),
}


def test_examples_cover_every_dynamic_op():
    assert set(DYNAMIC_EXAMPLES) == set(fx.DYNAMIC_OPS)


@pytest.mark.parametrize("name", sorted(DYNAMIC_EXAMPLES))
def test_dynamic_op(name):
    effect, check = DYNAMIC_EXAMPLES[name]
    fx._op(effect, name, fx.DYNAMIC_OPS)  # the example is valid effect language
    system = new_system()
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    me = 0
    for p in s["players"]:
        p["coins"] = 0
        p["supply"] = 4
    for c in cities(s, me):
        s["cards"][c]["strength"] = 1
    src = place(system, s, "SQ-2", me)
    s["cards"][src]["wounded"] = True
    enemy = place(system, s, "SQ-3", 1 - me)
    s["tactics"].append(
        {
            "id": 9,
            "iid": None,
            "declarer": me,
            "defender": 1 - me,
            "battle": False,
            "ready": True,
            "attack": [],
            "defence": [enemy],
        }
    )
    s["cards"][enemy].update(tactic=9, side="defence")
    g = game(system, s)
    g.move(place(system, s, "SQ-3", me, "hand"), "graveyard")
    while len(s["players"][me]["hand"]) > 4:
        g.move(s["players"][me]["hand"][0], "graveyard")
    for iid in list(s["players"][me]["graveyard"]):
        if s["cards"][iid]["card"] != "SQ-3":
            g.move(iid, "oblivion")
    s["pending"] = None
    g.push([effect], {"controller": me, "source": src})
    g.advance()
    assert check(s, me, src, enemy), name


COST_EXAMPLES = {
    "pay": {"op": "pay", "coins": 1},
    "discard": {"op": "discard", "count": 1},
    "wound_self": {"op": "wound_self", "amount": 1},
    "destroy_self": {"op": "destroy_self"},
    "exile_from_graveyard": {"op": "exile_from_graveyard", "count": 1},
    "sacrifice": {"op": "sacrifice", "target": {"select": "choose", "filter": {"type": "squad"}}},
}


@pytest.mark.parametrize("name", sorted(fx.COST_OPS))
def test_cost_op(name):
    cost = COST_EXAMPLES[name]
    system = new_system(
        card(
            "TOOL",
            "relic",
            cost=Cost(1),
            abilities=(
                {
                    "kind": "activated",
                    "cost": [cost],
                    "effects": [{"op": "gain_coins", "amount": 5}],
                },
            ),
        )
    )
    s = json.loads(json.dumps(to_actions(system, start(system))))
    me = s["active"]
    tool = place(system, s, "TOOL", me)
    place(system, s, "SQ-2", me)
    g = game(system, s)
    g.move(s["players"][me]["hand"][0], "graveyard")
    s["players"][me]["coins"] = 1
    actions = [a for a in system.legal_actions(s, me) if a["type"] == "activate"]
    assert actions, name
    s2 = act(system, s, actions[0], me)
    assert s2["players"][me]["coins"] >= 5
    if name == "destroy_self":
        assert s2["cards"][tool]["zone"] == "graveyard"
    if name == "exile_from_graveyard":
        assert len(s2["players"][me]["oblivion"]) == 1


CONDITION_EXAMPLES = {
    "control": ({"control": {"filter": {"type": "city"}, "min": 2, "max": 2}}, True),
    "coins_at_least": ({"coins_at_least": 3}, True),
    "hand_at_most": ({"hand_at_most": 1}, False),
    "hand_at_least": ({"hand_at_least": 1}, True),
    "cities_ruined_at_least": (
        {"cities_ruined_at_least": {"amount": 1, "player": "each_opponent"}},
        True,
    ),
    "round_at_least": ({"round_at_least": 2}, False),
    "opponent_has": ({"opponent_has": {"filter": {"type": "city"}, "min": 2}}, True),
    "all": ({"all": [{"round_at_least": 1}, {"coins_at_least": 3}]}, True),
    "any": ({"any": [{"round_at_least": 5}, {"coins_at_least": 3}]}, True),
    "not": ({"not": {"round_at_least": 1}}, False),
}


@pytest.mark.parametrize("name", sorted(fx.CONDITIONS))
def test_condition(name):
    cond, expected = CONDITION_EXAMPLES[name]
    fx._condition(cond, name)
    system = new_system()
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    s["players"][0]["coins"] = 3
    s["cards"][cities(s, 1)[0]]["ruined"] = True
    assert game(system, s).condition(cond, {"controller": 0}) is expected


def _static(cid, effect, type_="relic"):
    return card(cid, type_, cost=Cost(1), abilities=({"kind": "static", "effects": [effect]},))


@pytest.mark.parametrize("name", sorted(fx.STATIC_OPS))
def test_static_op(name):
    examples = {
        "strength": {
            "op": "strength",
            "amount": 2,
            "target": {"select": "all", "filter": {"type": "squad"}},
        },
        "keyword": {
            "op": "keyword",
            "keyword": "zeal",
            "target": {"select": "all", "filter": {"type": "squad"}},
        },
        "lose_abilities": {
            "op": "lose_abilities",
            "target": {"select": "all", "filter": {"type": "squad"}},
        },
        "cost": {
            "op": "cost",
            "amount": 2,
            "target": {"select": "all", "filter": {"zone": "hand"}},
        },
        "cannot": {"op": "cannot", "action": "draw", "player": "each_opponent"},
        "supply": {"op": "supply", "amount": 2},
        "max_direct_attacks": {"op": "max_direct_attacks", "amount": 1},
    }
    effect = examples[name]
    fx._op(effect, name, fx.STATIC_OPS)
    system = new_system(_static("ST", effect))
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    g = game(system, s)
    sq = place(system, s, "SQ-Z", 1)
    hand = place(system, s, "SQ-1", 1, "hand")
    before = {
        "strength": g.strength(sq),
        "cost": g.cost(hand),
        "supply": g.supply(0),
        "max_da": g.max_direct_attacks(),
    }
    place(system, s, "ST", 0)
    g = game(system, s)
    if name == "strength":
        assert g.strength(sq) == before["strength"] + 2
    elif name == "keyword":
        plain = place(system, s, "SQ-1", 1)
        assert game(system, s).has_keyword(plain, "zeal")
    elif name == "lose_abilities":
        assert not g.has_keyword(sq, "zeal")
    elif name == "cost":
        assert g.cost(hand) == before["cost"] + 2
    elif name == "cannot":
        assert g.draw(1, 1) == 0 and g.draw(0, 1) == 1
    elif name == "supply":
        assert g.supply(0) == before["supply"] + 2
    elif name == "max_direct_attacks":
        assert g.max_direct_attacks() == before["max_da"] + 1


def test_choose_opponent_asks_in_multiplayer():
    system = new_system()
    s = json.loads(json.dumps(to_actions(system, start(system, n=3), first=0)))
    g = game(system, s)
    s["players"][1]["coins"] = s["players"][2]["coins"] = 5
    g.push([{"op": "lose_coins", "amount": 5, "player": "choose_opponent"}], {"controller": 0})
    g.advance()
    assert s["pending"]["options"] == [1, 2] and s["pending"]["player"] == 0
    s = act(system, s, {"type": "choose", "choice_id": s["pending"]["id"], "picks": [2]}, 0)
    assert s["players"][2]["coins"] == 0 and s["players"][1]["coins"] == 5


def test_discard_choice_is_made_by_the_discarding_player():
    system = new_system()
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    g = game(system, s)
    g.push([{"op": "discard", "count": 1, "player": "each_opponent"}], {"controller": 0})
    g.advance()
    assert s["pending"]["player"] == 1 and set(s["pending"]["options"]) == set(
        s["players"][1]["hand"]
    )
    pick = s["pending"]["options"][0]
    s = act(system, s, {"type": "choose", "choice_id": s["pending"]["id"], "picks": [pick]}, 1)
    assert s["cards"][pick]["zone"] == "graveyard"
