"""The gaps AA-1..AA-14 of ascension_dbg.md: one test (at least) naming each gap, with the
rules it reads; Unite on a Construct (AA-3) through a card of a test set; the
``honor_pool`` setting."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from engine.ascension import setdata
from engine.ascension.cards import load_system
from engine.ascension.effects import card_text
from engine.ascension.game import Ascension
from engine.core.errors import IllegalAction, InvalidConfig
from tests.engine.ascension.helpers import (
    S,
    act,
    check_invariants,
    cid,
    end_turn,
    move_to,
    new,
    play,
    set_hand,
    to_hand,
    to_row,
    to_zone,
    where,
)

MYSTIC, HEAVY, CULTIST = cid("Mystic"), cid("Heavy Infantry"), cid("Cultist")


def _system_over(tmp_path: Path, *extra_sets: dict, mutate=None) -> Ascension:
    """An engine over the set ASC1 (changed by ``mutate``) plus ``extra_sets``, each
    written as a set file and read back through the set loader."""
    data = copy.deepcopy(setdata.build())
    if mutate:
        mutate(data)
    (tmp_path / "asc1.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for k, extra in enumerate(extra_sets):
        (tmp_path / f"test{k}.json").write_text(json.dumps(extra, ensure_ascii=False), "utf-8")
    return Ascension(load_system(str(tmp_path)))


# --- AA-1, AA-2: every stat is card data ----------------------------------------------------


def test_aa1_card_stats_come_from_the_set_file_not_from_the_rulebook_digits_a30(tmp_path):
    """The FAQ's "88" power and "11" honor are read as 8 and 1 (AA-1); the engine only
    knows what the set file says: a Cultist costing 3 in the data costs 3 (A-30)."""

    def dearer_cultist(data):
        card = next(c for c in data["cards"] if c["name"]["en"] == "Cultist")
        card["cost"] = 3

    system = _system_over(tmp_path, mutate=dearer_cultist)
    state = system.new_game({"players": 2, "first": 0}, [], 1)
    state["players"][0]["power"] = 2
    assert {"type": "defeat", "pile": CULTIST} not in system.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        system.apply(state, 0, {"type": "defeat", "pile": CULTIST})
    state["players"][0]["power"] = 3
    state, _ = system.apply(state, 0, {"type": "defeat", "pile": CULTIST})
    assert state["players"][0]["power"] == 0 and state["players"][0]["honor"] == 1


def test_aa2_mystic_and_heavy_infantry_use_the_usual_values_from_the_data_a27_a54():
    """A-54: two Mystics give 4 runes; Heavy Infantry costs 2 and gives 2 power (data)."""
    state = new()
    mystic1, mystic2, heavy = set_hand(state, 0, ["Mystic", "Mystic", "Heavy Infantry"])
    for iid in (mystic1, mystic2, heavy):
        state = play(state, 0, iid)
    assert (state["players"][0]["runes"], state["players"][0]["power"]) == (4, 2)
    state["players"][0]["runes"] = 2
    state, _ = act(state, 0, {"type": "acquire", "pile": HEAVY})
    assert state["players"][0]["runes"] == 0


# --- AA-3: Unite on a Construct ---------------------------------------------------------------

PYLON_EN = "Pylon of Kinship"
PYLON_ABILITIES = [{"kind": "unite", "effects": [{"op": "honor", "amount": 1}]}]
PYLON_SET = {
    "code": "TST1",
    "name": {"ru": "Проверочный набор", "en": "Test set"},
    "released": "2026-05-01",
    "cards": [
        {
            "number": 1,
            "name": {"ru": "Пилон родства", "en": PYLON_EN},
            "type": "construct",
            "faction": "mechana",
            "cost": 3,
            "honor": 1,
            "copies": 1,
            "pile": "center",
            "text": {
                "ru": card_text(PYLON_ABILITIES, "mechana", "ru"),
                "en": card_text(PYLON_ABILITIES, "mechana", "en"),
            },
            "abilities": PYLON_ABILITIES,
        }
    ],
}


@pytest.fixture
def pylon_game(tmp_path):
    """A 2-player game over ASC1 plus a Mechana Construct whose Unite gains 1 honor;
    player 1's hand: the Pylon, Gearwright (Mechana Hero), Gloam Reaver (Void Hero)."""
    system = _system_over(tmp_path, PYLON_SET)
    pylon_id = system.db.find(PYLON_EN).id
    assert system.db.find("Пилон родства").id == pylon_id
    assert system.unite_ops[pylon_id] == [{"op": "honor", "amount": 1}]
    state = system.new_game({"players": 2, "first": 0}, [], 4)
    p = state["players"][0]
    p["deck"][0:0] = p["hand"]
    p["hand"] = []
    pylon = move_to(state, state["cards"].index(pylon_id), 0, "hand")
    gear = move_to(state, state["cards"].index(cid("Gearwright")), 0, "hand")
    reaver = move_to(state, state["cards"].index(cid("Gloam Reaver")), 0, "hand")
    _check(state)
    return system, state, pylon, gear, reaver


def _check(state):
    """The invariants of helpers.check_invariants, for another engine's state."""
    check_invariants(state)
    assert json.loads(json.dumps(state)) == state


def _do(system, state, seat, action):
    state, _ = system.apply(state, seat, action)
    _check(state)
    return state


def test_aa3_unite_on_a_construct_in_play_triggers_once_per_turn_a46_a18(pylon_game):
    system, state, pylon, gear, _reaver = pylon_game
    state = _do(system, state, 0, {"type": "play", "iid": pylon})
    assert pylon in state["players"][0]["constructs"]
    assert state["players"][0]["honor"] == 0  # its own play does not count
    state = _do(system, state, 0, {"type": "play", "iid": gear})
    assert state["players"][0]["honor"] == 1 and state["pool"] == 59
    # A second Mechana Hero the same turn: at most once per card per turn.
    second = move_to(state, state["cards"].index(cid("Foundry Savant")), 0, "hand")
    state = _do(system, state, 0, {"type": "play", "iid": second})
    assert state["players"][0]["honor"] == 1


def test_aa3_a_unite_construct_triggers_again_on_its_controllers_later_turns_a46_a24(pylon_game):
    system, state, pylon, gear, _reaver = pylon_game
    state = _do(system, state, 0, {"type": "play", "iid": pylon})
    state = _do(system, state, 0, {"type": "end_turn"})
    # Player 2 plays a Mechana Hero on their turn: player 1's Construct does not react.
    courier = move_to(state, state["cards"].index(cid("Steam Courier")), 1, "hand")
    state = _do(system, state, 1, {"type": "play", "iid": courier})
    assert state["players"][0]["honor"] == 0 and state["players"][1]["honor"] == 0
    state = _do(system, state, 1, {"type": "end_turn"})
    # Player 1's next turn: the Construct is still in play and Unite works again.
    p = state["players"][0]
    assert pylon in p["constructs"]
    if gear not in p["hand"]:
        move_to(state, gear, 0, "hand")
    state = _do(system, state, 0, {"type": "play", "iid": gear})
    assert state["players"][0]["honor"] == 1


def test_aa3_a_unite_construct_ignores_heroes_played_before_it_and_other_factions_a46(
    pylon_game,
):
    system, state, pylon, gear, reaver = pylon_game
    state = _do(system, state, 0, {"type": "play", "iid": gear})  # before the Construct
    state = _do(system, state, 0, {"type": "play", "iid": pylon})
    assert state["players"][0]["honor"] == 0
    state = _do(system, state, 0, {"type": "play", "iid": reaver})  # a Void Hero
    assert state["players"][0]["honor"] == 0
    # A Mechana Construct played is not a Hero: no Unite (AA-3).
    hound = move_to(state, state["cards"].index(cid("Rivet Hound")), 0, "hand")
    state = _do(system, state, 0, {"type": "play", "iid": hound})
    assert state["players"][0]["honor"] == 0


def test_aa3_the_test_set_card_is_valid_set_data_with_text_in_both_languages(tmp_path):
    system = _system_over(tmp_path, PYLON_SET)
    card = system.db.find(PYLON_EN)
    assert card.type == "construct" and card.faction == "mechana" and card.has("unite")
    assert card.text_en and card.text_ru and card.text_en != card.text_ru
    assert sum(c.copies for c in system.db.by_pile("center")) == 101


# --- AA-5: honor is a counter; the trigger --------------------------------------------------


def test_aa5_a_gain_beyond_the_pool_takes_the_rest_from_the_box_and_fires_once_a41_a42():
    state = S.new_game({"players": 2, "first": 0, "honor_pool": 1}, [], 2)
    lurker = to_row(state, "Bog Lurker", 0)  # reward: 2 honor
    state["players"][0]["power"] = 5
    state, events = act(state, 0, {"type": "defeat", "iid": lurker})
    assert state["pool"] == 0 and state["reserve"] == 1
    assert state["players"][0]["honor"] == 2 and state["ending"]
    assert [e["type"] for e in events].count("pool_empty") == 1
    state, events = act(state, 0, {"type": "defeat", "pile": CULTIST})
    assert "pool_empty" not in [e["type"] for e in events]  # it fired once
    assert state["reserve"] == 2 and not state["finished"]


# --- AA-8: deck and discard pile both empty ---------------------------------------------------


def test_aa8_a_draw_from_an_empty_deck_and_discard_pile_takes_what_there_is_a38_a39():
    state = new()
    p = state["players"][0]
    (cantor,) = set_hand(state, 0, ["Skyglass Cantor"])  # draw 2
    keep = p["deck"][-1]
    state["box"].extend(p["deck"][:-1])  # only one card left to draw (a test position)
    p["deck"] = [keep]
    state, events = act(state, 0, {"type": "play", "iid": cantor})
    p = state["players"][0]
    assert p["hand"] == [keep] and p["deck"] == p["discard"] == []
    assert [e for e in events if e["type"] == "draw"] == [{"type": "draw", "seat": 0, "count": 1}]
    assert "reshuffle" not in [e["type"] for e in events]
    # End of turn: the hand and the played Cantor are the whole discard pile; 2 are drawn
    # instead of 5 and the game goes on (no penalty).
    state, _ = act(state, 0, {"type": "end_turn"})
    p = state["players"][0]
    assert sorted(p["hand"]) == sorted([keep, cantor]) and p["deck"] == p["discard"] == []
    assert S.to_act(state) == (1,) and not state["finished"]


# --- AA-10: destroy goes to the controller ------------------------------------------------------


def test_aa10_a_destroyed_construct_goes_to_its_controllers_discard_pile_a19_a62():
    """Player 1 takes Player 2's Rivet Hound with the Mistral Trickster (A-62), plays it;
    Player 2's Drowned Sovereign then destroys it: it goes to Player 1's discard pile."""
    state = new()
    hound = to_hand(state, 1, "Rivet Hound")
    p1 = state["players"][1]
    state["box"].extend(p1["hand"][:-1])  # a test position: the Hound is all they hold
    p1["hand"] = [hound]
    loom = to_zone(state, 0, "constructs", "Storm Loom")
    to_row(state, "Mistral Trickster", 0)
    state["players"][0]["power"] = 6
    state, _ = act(state, 0, {"type": "defeat", "iid": state["row"][0]})
    assert where(state, hound) == "p0.hand"
    state = play(state, 0, hound)
    state = end_turn(state, 0)
    to_row(state, "Drowned Sovereign", 0)
    state["players"][1]["power"] = 6
    state, _ = act(state, 1, {"type": "defeat", "iid": state["row"][0]})
    assert state["pending"] == {
        "player": 0, "kind": "keep", "options": [loom, hound], "optional": False,
        "src": state["pending"]["src"], "rule": "A-61",
    }  # fmt: skip
    state, events = act(state, 0, {"type": "choose", "iid": loom})
    assert {"type": "destroy", "seat": 0, "iid": hound} in [
        {k: e.get(k) for k in ("type", "seat", "iid")} for e in events
    ]
    assert where(state, hound) == "p0.discard"
    assert where(state, loom) == "p0.constructs"


# --- AA-11: the Cultist cannot be banished ------------------------------------------------------


@pytest.mark.parametrize(
    ("hero", "where_from"),
    [("Abyssal Warlord", "center"), ("Hollow Arbiter", "hand_or_discard")],
)
def test_aa11_the_cultist_is_never_offered_to_a_banish_a30_a33(hero, where_from):
    state = new()
    (cultist,) = state["piles"][CULTIST]
    to_zone(state, 0, "discard", "Apprentice")
    (card,) = set_hand(state, 0, [hero])
    state = play(state, 0, card)
    assert state["pending"]["kind"] == "banish" and state["pending"]["from"] == where_from
    assert cultist not in state["pending"]["options"]
    assert {"type": "choose", "iid": cultist} not in S.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        S.apply(state, 0, {"type": "choose", "iid": cultist})
    for option in state["pending"]["options"]:
        assert S.card(state, option).id != CULTIST
    assert state["piles"][CULTIST] == [cultist]


def test_aa11_samael_never_takes_the_cultist_aa6_a50():
    state = S.new_game({"players": 1}, [], 9)
    (cultist,) = state["piles"][CULTIST]
    for _ in range(10):
        state = end_turn(state, 0)
        if state["finished"]:
            break
    assert state["piles"][CULTIST] == [cultist] and cultist not in state["samael"]["cards"]


# --- AA-13: starter cards score nothing ------------------------------------------------------


def test_aa13_apprentices_and_militia_score_nothing_mystic_and_heavy_infantry_count_a43():
    state = new()
    assert S.score(state, 0) == 0  # 8 Apprentices + 2 Militia
    to_zone(state, 0, "discard", "Mystic")
    to_zone(state, 0, "deck", "Heavy Infantry")
    assert S.score(state, 0) == 2


# --- AA-14: where acquired cards go ------------------------------------------------------------


def test_aa14_a_free_acquisition_goes_to_the_discard_pile_unless_the_card_says_otherwise_a26():
    state = new()
    to_row(state, "Hollow Giant", 0)  # reward: acquire a Hero costing 3 or less, for free
    reaver = to_row(state, "Gloam Reaver", 1)
    state["players"][0]["power"] = 5
    state, _ = act(state, 0, {"type": "defeat", "iid": state["row"][0]})
    assert state["pending"]["kind"] == "acquire_free"
    state, _ = act(state, 0, {"type": "choose", "iid": reaver})
    assert where(state, reaver) == "p0.discard"
    assert state["players"][0]["runes"] == 0


# --- Every gap has a test -------------------------------------------------------------------


def test_every_gap_of_the_digest_has_a_test_naming_it():
    here = Path(__file__).parent
    names = "\n".join(
        name
        for p in sorted(here.glob("test_*.py"))
        for name in re.findall(r"^def (test_\w+)", p.read_text(encoding="utf-8"), re.M)
    )
    missing = [n for n in range(1, 15) if not re.search(rf"_aa{n}(_|$)", names, re.M)]
    assert missing == [], f"gaps without a test: {missing}"


# --- The honor_pool setting ---------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_honor_pool_setting_replaces_the_pool_and_the_default_is_the_rulebooks_a11_a47(n):
    assert S.new_game({"players": n}, [], 1)["pool"] == (50 if n == 1 else 30 * n)
    state = S.new_game({"players": n, "honor_pool": 7}, [], 1)
    assert state["pool"] == state["pool_start"] == 7
    check_invariants(state)


@pytest.mark.parametrize("bad", [0, -3, "5", 2.5, True, 1001])
def test_honor_pool_setting_must_be_a_whole_number_from_1_to_1000(bad):
    with pytest.raises(InvalidConfig, match="honor_pool"):
        S.new_game({"players": 2, "honor_pool": bad}, [], 1)
