"""Query and weight budgets of the busiest pages besides the public event pages (those are
in tests/tournaments/test_public_pages.py): the organiser console, the draft room, the
play home, a game's table and its replay, a player's profile and a ratings leaderboard.

Each page is built at a small and a larger size of what it lists (players, seats, games,
moves, events, rated players) and must keep to the same number of queries at both: a
query per row (N+1) breaks the budget at the larger size. Weights are for the small size
and the larger one: the page may grow with what it lists, but not without bound.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.creating import create_pod
from drafting.services.picks import make_pick
from drafting.services.starting import start_pod
from play.models import GameSession
from play.services.acting import concede
from play.services.starting import create_bot_game
from tests.play.test_replay import played
from tests.tournaments.factories import make_event, play_round
from tournaments.services import ratings
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db

# name: (queries at any size, bytes at the small size, bytes at the larger size), measured
# on 2026-11-26 (PAGE_BUDGETS_PRINT=1 prints the figures) with a little room:
# console 35 queries, 39 / 101 kB; profile 4, 2.4 / 3.0 kB; leaderboard 2, 4.3 / 10 kB;
# draft room 6, 13.7 / 13.5 kB; play home 4, 12 / 14 kB; table 6, 26 / 38 kB;
# replay 8, 23 / 35 kB.
BUDGET = {
    "console": (38, 50_000, 130_000),
    "draft_room": (8, 18_000, 18_000),
    "play_home": (6, 16_000, 20_000),
    "table": (8, 34_000, 50_000),
    "replay": (10, 32_000, 48_000),
    "profile": (6, 6_000, 8_000),
    "leaderboard": (4, 8_000, 16_000),
}
SMALL, LARGE = "small", "large"


@pytest.fixture
def ann(make_user):
    return make_user("ann")


def check(client, django_assert_max_num_queries, name: str, url: str, size: str) -> None:
    queries, small_bytes, large_bytes = BUDGET[name]
    if os.environ.get("PAGE_BUDGETS_PRINT"):  # to measure anew: the figures, no checks
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        print(
            f"\nBUDGET {name} {size}: {len(ctx.captured_queries)} queries, "
            f"{len(response.content)} bytes, status {response.status_code}"
        )
        return
    with django_assert_max_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200, (name, size, response.status_code)
    limit = small_bytes if size == SMALL else large_bytes
    assert len(response.content) < limit, (name, size, len(response.content), limit)


# ---------------------------------------------------------------- tournaments


@pytest.mark.parametrize(("size", "players"), [(SMALL, 8), (LARGE, 32)])
def test_the_organiser_console(client, alice, django_assert_max_num_queries, size, players):
    event, _ = make_event(alice, players=players, swiss_rounds=3)
    play_round(alice, event)
    publish_round(alice, pair_next_round(alice, event))  # a round being played
    client.force_login(alice)
    url = reverse("tournaments:manage", kwargs={"slug": event.slug})
    check(client, django_assert_max_num_queries, "console", url, size)


@pytest.mark.parametrize(("size", "events"), [(SMALL, 1), (LARGE, 4)])
def test_a_players_profile(client, alice, ann, django_assert_max_num_queries, size, events):
    for n in range(events):
        event, _ = make_event(alice, players=7, start=False, swiss_rounds=2, name=f"Open {n}")
        register(event, user=ann, display_name="Ann")
        event = start_event(alice, event)
        for _ in range(2):
            play_round(alice, event)
    url = reverse("tournaments:profile", args=[ann.username])
    check(client, django_assert_max_num_queries, "profile", url, size)


@pytest.mark.parametrize(("size", "players"), [(SMALL, 8), (LARGE, 40)])
def test_a_ratings_leaderboard(client, alice, django_assert_max_num_queries, size, players):
    event, _ = make_event(alice, players=players, swiss_rounds=2)
    for _ in range(2):
        ratings.rate_round(play_round(alice, event).pk)
    url = reverse("tournaments:leaderboard", args=[event.game_system])
    check(client, django_assert_max_num_queries, "leaderboard", url, size)


# ---------------------------------------------------------------- drafting


def _picks(pod: Pod, user, picks: int) -> Pod:
    for _ in range(picks):
        pod = Pod.objects.get(pk=pod.pk)
        seat = Seat.objects.get(pod=pod, user=user)
        pack = draft_core.current_pack(pod.state, seat.number)
        make_pick(user, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    return Pod.objects.get(pk=pod.pk)


@pytest.mark.parametrize(("size", "seats", "picks"), [(SMALL, 4, 2), (LARGE, 8, 9)])
def test_the_draft_room(client, bob, django_assert_max_num_queries, size, seats, picks):
    pod = create_pod(
        bob,
        name="Budget table",
        seats_count=seats,
        set_codes=["VS1", "VS1"],
        bots_inline=True,
        pick_max_seconds=600,
    )
    pod = _picks(start_pod(bob, pod), bob, picks)
    client.force_login(bob)
    check(client, django_assert_max_num_queries, "draft_room", f"/draft/{pod.pk}/", size)


# ---------------------------------------------------------------- play


@pytest.mark.parametrize(("size", "games"), [(SMALL, 2), (LARGE, 12)])
def test_the_play_home(client, alice, django_assert_max_num_queries, size, games):
    for n in range(games):
        session = create_bot_game(alice, "ascension", "heuristic")
        if n % 2:
            concede(alice, session)  # finished games are listed too
    client.force_login(alice)
    check(client, django_assert_max_num_queries, "play_home", reverse("play:home"), size)


@pytest.mark.parametrize(("size", "moves"), [(SMALL, 2), (LARGE, 30)])
def test_a_games_table_and_its_replay(client, alice, django_assert_max_num_queries, size, moves):
    session = played(create_bot_game(alice, "ascension", "heuristic"), moves)
    assert session.status == GameSession.Status.RUNNING
    client.force_login(alice)
    url = reverse("play:game", args=[session.pk])
    check(client, django_assert_max_num_queries, "table", url, size)
    concede(alice, session)
    url = reverse("play:replay", args=[session.pk])
    check(client, django_assert_max_num_queries, "replay", url, size)
