"""Decks for casual games: ready-made starter decks, or a list the player pastes.

Game-neutral: a system that needs decks (registry ``needs_decklists``) names its starter
deck file and the format casual decks are checked in (``GameSystemInfo.starter_decks``,
``casual_format``); its deck checker (``registry.get(system).load("decks")``) checks a
pasted list with ``validate`` and turns a list into the engine's deck with
``to_engine_deck``. A system without decklists deals its own decks: every seat's deck
is ``None``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.core import registry
from engine.core.starters import StarterDeck
from play.services.errors import PlayError
from play.services.starting import engine_deck

PASTE = "paste"  # the deck choice "my own list"


class DeckRefused(PlayError):
    """A pasted list breaks the deck rules: ``problems`` holds each one, rule number included."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(
            _("This deck cannot be played: %(problems)s") % {"problems": " ".join(problems)}
        )


@dataclass(frozen=True)
class DeckChoice:
    """What a seat plays with: a starter deck's key, or ``PASTE`` and the pasted text."""

    choice: str = ""
    text: str = ""


def needs_deck(system: str) -> bool:
    info = registry.get(system)
    return bool(info.needs_decklists and info.decks)


def starter_decks(system: str) -> tuple[StarterDeck, ...]:
    return tuple(registry.get(system).load_starter_decks())


def _language() -> str:
    return "ru" if (get_language() or "").startswith("ru") else "en"


def check_pasted(system: str, text: str) -> str:
    """The pasted list if the game's deck checker accepts it in the casual format as of
    today; otherwise ``DeckRefused`` naming every problem (a line number for a line that
    cannot be read, a rule number for a broken rule)."""
    if not text or not text.strip():
        raise DeckRefused([_("Paste a decklist, or choose a starter deck.")])
    info = registry.get(system)
    report = info.load("decks").validate(
        text, info.casual_format, as_of=timezone.localdate(), language=_language()
    )
    if report.problems:
        raise DeckRefused([_problem(p) for p in report.problems])
    return text


def _problem(problem: Any) -> str:
    message = str(getattr(problem, "message", problem))
    rule = getattr(problem, "rule", "")
    line = getattr(problem, "line", None)
    if line is not None:
        message = _("Line %(line)s: %(message)s") % {"line": line, "message": message}
    if rule:
        message = _("%(message)s (rule %(rule)s)") % {"message": message, "rule": rule}
    return message


def deck_for(system: str, chosen: DeckChoice | None, seed: int) -> Any:
    """The engine deck of one seat (``None`` for a system that deals its own decks).

    No choice: a starter deck picked with ``seed`` (bots, and callers that do not ask).
    Raises ``DeckRefused`` for a bad pasted list, ``PlayError`` for an unknown starter.
    """
    if not needs_deck(system):
        return None
    chosen = chosen or DeckChoice()
    if chosen.choice == PASTE:
        return engine_deck(system, check_pasted(system, chosen.text))
    starters = starter_decks(system)
    if not starters:
        raise PlayError(_("This game has no starter decks: paste a decklist."))
    if not chosen.choice:
        return engine_deck(system, random.Random(seed).choice(starters).text)
    for deck in starters:
        if deck.key == chosen.choice:
            return engine_deck(system, deck.text)
    raise PlayError(_("Unknown starter deck: %(key)s.") % {"key": chosen.choice})
