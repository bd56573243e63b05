"""Booster collation for Limited formats (Draft, Sealed). Pure Python, no Django.

A set's ``booster`` (``engine.voskhozhdenie.cards.BoosterSpec``, docs/card-format.md "Boosters and
Draft", decision for AMB-04) lists slots; each slot draws ``count`` different cards of its
rarity (only of its ``types`` when given) from the set; with probability
``upgrade_chance`` the slot draws from rarity ``upgrade`` instead. Minor cards are never
in a booster and a booster never holds the same card twice.

Randomness comes only from ``engine.core.rng`` (a JSON list state), so every booster is
reproducible from the event's seed:

    packs = draft_packs(["VS1"] * 4, seats=8, db=db, seed=event_seed)
    packs[seat][booster_round]  # -> ["VS1-017", ...]
    pool = sealed_pool(["VS1"] * 6, db, seed)

Order inside a booster: the slots in the order the set file gives them (for the real
sets: commons, uncommons, the rare/legendary, the City), each slot's cards in draw order.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

from engine.core import rng as rng_mod
from engine.core.limited import LimitedError, deal_packs
from engine.voskhozhdenie.cards import BoosterSlot, CardDB, CardSet
from engine.voskhozhdenie.loader import booster_pool

__all__ = [
    "CollationError",
    "draft_packs",
    "draft_pool_size",
    "open_booster",
    "sealed_pool",
]

_TWO_32 = 1 << 32
_ATTEMPTS = 64  # re-draws of a booster whose slots overlap and ran out of cards


class CollationError(LimitedError):
    """A booster cannot be made: unknown set, a set without boosters, a slot without cards."""


# Per CardSet: for each slot, the candidate card ids at the base and at the upgrade rarity.
# CardSet holds a dict and is unhashable, so the cache is keyed by id() and keeps the set
# itself alive (so the id is never reused while the entry exists).
_POOLS: dict[int, tuple[CardSet, list[tuple[list[str], list[str]]]]] = {}


def _slot_pools(card_set: CardSet) -> list[tuple[list[str], list[str]]]:
    cached = _POOLS.get(id(card_set))
    if cached is not None and cached[0] is card_set:
        return cached[1]
    assert card_set.booster is not None
    cards = card_set.cards
    pools = []
    for slot in card_set.booster.slots:
        base = [c.id for c in booster_pool(slot, cards, slot.rarity)]
        upgraded = [c.id for c in booster_pool(slot, cards, slot.upgrade)] if slot.upgrade else []
        pools.append((base, upgraded))
    if len(_POOLS) > 64:
        _POOLS.clear()
    _POOLS[id(card_set)] = (card_set, pools)
    return pools


def _chance(rng: MutableSequence[int], probability: float) -> bool:
    """True with the given probability (32-bit resolution); always draws one number."""
    return rng_mod.next_u32(rng) < probability * _TWO_32


def _sample(rng: MutableSequence[int], candidates: list[str], count: int) -> list[str]:
    """``count`` different items of ``candidates`` (partial Fisher-Yates on a copy)."""
    items = list(candidates)
    n = len(items)
    out = []
    for i in range(count):
        j = i + rng_mod.randbelow(rng, n - i)
        items[i], items[j] = items[j], items[i]
        out.append(items[i])
    return out


def open_booster(card_set: CardSet, rng: list[int]) -> list[str]:
    """The card ids of one booster of ``card_set``; ``rng`` is advanced in place.

    Each slot first decides whether it is upgraded (one random number per slot that has
    an upgrade), then draws its cards, avoiding cards an earlier slot already took. The
    loader guarantees (Hall's condition) that a booster can always be filled; should a
    random draw of overlapping slots run out, the booster is drawn again.
    """
    spec = card_set.booster
    if spec is None:
        raise CollationError(f"{card_set.code} is not sold in boosters")
    pools = _slot_pools(card_set)
    for _attempt in range(_ATTEMPTS):
        booster = _try_booster(spec.slots, pools, rng)
        if booster is not None:
            return booster
    raise CollationError(f"cannot fill a booster of {card_set.code} without duplicates")


def _try_booster(
    slots: Sequence[BoosterSlot],
    pools: list[tuple[list[str], list[str]]],
    rng: list[int],
) -> list[str] | None:
    taken: set[str] = set()
    booster: list[str] = []
    for slot, (base, upgraded) in zip(slots, pools, strict=True):
        candidates = base
        if slot.upgrade and _chance(rng, slot.upgrade_chance):
            candidates = upgraded
        if taken:
            candidates = [c for c in candidates if c not in taken]
        if len(candidates) < slot.count:
            return None
        drawn = _sample(rng, candidates, slot.count)
        taken.update(drawn)
        booster.extend(drawn)
    return booster


def _booster_set(db: CardDB, code: str) -> CardSet:
    try:
        card_set = db.get_set(code)
    except KeyError:
        raise CollationError(f"unknown set {code!r}") from None
    if card_set.booster is None:
        raise CollationError(f"{code} is not sold in boosters")
    return card_set


def draft_packs(
    set_codes: Sequence[str], seats: int, db: CardDB, seed: int
) -> list[list[list[str]]]:
    """``packs[seat][booster_round]``: the boosters of a draft, reproducible from ``seed``.

    Booster round ``r`` uses set ``set_codes[r]`` for every seat (so all boosters of one
    round have the same size, AMB-04). One generator, seeded with ``seed``, opens the
    boosters seat by seat, round by round.
    """
    return deal_packs(
        set_codes,
        seats,
        seed,
        lambda code: _booster_set(db, code),
        open_booster,
        CollationError,
    )


def sealed_pool(set_codes: Sequence[str], db: CardDB, seed: int) -> list[str]:
    """The card ids of one booster of each listed set, opened in order (Sealed)."""
    return [card_id for booster in draft_packs(set_codes, 1, db, seed)[0] for card_id in booster]


def draft_pool_size(set_codes: Sequence[str], db: CardDB) -> int:
    """Cards each player ends a draft (or a sealed opening) with: the boosters' sizes added.

    AMB-04 asks for at least 22 (2 Cities + 20 Main Deck cards) in «Восхождение».
    """
    return sum(_booster_set(db, code).booster.size for code in set_codes)  # type: ignore[union-attr]
