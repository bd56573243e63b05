"""Free-for-all for 3-4 players («Четыре шпиля») and 2 vs 2 («Два берега")
[T-14, T-15, T-23, T-64, T-65, T-78..T-80, D-14].

Checklist (digest §20) items covered: C-50, C-51, C-57, C-58; plus the rules of the modes
without a checklist statement of their own: turn order by gates (T-23, T-80), every other
player an enemy and one winner (T-80), the gates' first-turn bonuses for gates 3 and 4
(T-15, D-4 / S-1 fixtures), joint turns (T-79, D-14), the team's gates (T-78), and the
seating config (``players``, ``teams``, ``first``, ``scenario``) refused with a clear
error.
"""

from __future__ import annotations

import copy
import json

import pytest

from engine.core.errors import IllegalAction, InvalidConfig, NotYourTurn
from engine.core.protocol import replay
from engine.core.rng import choice, seed_state
from engine.tactics.game import SYSTEM

DB = SYSTEM.db
WARD = DB.find("Ward-Engine M-7").id  # command 3, STR 2, DEF 6
KERA = DB.find("Kera, Bolt-Thrower").id  # STR 3, DEF 3, ranged


def ffa(n: int = 4, seed: int = 1, **config):
    return SYSTEM.new_game({"first": 0, "draft": False, **config}, [None] * n, seed)


def teams(seed: int = 1, **config):
    config = {"teams": [[0, 2], [1, 3]], "first": 0, "draft": False, **config}
    return SYSTEM.new_game(config, [None] * 4, seed)


def figs(s, seat: int) -> list[dict]:
    return [f for f in s["figs"] if f["owner"] == seat and not f["gone"]]


def place(s, seat: int, k: int, cell: str) -> dict:
    f = figs(s, seat)[k]
    f["cell"] = cell
    return f


def act(s, seat, action):
    return SYSTEM.apply(s, seat, action)


def end(s, seat):
    return act(s, seat, {"type": "end_turn"})[0]


# -- free-for-all: setup and turn order ----------------------------------------------------------


@pytest.mark.rule("T-75", "T-80", "T-9", "T-10", "T-12")
@pytest.mark.parametrize("n", [3, 4])
def test_free_for_all_deals_every_player_on_four_spires(n):
    s = ffa(n)
    assert s["mode"] == "ffa" and s["scenario"] == "four_spires" and len(s["players"]) == n
    for p in s["players"]:
        assert len(p["hand"]) == 5 and len(p["deck"]) == 5
    reserves = [len(figs(s, seat)) for seat in range(n)]
    assert reserves == [3] * n  # T-77: 3 each with 3-4 players
    portals = {c: o for c, o in s["owner"].items() if s["terrain"][c] == "portal"}
    assert sorted(portals.values()) == list(range(n))  # one portal per player (T-59)
    assert len(s["board_treasure"]) == 8 and len(s["bag"]) == 24 - 8  # C-02


@pytest.mark.rule("T-14", "T-23", "T-80")
def test_turns_follow_the_gates_from_the_first_player():
    s = ffa(4, first=2)
    assert [p["gate_no"] for p in s["players"]] == [3, 4, 1, 2]
    names = [DB[p["gate"]].name_en for p in s["players"]]
    assert names == ["Gate of the Third", "Gate of the Fourth", "Gate of the First",
                     "Gate of the Second"]  # fmt: skip
    seen = []
    for _ in range(5):
        (seat,) = SYSTEM.to_act(s)
        seen.append((seat, s["round"]))
        s = end(s, seat)
    assert seen == [(2, 1), (3, 1), (0, 1), (1, 1), (2, 2)]


@pytest.mark.rule("T-15", "D-4", "C-03")
def test_each_gate_gives_its_own_first_turn_bonus_once():
    s = ffa(4)
    got = []
    for seat in range(4):
        s, _ = act(s, seat, {"type": "gate"})
        got.append((s["players"][seat]["power"], s["players"][seat]["runes"]))
        s = end(s, seat)
    # S-1 fixtures: gate 2 +2 power; gate 3 +2 power +1 rune; gate 4 +2 power +2 runes
    assert got == [(2, 0), (4, 0), (4, 1), (4, 2)]
    s, _ = act(s, 0, {"type": "gate"})
    s = end(s, 0)
    s, _ = act(s, 1, {"type": "gate"})
    assert (s["players"][1]["power"], s["players"][1]["runes"]) == (2, 0)  # first turn only


@pytest.mark.rule("T-80", "T-41", "T-44")
def test_every_other_player_is_an_enemy():
    s = ffa(3, reserves=[[WARD] * 3, [WARD] * 3, [WARD] * 3])
    a = place(s, 0, 0, "0,3")
    place(s, 1, 0, "1,3")
    place(s, 2, 0, "-1,3")
    s["players"][0]["power"] = 10
    s, _ = act(s, 0, {"type": "command", "fig": a["id"]})
    targets = {x["cell"] for x in SYSTEM.legal_actions(s, 0) if x["type"] == "attack"}
    assert targets == {"1,3", "-1,3"}  # both other players' champions
    enemies_of_1 = {f["owner"] for f in SYSTEM.enemies_on_board(s, 1)}
    assert enemies_of_1 == {0, 2}


@pytest.mark.rule("T-64", "C-50")
def test_a_shrine_tie_between_the_leaders_gives_nobody_control():
    s = ffa(3, reserves=[[WARD] * 3, [WARD] * 3, [WARD] * 3])
    # shrine 0,0: two of seat 0 and two of seat 1 around it, one of seat 2
    place(s, 0, 0, "1,0")
    place(s, 0, 1, "0,1")
    place(s, 1, 0, "-1,0")
    place(s, 1, 1, "0,-1")
    place(s, 2, 0, "1,-1")
    t = end(copy.deepcopy(s), 0)
    assert t["players"][0]["glory"] == 0  # 2 vs 2 (vs 1): no one controls it
    place(s, 0, 2, "-1,1")
    t = end(s, 0)
    assert t["players"][0]["glory"] == 2  # 3 vs 2 vs 1: seat 0 does


@pytest.mark.rule("T-80", "T-25")
def test_one_winner_and_the_others_keep_their_glory_for_placements():
    s = ffa(4, reserves=[[WARD] * 3] * 4)
    s["players"][1]["glory"] = 9
    s["players"][3]["glory"] = 17
    s["players"][0]["glory"] = 24
    place(s, 0, 0, "0,1")
    s = end(s, 0)
    result = SYSTEM.result(s)
    assert result.finished and result.winners == (0,) and not result.draw
    assert dict(result.scores) == {0: 26, 1: 9, 2: 0, 3: 17}  # placements: by glory


@pytest.mark.rule("T-80")
def test_a_player_who_leaves_is_out_and_the_others_play_on_to_the_last():
    s = ffa(3, reserves=[[WARD] * 3] * 3)
    place(s, 1, 0, "0,0")
    s, _ = SYSTEM.leave(s, 0, "concede")  # the active player leaves
    assert not s["finished"] and SYSTEM.to_act(s) == (1,)
    assert all(f["gone"] for f in s["figs"] if f["owner"] == 0)
    with pytest.raises(IllegalAction):
        SYSTEM.leave(s, 0, "concede")  # out already
    s, _ = SYSTEM.leave(s, 2, "time")  # not their turn
    result = SYSTEM.result(s)
    assert result.finished and result.winners == (1,) and result.eliminated == (0, 2)


@pytest.mark.rule("T-75", "T-78")
@pytest.mark.parametrize(
    ("config", "decks"),
    [
        ({"players": 5}, 5),
        ({"players": 3}, 4),  # decks and players disagree
        ({"scenario": "four_spires"}, 2),  # no duel on four spires
        ({"scenario": "stone_crossroads"}, 3),
        ({"scenario": "nowhere"}, 3),
        ({"mode": "teams"}, 4),  # 2 vs 2 needs teams
        ({"mode": "battle"}, 2),
        ({"teams": [[0, 1], [2, 3]], "players": 3}, 3),
        ({"teams": [[0, 1], [1, 3]]}, 4),
        ({"teams": [[0, 1, 2], [3]]}, 4),
        ({"teams": [[0, 1], [2, "3"]]}, 4),
        ({"teams": [[0, 1], [2, 4]]}, 4),
        ({"teams": "0,1 vs 2,3"}, 4),
        ({"first": 4}, 4),
        ({"first": True}, 3),
        ({"reserves": [[WARD] * 3] * 3}, 4),
        ({"reserves": [[WARD] * 3] * 2 + [["TC1-001"] * 3]}, 3),
        ({"draft": "yes"}, 3),
        ({"draft": True, "reserves": [[WARD] * 3] * 3}, 3),
    ],
)
def test_a_bad_seating_is_refused_with_a_clear_error(config, decks):
    with pytest.raises(InvalidConfig) as exc:
        SYSTEM.new_game(config, [None] * decks, 1)
    assert str(exc.value)


# -- 2 vs 2 --------------------------------------------------------------------------------------


@pytest.mark.rule("T-78", "T-14", "T-15")
def test_two_vs_two_seats_the_first_team_at_the_team_one_gates_and_portals():
    s = teams(first=1)  # seat 1's team (1 and 3) goes first
    assert s["mode"] == "teams" and s["scenario"] == "two_shores"
    assert s["sides"] == [[1, 3], [0, 2]]
    assert [p["gate_no"] for p in s["players"]] == [2, 1, 4, 3]  # team 1: positions 1, 3
    gates = [DB[p["gate"]].name_en for p in s["players"]]
    assert gates == ["Gate of the Second", "Gate of the First"] * 2
    assert SYSTEM.to_act(s) == (1, 3)
    # each player enters through their own portal only (the scenario's positions)
    portals = {o: c for c, o in s["owner"].items() if s["terrain"][c] == "portal"}
    assert portals == {1: "-3,6", 3: "3,3", 0: "3,-6", 2: "-3,-3"}


@pytest.mark.rule("T-79", "D-14")
def test_a_joint_turn_lets_either_teammate_act_and_ends_when_both_pass():
    s = teams()
    assert SYSTEM.to_act(s) == (0, 2)
    s, _ = act(s, 2, {"type": "gate"})  # the second teammate may act first
    s["players"][0]["runes"] = 3
    s, events = act(s, 0, {"type": "end_turn"})
    assert {"type": "pass", "seat": 0} in events
    assert SYSTEM.to_act(s) == (2,)
    with pytest.raises(NotYourTurn):
        act(s, 0, {"type": "gate"})  # passed: done for this turn
    assert s["players"][0]["runes"] == 3  # the end steps wait for the team (D-14)
    s = end(s, 2)
    assert SYSTEM.to_act(s) == (1, 3) and s["round"] == 1
    for seat in (0, 2):
        p = s["players"][seat]
        assert len(p["hand"]) == 5 and p["runes"] == 0 and p["power"] == 0 and p["turns"] == 1
    s = end(end(s, 3), 1)
    assert SYSTEM.to_act(s) == (0, 2) and s["round"] == 2


@pytest.mark.rule("T-79", "T-37", "D-14")
def test_a_teammates_command_is_finished_before_the_other_acts():
    s = teams(reserves=[[WARD] * 3] * 4)
    s["players"][0]["power"] = 10
    fig = figs(s, 0)[0]
    s, _ = act(s, 0, {"type": "command", "fig": fig["id"], "cell": "-3,6"})
    assert SYSTEM.to_act(s) == (0,)
    s, _ = act(s, 0, {"type": "done"})
    assert SYSTEM.to_act(s) == (0, 2)


@pytest.mark.rule("T-79", "C-57")
def test_teammates_keep_their_own_power_and_champions_but_share_treasure():
    s = teams(reserves=[[WARD] * 3] * 4)
    s, _ = act(s, 0, {"type": "gate"})
    assert s["players"][0]["power"] == 2 and s["players"][2]["power"] == 0
    own = {f["id"] for f in figs(s, 2)}
    s["players"][2]["power"] = 10
    commanded = {a["fig"] for a in SYSTEM.legal_actions(s, 2) if a["type"] == "command"}
    assert commanded == own  # never the teammate's champions
    s["board_treasure"]["-3,6"] = 1  # a +2 DEF token on seat 0's portal
    s["players"][0]["power"] = 10
    f0 = figs(s, 0)[0]
    s, _ = act(s, 0, {"type": "command", "fig": f0["id"], "cell": "-3,6"})  # T-67: entry takes it
    s, _ = act(s, 0, {"type": "done"})
    assert SYSTEM.view(s, 2)["players"][0]["treasure"] == [1]  # the team's tokens
    assert SYSTEM.view(s, 1)["players"][0]["treasure"] == 1  # the enemies see a count
    f2 = figs(s, 2)[0]
    use = {"type": "treasure", "i": 0, "fig": f2["id"]}
    assert use in SYSTEM.legal_actions(s, 2)
    s, _ = act(s, 2, use)
    assert s["figs"][f2["id"]]["boost"]["defence"] == 2 and s["players"][0]["treasure"] == []


@pytest.mark.rule("T-79", "T-64", "C-58")
def test_the_team_counts_together_at_shrines_and_shares_one_glory_total():
    s = teams(reserves=[[WARD] * 3] * 4)
    place(s, 0, 0, "1,0")  # team 0: one each around the shrine 0,0
    place(s, 2, 0, "0,1")
    place(s, 1, 0, "-1,0")  # team 1: one
    s["players"][0]["glory"] = s["players"][2]["glory"] = 37
    s["players"][1]["glory"] = s["players"][3]["glory"] = 5
    s = end(end(s, 0), 2)
    # 2 vs 1: the team controls it; 3 glory once for the team, not once a player
    assert [p["glory"] for p in s["players"]] == [40, 5, 40, 5]
    result = SYSTEM.result(s)
    assert result.finished and result.winners == (0, 2)  # both win together (T-79)
    assert dict(result.scores) == {0: 40, 1: 5, 2: 40, 3: 5}


def _ends(s, seat: int, cell: str) -> set[str]:
    """Where a champion of ``seat`` put on ``cell`` and commanded may end its move."""
    s = copy.deepcopy(s)
    fig = place(s, seat, 0, cell)
    s["players"][seat]["power"] = 10
    s, _ = act(s, seat, {"type": "command", "fig": fig["id"]})
    return {x["cell"] for x in SYSTEM.legal_actions(s, seat) if x["type"] == "move"}


@pytest.mark.rule("T-41", "T-43", "T-79")
def test_teammates_champions_are_allies_and_their_portal_is_no_opponents():
    s = teams(reserves=[[WARD] * 3] * 4)  # seat 0: portal -3,6; 2: 3,3; 1: 3,-6; 3: -3,-3
    # the ford 4,0 is the only way across the chasm near 4,1 (T-63: impassable around it)
    ally = place(s, 2, 0, "4,0")  # a teammate in the ford: passed through, not ended on
    ends = _ends(s, 0, "4,1")
    assert "4,0" not in ends and "4,-1" in ends
    s["figs"][ally["id"]]["owner"] = 1  # the same champion as an enemy: a wall (T-41)
    assert "4,-1" not in _ends(s, 0, "4,1")
    t = teams(reserves=[[WARD] * 3] * 4)
    assert "3,3" in _ends(t, 0, "2,3")  # the teammate's portal
    assert "-3,-3" not in _ends(t, 0, "-2,-3")  # an opponent's (T-43)


@pytest.mark.rule("T-65", "D-10", "C-51")
def test_a_beacon_is_taken_by_moving_through_and_both_give_the_team_glory():
    s = teams(reserves=[[WARD] * 3] * 4)
    s["owner"]["-2,6"] = 1  # the enemy holds the south beacon
    a = place(s, 0, 0, "-1,6")
    s["players"][0]["power"] = 10
    s, _ = act(s, 0, {"type": "command", "fig": a["id"]})
    s, _ = act(s, 0, {"type": "move", "cell": "-3,6"})  # the only way: through -2,6
    assert s["owner"]["-2,6"] == 0  # passed through: seat 0's now (C-51)
    s, _ = act(s, 0, {"type": "done"})
    glory = s["players"][0]["glory"]
    t = end(end(copy.deepcopy(s), 0), 2)
    assert t["players"][0]["glory"] == glory  # one beacon of two: nothing
    s["owner"]["2,-6"] = 2  # the teammate holds the other one
    s = end(end(s, 0), 2)
    assert s["players"][0]["glory"] == s["players"][2]["glory"] == glory + 2  # both (T-79)


@pytest.mark.rule("T-79")
def test_a_team_plays_on_when_one_player_leaves_and_loses_when_both_have():
    s = teams()
    s, _ = SYSTEM.leave(s, 2, "concede")
    assert not s["finished"] and SYSTEM.to_act(s) == (0,)
    s = end(s, 0)
    assert SYSTEM.to_act(s) == (1, 3)
    s, _ = SYSTEM.leave(s, 0, "time")
    result = SYSTEM.result(s)
    assert result.finished and result.winners == (1, 3) and result.eliminated == (2, 0)


# -- invariants in every mode --------------------------------------------------------------------


@pytest.mark.rule("D-21")
@pytest.mark.parametrize(
    ("config", "n"),
    [({}, 3), ({}, 4), ({"teams": [[0, 2], [1, 3]]}, 4)],
)
def test_random_games_of_every_mode_replay_and_never_show_a_hand(config, n):
    for seed in (3, 4):
        s = SYSTEM.new_game(config, [None] * n, seed)
        rng, log = seed_state(seed), []
        for _ in range(1500):
            if s["finished"]:
                break
            seat = SYSTEM.to_act(s)[0]
            action = choice(rng, SYSTEM.legal_actions(s, seat))
            before = json.dumps(s, sort_keys=True)
            s2, _events = act(s, seat, action)
            assert json.dumps(s, sort_keys=True) == before
            s = s2
            log.append((seat, action))
            for viewer in range(n):
                view = SYSTEM.view(s, viewer)
                for p in view["players"]:
                    assert isinstance(p["hand"], list) == (p["seat"] == viewer)
                assert "deck" not in json.dumps(view.get("draft") or {}) or isinstance(
                    view["draft"]["deck"], int
                )
        assert replay(SYSTEM, config, [None] * n, seed, log) == s


@pytest.mark.rule("T-75", "T-78")
def test_every_table_mode_of_the_registry_deals_a_game_for_its_sizes():
    from engine.core import registry

    info = registry.get("tactics")
    assert (info.min_players, info.max_players, info.solo) == (2, 4, True)
    dealt = []
    for mode in info.table_modes:
        for n in range(1, info.max_players + 1):
            if mode.fits(n) and (n > 1 or mode.players):
                s = SYSTEM.new_game(mode.config(), [None] * n, 5)
                level = s["villain"]["difficulty"] if s.get("villain") else None
                dealt.append((mode.key, n, s["mode"], level))
    villain_tables = [
        (key, n, mode, level)
        for mode, short, n in (("solo", "solo", 1), ("coop", "coop", 2), ("archvillain", "arch", 2))
        for key, level in (
            (mode, "normal"),
            (f"{short}_hard", "hard"),
            (f"{short}_nightmare", "nightmare"),
        )
    ]
    assert dealt == [
        ("ffa", 2, "duel", None),
        ("ffa", 3, "ffa", None),
        ("ffa", 4, "ffa", None),
        ("2v2", 4, "teams", None),
        *villain_tables,  # T-81..T-101 at the difficulties of T-101
        # archvillain with the table's creator at the villain seat (decision 0055)
        ("arch_villain", 2, "archvillain", "normal"),
        ("arch_villain_hard", 2, "archvillain", "hard"),
        ("arch_villain_nightmare", 2, "archvillain", "nightmare"),
    ]
    seats = {m.key: m.creator_seat for m in info.table_modes}
    assert seats["arch_villain"] == 1 and seats["archvillain"] == 0  # T-99: seat 1 villains


@pytest.mark.rule("T-23")
def test_the_round_limit_ends_a_free_for_all_in_a_draw():
    s = ffa(3, max_rounds=1)
    for seat in (0, 1, 2):
        s = end(s, seat)
    result = SYSTEM.result(s)
    assert result.finished and result.draw and result.winners == ()


@pytest.mark.rule("T-79", "T-80")
def test_moves_out_of_place_in_the_new_modes_are_refused_and_change_nothing():
    s = teams(reserves=[[WARD] * 3] * 4)
    s["players"][2]["power"] = 10
    mate = figs(s, 0)[0]["id"]
    before = copy.deepcopy(s)
    refused = [
        (2, {"type": "command", "fig": mate, "cell": "-3,6"}),  # a teammate's champion
        (2, {"type": "command", "fig": mate, "cell": "3,3"}),
        (1, {"type": "gate"}),  # the other team's turn is later
        (0, {"type": "pick", "champion": DB.find("Sel the Seer").id}),  # no draft now
        (4, {"type": "end_turn"}),  # no such seat
        (0, {"type": "treasure", "i": 0, "fig": mate}),  # no token
    ]
    for seat, action in refused:
        with pytest.raises(IllegalAction):
            act(s, seat, action)
        assert s == before
    with pytest.raises(IllegalAction):
        SYSTEM.leave(s, 4, "concede")
    f = ffa(4)
    before = copy.deepcopy(f)
    for seat in (1, 2, 3):
        with pytest.raises(NotYourTurn):
            act(f, seat, {"type": "end_turn"})
    assert f == before


@pytest.mark.rule("T-79", "T-80")
@pytest.mark.parametrize(
    ("config", "n"),
    [({}, 3), ({}, 4), ({"teams": [[0, 2], [1, 3]]}, 4), ({"teams": [[0, 3], [1, 2]]}, 4)],
)
def test_players_leaving_at_any_moment_leave_a_game_that_goes_on_and_replays(config, n):
    from engine.core.protocol import leave_action

    for seed in range(6):
        s = SYSTEM.new_game(config, [None] * n, seed)
        rng, log = seed_state(seed + 100), []
        while not s["finished"] and len(log) < 3000:
            if choice(rng, range(60)) == 0:
                seat = choice(rng, [k for k in range(n) if k not in s["out"]])
                s, _ = SYSTEM.leave(s, seat, "concede")
                log.append((seat, leave_action("concede")))
                continue
            seat = SYSTEM.to_act(s)[0]
            assert seat not in s["out"]
            action = choice(rng, SYSTEM.legal_actions(s, seat))
            s, _ = act(s, seat, action)
            log.append((seat, action))
        assert s["finished"]
        result = SYSTEM.result(s)
        assert not set(result.winners) & set(result.eliminated) or result.draw
        assert replay(SYSTEM, config, [None] * n, seed, log) == s
