"""The match row while a result is recorded, shared by two-player results, pod placements
and the engine: locking it, whose seat, whether it is still open, settling the players'
reports, and ending its online games after commit.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import announce
from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Event, Match, MatchSeat, Round
from tournaments.services.common import audit, said
from tournaments.services.completing import maybe_complete_round
from tournaments.services.errors import TournamentError
from tournaments.services.permissions import User, plays_for


def seat_of(match: Match, user: User) -> MatchSeat | None:
    """The seat ``user`` holds in the match (their own, or their team's), or None."""
    for seat in match.seats.all():
        if seat.registration.user_id is not None and seat.registration.user_id == getattr(
            user, "pk", None
        ):
            return seat
    if not match.round.event.is_team_event:
        return None
    for seat in match.seats.all():
        if plays_for(user, seat.registration):
            return seat
    return None


def lock_match(match: Match) -> Match:
    """Lock the match row for the rest of the transaction and return it fresh."""
    return (
        Match.objects.select_for_update().select_related("round", "round__event").get(pk=match.pk)
    )


def check_open(match: Match) -> None:
    """Refuse a result for a bye, a final match or a round not being played."""
    if match.is_bye:
        raise TournamentError(_("A bye has no result to report."))
    if match.status == Match.Status.FINAL:
        raise TournamentError(_("This match already has a final result."))
    if match.round.status != Round.Status.PUBLISHED:
        raise TournamentError(_("This round is not being played."))


def settle_reports(match: Match, reported: list, finalise: Callable[[], None]) -> None:
    """After a player's report: every seat reported the same, the match is final; two
    reports differ, it is disputed; else it waits for the other reports."""
    if len(reported) == match.seats.count() and all(r == reported[0] for r in reported):
        finalise()
        maybe_complete_round(match.round)
    elif any(r != reported[0] for r in reported):
        match.set_status(Match.Status.DISPUTED)
        match.version += 1
        match.save(update_fields=["status", "version"])
        audit(
            match.round.event,
            None,
            AuditEntry.Action.DISPUTE,
            said(
                gettext_noop("Players disagree on table %(table)s of %(round)s"),
                table=match.table,
                round=match.round,
            ),
            match=match.pk,
        )
    else:
        match.set_status(Match.Status.REPORTED)
        match.version += 1
        match.save(update_fields=["status", "version"])
        announce.on_commit(announce.result_reported, match_id=match.pk)
    broadcast_on_commit(match.round.event_id, "pairings")


def end_online_games_on_commit(match: Match, source: str) -> None:
    """A match of an online event settled without the engine (time, an official, agreeing
    reports): after commit its games still being played end (the play app, on
    ``announce.match_settled``; the sweep does it again if this is lost)."""
    if source in (Match.Source.ENGINE, Match.Source.BYE):
        return
    if not Event.objects.filter(pk=match.round.event_id, play_online=True).exists():
        return
    announce.on_commit(announce.match_settled, match_id=match.pk, source=source)
