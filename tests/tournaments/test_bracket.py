"""Tests for the pure bracket module (no database needed)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.bracket import (
    GRAND_FINAL,
    GRAND_FINAL_RESET,
    Bracket,
    BracketError,
    BracketMatch,
    BracketState,
    Source,
    double_elimination,
    final_code,
    resolve,
    round_robin,
    round_title,
    rounds_for_drawing,
    seed_order,
    single_elimination,
)

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------

Picker = Callable[[BracketState], tuple[str, object]]


def players(n: int) -> list[str]:
    """Player ids whose number is their seed: "p1" is seed 1."""
    return [f"p{seed}" for seed in range(1, n + 1)]


def seed_of(player: object) -> int:
    return int(str(player)[1:])


def favourite_wins(state: BracketState) -> tuple[str, object]:
    code = state.ready[0]
    return code, min(state.slots[code], key=seed_of)


def underdog_wins(state: BracketState) -> tuple[str, object]:
    code = state.ready[-1]
    return code, max(state.slots[code], key=seed_of)


def random_picker(seed: int) -> Picker:
    rng = random.Random(seed)

    def pick(state: BracketState) -> tuple[str, object]:
        code = rng.choice(state.ready)
        return code, rng.choice(state.slots[code])

    return pick


def play_through(
    bracket: Bracket, seeds: list[str], pick: Picker
) -> tuple[BracketState, list[tuple[str, object, object]]]:
    """Play until the end; returns the final state and the (code, winner, loser) played."""
    winners: dict[str, object] = {}
    played: list[tuple[str, object, object]] = []
    state = resolve(bracket, seeds, winners)
    while not state.finished:
        assert state.ready, f"nothing is ready but the event is not over: {state}"
        for code in state.ready:
            a, b = state.slots[code]
            assert a is not None and b is not None
            assert a not in state.placements and b not in state.placements, "eliminated plays"
        code, winner = pick(state)
        a, b = state.slots[code]
        winners[code] = winner
        played.append((code, winner, b if winner == a else a))
        state = resolve(bracket, seeds, winners)
        assert len(state.placements) <= len(seeds)
    assert state.ready == ()
    return state, played


def power_of_two_at_least(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def reset_played(bracket: Bracket, played: list[tuple[str, object, object]]) -> bool:
    return any(code == GRAND_FINAL_RESET for code, _, _ in played)


def expected_match_count(bracket: Bracket, played: list[tuple[str, object, object]]) -> int:
    """Matches actually played: every one gives exactly one loss.

    Single: everybody but the champion loses once, n - 1. Double: everybody but the champion
    loses twice and the champion loses at most once, so 2n - 2 when the winners-bracket champion
    takes the grand final (or there is no reset), and 2n - 1 when the reset is played.
    Walkovers give nobody a loss and are not counted.
    """
    n = bracket.size
    if bracket.kind == "single":
        return n - 1
    return 2 * n - 2 + (1 if reset_played(bracket, played) else 0)


def check_finished_event(
    bracket: Bracket, seeds: list[str], state: BracketState, played: list
) -> None:
    n = bracket.size
    size = power_of_two_at_least(n)
    codes = [code for code, _, _ in played]

    assert state.finished
    assert state.champion in seeds
    assert len(codes) == len(set(codes)), "a match was played twice"

    # Exactly one champion, and everybody has a placement.
    assert set(state.placements) == set(seeds)
    assert [p for p, place in state.placements.items() if place == 1] == [state.champion]
    assert sorted(state.placements.values())[1] == 2

    # The exact number of matches played.
    assert len(played) == expected_match_count(bracket, played)

    # Every match is played, a walkover, or the unneeded reset: nothing is left waiting.
    byes = size - n
    assert len(state.walkovers) == (byes if bracket.kind == "single" else 2 * byes)
    skipped_reset = bracket.grand_final_reset and not reset_played(bracket, played)
    assert set(codes).isdisjoint(state.walkovers)
    assert len(codes) + len(state.walkovers) + skipped_reset == len(bracket.matches)

    # Every entrant plays until eliminated once (single) or twice (double). The one exception:
    # without a reset, a winners-bracket champion who loses the grand final is out at once.
    losses = Counter(loser for _, _, loser in played)
    lives = 1 if bracket.kind == "single" else 2
    one_loss_runner_up = None
    if bracket.kind == "double" and not bracket.grand_final_reset:
        one_loss_runner_up = state.slots[GRAND_FINAL][0]
        if state.champion == one_loss_runner_up:
            one_loss_runner_up = None
    for player in seeds:
        if player == state.champion:
            assert losses[player] < lives
        elif player == one_loss_runner_up:
            assert losses[player] == 1
        else:
            assert losses[player] == lives, f"{player} lost {losses[player]} times"


# --------------------------------------------------------------------------------------------
# Seeding
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
)
def test_seed_order_places_seeds_in_standard_positions(n, expected):
    assert seed_order(n) == expected


def test_seed_order_of_one_is_just_the_top_seed():
    assert seed_order(1) == [1]


@pytest.mark.parametrize("n", [2, 4, 8, 16, 32, 64, 128, 256])
def test_seed_order_is_a_permutation_whose_pairs_add_up_to_n_plus_one(n):
    order = seed_order(n)
    assert sorted(order) == list(range(1, n + 1))
    assert all(a + b == n + 1 for a, b in zip(order[::2], order[1::2], strict=True))


@pytest.mark.parametrize("n", [0, 3, 6, 12, -4, 2.0, True])
def test_seed_order_rejects_sizes_that_are_not_powers_of_two(n):
    with pytest.raises(BracketError):
        seed_order(n)


def test_first_round_of_eight_is_1v8_4v5_2v7_3v6():
    bracket = single_elimination(8)
    first = [m for m in bracket.matches if m.round == 1]
    assert [(m.code, m.a, m.b) for m in first] == [
        ("R1-1", Source.seed(1), Source.seed(8)),
        ("R1-2", Source.seed(4), Source.seed(5)),
        ("R1-3", Source.seed(2), Source.seed(7)),
        ("R1-4", Source.seed(3), Source.seed(6)),
    ]
    assert [m.label for m in first] == [f"Quarterfinal {i}" for i in range(1, 5)]


@pytest.mark.parametrize("n", [5, 6, 7, 12])
@pytest.mark.parametrize("build", [single_elimination, double_elimination])
def test_top_seeds_get_the_byes(build, n):
    bracket = build(n)
    size = power_of_two_at_least(n)
    with_bye = set()
    for match in bracket.matches:
        kinds = {match.a.kind, match.b.kind}
        if "bye" in kinds:
            assert match.round == 1 and match.bracket == "winners"
            assert kinds == {"seed", "bye"}, "a bye always faces a real seed"
            seed = match.a if match.a.kind == "seed" else match.b
            with_bye.add(seed.ref)
    assert with_bye == set(range(1, size - n + 1))


def test_a_seed_with_a_bye_advances_without_playing():
    bracket = single_elimination(6)
    seeds = players(6)
    state = resolve(bracket, seeds, {})
    assert state.ready == ("R1-2", "R1-4")
    assert set(state.walkovers) == {"R1-1", "R1-3"}
    assert state.slots["R1-1"] == ("p1", None)
    assert state.slots["R2-1"] == ("p1", None)
    assert state.slots["R2-2"] == ("p2", None)


def reachable_seeds(bracket: Bracket) -> dict[str, set[int]]:
    """Match code -> seeds that could possibly play in it."""
    reach: dict[str, set[int]] = {}
    for match in bracket.matches:
        seeds: set[int] = set()
        for source in match.sources:
            if source.kind == "seed":
                seeds.add(source.ref)
            elif source.kind in ("winner", "loser"):
                seeds |= reach[source.ref]
        reach[match.code] = seeds
    return reach


@pytest.mark.parametrize("n", range(2, 65))
def test_seeds_1_and_2_can_only_meet_in_the_final(n):
    bracket = single_elimination(n)
    reach = reachable_seeds(bracket)
    both = [code for code, seeds in reach.items() if {1, 2} <= seeds]
    final = max(bracket.matches, key=lambda m: m.round)
    assert both == [final.code]


@pytest.mark.parametrize("n", range(4, 65))
def test_top_four_seeds_cannot_meet_before_the_semifinals(n):
    bracket = single_elimination(n)
    last_round = max(m.round for m in bracket.matches)
    reach = reachable_seeds(bracket)
    for match in bracket.matches:
        if match.round < last_round - 1:
            assert len(reach[match.code] & {1, 2, 3, 4}) <= 1, match.code


@pytest.mark.parametrize("n", range(2, 41))
def test_seeds_1_and_2_meet_in_the_winners_bracket_only_in_its_final(n):
    bracket = double_elimination(n)
    reach = reachable_seeds(bracket)
    both = [m.code for m in bracket.matches if m.bracket == "winners" and {1, 2} <= reach[m.code]]
    final = max((m for m in bracket.matches if m.bracket == "winners"), key=lambda m: m.round)
    assert both == [final.code]


# --------------------------------------------------------------------------------------------
# Single elimination
# --------------------------------------------------------------------------------------------


def test_single_elimination_of_eight_played_through_gives_champion_and_placements():
    bracket = single_elimination(8)
    seeds = players(8)
    state, played = play_through(bracket, seeds, favourite_wins)
    assert state.champion == "p1"
    assert state.placements == {
        "p1": 1,
        "p2": 2,
        "p3": 3,
        "p4": 3,
        "p5": 5,
        "p6": 5,
        "p7": 5,
        "p8": 5,
    }
    assert [code for code, _, _ in played] == [
        "R1-1",
        "R1-2",
        "R1-3",
        "R1-4",
        "R2-1",
        "R2-2",
        "R3-1",
    ]
    check_finished_event(bracket, seeds, state, played)


def test_single_elimination_labels_and_codes_for_eight():
    bracket = single_elimination(8)
    assert [(m.code, m.label) for m in bracket.matches[4:]] == [
        ("R2-1", "Semifinal 1"),
        ("R2-2", "Semifinal 2"),
        ("R3-1", "Final"),
    ]
    assert bracket.kind == "single"
    assert bracket.size == 8
    assert not bracket.grand_final_reset


def test_single_elimination_with_upsets_places_losers_by_round():
    bracket = single_elimination(8)
    seeds = players(8)
    winners = {
        "R1-1": "p8",
        "R1-2": "p5",
        "R1-3": "p2",
        "R1-4": "p3",
        "R2-1": "p5",
        "R2-2": "p3",
    }
    state = resolve(bracket, seeds, winners)
    assert not state.finished
    assert state.champion is None
    assert state.ready == ("R3-1",)
    assert state.slots["R3-1"] == ("p5", "p3")
    assert state.placements == {"p1": 5, "p4": 5, "p7": 5, "p6": 5, "p8": 3, "p2": 3}

    state = resolve(bracket, seeds, {**winners, "R3-1": "p3"})
    assert state.finished
    assert state.champion == "p3"
    assert state.placements["p3"] == 1
    assert state.placements["p5"] == 2


def test_single_elimination_placements_for_larger_brackets_double_each_round_back():
    bracket = single_elimination(32)
    seeds = players(32)
    state, played = play_through(bracket, seeds, favourite_wins)
    assert Counter(state.placements.values()) == {1: 1, 2: 1, 3: 2, 5: 4, 9: 8, 17: 16}
    check_finished_event(bracket, seeds, state, played)


def test_two_player_single_elimination_is_one_final():
    bracket = single_elimination(2)
    assert [(m.code, m.label) for m in bracket.matches] == [("R1-1", "Final")]
    state = resolve(bracket, ["x", "y"], {"R1-1": "y"})
    assert state.finished
    assert state.placements == {"y": 1, "x": 2}


@pytest.mark.parametrize("n", [0, 1, 257, 2.5, "8", None])
@pytest.mark.parametrize("build", [single_elimination, double_elimination])
def test_elimination_brackets_reject_bad_entrant_counts(build, n):
    with pytest.raises(BracketError):
        build(n)


# --------------------------------------------------------------------------------------------
# Double elimination
# --------------------------------------------------------------------------------------------


def test_double_elimination_of_eight_has_standard_layout_and_drop_order():
    bracket = double_elimination(8)
    layout = {m.code: (m.a.describe(), m.b.describe()) for m in bracket.matches}
    assert list(layout) == [
        "W1-1",
        "W1-2",
        "W1-3",
        "W1-4",
        "W2-1",
        "W2-2",
        "W3-1",
        "L1-1",
        "L1-2",
        "L2-1",
        "L2-2",
        "L3-1",
        "L4-1",
        "GF1",
        "GF2",
    ]
    assert layout["L1-1"] == ("Loser of W1-1", "Loser of W1-2")
    assert layout["L1-2"] == ("Loser of W1-3", "Loser of W1-4")
    # Winners round 2 drops in reversed, so nobody meets the player who just beat them.
    assert layout["L2-1"] == ("Winner of L1-1", "Loser of W2-2")
    assert layout["L2-2"] == ("Winner of L1-2", "Loser of W2-1")
    assert layout["L3-1"] == ("Winner of L2-1", "Winner of L2-2")
    assert layout["L4-1"] == ("Winner of L3-1", "Loser of W3-1")
    assert layout["GF1"] == ("Winner of W3-1", "Winner of L4-1")
    assert layout["GF2"] == ("Loser of GF1", "Winner of GF1")
    labels = {m.code: m.label for m in bracket.matches}
    assert labels["W1-1"] == "Winners quarterfinal 1"
    assert labels["W3-1"] == "Winners final"
    assert labels["L2-2"] == "Losers round 2 match 2"
    assert labels["L3-1"] == "Losers round 3"
    assert labels["L4-1"] == "Losers final"
    assert labels["GF1"] == "Grand final"
    assert labels["GF2"] == "Grand final reset"


def test_double_elimination_of_sixteen_reverses_halves_for_the_third_drop():
    bracket = double_elimination(16)
    drops = [bracket.match(f"L4-{i}").b for i in (1, 2)]
    assert drops == [Source.loser("W3-1"), Source.loser("W3-2")]
    drops = [bracket.match(f"L2-{i}").b.ref for i in range(1, 5)]
    assert drops == ["W2-4", "W2-3", "W2-2", "W2-1"]
    drops = [double_elimination(32).match(f"L4-{i}").b.ref for i in range(1, 5)]
    assert drops == ["W3-2", "W3-1", "W3-4", "W3-3"]


def four_player_results(gf1_winner: str) -> dict[str, str]:
    return {
        "W1-1": "p1",  # p1 v p4
        "W1-2": "p2",  # p2 v p3
        "W2-1": "p1",  # winners final
        "L1-1": "p3",  # p4 v p3
        "L2-1": "p2",  # losers final: p3 v p2
        GRAND_FINAL: gf1_winner,
    }


def test_double_elimination_of_four_ends_when_winners_champion_takes_grand_final():
    bracket = double_elimination(4)
    seeds = players(4)
    results = four_player_results("p1")
    del results[GRAND_FINAL]
    state = resolve(bracket, seeds, results)
    assert state.ready == (GRAND_FINAL,)
    assert state.slots[GRAND_FINAL] == ("p1", "p2")
    assert state.slots[GRAND_FINAL_RESET] == (None, None)
    assert state.placements == {"p4": 4, "p3": 3}

    state = resolve(bracket, seeds, four_player_results("p1"))
    assert state.finished
    assert state.champion == "p1"
    assert state.ready == ()
    assert state.placements == {"p1": 1, "p2": 2, "p3": 3, "p4": 4}
    with pytest.raises(BracketError, match="not played"):
        resolve(bracket, seeds, {**four_player_results("p1"), GRAND_FINAL_RESET: "p1"})


@pytest.mark.parametrize("reset_winner", ["p1", "p2"])
def test_double_elimination_of_four_plays_the_reset_when_losers_champion_wins(reset_winner):
    bracket = double_elimination(4)
    seeds = players(4)
    state = resolve(bracket, seeds, four_player_results("p2"))
    assert not state.finished
    assert state.ready == (GRAND_FINAL_RESET,)
    assert state.slots[GRAND_FINAL_RESET] == ("p1", "p2")
    assert "p1" not in state.placements

    state = resolve(bracket, seeds, {**four_player_results("p2"), GRAND_FINAL_RESET: reset_winner})
    runner_up = "p2" if reset_winner == "p1" else "p1"
    assert state.finished
    assert state.champion == reset_winner
    assert state.placements == {reset_winner: 1, runner_up: 2, "p3": 3, "p4": 4}


def test_double_elimination_without_reset_ends_when_losers_champion_wins_grand_final():
    bracket = double_elimination(4, grand_final_reset=False)
    assert [m.code for m in bracket.matches][-1] == GRAND_FINAL
    state = resolve(bracket, players(4), four_player_results("p2"))
    assert state.finished
    assert state.champion == "p2"
    assert state.placements == {"p2": 1, "p1": 2, "p3": 3, "p4": 4}


@pytest.mark.parametrize("reset_used", [False, True])
def test_double_elimination_of_eight_played_through(reset_used):
    bracket = double_elimination(8)
    seeds = players(8)
    winners: dict[str, str] = {}
    state = resolve(bracket, seeds, winners)
    # Favourites win everything up to the grand final.
    while state.ready != (GRAND_FINAL,):
        code, winner = favourite_wins(state)
        winners[code] = winner
        state = resolve(bracket, seeds, winners)
    assert state.slots[GRAND_FINAL] == ("p1", "p2")
    assert state.placements == {"p3": 3, "p4": 4, "p5": 5, "p6": 5, "p7": 7, "p8": 7}

    winners[GRAND_FINAL] = "p2" if reset_used else "p1"
    state = resolve(bracket, seeds, winners)
    assert state.finished is not reset_used
    if reset_used:
        assert state.ready == (GRAND_FINAL_RESET,)
        assert state.slots[GRAND_FINAL_RESET] == ("p1", "p2")
        winners[GRAND_FINAL_RESET] = "p2"
        state = resolve(bracket, seeds, winners)
    assert state.finished
    champion = "p2" if reset_used else "p1"
    assert state.champion == champion
    assert state.placements[champion] == 1
    assert state.placements["p1" if reset_used else "p2"] == 2
    assert len(winners) == (15 if reset_used else 14)


def test_double_elimination_of_two_is_a_grand_final_rematch():
    bracket = double_elimination(2)
    assert [m.code for m in bracket.matches] == ["W1-1", GRAND_FINAL, GRAND_FINAL_RESET]
    assert bracket.match(GRAND_FINAL).b == Source.loser("W1-1")
    state = resolve(bracket, ["x", "y"], {"W1-1": "x", GRAND_FINAL: "y"})
    assert state.ready == (GRAND_FINAL_RESET,)
    state = resolve(bracket, ["x", "y"], {"W1-1": "x", GRAND_FINAL: "y", GRAND_FINAL_RESET: "y"})
    assert state.champion == "y"
    assert state.placements == {"y": 1, "x": 2}


def test_double_elimination_placements_for_sixteen_follow_losers_rounds():
    bracket = double_elimination(16)
    seeds = players(16)
    state, played = play_through(bracket, seeds, favourite_wins)
    assert Counter(state.placements.values()) == {1: 1, 2: 1, 3: 1, 4: 1, 5: 2, 7: 2, 9: 4, 13: 4}
    check_finished_event(bracket, seeds, state, played)


def test_empty_losers_slots_auto_advance_in_double_elimination():
    bracket = double_elimination(5)
    seeds = players(5)
    # Only p4 v p5 is played in winners round 1; p2 and p3 got byes and meet at once.
    state = resolve(bracket, seeds, {})
    assert state.ready == ("W1-2", "W2-2")
    state = resolve(bracket, seeds, {"W1-2": "p4"})
    assert "L1-1" in state.walkovers and "L1-2" in state.walkovers
    assert state.slots["L2-1"] == ("p5", None)
    # Losers round 2 match 2 gets nobody from round 1: the winners-round-2 loser walks over.
    state = resolve(bracket, seeds, {"W1-2": "p4", "W2-1": "p1", "W2-2": "p2"})
    assert "L2-2" in state.walkovers
    assert state.slots["L3-1"] == (None, "p4")
    assert set(state.ready) == {"W3-1", "L2-1"}


# --------------------------------------------------------------------------------------------
# Whole events, every size
# --------------------------------------------------------------------------------------------

BUILDERS = {
    "single": single_elimination,
    "double": double_elimination,
    "double-no-reset": lambda n: double_elimination(n, grand_final_reset=False),
}


@pytest.mark.parametrize("n", range(2, 41))
@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_no_match_waits_forever_for_any_number_of_entrants(kind, n):
    bracket = BUILDERS[kind](n)
    seeds = players(n)
    for pick in (favourite_wins, underdog_wins, random_picker(n)):
        state, played = play_through(bracket, seeds, pick)
        check_finished_event(bracket, seeds, state, played)


@pytest.mark.parametrize("n", [3, 8, 13, 32])
def test_every_entrant_plays_until_eliminated_twice_in_double_elimination(n):
    bracket = double_elimination(n)
    seeds = players(n)
    for seed in range(5):
        state, played = play_through(bracket, seeds, random_picker(seed))
        losses = Counter(loser for _, _, loser in played)
        assert all(losses[p] == 2 for p in seeds if p != state.champion)
        assert losses[state.champion] <= 1


@pytest.mark.parametrize("n", [3, 8, 13, 32])
def test_every_entrant_plays_until_eliminated_once_in_single_elimination(n):
    bracket = single_elimination(n)
    seeds = players(n)
    state, played = play_through(bracket, seeds, random_picker(n))
    losses = Counter(loser for _, _, loser in played)
    assert all(losses[p] == 1 for p in seeds if p != state.champion)
    assert losses[state.champion] == 0
    assert {p for _, w, loser in played for p in (w, loser)} == set(seeds)


@settings(max_examples=300, deadline=None, database=None)
@given(data=st.data())
def test_any_sequence_of_results_finishes_with_one_champion(data):
    n = data.draw(st.integers(min_value=2, max_value=40), label="entrants")
    kind = data.draw(st.sampled_from(sorted(BUILDERS)), label="kind")
    bracket = BUILDERS[kind](n)
    seeds = players(n)

    def pick(state: BracketState) -> tuple[str, object]:
        code = data.draw(st.sampled_from(state.ready))
        return code, data.draw(st.sampled_from(state.slots[code]))

    state, played = play_through(bracket, seeds, pick)
    check_finished_event(bracket, seeds, state, played)
    # Placements are the standard ones for the round of elimination.
    if bracket.kind == "single":
        allowed = {1, 2} | {2**j + 1 for j in range(1, 6)}
    else:
        allowed = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49}
    assert set(state.placements.values()) <= allowed


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


def test_winner_who_is_not_in_the_match_is_rejected():
    bracket = single_elimination(4)
    with pytest.raises(BracketError, match="not one of its players"):
        resolve(bracket, players(4), {"R1-1": "p2"})


def test_result_for_a_match_whose_players_are_not_known_is_rejected():
    bracket = single_elimination(4)
    with pytest.raises(BracketError, match="not known yet"):
        resolve(bracket, players(4), {"R2-1": "p1"})
    with pytest.raises(BracketError, match="not known yet"):
        resolve(bracket, players(4), {"R1-1": "p1", "R2-1": "p1"})


def test_result_for_a_walkover_is_rejected():
    bracket = single_elimination(3)
    with pytest.raises(BracketError, match="walkover"):
        resolve(bracket, players(3), {"R1-1": "p1"})


def test_result_for_unknown_match_is_rejected():
    with pytest.raises(BracketError, match="unknown match"):
        resolve(single_elimination(4), players(4), {"QF9": "p1"})


def test_result_for_reset_before_grand_final_is_rejected():
    results = four_player_results("p2")
    del results[GRAND_FINAL]
    with pytest.raises(BracketError, match="not played"):
        resolve(double_elimination(4), players(4), {**results, GRAND_FINAL_RESET: "p2"})


@pytest.mark.parametrize(
    "seeds",
    [["a", "b", "c"], ["a", "b", "c", "d", "e"], ["a", "b", "b", "d"], ["a", None, "c", "d"]],
)
def test_bad_seedings_are_rejected(seeds):
    with pytest.raises(BracketError):
        resolve(single_elimination(4), seeds, {})


def test_unhashable_players_are_rejected():
    with pytest.raises(BracketError, match="hashable"):
        resolve(single_elimination(2), [["a"], ["b"]], {})


def test_bracket_error_is_a_value_error():
    assert issubclass(BracketError, ValueError)


# --------------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bracket",
    [
        single_elimination(2),
        single_elimination(7),
        single_elimination(64),
        double_elimination(2),
        double_elimination(11),
        double_elimination(16, grand_final_reset=False),
    ],
    ids=lambda b: f"{b.kind}-{b.size}-{b.grand_final_reset}",
)
def test_json_round_trip_gives_an_equal_bracket(bracket):
    data = json.loads(json.dumps(bracket.to_json()))
    restored = Bracket.from_json(data)
    assert restored == bracket
    seeds = players(bracket.size)
    state, _ = play_through(restored, seeds, random_picker(1))
    assert state.finished


def test_json_uses_only_plain_types():
    data = double_elimination(5).to_json()
    assert data["version"] == 1
    assert data["kind"] == "double"
    assert data["size"] == 5
    assert data["grand_final_reset"] is True
    assert data["matches"][0] == {
        "code": "W1-1",
        "bracket": "winners",
        "round": 1,
        "order": 1,
        "a": {"kind": "seed", "ref": 1},
        "b": {"kind": "bye", "ref": None},
        "label": "Winners quarterfinal 1",
    }


def corrupt(change: Callable[[dict], None]) -> dict:
    data = json.loads(json.dumps(double_elimination(4).to_json()))
    change(data)
    return data


@pytest.mark.parametrize(
    "data",
    [
        "not a dict",
        corrupt(lambda d: d.pop("matches")),
        corrupt(lambda d: d.update(version=99)),
        corrupt(lambda d: d.update(kind="swiss")),
        corrupt(lambda d: d.update(size=5)),
        corrupt(lambda d: d.update(grand_final_reset=False)),
        corrupt(lambda d: d["matches"][0]["a"].update(kind="coin")),
        corrupt(lambda d: d["matches"][0]["a"].update(ref=9)),
        corrupt(lambda d: d["matches"][1]["a"].update(ref=1)),
        corrupt(lambda d: d["matches"][0].update(code="W1-2")),
        corrupt(lambda d: d["matches"][0].update(round=0)),
        corrupt(lambda d: d["matches"][0].pop("b")),
        corrupt(lambda d: d["matches"].reverse()),
        corrupt(lambda d: d["matches"][3]["b"].update(kind="winner")),
    ],
)
def test_from_json_rejects_malformed_data(data):
    with pytest.raises(BracketError):
        Bracket.from_json(data)


def test_bracket_rejects_an_inconsistent_structure():
    match = BracketMatch("R1-1", "winners", 1, 1, Source.seed(1), Source.seed(1), "Final")
    with pytest.raises(BracketError, match="twice"):
        Bracket(kind="single", size=2, matches=(match,))


@pytest.mark.parametrize(
    ("kind", "ref"), [("seed", 0), ("seed", "1"), ("winner", None), ("bye", 3)]
)
def test_source_rejects_bad_references(kind, ref):
    with pytest.raises(BracketError):
        Source(kind, ref)


# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------


def test_rounds_for_drawing_groups_matches_in_columns():
    bracket = double_elimination(8)
    columns = rounds_for_drawing(bracket)
    assert [(section, rnd, [m.code for m in ms]) for section, rnd, ms in columns] == [
        ("winners", 1, ["W1-1", "W1-2", "W1-3", "W1-4"]),
        ("winners", 2, ["W2-1", "W2-2"]),
        ("winners", 3, ["W3-1"]),
        ("losers", 1, ["L1-1", "L1-2"]),
        ("losers", 2, ["L2-1", "L2-2"]),
        ("losers", 3, ["L3-1"]),
        ("losers", 4, ["L4-1"]),
        ("final", 1, ["GF1"]),
        ("final", 2, ["GF2"]),
    ]
    titles = [round_title(bracket, section, rnd) for section, rnd, _ in columns]
    assert titles == [
        "Winners quarterfinals",
        "Winners semifinals",
        "Winners final",
        "Losers round 1",
        "Losers round 2",
        "Losers round 3",
        "Losers final",
        "Grand final",
        "Grand final reset",
    ]


def test_round_titles_for_single_elimination():
    bracket = single_elimination(16)
    titles = [round_title(bracket, s, r) for s, r, _ in rounds_for_drawing(bracket)]
    assert titles == ["Round 1", "Quarterfinals", "Semifinals", "Final"]
    assert bracket.match("R1-3").label == "Round 1 match 3"
    with pytest.raises(BracketError):
        round_title(bracket, "losers", 1)


def test_source_describes_itself_for_empty_slots():
    assert Source.seed(3).describe() == "Seed 3"
    assert Source.winner("W1-2").describe() == "Winner of W1-2"
    assert Source.loser("W2-1").describe() == "Loser of W2-1"
    assert Source.bye().describe() == "Bye"


# --------------------------------------------------------------------------------------------
# Round robin
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 21))
def test_round_robin_pairs_everybody_exactly_once(n):
    ids = list(range(100, 100 + n))
    rounds = round_robin(ids)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    pairs = [frozenset(pair) for rnd in rounds for pair in rnd if None not in pair]
    assert len(pairs) == n * (n - 1) // 2
    assert set(pairs) == {frozenset((a, b)) for a in ids for b in ids if a < b}


@pytest.mark.parametrize("n", range(2, 21))
def test_round_robin_gives_each_player_at_most_one_match_per_round(n):
    for rnd in round_robin([f"id{i}" for i in range(n)]):
        seen = [p for pair in rnd for p in pair if p is not None]
        assert len(seen) == len(set(seen)) == n
        assert len(rnd) == (n + 1) // 2


@pytest.mark.parametrize("n", [3, 5, 7, 9, 15])
def test_round_robin_with_odd_players_has_one_bye_per_round(n):
    rounds = round_robin(list(range(n)))
    byes = []
    for rnd in rounds:
        with_bye = [pair for pair in rnd if None in pair]
        assert len(with_bye) == 1
        assert with_bye[0][1] is None and rnd[-1] is with_bye[0]
        byes.append(with_bye[0][0])
    assert sorted(byes) == list(range(n)), "everybody sits out exactly once"


def test_round_robin_with_even_players_has_no_byes():
    assert all(None not in pair for rnd in round_robin("abcdef") for pair in rnd)


def test_round_robin_balances_who_is_listed_first():
    firsts = Counter(pair[0] for rnd in round_robin(list(range(8))) for pair in rnd)
    assert max(firsts.values()) - min(firsts.values()) <= 2


@pytest.mark.parametrize("ids", [[], ["solo"], ["a", "a"], ["a", None], [["a"], ["b"]]])
def test_round_robin_rejects_bad_player_lists(ids):
    with pytest.raises(BracketError):
        round_robin(ids)


# --------------------------------------------------------------------------------------------
# Split finals (MTR 5.2, recorded 0-0-3 as MTR 2.4 says)
# --------------------------------------------------------------------------------------------


def test_the_final_of_a_single_elimination_bracket_is_the_one_match_that_may_be_split():
    assert final_code(single_elimination(8)) == "R3-1"
    assert final_code(single_elimination(2)) == "R1-1"
    assert final_code(double_elimination(4)) is None


def test_a_split_final_finishes_the_bracket_with_both_finalists_first():
    semis = {"R1-1": "p1", "R1-2": "p3"}

    state = resolve(single_elimination(4), players(4), semis, splits=["R2-1"])

    assert state.finished
    assert state.champion is None
    assert state.split == "R2-1"
    assert state.ready == ()
    assert state.placements == {"p1": 1, "p3": 1, "p4": 3, "p2": 3}


def test_without_a_split_the_final_is_still_waiting_for_its_winner():
    state = resolve(single_elimination(4), players(4), {"R1-1": "p1", "R1-2": "p3"})

    assert not state.finished
    assert state.split is None
    assert state.ready == ("R2-1",)


@pytest.mark.parametrize(
    ("bracket", "winners", "splits", "message"),
    [
        (single_elimination(4), {}, ["R1-1"], "only a single-elimination final"),
        (single_elimination(4), {}, ["R9-9"], "unknown match"),
        (single_elimination(4), {"R1-1": "p1"}, ["R2-1"], "not known yet"),
        (
            single_elimination(4),
            {"R1-1": "p1", "R1-2": "p2", "R2-1": "p1"},
            ["R2-1"],
            "both a winner and a split",
        ),
        (double_elimination(4), four_player_results("p1"), [GRAND_FINAL], "only a single"),
    ],
)
def test_a_split_anywhere_else_is_refused(bracket, winners, splits, message):
    seeds = players(bracket.size)
    with pytest.raises(BracketError, match=message):
        resolve(bracket, seeds, winners, splits=splits)
