"""Celery tasks of the tournaments app: they take ids, load rows, call one service."""

from __future__ import annotations

import time

from celery import shared_task
from django.core.cache import cache

from tournaments import live, services
from tournaments.models import Event


@shared_task(acks_late=True, ignore_result=True)
def advance_event(event_id: int) -> int | None:
    """Pair and publish the next round of a self-running event. Harmless if run twice."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    rnd = services.advance(event)
    return rnd.number if rnd else None


@shared_task(acks_late=True, ignore_result=True)
def lock_decklists_at_deadline(event_id: int) -> int:
    """Lock the legal decklists of an event whose deadline has passed.

    Queued with ``eta`` = the deadline when it is set or changed. The service re-reads
    the deadline from the database, so a task left from an earlier deadline, a late
    delivery or a second run changes nothing it should not.
    """
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    return services.lock_decklists_at_deadline(event)


STANDINGS_DEBOUNCE_SECONDS = 1


@shared_task(acks_late=True, ignore_result=True)
def refresh_standings(event_id: int) -> None:
    """Recompute an event's standings snapshot and tell its pages. Harmless if repeated."""
    cache.delete(_pending_key(event_id))
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    services.refresh_standings(event)
    live.broadcast_on_commit(event_id, "standings")


def _pending_key(event_id: int) -> str:
    return f"standings-refresh-pending:{event_id}"


def refresh_standings_soon(event_id: int) -> None:
    """Queue one recomputation unless one is already waiting (debounce)."""
    if cache.add(_pending_key(event_id), 1, timeout=60):
        refresh_standings.apply_async((event_id,), countdown=STANDINGS_DEBOUNCE_SECONDS)


@shared_task(ignore_result=True)
def heartbeat(token: str) -> None:
    """Record that a worker ran this task (worker health, and the embedded-mode test)."""
    cache.set(f"worker-heartbeat:{token}", time.time(), timeout=3600)
