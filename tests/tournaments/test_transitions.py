"""Statuses move only along each model's ``TRANSITIONS`` (events, registrations, rounds,
matches), as pods and game sessions do: a listed move works, any other is refused with
``StatusError`` and changes nothing. Then the moves of the services that are easy to
miss (a second check-in, a re-add before the start, a pod back from disputed)."""

from __future__ import annotations

import itertools

import pytest
from django.utils import timezone

from tests.tournaments.factories import make_event, seat_users
from tournaments.models import Event, Match, Registration, Round, StatusError
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.placements import report_placements
from tournaments.services.players import check_in, drop, readd, register

pytestmark = pytest.mark.django_db

MODELS = [Event, Registration, Round, Match]


def moves(allowed: bool):
    """Every (model, before, after) pair the model's table lists, or every one it does not."""
    return [
        pytest.param(model, before, after, id=f"{model.__name__}-{before}-{after}")
        for model in MODELS
        for before, after in itertools.product(model.Status.values, repeat=2)
        if (after in model.TRANSITIONS[before]) == allowed
    ]


def row(model, status: str, organiser):
    """A row of ``model`` stored in ``status`` (arranged directly: this is the state under test)."""
    base = create_event(organiser, name="Transitions")
    if model is Event:
        return Event.objects.create(
            name="Lifecycle",
            slug="lifecycle",
            game_system=base.game_system,
            format=base.format,
            status=status,
        )
    if model is Registration:
        return Registration.objects.create(event=base, display_name="Bob", status=status)
    rnd = Round.objects.create(event=base, number=1, status=status if model is Round else "draft")
    if model is Round:
        return rnd
    return Match.objects.create(round=rnd, table=1, status=status)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_status_has_a_row_in_the_table_and_every_arrow_names_a_status(model):
    assert set(model.TRANSITIONS) == set(model.Status.values)
    for targets in model.TRANSITIONS.values():
        assert set(targets) <= set(model.Status.values)


@pytest.mark.parametrize("model, before, after", moves(allowed=True))
def test_a_move_the_table_lists_is_made(model, before, after, alice):
    obj = row(model, before, alice)
    assert obj.can_move_to(after)
    obj.set_status(after)
    assert obj.status == after
    obj.save(update_fields=["status"])
    obj.refresh_from_db()
    assert obj.status == after


@pytest.mark.parametrize("model, before, after", moves(allowed=False))
def test_a_move_the_table_does_not_list_is_refused_and_changes_nothing(model, before, after, alice):
    obj = row(model, before, alice)
    assert not obj.can_move_to(after)
    with pytest.raises(StatusError, match=f"{before} → {after} is not allowed"):
        obj.set_status(after)
    assert obj.status == before
    obj.save(update_fields=["status"])
    obj.refresh_from_db()
    assert obj.status == before


def test_the_tables_hold_the_lifecycles_of_events_and_rounds():
    assert Event.TRANSITIONS == {
        "registration": ("running",),
        "running": ("finished",),
        "finished": (),
    }
    assert Round.TRANSITIONS == {
        "draft": ("published",),
        "published": ("completed",),
        "completed": (),
    }
    assert Round.statuses_before(Round.Status.COMPLETED) == [Round.Status.PUBLISHED]
    assert Registration.statuses_before(Registration.Status.CHECKED_IN) == [
        Registration.Status.REGISTERED,
        Registration.Status.CHECKED_IN,
        Registration.Status.DROPPED,
    ]


def test_moving_rows_in_the_database_moves_only_those_the_table_allows(alice):
    event = create_event(alice, name="Rounds")
    rounds = {
        status: Round.objects.create(event=event, number=n, status=status)
        for n, status in enumerate(Round.Status.values, start=1)
    }
    now = timezone.now()
    assert Round.objects.filter(event=event).move_to(Round.Status.COMPLETED, completed_at=now) == 1
    for before, rnd in rounds.items():
        rnd.refresh_from_db()
        if before == Round.Status.PUBLISHED:
            assert (rnd.status, rnd.completed_at) == (Round.Status.COMPLETED, now)
        else:
            assert (rnd.status, rnd.completed_at) == (before, None)  # draft stays a draft
    # A compare-and-set: the second of two transactions completing a round moves nothing.
    assert Round.objects.filter(event=event).move_to(Round.Status.COMPLETED) == 0


# ---------------------------------------------------------------- moves of the services


def test_checking_in_twice_leaves_the_player_checked_in(alice, bob):
    event = create_event(alice, name="Check-in")
    reg = register(event, user=bob)
    check_in(bob, reg)
    reg = check_in(bob, reg)  # checked_in → checked_in
    assert reg.status == Registration.Status.CHECKED_IN


def test_a_player_readded_before_the_start_is_registered_again(alice, bob):
    event = create_event(alice, name="Re-add")
    reg = register(event, user=bob)
    drop(alice, reg)  # by the organiser: the registration stays, dropped
    reg = readd(alice, reg)  # dropped → registered
    assert reg.status == Registration.Status.REGISTERED


def test_a_disputed_pod_waits_again_once_the_reports_agree_but_are_not_all_in(alice):
    event, _regs = make_event(
        alice,
        players=8,
        game_system="ascension",
        format="standard",
        players_per_game=4,
        best_of=1,
    )
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.order_by("table").first()
    first, second, *_rest = seat_users(match)
    report_placements(first, match, [1, 2, 3, 4])
    report_placements(second, match, [2, 1, 3, 4])
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    report_placements(second, match, [2, 1, 4, 3])  # disputed → disputed
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    report_placements(second, match, [1, 2, 3, 4])  # disputed → reported: two of four agree
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
