"""The websocket Origin check, the same as Django's CSRF check of an HTTP request.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host name with
``ALLOWED_HOSTS``, so a page served on another port of the same host (``http://127.0.0.1:1``)
could open our sockets with the visitor's cookies, where an HTTP POST from it would
fail Django's CSRF check. Here a websocket handshake is let through only when, as for
that check (``django.middleware.csrf``), its Host is allowed and its Origin is exactly
``<scheme>://<Host>`` (scheme, host and port), or is one of ``CSRF_TRUSTED_ORIGINS``.
"""

from __future__ import annotations

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            try:
                return value.decode("latin-1")
            except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes any bytes
                return None
    return None


def _secure(scope) -> bool:
    """As ``HttpRequest.is_secure``: wss, or the proxy's header says the client used TLS."""
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        name, value = proxy
        # Django's META name (HTTP_X_FORWARDED_PROTO) back to the header's own name.
        header = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        return _header(scope, header) == value
    return False


def origin_allowed(scope) -> bool:
    host = _header(scope, b"host")
    origin = _header(scope, b"origin")
    if not host or not origin:
        return False
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    scheme = "https" if _secure(scope) else "http"
    return origin == f"{scheme}://{host}" or origin in settings.CSRF_TRUSTED_ORIGINS


class SameOriginValidator:
    """ASGI middleware: a websocket handshake from another origin is refused (403)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
