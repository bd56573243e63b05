"""Small filters for game tables: look a key up in a mapping, seats counted from 1."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: Any, key: Any) -> Any:
    """``names|lookup:iid``: the value under ``key`` (also tried as text), or ``""``."""
    if not hasattr(mapping, "get"):
        return ""
    value = mapping.get(key)
    if value is None:
        value = mapping.get(str(key), "")
    return value


@register.filter
def seat_no(value: Any) -> Any:
    """An engine seat (0-based) as players count it (from 1)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value + 1
    return value


@register.filter
def strength_total(iids: Any, cards: Any) -> int:
    """``t.attack|strength_total:by_iid``: the summed current Strength of those card
    instances as the view shows them (5.6.4.1: how a Tactic's sides compare)."""
    total = 0
    for iid in iids or ():
        card = lookup(cards, iid)
        strength = card.get("strength") if hasattr(card, "get") else None
        if isinstance(strength, int) and not isinstance(strength, bool):
            total += strength
    return total


@register.filter
def clock_text(seconds: Any) -> str:
    """Seconds left on a clock as the running clocks read (static/js/gauntlet.js): m:ss,
    or h:mm:ss from an hour."""
    try:
        left = max(0, round(float(seconds)))
    except (TypeError, ValueError):
        return ""
    hours, rest = divmod(left, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
