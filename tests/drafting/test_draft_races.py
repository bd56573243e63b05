"""Simultaneous picks at one pack are settled by the pod's row lock (real PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from drafting import draft as draft_core
from drafting.models import Pick, Pod, Seat
from drafting.services import messages
from drafting.services.creating import create_pod, quick_pod
from drafting.services.errors import PodError
from drafting.services.kits import kit
from drafting.services.messages import pod_group
from drafting.services.picks import auto_pick, make_pick
from drafting.services.seats import join_pod
from drafting.services.starting import start_pod
from tests.races import run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def test_many_simultaneous_picks_at_one_pack_make_exactly_one_pick(alice):
    pod = quick_pod(alice)
    seat = Seat.objects.get(pod=pod, user=alice)
    cards = draft_core.current_pack(pod.state, seat.number)["cards"]
    calls = [(lambda card=card: make_pick(alice, pod, 1, card)) for card in cards[:12]] + [
        lambda: make_pick(alice, pod, 1, cards[0]) for _ in range(4)
    ]
    outcomes = run_together(*calls)
    wins = [value for kind, value in outcomes if kind == "ok"]
    errors = [value for kind, value in outcomes if kind == "error"]
    assert len(wins) == 1, outcomes
    assert all(isinstance(e, PodError) and "already made" in str(e) for e in errors), errors
    pod.refresh_from_db()
    assert draft_core.pools(pod.state)[seat.number] == [wins[0].card_id]
    assert Pick.objects.filter(pod=pod, seat=seat).count() == 1


def race_timer_and_player(user) -> None:
    pod = quick_pod(user)
    seat = Seat.objects.get(pod=pod, user=user)
    Seat.objects.filter(pk=seat.pk).update(pick_deadline=timezone.now() - timedelta(seconds=1))
    cards = draft_core.current_pack(pod.state, seat.number)["cards"]
    outcomes = run_together(
        lambda: make_pick(user, pod, 1, cards[1]),
        lambda: auto_pick(pod.pk, seat.number, 1),
        lambda: auto_pick(pod.pk, seat.number, 1),
    )
    picks = [v for kind, v in outcomes if kind == "ok" and v is not None]
    assert len(picks) == 1, outcomes
    assert Pick.objects.filter(pod=pod, seat=seat).count() == 1
    assert len(draft_core.pools(Pod.objects.get(pk=pod.pk).state)[seat.number]) == 1


def test_the_timer_and_the_player_racing_make_one_pick(alice):
    for _ in range(3):
        race_timer_and_player(alice)


def test_a_pack_travels_only_to_its_players_socket_in_their_language(
    alice, bob, charlie, settings, monkeypatch
):
    """Bob waits for Alice's pack: his socket gets it rendered (in Russian, his cookie's
    language); Alice, answered over HTTP, and Charlie, a spectator, get only public progress."""
    import html

    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from drafting.routing import websocket_urlpatterns
    from drafting.views import cards_info

    application = URLRouter(websocket_urlpatterns)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    monkeypatch.setattr(messages, "PROGRESS_EVERY", 0)  # every pick's progress, here
    pod = create_pod(alice, seats_count=2)
    join_pod(bob, pod)
    pod = start_pod(alice, pod)
    a = Seat.objects.get(pod=pod, user=alice).number
    b = Seat.objects.get(pod=pod, user=bob).number
    make_pick(bob, pod, 1, draft_core.current_pack(pod.state, b)["cards"][0])
    pod.refresh_from_db()
    alice_pack = draft_core.current_pack(pod.state, a)["cards"]
    passed = alice_pack[1:]  # what Bob will face after Alice takes the first card
    db = kit(pod)
    russian = [c["name"] for c in cards_info(db, passed, "ru")]
    everything = {c["name"] for lang in ("en", "ru") for c in cards_info(db, alice_pack, lang)}

    async def scenario():
        sockets = {}
        for name, user, cookies in (
            ("alice", alice, {}),
            ("bob", bob, {"django_language": "ru"}),
            ("charlie", charlie, {}),
        ):
            socket = WebsocketCommunicator(application, f"/ws/draft/{pod.pk}/")
            socket.scope["user"] = user
            socket.scope["cookies"] = cookies
            connected, _ = await socket.connect()
            assert connected
            sockets[name] = socket
        await database_sync_to_async(make_pick)(alice, pod, 1, alice_pack[0])
        heard = {}
        for name, socket in sockets.items():
            frames = []
            while not await socket.receive_nothing(timeout=0.3):
                frames.append(await socket.receive_json_from())
            heard[name] = frames
            await socket.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    packs = [f for f in heard["bob"] if "pack" in f]
    assert len(packs) == 1 and packs[0]["pick"] == 2
    shown = html.unescape(packs[0]["pack"])
    assert all(name in shown for name in russian) and 'name="pick" value="2"' in shown
    assert "csrfmiddlewaretoken" not in shown  # no request behind it: the page sends the header
    for name in ("alice", "charlie"):
        assert heard[name] and all(set(f) == {"progress"} for f in heard[name]), heard[name]
        assert not any(card in str(heard[name]) for card in everything)
    progress = heard["charlie"][-1]["progress"]  # [picks, packs held, waiting on] per seat
    assert progress[a] == [1, 1, None] and progress[b] == [1, 1, None]


def test_the_drafts_end_sends_every_players_page_to_deck_building(alice, bob, settings):
    """The last pick's answer sends its picker to the deck page; the other players'
    sockets are told the same (a redirect), so no page has to fetch its panel first."""
    from asgiref.sync import async_to_sync
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.urls import reverse

    from drafting.routing import websocket_urlpatterns

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    pod = create_pod(alice, seats_count=2, set_codes=["VS1", "VS1"])
    join_pod(bob, pod)
    pod = start_pod(alice, pod)
    users = {s.number: s.user for s in Seat.objects.filter(pod=pod).select_related("user")}

    def pick_all_but_the_last() -> tuple:
        """Two seats, two boosters of 15: picks until one card is left; who takes it."""
        while True:
            state = Pod.objects.get(pk=pod.pk).state
            n = next(n for n in users if draft_core.current_pack(state, n) is not None)
            card = draft_core.current_pack(state, n)["cards"][0]
            if sum(len(p) for p in draft_core.pools(state)) == 59:
                return users[n], card
            make_pick(users[n], pod, draft_core.pick_number(state, n), card)

    last_picker, card = pick_all_but_the_last()
    other = bob if last_picker == alice else alice

    async def scenario():
        from channels.db import database_sync_to_async

        socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/draft/{pod.pk}/")
        socket.scope["user"] = other
        assert (await socket.connect())[0]
        await database_sync_to_async(make_pick)(last_picker, pod, 30, card)
        frames = []
        while not await socket.receive_nothing(timeout=0.3):
            frames.append(await socket.receive_json_from())
        await socket.disconnect()
        return frames

    frames = async_to_sync(scenario)()
    assert Pod.objects.get(pk=pod.pk).status == Pod.Status.BUILDING
    deck = reverse("drafting:deck", kwargs={"pk": pod.pk})
    assert {"changed": "seat", "redirect": deck} in frames, frames


def test_a_pods_progress_is_offered_to_the_throttled_push_after_each_pick(alice, bob, monkeypatch):
    """Each pick offers the pod's progress under the pod's key, to be sent at most once
    per ``PROGRESS_EVERY`` (the interval itself: ``tests/test_push.py``)."""
    from config import push

    offered = []
    monkeypatch.setattr(messages, "PROGRESS_EVERY", 2.0)
    monkeypatch.setattr(push, "send_latest", lambda *args: offered.append(args))
    pod = create_pod(alice, seats_count=2)
    join_pod(bob, pod)
    pod = start_pod(alice, pod)
    b = Seat.objects.get(pod=pod, user=bob).number
    offered.clear()  # the start's
    make_pick(bob, pod, 1, draft_core.current_pack(pod.state, b)["cards"][0])
    assert len(offered) == 1
    key, group, message, every = offered[0]
    assert key == ("draft-progress", pod.pk) and group == pod_group(pod.pk)
    assert every == 2.0 and message["type"] == "draft.progress"
    # Bob: one pick, no pack, waits on Alice; Alice holds two packs.
    assert message["rows"][b] == [1, 0, 1 - b] and message["rows"][1 - b] == [0, 2, None]
