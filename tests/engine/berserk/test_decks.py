"""Berserk decklists [100.2-100.4, С: Орда, Г: Копия]: the deck rules, reading and writing
plain-text lists, and the decklist service (``engine.core.decklists``).

Checklist (digest §16): CK-001, CK-002. Cards are built here, not loaded.
"""

from __future__ import annotations

import sys
import types

import pytest

from engine.berserk.config import Config
from engine.berserk.decks import (
    DECKLISTS,
    CardLookup,
    Decklists,
    ParsedDeck,
    UnknownCard,
    Violation,
    check_deck,
    parse_deck,
    rules_summary,
    validate_deck,
    write_deck,
)
from engine.berserk.model import Ability, Card
from engine.core.decklists import Decklists as DecklistsProtocol


def make(n: int, ru: str, en: str, **kw) -> Card:
    return Card(id=f"T-{n:03d}", set_code="T", number=n, name_ru=ru, name_en=en, **kw)


WOLF = make(1, "Степной волк", "Steppe Wolf", element="steppe", cost=3)
ELF = make(2, "Лесной эльф", "Forest Elf", element="forest", cost=4, elite=True)
GOBLIN = make(3, "Гоблин", "Goblin", element="mountains", cost=2, abilities=(Ability("horde"),))
TROLL = make(4, "Болотный тролль", "Swamp Troll", element="swamps", cost=5)
SHADE = make(5, "Тень", "Shade", element="darkness", cost=6, elite=True)
# Thirty filler cards with different names (a deck uses two copies of each at most).
FILLER = [make(10 + i, f"Воин {i:02d}", f"Warrior {i:02d}", cost=2) for i in range(30)]
ALL = [WOLF, ELF, GOBLIN, TROLL, SHADE, *FILLER]
LOOKUP = CardLookup.from_cards(ALL)


def deck_of(size: int, *extra: Card) -> list[Card]:
    """``size`` cards: ``extra`` first, then filler, at most 2 copies of each filler."""
    cards = list(extra)
    i = 0
    while len(cards) < size:
        cards.append(FILLER[(i // 2) % len(FILLER)])
        i += 1
    return cards


def rules_of(violations) -> list[str]:
    return [v.rule for v in violations]


# ---------------------------------------------------------------- CK-001, CK-002


@pytest.mark.rule("100.2а", "100.3", "CK-001")
def test_ck001_deck_sizes_per_format():
    """CK-001: constructed 29 / 30 → reject / accept; draft and sealed 19 / 20; 51 → reject
    in any format."""
    assert rules_of(check_deck(deck_of(29), "constructed")) == ["100.2а"]
    assert check_deck(deck_of(30), "constructed") == []
    for fmt in ("draft", "sealed"):
        assert rules_of(check_deck(deck_of(19), fmt)) == ["100.2а"]
        assert check_deck(deck_of(20), fmt) == []
    for fmt in ("constructed", "draft", "sealed"):
        assert rules_of(check_deck(deck_of(51), fmt)) == ["100.3"]
        assert check_deck(deck_of(50), fmt) == []


@pytest.mark.rule("100.2б", "С: Орда", "CK-002")
def test_ck002_three_copies_by_name_five_with_horde():
    """CK-002: in constructed, 4 copies of a name → reject; a Horde card may have 5."""
    four = check_deck(deck_of(30, *[WOLF] * 4), "constructed")
    assert rules_of(four) == ["100.2б"]
    assert four[0].cards == (WOLF.id,)
    assert check_deck(deck_of(30, *[WOLF] * 3), "constructed") == []
    assert check_deck(deck_of(30, *[GOBLIN] * 5), "constructed") == []
    six = check_deck(deck_of(30, *[GOBLIN] * 6), "constructed")
    assert rules_of(six) == ["С: Орда"]
    # limited formats have no copy limit (100.2б speaks of constructed only)
    assert check_deck(deck_of(20, *[WOLF] * 6), "draft") == []


@pytest.mark.rule("100.2б", "Г: Копия", "201.3")
def test_copies_are_counted_by_name_across_printings():
    reprint = make(99, "Степной волк", "Steppe Wolf", element="steppe", cost=4, elite=True)
    found = check_deck(deck_of(30, WOLF, WOLF, reprint, reprint), "constructed")
    assert rules_of(found) == ["100.2б"]
    assert set(found[0].cards) == {WOLF.id, reprint.id}


@pytest.mark.rule("100.2а")
def test_limited_decks_only_from_the_pool():
    deck = deck_of(20, WOLF, WOLF)
    pool = {}
    for c in deck:
        pool[c.id] = pool.get(c.id, 0) + 1
    pool[WOLF.id] = 1
    for fmt in ("draft", "sealed"):
        found = check_deck(deck, fmt, pool=pool, cards=LOOKUP)
        assert rules_of(found) == ["100.2а"]
        assert found[0].cards == (WOLF.id,)
        assert "2 in the deck, 1 in the pool" in found[0].message
    pool[WOLF.id] = 2
    assert check_deck(deck, "draft", pool=pool, cards=LOOKUP) == []
    # a pool keyed by Card objects needs no lookup
    by_card = {}
    for c in deck:
        by_card[c] = by_card.get(c, 0) + 1
    assert check_deck(deck, "sealed", pool=by_card) == []
    # constructed ignores a pool
    assert check_deck(deck_of(30), "constructed", pool={}) == []


@pytest.mark.rule("100.4")
def test_tournament_ban_list_by_name_in_either_language_or_id():
    deck = deck_of(30, WOLF, ELF)
    for banned in (["Степной волк"], ["steppe wolf"], [WOLF.id]):
        found = check_deck(deck, "constructed", banned=banned)
        assert rules_of(found) == ["100.4"]
        assert found[0].cards == (WOLF.id,)


def test_unknown_format_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown Berserk format"):
        check_deck([], "standard")


def test_numbers_come_from_the_config():
    config = Config(deck_min_constructed=10, deck_max=12, copy_limit=2)
    assert check_deck(deck_of(10), "constructed", config=config) == []
    found = check_deck(deck_of(13, WOLF, WOLF, WOLF), "constructed", config=config)
    assert set(rules_of(found)) == {"100.2б", "100.3"}


# ---------------------------------------------------------------- reading lists


LIST = """Колода

3 Степной волк
Forest Elf x2
2x Goblin
Болотный тролль
1 × Shade
"""


def test_reads_both_count_styles_both_languages_and_skips_heading_and_blanks():
    deck = parse_deck(LIST, LOOKUP)
    assert deck.ok
    assert [(e.card.id, e.count, e.line) for e in deck.entries] == [
        (WOLF.id, 3, 3),
        (ELF.id, 2, 4),
        (GOBLIN.id, 2, 5),
        (TROLL.id, 1, 6),
        (SHADE.id, 1, 7),
    ]
    assert deck.size() == 9


def test_the_same_card_on_two_lines_adds_up_and_names_fold_case_yo_and_quotes():
    ru = make(50, "Ёжик", "Hedgehog")
    deck = parse_deck("Deck (4):\n2 «ежик»\n2 HEDGEHOG\n", CardLookup.from_cards([ru]))
    assert deck.ok
    assert deck.card_ids() == [ru.id] * 4


def test_unknown_names_are_reported_with_the_line_and_a_suggestion():
    deck = parse_deck("Deck\n3 Степной волк\n\n2 Степной вол\n1 Forset Elf\n", LOOKUP)
    assert [p.line for p in deck.problems] == [4, 5]
    assert all(p.rule == "" for p in deck.problems)
    assert "Did you mean “Степной волк”?" in deck.problems[0].message
    assert "Did you mean “Forest Elf”?" in deck.problems[1].message
    ru = parse_deck("2 Степной вол", LOOKUP, language="ru")
    assert ru.problems[0].message == (
        "Неизвестная карта «Степной вол». Возможно, вы имели в виду «Степной волк»?"
    )


def test_bad_counts_and_empty_lists():
    deck = parse_deck("0 Goblin\n120 Goblin\n7\n", LOOKUP)
    assert [p.line for p in deck.problems] == [1, 2, 3]
    assert parse_deck("\n\nDeck\n", LOOKUP).problems[0].message == "The decklist has no cards."


def test_a_heading_is_skipped_only_as_a_heading():
    # a known heading word anywhere; another title only as the first line, with a colon
    deck = parse_deck("Моя колода на турнир:\n3 Goblin\nDeck:\n", LOOKUP)
    assert deck.ok and deck.size() == 3
    later = parse_deck("3 Goblin\nМоя колода на турнир:\n", LOOKUP)
    assert [p.line for p in later.problems] == [2]


def test_lookups_by_find_object_by_mapping_and_by_callable():
    class DB:
        def find(self, name):
            return {"goblin": GOBLIN, "гоблин": GOBLIN}.get(name.casefold())

        def card(self, card_id):
            return {GOBLIN.id: GOBLIN}[card_id]

        def all_cards(self):
            return (GOBLIN,)

    def by_callable(name):
        return GOBLIN if name.casefold() in ("goblin", "гоблин") else None

    for source in (DB(), {"Goblin": GOBLIN}, by_callable):
        deck = parse_deck("2 Goblin\n1 Гоблин\n", source)
        assert deck.card_ids() == [GOBLIN.id] * 3, source
    miss = parse_deck("1 Goblon", DB())
    assert "Did you mean “Goblin”?" in miss.problems[0].message


def test_validate_reports_text_problems_then_rule_problems():
    report = validate_deck("3 Гоблин\n1 Nothing\n", "constructed", LOOKUP)
    assert not report.is_legal
    assert [(p.rule, p.line) for p in report.problems] == [("", 2), ("100.2а", None)]
    assert report.problems[1].as_dict() == {
        "rule": "100.2а",
        "message": "A Constructed deck must have at least 30 cards; this one has 3.",
        "line": None,
        "cards": [],
    }
    ru = validate_deck("3 Гоблин\n", "draft", LOOKUP, language="ru")
    assert ru.problems[0].message == (
        "В колоде для формата «Драфт» должно быть не меньше 20 карт; сейчас 3."
    )


def test_violation_shape_matches_the_other_systems():
    v = Violation("100.3", "Too many.", cards=("T-001",))
    assert v.as_dict() == {
        "rule": "100.3",
        "message": "Too many.",
        "line": None,
        "cards": ["T-001"],
    }
    assert str(v) == "Too many. (rule 100.3)"
    assert str(Violation("", "Bad.", line=4)) == "line 4: Bad."


@pytest.mark.parametrize("language", ["en", "ru"])
def test_writing_a_deck_reads_back(language):
    ids = [c.id for c in deck_of(30, WOLF, WOLF, ELF, GOBLIN, GOBLIN, GOBLIN, GOBLIN)]
    text = write_deck(ids, LOOKUP, language=language)
    assert text.splitlines()[0] == ("Колода" if language == "ru" else "Deck")
    assert "4 Гоблин" in text if language == "ru" else "4 Goblin" in text
    back = parse_deck(text, LOOKUP)
    assert back.ok
    assert sorted(back.card_ids()) == sorted(ids)


@pytest.mark.parametrize("fmt", ["constructed", "draft", "sealed"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_rules_summary_in_both_languages(fmt, language):
    summary = rules_summary(fmt, language)
    numbers = [n for n, _ in summary]
    assert "100.2а" in numbers and "100.3" in numbers
    assert ("100.2б" in numbers) == (fmt == "constructed")
    text = " ".join(t for _, t in summary)
    assert ("30" if fmt == "constructed" else "20") in text
    assert ("карт" in text) == (language == "ru")


# ---------------------------------------------------------------- the service


def test_the_service_follows_the_platform_protocol():
    assert isinstance(DECKLISTS, DecklistsProtocol)
    service = Decklists(cards=LOOKUP)
    text = "3 Степной волк\n" + "\n".join(f"2 {c.name_en}" for c in FILLER[:14])
    report = service.validate(text, "constructed")
    assert report.is_legal
    assert service.to_engine_deck(text)[:3] == [WOLF.id] * 3
    assert len(service.to_engine_deck(text + "\n1 Nothing")) == 31
    assert service.rules_summary("sealed", "ru")[0][0] == "100.2а"
    deck = {"deck": service.to_engine_deck(text)}
    assert parse_deck(service.write(deck, "ru"), LOOKUP).card_ids().count(WOLF.id) == 3


def test_check_sections_uses_the_pool_and_the_deck_section():
    service = Decklists(cards=LOOKUP)
    ids = [c.id for c in deck_of(20)]
    pool = {}
    for card_id in ids:
        pool[card_id] = pool.get(card_id, 0) + 1
    assert service.check_sections({"deck": ids}, "draft", pool=pool) == []
    problems = service.check_sections({"deck": [*ids, WOLF.id]}, "sealed", pool=pool)
    assert [p["rule"] for p in problems] == ["100.2а"]
    assert problems[0]["cards"] == [WOLF.id]
    short = service.check_sections({"deck": ids[:5]}, "draft", pool=pool, language="ru")
    assert short[0]["message"].startswith("В колоде для формата «Драфт»")
    with pytest.raises(UnknownCard):
        service.check_sections({"deck": ["NOPE-1"]}, "draft", pool=pool)


def test_the_card_data_is_loaded_lazily_from_engine_berserk_cards(monkeypatch):
    calls = []

    def load_system():
        calls.append(1)
        return LOOKUP

    fake = types.ModuleType("engine.berserk.cards")
    fake.load_system = load_system
    monkeypatch.setitem(sys.modules, "engine.berserk.cards", fake)
    service = Decklists()
    assert calls == []
    assert service.to_engine_deck("1 Goblin") == [GOBLIN.id]
    assert calls == [1]


def test_parsed_deck_of_cards():
    deck = ParsedDeck.of([WOLF, WOLF, ELF])
    assert [(e.card.id, e.count) for e in deck.entries] == [(WOLF.id, 2), (ELF.id, 1)]
    assert deck.counts()["степной волк"] == 2
