"""Queue lengths read from the real Redis broker, and a real worker process answering
the dashboard's probe, naming itself to ``inspect`` and failing a task into the errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from dashboard import broker
from dashboard.models import ErrorRecord
from tournaments.tasks import advance_event, heartbeat

needs_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs Redis as the broker"
)


def waiting_in(figures: dict, name: str) -> int:
    return next(q["waiting"] for q in figures["queues"] if q["name"] == name)


@pytest.fixture
def routed_queue():
    """A queue of this test's own, configured as the heartbeat task's route (the messages
    are sent to it explicitly: the router read the routes when it was first used). No
    worker elsewhere on this Redis takes the messages counted."""
    from config.celery import app

    name = f"dashboard-count-{uuid.uuid4().hex[:8]}"
    old = app.conf.task_routes
    app.conf.task_routes = {"tournaments.tasks.heartbeat": {"queue": name}}
    yield name
    app.conf.task_routes = old
    redis.Redis.from_url(os.environ["REDIS_URL"]).delete(name, f"{name}\x06\x169")


@needs_redis
def test_queue_lengths_count_messages_waiting_in_redis(routed_queue):
    before = broker.queue_figures()
    assert before["mode"] == "redis" and before["error"] == ""
    assert [q["name"] for q in before["queues"]] == ["celery", routed_queue]
    assert waiting_in(before, routed_queue) == 0
    for n in range(3):
        heartbeat.apply_async((f"queued-{n}",), expires=60, queue=routed_queue)
    # kombu's priority sub-queue of the same queue
    heartbeat.apply_async(("urgent",), expires=60, priority=9, queue=routed_queue)
    after = broker.queue_figures()
    assert waiting_in(after, routed_queue) == 4
    assert isinstance(after["unacked"], int)


@needs_redis
def test_an_unreachable_broker_is_reported_not_raised(settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    figures = broker.queue_figures()
    assert figures["error"] and figures["queues"] == []


def test_queues_routed_elsewhere_are_listed(settings):
    from config.celery import app

    old = app.conf.task_routes
    app.conf.task_routes = {"play.tasks.*": {"queue": "games"}}
    try:
        assert broker.routed_queues() == ["celery", "games"]
    finally:
        app.conf.task_routes = old


# ---------------------------------------------------------------- a real worker

WORKER = """
import sys
from config.celery import app
app.worker_main(sys.argv[1:])
"""


def database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def wait_for(check, timeout: float, what: str, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{tail}")


@needs_redis
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs a database another process can open"
)
def test_a_real_worker_answers_the_probe_shows_in_inspect_and_its_failures_are_kept(
    tmp_path, monkeypatch
):
    queue = f"dashboard-{uuid.uuid4().hex[:10]}"
    name = f"{queue}@test"
    monkeypatch.setattr(broker, "PROBE_QUEUE", queue)
    keys = broker.probe_keys()  # this queue's own, untouched by dashboards elsewhere
    assert keys["token"].endswith(queue)
    cache.delete_many([*keys.values(), broker.INSPECT_KEY])

    # No worker yet: the probe goes out and nobody answers it.
    first = broker.worker_figures()
    assert first["mode"] == "redis"
    assert first["heartbeat"]["status"] == "waiting"
    assert not any(w["name"] == name for w in first["workers"])
    sent = cache.get(keys["sent"])
    # Thirty seconds on, still unanswered: the workers are called silent (no waiting here:
    # the figures are read as of a later moment).
    assert broker.worker_figures(sent + broker.PROBE_LATE + 1)["heartbeat"]["status"] == "silent"

    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": os.environ["REDIS_URL"],
        "PYTHONUNBUFFERED": "1",
    }
    args = [
        "worker", "-P", "solo", "-Q", queue, "-n", name,
        "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "INFO",
    ]  # fmt: skip
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, *args],
            cwd=settings.BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        # The worker takes the waiting probe and writes the time back.
        answered = wait_for(
            lambda: (f := broker.worker_figures())["heartbeat"]["status"] == "ok" and f,
            60, "the worker to answer the probe", log,
        )  # fmt: skip
        assert answered["heartbeat"]["latency"] >= 0
        assert answered["heartbeat"]["last_seen_age"] is not None
        # The next probe goes out 15 s on; while it travels the workers still count as
        # answering, and they would be silent if it were not run within 30 s.
        later = time.time() + broker.PROBE_EVERY + 1
        cache.delete(keys["lock"])
        assert broker.worker_figures(later)["heartbeat"]["status"] == "ok"
        assert broker.worker_figures(later + broker.PROBE_LATE)["heartbeat"]["status"] == "silent"

        def this_worker():
            cache.delete(broker.INSPECT_KEY)  # ask again rather than read the last answers
            return [w for w in broker.worker_figures()["workers"] if w["name"] == name]

        listed = wait_for(this_worker, 30, "the worker in inspect stats", log)
        assert listed[0]["pid"] == proc.pid

        # A task that fails in the worker process is kept, with the task named.
        advance_event.apply_async(("not-an-id",), queue=queue)
        error = wait_for(
            lambda: ErrorRecord.objects.filter(source=ErrorRecord.Source.TASK).first(),
            60, "the failed task in the errors", log,
        )  # fmt: skip
        assert error.task_name == "tournaments.tasks.advance_event"
        assert "not-an-id" in error.task_args
        assert error.exception.startswith("ValueError")
        assert error.hostname == name
        assert "advance_event" in error.traceback
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        redis.Redis.from_url(os.environ["REDIS_URL"]).delete(queue)
        cache.delete_many(list(keys.values()))  # the times above were in the future


@needs_redis
@pytest.mark.django_db
def test_the_celery_panel_says_what_failed_when_redis_is_down(settings, staff_client):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    response = staff_client.get("/staff/panel/celery/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "The broker could not be read:" in html
    assert "The probe could not be sent:" in html
    assert 'data-heartbeat="unknown"' in html
