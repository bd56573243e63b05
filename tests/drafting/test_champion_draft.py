"""The open-row champion draft of Ascension Tactics (tactics.md T-76..T-78, T-81, T-96,
D-13, checklist C-56) through the pick order shared with booster drafts. Pure, no
database."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drafting import draft as d
from drafting.draft import DraftError

CHAMPIONS = [f"ch{i:02d}" for i in range(24)]  # T-7/T-76: 24 blue-back champions


def run(state: dict, choose=lambda row: row[0]) -> tuple[dict, list[tuple[int, list[str]]]]:
    """Draft to the end; returns the final state and (picker, row shown) of every pick."""
    seen = []
    while not d.is_finished(state):
        on = [s for s in range(state["seats"]) if d.current_pack(state, s) is not None]
        assert len(on) == 1, "exactly one seat picks at a time"
        seat = on[0]
        row = list(d.current_pack(state, seat)["cards"])
        seen.append((seat, row))
        state = d.pick(state, seat, choose(row), expected_pick=d.pick_number(state, seat))
    return state, seen


def test_two_players_pick_p2_p1_alternately_seeing_six_until_four_each():
    # C-56 (T-77): P2 (the seat taking the last turn) first, then P1, P2, ...
    state, seen = run(d.new_open_row(CHAMPIONS, 2))
    assert [seat for seat, _row in seen] == [1, 0] * 4
    assert all(len(row) == 6 for _seat, row in seen)  # T-76/77: 6 shown before each pick
    assert [len(p) for p in d.pools(state)] == [4, 4]


def test_three_players_end_with_three_each_and_leftovers_boxed():
    # C-56 (T-77): 3 each with 3-4 players; a repeating cycle in reverse turn order (D-13).
    state, seen = run(d.new_open_row(CHAMPIONS, 3))
    assert [seat for seat, _row in seen] == [2, 1, 0] * 3
    assert [len(p) for p in d.pools(state)] == [3, 3, 3]
    assert state["row"] == [] and state["deck"] == []
    picked = [c for pool in d.pools(state) for c in pool]
    assert sorted(picked + state["box"]) == sorted(CHAMPIONS)  # leftovers back in the box
    assert len(state["box"]) == 24 - 9


def test_four_players_quota_is_three():
    state, seen = run(d.new_open_row(CHAMPIONS, 4))
    assert [seat for seat, _row in seen] == [3, 2, 1, 0] * 3
    assert [len(p) for p in d.pools(state)] == [3] * 4


def test_the_gap_is_refilled_at_once_from_the_deck():
    # T-77: "picks 1 and refills the gap": the next picker sees the deck's top card where
    # the picked one was, the other five unchanged.
    state = d.new_open_row(CHAMPIONS, 2)
    assert state["row"] == CHAMPIONS[:6]
    state = d.pick(state, 1, "ch02")
    assert d.current_pack(state, 0)["cards"] == ["ch00", "ch01", "ch06", "ch03", "ch04", "ch05"]
    assert state["deck"][0] == "ch07"


def test_a_seat_cannot_pick_out_of_turn_or_a_card_not_in_the_row():
    state = d.new_open_row(CHAMPIONS, 2)
    before = copy.deepcopy(state)
    with pytest.raises(DraftError) as exc:
        d.pick(state, 0, "ch00")  # P1 picks second (T-77)
    assert exc.value.code == "waiting"
    with pytest.raises(DraftError) as exc:
        d.pick(state, 1, "ch10")  # still in the deck, face down
    assert exc.value.code == "card"
    with pytest.raises(DraftError) as exc:
        d.pick(state, 1, "ch00", expected_pick=2)
    assert exc.value.code == "stale"
    assert state == before
    assert d.waiting_on(state) == {0: 1}


def test_a_repeated_pick_is_refused_and_a_finished_draft_takes_no_pick():
    state = d.pick(d.new_open_row(CHAMPIONS, 2), 1, "ch00", expected_pick=1)
    with pytest.raises(DraftError) as exc:
        d.pick(state, 1, "ch01", expected_pick=1)
    assert exc.value.code == "already_picked"
    final, _seen = run(state)
    with pytest.raises(DraftError) as exc:
        d.pick(final, 0, "ch23")
    assert exc.value.code == "finished"
    assert d.waiting_on(final) == {}


def test_two_versus_two_team_two_picks_first_until_six_each():
    # T-78 / D-13: one seat per team (seat 0 team 1, seat 1 team 2), T2, T1, ... to 6 each.
    state, seen = run(d.new_open_row(CHAMPIONS, 2, quota=d.champion_quota(4, "teams")))
    assert [seat for seat, _row in seen] == [1, 0] * 6
    assert [len(p) for p in d.pools(state)] == [6, 6]


def test_solo_drafts_four_in_a_row_and_coop_three_each():
    # T-81: solo drafts 4 by picking them all in a row; T-96: co-op 3 each, seat 2 first (D-13).
    _state, seen = run(d.new_open_row(CHAMPIONS, 1))
    assert [seat for seat, _row in seen] == [0] * 4
    _state, seen = run(d.new_open_row(CHAMPIONS, 2, quota=d.champion_quota(2, "coop")))
    assert [seat for seat, _row in seen] == [1, 0, 1, 0, 1, 0]


def test_quota_follows_the_player_count():
    assert [d.champion_quota(n) for n in (2, 3, 4)] == [4, 3, 3]
    with pytest.raises(DraftError):
        d.champion_quota(5)
    with pytest.raises(DraftError):
        d.new_open_row(CHAMPIONS[:7], 2)  # 7 champions cannot give 2 seats 4 each


def test_seeded_shuffle_is_reproducible_and_state_is_json():
    a = d.new_open_row(CHAMPIONS, 3, seed=42)
    b = d.new_open_row(CHAMPIONS, 3, seed=42)
    assert a == b and a["row"] != CHAMPIONS[:6]
    assert json.loads(json.dumps(a)) == a


def test_the_row_shrinks_only_when_the_deck_runs_out():
    state = d.new_open_row(CHAMPIONS[:8], 2)  # 6 in the row, 2 in the deck, 8 picks
    state, seen = run(state)
    assert [len(row) for _seat, row in seen] == [6, 6, 6, 5, 4, 3, 2, 1]


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
    choice=st.integers(min_value=0, max_value=5),
)
def test_any_draft_keeps_every_champion_exactly_once(seats, seed, choice):
    state = d.new_open_row(CHAMPIONS, seats, seed=seed)
    quota = state["quota"]
    original = copy.deepcopy(state)
    final, seen = run(state, lambda row: row[min(choice, len(row) - 1)])
    assert state == original  # pick never changes its input
    assert len(seen) == seats * quota
    everything = [c for pool in d.pools(final) for c in pool] + final["box"]
    assert sorted(everything) == sorted(CHAMPIONS)
    assert [p["seat"] for p in final["picks"]] == [s for s, _row in seen]
