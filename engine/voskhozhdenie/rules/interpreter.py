"""The effect interpreter (6.2, 6.3): a stack of frames of effect ops, selectors that
may ask a player to choose, and the deferred elimination check of one op (AMB-34).
The ops themselves are in ``engine.voskhozhdenie.rules.ops``.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import rng
from engine.core.errors import EngineBug
from engine.voskhozhdenie.rules.filters import NO_FILTER


class Interpreter:
    """The interpreter's frames and selectors (6.2, 6.3); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # the interpreter (6.2, 6.3): frames of ops
    # ===================================================================================

    def run_op(self) -> None:
        s = self.s
        frame = s["frames"][-1]
        if not frame["ops"]:
            s["frames"].pop()
            return
        op = frame["ops"].pop(0)
        ctx = frame["ctx"]
        if not frame["ops"]:
            s["frames"].pop()
        self.execute(op, ctx)

    def push(self, ops: list, ctx: Mapping) -> None:
        self.s["frames"].append({"ops": list(ops), "ctx": dict(ctx)})

    def ask(self, op: Mapping, ctx: Mapping, seat: int, options: list, count: int, **kw):
        """Suspend ``op`` until ``seat`` picks from ``options`` (an effect's choice)."""
        self.set_pending(
            seat, "choose", options=options, count=count, op=dict(op), ctx=dict(ctx), **kw
        )

    def select(self, op: Mapping, ctx: Mapping, key: str = "target") -> list[int] | None:
        """Resolve the selector of ``op``; None if a choice is now pending."""
        sel = op[key]
        kind = sel["select"]
        if kind == "self":
            src = ctx.get("source")
            return [src] if src is not None else []
        if kind == "event_card":
            ev = ctx.get("event_card")
            return [ev] if ev is not None else []
        if "_picks" in op:
            return list(op["_picks"])
        flt = sel.get("filter", NO_FILTER)
        found = self.matching(flt, ctx)
        if kind == "all":
            return found
        count = self.amount(sel.get("count", 1), ctx)
        if kind == "random":
            found = list(found)
            rng.shuffle(self.s["rng"], found)
            return found[:count]
        me = ctx.get("controller")
        found = [
            i
            for i in found
            if self.s["cards"][i]["owner"] == me or not self.prohibited("be_targeted", iid=i)
        ]
        optional = bool(sel.get("optional"))
        if not found or count <= 0:
            return []
        if len(found) <= count and not optional:
            return found  # no real choice
        self.ask(op, ctx, me, found, min(count, len(found)), optional=optional)
        return None

    def execute(self, op: Mapping, ctx: dict) -> None:
        self._ver += 1
        name = op["op"]
        handler = getattr(self, "op_" + name.lstrip("_"), None)
        if handler is not None and self._deferred is None:
            self._deferred = []
            try:
                self.execute_op(handler, op, ctx)
            finally:
                deferred, self._deferred = self._deferred, None
            self.eliminate_many(deferred)
            return
        self.execute_op(handler, op, ctx)

    def execute_op(self, handler, op: Mapping, ctx: dict) -> None:
        name = op["op"]
        if handler is None:
            raise EngineBug(f"op {name!r} is not implemented")
        # Player words that need a choice first (choose_opponent).
        if op.get("player") == "choose_opponent" and "_player" not in ctx:
            options = self.opponents(ctx["controller"])
            if len(options) > 1:
                self.set_pending(
                    ctx["controller"],
                    "choose",
                    options=options,
                    count=1,
                    op=dict(op),
                    ctx=dict(ctx),
                    pick="player",
                )
                return
            ctx = dict(ctx, _player=options[0] if options else None)
            if options == []:
                return
        handler(op, ctx)
