"""What the simulator and the engine bench need to play Ascension bot games."""

from __future__ import annotations

from typing import Any

from engine.ascension.bots import make_bot as _make_bot
from engine.ascension.game import SYSTEM


class Kit:
    key = "ascension"
    formats = ("standard",)

    def system(self, sample: bool) -> tuple[Any, str]:
        return SYSTEM, "shared decks"

    def decks(self, system: Any, players: int, seed: int, fmt: str = "standard") -> list:
        return [None] * players  # everyone plays the same starter deck and center deck

    def make_bot(self, name: str, system: Any, seed: int):
        return _make_bot(name, system, seed)


KIT = Kit()
