"""The effect language of Ascension cards: validation and rules text (docs/ascension.md).

An ability is a JSON object ``{"kind": ..., "effects": [op, ...]}``:

=========  ===========================  ==================================================
kind       card types                   when its effects happen
=========  ===========================  ==================================================
play       hero, construct              when the card is played from hand (A-17, A-23)
unite      hero, construct (faction)    «Wsparcie» (A-46, AA-3): when its player plays
                                        *another* Hero of the card's faction later in the
                                        same turn while this Hero was played this turn (or
                                        this Construct is in play); at most once per turn
activate   construct                    once per turn, on its controller's turn, whenever
                                        they choose (A-58, A-59, AA-12)
reward     monster                      when the monster is defeated (A-21, A-52)
=========  ===========================  ==================================================

Ops (``OPS``); amounts and counts are integers >= 1:

* ``{"op": "runes", "amount": n}``, ``{"op": "power", "amount": n}``: gain runes / power.
* ``{"op": "honor", "amount": n}``: take n honor from the pool (A-31, A-42).
* ``{"op": "draw", "count": n}``: draw n cards (A-39 reshuffle).
* ``{"op": "banish", "from": "hand" | "discard" | "hand_or_discard" | "center",
  "optional": bool}``: choose one card there and banish it (A-33..A-35).
* ``{"op": "defeat_free", "max_cost": n}``: defeat a center-row Monster costing at most
  n without paying; its reward is gained (optional).
* ``{"op": "acquire_free", "max_cost": n, "types"?: ["hero", "construct"],
  "to"?: "discard" | "hand" | "deck_top"}``: acquire a center-row card costing at most n
  for free (optional); ``to`` (default the discard pile, A-26) is card text that takes
  precedence over A-26 (A-5).
* ``{"op": "if", "cond": cond, "then": [ops], "else"?: [ops]}``.
* ``{"op": "reveal_top", "match": {"type"?: t, "faction"?: f}, "then": [ops]}``: reveal
  the top card of your deck (reshuffling first if the deck is empty, A-39/AA-9); it
  stays on top; if it matches, the ``then`` ops happen.
* ``{"op": "opponents_keep_one"}``: each opponent who controls two or more Constructs
  keeps one of their choice and destroys the rest (A-19, A-61).
* ``{"op": "steal_random"}``: take one random card from each opponent's hand into your
  hand; it is yours for the rest of the game (A-62).

Conditions (``if``): ``{"control": {"min": n, "faction"?: f}}`` (you control at least n
Constructs, A-20) and ``{"played": {"min": n, "faction"?: f, "type"?: t}}`` (you played at
least n *other* cards this turn that match).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CARD_TYPES = ("hero", "construct", "monster")
FACTIONS = ("enlightened", "lifebound", "mechana", "void")
FACTION_NAMES = {
    "enlightened": ("Просвещённые", "Enlightened"),
    "lifebound": ("Жизнеродные", "Lifebound"),
    "mechana": ("Механа", "Mechana"),
    "void": ("Служители Бездны", "Void"),
}
ABILITY_KINDS: Mapping[str, tuple[str, ...]] = {
    "play": ("hero", "construct"),
    "unite": ("hero", "construct"),
    "activate": ("construct",),
    "reward": ("monster",),
}
BANISH_FROM = ("hand", "discard", "hand_or_discard", "center")
ACQUIRE_TO = ("discard", "hand", "deck_top")
OPS: Mapping[str, dict[str, Any]] = {
    # op -> {field: kind}; kind "int" (>= 1), "bool", "ops", "cond", "match", or a tuple of
    # allowed strings; a field name ending in "?" is optional.
    "runes": {"amount": "int"},
    "power": {"amount": "int"},
    "honor": {"amount": "int"},
    "draw": {"count": "int"},
    "banish": {"from": BANISH_FROM, "optional?": "bool"},
    "defeat_free": {"max_cost": "int"},
    "acquire_free": {"max_cost": "int", "types?": "types", "to?": ACQUIRE_TO},
    "if": {"cond": "cond", "then": "ops", "else?": "ops"},
    "reveal_top": {"match": "match", "then": "ops"},
    "opponents_keep_one": {},
    "steal_random": {},
}
CONDITIONS = ("control", "played")


class EffectError(ValueError):
    """An ability that does not follow the language; ``path`` names the field."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def _int(value: Any, path: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise EffectError(path, f"must be an integer of at least {minimum}, not {value!r}")
    return value


def _match(value: Any, path: str, allow_min: bool = False) -> None:
    if not isinstance(value, Mapping):
        raise EffectError(path, "must be an object")
    allowed = {"type", "faction"} | ({"min"} if allow_min else set())
    extra = set(value) - allowed
    if extra:
        raise EffectError(path, f"unknown field(s) {', '.join(sorted(extra))}")
    if "type" in value and value["type"] not in CARD_TYPES:
        raise EffectError(f"{path}.type", f"use one of {', '.join(CARD_TYPES)}")
    if "faction" in value and value["faction"] not in FACTIONS:
        raise EffectError(f"{path}.faction", f"use one of {', '.join(FACTIONS)}")
    if allow_min:
        _int(value.get("min"), f"{path}.min")


def _cond(value: Any, path: str) -> None:
    if not isinstance(value, Mapping) or len(value) != 1:
        raise EffectError(path, f"a condition is one of {', '.join(CONDITIONS)}")
    ((name, body),) = value.items()
    if name not in CONDITIONS:
        raise EffectError(path, f"unknown condition {name!r}; use {', '.join(CONDITIONS)}")
    _match(body, f"{path}.{name}", allow_min=True)
    if name == "control" and "type" in body:
        raise EffectError(f"{path}.control.type", "only Constructs are controlled (A-20)")


def validate_ops(ops: Any, path: str) -> None:
    if not isinstance(ops, list) or not ops:
        raise EffectError(path, "must be a non-empty list of ops")
    for i, op in enumerate(ops):
        validate_op(op, f"{path}[{i}]")


def validate_op(op: Any, path: str) -> None:
    if not isinstance(op, Mapping):
        raise EffectError(path, "an op is an object")
    name = op.get("op")
    if name not in OPS:
        raise EffectError(f"{path}.op", f"unknown op {name!r}; use one of {', '.join(OPS)}")
    spec = OPS[name]
    fields = {key.rstrip("?"): kind for key, kind in spec.items()}
    required = {key for key in spec if not key.endswith("?")}
    extra = set(op) - set(fields) - {"op"}
    if extra:
        raise EffectError(path, f"unknown field(s) {', '.join(sorted(extra))} for op {name!r}")
    for key in required:
        if key not in op:
            raise EffectError(f"{path}.{key}", f"op {name!r} needs this field")
    for key, kind in fields.items():
        if key not in op:
            continue
        value, where = op[key], f"{path}.{key}"
        if kind == "int":
            _int(value, where)
        elif kind == "bool":
            if not isinstance(value, bool):
                raise EffectError(where, "must be true or false")
        elif kind == "ops":
            validate_ops(value, where)
        elif kind == "cond":
            _cond(value, where)
        elif kind == "match":
            _match(value, where)
        elif kind == "types":
            if (
                not isinstance(value, list)
                or not value
                or any(t not in ("hero", "construct") for t in value)
            ):
                raise EffectError(where, 'must be a non-empty list of "hero", "construct"')
        elif value not in kind:
            raise EffectError(where, f"use one of {', '.join(kind)}")


def validate_ability(ability: Any, path: str, card_type: str) -> None:
    if not isinstance(ability, Mapping):
        raise EffectError(path, "an ability is an object")
    extra = set(ability) - {"kind", "effects"}
    if extra:
        raise EffectError(path, f"unknown field(s) {', '.join(sorted(extra))}")
    kind = ability.get("kind")
    if kind not in ABILITY_KINDS:
        raise EffectError(
            f"{path}.kind", f"unknown kind {kind!r}; use one of {', '.join(ABILITY_KINDS)}"
        )
    if card_type not in ABILITY_KINDS[kind]:
        raise EffectError(f"{path}.kind", f"a {card_type} cannot have a {kind} ability")
    validate_ops(ability.get("effects"), f"{path}.effects")


def reward_honor(ops: list[Mapping[str, Any]]) -> int:
    """The unconditional honor of a reward: what Samael gains from a monster (A-50)."""
    return sum(op["amount"] for op in ops if op["op"] == "honor")


# ---------------------------------------------------------------------------------------
# Rules text, generated from the abilities in both languages.


def _ru_plural(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


_TYPE_WORDS = {
    "hero": ("Героя", "Hero"),
    "construct": ("Конструкт", "Construct"),
    "monster": ("Монстра", "Monster"),
}
_FACTION_ADJ_RU = {  # genitive/accusative masculine, for "another ... Hero"
    "enlightened": "Просвещённых",
    "lifebound": "Жизнеродных",
    "mechana": "Механы",
    "void": "Служителей Бездны",
}


def _match_text(match: Mapping[str, Any], lang: str) -> str:
    t = match.get("type")
    f = match.get("faction")
    if lang == "en":
        words = [FACTION_NAMES[f][1]] if f else []
        words.append(_TYPE_WORDS[t][1] if t else "card")
        return " ".join(words)
    word = {"hero": "Герой", "construct": "Конструкт", "monster": "Монстр"}[t] if t else "карта"
    return f"{word} ({_FACTION_ADJ_RU[f]})" if f else word


def _cond_text(cond: Mapping[str, Any], lang: str) -> str:
    ((name, body),) = cond.items()
    n = body["min"]
    f = body.get("faction")
    if name == "control":
        if lang == "en":
            what = f"{FACTION_NAMES[f][1]} " if f else ""
            return f"if you control at least {n} {what}Construct{'s' if n > 1 else ''}"
        what = f" {_FACTION_ADJ_RU[f]}" if f else ""
        return f"если вы контролируете не меньше {n} {_ru_plural(n, 'Конструкта', 'Конструктов', 'Конструктов')}{what}"
    if lang == "en":
        what = _match_text(body, "en")
        return f"if you played at least {n} other {what}{'s' if n > 1 else ''} this turn"
    t = body.get("type")
    word = {"hero": "Героя", "construct": "Конструкта", "monster": "Монстра"}.get(t, "карты")
    if n > 1:
        word = {"hero": "Героев", "construct": "Конструктов"}.get(t, "карт")
    fac = f" {_FACTION_ADJ_RU[body['faction']]}" if "faction" in body else ""
    return f"если в этот ход вы сыграли ещё не меньше {n} {word}{fac}"


def _sentence(s: str) -> str:
    return s[:1].upper() + s[1:]


def op_text(op: Mapping[str, Any], lang: str) -> str:
    name = op["op"]
    ru = lang == "ru"
    if name in ("runes", "power", "honor"):
        n = op["amount"]
        if ru:
            noun = {
                "runes": _ru_plural(n, "руну", "руны", "рун"),
                "power": _ru_plural(n, "единицу силы", "единицы силы", "единиц силы"),
                "honor": _ru_plural(n, "очко чести", "очка чести", "очков чести"),
            }[name]
            return f"Получите {n} {noun}."
        noun = {"runes": "rune", "power": "power", "honor": "honor"}[name]
        plural = "s" if name == "runes" and n != 1 else ""
        return f"Gain {n} {noun}{plural}."
    if name == "draw":
        n = op["count"]
        if ru:
            return f"Возьмите {n} {_ru_plural(n, 'карту', 'карты', 'карт')}."
        return f"Draw {n} card{'s' if n != 1 else ''}."
    if name == "banish":
        where = {
            "hand": ("из вашей руки", "from your hand"),
            "discard": ("из вашего сброса", "from your discard pile"),
            "hand_or_discard": ("из вашей руки или сброса", "from your hand or discard pile"),
            "center": ("из центрального ряда", "in the center row"),
        }[op["from"]]
        if ru:
            verb = "Можете убрать" if op.get("optional") else "Уберите"
            return f"{verb} 1 карту {where[0]}."
        verb = "You may banish" if op.get("optional") else "Banish"
        return f"{verb} a card {where[1]}."
    if name == "defeat_free":
        n = op["max_cost"]
        if ru:
            return (
                f"Можете бесплатно победить Монстра стоимостью {n} или меньше из центрального ряда."
            )
        return f"You may defeat a Monster in the center row that costs {n} or less for free."
    if name == "acquire_free":
        n = op["max_cost"]
        types = op.get("types", ["hero", "construct"])
        to = op.get("to", "discard")
        if ru:
            what = " или ".join({"hero": "Героя", "construct": "Конструкт"}[t] for t in types)
            dest = {
                "discard": "",
                "hand": " и взять его в руку",
                "deck_top": " и положить его на верх своей колоды",
            }[to]
            return f"Можете бесплатно получить {what} стоимостью {n} или меньше из центрального ряда{dest}."
        what = " or ".join(t.capitalize() for t in types)
        dest = {
            "discard": "",
            "hand": " and put it into your hand",
            "deck_top": " and put it on top of your deck",
        }[to]
        return f"You may acquire a {what} in the center row that costs {n} or less for free{dest}."
    if name == "if":
        then = " ".join(op_text(o, lang) for o in op["then"])
        text = f"{_sentence(_cond_text(op['cond'], lang))}: {then[:1].lower()}{then[1:]}"
        if "else" in op:
            other = " ".join(op_text(o, lang) for o in op["else"])
            text += f" {'Иначе' if ru else 'Otherwise'}: {other[:1].lower()}{other[1:]}"
        return text
    if name == "reveal_top":
        then = " ".join(op_text(o, lang) for o in op["then"])
        what = _match_text(op["match"], lang)
        if ru:
            return (
                f"Откройте верхнюю карту своей колоды. Если это {what}: "
                f"{then[:1].lower()}{then[1:]}"
            )
        return f"Reveal the top card of your deck. If it is a {what}: {then[:1].lower()}{then[1:]}"
    if name == "opponents_keep_one":
        if ru:
            return (
                "Каждый противник оставляет себе 1 свой Конструкт по выбору и уничтожает остальные."
            )
        return "Each opponent keeps one Construct of their choice and destroys the rest."
    if name == "steal_random":
        if ru:
            return "Возьмите в руку по 1 случайной карте из руки каждого противника."
        return "Take a random card from each opponent's hand into your hand."
    raise EffectError("op", f"no text for op {name!r}")


def ability_text(ability: Mapping[str, Any], faction: str | None, lang: str) -> str:
    body = " ".join(op_text(op, lang) for op in ability["effects"])
    kind = ability["kind"]
    if kind != "play":
        body = body[:1].lower() + body[1:]
    if kind == "play":
        return body
    if kind == "reward":
        return f"{'Награда' if lang == 'ru' else 'Reward'}: {body}"
    if kind == "activate":
        return f"{'Раз в ход' if lang == 'ru' else 'Once per turn'}: {body}"
    if lang == "ru":
        return f"Союз ({_FACTION_ADJ_RU[faction]}): {body}"
    return f"Unite ({FACTION_NAMES[faction][1]}): {body}"


def card_text(abilities: list[Mapping[str, Any]], faction: str | None, lang: str) -> str:
    return "\n".join(ability_text(a, faction, lang) for a in abilities)
