"""Filters for board-game tables that draw the view themselves: a card's printed face
from the game's limited kit (the same faces the drafting pages show), the legal actions
grouped by a key, an action as the JSON the table posts, and a difference of numbers.

Game-neutral: the game system is the session's key, looked up in the registry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django import template
from django.utils.translation import get_language

from engine.core import registry

register = template.Library()


@lru_cache(maxsize=4096)
def _face(system: str, card_id: str, language: str) -> dict[str, Any] | None:
    try:
        kit = registry.get(system).load("limited")
    except Exception:
        return None
    if kit is None:
        return None
    try:
        face = kit.face(card_id, language)
    except Exception:
        return None
    out = face.as_dict()
    out["stat"] = {s["symbol"]: s["value"] for s in out["stats"]}
    return out


@register.filter
def card_face(card_id: Any, system: Any) -> dict[str, Any] | None:
    """``p.id|card_face:session.system``: the card's printed face in the page's language
    (``name``, ``type_name``, ``cost``, ``stats``, ``stat`` by symbol, ``tags``,
    ``text``, ``colours``), or None when the game has no faces or the id is unknown."""
    if not isinstance(card_id, str) or not isinstance(system, str):
        return None
    language = "ru" if (get_language() or "en").startswith("ru") else "en"
    return _face(system, card_id, language)


@register.filter
def group_by(actions: Any, key: str) -> list[dict[str, Any]]:
    """``data.legal|group_by:"card"``: the mappings that have ``key``, grouped by its
    value in the order first met: ``[{"key": value, "items": [...]}, ...]``."""
    groups: dict[Any, list[Any]] = {}
    for item in actions or ():
        if isinstance(item, Mapping) and key in item:
            value = item[key]
            groups.setdefault(json.dumps(value, sort_keys=True), []).append(item)
    return [{"key": items[0][key], "items": items} for items in groups.values()]


@register.filter
def as_json(value: Any) -> str:
    """An action as the compact JSON the table posts (as the view's ``legal`` list has it)."""
    return json.dumps(value, separators=(",", ":"))


@register.filter
def minus(value: Any, other: Any) -> Any:
    """``a|minus:b``: ``a - b`` for whole numbers; else ``a`` unchanged."""
    try:
        return int(value) - int(other)
    except (TypeError, ValueError):
        return value
