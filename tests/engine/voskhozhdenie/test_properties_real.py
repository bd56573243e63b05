"""Property tests over the real card sets (engine/sets/voskhozhdenie) with legal decks.

Random legal play with 2-4 players (free-for-all or 2v2 with allies) never raises, keeps
every card instance in exactly one zone, replays from its action log, and never lets a
view show a card that is hidden from its viewer (rule 1.4):

* every Main Deck is hidden from everyone, its owner included (1.4.5.2, 1.4.2.6), except
  the cards its owner looked at ("look_at_top": shown to that owner only, 1.4.3.4);
* a Hand is private (1.4.5.6, 1.4.2.7): hidden from the other players and spectators;
* no card is face down in an open zone in this engine (1.4.2.6: only hidden zones hold
  face-down cards), so nothing else is hidden.

The check walks the whole JSON of each view: an instance id of a hidden card must not
appear where an instance is named (``iid``, ``source``, a Tactic's sides, a decision's
options and triggers), and a card id may appear only beside the id of a visible instance
of that very card. Examples: ``VOSK_REAL_EXAMPLES`` (default 8).
"""

from __future__ import annotations

import json
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.protocol import replay
from engine.simulate import load_kit
from engine.voskhozhdenie.simkit import legal_deck
from tests.engine.voskhozhdenie.test_zones import _assert_one_zone_each

KIT = load_kit("voskhozhdenie")
SYSTEM, POOL = KIT.system(False)
CARD_IDS = frozenset(c.id for c in SYSTEM.db.all_cards())
EXAMPLES = int(os.environ.get("VOSK_REAL_EXAMPLES", "8"))
INSTANCE_KEYS = ("iid", "source")
INSTANCE_LISTS = ("attack", "defence")


def hidden_from(state, viewer) -> set[int]:
    """Instances ``viewer`` (a seat, or None: a spectator) may not see (rule 1.4)."""
    hidden: set[int] = set()
    for p in state["players"]:
        looked = set(p.get("looked", ())) if viewer == p["seat"] else set()
        hidden.update(i for i in p["main"] if i not in looked)
        if viewer != p["seat"]:
            hidden.update(p["hand"])
    return hidden


def leaks(state, view, viewer) -> list[str]:
    """Every place in ``view`` that names a hidden instance or shows a card id without a
    visible instance of that card beside it."""
    hidden = hidden_from(state, viewer)
    cards = state["cards"]
    found: list[str] = []

    def instance(value, where):
        if isinstance(value, int) and not isinstance(value, bool) and value in hidden:
            found.append(f"{where}: hidden instance {value} ({cards[value]['card']})")

    def walk(x, where):
        if isinstance(x, dict):
            for key in INSTANCE_KEYS:
                if key in x:
                    instance(x[key], f"{where}.{key}")
            for key in INSTANCE_LISTS:
                for value in x.get(key) or ():
                    instance(value, f"{where}.{key}")
            named = [v for v in x.values() if isinstance(v, str) and v in CARD_IDS]
            if named:
                owner = next((x[k] for k in INSTANCE_KEYS if isinstance(x.get(k), int)), None)
                if (
                    owner is None
                    or owner in hidden
                    or any(v != cards[owner]["card"] for v in named)
                ):
                    found.append(f"{where}: card id {named} without its visible instance")
            for key, value in x.items():
                walk(value, f"{where}.{key}")
        elif isinstance(x, list):
            for k, value in enumerate(x):
                walk(value, f"{where}[{k}]")

    walk(view, "view")
    pending = view.get("pending") or {}
    if (
        pending.get("kind") in ("choose", "discard_down", "mulligan")
        and pending.get("effect") != "choose_one"
        and pending.get("pick") != "player"  # the options are seats, not cards
    ):
        for value in pending.get("options") or ():
            instance(value, "view.pending.options")
    for trig in pending.get("triggers") or ():
        instance(trig.get("source"), "view.pending.triggers")
    return found


def _game(seed, players, teams, fmt):
    config = KIT.game_config(players, teams=teams)
    decks = [legal_deck(SYSTEM.db, seed * 31 + k, fmt) for k in range(players)]
    return config, decks, SYSTEM.new_game(config, decks, seed)


def _play(seed, players, teams, fmt, steps, chooser, check_views=True):
    """Up to ``steps`` legal actions picked by ``random.Random(chooser)`` (mostly not a
    pass, so games go deep), every invariant checked after each one."""
    config, decks, state = _game(seed, players, teams, fmt)
    r = random.Random(chooser)
    picks = (r.randrange(10**6) for _ in range(steps))
    log = []
    for pick in picks:
        if state["finished"]:
            break
        (seat,) = SYSTEM.to_act(state)
        actions = SYSTEM.legal_actions(state, seat)
        assert actions, "a player to act always has a legal action"
        doing = [a for a in actions if a["type"] != "pass"] or actions
        pool = doing if pick % 10 else actions  # mostly act, sometimes pass
        action = pool[(pick // 10) % len(pool)]
        state, events = SYSTEM.apply(state, seat, action)
        log.append((seat, action))
        _assert_one_zone_each(state)
        json.dumps(events)
        if check_views:
            for viewer in [*range(players), None]:
                view = SYSTEM.view(state, viewer)
                bad = leaks(state, view, viewer)
                assert not bad, (viewer, bad[:5])
    assert json.loads(json.dumps(state)) == state
    assert replay(SYSTEM, config, decks, seed, log) == state
    return state


TABLES = st.sampled_from([(2, False), (2, False), (3, False), (4, False), (4, True)])


def test_the_real_sets_are_loaded():
    assert POOL == "real sets"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    seed=st.integers(0, 2**31 - 1),
    table=TABLES,
    fmt=st.sampled_from(["standard", "blitz"]),
    steps=st.integers(0, 200),
    chooser=st.integers(0, 2**31 - 1),
)
def test_random_legal_play_on_the_real_sets_keeps_invariants_and_secrets(
    seed, table, fmt, steps, chooser
):
    players, teams = table
    _play(seed, players, teams, fmt, steps, chooser)


def test_long_real_set_games_keep_invariants_and_secrets():
    """Deterministic deeper runs, one per table shape (2, 3, 4 players, 2v2)."""
    for k, (players, teams) in enumerate([(2, False), (3, False), (4, False), (4, True)]):
        state = _play(1000 + k, players, teams, "standard", 300, k)
        assert state["round"] >= 2 or state["finished"]


def test_the_leak_check_finds_hidden_cards():
    """The check itself: a view that shows an opponent's hand card or a Main Deck card is
    caught, by instance id and by card id."""
    _config, _decks, state = _game(7, 2, False, "standard")
    view = SYSTEM.view(state, 0)
    assert leaks(state, view, 0) == []
    theirs = state["players"][1]["main"][0]
    card = state["cards"][theirs]["card"]
    assert leaks(state, {**view, "extra": {"iid": theirs, "card": card}}, 0)
    assert leaks(state, {**view, "extra": {"note": card}}, 0)
    mine = state["players"][0]["main"][0]
    assert leaks(state, {**view, "extra": [{"source": mine}]}, 0)


def test_a_choice_of_players_is_not_taken_for_hidden_cards():
    """Found by the property test (seed 4326955, 4 players, Blitz): an effect that makes
    a player choose a player lists seat numbers, which are no instance ids."""
    _play(4326955, 4, False, "blitz", 25, 0)
