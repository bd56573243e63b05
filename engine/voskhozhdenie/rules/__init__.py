"""The rules of «Восхождение» over one state dict, one module per rule chapter.

``Rules`` is the rules object the engine (``engine.voskhozhdenie.game``), the views and
the bots work with: ``Rules(system, state)`` applies the rules to ``state`` in place
(callers pass a copy); ``Rules(system, state, readonly=True)`` only reads it, and
memoises what it computes. It is composed of one mixin per part of the rules:

    state        the state dict, players and teams (1.2), zones (1.4), pending decisions
    statics      static abilities in stage order (6.2.1.1): Strength, keywords, cost, ...
    filters      the terms of the effect language (6.2): filters, amounts, conditions
    zones        zone moves (1.4.4) and the card rules of 2.3 (wounding, destroying, ...)
    ending       elimination and the end of a game (1.3.7-1.3.10)
    triggers     triggered (6.3.7-6.3.9, 6.3.13, 6.3.14) and replacement (6.3.11,
                 6.3.12) abilities
    interpreter  the effect interpreter's frames and selectors (6.2, 6.3)
    ops          the handlers of the effect ops (6.2)
    playing      playing cards (6.4) and the Queue (6.5)
    flow         the game structure (5.1-5.8) except Tactic Resolution
    tactics      Tactic Resolution (5.6.4)
    legal        candidate actions and their validation (5.6.3.2, 6.3.5, decisions)
    actions      performing actions and the answers to decisions

The mixins share the attributes of ``Rules`` (its ``__slots__``) and call each other's
methods through ``self``; none of them is used alone.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Action, Event, State
from engine.voskhozhdenie.rules.actions import Actions
from engine.voskhozhdenie.rules.ending import Ending
from engine.voskhozhdenie.rules.filters import Selection
from engine.voskhozhdenie.rules.flow import Flow
from engine.voskhozhdenie.rules.interpreter import Interpreter
from engine.voskhozhdenie.rules.legal import Legal
from engine.voskhozhdenie.rules.ops import Ops
from engine.voskhozhdenie.rules.playing import Playing
from engine.voskhozhdenie.rules.state import StateAccess
from engine.voskhozhdenie.rules.statics import Statics
from engine.voskhozhdenie.rules.tactics import Tactics
from engine.voskhozhdenie.rules.triggers import Triggers
from engine.voskhozhdenie.rules.zones import Zones


# ``Ops`` comes first: ``execute`` looks its handlers up by a name built at run time, which
# the type's attribute cache does not keep, so they are found in the first class searched.
class Rules(
    Ops,
    StateAccess,
    Statics,
    Selection,
    Zones,
    Ending,
    Triggers,
    Interpreter,
    Playing,
    Flow,
    Tactics,
    Legal,
    Actions,
):
    """The rules over one state dict (mutated in place: callers pass a copy)."""

    __slots__ = (
        "_busy",
        "_cache",
        "_deferred",
        "_fast",
        "_filtered",
        "_own",
        "_ro_ops",
        "_stat_cache",
        "_strength",
        "_trig_index",
        "_trusted",
        "_ver",
        "_zw",
        "events",
        "s",
        "sys",
    )

    def __init__(self, system: Any, state: State, readonly: bool = False):
        # ``system``: the ``engine.voskhozhdenie.game.Voskhozhdenie`` the state belongs to
        self.sys = system
        self.s = state
        self.events: list[Event] = []
        self._busy = False
        # Cache of the static sources and lost abilities, valid while ``_ver`` is
        # unchanged; every mutation that can change them bumps ``_ver``.
        self._ver = 0
        self._cache: dict[str, tuple[int, Any]] = {}
        # ``_statics``: (version, cards and Battlefield sizes, table, sources in force,
        # writes of zone or wounded, "stat" list)
        self._stat_cache: tuple[int, int, int, dict, tuple, int, list] | None = None
        self._filtered: tuple[tuple, dict] | None = None
        self._trusted: list[Action] = []
        self._fast = True  # legal_actions: trust the per-card checks of ``candidates``
        self._deferred: list[int] | None = None  # eliminations waiting for an effect
        self._own: set[int] = set()  # card dicts already copied for this state (``mut``)
        # Strength by instance, for callers that never mutate the state (legal actions,
        # bots, views).
        self._strength: dict[int, int | None] | None = {} if readonly else None
        # The same callers never change the state, so the static tables are fixed: the
        # static ops by name, once computed (``static_ops``).
        self._ro_ops: dict[str, list] | None = {} if readonly else None
        self._trig_index: tuple | None = None  # (the "trig" list object, by event)
        self._zw = 0  # writes of a card's "zone" or "wounded" (the static sources' state)
