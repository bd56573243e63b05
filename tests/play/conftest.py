"""Fixtures of the play tests (plain helpers are in ``helpers.py``)."""

from __future__ import annotations

import copy
import uuid

import pytest

from play import consumers, tasks
from play.services import acting


@pytest.fixture
def own_channel_layer(settings):
    """The real channel layer under a prefix of this test's own (parallel runs share Redis)."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    if "CONFIG" in layers["default"]:
        layers["default"]["CONFIG"]["prefix"] = f"play-test-{uuid.uuid4().hex[:10]}"
    settings.CHANNEL_LAYERS = layers
    return layers


@pytest.fixture
def queued(monkeypatch, django_capture_on_commit_callbacks):
    """The moves handed to workers, in order (instead of the broker); a move queued
    inside the test's transaction is handed over at once, as at its commit."""
    moves: list[tuple] = []
    monkeypatch.setattr(tasks.apply_action, "delay", lambda *args: moves.append(args))
    real = acting.queue_move

    def queue_move(*args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            real(*args, **kwargs)

    # Where it is looked up: the view's path (``submit_action``) and the socket's.
    monkeypatch.setattr(acting, "queue_move", queue_move)
    monkeypatch.setattr(consumers, "queue_move", queue_move)
    return moves
