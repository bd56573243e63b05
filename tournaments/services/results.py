"""Two-player results: reports that confirm or dispute each other, results entered or
overridden by an official, and time called in a Swiss round.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments.live import broadcast_on_commit
from tournaments.models import AuditEntry, Game, Match, ResultReport, Round
from tournaments.results import ResultError, evaluate, games_needed
from tournaments.services.brackets import split_allowed
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
from tournaments.services.placements import finalise_pod, report_placements
from tournaments.services.ratings import rerate_on_commit
from tournaments.services.standings import save_standings


def check_outcome(match: Match, games: list[int | None]):
    """The outcome of ``games`` for this match (``TournamentError`` if it cannot be one).

    An elimination match must have a winner, except a final the event lets the players
    split (``brackets.split_allowed``)."""
    seats = match.seats.count()
    try:
        return evaluate(games, match.best_of, seats=seats, allow_draw=split_allowed(match))
    except ResultError as exc:
        raise TournamentError(str(exc)) from None


def _check_games_match(match: Match) -> None:
    if match.round.event.uses_pods:
        raise TournamentError(
            _("This is a pod of %(n)d players: report each player's placement, not game wins.")
            % {"n": match.seats.count()}
        )


def report_result(user: User, match: Match, games: list[int | None]) -> Match:
    """A player reports; the opponent's identical report confirms, a different one disputes."""
    with transaction.atomic():
        match = lock_match(match)
        seat = seat_of(match, user)
        if seat is None:
            raise NotAllowed(_("Only the players of this match can report its result."))
        check_open(match)
        _check_games_match(match)
        check_outcome(match, games)
        check_recorded_games(match, games)
        ResultReport.objects.update_or_create(
            match=match, registration=seat.registration, defaults={"games": list(games)}
        )
        settle_reports(
            match,
            [r.games for r in match.reports.all()],
            lambda: finalise(match, list(games), Match.Source.CONFIRMED),
        )
    return match


def confirm_result(user: User, match: Match) -> Match:
    """Agree with the opponent's report."""
    seat = seat_of(match, user)
    reports = match.reports.all()
    if seat is not None:  # a team's report is its own, whichever member made it
        reports = reports.exclude(registration_id=seat.registration_id)
    other = reports.exclude(registration__user=user).order_by("-created_at", "-pk").first()
    if other is None:
        raise TournamentError(_("There is no report from your opponent to confirm."))
    if other.placements is not None:
        return report_placements(user, match, other.placements)
    return report_result(user, match, other.games)


def check_recorded_games(match: Match, games: list[int | None]) -> None:
    """A match at a table whose first games are already recorded (a judge's game loss,
    docs/decisions/0060) is reported whole, beginning with them."""
    if match.round.event.play_online:
        return  # the engine's games: its own flow
    recorded = list(match.games.order_by("number").values_list("winner_seat", flat=True))
    if not recorded or list(games[: len(recorded)]) == recorded:
        return
    names = {s.seat: s.registration.display_name for s in match.seats.all()}
    listed = ", ".join(
        _("game %(n)d: %(who)s")
        % {"n": n, "who": names.get(g, _("draw")) if g is not None else _("draw")}
        for n, g in enumerate(recorded, start=1)
    )
    raise TournamentError(
        ngettext(
            "A game of this match is already recorded by a judge (%(games)s): report the "
            "whole match, beginning with it.",
            "Games of this match are already recorded by a judge (%(games)s): report the "
            "whole match, beginning with them.",
            len(recorded),
        )
        % {"games": listed}
    )


# The audit line of a result an official enters: (it replaces a final one, with a note).
_OVERRIDE_LINES = {
    (False, False): gettext_noop("Table %(table)s of %(round)s: %(score)s"),
    (True, False): gettext_noop("Table %(table)s of %(round)s: %(score)s (was %(before)s)"),
    (False, True): gettext_noop("Table %(table)s of %(round)s: %(score)s — %(note)s"),
    (True, True): gettext_noop(
        "Table %(table)s of %(round)s: %(score)s (was %(before)s) — %(note)s"
    ),
}


def enter_result(actor: User, match: Match, games: list[int | None], note: str = "") -> Match:
    """An organiser or judge enters or overrides a result (audited, with ``note`` if any:
    a no-show, a correction)."""
    event = match.round.event
    check_official(actor, event)
    with transaction.atomic():
        match = lock_match(match)
        if match.is_bye:
            raise TournamentError(_("A bye has no result to enter."))
        if match.round.status == Round.Status.DRAFT:
            raise TournamentError(_("Publish the round before entering results."))
        if match.round.status == Round.Status.COMPLETED and match.round.kind != Round.Kind.SWISS:
            raise TournamentError(
                _("Bracket results cannot change once the next match depends on them.")
            )
        _check_games_match(match)
        outcome = check_outcome(match, games)
        before = _score_text(match)
        was_final = match.is_final
        finalise(match, list(games), Match.Source.ORGANISER)
        audit(
            event,
            actor,
            AuditEntry.Action.RESULT_OVERRIDE,
            said(
                _OVERRIDE_LINES[was_final, bool(note)],
                table=match.table,
                round=match.round,
                score=outcome.score,
                before=before if was_final else "",
                note=note,
            ),
            match=match.pk,
            games=list(games),
            previous=before if was_final else None,
            **({"note": note} if note else {}),
        )
        if was_final:
            rerate_on_commit(match)  # a rated result changed: the game's ratings replayed
        if match.round.status == Round.Status.COMPLETED:
            save_standings(event)
            broadcast_on_commit(event.pk, "standings")
            broadcast_on_commit(event.pk, "pairings")
        else:
            maybe_complete_round(match.round)
    return match


def _score_text(match: Match) -> str:
    wins = [s.game_wins for s in match.seats.all()]
    return "-".join(map(str, wins)) + (f"-{match.game_draws}" if match.game_draws else "")


def finalise(match: Match, games: list[int | None], source: str) -> None:
    """Store a two-player match's games and make it final (a bye: a 2-0 win)."""
    seats = list(match.seats.select_related("registration").all())
    if source == Match.Source.BYE:
        winner = seats[0].registration_id
        wins = [2]
        draws = 0
    else:
        outcome = evaluate(games, match.best_of, seats=len(seats), allow_draw=True)
        wins = list(outcome.wins)
        draws = outcome.draws
        winner = seats[outcome.winner].registration_id if outcome.winner is not None else None
        Game.objects.filter(match=match).delete()
        Game.objects.bulk_create(
            [Game(match=match, number=n, winner_seat=g) for n, g in enumerate(games, start=1)]
        )
    for seat, w in zip(seats, wins, strict=False):
        if seat.game_wins != w:
            seat.game_wins = w
            seat.save(update_fields=["game_wins"])
    match.game_draws = draws
    match.winner_id = winner
    match.set_status(Match.Status.FINAL)
    match.result_source = source
    match.finished_at = timezone.now()
    match.version += 1
    match.save(
        update_fields=["game_draws", "winner", "status", "result_source", "finished_at", "version"]
    )
    end_online_games_on_commit(match, source)


def _games_at_time(match: Match, online: bool) -> list[int | None]:
    """The games a match called at time is settled with (before the drawn game in progress).

    Online, the games the engine decided are facts: they stand whatever anyone reported.
    Otherwise (and online when no game was decided by the engine) the first report
    settles it; no report, the games recorded so far (a judge's game loss), if any.
    """
    recorded = list(match.games.order_by("number").values_list("winner_seat", flat=True))
    if online and recorded:
        return recorded
    reports = list(match.reports.all())
    return list(reports[0].games) if reports else recorded


def call_time(actor: User, rnd: Round) -> int:
    """End a Swiss round's clock: every unfinished game becomes a draw.

    A match with one report is settled by it, plus a drawn game if it was still
    undecided; a match with no report is a draw (one drawn game). In an online event
    the games the engine decided stand, and the game in progress is a drawn game (the
    round's time is over; no extra turns are played online); its session then ends as a
    drawn game and its clocks stop (``play.services.ending.end_match_sessions``). Disputed
    matches stay with the organiser. A pod (more than two players per game) is
    settled only by its players' reports when they agree; a pod without a report
    stays with the organiser, since a drawn pod would hand everyone a first place.
    Returns the number of matches settled.
    """
    event = rnd.event
    check_official(actor, event)
    if rnd.kind == Round.Kind.ELIMINATION:
        raise TournamentError(_("Elimination matches cannot end in a draw: play them out."))
    settled = 0
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.PUBLISHED:
            raise TournamentError(_("This round is not being played."))
        for match in (
            rnd.matches.select_for_update()
            .exclude(status__in=[Match.Status.FINAL, Match.Status.DISPUTED])
            .order_by("pk")
        ):
            reports = list(match.reports.all())
            if event.uses_pods:
                if reports and all(r.placements == reports[0].placements for r in reports):
                    finalise_pod(match, reports[0].placements, None, Match.Source.TIME)
                    settled += 1
                continue
            games = _games_at_time(match, event.play_online)
            outcome = evaluate(games, match.best_of, seats=match.seats.count(), allow_draw=True)
            if max(outcome.wins, default=0) < games_needed(match.best_of):
                games.append(None)
            finalise(match, games, Match.Source.TIME)
            settled += 1
        rnd.ends_at = timezone.now()
        rnd.save(update_fields=["ends_at"])
        audit(
            event,
            actor,
            AuditEntry.Action.TIME,
            said(
                gettext_noop("Time called in %(round)s: %(settled)s match(es) settled"),
                round=rnd,
                settled=settled,
            ),
            round=rnd.number,
        )
        broadcast_on_commit(event.pk, "pairings")
        maybe_complete_round(rnd)
    return settled
