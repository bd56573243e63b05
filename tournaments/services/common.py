"""What every topic module shares: the audit entry a change writes, and the event row
lock that serialises the changes of one event.
"""

from __future__ import annotations

from tournaments.audit_text import AuditText, said
from tournaments.models import AuditEntry, Event
from tournaments.services.permissions import User

__all__ = ["audit", "lock_event", "said"]


def audit(event: Event, actor: User | None, action: str, summary: AuditText | str, **data) -> None:
    """Write an audit log entry of the event (the actor: None for the system). The line is
    best given as ``said(gettext_noop("..."), **params)``: it is then shown in the reader's
    language (``AuditEntry.text``); a plain string is kept and shown as it is."""
    message, params = "", {}
    if isinstance(summary, AuditText):
        message, params, summary = summary.message, summary.params, summary.english()
    AuditEntry.objects.create(
        event=event,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        summary=summary[:300],
        message=message,
        params=params,
        data=data,
    )


def lock_event(event: Event) -> Event:
    """Lock the event row for the rest of the transaction and return it fresh."""
    return Event.objects.select_for_update().get(pk=event.pk)
