"""The champion draft as the game's setup phase [T-16, T-76..T-78, D-13, D-21].

Checklist (digest §20) item covered: C-56 (2 players: P2, P1, P2, ... with 6 shown
before each pick until 4 each; 3 players: 3 each and the leftovers boxed), plus 4
players, 2 vs 2 (T-78: the teams alternate, team 2 first, to 6 each, 3 a player), the
draft's open view and hidden deck, the config (``draft``, ``reserves``) and the bots'
picks.
"""

from __future__ import annotations

import copy
import json

import pytest

from engine.core.errors import IllegalAction, InvalidConfig, NotYourTurn
from engine.core.protocol import replay
from engine.tactics import draft as champion_draft
from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM

DB = SYSTEM.db
POOL = sorted(c.id for c in DB.champions())  # T-76: the blue-back champions (24 or more)


def cards(s) -> list[dict]:
    """One figure per reserve card: a champion of two figures is one card (T-106)."""
    seen: set = set()
    out = []
    for f in s["figs"]:
        if f["iid"] not in seen:
            seen.add(f["iid"])
            out.append(f)
    return out


def new(n: int = 2, seed: int = 1, **config):
    return SYSTEM.new_game({"first": 0, **config}, [None] * n, seed)


def draft_to_the_end(s, choose=lambda row: row[0]):
    """Every pick to the end: the final state, (seat, row shown) of each pick, events."""
    seen, events = [], []
    while s["phase"] == "draft":
        (seat,) = SYSTEM.to_act(s)
        row = SYSTEM.view(s, seat)["draft"]["row"]
        seen.append((seat, row))
        s, evs = SYSTEM.apply(s, seat, {"type": "pick", "champion": choose(row)})
        events += evs
    return s, seen, events


@pytest.mark.rule("T-77", "D-13", "C-56")
def test_two_players_pick_p2_p1_alternately_seeing_six_until_four_each():
    s = new(2)
    assert s["phase"] == "draft" and s["figs"] == []
    s, seen, events = draft_to_the_end(s)
    assert [seat for seat, _row in seen] == [1, 0] * 4  # the last to take a turn first
    assert all(len(row) == 6 for _seat, row in seen)
    reserves = {seat: [f["card"] for f in cards(s) if f["owner"] == seat] for seat in (0, 1)}
    assert [len(r) for r in reserves.values()] == [4, 4]
    done = events[-1]
    assert done["type"] == "draft_done" and done["reserves"] == [reserves[0], reserves[1]]
    assert s["phase"] == "play" and SYSTEM.to_act(s) == (0,)  # gate 1 takes the first turn


@pytest.mark.rule("T-77", "D-13", "C-56")
def test_three_players_end_with_three_each_and_the_leftovers_are_boxed():
    s = new(3, first=1)  # turn order 1, 2, 0: the last, seat 0, picks first
    s, seen, _ = draft_to_the_end(s)
    assert [seat for seat, _row in seen] == [0, 2, 1] * 3
    assert all(len(row) == 6 for _seat, row in seen)
    assert sorted(len([f for f in cards(s) if f["owner"] == k]) for k in range(3)) == [3] * 3
    d = s["draft"]
    assert d["finished"] and d["row"] == [] and d["deck"] == []
    picked = [f["card"] for f in cards(s)]
    assert sorted(picked + d["box"]) == POOL and len(d["box"]) == len(POOL) - 9


@pytest.mark.rule("T-77")
def test_four_players_draft_three_each_in_reverse_turn_order():
    s, seen, _ = draft_to_the_end(new(4))
    assert [seat for seat, _row in seen] == [3, 2, 1, 0] * 3
    assert [len([f for f in cards(s) if f["owner"] == k]) for k in range(4)] == [3] * 4


@pytest.mark.rule("T-78", "D-13")
def test_two_vs_two_teams_alternate_team_two_first_to_six_each_three_a_player():
    s = new(4, teams=[[0, 2], [1, 3]])  # team 0 and 2 moves first: team 1 and 3 picks first
    s, seen, _ = draft_to_the_end(s)
    assert [seat for seat, _row in seen] == [1, 0, 3, 2] * 3
    per_team = [sum(1 for f in cards(s) if f["owner"] in team) for team in ([0, 2], [1, 3])]
    assert per_team == [6, 6]
    assert [len([f for f in cards(s) if f["owner"] == k]) for k in range(4)] == [3] * 4
    assert SYSTEM.to_act(s) == (0, 2)


@pytest.mark.rule("T-77", "T-31")
def test_the_gap_is_refilled_at_once_and_the_pick_is_an_event_for_everyone():
    s = new(2)
    row = list(s["draft"]["row"])
    top = s["draft"]["deck"][0]
    s2, events = SYSTEM.apply(s, 1, {"type": "pick", "champion": row[2]})
    assert s2["draft"]["row"] == [*row[:2], top, *row[3:]]
    assert events == [{"type": "draft_pick", "seat": 1, "champion": row[2], "revealed": top}]
    assert s2["draft"]["pools"][1] == [row[2]]  # draft seat 1: the game's seat 1


@pytest.mark.rule("T-76", "T-77", "D-21")
def test_the_view_shows_the_row_and_the_picks_but_never_the_deck_order():
    s = new(3)
    s, _ = SYSTEM.apply(s, 2, {"type": "pick", "champion": s["draft"]["row"][0]})
    for viewer in (None, 0, 1, 2):
        view = SYSTEM.view(s, viewer)
        d = view["draft"]
        assert d == {
            "row": s["draft"]["row"],
            "picked": {0: [], 1: [], 2: [s["draft"]["pools"][2][0]]},
            "to_pick": 1,
            "quota": 3,
            "deck": len(POOL) - 7,
            "finished": False,
        }
        hidden = set(s["draft"]["deck"])
        text = json.dumps(view)
        assert not any(f'"{cid}"' in text for cid in hidden)
    assert view["phase"] == "draft" and view["to_act"] == [1]


@pytest.mark.rule("T-76", "T-77")
def test_during_the_draft_only_the_picker_picks_a_champion_of_the_row():
    s = new(2)
    before = copy.deepcopy(s)
    row = s["draft"]["row"]
    assert SYSTEM.legal_actions(s, 1) == [{"type": "pick", "champion": c} for c in row]
    assert SYSTEM.legal_actions(s, 0) == []
    with pytest.raises(NotYourTurn):
        SYSTEM.apply(s, 0, {"type": "pick", "champion": row[0]})
    for bad in (
        {"type": "pick", "champion": s["draft"]["deck"][0]},  # face down in the deck
        {"type": "pick", "champion": "TC1-001"},  # not a champion
        {"type": "pick", "champion": 7},
        {"type": "pick"},
        {"type": "gate"},
        {"type": "end_turn"},
    ):
        with pytest.raises(IllegalAction):
            SYSTEM.apply(s, 1, bad)
    assert s == before


@pytest.mark.rule("T-16", "T-76")
def test_the_draft_is_the_default_and_reserves_or_draft_false_skip_it():
    assert new(2)["phase"] == "draft"
    s = new(2, draft=False)
    assert s["phase"] == "play" and len(cards(s)) == 8 and s["draft"] is None
    ward = DB.find("Ward-Engine M-7").id
    s = new(2, reserves=[[ward] * 4, [ward] * 4])
    assert s["phase"] == "play" and {f["card"] for f in s["figs"]} == {ward}
    for config in ({"draft": 1}, {"draft": True, "reserves": [[ward] * 4] * 2}):
        with pytest.raises(InvalidConfig):
            new(2, **config)


@pytest.mark.rule("T-77")
def test_a_player_who_leaves_during_the_draft_is_picked_for_and_the_others_go_on():
    s = new(3)  # picks: seat 2, 1, 0, ...
    s, _ = SYSTEM.leave(s, 1, "concede")
    assert SYSTEM.to_act(s) == (2,)
    s, _ = SYSTEM.apply(s, 2, {"type": "pick", "champion": s["draft"]["row"][0]})
    assert SYSTEM.to_act(s) == (0,)  # seat 1's pick was made for it
    s, _seen, _ = draft_to_the_end(s)
    assert s["phase"] == "play" and SYSTEM.to_act(s) == (0,)
    assert all(f["gone"] for f in s["figs"] if f["owner"] == 1)
    gone_first = new(3)
    gone_first, _ = SYSTEM.leave(gone_first, 0, "concede")  # the first player leaves
    gone_first, _seen, _ = draft_to_the_end(gone_first)
    assert SYSTEM.to_act(gone_first) == (1,)  # the next in gate order opens the game
    duel = new(2)
    duel, _ = SYSTEM.leave(duel, 1, "time")
    assert SYSTEM.result(duel).winners == (0,)


@pytest.mark.rule("T-77")
def test_the_heuristic_bot_drafts_by_value_and_the_random_bot_picks_what_is_offered():
    s = new(2)
    row = s["draft"]["row"]
    values = {c: champion_draft.champion_value(DB[c]) for c in row}
    pick = make_bot("heuristic", SYSTEM, 1).choose(s, 1)
    assert values[pick["champion"]] == max(values.values()) > min(values.values())
    assert make_bot("random", SYSTEM, 1).choose(s, 1) in SYSTEM.legal_actions(s, 1)
    strong = DB.find("Dorn, Steam Hammer")  # STR 4 DEF 6, area attack
    weak = DB.find("Sel the Seer")  # STR 1 DEF 3
    assert champion_draft.champion_value(strong) > champion_draft.champion_value(weak)


@pytest.mark.rule("D-21")
def test_a_drafted_game_replays_exactly_from_the_seed_and_the_log():
    config = {"teams": [[0, 1], [2, 3]]}
    s = SYSTEM.new_game(config, [None] * 4, 9)
    bots = [make_bot("heuristic", SYSTEM, k) for k in range(4)]
    log = []
    for _ in range(400):
        if s["finished"]:
            break
        seat = SYSTEM.to_act(s)[0]
        action = bots[seat].choose(s, seat)
        s, _ = SYSTEM.apply(s, seat, action)
        log.append((seat, action))
    assert s["phase"] == "play"
    assert replay(SYSTEM, config, [None] * 4, 9, log) == s
    assert json.loads(json.dumps(s)) == s
