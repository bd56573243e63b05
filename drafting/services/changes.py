"""Every change of a drafting pod: one pick applied to the locked pod, the bots' choices,
and ``after_change``, which each change ends with.

``apply_pick`` checks the pick number the page answered, applies ``draft.pick`` and
writes the ``Pick`` row and the new state together; picks the timer makes count towards
a bot taking the seat. ``after_change`` then lets inline bots pick, gives the seats that
face a new pick their deadlines and arms the pod's timer check (``timers``), and after
commit sends each player the pack they now face and the pod its progress
(``messages``); the draft's last pick starts deck building (``decks``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from drafting import draft as draft_core
from drafting.models import Pick, Pod, Seat
from drafting.services.decks import start_building
from drafting.services.errors import PodError
from drafting.services.kits import kit
from drafting.services.messages import (
    notify,
    pack_message,
    player_group,
    progress_message,
    send_after_pick,
)
from drafting.services.pools import pool
from drafting.services.timers import arm_timers, new_round_for
from engine.core import rng as rng_mod


def seat_seed(seed: int, seat: int) -> int:
    return random.Random(f"{seed}:{seat}").getrandbits(62)


def apply_pick(pod: Pod, seat: Seat, card_id: str, *, expected: int, auto: str) -> Pick:
    """Apply one pick to the locked pod: new state and the Pick row, saved together."""
    state = pod.state
    pack = draft_core.current_pack(state, seat.number)
    next_number = draft_core.pick_number(state, seat.number)
    if expected < next_number:
        raise PodError(
            _("Pick %(n)d was already made: the page was out of date. Here is your next pack.")
            % {"n": expected}
        )
    if expected > next_number:
        raise PodError(_("That pick number is not yours yet (stale page)."))
    if pack is None:
        raise PodError(_("No pack is waiting for you yet."))
    if card_id not in pack["cards"]:
        raise PodError(_("That card is not in your current pack."))
    try:
        new_state = draft_core.pick(state, seat.number, card_id, expected_pick=expected)
    except draft_core.DraftError as exc:
        raise PodError(exc.message) from None
    pick = Pick.objects.create(
        pod=pod,
        seat=seat,
        booster_round=pack["round"],
        pick_number=expected,
        card_id=card_id,
        pack_id=pack["id"],
        pack_cards=list(pack["cards"]),
        auto=auto,
    )
    pod.state = new_state
    pod.save(update_fields=["state", "updated_at"])
    reset: dict[str, Any] = {}
    if seat.highlighted:
        seat.highlighted = reset["highlighted"] = ""
    if auto == Pick.Auto.PLAYER and seat.timeouts:
        seat.timeouts = reset["timeouts"] = 0
    elif auto == Pick.Auto.TIMER:
        _count_timeout(pod, seat, reset)
    if reset:
        Seat.objects.filter(pk=seat.pk).update(**reset)
    return pick


def _count_timeout(pod: Pod, seat: Seat, fields: dict[str, Any]) -> None:
    """The timer picked for a player: after ``pod.abandon_after`` such picks in a row the
    seat counts as abandoned and a bot picks for it until the player picks again."""
    seat.timeouts = fields["timeouts"] = seat.timeouts + 1
    if pod.abandon_after and seat.timeouts >= pod.abandon_after and not seat.abandoned:
        seat.abandoned = fields["abandoned"] = True
        seat.bot_reason = fields["bot_reason"] = Seat.BotReason.TIMEOUTS
        notify(pod.pk, overview=True, seats=[seat.number])


def bot_choice(pod: Pod, seat_number: int, cards: Sequence[str]) -> str:
    number = draft_core.pick_number(pod.state, seat_number)
    rng = rng_mod.seed_state(seat_seed(pod.seed, seat_number * 1000 + number))
    return str(kit(pod).bot_pick(list(cards), pool(pod, seat_number), rng))


def _run_bots_locked(pod: Pod) -> int:
    """Inline mode (``bots_inline``): every bot seat holding a pack picks, until none does."""
    made = 0
    seats = {s.number: s for s in pod.seats.all()}
    progress = True
    while progress and pod.status == Pod.Status.DRAFTING and not draft_core.is_finished(pod.state):
        progress = False
        for number, seat in seats.items():
            if not seat.picked_by_bot:
                continue
            pack = draft_core.current_pack(pod.state, number)
            if pack is None:
                continue
            card = bot_choice(pod, number, pack["cards"])
            expected = draft_core.pick_number(pod.state, number)
            apply_pick(pod, seat, card, expected=expected, auto=Pick.Auto.BOT)
            made += 1
            progress = True
    return made


def after_change(
    pod: Pod,
    *,
    now: datetime,
    seats: list[Seat] | None = None,
    answered: int | None = None,
) -> None:
    """Re-arm the timers of seats that face a new pick, wake the bots, tell the pages.

    Called inside the transaction holding the pod lock, after the state changed. Only
    seats whose pick changed are written. Each of their players is sent the pack they now
    face (their own group only), except ``answered``, the seat whose request is being
    answered with it; the pod's group gets the public progress of every seat.
    """
    if pod.bots_inline:
        _run_bots_locked(pod)
        seats = None  # reload: bot picks moved the keys
    if draft_core.is_finished(pod.state):
        _finish_draft(pod, now)
        return
    state = pod.state
    if seats is None:
        seats = list(pod.seats.select_related("user"))
    packs: list[tuple[Seat, dict[str, Any]]] = []
    changed: list[Seat] = []
    for seat in seats:
        pack = draft_core.current_pack(state, seat.number)
        key = str(draft_core.pick_number(state, seat.number)) if pack else ""
        if key == seat.timer_key:
            continue
        seat.timer_key = key
        seat.pick_deadline = None
        changed.append(seat)
        if pack is not None:
            if seat.picked_by_bot:
                if not pod.bots_inline:
                    seat.pick_deadline = now + timedelta(seconds=pod.bot_seconds)
            else:
                seconds = pod.pick_seconds(len(pack["cards"]))
                if seconds is not None:
                    if new_round_for(state, seat.number, pack):
                        seconds += pod.review_seconds
                    seat.pick_deadline = now + timedelta(seconds=seconds)
            if seat.user_id is not None and seat.number != answered and not seat.picked_by_bot:
                packs.append((seat, pack))
    if len(changed) == 1:
        Seat.objects.filter(pk=changed[0].pk).update(
            timer_key=changed[0].timer_key, pick_deadline=changed[0].pick_deadline
        )
    elif changed:
        Seat.objects.bulk_update(changed, ["timer_key", "pick_deadline"])
    arm_timers(pod, seats, now)
    # A seat without a name of its own (a bot's) stays "": each page names it "Bot N" in
    # its reader's language (``drafting.views.seat_label``), not in this process's.
    names = [""] * state["seats"]
    if packs:
        for seat in seats:
            if seat.display_name or seat.user_id:
                names[seat.number] = seat.name
    messages = [
        (player_group(pod.pk, seat.user_id), pack_message(pod, seat, pack, names))
        for seat, pack in packs
    ]
    progress, pod_id = progress_message(pod, seats), pod.pk
    transaction.on_commit(lambda: send_after_pick(pod_id, messages, progress))


def _finish_draft(pod: Pod, now: datetime) -> None:
    pod.set_status(Pod.Status.BUILDING)
    pod.save(update_fields=["status", "updated_at"])
    Seat.objects.filter(pod=pod).update(timer_key="", pick_deadline=None, highlighted="")
    start_building(pod, now)
    deck = reverse("drafting:deck", kwargs={"pk": pod.pk})
    notify(pod.pk, overview=True, seats=range(pod.seats_count), redirect=deck)
