"""Berserk cards: the loader of ``engine/sets/berserk/*.json`` (docs/card-format.md, "Berserk").

The set files follow the shared conventions (one JSON object per release, ``{"code",
"name": {"ru", "en"}, "released", "booster", "cards": [...]}``) and are read strictly by
``engine.core.cardjson``: a key given twice, an unknown field or a value of the wrong type
is refused, and every error names the file, the card and the field. This module adds
Berserk's own rules (200-214 of the Russian text, §13 of the digest), each refusal citing
its rule number::

    engine/sets/berserk/bk1.json: card BK1-017 «Имя»: lives: a terrain has no lives
    (it blocks every attack and takes no wounds) [212.1]

A card::

    {"number": 17, "name": {"ru": ..., "en": ...}, "type": "creature", "element": "forest",
     "cost": 4, "elite": false, "movement": 1, "lives": 5, "strike": [1, 2, 3],
     "classes": ["warrior"], "abilities": [{"name": "armour", "x": 1}],
     "rarity": "common", "text": {"ru": ..., "en": ...}}

builds an ``engine.berserk.model.Card`` (neutral is ``"neutral"`` in the file and ``""`` on
the Card). ``card_text`` writes the rules text from the abilities in both languages; the
set source (``engine.berserk.setdata``) uses it, so the text always says what the
abilities do. ``load_system()`` reads every set (cached) into a ``CardDB``.

Pure Python, no Django.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from engine.berserk.model import (
    ELEMENT_NAMES,
    ELEMENTS,
    EQUIPMENT_CLASSES,
    NAMED,
    SUBTYPES,
    TYPES,
    Ability,
    Card,
)
from engine.core import cardjson
from engine.core.cardjson import CardDataError, Checker

__all__ = [
    "CLASSES",
    "PROTECTION_KINDS",
    "RARITIES",
    "SCRIPT_DO",
    "SCRIPT_TARGETS",
    "SCRIPT_WHEN",
    "BoosterSlot",
    "BoosterSpec",
    "CardDB",
    "CardDataError",
    "CardSet",
    "ability_text",
    "card_text",
    "load_set",
    "load_system",
    "normalise_name",
    "parse_set",
]

SETS_DIR = cardjson.SETS_DIR / "berserk"
SET_FIELDS = {"code", "name", "released", "booster", "cards"}
CARD_FIELDS = {
    "number",
    "name",
    "type",
    "subtype",
    "element",
    "cost",
    "cost_x",
    "elite",
    "movement",
    "lives",
    "strike",
    "classes",
    "abilities",
    "rarity",
    "text",
    "flavour",
}
ABILITY_FIELDS = {"name", "x", "of", "script"}
RARITIES = ("common", "uncommon", "rare")
NEUTRAL = "neutral"  # the file's word for a card without element [202.9]

# Classes [208.6]: creature classes (a small vocabulary) and the equipment classes [214.2].
CLASSES: dict[str, tuple[str, str]] = {
    "warrior": ("Warrior", "Воин"),
    "mage": ("Mage", "Маг"),
    "beast": ("Beast", "Зверь"),
    "spirit": ("Spirit", "Дух"),
    "undead": ("Undead", "Нежить"),
    "hunter": ("Hunter", "Охотник"),
    "weapon": ("Weapon", "Оружие"),
    "armour": ("Armour", "Доспех"),
    "shield": ("Shield", "Щит"),
}
CREATURE_CLASSES = tuple(k for k in CLASSES if k not in EQUIPMENT_CLASSES)

# What a Protection guards against [411, 104.7] (and a Vulnerability is open to):
# key -> (English "from ...", Russian "от ...").
PROTECTION_KINDS: dict[str, tuple[str, str]] = {
    "magic": ("magic", "магии"),
    "discharges": ("discharges", "разрядов"),
    "spells": ("spells", "заклинаний"),
    "shots": ("shots", "выстрелов"),
    "throws": ("throws", "метаний"),
    "poison": ("poison", "отравления"),
    "instant": ("instant actions", "внезапных действий"),
}
# ``of`` of a named ability: required for Protection, optional for Vulnerability (a
# kind), required for Summon and Resurrection (the creature class they bring).
OF_RULES = {
    "protection": "kind",
    "vulnerability": "kind?",
    "summon": "class",
    "resurrection": "class",
}

# Named abilities only some cards may have (digest §13, [С: ...]).
CREATURE_ONLY = {
    "incorporeal": "[С: Бестелесность]",
    "thirst": "[С: Жажда]",
    "clumsiness": "[С: Неповоротливость]",
    "regeneration": "[С: Регенерация]",
    "corpse_eating": "[С: Трупоедство]",
    "plague": "[С: Чума]",
    "unity": "[С: Единение]",
    "manoeuvre": "[С: Манёвр]",
    "jump": "[С: Прыжок]",
    "teleport": "[С: Телепортация]",
    "formation": "[С: Строй]",
    "vampirism": "[С: Вампиризм]",
}
NO_SUBTYPE_ONLY = {
    "manoeuvre": "[С: Манёвр]",
    "jump": "[С: Прыжок]",
    "teleport": "[С: Телепортация]",
    "formation": "[С: Строй]",
}
# Terrain and equipment do not fight and take no wounds [212.1, 214.1]: they carry no
# named ability of their own but these (equipment gives its host abilities by script).
NON_FIGHTER_NAMED = {"uniqueness", "horde", "cache"}

# The script vocabulary (docs/card-format.md, "Berserk: scripted abilities").
SCRIPT_FIELDS = {"when", "do", "amount", "target", "class", "if", "tokens", "ability", "instant"}
# when -> (English prefix, Russian prefix)
SCRIPT_WHEN: dict[str, tuple[str, str]] = {
    "static": ("", ""),
    "start_of_battle": ("At the start of the battle: ", "В начале боя: "),
    "turn_start": ("At the start of your turn: ", "В начале вашего хода: "),
    "turn_end": ("At the end of your turn: ", "В конце вашего хода: "),
    "on_death": ("On death: ", "При гибели: "),
    "after_strike": ("After its simple strike: ", "После нападения простым ударом: "),
    "activated": ("Close: ", "Закрыться: "),
    "starts_with": ("Starts the battle with ", "Начинает бой с "),  # 304.4, 419.1в
}
# Static effects on other cards' actions (engine/berserk/effects.py): a block of moves
# (410.5), a prohibition to gain tokens (103.2), replacements of a death (419).
EFFECT_DO = ("block_move", "no_tokens", "prevent", "death_to_deck", "death_survive")
STATIC_DO = ("strike_bonus", "roll_bonus", "movement_bonus", "grant", *EFFECT_DO)
ONCE_DO = ("heal", "wound", "add_lives", "gain_token", "open", "take_control", "lose_abilities")
SCRIPT_DO = STATIC_DO + ONCE_DO
# target -> (English, Russian accusative, Russian dative, Russian nominative)
SCRIPT_TARGETS: dict[str, tuple[str, str, str, str]] = {
    "self": ("this card", "эту карту", "этой карте", "эта карта"),
    "host": ("its host", "хозяина", "хозяину", "хозяин"),
    "adjacent_own": (
        "a chosen adjacent creature of yours",
        "выбранное рядомстоящее своё существо",
        "выбранному рядомстоящему своему существу",
        "",
    ),
    "adjacent_enemy": (
        "a chosen adjacent enemy creature",
        "выбранное рядомстоящее существо противника",
        "выбранному рядомстоящему существу противника",
        "",
    ),
    "any_own": (
        "a chosen creature of yours",
        "выбранное своё существо",
        "выбранному своему существу",
        "",
    ),
    "any_enemy": (
        "a chosen enemy creature",
        "выбранное существо противника",
        "выбранному существу противника",
        "",
    ),
    "all_own": (
        "each other creature of yours",
        "каждое другое своё существо",
        "каждому другому своему существу",
        "каждое другое своё существо",
    ),
    "all_adjacent_own": (
        "each adjacent creature of yours",
        "каждое рядомстоящее своё существо",
        "каждому рядомстоящему своему существу",
        "каждое рядомстоящее своё существо",
    ),
    "all_adjacent_enemy": (
        "each adjacent enemy creature",
        "каждое рядомстоящее существо противника",
        "каждому рядомстоящему существу противника",
        "каждое рядомстоящее существо противника",
    ),
}
STATIC_TARGETS = ("self", "host", "all_own", "all_adjacent_own", "all_adjacent_enemy")
HOSTED = "hosted"  # the "host" target: equipment, symbiotes, parasites [210.2, 214.4]
SCRIPT_IF = ("in_formation",)


# ---------------------------------------------------------------- the model of a set


@dataclass(frozen=True)
class BoosterSlot:
    rarity: str  # draw ``count`` different cards of this rarity
    count: int


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
    booster: BoosterSpec | None = None  # None: not sold in boosters
    source: str = ""


def normalise_name(name: str) -> str:
    """A name for look-ups: case, spacing and ё/е ignored."""
    return " ".join(name.replace("ё", "е").replace("Ё", "Е").split()).casefold()


class CardDB:
    """Every Berserk set: cards by id and by name (either language), sets by code."""

    def __init__(self, sets: Iterable[CardSet]):
        self.sets: tuple[CardSet, ...] = tuple(sorted(sets, key=lambda s: (s.released, s.code)))
        self.cards: dict[str, Card] = {}
        self._names: dict[str, Card] = {}
        for card_set in self.sets:
            for card in card_set.cards:
                self.cards[card.id] = card
                self._names.setdefault(normalise_name(card.name_ru), card)
                self._names.setdefault(normalise_name(card.name_en), card)

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def get(self, card_id: str) -> Card | None:
        return self.cards.get(card_id)

    def find(self, name: str) -> Card | None:
        """The card with this Russian or English name (case, spacing and ё/е ignored)."""
        return self._names.get(normalise_name(name))

    def all_cards(self) -> tuple[Card, ...]:
        return tuple(self.cards.values())

    def get_set(self, code: str) -> CardSet:
        for card_set in self.sets:
            if card_set.code == code:
                return card_set
        raise KeyError(code)

    def printings(self, card: Card) -> tuple[Card, ...]:
        """Every card with this card's Russian name: copies [Г: Копия, 100.2б]."""
        key = normalise_name(card.name_ru)
        return tuple(c for c in self.cards.values() if normalise_name(c.name_ru) == key)


# ---------------------------------------------------------------- rules text


def _plural_ru(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


# Named abilities written "<name> на X" in Russian (attacks and effects "for X").
_RU_NA = {"shot", "throw", "discharge", "finishing", "poison", "strike_through_row", "heal"}


def ability_text(ability: Ability, language: str, card_type: str = "creature") -> str:
    """One ability as the card prints it (no final full stop); ``card_type`` words a
    script's "each other creature of yours" ("each creature of yours" off a creature)."""
    ru = language.startswith("ru")
    if ability.name:
        en_name, ru_name, _takes_x = NAMED[ability.name]
        if ability.name in ("summon", "resurrection"):
            return _summon_text(ability, ru)
        text = ru_name if ru else en_name
        if ability.of:
            en_of, ru_of = PROTECTION_KINDS[ability.of]
            if ability.name == "protection":
                return f"{ru_name} от {ru_of}" if ru else f"{en_name} from {en_of}"
            return f"{ru_name} к {_RU_DATIVE_KIND[ability.of]}" if ru else f"{en_name} to {en_of}"
        if ability.x is not None:
            if ru:
                return f"{text} на {ability.x}" if ability.name in _RU_NA else f"{text} {ability.x}"
            return f"{text} {ability.x}"
        return text
    return _script_text(ability.script, ru, card_type)


_RU_DATIVE_KIND = {
    "magic": "магии",
    "discharges": "разрядам",
    "spells": "заклинаниям",
    "shots": "выстрелам",
    "throws": "метаниям",
    "poison": "отравлению",
    "instant": "внезапным действиям",
}


def _summon_text(ability: Ability, ru: bool) -> str:
    en_class, ru_class = CLASSES[ability.of]
    if ability.name == "summon":
        if ru:
            return (
                f"Вызов: закрыться: вызовите из своей колоды существо с классом «{ru_class}» "
                "дешевле этой карты на свободную рядомстоящую клетку"
            )
        return (
            f"Summon: close: summon a creature of class {en_class} cheaper than this card "
            "from your deck onto an empty adjacent cell"
        )
    if ru:
        return (
            f"Возрождение: закрыться: возродите со своего кладбища существо с классом "
            f"«{ru_class}» дешевле этой карты на свободную рядомстоящую клетку"
        )
    return (
        f"Resurrection: close: resurrect a creature of class {en_class} cheaper than this "
        "card from your graveyard onto an empty adjacent cell"
    )


def _amount_text(amount: Any) -> str:
    return "X" if amount == "x" else str(amount)


def _signed(amount: Any) -> str:
    if amount == "x":
        return "+X"
    return f"+{amount}" if amount > 0 else f"-{-amount}"


_WOULD_DIE = {  # target -> (English, Russian) of "if … would die"
    "all_adjacent_own": ("an adjacent creature of yours", "рядомстоящее своё существо"),
    "all_adjacent_enemy": ("an adjacent enemy creature", "рядомстоящее существо противника"),
}


def _effect_text(script: Mapping[str, Any], ru: bool) -> str | None:
    """The text of a "starts_with" script or of a static effect (EFFECT_DO), else None."""
    do, amount = script["do"], script.get("amount")
    if script["when"] == "starts_with":
        if do == "gain_token":
            return (
                f"Начинает бой с {amount} {_plural_ru(amount, 'фишкой', 'фишками', 'фишками')}"
                if ru
                else f"Starts the battle with {amount} token{'s' if amount != 1 else ''}"
            )
        return (
            f"Начинает бой с {amount} "
            + _plural_ru(
                amount,
                "дополнительной жизнью",
                "дополнительными жизнями",
                "дополнительными жизнями",
            )
            if ru
            else f"Starts the battle with {amount} additional li{'fe' if amount == 1 else 'ves'}"
        )
    if do == "block_move":
        return (
            "Блокирует движение каждого рядомстоящего существа противника "
            "(маркер движения оно всё равно получает)"
            if ru
            else "Blocks the moves of each adjacent enemy creature "
            "(it still gains the movement marker)"
        )
    if do == "prevent":
        who = "каждому рядомстоящему " + (
            "своему существу"
            if script.get("target") == "all_adjacent_own"
            else "существу противника"
        )
        en_who = (
            "each adjacent creature of yours"
            if script.get("target") == "all_adjacent_own"
            else "each adjacent enemy creature"
        )
        return (
            f"Каждый ход предотвращает {amount} {_plural_ru(amount, 'рану', 'раны', 'ран')} "
            f"от немагических атак, наносимых {who}"
            if ru
            else f"Each turn, prevents {amount} wound{'s' if amount != 1 else ''} "
            f"of non-magical attacks dealt to {en_who}"
        )
    if do == "no_tokens":
        return (
            "Каждое рядомстоящее существо противника не может получать фишки"
            if ru
            else "Each adjacent enemy creature cannot gain tokens"
        )
    if do in ("death_to_deck", "death_survive"):
        en, ru_who = _WOULD_DIE[script.get("target", "all_adjacent_own")]
        if do == "death_to_deck":
            return (
                f"Если {ru_who} должно погибнуть, вместо этого оно возвращается в колоду владельца"
                if ru
                else f"If {en} would die, instead it returns to its owner's deck"
            )
        return (
            f"Один раз за бой: если {ru_who} должно погибнуть, вместо этого у него остаётся "
            f"{amount} {_plural_ru(amount, 'жизнь', 'жизни', 'жизней')}"
            if ru
            else f"Once per battle: if {en} would die, instead it is left with {amount} "
            f"li{'fe' if amount == 1 else 'ves'}"
        )
    return None


def _script_text(script: Mapping[str, Any], ru: bool, card_type: str) -> str:
    effect = _effect_text(script, ru)
    if effect is not None:
        return effect
    when = script["when"]
    prefix = SCRIPT_WHEN[when][1 if ru else 0]
    if when == "activated" and script.get("tokens"):
        n = script["tokens"]
        prefix = (
            f"Снять {n} {_plural_ru(n, 'фишку', 'фишки', 'фишек')}: "
            if ru
            else f"Remove {n} token{'s' if n > 1 else ''}: "
        )
    if script.get("if") == "in_formation":
        prefix = ("Строй: " if ru else "Formation: ") + prefix
    if script.get("instant"):  # 104.6, 404.6: declarable whenever its controller has priority
        prefix = ("Внезапное действие. " if ru else "Instant. ") + prefix
    en, acc, dat, nom = SCRIPT_TARGETS[script.get("target", "self")]
    if script.get("target") == "all_own" and card_type != "creature":
        en = en.replace(" other", "")
        acc, dat, nom = (t.replace(" другое", "").replace(" другому", "") for t in (acc, dat, nom))
    cls = script.get("class")
    if cls:
        en_class, ru_class = CLASSES[cls]
        en += f" of class {en_class}"
        suffix = f" с классом «{ru_class}»"
        acc, dat, nom = acc + suffix, dat + suffix, nom + suffix
    do = script["do"]
    amount = script.get("amount")
    n = amount if isinstance(amount, int) else 5  # "X" takes the genitive plural
    a = _amount_text(amount)
    if do == "heal":
        body = f"излечите {acc} на {a}" if ru else f"heal {en} by {a}"
    elif do == "wound":
        body = (
            f"нанесите {dat} {a} {_plural_ru(n, 'рану', 'раны', 'ран')}"
            if ru
            else f"deal {a} wound{'s' if n != 1 else ''} to {en}"
        )
    elif do == "add_lives":
        body = (
            f"дайте {dat} {a} "
            + _plural_ru(n, "дополнительную жизнь", "дополнительные жизни", "дополнительных жизней")
            if ru
            else f"give {en} {a} additional li{'fe' if n == 1 else 'ves'}"
        )
    elif do == "gain_token":
        body = (
            f"положите на {acc} {a} {_plural_ru(n, 'фишку', 'фишки', 'фишек')}"
            if ru
            else f"put {a} token{'s' if n != 1 else ''} on {en}"
        )
    elif do == "open":
        body = f"откройте {acc}" if ru else f"open {en}"
    elif do == "take_control":
        body = f"возьмите под контроль {acc}" if ru else f"take control of {en}"
    elif do == "lose_abilities":  # 407.4
        body = (
            f"{acc} лишается всех особенностей до конца боя"
            if ru
            else f"{en} loses all its abilities until the end of the battle"
        )
    elif do == "strike_bonus":
        body = (
            f"{nom} получает {_signed(amount)} к простому удару"
            if ru
            else f"{en} gets {_signed(amount)} to its simple strike"
        )
    elif do == "roll_bonus":
        body = (
            f"{nom} получает {_signed(amount)} к броскам кубика"
            if ru
            else f"{en} gets {_signed(amount)} to its die rolls"
        )
    elif do == "movement_bonus":
        body = (
            f"{nom} получает {_signed(amount)} к запасу движения"
            if ru
            else f"{en} gets {_signed(amount)} movement"
        )
    else:  # grant
        granted = _ability(script["ability"])
        body = (
            f"{nom} получает особенность «{ability_text(granted, 'ru')}»"
            if ru
            else f"{en} has {ability_text(granted, 'en')}"
        )
    if not prefix:
        body = body[0].upper() + body[1:]
    return prefix + body


def _ability(raw: Mapping[str, Any]) -> Ability:
    return Ability(
        name=raw.get("name", ""), x=raw.get("x"), of=raw.get("of", ""), script=raw.get("script")
    )


def card_text(
    abilities: Sequence[Mapping[str, Any] | Ability], language: str, card_type: str = "creature"
) -> str:
    """A card's rules text from its abilities: one line per ability, in order."""
    items = [a if isinstance(a, Ability) else _ability(a) for a in abilities]
    return "\n".join(ability_text(a, language, card_type) + "." for a in items)


# ---------------------------------------------------------------- reading a card


def _ability_of(raw: Any, field: str, check: Checker, card: Mapping[str, Any]) -> Ability:
    """Check one ability object of a card (or one granted by a script)."""
    if not isinstance(raw, Mapping):
        raise check.fail(field, "an ability is a JSON object")
    check.unknown(raw, ABILITY_FIELDS, field)
    name = raw.get("name", "")
    if "script" in raw:
        if "name" in raw or "x" in raw or "of" in raw:
            raise check.fail(field, "a scripted ability has only a script, no name, x or of")
        _check_script(raw["script"], f"{field}.script", check, card)
        return Ability(script=raw["script"])
    if not isinstance(name, str) or name not in NAMED:
        raise check.fail(
            f"{field}.name",
            f"unknown named ability {name!r}; use a key of the Словарь (§13) or a script",
        )
    takes_x = NAMED[name][2]
    if takes_x:
        if "x" not in raw:
            raise check.fail(f"{field}.x", f"{NAMED[name][0]} takes its X [414.4, §13]")
        x = check.integer(raw["x"], f"{field}.x", minimum=1)
    else:
        if "x" in raw:
            raise check.fail(f"{field}.x", f"{NAMED[name][0]} takes no X [§13]")
        x = None
    of = raw.get("of", "")
    if not isinstance(of, str):
        raise check.fail(f"{field}.of", "must be a string")
    rule = OF_RULES.get(name)
    if rule is None and of:
        raise check.fail(f"{field}.of", f"{NAMED[name][0]} concerns nothing: no of [§13]")
    if rule == "kind" and not of:
        raise check.fail(f"{field}.of", "Protection names what it guards from [411, С: Защита]")
    if rule in ("kind", "kind?") and of and of not in PROTECTION_KINDS:
        raise check.fail(
            f"{field}.of", f"unknown kind {of!r}; use {', '.join(PROTECTION_KINDS)} [411.4]"
        )
    if rule == "class" and of not in CREATURE_CLASSES:
        raise check.fail(
            f"{field}.of",
            f"{NAMED[name][0]} names the creature class it brings: "
            f"{', '.join(CREATURE_CLASSES)} [208.6]",
        )
    return Ability(name=name, x=x, of=of)


_EFFECT_TARGETS = {
    "block_move": ("all_adjacent_enemy",),
    "no_tokens": ("all_adjacent_enemy",),
    "prevent": ("all_adjacent_own", "all_adjacent_enemy"),
    "death_to_deck": ("all_adjacent_own", "all_adjacent_enemy"),
    "death_survive": ("all_adjacent_own",),
}


def _check_effect(script: Mapping[str, Any], field: str, check: Checker) -> None:
    """The narrower vocabulary of "starts_with" scripts and of the static effects."""
    when, do, target = script["when"], script["do"], script.get("target", "self")
    if do == "take_control" and (when != "activated" or target != "any_enemy"):
        raise check.fail(
            f"{field}.do", "take_control is a playable ability on a chosen enemy creature [200.2б]"
        )
    if do == "lose_abilities" and (when != "activated" or target != "any_enemy"):
        raise check.fail(
            f"{field}.do", "lose_abilities is a playable ability on a chosen enemy creature [407.4]"
        )
    if when == "starts_with":
        if do not in ("gain_token", "add_lives") or target != "self":
            raise check.fail(
                f"{field}.do",
                "a card starts the battle with tokens or additional lives of its own "
                "(gain_token / add_lives on self) [304.4]",
            )
        if script.get("amount") == "x":
            raise check.fail(f"{field}.amount", "X is announced only at the Reveal Step [306.2]")
    if do not in _EFFECT_TARGETS:
        return
    if target not in _EFFECT_TARGETS[do]:
        raise check.fail(
            f"{field}.target", f"{do} acts on {', '.join(_EFFECT_TARGETS[do])} [410.5, 103.2, 419]"
        )
    if "class" in script:
        raise check.fail(f"{field}.class", f"{do} takes no class")


def _check_script(script: Any, field: str, check: Checker, card: Mapping[str, Any]) -> None:
    if not isinstance(script, Mapping):
        raise check.fail(field, "a script is a JSON object")
    check.unknown(script, SCRIPT_FIELDS, field)
    for key in ("when", "do"):
        if key not in script:
            raise check.fail(f"{field}.{key}", "is required")
    when, do = script["when"], script["do"]
    if when not in SCRIPT_WHEN:
        raise check.fail(f"{field}.when", f"unknown {when!r}; use {', '.join(SCRIPT_WHEN)}")
    if do not in SCRIPT_DO:
        raise check.fail(f"{field}.do", f"unknown {do!r}; use {', '.join(SCRIPT_DO)}")
    if (when == "static") != (do in STATIC_DO):
        raise check.fail(
            f"{field}.do",
            f"{', '.join(STATIC_DO)} are static (when 'static'); "
            f"{', '.join(ONCE_DO)} happen at a moment [403.4]",
        )
    card_type = card.get("type")
    if when == "activated" and card_type not in ("creature", "artifact"):
        raise check.fail(
            f"{field}.when", "only creatures and artifacts close to act [104.4, 212.2, 214.3]"
        )
    if when == "after_strike" and card_type != "creature":
        raise check.fail(f"{field}.when", "only creatures make simple strikes [205.2, 209.2]")
    target = script.get("target", "self")
    if target not in SCRIPT_TARGETS:
        raise check.fail(f"{field}.target", f"unknown {target!r}; use {', '.join(SCRIPT_TARGETS)}")
    _check_effect(script, field, check)
    if when == "static" and target not in STATIC_TARGETS:
        raise check.fail(
            f"{field}.target",
            f"a static script applies to {', '.join(STATIC_TARGETS)}, not a chosen card",
        )
    hosted = card_type == "equipment" or card.get("subtype") in ("symbiote", "parasite")
    if target == "host" and not hosted:
        raise check.fail(
            f"{field}.target", "only equipment, symbiotes and parasites have a host [210.2, 214.4]"
        )
    if target == "self" and card_type in ("terrain", "equipment") and do != "gain_token":
        raise check.fail(
            f"{field}.target",
            "terrain and equipment do not fight and take no wounds [212.1, 214.1]",
        )
    cls = script.get("class")
    if cls is not None and (cls not in CREATURE_CLASSES or target in ("self", "host")):
        raise check.fail(
            f"{field}.class",
            f"a creature class ({', '.join(CREATURE_CLASSES)}) narrowing a group target [208.6]",
        )
    no_amount = ("open", "grant", "block_move", "no_tokens", "death_to_deck", "take_control")
    if do in (*no_amount, "lose_abilities"):
        if "amount" in script:
            raise check.fail(f"{field}.amount", f"{do} takes no amount")
    else:
        amount = script.get("amount")
        if amount == "x":
            if not card.get("cost_x"):
                raise check.fail(f"{field}.amount", "X is the cost X of the card [202.4]")
        elif do in ("strike_bonus", "roll_bonus"):
            if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
                raise check.fail(f"{field}.amount", "must be a non-zero integer [104.1]")
        else:
            check.integer(amount, f"{field}.amount", minimum=1)
    if do == "grant":
        if "ability" not in script:
            raise check.fail(f"{field}.ability", "grant names the named ability it gives [407.1]")
        granted = script["ability"]
        if isinstance(granted, Mapping) and "script" in granted:
            raise check.fail(f"{field}.ability", "grant gives a named ability, not a script")
        _ability_of(granted, f"{field}.ability", check, {"type": "creature"})
    elif "ability" in script:
        raise check.fail(f"{field}.ability", "only grant gives an ability")
    if "tokens" in script:
        if when != "activated":
            raise check.fail(
                f"{field}.tokens", "a token cost belongs to an activated script [104.5]"
            )
        check.integer(script["tokens"], f"{field}.tokens", minimum=1)
    if "instant" in script and (when != "activated" or script["instant"] is not True):
        raise check.fail(
            f"{field}.instant", "only an activated script may be instant (true) [404.6]"
        )
    if "if" in script:
        if script["if"] not in SCRIPT_IF:
            raise check.fail(f"{field}.if", f"unknown condition; use {', '.join(SCRIPT_IF)}")
        names = [a.get("name") for a in card.get("abilities", []) if isinstance(a, Mapping)]
        if "formation" not in names:
            raise check.fail(f"{field}.if", "«Строй: …» needs the Formation ability [С: Строй]")


def _card(raw: Any, index: int, code: str, check: Checker, numbers: set[int]) -> Card:
    check.card = f"#{index + 1}"
    if not isinstance(raw, Mapping):
        raise check.fail("", "a card is a JSON object")
    number = check.integer(raw.get("number"), "number", minimum=1)
    ident = check.at_card(code, number)
    if number in numbers:
        raise check.fail("number", f"{number} is used by another card of the set")
    numbers.add(number)
    check.required(raw, ("name",))
    name_ru, name_en = check.text_pair(raw["name"], "name")
    check.at_card(code, number, name_ru)
    check.unknown(raw, CARD_FIELDS)
    check.required(raw, ("type", "element", "cost", "elite", "rarity", "text"))

    card_type = raw["type"]
    if card_type not in TYPES:
        raise check.fail("type", f"unknown type {card_type!r}; use {', '.join(TYPES)} [208.1]")
    subtype = raw.get("subtype", "")
    if "subtype" in raw:
        if card_type != "creature":
            raise check.fail("subtype", "only creatures have a subtype [208.2]")
        if not isinstance(subtype, str) or subtype not in SUBTYPES or not subtype:
            raise check.fail(
                "subtype",
                f"one of {', '.join(s for s in SUBTYPES if s)}, or no field [208.2, 208.5]",
            )
    element = raw["element"]
    if element != NEUTRAL and element not in ELEMENTS:
        raise check.fail(
            "element",
            f"unknown element {element!r}; use {', '.join(ELEMENTS)} or {NEUTRAL} [202.8, 202.9]",
        )
    cost = check.integer(raw["cost"], "cost")
    elite = check.boolean(raw["elite"], "elite")
    cost_x = check.boolean(raw.get("cost_x", False), "cost_x")
    if cost == 0 and not cost_x:
        raise check.fail("cost", "a card costs at least 1 crystal, or X [202.1, 202.4]")
    rarity = raw["rarity"]
    if rarity not in RARITIES:
        raise check.fail("rarity", f"use one of {', '.join(RARITIES)}")

    is_creature = card_type == "creature"
    moves = is_creature and not subtype
    if "movement" in raw:
        if subtype in ("symbiote", "parasite"):
            raise check.fail("movement", "a symbiote or parasite has no movement [203.9]")
        if subtype == "flying":
            raise check.fail("movement", "a flyer has no movement [203.10]")
        if not is_creature:
            raise check.fail("movement", f"a {card_type} has no movement [203.1, 209.2]")
        movement = check.integer(raw["movement"], "movement", minimum=1)
    elif moves:
        raise check.fail("movement", "a creature has its movement [203.1, 209.2]")
    else:
        movement = 0

    if "lives" in raw:
        if card_type in ("terrain", "equipment"):
            rule = "212.1" if card_type == "terrain" else "214.1"
            raise check.fail(
                "lives",
                f"a {card_type} has no lives (it blocks every attack, takes no wounds) [{rule}]",
            )
        lives = check.integer(raw["lives"], "lives", minimum=1)
    elif card_type == "artifact":
        raise check.fail("lives", "an artifact has lives [213.1]")
    elif is_creature:
        raise check.fail("lives", "a creature has lives [204.1, 209.2]")
    else:
        lives = 0

    if "strike" in raw:
        if not is_creature:
            rule = {"terrain": "212.1", "artifact": "213.1", "equipment": "214.1"}[card_type]
            raise check.fail("strike", f"a {card_type} has no simple strike [{rule}, 209.2]")
        value = raw["strike"]
        if not isinstance(value, list) or len(value) != 3:
            raise check.fail("strike", "is X-Y-Z: a list of three integers [205.7]")
        strike = tuple(check.integer(v, f"strike[{i}]") for i, v in enumerate(value))
    elif is_creature:
        raise check.fail("strike", "a creature has its X-Y-Z simple strike [205.2, 209.2]")
    else:
        strike = (0, 0, 0)

    classes = check.str_list(raw.get("classes", []), "classes")
    for i, cls in enumerate(classes):
        if cls not in CLASSES:
            raise check.fail(f"classes[{i}]", f"unknown class {cls!r}; use {', '.join(CLASSES)}")
        if cls in EQUIPMENT_CLASSES and card_type != "equipment":
            raise check.fail(f"classes[{i}]", f"{cls} is an equipment class [214.2]")
    if card_type == "equipment" and not set(classes) & set(EQUIPMENT_CLASSES):
        raise check.fail("classes", "equipment has at least one of weapon, armour, shield [214.2]")

    raw_abilities = raw.get("abilities", [])
    if not isinstance(raw_abilities, list):
        raise check.fail("abilities", "must be a list")
    abilities = tuple(
        _ability_of(a, f"abilities[{i}]", check, raw) for i, a in enumerate(raw_abilities)
    )
    for i, ability in enumerate(abilities):
        _check_named_fits(ability, f"abilities[{i}].name", check, card_type, subtype, element)

    text_ru, text_en = check.text_pair(raw["text"], "text", allow_empty=True)
    if abilities and not (text_ru.strip() and text_en.strip()):
        raise check.fail("text", "a card with abilities needs its rules text")
    extra: dict[str, Any] = {}
    if "flavour" in raw:
        extra["flavour"] = check.text_pair(raw["flavour"], "flavour")
    return Card(
        id=ident,
        set_code=code,
        number=number,
        name_ru=name_ru,
        name_en=name_en,
        type=card_type,
        subtype=subtype,
        element="" if element == NEUTRAL else element,
        cost=cost,
        elite=elite,
        cost_x=cost_x,
        movement=movement,
        lives=lives,
        strike=strike,  # type: ignore[arg-type]
        classes=tuple(classes),
        abilities=abilities,
        text_ru=text_ru,
        text_en=text_en,
        rarity=rarity,
        extra=extra,
    )


def _check_named_fits(
    ability: Ability, field: str, check: Checker, card_type: str, subtype: str, element: str
) -> None:
    name = ability.name
    if not name:
        return
    if card_type in ("terrain", "equipment") and name not in NON_FIGHTER_NAMED:
        rule = "212.1, 212.2" if card_type == "terrain" else "214.1, 214.3"
        raise check.fail(
            field,
            f"a {card_type} does not fight and takes no wounds: no {NAMED[name][0]} [{rule}]",
        )
    if name in CREATURE_ONLY and card_type != "creature":
        raise check.fail(field, f"{NAMED[name][0]}: creatures only {CREATURE_ONLY[name]}")
    if name in NO_SUBTYPE_ONLY and subtype:
        raise check.fail(
            field, f"{NAMED[name][0]}: creatures without subtype only {NO_SUBTYPE_ONLY[name]}"
        )
    if name == "thirst" and subtype == "flying":
        raise check.fail(field, "a flyer cannot have Thirst [С: Жажда]")
    if name == "meditation" and element == NEUTRAL:
        raise check.fail(field, "a neutral card cannot use Meditation [С: Медитация]")


# ---------------------------------------------------------------- reading a set


def _booster(value: Any, cards: Sequence[Card], check: Checker) -> BoosterSpec | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise check.fail("booster", 'is null or {"size": n, "slots": [...]}')
    check.unknown(value, ("size", "slots"), "booster")
    check.required(value, ("size", "slots"))
    size = check.integer(value["size"], "booster.size", minimum=1)
    if not isinstance(value["slots"], list) or not value["slots"]:
        raise check.fail("booster.slots", "must be a non-empty list")
    slots = []
    for i, raw in enumerate(value["slots"]):
        field = f"booster.slots[{i}]"
        if not isinstance(raw, Mapping):
            raise check.fail(field, "a slot is an object")
        check.unknown(raw, ("rarity", "count"), field)
        if raw.get("rarity") not in RARITIES:
            raise check.fail(f"{field}.rarity", f"use one of {', '.join(RARITIES)}")
        count = check.integer(raw.get("count"), f"{field}.count", minimum=1)
        slots.append(BoosterSlot(raw["rarity"], count))
    total = sum(s.count for s in slots)
    if total != size:
        raise check.fail("booster", f"the slots hold {total} cards, but size is {size}")
    for rarity in RARITIES:
        need = sum(s.count for s in slots if s.rarity == rarity)
        have = sum(1 for c in cards if c.rarity == rarity)
        if have < need:
            raise check.fail(
                "booster", f"the {rarity} slots need {need} different cards but the set has {have}"
            )
    return BoosterSpec(size=size, slots=tuple(slots))


def parse_set(data: Any, source: str) -> CardSet:
    """Validate the decoded JSON of one set file (``source`` names it in errors)."""
    check = Checker(source)
    header = cardjson.set_header(data, SET_FIELDS, check)
    numbers: set[int] = set()
    cards = [_card(raw, i, header.code, check, numbers) for i, raw in enumerate(header.cards)]
    for lang in ("ru", "en"):
        seen: set[str] = set()
        for card in cards:
            key = normalise_name(card.name_ru if lang == "ru" else card.name_en)
            if key in seen:
                check.card = cardjson.card_label(card.id, card.name_ru)
                raise check.fail(f"name.{lang}", "another card of the set has this name")
            seen.add(key)
    check.card = None
    booster = _booster(data.get("booster"), cards, check)
    return CardSet(
        code=header.code,
        name_ru=header.name_ru,
        name_en=header.name_en,
        released=header.released,
        cards=tuple(cards),
        booster=booster,
        source=source,
    )


def load_set(path: Path) -> CardSet:
    """Read and validate one set file (not cached)."""
    path = Path(path)
    check = Checker(cardjson.display(path))
    return parse_set(cardjson.read_json(path, check), check.source)


@functools.lru_cache(maxsize=4)
def load_system(directory: str | None = None) -> CardDB:
    """Every set file of ``directory`` (default ``engine/sets/berserk``), cached."""
    folder = Path(directory) if directory else SETS_DIR
    sets = [load_set(p) for p in cardjson.set_files(folder)]
    if not sets:
        raise CardDataError(cardjson.display(folder), "no Berserk set files")
    codes: set[str] = set()
    for card_set in sets:
        if card_set.code in codes:
            raise CardDataError(card_set.source, f"two sets have the code {card_set.code}")
        codes.add(card_set.code)
    return CardDB(sets)


def element_name(element: str, language: str = "en") -> str:
    """An element's name ("" is neutral) [202.8, 202.9]."""
    en, ru = ELEMENT_NAMES[element]
    return ru if language.startswith("ru") else en
