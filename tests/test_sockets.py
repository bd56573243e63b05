"""What a client may send over any socket (``config.sockets``): JSON text, of a bounded
size, at a bounded rate; anything else is answered or closes the socket, and never
crashes the consumer."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from config import sockets
from tests.tournaments.factories import make_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("own_layer")]


@pytest.fixture
def own_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def socket(path: str) -> WebsocketCommunicator:
    from config.asgi import application

    return WebsocketCommunicator(
        application, path, headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")]
    )


def test_garbage_frames_are_answered_and_the_socket_stays_open(alice):
    event, _regs = make_event(alice, players=2)

    async def scenario():
        comm = socket(f"/ws/events/{event.pk}/")
        assert (await comm.connect())[0]
        answers = []
        for frame in ("not json", "[" * 5000 + "]" * 5000):
            await comm.send_to(text_data=frame)
            answers.append(await comm.receive_json_from(timeout=5))
        await comm.send_to(bytes_data=b"\x00\x01")
        answers.append(await comm.receive_json_from(timeout=5))
        await comm.send_json_to({"still": "here"})  # the socket still takes frames
        assert await comm.receive_nothing(timeout=0.2)
        await comm.disconnect()
        return answers

    answers = async_to_sync(scenario)()
    assert [a["type"] for a in answers] == ["error"] * 3


def test_a_frame_too_large_closes_the_socket(alice):
    event, _regs = make_event(alice, players=2)

    async def scenario():
        comm = socket(f"/ws/events/{event.pk}/")
        assert (await comm.connect())[0]
        await comm.send_to(text_data='"' + "x" * sockets.MAX_MESSAGE_BYTES + '"')
        closed = await comm.receive_output(timeout=5)
        await comm.wait()
        return closed

    assert async_to_sync(scenario)() == {"type": "websocket.close", "code": sockets.CLOSE_TOO_BIG}


def test_a_client_flooding_the_socket_is_slowed_then_closed(alice):
    event, _regs = make_event(alice, players=2)

    async def scenario():
        comm = socket(f"/ws/events/{event.pk}/")
        assert (await comm.connect())[0]
        for _ in range(sockets.RATE_BURST + sockets.OVER_RATE_LIMIT + 5):
            await comm.send_json_to({"ping": 1})
        outputs = []
        while True:
            out = await comm.receive_output(timeout=5)
            outputs.append(out)
            if out["type"] == "websocket.close":
                break
        return outputs

    outputs = async_to_sync(scenario)()
    assert outputs[-1] == {"type": "websocket.close", "code": sockets.CLOSE_TOO_FAST}
    assert any("Too many" in o.get("text", "") for o in outputs)
