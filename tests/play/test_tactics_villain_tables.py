"""Ascension Tactics against the villains at casual tables from /play/ (T-81..T-101): solo
(one seat), co-op (two heroes, T-96..T-98) and archvillain (the hero at seat 0, the
villain player at seat 1, T-99/T-100), each a table mode of the registry whose engine
config (``TableMode.engine_config``: the mode and the difficulty of T-101) goes to the
engine unread by the play app.

The person's moves are the heuristic bot's, applied by the worker's task as the act
endpoint queues them; bots move through their own task. Every game is played to the end
and replayed from the log.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from engine.core import registry
from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.errors import PlayError
from play.services.reading import replay_state
from play.services.starting import create_casual_game, create_solo_game, join_game
from tests.play.helpers import fresh

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 5)


def start(client, players: int, bots: int, mode: str) -> GameSession:
    """A table from the new-game form, as the page posts it."""
    form = {"system": "tactics", "players": players, "bots": bots, "bot": "heuristic"}
    response = client.post(reverse("play:new_game"), {**form, "mode": mode})
    session = GameSession.objects.get(system="tactics")
    assert response.status_code == 302, response
    assert response["Location"] == reverse("play:game", args=[session.pk])
    assert session.status == GameSession.Status.RUNNING
    return session


def play_out(session: GameSession, limit: int = 6000) -> GameSession:
    for _ in range(limit):
        session = fresh(session)
        if session.status != GameSession.Status.RUNNING:
            return session
        seat = SYSTEM.to_act(session.state)[0]
        if session.seats.get(number=seat).is_bot:
            assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
        else:
            action = BRAIN.choose(session.state, seat)
            args = (session.pk, seat, session.seq, action)
            assert tasks.apply_action.apply(args=args).get() == "applied"
    raise AssertionError("the game did not end")


def finished(client, session: GameSession) -> GameSession:
    assert client.get(reverse("play:game", args=[session.pk])).status_code == 200
    session = play_out(session)
    assert session.status == GameSession.Status.FINISHED
    assert replay_state(session) == session.state
    assert client.get(reverse("play:game", args=[session.pk])).status_code == 200
    assert client.get(reverse("play:replay", args=[session.pk])).status_code == 200
    return session


def test_the_form_offers_the_villain_tables_and_one_seat(client, alice):
    client.force_login(alice)
    page = client.get(reverse("play:home")).content.decode()
    section = page[page.index('id="new-tactics"') :]
    section = section[: section.index("</section>")]
    for mode in registry.get("tactics").table_modes:
        assert f'value="{mode.key}"' in section
    for key in ("solo", "solo_hard", "coop", "coop_nightmare", "archvillain", "arch_hard"):
        assert f'<option value="{key}"' in section
    assert '<option value="1">1</option>' in section  # a one-seat table (registry solo)


@pytest.mark.parametrize("mode, difficulty", [("solo", "normal"), ("solo_hard", "hard")])
def test_a_solo_table_against_the_villains_is_played_to_the_end(client, alice, mode, difficulty):
    client.force_login(alice)
    session = start(client, 1, 0, mode)
    assert session.config == {"players": 1, "mode": "solo", "difficulty": difficulty}
    assert list(session.seats.values_list("number", "is_bot")) == [(0, False)]
    villain = session.state["villain"]
    assert session.state["mode"] == "solo" and villain["difficulty"] == difficulty
    assert len(villain["discard"]) == {"normal": 0, "hard": 4}[difficulty]  # T-101
    session = finished(client, session)
    result = session.result
    won = session.state["players"][0]["glory"] >= session.state["victory"]["glory"]
    assert result["winners"] == ([0] if won else [])  # the villains are no seat in solo
    assert won != session.state["villain"]["won"]


def test_the_play_solo_button_deals_the_solo_game_against_the_villains(client, alice):
    client.force_login(alice)
    response = client.post(reverse("play:new_solo_game"), {"system": "tactics"})
    session = GameSession.objects.get(system="tactics")
    assert response.status_code == 302
    assert session.config == {"players": 1}
    assert session.state["mode"] == "solo" and session.state["villain"]["difficulty"] == "normal"
    finished(client, session)


def test_a_co_op_table_two_heroes_against_the_villains(client, alice):
    client.force_login(alice)
    session = start(client, 2, 1, "coop")
    assert session.config == {"mode": "coop", "difficulty": "normal"}
    assert list(session.seats.values_list("number", "is_bot")) == [(0, False), (1, True)]
    assert session.state["mode"] == "coop" and session.state["phase"] == "draft"  # T-96
    session = finished(client, session)
    winners = session.result["winners"]
    assert winners in ([], [0, 1])  # T-79: both win or lose together
    assert (winners == [0, 1]) != session.state["villain"]["won"]
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert "mode=coop" in page  # play again: the same table mode


@pytest.mark.parametrize("mode", ["archvillain", "arch_nightmare"])
def test_an_archvillain_table_the_bot_plays_the_villains(client, alice, mode):
    client.force_login(alice)
    session = start(client, 2, 1, mode)
    difficulty = "normal" if mode == "archvillain" else "nightmare"
    assert session.config == {"mode": "archvillain", "difficulty": difficulty}
    assert session.state["villain"]["player"] and session.state["villain"]["seat"] == 1
    hand = SYSTEM.view(session.state, 0)["villains"]["hand"]
    assert hand == 3  # T-99: the hero sees a count, never the schemes
    session = finished(client, session)
    winners = session.result["winners"]
    assert winners in ([0], [1])
    assert (winners == [1]) == session.state["villain"]["won"]


def test_a_co_op_table_of_two_friends_starts_when_the_second_joins(client, alice, bob):
    session = create_casual_game(alice, "tactics", players=2, mode="coop_hard")
    assert session.status == GameSession.Status.WAITING and session.invite_token
    join_game(bob, session.invite_token)
    session = fresh(session)
    assert session.status == GameSession.Status.RUNNING
    assert session.state["mode"] == "coop" and session.state["villain"]["difficulty"] == "hard"
    assert list(session.seats.values_list("number", "user__username")) == [
        (0, "alice"),
        (1, "bob"),
    ]
    client.force_login(bob)
    finished(client, session)


@pytest.mark.parametrize(
    "players, bots, mode, message",
    [
        (2, 1, "solo", "needs 1 players"),
        (1, 0, "coop", "needs 2 players"),
        (1, 0, "arch_hard", "needs 2 players"),
        (3, 2, "archvillain", "needs 2 players"),
        (1, 0, "coop_easy", "Unknown way to seat the players"),
    ],
)
def test_a_villain_table_of_the_wrong_size_is_refused_and_nothing_is_stored(
    alice, players, bots, mode, message
):
    with pytest.raises(PlayError, match=message):
        create_casual_game(alice, "tactics", players=players, bots=bots, bot="heuristic", mode=mode)
    if players == 1:
        with pytest.raises(PlayError, match=message):
            create_solo_game(alice, "tactics", mode=mode)
    assert not GameSession.objects.exists()


def test_a_table_modes_engine_config_is_handed_on_as_a_copy():
    mode = registry.TableMode("x", "X", players=(2,), engine_config={"mode": "coop", "k": [1]})
    config = mode.config()
    config["k"].append(2)
    assert mode.config() == {"mode": "coop", "k": [1]}  # the registry's own stays as it was
    assert mode.seated({"mode": "coop", "k": [1], "players": 2})
    assert not mode.seated({"mode": "solo", "k": [1]})
    assert not registry.FREE_FOR_ALL.seated({"mode": "coop"})  # a mode with no config
    teams = registry.TableMode("t", "T", players=(4,), teams=((0, 2), (1, 3)))
    assert teams.config() == {"teams": [[0, 2], [1, 3]]}
    assert teams.seated({"teams": [[0, 2], [1, 3]]})


@pytest.mark.parametrize("mode, difficulty", [("arch_villain", "normal"),
                                              ("arch_villain_hard", "hard")])  # fmt: skip
def test_the_creator_may_take_the_villain_seat_of_an_archvillain_table(
    client, alice, mode, difficulty
):
    """The table mode's ``creator_seat`` (decision 0055): the creator plays the villains
    at seat 1 (T-99), the bot the hero at seat 0."""
    client.force_login(alice)
    session = start(client, 2, 1, mode)
    assert session.config == {"mode": "archvillain", "difficulty": difficulty}
    seats = list(session.seats.order_by("number").values_list("number", "user__username",
                                                                 "is_bot"))  # fmt: skip
    assert seats == [(0, None, True), (1, "alice", False)]
    assert session.state["villain"]["seat"] == 1
    view = SYSTEM.view(session.state, 1)
    assert len(view["villains"]["hand"]) == 3  # the villain player sees their schemes
    for _ in range(400):  # the bot's hero turn, up to alice's villain turn
        session = fresh(session)
        if 1 in SYSTEM.to_act(session.state) or session.status != GameSession.Status.RUNNING:
            break
        assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
    assert SYSTEM.to_act(session.state) == (1,)
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert 'data-zone="villains"' in page and "Your schemes" in page
    session = finished(client, session)
    assert session.result["winners"] in ([0], [1])
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    assert f"mode={mode}" in page  # play again: the same seat


def test_a_friend_joins_the_hero_seat_of_an_archvillain_table_the_creator_plays_villains(
    alice, bob
):
    session = create_casual_game(alice, "tactics", players=2, mode="arch_villain_nightmare")
    assert session.status == GameSession.Status.WAITING
    join_game(bob, session.invite_token)
    session = fresh(session)
    assert session.status == GameSession.Status.RUNNING
    assert list(session.seats.order_by("number").values_list("number", "user__username")) == [
        (0, "bob"),
        (1, "alice"),
    ]
    assert session.state["villain"]["difficulty"] == "nightmare"


def test_the_villains_panel_shows_the_scheme_deck_threat_and_cultists(client, alice):
    client.force_login(alice)
    session = start(client, 1, 0, "solo_hard")
    # the first hero turn ends: the villains play two schemes at once (T-86)
    seq = session.seq
    assert tasks.apply_action.apply(args=(session.pk, 0, seq, {"type": "end_turn"})).get() == (
        "applied"
    )
    session = fresh(session)
    v = session.state["villain"]
    page = client.get(reverse("play:game", args=[session.pk])).content.decode()
    panel = page[page.index('data-zone="villains"') :]
    panel = panel[: panel.index("</div>\n")]
    assert f'<strong data-v="deck">{len(v["deck"])}</strong>' in panel
    assert f'<strong data-v="threat">{len(v["discard"])}</strong>' in panel
    assert '<strong data-v="cultists">' in panel and "Hard" in panel
    last = SYSTEM.db[session.state["cards"][v["discard"][-1]]]
    assert escape(last.name("en")) in panel  # the scheme played last (as HTML: "Order&#x27;s")
    # no panel outside the villain modes
    duel = create_casual_game(alice, "tactics", players=2, bots=1, bot="heuristic")
    page = client.get(reverse("play:game", args=[duel.pk])).content.decode()
    assert 'data-zone="villains"' not in page
