"""The decklist service every game with decklists gives the platform.

The registry names it (``GameSystemInfo.decks``, loaded with ``info.load("decks")``); the
tournament and play apps call only these methods, so they never touch a game's card data:

* ``validate(text, fmt, *, as_of=None, pool=None, language="en") -> report``: every
  problem of a pasted list at once, ``report.problems`` (each with ``rule``, ``message``,
  ``line`` and ``as_dict()``); ``pool`` (card id -> copies) limits a limited deck to the
  cards a player drafted or opened;
* ``rules_summary(fmt, language="en") -> [(rule number, text)]``: the format's deck rules,
  for display;
* ``to_engine_deck(text) -> deck``: a stored list as the engine's ``new_game`` takes it;
* ``check_sections(deck, fmt, *, pool, language="en") -> [problem dict]``: a deck built
  in the browser (section key -> card ids, the sections of the game's limited kit) checked
  against a pool; [] means legal;
* ``write(deck, language="en") -> text``: such a deck as a list the checker reads back.

Each system's service loads its own card data (cached per process).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Violation:
    """One problem of a list: the broken rule's number (e.g. "4.5.1.4") and a message for
    the player. ``line`` is set for problems of the text itself (then ``rule`` is empty);
    ``cards`` holds the ids of the cards concerned, when there are some."""

    rule: str
    message: str
    line: int | None = None
    cards: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "message": self.message,
            "line": self.line,
            "cards": list(self.cards),
        }

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"{where}{self.message}{rule}"


@dataclass(frozen=True)
class DeckReport:
    """What ``validate`` says: the deck as read (its ``problems`` are the lines that could
    not be read) and the rules it breaks."""

    deck: Any
    violations: tuple[Violation, ...] = ()

    @property
    def problems(self) -> tuple[Violation, ...]:
        """Problems of the text first (by line), then broken rules."""
        return tuple(self.deck.problems) + tuple(self.violations)

    @property
    def is_legal(self) -> bool:
        return not self.problems


@runtime_checkable
class Decklists(Protocol):
    def validate(
        self,
        text: str,
        fmt: str,
        *,
        as_of: date | None = None,
        pool: Mapping[str, int] | None = None,
        language: str = "en",
    ) -> Any: ...

    def rules_summary(self, fmt: str, language: str = "en") -> list[tuple[str, str]]: ...

    def to_engine_deck(self, text: str) -> Any: ...

    def check_sections(
        self,
        deck: Mapping[str, Sequence[str]],
        fmt: str,
        *,
        pool: Mapping[str, int],
        language: str = "en",
    ) -> list[dict[str, Any]]: ...

    def write(self, deck: Mapping[str, Sequence[str]], language: str = "en") -> str: ...
