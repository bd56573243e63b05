"""Since when a seat has had a pick to make (dashboard.waits, pure; rules 3.2.5, AMB-07)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dashboard.waits import pack_round, pending_since

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def at(seconds: int) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_pack_ids_name_their_booster_round():
    assert pack_round("r0s3") == 0 and pack_round("r2s11") == 2
    assert pack_round("x") is None and pack_round("rXs1") is None and pack_round("r1") is None


def test_at_the_start_every_seat_waits_since_the_draft_started():
    queues = [["r0s0"], ["r0s1"], ["r0s2"]]
    assert pending_since(queues, 0, at(0), {}, {}) == {0: at(0), 1: at(0), 2: at(0)}


def test_a_passed_pack_waits_from_the_upstream_pick_and_a_seat_from_its_own_last_pick():
    # Seat 0 picked from its own pack at 10 s and passed it left to seat 1 (AMB-06), which
    # still holds its own first pack; seat 0 now waits for seat 2's pack (no entry).
    queues = [[], ["r0s1", "r0s0"], ["r0s2"]]
    since = pending_since(queues, 0, at(0), {"r0s0": at(10)}, {0: at(10)})
    assert since == {1: at(0), 2: at(0)}  # seat 1's head pack is its own, open since the start
    # Seat 1 picks at 30 s: it now faces seat 0's pack, which arrived at 10 s, so its
    # pick has been waiting since its own pick at 30 s.
    queues = [["r0s2"], ["r0s0"], ["r0s1"]]
    since = pending_since(
        queues,
        0,
        at(0),
        {"r0s0": at(10), "r0s1": at(30), "r0s2": at(20)},
        {0: at(10), 1: at(30), 2: at(20)},
    )
    assert since == {0: at(20), 1: at(30), 2: at(30)}


def test_a_new_booster_round_opens_with_the_last_pick_of_the_round_before():
    last_picks = {"r0s0": at(50), "r0s1": at(70), "r0s2": at(60)}
    queues = [["r1s0"], ["r1s1"], ["r1s2"]]
    since = pending_since(queues, 1, at(0), last_picks, {0: at(50), 1: at(70), 2: at(60)})
    assert since == {0: at(70), 1: at(70), 2: at(70)}


def test_nothing_known_gives_nothing():
    assert pending_since([["r0s0"]], 0, None, {}, {}) == {}
    assert pending_since([[], []], 0, at(0), {}, {}) == {}
