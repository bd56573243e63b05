"""Deck checking of «Восхождение»: the checklist CK-001..CK-036 (rules digest, Part 3 §3.1),
the decklist parser, and legal and illegal lists for every format.

Plain pytest, no Django. The card database is built in memory, so these tests do not
depend on the real set files.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import date

import pytest

from engine.voskhozhdenie.cards import Card, CardDB, CardSet, Cost
from engine.voskhozhdenie.decks import (
    CHECKER,
    FORMATS,
    DeckChecker,
    FormatRules,
    ParsedDeck,
    Violation,
    can_change_deck,
)

# ---------------------------------------------------------------- a small card database


def make_card(
    card_id: str,
    name_ru: str,
    name_en: str,
    type: str = "squad",
    colours: tuple[str, ...] = (),
    keywords: tuple[str, ...] = (),
    minor: bool = False,
) -> Card:
    subtypes = {
        "city": ("город",),
        "squad": ("soldier",),
        "patron": ("aspect",),
        "order": ("spell",),
    }[type]
    code, number = card_id.split("-")
    return Card(
        id=card_id,
        set_code=code,
        number=int(number),
        name_ru=name_ru,
        name_en=name_en,
        type=type,
        subtypes=subtypes,
        colours=frozenset(colours),
        cost=None if type == "city" else Cost(coins=2),
        strength=None if type == "order" else 3,
        keywords=frozenset(keywords),
        minor=minor,
    )


def build_db() -> CardDB:
    cards: dict[str, list[Card]] = {code: [] for code in ("VS0", "VS1", "VS2", "VS3", "VS4")}

    def add(code: str, ru: str, en: str, **kw) -> Card:
        card = make_card(f"{code}-{len(cards[code]) + 1:03d}", ru, en, **kw)
        cards[code].append(card)
        return card

    # VS0: the oldest release
    add("VS0", "Древний город", "Ancient City", type="city", colours=("red",))
    add("VS0", "Старый солдат", "Old Soldier")
    add("VS0", "Ветеран", "Veteran")
    # VS1: Cities
    add("VS1", "Красная крепость", "Red Keep", type="city", colours=("red",))
    add("VS1", "Огненный город", "Fire Town", type="city", colours=("red",))
    add("VS1", "Белый град", "White Hold", type="city", colours=("white",))
    add("VS1", "Синяя гавань", "Blue Harbour", type="city", colours=("blue",))
    add("VS1", "Чёрный бастион", "Black Bastion", type="city", colours=("black",))
    add("VS1", "Пурпурная столица", "Purple Capital", type="city", colours=("red", "blue"))
    # VS2: Neutral squads, Reinforcements, Patrons, a Minor card
    for i in range(1, 51):
        add("VS2", f"Наёмник {i}", f"Mercenary {i}")
    for i in range(1, 5):
        add("VS2", f"Резервист {i}", f"Reservist {i}", keywords=("reinforcement",))
    add("VS2", "Покровитель света", "Patron of Light", type="patron")
    add("VS2", "Покровитель тьмы", "Patron of Darkness", type="patron")
    add("VS2", "Малый дух", "Minor Spirit", minor=True)
    add("VS2", "Огненный шар", "Fireball", type="order", colours=("red",))
    # VS3: coloured squads
    for colour, ru, en in (
        ("red", "Красный воин", "Red Warrior"),
        ("blue", "Синий маг", "Blue Mage"),
        ("black", "Чёрный рыцарь", "Black Knight"),
        ("white", "Белый жрец", "White Priest"),
    ):
        for i in range(1, 9):
            add("VS3", f"{ru} {i}", f"{en} {i}", colours=(colour,))
    add("VS3", "Пурпурный маг", "Purple Mage", colours=("red", "blue"))
    # VS4: a reprint of Veteran (same Russian name, another printing)
    add("VS4", "Ветеран", "Veteran")
    add("VS4", "Красная крепость", "Red Fortress", type="city", colours=("red",))

    released = {
        "VS0": date(2020, 1, 1),
        "VS1": date(2021, 1, 1),
        "VS2": date(2022, 1, 1),
        "VS3": date(2023, 1, 1),
        "VS4": date(2024, 1, 1),
    }
    sets = [
        CardSet(code=code, name_ru=code, name_en=code, released=released[code], cards=tuple(cs))
        for code, cs in cards.items()
    ]
    return CardDB.build("voskhozhdenie", sets)


DB = build_db()
TODAY = date(2024, 6, 1)  # Standard: VS1..VS4
NO_DATA = {"banned": (), "chosen_sets": ("VS1", "VS2", "VS3", "VS4")}


def c(name: str) -> Card:
    card = DB.find(name)
    assert card is not None, name
    return card


def n(name: str, count: int) -> list[Card]:
    return [c(name)] * count


def merc(count: int, start: int = 1) -> list[Card]:
    """``count`` Neutral cards, 3 copies of each (the copy limit)."""
    out: list[Card] = []
    i = start
    while len(out) < count:
        out.extend([c(f"Mercenary {i}")] * min(3, count - len(out)))
        i += 1
    return out


def coloured(colour_name: str, count: int) -> list[Card]:
    out: list[Card] = []
    i = 1
    while len(out) < count:
        out.extend([c(f"{colour_name} {i}")] * min(3, count - len(out)))
        i += 1
    return out


FOUR_CITIES = [c("Red Keep"), c("White Hold"), c("Blue Harbour"), c("Black Bastion")]
TWO_CITIES = [c("Red Keep"), c("White Hold")]


def deck(cities=FOUR_CITIES, main=None, reinf=()) -> ParsedDeck:
    return ParsedDeck.of(cities, merc(40) if main is None else main, reinf)


def check(d: ParsedDeck, fmt: str = "standard", **kw) -> list[Violation]:
    options = {"as_of": TODAY, **NO_DATA, **kw}
    return CHECKER.check(d, fmt, DB, **options)


def rules(violations: list[Violation]) -> set[str]:
    return {v.rule for v in violations}


def test_the_registry_loads_this_checker():
    from engine.core import registry

    decklists = registry.get("voskhozhdenie").load("decks")
    assert decklists.checker is CHECKER


# ---------------------------------------------------------------- CK-001..CK-036


@pytest.mark.rule("4.4", "CK-001")
def test_ck001_full_deck_is_the_union_of_cities_main_and_reinforcements():
    """CK-001, rule 4.4."""
    d = deck(main=merc(40), reinf=[*n("Reservist 1", 2), c("Patron of Light")])
    full = d.full_deck()
    assert len(full) == 4 + 40 + 3
    assert Counter(x.id for x in full) == Counter(
        x.id for x in d.cards("cities") + d.cards("main") + d.cards("reinforcements")
    )


@pytest.mark.rule("4.5.1.1", "CK-002")
def test_ck002_standard_city_set_of_three_is_rejected():
    """CK-002, rule 4.5.1.1."""
    violations = check(deck(cities=FOUR_CITIES[:3]))
    assert "4.5.1.1" in rules(violations)
    assert "exactly 4 Cities" in violations[0].message


@pytest.mark.rule("4.5.1.1", "2.2.1", "CK-003")
def test_ck003_standard_cities_with_the_same_russian_name_are_rejected():
    """CK-003, rules 4.5.1.1 and 2.2.1: two printings of «Красная крепость» are one City."""
    red_fortress = DB.card("VS4-002")
    assert red_fortress.name_ru == c("Red Keep").name_ru and red_fortress.id != c("Red Keep").id
    violations = check(
        deck(cities=[c("Red Keep"), red_fortress, c("White Hold"), c("Blue Harbour")])
    )
    assert rules(violations) == {"4.5.1.1"}
    assert "Red Keep" in violations[0].message and "different" in violations[0].message


@pytest.mark.rule("4.5.1.1", "CK-004")
def test_ck004_standard_four_different_cities_are_accepted():
    """CK-004, rule 4.5.1.1."""
    assert check(deck()) == []


@pytest.mark.rule("4.5.1.2", "CK-005")
def test_ck005_copy_limit_counts_main_and_reinforcement_together():
    """CK-005, rule 4.5.1.2: 2 in the Main Deck + 2 in the Reinforcement Deck = 4 copies."""
    violations = check(deck(main=merc(38) + n("Reservist 1", 2), reinf=n("Reservist 1", 2)))
    assert rules(violations) == {"4.5.1.2"}
    assert "“Reservist 1” has 4" in violations[0].message


@pytest.mark.rule("2.2.1", "CK-006")
def test_ck006_printings_with_the_same_russian_name_are_copies_of_one_card():
    """CK-006, rule 2.2.1."""
    old, new = DB.card("VS0-003"), DB.card("VS4-001")
    assert {p.id for p in DB.printings(old)} == {old.id, new.id}
    violations = check(deck(main=[*merc(36), old, old, new, new]), "eternal")
    assert rules(violations) == {"4.5.2.2"}


@pytest.mark.rule("4.5.1.3", "CK-007")
def test_ck007_minor_card_is_rejected():
    """CK-007, rule 4.5.1.3."""
    violations = check(deck(main=[*merc(40), c("Minor Spirit")]))
    assert rules(violations) == {"4.5.1.3"}
    assert "Minor Spirit" in violations[0].message


@pytest.mark.rule("4.5.1.4", "CK-008")
def test_ck008_standard_main_deck_needs_forty_cards():
    """CK-008, rule 4.5.1.4: 39 rejected, 40 accepted."""
    assert rules(check(deck(main=merc(39)))) == {"4.5.1.4"}
    assert check(deck(main=merc(40))) == []


@pytest.mark.rule("4.5.1.4", "CK-009")
def test_ck009_main_deck_has_no_maximum():
    """CK-009, rule 4.5.1.4: 150 cards are fine."""
    assert check(deck(main=merc(150))) == []


@pytest.mark.rule("4.5.1.5", "CK-010")
def test_ck010_standard_reinforcement_deck_holds_at_most_ten():
    """CK-010, rule 4.5.1.5: 11 rejected, 10 and 0 accepted."""
    ten = n("Reservist 1", 3) + n("Reservist 2", 3) + n("Reservist 3", 3) + n("Reservist 4", 1)
    assert check(deck(reinf=ten)) == []
    assert rules(check(deck(reinf=[*ten, c("Reservist 4")]))) == {"4.5.1.5"}
    assert check(deck(reinf=())) == []


@pytest.mark.rule("4.5.1.6", "CK-011")
def test_ck011_squad_without_the_keyword_is_rejected_from_reinforcements():
    """CK-011, rule 4.5.1.6."""
    violations = check(deck(main=merc(40, start=2), reinf=[c("Mercenary 1")]))
    assert rules(violations) == {"4.5.1.6"}
    assert "Mercenary 1" in violations[0].message


@pytest.mark.rule("4.5.1.6", "CK-012")
def test_ck012_patron_without_the_keyword_is_accepted_in_reinforcements():
    """CK-012, rule 4.5.1.6."""
    assert check(deck(reinf=[c("Patron of Light")])) == []


@pytest.mark.rule("4.5.1.7", "CK-013")
def test_ck013_two_patrons_are_rejected():
    """CK-013, rule 4.5.1.7."""
    violations = check(deck(reinf=[c("Patron of Light"), c("Patron of Darkness")]))
    assert rules(violations) == {"4.5.1.7"}
    assert "Patron of Light" in violations[0].message


@pytest.mark.rule("4.5.1.8", "CK-014")
def test_ck014_patron_in_the_main_deck_is_rejected():
    """CK-014, rule 4.5.1.8."""
    violations = check(deck(main=[*merc(40), c("Patron of Light")]))
    assert rules(violations) == {"4.5.1.8"}


@pytest.mark.parametrize("where", ["main", "reinforcements"])
@pytest.mark.rule("4.5.1.8", "CK-015")
def test_ck015_city_in_the_main_or_reinforcement_deck_is_rejected(where):
    """CK-015, rule 4.5.1.8."""
    city = c("Fire Town")
    d = deck(main=[*merc(40), city]) if where == "main" else deck(reinf=[city])
    violations = check(d)
    assert rules(violations) == {"4.5.1.8"}
    assert "Fire Town" in violations[0].message


@pytest.mark.rule("4.5.1.9", "CK-016")
def test_ck016_one_red_city_allows_ten_red_cards():
    """CK-016, rule 4.5.1.9: 10 accepted, 11 rejected."""
    assert check(deck(main=merc(30) + coloured("Red Warrior", 10))) == []
    violations = check(deck(main=merc(30) + coloured("Red Warrior", 11)))
    assert rules(violations) == {"4.5.1.9"}
    assert "red" in violations[0].message


@pytest.mark.rule("4.5.1.9", "AMB-10", "CK-017")
def test_ck017_two_red_cities_allow_twenty_red_cards():
    """CK-017, rule 4.5.1.9 (rec AMB-10): 20 accepted, 21 rejected."""
    cities = [c("Red Keep"), c("Fire Town"), c("White Hold"), c("Blue Harbour")]
    assert check(deck(cities=cities, main=merc(20) + coloured("Red Warrior", 20))) == []
    violations = check(deck(cities=cities, main=merc(20) + coloured("Red Warrior", 21)))
    assert rules(violations) == {"4.5.1.9"}


@pytest.mark.rule("4.5.1.9", "AMB-10", "CK-018")
def test_ck018_off_colour_card_is_rejected():
    """CK-018, rule 4.5.1.9 (rec AMB-10): no Blue City, one Blue card."""
    cities = [c("Red Keep"), c("Fire Town"), c("White Hold"), c("Black Bastion")]
    violations = check(deck(cities=cities, main=[*merc(40), c("Blue Mage 1")]))
    assert rules(violations) == {"4.5.1.9"}
    assert "Blue Mage 1" in violations[0].message and "no blue City" in violations[0].message


@pytest.mark.rule("4.5.1.9", "2.1.4.1", "AMB-10", "CK-019")
def test_ck019_multicolour_card_counts_toward_each_colour():
    """CK-019, rules 4.5.1.9 and 2.1.4.1 (rec AMB-10): a Red-Blue card counts for Red and Blue."""
    purple = c("Purple Mage")
    ten_red_and_purple = deck(main=merc(30) + coloured("Red Warrior", 10) + [purple])
    violations = check(ten_red_and_purple)
    assert [v.rule for v in violations] == ["4.5.1.9"]
    assert "red" in violations[0].message and purple.id in violations[0].cards
    ten_blue_and_purple = deck(main=merc(30) + coloured("Blue Mage", 10) + [purple])
    assert [v.rule for v in check(ten_blue_and_purple)] == ["4.5.1.9"]
    # and a multicolour City adds 10 to each of its colours
    cities = [c("Purple Capital"), c("White Hold"), c("Black Bastion"), c("Fire Town")]
    assert check(deck(cities=cities, main=merc(20) + coloured("Red Warrior", 19) + [purple])) == []


@pytest.mark.rule("4.5.1.10", "2.1.4.4", "CK-020")
def test_ck020_neutral_cards_are_not_limited_by_colour():
    """CK-020, rules 4.5.1.10 and 2.1.4.4: 30 Neutral cards beside 10 Red ones."""
    cities = [c("Red Keep"), c("Fire Town"), c("Ancient City"), c("Purple Capital")]
    assert check(deck(cities=cities, main=merc(30) + coloured("Red Warrior", 10)), "eternal") == []
    assert check(deck(main=merc(60))) == []


@pytest.mark.rule("4.5.1.11", "CK-021")
def test_ck021_standard_rejects_cards_and_cities_older_than_the_last_four_releases():
    """CK-021, rule 4.5.1.11: VS0 is out of Standard on 2024-06-01, the City included."""
    old_city = [c("Ancient City"), c("White Hold"), c("Blue Harbour"), c("Black Bastion")]
    violations = check(deck(cities=old_city, main=[*merc(39), c("Old Soldier")]))
    assert rules(violations) == {"4.5.1.11"}
    assert "Ancient City" in violations[0].message and "Old Soldier" in violations[0].message
    # a card reprinted in a recent release is legal (2.2.1)
    assert check(deck(main=[*merc(39), DB.card("VS0-003")])) == []
    # the releases are counted as of the event date: in 2023, VS0..VS3 are the last 4
    assert (
        check(deck(cities=old_city, main=[*merc(39), c("Old Soldier")]), as_of=date(2023, 6, 1))
        == []
    )


@pytest.mark.rule("3.3", "CK-022")
def test_ck022_banned_card_is_rejected_even_if_otherwise_legal():
    """CK-022, rule 3.3 (names in Russian or English, or card ids)."""
    d = deck()
    for banned in (["Наёмник 1"], ["наемник 1"], ["Mercenary 1"], [c("Mercenary 1").id]):
        violations = check(d, banned=banned)
        assert rules(violations) == {"3.3"}
        assert "Mercenary 1" in violations[0].message


@pytest.mark.rule("4.5.1.12", "3.1.1", "CK-023")
def test_ck023_standard_deck_cannot_change_between_games():
    """CK-023, rules 4.5.1.12 and 3.1.1."""
    old = deck()
    new = deck(main=merc(40, start=5))
    assert rules(can_change_deck("standard", old, new)) == {"4.5.1.12"}
    assert rules(can_change_deck("eternal", old, new)) == {"4.5.2.11"}
    assert can_change_deck("standard", old, deck()) == []


@pytest.mark.rule("4.5.2", "CK-024")
def test_ck024_eternal_accepts_the_oldest_release():
    """CK-024, rules 4.5.2.*."""
    cities = [c("Ancient City"), c("White Hold"), c("Blue Harbour"), c("Black Bastion")]
    assert check(deck(cities=cities, main=[*merc(39), c("Old Soldier")]), "eternal") == []
    # and the other limits still hold
    assert rules(check(deck(cities=cities[:3], main=merc(39)), "eternal")) == {"4.5.2.1", "4.5.2.4"}


@pytest.mark.rule("4.5.3.11", "3.2.3", "CK-025")
def test_ck025_chosen_rejects_releases_outside_the_season_list():
    """CK-025, rules 4.5.3.11 and 3.2.3; unknown codes in the list are ignored."""
    season = ["VS1", "VS2", "VS99"]
    assert check(deck(), "chosen", chosen_sets=season) == []
    violations = check(deck(main=[*merc(39), c("Red Warrior 1")]), "chosen", chosen_sets=season)
    assert rules(violations) == {"4.5.3.11"}
    assert "Red Warrior 1" in violations[0].message


@pytest.mark.rule("4.5.4.1", "CK-026")
def test_ck026_blitz_needs_two_different_cities():
    """CK-026, rule 4.5.4.1: 4 rejected, 2 different accepted, 2 identical rejected."""
    main = merc(20)
    assert rules(check(deck(cities=FOUR_CITIES, main=main), "blitz")) == {"4.5.4.1"}
    assert check(deck(cities=TWO_CITIES, main=main), "blitz") == []
    assert rules(check(deck(cities=[c("Red Keep")] * 2, main=main), "blitz")) == {"4.5.4.1"}


@pytest.mark.rule("4.5.4.4", "CK-027")
def test_ck027_blitz_main_deck_needs_twenty():
    """CK-027, rule 4.5.4.4."""
    assert rules(check(deck(cities=TWO_CITIES, main=merc(19)), "blitz")) == {"4.5.4.4"}
    assert check(deck(cities=TWO_CITIES, main=merc(20)), "blitz") == []


@pytest.mark.rule("4.5.4.5", "CK-028")
def test_ck028_blitz_reinforcement_deck_holds_at_most_five():
    """CK-028, rule 4.5.4.5."""
    five = n("Reservist 1", 3) + n("Reservist 2", 2)
    assert check(deck(cities=TWO_CITIES, main=merc(20), reinf=five), "blitz") == []
    six = [*five, c("Reservist 3")]
    assert rules(check(deck(cities=TWO_CITIES, main=merc(20), reinf=six), "blitz")) == {"4.5.4.5"}


@pytest.mark.rule("4.5.4.2", "CK-029")
def test_ck029_blitz_rejects_four_copies():
    """CK-029, rule 4.5.4.2."""
    main = merc(16) + n("Mercenary 20", 4)
    assert rules(check(deck(cities=TWO_CITIES, main=main), "blitz")) == {"4.5.4.2"}


@pytest.mark.rule("4.5.4.9", "CK-030")
def test_ck030_blitz_colour_limit_with_one_black_city():
    """CK-030, rule 4.5.4.9."""
    cities = [c("Black Bastion"), c("White Hold")]
    assert check(deck(cities=cities, main=merc(10) + coloured("Black Knight", 10)), "blitz") == []
    violations = check(deck(cities=cities, main=merc(10) + coloured("Black Knight", 11)), "blitz")
    assert rules(violations) == {"4.5.4.9"}


def draft_pool(*decks: ParsedDeck) -> Counter:
    pool: Counter = Counter()
    for d in decks:
        pool.update(x.id for x in d.full_deck())
    return pool


@pytest.mark.rule("4.5.5.1", "CK-031")
def test_ck031_draft_allows_two_copies_of_one_city_but_not_three_cities():
    """CK-031, rule 4.5.5.1 (rec AMB-05)."""
    same = deck(cities=[c("Red Keep")] * 2, main=merc(20))
    assert check(same, "draft", pool=draft_pool(same)) == []
    three = deck(cities=[c("Red Keep")] * 2 + [c("White Hold")], main=merc(20))
    assert rules(check(three, "draft", pool=draft_pool(three))) == {"4.5.5.1"}


@pytest.mark.rule("4.5.5", "CK-032")
def test_ck032_draft_has_no_copy_limit():
    """CK-032, rule 4.5.5 (rec AMB-08): 4 copies, all from the pool."""
    d = deck(cities=TWO_CITIES, main=merc(16) + n("Mercenary 20", 4))
    assert check(d, "draft", pool=draft_pool(d)) == []


@pytest.mark.rule("4.5.5.3", "4.5.5.4", "CK-033")
def test_ck033_draft_main_and_reinforcement_sizes():
    """CK-033, rules 4.5.5.3 and 4.5.5.4."""
    small = deck(cities=TWO_CITIES, main=merc(19))
    assert rules(check(small, "draft", pool=draft_pool(small))) == {"4.5.5.3"}
    six = n("Reservist 1", 6)
    big = deck(cities=TWO_CITIES, main=merc(20), reinf=six)
    assert rules(check(big, "draft", pool=draft_pool(big))) == {"4.5.5.4"}


@pytest.mark.rule("4.5.5.2", "4.5.5.6", "CK-034")
def test_ck034_draft_rejects_minor_cards_and_two_patrons():
    """CK-034, rules 4.5.5.2 and 4.5.5.6."""
    minor = deck(cities=TWO_CITIES, main=[*merc(20), c("Minor Spirit")])
    assert rules(check(minor, "draft", pool=draft_pool(minor))) == {"4.5.5.2"}
    patrons = deck(cities=TWO_CITIES, main=merc(20), reinf=[c("Patron of Light")] * 2)
    assert rules(check(patrons, "draft", pool=draft_pool(patrons))) == {"4.5.5.6"}


@pytest.mark.rule("3.1.2", "4.5.5.10", "CK-035")
def test_ck035_draft_card_not_in_the_pool_is_rejected():
    """CK-035, rules 3.1.2 and 4.5.5.10 (inferred); the Cities come from the pool (AMB-05)."""
    d = deck(cities=TWO_CITIES, main=merc(20))
    pool = draft_pool(d)
    pool[c("Mercenary 1").id] -= 1
    del pool[c("White Hold").id]
    violations = check(d, "draft", pool=pool)
    assert rules(violations) == {"4.5.5.10"}
    assert "“Mercenary 1” (3 in the deck, 2 in the pool)" in violations[0].message
    assert "White Hold" in violations[0].message
    # the pool may be given by card names too
    by_name = Counter(
        {x.name_ru: k for x, k in ((DB.card(i), k) for i, k in draft_pool(d).items())}
    )
    assert check(d, "draft", pool=by_name) == []


@pytest.mark.rule("4.5.5.10", "AMB-09", "CK-036")
def test_ck036_draft_deck_may_change_between_games_with_pool_cards():
    """CK-036, rule 4.5.5.10 (rec AMB-09)."""
    old = deck(cities=TWO_CITIES, main=merc(20))
    new = deck(cities=TWO_CITIES, main=merc(20, start=3))
    pool = draft_pool(old, new)
    assert can_change_deck("draft", old, new, pool, DB) == []
    outside = deck(cities=TWO_CITIES, main=merc(20, start=20))
    assert rules(can_change_deck("draft", old, outside, pool, DB)) == {"4.5.5.10"}
    broken = deck(cities=TWO_CITIES, main=merc(19, start=3))
    assert rules(can_change_deck("draft", old, broken, pool, DB)) == {"4.5.5.3"}


# ---------------------------------------------------------------- every rule at once


def test_every_broken_rule_is_reported_in_one_answer():
    cities = [c("Red Keep"), c("Red Keep"), c("Blue Harbour")]
    main = [
        *n("Mercenary 1", 4),
        c("Minor Spirit"),
        c("Patron of Light"),
        c("Fire Town"),
        *coloured("Black Knight", 1),
        c("Old Soldier"),
    ]
    reinf = [*n("Reservist 1", 9), c("Mercenary 2"), c("Patron of Darkness"), c("White Hold")]
    violations = check(ParsedDeck.of(cities, main, reinf), banned=["Mercenary 1"])
    assert rules(violations) == {
        "4.5.1.1",
        "4.5.1.2",
        "4.5.1.3",
        "4.5.1.4",
        "4.5.1.5",
        "4.5.1.6",
        "4.5.1.7",
        "4.5.1.8",
        "4.5.1.9",
        "4.5.1.11",
        "3.3",
    }
    assert all(v.message for v in violations)
    copies = [v.message for v in violations if v.rule == "4.5.1.2"]
    assert len(copies) == 2 and "“Reservist 1” has 9" in copies[1]


def test_messages_in_russian_on_request():
    violations = CHECKER.check(
        deck(main=[*merc(39), c("Minor Spirit")]),
        "standard",
        DB,
        as_of=TODAY,
        language="ru",
        **NO_DATA,
    )
    assert [str(v) for v in violations] == [
        "Карты с приставкой «Малый» нельзя включать в колоду: «Малый дух». (rule 4.5.1.3)"
    ]
    messages = [
        v.message for v in check(deck(cities=FOUR_CITIES[:3], main=merc(30)), language="ru")
    ]
    assert messages == [
        "Набор городов должен состоять ровно из 4 карт Города; в нём 3.",
        "В основной колоде должно быть не меньше 40 карт; сейчас 30.",
    ]
    parsed = CHECKER.parse("Города\nКрасная крепост\n0 Белый град\n", DB, language="ru")
    assert [p.message for p in parsed.problems] == [
        "Неизвестная карта «Красная крепост». Возможно, вы имели в виду «Красная крепость»?",
        "Количество карт «Белый град» должно быть не меньше 1.",
    ]
    change = can_change_deck("blitz", deck(), deck(main=merc(41)), language="ru")
    assert change[0].message == "В формате «Блиц» колоду нельзя менять после начала матча."


# ---------------------------------------------------------------- legal and illegal lists per format


ENGLISH_LIST = """\
# Red aggro, Standard
Cities:
Red Keep
White Hold
Blue Harbour
Black Bastion

Main deck
3 Mercenary 1
3x Mercenary 2
3 Mercenary 3
3 Mercenary 4
3 Mercenary 5
3 Mercenary 6
3 Mercenary 7
3 Mercenary 8
3 Mercenary 9
3 Mercenary 10
3 Red Warrior 1
3 Red Warrior 2
3 Red Warrior 3
1 Red Warrior 4

REINFORCEMENTS:
3 Reservist 1
Patron of Light   # our Patron
"""

RUSSIAN_LIST = """\
Города
Красная крепость
Белый град
Синяя гавань
Черный бастион

Основная колода:
3 наемник 1
3х Наёмник 2
3 Наёмник 3
3 Наёмник 4
3 Наёмник 5
3 Наёмник 6
3 Наёмник 7
3 Наёмник 8
3 Наёмник 9
3 Наёмник 10
3 Наёмник 11
3 Наёмник 12
3 Наёмник 13
1 Наёмник 14

Подкрепления
2 Резервист 1
Покровитель света
"""

BLITZ_LIST = """\
Cities
Red Keep
White Hold
Main deck
3 Mercenary 1
3 Mercenary 2
3 Mercenary 3
3 Mercenary 4
3 Mercenary 5
3 Red Warrior 1
2 White Priest 1
Reinforcements
3 Reservist 1
2 Reservist 2
"""

DRAFT_LIST = """\
Cities
2 Red Keep
Main deck
4 Mercenary 1
4 Mercenary 2
4 Mercenary 3
4 Mercenary 4
4 Red Warrior 1
Reinforcements
Patron of Light
"""


def test_english_list_parses_and_is_legal_in_standard():
    parsed = CHECKER.parse(ENGLISH_LIST, DB)
    assert parsed.ok, parsed.problems
    assert (
        parsed.size("cities") == 4
        and parsed.size("main") == 40
        and parsed.size("reinforcements") == 4
    )
    assert parsed.counts("main")["наемник 2"] == 3
    assert check(parsed) == []


def test_russian_list_parses_with_yo_and_case_ignored():
    parsed = CHECKER.parse(RUSSIAN_LIST, DB)
    assert parsed.ok, parsed.problems
    assert [e.card.id for e in parsed.section("cities")][3] == c("Black Bastion").id
    assert parsed.size("main") == 40 and parsed.size("reinforcements") == 3
    assert check(parsed) == []


@pytest.mark.parametrize(
    ("fmt", "text", "broken", "expected"),
    [
        ("standard", ENGLISH_LIST, ("3 Mercenary 1\n", "3 Old Soldier\n"), {"4.5.1.11"}),
        ("eternal", ENGLISH_LIST, ("Patron of Light", "2 Patron of Light"), {"4.5.2.7"}),
        ("chosen", RUSSIAN_LIST, ("3 Наёмник 3\n", "3 Красный воин 1\n"), {"4.5.3.11"}),
        ("blitz", BLITZ_LIST, ("White Hold", "Red Keep"), {"4.5.4.1", "4.5.4.9"}),
        ("draft", DRAFT_LIST, ("4 Red Warrior 1", "4 Blue Mage 1"), {"4.5.5.8", "4.5.5.10"}),
    ],
)
def test_legal_and_illegal_lists_for_every_format(fmt, text, broken, expected):
    pool = None
    if fmt == "draft":
        pool = draft_pool(CHECKER.parse(text, DB))
    chosen = ("VS1", "VS2") if fmt == "chosen" else NO_DATA["chosen_sets"]
    report = CHECKER.validate(text, fmt, DB, as_of=TODAY, chosen_sets=chosen, banned=(), pool=pool)
    assert report.is_legal, report.problems
    bad = CHECKER.validate(
        text.replace(*broken), fmt, DB, as_of=TODAY, chosen_sets=chosen, banned=(), pool=pool
    )
    assert not bad.is_legal
    assert {v.rule for v in bad.problems} == expected


# ---------------------------------------------------------------- the parser


def test_headers_in_any_case_with_colons_and_counts():
    text = (
        "CITIES (2):\nRed Keep\nWhite Hold\nОСНОВНАЯ КОЛОДА:\n20 Mercenary 1\nколода подкреплений\n"
    )
    parsed = CHECKER.parse(text, DB)
    assert parsed.ok
    assert parsed.size("cities") == 2 and parsed.size("main") == 20


def test_count_forms_and_repeated_lines_are_merged():
    text = "Main deck\n2x Mercenary 1\n1 × Mercenary 1\nMercenary 1 x2\nМалый дух\n3х Наёмник 2\n"
    parsed = CHECKER.parse(text, DB)
    assert parsed.ok, parsed.problems
    assert parsed.counts("main") == Counter({"наемник 1": 5, "малый дух": 1, "наемник 2": 3})
    assert parsed.section("main")[0].line == 2


def test_unknown_cards_are_reported_with_line_numbers_and_suggestions():
    text = "Cities\nRed Kep\nMain deck\n3 Огненый шар\n2 Zzzzqq\n"
    parsed = CHECKER.parse(text, DB)
    assert [(p.line, p.rule) for p in parsed.problems] == [(2, ""), (4, ""), (5, "")]
    assert "Did you mean “Red Keep”" in parsed.problems[0].message
    assert "Did you mean “Огненный шар”" in parsed.problems[1].message
    assert parsed.problems[2].message == "Unknown card “Zzzzqq”."


def test_bad_lines_counts_and_cards_before_any_header_are_reported():
    text = "3 Mercenary 1\nMain deck\n0 Mercenary 2\n-2 Mercenary 3\n500 Mercenary 4\n40\n3 Mercenary 5\n"
    parsed = CHECKER.parse(text, DB)
    problems = {p.line: p.message for p in parsed.problems}
    assert set(problems) == {1, 3, 4, 5, 6}
    assert "before any section header" in problems[1]
    assert "at least 1" in problems[3] and "at least 1" in problems[4]
    assert "cannot be right" in problems[5]
    assert "Cannot read “40”" in problems[6]
    assert parsed.size("main") == 3  # the good line is still read


def test_all_problems_of_a_list_come_at_once_with_the_broken_rules():
    text = "Cities\nRed Keep\nWite Hold\nMain deck\n0 Mercenary 1\n3 Mercenary 2\n# comment\n\nFoo Bar\n"
    report = CHECKER.validate(text, "standard", DB, as_of=TODAY, **NO_DATA)
    lines = [p.line for p in report.problems if p.line]
    assert lines == [3, 5, 9]
    assert {p.rule for p in report.problems if p.rule} == {"4.5.1.1", "4.5.1.4"}
    assert not report.is_legal
    assert "line 3:" in str(report.problems[0])
    assert report.problems[0].as_dict()["line"] == 3


def test_empty_list_is_a_problem():
    assert not CHECKER.parse("# nothing\n\n", DB).ok


# ---------------------------------------------------------------- data and display


def test_format_data_file_is_read_and_unknown_set_codes_are_ignored(tmp_path):
    path = tmp_path / "_formats.json"
    path.write_text(
        json.dumps(
            {
                "banned": {"standard": ["Наёмник 1"]},
                "chosen": {"season": "test", "sets": ["VS2", "VS1", "NOPE"]},
            }
        ),
        encoding="utf-8",
    )
    checker = DeckChecker(path)
    assert checker.format_rules().chosen_sets == ("VS2", "VS1", "NOPE")
    violations = checker.check(deck(), "standard", DB, as_of=TODAY)
    assert rules(violations) == {"3.3"}
    assert checker.check(deck(), "chosen", DB) == []
    assert DeckChecker(tmp_path / "missing.json").format_rules() == FormatRules()


def test_the_shipped_format_data_file_is_valid():
    data = CHECKER.format_rules()
    assert set(data.banned) == set(FORMATS)
    assert data.chosen_sets and data.chosen_season


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_rules_summary_lists_the_rule_numbers_of_each_format(fmt):
    summary = CHECKER.rules_summary(fmt)
    russian = CHECKER.rules_summary(fmt, language="ru")
    assert [rule for rule, _text in russian] == [rule for rule, _text in summary]
    assert russian != summary
    base = FORMATS[fmt].base
    assert summary[0][0] == "4.4"
    assert all(rule.startswith((base, "4.4", "3.3")) for rule, _text in summary)
    assert len({rule for rule, _text in summary}) == len(summary)


def test_unknown_format_is_an_error():
    with pytest.raises(ValueError, match="unknown format"):
        CHECKER.check(deck(), "pauper", DB)


def test_sealed_decks_are_built_under_the_draft_rules():
    """Sealed (a limited format like Draft) checks the Draft deck rules, 4.5.5."""
    d = deck(cities=[c("Red Keep")] * 2, main=merc(19))
    pool = draft_pool(d)
    assert (
        rules(check(d, "sealed", pool=pool)) == rules(check(d, "draft", pool=pool)) == {"4.5.5.3"}
    )
