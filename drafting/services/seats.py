"""Seats: joining and leaving a pod, and a seat handed to a bot (its player left, dropped
from the event, or the organiser chose so) or taken back after timed-out picks.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from drafting.models import Pod, Seat
from drafting.services.changes import after_change
from drafting.services.decks import bot_deck, maybe_finish
from drafting.services.errors import NotAllowed, PodError
from drafting.services.messages import notify
from drafting.services.pods import User, check_manager, lock_pod
from tournaments.models import AuditEntry
from tournaments.services.common import audit, said


def join_pod(user: User, pod: Pod) -> Seat:
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to join a draft."))
    with transaction.atomic():
        pod = lock_pod(pod)
        if pod.event_id is not None:
            raise PodError(_("The seats of an event's pod come from its registrations."))
        if pod.status != Pod.Status.WAITING:
            raise PodError(_("This pod has already started."))
        seats = list(pod.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise PodError(_("You already have a seat in this pod."))
        if len(seats) >= pod.seats_count:
            raise PodError(_("This pod is full."))
        taken = {s.number for s in seats}
        number = min(n for n in range(pod.seats_count) if n not in taken)
        try:
            with transaction.atomic():
                seat = Seat.objects.create(pod=pod, number=number, user=user)
        except IntegrityError:
            raise PodError(_("You already have a seat in this pod.")) from None
        notify(pod.pk, overview=True)
    return seat


def leave_pod(user: User, pod: Pod) -> None:
    """Before the start the seat is freed; afterwards a bot picks and builds for it (the
    page asks the player to confirm). Leaving twice changes nothing more."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in first."))
    with transaction.atomic():
        pod = lock_pod(pod)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise PodError(_("You have no seat in this pod."))
        if pod.status == Pod.Status.FINISHED:
            raise PodError(_("This pod has finished."))
        if pod.status == Pod.Status.WAITING:
            if pod.event_id is not None:
                raise PodError(_("Drop from the event to leave its pod."))
            seat.delete()
            notify(pod.pk, overview=True)
        else:
            _hand_to_bot(pod, seat, Seat.BotReason.LEFT, timezone.now())


def _hand_to_bot(pod: Pod, seat: Seat, reason: str, now: datetime) -> bool:
    """A bot picks (and builds the deck) for ``seat`` from now on. Call with the pod locked.

    Returns False, changing nothing, when a bot already does (a repeat is harmless) or
    the pod has finished. In a waiting event pod the seat is only marked: the bot takes
    it when the pod starts.
    """
    if seat.picked_by_bot or pod.status == Pod.Status.FINISHED:
        return False
    seat.abandoned = True
    seat.bot_reason = reason
    seat.highlighted = ""
    seat.timeouts = 0
    fields = {"abandoned": True, "bot_reason": reason, "highlighted": "", "timeouts": 0}
    if pod.status == Pod.Status.DRAFTING:
        seat.timer_key = fields["timer_key"] = ""  # re-armed below as a bot's pick
    Seat.objects.filter(pk=seat.pk).update(**fields)
    if pod.status == Pod.Status.DRAFTING:
        after_change(pod, now=now)
    elif pod.status == Pod.Status.BUILDING and seat.deck is None:
        bot_deck(pod, seat)
        maybe_finish(pod)
    notify(pod.pk, overview=True, seats=[seat.number])
    return True


def hand_to_bot(actor: User, pod: Pod | int, seat_number: Any) -> bool:
    """The organiser hands a seat to a bot (from the pod's console): it picks and builds
    for the seat from now on. False if a bot already had it."""
    pk = pod if isinstance(pod, int) else pod.pk
    try:
        number = int(seat_number)
    except (TypeError, ValueError):
        raise PodError(_("Choose a seat.")) from None
    with transaction.atomic():
        pod = lock_pod(pk)
        check_manager(actor, pod)
        if pod.status == Pod.Status.FINISHED:
            raise PodError(_("This pod has finished."))
        if pod.status == Pod.Status.WAITING and pod.event_id is None:
            raise PodError(_("Empty seats get bots when the pod starts."))
        seat = pod.seats.filter(number=number).first()
        if seat is None:
            raise PodError(_("There is no such seat in this pod."))
        handed = _hand_to_bot(pod, seat, Seat.BotReason.ORGANISER, timezone.now())
        if handed and pod.event_id is not None:
            audit(
                pod.event,
                actor,
                AuditEntry.Action.EDIT,
                said(
                    gettext_noop(
                        "Handed seat %(seat)s of draft pod %(number)s (%(name)s) to a bot"
                    ),
                    seat=number + 1,
                    number=pod.number,
                    name=seat.name,
                ),
                pod=pod.pk,
                seat=number,
            )
    return handed


def reclaim_seat(user: User, pod: Pod | int) -> Seat:
    """The player whose seat a bot took after too many timed-out picks takes it back:
    from their next pick on they pick (and the timer runs) again. Harmless to repeat."""
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to draft."))
    with transaction.atomic():
        pod = lock_pod(pod if isinstance(pod, int) else pod.pk)
        seat = pod.seats.filter(user=user).first()
        if seat is None:
            raise NotAllowed(_("You have no seat in this pod."))
        if pod.status != Pod.Status.DRAFTING:
            raise PodError(_("The draft is over."))
        if not seat.abandoned:
            return seat
        if seat.bot_reason != Seat.BotReason.TIMEOUTS:
            raise PodError(_("You left this draft; a bot picks for your seat."))
        seat.abandoned, seat.bot_reason, seat.timeouts, seat.timer_key = False, "", 0, ""
        Seat.objects.filter(pk=seat.pk).update(
            abandoned=False, bot_reason="", timeouts=0, timer_key=""
        )
        after_change(pod, now=timezone.now())  # the seat's pick gets a player's timer
        notify(pod.pk, overview=True, seats=[seat.number])
    return seat


def hand_dropped_seats_to_bots_on_commit(registration) -> None:
    """Called inside the transaction that drops (or deletes) a registration: once it has
    committed, a bot takes each of its seats in pods that have not finished.

    After commit, in transactions of their own, because the pod lock is taken before the
    event's elsewhere (a deck saved under the pod lock records the event's decklist):
    taking the pod lock while holding the event's could deadlock.
    """
    seat_ids = list(
        Seat.objects.filter(registration_id=registration.pk)
        .exclude(pod__status=Pod.Status.FINISHED)
        .values_list("pk", flat=True)
    )
    if seat_ids:
        transaction.on_commit(lambda: hand_seats_to_bots(seat_ids), robust=True)


def hand_seats_to_bots(seat_ids: Iterable[int], reason: str = Seat.BotReason.DROPPED) -> int:
    """A bot takes each of these seats (each under its pod's lock); returns how many
    changed hands. Repeats are harmless."""
    handed = 0
    for seat_id in seat_ids:
        pod_id = Seat.objects.filter(pk=seat_id).values_list("pod_id", flat=True).first()
        if pod_id is None:
            continue
        with transaction.atomic():
            pod = lock_pod(pod_id)
            seat = pod.seats.filter(pk=seat_id).first()
            if seat is not None and _hand_to_bot(pod, seat, reason, timezone.now()):
                handed += 1
    return handed
