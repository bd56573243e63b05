"""Berserk booster collation for Limited formats (Draft, Sealed). Pure Python, no Django.

A set's ``booster`` (``engine.berserk.cards.BoosterSpec``, docs/card-format.md, "Berserk:
boosters") lists slots; each slot draws ``count`` different cards of its rarity from the
set (BK1: 11 common, 3 uncommon, 1 rare). A booster never holds the same card twice.

Randomness comes only from ``engine.core.rng`` (a JSON list state), so every booster is
reproducible from the event's seed::

    packs = draft_packs(["BK1"] * 3, seats=8, db=db, seed=event_seed)
    packs[seat][booster_round]  # -> ["BK1-017", ...]
    pool = sealed_pool(["BK1"] * 6, db, seed)
    pool_size(["BK1"] * 3, db)  # 45

Order inside a booster: the slots in the order the set file gives them (commons,
uncommons, the rare), each slot's cards in draw order. The same API as
``engine.voskhozhdenie.boosters``, written for Berserk's own card model.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence

from engine.berserk.cards import CardDB, CardSet
from engine.core import rng as rng_mod
from engine.core.limited import LimitedError, deal_packs

__all__ = [
    "CollationError",
    "draft_packs",
    "draft_pool_size",
    "open_booster",
    "pool_size",
    "sealed_pool",
    "slot_pool",
]


class CollationError(LimitedError):
    """A booster cannot be made: unknown set, a set without boosters, a slot without cards."""


def slot_pool(card_set: CardSet, rarity: str) -> list[str]:
    """The ids a slot of ``rarity`` draws from, in set order."""
    return [c.id for c in card_set.cards if c.rarity == rarity]


def _sample(rng: MutableSequence[int], candidates: list[str], count: int) -> list[str]:
    """``count`` different items of ``candidates`` (partial Fisher-Yates on a copy)."""
    items = list(candidates)
    out = []
    for i in range(count):
        j = i + rng_mod.randbelow(rng, len(items) - i)
        items[i], items[j] = items[j], items[i]
        out.append(items[i])
    return out


def open_booster(card_set: CardSet, rng: list[int]) -> list[str]:
    """The card ids of one booster of ``card_set``; ``rng`` is advanced in place.

    Slots of the same rarity share their pool: a card drawn by one is not drawn again.
    """
    spec = card_set.booster
    if spec is None:
        raise CollationError(f"{card_set.code} is not sold in boosters")
    taken: set[str] = set()
    booster: list[str] = []
    for slot in spec.slots:
        candidates = [c for c in slot_pool(card_set, slot.rarity) if c not in taken]
        if len(candidates) < slot.count:
            raise CollationError(
                f"cannot fill a {slot.rarity} slot of {card_set.code} without duplicates"
            )
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

    Booster round ``r`` uses set ``set_codes[r]`` for every seat. One generator, seeded
    with ``seed``, opens the boosters seat by seat, round by round.
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


def pool_size(set_codes: Sequence[str], db: CardDB) -> int:
    """Cards each player ends a draft (or a sealed opening) with: the boosters' sizes added.

    A Limited deck needs at least 20 cards [100.2а].
    """
    if isinstance(set_codes, str):
        raise CollationError("set_codes is a list of set codes, not one string")
    return sum(_booster_set(db, code).booster.size for code in set_codes)  # type: ignore[union-attr]


draft_pool_size = pool_size
