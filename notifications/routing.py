from __future__ import annotations

from django.urls import path

from notifications.consumers import NoticeConsumer

websocket_urlpatterns = [
    path("ws/notifications/", NoticeConsumer.as_asgi()),
]
