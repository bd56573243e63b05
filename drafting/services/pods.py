"""The pod row locked for a change, who may manage a pod, and the seat a user holds.

Every change locks the pod row for its transaction (``lock_pod``: ``select_for_update``).
A pod is managed by its creator, an organiser of its event or a superuser
(``can_manage``); an event's pods are made and started by the event's organisers.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from drafting.models import Pod, Seat
from drafting.services.errors import NotAllowed
from tournaments.services.permissions import is_official, is_organiser

User = AbstractBaseUser | AnonymousUser


def can_manage(user: User | None, pod: Pod) -> bool:
    """The pod's creator, an organiser of its event, or a superuser."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if pod.event_id is not None:
        return is_organiser(user, pod.event)
    return pod.created_by_id == user.pk


def may_see_pod(user: User | None, pod: Pod) -> bool:
    """A casual pod, or one of a listed event, is anyone's to look at (its progress; the
    cards as ``reading.can_see_picks`` allows); one of an unlisted event only its
    drafters' and the event's officials' (pod ids are sequential)."""
    event = pod.event
    if event is None or event.is_public:
        return True
    if user is None or not user.is_authenticated:
        return False
    return can_manage(user, pod) or is_official(user, event) or seat_of(user, pod) is not None


def check_manager(user: User | None, pod: Pod) -> None:
    if not can_manage(user, pod):
        raise NotAllowed(_("Only the organiser of this pod can do that."))


def check_event_organiser(user: User | None, event) -> None:
    if not is_organiser(user, event):
        raise NotAllowed(_("Only an organiser of this event can do that."))


def seat_of(user: User | None, pod: Pod) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return pod.seats.filter(user=user).first()


def lock_pod(pod: Pod | int) -> Pod:
    """Lock the pod row for the rest of the transaction and return it fresh."""
    pk = pod if isinstance(pod, int) else pod.pk
    return Pod.objects.select_for_update().get(pk=pk)
