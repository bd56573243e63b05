"""The sweep: find work whose task was lost, and queue it again.

Bot moves, clock checks, round starts and the drafting timers are queued after commit
and never retried: if the broker was down at that moment (or a task failed), a bot game
would wait forever and a clock would never flag. ``sweep`` runs every
``PLAY_SWEEP_SECONDS`` (a Celery beat schedule in Redis mode, a timer thread of the
process in embedded mode, ``config.embedded``) and looks for:

- running games where a bot is to act and nothing has moved for ``PLAY_STALL_SECONDS``;
- running clocks past their deadline whose check is not due (lost or never queued);
- games still being played in a match settled without the engine (time, an official);
- published rounds of online events with a match whose first game was never dealt;
- self-running events whose rounds are all complete and that did not move on;
- draft pods whose timer check is overdue, and pods building decks past their deadline;
- events whose decklist deadline passed with lists the deadline task did not lock.

Every task queued here is one that is harmless late or twice (they carry the ``seq``
or re-read their deadlines under a row lock). Each finding is claimed first, so a
second sweep within ``PLAY_STALL_SECONDS`` queues nothing again: a game's row by a
compare-and-set ``UPDATE`` of ``updated_at``, a clock by one of ``clock_check_at``, a
pod's timers by one of ``timers_due``, the rest by an atomic ``cache.add``.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.utils import timezone
from kombu.exceptions import OperationalError

from play.models import GameSession, SessionSeat

logger = logging.getLogger("gauntlet.play.sweep")

SWEEP_SECONDS = 15.0  # how often the sweep runs (PLAY_SWEEP_SECONDS)
STALL_SECONDS = 30.0  # work this late counts as lost (PLAY_STALL_SECONDS)
BATCH = 500  # most findings of one kind per sweep: the next sweep takes the rest


def sweep_interval() -> float:
    return float(getattr(settings, "PLAY_SWEEP_SECONDS", SWEEP_SECONDS))


def stall_seconds() -> float:
    return float(getattr(settings, "PLAY_STALL_SECONDS", STALL_SECONDS))


class _BrokerDown(Exception):
    pass


def _queue(send: Callable[[], object]) -> None:
    try:
        send()
    except OperationalError:
        raise _BrokerDown from None


def _claim_key(kind: str, pk: int, stamp: datetime | None) -> str:
    # The stamp (when the stalled work was due) makes a later stall of the same row a new claim.
    return f"play-sweep:{kind}:{pk}:{stamp.timestamp() if stamp else 0}"


def _claim(kind: str, pk: int, stamp: datetime | None = None) -> bool:
    return cache.add(_claim_key(kind, pk, stamp), 1, timeout=max(1, int(stall_seconds())))


def sweep(now: datetime | None = None) -> dict[str, int]:
    """One pass; returns how many of each kind were queued again (or ended)."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=stall_seconds())
    found: Counter[str] = Counter()
    steps = (
        ("ended", _end_settled_games),
        ("bots", _stalled_bots),
        ("clocks", _lost_clocks),
        ("rounds", _undealt_rounds),
        ("events", _events_not_advanced),
        ("pods", _overdue_pods),
        ("decklists", _decklists_past_deadline),
    )
    for name, step in steps:
        try:
            found[name] += step(now, cutoff)
        except _BrokerDown:
            logger.warning("sweep stopped at %s: the broker is down; the next sweep retries", name)
            break
    if sum(found.values()):
        logger.warning("sweep re-queued lost work: %s", dict(found))
    return {name: found[name] for name, _step in steps}


def _end_settled_games(now: datetime, cutoff: datetime) -> int:
    """Games left running in a match an official or the clock settled (lost after commit)."""
    from play.services import end_match_sessions
    from tournaments.models import Match

    match_ids = (
        GameSession.objects.filter(
            status__in=[GameSession.Status.WAITING, GameSession.Status.RUNNING],
            match__status=Match.Status.FINAL,
        )
        .exclude(match__result_source=Match.Source.ENGINE)
        .values_list("match_id", flat=True)
        .distinct()[:BATCH]
    )
    return sum(end_match_sessions(match_id) for match_id in list(match_ids))


BOTS_CURSOR_KEY = "play-sweep:bots-after"


def _stalled_bots(now: datetime, cutoff: datetime) -> int:
    """Games with a bot where nothing has moved for a while, ``BATCH`` at a time in id order
    from where the last sweep stopped (wrapping round), so that games waiting on a person
    (a bot game left idle) never keep the ones further on from being looked at."""
    from play import tasks
    from play.services import engine_of

    bots = SessionSeat.objects.filter(session=OuterRef("pk"), is_bot=True)
    candidates = GameSession.objects.filter(
        status=GameSession.Status.RUNNING, updated_at__lt=cutoff
    ).filter(Exists(bots))
    after = cache.get(BOTS_CURSOR_KEY) or 0
    fields = ("pk", "system", "seq", "state", "updated_at")
    found = list(candidates.filter(pk__gt=after).order_by("pk").values_list(*fields)[:BATCH])
    if len(found) < BATCH and after:  # the end reached: go on from the start
        wrapped = candidates.filter(pk__lte=after).order_by("pk").values_list(*fields)
        found += list(wrapped[: BATCH - len(found)])
    last = found[-1][0] if len(found) == BATCH else 0
    cache.set(BOTS_CURSOR_KEY, last, timeout=None)
    queued = 0
    for pk, system, seq, state, stamp in found:
        if state is None:
            continue
        to_act = set(engine_of(system).to_act(state))
        if not SessionSeat.objects.filter(session_id=pk, is_bot=True, number__in=to_act).exists():
            continue  # a person is to act: not the bot's task that is missing
        # Claim: only the sweep whose UPDATE matched the row queues the move.
        claimed = GameSession.objects.filter(pk=pk, seq=seq, updated_at=stamp).update(
            updated_at=now
        )
        if claimed:
            _queue(lambda pk=pk, seq=seq: tasks.bot_move.delay(pk, seq))
            queued += 1
    return queued


def _lost_clocks(now: datetime, cutoff: datetime) -> int:
    """A clock ran out more than ``PLAY_STALL_SECONDS`` ago and no check is due: queue one."""
    from django.db.models import Q

    from play import tasks

    seats = (
        SessionSeat.objects.filter(
            session__status=GameSession.Status.RUNNING,
            deadline__lt=cutoff,
        )
        .filter(Q(clock_check_at__isnull=True) | Q(clock_check_at__lt=cutoff))
        .values_list("pk", "session_id", "number", "session__seq", "clock_check_at")[:BATCH]
    )
    queued = 0
    for pk, session_id, number, seq, due in seats:
        claimed = SessionSeat.objects.filter(pk=pk, clock_check_at=due).update(clock_check_at=now)
        if claimed:
            _queue(lambda s=session_id, n=number, q=seq: tasks.clock_expired.delay(s, n, q))
            queued += 1
    return queued


def _undealt_rounds(now: datetime, cutoff: datetime) -> int:
    """A published round of an online event with an open match that has no game yet."""
    from play import tasks
    from tournaments.models import Match, Round

    undealt = Match.objects.filter(
        round=OuterRef("pk"), is_bye=False, play_sessions__isnull=True
    ).exclude(status=Match.Status.FINAL)
    rounds = (
        Round.objects.filter(
            status=Round.Status.PUBLISHED, event__play_online=True, published_at__lt=cutoff
        )
        .filter(Exists(undealt))
        .values_list("pk", "published_at")[:BATCH]
    )
    queued = 0
    for pk, published in rounds:
        if _claim("round", pk, published):
            _queue(lambda pk=pk: tasks.start_round_games.delay(pk))
            queued += 1
    return queued


def _events_not_advanced(now: datetime, cutoff: datetime) -> int:
    """A self-running event whose last round completed a while ago and nothing followed."""
    from tournaments.models import Event, Round
    from tournaments.tasks import advance_event

    open_rounds = Round.objects.filter(event=OuterRef("pk")).exclude(status=Round.Status.COMPLETED)
    late = Round.objects.filter(event=OuterRef("pk"), completed_at__lt=cutoff)
    events = (
        Event.objects.filter(status=Event.Status.RUNNING, auto_advance=True)
        .filter(Exists(late))
        .exclude(Exists(open_rounds))
        .values_list("pk", flat=True)[:BATCH]
    )
    queued = 0
    for pk in events:
        last = (
            Round.objects.filter(event_id=pk)
            .order_by("-number")
            .values_list("completed_at", flat=True)
            .first()
        )
        if last is None or last >= cutoff:
            continue
        if _claim("event", pk, last):
            _queue(lambda pk=pk: advance_event.delay(pk))
            queued += 1
    return queued


def _overdue_pods(now: datetime, cutoff: datetime) -> int:
    """Drafting pods whose timer check is overdue; pods building decks past their deadline.

    The drafting app's own tasks do the work (``run_timers``, ``finish_building``): they
    re-read the deadlines under the pod's lock, so a check that was not lost after all
    makes no pick twice.
    """
    from django.db.models import Q

    from drafting import tasks as draft_tasks
    from drafting.models import Pod, Seat

    armed = Seat.objects.filter(pod=OuterRef("pk"), pick_deadline__lt=cutoff).exclude(timer_key="")
    drafting = (
        Pod.objects.filter(status=Pod.Status.DRAFTING)
        .filter(
            Q(timers_due__lt=cutoff)
            | Q(timers_due__isnull=True, pk__in=Pod.objects.filter(Exists(armed)).values("pk"))
        )
        .values_list("pk", "timers_due")[:BATCH]
    )
    queued = 0
    for pk, due in drafting:
        claimed = Pod.objects.filter(pk=pk, timers_due=due).update(timers_due=now)
        if claimed:
            _queue(lambda pk=pk: draft_tasks.run_timers.delay(pk))
            queued += 1
    building = Pod.objects.filter(
        status=Pod.Status.BUILDING, build_deadline__lt=cutoff
    ).values_list("pk", "build_deadline")[:BATCH]
    for pk, deadline in building:
        if _claim("building", pk, deadline):
            _queue(lambda pk=pk: draft_tasks.finish_building.delay(pk))
            queued += 1
    return queued


def _decklists_past_deadline(now: datetime, cutoff: datetime) -> int:
    """An event whose decklist deadline passed a while ago with lists still open that the
    deadline task locks (legal or not yet checked): its ``eta`` task was lost."""
    from tournaments.models import Decklist, Event
    from tournaments.tasks import lock_decklists_at_deadline

    open_lists = Decklist.objects.filter(registration__event=OuterRef("pk"), locked=False).exclude(
        is_legal=False
    )
    events = (
        Event.objects.filter(decklist_deadline__lt=cutoff)
        .exclude(status=Event.Status.FINISHED)
        .filter(Exists(open_lists))
        .values_list("pk", "decklist_deadline")[:BATCH]
    )
    queued = 0
    for pk, deadline in events:
        if _claim("decklists", pk, deadline):
            _queue(lambda pk=pk: lock_decklists_at_deadline.delay(pk))
            queued += 1
    return queued
