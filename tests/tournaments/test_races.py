"""Writes that race are settled by the database (real concurrency on PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.races import run_together
from tests.tournaments.factories import make_event, seat_users
from tournaments.models import Match, Round
from tournaments.services.errors import TournamentError
from tournaments.services.events import add_staff
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.results import enter_result, report_result

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def test_two_organisers_pairing_at_once_make_one_round(alice, bob):
    event, _ = make_event(alice, players=16)
    add_staff(alice, event, bob, "organiser")
    for _ in range(3):
        outcomes = run_together(
            lambda: pair_next_round(alice, event),
            lambda: pair_next_round(bob, event),
        )
        kinds = sorted(kind for kind, _ in outcomes)
        assert kinds == ["error", "ok"], outcomes
        error = next(value for kind, value in outcomes if kind == "error")
        assert isinstance(error, TournamentError)
        assert Round.objects.filter(event=event).count() == 1
        Round.objects.filter(event=event).delete()


def test_both_players_reporting_at_once_end_in_one_final_result(alice):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.get()
    first, second = seat_users(match)
    outcomes = run_together(
        lambda: report_result(first, match, [0, 1, 0]),
        lambda: report_result(second, match, [0, 1, 0]),
    )
    assert all(kind == "ok" for kind, _ in outcomes), outcomes
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.reports.count() == 2 and match.games.count() == 3
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.COMPLETED


def test_organiser_and_player_at_once_leave_one_consistent_result(alice):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    first, _ = seat_users(match)
    outcomes = run_together(
        lambda: enter_result(alice, match, [1, 1]),
        lambda: report_result(first, match, [0, 0]),
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    games = list(match.games.values_list("winner_seat", flat=True))
    assert games == [1, 1]  # the organiser's word stands whichever came first
    if outcomes[1][0] == "error":
        assert "final result" in str(outcomes[1][1])


def test_many_identical_reports_from_one_player_store_one_report(alice):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    first, _ = seat_users(match)
    outcomes = run_together(*[lambda: report_result(first, match, [0, 0]) for _ in range(6)])
    assert all(kind == "ok" for kind, _ in outcomes), outcomes
    assert match.reports.count() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
