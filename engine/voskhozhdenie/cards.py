"""Cards and card sets as immutable plain data (see docs/card-format.md).

The loader (``engine.voskhozhdenie.loader``) builds these from the JSON set files in
``engine/sets/<system>/`` and validates every field; engines, deck checking and
booster collation read them. A card is identified by its full Russian name
(rule 2.2 of «Восхождение»): two printings with the same Russian name are the
same card for copy limits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

CARD_TYPES = ("city", "squad", "tactic", "order", "relic", "fortification", "patron")
COLOURS = ("white", "blue", "black", "red")
RARITIES = ("common", "uncommon", "rare", "legendary")
KEYWORDS = ("reinforcement", "zeal")

# Rule 2.1.6.1: the subtypes each type may have, and how many.
SUBTYPES: Mapping[str, tuple[str, ...] | None] = {
    "city": None,  # one free subtype: a place or faction (2.1.6.1.1)
    "squad": ("soldier", "officer", "nobility", "mage", "rogue", "worker", "monster"),
    "tactic": ("confrontation", "battle"),
    "order": ("strategy", "blessing", "spell", "curse", "providence"),
    "relic": ("technology", "weapon", "treasure", "gear", "tool"),
    "fortification": None,  # one free subtype (2.1.6.1.6)
    "patron": ("aspect", "initiate", "firstborn"),
}
SUBTYPE_COUNT: Mapping[str, tuple[int, int]] = {  # (min, max)
    "city": (1, 1),
    "squad": (1, 7),
    "tactic": (1, 1),
    "order": (1, 1),
    "relic": (1, 5),
    "fortification": (1, 1),
    "patron": (1, 1),
}
HAS_STRENGTH = ("city", "squad", "fortification", "patron")  # rule 2.1.9.1


@dataclass(frozen=True)
class Cost:
    """A printed cost: coins, X, or Supply symbols instead of coins (rule 2.1.2)."""

    coins: int = 0
    x: bool = False
    supply: int = 0

    @property
    def value(self) -> int:
        """The cost "when anything interacts with it" (rules 2.1.2.2, 2.1.2.3)."""
        if self.x:
            return 0
        if self.supply:
            return self.supply
        return self.coins


@dataclass(frozen=True)
class Card:
    id: str  # "<SET>-<number>", e.g. "VS1-017"
    set_code: str
    number: int
    name_ru: str
    name_en: str
    type: str
    subtypes: tuple[str, ...]
    colours: frozenset[str]  # empty: Neutral (2.1.4.4)
    cost: Cost | None  # None: the card has no Cost and cannot be played (2.1.2.1)
    strength: int | None  # None for types without Strength (2.1.9.1)
    supply: int = 0  # Supply symbols printed on the card (Cities: rule 5.5)
    keywords: frozenset[str] = frozenset()
    minor: bool = False  # "Minor" prefix (2.1.5.3)
    rarity: str = "common"
    text_ru: str = ""
    text_en: str = ""
    flavour_ru: str = ""
    flavour_en: str = ""
    abilities: tuple[
        Mapping[str, Any], ...
    ] = ()  # the effect language, see engine.voskhozhdenie.effects

    @property
    def is_neutral(self) -> bool:
        return not self.colours

    @property
    def cost_value(self) -> int:
        return 0 if self.cost is None else self.cost.value

    def name(self, language: str = "en") -> str:
        return self.name_ru if language == "ru" else self.name_en


@dataclass(frozen=True)
class BoosterSlot:
    rarity: str  # draw from cards of this rarity...
    count: int
    types: tuple[str, ...] = ()  # ...optionally only of these types (e.g. a City slot)
    # With probability ``upgrade_chance`` a card of rarity ``upgrade`` is drawn instead
    # (e.g. a rare slot that holds a legendary one time in eight).
    upgrade: str | None = None
    upgrade_chance: float = 0.0


@dataclass(frozen=True)
class BoosterSpec:
    size: int
    slots: tuple[BoosterSlot, ...]


@dataclass(frozen=True)
class CardSet:
    code: str
    name_ru: str
    name_en: str
    released: date
    cards: tuple[Card, ...]
    booster: BoosterSpec | None = None  # None: not sold in boosters (not draftable)
    source: str = ""  # the file it was loaded from
    # Names of the places/factions used as free City and Fortification subtypes
    # (2.1.6.1.1, 2.1.6.1.6): key -> {"ru": ..., "en": ...}.
    places: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class CardDB:
    """Every set of one game system, with lookups."""

    system: str
    sets: tuple[CardSet, ...]
    _by_id: Mapping[str, Card] = field(default_factory=dict, repr=False)
    _by_name: Mapping[str, Card] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, system: str, sets: Iterable[CardSet]) -> CardDB:
        ordered = tuple(sorted(sets, key=lambda s: (s.released, s.code)))
        by_id: dict[str, Card] = {}
        by_name: dict[str, Card] = {}
        for card_set in ordered:
            for card in card_set.cards:
                by_id[card.id] = card
                # Later printings keep the earliest card as the name's reference.
                by_name.setdefault(normalise_name(card.name_ru), card)
                by_name.setdefault(normalise_name(card.name_en), card)
        return cls(system=system, sets=ordered, _by_id=by_id, _by_name=by_name)

    def card(self, card_id: str) -> Card:
        return self._by_id[card_id]

    def find(self, name: str) -> Card | None:
        """The card with this Russian or English name (case and spacing ignored)."""
        return self._by_name.get(normalise_name(name))

    def get_set(self, code: str) -> CardSet:
        for card_set in self.sets:
            if card_set.code == code:
                return card_set
        raise KeyError(code)

    def latest_sets(self, count: int, as_of: date | None = None) -> tuple[CardSet, ...]:
        """The ``count`` most recent releases as of a date (Standard: 4, rule 4.5.1.11)."""
        released = [s for s in self.sets if as_of is None or s.released <= as_of]
        return tuple(released[-count:])

    def all_cards(self) -> Sequence[Card]:
        return tuple(self._by_id.values())

    def printings(self, card: Card) -> tuple[Card, ...]:
        """Every printing sharing this card's Russian name (rule 2.2.1)."""
        key = normalise_name(card.name_ru)
        return tuple(c for c in self._by_id.values() if normalise_name(c.name_ru) == key)


def normalise_name(name: str) -> str:
    return " ".join(name.replace("ё", "е").replace("Ё", "Е").split()).casefold()
