"""Properties over random legal play: no crash, every card in exactly one place, honor
accounting, JSON states, replay, hidden information, input never mutated."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction
from engine.core.protocol import replay
from tests.engine.ascension.helpers import S, act, check_invariants, iids_in


def hidden_from(state: dict, seat: int | None) -> set[int]:
    hidden = set(state["center"])
    for p in state["players"]:
        hidden.update(p["deck"])
        if p["seat"] != seat:
            hidden.update(p["hand"])
    return hidden


# Whole games from a list of picks: slow to run and large to shrink, by design.
LONG_GAMES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check_views(state: dict) -> None:
    for seat in [None, *range(state["n"])]:
        view = S.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert not iids_in(view) & hidden_from(state, seat)
        assert "rng" not in json.dumps(view)


@LONG_GAMES
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(1, 4),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=300),
)
def test_any_legal_sequence_keeps_the_invariants_and_replays(seed, n, picks):
    config = {"players": n}
    state = S.new_game(config, [], seed)
    check_invariants(state)
    log = []
    for k, pick in enumerate(picks):
        if state["finished"]:
            break
        (seat,) = S.to_act(state)
        actions = S.legal_actions(state, seat)
        assert actions, "a player to act always has an action"
        for other in range(n):
            if other != seat:
                assert S.legal_actions(state, other) == []
        action = actions[pick % len(actions)]
        state, _events = act(state, seat, action)  # checks the input and the invariants
        log.append((seat, action))
        if k % 10 == 0:
            check_views(state)
    assert json.loads(json.dumps(state)) == state
    assert replay(S, config, [], seed, log) == state
    check_views(state)


ACTION_TYPES = ["play", "activate", "acquire", "defeat", "end_turn", "choose", "bogus"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    steps=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.sampled_from(ACTION_TYPES),
            st.one_of(st.none(), st.integers(-2, 250), st.text(max_size=3)),
            st.booleans(),
        ),
        max_size=60,
    ),
)
def test_any_action_is_applied_or_rejected_with_illegal_action(seed, steps):
    """Arbitrary (mostly illegal) actions never raise anything but IllegalAction, and a
    rejected action leaves the state unchanged."""
    state = S.new_game({"players": 2}, [], seed)
    for seat, kind, iid, use_pile in steps:
        action = {"type": kind, "iid": iid}
        if use_pile and kind in ("acquire", "defeat"):
            action = {"type": kind, "pile": sorted(state["piles"])[seat % 3]}
        before = json.dumps(state)
        try:
            state, _ = S.apply(state, seat % 2, action)
        except IllegalAction as exc:
            assert exc.message
            assert json.dumps(state) == before
        else:
            check_invariants(state)
        if state["finished"]:
            break


def test_finished_game_accepts_no_action():
    state = S.new_game({"players": 2}, [], 5)
    state["finished"] = True
    assert S.to_act(state) == () and S.legal_actions(state, 0) == []
    try:
        S.apply(state, 0, {"type": "end_turn"})
    except IllegalAction as exc:
        assert exc.rule == "A-41"
    else:
        raise AssertionError("a finished game accepted an action")


def test_whole_random_games_keep_the_invariants_and_replay():
    """Whole games (reshuffles, an emptied center deck, the end) from random legal play."""
    from engine.core.rng import choice, seed_state

    for n, seed in ((1, 1), (2, 2), (3, 3), (4, 4)):
        config = {"players": n}
        state = S.new_game(config, [], seed)
        rng = seed_state(seed)
        log = []
        while not state["finished"]:
            (seat,) = S.to_act(state)
            action = choice(rng, S.legal_actions(state, seat))
            state, _ = S.apply(state, seat, action)
            log.append((seat, action))
            check_invariants(state)
            if len(log) % 50 == 0:
                check_views(state)
        assert replay(S, config, [], seed, log) == state
        assert json.loads(json.dumps(state)) == state
        assert S.result(state).finished


def _is_center_card(state: dict, iid: int) -> bool:
    return S.card(state, iid).pile == "center"


@LONG_GAMES
@given(
    seed=st.integers(0, 2**32),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=300),
)
def test_solo_any_legal_sequence_keeps_the_invariants_and_replays_a47_a51(seed, picks):
    """The solo game on its own (the test above draws 1-4 players): every card in one
    place, Samael's honor in the accounting, only center cards set aside for him (AA-6),
    the pool never below 0, replay equals state."""
    config = {"players": 1}
    state = S.new_game(config, [], seed)
    log = []
    for pick in picks:
        if state["finished"]:
            break
        assert S.to_act(state) == (0,)
        actions = S.legal_actions(state, 0)
        state, _ = act(state, 0, actions[pick % len(actions)])
        log.append((0, actions[pick % len(actions)]))
        assert all(_is_center_card(state, i) for i in state["samael"]["cards"])
        assert state["players"][0]["turns"] == state["round"] - (0 if state["finished"] else 1)
    assert replay(S, config, [], seed, log) == state
    check_views(state)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), n=st.integers(1, 4), pool=st.integers(1, 8))
def test_whole_games_with_a_small_pool_end_by_the_rules_and_replay(seed, n, pool):
    """Random legal play to the end with ``honor_pool`` 1-8: the honor accounting holds at
    every step, the end comes as A-41 / A-51 say, the winner is the one the scores name
    (A-43, A-44, AA-4) and the log replays to the same state."""
    from engine.core.rng import choice, seed_state

    config = {"players": n, "honor_pool": pool}
    state = S.new_game(config, [], seed)
    rng = seed_state(seed)
    log = []
    while not state["finished"]:
        assert len(log) < 20_000, "the game does not end"
        (seat,) = S.to_act(state)
        action = choice(rng, S.legal_actions(state, seat))
        state, _ = S.apply(state, seat, action)
        log.append((seat, action))
        check_invariants(state)
    assert state["pool"] == 0 and state["ending"]
    result = S.result(state)
    scores = [S.score(state, seat) for seat in range(n)]
    assert result.scores == dict(enumerate(scores))
    if n == 1:
        assert result.winners == ((0,) if scores[0] > S.samael_score(state) else ())
    else:
        assert len({p["turns"] for p in state["players"]}) == 1  # a whole round
        best = max(scores)
        tied = [seat for seat in range(n) if scores[seat] == best]
        later = max(tied, key=lambda seat: (seat - state["first"]) % n)
        assert result.winners == (later,)
    assert replay(S, config, [], seed, log) == state
