"""The stack, priority and chains of objects (215-216). Pure functions over plain data.

The stack is not a zone: it holds objects, never cards [215.1]. A declared ability
enters as a *chain* of objects [215.3д]: a full chain of nine [216.1а], pushed in reverse
so that its Declaration object is on top; an ability without dice has no Roll, Result
or Calculation objects and pushes six [216.1б]. Each object is a priority window
(digest, engine notes): while it is on top, players may answer with instant abilities
(defenders and redirections while the Target object is on top [216.3], die modifiers
while the Roll or Result object is [422.3], weakening the first time the Calculation
object is [216.7]).

Priority [215.6-215.9]: one player holds it; a pass is an action that does not use the
stack; two passes in a row execute the top object (a non-empty stack) or end the step or
phase (an empty one); after any object is declared or executed the active player gets
priority.

A stack is a list of objects, bottom first; an object is a dict
``{"chain": n, "kind": <one of KINDS>, "seen": bool, ...}`` whose other keys belong to
the chain's ability (the engine's business). A destruction effect given by wounds
(402.3а) is an object of kind ``DESTRUCTION`` with the card it destroys (``card``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# 216.1: the objects of a chain, from the top (executed first) to the bottom.
FULL_CHAIN = (
    "declaration",
    "target",
    "roll",
    "result",
    "calculation",
    "defense",
    "wounds",
    "payment",
    "end",
)
DICE_KINDS = ("roll", "result", "calculation")  # 216.1б: left out without dice
SIMPLE_CHAIN = tuple(kind for kind in FULL_CHAIN if kind not in DICE_KINDS)
REDIRECTION_CHAIN = ("wounds", "payment")  # 412.4: cannot itself be redirected or blocked
# 402.3а: the destruction effect, the one triggered property, goes on the stack like a
# trigger: an object of its own above the chain whose Wounds object gave it (CK-072).
DESTRUCTION = "destruction"
KINDS = (*FULL_CHAIN, DESTRUCTION)

Object = dict[str, Any]
Stack = list[Object]


def chain_objects(
    chain: int, *, dice: bool = True, kinds: Sequence[str] | None = None, **ability: Any
) -> list[Object]:
    """The objects of one chain, bottom first (so that the Declaration object ends on top
    when they are pushed in this order) [216.1а-б]."""
    order = tuple(kinds) if kinds is not None else (FULL_CHAIN if dice else SIMPLE_CHAIN)
    unknown = [kind for kind in order if kind not in KINDS] if kinds is not None else []
    if unknown:
        raise ValueError(f"unknown chain objects: {unknown}")
    return [{"chain": chain, "kind": kind, "seen": False, **ability} for kind in reversed(order)]


def push_chain(stack: Sequence[Object], chain: int, *, dice: bool = True, **ability: Any) -> Stack:
    """A new stack with one chain declared on top of ``stack`` [400.3, 216.1а]."""
    return [*stack, *chain_objects(chain, dice=dice, **ability)]


def destruction_object(chain: int, card: int, **more: Any) -> Object:
    """The destruction effect of card ``card`` as a stack object (402.3а): ``chain`` is the
    chain whose wounds gave it; it is a priority window of its own, so an instant ability
    may answer it, and it is cancelled if the card has lives again when it executes
    (402.3б, CK-072)."""
    return {"chain": chain, "kind": DESTRUCTION, "seen": False, "card": card, **more}


def push_simultaneous(
    stack: Sequence[Object],
    active: Iterable[Iterable[Object]],
    non_active: Iterable[Iterable[Object]],
) -> Stack:
    """Chains declared at the same moment: all the active player's first, then the
    non-active player's, each in the order its player chose; so the non-active player's
    chains are on top and execute first [215.4, 103.5]."""
    out = list(stack)
    for chains in (active, non_active):
        for objects in chains:
            out.extend(objects)
    return out


def top(stack: Sequence[Object]) -> Object | None:
    return stack[-1] if stack else None


def height(stack: Sequence[Object], obj: Object) -> int:
    """The number of objects below ``obj`` [215.3б-г]."""
    for index, candidate in enumerate(stack):
        if candidate is obj:
            return index
    raise ValueError("not on this stack")


def first_time_on_top(stack: Sequence[Object]) -> bool:
    """Is the top object on top for the first time (the moment of 216.2 and 216.7)?"""
    obj = top(stack)
    return obj is not None and not obj["seen"]


def mark_seen(stack: Sequence[Object]) -> Stack:
    """The stack with its top object marked as having been on top."""
    if not stack:
        return list(stack)
    return [*stack[:-1], {**stack[-1], "seen": True}]


def pop(stack: Sequence[Object]) -> tuple[Object, Stack]:
    """The top object, which executes and leaves the stack [215.8], and the rest."""
    if not stack:
        raise ValueError("the stack is empty")
    return stack[-1], list(stack[:-1])


def remove_chain(stack: Sequence[Object], chain: int, *, keep_payment: bool = False) -> Stack:
    """Cancel (every object goes, the Payment object too [409.1]) or block (every object
    but the Payment object [410.1]) one chain."""
    return [
        obj for obj in stack if obj["chain"] != chain or (keep_payment and obj["kind"] == "payment")
    ]


def chain_of(stack: Sequence[Object], chain: int) -> list[Object]:
    return [obj for obj in stack if obj["chain"] == chain]


# ---------------------------------------------------------------- priority


def new_priority(active: int) -> dict[str, int]:
    """At the start of a phase or step the active player gets priority [300.6, 215.9]."""
    return {"holder": active, "passes": 0}


def after_declare_or_execute(active: int) -> dict[str, int]:
    """After an object is declared or executed the active player holds priority [215.9]."""
    return new_priority(active)


def after_pass(priority: Mapping[str, int], stack: Sequence[Object]) -> tuple[dict[str, int], str]:
    """A pass by the holder [215.6а]: priority goes to the other player; the second pass in
    a row executes the top object of a non-empty stack ("execute") or ends the step or
    phase on an empty one ("end") [215.8, 300.3]; else "continue"."""
    passes = priority["passes"] + 1
    if passes >= 2:
        return {"holder": priority["holder"], "passes": 0}, ("execute" if stack else "end")
    return {"holder": 1 - priority["holder"], "passes": passes}, "continue"
