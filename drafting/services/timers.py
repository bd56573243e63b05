"""Timers: the slack a timer task is allowed, the review before a new booster, and the
one timer check each pod has queued.

A seat gets its deadline from ``changes.after_change`` when it faces a new pick, with
the review time added when the pack opens a new booster (``new_round_for``);
``arm_timers`` makes sure one ``run_timers`` task comes by the pod's earliest deadline
(the task's body is ``picks.run_timers``). Deck building's deadline is
``decks.finish_building``'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from config.celery import queue_at
from drafting.models import Pod, Seat

TIMER_SLACK = timedelta(milliseconds=250)  # a timer task may arrive a little early
TIMERS_LOST_AFTER = timedelta(seconds=60)


def arm_timers(pod: Pod, seats: Sequence[Seat], now: datetime) -> None:
    """Make sure a ``run_timers`` task comes by the earliest deadline of the pod's seats.

    One task per pod, not one per pick: while a check is already due no later than the
    earliest deadline, nothing is queued (it will re-arm when it runs). A check overdue
    by more than ``TIMERS_LOST_AFTER`` counts as lost (a worker died holding it) and is
    queued again; a second check finds nothing to do and is harmless.
    """
    from drafting import tasks

    deadlines = [s.pick_deadline for s in seats if s.timer_key and s.pick_deadline is not None]
    if not deadlines:
        return
    due = min(deadlines)
    pending = pod.timers_due
    if pending is not None and now - TIMERS_LOST_AFTER <= pending <= due:
        return
    # Queued for the deadline, or for the broker's horizon if that is sooner: the check
    # then finds nothing due and arms itself again (``config.celery.queue_at``).
    pod.timers_due = queue_at(tasks.run_timers, (pod.pk,), due)
    Pod.objects.filter(pk=pod.pk).update(timers_due=pod.timers_due)


def review_until(pod: Pod, seat: Seat, pack: Mapping[str, Any] | None) -> datetime | None:
    """When the review before the first pick of a new booster ends for this seat (None:
    no review now). The seat's deadline already holds the review time (``changes.after_change``);
    the review is that deadline less the pick's own time. Only with the pick timer on."""
    if pack is None or not pod.review_seconds or seat.pick_deadline is None:
        return None
    if seat.picked_by_bot or not new_round_for(pod.state, seat.number, pack):
        return None
    seconds = pod.pick_seconds(len(pack["cards"]))
    if seconds is None:
        return None
    return seat.pick_deadline - timedelta(seconds=seconds)


def new_round_for(state: dict[str, Any], seat_number: int, pack: Mapping[str, Any]) -> bool:
    """Does ``pack`` open a new booster round for this seat (review time first)?

    A seat's picks so far in the current round are ``round_picks``; with none, its last
    pick (if any) was in an earlier round."""
    if not state["pools"][seat_number]:
        return False
    last_round = state["round"] if state["round_picks"][seat_number] else state["round"] - 1
    return pack["round"] != last_round
