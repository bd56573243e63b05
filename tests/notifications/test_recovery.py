"""Notices whose task was lost (the broker was down when a round was published or a result
reported) are made by the sweep, once, within ``NOTIFY_RECOVER_HOURS``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from notifications import tasks
from notifications.models import Notice
from tests.tournaments.factories import make_event
from tournaments import sweeps
from tournaments.models import Round
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.results import report_result

pytestmark = pytest.mark.django_db


def broker_down(*args):
    raise OperationalError("the broker is down")


def later(minutes: float = 5):
    return timezone.now() + timedelta(minutes=minutes)


def test_a_lost_round_notice_is_made_by_the_sweep_once(
    alice, worker, monkeypatch, django_capture_on_commit_callbacks
):
    event, regs = make_event(alice, players=4)
    with monkeypatch.context() as down:
        down.setattr(tasks.notify_round_published, "delay", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            rnd = publish_round(alice, pair_next_round(alice, event))
    assert not Notice.objects.exists()  # the task was never queued

    assert sweeps.sweep()["lost-notices"] == 0  # not late yet
    assert sweeps.sweep(later())["lost-notices"] == 1
    assert ("notify_round_published", (rnd.pk,)) in worker
    told = Notice.objects.filter(kind=Notice.Kind.ROUND_PUBLISHED, key=f"round:{rnd.pk}")
    assert sorted(told.values_list("user_id", flat=True)) == sorted(r.user_id for r in regs)
    assert sweeps.sweep(later())["lost-notices"] == 0  # made: nothing to look for
    assert sweeps.sweep(later(10))["lost-notices"] == 0


def test_a_lost_request_to_confirm_is_made_by_the_sweep(
    alice, worker, monkeypatch, django_capture_on_commit_callbacks
):
    event, _ = make_event(alice, players=2)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.get()
    first, second = [s.registration.user for s in match.seats.order_by("seat")]
    with monkeypatch.context() as down:
        down.setattr(tasks.notify_result_reported, "delay", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            report_result(first, match, [0, 0])
    asked = Notice.objects.filter(kind=Notice.Kind.RESULT_TO_CONFIRM)
    assert not asked.exists()

    assert sweeps.sweep(later())["lost-notices"] == 1
    assert list(asked.values_list("user_id", flat=True)) == [second.pk]
    assert sweeps.sweep(later())["lost-notices"] == 0


def test_a_broker_down_during_the_sweep_leaves_it_to_the_next_and_old_rounds_are_left(
    alice, worker, monkeypatch, django_capture_on_commit_callbacks
):
    event, _ = make_event(alice, players=4)
    with monkeypatch.context() as down:
        down.setattr(tasks.notify_round_published, "delay", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            rnd = publish_round(alice, pair_next_round(alice, event))
        assert sweeps.sweep(later())["lost-notices"] == 0  # refused: nothing claimed
    assert not Notice.objects.exists()
    # Published longer ago than the sweep looks back: left alone.
    Round.objects.filter(pk=rnd.pk).update(published_at=timezone.now() - timedelta(hours=7))
    assert sweeps.sweep(later())["lost-notices"] == 0 and not Notice.objects.exists()
    Round.objects.filter(pk=rnd.pk).update(published_at=timezone.now() - timedelta(hours=1))
    assert sweeps.sweep(later())["lost-notices"] == 1
    assert Notice.objects.filter(key=f"round:{rnd.pk}").count() == 4


def test_a_round_nobody_wants_to_hear_of_is_queued_once(
    alice, worker, monkeypatch, django_capture_on_commit_callbacks
):
    from notifications import services

    event, regs = make_event(alice, players=2)
    for reg in regs:
        services.save_preferences(
            reg.user, ["round_published:browser", "round_published:email"], "en"
        )
    with monkeypatch.context() as down:
        down.setattr(tasks.notify_round_published, "delay", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            publish_round(alice, pair_next_round(alice, event))
    assert sweeps.sweep(later())["lost-notices"] == 1  # its task makes nothing
    assert not Notice.objects.exists()
    assert sweeps.sweep(later())["lost-notices"] == 0  # and it is not queued again
