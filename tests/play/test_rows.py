"""``play.rows``: the statements of a move read and write exactly what the ORM would."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from play import rows
from play.models import ActionLog, GameSession, SessionSeat
from play.services.starting import create_friend_game, join_game

pytestmark = pytest.mark.django_db


def field_values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def game(alice, bob):
    session = create_friend_game(alice, "ascension", time_bank=300)
    join_game(bob, session.invite_token)
    return GameSession.objects.get(pk=session.pk)


def test_select_gives_the_instances_the_orm_gives(game):
    (row,) = rows.select(GameSession, "id", [game.pk])
    assert field_values(row) == field_values(game)
    assert row._state.adding is False and row._state.db == "default"
    seats = rows.select(SessionSeat, "session", [game.pk], order_by="number")
    assert [field_values(s) for s in seats] == [
        field_values(s) for s in game.seats.order_by("number")
    ]
    deadlines = [s.deadline for s in seats if s.deadline is not None]  # whose clock runs
    assert len(deadlines) == 1 and isinstance(deadlines[0], datetime)  # not text
    assert rows.select(GameSession, "id", [0]) == []


def test_select_with_lock_is_for_update_where_the_database_has_row_locks(game):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        rows.select(GameSession, "id", [game.pk], lock=True)
    sql = queries.captured_queries[-1]["sql"]
    assert sql.endswith("FOR UPDATE") == connection.features.has_select_for_update


def test_update_stores_the_fields_named_and_auto_now_only(game):
    before = game.updated_at
    game.seq = 7
    game.state = {"kept": ["as", "json"], "n": 1}
    game.status = GameSession.Status.FINISHED  # not named: not stored
    rows.update([game], ["state", "seq", "updated_at"])
    stored = GameSession.objects.get(pk=game.pk)
    assert (stored.seq, stored.state, stored.status) == (7, game.state, "running")
    assert stored.updated_at > before
    assert stored.updated_at == game.updated_at  # pre_save set it on the instance too


def test_update_of_many_rows_stores_each_its_own_values(game):
    seats = list(game.seats.order_by("number"))
    now = timezone.now()
    seats[0].time_left, seats[0].deadline = 12.5, None
    seats[1].time_left, seats[1].deadline = 99.0, now + timedelta(seconds=99)
    fields = ["time_left", "deadline", "clock_check_at", "pending_move_at"]
    rows.update(seats, fields)
    stored = list(game.seats.order_by("number").values_list("time_left", "deadline"))
    assert stored == [(12.5, None), (99.0, seats[1].deadline)]
    rows.update([], fields)  # nothing to store: no statement


def test_insert_writes_defaults_and_auto_now_add_and_keeps_the_unique_constraint(game):
    rows.insert(ActionLog(session_id=game.pk, seq=0, seat=1, action={"type": "pass"}))
    log = ActionLog.objects.get(session=game)
    assert (log.seq, log.seat, log.action, log.events) == (0, 1, {"type": "pass"}, [])
    assert log.applied_at is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(ActionLog(session_id=game.pk, seq=0, seat=0, action={"type": "again"}))
    assert ActionLog.objects.filter(session=game).count() == 1
