"""An unlisted event's games and pods, reached by their sequential ids: through a request
and a socket they are its players' and officials' only; anybody else is answered as if
there were no such game or pod. A listed event's game stays anyone's to watch."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from config.asgi import application
from drafting.models import Pod
from drafting.services.creating import create_event_pods
from drafting.services.starting import start_event_pods
from play.services.starting import start_match
from tests.play.helpers import communicator, legal_deck_text
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db(transaction=True)


def as_user(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def online_event(organiser, player, *, listed: bool):
    """A one-round event played online whose only match has its game running."""
    event = create_event(
        organiser,
        name="Back Room",
        is_public=listed,
        format="blitz",
        swiss_rounds=1,
        best_of=1,
        play_online=True,
    )
    registration = register(event, user=player)
    guest = register(event, display_name="Guest", actor=organiser)
    submit_decklist(player, registration, legal_deck_text(1))
    submit_decklist(organiser, guest, legal_deck_text(2))
    event = start_event(organiser, event)
    (match,) = publish_round(organiser, pair_next_round(organiser, event)).matches.all()
    return start_match(match)


def socket_opens(session, user, spectate: bool) -> bool:
    async def scenario() -> bool:
        socket = communicator(session, user, spectate=spectate)
        connected, _ = await socket.connect()
        await socket.disconnect()
        return connected

    return async_to_sync(scenario)()


GAME_PAGES = ("/play/{}/spectate/", "/play/{}/table/?spectate=1", "/play/{}/state/")


def test_a_game_of_an_unlisted_event_is_its_players_and_officials_only(alice, bob, charlie):
    session = online_event(alice, bob, listed=False)
    for page in GAME_PAGES:
        url = page.format(session.pk)
        for user in (None, charlie):
            assert as_user(user).get(url).status_code == 404, (url, user)
        for user in (alice, bob):  # the organiser, the player
            assert as_user(user).get(url).status_code == 200, (url, user)
    assert as_user(charlie).get(f"/play/{session.pk}/").status_code == 404
    assert as_user(None).get(f"/play/{session.pk}/replay/").status_code == 404
    assert not socket_opens(session, charlie, spectate=True)
    assert not socket_opens(session, None, spectate=False)
    assert socket_opens(session, alice, spectate=True)
    assert socket_opens(session, bob, spectate=False)


def test_a_game_of_a_listed_event_is_anyones_to_watch(alice, bob, charlie):
    session = online_event(alice, bob, listed=True)
    for page in GAME_PAGES:
        assert as_user(None).get(page.format(session.pk)).status_code == 200, page
    assert socket_opens(session, charlie, spectate=True)
    assert socket_opens(session, AnonymousUser(), spectate=True)


def pod_socket_opens(pod: Pod, user) -> bool:
    async def scenario() -> bool:
        socket = WebsocketCommunicator(
            application,
            f"/ws/draft/{pod.pk}/",
            headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")],
        )
        socket.scope["user"] = user if user is not None else AnonymousUser()
        connected, _ = await socket.connect()
        await socket.disconnect()
        return connected

    return async_to_sync(scenario)()


def test_a_pod_of_an_unlisted_event_is_its_drafters_and_officials_only(alice, bob, charlie):
    event = create_event(alice, name="Secret Sealed", is_public=False, format="sealed")
    register(event, user=bob)
    register(event, display_name="Bot 1", actor=alice, is_bot=True)
    create_event_pods(alice, event, bots_inline=True)
    (pod,) = start_event_pods(alice, event)
    for url in (f"/draft/{pod.pk}/", f"/draft/{pod.pk}/overview/", f"/api/drafts/pods/{pod.pk}/"):
        assert as_user(charlie).get(url).status_code == 404, url
        for user in (alice, bob):  # the organiser, the drafter
            assert as_user(user).get(url).status_code == 200, (url, user)
    assert as_user(None).get(f"/draft/{pod.pk}/").status_code == 404
    assert not pod_socket_opens(pod, charlie) and not pod_socket_opens(pod, None)
    assert pod_socket_opens(pod, bob) and pod_socket_opens(pod, alice)
