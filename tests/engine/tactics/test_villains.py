"""The villain modes of Tactics: solo and archvillain [§14 T-81..T-95, T-99..T-101; D-4,
D-17, D-18] on «Логово Пепельной королевы».

Checklist (digest §20) items covered: C-59, C-60, C-61, C-62, C-63, C-64, C-65, C-66,
C-67, C-68; plus hypothesis invariants (solo and archvillain): replaying the action log
gives the same state, apply never mutates its input, the scheme deck's order and the
archvillain's hand never reach the hero's view.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction, InvalidConfig
from engine.core.protocol import replay
from engine.core.rng import choice, seed_state
from engine.tactics import hexes, terrain, villains
from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM

DB = SYSTEM.db
SOLO = {"mode": "solo"}
ARCH = {"mode": "archvillain"}
SCHEMES = 26  # the scheme deck of «Логово Пепельной королевы» (decision 0055)


def cid(name: str) -> str:
    return DB.find(name).id


def solo(seed: int = 1, **config):
    return SYSTEM.new_game({**SOLO, **config}, [None], seed)


def arch(seed: int = 1, **config):
    return SYSTEM.new_game({**ARCH, **config}, [None, None], seed)


def vfig(s, token: str) -> dict:
    return s["figs"][s["villain"]["tokens"][token]]


def hero(s, k: int = 0) -> dict:
    return [f for f in s["figs"] if f["owner"] == 0][k]


def scheme_iid(s, card: str) -> int:
    return next(i for i, c in enumerate(s["cards"]) if c == cid(card))


def only_schemes(s, names: list[str]) -> None:
    """The scheme deck holds exactly ``names``, the first to be revealed first."""
    s["villain"]["deck"] = [scheme_iid(s, n) for n in reversed(names)]


def end_turn(s):
    return SYSTEM.apply(s, 0, {"type": "end_turn"})


def order(s, token: str):
    events: list = []
    s["active"] = s["villain"]["seat"]
    villains.order(SYSTEM, s, token, events)
    return events


def free_cells(s) -> list[str]:
    taken = {f["cell"] for f in SYSTEM.on_board(s)}
    return [c for c in s["cells"] if c not in taken]


# -- setup [T-81..T-84, T-101] ------------------------------------------------------------


@pytest.mark.rule("T-81", "T-83", "T-84")
def test_solo_setup_villains_tokens_schemes_and_the_hero_first():
    s = solo()
    v = s["villain"]
    assert [p["seat"] for p in s["players"] if not p.get("villain")] == [0]
    assert s["active"] == 0 and s["players"][0]["gate_no"] == 1  # T-84: you go first
    assert SYSTEM.to_act(s) == (0,)
    own = [DB[f["card"]].name_en for f in s["figs"] if f["owner"] == 0]
    assert sorted(own) == sorted(DB[c].name_en for c in DB.scenario("ash_queens_lair")
                                 .modes["solo"].reserves[1])  # fmt: skip
    assert DB[vfig(s, "boss")["card"]].is_boss  # T-83: the crown on the boss
    assert sorted(v["tokens"]) == ["a", "b", "boss", "c"]
    assert all(vfig(s, t)["cell"] is None for t in v["tokens"])  # villains enter when commanded
    assert len(v["deck"]) == SCHEMES and v["discard"] == [] and v["hand"] == []
    deals = {tuple(sorted(solo(seed)["villain"]["tokens"].items())) for seed in range(8)}
    assert len(deals) > 1  # T-83: the other tokens are dealt at random
    # the scheme deck is shuffled from the seed, the same seed the same order
    assert solo(5)["villain"]["deck"] == solo(5)["villain"]["deck"]
    assert solo(5)["villain"]["deck"] != solo(6)["villain"]["deck"]


@pytest.mark.rule("T-101", "C-67")
def test_difficulty_discards_schemes_that_count_toward_threat():
    for level, k in (("normal", 0), ("hard", 4), ("nightmare", 8)):
        s = solo(difficulty=level)
        assert len(s["villain"]["discard"]) == k and len(s["villain"]["deck"]) == SCHEMES - k
        assert villains.threat(s) == k
    s = solo(difficulty="hard")
    only_schemes(s, ["Raid", "Siege of the Shrines"])  # Raid: threat 4 -> command again
    s, events = end_turn(s)
    raid = next(e for e in events if e["type"] == "scheme")
    assert raid["card"] == cid("Raid") and raid["bottom"] is True


@pytest.mark.rule("T-75", "T-84", "T-101")
def test_bad_configs_are_refused():
    bad = [
        ({"mode": "solo", "players": 2}, [None, None]),
        ({"mode": "solo", "difficulty": "easy"}, [None]),
        ({"mode": "solo", "first": 1}, [None]),
        ({"mode": "solo", "scenario": "stone_crossroads"}, [None]),
        ({"mode": "solo", "scenario": "nowhere"}, [None]),
        ({"mode": "solo", "reserves": [["TC1-118"]]}, [None]),  # a villain
        ({"mode": "solo", "reserves": "TC1-010"}, [None]),
        ({"mode": "solo", "max_rounds": 0}, [None]),
        ({"mode": "archvillain", "players": 1}, [None]),
        ({"mode": "coop", "players": 1}, [None]),
        ({"mode": "coop", "reserves": [["TC1-010"]]}, [None, None]),  # one list per hero
    ]
    for config, decks in bad:
        with pytest.raises(InvalidConfig):
            SYSTEM.new_game(config, decks, 1)
    assert SYSTEM.new_game({"players": 1}, [None], 1)["mode"] == "solo"  # the play app's solo


# -- the villain turn [T-85..T-87] --------------------------------------------------------


@pytest.mark.rule("T-85", "T-86", "C-59")
def test_bottom_effect_only_at_threat_and_this_turns_schemes_do_not_count():
    s = solo()
    s["villain"]["discard"] = [scheme_iid(s, "Muster"), scheme_iid(s, "Pincers"),
                               scheme_iid(s, "Snare")]  # fmt: skip
    only_schemes(s, ["Siege of the Shrines", "Raid", "Dark Rite"])
    s2, events = end_turn(s)
    shown = [e for e in events if e["type"] == "scheme"]
    assert [e["card"] for e in shown] == [cid("Siege of the Shrines"), cid("Raid")]
    assert shown[1]["threat"] == 3 and shown[1]["bottom"] is False  # the first is not counted
    commands = [e for e in events if e["type"] == "command" and e["seat"] == 1]
    assert len(commands) == 1  # Raid's top only
    assert len(s2["villain"]["discard"]) == 5  # step 3: both discarded at the end
    # with 4 discarded the same card's bottom resolves
    s["villain"]["discard"].append(scheme_iid(s, "Shield Wall"))
    _s3, events = end_turn(s)
    assert [e for e in events if e["type"] == "scheme"][1]["bottom"] is True
    assert len([e for e in events if e["type"] == "command" and e["seat"] == 1]) == 2


@pytest.mark.rule("T-87", "T-95", "C-60")
def test_villains_win_when_a_scheme_must_come_from_an_empty_deck():
    s = solo()
    only_schemes(s, ["Siege of the Shrines"])
    s, events = end_turn(s)
    assert s["finished"] and s["villain"]["won"]
    assert SYSTEM.result(s).winners == () and not SYSTEM.result(s).draw
    assert any(e["type"] == "villains_win" and e["why"] == "schemes" for e in events)
    assert set(SYSTEM.result(s).scores) == {0}  # the villains are no seat in solo


@pytest.mark.rule("T-95")
def test_villains_win_at_the_scenarios_villain_glory():
    s = solo()
    s["players"][1]["glory"] = s["victory"]["villain_glory"] - 2  # Siege: +2
    only_schemes(s, ["Siege of the Shrines", "Raid", "Dark Rite"])
    s, _ = end_turn(s)
    assert s["finished"] and s["villain"]["won"] and SYSTEM.result(s).winners == ()


@pytest.mark.rule("T-25", "T-95")
def test_the_hero_wins_at_the_scenarios_glory():
    s = solo()
    s["players"][0]["glory"] = 19
    cultist_cell = "0,-1"
    s["figs"].append({**copy.deepcopy(hero(s)), "id": len(s["figs"]), "card": DB.cultist().id,
                      "iid": None, "owner": 1, "cell": cultist_cell})  # fmt: skip
    me = hero(s)
    me["cell"] = "0,0"
    s["players"][0]["power"] = 9
    s, _ = SYSTEM.apply(s, 0, {"type": "command", "fig": me["id"]})
    s, _ = SYSTEM.apply(s, 0, {"type": "attack", "cell": cultist_cell})
    assert s["finished"] and SYSTEM.result(s).winners == (0,)  # T-94: +1 glory, 20 in all


# -- commanding villains [T-89..T-91] ------------------------------------------------------


@pytest.mark.rule("T-89", "T-90", "C-61")
def test_villain_enters_at_an_entry_cell_acts_twice_never_exhausts_and_leaves_treasure():
    s = solo()
    for c in s["cells"]:
        s["board_treasure"].setdefault(c, 0)  # treasure on every cell
    before = dict(s["board_treasure"])
    fig = vfig(s, "a")
    order(s, "a")
    assert fig["cell"] is not None and not fig["exhausted"]
    first = fig["cell"]
    events = order(s, "a")  # T-90: again in the same turn
    assert any(e["type"] == "move" and e["fig"] == fig["id"] for e in events)
    assert fig["cell"] != first and not fig["exhausted"]
    assert s["board_treasure"] == before and s["players"][1]["treasure"] == []
    s2 = solo()  # T-89: it enters on the free entry cell closest to its target
    entry = s2["villain"]["entry"]
    vfig(s2, "c")["cell"] = entry[0]  # one entry cell taken
    entered = next(e for e in order(s2, "b") if e["type"] == "enter")
    target = villains.pc(s2["villain"]["targets"]["b"])
    free = [villains.pc(c) for c in entry[1:]]
    assert entered["cell"] != entry[0]
    assert villains.pc(entered["cell"]) == terrain.closest(SYSTEM.bf(s2), free, target)[0]


@pytest.mark.rule("T-90", "T-94", "C-62")
def test_defeating_a_villain_or_cultist_gives_glory_at_once():
    s = solo()
    me = hero(s, 1)  # Gron, Oak Warden: STR 2
    bowman = next(f for f in s["figs"] if f["card"] == cid("Rotten Bowman"))
    me["cell"], bowman["cell"] = "0,2", "0,1"
    bowman["damage"] = 1  # DEF 3
    s["players"][0]["power"] = 9
    s, _ = SYSTEM.apply(s, 0, {"type": "command", "fig": me["id"]})
    s, events = SYSTEM.apply(s, 0, {"type": "attack", "cell": "0,1"})
    assert s["players"][0]["glory"] == DB[cid("Rotten Bowman")].glory == 2
    bowman = s["figs"][bowman["id"]]
    assert bowman["cell"] is None and not bowman["exhausted"]  # T-90: never exhausted
    assert any(e["type"] == "glory" for e in events)  # at once, not at the end of the turn
    # a villain cultist: 1 glory (T-94)
    s = solo()
    villains.spawn_cultist(SYSTEM, s, {"token": "c"}, [])
    cult = s["figs"][-1]
    me = hero(s, 0)
    me["cell"] = next(ck for ck in free_cells(s) if hexes.distance(
        villains.pc(ck), villains.pc(cult["cell"])) == 1)  # fmt: skip
    s["players"][0]["power"] = 9
    s, _ = SYSTEM.apply(s, 0, {"type": "command", "fig": me["id"]})
    s, _ = SYSTEM.apply(s, 0, {"type": "attack", "cell": cult["cell"]})
    assert s["players"][0]["glory"] == 1 and s["figs"][cult["id"]]["gone"]


@pytest.mark.rule("T-91", "C-63")
def test_villain_next_to_its_target_shrine_stays_and_scores_at_once():
    s = solo()
    fig = vfig(s, "boss")  # target: the crown on the central shrine at 0,0
    assert s["terrain"][s["villain"]["targets"]["boss"]] == "shrine"
    fig["cell"] = "0,-1"
    events = order(s, "boss")
    assert fig["cell"] == "0,-1"
    assert not any(e["type"] == "move" for e in events)
    assert s["players"][1]["glory"] == s["shrine_glory"]
    # not next to it: it moves and gains nothing now
    s = solo()
    vfig(s, "boss")["cell"] = "0,-4"
    events = order(s, "boss")
    assert any(e["type"] == "move" for e in events) and s["players"][1]["glory"] == 0
    # a target off the shrines: next to a shrine it still moves on, no glory (T-91 "No" 2)
    s = solo()
    assert s["terrain"].get(s["villain"]["targets"]["a"]) != "shrine"
    vfig(s, "a")["cell"] = "-4,1"  # next to the shrine at -4,2
    events = order(s, "a")
    assert any(e["type"] == "move" for e in events) and s["players"][1]["glory"] == 0


@pytest.mark.rule("T-91", "D-17", "C-64")
def test_villain_that_can_defeat_after_moving_takes_the_approach_closest_to_its_target():
    s = solo()
    fig = vfig(s, "a")
    target = villains.pc(s["villain"]["targets"]["a"])
    fig["cell"] = "-1,-2"
    me = hero(s, 0)
    me["cell"] = "-1,1"
    me["damage"] = 2  # 1 DEF left: any hit defeats it
    villains.begin_command(SYSTEM, s, fig)
    ranged = "ranged" in SYSTEM.keywords(s, fig)
    spots = [villains.pc(c) for c in SYSTEM._moves(s, fig)
             if terrain.can_attack(SYSTEM.bf(s), villains.pc(c), (-1, 1),
                                   enemies={(-1, 1)}, ranged=ranged)]  # fmt: skip
    best = terrain.closest(SYSTEM.bf(s), spots, target, enemies={(-1, 1)})
    assert len(spots) > 1 and set(best) != set(spots)  # a real choice
    s["cmd"] = None
    events = order(s, "a")
    assert villains.pc(fig["cell"]) == best[0]
    assert any(e["type"] == "defeat" and e["fig"] == me["id"] for e in events)


@pytest.mark.rule("T-91", "D-4")
def test_villain_attacks_without_moving_then_moves_toward_its_target():
    s = solo()
    fig = vfig(s, "a")
    fig["cell"] = "0,-1"
    me = hero(s, 0)
    me["cell"] = "0,0"
    me["damage"] = 2
    events = order(s, "a")
    kinds = [e["type"] for e in events if e["type"] in ("attack", "move")]
    assert kinds == ["attack", "move"]
    target = villains.pc(s["villain"]["targets"]["a"])
    assert hexes.distance(villains.pc(fig["cell"]), target) < hexes.distance((0, -1), target)


@pytest.mark.rule("T-91", "D-4")
def test_villain_that_cannot_defeat_moves_then_attacks_the_strongest_in_reach():
    s = solo()
    fig = vfig(s, "boss")  # the Ash Queen: ranged, STR 5
    fig["cell"] = "0,-4"
    strong, weak = hero(s, 3), hero(s, 0)  # Nox STR 3 DEF 4 (+ 6 DEF) / Aira STR 2
    strong["cell"], weak["cell"] = "1,-1", "-1,-1"
    strong["boost"]["defence"] = 9
    weak["boost"]["defence"] = 9
    events = order(s, "boss")
    attacks = [e for e in events if e["type"] == "attack"]
    assert attacks and attacks[0]["targets"] == [strong["id"]]
    assert next(e["type"] for e in events if e["type"] in ("attack", "move")) == "move"


@pytest.mark.rule("T-92", "C-65")
def test_a_defeated_villains_constructs_are_banished():
    s = solo()
    fig = vfig(s, "b")
    fig["cell"] = "0,1"
    blade = next(c for c in DB.central() if c.type == "construct")
    s["cards"].append(blade.id)
    iid = len(s["cards"]) - 1
    fig["equip"].append(iid)
    SYSTEM._damage(s, [(fig, 99)], [])
    assert fig["cell"] is None and fig["equip"] == []
    assert iid in s["banished"]
    assert all(iid not in p["discard"] for p in s["players"])


@pytest.mark.rule("T-94", "C-66")
def test_villain_cultist_goes_next_to_a_taken_cell_or_nowhere():
    s = solo()
    crown = s["villain"]["targets"]["boss"]
    villains.spawn_cultist(SYSTEM, s, {"token": "boss"}, [])
    assert s["figs"][-1]["cell"] == crown and s["figs"][-1]["owner"] == 1
    villains.spawn_cultist(SYSTEM, s, {"token": "boss"}, [])
    assert hexes.distance(villains.pc(s["figs"][-1]["cell"]), villains.pc(crown)) == 1
    for _ in range(5):  # every neighbour taken
        villains.spawn_cultist(SYSTEM, s, {"token": "boss"}, [])
    count = len(s["figs"])
    events: list = []
    villains.spawn_cultist(SYSTEM, s, {"token": "boss"}, events)
    assert len(s["figs"]) == count and events[0]["type"] == "villain_nothing"
    cultists = [f for f in SYSTEM.on_board(s, 1) if SYSTEM.is_cultist(f)]
    assert len(cultists) == 7  # no cultist cap for the villains


@pytest.mark.rule("T-88", "T-94", "D-17")
def test_in_solo_the_player_makes_the_schemes_choices_the_least_harmful_way():
    s = solo()
    weak, tough = hero(s, 0), hero(s, 1)
    weak["cell"], tough["cell"] = "0,3", "-1,4"
    weak["damage"] = SYSTEM.stat(s, weak, "defence") - 1  # 2 more would defeat it
    events: list = []
    villains.resolve(SYSTEM, s, {"op": "damage", "target": "enemy", "amount": 2}, events)
    assert tough["damage"] == 2 and weak["cell"] == "0,3"  # the champion it does not defeat
    # a cultist on a taken target cell: the free neighbour farthest from the shrines
    eye = s["villain"]["targets"]["c"]
    tough["cell"] = eye
    villains.spawn_cultist(SYSTEM, s, {"token": "c"}, [])
    cell = villains.pc(s["figs"][-1]["cell"])
    shrines = [villains.pc(c) for c, t in s["terrain"].items() if t == "shrine"]
    options = terrain.spawn_cells(SYSTEM.bf(s), villains.pc(eye),
                                  {villains.pc(f["cell"]) for f in SYSTEM.on_board(s)
                                   if f["id"] != s["figs"][-1]["id"]})  # fmt: skip
    far = max(min(hexes.distance(o, h) for h in shrines) for o in options)
    assert min(hexes.distance(cell, h) for h in shrines) == far
    # new corrupted land: as far from the heroes' champions as it can be
    villains.resolve(SYSTEM, s, {"op": "terrain", "terrain": "corrupted"}, events)
    placed = villains.pc(events[-1]["cell"])
    mine = [villains.pc(f["cell"]) for f in SYSTEM.on_board(s, 0)]
    assert min(hexes.distance(placed, h) for h in mine) >= 5


@pytest.mark.rule("T-93")
def test_surge_applies_the_boss_surge_even_off_the_battlefield():
    s = solo()
    assert vfig(s, "boss")["cell"] is None
    only_schemes(s, ["Awakening", "Siege of the Shrines", "Raid"])  # top: Surge
    s, events = end_turn(s)
    assert any(e["type"] == "surge" for e in events)
    eye = s["villain"]["targets"]["c"]  # the Ash Queen's Surge: a cultist on the eye
    assert any(e["type"] == "enter" and e.get("cultist") and e["cell"] == eye for e in events)
    assert any(e["type"] == "villain_boost" and e["stat"] == "strength" for e in events)


@pytest.mark.rule("T-92")
def test_threat_gated_villain_ability():
    s = solo()
    witch = next(f for f in s["figs"] if f["card"] == cid("Renegade Witch"))
    assert SYSTEM.stat(s, witch, "strength") == 3
    s["villain"]["discard"] = s["villain"]["deck"][:4]
    assert SYSTEM.stat(s, witch, "strength") == 5  # Threat 4: +2 STR


@pytest.mark.rule("T-62", "D-12")
def test_corrupted_land_does_not_harm_villains_in_solo_nor_the_lairs_in_archvillain():
    s = solo()
    fig = vfig(s, "b")
    fig["cell"] = "1,-4"  # the scenario's corrupted land
    SYSTEM._turn_start(s, 0, [])
    assert fig["damage"] == 0
    s["terrain"]["2,-1"] = "corrupted"  # placed later, by a scheme: in solo, no harm either
    fig["cell"] = "2,-1"
    events: list = []
    SYSTEM._turn_start(s, 0, events)
    assert fig["damage"] == 0 and not [e for e in events if e.get("fig") == fig["id"]]
    path = [(2, -2), (2, -1), (1, -4)]
    assert villains.corruption(s, fig, SYSTEM.bf(s), path) == 0
    # archvillain: the lair's own land spares the villains (its rule), the new land not
    s = arch()
    fig = vfig(s, "b")
    fig["cell"] = "1,-4"  # the scenario's corrupted land
    SYSTEM._turn_start(s, 0, [])
    assert fig["damage"] == 0 and fig["cell"] == "1,-4"
    me = hero(s, 1)
    me["cell"] = "-1,-3"  # the same land harms a hero's champion
    SYSTEM._turn_start(s, 0, [])
    assert me["damage"] == terrain.CORRUPTION_DAMAGE
    s["terrain"]["2,-1"] = "corrupted"  # placed later, by a scheme
    fig["cell"] = "2,-1"
    events: list = []
    SYSTEM._turn_start(s, 0, events)
    assert {"type": "damage", "fig": fig["id"], "amount": terrain.CORRUPTION_DAMAGE} in events


@pytest.mark.rule("T-86", "T-64")
def test_villains_score_their_shrines_at_the_end_of_their_turn():
    s = solo()
    vfig(s, "c")["cell"] = "4,-1"  # next to the shrine at 4,-2
    only_schemes(s, ["Shield Wall", "Ruthlessness", "Raid"])  # no command at threat 0
    s, events = end_turn(s)
    assert [e["amount"] for e in events if e["type"] == "villain_glory"] == [s["shrine_glory"]]
    assert s["active"] == 0 and s["round"] == 2 and not s["finished"]


# -- archvillain [T-99..T-101] -------------------------------------------------------------


@pytest.mark.rule("T-99", "T-100", "C-68")
def test_archvillain_holds_three_plays_two_refills_and_gets_no_instant_glory():
    s = arch()
    v = s["villain"]
    assert len(v["hand"]) == 3 and len(v["deck"]) == SCHEMES - 3
    assert isinstance(SYSTEM.view(s, 0)["villains"]["hand"], int)  # hidden from the hero
    assert len(SYSTEM.view(s, 1)["villains"]["hand"]) == 3
    # a villain next to its target shrine, and only commanding schemes in hand
    vfig(s, "a")["cell"] = "-3,2"
    raid = scheme_iid(s, "Raid")
    v["deck"] = [i for i in v["deck"] + v["hand"] if i != raid]
    v["hand"] = [raid, v["deck"].pop(), v["deck"].pop()]
    s, _ = end_turn(s)
    assert SYSTEM.to_act(s) == (1,)
    with pytest.raises(IllegalAction):
        SYSTEM.apply(s, 1, {"type": "end_turn"})  # two schemes first
    s, events = SYSTEM.apply(s, 1, {"type": "scheme", "iid": raid})
    assert s["cmd"] is not None and s["players"][1]["glory"] == 0  # T-100: no instant glory
    assert {"type": "done"} in SYSTEM.legal_actions(s, 1)
    s, _ = SYSTEM.apply(s, 1, {"type": "done"})
    while s["pending"] is not None or s["cmd"] is not None:
        s, _ = SYSTEM.apply(s, 1, SYSTEM.legal_actions(s, 1)[-1])
    s, _ = SYSTEM.apply(s, 1, SYSTEM.legal_actions(s, 1)[0])
    while s["pending"] is not None or s["cmd"] is not None:
        s, _ = SYSTEM.apply(s, 1, SYSTEM.legal_actions(s, 1)[-1])
    assert len(s["villain"]["hand"]) == 1
    assert SYSTEM.legal_actions(s, 1) == [{"type": "end_turn"}]
    s, events = SYSTEM.apply(s, 1, {"type": "end_turn"})
    assert len(s["villain"]["hand"]) == 3 and s["active"] == 0
    assert all(set(e) == {"type", "count"} for e in events if e["type"] == "scheme_draw")


@pytest.mark.rule("T-99", "D-18")
def test_archvillain_drawing_from_an_empty_scheme_deck_wins():
    s = arch()
    s["villain"]["deck"] = []
    s, _ = end_turn(s)
    for _ in range(2):
        s, _ = SYSTEM.apply(s, 1, SYSTEM.legal_actions(s, 1)[0])
        while s["pending"] is not None or s["cmd"] is not None:
            s, _ = SYSTEM.apply(s, 1, SYSTEM.legal_actions(s, 1)[-1])
    s, _ = SYSTEM.apply(s, 1, {"type": "end_turn"})
    assert s["finished"] and SYSTEM.result(s).winners == (1,)


@pytest.mark.rule("T-95")
def test_leaving():
    s = solo()
    with pytest.raises(IllegalAction):
        SYSTEM.leave(s, 1, "concede")  # the villains are no seat in solo
    s2, _ = SYSTEM.leave(s, 0, "concede")
    assert s2["finished"] and SYSTEM.result(s2).winners == () and s2["villain"]["won"]
    s = arch()
    s2, _ = SYSTEM.leave(s, 1, "concede")
    assert SYSTEM.result(s2).winners == (0,)
    s = coop()  # a co-op hero leaving: the other plays on, then the villains win
    s, _ = SYSTEM.leave(s, 1, "concede")
    assert not s["finished"] and SYSTEM.to_act(s) == (0,)
    assert all(f["cell"] is None for f in s["figs"] if f["owner"] == 1)
    s, events = SYSTEM.apply(s, 0, {"type": "end_turn"})
    assert any(e["type"] == "scheme" for e in events) and SYSTEM.to_act(s) == (0,)
    s, _ = SYSTEM.leave(s, 0, "concede")
    assert s["finished"] and SYSTEM.result(s).winners == () and s["villain"]["won"]


# -- co-op [T-96..T-98] ----------------------------------------------------------------------


def coop(seed: int = 1, **config):
    return SYSTEM.new_game({"mode": "coop", "draft": False, **config}, [None, None], seed)


@pytest.mark.rule("T-81", "T-82", "T-96", "D-13")
def test_the_heroes_draft_and_the_villain_team_is_then_random():
    s = solo(draft=True)
    assert s["phase"] == "draft" and SYSTEM.to_act(s) == (0,)
    for _ in range(4):  # T-81: the one hero picks all four in a row
        assert SYSTEM.to_act(s) == (0,)
        s, _ = SYSTEM.apply(s, 0, SYSTEM.legal_actions(s, 0)[0])
    assert s["phase"] == "play" and len([f for f in s["figs"] if f["owner"] == 0]) == 4
    teams = set()
    for seed in range(6):  # T-82: one boss and three villains of glory <= 3, at random
        v = solo(seed, draft=True)["villain"]
        team = [DB[solo(seed, draft=True)["figs"][i]["card"]] for i in v["tokens"].values()]
        assert sum(c.is_boss for c in team) == 1 and all((c.glory or 0) <= 3 or c.is_boss
                                                         for c in team)  # fmt: skip
        teams.add(tuple(sorted(c.id for c in team)))
    assert len(teams) > 1
    s = SYSTEM.new_game({"mode": "coop"}, [None, None], 1)  # co-op drafts by default (T-96)
    picks = []
    while s["phase"] == "draft":
        seat = SYSTEM.to_act(s)[0]
        picks.append(seat)
        s, _ = SYSTEM.apply(s, seat, SYSTEM.legal_actions(s, seat)[0])
    assert picks == [1, 0, 1, 0, 1, 0]  # D-13: seat 2 first, alternately, 3 each
    with pytest.raises(InvalidConfig):
        SYSTEM.new_game({"mode": "solo", "draft": True, "reserves": [["TC1-010"]]}, [None], 1)
    with pytest.raises(InvalidConfig):
        SYSTEM.new_game({"mode": "solo", "draft": "yes"}, [None], 1)


@pytest.mark.rule("T-96", "T-98")
def test_coop_setup_two_heroes_one_side_three_champions_each_a_joint_turn():
    s = coop()
    assert villains.heroes(s) == [0, 1] and s["villain"]["seat"] == 2
    gate_one = DB.gates()[0].id
    assert [s["players"][k]["gate"] for k in (0, 1)] == [gate_one, gate_one]  # Team-1 gates
    for seat in (0, 1):
        assert len([f for f in s["figs"] if f["owner"] == seat]) == 3
    assert set(SYSTEM.to_act(s)) == {0, 1}  # D-14: a joint turn
    s, _ = SYSTEM.apply(s, 0, {"type": "end_turn"})
    assert SYSTEM.to_act(s) == (1,) and s["villain"]["revealed"] == []  # villains wait
    s, events = SYSTEM.apply(s, 1, {"type": "end_turn"})
    assert [e for e in events if e["type"] == "scheme"]  # then the villains act
    assert set(SYSTEM.to_act(s)) == {0, 1} and s["round"] == 2


@pytest.mark.rule("T-97", "C-69")
def test_coop_each_hero_enters_only_through_their_own_portal():
    s = coop()
    portals = {seat: [c for c, o in s["owner"].items() if o == seat] for seat in (0, 1)}
    assert portals[0] and portals[1] and portals[0] != portals[1]
    for seat in (0, 1):
        s["players"][seat]["power"] = 9
        cells = {a["cell"] for a in SYSTEM.legal_actions(s, seat) if a["type"] == "command"}
        assert cells == set(portals[seat])
    with pytest.raises(IllegalAction):
        fig = next(f for f in s["figs"] if f["owner"] == 0)
        SYSTEM.apply(s, 0, {"type": "command", "fig": fig["id"], "cell": portals[1][0]})


@pytest.mark.rule("T-60", "T-97")
def test_coop_a_portal_one_hero_activates_admits_both():
    s = coop()
    fig = next(f for f in s["figs"] if f["owner"] == 0)
    other = next(f for f in s["figs"] if f["owner"] == 1)
    fig["cell"] = "-4,4"
    s["players"][0]["power"] = s["players"][1]["power"] = 9

    def entries(state, seat):
        acts = SYSTEM.legal_actions(state, seat)
        return {a["cell"] for a in acts if a["type"] == "command" and "cell" in a}

    assert "-5,5" not in entries(s, 0) | entries(s, 1)  # disabled: nobody enters (T-60)
    s, _ = SYSTEM.apply(s, 0, {"type": "command", "fig": fig["id"]})
    s, _ = SYSTEM.apply(s, 0, {"type": "move", "cell": "-5,5"})
    s, _ = SYSTEM.apply(s, 0, {"type": "done"})
    assert s["terrain"]["-5,5"] == "portal" and s["owner"]["-5,5"] == 0
    assert "-5,5" not in entries(s, 1)  # taken by the hero standing on it
    s["figs"][fig["id"]]["cell"] = "-3,5"
    assert "-5,5" in entries(s, 1)  # T-97: both may use it
    s, _ = SYSTEM.apply(s, 1, {"type": "command", "fig": other["id"], "cell": "-5,5"})
    assert s["figs"][other["id"]]["cell"] == "-5,5"


@pytest.mark.rule("T-79", "T-90", "T-98")
def test_coop_glory_is_shared_and_the_heroes_win_together():
    s = coop()
    bowman = next(f for f in s["figs"] if f["card"] == cid("Rotten Bowman"))
    me = next(f for f in s["figs"] if f["owner"] == 1)
    me["cell"], bowman["cell"] = "0,2", "0,1"
    bowman["damage"] = 2
    s["players"][1]["power"] = 9
    s, _ = SYSTEM.apply(s, 1, {"type": "command", "fig": me["id"]})
    s, _ = SYSTEM.apply(s, 1, {"type": "attack", "cell": "0,1"})
    assert s["players"][0]["glory"] == s["players"][1]["glory"] == 2
    s["players"][0]["glory"] = s["players"][1]["glory"] = s["victory"]["glory"] - 1
    villains.hero_glory(SYSTEM, s, 1, [])
    assert s["finished"] and sorted(s["winners"]) == [0, 1]


# -- whole games ------------------------------------------------------------------------------


def _hidden_schemes(s, viewer) -> set[int]:
    v = s["villain"]
    out = set(v["deck"])
    if not (v["player"] and viewer == v["seat"]):
        out |= set(v["hand"])
    return out


def _iids(data) -> set[int]:
    out = set()
    if isinstance(data, dict):
        if isinstance(data.get("iid"), int):
            out.add(data["iid"])
        for x in data.values():
            out |= _iids(x)
    elif isinstance(data, list):
        for x in data:
            out |= _iids(x)
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**16), steps=st.integers(1, 300),
       mode=st.sampled_from(["solo", "coop", "archvillain"]))  # fmt: skip
def test_random_play_replays_and_hides_the_schemes(seed, bot_seed, steps, mode):
    config = {"mode": mode}
    decks = [None] * villains.SEATS[mode]
    s = SYSTEM.new_game(config, decks, seed)
    rng, log = seed_state(bot_seed), []
    for _ in range(steps):
        if s["finished"]:
            break
        seat = SYSTEM.to_act(s)[0]
        action = choice(rng, SYSTEM.legal_actions(s, seat))
        before = json.dumps(s, sort_keys=True)
        s2, events = SYSTEM.apply(s, seat, action)
        assert json.dumps(s, sort_keys=True) == before  # apply never mutates its input
        secret = _hidden_schemes(s2, 0)
        assert not any(_iids(e) & secret for e in events if e["type"] != "scheme")
        s = s2
        log.append((seat, action))
        assert not (_iids(SYSTEM.view(s, 0)) & _hidden_schemes(s, 0))
    assert replay(SYSTEM, config, decks, seed, log) == s


@pytest.mark.parametrize("mode", ["solo", "coop", "archvillain"])
def test_bots_play_the_villain_modes_to_the_end(mode):
    seats = villains.SEATS[mode]
    for seed in range(3):
        s = SYSTEM.new_game({"mode": mode}, [None] * seats, seed)
        bots = [make_bot("heuristic", SYSTEM, seed + k) for k in range(seats)]
        for _ in range(20_000):
            if s["finished"]:
                break
            seat = SYSTEM.to_act(s)[0]
            s, _ = SYSTEM.apply(s, seat, bots[seat].choose(s, seat))
        assert s["finished"]


@pytest.mark.parametrize(
    ("fmt", "bots"),
    [("solo", "heuristic"), ("coop", "heuristic,random"), ("archvillain", "random,heuristic")],
)
def test_the_simulator_plays_the_villain_modes(fmt, bots, capsys):
    from engine import simulate

    args = ["tactics", "--format", fmt, "--bots", bots, "--games", "2", "--quiet"]
    assert simulate.main(args) == 0
    out = capsys.readouterr().out
    assert f", {fmt}): 2 games" in out and "errors: 0" in out
    with pytest.raises(SystemExit):
        simulate.main(["tactics", "--format", fmt, "--players", "3", "--games", "1"])


@pytest.mark.rule("T-23", "T-99")
def test_bad_actions_in_the_villain_modes_are_refused_and_change_nothing():
    s = arch()
    before = json.dumps(s, sort_keys=True)
    for seat, action in [
        (1, {"type": "end_turn"}),  # the hero's turn
        (0, {"type": "scheme", "iid": s["villain"]["hand"][0]}),  # not the hero's to play
        (0, {"type": "choose", "i": 0}),  # nothing to choose
    ]:
        with pytest.raises(IllegalAction):
            SYSTEM.apply(s, seat, action)
    assert json.dumps(s, sort_keys=True) == before
    s, _ = end_turn(s)
    before = json.dumps(s, sort_keys=True)
    hidden = s["villain"]["deck"][0]
    for seat, action in [
        (1, {"type": "scheme", "iid": hidden}),  # a scheme of the deck, not the hand
        (1, {"type": "scheme", "iid": "x"}),
        (1, {"type": "move", "cell": "0,0"}),  # no villain is commanded
        (1, {"type": "gate"}),  # villains have no gate (T-84)
        (1, {"type": "end_turn"}),  # two schemes first (T-99)
        (0, {"type": "end_turn"}),  # the villains' turn
    ]:
        with pytest.raises(IllegalAction):
            SYSTEM.apply(s, seat, action)
    assert json.dumps(s, sort_keys=True) == before
    s = solo()
    with pytest.raises(IllegalAction):
        SYSTEM.apply(s, 1, {"type": "end_turn"})  # the villains are no seat in solo
