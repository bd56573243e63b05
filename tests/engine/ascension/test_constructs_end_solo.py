"""Checklist AC-45..AC-66 of ascension_dbg.md: Constructs, special rewards, the end of the
game, Unite and the solo game against Samael."""

from __future__ import annotations

import pytest

from engine.ascension.bots import make_bot
from engine.core.errors import IllegalAction, NotYourTurn
from tests.engine.ascension.helpers import (
    S,
    act,
    cid,
    end_turn,
    iids_in,
    new,
    play,
    set_hand,
    to_hand,
    to_row,
    to_zone,
    where,
)

CULTIST = cid("Cultist")


# --- Constructs and once-per-turn ----------------------------------------------------------


def test_ac45_a_construct_cannot_be_used_on_another_players_turn_a58():
    state = new()
    hound = to_zone(state, 1, "constructs", "Rivet Hound")
    assert S.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn) as err:
        S.apply(state, 1, {"type": "activate", "iid": hound})
    assert err.value.rule == "A-22"
    state = end_turn(state, 0)
    assert {"type": "activate", "iid": hound} in S.legal_actions(state, 1)


def test_ac46_the_dawn_lens_draw_is_not_forced_and_can_be_used_later_a59():
    state = new()
    lens = to_zone(state, 1, "constructs", "Dawn Lens")
    state = end_turn(state, 0)
    assert len(state["players"][1]["hand"]) == 5 and state["pending"] is None
    state = play(state, 1, state["players"][1]["hand"][0])
    state, _ = act(state, 1, {"type": "activate", "iid": lens})
    assert len(state["players"][1]["hand"]) == 5


def test_ac47_a_once_per_turn_effect_cannot_be_used_twice_a59_aa12():
    state = new()
    hound = to_zone(state, 0, "constructs", "Rivet Hound")
    state, _ = act(state, 0, {"type": "activate", "iid": hound})
    assert state["players"][0]["power"] == 1
    assert {"type": "activate", "iid": hound} not in S.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        S.apply(state, 0, {"type": "activate", "iid": hound})
    assert err.value.rule == "A-59"
    state = end_turn(end_turn(state, 0), 1)
    state, _ = act(state, 0, {"type": "activate", "iid": hound})  # a new turn
    assert state["players"][0]["power"] == 1


def test_ac48_a_player_controlling_one_construct_keeps_it_a61():
    state = new()
    hound = to_zone(state, 1, "constructs", "Rivet Hound")
    to_row(state, "Drowned Sovereign", 0)
    state["players"][0]["power"] = 6
    state, _ = act(state, 0, {"type": "defeat", "iid": state["row"][0]})
    assert state["pending"] is None and S.to_act(state) == (0,)
    assert where(state, hound) == "p1.constructs"


# --- Special rewards -------------------------------------------------------------------------


def _defeat_trickster(n=3):
    state = new(n)
    to_row(state, "Mistral Trickster", 0)
    state["players"][0]["power"] = 6
    hands = {seat: state["players"][seat]["hand"][:] for seat in range(1, n)}
    state, events = act(state, 0, {"type": "defeat", "iid": state["row"][0]})
    return state, events, hands


def test_ac49_the_trickster_takes_a_random_card_from_each_opponents_hand_a62():
    state, events, hands = _defeat_trickster(3)
    mine = state["players"][0]["hand"]
    assert len(mine) == 5 + 2
    for seat in (1, 2):
        taken = set(hands[seat]) - set(state["players"][seat]["hand"])
        assert len(taken) == 1 and taken <= set(mine)
    assert [e["from"] for e in events if e["type"] == "steal"] == [1, 2]


def test_ac50_victims_draw_no_replacements_and_the_taken_cards_stay_the_takers_a62():
    state, _, hands = _defeat_trickster(3)
    assert [len(state["players"][s]["hand"]) for s in (1, 2)] == [4, 4]
    taken = [i for i in state["players"][0]["hand"] if i in hands[1] + hands[2]]
    state = end_turn(state, 0)
    assert all(where(state, i) in ("p0.discard", "p0.hand", "p0.deck") for i in taken)
    state = end_turn(state, 1)
    assert len(state["players"][1]["hand"]) == 5  # only the normal end-of-turn draw
    assert all(where(state, i).startswith("p0.") for i in taken)


# --- End of the game -------------------------------------------------------------------------


def _take_last_token(state, seat):
    state["pool"] = 1
    state["pool_start"] = 1 + sum(p["honor"] for p in state["players"])
    state["players"][seat]["power"] = 2
    state, _events = act(state, seat, {"type": "defeat", "pile": CULTIST})
    assert state["pool"] == 0 and state["ending"]
    return state


def test_ac51_when_the_second_player_empties_the_pool_the_third_still_plays_a41():
    state = end_turn(new(3), 0)
    state = _take_last_token(state, 1)
    state = end_turn(state, 1)
    assert not state["finished"] and S.to_act(state) == (2,)
    state = end_turn(state, 2)
    assert state["finished"] and S.to_act(state) == ()
    assert S.result(state).finished


def test_ac52_when_the_last_player_empties_the_pool_the_game_ends_after_their_turn_a41():
    state = end_turn(end_turn(new(3), 0), 1)
    state = _take_last_token(state, 2)
    assert not state["finished"]
    state = end_turn(state, 2)
    assert state["finished"]


def test_ac53_honor_is_still_gained_from_the_box_when_the_pool_is_empty_a42_a55():
    state = new()
    state = _take_last_token(state, 0)
    lurker = to_row(state, "Bog Lurker", 0)
    state["players"][0]["power"] = 3
    before = state["players"][0]["honor"]
    state, _ = act(state, 0, {"type": "defeat", "iid": lurker})
    assert state["players"][0]["honor"] == before + 2
    assert state["pool"] == 0 and state["reserve"] == 2


def test_ac54_the_score_is_card_honor_everywhere_plus_tokens_a43():
    state = new()
    p = state["players"][0]
    p["honor"] = 7
    to_zone(state, 0, "hand", "Mystic")  # 1
    to_zone(state, 0, "deck", "Luminous Magister")  # 4
    to_zone(state, 0, "discard", "Oakheart Giant")  # 3
    to_zone(state, 0, "constructs", "Brass Colossus")  # 3
    to_zone(state, 0, "played", "Prism Oracle")  # 2
    assert S.score(state, 0) == 7 + 1 + 4 + 3 + 3 + 2  # starter cards count 0 (AA-13)
    state["pool"] = 0
    state["ending"] = True
    state["pool_start"] = 7
    state = end_turn(end_turn(state, 0), 1)
    assert state["finished"] and S.result(state).scores[0] == 20


def _finish_with(n, tokens, first=0):
    state = new(n, first=first)
    for seat, honor in enumerate(tokens):
        state["players"][seat]["honor"] = honor
    state["pool"] = 0
    state["pool_start"] = sum(tokens)
    state["ending"] = True
    for k in range(n):
        state = end_turn(state, (first + k) % n)
    assert state["finished"]
    return S.result(state)


def test_ac55_the_player_with_more_honor_wins_a43():
    result = _finish_with(2, [40, 38])
    assert result.winners == (0,) and result.scores == {0: 40, 1: 38} and not result.draw
    assert _finish_with(2, [38, 40]).winners == (1,)


def test_ac56_a_tie_goes_to_the_player_who_took_a_turn_later_a44_aa4():
    result = _finish_with(3, [30, 20, 30])
    assert result.winners == (2,)
    # Seats are counted from the first player: with seat 2 first, seat 0 plays later.
    assert _finish_with(3, [30, 20, 30], first=2).winners == (0,)
    state = new(3)
    for seat, honor in enumerate([30, 20, 30]):
        state["players"][seat]["honor"] = honor
    assert S.placements(state) == [2, 0, 1]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ac57_every_player_has_taken_the_same_number_of_turns_at_the_end_a41(n):
    for seed in range(3):
        state = S.new_game({"players": n}, [], seed)
        bots = [make_bot("heuristic", S, seed * 10 + i) for i in range(n)]
        while not state["finished"]:
            (seat,) = S.to_act(state)
            state, _ = S.apply(state, seat, bots[seat].choose(state, seat))
        turns = {p["turns"] for p in state["players"]}
        assert len(turns) == 1, turns


# --- Unite ---------------------------------------------------------------------------------


def test_ac58_unite_triggers_once_when_another_hero_of_the_faction_follows_a46_aa3():
    state = new()
    tender, herald, herald2 = set_hand(
        state, 0, ["Thornroot Tender", "Mossback Herald", "Mossback Herald"]
    )
    state = play(state, 0, tender)
    assert state["players"][0]["honor"] == 0
    state = play(state, 0, herald)
    assert state["players"][0]["honor"] == 1  # Unite: gain 1 honor
    state = play(state, 0, herald2)
    assert state["players"][0]["honor"] == 1  # at most once per turn


def test_ac59_unite_does_not_trigger_for_a_hero_of_another_faction_a46_aa3():
    state = new()
    tender, courier = set_hand(state, 0, ["Thornroot Tender", "Steam Courier"])
    state = play(state, 0, tender)
    state = play(state, 0, courier)
    assert state["players"][0]["honor"] == 0


def test_unite_does_not_look_back_at_heroes_played_earlier_aa3():
    state = new()
    herald, tender = set_hand(state, 0, ["Mossback Herald", "Thornroot Tender"])
    state = play(state, 0, herald)
    state = play(state, 0, tender)
    assert state["players"][0]["honor"] == 0


# --- Solo ----------------------------------------------------------------------------------


def solo(seed=1):
    return S.new_game({"players": 1}, [], seed)


def test_ac60_solo_refill_shifts_the_row_right_and_fills_slot_1_a49():
    state = solo()
    reaver = to_row(state, "Gloam Reaver", 2)
    before = state["row"][:]
    top = state["center"][-1]
    state["players"][0]["runes"] = 3
    state, _ = act(state, 0, {"type": "acquire", "iid": reaver})
    assert state["row"] == [top, before[0], before[1], *before[3:]]


def test_ac61_samael_takes_the_two_rightmost_cards_without_paying_a50():
    state = solo()
    to_row(state, "Gloam Reaver", 4)
    to_row(state, "Prism Oracle", 5)
    slot5, slot6 = state["row"][4], state["row"][5]
    state = end_turn(state, 0)
    assert state["samael"]["cards"] == [slot6, slot5]
    assert state["players"][0]["turns"] == 1 and S.to_act(state) == (0,)


def test_ac62_samaels_heroes_are_set_aside_and_count_for_him_a50():
    state = solo()
    to_row(state, "Luminous Magister", 4)  # honor value 4
    to_row(state, "Oakheart Giant", 5)  # honor value 3
    state = end_turn(state, 0)
    assert S.samael_score(state) == 7
    assert all(where(state, i) == "samael" for i in state["samael"]["cards"])


def test_ac63_samael_gains_only_the_honor_of_a_defeated_monster_a50_aa6():
    state = solo()
    wyrm = to_row(state, "Thunder Wyrm", 5)  # 3 honor + draw a card
    to_row(state, "Gloam Reaver", 4)
    state = end_turn(state, 0)
    assert where(state, wyrm) == "void"
    assert state["samael"]["honor"] == 3 and state["pool"] == 47
    assert len(state["players"][0]["hand"]) == 5


@pytest.mark.parametrize(("cultists", "player_wins"), [(10, True), (3, False)])
def test_ac64_the_pool_running_out_on_samaels_turn_ends_the_game_then_a51(cultists, player_wins):
    """The player takes ``cultists`` honor (Cultists, A-53) leaving 3 in the pool; Samael
    then defeats the Mountain Devourer (4 honor: the last 3 tokens and 1 from the box) and
    takes the Luminous Magister (honor value 4): 8 for Samael. The game ends at the end of
    that Samael turn and the totals decide: 10 beats 8, 3 does not."""
    state = S.new_game({"players": 1, "honor_pool": cultists + 3}, [], 1)
    magister = to_row(state, "Luminous Magister", 4)
    devourer = to_row(state, "Mountain Devourer", 5)
    state["players"][0]["power"] = 2 * cultists
    for _ in range(cultists):
        state, _ = act(state, 0, {"type": "defeat", "pile": CULTIST})
    assert state["pool"] == 3 and not state["ending"]
    state, events = act(state, 0, {"type": "end_turn"})
    kinds = [e["type"] for e in events]
    # The pool empties during Samael's turn, and the game ends with that turn.
    assert kinds.index("samael_turn") < kinds.index("pool_empty") < kinds.index("game_over")
    assert kinds[-1] == "game_over"
    assert state["samael"]["cards"] == [magister] and where(state, devourer) == "void"
    assert state["finished"] and state["pool"] == 0 and state["reserve"] == 1
    assert state["players"][0]["turns"] == 1 and state["round"] == 1
    assert S.to_act(state) == () and S.legal_actions(state, 0) == []
    # Totals compared: the player's tokens against Samael's honor and card values.
    assert state["samael_score"] == S.samael_score(state) == 4 + 4
    result = S.result(state)
    assert result.finished and result.scores == {0: cultists}
    assert result.winners == ((0,) if player_wins else ())
    assert events[-1]["winners"] == list(result.winners)


def _solo_final(player, samael):
    state = solo()
    state["players"][0]["honor"] = player
    state["samael"]["honor"] = samael
    state["pool"] = 0
    state["pool_start"] = player + samael
    state["ending"] = True
    state = end_turn(state, 0)
    assert state["finished"] and state["samael_score"] == samael
    return S.result(state)


def test_ac65_a_solo_tie_is_not_a_win_a51():
    result = _solo_final(30, 30)
    assert result.winners == () and not result.draw and result.scores == {0: 30}


def test_ac66_a_solo_player_with_more_honor_wins_a51():
    assert _solo_final(31, 30).winners == (0,)


def test_solo_game_ends_at_the_end_of_the_players_turn_that_empties_the_pool_a51():
    state = solo()
    state["pool"] = 1
    state["pool_start"] = 1
    state["players"][0]["power"] = 2
    state, _ = act(state, 0, {"type": "defeat", "pile": CULTIST})
    samael_before = state["samael"]["cards"][:]
    state = end_turn(state, 0)
    assert state["finished"] and state["samael"]["cards"] == samael_before


def test_hand_is_kept_secret_from_the_other_players():
    state = new()
    hound = to_hand(state, 1, "Rivet Hound")
    view = S.view(state, 0)
    assert view["players"][1]["hand"] == 5 + 1
    assert hound not in iids_in(view)
    assert hound in iids_in(S.view(state, 1))
