from __future__ import annotations

from django.urls import path

from play.consumers import GameConsumer, SpectatorConsumer

websocket_urlpatterns = [
    path("ws/play/<int:session_id>/", GameConsumer.as_asgi()),
    path("ws/play/<int:session_id>/spectate/", SpectatorConsumer.as_asgi()),
]
