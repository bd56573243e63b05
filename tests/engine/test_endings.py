"""How a finished game was decided, in each game's words: the optional ``ending`` hook of
``engine.core.protocol`` (a seeded bot game played to the end, read in English and
Russian; only public facts of the final state) and a system without it."""

from __future__ import annotations

import pytest

from engine import simulate
from engine.core import registry
from engine.core.protocol import ending

NAMES = {0: "alice", 1: "bob"}


def play_out(key: str, seed: int, config=None) -> tuple[object, dict]:
    """A seeded game of two heuristic bots, played to its end."""
    kit = simulate.load_kit(key)
    system, _pool = kit.system(True)
    fmt = kit.formats[0]
    config = {**dict(registry.get(key).play_config), **(config or {})}
    bots = [kit.make_bot("heuristic", system, seed + i) for i in range(2)]
    state = system.new_game(config, kit.decks(system, 2, seed, fmt), seed)
    for _ in range(simulate.MAX_ACTIONS):
        if state["finished"]:
            break
        seat = system.to_act(state)[0]
        state, _events = system.apply(state, seat, bots[seat].choose(state, seat))
    assert state["finished"], "the game does not end"
    return system, state


@pytest.mark.parametrize(
    ("key", "config"),
    [
        ("voskhozhdenie", None),
        ("ascension", None),
        ("berserk", None),
        ("tactics", None),
    ],
)
def test_a_finished_game_says_how_it_was_decided_in_both_languages(key, config):
    system, state = play_out(key, seed=7, config=config)
    result = system.result(state)
    en = ending(system, state, "en", NAMES)
    ru = ending(system, state, "ru-RU", NAMES)
    assert en and ru and en != ru
    assert any("а" <= ch <= "я" for ch in ru.lower())
    if result.winners:
        # the winner or the player who lost by the rules is named by their seat's name
        assert any(NAMES[s] in en and NAMES[s] in ru for s in (0, 1)), (en, ru)
    else:
        assert "draw" in en or "win" in en, en
    # a seat without a name is counted from 1
    assert "Seat " in ending(system, state, "en", {})
    assert "Место " in ending(system, state, "ru", {})


def test_the_hook_is_asked_only_of_a_finished_game():
    kit = simulate.load_kit("berserk")
    system, _pool = kit.system(True)
    state = system.new_game({}, kit.decks(system, 2, 3, kit.formats[0]), 3)
    assert ending(system, state, "en", NAMES) is None


def test_berserk_names_the_player_with_no_creature_left():
    """102.3а: the loser is the one who controls no creature; 102.4: both at once, a draw."""
    system, state = play_out("berserk", seed=7)
    won = {**state, "winners": [0], "draw": False, "out": []}
    assert ending(system, won, "en", NAMES) == "bob has no creatures left (102.3а)"
    assert "bob" in ending(system, won, "ru", NAMES) and "102.3а" in ending(
        system, won, "ru", NAMES
    )
    both = {**won, "winners": [], "draw": True, "turn": 1}
    assert "102.4" in ending(system, both, "en", NAMES)
    left = {**won, "out": [1]}  # 102.3б: a departure, decided by no rule of play
    assert ending(system, left, "en", NAMES) is None


def test_tactics_tells_glory_schemes_and_the_round_limit_apart():
    system, state = play_out("tactics", seed=7)
    goal = state["victory"].get("glory", 30)
    players = [{**p, "glory": goal if p["seat"] == 1 else 3} for p in state["players"]]
    won = {**state, "players": players, "winners": [1], "round": 1, "max_rounds": 9}
    assert ending(system, won, "en", NAMES) == f"bob reached {goal} glory (T-25)"
    capped = {**won, "round": 10, "winners": [], "draw": True}
    assert "a draw" in ending(system, capped, "en", NAMES)
    villain = {"seat": 1, "player": False, "won": True}
    schemes = {**won, "villain": villain, "winners": [], "victory": {"glory": 99}}
    assert "scheme deck ran out (T-87)" in ending(system, schemes, "en", NAMES)


def test_a_system_without_the_hook_gives_nothing():
    from tests.toygame.game import SYSTEM as TOY

    assert not hasattr(TOY, "ending")
    state = TOY.new_game({}, [None, None], 1)
    finished = {**state, "finished": True}
    assert ending(TOY, finished, "en", NAMES) is None


def test_ascension_solo_compares_with_samael():
    """A-51: solo, the honor totals against Samael's; a tie is not a win."""
    from engine.ascension.bots import BOTS
    from engine.ascension.game import SYSTEM as S
    from engine.core.rng import seed_state

    state, rng = S.new_game({"players": 1}, [], 5), seed_state(35)
    while not state["finished"]:
        state, _ = S.apply(state, 0, BOTS["heuristic"](S, state, 0, rng))
    text = ending(S, state, "en", NAMES)
    assert f"alice {state['scores'][0]}, Samael {state['samael_score']}" in text
    assert text.endswith("Samael wins (A-51)") == (not state["winners"])
    assert "Самаэль" in ending(S, state, "ru", NAMES)


def test_voskhozhdenie_tells_a_draw_by_an_event_rule():
    """1.3.3: idle Rounds or the Round limit end the game; with no winner, a draw (1.3.10)."""
    system, state = play_out("voskhozhdenie", seed=7)
    drawn = {**state, "winners": [], "draw": True}
    idle = {**drawn, "idle": {"limit": 3, "count": 3, "acted": False}}
    assert "For 3 Rounds in a row every player only passed (1.3.3)" in ending(
        system, idle, "en", NAMES
    )
    limit = {**drawn, "idle": None, "round_limit": 5, "round": 5}
    assert "(1.3.3) — a draw (1.3.10)" in ending(system, limit, "en", NAMES)
    together = {**drawn, "idle": None, "round_limit": None}
    assert "AMB-34" in ending(system, together, "en", NAMES)
