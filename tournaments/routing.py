from __future__ import annotations

from django.urls import path

from tournaments.consumers import EventConsumer

websocket_urlpatterns = [
    path("ws/events/<int:event_id>/", EventConsumer.as_asgi()),
]
