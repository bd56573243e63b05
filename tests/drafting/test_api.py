"""The drafting REST API: public pod view, own seat, picks, pick logs (real PostgreSQL).

Every endpoint that could show a hidden pack is tried by a second user too.
"""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from drafting import draft as draft_core
from drafting.models import Pick, Pod, Seat
from drafting.services.creating import quick_pod
from drafting.services.picks import make_pick

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def pod(alice):
    """Alice and seven bots, drafting (the bots' tasks are not run here)."""
    return quick_pod(alice)


def alice_pack(pod: Pod, alice) -> dict:
    pod = Pod.objects.get(pk=pod.pk)
    seat = Seat.objects.get(pod=pod, user=alice)
    return draft_core.current_pack(pod.state, seat.number)


def every_card_id(pod: Pod) -> set[str]:
    pod = Pod.objects.get(pk=pod.pk)
    return {c for pack in pod.state["packs"].values() for c in pack["cards"]}


def test_the_pod_is_public_but_shows_no_card(pod, alice, bob):
    hidden = every_card_id(pod)
    for user in (None, bob, alice):
        response = client_for(user).get(f"/api/drafts/pods/{pod.pk}/")
        assert response.status_code == 200
        text = response.content.decode()
        assert not any(f'"{card}"' in text for card in hidden), user
        data = response.json()
        assert data["status"] == "drafting" and data["booster_round"] == 1
        assert len(data["seats"]) == 8 and all(s["picks"] == 0 for s in data["seats"])
        assert all(s["packs_waiting"] == 1 for s in data["seats"])
    assert client_for(bob).get("/api/drafts/pods/999999/").status_code == 404


def test_my_seat_shows_my_pack_to_me_only(pod, alice, bob):
    pack = alice_pack(pod, alice)
    mine = client_for(alice).get(f"/api/drafts/pods/{pod.pk}/seat/")
    assert mine.status_code == 200
    data = mine.json()
    assert data["pack"]["pick_number"] == 1 and data["pack"]["booster_round"] == 1
    assert [c["id"] for c in data["pack"]["cards"]] == pack["cards"]
    assert data["pool"] == []
    other = client_for(bob).get(f"/api/drafts/pods/{pod.pk}/seat/")
    assert other.status_code == 403
    assert other.json() == {"detail": "You have no seat in this pod."}
    assert not any(card in other.content.decode() for card in pack["cards"])
    anonymous = client_for().get(f"/api/drafts/pods/{pod.pk}/seat/")
    assert anonymous.status_code == 401


def test_a_pick_through_the_api_and_its_refusals(pod, alice, bob):
    pack = alice_pack(pod, alice)
    url = f"/api/drafts/pods/{pod.pk}/pick/"
    api = client_for(alice)
    # Another user cannot pick for the seat, and learns nothing of the pack.
    refused = client_for(bob).post(url, {"pick_number": 1, "card": pack["cards"][0]}, format="json")
    assert refused.status_code == 403 and not Pick.objects.exists()
    assert (
        client_for()
        .post(url, {"pick_number": 1, "card": pack["cards"][0]}, format="json")
        .status_code
        == 401
    )
    # Malformed: 400, nothing changed.
    for body in ({}, {"pick_number": "one", "card": pack["cards"][0]}, {"pick_number": 1}):
        assert api.post(url, body, format="json").status_code == 400, body
    assert not Pick.objects.exists()
    # Not in the pack, not yet this pick: 409 with the page's messages, nothing changed.
    wrong = api.post(url, {"pick_number": 1, "card": "VS1-999"}, format="json")
    assert wrong.status_code == 409
    assert wrong.json() == {"detail": "That card is not in your current pack."}
    ahead = api.post(url, {"pick_number": 2, "card": pack["cards"][0]}, format="json")
    assert ahead.status_code == 409 and "stale page" in ahead.json()["detail"]
    assert not Pick.objects.exists()
    made = api.post(url, {"pick_number": 1, "card": pack["cards"][4]}, format="json")
    assert made.status_code == 200
    data = made.json()
    assert data["picked"]["id"] == pack["cards"][4] and data["pick_number"] == 1
    assert [c["id"] for c in data["seat"]["pool"]] == [pack["cards"][4]]
    assert data["seat"]["next_pick"] == 2
    # The same request again (a retry): refused, still one pick.
    again = api.post(url, {"pick_number": 1, "card": pack["cards"][5]}, format="json")
    assert again.status_code == 409 and "already made" in again.json()["detail"]
    assert Pick.objects.filter(seat__user=alice).count() == 1


def test_pick_logs_are_their_players_until_the_pages_show_them(pod, alice, bob):
    pack = alice_pack(pod, alice)
    make_pick(alice, pod, 1, pack["cards"][0])
    seat = Seat.objects.get(pod=pod, user=alice).number + 1
    url = f"/api/drafts/pods/{pod.pk}/seats/{seat}/picks/"
    own = client_for(alice).get(url)
    assert own.status_code == 200
    log = own.json()
    assert log["seat"] == seat and len(log["picks"]) == 1
    assert log["picks"][0]["card"] == pack["cards"][0]
    assert log["picks"][0]["pack_cards"] == pack["cards"]
    text = client_for(alice).get(url + "?as=text")
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    assert "--> " in text.content.decode()
    for user in (bob, None):  # the pack alice saw stays hidden from others while drafting
        refused = client_for(user).get(url)
        assert refused.status_code in (401, 403)
        assert not any(card in refused.content.decode() for card in pack["cards"])
        assert client_for(user).get(url + "?as=text").status_code in (401, 403)
    assert client_for(alice).get(f"/api/drafts/pods/{pod.pk}/seats/9/picks/").status_code == 404


def test_a_finished_casual_pods_logs_are_public(alice, bob):
    pod = quick_pod(alice, bots_inline=True)
    for _ in range(200):
        pod = Pod.objects.get(pk=pod.pk)
        if pod.status != Pod.Status.DRAFTING:
            break
        seat = Seat.objects.get(pod=pod, user=alice)
        pack = draft_core.current_pack(pod.state, seat.number)
        make_pick(alice, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    Pod.objects.filter(pk=pod.pk).update(status=Pod.Status.FINISHED)
    bot_seat = Seat.objects.filter(pod=pod, is_bot=True).first().number + 1
    response = client_for(bob).get(f"/api/drafts/pods/{pod.pk}/seats/{bot_seat}/picks/")
    assert response.status_code == 200 and len(response.json()["picks"]) == 60


def test_the_schema_lists_the_drafting_endpoints(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in (
        "/api/drafts/pods/{id}/",
        "/api/drafts/pods/{id}/seat/",
        "/api/drafts/pods/{id}/pick/",
        "/api/drafts/pods/{id}/seats/{number}/picks/",
    ):
        assert path in schema["paths"], path
    assert "409" in schema["paths"]["/api/drafts/pods/{id}/pick/"]["post"]["responses"]
