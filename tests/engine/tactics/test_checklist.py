"""The conformance checklist of the Tactics digest (§20) items no other test file cites,
and the rules gaps closed with decision 0055.

Checklist (digest §20) items covered: C-32, C-33, C-36, C-43, C-55, C-70, C-71. Plus: the
draw at the round limit of a free-for-all ranks its players by glory (T-80, placements),
the scheme deck of «Логово Пепельной королевы» outlasts the discard of every difficulty
(T-101, decision 0055), and the two figures of one champion card (T-106, «Близнецы
Сумрака» of TC1) are commanded one after the other for one cost and keep their
constructs while one of them stands (decision 0055).
"""

from __future__ import annotations

import copy

import pytest

from engine.core.errors import IllegalAction, NotYourTurn
from engine.tactics import villains
from engine.tactics.game import SYSTEM
from tournaments.results import game_placements

DB = SYSTEM.db
WARD = "Ward-Engine M-7"


def cid(name: str) -> str:
    return DB.find(name).id


def new(seed: int = 1, **config):
    return SYSTEM.new_game({"first": 0, "draft": False, **config}, [None, None], seed)


def act(s, seat, action):
    return SYSTEM.apply(s, seat, action)


def figs_of(s, seat: int) -> list[dict]:
    return [f for f in s["figs"] if f["owner"] == seat and not f["gone"]]


def add_card(s, seat: int, card: str, zone: str = "hand") -> int:
    s["cards"].append(card)
    iid = len(s["cards"]) - 1
    s["players"][seat][zone].append(iid)
    return iid


def equip(s, fig: dict, card: str) -> int:
    s["cards"].append(card)
    iid = len(s["cards"]) - 1
    fig["equip"].append(iid)
    return iid


# -- cultists and bases ------------------------------------------------------------------


@pytest.mark.rule("T-51", "C-32")
def test_a_cultist_is_commanded_once_a_turn_but_another_one_may_be():
    s = new()
    s["players"][0]["power"] = 20
    s, _ = act(s, 0, {"type": "cultist", "cell": "0,5"})
    first = s["cmd"]["fig"]
    s, _ = act(s, 0, {"type": "move", "cell": "0,4"})
    s, _ = act(s, 0, {"type": "done"})
    assert s["figs"][first]["exhausted"]
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "command", "fig": first})  # C-32: not twice in a turn
    assert {"type": "command", "fig": first} not in SYSTEM.legal_actions(s, 0)
    s, _ = act(s, 0, {"type": "cultist", "cell": "0,5"})  # a different cultist: allowed
    second = s["cmd"]["fig"]
    assert second != first and s["figs"][second]["cell"] == "0,5"


@pytest.mark.rule("T-8", "D-8", "C-33")
def test_with_all_eight_bases_in_use_no_entry_is_allowed():
    ward = cid(WARD)
    s = new(reserves=[[ward] * 9, [ward] * 4])
    mine = figs_of(s, 0)
    assert len(mine) == 9
    cells = ["0,4", "1,4", "-1,4", "1,3", "-1,3", "0,3", "2,3", "-2,3"]
    for f, cell in zip(mine, cells, strict=False):
        f["cell"] = cell  # eight figures on the battlefield: every base in use
    last = mine[8]
    s["players"][0]["power"] = 20
    legal = SYSTEM.legal_actions(s, 0)
    assert not [a for a in legal if a["type"] == "cultist"]
    assert not [a for a in legal if a["type"] == "command" and a["fig"] == last["id"]]
    for action in (
        {"type": "command", "fig": last["id"], "cell": "0,5"},
        {"type": "cultist", "cell": "0,5"},
    ):
        with pytest.raises(IllegalAction):
            act(s, 0, action)
    # one figure leaves the battlefield: its base is free again
    mine[0]["cell"] = None
    s, _ = act(s, 0, {"type": "command", "fig": last["id"], "cell": "0,5"})
    assert s["figs"][last["id"]]["cell"] == "0,5"


# -- the central deck ----------------------------------------------------------------------


@pytest.mark.rule("T-73", "C-36")
def test_an_empty_central_deck_is_refilled_from_the_banished_pile():
    s = new()
    banished = [add_card(s, 0, c.id, "hand") for c in DB.central()[:3]]
    for iid in banished:
        s["players"][0]["hand"].remove(iid)
    s["banished"] = list(banished)
    s["center"] = []
    slot, iid = next(
        (k, i) for k, i in enumerate(s["row"]) if (DB[s["cards"][i]].cost or 0) <= 8
        and DB[s["cards"][i]].type != "monster"
    )  # fmt: skip
    s["players"][0]["runes"] = 10
    s, _ = act(s, 0, {"type": "acquire", "iid": iid})
    assert s["banished"] == []
    assert s["row"][slot] in banished  # the banished pile became the deck, and refilled
    assert sorted([s["row"][slot], *s["center"]]) == sorted(banished)


# -- counter-strike ----------------------------------------------------------------------


@pytest.mark.rule("T-55", "T-57", "C-43")
def test_a_counter_strike_kill_triggers_no_counter_strike_and_no_slaughter():
    rukh, tenn = cid("Rukh, Bone Sentinel"), cid("Tenn, Keeper of the Flame")
    s = new(reserves=[[rukh] * 4, [tenn] * 4])
    attacker, defender = figs_of(s, 0)[0], figs_of(s, 1)[0]
    attacker["cell"], defender["cell"] = "0,1", "0,0"
    equip(s, defender, cid("Abyss Blade"))  # +2 STR and Slaughter: +1 glory
    assert SYSTEM.stat(s, defender, "strength") == 4
    attacker["damage"] = 1  # DEF 5: the counter-strike of 4 defeats it
    s["players"][0]["power"] = 20
    s, _ = act(s, 0, {"type": "command", "fig": attacker["id"]})
    glory = s["players"][1]["glory"]
    s, events = act(s, 0, {"type": "attack", "cell": "0,0"})
    assert s["figs"][attacker["id"]]["cell"] is None  # defeated by the counter-strike
    # the attack's 2 only: the counter-strike's damage sets off no counter-strike back
    assert s["figs"][defender["id"]]["damage"] == 2
    assert s["players"][1]["glory"] == glory  # and no Slaughter for the defender
    assert not [e for e in events if e["type"] == "slaughter"]


# -- treasure on the opponent's turn ------------------------------------------------------


def _kind(**boost) -> int:
    return next(k for k, t in enumerate(SYSTEM.treasures) if dict(t.boosts) == boost)


@pytest.mark.rule("T-67", "D-15", "D-6", "C-55")
def test_a_treasure_used_on_the_opponents_turn_lasts_until_that_turn_ends():
    ward = cid(WARD)
    s = new(reserves=[[ward] * 4, [ward] * 4])
    mine = figs_of(s, 1)[0]
    mine["cell"] = "0,0"
    shield = _kind(defence=2)
    s["players"][1]["treasure"] = [shield]
    assert SYSTEM.to_act(s) == (0,) and SYSTEM.legal_actions(s, 1) == []
    use = {"type": "treasure", "i": 0, "fig": mine["id"]}
    assert use in SYSTEM.interrupts(s, 1)
    assert SYSTEM.interrupts(s, 0) == []  # the seat to act has it among its legal actions
    before = copy.deepcopy(s)
    # on seat 0's turn, seat 1 may do nothing else
    with pytest.raises(NotYourTurn):
        act(s, 1, {"type": "end_turn"})
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "treasure", "i": 1, "fig": mine["id"]})  # no such token
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "treasure", "i": 0, "fig": figs_of(s, 0)[0]["id"]})  # not theirs
    assert s == before
    base = SYSTEM.stat(s, mine, "defence")
    old = s
    s, events = act(s, 1, use)
    assert old == before  # apply never changes its input
    assert SYSTEM.stat(s, s["figs"][mine["id"]], "defence") == base + 2
    assert s["players"][1]["treasure"] == [] and s["treasure_discard"] == [shield]
    assert SYSTEM.to_act(s) == (0,)  # still seat 0's turn
    assert [e["type"] for e in events] == ["treasure_used"]
    s, _ = act(s, 0, {"type": "end_turn"})
    assert SYSTEM.stat(s, s["figs"][mine["id"]], "defence") == base  # that turn is over


@pytest.mark.rule("T-67", "C-55")
def test_treasure_out_of_turn_is_refused_during_the_draft_and_after_the_game():
    s = SYSTEM.new_game({"first": 0}, [None, None], 3)
    assert s["phase"] == "draft"
    s["players"][1]["treasure"] = [0]
    assert SYSTEM.interrupts(s, 1) == [] and SYSTEM.interrupts(s, 0) == []
    done = new()
    done["finished"] = True
    done["players"][1]["treasure"] = [0]
    assert SYSTEM.interrupts(done, 1) == []


# -- command costs ------------------------------------------------------------------------


@pytest.mark.rule("T-103", "C-70")
def test_a_command_cost_never_goes_below_zero():
    brass = cid("Brass the Engineer")  # command 2
    s = new(reserves=[[brass] * 4, [brass] * 4])
    fig = figs_of(s, 0)[0]
    fig["cell"] = "0,4"
    iid = add_card(s, 0, cid("Call of the Pack"))  # +2 power, command one, 2 less
    s, _ = act(s, 0, {"type": "play", "iid": iid})
    assert s["pending"]["kind"] == "command"
    s["pending"]["effect"] = {**s["pending"]["effect"], "discount": 3}  # 2 reduced by 3
    power = s["players"][0]["power"]
    i = next(k for k, o in enumerate(s["pending"]["options"]) if o["fig"] == fig["id"])
    s, _ = act(s, 0, {"type": "choose", "i": i})
    assert s["players"][0]["power"] == power  # cost 0, not -1: no power is gained


# -- a champion of two figures (T-106) ---------------------------------------------------

TWINS = "The Dusk Twins"


def twins_game():
    twins = cid(TWINS)
    assert SYSTEM.info[twins].figures == 2
    s = new(reserves=[[twins, cid(WARD)], [cid(WARD)] * 2])
    a, b = (f for f in figs_of(s, 0) if f["card"] == twins)
    assert a["iid"] == b["iid"]  # one card, two figures
    return s, a["id"], b["id"]


@pytest.mark.rule("T-106", "T-20", "T-67", "C-71")
def test_a_construct_boosts_both_figures_a_treasure_only_the_chosen_one():
    s, a, b = twins_game()
    base = SYSTEM.stat(s, s["figs"][a], "strength")
    assert SYSTEM.stat(s, s["figs"][b], "strength") == base
    claws = add_card(s, 0, cid("Beast Claws"))  # +2 strength
    plays = [x for x in SYSTEM.legal_actions(s, 0) if x.get("iid") == claws and x["fig"] in (a, b)]
    assert len(plays) == 1  # the card is equipped once, not once per figure
    s, _ = act(s, 0, {"type": "play", "iid": claws, "fig": a})
    s["players"][0]["power"] = 10
    s, _ = act(s, 0, {"type": "command", "fig": a, "cell": "0,5"})
    s, _ = act(s, 0, {"type": "move", "cell": "0,4"})  # off the portal
    s, _ = act(s, 0, {"type": "done"})
    s, _ = act(s, 0, {"type": "choose", "i": 0})  # the other figure enters
    for f in (a, b):
        assert SYSTEM.stat(s, s["figs"][f], "strength") == base + 2  # C-71: both have +2
    strength_token = next(
        k for k, t in enumerate(SYSTEM.treasures) if dict(t.boosts).get("strength") == 2
    )
    s["players"][0]["treasure"] = [strength_token]
    s, _ = act(s, 0, {"type": "treasure", "i": 0, "fig": b})
    assert SYSTEM.stat(s, s["figs"][b], "strength") == base + 4  # the chosen figure
    assert SYSTEM.stat(s, s["figs"][a], "strength") == base + 2  # not the other one


@pytest.mark.rule("T-106", "T-34", "T-38")
def test_the_two_figures_are_commanded_one_after_the_other_for_one_cost():
    s, a, b = twins_game()
    s["players"][0]["power"] = 10
    cost = SYSTEM.info[cid(TWINS)].command
    s, _ = act(s, 0, {"type": "command", "fig": a, "cell": "0,5"})
    assert s["players"][0]["power"] == 10 - cost
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "command", "fig": b, "cell": "0,5"})  # not in the middle (T-37)
    s, _ = act(s, 0, {"type": "move", "cell": "0,4"})  # off the portal: it is free again
    s, _ = act(s, 0, {"type": "done"})
    assert s["pending"]["kind"] == "command"
    assert s["pending"]["options"] == [{"fig": b}]
    s, _ = act(s, 0, {"type": "choose", "i": 0})
    assert s["cmd"]["fig"] == b and s["figs"][b]["cell"] == "0,5"  # by a free portal
    assert s["players"][0]["power"] == 10 - cost  # one command cost for both figures
    s, _ = act(s, 0, {"type": "done"})
    assert s["pending"] is None and s["cmd"] is None  # no third command
    assert s["figs"][a]["exhausted"] and s["figs"][b]["exhausted"]


@pytest.mark.rule("T-106", "T-47", "T-74")
def test_the_constructs_stay_while_one_figure_stands():
    """Decision 0055: the card's constructs go to the discard only when no figure of it is
    left on the battlefield."""
    s, a, b = twins_game()
    claws = add_card(s, 0, cid("Beast Claws"))
    s, _ = act(s, 0, {"type": "play", "iid": claws, "fig": a})
    s["figs"][a]["cell"], s["figs"][b]["cell"] = "0,4", "1,4"
    events: list = []
    SYSTEM._defeat(s, s["figs"][a], events)
    assert claws in SYSTEM.equipped(s, s["figs"][b]) and claws not in s["players"][0]["discard"]
    SYSTEM._defeat(s, s["figs"][b], events)
    assert claws in s["players"][0]["discard"]  # T-74: the last figure fell


# -- free-for-all at the round limit ---------------------------------------------------------


@pytest.mark.rule("T-80", "T-25")
def test_a_free_for_all_at_the_round_limit_places_its_players_by_glory():
    """Decision 0055: at the round limit a free-for-all ends as it would by glory: the
    leader wins, the others are placed by their glory; level leaders share the win; all
    level: a draw. A duel at the limit stays a draw (the match plays it again)."""

    def capped(*glory: int):
        s = SYSTEM.new_game({"first": 0, "draft": False, "max_rounds": 1}, [None] * 3, 4)
        assert s["mode"] == "ffa"
        for seat, g in enumerate(glory):
            s["players"][seat]["glory"] = g
        for seat in (0, 1, 2):
            s, events = act(s, seat, {"type": "end_turn"})
        assert s["finished"] and s["round"] == 2
        return s, events, SYSTEM.result(s)

    _, events, result = capped(5, 9, 2)
    assert not result.draw and result.winners == (1,)
    assert events[-1] == {"type": "game_over", "winners": [1], "draw": False}
    assert dict(result.scores) == {0: 5, 1: 9, 2: 2}
    places = game_placements(3, winners=result.winners, draw=result.draw, eliminated=[],
                             scores=result.scores)  # fmt: skip
    assert list(places) == [2, 1, 3]  # the most glory first (T-80: the others by glory)
    _, _, result = capped(9, 9, 2)  # level leaders share the win and the first place
    assert not result.draw and result.winners == (0, 1)
    places = game_placements(3, winners=result.winners, draw=False, eliminated=[],
                             scores=result.scores)  # fmt: skip
    assert list(places) == [1, 1, 3]
    _, _, result = capped(4, 4, 4)  # all level: a draw
    assert result.draw and result.winners == ()
    duel = new(max_rounds=1)
    duel["players"][0]["glory"] = 7
    for seat in (0, 1):
        duel, _ = act(duel, seat, {"type": "end_turn"})
    assert duel["finished"] and SYSTEM.result(duel).draw and duel["winners"] == []


# -- the scheme deck (decision 0055) -----------------------------------------------------------


@pytest.mark.rule("T-101", "T-87")
def test_the_scheme_deck_outlasts_every_difficulty_discard():
    scen = DB.scenario(villains.DEFAULT_SCENARIO)
    for mode in ("solo", "coop", "archvillain"):
        deck = scen.modes[mode].schemes
        assert len(deck) == 26 and len(set(deck)) == 26
        left = len(deck) - villains.DIFFICULTY["nightmare"]
        # Nightmare still leaves 9 villain turns (T-86: 2 schemes each)
        assert left // villains.SCHEMES_PER_TURN == 9
    # the later schemes wake at a higher threat: Nightmare sets more of them off at once
    high = [c for c in DB.schemes() if (c.threat or 0) >= 9]
    assert len(high) >= 5
