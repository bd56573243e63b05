"""The game-system protocol every rules engine implements.

A game is a deterministic state machine over plain data:

* ``new_game(config, decks, seed) -> state``: setup, from a seed;
* ``legal_actions(state, player) -> [action]``: what ``player`` may do now;
* ``apply(state, player, action) -> (state, events)``: a new state (the input is
  never mutated) and the public events it produced, or ``IllegalAction`` with a
  message for the player and the input state unchanged;
* ``view(state, player) -> dict``: what ``player`` may see (``None``: a
  spectator); hidden zones show counts only (rule 1.4 of «Восхождение»);
* ``result(state) -> GameResult``;
* ``leave(state, player, reason) -> (state, events)``: the player leaves the game
  (conceded, or their time ran out) and, where the rules let the others play on, the
  game goes on without them: each system by its own rules («Восхождение» 1.3.7-1.3.9:
  the player is eliminated, and wins for nobody; a two-sided game ends).

Optional: ``next_game_config(config, result) -> config``, the config the next game of a
match starts from, given the last game's config and result (e.g. Berserk 302.2: the
winner chooses who goes first). Without it a match's games share game 1's config.

Optional: ``interrupts(state, player) -> [action]``, what ``player`` may do while it is
not to act (e.g. a token used on an opponent's turn); ``apply`` then takes such an action
from that seat. Without it a seat acts only when ``to_act`` names it. The platform asks
through ``interrupts(system, state, player)`` below, never the hook itself.

Optional: ``ending(state, language, names) -> str | None``, one sentence on how a finished
game was decided by its rules (who ran out of what, who reached what score, with rule
numbers), in ``language`` (``"en"`` or ``"ru"``), naming seats by ``names`` (seat ->
name; ``"Seat n"`` for one without). Only public facts of the final state: nothing a
player could not see. Without it (or when it returns None) the end screen says only that
the rules decided. The platform asks through ``ending(system, state, language, names)``.

The action log records a departure as ``{"type": LEAVE, "reason": ...}``, an action no
player can send (``apply`` refuses it), so that ``replay`` rebuilds the state exactly.

States, actions and events are JSON-serialisable dicts and lists. The state
holds the random generator's state (``engine.core.rng``), so the same seed and
action log always rebuild the same state (``replay``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
LEAVE = "@leave"  # the action log's record of a seat leaving the game (``leave``)
LEAVE_REASONS = ("concede", "time")
Action = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class GameResult:
    """The outcome of a game, by seat (0-based, in the order of ``decks``)."""

    finished: bool
    winners: tuple[int, ...] = ()
    draw: bool = False
    eliminated: tuple[int, ...] = ()  # in the order players were eliminated
    scores: Mapping[int, int] = field(
        default_factory=dict
    )  # for games that score (placement points)


@runtime_checkable
class GameSystem(Protocol):
    key: str

    def new_game(self, config: Mapping[str, Any], decks: Sequence[Any], seed: int) -> State: ...

    def legal_actions(self, state: State, player: int) -> list[Action]: ...

    def apply(self, state: State, player: int, action: Action) -> tuple[State, list[Event]]: ...

    def view(self, state: State, player: int | None) -> dict[str, Any]: ...

    def result(self, state: State) -> GameResult: ...

    def to_act(self, state: State) -> tuple[int, ...]:
        """Seats that may act now (empty once the game is over)."""
        ...

    def leave(self, state: State, player: int, reason: str) -> tuple[State, list[Event]]:
        """``player`` leaves the game (``reason`` one of ``LEAVE_REASONS``), at any time and
        on anyone's turn: ``IllegalAction`` if the game is over or they are out already.
        The result names them among the eliminated (in the order players left)."""
        ...


def interrupts(system: GameSystem, state: State, player: int) -> list[Action]:
    """The actions ``player`` may take out of turn: the system's optional ``interrupts``
    hook, none for a system without it, and none for a seat that is to act (its
    ``legal_actions`` hold everything it may do)."""
    hook = getattr(system, "interrupts", None)
    if hook is None or player in system.to_act(state):
        return []
    return list(hook(state, player))


def ending(
    system: GameSystem, state: State, language: str, names: Mapping[int, str] | None = None
) -> str | None:
    """How a finished game was decided, as the system's optional ``ending`` hook words it:
    None for a system without the hook, an unfinished game, or no sentence."""
    hook = getattr(system, "ending", None)
    if hook is None or not system.result(state).finished:
        return None
    return (
        hook(state, "ru" if (language or "").lower().startswith("ru") else "en", dict(names or {}))
        or None
    )


def leave_action(reason: str) -> Action:
    """The action log's record of a departure."""
    return {"type": LEAVE, "reason": reason}


def replay(
    system: GameSystem,
    config: Mapping[str, Any],
    decks: Sequence[Any],
    seed: int,
    log: Iterable[tuple[int, Action]],
) -> State:
    """Rebuild a state from the seed and the action log."""
    state = system.new_game(config, decks, seed)
    for player, action in log:
        if action.get("type") == LEAVE:
            state, _events = system.leave(state, player, action.get("reason", "concede"))
        else:
            state, _events = system.apply(state, player, action)
    return state
