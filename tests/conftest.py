"""Shared fixtures: a small cast of users with different rights, and a clean Redis."""

from __future__ import annotations

import contextlib
import os

import pytest
from hypothesis import settings

# `make test` (and so CI) runs the property tests with examples derived from each test,
# the same on every run, so a landing never depends on the luck of a draw; run pytest
# without HYPOTHESIS_PROFILE=ci to explore new random examples.
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    """Start each run with an empty test Redis database (tasks left by an earlier run).

    Done once, in the controlling process, before any xdist worker starts.
    """
    url = os.environ.get("REDIS_URL")
    if url and not hasattr(config, "workerinput"):
        import redis

        with contextlib.suppress(redis.RedisError):
            redis.Redis.from_url(url).flushdb()


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(username=username, password="pw-" + username, **extra)

    return make


@pytest.fixture
def alice(make_user):
    """Organiser of the events she creates."""
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie")


@pytest.fixture
def dave(make_user):
    return make_user("dave")
