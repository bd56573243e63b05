"""A websocket handshake passes the Origin check exactly when an HTTP POST with the same
Host and Origin would pass Django's CSRF check: same scheme, host and port, or a
trusted origin."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.origin import origin_allowed

CASES = [
    ("127.0.0.1:8000", "http://127.0.0.1:8000"),
    ("127.0.0.1:8000", "http://127.0.0.1:1"),  # the right host on another port
    ("127.0.0.1:8000", "http://127.0.0.1"),
    ("127.0.0.1:8000", "https://127.0.0.1:8000"),  # another scheme
    ("localhost", "http://localhost"),
    ("localhost", "http://localhost:80"),
    ("localhost", "http://evil.example"),
    ("evil.example", "http://evil.example"),  # a host that is not allowed
    ("testserver", "null"),
    ("testserver", "http://trusted.example"),
]


def csrf_passes(host: str, origin: str) -> bool:
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/login/", HTTP_HOST="testserver")
    token = page.cookies["csrftoken"].value
    response = client.post(
        "/accounts/login/",
        {"username": "nobody", "password": "x", "csrfmiddlewaretoken": token},
        HTTP_HOST=host,
        HTTP_ORIGIN=origin,
    )
    return response.status_code != 403 and response.status_code != 400


def socket_opens(host: str, origin: str) -> bool:
    from config.asgi import application

    async def attempt() -> bool:
        comm = WebsocketCommunicator(
            application,
            "/ws/events/1/",
            headers=[(b"host", host.encode()), (b"origin", origin.encode())],
        )
        connected, _code = await comm.connect()
        await comm.disconnect()
        return connected

    return async_to_sync(attempt)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("host", "origin"), CASES)
def test_the_socket_origin_check_agrees_with_the_csrf_check(settings, host, origin):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    settings.CSRF_TRUSTED_ORIGINS = ["http://trusted.example"]
    expected = csrf_passes(host, origin)
    scope = {
        "type": "websocket",
        "headers": [(b"host", host.encode()), (b"origin", origin.encode())],
    }
    assert origin_allowed(scope) is expected
    assert socket_opens(host, origin) is expected


def test_the_expected_answers(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    settings.CSRF_TRUSTED_ORIGINS = []

    def allowed(host, origin, scheme="ws", extra=()):
        headers = [(b"host", host.encode()), (b"origin", origin.encode()), *extra]
        return origin_allowed({"type": "websocket", "scheme": scheme, "headers": headers})

    assert allowed("127.0.0.1:8000", "http://127.0.0.1:8000")
    assert not allowed("127.0.0.1:8000", "http://127.0.0.1:1")
    assert not allowed("127.0.0.1:8000", "http://127.0.0.1:8000", scheme="wss")
    assert allowed("127.0.0.1:8000", "https://127.0.0.1:8000", scheme="wss")
    assert not origin_allowed({"type": "websocket", "headers": [(b"host", b"localhost")]})
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = [(b"x-forwarded-proto", b"https")]
    assert allowed("localhost", "https://localhost", extra=proxied)
    assert not allowed("localhost", "http://localhost", extra=proxied)
