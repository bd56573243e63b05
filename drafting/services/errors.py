"""What the drafting services raise when a person asks for something they cannot have.

Shared by every module of ``drafting.services``; the views, the API and the tournament
console show the message to the person as it is (a refused deck carries its ``problems``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class PodError(Exception):
    """Something the person can fix; the message is shown to them as it is."""

    def __init__(self, message: str, problems: Sequence[Mapping[str, Any]] = ()):
        super().__init__(message)
        self.problems = list(problems)


class NotAllowed(PodError):
    """The person may not do this."""
