"""Configs and lists checked against the rules, and seeds wide enough to keep secrets."""

from __future__ import annotations

import secrets

import pytest

from engine.ascension.game import SYSTEM as ASCENSION
from engine.core import rng
from engine.core.errors import InvalidConfig
from engine.voskhozhdenie.decks import CHECKER, deck_text
from engine.voskhozhdenie.sample import sample_deck
from tests.engine.voskhozhdenie.helpers import deck, new_system

SYSTEM = new_system()


@pytest.mark.rule("5.3")
@pytest.mark.parametrize("dice", ["1d2", "3d6", "d", "1d20x", 20, ["1d20"], None, 1.5])
def test_only_the_rules_dice_are_accepted(dice):
    with pytest.raises(InvalidConfig, match="1d20 or 2d6"):
        SYSTEM.new_game({"dice": dice}, [deck(), deck()], 1)


@pytest.mark.rule("5.3")
def test_both_rules_dice_are_accepted():
    assert SYSTEM.new_game({"dice": "2d6"}, [deck(), deck()], 1)["dice"] == [2, 6]
    assert SYSTEM.new_game({"dice": "1D20"}, [deck(), deck()], 1)["dice"] == [1, 20]


@pytest.mark.rule("1.2.4", "1.3.9")
@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ([[0, 1]], "two teams"),
        ([[0, 1, 2, 3]], "two teams"),
        ([[0.0, 2], [1, 3]], "seat numbers"),
        ([[True, 2], [0, 3]], "seat numbers"),
        ([[0, 2], []], "non-empty"),
        ([[0, 2], [1, 1]], "exactly once"),
        ("0,1", "lists"),
    ],
)
def test_teams_must_seat_everyone_once_with_opponents(teams, message):
    n = 2 if teams == [[0, 1]] else 4
    with pytest.raises(InvalidConfig, match=message):
        SYSTEM.new_game({"teams": teams}, [deck() for _ in range(n)], 1)


def test_player_counts_are_checked():
    with pytest.raises(InvalidConfig):
        SYSTEM.new_game({}, [deck()], 1)
    with pytest.raises(InvalidConfig):
        SYSTEM.new_game({}, [deck() for _ in range(9)], 1)
    for n in (0, 5, True, 2.0, "2"):
        with pytest.raises(InvalidConfig):
            ASCENSION.new_game({"players": n}, [], 1)


def test_a_decklist_with_a_byte_order_mark_and_windows_line_ends_reads_the_same():
    db = SYSTEM.db
    text = deck_text(sample_deck(db, 3, cities=2, main=20), db)
    plain = CHECKER.parse(text, db)
    assert not plain.problems
    for variant in (
        "\ufeff" + text,
        text.replace("\n", "\r\n"),
        "\ufeff" + text.replace("\n", "\r\n"),
    ):
        parsed = CHECKER.parse(variant, db)
        assert not parsed.problems
        assert parsed == plain


def test_full_seeds_have_128_bits_and_distinct_states():
    seeds = [rng.new_seed(secrets.randbits(rng.SEED_BITS)) for _ in range(200)]
    assert all(s >= rng.LEGACY_SEEDS for s in seeds)
    assert len({tuple(rng.seed_state(s)) for s in seeds}) == 200
    # Seeds that differ only above the old 32-bit fold give different games.
    a = rng.new_seed(1)
    b = rng.new_seed(1 | 1 << 100)
    assert rng.seed_state(a) != rng.seed_state(b)


@pytest.mark.rule("1.4.2.6", "1.4.2.7")
def test_instance_ids_of_a_full_seed_do_not_follow_the_decklist():
    decks = [sample_deck(SYSTEM.db, k, cities=2, main=20) for k in range(2)]
    listed = [c for d in decks for part in ("cities", "main", "reinforcement") for c in d[part]]
    in_order = 0
    for k in range(20):
        state = SYSTEM.new_game({}, decks, rng.new_seed(secrets.randbits(128) + k))
        dealt = [c["card"] for c in state["cards"][: len(listed)]]
        assert sorted(dealt) == sorted(listed)
        in_order += dealt == listed
        # Each seat still holds exactly its own list.
        for seat, d in enumerate(decks):
            owned = [c["card"] for c in state["cards"] if c["owner"] == seat]
            assert sorted(owned) == sorted(d["cities"] + d["main"] + d["reinforcement"])
    assert in_order == 0
