"""The starter decks of Berserk (casual games and bots): legal constructed decks
[100.2а-б], each of two elements and neutral cards [304.6], that the engine deals."""

from __future__ import annotations

import pytest

from engine.berserk.decks import DECKLISTS
from engine.berserk.game import SYSTEM
from engine.core import registry

STARTERS = registry.get("berserk").load_starter_decks()


def test_there_are_starter_decks_in_both_languages():
    assert len(STARTERS) >= 4
    assert all(deck.title("ru") != deck.title("en") for deck in STARTERS)


@pytest.mark.parametrize("deck", STARTERS, ids=lambda d: d.key)
def test_a_starter_deck_is_legal_and_dealt(deck):
    report = DECKLISTS.validate(deck.text, "constructed")
    assert report.is_legal, report.problems
    cards = DECKLISTS.to_engine_deck(deck.text)
    assert len(cards) == 30
    elements = {SYSTEM.db.card(c).element for c in cards} - {""}
    assert len(elements) <= 2
    state = SYSTEM.new_game({}, [cards, cards], 7)
    assert not SYSTEM.result(state).finished
