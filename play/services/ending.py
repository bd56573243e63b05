"""The end of a game: a player leaving (conceded, out of time), the game finished by the
rules, its result handed to the tournament, and a match settled without the engine.

A finished game of a match records its result there (``tournaments.services``) and, while
the match is undecided, the next game is dealt (``starting.create_match_game``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from engine.core.errors import IllegalAction
from engine.core.protocol import GameResult, GameSystem, leave_action
from play import rows
from play.models import ActionLog, GameSession, SessionSeat
from play.services.clocks import after_change, run_clocks
from play.services.engines import engine_of
from play.services.payloads import push_on_commit
from play.services.sessions import lock_session, session_seats
from play.services.starting import create_match_game
from tournaments.models import Match
from tournaments.results import ResultError, game_placements
from tournaments.services.engine_results import record_engine_result
from tournaments.services.errors import TournamentError

logger = logging.getLogger("gauntlet.play")

# A game called before the rules decided it (a capped demo game, time in a round).
DRAWN = GameResult(finished=True, winners=(), draw=True, eliminated=())


def _result_json(result: GameResult) -> dict[str, Any]:
    return {
        "winners": list(result.winners),
        "draw": result.draw,
        "eliminated": list(result.eliminated),
        "scores": {str(k): v for k, v in dict(result.scores).items()},
    }


def leave_game(
    session: GameSession,
    seats: Sequence[SessionSeat],
    system: GameSystem,
    loser: SessionSeat,
    reason: str,
    now: datetime,
) -> None:
    """A player conceded or ran out of time: they leave the game through the engine
    (``GameSystem.leave``: each system by its own rules), and the departure is logged
    like a move, so a replay rebuilds it. A two-sided game ends with it; in a game of
    more seats the others play on, and the seats' placements follow the order in which
    players left."""
    seq = session.seq
    try:
        state, events = system.leave(session.state, loser.number, reason)
    except IllegalAction:  # out already: nothing more to take from them
        return
    rows.insert(
        ActionLog(
            session_id=session.pk,
            seq=seq,
            seat=loser.number,
            action=leave_action(reason),
            events=events,
        )
    )
    session.state = state
    session.seq = seq + 1
    result = system.result(state)
    if result.finished:
        finish_game(session, seats, result, reason, now)
    else:
        rows.update([session], ["state", "seq", "updated_at"])
        after_change(session, seats, system, now)


def finish_game(
    session: GameSession,
    seats: Sequence[SessionSeat],
    result: GameResult,
    reason: str,
    now: datetime,
) -> None:
    session.set_status(GameSession.Status.FINISHED)
    session.result = _result_json(result)
    session.end_reason = reason
    session.finished_at = now
    session.save(
        update_fields=[
            "state",
            "seq",
            "status",
            "result",
            "end_reason",
            "finished_at",
            "updated_at",
        ]
    )
    run_clocks(session, seats, (), now)  # stops every clock, keeping what is left in the bank
    push_on_commit(session, seats)
    if session.match_id:
        _record_in_match(session, seats, result)


def _match_outcome(
    seats: Sequence[SessionSeat], result: GameResult
) -> tuple[int | None, list[int] | None, list[int | None] | None]:
    """A finished game as the tournament takes it, by match seat.

    The sole winner's match seat (``None`` on a draw or a win shared across match seats;
    teammates share their team's seat), every match
    seat's placement (``tournaments.results.game_placements``: elimination order, rule
    1.3, then the game's scores; a player who conceded or ran out of time is reported as
    eliminated by ``leave_game`` and so places last) and the scores, if the game
    keeps one for every seat.
    """
    by_number = {s.number: s for s in seats}
    winner: int | None = None
    # The winners' match seat: one player's, or one team's (every member seated for it).
    won = {by_number[n].match_seat for n in result.winners if n in by_number}
    if not result.draw and len(won) == 1:
        match_seat = won.pop()
        winner = match_seat.seat if match_seat is not None else None
    numbers = sorted(by_number)
    index = {number: k for k, number in enumerate(numbers)}
    scores = dict(result.scores or {})
    try:
        places = game_placements(
            len(numbers),
            winners=[index[n] for n in result.winners if n in index],
            draw=result.draw,
            eliminated=[index[n] for n in result.eliminated if n in index],
            scores={index[n]: v for n, v in scores.items() if n in index},
        )
    except ResultError as exc:  # a two-player match needs only the winner
        logger.warning("no placements from result %s: %s", result, exc)
        return winner, None, None
    order = sorted(
        numbers,
        key=lambda n: by_number[n].match_seat.seat if by_number[n].match_seat else n,
    )
    placements = [places[index[n]] for n in order]
    seat_scores = [scores.get(n) for n in order] if scores else None
    return winner, placements, seat_scores


def _record_in_match(
    session: GameSession, seats: Sequence[SessionSeat], result: GameResult
) -> None:
    """Hand the game to the tournament; start the next game while the match is undecided."""
    winner, placements, scores = _match_outcome(seats, result)
    try:
        with transaction.atomic():
            match = record_engine_result(
                session.match,
                session.game_number,
                winner_seat=winner,
                placements=placements,
                scores=scores,
            )
    except TournamentError as exc:
        logger.warning("game %s not recorded in match %s: %s", session.pk, session.match_id, exc)
        return
    if match.status == Match.Status.FINAL:
        return
    banks = {s.number: s.time_left for s in seats}
    config = dict(session.config)
    follow = getattr(engine_of(session.system), "next_game_config", None)
    if callable(follow):  # the game's own rule for the next game of a match
        config = dict(follow(config, result))
    create_match_game(
        match,
        session.game_number + 1,
        time_bank=session.time_bank,
        config=config,
        banks=banks,
    )


def end_match_sessions(match_id: int) -> int:
    """The match was settled without the engine (time called, an official's result, the
    players' agreeing reports): end its games still being played; how many were ended.

    Called after the tournament's transaction committed, and again by the sweep, so it
    is harmless twice. A game in progress when time was called becomes a drawn game
    (``Match.Source.TIME``: the tournament counted it as one), any other is aborted.
    Either way the clocks stop (the time used is charged), and the tasks still queued
    for the game (bot moves, clock checks) find it over and change nothing. Each seat's
    page gets the final view.
    """
    match = Match.objects.filter(pk=match_id).only("status", "result_source").first()
    if match is None or match.status != Match.Status.FINAL:
        return 0
    if match.result_source == Match.Source.ENGINE:
        return 0  # the engine decided it: its games end by the rules
    open_ids = list(
        GameSession.objects.filter(
            match_id=match_id,
            status__in=[GameSession.Status.WAITING, GameSession.Status.RUNNING],
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    ended = 0
    for session_id in open_ids:
        with transaction.atomic():
            session = lock_session(session_id)
            if session is None or session.is_over:
                continue
            seats = session_seats(session)
            now = timezone.now()
            was_running = session.status == GameSession.Status.RUNNING
            if was_running and match.result_source == Match.Source.TIME:
                session.set_status(GameSession.Status.FINISHED)
                session.result = _result_json(DRAWN)
                session.end_reason = GameSession.EndReason.TIME
            else:
                session.set_status(GameSession.Status.ABORTED)
                session.end_reason = GameSession.EndReason.ABORTED
            session.finished_at = now
            session.save(
                update_fields=["status", "result", "end_reason", "finished_at", "updated_at"]
            )
            run_clocks(session, seats, (), now)  # stops every clock, charging the time used
            for seat in seats:
                seat.clock_check_at = None
            SessionSeat.objects.filter(session=session).update(clock_check_at=None)
            push_on_commit(session, seats)
            ended += 1
    if ended:
        logger.info("match %s settled without the engine: %s game(s) ended", match_id, ended)
    return ended
