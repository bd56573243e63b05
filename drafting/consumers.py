"""Websocket of a pod's pages.

Every socket joins the pod's group: it hears each seat's public progress after every
pick (picks made, packs held, whom it waits on: numbers only, the page words them in
its language) and "pod" when the pod itself changed
(the page re-fetches its overview). A logged-in player's socket also joins their own
group, the only place their pack travels: after a neighbour's pick the socket renders
the pack the player now faces, in the player's language, and sends it as HTML, so the
page shows it without asking again. "seat" asks the page to re-fetch its whole panel
(the draft started), or, with a ``redirect``, to go to deck building (the draft ended).

A player's page also makes its picks over this socket when it is open: ``{"pick": n,
"card": id}`` goes through the same service as the pick form (same checks, same errors)
and is answered with the pack area and the picked card, as the form's answer would be,
without an HTTP request, its middleware and a session lookup per pick. The form stays
for pages without a socket.
"""

from __future__ import annotations

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from config.sockets import GuardedJsonConsumer
from drafting.models import Pod
from drafting.services.messages import player_group, pod_group
from drafting.services.pods import may_see_pod


class _Headers:
    """Just what ``get_language_from_request`` reads of a request."""

    def __init__(self, scope) -> None:
        self.COOKIES = scope.get("cookies") or {}
        headers = dict(scope.get("headers") or ())
        self.META = {"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")}


def scope_language(scope) -> str:
    """The page's language as LocaleMiddleware chooses it (cookie, then header)."""
    return translation.get_language_from_request(_Headers(scope))


def render_pack(message: dict, language: str) -> str:
    """The pack area of the room page for a ``draft.pack`` message."""
    from drafting.views import pack_context_from_message

    with translation.override(language):
        return render_to_string("drafting/_pack.html", pack_context_from_message(message))


class PodConsumer(GuardedJsonConsumer):
    async def connect(self) -> None:
        pod_id = int(self.scope["url_route"]["kwargs"]["pod_id"])
        self.pod_id = pod_id
        self.language = scope_language(self.scope)
        user = self.scope.get("user")
        if not await self._may_see(pod_id, user):
            await self.close(code=4404)  # as the pages answer 404 (``views._pod``)
            return
        self.groups_joined = [pod_group(pod_id)]
        if user is not None and user.is_authenticated:
            self.groups_joined.append(player_group(pod_id, user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    @database_sync_to_async
    def _may_see(self, pod_id: int, user) -> bool:
        pod = Pod.objects.select_related("event").filter(pk=pod_id).first()
        return pod is not None and may_see_pod(user, pod)

    async def dispatch(self, message: dict) -> None:
        # As channels' own dispatch, without closing old database connections through
        # the one thread-sensitive thread before every message: these handlers touch the
        # database only through ``database_sync_to_async``, which does that itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict) or "pick" not in content:
            return  # nothing else is asked over this socket
        # Not the one thread-sensitive thread: picks of different pods run side by side
        # (each pod's are settled by its row lock).
        answer = await database_sync_to_async(self.pick, thread_sensitive=False)(content)
        await self.send_json(answer)

    def pick(self, content: dict) -> dict:
        from drafting.views import pick_answer

        user = self.scope.get("user")
        with translation.override(self.language):
            return pick_answer(
                user, self.pod_id, content.get("pick"), content.get("card"), content.get("seat")
            )

    async def draft_changed(self, message: dict) -> None:
        out = {"changed": message["what"]}
        if message.get("redirect"):
            out["redirect"] = message["redirect"]  # the page goes there (the draft ended)
        await self.send_json(out)

    async def draft_pack(self, message: dict) -> None:
        # Rendering a pack is a few milliseconds of pure Python with no database: done
        # here rather than in another thread, which would cost more than it saves.
        html = render_pack(message, self.language)
        await self.send_json({"pack": html, "pick": message["pick"]})

    async def draft_progress(self, message: dict) -> None:
        # [picks made, packs held, seat waited on or None] per seat; the page words it.
        await self.send_json({"progress": message["rows"]})
