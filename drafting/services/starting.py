"""Starting: a pod's seats drawn, its empty seats given to bots and its boosters opened
(or its sealed pools); the waiting pods of an event started together.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.changes import after_change, seat_seed
from drafting.services.decks import start_building
from drafting.services.errors import PodError
from drafting.services.kits import kit
from drafting.services.messages import notify
from drafting.services.pods import User, check_event_organiser, check_manager, lock_pod
from engine.core.limited import LimitedError
from tournaments.models import AuditEntry
from tournaments.services.common import audit, said


def start_pod(actor: User, pod: Pod) -> Pod:
    """Seat the players at random, fill the empty seats with bots and open the boosters."""
    check_manager(actor, pod)
    with transaction.atomic():
        pod = lock_pod(pod)
        if pod.status != Pod.Status.WAITING:
            raise PodError(_("This pod has already started."))
        limited = kit(pod)
        seats = list(pod.seats.select_related("registration").order_by("number"))
        if pod.event_id is None:
            # Casual pods seat players in join order until the start; now draw the places.
            humans = [(s.user_id, s.registration_id, s.display_name, s.is_bot) for s in seats]
            order = list(range(pod.seats_count))
            random.Random(pod.seed).shuffle(order)
            pod.seats.all().delete()
            by_number = {}
            for (user_id, reg_id, name, is_bot), number in zip(humans, order, strict=False):
                by_number[number] = Seat(
                    pod=pod,
                    number=number,
                    user_id=user_id,
                    registration_id=reg_id,
                    display_name=name,
                    is_bot=is_bot,
                )
            seats = []
            for number in range(pod.seats_count):
                seat = by_number.get(number) or Seat(pod=pod, number=number, is_bot=True)
                seat.save()
                seats.append(seat)
        else:
            for seat in seats:  # a player who left the event: a bot drafts for them
                left = seat.registration_id is None or seat.registration.status == "dropped"
                if left and not seat.is_bot:
                    seat.abandoned = True
                    seat.save(update_fields=["abandoned"])
            present = {s.number for s in seats}
            for number in range(pod.seats_count):
                if number not in present:
                    seats.append(Seat.objects.create(pod=pod, number=number, is_bot=True))
        now = timezone.now()
        pod.started_at = now
        try:
            if pod.is_sealed:
                pools = [
                    limited.sealed_pool(pod.set_codes, seat_seed(pod.seed, n))
                    for n in range(pod.seats_count)
                ]
                pod.state = {"kind": "sealed", "pools": pools}
            else:
                packs = limited.draft_packs(pod.set_codes, pod.seats_count, pod.seed)
                # Every pick is a Pick row: the state need not carry their history too.
                pod.state = draft_core.new_draft(packs, history=False)
        except (LimitedError, draft_core.DraftError) as exc:
            raise PodError(_("The boosters cannot be opened: %(e)s") % {"e": exc}) from None
        if pod.is_sealed:
            pod.set_status(Pod.Status.BUILDING)
            pod.save()
            start_building(pod, now)
        else:
            pod.set_status(Pod.Status.DRAFTING)
            pod.save()
            after_change(pod, now=now)
        if pod.event_id is not None:
            audit(
                pod.event,
                actor,
                AuditEntry.Action.EDIT,
                said(gettext_noop("Started draft pod %(number)s"), number=pod.number),
                pod=pod.pk,
            )
        notify(pod.pk, overview=True, seats=range(pod.seats_count))
    return pod


def start_event_pods(actor: User, event) -> list[Pod]:
    check_event_organiser(actor, event)
    started = []
    for pod in event.pods.filter(status=Pod.Status.WAITING).order_by("number"):
        started.append(start_pod(actor, pod))
    if not started:
        raise PodError(_("There is no pod waiting to start."))
    return started
