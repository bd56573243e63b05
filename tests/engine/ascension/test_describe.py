"""The describer of Ascension (engine/ascension/describe.py): cards with cost, honor,
faction and text; actions, pending choices and events as sentences from one view."""

from __future__ import annotations

import pytest

from engine.ascension.bots import make_bot
from engine.ascension.describe import DESCRIBER
from engine.ascension.game import SYSTEM
from engine.core.describe import Reading, describer_for
from tests.engine.ascension.helpers import cid, new


def test_the_describer_is_found_by_system_key():
    assert describer_for("ascension") is DESCRIBER


def test_card_details_show_cost_honor_faction_and_text():
    reading = Reading.of({}, "en")
    mystic = DESCRIBER.card(reading, cid("Mystic"))
    assert (mystic["name"], mystic["cost"], mystic["honor"]) == ("Mystic", 3, 1)
    assert mystic["cost_label"] == "3 runes" and mystic["text"] == ["Gain 2 runes."]
    assert mystic["faction"] == "Neutral"
    card = next(c for c in SYSTEM.db.cards.values() if c.faction == "void")
    info = DESCRIBER.card(Reading.of({}, "ru"), card.id)
    assert info["faction"] == "Пустота" and info["name"] == card.name_ru


def test_actions_name_the_card_and_its_price():
    state = new()
    state["players"][0]["runes"] = 3
    state["players"][0]["power"] = 2
    reading = Reading.of(SYSTEM.view(state, 0), "en", {0: "alice", 1: "bob"})
    texts = [DESCRIBER.action(reading, a)["text"] for a in SYSTEM.legal_actions(state, 0)]
    assert "Acquire (3 runes): «Mystic»" in texts
    assert "Defeat (2 power): «Cultist»" in texts
    assert "End turn" in texts
    assert any(t.startswith("Play: «") for t in texts)


@pytest.mark.parametrize(
    ("where", "en", "ru"),
    [
        ("hand_or_discard", "From: hand or discard pile.", "Откуда: рука или сброс."),
        ("discard", "From: discard pile.", "Откуда: сброс."),
        ("center", "From: center row.", "Откуда: центральный ряд."),
    ],
)
def test_a_pending_banish_names_where_from_in_words_not_a_key(where, en, ru):
    state = new()
    state["pending"] = {"player": 0, "kind": "banish", "from": where, "options": [],
                        "optional": False, "src": None, "rule": "A-33"}  # fmt: skip
    assert en in DESCRIBER.pending(Reading.of(SYSTEM.view(state, 0), "en"))["details"]
    assert ru in DESCRIBER.pending(Reading.of(SYSTEM.view(state, 0), "ru"))["details"]


def test_another_players_hand_is_never_named():
    state = new()
    bob_hand = state["players"][1]["hand"]
    reading = Reading.of(SYSTEM.view(state, 0), "en")
    for iid in bob_hand:
        assert DESCRIBER.card_name(reading, iid) == "a hidden card"


def test_a_pending_banish_is_described_with_its_options():
    state = new()
    hand = state["players"][0]["hand"]
    state["pending"] = {"player": 0, "kind": "banish", "from": "hand", "options": hand[:2],
                        "optional": True, "src": None, "rule": "A-33"}  # fmt: skip
    mine = DESCRIBER.pending(Reading.of(SYSTEM.view(state, 0), "en"))
    assert mine["text"] == "Choose a card to banish to the Void"
    assert "From: hand." in mine["details"] and "You may choose none." in mine["details"]
    assert mine["options"] == [f"«{SYSTEM.card(state, i).name_en}»" for i in hand[:2]]
    theirs = DESCRIBER.pending(Reading.of(SYSTEM.view(state, 1), "en"))
    assert theirs == {"text": "Seat 1: choosing a card to banish", "mine": False,
                      "options": [], "details": []}  # fmt: skip


def test_a_game_log_reads_as_sentences():
    state = new(seed=3)
    bots = [make_bot("heuristic", SYSTEM, k) for k in range(2)]
    events = []
    for _ in range(120):
        (seat,) = SYSTEM.to_act(state)
        state, new_events = SYSTEM.apply(state, seat, bots[seat].choose(state, seat))
        events += new_events
    reading = Reading.of(SYSTEM.view(state, 0), "en", events=events)
    for e in events:
        text = DESCRIBER.event(reading, e)
        assert text and "iid" not in text and "None" not in text, (e, text)


@pytest.mark.parametrize(
    ("name", "language", "label"),
    [
        ("Steam Courier", "en", "1 rune"),
        ("Mystic", "en", "3 runes"),
        ("Steam Courier", "ru", "1 руна"),
        ("Mystic", "ru", "3 руны"),
        ("Nightmaw Hunter", "ru", "5 рун"),
        ("Cultist", "en", "2 power"),
        ("Cultist", "ru", "сила 2"),
    ],
)
def test_a_price_is_a_count_of_runes_in_the_words_number(name, language, label):
    """The price on a card and its Acquire button agree with the number: "1 rune",
    «5 рун», not "1 runes", «5 руны» (A-25, A-29)."""
    card = DESCRIBER.card(Reading.of({}, language), cid(name))
    assert card["cost_label"] == label
