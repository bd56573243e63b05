"""The Draft passing state machine (rules 3.2.5, AMB-06, AMB-07; checklist CK-037..CK-043).

Plain pytest, no Django: ``.venv/bin/python -m pytest -p no:django tests/drafting``.
"""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drafting import draft as d
from drafting.draft import DraftError


def make_packs(seats: int, rounds: int = 4, size: int = 15) -> list[list[list[str]]]:
    """``packs[seat][round]`` with card ids that say where they come from."""
    return [
        [[f"s{seat}r{r}c{i}" for i in range(size)] for r in range(rounds)] for seat in range(seats)
    ]


def first_card(state: dict, seat: int) -> str:
    return d.current_pack(state, seat)["cards"][0]


def lockstep(state: dict) -> dict:
    """Everyone picks the first card of the pack they hold, seat by seat, until the end."""
    while not d.is_finished(state):
        for seat in range(state["seats"]):
            if d.current_pack(state, seat) is not None:
                state = d.pick(state, seat, first_card(state, seat))
    return state


def origin_of(pack_id: str) -> tuple[int, int]:
    booster_round, seat = pack_id[1:].split("s")
    return int(booster_round), int(seat)


# ---------------------------------------------------------------- directions


def test_direction_alternates_left_right():
    """AMB-06: booster 1 left (+1), booster 2 right, booster 3 left, booster 4 right."""
    assert [d.direction(r) for r in range(6)] == [1, -1, 1, -1, 1, -1]
    assert d.neighbour(7, 8, 0) == 0
    assert d.neighbour(0, 8, 1) == 7
    assert d.upstream(0, 8, 0) == 7
    assert d.upstream(7, 8, 1) == 0


@pytest.mark.parametrize("booster_round", [0, 1, 2, 3])
@pytest.mark.rule("3.2.5.1.3", "3.2.5.2", "AMB-06", "CK-039", "CK-040")
def test_each_booster_passes_in_its_direction(booster_round):
    """CK-039, CK-040: round 1 passes left, rounds 2, 3 and 4 right, left and right."""
    seats = 5
    state = d.new_draft(make_packs(seats, rounds=4, size=6))
    # Play the earlier rounds out.
    while state["round"] < booster_round:
        seat = next(s for s in range(seats) if d.current_pack(state, s))
        state = d.pick(state, seat, first_card(state, seat))
    assert state["round"] == booster_round
    step = 1 if booster_round % 2 == 0 else -1
    for seat in range(seats):
        own = d.pack_id(booster_round, seat)
        assert state["queues"][seat][0] == own
        state = d.pick(state, seat, first_card(state, seat))
        assert own in state["queues"][(seat + step) % seats]


def test_two_seats_pass_to_each_other_and_one_seat_to_itself():
    state = d.new_draft(make_packs(2, rounds=2, size=3))
    state = d.pick(state, 0, "s0r0c0")
    assert state["queues"][1] == ["r0s1", "r0s0"]
    solo = d.new_draft(make_packs(1, rounds=2, size=3))
    solo = d.pick(solo, 0, "s0r0c0")
    assert solo["queues"][0] == ["r0s0"]
    solo = lockstep(solo)
    assert sorted(d.pools(solo)[0]) == sorted(c for b in make_packs(1, 2, 3)[0] for c in b)


# ---------------------------------------------------------------- rounds and packs


def test_start_state():
    state = d.new_draft(make_packs(3, rounds=4, size=5))
    assert state["seats"] == 3
    assert state["rounds"] == 4
    assert state["round"] == 0
    assert state["queues"] == [["r0s0"], ["r0s1"], ["r0s2"]]
    assert state["pools"] == [[], [], []]
    assert state["picks"] == []
    assert state["finished"] is False
    assert state["packs"]["r2s1"] == {
        "id": "r2s1",
        "round": 2,
        "origin_seat": 1,
        "cards": [f"s1r2c{i}" for i in range(5)],
        "picks_made": 0,
    }
    assert json.loads(json.dumps(state)) == state  # plain JSON data


@pytest.mark.rule("3.2.5", "3.2.5.1", "CK-037")
def test_four_rounds_and_one_booster_per_player_per_round():
    """CK-037: 4 booster rounds; each player opens exactly one booster in each."""
    seats = 6
    state = d.new_draft(make_packs(seats, rounds=4, size=8))
    opened: list[list[str]] = [[q[0] for q in state["queues"]]]
    rounds_seen = [state["round"]]
    while not d.is_finished(state):
        for seat in range(seats):
            if d.current_pack(state, seat):
                before = state["round"]
                state = d.pick(state, seat, first_card(state, seat))
                if state["round"] != before and not d.is_finished(state):
                    rounds_seen.append(state["round"])
                    opened.append([q[0] for q in state["queues"]])
    assert rounds_seen == [0, 1, 2, 3]
    for booster_round, heads in enumerate(opened):
        assert heads == [d.pack_id(booster_round, seat) for seat in range(seats)]
    picked_from = Counter((p["round"], p["pack"]) for p in state["picks"])
    assert len(picked_from) == 4 * seats
    assert all(n == 8 for n in picked_from.values())


@pytest.mark.rule("3.2.5.1.2", "CK-038")
def test_one_card_per_pick_and_the_rest_passed():
    """CK-038: from a pack of k cards 1 goes to the pool and k-1 are passed."""
    state = d.new_draft(make_packs(4, rounds=1, size=7))
    before = copy.deepcopy(state)
    after = d.pick(state, 2, "s2r0c4")
    assert after["pools"][2] == ["s2r0c4"]
    passed = after["packs"]["r0s2"]
    assert len(passed["cards"]) == 6
    assert "s2r0c4" not in passed["cards"]
    assert passed["picks_made"] == 1
    assert after["queues"][3] == ["r0s3", "r0s2"]
    assert after["queues"][2] == []
    assert after["picks"] == [
        {"seat": 2, "round": 0, "pick": 1, "number": 1, "pack": "r0s2", "card": "s2r0c4"}
    ]
    assert state == before


@pytest.mark.rule("3.2.5.1.4", "CK-041")
def test_next_booster_opens_only_when_every_pack_is_empty():
    """CK-041: picking goes on while packs hold cards; round 2 opens when all are empty."""
    seats, size = 4, 5
    state = d.new_draft(make_packs(seats, rounds=2, size=size))
    total = seats * size
    for n in range(total):
        assert state["round"] == 0
        assert not any(p.startswith("r1") for q in state["queues"] for p in q)
        seat = next(s for s in range(seats) if d.current_pack(state, s))
        state = d.pick(state, seat, first_card(state, seat))
        if n < total - 1:
            assert state["round"] == 0
    assert state["round"] == 1
    assert state["queues"] == [[d.pack_id(1, s)] for s in range(seats)]
    assert all(not state["packs"][d.pack_id(0, s)]["cards"] for s in range(seats))


def test_a_fast_seat_waits_at_the_end_of_a_round():
    """A seat with an empty queue cannot open its next booster before the others finish."""
    state = d.new_draft(make_packs(2, rounds=2, size=2))
    state = d.pick(state, 0, "s0r0c0")  # r0s0 (1 card) -> seat 1
    state = d.pick(state, 1, "s1r0c0")  # r0s1 (1 card) -> seat 0
    state = d.pick(state, 0, "s1r0c1")  # r0s1 empty
    assert state["round"] == 0
    assert d.current_pack(state, 0) is None
    with pytest.raises(DraftError) as err:
        d.pick(state, 0, "s0r1c0")
    assert err.value.code == "waiting"
    # Seat 1 passes no pack on after its last pick: seat 0 waits for the round to end
    # (3.2.5.1.4), not for a pack from seat 1.
    assert d.waiting_on(state) == {}
    state = d.pick(state, 1, "s0r0c1")
    assert state["round"] == 1
    assert d.current_pack(state, 0)["id"] == "r1s0"


@pytest.mark.parametrize("seats,size", [(8, 15), (8, 10), (3, 2), (5, 9)])
@pytest.mark.rule("3.2.5.1", "CK-042")
def test_every_card_ends_in_exactly_one_pool(seats, size):
    """CK-042: pools together hold every card of every booster; each holds 4N cards."""
    packs = make_packs(seats, rounds=4, size=size)
    state = lockstep(d.new_draft(packs))
    everything = sorted(c for seat in packs for booster in seat for c in booster)
    assert sorted(c for pool in d.pools(state) for c in pool) == everything
    assert all(len(pool) == 4 * size for pool in d.pools(state))
    assert d.is_finished(state)
    assert d.waiting_on(state) == {}


def test_boosters_of_different_sizes_are_passed_until_empty():
    """AMB-07: if booster sizes differ, pass until every pack is empty."""
    packs = [[["a1", "a2", "a3"]], [["b1"]], [["c1", "c2"]]]
    state = lockstep(d.new_draft(packs))
    assert sorted(c for pool in d.pools(state) for c in pool) == [
        "a1",
        "a2",
        "a3",
        "b1",
        "c1",
        "c2",
    ]
    empty_rounds = [[[], ["x"]], [[], []]]
    state = d.new_draft(empty_rounds)  # a round with no cards at all is skipped
    assert state["round"] == 1
    assert state["queues"] == [["r1s0"], []]
    state = d.pick(state, 0, "x")
    assert d.is_finished(state)


# ---------------------------------------------------------------- slow seats (CK-043)


@pytest.mark.rule("AMB-07", "CK-043")
def test_slow_seat_the_others_pick_until_their_queues_are_empty():
    """CK-043: seat 0 does not pick; everyone else picks every pack that reaches them."""
    seats, size = 8, 15
    state = d.new_draft(make_packs(seats, rounds=4, size=size))
    progress = True
    while progress:
        progress = False
        for seat in range(1, seats):
            if d.current_pack(state, seat):
                state = d.pick(state, seat, first_card(state, seat))
                progress = True
    # Round 0 passes left: seat s gets the packs opened at seats 1..s, none that must
    # pass through seat 0 first; so seat s made exactly s picks, and all packs wait at 0.
    assert [len(p) for p in state["pools"]] == list(range(seats))
    assert all(not state["queues"][s] for s in range(1, seats))
    assert state["queues"][0] == [d.pack_id(0, s) for s in (0, 7, 6, 5, 4, 3, 2, 1)]
    assert d.waiting_on(state) == dict.fromkeys(range(1, seats), 0)
    # A pack joins the end of the queue: seat 0 sees its own pack first, then the others
    # in the order they arrived.
    state = d.pick(state, 0, first_card(state, 0))
    assert state["queues"][1] == ["r0s0"]
    assert d.waiting_on(state) == dict.fromkeys(range(2, seats), 1)


@pytest.mark.rule("AMB-07", "CK-043")
def test_slow_seat_sees_the_same_packs_as_lockstep():
    """CK-043: only timing differs; each seat sees the sequence of lock-step passing."""
    seats = 5
    packs = make_packs(seats, rounds=4, size=7)
    reference = lockstep(d.new_draft(packs))

    def sequences(state):
        out: dict[int, list[str]] = {s: [] for s in range(seats)}
        for p in state["picks"]:
            out[p["seat"]].append(p["pack"])
        return out

    state = d.new_draft(packs)
    slow = 2
    while not d.is_finished(state):
        moved = False
        for seat in range(seats):
            if seat != slow and d.current_pack(state, seat):
                state = d.pick(state, seat, first_card(state, seat))
                moved = True
        if not moved:  # the slow seat picks only when nobody else can
            state = d.pick(state, slow, first_card(state, slow))
    assert sequences(state) == sequences(reference)


def test_waiting_on_a_seat_further_upstream():
    state = d.new_draft(make_packs(4, rounds=1, size=2))
    state = d.pick(state, 1, "s1r0c0")  # r0s1 -> seat 2
    state = d.pick(state, 2, "s2r0c0")  # r0s2 -> seat 3
    state = d.pick(state, 2, "s1r0c1")  # r0s1 empty
    # Seat 1 holds nothing and waits on seat 0, which feeds it. Seat 2 holds nothing
    # either, but has made both its picks of the round: no pack reaches it again before
    # the next booster (3.2.5.1.4), so it waits on no one seat.
    assert d.waiting_on(state) == {1: 0}


def test_a_seat_done_with_the_booster_waits_on_no_seat():
    # 3.2.5.1.4: the next booster opens when every pack is empty. Seat 0 picks its whole
    # round at once; the packs still held upstream are too thin to reach it again.
    state = d.new_draft(make_packs(3, rounds=2, size=3))
    state = d.pick(state, 0, "s0r0c0")  # r0s0 (2 left) -> seat 1
    state = d.pick(state, 2, "s2r0c0")  # r0s2 (2 left) -> seat 0
    state = d.pick(state, 0, "s2r0c1")  # r0s2 (1 left) -> seat 1
    state = d.pick(state, 1, "s1r0c0")  # r0s1 (2 left) -> seat 2
    state = d.pick(state, 2, "s1r0c1")  # r0s1 (1 left) -> seat 0
    state = d.pick(state, 0, "s1r0c2")  # r0s1 empty: seat 0 has its 3 picks
    assert d.round_pick_number(state, 0) == 4
    assert d.current_pack(state, 0) is None
    assert "s0r0c1" in d.current_pack(state, 1)["cards"]
    # Seat 1 holds r0s0 (2 cards: one more for seat 2) and r0s2 (its last card).
    assert d.waiting_on(state) == {2: 1}
    state = d.pick(state, 1, "s0r0c1")  # r0s0 (1 left) -> seat 2
    state = d.pick(state, 2, "s0r0c2")  # r0s0 empty: seat 2 has its 3 picks
    assert d.waiting_on(state) == {}  # only seat 1 picks, and passes to no one
    state = d.pick(state, 1, "s2r0c2")  # the last card: the second booster opens
    assert d.round_pick_number(state, 0) == 1
    assert d.waiting_on(state) == {}


# ---------------------------------------------------------------- pick numbers and errors


def test_pick_numbers_count_across_the_whole_draft():
    state = d.new_draft(make_packs(2, rounds=2, size=2))
    assert d.pick_number(state, 0) == 1
    assert d.round_pick_number(state, 0) == 1
    state = lockstep(state)
    numbers = [p["number"] for p in state["picks"] if p["seat"] == 0]
    in_round = [(p["round"], p["pick"]) for p in state["picks"] if p["seat"] == 0]
    assert numbers == [1, 2, 3, 4]
    assert in_round == [(0, 1), (0, 2), (1, 1), (1, 2)]
    assert d.pick_number(state, 0) == 5


def test_expected_pick_errors():
    state = d.new_draft(make_packs(3, rounds=2, size=4))
    state = d.pick(state, 0, "s0r0c0", expected_pick=1)
    state = d.pick(state, 2, "s2r0c0", expected_pick=1)  # r0s2 -> seat 0
    frozen = copy.deepcopy(state)
    with pytest.raises(DraftError) as err:
        d.pick(state, 0, "s2r0c1", expected_pick=1)  # the same request again
    assert err.value.code == "already_picked"
    assert "already" in err.value.message
    with pytest.raises(DraftError) as err:
        d.pick(state, 0, "s2r0c1", expected_pick=7)
    assert err.value.code == "stale"
    with pytest.raises(DraftError) as err:
        d.pick(state, 0, "s2r0c1", expected_pick="2")  # type: ignore[arg-type]
    assert err.value.code == "stale"
    assert state == frozen
    state = d.pick(state, 0, "s2r0c1", expected_pick=2)
    assert d.pick_number(state, 0) == 3


def test_pick_errors_leave_the_state_unchanged():
    state = d.new_draft(make_packs(3, rounds=1, size=2))
    frozen = copy.deepcopy(state)
    cases = [
        (5, "s0r0c0", "seat"),
        (-1, "s0r0c0", "seat"),
        (True, "s0r0c0", "seat"),
        (0, "s1r0c0", "card"),  # in another seat's pack
        (0, "nothing", "card"),
    ]
    for seat, card, code in cases:
        with pytest.raises(DraftError) as err:
            d.pick(state, seat, card)
        assert err.value.code == code
        assert isinstance(err.value, ValueError)
    assert state == frozen
    state = d.pick(state, 0, "s0r0c0")
    with pytest.raises(DraftError) as err:
        d.pick(state, 0, "s2r0c0")  # seat 2's pack has not reached seat 0
    assert err.value.code == "waiting"
    state = lockstep(state)
    with pytest.raises(DraftError) as err:
        d.pick(state, 1, "s0r0c1")
    assert err.value.code == "finished"
    assert "over" in err.value.message


def test_queries():
    state = d.new_draft(make_packs(3, rounds=1, size=4))
    assert d.picks_left_in_pack(state, 0) == 4
    state = d.pick(state, 0, "s0r0c0")
    assert d.picks_left_in_pack(state, 0) == 0
    assert d.current_pack(state, 0) is None
    assert d.picks_left_in_pack(state, 1) == 4
    assert d.waiting_on(state) == {0: 2}
    assert d.pools(state) == [["s0r0c0"], [], []]
    d.pools(state)[0].append("x")  # a copy
    assert d.pools(state)[0] == ["s0r0c0"]
    with pytest.raises(DraftError):
        d.current_pack(state, 3)


@pytest.mark.parametrize(
    "packs",
    [
        [],
        [[]],
        [[["a"]], [["b"], ["c"]]],
        [["abc"]],
        [[["a", 1]]],
    ],
)
def test_new_draft_rejects_bad_packs(packs):
    with pytest.raises(DraftError) as err:
        d.new_draft(packs)
    assert err.value.code == "packs"


def test_new_draft_copies_its_input():
    packs = make_packs(2, rounds=1, size=3)
    state = d.new_draft(packs)
    packs[0][0].clear()
    assert len(state["packs"]["r0s0"]["cards"]) == 3


def test_state_survives_a_json_round_trip():
    state = d.new_draft(make_packs(4, rounds=2, size=3))
    state = d.pick(state, 0, "s0r0c1")
    state = d.pick(state, 1, "s1r0c0")
    stored = json.loads(json.dumps(state))
    assert stored == state
    assert lockstep(stored)["pools"] == lockstep(state)["pools"]


# ---------------------------------------------------------------- any interleaving


@st.composite
def drafts(draw):
    seats = draw(st.integers(1, 6))
    rounds = draw(st.integers(1, 4))
    sizes = [draw(st.integers(1, 8)) for _ in range(rounds)]
    packs = [
        [[f"s{s}r{r}c{i}" for i in range(sizes[r])] for r in range(rounds)] for s in range(seats)
    ]
    return packs, sizes


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drafts(), st.data())
def test_any_interleaving_of_picks(draft, data):
    """Random seats pick random cards: every card ends in exactly one pool, pools have
    equal size, pick never mutates its input, and each seat sees the packs of lock-step
    passing (the k-th pick of a round is from the pack opened k-1 seats upstream)."""
    packs, sizes = draft
    seats = len(packs)
    state = d.new_draft(packs)
    while not d.is_finished(state):
        ready = [s for s in range(seats) if d.current_pack(state, s)]
        assert ready, "a draft that is not over always has a seat that can pick"
        seat = data.draw(st.sampled_from(ready))
        cards = d.current_pack(state, seat)["cards"]
        card = data.draw(st.sampled_from(cards))
        before = copy.deepcopy(state)
        number = d.pick_number(state, seat)
        new = d.pick(state, seat, card, expected_pick=number)
        assert state == before, "pick mutated its input"
        assert new["pools"][seat][-1] == card
        assert d.pick_number(new, seat) == number + 1
        state = new
    everything = sorted(c for seat_packs in packs for booster in seat_packs for c in booster)
    assert sorted(c for pool in d.pools(state) for c in pool) == everything
    assert {len(pool) for pool in d.pools(state)} == {sum(sizes)}
    for record in state["picks"]:
        booster_round, origin = origin_of(record["pack"])
        assert booster_round == record["round"]
        step = d.direction(booster_round)
        assert origin == (record["seat"] - (record["pick"] - 1) * step) % seats
    assert json.loads(json.dumps(state)) == state


def test_expected_pick_true_is_not_pick_one():
    state = d.new_draft(make_packs(2, rounds=1, size=2))
    with pytest.raises(DraftError) as err:
        d.pick(state, 0, "s0r0c0", expected_pick=True)
    assert err.value.code == "stale"
