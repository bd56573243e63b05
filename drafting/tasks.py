"""Celery tasks of the drafting app: they take ids, load rows, call one service.

Each is harmless if it runs late or twice: ``run_timers`` and ``finish_building`` re-read
the deadlines under the pod's row lock, ``auto_pick`` carries the pick number it was
scheduled for.
"""

from __future__ import annotations

from celery import shared_task

from drafting.services import decks, picks


@shared_task(acks_late=True, ignore_result=True)
def run_timers(pod_id: int) -> int:
    """Every pick whose time is up in the pod: bots' picks and players' timers."""
    return picks.run_timers(pod_id)


@shared_task(acks_late=True, ignore_result=True)
def auto_pick(pod_id: int, seat_number: int, pick_number: int) -> str | None:
    """A bot's pick, or the timer's pick for a player who ran out of time (one seat; the
    pods themselves queue ``run_timers``)."""
    pick = picks.auto_pick(pod_id, seat_number, pick_number)
    return pick.card_id if pick else None


@shared_task(acks_late=True, ignore_result=True)
def finish_building(pod_id: int) -> bool:
    """At the deck-building deadline, bots build the decks nobody submitted."""
    return decks.finish_building(pod_id)
