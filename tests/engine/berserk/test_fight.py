"""Lives, dice, the strike table, weakening and strike values [104.2, 204, 205, 216.7, 422.4].

Checklist (digest §16): CK-053..CK-062, CK-071, CK-081; plus the worked examples of 104.2
and 104.2а, decisions D-15, D-16, D-17, D-28, D-32, and properties of the table.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.berserk.config import DEFAULT, Config
from engine.berserk.fight import (
    MAGIC,
    MEDIUM,
    MELEE,
    MISS,
    RANGED,
    RANK,
    STRONG,
    TABLE,
    WEAK,
    Exchange,
    Modifier,
    apply_die_modifiers,
    attack_for,
    clamp_die,
    current_lives,
    drops_to_zero,
    fights_back,
    final_roll,
    gain_lives,
    heal,
    leave_lives,
    modified_strike,
    modifier_group,
    order_modifiers,
    read,
    resolve_exchange,
    strength,
    strike_table,
    strike_value,
    table_row,
    weaken,
    weakened_row,
    weakener,
)

die = st.integers(1, 6)
modifier = st.integers(-8, 8)


# -- lives [204] ----------------------------------------------------------------------------


@pytest.mark.rule("204.6", "CK-071")
def test_ck071_current_lives():
    """CK-071 [204.6]: reserve 4, +2 additional, 3 wounds, 1 negative -> 2 lives."""
    assert current_lives(4, additional=2, wounds=3, negative=1) == 2
    assert current_lives(4) == 4


@pytest.mark.rule("204.6", "104.2")
def test_current_lives_are_raw_and_read_as_zero_below_zero():
    assert current_lives(2, wounds=5) == -3
    assert read(current_lives(2, wounds=5)) == 0
    assert read(3) == 3


@pytest.mark.rule("204.7")
def test_leaving_x_lives_changes_only_the_wounds():
    # reserve 5, +2 additional, 1 wound, 1 negative: 5 lives; leave 1 -> 5 wounds
    wounds = leave_lives(1, reserve=5, additional=2, wounds=1, negative=1)
    assert wounds == 5
    assert current_lives(5, 2, wounds, 1) == 1
    # leaving more lives than there are takes wounds off, but never below 0 [416.2]
    assert leave_lives(4, reserve=5, additional=0, wounds=3) == 1
    assert leave_lives(9, reserve=5, additional=0, wounds=3) == 0


@given(
    st.integers(1, 10), st.integers(0, 5), st.integers(0, 10), st.integers(0, 5), st.integers(0, 9)
)
def test_leave_lives_reaches_x_whenever_wounds_allow(reserve, additional, wounds, negative, x):
    new = leave_lives(x, reserve, additional, wounds, negative)
    assert new >= 0
    most = current_lives(reserve, additional, 0, negative)
    assert current_lives(reserve, additional, new, negative) == (x if x <= most else most)


@pytest.mark.rule("416.2", "С: Излечение", "CK-081")
def test_ck081_healing_two_on_one_wound():
    """CK-081 [416.2]: 1 wound healed for 2 -> 0 wounds and no additional lives."""
    assert heal(1, 2) == 0
    assert current_lives(3, 0, heal(1, 2)) == 3  # reserve, no more
    assert heal(5, 2) == 3
    assert heal(5) == 0  # no number: all wounds
    assert heal(2, -1) == 2


@pytest.mark.rule("204.3", "204.3а", "D-28")
def test_additional_lives_and_the_maximum():
    assert gain_lives(0, 3, reserve=4) == 3  # no maximum: no cap
    assert gain_lives(0, 3, reserve=4, maximum=6) == 2
    assert gain_lives(1, 3, reserve=4, maximum=5) == 1
    assert gain_lives(3, 1, reserve=4, maximum=5) == 3  # not taken away


@pytest.mark.rule("402.3")
def test_destruction_only_when_dropping_from_at_least_one():
    assert drops_to_zero(2, 0) and drops_to_zero(1, -2)
    assert not drops_to_zero(0, -1)  # already below 1
    assert not drops_to_zero(3, 1)


# -- clamping and strength from one die [104.2а, 205.4] -------------------------------------


@pytest.mark.rule("205.4", "104.2а", "CK-053")
def test_ck053_strike_on_a_closed_card():
    """CK-053 [205.4, 104.2а]: modified roll -1 / 5 / 6 -> weak (clamped) / medium / strong."""
    assert strength(-1) == WEAK
    assert clamp_die(-1) == 1
    assert strength(5) == MEDIUM
    assert strength(6) == STRONG


@pytest.mark.rule("205.4")
@pytest.mark.parametrize(
    ("roll", "kind"),
    [(1, WEAK), (2, WEAK), (3, WEAK), (4, MEDIUM), (5, MEDIUM), (6, STRONG), (9, STRONG)],
)
def test_strength_from_one_die(roll, kind):
    assert strength(roll) == kind


@pytest.mark.rule("104.2а")
def test_cursed_golem_on_a_closed_card_stays_at_one():
    """104.2а's example: a cursed Stone Golem rolling 1 on a closed creature has result 1."""
    assert final_roll(1, [-1, -1]) == 1
    assert final_roll(1, [-1, -1], open_fight=True) == -1  # 104.2's second example
    assert final_roll(6, [3]) == 6


# -- the strike table [205.6] ---------------------------------------------------------------


@pytest.mark.rule("205.6", "104.2а", "CK-054")
def test_ck054_open_fight_compares_unclamped():
    """CK-054 [205.6, 104.2а]: modified rolls -1 vs 3 -> d = -4 (unclamped): weak / medium."""
    assert strike_table(-1, 3) == (WEAK, MEDIUM)
    assert strike_table(clamp_die(-1), 3) == (MISS, MISS)  # what clamping would wrongly give
    x = resolve_exchange(
        2, 3, attacker_strike=(1, 2, 3), retaliator_strike=(1, 2, 3), attacker_die=[-3]
    )
    assert (x.attacker_roll, x.retaliator_roll) == (-1, 3)
    assert (x.attacker_kind, x.retaliator_kind) == (WEAK, MEDIUM)


@pytest.mark.rule("205.6", "CK-055")
def test_ck055_attacker_ahead_by_1_2_3():
    """CK-055 [205.6]: d = +1 / +2 / +3 -> weak/miss / medium/weak / medium/miss."""
    assert strike_table(4, 3) == (WEAK, MISS)
    assert strike_table(5, 3) == (MEDIUM, WEAK)
    assert strike_table(6, 3) == (MEDIUM, MISS)


@pytest.mark.rule("205.6", "CK-056")
def test_ck056_attacker_ahead_by_4_and_5_or_more():
    """CK-056 [205.6]: d = +4 / >= +5 -> strong/weak / strong/miss."""
    assert strike_table(5, 1) == (STRONG, WEAK)
    assert strike_table(6, 1) == (STRONG, MISS)
    assert strike_table(9, 1) == (STRONG, MISS)
    assert strike_table(6, -20) == (STRONG, MISS)


@pytest.mark.rule("205.6", "CK-057")
def test_ck057_retaliator_ahead_by_1_2_3():
    """CK-057 [205.6]: d = -1 / -2 / -3 -> weak/miss / miss/miss / miss/weak."""
    assert strike_table(3, 4) == (WEAK, MISS)
    assert strike_table(3, 5) == (MISS, MISS)
    assert strike_table(3, 6) == (MISS, WEAK)


@pytest.mark.rule("205.6", "CK-058")
def test_ck058_retaliator_ahead_by_4_and_5_or_more():
    """CK-058 [205.6]: d = -4 / <= -5 -> weak/medium / miss/medium."""
    assert strike_table(2, 6) == (WEAK, MEDIUM)
    assert strike_table(1, 6) == (MISS, MEDIUM)
    assert strike_table(-4, 6) == (MISS, MEDIUM)


@pytest.mark.rule("205.6", "CK-059")
def test_ck059_ties():
    """CK-059 [205.6]: 4 vs 4 -> weak/miss; 5 vs 5 -> miss/weak."""
    assert strike_table(4, 4) == (WEAK, MISS)
    assert strike_table(5, 5) == (MISS, WEAK)


@pytest.mark.rule("205.6", "104.2")
@pytest.mark.parametrize(
    ("value", "kinds"),
    [
        (1, (WEAK, MISS)),
        (3, (WEAK, MISS)),
        (-2, (WEAK, MISS)),
        (6, (MISS, WEAK)),
        (8, (MISS, WEAK)),
    ],
)
def test_ties_read_the_shared_value_unclamped(value, kinds):
    """ "Both 4 or less" / "both 5 or more" on the modified results, beyond 1..6 too."""
    assert strike_table(value, value) == kinds


@pytest.mark.rule("205.6")
def test_the_table_is_the_digests_table_exactly():
    assert TABLE == {
        +1: ("weak", "miss"),
        +2: ("medium", "weak"),
        +3: ("medium", "miss"),
        +4: ("strong", "weak"),
        +5: ("strong", "miss"),
        -1: ("weak", "miss"),
        -2: ("miss", "miss"),
        -3: ("miss", "weak"),
        -4: ("weak", "medium"),
        -5: ("miss", "medium"),
    }
    assert [table_row(d) for d in (-9, -5, -1, 0, 4, 5, 7)] == [-5, -5, -1, 0, 4, 5, 5]


@pytest.mark.rule("205.6")
@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20))
def test_the_table_reads_only_the_difference_except_at_a_tie(a, r, shift):
    """So a modifier that reaches both dice alike never changes a fight."""
    assume(a != r)
    assert strike_table(a + shift, r + shift) == strike_table(a, r)


@pytest.mark.rule("205.6")
@given(st.integers(1, 30))
def test_table_attacker_at_plus_n_outranks_retaliator_at_minus_n(n):
    """The table is not antisymmetric: it favours the attacker. Ahead by n, the attacker
    always hits, and harder than the retaliator hits when it is ahead by n; the side that
    is behind never deals more than weak."""
    ahead = strike_table(n, 0)
    behind = strike_table(0, n)
    assert ahead[0] != MISS
    assert RANK[ahead[0]] > RANK[behind[1]]
    assert RANK[ahead[1]] <= RANK[WEAK] and RANK[behind[0]] <= RANK[WEAK]
    assert ahead != behind[::-1]
    assert STRONG not in behind  # only the attacker, ahead by 4 or more, strikes strong


@pytest.mark.rule("205.6")
@given(st.integers(-20, 20), st.integers(-20, 20))
def test_table_facts(a, r):
    d = a - r
    att, ret = strike_table(a, r)
    if d == 0:  # a tie: the attacker below 5, the retaliator from 5 up
        assert (RANK[att] > RANK[ret]) == (a <= 4)
    elif d >= -2:  # otherwise the attacker is at least as strong, down to -2
        assert RANK[att] >= RANK[ret]
    else:
        assert RANK[ret] >= RANK[att]
    if d != 0:  # nobody's strike gets weaker as their lead grows
        further = strike_table(a + (1 if d > 0 else -1), r)
        leader = 0 if d > 0 else 1
        assert RANK[further[leader]] >= RANK[(att, ret)[leader]]


@pytest.mark.rule("205.6", "216.7", "D-16")
def test_exchange_rows_are_those_where_both_sides_hit():
    both_hit = tuple(d for d, (a, r) in TABLE.items() if a != MISS and r != MISS)
    assert set(both_hit) == set(DEFAULT.weakening_exchange_rows) == {2, 4, -4}


# -- weakening [216.7, D-16] ----------------------------------------------------------------


@pytest.mark.rule("216.7", "D-16", "CK-060")
def test_ck060_attacker_weakens_plus_four():
    """CK-060 [216.7]: d = +4, the attacker weakens -> medium/miss."""
    assert weakener(5, 1) == "attacker"
    assert weaken(5, 1) == (MEDIUM, MISS)
    x = resolve_exchange(
        5, 1, attacker_strike=(1, 2, 3), retaliator_strike=(1, 2, 3), weaken_if_possible=True
    )
    assert x == Exchange(MEDIUM, MISS, 2, 0, True, 5, 1, True)


@pytest.mark.rule("216.7", "D-16")
def test_weakening_the_other_exchange_rows():
    assert weaken(5, 3) == (WEAK, MISS)  # +2 -> +1
    assert weakener(2, 6) == "retaliator"
    assert weaken(2, 6) == (MISS, WEAK)  # -4 -> -3


@pytest.mark.rule("216.7", "D-16")
@pytest.mark.parametrize(
    ("a", "r"), [(4, 3), (6, 3), (6, 1), (3, 4), (3, 5), (3, 6), (1, 6), (4, 4), (5, 5)]
)
def test_no_weakening_off_the_exchange_rows(a, r):
    assert weakener(a, r) is None
    with pytest.raises(ValueError):
        weaken(a, r)
    x = resolve_exchange(a, r, attacker_strike=(1, 2, 3), weaken_if_possible=True)
    assert not x.weakened and (x.attacker_kind, x.retaliator_kind) == strike_table(a, r)


@pytest.mark.rule("216.7", "D-16")
def test_weakening_rows_come_from_the_config():
    wide = Config.of({"weakening_exchange_rows": [2, 3, 4, 5, -3, -4, -5, 1, -1]})
    assert weaken(6, 1, wide) == (STRONG, WEAK)  # +5 -> +4
    assert weaken(9, 1, wide) == (STRONG, WEAK)  # d = 8 is the +5 row
    assert weaken(1, 6, wide) == (WEAK, MEDIUM)  # -5 -> -4
    assert weaken(1, 4, wide) == (MISS, MISS)  # -3 -> -2
    assert weakener(4, 3, wide) is None  # +1 is a block's top row: nothing above it
    none = Config.of({"weakening_exchange_rows": []})
    assert weakener(5, 1, none) is None
    with pytest.raises(ValueError):
        weakened_row(-1)


@pytest.mark.rule("216.7")
def test_weakening_is_the_weakeners_choice():
    asked = []

    def choose(who, a, r):
        asked.append((who, a, r))
        return False

    x = resolve_exchange(
        2, 6, attacker_strike=(1, 1, 1), retaliator_strike=(1, 2, 3), weaken_if_possible=choose
    )
    assert asked == [("retaliator", 2, 6)]
    assert x == Exchange(WEAK, MEDIUM, 1, 2, True, 2, 6, False)
    # not asked where weakening is not allowed
    resolve_exchange(4, 3, attacker_strike=(1, 1, 1), weaken_if_possible=choose)
    assert len(asked) == 1


@given(st.integers(-20, 20), st.integers(-20, 20))
def test_weakening_moves_one_row_toward_zero_in_the_weakeners_block(a, r):
    who = weakener(a, r)
    if who is not None:
        d = table_row(a - r)
        assert (who == "attacker") == (d > 0)
        assert weaken(a, r) == TABLE[d - 1 if d > 0 else d + 1]
        # the weakener's own blow gets no stronger, and the other's no weaker
        before, after = strike_table(a, r), weaken(a, r)
        mine = 0 if who == "attacker" else 1
        assert RANK[after[mine]] <= RANK[before[mine]]


# -- strike values [205.7, 205.7а, 104.2] ---------------------------------------------------


@pytest.mark.rule("205.7", "205.7а", "CK-061")
def test_ck061_strike_values():
    """CK-061 [205.7–205.7а]: 2-3-4 -> 2 / 3 / 4 wounds; "attack for 3" deals 3 always."""
    assert [strike_value((2, 3, 4), k) for k in (WEAK, MEDIUM, STRONG)] == [2, 3, 4]
    assert attack_for(3) == (3, 3, 3)
    assert {strike_value(attack_for(3), k) for k in (WEAK, MEDIUM, STRONG)} == {3}
    assert strike_value((2, 3, 4), MISS) == 0
    with pytest.raises(ValueError):
        strike_value((2, 3, 4), "huge")


@pytest.mark.rule("104.2", "CK-062")
def test_ck062_umpi_and_ingri():
    """CK-062 [104.2]: 1-1-1 with -2 deals 0; a further +2 gives 1 (it sees (-1)-(-1)-(-1))."""
    assert modified_strike((1, 1, 1), -2) == (-1, -1, -1)
    assert strike_value((1, 1, 1), WEAK, -2) == 0
    assert strike_value((1, 1, 1), STRONG, -2, +2) == 1
    assert strike_value((1, 1, 1), MISS, +2) == 0  # a miss stays a miss


@given(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9)), st.lists(modifier))
def test_strike_values_are_never_negative_and_sum_their_modifiers(strike, mods):
    for i, kind in enumerate((WEAK, MEDIUM, STRONG)):
        assert strike_value(strike, kind, *mods) == max(0, strike[i] + sum(mods))


# -- one exchange [205.4-205.6, 216.5, D-15, D-17] ------------------------------------------


@pytest.mark.rule("205.6", "216.5", "D-15")
def test_open_fight_each_side_deals_its_own_strike():
    x = resolve_exchange(5, 3, attacker_strike=(1, 2, 3), retaliator_strike=(2, 4, 6))
    assert x == Exchange(MEDIUM, WEAK, 2, 2, True, 5, 3, False)
    assert x.wounds_to_retaliator == 2 and x.wounds_to_attacker == 2


@pytest.mark.rule("205.6")
def test_retaliators_roll_is_required_in_an_open_fight():
    with pytest.raises(ValueError):
        resolve_exchange(5, attacker_strike=(1, 2, 3))


@pytest.mark.rule("205.4", "209.3", "104.2а")
def test_closed_target_only_the_attacker_rolls_and_is_clamped():
    x = resolve_exchange(1, 6, attacker_strike=(1, 2, 3), retaliator_open=False, attacker_die=[-2])
    assert x == Exchange(WEAK, MISS, 1, 0, False, 1, None, False)
    x = resolve_exchange(
        4, None, attacker_strike=(1, 2, 3), retaliator_open=False, attacker_die=[5]
    )
    assert x == Exchange(STRONG, MISS, 3, 0, False, 6, None, False)


@pytest.mark.rule("205.5б", "213.3", "С: Безответный удар")
def test_target_that_does_not_fight_counts_as_closed():
    x = resolve_exchange(
        5, 1, attacker_strike=(1, 2, 3), retaliator_strike=(3, 3, 3), retaliator_fights=False
    )
    assert (x.attacker_kind, x.retaliator_kind, x.two_creatures) == (MEDIUM, MISS, False)
    assert x.retaliator_wounds == 0


@pytest.mark.rule("209.3")
def test_closed_attacker_fights_nobody():
    assert not fights_back(MELEE, attacker_open=False)
    assert not fights_back(MELEE, attacker_fights=False)
    assert fights_back(MELEE)


@pytest.mark.rule("D-17", "401.4")
def test_magic_strikes_fight_only_behind_the_flag():
    assert not fights_back(MAGIC)
    assert fights_back(MAGIC, config=Config.of({"magic_strike_fights": True}))
    x = resolve_exchange(5, 3, attacker_strike=(1, 2, 3), retaliator_strike=(1, 1, 1), attack=MAGIC)
    assert (x.two_creatures, x.attacker_kind, x.retaliator_kind) == (False, MEDIUM, MISS)
    x = resolve_exchange(
        5,
        3,
        attacker_strike=(1, 2, 3),
        retaliator_strike=(1, 1, 1),
        attack=MAGIC,
        config=Config.of({"magic_strike_fights": True}),
    )
    assert (x.two_creatures, x.attacker_kind, x.retaliator_kind) == (True, MEDIUM, WEAK)


@pytest.mark.rule("D-17", "205.5а")
def test_ranged_attacks_roll_only_the_attackers_die():
    assert not fights_back(RANGED)
    x = resolve_exchange(
        6, 1, attacker_strike=(1, 2, 3), retaliator_strike=(5, 5, 5), attack=RANGED
    )
    assert x == Exchange(STRONG, MISS, 3, 0, False, 6, None, False)
    with pytest.raises(ValueError):
        fights_back("psychic")


@pytest.mark.rule("216.8", "104.2")
def test_value_modifiers_reach_each_sides_strike():
    x = resolve_exchange(
        5,
        3,
        attacker_strike=(1, 2, 3),
        retaliator_strike=(1, 1, 1),
        attacker_value=[1],
        retaliator_value=[-3],
    )
    assert (x.attacker_wounds, x.retaliator_wounds) == (3, 0)


@pytest.mark.rule("104.2", "104.2а", "205.6")
@given(die, die, st.lists(modifier, max_size=4), st.lists(modifier, max_size=4))
def test_clamping_never_changes_an_open_fight_difference(a, r, am, rm):
    x = resolve_exchange(
        a,
        r,
        attacker_strike=(1, 2, 3),
        retaliator_strike=(1, 2, 3),
        attacker_die=am,
        retaliator_die=rm,
    )
    assert x.two_creatures
    assert x.attacker_roll - x.retaliator_roll == (a + sum(am)) - (r + sum(rm))
    assert (x.attacker_kind, x.retaliator_kind) == strike_table(a + sum(am), r + sum(rm))


@pytest.mark.rule("104.2а", "205.4")
@given(die, st.lists(modifier, max_size=4), st.booleans())
def test_one_die_results_are_always_clamped(a, am, closed):
    x = resolve_exchange(
        a,
        3,
        attacker_strike=(1, 2, 3),
        retaliator_open=not closed,
        attack=MELEE if closed else RANGED,
        attacker_die=am,
    )
    assert 1 <= x.attacker_roll <= 6
    assert x.attacker_kind == strength(a + sum(am))
    assert x.retaliator_kind == MISS and x.retaliator_wounds == 0


# -- die modifiers in the order of 422.4 ----------------------------------------------------

SQUAD_A = ("src", "a1", "a2")
SQUAD_B = ("tgt", "b1")


@pytest.mark.rule("422.4", "422.4а")
def test_modifier_groups_in_order():
    mods = [
        Modifier("tgt", 1),
        Modifier("b1", 1),
        Modifier("src", 1),
        Modifier("a2", 1),
        Modifier("a1", 1),
    ]
    ordered = order_modifiers(
        mods, source="src", target="tgt", source_squad=SQUAD_A, target_squad=SQUAD_B
    )
    assert [(g, m.origin) for g, m in ordered] == [
        (1, "a2"),  # within a group, the order given (the controller's choice) stands
        (1, "a1"),
        (2, "src"),
        (3, "b1"),
        (4, "tgt"),
    ]


@pytest.mark.rule("422.4", "422.4б")
def test_order_matters_for_a_set_to_modifier_and_the_clamp_comes_last():
    # the target's "result becomes 2" comes after the source's squad's +3
    mods = [Modifier("tgt", set_to=2), Modifier("a1", 3)]
    kw = {"source": "src", "target": "tgt", "source_squad": SQUAD_A, "target_squad": SQUAD_B}
    assert apply_die_modifiers(5, mods, **kw) == 2
    # the source's +5 then the target's -1: 9 clamped to 6 only at the end
    mods = [Modifier("tgt", -1), Modifier("src", 5)]
    assert apply_die_modifiers(5, mods, **kw) == 6
    assert apply_die_modifiers(5, mods, open_fight=True, **kw) == 9
    assert apply_die_modifiers(1, [Modifier("b1", -3)], **kw) == 1
    assert apply_die_modifiers(1, [Modifier("b1", -3)], open_fight=True, **kw) == -2


@pytest.mark.rule("422.4", "D-32")
def test_shared_squad_applies_each_modifier_once_in_the_first_group():
    """D-32: source and target in one squad: the first group that matches, once."""
    squad = ("src", "tgt", "x")
    kw = {"source": "src", "target": "tgt", "source_squad": squad, "target_squad": squad}
    assert modifier_group("x", **kw) == 1
    assert modifier_group("src", **kw) == 2
    assert modifier_group("tgt", **kw) == 1  # in the source's squad, not the source
    ordered = order_modifiers([Modifier("x", 1), Modifier("tgt", 1), Modifier("src", 1)], **kw)
    assert len(ordered) == 3
    assert apply_die_modifiers(2, [Modifier("x", 1), Modifier("src", 1)], **kw) == 4
    # a source striking itself
    assert (
        modifier_group("src", source="src", target="src", source_squad=squad, target_squad=squad)
        == 2
    )


@pytest.mark.rule("422.4")
def test_modifier_from_outside_both_squads_is_refused():
    with pytest.raises(ValueError):
        modifier_group(
            "ghost", source="src", target="tgt", source_squad=SQUAD_A, target_squad=SQUAD_B
        )


@given(
    die,
    st.lists(st.tuples(st.sampled_from(SQUAD_A + SQUAD_B), modifier), max_size=6),
    st.booleans(),
)
def test_additive_modifiers_sum_in_any_order(raw, spec, open_fight):
    mods = [Modifier(origin, delta) for origin, delta in spec]
    kw = {"source": "src", "target": "tgt", "source_squad": SQUAD_A, "target_squad": SQUAD_B}
    got = apply_die_modifiers(raw, mods, open_fight=open_fight, **kw)
    assert got == final_roll(raw, [d for _, d in spec], open_fight=open_fight)
    groups = [g for g, _ in order_modifiers(mods, **kw)]
    assert groups == sorted(groups)
