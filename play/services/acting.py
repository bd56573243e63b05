"""Acting: a player's move from the request to the stored state, bots' moves, time
running out, conceding and calling a game off.

Flow of one action: ``submit_action`` (the HTTP view; the socket calls ``check_move``
and ``queue_move`` itself) checks that the user holds a seat that may act now and
enqueues ``play.tasks.apply_action``; the worker runs ``apply_action`` under the
session's row lock. A seat that is not to act may still take the actions its game offers
out of turn (``engine.core.protocol.interrupts``; none for most games), checked and
raced like any move: whichever move the row lock lets in first takes the ``seq``, the
other is stale. A stale ``seq``, any other move out of turn or an illegal action changes
nothing and is answered to its seat only.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from engine.core.errors import IllegalAction
from engine.core.legality import check_shape
from engine.core.protocol import interrupts
from play import rows
from play.models import ActionLog, GameSession, SessionSeat
from play.services.clocks import after_change, schedule_clock
from play.services.ending import DRAWN, finish_game, leave_game
from play.services.engines import bot_action, engine_of, move_limit
from play.services.errors import NotAllowed, PlayError
from play.services.payloads import push_error_on_commit
from play.services.sessions import User, lock_session, seat_of, session_seats

logger = logging.getLogger("gauntlet.play")

# A move taken this close to its seat's deadline is marked pending on the seat until a
# worker applies it, and the clock check waits for it (up to the grace, past the deadline).
PENDING_WINDOW_SECONDS = 15.0
PENDING_GRACE_SECONDS = 60.0
PENDING_RECHECK_SECONDS = 2.0


def parse_seq(value: Any) -> int:
    """A move's ``seq``: a whole number (an int, or its digits as text), nothing else."""
    if type(value) is int and value >= 0:
        return value
    if type(value) is str and value.isascii() and value.isdigit() and len(value) <= 12:
        return int(value)
    raise PlayError(_("seq must be a whole number."))


def check_move(
    seat: int,
    seq: Any,
    action: Any,
    *,
    current: int,
    status: str,
    to_act: Iterable[int],
    out_of_turn: Iterable[dict[str, Any]] = (),
) -> int:
    """The checks made before a move is queued, over what is known of the game; the seq.

    ``out_of_turn``: the actions the seat may take although it is not to act
    (``engine.core.protocol.interrupts``); a seat not to act may send only one of them.
    Pure: the HTTP view gives it the stored row, the websocket what it last relayed to
    that seat. The worker checks again under the row lock, so these only spare a task
    and answer at once.
    """
    seq = parse_seq(seq)
    if not isinstance(action, dict):
        raise PlayError(_('An action is an object with a "type".'))
    try:
        check_shape(action)  # the engine's own first check (engine.core.legality)
    except IllegalAction as exc:
        raise PlayError(str(exc)) from None
    if status != GameSession.Status.RUNNING:
        raise PlayError(_("This game is not being played."))
    if seq != current:
        raise PlayError(_("The game has moved on; look at the table again."))
    if seat not in to_act and action not in list(out_of_turn):
        raise NotAllowed(_("It is not your turn."))
    return seq


def queue_move(
    session_id: int,
    seat: int,
    seq: int,
    action: dict[str, Any],
    deadline: datetime | float | None = None,
) -> None:
    """Hand the move to a worker (``play.tasks.apply_action``); a broker down is an error.

    ``deadline`` is the seat's running clock's, as the caller knows it (the HTTP view from
    the row it read, the socket from the last push). A move taken within
    ``PENDING_WINDOW_SECONDS`` of it is first marked pending on the seat, so a clock check
    that a slow or restarted worker lets run first does not flag a move made in time
    (``flag_time``); other moves cost no query.
    """
    from play import tasks

    # When the move was made: the worker judges it against the clock at this moment.
    now = timezone.now()
    args = (session_id, seat, seq, action, now.timestamp())
    marked = _mark_pending(session_id, seat, now, deadline)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: tasks.apply_action.delay(*args))
        return
    try:
        tasks.apply_action.delay(*args)
    except OperationalError:  # the broker is down: nothing was queued, so nothing changed
        logger.warning("move for session %s at seq %s not queued: broker down", session_id, seq)
        if marked:
            SessionSeat.objects.filter(
                session_id=session_id, number=seat, pending_move_at=now
            ).update(pending_move_at=None)
        raise PlayError(_("The game server cannot take moves right now; try again.")) from None


def _mark_pending(
    session_id: int, seat: int, now: datetime, deadline: datetime | float | None
) -> bool:
    """Near the deadline, record on the seat that a move made at ``now`` is on its way.

    A compare-and-set: the earliest pending move stands (a later one changes nothing).
    """
    if deadline is None:
        return False
    if isinstance(deadline, datetime):
        deadline = deadline.timestamp()
    if deadline - now.timestamp() > PENDING_WINDOW_SECONDS:
        return False
    return bool(
        SessionSeat.objects.filter(
            session_id=session_id, number=seat, pending_move_at__isnull=True
        ).update(pending_move_at=now)
    )


def submit_action(user: User, session: GameSession | int, seq: Any, action: Any) -> int:
    """Check who acts and enqueue the action for a worker; returns the acting seat.

    ``session`` may be the row or its id: the checks read the current row in one query
    (the user's seat, status, ``seq`` and the state whose turn it is).
    """
    session_id = session if isinstance(session, int) else session.pk
    row = None
    if user is not None and user.is_authenticated:
        row = (
            SessionSeat.objects.filter(session_id=session_id, user=user)
            .values_list(
                "number",
                "session__status",
                "session__seq",
                "session__system",
                "session__state",
                "deadline",
            )
            .first()
        )
    if row is None:
        parse_seq(seq)
        raise NotAllowed(_("Only the players of this game can act in it."))
    number, status, current, system_key, state, deadline = row
    running = status == GameSession.Status.RUNNING and state is not None
    system = engine_of(system_key) if running else None
    to_act = system.to_act(state) if system is not None else ()
    # Asked only of a seat that is not to act (most moves cost no more than before).
    extra = interrupts(system, state, number) if running and number not in to_act else ()
    seq = check_move(
        number, seq, action, current=current, status=status, to_act=to_act, out_of_turn=extra
    )
    queue_move(session_id, number, seq, action, deadline)
    return number


@dataclass(frozen=True)
class Applied:
    """What became of one action: ``status`` is applied, stale, over, illegal or not_yours."""

    status: str
    message: str = ""
    seq: int | None = None


def _made_at(submitted_at: float | None, now: datetime) -> datetime:
    """When a move counts as made on the clock: when the server took it, never later than now."""
    if submitted_at is None:
        return now
    try:
        made = datetime.fromtimestamp(float(submitted_at), tz=now.tzinfo)
    except (TypeError, ValueError, OverflowError, OSError):
        return now
    return min(made, now)


def apply_action(
    session_id: int,
    seat: int,
    seq: int,
    action: dict[str, Any],
    *,
    submitted_at: float | None = None,
) -> Applied:
    """Apply one action under the session's row lock (the body of the task).

    ``submitted_at`` is when the server took the move (``queue_move``): the move is
    judged against the acting seat's clock at that moment, and the time it used is
    charged up to then, so a move made in time is not lost on time because a worker
    was slow, or was killed and the move delivered again. Bots' moves carry none.
    """
    with transaction.atomic():
        session = lock_session(session_id)
        if session is None or session.status != GameSession.Status.RUNNING:
            return Applied("over")
        if session.seq != seq:
            # A repeated delivery, or a move made on an old view: that page catches up.
            message = _("The game has moved on; look at the table again.")
            push_error_on_commit(session_id, seat, seq, message)
            if submitted_at is not None:  # a player's move: no longer on its way
                SessionSeat.objects.filter(
                    session_id=session_id,
                    number=seat,
                    pending_move_at__lte=_made_at(submitted_at, timezone.now()),
                ).update(pending_move_at=None)
            return Applied("stale", message, session.seq)
        system = engine_of(session.system)
        seats = session_seats(session)
        now = timezone.now()
        acting = next((s for s in seats if s.number == seat), None)
        made = _made_at(submitted_at, now)
        if acting is None or not _may_act(system, session.state, seat, action):
            if acting is not None:
                _clear_pending(acting, made)
            push_error_on_commit(session_id, seat, seq, _("It is not your turn."))
            return Applied("not_yours", _("It is not your turn."), seq)
        if acting.deadline is not None and acting.deadline <= made:
            leave_game(session, seats, system, acting, GameSession.EndReason.TIME, now)
            return Applied("over", _("Your time ran out."), seq)
        try:
            state, events = system.apply(session.state, seat, action)
        except IllegalAction as exc:
            _clear_pending(acting, made)
            push_error_on_commit(session_id, seat, seq, str(exc))
            return Applied("illegal", str(exc), seq)
        except Exception:  # an engine bug: no input may make the task fail
            logger.exception("engine failed in session %s at seq %s", session_id, seq)
            _clear_pending(acting, made)
            message = _("The rules engine failed on this action; nothing changed.")
            push_error_on_commit(session_id, seat, seq, message)
            return Applied("illegal", message, seq)
        _before_commit_hook(session_id, seq)
        rows.insert(
            ActionLog(session_id=session.pk, seq=seq, seat=seat, action=action, events=events)
        )
        session.state = state
        session.seq = seq + 1
        result = system.result(state)
        _charge_until(acting, () if result.finished else system.to_act(state), made, now)
        _clear_pending(acting, made)
        limit = move_limit()
        if result.finished:
            finish_game(session, seats, result, GameSession.EndReason.RULES, now)
        elif limit is not None and session.seq >= limit:
            # A capped game (the demo): called like time in a round, a drawn game.
            finish_game(session, seats, DRAWN, GameSession.EndReason.TIME, now)
        else:
            rows.update([session], ["state", "seq", "updated_at"])
            after_change(session, seats, system, now)
    return Applied("applied", seq=seq + 1)


def _may_act(system: Any, state: Any, seat: int, action: Any) -> bool:
    """Whether ``seat`` may send ``action`` now: it is to act, or the action is one the
    game lets it take out of turn (``engine.core.protocol.interrupts``)."""
    if seat in system.to_act(state):
        return True
    return action in interrupts(system, state, seat)


def _charge_until(
    acting: SessionSeat, to_act: Iterable[int], made: datetime, now: datetime
) -> None:
    """The mover's clock stopped when the move was made: ``clocks.run_clocks`` then
    charges it up to ``made``, not to the moment a worker got to the move (the deadline it
    charges against moves on by the worker's delay). A clock that runs on (the seat acts
    again) keeps its deadline, as ``clocks.run_clocks`` keeps it."""
    if acting.deadline is None or acting.time_left is None or made >= now:
        return
    if acting.number in set(to_act):
        return
    acting.deadline = acting.deadline + (now - made)


def _clear_pending(acting: SessionSeat, made: datetime) -> None:
    """The seat's pending move (if any, made no later than this one) has been applied.

    Rare (a move near the deadline), so its own UPDATE: ``clocks.run_clocks`` stores a
    seat only when its clock changes."""
    if acting.pending_move_at is None or acting.pending_move_at > made:
        return
    acting.pending_move_at = None
    SessionSeat.objects.filter(pk=acting.pk).update(pending_move_at=None)


def _before_commit_hook(session_id: int, seq: int) -> None:
    """Test-only pause point (``PLAY_TEST_SLEEP_AT_SEQ``): lets a test kill a worker mid-action."""
    import os
    import time

    spec = os.environ.get("PLAY_TEST_SLEEP_AT_SEQ")
    if not spec:
        return
    target, _sep, seconds = spec.partition(":")
    if int(target) == seq:
        marker = os.environ.get("PLAY_TEST_SLEEP_MARKER")
        if marker:
            with open(marker, "a") as fh:
                fh.write(f"{session_id}:{seq}\n")
        time.sleep(float(seconds or 30))


def run_bot(session_id: int, seq: int) -> Applied | None:
    """A bot to act at ``seq`` chooses and applies its action (the body of the task)."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None or session.status != GameSession.Status.RUNNING or session.seq != seq:
        return None
    system = engine_of(session.system)
    to_act = system.to_act(session.state)
    seat = session.seats.filter(is_bot=True, number__in=list(to_act)).order_by("number").first()
    if seat is None:
        return None
    return apply_action(session_id, seat.number, seq, bot_action(session, seat))


def flag_time(session_id: int, seat: int, seq: int) -> bool:
    """The clock task of ``seat`` fell due: if its time has run out, that player loses.

    ``seq`` is the move the task was queued at; what counts is the seat's clock now. If
    the seat is not to act (its clock stopped) the task has nothing to do; if its
    deadline lies ahead the task queues itself for it. Harmless if late or twice.
    """
    with transaction.atomic():
        session = lock_session(session_id)
        if session is None or session.status != GameSession.Status.RUNNING:
            return False
        seats = session_seats(session)
        acting = next((s for s in seats if s.number == seat), None)
        if acting is None:
            return False
        system = engine_of(session.system)
        now = timezone.now()
        running = acting.deadline is not None and seat in system.to_act(session.state)
        if running and acting.deadline <= now and _move_on_its_way(acting, now):
            # A move made in time is still with a worker: look again shortly.
            due = min(
                now + timedelta(seconds=PENDING_RECHECK_SECONDS),
                acting.deadline + timedelta(seconds=PENDING_GRACE_SECONDS),
            )
            acting.clock_check_at = schedule_clock(session.pk, seat, session.seq, due)
            acting.save(update_fields=["clock_check_at"])
            return False
        if running and acting.deadline <= now:
            leave_game(session, seats, system, acting, GameSession.EndReason.TIME, now)
            return True
        # Another task still to come (a second of slack for one delivered a hair early).
        due = acting.clock_check_at
        pending = due is not None and due > now + timedelta(seconds=1)
        if running:
            if pending and due <= acting.deadline:
                return False
            acting.clock_check_at = schedule_clock(session.pk, seat, session.seq, acting.deadline)
        else:
            if pending:
                return False
            acting.clock_check_at = None
        acting.save(update_fields=["clock_check_at"])
    return False


def _move_on_its_way(acting: SessionSeat, now: datetime) -> bool:
    """The seat made a move before its deadline that no worker has applied yet, and the
    grace for it (``PENDING_GRACE_SECONDS`` past the deadline: a lost task) still runs."""
    made = acting.pending_move_at
    return (
        made is not None
        and acting.deadline is not None
        and made < acting.deadline
        and now < acting.deadline + timedelta(seconds=PENDING_GRACE_SECONDS)
    )


def concede(user: User, session: GameSession) -> GameSession:
    """A player gives up the game (at any time, on anyone's turn)."""
    with transaction.atomic():
        session = lock_session(session.pk)
        seat = seat_of(user, session)
        if seat is None:
            raise NotAllowed(_("Only the players of this game can concede it."))
        if session.status != GameSession.Status.RUNNING:
            raise PlayError(_("This game is not being played."))
        system = engine_of(session.system)
        if seat.number in system.result(session.state).eliminated:
            raise PlayError(_("You are out of this game already."))
        seats = session_seats(session)
        acting = next(s for s in seats if s.number == seat.number)
        leave_game(
            session,
            seats,
            system,
            acting,
            GameSession.EndReason.CONCEDE,
            timezone.now(),
        )
    return session


def abort(user: User, session: GameSession) -> GameSession:
    """The creator calls off a casual game that has not started."""
    with transaction.atomic():
        session = lock_session(session.pk)
        if session.created_by_id != getattr(user, "pk", None) or session.match_id:
            raise NotAllowed(_("Only the player who created this game can call it off."))
        if session.status != GameSession.Status.WAITING:
            raise PlayError(_("Only a game that has not started can be called off."))
        session.set_status(GameSession.Status.ABORTED)
        session.end_reason = GameSession.EndReason.ABORTED
        session.finished_at = timezone.now()
        session.save(update_fields=["status", "end_reason", "finished_at", "updated_at"])
    return session


def give_up_seat(user: User, session: GameSession) -> GameSession:
    """A friend who took a seat of a game still waiting gives it back: the seat is open
    again for the invitation (the creator calls the game off instead, ``abort``)."""
    with transaction.atomic():
        session = lock_session(session.pk)
        seat = seat_of(user, session)
        if seat is None:
            raise NotAllowed(_("You have no seat at this table."))
        if session.created_by_id == user.pk:
            raise PlayError(_("You created this game: call it off instead."))
        if session.status != GameSession.Status.WAITING:
            raise PlayError(_("This game has already started: concede it instead."))
        seat.user = None
        seat.save(update_fields=["user"])
        if session.decks and seat.number < len(session.decks):
            decks = list(session.decks)
            decks[seat.number] = None
            session.decks = decks
            session.save(update_fields=["decks", "updated_at"])
    return session
