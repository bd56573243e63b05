"""The speed-ups of the Tactics engine change nothing (decision 0054): the movement search
over a battlefield's step table finds what the plain search finds (T-39..T-43, D-11), the
copy ``apply`` makes is a deep copy in the same key order, an action sent with a value of
another type is still refused (T-2: only offered actions), and the heuristic bot scores a
cell as it always did (T-64).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction
from engine.tactics import bots, hexes, terrain
from engine.tactics.game import SYSTEM, _clone, _copy, pc
from engine.tactics.hexes import hexagon
from engine.tactics.terrain import EnchantedLand, Terrain, battlefield

R3 = sorted(hexagon(3))
cell3 = st.sampled_from(R3)
token = st.sampled_from([Terrain.FOREST, Terrain.CORRUPTED, Terrain.ENCHANTED, Terrain.SHRINE])


@st.composite
def fields(draw):
    ter = draw(st.dictionaries(cell3, token, max_size=14))
    p1, p2 = draw(st.lists(cell3, min_size=2, max_size=2, unique=True))
    ter = {h: t for h, t in ter.items() if h not in (p1, p2)}
    land = EnchantedLand(impassable=draw(st.booleans()), extra_cost=draw(st.integers(0, 2)))
    return battlefield(hexagon(3), ter, portals={0: [p1], 1: [p2]}, enchanted=land)


def plain_step(bf, a, b):
    """The default step cost given explicitly: the search then takes the plain way."""
    return terrain.enter_cost(bf, b)


@settings(max_examples=150, deadline=None)
@given(fields(), cell3, st.sets(cell3, max_size=6), st.sets(cell3, max_size=4), st.integers(0, 6))
def test_the_step_table_search_finds_what_the_plain_search_finds(bf, start, foes, friends, mp):
    foes, friends = foes - {start}, friends - {start} - foes
    kw = {"enemies": foes, "allies": friends, "seats": (0,)}
    fast = terrain.reachable(bf, start, mp, **kw)
    assert fast == terrain.reachable(bf, start, mp, step_cost=plain_step, **kw)
    assert list(fast) == list(terrain.reachable(bf, start, mp, step_cost=plain_step, **kw))
    assert terrain.movement_costs(bf, start, mp, enemies=foes) == terrain.movement_costs(
        bf, start, mp, enemies=foes, step_cost=plain_step
    )
    for dest in fast:  # the same path, ties broken the same way (D-11)
        assert terrain.path_to(bf, start, dest, mp, **kw) == terrain.path_to(
            bf, start, dest, mp, step_cost=plain_step, **kw
        )


def test_a_remembered_search_hands_out_a_new_dict_each_time():
    bf = battlefield(hexagon(3), {(1, 0): "forest"})
    first = terrain.reachable(bf, (0, 0), 2)
    expected = dict(first)
    first.clear()
    assert terrain.reachable(bf, (0, 0), 2) == expected != {}


@settings(deadline=None)
@given(cell3, cell3)
def test_between_is_the_same_remembered_or_drawn(a, b):
    drawn = tuple(frozenset(ln[1:-1]) for ln in hexes.lines(a, b))
    assert hexes.between(a, b) == drawn
    assert hexes.between(a, b) == drawn  # the second time from the table


def states(config, players, seed, moves=400):
    """The states of one bot game (heuristic against random), every one."""
    names = ["heuristic", "random"] * 2
    seats = [bots.make_bot(names[k], SYSTEM, seed + k) for k in range(players)]
    s = SYSTEM.new_game(config, [None] * players, seed)
    out = [s]
    while not s["finished"] and len(out) < moves:
        seat = SYSTEM.to_act(s)[0]
        s, _ = SYSTEM.apply(s, seat, seats[seat].choose(s, seat))
        out.append(s)
    return out


def shared(a, b, path=""):
    """The paths of the lists and dicts that ``a`` and ``b`` share (the same object)."""
    if type(a) not in (dict, list):
        return []
    if a is b:
        return [path]
    keys = a if type(a) is dict else range(len(a))
    return [p for k in keys for p in shared(a[k], b[k], f"{path}/{k}")]


def test_the_copy_for_apply_is_a_deep_copy_in_the_same_order():
    """Every state of a duel (the draft included), a 2 vs 2 and a solo game against the
    villains: ``_copy`` equals ``_clone``, keeps the key order with ``cards`` last and
    shares nothing mutable but ``cards`` and a finished champion draft."""
    games = [
        states({}, 2, 3),
        states({"teams": [[0, 2], [1, 3]]}, 4, 5, moves=200),
        states({"mode": "solo"}, 1, 7, moves=200),
    ]
    for s in (s for game in games for s in game):
        t = _copy(s)
        assert t == _clone(s) == s
        assert list(t) == [k for k in s if k != "cards"] + ["cards"]
        rest = {k: v for k, v in t.items() if k != "cards"}
        if (s.get("draft") or {}).get("finished"):
            assert t["draft"] is s["draft"]
            rest.pop("draft")
        assert shared(rest, {k: s[k] for k in rest}) == []
        t["players"][0]["hand"].append(-1)  # a change to the copy leaves the state alone
        t["figs"].append({})
        assert t != s


def test_an_action_with_a_value_of_another_type_is_still_refused():
    s = SYSTEM.new_game({"first": 0, "draft": False}, [None, None], 1)
    iid = s["players"][0]["hand"][0]
    assert {"type": "play", "iid": iid} in SYSTEM.legal_actions(s, 0)
    for wrong in (float(iid), str(iid)):
        try:
            SYSTEM.apply(s, 0, {"type": "play", "iid": wrong})
        except IllegalAction as exc:
            assert "as sent" in str(exc)  # the refusal of check_action, as before
        else:  # pragma: no cover - the test fails
            raise AssertionError(f"accepted {wrong!r}")
    SYSTEM.apply(s, 0, {"type": "play", "iid": iid})


def old_cell_score(state, seat, fig, cell):
    """The heuristic bot's cell score as it was first written (one cell at a time)."""
    h = pc(cell)
    shrines = sorted(pc(c) for c, t in state["terrain"].items() if t == "shrine")
    mine = [pc(f["cell"]) for f in SYSTEM.on_board(state, seat) if f["id"] != fig["id"]]
    best = -99.0
    for sh in shrines:
        d = hexes.distance(h, sh)
        crowd = sum(1 for m in mine if hexes.distance(m, sh) <= 1)
        best = max(best, (8.0 if d <= 1 else -d) - 2.5 * crowd)
    for e in SYSTEM.enemies_on_board(state, seat):
        if hexes.distance(pc(e["cell"]), h) == 1:
            best += 0.5
    return best


def test_the_heuristic_bot_scores_cells_as_it_always_did():
    seen = 0
    for s in states({}, 2, 11)[::5]:
        for fig in SYSTEM.on_board(s):
            seat = fig["owner"]
            score = bots._cell_scorer(SYSTEM, s, seat, fig)
            for cell in s["cells"]:
                assert score(cell) == old_cell_score(s, seat, fig, cell)
                seen += 1
    assert seen > 1000
