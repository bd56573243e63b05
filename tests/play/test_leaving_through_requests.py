"""Casual tables through real requests (the middleware's lazy user included): games with
friend seats start, and a concession or a flag in a game of three or more seats takes
that seat out while the others play on (rules 1.3.7-1.3.9, 1.2.3, 1.2.5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from play.models import GameSession
from play.services.acting import flag_time
from play.services.engines import engine_of
from play.services.reading import replay_state

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def new_table(client: Client, url: str, **data) -> GameSession:
    response = client.post(url, data)
    assert response.status_code == 302, response.content[:500]
    session_id = int(response["Location"].rstrip("/").split("/")[-1])
    assert response["Location"] == reverse("play:game", args=[session_id])
    return GameSession.objects.get(pk=session_id)


def join(client: Client, session: GameSession) -> None:
    response = client.post(reverse("play:join", args=[session.invite_token]))
    assert response.status_code == 302 and response["Location"] == reverse(
        "play:game", args=[session.pk]
    )


@pytest.mark.parametrize("system", ["voskhozhdenie", "ascension"])
def test_a_game_with_a_friend_starts_from_the_form(alice, bob, system):
    session = new_table(logged_in(alice), reverse("play:new_friend_game"), system=system)
    assert session.status == GameSession.Status.WAITING and session.invite_token
    join(logged_in(bob), session)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    assert [s.user_id for s in session.seats.order_by("number")] == [alice.pk, bob.pk]


def two_vs_two(alice, bob, charlie) -> GameSession:
    session = new_table(
        logged_in(alice),
        reverse("play:new_game"),
        system="voskhozhdenie",
        players=4,
        bots=1,
        mode="2v2",
    )
    assert session.config["teams"] == [[0, 1], [2, 3]]
    join(logged_in(bob), session)
    join(logged_in(charlie), session)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    return session


def test_two_vs_two_one_concession_takes_out_that_player_only(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    session = two_vs_two(alice, bob, charlie)
    with django_capture_on_commit_callbacks(execute=False):
        response = logged_in(alice).post(reverse("play:concede", args=[session.pk]))
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING, "the game goes on for the others"
    assert session.state["players"][0]["eliminated"]
    assert session.state["elim"] == [0] and session.state["winners"] == []
    assert 0 not in engine_of("voskhozhdenie").to_act(session.state)
    # The departure is in the action log, and the log rebuilds the state.
    last = session.actions.order_by("-seq").first()
    assert last.seat == 0 and last.action == {"type": "@leave", "reason": "concede"}
    assert replay_state(session) == session.state
    # The table says so: to the player who left, and in the game log for everyone.
    page = logged_in(alice).get(reverse("play:game", args=[session.pk])).content.decode()
    assert "You are out of this game; the others play on." in page
    assert (
        "conceded and is out"
        in logged_in(bob).get(reverse("play:game", args=[session.pk])).content.decode()
    )
    # A second concession from the same player changes nothing.
    seq = session.seq
    logged_in(alice).post(reverse("play:concede", args=[session.pk]))
    session.refresh_from_db()
    assert session.seq == seq
    # Alice's ally concedes too: the other team wins, both its players (1.2.3, 1.2.5).
    with django_capture_on_commit_callbacks(execute=False):
        logged_in(bob).post(reverse("play:concede", args=[session.pk]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.CONCEDE
    assert session.result["winners"] == [2, 3] and session.result["eliminated"] == [0, 1]


def test_free_for_all_a_flag_takes_out_that_player_and_the_others_play_on(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    session = new_table(
        logged_in(alice),
        reverse("play:new_game"),
        system="ascension",
        players=3,
        bots=0,
        minutes=5,
    )
    join(logged_in(bob), session)
    join(logged_in(charlie), session)
    session.refresh_from_db()
    system = engine_of("ascension")
    (acting,) = system.to_act(session.state)
    seat = session.seats.get(number=acting)
    seat.deadline = timezone.now() - timedelta(seconds=1)
    seat.save(update_fields=["deadline"])
    with django_capture_on_commit_callbacks(execute=False):
        assert flag_time(session.pk, acting, session.seq)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    assert session.state["out"] == [acting]
    (now_acting,) = system.to_act(session.state)
    assert now_acting != acting
    # Its clock runs: the next player's deadline is set.
    assert session.seats.get(number=now_acting).deadline is not None
    assert session.seats.get(number=acting).deadline is None
    # The next player concedes: the last one left wins (1.3.9).
    user = session.seats.get(number=now_acting).user
    with django_capture_on_commit_callbacks(execute=False):
        logged_in(user).post(reverse("play:concede", args=[session.pk]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    (winner,) = session.result["winners"]
    assert winner not in (acting, now_acting)
    assert session.result["eliminated"] == [acting, now_acting]


def test_the_creator_calls_off_a_game_waiting_for_friends(alice, bob, charlie):
    """A table waiting for its seats offers its creator (only) a way to call it off;
    the page then says so, and the invitation no longer seats anybody."""
    host = logged_in(alice)
    session = new_table(host, reverse("play:new_game"), system="voskhozhdenie", players=3, bots=0)
    assert session.status == GameSession.Status.WAITING
    join(logged_in(bob), session)
    abort_url = reverse("play:abort", args=[session.pk])
    page = host.get(reverse("play:game", args=[session.pk])).content.decode()
    assert f'action="{abort_url}"' in page and "data-confirm-submit" in page
    assert '<span class="timer"' in page  # each seat's clock, waiting for the start
    # A seated friend sees no such button, and a request of theirs changes nothing.
    friend_page = logged_in(bob).get(reverse("play:game", args=[session.pk])).content.decode()
    assert abort_url not in friend_page
    assert logged_in(bob).post(abort_url).status_code == 302
    session.refresh_from_db()
    assert session.status == GameSession.Status.WAITING
    assert host.get(abort_url).status_code == 405  # a change is a POST
    response = host.post(abort_url)
    assert response.status_code == 302
    assert response["Location"] == reverse("play:game", args=[session.pk])
    session.refresh_from_db()
    assert session.status == GameSession.Status.ABORTED
    page = host.get(reverse("play:game", args=[session.pk])).content.decode()
    assert "Called off" in page and "called off before it started" in page
    assert '<span class="timer"' not in page  # no clock of a game that never started
    assert abort_url not in page
    response = logged_in(charlie).post(reverse("play:join", args=[session.invite_token]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.ABORTED
    assert not session.seats.filter(user=charlie).exists()


def test_a_friend_gives_back_a_seat_of_a_table_still_waiting(alice, bob, charlie, dave):
    """The seat is open again for the invitation; the creator is offered no such button
    (they call the game off), and once the game runs the seat is played, not given back."""
    host = logged_in(alice)
    session = new_table(host, reverse("play:new_game"), system="voskhozhdenie", players=3, bots=0)
    friend = logged_in(bob)
    join(friend, session)
    leave_url = reverse("play:leave_seat", args=[session.pk])
    page = friend.get(reverse("play:game", args=[session.pk])).content.decode()
    assert f'action="{leave_url}"' in page and "data-confirm-submit" in page
    assert leave_url not in host.get(reverse("play:game", args=[session.pk])).content.decode()
    assert host.post(leave_url).status_code == 302  # the creator: refused, nothing changes
    assert friend.get(leave_url).status_code == 405  # a change is a POST

    response = friend.post(leave_url, follow=True)
    assert "You gave your seat back" in response.content.decode()
    session.refresh_from_db()
    assert session.status == GameSession.Status.WAITING
    assert not session.seats.filter(user=bob).exists()
    assert session.seats.filter(user=alice).exists()
    # The invitation fills the seat again; with the last one taken the game starts.
    join(logged_in(charlie), session)
    join(logged_in(dave), session)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    assert logged_in(charlie).post(leave_url).status_code == 302
    assert session.seats.filter(user=charlie).exists()  # a running game keeps its seats
