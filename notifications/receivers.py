"""What notices the tournament's announcements (``tournaments.announce``) lead to,
connected in ``NotificationsConfig.ready()``. Each receiver runs after the tournament's
transaction committed and only queues a task: the players are found and told there."""

from __future__ import annotations

import logging

from django.contrib.auth.signals import user_logged_in

from notifications import services, tasks
from tournaments import announce

logger = logging.getLogger("gauntlet.notifications")


def _queue(task, *args) -> None:
    try:
        task.delay(*args)
    except Exception:  # the broker is down: the players miss this notice, nothing else
        logger.warning("%s%s not queued", task.name, args, exc_info=True)


def round_published(sender, round_id: int, **kwargs) -> None:
    _queue(tasks.notify_round_published, round_id)


def result_reported(sender, match_id: int, **kwargs) -> None:
    _queue(tasks.notify_result_reported, match_id)


def logged_in(sender, request, user, **kwargs) -> None:
    """Remember the language the user logs in with (their e-mails' language, unless chosen)."""
    services.record_language(user.pk, getattr(request, "LANGUAGE_CODE", None))


def connect() -> None:
    announce.round_published.connect(round_published, dispatch_uid="notifications.round")
    announce.result_reported.connect(result_reported, dispatch_uid="notifications.result")
    user_logged_in.connect(logged_in, dispatch_uid="notifications.language")
