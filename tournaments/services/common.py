"""What every topic module shares: the audit entry a change writes, and the event row
lock that serialises the changes of one event.
"""

from __future__ import annotations

from tournaments.models import AuditEntry, Event
from tournaments.services.permissions import User


def audit(event: Event, actor: User | None, action: str, summary: str, **data) -> None:
    """Write an audit log entry of the event (the actor: None for the system)."""
    AuditEntry.objects.create(
        event=event,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        summary=summary[:300],
        data=data,
    )


def lock_event(event: Event) -> Event:
    """Lock the event row for the rest of the transaction and return it fresh."""
    return Event.objects.select_for_update().get(pk=event.pk)
