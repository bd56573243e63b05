"""A move the server took before the deadline is not lost on time because the clock check
ran before a slow or restarted worker reached the move.

The server marks the seat ``pending_move_at`` (a compare-and-set write, made only when
the clock is within ``PENDING_WINDOW_SECONDS`` of its deadline); the clock check does not
flag a seat whose pending move was made before the deadline (it looks again shortly),
up to ``PENDING_GRACE_SECONDS`` past the deadline (a lost task); the move's task clears
the mark. Tasks run in-process; the ones queued are recorded instead of sent.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse
from django.utils import timezone

from engine.ascension.game import SYSTEM
from play import tasks
from play.models import GameSession, SessionSeat
from play.services.acting import PENDING_GRACE_SECONDS, PENDING_WINDOW_SECONDS, submit_action
from play.services.payloads import _update_message, payloads
from play.services.starting import create_friend_game, join_game
from tests.play.helpers import communicator, fresh

pytestmark = pytest.mark.django_db


def timed_game(alice, bob, bank: int = 60) -> tuple[GameSession, SessionSeat]:
    session = create_friend_game(alice, "ascension", time_bank=bank)
    session = fresh(join_game(bob, session.invite_token))
    (acting,) = SYSTEM.to_act(session.state)
    return session, session.seats.select_related("user").get(number=acting)


def deadline_in(seat: SessionSeat, seconds: float) -> None:
    deadline = timezone.now() + timedelta(seconds=seconds)
    SessionSeat.objects.filter(pk=seat.pk).update(deadline=deadline, time_left=max(seconds, 0))
    seat.refresh_from_db()


def wait_past(seat: SessionSeat) -> None:
    seat.refresh_from_db()
    while timezone.now() <= seat.deadline:
        time.sleep(0.05)


def test_a_move_made_before_the_deadline_beats_a_clock_check_that_runs_first(
    client, alice, bob, queued
):
    session, seat = timed_game(alice, bob)
    deadline_in(seat, 0.6)
    client.force_login(seat.user)
    response = client.post(
        reverse("play:act", args=[session.pk]),
        {"seq": session.seq, "action": '{"type": "end_turn"}'},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 202
    (move,) = queued
    seat.refresh_from_db()
    assert seat.pending_move_at is not None
    assert abs(seat.pending_move_at.timestamp() - move[4]) < 1e-3  # the move's own moment
    assert seat.pending_move_at < seat.deadline

    # The worker is slow: the clock check falls due first, and waits for the move.
    wait_past(seat)
    assert tasks.clock_expired.apply(args=(session.pk, seat.number, session.seq)).get() is False
    waiting = fresh(session)
    assert waiting.status == GameSession.Status.RUNNING and waiting.seq == session.seq
    seat.refresh_from_db()
    assert (
        timezone.now()
        < seat.clock_check_at
        <= seat.deadline + timedelta(seconds=PENDING_GRACE_SECONDS)
    )
    # A second check (the sweep's, or a repeated one) waits too.
    assert tasks.clock_expired.apply(args=(session.pk, seat.number, session.seq)).get() is False

    # The worker gets to the move: it counts as made when the server took it.
    assert tasks.apply_action.apply(args=move).get() == "applied"
    after = fresh(session)
    assert after.status == GameSession.Status.RUNNING and after.seq == session.seq + 1
    seat.refresh_from_db()
    assert seat.pending_move_at is None and seat.deadline is None
    assert 0 < seat.time_left < 0.6  # charged up to the move, not to the worker's moment
    # The check that was looking again finds the clock stopped.
    assert tasks.clock_expired.apply(args=(session.pk, seat.number, session.seq)).get() is False
    assert fresh(session).status == GameSession.Status.RUNNING


def test_without_a_move_on_its_way_the_clock_check_flags_as_before(alice, bob):
    session, seat = timed_game(alice, bob)
    deadline_in(seat, -0.1)
    assert tasks.clock_expired.apply(args=(session.pk, seat.number, session.seq)).get() is True
    ended = fresh(session)
    assert ended.end_reason == GameSession.EndReason.TIME
    assert ended.result["eliminated"] == [seat.number]


@pytest.mark.parametrize(
    ("deadline", "made"),
    [
        # The move's task was lost: the grace past the deadline is over.
        (-PENDING_GRACE_SECONDS - 1, -PENDING_GRACE_SECONDS - 2),
        # The move was made after the deadline: it never protected the seat.
        (-1, -0.5),
    ],
)
def test_a_pending_mark_does_not_save_a_late_move_nor_wait_for_a_lost_task(
    alice, bob, deadline, made
):
    session, seat = timed_game(alice, bob)
    deadline_in(seat, deadline)
    SessionSeat.objects.filter(pk=seat.pk).update(
        pending_move_at=timezone.now() + timedelta(seconds=made)
    )
    assert tasks.clock_expired.apply(args=(session.pk, seat.number, session.seq)).get() is True
    assert fresh(session).end_reason == GameSession.EndReason.TIME


def test_moves_far_from_the_deadline_cost_no_extra_query(
    alice, bob, queued, django_assert_num_queries
):
    session, seat = timed_game(alice, bob)
    user = seat.user
    deadline_in(seat, PENDING_WINDOW_SECONDS + 5)
    with django_assert_num_queries(1):  # the seat, the game's status, seq and state
        submit_action(user, session.pk, session.seq, {"type": "end_turn"})
    seat.refresh_from_db()
    assert seat.pending_move_at is None
    deadline_in(seat, PENDING_WINDOW_SECONDS - 5)
    with django_assert_num_queries(2):  # ... and the mark
        submit_action(user, session.pk, session.seq, {"type": "end_turn"})
    first = SessionSeat.objects.get(pk=seat.pk).pending_move_at
    assert first is not None
    # A second move (a double click) keeps the earliest mark.
    submit_action(seat.user, session.pk, session.seq, {"type": "end_turn"})
    assert SessionSeat.objects.get(pk=seat.pk).pending_move_at == first
    # The first applies and clears it; the others are stale and change nothing.
    assert [tasks.apply_action.apply(args=m).get() for m in queued] == [
        "applied",
        "stale",
        "stale",
    ]
    assert SessionSeat.objects.get(pk=seat.pk).pending_move_at is None


def test_a_refused_move_clears_its_mark(alice, bob, queued):
    session, seat = timed_game(alice, bob)
    deadline_in(seat, 5)
    submit_action(seat.user, session.pk, session.seq, {"type": "no_such_move"})
    assert SessionSeat.objects.get(pk=seat.pk).pending_move_at is not None
    assert tasks.apply_action.apply(args=queued[0]).get() == "illegal"
    assert SessionSeat.objects.get(pk=seat.pk).pending_move_at is None


def test_each_push_carries_the_running_clocks_deadlines(alice, bob):
    session, seat = timed_game(alice, bob)
    session = fresh(session)
    seats = list(session.seats.all())
    message = _update_message(payloads(session, [0, 1, None], seats))
    seat.refresh_from_db()
    assert message["deadlines"] == {str(seat.number): seat.deadline.timestamp()}


@pytest.mark.django_db(transaction=True)
def test_the_socket_marks_a_move_near_the_deadline_and_no_other(
    alice, bob, queued, own_channel_layer
):
    session, seat = timed_game(alice, bob)
    user = seat.user

    async def send_move(seq: int) -> None:
        comm = communicator(session, user)
        connected, _ = await comm.connect()
        assert connected
        await comm.receive_json_from(timeout=5)
        await comm.send_json_to({"seq": seq, "action": {"type": "end_turn"}})
        assert await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()

    deadline_in(seat, PENDING_WINDOW_SECONDS + 10)
    async_to_sync(send_move)(session.seq)
    assert len(queued) == 1
    assert SessionSeat.objects.get(pk=seat.pk).pending_move_at is None
    deadline_in(seat, 3)
    async_to_sync(send_move)(session.seq)
    assert len(queued) == 2
    marked = SessionSeat.objects.get(pk=seat.pk).pending_move_at
    assert marked is not None and abs(marked.timestamp() - queued[1][4]) < 1e-3
