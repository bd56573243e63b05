"""The game structure (chapter 5): the stages Initiative (5.3), Mulligan (5.4) and
Pre-game Effects (5.5), then rounds: Round Start (5.6.1: draw, coins, triggers), Decrees
(5.6.2), Actions turns (5.6.3, AMB-26), Round End (5.6.5); nothing moves on while the
Queue is not empty (5.7). Tactic Resolution (5.6.4) is in
``engine.voskhozhdenie.rules.tactics``.
"""

from __future__ import annotations

from engine.core import rng
from engine.core.errors import EngineBug

MAX_MULLIGANS = 5  # 5.4
OPENING_HAND = 5  # 5.4


class Flow:
    """The flow of a game (5.1-5.8); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # the flow (5.1-5.8)
    # ===================================================================================

    def advance(self) -> None:
        s = self.s
        for _ in range(100000):
            if s["finished"] or s["pending"] is not None:
                return
            if s["waiting"] and not self.flush_waiting():
                return
            if s["frames"]:
                self.run_op()
                continue
            if "replacing" in s:
                del s["replacing"]  # no replacement is being carried out any more
            if s["queue"]:
                self.resolve_head()  # 5.7: nothing else happens until it is empty
                continue
            if not self.step():
                return
        raise EngineBug("the game did not reach a decision in 100000 steps")

    def goto(self, step: str) -> None:
        self.s["step"] = step
        self.s["idx"] = 0
        self.s["flag"] = False
        self.emit("step", step=step, round=self.s["round"])

    def step(self) -> bool:
        """Perform one automatic step; False when a player must act."""
        self._ver += 1
        s = self.s
        step = s["step"]
        # the most frequent steps first
        if step == "turn_start":
            self.trigger("turn_start", None, s["active"])  # 5.6.3.1
            s["step"] = "action"
            return True
        if step == "action":
            if self.player(s["active"])["eliminated"] or self.player(s["active"])["passed"]:
                s["step"] = "turn_end"
                return True
            return False  # the active player acts
        if step == "turn_end":
            if not s["flag"]:
                s["flag"] = True
                self.trigger("turn_end", None, s["active"])  # 5.6.3.3
                return True
            if s["temp"]:
                s["temp"] = [t for t in s["temp"] if t["duration"] != "turn"]
            if any(k.startswith("t:") for k in s["used"]):
                s["used"] = {k: v for k, v in s["used"].items() if not k.startswith("t:")}
            self.next_turn()
            return True
        if step == "initiative":
            self.initiative()
            return True
        if step == "mulligan":
            order = s["turn_order"]
            while s["idx"] < len(order) and self.player(order[s["idx"]])["eliminated"]:
                s["idx"] += 1
            if s["idx"] < len(order):
                self.set_pending(order[s["idx"]], "mulligan")
                return True
            s["stage"] = "pregame"
            self.goto("pregame")
            return True
        if step == "pregame":
            # 5.5: start-of-game effects trigger, then Supply values are set.
            self.trigger("game_start", None, None)
            self.goto("pregame_supply")
            return True
        if step == "pregame_supply":
            for p in s["players"]:
                p["supply"] = self.city_supply(p["seat"])
            s["stage"] = "rounds"
            self.new_round()
            return True
        if step == "draw":
            return self.draw_step()
        if step == "coin":
            for seat in self.order_from(self.sim_start()):
                p = self.player(seat)
                if not p["eliminated"]:
                    p["coins"] += self.supply(seat)  # 5.6.1.2
            self.goto("round_start")
            return True
        if step == "round_start":
            self.trigger("round_start", None, None)  # 5.6.1.3
            self.goto("decree")
            return True
        if step == "decree":
            return self.decree_step()
        if step == "tactics":
            self.tactic_step()
            return True
        if step == "round_end":
            if not s["flag"]:
                s["flag"] = True
                self.trigger("round_end", None, None)  # 5.6.5.1
                return True
            s["temp"] = [t for t in s["temp"] if t["duration"] not in ("turn", "round")]
            if "idle" in s and self.idle_round_ends_game():
                return True
            if s.get("round_limit") is not None and s["round"] >= s["round_limit"]:
                self.end_as_draw("round_limit")
                return True
            self.new_round()
            return True
        raise EngineBug(f"unknown step {step!r}")

    def city_supply(self, seat: int, skip_ruined: bool = False) -> int:
        """5.5: the Supply symbols on all of a player's Cities."""
        s = self.s
        return sum(
            self.card(i).supply
            for i in s["battlefield"]
            if s["cards"][i]["owner"] == seat
            and self.card(i).type == "city"
            and not (skip_ruined and s["cards"][i]["ruined"])
        )

    def initiative(self) -> None:
        """5.3, AMB-13: everyone rolls; tied highest players re-roll among themselves."""
        s = self.s
        count, sides = s["dice"]
        rolling = self.alive()
        rolls: dict[int, int] = {}
        while True:
            rolls = {seat: rng.roll(s["rng"], count, sides) for seat in rolling}
            s["initiative"].append([[seat, v] for seat, v in rolls.items()])  # public record
            self.emit("initiative", rolls={str(k): v for k, v in rolls.items()})
            best = max(rolls.values())
            rolling = [seat for seat, v in rolls.items() if v == best]
            if len(rolling) == 1:
                break
        self.set_pending(rolling[0], "first_player", options=self.alive())
        s["step"] = "first_player"

    def set_turn_order(self, first: int) -> None:
        """5.3.1 / 5.3.2 / AMB-14."""
        s = self.s
        n = s["n"]
        seating = [(first + k) % n for k in range(n)]
        if all(len(team) == 1 for team in s["teams"]):
            s["turn_order"] = seating
            return
        team_of = {seat: s["players"][seat]["team"] for seat in range(n)}
        team_order: list[int] = []
        for seat in seating:
            if team_of[seat] not in team_order:
                team_order.append(team_of[seat])
        lanes = []
        for t in team_order:
            members = list(s["teams"][t])
            if first in members:
                k = members.index(first)
                members = members[k:] + members[:k]
            lanes.append(members)
        order = []
        for k in range(max(len(lane) for lane in lanes)):
            for lane in lanes:
                if k < len(lane):
                    order.append(lane[k])
        s["turn_order"] = order

    def new_round(self) -> None:
        s = self.s
        options = s["options"]
        if options["coins_reset"] and s["round"] >= 1:
            for p in s["players"]:
                p["coins"] = 0  # AMB-17 option
        s["round"] += 1
        for p in s["players"]:
            p["passed"] = p["eliminated"]
            if options["supply_recompute"] and s["round"] > 1:
                p["supply"] = self.city_supply(p["seat"], skip_ruined=True)  # AMB-18 option
        s["used"] = {k: v for k, v in s["used"].items() if not k.startswith(("r:", "t:", "d:"))}
        self.emit("round", round=s["round"])
        self.goto("draw")

    def draw_step(self) -> bool:
        """5.6.1.1 with AMB-15: draw exactly 1 below Supply; discard down above it."""
        s = self.s
        order = [q for q in s["turn_order"] if not self.player(q)["eliminated"]]
        while s["idx"] < len(order):
            seat = order[s["idx"]]
            p = self.player(seat)
            supply = self.supply(seat)
            if len(p["hand"]) < supply and not s["flag"]:
                self.draw(seat, 1)
                s["idx"] += 1
                continue
            if len(p["hand"]) > supply:
                s["flag"] = True  # discarding: no draw for this player
                self.set_pending(seat, "discard_down", options=list(p["hand"]))
                return True
            s["flag"] = False
            s["idx"] += 1
        self.goto("coin")
        return True

    def available_decrees(self, seat: int) -> list[dict]:
        """AMB-02: a Decree whose condition holds, on the Battlefield, not yet issued this
        Decree phase."""
        s = self.s
        key = (self._ver, len(s["cards"]), len(s["battlefield"]), len(s["used"]))
        hit = self._cache.get(f"decrees:{seat}")
        if hit is not None and hit[0] == key:
            return hit[1]
        out = []
        cards = s["cards"]
        infos = self.sys._infos
        for iid in s["battlefield"]:
            c = cards[iid]
            if c["owner"] != seat:
                continue
            try:
                info = infos[c["card"]]
            except KeyError:
                info = self.sys.info(c["card"])
            for i in info.decrees:
                if f"d:{iid}:{i}" in s["used"] or not self.has_abilities(iid):
                    continue
                ctx = {"controller": seat, "source": iid}
                if self.condition(info.abilities[i]["condition"], ctx):
                    out.append({"type": "decree", "iid": iid, "ability": i})
        self._cache[f"decrees:{seat}"] = (key, out)
        return [dict(a) for a in out]

    def decree_step(self) -> bool:
        """5.6.2 / AMB-02: one Decree each, from the first player, until a full pass over
        the players issues none."""
        s = self.s
        order = s["turn_order"]
        while True:
            if s["idx"] >= len(order):
                if s["flag"]:
                    s["idx"] = 0
                    s["flag"] = False
                    continue
                self.start_actions()
                return True
            seat = order[s["idx"]]
            if not self.player(seat)["eliminated"] and self.available_decrees(seat):
                self.set_pending(seat, "decree")
                return True
            s["idx"] += 1

    def start_actions(self) -> None:
        s = self.s
        first = next((q for q in s["turn_order"] if not self.player(q)["eliminated"]), None)
        s["active"] = first
        self.goto("turn_start")

    def next_turn(self) -> None:
        """5.6.3 / AMB-26: the next player who has not passed; else Tactic Resolution."""
        s = self.s
        order = self.order_from(s["active"])
        consecutive = s["options"]["passing"] == "consecutive"
        everyone_passed = all(p["passed"] or p["eliminated"] for p in s["players"])
        for seat in order[1:] + order[:1]:
            p = self.player(seat)
            if p["eliminated"]:
                continue
            if not p["passed"] or (consecutive and not everyone_passed):
                s["active"] = seat
                self.goto("turn_start")
                return
        s["active"] = None
        s["tr"] = {"sub": "choose"}
        self.goto("tactics")
