"""The effect language: how card abilities are written in set files.

Abilities are data, not code. Each ability is a JSON object whose ``kind``
follows rule 6.3.1 of «Восхождение»; its effects are a list of operations
(``op``) that the rules engine interprets. This module is the single source of
truth for the vocabulary: the loader validates every ability against it, and
the engine implements every op listed here (a test checks both directions).

Ability kinds::

    {"kind": "dynamic", "effects": [...]}                         # Orders (6.3.1.1)
    {"kind": "static", "effects": [...]}                          # 6.3.1.2, static ops only
    {"kind": "triggered", "trigger": {...}, "effects": [...]}     # 6.3.1.4
    {"kind": "activated", "cost": [...], "effects": [...],
     "limit": "round"}                                            # 6.3.1.3 (limit optional)
    {"kind": "decree", "condition": {...}, "effects": [...]}      # 6.3.5: cost is a condition
    {"kind": "replacement", "replaces": {...}, "effects": [...]}  # 6.3.1.5
    {"kind": "superiority", "effects": [...]}                     # Tactics, 5.6.4.2.2
    {"kind": "outcome", "result": "win", "effects": [...]}        # Tactics, 5.6.4.3

Selectors choose cards::

    {"select": "self"}                         # the card with the ability
    {"select": "choose", "filter": {...}, "count": 1, "optional": false}
    {"select": "all", "filter": {...}}
    {"select": "random", "filter": {...}, "count": 1}
    {"select": "event_card"}                   # the card the trigger/replacement is about

Conditions (decrees, "if") are ``{name: argument}``: simple ones take an int or
an object of their parameters (``{"coins_at_least": 3}``,
``{"control": {"filter": {...}, "min": 2}}``); ``all``/``any`` take a list,
``not`` one condition.

A filter is an object with any of: ``type`` (str or list), ``subtype``,
``colour``, ``owner`` ("you", "opponent", "ally", "any", "defender"), ``zone``
("battlefield" by default, "hand", "graveyard", "reinforcement", "queue"),
``wounded`` (bool), ``assigned`` (bool), ``ruined`` (bool), ``minor`` (bool),
``max_strength`` / ``min_strength`` (int), ``keyword``, ``other`` (true: not the
card itself), ``name`` (a card id).

Players are chosen with ``player``: "you", "each_opponent", "choose_opponent",
"each_player", "defender" (the player a Tactic was declared against),
"event_player" (the player a trigger is about), "owner" (of the target).

Amounts are ints, or ``{"x": true}`` (the X paid), or ``{"count": filter}``
(how many cards match).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ABILITY_KINDS = (
    "dynamic",
    "static",
    "triggered",
    "activated",
    "decree",
    "replacement",
    "superiority",
    "outcome",
)
DURATIONS = ("turn", "round", "permanent")
PLAYERS = (
    "you",
    "each_opponent",
    "choose_opponent",
    "each_player",
    "defender",
    "event_player",
    "owner",
)
OWNERS = ("you", "opponent", "ally", "any", "defender")
ZONES = ("battlefield", "hand", "graveyard", "reinforcement", "main_deck", "oblivion", "queue")
SELECTS = ("self", "choose", "all", "random", "event_card")
OUTCOMES = ("win", "lose", "tie", "any")

# Trigger events (for "triggered" abilities and "replacement" abilities' "replaces").
EVENTS = (
    "game_start",  # 5.5
    "round_start",  # 5.6.1.3
    "turn_start",  # 5.6.3.1 (the active player's turn)
    "turn_end",  # 5.6.3.3
    "round_end",  # 5.6.5.1
    "played",  # 6.4.2.4: a card was played (card filter applies to it)
    "enters_battlefield",
    "leaves_battlefield",
    "destroyed",  # a card went from the Battlefield to a Graveyard
    "wounded",  # a card was wounded (Squad became wounded, City/Fortification lost Strength)
    "healed",
    "city_ruined",
    "assigned",  # a Squad was assigned to a Tactic
    "tactic_declared",
    "direct_attack",  # a player created a Direct Attack (5.6.3.2.2, AMB-03); no event card
    "tactic_resolved",  # 5.6.4.4: other cards' abilities about a Tactic's resolution
    "drawn",
    "discarded",
    "decree_issued",
    "eliminated",
)

# Each op: the parameters it takes. "target" is a selector, "player" a player
# word, "amount"/"count" an amount, others as listed. Params ending in "?" are optional.
DYNAMIC_OPS: Mapping[str, tuple[str, ...]] = {
    "draw": ("count", "player?"),
    "discard": ("count", "player?", "random?"),
    "mill": ("count", "player?"),  # top cards of the Main Deck to the Graveyard
    "gain_coins": ("amount", "player?"),
    "lose_coins": ("amount", "player?"),
    "change_supply": ("amount", "player?"),
    "wound": ("amount", "target"),
    "heal": ("target",),
    "restore": ("target",),
    "destroy": ("target",),  # to its owner's Graveyard
    "exile": ("target",),  # to its owner's Oblivion
    "return_to_hand": ("target",),
    "to_bottom_of_deck": ("target",),
    "unassign": ("target",),
    "create_minor": ("card", "count?", "player?"),  # card: id of a Minor card
    "modify_strength": ("amount", "target", "duration?"),
    "grant_keyword": ("keyword", "target", "duration?"),
    "play_free": ("target",),  # play a card without paying its cost
    "return_from_graveyard": ("target",),  # to hand
    "look_at_top": ("count", "player?"),  # the player looks at and may reorder nothing
    "choose_one": ("options",),  # options: list of effect lists
    "if": ("condition", "then", "else?"),  # then/else: effect lists
    "repeat": ("times", "effects"),
}
STATIC_OPS: Mapping[str, tuple[str, ...]] = {
    "strength": ("amount", "target"),  # 6.2.1.1.1.7
    "keyword": ("keyword", "target"),  # 6.2.1.1.1.4
    "lose_abilities": ("target",),  # 6.2.1.1.1.4
    "cost": ("amount", "target"),  # 6.2.1.1.1.8; target filters cards anywhere
    "cannot": ("action", "target?", "player?"),  # prohibitions (1.1.3): see CANNOT_ACTIONS
    "supply": ("amount",),  # adds to the owner's Supply value while on the Battlefield
    "max_direct_attacks": ("amount",),
}
CANNOT_ACTIONS = (
    "assign",
    "be_assigned",
    "be_wounded",
    "declare_tactic",
    "play_orders",
    "be_targeted",
    "draw",
)
COST_OPS: Mapping[str, tuple[str, ...]] = {
    "pay": ("coins",),
    "discard": ("count",),
    "wound_self": ("amount",),
    "destroy_self": (),
    "exile_from_graveyard": ("count",),
    "sacrifice": ("target",),  # destroy one of your own cards chosen by the filter
}
CONDITIONS: Mapping[str, tuple[str, ...]] = {
    "control": ("filter", "min?", "max?"),  # you have between min and max matching cards
    "coins_at_least": ("amount",),
    "hand_at_most": ("amount",),
    "hand_at_least": ("amount",),
    "cities_ruined_at_least": ("amount", "player?"),
    "round_at_least": ("amount",),
    "opponent_has": ("filter", "min?"),
    "all": ("conditions",),
    "any": ("conditions",),
    "not": ("condition",),
}


class EffectError(ValueError):
    """An ability that does not follow the effect language; ``path`` says where."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def validate_ability(ability: Any, path: str = "ability") -> None:
    """Raise EffectError naming the first bad field of one ability."""
    if not isinstance(ability, Mapping):
        raise EffectError(path, "an ability must be an object")
    kind = ability.get("kind")
    if kind not in ABILITY_KINDS:
        raise EffectError(
            f"{path}.kind", f"unknown ability kind {kind!r}; use one of {', '.join(ABILITY_KINDS)}"
        )
    allowed = {"kind", "effects", "text"}
    if kind == "static":
        _effects(ability.get("effects"), f"{path}.effects", STATIC_OPS)
    else:
        _effects(ability.get("effects"), f"{path}.effects", DYNAMIC_OPS)
    if kind == "triggered":
        allowed |= {"trigger"}
        _trigger(ability.get("trigger"), f"{path}.trigger")
    elif kind == "activated":
        allowed |= {"cost", "limit"}
        cost = ability.get("cost")
        if not isinstance(cost, list) or not cost:
            raise EffectError(f"{path}.cost", "an activated ability needs a non-empty cost list")
        for i, item in enumerate(cost):
            _op(item, f"{path}.cost[{i}]", COST_OPS)
        if ability.get("limit") not in (None, "round", "turn"):
            raise EffectError(f"{path}.limit", "limit is 'round' or 'turn'")
    elif kind == "decree":
        allowed |= {"condition"}
        _condition(ability.get("condition"), f"{path}.condition")
    elif kind == "replacement":
        allowed |= {"replaces"}
        _trigger(ability.get("replaces"), f"{path}.replaces")
    elif kind == "outcome":
        allowed |= {"result"}
        if ability.get("result") not in OUTCOMES:
            raise EffectError(f"{path}.result", f"result is one of {', '.join(OUTCOMES)}")
    extra = set(ability) - allowed
    if extra:
        raise EffectError(
            path, f"unexpected field(s) {', '.join(sorted(extra))} for a {kind} ability"
        )


def _effects(effects: Any, path: str, ops: Mapping[str, tuple[str, ...]]) -> None:
    if not isinstance(effects, list) or not effects:
        raise EffectError(path, "effects must be a non-empty list")
    for i, effect in enumerate(effects):
        _op(effect, f"{path}[{i}]", ops)


def _op(effect: Any, path: str, ops: Mapping[str, tuple[str, ...]]) -> None:
    if not isinstance(effect, Mapping):
        raise EffectError(path, "an effect must be an object")
    op = effect.get("op")
    if op not in ops:
        raise EffectError(f"{path}.op", f"unknown op {op!r}; use one of {', '.join(ops)}")
    params = ops[op]
    required = {p for p in params if not p.endswith("?")}
    optional = {p[:-1] for p in params if p.endswith("?")}
    missing = required - set(effect)
    if missing:
        raise EffectError(path, f"op {op!r} needs {', '.join(sorted(missing))}")
    extra = set(effect) - required - optional - {"op"}
    if extra:
        raise EffectError(path, f"op {op!r} does not take {', '.join(sorted(extra))}")
    for name, value in effect.items():
        if name == "op":
            continue
        _param(op, name, value, f"{path}.{name}")


def _param(op: str, name: str, value: Any, path: str) -> None:
    if name in ("amount", "count", "times", "coins"):
        _amount(value, path)
    elif name == "target":
        _selector(value, path)
    elif name == "player":
        if value not in PLAYERS:
            raise EffectError(path, f"player is one of {', '.join(PLAYERS)}")
    elif name == "duration":
        if value not in DURATIONS:
            raise EffectError(path, f"duration is one of {', '.join(DURATIONS)}")
    elif name == "keyword":
        if not isinstance(value, str) or not value:
            raise EffectError(path, "keyword must be a word")
    elif name == "card":
        if not isinstance(value, str) or not value:
            raise EffectError(path, "card must be the id of a Minor card")
    elif name == "action":
        if value not in CANNOT_ACTIONS:
            raise EffectError(path, f"action is one of {', '.join(CANNOT_ACTIONS)}")
    elif name == "condition":
        _condition(value, path)
    elif name in ("then", "else", "effects"):
        _effects(value, path, DYNAMIC_OPS)
    elif name == "options":
        if not isinstance(value, list) or len(value) < 2:
            raise EffectError(path, "choose_one needs at least two options")
        for i, option in enumerate(value):
            _effects(option, f"{path}[{i}]", DYNAMIC_OPS)
    elif name == "random" and not isinstance(value, bool):
        raise EffectError(path, "random is true or false")


def _amount(value: Any, path: str) -> None:
    if isinstance(value, bool):
        raise EffectError(path, "an amount is a number")
    if isinstance(value, int):
        return
    if isinstance(value, Mapping) and value.get("x") is True and len(value) == 1:
        return
    if isinstance(value, Mapping) and set(value) == {"count"}:
        _filter(value["count"], f"{path}.count")
        return
    raise EffectError(path, 'an amount is an int, {"x": true} or {"count": filter}')


def _selector(value: Any, path: str) -> None:
    if not isinstance(value, Mapping) or value.get("select") not in SELECTS:
        raise EffectError(path, f"a target is a selector with select one of {', '.join(SELECTS)}")
    extra = set(value) - {"select", "filter", "count", "optional"}
    if extra:
        raise EffectError(path, f"unexpected selector field(s) {', '.join(sorted(extra))}")
    if "filter" in value:
        _filter(value["filter"], f"{path}.filter")
    if value["select"] in ("choose", "all", "random") and "filter" not in value:
        raise EffectError(path, f"select {value['select']!r} needs a filter")
    if "count" in value:
        _amount(value["count"], f"{path}.count")


FILTER_FIELDS = (
    "type",
    "subtype",
    "colour",
    "owner",
    "zone",
    "wounded",
    "assigned",
    "ruined",
    "minor",
    "max_strength",
    "min_strength",
    "keyword",
    "other",
    "name",
)


def _filter(value: Any, path: str) -> None:
    if not isinstance(value, Mapping):
        raise EffectError(path, "a filter is an object")
    extra = set(value) - set(FILTER_FIELDS)
    if extra:
        raise EffectError(path, f"unknown filter field(s) {', '.join(sorted(extra))}")
    if "owner" in value and value["owner"] not in OWNERS:
        raise EffectError(f"{path}.owner", f"owner is one of {', '.join(OWNERS)}")
    if "zone" in value and value["zone"] not in ZONES:
        raise EffectError(f"{path}.zone", f"zone is one of {', '.join(ZONES)}")


def _trigger(value: Any, path: str) -> None:
    if not isinstance(value, Mapping) or value.get("event") not in EVENTS:
        raise EffectError(path, f"a trigger needs event, one of {', '.join(EVENTS)}")
    extra = set(value) - {"event", "card", "player"}
    if extra:
        raise EffectError(path, f"unexpected trigger field(s) {', '.join(sorted(extra))}")
    if "card" in value and value["card"] != "self":
        _filter(value["card"], f"{path}.card")
    if "player" in value and value["player"] not in ("you", "opponent", "any"):
        raise EffectError(f"{path}.player", "player is you, opponent or any")


def _condition(value: Any, path: str) -> None:
    if not isinstance(value, Mapping) or len(value) != 1:
        raise EffectError(path, f"a condition is an object with one of {', '.join(CONDITIONS)}")
    ((name, arg),) = value.items()
    if name not in CONDITIONS:
        raise EffectError(path, f"unknown condition {name!r}; use one of {', '.join(CONDITIONS)}")
    if name in ("all", "any"):
        if not isinstance(arg, list) or not arg:
            raise EffectError(f"{path}.{name}", "a list of conditions")
        for i, item in enumerate(arg):
            _condition(item, f"{path}.{name}[{i}]")
    elif name == "not":
        _condition(arg, f"{path}.not")
    elif name in ("control", "opponent_has"):
        if not isinstance(arg, Mapping) or "filter" not in arg:
            raise EffectError(f"{path}.{name}", "needs a filter")
        _filter(arg["filter"], f"{path}.{name}.filter")
    elif not isinstance(arg, int | Mapping):
        raise EffectError(f"{path}.{name}", "needs an amount")
