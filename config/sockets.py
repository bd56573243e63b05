"""The base of every websocket consumer: what a client may send over a socket.

A socket takes JSON text frames of at most ``MAX_MESSAGE_BYTES``, at most
``RATE_BURST`` at once and ``RATE_PER_SECOND`` on average (a token bucket per
connection). Anything else gets an ``error`` message, not a crashed consumer: a frame
that is not JSON, or binary, is answered and dropped; a frame too large, or a client
that keeps sending past the rate, is disconnected (close codes 1009 and 4429).
"""

from __future__ import annotations

import json
import time

from channels.generic.websocket import AsyncJsonWebsocketConsumer

MAX_MESSAGE_BYTES = 16 * 1024
RATE_PER_SECOND = 10.0
RATE_BURST = 30
OVER_RATE_LIMIT = 20  # frames refused for the rate before the socket is closed

CLOSE_TOO_BIG = 1009
CLOSE_TOO_FAST = 4429


class GuardedJsonConsumer(AsyncJsonWebsocketConsumer):
    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs
    ):
        if not self._within_rate():
            if self._refused > OVER_RATE_LIMIT:
                await self.close(code=CLOSE_TOO_FAST)
                return
            await self.refuse("Too many messages: slow down.")
            return
        if text_data is None:
            await self.refuse("Send JSON text, not binary frames.")
            return
        if len(text_data) > MAX_MESSAGE_BYTES:  # characters: at least as many bytes
            await self.close(code=CLOSE_TOO_BIG)
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.refuse("That message is not JSON.")
            return
        await self.receive_json(content, **kwargs)

    async def refuse(self, message: str) -> None:
        await self.send_json({"type": "error", "data": {"error": message}})

    def _within_rate(self) -> bool:
        now = time.monotonic()
        tokens, last = getattr(self, "_bucket", (float(RATE_BURST), now))
        tokens = min(float(RATE_BURST), tokens + (now - last) * RATE_PER_SECOND)
        if tokens < 1.0:
            self._bucket = (tokens, now)
            self._refused = getattr(self, "_refused", 0) + 1
            return False
        self._bucket = (tokens - 1.0, now)
        self._refused = 0
        return True
