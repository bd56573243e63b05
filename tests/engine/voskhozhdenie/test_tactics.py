"""Checklist 3.7 (Tactic resolution): CK-116..CK-125."""

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

EXTRA = (
    card("SQ-7", "squad", cost=Cost(1), strength=7),
    card("SQ-4", "squad", cost=Cost(1), strength=4),
    card("SQ-5", "squad", cost=Cost(1), strength=5),
    card("FORT-6", "fortification", cost=Cost(1), strength=6),
    card("PAT-7", "patron", cost=Cost(1), strength=7),
    card(
        "TAC-LOG",
        "tactic",
        cost=Cost(0),
        abilities=(
            {"kind": "outcome", "result": "any", "effects": [{"op": "gain_coins", "amount": 1}]},
        ),
    ),
    card(
        "SQ-SPY",
        "squad",
        cost=Cost(1),
        strength=1,
        abilities=(
            {
                "kind": "triggered",
                "trigger": {"event": "tactic_resolved"},
                "effects": [{"op": "lose_coins", "amount": 1, "player": "each_opponent"}],
            },
        ),
    ),
)


@pytest.fixture
def system():
    return new_system(*EXTRA)


def _fight(system, attack=("SQ-7",), defence=("SQ-4",), tactic="TAC-C", extra=None):
    """Player 0 declares ``tactic`` against 1 with the given Squads; both pass. Returns
    the state at the start of Tactic Resolution (the first decision)."""
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    g = game(system, s)
    tac = place(system, s, tactic, 0, "hand")
    s["players"][0]["coins"] = 10
    s = act(system, s, {"type": "declare", "iid": tac, "target": 1}, 0)
    tid = s["tactics"][0]["id"]
    a_ids = [place(system, s, cid, 0) for cid in attack]
    d_ids = [place(system, s, cid, 1) for cid in defence]
    for i in a_ids:
        s["tactics"][0]["attack"].append(i)
        s["cards"][i].update(tactic=tid, side="attack")
    for i in d_ids:
        s["tactics"][0]["defence"].append(i)
        s["cards"][i].update(tactic=tid, side="defence")
    if extra:
        extra(s)
    s = act(system, s, {"type": "pass"}, s["active"])
    s = act(system, s, {"type": "pass"}, s["active"])
    del g
    return s, tac, a_ids, d_ids


@pytest.mark.rule("5.6.4", "CK-116")
def test_tactics_resolve_one_after_another_in_play_order_ck116(system):
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    s["players"][0]["coins"] = s["players"][1]["coins"] = 10
    t1 = place(system, s, "TAC-LOG", 0, "hand")
    t2 = place(system, s, "TAC-LOG", 1, "hand")
    s = act(system, s, {"type": "declare", "iid": t1, "target": 1}, 0)
    s = act(system, s, {"type": "declare", "iid": t2, "target": 0}, 1)
    s, events = system.apply(s, 0, {"type": "pass"})
    s, events = system.apply(s, 1, {"type": "pass"})
    order = [
        (e["type"], e.get("iid", e.get("tactic")))
        for e in events
        if e["type"] in ("ability_resolved", "tactic_resolved")
    ]
    kinds = [k for k, _ in order]
    assert kinds == ["ability_resolved", "tactic_resolved", "ability_resolved", "tactic_resolved"]
    assert s["cards"][t1]["zone"] == "graveyard" and s["cards"][t2]["zone"] == "graveyard"


@pytest.mark.rule("5.6.4.1", "5.6.4.2.1", "CK-117")
def test_wound_amount_is_the_difference_ck117(system):
    s, _tac, _a, _d = _fight(system, attack=("SQ-7",), defence=("SQ-4",))
    assert s["pending"]["kind"] == "tactic" and s["pending"]["amount"] == 3


@pytest.mark.rule("5.6.4.2.1", "CK-118")
def test_wound_targets_ck118(system):
    holder = {}

    def extra(s):
        # a second Tactic with a Squad, a free Squad, a Fortification, a Patron
        s["tactics"].append(
            {
                "id": 900,
                "iid": None,
                "declarer": 1,
                "defender": 0,
                "battle": False,
                "ready": True,
                "attack": [],
                "defence": [],
            }
        )
        other = place(system, s, "SQ-5", 1)
        s["tactics"][1]["attack"].append(other)
        s["cards"][other].update(tactic=900, side="attack")
        holder.update(
            other=other,
            free=place(system, s, "SQ-5", 1),
            fort=place(system, s, "FORT-6", 1),
            patron=place(system, s, "PAT-7", 1),
        )

    s, _tac, a, d = _fight(system, extra=extra)
    options = set(s["pending"]["options"])
    assert set(a) | set(d) <= options
    assert holder["free"] in options
    assert set(cities(s, 1)) <= options
    assert not set(cities(s, 0)) & options
    for bad in ("other", "fort", "patron"):
        assert holder[bad] not in options
    with pytest.raises(IllegalAction) as err:
        system.apply(s, 0, {"type": "tactic_wound", "target": holder["fort"]})
    assert err.value.rule == "5.6.4.2.1"


@pytest.mark.rule("5.6.4.2.2", "CK-119")
def test_superiority_instead_of_wound_ck119(system):
    s, _tac, _a, d = _fight(system)
    hand = len(s["players"][0]["hand"])
    city_strengths = [s["cards"][c]["strength"] for c in cities(s, 1)]
    s = act(system, s, {"type": "superiority"}, 0)
    assert len(s["players"][0]["hand"]) == hand + 2  # TAC-C: draw 2
    assert [s["cards"][c]["strength"] for c in cities(s, 1)] == city_strengths
    assert all(s["cards"][i]["zone"] == "battlefield" and not s["cards"][i]["wounded"] for i in d)


@pytest.mark.rule("5.6.4.2", "CK-120")
def test_tie_gives_no_option_ck120(system):
    s, tac, _a, _d = _fight(system, attack=("SQ-5",), defence=("SQ-5",))
    assert s["pending"] is None or s["pending"]["kind"] != "tactic"
    assert s["cards"][tac]["zone"] == "graveyard"


@pytest.mark.rule("5.6.4.2", "CK-121")
def test_stronger_defender_gets_nothing_ck121(system):
    s, _tac, a, _d = _fight(system, attack=("SQ-4",), defence=("SQ-7",))
    assert s["pending"] is None or s["pending"]["kind"] != "tactic"
    assert all(s["cards"][c]["strength"] == s["cards"][c]["strength"] for c in cities(s, 0))
    assert all(not s["cards"][i]["wounded"] for i in a)


@pytest.mark.rule("5.6.4.3", "5.6.4.4", "CK-122")
def test_outcome_then_resolution_triggers_event_order_ck122(system):
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    s["players"][0]["coins"] = 10
    spy = place(system, s, "SQ-SPY", 1)
    tac = place(system, s, "TAC-LOG", 0, "hand")
    s = act(system, s, {"type": "declare", "iid": tac, "target": 1}, 0)
    s = act(system, s, {"type": "pass"}, s["active"])
    s, events = system.apply(s, s["active"], {"type": "pass"})
    sources = [e["source"] for e in events if e["type"] == "ability_resolved"]
    assert sources == [tac, spy]


@pytest.mark.rule("5.6.4.5", "CK-123")
def test_squads_unassigned_and_stay_ck123(system):
    s, _tac, a, d = _fight(system, attack=("SQ-5",), defence=("SQ-5",))
    for i in a + d:
        assert s["cards"][i]["zone"] == "battlefield" and s["cards"][i]["tactic"] is None
    assert s["tactics"] == []


@pytest.mark.rule("5.6.4.6", "CK-124")
def test_tactic_goes_to_declarers_graveyard_ck124(system):
    s, tac, _a, _d = _fight(system, attack=("SQ-5",), defence=("SQ-7",))
    assert tac in s["players"][0]["graveyard"]


@pytest.mark.rule("5.6.4.2.1", "2.3.1.5", "CK-125")
def test_city_at_4_wounded_by_3_is_at_1_ck125(system):
    def extra(s):
        s["cards"][cities(s, 1)[0]]["strength"] = 4

    s, _tac, _a, _d = _fight(system, attack=("SQ-7",), defence=("SQ-4",), extra=extra)
    city = cities(s, 1)[0]
    s = act(system, s, {"type": "tactic_wound", "target": city}, 0)
    assert s["cards"][city]["strength"] == 1 and not s["cards"][city]["ruined"]


def test_tactic_leaving_the_battlefield_is_out_of_play(system):
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    s["players"][0]["coins"] = 10
    tac = place(system, s, "TAC-C", 0, "hand")
    s = act(system, s, {"type": "declare", "iid": tac, "target": 1}, 0)
    sq = place(system, s, "SQ-7", 1)
    s = act(
        system,
        s,
        {"type": "assign", "iid": sq, "tactic": s["tactics"][0]["id"], "side": "defence"},
        1,
    )
    g = game(system, s)
    g.move(tac, "hand")
    assert s["tactics"] == [] and s["cards"][sq]["tactic"] is None


@pytest.mark.rule("5.6.4.2.1", "AMB-22")
def test_battle_has_no_city_option(system):
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    s["players"][0]["coins"] = 10
    tac = place(system, s, "TAC-B", 0, "hand")
    assert {"type": "declare", "iid": tac} in system.legal_actions(s, 0)
    s = act(system, s, {"type": "declare", "iid": tac}, 0)
    t = s["tactics"][0]
    assert t["defender"] is None and t["battle"]
    mine = place(system, s, "SQ-7", 0)
    s["tactics"][0]["attack"].append(mine)
    s["cards"][mine].update(tactic=t["id"], side="attack")
    free = place(system, s, "SQ-4", 1)
    s = act(system, s, {"type": "pass"}, s["active"])
    s = act(system, s, {"type": "pass"}, s["active"])
    options = set(s["pending"]["options"])
    assert free in options and not options & set(cities(s, 1))


@pytest.mark.rule("5.6.3.2.2", "AMB-03", "AMB-37")
def test_direct_attack_has_no_superiority_and_then_ceases(system):
    s = json.loads(json.dumps(to_actions(system, start(system), first=0)))
    s = act(system, s, {"type": "direct_attack", "target": 1}, 0)
    t = s["tactics"][0]
    assert t["iid"] is None and t["ready"]
    sq = place(system, s, "SQ-7", 0)
    s["tactics"][0]["attack"].append(sq)
    s["cards"][sq].update(tactic=t["id"], side="attack")
    s = act(system, s, {"type": "pass"}, s["active"])
    s = act(system, s, {"type": "pass"}, s["active"])
    assert s["pending"]["kind"] == "tactic" and not s["pending"]["superiority"]
    assert set(cities(s, 1)) <= set(s["pending"]["options"])
    assert {"type": "superiority"} not in system.legal_actions(s, 0)
    s = act(system, s, {"type": "tactic_wound", "target": cities(s, 1)[0]}, 0)
    assert s["tactics"] == []
