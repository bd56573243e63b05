"""Ascension Tactics data: the loader of ``engine/sets/tactics/`` (docs/card-format.md, "Tactics").

Two kinds of file, both read strictly by ``engine.core.cardjson`` (a key given twice, an
unknown field or a value of the wrong type is refused, and every error names the file,
the card or scenario, and the field):

- the card sets, ``engine/sets/tactics/tc*.json``: ``{"code", "name", "released",
  "treasures", "cards": [...]}``: champions, monsters, heroes, constructs, the starting
  and always-available cards, the cultist, the gates, the villains and the schemes;
- the scenarios, ``engine/sets/tactics/_scenarios.json``: ``{"system": "tactics",
  "scenarios": [...]}`` (a ``_`` file is not a set, docs/card-format.md).

A refusal that breaks a rule of the game cites it (rule ids of the digest,
``/work/shared/rules/tactics.md``)::

    engine/sets/tactics/tc1.json: card TC1-031 «Имя»: abilities[1].when: Surge is a boss's
    ability: a villain with glory 4 or more (T-82, T-93)

``card_text`` writes a card's rules text from its data in both languages; the set source
(``engine.tactics.setdata``) uses it, so the text always says what the card does.
``load_system()`` (cached) reads every set and the scenarios into a ``TacticsDB``.

Pure Python, no Django.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from engine.core import cardjson
from engine.core.cardjson import CardDataError, Checker
from engine.tactics.model import (
    CHAMPION_TYPES,
    DEFAULT_SPEED,
    FACTION_DATIVE_RU,
    FACTIONS,
    KEYWORDS,
    MODES,
    PILES,
    PLACEABLE_TERRAIN,
    STAT_NAMES,
    STATS,
    TARGETS,
    TERRAIN,
    TOKEN_GENITIVE_RU,
    TOKENS,
    TRIGGERS,
    TYPE_PILES,
    VILLAIN_MODES,
    Ability,
    Card,
    Cell,
    Enchanted,
    Equip,
    ModeSetup,
    Scenario,
    cell_key,
    hexagon,
    neighbours,
    parse_cell,
)

__all__ = [
    "OPS",
    "CardDataError",
    "CardSet",
    "TacticsDB",
    "ability_text",
    "card_text",
    "effects_text",
    "load_scenarios",
    "load_set",
    "load_system",
    "normalise_name",
    "parse_scenarios",
    "parse_set",
]

SETS_DIR = cardjson.SETS_DIR / "tactics"
SCENARIO_FILE = "_scenarios.json"
SET_FIELDS = {"code", "name", "released", "treasures", "cards"}
CARD_FIELDS = {
    "number",
    "name",
    "type",
    "pile",
    "faction",
    "cost",
    "copies",
    "command",
    "strength",
    "defence",
    "speed",
    "keywords",
    "figures",
    "equip",
    "glory",
    "top",
    "threat",
    "bottom",
    "seat",
    "every_turn",
    "first_turn",
    "abilities",
    "text",
    "flavour",
}
# The fields each type may have beyond number, name, type, pile, text, flavour.
TYPE_FIELDS: dict[str, set[str]] = {
    "champion": {
        "faction",
        "cost",
        "command",
        "strength",
        "defence",
        "speed",
        "keywords",
        "figures",
        "abilities",
    },
    "monster": {
        "faction",
        "cost",
        "command",
        "strength",
        "defence",
        "speed",
        "keywords",
        "abilities",
    },
    "hero": {"faction", "cost", "copies", "abilities"},
    "construct": {"faction", "cost", "copies", "equip", "abilities"},
    "cultist": {"command", "strength", "defence", "speed"},
    "gate": {"seat", "every_turn", "first_turn"},
    "villain": {"faction", "strength", "defence", "speed", "keywords", "glory", "abilities"},
    "scheme": {"copies", "top", "threat", "bottom"},
}
TYPE_RULES = {
    "champion": "T-18",
    "monster": "T-21",
    "hero": "T-19",
    "construct": "T-20",
    "cultist": "T-50",
    "gate": "T-14",
    "villain": "T-81",
    "scheme": "T-85",
}
ABILITY_FIELDS = {"when", "faction", "threat", "effects"}
EQUIP_FIELDS = {"strength", "defence", "speed", "keywords"}
TREASURE_FIELDS = {"count", "boost", "grant"}
TREASURE_TOKENS = 24  # T-7
STARTER_CARDS = 10  # T-9: 8 Apprentice + 2 Militia

# ---------------------------------------------------------------- the effect language

# op -> its fields (besides "op"): field -> kind of value. Kinds: "count" (integer >= 1),
# "int0" (integer >= 0), "bool", or a tuple of allowed words, or "tokens" (a list of TOKENS).
BANISH_FROM = ("hand_or_discard", "hand", "discard", "row")
ACQUIRE_TYPES = ("hero", "construct", "champion", "card")
OPS: dict[str, dict[str, Any]] = {
    "runes": {"amount": "count"},
    "power": {"amount": "count"},
    "glory": {"amount": "count"},
    "draw": {"count": "count"},
    "banish": {"from": BANISH_FROM, "optional": "bool"},
    "acquire": {"type": ACQUIRE_TYPES, "max_cost": "count"},
    "construct_on_top": {},
    "command": {"target": ("own", "own_board", "own_reserve", "cultist"), "discount": "count"},
    "enter": {"target": ("own_reserve",)},
    "move": {"target": ("self", "own_board", "enemy", "adjacent_enemy"), "steps": "count"},
    "damage": {
        "target": ("enemy", "adjacent_enemy", "all_adjacent_enemies", "attacker"),
        "amount": "count",
    },
    "destroy": {"target": ("enemy",)},
    "treasure": {"mode": ("gain", "reveal")},
    "boost": {
        "stat": STATS,
        "amount": "count",
        "target": (
            "self",
            "equipped",
            "own",
            "own_board",
            "all_own_board",
            "cultist",
            "all_villains",
        ),
    },
    "grant": {
        "keyword": tuple(KEYWORDS),
        "target": ("self", "equipped", "own", "own_board", "all_villains"),
    },
    "terrain": {"terrain": PLACEABLE_TERRAIN},
    # the villains' ops (schemes and villain abilities, T-85..T-94)
    "villain_command": {"tokens": "tokens"},
    "surge": {},
    "cultist": {"token": tuple(TOKENS)},
    "villain_glory": {"amount": "count"},
}
OPTIONAL_FIELDS = {"banish": {"optional": False}, "command": {"discount": None}}
VILLAIN_OPS = ("villain_command", "surge", "cultist", "villain_glory")
PLAYER_ONLY_OPS = ("runes", "power", "draw", "banish", "acquire", "construct_on_top",
                   "command", "enter", "treasure", "glory")  # fmt: skip
GATE_OPS = ("runes", "power")
# Targets that need the champion whose ability it is ("this champion").
SELF_TARGETS = ("self", "adjacent_enemy", "all_adjacent_enemies")


def _plural_ru(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def _s(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


# A threat ability is a lasting condition (T-92), so its boosts are stated, not given.
STATIC_TARGETS_RU = {"self": "этот чемпион", "all_villains": "каждый чемпион злодеев"}


def effect_text(effect: Mapping[str, Any], language: str, when: str | None = None) -> str:
    """One effect as a clause (not capitalised, no full stop); ``when`` "threat" states a
    boost that holds while the threat level is reached (T-92)."""
    ru = language.startswith("ru")
    op = effect["op"]
    n = effect.get("amount", effect.get("count", effect.get("steps", 0)))
    target = TARGETS.get(effect.get("target", ""), ("", "", ""))
    if op == "runes":
        return f"+{n} {_plural_ru(n, 'руна', 'руны', 'рун')}" if ru else f"+{n} {_s(n, 'rune')}"
    if op == "power":
        return f"+{n} мощи" if ru else f"+{n} power"
    if op == "glory":
        return f"+{n} {_plural_ru(n, 'слава', 'славы', 'славы')}" if ru else f"+{n} glory"
    if op == "draw":
        if ru:
            return f"возьмите {n} {_plural_ru(n, 'карту', 'карты', 'карт')}"
        return f"draw {n} {_s(n, 'card')}"
    if op == "banish":
        where = effect["from"]
        if ru:
            src = {
                "hand_or_discard": "из своей руки или сброса",
                "hand": "из своей руки",
                "discard": "из своего сброса",
                "row": "из центрального ряда",
            }[where]
            verb = "вы можете изгнать" if effect.get("optional") else "изгоните"
            return f"{verb} карту {src}"
        src = {
            "hand_or_discard": "from your hand or discard pile",
            "hand": "from your hand",
            "discard": "from your discard pile",
            "row": "from the center row",
        }[where]
        verb = "you may banish" if effect.get("optional") else "banish"
        return f"{verb} a card {src}"
    if op == "acquire":
        kind, cost = effect["type"], effect["max_cost"]
        if ru:
            what = {
                "hero": "героя",
                "construct": "конструкцию",
                "champion": "чемпиона",
                "card": "карту",
            }[kind]
            return f"бесплатно получите {what} стоимостью не больше {cost}"
        return f"acquire a {kind} costing {cost} or less for free"
    if op == "construct_on_top":
        if ru:
            return (
                "следующую конструкцию, которую вы получите в этом ходу, "
                "положите на верх своей колоды"
            )
        return "put the next construct you acquire this turn on top of your deck"
    if op == "command":
        disc = effect.get("discount")
        if ru:
            how = f"за {disc} мощи меньше" if disc else "бесплатно"
            return f"отдайте приказ {target[2]} {how}"
        how = f"paying {disc} power less" if disc else "for free"
        return f"command {target[0]} {how}"
    if op == "enter":
        if ru:
            return f"введите на поле боя {target[1]} через свой свободный портал"
        return f"enter {target[0]} through a free portal of yours"
    if op == "move":
        if ru:
            cells = _plural_ru(n, "ячейку", "ячейки", "ячеек")
            return f"переместите {target[1]} не больше чем на {n} {cells}"
        return f"move {target[0]} up to {n} {_s(n, 'cell')}"
    if op == "damage":
        return f"нанесите {n} урона {target[2]}" if ru else f"deal {n} damage to {target[0]}"
    if op == "destroy":
        if ru:
            return "уничтожьте конструкцию, которой снаряжён вражеский чемпион"
        return "destroy a construct equipped on an enemy champion"
    if op == "treasure":
        if effect["mode"] == "gain":
            return "получите сокровище из мешочка" if ru else "gain a treasure from the bag"
        return "откройте сокровище из мешочка" if ru else "reveal a treasure from the bag"
    if op in ("boost", "grant") and when == "threat":
        if op == "boost":
            stat_en, stat_ru = STAT_NAMES[effect["stat"]]
            what_en, what_ru = f"+{n} {stat_en}", f"+{n} к {stat_ru}"
        else:
            what_en, what_ru = KEYWORDS[effect["keyword"]][0], f"«{KEYWORDS[effect['keyword']][1]}»"
        if ru:
            return f"{STATIC_TARGETS_RU[effect['target']]} имеет {what_ru}"
        return f"{target[0]} has {what_en}"
    if op == "boost":
        stat_en, stat_ru = STAT_NAMES[effect["stat"]]
        if ru:
            return f"дайте {target[2]} +{n} к {stat_ru} до конца хода"
        return f"give {target[0]} +{n} {stat_en} until the end of the turn"
    if op == "grant":
        kw_en, kw_ru, _ = KEYWORDS[effect["keyword"]]
        if ru:
            return f"дайте {target[2]} способность «{kw_ru}» до конца хода"
        return f"give {target[0]} {kw_en} until the end of the turn"
    if op == "terrain":
        t_en, t_ru, _ = TERRAIN[effect["terrain"]]
        if ru:
            return f"поместите жетон «{t_ru}» в пустую ячейку без местности"
        return f"place a {t_en} token on an empty plain cell"
    if op == "villain_command":
        tokens = effect["tokens"]
        if ru:
            names = [f"чемпиону с жетоном {TOKEN_GENITIVE_RU[t]}" for t in tokens]
            return "отдайте приказ " + ", затем ".join(names)
        return "command " + ", then ".join(f"the holder of {TOKENS[t][0]}" for t in tokens)
    if op == "surge":
        return "всплеск" if ru else "surge"
    if op == "cultist":
        t = effect["token"]
        if ru:
            return (
                f"введите культиста злодеев в ячейку с жетоном {TOKEN_GENITIVE_RU[t]} "
                "(или в соседнюю)"
            )
        return f"enter a villain cultist on the cell of {TOKENS[t][0]} (or next to it)"
    if op == "villain_glory":
        if ru:
            return f"злодеи получают {n} {_plural_ru(n, 'славу', 'славы', 'славы')}"
        return f"the villains gain {n} glory"
    raise KeyError(op)


def _sentence(clause: str, capital: bool = True) -> str:
    return (clause[:1].upper() + clause[1:] if capital else clause) + "."


def effects_text(
    effects: Iterable[Mapping[str, Any]],
    language: str,
    capital: bool = True,
    when: str | None = None,
) -> str:
    """Effects as sentences: ``+2 runes. Draw 1 card.``"""
    parts = [effect_text(e, language, when) for e in effects]
    return " ".join(_sentence(p, capital or i > 0) for i, p in enumerate(parts))


def ability_text(ability: Mapping[str, Any], language: str) -> str:
    """One line: the trigger's prefix, then the effects."""
    ru = language.startswith("ru")
    when = ability["when"]
    prefix = TRIGGERS[when][1 if ru else 0]
    if when == "devotion":
        faction = ability["faction"]
        prefix = (
            f"Преданность {FACTION_DATIVE_RU[faction]}: "
            if ru
            else f"Devotion ({FACTIONS[faction][0]}): "
        )
    elif when == "threat":
        prefix = f"Угроза {ability['threat']}: " if ru else f"Threat {ability['threat']}: "
    return prefix + effects_text(ability["effects"], language, capital=not prefix, when=when)


def _keywords_line(keywords: Sequence[str], language: str) -> str:
    i = 1 if language.startswith("ru") else 0
    return " ".join(f"{KEYWORDS[k][i]}." for k in keywords)


def card_text(card: Mapping[str, Any], language: str) -> str:
    """The rules text of a card (its JSON fields), one line per group: keywords, a
    construct's boosts, each ability; a gate's and a scheme's effects."""
    ru = language.startswith("ru")
    lines: list[str] = []
    if card.get("figures", 1) > 1:  # T-106
        lines.append(
            "Две фигуры: приказ отдаётся одной, затем другой; снаряжение усиливает обе."
            if ru
            else "Two figures: command one, then the other; constructs boost both."
        )
    if card.get("keywords"):
        lines.append(_keywords_line(card["keywords"], language))
    equip = card.get("equip")
    if equip:
        parts = []
        for stat in STATS:
            if equip.get(stat):
                en, ru_word = STAT_NAMES[stat]
                parts.append(f"+{equip[stat]} к {ru_word}" if ru else f"+{equip[stat]} {en}")
        for k in equip.get("keywords", []):
            parts.append(f"«{KEYWORDS[k][1]}»" if ru else KEYWORDS[k][0])
        head = "Снаряжённый чемпион получает" if ru else "The equipped champion gets"
        lines.append(f"{head} {', '.join(parts)}.")
    for ability in card.get("abilities", []):
        lines.append(ability_text(ability, language))
    if card.get("type") == "gate":
        head = "Раз в ход: " if ru else "Once per turn: "
        lines.append(head + effects_text(card["every_turn"], language, capital=False))
        if card.get("first_turn"):
            head = "В ваш первый ход дополнительно: " if ru else "On your first turn, also: "
            lines.append(head + effects_text(card["first_turn"], language, capital=False))
    if card.get("type") == "scheme":
        lines.append(effects_text(card["top"], language))
        head = f"Угроза {card['threat']}: " if ru else f"Threat {card['threat']}: "
        lines.append(head + effects_text(card["bottom"], language, capital=False))
    return "\n".join(lines)


# ---------------------------------------------------------------- the model of a set


@dataclass(frozen=True)
class Treasure:
    """A kind of treasure token (T-67): until end of turn, a champion gets ``boosts``
    (stat -> amount) and/or the keyword ``grant``; ``count`` tokens in the bag."""

    count: int
    boosts: tuple[tuple[str, int], ...] = ()
    grant: str | None = None


@dataclass(frozen=True)
class CardSet:
    code: str
    name_ru: str
    name_en: str
    released: date
    cards: tuple[Card, ...]
    treasures: tuple[Treasure, ...]
    source: str = ""


def normalise_name(name: str) -> str:
    """A name for look-ups: case, spacing and ё/е ignored."""
    return " ".join(name.replace("ё", "е").replace("Ё", "Е").split()).casefold()


def _name_group(card: Card) -> str:
    """Names are unique within a group; a villain may share a champion's name (T-82/T-84)."""
    return {"villain": "villain", "scheme": "scheme"}.get(card.type, "card")


class TacticsDB:
    """Every Tactics card (by id and by name in either language) and every scenario."""

    def __init__(self, sets: Iterable[CardSet], scenarios: Iterable[Scenario] = ()):
        self.sets: tuple[CardSet, ...] = tuple(sorted(sets, key=lambda s: (s.released, s.code)))
        self.cards: dict[str, Card] = {}
        self._names: dict[str, Card] = {}
        for card_set in self.sets:
            for card in card_set.cards:
                self.cards[card.id] = card
                for name in (card.name_ru, card.name_en):
                    self._names.setdefault(normalise_name(name), card)
        self.scenarios: dict[str, Scenario] = {s.key: s for s in scenarios}

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def find(self, name: str) -> Card:
        """A card by name, either language (a champion before a villain of that name)."""
        try:
            return self._names[normalise_name(name)]
        except KeyError:
            raise KeyError(f"no Tactics card named {name!r}") from None

    def of(self, type_: str | None = None, pile: str | None = None) -> list[Card]:
        return [
            c
            for c in self.cards.values()
            if (type_ is None or c.type == type_) and (pile is None or c.pile == pile)
        ]

    def champions(self) -> list[Card]:
        """The draftable champions: the reserve (blue back) pool (T-7, T-76)."""
        return self.of("champion", "reserve")

    def central(self) -> list[Card]:
        """The distinct cards of the central deck (T-17)."""
        return self.of(pile="center")

    def central_deck(self) -> list[str]:
        """The central deck, one card id per copy, in id order (T-17)."""
        return [c.id for c in self.central() for _ in range(c.copies)]

    def starters(self) -> list[str]:
        """One player's starting deck (T-9)."""
        return [c.id for c in self.of(pile="starter") for _ in range(c.copies)]

    def always(self) -> list[Card]:
        return self.of(pile="always")

    def cultist(self) -> Card:
        return self.of("cultist")[0]

    def gates(self) -> list[Card]:
        return sorted(self.of("gate"), key=lambda c: c.seat or 0)

    def villains(self) -> list[Card]:
        return self.of("villain")

    def bosses(self) -> list[Card]:
        return [c for c in self.villains() if c.is_boss]

    def schemes(self) -> list[Card]:
        return self.of("scheme")

    def treasure_bag(self) -> list[Treasure]:
        """The treasure tokens, one entry per token (T-7, T-12)."""
        return [t for s in self.sets for t in s.treasures for _ in range(t.count)]

    def scenario(self, key: str) -> Scenario:
        return self.scenarios[key]

    def scenarios_for(self, mode: str) -> list[Scenario]:
        return [s for s in self.scenarios.values() if mode in s.modes]


# ---------------------------------------------------------------- reading the effects


def _effects(
    value: Any, field: str, check: Checker, card_type: str, when: str | None = None
) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list) or not value:
        raise check.fail(field, "must be a non-empty list of effects")
    return tuple(_effect(e, f"{field}[{i}]", check, card_type, when) for i, e in enumerate(value))


def _effect(
    raw: Any, field: str, check: Checker, card_type: str, when: str | None
) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise check.fail(field, "an effect is a JSON object with an op")
    op = raw.get("op")
    if op not in OPS:
        raise check.fail(f"{field}.op", f"unknown op {op!r}; use one of {', '.join(OPS)} (D-20)")
    spec = OPS[op]
    check.unknown(raw, {"op", *spec}, field)
    optional = OPTIONAL_FIELDS.get(op, {})
    for name in spec:
        if name not in raw and name not in optional:
            raise check.fail(f"{field}.{name}", "is required")
    for name, kind in spec.items():
        if name not in raw:
            continue
        value, where = raw[name], f"{field}.{name}"
        if kind == "count":
            check.integer(value, where, minimum=1)
        elif kind == "bool":
            check.boolean(value, where)
        elif kind == "tokens":
            tokens = check.str_list(value, where)
            if not tokens or any(t not in TOKENS for t in tokens):
                raise check.fail(where, f"a non-empty list of {', '.join(TOKENS)} (T-89)")
        elif value not in kind:
            raise check.fail(where, f"unknown {value!r}; use one of {', '.join(kind)}")
    villainous = card_type in ("scheme", "villain")
    if op in VILLAIN_OPS and not villainous:
        raise check.fail(f"{field}.op", f"{op} is for schemes and villains only (T-85..T-94)")
    if op in PLAYER_ONLY_OPS and villainous:
        raise check.fail(
            f"{field}.op",
            f"villains do not play or acquire cards and need no power: no {op} (T-85)",
        )
    if card_type == "gate" and op not in GATE_OPS:
        raise check.fail(f"{field}.op", "a gate gives runes or power (T-14, D-4)")
    target = raw.get("target")
    if target == "all_villains" and not villainous:
        raise check.fail(f"{field}.target", "only schemes and villains boost the villains")
    if target in ("own", "own_board", "all_own_board", "own_reserve", "cultist") and villainous:
        raise check.fail(f"{field}.target", "villains have no reserve and no portal (T-84)")
    if target in SELF_TARGETS and card_type not in CHAMPION_TYPES:
        raise check.fail(
            f"{field}.target",
            f"{target!r} needs a champion of its own; a {card_type} is not on the battlefield "
            "(T-19, T-20)",
        )
    if target == "equipped" and card_type != "construct":
        raise check.fail(f"{field}.target", "only a construct has an equipped champion (T-20)")
    if target == "attacker" and when != "attacked":
        raise check.fail(f"{field}.target", "there is an attacker only when this is attacked")
    if when == "threat" and (op not in ("boost", "grant") or target not in STATIC_TARGETS_RU):
        raise check.fail(
            f"{field}.op",
            "a threat ability is a lasting boost of this champion or of each villain (T-92)",
        )
    if op == "command" and when == "command":
        raise check.fail(f"{field}.op", "a command cannot command again (T-37, T-38)")
    return dict(raw)


def _abilities(raw: Mapping[str, Any], check: Checker, card_type: str) -> tuple[Ability, ...]:
    value = raw.get("abilities", [])
    if not isinstance(value, list):
        raise check.fail("abilities", "must be a list")
    result = []
    for i, item in enumerate(value):
        field = f"abilities[{i}]"
        if not isinstance(item, Mapping):
            raise check.fail(field, "an ability is a JSON object")
        check.unknown(item, ABILITY_FIELDS, field)
        check.required(item, ("when", "effects"))
        when = item["when"]
        if when not in TRIGGERS:
            raise check.fail(f"{field}.when", f"unknown {when!r}; use one of {', '.join(TRIGGERS)}")
        if card_type not in TRIGGERS[when][2]:
            raise check.fail(
                f"{field}.when",
                f"a {card_type} has no {when} ability ({', '.join(TRIGGERS[when][2])} do)",
            )
        faction = item.get("faction")
        if when == "devotion":
            if faction not in FACTIONS:
                raise check.fail(f"{field}.faction", f"Devotion names a faction of {', '.join(FACTIONS)} (T-52)")  # fmt: skip
        elif "faction" in item:
            raise check.fail(f"{field}.faction", "only Devotion names a faction (T-52)")
        threat = None
        if when == "threat":
            threat = check.integer(item.get("threat"), f"{field}.threat", minimum=1)
        elif "threat" in item:
            raise check.fail(f"{field}.threat", "only a threat ability has a threat level (T-92)")
        effects = _effects(item["effects"], f"{field}.effects", check, card_type, when)
        result.append(Ability(when=when, effects=effects, faction=faction, threat=threat))
    return tuple(result)


def _keywords(value: Any, field: str, check: Checker) -> tuple[str, ...]:
    words = check.str_list(value, field)
    for i, word in enumerate(words):
        if word not in KEYWORDS:
            raise check.fail(f"{field}[{i}]", f"unknown keyword {word!r}; use one of {', '.join(KEYWORDS)} (§9)")  # fmt: skip
    return tuple(words)


# ---------------------------------------------------------------- reading a card


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
    check.required(raw, ("type", "pile", "text"))
    card_type = raw["type"]
    if card_type not in TYPE_FIELDS:
        raise check.fail("type", f"unknown type {card_type!r}; use one of {', '.join(TYPE_FIELDS)} (§4)")  # fmt: skip
    rule = TYPE_RULES[card_type]
    extra = (
        set(raw) - {"number", "name", "type", "pile", "text", "flavour"} - TYPE_FIELDS[card_type]
    )
    if "copies" in extra and card_type in CHAMPION_TYPES:
        raise check.fail("copies", f"a {card_type} is unique: no copies (T-84)")
    if extra:
        name = sorted(extra)[0]
        raise check.fail(name, f"a {card_type} has no {name} ({rule})")
    pile = raw["pile"]
    if pile not in PILES:
        raise check.fail("pile", f"unknown pile {pile!r}; use one of {', '.join(PILES)} (T-7)")
    if pile not in TYPE_PILES[card_type]:
        raise check.fail(
            "pile", f"a {card_type} is in the pile {' or '.join(TYPE_PILES[card_type])} (T-7)"
        )
    faction = raw.get("faction")
    if faction is not None and faction not in FACTIONS:
        raise check.fail("faction", f"unknown faction {faction!r}; use one of {', '.join(FACTIONS)} or null (T-22)")  # fmt: skip
    copies = check.integer(raw.get("copies", 1), "copies", minimum=1)
    fields: dict[str, Any] = {}

    # costs (T-29, T-30): a central card has one; a reserve champion none; basics 0
    cost = raw.get("cost")
    if card_type in ("hero", "construct", "monster") or (
        card_type == "champion" and pile == "center"
    ):
        if cost is None:
            raise check.fail("cost", f"a {card_type} of the {pile} pile has a cost (T-29)")
        least = 0 if pile == "starter" else 1
        cost = check.integer(cost, "cost", minimum=least)
        if pile == "starter" and cost:
            raise check.fail("cost", "a starting card is never acquired: cost 0 (T-9)")
    elif cost is not None:
        raise check.fail("cost", "a reserve champion is not acquired: no cost (T-16, T-76)")

    if card_type in CHAMPION_TYPES:
        check.required(raw, ("strength", "defence"))
        fields["strength"] = check.integer(raw["strength"], "strength")
        fields["defence"] = check.integer(raw["defence"], "defence", minimum=1)
        fields["speed"] = check.integer(raw.get("speed", DEFAULT_SPEED), "speed")
        if card_type != "villain":
            check.required(raw, ("command",))
            fields["command"] = check.integer(raw["command"], "command")
        fields["keywords"] = _keywords(raw.get("keywords", []), "keywords", check)
    if "figures" in raw:  # T-106: one card, several figures
        figures = check.integer(raw["figures"], "figures", minimum=1)
        if figures > 2:
            raise check.fail("figures", "a champion has one or two figures (T-106)")
        fields["figures"] = figures
    if card_type == "cultist" and fields["command"] != 2:
        raise check.fail("command", "the cultist's command cost is 2 (T-50)")
    if card_type == "construct":
        check.required(raw, ("equip",))
        equip = raw["equip"]
        if not isinstance(equip, Mapping):
            raise check.fail("equip", "is an object of boosts (T-20)")
        check.unknown(equip, EQUIP_FIELDS, "equip")
        boosts = {s: check.integer(equip.get(s, 0), f"equip.{s}") for s in STATS}
        granted = _keywords(equip.get("keywords", []), "equip.keywords", check)
        if not any(boosts.values()) and not granted and not raw.get("abilities"):
            raise check.fail("equip", "a construct boosts the champion it equips (T-20)")
        fields["equip"] = Equip(keywords=granted, **boosts)
    if card_type == "villain":
        check.required(raw, ("glory",))
        fields["glory"] = check.integer(raw["glory"], "glory", minimum=1)
    if card_type == "scheme":
        check.required(raw, ("top", "threat", "bottom"))
        fields["top"] = _effects(raw["top"], "top", check, "scheme")
        fields["threat"] = check.integer(raw["threat"], "threat", minimum=1)
        fields["bottom"] = _effects(raw["bottom"], "bottom", check, "scheme")
    if card_type == "gate":
        check.required(raw, ("seat", "every_turn"))
        seat = check.integer(raw["seat"], "seat", minimum=1)
        if seat > 4:
            raise check.fail("seat", "there are 4 gates, seats 1 to 4 (T-7, T-14)")
        fields["seat"] = seat
        fields["every_turn"] = _effects(raw["every_turn"], "every_turn", check, "gate")
        first = raw.get("first_turn", [])
        if seat == 1 and first:
            raise check.fail("first_turn", "the first player's gate has no first-turn bonus (T-15)")  # fmt: skip
        if seat > 1 and not first:
            raise check.fail("first_turn", "the gates of players 2 and later give a first-turn bonus (T-15)")  # fmt: skip
        fields["first_turn"] = _effects(first, "first_turn", check, "gate") if first else ()
    if copies != 1 and pile not in ("center", "starter", "always", "scheme"):
        raise check.fail("copies", f"a card of the {pile} pile is unique (T-84)")

    abilities = _abilities(raw, check, card_type)
    surges = [a for a in abilities if a.when == "surge"]
    if card_type == "villain":
        if fields["glory"] >= 4 and len(surges) != 1:
            raise check.fail("abilities", "a boss (glory 4 or more) has one Surge ability (T-93)")
        if surges and fields["glory"] < 4:
            i = abilities.index(surges[0])
            raise check.fail(
                f"abilities[{i}].when",
                "Surge is a boss's ability: a villain with glory 4 or more (T-82, T-93)",
            )
    if card_type in ("hero",) and not abilities:
        raise check.fail("abilities", "a hero is played for its effects (T-19, T-28)")

    text_ru, text_en = check.text_pair(raw["text"], "text", allow_empty=True)
    expected = {lang: card_text(raw, lang) for lang in ("ru", "en")}
    if (text_ru, text_en) != (expected["ru"], expected["en"]):
        lang = "ru" if text_ru != expected["ru"] else "en"
        raise check.fail(
            f"text.{lang}",
            f"does not say what the card does; generated: {expected[lang]!r} "
            "(regenerate with python -m engine.tactics.setdata)",
        )
    flavour = check.text_pair(raw["flavour"], "flavour") if "flavour" in raw else None
    return Card(
        id=ident,
        set_code=code,
        number=number,
        name_ru=name_ru,
        name_en=name_en,
        type=card_type,
        pile=pile,
        faction=faction,
        cost=cost,
        copies=copies,
        abilities=abilities,
        text_ru=text_ru,
        text_en=text_en,
        flavour=flavour,
        **fields,
    )


def _treasures(value: Any, check: Checker) -> tuple[Treasure, ...]:
    if not isinstance(value, list) or not value:
        raise check.fail("treasures", "must be a non-empty list of treasure kinds (T-67)")
    result = []
    for i, raw in enumerate(value):
        field = f"treasures[{i}]"
        if not isinstance(raw, Mapping):
            raise check.fail(field, "a treasure kind is an object")
        check.unknown(raw, TREASURE_FIELDS, field)
        count = check.integer(raw.get("count"), f"{field}.count", minimum=1)
        boosts: list[tuple[str, int]] = []
        if "boost" in raw:
            if not isinstance(raw["boost"], Mapping) or not raw["boost"]:
                raise check.fail(f"{field}.boost", "is an object stat -> amount (T-67)")
            check.unknown(raw["boost"], STATS, f"{field}.boost")
            for stat in STATS:
                if stat in raw["boost"]:
                    amount = check.integer(raw["boost"][stat], f"{field}.boost.{stat}", 1)
                    boosts.append((stat, amount))
        grant = raw.get("grant")
        if grant is not None and grant not in KEYWORDS:
            raise check.fail(f"{field}.grant", f"unknown keyword {grant!r}; use one of {', '.join(KEYWORDS)}")  # fmt: skip
        if not boosts and grant is None:
            raise check.fail(field, "a treasure boosts a stat or grants a keyword (T-67)")
        result.append(Treasure(count=count, boosts=tuple(boosts), grant=grant))
    total = sum(t.count for t in result)
    if total != TREASURE_TOKENS:
        raise check.fail("treasures", f"the bag holds {TREASURE_TOKENS} tokens, not {total} (T-7)")
    return tuple(result)


def parse_set(data: Any, source: str) -> CardSet:
    """Validate the decoded JSON of one set file (``source`` names it in errors)."""
    check = Checker(source)
    header = cardjson.set_header(data, SET_FIELDS, check)
    check.required(data, ("treasures",))
    numbers: set[int] = set()
    cards = [_card(raw, i, header.code, check, numbers) for i, raw in enumerate(header.cards)]
    seen: dict[tuple[str, str, str], Card] = {}
    for card in cards:
        for lang, name in (("ru", card.name_ru), ("en", card.name_en)):
            key = (_name_group(card), lang, normalise_name(name))
            if key in seen:
                check.card = cardjson.card_label(card.id, card.name_ru)
                raise check.fail(f"name.{lang}", f"{seen[key].id} has this name too")
            seen[key] = card
    check.card = None
    treasures = _treasures(data["treasures"], check)
    return CardSet(
        code=header.code,
        name_ru=header.name_ru,
        name_en=header.name_en,
        released=header.released,
        cards=tuple(cards),
        treasures=treasures,
        source=source,
    )


def load_set(path: Path) -> CardSet:
    """Read and validate one set file (not cached)."""
    path = Path(path)
    check = Checker(cardjson.display(path))
    return parse_set(cardjson.read_json(path, check), check.source)


# ---------------------------------------------------------------- reading the scenarios

SCENARIOS_FIELDS = {"system", "scenarios"}
SCENARIO_FIELDS = {
    "key",
    "number",
    "name",
    "rules",
    "board",
    "terrain",
    "enchanted",
    "shrine_glory",
    "treasure",
    "modes",
}
BOARD_FIELDS = {"radius", "removed"}
ENCHANTED_FIELDS = {"impassable", "blocks_los", "extra_cost", "aura"}
MODE_FIELDS = {
    "portals",
    "teams",
    "victory",
    "reserves",
    "villain_entry",
    "targets",
    "villains",
    "schemes",
    "beacon_glory",
}
VILLAIN_FIELDS = ("villain_entry", "targets", "villains", "schemes")
VICTORY_FIELDS = {"glory", "villain_glory"}
RESERVE_SIZE = {"duel": 4, "ffa": 3, "teams": 3, "solo": 4, "coop": 3, "archvillain": 4}
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class _Where:
    """Names the scenario in errors: ``scenario three_cairns «Три кургана»``."""

    @staticmethod
    def label(key: Any, name: Any = None) -> str:
        ident = f"scenario {key}"
        return f"{ident} «{name}»" if isinstance(name, str) and name else ident


def _cell(value: Any, field: str, check: Checker, cells: frozenset[Cell] | None) -> Cell:
    try:
        cell = parse_cell(value)
    except ValueError as exc:
        raise check.fail(field, f"{exc} (axial coordinates, D-1)") from None
    if cells is not None and cell not in cells:
        raise check.fail(field, f"{value} is not a cell of the map (D-2)")
    return cell


def _cell_list(value: Any, field: str, check: Checker, cells: frozenset[Cell]) -> tuple[Cell, ...]:
    items = check.str_list(value, field)
    return tuple(_cell(v, f"{field}[{i}]", check, cells) for i, v in enumerate(items))


def _seat_map(value: Any, field: str, check: Checker) -> dict[int, Any]:
    if not isinstance(value, Mapping):
        raise check.fail(field, 'is an object seat -> value ({"1": ..., "2": ...})')
    result = {}
    for key, item in value.items():
        if not isinstance(key, str) or not key.isdigit() or key.startswith("0"):
            raise check.fail(f"{field}.{key}", "a seat is a number from 1")
        result[int(key)] = item
    return result


def _mode(
    raw: Any,
    mode: str,
    check: Checker,
    scen: Mapping[str, Any],
) -> ModeSetup:
    field = f"modes.{mode}"
    if not isinstance(raw, Mapping):
        raise check.fail(field, "a mode's setup is an object")
    check.unknown(raw, MODE_FIELDS, field)
    for name in ("portals", "victory"):
        if name not in raw:
            raise check.fail(f"{field}.{name}", "is required")
    cells: frozenset[Cell] = scen["cells"]
    terrain: Mapping[Cell, str] = scen["terrain"]
    enchanted: Mapping[Cell, Enchanted] = scen["enchanted"]
    seats_allowed = MODES[mode][2]
    villainous = mode in VILLAIN_MODES
    portal_seats = 1 if mode in ("solo", "archvillain") else max(seats_allowed)
    portals_raw = _seat_map(raw["portals"], f"{field}.portals", check)
    if sorted(portals_raw) != list(range(1, portal_seats + 1)):
        raise check.fail(
            f"{field}.portals",
            f"{MODES[mode][0]} needs the portals of seats 1 to {portal_seats} (T-59)",
        )
    portals: dict[int, tuple[Cell, ...]] = {}
    owner: dict[Cell, int] = {}
    for seat, value in sorted(portals_raw.items()):
        where = f"{field}.portals.{seat}"
        seat_cells = _cell_list(value, where, check, cells)
        if not seat_cells:
            raise check.fail(where, "each player has a portal of their colour (T-59)")
        for i, cell in enumerate(seat_cells):
            if terrain.get(cell) is not None:
                raise check.fail(
                    f"{where}[{i}]",
                    f"a portal is a terrain of its own; {cell_key(cell)} is "
                    f"{terrain[cell]} (T-58, T-59)",
                )
            if cell in owner and mode != "coop":
                raise check.fail(
                    f"{where}[{i}]",
                    f"{cell_key(cell)} is already the portal of seat {owner[cell]} (T-59)",
                )
            owner.setdefault(cell, seat)
        portals[seat] = seat_cells
    teams: tuple[tuple[int, ...], ...] = ()
    if mode == "teams":
        value = raw.get("teams")
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(t, list) and len(t) == 2 for t in value)
        ):
            raise check.fail(f"{field}.teams", "two teams of two seats, e.g. [[1, 3], [2, 4]] (T-78)")  # fmt: skip
        flat = [check.integer(s, f"{field}.teams", minimum=1) for t in value for s in t]
        if sorted(flat) != [1, 2, 3, 4]:
            raise check.fail(f"{field}.teams", "the teams split seats 1 to 4 (T-78)")
        teams = tuple(tuple(t) for t in value)
    elif "teams" in raw:
        raise check.fail(f"{field}.teams", "only 2 vs 2 has teams (T-78)")
    victory = raw["victory"]
    if not isinstance(victory, Mapping):
        raise check.fail(f"{field}.victory", 'is an object, e.g. {"glory": 30} (T-25)')
    check.unknown(victory, VICTORY_FIELDS, f"{field}.victory")
    if "glory" not in victory:
        raise check.fail(f"{field}.victory.glory", "is required (T-25, T-95)")
    wins = {k: check.integer(v, f"{field}.victory.{k}", minimum=1) for k, v in victory.items()}
    if "villain_glory" in wins and not villainous:
        raise check.fail(f"{field}.victory.villain_glory", "only villains win by villain glory (T-95)")  # fmt: skip
    reserves: dict[int, tuple[str, ...]] = {}
    if "reserves" in raw:
        for seat, ids in sorted(_seat_map(raw["reserves"], f"{field}.reserves", check).items()):
            where = f"{field}.reserves.{seat}"
            if seat not in portals and not (mode == "coop" and seat <= 2):
                raise check.fail(where, f"no seat {seat} in {MODES[mode][0]}")
            listed = tuple(check.str_list(ids, where))
            if len(listed) != RESERVE_SIZE[mode]:
                raise check.fail(
                    where,
                    f"{MODES[mode][0]}: {RESERVE_SIZE[mode]} champions per player "
                    "(T-77, T-78, T-81, T-96)",
                )
            reserves[seat] = listed
    extra: dict[str, Any] = {}
    if villainous:
        for name in VILLAIN_FIELDS:
            if name not in raw:
                raise check.fail(f"{field}.{name}", f"is required in {MODES[mode][0]} (T-83, T-84, T-89)")  # fmt: skip
        entry = _cell_list(raw["villain_entry"], f"{field}.villain_entry", check, cells)
        if not entry:
            raise check.fail(f"{field}.villain_entry", "the villains enter somewhere (T-89, D-2)")
        for i, cell in enumerate(entry):
            if cell in owner:
                raise check.fail(f"{field}.villain_entry[{i}]", "a player's portal (T-59)")
            if terrain.get(cell) == "enchanted" and enchanted[cell].impassable:
                raise check.fail(f"{field}.villain_entry[{i}]", "an impassable cell (T-63)")
        targets_raw = raw["targets"]
        if not isinstance(targets_raw, Mapping) or set(targets_raw) != set(TOKENS):
            raise check.fail(f"{field}.targets", f"the cells of the 4 target tokens {', '.join(TOKENS)} (T-83)")  # fmt: skip
        targets = {t: _cell(targets_raw[t], f"{field}.targets.{t}", check, cells) for t in TOKENS}
        for t, cell in targets.items():
            if terrain.get(cell) == "enchanted" and enchanted[cell].impassable:
                raise check.fail(f"{field}.targets.{t}", "a target no villain can reach (T-89)")
        villains = tuple(check.str_list(raw["villains"], f"{field}.villains"))
        if len(villains) != 4:
            raise check.fail(f"{field}.villains", "the boss and 3 other villains (T-82)")
        schemes = raw["schemes"]
        if not isinstance(schemes, list) or not schemes:
            raise check.fail(f"{field}.schemes", "the scheme deck is a non-empty list of ids (T-84)")  # fmt: skip
        if not all(isinstance(s, str) for s in schemes):
            raise check.fail(f"{field}.schemes", "must be a list of strings")
        extra = {
            "villain_entry": entry,
            "targets": targets,
            "villains": villains,
            "schemes": tuple(schemes),
        }
    else:
        for name in VILLAIN_FIELDS:
            if name in raw:
                raise check.fail(f"{field}.{name}", "only the villain modes have villains (T-81)")
    beacon_glory = 0
    if "beacon_glory" in raw:
        beacon_glory = check.integer(raw["beacon_glory"], f"{field}.beacon_glory", minimum=1)
        if "beacon" not in terrain.values():
            raise check.fail(f"{field}.beacon_glory", "the map has no beacon (T-65)")
    return ModeSetup(
        mode=mode,
        seats=seats_allowed,
        portals=portals,
        victory=wins,
        teams=teams,
        reserves=reserves,
        beacon_glory=beacon_glory,
        **extra,
    )


def _connected(passable: set[Cell]) -> set[Cell]:
    """The cells reachable from the first passable cell (steps between passable cells)."""
    if not passable:
        return set()
    start = min(passable)
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for nxt in neighbours(cell):
            if nxt in passable and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _scenario(raw: Any, index: int, check: Checker) -> Scenario:
    check.card = f"scenario #{index + 1}"
    if not isinstance(raw, Mapping):
        raise check.fail("", "a scenario is a JSON object")
    key = raw.get("key")
    if not isinstance(key, str) or not _KEY.match(key):
        raise check.fail("key", "lower-case latin letters, digits and _ (three_cairns)")
    check.card = _Where.label(key)
    check.required(raw, ("name",))
    name_ru, name_en = check.text_pair(raw["name"], "name")
    check.card = _Where.label(key, name_ru)
    check.unknown(raw, SCENARIO_FIELDS)
    check.required(raw, ("number", "rules", "board", "modes", "treasure"))
    number = check.integer(raw["number"], "number", minimum=1)
    rules_ru, rules_en = check.text_pair(raw["rules"], "rules")
    board = raw["board"]
    if not isinstance(board, Mapping):
        raise check.fail("board", 'is {"radius": n, "removed": [cells]} (D-1)')
    check.unknown(board, BOARD_FIELDS, "board")
    if "radius" not in board:
        raise check.fail("board.radius", "is required")
    radius = check.integer(board["radius"], "board.radius", minimum=2)
    full = hexagon(radius)
    removed = _cell_list(board.get("removed", []), "board.removed", check, full)
    cells = full - set(removed)
    terrain_raw = raw.get("terrain", {})
    if not isinstance(terrain_raw, Mapping):
        raise check.fail("terrain", 'is an object cell -> terrain ({"1,1": "forest"})')
    terrain: dict[Cell, str] = {}
    for text, kind in terrain_raw.items():
        cell = _cell(text, f"terrain.{text}", check, cells)
        if kind not in TERRAIN:
            raise check.fail(f"terrain.{text}", f"unknown terrain {kind!r}; use one of {', '.join(TERRAIN)} (§10)")  # fmt: skip
        terrain[cell] = kind
    ench_raw = raw.get("enchanted", {})
    if not isinstance(ench_raw, Mapping):
        raise check.fail("enchanted", "is an object cell -> its rules (T-63, D-2)")
    enchanted: dict[Cell, Enchanted] = {}
    for text, rules in ench_raw.items():
        where = f"enchanted.{text}"
        cell = _cell(text, where, check, cells)
        if terrain.get(cell) != "enchanted":
            raise check.fail(where, "is not an enchanted-land cell of terrain (T-63)")
        if not isinstance(rules, Mapping):
            raise check.fail(where, "is an object of impassable, blocks_los, aura (D-2)")
        check.unknown(rules, ENCHANTED_FIELDS, where)
        aura = rules.get("aura")
        if aura is not None:
            if not isinstance(aura, Mapping) or not aura:
                raise check.fail(f"{where}.aura", "is an object stat -> amount (D-2)")
            check.unknown(aura, STATS, f"{where}.aura")
            for stat, amount in aura.items():
                check.integer(amount, f"{where}.aura.{stat}", minimum=1)
        enchanted[cell] = Enchanted(
            impassable=check.boolean(rules.get("impassable", False), f"{where}.impassable"),
            blocks_los=check.boolean(rules.get("blocks_los", False), f"{where}.blocks_los"),
            extra_cost=check.integer(rules.get("extra_cost", 0), f"{where}.extra_cost"),
            aura=dict(aura) if aura else None,
        )
        if enchanted[cell].impassable and aura:
            raise check.fail(f"{where}.aura", "no champion can stand on an impassable cell")
    for cell, kind in terrain.items():
        if kind == "enchanted" and cell not in enchanted:
            raise check.fail(
                "enchanted", f"the scenario defines enchanted land {cell_key(cell)} (T-63)"
            )
    shrine_glory = check.integer(raw.get("shrine_glory", 2), "shrine_glory", minimum=1)
    passable = {c for c in cells if not (terrain.get(c) == "enchanted" and enchanted[c].impassable)}
    reached = _connected(passable)
    if reached != passable:
        lost = min(passable - reached)
        raise check.fail(
            "board",
            f"the map is not connected: {cell_key(lost)} cannot be reached from "
            f"{cell_key(min(passable))} (D-2, D-11)",
        )
    treasure = _cell_list(raw["treasure"], "treasure", check, cells)
    for i, cell in enumerate(treasure):
        if cell not in passable:
            raise check.fail(f"treasure[{i}]", "no champion can reach it (T-63, T-67)")
    if len(treasure) > TREASURE_TOKENS:
        raise check.fail("treasure", f"the bag holds {TREASURE_TOKENS} tokens (T-7, T-12)")
    scen = {"cells": frozenset(cells), "terrain": terrain, "enchanted": enchanted}
    modes_raw = raw["modes"]
    if not isinstance(modes_raw, Mapping) or not modes_raw:
        raise check.fail("modes", "the modes the scenario allows, each with its setup (T-75)")
    modes: dict[str, ModeSetup] = {}
    for mode, setup in modes_raw.items():
        if mode not in MODES:
            raise check.fail(f"modes.{mode}", f"unknown mode; use one of {', '.join(MODES)} (T-75)")  # fmt: skip
        modes[mode] = _mode(setup, mode, check, scen)
        for seat, seat_cells in modes[mode].portals.items():
            for i, cell in enumerate(seat_cells):
                if cell not in passable:
                    raise check.fail(f"modes.{mode}.portals.{seat}[{i}]", "not passable (T-35)")
    if "archvillain" in modes and not ({"solo", "coop"} & set(modes)):
        raise check.fail("modes.archvillain", "Archvillain plays a solo or co-op scenario (T-75)")
    return Scenario(
        key=key,
        number=number,
        name_ru=name_ru,
        name_en=name_en,
        rules_ru=rules_ru,
        rules_en=rules_en,
        cells=frozenset(cells),
        terrain=terrain,
        enchanted=enchanted,
        shrine_glory=shrine_glory,
        treasure=treasure,
        modes=modes,
        source=check.source,
    )


def parse_scenarios(data: Any, source: str) -> list[Scenario]:
    """Validate the decoded JSON of a scenario file (cards are checked by ``load_system``)."""
    check = Checker(source)
    if not isinstance(data, Mapping):
        raise check.fail("", "a scenario file holds one JSON object")
    check.unknown(data, SCENARIOS_FIELDS)
    check.required(data, ("system", "scenarios"))
    if data["system"] != "tactics":
        raise check.fail("system", "must be 'tactics'")
    raw = data["scenarios"]
    if not isinstance(raw, list) or not raw:
        raise check.fail("scenarios", "must be a non-empty list")
    result = [_scenario(item, i, check) for i, item in enumerate(raw)]
    seen: dict[Any, str] = {}
    for scen in result:
        check.card = _Where.label(scen.key, scen.name_ru)
        for field, value in (
            ("key", scen.key),
            ("number", scen.number),
            ("name.ru", normalise_name(scen.name_ru)),
            ("name.en", normalise_name(scen.name_en)),
        ):
            if (field, value) in seen:
                raise check.fail(field, f"{seen[(field, value)]} has this {field} too")
            seen[(field, value)] = scen.key
    check.card = None
    return result


def load_scenarios(path: Path) -> list[Scenario]:
    """Read and validate one scenario file (not cached; card ids unchecked)."""
    path = Path(path)
    check = Checker(cardjson.display(path))
    return parse_scenarios(cardjson.read_json(path, check), check.source)


def check_references(db: TacticsDB) -> None:
    """The card ids a scenario names exist and are of the right kind; the system's
    basics are whole (T-9, T-11, T-14, T-50)."""
    for scen in db.scenarios.values():
        check = Checker(scen.source)
        check.card = _Where.label(scen.key, scen.name_ru)
        for mode, setup in scen.modes.items():
            used: dict[str, int] = {}
            for seat, ids in setup.reserves.items():
                for i, ident in enumerate(ids):
                    where = f"modes.{mode}.reserves.{seat}[{i}]"
                    card = db.cards.get(ident)
                    if card is None or card.type not in ("champion", "monster"):
                        raise check.fail(where, f"{ident} is not a champion (T-16)")
                    if ident in used:
                        raise check.fail(where, f"{ident} is in seat {used[ident]}'s reserve too (T-84)")  # fmt: skip
                    used[ident] = seat
            for i, ident in enumerate(setup.villains):
                where = f"modes.{mode}.villains[{i}]"
                card = db.cards.get(ident)
                if card is None or card.type != "villain":
                    raise check.fail(where, f"{ident} is not a villain (T-81)")
                if i == 0 and not card.is_boss:
                    raise check.fail(where, "the first villain is the boss: glory 4 or more (T-82)")  # fmt: skip
                if i > 0 and card.is_boss:
                    raise check.fail(where, "the other villains have glory 3 or less (T-82)")
            if len(set(setup.villains)) != len(setup.villains):
                raise check.fail(f"modes.{mode}.villains", "a villain twice (T-84)")
            for i, ident in enumerate(setup.schemes):
                card = db.cards.get(ident)
                if card is None or card.type != "scheme":
                    raise check.fail(f"modes.{mode}.schemes[{i}]", f"{ident} is not a scheme (T-84)")  # fmt: skip
    if not db.sets:
        return
    check = Checker(db.sets[0].source)
    if len(db.starters()) != STARTER_CARDS:
        raise check.fail("cards", f"a starting deck is {STARTER_CARDS} cards (T-9)")
    if len(db.of("cultist")) != 1:
        raise check.fail("cards", "the system has one shared Cultist card (T-11, T-50)")
    seats = sorted(c.seat or 0 for c in db.gates())
    if seats != [1, 2, 3, 4]:
        raise check.fail("cards", "one gate for each of seats 1 to 4 (T-7, T-14)")


@functools.lru_cache(maxsize=4)
def load_system(directory: str | None = None) -> TacticsDB:
    """Every set file of ``directory`` (default ``engine/sets/tactics``) and its
    ``_scenarios.json``, checked together; cached."""
    folder = Path(directory) if directory else SETS_DIR
    sets = [load_set(p) for p in cardjson.set_files(folder)]
    if not sets:
        raise CardDataError(cardjson.display(folder), "no Tactics set files")
    codes: set[str] = set()
    for card_set in sets:
        if card_set.code in codes:
            raise CardDataError(card_set.source, f"two sets have the code {card_set.code}")
        codes.add(card_set.code)
    scen_path = folder / SCENARIO_FILE
    scenarios = load_scenarios(scen_path) if scen_path.exists() else []
    db = TacticsDB(sets, scenarios)
    check_references(db)
    return db
