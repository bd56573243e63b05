"""Picks: a player's pick and the card they lean to; the picks made for a seat when its
time runs out or a bot holds it.

``make_pick`` is the player's (the view, the socket through the view, the API);
``run_timers`` is the pod's timer task, making every pick that is due; ``auto_pick`` is
one seat's. Each takes the pod's lock and carries the pick number it answers, so a page
out of date or a task that fires late or twice changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drafting import draft as draft_core
from drafting.models import Pick, Pod, Seat
from drafting.services.changes import after_change, apply_pick, bot_choice
from drafting.services.errors import NotAllowed, PodError
from drafting.services.pods import User, lock_pod
from drafting.services.timers import TIMER_SLACK, arm_timers


def _parse_pick_number(value: Any) -> int:
    if isinstance(value, bool):
        raise PodError(_("The pick number is missing or malformed."))
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PodError(_("The pick number is missing or malformed.")) from None
    if not 1 <= number <= 10_000:
        raise PodError(_("The pick number is missing or malformed."))
    return number


def _parse_card_id(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 40:
        raise PodError(_("Choose a card."))
    return value.strip()


def make_pick(
    user: User, pod: Pod | int, pick_number: Any, card_id: Any, *, seat_number: Any = None
) -> Pick:
    """The player takes ``card_id`` from the pack they hold; ``pick_number`` is the pick
    the page answered (``draft.pick_number``). Every refusal changes nothing."""
    number = _parse_pick_number(pick_number)
    card_id = _parse_card_id(card_id)
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to draft."))
    with transaction.atomic():
        pod = lock_pod(pod)
        seats = list(pod.seats.select_related("user"))
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        if seat_number not in (None, "") and str(seat_number) != str(seat.number):
            raise NotAllowed(_("You can only pick for your own seat."))
        if pod.status == Pod.Status.WAITING:
            raise PodError(_("The draft has not started yet."))
        if pod.status != Pod.Status.DRAFTING:
            raise PodError(_("The draft is over."))
        if seat.abandoned:
            if seat.bot_reason != Seat.BotReason.TIMEOUTS:
                raise PodError(_("You left this draft; a bot picks for your seat."))
            # The timer made too many picks in a row and a bot took the seat: picking
            # again takes it back (if this pick is refused, so is the taking back).
            seat.abandoned, seat.bot_reason, seat.timeouts = False, "", 0
            Seat.objects.filter(pk=seat.pk).update(abandoned=False, bot_reason="", timeouts=0)
        pick = apply_pick(pod, seat, card_id, expected=number, auto=Pick.Auto.PLAYER)
        # The picker's own page learns its next pack from the answer to this request.
        after_change(pod, now=timezone.now(), seats=seats, answered=seat.number)
    # For the caller's answer: the pod as it is now and the picker's seat (with its new
    # timer), so it needs no second look at the database.
    pick.pod, pick.seat, pick.seats = pod, seat, seats
    return pick


def highlight(user: User, pod: Pod, card_id: Any, pick_number: Any = None) -> Seat:
    """Mark the card the player leans to: the timer takes it if time runs out.

    ``pick_number`` is the pick the page showed. A highlight that arrives after that pick
    was made (a double click: the pick overtook it) changes nothing and is no error, and
    neither is the same highlight twice; a card outside the pack the seat faces is.
    """
    card_id = _parse_card_id(card_id)
    number = None if pick_number in (None, "") else _parse_pick_number(pick_number)
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to draft."))
    with transaction.atomic():
        pod = lock_pod(pod)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        made = pod.state and number is not None
        if made and number < draft_core.pick_number(pod.state, seat.number):
            return seat  # that pick is made: the highlight is moot
        if pod.status != Pod.Status.DRAFTING:
            raise PodError(_("The draft is over."))
        pack = draft_core.current_pack(pod.state, seat.number)
        if pack is None or card_id not in pack["cards"]:
            raise PodError(_("That card is not in your current pack."))
        if seat.highlighted != card_id:
            seat.highlighted = card_id
            seat.save(update_fields=["highlighted"])
    return seat


def auto_pick(pod_id: int, seat_number: int, pick_number: int) -> Pick | None:
    """The timer or a bot picks for a seat (the Celery task calls this).

    Carries the pick it was scheduled for: if the seat has moved past it (it picked in
    time, or this is a repeated delivery) or its deadline was moved, nothing happens.
    A player who ran out of time gets the card they highlighted, else the bot's choice.
    """
    # Nearly every timer finds its pick made in time: tell so without locking the pod.
    # ``timer_key`` names the pick a seat faces and only moves under the pod's lock, past
    # this pick once it is made, so a seat not showing it now will never show it again.
    if not Seat.objects.filter(
        pod_id=pod_id, number=seat_number, timer_key=str(pick_number)
    ).exists():
        return None
    with transaction.atomic():
        pod = Pod.objects.select_for_update().filter(pk=pod_id).first()
        if pod is None or pod.status != Pod.Status.DRAFTING:
            return None
        seat = pod.seats.filter(number=seat_number).first()
        if seat is None or draft_core.pick_number(pod.state, seat_number) != pick_number:
            return None
        pack = draft_core.current_pack(pod.state, seat_number)
        if pack is None:
            return None
        now = timezone.now()
        if not seat.picked_by_bot:
            if seat.pick_deadline is None or now + TIMER_SLACK < seat.pick_deadline:
                return None  # no timer, or the deadline moved later: a newer task will come
            card = seat.highlighted if seat.highlighted in pack["cards"] else None
            auto = Pick.Auto.TIMER
        else:
            card, auto = None, Pick.Auto.BOT
        if card is None:
            card = bot_choice(pod, seat_number, pack["cards"])
        pick = apply_pick(pod, seat, card, expected=pick_number, auto=auto)
        after_change(pod, now=now)
    return pick


def run_timers(pod_id: int) -> int:
    """The pod's timer task: every seat whose deadline has passed picks (a bot's choice,
    or for a player the card they highlighted, else the bot's choice), then the next
    check is armed. Reads everything under the pod's lock: a check that runs early,
    late or twice makes only the picks that are due. Returns the number of picks made."""
    with transaction.atomic():
        pod = Pod.objects.select_for_update().filter(pk=pod_id).first()
        if pod is None or pod.status != Pod.Status.DRAFTING:
            return 0
        now = timezone.now()
        if pod.timers_due is not None and pod.timers_due <= now + TIMER_SLACK:
            pod.timers_due = None  # this is the check that was due
            Pod.objects.filter(pk=pod.pk).update(timers_due=None)
        seats = list(pod.seats.select_related("user"))
        due = [
            s
            for s in seats
            if s.timer_key and s.pick_deadline is not None and s.pick_deadline <= now + TIMER_SLACK
        ]
        made = 0
        for seat in sorted(due, key=lambda s: (s.pick_deadline, s.number)):
            number = int(seat.timer_key)
            pack = draft_core.current_pack(pod.state, seat.number)
            if pack is None or draft_core.pick_number(pod.state, seat.number) != number:
                continue
            card = None
            auto = Pick.Auto.BOT if seat.picked_by_bot else Pick.Auto.TIMER
            if auto == Pick.Auto.TIMER and seat.highlighted in pack["cards"]:
                card = seat.highlighted
            if card is None:
                card = bot_choice(pod, seat.number, pack["cards"])
            apply_pick(pod, seat, card, expected=number, auto=auto)
            made += 1
        if made:
            after_change(pod, now=now, seats=None if pod.bots_inline else seats)
        else:
            arm_timers(pod, seats, now)
    return made
