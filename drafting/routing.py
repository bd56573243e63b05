from __future__ import annotations

from django.urls import path

from drafting.consumers import PodConsumer

websocket_urlpatterns = [
    path("ws/draft/<int:pod_id>/", PodConsumer.as_asgi()),
]
