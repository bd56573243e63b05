"""Draft bots for «Восхождение»: card ratings, picks and deck building. Pure Python.

``rate_card(card)`` is a context-free rating (higher is better, roughly 0.1-5):

* rarity: common 1.0, uncommon 1.4, rare 1.9, legendary 2.5 (rarer cards are stronger);
* type: Squad +0.6 (the backbone: they fight Tactics and attack), Patron +0.8, Tactic
  +0.4, Order +0.3, Relic and Fortification +0.2;
* efficiency, for cards with Strength: ±0.25 per point of Strength above or below what
  the cost usually buys (a Squad: Strength = cost, min 1; a Fortification: cost + 2;
  a Patron: cost + 1), capped at ±0.75;
* text: +0.15 per ability (at most 3), +0.15 for Zeal, +0.1 for Reinforcement (the card
  can also go to the Reinforcement Deck);
* curve: -0.15 per coin of cost above 5;
* a City: 1.0 + 0.4 per Supply symbol + 0.1 per point of Strength above 10 + 0.2 with
  rules text + 0.5 per colour beyond the first; a Neutral City -0.5 (it allows no
  coloured cards, rule 4.5.5.8). Minor cards rate 0 (never in a deck, 4.5.5.2).

``bot_pick(pack_cards, pool, rng)`` adds colour commitment: from the 6th pick on (5 cards
in the pool) the bot prefers the two colours with the most weight in its pool (the
ratings of its cards of that colour, plus 2.5 per City of that colour, so Cities anchor
the choice); Neutral cards always fit; off-colour cards are worth a quarter, half-fitting
multicolour cards a half, and late in the draft (20+ cards, 2+ Cities) an in-colour card
of a colour none of its Cities has is worth 0.6. A City of its colours is worth
2.5 + rating while the bot has fewer than two such Cities or none of that colour; any
other City gains value as the draft goes on while the bot has fewer than two Cities, so
it ends with two whenever it sees them. Before committing, a card gets up to +30% for
the share of its colour in the pool. Exact ties are broken with ``rng`` (an
``engine.core.rng`` state, advanced in place only on a tie), so a pick is deterministic
for a given rng state.

``bot_build_deck(pool)`` tries every pair of Cities in the pool and, for each, the best
cards within the colour limit (4.5.5.8), keeping the pair with the best total; see its
docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.core import rng as rng_mod
from engine.voskhozhdenie.cards import COLOURS, Card

__all__ = ["MAIN_TARGET", "bot_build_deck", "bot_pick", "colour_weights", "rate_card"]

RARITY_VALUE = {"common": 1.0, "uncommon": 1.4, "rare": 1.9, "legendary": 2.5}
TYPE_VALUE = {
    "squad": 0.6,
    "patron": 0.8,
    "tactic": 0.4,
    "order": 0.3,
    "relic": 0.2,
    "fortification": 0.2,
}
EXPECTED_STRENGTH_BONUS = {"squad": 0, "fortification": 2, "patron": 1}
COMMIT_AFTER = 5  # picks in the pool before the bot commits to two colours
MAIN_TARGET = 20  # Main Deck size the deck builder aims for (the minimum, 4.5.5.3)
REINFORCEMENT_MAX = 5  # 4.5.5.4
CITY_COLOUR_WEIGHT = 2.5


def rate_card(card: Card) -> float:
    """A context-free rating of a card for Draft (see the module doc)."""
    if card.minor:
        return 0.0
    if card.type == "city":
        value = 1.0 + 0.4 * card.supply + 0.1 * ((card.strength or 10) - 10)
        if card.text_en.strip() or card.abilities:
            value += 0.2
        if card.colours:
            value += 0.5 * (len(card.colours) - 1)
        else:
            value -= 0.5
        return round(max(value, 0.1), 4)
    value = RARITY_VALUE.get(card.rarity, 1.0) + TYPE_VALUE.get(card.type, 0.0)
    if card.strength is not None and card.type in EXPECTED_STRENGTH_BONUS:
        expected = max(card.cost_value, 1) + EXPECTED_STRENGTH_BONUS[card.type]
        value += max(-0.75, min(0.75, 0.25 * (card.strength - expected)))
    value += 0.15 * min(len(card.abilities), 3)
    if "zeal" in card.keywords:
        value += 0.15
    if "reinforcement" in card.keywords:
        value += 0.1
    if card.cost_value > 5:
        value -= 0.15 * (card.cost_value - 5)
    return round(max(value, 0.1), 4)


def colour_weights(pool: Sequence[Card]) -> dict[str, float]:
    """How much each colour has in the pool: ratings of its cards, 1.5 per City."""
    weights = dict.fromkeys(COLOURS, 0.0)
    for card in pool:
        share = CITY_COLOUR_WEIGHT if card.type == "city" else rate_card(card)
        for colour in card.colours:
            if colour in weights:
                weights[colour] += share
    return weights


def _committed(pool: Sequence[Card]) -> frozenset[str]:
    if len(pool) < COMMIT_AFTER:
        return frozenset()
    weights = colour_weights(pool)
    ranked = sorted(COLOURS, key=lambda c: (-weights[c], COLOURS.index(c)))
    return frozenset(c for c in ranked[:2] if weights[c] > 0)


def _pick_score(card: Card, pool: Sequence[Card], colours: frozenset[str]) -> float:
    rating = rate_card(card)
    if card.minor:
        return 0.0
    cities = [c for c in pool if c.type == "city"]
    if card.type == "city":
        urgency = min(1.0, len(pool) / 30)
        fits = bool(colours and card.colours & colours)
        if fits:
            fitting = sum(1 for c in cities if c.colours & colours)
            uncovered = any(
                not any(col in c.colours for c in cities) for col in card.colours & colours
            )
            if fitting < 2 or uncovered:
                return 2.5 + rating
            return 0.4 * rating
        if not colours:  # not committed yet: a City is a fair early pick
            return 0.8 * rating
        if len(cities) < 2:
            return 0.3 * rating + 0.5 + 2.5 * urgency
        return 0.1 * rating
    if not card.colours:
        return rating
    if not colours:
        weights = colour_weights(pool)
        total = sum(weights.values())
        share = max(weights[c] for c in card.colours) / total if total else 0.0
        return rating * (1.0 + 0.3 * share)
    if card.colours <= colours:
        # A colour without a City of its own late in the draft may never be playable.
        if len(cities) >= 2 and len(pool) >= 20:
            covered = {col for c in cities for col in c.colours}
            if not card.colours <= covered:
                return rating * 0.6
        return rating + 0.2
    if card.colours & colours:
        return rating * 0.5
    return rating * 0.25


def bot_pick(pack_cards: Sequence[Card], pool: Sequence[Card], rng: list[int]) -> str:
    """The id of the card a bot takes from ``pack_cards`` given its ``pool`` so far."""
    if not pack_cards:
        raise ValueError("bot_pick needs a pack with cards")
    colours = _committed(pool)
    scored = [(round(_pick_score(c, pool, colours), 6), c.id) for c in pack_cards]
    best = max(score for score, _ in scored)
    tied = sorted({card_id for score, card_id in scored if score == best})
    if len(tied) == 1:
        return tied[0]
    return rng_mod.choice(rng, tied)


# ---------------------------------------------------------------- deck building


def _fits(card: Card, used: dict[str, int], allowance: dict[str, int]) -> bool:
    return all(used[c] < allowance.get(c, 0) for c in card.colours)


def _take(card: Card, used: dict[str, int]) -> None:
    for c in card.colours:
        used[c] += 1


def _count_order(card: Card) -> tuple[int, float]:
    """Order that fits the most cards under colour limits: Neutral, one colour, more."""
    return (len(card.colours), -rate_card(card))


def _build_for(
    cities: tuple[Card, Card], others: list[Card]
) -> tuple[float, list[Card], list[Card]] | None:
    """(score, main, reinforcement) for a City pair, or None without 20 Main Deck cards."""
    allowance = dict.fromkeys(COLOURS, 0)
    for city in cities:
        for colour in city.colours:
            allowance[colour] += 10
    playable = [c for c in others if all(allowance.get(col, 0) for col in c.colours)]
    main_candidates = [c for c in playable if c.type != "patron"]
    # Cards that could also sit in the Reinforcement Deck are kept for it when possible.
    by_rating = sorted(
        main_candidates,
        key=lambda c: ("reinforcement" in c.keywords, -rate_card(c), c.id),
    )
    for order in (by_rating, sorted(main_candidates, key=lambda c: (*_count_order(c), c.id))):
        used = dict.fromkeys(COLOURS, 0)
        main: list[Card] = []
        for card in order:
            if len(main) >= MAIN_TARGET:
                break
            if _fits(card, used, allowance):
                main.append(card)
                _take(card, used)
        if len(main) >= MAIN_TARGET:
            break
    else:
        return None
    chosen = {id(c) for c in main}
    reinforcement: list[Card] = []
    patrons = sorted(
        (c for c in playable if c.type == "patron"), key=lambda c: (-rate_card(c), c.id)
    )
    for patron in patrons:
        if _fits(patron, used, allowance):
            reinforcement.append(patron)
            _take(patron, used)
            break
    extras = sorted(
        (c for c in playable if "reinforcement" in c.keywords and c.type != "patron"),
        key=lambda c: (-rate_card(c), c.id),
    )
    for card in extras:
        if len(reinforcement) >= REINFORCEMENT_MAX:
            break
        if id(card) not in chosen and _fits(card, used, allowance):
            reinforcement.append(card)
            _take(card, used)
    score = sum(rate_card(c) for c in main) + 0.5 * sum(rate_card(c) for c in reinforcement)
    score += sum(rate_card(c) for c in cities)
    return score, main, reinforcement


def bot_build_deck(pool: Sequence[Card]) -> dict[str, list[str]]:
    """A legal Draft deck (4.5.5) from ``pool`` whenever the pool allows one.

    ``{"cities": [2 ids], "main": [ids], "reinforcement": [ids]}``. For every pair of
    Cities in the pool (two copies of one City are allowed, AMB-05) the colour allowance
    is 10 cards per City of a colour (4.5.5.8; Neutral cards are free); the Main Deck is
    the best-rated 20 cards that fit (Patrons never, Reinforcement cards last), falling
    back to the order that fits the most cards (Neutral, then one colour, then more);
    the Reinforcement Deck gets the best fitting Patron (at most one, 4.5.5.6) and the
    best remaining fitting "Reinforcement" cards, at most 5 in all. The pair with the
    best total rating wins. Without two Cities or without 20 fitting cards it returns
    the best it can (the deck checker will then say what is missing).
    """
    cards = [c for c in pool if not c.minor]
    cities = sorted((c for c in cards if c.type == "city"), key=lambda c: (-rate_card(c), c.id))
    others = [c for c in cards if c.type != "city"]
    best: tuple[float, tuple[Card, Card], list[Card], list[Card]] | None = None
    seen: set[tuple[str, str]] = set()
    for pair in combinations(cities, 2):
        key = (pair[0].id, pair[1].id)
        if key in seen:
            continue
        seen.add(key)
        built = _build_for(pair, others)
        if built is not None and (best is None or built[0] > best[0]):
            best = (built[0], pair, built[1], built[2])
    if best is not None:
        _score, pair, main, reinforcement = best
        return {
            "cities": [c.id for c in pair],
            "main": [c.id for c in main],
            "reinforcement": [c.id for c in reinforcement],
        }
    # No legal deck: the best effort (fewer Cities and/or fewer Main Deck cards).
    chosen_cities = tuple(cities[:2])
    allowance = dict.fromkeys(COLOURS, 0)
    for city in chosen_cities:
        for colour in city.colours:
            allowance[colour] += 10
    used = dict.fromkeys(COLOURS, 0)
    main = []
    for card in sorted(
        (c for c in others if c.type != "patron"), key=lambda c: (*_count_order(c), c.id)
    ):
        if _fits(card, used, allowance):
            main.append(card)
            _take(card, used)
    return {
        "cities": [c.id for c in chosen_cities],
        "main": [c.id for c in main],
        "reinforcement": [],
    }
