"""Ban lists (rule 3.3): data in a formats file, applied by ``validate`` to their format only."""

from __future__ import annotations

import json

import pytest

from engine.voskhozhdenie.decks import (
    CHECKER,
    FORMATS,
    FORMATS_FILE,
    DeckChecker,
    FormatRules,
    deck_text,
)
from engine.voskhozhdenie.loader import load_system
from engine.voskhozhdenie.simkit import legal_deck

DB = load_system("voskhozhdenie")
AS_OF = max(s.released for s in DB.sets)


def _formats_file(tmp_path, banned: dict) -> DeckChecker:
    """A copy of the real formats file with these ban lists, and a checker that reads it."""
    data = json.loads(FORMATS_FILE.read_text(encoding="utf-8"))
    data["banned"] = {**data["banned"], **banned}
    path = tmp_path / "_formats.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return DeckChecker(rules_file=path)


@pytest.mark.rule("3.3.1")
def test_the_real_ban_lists_are_empty_for_every_format():
    rules = FormatRules.load()
    assert set(rules.banned) == set(FORMATS)  # every format has its list
    assert all(not names for names in rules.banned.values())


@pytest.mark.rule("3.3", "CK-022")
def test_a_ban_list_from_the_formats_file_applies_to_its_format_only(tmp_path):
    deck = legal_deck(DB, 5, "standard")
    text = deck_text(deck, DB)
    banned_card = DB.card(deck["main"][0])
    for fmt in ("standard", "eternal"):  # the deck is legal in both without a ban list
        assert CHECKER.validate(text, fmt, DB, as_of=AS_OF).is_legal, fmt

    checker = _formats_file(tmp_path, {"standard": [banned_card.name_ru]})
    assert checker.format_rules().banned["standard"] == {banned_card.name_ru}
    report = checker.validate(text, "standard", DB, as_of=AS_OF)
    assert [v.rule for v in report.violations] == ["3.3"]
    assert report.violations[0].cards == (banned_card.id,)
    assert banned_card.name_en in report.violations[0].message
    ru = checker.validate(text, "standard", DB, as_of=AS_OF, language="ru")
    assert "Стандарт" in ru.violations[0].message
    # the same list bans nothing in another format
    assert checker.validate(text, "eternal", DB, as_of=AS_OF).is_legal
    # and a card not in the deck changes nothing
    other = _formats_file(tmp_path, {"standard": ["Нет такой карты"]})
    assert other.validate(text, "standard", DB, as_of=AS_OF).is_legal


@pytest.mark.rule("3.3")
def test_an_explicit_ban_list_overrides_the_file(tmp_path):
    deck = legal_deck(DB, 6, "blitz")
    text = deck_text(deck, DB)
    card = DB.card(deck["main"][0])
    checker = _formats_file(tmp_path, {"blitz": [card.id]})
    assert not checker.validate(text, "blitz", DB).is_legal
    assert checker.validate(text, "blitz", DB, banned=[]).is_legal
    path = tmp_path / "_formats.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["banned"]["blitz"] = []
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    checker.reload()  # the file is read again after a change
    assert checker.validate(text, "blitz", DB).is_legal
