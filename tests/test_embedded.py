"""Embedded mode: Celery workers run as threads in the server process, never eagerly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import time, django
django.setup()
from django.conf import settings
from django.core.cache import cache
assert settings.EMBEDDED and settings.CELERY_BROKER_URL.startswith("memory://")
assert not settings.CELERY_TASK_ALWAYS_EAGER
from config.embedded import start_embedded_worker
from tournaments.tasks import heartbeat
assert start_embedded_worker()
sent = time.time()
heartbeat.apply_async(("later",), countdown=1.5)
heartbeat.delay("now")
deadline = time.time() + 20
while time.time() < deadline and cache.get("worker-heartbeat:later") is None:
    time.sleep(0.05)
now_ran, later_ran = cache.get("worker-heartbeat:now"), cache.get("worker-heartbeat:later")
assert now_ran is not None, "the worker thread ran nothing"
assert later_ran is not None, "the scheduled task never ran"
assert later_ran - sent >= 1.4, f"ran after {later_ran - sent:.2f}s, before its countdown"
print("ok", round(now_ran - sent, 2), round(later_ran - sent, 2))
"""


def test_embedded_worker_runs_tasks_in_threads_and_honours_countdown(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'e.sqlite3'}"
    )
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok")
