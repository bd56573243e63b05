"""Berserk boosters: collation from the set file's slots, deterministic from the seed."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.berserk.boosters import (
    CollationError,
    draft_packs,
    open_booster,
    pool_size,
    sealed_pool,
)
from engine.berserk.cards import load_system
from engine.core import rng as rng_mod
from engine.core.limited import LimitedError


@pytest.fixture(scope="module")
def db():
    return load_system()


def test_draft_packs_are_reproducible_from_the_seed(db):
    first = draft_packs(["BK1"] * 3, 8, db, seed=1234)
    assert first == draft_packs(["BK1"] * 3, 8, db, seed=1234)
    assert first != draft_packs(["BK1"] * 3, 8, db, seed=1235)
    assert len(first) == 8 and all(len(seat) == 3 for seat in first)


def test_a_booster_never_holds_the_same_card_twice(db):
    for seat in draft_packs(["BK1"] * 3, 16, db, seed=7):
        for booster in seat:
            assert len(booster) == 15
            assert len(set(booster)) == 15


def test_rarity_counts_per_slot_11_3_1(db):
    for seat in draft_packs(["BK1"] * 3, 10, db, seed=99):
        for booster in seat:
            rarities = [db[card_id].rarity for card_id in booster]
            assert rarities == ["common"] * 11 + ["uncommon"] * 3 + ["rare"]
            assert Counter(rarities) == {"common": 11, "uncommon": 3, "rare": 1}


def test_sealed_pool_and_pool_size_give_a_limited_deck_100_2a(db):
    pool = sealed_pool(["BK1"] * 6, db, seed=5)
    assert len(pool) == pool_size(["BK1"] * 6, db) == 90
    assert pool == sealed_pool(["BK1"] * 6, db, seed=5)
    assert pool_size(["BK1"] * 2, db) >= 20  # the smallest limited deck [100.2а]


def test_open_booster_advances_the_rng_in_place(db):
    state = rng_mod.seed_state(3)
    card_set = db.get_set("BK1")
    one = open_booster(card_set, state)
    two = open_booster(card_set, state)
    assert one != two


def test_unknown_sets_and_bad_arguments_raise_limited_errors(db):
    for call in (
        lambda: draft_packs(["XX9"], 2, db, seed=1),
        lambda: draft_packs("BK1", 2, db, seed=1),
        lambda: draft_packs([], 2, db, seed=1),
        lambda: draft_packs(["BK1"], 0, db, seed=1),
        lambda: sealed_pool(["NOPE"], db, seed=1),
        lambda: pool_size(["NOPE"], db),
    ):
        with pytest.raises(CollationError) as err:
            call()
        assert isinstance(err.value, LimitedError)
