"""The staff dashboard: one page of panels, each refreshed on its own by htmx, a JSON
twin of the same figures for monitoring, and the errors kept by ``dashboard.errors``.

Staff only (``is_staff``): anonymous visitors are sent to log in, everyone else gets 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAdminUser
from rest_framework.response import Response
from rest_framework.views import APIView

from dashboard import broker, charts, figures
from dashboard.models import ErrorRecord

PANELS = ("events", "pods", "games", "activity", "celery", "errors")
REFRESH_DEFAULT = 10
REFRESH_MIN, REFRESH_MAX = 2, 300


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.headers.get("HX-Request"):
                # A panel refreshing after the session ended: send the whole page to log in.
                response = HttpResponse(status=401)
                response["HX-Redirect"] = f"{reverse('login')}?next={reverse('dashboard:home')}"
                return response
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def _refresh(request: HttpRequest) -> int:
    try:
        every = int(request.GET.get("every", REFRESH_DEFAULT))
    except (TypeError, ValueError):
        every = REFRESH_DEFAULT
    return min(max(every, REFRESH_MIN), REFRESH_MAX)


def _minute_labels(series: list) -> list[str]:
    n = len(series)
    return [f"−{n - 1 - i}" if i < n - 1 else "0" for i in range(n)]


def collect(names: tuple[str, ...] | list[str], *, probe: bool = True) -> dict[str, Any]:
    """The figures of the named panels, each read once."""
    now = timezone.now()
    data: dict[str, Any] = {"now": now}
    activity = None
    if "activity" in names:
        activity = figures.activity_figures(now)
    elif "games" in names:
        activity = {"actions": figures.actions_per_minute(now)}
    if "events" in names:
        data["events"] = figures.events_figures(now)
    if "pods" in names:
        data["pods"] = figures.pods_figures(now)
    if "games" in names:
        data["games"] = figures.games_figures(now, activity["actions"] if activity else None)
    if "activity" in names:
        data["activity"] = activity
    if "celery" in names:
        data["celery"] = {
            "queues": broker.queue_figures(),
            "workers": broker.worker_figures(now.timestamp(), probe=probe),
        }
    if "errors" in names:
        data["errors"] = figures.errors_figures(now)
    return data


def _charts(data: dict[str, Any]) -> dict[str, Any]:
    """Each chart's geometry, and its SVG markup ready for the page."""
    out: dict[str, Any] = {}
    activity = data.get("activity")
    if activity and "picks" in activity:
        labels = {
            "actions": _(
                "Game actions per minute over the last hour: %(n)d in all, at most %(peak)d in a minute"
            ),
            "picks": _(
                "Draft picks per minute over the last hour: %(n)d in all, at most %(peak)d in a minute"
            ),
        }
        for key, label in labels.items():
            series = activity[key]
            chart = charts.bar_chart([n for _m, n in series], _minute_labels(series), tick_every=15)
            out[key] = chart
            # charts.svg escapes every text it writes.
            out[f"{key}_svg"] = mark_safe(
                charts.svg(chart, label % {"n": chart["total"], "peak": chart["peak"]})
            )
    events = data.get("events")
    if events:
        out["rounds"] = {}
        for e in events["events"]:
            per_round = e["games_per_round"]
            chart = charts.bar_chart(
                [r["games"] for r in per_round],
                [str(r["round"]) for r in per_round],
                width=120, height=40, left=18, bottom=12, top=5, gap=2,
                tick_every=max(1, len(per_round) // 4),
            )  # fmt: skip
            label = _("Games finished per round in %(name)s: %(n)d in all") % {
                "name": e["name"],
                "n": chart["total"],
            }
            out["rounds"][e["id"]] = mark_safe(charts.svg(chart, label))
    return out


def _context(request: HttpRequest, names) -> dict[str, Any]:
    data = collect(names)
    return {**data, "charts": _charts(data), "every": _refresh(request), "panels": names}


@require_GET
@staff_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "dashboard/home.html", _context(request, PANELS))


@require_GET
@staff_required
def panel(request: HttpRequest, name: str) -> HttpResponse:
    if name not in PANELS:
        raise Http404
    return render(request, f"dashboard/_{name}.html", _context(request, (name,)))


@require_GET
@staff_required
def error_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(ErrorRecord.objects.order_by("-last_seen", "-pk"), 50).get_page(
        request.GET.get("page")
    )
    return render(request, "dashboard/error_list.html", {"page": page, "errors": page.object_list})


@require_GET
@staff_required
def error_detail(request: HttpRequest, pk: int) -> HttpResponse:
    error = get_object_or_404(ErrorRecord, pk=pk)
    return render(request, "dashboard/error_detail.html", {"error": error})


# ---------------------------------------------------------------- JSON


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, ErrorRecord):
        return _error_json(value)
    return value


def _error_json(error: ErrorRecord) -> dict[str, Any]:
    return {
        "id": error.pk,
        "source": error.source,
        "logger": error.logger,
        "message": error.message,
        "exception": error.exception,
        "where": error.where,
        "count": error.count,
        "first_seen": error.first_seen.isoformat(),
        "last_seen": error.last_seen.isoformat(),
    }


def as_json(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    if "activity" in out:
        out["activity"] = {
            "minutes": out["activity"]["minutes"],
            "actions_per_minute": [
                {"minute": m, "count": n} for m, n in out["activity"]["actions"]
            ],
            "picks_per_minute": [{"minute": m, "count": n} for m, n in out["activity"]["picks"]],
        }
    if "errors" in out:
        out["errors"] = {
            **out["errors"],
            "recent": [_error_json(e) for e in out["errors"]["recent"]],
        }
    return _jsonable(out)


class MetricsView(APIView):
    """The dashboard's figures as JSON, for monitoring (staff: session or token)."""

    permission_classes = [IsAdminUser]

    @extend_schema(
        summary="Staff dashboard figures",
        description="Running events, drafting pods, games in progress, activity per minute "
        "over the last hour, Celery queues and workers, recent errors. Staff only.",
        responses={200: OpenApiTypes.OBJECT},
        tags=["staff"],
    )
    def get(self, request):
        return Response(as_json(collect(PANELS)))
