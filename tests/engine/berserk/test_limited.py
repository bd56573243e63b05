"""The limited kit of Berserk (``engine.berserk.limited``) and its draft bots
(``engine.berserk.draftbots``): faces in both languages, bot drafts and sealed decks
checked by the decklist service (100.2а, 100.3), deterministic picks."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.berserk import boosters, draftbots
from engine.berserk.cards import load_system
from engine.berserk.decks import DECKLISTS
from engine.berserk.limited import KIT, TYPE_NAMES, card_face, cost_text
from engine.berserk.model import ELEMENTS, Ability
from engine.core import rng as rng_mod
from engine.core.limited import CardFace, LimitedError, LimitedKit

DB = load_system()
CARDS = DB.all_cards()


def _legal(deck: dict[str, list[str]], pool: list[str], fmt: str = "draft") -> list[dict]:
    return DECKLISTS.check_sections(deck, fmt, pool=Counter(pool))


# ---------------------------------------------------------------- the kit


def test_the_kit_is_a_limited_kit():
    assert isinstance(KIT, LimitedKit)
    assert [s.key for s in KIT.sections] == ["deck"]
    section = KIT.sections[0]
    assert (section.label("en"), section.label("ru"), section.target) == (
        "Deck",
        "Колода",
        "20–50",
    )
    assert KIT.min_pool == 20
    assert KIT.supply is None
    assert KIT.supply_choices(["BK1"]) == []


def test_rules_text_cites_the_deck_rules_in_both_languages():
    en, ru = KIT.rules_text("en"), KIT.rules_text("ru")
    for text in (en, ru):
        assert "100.2а" in text and "100.3" in text and "20" in text and "50" in text
    assert "pool" in en and "пула" in ru
    assert en != ru


def test_boosters_known_and_pool_size():
    assert KIT.known("BK1-001") and not KIT.known("BK1-999") and not KIT.known("")
    assert KIT.pool_size(["BK1"] * 3) == 45
    with pytest.raises(LimitedError):
        KIT.pool_size(["NOPE"])
    packs = KIT.draft_packs(["BK1"] * 3, 8, seed=5)
    assert packs == boosters.draft_packs(["BK1"] * 3, 8, DB, 5)
    assert len(KIT.sealed_pool(["BK1"] * 6, seed=5)) == 90


# ---------------------------------------------------------------- faces


def _first(kind: str, **want) -> str:
    for card in CARDS:
        if draftbots.kind(card) == kind and all(getattr(card, k) == v for k, v in want.items()):
            return card.id
    raise AssertionError(f"no {kind} card with {want}")


@pytest.mark.parametrize("kind", list(TYPE_NAMES))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_face_for_every_type_in_both_languages(kind, language):
    face = KIT.face(_first(kind), language)
    card = DB.card(face.id)
    assert isinstance(face, CardFace)
    assert face.type == kind
    assert face.type_name == TYPE_NAMES[kind][1 if language == "ru" else 0]
    assert face.name == card.name(language)
    assert face.text == (card.text_ru if language == "ru" else card.text_en)
    assert face.rarity == card.rarity
    assert face.section == "deck"
    assert face.cost.endswith("◆" if card.elite else "◇")
    assert face.cost_value == card.cost
    symbols = [s.symbol for s in face.stats]
    # the cost is shown once, as ``cost``: no stat repeats it (a draft card shows both)
    assert not {"◆", "◇"} & set(symbols)
    assert all(face.cost not in str(s.value) for s in face.stats)
    assert ("♥" in symbols) == bool(card.lives)
    assert ("⚔" in symbols) == (card.type == "creature")
    assert ("➜" in symbols) == bool(card.movement)
    assert face.as_dict()["id"] == face.id


def test_faces_show_stats_tags_elements_and_sort_keys():
    en = KIT.face("BK1-002", "en")  # Young Rider: steppe, 2 silver, 3 lives, 1-2-2, move 2
    ru = KIT.face("BK1-002", "ru")
    assert en.colours == ru.colours == ("steppe",)
    assert (en.colour_names, ru.colour_names) == (("Steppe",), ("Степи",))
    assert en.cost == "2◇"
    assert [(s.symbol, s.value) for s in en.stats] == [
        ("♥", 3),
        ("⚔", "1-2-2"),
        ("➜", 2),
    ]
    assert en.tags[0] == "Vanguard" and ru.tags[0] == "Авангард"
    assert (en.type_key, en.colour_key) == (0, "0")
    armour = next(c for c in CARDS if c.ability_x("armour") == 2 and c.type == "creature")
    assert "Armour 2" in KIT.face(armour.id, "en").tags
    assert "Броня 2" in KIT.face(armour.id, "ru").tags
    elite = next(c for c in CARDS if c.elite and not c.cost_x)
    assert KIT.face(elite.id).cost == f"{elite.cost}◆"
    x_cost = next(c for c in CARDS if c.cost_x)
    assert cost_text(x_cost) in ("X◇", "X◆", f"{x_cost.cost}+X◇", f"{x_cost.cost}+X◆")
    neutral = next(c for c in CARDS if not c.element)
    assert KIT.face(neutral.id, "en").colours == ()
    assert KIT.face(neutral.id, "en").colour_names == ("Neutral",)
    assert KIT.face(neutral.id, "ru").colour_names == ("Нейтральная",)
    assert KIT.face(neutral.id).colour_key == "9"
    darkness = next(c for c in CARDS if c.element == "darkness")
    assert KIT.face(darkness.id).colour_key == str(ELEMENTS.index("darkness"))


@pytest.mark.parametrize("language", ["en", "ru", "ru-RU"])
def test_every_card_has_a_face(language):
    for card in CARDS:
        face = card_face(card, "ru" if language.startswith("ru") else "en")
        assert face == KIT.face(card.id, language)
        assert face.name and face.type_name and face.cost and face.colour_names


# ---------------------------------------------------------------- ratings and picks


def test_ratings_prefer_better_bodies_and_abilities():
    plain = replace(
        next(c for c in CARDS if draftbots.kind(c) == "creature" and c.cost == 3),
        id="T-0",
        rarity="common",
        abilities=(),
    )
    bigger = replace(plain, id="T-1", lives=plain.lives + 2)
    rare = replace(plain, id="T-2", rarity="rare")
    armoured = replace(plain, id="T-3", abilities=(Ability("armour", 2),))
    clumsy = replace(plain, id="T-4", abilities=(Ability("clumsiness", 1),))
    base = draftbots.rate_card(plain)
    assert draftbots.rate_card(bigger) > base
    assert draftbots.rate_card(rare) > base
    assert draftbots.rate_card(armoured) > base
    assert draftbots.rate_card(clumsy) < base
    assert all(draftbots.rate_card(c) > 0 for c in CARDS)


def test_a_bot_commits_to_its_two_best_elements():
    def of(element: str, n: int) -> list:
        return [c for c in CARDS if c.element == element and c.type == "creature"][:n]

    pool = of("forest", 3) + of("swamps", 3) + of("steppe", 1)
    assert draftbots.committed(pool) == frozenset({"forest", "swamps"})
    assert draftbots.committed(pool[:4]) == frozenset()  # not yet: fewer than 5 picks
    # an in-element card beats an equally rated card of a third element
    forest = max(of("forest", 30), key=draftbots.rate_card)
    others = [c for c in CARDS if c.element == "mountains"]
    rival = min(others, key=lambda c: abs(draftbots.rate_card(c) - draftbots.rate_card(forest)))
    assert draftbots.bot_pick([rival, forest], pool, rng_mod.seed_state(1)) == forest.id


def test_picks_are_deterministic_from_the_rng():
    by_rating: dict[tuple[float, str], list[str]] = {}
    for card in CARDS:
        by_rating.setdefault((draftbots.rate_card(card), card.element), []).append(card.id)
    tied = next(ids for ids in by_rating.values() if len(ids) >= 2)[:2]
    seen = set()
    for seed in range(40):
        first, second = rng_mod.seed_state(seed), rng_mod.seed_state(seed)
        pick = KIT.bot_pick(tied, [], first)
        assert pick == KIT.bot_pick(tied, [], second)
        assert first == second  # the rng advanced the same way
        assert first != rng_mod.seed_state(seed)  # a tie draws from the rng
        seen.add(pick)
    assert seen == set(tied)  # either card can win a tie
    # without a tie the rng is untouched
    low, high = sorted(CARDS[:2], key=draftbots.rate_card)
    assert draftbots.rate_card(low) < draftbots.rate_card(high)
    state = rng_mod.seed_state(3)
    assert KIT.bot_pick([low.id, high.id], [], state) == high.id
    assert state == rng_mod.seed_state(3)
    packs = KIT.draft_packs(["BK1"], 1, seed=11)[0][0]
    a, b = rng_mod.seed_state(9), rng_mod.seed_state(9)
    assert KIT.bot_pick(packs, packs[:6], a) == KIT.bot_pick(packs, packs[:6], b)
    with pytest.raises(ValueError):
        KIT.bot_pick([], [], rng_mod.seed_state(1))


# ---------------------------------------------------------------- bot decks


def _draft(seed: int, seats: int = 8, rounds: int = 3) -> list[list[str]]:
    """A pod of bots drafting: boosters passed left, right, left."""
    packs = KIT.draft_packs(["BK1"] * rounds, seats, seed)
    rng = rng_mod.seed_state(seed)
    pools: list[list[str]] = [[] for _ in range(seats)]
    for booster_round in range(rounds):
        hands = [list(packs[seat][booster_round]) for seat in range(seats)]
        step = 1 if booster_round % 2 == 0 else -1
        while any(hands):
            for seat in range(seats):
                pick = KIT.bot_pick(hands[seat], pools[seat], rng)
                hands[seat].remove(pick)
                pools[seat].append(pick)
            hands = [hands[(seat - step) % seats] for seat in range(seats)]
    return pools


def _check_deck(deck: dict[str, list[str]], pool: list[str], fmt: str) -> None:
    assert list(deck) == ["deck"]
    ids = deck["deck"]
    assert 20 <= len(ids) <= 30
    assert not Counter(ids) - Counter(pool)
    assert _legal(deck, pool, fmt) == []


@pytest.mark.parametrize("seed", [1, 2024])
def test_a_pod_of_eight_bots_drafts_legal_decks(seed):
    pools = _draft(seed)
    assert all(len(pool) == 45 for pool in pools)
    everything = Counter(
        c for seat in KIT.draft_packs(["BK1"] * 3, 8, seed) for b in seat for c in b
    )
    assert Counter(c for pool in pools for c in pool) == everything
    for pool in pools:
        deck = KIT.bot_deck(pool)
        _check_deck(deck, pool, "draft")
        cards = [DB.card(c) for c in deck["deck"]]
        elements = {c.element for c in cards if c.element}
        assert len(elements) <= 2  # 304.6: a drafting bot keeps to two elements
        assert sum(c.type == "terrain" for c in cards) <= 1
    assert _draft(seed) == pools  # the whole draft is reproducible


def test_bot_decks_are_legal_for_200_sealed_pools():
    sizes = Counter()
    for seed in range(200):
        pool = KIT.sealed_pool(["BK1"] * 6, seed=10_000 + seed)
        deck = KIT.bot_deck(pool)
        _check_deck(deck, pool, "sealed")
        sizes[len(deck["deck"])] += 1
        assert KIT.bot_deck(pool) == deck
    assert min(sizes) >= 20 and max(sizes) <= 30


def test_bot_decks_from_narrow_or_small_pools():
    rng = random.Random(7)
    ids = [c.id for c in CARDS]
    for _ in range(50):
        pool = rng.choices(ids, k=rng.randint(20, 45))  # copies included
        _check_deck(KIT.bot_deck(pool), pool, "draft")
    # one element per card of five elements: the deck spreads wider to reach 20
    spread = [c.id for e in ELEMENTS for c in CARDS if c.element == e][::9][:20]
    assert len(spread) == 20
    _check_deck(KIT.bot_deck(spread), spread, "draft")
    # a pool of fewer than 20 cards gives what it has (the checker says what is missing)
    small = ids[:12]
    deck = KIT.bot_deck(small)
    assert sorted(deck["deck"]) == sorted(small)
    assert [p["rule"] for p in _legal(deck, small)] == ["100.2а"]
    assert KIT.bot_deck([]) == {"deck": []}


def test_copies_in_the_pool_may_all_be_played():
    card = max(
        (c for c in CARDS if c.element == "forest" and c.type == "creature"),
        key=draftbots.rate_card,
    )
    others = [c.id for c in CARDS if c.element in ("forest", "steppe")][:25]
    pool = [card.id] * 3 + others
    deck = KIT.bot_deck(pool)
    _check_deck(deck, pool, "draft")
    assert deck["deck"].count(card.id) == 3
