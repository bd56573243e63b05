"""The shared places of a bracket-only event, from the bracket finishes (pure)."""

from __future__ import annotations

import pytest

from tournaments import bracket
from tournaments.bracket_places import bracket_places, place_text


def labels(finishes, alive=(), entrants=None):
    n = entrants if entrants is not None else len(finishes) + len(alive)
    return {p: place_text(*span) for p, span in bracket_places(finishes, alive, n).items()}


def test_a_finished_single_elimination_of_eight_shares_3_4_and_5_8():
    finishes = {"a": 1, "b": 2, "c": 3, "d": 3, "e": 5, "f": 5, "g": 5, "h": 5}
    assert labels(finishes) == {
        "a": "1", "b": "2", "c": "3–4", "d": "3–4",
        "e": "5–8", "f": "5–8", "g": "5–8", "h": "5–8",
    }  # fmt: skip


def test_a_finished_double_elimination_of_eight_has_3_4_then_pairs():
    finishes = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 5, "g": 7, "h": 7}
    assert labels(finishes) == {
        "a": "1", "b": "2", "c": "3", "d": "4", "e": "5–6", "f": "5–6", "g": "7–8", "h": "7–8",
    }  # fmt: skip


def test_a_split_final_shares_first_and_second_place():
    assert labels({"a": 1, "b": 1, "c": 3, "d": 3}) == {
        "a": "1–2",
        "b": "1–2",
        "c": "3–4",
        "d": "3–4",
    }


def test_byes_end_the_lowest_places_at_the_last_entrant():
    # Six players in a bracket of eight: only two lose a quarterfinal.
    assert labels({"a": 1, "b": 2, "c": 3, "d": 3, "e": 5, "f": 5})["e"] == "5–6"
    assert labels({"a": 1, "b": 2, "c": 3, "d": 3, "e": 5})["e"] == "5"


def test_during_the_bracket_the_places_still_open_are_shown_as_ranges():
    # Two quarterfinals of four played: their losers already share 5-8, the six still in
    # play for 1-6 (not yet 1-4).
    got = labels({"e": 5, "f": 5}, alive=["a", "b", "c", "d", "g", "h"])
    assert got["e"] == got["f"] == "5–8"
    assert got["a"] == "1–6"


def play_out(b, seeds):
    """Resolve the bracket with the first-listed player winning every match."""
    winners = {}
    state = bracket.resolve(b, seeds, winners)
    while not state.finished:
        for code in state.ready:
            winners[code] = state.slots[code][0]
        state = bracket.resolve(b, seeds, winners)
    return state


@pytest.mark.parametrize(
    ("kind", "n", "expected"),
    [
        ("single", 8, ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]),
        ("single", 6, ["1", "2", "3–4", "3–4", "5–6", "5–6"]),
        ("double", 8, ["1", "2", "3", "4", "5–6", "5–6", "7–8", "7–8"]),
    ],
)
def test_it_agrees_with_a_played_out_bracket(kind, n, expected):
    b = bracket.single_elimination(n) if kind == "single" else bracket.double_elimination(n)
    seeds = [f"p{i}" for i in range(n)]
    state = play_out(b, seeds)
    got = bracket_places(state.placements, [], n)
    assert sorted((place_text(*s) for s in got.values()), key=lambda t: int(t.split("–")[0])) == (
        expected
    )


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        bracket_places({"a": 1}, ["a"], 2)
    with pytest.raises(ValueError):
        bracket_places({"a": 0}, [], 1)
    with pytest.raises(ValueError):
        bracket_places({"a": True}, [], 1)


def test_a_finished_bracket_with_byes_never_places_anyone_past_the_last_entrant():
    # Double elimination of 12 in 16 slots: the full bracket's finishes run to 13.
    finishes = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 5, "g": 7, "h": 7}
    finishes |= {"i": 9, "j": 9, "k": 13, "l": 13}
    got = labels(finishes, entrants=12)
    assert got["i"] == got["j"] == "9–10"
    assert got["k"] == got["l"] == "11–12"
