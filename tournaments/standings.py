"""Swiss standings and tiebreakers, as pure functions.

This module turns a list of match results into ranked standings. It imports
nothing from Django (standard library only) so it can be tested, benchmarked
and reused without a database; the tournament views feed it plain
:class:`MatchRecord` values and render the :class:`StandingRow` values it
returns.

Vocabulary
==========

Match points
    3 for a won match, 1 for a drawn match, 0 for a lost match, in every
    ruleset. A match is won by the player with more *game* wins; equal game
    wins make a drawn match. So ``1-1-0``, ``1-1-1`` and ``0-0-1`` are drawn
    matches, an intentional draw (ID) is recorded ``0-0-3``, and a ``0-0-0``
    result (nothing reported) is a drawn match worth 1 point each in which no
    game was played.

Byes
    A :class:`MatchRecord` with ``kind="bye"`` and ``player_b=None``. A bye is
    a won match (3 points) and counts as a 2-0 win in games, whatever game
    numbers the record carries. A bye is never an opponent: it adds nothing to
    anybody's opponent list, so it is left out of the averages of OMW%, OGW%
    (and of OWP/OOWP in the Pokémon ruleset).

A player with no opponent yet
    A player whose only rounds were byes (a first-round bye) or missed rounds has
    nobody to average: the opponents' figures are undefined. The sources only
    say to leave byes out (MTR Appendix C: OMW% is the average "of each
    opponent that player faced (ignoring those rounds for which the player
    received a bye)"; melee.gg publishes no such case in the data; Play!
    Pokémon leaves byes out of resistance). An average of nothing is not a
    0 % record, so such a player's OMW%, OGW% (and OWP, OOWP) take the
    ruleset's floor: 1/3 in the MTR family, 25 % in Pokémon, the least any
    opponent can count for, and so the least any player with an opponent can
    have. After round 1 that is exactly the OMW% and OGW% of every player who
    won (their opponent is 0-1, raised to the floor), so a first-round bye
    ties the winners on those keys and is ordered among them by GW%, where the
    bye counts 2-0 (``mtr``, ``melee``, ``melee2024``). In ``pokemon`` the bye
    ties the winners on OWP (all at 25 %) and its OOWP is the floor too: after
    one round a winner's OOWP is their own win percentage reflected by their
    opponent (100 %), and nobody reflects the bye player's, so Play! Pokémon's
    order puts them after the round's winners (above every player with fewer
    points), as the rules leave it; from round 2 on they have opponents and
    the bye is ignored as the rules say. See decision 0047.

Missed rounds of a late entrant
    ``kind="loss"`` with ``player_b=None``: a round the player did not play
    because they entered late. It is a lost match (0 points) that counts as a
    match played and as a 0-2 in games (two games played, no game points), and
    it gives no opponent. (The Magic Tournament Rules leave the game count of
    such a loss open; 0-2 is the usual recording of a match loss.)

Dropped players
    A player who leaves the event simply has no further matches: their
    percentages are computed over the matches they did play (nobody is charged
    losses for rounds after a drop), and they keep counting, with their
    figures as they stand, as opponents of the people they played. Only the
    Pokémon ruleset treats dropped players differently (see below); elsewhere
    ``dropped`` just sets :attr:`StandingRow.dropped`.

The percentages (MTR family: ``mtr``, ``melee``, ``melee2024``)
==============================================================

* **MW%** (match-win percentage) = match points / (3 x matches counted),
  where matches counted include byes and late-entry losses.
* **GW%** (game-win percentage) = game points / (3 x games played), a game
  win being worth 3 game points and a drawn game 1 (0 in ``melee2024``).
* **OMW%** = the average of the opponents' MW%, **OGW%** = the average of the
  opponents' GW%, each opponent's value first raised to the floor of 1/3.

All arithmetic is exact (:class:`fractions.Fraction`); the floats in
:class:`StandingRow` are the exact values converted once at the end, and the
exact values stay available in :attr:`StandingRow.exact`. Ordering therefore
never depends on floating-point summation order, and two players whose
tiebreakers are mathematically equal really compare equal.

The floor: 1/3, not 0.33
------------------------
The Magic Tournament Rules (Appendix C) write the floor as "0.33". This
module uses exactly 1/3 everywhere. The two can only be told apart in the
third decimal of an average, and 1/3 is what melee.gg uses: with 0.33 its
published OMW/OGW figures are missed by up to 3.3e-3, with 1/3 they are
reproduced to the eighth decimal (see ``/work/shared/data/standings``).
The MTR worked example "a player who went 1-3-0 and dropped has an MW% of
0.33" holds: 3/12 = 0.25 is raised to 1/3, which displays as 0.33.

Rulesets
========

``mtr`` - Magic Tournament Rules, Appendix C
    Order: points, OMW%, GW%, OGW%. The player's own MW% and GW% are floored
    at 1/3 (the MTR applies the floor to "a player's" percentage, which is
    also what their opponents average). Opponents are counted once per round
    played (a rematch counts twice). Figures are over the Swiss rounds only;
    playoff matches only decide the finish of the top cut, which is ranked
    first by finish (winner, finalist, semifinal losers, ...), each finish
    group by its Swiss figures. Example from the MTR: a 5-2-1 record is
    16 points out of 24, MW% 0.667.

``pokemon`` - Play! Pokémon
    Order: points, late-entry penalty, OWP (opponents' win percentage), OOWP
    (opponents' opponents' win percentage). A player's *win percentage* is
    (match wins + 0.5 x ties) / rounds played, with byes removed from both the
    wins and the rounds (a 4-3 player with one bye counts as 3-3). Late-entry
    losses are rounds played and lost. In OWP each opponent's win percentage
    is raised to at least 25 %, and capped at 75 % if that opponent dropped
    (``dropped``). OWP is the average over the opponents met (byes excluded);
    OOWP is the average of the opponents' OWP. Players with a late-entry loss
    rank below every player with the same points who entered on time (the
    "late penalty" tiebreaker). Play! Pokémon's last resort, head-to-head and
    then a random draw, is replaced by the deterministic player order
    described below. Tie counting as a half win follows the published
    explanations of Play! Pokémon resistance (the Tournament Operation
    Procedures only speak of "won rounds"; no data was available to check
    against). :attr:`StandingRow.mw` carries the player's own, unclamped win
    percentage; ``gw`` and ``ogw`` are informational (MTR-style GW%, the
    unfloored average of the opponents' GW%) and take no part in the order.
    Figures are Swiss only; the top cut is ranked by finish, as in ``mtr``.

``melee`` - melee.gg, as published in 2025
    Reproduces the published standings of melee.gg events exactly (every
    rank, points, W/L/D and OMW/GW/OGW to the 8 published decimals on the
    five 2025 events of ``/work/shared/data/standings``; ``sooner_state_18``,
    whose final was split 0-0-3, also through the API, see
    ``tests/tournaments/test_real_events_api.py``). Differences from ``mtr``:

    * the player's own MW% and GW% are **not** floored (melee publishes GWP
      values such as 0.0 and 0.142857); only opponents' values are raised to
      1/3 when averaged;
    * each distinct opponent is counted once in OMW%/OGW% (this matters for a
      top-cut rematch of a Swiss opponent);
    * top cut: a player who took part in the playoffs gets figures over
      Swiss + playoff matches (points, W/L/D, GW%), and their OMW%/OGW% use
      their opponents' figures over *all* those opponents' matches too.
      Everybody else keeps the figures frozen at the end of the Swiss: when
      they average an opponent who went on to the top cut, they use that
      opponent's Swiss-only MW%/GW%;
    * ranking: top-cut players first, by finish, each finish group by points,
      OMW%, GW%, OGW%; then everybody else by points, OMW%, GW%, OGW%.

``melee2024`` - melee.gg, as published in January 2024
    6 published decimals; standings of the Swiss phase only (playoff matches
    are ignored and the top cut is ranked by its Swiss figures like everybody
    else); the player's own GW% is floored at 1/3 (published 0.333333); and
    **drawn games earn no game points** while still counting as games played,
    so an ID (0-0-3) lowers GW%. MW% and OMW% are as in ``melee``.

Top cut input
=============
``compute_standings(..., playoff_finish=None)`` derives each playoff
player's finish from the ``phase="playoff"`` matches (see
:func:`playoff_finishes`): the loser of a round with a bracket of *n* seats
finishes n/2 + 1 (5 for quarterfinal losers, 3 for semifinal losers, 2 for
the losing finalist), the winner of the last round finishes 1, and both
players of a drawn final (a split) finish 1. When the results cannot tell
(a missing match, a third-place match), pass ``playoff_finish`` explicitly:
a mapping player -> finish that must cover every player of a playoff match.

Ties
====
Players equal on every key of their ruleset are ordered by their position in
the ``players`` sequence given to :func:`compute_standings` (typically
registration order or seed); ranks are still distinct, 1..n.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

__all__ = [
    "RULESETS",
    "MatchRecord",
    "PlayerId",
    "Ruleset",
    "StandingRow",
    "StandingsError",
    "compute_standings",
    "playoff_finishes",
    "rounded",
]

PlayerId = Hashable

KINDS = ("played", "bye", "loss")
PHASES = ("swiss", "playoff")

ONE_THIRD = Fraction(1, 3)
ZERO = Fraction(0)


class StandingsError(ValueError):
    """The input cannot be turned into standings (the message says why)."""


@dataclass(frozen=True)
class MatchRecord:
    """One match result, read from ``player_a``'s side.

    ``player_b`` is ``None`` for a bye (``kind="bye"``, conventionally
    ``2-0-0``) and for a round missed by a late entrant (``kind="loss"``).
    For byes and missed rounds the game numbers are not used: a bye always
    counts as 2-0 and a missed round as 0-2.
    """

    round: int
    player_a: PlayerId
    player_b: PlayerId | None
    a_wins: int
    b_wins: int
    draws: int
    kind: str = "played"
    phase: str = "swiss"


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; percentages are floats in [0, 1].

    ``exact`` holds the same percentages as :class:`~fractions.Fraction`
    values (keys ``mw``, ``gw``, ``omw``, ``ogw`` and, for Pokémon, ``oomw``).
    """

    rank: int
    player: PlayerId
    points: int
    wins: int
    losses: int
    draws: int
    matches: int
    byes: int
    mw: float
    gw: float
    omw: float
    ogw: float
    oomw: float | None = None
    dropped: bool = False
    playoff_finish: int | None = None
    exact: Mapping[str, Fraction] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Ruleset:
    """A tiebreak variant: what is shown, and how it is computed."""

    key: str
    label: str
    columns: tuple[str, ...]
    """Ordered sort keys after the finish group, named as StandingRow fields."""
    column_labels: Mapping[str, str]
    decimals: int
    """Decimals the figures are published with."""
    method: str
    """"mtr" (MW/GW/OMW/OGW family) or "pokemon" (OWP/OOWP)."""
    own_floor: Fraction | None = None
    """Floor applied to the player's own MW% and GW% (None: unfloored)."""
    opponent_floor: Fraction = ONE_THIRD
    drawn_game_points: int = 1
    distinct_opponents: bool = False
    playoffs_count_for_top_cut: bool = False
    rank_top_cut_by_finish: bool = True
    late_entry_penalty: bool = False
    dropped_cap: Fraction | None = None

    def label_for(self, column: str) -> str:
        return self.column_labels.get(column, column)


_MTR_LABELS = {"points": "Points", "omw": "OMW%", "gw": "GW%", "ogw": "OGW%", "mw": "MW%"}

RULESETS: dict[str, Ruleset] = {
    "mtr": Ruleset(
        key="mtr",
        label="Magic Tournament Rules (points, OMW%, GW%, OGW%)",
        columns=("points", "omw", "gw", "ogw"),
        column_labels=_MTR_LABELS,
        decimals=4,
        method="mtr",
        own_floor=ONE_THIRD,
    ),
    "pokemon": Ruleset(
        key="pokemon",
        label="Play! Pokémon (points, OWP, OOWP)",
        columns=("points", "omw", "oomw"),
        column_labels={"points": "Points", "omw": "OWP", "oomw": "OOWP", "mw": "Win %"},
        decimals=4,
        method="pokemon",
        opponent_floor=Fraction(1, 4),
        late_entry_penalty=True,
        dropped_cap=Fraction(3, 4),
    ),
    "melee": Ruleset(
        key="melee",
        label="melee.gg (2025): points, OMW%, GW%, OGW%, top cut by finish",
        columns=("points", "omw", "gw", "ogw"),
        column_labels=_MTR_LABELS,
        decimals=8,
        method="mtr",
        distinct_opponents=True,
        playoffs_count_for_top_cut=True,
    ),
    "melee2024": Ruleset(
        key="melee2024",
        label="melee.gg (January 2024): Swiss standings, drawn games worth 0",
        columns=("points", "omw", "gw", "ogw"),
        column_labels=_MTR_LABELS,
        decimals=6,
        method="mtr",
        own_floor=ONE_THIRD,
        drawn_game_points=0,
        distinct_opponents=True,
        rank_top_cut_by_finish=False,
    ),
}


def rounded(value: float | Fraction, places: int) -> float:
    """Round to ``places`` decimals, halves away from zero.

    A :class:`~fractions.Fraction` (see :attr:`StandingRow.exact`) is rounded
    exactly; a float is rounded on its exact binary value.
    """
    if isinstance(value, Fraction):
        scaled = value * 10**places
        sign = -1 if scaled < 0 else 1
        whole = (abs(scaled.numerator) * 2 + scaled.denominator) // (2 * scaled.denominator)
        return float(Fraction(sign * whole, 10**places))
    quantum = Decimal(1).scaleb(-places)
    return float(Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP))


# --------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------


def _check_int(value: object, what: str, match: MatchRecord) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StandingsError(f"{what} must be an int, got {value!r} in {match!r}")
    if value < 0:
        raise StandingsError(f"{what} must not be negative, got {value} in {match!r}")


def _validate(
    players: Sequence[PlayerId], matches: list[MatchRecord], dropped: Collection[PlayerId]
) -> None:
    seen: set[PlayerId] = set()
    for player in players:
        if player is None:
            raise StandingsError("None is not a valid player id")
        if player in seen:
            raise StandingsError(f"player {player!r} is listed twice in players")
        seen.add(player)
    for player in dropped:
        if player not in seen:
            raise StandingsError(f"dropped player {player!r} is not in players")

    busy: set[tuple[str, int, PlayerId]] = set()
    for match in matches:
        if not isinstance(match, MatchRecord):
            raise StandingsError(f"expected a MatchRecord, got {match!r}")
        if match.kind not in KINDS:
            raise StandingsError(f"unknown match kind {match.kind!r} (expected one of {KINDS})")
        if match.phase not in PHASES:
            raise StandingsError(f"unknown match phase {match.phase!r} (expected one of {PHASES})")
        _check_int(match.round, "round", match)
        for what in ("a_wins", "b_wins", "draws"):
            _check_int(getattr(match, what), what, match)
        if match.player_a not in seen:
            raise StandingsError(f"unknown player {match.player_a!r} in round {match.round}")
        if match.kind == "played":
            if match.player_b is None:
                raise StandingsError(
                    f"played match of {match.player_a!r} in round {match.round} has no "
                    'opponent (use kind="bye" or kind="loss")'
                )
            if match.player_b not in seen:
                raise StandingsError(f"unknown player {match.player_b!r} in round {match.round}")
            if match.player_b == match.player_a:
                raise StandingsError(
                    f"player {match.player_a!r} is paired against themselves in round {match.round}"
                )
        elif match.player_b is not None:
            raise StandingsError(
                f"a {match.kind!r} record has no opponent: player_b must be None, got "
                f"{match.player_b!r} in round {match.round}"
            )
        for player in (match.player_a, match.player_b):
            if player is None:
                continue
            slot = (match.phase, match.round, player)
            if slot in busy:
                raise StandingsError(
                    f"player {player!r} has two results in {match.phase} round {match.round}"
                )
            busy.add(slot)


# --------------------------------------------------------------------------
# Tallies
# --------------------------------------------------------------------------


@dataclass
class _Tally:
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    matches: int = 0
    byes: int = 0
    late_losses: int = 0
    game_points: int = 0
    games: int = 0
    opponents: list[PlayerId] = field(default_factory=list)

    def add(self, result: int, games_won: int, games_lost: int, games_drawn: int, dgp: int) -> None:
        """Record one match; ``result`` is +1 won, 0 drawn, -1 lost."""
        self.matches += 1
        if result > 0:
            self.wins += 1
            self.points += 3
        elif result < 0:
            self.losses += 1
        else:
            self.draws += 1
            self.points += 1
        self.game_points += 3 * games_won + dgp * games_drawn
        self.games += games_won + games_lost + games_drawn


def _tally(
    players: Sequence[PlayerId], matches: Iterable[MatchRecord], drawn_game_points: int
) -> dict[PlayerId, _Tally]:
    tallies = {player: _Tally() for player in players}
    for match in matches:
        a = tallies[match.player_a]
        if match.kind == "bye":
            a.add(1, 2, 0, 0, drawn_game_points)
            a.byes += 1
            continue
        if match.kind == "loss":
            a.add(-1, 0, 2, 0, drawn_game_points)
            a.late_losses += 1
            continue
        b = tallies[match.player_b]
        result = (match.a_wins > match.b_wins) - (match.a_wins < match.b_wins)
        a.add(result, match.a_wins, match.b_wins, match.draws, drawn_game_points)
        b.add(-result, match.b_wins, match.a_wins, match.draws, drawn_game_points)
        a.opponents.append(match.player_b)
        b.opponents.append(match.player_a)
    return tallies


def _ratio(numerator: int | Fraction, denominator: int) -> Fraction:
    return Fraction(numerator, denominator) if denominator else ZERO


def _mean(values: list[Fraction], empty: Fraction = ZERO) -> Fraction:
    """The average of ``values``; ``empty`` when there are none (a player with no opponent)."""
    return sum(values, ZERO) / len(values) if values else empty


def _floored(value: Fraction, floor: Fraction | None) -> Fraction:
    return value if floor is None else max(value, floor)


# --------------------------------------------------------------------------
# Playoffs
# --------------------------------------------------------------------------


def _bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def playoff_finishes(matches: Iterable[MatchRecord]) -> dict[PlayerId, int]:
    """Each top-cut player's finish, derived from the ``phase="playoff"`` matches.

    Playoff rounds are taken in increasing ``round`` order; the last one is
    the final. A player eliminated in a round whose bracket has *n* seats
    (the number of players in that round, rounded up to a power of two)
    finishes ``n // 2 + 1``; the winner of the final finishes 1, the loser 2,
    and both players of a drawn final (a split) finish 1. Raises
    :class:`StandingsError` when the results cannot tell (a player who won a
    round but plays no later round, or a last round with several matches):
    pass the finishes to :func:`compute_standings` explicitly then.
    """
    by_round: dict[int, list[MatchRecord]] = {}
    for match in matches:
        if match.phase == "playoff":
            by_round.setdefault(match.round, []).append(match)
    if not by_round:
        return {}
    order = sorted(by_round)
    final = order[-1]
    outcome: dict[PlayerId, tuple[int, int]] = {}  # player -> (last round, result)
    entrants: dict[int, int] = {}
    for number in order:
        count = 0
        for match in by_round[number]:
            if match.kind == "bye":
                outcome[match.player_a] = (number, 1)
                count += 1
            elif match.kind == "loss":
                outcome[match.player_a] = (number, -1)
                count += 1
            else:
                result = (match.a_wins > match.b_wins) - (match.a_wins < match.b_wins)
                outcome[match.player_a] = (number, result)
                outcome[match.player_b] = (number, -result)
                count += 2
        entrants[number] = count
    if len(by_round[final]) != 1 or by_round[final][0].kind != "played":
        raise StandingsError(
            f"cannot derive playoff finishes: the last playoff round ({final}) is not a single "
            "match; pass playoff_finish explicitly"
        )
    finishes: dict[PlayerId, int] = {}
    for player, (number, result) in outcome.items():
        if number == final:
            finishes[player] = 2 if result < 0 else 1
        elif result > 0:
            raise StandingsError(
                f"cannot derive playoff finishes: {player!r} won playoff round {number} but plays "
                "no later playoff round (results missing?); pass playoff_finish explicitly"
            )
        else:
            finishes[player] = _bracket_size(entrants[number]) // 2 + 1
    return finishes


# --------------------------------------------------------------------------
# Computation
# --------------------------------------------------------------------------


@dataclass
class _Figures:
    tally: _Tally
    mw: Fraction
    gw: Fraction
    omw: Fraction
    ogw: Fraction
    oomw: Fraction | None = None


def _mtr_figures(
    players: Sequence[PlayerId],
    swiss: dict[PlayerId, _Tally],
    everything: dict[PlayerId, _Tally] | None,
    top_cut: Collection[PlayerId],
    rules: Ruleset,
) -> dict[PlayerId, _Figures]:
    def raw(tallies: dict[PlayerId, _Tally]) -> dict[PlayerId, tuple[Fraction, Fraction]]:
        return {
            p: (_ratio(t.points, 3 * t.matches), _ratio(t.game_points, 3 * t.games))
            for p, t in tallies.items()
        }

    raw_swiss = raw(swiss)
    raw_all = raw(everything) if everything is not None else raw_swiss
    floor = rules.opponent_floor
    figures: dict[PlayerId, _Figures] = {}
    for player in players:
        uses_all = everything is not None and player in top_cut
        tally = everything[player] if uses_all else swiss[player]
        own = raw_all if uses_all else raw_swiss
        opponents = tally.opponents
        if rules.distinct_opponents:
            opponents = list(dict.fromkeys(opponents))
        mw, gw = own[player]
        figures[player] = _Figures(
            tally=tally,
            mw=_floored(mw, rules.own_floor),
            gw=_floored(gw, rules.own_floor),
            omw=_mean([max(own[o][0], floor) for o in opponents], floor),
            ogw=_mean([max(own[o][1], floor) for o in opponents], floor),
        )
    return figures


def _pokemon_figures(
    players: Sequence[PlayerId],
    swiss: dict[PlayerId, _Tally],
    dropped: Collection[PlayerId],
    rules: Ruleset,
) -> dict[PlayerId, _Figures]:
    win_pct: dict[PlayerId, Fraction] = {}
    resistance_value: dict[PlayerId, Fraction] = {}
    game_pct: dict[PlayerId, Fraction] = {}
    for player, t in swiss.items():
        pct = _ratio(Fraction(2 * (t.wins - t.byes) + t.draws, 2), t.matches - t.byes)
        win_pct[player] = pct
        value = max(pct, rules.opponent_floor)
        if rules.dropped_cap is not None and player in dropped:
            value = min(value, rules.dropped_cap)
        resistance_value[player] = value
        game_pct[player] = _ratio(t.game_points, 3 * t.games)
    floor = rules.opponent_floor
    owp = {p: _mean([resistance_value[o] for o in swiss[p].opponents], floor) for p in players}
    figures: dict[PlayerId, _Figures] = {}
    for player in players:
        opponents = swiss[player].opponents
        figures[player] = _Figures(
            tally=swiss[player],
            mw=win_pct[player],
            gw=game_pct[player],
            omw=owp[player],
            ogw=_mean([game_pct[o] for o in opponents]),
            oomw=_mean([owp[o] for o in opponents], floor),
        )
    return figures


def _resolve_ruleset(ruleset: str | Ruleset) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        return ruleset
    try:
        return RULESETS[ruleset]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise StandingsError(f"unknown ruleset {ruleset!r} (known: {known})") from None


def _resolve_finishes(
    players: set[PlayerId],
    playoff: list[MatchRecord],
    explicit: Mapping[PlayerId, int] | None,
) -> dict[PlayerId, int]:
    if explicit is None:
        return playoff_finishes(playoff)
    finishes: dict[PlayerId, int] = {}
    for player, finish in explicit.items():
        if player not in players:
            raise StandingsError(f"playoff_finish names unknown player {player!r}")
        if isinstance(finish, bool) or not isinstance(finish, int) or finish < 1:
            raise StandingsError(
                f"playoff finish of {player!r} must be an int >= 1, got {finish!r}"
            )
        finishes[player] = finish
    for match in playoff:
        for player in (match.player_a, match.player_b):
            if player is not None and player not in finishes:
                raise StandingsError(
                    f"player {player!r} plays in playoff round {match.round} but has no "
                    "entry in playoff_finish"
                )
    return finishes


def compute_standings(
    players: Sequence[PlayerId],
    matches: Iterable[MatchRecord],
    ruleset: str | Ruleset = "mtr",
    dropped: Collection[PlayerId] = (),
    playoff_finish: Mapping[PlayerId, int] | None = None,
) -> list[StandingRow]:
    """Rank ``players`` from ``matches`` under ``ruleset``; see the module docs.

    ``players`` lists every entrant once (its order breaks complete ties);
    ``matches`` may mix Swiss and playoff records in any order. ``dropped``
    marks players who left the event. ``playoff_finish`` maps top-cut players
    to their finish (1 winner, 2 finalist, 3 semifinal losers, 5 quarterfinal
    losers, ...); when omitted it is derived from the playoff matches with
    :func:`playoff_finishes`. Returns one row per player, best rank first.
    """
    rules = _resolve_ruleset(ruleset)
    players = list(players)
    matches = list(matches)
    dropped_set = set(dropped)
    _validate(players, matches, dropped_set)

    swiss_matches = [m for m in matches if m.phase == "swiss"]
    playoff_matches = [m for m in matches if m.phase == "playoff"]
    finishes = _resolve_finishes(set(players), playoff_matches, playoff_finish)

    dgp = rules.drawn_game_points
    swiss = _tally(players, swiss_matches, dgp)
    if rules.method == "pokemon":
        figures = _pokemon_figures(players, swiss, dropped_set, rules)
    else:
        everything = None
        if rules.playoffs_count_for_top_cut and playoff_matches:
            everything = _tally(players, matches, dgp)
        figures = _mtr_figures(players, swiss, everything, finishes, rules)

    position = {player: index for index, player in enumerate(players)}

    def sort_key(player: PlayerId) -> tuple:
        fig = figures[player]
        key: list = []
        if rules.rank_top_cut_by_finish:
            finish = finishes.get(player)
            key += [0, finish] if finish is not None else [1, 0]
        for column in rules.columns:
            if column == "points":
                key.append(-fig.tally.points)
                if rules.late_entry_penalty:
                    key.append(fig.tally.late_losses > 0)
            else:
                key.append(-getattr(fig, column))
        key.append(position[player])
        return tuple(key)

    rows: list[StandingRow] = []
    for rank, player in enumerate(sorted(players, key=sort_key), start=1):
        fig = figures[player]
        t = fig.tally
        exact = {"mw": fig.mw, "gw": fig.gw, "omw": fig.omw, "ogw": fig.ogw}
        if fig.oomw is not None:
            exact["oomw"] = fig.oomw
        rows.append(
            StandingRow(
                rank=rank,
                player=player,
                points=t.points,
                wins=t.wins,
                losses=t.losses,
                draws=t.draws,
                matches=t.matches,
                byes=t.byes,
                mw=float(fig.mw),
                gw=float(fig.gw),
                omw=float(fig.omw),
                ogw=float(fig.ogw),
                oomw=None if fig.oomw is None else float(fig.oomw),
                dropped=player in dropped_set,
                playoff_finish=finishes.get(player),
                exact=exact,
            )
        )
    return rows
