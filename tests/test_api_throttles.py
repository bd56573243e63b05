"""The REST API's request rates (config.throttles): 429 with a JSON message and
Retry-After past the rate, per address for anonymous clients, per user for logged-in
ones, with the counts in the local-memory cache (embedded mode) and in Redis."""

from __future__ import annotations

import copy

import pytest
from django.core.cache import caches
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from config.env import ImproperlyConfiguredEnv, env_rate

pytestmark = pytest.mark.django_db

LIST = "/api/events/"
ADDRESS = "203.0.113.7"
OTHER_ADDRESS = "203.0.113.8"
LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


@pytest.fixture
def rates(settings):
    """Small rates: 3 anonymous requests a minute, 5 per user, 2 token attempts."""

    def set_rates(anon="3/min", user="5/min", token="2/min"):
        rest = copy.deepcopy(settings.REST_FRAMEWORK)
        rest["DEFAULT_THROTTLE_RATES"] = {"anon": anon, "user": user, "token": token}
        settings.REST_FRAMEWORK = rest

    set_rates()
    return set_rates


def get(client=None, address=ADDRESS, url=LIST):
    return (client or APIClient()).get(url, REMOTE_ADDR=address)


def assert_throttled(response) -> None:
    assert response.status_code == 429
    assert response["Content-Type"].startswith("application/json")
    detail = response.json()["detail"]
    assert detail.startswith("Request was throttled. Expected available in"), detail
    assert 0 < int(response["Retry-After"]) <= 60


@pytest.fixture(params=["locmem", "redis"])
def cache_kind(request, settings):
    """The throttle counts in each kind of cache the settings configure."""
    if request.param == "locmem":
        settings.CACHES = LOCMEM
    elif not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: run with Redis (make test) for the Redis cache")
    else:
        assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
    return request.param


def test_anonymous_requests_past_the_rate_get_429_per_address(rates, cache_kind):
    assert [get().status_code for _ in range(3)] == [200, 200, 200]

    assert_throttled(get())
    assert get(address=OTHER_ADDRESS).status_code == 200  # another visitor
    # The count is kept in the configured cache.
    key = SimpleRateThrottle.cache_format % {"scope": "anon", "ident": ADDRESS}
    assert len(caches["default"].get(key)) == 3


def test_logged_in_users_are_counted_per_user(rates, cache_kind, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client = APIClient()
    client.force_authenticate(alice)

    # Her budget, not the address's: five requests, from two addresses.
    assert [get(client, address=a).status_code for a in [ADDRESS] * 3 + [OTHER_ADDRESS] * 2] == [
        200
    ] * 5
    assert_throttled(get(client))
    other = APIClient()
    other.force_authenticate(bob)
    assert get(other).status_code == 200


def test_a_token_counts_as_its_user(rates, make_user):
    alice = make_user("alice")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")

    assert [get(client).status_code for _ in range(5)] == [200] * 5
    assert_throttled(get(client))


def test_the_count_starts_again_after_the_period(rates, monkeypatch):
    import time

    start = time.time()
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: start)
    assert [get().status_code for _ in range(3)] == [200, 200, 200]
    assert_throttled(get())

    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda self: start + 61)
    assert get().status_code == 200


def test_the_token_endpoint_has_its_own_small_budget_per_address(rates, make_user):
    make_user("alice")
    client = APIClient()

    def ask(password):
        return client.post(
            "/api/token/", {"username": "alice", "password": password}, REMOTE_ADDR=ADDRESS
        )

    assert [ask("wrong").status_code for _ in range(2)] == [400, 400]
    assert_throttled(ask("pw-alice"))  # even the right password: the rate comes first
    assert not Token.objects.exists()


def test_the_api_docs_and_schema_are_throttled_like_the_rest(rates):
    for _ in range(3):
        assert get(url="/api/schema/").status_code == 200
    assert get(url="/api/schema/").status_code == 429


def test_the_default_rates_are_generous_and_read_from_the_environment(monkeypatch):
    from config import settings as module

    rates = module.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert rates == {"anon": "120/min", "user": "600/min", "token": "10/min"}
    monkeypatch.setenv("API_THROTTLE_ANON", "30/Minute")
    assert env_rate("API_THROTTLE_ANON", "120/min") == "30/minute"
    for bad in ("many", "0/min", "10/fortnight", "-1/s"):
        monkeypatch.setenv("API_THROTTLE_ANON", bad)
        with pytest.raises(ImproperlyConfiguredEnv, match="API_THROTTLE_ANON"):
            env_rate("API_THROTTLE_ANON", "120/min")
