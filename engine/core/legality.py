"""What a player may send: an action is legal only if the engine offers it.

Every system's ``apply`` starts with ``check_action``. An action is JSON data sent by a
client that may be hostile, so before any rule looks at it:

* its shape is checked: an object whose keys are strings, with a string ``type``, no
  deeper than ``MAX_DEPTH`` and no larger than ``MAX_NODES`` values;
* the player must be one of ``to_act`` (else ``NotYourTurn``);
* then either the action's type has a schema the system declares next to its actions
  (``ACTION_SCHEMAS``: parametrised actions whose every choice cannot be listed, such as
  picking several targets out of many), and the action must fit it exactly, the system's
  own checks doing the rest; or the action must equal one of ``legal_actions(state,
  player)`` in ``canonical`` form, where types are exact (``1``, ``1.0`` and ``True``
  are three different values) and a key more or less makes another action.

Anything else is ``IllegalAction``, and the state is untouched: the check reads only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalAction, NotYourTurn

MAX_DEPTH = 6
MAX_NODES = 2_000
MAX_STRING = 200
MAX_INT = 2**53  # what a JavaScript client can send exactly


class Spec:
    """The type of one value of a parametrised action (``ActionSchema``)."""

    def check(self, key: str, value: Any) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Spec):
    low: int = -MAX_INT
    high: int = MAX_INT

    def check(self, key: str, value: Any) -> None:
        if type(value) is not int or not self.low <= value <= self.high:
            raise IllegalAction(f'"{key}" must be a whole number from {self.low} to {self.high}.')


@dataclass(frozen=True)
class Str(Spec):
    max_length: int = MAX_STRING

    def check(self, key: str, value: Any) -> None:
        if type(value) is not str or len(value) > self.max_length:
            raise IllegalAction(f'"{key}" must be a text of at most {self.max_length} characters.')


@dataclass(frozen=True)
class Nullable(Spec):
    inner: Spec

    def check(self, key: str, value: Any) -> None:
        if value is not None:
            self.inner.check(key, value)


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    max_length: int = 64

    def check(self, key: str, value: Any) -> None:
        if type(value) is not list or len(value) > self.max_length:
            raise IllegalAction(f'"{key}" must be a list of at most {self.max_length} values.')
        for item in value:
            self.item.check(key, item)


@dataclass(frozen=True)
class ActionSchema:
    """The exact keys of one parametrised action type (besides ``type``)."""

    required: Mapping[str, Spec] = field(default_factory=dict)
    optional: Mapping[str, Spec] = field(default_factory=dict)

    def check(self, action: Mapping[str, Any]) -> None:
        for key, spec in self.required.items():
            if key not in action:
                raise IllegalAction(f'This action needs "{key}".')
            spec.check(key, action[key])
        for key, value in action.items():
            if key == "type" or key in self.required:
                continue
            spec = self.optional.get(key)
            if spec is None:
                raise IllegalAction(f'This action has no "{key}".')
            spec.check(key, value)


def canonical(value: Any) -> Any:
    """A hashable form of JSON data in which types are exact: ``1``, ``1.0`` and ``True``
    differ, as do a list and an object. ``IllegalAction`` for anything not JSON, nested
    deeper than ``MAX_DEPTH`` or larger than ``MAX_NODES`` values."""
    budget = [MAX_NODES]
    return _canonical(value, 0, budget)


def _canonical(value: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise IllegalAction("This action is too large.")
    kind = type(value)
    if kind is str:
        if len(value) > MAX_STRING:
            raise IllegalAction("This action is too large.")
        return ("s", value)
    if kind is bool:
        return ("b", value)
    if kind is int:
        return ("i", value)
    if value is None:
        return ("n",)
    if kind is float:
        return ("f", value)
    if kind is list or kind is tuple:
        return ("l", tuple(_canonical(v, depth + 1, budget) for v in value))
    if kind is dict or isinstance(value, Mapping):
        items = []
        for key, item in value.items():
            if type(key) is not str:
                raise IllegalAction("An action's keys are texts.")
            items.append((key, _canonical(item, depth + 1, budget)))
        items.sort(key=lambda pair: pair[0])
        return ("d", tuple(items))
    raise IllegalAction("An action is made of JSON values only.")


def check_shape(action: Any) -> Any:
    """The checks that need no game: a JSON object with a ``type`` text; its canonical form."""
    if not isinstance(action, Mapping) or type(action.get("type")) is not str:
        raise IllegalAction('An action is an object with a "type".')
    return canonical(action)


def check_action(
    system: Any,
    state: Mapping[str, Any],
    player: Any,
    action: Any,
    explain: Callable[[], None] | None = None,
    form: Any = None,
    offered: list | None = None,
) -> None:
    """Raise ``IllegalAction`` (``NotYourTurn``) unless ``player`` may send ``action``
    now: see the module's docstring.

    ``explain``, for an action that is not offered: the system's own checks, run on a
    copy, so that the player hears the rule that forbids it ("You need 3 runes...",
    with its rule number). Whatever they do (raise something else, or find nothing to
    object to), the action stays refused. ``form``: what ``check_shape`` returned, if the
    caller checked the shape first (a move's action is then made canonical once).
    ``offered``: the legal actions if the caller has them, or just those of the action's
    type (no other can equal it), else ``legal_actions(state, player)`` is asked."""
    if form is None:
        form = check_shape(action)
    if type(player) is not int or player not in system.to_act(state):
        raise NotYourTurn("It is not your turn to act.")
    schema = getattr(system, "ACTION_SCHEMAS", {}).get(action["type"])
    if schema is not None:
        schema.check(action)
        return
    if offered is None:
        offered = system.legal_actions(state, player)
    for candidate in offered:
        if candidate.get("type") == action["type"] and canonical(candidate) == form:
            return
    if explain is not None:
        try:
            explain()
        except IllegalAction:
            raise
        except Exception:  # junk the system's own checks were never meant to see
            pass
    if any(candidate.get("type") == action["type"] for candidate in offered):
        raise IllegalAction("That action is not open to you as sent: choose one of those offered.")
    raise IllegalAction(f"You cannot do {action['type'][:40]!r} now.")
