"""The Ascension set files: content, generated text, and loader errors."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine.ascension import setdata
from engine.ascension.cards import SETS_DIR, load_set, load_system, parse_set
from engine.ascension.effects import FACTIONS, card_text
from engine.core.cardjson import CardDataError


def test_the_json_file_matches_its_builder_script():
    assert (SETS_DIR / "asc1.json").read_text(encoding="utf-8") == setdata.dumps()


def test_the_set_has_the_piles_and_an_original_center_deck_of_100_cards_a4():
    db = load_system()
    center = db.by_pile("center")
    assert sum(c.copies for c in center) >= 100
    for faction in FACTIONS:
        types = {c.type for c in center if c.faction == faction}
        assert types == {"hero", "construct"}, faction
    assert sum(c.copies for c in center if c.type == "monster") >= 25
    assert {c.name_en: c.copies for c in db.by_pile("always")} == {
        "Mystic": 20,
        "Heavy Infantry": 20,
        "Cultist": 1,
    }
    assert {c.name_en: c.copies for c in db.by_pile("starter")} == {"Apprentice": 8, "Militia": 2}
    assert any(c.has("unite") for c in center)
    assert any(c.has("activate") for c in center)
    assert db.find("Мистик") is db.find("mystic")


def test_rules_text_is_generated_from_the_abilities_in_both_languages():
    for card in load_system().cards.values():
        assert card.text_en == card_text(list(card.abilities), card.faction, "en")
        assert card.text_ru == card_text(list(card.abilities), card.faction, "ru")
        assert card.text_ru and card.text_en


def _broken(mutate):
    data = copy.deepcopy(setdata.build())
    mutate(data)
    with pytest.raises(CardDataError) as err:
        parse_set(data, "engine/sets/ascension/asc1.json")
    return err.value


def test_loader_errors_name_the_file_the_card_and_the_field():
    def bad_cost(d):
        d["cards"][6]["cost"] = "3"

    err = _broken(bad_cost)
    assert err.source == "engine/sets/ascension/asc1.json"
    assert err.card.startswith("ASC1-007 «") and err.field == "cost"
    assert str(err).startswith("engine/sets/ascension/asc1.json: card ASC1-007")

    def bad_op(d):
        d["cards"][6]["abilities"][0]["effects"][0]["op"] = "teleport"

    err = _broken(bad_op)
    assert err.field == "abilities[0].effects[0].op" and "unknown op" in err.message

    def bad_kind(d):
        d["cards"][6]["abilities"][0]["kind"] = "reward"

    assert "cannot have a reward ability" in _broken(bad_kind).message

    def faction_monster(d):
        monster = next(c for c in d["cards"] if c["type"] == "monster")
        monster["faction"] = "void"

    assert _broken(faction_monster).field == "faction"

    def unknown_field(d):
        d["cards"][0]["rarity"] = "common"

    assert "unknown field" in _broken(unknown_field).message

    def duplicate_name(d):
        d["cards"][7]["name"] = dict(d["cards"][6]["name"])

    assert _broken(duplicate_name).field.startswith("name.")

    def bad_cond(d):
        d["cards"].append(copy.deepcopy(d["cards"][6]))
        d["cards"][-1]["number"] = 99
        d["cards"][-1]["name"] = {"ru": "Тест", "en": "Test"}
        d["cards"][-1]["abilities"] = [
            {"kind": "play", "effects": [{"op": "if", "cond": {"weather": {}}, "then": []}]}
        ]

    assert _broken(bad_cond).field == "abilities[0].effects[0].cond"


def test_load_set_reports_bad_json_and_duplicate_keys(tmp_path: Path):
    broken = tmp_path / "x.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(CardDataError, match="not valid JSON"):
        load_set(broken)
    broken.write_text('{"code": "A1", "code": "A2"}', encoding="utf-8")
    with pytest.raises(CardDataError, match="appears twice"):
        load_set(broken)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(setdata.build()), encoding="utf-8")
    assert len(load_set(good).cards) == len(setdata.build()["cards"])


def test_names_are_original_and_unique():
    db = load_system()
    names = Counter(c.name_en for c in db.cards.values())
    assert max(names.values()) == 1
    assert len({c.name_ru for c in db.cards.values()}) == len(db.cards)


# The rulebook's own names for the starter and always-available cards.
RULEBOOK_NAMES = {"Apprentice", "Militia", "Mystic", "Heavy Infantry", "Cultist"}


def test_the_center_deck_make_up_a4_a13_a14_a15():
    """100 center cards (A-4: «100 kart talii głównej»): the four factions (A-15) each with
    Heroes and Constructs (A-13), and Monsters, which have no faction (A-14: a Monster
    card shows name, cost, reward, flavour and count, no faction)."""
    center = load_system().by_pile("center")
    assert sum(c.copies for c in center) == 100 and len(center) == 45
    by_faction = Counter()
    for card in center:
        if card.type == "monster":
            assert card.faction is None, card.id
        else:
            assert card.faction in FACTIONS, card.id
        by_faction[card.faction or "monster"] += card.copies
    assert by_faction == {
        "enlightened": 17,
        "lifebound": 19,
        "mechana": 17,
        "void": 17,
        "monster": 30,
    }
    for faction in FACTIONS:
        kinds = Counter(c.type for c in center if c.faction == faction for _ in range(c.copies))
        assert kinds["hero"] >= 5 and kinds["construct"] >= 2, (faction, kinds)
    for card in center:
        assert card.name_en and card.name_ru and card.name_en != card.name_ru, card.id
        assert re.search("[а-яё]", card.name_ru, re.I), card.id
        assert re.fullmatch(r"[A-Za-z' -]+", card.name_en), card.id


def test_no_ascension_card_name_is_taken_from_the_voskhozhdenie_sets():
    from engine.voskhozhdenie.loader import load_system as load_voskhozhdenie

    theirs = set()
    for card in load_voskhozhdenie("voskhozhdenie").all_cards():
        theirs |= {card.name_ru.casefold(), card.name_en.casefold()}
    shared = [
        card
        for card in load_system().cards.values()
        if {card.name_ru.casefold(), card.name_en.casefold()} & theirs
    ]
    # Only a name the rulebook itself gives a starter card may coincide (Militia, A-6).
    assert all(c.pile != "center" and c.name_en in RULEBOOK_NAMES for c in shared), [
        c.id for c in shared
    ]
