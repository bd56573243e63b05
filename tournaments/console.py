"""What apps above the tournaments app add to the organiser's console (the manage page).

The drafting app adds the actions and the form of a limited event's pods; the
tournaments app renders them and runs them like its own, knowing nothing of drafting.
Registered from the apps' ``AppConfig.ready()``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Handler = Callable[[Any, Any, Mapping[str, str]], object]  # (user, event, posted data)


@dataclass(frozen=True)
class Action:
    handler: Handler  # raises TournamentError / NotAllowed (services.errors) with a message
    success: str  # what the organiser is told when it worked (translated lazily)


_ACTIONS: dict[str, Action] = {}
_CONTEXT: list[Callable[[Any], dict[str, Any]]] = []


def add_action(name: str, handler: Handler, success: str) -> None:
    _ACTIONS[name] = Action(handler, success)


def add_context(provider: Callable[[Any], dict[str, Any]]) -> None:
    if provider not in _CONTEXT:
        _CONTEXT.append(provider)


def actions() -> dict[str, Action]:
    return dict(_ACTIONS)


def context(event) -> dict[str, Any]:
    """What the registered apps put on an event's console page."""
    out: dict[str, Any] = {}
    for provider in _CONTEXT:
        out.update(provider(event))
    return out
