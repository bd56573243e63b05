"""The checks made before a move is queued (``play.services.acting.check_move``), alone
and on the socket.

The socket checks a move against the view it last sent to that seat, with no database
query; a move refused there is answered at once and queues nothing.
"""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from engine.ascension.game import SYSTEM
from play.models import GameSession
from play.services.acting import check_move
from play.services.errors import NotAllowed, PlayError
from tests.play.helpers import communicator, fresh
from tests.play.test_sessions import timed_game

RUNNING = GameSession.Status.RUNNING


@pytest.mark.parametrize(
    ("seq", "action", "status", "to_act", "error", "message"),
    [
        ("x", {"type": "end_turn"}, RUNNING, (0,), PlayError, "whole number"),
        (-1, {"type": "end_turn"}, RUNNING, (0,), PlayError, "whole number"),
        (True, {"type": "end_turn"}, RUNNING, (0,), PlayError, "whole number"),
        (3, "end_turn", RUNNING, (0,), PlayError, "object"),
        (3, {"type": "end_turn"}, "finished", (0,), PlayError, "not being played"),
        (2, {"type": "end_turn"}, RUNNING, (0,), PlayError, "moved on"),
        (3, {"type": "end_turn"}, RUNNING, (1,), NotAllowed, "not your turn"),
    ],
)
def test_check_move_refuses_with_a_clear_message(seq, action, status, to_act, error, message):
    with pytest.raises(error, match=message):
        check_move(0, seq, action, current=3, status=status, to_act=to_act)


def test_check_move_accepts_the_seat_to_act_at_the_current_seq():
    assert check_move(0, "3", {"type": "x"}, current=3, status=RUNNING, to_act=(0,)) == 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_channel_layer")
def test_a_move_refused_on_the_socket_is_answered_and_queues_nothing(alice, bob):
    session = fresh(timed_game(alice, bob))
    (acting,) = SYSTEM.to_act(session.state)
    mover = alice if session.seats.get(number=acting).user_id == alice.pk else bob
    waiting = bob if mover == alice else alice

    async def scenario():
        answers = {}
        for user, seq in ((mover, 5), (waiting, 0)):
            comm = communicator(session, user)
            connected, _ = await comm.connect()
            assert connected
            await comm.receive_json_from(timeout=5)  # the view on connect
            await comm.send_json_to({"seq": seq, "action": {"type": "end_turn"}})
            answers[user.username] = await comm.receive_json_from(timeout=5)
            await comm.disconnect()
        return answers

    answers = async_to_sync(scenario)()
    assert answers[mover.username]["type"] == "error"
    assert "moved on" in answers[mover.username]["data"]["error"]
    assert answers[waiting.username]["type"] == "error"
    assert "not your turn" in answers[waiting.username]["data"]["error"]
    assert fresh(session).seq == 0
