"""Errors of the tournament services: what the person is told.

``TournamentError`` is something the person can fix; its message is shown as it is
(HTTP 400, or 409 for the actions the API lists). ``NotAllowed`` is a permission problem
(HTTP 403).
"""

from __future__ import annotations


class TournamentError(Exception):
    """Something the person can fix; the message is shown to them as it is."""


class NotAllowed(TournamentError):
    """The person may not do this."""
