"""Teams: in a team format (``registry.Format.team_size``) each entrant is a team, one
``Registration`` with its members (``TeamMember``), paired and ranked as one player is.

A player registers a team by naming their partner(s); an organiser or judge names every
member. Members are users, each in at most one team of the event (a unique constraint
settles two registrations at once). Each member brings their own deck
(``decklists.submit_member_deck``) and plays their own seat of an online game.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Event, Registration, TeamMember
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.permissions import User, check_official
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
