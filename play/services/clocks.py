"""Clocks: each player's time bank, charged and started after every change of a game.

Every change of a running game (``starting``, ``acting``, ``ending``) ends with
``after_change``: the clocks move (``run_clocks``), and after commit the views are
pushed, a bot to act gets its ``bot_move`` task and a clock that starts gets its
``clock_expired`` task (``schedule_clock``; the task's body is ``acting.flag_time``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.db import transaction

from engine.core.protocol import GameSystem
from play import rows
from play.models import GameSession, SessionSeat
from play.services.engines import bot_delay
from play.services.payloads import push_on_commit


def run_clocks(
    session: GameSession, seats: Sequence[SessionSeat], to_act: Iterable[int], now: datetime
) -> None:
    """Charge the time used since each running clock started; start the clocks of who acts now.

    Bots have no clock (their ``time_left`` is None): they never run out of time. A seat
    whose clock starts gets a clock task only when none is queued that falls due by its
    new deadline: the bank only shrinks, so a deadline is never earlier than the one
    before it, and the queued task, finding the deadline moved on, queues itself for the
    new one (``acting.flag_time``). One task per seat then covers a whole game instead of one
    per move. A clock that keeps running (its seat acts again) is left as it is, so most
    moves of a turn store no seat at all; one UPDATE stores the seats that changed.
    """
    acting = set(to_act)
    running = session.status == GameSession.Status.RUNNING
    changed = []
    for seat in seats:
        dirty = False
        if (
            running
            and seat.number in acting
            and not seat.is_bot
            and seat.deadline is not None
            and seat.time_left is not None
        ):
            # Acts again (most moves of a turn): the clock runs on to the same deadline,
            # so nothing is stored (charging it and restarting it gives the same row).
            continue
        if seat.deadline is not None and seat.time_left is not None:
            seat.time_left = max(0.0, (seat.deadline - now).total_seconds())
            seat.deadline = None
            seat.pending_move_at = None  # its clock stopped: no move of its is on its way
            dirty = True
        if running and seat.number in acting and not seat.is_bot and seat.time_left is not None:
            seat.deadline = now + timedelta(seconds=seat.time_left)
            due = seat.clock_check_at
            if due is None or due <= now or due > seat.deadline:
                seat.clock_check_at = schedule_clock(
                    session.pk, seat.number, session.seq, seat.deadline
                )
            dirty = True
        if dirty:
            changed.append(seat)
    rows.update(changed, ["time_left", "deadline", "clock_check_at", "pending_move_at"])


def schedule_clock(session_id: int, seat: int, seq: int, eta: datetime) -> datetime:
    """Queue the seat's clock check for ``eta`` (or sooner, ``config.celery.queue_at``: the
    check then queues itself again for the deadline, ``acting.flag_time``); returns when it
    is due."""
    from config.celery import queue_at
    from play import tasks

    return queue_at(tasks.clock_expired, (session_id, seat, seq), eta)


def after_change(
    session: GameSession, seats: Sequence[SessionSeat], system: GameSystem, now: datetime
) -> None:
    """Move the clocks, then after commit push the views and schedule bots and clocks."""
    from play import tasks

    to_act = system.to_act(session.state)
    run_clocks(session, seats, to_act, now)
    session_id, seq = session.pk, session.seq
    push_on_commit(session, seats)
    if any(s.is_bot and s.number in to_act for s in seats):
        delay = bot_delay()
        transaction.on_commit(
            lambda: tasks.bot_move.apply_async((session_id, seq), countdown=delay),
            robust=True,
        )
