"""Completing rounds: once every match of a round is final the round completes (once,
whichever transaction gets there first); then the top cut is made or the event
finishes, and a self-running event queues its next round.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments import bracket as bracket_core
from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, Match, Round
from tournaments.services.brackets import bracket_state, start_bracket
from tournaments.services.common import audit, said
from tournaments.services.players import active_player_ids
from tournaments.services.ratings import rate_round_on_commit, seeds_for
from tournaments.services.standings import compute_rows, save_standings, standings_changed


def maybe_complete_round(rnd: Round) -> bool:
    """Complete the round once every match is final; then the event moves on."""
    rate_round_on_commit(rnd.pk)
    if rnd.matches.exclude(status=Match.Status.FINAL).exists():
        standings_changed(rnd.event)
        return False
    updated = Round.objects.filter(pk=rnd.pk).move_to(
        Round.Status.COMPLETED, completed_at=timezone.now()
    )
    if not updated:
        return False
    event = Event.objects.select_for_update().get(pk=rnd.event_id)
    # Written once: only the transaction whose UPDATE completed the round gets here.
    audit(
        event,
        None,
        AuditEntry.Action.COMPLETE,
        said(gettext_noop("%(round)s complete: every result is in"), round=rnd),
        round=rnd.number,
    )
    _after_round_completed(event, rnd)
    broadcast_on_commit(event.pk, "round")
    return True


def _after_round_completed(event: Event, rnd: Round) -> None:
    if rnd.kind == Round.Kind.SWISS and rnd.number >= (event.swiss_rounds or 0) and event.uses_pods:
        active = [row for row in compute_rows(event) if not row.dropped]
        if event.top_cut and len(active) >= 2:
            event.phase = Event.Phase.PLAYOFF
            event.save(update_fields=["phase", "updated_at"])
            audit(
                event,
                None,
                AuditEntry.Action.TOP_CUT,
                said(
                    gettext_noop("Top %(n)s cut made: one final pod"),
                    n=min(event.top_cut, len(active)),
                ),
            )
        else:
            _finish(event)
    elif rnd.kind == Round.Kind.ELIMINATION and event.uses_pods:
        _finish(event)  # the final pod was the last game
    elif rnd.kind == Round.Kind.SWISS and rnd.number >= (event.swiss_rounds or 0):
        if event.top_cut:
            rows = compute_rows(event)
            cut = [row.player for row in rows if not row.dropped][: event.top_cut]
            cut = seeds_for(event, cut)  # by rating within the cut, if the event says so
            if len(cut) < 2:
                _finish(event)
            else:
                start_bracket(event, cut)
                audit(
                    event,
                    None,
                    AuditEntry.Action.TOP_CUT,
                    said(gettext_noop("Top %(n)s cut made"), n=len(cut)),
                )
        else:
            _finish(event)
    elif rnd.kind == Round.Kind.ROUND_ROBIN:
        players = active_player_ids(event, 1)
        if rnd.number >= len(bracket_core.round_robin(players)):
            _finish(event)
    elif rnd.kind == Round.Kind.ELIMINATION and bracket_state(event).finished:
        _finish(event)
    save_standings(event)
    broadcast_on_commit(event.pk, "standings")
    if event.auto_advance and event.status == Event.Status.RUNNING:
        from tournaments.tasks import advance_event

        event_id = event.pk
        transaction.on_commit(lambda: advance_event.delay(event_id))


def _finish(event: Event) -> None:
    event.set_status(Event.Status.FINISHED)
    event.save(update_fields=["status", "updated_at"])
    audit(event, None, AuditEntry.Action.FINISH, said(gettext_noop("Event finished")))
    broadcast_on_commit(event.pk, "event")
