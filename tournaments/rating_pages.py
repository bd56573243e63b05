"""The public leaderboard of a game: its players' ratings, best first, a page at a time;
and the ratings page, every registered game with its first few players. Thin: the rows
come from ``services.ratings.leaderboard``."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from engine.core import registry
from tournaments.services.ratings import leaderboard as leaderboard_of

PAGE_SIZE = 50
INDEX_TOP = 5


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """Every game of the registry with its best few players and a link to its table."""
    language = get_language() or "en"
    games = [
        {
            "key": g.key,
            "name": g.label(language),
            "top": list(leaderboard_of(g.key)[:INDEX_TOP]),
        }
        for g in registry.all_systems()
    ]
    return render(request, "tournaments/ratings_index.html", {"games": games})


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    try:
        info = registry.get(game)
    except registry.UnknownGameSystem:
        raise Http404("no such game") from None
    page = Paginator(leaderboard_of(game), PAGE_SIZE).get_page(request.GET.get("page"))
    start = page.start_index()
    rows = [{"rank": start + n, "rating": r} for n, r in enumerate(page.object_list)]
    language = get_language() or "en"
    games = [{"key": g.key, "name": g.label(language)} for g in registry.all_systems()]
    game = {"key": info.key, "name": info.label(language)}
    return render(
        request,
        "tournaments/leaderboard.html",
        {"game": game, "games": games, "page": page, "rows": rows},
    )
