"""Elimination and the end of a game (1.3.7-1.3.10, 1.2.3, 1.2.5): a player whose
Cities are all ruined is eliminated (2.3.1.2), simultaneous eliminations (AMB-33,
AMB-34), and the event rules that end a game as a draw (1.3.3: idle rounds, round limit).
"""

from __future__ import annotations


class Ending:
    """Elimination, winning and draws (1.3); part of ``Rules``."""

    __slots__ = ()

    # ===================================================================================
    # elimination (2.3.1.2, 1.3.8) and the end of the game (1.3.9, 1.3.10)
    # ===================================================================================

    def check_elimination(self, seat: int) -> None:
        """2.3.1.2: a player whose Cities are all ruined is eliminated. Inside one effect
        the check waits until the effect is carried out, so that players ruined by the same
        effect are eliminated simultaneously (AMB-34: possibly a draw)."""
        s = self.s
        if s["players"][seat]["eliminated"]:
            return
        if self._deferred is not None:
            if seat not in self._deferred:
                self._deferred.append(seat)
            return
        cities = [
            i
            for i in s["battlefield"]
            if s["cards"][i]["owner"] == seat and self.card(i).type == "city"
        ]
        if cities and all(s["cards"][i]["ruined"] for i in cities):
            self.eliminate(seat)

    def all_ruined(self, seat: int) -> bool:
        s = self.s
        cities = [
            i
            for i in s["battlefield"]
            if s["cards"][i]["owner"] == seat and self.card(i).type == "city"
        ]
        return bool(cities) and all(s["cards"][i]["ruined"] for i in cities)

    def eliminate_many(self, seats: list[int]) -> None:
        """Simultaneous elimination: everyone first, then one game-over check."""
        seats = [q for q in seats if not self.player(q)["eliminated"] and self.all_ruined(q)]
        for q in seats:
            self.eliminate(q, check=False)
        if seats:
            self.check_game_over()

    def eliminate(self, seat: int, check: bool = True) -> None:
        """1.3.8 with AMB-33: the player's cards leave the game, their effects end."""
        self._ver += 1
        s = self.s
        p = s["players"][seat]
        p["eliminated"] = True
        p["passed"] = True
        s["elim"].append(seat)
        self.emit("eliminated", player=seat)
        self.trigger("eliminated", None, seat)
        # Tactics declared by them are removed unresolved.
        for t in list(s["tactics"]):
            if t["declarer"] == seat:
                for side in ("attack", "defence"):
                    for i in list(t[side]):
                        self.unassign(i)
                s["tactics"].remove(t)
        s["queue"] = [o for o in s["queue"] if o["controller"] != seat]
        s["frames"] = [f for f in s["frames"] if f["ctx"].get("controller") != seat]
        s["waiting"] = [w for w in s["waiting"] if w["controller"] != seat]
        s["temp"] = [t for t in s["temp"] if t["controller"] != seat]
        for iid in range(len(s["cards"])):
            c = s["cards"][iid]
            if c["owner"] == seat and c["zone"] != "gone":
                c = self.mut(iid)
                if c["zone"] == "battlefield":
                    self.unassign(c["iid"])
                if c["zone"] != "queue":
                    self.zone_list(c["iid"]).remove(c["iid"])
                c["zone"] = "gone"
                self._zw += 1  # a zone or wounded status changed (``_statics``)
                s["gone"].append(c["iid"])
        if s["pending"] is not None and s["pending"]["player"] == seat:
            s["pending"] = None
        if check:
            self.check_game_over()

    def idle_round_ends_game(self) -> bool:
        """The event rule ``idle_rounds`` (1.3.3): after that many Rounds in a row in which
        every player only passed, the game ends and, with no winner, is a draw (1.3.10)."""
        s = self.s
        idle = s["idle"]
        idle["count"] = 0 if idle["acted"] else idle["count"] + 1
        idle["acted"] = False
        if idle["count"] < idle["limit"]:
            return False
        self.end_as_draw("idle_rounds")
        return True

    def end_as_draw(self, reason: str) -> None:
        """An event rule ends the game (1.3.3); nobody has won, so it is a draw (1.3.10)."""
        s = self.s
        s["finished"] = True
        s["stage"] = "over"
        s["pending"] = None
        s["draw"] = True
        self.emit("game_over", winners=[], draw=True, reason=reason)

    def check_game_over(self) -> None:
        """1.3.9, 1.2.3, 1.2.5, 1.3.10 (AMB-34)."""
        s = self.s
        alive_teams = {p["team"] for p in s["players"] if not p["eliminated"]}
        if len(alive_teams) > 1 or s["finished"]:
            return
        s["finished"] = True
        s["stage"] = "over"
        s["pending"] = None
        if alive_teams:
            (team,) = alive_teams
            s["winners"] = sorted(s["teams"][team])
        else:
            s["draw"] = True
        self.emit("game_over", winners=s["winners"], draw=s["draw"])
