"""Celery tasks of notices: they take ids, call one service, and are harmless run twice
(a notice is made once per user, kind and object; its e-mail is sent once)."""

from __future__ import annotations

from celery import shared_task

from notifications import services


@shared_task(acks_late=True, ignore_result=True)
def notify_round_published(round_id: int) -> int:
    """A round was published: each of its players hears their table and opponents."""
    return len(services.round_published(round_id))


@shared_task(acks_late=True, ignore_result=True)
def notify_result_reported(match_id: int) -> int:
    """A player reported a result: the players who have not are asked to confirm it."""
    return len(services.result_reported(match_id))


@shared_task(acks_late=True, ignore_result=True)
def remind_decklists() -> int:
    """Players without a decklist hear that the lists of their event are due soon (on a
    beat, ``NOTIFY_SCAN_SECONDS``; in embedded mode the sweep queues it)."""
    return len(services.decklist_reminders())


@shared_task(acks_late=True, ignore_result=True)
def send_notice_email(notice_id: int) -> bool:
    """Send one notice's e-mail, unless it was sent already."""
    return services.mail_notice(notice_id)
