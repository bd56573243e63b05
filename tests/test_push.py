"""config.push on the real Redis channel layer: batches in order, and send_latest's interval."""

from __future__ import annotations

import asyncio
import os
import time
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from config import push


@pytest.fixture(params=["pubsub", "lists"])
def redis_layer(request, settings):
    """Each Redis channel layer the project can be set to (``CHANNEL_LAYER``), under a
    prefix of this test's own."""
    backend = {
        "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "lists": "channels_redis.core.RedisChannelLayer",
    }[request.param]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": backend,
            "CONFIG": {
                "hosts": [os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")],
                "prefix": f"push-test-{uuid.uuid4().hex[:8]}",
            },
        }
    }
    return get_channel_layer()


def _listen(layer, group: str, act, wait: float) -> list[tuple[float, dict]]:
    """Join ``group``, call ``act()``, and collect what arrives within ``wait`` seconds
    of the last message, each with its arrival time (seconds after ``act``)."""

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        start = time.monotonic()
        act()
        heard = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), wait)
            except TimeoutError:
                return heard
            heard.append((time.monotonic() - start, message))

    return async_to_sync(scenario)()


def test_batches_arrive_in_the_order_they_were_handed_over(redis_layer):
    def act():
        for n in range(20):
            push.send([("g", {"type": "t", "n": n}), ("other", {"type": "t"})])

    heard = _listen(redis_layer, "g", act, wait=1.0)
    assert [m["n"] for _t, m in heard] == list(range(20))


def test_send_latest_sends_the_first_at_once_and_the_last_of_the_interval_at_its_end(
    redis_layer,
):
    every = 0.6

    def act():
        for n in range(5):
            push.send_latest("pod-1", "g", {"type": "t", "n": n}, every)
        push.send_latest("pod-2", "g", {"type": "t", "n": 100}, every)  # its own interval

    heard = _listen(redis_layer, "g", act, wait=1.5)
    numbers = [m["n"] for _t, m in heard]
    assert sorted(numbers) == [0, 4, 100]  # 1-3 were replaced while they waited
    times = {m["n"]: t for t, m in heard}
    assert times[0] < every / 2 and times[100] < every / 2
    assert times[4] >= every * 0.9  # held back to the end of pod-1's interval

    # The interval is over and nothing waits: the next one goes out at once.
    heard = _listen(
        redis_layer, "g", lambda: push.send_latest("pod-1", "g", {"type": "t", "n": 5}, every), 1.0
    )
    assert [m["n"] for _t, m in heard] == [5] and heard[0][0] < every / 2


def test_flush_returns_once_the_batches_handed_over_have_left(redis_layer, monkeypatch):
    left: list[int] = []
    send_all = push._send_all

    async def slow_send_all(layer, messages):
        await asyncio.sleep(0.3)  # a busy machine: the push thread gets to them late
        await send_all(layer, messages)
        left.extend(m["n"] for _group, m in messages)

    monkeypatch.setattr(push, "_send_all", slow_send_all)
    push.send([("g", {"type": "t", "n": 1})])
    push.send([("g", {"type": "t", "n": 2})])
    assert left == []  # send does not wait
    push.flush()
    assert left == [1, 2]

    # So a channel that joins the group now hears nothing of them.
    assert _listen(redis_layer, "g", lambda: None, wait=0.5) == []
