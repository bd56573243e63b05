"""A worker killed while it applies an action: the action is applied exactly once.

A real Celery worker process (``celery worker -P solo``) runs against the test database
and Redis. A test-only hook (``PLAY_TEST_SLEEP_AT_SEQ``) makes it pause inside the
transaction of one action, after the engine ran and before anything is stored; the test
SIGKILLs it there, starts a second worker, and checks that the message came back
(``acks_late`` + ``reject_on_worker_lost``) and was applied once, and that a duplicate
delivery of the same ``(session, seq)`` changes nothing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from engine.ascension.game import SYSTEM
from play import tasks
from play.models import ActionLog, GameSession
from play.services.reading import replay_state
from play.services.starting import create_friend_game, join_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs a database another process can open"
    ),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis as the broker"),
]

WORKER = """
import sys
from config.celery import app
app.conf.broker_transport_options = {
    "visibility_timeout": float(sys.argv[1]),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
app.worker_main(sys.argv[2:])
"""


def database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def start_worker(
    queue: str, log: Path, *, visibility: float, env: dict[str, str]
) -> subprocess.Popen:
    args = [
        "worker", "-P", "solo", "-Q", queue, "-n", f"{queue}-{uuid.uuid4().hex[:6]}@%h",
        "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "INFO",
    ]  # fmt: skip
    full_env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": os.environ["REDIS_URL"],
        "PYTHONUNBUFFERED": "1",
        **env,
    }
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-c", WORKER, str(visibility), *args],
            cwd=settings.BASE_DIR,
            env=full_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def wait_for(check, timeout: float, what: str, log: Path):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{tail}")


def stop(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)


def test_a_worker_killed_mid_action_leaves_the_action_applied_exactly_once(alice, bob, tmp_path):
    session = create_friend_game(alice, "ascension", time_bank=None)
    session = join_game(bob, session.invite_token)
    session = GameSession.objects.get(pk=session.pk)
    (seat,) = SYSTEM.to_act(session.state)
    action = SYSTEM.legal_actions(session.state, seat)[0]
    expected, _events = SYSTEM.apply(session.state, seat, action)
    queue = f"play-reliability-{uuid.uuid4().hex[:10]}"
    marker = tmp_path / "sleeping"
    log = tmp_path / "worker.log"
    first = second = None
    try:
        first = start_worker(
            queue,
            log,
            visibility=3600,
            env={"PLAY_TEST_SLEEP_AT_SEQ": "0:120", "PLAY_TEST_SLEEP_MARKER": str(marker)},
        )
        tasks.apply_action.apply_async((session.pk, seat, 0, action), queue=queue)
        wait_for(
            lambda: marker.exists() and marker.read_text().strip(),
            60,
            "the worker to pause mid-action",
            log,
        )
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        # Killed inside the transaction: nothing was stored.
        session.refresh_from_db()
        assert session.seq == 0
        assert not ActionLog.objects.filter(session=session).exists()

        second = start_worker(queue, log, visibility=2, env={})
        wait_for(
            lambda: GameSession.objects.get(pk=session.pk).seq == 1,
            90,
            "the redelivered action",
            log,
        )
        # The same message delivered once more (a duplicate), then the next move.
        tasks.apply_action.apply_async((session.pk, seat, 0, action), queue=queue)
        session.refresh_from_db()
        (next_seat,) = SYSTEM.to_act(session.state)
        next_action = SYSTEM.legal_actions(session.state, next_seat)[0]
        tasks.apply_action.apply_async((session.pk, next_seat, 1, next_action), queue=queue)
        wait_for(lambda: GameSession.objects.get(pk=session.pk).seq == 2, 60, "the next move", log)
    finally:
        stop(first)
        stop(second)
    session.refresh_from_db()
    rows = list(ActionLog.objects.filter(session=session).values_list("seq", "seat", "action"))
    assert rows == [(0, seat, action), (1, next_seat, next_action)]
    after_first, _ = SYSTEM.apply(expected, next_seat, next_action)
    assert session.state == after_first
    assert replay_state(session) == session.state
