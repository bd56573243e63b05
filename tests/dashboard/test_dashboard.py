"""The staff dashboard: who may see it, what each panel shows, and what it costs."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token

from dashboard import views
from play.models import ActionLog
from tests.dashboard.helpers import bot_game, drafting_pod, running_event

pytestmark = pytest.mark.django_db

HOME = "/staff/"


# ---------------------------------------------------------------- access


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(HOME)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    for path in ("/staff/panel/events/", "/staff/errors/"):
        assert client.get(path).status_code == 302


def test_a_panel_refresh_after_logout_sends_the_page_to_log_in(client):
    response = client.get("/staff/panel/events/", HTTP_HX_REQUEST="true")
    assert response.status_code == 401
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_logged_in_players_who_are_not_staff_get_403(client, bob):
    client.force_login(bob)
    for path in (HOME, "/staff/panel/events/", "/staff/errors/", "/staff/metrics.json"):
        assert client.get(path).status_code == 403, path


def test_the_json_needs_staff_and_takes_a_token(client, staff, bob):
    assert client.get("/staff/metrics.json").status_code in (401, 403)
    token = Token.objects.create(user=staff)
    response = client.get("/staff/metrics.json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    assert set(response.json()) >= {"events", "pods", "games", "activity", "celery", "errors"}
    bob_token = Token.objects.create(user=bob)
    assert (
        client.get("/staff/metrics.json", HTTP_AUTHORIZATION=f"Token {bob_token.key}").status_code
        == 403
    )


def test_staff_see_the_link_in_the_navigation_and_others_do_not(client, staff, bob):
    client.force_login(bob)
    assert b'href="/staff/"' not in client.get("/").content
    client.force_login(staff)
    assert b'href="/staff/"' in client.get("/").content


def test_an_unknown_panel_is_404(staff_client):
    assert staff_client.get("/staff/panel/nothing/").status_code == 404


# ---------------------------------------------------------------- panels with real data


def figure(html: str, name: str) -> str:
    match = re.search(rf'data-figure="{name}">([^<]*)<', html)
    assert match, f"no figure {name}"
    return match.group(1)


def test_the_events_panel_shows_the_round_and_its_matches(staff_client, alice):
    event = running_event(alice, decide=1, rounds_played=1)
    html = staff_client.get("/staff/panel/events/").content.decode()
    assert figure(html, "events-running") == "1"
    row = re.search(rf'<li data-event="{event.slug}">(.*?)</li>', html, re.S).group(1)
    assert "Round 2" in row and "Published" in row
    assert "1/4 matches decided" in row
    assert "3 pending" in row
    # Round 1: 4 matches × 2 games; round 2: one match of 2 games so far.
    data = staff_client.get("/staff/metrics.json").json()["events"]["events"][0]
    assert (
        data["games_per_round"]
        == [
            {"round": 1, "games": 8},
            {"round": 2, "games": 2},
            {"round": 3, "games": 0},
            {"round": 4, "games": 0},
        ][: len(data["games_per_round"])]
    )
    assert data["matches_decided"] == 1 and data["matches_pending"] == 3
    assert "<svg" in row and "Games finished per round" in row
    # The top figure of the y axis (9px, centred on its line) is not cut by the chart's top.
    top_tick = min(
        float(y)
        for y in re.findall(r'<text class="axis" x="[\d.]+" y="([\d.]+)" text-anchor="end"', row)
    )
    assert top_tick >= 4.5


def test_a_finished_or_unstarted_event_is_not_running(staff_client, alice):
    from tests.tournaments.factories import make_event

    make_event(alice, players=4, start=False, name="Later")
    html = staff_client.get("/staff/panel/events/").content.decode()
    assert figure(html, "events-running") == "0"
    assert "No event is running." in html


def test_the_pods_panel_shows_progress_and_waiting_seats(staff_client, alice):
    pod = drafting_pod(alice, human_picks=1)
    html = staff_client.get("/staff/panel/pods/").content.decode()
    assert figure(html, "pods-drafting") == "1"
    data = staff_client.get("/staff/metrics.json").json()["pods"]
    (row,) = data["pods"]
    assert row["id"] == pod.pk
    assert row["picks_made"] == 1
    assert row["picks_total"] == 8 * 15 * 4  # 8 seats × 4 VS1 boosters of 15 cards
    assert row["seats_waiting"] == 1  # alice picked and waits for the bot upstream
    assert row["seats_holding"] == 7
    assert row["packs_queued"] == 8  # 7 unopened + alice's passed pack, queued at her neighbour
    assert row["oldest_pick_age"] is not None and row["oldest_pick_age"] >= 0
    assert f'data-pod="{pod.pk}"' in html and "1/480 picks" in html
    assert "1/8 seats waiting for a pack" in html


def test_the_games_panel_counts_running_games_and_recent_actions(staff_client, alice, bob):
    bot_game(alice, actions=3)
    bot_game(bob, actions=2)
    actions = ActionLog.objects.count()
    assert actions >= 5
    html = staff_client.get("/staff/panel/games/").content.decode()
    assert figure(html, "games-running") == "2"
    assert 'data-system="ascension"' in html
    data = staff_client.get("/staff/metrics.json").json()["games"]
    assert data["running"] == 2
    assert data["by_system"][0]["system"] == "ascension" and data["by_system"][0]["running"] == 2
    assert data["actions_recent"] == actions
    assert len(data["oldest"]) == 2


def test_the_activity_charts_count_this_minutes_actions_and_picks(staff_client, alice):
    drafting_pod(alice, human_picks=1)
    bot_game(alice, actions=3)
    data = staff_client.get("/staff/metrics.json").json()["activity"]
    assert len(data["actions_per_minute"]) == 60 and len(data["picks_per_minute"]) == 60
    assert data["actions_per_minute"][-1]["count"] == ActionLog.objects.count()
    assert data["picks_per_minute"][-1]["count"] == 1
    assert sum(m["count"] for m in data["actions_per_minute"][:-1]) <= ActionLog.objects.count()
    html = staff_client.get("/staff/panel/activity/").content.decode()
    assert html.count("<svg") == 2
    assert html.count('class="bar"') == 120


def test_old_activity_falls_out_of_the_window(staff_client, alice):
    from datetime import timedelta

    from django.utils import timezone

    bot_game(alice, actions=3)
    ActionLog.objects.update(applied_at=timezone.now() - timedelta(hours=2))
    data = staff_client.get("/staff/metrics.json").json()
    assert sum(m["count"] for m in data["activity"]["actions_per_minute"]) == 0
    assert data["games"]["actions_recent"] == 0


def test_the_page_holds_every_panel_and_polls_each(staff_client):
    html = staff_client.get(HOME + "?every=5").content.decode()
    for name in views.PANELS:
        assert f'id="panel-{name}"' in html
        assert f'hx-get="/staff/panel/{name}/?every=5"' in html
    # Every 5 s while the page is in view (a tab in the background asks nothing: gauntlet.js
    # cancels the request of a data-poll-when-visible panel; the policy allows no eval'd filter).
    assert html.count('hx-trigger="every 5s" data-poll-when-visible ') == len(views.PANELS)
    # The refresh is clamped, and nonsense falls back to the default.
    assert 'hx-trigger="every 2s"' in staff_client.get(HOME + "?every=0").content.decode()
    assert 'hx-trigger="every 10s"' in staff_client.get(HOME + "?every=soon").content.decode()


def test_a_panel_fragment_keeps_polling(staff_client):
    html = staff_client.get("/staff/panel/celery/?every=7").content.decode()
    assert html.lstrip().startswith('<section id="panel-celery"')
    assert 'hx-trigger="every 7s"' in html


# ---------------------------------------------------------------- cost


def count_queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_the_dashboard_costs_the_same_few_queries_however_much_is_going_on(
    staff_client, alice, bob
):
    running_event(alice, name="One")
    drafting_pod(alice)
    bot_game(alice, actions=2)
    few = count_queries(staff_client, HOME)
    few_json = count_queries(staff_client, "/staff/metrics.json")
    for n in range(4):
        running_event(alice, name=f"More {n}", decide=n % 3)
    drafting_pod(bob)
    bot_game(bob, actions=4)
    from dashboard.services import record_error

    for n in range(3):
        record_error({"logger": "gauntlet.test", "message": f"boom {n}", "fingerprint": f"f{n}"})
    many = count_queries(staff_client, HOME)
    assert many == few, "the query count grows with the data"
    assert count_queries(staff_client, "/staff/metrics.json") == few_json
    assert many <= 18, many
    for name in views.PANELS:
        assert count_queries(staff_client, f"/staff/panel/{name}/") <= 8, name


def test_the_oldest_pending_pick_and_overdue_timers_point_at_stuck_pods(staff_client, alice):
    from datetime import timedelta

    from django.utils import timezone

    from drafting.models import Pick, Pod, Seat

    pod = drafting_pod(alice, human_picks=1)
    now = timezone.now()
    Pod.objects.filter(pk=pod.pk).update(started_at=now - timedelta(seconds=300))
    Pick.objects.filter(pod=pod).update(picked_at=now - timedelta(seconds=120))
    data = staff_client.get("/staff/metrics.json").json()["pods"]
    # The bots have held their first packs since the start; no timer is late yet.
    assert 300 <= data["oldest_pick_age"] < 330
    assert data["overdue_timers"] == 0
    # The bots' pick timers passed a minute ago and no worker ran them.
    Seat.objects.filter(pod=pod, is_bot=True).update(pick_deadline=now - timedelta(seconds=60))
    html = staff_client.get("/staff/panel/pods/").content.decode()
    assert "7 pick timers are overdue: are the workers running?" in html
    assert staff_client.get("/staff/metrics.json").json()["pods"]["pods"][0]["overdue_timers"] == 7
