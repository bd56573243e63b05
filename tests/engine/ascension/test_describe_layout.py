"""The table plan of Ascension (``layout`` in engine/ascension/describe.py): one viewer's
view only (another hand and every deck are counts), each legal action once, on the card
it is about (play, use, acquire, defeat, choose) or in the bar (end turn, choose none)."""

from __future__ import annotations

import json

from engine.ascension.describe import layout
from engine.ascension.game import SYSTEM
from engine.core.table import compact
from tests.engine.ascension.helpers import new

NAMES = {0: "alice", 1: "bob"}


def plan_of(state: dict, seat: int | None, language: str = "en") -> dict:
    legal = SYSTEM.legal_actions(state, seat) if seat in SYSTEM.to_act(state) else []
    return layout(SYSTEM.view(state, seat), legal, language, NAMES)


def faces(plan: dict) -> list[dict]:
    out = [c for c in plan["row"]["cards"] if c] + plan["piles"]["cards"]
    for p in [*plan["opponents"], plan["me"]]:
        out += [c for z in [*p["zones"], *p["folded"], p["hand"]] if z for c in z["cards"]]
    return out


def placed(plan: dict) -> list[str]:
    out = [a["json"] for a in plan["turn"]] + [
        a["json"] for a in (plan["prompt"] or {}).get("acts", [])
    ]
    return out + [a["json"] for c in faces(plan) for a in c["acts"]]


def test_each_action_is_on_its_card_once():
    state = new()
    plan = plan_of(state, 0)
    legal = SYSTEM.legal_actions(state, 0)
    assert sorted(placed(plan)) == sorted(compact(a) for a in legal)
    hand = plan["me"]["hand"]["cards"]
    assert len(hand) == 5 and all([a["short"] for a in c["acts"]] == ["Play"] for c in hand)
    assert all(c["acts"][0]["name"] == c["name"] for c in hand)
    assert [a["type"] for a in plan["turn"]] == ["end_turn"]


def test_acquire_and_defeat_are_on_the_row_and_the_piles():
    state = new()
    state["players"][0]["runes"] = state["players"][0]["power"] = 9
    plan = plan_of(state, 0)
    assert sorted(placed(plan)) == sorted(compact(a) for a in SYSTEM.legal_actions(state, 0))
    piles = {
        c["id"]: [json.loads(a["json"])["type"] for a in c["acts"]] for c in plan["piles"]["cards"]
    }
    assert {"acquire"} <= set(piles["ASC1-003"]) and piles["ASC1-005"] == ["defeat"]
    assert any(c and c["acts"] for c in plan["row"]["cards"])
    cultist = next(c for c in plan["piles"]["cards"] if c["id"] == "ASC1-005")
    assert cultist["count"] == 1 and cultist["cost"].endswith("⚔")


def test_a_pending_banish_is_chosen_on_the_cards_and_none_in_the_bar():
    state = new()
    hand = state["players"][0]["hand"]
    state["pending"] = {"player": 0, "kind": "banish", "from": "hand", "options": hand[:2],
                        "optional": True, "src": None, "rule": "A-33"}  # fmt: skip
    plan = plan_of(state, 0)
    assert plan["prompt"]["text"] == "Choose a card to banish to the Void"
    assert sorted(placed(plan)) == sorted(compact(a) for a in SYSTEM.legal_actions(state, 0))
    assert [json.loads(a["json"]) for a in plan["prompt"]["acts"]] == [
        {"type": "choose", "iid": None}
    ]
    chosen = {c["iid"] for c in faces(plan) if c["acts"]}
    assert chosen == set(hand[:2])


def test_no_other_hand_and_the_viewer_at_the_bottom():
    state = new()
    plan = plan_of(state, 1)
    assert plan["me"]["seat"] == 1 and plan["opponents"][0]["seat"] == 0
    assert plan["opponents"][0]["hand"] is None and len(plan["opponents"][0]["backs"]) == 5
    alice = set(state["players"][0]["hand"])
    assert not alice & {c["iid"] for c in faces(plan)}
    assert placed(plan) == []
    ru = plan_of(state, 0, "ru")
    assert ru["turn"][0]["label"] == "Закончить ход" and ru["head"][0]["label"] == "Запас чести"
