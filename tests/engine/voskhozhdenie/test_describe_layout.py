"""The table plan of «Восхождение» (``layout`` in engine/voskhozhdenie/describe.py): built
from one viewer's view and legal actions only (rule 1.4.2.7: another player's Hand is a
count), every legal action placed exactly once where it is taken, X as one stepper."""

from __future__ import annotations

import json

import pytest

from engine.core.table import compact
from engine.voskhozhdenie.describe import layout
from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.sample import sample_deck

NAMES = {0: "alice", 1: "bob"}
FISTFIGHT, FIREBALL, PIRATE, WARRIOR = "VS0-016", "VS1-150", "VS0-012", "VS1-129"


def in_actions(seed: int = 7) -> dict:
    """Seat 0 goes first, both keep: the Actions step of round 1, seat 0 to act."""
    decks = [sample_deck(SYSTEM.db, 11 + k, cities=2, main=20) for k in range(2)]
    state = SYSTEM.new_game({}, decks, seed)
    while state["step"] != "action":
        (seat,) = SYSTEM.to_act(state)
        legal = SYSTEM.legal_actions(state, seat)
        action = next(
            (a for a in legal if a["type"] in ("keep", "decline") or a.get("seat") == 0), legal[0]
        )
        state, _ = SYSTEM.apply(state, seat, action)
    return state


def staged() -> dict:
    """Seat 0 holds Fistfight (a Confrontation), Fireball (X) and River Pirate with 8
    coins; seat 1 has Young Warrior in play."""
    state = in_actions()
    me, them = state["players"]
    for iid, card in zip(me["hand"], (FISTFIGHT, FIREBALL, PIRATE), strict=False):
        state["cards"][iid]["card"] = card
    me["coins"] = 8
    iid = them["hand"].pop()
    state["cards"][iid].update(card=WARRIOR, zone="battlefield", strength=2, wounded=False,
                               ruined=False, entered=0, tactic=None, side=None)  # fmt: skip
    state["battlefield"].append(iid)
    return state


def plan_of(state: dict, seat: int | None, language: str = "en") -> dict:
    legal = SYSTEM.legal_actions(state, seat) if seat in SYSTEM.to_act(state) else []
    return layout(SYSTEM.view(state, seat), legal, language, NAMES)


def faces(plan: dict) -> list[dict]:
    out = []
    for p in [*plan["opponents"], plan["me"]]:
        if p is None:
            continue
        zones = [*p["zones"], *p["folded"], p["hand"], p.get("reserve")]
        out += [c for z in zones if z for c in z["cards"]]
    for t in plan["tactics"]:
        out += [t["card"]] if t["card"] else []
    out += [q["card"] for q in plan["queue"] if q["card"]]
    return out


def placed(plan: dict) -> list[str]:
    """Every action the plan's forms post, as posted."""
    out = [a["json"] for a in plan["turn"]]
    out += [a["json"] for a in (plan["prompt"] or {}).get("acts", [])]
    for bar in plan["bars"]:
        out += [a["json"] for a in bar["acts"]]
        out += [o["json"] for s in bar["steppers"] for o in s["options"]]
    out += [a["json"] for c in faces(plan) for a in c["acts"]]
    for p in [*plan["opponents"], plan["me"]]:
        out += [a["json"] for a in p["acts"]] if p else []
    return out


@pytest.mark.parametrize("moves", [0, 1, 3])
def test_every_legal_action_is_posted_by_exactly_one_form(moves):
    state = staged()
    for _ in range(moves):
        (seat,) = SYSTEM.to_act(state)
        state, _ = SYSTEM.apply(state, seat, SYSTEM.legal_actions(state, seat)[-1])
    (seat,) = SYSTEM.to_act(state)
    plan = plan_of(state, seat)
    assert sorted(placed(plan)) == sorted(compact(a) for a in SYSTEM.legal_actions(state, seat))


def test_x_is_one_stepper_over_the_legal_range():
    state = staged()
    plan = plan_of(state, 0)
    fireball = state["players"][0]["hand"][1]
    (bar,) = [b for b in plan["bars"] if b["iid"] == fireball]
    assert bar["acts"] == []
    (step,) = bar["steppers"]
    assert step["label"] == "Play" and (step["min"], step["max"]) == (0, 8)
    assert [o["x"] for o in step["options"]] == list(range(9))
    assert json.loads(step["options"][3]["json"]) == {"type": "play", "iid": fireball, "x": 3}


def test_a_card_is_chosen_then_its_target_the_opponent_lights_up():
    state = staged()
    plan = plan_of(state, 0)
    fistfight = state["players"][0]["hand"][0]
    (bar,) = [b for b in plan["bars"] if b["iid"] == fistfight]
    assert bar["aimed"] and bar["face"]["sel"]
    (bob,) = plan["opponents"]
    (aim,) = [a for a in bob["aims"] if a["for"] == fistfight]
    assert aim["label"] == "Declare against"
    (form,) = [a for a in bar["acts"] if a["id"] == aim["form"]]
    assert json.loads(form["json"]) == {"type": "declare", "iid": fistfight, "target": 1}
    assert form["short"] == "Declare against Seat 2 (bob)"
    # The Direct Attack is a button on the player it attacks.
    assert [a["short"] for a in bob["acts"]] == ["Direct Attack"]
    assert plan["turn"][0]["label"] == "Pass: no more actions this round"


def test_squads_aim_at_the_sides_of_a_ready_tactic():
    state = staged()
    me = state["players"][0]
    fistfight, pirate = me["hand"][0], me["hand"][2]
    for seat, action in ((0, {"type": "declare", "iid": fistfight, "target": 1}),
                         (1, {"type": "pass"}), (0, {"type": "play", "iid": pirate})):  # fmt: skip
        state, _ = SYSTEM.apply(state, seat, action)
    plan = plan_of(state, 0)
    (tactic,) = plan["tactics"]
    assert tactic["ready"] and tactic["card"]["name"] == "Fistfight"
    mine = {a["side"]: a["label"] for a in tactic["aims"] if a["for"] == pirate}
    assert mine == {"attack": "Attack", "defence": "Defend"}
    assert tactic["who"] == "Seat 1 (alice, you) → Seat 2 (bob)"


def test_a_pending_choice_of_a_card_is_a_button_on_that_card():
    state = staged()
    fireball = state["players"][0]["hand"][1]
    state, _ = SYSTEM.apply(state, 0, {"type": "play", "iid": fireball, "x": 3})
    plan = plan_of(state, 0)
    assert plan["prompt"]["text"].startswith("Choose what to wound")
    warrior = state["battlefield"][-1]
    on_cards = {c["iid"]: [a["short"] for a in c["acts"]] for c in faces(plan) if c["acts"]}
    assert on_cards[warrior] == ["Choose"]
    assert plan["prompt"]["hint"]
    # The other player is told who decides, with nothing to press.
    theirs = plan_of(state, 1)
    assert not theirs["prompt"]["mine"] and placed(theirs) == []


def test_the_viewer_sits_at_the_bottom_and_sees_no_other_hand():
    state = staged()
    for seat in (0, 1):
        plan = plan_of(state, seat)
        assert plan["me"]["seat"] == seat and [p["seat"] for p in plan["opponents"]] == [1 - seat]
        other = set(state["players"][1 - seat]["hand"])
        assert not other & {c["iid"] for c in faces(plan)}
        assert plan["opponents"][0]["hand"] is None
        assert len(plan["opponents"][0]["backs"]) == len(other)
    watching = plan_of(state, None)
    assert watching["spectator"] and watching["me"]["hand"] is None
    assert not {i for p in state["players"] for i in p["hand"]} & {
        c["iid"] for c in faces(watching)
    }


def test_both_languages():
    state = staged()
    ru = plan_of(state, 0, "ru")
    assert ru["turn"][0]["label"] == "Пас: больше не действовать в этом раунде"
    assert ru["rules"]["title"] == "Как играть в «Восхождение»"
    assert all("(" in line for line in ru["rules"]["lines"])  # each cites its rules
    names = {c["name"] for c in faces(ru)}
    assert SYSTEM.db.card(FIREBALL).name("ru") in names
