"""Simultaneous picks at one pack are settled by the pod's row lock (real PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from drafting import draft as draft_core
from drafting import services
from drafting.models import Pick, Pod, Seat
from tests.races import run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def test_many_simultaneous_picks_at_one_pack_make_exactly_one_pick(alice):
    pod = services.quick_pod(alice)
    seat = Seat.objects.get(pod=pod, user=alice)
    cards = draft_core.current_pack(pod.state, seat.number)["cards"]
    calls = [(lambda card=card: services.make_pick(alice, pod, 1, card)) for card in cards[:12]] + [
        lambda: services.make_pick(alice, pod, 1, cards[0]) for _ in range(4)
    ]
    outcomes = run_together(*calls)
    wins = [value for kind, value in outcomes if kind == "ok"]
    errors = [value for kind, value in outcomes if kind == "error"]
    assert len(wins) == 1, outcomes
    assert all(isinstance(e, services.PodError) and "already made" in str(e) for e in errors), (
        errors
    )
    pod.refresh_from_db()
    assert draft_core.pools(pod.state)[seat.number] == [wins[0].card_id]
    assert Pick.objects.filter(pod=pod, seat=seat).count() == 1


def race_timer_and_player(user) -> None:
    pod = services.quick_pod(user)
    seat = Seat.objects.get(pod=pod, user=user)
    Seat.objects.filter(pk=seat.pk).update(pick_deadline=timezone.now() - timedelta(seconds=1))
    cards = draft_core.current_pack(pod.state, seat.number)["cards"]
    outcomes = run_together(
        lambda: services.make_pick(user, pod, 1, cards[1]),
        lambda: services.auto_pick(pod.pk, seat.number, 1),
        lambda: services.auto_pick(pod.pk, seat.number, 1),
    )
    picks = [v for kind, v in outcomes if kind == "ok" and v is not None]
    assert len(picks) == 1, outcomes
    assert Pick.objects.filter(pod=pod, seat=seat).count() == 1
    assert len(draft_core.pools(Pod.objects.get(pk=pod.pk).state)[seat.number]) == 1


def test_the_timer_and_the_player_racing_make_one_pick(alice):
    for _ in range(3):
        race_timer_and_player(alice)


def test_each_socket_hears_only_about_its_own_seat_and_never_gets_cards(alice, bob, settings):
    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from drafting.routing import websocket_urlpatterns

    application = URLRouter(websocket_urlpatterns)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    pod = services.quick_pod(alice)
    seat = Seat.objects.get(pod=pod, user=alice)
    card = draft_core.current_pack(pod.state, seat.number)["cards"][0]

    async def scenario():
        player = WebsocketCommunicator(application, f"/ws/draft/{pod.pk}/")
        player.scope["user"] = alice
        watcher = WebsocketCommunicator(application, f"/ws/draft/{pod.pk}/")
        watcher.scope["user"] = bob
        heard = {}
        for socket in (player, watcher):
            connected, _ = await socket.connect()
            assert connected
        await database_sync_to_async(services.make_pick)(alice, pod, 1, card)
        for name, socket in (("player", player), ("watcher", watcher)):
            frames = []
            while not await socket.receive_nothing(timeout=0.3):
                frames.append(await socket.receive_json_from())
            heard[name] = frames
            await socket.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    assert {"changed": "seat"} in heard["player"] and {"changed": "pod"} in heard["player"]
    assert heard["watcher"] and all(frame == {"changed": "pod"} for frame in heard["watcher"])
