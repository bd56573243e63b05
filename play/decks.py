"""Decks for casual games: ready-made starter decks, or a list the player pastes.

Game-neutral: a system that needs decks (registry ``needs_decklists``) names its starter
deck file and the format casual decks are checked in (``GameSystemInfo.starter_decks``,
``casual_format``); its deck checker (``registry.get(system).load("decks")``) checks a
pasted list with ``validate`` and turns a list into the engine's deck with
``to_engine_deck``. A system without decklists deals its own decks: every seat's deck
is ``None``.

A pasted list is checked in the casual format unless the player chose another of the
game's formats (``deck_formats``: the casual one, then its limited ones). A deck built
from a pool (the deck builder's, ``tournaments.built_decks``) is checked by the same
service against that pool in the format it was built for (``check_built``). A table
whose deck was checked in a limited format gives its bots a deck legal in that format:
the engine's limited kit opens a sealed pool of the same sets and builds from it
(``opponent_deck``); a starter deck only if no legal deck comes of it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.core import registry
from engine.core.registry import Format
from engine.core.starters import StarterDeck
from play.services.errors import PlayError
from play.services.starting import engine_deck
from tournaments.built_decks import BuiltDeck

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
    """What a seat plays with: a starter deck's key, or ``PASTE`` and the pasted text,
    checked in ``format`` (empty: the game's casual format)."""

    choice: str = ""
    text: str = ""
    format: str = ""


@dataclass(frozen=True)
class CheckedDeck:
    """A deck already checked in ``format`` (``check_built``): the engine's deck, and
    where it was built (``origin``, stored with the table). ``sets`` and ``supplied``:
    what its pool was opened from, for the bots' decks."""

    deck: Any
    format: str
    origin: Mapping[str, Any] = field(default_factory=dict)
    sets: Sequence[str] = ()
    supplied: Sequence[str] = ()


def needs_deck(system: str) -> bool:
    info = registry.get(system)
    return bool(info.needs_decklists and info.decks)


def starter_decks(system: str) -> tuple[StarterDeck, ...]:
    return tuple(registry.get(system).load_starter_decks())


def _language() -> str:
    return "ru" if (get_language() or "").startswith("ru") else "en"


def deck_formats(system: str) -> list[Format]:
    """The formats a pasted list may be checked in: the game's casual format first, then
    its limited ones (a team format's decks follow another format's rules: not offered).
    Empty for a game without decks."""
    info = registry.get(system)
    if not needs_deck(system) or not info.casual_format:
        return []
    casual = info.format(info.casual_format)
    limited = [f for f in info.formats if f.limited and not f.is_team and f.key != casual.key]
    return [casual, *limited]


def is_limited(system: str, fmt: str) -> bool:
    try:
        return bool(fmt) and registry.get(system).format(fmt).limited
    except registry.UnknownGameSystem:
        return False


def check_pasted(system: str, text: str, fmt: str = "") -> str:
    """The pasted list if the game's deck checker accepts it in ``fmt`` (one of
    ``deck_formats``; empty: the casual format) as of today; otherwise ``DeckRefused``
    naming every problem (a line number for a line that cannot be read, a rule number
    for a broken rule). A limited format is checked without a pool: its other rules."""
    if not text or not text.strip():
        raise DeckRefused([_("Paste a decklist, or choose a starter deck.")])
    info = registry.get(system)
    fmt = fmt or info.casual_format
    if fmt not in {f.key for f in deck_formats(system)}:
        raise PlayError(_("Unknown format: %(key)s.") % {"key": fmt})
    report = info.load("decks").validate(
        text, fmt, as_of=timezone.localdate(), language=_language()
    )
    if report.problems:
        raise DeckRefused([_problem(p) for p in report.problems])
    return text


def check_built(built: BuiltDeck) -> CheckedDeck:
    """A deck built from a pool, checked by the game's deck service in the format it was
    built for with that pool as the only source of cards (the check the deck builder
    makes, ``Decklists.check_sections``); ``DeckRefused`` naming every broken rule."""
    info = registry.get(built.system)
    if not needs_deck(built.system) or not is_limited(built.system, built.format):
        raise PlayError(_("Unknown format: %(key)s.") % {"key": built.format})
    decks = info.load("decks")
    problems = decks.check_sections(
        built.deck, built.format, pool=Counter(built.pool), language=_language()
    )
    if problems:
        raise DeckRefused([_problem(p) for p in problems])
    origin = {
        **built.origin,
        "owner": built.owner,
        "pool": list(built.pool),
        "deck": {k: list(v) for k, v in built.deck.items()},
    }
    return CheckedDeck(
        deck=decks.to_engine_deck(decks.write(built.deck, "en")),
        format=built.format,
        origin=origin,
        sets=tuple(built.sets),
        supplied=tuple(built.supplied),
    )


# Sealed pools a bot opens before it settles for a starter deck (a pool that allows no
# legal deck is rare: «Восхождение» without two Cities in it).
BOT_POOL_TRIES = 3


def opponent_deck(
    system: str, fmt: str, seed: int, sets: Sequence[str] = (), supplied: Sequence[str] = ()
) -> tuple[Any, str]:
    """A bot's engine deck legal in the limited format ``fmt``, and where it came from:
    ``"pool"`` when the engine's limited kit built it from a sealed pool of ``sets`` (the
    game's sealed number of boosters, ``supplied`` cards added), checked like a player's;
    ``"starter"`` (a starter deck picked with ``seed``) if the game has no limited kit or
    no pool opened gives a legal deck."""
    info = registry.get(system)
    if info.limited and is_limited(system, fmt):
        kit = info.load("limited")
        decks = info.load("decks")
        codes = list(sets) or list(info.draft_sets[:1])
        boosters = info.sealed_boosters or len(codes)
        opened = [codes[k % len(codes)] for k in range(boosters)] if codes else []
        for attempt in range(BOT_POOL_TRIES if opened else 0):
            pool = [*kit.sealed_pool(opened, seed + attempt), *supplied]
            built = kit.bot_deck(pool)
            deck = {s.key: [str(c) for c in built.get(s.key) or ()] for s in kit.sections}
            if not decks.check_sections(deck, fmt, pool=Counter(pool), language="en"):
                return decks.to_engine_deck(decks.write(deck, "en")), "pool"
    return deck_for(system, None, seed), "starter"


def _problem(problem: Any) -> str:
    if isinstance(problem, Mapping):
        message = str(problem.get("message", ""))
        rule = problem.get("rule") or ""
        line = problem.get("line")
    else:
        message = str(getattr(problem, "message", problem))
        rule = getattr(problem, "rule", "")
        line = getattr(problem, "line", None)
    if line is not None:
        message = _("Line %(line)s: %(message)s") % {"line": line, "message": message}
    if rule:
        message = _("%(message)s (rule %(rule)s)") % {"message": message, "rule": rule}
    return message


def deck_for(system: str, chosen: DeckChoice | CheckedDeck | None, seed: int) -> Any:
    """The engine deck of one seat (``None`` for a system that deals its own decks).

    No choice: a starter deck picked with ``seed`` (bots, and callers that do not ask);
    a ``CheckedDeck``: its deck, checked already. Raises ``DeckRefused`` for a bad pasted list, ``PlayError`` for an unknown starter.
    """
    if not needs_deck(system):
        return None
    chosen = chosen or DeckChoice()
    if isinstance(chosen, CheckedDeck):
        return chosen.deck
    if chosen.choice == PASTE:
        return engine_deck(system, check_pasted(system, chosen.text, chosen.format))
    starters = starter_decks(system)
    if not starters:
        raise PlayError(_("This game has no starter decks: paste a decklist."))
    if not chosen.choice:
        return engine_deck(system, random.Random(seed).choice(starters).text)
    for deck in starters:
        if deck.key == chosen.choice:
            return engine_deck(system, deck.text)
    raise PlayError(_("Unknown starter deck: %(key)s.") % {"key": chosen.choice})
