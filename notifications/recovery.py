"""The notices' step of the sweep (``tournaments.sweeps``): e-mails still pending a
while after their notice was made (the task was lost, or the mail server refused), and,
in embedded mode, which has no beat, the decklist reminders every ``NOTIFY_SCAN_SECONDS``."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache

from notifications.services import lost_mails
from tournaments import sweeps


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


def register() -> None:
    sweeps.register("notices", _notices)
