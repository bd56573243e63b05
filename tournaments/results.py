"""Match results as plain data: validating a best-of-N game sequence.

A result is the sequence of games in the order they were played, each the seat
of its winner or ``None`` for a drawn game. Pure functions, no ORM.
"""

from __future__ import annotations

from collections.abc import Sequence
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
            _("A best-of-%(n)d match cannot have %(count)d games.") % {"n": best_of, "count": len(games)}
        )
    needed = games_needed(best_of)
    wins = [0] * seats
    draws = 0
    for number, game in enumerate(games, start=1):
        if any(w >= needed for w in wins):
            raise ResultError(
                _("The match was already decided before game %(number)d: a best-of-%(n)d ends when "
                  "a player wins %(needed)d games.")
                % {"number": number, "n": best_of, "needed": needed}
            )
        if game is None:
            draws += 1
        elif isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < seats:
            raise ResultError(
                _("Game %(number)d: %(value)r is not a seat of this match.") % {"number": number, "value": game}
            )
        else:
            wins[game] += 1
    best = max(wins) if wins else 0
    leaders = [seat for seat, w in enumerate(wins) if w == best]
    winner = leaders[0] if len(leaders) == 1 else None
    if winner is None and not allow_draw:
        raise ResultError(_("Elimination matches cannot end in a draw: one player must win more games."))
    return Outcome(tuple(wins), draws, winner)


def games_from_counts(wins_a: int, wins_b: int, draws: int) -> list[int | None]:
    """A game order consistent with a score: the match winner takes the last game."""
    for value in (wins_a, wins_b, draws):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ResultError(_("Game counts must be whole numbers of 0 or more."))
    if wins_a >= wins_b:
        return [1] * wins_b + [None] * draws + [0] * wins_a
    return [0] * wins_a + [None] * draws + [1] * wins_b
