"""The play app's own steps of the sweep (``tournaments.sweeps``, the one entry point):

- games still being played in a match settled without the engine (time, an official);
- running games where a bot is to act and nothing has moved for ``PLAY_STALL_SECONDS``;
- running clocks past their deadline whose check is not due (lost or never queued);
- published rounds of online events with a match whose first game was never dealt.

A game's row is claimed by a compare-and-set ``UPDATE`` of ``updated_at``, a clock by
one of ``clock_check_at``, a round by ``claim``.
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q

from play.models import GameSession, SessionSeat
from tournaments.models import Match, Round
from tournaments.sweeps import BATCH, claim, queue


def _end_settled_games(now: datetime, cutoff: datetime) -> int:
    """Games left running in a match an official or the clock settled (lost after commit)."""
    from play.services.ending import end_match_sessions

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
    from play.services.engines import engine_of

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
            queue(lambda pk=pk, seq=seq: tasks.bot_move.delay(pk, seq))
            queued += 1
    return queued


def _lost_clocks(now: datetime, cutoff: datetime) -> int:
    """A clock ran out more than ``PLAY_STALL_SECONDS`` ago and no check is due: queue one."""
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
            queue(lambda s=session_id, n=number, q=seq: tasks.clock_expired.delay(s, n, q))
            queued += 1
    return queued


def _undealt_rounds(now: datetime, cutoff: datetime) -> int:
    """A published round of an online event with an open match that has no game yet."""
    from play import tasks

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
        if claim("round", pk, published):
            queue(lambda pk=pk: tasks.start_round_games.delay(pk))
            queued += 1
    return queued


def register() -> None:
    from tournaments import sweeps

    sweeps.register("ended", _end_settled_games)
    sweeps.register("bots", _stalled_bots)
    sweeps.register("clocks", _lost_clocks)
    sweeps.register("rounds", _undealt_rounds)
