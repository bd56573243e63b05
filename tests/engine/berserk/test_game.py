"""The Berserk GameSystem (``engine.berserk.game``): the Preliminary Phase, turns, moves,
simple strikes, the end of the game and the views.

Checklist (digest §16): CK-003..CK-009, CK-020..CK-023, CK-028..CK-030, CK-034,
CK-036..CK-039, CK-041, CK-045..CK-050, CK-052, CK-063, CK-066, CK-068, CK-073, CK-075,
CK-076.
Plus hypothesis invariants: every card in exactly one place; replay rebuilds the state;
no hidden card in the opponent's view or in any event; random games end within the turn
limit; ``apply`` never mutates its input.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.berserk import board
from engine.berserk.bots import make_bot
from engine.berserk.game import SYSTEM, random_deck
from engine.berserk.simkit import KIT
from engine.core import rng
from engine.core.errors import IllegalAction, InvalidConfig, NotYourTurn
from engine.core.protocol import GameSystem, leave_action, replay

PLAIN = "BK1-001"  # Steppe Lookout: movement 2, 2 lives, 1-1-2, hunter
STURDY = "BK1-017"  # Teller of Winds: movement 1, 3 lives, 1-1-2, mage
CLASSLESS = "BK1-013"  # Barrow Courier: no class
DIRECTED = "BK1-016"  # Khan's Bodyguard: Directed Strike
FLYER = "BK1-214"  # Hired Griffin: flying, no abilities
CACHE_FLYER = "BK1-213"  # Courier Falcon
INCORPOREAL = "BK1-128"  # Marsh Wisp: Incorporeal, movement 2
X_COST = "BK1-024"  # Child of the Dry Wind: cost X
TERRAIN = "BK1-217"  # Old Highway
SWORD = "BK1-221"  # Plain Sword: equipment, weapon
SYMBIOTE = "BK1-215"  # Guardian Spirit
FILLER = "BK1-012"  # Horse Herder
CAVE_BEAR = "BK1-092"  # Cave Bear: blocks the moves of adjacent enemy creatures


def deck(*ids: str, size: int = 30) -> list[str]:
    return list(ids) + [FILLER] * (size - len(ids))


def start(decks=None, **config) -> dict:
    """A game at the Deal Step, seat 0 chooser and first player."""
    s = SYSTEM.new_game({"chooser": 0, **config}, decks or [deck(), deck()], 7)
    s, _ = SYSTEM.apply(s, 0, {"type": "choose_first", "first": 0})
    return s


def battle(spec, *, active: int = 0, turn: int = 1, first: int = 0) -> dict:
    """A state in the Main Phase with the cards of ``spec`` on the board:
    ``[(seat, card id, cell name or None for the Additional Zone, {piece fields}), ...]``."""
    decks = [deck(*[c for s_, c, *_ in spec if s_ == seat]) for seat in (0, 1)]
    s = SYSTEM.new_game({"chooser": first}, decks, 11)
    s, _ = SYSTEM.apply(s, first, {"type": "choose_first", "first": first})
    for p in s["players"]:
        p["deck"] += p["deal"]
        p["deal"] = []
        p["kept"] = p["done"] = True
    for seat, card_id, cell, *extra in spec:
        p = s["players"][seat]
        iid = next(i for i in p["deck"] if s["cards"][i] == card_id)
        p["deck"].remove(iid)
        piece = SYSTEM._new_piece(seat, None if cell is None else list(board.parse_cell(cell)))
        piece["hidden"] = False
        piece.update(extra[0] if extra else {})
        s["pieces"][str(iid)] = piece
    s.update(phase="main", active=active, turn=turn, round=turn, first=first)
    s["priority"] = {"holder": active, "passes": 0}
    return s


def at(s: dict, cell: str, seat: int | None = None) -> int:
    xy = list(board.parse_cell(cell))
    return next(
        int(k)
        for k, q in s["pieces"].items()
        if q["cell"] == xy and q["host"] is None and (seat is None or q["owner"] == seat)
    )


def rolls_rng(*wanted: int) -> list[int]:
    """A generator state whose next d6 rolls are ``wanted``."""
    for seed in range(200_000):
        state = rng.seed_state(seed)
        probe = state[:]
        if all(rng.randbelow(probe, 6) + 1 == w for w in wanted):
            return state
    raise AssertionError("no seed found")


def do(s, seat, action):
    return SYSTEM.apply(s, seat, action)


def passes(s, n=2):
    events = []
    for _ in range(n):
        s, ev = do(s, s["priority"]["holder"], {"type": "pass"})
        events += ev
    return s, events


def test_system_follows_the_protocol():
    assert isinstance(SYSTEM, GameSystem) and SYSTEM.key == "berserk"
    with pytest.raises(InvalidConfig):
        SYSTEM.new_game({"players": 3}, [None, None, None], 1)
    with pytest.raises(InvalidConfig):
        SYSTEM.new_game({}, [["nope"] * 30, None], 1)


# -- the Preliminary Phase ------------------------------------------------------------


def test_ck03_ck04_crystals_at_the_deal_step():
    """Checklist 3 [101.1, 302.1]: 23 gold and 22 silver each, granted once (D-5);
    checklist 4 [101.3]: the second player has one silver more (23)."""
    s = SYSTEM.new_game({"chooser": 1}, [deck(), deck()], 3)
    s, _ = do(s, 1, {"type": "choose_first", "first": 1})
    first, second = s["players"][1], s["players"][0]
    assert (first["gold"], first["silver"]) == (23, 22)
    assert (second["gold"], second["silver"]) == (23, 23)
    assert all(len(p["deal"]) == 15 for p in s["players"])


def test_turn_order_roll_rerolls_ties_and_the_higher_roller_chooses():
    """302.2, D-9."""
    for seed in range(40):
        s = SYSTEM.new_game({}, [deck(), deck()], seed)
        *ties, (a, b) = s["order_rolls"]
        assert all(x == y for x, y in ties) and a != b
        assert SYSTEM.to_act(s) == ((0 if a > b else 1),)


def test_ck05_the_previous_winner_chooses_without_a_roll():
    """Checklist 5 [302.2]: P2 won the previous game of the match, so P2 chooses."""
    s = SYSTEM.new_game({"chooser": 1}, [deck(), deck()], 3)
    assert s["order_rolls"] == [] and SYSTEM.to_act(s) == (1,)
    with pytest.raises(NotYourTurn):
        do(s, 0, {"type": "choose_first", "first": 0})
    s, events = do(s, 1, {"type": "choose_first", "first": 0})
    assert s["first"] == 0 and events[0] == {"type": "first_player", "seat": 0, "chooser": 1}


def test_ck06_a_redeal_costs_one_gold_and_deals_as_many_cards():
    """Checklist 6 [302.3]."""
    s = start()
    s["players"][0]["gold"] = 5
    before = set(s["players"][0]["deal"]) | set(s["players"][0]["deck"])
    s, _ = do(s, 0, {"type": "redeal"})
    p = s["players"][0]
    assert p["gold"] == 4 and len(p["deal"]) == 15 and p["redeals"] == 1
    assert set(p["deal"]) | set(p["deck"]) == before


def test_ck07_no_redeal_without_gold():
    """Checklist 7 [302.3, D-34]."""
    s = start()
    s["players"][0]["gold"] = 0
    assert {"type": "redeal"} not in SYSTEM.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "redeal"})
    assert info.value.rule == "302.3"


def test_ck08_redeal_order_and_keep():
    """Checklist 8 [302.3а-б]: the second player waits for the first to keep; a player who
    kept redeals no more."""
    s = start()
    with pytest.raises(NotYourTurn):
        do(s, 1, {"type": "redeal"})
    s, _ = do(s, 0, {"type": "keep"})
    with pytest.raises(NotYourTurn):
        do(s, 0, {"type": "redeal"})
    s, _ = do(s, 1, {"type": "redeal"})
    assert s["players"][1]["gold"] == 22


def _to_recruitment(decks=None, **config):
    s = start(decks, **config)
    s, _ = do(s, 0, {"type": "keep"})
    s, _ = do(s, 1, {"type": "keep"})
    return s


def test_ck09_nobody_holds_priority_in_recruitment():
    """Checklist 9 [304.2]."""
    s = _to_recruitment()
    assert s["phase"] == "recruit" and s["priority"] is None
    assert SYSTEM.view(s, 0)["priority"] is None
    with pytest.raises(IllegalAction):
        do(s, 0, {"type": "pass"})


def _recruit_all(s, seat, pick=lambda a: True):
    while True:
        options = [a for a in SYSTEM.legal_actions(s, seat) if a["type"] == "recruit" and pick(a)]
        if not options:
            return do(s, seat, {"type": "recruit_done"})[0]
        s, _ = do(s, seat, options[0])


def test_recruitment_pays_and_the_leftovers_go_back():
    """304.1, 304.7: recruited cards are paid for; the Deal cards left are shuffled back."""
    s = _to_recruitment()
    s = _recruit_all(s, 0)
    p = s["players"][0]
    assert p["recruit"] and p["silver"] < 22 and p["done"]
    s = do(s, 1, {"type": "recruit_done"})[0]
    assert s["phase"] == "place"
    assert all(p["deal"] == [] for p in s["players"])
    assert len(s["players"][1]["deck"]) == 30


def _to_placement(d0, d1, take0, take1, x=None):
    s = _to_recruitment([d0, d1], deal_size=30)  # every card dealt
    for seat, take in ((0, take0), (1, take1)):
        for card_id in take:
            iid = next(i for i in s["players"][seat]["deal"] if s["cards"][i] == card_id)
            action = {"type": "recruit", "card": iid}
            if SYSTEM.card(s, iid).cost_x:
                action["x"] = x
            s, _ = do(s, seat, action)
        s, _ = do(s, seat, {"type": "recruit_done"})
    return s


def _place(s, seat, card_id, cell):
    iid = next(i for i in s["players"][seat]["recruit"] if s["cards"][i] == card_id)
    return do(s, seat, {"type": "place", "card": iid, "cell": cell})


def test_ck20_one_card_per_cell_placed_hidden():
    """Checklist 20 [305.2]: B2 is taken, so placing there is refused; cards are hidden."""
    s = _to_placement(deck(*[PLAIN] * 15), deck(*[PLAIN] * 15), [PLAIN, PLAIN], [PLAIN])
    s, events = _place(s, 0, PLAIN, "B2")
    assert events == [{"type": "place", "seat": 0, "cell": "B2"}]
    assert all(q["hidden"] for q in s["pieces"].values())
    with pytest.raises(IllegalAction) as info:
        _place(s, 0, PLAIN, "B2")
    assert info.value.rule == "305.2"
    with pytest.raises(IllegalAction) as info:
        _place(s, 0, PLAIN, "A1")
    assert info.value.rule == "305.4"


def test_ck21_x_cost_cards_are_revealed_first_with_x():
    """Checklist 21 [306.2(1), 202.4]."""
    s = _to_placement(deck(PLAIN, X_COST), deck(PLAIN), [PLAIN, X_COST], [PLAIN], x=2)
    s, _ = _place(s, 0, PLAIN, "B2")
    s, _ = _place(s, 0, X_COST, "C2")
    s, events = _place(s, 1, PLAIN, "C1'")
    reveals = [e for e in events if e["type"] == "reveal"]
    assert reveals[0]["id"] == X_COST and reveals[0]["x"] == 2 and reveals[0]["cell"] == "C2"
    assert len(reveals) == 3


def test_ck22_the_second_player_may_keep_third_row_creatures_hidden():
    """Checklist 22 [306.2(2), D-22]: a second-player creature on row 3' may stay hidden;
    their equipment may not, nor any first-player card; revealed at the end of turn 1."""
    s = _to_placement(
        deck(PLAIN, STURDY),
        deck(PLAIN, STURDY, SWORD),
        [PLAIN, STURDY],
        [PLAIN, STURDY, SWORD],
    )
    s, _ = _place(s, 0, PLAIN, "C1")
    s, _ = _place(s, 0, STURDY, "C3")
    s, _ = _place(s, 1, PLAIN, "C1'")
    s, _ = _place(s, 1, STURDY, "C3'")
    s, _ = _place(s, 1, SWORD, "B3'")
    assert s["phase"] == "reveal" and SYSTEM.to_act(s) == (1,)
    offered = SYSTEM.legal_actions(s, 1)
    creature = at(s, "C3'")
    assert offered == [{"type": "keep_hidden", "card": creature}, {"type": "reveal_done"}]
    with pytest.raises(IllegalAction):
        do(s, 1, {"type": "keep_hidden", "card": at(s, "B3'")})
    s, events = do(s, 1, {"type": "keep_hidden", "card": creature})
    assert events == [{"type": "keep_hidden", "seat": 1, "cell": "C3'"}]
    s, _ = do(s, 1, {"type": "reveal_done"})
    assert s["pieces"][str(creature)]["hidden"]
    assert not s["pieces"][str(at(s, "C3"))]["hidden"]
    # The sword finds a host (the hunter on C1') or dies; play on to the end of turn 1.
    while s["phase"] == "host":
        seat = SYSTEM.to_act(s)[0]
        s, _ = do(s, seat, SYSTEM.legal_actions(s, seat)[0])
    assert s["turn"] == 1 and s["pieces"][str(creature)]["hidden"]
    s, _ = passes(s, 4)
    assert s["turn"] == 2 and not s["pieces"][str(creature)]["hidden"]


def test_ck23_flyers_and_terrains_go_to_the_additional_zone():
    """Checklist 23 [306.3, 211.2, 212.4]."""
    s = _to_placement(deck(PLAIN, FLYER, TERRAIN), deck(PLAIN), [PLAIN, FLYER, TERRAIN], [PLAIN])
    s, _ = _place(s, 0, PLAIN, "B2")
    s, _ = _place(s, 0, FLYER, "C2")
    s, _ = _place(s, 0, TERRAIN, "D2")
    s, _ = _place(s, 1, PLAIN, "C1'")
    for card_id in (FLYER, TERRAIN):
        iid = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == card_id)
        assert s["pieces"][str(iid)]["cell"] is None
    assert [at(s, "B2")] == SYSTEM._occupants(s, board.parse_cell("B2"))
    assert not SYSTEM._occupants(s, board.parse_cell("C2"))
    assert not SYSTEM._occupants(s, board.parse_cell("D2"))
    assert s["phase"] == "main"


def _host_setup():
    s = _to_placement(deck(PLAIN, SWORD, SYMBIOTE), deck(PLAIN), [PLAIN, SWORD, SYMBIOTE], [PLAIN])
    s, _ = _place(s, 0, PLAIN, "C2")
    s, _ = _place(s, 0, SWORD, "B2")
    s, _ = _place(s, 0, SYMBIOTE, "D2")
    s, _ = _place(s, 1, PLAIN, "C1'")
    return s


def test_ck28_a_possible_host_cannot_be_skipped():
    """Checklist 28 [306.7]."""
    s = _host_setup()
    assert s["phase"] == "host" and SYSTEM.to_act(s) == (0,)
    for action in ({"type": "pass"}, {"type": "reveal_done"}):
        with pytest.raises(IllegalAction) as info:
            do(s, 0, action)
        assert info.value.rule == "306.7"


def test_ck29_ck73_hosts_and_the_graveyard_order():
    """Checklist 29 [210.2, 214.4]: the attached card moves onto its host's cell and its
    cell is left empty; checklist 73 [210.6, 214.8]: host first, then what it carried."""
    s = _host_setup()
    host = at(s, "C2")
    sword = at(s, "B2")
    assert SYSTEM.legal_actions(s, 0) == [{"type": "host", "card": sword, "host": host}]
    s, _ = do(s, 0, {"type": "host", "card": sword, "host": host})
    symbiote = at(s, "D2")
    s, _ = do(s, 0, {"type": "host", "card": symbiote, "host": host})
    assert s["phase"] == "main"
    for iid in (sword, symbiote):
        assert s["pieces"][str(iid)]["cell"] == list(board.parse_cell("C2"))
        assert s["pieces"][str(iid)]["host"] == host
    assert not SYSTEM._occupants(s, board.parse_cell("B2"))
    assert not SYSTEM._occupants(s, board.parse_cell("D2"))
    events = []
    SYSTEM._destroy(s, host, events, "402.3")
    grave = s["players"][0]["grave"]
    assert grave[0] == host and sorted(grave[1:]) == sorted([sword, symbiote])


def test_ck30_unhosted_equipment_dies_at_start_of_battle():
    """Checklist 30 [307.1]: a sword with no creature with a class to wear it."""
    s = _to_placement(deck(CLASSLESS, SWORD), deck(PLAIN), [CLASSLESS, SWORD], [PLAIN])
    s, _ = _place(s, 0, CLASSLESS, "C2")
    s, _ = _place(s, 0, SWORD, "B2")
    s, events = _place(s, 1, PLAIN, "C1'")
    sword = next(i for i in range(len(s["cards"])) if s["cards"][i] == SWORD and s["owner"][i] == 0)
    assert s["phase"] == "main" and s["players"][0]["grave"] == [sword]
    assert {"type": "destroyed", "card": sword, "id": SWORD, "seat": 0, "rule": "307.1"} in events


# -- turns, priority, moves -------------------------------------------------------------


def test_ck34_turn_start_opens_cards_and_clears_markers():
    """Checklist 34 [311.1-311.2]."""
    s = battle(
        [
            (0, PLAIN, "C2"),
            (1, PLAIN, "C2'", {"closed": True, "marks": 2, "acted": True}),
        ]
    )
    s, _ = passes(s, 4)
    q = s["pieces"][str(at(s, "C2'"))]
    assert s["active"] == 1 and not q["closed"] and q["marks"] == 0 and not q["acted"]


def test_ck36_ck39_double_passes_end_the_phase_then_the_turn():
    """Checklist 39 [215.8, 300.3]: an empty stack and two passes end the Main Phase;
    checklist 36 [313.2]: two more in the Final Phase hand the turn over."""
    s = battle([(0, PLAIN, "C2"), (1, PLAIN, "C2'")])
    s, _ = do(s, 0, {"type": "pass"})
    assert s["priority"]["holder"] == 1 and s["phase"] == "main"
    s, _ = do(s, 1, {"type": "pass"})
    assert s["phase"] == "final" and s["active"] == 0 and s["priority"]["holder"] == 0
    s, _ = passes(s, 2)
    assert s["phase"] == "main" and s["active"] == 1 and s["turn"] == 2


def test_ck37_ck38_ck41_a_strike_pushes_nine_objects_and_executes_one_at_a_time():
    """Checklist 41 [216.1а]: nine objects, Declaration on top; checklist 37 [215.9]: the
    active player holds priority after a declaration or an execution; checklist 38
    [215.8]: two passes execute exactly the top object."""
    s = battle([(0, PLAIN, "C1"), (1, STURDY, "C1'")])
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    assert [o["kind"] for o in reversed(s["stack"])] == [
        "declaration", "target", "roll", "result", "calculation",
        "defense", "wounds", "payment", "end",
    ]  # fmt: skip
    assert s["priority"]["holder"] == 0
    s, _ = do(s, 0, {"type": "pass"})
    assert s["priority"]["holder"] == 1 and len(s["stack"]) == 9
    s, _ = do(s, 1, {"type": "pass"})
    assert len(s["stack"]) == 8 and s["stack"][-1]["kind"] == "target"
    assert s["priority"] == {"holder": 0, "passes": 0}


def test_ck45_moves_are_orthogonal_steps():
    """Checklist 45 [203.2]: C2 -> D3 refused, C2 -> D2 accepted."""
    s = battle([(0, PLAIN, "C2"), (1, PLAIN, "C2'")])
    me = at(s, "C2")
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "move", "card": me, "cell": "D3"})
    assert info.value.rule == "203.2"
    s, events = do(s, 0, {"type": "move", "card": me, "cell": "D2"})
    assert events == [{"type": "move", "card": me, "from": "C2", "to": "D2"}]
    assert s["pieces"][str(me)]["marks"] == 1


def test_ck46_no_move_without_unused_movement():
    """Checklist 46 [203.4]: movement 2, two markers."""
    s = battle([(0, PLAIN, "C2", {"marks": 2}), (1, PLAIN, "C2'")])
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "move", "card": at(s, "C2"), "cell": "D2"})
    assert info.value.rule == "203.4"


@pytest.mark.rule("203.3", "410.5", "CK-047")
def test_ck47_a_blocked_move_still_gains_a_marker():
    """Checklist 47 [203.3]: Cave Bear (C1') blocks the moves of the enemy creatures next
    to it (a static blocking ability, 410.5): the Lookout on C1 stays, gains its marker and
    has moved (203.11); away from the Bear, the same move goes through."""
    s = battle([(0, PLAIN, "C1"), (1, CAVE_BEAR, "C1'")])
    me, bear = at(s, "C1"), at(s, "C1'")
    s, events = do(s, 0, {"type": "move", "card": me, "cell": "D1"})
    q = s["pieces"][str(me)]
    assert q["cell"] == list(board.parse_cell("C1")) and q["marks"] == 1 and q["moved"]
    assert {"type": "move_blocked", "card": me, "source": bear, "rule": "203.3"} in events
    assert not any(e["type"] == "move" for e in events)
    s = battle([(0, PLAIN, "C2"), (1, CAVE_BEAR, "A3'")])
    me = at(s, "C2")
    s, events = do(s, 0, {"type": "move", "card": me, "cell": "D2"})
    assert s["pieces"][str(me)]["cell"] == list(board.parse_cell("D2"))
    assert s["pieces"][str(me)]["marks"] == 1


def test_ck48_no_move_in_the_opponents_turn_or_while_closed():
    """Checklist 48 [203.5-203.6]."""
    s = battle([(0, PLAIN, "C2"), (1, PLAIN, "C2'"), (0, STURDY, "B2", {"closed": True})])
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "move", "card": at(s, "B2"), "cell": "B1"})
    assert info.value.rule == "203.6"
    s, _ = do(s, 0, {"type": "pass"})  # the opponent holds priority in my turn
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "move", "card": at(s, "C2'"), "cell": "D2'"})
    assert info.value.rule == "203.5"


def test_ck49_a_card_that_moved_cannot_strike():
    """Checklist 49 [203.11]: a strike closes its card, so not after a move."""
    s = battle([(0, PLAIN, "C2"), (1, PLAIN, "C1'")])
    me = at(s, "C2")
    s, _ = do(s, 0, {"type": "move", "card": me, "cell": "C1"})
    assert not [a for a in SYSTEM.legal_actions(s, 0) if a["type"] == "strike"]
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "strike", "card": me, "target": at(s, "C1'")})
    assert info.value.rule == "203.11"


def test_ck50_occupied_cells_and_incorporeal_creatures():
    """Checklist 50 [Г: Занятая клетка, С: Бестелесность]; and 51: it dies at the handover
    of the turn while it shares a cell."""
    s = battle([(0, PLAIN, "C2"), (0, STURDY, "D2"), (0, INCORPOREAL, "B2"), (1, PLAIN, "C2'")])
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "move", "card": at(s, "C2"), "cell": "D2"})
    assert info.value.rule == "Г: Занятая клетка"
    wisp = at(s, "B2")
    s, _ = do(s, 0, {"type": "move", "card": wisp, "cell": "C2"})
    assert s["pieces"][str(wisp)]["cell"] == list(board.parse_cell("C2"))
    s, events = passes(s, 4)
    assert s["players"][0]["grave"] == [wisp]
    assert any(e["type"] == "destroyed" and e["rule"] == "С: Бестелесность" for e in events)


def test_ck52_no_strike_in_the_opponents_turn_or_on_a_stack():
    """Checklist 52 [205.2а]."""
    s = battle([(0, PLAIN, "C1"), (0, STURDY, "D1"), (1, PLAIN, "C1'")])
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "strike", "card": at(s, "D1"), "target": at(s, "C1'")})
    assert info.value.rule == "205.2а"
    s, _ = do(s, 0, {"type": "pass"})
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "strike", "card": at(s, "C1'"), "target": at(s, "C1")})
    assert info.value.rule == "205.2а"


def test_a_fight_of_two_open_creatures_uses_the_strike_table():
    """205.6, 216.5-216.11, D-15: 5 vs 3 is +2: medium / weak, both wounded at once."""
    s = battle([(0, STURDY, "C1"), (1, STURDY, "C1'")])
    me, them = at(s, "C1"), at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": them})
    s["rng"] = rolls_rng(5, 3)
    s, events = passes(s, 2 * 9)
    fight_event = next(e for e in events if e["type"] == "calculation")
    assert fight_event["rolls"] == [5, 3] and fight_event["row"] == 2
    assert fight_event["kinds"] == ["medium", "weak"]
    assert s["pieces"][str(them)]["wounds"] == 1 and s["pieces"][str(me)]["wounds"] == 1
    assert s["pieces"][str(me)]["closed"] and not s["stack"] and s["chains"] == {}
    assert SYSTEM.view(s, 1)["last_fight"]["row"] == 2


def test_a_strike_on_a_closed_card_rolls_one_die_and_destroys():
    """205.4, 402.3: a strong blow (6) of 1-1-2 kills a 2-life Lookout."""
    s = battle([(0, PLAIN, "C1"), (1, PLAIN, "C1'", {"closed": True}), (1, STURDY, "A3'")])
    them = at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    s["rng"] = rolls_rng(6)
    s, events = passes(s, 2 * 9)
    roll = next(e for e in events if e["type"] == "roll")
    assert roll["rolls"] == [6, None]
    assert s["players"][1]["grave"] == [them]


def test_weakening_by_the_higher_roller():
    """216.7, D-16: +4 (strong / weak) weakened by the attacker -> medium / miss."""
    s = battle([(0, STURDY, "C1"), (1, STURDY, "C1'")])
    me, them = at(s, "C1"), at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": them})
    s["rng"] = rolls_rng(6, 2)
    s, _ = passes(s, 2 * 4)
    assert s["stack"][-1]["kind"] == "calculation"
    assert {"type": "weaken"} in SYSTEM.legal_actions(s, 0)
    s, _ = do(s, 0, {"type": "weaken"})
    assert {"type": "weaken"} not in SYSTEM.legal_actions(s, 0)
    s, events = passes(s, 2 * 5)
    calc = next(e for e in events if e["type"] == "calculation")
    assert calc["kinds"] == ["medium", "miss"] and calc["weakened"]
    assert s["pieces"][str(me)]["wounds"] == 0 and s["pieces"][str(them)]["wounds"] == 1


def _defence_setup(extra=()):
    s = battle(
        [
            (0, PLAIN, "C1"),
            (1, PLAIN, "C1'"),
            (1, STURDY, "D1'"),
            (1, STURDY, "B1'", {"closed": True}),
            (1, PLAIN, "E2'"),
            (0, STURDY, "D1"),
            *extra,
        ]
    )
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s, _ = passes(s, 2)  # the Declaration object executes
    s, _ = do(s, 0, {"type": "pass"})  # the Target object is on top; the defender's turn
    return s


def test_ck63_who_may_defend():
    """Checklist 63 [205.3а-в]: not the active player's, not closed, adjacent to both."""
    s = _defence_setup()
    assert s["stack"][-1]["kind"] == "target" and s["priority"]["holder"] == 1
    offered = [a for a in SYSTEM.legal_actions(s, 1) if a["type"] == "defender"]
    assert offered == [{"type": "defender", "card": at(s, "D1'")}]
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "defender", "card": at(s, "B1'")})  # closed
    assert info.value.rule == "205.3а"
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "defender", "card": at(s, "E2'")})  # not adjacent to both
    assert info.value.rule == "205.3а"
    s0 = battle([(0, PLAIN, "C1"), (1, PLAIN, "C1'"), (0, STURDY, "D1")])
    s0, _ = do(s0, 0, {"type": "strike", "card": at(s0, "C1"), "target": at(s0, "C1'")})
    s0, _ = passes(s0, 2)
    assert s0["stack"][-1]["kind"] == "target" and s0["priority"]["holder"] == 0
    assert not [a for a in SYSTEM.legal_actions(s0, 0) if a["type"] == "defender"]
    with pytest.raises(IllegalAction) as info:  # the active player's own creature
        do(s0, 0, {"type": "defender", "card": at(s0, "D1")})
    assert info.value.rule == "205.3в"


def test_ck66_the_defender_closes_in_the_attackers_payment():
    """Checklist 66 [216.12а, 412.4]: the redirection takes two objects; the defender stays
    open until the attacker's Payment object executes; no second redirection (412.5)."""
    s = _defence_setup()
    defender = at(s, "D1'")
    s, _ = do(s, 1, {"type": "defender", "card": defender})
    assert [o["kind"] for o in s["stack"][-2:]] == ["payment", "wounds"]
    s, events = passes(s, 4)
    assert {"type": "redirected", "chain": 1, "target": defender} in events
    s, _ = do(s, 0, {"type": "pass"})
    assert not [a for a in SYSTEM.legal_actions(s, 1) if a["type"] == "defender"]
    while s["stack"][-1]["kind"] != "payment":
        assert not s["pieces"][str(defender)]["closed"]
        s, _ = passes(s, 1 if s["priority"]["passes"] else 2)
    assert not s["pieces"][str(defender)]["closed"]
    s, _ = passes(s, 2)
    assert s["pieces"][str(defender)]["closed"]


def test_directed_strike_allows_no_defender():
    """С: Направленный удар (checklist 64)."""
    s = _defence_setup([(0, DIRECTED, "D2")])
    s, _ = passes(s, 2 * 8)
    assert not s["stack"]
    s = battle([(0, DIRECTED, "C1"), (1, PLAIN, "C1'"), (1, STURDY, "D1'")])
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s, _ = passes(s, 2)
    s, _ = do(s, 0, {"type": "pass"})
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "defender", "card": at(s, "D1'")})
    assert info.value.rule == "С: Направленный удар"


def test_ck68_flyers():
    """Checklist 68 [211.4, 211.8, 211.5]: a non-flyer cannot strike a flyer; a flyer is
    adjacent to nothing but strikes anything; Cache refuses a flyer (checklist 70)."""
    s = battle(
        [
            (0, PLAIN, "C1"),
            (1, FLYER, None),
            (1, PLAIN, "A3'"),
            (0, FLYER, None),
            (1, CACHE_FLYER, None),
        ]
    )
    mine = at(s, "C1")
    flyer = next(
        int(k) for k, q in s["pieces"].items() if q["owner"] == 1 and s["cards"][int(k)] == FLYER
    )
    with pytest.raises(IllegalAction) as info:
        do(s, 0, {"type": "strike", "card": mine, "target": flyer})
    assert info.value.rule == "211.8"
    my_flyer = next(
        int(k) for k, q in s["pieces"].items() if q["owner"] == 0 and s["cards"][int(k)] == FLYER
    )
    assert not SYSTEM._adjacent(s, my_flyer, mine)
    targets = {
        a.get("target")
        for a in SYSTEM.legal_actions(s, 0)
        if a["type"] == "strike" and a["card"] == my_flyer
    }
    assert targets == {flyer, at(s, "A3'")}


def test_armour_prevents_the_first_wounds_each_turn():
    """С: Броня X: Mountain Guard (Armour 1) takes one wound less from a medium 1-1-2."""
    s = battle([(0, STURDY, "C1"), (1, "BK1-079", "C1'", {"closed": True})])
    them = at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    s["rng"] = rolls_rng(6)
    s, _ = passes(s, 2 * 9)
    assert s["pieces"][str(them)]["wounds"] == 1  # strong: 2, one prevented


# -- the end [102] ------------------------------------------------------------------------


def test_ck75_no_creatures_loses_when_priority_comes():
    """Checklist 75 [102.3а, D-10]: the last creature dies; with the stack empty, its
    player loses."""
    s = battle([(0, PLAIN, "C1"), (1, PLAIN, "C1'", {"closed": True}), (1, TERRAIN, None)])
    them = at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    s["rng"] = rolls_rng(6)
    s, events = passes(s, 2 * 7)  # the Wounds object executes
    assert s["stack"][-1]["kind"] == "destruction"  # 402.3а: a priority window first
    s, events = passes(s, 2)  # the destruction executes
    assert s["players"][1]["grave"] == [them] and s["stack"] and not s["finished"]
    s, events = passes(s, 4)
    assert s["finished"] and s["winners"] == [0] and not s["draw"]
    assert SYSTEM.result(s).winners == (0,) and SYSTEM.to_act(s) == ()
    assert events[-1]["type"] == "game_over"


def test_ck76_both_without_creatures_is_a_draw():
    """Checklist 76 [102.4]: both lose at once: a draw (one player winning and losing at
    once cannot happen yet: no effect wins the game)."""
    s = _to_placement(deck(), deck(), [], [])
    assert s["finished"] and s["draw"] and SYSTEM.result(s).draw


def test_leave_loses_at_once():
    """102.3б."""
    s = start()
    s, _ = SYSTEM.leave(s, 0, "concede")
    assert s["finished"] and s["winners"] == [1] and SYSTEM.result(s).eliminated == (0,)
    with pytest.raises(IllegalAction):
        SYSTEM.leave(s, 1, "concede")


def test_the_turn_limit_draws():
    s = battle([(0, PLAIN, "C2"), (1, PLAIN, "C2'")])
    s["config"] = {**s["config"], "turn_limit": 2}
    s, _ = passes(s, 8)
    assert s["finished"] and s["draw"] and s["turn"] == 2


# -- views ---------------------------------------------------------------------------------


def test_views_show_own_zones_and_counts_of_the_opponents():
    s = _to_recruitment()
    mine, theirs = SYSTEM.view(s, 0)["players"]
    assert isinstance(mine["deal"], list) and theirs["deal"] == 15 and mine["deck"] == 15
    spectator = SYSTEM.view(s, None)
    assert spectator["players"][0]["deal"] == 15


# -- invariants (hypothesis) -----------------------------------------------------------------


def _places(s):
    out = []
    for p in s["players"]:
        out += p["deck"] + p["deal"] + p["recruit"] + p["grave"]
    out += [int(k) for k in s["pieces"]]
    return out


def _hidden_from(s, seat):
    """Cards ``seat`` may not see: every deck, the opponent's Deal and Recruit zones, the
    opponent's hidden cards in play."""
    other = s["players"][1 - seat]
    hidden = set(s["players"][seat]["deck"]) | set(other["deck"])
    hidden |= set(other["deal"]) | set(other["recruit"])
    hidden |= {int(k) for k, q in s["pieces"].items() if q["hidden"] and q["owner"] != seat}
    return hidden


def _public(s):
    out = {int(k) for k, q in s["pieces"].items() if not q["hidden"]}
    for p in s["players"]:
        out |= set(p["grave"])
    return out


CARD_KEYS = ("card", "target", "host", "attacker", "retaliator", "defender")


def _play(seed, bots=("random", "random"), turn_limit=6, check=None):
    s = SYSTEM.new_game({"turn_limit": turn_limit}, [None, None], seed)
    players = [make_bot(name, SYSTEM, seed + i) for i, name in enumerate(bots)]
    log = []
    while not s["finished"]:
        seat = SYSTEM.to_act(s)[0]
        action = players[seat].choose(s, seat)
        before = s
        s, events = SYSTEM.apply(s, seat, action)
        log.append((seat, action))
        if check:
            check(before, s, events)
        assert len(log) < 20_000
    return s, log


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_invariants_of_random_games(seed):
    def check(before, after, events):
        frozen = json.dumps(before, sort_keys=True)
        assert sorted(_places(after)) == list(range(len(after["cards"])))
        public = _public(after) | _public(before)  # 206.8: a card leaving play is shown
        for e in events:
            for key in CARD_KEYS:
                if key in e and e[key] is not None:
                    assert e[key] in public, e
        for seat in (0, 1):
            relabelled = dict(after, cards=list(after["cards"]))
            for iid in _hidden_from(after, seat):
                relabelled["cards"][iid] = (
                    "BK1-225" if after["cards"][iid] != "BK1-225" else "BK1-001"
                )
            assert SYSTEM.view(relabelled, seat) == SYSTEM.view(after, seat)
            if seat in SYSTEM.to_act(after):  # nor in what the player may do
                assert SYSTEM.legal_actions(relabelled, seat) == SYSTEM.legal_actions(after, seat)
        json.dumps(after)
        # apply never mutates its input, also when it refuses
        with pytest.raises(IllegalAction):
            SYSTEM.apply(before, 0, {"type": "no such thing"})
        assert json.dumps(before, sort_keys=True) == frozen

    s, log = _play(seed, check=check)
    assert s["turn"] <= 6
    assert replay(SYSTEM, {"turn_limit": 6}, [None, None], seed, log) == s


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_apply_never_mutates_its_input(seed):
    s = SYSTEM.new_game({"turn_limit": 3}, [None, None], seed)
    bot = make_bot("random", SYSTEM, seed)
    while not s["finished"]:
        frozen = json.dumps(s, sort_keys=True)
        seat = SYSTEM.to_act(s)[0]
        s2, _ = SYSTEM.apply(s, seat, bot.choose(s, seat))
        assert json.dumps(s, sort_keys=True) == frozen
        s = s2


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_end_within_the_turn_limit(seed):
    s, _ = _play(seed, turn_limit=60)
    assert s["finished"] and s["turn"] <= 60
    assert SYSTEM.result(s).finished


def test_replay_with_a_departure():
    _, log = _play(5, turn_limit=2)
    s2 = SYSTEM.new_game({"turn_limit": 2}, [None, None], 5)
    for seat, action in log[:30]:
        s2, _ = SYSTEM.apply(s2, seat, action)
    s2, _ = SYSTEM.leave(s2, 1, "time")
    again = replay(
        SYSTEM, {"turn_limit": 2}, [None, None], 5, [*log[:30], (1, leave_action("time"))]
    )
    assert again == s2


def test_random_decks_are_legal_and_from_the_seed():
    from engine.berserk.decks import check_deck

    state = rng.seed_state(1)
    d = random_deck(SYSTEM.db, state)
    assert len(d) == 30
    assert check_deck([SYSTEM.info[c] for c in d], "constructed") == []
    assert KIT.decks(SYSTEM, 2, 9) == KIT.decks(SYSTEM, 2, 9)


def test_heuristic_beats_random():
    wins = 0
    for k in range(6):
        bots = ("heuristic", "random") if k % 2 == 0 else ("random", "heuristic")
        s, _ = _play(100 + k, bots=bots, turn_limit=60)
        h = 0 if k % 2 == 0 else 1
        wins += s["winners"] == [h]
    assert wins >= 4


def test_a_hidden_target_is_named_by_its_cell_and_revealed():
    """415.2, D-20: a hidden card is a legal target (415.3), named by its cell since the
    opponent does not know it; it is revealed when it becomes the target."""
    s = battle([(0, FLYER, None), (1, STURDY, "C1'"), (1, PLAIN, "C3'", {"hidden": True})])
    hidden = at(s, "C3'")
    mine = SYSTEM.view(s, 0)
    assert {"owner": 1, "cell": "C3'", "hidden": True} in mine["pieces"]
    assert all(p.get("card") != hidden for p in mine["pieces"])
    theirs = next(p for p in SYSTEM.view(s, 1)["pieces"] if p.get("card") == hidden)
    assert theirs["id"] == PLAIN and theirs["hidden"]
    flyer = next(int(k) for k, q in s["pieces"].items() if q["owner"] == 0)
    action = {"type": "strike", "card": flyer, "cell": "C3'"}
    assert action in SYSTEM.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        do(s, 0, {"type": "strike", "card": flyer, "target": hidden})
    s, events = do(s, 0, action)
    assert any(e["type"] == "reveal" and e["card"] == hidden for e in events)
    assert not s["pieces"][str(hidden)]["hidden"]


def test_a_revealed_target_that_becomes_illegal_blocks_the_strike():
    """415.4: a hidden card revealed as a flyer goes to the Additional Zone (211.2), so a
    non-flyer's strike on it is blocked: only its Payment object stays (410.1)."""
    s = battle([(0, PLAIN, "C2'"), (1, STURDY, "A1'"), (1, FLYER, "C3'", {"hidden": True})])
    me = at(s, "C2'")
    s, events = do(s, 0, {"type": "strike", "card": me, "cell": "C3'"})
    assert [e["type"] for e in events][-3:] == ["reveal", "additional_zone", "blocked"]
    assert [o["kind"] for o in s["stack"]] == ["end", "payment"]
    s, _ = passes(s, 4)
    assert not s["stack"] and s["pieces"][str(me)]["closed"]


def test_an_offered_action_is_remembered_only_for_its_own_state():
    """``legal_actions`` remembers its list with its state (decision 0053): the very
    object sent back for that state is taken at once; for another state, even an equal
    one that has changed since, the action is checked again and refused (209.3)."""
    s = battle([(0, PLAIN, "C1"), (1, PLAIN, "C1'")])
    strike = next(a for a in SYSTEM.legal_actions(s, 0) if a["type"] == "strike")
    closed = copy.deepcopy(s)
    closed["pieces"][str(strike["card"])]["closed"] = True
    with pytest.raises(IllegalAction) as info:
        SYSTEM.apply(closed, 0, strike)
    assert info.value.rule == "209.3"
    after, _ = SYSTEM.apply(s, 0, strike)
    assert after["stack"] and after["chains"]
