"""Booster collation (AMB-04, docs/card-format.md "Boosters and Draft") on the real sets.

Plain pytest, no Django: ``.venv/bin/python -m pytest -p no:django tests/drafting``.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.rng import seed_state
from engine.voskhozhdenie.boosters import (
    CollationError,
    draft_packs,
    draft_pool_size,
    open_booster,
    sealed_pool,
)
from engine.voskhozhdenie.cards import BoosterSlot, BoosterSpec, Card, CardDB, CardSet
from engine.voskhozhdenie.loader import load_system

DB = load_system("voskhozhdenie")
BOOSTER_SETS = ("VS1", "VS2", "VS3", "VS4")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def slot_positions(spec: BoosterSpec) -> list[BoosterSlot]:
    """The slot each position of a booster comes from (boosters keep slot order)."""
    return [slot for slot in spec.slots for _ in range(slot.count)]


def check_booster(card_set: CardSet, ids: list[str]) -> None:
    spec = card_set.booster
    assert spec is not None
    assert len(ids) == spec.size
    assert len(set(ids)) == len(ids), "a booster never holds the same card twice"
    for card_id, slot in zip(ids, slot_positions(spec), strict=True):
        card = DB.card(card_id)
        assert card.set_code == card_set.code
        assert not card.minor
        assert card.rarity in (slot.rarity, slot.upgrade)
        assert not slot.types or card.type in slot.types


def test_real_booster_specs():
    assert DB.get_set("VS1").booster.size == 15
    for code in ("VS2", "VS3", "VS4"):
        assert DB.get_set(code).booster.size == 10
    assert DB.get_set("VS0").booster is None
    assert draft_pool_size(["VS1"] * 4, DB) == 60
    assert draft_pool_size(["VS2", "VS3", "VS4", "VS4"], DB) == 40  # >= 22 (AMB-04)


@pytest.mark.parametrize("code", BOOSTER_SETS)
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_booster_follows_the_spec(code, seed):
    """Size, no duplicates, no Minor cards, slot rarities (modulo upgrades) and types."""
    card_set = DB.get_set(code)
    rng = seed_state(seed)
    for _ in range(3):
        check_booster(card_set, open_booster(card_set, rng))


def test_vs1_booster_ends_with_its_city():
    card_set = DB.get_set("VS1")
    rng = seed_state(3)
    for _ in range(50):
        ids = open_booster(card_set, rng)
        types = [DB.card(c).type for c in ids]
        assert types[-1] == "city"
        assert types.count("city") == 1


def test_open_booster_advances_the_rng_in_place():
    card_set = DB.get_set("VS1")
    rng = seed_state(11)
    start = list(rng)
    first = open_booster(card_set, rng)
    assert rng != start
    again = seed_state(11)
    assert open_booster(card_set, again) == first
    assert again == rng
    assert open_booster(card_set, rng) != first


def test_upgrades_happen_about_as_often_as_the_spec_says():
    """VS1: the rare slot holds a legendary 1 in 8, the City slot an uncommon 1 in 4."""
    card_set = DB.get_set("VS1")
    rng = seed_state(2024)
    n = 4000
    legendary = uncommon_city = 0
    for _ in range(n):
        ids = open_booster(card_set, rng)
        legendary += DB.card(ids[13]).rarity == "legendary"
        uncommon_city += DB.card(ids[14]).rarity == "uncommon"
    assert 0.09 < legendary / n < 0.16
    assert 0.21 < uncommon_city / n < 0.29


def test_every_card_of_a_slot_can_come_up():
    card_set = DB.get_set("VS2")
    rng = seed_state(5)
    seen: Counter[str] = Counter()
    for _ in range(600):
        seen.update(open_booster(card_set, rng))
    boosterable = {c.id for c in card_set.cards if not c.minor and c.type != "city"}
    boosterable |= {c.id for c in card_set.cards if c.type == "city" and c.rarity == "common"}
    assert set(seen) == boosterable


def test_no_booster_no_collation():
    with pytest.raises(CollationError):
        open_booster(DB.get_set("VS0"), seed_state(1))
    with pytest.raises(CollationError):
        draft_packs(["VS1", "VS0"], 2, DB, 1)
    with pytest.raises(CollationError):
        draft_packs(["NOPE"], 2, DB, 1)
    with pytest.raises(CollationError):
        draft_packs([], 2, DB, 1)
    with pytest.raises(CollationError):
        draft_packs("VS1", 2, DB, 1)
    with pytest.raises(CollationError):
        draft_packs(["VS1"], 0, DB, 1)
    with pytest.raises(CollationError):
        sealed_pool(["VS0"], DB, 1)
    assert issubclass(CollationError, ValueError)


# ---------------------------------------------------------------- draft packs


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, seats=st.integers(1, 10))
def test_draft_packs_shape_and_reproducibility(seed, seats):
    codes = ["VS1", "VS2", "VS3", "VS4"]
    packs = draft_packs(codes, seats, DB, seed)
    assert len(packs) == seats
    for seat_packs in packs:
        assert len(seat_packs) == 4
        for code, booster in zip(codes, seat_packs, strict=True):
            check_booster(DB.get_set(code), booster)
    assert draft_packs(codes, seats, DB, seed) == packs


@settings(max_examples=25, deadline=None)
@given(seeds=st.lists(SEEDS, min_size=2, max_size=2, unique=True))
def test_different_seeds_give_different_boosters(seeds):
    a, b = (draft_packs(["VS1"] * 4, 2, DB, seed) for seed in seeds)
    assert a != b
    assert a[0][0] != b[0][0]


def test_different_seats_get_different_boosters():
    packs = draft_packs(["VS1"] * 4, 8, DB, 99)
    firsts = [tuple(p[0]) for p in packs]
    assert len(set(firsts)) == 8
    all_boosters = [tuple(b) for p in packs for b in p]
    assert len(set(all_boosters)) == len(all_boosters)


def test_round_r_uses_set_r():
    packs = draft_packs(["VS2", "VS1", "VS4", "VS3"], 3, DB, 8)
    for seat_packs in packs:
        assert [DB.card(b[0]).set_code for b in seat_packs] == ["VS2", "VS1", "VS4", "VS3"]
        assert [len(b) for b in seat_packs] == [10, 15, 10, 10]


# ---------------------------------------------------------------- sealed


def test_sealed_pool():
    codes = ["VS1"] * 6
    pool = sealed_pool(codes, DB, 77)
    assert len(pool) == 90
    assert pool == sealed_pool(codes, DB, 77)
    assert pool != sealed_pool(codes, DB, 78)
    assert pool == [c for b in draft_packs(codes, 1, DB, 77)[0] for c in b]  # same path
    for i in range(6):
        check_booster(DB.get_set("VS1"), pool[15 * i : 15 * (i + 1)])
    mixed = sealed_pool(["VS2", "VS3", "VS4"], DB, 1)
    assert [DB.card(c).set_code for c in mixed] == ["VS2"] * 10 + ["VS3"] * 10 + ["VS4"] * 10


# ---------------------------------------------------------------- overlapping slots


def _card(number: int, card_type: str, rarity: str = "common", minor: bool = False) -> Card:
    return Card(
        id=f"TST-{number:03d}",
        set_code="TST",
        number=number,
        name_ru=f"Карта {number}",
        name_en=f"Card {number}",
        type=card_type,
        subtypes=("soldier",) if card_type == "squad" else ("battle",),
        colours=frozenset(),
        cost=None,
        strength=1 if card_type == "squad" else None,
        minor=minor,
        rarity=rarity,
    )


def test_overlapping_slots_never_duplicate_and_minor_cards_never_appear():
    """An any-type slot may take the only Squad a later Squad slot needs: drawn again."""
    cards = (
        _card(1, "squad"),
        _card(2, "tactic"),
        _card(3, "squad", minor=True),
        _card(4, "squad", minor=True),
    )
    spec = BoosterSpec(
        size=2, slots=(BoosterSlot("common", 1), BoosterSlot("common", 1, ("squad",)))
    )
    card_set = CardSet("TST", "Тест", "Test", date(2026, 1, 1), cards, booster=spec)
    rng = seed_state(1)
    seen = Counter()
    for _ in range(200):
        booster = open_booster(card_set, rng)
        assert booster == ["TST-002", "TST-001"]
        seen.update(booster)
    impossible = CardSet(
        "TS2",
        "Тест",
        "Test",
        date(2026, 1, 1),
        cards,
        booster=BoosterSpec(size=2, slots=(BoosterSlot("common", 2, ("squad",)),)),
    )
    with pytest.raises(CollationError):
        open_booster(impossible, seed_state(1))
    db = CardDB.build("test", [card_set])
    assert len(sealed_pool(["TST", "TST"], db, 3)) == 4
