"""How long each seat of a draft has had a pick to make. Pure: plain data in, times out.

A seat faces a pick from the moment both are true: it has made its previous pick, and
the pack at the head of its queue has reached it. A pack reaches a seat when the seat
upstream picks from it (``drafting.draft`` passes it at once), or, for a booster not yet
picked from, when its booster round opened: at the start of the draft for the first
round, at the last pick of the round before for the others (3.2.5.1.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

__all__ = ["pack_round", "pending_since"]


def pack_round(pack_id: str) -> int | None:
    """The booster round of a pack id ``r<round>s<seat>`` (``drafting.draft.pack_id``)."""
    if not pack_id.startswith("r") or "s" not in pack_id:
        return None
    head = pack_id[1:].split("s", 1)[0]
    return int(head) if head.isdigit() else None


def pending_since(
    queues: Sequence[Sequence[str]],
    current_round: int,
    started_at: datetime | None,
    pack_last_pick: Mapping[str, datetime],
    seat_last_pick: Mapping[int, datetime],
) -> dict[int, datetime]:
    """For each seat holding a pack: since when its current pick has been waiting.

    ``queues`` are the draft state's queues (pack ids, head first); ``pack_last_pick``
    maps a pack id to the time of the last pick from it, ``seat_last_pick`` a seat number
    to the time of its last pick. Seats without a pack are left out, and so are seats
    for which no time is known.
    """
    opened = started_at
    for pack, last in pack_last_pick.items():
        rnd = pack_round(pack)
        if rnd is not None and rnd < current_round and (opened is None or last > opened):
            opened = last
    out: dict[int, datetime] = {}
    for seat, queue in enumerate(queues):
        if not queue:
            continue
        times = [
            t
            for t in (opened, pack_last_pick.get(queue[0]), seat_last_pick.get(seat))
            if t is not None
        ]
        if times:
            out[seat] = max(times)
    return out
