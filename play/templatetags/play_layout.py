"""The drawing plan of a game's own table: ``layout(view, legal, language)`` of the game's
``engine/<system>/describe.py``, where it has one (a hex board's pixels, highlighted cells,
labelled buttons), so that the table template only draws.

Game-neutral: the system is the session's key, checked against the registry.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from django import template
from django.utils.translation import get_language

from engine.core import registry

register = template.Library()


@register.simple_tag
def table_layout(
    system: Any, view: Any, legal: Any = (), seats: Any = None
) -> dict[str, Any] | None:
    """``{% table_layout session.system data.view data.legal as plan %}``: the game's plan
    for this viewer's view (None when the game draws no plan). With ``seats`` (the table's
    seat list) a plan that takes ``names`` gets each seat's player name."""
    if not isinstance(system, str):
        return None
    try:
        registry.get(system)
        module = importlib.import_module(f"engine.{system}.describe")
    except (KeyError, LookupError, ModuleNotFoundError):
        return None
    plan = getattr(module, "layout", None)
    if not callable(plan):
        return None
    extra: dict[str, Any] = {}
    if seats and "names" in inspect.signature(plan).parameters:
        extra["names"] = {s["number"]: s["label"] for s in seats if s.get("label")}
    return plan(view or {}, list(legal or ()), get_language() or "en", **extra)
