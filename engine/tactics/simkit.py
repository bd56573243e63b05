"""What the simulator and the engine bench need to play Ascension Tactics bot games: the
engine, the bots, the game config of each mode and the decks (none: each player's
starting deck comes from the game's seed, the reserves from the champion draft the bots
play, T-76..T-78).

``--players 2``: the duel on «Каменный перекрёсток»; ``--players 3`` or ``4``:
free-for-all on «Четыре шпиля»; ``--players 4 --teams``: 2 vs 2 on «Два берега», seats
0 and 2 against 1 and 3.

Against the villains (``engine.tactics.villains``) on «Логово Пепельной королевы», chosen
with ``--format``: ``--format solo --bots heuristic`` (one seat), ``--format coop --bots
heuristic,heuristic`` (two heroes), ``--format archvillain
--bots heuristic,heuristic`` (the hero, then the villain player; the seats rotate). Each at
Hard or Nightmare (T-101) with the suffix ``_hard`` / ``_nightmare``: ``--format
solo_hard``."""

from __future__ import annotations

from typing import Any

from engine.tactics import villains
from engine.tactics.bots import make_bot as _make_bot
from engine.tactics.game import SYSTEM


class Kit:
    key = "tactics"
    formats = (
        "duel",
        *(
            f"{mode}{suffix}"
            for mode in ("solo", "coop", "archvillain")
            for suffix in ("", "_hard", "_nightmare")
        ),
    )
    min_players = 1  # solo: one seat against the villains (T-81)

    def system(self, sample: bool) -> tuple[Any, str]:
        return SYSTEM, "the scenario of the mode, reserves from the champion draft"

    def game_config(self, players: int, teams: bool = False) -> dict[str, Any]:
        if teams:
            if players != 4:
                raise ValueError("2 vs 2 is played by 4 players (T-78)")
            return {"teams": [[0, 2], [1, 3]]}
        return {}

    def mode_config(self, fmt: str, players: int) -> dict[str, Any]:
        """The config of a villain mode chosen with ``--format`` ({} for the others)."""
        mode, _, level = fmt.partition("_")
        if mode not in villains.SEATS:
            return {}
        if players != villains.SEATS[mode]:
            raise ValueError(f"{mode} is played by {villains.SEATS[mode]} seat(s) (T-75, T-99)")
        return {"mode": mode, "difficulty": level or "normal"}

    def decks(self, system: Any, players: int, seed: int, fmt: str = "duel") -> list:
        return [None] * players

    def make_bot(self, name: str, system: Any, seed: int):
        return _make_bot(name, system, seed)


KIT = Kit()
