"""Draft bots for Berserk (ККИ «Берсерк»): card ratings, picks and deck building. Pure
Python, no Django.

``rate_card(card)`` is a context-free rating (higher is better, roughly 0.3-4):

* type: a creature 1.0, a flyer 1.1 (it reaches any card, 211), a symbiote or parasite
  0.6, an artifact 0.6, equipment 0.5, terrain 0.5 (a squad has one, 212.3);
* cost efficiency, for creatures: lives + the mean of the X-Y-Z strike against what a
  crystal usually buys in the set (a body of 2.3 + 1.15 per crystal; a flyer's 1 less,
  as its wings are worth a body point; a cost X or N+X card counts X as 2 crystals and
  2 lives, the usual X of «В начале боя: X дополнительных жизней»), ±0.35 per body
  point, capped at ±0.8; an artifact: ±0.1 per life above or below its cost;
* abilities: each named ability of the Словарь has its value (``ABILITY_VALUE``; those
  with X per point of X, e.g. Armour 2 = 2 × 0.3), a card's own scripted ability 0.3
  (0.4 on a symbiote, parasite or equipment, whose value is what it gives its host);
  all abilities together at most +1.6 (and at least −0.6, for Clumsiness and
  Vulnerability);
* rarity: uncommon +0.2, rare +0.4 (rarer cards are stronger);
* curve: −0.1 per crystal above 6 (a squad is recruited from 45 crystals, 101.1).

``bot_pick(pack_cards, pool, rng)`` adds element commitment: recruitment pays 1 gold
per element beyond two (304.6), so from the 6th pick on (5 cards in the pool) the bot
prefers the two elements with the most weight in its pool (the ratings of its cards of
that element); neutral cards always fit. A card of its elements gets +0.25, a neutral one
+0.15, another element's card is worth 35% of its rating. Before committing, a card gets
up to +30% for its element's share of the pool. A second terrain (one per squad, 212.3)
is worth 30%, and so is a hosted card (equipment, symbiote, parasite) once the bot has
``ATTACH_MAX`` of them. Exact ties are broken with ``rng`` (an ``engine.core.rng`` state,
advanced in place only on a tie), so a pick is deterministic for a given rng state.

``bot_build_deck(pool)`` tries every pair of elements and keeps the best deck; see its
docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.berserk.model import ELEMENTS, Card
from engine.core import rng as rng_mod

__all__ = [
    "ABILITY_VALUE",
    "DECK_MAX",
    "DECK_MIN",
    "bot_build_deck",
    "bot_pick",
    "element_weights",
    "rate_card",
]

DECK_MIN = 20  # 100.2а: a draft or sealed deck
DECK_MAX = 30  # what a bot builds at most (the rules allow 50, 100.3)
COMMIT_AFTER = 5  # picks in the pool before the bot commits to two elements
EXTRA_SHARE = 0.9  # a card past the 20th goes in if it rates ≥ 90% of the weakest one in
TERRAIN_MAX = 1  # 212.3: one terrain per squad
ATTACH_MAX = 5  # equipment, symbiotes and parasites: each needs a host
FLYER_MAX = 5  # 211.7: flyers cost at most 15 crystals of a squad
ELITE_MAX = 7  # elite cards are paid in gold only (D-6): 23 gold, 101.1

RARITY_VALUE = {"common": 0.0, "uncommon": 0.2, "rare": 0.4}
TYPE_VALUE = {
    "creature": 1.0,
    "flying": 1.1,
    "symbiote": 0.6,
    "parasite": 0.6,
    "artifact": 0.6,
    "equipment": 0.5,
    "terrain": 0.5,
}
# Named abilities (digest §13): value, per point of X where the ability has one.
ABILITY_VALUE: dict[str, float] = {
    "vanguard": 0.3,
    "unanswerable": 0.4,
    "incorporeal": 0.3,
    "blessing": 0.3,
    "curse": 0.2,
    "armour": 0.3,
    "vampirism": 0.3,
    "resurrection": 0.4,
    "summon": 0.4,
    "shot": 0.4,
    "throw": 0.35,
    "discharge": 0.45,
    "wrath": 0.2,
    "range": 0.05,
    "gift_of_life": 0.1,
    "finishing": 0.2,
    "unity": 0.1,
    "thirst": 0.25,
    "protection": 0.2,
    "heal": 0.2,
    "incarnation": 0.1,
    "concentration": 0.15,
    "manoeuvre": 0.1,
    "meditation": 0.1,
    "directed": 0.3,
    "clumsiness": -0.25,
    "experience_attack": 0.2,
    "experience_defence": 0.2,
    "experience_shooting": 0.2,
    "experience_throwing": 0.2,
    "experience_discharge": 0.2,
    "horde": 0.0,
    "poison": 0.25,
    "redistribution": 0.3,
    "jump": 0.25,
    "teleport": 0.3,
    "regeneration": 0.25,
    "stealth": 0.2,
    "steadfastness": 0.4,
    "fear": 0.25,
    "formation": 0.15,
    "cache": 0.1,
    "thick_skin": 0.15,
    "accuracy": 0.15,
    "corpse_eating": 0.15,
    "fading": 0.2,
    "strike_through_row": 0.3,
    "uniqueness": -0.05,
    "vulnerability": -0.3,
    "plague": 0.3,
}
SCRIPT_VALUE = 0.3
HOSTED_SCRIPT_VALUE = 0.4
ABILITY_CAP = (-0.6, 1.6)
X_CRYSTALS = 2  # what a bot expects to pay for X (and gain in lives)


def kind(card: Card) -> str:
    """The card's kind for ratings and limits: its subtype, else its type."""
    return card.subtype or card.type


def _hosted(card: Card) -> bool:
    return kind(card) in ("symbiote", "parasite", "equipment")


def _ability_value(card: Card) -> float:
    total = 0.0
    for ability in card.abilities:
        if ability.name:
            value = ABILITY_VALUE.get(ability.name, 0.2)
            total += value * (ability.x if ability.x else 1)
        else:
            total += HOSTED_SCRIPT_VALUE if _hosted(card) else SCRIPT_VALUE
    low, high = ABILITY_CAP
    return max(low, min(high, total))


def rate_card(card: Card) -> float:
    """A context-free rating of a card for Draft and Sealed (see the module doc)."""
    card_kind = kind(card)
    value = TYPE_VALUE.get(card_kind, 0.5) + RARITY_VALUE.get(card.rarity, 0.0)
    crystals = card.cost + (X_CRYSTALS if card.cost_x else 0)
    if card.type == "creature" and card_kind in ("creature", "flying"):
        lives = card.lives + (X_CRYSTALS if card.cost_x else 0)
        body = lives + sum(card.strike) / 3
        par = 2.3 + 1.15 * max(crystals, 1) - (1.0 if card_kind == "flying" else 0.0)
        value += max(-0.8, min(0.8, 0.35 * (body - par)))
    elif card.type == "artifact":
        value += max(-0.4, min(0.4, 0.1 * (card.lives - max(crystals, 1))))
    value += _ability_value(card)
    if crystals > 6:
        value -= 0.1 * (crystals - 6)
    return round(max(value, 0.1), 4)


def element_weights(pool: Sequence[Card]) -> dict[str, float]:
    """How much each element has in the pool: the ratings of its cards."""
    weights = dict.fromkeys(ELEMENTS, 0.0)
    for card in pool:
        if card.element in weights:
            weights[card.element] += rate_card(card)
    return weights


def _ranked_elements(weights: dict[str, float]) -> list[str]:
    return sorted(ELEMENTS, key=lambda e: (-weights[e], ELEMENTS.index(e)))


def committed(pool: Sequence[Card]) -> frozenset[str]:
    """The (at most two) elements a bot drafts once it has ``COMMIT_AFTER`` cards."""
    if len(pool) < COMMIT_AFTER:
        return frozenset()
    weights = element_weights(pool)
    return frozenset(e for e in _ranked_elements(weights)[:2] if weights[e] > 0)


def _pick_score(card: Card, pool: Sequence[Card], elements: frozenset[str]) -> float:
    rating = rate_card(card)
    fits = not card.element or not elements or card.element in elements
    mine = [c for c in pool if not c.element or not elements or c.element in elements]
    if card.type == "terrain" and any(c.type == "terrain" for c in mine):
        rating *= 0.3  # 212.3: one terrain per squad
    elif _hosted(card) and sum(1 for c in mine if _hosted(c)) >= ATTACH_MAX:
        rating *= 0.3
    if not elements:
        if not card.element:
            return rating
        weights = element_weights(pool)
        total = sum(weights.values())
        share = weights[card.element] / total if total else 0.0
        return rating * (1.0 + 0.3 * share)
    if not card.element:
        return rating + 0.15
    if fits:
        return rating + 0.25
    return rating * 0.35


def bot_pick(pack_cards: Sequence[Card], pool: Sequence[Card], rng: list[int]) -> str:
    """The id of the card a bot takes from ``pack_cards`` given its ``pool`` so far."""
    if not pack_cards:
        raise ValueError("bot_pick needs a pack with cards")
    elements = committed(pool)
    scored = [(round(_pick_score(c, pool, elements), 6), c.id) for c in pack_cards]
    best = max(score for score, _ in scored)
    tied = sorted({card_id for score, card_id in scored if score == best})
    if len(tied) == 1:
        return tied[0]
    return rng_mod.choice(rng, tied)


# ---------------------------------------------------------------- deck building


class _Limits:
    """The soft limits of a bot deck: counts by kind, and elite cards."""

    def __init__(self) -> None:
        self.terrain = 0
        self.hosted = 0
        self.flyers = 0
        self.elite = 0

    def fits(self, card: Card) -> bool:
        if card.type == "terrain" and self.terrain >= TERRAIN_MAX:
            return False
        if _hosted(card) and self.hosted >= ATTACH_MAX:
            return False
        if card.is_flyer and self.flyers >= FLYER_MAX:
            return False
        return not (card.elite and self.elite >= ELITE_MAX)

    def take(self, card: Card) -> None:
        self.terrain += card.type == "terrain"
        self.hosted += _hosted(card)
        self.flyers += card.is_flyer
        self.elite += card.elite


def _order(cards: Sequence[Card], indices: Sequence[int]) -> list[int]:
    """``indices`` of ``cards``, best-rated first (copies of a card are separate items)."""
    return sorted(indices, key=lambda i: (-rate_card(cards[i]), cards[i].id, i))


def _build_for(elements: frozenset[str], cards: Sequence[Card]) -> tuple[float, list[int]]:
    """(score, indices of ``cards``) of the cards of ``elements`` and neutral ones: the
    best 20 within the limits, then the best others of these elements (limits relaxed),
    then, past 20, every card of these elements that rates at least ``EXTRA_SHARE`` of
    the weakest one in, up to ``DECK_MAX``. The score is the rating of the 20 best chosen
    cards, with a point off per card short of 20."""
    fitting = _order(
        cards, [i for i, c in enumerate(cards) if not c.element or c.element in elements]
    )
    limits = _Limits()
    deck: list[int] = []
    rest: list[int] = []
    for i in fitting:
        if len(deck) < DECK_MIN and limits.fits(cards[i]):
            deck.append(i)
            limits.take(cards[i])
        else:
            rest.append(i)
    while len(deck) < DECK_MIN and rest:
        i = rest.pop(0)
        deck.append(i)
        limits.take(cards[i])
    if len(deck) >= DECK_MIN:
        floor = EXTRA_SHARE * min(rate_card(cards[i]) for i in deck)
        for i in rest:
            if len(deck) >= DECK_MAX:
                break
            if rate_card(cards[i]) >= floor and limits.fits(cards[i]):
                deck.append(i)
                limits.take(cards[i])
    ratings = sorted((rate_card(cards[i]) for i in deck), reverse=True)
    score = sum(ratings[:DECK_MIN]) - max(0, DECK_MIN - len(deck))
    return score, deck


def bot_build_deck(pool: Sequence[Card]) -> dict[str, list[str]]:
    """A legal Draft or Sealed deck (100.2а, 100.3) from ``pool``: ``{"deck": [ids]}``,
    20 to 30 cards whenever the pool has 20 (the whole pool when it has fewer).

    For every pair of elements (304.6: each element beyond two costs a gold crystal) the
    deck is that pair's cards and the neutral ones, best-rated first, within soft limits
    (one terrain, 212.3; at most 5 hosted cards, 5 flyers and 7 elite cards); the pair
    with the best 20 cards wins (ties: the order of ``ELEMENTS``). A pool too narrow for
    20 such cards is filled with the best cards of the other elements. Copies of a card
    count once each: the deck never holds more of a card than the pool.
    """
    cards = list(pool)
    best: tuple[float, list[int]] = (float("-inf"), [])
    for pair in combinations(ELEMENTS, 2):
        score, deck = _build_for(frozenset(pair), cards)
        if score > best[0]:
            best = (score, deck)
    deck = list(best[1])
    if len(deck) < DECK_MIN:
        chosen = set(deck)
        for i in _order(cards, [i for i in range(len(cards)) if i not in chosen]):
            if len(deck) >= DECK_MIN:
                break
            deck.append(i)
    return {"deck": [cards[i].id for i in deck]}
