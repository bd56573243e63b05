"""Berserk's Preliminary Phase up to the hosts [101, 207.4а, 210, 211.7, 212.3, 214,
302-307]: crystals, redeals, recruitment, placement and host assignment.

Checklist (digest §16): CK-003, CK-004, CK-006, CK-007, CK-008, CK-010..CK-016, CK-018,
CK-019, CK-020, CK-024..CK-029; plus hypothesis properties (recruiting never exceeds the
crystals; a refused request changes nothing). Cards are built here, not loaded.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.berserk.config import DEFAULT, Config
from engine.berserk.model import ELEMENTS, Ability, Card
from engine.berserk.recruit import (
    Crystals,
    DealStep,
    Piece,
    Placed,
    Recruit,
    RecruitError,
    assign_host,
    check_host,
    check_skip,
    deal,
    free_cells,
    grant_crystals,
    keep,
    legal_hosts,
    next_assignment,
    normalise_cell,
    place,
    placement_zone,
    recruit,
    redeal,
    redeal_cards,
    set_turn_order,
    unhosted,
)
from engine.core import rng
from engine.core.errors import IllegalAction

_ids = itertools.count(1)


def make(name: str = "", **kw) -> Card:
    n = next(_ids)
    name = name or f"Card {n}"
    return Card(id=f"T-{n:04d}", set_code="T", number=n, name_ru=name, name_en=name, **kw)


class _Refused:
    """``with _Refused("304.5"):``: the block raises ``RecruitError`` of that rule."""

    def __init__(self, rule: str):
        self.rule = rule
        self.error: RecruitError | None = None

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        assert kind is not None, f"expected a refusal under rule {self.rule}"
        assert issubclass(kind, RecruitError), error
        assert error.rule == self.rule, (error.rule, str(error))
        self.error = error
        return True


def zone(gold: int = 23, silver: int = 22) -> Recruit:
    return Recruit(gold=gold, silver=silver)


def add(z: Recruit, *cards: Card, config: Config = DEFAULT) -> Recruit:
    for card in cards:
        z = recruit(z, card, config=config)
    return z


# ---------------------------------------------------------------- crystals


@pytest.mark.rule("101.1", "302.1", "D-5", "CK-003")
def test_ck003_each_player_gets_23_gold_and_22_silver_once():
    """CK-003: at the Deal Step each player has 23 gold and 22 silver."""
    assert grant_crystals() == (Crystals(23, 22), Crystals(23, 22))


@pytest.mark.rule("101.3", "CK-004")
def test_ck004_the_second_player_has_23_silver_and_it_moves_if_the_order_swaps():
    """CK-004: once the order is set the second player has 23 silver; if it swaps, that
    crystal moves to the new second player."""
    start = grant_crystals()
    ordered = set_turn_order(start, first=0)
    assert ordered == (Crystals(23, 22), Crystals(23, 23))
    swapped = set_turn_order(ordered, first=1, previous_first=0)
    assert swapped == (Crystals(23, 23), Crystals(23, 22))
    assert set_turn_order(swapped, first=1, previous_first=1) == swapped


# ---------------------------------------------------------------- redeal


def step(gold=(23, 23), first=0, kept=(False, False)) -> DealStep:
    return DealStep(first=first, crystals=(Crystals(gold[0], 22), Crystals(gold[1], 23)), kept=kept)


@pytest.mark.rule("302.3", "CK-006")
def test_ck006_a_redeal_costs_one_gold_and_deals_as_many_new_cards():
    """CK-006: with 5 gold, a redeal leaves 4 gold and deals the same number of cards."""
    s = redeal(step(gold=(5, 23)), 0)
    assert s.crystals[0].gold == 4 and s.redeals == (1, 0)
    deck, dealt = deal([f"c{i}" for i in range(40)], 15)
    assert dealt == [f"c{i}" for i in range(15)] and len(deck) == 25
    state = rng.seed_state(7)
    new_deck, new_dealt = redeal_cards(deck, dealt, state)
    assert len(new_dealt) == 15 and len(new_deck) == 25
    assert sorted(new_deck + new_dealt) == sorted(deck + dealt)


@pytest.mark.rule("302.3", "D-34", "CK-007")
def test_ck007_no_redeal_without_gold():
    """CK-007: with 0 gold a redeal is refused; with 1 it is still legal (D-34)."""
    with _Refused("302.3"):
        redeal(step(gold=(0, 23)), 0)
    assert redeal(step(gold=(1, 23)), 0).crystals[0].gold == 0
    assert not step(gold=(0, 23)).may_redeal(0)


@pytest.mark.rule("302.3а", "302.3б", "CK-008")
def test_ck008_the_first_player_redeals_first_and_keeping_ends_redeals():
    """CK-008: the second player cannot redeal before the first has kept; a player who
    kept cannot redeal."""
    s = step(first=1)
    with _Refused("302.3а"):
        redeal(s, 0)
    s = keep(redeal(s, 1), 1)
    assert s.kept == (False, True)
    with _Refused("302.3б"):
        redeal(s, 1)
    s = redeal(s, 0)
    assert s.crystals == (Crystals(22, 22), Crystals(22, 23))
    s = keep(s, 0)
    assert s.done
    with _Refused("302.3б"):
        keep(s, 0)


# ---------------------------------------------------------------- recruitment


@pytest.mark.rule("304.5", "CK-010")
def test_ck010_at_most_15_recruited_cards():
    """CK-010: with 15 recruited cards, a 16th is refused."""
    z = add(zone(), *[make(cost=1) for _ in range(15)])
    assert len(z.cards) == 15
    with _Refused("304.5"):
        recruit(z, make(cost=0))


@pytest.mark.rule("304.6", "CK-011")
def test_ck011_three_and_four_elements_cost_one_and_two_gold():
    """CK-011: with 3 / 4 elements recruited, gold is reduced by 1 / 2."""
    steppe, forest, mountains, swamps = (make(element=e, cost=1) for e in ELEMENTS[:4])
    two = add(zone(), steppe, forest)
    assert two.adjustment == 0 and two.gold_left == 23
    three = add(two, mountains)
    assert three.adjustment == -1 and three.gold_left == 22
    four = add(three, swamps)
    assert four.adjustment == -2 and four.gold_left == 21
    assert four.silver_left == 22 - 4


@pytest.mark.rule("304.6", "CK-012")
def test_ck012_one_element_with_neutral_cards_gives_one_more_gold():
    """CK-012: one element plus neutral cards: +1 gold, usable for a 24th gold crystal;
    an all-neutral Recruit zone gets nothing."""
    one = add(zone(), make(element="forest", cost=2), make(cost=3))
    assert one.adjustment == 1 and one.gold_left == 24
    neutral = add(zone(), make(cost=3), make(cost=2))
    assert neutral.adjustment == 0 and neutral.gold_left == 23
    rich = add(zone(), make(element="forest", cost=12, elite=True))
    rich = recruit(rich, make(element="forest", cost=12, elite=True))
    assert rich.gold_spent == 24 and rich.gold_left == 0
    with _Refused("D-6"):
        recruit(add(zone(), make(cost=12, elite=True)), make(cost=12, elite=True))


@pytest.mark.rule("304.6", "304.6а", "D-7")
def test_d7_the_whole_recruit_zone_is_revalidated_after_each_card():
    """D-7: with the one-element bonus spent, a card of a second element is refused even
    at cost 0; with the bonus unspent it is accepted and the bonus lapses."""
    spent = add(zone(), make(element="forest", cost=12, elite=True))
    spent = recruit(spent, make(element="forest", cost=12, elite=True))
    with _Refused("304.6"):
        recruit(spent, make(element="steppe", cost=0))
    assert recruit(spent, make(cost=0)).gold_left == 0  # neutral: no element
    unspent = add(zone(), make(element="forest", cost=5, elite=True))
    assert unspent.gold_left == 19
    assert recruit(unspent, make(element="steppe", cost=0)).gold_left == 18
    # checked on entry only (D-7 off): the spent +1 stays spent
    literal = Config(revalidate_elements=False)
    spent = add(
        zone(),
        make(element="forest", cost=12, elite=True),
        make(element="forest", cost=12, elite=True),
        config=literal,
    )
    assert spent.bonus_used
    assert recruit(spent, make(element="steppe", cost=0), config=literal).gold_left == 0


@pytest.mark.rule("304.6а", "CK-013")
def test_ck013_the_element_penalty_is_paid_before_the_card_enters():
    """CK-013: with 2 elements and 6 gold, a 6-gold card of a third element is refused."""
    z = add(zone(), make(element="steppe", cost=9, elite=True))
    z = recruit(z, make(element="forest", cost=8, elite=True))
    assert z.gold_left == 6 and len(z.elements) == 2
    with _Refused("304.6а") as r:
        recruit(z, make(element="darkness", cost=6, elite=True))
    assert r.error is not None and "before the card enters" in r.error.message
    assert recruit(z, make(element="darkness", cost=5, elite=True)).gold_left == 0
    assert recruit(z, make(element="forest", cost=6, elite=True)).gold_left == 0


@pytest.mark.rule("211.7", "CK-014")
@pytest.mark.parametrize("elite", [False, True])
def test_ck014_flyers_at_most_15_crystals_either_eliteness(elite):
    """CK-014: with flyers totalling 13 crystals, a flyer costing 3 is refused, whatever
    its eliteness; one costing 2 fits."""
    z = add(
        zone(),
        make(subtype="flying", cost=7, elite=True),
        make(subtype="flying", cost=6, elite=False),
    )
    assert z.flyer_crystals == 13
    with _Refused("211.7"):
        recruit(z, make(subtype="flying", cost=3, elite=elite))
    assert recruit(z, make(subtype="flying", cost=2, elite=elite)).flyer_crystals == 15
    assert recruit(z, make(cost=3, elite=elite)).flyer_crystals == 13


@pytest.mark.rule("212.3", "CK-015")
def test_ck015_one_terrain_per_squad():
    """CK-015: with one terrain recruited, another is refused."""
    z = recruit(zone(), make(type="terrain", cost=2))
    with _Refused("212.3"):
        recruit(z, make(type="terrain", cost=1))


@pytest.mark.rule("С: Уникальность", "Г: Карта не может быть взята в отряд с", "CK-016")
def test_ck016_a_unique_card_allows_no_other_card_of_its_name():
    """CK-016: with a unique card N in the squad, another N is refused; a unique N cannot
    join a squad that has N either; different names are fine."""
    unique = Ability("uniqueness")
    z = recruit(zone(), make("Вожак", cost=3, abilities=(unique,)))
    with _Refused("С: Уникальность"):
        recruit(z, make("Вожак", cost=3, abilities=(unique,)))
    with _Refused("С: Уникальность"):
        recruit(z, make("вожак", cost=2))
    plain = recruit(zone(), make("Вожак", cost=2))
    with _Refused("С: Уникальность"):
        recruit(plain, make("Вожак", cost=3, abilities=(unique,)))
    assert len(recruit(plain, make("Вожак", cost=2)).cards) == 2
    assert len(recruit(z, make("Другой", cost=3, abilities=(unique,))).cards) == 2


@pytest.mark.rule("D-6", "304.1")
def test_d6_elite_with_gold_only_ordinary_silver_first():
    z = recruit(zone(gold=5, silver=3), make(cost=4))
    assert (z.cards[0].gold, z.cards[0].silver) == (1, 3)
    z2 = recruit(zone(gold=5, silver=3), make(cost=4, elite=True))
    assert (z2.cards[0].gold, z2.cards[0].silver) == (4, 0)
    with _Refused("D-6"):
        recruit(zone(gold=3, silver=20), make(cost=4, elite=True))
    with _Refused("304.1"):
        recruit(zone(gold=1, silver=2), make(cost=4))
    # D-6 off: an elite card may be paid with silver too
    loose = Config(elite_gold_only=False)
    z3 = recruit(zone(gold=3, silver=20), make(cost=4, elite=True), config=loose)
    assert (z3.cards[0].gold, z3.cards[0].silver) == (0, 4)


@pytest.mark.rule("202.4")
def test_cost_x_is_paid_as_n_plus_x():
    x_card = make(cost=2, cost_x=True, elite=True)
    z = recruit(zone(), x_card, x=3)
    assert z.gold_spent == 5 and z.cards[0].x == 3
    with _Refused("202.4"):
        recruit(zone(), x_card)
    with _Refused("202.4"):
        recruit(zone(), make(cost=2), x=1)


def test_errors_carry_the_rule_and_both_languages():
    with pytest.raises(IllegalAction) as info:
        recruit(add(zone(), *[make(cost=0) for _ in range(15)]), make())
    error = info.value
    assert error.rule == "304.5"
    assert str(error) == "At most 15 cards may be recruited. (rule 304.5)"
    assert error.text("ru") == "В Набор можно поместить не больше 15 карт."


# ---------------------------------------------------------------- placement

FIRST_ZONE = ("B1", "C1", "D1", "B2", "C2", "D2", "B3", "C3", "D3")
SECOND_ZONE = ("A1'", "B1'", "C1'", "D1'", "E1'", "B2'", "C2'", "D2'", "B3'", "C3'", "D3'")


@pytest.mark.rule("207.4а", "CK-018")
def test_ck018_the_initial_placement_zones():
    """CK-018: the first player's legal cells are B1-D3; the second player's A1'-E1',
    B2'-D2', B3'-D3'."""
    assert set(placement_zone(True)) == set(FIRST_ZONE)
    assert set(placement_zone(False)) == set(SECOND_ZONE)
    assert set(free_cells({}, owner=1, first=False)) == set(SECOND_ZONE)


@pytest.mark.rule("305.3", "305.4", "CK-019")
def test_ck019_the_zone_grows_when_full_and_again():
    """CK-019: once the first player filled 9 cells, A2, E2, A3, E3 become legal; after
    those, A1 and E1. The second player's zone grows once, to the whole half."""
    board: dict = {}
    for c in FIRST_ZONE:
        assert "A2" not in free_cells(board, owner=0, first=True)
        board = place(board, make(), c, owner=0, first=True)
    assert set(free_cells(board, owner=0, first=True)) == {"A2", "E2", "A3", "E3"}
    with _Refused("305.4"):
        place(board, make(), "A1", owner=0, first=True)
    for c in ("A2", "E2", "A3", "E3"):
        board = place(board, make(), c, owner=0, first=True)
    assert set(free_cells(board, owner=0, first=True)) == {"A1", "E1"}
    board = place(board, make(), "A1", owner=0, first=True)
    board = place(board, make(), "E1", owner=0, first=True)
    assert len(board) == 15 and free_cells(board, owner=0, first=True) == []
    second = {c: Placed(make(), 1) for c in SECOND_ZONE}
    assert set(free_cells(second, owner=1, first=False)) == {"A2'", "E2'", "A3'", "E3'"}
    with _Refused("305.3"):
        place({}, make(), "A2'", owner=1, first=False)
    with _Refused("207.4а"):
        place({}, make(), "C2", owner=1, first=False)


@pytest.mark.rule("305.2", "CK-020")
def test_ck020_one_card_per_cell_and_placed_cards_are_hidden():
    """CK-020: placing onto an occupied B2 is refused; placed cards are hidden."""
    wolf = make()
    board = place({}, wolf, "B2", owner=0, first=True)
    assert board["B2"] == Placed(wolf, 0, hidden=True)
    with _Refused("305.2"):
        place(board, make(), "b2", owner=0, first=True)
    board = place(board, make(), "c1’", owner=1, first=False)
    assert "C1'" in board and board["C1'"].hidden
    with _Refused("207.5"):
        place(board, make(), "F9", owner=0, first=True)
    assert normalise_cell("D2′") == "D2'"


# ---------------------------------------------------------------- hosts

WARRIOR = ("warrior",)


def creature(cell: str, owner: int = 0, **kw) -> Piece:
    kw.setdefault("classes", WARRIOR)
    return Piece(make(**kw), owner, cell)


def equipment(cell: str, *classes: str, owner: int = 0) -> Piece:
    return Piece(make(type="equipment", classes=classes), owner, cell)


INCORPOREAL = (Ability("incorporeal"),)


@pytest.mark.rule("214.4а", "214.6", "CK-024")
def test_ck024_classless_flying_and_incorporeal_creatures_wear_no_equipment():
    """CK-024: a classless creature, a flyer or an incorporeal creature is refused as an
    equipment host; a creature with a class is accepted."""
    pieces = {
        "sword": equipment("C3", "weapon"),
        "classless": creature("B2", classes=()),
        "flyer": Piece(make(subtype="flying", classes=WARRIOR), 0, None),
        "ghost": creature("C2", abilities=INCORPOREAL),
        "symbiote": creature("D1", subtype="symbiote"),
        "knight": creature("D2"),
    }
    with _Refused("214.4а"):
        check_host(pieces, "sword", "classless")
    for host in ("flyer", "ghost", "symbiote"):
        with _Refused("214.6"):
            check_host(pieces, "sword", host)
    assert legal_hosts(pieces, "sword") == ["knight"]


@pytest.mark.rule("214.5", "CK-025")
def test_ck025_one_equipment_per_class():
    """CK-025: a host wearing a Weapon refuses another Weapon and accepts Armour."""
    pieces = {
        "knight": creature("C2"),
        "sword": equipment("B2", "weapon"),
        "axe": equipment("B3", "weapon", "shield"),
        "mail": equipment("D2", "armour"),
    }
    pieces = assign_host(pieces, "sword", "knight")
    with _Refused("214.5"):
        check_host(pieces, "axe", "knight")
    pieces = assign_host(pieces, "mail", "knight")
    assert pieces["mail"].host == "knight"


@pytest.mark.rule("210.4", "210.5", "CK-026")
def test_ck026_one_symbiote_per_host_and_incorporeal_hosts_only_incorporeal_ones():
    """CK-026: a host with a symbiote, or an incorporeal host with a non-incorporeal
    symbiote, is refused; an incorporeal symbiote on an incorporeal host is accepted."""
    pieces = {
        "host": creature("C2"),
        "ghost": creature("D2", abilities=INCORPOREAL),
        "s1": creature("B2", subtype="symbiote"),
        "s2": creature("B3", subtype="symbiote"),
        "s3": creature("D3", subtype="symbiote", abilities=INCORPOREAL),
        "enemy": creature("C1'", owner=1),
    }
    pieces = assign_host(pieces, "s1", "host")
    with _Refused("210.4"):
        check_host(pieces, "s2", "host")
    with _Refused("210.5"):
        check_host(pieces, "s2", "ghost")
    with _Refused("210.2"):
        check_host(pieces, "s2", "enemy")
    with _Refused("210.3"):
        check_host(pieces, "s2", "s1")
    assert assign_host(pieces, "s3", "ghost")["s3"].host == "ghost"


@pytest.mark.rule("210.14", "D-24", "CK-027")
def test_ck027_a_parasites_host_stands_in_the_opponents_first_row():
    """CK-027: a parasite's host in the opponent's row 2 is refused; row 1 is accepted;
    the parasite's own creatures are refused."""
    pieces = {
        "leech": creature("C2", subtype="parasite"),
        "front": creature("B1'", owner=1),
        "middle": creature("C2'", owner=1),
        "mine": creature("C1"),
        "p2leech": creature("B2'", owner=1, subtype="parasite"),
    }
    with _Refused("210.14"):
        check_host(pieces, "leech", "middle")
    with _Refused("210.14"):
        check_host(pieces, "leech", "mine")
    assert legal_hosts(pieces, "leech") == ["front"]
    # the second player's parasite takes the first player's first row (row 1)
    assert legal_hosts(pieces, "p2leech") == ["mine"]
    moved = assign_host(pieces, "leech", "front")
    assert moved["leech"].cell == "B1'" and moved["leech"].owner == 0


@pytest.mark.rule("306.7", "D-23", "CK-028")
def test_ck028_assigning_a_host_is_mandatory_when_possible():
    """CK-028: with a legal host, skipping the assignment is refused; with only a hidden
    creature (D-23) or none, it is allowed."""
    pieces = {"sword": equipment("B2", "weapon"), "knight": creature("C2")}
    with _Refused("306.7"):
        check_skip(pieces, "sword")
    hidden = {**pieces, "knight": Piece(pieces["knight"].card, 0, "C2", hidden=True)}
    with _Refused("D-23"):
        check_host(hidden, "sword", "knight")
    check_skip(hidden, "sword")
    check_skip({"sword": pieces["sword"]}, "sword")


@pytest.mark.rule("210.2", "214.4", "CK-029")
def test_ck029_the_attached_card_moves_onto_the_hosts_cell():
    """CK-029: once the host is assigned, the card stands on the host's cell; its old cell
    holds nothing."""
    pieces = {"sword": equipment("B2", "weapon"), "knight": creature("C2")}
    after = assign_host(pieces, "sword", "knight")
    assert after["sword"].cell == "C2"
    assert not [p for p in after.values() if p.cell == "B2"]
    with _Refused("306.8"):
        assign_host(after, "sword", "knight")


@pytest.mark.rule("307.1", "306.4", "306.5", "306.6", "306.8")
def test_host_order_and_the_unhosted_that_die():
    """307.1: which cards die (unhosted equipment, symbiotes and parasites; moving them to
    the Graveyard is the game's); and the 306.4-306.6 order of assignments."""
    pieces = {
        "p1sym": creature("B2", owner=1, subtype="symbiote"),
        "p0sym": creature("B3", subtype="symbiote"),
        "p1sword": equipment("C3'", "weapon", owner=1),
        "p0sword": equipment("D3", "weapon"),
        "p0knight": creature("C2"),
        "p1knight": creature("C2'", owner=1),
        "lonely": equipment("D1", "armour"),
    }
    pieces["p1sym"] = Piece(pieces["p1sym"].card, 1, "B2'")
    order = []
    while (key := next_assignment(pieces)) is not None:
        order.append(key)
        pieces = assign_host(pieces, key, legal_hosts(pieces, key)[0])
    assert order == ["p0sword", "lonely", "p1sword", "p0sym", "p1sym"]
    pieces = {"lonely": equipment("D1", "armour"), "s": creature("B3", subtype="symbiote")}
    assert unhosted(pieces) == ["lonely", "s"]


# ---------------------------------------------------------------- properties

cards = st.builds(
    lambda element, cost, elite, kind, unique, name: make(
        name,
        element=element,
        cost=cost,
        elite=elite,
        type="terrain" if kind == "terrain" else "creature",
        subtype="flying" if kind == "flying" else "",
        abilities=(Ability("uniqueness"),) if unique else (),
    ),
    element=st.sampled_from(("", *ELEMENTS)),
    cost=st.integers(0, 12),
    elite=st.booleans(),
    kind=st.sampled_from(("creature", "creature", "flying", "terrain")),
    unique=st.booleans(),
    name=st.sampled_from(("", "", "", "Alpha", "Beta")),
)


def _within_crystals(z: Recruit, config: Config) -> None:
    count = len(z.elements)
    assert z.gold_spent + max(0, count - 2) <= z.gold + (1 if count == 1 else 0)
    assert z.silver_spent <= z.silver
    assert z.gold_left >= 0 and z.silver_left >= 0
    assert len(z.cards) <= config.squad_max
    assert z.flyer_crystals <= config.flyers_max_crystals
    assert sum(r.card.type == "terrain" for r in z.cards) <= config.terrain_max
    assert all(r.silver == 0 for r in z.cards if r.card.elite)
    assert all(r.gold + r.silver == r.card.cost for r in z.cards)


@given(
    gold=st.integers(0, 25),
    silver=st.integers(0, 25),
    attempts=st.lists(cards, max_size=30),
)
def test_property_recruiting_never_exceeds_the_crystals(gold, silver, attempts):
    """Whatever cards are offered, the Recruit zone always fits the crystals (304.6, D-6,
    D-7), 15 cards (304.5), 15 flyer crystals (211.7) and one terrain (212.3)."""
    z = zone(gold, silver)
    for card in attempts:
        before = z
        try:
            z = recruit(z, card)
        except RecruitError:
            assert z is before
            continue
        _within_crystals(z, DEFAULT)


@given(attempts=st.lists(cards, min_size=1, max_size=30))
def test_property_a_refused_addition_changes_nothing(attempts):
    """A refused card leaves the Recruit zone exactly as it was: later additions behave as
    if it had never been offered."""
    z = zone()
    accepted = []
    for card in attempts:
        snapshot = Recruit(z.gold, z.silver, tuple(z.cards), z.bonus_used)
        try:
            z = recruit(z, card)
            accepted.append(card)
        except RecruitError:
            assert z == snapshot
    replayed = add(zone(), *accepted)
    assert replayed == z


@given(
    cells=st.lists(
        st.sampled_from(
            [f"{c}{r}" for c in "ABCDE" for r in "123"]
            + [f"{c}{r}'" for c in "ABCDE" for r in "123"]
        ),
        max_size=40,
    ),
    first=st.booleans(),
)
def test_property_placement_stays_in_the_zone_and_refusals_change_nothing(cells, first):
    board: dict[str, Placed] = {}
    owner = 0 if first else 1
    for c in cells:
        before = dict(board)
        try:
            board = place(board, make(), c, owner=owner, first=first)
        except RecruitError:
            assert board == before
            continue
        assert all(p.hidden for p in board.values())
    half = {c for c in board if c.endswith("'")}
    assert half == (set() if first else set(board))
    assert len(board) <= 15
