"""The notices' steps of the sweep (``tournaments.sweeps``): e-mails still pending a
while after their notice was made (the task was lost, or the mail server refused), and,
in embedded mode, which has no beat, the decklist reminders every ``NOTIFY_SCAN_SECONDS``;
and the notices themselves whose task was lost (the broker was down when a round was
published or a result reported): ``_lost_notices``."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import CharField, Exists, OuterRef, Q, Subquery, Value
from django.db.models.functions import Cast, Concat

from notifications.models import Notice
from notifications.services import lost_mails
from tournaments import sweeps
from tournaments.models import Match, MatchSeat, ResultReport, Round

RECOVER_HOURS = 6.0  # how far back lost notices are looked for (NOTIFY_RECOVER_HOURS)


def _notices(now: datetime, cutoff: datetime) -> int:
    from notifications.tasks import remind_decklists, send_notice_email

    queued = 0
    for pk in lost_mails(cutoff, sweeps.BATCH):
        if sweeps.claim("notice-mail", pk):
            sweeps.queue(lambda pk=pk: send_notice_email.delay(pk))
            queued += 1
    if settings.EMBEDDED:
        every = max(1, int(getattr(settings, "NOTIFY_SCAN_SECONDS", 300)))
        if cache.add("notify-decklist-scan", 1, timeout=every):
            sweeps.queue(remind_decklists.delay)
    return queued


def recover_hours() -> float:
    return float(getattr(settings, "NOTIFY_RECOVER_HOURS", RECOVER_HOURS))


def _someone_to_tell() -> Exists:
    """A seat of the round held by a player with an account (a team event's entrants have
    their members' accounts): a round of bots and guests has nobody to tell."""
    return Exists(
        MatchSeat.objects.filter(round=OuterRef("pk"))
        .filter(registration__is_bot=False)
        .filter(Q(registration__user__isnull=False) | Q(registration__members__isnull=False))
    )


def rounds_untold(since: datetime, cutoff: datetime, limit: int) -> list[tuple[int, datetime]]:
    """(round, when it was published) of the rounds published between ``since`` and
    ``cutoff`` with players to tell and not one notice of their publication: its task was
    lost."""
    told = Notice.objects.filter(
        kind=Notice.Kind.ROUND_PUBLISHED,
        key=Concat(Value("round:"), Cast(OuterRef("pk"), CharField())),
    )
    return list(
        Round.objects.exclude(status=Round.Status.DRAFT)
        .filter(published_at__gte=since, published_at__lt=cutoff)
        .filter(_someone_to_tell())
        .exclude(Exists(told))
        .order_by("published_at")
        .values_list("pk", "published_at")[:limit]
    )


def reports_unconfirmed(
    since: datetime, cutoff: datetime, limit: int
) -> list[tuple[int, datetime]]:
    """(match, when its last report came) of the matches waiting for confirmation whose
    last report came between ``since`` and ``cutoff`` and led to no notice since: its task
    was lost (a report is a player's, so someone may be waiting to hear)."""
    last = ResultReport.objects.filter(match=OuterRef("pk")).order_by("-created_at", "-pk")
    asked = Notice.objects.filter(
        kind=Notice.Kind.RESULT_TO_CONFIRM,
        event=OuterRef("round__event"),
        key__startswith=Concat(Value("match:"), Cast(OuterRef("pk"), CharField()), Value(":")),
        created_at__gte=OuterRef("reported_at"),
    )
    return list(
        Match.objects.filter(status=Match.Status.REPORTED)
        .annotate(
            reported_at=Subquery(last.values("created_at")[:1]),
        )
        .filter(reported_at__gte=since, reported_at__lt=cutoff)
        .exclude(Exists(asked))
        .order_by("reported_at")
        .values_list("pk", "reported_at")[:limit]
    )


def _once(key: str, send) -> bool:
    """Queue ``send`` once per finding while it may be looked for (a round whose players
    all turned the notice off is found again, and is not queued again); a broker that
    refuses leaves it to the next sweep."""
    if not cache.add(key, 1, timeout=max(1, int(recover_hours() * 3600))):
        return False
    try:
        sweeps.queue(send)
    except sweeps.BrokerDown:
        cache.delete(key)
        raise
    return True


def _lost_notices(now: datetime, cutoff: datetime) -> int:
    """Notices of rounds published and results reported in the last ``recover_hours()``
    whose task was lost: queued again (the task makes each notice once, whoever ran it)."""
    from notifications.tasks import notify_result_reported, notify_round_published

    since = now - timedelta(hours=recover_hours())
    queued = 0
    for pk, published in rounds_untold(since, cutoff, sweeps.BATCH):
        key = f"notice-recover:round:{pk}:{published.timestamp()}"
        if _once(key, lambda pk=pk: notify_round_published.delay(pk)):
            queued += 1
    for pk, reported in reports_unconfirmed(since, cutoff, sweeps.BATCH):
        key = f"notice-recover:match:{pk}:{reported.timestamp()}"
        if _once(key, lambda pk=pk: notify_result_reported.delay(pk)):
            queued += 1
    return queued


def register() -> None:
    sweeps.register("notices", _notices)
    sweeps.register("lost-notices", _lost_notices)
