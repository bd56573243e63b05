"""Celery tasks of the tournaments app: they take ids, load rows, call one service."""

from __future__ import annotations

import time

from celery import shared_task
from django.core.cache import cache
from django.db import IntegrityError, OperationalError

from tournaments import live
from tournaments.models import Event
from tournaments.services import decklists, pairing, ratings, standings


@shared_task(acks_late=True, ignore_result=True)
def advance_event(event_id: int) -> int | None:
    """Pair and publish the next round of a self-running event. Harmless if run twice."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    rnd = pairing.advance(event)
    return rnd.number if rnd else None


@shared_task(acks_late=True, ignore_result=True)
def lock_decklists_at_deadline(event_id: int, deadline: float | None = None) -> int:
    """Lock the legal decklists of an event whose deadline has passed.

    Queued for the deadline (``deadline``, seconds since the epoch) when it is set or
    changed. A task left from an earlier deadline does nothing; one that comes early (a
    deadline beyond the broker's horizon) queues itself on. The service re-reads the
    deadline under the event's lock, so a late delivery or a second run changes nothing
    it should not. Without ``deadline`` (the sweep) it only locks what is due.
    """
    from django.utils import timezone

    from config.celery import queue_at

    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    current = event.decklist_deadline
    if deadline is not None:
        if current is None or abs(current.timestamp() - deadline) > 0.001:
            return 0  # moved or removed: the task of the new deadline comes
        if timezone.now() < current:
            queue_at(lock_decklists_at_deadline, (event_id, deadline), current)
            return 0
    return decklists.lock_decklists_at_deadline(event)


STANDINGS_DEBOUNCE_SECONDS = 1


@shared_task(acks_late=True, ignore_result=True)
def refresh_standings(event_id: int) -> None:
    """Recompute an event's standings snapshot and tell its pages. Harmless if repeated."""
    cache.delete(_pending_key(event_id))
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    standings.refresh_standings(event)
    live.broadcast_on_commit(event_id, "standings")


def _pending_key(event_id: int) -> str:
    return f"standings-refresh-pending:{event_id}"


def refresh_standings_soon(event_id: int) -> None:
    """Queue one recomputation unless one is already waiting (debounce)."""
    if cache.add(_pending_key(event_id), 1, timeout=60):
        refresh_standings.apply_async((event_id,), countdown=STANDINGS_DEBOUNCE_SECONDS)


@shared_task(acks_late=True, ignore_result=True)
def rate_round(round_id: int) -> int:
    """Count the round's final matches in the ratings. Harmless if run twice: a match is
    counted once (``services.ratings.rate_match``)."""
    cache.delete(_ratings_pending_key(round_id))
    return ratings.rate_round(round_id)


def _ratings_pending_key(round_id: int) -> str:
    return f"ratings-pending:{round_id}"


def rate_round_soon(round_id: int) -> None:
    """Queue the round's ratings unless a task is already waiting (one per burst of results)."""
    if cache.add(_ratings_pending_key(round_id), 1, timeout=60):
        rate_round.apply_async((round_id,), countdown=STANDINGS_DEBOUNCE_SECONDS)


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(IntegrityError, OperationalError),
    retry_backoff=True,
    max_retries=5,
)
def rebuild_ratings(game_system: str) -> int:
    """Replay a game system's ratings from scratch after a rated result changed. Harmless
    if run twice; racing the task of a match just made final, it fails on the unique
    marker (or a deadlock) and changes nothing, and is retried."""
    cache.delete(_rebuild_pending_key(game_system))
    return ratings.rebuild(game_system)


def _rebuild_pending_key(game_system: str) -> str:
    return f"ratings-rebuild-pending:{game_system}"


def rebuild_ratings_soon(game_system: str) -> None:
    """Queue one rebuild of the game's ratings unless one is already waiting."""
    if cache.add(_rebuild_pending_key(game_system), 1, timeout=60):
        rebuild_ratings.apply_async((game_system,), countdown=STANDINGS_DEBOUNCE_SECONDS)


@shared_task(ignore_result=True)
def heartbeat(token: str) -> None:
    """Record that a worker ran this task (worker health, and the embedded-mode test)."""
    cache.set(f"worker-heartbeat:{token}", time.time(), timeout=3600)


@shared_task(ignore_result=True)
def sweep() -> dict[str, int]:
    """Find work whose task was lost and queue it again: every app's steps
    (``tournaments.sweeps``)."""
    from tournaments import sweeps

    return sweeps.sweep()


@shared_task(acks_late=True, ignore_result=True)
def render_printout(key: str) -> str:
    """Make a big printout's PDF from the HTML its request stored under ``key`` and keep
    it in the cache (``services.printouts.render_stored``). Harmless if run twice."""
    from tournaments.services import printouts

    return printouts.render_stored(key)
