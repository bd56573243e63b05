"""Cards: the game's limited kit (``engine.core.limited``: boosters, bot choices, deck
sections, card faces) and its decklist service (``engine.core.decklists``), both named by
the registry; and the language card names are shown in.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from drafting.models import Pod
from drafting.services.errors import PodError
from engine.core import registry
from engine.core.decklists import Decklists
from engine.core.limited import LimitedKit


def kit_for(game_system: str) -> LimitedKit:
    """The game's limited kit (``engine.core.limited``): its boosters, bots and deck parts."""
    info = registry.get(game_system)
    if not info.limited:
        raise PodError(_("%(game)s has no boosters to draft.") % {"game": info.label(language())})
    return info.load("limited")


def kit(pod: Pod) -> LimitedKit:
    return kit_for(pod.game_system)


def decklists(pod: Pod) -> Decklists:
    """The game's decklist service (``engine.core.decklists``): checks and writes decks."""
    return registry.get(pod.game_system).load("decks")


def deck_sections(pod: Pod) -> tuple[str, ...]:
    return tuple(section.key for section in kit(pod).sections)


def language() -> str:
    from django.utils.translation import get_language

    return "ru" if (get_language() or "").startswith("ru") else "en"
