"""A seeded random number generator whose whole state is plain JSON data.

Games keep the generator's state inside the game state, so that storing a state
and loading it later continues the same random sequence, and replaying an
action log from the seed rebuilds every shuffle and roll exactly.

The generator is xoshiro128** (32-bit words, period 2^128 - 1), seeded through
splitmix32. It is small, fast in pure Python and has no platform dependence.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = 0xFFFFFFFF


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & _MASK


def _splitmix32(seed: int) -> tuple[int, int]:
    seed = (seed + 0x9E3779B9) & _MASK
    z = seed
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & _MASK
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & _MASK
    return seed, z ^ (z >> 16)


LEGACY_SEEDS = 1 << 64  # seeds below keep the sequence they always had (``seed_state``)
SEED_BITS = 128


def new_seed(random_bits: int) -> int:
    """A seed of the full width from ``SEED_BITS`` random bits (``secrets.randbits``):
    the bit above them marks it, so that it is never taken for a legacy seed."""
    return LEGACY_SEEDS << SEED_BITS - 64 | random_bits & ((1 << SEED_BITS) - 1)


def _mix32(z: int) -> int:
    """splitmix32's finaliser: a bijection of 32-bit words."""
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & _MASK
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & _MASK
    return z ^ (z >> 16)


def seed_state(seed: int) -> list[int]:
    """The four-word state for a seed.

    A seed from ``LEGACY_SEEDS`` up gives a state from its low ``SEED_BITS`` bits, each
    32-bit word through a bijection: different seeds, different states, so a game's
    hidden order has 128 bits of entropy (1.4.2.6 of «Восхождение»: nobody may learn
    the order of a Main Deck by trying seeds). A smaller seed (the fixed seeds of tests,
    recorded games, benches and games stored before) is folded to 32 bits as it always
    was, so it keeps its sequence.
    """
    if seed >= LEGACY_SEEDS:
        words = [_mix32(((seed >> (32 * i)) ^ (0x9E3779B9 * (i + 1))) & _MASK) for i in range(4)]
        if not any(words):  # pragma: no cover - one seed in 2^128
            words[0] = 1
        return words
    folded = (seed ^ (seed >> 32)) & _MASK
    words = []
    s = folded
    for _ in range(4):
        s, value = _splitmix32(s)
        words.append(value)
    if not any(words):
        words[0] = 1
    return words


def next_u32(state: MutableSequence[int]) -> int:
    """Advance ``state`` in place and return 32 random bits."""
    s0, s1, s2, s3 = state
    x = (s1 * 5) & _MASK
    result = ((((x << 7) | (x >> 25)) & _MASK) * 9) & _MASK  # _rotl(x, 7), inlined
    t = (s1 << 9) & _MASK
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 11) | (s3 >> 21)) & _MASK  # _rotl(s3, 11)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


def randbelow(state: MutableSequence[int], n: int) -> int:
    """Uniform integer in [0, n), without modulo bias."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    limit = (_MASK + 1) - ((_MASK + 1) % n)
    while True:
        value = next_u32(state)
        if value < limit:
            return value % n


def shuffle(state: MutableSequence[int], items: MutableSequence[T]) -> None:
    """Fisher-Yates shuffle of ``items`` in place."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(state, i + 1)
        items[i], items[j] = items[j], items[i]


def choice(state: MutableSequence[int], items: Sequence[T]) -> T:
    if not items:
        raise ValueError("choice from an empty sequence")
    return items[randbelow(state, len(items))]


def roll(state: MutableSequence[int], dice: int, sides: int) -> int:
    """The total of ``dice`` dice with ``sides`` sides each (e.g. 1d20, 2d6)."""
    return sum(randbelow(state, sides) + 1 for _ in range(dice))
