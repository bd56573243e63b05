"""Lives, dice, fights and strikes: the arithmetic of 104.2, 204, 205, 216.7 and 422.4.

Numbers are stored raw and clamped only when read [104.2]: a value below 0 counts as 0 for
every reference except the effects that modify it and the die difference in a fight of two
creatures. A die result outside 1..6 counts as the nearest of 1 and 6, except in a fight
of two open creatures [104.2а, 422.4б], where the modified results are compared as they
are (``strike_table``).

Kinds of strike (the strength of an attack [205.1]): ``WEAK``, ``MEDIUM``, ``STRONG``, and
``MISS`` for a side of the strike table that deals nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.berserk.config import DEFAULT, Config

WEAK = "weak"
MEDIUM = "medium"
STRONG = "strong"
MISS = "miss"
KINDS = (WEAK, MEDIUM, STRONG)  # the order of X-Y-Z [205.7]
RANK = {MISS: 0, WEAK: 1, MEDIUM: 2, STRONG: 3}

DIE_MIN, DIE_MAX = 1, 6

# Attacks, for whether a fight of two creatures happens (D-17).
MELEE = "melee"  # a simple or special strike
MAGIC = "magic"  # a magic strike: melee and magical [401.4]
RANGED = "ranged"  # a shot, throw, discharge, Strike Through a Row: only the attacker rolls
ATTACKS = (MELEE, MAGIC, RANGED)

# -- numbers [104.2, 104.2а] ----------------------------------------------------------------


def read(value: int) -> int:
    """A stored value as every reference but a modifying one sees it: below 0 is 0 [104.2]."""
    return max(0, value)


def clamp_die(value: int) -> int:
    """A die result outside 1..6 as the nearest of 1 and 6 [104.2а, 422.4б]."""
    return min(DIE_MAX, max(DIE_MIN, value))


# -- lives [204] ----------------------------------------------------------------------------


def current_lives(reserve: int, additional: int = 0, wounds: int = 0, negative: int = 0) -> int:
    """Reserve + additional lives - wounds - negative lives [204.6], raw (it may be below 0;
    ``read`` it for a reference). Reserve 4, +2 additional, 3 wounds, 1 negative -> 2."""
    return reserve + additional - wounds - negative


def leave_lives(
    x: int, reserve: int, additional: int = 0, wounds: int = 0, negative: int = 0
) -> int:
    """The new wound count when an effect leaves a card ``x`` current lives [204.7]: only the
    wounds change, never additional or negative lives. Wounds cannot go below 0, so a card
    that cannot reach ``x`` by losing wounds loses them all (as much as possible [416.2])."""
    return max(0, reserve + additional - negative - x)


def heal(wounds: int, x: int | None = None) -> int:
    """The wound count after healing ``x`` wounds (all of them when ``x`` is None)
    [С: Излечение, 416.2]: at most the wounds there are, and never additional lives. One
    wound healed for 2 -> 0 wounds."""
    if x is None:
        return 0
    return wounds - min(max(0, x), wounds)


def gain_lives(additional: int, x: int, reserve: int, maximum: int | None = None) -> int:
    """Additional lives after gaining ``x``: no more than ``maximum - reserve`` when the card
    has a maximum of life [204.3]; no cap without one [204.3а, D-28]. Lives already above a
    cap are not taken away."""
    new = additional + max(0, x)
    if maximum is None:
        return new
    return max(additional, min(new, maximum - reserve))


def drops_to_zero(before: int, after: int) -> bool:
    """Whether an action that took a card's current lives from ``before`` to ``after`` gives
    it the destruction effect [402.3]: it reached 0 or below from at least 1."""
    return before >= 1 and after <= 0


# -- strength and the strike table [205.4, 205.6] -------------------------------------------


def strength(roll: int) -> str:
    """The strength of an attack from one die [205.4]: the modified result, clamped to 1..6
    [104.2а], <= 3 weak, 4-5 medium, 6 strong. Used for any attack that is not a fight of
    two open creatures, e.g. a simple strike on a closed card."""
    value = clamp_die(roll)
    return WEAK if value <= 3 else MEDIUM if value <= 5 else STRONG


# d = attacker_final - retaliator_final, modified and NOT clamped (104.2, 104.2а);
# +5 stands for d >= 5 and -5 for d <= -5.
TABLE: dict[int, tuple[str, str]] = {
    +1: (WEAK, MISS),
    +2: (MEDIUM, WEAK),
    +3: (MEDIUM, MISS),
    +4: (STRONG, WEAK),
    +5: (STRONG, MISS),
    -1: (WEAK, MISS),
    -2: (MISS, MISS),
    -3: (MISS, WEAK),
    -4: (WEAK, MEDIUM),
    -5: (MISS, MEDIUM),
}
TIE_LOW = (WEAK, MISS)  # d == 0, both rolled 4 or less
TIE_HIGH = (MISS, WEAK)  # d == 0, both rolled 5 or more


def table_row(d: int) -> int:
    """The row of the strike table for a difference ``d``: d itself, capped at +-5."""
    return max(-5, min(5, d))


def strike_table(attacker: int, retaliator: int) -> tuple[str, str]:
    """(what the attacker deals, what the retaliator deals) in a fight of two open creatures
    [205.6], from both modified, unclamped results [104.2, 104.2а]. -1 vs 3 -> d = -4 ->
    weak / medium."""
    d = attacker - retaliator
    if d == 0:
        return TIE_LOW if attacker <= 4 else TIE_HIGH
    return TABLE[table_row(d)]


# -- weakening [216.7, D-16] ----------------------------------------------------------------


def weakener(attacker: int, retaliator: int, config: Config = DEFAULT) -> str | None:
    """Who may weaken in a fight of two open creatures with these final results [216.7]:
    "attacker" or "retaliator" (whoever rolled higher), or None. Only where an exchange is
    possible: the table rows of ``config.weakening_exchange_rows`` (D-16: +2, +4, -4). The
    top row of a block (+-1) has no row above it, so it is never weakened."""
    row = table_row(attacker - retaliator)
    if abs(row) < 2 or row not in config.weakening_exchange_rows:
        return None
    return "attacker" if row > 0 else "retaliator"


def weakened_row(d: int) -> int:
    """The table row one up in its block [216.7]: |d| - 1 with d's sign (d beyond +-5 counts
    as +-5)."""
    row = table_row(d)
    if abs(row) < 2:
        raise ValueError(f"no row above {row:+d} in its block")
    return row - 1 if row > 0 else row + 1


def weaken(attacker: int, retaliator: int, config: Config = DEFAULT) -> tuple[str, str]:
    """The (attacker, retaliator) kinds after the higher roller weakens [216.7, D-16]: the
    row one up in that player's block. d = +4 -> medium / miss. Raises ``ValueError`` where
    weakening is not allowed (see ``weakener``)."""
    if weakener(attacker, retaliator, config) is None:
        raise ValueError(
            f"no weakening at {attacker} vs {retaliator}: not an exchange row "
            f"{tuple(config.weakening_exchange_rows)}"
        )
    return TABLE[weakened_row(attacker - retaliator)]


# -- strike values [205.7, 205.7а, 104.2] ---------------------------------------------------

Strike = tuple[int, int, int]


def attack_for(x: int) -> Strike:
    """ "Attack for X" as X-X-X [205.7а]."""
    return (x, x, x)


def modified_strike(strike: Sequence[int], *modifiers: int) -> Strike:
    """The raw X-Y-Z after value modifiers, not clamped (a modifier sees the raw value
    [104.2]): 1-1-1 with -2 -> (-1)-(-1)-(-1)."""
    total = sum(modifiers)
    x, y, z = strike
    return (x + total, y + total, z + total)


def strike_value(strike: Sequence[int], kind: str, *modifiers: int) -> int:
    """The wounds a strike of ``kind`` deals with X-Y-Z ``strike`` [205.7] and the value
    modifiers applied in turn to the raw number [104.2]; read, so never below 0. A miss
    deals 0 whatever the modifiers. 1-1-1 with -2 -> 0; with -2 and +2 -> 1."""
    if kind == MISS:
        return 0
    if kind not in KINDS:
        raise ValueError(f"not a kind of strike: {kind!r}")
    return read(modified_strike(strike, *modifiers)[KINDS.index(kind)])


# -- die modifiers and their order [422.4, 422.4а-б, D-32] ----------------------------------


@dataclass(frozen=True)
class Modifier:
    """One die modifier: the card it comes from (``origin``, any hashable id) and what it
    does: add ``delta`` or, if ``set_to`` is given, make the result that number."""

    origin: Hashable
    delta: int = 0
    set_to: int | None = None

    def __call__(self, value: int) -> int:
        return self.set_to if self.set_to is not None else value + self.delta


GROUPS = (
    "source's squad",  # 1: cards of the source's squad other than the source
    "source",  # 2
    "target's squad",  # 3: cards of the target's squad (other than the target)
    "target",  # 4
)


def modifier_group(
    origin: Hashable,
    *,
    source: Hashable,
    target: Hashable,
    source_squad: Collection[Hashable],
    target_squad: Collection[Hashable],
) -> int:
    """The group 1..4 of 422.4 a modifier from ``origin`` falls in: the first that matches,
    so a modifier applies once even when source and target share a squad (D-32)."""
    if origin != source and origin in source_squad:
        return 1
    if origin == source:
        return 2
    if origin != target and origin in target_squad:
        return 3
    if origin == target:
        return 4
    raise ValueError(f"modifier from {origin!r}: neither the source, the target nor a squad's")


def order_modifiers(
    modifiers: Iterable[Modifier],
    *,
    source: Hashable,
    target: Hashable,
    source_squad: Collection[Hashable],
    target_squad: Collection[Hashable],
) -> list[tuple[int, Modifier]]:
    """The modifiers as (group, modifier) in the order of 422.4. Within a group the given
    order stands: it is the one the modifiers' controller chose [422.4а]."""
    keyed = [
        (
            modifier_group(
                m.origin,
                source=source,
                target=target,
                source_squad=source_squad,
                target_squad=target_squad,
            ),
            m,
        )
        for m in modifiers
    ]
    return sorted(keyed, key=lambda gm: gm[0])  # stable: keeps the order within a group


def apply_die_modifiers(
    raw: int,
    modifiers: Iterable[Modifier],
    *,
    source: Hashable,
    target: Hashable,
    source_squad: Collection[Hashable] = (),
    target_squad: Collection[Hashable] = (),
    open_fight: bool = False,
) -> int:
    """A die's final result [216.6]: ``raw`` through the modifiers in the order of 422.4,
    then the rules' own modifier, the clamp to 1..6, unless this is a fight of two open
    creatures [422.4б, 104.2а]."""
    value = raw
    for _, modifier in order_modifiers(
        modifiers,
        source=source,
        target=target,
        source_squad=source_squad,
        target_squad=target_squad,
    ):
        value = modifier(value)
    return value if open_fight else clamp_die(value)


def final_roll(raw: int, modifiers: Iterable[int] = (), open_fight: bool = False) -> int:
    """A die's final result with additive modifiers (whose order does not matter): the sum,
    clamped to 1..6 unless in a fight of two open creatures [104.2а]."""
    value = raw + sum(modifiers)
    return value if open_fight else clamp_die(value)


# -- one melee exchange [205.4-205.6, 216.5-216.7, D-15, D-17] ------------------------------


class Exchange(NamedTuple):
    """The outcome of an attack's fight. ``attacker_kind`` / ``attacker_wounds``: the
    strength of the attacker's strike and the wounds it deals to the retaliator;
    ``retaliator_kind`` / ``retaliator_wounds``: the same for the retaliator's blow back
    (MISS and 0 when it does not fight). ``two_creatures``: whether both fought [205.6];
    ``attacker_roll`` / ``retaliator_roll``: the final results (the retaliator's None when
    it did not roll); ``weakened``: whether a weakening was played [216.7]."""

    attacker_kind: str
    retaliator_kind: str
    attacker_wounds: int
    retaliator_wounds: int
    two_creatures: bool = False
    attacker_roll: int | None = None
    retaliator_roll: int | None = None
    weakened: bool = False

    @property
    def wounds_to_retaliator(self) -> int:
        return self.attacker_wounds

    @property
    def wounds_to_attacker(self) -> int:
        return self.retaliator_wounds


def fights_back(
    attack: str = MELEE,
    *,
    attacker_open: bool = True,
    attacker_fights: bool = True,
    retaliator_open: bool = True,
    retaliator_fights: bool = True,
    config: Config = DEFAULT,
) -> bool:
    """Whether an attack is a fight of two creatures [205.6, 209.3, D-17]: a melee strike
    (a magic strike only with ``config.magic_strike_fights``) between two open creatures
    that both fight. A target that does not fight (an artifact, a terrain, a card struck
    with Unanswerable Strike ...) counts as closed [205.5б]; in a ranged attack only the
    attacker rolls."""
    if attack not in ATTACKS:
        raise ValueError(f"not an attack: {attack!r} (one of {ATTACKS})")
    if attack == RANGED or (attack == MAGIC and not config.magic_strike_fights):
        return False
    return attacker_open and attacker_fights and retaliator_open and retaliator_fights


def resolve_exchange(
    attacker_roll: int,
    retaliator_roll: int | None = None,
    *,
    attacker_strike: Sequence[int],
    retaliator_strike: Sequence[int] = (0, 0, 0),
    attacker_die: Iterable[int] = (),
    retaliator_die: Iterable[int] = (),
    attacker_value: Iterable[int] = (),
    retaliator_value: Iterable[int] = (),
    attack: str = MELEE,
    attacker_open: bool = True,
    attacker_fights: bool = True,
    retaliator_open: bool = True,
    retaliator_fights: bool = True,
    weaken_if_possible: bool | Callable[[str, int, int], bool] = False,
    config: Config = DEFAULT,
) -> Exchange:
    """One attack's fight, from the raw dice to the wounds each side deals.

    ``attacker_roll``, ``retaliator_roll``: the raw dice (the retaliator's is needed, and
    used, only in a fight of two creatures: ``fights_back``). ``*_die``: additive die
    modifiers [216.6] (use ``apply_die_modifiers`` first for ordered, non-additive ones);
    ``*_value``: modifiers of the strike's value [216.8]. ``*_strike``: X-Y-Z [205.7]; the
    retaliator deals its own (D-15).

    In a fight of two creatures the final results are compared unclamped on the strike
    table [205.6, 104.2а]; the higher roller may then weaken [216.7, D-16]:
    ``weaken_if_possible`` is True (always, where allowed) or a callable ``(who, attacker,
    retaliator) -> bool`` asked only where allowed. Otherwise only the attacker rolls, its
    result clamped, and its strength comes from one die [205.4]; the target deals nothing.
    """
    if fights_back(
        attack,
        attacker_open=attacker_open,
        attacker_fights=attacker_fights,
        retaliator_open=retaliator_open,
        retaliator_fights=retaliator_fights,
        config=config,
    ):
        if retaliator_roll is None:
            raise ValueError("a fight of two open creatures needs the retaliator's roll")
        a = final_roll(attacker_roll, attacker_die, open_fight=True)
        r = final_roll(retaliator_roll, retaliator_die, open_fight=True)
        kinds = strike_table(a, r)
        who = weakener(a, r, config)
        weakened = who is not None and (
            weaken_if_possible(who, a, r)
            if callable(weaken_if_possible)
            else bool(weaken_if_possible)
        )
        if weakened:
            kinds = weaken(a, r, config)
        return Exchange(
            kinds[0],
            kinds[1],
            strike_value(attacker_strike, kinds[0], *attacker_value),
            strike_value(retaliator_strike, kinds[1], *retaliator_value),
            two_creatures=True,
            attacker_roll=a,
            retaliator_roll=r,
            weakened=weakened,
        )
    a = final_roll(attacker_roll, attacker_die)
    kind = strength(a)
    return Exchange(
        kind,
        MISS,
        strike_value(attacker_strike, kind, *attacker_value),
        0,
        attacker_roll=a,
    )
