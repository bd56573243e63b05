"""Live pages: the channel groups of a pod and of its players, and what they are told
after commit.

A seated player's sockets hear of the pack they now face (``pack_message``, to that
player's group only); the pod's group hears every seat's public progress
(``progress_message``, throttled to ``PROGRESS_EVERY``) and that something changed
(``notify``). Pack contents never travel to the pod's group. A page missing one message
never undoes a saved change (``config.push`` logs and drops).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction

from config import push
from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.timers import review_until


def pod_group(pod_id: int) -> str:
    return f"draft-{pod_id}"


def player_group(pod_id: int, user_id: int) -> str:
    """A seated player's sockets. Keyed by user, not seat number: a casual pod draws its
    seat numbers at the start, after the player's page may have connected."""
    return f"draft-{pod_id}-user-{user_id}"


def _send(groups: list[tuple[str, str]], redirect: str | None = None) -> None:
    # A page missing one refresh must never undo a saved pick (``push`` logs and drops).
    messages = []
    for group, what in groups:
        message = {"type": "draft.changed", "what": what}
        if redirect and what == "seat":
            message["redirect"] = redirect
        messages.append((group, message))
    push.send(messages)


def pack_message(
    pod: Pod, seat: Seat, pack: Mapping[str, Any], names: list[str] | None = None
) -> dict[str, Any]:
    """What a seated player's page needs to show the pack they now face. Sent to that
    player's group only (see ``drafting.consumers``, which renders it in their language).
    ``names``: every seat's name by number, so the page names the neighbours."""
    state = pod.state
    return {
        "names": names or [],
        "type": "draft.pack",
        "pod": pod.pk,
        "system": pod.game_system,
        "seat": seat.number,
        "pick": draft_core.pick_number(state, seat.number),
        "round": pack["round"],
        "rounds": state["rounds"],
        "round_pick": draft_core.round_pick_number(state, seat.number),
        "queue": len(state["queues"][seat.number]),
        "cards": list(pack["cards"]),
        "deadline": seat.pick_deadline.isoformat() if seat.pick_deadline else None,
        "review_until": review.isoformat() if (review := review_until(pod, seat, pack)) else None,
        "highlighted": seat.highlighted,
    }


PROGRESS_EVERY = 2.0  # seconds: a pod's progress goes to its pages at most this often


def send_after_pick(pod_id: int, packs: list[tuple[str, dict]], progress: dict) -> None:
    """The packs to the players who now face them; the pod's progress to all its pages,
    at most once per ``PROGRESS_EVERY`` seconds per process (every page of the pod hears
    it, so unthrottled it would be most of the channel layer's traffic; the counts are
    cosmetic, and the last one offered in an interval goes out at its end)."""
    push.send(packs)
    push.send_latest(("draft-progress", pod_id), pod_group(pod_id), progress, PROGRESS_EVERY)


def progress_message(pod: Pod, seats: Iterable[Seat]) -> dict[str, Any]:
    """Every seat's public progress (picks made, packs held, whom it waits on), no cards."""
    state = pod.state
    waiting = draft_core.waiting_on(state)
    rows = [
        [len(state["pools"][n]), len(state["queues"][n]), waiting.get(n)]
        for n in range(state["seats"])
    ]
    return {"type": "draft.progress", "pod": pod.pk, "rows": rows}


def notify(
    pod_id: int, *, overview: bool = False, seats: Iterable[int] = (), redirect: str | None = None
) -> None:
    """After commit: tell the players of the listed seats and (``overview``) the pod's group.

    With ``redirect`` the players' pages go there instead of fetching their panel again
    (the draft's end takes everyone to deck building, as the last pick's answer does).
    """
    numbers = list(seats)
    users = []
    if numbers:
        users = Seat.objects.filter(pod_id=pod_id, number__in=numbers, user__isnull=False)
        users = list(users.values_list("user_id", flat=True))
    groups = [(player_group(pod_id, user_id), "seat") for user_id in users]
    if overview:
        groups.append((pod_group(pod_id), "pod"))
    if groups:
        transaction.on_commit(lambda: _send(groups, redirect))
