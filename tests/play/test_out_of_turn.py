"""Actions out of turn at the table: what a game lets a seat do while another seat is to
act (``engine.core.protocol.interrupts``), offered on that seat's view and accepted
through the HTTP move path and the socket like any move.

Ascension Tactics lets a player use a treasure token on a champion of theirs at any time,
even on an opponent's turn (T-67, D-15, C-55: the +2 DEF boost lasts until that turn
ends). A game without the hook (the toy game «High card») refuses every move out of turn
as before. Two moves at one ``seq`` (one out of turn, one in turn) are settled by the
session's row lock: one is applied, the other is stale and changes nothing.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.db import close_old_connections
from django.urls import reverse

from engine.core import registry
from engine.core.protocol import interrupts
from engine.core.registry import Format, GameSystemInfo
from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play import tasks
from play.models import ActionLog, GameSession
from play.services.acting import apply_action, check_move
from play.services.errors import NotAllowed
from play.services.payloads import _update_message, payload, payloads
from play.services.starting import create_bot_game, create_friend_game, join_game
from tests.play.helpers import communicator, fresh
from tests.toygame.game import SYSTEM as HIGHCARD

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 11)
DEF_TOKEN = 1  # the set's second treasure kind: +2 DEF (C-55)
RUNNING = GameSession.Status.RUNNING


def on_turn_of(session: GameSession, mover: int, holder: int) -> GameSession:
    """The stored game played on (by the heuristic bot for everyone) past the champion
    draft to a turn of ``mover``, then ``holder`` given a +2 DEF treasure token (T-67)."""
    state = session.state
    for _ in range(400):
        if state.get("phase") != "draft" and SYSTEM.to_act(state) == (mover,):
            break
        (seat,) = SYSTEM.to_act(state)
        state, _events = SYSTEM.apply(state, seat, BRAIN.choose(state, seat))
    else:
        raise AssertionError("no turn of that seat")
    state["players"][holder]["treasure"].append(DEF_TOKEN)
    GameSession.objects.filter(pk=session.pk).update(state=state)
    return fresh(session)


def seat_of(session: GameSession, user) -> int:
    return session.seats.get(user=user).number


def post(client, session: GameSession, action, seq=None):
    body = {"seq": session.seq if seq is None else seq, "action": action}
    return client.post(
        reverse("play:act", args=[session.pk]),
        data=json.dumps(body),
        content_type="application/json",
    )


def snapshot(session: GameSession):
    session = fresh(session)
    return session.seq, session.state, ActionLog.objects.filter(session=session).count()


def two_player_table(alice, bob) -> tuple[GameSession, int, int]:
    """Alice and Bob at a duel, Bob to act, Alice holding a treasure token."""
    session = create_friend_game(alice, "tactics", time_bank=None)
    session = join_game(bob, session.invite_token)
    a, b = seat_of(session, alice), seat_of(session, bob)
    return on_turn_of(fresh(session), mover=b, holder=a), a, b


# ---------------------------------------------------------------- the protocol


def test_a_system_without_the_hook_offers_nothing_out_of_turn():
    state = HIGHCARD.new_game({}, [None, None], 3)
    (mover,) = HIGHCARD.to_act(state)
    assert not hasattr(HIGHCARD, "interrupts")
    assert interrupts(HIGHCARD, state, 1 - mover) == []
    assert interrupts(HIGHCARD, state, mover) == []


def test_check_move_takes_an_offered_action_out_of_turn_and_no_other():
    offered = [{"type": "treasure", "i": 0, "fig": 2}]
    kw = {"current": 4, "status": RUNNING, "to_act": (1,), "out_of_turn": offered}
    assert check_move(0, 4, {"type": "treasure", "i": 0, "fig": 2}, **kw) == 4
    for other in ({"type": "treasure", "i": 0, "fig": 3}, {"type": "end_turn"}):
        with pytest.raises(NotAllowed, match="not your turn"):
            check_move(0, 4, other, **kw)
    with pytest.raises(NotAllowed, match="not your turn"):  # nothing offered: as before
        check_move(0, 4, offered[0], current=4, status=RUNNING, to_act=(1,))


# ---------------------------------------------------------------- the HTTP path


def test_a_player_uses_a_treasure_on_the_bots_turn_through_the_move_path(
    client, alice, queued, django_capture_on_commit_callbacks
):
    session = create_bot_game(alice, "tactics", "heuristic")
    session = on_turn_of(session, mover=1, holder=0)
    offered = interrupts(SYSTEM, session.state, 0)
    assert offered and all(a["type"] == "treasure" for a in offered)
    # Offered on Alice's own view (and on the page), never on the public one.
    assert payload(session, 0)["legal"] == offered
    assert payload(session, None)["legal"] == []
    client.force_login(alice)
    page = client.get(reverse("play:game", args=[session.pk]))
    assert page.status_code == 200
    assert b'data-type="treasure"' in page.content
    action = offered[0]
    fig = action["fig"]
    before = session.state["figs"][fig]["boost"]["defence"]
    seq = session.seq

    assert post(client, session, action).status_code == 202
    (args,) = queued
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert tasks.apply_action.apply(args=args).get() == "applied"
    session = fresh(session)
    assert session.seq == seq + 1
    assert session.state["figs"][fig]["boost"]["defence"] == before + 2  # C-55
    assert session.state["players"][0]["treasure"] == []
    log = ActionLog.objects.get(session=session, seq=seq)
    assert (log.seat, log.action) == (0, action)
    # The bot is still to act, and its move is queued at the new seq: bots play on.
    assert SYSTEM.to_act(session.state) == (1,)
    assert callbacks  # the push and the bot's task, after the commit
    with django_capture_on_commit_callbacks(execute=False):
        assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
    assert fresh(session).seq == seq + 2


def test_another_seat_cannot_act_out_of_turn(client, alice, bob, charlie, queued):
    session = create_friend_game(alice, "tactics", players=3, time_bank=None)
    join_game(bob, session.invite_token)
    session = join_game(charlie, session.invite_token)
    a, b, c = (seat_of(session, u) for u in (alice, bob, charlie))
    session = on_turn_of(fresh(session), mover=b, holder=a)
    owned = interrupts(SYSTEM, session.state, a)
    assert owned and interrupts(SYSTEM, session.state, c) == []
    assert payload(session, c)["legal"] == []
    # The push carries each seat's out-of-turn actions for its socket: Alice's only.
    message = _update_message(payloads(session, [a, b, c, None]))
    assert message["out_of_turn"] == {str(a): owned}
    before = snapshot(session)

    client.force_login(charlie)
    for action in (owned[0], {"type": "treasure", "i": 0, "fig": owned[0]["fig"]}):
        response = post(client, session, action)
        assert response.status_code == 403
        assert "not your turn" in response.json()["error"].lower()
    assert queued == []
    # Sent to a worker all the same (a forged task): refused under the lock.
    assert apply_action(session.pk, c, session.seq, owned[0]).status == "not_yours"
    assert snapshot(session) == before


# ---------------------------------------------------------------- the socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer")
def test_a_player_uses_a_treasure_on_the_opponents_turn_over_the_socket(alice, bob, queued):
    session, a, b = two_player_table(alice, bob)
    offered = interrupts(SYSTEM, session.state, a)
    action = offered[-1]

    async def scenario():
        comm = communicator(session, alice)
        connected, _ = await comm.connect()
        assert connected
        first = await comm.receive_json_from(timeout=5)
        await comm.send_json_to({"seq": session.seq, "action": {"type": "end_turn"}})
        refused = await comm.receive_json_from(timeout=5)
        await comm.send_json_to({"seq": session.seq, "action": action})
        quiet = await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()
        return first, refused, quiet

    first, refused, quiet = async_to_sync(scenario)()
    assert first["data"]["legal"] == offered
    assert refused["type"] == "error" and "not your turn" in refused["data"]["error"].lower()
    assert quiet
    assert queued == [(session.pk, a, session.seq, action, queued[0][4])]
    assert tasks.apply_action.apply(args=queued[0]).get() == "applied"
    after = fresh(session)
    assert after.seq == session.seq + 1
    assert after.state["players"][a]["treasure"] == []
    assert SYSTEM.to_act(after.state) == (b,)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer")
def test_the_socket_refuses_out_of_turn_once_the_token_is_spent(alice, bob, queued):
    """The socket checks against the last push: after the treasure is used, Alice's view
    offers nothing more and a second use is refused at once."""
    session, a, _b = two_player_table(alice, bob)
    action = interrupts(SYSTEM, session.state, a)[0]
    assert apply_action(session.pk, a, session.seq, action).status == "applied"
    session = fresh(session)

    async def scenario():
        comm = communicator(session, alice)
        connected, _ = await comm.connect()
        assert connected
        first = await comm.receive_json_from(timeout=5)
        await comm.send_json_to({"seq": session.seq, "action": action})
        answer = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        return first, answer

    first, answer = async_to_sync(scenario)()
    assert first["data"]["legal"] == []
    assert answer["type"] == "error" and "not your turn" in answer["data"]["error"].lower()
    assert queued == []


# ---------------------------------------------------------------- the race


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer")
def test_an_out_of_turn_and_an_in_turn_move_at_once_settle_with_one_winner(alice, bob):
    session, a, b = two_player_table(alice, bob)
    seq = session.seq
    treasure = interrupts(SYSTEM, session.state, a)[0]
    in_turn = next(x for x in SYSTEM.legal_actions(session.state, b) if x["type"] == "end_turn")
    moves = [(a, treasure), (b, in_turn)]
    start = threading.Barrier(len(moves))
    results: dict[int, str] = {}

    def run(seat, action):
        try:
            start.wait(timeout=10)
            results[seat] = apply_action(session.pk, seat, seq, action).status
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=move) for move in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(results.values()) == ["applied", "stale"]
    after = fresh(session)
    assert after.seq == seq + 1
    (log,) = ActionLog.objects.filter(session=session)
    winner = next(seat for seat, status in results.items() if status == "applied")
    assert (log.seq, log.seat) == (seq, winner)
    # The loser's move changed nothing: the token is spent only if the treasure won.
    assert (after.state["players"][a]["treasure"] == []) == (winner == a)


# ---------------------------------------------------------------- a game without the hook


@pytest.fixture
def highcard():
    key = HIGHCARD.key
    registry.register(
        GameSystemInfo(
            key=key,
            name="High card",
            formats=(Format("standard", "Standard", "Стандарт"),),
            engine="tests.toygame.game:SYSTEM",
            decks="tests.toygame.decks:DECKLISTS",
            casual_format="standard",
            starter_decks=str(Path(__file__).resolve().parent.parent / "toygame/starters.txt"),
        )
    )
    yield key
    registry.unregister(key)


def test_a_game_without_interrupts_refuses_moves_out_of_turn_as_before(
    client, alice, bob, highcard, queued
):
    session = create_friend_game(alice, highcard, time_bank=None)
    session = fresh(join_game(bob, session.invite_token))
    (mover,) = HIGHCARD.to_act(session.state)
    waiting = 1 - mover
    user = alice if seat_of(session, alice) == waiting else bob
    assert payload(session, waiting)["legal"] == []
    assert _update_message(payloads(session, [0, 1, None]))["out_of_turn"] == {}
    card = session.state["hands"][waiting][0]
    before = snapshot(session)

    client.force_login(user)
    response = post(client, session, {"type": "play", "card": card})
    assert response.status_code == 403 and "not your turn" in response.json()["error"].lower()
    assert queued == []
    status = apply_action(session.pk, waiting, session.seq, {"type": "play", "card": card})
    assert status.status == "not_yours"
    assert snapshot(session) == before
