"""The describer of «Восхождение» (engine/voskhozhdenie/describe.py): sentences for legal
actions, pending decisions and events, built from one viewer's view only (rule 1.4.2:
Main Decks are hidden from everyone, a Hand from everyone but its owner)."""

from __future__ import annotations

import random

import pytest

from engine.core.describe import Reading, describer_for
from engine.voskhozhdenie.bots import make_bot
from engine.voskhozhdenie.describe import DESCRIBER
from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.sample import sample_deck

NAMES = {0: "alice", 1: "bob"}


def dealt(seed: int = 3) -> dict:
    decks = [sample_deck(SYSTEM.db, seed * 10 + k, cities=2, main=20) for k in range(2)]
    return SYSTEM.new_game({}, decks, seed)


def play(state: dict, moves: int, seed: int = 0) -> tuple[dict, list[dict]]:
    bots = [make_bot("heuristic", SYSTEM, seed + k) for k in range(2)]
    events: list[dict] = []
    for _ in range(moves):
        if not SYSTEM.to_act(state):
            break
        (seat,) = SYSTEM.to_act(state)
        state, new = SYSTEM.apply(state, seat, bots[seat].choose(state, seat))
        events += new
    return state, events


def name(state: dict, iid: int, language: str = "en") -> str:
    return SYSTEM.db.card(state["cards"][iid]["card"]).name(language)


def hidden_only_names(state: dict, viewer: int, events: list[dict], language: str) -> set[str]:
    """Names of cards the viewer cannot see that no visible or announced card shares."""
    view = SYSTEM.view(state, viewer)
    reading = Reading.of(view, language, NAMES, events)
    hidden = set()
    for p in state["players"]:
        hidden.update(p["main"])
        if p["seat"] != viewer:
            hidden.update(p["hand"])
    seen_ids = set(reading.known.values())
    return {
        name(state, i, language)
        for i in hidden
        if state["cards"][i]["card"] not in seen_ids and i not in reading.known
    }


def test_the_registry_convention_finds_the_describer():
    assert describer_for("voskhozhdenie") is DESCRIBER
    assert describer_for("no_such_game") is None


def test_actions_name_cards_and_count_seats_from_one():
    state, _ = play(dealt(), 0)
    (seat,) = SYSTEM.to_act(state)
    reading = Reading.of(SYSTEM.view(state, seat), "en", NAMES)
    texts = [DESCRIBER.action(reading, a)["text"] for a in SYSTEM.legal_actions(state, seat)]
    assert f"Seat {seat + 1} ({NAMES[seat]}, you) goes first" in texts
    assert all("seat 0" not in t.lower() for t in texts)
    pending = DESCRIBER.pending(reading)
    assert pending["mine"] and "choose who goes first" in pending["text"]
    assert pending["options"] == ["Seat 1 (alice" + (", you)" if seat == 0 else ")"),
                                  "Seat 2 (bob" + (", you)" if seat == 1 else ")")]  # fmt: skip


def test_actions_in_the_actions_step_are_sentences_grouped_by_card():
    state, _ = play(dealt(), 40)
    while SYSTEM.to_act(state) and state["step"] != "action":
        state, _ = play(state, 1)
    (seat,) = SYSTEM.to_act(state)
    reading = Reading.of(SYSTEM.view(state, seat), "en", NAMES)
    described = [DESCRIBER.action(reading, a) for a in SYSTEM.legal_actions(state, seat)]
    for action, d in zip(SYSTEM.legal_actions(state, seat), described, strict=True):
        assert "iid" not in d["text"] and "None" not in d["text"], d
        if "iid" in action:
            assert d["group"] == f"card:{action['iid']}"
            assert f"«{name(state, action['iid'])}»" in d["text"]
        if action["type"] == "assign":
            side = "Attack in" if action["side"] == "attack" else "Defend against"
            assert d["short"].startswith(side)


def test_an_instance_the_view_does_not_show_is_a_hidden_card():
    state = dealt()
    opponent_card = state["players"][1]["main"][0]
    reading = Reading.of(SYSTEM.view(state, 0), "en", NAMES)
    assert DESCRIBER.card_name(reading, opponent_card) == "a hidden card"
    fake_pending = {"kind": "choose", "player": 0, "options": [opponent_card], "count": 1}
    assert DESCRIBER.option_label(reading, fake_pending, opponent_card) == "a hidden card"
    ru = Reading.of(SYSTEM.view(state, 0), "ru", NAMES)
    assert DESCRIBER.card_name(ru, opponent_card) == "скрытая карта"


@pytest.mark.parametrize("seed", [1, 2, 5])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_label_names_a_card_hidden_from_its_viewer(seed, language):
    """Across a bot game, every label either player is shown (legal actions, the pending
    decision, the log so far) avoids the names of cards only hidden zones hold."""
    state = dealt(seed)
    bots = [make_bot("heuristic", SYSTEM, seed + k) for k in range(2)]
    events: list[dict] = []
    rnd = random.Random(seed)
    checked = guarded = 0
    for _ in range(250):
        if not SYSTEM.to_act(state):
            break
        (seat,) = SYSTEM.to_act(state)
        for viewer in (0, 1, None):
            reading = Reading.of(SYSTEM.view(state, viewer), language, NAMES, events)
            texts = [DESCRIBER.event(reading, e) or "" for e in events[-30:]]
            pending = DESCRIBER.pending(reading)
            if pending:
                texts += [pending["text"], *pending["options"], *pending["details"]]
            if viewer == seat:
                texts += [
                    DESCRIBER.action(reading, a)["text"] for a in SYSTEM.legal_actions(state, seat)
                ]
            blob = "\n".join(texts)
            forbidden = (
                hidden_only_names(state, viewer, events, language)
                if viewer is not None
                else {
                    name(state, i, language)
                    for p in state["players"]
                    for i in p["main"] + p["hand"]
                    if i not in reading.known
                    and state["cards"][i]["card"] not in set(reading.known.values())
                }
            )
            for word in forbidden:
                assert f"«{word}»" not in blob, (viewer, word, blob)
            checked += 1
            guarded += bool(forbidden)
        actions = SYSTEM.legal_actions(state, seat)
        action = bots[seat].choose(state, seat) if rnd.random() < 0.7 else rnd.choice(actions)
        state, new = SYSTEM.apply(state, seat, action)
        events += new
    assert checked > 100 and guarded > checked // 2  # there was something to hide


def test_every_event_of_a_game_reads_as_a_sentence():
    state, events = play(dealt(4), 400, seed=4)
    reading = Reading.of(SYSTEM.view(state, 0), "en", NAMES, events)
    kinds = set()
    for e in events:
        text = DESCRIBER.event(reading, e)
        if text is None:
            assert e["type"] == "step"
            continue
        kinds.add(e["type"])
        assert "iid" not in text and "None" not in text, (e, text)
        assert text[0].isupper() or text[0] == "«", text
    assert {"played", "draw", "pass", "round"} <= kinds


def test_wounds_name_the_card():
    state = dealt()
    city = next(i for i, c in enumerate(state["cards"]) if c["zone"] == "battlefield")
    reading = Reading.of(SYSTEM.view(state, 1), "en", NAMES)
    text = DESCRIBER.event(reading, {"type": "wounded", "iid": city, "amount": 2})
    assert text == f"«{name(state, city)}» is wounded by 2"
    assert DESCRIBER.event(reading, {"type": "city_ruined", "iid": city}) == (
        f"«{name(state, city)}» is ruined"
    )
    ru = Reading.of(SYSTEM.view(state, 1), "ru", NAMES)
    assert name(state, city, "ru") in DESCRIBER.event(ru, {"type": "destroyed", "iid": city})


def test_card_details_have_cost_strength_type_and_text():
    card = next(c for c in SYSTEM.db.all_cards() if c.type == "squad" and c.abilities)
    reading = Reading.of({}, "en")
    info = DESCRIBER.card(reading, card.id)
    assert info["name"] == card.name_en
    assert info["strength"] == card.strength
    assert info["kind"].startswith("Squad — ")
    assert info["text"] and info["text"][-1] in card.text_en
    ru = DESCRIBER.card(Reading.of({}, "ru"), card.id)
    assert ru["name"] == card.name_ru and ru["kind"].startswith("Отряд — ")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_keyword_is_said_once_in_the_keyword_line_not_again_in_the_text(language):
    # Printed cards begin with their keywords ("Reinforcement."); the card shows them apart.
    cards = [c for c in SYSTEM.db.all_cards() if c.keywords]
    assert cards
    for card in cards:
        info = DESCRIBER.card(Reading.of({}, language), card.id)
        printed = (card.text_ru if language == "ru" else card.text_en).splitlines()
        named = {part.strip() for part in printed[0].split(".") if part.strip()}
        assert named and named <= set(info["keywords"]), card.id
        assert info["text"] == [line.strip() for line in printed[1:] if line.strip()], card.id


def test_activated_abilities_are_described_by_their_text_line():
    card = next(
        c for c in SYSTEM.db.all_cards() if any(a["kind"] == "activated" for a in c.abilities)
    )
    index = next(k for k, a in enumerate(card.abilities) if a["kind"] == "activated")
    reading = Reading(view={"you": 0}, known={7: card.id})
    text = DESCRIBER.action(reading, {"type": "activate", "iid": 7, "ability": index})["text"]
    line = card.text_en.splitlines()[(1 if card.keywords else 0) + index].strip()
    assert text == f"Activate: {line} — «{card.name_en}»"
