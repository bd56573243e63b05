"""A Sealed event run from the pages, as an organiser and a player do it: the event made
with the event form, a player registering on the event page and another added on the
console, bots registered, the console's "make pods" form with chosen settings, the pools
opened at once, decks built (one by the player, the rest by bots), and Swiss round 1."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.urls import reverse

from drafting.models import Pod, Seat
from drafting.services.kits import kit
from drafting.services.pools import deck_pool_of
from tournaments.models import Decklist, Event, Registration
from tournaments.services.errors import TournamentError
from tournaments.services.players import register

pytestmark = pytest.mark.django_db

EVENT_FORM = {
    "name": "Sealed Sunday",
    "game_system": "voskhozhdenie",
    "format": "sealed",
    "structure": "swiss",
    "players_per_game": "2",
    "swiss_rounds": "3",
    "top_cut": "0",
    "best_of": "1",
    "round_minutes": "50",
    "tiebreaks": "mtr",
}


def manage(slug: str, action: str) -> str:
    return reverse("tournaments:manage_action", kwargs={"slug": slug, "action": action})


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def deck_post(pool: list[str], deck: dict[str, list[str]]) -> dict[str, str]:
    """The deck page's form: one section select per entry of the pool."""
    left = {section: Counter(ids) for section, ids in deck.items()}
    data = {}
    for index, card_id in enumerate(pool):
        for section in ("cities", "main", "reinforcement"):
            if left.get(section, Counter())[card_id] > 0:
                left[section][card_id] -= 1
                data[f"slot-{index}"] = section
                break
    return data


def test_an_organiser_runs_a_sealed_event_from_the_console_to_round_one(
    client, alice, bob, charlie
):
    # The organiser makes a Sealed event with the event form.
    client.force_login(alice)
    client.post(reverse("tournaments:event_create"), EVENT_FORM)
    event = Event.objects.get(name="Sealed Sunday")
    # A fixed seed, so the bots open the same pools every run: a bot can still meet a
    # pool that allows no legal deck (noted on the issue), which this test is not about.
    Event.objects.filter(pk=event.pk).update(seed=2026)
    event.refresh_from_db()
    assert event.format == "sealed"
    # Bob registers on the event page; the organiser adds Charlie and two bots.
    client.force_login(bob)
    client.post(reverse("tournaments:register", kwargs={"slug": event.slug}))
    client.force_login(alice)
    client.post(
        manage(event.slug, "add-player"), {"display_name": "Charlie", "username": "charlie"}
    )
    for n in (1, 2):
        register(event, display_name=f"Bot {n}", actor=alice, is_bot=True)
    assert event.registrations.count() == 4

    # The console offers the Sealed pod settings: no pick timer, six boosters by default.
    page = client.get(reverse("tournaments:manage", kwargs={"slug": event.slug}))
    html = page.content.decode()
    assert "Sealed pods" in html and 'id="make-pods"' in html
    assert re.search(r'<input type="hidden" name="timer_scale"', html)
    assert re.search(r'name="boosters_per_player" value="6"', html)
    # A player cannot make the pods; a setting out of range is refused with its reason.
    client.force_login(bob)
    assert client.post(manage(event.slug, "make-pods"), {"build_minutes": "25"}).status_code == 403
    client.force_login(alice)
    refused = client.post(
        manage(event.slug, "make-pods"),
        {"build_minutes": "25", "boosters_per_player": "0"},
        follow=True,
    )
    assert "boosters per player" in messages_of(refused).lower()
    assert not event.pods.exists()
    # Five boosters a player and 25 minutes to build.
    client.post(
        manage(event.slug, "make-pods"), {"build_minutes": "25", "boosters_per_player": "5"}
    )
    (pod,) = Pod.objects.filter(event=event)
    assert pod.kind == Pod.Kind.SEALED and pod.status == Pod.Status.WAITING
    assert pod.set_codes == ["VS1"] * 5 and pod.build_minutes == 25
    assert sorted(s.name for s in pod.seats.all()) == ["Bot 1", "Bot 2", "Charlie", "bob"]
    # Nobody registers once the players sit in pods.
    with pytest.raises(TournamentError):
        register(event, display_name="Late", actor=alice)

    # Opening the boosters: every pool at once, no picks, deck building with its clock.
    html = client.get(reverse("tournaments:manage", kwargs={"slug": event.slug})).content.decode()
    assert "Open the boosters" in html
    client.post(manage(event.slug, "start-pods"))
    pod = Pod.objects.get(pk=pod.pk)
    assert pod.status == Pod.Status.BUILDING and pod.picks.count() == 0
    assert [len(p) for p in pod.state["pools"]] == [5 * 15] * 4
    assert pod.build_deadline is not None
    # The bots built theirs at once, and their decks are their decklists.
    assert (
        Decklist.objects.filter(registration__event=event, registration__is_bot=True).count() == 2
    )
    opened = client.post(manage(event.slug, "start"), follow=True)
    assert "still drafting or building decks" in messages_of(opened)
    assert Event.objects.get(pk=event.pk).status == Event.Status.REGISTRATION

    # Bob builds his deck on the deck page from his 75 cards.
    client.force_login(bob)
    seat = Seat.objects.get(pod=pod, user=bob)
    deck_url = reverse("drafting:deck", kwargs={"pk": pod.pk})
    html = client.get(deck_url).content.decode()
    assert html.count('name="slot-') == 75
    pool = deck_pool_of(pod, seat)
    deck = kit(pod).bot_deck(pool)
    saved = client.post(deck_url, deck_post(pool, deck), follow=True)
    assert "Deck saved." in messages_of(saved)
    assert Registration.objects.get(event=event, user=bob).decklist.is_legal

    # Charlie is away: the organiser hands the seat to a bot from the pod's console,
    # which builds the deck; the last deck finishes the pod.
    client.force_login(alice)
    charlie_seat = Seat.objects.get(pod=pod, user=charlie)
    client.post(
        reverse("drafting:action", kwargs={"pk": pod.pk, "action": "bot"}),
        {"seat": charlie_seat.number, "from": "manage"},
    )
    charlie_seat.refresh_from_db()
    assert charlie_seat.deck_by_bot and charlie_seat.deck is not None
    assert Pod.objects.get(pk=pod.pk).status == Pod.Status.FINISHED

    # The event starts and pairs its Swiss round 1 from the decks.
    started = client.post(manage(event.slug, "start"), follow=True)
    assert "The event has started." in messages_of(started)
    client.post(manage(event.slug, "pair"))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    (round1,) = event.rounds.all()
    assert round1.number == 1 and round1.matches.count() == 2
    lists = Decklist.objects.filter(registration__event=event)
    assert lists.count() == 4 and all(d.is_legal for d in lists)
