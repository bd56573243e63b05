"""The tournament's own steps of the sweep (``tournaments.sweeps``): self-running events
that did not move on, decklists past their deadline that nobody locked."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef

from tournaments.models import Decklist, Event, Match, Round
from tournaments.sweeps import BATCH, claim, queue


def _events_not_advanced(now: datetime, cutoff: datetime) -> int:
    """A self-running event whose last round completed a while ago and nothing followed."""
    from tournaments.tasks import advance_event

    open_rounds = Round.objects.filter(event=OuterRef("pk")).exclude(status=Round.Status.COMPLETED)
    late = Round.objects.filter(event=OuterRef("pk"), completed_at__lt=cutoff)
    events = (
        Event.objects.filter(status=Event.Status.RUNNING, auto_advance=True)
        .filter(Exists(late))
        .exclude(Exists(open_rounds))
        .values_list("pk", flat=True)[:BATCH]
    )
    queued = 0
    for pk in events:
        last = (
            Round.objects.filter(event_id=pk)
            .order_by("-number")
            .values_list("completed_at", flat=True)
            .first()
        )
        if last is None or last >= cutoff:
            continue
        if claim("event", pk, last):
            queue(lambda pk=pk: advance_event.delay(pk))
            queued += 1
    return queued


def _decklists_past_deadline(now: datetime, cutoff: datetime) -> int:
    """An event whose decklist deadline passed a while ago with lists still open that the
    deadline task locks (legal or not yet checked): its ``eta`` task was lost."""
    from tournaments.tasks import lock_decklists_at_deadline

    open_lists = Decklist.objects.filter(registration__event=OuterRef("pk"), locked=False).exclude(
        is_legal=False
    )
    events = (
        Event.objects.filter(decklist_deadline__lt=cutoff)
        .exclude(status=Event.Status.FINISHED)
        .filter(Exists(open_lists))
        .values_list("pk", "decklist_deadline")[:BATCH]
    )
    queued = 0
    for pk, deadline in events:
        if claim("decklists", pk, deadline):
            queue(lambda pk=pk: lock_decklists_at_deadline.delay(pk))
            queued += 1
    return queued


def _matches_not_rated(now: datetime, cutoff: datetime) -> int:
    """Rounds with a match final a while ago that the ratings have not counted: the rating
    task was lost (``services.ratings``)."""
    from tournaments.tasks import rate_round

    rounds = (
        Match.objects.filter(
            status=Match.Status.FINAL, is_bye=False, rated__isnull=True, finished_at__lt=cutoff
        )
        .order_by("round_id")
        .values_list("round_id", flat=True)
        .distinct()[:BATCH]
    )
    queued = 0
    for pk in rounds:
        if claim("ratings", pk):
            queue(lambda pk=pk: rate_round.delay(pk))
            queued += 1
    return queued


def register() -> None:
    from tournaments import sweeps

    sweeps.register("events", _events_not_advanced)
    sweeps.register("decklists", _decklists_past_deadline)
    sweeps.register("ratings", _matches_not_rated)
