"""The game-neutral part of the describers (engine/core/describe.py): a new game gets
hidden-card safety, action titles, the "someone else decides" line and the game-over
sentence from ``CardDescriber`` by naming its cards and its kinds of action."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.describe import CardDescriber, Reading, text_lines


@dataclass(frozen=True)
class ToyCard:
    name_en: str
    name_ru: str


class ToyDescriber(CardDescriber[ToyCard]):
    ACTION_KINDS = {"draw_two": ("Draw two", "Взять две")}
    loads = 0

    def _load_db(self) -> dict[str, ToyCard]:
        ToyDescriber.loads += 1
        return {"T-1": ToyCard("Lantern", "Фонарь")}

    def _lookup(self, card_id: str) -> ToyCard:
        return self.db[card_id]


VIEW = {"you": 0, "hand": [{"iid": 4, "card": "T-1"}], "pending": {"kind": "x", "player": 1}}


def test_only_instances_the_reading_knows_are_named():
    toy = ToyDescriber()
    en, ru = Reading.of(VIEW, "en"), Reading.of(VIEW, "ru-RU")
    assert toy.card_name(en, 4) == "«Lantern»" and toy.card_name(ru, 4) == "«Фонарь»"
    assert toy.card_name(en, 5) == "a hidden card" and toy.card_name(ru, "4") == "скрытая карта"
    assert toy.printed_name(en, "T-9") == "T-9" and toy.printed_name(en, ["T-1"]) == "['T-1']"
    assert toy.unknown_card("T-9") == {"id": "T-9", "name": "T-9", "text": []}


def test_the_database_is_loaded_once_on_first_use():
    toy, before = ToyDescriber(), ToyDescriber.loads
    assert ToyDescriber.loads == before
    toy.printed_name(Reading.of({}), "T-1")
    toy.printed_name(Reading.of({}), "T-1")
    assert ToyDescriber.loads == before + 1
    given = ToyDescriber({"T-1": ToyCard("Given", "Данная")})
    assert given.printed_name(Reading.of({}), "T-1") == "Given"
    assert ToyDescriber.loads == before + 1


def test_action_titles_fall_back_to_the_kind_itself():
    toy, reading = ToyDescriber(), Reading.of({}, "ru")
    assert toy.action_kind(reading, "draw_two") == "Взять две"
    assert toy.action_kind(reading, "end_turn") == "End turn"


def test_the_others_are_told_who_decides_and_the_decider_is_not():
    toy = ToyDescriber()
    mine, theirs = Reading.of(VIEW, "en", {1: "bob"}), Reading.of({**VIEW, "you": 1}, "en")
    assert not toy.is_chooser(mine, VIEW["pending"]) and toy.is_chooser(theirs, VIEW["pending"])
    assert not toy.is_chooser(Reading.of({}), {"player": None})
    assert toy.waiting_on(mine, VIEW["pending"], "thinking") == {
        "text": "Seat 2 (bob): thinking",
        "mine": False,
        "options": [],
        "details": [],
    }


def test_game_over_names_the_winners_from_seat_one():
    toy = ToyDescriber()
    reading = Reading.of({"you": 0}, "en", {0: "alice"})
    assert toy.winners(reading, {"winners": [0, 1]}) == (
        "Game over — winner: Seat 1 (alice, you), Seat 2"
    )
    assert toy.winners(Reading.of({}, "ru"), {}) == "Конец игры — победитель: —"


def test_pick_and_text_lines():
    assert Reading.of({}, "ru").pick(("Yes", "Да")) == "Да"
    assert Reading.of({}, "en").pick(None, "fallback") == "fallback"
    assert text_lines("  Zeal\n\n Gain 2.  \n") == ["Zeal", "Gain 2."]
