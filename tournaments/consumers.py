"""Websocket consumer for public event pages: relays "something changed" notices."""

from __future__ import annotations

from config.sockets import GuardedJsonConsumer
from tournaments.live import event_group


class EventConsumer(GuardedJsonConsumer):
    async def connect(self) -> None:
        self.group = event_group(int(self.scope["url_route"]["kwargs"]["event_id"]))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        # The socket is one-way: the server tells, the page re-fetches.
        return

    async def event_changed(self, message: dict) -> None:
        await self.send_json({"changed": message["what"]})
