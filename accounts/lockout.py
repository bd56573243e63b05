"""What a locked-out log-in gets (django-axes, settings ``AXES_*``; docs/security.md).

After ``LOGIN_FAILURE_LIMIT`` failed log-ins for one username from one address, axes
refuses that pair, the right password included, until ``LOGIN_COOLOFF_MINUTES`` have
passed since the last counted failure. A refused form log-in gets the log-in page again
with a message saying how long to wait, status 429 and ``Retry-After``; ``/api/token/``
answers in JSON (``accounts.api``).
"""

from __future__ import annotations

import math
from datetime import timedelta

from axes.helpers import get_client_ip_address, get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext


def time_left(request: HttpRequest, username: str | None) -> timedelta:
    """How long the lockout of ``username`` at the request's address still lasts."""
    cool_off = get_cool_off(request) or timedelta(0)
    ip_address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    last = AccessAttempt.objects.filter(username=username, ip_address=ip_address).aggregate(
        last=Max("attempt_time")
    )["last"]
    if last is None:
        return cool_off
    now = getattr(request, "axes_attempt_time", None) or timezone.now()  # axes' clock
    return max(last + cool_off - now, timedelta(seconds=1))


def lockout_message(left: timedelta) -> str:
    minutes = max(1, math.ceil(left.total_seconds() / 60))
    return ngettext(
        "Too many failed log-ins for this account from your address. "
        "Try again in %(minutes)d minute.",
        "Too many failed log-ins for this account from your address. "
        "Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(request: HttpRequest, *args) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the log-in page with the lockout message (JSON for a
    script), status 429. axes calls it with ``(request, response, credentials)`` from its
    synchronous middleware and ``(request, credentials)`` from its asynchronous one."""
    credentials = next((arg for arg in args if isinstance(arg, dict)), None)
    username = get_client_username(request, credentials)
    left = time_left(request, username)
    message = lockout_message(left)
    retry_after = str(math.ceil(left.total_seconds()))
    if request.headers.get("x-requested-with") == "XMLHttpRequest":
        response = JsonResponse({"detail": message}, status=429)
    else:
        form = AuthenticationForm(request, initial={"username": username or ""})
        next_url = request.POST.get("next") or request.GET.get("next") or ""
        response = render(
            request,
            "registration/login.html",
            {"form": form, "lockout": message, "next": next_url},
            status=429,
        )
    response["Retry-After"] = retry_after
    return response
