"""Reading a game: its public log, the latest part of it the live table shows, and any
earlier state, replayed from the seed and the action log.

The live table (``table_log``) never replays: the current state is the one stored on the
session row, written with the log row of the move in one transaction under the row
lock. What it needs of the log is the last ``TABLE_LOG_ROWS`` moves and the card
instances the public events of the whole game named (``named_by_events``: a label may
name a card seen once, long ago). That fold of the log's first ``m`` moves, for every
``m`` a multiple of ``SNAPSHOT_EVERY``, is kept in the cache (decision 0065): a logged
move never changes, so neither does the fold of the moves before it, and a load reads
only the moves since the latest such mark. A fold lost from the cache (or a cache that
does not answer) is rebuilt from the log.

A finished game's replay asks for the state at any step, over and over as the viewer
steps back and forth. Rebuilding it from the seed each time costs the whole game up to
that step, so the state after every ``SNAPSHOT_EVERY``-th move of a finished game is
kept in the cache once computed (decision 0057): a step costs at most
``SNAPSHOT_EVERY`` moves from the nearest snapshot below it. A finished game's log never
changes, so a snapshot never goes stale; one lost from the cache is rebuilt on demand.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from engine.core.describe import named_by_events
from engine.core.protocol import LEAVE, GameSystem, State, replay
from play.models import GameSession
from play.services.engines import engine_of

logger = logging.getLogger("gauntlet.play")

SNAPSHOT_EVERY = 25  # moves between two cached states of a finished game's replay
SNAPSHOT_SECONDS = 6 * 3600  # how long a snapshot stays in the cache unused
TABLE_LOG_ROWS = 60  # the moves the live table's log shows, the latest


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


@dataclass(frozen=True)
class TableLog:
    """What the live table shows of the log: the last moves before ``total`` (as
    ``game_log`` gives them, oldest first) and the card instances the events of every
    move before the first of them named (``named_by_events``)."""

    rows: list[dict[str, Any]]
    named: dict[int, str]
    total: int


def named_key(session: GameSession, step: int) -> str:
    """The cache key of what the public events of the first ``step`` moves named: the
    game's number, seed and start name it (never its length: a running game's first
    ``step`` moves are the same whatever comes after them)."""
    started = session.started_at.timestamp() if session.started_at else 0
    return f"table-named:{session.pk}:{session.seed}:{started}:{step}"


def _cached(keys: list[str]) -> dict[str, Any]:
    try:
        return cache.get_many(keys)
    except Exception:  # the cache down: the log is still there
        logger.warning("cache unreachable reading %s", keys[:1], exc_info=True)
        return {}


def _keep(found: Mapping[str, Any]) -> None:
    try:
        cache.set_many(dict(found), SNAPSHOT_SECONDS)
    except Exception:
        logger.warning("cache unreachable storing %s", list(found)[:1], exc_info=True)


def _rows(session: GameSession, start: int, total: int) -> list[dict[str, Any]]:
    rows = session.actions.filter(seq__gte=start, seq__lt=total).order_by("seq")
    return [
        {"seq": seq, "seat": seat, "type": action.get("type", "?"), "events": events}
        for seq, seat, action, events in rows.values_list("seq", "seat", "action", "events")
    ]


def _events(rows: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    return (e for row in rows for e in row["events"] if isinstance(e, Mapping))


def table_log(
    session: GameSession, shown: int = TABLE_LOG_ROWS, total: int | None = None
) -> TableLog:
    """The last ``shown`` moves of the first ``total`` (all the session's when ``None``)
    and what the events of the moves before them named, equal to reading the whole log
    (``game_log`` and ``named_by_events`` of it) but for the rows left out.

    The fold at the latest multiple ``mark`` of ``SNAPSHOT_EVERY`` at or before the first
    row shown comes from the cache (or the one ``SNAPSHOT_EVERY`` before it, the mark of
    the loads of the last ``SNAPSHOT_EVERY`` moves); one database read takes the moves
    from there. With neither cached (a new game, a cache emptied or down), the events of
    the moves before ``mark`` are read and folded, and the fold is stored.
    """
    total = session.seq if total is None else total
    start = max(0, total - shown)
    mark = start - start % SNAPSHOT_EVERY
    named: dict[int, str] = {}
    base = 0
    if mark:
        keys = [named_key(session, m) for m in (mark, mark - SNAPSHOT_EVERY) if m > 0]
        found = _cached(keys)
        for step, key in zip((mark, mark - SNAPSHOT_EVERY), keys, strict=False):
            if key in found:
                named, base = found[key], step
                break
        if base == 0:
            named = _fold_from_log(session, mark)
            base = mark
    rows = _rows(session, base, total)
    if base < mark:  # from the mark before: fold on to this one and keep it
        named = named_by_events(_events(r for r in rows if r["seq"] < mark), named)
        _keep({named_key(session, mark): named})
    named = named_by_events(_events(r for r in rows if max(base, mark) <= r["seq"] < start), named)
    return TableLog([r for r in rows if r["seq"] >= start], named, total)


def _fold_from_log(session: GameSession, upto: int) -> dict[int, str]:
    """What the events of the first ``upto`` moves named, read from the log and kept."""
    rows = session.actions.filter(seq__lt=upto).order_by("seq").values_list("events", flat=True)
    named = named_by_events(
        e for events in rows.iterator(chunk_size=500) for e in events if isinstance(e, Mapping)
    )
    _keep({named_key(session, upto): named})
    return named
