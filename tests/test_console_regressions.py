"""Regressions of defects an organiser met in the event console, each through a request."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst

from tests.tournaments.factories import make_event, play_round
from tournaments.services.pairing import pair_next_round, publish_round

pytestmark = pytest.mark.django_db


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_adding_a_registered_player_again_names_the_player_not_the_organiser(alice, bob):
    event, _ = make_event(alice, players=2, start=False)
    client = as_user(alice)
    url = reverse("tournaments:manage_action", args=[event.slug, "add-player"])
    client.post(url, {"display_name": "Bob", "username": "bob"})
    response = client.post(url, {"display_name": "Bob again", "username": "bob"})
    assert said(response)[-1] == "bob is already registered for this event."


def test_starting_with_one_player_checked_in_says_so_and_drops_nobody(alice):
    event, regs = make_event(alice, players=4, start=False)
    client = as_user(alice)
    client.post(
        reverse("tournaments:manage_action", args=[event.slug, "check-in"]),
        {"registration": regs[0].pk},
    )
    response = client.post(reverse("tournaments:manage_action", args=[event.slug, "start"]))
    assert said(response)[-1] == (
        "Only one player has checked in, and players who have not are dropped at the start: "
        "check in at least one more."
    )
    event.refresh_from_db()
    assert event.status == "registration"
    assert not event.registrations.filter(status="dropped").exists()


def test_swapping_a_player_with_themself_says_to_choose_two_players(alice):
    event, regs = make_event(alice, players=4)
    rnd = pair_next_round(alice, event)
    response = as_user(alice).post(
        reverse("tournaments:manage_action", args=[event.slug, "swap"]),
        {"round": rnd.pk, "first": regs[0].pk, "second": regs[0].pk},
    )
    assert said(response)[-1] == "Choose two different players to swap."


def test_the_printed_standings_show_no_tiebreakers_for_a_player_who_has_not_played(alice):
    """As the standings page does: a player dropped before round 1 (did not check in) has
    no opponents and no games, not 33% of each (the floor of a percentage of nothing)."""
    event, regs = make_event(alice, players=5, start=False)
    client = as_user(alice)
    for reg in regs[:4]:
        client.post(
            reverse("tournaments:manage_action", args=[event.slug, "check-in"]),
            {"registration": reg.pk},
        )
    client.post(reverse("tournaments:manage_action", args=[event.slug, "start"]))
    event.refresh_from_db()
    play_round(alice, event)
    absent = regs[4].display_name
    page = client.get(reverse("tournaments:printout", args=[event.slug, "standings"]))
    rows = re.findall(r"<tr[^>]*>(?:(?!</tr>).)*</tr>", page.content.decode())
    (row,) = [r for r in rows if absent in r]
    cells = re.findall(r'<td class="num">([^<]*)</td>', row)
    assert cells[2] == "0-0-0"
    assert cells[-3:] == ["—", "—", "—"]
    played = [r for r in rows if regs[0].display_name in r]
    assert "—" not in played[0]


def test_refused_settings_name_the_fields_by_their_labels(alice):
    from tournaments.forms import EventForm

    event, _regs = make_event(alice, players=2, start=False)
    form = EventForm(instance=event)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = value
    data["max_players"] = -5
    client = as_user(alice)
    client.cookies["django_language"] = "ru"
    response = client.post(
        reverse("tournaments:manage_action", args=[event.slug, "settings"]), data
    )
    line = said(response)[-1]
    with translation.override("ru"):
        label = capfirst(str(form.fields["max_players"].label))
    assert "max_players" not in line
    assert line.startswith(f"{label}: ")
    event.refresh_from_db()
    assert event.max_players != -5


def test_the_result_desk_keeps_a_judges_game_loss(alice):
    """A game loss at a table records game 1 for the opponent (docs/decisions/0060): the
    organiser's one-click result begins with it, and a score that leaves it out is
    neither offered nor accepted (it wiped the penalty's game out)."""
    from tournaments.models import Match
    from tournaments.services.penalties import issue_penalty, penalty_types

    event, _regs = make_event(alice, players=4)
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.filter(is_bye=False).order_by("table").first()
    first, second = (s.registration for s in match.seats.order_by("seat"))
    game_loss = next(t for t in penalty_types(event) if t.effect == "game_loss")
    issue_penalty(alice, game_loss, second, "marked cards", match)  # game 1 to the first seat
    client = as_user(alice)

    page = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    desk = re.search(rf'<tr id="match-{match.pk}">.*?</tr>', page, re.S).group(0)
    assert f"{first.display_name} 2–0" in desk
    assert f"{second.display_name} 2–1" in desk
    assert f"{second.display_name} 2–0" not in desk  # would leave the game loss out

    url = reverse("tournaments:manage_action", args=[event.slug, "result"])
    response = client.post(url, {"match": match.pk, "score": "0-2-0"})
    assert said(response)[-1].startswith("A game of this match is already recorded by a judge")
    match.refresh_from_db()
    assert match.status != Match.Status.FINAL
    assert list(match.games.values_list("winner_seat", flat=True)) == [0]

    client.post(url, {"match": match.pk, "score": "1-2-0"})  # the second player won 2-1
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert list(match.games.order_by("number").values_list("winner_seat", flat=True)) == [0, 1, 1]
