"""Fixtures and the ``rule`` marker for the «Восхождение» engine tests."""

from __future__ import annotations

import pytest

from tests.engine.voskhozhdenie.helpers import new_system


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "rule(*ids): the rule numbers and checklist ids (CK-nnn) a test checks"
    )


@pytest.fixture
def system():
    return new_system()
