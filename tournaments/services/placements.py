"""Pod results (3-4 players per game): every seat's placement, reported by the players or
entered by an official. A pod is final once every player has reported the same.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Game, Match, Penalty, PenaltyType, ResultReport, Round
from tournaments.results import ResultError, check_placements, placements_with_last
from tournaments.services.common import audit, said
from tournaments.services.completing import maybe_complete_round
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.matches import (
    check_open,
    end_online_games_on_commit,
    lock_match,
    seat_of,
    settle_reports,
)
from tournaments.services.permissions import User, check_official
from tournaments.services.ratings import rerate_on_commit
from tournaments.services.standings import save_standings


def pod_placements(match: Match, placements) -> tuple[int, ...]:
    """Check a pod result against the match (``TournamentError`` with the reason)."""
    if not match.round.event.uses_pods:
        raise TournamentError(
            _("This is a two-player match: report who won each game, not placements.")
        )
    try:
        return check_placements(placements, match.seats.count())
    except ResultError as exc:
        raise TournamentError(str(exc)) from None


def pod_scores(match: Match, scores) -> list[int | None]:
    seats = match.seats.count()
    if scores is None:
        return [None] * seats
    if not isinstance(scores, list | tuple) or len(scores) != seats:
        raise TournamentError(_("Give one score per seat (%(n)d), or none at all.") % {"n": seats})
    for value in scores:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TournamentError(
                _("A score is a whole number (got %(value)r).") % {"value": value}
            )
    return list(scores)


def placement_text(placements: Sequence[int | None]) -> str:
    return "-".join("?" if p is None else str(p) for p in placements)


def report_placements(user: User, match: Match, placements: Sequence[int]) -> Match:
    """A player of a pod reports every seat's placement (seat order; 1 = first).

    The pod's result is final once every player has reported the same placements;
    different reports mark the match disputed for an official to settle.
    """
    with transaction.atomic():
        match = lock_match(match)
        seat = seat_of(match, user)
        if seat is None:
            raise NotAllowed(_("Only the players of this match can report its result."))
        check_open(match)
        placements = list(pod_placements(match, placements))
        ResultReport.objects.update_or_create(
            match=match,
            registration=seat.registration,
            defaults={"games": [], "placements": placements},
        )
        settle_reports(
            match,
            [r.placements for r in match.reports.all()],
            lambda: finalise_pod(match, placements, None, Match.Source.CONFIRMED),
        )
    return match


def enter_placements(
    actor: User, match: Match, placements: Sequence[int], scores: Sequence[int | None] | None = None
) -> Match:
    """An organiser or judge enters or overrides a pod's placements (audited)."""
    event = match.round.event
    check_official(actor, event)
    with transaction.atomic():
        match = lock_match(match)
        if match.is_bye:
            raise TournamentError(_("A bye has no result to enter."))
        if match.round.status == Round.Status.DRAFT:
            raise TournamentError(_("Publish the round before entering results."))
        placements = list(pod_placements(match, placements))
        score_list = pod_scores(match, scores)
        was_final = match.is_final
        before = placement_text(match.seats.order_by("seat").values_list("placement", flat=True))
        placements = finalise_pod(match, placements, score_list, Match.Source.ORGANISER)
        audit(
            event,
            actor,
            AuditEntry.Action.RESULT_OVERRIDE,
            said(
                gettext_noop(
                    "Table %(table)s of %(round)s: placements %(placements)s (was %(before)s)"
                )
                if was_final
                else gettext_noop("Table %(table)s of %(round)s: placements %(placements)s"),
                table=match.table,
                round=match.round,
                placements=placement_text(placements),
                before=before,
            ),
            match=match.pk,
            placements=placements,
            previous=before if was_final else None,
        )
        if was_final:
            rerate_on_commit(match)  # a rated result changed: the game's ratings replayed
        if match.round.status == Round.Status.COMPLETED:
            save_standings(event)
            broadcast_on_commit(event.pk, "standings")
        else:
            maybe_complete_round(match.round)
    return match


def penalised_seats(match: Match) -> set[int]:
    """The seats of a pod that a game or match loss issued for it puts last (0060), or a
    disqualification issued for it (0067)."""
    players = set(
        Penalty.objects.filter(
            match=match,
            status=Penalty.Status.ISSUED,
            effect__in=[
                PenaltyType.Effect.GAME_LOSS,
                PenaltyType.Effect.MATCH_LOSS,
                PenaltyType.Effect.DISQUALIFICATION,
            ],
        ).values_list("registration_id", flat=True)
    )
    if not players:
        return set()
    return set(match.seats.filter(registration_id__in=players).values_list("seat", flat=True))


def finalise_pod(
    match: Match, placements: Sequence[int], scores: Sequence[int | None] | None, source: str
) -> list[int]:
    """Store a pod's placements; the match winner is the sole first place (none on a shared first).

    A player given a game or match loss in this pod places last whatever was reported,
    recorded or entered (docs/decisions/0060). Returns the placements stored."""
    last = penalised_seats(match)
    if last:
        placements = placements_with_last(placements, last)
    placements = list(placements)
    seats = list(match.seats.order_by("seat"))
    scores = list(scores) if scores is not None else [None] * len(seats)
    firsts = [s for s, p in zip(seats, placements, strict=True) if p == 1]
    winner = firsts[0] if len(firsts) == 1 else None
    for seat, place, score in zip(seats, placements, scores, strict=True):
        wins = 1 if seat is winner else 0
        if (seat.placement, seat.score, seat.game_wins) != (place, score, wins):
            seat.placement, seat.score, seat.game_wins = place, score, wins
            seat.save(update_fields=["placement", "score", "game_wins"])
    Game.objects.filter(match=match).delete()
    Game.objects.create(match=match, number=1, winner_seat=winner.seat if winner else None)
    match.game_draws = 0
    match.winner_id = winner.registration_id if winner else None
    match.set_status(Match.Status.FINAL)
    match.result_source = source
    match.finished_at = timezone.now()
    match.version += 1
    match.save(
        update_fields=["game_draws", "winner", "status", "result_source", "finished_at", "version"]
    )
    end_online_games_on_commit(match, source)
    return placements
