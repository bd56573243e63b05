"""Checklist 3.8 (Queue, abilities and effects): CK-126..CK-140, and the interpreter."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction
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


def _trig(cid, event, effects, **trigger):
    return card(
        cid,
        "squad",
        cost=Cost(1),
        strength=3,
        abilities=(
            {"kind": "triggered", "trigger": {"event": event, **trigger}, "effects": effects},
        ),
    )


EXTRA = (
    _trig("ON-PLAY", "played", [{"op": "gain_coins", "amount": 1}], card="self"),
    _trig("P-WATCH-A", "round_start", [{"op": "gain_coins", "amount": 1}]),
    _trig("P-WATCH-B", "round_start", [{"op": "gain_coins", "amount": 2}]),
    card(
        "SHIELD",
        "squad",
        cost=Cost(1),
        strength=5,
        abilities=(
            {
                "kind": "replacement",
                "replaces": {"event": "wounded", "card": "self"},
                "effects": [{"op": "gain_coins", "amount": 3}],
            },
        ),
    ),
    card(
        "DRAW3",
        "order",
        cost=Cost(0),
        abilities=({"kind": "dynamic", "effects": [{"op": "draw", "count": 3}]},),
    ),
    card(
        "SILENCER",
        "relic",
        cost=Cost(1),
        abilities=(
            {
                "kind": "static",
                "effects": [
                    {
                        "op": "lose_abilities",
                        "target": {
                            "select": "all",
                            "filter": {"type": "squad", "owner": "opponent"},
                        },
                    }
                ],
            },
        ),
    ),
    card(
        "SELF-BUFF",
        "squad",
        cost=Cost(1),
        strength=3,
        abilities=(
            {
                "kind": "static",
                "effects": [{"op": "strength", "amount": 2, "target": {"select": "self"}}],
            },
        ),
    ),
    card(
        "MUTE-A",
        "squad",
        cost=Cost(1),
        strength=3,
        abilities=(
            {
                "kind": "static",
                "effects": [
                    {
                        "op": "lose_abilities",
                        "target": {"select": "all", "filter": {"name": "MUTE-B"}},
                    },
                    {"op": "strength", "amount": 1, "target": {"select": "self"}},
                ],
            },
        ),
    ),
    card(
        "MUTE-B",
        "squad",
        cost=Cost(1),
        strength=3,
        abilities=(
            {
                "kind": "static",
                "effects": [
                    {
                        "op": "lose_abilities",
                        "target": {"select": "all", "filter": {"name": "MUTE-A"}},
                    },
                    {"op": "strength", "amount": 1, "target": {"select": "self"}},
                ],
            },
        ),
    ),
    card(
        "NO-ORDERS",
        "relic",
        cost=Cost(1),
        abilities=(
            {
                "kind": "static",
                "effects": [{"op": "cannot", "action": "play_orders", "player": "each_opponent"}],
            },
        ),
    ),
    card(
        "CHEAPEN",
        "relic",
        cost=Cost(1),
        abilities=(
            {
                "kind": "static",
                "effects": [
                    {
                        "op": "cost",
                        "amount": -1,
                        "target": {"select": "all", "filter": {"zone": "hand", "owner": "you"}},
                    }
                ],
            },
        ),
    ),
    card(
        "PICKY",
        "order",
        cost=Cost(0),
        abilities=(
            {
                "kind": "dynamic",
                "effects": [
                    {
                        "op": "choose_one",
                        "options": [
                            [{"op": "gain_coins", "amount": 5}],
                            [{"op": "draw", "count": 1}],
                        ],
                    },
                    {"op": "repeat", "times": 2, "effects": [{"op": "gain_coins", "amount": 1}]},
                ],
            },
        ),
    ),
)


MORE_DA = card(
    "MORE-DA",
    "relic",
    cost=Cost(1),
    abilities=({"kind": "static", "effects": [{"op": "max_direct_attacks", "amount": 1}]},),
)
NO_TACTICS = card(
    "NO-TACTICS",
    "relic",
    cost=Cost(1),
    abilities=(
        {
            "kind": "static",
            "effects": [{"op": "cannot", "action": "declare_tactic", "player": "each_opponent"}],
        },
    ),
)


@pytest.fixture
def system():
    return new_system(*EXTRA, MORE_DA, NO_TACTICS)


def _actions(system, first=0):
    return json.loads(json.dumps(to_actions(system, start(system), first=first)))


@pytest.mark.rule("6.5.2", "1.4.5.8.2", "CK-126")
def test_queue_is_fifo_ck126(system):
    s = _actions(system)
    g = game(system, s)
    a = place(system, s, "SQ-1", 0, "hand")
    b = place(system, s, "SQ-2", 0, "hand")
    g.play(0, a, pay=False)
    g.play(0, b, pay=False)
    g.advance()
    assert [e["iid"] for e in g.events if e["type"] == "resolved"] == [a, b]


@pytest.mark.rule("6.4.2", "CK-127")
def test_play_order_card_resolves_before_on_play_trigger_ck127(system):
    s = _actions(system)
    seat = s["active"]
    iid = place(system, s, "ON-PLAY", seat, "hand")
    coins = s["players"][seat]["coins"]
    s, events = system.apply(s, seat, {"type": "play", "iid": iid})
    kinds = [e["type"] for e in events if e["type"] in ("played", "resolved", "ability_resolved")]
    assert kinds == ["played", "resolved", "ability_resolved"]
    assert s["players"][seat]["coins"] == coins - 1 + 1


@pytest.mark.rule("6.4.2.2", "CK-128")
def test_cannot_pay_card_stays_and_queue_empty_ck128(system):
    s = _actions(system)
    seat = s["active"]
    iid = place(system, s, "SQ-3", seat, "hand")
    s["players"][seat]["coins"] = 2
    with pytest.raises(IllegalAction) as err:
        system.apply(s, seat, {"type": "play", "iid": iid})
    assert err.value.rule == "6.4.2.2"
    assert s["cards"][iid]["zone"] == "hand" and s["queue"] == []


@pytest.mark.rule("6.4.3", "CK-129")
def test_non_order_resolves_to_battlefield_ck129(system):
    s = _actions(system)
    seat = s["active"]
    iid = place(system, s, "RELIC", seat, "hand")
    s = act(system, s, {"type": "play", "iid": iid}, seat)
    assert s["cards"][iid]["zone"] == "battlefield"


@pytest.mark.rule("6.4.3", "6.3.1.1", "CK-130")
def test_order_carries_out_then_graveyard_ck130(system):
    s = _actions(system)
    seat = s["active"]
    iid = place(system, s, "ORD-BOLT", seat, "hand")
    s["players"][seat]["coins"] = 5
    target = cities(s, 1 - seat)[0]
    s = act(system, s, {"type": "play", "iid": iid}, seat)
    assert s["pending"]["kind"] == "choose" and target in s["pending"]["options"]
    assert s["cards"][iid]["zone"] == "queue"  # still resolving
    s = act(system, s, {"type": "choose", "choice_id": s["pending"]["id"], "picks": [target]}, seat)
    assert s["cards"][target]["strength"] == 10 - 3 or s["cards"][target]["strength"] == 8 - 3
    assert iid in s["players"][seat]["graveyard"]


@pytest.mark.rule("6.3.6", "CK-131")
def test_activated_ability_copy_goes_to_queue_card_stays_ck131(system):
    s = _actions(system)
    seat = s["active"]
    relic = place(system, s, "RELIC", seat)
    hand = len(s["players"][seat]["hand"])
    coins = s["players"][seat]["coins"]
    s, events = system.apply(s, seat, {"type": "activate", "iid": relic, "ability": 0})
    assert [e["type"] for e in events][:2] == ["activate", "ability_resolved"]
    assert s["cards"][relic]["zone"] == "battlefield"
    assert len(s["players"][seat]["hand"]) == hand + 1 and s["players"][seat]["coins"] == coins - 1
    # limit "round": not again this round
    s2 = json.loads(json.dumps(s))
    s2["active"] = seat
    s2["step"] = "action"
    with pytest.raises(IllegalAction):
        system.apply(s2, seat, {"type": "activate", "iid": relic, "ability": 0})


@pytest.mark.rule("6.5.1", "6.3.2", "CK-132")
def test_static_and_replacement_never_in_queue_ck132(system):
    s = _actions(system)
    g = game(system, s)
    place(system, s, "SQ-LORD", 0)
    place(system, s, "P-WATCH-A", 0)
    shield = place(system, s, "SHIELD", 0)
    g.wound(shield, 3)
    assert s["frames"] and not s["queue"]  # the replacement runs at once
    g.trigger("round_start", None, None)
    g.flush_waiting()
    assert s["queue"]
    for o in s["queue"]:
        kind = g.info(o["source"]).abilities[o["ab"]]["kind"]
        assert o["kind"] == "ability" and kind == "triggered"


@pytest.mark.rule("6.3.13", "CK-133")
def test_simultaneous_triggers_queued_in_turn_order_ck133(system):
    s = _actions(system, first=1)
    g = game(system, s)
    a = place(system, s, "P-WATCH-A", 0)
    b = place(system, s, "P-WATCH-A", 1)
    s["step"] = "draw"  # outside a turn: from the first player (AMB-27)
    g.trigger("round_start", None, None)
    g.flush_waiting()
    assert [o["source"] for o in s["queue"]] == [b, a]


@pytest.mark.rule("6.3.14", "CK-134")
def test_trigger_order_choice_sets_queue_order_ck134(system):
    s = _actions(system)
    g = game(system, s)
    a = place(system, s, "P-WATCH-A", 0)
    b = place(system, s, "P-WATCH-B", 0)
    s["step"] = "draw"
    g.trigger("round_start", None, None)
    assert not g.flush_waiting()
    s["pending"] = None
    pick_b = [w["source"] for w in s["waiting"]].index(b)
    g.perform_pending(0, {"type": "choose", "picks": [pick_b]}, {"kind": "order"})
    g.flush_waiting()
    assert [o["source"] for o in s["queue"]] == [b, a]


@pytest.mark.rule("6.3.12", "CK-135")
def test_replacement_prevents_and_replaces_at_once_ck135(system):
    s = _actions(system)
    g = game(system, s)
    shield = place(system, s, "SHIELD", 0)
    coins = s["players"][0]["coins"]
    g.wound(shield, 3)
    assert not s["cards"][shield]["wounded"]
    assert not s["queue"]  # carried out without the Queue
    g.advance()
    assert s["players"][0]["coins"] == coins + 3


@pytest.mark.rule("6.2.2", "CK-136")
def test_draw_3_from_2_draws_2_ck136(system):
    s = _actions(system)
    seat = s["active"]
    g = game(system, s)
    main = s["players"][seat]["main"]
    for iid in main[2:]:
        g.move(iid, "graveyard")
    hand = len(s["players"][seat]["hand"])
    order = place(system, s, "DRAW3", seat, "hand")
    s = act(system, s, {"type": "play", "iid": order}, seat)
    assert len(s["players"][seat]["hand"]) == hand + 2
    assert s["players"][seat]["main"] == []


@pytest.mark.rule("1.1.3", "6.2.1.1.3", "CK-137")
def test_prohibition_beats_permission_ck137(system):
    s = _actions(system)
    seat = s["active"]
    place(system, s, "NO-ORDERS", 1 - seat)
    order = place(system, s, "DRAW3", seat, "hand")
    with pytest.raises(IllegalAction) as err:
        system.apply(s, seat, {"type": "play", "iid": order})
    assert err.value.rule == "1.1.3"


@pytest.mark.rule("1.1.3", "6.2.1.1.3", "5.6.3.2.2.2", "CK-137")
def test_prohibition_beats_a_permitting_effect_ck137(system):
    """With 2 players at most 3 Direct Attacks may exist (5.6.3.2.2.2). MORE-DA permits a
    4th; NO-TACTICS, held by the opponent, forbids its holder's opponents to declare
    Tactics. Permission alone: the 4th is made. Permission and prohibition: it is not."""
    s = _actions(system)
    for _ in range(3):
        seat = s["active"]
        s = act(system, s, {"type": "direct_attack", "target": 1 - seat}, seat)
    seat = s["active"]
    fourth = {"type": "direct_attack", "target": 1 - seat}
    assert sum(1 for t in s["tactics"] if t["iid"] is None) == 3
    with pytest.raises(IllegalAction) as err:
        system.apply(s, seat, fourth)
    assert err.value.rule == "5.6.3.2.2.2"

    permitted = json.loads(json.dumps(s))
    place(system, permitted, "MORE-DA", seat)
    assert fourth in system.legal_actions(permitted, seat)
    after = act(system, permitted, fourth, seat)
    assert sum(1 for t in after["tactics"] if t["iid"] is None) == 4

    both = json.loads(json.dumps(permitted))
    place(system, both, "NO-TACTICS", 1 - seat)
    assert fourth not in system.legal_actions(both, seat)
    with pytest.raises(IllegalAction) as err:
        system.apply(both, seat, fourth)
    assert err.value.rule == "1.1.3"


@pytest.mark.rule("1.1.2", "CK-138")
def test_card_effect_beats_rule_ck138(system):
    """The Coin step gives Supply coins; a card that makes a Squad cost less wins over
    the printed cost rule (2.1.2): CHEAPEN makes SQ-3 playable with 2 coins."""
    s = _actions(system)
    seat = s["active"]
    place(system, s, "CHEAPEN", seat)
    iid = place(system, s, "SQ-3", seat, "hand")
    s["players"][seat]["coins"] = 2
    s = act(system, s, {"type": "play", "iid": iid}, seat)
    assert s["cards"][iid]["zone"] == "battlefield" and s["players"][seat]["coins"] == 0


@pytest.mark.rule("6.2.1.1.1", "CK-139")
def test_ability_removal_before_strength_ck139(system):
    s = _actions(system)
    g = game(system, s)
    buff = place(system, s, "SELF-BUFF", 0)
    assert g.strength(buff) == 5
    place(system, s, "SILENCER", 1)
    assert g.strength(buff) == 3


@pytest.mark.rule("6.2.1.1.5", "CK-140")
def test_mutually_dependent_statics_not_applied_ck140(system):
    s = _actions(system)
    g = game(system, s)
    a = place(system, s, "MUTE-A", 0)
    b = place(system, s, "MUTE-B", 1)
    assert g.has_abilities(a) and g.has_abilities(b)
    assert g.strength(a) == 4 and g.strength(b) == 4


def test_choose_one_and_repeat(system):
    s = _actions(system)
    seat = s["active"]
    order = place(system, s, "PICKY", seat, "hand")
    coins = s["players"][seat]["coins"]
    s = act(system, s, {"type": "play", "iid": order}, seat)
    assert s["pending"]["kind"] == "choose"
    s = act(system, s, {"type": "choose", "choice_id": s["pending"]["id"], "picks": [0]}, seat)
    assert s["players"][seat]["coins"] == coins + 5 + 2


def test_destroyed_trigger_filter_matches_a_card_now_in_the_graveyard():
    mourner = card(
        "MOURNER",
        "squad",
        cost=Cost(1),
        strength=3,
        abilities=(
            {
                "kind": "triggered",
                "trigger": {
                    "event": "destroyed",
                    "card": {"type": "squad", "owner": "you", "other": True},
                },
                "effects": [{"op": "gain_coins", "amount": 1}],
            },
        ),
    )
    system = new_system(mourner)
    s = _actions(system)
    m = place(system, s, "MOURNER", 0)
    victim = place(system, s, "SQ-2", 0)
    g = game(system, s)
    g.wound(victim, 5)
    assert s["cards"][victim]["zone"] == "graveyard"
    assert [w["source"] for w in s["waiting"]] == [m]


def test_destroyed_replacement_catches_a_lethal_wound():
    phoenix = card(
        "PHOENIX",
        "squad",
        cost=Cost(1),
        strength=3,
        abilities=(
            {
                "kind": "replacement",
                "replaces": {"event": "destroyed", "card": "self"},
                "effects": [{"op": "return_to_hand", "target": {"select": "self"}}],
            },
        ),
    )
    system = new_system(phoenix)
    s = _actions(system)
    p = place(system, s, "PHOENIX", 0)
    g = game(system, s)
    g.wound(p, 5)
    g.advance()
    assert s["cards"][p]["zone"] == "hand"


def test_direct_attack_event_triggers():
    scout = card(
        "SCOUT",
        "relic",
        cost=Cost(1),
        abilities=(
            {
                "kind": "triggered",
                "trigger": {"event": "direct_attack", "player": "you"},
                "effects": [{"op": "gain_coins", "amount": 2}],
            },
        ),
    )
    system = new_system(scout)
    s = _actions(system)
    seat = s["active"]
    place(system, s, "SCOUT", seat)
    coins = s["players"][seat]["coins"]
    s = act(system, s, {"type": "direct_attack", "target": 1 - seat}, seat)
    assert s["players"][seat]["coins"] == coins + 2
