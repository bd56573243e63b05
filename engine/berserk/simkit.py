"""What the simulator and the engine bench need to play Berserk bot games: the engine,
the bots, and random legal 30-card constructed decks from the set, drawn from a seed."""

from __future__ import annotations

from typing import Any

from engine.berserk.bots import make_bot as _make_bot
from engine.berserk.game import SYSTEM, random_deck
from engine.core.rng import seed_state

DECK_SEED_SALT = 0x6265_7273  # keeps the decks' draws apart from the game's own


class Kit:
    key = "berserk"
    formats = ("constructed",)

    def system(self, sample: bool) -> tuple[Any, str]:
        return SYSTEM, "BK1, random constructed decks"

    def decks(self, system: Any, players: int, seed: int, fmt: str = "constructed") -> list:
        state = seed_state(seed ^ DECK_SEED_SALT)
        return [random_deck(system.db, state) for _ in range(players)]

    def make_bot(self, name: str, system: Any, seed: int):
        return _make_bot(name, system, seed)


KIT = Kit()
