"""Reading: what anybody may see of a pod: each seat's progress (no cards), whose picks a
person may see, and a seat's pick log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.pods import User, can_manage, seat_of
from tournaments.models import Event


def seat_progress(pod: Pod, seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """Per seat, what anybody may see: picks made, packs waiting, deck status. No cards."""
    state = pod.state
    waiting = draft_core.waiting_on(state) if state and pod.status == Pod.Status.DRAFTING else {}
    rows = []
    for seat in seats:
        row: dict[str, Any] = {"seat": seat, "picks": 0, "queue": 0, "waiting_on": None}
        if state and not pod.is_sealed:
            row["picks"] = len(state["pools"][seat.number])
            row["queue"] = len(state["queues"][seat.number])
            row["cards_in_pack"] = draft_core.picks_left_in_pack(state, seat.number)
            row["waiting_on"] = waiting.get(seat.number)
        elif state:
            row["picks"] = len(state["pools"][seat.number])
        rows.append(row)
    return rows


def can_see_picks(user: User | None, pod: Pod, seat: Seat) -> bool:
    """Whose picks may this person see? Their own at any time; the organiser's once the
    draft is over, unless the organiser drafts in the pod too (then, like every drafter,
    only once the pod has finished); everybody's once the pod has finished, unless its
    event still runs."""
    if user is not None and user.is_authenticated and seat.user_id == user.pk:
        return True
    if pod.status in (Pod.Status.WAITING, Pod.Status.DRAFTING):
        return False
    if pod.status != Pod.Status.FINISHED and seat_of(user, pod) is not None:
        return False  # a drafter, whatever else they are
    if can_manage(user, pod):
        return True
    if pod.status != Pod.Status.FINISHED:
        return False
    if pod.event_id is None:
        return True

    return pod.event.status == Event.Status.FINISHED


def pick_log(pod: Pod, seat: Seat) -> list[dict[str, Any]]:
    """The seat's picks in order, each with the pack as the seat saw it."""
    return [
        {
            "round": p.booster_round + 1,
            "pick": i,
            "number": p.pick_number,
            "pack": p.pack_id,
            "card": p.card_id,
            "pack_cards": p.pack_cards,
            "auto": p.auto,
            "at": p.picked_at.isoformat(),
        }
        for i, p in enumerate(seat.picks.order_by("pick_number"), start=1)
    ]
