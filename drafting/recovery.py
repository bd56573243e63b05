"""The drafting app's own step of the sweep (``tournaments.sweeps``): pick timers whose
check is overdue, pods building decks past their deadline."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef, Q

from drafting.models import Pod, Seat
from tournaments.sweeps import BATCH, claim, queue


def _overdue_pods(now: datetime, cutoff: datetime) -> int:
    """Drafting pods whose timer check is overdue; pods building decks past their deadline.

    The drafting app's own tasks do the work (``run_timers``, ``finish_building``): they
    re-read the deadlines under the pod's lock, so a check that was not lost after all
    makes no pick twice.
    """
    from drafting import tasks as draft_tasks

    armed = Seat.objects.filter(pod=OuterRef("pk"), pick_deadline__lt=cutoff).exclude(timer_key="")
    drafting = (
        Pod.objects.filter(status=Pod.Status.DRAFTING)
        .filter(
            Q(timers_due__lt=cutoff)
            | Q(timers_due__isnull=True, pk__in=Pod.objects.filter(Exists(armed)).values("pk"))
        )
        .values_list("pk", "timers_due")[:BATCH]
    )
    queued = 0
    for pk, due in drafting:
        claimed = Pod.objects.filter(pk=pk, timers_due=due).update(timers_due=now)
        if claimed:
            queue(lambda pk=pk: draft_tasks.run_timers.delay(pk))
            queued += 1
    building = Pod.objects.filter(
        status=Pod.Status.BUILDING, build_deadline__lt=cutoff
    ).values_list("pk", "build_deadline")[:BATCH]
    for pk, deadline in building:
        if claim("building", pk, deadline):
            queue(lambda pk=pk: draft_tasks.finish_building.delay(pk))
            queued += 1
    return queued


def register() -> None:
    from tournaments import sweeps

    sweeps.register("pods", _overdue_pods)
