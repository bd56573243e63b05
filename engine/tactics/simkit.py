"""What the simulator and the engine bench need to play Ascension Tactics bot games:
the engine (2-player mode of «Каменный перекрёсток»), the bots, and the decks (none: each
player's starting deck and reserve come from the game's seed)."""

from __future__ import annotations

from typing import Any

from engine.tactics.bots import make_bot as _make_bot
from engine.tactics.game import SYSTEM


class Kit:
    key = "tactics"
    formats = ("duel",)

    def system(self, sample: bool) -> tuple[Any, str]:
        return SYSTEM, "stone_crossroads, 2 players, reserves drawn from the seed"

    def decks(self, system: Any, players: int, seed: int, fmt: str = "duel") -> list:
        return [None] * players

    def make_bot(self, name: str, system: Any, seed: int):
        return _make_bot(name, system, seed)


KIT = Kit()
