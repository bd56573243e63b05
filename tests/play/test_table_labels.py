"""The game tables read like sentences: legal actions, the pending decision and the log
come from the engine's describer, built from the viewer's own view (never the state)."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.sample import sample_deck
from play.models import GameSession, SessionSeat
from play.services.acting import apply_action
from play.services.starting import _start

pytestmark = pytest.mark.django_db


def voskhozhdenie_game(alice, bob) -> GameSession:
    """A two-player game with sample decks, dealt (the seat to act picks the first player)."""
    decks = [sample_deck(SYSTEM.db, 11 + k, cities=2, main=20) for k in range(2)]
    with transaction.atomic():
        session = GameSession.objects.create(
            system="voskhozhdenie", created_by=alice, decks=decks, seed=7
        )
        SessionSeat.objects.create(session=session, number=0, user=alice)
        SessionSeat.objects.create(session=session, number=1, user=bob)
        _start(session)
    session.refresh_from_db()
    return session


def act_until_round(session: GameSession) -> GameSession:
    """Keep every hand and play on until the Actions step of round 1."""
    while session.state["step"] != "action":
        (seat,) = SYSTEM.to_act(session.state)
        legal = SYSTEM.legal_actions(session.state, seat)
        action = next((a for a in legal if a["type"] in ("keep", "decline")), legal[0])
        assert apply_action(session.pk, seat, session.seq, action).status == "applied"
        session.refresh_from_db()
    return session


def test_the_table_names_cards_and_seats_and_hides_the_other_hand(client, alice, bob):
    session = act_until_round(voskhozhdenie_game(alice, bob))
    (seat,) = SYSTEM.to_act(session.state)
    me = alice if seat == 0 else bob
    client.force_login(me)
    html = client.get(f"/play/{session.pk}/").content.decode()
    assert "iid" not in html.split('class="play-log"')[1]  # no raw instance ids in the log
    # Every card of my hand has its name and a details panel; the other hand is a count.
    my_hand = session.state["players"][seat]["hand"]
    their_hand = session.state["players"][1 - seat]["hand"]
    for iid in my_hand:
        card = SYSTEM.db.card(session.state["cards"][iid]["card"])
        assert f'data-iid="{iid}"' in html
        assert card.name_en in html
    hidden = {SYSTEM.db.card(session.state["cards"][i]["card"]).name_en for i in their_hand} - {
        SYSTEM.db.card(c["card"]).name_en for c in session.state["cards"] if c["zone"] != "hand"
    }
    hidden -= {SYSTEM.db.card(session.state["cards"][i]["card"]).name_en for i in my_hand}
    for name in hidden:
        assert name not in html, f"{name} from the other hand leaks into the page"
    # Buttons: "Pass: ..." and one group per card, seats counted from 1 with names.
    assert "Pass: no more actions this round" in html
    assert f"Seat {seat + 1} ({me.username}, you)" in html
    assert "Choose choice_id" not in html and "Assign iid" not in html
    assert 'class="gc-body"' in html  # card details open on tap


def test_the_log_describes_events_with_card_names(client, alice, bob):
    session = act_until_round(voskhozhdenie_game(alice, bob))
    client.force_login(alice)
    html = client.get(f"/play/{session.pk}/").content.decode()
    log = html.split('class="play-log"')[1]
    assert "draws 5 cards" in log
    assert "keeps their hand" in log
    assert "Round 1 begins" in log


def test_russian_labels(client, alice, bob):
    session = act_until_round(voskhozhdenie_game(alice, bob))
    (seat,) = SYSTEM.to_act(session.state)
    client.force_login(alice if seat == 0 else bob)
    html = client.get(f"/play/{session.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Пас: больше не действовать в этом раунде" in html
    assert f"Место {seat + 1}" in html


def test_each_button_posts_a_legal_action(client, alice, bob):
    session = act_until_round(voskhozhdenie_game(alice, bob))
    (seat,) = SYSTEM.to_act(session.state)
    client.force_login(alice if seat == 0 else bob)
    html = client.get(f"/play/{session.pk}/").content.decode()
    legal = SYSTEM.legal_actions(session.state, seat)
    import html as html_lib
    import re

    posted = [
        json.loads(html_lib.unescape(v)) for v in re.findall(r'name="action" value="([^"]*)"', html)
    ]
    assert sorted(map(json.dumps, posted)) == sorted(map(json.dumps, legal))


def test_a_card_hidden_from_the_viewer_is_named_as_hidden_not_as_none():
    """A triggered ability of a card in a Hand stands in the open Queue with its card
    hidden (rule 1.4.2.7): the table says so instead of printing an empty value."""
    from django.template.loader import render_to_string

    hidden = {"kind": "ability", "source": None, "card": None, "ability": None, "controller": 1}
    html = render_to_string("play/_card.html", {"c": hidden, "key": "q", "cls": "ability"})
    assert "a hidden card" in html
    assert "None" not in html


def test_an_effect_choice_of_the_action_is_shown_in_the_actions_step(client, alice, bob):
    """Fireball with X=0 asks what to wound while it resolves in the Queue: the game is
    still in the turn's Action phase (5.6.3.2), since the Turn-end effects (5.6.3.3) wait
    for the Queue to empty (5.7), so the headline names the Actions step."""
    session = act_until_round(voskhozhdenie_game(alice, bob))
    (seat,) = SYSTEM.to_act(session.state)
    state = session.state
    me, them = state["players"][seat], state["players"][1 - seat]
    fireball = me["hand"][0]
    state["cards"][fireball]["card"] = "VS1-150"  # Fireball: wound X an enemy Squad
    squad = them["hand"].pop()
    state["cards"][squad].update(card="VS1-129", zone="battlefield", strength=2, wounded=False,
                                 ruined=False, entered=0, tactic=None, side=None)  # fmt: skip
    state["battlefield"].append(squad)
    GameSession.objects.filter(pk=session.pk).update(state=state)
    action = {"type": "play", "iid": fireball, "x": 0}
    assert action in SYSTEM.legal_actions(state, seat)
    assert apply_action(session.pk, seat, session.seq, action).status == "applied"
    session.refresh_from_db()
    assert session.state["pending"]["player"] == seat and session.state["queue"]
    client.force_login(alice if seat == 0 else bob)
    html = client.get(f"/play/{session.pk}/").content.decode()
    head = html.split('<header class="tb-head">')[1].split("</header>")[0]
    assert '<span class="muted">Step</span> <strong>Actions</strong>' in head
    assert "Turn end" not in head
    assert "Choose what to wound (for «Fireball»)" in html
