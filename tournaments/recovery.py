"""The tournament's own steps of the sweep (``tournaments.sweeps``): self-running events
that did not move on, decklists past their deadline that nobody locked, final matches not
rated, and rated results changed since (their game's rebuild was lost)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, F, Max, OuterRef

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


def _ratings_stale(now: datetime, cutoff: datetime) -> int:
    """Game systems with a rated match whose result changed after it was rated a while ago:
    the rebuild queued then was lost (``services.ratings.rerate_on_commit``). A match's
    ``finished_at`` is stamped each time its result is made final, and its ``RatedMatch``
    is written when it is counted (a rebuild writes them all again): a marker older than
    the result is a stale rating. The claim names the latest such change, so a change
    after the rebuild is queued is a new finding."""
    from tournaments.tasks import rebuild_ratings

    stale = (
        Match.objects.filter(
            status=Match.Status.FINAL,
            is_bye=False,
            rated__rated_at__lt=F("finished_at"),
            finished_at__lt=cutoff,
        )
        .values("round__event__game_system")
        .annotate(latest=Max("finished_at"))
        .order_by("round__event__game_system")
        .values_list("round__event__game_system", "latest")[:BATCH]
    )
    queued = 0
    for game_system, latest in stale:
        if claim(f"ratings-rebuild:{game_system}", 0, latest):
            queue(lambda game_system=game_system: rebuild_ratings.delay(game_system))
            queued += 1
    return queued


def register() -> None:
    from tournaments import sweeps

    sweeps.register("events", _events_not_advanced)
    sweeps.register("decklists", _decklists_past_deadline)
    sweeps.register("ratings", _matches_not_rated)
    sweeps.register("rating-rebuilds", _ratings_stale)
