"""The sweep: find work whose task was lost, and queue it again; one entry point for
every app's own sweep.

Tasks are queued after commit and not retried: if the broker was down at that moment
(or a task failed), a bot game would wait forever and a clock would never flag.
``sweep`` runs every ``PLAY_SWEEP_SECONDS`` (a Celery beat schedule in Redis mode, a
timer thread of the process in embedded mode, ``config.embedded``) and runs the steps
each app registered in its ``AppConfig.ready()`` (``register``), each looking for its
own lost work. Today: tournaments (self-running events that did not move on, decklists
past their deadline, final matches not rated, rated results changed since their game's
ratings were built), drafting (overdue pick timers, pods building past their deadline),
play (games of settled matches, stalled bots, lost clocks, undealt rounds), notifications
(pending e-mails, notices of rounds and reports whose task was lost).

Every task a step queues must be harmless late or twice (they carry the ``seq`` or
re-read their deadlines under a row lock). A step claims each finding first, so a
second sweep within ``PLAY_STALL_SECONDS`` queues nothing again: by a compare-and-set
``UPDATE`` of a row's own stamp, or by ``claim`` (an atomic ``cache.add``).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from kombu.exceptions import OperationalError

logger = logging.getLogger("gauntlet.sweep")

SWEEP_SECONDS = 15.0  # how often the sweep runs (PLAY_SWEEP_SECONDS)
STALL_SECONDS = 30.0  # work this late counts as lost (PLAY_STALL_SECONDS)
BATCH = 500  # most findings of one kind per sweep: the next sweep takes the rest

Step = Callable[[datetime, datetime], int]  # (now, cutoff) -> findings queued again
_STEPS: dict[str, Step] = {}


def register(name: str, step: Step) -> None:
    """Add an app's step (from its ``AppConfig.ready()``); registering again replaces it."""
    _STEPS[name] = step


def steps() -> dict[str, Step]:
    return dict(_STEPS)


def sweep_interval() -> float:
    return float(getattr(settings, "PLAY_SWEEP_SECONDS", SWEEP_SECONDS))


def stall_seconds() -> float:
    return float(getattr(settings, "PLAY_STALL_SECONDS", STALL_SECONDS))


class BrokerDown(Exception):
    """The broker refused a task: the sweep stops and the next one retries."""


def queue(send: Callable[[], object]) -> None:
    try:
        send()
    except OperationalError:
        raise BrokerDown from None


def _claim_key(kind: str, pk: int, stamp: datetime | None) -> str:
    # The stamp (when the stalled work was due) makes a later stall of the same row a new claim.
    return f"play-sweep:{kind}:{pk}:{stamp.timestamp() if stamp else 0}"


def claim(kind: str, pk: int, stamp: datetime | None = None) -> bool:
    return cache.add(_claim_key(kind, pk, stamp), 1, timeout=max(1, int(stall_seconds())))


def sweep(now: datetime | None = None) -> dict[str, int]:
    """One pass over every registered step; how many of each kind were queued again."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=stall_seconds())
    found: Counter[str] = Counter()
    registered = steps()
    for name, step in registered.items():
        try:
            found[name] += step(now, cutoff)
        except BrokerDown:
            logger.warning("sweep stopped at %s: the broker is down; the next sweep retries", name)
            break
    if sum(found.values()):
        logger.warning("sweep re-queued lost work: %s", dict(found))
    return {name: found[name] for name in registered}
