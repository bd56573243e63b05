"""Teams: in a team format (``registry.Format.team_size``) each entrant is a team, one
``Registration`` with its members (``TeamMember``), paired and ranked as one player is.

A player registers a team by naming their partner(s); an organiser or judge names every
member. Members are users, each in at most one team of the event (a unique constraint
settles two registrations at once). Each member brings their own deck
(``decklists.submit_member_deck``) and plays their own seat of an online game.

Until the event starts an organiser replaces a member (``replace_member``): the newcomer
takes the same place, brings their own deck, and the change is audited; once the event
has started a team plays as it is (drop it, or it plays on without the missing player).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, Registration, TeamMember
from tournaments.services.common import audit, lock_event
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.permissions import User, check_official, check_organiser
from tournaments.services.players import enter

MAX_TEAM_NAME = 80


def find_player(username: str) -> User:
    """The user of ``username`` (a member named in a form or a request), or a clear error."""
    name = (username or "").strip()
    if "\x00" in name:
        raise TournamentError(_("Null characters are not allowed."))
    if not name:
        raise TournamentError(_("Name each member of the team by their username."))
    user = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if user is None:
        raise TournamentError(_("There is no player with the username %(name)s.") % {"name": name})
    return user


def register_team(
    event: Event,
    *,
    name: str,
    members: Sequence[User],
    actor: User,
    is_bot: bool = False,
) -> Registration:
    """Enter a team of ``members`` (in seat order) named ``name``.

    A player registers their own team: ``actor`` is one of the members (placed first
    when they are not named first, so they become the team's contact). An organiser or
    judge registers any team, also as a late entry during the Swiss.
    """
    if actor is None or not actor.is_authenticated:
        raise NotAllowed(_("Log in to register."))
    size = event.team_size
    if size < 2:
        raise TournamentError(_("This event is not for teams: register as a player."))
    members = list(members)
    in_team = any(m.pk == actor.pk for m in members)
    if not in_team:
        check_official(actor, event)
    if any(m is None or not getattr(m, "is_authenticated", False) for m in members):
        raise TournamentError(_("Every member of a team must be a registered user."))
    if len({m.pk for m in members}) != len(members):
        raise TournamentError(_("A player can take only one place in a team."))
    if len(members) != size:
        raise TournamentError(_("A team here has exactly %(n)d players.") % {"n": size})
    if in_team:
        members.sort(key=lambda m: m.pk != actor.pk)  # the registering player first
    name = (name or "").strip()
    if not name:
        raise TournamentError(_("A team needs a name."))
    if len(name) > MAX_TEAM_NAME:
        raise TournamentError(_("A team name has at most %(n)d characters.") % {"n": MAX_TEAM_NAME})
    with transaction.atomic():
        return enter(
            event,
            user=members[0],
            name=name,
            actor=actor,
            by_organiser=not in_team,
            is_bot=is_bot,
            members=members,
        )


def team_members(registration: Registration) -> list[TeamMember]:
    """The members of a team entry, in seat order (empty for a single player's entry)."""
    return list(registration.members.select_related("user").order_by("position"))


def replace_member(
    actor: User, registration: Registration, member: User, replacement: User
) -> TeamMember:
    """An organiser replaces ``member`` of a team by ``replacement`` before the event
    starts: the same place in the team, the newcomer's own (empty) deck, the team's
    contact moved to them if it was the member replaced. Audited; refused once the event
    has started, and for a player already in a team of the event (the unique constraint
    ``one_team_per_player`` settles two replacements at once)."""
    event = registration.event
    check_organiser(actor, event)
    if replacement is None or not getattr(replacement, "is_active", False):
        raise TournamentError(_("The new member must be an active registered user."))
    with transaction.atomic():
        event = lock_event(event)
        if event.status != Event.Status.REGISTRATION:
            raise TournamentError(
                _(
                    "The event has started: its teams play as they are. Drop the team, or "
                    "let it play on."
                )
            )
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.event_id != event.pk or not event.is_team_event:
            raise TournamentError(_("That entry is not a team of this event."))
        place = (
            TeamMember.objects.select_for_update()
            .filter(registration=reg, user_id=getattr(member, "pk", None))
            .first()
        )
        if place is None:
            raise TournamentError(
                _("%(user)s is not a member of %(team)s.") % {"user": member, "team": reg}
            )
        if place.user_id == replacement.pk:
            raise TournamentError(
                _("%(user)s is already in %(team)s.") % {"user": replacement, "team": reg}
            )
        taken = (
            TeamMember.objects.filter(event=event, user=replacement)
            .select_related("registration")
            .first()
        )
        if taken is not None:
            raise TournamentError(
                _("%(user)s already plays in the team %(team)s.")
                % {"user": replacement, "team": taken.registration}
            )
        old = place.user
        try:
            with transaction.atomic():
                place.user = replacement
                place.deck, place.deck_problems, place.deck_is_legal = "", [], None
                place.save(update_fields=["user", "deck", "deck_problems", "deck_is_legal"])
                if reg.user_id == old.pk:
                    reg.user = replacement
                    reg.save(update_fields=["user"])
        except IntegrityError:
            raise TournamentError(
                _("%(user)s already plays in this event.") % {"user": replacement}
            ) from None
        audit(
            event,
            actor,
            AuditEntry.Action.TEAM,
            f"Team {reg.display_name}: {old.get_username()} replaced by "
            f"{replacement.get_username()}",
            registration=reg.pk,
            replaced=old.pk,
            member=replacement.pk,
            position=place.position,
        )
        broadcast_on_commit(event.pk, "pairings")
    return place
