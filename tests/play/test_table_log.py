"""The live table of a long game reads only the end of its log (decision 0065).

The table shows the state stored on the session row (never replayed) and, of the log,
its last ``TABLE_LOG_ROWS`` moves and the card instances public events of the whole game
named. That fold is cached at every ``SNAPSHOT_EVERY`` moves. What a load shows must be
exactly what reading the whole log shows, whatever the cache holds (all, some, nothing,
or a cache that does not answer), and a move must show on the next load. A finished
game's replay reads the log of each step the same way.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from engine.core import registry
from engine.core.describe import named_by_events
from engine.core.registry import Format, GameSystemInfo
from play import views
from play.decks import deck_for
from play.models import ActionLog, GameSession
from play.services import reading
from play.services.acting import apply_action, concede
from play.services.engines import engine_of
from play.services.payloads import payload
from play.services.reading import (
    SNAPSHOT_EVERY,
    TABLE_LOG_ROWS,
    game_log,
    named_key,
    table_log,
)
from play.services.starting import create_bot_game
from tests.play.helpers import fresh

pytestmark = pytest.mark.django_db

TOY = "highcard-log"


@pytest.fixture(autouse=True)
def toy_game():
    """«High card», the game of ``tests/toygame``, registered for these tests."""
    registry.register(
        GameSystemInfo(
            key=TOY,
            name="High card",
            formats=(Format("standard", "Standard", "Стандарт"),),
            engine="tests.toygame.game:SYSTEM",
            decks="tests.toygame.decks:DECKLISTS",
            casual_format="standard",
            starter_decks=str(Path(__file__).resolve().parents[1] / "toygame" / "starters.txt"),
        )
    )
    yield
    registry.unregister(TOY)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def _dealt(user, system: str, seed: int = 7) -> GameSession:
    """A casual game of ``system`` against a bot, dealt again from ``seed`` (the starter
    decks too), so the same game is played on every run."""
    session = create_bot_game(user, system, "heuristic")
    decks = [deck_for(system, None, seed + n) for n in range(session.seats.count())]
    session.seed, session.decks = seed, decks
    session.state = engine_of(system).new_game(session.config, decks, seed)
    session.save(update_fields=["seed", "decks", "state", "updated_at"])
    return session


def _played(session: GameSession, moves: int, seed: int) -> Iterator[GameSession]:
    """The game played on with seeded random legal moves, stored as the workers store it
    (log row, state and ``seq`` together); ``session`` (changed in place) after each move. A move that would
    end the game is passed over while another exists: the game stays running."""
    system = engine_of(session.system)
    pick = random.Random(seed)
    for _ in range(moves):
        acting = list(system.to_act(session.state))
        if not acting:
            return
        seat = acting[0]
        options = system.legal_actions(session.state, seat)
        pick.shuffle(options)
        for action in options:
            state, events = system.apply(session.state, seat, action)
            if not system.result(state).finished:
                break
        else:
            return
        ActionLog.objects.create(
            session=session, seq=session.seq, seat=seat, action=action, events=events
        )
        session.state, session.seq = state, session.seq + 1
        session.save(update_fields=["state", "seq", "updated_at"])
        yield session


def _play(session: GameSession, moves: int, seed: int) -> None:
    for _ in _played(session, moves, seed):
        pass


def _whole_log_context(session: GameSession, seat: int | None) -> dict:
    """The table as it was built before 0065: from the whole log."""
    system = engine_of(session.system)
    seats = list(session.seats.select_related("user").order_by("number"))
    data = payload(session, seat, seats)
    out = set(system.result(session.state).eliminated) if session.state else set()
    context = views._table_context(
        session, seat, system, data, game_log(session), seats, out, spectate=seat is None
    )
    context["ending"] = views._ending(session, seats, seat, data)
    return context


def _panel(context: dict) -> str:
    return render_to_string("play/_panel.html", context)


def _disturb(session: GameSession, pick: random.Random) -> str:
    """Leave the cache full, emptied, or with some of the game's folds lost."""
    how = pick.choice(["warm", "warm", "flushed", "some lost"])
    if how == "flushed":
        cache.clear()
    elif how == "some lost":
        every = reading.SNAPSHOT_EVERY
        marks = range(every, session.seq + 1, every)
        cache.delete_many([named_key(session, m) for m in marks if pick.random() < 0.5])
    return how


@given(
    events=st.lists(
        st.fixed_dictionaries(
            {"iid": st.integers(0, 12), "card": st.sampled_from(["a", "b", "c"])},
            optional={"type": st.just("x")},
        )
        | st.fixed_dictionaries({"type": st.just("bookkeeping")}),
        max_size=40,
    ),
    cuts=st.lists(st.integers(0, 40), max_size=4),
)
def test_folding_the_events_in_parts_names_what_folding_them_whole_names(events, cuts):
    whole = named_by_events(events)
    named: dict[int, str] = {}
    last = 0
    for cut in sorted(min(c, len(events)) for c in cuts):
        named = named_by_events(events[last:cut], named)
        last = cut
    assert named_by_events(events[last:], named) == whole
    # The first naming of an instance is the one kept.
    for event in events:
        if "iid" in event:
            assert whole[event["iid"]] == next(
                e["card"] for e in events if e.get("iid") == event["iid"]
            )
            break


@pytest.mark.parametrize(
    ("system", "moves", "every", "shown"),
    [
        ("voskhozhdenie", 420, SNAPSHOT_EVERY, TABLE_LOG_ROWS),
        ("berserk", 300, SNAPSHOT_EVERY, TABLE_LOG_ROWS),
        ("voskhozhdenie", 150, 3, 7),  # many marks, a short log shown
        (TOY, 20, 2, 2),  # a game of ten moves at most
    ],
)
def test_the_end_of_the_log_and_what_it_named_equal_the_whole_log_at_every_move(
    alice, monkeypatch, system, moves, every, shown
):
    monkeypatch.setattr(reading, "SNAPSHOT_EVERY", every)
    session = _dealt(alice, system)
    pick = random.Random(f"{system}-{moves}")
    played = [0, *(moved.seq for moved in _played(session, moves, seed=moves))]
    assert session.seq > 3 * shown, session.seq
    whole = game_log(session)
    for total in [*played, *pick.sample(played, min(len(played), 60))]:
        _disturb(session, pick)
        log = table_log(session, shown, total=total)
        assert log.total == total
        assert log.rows == whole[:total][-shown:], total
        events = (e for r in log.rows for e in r["events"] if isinstance(e, dict))
        assert named_by_events(events, log.named) == named_by_events(
            e for r in whole[:total] for e in r["events"] if isinstance(e, dict)
        ), total


@pytest.mark.parametrize(
    ("system", "moves", "step"), [("voskhozhdenie", 700, 37), ("berserk", 400, 29), (TOY, 20, 1)]
)
def test_the_table_a_seat_and_a_spectator_see_is_the_one_the_whole_log_gives(
    client, alice, system, moves, step
):
    session = _dealt(alice, system)
    pick = random.Random(system)
    client.force_login(alice)
    seen = 0
    for _ in _played(session, moves, seed=step):
        if session.seq % step and session.seq != 1:
            continue
        seen += 1
        how = _disturb(session, pick)
        for language in ("en", "ru"):
            for seat in (0, None):
                with translation.override(language):
                    expected = _panel(_whole_log_context(session, seat))
                    got = _panel(views.table_context(session, seat, spectate=seat is None))
                assert got == expected, (session.seq, seat, language, how)
        # And through the page itself.
        page = client.get(reverse("play:table", args=[session.pk])).content.decode()
        assert f'data-seq="{session.seq}"' in page
    assert seen >= 5


def test_a_move_shows_on_the_next_load_and_never_a_stale_table(client, alice):
    session = _dealt(alice, "voskhozhdenie")
    _play(session, 2 * SNAPSHOT_EVERY + TABLE_LOG_ROWS - 1, seed=3)
    system = engine_of(session.system)
    url = reverse("play:table", args=[session.pk])
    client.force_login(alice)
    for _ in range(SNAPSHOT_EVERY + 2):  # across a mark: the fold cached there moves on
        session = fresh(session)
        before = client.get(url).content.decode()  # the cache warmed at this move
        assert f'data-seq="{session.seq}"' in before
        assert f'<li value="{session.seq + 1}">' not in before
        # The next move, applied as the worker applies it (under the row lock).
        seat = next(iter(system.to_act(session.state)))
        action = random.Random(session.seq).choice(system.legal_actions(session.state, seat))
        assert apply_action(session.pk, seat, session.seq, action).status == "applied"
        moved = fresh(session)
        after = client.get(url).content.decode()
        assert f'data-seq="{moved.seq}"' in after
        assert f"{moved.seq} moves" in after
        assert f'<li value="{moved.seq}">' in after  # the move just made heads the log
        with translation.override("en"):
            whole = _whole_log_context(moved, 0)
            assert views.table_context(moved, 0)["log"] == whole["log"]
            assert views.table_context(moved, 0)["view"] == whole["view"]
        if moved.status != GameSession.Status.RUNNING:
            break


def test_a_warm_load_reads_only_the_moves_since_its_mark(alice):
    session = _dealt(alice, "voskhozhdenie")
    _play(session, 500, seed=9)
    total = session.seq
    expected = table_log(session)  # cold: folds the log once and keeps the fold
    start = total - TABLE_LOG_ROWS
    mark = start - start % SNAPSHOT_EVERY
    assert cache.get(named_key(session, mark)) is not None
    # The moves before the mark are no longer needed: without them the table is the same.
    ActionLog.objects.filter(session=session, seq__lt=mark).delete()
    assert table_log(session) == expected


def test_a_cache_that_does_not_answer_falls_back_to_the_whole_log(alice, monkeypatch):
    session = _dealt(alice, "voskhozhdenie")
    _play(session, 300, seed=5)
    expected = _panel(_whole_log_context(session, 0))

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(reading.cache, "get_many", down)
    monkeypatch.setattr(reading.cache, "set_many", down)
    assert _panel(views.table_context(session, 0)) == expected


# ---------------------------------------------------------------- the replay


def _whole_log_replay(session: GameSession, step: int, shown: int | None) -> dict:
    """A replay's step as it was built before it read the end of the log: every move up
    to the step read and folded, the last ``shown`` of them in the log (all: ``None``)."""
    real_log, real_context = views.table_log, views._table_context

    def whole(session, shown=TABLE_LOG_ROWS, total=None):
        return reading.TableLog(game_log(session, total), {}, total)

    def every_row(*args, **kwargs):
        rows = args[4]
        return real_context(*args, **{**kwargs, "log_rows": shown or len(rows)})

    views.table_log, views._table_context = whole, every_row
    try:
        return views.replay_context(session, step)
    finally:
        views.table_log, views._table_context = real_log, real_context


def _frame(context: dict) -> str:
    return render_to_string("play/_replay_frame.html", context)


@pytest.mark.parametrize(("system", "moves", "every"), [("voskhozhdenie", 700, 37), (TOY, 20, 1)])
def test_a_replay_step_is_the_one_the_whole_log_gives(client, alice, dave, system, moves, every):
    session = _dealt(alice, system)
    _play(session, moves, seed=every)
    concede(alice, session)
    session = fresh(session)
    assert session.is_over and session.seq > (TABLE_LOG_ROWS + SNAPSHOT_EVERY if every > 1 else 0)
    pick = random.Random(system)
    steps = sorted({0, 1, session.seq - 1, session.seq, *range(0, session.seq, every)})
    url = reverse("play:replay_step", args=[session.pk])
    for step in steps:
        how = _disturb(session, pick)
        for language in ("en", "ru"):
            with translation.override(language):
                old = _whole_log_replay(session, step, shown=None)
                expected = _frame(_whole_log_replay(session, step, shown=TABLE_LOG_ROWS))
                new = views.replay_context(session, step)
                got = _frame(new)
            assert got == expected, (step, language, how)
            # The same moves, newest first, as the whole log gives the last of them.
            assert new["log"] == old["log"][:TABLE_LOG_ROWS], (step, language)
            assert new["log_total"] == step == len(old["log"])
            # A seat of the game and a spectator see the same public replay.
            for viewer in (alice, dave):
                client.force_login(viewer)
                page = client.get(url, {"step": step}, HTTP_ACCEPT_LANGUAGE=language)
                assert page.content.decode() == expected, (step, language, viewer.username)
