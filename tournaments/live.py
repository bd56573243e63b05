"""Live updates: tell every open page of an event that something changed.

Messages are sent only after the transaction that made the change commits
(``transaction.on_commit``), so a page never fetches data that is not there yet.
The pages re-fetch the fragment they show; nothing hidden travels this way.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger("gauntlet.live")


def event_group(event_id: int) -> str:
    return f"event-{event_id}"


def _send(event_id: int, what: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            event_group(event_id), {"type": "event.changed", "what": what}
        )
    except Exception:  # a page missing one refresh must never undo a saved result
        logger.exception("live update for event %s failed", event_id)


def broadcast_on_commit(event_id: int, what: str) -> None:
    """Announce a change of ``what`` ("pairings", "standings", "round", "event") after commit."""
    transaction.on_commit(lambda: _send(event_id, what))
