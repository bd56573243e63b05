"""Draft bots: ratings, picks with colour commitment, and deck building checked by the
deck checker of «Восхождение» (rule 4.5.5) on real drafted pools.

Plain pytest, no Django: ``.venv/bin/python -m pytest -p no:django tests/drafting``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date

import pytest

from drafting import draft as d
from engine.core.rng import seed_state, shuffle
from engine.voskhozhdenie.boosters import draft_packs
from engine.voskhozhdenie.cards import Card, CardDB, CardSet, Cost
from engine.voskhozhdenie.decks import CHECKER, ParsedDeck
from engine.voskhozhdenie.draftbots import bot_build_deck, bot_pick, rate_card
from engine.voskhozhdenie.loader import load_system

DB = load_system("voskhozhdenie")

_numbers = iter(range(1, 10_000))


def card(
    card_type: str = "squad",
    colours: Sequence[str] = (),
    rarity: str = "common",
    cost: int | None = 2,
    strength: int | None = 2,
    keywords: Sequence[str] = (),
    supply: int = 0,
    minor: bool = False,
) -> Card:
    n = next(_numbers)
    if card_type in ("tactic", "order", "relic"):
        strength = None
    if card_type == "city":
        cost, strength, supply = None, strength if strength and strength > 5 else 10, supply or 2
    return Card(
        id=f"T-{n:04d}",
        set_code="T",
        number=n,
        name_ru=f"Карта {n}",
        name_en=f"Card {n}",
        type=card_type,
        subtypes=(),
        colours=frozenset(colours),
        cost=None if cost is None else Cost(coins=cost),
        strength=strength,
        supply=supply,
        keywords=frozenset(keywords),
        minor=minor,
        rarity=rarity,
    )


def checker_violations(
    deck: dict[str, list[str]], pool: Sequence[Card], db: CardDB | None = None
) -> list:
    by_id = {c.id: c for c in pool}
    if db is None:  # the made-up cards of a test, in a database of their own
        test_set = CardSet("T", "Тест", "Test", date(2026, 1, 1), tuple(by_id.values()))
        db = CardDB.build("test", [test_set])
    parsed = ParsedDeck.of(
        [by_id[i] for i in deck["cities"]],
        [by_id[i] for i in deck["main"]],
        [by_id[i] for i in deck["reinforcement"]],
    )
    return CHECKER.check(parsed, "draft", db, pool=Counter(c.id for c in pool))


# ---------------------------------------------------------------- ratings


def test_rate_card_rarity_efficiency_type():
    assert rate_card(card(rarity="legendary")) > rate_card(card(rarity="rare"))
    assert rate_card(card(rarity="rare")) > rate_card(card(rarity="uncommon"))
    assert rate_card(card(rarity="uncommon")) > rate_card(card())
    assert rate_card(card(cost=2, strength=4)) > rate_card(card(cost=2, strength=2))
    assert rate_card(card(cost=4, strength=2)) < rate_card(card(cost=2, strength=2))
    assert rate_card(card(cost=8, strength=8)) < rate_card(card(cost=5, strength=5))
    assert rate_card(card("squad")) > rate_card(card("relic"))
    assert rate_card(card(keywords=["zeal"])) > rate_card(card())
    assert rate_card(card(minor=True)) == 0.0
    city = card("city", ["white"], supply=2)
    assert rate_card(city) > rate_card(card("city", ["white"], supply=1))
    assert rate_card(card("city", ["white", "red"])) > rate_card(city)
    assert rate_card(card("city", [])) < rate_card(city)
    assert all(rate_card(c) > 0 for c in DB.all_cards() if not c.minor)


# ---------------------------------------------------------------- picks


def test_bot_pick_is_deterministic_for_a_given_rng_state():
    pack = [card(colours=["white"]) for _ in range(5)]  # all tied
    pool = [card(colours=["blue"])]
    picks = []
    for _ in range(3):
        rng = seed_state(42)
        picks.append((bot_pick(pack, pool, rng), tuple(rng)))
    assert len(set(picks)) == 1
    different = {bot_pick(pack, pool, seed_state(s)) for s in range(30)}
    assert len(different) > 1  # the rng does break ties
    assert bot_pick(pack, pool, seed_state(42)) in {c.id for c in pack}
    with pytest.raises(ValueError):
        bot_pick([], pool, seed_state(1))


def test_bot_takes_the_best_card_before_committing():
    pool = [card(colours=["white"]), card(colours=["blue"])]
    red_rare = card(colours=["red"], rarity="rare")
    white = card(colours=["white"])
    assert bot_pick([white, red_rare], pool, seed_state(1)) == red_rare.id


def test_bot_commits_to_two_colours_after_five_picks():
    pool = [card(colours=["white"]) for _ in range(3)] + [card(colours=["blue"]) for _ in range(3)]
    red_uncommon = card(colours=["red"], rarity="uncommon")
    white = card(colours=["white"])
    blue = card(colours=["blue"])
    neutral = card()
    rng = seed_state(1)
    assert bot_pick([red_uncommon, white], pool, rng) == white.id
    assert bot_pick([red_uncommon, blue], pool, rng) == blue.id
    assert bot_pick([red_uncommon, neutral], pool, rng) == neutral.id  # Neutral always fits
    gold = card(colours=["white", "blue"])
    half = card(colours=["white", "red"])
    assert bot_pick([half, gold], pool, rng) == gold.id


def test_bot_takes_cities_of_its_colours_until_it_has_two():
    pool = [card(colours=["white"]) for _ in range(4)] + [card(colours=["blue"]) for _ in range(4)]
    white_city = card("city", ["white"])
    blue_city = card("city", ["blue"])
    red_city = card("city", ["red"])
    good = card(colours=["white"], rarity="rare")
    rng = seed_state(1)
    assert bot_pick([good, white_city], pool, rng) == white_city.id
    assert bot_pick([good, red_city, blue_city], [*pool, white_city], rng) == blue_city.id
    # With two Cities of its colours, the card is worth more than another City.
    assert bot_pick([good, white_city], [*pool, white_city, blue_city], rng) == good.id
    # Late, with no City at all, even an off-colour City beats a common.
    late = pool * 4
    assert bot_pick([card(colours=["white"]), red_city], late, rng) == red_city.id


# ---------------------------------------------------------------- deck building


def test_bot_build_deck_from_a_small_pool():
    cities = [card("city", ["white"]), card("city", ["blue"]), card("city", ["red"])]
    whites = [card(colours=["white"]) for _ in range(12)]
    blues = [card(colours=["blue"]) for _ in range(6)]
    neutrals = [card() for _ in range(4)]  # 10 white + 6 blue + 4 Neutral = 20
    reinforcements = [card(colours=["white"], keywords=["reinforcement"]) for _ in range(2)]
    patrons = [card("patron", ["blue"], rarity="rare", cost=5, strength=6), card("patron")]
    pool = cities + whites + blues + neutrals + reinforcements + patrons
    deck = bot_build_deck(pool)
    assert len(deck["cities"]) == 2
    assert len(deck["main"]) >= 20
    assert len(deck["reinforcement"]) <= 5
    by_id = {c.id: c for c in pool}
    assert sum(by_id[i].type == "patron" for i in deck["reinforcement"]) == 1
    assert not checker_violations(deck, pool)


def test_bot_build_deck_uses_two_copies_of_a_city_and_no_city_means_no_deck():
    city = card("city", ["black"])
    blacks = [card(colours=["black"]) for _ in range(18)]
    pool = [city, city, *blacks, card(), card()]
    deck = bot_build_deck(pool)
    assert deck["cities"] == [city.id, city.id]
    assert not checker_violations(deck, pool)
    assert len(deck["main"]) == 20
    no_city = bot_build_deck(blacks)
    assert no_city["cities"] == []
    assert no_city["reinforcement"] == []


def test_colour_limit_is_respected():
    """10 cards of a colour per City of that colour (4.5.5.8): too few to fill a deck."""
    pool = [card("city", ["red"]), card("city", [])]
    pool += [card(colours=["red"]) for _ in range(15)] + [card() for _ in range(5)]
    deck = bot_build_deck(pool)
    violations = checker_violations(deck, pool)
    assert [v.rule for v in violations] == ["4.5.5.3"]  # only the Main Deck size
    assert len(deck["main"]) == 15


def simulate(seed: int, codes: Sequence[str], seats: int = 8) -> list[list[str]]:
    """A whole draft with a bot in every seat, picking in a shuffled seat order."""
    state = d.new_draft(draft_packs(list(codes), seats, DB, seed))
    rngs = [seed_state(seed * 1000 + seat) for seat in range(seats)]
    order_rng = seed_state(seed)

    while not d.is_finished(state):
        order = list(range(seats))
        shuffle(order_rng, order)
        for seat in order:
            pack = d.current_pack(state, seat)
            if pack is None:
                continue
            choice = bot_pick(
                [DB.card(c) for c in pack["cards"]],
                [DB.card(c) for c in state["pools"][seat]],
                rngs[seat],
            )
            state = d.pick(state, seat, choice, expected_pick=d.pick_number(state, seat))
    return d.pools(state)


def legal_decks(seed: int, codes: Sequence[str]) -> tuple[int, int]:
    legal = total = 0
    for pool_ids in simulate(seed, codes):
        pool = [DB.card(c) for c in pool_ids]
        deck = bot_build_deck(pool)
        total += 1
        legal += not checker_violations(deck, pool, DB)
    return legal, total


def test_drafting_is_deterministic():
    assert simulate(3, ["VS1"] * 4) == simulate(3, ["VS1"] * 4)


def test_bots_commit_to_colours_in_a_real_draft():
    for pool_ids in simulate(5, ["VS1"] * 4):
        colours = Counter(col for c in pool_ids for col in DB.card(c).colours)
        top_two = sum(n for _, n in colours.most_common(2))
        assert top_two >= 0.75 * sum(colours.values())
        assert sum(DB.card(c).type == "city" for c in pool_ids) >= 2


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_bot_decks_from_vs1_drafts_are_legal(seed):
    """8 bots draft 4 VS1 boosters; all 8 decks pass the deck checker (4.5.5)."""
    assert legal_decks(seed, ["VS1"] * 4) == (8, 8)


def test_bot_decks_from_small_set_drafts_are_mostly_legal():
    """40-card pools (VS2-VS4 boosters) are tighter; nearly all decks are legal."""
    legal = total = 0
    for seed in range(1, 6):
        ok, n = legal_decks(seed, ["VS2", "VS3", "VS4", "VS2"])
        legal += ok
        total += n
    assert legal >= 0.9 * total
