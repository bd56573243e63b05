"""Players: registering (late entry during the Swiss), checking in, dropping and re-adding;
and who is active in a round.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import announce
from tournaments.audit_text import AuditText
from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, Registration, Round, TeamMember
from tournaments.services.common import audit, lock_event, said
from tournaments.services.decklists import is_limited
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.permissions import User, check_official, plays_for
from tournaments.services.standings import save_standings


def _swiss_rounds_played(event: Event) -> int:
    return event.rounds.filter(kind=Round.Kind.SWISS).exclude(status=Round.Status.DRAFT).count()


def register(
    event: Event,
    *,
    user: User | None = None,
    display_name: str = "",
    actor: User | None = None,
    is_bot: bool = False,
) -> Registration:
    """Sign a player up: themselves (``user``), or by an organiser (``actor``).

    During the Swiss an organiser may still add a player (late entry): rounds
    already published count as match losses for them. An event in a team format takes
    teams only (``teams.register_team``).
    """
    by_organiser = actor is not None and actor != user
    if by_organiser:
        check_official(actor, event)
    elif user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to register."))
    if event.is_team_event:
        raise TournamentError(
            _("This event is for teams of %(n)d: register a team with your partner.")
            % {"n": event.team_size}
        )
    name = (display_name or (user.get_full_name() or user.get_username() if user else "")).strip()
    if not name:
        raise TournamentError(_("A player needs a name."))
    with transaction.atomic():
        return enter(
            event,
            user=user if user is not None and user.is_authenticated else None,
            name=name,
            actor=actor,
            by_organiser=by_organiser,
            is_bot=is_bot,
        )


def enter(
    event: Event,
    *,
    user: User | None,
    name: str,
    actor: User | None,
    by_organiser: bool,
    is_bot: bool = False,
    members: Sequence[User] = (),
) -> Registration:
    """The entry row of a player or a team (``members``, in seat order), inside the
    caller's transaction, once every rule of entry is checked under the event lock."""
    event = lock_event(event)
    late = event.status == Event.Status.RUNNING
    if event.status == Event.Status.FINISHED:
        raise TournamentError(_("This event has finished."))
    if late and not by_organiser:
        raise TournamentError(_("Registration has closed; ask an organiser for a late entry."))
    if late and (event.phase != Event.Phase.SWISS or event.structure != Event.Structure.SWISS):
        raise TournamentError(_("Late entry is only possible during the Swiss rounds."))
    if is_limited(event) and event.pods.exists():
        raise TournamentError(_("Registration has closed: the players are already seated in pods."))
    if (
        event.max_players
        and event.registrations.exclude(status=Registration.Status.DROPPED).count()
        >= event.max_players
    ):
        raise TournamentError(_("The event is full."))
    if user is not None and event.registrations.filter(user=user).exists():
        if by_organiser:  # not the organiser: the player they tried to add
            raise TournamentError(
                _("%(username)s is already registered for this event.")
                % {"username": user.get_username()}
            )
        raise TournamentError(_("You are already registered for this event."))
    taken = [m for m in members if event.team_members.filter(user=m).exists()]
    if taken:
        raise TournamentError(
            _("%(names)s already plays in a team of this event.")
            % {"names": ", ".join(m.get_username() for m in taken)}
        )
    if event.registrations.filter(display_name=name).exists():
        raise TournamentError(_("A player named %(name)s is already registered.") % {"name": name})
    first_round = _swiss_rounds_played(event) + 1 if late else 1
    try:
        with transaction.atomic():
            reg = Registration.objects.create(
                event=event,
                user=user,
                display_name=name,
                first_round=first_round,
                is_bot=is_bot,
                status=Registration.Status.CHECKED_IN if late else Registration.Status.REGISTERED,
            )
            for position, member in enumerate(members):
                TeamMember.objects.create(
                    event=event, registration=reg, user=member, position=position
                )
    except IntegrityError:
        if members:
            raise TournamentError(_("A player of this team is already in a team.")) from None
        raise TournamentError(_("This player is already registered.")) from None
    if late:
        audit(
            event,
            actor,
            AuditEntry.Action.LATE_ENTRY,
            said(
                gettext_noop("Late entry: %(name)s from round %(first)s"),
                name=name,
                first=first_round,
            ),
            registration=reg.pk,
        )
        save_standings(event)
    elif members:
        audit(
            event,
            actor,
            AuditEntry.Action.TEAM,
            said(
                gettext_noop("Team %(name)s: %(members)s"),
                name=name,
                members=", ".join(m.get_username() for m in members),
            ),
            registration=reg.pk,
            members=[m.pk for m in members],
        )
    elif by_organiser:
        audit(
            event,
            actor,
            AuditEntry.Action.REGISTER,
            said(gettext_noop("Added %(name)s"), name=name),
            registration=reg.pk,
        )
    broadcast_on_commit(event.pk, "players")
    return reg


def check_in(actor: User, registration: Registration) -> Registration:
    event = registration.event
    own = plays_for(actor, registration)
    if not own:
        check_official(actor, event)
    with transaction.atomic():
        reg = (
            Registration.objects.select_for_update().select_related("event").get(pk=registration.pk)
        )
        if reg.event.status != Event.Status.REGISTRATION:
            raise TournamentError(_("Check-in is over: the event has started."))
        if reg.status == Registration.Status.DROPPED:
            raise TournamentError(_("This player has dropped."))
        reg.set_status(Registration.Status.CHECKED_IN)
        reg.save(update_fields=["status"])
        if not own:
            audit(
                event,
                actor,
                AuditEntry.Action.CHECK_IN,
                said(gettext_noop("Checked in %(name)s"), name=reg.display_name),
                registration=reg.pk,
            )
        broadcast_on_commit(event.pk, "players")
    return reg


def drop(actor: User, registration: Registration, reason: str | AuditText = "") -> Registration:
    """Drop a player. Their results keep counting for the opponents they played.

    ``reason``: the player's or official's own words, or a line of the site's
    (``said(gettext_noop(...))``), kept as its message and shown in the reader's language
    (``Registration.drop_reason_line``); ``drop_reason`` keeps its English."""
    event = registration.event
    own = plays_for(actor, registration)
    if not own:
        check_official(actor, event)
    with transaction.atomic():
        event = lock_event(event)
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.status == Registration.Status.DROPPED:
            raise TournamentError(_("%(name)s has already dropped.") % {"name": reg.display_name})
        if event.status == Event.Status.FINISHED:
            raise TournamentError(_("This event has finished."))
        # A bot drafts and builds for their seats (drafting, once this commits).
        announce.registration_leaving.send(sender=None, registration=reg)
        if event.status == Event.Status.REGISTRATION and own:
            reg.delete()  # leaving before the start leaves no trace to keep
            broadcast_on_commit(event.pk, "players")
            return registration
        reg.set_status(Registration.Status.DROPPED)
        line = reason if isinstance(reason, AuditText) else None
        reg.drop_reason = str(reason).strip()[:200]
        reg.drop_message = line.message if line is not None else ""
        reg.drop_params = line.params if line is not None else {}
        reg.dropped_after_round = _swiss_rounds_played(event) + _playoff_rounds(event)
        reg.save(
            update_fields=[
                "status",
                "drop_reason",
                "drop_message",
                "drop_params",
                "dropped_after_round",
            ]
        )
        audit(
            event,
            actor,
            AuditEntry.Action.DROP,
            said(
                gettext_noop("Dropped %(name)s: %(reason)s"),
                name=reg.display_name,
                reason=line if line is not None else reg.drop_reason,
            )
            if reg.drop_reason
            else said(gettext_noop("Dropped %(name)s"), name=reg.display_name),
            registration=reg.pk,
            by_player=own,
        )
        save_standings(event)
        broadcast_on_commit(event.pk, "standings")
    return reg


def _playoff_rounds(event: Event) -> int:
    return event.rounds.exclude(kind=Round.Kind.SWISS).exclude(status=Round.Status.DRAFT).count()


def readd(actor: User, registration: Registration) -> Registration:
    event = registration.event
    check_official(actor, event)
    with transaction.atomic():
        event = lock_event(event)
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.status != Registration.Status.DROPPED:
            raise TournamentError(_("%(name)s has not dropped.") % {"name": reg.display_name})
        if event.phase != Event.Phase.SWISS and event.status == Event.Status.RUNNING:
            raise TournamentError(_("Players can only be re-added during the Swiss rounds."))
        reg.set_status(
            Registration.Status.CHECKED_IN
            if event.status == Event.Status.RUNNING
            else Registration.Status.REGISTERED
        )
        reg.dropped_after_round = None
        reg.save(update_fields=["status", "dropped_after_round"])
        audit(
            event,
            actor,
            AuditEntry.Action.READD,
            said(gettext_noop("Re-added %(name)s"), name=reg.display_name),
            registration=reg.pk,
        )
        save_standings(event)
        broadcast_on_commit(event.pk, "standings")
    return reg


def active_player_ids(event: Event, round_number: int) -> list[int]:
    """The players who may be paired in round ``round_number``: entered by then, not dropped."""
    return list(
        event.registrations.filter(first_round__lte=round_number)
        .exclude(status=Registration.Status.DROPPED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
