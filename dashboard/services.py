"""The dashboard's only change of state: keeping an error, and forgetting old ones."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from dashboard.models import ErrorRecord

# The same error again within this time adds to the count of its row.
REPEAT_WINDOW = timedelta(minutes=10)
DEFAULT_KEEP = 500

_FIELDS = {f.name for f in ErrorRecord._meta.get_fields()} - {
    "id",
    "count",
    "first_seen",
    "last_seen",
}


def keep_limit() -> int:
    return max(1, int(getattr(settings, "DASHBOARD_ERROR_RECORDS_KEEP", DEFAULT_KEEP)))


def record_error(entry: dict[str, Any]) -> ErrorRecord | None:
    """Store one error (fields as built by ``dashboard.errors.entry_from_record``).

    A repeat of an error seen within ``REPEAT_WINDOW`` adds to that row's count (and
    returns None); a new error gets a row, and rows beyond the newest
    ``keep_limit()`` are deleted.
    """
    now = timezone.now()
    fields = {k: v for k, v in entry.items() if k in _FIELDS and v is not None}
    fingerprint = fields.get("fingerprint", "")
    with transaction.atomic():
        repeated = ErrorRecord.objects.filter(
            fingerprint=fingerprint, last_seen__gte=now - REPEAT_WINDOW
        ).update(count=F("count") + 1, last_seen=now)
        if repeated:
            return None
        record = ErrorRecord.objects.create(first_seen=now, last_seen=now, **fields)
        prune()
    return record


def prune() -> int:
    """Delete the rows older than the newest ``keep_limit()``; return how many went."""
    limit = keep_limit()
    rows = list(
        ErrorRecord.objects.order_by("-last_seen", "-pk").values_list("last_seen", "pk")[
            limit : limit + 1
        ]
    )
    if not rows:
        return 0
    last_seen, pk = rows[0]
    deleted, _ = ErrorRecord.objects.filter(
        Q(last_seen__lt=last_seen) | Q(last_seen=last_seen, pk__lte=pk)
    ).delete()
    return deleted
