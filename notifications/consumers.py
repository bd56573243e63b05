"""Websocket of a logged-in user's own notices: ``/ws/notifications/?lang=<code>``.

Only its user's sockets join the group (``services.user_group``), so a notice reaches
nobody else. On connect it says how many notices are unread, and records the language
of the page that opened it (the language the user last used the site in). The socket
is one-way: the server tells, the page shows.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from config.sockets import GuardedJsonConsumer
from notifications import services

CLOSE_NOT_LOGGED_IN = 4401


class NoticeConsumer(GuardedJsonConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_LOGGED_IN)
            return
        self.group = services.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        language = (query.get("lang") or [""])[0][:16]
        unread = await database_sync_to_async(self._opened)(user, language)
        await self.send_json({"unread": unread})

    @staticmethod
    def _opened(user, language: str) -> int:
        services.record_language(user.pk, language)
        return services.unread_count(user)

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        return

    async def notice_new(self, message: dict) -> None:
        await self.send_json({"notice": message["notice"]})
