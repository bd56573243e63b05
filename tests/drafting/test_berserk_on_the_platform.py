"""Berserk on the platform: draft and sealed pods (the game's limited kit), events with
decklists checked by its rules (100.2-100.3); and a game without a rules engine kept to
paper events."""

from __future__ import annotations

import pytest

from drafting.models import Pod
from drafting.services.creating import create_pod
from drafting.services.decks import check_deck, deck_text
from drafting.services.pools import pool_of
from drafting.services.starting import start_pod
from engine.berserk.cards import load_system
from engine.berserk.decks import DECKLISTS
from engine.core import registry
from engine.core.registry import Format, GameSystemInfo
from tournaments.services.decklists import submit_decklist
from tournaments.services.errors import TournamentError
from tournaments.services.events import create_event
from tournaments.services.players import register

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", [Pod.Kind.DRAFT, Pod.Kind.SEALED])
def test_a_pod_of_eight_bots_drafts_and_builds_legal_berserk_decks(alice, kind):
    pod = create_pod(alice, join=False, game_system="berserk", kind=kind, bots_inline=True)
    assert pod.set_codes == ["BK1"] * (3 if kind == Pod.Kind.DRAFT else 6)
    pod = start_pod(alice, pod)
    pod.refresh_from_db()
    assert pod.status == Pod.Status.FINISHED
    for seat in pod.seats.all():
        assert len(pool_of(pod, seat)) == (45 if kind == Pod.Kind.DRAFT else 90)
        assert 20 <= len(seat.deck["deck"]) <= 50  # 100.2а, 100.3
        assert check_deck(pod, seat, seat.deck) == []
        assert "Deck" in deck_text(pod, seat.deck)


def constructed_list(size: int) -> str:
    creatures = [c.id for c in load_system().all_cards() if c.type == "creature"]
    ids = [creatures[n // 3] for n in range(size)]  # three copies each (100.2б)
    return DECKLISTS.write({"deck": ids})


def test_a_berserk_paper_event_checks_decklists_by_the_rules(alice, bob):
    event = create_event(alice, name="Berserk Open", game_system="berserk", format="constructed")
    reg = register(event, user=bob)
    short = submit_decklist(bob, reg, constructed_list(29))
    assert not short.is_legal and "100.2а" in {p["rule"] for p in short.problems}
    assert submit_decklist(bob, reg, constructed_list(30)).is_legal


def test_online_play_waits_for_a_rules_engine(alice):
    """A game registered with formats and decklists but no engine runs paper events only."""
    registry.register(
        GameSystemInfo(key="paper-only", name="Paper only", formats=(Format("std", "Std"),))
    )
    try:
        with pytest.raises(TournamentError, match="no rules engine yet"):
            create_event(alice, name="Online", game_system="paper-only", play_online=True)
        event = create_event(alice, name="Paper", game_system="paper-only")
        assert not event.play_online
    finally:
        registry.unregister("paper-only")


def test_the_drafts_pages_name_the_games_in_the_pages_language(client, alice):
    client.force_login(alice)
    client.cookies["django_language"] = "ru"
    for url in ("/draft/", "/draft/new/"):
        page = client.get(url).content.decode()
        assert '<option value="berserk">Берсерк</option>' in page, url
        assert ">Восхождение</option>" in page, url
        assert "Voskhozhdenie" not in page, url


def test_a_berserk_pod_from_the_drafts_page(client, alice):
    client.force_login(alice)
    page = client.get("/draft/").content.decode()
    assert 'value="berserk"' in page  # the game menu of the quick pods, from the registry
    response = client.post("/draft/quick/", {"kind": "sealed", "game_system": "berserk"})
    pod = Pod.objects.get(game_system="berserk")
    assert response["Location"] == f"/draft/{pod.pk}/deck/"
    deck_page = client.get(response["Location"]).content.decode()
    assert "100.2а" in deck_page and "20–50" in deck_page  # the kit's rules and target
    form = {"game_system": "berserk", "kind": "draft", "seats_count": 8, "set_codes": ""}
    form |= {"pick_base_seconds": 5, "pick_seconds_per_card": 5, "pick_max_seconds": 75}
    form |= {"review_seconds": 20, "build_minutes": 30, "abandon_after": 3}
    opened = client.post("/draft/new/", form)
    assert opened.status_code == 302
    assert Pod.objects.filter(game_system="berserk", set_codes=["BK1"] * 3).exists()
