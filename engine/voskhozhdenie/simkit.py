"""What the simulator and the engine bench need to play «Восхождение» bot games."""

from __future__ import annotations

import sys
from typing import Any

from engine.voskhozhdenie.bots import make_bot as _make_bot
from engine.voskhozhdenie.game import Voskhozhdenie
from engine.voskhozhdenie.sample import sample_db, sample_deck

FORMATS = {"standard": (4, 40), "blitz": (2, 20)}  # Cities, Main Deck size


class Kit:
    key = "voskhozhdenie"
    formats = tuple(FORMATS)

    def system(self, sample: bool) -> tuple[Voskhozhdenie, str]:
        """The engine over the real card sets (or the synthetic pool), and which one it is."""
        if not sample:
            try:
                from engine.cards.loader import load_system

                db = load_system("voskhozhdenie")
                if any(c.type == "city" for c in db.all_cards()):
                    return Voskhozhdenie(db), "real sets"
                print("(the real sets hold no City: using the sample pool)", file=sys.stderr)
            except Exception as exc:  # the loader names the bad file, card and field
                print(f"(cannot load the real sets: {exc}; using the sample pool)", file=sys.stderr)
        return Voskhozhdenie(sample_db()), "sample pool"

    def decks(self, system: Voskhozhdenie, players: int, seed: int, fmt: str = "standard") -> list:
        cities, main = FORMATS[fmt]
        return [
            sample_deck(system.db, seed * 31 + i, cities=cities, main=main) for i in range(players)
        ]

    def make_bot(self, name: str, system: Any, seed: int):
        return _make_bot(name, system, seed)


KIT = Kit()
