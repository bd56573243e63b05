"""The settings of a Berserk game: the format's numbers the rules leave open, and the
digest's recommended decisions (``../shared/rules/berserk.md`` §15, D-1..D-34), each a
setting whose default follows the recommendation.

A game's config (``new_game(config, ...)``) may override any field by name; the
tournament format gives the deal size and deck limits (D-2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Config:
    # D-2: the format's numbers, missing from the text ({ссылка}) [302.1, 100.2-100.4].
    deal_size: int = 15  # cards dealt in the Deal Step (D-2; our default)
    deck_min_constructed: int = 30  # 100.2а
    deck_min_limited: int = 20  # 100.2а
    deck_max: int = 50  # 100.3
    copy_limit: int = 3  # 100.2б
    horde_copy_limit: int = 5  # С: Орда
    # 101.1, 302.1 (granted once, in the Deal Step: D-5), 101.3
    gold: int = 23
    silver: int = 22
    second_player_silver: int = 1
    squad_max: int = 15  # 304.5
    flyers_max_crystals: int = 15  # 211.7
    terrain_max: int = 1  # 212.3
    # D-6: elite cards are paid with gold only; ordinary ones with silver and/or gold.
    elite_gold_only: bool = True
    # D-7: the element adjustment re-validates the whole Recruit zone after each card.
    revalidate_elements: bool = True
    # D-10: the no-creatures loss is checked from the first priority of Start of Battle;
    # both players without creatures at once is a draw.
    loss_check_from_start_of_battle: bool = True
    # D-11: a simple strike closes its source in the Payment object.
    strike_closes_attacker: bool = True
    # D-16: weakening only on rows where both sides hit (+2, +4, -4), once per chain.
    weakening_exchange_rows: tuple[int, ...] = (2, 4, -4)
    # D-17: magic strikes cause a two-creature fight too.
    magic_strike_fights: bool = False
    # D-21: hidden cards are open; they may declare only instant abilities (404.6), which
    # reveal them first (415.2). False: a hidden card declares nothing.
    hidden_cards_declare_instants: bool = True
    # D-22: the second player's hidden third row is revealed at the end of the first
    # player's first turn (313.2).
    reveal_hidden_row_after_first_turn: bool = True
    # D-30: a Vanguard strike closes the striker.
    vanguard_closes: bool = True

    @classmethod
    def of(cls, config: Mapping[str, Any] | None = None) -> Config:
        """The defaults with ``config``'s known fields over them (unknown keys refused)."""
        config = dict(config or {})
        known = {f.name for f in fields(cls)}
        unknown = set(config) - known - {"players", "seed"}
        if unknown:
            raise ValueError(f"unknown Berserk settings: {', '.join(sorted(unknown))}")
        values = {k: v for k, v in config.items() if k in known}
        if "weakening_exchange_rows" in values:
            values["weakening_exchange_rows"] = tuple(values["weakening_exchange_rows"])
        return replace(cls(), **values)


DEFAULT = Config()
