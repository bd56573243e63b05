"""Load and validate the JSON set files of a game system (format: docs/card-format.md).

``load_set(path)`` reads one set file into a :class:`~engine.voskhozhdenie.cards.CardSet`;
``load_system(system)`` reads every ``*.json`` file in ``engine/sets/<system>/``
(files whose name starts with ``_`` are not sets) into a cached
:class:`~engine.voskhozhdenie.cards.CardDB`. The file is read strictly by the shared
``engine.core.cardjson``; this module holds «Восхождение»'s own fields and rules. Any
problem raises :class:`CardDataError` naming the file, the card (id and Russian name) and
the field, e.g.::

    engine/sets/voskhozhdenie/vs1.json: card VS1-017 «Name»: strength: a Tactic has
    no Strength (rule 2.1.9.1)
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from engine.core.cardjson import (
    SETS_DIR,
    CardDataError,
    Checker,
    display,
    read_json,
    set_files,
    set_header,
)
from engine.voskhozhdenie.cards import (
    CARD_TYPES,
    COLOURS,
    HAS_STRENGTH,
    KEYWORDS,
    RARITIES,
    SUBTYPE_COUNT,
    SUBTYPES,
    BoosterSlot,
    BoosterSpec,
    Card,
    CardDB,
    CardSet,
    Cost,
    normalise_name,
)
from engine.voskhozhdenie.effects import EffectError, validate_ability

SET_FIELDS = {"code", "name", "released", "booster", "places", "cards"}
CARD_FIELDS = {
    "number",
    "name",
    "type",
    "subtypes",
    "colours",
    "cost",
    "strength",
    "supply",
    "keywords",
    "minor",
    "rarity",
    "text",
    "flavour",
    "abilities",
}
TYPE_NAMES = {
    "city": "City",
    "squad": "Squad",
    "tactic": "Tactic",
    "order": "Order",
    "relic": "Relic",
    "fortification": "Fortification",
    "patron": "Patron",
}
FREE_SUBTYPE_TYPES = tuple(t for t, allowed in SUBTYPES.items() if allowed is None)
SUPPLY_TYPES = ("city", "fortification")  # the cards that may carry Supply symbols (5.5)
# Ability kinds only some types may have.
KIND_TYPES = {
    "dynamic": ("order",),  # 6.3.1.1
    "superiority": ("tactic",),  # 5.6.4.2.2
    "outcome": ("tactic",),  # 5.6.4.3
}
_PLACE = re.compile(r"^[a-z][a-z0-9_]*$")
_SYSTEM = re.compile(r"^[a-z][a-z0-9_-]*$")


def load_set(path: Path) -> CardSet:
    """Read and validate one set file."""
    path = Path(path)
    check = Checker(display(path))
    data = read_json(path, check)
    header = set_header(data, SET_FIELDS, check)
    code = header.code
    places = _places(data.get("places", {}), check)

    cards: list[Card] = []
    ids: set[str] = set()
    names_ru: dict[str, str] = {}
    names_en: dict[str, str] = {}
    for index, raw in enumerate(header.cards):
        check.card = None
        card = _card(raw, index, code, places, check)
        if card.id in ids:
            raise check.fail("number", f"another card already has number {card.number}")
        ids.add(card.id)
        for lang, seen, name in (
            ("ru", names_ru, card.name_ru),
            ("en", names_en, card.name_en),
        ):
            key = normalise_name(name)
            if key in seen:
                raise check.fail(f"name.{lang}", f"{seen[key]} already has this name")
            seen[key] = card.id
        cards.append(card)
    check.card = None

    by_id = {card.id: card for card in cards}
    for card in cards:
        _check_references(card, by_id, code, check)
    booster = _booster(data.get("booster"), cards, check)
    return CardSet(
        code=code,
        name_ru=header.name_ru,
        name_en=header.name_en,
        released=header.released,
        cards=tuple(cards),
        booster=booster,
        source=check.source,
        places=places,
    )


@functools.lru_cache(maxsize=16)
def load_system(system: str) -> CardDB:
    """Every set of one game system (cached: the files are read once per process)."""
    if not isinstance(system, str) or not _SYSTEM.match(system):
        raise CardDataError(str(system), "a game system is a lower-case name, e.g. voskhozhdenie")
    folder = SETS_DIR / system
    files = set_files(folder)
    if not files:
        raise CardDataError(display(folder), f"no set files for game system {system!r}")
    sets = [load_set(p) for p in files]
    codes: dict[str, str] = {}
    for card_set in sets:
        if card_set.code in codes:
            raise CardDataError(
                card_set.source, f"set code {card_set.code} is also used by {codes[card_set.code]}"
            )
        codes[card_set.code] = card_set.source
    db = CardDB.build(system, sets)
    by_id = {card.id: card for card in db.all_cards()}
    for card_set in sets:
        check = Checker(card_set.source)
        for card in card_set.cards:
            _check_references(card, by_id, None, check)
    return db


def _places(value: Any, check: Checker) -> dict[str, dict[str, str]]:
    if not isinstance(value, Mapping):
        raise check.fail("places", 'must map a place key to {"ru": ..., "en": ...}')
    places = {}
    for key, names in value.items():
        if not _PLACE.match(key):
            raise check.fail(f"places.{key}", "a place key is lower-case latin, e.g. dawn_throne")
        ru, en = check.text_pair(names, f"places.{key}")
        places[key] = {"ru": ru, "en": en}
    return places


def _card(raw: Any, index: int, code: str, places: Mapping[str, Any], check: Checker) -> Card:
    if not isinstance(raw, Mapping):
        raise check.fail(f"cards[{index}]", "a card is a JSON object")
    if "number" not in raw:
        raise check.fail(f"cards[{index}].number", "is required")
    number = check.integer(raw["number"], f"cards[{index}].number", minimum=1)
    name = raw.get("name")
    card_id = check.at_card(code, number, name.get("ru") if isinstance(name, Mapping) else None)
    check.unknown(raw, CARD_FIELDS)
    check.required(raw, ("name", "type", "colours", "rarity", "text"))
    name_ru, name_en = check.text_pair(name, "name")

    card_type = raw["type"]
    if isinstance(card_type, list):
        if len(card_type) == 1 and card_type[0] in CARD_TYPES:
            raise check.fail("type", "is one string, not a list")
        raise check.fail("type", "a card has exactly one type (rule 2.1.5.2)")
    if card_type not in CARD_TYPES:
        raise check.fail("type", f"unknown type {card_type!r}; use one of {', '.join(CARD_TYPES)}")
    type_name = TYPE_NAMES[card_type]

    subtypes = check.str_list(raw.get("subtypes", []), "subtypes")
    low, high = SUBTYPE_COUNT[card_type]
    if not low <= len(subtypes) <= high:
        count = f"exactly {low}" if low == high else f"{low} to {high}"
        raise check.fail("subtypes", f"a {type_name} has {count} subtype(s) (rule 2.1.6.1)")
    allowed = SUBTYPES[card_type]
    for i, subtype in enumerate(subtypes):
        if allowed is None:
            if subtype not in places:
                raise check.fail(
                    f"subtypes[{i}]",
                    f"{subtype!r} is not a place of this set (define it under 'places')",
                )
        elif subtype not in allowed:
            raise check.fail(
                f"subtypes[{i}]",
                f"a {type_name} cannot have subtype {subtype!r}; use {', '.join(allowed)}",
            )

    colours = check.str_list(raw["colours"], "colours")
    for i, colour in enumerate(colours):
        if colour not in COLOURS:
            raise check.fail(
                f"colours[{i}]", f"unknown colour {colour!r}; use {', '.join(COLOURS)}"
            )

    cost = _cost(raw.get("cost"), check)

    strength = raw.get("strength")
    if card_type in HAS_STRENGTH:
        if strength is None:
            raise check.fail("strength", f"a {type_name} needs Strength (rule 2.1.9.1)")
        strength = check.integer(strength, "strength", minimum=1)
    elif strength is not None:
        raise check.fail("strength", f"a {type_name} has no Strength (rule 2.1.9.1)")

    supply = check.integer(raw.get("supply", 0), "supply")
    if supply and card_type not in SUPPLY_TYPES:
        raise check.fail("supply", f"a {type_name} carries no Supply symbols (rule 5.5)")

    keywords = check.str_list(raw.get("keywords", []), "keywords")
    for i, keyword in enumerate(keywords):
        if keyword not in KEYWORDS:
            raise check.fail(
                f"keywords[{i}]", f"unknown keyword {keyword!r}; use {', '.join(KEYWORDS)}"
            )
    if "zeal" in keywords and card_type != "squad":
        raise check.fail("keywords", "only a Squad can have Zeal (rule 5.6.3.2.3.1)")
    if "reinforcement" in keywords and card_type == "city":
        raise check.fail("keywords", "a City cannot be in the Reinforcement Deck (rule 4.5.1.8)")

    minor = check.boolean(raw.get("minor", False), "minor")
    if minor and card_type == "order":
        raise check.fail("minor", "an Order cannot be on the Battlefield, so it cannot be Minor")
    if minor and "reinforcement" in keywords:
        raise check.fail("minor", "a Minor card is never in a deck (rule 4.5.1.3)")

    rarity = raw["rarity"]
    if rarity not in RARITIES:
        raise check.fail("rarity", f"unknown rarity {rarity!r}; use {', '.join(RARITIES)}")
    if minor and rarity != "common":
        raise check.fail("rarity", "a Minor card has rarity common (it is never in a booster)")

    text_ru, text_en = check.text_pair(raw["text"], "text", allow_empty=True)
    flavour_ru, flavour_en = ("", "")
    if "flavour" in raw:
        flavour_ru, flavour_en = check.text_pair(raw["flavour"], "flavour")

    abilities = raw.get("abilities", [])
    if not isinstance(abilities, list):
        raise check.fail("abilities", "must be a list")
    for i, ability in enumerate(abilities):
        try:
            validate_ability(ability, f"abilities[{i}]")
        except EffectError as exc:
            raise check.fail(exc.path, exc.message) from None
        kinds = KIND_TYPES.get(ability["kind"])
        if kinds and card_type not in kinds:
            raise check.fail(
                f"abilities[{i}].kind",
                f"a {type_name} cannot have a {ability['kind']} ability",
            )
    if card_type == "order" and not any(a["kind"] == "dynamic" for a in abilities):
        raise check.fail("abilities", "an Order needs a dynamic ability (rule 6.4.3)")
    if (abilities or keywords) and not (text_ru.strip() and text_en.strip()):
        raise check.fail("text", "a card with abilities or keywords needs its rules text")

    return Card(
        id=card_id,
        set_code=code,
        number=number,
        name_ru=name_ru,
        name_en=name_en,
        type=card_type,
        subtypes=tuple(subtypes),
        colours=frozenset(colours),
        cost=cost,
        strength=strength,
        supply=supply,
        keywords=frozenset(keywords),
        minor=minor,
        rarity=rarity,
        text_ru=text_ru,
        text_en=text_en,
        flavour_ru=flavour_ru,
        flavour_en=flavour_en,
        abilities=tuple(abilities),
    )


def _cost(value: Any, check: Checker) -> Cost | None:
    if value is None:
        return None  # no Cost: the card cannot be played (2.1.2.1)
    if value == "X":
        return Cost(x=True)
    if isinstance(value, int) and not isinstance(value, bool):
        return Cost(coins=check.integer(value, "cost"))
    if isinstance(value, Mapping) and set(value) == {"supply"}:
        return Cost(supply=check.integer(value["supply"], "cost.supply", minimum=1))
    raise check.fail("cost", f'is coins (an integer >= 0), "X" or {{"supply": n}}, not {value!r}')


def _references(value: Any, path: str) -> Iterator[tuple[str, str, str]]:
    """(path, kind, card id) of every card id an ability names."""
    if isinstance(value, Mapping):
        if value.get("op") == "create_minor" and isinstance(value.get("card"), str):
            yield f"{path}.card", "minor", value["card"]
        for key, item in value.items():
            if key == "name" and isinstance(item, str) and "op" not in value:
                yield f"{path}.name", "card", item
            else:
                yield from _references(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _references(item, f"{path}[{i}]")


def _check_references(
    card: Card, by_id: Mapping[str, Card], code: str | None, check: Checker
) -> None:
    """Card ids named by abilities exist (``code``: only check ids of that set)."""
    check.card = f"{card.id} «{card.name_ru}»"
    for i, ability in enumerate(card.abilities):
        for path, kind, ref in _references(ability, f"abilities[{i}]"):
            if code is not None and not ref.startswith(f"{code}-"):
                continue  # another set's card: checked by load_system
            target = by_id.get(ref)
            if target is None:
                raise check.fail(path, f"no card {ref}")
            if kind == "minor" and not target.minor:
                raise check.fail(path, f"{ref} «{target.name_ru}» is not a Minor card")
    check.card = None


def _booster(value: Any, cards: list[Card], check: Checker) -> BoosterSpec | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"size", "slots"}:
        raise check.fail("booster", 'is null or {"size": n, "slots": [...]}')
    size = check.integer(value["size"], "booster.size", minimum=1)
    if not isinstance(value["slots"], list) or not value["slots"]:
        raise check.fail("booster.slots", "must be a non-empty list")
    slots = []
    for i, raw in enumerate(value["slots"]):
        field = f"booster.slots[{i}]"
        if not isinstance(raw, Mapping):
            raise check.fail(field, "a slot is an object")
        check.unknown(raw, ("rarity", "count", "types", "upgrade", "upgrade_chance"), field)
        if raw.get("rarity") not in RARITIES:
            raise check.fail(f"{field}.rarity", f"use one of {', '.join(RARITIES)}")
        count = check.integer(raw.get("count"), f"{field}.count", minimum=1)
        types = check.str_list(raw.get("types", []), f"{field}.types")
        for j, card_type in enumerate(types):
            if card_type not in CARD_TYPES:
                raise check.fail(f"{field}.types[{j}]", f"unknown type {card_type!r}")
        upgrade = raw.get("upgrade")
        chance = raw.get("upgrade_chance", 0.0)
        if upgrade is not None and upgrade not in RARITIES:
            raise check.fail(f"{field}.upgrade", f"use one of {', '.join(RARITIES)}")
        if isinstance(chance, bool) or not isinstance(chance, int | float):
            raise check.fail(f"{field}.upgrade_chance", "must be a number")
        if (upgrade is None) != (chance == 0) or not 0 <= chance <= 1:
            raise check.fail(
                f"{field}.upgrade_chance", "give upgrade with an upgrade_chance in (0, 1]"
            )
        slots.append(BoosterSlot(raw["rarity"], count, tuple(types), upgrade, float(chance)))
    total = sum(slot.count for slot in slots)
    if total != size:
        raise check.fail("booster", f"the slots hold {total} cards, but size is {size}")
    _check_fillable(slots, cards, check)
    return BoosterSpec(size=size, slots=tuple(slots))


def booster_pool(
    slot: BoosterSlot, cards: list[Card] | tuple[Card, ...], rarity: str
) -> list[Card]:
    """The cards one slot draws from when it gives ``rarity`` (never Minor cards)."""
    return [
        c
        for c in cards
        if not c.minor and c.rarity == rarity and (not slot.types or c.type in slot.types)
    ]


def _check_fillable(slots: list[BoosterSlot], cards: list[Card], check: Checker) -> None:
    """Every way the slots can come out fills a booster with distinct cards (Hall's theorem)."""
    options = [[s.rarity] + ([s.upgrade] if s.upgrade else []) for s in slots]
    for rarities in itertools.product(*options):
        pools = [
            {c.id for c in booster_pool(slot, cards, rarity)}
            for slot, rarity in zip(slots, rarities, strict=True)
        ]
        for size in range(1, len(slots) + 1):
            for group in itertools.combinations(range(len(slots)), size):
                need = sum(slots[i].count for i in group)
                have = len(set().union(*(pools[i] for i in group)))
                if have < need:
                    described = ", ".join(
                        f"slot {i} ({rarities[i]}"
                        + (f" {'/'.join(slots[i].types)}" if slots[i].types else "")
                        + ")"
                        for i in group
                    )
                    raise check.fail(
                        "booster",
                        f"{described} need {need} different cards but the set has {have}",
                    )
