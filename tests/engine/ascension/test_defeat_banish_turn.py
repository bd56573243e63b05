"""Checklist AC-22..AC-44 of ascension_dbg.md: monsters, banishing, end of turn, reshuffles."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from tests.engine.ascension.helpers import (
    S,
    act,
    cid,
    end_turn,
    new,
    pick,
    play,
    set_hand,
    to_hand,
    to_row,
    to_zone,
    where,
)

MYSTIC, HEAVY, CULTIST = cid("Mystic"), cid("Heavy Infantry"), cid("Cultist")


# --- Defeating Monsters --------------------------------------------------------------------


def test_ac22_defeating_a_cost_6_monster_spends_6_power_void_and_reward_a29_a30():
    state = new()
    devourer = to_row(state, "Mountain Devourer", 2)
    assert S.info[state["cards"][devourer]].cost == 6
    state["players"][0]["power"] = 6
    state, _ = act(state, 0, {"type": "defeat", "iid": devourer})
    assert state["players"][0]["power"] == 0
    assert where(state, devourer) == "void"
    assert state["players"][0]["honor"] == 4 and state["pool"] == 56


def test_ac23_defeat_order_is_void_then_refill_then_reward_a52():
    state = new()
    wraith = to_row(state, "Rust Wraith", 1)
    top = state["center"][-1]
    state["players"][0]["power"] = 4
    state, events = act(state, 0, {"type": "defeat", "iid": wraith})
    kinds = [e["type"] for e in events]
    assert kinds[:3] == ["defeat", "refill", "honor"]
    # The reward's choice (banish a center card) already sees the refilled card.
    assert top in state["pending"]["options"] and len(state["pending"]["options"]) == 6


def test_ac24_a_banished_center_monster_goes_to_the_void_without_reward_a34():
    state = new()
    (warlord,) = set_hand(state, 0, ["Abyssal Warlord"])
    devourer = to_row(state, "Mountain Devourer", 5)
    top = state["center"][-1]
    state = play(state, 0, warlord)
    state, _ = act(state, 0, {"type": "choose", "iid": devourer})
    assert where(state, devourer) == "void"
    assert state["row"][5] == top
    assert state["players"][0]["honor"] == 0 and state["pool"] == 60


def test_ac25_eight_power_defeats_the_cultist_four_times_for_1_honor_each_a30_a53():
    state = new()
    state["players"][0]["power"] = 8
    for k in range(4):
        state, _ = act(state, 0, {"type": "defeat", "pile": CULTIST})
        assert state["players"][0]["honor"] == k + 1
    with pytest.raises(IllegalAction) as err:
        S.apply(state, 0, {"type": "defeat", "pile": CULTIST})
    assert err.value.rule == "A-30"


def test_ac26_the_cultist_never_enters_the_void_a30():
    state = new()
    (cultist,) = state["piles"][CULTIST]
    state["players"][0]["power"] = 4
    for _ in range(2):
        state, _ = act(state, 0, {"type": "defeat", "pile": CULTIST})
        assert state["piles"][CULTIST] == [cultist] and state["void"] == []


def test_ac27_an_honor_reward_of_3_moves_3_from_the_pool_to_the_player_a31():
    state = new()
    wyrm = to_row(state, "Thunder Wyrm", 0)
    state["players"][0]["power"] = 5
    state, _ = act(state, 0, {"type": "defeat", "iid": wyrm})
    assert state["pool"] == 57 and state["players"][0]["honor"] == 3


def test_ac28_a_hero_that_gives_honor_when_played_takes_it_from_the_pool_a32():
    state = new()
    (grove,) = set_hand(state, 0, ["Grovecaller"])
    state = play(state, 0, grove)
    assert state["pool"] == 59 and state["players"][0]["honor"] == 1


# --- Banishing -----------------------------------------------------------------------------


def _banish_from(state, seat, iid, hero="Hollow Arbiter"):
    arbiter = to_hand(state, seat, hero)
    state = play(state, seat, arbiter)
    state, events = act(state, seat, {"type": "choose", "iid": iid})
    return state, events


def test_ac29_a_banished_apprentice_goes_to_the_box_a35():
    for zone in ("hand", "discard"):
        state = new()
        apprentice = to_zone(state, 0, zone, "Apprentice")
        state, events = _banish_from(state, 0, apprentice)
        assert where(state, apprentice) == "box"
        assert events[-1]["to"] == "box"


def test_ac30_a_banished_militia_goes_to_the_box_a35():
    state = new()
    militia = to_zone(state, 0, "discard", "Militia")
    state, _ = _banish_from(state, 0, militia)
    assert where(state, militia) == "box"


def test_ac31_a_banished_mystic_returns_to_its_pile_and_can_be_acquired_again_a35_a56():
    state = new()
    state["players"][0]["runes"] = 3
    state, _ = act(state, 0, {"type": "acquire", "pile": MYSTIC})
    mystic = state["players"][0]["discard"][-1]
    state, _ = _banish_from(state, 0, mystic)
    assert where(state, mystic) == f"pile.{MYSTIC}" and len(state["piles"][MYSTIC]) == 20
    state["players"][0]["runes"] = 3
    state, _ = act(state, 0, {"type": "acquire", "pile": MYSTIC})
    assert where(state, mystic) == "p0.discard"


def test_ac32_a_banished_heavy_infantry_returns_to_its_pile_a35():
    state = new()
    heavy = to_zone(state, 0, "discard", "Heavy Infantry")
    state, _ = _banish_from(state, 0, heavy)
    assert where(state, heavy) == f"pile.{HEAVY}"


def test_ac33_any_other_banished_card_goes_to_the_void_a35():
    state = new()
    reaver = to_zone(state, 0, "hand", "Gloam Reaver")
    state, events = _banish_from(state, 0, reaver)
    assert where(state, reaver) == "void" and events[-1]["to"] == "void"


def test_ac34_a_played_apprentice_cannot_be_banished_from_hand_a36_a60():
    state = new()
    apprentice, acolyte = set_hand(state, 0, ["Apprentice", "Ashen Acolyte"])
    state = play(state, 0, apprentice)
    state = play(state, 0, acolyte)
    # The hand is empty now: nothing to banish, so no choice is offered at all.
    assert state["pending"] is None
    state = new()
    apprentice, other, acolyte = set_hand(state, 0, ["Apprentice", "Apprentice", "Ashen Acolyte"])
    state = play(state, 0, apprentice)
    state = play(state, 0, acolyte)
    assert state["pending"]["options"] == [other]
    with pytest.raises(IllegalAction):
        S.apply(state, 0, {"type": "choose", "iid": apprentice})


def test_ac35_banishing_from_the_center_row_picks_one_of_six_and_refills_a34():
    state = new()
    (warlord,) = set_hand(state, 0, ["Abyssal Warlord"])
    state = play(state, 0, warlord)
    assert sorted(state["pending"]["options"]) == sorted(state["row"])
    target = state["row"][3]
    top = state["center"][-1]
    state, _ = act(state, 0, {"type": "choose", "iid": target})
    assert where(state, target) == "void" and state["row"][3] == top
    assert None not in state["row"]


# --- End of turn and reshuffle -------------------------------------------------------------


def _empty_deck(state, seat):
    p = state["players"][seat]
    p["discard"].extend(p["deck"])
    p["deck"] = []


def test_ac36_hand_and_played_heroes_are_discarded_before_drawing_a38():
    state = new()
    cards = set_hand(
        state, 0, ["Gloam Reaver", "Mystic", "Heavy Infantry", "Apprentice", "Militia"]
    )
    for iid in cards[:3]:
        state = play(state, 0, iid)
    deck_before = state["players"][0]["deck"][:]
    state, events = act(state, 0, {"type": "end_turn"})
    p = state["players"][0]
    assert sorted(p["discard"]) == sorted(cards)
    assert "reshuffle" not in [e["type"] for e in events]
    assert p["hand"] == deck_before[::-1][:5]


def test_ac37_unspent_runes_and_power_are_lost_at_end_of_turn_a38():
    state = new()
    state["players"][0]["runes"], state["players"][0]["power"] = 4, 3
    state = end_turn(state, 0)
    assert (state["players"][0]["runes"], state["players"][0]["power"]) == (0, 0)


def test_ac38_the_player_draws_exactly_5_at_end_of_turn_a38():
    state = new()
    state = play(state, 0, state["players"][0]["hand"][0])
    assert len(state["players"][0]["hand"]) == 4
    state = end_turn(state, 0)
    assert len(state["players"][0]["hand"]) == 5


def test_ac39_an_empty_deck_is_rebuilt_from_the_shuffled_discard_pile_a39():
    state = new()
    (scholar,) = set_hand(state, 0, ["Lantern Scholar"])
    _empty_deck(state, 0)
    p = state["players"][0]
    discard = sorted(p["discard"])
    state, events = act(state, 0, {"type": "play", "iid": scholar})
    assert [e["type"] for e in events][-2:] == ["reshuffle", "draw"]
    p = state["players"][0]
    assert p["discard"] == [] and len(p["hand"]) == 1
    assert sorted(p["deck"] + p["hand"]) == discard


def test_ac40_a_mid_turn_reshuffle_leaves_out_the_cards_played_this_turn_a39():
    state = new()
    reaver1, reaver2, cantor = set_hand(
        state, 0, ["Gloam Reaver", "Gloam Reaver", "Skyglass Cantor"]
    )
    _empty_deck(state, 0)
    state = play(state, 0, reaver1)
    state = play(state, 0, reaver2)
    discard = sorted(state["players"][0]["discard"])
    state, events = act(state, 0, {"type": "play", "iid": cantor})
    assert [e["type"] for e in events][-2:] == ["reshuffle", "draw"]
    p = state["players"][0]
    assert sorted(p["deck"] + p["hand"]) == discard  # exactly the old discard pile
    assert reaver1 in p["played"] and reaver2 in p["played"]
    assert reaver1 not in p["deck"] + p["hand"] and reaver2 not in p["deck"] + p["hand"]
    assert len(p["hand"]) == 2


def test_ac41_revealing_from_an_empty_deck_reshuffles_first_a39_aa9():
    state = new()
    (archivist,) = set_hand(state, 0, ["Veil Archivist"])
    _empty_deck(state, 0)
    state, events = act(state, 0, {"type": "play", "iid": archivist})
    kinds = [e["type"] for e in events]
    assert kinds.index("reshuffle") < kinds.index("reveal")
    revealed = next(e for e in events if e["type"] == "reveal")
    assert state["players"][0]["deck"][-1] == revealed["iid"]  # it stays on top


def test_ac42_a_deck_of_3_draws_3_reshuffles_the_discard_then_draws_2_a38_a39():
    state = new()
    p = state["players"][0]
    three = p["deck"][-3:]
    p["discard"].extend(p["deck"][:-3])
    p["deck"] = three
    reaver = to_hand(state, 0, "Gloam Reaver")
    state = play(state, 0, reaver)
    state, events = act(state, 0, {"type": "end_turn"})
    p = state["players"][0]
    assert [e["type"] for e in events][:3] == ["reshuffle", "draw", "end_turn"]
    assert set(three) <= set(p["hand"]) and len(p["hand"]) == 5
    # This turn's discards (hand and the played Reaver) were in the reshuffle.
    assert reaver in p["hand"] + p["deck"]


def test_ac43_an_empty_center_deck_is_rebuilt_from_the_void_without_starter_cards_a40():
    state = new()
    target = to_row(state, "Gloam Reaver", 0)
    state["void"], state["center"] = state["center"], []
    apprentice = pick(state, "Apprentice", 1)
    state["players"][1]["deck"].remove(apprentice)
    state["void"].append(apprentice)  # got there by mistake: removed before shuffling
    mystic = state["piles"][MYSTIC].pop()
    state["void"].append(mystic)
    void_center_cards = set(state["void"]) - {apprentice, mystic}
    state["players"][0]["runes"] = 3
    state, events = act(state, 0, {"type": "acquire", "iid": target})
    assert "void_reshuffled" in [e["type"] for e in events]
    assert where(state, apprentice) == "box" and where(state, mystic) == f"pile.{MYSTIC}"
    assert state["void"] == []
    assert set(state["center"]) | {state["row"][0]} == void_center_cards


def test_ac44_the_row_is_full_again_before_the_next_decision_a57():
    state = new()
    (executioner,) = set_hand(state, 0, ["Umbral Executioner"])
    wraith = to_row(state, "Rust Wraith", 0)
    state = play(state, 0, executioner)
    assert state["pending"]["kind"] == "defeat_free"
    state, _ = act(state, 0, {"type": "choose", "iid": wraith})
    # The Wraith's reward asks for a center-row banish: the row is already refilled.
    assert state["pending"]["kind"] == "banish" and None not in state["row"]
    assert sorted(state["pending"]["options"]) == sorted(state["row"])


def test_center_deck_and_void_both_empty_leave_the_slot_empty_aa7():
    state = new()
    target = to_row(state, "Gloam Reaver", 2)
    state["box"].extend(state["center"])  # not a rules move: only to empty the center deck
    state["center"] = []
    state["players"][0]["runes"] = 9
    state, _ = act(state, 0, {"type": "acquire", "iid": target})
    assert state["row"][2] is None
    state["players"][0]["power"] = 9
    monster = next(i for i in state["row"] if i is not None and S.card(state, i).type == "monster")
    slot = state["row"].index(monster)
    state, _ = act(state, 0, {"type": "defeat", "iid": monster})
    # to the Void, then the refill rebuilds the center deck from the Void.
    assert state["row"][slot] == monster
