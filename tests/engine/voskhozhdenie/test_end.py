"""Checklist 3.9 (elimination, win and draw): CK-141..CK-146."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction, InvalidConfig
from tests.engine.voskhozhdenie.helpers import (
    act,
    cities,
    deck,
    game,
    place,
    start,
    to_actions,
)


def _ruin_all(g, s, seat):
    for c in cities(s, seat):
        g.wound(c, 100)


@pytest.mark.rule("1.3.8", "CK-141")
def test_eliminated_players_cards_and_effects_leave_ck141(system):
    s = json.loads(json.dumps(to_actions(system, start(system, n=3), first=0)))
    g = game(system, s)
    sq = place(system, s, "SQ-3", 1)
    g.execute(
        {
            "op": "modify_strength",
            "amount": 2,
            "target": {"select": "all", "filter": {"type": "squad"}},
        },
        {"controller": 1},
    )
    s["tactics"].append(
        {
            "id": 60,
            "iid": None,
            "declarer": 1,
            "defender": 0,
            "battle": False,
            "ready": True,
            "attack": [],
            "defence": [],
        }
    )
    _ruin_all(g, s, 1)
    assert s["players"][1]["eliminated"]
    for c in s["cards"]:
        if c["owner"] == 1:
            assert c["zone"] == "gone"
    for zone in ("main", "hand", "graveyard", "oblivion", "reinforcement"):
        assert s["players"][1][zone] == []
    assert sq not in s["battlefield"]
    assert s["temp"] == []  # their effects end
    assert s["tactics"] == []  # their Tactics are removed (AMB-33)


@pytest.mark.rule("1.3.9", "1.2.5", "CK-142")
def test_two_player_elimination_wins_ck142(system):
    s = json.loads(json.dumps(to_actions(system, start(system))))
    g = game(system, s)
    _ruin_all(g, s, 1)
    r = system.result(s)
    assert r.finished and r.winners == (0,) and not r.draw and r.eliminated == (1,)
    assert system.to_act(s) == ()
    with pytest.raises(IllegalAction):
        system.apply(s, 0, {"type": "pass"})


@pytest.mark.rule("1.2.3", "1.2.5", "CK-143")
def test_team_win_includes_allies_ck143(system):
    s = start(system, n=4, config={"teams": [[0, 2], [1, 3]]})
    s = json.loads(json.dumps(to_actions(system, s)))
    g = game(system, s)
    _ruin_all(g, s, 0)  # an ally of the winners' team falls first...
    assert not s["finished"]
    _ruin_all(g, s, 1)
    assert not s["finished"]
    _ruin_all(g, s, 3)
    r = system.result(s)
    assert r.finished and r.winners == (0, 2)  # ...and still wins with the team
    assert r.eliminated == (0, 1, 3)


@pytest.mark.rule("1.3.10", "CK-144")
def test_simultaneous_last_elimination_is_a_draw_ck144():
    """AMB-34: one effect ruins the last Cities of both players at once."""
    from engine.voskhozhdenie.cards import Cost
    from tests.engine.voskhozhdenie.helpers import card, new_system

    system = new_system(
        card(
            "DOOM",
            "order",
            cost=Cost(0),
            abilities=(
                {
                    "kind": "dynamic",
                    "effects": [
                        {
                            "op": "wound",
                            "amount": 100,
                            "target": {"select": "all", "filter": {"type": "city"}},
                        }
                    ],
                },
            ),
        )
    )
    s = json.loads(json.dumps(to_actions(system, start(system))))
    seat = s["active"]
    doom = place(system, s, "DOOM", seat, "hand")
    s, _events = system.apply(s, seat, {"type": "play", "iid": doom})
    r = system.result(s)
    assert r.finished and r.draw and r.winners == ()
    assert sorted(r.eliminated) == [0, 1]


@pytest.mark.rule("1.3.7", "CK-145")
def test_eliminated_player_plays_the_next_game_ck145(system):
    s = json.loads(json.dumps(to_actions(system, start(system))))
    _ruin_all(game(system, s), s, 1)
    assert s["finished"]
    nxt = start(system, seed=2)
    assert not any(p["eliminated"] for p in nxt["players"])
    assert sorted(system.to_act(to_actions(system, nxt))) != []


@pytest.mark.rule("1.3.6", "1.3.5", "CK-146")
def test_roster_is_fixed_and_needs_two_players_ck146(system):
    with pytest.raises(InvalidConfig):
        system.new_game({}, [deck()], 1)
    s = to_actions(system, start(system))
    for kind in ("join", "leave"):
        with pytest.raises(IllegalAction):
            system.apply(s, s["active"], {"type": kind})
    assert s["n"] == 2 and len(s["players"]) == 2


# ------------------------------------------------ the idle-rounds event rule (1.3.3)


def _play_rounds(system, state, *, act_in_round=None, rounds=40):
    """Answer every question as ``to_actions`` does and pass in every Actions phase, but
    play a card once in Round ``act_in_round``; stop when the game ends."""
    acted = False
    for _ in range(rounds * 60):
        if state["finished"]:
            return state
        seat = system.to_act(state)[0]
        legal = system.legal_actions(state, seat)
        if state["pending"] is None:
            plays = [a for a in legal if a["type"] == "play"]
            if state["round"] == act_in_round and not acted and plays:
                acted = True
                state = act(system, state, plays[0], seat)
            else:
                state = act(system, state, {"type": "pass"}, seat)
            continue
        kind = state["pending"]["kind"]
        if kind == "first_player":
            action = {"type": "first_player", "seat": 0}
        elif kind == "mulligan":
            action = {"type": "keep"}
        elif kind == "decree":
            action = {"type": "decline"}
        else:
            action = legal[0]
        state = act(system, state, action, seat)
        if state["round"] > rounds:
            break
    assert act_in_round is None or acted, "no card could be played in that Round"
    return state


@pytest.mark.rule("1.3.3", "1.3.10")
def test_rounds_in_which_everyone_only_passes_end_the_game_as_a_draw(system):
    state = _play_rounds(system, start(system, config={"idle_rounds": 3}))
    assert state["finished"] and state["draw"] and state["winners"] == []
    assert state["round"] == 3  # Rounds 1, 2 and 3: nobody did anything but pass
    result = system.result(state)
    assert result.finished and result.draw and result.winners == ()
    with pytest.raises(IllegalAction):
        system.apply(state, 0, {"type": "pass"})


@pytest.mark.rule("1.3.3")
def test_a_card_played_starts_the_count_of_idle_rounds_again(system):
    state = _play_rounds(system, start(system, config={"idle_rounds": 3}), act_in_round=2)
    assert state["finished"] and state["draw"]
    assert state["round"] == 5  # Round 2 was not idle: Rounds 3, 4 and 5 were


@pytest.mark.rule("1.3.3")
def test_without_the_event_rule_passing_never_ends_the_game(system):
    state = start(system)
    assert "idle" not in state  # games dealt without it keep their recorded states
    state = _play_rounds(system, state, rounds=15)
    assert not state["finished"] and state["round"] > 12


@pytest.mark.parametrize("bad", [0, -1, 2.5, "10", True])
def test_idle_rounds_must_be_a_whole_number_of_rounds(system, bad):
    with pytest.raises(InvalidConfig, match="idle_rounds"):
        start(system, config={"idle_rounds": bad})


@pytest.mark.rule("1.3.3", "1.3.10")
def test_the_round_limit_ends_the_game_as_a_draw_at_the_end_of_that_round(system):
    state = start(system, config={"round_limit": 4})
    state = _play_rounds(system, state, act_in_round=1)
    assert state["finished"] and state["draw"] and state["round"] == 4
    with pytest.raises(InvalidConfig, match="round_limit"):
        start(system, config={"round_limit": 0})
