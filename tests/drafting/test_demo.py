"""``manage.py demo`` runs its event as a Draft event: bots draft in pods, build decks
from their pools, and those decks are the decklists of the Swiss rounds."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from django.core.management import call_command

from drafting.models import Pod, Seat
from play.services.starting import engine_deck
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_the_offline_demo_drafts_builds_and_plays_its_swiss_rounds():
    out = io.StringIO()
    call_command(
        "demo",
        "--offline",
        "--no-serve",
        "--players",
        "16",
        "--rounds",
        "2",
        "--top",
        "0",
        stdout=out,
    )
    event = Event.objects.get()
    assert event.format == "draft" and event.status == Event.Status.FINISHED
    pods = list(Pod.objects.filter(event=event))
    assert [p.seats_count for p in pods] == [8, 8]
    assert all(p.status == Pod.Status.FINISHED and p.picks.count() == 8 * 60 for p in pods)
    for seat in Seat.objects.filter(pod__event=event).select_related("registration__decklist"):
        decklist = seat.registration.decklist
        assert decklist.is_legal, seat
        played = engine_deck(event.game_system, decklist.text)
        for section in ("cities", "main", "reinforcement"):
            assert Counter(played[section]) == Counter(seat.deck.get(section) or []), seat
    text = out.getvalue()
    assert "16 decks built from the drafted pools" in text and "Event finished" in text


def test_the_demos_closing_output_points_to_the_casual_drafts(monkeypatch):
    from dashboard.management.commands import demo

    served = []
    monkeypatch.setattr(demo, "call_command", lambda *args, **kwargs: served.append(args))
    out = io.StringIO()
    command = demo.Command(stdout=out)
    event = Event(name="Demo", slug="demo")
    monkeypatch.setattr(Event, "registrations", type("R", (), {"all": lambda self: []})())
    command._serve(event, "127.0.0.1:8000")
    assert "http://127.0.0.1:8000/draft/" in out.getvalue()
    assert served == [("runserver", "127.0.0.1:8000")]


def test_the_demo_drafts_the_registrys_default_boosters(monkeypatch):
    """The demo's pods open what an event's pods open by default (``draft_sets`` and
    ``boosters_per_player`` of the game in the registry), not a list of its own."""
    from drafting.services import creating

    asked = []
    default = creating.default_set_codes

    def spy(game_system, kind=Pod.Kind.DRAFT):
        asked.append((game_system, kind))
        return default(game_system, kind)

    monkeypatch.setattr(creating, "default_set_codes", spy)
    call_command(
        "demo",
        "--offline",
        "--no-serve",
        "--players",
        "8",
        "--rounds",
        "1",
        "--top",
        "0",
        stdout=io.StringIO(),
    )
    (pod,) = Pod.objects.filter(event=Event.objects.get())
    assert asked == [("voskhozhdenie", Pod.Kind.DRAFT)]
    assert pod.set_codes == default("voskhozhdenie")
    assert pod.status == Pod.Status.FINISHED and pod.picks.count() == 8 * len(pod.set_codes) * 15
