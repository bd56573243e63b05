"""Websocket of a game: each seat gets its own view, spectators the public one.

A player's socket joins only the group of the seat that user holds; anyone else (and
the spectate address) joins the public group. On connect the current view is sent at
once, so a reconnecting page is up to date without asking. A player may also act over
the socket (``{"seq": n, "action": {...}}``): it goes through the same service as the
HTTP form, which enqueues the worker's task.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from play import services
from play.models import GameSession


class GameConsumer(AsyncJsonWebsocketConsumer):
    spectate = False

    async def connect(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        found = await self._join()
        if found is None:
            await self.close(code=4404)
            return
        self.seat, data = found
        self.group = (
            services.public_group(self.session_id)
            if self.seat is None
            else services.seat_group(self.session_id, self.seat)
        )
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "update", "data": data})

    @database_sync_to_async
    def _join(self) -> tuple[int | None, dict[str, Any]] | None:
        session = GameSession.objects.filter(pk=self.session_id).first()
        if session is None:
            return None
        seat = None if self.spectate else services.seat_of(self.scope.get("user"), session)
        number = None if seat is None else seat.number
        return number, services.payload(session, number)

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs) -> None:
        if self.seat is None or not isinstance(content, dict):
            return
        error = await self._submit(content.get("seq"), content.get("action"))
        if error:
            await self.send_json(
                {"type": "error", "data": {"seq": content.get("seq"), "error": error}}
            )

    @database_sync_to_async
    def _submit(self, seq: Any, action: Any) -> str | None:
        session = GameSession.objects.filter(pk=self.session_id).first()
        if session is None:
            return "This game no longer exists."
        try:
            services.submit_action(self.scope.get("user"), session, seq, action)
        except services.PlayError as exc:
            return str(exc)
        return None

    async def play_update(self, message: dict) -> None:
        await self.send_json({"type": "update", "data": message["data"]})

    async def play_error(self, message: dict) -> None:
        await self.send_json({"type": "error", "data": message["data"]})


class SpectatorConsumer(GameConsumer):
    spectate = True
