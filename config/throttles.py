"""Request rates of the REST API (Django REST framework's throttles, docs/security.md).

Anonymous requests are counted by address, logged-in ones by user, and ``/api/token/``
by address on a budget of its own (``accounts.api``). A client over its rate gets 429,
``{"detail": "Request was throttled. Expected available in N seconds."}`` and a
``Retry-After`` header.

The counts live in the default cache: Redis in Redis mode, so that every server process
counts against the same budget, local memory in embedded mode (one process). The rates
are the settings' ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, read when a request
comes (DRF's own classes read them once, at import).
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle


class _CurrentRates:
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonThrottle(_CurrentRates, AnonRateThrottle):
    """Requests of a visitor who is not logged in, per address (scope ``anon``)."""


class UserThrottle(_CurrentRates, UserRateThrottle):
    """Requests of a logged-in user, per user (scope ``user``)."""


class TokenThrottle(_CurrentRates, SimpleRateThrottle):
    """Attempts at ``/api/token/`` per address, whoever is logged in (scope ``token``):
    a cap on guessing passwords of many accounts from one place."""

    scope = "token"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
