"""Games decided by the rules engine: an online match records each game as the engine
decided it, and is final once it is decided.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.live import broadcast_on_commit
from tournaments.models import Event, Game, Match
from tournaments.results import ResultError, evaluate, games_needed
from tournaments.services.completing import maybe_complete_round
from tournaments.services.errors import TournamentError
from tournaments.services.matches import check_open, lock_match
from tournaments.services.placements import finalise_pod, pod_placements, pod_scores
from tournaments.services.results import check_outcome, finalise


def record_engine_result(
    match: Match,
    number: int,
    *,
    winner_seat: int | None,
    placements: Sequence[int] | None,
    scores: Sequence[int | None] | None = None,
) -> Match:
    """Record game ``number`` of an online match, whatever kind of match it is.

    The caller gives both readings of the game, by match seat: ``winner_seat`` (the sole
    winner, ``None`` otherwise) and every seat's ``placements`` (and ``scores`` if the game
    keeps any). A two-player event records the winner exactly as ``record_engine_game``;
    an event with pods records the placements: one game decides a pod.
    """
    event = Event.objects.only("players_per_game").get(pk=match.round.event_id)
    if not event.uses_pods:
        return record_engine_game(match, number, winner_seat)
    with transaction.atomic():
        match = lock_match(match)
        placements = list(pod_placements(match, placements))
        score_list = pod_scores(match, scores)
        if match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE:
            stored = list(match.seats.order_by("seat").values_list("placement", flat=True))
            if number == 1 and stored == placements:
                return match  # the same game recorded again: nothing changes
        check_open(match)
        if number != 1:
            raise TournamentError(
                _("A pod plays a single game: there is no game %(number)d.") % {"number": number}
            )
        finalise_pod(match, placements, score_list, Match.Source.ENGINE)
        broadcast_on_commit(match.round.event_id, "pairings")
        maybe_complete_round(match.round)
    return match


def record_engine_game(match: Match, number: int, winner_seat: int | None) -> Match:
    """Record game ``number`` of an online match as the rules engine decided it.

    ``winner_seat`` is the match seat of the winner, ``None`` for a drawn game. The match
    row is locked; recording the same game again changes nothing. Once a player has won
    enough games (or the match has its most games) it is finalised with
    ``Match.Source.ENGINE`` and the round completes itself through the usual flow.
    """
    with transaction.atomic():
        match = lock_match(match)
        games: list[int | None] = list(
            match.games.order_by("number").values_list("winner_seat", flat=True)
        )
        if 1 <= number <= len(games):
            if games[number - 1] != winner_seat:
                raise TournamentError(
                    _("Game %(number)d of this match is already recorded with another result.")
                    % {"number": number}
                )
            return match
        check_open(match)
        if number != len(games) + 1:
            raise TournamentError(
                _("Game %(number)d cannot be recorded before game %(previous)d.")
                % {"number": number, "previous": len(games) + 1}
            )
        games.append(winner_seat)
        seats = list(match.seats.order_by("seat"))
        try:
            outcome = evaluate(games, match.best_of, seats=len(seats), allow_draw=True)
        except ResultError as exc:
            raise TournamentError(str(exc)) from None
        decided = max(outcome.wins, default=0) >= games_needed(match.best_of)
        if decided or len(games) >= 2 * match.best_of:
            check_outcome(match, games)  # an elimination match cannot end drawn
            finalise(match, games, Match.Source.ENGINE)
            broadcast_on_commit(match.round.event_id, "pairings")
            maybe_complete_round(match.round)
            return match
        Game.objects.create(match=match, number=number, winner_seat=winner_seat)
        for seat, wins in zip(seats, outcome.wins, strict=True):
            if seat.game_wins != wins:
                seat.game_wins = wins
                seat.save(update_fields=["game_wins"])
        match.game_draws = outcome.draws
        match.version += 1
        match.save(update_fields=["game_draws", "version"])
        broadcast_on_commit(match.round.event_id, "pairings")
    return match
