"""Websocket of a pod's pages: relays "something changed" notices, never cards.

Every socket joins the pod's group (the overview: progress, who waits on whom); a
logged-in player's socket also joins their own group (their pack and timer). The
page re-fetches its fragments over HTTP, where the view decides what the viewer may see.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from drafting.services import player_group, pod_group


class PodConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        pod_id = int(self.scope["url_route"]["kwargs"]["pod_id"])
        self.groups_joined = [pod_group(pod_id)]
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.groups_joined.append(player_group(pod_id, user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        # One-way: the server tells, the page re-fetches.
        return

    async def draft_changed(self, message: dict) -> None:
        await self.send_json({"changed": message["what"]})
