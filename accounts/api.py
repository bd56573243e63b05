"""``POST /api/token/``: username and password for an API token, throttled twice over.

DRF's own view takes no throttle at all; this one counts attempts per address
(``config.throttles.TokenThrottle``, ``API_THROTTLE_TOKEN``) on top of the API's
anonymous and per-user rates, and answers a username locked out by django-axes at this
address (``accounts.lockout``) with 429 and ``Retry-After`` rather than a plain 400.
"""

from __future__ import annotations

import math

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.settings import api_settings

from accounts.lockout import lockout_message, time_left
from config.throttles import TokenThrottle


class LockedOut(exceptions.APIException):
    """429 with the lockout message; ``wait`` becomes the Retry-After header."""

    status_code = 429
    default_code = "locked_out"

    def __init__(self, detail: str, wait: int) -> None:
        super().__init__(detail)
        self.wait = wait


class ObtainToken(ObtainAuthToken):
    throttle_classes = [*api_settings.DEFAULT_THROTTLE_CLASSES, TokenThrottle]

    @extend_schema(
        summary="Get an API token",
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            400: OpenApiResponse(description="Wrong username or password."),
            429: OpenApiResponse(
                description="Too many attempts from this address, or this username is "
                "locked out here after failed log-ins (see Retry-After)."
            ),
        },
    )
    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except exceptions.ValidationError:
            # axes marks the request it refused (or whose failure reached the limit).
            if getattr(request, "axes_locked_out", False):
                username = request.data.get("username") if hasattr(request.data, "get") else None
                left = time_left(request, username)
                raise LockedOut(lockout_message(left), math.ceil(left.total_seconds())) from None
            raise


obtain_token = ObtainToken.as_view()
