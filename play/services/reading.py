"""Reading a game after the fact: its public log and any earlier state, replayed from the
seed and the action log.

A finished game's replay asks for the state at any step, over and over as the viewer
steps back and forth. Rebuilding it from the seed each time costs the whole game up to
that step, so the state after every ``SNAPSHOT_EVERY``-th move of a finished game is
kept in the cache once computed (decision 0057): a step costs at most
``SNAPSHOT_EVERY`` moves from the nearest snapshot below it. A finished game's log never
changes, so a snapshot never goes stale; one lost from the cache is rebuilt on demand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.cache import cache

from engine.core.protocol import LEAVE, GameSystem, State, replay
from play.models import GameSession
from play.services.engines import engine_of

SNAPSHOT_EVERY = 25  # moves between two cached states of a finished game's replay
SNAPSHOT_SECONDS = 6 * 3600  # how long a snapshot stays in the cache unused


def game_log(session: GameSession, upto: int | None = None) -> list[dict[str, Any]]:
    """The public record of the game: who did what (action type) and the events it caused;
    the first ``upto`` actions only when given (a replay's step)."""
    rows = session.actions.order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lt=upto)
    return [
        {"seq": seq, "seat": seat, "type": action.get("type", "?"), "events": events}
        for seq, seat, action, events in rows.values_list("seq", "seat", "action", "events")
    ]


def _decks(session: GameSession) -> list[Any]:
    return list(session.decks) if session.decks else [None] * session.seats.count()


def replay_state(session: GameSession, upto: int | None = None) -> State:
    """The state after the first ``upto`` actions (all of them when ``None``), recomputed
    from the seed and the log; for a finished game, from the nearest cached snapshot."""
    system = engine_of(session.system)
    if upto is not None and session.is_over and session.state is not None:
        return _from_snapshots(system, session, upto)
    return _full_replay(session, upto)


def _full_replay(session: GameSession, upto: int | None) -> State:
    """The state rebuilt from the seed through the whole log up to ``upto``."""
    rows = session.actions.order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lt=upto)
    return replay(
        engine_of(session.system),
        session.config,
        _decks(session),
        session.seed,
        ((r.seat, r.action) for r in rows),
    )


def snapshot_key(session: GameSession, step: int) -> str:
    """The cache key of the state after ``step`` moves of a finished game: the game's
    number, seed, start and length name it, so no other game (nor a database rebuilt
    with the same numbers) can be mistaken for it."""
    started = session.started_at.timestamp() if session.started_at else 0
    return f"replay:{session.pk}:{session.seed}:{started}:{session.seq}:{step}"


def _advance(system: GameSystem, state: State, seat: int, action: dict[str, Any]) -> State:
    """One logged action applied, as ``engine.core.protocol.replay`` applies it."""
    if action.get("type") == LEAVE:
        state, _events = system.leave(state, seat, action.get("reason", "concede"))
    else:
        state, _events = system.apply(state, seat, action)
    return state


def _from_snapshots(system: GameSystem, session: GameSession, upto: int) -> State:
    marks = list(range(SNAPSHOT_EVERY, upto + 1, SNAPSHOT_EVERY))
    found = cache.get_many([snapshot_key(session, m) for m in marks]) if marks else {}
    start, state = 0, None
    for mark in reversed(marks):
        state = found.get(snapshot_key(session, mark))
        if state is not None:
            start = mark
            break
    if state is None:
        state = system.new_game(session.config, _decks(session), session.seed)
    log: Iterable[tuple[int, int, dict[str, Any]]] = (
        session.actions.filter(seq__gte=start, seq__lt=upto)
        .order_by("seq")
        .values_list("seq", "seat", "action")
    )
    for seq, seat, action in log:
        state = _advance(system, state, seat, action)
        if (seq + 1) % SNAPSHOT_EVERY == 0:
            # Stored (pickled) at once: an engine may go on to change ``state`` in place.
            cache.set(snapshot_key(session, seq + 1), state, SNAPSHOT_SECONDS)
    return state
