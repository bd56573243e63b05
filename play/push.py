"""Sending to channel groups from synchronous code (worker tasks, views).

``async_to_sync`` starts a fresh event loop in a fresh thread for every call, and the
Redis channel layer keeps its connections per event loop, so every push would also
open new Redis connections. Here each process keeps one event loop running in a
daemon thread (made again after a fork, so each Celery prefork child has its own); the
messages of one change are handed to it in one batch and the caller does not wait for
them, and batches leave in the order they were handed over.

A push that fails is logged and dropped: a stored move is never undone by a missed
push, and the page catches up when it reconnects or polls.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Sequence

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger("gauntlet.play")

SEND_TIMEOUT = 5.0  # seconds one message may take before it is given up
SEND_ATTEMPTS = 3

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_order: asyncio.Lock | None = None  # made inside the loop, on first use


def _process_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid, _order
    with _lock:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="play-push", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
            _order = None
        return _loop


async def _send_all(layer, messages: Sequence[tuple[str, dict]]) -> None:
    for group, message in messages:
        for attempt in range(SEND_ATTEMPTS):
            try:
                await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)
                break
            except Exception:
                # A connection broken by a Redis restart fails once; the retry reconnects.
                if attempt == SEND_ATTEMPTS - 1:
                    logger.exception("push to %s failed", group)
                else:
                    await asyncio.sleep(0.2 * (attempt + 1))


async def _send_in_order(layer, messages: Sequence[tuple[str, dict]]) -> None:
    # Batches leave in the order they were handed over (a view never overtakes a later one).
    global _order
    if _order is None:
        _order = asyncio.Lock()
    async with _order:
        await _send_all(layer, messages)


def send(messages: Sequence[tuple[str, dict]]) -> None:
    """Send ``(group, message)`` pairs in order; failures are logged, never raised.

    With the Redis layer the batch is handed to the process's loop and this returns at
    once: the worker takes its next task while the views go out.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if isinstance(layer, InMemoryChannelLayer):
        # In-process layer (the embedded mode and SQLite tests): its queues belong to the
        # server's loop, so keep to asgiref's way of reaching it.
        try:
            async_to_sync(_send_all)(layer, messages)
        except Exception:
            logger.exception("push failed")
        return
    asyncio.run_coroutine_threadsafe(_send_in_order(layer, list(messages)), _process_loop())
