"""The Berserk set files: the loader's strictness (each rule refused with its number), the
real set's content, and its generated text (docs/card-format.md, "Berserk")."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from engine.berserk import setdata
from engine.berserk.cards import (
    CLASSES,
    SETS_DIR,
    CardDataError,
    card_text,
    load_set,
    load_system,
    parse_set,
)
from engine.berserk.model import ELEMENTS, EQUIPMENT_CLASSES, NAMED, SUBTYPES, TYPES, Card

SOURCE = "engine/sets/berserk/bk1.json"


# ---------------------------------------------------------------- small sets

CREATURE = {
    "number": 1,
    "name": {"ru": "Пробный воин", "en": "Test Warrior"},
    "type": "creature",
    "element": "forest",
    "cost": 3,
    "elite": False,
    "movement": 1,
    "lives": 4,
    "strike": [1, 2, 3],
    "classes": ["warrior"],
    "abilities": [],
    "rarity": "common",
    "text": {"ru": "", "en": ""},
}


def _set(*cards: dict) -> dict:
    return {
        "code": "TST",
        "name": {"ru": "Проба", "en": "Test"},
        "released": "2026-01-01",
        "cards": [dict(c, number=i + 1) for i, c in enumerate(cards)],
    }


def _card(**changes) -> dict:
    card = copy.deepcopy(CREATURE)
    for key, value in changes.items():
        if value is ...:
            card.pop(key, None)
        else:
            card[key] = value
    if changes.get("abilities"):
        try:
            card["text"] = {
                "ru": card_text(card["abilities"], "ru", card["type"]),
                "en": card_text(card["abilities"], "en", card["type"]),
            }
        except (KeyError, TypeError, ValueError):  # an ability the test means to be refused
            card["text"] = {"ru": "Текст.", "en": "Text."}
    return card


def _refused(card: dict, rule: str, field: str | None = None) -> CardDataError:
    with pytest.raises(CardDataError) as err:
        parse_set(_set(card), "engine/sets/berserk/tst.json")
    error = err.value
    assert rule in str(error), str(error)
    assert error.source == "engine/sets/berserk/tst.json"
    assert error.card == f"TST-001 «{card['name']['ru']}»"
    if field is not None:
        assert error.field == field, str(error)
    return error


def test_a_good_small_set_loads_and_builds_cards():
    card_set = parse_set(_set(_card()), "tst.json")
    card = card_set.cards[0]
    assert isinstance(card, Card)
    assert card.id == "TST-001"
    assert card.strike == (1, 2, 3)
    assert card.element == "forest"
    assert card_set.booster is None


def test_neutral_is_written_neutral_and_loads_as_empty_element_202_9():
    card = parse_set(_set(_card(element="neutral")), "tst.json").cards[0]
    assert card.element == ""


def test_terrain_has_no_strike_or_lives_212_1():
    terrain = {"type": "terrain", "movement": ..., "classes": ..., "strike": ...}
    _refused(_card(**terrain, lives=...) | {"lives": 2}, "[212.1]", "lives")
    _refused(_card(**terrain, lives=...) | {"strike": [1, 1, 1]}, "212.1", "strike")
    parse_set(_set(_card(**terrain, lives=...)), "tst.json")


def test_terrain_and_equipment_have_no_movement_203_1():
    _refused(_card(type="terrain", lives=..., strike=..., classes=...), "[203.1", "movement")


def test_equipment_needs_weapon_armour_or_shield_214_2():
    equipment = {"type": "equipment", "movement": ..., "lives": ..., "strike": ...}
    _refused(_card(**equipment, classes=[]), "[214.2]", "classes")
    _refused(_card(**equipment, classes=["warrior"]), "[214.2]", "classes")
    _refused(_card(**equipment, classes=["weapon"]) | {"lives": 2}, "[214.1]", "lives")
    parse_set(_set(_card(**equipment, classes=["weapon", "shield"])), "tst.json")


def test_equipment_classes_belong_to_equipment_214_2():
    _refused(_card(classes=["shield"]), "[214.2]", "classes[0]")


def test_only_creatures_have_a_subtype_208_2():
    artifact = {"type": "artifact", "movement": ..., "strike": ..., "classes": ...}
    _refused(_card(**artifact, subtype="flying"), "[208.2]", "subtype")
    _refused(_card(subtype="dragon", movement=...), "[208.2", "subtype")
    _refused(_card(subtype=["flying", "symbiote"], movement=...), "208.5", "subtype")


def test_flyers_have_no_movement_203_10():
    _refused(_card(subtype="flying"), "[203.10]", "movement")
    parse_set(_set(_card(subtype="flying", movement=...)), "tst.json")


def test_symbiotes_and_parasites_have_no_movement_203_9():
    _refused(_card(subtype="symbiote"), "[203.9]", "movement")
    _refused(_card(subtype="parasite"), "[203.9]", "movement")
    parse_set(_set(_card(subtype="parasite", movement=...)), "tst.json")


def test_a_creature_without_subtype_has_movement_lives_and_strike_209_2():
    _refused(_card(movement=...), "209.2", "movement")
    _refused(_card(lives=...), "209.2", "lives")
    _refused(_card(strike=...), "209.2", "strike")


def test_the_element_is_one_of_five_or_neutral_202_8_202_9():
    _refused(_card(element="fire"), "[202.8, 202.9]", "element")
    _refused(_card(element=""), "[202.8, 202.9]", "element")
    for element in ELEMENTS:
        parse_set(_set(_card(element=element)), "tst.json")


def test_named_abilities_are_known_and_take_x_exactly_when_they_have_one_414_4():
    _refused(_card(abilities=[{"name": "flying_kick"}]), "§13", "abilities[0].name")
    _refused(_card(abilities=[{"name": "armour"}]), "[414.4", "abilities[0].x")
    _refused(_card(abilities=[{"name": "vanguard", "x": 1}]), "takes no X", "abilities[0].x")
    _refused(_card(abilities=[{"name": "armour", "x": "1"}]), "integer", "abilities[0].x")
    _refused(_card(abilities=[{"name": "armour", "x": 0}]), "at least 1", "abilities[0].x")


def test_protection_names_a_known_kind_411():
    _refused(_card(abilities=[{"name": "protection"}]), "[411", "abilities[0].of")
    _refused(_card(abilities=[{"name": "protection", "of": "fire"}]), "[411.4]")
    _refused(_card(abilities=[{"name": "armour", "x": 1, "of": "magic"}]), "no of")


def test_incorporeal_jump_and_thirst_fit_their_cards_section_13():
    artifact = {"type": "artifact", "movement": ..., "strike": ..., "classes": ...}
    _refused(_card(**artifact, abilities=[{"name": "incorporeal"}]), "[С: Бестелесность]")
    flyer = {"subtype": "flying", "movement": ...}
    _refused(_card(**flyer, abilities=[{"name": "jump"}]), "[С: Прыжок]")
    _refused(_card(**flyer, abilities=[{"name": "thirst", "x": 1}]), "[С: Жажда]")
    _refused(_card(element="neutral", abilities=[{"name": "meditation"}]), "[С: Медитация]")


def test_terrain_carries_no_fighting_named_ability_212_1():
    terrain = {"type": "terrain", "movement": ..., "lives": ..., "strike": ..., "classes": ...}
    _refused(_card(**terrain, abilities=[{"name": "armour", "x": 1}]), "[212.1, 212.2]")


def test_strike_is_x_y_z_non_negative_205_7():
    _refused(_card(strike=[1, 2]), "[205.7]", "strike")
    _refused(_card(strike=[1, -1, 2]), "at least 0", "strike[1]")
    _refused(_card(strike="1-2-3"), "[205.7]", "strike")


def test_artifacts_have_lives_and_no_strike_213_1():
    artifact = {"type": "artifact", "movement": ..., "strike": ..., "classes": ...}
    _refused(_card(**artifact, lives=...), "[213.1]", "lives")
    _refused(_card(**artifact) | {"strike": [1, 1, 1]}, "213.1", "strike")


def test_unknown_type_is_refused_208_1():
    _refused(_card(type="spell"), "[208.1]", "type")


def test_cost_is_at_least_one_or_x_202_4():
    _refused(_card(cost=0), "[202.1, 202.4]", "cost")
    parse_set(_set(_card(cost=0, cost_x=True)), "tst.json")
    _refused(_card(cost="3"), "integer", "cost")
    _refused(_card(elite="yes"), "true or false", "elite")


def test_script_x_only_on_cost_x_cards_202_4():
    script = {"script": {"when": "start_of_battle", "do": "add_lives", "amount": "x"}}
    _refused(_card(abilities=[script]), "[202.4]", "abilities[0].script.amount")
    parse_set(_set(_card(cost=0, cost_x=True, abilities=[script])), "tst.json")


def test_scripts_use_the_small_vocabulary():
    bad = [
        ({"when": "sometimes", "do": "heal", "amount": 1}, "script.when"),
        ({"when": "turn_start", "do": "explode", "amount": 1}, "script.do"),
        ({"when": "turn_start", "do": "strike_bonus", "amount": 1}, "script.do"),
        (
            {"when": "static", "do": "strike_bonus", "amount": 1, "target": "any_own"},
            "script.target",
        ),
        ({"when": "static", "do": "strike_bonus", "amount": 1, "target": "host"}, "script.target"),
        ({"when": "turn_start", "do": "heal", "amount": 1, "extra": 1}, "script"),
        ({"when": "turn_start", "do": "heal"}, "script.amount"),
        ({"when": "static", "do": "grant", "target": "self"}, "script.ability"),
        ({"when": "turn_start", "do": "heal", "amount": 1, "tokens": 1}, "script.tokens"),
        ({"when": "static", "do": "roll_bonus", "amount": 1, "if": "in_formation"}, "script.if"),
        ({"when": "static", "do": "block_move", "target": "all_adjacent_own"}, "script.target"),
        (
            {"when": "static", "do": "no_tokens", "target": "all_adjacent_enemy", "amount": 1},
            "script.amount",
        ),
        ({"when": "static", "do": "death_survive", "target": "all_adjacent_own"}, "script.amount"),
        ({"when": "starts_with", "do": "heal", "amount": 1}, "script.do"),
        ({"when": "starts_with", "do": "gain_token", "amount": 1, "target": "host"}, "script.do"),
    ]
    for script, field in bad:
        _refused(_card(abilities=[{"script": script}]), "", f"abilities[0].{field}")


def test_a_scripted_ability_has_no_name_403_2():
    ability = {"name": "armour", "x": 1, "script": {"when": "turn_start", "do": "open"}}
    _refused(_card(abilities=[ability]), "only a script", "abilities[0]")


def test_unknown_fields_wrong_types_and_duplicate_keys_are_refused(tmp_path: Path):
    _refused(_card(colour="red"), "unknown field(s) colour", "")
    _refused(_card(classes="warrior"), "list of strings", "classes")
    _refused(_card(classes=["knight"]), "unknown class", "classes[0]")
    path = tmp_path / "tst.json"
    text = json.dumps(_set(_card()), ensure_ascii=False).replace(
        '"cost": 3', '"cost": 3, "cost": 4'
    )
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as err:
        load_set(path)
    assert err.value.card == "TST-001 «Пробный воин»"
    assert err.value.field == "cost"
    assert "twice" in err.value.message


def test_names_are_unique_in_both_languages():
    twin = _card(name={"ru": "Другой", "en": "TEST warrior"})
    with pytest.raises(CardDataError, match=r"name\.en"):
        parse_set(_set(_card(), twin), "tst.json")


def test_the_booster_is_checked():
    data = _set(_card())
    data["booster"] = {"size": 2, "slots": [{"rarity": "common", "count": 1}]}
    with pytest.raises(CardDataError, match="slots hold 1"):
        parse_set(data, "tst.json")
    data["booster"] = {"size": 2, "slots": [{"rarity": "common", "count": 2}]}
    with pytest.raises(CardDataError, match="need 2 different cards"):
        parse_set(data, "tst.json")
    data["booster"] = {"size": 1, "slots": [{"rarity": "mythic", "count": 1}]}
    with pytest.raises(CardDataError, match="rarity"):
        parse_set(data, "tst.json")


def test_load_system_reads_a_folder_and_skips_underscore_files(tmp_path: Path):
    (tmp_path / "tst.json").write_text(json.dumps(_set(_card())), encoding="utf-8")
    (tmp_path / "_formats.json").write_text("not json", encoding="utf-8")
    db = load_system(str(tmp_path))
    assert db.find("пробный  ВОИН") is db["TST-001"]
    (tmp_path / "tst2.json").write_text(json.dumps(_set(_card())), encoding="utf-8")
    with pytest.raises(CardDataError, match="two sets have the code TST"):
        load_system.__wrapped__(str(tmp_path))


# ---------------------------------------------------------------- the real set


@pytest.fixture(scope="module")
def cards():
    return load_system().all_cards()


def test_the_json_file_matches_its_source_and_check_is_stable():
    assert (SETS_DIR / "bk1.json").read_text(encoding="utf-8") == setdata.dumps()
    assert setdata.dumps() == setdata.dumps()
    assert setdata.main(["--check"]) == 0


def test_the_real_set_loads_cached_with_at_least_200_cards(cards):
    assert load_system() is load_system()
    assert len(cards) >= 200
    card_set = load_system().get_set("BK1")
    assert card_set.booster is not None
    assert [(s.rarity, s.count) for s in card_set.booster.slots] == [
        ("common", 11),
        ("uncommon", 3),
        ("rare", 1),
    ]
    assert load_set(SETS_DIR / "bk1.json").cards == card_set.cards


def test_every_named_ability_is_on_at_least_two_cards_section_13(cards):
    counts = Counter(a.name for c in cards for a in c.abilities if a.name)
    assert {name: counts[name] for name in NAMED if counts[name] < 2} == {}


def test_protection_has_different_kinds_411(cards):
    kinds = {a.of for c in cards for a in c.abilities if a.name == "protection"}
    assert {"magic", "shots", "poison"} <= kinds


def test_every_type_subtype_class_and_element_is_present_208_202_8(cards):
    assert {c.type for c in cards} == set(TYPES)
    assert {c.subtype for c in cards if c.is_creature} == set(SUBTYPES)
    equipment = [c for c in cards if c.type == "equipment"]
    assert {cls for c in equipment for cls in c.classes} == set(EQUIPMENT_CLASSES)
    assert any(len(c.classes) > 1 for c in equipment)
    creature_classes = {cls for c in cards if c.is_creature for cls in c.classes}
    assert creature_classes == set(CLASSES) - set(EQUIPMENT_CLASSES)
    assert {c.element for c in cards} == {*ELEMENTS, ""}


def test_both_eliteness_and_cost_x_cards_202_2_202_4(cards):
    assert {c.elite for c in cards} == {True, False}
    for element in (*ELEMENTS, ""):
        assert {c.elite for c in cards if c.element == element} == {True, False}, element
    assert sum(c.cost_x for c in cards) >= 4
    assert all(1 <= c.cost <= 10 for c in cards if not c.cost_x)


def test_names_are_unique_per_language(cards):
    for attr in ("name_ru", "name_en"):
        names = [getattr(c, attr).casefold() for c in cards]
        assert len(names) == len(set(names)), attr


def test_stats_look_playable(cards):
    for card in cards:
        if card.is_creature:
            assert 2 <= card.lives <= 10, card.id
            assert all(0 <= v <= 6 for v in card.strike), card.id
            assert list(card.strike) == sorted(card.strike), card.id
            assert card.movement in ((1, 2, 3) if not card.subtype else (0,)), card.id
        elif card.type == "artifact":
            assert 2 <= card.lives <= 10, card.id


def test_rules_text_is_generated_from_the_abilities(cards):
    for card in cards:
        assert card.text_ru == card_text(card.abilities, "ru", card.type), card.id
        assert card.text_en == card_text(card.abilities, "en", card.type), card.id
        assert bool(card.text_ru) == bool(card.abilities)


def test_a_minority_of_cards_carry_scripts_and_some_are_vanilla(cards):
    scripted = [c for c in cards if any(a.script for a in c.abilities)]
    assert 0 < len(scripted) < len(cards) / 2


def test_rarities_fill_the_booster_slots(cards):
    counts = Counter(c.rarity for c in cards)
    assert counts["common"] >= 11 and counts["uncommon"] >= 3 and counts["rare"] >= 1
    assert counts["common"] > counts["uncommon"] > counts["rare"]


def test_card_ids_and_lookups():
    db = load_system()
    card = db["BK1-001"]
    assert card.id == "BK1-001" and card.set_code == "BK1" and card.number == 1
    assert db.find(card.name_ru.upper()) is card
    assert db.find(card.name_en.lower()) is card
    assert db.find("Ожившая скала") is db.find("living rock")
    assert db.find("Ночной душитель") is db.find("ночной  душитель")
    assert db.printings(card) == (card,)
