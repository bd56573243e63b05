"""Errors of the engine, split by audience."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every engine error."""


class IllegalAction(EngineError, ValueError):
    """A player asked for something the rules do not allow now.

    The message is written for the player ("You cannot assign a wounded Squad
    (rule 2.3.2.4)."); ``rule`` names the rule that forbids it where there is one.
    The state the action was applied to is left unchanged.
    """

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} (rule {self.rule})" if self.rule else self.message


class NotYourTurn(IllegalAction):
    """The action is legal in itself, but another player is to act."""


class InvalidConfig(EngineError, ValueError):
    """A game cannot start with this configuration or these decks."""


class EngineBug(EngineError, RuntimeError):
    """Something that should never happen: an invariant of the engine broke."""
