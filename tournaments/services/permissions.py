"""Who may act on an event: its staff roles (organiser, judge), checked first by every
service, and the players an entry belongs to (a player's own, or each member's of a
team). A superuser counts as an organiser of every event. ``User`` is the type of the
person acting, anonymous included.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tournaments.models import Event, EventStaff, Registration, TeamMember
from tournaments.services.errors import NotAllowed

User = AbstractBaseUser | AnonymousUser


def role_of(user: User | None, event: Event) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return EventStaff.Role.ORGANISER
    staff = getattr(event, "_staff_roles", None)
    if staff is None:
        staff = dict(EventStaff.objects.filter(event=event).values_list("user_id", "role"))
        event._staff_roles = staff
    return staff.get(user.pk)


def is_organiser(user: User | None, event: Event) -> bool:
    return role_of(user, event) == EventStaff.Role.ORGANISER


def is_official(user: User | None, event: Event) -> bool:
    """Organisers and judges: may enter results, call time and drop players."""
    return role_of(user, event) in (EventStaff.Role.ORGANISER, EventStaff.Role.JUDGE)


def check_organiser(user: User | None, event: Event) -> None:
    if not is_organiser(user, event):
        raise NotAllowed(_("Only an organiser of this event can do that."))


def check_official(user: User | None, event: Event) -> None:
    if not is_official(user, event):
        raise NotAllowed(_("Only an organiser or judge of this event can do that."))


def plays_for(user: User | None, registration: Registration) -> bool:
    """``user`` is the registration's player, or a member of the team it enters."""
    uid = getattr(user, "pk", None)
    if uid is None:
        return False
    if registration.user_id == uid:
        return True
    return TeamMember.objects.filter(registration_id=registration.pk, user_id=uid).exists()


def registration_of(event: Event, user: User | None) -> Registration | None:
    """The entry ``user`` plays in at ``event``: their own, or their team's; None if none."""
    if user is None or not user.is_authenticated:
        return None
    own = event.registrations.filter(user=user).first()
    if own is not None:
        return own
    return event.registrations.filter(members__user=user).first()
