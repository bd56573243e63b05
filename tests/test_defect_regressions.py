"""Regressions of defects found by trying the site, each through a real request."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from drafting.models import Pod
from tests.drafting.test_pods import draft_all, started_pod
from tests.tournaments.factories import make_event, seat_users
from tournaments.services.pairing import pair_next_round, publish_round

pytestmark = pytest.mark.django_db


def as_user(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize(
    "query",
    [
        "limit=100000000000000000000",
        "limit=-1",
        "limit=0",
        "limit=abc",
        "limit=501",
        "offset=100000000000000000000",
        "offset=-5",
    ],
)
def test_the_api_refuses_a_bad_page_with_400_and_logs_no_error(alice, query):
    from dashboard.models import ErrorRecord

    event, _regs = make_event(alice, players=4)
    errors = ErrorRecord.objects.count()
    for url in (
        "/api/events/",
        f"/api/events/{event.slug}/registrations/",
        f"/api/events/{event.slug}/audit/",
    ):
        client = as_user(alice if "audit" in url else None)
        response = client.get(f"{url}?{query}")
        assert response.status_code == 400, (url, response.status_code)
        assert ("limit" if "limit" in query else "offset") in response.json()
    assert ErrorRecord.objects.count() == errors


def test_the_api_pages_within_the_limits(alice):
    make_event(alice, players=2)
    make_event(alice, players=2)
    page = as_user().get("/api/events/?limit=1&offset=1").json()
    assert page["count"] == 2 and len(page["results"]) == 1
    assert len(as_user().get("/api/events/?limit=500").json()["results"]) == 2


def test_a_match_of_an_unpublished_round_is_shown_only_to_officials(alice, bob, charlie):
    event, _regs = make_event(alice, players=4, game_system="ascension", swiss_rounds=1)
    rnd = pair_next_round(alice, event)  # a draft: not published
    match = rnd.matches.filter(is_bye=False).first()
    player = seat_users(match)[0]
    url = reverse("play:match", args=[match.pk])
    for user in (bob, player):
        assert as_user(user).get(url).status_code == 404
    assert as_user(alice).get(url).status_code == 200
    publish_round(alice, rnd)
    assert as_user(player).get(url).status_code in (200, 302)
    assert as_user(bob).get(url).status_code in (200, 302)  # a listed event's match
    event.is_public = False
    event.save(update_fields=["is_public"])
    assert as_user(bob).get(url).status_code == 404  # an unlisted event's: its players only
    assert as_user(player).get(url).status_code in (200, 302)


def test_a_drafting_creator_sees_other_seats_picks_only_once_the_pod_is_over(alice):
    from drafting.services.decks import submit_deck

    pod, _seat, _pack = started_pod(alice, bots_inline=True)
    pod = draft_all(pod, alice)
    assert pod.status == Pod.Status.BUILDING
    other = pod.seats.exclude(user=alice).order_by("number").first()
    client = as_user(alice)
    for url in (
        reverse("drafting:log_json", args=[pod.pk, other.number]),
        reverse("drafting:log_text", args=[pod.pk, other.number]),
        reverse("drafting:replay", args=[pod.pk, other.number]),
    ):
        assert client.get(url).status_code == 403, url
    manage = client.get(reverse("drafting:manage", args=[pod.pk]))
    assert manage.status_code == 200
    rows = manage.context["rows"]
    assert all("colours" not in r for r in rows if r["seat"].user_id != alice.pk)
    assert any("colours" in r for r in rows if r["seat"].user_id == alice.pk)
    own = pod.seats.get(user=alice)
    assert client.get(reverse("drafting:log_json", args=[pod.pk, own.number])).status_code == 200
    # The pod ends: now the picks are open to the creator.
    from tests.drafting.test_pods import suggestion

    deck = suggestion(pod, alice)
    submit_deck(alice, pod, deck)
    assert Pod.objects.get(pk=pod.pk).status == Pod.Status.FINISHED
    assert client.get(reverse("drafting:log_json", args=[pod.pk, other.number])).status_code == 200
