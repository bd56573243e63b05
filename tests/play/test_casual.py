"""Casual games for every game system: decks for games that need them, tables of 3-4
seats with friends and bots, the solo game, who may see and do what, and a visitor's
way to a first game.

Games run through the services and tasks the site uses (tasks run in-process, as a
worker would run them).
"""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from engine.ascension.bots import make_bot as ascension_bot
from engine.ascension.game import SYSTEM as ASCENSION
from engine.core import registry
from engine.voskhozhdenie.bots import make_bot as voskhozhdenie_bot
from engine.voskhozhdenie.decks import deck_text, to_engine_deck
from engine.voskhozhdenie.game import SYSTEM as VOSKHOZHDENIE
from play import tasks
from play.decks import DeckChoice, DeckRefused
from play.models import ActionLog, GameSession
from play.services import starting
from play.services.acting import abort, concede, submit_action
from play.services.errors import NotAllowed, PlayError
from play.services.reading import replay_state
from play.services.starting import (
    create_bot_game,
    create_casual_game,
    create_friend_game,
    create_solo_game,
    join_game,
)
from tests.play.helpers import fresh

pytestmark = pytest.mark.django_db

ENGINES = {"ascension": ASCENSION, "voskhozhdenie": VOSKHOZHDENIE}
BRAINS = {"ascension": ascension_bot, "voskhozhdenie": voskhozhdenie_bot}


def starters():
    return registry.get("voskhozhdenie").load_starter_decks()


def engine_deck_of(key: str) -> dict:
    (deck,) = [d for d in starters() if d.key == key]
    return to_engine_deck(deck.text, VOSKHOZHDENIE.db)


def play(session: GameSession, moves: int) -> GameSession:
    """``moves`` actions or the end of the game, whichever comes first: bots through their
    task, people choosing like the heuristic bot, through the action task."""
    engine = ENGINES[session.system]
    brain = BRAINS[session.system]("heuristic", engine, 5)
    for _ in range(moves):
        session = fresh(session)
        if session.status != GameSession.Status.RUNNING:
            return session
        (seat,) = engine.to_act(session.state)
        if session.seats.get(number=seat).is_bot:
            assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
        else:
            action = brain.choose(session.state, seat)
            args = (session.pk, seat, session.seq, action)
            assert tasks.apply_action.apply(args=args).get() == "applied"
    return fresh(session)


BAD_LIST = """Cities
1 Светлоград
1 Светлоград
Main Deck
5 Послушник Зари
1 Несуществующая карта
"""


# ---------------------------------------------------------------- «Восхождение» decks


def test_a_voskhozhdenie_game_against_a_bot_starts_with_the_chosen_starter_deck(alice):
    session = create_bot_game(alice, "voskhozhdenie", deck=DeckChoice("northern-watch"))
    assert session.status == GameSession.Status.RUNNING
    assert session.decks[0] == engine_deck_of("northern-watch")
    # The bot got a starter deck too, chosen with the game's seed.
    assert session.decks[1] in [to_engine_deck(d.text, VOSKHOZHDENIE.db) for d in starters()]
    session = play(session, 40)
    assert session.seq >= 40 or session.status == GameSession.Status.FINISHED
    assert ActionLog.objects.filter(session=session).count() == session.seq
    assert replay_state(session) == session.state


def test_a_bot_deck_is_the_starter_deck_the_games_seed_chooses(alice):
    seen = set()
    for _ in range(8):
        session = create_bot_game(alice, "voskhozhdenie", bots=2)
        for seat in (1, 2):
            expected = random.Random(session.seed + seat).choice(starters())
            assert session.decks[seat] == to_engine_deck(expected.text, VOSKHOZHDENIE.db)
            seen.add(expected.key)
    assert len(seen) > 1  # not always the same deck


def test_a_pasted_list_is_checked_and_played(alice):
    # The same deck written with English names, as a player might paste it.
    text = deck_text(engine_deck_of("mist-and-night"), VOSKHOZHDENIE.db, language="en")
    session = create_bot_game(alice, "voskhozhdenie", deck=DeckChoice("paste", text))
    assert session.status == GameSession.Status.RUNNING
    assert sorted(session.decks[0]["main"]) == sorted(engine_deck_of("mist-and-night")["main"])
    assert play(session, 10).seq >= 10


def test_a_bad_list_is_refused_with_every_rule_number_and_nothing_is_created(alice):
    with pytest.raises(DeckRefused) as refused:
        create_bot_game(alice, "voskhozhdenie", deck=DeckChoice("paste", BAD_LIST))
    problems = refused.value.problems
    assert any("Line 6" in p and "Несуществующая карта" in p for p in problems)
    for rule in ("4.5.1.1", "4.5.1.2", "4.5.1.4"):  # City set, copies, Main Deck size
        assert any(f"(rule {rule})" in p for p in problems), (rule, problems)
    with pytest.raises(DeckRefused):
        create_friend_game(alice, "voskhozhdenie", deck=DeckChoice("paste", "  "))
    assert not GameSession.objects.exists()


def test_the_new_game_page_shows_every_problem_and_keeps_the_list(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("play:new_game"),
        {"system": "voskhozhdenie", "players": 2, "bots": 1, "deck": "paste", "decklist": BAD_LIST},
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "(rule 4.5.1.1)" in text and "(rule 4.5.1.2)" in text and "(rule 4.5.1.4)" in text
    assert "Несуществующая карта" in text and "5 Послушник Зари" in text  # the list is kept
    assert not GameSession.objects.exists()
    response = client.post(
        reverse("play:new_game"),
        {"system": "voskhozhdenie", "players": 2, "bots": 1, "deck": "dawn-onslaught"},
    )
    session = GameSession.objects.get()
    assert response["Location"] == reverse("play:game", args=[session.pk])
    assert session.decks[0] == engine_deck_of("dawn-onslaught")


def test_the_play_page_offers_the_starter_decks_only_to_games_that_need_decks(client, alice):
    client.force_login(alice)
    text = client.get(reverse("play:home")).content.decode()
    for deck in starters():
        assert f'value="{deck.key}"' in text and deck.name in text
    ascension = text[text.index('id="new-ascension"') : text.index('id="new-berserk"')]
    assert 'name="deck"' not in ascension and "Play solo" in ascension
    voskhozhdenie = text[text.index('id="new-voskhozhdenie"') :]
    assert 'value="2v2"' in voskhozhdenie and "Play solo" not in voskhozhdenie


# ---------------------------------------------------------------- tables of 3 and 4


def test_a_four_seat_2v2_table_fills_through_the_invite_link_then_starts(
    client, alice, bob, charlie, dave
):
    session = create_friend_game(
        alice,
        "voskhozhdenie",
        players=4,
        bots=1,
        mode="2v2",
        deck=DeckChoice("dawn-onslaught"),
    )
    assert session.status == GameSession.Status.WAITING
    assert session.config == {"teams": [[0, 1], [2, 3]], "idle_rounds": 10, "round_limit": 60}
    assert list(session.seats.values_list("number", "is_bot", "user")) == [
        (0, False, alice.pk),
        (1, False, None),
        (2, False, None),
        (3, True, None),
    ]
    url = reverse("play:join", args=[session.invite_token])
    client.force_login(bob)
    page = client.get(url).content.decode()
    assert "2 seats are still open" in page and 'value="northern-watch"' in page
    # A bad list takes no seat.
    refused = client.post(url, {"deck": "paste", "decklist": BAD_LIST})
    assert refused.status_code == 400 and "(rule 4.5.1.2)" in refused.content.decode()
    assert fresh(session).seats.filter(user=bob).count() == 0
    assert client.post(url, {"deck": "mist-and-night"}).status_code == 302
    session = fresh(session)
    assert session.status == GameSession.Status.WAITING
    assert session.seats.get(number=1).user == bob
    assert session.decks[1] == engine_deck_of("mist-and-night")
    # The last human seat starts the game, allied as the table said (rule 1.2.2).
    session = join_game(charlie, session.invite_token, DeckChoice("northern-watch"))
    assert session.status == GameSession.Status.RUNNING
    assert session.state["teams"] == [[0, 1], [2, 3]]
    assert [p["team"] for p in session.state["players"]] == [0, 0, 1, 1]
    assert session.decks[2] == engine_deck_of("northern-watch")
    with pytest.raises(PlayError, match="already started"):
        join_game(dave, session.invite_token)
    assert play(session, 60).seq >= 60 or fresh(session).is_over


def test_the_invitation_names_the_game_in_the_pages_language(client, alice, bob):
    session = create_friend_game(alice, "voskhozhdenie", players=2, bots=0)
    url = reverse("play:join", args=[session.invite_token])
    client.force_login(bob)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "invites you to a game of Voskhozhdenie (Восхождение)." in page
    client.cookies["django_language"] = "ru"
    page = client.get(url).content.decode()
    assert "приглашает вас сыграть в Восхождение." in page
    assert "voskhozhdenie." not in page


def test_a_table_waiting_for_its_seats_names_no_round_and_shows_clocks_as_time(client, alice, bob):
    session = create_friend_game(alice, "voskhozhdenie", players=2, bots=0, time_bank=900)
    client.force_login(alice)
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert "Waiting for every seat to be taken." in page
    head = page.split('<header class="tb-head">', 1)[1].split("</header>", 1)[0]
    assert "None" not in head and "Round" not in head
    # The clocks, not yet running, read as the running ones do (15:00), not in seconds.
    seats = page.split('<ul class="play-seats">', 1)[1].split("</ul>", 1)[0]
    assert seats.count('<span class="clock">15:00</span>') == 2 and "900s" not in seats
    join_game(bob, session.invite_token, DeckChoice("northern-watch"))
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert '⏱ <span class="clock">15:00</span>' in page and "900s" not in page


@pytest.mark.parametrize("system", [g.key for g in registry.all_systems() if g.engine])
def test_a_table_waiting_for_its_seats_shows_no_missing_figures(client, alice, system):
    session = create_friend_game(alice, system, players=2, bots=0)
    client.force_login(alice)
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    table = page.split('<div id="play"', 1)[1].split('id="play-error"', 1)[0]
    assert "Waiting for every seat to be taken." in table
    assert "None" not in table


def test_a_three_seat_ascension_table_with_a_friend_and_a_bot(alice, bob):
    session = create_friend_game(alice, "ascension", players=3, bots=1, time_bank=None)
    assert session.status == GameSession.Status.WAITING and session.decks == []
    session = join_game(bob, session.invite_token)
    assert session.status == GameSession.Status.RUNNING
    assert session.state["n"] == 3 and len(session.state["players"]) == 3
    assert session.seats.get(number=2).is_bot
    session = play(session, 200)
    assert session.seq >= 200 or session.status == GameSession.Status.FINISHED


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"players": 3, "mode": "2v2"}, "needs 4 players"),
        ({"players": 3, "bots": 3}, "at most 2"),
        ({"players": 2, "mode": "teams-of-9"}, "Unknown way"),
        ({"players": 2, "deck": DeckChoice("no-such-deck")}, "Unknown starter deck"),
    ],
)
def test_a_table_the_game_does_not_have_is_refused(alice, kwargs, message):
    with pytest.raises(PlayError, match=message):
        create_casual_game(alice, "voskhozhdenie", **kwargs)
    assert not GameSession.objects.exists()


def test_friends_cannot_be_left_no_seat(alice):
    with pytest.raises(PlayError, match="seat for a friend"):
        create_friend_game(alice, "ascension", players=2, bots=1)


def test_open_invitations_are_limited_until_one_is_called_off_or_starts(alice, bob, monkeypatch):
    monkeypatch.setattr(starting, "OPEN_INVITATIONS", 2)
    first = create_friend_game(alice, "ascension")
    create_friend_game(alice, "ascension")
    with pytest.raises(PlayError, match="already have 2 games waiting"):
        create_friend_game(alice, "ascension")
    assert GameSession.objects.filter(created_by=alice).count() == 2
    # Games against bots only and other players' invitations are not counted.
    create_bot_game(alice, "ascension", "random")
    create_friend_game(bob, "ascension")
    abort(alice, first)
    third = create_friend_game(alice, "ascension")
    join_game(bob, third.invite_token)  # started: no longer waiting
    create_friend_game(alice, "ascension")


# ---------------------------------------------------------------- solo


def test_solo_is_offered_only_where_the_engine_deals_one_player(alice):
    with pytest.raises(PlayError, match="no solo game"):
        create_solo_game(alice, "voskhozhdenie")
    assert not GameSession.objects.exists()


def test_a_solo_ascension_game_against_samael_is_played_to_the_end(client, alice):
    client.force_login(alice)
    response = client.post(reverse("play:new_solo_game"), {"system": "ascension"})
    session = GameSession.objects.get()
    assert response["Location"] == reverse("play:game", args=[session.pk])
    assert session.status == GameSession.Status.RUNNING
    assert list(session.seats.values_list("number", "user", "is_bot")) == [(0, alice.pk, False)]
    assert session.state["n"] == 1 and session.state["pool"] == 50
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert 'class="asc-zone asc-samael"' in page
    session = play(session, 5000)
    assert session.status == GameSession.Status.FINISHED
    assert session.end_reason == GameSession.EndReason.RULES
    state = session.state
    assert state["samael"]["cards"], "Samael took cards from the center row (A-50)"
    won = state["scores"][0] > state["samael_score"]  # a tie is not a win
    assert session.result["winners"] == ([0] if won else [])
    assert replay_state(session) == state
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert f'<strong class="asc-samael-score">{state["samael_score"]}</strong>' in page
    assert ("You beat Samael." if won else "Samael wins") in page
    for iid in state["samael"]["cards"][:3]:
        name = ASCENSION.info[state["cards"][iid]].name_en
        assert name in page


# ---------------------------------------------------------------- who may see and act


def test_another_user_cannot_act_in_a_game_nor_see_a_players_hand(client, alice, bob):
    bot_game = create_bot_game(alice, "voskhozhdenie")
    client.force_login(bob)
    acted = client.post(
        reverse("play:act", args=[bot_game.pk]),
        {"seq": bot_game.seq, "action": '{"type": "pass"}'},
        HTTP_ACCEPT="application/json",
    )
    assert acted.status_code == 403
    with pytest.raises(NotAllowed):
        submit_action(bob, bot_game, bot_game.seq, {"type": "pass"})
    with pytest.raises(NotAllowed):
        concede(bob, bot_game)
    assert fresh(bot_game).seq == bot_game.seq and fresh(bot_game).is_over is False
    game = client.get(reverse("play:game", args=[bot_game.pk]))
    assert game.status_code == 302 and game["Location"].endswith("/spectate/")
    public = client.get(reverse("play:state", args=[bot_game.pk])).json()
    assert public["seat"] is None and public["legal"] == []
    assert all(not isinstance(p["hand"], list) for p in public["view"]["players"])

    # At a table of three, each player sees their own hand only.
    session = create_friend_game(
        alice, "voskhozhdenie", players=3, bots=1, deck=DeckChoice("dawn-onslaught")
    )
    with pytest.raises(NotAllowed):
        abort(bob, session)
    session = join_game(bob, session.invite_token, DeckChoice("mist-and-night"))
    assert session.status == GameSession.Status.RUNNING
    state = client.get(reverse("play:state", args=[session.pk])).json()
    assert state["seat"] == 1
    hands = {p["seat"]: p["hand"] for p in state["view"]["players"]}
    assert isinstance(hands[1], list)
    assert not isinstance(hands[0], list) and not isinstance(hands[2], list)


# ---------------------------------------------------------------- a visitor


def test_a_visitor_signs_up_and_is_one_click_from_a_bot_game(client):
    home = client.get(reverse("play:home")).content.decode()
    signup = reverse("signup") + "?next=" + reverse("play:home")
    assert signup in home
    response = client.post(
        signup,
        {"username": "visitor", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("play:home")
    response = client.post(
        reverse("play:new_game"), {"system": "voskhozhdenie", "players": 2, "bots": 1}
    )
    session = GameSession.objects.get(created_by__username="visitor")
    assert response["Location"] == reverse("play:game", args=[session.pk])
    assert session.status == GameSession.Status.RUNNING


def test_an_invited_visitor_is_sent_to_sign_up_and_back_to_the_invitation(client, alice):
    session = create_friend_game(alice, "ascension", time_bank=None)
    url = reverse("play:join", args=[session.invite_token])
    login = client.get(url)
    assert login.status_code == 302 and "next=" in login["Location"]
    page = client.get(login["Location"]).content.decode()
    signup = reverse("signup") + "?next=" + url
    assert signup in page
    response = client.post(
        signup,
        {"username": "newcomer", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    assert response["Location"] == url
    assert client.post(url).status_code == 302
    assert fresh(session).status == GameSession.Status.RUNNING


def test_sign_up_never_sends_a_visitor_to_another_site(client):
    response = client.post(
        reverse("signup") + "?next=https://elsewhere.example/",
        {"username": "careful", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    assert response.status_code == 302 and "elsewhere" not in response["Location"]


@pytest.mark.parametrize("language, you, bot", [("en", "you", "Bot"), ("ru", "вы", "Бот")])
def test_the_final_ascension_score_names_the_players(client, alice, language, you, bot):
    """The final honor line names each player as the seats do, the viewer as "you", and
    never by seat number alone."""
    session = create_bot_game(alice, "ascension", "heuristic")
    concede(alice, session)
    client.force_login(alice)
    client.cookies["django_language"] = language
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    final = page[page.index('class="asc-final') :]
    final = final[: final.index("</p>")]
    assert fresh(session).seats.get(is_bot=True).number == 1
    assert re.search(rf'data-seat="1">alice \({you}\) <strong>\d+</strong>', final)
    assert re.search(rf'data-seat="2">{bot} [^<]* <strong>\d+</strong>', final)
    assert "seat 1" not in final and "seat 2" not in final and "место" not in final.lower()
