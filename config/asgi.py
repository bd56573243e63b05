"""ASGI entry point: HTTP through Django, websockets through Channels."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.embedded import start_embedded_worker  # noqa: E402
from config.origin import SameOriginValidator  # noqa: E402
from config.runtime import tune_gc  # noqa: E402
from drafting.routing import websocket_urlpatterns as drafting_websockets  # noqa: E402
from notifications.routing import websocket_urlpatterns as notice_websockets  # noqa: E402
from play.routing import websocket_urlpatterns as play_websockets  # noqa: E402
from tournaments.routing import websocket_urlpatterns  # noqa: E402

start_embedded_worker()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(
                URLRouter(
                    websocket_urlpatterns
                    + drafting_websockets
                    + play_websockets
                    + notice_websockets
                )
            )
        ),
    }
)
tune_gc()  # last: everything loaded so far lives as long as the process
