"""Celery tasks of the tournaments app: they take ids, load rows, call one service."""

from __future__ import annotations

from celery import shared_task

from tournaments import services
from tournaments.models import Event


@shared_task(acks_late=True, ignore_result=True)
def advance_event(event_id: int) -> int | None:
    """Pair and publish the next round of a self-running event. Harmless if run twice."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    rnd = services.advance(event)
    return rnd.number if rnd else None
