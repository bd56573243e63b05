"""Checklist 3.5 (wounding, ruining, restoring, healing): CK-067..CK-090."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction
from engine.voskhozhdenie.cards import Cost
from tests.engine.voskhozhdenie.helpers import (
    card,
    cities,
    game,
    new_system,
    place,
    start,
    to_actions,
    zone_of,
)

EXTRA = (
    card("CITY-8", "city", strength=8, supply=1),
    card("CITY-3", "city", strength=3, supply=1),
    card("CITY-6", "city", strength=6, supply=1),
    card("SQ-5", "squad", cost=Cost(1), strength=5),
    card("SQ-4", "squad", cost=Cost(1), strength=4),
    card("SQ-6", "squad", cost=Cost(1), strength=6),
    card(
        "SQ-ZT",
        "squad",
        cost=Cost(1),
        strength=5,
        keywords=frozenset({"zeal"}),
        abilities=(
            {
                "kind": "triggered",
                "trigger": {"event": "round_start"},
                "effects": [{"op": "gain_coins", "amount": 1}],
            },
        ),
    ),
    card("SQ-ONE", "squad", cost=Cost(1), strength=1),
    card("FORT-6", "fortification", cost=Cost(1), strength=6),
    card("PAT-7", "patron", cost=Cost(1), strength=7),
)


@pytest.fixture
def env():
    system = new_system(*EXTRA)
    state = start(system)
    return system, state, game(system, state)


@pytest.mark.rule("2.3.1.5", "CK-067")
def test_city_8_wounded_by_3_is_at_5_ck067(env):
    system, s, g = env
    c = place(system, s, "CITY-8", 0)
    g.wound(c, 3)
    assert g.strength(c) == 5 and not s["cards"][c]["ruined"]


@pytest.mark.rule("2.3.1.5", "CK-068")
def test_city_3_wounded_by_5_is_ruined_ck068(env):
    system, s, g = env
    c = place(system, s, "CITY-3", 0)
    g.wound(c, 5)
    assert g.strength(c) <= 0 and s["cards"][c]["ruined"]


@pytest.mark.rule("2.3.1.6", "CK-069")
def test_city_wounded_by_negative_does_nothing_ck069(env):
    system, s, g = env
    c = place(system, s, "CITY-6", 0)
    g.wound(c, -2)
    assert g.strength(c) == 6


@pytest.mark.rule("2.3.1.4", "CK-070")
def test_ruined_city_cannot_be_wounded_nor_targeted_ck070(system):
    s = to_actions(system, start(system))
    g = game(system, s)
    c = cities(s, 1)[0]
    s["cards"][c]["ruined"] = True
    s["cards"][c]["strength"] = 0
    g.wound(c, 3)
    assert s["cards"][c]["strength"] == 0
    t = {"id": 99, "iid": None, "declarer": 0, "defender": 1, "attack": [], "defence": []}
    assert c not in g.tactic_targets(t)


@pytest.mark.rule("2.3.1.7", "2.3.1.8", "CK-071")
def test_restore_city_to_printed_strength_not_if_ruined_ck071(system):
    s = start(system)
    g = game(system, s)
    c = cities(s, 0)[0]  # CITY-A, S(10)
    s["cards"][c]["strength"] = 4
    assert g.restore(c) and g.strength(c) == 10
    s["cards"][c]["ruined"] = True
    s["cards"][c]["strength"] = 0
    assert not g.restore(c) and s["cards"][c]["strength"] == 0


@pytest.mark.rule("2.3.1.2", "CK-072")
def test_last_city_ruined_eliminates_ck072(system):
    s = start(system)
    g = game(system, s)
    first, second = cities(s, 1)
    g.wound(first, 100)
    assert not s["players"][1]["eliminated"]
    g.wound(second, 100)
    assert s["players"][1]["eliminated"] and s["elim"] == [1]


def _squad(env, cid="SQ-5", wounded=False):
    system, s, _g = env
    iid = place(system, s, cid, 0)
    s["cards"][iid]["wounded"] = wounded
    return iid


@pytest.mark.rule("2.3.2.6.1", "CK-073")
def test_squad_5_wounded_by_5_dies_ck073(env):
    iid = _squad(env)
    env[2].wound(iid, 5)
    assert zone_of(env[1], iid) == "graveyard"


@pytest.mark.rule("2.3.2.6.2", "CK-074")
def test_squad_5_wounded_by_3_becomes_wounded_ck074(env):
    iid = _squad(env)
    env[2].wound(iid, 3)
    assert zone_of(env[1], iid) == "battlefield" and env[1]["cards"][iid]["wounded"]


@pytest.mark.rule("2.3.2.6.4", "CK-075")
def test_squad_5_wounded_by_2_nothing_ck075(env):
    iid = _squad(env)
    env[2].wound(iid, 2)
    assert zone_of(env[1], iid) == "battlefield" and not env[1]["cards"][iid]["wounded"]


@pytest.mark.rule("2.3.2.6.3", "CK-076")
def test_wounded_squad_5_wounded_by_3_dies_ck076(env):
    iid = _squad(env, wounded=True)
    env[2].wound(iid, 3)
    assert zone_of(env[1], iid) == "graveyard"


@pytest.mark.rule("2.3.2.6.4", "CK-077")
def test_wounded_squad_5_wounded_by_2_stays_wounded_ck077(env):
    iid = _squad(env, wounded=True)
    env[2].wound(iid, 2)
    assert zone_of(env[1], iid) == "battlefield" and env[1]["cards"][iid]["wounded"]


@pytest.mark.rule("2.3.2.6.2", "CK-078")
def test_squad_4_wounded_by_2_becomes_wounded_ck078(env):
    iid = _squad(env, "SQ-4")
    env[2].wound(iid, 2)
    assert env[1]["cards"][iid]["wounded"]


@pytest.mark.rule("2.3.2.6.1", "CK-079")
def test_squad_1_wounded_by_1_dies_ck079(env):
    iid = _squad(env, "SQ-ONE")
    env[2].wound(iid, 1)
    assert zone_of(env[1], iid) == "graveyard"
    token = place(env[0], env[1], "TOKEN", 0)  # S(1)
    env[2].wound(token, 1)
    assert zone_of(env[1], token) == "gone"  # a Minor leaves the game (2.1.5.3)


@pytest.mark.rule("2.3.2.6", "CK-080")
def test_wounded_squad_keeps_its_strength_ck080(env):
    iid = _squad(env, "SQ-6")
    env[2].wound(iid, 3)
    assert env[1]["cards"][iid]["wounded"] and env[2].strength(iid) == 6


@pytest.mark.rule("2.3.2.3", "CK-081")
def test_wounded_squad_loses_all_abilities_ck081(env):
    _system, s, g = env
    iid = _squad(env, "SQ-ZT")
    assert g.has_keyword(iid, "zeal")
    g.wound(iid, 3)
    assert not g.has_keyword(iid, "zeal") and not g.has_abilities(iid)
    g.trigger("round_start", None, None)
    assert s["waiting"] == []


@pytest.mark.rule("2.3.2.4", "CK-082")
def test_wounded_squad_cannot_be_assigned_ck082(system):
    s = to_actions(system, start(system))
    seat = s["active"]
    s = json.loads(json.dumps(s))
    sq = place(system, s, "SQ-3", seat)
    s["cards"][sq]["wounded"] = True
    s["tactics"].append(
        {
            "id": 50,
            "iid": None,
            "declarer": 1 - seat,
            "defender": seat,
            "battle": False,
            "ready": True,
            "attack": [],
            "defence": [],
        }
    )
    with pytest.raises(IllegalAction) as err:
        system.apply(s, seat, {"type": "assign", "iid": sq, "tactic": 50, "side": "defence"})
    assert err.value.rule == "2.3.2.4"


@pytest.mark.rule("2.3.2.5", "CK-083")
def test_assigned_squad_that_becomes_wounded_is_removed_ck083(env):
    _system, s, g = env
    iid = _squad(env)
    s["tactics"].append(
        {
            "id": 50,
            "iid": None,
            "declarer": 0,
            "defender": 1,
            "battle": False,
            "ready": True,
            "attack": [iid],
            "defence": [],
        }
    )
    s["cards"][iid].update(tactic=50, side="attack")
    g.wound(iid, 3)
    assert s["tactics"][0]["attack"] == [] and s["cards"][iid]["tactic"] is None


@pytest.mark.rule("2.3.2.7", "2.3.2.8", "CK-084")
def test_healed_squad_is_unwounded_with_abilities_ck084(env):
    _system, s, g = env
    iid = _squad(env, "SQ-ZT", wounded=True)
    assert not g.has_keyword(iid, "zeal")
    g.execute({"op": "heal", "target": {"select": "self"}}, {"controller": 0, "source": iid})
    assert not s["cards"][iid]["wounded"] and g.has_keyword(iid, "zeal")


@pytest.mark.rule("2.3.6.2", "CK-085")
def test_fortification_6_wounded_by_4_is_at_2_ck085(env):
    system, s, g = env
    f = place(system, s, "FORT-6", 0)
    g.wound(f, 4)
    assert g.strength(f) == 2 and zone_of(s, f) == "battlefield"


@pytest.mark.rule("2.3.6.2", "CK-086")
def test_fortification_at_2_wounded_by_2_goes_to_graveyard_reset_ck086(env):
    system, s, g = env
    f = place(system, s, "FORT-6", 0)
    g.wound(f, 4)
    g.wound(f, 2)
    assert zone_of(s, f) == "graveyard" and s["cards"][f]["strength"] == 6


@pytest.mark.rule("2.3.6.3", "CK-087")
def test_fortification_wounded_by_negative_nothing_ck087(env):
    system, s, g = env
    f = place(system, s, "FORT-6", 0)
    g.wound(f, -1)
    assert g.strength(f) == 6


@pytest.mark.rule("2.3.6.4", "2.3.6.5", "CK-088")
def test_fortification_restored_to_printed_ck088(env):
    system, s, g = env
    f = place(system, s, "FORT-6", 0)
    g.wound(f, 5)
    assert g.strength(f) == 1
    assert g.restore(f) and g.strength(f) == 6


@pytest.mark.rule("2.3.7.2.2", "CK-089")
def test_patron_7_wounded_by_6_nothing_ck089(env):
    system, s, g = env
    p = place(system, s, "PAT-7", 0)
    g.wound(p, 6)
    assert zone_of(s, p) == "battlefield" and g.strength(p) == 7
    g.wound(p, 6)
    assert zone_of(s, p) == "battlefield"  # no damage carried over


@pytest.mark.rule("2.3.7.2.1", "CK-090")
def test_patron_7_wounded_by_7_goes_to_graveyard_ck090(env):
    system, s, g = env
    p = place(system, s, "PAT-7", 0)
    g.wound(p, 7)
    assert zone_of(s, p) == "graveyard"
    q = place(system, s, "PAT-7", 0)
    g.wound(q, 9)
    assert zone_of(s, q) == "graveyard"
