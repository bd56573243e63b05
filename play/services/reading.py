"""Reading a game after the fact: its public log and any earlier state, replayed from the
seed and the action log."""

from __future__ import annotations

from typing import Any

from engine.core.protocol import State, replay
from play.models import GameSession
from play.services.engines import engine_of


def game_log(session: GameSession) -> list[dict[str, Any]]:
    """The public record of the game: who did what (action type) and the events it caused."""
    return [
        {
            "seq": row.seq,
            "seat": row.seat,
            "type": row.action.get("type", "?"),
            "events": row.events,
        }
        for row in session.actions.order_by("seq")
    ]


def replay_state(session: GameSession, upto: int | None = None) -> State:
    """The state after the first ``upto`` actions, recomputed from the seed and the log."""
    system = engine_of(session.system)
    rows = session.actions.order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lt=upto)
    decks = list(session.decks) if session.decks else [None] * session.seats.count()
    return replay(system, session.config, decks, session.seed, ((r.seat, r.action) for r in rows))
