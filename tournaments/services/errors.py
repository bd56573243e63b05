"""Errors of the tournament services: what the person is told.

``TournamentError`` is something the person can fix; its message is shown as it is
(HTTP 400, or 409 for the actions the API lists). ``NotAllowed`` is a permission problem
(HTTP 403). ``PairingError`` says what is wrong with pairings sent by hand (always HTTP 400:
the request, not the state of the event, is at fault).
"""

from __future__ import annotations


class TournamentError(Exception):
    """Something the person can fix; the message is shown to them as it is."""


class NotAllowed(TournamentError):
    """The person may not do this."""


class PairingError(TournamentError):
    """Pairings set by hand that cannot be used: a player missing, twice, or not in the
    event, a table number twice, a table of more than two players."""
