"""Seats handed to bots mid-draft: a player who leaves, the organiser's hand-over, a
registration dropped from the event, and a player who lets the timer pick too often
(and takes the seat back by picking again)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from drafting import draft as draft_core
from drafting.models import Pick, Pod, Seat
from drafting.services.creating import create_event_pods
from drafting.services.errors import NotAllowed, PodError
from drafting.services.messages import pack_message
from drafting.services.picks import auto_pick, make_pick, run_timers
from drafting.services.seats import hand_seats_to_bots, hand_to_bot, leave_pod, reclaim_seat
from drafting.services.starting import start_event_pods
from drafting.services.timers import review_until
from tournaments.services.players import drop

from .test_pods import draft_event, fresh, my_seat, started_pod

pytestmark = pytest.mark.django_db


def time_out(pod: Pod, seat: Seat) -> Pick | None:
    """The player's pick time runs out and the pod's timer task runs."""
    Seat.objects.filter(pk=seat.pk).update(pick_deadline=timezone.now() - timedelta(seconds=1))
    number = draft_core.pick_number(fresh(pod).state, seat.number)
    run_timers(pod.pk)
    return Pick.objects.filter(pod=pod, seat=seat, pick_number=number).first()


def next_pack(pod: Pod, user) -> tuple[Pod, Seat, dict]:
    """Let the bots pick until the user holds a pack again."""
    from .test_pods import run_bots_as_tasks

    for _ in range(50):
        pod = fresh(pod)
        seat = my_seat(pod, user)
        pack = draft_core.current_pack(pod.state, seat.number)
        if pack is not None:
            return pod, seat, pack
        run_bots_as_tasks(pod)
    raise AssertionError("no pack came")


def test_a_player_leaving_mid_draft_hands_the_seat_to_a_bot_once(alice):
    pod, seat, pack = started_pod(alice)
    leave_pod(alice, pod)
    seat = my_seat(pod, alice)
    assert seat.picked_by_bot and seat.bot_reason == "left"
    assert seat.pick_deadline <= timezone.now() + timedelta(seconds=pod.bot_seconds)
    leave_pod(alice, pod)  # a second click changes nothing
    assert my_seat(pod, alice).pick_deadline == seat.pick_deadline
    with pytest.raises(PodError, match="You left this draft"):
        make_pick(alice, pod, 1, pack["cards"][0])
    with pytest.raises(PodError, match="You left this draft"):
        reclaim_seat(alice, pod)


def test_the_room_offers_leaving_mid_draft_with_a_confirmation(client, alice):
    pod, _seat, _pack = started_pod(alice)
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    assert 'id="leave-draft"' in page and 'data-confirm-submit="Leave the draft?' in page
    client.post(f"/draft/{pod.pk}/do/leave/")
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    assert 'id="leave-draft"' not in page and "A bot picks for your seat." in page


def test_the_organiser_hands_a_seat_to_a_bot_from_the_console(client, alice, bob, charlie):
    from tournaments.models import AuditEntry

    event, _regs = draft_event(alice, [bob, charlie], bots=2)
    (pod,) = create_event_pods(alice, event)
    start_event_pods(alice, event)
    seat = my_seat(pod, bob)
    with pytest.raises(NotAllowed):
        hand_to_bot(charlie, pod, seat.number)
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/manage/").content.decode()
    assert "Hand to a bot" in page
    response = client.post(
        f"/draft/{pod.pk}/do/bot/", {"seat": seat.number, "from": "manage"}, follow=True
    )
    assert response.redirect_chain[-1][0] == f"/draft/{pod.pk}/manage/"
    seat = my_seat(pod, bob)
    assert seat.picked_by_bot and seat.bot_reason == "organiser"
    assert seat.timer_key == "1" and seat.pick_deadline is not None
    assert hand_to_bot(alice, pod, seat.number) is False  # idempotent
    assert AuditEntry.objects.filter(event=event, summary__contains="to a bot").count() == 1
    assert auto_pick(pod.pk, seat.number, 1).auto == "bot"


def test_the_organiser_hand_over_in_deck_building_builds_the_deck(alice):
    pod, _seat, _pack = started_pod(alice, bots_inline=True)
    from .test_pods import draft_all

    pod = draft_all(pod, alice)
    assert pod.status == Pod.Status.BUILDING
    hand_to_bot(alice, pod, my_seat(pod, alice).number)
    seat = my_seat(pod, alice)
    assert seat.deck is not None and seat.deck_by_bot
    assert fresh(pod).status == Pod.Status.FINISHED  # the last deck: the pod is done


def test_a_registration_dropped_mid_draft_hands_its_seat_to_a_bot(
    alice, bob, charlie, django_capture_on_commit_callbacks
):
    event, regs = draft_event(alice, [bob, charlie], bots=2)
    (pod,) = create_event_pods(alice, event)
    start_event_pods(alice, event)
    with django_capture_on_commit_callbacks(execute=True):
        drop(alice, regs[0])  # the organiser drops bob mid-draft
    seat = my_seat(pod, bob)
    assert seat.picked_by_bot and seat.bot_reason == "dropped"
    assert auto_pick(pod.pk, seat.number, 1).auto == "bot"
    # A repeat of the hand-over (a re-delivered callback) changes nothing.
    assert hand_seats_to_bots([seat.pk]) == 0


def test_three_timed_out_picks_in_a_row_hand_the_seat_to_a_bot_until_the_player_picks(alice):
    pod, seat, _pack = started_pod(alice)
    assert pod.abandon_after == 3
    assert time_out(pod, seat).auto == "timer"
    pod, seat, pack = next_pack(pod, alice)
    assert seat.timeouts == 1 and not seat.abandoned
    # A pick of one's own resets the count.
    make_pick(alice, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    assert my_seat(pod, alice).timeouts == 0
    for expected in (1, 2, 3):
        pod, seat, _pack = next_pack(pod, alice)
        assert time_out(pod, seat).auto == "timer"
        assert my_seat(pod, alice).timeouts == expected
    seat = my_seat(pod, alice)
    assert seat.abandoned and seat.bot_reason == "timeouts"
    # From now on the bot picks for the seat, on the bot's short clock.
    pod, seat, pack = next_pack(pod, alice)
    assert seat.pick_deadline <= timezone.now() + timedelta(seconds=pod.bot_seconds)
    # Picking again takes the seat back.
    number = draft_core.pick_number(pod.state, seat.number)
    assert make_pick(alice, pod, number, pack["cards"][0]).auto == "player"
    seat = my_seat(pod, alice)
    assert not seat.abandoned and seat.bot_reason == "" and seat.timeouts == 0


def test_an_away_player_takes_the_seat_back_from_the_room(client, alice):
    pod, seat, _pack = started_pod(alice, abandon_after=1)
    time_out(pod, seat)
    seat = my_seat(pod, alice)
    assert seat.bot_reason == "timeouts"
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    assert 'id="reclaim-seat"' in page
    client.post(f"/draft/{pod.pk}/do/reclaim/")
    client.post(f"/draft/{pod.pk}/do/reclaim/")  # twice: harmless
    pod, seat, _pack = next_pack(pod, alice)
    assert not seat.abandoned
    # A player's timer again, not the bot's second.
    assert seat.pick_deadline > timezone.now() + timedelta(seconds=pod.bot_seconds + 5)


def test_an_abandon_threshold_of_zero_never_hands_the_seat_over(alice):
    pod, seat, _pack = started_pod(alice, abandon_after=0)
    for _ in range(4):
        pod, seat, _pack = next_pack(pod, alice)
        time_out(pod, seat)
    seat = my_seat(pod, alice)
    assert seat.timeouts == 4 and not seat.abandoned


# ---------------------------------------------------------------- review time


def test_a_new_booster_shows_the_pool_for_review_before_its_first_pick(client, alice):
    from .test_pods import run_bots_as_tasks

    pod, seat, _pack = started_pod(alice, pick_max_seconds=600, review_seconds=30)
    client.force_login(alice)
    assert "data-review-until" not in client.get(f"/draft/{pod.pk}/").content.decode()
    for _ in range(15):  # the whole first booster round
        pod, seat, pack = next_pack(pod, alice)
        number = draft_core.pick_number(pod.state, seat.number)
        make_pick(alice, pod, number, pack["cards"][0])
    run_bots_as_tasks(pod)
    pod, seat, pack = next_pack(pod, alice)
    assert pack["round"] == 1
    until = review_until(pod, seat, pack)
    # The review is the deadline's extra 30 s: it ends as the pick's own time begins.
    assert (seat.pick_deadline - until).total_seconds() == pod.pick_seconds(15)
    assert 25 <= (until - timezone.now()).total_seconds() <= 30
    page = client.get(f"/draft/{pod.pk}/").content.decode()
    assert "data-review-until" in page and "Booster 2 of 4 opens in" in page
    assert 'class="pick-form" hidden' in page  # the pack waits behind the review
    assert pack_message(pod, seat, pack)["review_until"] == until.isoformat()
    # The second pick of the booster has no review.
    make_pick(alice, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    pod, seat, pack = next_pack(pod, alice)
    assert review_until(pod, seat, pack) is None


def test_the_pick_answer_of_an_inline_pod_carries_the_new_boosters_review_and_timer(client, alice):
    """With bots picking inside the request, the answer to the pick that ends a booster
    shows the next booster's review and its own deadline, not the rows read before the
    bots moved the pod on."""
    pod, seat, _pack = started_pod(alice, bots_inline=True, pick_max_seconds=600, review_seconds=30)
    for _ in range(14):
        pod, seat, pack = next_pack(pod, alice)
        make_pick(alice, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    pod, seat, pack = next_pack(pod, alice)
    client.force_login(alice)
    answer = client.post(
        f"/draft/{pod.pk}/pick/",
        {"pick": draft_core.pick_number(pod.state, seat.number), "card": pack["cards"][0]},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Booster 2 of 4 opens in" in answer and 'class="pick-form" hidden' in answer
    deadline = timezone.localtime(my_seat(pod, alice).pick_deadline)
    assert f'class="timer pick-timer" data-ends-at="{deadline.isoformat()}"' in answer
