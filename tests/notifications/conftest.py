"""Notices' tests: their tasks run at once, in the test (as a worker would run them)."""

from __future__ import annotations

import copy
import uuid

import pytest

from notifications import tasks

TASKS = (
    tasks.notify_round_published,
    tasks.notify_result_reported,
    tasks.remind_decklists,
    tasks.send_notice_email,
)


@pytest.fixture
def worker(monkeypatch):
    """Every notice task queued (``delay``) runs at once, through Celery's ``apply``; the
    calls are recorded as (task name, args)."""
    queued: list[tuple[str, tuple]] = []
    for task in TASKS:

        def run(*args, _task=task):
            queued.append((_task.name.rsplit(".", 1)[-1], args))
            return _task.apply(args=args).get()

        monkeypatch.setattr(task, "delay", run)
    return queued


@pytest.fixture
def own_channel_layer(settings):
    """The real channel layer under a prefix of this test's own (parallel runs share Redis)."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    if "CONFIG" in layers["default"]:
        layers["default"]["CONFIG"]["prefix"] = f"notice-test-{uuid.uuid4().hex[:10]}"
    settings.CHANNEL_LAYERS = layers
    return layers
