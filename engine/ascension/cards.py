"""Ascension cards: the model and the loader of ``engine/sets/ascension/*.json``.

The set files follow the conventions of docs/card-format.md (one JSON file per release,
``{"code", "name": {"ru", "en"}, "released", "cards": [...]}``, no unknown fields, errors
naming the file, the card and the field); the card fields are Ascension's own and are
described in docs/ascension.md::

    {"number": 12, "name": {"ru": ..., "en": ...}, "type": "hero", "faction": "void",
     "cost": 3, "honor": 1, "copies": 3, "pile": "center",
     "text": {"ru": ..., "en": ...}, "flavour": {...}, "abilities": [...]}

The file is read strictly by the shared ``engine.core.cardjson`` (duplicate keys, unknown
fields and wrong types refused); this module holds Ascension's own fields and rules.
``load_system()`` reads every set file (cached); a problem raises
``engine.core.cardjson.CardDataError``, e.g.::

    engine/sets/ascension/asc1.json: card ASC1-012 «Сумрачный жнец»: cost: must be an
    integer, not '3'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from engine.ascension.effects import (
    CARD_TYPES,
    FACTIONS,
    EffectError,
    validate_ability,
)
from engine.core import cardjson
from engine.core.cardjson import CardDataError, Checker

SETS_DIR = cardjson.SETS_DIR / "ascension"
SET_FIELDS = {"code", "name", "released", "cards"}
CARD_FIELDS = {
    "number",
    "name",
    "type",
    "faction",
    "cost",
    "honor",
    "copies",
    "pile",
    "text",
    "flavour",
    "abilities",
}
PILES = ("center", "always", "starter")


@dataclass(frozen=True)
class Card:
    id: str
    set_code: str
    number: int
    name_ru: str
    name_en: str
    type: str  # hero | construct | monster
    faction: str | None  # enlightened | lifebound | mechana | void | None (neutral)
    cost: int  # runes to acquire (hero, construct) or power to defeat (monster)
    honor: int  # honor value at the end of the game
    copies: int  # center: copies in the center deck; always: pile size; starter: per deck
    pile: str  # center | always | starter
    text_ru: str
    text_en: str
    flavour_ru: str
    flavour_en: str
    abilities: tuple[Mapping[str, Any], ...]

    def effects(self, kind: str) -> list[Mapping[str, Any]]:
        """The ops of every ability of ``kind``, in order."""
        return [op for a in self.abilities if a["kind"] == kind for op in a["effects"]]

    def has(self, kind: str) -> bool:
        return any(a["kind"] == kind for a in self.abilities)


@dataclass(frozen=True)
class CardSet:
    code: str
    name_ru: str
    name_en: str
    released: date
    cards: tuple[Card, ...]


class CardDB:
    """Every Ascension card, by id and by name (either language, case-insensitive)."""

    def __init__(self, sets: list[CardSet]):
        self.sets = tuple(sorted(sets, key=lambda s: (s.released, s.code)))
        self.cards: dict[str, Card] = {}
        self._names: dict[str, Card] = {}
        for card_set in self.sets:
            for card in card_set.cards:
                self.cards[card.id] = card
                self._names.setdefault(card.name_ru.casefold(), card)
                self._names.setdefault(card.name_en.casefold(), card)

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def find(self, name: str) -> Card:
        try:
            return self._names[name.casefold()]
        except KeyError:
            raise KeyError(f"no Ascension card named {name!r}") from None

    def by_pile(self, pile: str) -> list[Card]:
        return [c for c in self.cards.values() if c.pile == pile]


def _card(raw: Any, index: int, code: str, check: Checker, numbers: set[int]) -> Card:
    check.card = f"#{index + 1}"
    if not isinstance(raw, Mapping):
        raise check.fail("", "a card is a JSON object")
    number = check.integer(raw.get("number"), "number", minimum=1)
    card_id = check.at_card(code, number)
    if number in numbers:
        raise check.fail("number", f"{number} is used by another card of the set")
    numbers.add(number)
    check.required(raw, ("name",))
    name_ru, name_en = check.text_pair(raw["name"], "name")
    check.at_card(code, number, name_ru)
    check.unknown(raw, CARD_FIELDS)
    check.required(raw, ("type", "cost", "copies", "text"))
    card_type = raw["type"]
    if card_type not in CARD_TYPES:
        raise check.fail("type", f"unknown type {card_type!r}; use {', '.join(CARD_TYPES)}")
    pile = raw.get("pile", "center")
    if pile not in PILES:
        raise check.fail("pile", f"unknown pile {pile!r}; use {', '.join(PILES)}")
    faction = raw.get("faction")
    if faction is not None and faction not in FACTIONS:
        raise check.fail("faction", f"unknown faction {faction!r}; use {', '.join(FACTIONS)}")
    if card_type == "monster" and faction is not None:
        raise check.fail("faction", "Monsters belong to no faction (A-14)")
    if card_type != "monster" and pile == "center" and faction is None:
        raise check.fail("faction", "a center-deck Hero or Construct needs a faction (A-13)")
    if pile != "center" and faction is not None:
        raise check.fail("faction", "starter and always-available cards have no faction")
    if pile == "starter" and card_type != "hero":
        raise check.fail("pile", "starter cards are Heroes (A-6)")
    minimum = 0 if pile == "starter" else 1
    cost = check.integer(raw["cost"], "cost", minimum=minimum)
    honor = check.integer(raw.get("honor", 0), "honor")
    if card_type == "monster" and honor:
        raise check.fail("honor", "a Monster has no honor value; give honor in its reward")
    copies = check.integer(raw["copies"], "copies", minimum=1)
    text_ru, text_en = check.text_pair(raw["text"], "text", allow_empty=True)
    flavour_ru, flavour_en = ("", "")
    if "flavour" in raw:
        flavour_ru, flavour_en = check.text_pair(raw["flavour"], "flavour")
    abilities = raw.get("abilities", [])
    if not isinstance(abilities, list):
        raise check.fail("abilities", "must be a list")
    for i, ability in enumerate(abilities):
        try:
            validate_ability(ability, f"abilities[{i}]", card_type)
        except EffectError as exc:
            raise check.fail(exc.path, exc.message) from None
        if ability["kind"] == "unite" and faction is None:
            raise check.fail(f"abilities[{i}].kind", "Unite needs a faction (A-46)")
    if card_type == "monster" and not any(a["kind"] == "reward" for a in abilities):
        raise check.fail("abilities", "a Monster needs a reward ability (A-14)")
    if abilities and not (text_ru.strip() and text_en.strip()):
        raise check.fail("text", "a card with abilities needs its rules text")
    return Card(
        id=card_id,
        set_code=code,
        number=number,
        name_ru=name_ru,
        name_en=name_en,
        type=card_type,
        faction=faction,
        cost=cost,
        honor=honor,
        copies=copies,
        pile=pile,
        text_ru=text_ru,
        text_en=text_en,
        flavour_ru=flavour_ru,
        flavour_en=flavour_en,
        abilities=tuple(abilities),
    )


def parse_set(data: Any, source: str) -> CardSet:
    """Validate the decoded JSON of one set file (``source`` names it in errors)."""
    check = Checker(source)
    header = cardjson.set_header(data, SET_FIELDS, check)
    code = header.code
    numbers: set[int] = set()
    cards = [_card(raw, i, code, check, numbers) for i, raw in enumerate(header.cards)]
    check.card = None
    for lang in ("ru", "en"):
        seen: set[str] = set()
        for card in cards:
            name = (card.name_ru if lang == "ru" else card.name_en).casefold()
            if name in seen:
                check.card = card.id
                raise check.fail(f"name.{lang}", "another card of the set has this name")
            seen.add(name)
    return CardSet(code, header.name_ru, header.name_en, header.released, tuple(cards))


def load_set(path: Path) -> CardSet:
    """Read and validate one set file."""
    path = Path(path)
    check = Checker(cardjson.display(path))
    return parse_set(cardjson.read_json(path, check), check.source)


@functools.lru_cache(maxsize=4)
def load_system(directory: str | None = None) -> CardDB:
    """Every set file of ``directory`` (default ``engine/sets/ascension``)."""
    folder = Path(directory) if directory else SETS_DIR
    sets = [load_set(p) for p in cardjson.set_files(folder)]
    codes: set[str] = set()
    for card_set in sets:
        if card_set.code in codes:
            raise CardDataError(str(folder), f"two sets have the code {card_set.code}")
        codes.add(card_set.code)
    db = CardDB(sets)
    for pile, needed in (("starter", 1), ("always", 1), ("center", 6)):
        if len(db.by_pile(pile)) < needed:
            raise CardDataError(str(folder), f"the sets hold no {pile} cards")
    return db
