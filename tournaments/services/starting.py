"""Starting an event: registration closes, players who did not check in are dropped
(when anyone did), the decklists lock and the first phase begins.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Decklist, Event, Registration
from tournaments.services.common import audit, lock_event, said
from tournaments.services.decklists import draft_not_over
from tournaments.services.errors import TournamentError
from tournaments.services.events import recommended_rounds
from tournaments.services.permissions import User, check_organiser
from tournaments.services.standings import save_standings


def start_event(actor: User, event: Event) -> Event:
    """Close registration. If anyone checked in, those who did not are dropped."""
    check_organiser(actor, event)
    with transaction.atomic():
        event = lock_event(event)
        if event.status != Event.Status.REGISTRATION:
            raise TournamentError(_("The event has already started."))
        not_over = draft_not_over(event)
        if not_over:
            raise TournamentError(not_over)
        regs = list(
            event.registrations.select_for_update().exclude(status=Registration.Status.DROPPED)
        )
        checked_in = sum(r.status == Registration.Status.CHECKED_IN for r in regs)
        if checked_in == 1 and len(regs) > 1:  # not "needs two players" with a room full
            raise TournamentError(
                _(
                    "Only one player has checked in, and players who have not are dropped at "
                    "the start: check in at least one more."
                )
            )
        if checked_in:
            absent = [r for r in regs if r.status != Registration.Status.CHECKED_IN]
            for reg in absent:
                reg.set_status(Registration.Status.DROPPED)
                reg.drop_reason = "did not check in"
                reg.drop_message = gettext_noop("did not check in")
                reg.dropped_after_round = 0
                reg.save(
                    update_fields=["status", "drop_reason", "drop_message", "dropped_after_round"]
                )
            regs = [r for r in regs if r.status == Registration.Status.CHECKED_IN]
        if len(regs) < 2:
            raise TournamentError(_("An event needs at least two players to start."))
        if event.structure == Event.Structure.SWISS and not event.swiss_rounds:
            event.swiss_rounds = recommended_rounds(len(regs))[0]
        if event.top_cut and event.top_cut > len(regs):
            raise TournamentError(
                _("A top %(cut)d needs at least %(cut)d players.") % {"cut": event.top_cut}
            )
        event.set_status(Event.Status.RUNNING)
        event.phase = (
            Event.Phase.SWISS
            if event.structure in (Event.Structure.SWISS, Event.Structure.ROUND_ROBIN)
            else Event.Phase.PLAYOFF
        )
        event.save()
        Registration.objects.filter(pk__in=[r.pk for r in regs]).move_to(
            Registration.Status.CHECKED_IN
        )
        Decklist.objects.filter(registration__event=event).update(locked=True)
        event.decklists_locked = True
        event.save(update_fields=["decklists_locked"])
        audit(
            event,
            actor,
            AuditEntry.Action.EDIT,
            said(gettext_noop("Started with %(count)s players"), count=len(regs)),
        )
        save_standings(event)
        broadcast_on_commit(event.pk, "event")
    return event
