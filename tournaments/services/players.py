"""Players: registering (late entry during the Swiss), checking in, dropping and re-adding;
and who is active in a round.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments import announce
from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, Registration, Round
from tournaments.services.common import audit, lock_event
from tournaments.services.decklists import is_limited
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.permissions import User, check_official
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
    already published count as match losses for them.
    """
    by_organiser = actor is not None and actor != user
    if by_organiser:
        check_official(actor, event)
    elif user is None or not user.is_authenticated:
        raise NotAllowed(_("Log in to register."))
    name = (display_name or (user.get_full_name() or user.get_username() if user else "")).strip()
    if not name:
        raise TournamentError(_("A player needs a name."))
    with transaction.atomic():
        event = lock_event(event)
        late = event.status == Event.Status.RUNNING
        if event.status == Event.Status.FINISHED:
            raise TournamentError(_("This event has finished."))
        if late and not by_organiser:
            raise TournamentError(_("Registration has closed; ask an organiser for a late entry."))
        if late and (event.phase != Event.Phase.SWISS or event.structure != Event.Structure.SWISS):
            raise TournamentError(_("Late entry is only possible during the Swiss rounds."))
        if is_limited(event) and event.pods.exists():
            raise TournamentError(
                _("Registration has closed: the players are already seated in pods.")
            )
        if (
            event.max_players
            and event.registrations.exclude(status=Registration.Status.DROPPED).count()
            >= event.max_players
        ):
            raise TournamentError(_("The event is full."))
        if user is not None and event.registrations.filter(user=user).exists():
            raise TournamentError(_("You are already registered for this event."))
        if event.registrations.filter(display_name=name).exists():
            raise TournamentError(
                _("A player named %(name)s is already registered.") % {"name": name}
            )
        first_round = _swiss_rounds_played(event) + 1 if late else 1
        try:
            with transaction.atomic():
                reg = Registration.objects.create(
                    event=event,
                    user=user if user is not None and user.is_authenticated else None,
                    display_name=name,
                    first_round=first_round,
                    is_bot=is_bot,
                    status=Registration.Status.CHECKED_IN
                    if late
                    else Registration.Status.REGISTERED,
                )
        except IntegrityError:
            raise TournamentError(_("This player is already registered.")) from None
        if late:
            audit(
                event,
                actor,
                AuditEntry.Action.LATE_ENTRY,
                f"Late entry: {name} from round {first_round}",
                registration=reg.pk,
            )
            save_standings(event)
        elif by_organiser:
            audit(event, actor, AuditEntry.Action.REGISTER, f"Added {name}", registration=reg.pk)
        broadcast_on_commit(event.pk, "players")
    return reg


def check_in(actor: User, registration: Registration) -> Registration:
    event = registration.event
    if registration.user_id != getattr(actor, "pk", None):
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
        if reg.user_id != getattr(actor, "pk", None):
            audit(
                event,
                actor,
                AuditEntry.Action.CHECK_IN,
                f"Checked in {reg.display_name}",
                registration=reg.pk,
            )
        broadcast_on_commit(event.pk, "players")
    return reg


def drop(actor: User, registration: Registration, reason: str = "") -> Registration:
    """Drop a player. Their results keep counting for the opponents they played."""
    event = registration.event
    own = registration.user_id is not None and registration.user_id == getattr(actor, "pk", None)
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
        reg.drop_reason = reason.strip()[:200]
        reg.dropped_after_round = _swiss_rounds_played(event) + _playoff_rounds(event)
        reg.save(update_fields=["status", "drop_reason", "dropped_after_round"])
        audit(
            event,
            actor,
            AuditEntry.Action.DROP,
            f"Dropped {reg.display_name}" + (f": {reg.drop_reason}" if reg.drop_reason else ""),
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
            f"Re-added {reg.display_name}",
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
