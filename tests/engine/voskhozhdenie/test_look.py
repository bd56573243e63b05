"""The "look_at_top" effect: the looked-at cards are shown privately to that player."""

from __future__ import annotations

import json

import pytest

from engine.voskhozhdenie.cards import Cost
from tests.engine.voskhozhdenie.helpers import (
    act,
    card,
    deck,
    game,
    new_system,
    shown_iids,
    start,
    to_actions,
)

PEEK = card(
    "ORD-PEEK",
    "order",
    cost=Cost(0),
    abilities=({"kind": "dynamic", "effects": [{"op": "look_at_top", "count": 2}]},),
)


def _looked(system, state, viewer, seat):
    return system.view(state, viewer)["players"][seat]["looked_at"]


@pytest.mark.rule("1.4.2.6", "1.4.2.7")
def test_looked_at_cards_are_shown_only_to_that_player():
    system = new_system(PEEK)
    s = to_actions(system, start(system, decks=[deck(reinforcement=["ORD-PEEK"]), deck()]))
    me = s["active"]
    other = 1 - me
    top = s["players"][me]["main"][:2]
    assert _looked(system, s, me, me) == []  # nothing looked at yet
    peek = s["players"][me]["reinforcement"][0]
    before = json.dumps(s, sort_keys=True)
    new, events = system.apply(s, me, {"type": "play", "iid": peek})
    assert json.dumps(s, sort_keys=True) == before  # the input state is untouched
    json.loads(json.dumps(new))  # still plain JSON
    # Everyone learns that they looked, and how many cards; not which.
    (event,) = [e for e in events if e["type"] == "look_at_top"]
    assert event == {"type": "look_at_top", "player": me, "count": 2}
    shown = _looked(system, new, me, me)
    assert [c["iid"] for c in shown] == top
    assert [c["card"] for c in shown] == [new["cards"][i]["card"] for i in top]
    # Nobody else sees them: not the opponent, not a spectator.
    assert _looked(system, new, other, me) is None
    assert _looked(system, new, None, me) is None
    assert _looked(system, new, me, other) is None
    for viewer in (other, None):
        assert not set(top) & shown_iids(system.view(new, viewer))


@pytest.mark.rule("1.4.2.6")
def test_looked_at_cards_leave_the_view_once_they_leave_the_main_deck():
    system = new_system()
    s = json.loads(json.dumps(to_actions(system, start(system))))
    me = 0
    g = game(system, s)
    g.push([{"op": "look_at_top", "count": 3}], {"controller": me})
    g.advance()
    top = s["players"][me]["main"][:3]
    assert [c["iid"] for c in _looked(system, s, me, me)] == top
    g.draw(me, 1)  # the first one is now in the hand (shown there)
    assert [c["iid"] for c in _looked(system, s, me, me)] == top[1:]
    # Looking again replaces what was seen; asking for more than the deck shows it all.
    g.push([{"op": "look_at_top", "count": 99}], {"controller": me})
    g.advance()
    assert [c["iid"] for c in _looked(system, s, me, me)] == s["players"][me]["main"]


@pytest.mark.rule("AMB-01")
def test_shuffling_the_main_deck_forgets_what_was_looked_at():
    system = new_system()
    s = start(system, config={"options": {"mulligan": "shuffle"}})
    s = act(system, s, {"type": "first_player", "seat": 0})
    seat = s["pending"]["player"]
    s["pending"] = None
    g = game(system, s)
    g.push([{"op": "look_at_top", "count": 2}], {"controller": seat})
    g.advance()  # the look, then the same player is asked to mulligan again
    assert s["pending"]["kind"] == "mulligan" and s["pending"]["player"] == seat
    assert len(_looked(system, s, seat, seat)) == 2
    s = act(system, s, {"type": "mulligan", "iid": s["players"][seat]["hand"][0]}, seat)
    assert _looked(system, s, seat, seat) == []
