"""AMB-05's event option: Cities supplied by the organiser (rule 4.5.5.1).

By default a Draft deck's two Cities come from the drafted pool; the organiser of a pod
may supply a list of Cities that every player may use besides, two copies each.
"""

from __future__ import annotations

import pytest

from drafting.models import Pod, Seat
from drafting.services.creating import create_pod
from drafting.services.decks import check_deck, submit_deck
from drafting.services.errors import NotAllowed, PodError
from drafting.services.kits import kit
from drafting.services.pools import deck_pool_of, pool_of, set_supplied_cards, supply_choices
from tests.drafting.test_pods import draft_all, started_pod

pytestmark = pytest.mark.django_db


def cities_outside(pod: Pod, seat: Seat) -> list[str]:
    """Cities of the pod's sets that the seat did not draft."""
    pool = set(pool_of(pod, seat))
    return [c for c in supply_choices(pod) if c not in pool]


def deck_with_cities(pod: Pod, seat: Seat, cities: list[str]) -> dict[str, list[str]]:
    """The bot's deck from the seat's pool, its two Cities replaced by ``cities``."""
    built = kit(pod).bot_deck(pool_of(pod, seat))
    deck = {k: [c.id if hasattr(c, "id") else c for c in v] for k, v in built.items()}
    deck["cities"] = list(cities)
    return deck


def test_only_the_organiser_supplies_cities_of_the_pods_sets_until_building(alice, bob):
    pod = create_pod(alice)
    choices = list(supply_choices(pod))
    assert choices and all(c.startswith("VS1-") for c in choices)
    with pytest.raises(NotAllowed):
        set_supplied_cards(bob, pod, choices[:1])
    for bad in (["VS1-999"], [123], "VS1-001", [*choices[:1], "nonsense"]):
        with pytest.raises(PodError):
            set_supplied_cards(alice, pod, bad)
    assert Pod.objects.get(pk=pod.pk).supplied_cards == []  # nothing changed
    pod = set_supplied_cards(alice, pod, [choices[0], choices[1], choices[0]])
    assert pod.supplied_cards == [choices[0], choices[1]]
    assert set_supplied_cards(alice, pod, []).supplied_cards == []


@pytest.mark.rule("4.5.5.1", "4.5.5.10", "AMB-05", "CK-044")
def test_ck044_cities_come_from_the_pool_unless_supplied(alice):
    """CK-044, rules 4.5.5.1 and 4.5.5.10 (rec AMB-05): with default settings a deck's two
    Cities must come from the drafted pool; a City supplied by the organiser is allowed too."""
    pod, _seat, _pack = started_pod(alice, bots_inline=True)
    pod = draft_all(pod, alice)
    seat = Seat.objects.get(pod=pod, user=alice)
    outside = cities_outside(pod, seat)[: kit(pod).supply.most]
    assert outside, "every City of the set was drafted by this seat"
    # Supplied Cities can no longer change once building started...
    with pytest.raises(PodError):
        set_supplied_cards(alice, pod, outside)
    # ...so supply them on the pod as the organiser would have before the start.
    Pod.objects.filter(pk=pod.pk).update(supplied_cards=outside)
    supplied = Pod.objects.get(pk=pod.pk)
    legal = None
    pairs = [(a, b) for a in outside for b in outside if a <= b]
    for pair in pairs:  # two supplied Cities whose colours suit the deck (rule 4.5.5.8)
        deck = deck_with_cities(supplied, seat, list(pair))
        if check_deck(supplied, seat, deck) == []:
            legal = deck
            break
    assert legal is not None, "no supplied Cities suit the bot's colours"
    city = legal["cities"][0]
    assert deck_pool_of(supplied, seat).count(city) == kit(pod).supply.copies
    # Without the option the same deck is refused: the Cities are not in the pool.
    assert any("4.5.5" in str(p) for p in check_deck(pod, seat, legal))
    three = dict(legal, cities=[city] * 3)
    assert check_deck(supplied, seat, three)  # two Cities, two copies at most
    submit_deck(alice, supplied, legal)
    assert Seat.objects.get(pk=seat.pk).deck["cities"] == legal["cities"]


def test_the_pods_console_offers_the_cities_to_its_organiser_only(client, alice, bob):
    pod = create_pod(alice)
    choice = supply_choices(pod)[0]
    client.force_login(alice)
    page = client.get(f"/draft/{pod.pk}/manage/").content.decode()
    assert 'id="save-supply"' in page and f'value="{choice}"' in page
    response = client.post(f"/draft/{pod.pk}/do/supply/", {"card": [choice]})
    assert response.status_code == 302 and response.url == f"/draft/{pod.pk}/manage/"
    assert Pod.objects.get(pk=pod.pk).supplied_cards == [choice]
    client.force_login(bob)
    assert client.post(f"/draft/{pod.pk}/do/supply/", {"card": []}).status_code == 403
    assert Pod.objects.get(pk=pod.pk).supplied_cards == [choice]
