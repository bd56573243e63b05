"""Ascension Tactics card data: the loader's strictness (each broken rule refused with its
id), the real set's content and counts, its generated text, and the §19 sample cards of the
digest as a fixture (docs/card-format.md, "Tactics")."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from engine.tactics import setdata
from engine.tactics.cards import (
    OPS,
    SETS_DIR,
    CardDataError,
    card_text,
    load_set,
    load_system,
    parse_set,
)
from engine.tactics.model import FACTIONS, KEYWORDS, TRIGGERS

SOURCE = "engine/sets/tactics/tc1.json"
REAL = json.loads((SETS_DIR / "tc1.json").read_text(encoding="utf-8"))


def _with_text(card: dict) -> dict:
    """The card with its generated text (a placeholder where the data is too broken for
    the generator: the loader refuses such a card before it compares the text)."""
    card = dict(card)
    try:
        card["text"] = {"ru": card_text(card, "ru"), "en": card_text(card, "en")}
    except (KeyError, TypeError, ValueError, AttributeError):
        card["text"] = {"ru": "", "en": ""}
    return card


def _set(cards: list[dict], **more: Any) -> dict:
    data = {
        "code": "TX1",
        "name": {"ru": "Проба", "en": "Trial"},
        "released": "2026-01-01",
        "treasures": [{"count": 24, "boost": {"strength": 1}}],
        "cards": [_with_text(c) for c in cards],
    }
    data.update(more)
    return data


HERO = {
    "number": 1,
    "name": {"ru": "Пробный герой", "en": "Trial Hero"},
    "type": "hero",
    "pile": "center",
    "faction": "mechana",
    "cost": 3,
    "abilities": [{"when": "play", "effects": [{"op": "runes", "amount": 2}]}],
}
RESERVE = {
    "number": 2,
    "name": {"ru": "Пробный чемпион", "en": "Trial Champion"},
    "type": "champion",
    "pile": "reserve",
    "faction": "void",
    "command": 3,
    "strength": 2,
    "defence": 4,
    "speed": 3,
    "keywords": ["ranged"],
}
BOSS = {
    "number": 3,
    "name": {"ru": "Пробный босс", "en": "Trial Boss"},
    "type": "villain",
    "pile": "villain",
    "strength": 4,
    "defence": 8,
    "glory": 5,
    "abilities": [{"when": "surge", "effects": [{"op": "villain_glory", "amount": 1}]}],
}
SCHEME = {
    "number": 4,
    "name": {"ru": "Пробный замысел", "en": "Trial Scheme"},
    "type": "scheme",
    "pile": "scheme",
    "top": [{"op": "villain_command", "tokens": ["a", "b"]}],
    "threat": 4,
    "bottom": [{"op": "surge"}],
}


def _refused(card: dict, match: str, *, text: bool = True) -> CardDataError:
    """Parse a set of the one (changed) card; the error must match ``match``."""
    raw = _with_text(card) if text else card
    data = _set([])
    data["cards"] = [raw]
    with pytest.raises(CardDataError, match=match) as info:
        parse_set(data, "trial.json")
    return info.value


# ---------------------------------------------------------------- strictness


def test_small_valid_set_loads():
    card_set = parse_set(_set([HERO, RESERVE, BOSS, SCHEME]), "trial.json")
    hero, champion, boss, scheme = card_set.cards
    assert hero.id == "TX1-001" and hero.cost == 3 and hero.faction == "mechana"
    assert champion.cost is None and champion.has("ranged") and champion.speed == 3
    assert boss.is_boss and boss.command is None and boss.abilities_when("surge")
    assert scheme.threat == 4 and scheme.top[0]["tokens"] == ["a", "b"]


def test_duplicate_key_is_refused_with_file_card_and_field(tmp_path):
    path = tmp_path / "tx1.json"
    text = json.dumps(_set([HERO]), ensure_ascii=False)
    path.write_text(text.replace('"cost": 3', '"cost": 3, "cost": 4'), encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load_set(path)
    error = info.value
    assert "TX1-001 «Пробный герой»" in str(error)
    assert error.field == "cost" and "appears twice" in error.message


def test_unknown_field_is_refused():
    error = _refused({**HERO, "colour": "red"}, "unknown field")
    assert error.source == "trial.json" and error.card == "TX1-001 «Пробный герой»"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"cost": "3"}, "cost"),
        ({"cost": True}, "cost"),
        ({"copies": 1.5}, "copies"),
        ({"name": "Герой"}, "name"),
    ],
)
def test_wrong_types_are_refused(change, field):
    error = _refused({**HERO, **change}, "must be|needs exactly")
    assert error.field == field


def test_a_field_of_another_type_is_refused_with_its_rule():
    error = _refused({**HERO, "keywords": ["ranged"]}, r"a hero has no keywords \(T-19\)")
    assert error.field == "keywords"
    _refused({**RESERVE, "equip": {"strength": 1}}, r"a champion has no equip \(T-18\)")


@pytest.mark.parametrize(
    ("card", "match"),
    [
        ({**RESERVE, "cost": 4}, r"reserve champion is not acquired: no cost \(T-16, T-76\)"),
        ({**RESERVE, "pile": "center"}, r"central .*|has a cost \(T-29\)"),
        ({**HERO, "cost": None}, r"has a cost \(T-29\)"),
        ({**HERO, "pile": "villain"}, r"pile center or starter or always \(T-7\)"),
        ({**RESERVE, "keywords": ["flying"]}, r"unknown keyword 'flying'.*\(§9\)"),
        ({**RESERVE, "copies": 2}, r"unique: no copies \(T-84\)"),
        ({**HERO, "faction": "chaos"}, r"unknown faction 'chaos'.*\(T-22\)"),
        ({**HERO, "abilities": []}, r"played for its effects \(T-19, T-28\)"),
        (
            {**HERO, "abilities": [{"when": "devotion", "effects": [{"op": "draw", "count": 1}]}]},
            r"Devotion names a faction.*\(T-52\)",
        ),
        (
            {**HERO, "abilities": [{"when": "play", "effects": [{"op": "surge"}]}]},
            r"surge is for schemes and villains only \(T-85..T-94\)",
        ),
        (
            {**HERO, "abilities": [{"when": "play", "effects": [{"op": "bounce"}]}]},
            r"unknown op 'bounce'.*\(D-20\)",
        ),
        (
            {
                **HERO,
                "abilities": [
                    {
                        "when": "play",
                        "effects": [{"op": "damage", "target": "adjacent_enemy", "amount": 1}],
                    }
                ],
            },
            r"needs a champion of its own.*\(T-19, T-20\)",
        ),
        (
            {
                **HERO,
                "abilities": [
                    {
                        "when": "play",
                        "effects": [
                            {"op": "boost", "stat": "strength", "amount": 1, "target": "equipped"}
                        ],
                    }
                ],
            },
            r"only a construct has an equipped champion \(T-20\)",
        ),
        ({**SCHEME, "top": [{"op": "power", "amount": 2}]}, r"need no power: no power \(T-85\)"),
        ({**SCHEME, "threat": 0}, r"threat: must be at least 1"),
        ({**BOSS, "abilities": []}, r"a boss \(glory 4 or more\) has one Surge ability \(T-93\)"),
        ({**BOSS, "glory": 3}, r"Surge is a boss's ability.*\(T-82, T-93\)"),
        ({**BOSS, "command": 2}, r"a villain has no command \(T-81\)"),
        (
            {
                **BOSS,
                "abilities": [
                    *BOSS["abilities"],
                    {
                        "when": "threat",
                        "threat": 3,
                        "effects": [{"op": "villain_glory", "amount": 1}],
                    },
                ],
            },
            r"threat ability is a lasting boost.*\(T-92\)",
        ),
    ],
)
def test_broken_rules_are_refused_with_their_ids(card, match):
    _refused(card, match)


def test_cultist_gate_and_treasure_rules():
    cultist = {"number": 1, "name": {"ru": "К", "en": "C"}, "type": "cultist",
               "pile": "cultist", "command": 3, "strength": 2, "defence": 1}  # fmt: skip
    _refused(cultist, r"the cultist's command cost is 2 \(T-50\)")
    gate1 = {"number": 1, "name": {"ru": "В", "en": "G"}, "type": "gate", "pile": "gate",
             "seat": 1, "every_turn": [{"op": "power", "amount": 2}],
             "first_turn": [{"op": "power", "amount": 2}]}  # fmt: skip
    _refused(gate1, r"first player's gate has no first-turn bonus \(T-15\)")
    _refused({**gate1, "seat": 2, "first_turn": []}, r"first-turn bonus \(T-15\)")
    _refused({**gate1, "first_turn": [], "every_turn": [{"op": "draw", "count": 1}]},
             r"a gate gives runes or power \(T-14, D-4\)")  # fmt: skip
    data = _set([HERO], treasures=[{"count": 23, "boost": {"defence": 2}}])
    with pytest.raises(CardDataError, match=r"holds 24 tokens, not 23 \(T-7\)"):
        parse_set(data, "trial.json")


def test_text_must_say_what_the_card_does():
    card = _with_text(HERO)
    card["text"] = {"ru": card["text"]["ru"], "en": "+3 runes."}
    error = _refused(card, "does not say what the card does", text=False)
    assert error.field == "text.en" and "+2 runes." in error.message


def test_names_are_unique_per_language_in_a_set():
    twin = {**RESERVE, "name": {"ru": "Другой", "en": "trial hero"}}
    data = _set([HERO, twin])
    with pytest.raises(CardDataError, match="TX1-001 has this name too") as info:
        parse_set(data, "trial.json")
    assert info.value.field == "name.en"


def test_a_villain_may_share_a_champion_name():
    """T-82/T-84: villain cards are other sides of champions; the names may meet."""
    villain = {**BOSS, "name": RESERVE["name"]}
    assert len(parse_set(_set([RESERVE, villain]), "trial.json").cards) == 2


# ---------------------------------------------------------------- the real set


@pytest.fixture(scope="module")
def db():
    return load_system()


def test_the_real_set_loads(db):
    assert [s.code for s in db.sets] == ["TC1"]
    assert db.sets[0].source == SOURCE


def test_counts(db):
    assert len(db.champions()) >= 24  # the draft pool (T-7, T-76)
    assert len(db.central()) >= 80
    assert len(db.central_deck()) >= 80
    assert len(db.starters()) == 10  # T-9
    assert sorted(c.name_en for c in db.always()) == ["Heavy Infantry", "Mystic"]  # T-11
    assert db.cultist().command == 2 and (db.cultist().strength, db.cultist().defence) == (2, 1)
    assert [g.seat for g in db.gates()] == [1, 2, 3, 4]
    assert len(db.treasure_bag()) == 24
    assert len(db.bosses()) >= 1 and len([v for v in db.villains() if not v.is_boss]) >= 3
    assert len(db.schemes()) >= 8


def test_central_deck_covers_types_and_factions(db):
    central = db.central()
    types = Counter(c.type for c in central)
    assert {"hero", "construct", "champion", "monster"} <= set(types)
    assert {c.faction for c in central} == set(FACTIONS)
    assert all(c.cost and c.cost >= 1 for c in central)
    # every keyword of §9 and every trigger a player's card can have is used
    used_keywords = {k for c in db.cards.values() for k in c.keywords}
    used_keywords |= {k for c in central if c.equip for k in c.equip.keywords}
    assert used_keywords == set(KEYWORDS)
    used_triggers = {a.when for c in db.cards.values() for a in c.abilities}
    assert used_triggers == set(TRIGGERS)
    ops = {e["op"] for c in db.cards.values() for a in c.abilities for e in a.effects}
    ops |= {e["op"] for c in db.schemes() for e in (*c.top, *c.bottom)}
    assert ops == set(OPS)


def test_champions_are_whole(db):
    for card in db.cards.values():
        if card.is_champion:
            assert card.strength is not None and card.defence and card.speed is not None
            if card.type != "villain":
                assert card.command is not None
    for champion in db.champions():
        assert champion.cost is None and champion.faction in FACTIONS


def test_names_unique_per_language(db):
    for lang in ("ru", "en"):
        names = [c.name(lang).casefold() for c in db.cards.values()]
        assert len(names) == len(set(names)), Counter(names).most_common(3)


def test_every_text_is_generated_from_the_data():
    for raw in REAL["cards"]:
        assert raw["text"] == {"ru": card_text(raw, "ru"), "en": card_text(raw, "en")}
        if raw.get("abilities") or raw.get("keywords") or raw.get("equip"):
            assert raw["text"]["ru"] and raw["text"]["en"]


def test_find_either_language(db):
    assert db.find("Мистик") is db.find("mystic")
    with pytest.raises(KeyError):
        db.find("No Such Card")


def test_setdata_check_is_stable(capsys):
    assert setdata.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    first = setdata.outputs()
    assert first == setdata.outputs()
    for path, text in first.items():
        assert path.read_text(encoding="utf-8") == text


def test_check_notices_a_changed_file(tmp_path, monkeypatch, capsys):
    out = tmp_path / "tc1.json"
    out.write_text((SETS_DIR / "tc1.json").read_text(encoding="utf-8") + " ", encoding="utf-8")
    monkeypatch.setattr(setdata, "OUT", out)
    assert setdata.main(["--check"]) == 1
    assert "differs" in capsys.readouterr().out


def test_real_set_mutations_are_refused():
    data = copy.deepcopy(REAL)
    data["cards"][0]["number"] = data["cards"][1]["number"]
    with pytest.raises(CardDataError, match="is used by another card"):
        parse_set(data, SOURCE)


# ---------------------------------------------------------------- the §19 fixture


def _sample_cards() -> list[dict]:
    """The digest's §19 sample card set (test fixtures, not from the game), in our DSL."""
    s = setdata
    cards: list[dict] = []

    def add(ru, en, type_, pile, **f):
        card = {"number": len(cards) + 1, "name": {"ru": ru, "en": en}, "type": type_,
                "pile": pile, **{k: v for k, v in f.items() if v not in (None, [], {})}}  # fmt: skip
        cards.append(card)

    add("Пепельный страж", "Ash Warden", "champion", "reserve", command=3, strength=3, defence=5)
    add("Камышовый лучник", "Reed Archer", "champion", "reserve", command=3, strength=2,
        defence=3, keywords=["ranged"])  # fmt: skip
    add("Шипошкур", "Thornhide", "champion", "reserve", command=4, strength=3, defence=6,
        keywords=["counter_strike"])  # fmt: skip
    add("Двуклык", "Twinfang", "champion", "reserve", command=4, strength=2, defence=4,
        keywords=["double_attack"])  # fmt: skip
    add("Заклинатель бурь", "Stormcaller", "champion", "center", cost=6, command=5, strength=3,
        defence=5, keywords=["ranged", "area_attack"])  # fmt: skip
    add("Болотный змей", "Bog Wyrm", "monster", "center", cost=5, command=4, strength=5,
        defence=7, abilities=[s.slaughter(s.glory(1))])  # fmt: skip
    add("Писарь с фонарём", "Lantern Scribe", "hero", "center", faction="enlightened", cost=3,
        abilities=[s.play(s.runes(2)), s.devotion("enlightened", s.draw(1))])  # fmt: skip
    add("Мастер шестерней", "Gearwright", "hero", "center", faction="mechana", cost=2,
        abilities=[s.play(s.runes(1), s.on_top())])  # fmt: skip
    add("Ястреб-разведчик", "Scout Hawk", "hero", "center", faction="lifebound", cost=2,
        abilities=[s.ambush(s.boost("speed", 2)), s.play(s.power(1))])  # fmt: skip
    add("Жнец пустоты", "Void Reaper", "hero", "center", faction="void", cost=4,
        abilities=[s.play(s.power(2), s.banish(optional=False))])  # fmt: skip
    add("Железная пика", "Iron Pike", "construct", "center", cost=3, equip={"strength": 2})
    add("Башенный щит", "Tower Shield", "construct", "center", cost=3, equip={"defence": 3})
    add("Длинный лук", "Longbow", "construct", "center", cost=4, equip={"keywords": ["ranged"]})
    add("Сбор", "Rally", "scheme", "scheme", top=[s.vcmd("a", "b")], threat=4,
        bottom=[s.surge()])  # fmt: skip
    add("Натиск", "Onslaught", "scheme", "scheme", top=[s.vcmd("boss")], threat=6,
        bottom=[s.vcmd("boss")])  # fmt: skip
    add("Призыв", "Summon", "scheme", "scheme", top=[s.vcult("c")], threat=2,
        bottom=[s.vcmd("c")])  # fmt: skip
    add("Продвижение", "Advance", "scheme", "scheme", top=[s.vcmd("b", "c")], threat=8,
        bottom=[s.boost("strength", 2, "all_villains")])  # fmt: skip
    return cards


def test_sample_card_set_of_section_19_loads(tmp_path):
    treasures = [
        {"count": 8, "boost": {"strength": 2}},
        {"count": 8, "boost": {"defence": 2}},
        {"count": 6, "boost": {"speed": 1}},
        {"count": 2, "grant": "ranged"},
    ]
    data = _set(_sample_cards(), treasures=treasures)
    path = tmp_path / "sample.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    sample = {c.name_en: c for c in load_set(path).cards}
    assert sample["Stormcaller"].cost == 6 and sample["Stormcaller"].keywords == (
        "ranged",
        "area_attack",
    )
    assert sample["Bog Wyrm"].type == "monster" and sample["Bog Wyrm"].cost == 5
    assert sample["Bog Wyrm"].text_en == "Slaughter: +1 glory."
    assert sample["Lantern Scribe"].text_en == "+2 runes.\nDevotion (Enlightened): draw 1 card."
    assert sample["Scout Hawk"].abilities_when("ambush")
    assert sample["Longbow"].equip.keywords == ("ranged",)
    assert sample["Advance"].text_en.endswith("Threat 8: give each villain champion +2 STR "
                                              "until the end of the turn.")  # fmt: skip
    assert sample["Twinfang"].text_ru == "Двойная атака."
