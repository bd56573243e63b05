"""Fixtures for the «Восхождение» engine tests (the ``rule`` marker is in pyproject.toml)."""

from __future__ import annotations

import pytest

from tests.engine.voskhozhdenie.helpers import new_system


@pytest.fixture
def system():
    return new_system()
