"""Shared fixtures: a small cast of users with different rights, and a clean Redis."""

from __future__ import annotations

import contextlib
import os
import uuid

import pytest
from hypothesis import settings

# `make test` (and so CI) runs the property tests with examples derived from each test,
# the same on every run, so a landing never depends on the luck of a draw; run pytest
# without HYPOTHESIS_PROFILE=ci to explore new random examples. No per-example deadline
# there: speed is the benches' business, and a loaded machine must not fail a property.
settings.register_profile("ci", derandomize=True, deadline=None)
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


# The API's request rates (config.throttles) are out of the way of the suite, whose URL walk
# alone sends hundreds of API requests a minute from one address; the throttle tests set
# their own small rates (tests/test_api_throttles.py), and the defaults are read back in
# tests/test_deploy_settings.py.
SUITE_THROTTLE_RATE = "100000/min"


@pytest.fixture(scope="session", autouse=True)
def _api_rates_out_of_the_way(django_test_environment):
    from django.conf import settings as django_settings
    from django.test.utils import override_settings

    rest = django_settings.REST_FRAMEWORK
    rates = dict.fromkeys(rest["DEFAULT_THROTTLE_RATES"], SUITE_THROTTLE_RATE)
    override = override_settings(REST_FRAMEWORK={**rest, "DEFAULT_THROTTLE_RATES": rates})
    override.enable()
    yield
    override.disable()


@pytest.fixture(autouse=True)
def _own_throttle_counts(monkeypatch):
    """Each test counts its API requests afresh, as it has a database of its own: the
    counts live in the cache, which is Redis, shared by every test process, in `make test`."""
    from rest_framework.throttling import SimpleRateThrottle

    namespace = uuid.uuid4().hex
    monkeypatch.setattr(
        SimpleRateThrottle, "cache_format", f"throttle:{namespace}:%(scope)s:%(ident)s"
    )


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language: a request in Russian leaves its language
    active in the thread, and text rendered outside a request (audit lines, notices)
    follows the active language."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(
            username=username, password="pw-" + username, **extra
        )

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
