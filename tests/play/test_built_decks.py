""" "Play this deck": a deck from the deck builder seated at a casual table, checked by the
game's own rules in the format it was built for (Berserk draft: 20-50 cards from the
pool, 100.2а and 100.3), never as constructed; against a bot that plays a deck of the same
format, or a friend who brings their own; one table for one request; only the deck's
owner may play it. And /play/'s pasted list checked in the format the player chooses."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.creating import create_pod, quick_pod
from drafting.services.decks import play_ticket, submit_deck
from drafting.services.errors import PodError
from drafting.services.picks import make_pick
from drafting.services.pools import deck_pool
from drafting.services.starting import start_pod
from engine.core import registry
from play import decks as casual_decks
from play.decks import DeckChoice, DeckRefused
from play.models import GameSession
from play.services.built import play_built_deck
from play.services.errors import NotAllowed
from play.services.starting import join_game
from tests.races import run_together
from tournaments.built_decks import BuiltDeck, sign, unsign

pytestmark = pytest.mark.django_db

BERSERK = registry.get("berserk")


def drafted_pod(user, system: str = "berserk") -> Pod:
    """A two-seat draft of ``system`` the user has drafted to the end (the bot inline)."""
    pod = start_pod(
        user,
        create_pod(user, game_system=system, seats_count=2, bots_inline=True, pick_max_seconds=600),
    )
    for _ in range(200):
        pod = Pod.objects.get(pk=pod.pk)
        if pod.status != Pod.Status.DRAFTING:
            break
        seat = Seat.objects.get(pod=pod, user=user)
        pack = draft_core.current_pack(pod.state, seat.number)
        make_pick(user, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    pod = Pod.objects.get(pk=pod.pk)
    assert pod.status == Pod.Status.BUILDING
    return pod


def seat_of(pod: Pod, user) -> Seat:
    return Seat.objects.get(pod=pod, user=user)


def draft_deck(pod: Pod, user, size: int = 22) -> dict[str, list[str]]:
    """``size`` cards of the user's pool: legal in draft (20+, 100.2а), not constructed (30+)."""
    pool = deck_pool(pod, seat_of(pod, user).number)
    return {"deck": pool[:size]}


@pytest.fixture
def pod(alice):
    return drafted_pod(alice)


def test_a_draft_deck_legal_in_draft_not_constructed_is_played_against_a_bot(alice, pod):
    deck = draft_deck(pod, alice)
    decks = BERSERK.load("decks")
    constructed = decks.validate(decks.write(deck), "constructed")
    assert "100.2а" in {p.rule for p in constructed.problems}  # too small for constructed

    session = play_built_deck(alice, play_ticket(alice, pod, deck), "bot")

    assert session.status == GameSession.Status.RUNNING
    assert session.deck_format == "draft"
    origin = session.deck_origin
    assert origin["kind"] == "pod" and origin["pod"] == pod.pk
    assert origin["owner"] == alice.pk
    assert origin["pool"] == deck_pool(pod, seat_of(pod, alice).number)
    assert origin["deck"] == deck
    # The bot's deck: built by the engine's limited kit from a sealed pool, legal in draft.
    assert origin["bots"] == ["pool"]
    mine = session.seats.get(user=alice).number
    assert len(session.decks[mine]) == 22
    assert 20 <= len(session.decks[1 - mine]) <= 50


def test_the_bots_deck_is_legal_in_the_format_of_the_table():
    engine_deck, source = casual_decks.opponent_deck("berserk", "sealed", 7, ["BK1"])
    assert source == "pool"
    assert 20 <= len(engine_deck) <= 50  # 100.2а, 100.3
    # A constructed table keeps its starter decks.
    _deck, source = casual_decks.opponent_deck("berserk", "constructed", 7, ["BK1"])
    assert source == "starter"


def test_an_illegal_deck_is_refused_with_the_rule_and_nothing_is_created(alice, pod):
    with pytest.raises(PodError) as refused:
        play_ticket(alice, pod, draft_deck(pod, alice, size=12))
    assert "100.2а" in {p["rule"] for p in refused.value.problems}

    # A ticket for the same small deck (as a forged or stale page would send) is
    # refused at the table too, with the engine's message, and makes no table.
    good = unsign(play_ticket(alice, pod, draft_deck(pod, alice)))
    small = BuiltDeck(**{**good.as_dict(), "deck": draft_deck(pod, alice, size=12)})
    with pytest.raises(DeckRefused) as table_refused:
        play_built_deck(alice, sign(small), "bot")
    assert any("100.2а" in p for p in table_refused.value.problems)
    assert GameSession.objects.count() == 0


def test_a_card_outside_the_pool_is_refused(alice, pod):
    pool = deck_pool(pod, seat_of(pod, alice).number)
    other = next(
        c for c in BERSERK.load("limited").sealed_pool(["BK1"] * 6, 3) if Counter(pool)[c] == 0
    )
    good = unsign(play_ticket(alice, pod, draft_deck(pod, alice)))
    forged = BuiltDeck(**{**good.as_dict(), "deck": {"deck": [*pool[:21], other]}})
    with pytest.raises(DeckRefused):
        play_built_deck(alice, sign(forged), "bot")
    assert GameSession.objects.count() == 0


def test_two_posts_of_one_request_make_one_table(alice, pod):
    ticket = play_ticket(alice, pod, draft_deck(pod, alice), nonce="page-1")
    first = play_built_deck(alice, ticket, "bot")
    again = play_built_deck(alice, ticket, "bot")
    assert again.pk == first.pk
    assert GameSession.objects.count() == 1
    # Another page (another nonce) is another request: a new game.
    other = play_built_deck(alice, play_ticket(alice, pod, draft_deck(pod, alice)), "bot")
    assert other.pk != first.pk


@pytest.mark.django_db(transaction=True)
def test_two_posts_at_the_same_instant_make_one_table_settled_by_the_database(alice):
    pod = drafted_pod(alice)
    ticket = play_ticket(alice, pod, draft_deck(pod, alice), nonce="double-click")
    outcomes = run_together(
        lambda: play_built_deck(alice, ticket, "friend").pk,
        lambda: play_built_deck(alice, ticket, "friend").pk,
    )
    assert [kind for kind, _value in outcomes] == ["ok", "ok"], outcomes
    assert outcomes[0][1] == outcomes[1][1]
    assert GameSession.objects.count() == 1


def test_only_the_owner_plays_the_deck(alice, bob, pod):
    ticket = play_ticket(alice, pod, draft_deck(pod, alice))
    with pytest.raises(NotAllowed):
        play_built_deck(bob, ticket, "bot")
    with pytest.raises(PodError):  # bob has no seat in the pod
        play_ticket(bob, pod, None)
    assert GameSession.objects.count() == 0


def test_a_friend_joins_with_their_own_deck_checked_as_constructed(client, alice, bob, pod):
    session = play_built_deck(alice, play_ticket(alice, pod, draft_deck(pod, alice)), "friend")
    assert session.status == GameSession.Status.WAITING and session.invite_token
    decks = BERSERK.load("decks")
    with pytest.raises(DeckRefused):  # 22 cards: a draft deck is not a constructed one
        join_game(
            bob, session.invite_token, DeckChoice("paste", decks.write(draft_deck(pod, alice)))
        )
    client.force_login(bob)
    join = client.get(reverse("play:join", args=[session.invite_token])).content.decode()
    assert "plays a Draft deck built in" in join and "checked under the Constructed" in join
    starter = casual_decks.starter_decks("berserk")[0].key
    session = join_game(bob, session.invite_token, DeckChoice(starter))
    assert session.status == GameSession.Status.RUNNING
    assert session.deck_format == "draft"


def test_a_voskhozhdenie_sealed_deck_plays_a_bot_with_a_sealed_deck(alice):
    pod = quick_pod(alice, kind=Pod.Kind.SEALED)
    seat = seat_of(pod, alice)
    deck = registry.get(pod.game_system).load("limited").bot_deck(deck_pool(pod, seat.number))
    session = play_built_deck(alice, play_ticket(alice, pod, deck), "bot")
    assert session.status == GameSession.Status.RUNNING
    assert session.deck_format == "sealed"
    assert session.deck_origin["bots"] == ["pool"]


# ---------------------------------------------------------------- the pages


def slots(pod: Pod, user, deck: dict[str, list[str]]) -> dict[str, str]:
    """The builder's form for ``deck``: each pool entry's section (by index)."""
    left = Counter(deck["deck"])
    out = {}
    for index, card_id in enumerate(deck_pool(pod, seat_of(pod, user).number)):
        out[f"slot-{index}"] = "deck" if left[card_id] > 0 else ""
        left[card_id] -= 1
    return out


def test_the_builder_sends_the_deck_to_a_table_against_a_bot(client, alice, pod):
    client.force_login(alice)
    url = reverse("drafting:play_deck", args=[pod.pk])
    form = {**slots(pod, alice, draft_deck(pod, alice)), "opponent": "bot", "nonce": "n1"}
    sent = client.post(url, form)
    assert sent.status_code == 307
    assert sent["Location"].startswith(reverse("play:built_deck") + "?ticket=")
    arrived = client.post(url, form, follow=True)
    session = GameSession.objects.get()
    assert arrived.redirect_chain[-1][0] == reverse("play:game", args=[session.pk])
    assert session.created_by == alice and session.deck_format == "draft"
    assert "Your Draft deck" in arrived.content.decode()


def test_a_saved_deck_is_played_from_the_finished_pod(client, alice, pod):
    submit_deck(alice, pod, draft_deck(pod, alice, size=25))
    pod.refresh_from_db()
    assert pod.status == Pod.Status.FINISHED
    client.force_login(alice)
    page = client.get(reverse("drafting:deck", args=[pod.pk])).content.decode()
    assert 'id="play-deck-bot"' in page
    sent = client.post(reverse("drafting:play_deck", args=[pod.pk]), {"opponent": "bot"})
    assert sent.status_code == 307
    client.post(reverse("drafting:play_deck", args=[pod.pk]), {"opponent": "bot"}, follow=True)
    session = GameSession.objects.get()
    assert session.deck_origin["deck"] == draft_deck(pod, alice, size=25)


def test_the_builder_refuses_an_illegal_deck_on_its_own_page(client, alice, pod):
    client.force_login(alice)
    url = reverse("drafting:play_deck", args=[pod.pk])
    form = {**slots(pod, alice, draft_deck(pod, alice, size=10)), "opponent": "bot"}
    page = client.post(url, form)
    assert page.status_code == 400
    assert "No game was created." in page.content.decode()
    assert "100.2а" in page.content.decode()
    assert GameSession.objects.count() == 0


def test_only_a_seated_player_may_play_and_visitors_log_in_first(client, alice, bob, pod):
    url = reverse("drafting:play_deck", args=[pod.pk])
    form = {**slots(pod, alice, draft_deck(pod, alice)), "opponent": "bot"}
    anonymous = client.post(url, form)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    ticket = play_ticket(alice, pod, draft_deck(pod, alice))
    table = reverse("play:built_deck") + "?ticket=" + ticket
    anonymous = client.post(table, {"opponent": "bot"})
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    client.force_login(bob)
    assert client.post(url, form).status_code == 403
    assert client.post(table, {"opponent": "bot"}).status_code == 403
    assert GameSession.objects.count() == 0


def test_the_builder_page_offers_play_this_deck(client, alice, pod):
    client.force_login(alice)
    page = client.get(reverse("drafting:deck", args=[pod.pk])).content.decode()
    assert 'id="play-deck-bot"' in page and 'id="play-deck-friend"' in page
    assert "Draft deck rules" in page


# ---------------------------------------------------------------- /play/'s pasted list


def test_a_pasted_list_is_checked_in_the_format_chosen(client, alice, pod):
    client.force_login(alice)
    text = BERSERK.load("decks").write(draft_deck(pod, alice))
    form = {"system": "berserk", "players": 2, "bots": 1, "deck": "paste", "decklist": text}
    refused = client.post(reverse("play:new_game"), form)  # constructed, the default
    assert refused.status_code == 400 and "100.2" in refused.content.decode()
    assert GameSession.objects.count() == 0
    made = client.post(reverse("play:new_game"), {**form, "format": "draft"})
    session = GameSession.objects.get()
    assert made["Location"] == reverse("play:game", args=[session.pk])
    assert session.deck_format == "draft" and session.deck_origin == {
        "kind": "paste",
        "bots": ["pool"],
    }
    home = client.get(reverse("play:home")).content.decode()
    assert 'name="format"' in home and ">Draft<" in home


def test_an_unknown_format_is_refused():
    with pytest.raises(Exception, match="Unknown format"):
        casual_decks.check_pasted("berserk", "1 x", "team_blitz")
