"""Correcting a result of a completed Swiss round: what would change, then the change.

The organiser first sees the consequences (``preview_correction``: the standings before
and after, and the later pairings whose players' points change, flagging those that now
join players of different points), then confirms (``correct_result``: the result entered
through ``results.enter_result``, audited as a correction, the standings rebuilt, the
game's ratings replayed on commit). Later rounds keep the pairings they were played with.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import standings as standings_core
from tournaments.audit_text import Term
from tournaments.models import Match, MatchSeat, Round
from tournaments.results import Outcome
from tournaments.services.errors import TournamentError
from tournaments.services.permissions import User, check_official
from tournaments.services.results import check_outcome, enter_result
from tournaments.services.standings import _playoff_finish, match_records

# The note of a correction's audit line: a term of the catalogue, shown in the reader's language.
CORRECTION_NOTE = Term(gettext_noop("correction of a completed round"))


@dataclass(frozen=True)
class StandingChange:
    player: int
    name: str
    rank_before: int | None
    rank_after: int
    points_before: int | None
    points_after: int

    @property
    def changed(self) -> bool:
        return (self.rank_before, self.points_before) != (self.rank_after, self.points_after)


@dataclass(frozen=True)
class LaterPairing:
    round: int
    table: int
    names: tuple[str, str]
    points_before: tuple[int, int]  # the players' points when the round was paired
    points_after: tuple[int, int]  # their points then, had the corrected result stood

    @property
    def inconsistent(self) -> bool:
        """Players who had equal points would now meet with different points (or the
        gap between them grew): the pairing would likely have been different."""
        gap_before = abs(self.points_before[0] - self.points_before[1])
        gap_after = abs(self.points_after[0] - self.points_after[1])
        return gap_after > gap_before


@dataclass(frozen=True)
class Correction:
    match: Match
    games: list[int | None]
    outcome: Outcome
    current: str  # the score stored now
    standings: list[StandingChange]
    later: list[LaterPairing]

    @property
    def changed_standings(self) -> list[StandingChange]:
        return [row for row in self.standings if row.changed]

    @property
    def inconsistent(self) -> list[LaterPairing]:
        return [p for p in self.later if p.inconsistent]


def check_correctable(match: Match) -> None:
    """Only a played two-player match of a completed Swiss round is corrected here."""
    event = match.round.event
    if match.is_bye:
        raise TournamentError(_("A bye has no result to correct."))
    if event.uses_pods:
        raise TournamentError(_("Pod results are corrected by entering the placements again."))
    if match.round.kind != Round.Kind.SWISS:
        raise TournamentError(
            _("Bracket results cannot change once the next match depends on them.")
        )
    if match.round.status != Round.Status.COMPLETED:
        raise TournamentError(
            _("This round is not complete: enter its results in the round's own list.")
        )


def points_before(records, round_number: int) -> dict[int, int]:
    """Each player's match points from the records of rounds before ``round_number``."""
    points: dict[int, int] = defaultdict(int)
    for r in records:
        if r.round >= round_number:
            continue
        if r.player_b is None:
            points[r.player_a] += 3 if r.kind == "bye" else 0
            continue
        if r.a_wins > r.b_wins:
            points[r.player_a] += 3
        elif r.b_wins > r.a_wins:
            points[r.player_b] += 3
        else:
            points[r.player_a] += 1
            points[r.player_b] += 1
    return points


def _score(match: Match) -> str:
    seats = list(match.seats.all())
    wins = "-".join(str(s.game_wins) for s in seats)
    return wins + (f"-{match.game_draws}" if match.game_draws else "")


def preview_correction(actor: User, match: Match, games: list[int | None]) -> Correction:
    """What correcting ``match`` to ``games`` would change; writes nothing."""
    event = match.round.event
    check_official(actor, event)
    check_correctable(match)
    outcome = check_outcome(match, games)
    _check_changes(match, outcome)
    seats = list(match.seats.select_related("registration").order_by("seat"))
    a, b = seats[0].registration_id, seats[1].registration_id
    number = match.round.number
    players, records, dropped, _codes = match_records(event)
    corrected = []
    for r in records:
        if r.round == number and {r.player_a, r.player_b} == {a, b} and r.kind == "played":
            wins = dict(zip((a, b), outcome.wins, strict=True))
            r = replace(r, a_wins=wins[r.player_a], b_wins=wins[r.player_b], draws=outcome.draws)
        corrected.append(r)
    finish = _playoff_finish(event) or None
    rules = event.tiebreaks
    before = standings_core.compute_standings(
        players, records, ruleset=rules, dropped=dropped, playoff_finish=finish
    )
    after = standings_core.compute_standings(
        players, corrected, ruleset=rules, dropped=dropped, playoff_finish=finish
    )
    names = dict(event.registrations.values_list("pk", "display_name"))
    old = {row.player: row for row in before}
    standings = [
        StandingChange(
            row.player,
            names.get(row.player, "?"),
            old[row.player].rank if row.player in old else None,
            row.rank,
            old[row.player].points if row.player in old else None,
            row.points,
        )
        for row in after
    ]
    later = []
    rounds = event.rounds.filter(kind=Round.Kind.SWISS, number__gt=number).exclude(
        status=Round.Status.DRAFT
    )
    seat_rows = (
        MatchSeat.objects.filter(match__round__in=rounds, match__is_bye=False)
        .order_by("match__round__number", "match__table", "seat")
        .values_list("match_id", "match__round__number", "match__table", "registration_id")
    )
    by_match: dict[int, list] = defaultdict(list)
    for row in seat_rows:
        by_match[row[0]].append(row)
    cache: dict[int, tuple[dict, dict]] = {}
    for rows in by_match.values():
        if len(rows) != 2:
            continue
        rnd, table = rows[0][1], rows[0][2]
        if rnd not in cache:
            cache[rnd] = (points_before(records, rnd), points_before(corrected, rnd))
        old_points, new_points = cache[rnd]
        p, q = rows[0][3], rows[1][3]
        pairing = LaterPairing(
            rnd,
            table,
            (names.get(p, "?"), names.get(q, "?")),
            (old_points[p], old_points[q]),
            (new_points[p], new_points[q]),
        )
        if pairing.points_before != pairing.points_after:
            later.append(pairing)
    return Correction(match, list(games), outcome, _score(match), standings, later)


def correct_result(actor: User, match: Match, games: list[int | None]) -> Match:
    """Correct a result of a completed Swiss round: audited, the standings rebuilt, later
    pairings left as they were played."""
    check_official(actor, match.round.event)
    check_correctable(match)
    _check_changes(match, check_outcome(match, games))
    return enter_result(actor, match, games, note=CORRECTION_NOTE)  # re-rates, on commit


def _check_changes(match: Match, outcome: Outcome) -> None:
    seats = list(match.seats.order_by("seat").values_list("game_wins", flat=True))
    if seats == list(outcome.wins) and match.game_draws == outcome.draws:
        raise TournamentError(
            _("%(score)s is already this match's result.") % {"score": outcome.score}
        )
