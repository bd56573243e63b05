"""Statements of the conformance checklist (digest §16) not covered elsewhere, one test each
on small positions of the real set BK1: CK-017, CK-032, CK-033, CK-035, CK-065, CK-067,
CK-069, CK-072, CK-074, CK-078 (407.4 and 407.5), CK-079, CK-082, CK-083, CK-084, CK-085, CK-086, CK-087.
(CK-031 and CK-077 are in ``test_named_abilities.py``, CK-080 in ``test_abilities.py``.)
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.berserk import effects
from engine.berserk.cards import CardDB, load_system
from engine.berserk.game import SYSTEM, Berserk
from engine.berserk.model import Ability
from engine.core.errors import IllegalAction, NotYourTurn
from tests.engine.berserk.test_game import (
    FLYER,
    PLAIN,
    STURDY,
    SYMBIOTE,
    _place,
    _to_recruitment,
    at,
    battle,
    deck,
    do,
    passes,
    rolls_rng,
)

RIDER = "BK1-002"  # Young Rider: Vanguard
GUARD = "BK1-079"  # Mountain Guard: Armour 1, 4 lives
ARCHER = "BK1-003"  # Feathergrass Archer: Shot 1
SIGNAL_FIRE = "BK1-035"  # artifact, 2 lives
TERRAIN = "BK1-217"  # Old Highway
HEALER = "BK1-042"  # Grove Healer: Heal 2
EXECUTIONER = "BK1-090"  # Gorge Executioner: Finishing 2
SERPENT = "BK1-122"  # Silt Serpent: Plague
LEECH = "BK1-132"  # Leech Keeper: Vampirism, 4 lives, 1-2-2
PILGRIM = "BK1-204"  # Pilgrim: prevents 1 wound a turn to each adjacent enemy creature
STARGAZER = "BK1-211"  # Stargazer: starts the battle with 1 token; Concentration;
# remove 3 tokens: take control of a chosen enemy creature
BOG_HAG = "BK1-123"  # Bog Hag: adjacent enemy creatures cannot gain tokens
SPRING = "BK1-073"  # Healing Spring: once per battle, an adjacent own creature survives
WHISPERER = "BK1-181"  # Whisperer in the Dark: an adjacent enemy's death -> its deck
SWORDSMAN = "BK1-199"  # Wandering Swordsman: an adjacent own creature's death -> its deck
INFIRMARY = "BK1-219"  # Field Infirmary: Instant. Close: heal a chosen own creature by 3


def _flyer_of(s, seat):
    return next(int(k) for k, q in s["pieces"].items() if q["owner"] == seat and q["cell"] is None)


@pytest.mark.rule("307.4", "308.2", "CK-032")
def test_ck32_a_player_who_passed_in_the_vanguard_step_declares_nothing_more():
    s = battle([(0, RIDER, "C1"), (1, RIDER, "C1'"), (1, STURDY, "D1'")])
    me = at(s, "C1")
    s.update(phase="vanguard", vanguard=0, turn=0, priority=None)
    s, _ = do(s, 0, {"type": "pass"})
    assert SYSTEM.to_act(s) == (1,)
    with pytest.raises(NotYourTurn):
        do(s, 0, {"type": "strike", "card": me, "target": at(s, "C1'")})


@pytest.mark.rule("С: Авангард", "CK-033")
def test_ck33_a_vanguard_strike_allows_no_defender_and_the_target_deals_no_wounds():
    """The strike executes at once: no stack, so no window for a defender (D'1 could
    defend a simple strike); only the attacker rolls and takes no wounds."""
    s = battle([(0, RIDER, "C1"), (1, PLAIN, "C1'"), (1, STURDY, "D1'")])
    me, them = at(s, "C1"), at(s, "C1'")
    s.update(phase="vanguard", vanguard=0, turn=0, priority=None)
    s["rng"] = rolls_rng(2)
    s, events = do(s, 0, {"type": "strike", "card": me, "target": them})
    assert not any(e["type"] in ("defender", "redirected") for e in events)
    assert next(e for e in events if e["type"] == "roll")["rolls"] == [2, None]
    assert s["pieces"][str(me)]["wounds"] == 0 and s["pieces"][str(them)]["wounds"] == 1


@pytest.mark.rule("311.3", "313.2", "D-14", "CK-035")
def test_ck35_effects_for_a_turn_end_with_it():
    """Armour's "during each player's turn" count starts afresh at the Turn Start, and the
    strike a slow action grants for its owner's next turn ends with that turn (D-14)."""
    s = battle([(0, PLAIN, "C2", {"slow": 3}), (1, FLYER, None), (1, GUARD, "A3'", {"armour": 1})])
    guard = at(s, "A3'")
    s, _ = passes(s, 4)  # turn 1 ends: Turn Start of seat 1
    assert s["turn"] == 2 and s["pieces"][str(guard)]["armour"] == 0
    s["pieces"][str(guard)]["armour"] = 1
    del s["pieces"][str(guard)]  # the opponent has only the flyer left
    s, _ = passes(s, 4)
    flyer = _flyer_of(s, 1)
    me = at(s, "C2")
    assert s["turn"] == 3
    assert {"type": "strike", "card": me, "target": flyer} in SYSTEM.legal_actions(s, 0)
    s["pieces"][str(flyer)]["closed"] = True
    s, _ = passes(s, 8)  # turn 3 ends without the strike; turn 5
    assert s["turn"] == 5
    assert {"type": "strike", "card": me, "target": flyer} not in SYSTEM.legal_actions(s, 0)


def _defender_window():
    s = battle(
        [
            (0, PLAIN, "C1"),
            (1, PLAIN, "C1'"),
            (1, STURDY, "D1'"),
            (1, STURDY, "B1'"),
        ]
    )
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s, _ = passes(s, 2)  # the Declaration object executes
    s, _ = do(s, 0, {"type": "pass"})  # the Target object is on top
    return s


@pytest.mark.rule("412.5", "CK-065")
def test_ck65_a_redirected_strike_cannot_be_redirected_again():
    s = _defender_window()
    s, _ = do(s, 1, {"type": "defender", "card": at(s, "D1'")})
    s, events = passes(s, 4)  # the redirection's Wounds and Payment objects
    assert any(e["type"] == "redirected" for e in events)
    assert s["stack"][-1]["kind"] == "target"
    s, _ = do(s, 0, {"type": "pass"})
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "defender", "card": at(s, "B1'")})
    assert info.value.rule == "412.5"


@pytest.mark.rule("213.4", "212.1", "CK-067")
def test_ck67_an_open_artifact_does_not_roll_and_a_terrain_takes_no_wounds():
    s = battle([(0, PLAIN, "C1"), (1, SIGNAL_FIRE, "C1'"), (1, STURDY, "A3'")])
    fire = at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": fire})
    s["rng"] = rolls_rng(2)
    s, events = passes(s, 2 * 9)
    assert next(e for e in events if e["type"] == "roll")["rolls"] == [2, None]
    assert s["pieces"][str(fire)]["wounds"] == 1  # weak: 1 of 1-1-2, no blow back
    assert s["pieces"][str(at(s, "C1"))]["wounds"] == 0
    s = battle([(0, ARCHER, "C1"), (1, TERRAIN, None), (1, STURDY, "A3'")])
    terrain = _flyer_of(s, 1)
    s, _ = do(s, 0, {"type": "ability", "ability": "shot", "card": at(s, "C1"), "target": terrain})
    s["rng"] = rolls_rng(6)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(terrain)]["wounds"] == 0


@pytest.mark.rule("211.6", "CK-069")
def test_ck69_who_defends_against_a_flyer_and_a_flyer_never_against_a_non_flyer():
    """A flyer strikes C1': D1' (a non-flyer next to the target) may defend. A Lookout
    strikes C1': seat 1's flyer may not defend it."""
    s = battle([(0, FLYER, None), (1, PLAIN, "C1'"), (1, STURDY, "D1'"), (1, FLYER, None)])
    mine = _flyer_of(s, 0)
    theirs = _flyer_of(s, 1)
    s, _ = do(s, 0, {"type": "strike", "card": mine, "target": at(s, "C1'")})
    s, _ = passes(s, 2)
    s, _ = do(s, 0, {"type": "pass"})
    offered = {a["card"] for a in SYSTEM.legal_actions(s, 1) if a["type"] == "defender"}
    assert at(s, "D1'") in offered
    s = battle([(0, PLAIN, "C1"), (1, PLAIN, "C1'"), (1, FLYER, None)])
    theirs = _flyer_of(s, 1)
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s, _ = passes(s, 2)
    s, _ = do(s, 0, {"type": "pass"})
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "defender", "card": theirs})
    assert info.value.rule == "211.6"


@pytest.mark.rule("402.3а", "402.3б", "С: Вампиризм", "CK-072")
def test_ck72_a_creature_healed_before_its_destruction_executes_survives():
    """Leech Keeper (1 life left, Vampirism) strikes an open Teller of Winds: rolls 5 and 3,
    medium (2) for it, weak (1) back. At 0 lives it gets the destruction effect, but its
    Vampirism heals 2 first, so the destruction is cancelled. Without Vampirism (a Lookout
    at 1 life), the same blow back destroys."""
    s = battle([(0, LEECH, "C1", {"wounds": 3}), (1, STURDY, "C1'")])
    me = at(s, "C1")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": at(s, "C1'")})
    s["rng"] = rolls_rng(5, 3)
    s, events = passes(s, 2 * 9)
    assert any(e["type"] == "destruction_cancelled" and e["card"] == me for e in events)
    assert SYSTEM.lives(s, me) == 2 and me not in s["players"][0]["grave"]
    s = battle([(0, PLAIN, "C1", {"wounds": 1}), (1, STURDY, "C1'")])
    me = at(s, "C1")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": at(s, "C1'")})
    s["rng"] = rolls_rng(5, 3)
    s, events = passes(s, 2 * 9)
    assert me in s["players"][0]["grave"]


def _pending_destruction(extra=()):
    """Steppe Lookout strikes a closed Teller of Winds (1 of 3 lives left) for 2: after
    the Wounds object its destruction effect is on top of the stack (402.3а)."""
    s = battle([(0, PLAIN, "C1"), (1, STURDY, "C1'", {"closed": True, "wounds": 1}), *extra])
    them = at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    s["rng"] = rolls_rng(6)
    s, events = passes(s, 2 * 7)  # Declaration .. Wounds
    assert {"type": "destruction_effect", "card": them, "chain": 1, "rule": "402.3а"} in events
    assert s["stack"][-1]["kind"] == "destruction" and s["stack"][-1]["card"] == them
    assert SYSTEM.lives(s, them) == 0 and str(them) in s["pieces"]
    return s, them


@pytest.mark.rule("402.3а", "402.3б", "215.8", "215.9", "404.6", "CK-072")
def test_ck72_an_instant_heal_answers_a_pending_destruction_and_the_creature_survives():
    """The destruction effect is a stack object of its own: the active player gets
    priority, passes; the other player answers with Field Infirmary's instant heal (404.6),
    whose chain executes first; when the destruction executes the Teller has lives again,
    so it is cancelled (402.3б)."""
    s, them = _pending_destruction([(1, INFIRMARY, "C3'")])
    infirmary = at(s, "C3'")
    heal = {"type": "ability", "ability": "script0", "card": infirmary, "target": them}
    assert s["priority"]["holder"] == 0 and SYSTEM.legal_actions(s, 0) == [{"type": "pass"}]
    s, _ = do(s, 0, {"type": "pass"})
    assert heal in SYSTEM.legal_actions(s, 1)
    s, _ = do(s, 1, heal)
    assert [o["kind"] for o in s["stack"][-2:]] == ["target", "declaration"]
    s, events = passes(s, 2 * 6)  # the heal's six objects (216.1б)
    assert SYSTEM.lives(s, them) == 3 and s["stack"][-1]["kind"] == "destruction"
    s, events = passes(s, 2)
    assert {"type": "destruction_cancelled", "card": them, "chain": 1, "rule": "402.3б"} in events
    assert str(them) in s["pieces"] and them not in s["players"][1]["grave"]
    assert s["pieces"][str(infirmary)]["closed"]  # paid by closing (404.2)


@pytest.mark.rule("402.3а", "215.8", "404.7", "CK-072")
def test_ck72_a_pending_destruction_with_no_answer_executes_and_only_instants_answer_it():
    """With no answer, two passes execute the destruction: the Teller goes to the
    Graveyard. A non-instant ability (Grove Healer's Heal 2) cannot answer it (404.7)."""
    s, them = _pending_destruction([(1, HEALER, "C3'")])
    healer = at(s, "C3'")
    s, _ = do(s, 0, {"type": "pass"})
    assert SYSTEM.legal_actions(s, 1) == [{"type": "pass"}]
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "ability", "ability": "heal", "card": healer, "target": them})
    assert info.value.rule == "404.7"
    s, events = do(s, 1, {"type": "pass"})
    assert {"type": "destroyed", "card": them} in [
        {k: e.get(k) for k in ("type", "card")} for e in events
    ]
    assert them in s["players"][1]["grave"] and str(them) not in s["pieces"]


@pytest.mark.rule("404.6", "215.6", "216.1", "CK-072", "CK-043")
def test_ck72_the_instant_heal_waits_for_priority_and_answers_any_object_on_top():
    """Field Infirmary's heal is instant (404.6): whoever holds priority may declare it
    whatever object is on top, in either player's turn; the player without priority
    cannot (215.6). While seat 0's strike has its Declaration object on top, seat 1 (given
    priority by a pass) heals the Teller the strike targets, and that chain executes
    first (216.1а), so the Teller has 3 lives when the blow lands. The Infirmary, its cost
    owed to the Payment object of its chain, cannot declare it again meanwhile (404.3)."""
    s, them = _pending_destruction([(1, INFIRMARY, "C3'")])
    heal = {"type": "ability", "ability": "script0", "card": at(s, "C3'"), "target": them}
    with pytest.raises((IllegalAction, NotYourTurn)):
        do(s, 1, heal)
    s = battle([(0, PLAIN, "C1"), (1, STURDY, "C1'", {"wounds": 2}), (1, INFIRMARY, "C3'")])
    infirmary, them = at(s, "C3'"), at(s, "C1'")
    heal = {"type": "ability", "ability": "script0", "card": infirmary, "target": them}
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    assert s["stack"][-1]["kind"] == "declaration" and heal not in SYSTEM.legal_actions(s, 0)
    s, _ = do(s, 0, {"type": "pass"})
    assert heal in SYSTEM.legal_actions(s, 1)
    s, _ = do(s, 1, heal)
    assert [o["kind"] for o in s["stack"][-2:]] == ["target", "declaration"]
    assert s["stack"][-1]["chain"] == 2 and s["stack"][-7]["kind"] == "declaration"
    assert heal not in SYSTEM.legal_actions(s, 0) and heal not in SYSTEM.legal_actions(s, 1)
    s, _ = do(s, 0, {"type": "pass"})
    with pytest.raises(IllegalAction) as info:
        do(s, 1, heal)
    assert info.value.rule == "404.3"
    s, _ = passes(s, 1 + 2 * 5)  # the heal's six objects (216.1б)
    assert SYSTEM.lives(s, them) == 3 and s["pieces"][str(infirmary)]["closed"]
    assert s["stack"][-1] == {"chain": 1, "kind": "declaration", "seen": True}


@pytest.mark.rule("404.6", "313", "CK-043")
def test_an_instant_heal_is_offered_in_the_opponents_turn_and_the_final_phase():
    """404.6: "in any phase of one's own turn or the opponent's": with an empty stack,
    the non-active player may heal in the active player's Main Phase, and either player
    in the Final Phase; a non-instant ability (Grove Healer's Heal 2) only in one's own
    Main Phase (404.7)."""
    s = battle(
        [
            (0, PLAIN, "C1"),
            (1, STURDY, "C1'", {"wounds": 1}),
            (1, INFIRMARY, "C3'"),
            (1, HEALER, "D3'"),
        ]
    )
    infirmary, them, healer = at(s, "C3'"), at(s, "C1'"), at(s, "D3'")
    heal = {"type": "ability", "ability": "script0", "card": infirmary, "target": them}
    s, _ = do(s, 0, {"type": "pass"})
    offered = SYSTEM.legal_actions(s, 1)
    assert heal in offered and not any(a.get("card") == healer for a in offered)
    s, _ = do(s, 1, {"type": "pass"})
    assert s["phase"] == "final"
    s, _ = do(s, 0, {"type": "pass"})
    assert s["phase"] == "final" and heal in SYSTEM.legal_actions(s, 1)
    s, _ = do(s, 1, heal)
    s, _ = passes(s, 2 * 6)
    assert SYSTEM.lives(s, them) == 3 and s["phase"] == "final" and s["active"] == 0


@pytest.mark.rule("210.7", "CK-074")
def test_ck74_a_symbiote_dies_when_its_host_leaves_the_battlefield():
    """The host is destroyed: its symbiote gets a destruction of its own (210.7) and goes
    to the Graveyard after it. (No effect changes a host's controller yet.)"""
    s = battle([(0, PLAIN, "C1"), (1, STURDY, "C1'", {"closed": True}), (1, SYMBIOTE, "C1'")])
    host = at(s, "C1'")
    symbiote = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == SYMBIOTE)
    s["pieces"][str(symbiote)]["host"] = host
    s["pieces"][str(host)]["wounds"] = 2
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": host})
    s["rng"] = rolls_rng(2)
    s, events = passes(s, 2 * 9)
    assert s["players"][1]["grave"][-2:] == [host, symbiote]
    assert [e["rule"] for e in events if e["type"] == "destroyed"] == ["402.3", "210.7"]


@pytest.mark.rule("210.12", "200.2б", "CK-074")
def test_ck74_a_host_changing_controller_does_not_take_its_symbiote_along():
    """Stargazer removes 3 tokens to take control of seat 1's host: the host is
    seat 0's now, its symbiote stays seat 1's, still on it. The symbiote itself cannot be
    taken on its own."""
    s = battle([(0, STARGAZER, "C3", {"tokens": 3}), (1, STURDY, "C1'"), (1, SYMBIOTE, "C1'")])
    gazer, host = at(s, "C3"), at(s, "C1'")
    symbiote = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == SYMBIOTE)
    s["pieces"][str(symbiote)]["host"] = host
    take = {"type": "ability", "ability": "script3", "card": gazer}
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {**take, "target": symbiote})
    assert info.value.rule == "210.12"
    s, _ = do(s, 0, {**take, "target": host})
    s, events = passes(s, 2 * 6)
    assert {"type": "control", "card": host, "seat": 0, "rule": "200.2б"} in [
        {k: v for k, v in e.items() if k != "chain"} for e in events
    ]
    assert s["pieces"][str(host)]["owner"] == 0 and s["owner"][host] == 1
    assert s["pieces"][str(symbiote)]["owner"] == 1
    assert s["pieces"][str(symbiote)]["host"] == host
    assert s["pieces"][str(gazer)]["tokens"] == 0


@pytest.mark.rule("407.5", "CK-078")
def test_ck78_losing_a_named_ability_removes_every_copy_and_it_cannot_be_regained():
    s = battle([(0, SERPENT, "C1"), (1, STURDY, "C1'")])
    serpent = at(s, "C1")
    s["pieces"][str(serpent)]["gained"] = ["plague"]  # printed and acquired
    SYSTEM._lose(s, serpent, "plague", [], "407.5")
    assert not SYSTEM.has(s, serpent, "plague")
    events = []
    SYSTEM._gain(s, serpent, "plague", events, "С: Чума")
    assert not SYSTEM.has(s, serpent, "plague") and events == []


WRAITH = "BK1-172"  # Wraith of Oblivion: Incorporeal, Fading 1; close: a chosen enemy
# creature loses all its abilities until the end of the battle


@pytest.mark.rule("407.4", "407.3", "208.6", "CK-078")
def test_ck78_losing_all_abilities_keeps_the_acquired_ones():
    """Wraith of Oblivion's third ability (script2): Silt Serpent loses its printed Plague
    and its class (a class is an ability, 208.6) but keeps the Vampirism it acquired; it
    stays so (407.3), the views still name the printed card, and a second try is refused."""
    s = battle([(0, WRAITH, "C2"), (1, SERPENT, "C1'")])
    wraith, serpent = at(s, "C2"), at(s, "C1'")
    s["pieces"][str(serpent)]["gained"] = ["vampirism"]  # acquired (407.1)
    assert SYSTEM.has(s, serpent, "plague") and SYSTEM.card(s, serpent).classes
    blank = {"type": "ability", "ability": "script2", "card": wraith, "target": serpent}
    assert blank in SYSTEM.legal_actions(s, 0)
    s, _ = do(s, 0, blank)
    s, events = passes(s, 2 * 6)
    assert {"type": "lost_all", "card": serpent, "rule": "407.4"} in [
        {k: v for k, v in e.items() if k != "chain"} for e in events
    ]
    assert not SYSTEM.has(s, serpent, "plague")  # printed: lost
    assert SYSTEM.has(s, serpent, "vampirism")  # acquired: kept
    assert SYSTEM.card(s, serpent).abilities == () and SYSTEM.card(s, serpent).classes == ()
    assert SYSTEM.card(s, serpent).lives == 5  # its properties stay (200.7)
    piece = next(p for p in SYSTEM.view(s, 1)["pieces"] if p.get("card") == serpent)
    assert piece["id"] == SERPENT and piece["blank"] is True
    s = {**s, "pieces": {**s["pieces"], str(wraith): {**s["pieces"][str(wraith)]}}}
    s["pieces"][str(wraith)].update(closed=False, acted=False)
    s["turn"] += 2  # 407.3: still without them turns later
    assert not SYSTEM.has(s, serpent, "plague")
    with pytest.raises(IllegalAction) as info:
        do(s, 0, blank)
    assert info.value.rule == "407.4"


@pytest.mark.rule("414.4", "С: Броня", "CK-079")
def test_ck79_of_armour_1_and_armour_2_only_armour_2_acts():
    db = load_system()
    guard = db.cards[GUARD]
    double = replace(guard, id="T-079", abilities=(Ability("armour", 1), Ability("armour", 2)))
    system = Berserk(CardDB([*db.sets, replace(db.sets[0], code="T", cards=(double,))]))
    s = battle([(0, PLAIN, "C1"), (1, GUARD, "C1'", {"closed": True})])
    them = at(s, "C1'")
    s["cards"][them] = "T-079"
    s, _ = system.apply(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    s["rng"] = rolls_rng(6)  # strong: 2
    for _ in range(2 * 9):
        s, _ = system.apply(s, s["priority"]["holder"], {"type": "pass"})
    assert s["pieces"][str(them)]["wounds"] == 0  # 2 prevented, not 1 (nor 3)


@pytest.mark.rule("420.5", "С: Броня", "CK-083")
def test_ck83_a_prevention_applies_after_the_modifiers():
    """Cellar Rat (1-1-1) next to Herd Leader (+1 to adjacent beasts' simple strikes) hits
    Outpost Sentry (Armour 2) weakly: 1 + 1 = 2, then both prevented: no wound (Armour
    before the modifier would leave 1). (BK1 has no prevention of the attacker's side.)"""
    s = battle(
        [(0, "BK1-174", "C1"), (0, "BK1-006", "B1"), (1, "BK1-212", "C1'", {"closed": True})]
    )
    them = at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    s["rng"] = rolls_rng(2)
    s, events = passes(s, 2 * 9)
    assert s["pieces"][str(them)]["wounds"] == 0
    assert not [e for e in events if e["type"] == "wounds"]
    s = battle([(0, "BK1-174", "C1"), (0, "BK1-006", "B1"), (1, STURDY, "C1'", {"closed": True})])
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s["rng"] = rolls_rng(2)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(at(s, "C1'"))]["wounds"] == 2  # without Armour: 1 + 1


@pytest.mark.rule("420.3б", "420.4", "420.5", "CK-083")
def test_ck83_the_target_controllers_preventions_apply_first():
    """Mountain Guard (seat 1, Armour 1) next to seat 0's Pilgrim (each turn, prevents 1
    wound of non-magical attacks to each adjacent enemy creature) takes a weak strike of 1:
    its own Armour stops it and the Pilgrim's prevention stays unused (420.4); a strong
    strike of 2 uses both."""

    def strike(roll):
        s = battle([(0, PLAIN, "C1"), (0, PILGRIM, "D1"), (1, GUARD, "C1'", {"closed": True})])
        guard, pilgrim = at(s, "C1'"), at(s, "D1")
        s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": guard})
        s["rng"] = rolls_rng(roll)
        s, _ = passes(s, 2 * 9)
        return s["pieces"][str(guard)], s["pieces"][str(pilgrim)]

    guard, pilgrim = strike(2)  # weak: 1
    assert guard["wounds"] == 0 and guard["armour"] == 1 and "prevented" not in pilgrim
    guard, pilgrim = strike(6)  # strong: 2
    assert guard["wounds"] == 0 and guard["armour"] == 1
    assert sum(pilgrim["prevented"][1].values()) == 1


@pytest.mark.rule("409.3", "410.1", "423.1", "CK-084")
def test_ck84_a_cancelled_closing_ability_leaves_its_source_open_a_blocked_one_closes_it():
    s = battle([(0, HEALER, "A3"), (0, STURDY, "C1", {"wounds": 1}), (1, PLAIN, "C1'")])
    healer, patient = at(s, "A3"), at(s, "C1")
    s, _ = do(s, 0, {"type": "ability", "ability": "heal", "card": healer, "target": patient})
    del s["pieces"][str(patient)]  # the target is gone before the Target object executes
    s["players"][0]["grave"].append(patient)
    s, events = passes(s, 2 * 2)
    assert any(e["type"] == "cancelled" for e in events) and not s["stack"]
    assert not s["pieces"][str(healer)]["closed"]
    s = battle([(0, PLAIN, "C2'"), (1, STURDY, "A1'"), (1, FLYER, "C3'", {"hidden": True})])
    me = at(s, "C2'")
    s, events = do(s, 0, {"type": "strike", "card": me, "cell": "C3'"})
    assert any(e["type"] == "blocked" for e in events)
    s, _ = passes(s, 4)
    assert s["pieces"][str(me)]["closed"]


@pytest.mark.rule("415.3", "415.2", "CK-085")
def test_ck85_a_creatures_only_ability_may_target_a_hidden_artifact_which_is_revealed():
    """Finishing names a creature; a hidden card next to it is a legal target (its
    conditions count as met) and is revealed, as an artifact, which blocks it (415.4)."""
    s = battle(
        [(0, EXECUTIONER, "C1"), (1, SIGNAL_FIRE, "C1'", {"hidden": True}), (1, STURDY, "A3'")]
    )
    me, fire = at(s, "C1"), at(s, "C1'")
    action = {"type": "ability", "ability": "finishing", "card": me, "cell": "C1'"}
    assert action in SYSTEM.legal_actions(s, 0)
    s, events = do(s, 0, action)
    assert any(e["type"] == "reveal" and e["card"] == fire for e in events)
    assert any(e["type"] == "blocked" for e in events) and fire not in s["players"][1]["grave"]


@pytest.mark.rule("206.3а", "CK-087")
def test_ck87_a_card_goes_to_its_owners_graveyard_whoever_controls_it():
    s = battle([(0, PLAIN, "C1"), (1, STURDY, "C1'"), (1, PLAIN, "A3'")])
    taken = at(s, "C1'")
    s["pieces"][str(taken)]["owner"] = 0  # controlled by seat 0, owned by seat 1
    SYSTEM._destroy(s, taken, [], "402.3")
    assert taken in s["players"][1]["grave"] and taken not in s["players"][0]["grave"]


@pytest.mark.rule("304.4", "419.1в", "CK-017")
def test_ck17_a_card_starting_the_battle_with_tokens_has_them_from_the_recruit_zone():
    """Stargazer «Начинает бой с 1 фишкой»: without the token in the Deal zone, with it as
    it enters the Recruit zone, and still with it once placed; a card without such a
    text starts with nothing."""
    s = _to_recruitment([deck(STARGAZER, PLAIN), deck()], deal_size=30)
    p = s["players"][0]
    iid = next(i for i in p["deal"] if s["cards"][i] == STARGAZER)
    plain = next(i for i in p["deal"] if s["cards"][i] == PLAIN)
    assert effects.started_with(s, 0, iid) == (0, 0)
    s, _ = do(s, 0, {"type": "recruit", "card": iid})
    assert effects.started_with(s, 0, iid) == (1, 0)
    s, _ = do(s, 0, {"type": "recruit", "card": plain})
    assert effects.started_with(s, 0, plain) == (0, 0)
    s, _ = do(s, 0, {"type": "recruit_done"})
    s, _ = do(s, 1, {"type": "recruit_done"})
    s, _ = _place(s, 0, STARGAZER, "C2")
    assert s["pieces"][str(iid)]["tokens"] == 1
    s, _ = _place(s, 0, PLAIN, "B2")
    assert "tokens" not in s["pieces"][str(plain)]


@pytest.mark.rule("419.6а", "419.6б", "419.4", "CK-082")
def test_ck82_of_replacements_of_both_players_the_owner_of_the_action_chooses():
    """The Lookout's destruction is its own property (402.3), so its controller owns it.
    Seat 0's Healing Spring would leave it 1 life, seat 1's Whisperer would send it to the
    deck: seat 0 chooses, the Spring. Once the Spring is spent only the Whisperer's is
    left (419.6а). For seat 1's Lookout, seat 1 chooses its own Swordsman's over seat 0's
    Whisperer's. A replaced death never happened (419.4): no Graveyard."""
    s = battle([(0, PLAIN, "C1", {"wounds": 2}), (0, SPRING, "B1"), (1, WHISPERER, "D1'")])
    lookout, spring, whisperer = at(s, "C1"), at(s, "B1"), at(s, "D1'")
    events = []
    SYSTEM._destroy(s, lookout, events, "402.3")
    assert events == [
        {
            "type": "replaced",
            "card": lookout,
            "source": spring,
            "chooser": 0,
            "instead": "death_survive",
            "rule": "419.6б",
            "lives": 1,
        }
    ]
    assert SYSTEM.lives(s, lookout) == 1 and not s["players"][0]["grave"]
    events = []
    SYSTEM._destroy(s, lookout, events, "402.3")
    assert [(e["source"], e["rule"]) for e in events] == [(whisperer, "419.6а")]
    assert str(lookout) not in s["pieces"] and lookout in s["players"][0]["deck"]
    assert not s["players"][0]["grave"]
    s = battle([(1, PLAIN, "C1'"), (1, SWORDSMAN, "B1'"), (0, WHISPERER, "D1"), (0, PLAIN, "A3")])
    lookout, swordsman = at(s, "C1'"), at(s, "B1'")
    events = []
    SYSTEM._destroy(s, lookout, events, "402.3")
    assert [(e["source"], e["chooser"]) for e in events] == [(swordsman, 1)]
    assert lookout in s["players"][1]["deck"]


@pytest.mark.rule("103.2", "104.5", "С: Концентрация", "CK-086")
def test_ck86_a_prohibition_to_gain_tokens_beats_the_effect_that_gives_them():
    """Concentration gives each Stargazer of seat 1 a token at the end of seat 0's turn;
    the one next to seat 0's Bog Hag cannot gain tokens, so it gains none."""
    s = battle([(0, BOG_HAG, "C1"), (1, STARGAZER, "C1'"), (1, STARGAZER, "A3'")])
    hag, near, far = at(s, "C1"), at(s, "C1'"), at(s, "A3'")
    s, events = passes(s, 4)  # turn 1 ends
    assert s["turn"] == 2
    assert "tokens" not in s["pieces"][str(near)]
    assert s["pieces"][str(far)]["tokens"] == 1
    assert {"type": "no_tokens", "card": near, "source": hag, "rule": "103.2"} in events
