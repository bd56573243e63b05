"""The starter decks of casual play (engine/sets/voskhozhdenie/_starters.txt): every one is
legal in Standard today (rules 4.5.1.1-4.5.1.11), and the file's reader refuses a broken
file with its name and line."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engine.core import registry
from engine.core.starters import StarterDeckError, parse_starter_decks
from engine.voskhozhdenie.decks import CHECKER, to_engine_deck
from engine.voskhozhdenie.game import SYSTEM


def starters():
    return registry.get("voskhozhdenie").load_starter_decks()


def test_there_are_several_starter_decks_with_names_in_both_languages():
    decks = starters()
    assert len(decks) >= 3
    assert len({d.key for d in decks}) == len(decks)
    assert all(d.name and d.name_ru and d.about and d.about_ru for d in decks)
    assert decks[0].title("ru") == decks[0].name_ru and decks[0].title("en") == decks[0].name


def test_every_starter_deck_is_legal_in_standard_today():
    # Casual decks are checked as of today (play.decks): a new release that rotates a
    # card out of Standard (rule 3.2.1) shows up here first.
    assert registry.get("voskhozhdenie").casual_format == "standard"
    for deck in starters():
        report = CHECKER.validate(deck.text, "standard", SYSTEM.db, as_of=datetime.now(UTC).date())
        assert report.is_legal, (deck.key, [str(p) for p in report.problems])


def test_every_starter_deck_deals_a_game():
    decks = [to_engine_deck(d.text, SYSTEM.db) for d in starters()]
    for deck in decks:
        assert len(deck["cities"]) == 4 and len(deck["main"]) >= 40
        assert len(deck["reinforcement"]) <= 10
    state = SYSTEM.new_game({}, decks[:2], 7)
    assert SYSTEM.to_act(state)


def test_the_reader_refuses_a_broken_file_naming_the_line():
    with pytest.raises(StarterDeckError, match="line 1: text before"):
        parse_starter_decks("Cities\n1 Светлоград\n", "x.txt")
    with pytest.raises(StarterDeckError, match="appears twice"):
        parse_starter_decks("=== a\nname: A\n1 X\n=== a\nname: B\n1 Y\n", "x.txt")
    with pytest.raises(StarterDeckError, match="no name"):
        parse_starter_decks("=== a\n\nCities\n1 X\n", "x.txt")
    with pytest.raises(StarterDeckError, match="no cards"):
        parse_starter_decks("=== a\nname: A\n", "x.txt")
    (deck,) = parse_starter_decks("# about\n=== a-1\nname: A\nabout: B\n\nCities\n1 X\n")
    assert (deck.key, deck.name, deck.about, deck.text) == ("a-1", "A", "B", "Cities\n1 X\n")
