"""Websocket of a game: each seat gets its own view, spectators the public one.

Every socket of a game joins the game's group. A push to it carries, serialised once by
the worker, the view of each seat and the public view; a player's socket sends on only
the view of the seat that user holds, anyone else's (and the spectate address) only the
public one, so a hidden card never reaches another player's browser; a refused move is
sent on only to its own seat. On connect the current view is sent at
once (read after joining the group, so no move falls between), so a reconnecting page
is up to date without asking. A player may also act over the socket
(``{"seq": n, "action": {...}}``): the consumer checks it against the view it last
sent to this seat (``play.services.acting.check_move``: the seq, whose turn or the
actions the seat was offered out of turn, the game running) and queues the worker's task, with no database query (but one compare-and-set
write when the seat's clock is within seconds of its deadline,
``play.services.acting.queue_move``); the worker checks again under the session's row
lock.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async

from config.sockets import GuardedJsonConsumer
from play.models import GameSession
from play.services.acting import check_move, queue_move
from play.services.errors import PlayError
from play.services.payloads import deadlines, payload, session_group
from play.services.sessions import may_watch, seat_of


class GameConsumer(GuardedJsonConsumer):
    spectate = False

    async def dispatch(self, message: dict) -> None:
        # Channels closes stale database connections before every message, one hop to
        # the shared sync thread each, for every frame and every push. This consumer
        # reaches the database only through ``database_sync_to_async``, which does that
        # itself, so the hop is left out.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        found = await self._seat()
        if found is None:
            await self.close(code=4404)
            return
        self.seat = found[0]
        # What this socket sends on of each push: its seat's view, or the public one.
        self.view_key = "public" if self.seat is None else str(self.seat)
        self.group = session_group(self.session_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        data = await self._payload()
        self._remember(data)
        await self.accept()
        await self.send_json({"type": "update", "data": data})

    @database_sync_to_async
    def _seat(self) -> tuple[int | None] | None:
        session = GameSession.objects.filter(pk=self.session_id).first()
        if session is None:
            return None
        user = self.scope.get("user")
        seat = None if self.spectate else seat_of(user, session)
        if seat is None and not may_watch(user, session):
            return None  # as if there were no such game (``play.views._check_watcher``)
        return (None if seat is None else seat.number,)

    @database_sync_to_async
    def _payload(self) -> dict[str, Any]:
        return payload(GameSession.objects.get(pk=self.session_id), self.seat)

    def _remember(self, data: dict[str, Any]) -> None:
        """What this seat was last shown: the next move is checked against it.

        A view never replaces a later one (a push may overtake the view read on connect).
        """
        known = getattr(self, "known", None)
        if known is None or data["seq"] > known[0] or data["status"] != known[1]:
            to_act = tuple(data["to_act"])
            # What the seat may do out of turn: a push carries it by seat, a payload as
            # the seat's legal actions while it is not to act.
            if "out_of_turn" in data:
                extra = data["out_of_turn"].get(str(self.seat), [])
            elif self.seat is not None and self.seat not in to_act:
                extra = data.get("legal") or []
            else:
                extra = []
            self.known = (data["seq"], data["status"], to_act, tuple(extra))
            # This seat's running clock (a push carries ``deadlines``, a payload ``clocks``).
            by_seat = data.get("deadlines")
            if by_seat is None:
                by_seat = deadlines(data.get("clocks", ()))
            self.deadline = None if self.seat is None else by_seat.get(str(self.seat))

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs) -> None:
        if self.seat is None:
            return  # a spectator's socket only listens
        if not isinstance(content, dict):
            await self.refuse('A move is an object with "seq" and "action".')
            return
        seq, action = content.get("seq"), content.get("action")
        current, status, to_act, out_of_turn = self.known
        try:
            seq = check_move(
                self.seat,
                seq,
                action,
                current=current,
                status=status,
                to_act=to_act,
                out_of_turn=out_of_turn,
            )
            # Off the event loop: a broker that is down makes the publish wait and retry.
            await sync_to_async(queue_move, thread_sensitive=False)(
                self.session_id, self.seat, seq, action, self.deadline
            )
        except PlayError as exc:
            await self.send_json(
                {"type": "error", "data": {"seq": content.get("seq"), "error": str(exc)}}
            )

    async def play_update(self, message: dict) -> None:
        # Only this socket's own part goes on: a seat's view, or the public one.
        text = message["views"].get(self.view_key)
        if text is None:
            return
        self._remember(message)
        await self.send(text_data=text)

    async def play_error(self, message: dict) -> None:
        if self.seat is None or message["data"].get("seat") != self.seat:
            return  # another seat's refused move
        await self.send_json({"type": "error", "data": message["data"]})


class SpectatorConsumer(GameConsumer):
    spectate = True
