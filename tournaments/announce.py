"""What the tournament announces, and the one question it asks the apps above it.

The tournaments app is the base of the apps: drafting and play build on it and it
imports neither. Where it used to call into them, it announces what happened with a
named signal, and the apps that care subscribe in their ``AppConfig.ready()``:

=====================  ==========================  =============================================
signal                 sent                         receivers
=====================  ==========================  =============================================
``round_published``    on commit; ``round_id``      play: deals game 1 of every match of an
                                                    online event (``play.tasks.start_round_games``);
                                                    notifications: each player hears their table
``result_reported``    on commit; ``match_id``      notifications: the players who have not
                                                    reported are asked to confirm
``match_settled``      on commit; ``match_id``,     play: a match of an online event settled
                       ``source``                   without the engine ends its games still
                                                    being played (``end_match_sessions``)
``registration_        inside the dropping          drafting: a bot takes the player's seats in
leaving``              transaction;                 pods that have not finished, once the
                       ``registration``             transaction commits (the row may be deleted
                                                    by then, so the seats are found before)
=====================  ==========================  =============================================

A receiver of a signal sent on commit runs after the tournament's transaction
committed, in its own; a lost one is the sweep's to find (``tournaments.sweeps``).
``registration_leaving`` is the exception: its receivers run inside the transaction
and may only read, and schedule their writes on commit.

The question: "are the decks of this limited event ready?" (``limited_decks_problem``):
the drafting app answers it (``answer_limited_decks``) with why not, or None. And one
service: the games of a match played online, locked and renumbered when a game loss
takes a game number (``online_games``, answered by play).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext as _

round_published = Signal()
result_reported = Signal()  # a match waits for its other players' confirmation
match_settled = Signal()
registration_leaving = Signal()


def on_commit(signal: Signal, **data: Any) -> None:
    """Send ``signal`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: signal.send(sender=None, **data), robust=True)


_limited_decks: Callable[[Any], str | None] | None = None


def answer_limited_decks(answer: Callable[[Any], str | None]) -> None:
    """The app that makes limited decks (drafting) says how to tell they are ready."""
    global _limited_decks
    _limited_decks = answer


class OnlineGames(Protocol):
    """What the play app does for the tournament with a match's games being played online.

    A game loss issued while a match is played online takes the next game number of the
    match (decision 0066): the game in progress plays on under the number after it. The
    sessions are locked before the match row, the order the end of a game takes them in.
    """

    def lock_open(self, match_id: int) -> list[tuple[int, int | None]]:
        """Lock the match's games not over yet; their (id, game number), in id order."""
        ...

    def open_games(self, match_id: int) -> list[tuple[int, int | None]]:
        """The same list, read without locking (to tell whether it changed meanwhile)."""
        ...

    def renumber(self, match_id: int, number: int) -> None:
        """The match's games not over yet (locked by the caller) become game ``number``."""
        ...


_online_games: OnlineGames | None = None


def answer_online_games(games: OnlineGames) -> None:
    """The app that plays matches online (play) says how to reach their games."""
    global _online_games
    _online_games = games


def online_games() -> OnlineGames | None:
    """The play app's answer, or None when no app plays matches online."""
    return _online_games


def limited_decks_problem(event) -> str | None:
    """Why the decks of a limited event are not ready yet, or None."""
    if _limited_decks is None:
        return _("This event's decks are made in pods, and pods cannot be made on this site.")
    return _limited_decks(event)
