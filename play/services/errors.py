"""What the play services raise when a person asks for something they cannot have.

Shared by every module of ``play.services``; the views and the socket show the message to
the person as it is.
"""

from __future__ import annotations


class PlayError(Exception):
    """Something the person can fix; the message is shown to them as it is."""


class NotAllowed(PlayError):
    """The person may not do this."""
