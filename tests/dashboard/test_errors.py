"""Errors are kept for staff: failed requests, failed tasks, the project's own errors."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client

from dashboard import errors, services
from dashboard.models import ErrorRecord
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def broken_site(settings):
    settings.ROOT_URLCONF = "tests.dashboard.failing_urls"


def test_a_failing_request_is_kept_with_its_path_user_and_traceback(
    broken_site, alice, staff_client
):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    assert client.get("/broken/?secret=1").status_code == 500
    (error,) = ErrorRecord.objects.all()
    assert error.source == ErrorRecord.Source.REQUEST
    assert error.logger == "django.request"
    assert (error.method, error.path, error.status_code) == ("GET", "/broken/", 500)
    assert "secret" not in error.path  # the query string is not kept
    assert error.username == "alice"
    assert error.exception == "RuntimeError: the broken page broke for alice"
    assert "broken_page" in error.traceback and "RuntimeError" in error.traceback
    assert error.count == 1

    # Staff find it on the dashboard, in the list and in its own page.
    panel = staff_client.get("/staff/panel/errors/").content.decode()
    assert f'data-error="{error.pk}"' in panel and "the broken page broke for alice" in panel
    assert 'data-figure="errors-last-hour">1<' in panel
    listing = staff_client.get("/staff/errors/").content.decode()
    assert f"/staff/errors/{error.pk}/" in listing
    detail = staff_client.get(f"/staff/errors/{error.pk}/").content.decode()
    assert "GET /broken/" in detail and "broken_page" in detail and "alice" in detail


def test_the_same_failure_again_adds_to_its_count(broken_site, staff_client):
    client = Client(raise_request_exception=False)
    for _ in range(3):
        assert client.get("/broken/").status_code == 500
    (error,) = ErrorRecord.objects.all()
    assert error.count == 3 and error.username == ""
    assert error.last_seen >= error.first_seen
    panel = staff_client.get("/staff/panel/errors/").content.decode()
    assert (
        'data-figure="errors-last-hour">1<' in panel and "different error in the last hour" in panel
    )
    assert "3 times" in panel


def test_a_client_error_is_not_kept(bob):
    client = Client()
    assert client.get("/events/no-such-event/").status_code == 404
    assert client.get("/staff/").status_code == 302
    client.force_login(bob)
    assert client.get("/staff/").status_code == 403
    assert not ErrorRecord.objects.exists()


def test_the_projects_own_error_logs_are_kept_and_warnings_are_not():
    log = logging.getLogger("gauntlet.somewhere")
    log.warning("only a warning")
    log.error("pairing failed for event %s", 7)
    try:
        raise KeyError("seat")
    except KeyError:
        log.exception("lost a seat")
    rows = list(ErrorRecord.objects.order_by("pk"))
    assert [r.message for r in rows] == ["pairing failed for event 7", "lost a seat"]
    assert rows[0].source == ErrorRecord.Source.OTHER and rows[0].exception == ""
    assert rows[1].exception == "KeyError: 'seat'" and "raise KeyError" in rows[1].traceback


def test_only_the_newest_errors_are_kept(settings):
    settings.DASHBOARD_ERROR_RECORDS_KEEP = 3
    log = logging.getLogger("gauntlet.flood")
    for n in range(6):
        log.error("distinct failure number %s", n)
    assert list(ErrorRecord.objects.values_list("message", flat=True)) == [
        "distinct failure number 5",
        "distinct failure number 4",
        "distinct failure number 3",
    ]


def test_an_error_logged_inside_a_broken_transaction_is_written_later(alice):
    log = logging.getLogger("gauntlet.tx")
    with transaction.atomic():
        Event.objects.create(name="A", slug="same-slug", created_by=alice)
        try:
            Event.objects.create(name="B", slug="same-slug", created_by=alice)
        except IntegrityError:
            log.error("could not create the event")  # the transaction cannot write now
            with pytest.raises(Exception):  # noqa: B017 - any database refusal
                Event.objects.count()
        transaction.set_rollback(True)
    assert not ErrorRecord.objects.exists()
    log.error("the next error")
    assert sorted(ErrorRecord.objects.values_list("message", flat=True)) == [
        "could not create the event",
        "the next error",
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the in-memory SQLite test database locks its tables across threads",
)
def test_an_error_logged_in_an_event_loop_is_written_from_a_thread():
    async def fails():
        logging.getLogger("gauntlet.async").error("failed inside the loop")

    asyncio.run(fails())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not ErrorRecord.objects.exists():
        time.sleep(0.05)
    assert list(ErrorRecord.objects.values_list("message", flat=True)) == ["failed inside the loop"]


def test_a_task_failure_record_carries_the_task():
    """What celery.app.trace logs when a task raises (the worker test sends a real one)."""
    try:
        raise ValueError("bad id")
    except ValueError:
        import sys

        exc_info = sys.exc_info()
    data = {
        "hostname": "w1@host", "id": "abc-123", "name": "tournaments.tasks.advance_event",
        "exc": "ValueError('bad id')", "traceback": "Traceback ...", "args": "('x',)",
        "kwargs": "{}", "description": "raised unexpected", "internal": False,
    }  # fmt: skip
    record = logging.LogRecord(
        "celery.app.trace", logging.ERROR, __file__, 1,
        "Task %(name)s[%(id)s] %(description)s: %(exc)s", (data,), exc_info,
    )  # fmt: skip
    record.data = data
    entry = errors.entry_from_record(record)
    assert entry["source"] == "task"
    assert entry["task_name"] == "tournaments.tasks.advance_event"
    assert (entry["task_id"], entry["task_args"], entry["hostname"]) == (
        "abc-123",
        "('x',)",
        "w1@host",
    )
    assert entry["message"].startswith("Task tournaments.tasks.advance_event[abc-123] raised")
    services.record_error(entry)
    assert ErrorRecord.objects.get().where == "tournaments.tasks.advance_event"


def test_error_pages_are_for_staff_only(bob, staff_client):
    client = Client()
    services.record_error({"logger": "gauntlet.x", "message": "m", "fingerprint": "fp"})
    error = ErrorRecord.objects.get()
    assert client.get(f"/staff/errors/{error.pk}/").status_code == 302
    client.force_login(bob)
    assert client.get(f"/staff/errors/{error.pk}/").status_code == 403
    assert staff_client.get(f"/staff/errors/{error.pk}/").status_code == 200
    assert staff_client.get(f"/staff/errors/{error.pk + 1000}/").status_code == 404
