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
from datetime import date
from typing import Any, Protocol, runtime_checkable


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
