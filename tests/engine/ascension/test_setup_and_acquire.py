"""Checklist AC-01..AC-21 of ascension_dbg.md: setup, playing cards, acquiring."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.core.errors import IllegalAction
from tests.engine.ascension.helpers import (
    S,
    act,
    check_invariants,
    cid,
    end_turn,
    iids_in,
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


# --- Setup -------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "pool"), [(2, 60), (3, 90), (4, 120)])
def test_ac01_honor_pool_is_30_per_player_a11(n, pool):
    state = new(n)
    assert state["pool"] == pool
    check_invariants(state)


def test_ac02_solo_honor_pool_is_50_a47():
    state = S.new_game({"players": 1}, [], 3)
    assert state["pool"] == 50
    assert state["samael"] == {"cards": [], "honor": 0}


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_ac03_each_player_starts_with_8_apprentices_and_2_militia_a6(n):
    state = new(n)
    for p in state["players"]:
        names = Counter(S.info[state["cards"][i]].name_en for i in p["hand"] + p["deck"])
        assert names == {"Apprentice": 8, "Militia": 2}
        assert p["discard"] == p["played"] == p["constructs"] == []


def test_ac04_five_cards_in_hand_five_in_the_deck_a7():
    for seed in range(5):
        state = new(4, seed)
        for p in state["players"]:
            assert len(p["hand"]) == 5
            assert len(p["deck"]) == 5
            # The deck is face down: every view shows its size only, never its cards.
            for viewer in (None, *range(4)):
                shown = S.view(state, viewer)["players"][p["seat"]]
                assert shown["deck"] == 5
                assert not set(p["deck"]) & iids_in(S.view(state, viewer))


def test_ac05_always_available_piles_20_mystic_20_heavy_infantry_1_cultist_a8_a4():
    state = new()
    piles = state["piles"]
    assert sorted(piles) == sorted([MYSTIC, HEAVY, CULTIST])  # three separate piles
    # Each pile holds only its own card, 20 + 20 + 1 = 41 silver-bordered cards.
    assert {key: Counter(state["cards"][i] for i in pile) for key, pile in piles.items()} == {
        MYSTIC: {MYSTIC: 20},
        HEAVY: {HEAVY: 20},
        CULTIST: {CULTIST: 1},
    }
    assert sum(len(pile) for pile in piles.values()) == 41
    in_piles = {i for pile in piles.values() for i in pile}
    assert not in_piles & set(state["center"] + state["row"])
    for p in state["players"]:
        assert not in_piles & set(p["hand"] + p["deck"])
    # Face up: every seat and a spectator see which card each pile is and how many are left.
    for seat in (0, 1, None):
        assert S.view(state, seat)["piles"] == {MYSTIC: 20, HEAVY: 20, CULTIST: 1}
    # On their spaces on the board: a player may acquire or defeat them on their turn.
    state["players"][0]["runes"], state["players"][0]["power"] = 3, 2
    legal = S.legal_actions(state, 0)
    for action in (
        {"type": "acquire", "pile": MYSTIC},
        {"type": "acquire", "pile": HEAVY},
        {"type": "defeat", "pile": CULTIST},
    ):
        assert action in legal


def test_ac06_center_deck_face_down_and_six_card_center_row_a9_a10():
    state = new()
    assert len(state["row"]) == 6 and None not in state["row"]
    assert len(state["center"]) == 100 - 6
    for seat in (0, 1, None):
        view = S.view(state, seat)
        assert view["center"] == 94  # a count only: the order is hidden
        assert [slot["iid"] for slot in view["row"]] == state["row"]


def test_ac07_turns_go_clockwise_from_a_random_first_player_a12():
    firsts = {S.new_game({"players": 4}, [], seed)["first"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = S.new_game({"players": 4}, [], 11)
    seat = state["first"]
    for _ in range(6):
        state = end_turn(state, seat)
        seat = (seat + 1) % 4
        assert state["active"] == seat
        assert S.to_act(state) == (seat,)


def test_ac08_card_text_beats_the_rulebook_gravebloom_puts_card_on_deck_top_a5_a26():
    """A-26 puts acquired cards in the discard pile; Gravebloom Horror's text says the top
    of the deck, and the card text wins (A-5)."""
    state = new()
    to_row(state, "Gravebloom Horror", 0)
    hero = to_row(state, "Gloam Reaver", 1)
    state["players"][0]["power"] = 7
    state, _ = act(state, 0, {"type": "defeat", "iid": state["row"][0]})
    assert state["pending"]["kind"] == "acquire_free"
    state, _ = act(state, 0, {"type": "choose", "iid": hero})
    assert state["players"][0]["deck"][-1] == hero
    assert hero not in state["players"][0]["discard"]


# --- Playing cards -------------------------------------------------------------------------


def test_ac09_a_played_hero_resolves_at_once_and_its_choice_is_made_then_a17_a23():
    state = new()
    adept, acolyte = set_hand(state, 0, ["Starwell Adept", "Ashen Acolyte"])
    state = play(state, 0, adept)
    assert state["players"][0]["runes"] == 1 and len(state["players"][0]["hand"]) == 2
    state = play(state, 0, acolyte)
    assert state["players"][0]["power"] == 1
    assert state["pending"]["kind"] == "banish"
    actions = S.legal_actions(state, 0)
    assert actions and all(a["type"] == "choose" for a in actions)
    with pytest.raises(IllegalAction) as err:
        S.apply(state, 0, {"type": "end_turn"})
    assert err.value.rule == "A-23"


def test_ac10_runes_from_a_card_pay_for_a_later_acquisition_a23():
    state = new()
    (mystic,) = set_hand(state, 0, ["Mystic"])
    state = play(state, 0, mystic)
    state["players"][0]["runes"] += 1
    hero = to_row(state, "Gloam Reaver", 2)
    state, _ = act(state, 0, {"type": "acquire", "iid": hero})
    assert state["players"][0]["runes"] == 0
    assert where(state, hero) == "p0.discard"


def test_ac11_a_played_hero_goes_to_the_discard_pile_at_end_of_turn_a17_a38():
    state = new()
    (reaver,) = set_hand(state, 0, ["Gloam Reaver"])
    state = play(state, 0, reaver)
    assert where(state, reaver) == "p0.played"
    state = end_turn(state, 0)
    assert where(state, reaver) == "p0.discard"


def test_ac12_a_played_construct_stays_in_play_after_the_turn_a18():
    state = new()
    (hound,) = set_hand(state, 0, ["Rivet Hound"])
    state = play(state, 0, hound)
    state = end_turn(state, 0)
    state = end_turn(state, 1)
    assert where(state, hound) == "p0.constructs"


def test_ac13_only_a_construct_in_play_is_controlled_a20():
    """Gearwright: "if you control at least 1 Construct, gain 1 rune"."""
    for zone in ("hand", "deck", "discard"):
        state = new()
        (gear,) = set_hand(state, 0, ["Gearwright"])
        hound = to_zone(state, 0, zone, "Rivet Hound")
        state = play(state, 0, gear)
        assert state["players"][0]["runes"] == 1, zone
        if zone == "hand":
            with pytest.raises(IllegalAction) as err:
                S.apply(state, 0, {"type": "activate", "iid": hound})
            assert err.value.rule == "A-20"
    state = new()
    (gear,) = set_hand(state, 0, ["Gearwright"])
    to_zone(state, 0, "constructs", "Rivet Hound")
    state = play(state, 0, gear)
    assert state["players"][0]["runes"] == 2


def test_ac14_a_destroyed_construct_goes_at_once_to_its_players_discard_pile_a19():
    state = new()
    keep = to_zone(state, 1, "constructs", "Brass Colossus")
    lost = to_zone(state, 1, "constructs", "Rivet Hound")
    to_row(state, "Drowned Sovereign", 0)
    state["players"][0]["power"] = 6
    state, _ = act(state, 0, {"type": "defeat", "iid": state["row"][0]})
    assert S.to_act(state) == (1,)  # the victim chooses what to keep
    assert state["pending"]["kind"] == "keep"
    state, events = act(state, 1, {"type": "choose", "iid": keep})
    assert where(state, lost) == "p1.discard"
    assert where(state, keep) == "p1.constructs"
    assert any(e["type"] == "destroy" and e["iid"] == lost for e in events)
    assert S.to_act(state) == (0,)


def test_ac15_acquire_and_defeat_interleave_freely_in_one_turn_a22():
    state = new()
    p = state["players"][0]
    p["runes"], p["power"] = 10, 10
    lurker = to_row(state, "Bog Lurker", 0)
    reaver = to_row(state, "Gloam Reaver", 1)
    state, _ = act(state, 0, {"type": "defeat", "pile": CULTIST})
    state, _ = act(state, 0, {"type": "acquire", "iid": reaver})
    state, _ = act(state, 0, {"type": "defeat", "iid": lurker})
    state, _ = act(state, 0, {"type": "acquire", "pile": MYSTIC})
    state, _ = act(state, 0, {"type": "defeat", "pile": CULTIST})
    assert state["players"][0]["honor"] == 1 + 2 + 1
    assert (state["players"][0]["runes"], state["players"][0]["power"]) == (4, 3)


# --- Acquiring -----------------------------------------------------------------------------


def test_ac16_acquiring_a_cost_3_hero_spends_3_runes_and_goes_to_the_discard_a25_a26():
    state = new()
    state["players"][0]["runes"] = 3
    reaver = to_row(state, "Gloam Reaver", 3)
    assert S.info[state["cards"][reaver]].cost == 3
    state, _ = act(state, 0, {"type": "acquire", "iid": reaver})
    assert state["players"][0]["runes"] == 0
    assert where(state, reaver) == "p0.discard"
    assert reaver not in state["players"][0]["hand"]


def test_ac17_two_runes_cannot_acquire_a_cost_3_card_a25():
    state = new()
    state["players"][0]["runes"] = 2
    reaver = to_row(state, "Gloam Reaver", 3)
    before = json.dumps(state)
    assert {"type": "acquire", "iid": reaver} not in S.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        S.apply(state, 0, {"type": "acquire", "iid": reaver})
    assert err.value.rule == "A-25"
    assert "need 3 runes" in err.value.message
    assert json.dumps(state) == before


def test_ac18_the_center_row_slot_is_refilled_at_once_from_the_center_deck_a28():
    state = new()
    state["players"][0]["runes"] = 3
    reaver = to_row(state, "Gloam Reaver", 4)
    top = state["center"][-1]
    state, events = act(state, 0, {"type": "acquire", "iid": reaver})
    assert state["row"][4] == top
    assert len([c for c in state["row"] if c is not None]) == 6
    assert {"type": "refill", "slot": 4, "iid": top, "card": state["cards"][top]} in events
    assert S.view(state, 1)["row"][4] == {"iid": top, "card": state["cards"][top]}


def test_ac19_acquiring_a_mystic_shrinks_its_pile_and_does_not_refill_the_row_a27():
    state = new()
    state["players"][0]["runes"] = 3
    row, center = state["row"][:], len(state["center"])
    state, _ = act(state, 0, {"type": "acquire", "pile": MYSTIC})
    assert len(state["piles"][MYSTIC]) == 19
    assert state["row"] == row and len(state["center"]) == center
    assert state["cards"][state["players"][0]["discard"][-1]] == MYSTIC


def test_ac20_an_empty_mystic_pile_cannot_be_acquired_from_a56():
    state = new()
    state["players"][1]["discard"].extend(state["piles"][MYSTIC])
    state["piles"][MYSTIC] = []
    state["players"][0]["runes"] = 9
    assert {"type": "acquire", "pile": MYSTIC} not in S.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        S.apply(state, 0, {"type": "acquire", "pile": MYSTIC})
    assert err.value.rule == "A-56"


def test_ac21_three_acquisitions_in_one_turn_are_allowed_a27():
    state = new()
    state["players"][0]["runes"] = 3 + 2 + 3
    reaver = to_row(state, "Gloam Reaver", 0)
    state, _ = act(state, 0, {"type": "acquire", "iid": reaver})
    state, _ = act(state, 0, {"type": "acquire", "pile": HEAVY})
    state, _ = act(state, 0, {"type": "acquire", "pile": MYSTIC})
    assert len(state["players"][0]["discard"]) == 3
    assert state["players"][0]["runes"] == 0


def test_apprentice_gives_one_rune_and_militia_one_power_aa2():
    state = new()
    apprentice = to_hand(state, 0, "Apprentice")
    militia = to_hand(state, 0, "Militia")
    state = play(state, 0, apprentice)
    state = play(state, 0, militia)
    assert (state["players"][0]["runes"], state["players"][0]["power"]) == (1, 1)
    assert pick(state, "Apprentice", 0) != apprentice
