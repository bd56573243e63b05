"""Pages of players across events and of series: a player's public profile (with a
head-to-head record against another player), a series' public table, and the form its
organiser creates and changes it with. Thin: the data comes from ``services.profiles``
and ``services.series``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments.models import Event, EventStaff, Series
from tournaments.services.errors import TournamentError
from tournaments.services.profiles import find_user, player_profile
from tournaments.services.series import (
    add_event,
    create_series,
    manages,
    parse_points,
    places_text,
    remove_event,
    season_rows,
    series_events,
    update_series,
)


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = find_user(username)
    if user is None:
        raise Http404("no such player")
    vs_name = (request.GET.get("vs") or "").strip()
    vs = find_user(vs_name) if vs_name else None
    return render(
        request,
        "tournaments/profile.html",
        {
            "player": user,
            "profile": player_profile(user, vs=vs),
            "vs_name": vs_name,
            "vs_unknown": bool(vs_name) and vs is None,
        },
    )


SERIES_PAGE_SIZE = 50


@require_GET
def series_list(request: HttpRequest) -> HttpResponse:
    """Every series, newest first, with its number of events, a page at a time."""
    series = (
        Series.objects.select_related("created_by")
        .annotate(event_count=Count("events"))
        .order_by("-created_at", "-pk")  # an aggregate drops the model's own ordering
    )
    page = Paginator(series, SERIES_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "tournaments/series_list.html", {"page": page})


@require_GET
def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("created_by"), slug=slug)
    events = series_events(series)
    return render(
        request,
        "tournaments/series_detail.html",
        {
            "series": series,
            "events": events,
            "rows": season_rows(series, events),
            "places": places_text(series),
            "can_manage": manages(request.user, series),
        },
    )


def _posted(request: HttpRequest, name: str, limit: int = 2000) -> str:
    return (request.POST.get(name) or "")[:limit].replace("\x00", "")


@login_required
@require_http_methods(["GET", "POST"])
def series_create(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            points = parse_points(_posted(request, "places"), _posted(request, "participation"))
            series = create_series(
                request.user,
                _posted(request, "name", 200),
                _posted(request, "description"),
                points,
            )
        except TournamentError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Series created."))
            return redirect("tournaments:series_edit", slug=series.slug)
    return render(
        request,
        "tournaments/series_form.html",
        {
            "series": None,
            "name": _posted(request, "name", 200),
            "description": _posted(request, "description"),
            "places": _posted(request, "places") or "1:10, 2:7, 4:5, 8:3",
            "participation": _posted(request, "participation") or "1",
        },
    )


def _own_events(user, series: Series, exclude: list[Event]):
    events = Event.objects.order_by("-created_at").exclude(pk__in=[e.pk for e in exclude])
    if not user.is_superuser:
        events = events.filter(staff__user=user, staff__role=EventStaff.Role.ORGANISER)
    return events[:200]


@login_required
@require_http_methods(["GET", "POST"])
def series_edit(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    if not manages(request.user, series):
        raise PermissionDenied
    if request.method == "POST":
        op = request.POST.get("op")
        try:
            if op == "save":
                points = parse_points(_posted(request, "places"), _posted(request, "participation"))
                update_series(
                    request.user,
                    series,
                    name=_posted(request, "name", 200),
                    description=_posted(request, "description"),
                    points=points,
                )
                messages.success(request, _("Series saved."))
            elif op in ("add", "remove"):
                event = Event.objects.filter(slug=_posted(request, "event", 200)).first()
                if event is None:
                    raise TournamentError(_("No such event."))
                if op == "add":
                    add_event(request.user, series, event)
                    messages.success(request, _("Event added."))
                else:
                    remove_event(request.user, series, event)
                    messages.success(request, _("Event removed."))
            else:
                raise TournamentError(_("Unknown action."))
        except TournamentError as exc:
            messages.error(request, str(exc))
        return redirect("tournaments:series_edit", slug=series.slug)
    events = series_events(series)
    return render(
        request,
        "tournaments/series_form.html",
        {
            "series": series,
            "events": events,
            "candidates": _own_events(request.user, series, events),
            "name": series.name,
            "description": series.description,
            "places": places_text(series),
            "participation": series.points.get("participation", 0),
            "audit": series.audit.select_related("actor")[:50],
        },
    )
