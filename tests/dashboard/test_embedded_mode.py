"""Embedded mode (no Redis): the dashboard reads the in-process broker and worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

SCRIPT = r"""
import json, time, django
django.setup()
from django.conf import settings
assert settings.EMBEDDED
from dashboard import broker
from tournaments.tasks import heartbeat

before = broker.queue_figures()
for n in range(3):
    heartbeat.delay(f"queued-{n}")
queued = broker.queue_figures()
idle = broker.worker_figures()  # no worker yet: the probe waits in the queue

from config.embedded import start_embedded_worker
assert start_embedded_worker()
deadline = time.time() + 30
while time.time() < deadline:
    figures = broker.worker_figures()
    if figures["heartbeat"]["status"] == "ok":
        break
    time.sleep(0.1)
heartbeat.apply_async(("later",), countdown=30)
time.sleep(1.0)
later = broker.queue_figures()
print(json.dumps({"before": before, "queued": queued, "idle": idle, "figures": figures, "later": later}))
"""


def test_embedded_mode_reads_the_in_memory_queue_and_the_worker_thread(tmp_path):
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
        timeout=90,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["before"]["mode"] == "embedded"
    waiting = {q["name"]: q["waiting"] for q in out["queued"]["queues"]}
    assert waiting["celery"] == 3
    assert out["idle"]["workers"] == [] and out["idle"]["heartbeat"]["status"] == "waiting"
    figures = out["figures"]
    assert figures["mode"] == "embedded" and figures["heartbeat"]["status"] == "ok"
    (worker,) = figures["workers"]
    assert worker["name"] == "embedded@gauntlet" and worker["running"] is True
    later = out["later"]
    assert later["scheduled"] == 1  # the countdown task waits in the worker for its eta
    assert later["processed"] >= 4  # three queued heartbeats and the probe
    assert {q["name"]: q["waiting"] for q in later["queues"]}["celery"] == 0
