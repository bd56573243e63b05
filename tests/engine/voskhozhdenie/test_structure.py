"""Checklist 3.6 (game structure): CK-091..CK-115."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction, NotYourTurn
from engine.voskhozhdenie.cards import Cost
from tests.engine.voskhozhdenie.helpers import (
    act,
    card,
    deck,
    game,
    new_system,
    place,
    start,
    to_actions,
)


def _copy(s):
    return json.loads(json.dumps(s))


@pytest.mark.rule("5.1", "CK-091")
def test_stages_run_in_order_ck091(system):
    state = start(system)
    stages = [state["stage"]]
    assert state["pending"]["kind"] == "first_player"  # Initiative done, Setup before it
    assert all(len(p["hand"]) == 0 for p in state["players"])
    state = act(system, state, {"type": "first_player", "seat": 0})
    stages.append(state["stage"])
    state = act(system, state, {"type": "keep"})
    state = act(system, state, {"type": "keep"})
    stages.append(state["stage"])
    assert stages == ["initiative", "mulligan", "rounds"]
    assert state["round"] == 1


@pytest.mark.rule("5.2.1", "CK-092")
def test_each_main_deck_shuffled_separately_face_down_ck092(system):
    decks = [deck(main=[f"SQ-{k}" for k in (1, 2, 3)] * 5) for _ in range(2)]
    state = system.new_game({}, decks, 3)
    orders = [[state["cards"][i]["card"] for i in p["main"]] for p in state["players"]]
    assert orders[0] != orders[1] or orders[0] != decks[0]["main"]
    assert all(system.view(state, 0)["players"][k]["main_count"] == 15 for k in (0, 1))


@pytest.mark.rule("5.3", "CK-093")
def test_initiative_winner_chooses_first_player_ck093(system):
    state = start(system, seed=11)
    chooser = state["pending"]["player"]
    other = 1 - chooser
    state = act(system, state, {"type": "first_player", "seat": other}, chooser)
    assert state["turn_order"][0] == other


@pytest.mark.rule("5.3.2", "CK-094")
def test_four_players_turn_order_goes_left_ck094(system):
    state = start(system, n=4)
    state = act(system, state, {"type": "first_player", "seat": 2})
    assert state["turn_order"] == [2, 3, 0, 1]


@pytest.mark.rule("5.3.1", "CK-095")
def test_teams_alternate_with_their_own_order_ck095(system):
    state = start(system, n=4, config={"teams": [[2, 0], [1, 3]]})
    state = act(system, state, {"type": "first_player", "seat": 1})
    assert state["turn_order"] == [1, 2, 3, 0]


@pytest.mark.rule("5.4", "CK-096")
def test_mulligan_stage_draws_five_from_the_top_ck096(system):
    state = start(system)
    tops = [p["main"][:5] for p in state["players"]]
    state = act(system, state, {"type": "first_player", "seat": 0})
    assert [p["hand"] for p in state["players"]] == tops


@pytest.mark.rule("5.4", "CK-097")
def test_sixth_mulligan_is_rejected_ck097(system):
    state = act(system, start(system), {"type": "first_player", "seat": 0})
    seat = state["pending"]["player"]
    for _ in range(5):
        bottom_card = state["players"][seat]["hand"][0]
        state = act(system, state, {"type": "mulligan", "iid": bottom_card}, seat)
        assert state["players"][seat]["main"][-1] == bottom_card  # AMB-01: to the bottom
        assert len(state["players"][seat]["hand"]) == 5
    with pytest.raises(IllegalAction) as err:
        system.apply(state, seat, {"type": "mulligan", "iid": state["players"][seat]["hand"][0]})
    assert err.value.rule == "5.4"
    assert system.legal_actions(state, seat) == [{"type": "keep"}]


@pytest.mark.rule("5.5", "CK-098")
def test_supply_value_is_the_sum_of_city_supply_symbols_ck098():
    system = new_system(
        card("C2", "city", strength=5, supply=2),
        card("C1", "city", strength=5, supply=1),
        card("C0", "city", strength=5, supply=0),
        card("C1B", "city", strength=5, supply=1),
        card(
            "C-START",
            "city",
            strength=5,
            supply=0,
            abilities=(
                {
                    "kind": "triggered",
                    "trigger": {"event": "game_start"},
                    "effects": [{"op": "change_supply", "amount": 5}],
                },
            ),
        ),
    )
    decks = [deck(cities=("C2", "C1", "C0", "C1B")), deck(cities=("C-START", "C1"))]
    state = to_actions(system, start(system, decks=decks))
    assert state["players"][0]["supply"] == 4
    # set after start-of-game effects: the +5 of C-START is overwritten by 5.5
    assert state["players"][1]["supply"] == 1


@pytest.mark.rule("5.6", "CK-099")
def test_round_phases_in_order_ck099(system):
    state = to_actions(system, start(system))
    state = act(system, state, {"type": "pass"})
    state, events = system.apply(state, state["active"], {"type": "pass"})
    steps = [e["step"] for e in events if e["type"] == "step"]
    assert steps == ["tactics", "round_end", "draw", "coin", "round_start", "decree", "turn_start"]
    assert state["round"] == 2 and state["step"] == "action"


@pytest.mark.rule("5.6.1.1", "CK-100")
def test_draw_step_draws_exactly_one_below_supply_ck100(system):
    s = to_actions(system, start(system))
    s = _copy(s)
    g = game(system, s)
    for p in s["players"]:
        p["supply"] = 5
        for iid in p["hand"][3:]:
            g.move(iid, "graveyard")
    g.goto("draw")
    g.advance()
    assert [len(p["hand"]) for p in s["players"]] == [4, 4]


@pytest.mark.rule("5.6.1.1", "CK-101")
def test_draw_step_discards_down_one_at_a_time_ck101(system):
    s = _copy(to_actions(system, start(system)))
    g = game(system, s)
    for p in s["players"]:
        p["supply"] = 5
    while len(s["players"][0]["hand"]) < 7:
        place(system, s, "SQ-1", 0, "hand")
    assert len(s["players"][0]["hand"]) == 7
    g.goto("draw")
    s["turn_order"] = [0, 1]
    g.advance()
    for _k in range(2):
        assert s["pending"]["kind"] == "discard_down" and s["pending"]["player"] == 0
        choice = s["pending"]["options"][-1]
        s = act(system, s, {"type": "discard", "iid": choice}, 0)
        assert s["cards"][choice]["zone"] == "graveyard"
    assert len(s["players"][0]["hand"]) == 5


@pytest.mark.rule("5.6.1.1", "5.4", "AMB-39")
def test_first_round_draw_step_applies_to_the_opening_hand(system):
    """AMB-39: after the Mulligan every hand has 5 cards; with Supply 4 (CITY-A + CITY-B)
    the Draw step of round 1 makes each player discard one, in turn order."""
    s = start(system)
    while s["pending"]["kind"] in ("first_player", "mulligan"):
        seat = system.to_act(s)[0]
        kind = s["pending"]["kind"]
        action = {"type": "first_player", "seat": 0} if kind == "first_player" else {"type": "keep"}
        s = act(system, s, action, seat)
    assert s["round"] == 1 and s["step"] == "draw"
    for seat in s["turn_order"]:
        assert s["pending"]["kind"] == "discard_down" and s["pending"]["player"] == seat
        assert len(s["players"][seat]["hand"]) == 5
        s = act(system, s, {"type": "discard", "iid": s["pending"]["options"][0]}, seat)
        assert len(s["players"][seat]["hand"]) == 4


@pytest.mark.rule("5.6.1.1", "CK-102")
def test_draw_step_hand_equal_supply_nothing_ck102(system):
    s = _copy(to_actions(system, start(system)))
    g = game(system, s)
    for p in s["players"]:
        p["supply"] = 5
        while len(p["hand"]) < 5:
            place(system, s, "SQ-1", p["seat"], "hand")
    mains = [len(p["main"]) for p in s["players"]]
    g.goto("draw")
    g.advance()
    assert [len(p["hand"]) for p in s["players"]] == [5, 5]
    assert [len(p["main"]) for p in s["players"]] == mains


@pytest.mark.rule("5.6.1.2", "CK-103")
def test_coin_step_gains_supply_ck103(system):
    s = _copy(to_actions(system, start(system)))
    g = game(system, s)
    for p in s["players"]:
        p["supply"] = 4
        p["coins"] = 1
    g.goto("coin")
    g.advance()
    assert [p["coins"] for p in s["players"]] == [5, 5]  # AMB-17: coins persist


DECREE = card(
    "DECREE-2",
    "relic",
    cost=Cost(1),
    abilities=(
        {
            "kind": "decree",
            "condition": {"round_at_least": 1},
            "effects": [{"op": "gain_coins", "amount": 1}],
        },
        {
            "kind": "decree",
            "condition": {"round_at_least": 1},
            "effects": [{"op": "gain_coins", "amount": 10}],
        },
    ),
)


@pytest.mark.rule("5.6.2", "5.6.2.1", "CK-104")
def test_decrees_one_each_from_first_player_until_none_ck104():
    system = new_system(DECREE)
    s = _copy(to_actions(system, start(system), first=1))
    g = game(system, s)
    d0 = place(system, s, "DECREE-2", 0)
    d1 = place(system, s, "DECREE-2", 1)
    g.goto("decree")
    g.advance()
    seq = []
    while s["pending"] is not None and s["pending"]["kind"] == "decree":
        seat = s["pending"]["player"]
        action = next(a for a in system.legal_actions(s, seat) if a["type"] == "decree")
        seq.append((seat, action["iid"]))
        s = act(system, s, action, seat)
    assert seq == [(1, d1), (0, d0), (1, d1), (0, d0)]
    assert s["step"] == "action"


@pytest.mark.rule("5.6.3.2", "CK-105")
def test_one_action_ends_the_turn_ck105(system):
    s = to_actions(system, start(system))
    first = s["active"]
    s = act(system, s, {"type": "direct_attack", "target": 1 - first})
    assert s["active"] == 1 - first and s["step"] == "action"


@pytest.mark.rule("5.6.3", "CK-106")
def test_actions_phase_ends_when_all_passed_ck106(system):
    s = to_actions(system, start(system))
    s = act(system, s, {"type": "pass"})
    second = s["active"]
    s = act(system, s, {"type": "direct_attack", "target": 1 - second})
    assert s["active"] == second  # the passed player is skipped (AMB-26)
    s, events = system.apply(s, second, {"type": "pass"})
    steps = [e["step"] for e in events if e["type"] == "step"]
    assert steps[0] == "tactics" and s["round"] == 2


@pytest.mark.rule("5.6.3.2.2.1", "CK-107")
def test_confrontation_must_target_one_opponent_ck107(system):
    s = start(system, n=4, config={"teams": [[0, 2], [1, 3]]})
    s = _copy(to_actions(system, s))
    seat = s["active"]
    tac = place(system, s, "TAC-C", seat, "hand")
    s["players"][seat]["coins"] = 5
    ally = next(q for q in s["teams"][s["players"][seat]["team"]] if q != seat)
    for bad in (seat, ally, None):
        with pytest.raises(IllegalAction) as err:
            system.apply(s, seat, {"type": "declare", "iid": tac, "target": bad})
        assert err.value.rule == "5.6.3.2.2.1"
    enemy = game(system, s).opponents(seat)[0]
    s2, _ = system.apply(s, seat, {"type": "declare", "iid": tac, "target": enemy})
    assert s2["tactics"][0]["defender"] == enemy


@pytest.mark.rule("5.6.3.2.2.2", "CK-108")
def test_direct_attack_cap_ck108(system):
    s = to_actions(system, start(system, n=3))
    for _ in range(4):
        seat = s["active"]
        s = act(system, s, {"type": "direct_attack", "target": game(system, s).opponents(seat)[0]})
    assert sum(1 for t in s["tactics"] if t["iid"] is None) == 4
    seat = s["active"]
    with pytest.raises(IllegalAction) as err:
        system.apply(
            s, seat, {"type": "direct_attack", "target": game(system, s).opponents(seat)[0]}
        )
    assert err.value.rule == "5.6.3.2.2.2"


def _with_tactic(system, s, declarer, defender):
    s["tactics"].append(
        {
            "id": 77,
            "iid": None,
            "declarer": declarer,
            "defender": defender,
            "battle": False,
            "ready": True,
            "attack": [],
            "defence": [],
        }
    )


@pytest.mark.rule("5.6.3.2.3.1", "CK-109")
def test_summoned_this_round_needs_zeal_ck109(system):
    s = _copy(to_actions(system, start(system)))
    seat = s["active"]
    _with_tactic(system, s, 1 - seat, seat)
    plain = place(system, s, "SQ-2", seat, entered=s["round"])
    zeal = place(system, s, "SQ-Z", seat, entered=s["round"])
    with pytest.raises(IllegalAction) as err:
        system.apply(s, seat, {"type": "assign", "iid": plain, "tactic": 77, "side": "defence"})
    assert err.value.rule == "5.6.3.2.3.1"
    system.apply(s, seat, {"type": "assign", "iid": zeal, "tactic": 77, "side": "defence"})


@pytest.mark.rule("5.6.3.2.3.1", "CK-110")
def test_squad_from_earlier_round_can_be_assigned_ck110(system):
    s = _copy(to_actions(system, start(system)))
    seat = s["active"]
    _with_tactic(system, s, seat, 1 - seat)
    old = place(system, s, "SQ-2", seat, entered=0)
    s2, _ = system.apply(s, seat, {"type": "assign", "iid": old, "tactic": 77, "side": "attack"})
    assert s2["tactics"][0]["attack"] == [old]


@pytest.mark.rule("5.6.3.2.3.2", "CK-111")
def test_assign_to_either_side_of_an_opponents_tactic_ck111(system):
    s = _copy(to_actions(system, start(system)))
    seat = s["active"]
    _with_tactic(system, s, 1 - seat, seat)
    a = place(system, s, "SQ-2", seat)
    for side in ("attack", "defence"):
        s2, _ = system.apply(s, seat, {"type": "assign", "iid": a, "tactic": 77, "side": side})
        assert s2["tactics"][0][side] == [a]


@pytest.mark.rule("5.6.3.3", "CK-112")
def test_until_end_of_turn_expires_after_turn_end_triggers_ck112():
    system = new_system(
        card(
            "SQ-EOT",
            "squad",
            cost=Cost(1),
            strength=2,
            abilities=(
                {
                    "kind": "triggered",
                    "trigger": {"event": "turn_end"},
                    "effects": [
                        {
                            "op": "if",
                            "condition": {
                                "control": {"filter": {"type": "squad", "min_strength": 5}}
                            },
                            "then": [{"op": "gain_coins", "amount": 100}],
                        }
                    ],
                },
            ),
        )
    )
    s = _copy(to_actions(system, start(system)))
    seat = s["active"]
    sq = place(system, s, "SQ-EOT", seat)
    g = game(system, s)
    g.execute(
        {"op": "modify_strength", "amount": 3, "target": {"select": "self"}},
        {"controller": seat, "source": sq},
    )
    coins = s["players"][seat]["coins"]
    s = act(system, s, {"type": "pass"}, seat)
    assert s["players"][seat]["coins"] >= coins + 100  # trigger saw the buff
    assert not any(sq in t["iids"] for t in s["temp"])  # then it expired


@pytest.mark.rule("5.6.5.1", "CK-113")
def test_until_end_of_round_expires_after_round_end_triggers_ck113():
    system = new_system(
        card(
            "SQ-EOR",
            "squad",
            cost=Cost(1),
            strength=2,
            abilities=(
                {
                    "kind": "triggered",
                    "trigger": {"event": "round_end"},
                    "effects": [
                        {
                            "op": "if",
                            "condition": {
                                "control": {"filter": {"type": "squad", "min_strength": 5}}
                            },
                            "then": [{"op": "gain_coins", "amount": 100}],
                        }
                    ],
                },
            ),
        )
    )
    s = _copy(to_actions(system, start(system)))
    seat = s["active"]
    sq = place(system, s, "SQ-EOR", seat)
    game(system, s).execute(
        {"op": "modify_strength", "amount": 3, "target": {"select": "self"}, "duration": "round"},
        {"controller": seat, "source": sq},
    )
    s = act(system, s, {"type": "pass"})
    assert any(sq in t["iids"] for t in s["temp"])  # survives the turn end
    s = act(system, s, {"type": "pass"})
    assert s["round"] == 2
    assert s["players"][seat]["coins"] >= 100
    assert not s["temp"]


@pytest.mark.rule("5.7", "CK-114")
def test_no_action_while_the_queue_is_not_empty_ck114(system):
    """Played through ``apply``, ORD-BOLT stays at the head of the Queue while its wound
    waits for a target. Until the Queue is empty the engine offers only the answer: no
    pass, play or Direct Attack, no turn for the next player, no next step."""
    s = _copy(to_actions(system, start(system)))
    seat = s["active"]
    other = 1 - seat
    bolt = place(system, s, "ORD-BOLT", seat, "hand")
    s["players"][seat]["coins"] = 5
    s = act(system, s, {"type": "play", "iid": bolt}, seat)
    assert [o["iid"] for o in s["queue"]] == [bolt]
    pending = s["pending"]
    assert pending["player"] == seat and pending["kind"] == "choose"
    step, active, round_ = s["step"], s["active"], s["round"]
    assert system.to_act(s) == (seat,)
    legal = system.legal_actions(s, seat)
    assert legal and all(a["type"] == "choose" for a in legal)
    assert system.legal_actions(s, other) == []
    for action in ({"type": "pass"}, {"type": "direct_attack", "target": other}):
        with pytest.raises(IllegalAction):
            system.apply(s, seat, action)
    with pytest.raises(NotYourTurn):
        system.apply(s, other, {"type": "pass"})
    assert (s["step"], s["active"], s["round"]) == (step, active, round_)
    city = next(i for i in pending["options"] if s["cards"][i]["card"].startswith("CITY"))
    s = act(system, s, {"type": "choose", "choice_id": pending["id"], "picks": [city]}, seat)
    assert s["queue"] == [] and s["cards"][bolt]["zone"] == "graveyard"
    assert system.to_act(s) == (other,) and s["step"] == "action"
    assert any(a["type"] == "pass" for a in system.legal_actions(s, other))


@pytest.mark.rule("5.8", "CK-115")
def test_eliminated_player_gets_no_turns_or_steps_ck115(system):
    s = _copy(to_actions(system, start(system, n=3), first=0))
    g = game(system, s)
    g.eliminate(1)
    assert not s["finished"]
    seen = set()
    for _ in range(60):
        seen.update(system.to_act(s))
        assert 1 not in system.to_act(s)
        seat = system.to_act(s)[0]
        s = act(system, s, system.legal_actions(s, seat)[0], seat)
        if s["round"] >= 3:
            break
    assert seen == {0, 2}
    assert s["players"][1]["hand"] == [] and s["players"][1]["coins"] >= 0
    with pytest.raises(NotYourTurn):
        system.apply(s, 1, {"type": "pass"})


@pytest.mark.rule("5.3", "AMB-13")
def test_initiative_ties_reroll_among_the_tied(system):
    for seed in range(200):
        state = system.new_game({"dice": "2d6"}, [deck(), deck(), deck()], seed)
        rolls = state["initiative"]
        if len(rolls) > 1:
            break
    else:  # pragma: no cover
        raise AssertionError("no tie in 200 seeds")
    first = dict(map(tuple, rolls[0]))
    best = max(first.values())
    assert sorted(seat for seat, v in rolls[1]) == sorted(s for s, v in first.items() if v == best)
    last = dict(map(tuple, rolls[-1]))
    assert state["pending"]["player"] == max(last, key=last.get)


@pytest.mark.rule("5.4", "AMB-01")
def test_mulligan_in_turn_order(system):
    state = start(system, n=3)
    state = act(system, state, {"type": "first_player", "seat": 1})
    seen = []
    while state["stage"] == "mulligan":
        seen.append(state["pending"]["player"])
        state = act(system, state, {"type": "keep"})
    assert seen == [1, 2, 0]


@pytest.mark.rule("6.3.13", "AMB-27")
def test_triggers_during_a_turn_start_with_the_active_player():
    system = new_system(
        card(
            "WATCH",
            "squad",
            cost=Cost(1),
            strength=1,
            abilities=(
                {
                    "kind": "triggered",
                    "trigger": {"event": "played"},
                    "effects": [{"op": "gain_coins", "amount": 1}],
                },
            ),
        )
    )
    s = _copy(to_actions(system, start(system), first=0))
    a = place(system, s, "WATCH", 0)
    b = place(system, s, "WATCH", 1)
    s["active"] = 1
    g = game(system, s)
    g.trigger("played", None, 1)
    g.flush_waiting()
    assert [o["source"] for o in s["queue"]] == [b, a]


@pytest.mark.rule("5.6.3", "AMB-26")
def test_consecutive_passing_option(system):
    s = to_actions(system, start(system, config={"options": {"passing": "consecutive"}}), first=0)
    s = act(system, s, {"type": "pass"}, 0)
    s = act(system, s, {"type": "direct_attack", "target": 0}, 1)
    assert s["active"] == 0  # the earlier pass did not stick
    s = act(system, s, {"type": "pass"}, 0)
    assert s["active"] == 1 and s["round"] == 1
    s = act(system, s, {"type": "pass"}, 1)
    assert s["round"] == 2
