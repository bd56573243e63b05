"""Named abilities of the Словарь (digest §13) interpreted by ``engine.berserk.game``: one
test each, on small positions of the real set BK1 (``battle`` puts open cards on the
board; ``rolls_rng`` fixes the dice).

Rule ids: the Russian text's numbers and "С: <name>" for a Словарь entry.
"""

from __future__ import annotations

import pytest

from engine.berserk import stack
from engine.berserk.game import SYSTEM
from engine.core.errors import IllegalAction
from tests.engine.berserk.test_game import (
    FLYER,
    PLAIN,
    STURDY,
    at,
    battle,
    do,
    passes,
    rolls_rng,
)

ARCHER = "BK1-003"  # Feathergrass Archer: Shot 1, 2 lives
NOMAD = "BK1-021"  # Sharp-Eyed Nomad: Shot 2, Range 3, Accuracy
BOWMAN = "BK1-011"  # Mounted Bowman: Shot 2, Experience in Shooting 1
PELTER = "BK1-052"  # Pinecone Pelter: Throw 1, Experience in Throwing 1
RUNE_PRIEST = "BK1-098"  # Discharge 2, Experience in Discharge 1
GUARD = "BK1-079"  # Mountain Guard: Armour 1, 4 lives
RUNE_SMITH = "BK1-084"  # Protection from shots
THORN_FAIRY = "BK1-067"  # flying, Protection from magic
LEECH = "BK1-132"  # Leech Keeper: Vampirism, 1-2-2, 4 lives
GIANT = "BK1-127"  # Rotting Giant: Fear 1, Clumsiness 1, 8 lives
THING = "BK1-133"  # Thing from the Pool: Fear 1, Stealth
WOLFHOUND = "BK1-015"  # Steppe Wolfhound: Wrath, 2-2-2
WHISPERER = "BK1-047"  # Leaf Whisperer: Blessing
HAG = "BK1-123"  # Bog Hag: Curse
HALF_DROWNED = "BK1-137"  # Vulnerability, 3 lives
SENTINEL = "BK1-043"  # Mossy Sentinel: Regeneration 1, 5 lives
ROTFANG = "BK1-120"  # Poison 1, 4 lives
WRAITH = "BK1-172"  # Wraith of Oblivion: Incorporeal, Fading 1
HEALER = "BK1-042"  # Grove Healer: Heal 2
EXECUTIONER = "BK1-090"  # Gorge Executioner: Finishing 2
WISP = "BK1-128"  # Marsh Wisp: Incorporeal


def _attack(s, seat, card, target, ability):
    return do(s, seat, {"type": "ability", "ability": ability, "card": card, "target": target})


def _piece_of(s, card_id, seat):
    return next(
        int(k)
        for k, q in s["pieces"].items()
        if q["owner"] == seat and s["cards"][int(k)] == card_id
    )


@pytest.mark.rule("С: Выстрел", "401.5", "205.4", "216.1а", "D-11", "D-17")
def test_a_shot_hits_anywhere_only_the_attacker_rolls_and_closes():
    """Shot 1 from the back row hits an open creature across the board: nine objects,
    only the attacker rolls (no fight back), 1-1-1 deals 1; the archer closes (D-11)."""
    s = battle([(0, ARCHER, "A3"), (1, STURDY, "E3'"), (1, FLYER, None)])
    me, them = at(s, "A3"), at(s, "E3'")
    offered = [a for a in SYSTEM.legal_actions(s, 0) if a["type"] == "ability"]
    flyer = _piece_of(s, FLYER, 1)
    assert {a["target"] for a in offered} == {them, flyer}  # ranged attacks reach flyers
    assert not [a for a in SYSTEM.legal_actions(s, 0) if a["type"] == "strike"]
    s, events = _attack(s, 0, me, them, "shot")
    assert events[0]["type"] == "ability" and len(s["stack"]) == len(stack.FULL_CHAIN)
    s["rng"] = rolls_rng(2)
    s, events = passes(s, 2 * 9)
    roll = next(e for e in events if e["type"] == "roll")
    assert roll["rolls"] == [2, None]
    calc = next(e for e in events if e["type"] == "calculation")
    assert calc["kinds"] == ["weak", "miss"]
    assert s["pieces"][str(them)]["wounds"] == 1 and s["pieces"][str(me)]["wounds"] == 0
    assert s["pieces"][str(me)]["closed"] and s["pieces"][str(me)]["acted"]
    with pytest.raises(IllegalAction) as info:
        _attack(s, 0, me, them, "shot")
    assert info.value.rule == "104.4"


@pytest.mark.rule("С: Дальность")
def test_range_limits_a_shot_to_x_king_moves():
    """Range 3: a card four cells away is out of reach, three is in."""
    s = battle([(0, NOMAD, "A3"), (1, STURDY, "A2'"), (1, PLAIN, "D1'")])
    me = at(s, "A3")
    far, near = at(s, "A2'"), at(s, "D1'")
    targets = {a["target"] for a in SYSTEM.legal_actions(s, 0) if a["type"] == "ability"}
    assert targets == {near}
    with pytest.raises(IllegalAction) as info:
        _attack(s, 0, me, far, "shot")
    assert info.value.rule == "С: Дальность"


@pytest.mark.rule("С: Опыт в Стрельбе", "С: Опыт в Метании", "С: Опыт в Разряде", "216.6")
def test_experience_in_shooting_throwing_and_discharge_modify_the_roll():
    """+1 to the roll of each: 3 becomes 4, a medium attack."""
    for card, ability in ((BOWMAN, "shot"), (PELTER, "throw"), (RUNE_PRIEST, "discharge")):
        s = battle([(0, card, "C3"), (1, STURDY, "C1'")])
        s, _ = _attack(s, 0, at(s, "C3"), at(s, "C1'"), ability)
        s["rng"] = rolls_rng(3)
        s, events = passes(s, 2 * 9)
        result = next(e for e in events if e["type"] == "result")
        calc = next(e for e in events if e["type"] == "calculation")
        assert result["final"] == [4, None] and calc["kinds"] == ["medium", "miss"], card


@pytest.mark.rule("С: Разряд", "401.4", "С: Броня")
def test_a_discharge_is_magical_so_armour_does_not_stop_it():
    """Discharge 2 on Armour 1: both wounds land; a throw's are cut by Armour."""
    s = battle([(0, RUNE_PRIEST, "C3"), (1, GUARD, "C1'")])
    them = at(s, "C1'")
    s, _ = _attack(s, 0, at(s, "C3"), them, "discharge")
    s["rng"] = rolls_rng(1)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(them)]["wounds"] == 2
    s = battle([(0, PELTER, "C3"), (1, GUARD, "C1'")])
    them = at(s, "C1'")
    s, _ = _attack(s, 0, at(s, "C3"), them, "throw")
    s["rng"] = rolls_rng(1)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(them)]["wounds"] == 0


@pytest.mark.rule("411.1", "411.4", "С: Защита от", "CK-080")
def test_protection_from_shots_and_from_magic():
    """Protection from shots refuses a shot; Protection from magic covers discharges
    (411.4) but not shots."""
    s = battle(
        [(0, ARCHER, "A3"), (0, RUNE_PRIEST, "B3"), (1, RUNE_SMITH, "C1'"), (1, THORN_FAIRY, None)]
    )
    archer, priest = at(s, "A3"), at(s, "B3")
    smith, fairy = at(s, "C1'"), _piece_of(s, THORN_FAIRY, 1)
    with pytest.raises(IllegalAction) as info:
        _attack(s, 0, archer, smith, "shot")
    assert info.value.rule == "411.1"
    with pytest.raises(IllegalAction) as info:
        _attack(s, 0, priest, fairy, "discharge")
    assert info.value.rule == "411.1"
    offered = {
        (a["card"], a["target"]) for a in SYSTEM.legal_actions(s, 0) if a["type"] == "ability"
    }
    assert offered == {(archer, fairy), (priest, smith)}


@pytest.mark.rule("С: Вампиризм", "204.2")
def test_vampirism_heals_after_simple_strike_wounds_and_the_rest_is_extra_lives():
    """Leech Keeper (1 wound) deals 2 (strong 1-2-2): heals its wound, gains 1 additional
    life."""
    s = battle([(0, LEECH, "C1", {"wounds": 1}), (1, STURDY, "C1'", {"closed": True})])
    me, them = at(s, "C1"), at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": them})
    s["rng"] = rolls_rng(6)
    s, events = passes(s, 2 * 9)
    q = s["pieces"][str(me)]
    assert s["pieces"][str(them)]["wounds"] == 2
    assert q["wounds"] == 0 and q["extra"] == 1 and SYSTEM.lives(s, me) == 5
    assert any(e.get("rule") == "С: Вампиризм" for e in events)


@pytest.mark.rule("С: Страх")
def test_fear_wounds_the_attacker_unless_it_has_fear():
    """Striking the Rotting Giant (Fear 1) costs the Lookout a wound when the Target
    object executes; a Fear card attacks it unharmed."""
    s = battle([(0, PLAIN, "C1"), (1, GIANT, "C1'", {"closed": True})])
    me = at(s, "C1")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": at(s, "C1'")})
    s, events = passes(s, 2 * 2)  # Declaration, Target
    assert s["pieces"][str(me)]["wounds"] == 1
    assert any(e.get("rule") == "С: Страх" for e in events)
    s = battle([(0, THING, "C1"), (1, GIANT, "C1'", {"closed": True})])
    me = at(s, "C1")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": at(s, "C1'")})
    s, _ = passes(s, 2 * 2)
    assert s["pieces"][str(me)]["wounds"] == 0


@pytest.mark.rule("С: Гнев", "216.8")
def test_wrath_adds_one_against_a_card_wounded_this_turn():
    """Wolfhound 2-2-2 on a card wounded by an attack this turn deals 3; else 2."""
    for hurt, expected in ((1, 3), (None, 2)):
        s = battle([(0, WOLFHOUND, "C1"), (1, GIANT, "C1'", {"closed": True, "hurt": hurt})])
        them = at(s, "C1'")
        s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
        s["rng"] = rolls_rng(1)
        s, _ = passes(s, 2 * 9)
        assert s["pieces"][str(them)]["wounds"] == expected


@pytest.mark.rule("С: Благословление", "С: Проклятье", "104.2а")
def test_blessing_and_curse_modify_all_the_cards_rolls():
    """The blessed attacker's 3 is 4; the cursed retaliator's 4 is 3 (unclamped, open
    fight): d = +1."""
    s = battle([(0, WHISPERER, "C1"), (1, HAG, "C1'")])
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s["rng"] = rolls_rng(3, 4)
    s, events = passes(s, 2 * 9)
    assert next(e for e in events if e["type"] == "result")["final"] == [4, 3]


@pytest.mark.rule("С: Уязвимость")
def test_vulnerability_adds_one_to_attacks_on_the_card():
    """A shot for 1 on Half-Drowned deals 2."""
    s = battle([(0, ARCHER, "A3"), (1, HALF_DROWNED, "C1'")])
    them = at(s, "C1'")
    s, _ = _attack(s, 0, at(s, "A3"), them, "shot")
    s["rng"] = rolls_rng(1)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(them)]["wounds"] == 2


@pytest.mark.rule("311.4", "D-27", "С: Регенерация", "С: Отравление", "С: Угасание")
def test_regeneration_poison_and_fading_at_the_start_of_their_turn():
    """At the start of seat 0's turn its open cards regenerate or wound themselves; the
    opponent's do not; a poisoned incorporeal creature loses Poison (Wraith: Fading only)."""
    s = battle(
        [
            (0, SENTINEL, "A1", {"wounds": 2}),
            (0, ROTFANG, "C1"),
            (0, WRAITH, "E1"),
            (1, ROTFANG, "C1'"),
        ],
        active=1,
        turn=2,
    )
    s, events = passes(s, 4)  # the Main and Final Phases of seat 1's turn
    assert s["active"] == 0
    assert s["pieces"][str(at(s, "A1"))]["wounds"] == 1
    assert s["pieces"][str(at(s, "C1"))]["wounds"] == 1
    assert s["pieces"][str(at(s, "E1"))]["wounds"] == 1
    assert s["pieces"][str(at(s, "C1'"))]["wounds"] == 0
    rules = [e["rule"] for e in events if e.get("rule", "").startswith("С:")]
    assert sorted(rules) == ["С: Отравление", "С: Регенерация", "С: Угасание"]


@pytest.mark.rule("С: Излечение", "416.2", "216.1б")
def test_heal_is_a_closing_ability_without_dice():
    """Heal 2 on a creature with 3 wounds leaves 1: six objects, the healer closes; an
    unwounded or incorporeal creature is no target."""
    s = battle([(0, HEALER, "A3"), (0, GIANT, "E1", {"wounds": 3}), (0, WISP, "C2", {"wounds": 1})])
    healer, giant, wisp = at(s, "A3"), at(s, "E1"), at(s, "C2")
    offered = [a for a in SYSTEM.legal_actions(s, 0) if a.get("ability") == "heal"]
    assert offered == [{"type": "ability", "ability": "heal", "card": healer, "target": giant}]
    with pytest.raises(IllegalAction) as info:
        _attack(s, 0, healer, wisp, "heal")
    assert info.value.rule == "С: Излечение"
    s, _ = _attack(s, 0, healer, giant, "heal")
    assert len(s["stack"]) == len(stack.SIMPLE_CHAIN)
    s, _ = passes(s, 2 * 6)
    assert s["pieces"][str(giant)]["wounds"] == 1 and s["pieces"][str(healer)]["closed"]


@pytest.mark.rule("С: Добивание")
def test_finishing_destroys_an_adjacent_creature_with_few_lives():
    """Finishing 2: a 2-life Lookout next to it dies; a 3-life card is refused."""
    s = battle([(0, EXECUTIONER, "C1"), (1, PLAIN, "C1'"), (1, STURDY, "D1'")])
    me, weak, sturdy = at(s, "C1"), at(s, "C1'"), at(s, "D1'")
    with pytest.raises(IllegalAction) as info:
        _attack(s, 0, me, sturdy, "finishing")
    assert info.value.rule == "С: Добивание"
    s, _ = _attack(s, 0, me, weak, "finishing")
    s, events = passes(s, 2 * 6)
    assert weak in s["players"][1]["grave"] and s["pieces"][str(me)]["closed"]
    assert any(e.get("rule") == "С: Добивание" for e in events)


@pytest.mark.rule("С: Скрытность", "415.2б", "415.5", "306.2")
def test_stealth_stays_hidden_at_the_reveal_step_and_its_owner_reveals_it():
    """The first player's Forest Tracker stays hidden through the Reveal Step and the end
    of the first turn (D-22 does not touch it); its owner reveals it while holding
    priority, without the stack; the opponent never saw its number before."""
    from tests.engine.berserk.test_game import deck

    s = SYSTEM.new_game({"chooser": 0}, [deck("BK1-040", PLAIN), deck(PLAIN)], 5)
    s, _ = do(s, 0, {"type": "choose_first", "first": 0})
    for seat in (0, 1):
        p = s["players"][seat]
        wanted = ["BK1-040", PLAIN] if seat == 0 else [PLAIN]
        p["deal"] = [next(i for i in p["deck"] if s["cards"][i] == c) for c in wanted]
        p["deck"] = [i for i in p["deck"] if i not in p["deal"]]
    s, _ = do(s, 0, {"type": "keep"})
    s, _ = do(s, 1, {"type": "keep"})
    for seat in (0, 1):
        while True:
            options = [a for a in SYSTEM.legal_actions(s, seat) if a["type"] == "recruit"]
            if not options:
                break
            s, _ = do(s, seat, options[0])
        s, _ = do(s, seat, {"type": "recruit_done"})
    while s["phase"] == "place":
        seat = SYSTEM.to_act(s)[0]
        s, _ = do(s, seat, SYSTEM.legal_actions(s, seat)[0])
    while s["phase"] == "reveal":
        s, _ = do(s, 1, {"type": "reveal_done"})
    tracker = _piece_of(s, "BK1-040", 0)
    assert s["phase"] == "main" and s["pieces"][str(tracker)]["hidden"]
    assert {"type": "reveal", "card": tracker} in SYSTEM.legal_actions(s, 0)
    assert all(p.get("card") != tracker for p in SYSTEM.view(s, 1)["pieces"])
    s, _ = passes(s, 4)  # the first turn ends: D-22 reveals nothing of seat 0
    assert s["pieces"][str(tracker)]["hidden"] and s["active"] == 1
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "reveal", "card": tracker})
    assert info.value.rule == "415.5"
    s, _ = do(s, 1, {"type": "pass"})
    s, events = do(s, 0, {"type": "reveal", "card": tracker})
    assert not s["pieces"][str(tracker)]["hidden"] and not s["stack"]
    assert events[0]["rule"] == "С: Скрытность" and s["priority"]["holder"] == 0


@pytest.mark.rule("С: Авангард", "308.1", "308.2", "D-30")
def test_vanguard_strikes_at_the_vanguard_step_unanswered_and_at_once():
    """After the Start of Battle, the first player's Young Rider may strike an adjacent
    enemy: one die (5: medium, 2 of 1-2-2; no blow back), no stack, the rider closes (D-30); after
    the pass (or with no strike left) the first turn begins."""
    rider = "BK1-002"
    s = battle([(0, rider, "C1"), (1, STURDY, "C1'"), (1, PLAIN, "A3'")])
    me, them = at(s, "C1"), at(s, "C1'")
    s.update(phase="vanguard", vanguard=0, turn=0, priority=None)
    assert SYSTEM.to_act(s) == (0,)
    assert SYSTEM.legal_actions(s, 0) == [
        {"type": "strike", "card": me, "target": them},
        {"type": "pass"},
    ]
    s["rng"] = rolls_rng(5)
    s, events = do(s, 0, {"type": "strike", "card": me, "target": them})
    assert next(e for e in events if e["type"] == "roll")["rolls"] == [5, None]
    assert s["pieces"][str(them)]["wounds"] == 2 and s["pieces"][str(me)]["wounds"] == 0
    assert not s["stack"] and s["phase"] == "main" and s["turn"] == 1
    assert s["pieces"][str(me)]["closed"] is False  # it opens at its own turn's start
    assert [e for e in events if e["type"] == "turn"]
    s = battle([(0, rider, "C1"), (1, STURDY, "C1'")])
    s.update(phase="vanguard", vanguard=0, turn=0, priority=None)
    s, events = do(s, 0, {"type": "pass"})
    assert s["phase"] == "main" and s["pieces"][str(at(s, "C1'"))]["wounds"] == 0
