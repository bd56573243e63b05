"""Several replacement abilities for one event (6.3.11, 6.3.12, AMB-31): the owner of the
affected object chooses which one is carried out."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction, NotYourTurn
from engine.voskhozhdenie.bots import make_bot
from engine.voskhozhdenie.cards import Cost
from tests.engine.voskhozhdenie.helpers import (
    card,
    game,
    new_system,
    place,
    shown_iids,
    start,
    to_actions,
)


def _replacement(cid, replaces, effects, type_="squad", strength=3):
    return card(
        cid,
        type_,
        cost=Cost(1),
        strength=strength if type_ == "squad" else None,
        abilities=({"kind": "replacement", "replaces": replaces, "effects": effects},),
    )


# If this Squad would be destroyed, exile it instead.
WRAITH = _replacement(
    "WRAITH",
    {"event": "destroyed", "card": "self"},
    [{"op": "exile", "target": {"select": "self"}}],
)
# If another Squad of yours would be destroyed, return it to its owner's hand instead.
SAINT = _replacement(
    "SAINT",
    {"event": "destroyed", "card": {"type": "squad", "owner": "you", "other": True}},
    [{"op": "return_to_hand", "target": {"select": "event_card"}}],
)
# If an opponent's Squad would be destroyed, put it at the bottom of its owner's deck.
WARDEN = _replacement(
    "WARDEN",
    {"event": "destroyed", "card": {"type": "squad", "owner": "opponent"}},
    [{"op": "to_bottom_of_deck", "target": {"select": "event_card"}}],
    type_="relic",
)
# If you would draw a card, gain 1 coin instead / gain 2 coins instead.
COIN_1 = _replacement(
    "COIN-1", {"event": "drawn", "player": "you"}, [{"op": "gain_coins", "amount": 1}], "relic"
)
COIN_2 = _replacement(
    "COIN-2", {"event": "drawn", "player": "you"}, [{"op": "gain_coins", "amount": 2}], "relic"
)


@pytest.fixture
def system():
    return new_system(WRAITH, SAINT, WARDEN, COIN_1, COIN_2)


def _destroy_with_two_replacements(system):
    """Seat 0 has WRAITH and SAINT; WRAITH takes a lethal wound: both replacements
    apply to its "destroyed" event."""
    s = to_actions(system, start(system))
    wraith = place(system, s, "WRAITH", 0)
    saint = place(system, s, "SAINT", 0)
    g = game(system, s)
    g.wound(wraith, 5)  # 2.3.2.6.1: a wound of at least its Strength destroys it
    g.advance()
    return s, wraith, saint


def _answer(system, s, player, source):
    pending = s["pending"]
    pick = [r["source"] for r in pending["replacements"]].index(source)
    action = {"type": "choose", "choice_id": pending["id"], "picks": [pick]}
    assert action in system.legal_actions(s, player)
    new, events = system.apply(s, player, action)
    return new, events


@pytest.mark.rule("6.3.11", "6.3.12", "AMB-31")
def test_the_owner_chooses_which_replacement_applies_and_it_changes_the_outcome(system):
    s, wraith, saint = _destroy_with_two_replacements(system)
    pending = s["pending"]
    assert pending["kind"] == "replacement" and pending["player"] == 0
    assert pending["event"] == "destroyed" and pending["iid"] == wraith
    assert sorted(r["source"] for r in pending["replacements"]) == [wraith, saint]
    assert s["cards"][wraith]["zone"] == "battlefield"  # nothing happened yet
    assert system.to_act(s) == (0,)
    assert len(system.legal_actions(s, 0)) == 2 and system.legal_actions(s, 1) == []

    to_hand, events = _answer(system, s, 0, saint)
    assert to_hand["cards"][wraith]["zone"] == "hand"  # SAINT's replacement only
    assert {"type": "replaced", "source": saint, "event": "destroyed"} in events
    assert not any(e["type"] == "destroyed" for e in events)  # 6.3.12: prevented

    exiled, events = _answer(system, s, 0, wraith)
    assert exiled["cards"][wraith]["zone"] == "oblivion"  # WRAITH's replacement only
    assert {"type": "replaced", "source": wraith, "event": "destroyed"} in events
    assert to_hand["pending"] is None and exiled["pending"] is None


@pytest.mark.rule("AMB-31")
def test_the_affected_objects_owner_chooses_not_the_sources_owner(system):
    s = to_actions(system, start(system), first=0)
    assert s["active"] == 0
    wraith = place(system, s, "WRAITH", 1)
    warden = place(system, s, "WARDEN", 0)
    g = game(system, s)
    g.wound(wraith, 5)
    g.advance()
    assert s["pending"]["kind"] == "replacement"
    assert s["pending"]["player"] == 1  # WRAITH's owner, though seat 0 is active
    with pytest.raises(NotYourTurn):
        system.apply(s, 0, system.legal_actions(s, 1)[0])
    bottom, _ = _answer(system, s, 1, warden)
    assert bottom["cards"][wraith]["zone"] == "main"
    assert bottom["players"][1]["main"][-1] == wraith  # WARDEN: bottom of its owner's deck


@pytest.mark.rule("6.3.11", "AMB-31")
def test_a_single_replacement_applies_without_a_choice(system):
    s = to_actions(system, start(system))
    wraith = place(system, s, "WRAITH", 0)
    g = game(system, s)
    g.wound(wraith, 5)
    g.advance()
    assert s["pending"] is None or s["pending"]["kind"] != "replacement"
    assert s["cards"][wraith]["zone"] == "oblivion"


@pytest.mark.rule("AMB-31", "6.2")
def test_bad_answers_are_refused_and_change_nothing(system):
    s, _wraith, _saint = _destroy_with_two_replacements(system)
    before = json.dumps(s, sort_keys=True)
    choice = s["pending"]["id"]
    for action in (
        {"type": "choose", "choice_id": choice, "picks": [2]},
        {"type": "choose", "choice_id": choice, "picks": [0, 1]},
        {"type": "choose", "choice_id": choice, "picks": []},
        {"type": "choose", "choice_id": choice + 1, "picks": [0]},
        {"type": "pass"},
    ):
        with pytest.raises(IllegalAction):
            system.apply(s, 0, action)
    assert json.dumps(s, sort_keys=True) == before


@pytest.mark.rule("AMB-31", "1.4.2.6", "1.4.2.7")
def test_view_shows_the_choice_to_the_chooser_only(system):
    s, wraith, saint = _destroy_with_two_replacements(system)
    mine = system.view(s, 0)["pending"]
    assert mine["kind"] == "replacement" and mine["event"] == "destroyed"
    assert mine["affected"]["iid"] == wraith
    assert sorted(r["source"]["iid"] for r in mine["replacements"]) == [wraith, saint]
    assert mine["options"] == [0, 1]
    for viewer in (1, None):
        other = system.view(s, viewer)["pending"]
        assert other == {"player": 0, "kind": "replacement", "event": "destroyed"}


@pytest.mark.rule("AMB-31", "1.4.2.6", "6.3.11")
def test_a_replaced_draw_keeps_the_card_hidden_and_the_choice_decides(system):
    s = to_actions(system, start(system))
    seat = s["active"]
    place(system, s, "COIN-1", seat)
    two = place(system, s, "COIN-2", seat)
    top = s["players"][seat]["main"][0]
    coins = s["players"][seat]["coins"]
    hand = list(s["players"][seat]["hand"])
    g = game(system, s)
    g.draw(seat, 1)
    g.advance()
    assert s["pending"]["kind"] == "replacement" and s["pending"]["player"] == seat
    view = system.view(s, seat)
    assert view["pending"]["affected"] is None  # still the top of the Main Deck
    assert top not in shown_iids(view)
    new, _ = _answer(system, s, seat, two)
    assert new["players"][seat]["coins"] == coins + 2
    assert new["players"][seat]["main"][0] == top and new["players"][seat]["hand"] == hand


@pytest.mark.rule("AMB-31")
def test_bots_answer_the_choice(system):
    s, wraith, _saint = _destroy_with_two_replacements(system)
    action = make_bot("heuristic", system, 1).choose(s, 0)
    new, _ = system.apply(s, 0, action)
    assert new["cards"][wraith]["zone"] == "hand"  # keeps the card rather than exiling it
    for seed in range(4):
        action = make_bot("random", system, seed).choose(s, 0)
        assert action in system.legal_actions(s, 0)
        system.apply(s, 0, action)
