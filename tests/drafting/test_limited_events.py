"""Draft and Sealed events: pods drawn from the event's seed, the pod settings of the
event console, the registry's defaults, Sealed as an event format, and an event that
moves on cleanly (registration closed, decks required, decklists recorded even when
locked)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from drafting.models import Pod
from drafting.services.creating import create_event_pods, default_set_codes, event_pod_seed
from drafting.services.decks import finish_building, submit_deck
from drafting.services.errors import PodError
from drafting.services.starting import start_event_pods
from engine.core import registry
from tournaments.services.decklists import lock_decklists
from tournaments.services.errors import TournamentError
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

from .test_pods import draft_event, fresh, my_seat, suggestion

pytestmark = pytest.mark.django_db


def limited_event(organiser, humans, bots=0, fmt="draft"):
    event = create_event(organiser, name=f"{fmt} night", format=fmt, swiss_rounds=3)
    regs = [register(event, user=user) for user in humans]
    regs += [
        register(event, display_name=f"Bot {n}", actor=organiser, is_bot=True)
        for n in range(1, bots + 1)
    ]
    return event, regs


def seating(pod: Pod) -> dict[int, str]:
    return {s.number: s.name for s in pod.seats.all()}


# ---------------------------------------------------------------- seeds


def test_an_events_pods_seating_and_boosters_come_from_the_event_seed(alice):
    from tournaments.models import Event

    first, _ = limited_event(alice, [], bots=10)
    second, _ = limited_event(alice, [], bots=10)
    Event.objects.filter(pk=second.pk).update(seed=first.seed)
    second.refresh_from_db()
    pods_a = create_event_pods(alice, first)
    pods_b = create_event_pods(alice, second)
    assert [p.seed for p in pods_a] == [event_pod_seed(first.seed, n) for n in (1, 2)]
    assert [p.seed for p in pods_a] == [p.seed for p in pods_b]
    assert [seating(p) for p in pods_a] == [seating(p) for p in pods_b]
    start_event_pods(alice, first)
    start_event_pods(alice, second)
    for a, b in zip(pods_a, pods_b, strict=True):
        assert fresh(a).state == fresh(b).state  # the same boosters in the same seats
    # Another event's seed gives other pods.
    third, _ = limited_event(alice, [], bots=10)
    assert create_event_pods(alice, third)[0].seed != pods_a[0].seed


# ---------------------------------------------------------------- settings


def test_the_console_makes_pods_with_the_organisers_settings(client, alice, bob, charlie):
    event, _regs = draft_event(alice, [bob, charlie], bots=2)
    client.force_login(alice)
    page = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert 'name="boosters_per_player"' in page and 'value="4"' in page
    client.post(
        f"/events/{event.slug}/manage/make-pods/",
        {
            "timer_scale": "200",
            "review_seconds": "40",
            "build_minutes": "45",
            "boosters_per_player": "3",
            "abandon_after": "5",
        },  # the timer box left unticked: no pick timer
    )
    pod = Pod.objects.get(event=event)
    assert pod.set_codes == ["VS1"] * 3
    assert (pod.pick_max_seconds, pod.review_seconds, pod.build_minutes) == (0, 40, 45)
    assert pod.abandon_after == 5 and pod.pick_base_seconds == 10


def test_the_timer_scale_multiplies_the_default_pick_times(client, alice, bob, charlie):
    event, _regs = draft_event(alice, [bob, charlie])
    client.force_login(alice)
    response = client.post(
        f"/events/{event.slug}/manage/make-pods/",
        {
            "timer": "on",
            "timer_scale": "50",
            "review_seconds": "20",
            "build_minutes": "30",
            "boosters_per_player": "13",
            "abandon_after": "3",
        },
        follow=True,
    )
    assert not Pod.objects.filter(event=event).exists()  # 13 boosters: refused, said why
    assert "boosters per player" in response.content.decode().lower()
    client.post(
        f"/events/{event.slug}/manage/make-pods/",
        {
            "timer": "on",
            "timer_scale": "50",
            "review_seconds": "20",
            "build_minutes": "30",
            "boosters_per_player": "4",
            "abandon_after": "3",
        },
    )
    pod = Pod.objects.get(event=event)
    assert (pod.pick_base_seconds, pod.pick_seconds_per_card, pod.pick_max_seconds) == (2, 2, 38)


def test_booster_defaults_come_from_the_registry():
    info = registry.get("voskhozhdenie")
    assert default_set_codes("voskhozhdenie") == [info.draft_sets[0]] * 4
    assert default_set_codes("voskhozhdenie", Pod.Kind.SEALED) == ["VS1"] * 6
    with pytest.raises(PodError, match="no boosters"):
        default_set_codes("ascension")


# ---------------------------------------------------------------- sealed


def test_sealed_is_a_limited_format_whose_decks_follow_the_draft_rules():
    info = registry.get("voskhozhdenie")
    assert info.format("sealed").limited and info.format("draft").limited
    checker = info.load("decks").checker
    assert checker.spec("sealed").base == "4.5.5" and checker.spec("sealed").limited


def test_a_sealed_event_opens_pools_builds_and_starts_its_swiss(alice, bob, charlie):
    from tournaments.models import Decklist, Event

    event, _regs = limited_event(alice, [bob, charlie], bots=2, fmt="sealed")
    (pod,) = create_event_pods(alice, event)
    assert pod.kind == Pod.Kind.SEALED and pod.set_codes == ["VS1"] * 6
    with pytest.raises(TournamentError, match="still drafting or building"):
        start_event(alice, event)  # still building
    start_event_pods(alice, event)
    pod = fresh(pod)
    assert pod.status == Pod.Status.BUILDING  # pools opened at once, no picks
    assert all(len(p) == 6 * 15 for p in pod.state["pools"])
    assert Decklist.objects.filter(registration__event=event).count() == 2  # the bots'
    deck = suggestion(pod, bob)
    submit_deck(bob, pod, deck)
    Pod.objects.filter(pk=pod.pk).update(build_deadline=timezone.now() - timedelta(seconds=1))
    assert finish_building(pod.pk)  # charlie's deck by a bot at the deadline
    start_event(alice, event)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    rnd = pair_next_round(alice, event)
    assert rnd.matches.count() == 2


def test_an_events_pods_are_named_in_the_readers_language(alice, bob, client):
    # Made by an organiser reading English, read by a player reading Russian.
    event, _regs = limited_event(alice, [bob], bots=3)
    create_event_pods(alice, event)
    client.force_login(bob)
    client.cookies["django_language"] = "ru"
    page = client.get("/draft/").content.decode()
    assert ">draft night · стол 1</a>" in page
    assert "pod 1" not in page
    client.cookies["django_language"] = "en"
    assert ">draft night · pod 1</a>" in client.get("/draft/").content.decode()


# ---------------------------------------------------------------- moving on


def test_registration_closes_once_the_pods_are_made(alice, bob, charlie, dave):
    event, _regs = draft_event(alice, [bob, charlie])
    create_event_pods(alice, event)
    with pytest.raises(TournamentError, match="already seated in pods"):
        register(event, user=dave)
    with pytest.raises(TournamentError, match="already seated in pods"):
        register(event, display_name="Late", actor=alice)


def test_the_event_starts_only_when_every_player_has_a_deck_and_says_who_has_not(
    alice, bob, charlie
):
    from tournaments.models import Decklist

    event, _regs = limited_event(alice, [bob, charlie], bots=2, fmt="sealed")
    with pytest.raises(TournamentError, match="pods first"):
        start_event(alice, event)
    (pod,) = create_event_pods(alice, event)
    start_event_pods(alice, event)
    pod = fresh(pod)
    Pod.objects.filter(pk=pod.pk).update(build_deadline=timezone.now() - timedelta(seconds=1))
    finish_building(pod.pk)
    Decklist.objects.filter(registration__user=bob).delete()  # say an official removed it
    with pytest.raises(TournamentError, match="Not every player has a deck yet: bob"):
        start_event(alice, event)


def test_decks_built_after_the_lists_were_locked_are_recorded_locked(alice, bob, charlie):
    from tournaments.models import Decklist

    event, _regs = limited_event(alice, [bob, charlie], bots=2, fmt="sealed")
    (pod,) = create_event_pods(alice, event)
    start_event_pods(alice, event)
    lock_decklists(alice, event)
    deck = suggestion(fresh(pod), bob)
    submit_deck(bob, pod, deck)
    Pod.objects.filter(pk=pod.pk).update(build_deadline=timezone.now() - timedelta(seconds=1))
    assert finish_building(pod.pk)  # never stuck in building
    assert fresh(pod).status == Pod.Status.FINISHED
    lists = Decklist.objects.filter(registration__event=event)
    assert lists.count() == 4 and all(d.locked for d in lists)
    assert my_seat(pod, charlie).deck_by_bot
