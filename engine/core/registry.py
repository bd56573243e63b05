"""The registry of game systems.

The tournament, drafting and play apps ask this registry which games exist, which
formats each offers and whether an event of that game needs decklists. The rules
engines themselves plug in here as they are written; until then a system is
described by its metadata alone.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Format:
    key: str
    name: str
    limited: bool = False  # decks built at the event (draft, sealed) rather than brought


@dataclass(frozen=True)
class GameSystemInfo:
    key: str
    name: str
    min_players: int = 2
    max_players: int = 2
    needs_decklists: bool = True
    formats: tuple[Format, ...] = field(default_factory=tuple)
    # Dotted paths, imported on first use so that the registry stays cheap to load:
    engine: str = ""  # a module-level GameSystem object, e.g. "engine.voskhozhdenie.game:SYSTEM"
    decks: str = ""  # a deck checker, e.g. "engine.voskhozhdenie.decks:CHECKER"
    simulation: str = ""  # bots and sample decks for the simulator and the bench

    def load(self, what: str):
        """The engine ("engine"), deck checker ("decks") or simulation kit ("simulation")."""
        path = getattr(self, what)
        if not path:
            raise UnknownGameSystem(f"{self.name} has no {what} yet")
        module_name, _, attr = path.partition(":")
        module = importlib.import_module(module_name)
        return getattr(module, attr)

    def format(self, key: str) -> Format:
        for fmt in self.formats:
            if fmt.key == key:
                return fmt
        raise UnknownGameSystem(f"{self.name} has no format {key!r}")


class UnknownGameSystem(LookupError):
    pass


_REGISTRY: dict[str, GameSystemInfo] = {}


def register(info: GameSystemInfo) -> GameSystemInfo:
    if info.key in _REGISTRY:
        raise ValueError(f"game system {info.key!r} is registered twice")
    _REGISTRY[info.key] = info
    return info


def get(key: str) -> GameSystemInfo:
    try:
        return _REGISTRY[key]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameSystem(f"unknown game system {key!r} (known: {known})") from None


def all_systems() -> list[GameSystemInfo]:
    return sorted(_REGISTRY.values(), key=lambda info: info.key)


register(
    GameSystemInfo(
        key="voskhozhdenie",
        name="Voskhozhdenie (Восхождение)",
        min_players=2,
        max_players=4,
        formats=(
            Format("standard", "Standard"),
            Format("eternal", "Eternal"),
            Format("chosen", "Chosen"),
            Format("blitz", "Blitz"),
            Format("draft", "Draft", limited=True),
        ),
        engine="engine.voskhozhdenie.game:SYSTEM",
        decks="engine.voskhozhdenie.decks:CHECKER",
        simulation="engine.voskhozhdenie.simkit:KIT",
    )
)

register(
    GameSystemInfo(
        key="ascension",
        name="Ascension (deck-building game)",
        min_players=2,
        max_players=4,
        needs_decklists=False,  # everyone plays the shared starter decks and center deck
        formats=(Format("standard", "Standard"),),
        engine="engine.ascension.game:SYSTEM",
        simulation="engine.ascension.simkit:KIT",
    )
)
