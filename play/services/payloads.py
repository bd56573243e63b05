"""Groups and payloads: what each seat and each spectator of a game is sent, and when.

Every socket of a game joins one channel group (``session_group``). After a change
commits, each seat's own view and the public view are serialised once and pushed in one
message to that group (``push_on_commit``); each socket sends on only its own part
(``play.consumers``), so a hidden card never reaches another player's browser. A refused
move goes back to its own seat only (``push_error_on_commit``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

from config import push
from engine.core.protocol import interrupts
from play.models import GameSession, SessionSeat
from play.services.engines import engine_of


def session_group(session_id: int) -> str:
    """Every socket of a game, players' and spectators'. What is pushed to it carries
    each seat's own view and the public one; each socket sends on only its own part
    (``play.consumers``), so a change costs one message to the channel layer."""
    return f"play-{session_id}"


def clocks(
    session: GameSession, seats: Iterable[SessionSeat], now: datetime | None = None
) -> list[dict]:
    now = now or timezone.now()
    out = []
    for seat in seats:
        left = seat.time_left
        if left is not None and seat.deadline is not None:
            left = max(0.0, (seat.deadline - now).total_seconds())
        out.append(
            {
                "seat": seat.number,
                "time_left": None if left is None else round(left, 1),
                "deadline": seat.deadline.isoformat() if seat.deadline else None,
            }
        )
    return out


def payload(
    session: GameSession, seat: int | None, seats: Sequence[SessionSeat] | None = None
) -> dict[str, Any]:
    """What one seat (or a spectator, ``None``) is sent: its own view, never another's."""
    return payloads(session, [seat], seats)[seat]


def payloads(
    session: GameSession,
    numbers: Iterable[int | None],
    seats: Sequence[SessionSeat] | None = None,
) -> dict[int | None, dict[str, Any]]:
    """The payload of each of ``numbers`` (``None``: spectators), sharing what is common.

    The public parts (whose turn, clocks, result, the next game) are worked out once;
    each seat then gets its own view and its legal actions: everything it may do if it is
    to act, else what its game lets it do out of turn (``engine.core.protocol.interrupts``,
    most often nothing).
    """
    system = engine_of(session.system)
    if seats is None:
        seats = list(session.seats.all())
    running = session.status == GameSession.Status.RUNNING and session.state is not None
    to_act = list(system.to_act(session.state)) if running else []
    common = {
        "session": session.pk,
        "seq": session.seq,
        "status": session.status,
        "to_act": to_act,
        "clocks": clocks(session, seats),
        "result": session.result,
        "end_reason": session.end_reason,
        "next": _next_game(session),
    }
    out: dict[int | None, dict[str, Any]] = {}
    for number in numbers:
        if not running or number is None:
            legal = []
        elif number in to_act:
            legal = system.legal_actions(session.state, number)
        else:
            legal = interrupts(system, session.state, number)
        view = None if session.state is None else system.view(session.state, number)
        out[number] = {**common, "seat": number, "view": view, "legal": legal}
    return out


def _next_game(session: GameSession) -> int | None:
    if not session.match_id or not session.is_over:
        return None
    return (
        GameSession.objects.filter(match_id=session.match_id, game_number=session.game_number + 1)
        .values_list("pk", flat=True)
        .first()
    )


def _send(messages: Sequence[tuple[str, dict]]) -> None:
    # A missed push must never undo a stored move; the page catches up.
    push.send(messages)


def push_views(session_id: int) -> None:
    """Send every seat its own view and spectators the public one (call after commit)."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None:
        return
    _push_session(session, list(session.seats.all()))


def _push_session(session: GameSession, seats: Sequence[SessionSeat]) -> None:
    """``push_views`` from rows already in memory (as stored by the transaction just committed)."""
    people = [s.number for s in seats if not s.is_bot]
    data = payloads(session, [*people, None], seats)
    _send([(session_group(session.pk), _update_message(data))])


def _update_message(data: Mapping[int | None, dict[str, Any]]) -> dict[str, Any]:
    """Each view serialised once, here, keyed by seat (``"public"``: spectators): each
    socket of the group sends its own text as it is.

    ``seq``, ``status`` and ``to_act`` (public) ride along so the socket can check the
    next move of its seat without asking the database (``acting.check_move``), and, by
    seat, the actions each seat not to act may take out of turn (``out_of_turn``: seats
    with none are left out; a socket reads only its own seat's).
    """
    views = {
        "public" if number is None else str(number): json.dumps(
            {"type": "update", "data": payload}, separators=(",", ":"), cls=DjangoJSONEncoder
        )
        for number, payload in data.items()
    }
    common = data[None]
    return {
        "type": "play.update",
        "views": views,
        "seq": common["seq"],
        "status": common["status"],
        "to_act": common["to_act"],
        "out_of_turn": {
            str(number): payload["legal"]
            for number, payload in data.items()
            if number is not None and payload["legal"] and number not in common["to_act"]
        },
        # Each running clock's deadline (seconds since the epoch): a socket marks a move
        # taken near it as pending (``acting.queue_move``) without asking the database.
        "deadlines": deadlines(common["clocks"]),
    }


def deadlines(clocks: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Seat (as text) -> its running clock's deadline, in seconds since the epoch."""
    return {
        str(c["seat"]): datetime.fromisoformat(c["deadline"]).timestamp()
        for c in clocks
        if c.get("deadline")
    }


def push_on_commit(session: GameSession, seats: Sequence[SessionSeat]) -> None:
    seats = list(seats)
    transaction.on_commit(lambda: _push_session(session, seats), robust=True)


def push_error_on_commit(session_id: int, seat: int, seq: int, message: str) -> None:
    data = {"session": session_id, "seat": seat, "seq": seq, "error": message}
    transaction.on_commit(
        lambda: _send([(session_group(session_id), {"type": "play.error", "data": data})])
    )
