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


# -- engine/core/table.py: what every game's table plan shares ---------------------------------


def test_actions_that_differ_only_in_x_become_one_stepper():
    from engine.core.table import compact, steppers

    actions = [
        {"type": "pass"},
        {"type": "play", "iid": 4, "x": 2},
        {"type": "play", "iid": 4, "x": 0},
        {"type": "play", "iid": 4, "x": 1},
        {"type": "play", "iid": 5, "x": 0},
        {"type": "play", "iid": 6},
    ]
    plain, steps = steppers(list(enumerate(actions)), lambda a: f"Play {a['iid']}")
    assert [k for k, _ in plain] == [0, 5]
    four, five = steps
    assert four["label"] == "Play 4" and (four["min"], four["max"], four["start"]) == (0, 2, 0)
    assert [(o["x"], o["k"]) for o in four["options"]] == [(0, 2), (1, 3), (2, 1)]
    assert four["options"][2]["json"] == compact(actions[1]) == '{"type":"play","iid":4,"x":2}'
    assert four["id"] == "tb-x-2" and five["options"] == [
        {"x": 0, "json": compact(actions[4]), "k": 4}
    ]


def test_the_viewer_sits_at_the_bottom_and_the_next_seats_face_them():
    from engine.core.table import names_of, seating

    assert seating([0, 1, 2, 3], 2) == ([3, 0, 1], 2)
    assert seating([0, 1], None) == ([1], 0)  # a spectator sees seat 1 at the bottom
    assert seating([], 0) == ([], None)
    assert names_of({"1": "bob", 0: "alice", "x": "?"}) == {1: "bob", 0: "alice"}


def test_an_action_form_is_the_json_the_forms_have_always_posted():
    from engine.core.table import act

    form = act(3, {"type": "play", "iid": 7}, "Play — «Lantern»", "Play", "«Lantern»")
    assert form == {"k": 3, "id": "tb-f-3", "json": '{"type":"play","iid":7}', "type": "play",
                    "label": "Play — «Lantern»", "short": "Play", "name": "«Lantern»"}  # fmt: skip


def test_a_long_word_in_a_name_is_flagged_for_a_smaller_title():
    from engine.core.table import long_word

    assert long_word("Ram Bearer") is False and long_word("Кулачный бой") is True
    assert long_word("Clockwork-Sentry") is True and long_word("Sentry-Golem") is False
