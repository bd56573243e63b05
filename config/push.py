"""Sending to channel groups from synchronous code (worker tasks, views, service calls).

``async_to_sync`` starts a fresh event loop in a fresh thread for every call made
outside a running loop, and the Redis channel layer keeps its connections per event
loop, so every push would also open new Redis connections. Here each process keeps one
event loop running in a daemon thread (made again after a fork, so each Celery prefork
child has its own); the messages of one change are handed to it in one batch and the
caller does not wait for them, and batches leave in the order they were handed over.

``send_latest`` is for messages that only say how things stand (a pod's progress):
per key, at most one goes out every ``every`` seconds, and one offered inside the
interval replaces the one waiting, which leaves when the interval ends. Nothing is
read again to send it, and no thread is started for it.

A push that fails is logged and dropped: a stored change is never undone by a missed
push, and the page catches up when it reconnects or polls.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Hashable, Sequence

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger("gauntlet.push")

SEND_TIMEOUT = 5.0  # seconds one message may take before it is given up
SEND_ATTEMPTS = 3

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_order: asyncio.Lock | None = None  # made inside the loop, on first use
# send_latest's keys, touched only inside the loop: key -> the message waiting, or None
# while the interval of the one just sent runs with nothing waiting.
_latest: dict[Hashable, tuple[str, dict] | None] = {}


def _process_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid, _order
    with _lock:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="push", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
            _order = None
            _latest.clear()
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


def _send_now(layer, messages: Sequence[tuple[str, dict]]) -> None:
    if isinstance(layer, InMemoryChannelLayer):
        # In-process layer (the embedded mode and SQLite tests): its queues belong to the
        # server's loop, so keep to asgiref's way of reaching it.
        try:
            async_to_sync(_send_all)(layer, messages)
        except Exception:
            logger.exception("push failed")
        return
    asyncio.run_coroutine_threadsafe(_send_in_order(layer, list(messages)), _process_loop())


def send(messages: Sequence[tuple[str, dict]]) -> None:
    """Send ``(group, message)`` pairs in order; failures are logged, never raised.

    With the Redis layer the batch is handed to the process's loop and this returns at
    once: the caller goes on while the messages go out.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    _send_now(layer, messages)


def flush(timeout: float = 30.0) -> None:
    """Return once every batch ``send`` handed over before this call has left (``send``
    does not wait for them). For whoever must know that no earlier push is still on its
    way, e.g. before a socket joins a group whose earlier pushes it must not hear.
    ``send_latest``'s held-back messages are not waited for.
    """
    with _lock:
        loop = _loop if _loop_pid == os.getpid() else None
    if loop is None or loop.is_closed():
        return  # nothing was handed over in this process
    # Batches leave one by one, in order (``_order``): an empty one queued behind them
    # is done when they are.
    asyncio.run_coroutine_threadsafe(_send_in_order(None, []), loop).result(timeout)


def send_latest(key: Hashable, group: str, message: dict, every: float) -> None:
    """Send ``message`` to ``group`` now, or, if a message of ``key`` went out less than
    ``every`` seconds ago, when that interval ends, unless a later one replaces it.

    The in-process layer (embedded mode, tests) sends every message at once.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    if every <= 0 or isinstance(layer, InMemoryChannelLayer):
        _send_now(layer, [(group, message)])
        return
    loop = _process_loop()
    loop.call_soon_threadsafe(_offer, loop, layer, key, group, message, every)


def _offer(loop, layer, key: Hashable, group: str, message: dict, every: float) -> None:
    if key in _latest:  # an interval is running: wait for its end, replacing what waited
        _latest[key] = (group, message)
        return
    _release(loop, layer, key, (group, message), every)


def _release(loop, layer, key: Hashable, item: tuple[str, dict], every: float) -> None:
    _latest[key] = None
    loop.create_task(_send_in_order(layer, [item]))
    loop.call_later(every, _interval_over, loop, layer, key, every)


def _interval_over(loop, layer, key: Hashable, every: float) -> None:
    waiting = _latest.pop(key, None)
    if waiting is not None:
        _release(loop, layer, key, waiting, every)
