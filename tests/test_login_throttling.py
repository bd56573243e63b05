"""Log-in throttling (django-axes): a username is locked out at one address after
``LOGIN_FAILURE_LIMIT`` failed log-ins, for ``LOGIN_COOLOFF_MINUTES``, on the log-in
page, the admin's and ``/api/token/`` alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

HOME = "192.0.2.10"  # the player's address
ELSEWHERE = "198.51.100.20"
LOGIN = "/accounts/login/"


def log_in(username: str, password: str, address: str = HOME, client=None, **headers):
    client = client or Client()
    response = client.post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )
    return client, response


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def fail(username: str, times: int, address: str = HOME) -> list[int]:
    return [log_in(username, "wrong", address)[1].status_code for _ in range(times)]


@pytest.fixture
def clock(monkeypatch):
    """axes' clock (the time it stamps a request with), moved on by ``clock.advance``."""
    import axes.handlers.proxy

    class Clock:
        offset = timedelta(0)

        def advance(self, delta: timedelta) -> None:
            self.offset += delta

    clock = Clock()
    monkeypatch.setattr(axes.handlers.proxy, "now", lambda: timezone.now() + clock.offset)
    return clock


def test_the_limit_and_cool_off_come_from_the_environment_defaults():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesBackend"


def test_failures_below_the_limit_only_show_the_form_error(make_user):
    make_user("alice")

    statuses = fail("alice", settings.AXES_FAILURE_LIMIT - 1)

    assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    client, response = log_in("alice", "pw-alice")
    assert response.status_code == 302 and logged_in(client)
    # A success clears the count: the next mistakes start from zero.
    assert fail("alice", settings.AXES_FAILURE_LIMIT - 1) == [200] * (
        settings.AXES_FAILURE_LIMIT - 1
    )


def test_the_limit_locks_the_username_out_at_that_address_even_with_the_right_password(
    make_user,
):
    make_user("alice")

    statuses = fail("alice", settings.AXES_FAILURE_LIMIT)

    assert statuses[:-1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert statuses[-1] == 429
    client, response = log_in("alice", "pw-alice")
    assert response.status_code == 429
    assert not logged_in(client)
    page = response.content.decode()
    assert 'id="lockout"' in page
    assert "Too many failed log-ins for this account from your address." in page
    assert "Try again in 15 minutes." in page
    assert 'name="password"' in page and 'value="alice"' in page  # the form, filled in
    assert 0 < int(response["Retry-After"]) <= 15 * 60


def test_the_lockout_message_is_translated(make_user):
    make_user("alice")
    fail("alice", settings.AXES_FAILURE_LIMIT)

    _client, response = log_in("alice", "pw-alice", HTTP_ACCEPT_LANGUAGE="ru")

    assert response.status_code == 429
    page = response.content.decode()
    assert "Слишком много неудачных попыток входа" in page
    assert "Too many failed" not in page


def test_other_users_and_other_addresses_are_not_affected(make_user):
    make_user("alice")
    make_user("bob")
    fail("alice", settings.AXES_FAILURE_LIMIT)

    bob, response = log_in("bob", "pw-bob")  # another user at the same address
    assert response.status_code == 302 and logged_in(bob)
    alice, response = log_in("alice", "pw-alice", ELSEWHERE)  # the same user elsewhere
    assert response.status_code == 302 and logged_in(alice)
    _client, response = log_in("alice", "pw-alice")
    assert response.status_code == 429


def test_the_lockout_ends_after_the_cool_off(make_user, clock):
    make_user("alice")
    fail("alice", settings.AXES_FAILURE_LIMIT)

    clock.advance(settings.AXES_COOLOFF_TIME - timedelta(minutes=1))
    _client, response = log_in("alice", "pw-alice")
    assert response.status_code == 429
    assert "Try again in 1 minute." in response.content.decode()

    # Attempts while locked out do not prolong it: the cool-off runs from the last failure.
    clock.advance(timedelta(minutes=1, seconds=1))
    client, response = log_in("alice", "pw-alice")
    assert response.status_code == 302 and logged_in(client)


def test_the_admin_log_in_is_locked_out_too(make_user):
    make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": "root", "password": "wrong"}, REMOTE_ADDR=HOME)

    response = client.post(
        "/admin/login/", {"username": "root", "password": "pw-root"}, REMOTE_ADDR=HOME
    )

    assert response.status_code == 429
    assert not logged_in(client)


def test_staff_see_and_reset_a_lockout_in_the_admin(make_user):
    make_user("alice")
    fail("alice", settings.AXES_FAILURE_LIMIT)
    root = make_user("root", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(root)

    listing = admin.get("/admin/axes/accessattempt/")
    assert listing.status_code == 200
    assert "alice" in listing.content.decode() and HOME in listing.content.decode()

    attempt = AccessAttempt.objects.get(username="alice", ip_address=HOME)
    assert attempt.failures_since_start == settings.AXES_FAILURE_LIMIT
    deleted = admin.post(
        "/admin/axes/accessattempt/",
        {"action": "delete_selected", "_selected_action": [attempt.pk], "post": "yes"},
    )
    assert deleted.status_code == 302
    assert not AccessAttempt.objects.exists()
    client, response = log_in("alice", "pw-alice")
    assert response.status_code == 302 and logged_in(client)


def test_a_player_cannot_read_the_lockouts(make_user):
    player = make_user("alice")
    client = Client()
    client.force_login(player)

    response = client.get("/admin/axes/accessattempt/")

    assert response.status_code == 302 and "/admin/login/" in response["Location"]


# ---------------------------------------------------------------- /api/token/


def ask_token(username: str, password: str, address: str = HOME):
    return APIClient().post(
        "/api/token/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_the_token_endpoint_locks_out_too_and_answers_in_json(make_user):
    alice = make_user("alice")
    make_user("bob")

    statuses = [ask_token("alice", "wrong").status_code for _ in range(settings.AXES_FAILURE_LIMIT)]

    assert statuses[:-1] == [400] * (settings.AXES_FAILURE_LIMIT - 1)
    assert statuses[-1] == 429
    response = ask_token("alice", "pw-alice")
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Too many failed log-ins for this account")
    assert 0 < int(response["Retry-After"]) <= 15 * 60
    assert not Token.objects.filter(user=alice).exists()
    # Bob at the same address, and Alice elsewhere, still get theirs.
    assert ask_token("bob", "pw-bob").status_code == 200
    assert ask_token("alice", "pw-alice", ELSEWHERE).status_code == 200


def test_a_lockout_on_the_page_holds_for_the_token_endpoint(make_user):
    make_user("alice")
    fail("alice", settings.AXES_FAILURE_LIMIT)

    assert ask_token("alice", "pw-alice").status_code == 429
