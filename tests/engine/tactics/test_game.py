"""The Tactics rules engine, 2-player mode [§3, §5..§9, §13; T-9..T-57, T-64, T-71..T-73].

Checklist (digest §20) items covered: C-01, C-03, C-04, C-05, C-06, C-07, C-08, C-09,
C-10, C-11, C-12, C-13, C-14, C-15, C-16, C-17, C-18, C-19, C-24, C-25, C-26, C-27,
C-28, C-29, C-30, C-31, C-34, C-35, C-37, C-41, C-44, C-45, C-46; plus hypothesis
invariants: replay equals state, no hidden card in the opponent's view or events, apply
never mutates its input, random games end within the round limit.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.protocol import replay
from engine.core.rng import choice, seed_state
from engine.tactics.game import SYSTEM

DB = SYSTEM.db


def cid(name: str) -> str:
    return DB.find(name).id


def new(seed: int = 1, **config):
    return SYSTEM.new_game({"first": 0, "draft": False, **config}, [None, None], seed)


def add_card(s, seat: int, card: str, zone: str = "hand") -> int:
    s["cards"].append(card)
    iid = len(s["cards"]) - 1
    s["players"][seat][zone].append(iid)
    return iid


def fig_of(s, seat: int, k: int = 0):
    return [f for f in s["figs"] if f["owner"] == seat and not f["gone"]][k]


def act(s, seat, action):
    return SYSTEM.apply(s, seat, action)


# -- setup ------------------------------------------------------------------------------


def test_setup_decks_hands_row_reserve():  # C-01, T-9, T-10, T-17
    s = new()
    for p in s["players"]:
        assert len(p["hand"]) == 5 and len(p["deck"]) == 5
        names = sorted(DB[s["cards"][i]].name_en for i in p["hand"] + p["deck"])
        assert names == ["Apprentice"] * 8 + ["Militia"] * 2
    assert len(s["row"]) == 6 and None not in s["row"]
    assert len(s["center"]) == len(DB.central_deck()) - 6
    for seat in (0, 1):
        reserve = [f for f in s["figs"] if f["owner"] == seat]
        assert len(reserve) == 4 and all(f["cell"] is None for f in reserve)
    # C-02: one token per treasure cell, the rest in the bag
    assert len(s["board_treasure"]) == 6 and len(s["bag"]) == 24 - 6


def test_same_seed_same_game_and_reserves_differ_by_seed():
    assert new(5) == new(5)
    assert [f["card"] for f in new(5)["figs"]] != [f["card"] for f in new(6)["figs"]]


def test_gate_first_turn_bonus_only_for_gate_two():  # C-03, T-14, T-15, D-4
    s = new()
    s, _ = act(s, 0, {"type": "gate"})
    assert s["players"][0]["power"] == 2
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "gate"})
    assert s["players"][1]["power"] == 4
    s, _ = act(s, 1, {"type": "end_turn"})
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "gate"})
    assert s["players"][1]["power"] == 2
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "gate"})  # once per turn


# -- turn, draw, acquire ----------------------------------------------------------------


def test_end_turn_discards_and_draws():  # C-04, T-24
    s = new()
    hand = list(s["players"][0]["hand"])
    s, _ = act(s, 0, {"type": "play", "iid": hand[0]})
    s, _ = act(s, 0, {"type": "play", "iid": hand[1]})
    s, _ = act(s, 0, {"type": "gate"})
    s, _ = act(s, 0, {"type": "end_turn"})
    p = s["players"][0]
    assert p["runes"] == p["power"] == 0 and p["played"] == []
    assert len(p["hand"]) == 5 and sorted(p["discard"]) == sorted(hand)


def test_reshuffle_excludes_played_heroes():  # C-05, T-27
    s = new()
    p = s["players"][0]
    p["discard"], p["deck"] = p["deck"], []
    played = p["hand"][:2]
    for iid in played:
        s, _ = act(s, 0, {"type": "play", "iid": iid})
    drawer = add_card(s, 0, _draw_hero())
    s, _ = act(s, 0, {"type": "play", "iid": drawer})
    p = s["players"][0]
    assert not set(played) & set(p["hand"] + p["deck"])
    assert set(played) <= set(p["played"])


def _draw_hero() -> str:
    for c in DB.central():
        if c.type == "hero" and [e["op"] for a in c.abilities for e in a.effects] == ["draw"]:
            return c.id
    raise AssertionError


def test_acquire_needs_the_runes():  # C-07, T-29
    s = new()
    three = next(i for i, c in s["piles"].items() if DB[i].cost == 3)
    s["players"][0]["runes"] = 2
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "acquire", "pile": three})
    s["players"][0]["runes"] = 3
    s2, _ = act(s, 0, {"type": "acquire", "pile": three})
    assert s2["players"][0]["runes"] == 0 and len(s2["players"][0]["discard"]) == 1


@pytest.mark.rule("T-21", "T-29", "T-30", "C-08", "C-11")
def test_monster_paid_with_power_goes_to_reserve_and_can_be_commanded():  # C-11, C-08
    s = new()
    monster = next(c for c in DB.central() if c.type == "monster" and c.cost == 5)
    iid = add_card(s, 0, monster.id, "deck")
    s["players"][0]["deck"].remove(iid)
    s["row"][0] = iid
    s["players"][0]["power"] = 5 + monster.command
    s, _ = act(s, 0, {"type": "acquire", "iid": iid})
    assert s["players"][0]["power"] == monster.command
    fig = s["figs"][-1]
    assert fig["card"] == monster.id and fig["owner"] == 0 and fig["cell"] is None
    assert len(s["row"]) == 6 and None not in s["row"]  # T-31
    assert {"type": "command", "fig": fig["id"], "cell": "0,5"} in SYSTEM.legal_actions(s, 0)


def test_ambush_after_refill_and_not_on_play():  # C-09, C-10, T-33
    ambusher = next(c for c in DB.central() if c.abilities_when("ambush"))
    s = new()
    iid = add_card(s, 0, ambusher.id, "deck")
    s["players"][0]["deck"].remove(iid)
    s["row"][2] = iid
    s["players"][0]["runes"] = 10
    s, _ = act(s, 0, {"type": "acquire", "iid": iid})
    assert s["pending"]["kind"] == "ambush" and None not in s["row"]
    s, _ = act(s, 0, {"type": "choose", "i": None})
    t = new()
    j = add_card(t, 0, ambusher.id)
    t, _ = act(t, 0, {"type": "play", "iid": j})
    assert t["pending"] is None


# -- constructs ---------------------------------------------------------------------------


def _construct(name_pred) -> str:
    return next(c.id for c in DB.central() if c.type == "construct" and name_pred(c))


def test_construct_equips_exhausted_reserve_champion_not_cultist():  # C-12, C-13, C-14
    s = new()
    shield = _construct(lambda c: c.equip.defence == 3 and not c.equip.keywords)
    fig = fig_of(s, 0)
    fig["exhausted"] = True
    base = SYSTEM.stat(s, fig, "defence")
    iid = add_card(s, 0, shield)
    s["players"][0]["power"] = 2
    s, _ = act(s, 0, {"type": "cultist", "cell": "0,5"})
    s, _ = act(s, 0, {"type": "done"})
    plays = [a for a in SYSTEM.legal_actions(s, 0) if a["type"] == "play" and a["iid"] == iid]
    cultist = s["figs"][-1]
    assert cultist["iid"] is None and all(a["fig"] != cultist["id"] for a in plays)
    s, _ = act(s, 0, {"type": "play", "iid": iid, "fig": fig["id"]})
    assert SYSTEM.stat(s, s["figs"][fig["id"]], "defence") == base + 3
    s, _ = act(s, 0, {"type": "end_turn"})
    assert iid in s["figs"][fig["id"]]["equip"]


# -- commands ---------------------------------------------------------------------------


def test_command_cost_entry_exhaust():  # C-15, C-16, C-17, T-34, T-35, T-38
    s = new()
    fig = fig_of(s, 0)
    cost = SYSTEM.command_cost(fig)
    s["players"][0]["power"] = cost - 1
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "command", "fig": fig["id"], "cell": "0,5"})
    s["players"][0]["power"] = cost
    s, _ = act(s, 0, {"type": "command", "fig": fig["id"], "cell": "0,5"})
    assert s["figs"][fig["id"]]["cell"] == "0,5" and s["players"][0]["power"] == 0
    s, _ = act(s, 0, {"type": "done"})
    s["players"][0]["power"] = 10
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "command", "fig": fig["id"]})


def test_command_in_progress_blocks_other_actions():  # C-18, T-37
    s = new()
    fig = fig_of(s, 0)
    s["players"][0]["power"] = 20
    s, _ = act(s, 0, {"type": "command", "fig": fig["id"], "cell": "0,5"})
    for a in ({"type": "play", "iid": s["players"][0]["hand"][0]}, {"type": "end_turn"},
              {"type": "acquire", "pile": next(iter(s["piles"]))}, {"type": "gate"}):  # fmt: skip
        with pytest.raises(IllegalAction):
            act(s, 0, a)
    s["players"][0]["treasure"] = [0]
    s2, _ = act(s, 0, {"type": "treasure", "i": 0, "fig": fig["id"]})
    assert s2["players"][0]["treasure"] == []


def _board(s, seat_cells):
    """Put the first reserve champions of each seat on the given cells."""
    figs = []
    for seat, cells in seat_cells.items():
        for k, cell in enumerate(cells):
            f = fig_of(s, seat, k)
            f["cell"] = cell
            figs.append(f)
    return figs


def _command(s, fig):
    s["players"][fig["owner"]]["power"] = 20
    s["active"] = fig["owner"]
    return act(s, fig["owner"], {"type": "command", "fig": fig["id"]})[0]


def test_move_limit_and_no_second_move():  # C-19, C-24, T-39, T-42
    s = new(reserves=[[cid("Ward-Engine M-7")] * 4, [cid("Ward-Engine M-7")] * 4])
    (a,) = _board(s, {0: ["0,4"]})
    s = _command(s, a)
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "move", "cell": "4,0"})
    s, _ = act(s, 0, {"type": "move", "cell": "0,3"})
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "move", "cell": "1,3"})


@pytest.mark.rule("T-44", "T-45", "T-46", "T-47", "C-25", "C-26", "C-27", "C-28", "C-29")
def test_melee_only_adjacent_and_damage_defeat_and_cleanup():  # C-25..C-29, T-44..T-47
    knight, warden = cid("Ward-Engine M-7"), cid("Kera, Bolt-Thrower")
    s = new(reserves=[[warden] * 4, [knight] * 4])
    a, b, c = _board(s, {0: ["1,3", "-1,3"], 1: ["1,2"]})
    s1 = _command(copy.deepcopy(s), a)
    assert {"type": "attack", "cell": "1,2"} in SYSTEM.legal_actions(s1, 0)
    s1["figs"][c["id"]]["cell"] = "1,1"  # 2 cells away: Kera (ranged) reaches, melee no
    assert {"type": "attack", "cell": "1,1"} in SYSTEM.legal_actions(s1, 0)
    s1["figs"][a["id"]]["card"] = knight
    assert {"type": "attack", "cell": "1,1"} not in SYSTEM.legal_actions(s1, 0)  # C-25
    shield = _construct(lambda c: c.equip.defence == 3 and not c.equip.keywords)
    t1 = add_card(s, 1, shield, "deck")
    s["players"][1]["deck"].remove(t1)
    t2 = add_card(s, 1, shield, "deck")
    s["players"][1]["deck"].remove(t2)
    c["equip"] = [t1, t2]  # DEF 6 + 6
    s = _command(s, a)
    s, _ = act(s, 0, {"type": "attack", "cell": "1,2"})
    assert s["figs"][c["id"]]["damage"] == 3
    s, _ = act(s, 0, {"type": "done"})
    s, _ = act(s, 0, {"type": "end_turn"})
    assert s["figs"][c["id"]]["damage"] == 0  # C-27
    s, _ = act(s, 1, {"type": "end_turn"})
    c = s["figs"][c["id"]]
    c["equip"] = []  # DEF 6: 3 + 3 defeats (C-26)
    s = _command(s, s["figs"][a["id"]])
    s, _ = act(s, 0, {"type": "attack", "cell": "1,2"})
    s, _ = act(s, 0, {"type": "done"})
    s = _command(s, s["figs"][b["id"]])
    s["figs"][c["id"]]["equip"] = [t1, t2]
    s["figs"][c["id"]]["damage"] = 12
    s, _events = act(s, 0, {"type": "attack", "cell": "1,2"})
    c = s["figs"][c["id"]]
    assert c["cell"] is None and c["exhausted"] and c["equip"] == []
    assert {t1, t2} <= set(s["players"][1]["discard"])  # C-29
    s, _ = act(s, 0, {"type": "done"})
    s, _ = act(s, 0, {"type": "end_turn"})
    assert all(a.get("fig") != c["id"] for a in SYSTEM.legal_actions(s, 1))  # C-28
    s, _ = act(s, 1, {"type": "end_turn"})
    assert not s["figs"][c["id"]]["exhausted"]


@pytest.mark.rule("T-48", "T-74", "D-7", "C-30")
def test_destroyed_construct_defeats():  # C-30, T-48, D-7
    s = new(reserves=[[cid("Ward-Engine M-7")] * 4, [cid("Ward-Engine M-7")] * 4])
    (c,) = _board(s, {1: ["0,0"]})
    shield = _construct(lambda c: c.equip.defence == 3 and not c.equip.keywords)
    t = add_card(s, 1, shield, "deck")
    s["players"][1]["deck"].remove(t)
    c["equip"] = [t]
    c["damage"] = 7  # DEF 6 + 3 = 9
    breaker = next(x for x in DB.central() if any(
        e["op"] == "destroy" for a in x.abilities for e in a.effects))  # fmt: skip
    iid = add_card(s, 0, breaker.id)
    s, _ = act(s, 0, {"type": "play", "iid": iid})
    s, _ = act(s, 0, {"type": "choose", "i": 0})
    assert s["figs"][c["id"]]["cell"] is None
    assert t in s["players"][1]["discard"] and s["figs"][c["id"]]["equip"] == []  # T-74


def test_cultist_cap():  # C-31, T-50
    s = new()
    s["players"][0]["power"] = 100
    cells = ["0,4", "1,4", "-1,4", "1,3"]
    for cell in cells:
        s, _ = act(s, 0, {"type": "cultist", "cell": "0,5"})
        s, _ = act(s, 0, {"type": "move", "cell": cell})
        s, _ = act(s, 0, {"type": "done"})
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "cultist", "cell": "0,5"})


def test_double_attack_attack_move_attack():  # C-37, T-53
    zara = cid("Zara, Shadow Blade")
    s = new(reserves=[[zara] * 4, [cid("Ward-Engine M-7")] * 4])
    a, _b, c = _board(s, {0: ["0,3"], 1: ["0,2", "2,1"]})
    s = _command(s, a)
    s, _ = act(s, 0, {"type": "attack", "cell": "0,2"})
    s, _ = act(s, 0, {"type": "move", "cell": "1,2"})
    s, _ = act(s, 0, {"type": "attack", "cell": "2,1"})
    assert s["figs"][c["id"]]["damage"] == 3


def test_counter_strike_simultaneous_and_slaughter_on_mutual_kill():  # C-41, C-45
    morg, tenn = cid("Morg the Devourer"), cid("Tenn, Keeper of the Flame")
    s = new(reserves=[[morg] * 4, [tenn] * 4])
    a, c = _board(s, {0: ["0,1"], 1: ["0,0"]})
    a["damage"] = 3  # Morg DEF 5: Tenn's STR 2 counter-strike kills him
    s = _command(s, a)
    c = s["figs"][c["id"]]
    c["damage"] = 1  # Tenn DEF 5: Morg's 4 kills
    s, _events = act(s, 0, {"type": "attack", "cell": "0,0"})
    assert s["figs"][a["id"]]["cell"] is None and s["figs"][c["id"]]["cell"] is None
    assert s["players"][0]["glory"] == 1  # Slaughter: +1 glory
    assert s["cmd"] is None


def test_area_attack_hits_all_adjacent():  # C-44, T-56
    dorn = cid("Dorn, Steam Hammer")
    s = new(reserves=[[dorn] * 4, [cid("Ward-Engine M-7")] * 4])
    figs = _board(s, {0: ["0,0"], 1: ["1,0", "0,1", "-1,1"]})
    s = _command(s, figs[0])
    s, _ = act(s, 0, {"type": "attack", "cell": "0,1"})
    assert [s["figs"][f["id"]]["damage"] for f in figs[1:]] == [4, 4, 4]


# -- banish, devotion, glory --------------------------------------------------------------


def test_banish_destinations_and_played_card_protected():  # C-34, C-35, T-71, T-72
    banisher = next(c for c in DB.central() if any(
        e["op"] == "banish" and e["from"] == "hand_or_discard"
        for a in c.abilities_when("play") for e in a.effects))  # fmt: skip
    s = new()
    p = s["players"][0]
    mystic = next(i for i, c in s["piles"].items() if DB[i].name_en == "Mystic")
    m = s["piles"][mystic].pop()
    p["discard"].append(m)
    hero = add_card(s, 0, _draw_hero(), "discard")
    apprentice = p["hand"][0]
    s, _ = act(s, 0, {"type": "play", "iid": apprentice})
    iid = add_card(s, 0, banisher.id)
    s, _ = act(s, 0, {"type": "play", "iid": iid})
    opts = s["pending"]["options"]
    assert all(o["iid"] not in (apprentice, iid) for o in opts)  # C-35
    for target, where in ((m, "piles"), (hero, "banished")):
        t = copy.deepcopy(s)
        k = next(i for i, o in enumerate(opts) if o["iid"] == target)
        t, _ = act(t, 0, {"type": "choose", "i": k})
        assert target in (t["piles"][mystic] if where == "piles" else t["banished"])
    other = next(i for i in s["players"][0]["hand"] if DB[s["cards"][i]].pile == "starter")
    k = next(i for i, o in enumerate(opts) if o["iid"] == other)
    t, _ = act(s, 0, {"type": "choose", "i": k})
    assert other in t["box"]


def test_devotion_applies_once_after_the_later_card():  # C-46, T-52
    dev = next(c for c in DB.central() if c.faction == "mechana" and any(
        e["op"] == "runes" for a in c.abilities_when("devotion") for e in a.effects))  # fmt: skip
    plain = next(c for c in DB.central() if c.faction == "mechana" and c.type == "hero"
                 and not c.abilities_when("devotion") and [e["op"] for a in c.abilities
                 for e in a.effects] == ["runes"])  # fmt: skip
    s = new()
    d = add_card(s, 0, dev.id)
    x = add_card(s, 0, plain.id)
    y = add_card(s, 0, plain.id)
    s, _ = act(s, 0, {"type": "play", "iid": d})
    r0 = s["players"][0]["runes"]
    s, _ = act(s, 0, {"type": "play", "iid": x})
    r1 = s["players"][0]["runes"]
    s, _ = act(s, 0, {"type": "play", "iid": y})
    r2 = s["players"][0]["runes"]
    assert r1 - r0 == 1 + 1 and r2 - r1 == 1


def test_shrine_glory_wins_at_end_of_turn():  # C-06, T-24, T-25, T-64
    s = new()
    s["players"][0]["glory"] = 28
    _board(s, {0: ["0,1"]})
    s, _events = act(s, 0, {"type": "end_turn"})
    assert s["finished"] and s["players"][0]["glory"] == 30
    assert SYSTEM.result(s).winners == (0,)


def test_not_your_turn_and_leave():
    s = new()
    with pytest.raises(NotYourTurn):
        act(s, 1, {"type": "end_turn"})
    t, _ = SYSTEM.leave(s, 0, "concede")
    assert SYSTEM.result(t).winners == (1,) and SYSTEM.result(t).eliminated == (0,)


def test_turn_limit_is_a_draw():
    s = new(max_rounds=1)
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 1, {"type": "end_turn"})
    assert s["finished"] and SYSTEM.result(s).draw


# -- invariants ---------------------------------------------------------------------------


def _hidden(s, seat: int) -> set[int]:
    """Instance ids nobody but their owner may see: decks, the other's hand, the center."""
    other = s["players"][1 - seat]
    out = set(other["hand"]) | set(s["center"])
    for p in s["players"]:
        out |= set(p["deck"])
    return out


def _iids(data) -> set[int]:
    out = set()
    if isinstance(data, dict):
        if "iid" in data and isinstance(data["iid"], int):
            out.add(data["iid"])
        for v in data.values():
            out |= _iids(v)
    elif isinstance(data, list):
        for v in data:
            out |= _iids(v)
    return out


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**16), steps=st.integers(1, 250))
def test_random_play_invariants(seed, bot_seed, steps):
    s0 = SYSTEM.new_game({}, [None, None], seed)
    s, rng, log = s0, seed_state(bot_seed), []
    for _ in range(steps):
        if s["finished"]:
            break
        seat = SYSTEM.to_act(s)[0]
        action = choice(rng, SYSTEM.legal_actions(s, seat))
        before = json.dumps(s, sort_keys=True)
        s2, events = SYSTEM.apply(s, seat, action)
        assert json.dumps(s, sort_keys=True) == before  # never mutates its input
        # events carry no card the other seat may not see (the drawn cards stay hidden)
        secret = _hidden(s2, 1 - seat)
        for ev in events:
            if ev["type"] != "acquire":
                assert not (_iids(ev) & secret - set(s2["row"])), ev
            assert ev["type"] not in ("draw",) or set(ev) == {"type", "seat", "count"}
        s = s2
        log.append((seat, action))
        for viewer in (0, 1):
            assert not (_iids(SYSTEM.view(s, viewer)) & _hidden(s, viewer))
            assert isinstance(SYSTEM.view(s, viewer)["players"][1 - viewer]["hand"], int)
    assert replay(SYSTEM, {}, [None, None], seed, log) == s


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_end_within_the_limit(seed):
    s = SYSTEM.new_game({"max_rounds": 40}, [None, None], seed)
    rng = seed_state(seed ^ 0xABC)
    for _ in range(20_000):
        if s["finished"]:
            break
        seat = SYSTEM.to_act(s)[0]
        s, _ = SYSTEM.apply(s, seat, choice(rng, SYSTEM.legal_actions(s, seat)))
    assert s["finished"] and s["round"] <= 41
