"""Fixtures of the play tests (plain helpers are in ``helpers.py``)."""

from __future__ import annotations

import copy
import uuid

import pytest


@pytest.fixture
def own_channel_layer(settings):
    """The real channel layer under a prefix of this test's own (parallel runs share Redis)."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    if "CONFIG" in layers["default"]:
        layers["default"]["CONFIG"]["prefix"] = f"play-test-{uuid.uuid4().hex[:10]}"
    settings.CHANNEL_LAYERS = layers
    return layers
