"""Match results as plain data: validating a best-of-N game sequence.

A result is the sequence of games in the order they were played, each the seat
of its winner or ``None`` for a drawn game. Pure functions, no ORM.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _


class ResultError(ValueError):
    """A result that cannot have happened (the message says why)."""


@dataclass(frozen=True)
class Outcome:
    wins: tuple[int, ...]  # game wins per seat
    draws: int
    winner: int | None  # seat of the match winner, None for a drawn match

    @property
    def score(self) -> str:
        return "-".join(str(w) for w in self.wins) + (f"-{self.draws}" if self.draws else "")


def games_needed(best_of: int) -> int:
    return best_of // 2 + 1


def evaluate(
    games: Sequence[int | None], best_of: int, seats: int = 2, allow_draw: bool = True
) -> Outcome:
    """Check a game sequence against the match length and return its outcome.

    * a match ends as soon as a player has won ``best_of // 2 + 1`` games, so no
      game may follow (3–0 in a best-of-3 is refused);
    * drawn games do not count towards the length, but a match has at most
      ``2 * best_of`` games in all;
    * an unfinished match (time called) is won by the player with more game wins
      and drawn when they are level, which elimination matches do not allow.
    """
    if not isinstance(games, list | tuple):
        raise ResultError(_("Games must be a list."))
    if len(games) > 2 * best_of:
        raise ResultError(
            _("A best-of-%(n)d match cannot have %(count)d games.")
            % {"n": best_of, "count": len(games)}
        )
    needed = games_needed(best_of)
    wins = [0] * seats
    draws = 0
    for number, game in enumerate(games, start=1):
        if any(w >= needed for w in wins):
            raise ResultError(
                _(
                    "The match was already decided before game %(number)d: a best-of-%(n)d ends when "
                    "a player wins %(needed)d games."
                )
                % {"number": number, "n": best_of, "needed": needed}
            )
        if game is None:
            draws += 1
        elif isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < seats:
            raise ResultError(
                _("Game %(number)d: %(value)r is not a seat of this match.")
                % {"number": number, "value": game}
            )
        else:
            wins[game] += 1
    best = max(wins) if wins else 0
    leaders = [seat for seat, w in enumerate(wins) if w == best]
    winner = leaders[0] if len(leaders) == 1 else None
    if winner is None and not allow_draw:
        raise ResultError(
            _("Elimination matches cannot end in a draw: one player must win more games.")
        )
    return Outcome(tuple(wins), draws, winner)


def games_from_counts(wins_a: int, wins_b: int, draws: int) -> list[int | None]:
    """A game order consistent with a score: the match winner takes the last game."""
    for value in (wins_a, wins_b, draws):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ResultError(_("Game counts must be whole numbers of 0 or more."))
    if wins_a >= wins_b:
        return [1] * wins_b + [None] * draws + [0] * wins_a
    return [0] * wins_a + [None] * draws + [1] * wins_b


def games_after(recorded: Sequence[int | None], games: Sequence[int | None]) -> list | None:
    """``games`` (a score's games in any order) reordered to begin with the games already
    recorded at the table (a judge's game loss, docs/decisions/0060); None when the score
    leaves one of them out."""
    left = {0: list(games).count(0), 1: list(games).count(1), None: list(games).count(None)}
    for winner in recorded:
        if left.get(winner, 0) <= 0:
            return None
        left[winner] -= 1
    return list(recorded) + games_from_counts(left[0], left[1], left[None])


@dataclass(frozen=True)
class QuickScore:
    """One common final score of a two-player match, offered as a single click."""

    wins_a: int
    wins_b: int
    draws: int
    kind: str  # "a" (first player won), "b", "draw" or "no_show_a" / "no_show_b"

    @property
    def value(self) -> str:
        return f"{self.wins_a}-{self.wins_b}-{self.draws}"


def quick_scores(best_of: int, allow_draw: bool = True) -> list[QuickScore]:
    """The scores a best-of-``best_of`` match most often ends with, in the order shown.

    The first player's wins (2-0, 2-1 in a best-of-3), the second's (1-2, 0-2), the
    level scores of a match called at time (1-1), one drawn game, and a no-show of either
    player (the one present wins every game the match needed). Drawn results only where
    the match may be drawn.
    """
    needed = games_needed(best_of)
    out = [QuickScore(needed, lost, 0, "a") for lost in range(needed)]
    out += [QuickScore(lost, needed, 0, "b") for lost in reversed(range(needed))]
    if allow_draw:
        out += [QuickScore(n, n, 0, "draw") for n in range(1, needed)]
        out.append(QuickScore(0, 0, 1, "draw"))
    out.append(QuickScore(0, needed, 0, "no_show_a"))
    out.append(QuickScore(needed, 0, 0, "no_show_b"))
    return out


def parse_score(value: str) -> tuple[int, int, int]:
    """A posted score "wins_a-wins_b-draws" as three counts (``ResultError`` if it is not)."""
    parts = value.split("-") if isinstance(value, str) else []
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        raise ResultError(_("A score is three whole numbers: wins, wins and draws."))
    a, b, d = (int(p) for p in parts)
    return a, b, d


# ---------------------------------------------------------------- pods (3-4 players)


def check_placements(placements: Sequence[int], seats: int) -> tuple[int, ...]:
    """Check the placements of a pod, one per seat in seat order, and return them.

    1 is first. Players on equal terms share the better placement and the next
    placement is skipped ("1224": two firsts, then a third), so a pod of three can be
    1-2-3, 1-1-3, 1-2-2 or 1-1-1 (in any seat order) but never 1-1-2.
    """
    if not isinstance(placements, list | tuple):
        raise ResultError(_("Placements must be a list, one per seat."))
    if len(placements) != seats:
        raise ResultError(
            _(
                "This pod has %(seats)d players: give %(seats)d placements, one per seat (got %(count)d)."
            )
            % {"seats": seats, "count": len(placements)}
        )
    for seat, place in enumerate(placements, start=1):
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= seats:
            raise ResultError(
                _(
                    "Seat %(seat)d: a placement is a whole number from 1 to %(seats)d (got %(value)r)."
                )
                % {"seat": seat, "seats": seats, "value": place}
            )
    for place in sorted(set(placements)):
        better = sum(1 for p in placements if p < place)
        if better != place - 1:
            raise ResultError(
                _(
                    "Placement %(place)d is impossible here: %(better)d player(s) placed ahead of it. "
                    "Players who tie share the better placement and the next one is skipped "
                    "(two firsts, then a third)."
                )
                % {"place": place, "better": better}
            )
    return tuple(placements)


def placements_with_last(placements: Sequence[int], last: Collection[int]) -> tuple[int, ...]:
    """A pod's placements (seat order) with the seats in ``last`` (0-based) put last.

    A game or match loss in a pod (docs/decisions/0060): the other seats keep their order
    among themselves and close up ("1-2-3-4" with seat 0 last is "4-1-2-3"); several seats
    put last share the last place. Unchanged when the seats named are already last.
    """
    others = [p for seat, p in enumerate(placements) if seat not in last]
    bottom = len(others) + 1
    return tuple(
        bottom if seat in last else 1 + sum(1 for q in others if q < p)
        for seat, p in enumerate(placements)
    )


def placements_from_scores(scores: Sequence[int]) -> tuple[int, ...]:
    """Placements from final scores in seat order: the highest score is first, ties share."""
    ordered = sorted(scores, reverse=True)
    return tuple(ordered.index(score) + 1 for score in scores)


def game_placements(
    seats: int,
    winners: Sequence[int] = (),
    draw: bool = False,
    eliminated: Sequence[int] = (),
    scores: Mapping[int, int] | None = None,
) -> tuple[int, ...]:
    """The placement of each seat (0-based seats, result in seat order) of a finished game.

    * A drawn game is a draw among all its players, eliminated or not (Voskhozhdenie
      rule 1.3.10): everyone shares first.
    * Eliminated players place below everyone still in the game, a player eliminated
      earlier below one eliminated later (rule 1.3.7: players are eliminated in turn;
      1.3.9: the last one standing wins). A player who conceded or ran out of time is
      reported as eliminated, so places last.
    * Among the players still in the game: when the game keeps a score for every seat
      (Ascension: honor, A-43) the higher score places higher and equal scores share the
      placement - the engine's tie-break of the winner (A-44) depends on the seating, not
      on play, so placements do not use it; without scores the winners share first and
      the others share the next placement.
    """
    if seats < 1:
        raise ResultError(_("A game needs at least one seat."))
    known = set(range(seats))
    if not set(winners) <= known or not set(eliminated) <= known:
        raise ResultError(_("The result names a seat that is not in this game."))
    if len(set(eliminated)) != len(eliminated):
        raise ResultError(_("The result names a seat as eliminated twice."))
    if draw:
        return (1,) * seats
    gone = list(eliminated)
    alive = [s for s in range(seats) if s not in set(gone)]
    scores = dict(scores or {})
    if alive and all(s in scores for s in alive):
        key = {s: (0, -scores[s]) for s in alive}
    else:
        key = {s: (0, 0 if s in winners else 1) for s in alive}
    for order, seat in enumerate(gone):  # earlier eliminated -> worse
        key[seat] = (1, -order)
    ordered = sorted(key.values())
    return tuple(ordered.index(key[s]) + 1 for s in range(seats))
