"""Engines and bots: the rules engine of a game system, its bots and the settings around them.

Nothing in ``play.services`` knows a particular game: the engine comes from the registry
(``engine_of``: ``registry.get(system).load("engine")``) and the bots from the ``bots``
module next to the engine's module (``engine.<system>.bots``: ``BOTS`` and ``make_bot``).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from django.utils.translation import gettext as _

from engine.core import registry
from engine.core.protocol import GameSystem
from play.models import GameSession, SessionSeat
from play.services.errors import PlayError

logger = logging.getLogger("gauntlet.play")

BOT_DELAY_SECONDS = 0.4  # a bot answers after a short pause, so people can follow its moves


def move_limit() -> int | None:
    """Most actions in one game (``PLAY_MAX_MOVES``; None: no limit), then it is a draw."""
    from django.conf import settings

    value = getattr(settings, "PLAY_MAX_MOVES", None)
    return int(value) if value else None


def bot_delay() -> float:
    """Seconds a bot waits before moving (``PLAY_BOT_DELAY_SECONDS``; the demo uses 0)."""
    from django.conf import settings

    return float(getattr(settings, "PLAY_BOT_DELAY_SECONDS", BOT_DELAY_SECONDS))


def engine_of(system: str) -> GameSystem:
    try:
        return registry.get(system).load("engine")
    except registry.UnknownGameSystem as exc:
        raise PlayError(str(exc)) from None


def _bots_module(system: str):
    path = registry.get(system).engine
    if not path:
        return None
    package = path.partition(":")[0].rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.bots")
    except ImportError:
        return None


def bot_names(system: str) -> list[str]:
    module = _bots_module(system)
    return list(getattr(module, "BOTS", {})) if module else []


def playable_systems() -> list[tuple[registry.GameSystemInfo, list[str]]]:
    """Game systems with an engine that loads, each with the names of its bots."""
    found = []
    for info in registry.all_systems():
        if not info.engine:
            continue
        try:
            info.load("engine")
        except Exception:  # an engine being written may not import yet
            logger.info("game system %s has no working engine", info.key)
            continue
        found.append((info, bot_names(info.key)))
    return found


def _bot_seed(session: GameSession, seat: int, seq: int) -> int:
    # A fresh generator per move, derived from the game's seed: a bot move is a pure
    # function of the stored state, so a retried task chooses the same action.
    return (session.seed * 1_000_003 + seat * 10_007 + seq) & ((1 << 62) - 1)


def bot_action(session: GameSession, seat: SessionSeat) -> dict[str, Any]:
    module = _bots_module(session.system)
    if module is None:
        raise PlayError(_("This game has no bots."))
    bot = module.make_bot(
        seat.bot_name, engine_of(session.system), _bot_seed(session, seat.number, session.seq)
    )
    return bot.choose(session.state, seat.number)


def card_label(system: GameSystem, card_id: Any, language: str = "en") -> str:
    """A card's printed name where the engine's card database knows it, else its id."""
    namer = getattr(system, "card_name", None)
    if callable(namer):
        return str(namer(card_id, language))
    db = getattr(system, "db", None)
    card = None
    for lookup in ("card", "__getitem__"):
        method = getattr(db, lookup, None)
        if callable(method):
            try:
                card = method(card_id)
                break
            except Exception:
                continue
    if card is None:
        return str(card_id)
    name = getattr(card, "name_ru" if language == "ru" else "name_en", None)
    return str(name or card_id)
