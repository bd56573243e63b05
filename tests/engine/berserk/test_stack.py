"""The stack, priority and chains of Berserk (215-216): checklist items 37-41."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.berserk import stack as sk


def test_ck41_a_simple_strike_pushes_nine_objects_with_the_declaration_on_top():
    """Checklist 41 [216.1а-б]: 9 objects, Declaration on top; without dice, 6."""
    full = sk.push_chain([], 1, ability="strike")
    assert len(full) == 9 and sk.top(full)["kind"] == "declaration"
    assert [o["kind"] for o in reversed(full)] == list(sk.FULL_CHAIN)
    assert full[0]["kind"] == "end" and all(o["ability"] == "strike" for o in full)
    simple = sk.push_chain([], 2, dice=False)
    assert len(simple) == 6 and sk.top(simple)["kind"] == "declaration"
    assert not {o["kind"] for o in simple} & {"roll", "result", "calculation"}


def test_ck38_two_passes_on_a_non_empty_stack_execute_exactly_the_top_object():
    """Checklist 38 [215.8]."""
    stack = sk.push_chain([], 1)
    priority = sk.new_priority(0)
    priority, what = sk.after_pass(priority, stack)
    assert what == "continue" and priority["holder"] == 1
    priority, what = sk.after_pass(priority, stack)
    assert what == "execute"
    executed, rest = sk.pop(stack)
    assert executed["kind"] == "declaration" and len(rest) == 8


def test_ck39_two_passes_on_an_empty_stack_end_the_step():
    """Checklist 39 [215.8, 300.3]."""
    priority, what = sk.after_pass(sk.new_priority(1), [])
    assert what == "continue" and priority == {"holder": 0, "passes": 1}
    _priority, what = sk.after_pass(priority, [])
    assert what == "end"


def test_ck37_the_active_player_holds_priority_after_a_declaration_or_an_execution():
    """Checklist 37 [215.9]: whoever declared, priority returns to the active player."""
    assert sk.after_declare_or_execute(0) == {"holder": 0, "passes": 0}
    assert sk.after_declare_or_execute(1)["holder"] == 1


def test_ck40_simultaneous_chains_put_the_non_active_players_on_top():
    """Checklist 40 [215.4]: the active player's chains go in first."""
    mine = [sk.chain_objects(1, dice=False, owner=0), sk.chain_objects(2, dice=False, owner=0)]
    theirs = [sk.chain_objects(3, dice=False, owner=1)]
    stack = sk.push_simultaneous([], mine, theirs)
    assert sk.top(stack)["owner"] == 1 and sk.top(stack)["chain"] == 3
    assert stack[0]["chain"] == 1  # the active player's first chain is at the bottom


def test_cancel_removes_payment_and_block_keeps_it():
    """[409.1] cancel: every object, Payment too; [410.1] block: all but Payment."""
    stack = sk.push_chain(sk.push_chain([], 1), 2)
    cancelled = sk.remove_chain(stack, 2)
    assert sk.chain_of(cancelled, 2) == [] and len(sk.chain_of(cancelled, 1)) == 9
    blocked = sk.remove_chain(stack, 2, keep_payment=True)
    assert [o["kind"] for o in sk.chain_of(blocked, 2)] == ["payment"]


def test_the_first_time_on_top_is_remembered():
    """[216.2, 216.7]: triggers and weakening look at the first time an object is on top."""
    stack = sk.push_chain([], 1)
    assert sk.first_time_on_top(stack)
    stack = sk.mark_seen(stack)
    assert not sk.first_time_on_top(stack)
    assert sk.height(stack, stack[-1]) == 8


@given(st.lists(st.booleans(), min_size=1, max_size=8))
def test_heights_are_unique_and_chains_stay_whole(dice):
    """[215.3б-е]: every object has its own height and belongs to exactly one chain."""
    stack: list = []
    for chain, with_dice in enumerate(dice):
        stack = sk.push_chain(stack, chain, dice=with_dice)
    assert [sk.height(stack, o) for o in stack] == list(range(len(stack)))
    for chain, with_dice in enumerate(dice):
        assert len(sk.chain_of(stack, chain)) == (9 if with_dice else 6)
