"""The named abilities of the Словарь (digest §13) added to ``engine.berserk.game`` after the
first ~25: one test each on small positions of the real set BK1 (``battle`` puts open
cards on the board; ``rolls_rng`` fixes the dice), and a test that every named ability a
BK1 card carries is one the engine interprets.

Rule ids: the Russian text's numbers and "С: <name>" for a Словарь entry.
"""

from __future__ import annotations

import pytest

from engine.berserk import stack
from engine.berserk.cards import load_system
from engine.berserk.game import IMPLEMENTED, SYSTEM
from engine.berserk.model import NAMED
from engine.core.errors import IllegalAction
from tests.engine.berserk.test_game import FLYER, PLAIN, STURDY, at, battle, do, passes, rolls_rng

DUST_RIDER = "BK1-007"  # Jump, movement 3
ASSASSIN = "BK1-169"  # Shadow Assassin: Teleport, Directed Strike
STAG = "BK1-057"  # Stag Leader: Manoeuvre
DRUID = "BK1-046"  # Druid of the Forest Path: Summon (Beast), cost 4
BOAR = "BK1-044"  # Tusked Boar: Thick Skin, beast, cost 3, 2-2-3
RAT = "BK1-174"  # Cellar Rat: Plague, beast, cost 1
NECROMANCER = "BK1-164"  # Crypt Necromancer: Resurrection (Undead), cost 5
CORPSE = "BK1-160"  # Risen Corpse: Incarnation 3, undead, cost 2
PORTER = "BK1-179"  # Zombie Porter: Incarnation 2
HERMIT = "BK1-053"  # Mistletoe Hermit: Redistribution 2
RECRUIT = "BK1-096"  # Steady Recruit: Steadfastness, 2 lives
SERPENT = "BK1-122"  # Silt Serpent: Plague, 2-2-3, 5 lives
TOAD = "BK1-119"  # Mire Toad-Eater: Corpse-eating, 1-1-1, 2 lives
OAK = "BK1-049"  # Oak Keeper: Gift of Life 2, forest, 6 lives
HEALER = "BK1-042"  # Grove Healer: forest, 2 lives
WHISPERER = "BK1-047"  # Leaf Whisperer: forest, 3 lives
BEATER = "BK1-020"  # Beater: Unity 1, cost 2
CONSTRICTOR = "BK1-138"  # Quagmire Constrictor: Thirst 2
LODES = "BK1-094"  # Keeper of the Lodes: Concentration
BEARER = "BK1-008"  # Camp Standard-Bearer: Formation; Formation: +1 to its simple strike
WARDEN = "BK1-014"  # Camp Warden: Formation
SENTRY = "BK1-055"  # Woodland Sentry: Formation; Formation: +1 to its die rolls
PIKEMAN = "BK1-086"  # Pass Pikeman: Strike Through a Row 2


def _ability(s, seat, **action):
    return do(s, seat, {"type": "ability", **action})


def _strike(s, seat, card, target):
    return do(s, seat, {"type": "strike", "card": card, "target": target})


def _into_deck(s, seat, *card_ids):
    """Make the first cards of ``seat``'s deck these (the deck keeps its size)."""
    for iid, card_id in zip(s["players"][seat]["deck"], card_ids, strict=False):
        s["cards"][iid] = card_id


def _to_grave(s, seat, card_id):
    iid = s["players"][seat]["deck"][-1]
    s["players"][seat]["deck"].remove(iid)
    s["cards"][iid] = card_id
    s["players"][seat]["grave"].append(iid)
    return iid


def test_every_named_ability_of_a_bk1_card_is_interpreted():
    """A card of the set naming an ability the engine does not interpret fails here."""
    used = {
        a.name
        for card in load_system().all_cards()
        if card.set_code == "BK1"
        for a in card.abilities
        if a.name
    }
    assert used <= set(NAMED)
    assert used - IMPLEMENTED == set()


@pytest.mark.rule("С: Прыжок", "С: Телепортация", "216.1б", "203.11")
@pytest.mark.parametrize("card_id", [DUST_RIDER, ASSASSIN])
def test_jump_and_teleport_go_to_any_unoccupied_cell_spending_all_movement(card_id):
    """Six objects; the card lands on A1', has spent all its movement and may not strike
    (it moved); an occupied cell is refused, and so is a card that has taken a step."""
    s = battle([(0, card_id, "C3"), (1, STURDY, "B1'")])
    me, them = at(s, "C3"), at(s, "B1'")
    ability = "jump" if card_id == DUST_RIDER else "teleport"
    with pytest.raises(IllegalAction) as info:
        _ability(s, 0, ability=ability, card=me, cell="B1'")
    assert info.value.rule.startswith("С: ")
    s, _ = _ability(s, 0, ability=ability, card=me, cell="A1'")
    assert len(s["stack"]) == len(stack.SIMPLE_CHAIN)
    s, events = passes(s, 2 * 6)
    q = s["pieces"][str(me)]
    assert at(s, "A1'") == me and not q["closed"] and q["marks"] == SYSTEM.card(s, me).movement
    assert any(e["type"] == "relocate" and e["to"] == "A1'" for e in events)
    with pytest.raises(IllegalAction) as info:
        _strike(s, 0, me, them)
    assert info.value.rule == "203.11"
    s = battle([(0, card_id, "C3"), (1, STURDY, "B1'")])
    s, _ = do(s, 0, {"type": "move", "card": me, "cell": "C2"})
    with pytest.raises(IllegalAction):
        _ability(s, 0, ability=ability, card=me, cell="A1'")


@pytest.mark.rule("С: Прыжок", "103.3")
def test_a_jump_whose_cell_is_taken_before_the_wounds_object_is_cancelled_unpaid():
    s = battle([(0, DUST_RIDER, "C3"), (1, STURDY, "B1'"), (1, PLAIN, "E3'")])
    me, other = at(s, "C3"), at(s, "E3'")
    s, _ = _ability(s, 0, ability="jump", card=me, cell="A1'")
    s["pieces"][str(other)]["cell"] = [0, 3]  # A1' is taken meanwhile
    s, events = passes(s, 2 * 4)  # Declaration, Target, Defense, Wounds
    assert any(e["type"] == "cancelled" for e in events) and not s["stack"]
    assert at(s, "C3") == me and s["pieces"][str(me)]["marks"] == 0


@pytest.mark.rule("С: Манёвр", "Г: Поменять местами")
def test_manoeuvre_swaps_with_an_orthogonally_adjacent_creature_of_yours():
    s = battle([(0, STAG, "C2"), (0, PLAIN, "C1"), (0, STURDY, "D1"), (1, STURDY, "A3'")])
    me, friend, diagonal = at(s, "C2"), at(s, "C1"), at(s, "D1")
    offered = [a for a in SYSTEM.legal_actions(s, 0) if a.get("ability") == "manoeuvre"]
    assert offered == [{"type": "ability", "ability": "manoeuvre", "card": me, "target": friend}]
    with pytest.raises(IllegalAction) as info:
        _ability(s, 0, ability="manoeuvre", card=me, target=diagonal)
    assert info.value.rule == "С: Манёвр"
    s, _ = _ability(s, 0, ability="manoeuvre", card=me, target=friend)
    s, _ = passes(s, 2 * 6)
    assert at(s, "C1") == me and at(s, "C2") == friend
    assert s["pieces"][str(me)]["marks"] == 2 and not s["pieces"][str(me)]["closed"]


@pytest.mark.rule("С: Вызов", "206.10", "С: Удар Через Ряд")
def test_summon_brings_the_dearest_cheaper_beast_of_the_deck_next_to_the_source():
    s = battle([(0, DRUID, "C2"), (1, STURDY, "A3'")])
    _into_deck(s, 0, RAT, BOAR, DRUID)
    me = at(s, "C2")
    cells = {a["cell"] for a in SYSTEM.legal_actions(s, 0) if a.get("ability") == "summon"}
    assert cells == {"B1", "C1", "D1", "B2", "D2", "B3", "C3", "D3"}
    s, _ = _ability(s, 0, ability="summon", card=me, cell="C1")
    s, events = passes(s, 2 * 6)
    taken = next(e for e in events if e["type"] == "taken")
    assert taken["id"] == BOAR and taken["cell"] == "C1"
    boar = at(s, "C1")
    assert s["cards"][boar] == BOAR and not s["pieces"][str(boar)]["closed"]
    assert boar not in s["players"][0]["deck"] and s["pieces"][str(me)]["closed"]
    s = battle([(0, DRUID, "C2"), (1, STURDY, "A3'")])  # no beast in the deck: still paid
    s, _ = _ability(s, 0, ability="summon", card=at(s, "C2"), cell="C1")
    s, events = passes(s, 2 * 6)
    assert any(e["type"] == "summon_none" for e in events)
    assert s["pieces"][str(at(s, "C2"))]["closed"]


@pytest.mark.rule("С: Возрождение")
def test_resurrection_brings_a_cheaper_undead_from_the_graveyard():
    s = battle([(0, NECROMANCER, "C2"), (1, STURDY, "A3'")])
    corpse = _to_grave(s, 0, CORPSE)
    beast = _to_grave(s, 0, RAT)
    me = at(s, "C2")
    offered = [a for a in SYSTEM.legal_actions(s, 0) if a.get("ability") == "resurrection"]
    assert offered and {a["bring"] for a in offered} == {corpse}
    with pytest.raises(IllegalAction) as info:
        _ability(s, 0, ability="resurrection", card=me, cell="C1", bring=beast)
    assert info.value.rule == "С: Возрождение"
    s, _ = _ability(s, 0, ability="resurrection", card=me, cell="C1", bring=corpse)
    s, _ = passes(s, 2 * 6)
    assert at(s, "C1") == corpse and corpse not in s["players"][0]["grave"]


@pytest.mark.rule("С: Инкарнация", "D-33")
def test_incarnation_returns_closed_to_the_third_row_once():
    """Zombie Porter (Incarnation 2) in the Graveyard: a token at each of its owner's turn
    starts; at two it joins the squad closed on the first free cell of row 3; destroyed
    again with the marker, it gets no more tokens."""
    s = battle([(0, PLAIN, "C1"), (1, PLAIN, "C3'")])
    porter = _to_grave(s, 0, PORTER)
    s, _ = passes(s, 8)  # seat 0's turn 1 and seat 1's turn 2 end: seat 0's turn 3
    assert s["grave_tokens"] == {str(porter): 1} and porter in s["players"][0]["grave"]
    s, events = passes(s, 8)
    q = s["pieces"][str(porter)]
    assert at(s, "A3") == porter and q["closed"] and not q["hidden"]
    assert s["incarnated"] == [porter] and s["grave_tokens"] == {}
    assert any(e["type"] == "taken" and e["rule"] == "С: Инкарнация" for e in events)
    SYSTEM._destroy(s, porter, [], "402.3")
    s, events = passes(s, 8)
    assert porter in s["players"][0]["grave"] and s["grave_tokens"] == {}


@pytest.mark.rule("С: Перераспределение", "С: Стойкость", "401.5")
def test_redistribution_heals_one_creature_and_wounds_an_enemy_but_not_a_steadfast_one():
    s = battle(
        [
            (0, HERMIT, "C3"),
            (0, STURDY, "B2", {"wounds": 2}),
            (1, PLAIN, "A3'"),
            (1, RECRUIT, "E3'"),
        ]
    )
    me, mine, plain, recruit = at(s, "C3"), at(s, "B2"), at(s, "A3'"), at(s, "E3'")
    s1, _ = _ability(s, 0, ability="redistribution", card=me, target=mine, to=plain)
    s1, events = passes(s1, 2 * 6)
    assert s1["pieces"][str(mine)]["wounds"] == 0 and plain in s1["players"][1]["grave"]
    s2, _ = _ability(s, 0, ability="redistribution", card=me, target=mine, to=recruit)
    s2, events = passes(s2, 2 * 6)
    assert s2["pieces"][str(mine)]["wounds"] == 0 and s2["pieces"][str(recruit)]["wounds"] == 0
    assert any(e.get("rule") == "С: Стойкость" for e in events)
    with pytest.raises(IllegalAction):  # nothing to heal
        _ability(s2, 0, ability="redistribution", card=me, target=mine, to=plain)


@pytest.mark.rule("С: Чума", "407.2", "CK-077")
def test_plague_spreads_by_a_melee_strike_and_wounds_on_an_odd_roll():
    """Checklist 77 [407.2, 418.2]: Plague given with no duration lasts to the end of the
    battle. An even roll (4): the target gets Plague; later the plagued target rolls an
    odd 3 and wounds itself for its modified result (3)."""
    s = battle([(0, SERPENT, "C1"), (1, WHISPERER, "C1'", {"closed": True})])
    me, them = at(s, "C1"), at(s, "C1'")
    s, _ = _strike(s, 0, me, them)
    s["rng"] = rolls_rng(4)
    s, events = passes(s, 2 * 9)
    assert s["pieces"][str(them)]["gained"] == ["plague"] and SYSTEM.has(s, them, "plague")
    assert s["pieces"][str(me)]["wounds"] == 0
    s, _ = passes(s, 2)  # to the Final Phase
    s, _ = passes(s, 2)  # the turn passes: seat 1 attacks with its plagued creature
    assert s["active"] == 1 and SYSTEM.has(s, them, "plague")
    s["pieces"][str(me)]["closed"] = True
    s, _ = _strike(s, 1, them, me)
    s["rng"] = rolls_rng(2)  # 2 + 1 (Blessing) = 3, raw 2 is even: no self-wound
    s, events = passes(s, 2 * 9)
    assert not [e for e in events if e.get("rule") == "С: Чума"]
    s = battle([(0, SERPENT, "C1"), (1, WHISPERER, "C1'", {"closed": True})])
    s, _ = _strike(s, 0, at(s, "C1"), at(s, "C1'"))
    s["rng"] = rolls_rng(3)
    s, events = passes(s, 2 * 9)
    plague = [e["amount"] for e in events if e["type"] == "wounds" and e.get("rule") == "С: Чума"]
    assert plague == [3]
    assert s["pieces"][str(at(s, "C1"))]["wounds"] == 3


@pytest.mark.rule("С: Толстокожесть", "411.1")
def test_thick_skin_protects_from_the_attackers_plague():
    s = battle([(0, SERPENT, "C1"), (1, BOAR, "C1'", {"closed": True})])
    me, them = at(s, "C1"), at(s, "C1'")
    s, _ = _strike(s, 0, me, them)
    s["rng"] = rolls_rng(4)
    s, events = passes(s, 2 * 9)
    assert not SYSTEM.has(s, them, "plague") and s["pieces"][str(them)]["wounds"] == 2
    assert any(e.get("rule") == "С: Толстокожесть" for e in events)


@pytest.mark.rule("С: Трупоедство")
def test_corpse_eating_heals_fully_after_destroying_an_adjacent_enemy():
    s = battle([(0, TOAD, "C1", {"wounds": 1}), (1, PLAIN, "C1'", {"closed": True, "wounds": 1})])
    me, them = at(s, "C1"), at(s, "C1'")
    s, _ = _strike(s, 0, me, them)
    s["rng"] = rolls_rng(2)
    s, events = passes(s, 2 * 9)
    assert them in s["players"][1]["grave"] and s["pieces"][str(me)]["wounds"] == 0
    assert any(e.get("rule") == "С: Трупоедство" for e in events)


@pytest.mark.rule("С: Дар Жизни", "204.2", "D-28")
def test_gift_of_life_gives_additional_lives_to_a_creature_of_its_element():
    s = battle(
        [
            (0, OAK, "C1", {"closed": True, "wounds": 5}),
            (0, HEALER, "A3"),
            (0, WHISPERER, "E3"),
            (1, PLAIN, "C1'"),
        ],
        active=1,
    )
    oak, healer = at(s, "C1"), at(s, "A3")
    s, _ = _strike(s, 1, at(s, "C1'"), oak)
    s, events = passes(s, 2 * 9)
    assert oak in s["players"][0]["grave"]
    assert s["pieces"][str(healer)]["extra"] == 2 and SYSTEM.lives(s, healer) == 4
    assert any(e.get("rule") == "С: Дар Жизни" for e in events)


@pytest.mark.rule("С: Единение", "206.10")
def test_unity_shows_cheaper_creatures_and_gains_their_on_strike_abilities():
    s = battle([(0, BEATER, "C1"), (1, STURDY, "C1'", {"closed": True})])
    _into_deck(s, 0, RAT)
    me, them = at(s, "C1"), at(s, "C1'")
    s, _ = _strike(s, 0, me, them)
    s["rng"] = rolls_rng(4)
    s, events = passes(s, 2 * 9)
    shown = next(e for e in events if e["type"] == "shown")
    assert shown["cards"] == [RAT] and shown["gained"] == ["plague"]
    assert SYSTEM.has(s, them, "plague") and not SYSTEM.has(s, me, "plague")


@pytest.mark.rule("С: Жажда", "310", "402.3а")
def test_thirst_wounds_an_adjacent_creature_before_the_turn_or_stays_closed():
    """The prey at 0 lives gets the destruction effect, on the stack when the turn's
    priority begins (402.3а, 311.4); two passes execute it."""
    s = battle(
        [(0, CONSTRICTOR, "C1", {"closed": True}), (1, PLAIN, "C1'"), (1, STURDY, "A3'")],
        active=1,
    )
    me, prey = at(s, "C1"), at(s, "C1'")
    s, events = passes(s, 4)
    assert s["active"] == 0 and s["stack"][-1]["card"] == prey
    s, events = passes(s, 2)
    assert prey in s["players"][1]["grave"] and not s["stack"]
    assert not s["pieces"][str(me)]["closed"]
    s = battle([(0, CONSTRICTOR, "C2", {"closed": True}), (1, STURDY, "A3'")], active=1)
    s, events = passes(s, 4)
    assert s["active"] == 0 and s["pieces"][str(at(s, "C2"))]["closed"]
    assert any(e["type"] == "stays_closed" for e in events)


@pytest.mark.rule("С: Концентрация", "104.5")
def test_concentration_gains_a_token_after_an_opponents_turn_without_wounds():
    s = battle([(0, LODES, "A3"), (0, PLAIN, "C1"), (1, PLAIN, "C1'")], active=1)
    lodes = at(s, "A3")
    s, _ = passes(s, 4)
    assert s["pieces"][str(lodes)]["tokens"] == 1
    s = battle([(0, LODES, "C1", {"closed": True}), (1, PLAIN, "C1'")], active=1)
    lodes = at(s, "C1")
    s, _ = _strike(s, 1, at(s, "C1'"), lodes)
    s["rng"] = rolls_rng(2)
    s, _ = passes(s, 2 * 9 + 4)
    assert s["active"] == 0 and s["pieces"][str(lodes)]["wounds"] > 0
    assert s["pieces"][str(lodes)].get("tokens", 0) == 0


@pytest.mark.rule("С: Строй")
def test_formation_gives_its_abilities_while_another_formation_creature_is_beside():
    """Camp Standard-Bearer (Formation: +1 to its simple strike) next to Camp Warden along
    a row deals 1 + 1 with a weak blow; diagonally it is not in formation: 1. Woodland
    Sentry (Formation: +1 to its rolls) rolls 3 + 1 = 4 in formation."""
    s = battle([(0, BEARER, "C1"), (0, WARDEN, "B1"), (1, STURDY, "C1'", {"closed": True})])
    bearer = at(s, "C1")
    assert SYSTEM.in_formation(s, bearer)
    s, _ = _strike(s, 0, bearer, at(s, "C1'"))
    s["rng"] = rolls_rng(2)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(at(s, "C1'"))]["wounds"] == 2
    s = battle([(0, BEARER, "C1"), (0, WARDEN, "B2"), (1, STURDY, "C1'", {"closed": True})])
    assert not SYSTEM.in_formation(s, at(s, "C1"))
    s, _ = _strike(s, 0, at(s, "C1"), at(s, "C1'"))
    s["rng"] = rolls_rng(2)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(at(s, "C1'"))]["wounds"] == 1
    s = battle([(0, SENTRY, "C1"), (0, WARDEN, "D1"), (1, STURDY, "C1'", {"closed": True})])
    s, _ = _strike(s, 0, at(s, "C1"), at(s, "C1'"))
    s["rng"] = rolls_rng(3)
    s, events = passes(s, 2 * 9)
    assert next(e for e in events if e["type"] == "result")["final"] == [4, None]


@pytest.mark.rule("С: Удар Через Ряд", "401.5", "205.4")
def test_strike_through_a_row_hits_two_cells_away_over_an_empty_or_own_cell():
    s = battle([(0, PIKEMAN, "C2"), (1, STURDY, "C1'"), (1, PLAIN, "A2"), (0, PLAIN, "B2")])
    me, over_own, beside = at(s, "C2"), at(s, "A2"), at(s, "C1'")
    targets = {
        a["target"] for a in SYSTEM.legal_actions(s, 0) if a.get("ability") == "strike_through_row"
    }
    assert targets == {beside, over_own}
    s, _ = _ability(s, 0, ability="strike_through_row", card=me, target=beside)
    assert len(s["stack"]) == len(stack.FULL_CHAIN)
    s["rng"] = rolls_rng(1)
    s, events = passes(s, 2 * 9)
    assert next(e for e in events if e["type"] == "roll")["rolls"] == [1, None]
    assert s["pieces"][str(beside)]["wounds"] == 2 and s["pieces"][str(me)]["closed"]
    s = battle([(0, PIKEMAN, "C2"), (1, STURDY, "C1'"), (1, PLAIN, "C1")])
    with pytest.raises(IllegalAction) as info:
        _ability(s, 0, ability="strike_through_row", card=at(s, "C2"), target=at(s, "C1'"))
    assert info.value.rule == "С: Удар Через Ряд"


@pytest.mark.rule("211.9", "D-14")
def test_a_slow_action_lets_a_non_flyer_strike_a_flyer_in_its_next_turn():
    """The opponent has only a flyer: Steppe Lookout closes (a slow action) and in its
    owner's next turn may strike the flyer once; not before, and not when the opponent
    still has creatures that do not fly."""
    s = battle([(0, PLAIN, "C2"), (1, FLYER, None)])
    me = at(s, "C2")
    flyer = next(int(k) for k, q in s["pieces"].items() if q["cell"] is None)
    assert {"type": "slow", "card": me} in SYSTEM.legal_actions(s, 0)
    assert {"type": "strike", "card": me, "target": flyer} not in SYSTEM.legal_actions(s, 0)
    s, events = do(s, 0, {"type": "slow", "card": me})
    assert s["pieces"][str(me)]["closed"] and events[0]["rule"] == "211.9"
    s, _ = passes(s, 4)  # seat 0's Final Phase, then seat 1's Main Phase
    s["pieces"][str(flyer)]["closed"] = True  # seat 1's flyer does nothing meanwhile
    s, _ = passes(s, 4)
    assert s["active"] == 0 and s["turn"] == 3
    assert {"type": "strike", "card": me, "target": flyer} in SYSTEM.legal_actions(s, 0)
    s, _ = _strike(s, 0, me, flyer)
    assert s["pieces"][str(me)]["slow"] is None
    s, events = passes(s, 2 * 9)
    assert not [e for e in events if e["type"] == "cancelled"]
    assert [e["retaliator"] for e in events if e["type"] == "target"] == [flyer]
    s = battle([(0, PLAIN, "C2"), (1, FLYER, None), (1, STURDY, "A3'")])
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "slow", "card": at(s, "C2")})
    assert info.value.rule == "211.9"


@pytest.mark.rule("204.5", "204.6", "CK-071")
def test_negative_lives_count_against_current_lives_and_destroy_at_zero():
    """Negative lives are markers, not wounds: Lookout (2 lives) with 1 negative life has 1
    life left, and a weak blow of 1 destroys it; heal does not touch them."""
    s = battle([(0, PLAIN, "C1"), (1, PLAIN, "C1'", {"closed": True, "negative": 1})])
    them = at(s, "C1'")
    assert SYSTEM.lives(s, them) == 1
    assert next(p for p in SYSTEM.view(s, 0)["pieces"] if p.get("card") == them)["lives"] == 1
    s, _ = _strike(s, 0, at(s, "C1"), them)
    s["rng"] = rolls_rng(2)
    s, _ = passes(s, 2 * 9)
    assert them in s["players"][1]["grave"]


SOUL_CATCHER = "BK1-183"  # darkness; Concentration; remove 2 tokens: 2 wounds to an enemy
VESSEL = "BK1-178"  # Vessel of Shadows: darkness, cost X; at the start of battle: X tokens
SIGNAL_FIRE = "BK1-035"  # artifact: close: open a chosen creature of yours
CHILD = "BK1-024"  # Child of the Dry Wind: cost X; at the start of battle: X additional lives


@pytest.mark.rule("104.5", "С: Концентрация")
def test_a_token_ability_is_paid_with_tokens_without_closing():
    """Soul Catcher with 2 tokens, even closed: 2 wounds to an enemy, the tokens are spent,
    the card stays as it was; with 1 token it is refused."""
    s = battle([(0, SOUL_CATCHER, "C3", {"tokens": 2, "closed": True}), (1, STURDY, "A3'")])
    me, them = at(s, "C3"), at(s, "A3'")
    offered = [a for a in SYSTEM.legal_actions(s, 0) if a["type"] == "ability"]
    assert offered == [{"type": "ability", "ability": "script1", "card": me, "target": them}]
    s, _ = _ability(s, 0, ability="script1", card=me, target=them)
    s, _ = passes(s, 2 * 6)
    assert s["pieces"][str(them)]["wounds"] == 2 and s["pieces"][str(me)]["tokens"] == 0
    s = battle([(0, SOUL_CATCHER, "C3", {"tokens": 1}), (1, STURDY, "A3'")])
    with pytest.raises(IllegalAction) as info:
        _ability(s, 0, ability="script1", card=at(s, "C3"), target=at(s, "A3'"))
    assert info.value.rule == "104.5"


@pytest.mark.rule("С: Медитация", "104.5")
def test_meditation_pays_with_tokens_of_other_cards_of_its_element():
    """A darkness card with Meditation and "remove 2 tokens: 1 wound" and no tokens of its
    own uses the 2 tokens of a darkness Vessel of Shadows; the same card without
    Meditation, or with only a neutral card's tokens, cannot."""
    from dataclasses import replace

    from engine.berserk.cards import CardDB
    from engine.berserk.game import Berserk
    from engine.berserk.model import Ability

    db = load_system()
    base = db.cards["BK1-170"]  # Accursed Priest: darkness, Curse, Meditation
    script = {"when": "activated", "do": "wound", "amount": 1, "target": "any_enemy", "tokens": 2}
    monk = replace(base, id="T-001", abilities=(Ability(name="meditation"), Ability(script=script)))
    plain = replace(base, id="T-002", abilities=(Ability(script=script),))
    card_set = replace(db.sets[0], code="T", cards=(monk, plain))
    system = Berserk(CardDB([*db.sets, card_set]))

    def position(card_id, ally):
        s = battle([(0, "BK1-170", "C3"), (0, ally, "A3", {"tokens": 2}), (1, STURDY, "A3'")])
        s["cards"][at(s, "C3")] = card_id
        return s, at(s, "C3"), at(s, "A3"), at(s, "A3'")

    s, me, ally, them = position("T-001", VESSEL)
    s, _ = system.apply(s, 0, {"type": "ability", "ability": "script1", "card": me, "target": them})
    for _ in range(2 * 6):
        s, _ = system.apply(s, s["priority"]["holder"], {"type": "pass"})
    assert s["pieces"][str(them)]["wounds"] == 1 and s["pieces"][str(ally)]["tokens"] == 0
    cases = (("T-002", VESSEL, "script0"), ("T-001", "BK1-220", "script1"))  # Power Crystal
    for card_id, ally_id, key in cases:  # is neutral
        s, me, ally, them = position(card_id, ally_id)
        assert not [a for a in system.legal_actions(s, 0) if a.get("ability") == key]
        with pytest.raises(IllegalAction) as info:
            system.apply(s, 0, {"type": "ability", "ability": key, "card": me, "target": them})
        assert info.value.rule == "104.5"


@pytest.mark.rule("307.2", "301.2", "CK-031")
def test_start_of_battle_scripts_execute_at_once_without_a_stack():
    """Checklist 31 [301.2]: in the Preliminary Phase a trigger executes at once, with no
    stack: Vessel of Shadows (X 3) gets 3 tokens, Child of the Dry Wind (X 2) 2 lives."""
    s = battle([(0, VESSEL, "C3", {"x": 3}), (0, CHILD, "B3", {"x": 2}), (1, STURDY, "A3'")])
    s.update(phase="host", priority=None, stack=[])
    events = []
    SYSTEM._start_battle(s, events)
    assert s["pieces"][str(at(s, "C3"))]["tokens"] == 3
    assert SYSTEM.lives(s, at(s, "B3")) == 4 and not s["stack"]
    assert sorted(e["type"] for e in events if e.get("rule") == "307.2") == ["lives", "token"]


@pytest.mark.rule("104.4", "404")
def test_a_closing_script_opens_a_chosen_creature_of_yours():
    s = battle([(0, SIGNAL_FIRE, "C3"), (0, PLAIN, "C1", {"closed": True}), (1, STURDY, "A3'")])
    fire, plain = at(s, "C3"), at(s, "C1")
    s, _ = _ability(s, 0, ability="script0", card=fire, target=plain)
    s, _ = passes(s, 2 * 6)
    assert not s["pieces"][str(plain)]["closed"] and s["pieces"][str(fire)]["closed"]


HIGHWAY = "BK1-217"  # Old Highway (terrain): each hunter of yours gets +1 movement
FUNGUS = "BK1-070"  # Bracket Fungus (parasite): at the start of your turn, 1 wound to its host
GATHERER = "BK1-056"  # Honey Gatherer: at the end of your turn, heal an adjacent own one by 1
HERDER = "BK1-012"  # Horse Herder: after its simple strike, it heals 1


@pytest.mark.rule("203.4", "405")
def test_a_movement_bonus_script_gives_a_step_more():
    s = battle([(0, PLAIN, "C2", {"marks": 2}), (1, STURDY, "A3'"), (0, HIGHWAY, None)])
    me = at(s, "C2")
    assert SYSTEM.movement(s, me) == 3
    s, _ = do(s, 0, {"type": "move", "card": me, "cell": "C3"})
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "move", "card": me, "cell": "C2"})
    assert info.value.rule == "203.4"


@pytest.mark.rule("311.4", "313.1", "405", "Г: При гибели")
def test_turn_start_turn_end_and_on_death_scripts():
    """Bracket Fungus wounds its host at its owner's Turn Start; Honey Gatherer heals the
    most wounded creature of its owner next to it at the end of its owner's turn; Vengeful
    Spirit, destroyed, deals 2 wounds to the adjacent enemy creature."""
    s = battle(
        [
            (0, FUNGUS, "C1'"),
            (1, STURDY, "C1'"),
            (0, GATHERER, "A1"),
            (0, PLAIN, "A2", {"wounds": 1}),
            (1, PLAIN, "E3'"),
        ],
        active=1,
    )
    host = at(s, "C1'", seat=1)
    fungus = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == FUNGUS)
    s["pieces"][str(fungus)]["host"] = host
    s, events = passes(s, 4)  # seat 1's turn ends; seat 0's Turn Start
    assert s["active"] == 0 and s["pieces"][str(host)]["wounds"] == 1
    s, events = passes(s, 4)  # seat 0's turn ends
    assert s["pieces"][str(at(s, "A2"))]["wounds"] == 0
    avenger = "BK1-175"
    s = battle([(0, STURDY, "C1"), (1, avenger, "C1'", {"closed": True})])
    them = at(s, "C1'")
    s["pieces"][str(them)]["wounds"] = SYSTEM.card(s, them).lives - 1
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    s["rng"] = rolls_rng(2)
    s, events = passes(s, 2 * 9)
    assert them in s["players"][1]["grave"] and s["pieces"][str(at(s, "C1"))]["wounds"] == 2
    assert [e["amount"] for e in events if e["type"] == "wounds" and e.get("rule") == "405"] == [2]


@pytest.mark.rule("216.12", "405")
def test_an_after_strike_script_acts_in_the_payment_object():
    s = battle([(0, HERDER, "C1", {"wounds": 1}), (1, STURDY, "C1'", {"closed": True})])
    me = at(s, "C1")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": at(s, "C1'")})
    s["rng"] = rolls_rng(2)
    s, events = passes(s, 2 * 9)
    assert s["pieces"][str(me)]["wounds"] == 0
    assert any(e["type"] == "healed" and e["card"] == me for e in events)


BOW = "BK1-076"  # Hunting Bow (equipment): its host has Shot 1
CUIRASS = "BK1-038"  # Leather Cuirass (equipment): its host has Armour 1


@pytest.mark.rule("406.1", "407.1", "214.4", "С: Броня", "С: Выстрел")
def test_equipment_gives_its_host_named_abilities_while_it_is_in_play():
    """Hunting Bow gives its host Shot 1 (a playable ability of the host), Leather Cuirass
    Armour 1 (a strong 2 of 1-1-2 leaves 1 wound); with the equipment gone, so are they."""
    s = battle(
        [
            (0, PLAIN, "C1"),
            (0, BOW, "C1"),
            (1, STURDY, "C1'", {"closed": True}),
            (1, CUIRASS, "C1'"),
        ]
    )
    me, them = at(s, "C1"), at(s, "C1'")
    bow = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == BOW)
    cuirass = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == CUIRASS)
    s["pieces"][str(bow)]["host"] = me
    s["pieces"][str(cuirass)]["host"] = them
    SYSTEM._recheck_grants(s)  # 406.1: as at every priority
    assert SYSTEM.has(s, me, "shot") and SYSTEM.ability_x(s, them, "armour") == 1
    shots = [a for a in SYSTEM.legal_actions(s, 0) if a.get("ability") == "shot"]
    assert {(a["card"], a["target"]) for a in shots} == {(me, them), (me, cuirass)}
    s2, _ = do(s, 0, {"type": "strike", "card": me, "target": them})
    s2["rng"] = rolls_rng(6)
    s2, _ = passes(s2, 2 * 9)
    assert s2["pieces"][str(them)]["wounds"] == 1
    del s["pieces"][str(bow)]
    s["players"][0]["grave"].append(bow)
    SYSTEM._recheck_grants(s)
    assert not SYSTEM.has(s, me, "shot")
    assert not [a for a in SYSTEM.legal_actions(s, 0) if a.get("ability") == "shot"]


@pytest.mark.rule("406.1", "311.4", "С: Регенерация")
def test_a_terrain_gives_the_creatures_of_its_class_an_ability():
    """Sacred Grove: each spirit of yours has Regeneration 1; a spirit heals at its Turn
    Start, a creature of another class does not."""
    grove = "BK1-071"
    spirit = "BK1-054"  # Rootling: spirit
    s = battle(
        [
            (0, grove, None),
            (0, spirit, "A3", {"wounds": 1}),
            (0, PLAIN, "C3", {"wounds": 1}),
            (1, STURDY, "E3'"),
        ],
        active=1,
    )
    s, _ = passes(s, 4)
    assert s["active"] == 0
    assert s["pieces"][str(at(s, "A3"))]["wounds"] == 0
    assert s["pieces"][str(at(s, "C3"))]["wounds"] == 1


def test_every_script_of_a_bk1_card_is_run():
    """A card of the set with a script the engine does not run fails here."""
    from engine.berserk.game import script_runs

    scripts = [
        (card.id, a.script)
        for card in load_system().all_cards()
        if card.set_code == "BK1"
        for a in card.abilities
        if a.script is not None
    ]
    assert len(scripts) > 80
    assert [(card_id, sc) for card_id, sc in scripts if not script_runs(sc)] == []
    assert not script_runs({"when": "activated", "do": "heal", "target": "all_own"})


CLOAK = "BK1-077"  # Cloak of Leaves: armour; its host has Stealth


@pytest.mark.rule("С: Скрытность", "415.2б", "415.5", "D-22", "D-23")
def test_stealth_given_by_equipment_keeps_a_hidden_host_hidden():
    """Decision 0053: an equipment whose text gives its host Stealth may take a hidden
    host (the second player's third row, D-22), unlike other equipment (D-23); the grant
    reaches the hidden host, which then is a Stealth card: not revealed at the end of the
    first player's first turn, revealed by its owner at will (``reveal``, 415.5)."""
    from tests.engine.berserk.test_game import SWORD, _place, _to_placement, deck

    def setup(equipment):
        s = _to_placement(
            deck(PLAIN), deck(PLAIN, STURDY, equipment), [PLAIN], [PLAIN, STURDY, equipment]
        )
        s, _ = _place(s, 0, PLAIN, "C1")
        s, _ = _place(s, 1, PLAIN, "C1'")
        s, _ = _place(s, 1, STURDY, "C3'")
        s, _ = _place(s, 1, equipment, "B3'")
        s, _ = do(s, 1, {"type": "keep_hidden", "card": at(s, "C3'")})
        s, _ = do(s, 1, {"type": "reveal_done"})
        assert s["phase"] == "host"
        return s, at(s, "C3'"), at(s, "B3'")

    s, hidden, sword = setup(SWORD)  # D-23: a plain equipment takes no hidden host
    assert {"type": "host", "card": sword, "host": hidden} not in SYSTEM.legal_actions(s, 1)
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "host", "card": sword, "host": hidden})
    assert info.value.rule == "D-23"

    s, hidden, cloak = setup(CLOAK)
    assert {"type": "host", "card": cloak, "host": hidden} in SYSTEM.legal_actions(s, 1)
    s, _ = do(s, 1, {"type": "host", "card": cloak, "host": hidden})
    assert s["phase"] == "main" and s["pieces"][str(hidden)]["hidden"]
    assert s["pieces"][str(hidden)]["granted"] == [["stealth", None, ""]]
    assert SYSTEM.has(s, hidden, "stealth") and not SYSTEM.card(s, hidden).has("stealth")
    s, _ = passes(s, 4)  # the end of the first player's first turn: D-22 spares it
    assert s["turn"] == 2 and s["active"] == 1 and s["pieces"][str(hidden)]["hidden"]
    assert {"type": "reveal", "card": hidden} in SYSTEM.legal_actions(s, 1)
    s, events = do(s, 1, {"type": "reveal", "card": hidden})
    assert not s["pieces"][str(hidden)]["hidden"]
    assert [e["rule"] for e in events if e["type"] == "reveal"] == ["С: Скрытность"]


@pytest.mark.rule("206.5", "206.7", "306.2", "С: Скрытность")
def test_equipment_on_a_hidden_host_is_open_information_the_host_stays_hidden():
    """Cloak of Leaves on a hidden host (decision 0053): the Battlefield is an open zone
    (206.5-206.7) and equipment is never kept hidden (306.2(2)): it was revealed before it
    took its host, and the ``host`` event named the host's cell. So the opponent and a
    spectator see the Cloak on that cell (``on_hidden``), but not which card hosts it."""
    from tests.engine.berserk.test_game import _place, _to_placement, deck

    s = _to_placement(deck(PLAIN), deck(PLAIN, STURDY, CLOAK), [PLAIN], [PLAIN, STURDY, CLOAK])
    s, _ = _place(s, 0, PLAIN, "C1")
    s, _ = _place(s, 1, PLAIN, "C1'")
    s, _ = _place(s, 1, STURDY, "C3'")
    s, _ = _place(s, 1, CLOAK, "B3'")
    hidden, cloak = at(s, "C3'"), at(s, "B3'")
    s, _ = do(s, 1, {"type": "keep_hidden", "card": hidden})
    s, _ = do(s, 1, {"type": "reveal_done"})
    s, _ = do(s, 1, {"type": "host", "card": cloak, "host": hidden})
    for viewer in (0, None):
        pieces = SYSTEM.view(s, viewer)["pieces"]
        on_it = [p for p in pieces if p.get("card") == cloak]
        assert on_it == [{**on_it[0], "id": CLOAK, "cell": "C3'", "host": None, "on_hidden": True}]
        tile = [p for p in pieces if p.get("hidden") and p["cell"] == "C3'"]
        assert tile == [{"owner": 1, "cell": "C3'", "hidden": True}]  # no card, no number
        assert all(p.get("card") != hidden and p.get("host") != hidden for p in pieces)
    mine = {p["card"]: p for p in SYSTEM.view(s, 1)["pieces"]}
    assert mine[cloak]["host"] == hidden and "on_hidden" not in mine[cloak]
    assert mine[hidden]["id"] == STURDY and mine[hidden]["hidden"]
