"""What the hex table draws (``engine.tactics.describe.layout``): the battlefield in pixels
with its terrain, each player's board turned to their side, the layers of where a
champion may enter, move and attack with the line of sight of each attack (the engine's
own lines, T-68, D-3), every legal action once with a label, and nothing of a hand the
viewer may not see."""

from __future__ import annotations

import json
import re

import pytest

from engine.tactics import hexes
from engine.tactics.bots import make_bot
from engine.tactics.describe import compact, layout, parse_cell, pixel, turn_for
from engine.tactics.game import SYSTEM

RESERVES = [
    ["TC1-012", "TC1-017", "TC1-011", "TC1-033"],  # Sel the Seer (ranged) first
    ["TC1-015", "TC1-032", "TC1-018", "TC1-019"],
]


def duel(**config):
    return SYSTEM.new_game({"reserves": RESERVES, "first": 0, **config}, [], 1)


def plan_for(state, seat, language="en"):
    legal = SYSTEM.legal_actions(state, seat) if seat is not None else []
    return layout(SYSTEM.view(state, seat), legal, language)


def aiming_state():
    """Sel the Seer (ranged, seat 0) under command on 1,3, after its move: an enemy on
    -1,3 in clear sight, another on 1,0 behind the forest of 1,1."""
    state = duel()
    state["figs"][0]["cell"] = "1,3"
    state["figs"][4]["cell"] = "1,0"
    state["figs"][5]["cell"] = "-1,3"
    state["cmd"] = {"fig": 0, "moved": True, "attacks": 1}
    return state


def test_every_cell_of_the_scenario_is_a_hexagon_with_its_terrain():
    state = duel()
    board = plan_for(state, 0)["board"]
    scenario = SYSTEM.db.scenario(state["scenario"])
    assert {c["key"] for c in board["cells"]} == {f"{q},{r}" for q, r in scenario.cells}
    by_key = {c["key"]: c for c in board["cells"]}
    for key, kind in state["terrain"].items():
        assert by_key[key]["terrain"] == kind
    assert all(len(c["points"].split()) == 6 for c in board["cells"])
    shrines = [c for c in board["cells"] if c["shrine"]]
    assert shrines and all(c["glory"] == scenario.shrine_glory for c in shrines)
    assert {t["terrain"] for t in board["legend"]} >= {"forest", "corrupted", "shrine", "portal"}
    assert sum(c["treasure"] for c in board["cells"]) == len(state["board_treasure"])


@pytest.mark.parametrize("first", [0, 1])
def test_each_player_sees_their_own_portal_at_the_bottom_and_a_spectator_seat_1s(first):
    state = duel(first=first)
    for seat, viewer in ((0, 0), (1, 1), (0, None)):
        plan = plan_for(state, viewer)
        cells = plan["board"]["cells"]
        (portal,) = [c for c in cells if c["terrain"] == "portal" and c["owner"] == seat]
        assert portal["y"] == max(c["y"] for c in cells)
    assert turn_for([(0, -5)]) == 3
    assert hexes.rotate((0, -5), 3) == (0, 5)


def test_the_pixels_are_those_of_pointy_top_hexagons():
    assert pixel((0, 0)) == (0.0, 0.0)
    x, y = pixel((1, 0))
    assert round(x, 3) == round(30 * 3**0.5, 3) and y == 0
    assert pixel((0, 2))[1] == 90.0


def test_a_ranged_champion_aims_along_its_line_of_sight_and_sees_what_blocks_it():
    state = aiming_state()
    plan = plan_for(state, 0)
    (layer,) = [lay for lay in plan["layers"] if lay["fig"] == 0]
    assert layer["active"]
    legal = {a["cell"] for a in SYSTEM.legal_actions(state, 0) if a["type"] == "attack"}
    assert {a["key"] for a in layer["attacks"]} == legal == {"-1,3"}
    (aim,) = layer["attacks"]
    assert aim["sight"]["clear"] and aim["sight"]["blocks"] == []
    assert json.loads(aim["action"]["json"]) == {"type": "attack", "cell": "-1,3"}
    (blocked,) = layer["blocked"]
    assert blocked["key"] == "1,0" and not blocked["sight"]["clear"]
    forest = next(c for c in plan["board"]["cells"] if c["key"] == "1,1")
    assert forest["terrain"] == "forest"
    assert [(b["x"], b["y"]) for b in blocked["sight"]["blocks"]] == [(forest["x"], forest["y"])]


def test_the_champion_under_command_shows_exactly_its_legal_moves():
    state = aiming_state()
    state["cmd"]["moved"] = False
    plan = plan_for(state, 0)
    (layer,) = [lay for lay in plan["layers"] if lay["active"]]
    legal = {a["cell"] for a in SYSTEM.legal_actions(state, 0) if a["type"] == "move"}
    assert legal and {m["key"] for m in layer["moves"]} == legal
    piece = next(p for p in plan["pieces"] if p["id"] == 0)
    assert piece["commanded"] and piece["selectable"] and piece["mine"]


def test_a_champion_in_reserve_enters_at_the_highlighted_portals():
    state = duel()
    state["players"][0]["power"] = 10
    plan = plan_for(state, 0)
    legal = [a for a in SYSTEM.legal_actions(state, 0) if a["type"] == "command"]
    entries = {
        (lay["fig"], e["key"]): json.loads(e["action"]["json"])
        for lay in plan["layers"]
        for e in lay["entries"]
    }
    assert legal and sorted(entries.values(), key=compact) == sorted(legal, key=compact)
    assert not any(lay["on_board"] for lay in plan["layers"])


def test_every_legal_action_is_listed_once_with_a_label_through_a_whole_game():
    state = SYSTEM.new_game({}, [], 11)  # with the champion draft
    bot = make_bot("heuristic", SYSTEM, 2)
    kinds = set()
    for _ in range(2500):
        if state["finished"]:
            break
        (seat,) = SYSTEM.to_act(state)
        legal = SYSTEM.legal_actions(state, seat)
        plan = layout(SYSTEM.view(state, seat), legal, "ru")
        listed = [a["json"] for a in plan["actions"]]
        assert sorted(listed) == sorted(compact(a) for a in legal)
        assert all(a["label"] and a["label"] != a["type"] for a in plan["actions"])
        kinds |= {a["type"] for a in legal}
        action = bot.choose(state, seat)
        state, _ = SYSTEM.apply(state, seat, action)
    assert state["finished"]
    assert {"pick", "play", "acquire", "command", "move", "end_turn"} <= kinds


@pytest.mark.parametrize("viewer", [None, 1])
def test_no_card_of_seat_0s_hand_reaches_another_viewers_plan(viewer):
    state = duel()
    # Seat 0 holds cards of the central deck: cards no one else can see anywhere.
    state["players"][0]["hand"] = state["center"][-5:]
    state["center"] = state["center"][:-5]
    hand = {state["cards"][i] for i in state["players"][0]["hand"]}
    visible = {state["cards"][i] for i in state["row"] + state["players"][1]["hand"]}
    assert hand - visible
    text = json.dumps(plan_for(state, viewer))
    assert not [c for c in hand - visible if c in text]
    players = plan_for(state, viewer)["players"]
    assert players[0]["hand_count"] == len(state["players"][0]["hand"])
    assert players[0]["treasure"] == []


def test_the_champion_draft_offers_its_row_to_the_seat_that_picks():
    state = SYSTEM.new_game({}, [], 7)
    (seat,) = SYSTEM.to_act(state)
    plan = plan_for(state, seat)
    draft = plan["draft"]
    assert draft["mine"] and draft["quota"]
    picks = [json.loads(a["json"]) for r in draft["row"] for a in r["actions"]]
    assert picks == [a for a in SYSTEM.legal_actions(state, seat) if a["type"] == "pick"]
    other = plan_for(state, 1 - seat)["draft"]
    assert not other["mine"] and all(not r["actions"] for r in other["row"])


def test_labels_follow_the_language():
    state = duel()
    en = plan_for(state, 0, "en")
    ru = plan_for(state, 0, "ru-RU")
    assert [a["label"] for a in en["actions"]] != [a["label"] for a in ru["actions"]]
    assert "End turn" in {a["label"] for a in en["actions"]}
    assert "Закончить ход" in {a["label"] for a in ru["actions"]}


def test_a_cell_text_is_read_back_and_anything_else_is_none():
    assert parse_cell("2,-3") == (2, -3)
    assert parse_cell("x") is None and parse_cell(None) is None


def test_the_describer_labels_actions_as_the_table_does_and_tells_every_event():
    from engine.core.describe import Reading, describer_for

    describer = describer_for("tactics")
    assert describer is not None
    state = SYSTEM.new_game({}, [], 13)
    bot = make_bot("heuristic", SYSTEM, 4)
    told = 0
    for _ in range(400):
        if state["finished"]:
            break
        (seat,) = SYSTEM.to_act(state)
        legal = SYSTEM.legal_actions(state, seat)
        view = SYSTEM.view(state, seat)
        for language in ("en", "ru"):
            reading = Reading.of(view, language)
            labels = {a["json"]: a["label"] for a in layout(view, legal, language)["actions"]}
            for a in legal[:6]:
                assert describer.action(reading, a)["text"] == labels[compact(a)]
        action = bot.choose(state, seat)
        state, events = SYSTEM.apply(state, seat, action)
        public = Reading.of(SYSTEM.view(state, None), "ru", events=events)
        for e in events:
            text = describer.event(public, e)
            assert text is None or (isinstance(text, str) and text)
            told += text is not None
        assert describer.action_kind(public, action["type"])
    assert told > 100


def test_the_describer_names_a_champion_and_never_a_hidden_card():
    from engine.core.describe import Reading, describer_for

    describer = describer_for("tactics")
    state = aiming_state()
    reading = Reading.of(SYSTEM.view(state, None), "en")
    assert describer.event(reading, {"type": "defeat", "fig": 4, "seat": 1}) == (
        "«Veyr, Sky Chastiser» is defeated"
    )
    hidden = state["players"][0]["hand"][0]
    assert describer.card_name(reading, hidden) == "a hidden card"
    assert describer.card(reading, "TC1-012")["name"] == "Sel the Seer"


@pytest.mark.parametrize(
    "config",
    [{"mode": "ffa", "players": 4}, {"mode": "teams", "players": 4, "teams": [[0, 2], [1, 3]]}],
    ids=["free-for-all", "2 vs 2"],
)
def test_with_four_players_each_sees_their_portal_at_the_bottom_in_their_colour(config):
    state = SYSTEM.new_game({**config, "draft": False}, [None] * 4, 3)
    for seat in range(4):
        plan = plan_for(state, seat)
        cells = plan["board"]["cells"]
        own = [c for c in cells if c["terrain"] == "portal" and c["owner"] == seat]
        assert own and max(c["y"] for c in own) == max(c["y"] for c in cells)
        assert [p["colour"] for p in plan["players"][seat]["reserve"]] == [f"s{seat}"] * len(
            plan["players"][seat]["reserve"]
        )


@pytest.mark.rule("T-85", "T-87", "T-94", "T-99")
def test_the_villains_panel_comes_from_the_view_and_hides_the_archvillains_hand():
    """Decision 0055: the villains' panel of the table; none outside the villain modes."""
    GAME = SYSTEM  # the engine
    duel = GAME.new_game({"first": 0, "draft": False}, [None, None], 1)
    assert layout(GAME.view(duel, 0), GAME.legal_actions(duel, 0))["villains"] is None
    s = GAME.new_game({"mode": "solo", "difficulty": "nightmare"}, [None], 2)
    s, _ = GAME.apply(s, 0, {"type": "end_turn"})  # the villains play two schemes
    panel = layout(GAME.view(s, 0), GAME.legal_actions(s, 0), "ru")["villains"]
    v = s["villain"]
    assert panel["deck"] == len(v["deck"]) == 26 - 8 - 2
    assert panel["threat"] == len(v["discard"]) == 10 and panel["difficulty_name"] == "Кошмар"
    assert [c["id"] for c in panel["current"]] == [s["cards"][v["discard"][-1]]]
    assert panel["current"][0]["awake"] == (panel["current"][0]["threat"] <= 10)
    cultists = [f for f in s["figs"] if f["owner"] == 1 and f["iid"] is None and f["cell"]]
    assert panel["cultists"] == len(cultists)
    assert len(panel["figures"]) == 4 and panel["figures"][0]["boss"]
    assert panel["surge"] and panel["surge"][0].startswith("Всплеск")
    arch = GAME.new_game({"mode": "archvillain"}, [None, None], 3)
    hero = layout(GAME.view(arch, 0), GAME.legal_actions(arch, 0))["villains"]
    assert hero["hand"] == [] and hero["hand_count"] == 3 and not hero["mine"]
    villain = layout(GAME.view(arch, 1), [])["villains"]
    assert villain["mine"] and len(villain["hand"]) == 3


@pytest.mark.parametrize(
    ("language", "cultist", "enter"),
    [
        ("en", "New cultist at your portal", "Enter at your portal · "),
        ("ru", "Новый культист на вашем портале", "Ввести через ваш портал · "),
    ],
)
def test_a_button_for_the_players_one_portal_names_the_portal_not_its_numbers(
    language, cultist, enter
):
    """A new cultist and a champion brought in go to the player's portal (T-35): the
    button says so, not "New cultist at 0,-5" (no cell's numbers are drawn on the board)."""
    state = duel()
    state["players"][0]["power"] = 10
    state["gate"] = True
    legal = SYSTEM.legal_actions(state, 0)
    assert any(a["type"] == "cultist" for a in legal)
    assert any(a["type"] == "command" and "cell" in a for a in legal)
    labels = {a["json"]: a["label"] for a in plan_for(state, 0, language)["actions"]}
    for a in legal:
        label = labels[compact(a)]
        if a["type"] == "cultist":
            assert label == cultist
        elif a["type"] == "command" and "cell" in a:
            assert label.startswith(enter), label
        assert not re.search(r"-?\d+,-?\d+", label), label
