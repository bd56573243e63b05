"""The card loader, the set files of «Восхождение» and the card model (no Django).

Run alone with ``.venv/bin/python -m pytest -p no:django tests/engine/test_cards.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from engine.core import cardjson
from engine.voskhozhdenie import loader, setdata
from engine.voskhozhdenie.cards import (
    SUBTYPES,
    BoosterSpec,
    Card,
    CardDB,
    CardSet,
    Cost,
)
from engine.voskhozhdenie.effects import ABILITY_KINDS
from engine.voskhozhdenie.loader import CardDataError, booster_pool, load_set, load_system

SYSTEM = "voskhozhdenie"

# ---------------------------------------------------------------- a tiny valid set


def tiny_set() -> dict:
    """A small valid set file: one card of each type, and a Minor card."""
    return {
        "code": "T1",
        "name": {"ru": "Тестовый выпуск", "en": "Test Release"},
        "released": "2026-01-10",
        "places": {"test_town": {"ru": "Тестоград", "en": "Testgrad"}},
        "booster": None,
        "cards": [
            {
                "number": 1,
                "name": {"ru": "Проверочный отряд", "en": "Test Squad"},
                "type": "squad",
                "subtypes": ["soldier"],
                "colours": ["white"],
                "cost": 2,
                "strength": 2,
                "keywords": ["zeal"],
                "rarity": "common",
                "text": {"ru": "Рвение.", "en": "Zeal."},
                "abilities": [],
            },
            {
                "number": 2,
                "name": {"ru": "Проверочная тактика", "en": "Test Tactic"},
                "type": "tactic",
                "subtypes": ["battle"],
                "colours": [],
                "cost": 1,
                "rarity": "common",
                "text": {"ru": "Превосходство: возьмите карту.", "en": "Superiority: draw a card."},
                "abilities": [{"kind": "superiority", "effects": [{"op": "draw", "count": 1}]}],
            },
            {
                "number": 3,
                "name": {"ru": "Проверочный приказ", "en": "Test Order"},
                "type": "order",
                "subtypes": ["spell"],
                "colours": ["red"],
                "cost": "X",
                "rarity": "uncommon",
                "text": {
                    "ru": "Создайте малый отряд «Фишка».",
                    "en": "Create a Minor Squad «Token».",
                },
                "abilities": [
                    {"kind": "dynamic", "effects": [{"op": "create_minor", "card": "T1-009"}]}
                ],
            },
            {
                "number": 4,
                "name": {"ru": "Проверочный город", "en": "Test City"},
                "type": "city",
                "subtypes": ["test_town"],
                "colours": ["blue"],
                "strength": 10,
                "supply": 2,
                "rarity": "common",
                "text": {"ru": "", "en": ""},
            },
            {
                "number": 9,
                "name": {"ru": "Фишка", "en": "Token"},
                "type": "squad",
                "subtypes": ["monster"],
                "colours": ["red"],
                "strength": 1,
                "minor": True,
                "rarity": "common",
                "text": {"ru": "", "en": ""},
            },
        ],
    }


def write(folder: Path, data: dict, name: str = "t1.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def load_error(tmp_path: Path, data: dict) -> str:
    path = write(tmp_path, data)
    with pytest.raises(CardDataError) as info:
        load_set(path)
    return str(info.value)


def test_the_tiny_set_is_valid(tmp_path):
    card_set = load_set(write(tmp_path, tiny_set()))
    assert card_set.code == "T1"
    assert card_set.released == date(2026, 1, 10)
    assert [c.id for c in card_set.cards] == ["T1-001", "T1-002", "T1-003", "T1-004", "T1-009"]
    squad, tactic, order, city, token = card_set.cards
    assert squad.keywords == {"zeal"} and squad.strength == 2 and squad.cost == Cost(coins=2)
    assert tactic.strength is None and tactic.is_neutral
    assert order.cost == Cost(x=True) and order.cost_value == 0
    assert city.cost is None and city.supply == 2 and city.subtypes == ("test_town",)
    assert token.minor
    assert card_set.places["test_town"] == {"ru": "Тестоград", "en": "Testgrad"}


# ---------------------------------------------------------------- malformed files


def card_error(tmp_path, number: int, change) -> str:
    data = tiny_set()
    card = next(c for c in data["cards"] if c["number"] == number)
    change(card)
    return load_error(tmp_path, data)


@pytest.mark.rule("2.1.5.2", "CK-065")
def test_ck065_a_card_with_two_types_is_rejected(tmp_path):
    message = card_error(tmp_path, 1, lambda c: c.update(type=["squad", "tactic"]))
    assert message.endswith(
        "t1.json: card T1-001 «Проверочный отряд»: type: a card has exactly one type (rule 2.1.5.2)"
    )


def test_a_tactic_with_strength_is_rejected(tmp_path):
    message = card_error(tmp_path, 2, lambda c: c.update(strength=3))
    assert "t1.json: card T1-002 «Проверочная тактика»: strength: " in message
    assert "a Tactic has no Strength (rule 2.1.9.1)" in message


def test_an_unknown_op_is_rejected_with_its_path(tmp_path):
    def change(card):
        card["abilities"][0]["effects"][0]["op"] = "summon_dragon"

    message = card_error(tmp_path, 2, change)
    assert "card T1-002 «Проверочная тактика»: abilities[0].effects[0].op: unknown op" in message
    assert "'summon_dragon'" in message


def test_create_minor_must_name_an_existing_card(tmp_path):
    def change(card):
        card["abilities"][0]["effects"][0]["card"] = "T1-077"

    message = card_error(tmp_path, 3, change)
    assert (
        "card T1-003 «Проверочный приказ»: abilities[0].effects[0].card: no card T1-077" in message
    )


def test_create_minor_must_name_a_minor_card(tmp_path):
    def change(card):
        card["abilities"][0]["effects"][0]["card"] = "T1-001"

    message = card_error(tmp_path, 3, change)
    assert "abilities[0].effects[0].card: T1-001 «Проверочный отряд» is not a Minor card" in message


@pytest.mark.parametrize(
    ("number", "change", "field", "words"),
    [
        (1, lambda c: c.pop("strength"), "strength", "a Squad needs Strength"),
        (1, lambda c: c.update(strength="2"), "strength", "must be an integer"),
        (2, lambda c: c.update(type="spell"), "type", "unknown type 'spell'"),
        (1, lambda c: c.update(subtypes=["soldier", "wizard"]), "subtypes[1]", "'wizard'"),
        (1, lambda c: c.update(subtypes=[]), "subtypes", "a Squad has 1 to 7 subtype(s)"),
        (2, lambda c: c.update(subtypes=["battle", "confrontation"]), "subtypes", "exactly 1"),
        (4, lambda c: c.update(subtypes=["atlantis"]), "subtypes[0]", "not a place of this set"),
        (4, lambda c: c.update(subtypes=["test_town", "test_town"]), "subtypes", "twice"),
        (1, lambda c: c.update(colours=["green"]), "colours[0]", "unknown colour 'green'"),
        (1, lambda c: c.update(cost=-1), "cost", "at least 0"),
        (1, lambda c: c.update(cost="2X"), "cost", '"X"'),
        (1, lambda c: c.update(cost={"supply": 0}), "cost.supply", "at least 1"),
        (1, lambda c: c.update(keywords=["flying"]), "keywords[0]", "unknown keyword"),
        (2, lambda c: c.update(keywords=["zeal"]), "keywords", "only a Squad can have Zeal"),
        (1, lambda c: c.update(rarity="mythic"), "rarity", "unknown rarity"),
        (1, lambda c: c.update(supply=1), "supply", "a Squad carries no Supply symbols"),
        (1, lambda c: c.update(name={"ru": "Отряд"}), "name", "languages"),
        (1, lambda c: c.update(text={"ru": "", "en": ""}), "text", "needs its rules text"),
        (1, lambda c: c.update(power=3), "", "unknown field(s) power"),
        (1, lambda c: c.pop("rarity"), "rarity", "is required"),
        (
            1,
            lambda c: c.update(
                abilities=[{"kind": "dynamic", "effects": [{"op": "draw", "count": 1}]}]
            ),
            "abilities[0].kind",
            "a Squad cannot have a dynamic ability",
        ),
        (3, lambda c: c.update(abilities=[]), "abilities", "an Order needs a dynamic ability"),
        (
            1,
            lambda c: c.update(
                abilities=[{"kind": "static", "effects": [{"op": "draw", "count": 1}]}]
            ),
            "abilities[0].effects[0].op",
            "unknown op 'draw'",
        ),
        (9, lambda c: c.update(rarity="rare"), "rarity", "a Minor card has rarity common"),
        (3, lambda c: c.update(minor=True), "minor", "an Order cannot be on the Battlefield"),
    ],
)
def test_card_errors_name_the_file_the_card_and_the_field(tmp_path, number, change, field, words):
    message = card_error(tmp_path, number, change)
    assert f"t1.json: card T1-{number:03d}" in message
    if field:
        assert f": {field}: " in message
    assert words in message


def test_numbers_and_russian_names_are_unique_in_a_set(tmp_path):
    data = tiny_set()
    data["cards"][1]["number"] = 1
    assert "card T1-001 «Проверочная тактика»: number: another card already has number 1" in (
        load_error(tmp_path, data)
    )
    data = tiny_set()
    data["cards"][1]["name"]["ru"] = "ПРОВЕРОЧНЫЙ  отряд"  # same name, case and spacing aside
    assert "name.ru: T1-001 already has this name" in load_error(tmp_path, data)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda d: d.update(released="14.03.2026"), "released", "ISO date"),
        (lambda d: d.update(released="2026-02-30"), "released", "not a real date"),
        (lambda d: d.update(code="t-1"), "code", "capital letters"),
        (lambda d: d.pop("cards"), "cards", "is required"),
        (lambda d: d.update(cards=[]), "cards", "non-empty"),
        (lambda d: d.update(extra=1), "", "unknown field(s) extra"),
        (
            lambda d: d.update(booster={"size": 3, "slots": [{"rarity": "common", "count": 2}]}),
            "booster",
            "the slots hold 2 cards, but size is 3",
        ),
        (
            lambda d: d.update(booster={"size": 4, "slots": [{"rarity": "common", "count": 4}]}),
            "booster",
            "need 4 different cards but the set has 3",  # the Minor card never counts
        ),
        (
            lambda d: d.update(
                booster={
                    "size": 2,
                    "slots": [
                        {"rarity": "common", "count": 1, "types": ["city"]},
                        {
                            "rarity": "uncommon",
                            "count": 1,
                            "upgrade": "rare",
                            "upgrade_chance": 0.1,
                        },
                    ],
                }
            ),
            "booster",
            "slot 1 (rare) need 1 different cards but the set has 0",
        ),
        (
            lambda d: d.update(booster={"size": 1, "slots": [{"rarity": "epic", "count": 1}]}),
            "booster.slots[0].rarity",
            "use one of",
        ),
    ],
)
def test_set_errors_name_the_file_and_the_field(tmp_path, change, field, words):
    data = tiny_set()
    change(data)
    message = load_error(tmp_path, data)
    assert "t1.json: " in message
    if field:
        assert f": {field}: " in message
    assert words in message


def test_broken_json_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"code": "T1",', encoding="utf-8")
    with pytest.raises(CardDataError, match=r"broken\.json: not valid JSON"):
        load_set(path)


def test_a_key_given_twice_is_rejected(tmp_path):
    text = json.dumps(tiny_set(), ensure_ascii=False)
    text = text.replace('"strength": 2,', '"strength": 2, "strength": 3,', 1)
    path = tmp_path / "t1.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load_set(path)
    assert str(info.value).endswith(
        "t1.json: card T1-001 «Проверочный отряд»: strength: "
        "the key 'strength' appears twice in one object"
    )


def test_error_paths_are_relative_to_the_repository():
    path = loader.SETS_DIR / SYSTEM / "vs1.json"
    assert cardjson.display(path) == "engine/sets/voskhozhdenie/vs1.json"


# ---------------------------------------------------------------- load_system


@pytest.fixture
def sets_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "SETS_DIR", tmp_path)
    load_system.cache_clear()
    yield tmp_path
    load_system.cache_clear()


def test_load_system_reads_every_set_but_not_underscore_files(sets_dir):
    folder = sets_dir / "testgame"
    folder.mkdir()
    write(folder, tiny_set())
    second = tiny_set()
    second.update(code="T2", released="2026-05-01")
    write(folder, second, "t2.json")
    (folder / "_formats.json").write_text('{"not": "a set"}', encoding="utf-8")
    db = load_system("testgame")
    assert [s.code for s in db.sets] == ["T1", "T2"]
    assert db.card("T2-001").name_en == "Test Squad"
    assert load_system("testgame") is db  # cached


def test_load_system_checks_references_across_sets(sets_dir):
    folder = sets_dir / "testgame"
    folder.mkdir()
    write(folder, tiny_set())
    second = tiny_set()
    second.update(code="T2", released="2026-05-01")
    second["cards"][2]["abilities"][0]["effects"][0]["card"] = "T1-003"  # an Order, not Minor
    write(folder, second, "t2.json")
    with pytest.raises(CardDataError) as info:
        load_system("testgame")
    assert "t2.json: card T2-003 «Проверочный приказ»: abilities[0].effects[0].card: " in str(
        info.value
    )
    assert "is not a Minor card" in str(info.value)


def test_duplicate_set_codes_are_rejected(sets_dir):
    folder = sets_dir / "testgame"
    folder.mkdir()
    write(folder, tiny_set())
    write(folder, tiny_set(), "t1-again.json")
    with pytest.raises(CardDataError, match="set code T1 is also used by"):
        load_system("testgame")


def test_an_unknown_system_is_an_error(sets_dir):
    with pytest.raises(CardDataError, match="no set files"):
        load_system("no-such-game")
    with pytest.raises(CardDataError, match="lower-case name"):
        load_system("../voskhozhdenie")


# ---------------------------------------------------------------- the real sets


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_system(SYSTEM)


def test_loading_the_real_sets_is_cached():
    first = load_system(SYSTEM)
    hits = load_system.cache_info().hits
    assert load_system(SYSTEM) is first
    assert load_system.cache_info().hits == hits + 1


def test_the_real_sets_load(db):
    assert [s.code for s in db.sets] == ["VS0", "VS1", "VS2", "VS3", "VS4"]
    releases = [s.released for s in db.sets]
    assert releases == sorted(releases) and len(set(releases)) == 5
    for card_set in db.sets:
        assert card_set.name_ru and card_set.name_en
        cities = [c for c in card_set.cards if c.type == "city"]
        assert len(cities) >= 4, card_set.code


def vs1_cards(db) -> list[Card]:
    return [c for c in db.get_set("VS1").cards if not c.minor]


def kinds(card: Card) -> set[str]:
    return {a["kind"] for a in card.abilities}


def test_the_set_files_are_what_the_build_script_writes():
    """The JSON is written by engine/voskhozhdenie/setdata.py (rules text from abilities)."""
    files = setdata.render_all()
    assert set(files) == {p.name for p in setdata.OUT_DIR.glob("vs*.json")}
    assert setdata.OUT_DIR == loader.SETS_DIR / SYSTEM
    for name, text in files.items():
        path = setdata.OUT_DIR / name
        assert path.read_text(encoding="utf-8") == text, (
            f"{name}: run python -m engine.voskhozhdenie.setdata"
        )


def test_vs1_size_types_and_subtypes(db):
    cards = vs1_cards(db)
    assert len(cards) >= 180
    types = Counter(c.type for c in cards)
    assert set(types) == set(SUBTYPES)
    assert types["squad"] == max(types.values())
    assert types["patron"] == min(types.values())
    for card_type, allowed in SUBTYPES.items():
        seen = {s for c in cards if c.type == card_type for s in c.subtypes}
        if allowed is None:
            assert len(seen) >= 3, card_type  # several places/factions
        else:
            assert seen == set(allowed), card_type


def test_vs1_colours(db):
    cards = vs1_cards(db)
    colours = {col for c in cards for col in c.colours}
    assert colours == {"white", "blue", "black", "red"}
    assert any(c.is_neutral for c in cards)
    assert sum(len(c.colours) > 1 for c in cards) >= 5
    for colour in colours:  # Standard needs 4 different Cities
        assert sum(c.type == "city" and c.colours == {colour} for c in cards) >= 4, colour
    assert sum(c.type == "city" and c.is_neutral for c in cards) >= 1
    for city in (c for c in cards if c.type == "city"):
        assert 1 <= city.supply <= 2 and 8 <= city.strength <= 14 and city.cost is None


def test_vs1_mechanics(db):
    cards = vs1_cards(db)
    keywords = Counter(k for c in cards for k in c.keywords)
    assert keywords["reinforcement"] >= 10 and keywords["zeal"] >= 10
    assert {k for c in cards for k in kinds(c)} == set(ABILITY_KINDS)
    assert all(kinds(c) & {"superiority", "outcome"} for c in cards if c.type == "tactic")
    assert sum("superiority" in kinds(c) for c in cards) >= 10
    assert sum("decree" in kinds(c) for c in cards) >= 10
    rarities = Counter(c.rarity for c in cards)
    assert rarities["common"] > rarities["uncommon"] > rarities["rare"] > rarities["legendary"] > 0
    ops = json.dumps([c.abilities for c in cards])
    assert '"max_direct_attacks"' in ops and '"event": "direct_attack"' in ops
    costs = {("x" if c.cost.x else "supply" if c.cost.supply else "coins") for c in cards if c.cost}
    assert costs == {"x", "supply", "coins"}


def minor_refs(value):
    if isinstance(value, dict):
        if value.get("op") == "create_minor":
            yield value["card"]
        for item in value.values():
            yield from minor_refs(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from minor_refs(item)


def test_minor_cards_exist_and_every_create_minor_names_one(db):
    minors = [c for c in db.all_cards() if c.minor]
    assert len(minors) >= 4
    refs = [ref for c in db.all_cards() for ref in minor_refs(list(c.abilities))]
    assert len(refs) >= 20
    for ref in refs:
        assert db.card(ref).minor
    assert {m.id for m in minors} <= set(refs)  # no Minor card is unused
    for minor in minors:
        assert minor.rarity == "common" and minor.cost is None and minor.type != "order"


def test_texts_exist_in_both_languages(db):
    for card in db.all_cards():
        if card.abilities or card.keywords:
            assert card.text_ru.strip() and card.text_en.strip(), card.id
            assert card.text_ru.count("\n") == card.text_en.count("\n"), card.id
        if "zeal" in card.keywords:
            assert "Рвение" in card.text_ru and "Zeal" in card.text_en, card.id
        if "reinforcement" in card.keywords:
            assert "Подкрепление" in card.text_ru and "Reinforcement" in card.text_en, card.id
        assert not any(ch in card.text_en for ch in "абвгдежзиклмнопрстуфхцчшщыэюя"), card.id


@pytest.mark.rule("2.1.9.1", "CK-066")
def test_ck066_tactics_orders_and_relics_have_no_strength(db):
    for card in db.all_cards():
        if card.type in ("tactic", "order", "relic"):
            assert card.strength is None, card.id
        else:
            assert isinstance(card.strength, int) and card.strength >= 1, card.id


# ---------------------------------------------------------------- the model


def make_card(card_id: str, name_ru: str, name_en: str, **extra) -> Card:
    fields = {
        "set_code": card_id.split("-")[0],
        "number": int(card_id.split("-")[1]),
        "type": "squad",
        "subtypes": ("soldier",),
        "colours": frozenset(),
        "cost": Cost(coins=1),
        "strength": 1,
    }
    fields.update(extra)
    return Card(id=card_id, name_ru=name_ru, name_en=name_en, **fields)


def make_set(code: str, released: date, cards=()) -> CardSet:
    return CardSet(code, f"Выпуск {code}", f"Release {code}", released, tuple(cards))


def test_ck006_two_printings_with_one_russian_name_are_one_card():
    first = make_card("A1-001", "Ёжик в тумане", "Hedgehog in the Fog")
    again = make_card("A2-007", "ежик  в тумане", "Fog Hedgehog", colours=frozenset({"blue"}))
    other = make_card("A2-008", "Ёжик на мосту", "Hedgehog on the Bridge")
    db = CardDB.build(
        "test",
        [
            make_set("A2", date(2026, 6, 1), [again, other]),
            make_set("A1", date(2026, 1, 1), [first]),
        ],
    )
    assert {c.id for c in db.printings(first)} == {"A1-001", "A2-007"}
    assert {c.id for c in db.printings(again)} == {"A1-001", "A2-007"}
    assert db.find("ЁЖИК В ТУМАНЕ") is first  # the earliest printing stands for the card
    assert db.find("fog hedgehog") in db.printings(first)  # a later printing's English name
    assert db.find("Hedgehog on the bridge") is other


def test_real_reprints_share_a_name(db):
    sellsword = db.find("Наёмник")
    assert sellsword.id == "VS1-176"
    assert {c.set_code for c in db.printings(sellsword)} == {"VS1", "VS2"}


def test_names_are_found_in_russian_and_english_case_insensitively(db):
    berserker = db.find("Берсерк")
    assert berserker is not None and berserker.name_en == "Berserker"
    assert db.find("bErSeRkEr") is berserker
    assert db.find("  БЕРСЕРК ") is berserker
    assert db.find("Святая Ирина Заступница") is db.find("saint irina the intercessor")
    assert db.find("Никто") is None
    for card in db.all_cards():
        assert db.find(card.name_ru) in db.printings(card)
        assert db.find(card.name_en).name_ru.casefold() == db.find(card.name_ru).name_ru.casefold()


@pytest.mark.rule("2.1.2.2", "2.1.2.3", "CK-063", "CK-064")
def test_ck063_ck064_cost_values():
    assert Cost(x=True).value == 0
    assert Cost(supply=3).value == 3
    assert Cost(coins=4).value == 4
    assert make_card("A1-001", "Без цены", "No Cost", cost=None).cost_value == 0  # 2.1.2.1


@pytest.mark.rule("2.1.2.2", "2.1.2.3", "CK-063", "CK-064")
def test_ck063_ck064_cost_values_of_real_cards(db):
    x_cards = [c for c in db.all_cards() if c.cost and c.cost.x]
    supply_cards = [c for c in db.all_cards() if c.cost and c.cost.supply]
    assert x_cards and supply_cards
    assert all(c.cost_value == 0 for c in x_cards)
    assert all(c.cost_value == c.cost.supply for c in supply_cards)


# ---------------------------------------------------------------- boosters and Standard


def open_booster(card_set: CardSet, rng: random.Random) -> list[Card]:
    """A plain collation of the booster spec, as the draft will do it."""
    spec: BoosterSpec = card_set.booster
    picked: list[Card] = []
    for slot in spec.slots:
        rarity = (
            slot.upgrade if slot.upgrade and rng.random() < slot.upgrade_chance else slot.rarity
        )
        pool = [c for c in booster_pool(slot, card_set.cards, rarity) if c not in picked]
        picked += rng.sample(pool, slot.count)
    return picked


def test_every_draftable_booster_fills_without_duplicates(db):
    draftable = [s for s in db.sets if s.booster]
    assert {s.code for s in draftable} >= {"VS1", "VS2", "VS3", "VS4"}
    rng = random.Random(7)
    for card_set in draftable:
        spec = card_set.booster
        assert sum(slot.count for slot in spec.slots) == spec.size
        assert 4 * spec.size >= 22  # AMB-04: 2 Cities + 20 Main Deck cards
        for _ in range(300):
            booster = open_booster(card_set, rng)
            assert len(booster) == spec.size
            assert len({c.id for c in booster}) == spec.size
            assert not any(c.minor for c in booster)
        for slot in spec.slots:  # an upgraded slot has cards to draw from
            if slot.upgrade:
                assert booster_pool(slot, card_set.cards, slot.upgrade)


def test_four_boosters_give_a_legal_draft_pool(db):
    rng = random.Random(11)
    for card_set in (s for s in db.sets if s.booster):
        for _ in range(50):
            pool = [c for _ in range(4) for c in open_booster(card_set, rng)]
            assert sum(c.type == "city" for c in pool) >= 2  # AMB-05: Cities from the pool
            main = [c for c in pool if c.type not in ("city", "patron")]
            assert len(main) >= 20


def test_standard_uses_the_latest_four_sets(db):
    latest = db.latest_sets(4)
    assert [s.code for s in latest] == ["VS1", "VS2", "VS3", "VS4"]
    assert "VS0" not in {s.code for s in latest}
    assert [s.code for s in db.latest_sets(4, as_of=date(2026, 9, 1))] == [
        "VS0",
        "VS1",
        "VS2",
        "VS3",
    ]


def test_latest_sets_of_five_in_memory():
    sets = [make_set(f"S{i}", date(2025 + i // 4, 1 + (i % 4) * 3, 1)) for i in range(5)]
    db = CardDB.build("test", reversed(sets))
    assert [s.code for s in db.latest_sets(4)] == ["S1", "S2", "S3", "S4"]
