"""Celery tasks of the play app: they take ids and JSON, and call one service.

Each carries the ``seq`` it was made for, so a retry after a worker crash (``acks_late``
with ``reject_on_worker_lost``), a late clock or a duplicate bot move changes nothing:
the session row lock serialises them and the ``seq`` check refuses all but the first.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from play.services import acting, starting
from tournaments.models import Round


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def apply_action(
    session_id: int,
    seat: int,
    seq: int,
    action: dict[str, Any],
    submitted_at: float | None = None,
) -> str:
    """Apply one player's action; returns what became of it (applied, stale, illegal, ...).

    ``submitted_at`` (seconds since the epoch, set by the server when the move was taken)
    is when the move counts as made on the clock, however late a worker gets to it.
    """
    return acting.apply_action(session_id, seat, seq, action, submitted_at=submitted_at).status


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_move(session_id: int, seq: int) -> str | None:
    """The bot to act at ``seq`` moves, through the same path as a player's action."""
    applied = acting.run_bot(session_id, seq)
    return applied.status if applied else None


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def clock_expired(session_id: int, seat: int, seq: int) -> bool:
    """Queued with ``eta`` = the acting seat's deadline: out of time loses the game."""
    return acting.flag_time(session_id, seat, seq)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def start_round_games(round_id: int) -> int:
    """A round of an online event was published: deal game 1 of each match. Idempotent."""
    rnd = Round.objects.filter(pk=round_id).select_related("event").first()
    if rnd is None or rnd.status != Round.Status.PUBLISHED:
        return 0
    return len(starting.start_round_games(rnd))
