"""Who plays with and against whom in Ascension Tactics: the duel, free-for-all and 2 vs 2.

``seating(db, config, decks)`` reads a game's config and returns its ``Seating``: the
mode, the scenario, the seats in turn order (gate order, T-14/T-23), each seat's gate
card and scenario position (its portals), and its **side**. A side is what the rules call
"you" for enemies, shrines and glory: a seat alone in the duel and free-for-all (T-80:
every other player is an opponent), a team in 2 vs 2 (T-79: teammates' champions are
allies, shrine control counts the team, glory is the team's). ``engine.tactics.game``
stores the result in the state (``mode``, ``sides``, each player's ``side``) and asks the
helpers below who is an ally or an enemy.

Config keys read here (every bad value is an ``InvalidConfig`` naming the rule):

* ``players`` (2-4; default: one per deck, else 2), ``mode`` (``duel``, ``ffa``,
  ``teams``; default from the player count and ``teams``), ``scenario`` (default: the
  mode's own, ``SCENARIO``);
* ``teams``: 2 vs 2 as the platform seats it (``engine.core.registry.TableMode``):
  two lists of two seat numbers, every seat of 0-3 exactly once, e.g. ``[[0, 2], [1, 3]]``;
* ``first``: the seat taking the first turn (default: drawn from the seed, T-14). In
  2 vs 2 its team goes first and takes the Team-1 gates (T-78).

2 vs 2 positions: the first team's players take the scenario's team-1 positions (its
``teams[0]``, e.g. portals 1 and 3), the ``first`` seat the first of them; the other team
takes team-2 positions in the order its seats are listed. Gates (T-78): the game has no
separate Team-1 / Team-2 gate cards, so each player of the first team holds the gate of
the first player (+2 power a turn) and each player of the second team the gate of the
second player (+2 power a turn, +2 more on their first turn, T-15): the team moving second
is compensated as the second player of a duel is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import InvalidConfig
from engine.core.protocol import State
from engine.core.rng import randbelow, shuffle
from engine.tactics.model import MODES, VILLAIN_MODES

PLAYER_MODES = ("duel", "ffa", "teams")
HAND_SIZE = 5  # T-10, T-24
SCENARIO = {"duel": "stone_crossroads", "ffa": "four_spires", "teams": "two_shores"}


@dataclass(frozen=True)
class Seating:
    mode: str
    scenario: str
    n: int
    first: int
    order: tuple[int, ...]  # seats in turn order (gate order)
    position: Mapping[int, int]  # seat -> scenario position (the key of its portals)
    gate: Mapping[int, int]  # seat -> index of its gate card in ``db.gates()``
    sides: tuple[tuple[int, ...], ...]  # in turn order; each side's seats, its lead first


def new_player(
    seat: int,
    *,
    gate: str | None,
    gate_no: int | None,
    side: int,
    deck: list[int],
    rng: list[int] | None,
    **extra: Any,
) -> dict[str, Any]:
    """A seat's entry in ``state["players"]`` at setup, nothing played yet: ``deck`` is
    shuffled with ``rng`` and the opening hand drawn from it (T-9, T-10); with ``rng``
    None (the villain side, T-84) the seat has no cards. ``extra`` adds or overrides keys."""
    hand: list[int] = []
    if rng is not None:
        shuffle(rng, deck)
        hand = [deck.pop() for _ in range(HAND_SIZE)]
    return {
        "seat": seat,
        "gate": gate,
        "gate_no": gate_no,
        "side": side,
        "hand": hand,
        "deck": deck,
        "discard": [],
        "played": [],
        "runes": 0,
        "power": 0,
        "glory": 0,
        "gate_used": False,
        "turns": 0,
        "treasure": [],
        "factions": [],  # factions of cards played this turn (T-52)
        "devotion": [],  # waiting Devotion abilities: [iid, faction]
        "on_top": False,  # T-105
        **extra,
    }


def _whole(value: Any) -> bool:
    return type(value) is int


def resolve_mode(config: Mapping[str, Any], decks: Sequence[Any]) -> tuple[str, int]:
    """The mode and player count a config asks for (before any scenario is looked at)."""
    n = config.get("players")
    if n is None:
        n = len(decks) if decks else 2
    elif not _whole(n) or not 1 <= n <= 4:
        raise InvalidConfig("players is a whole number from 1 to 4 (T-75).")
    if decks and len(decks) != n:
        raise InvalidConfig(f"{len(decks)} decks for {n} players: give one per player.")
    teams = config.get("teams")
    mode = config.get("mode")
    if mode is not None and mode not in MODES:
        raise InvalidConfig(f"mode is one of {', '.join(MODES)}, not {str(mode)[:40]!r} (T-75).")
    if mode is None:
        if teams:
            mode = "teams"
        elif n == 2:
            mode = "duel"
        elif n in (3, 4):
            mode = "ffa"
        else:
            raise InvalidConfig(f"No mode for {n} player(s) without villains (T-75).")
    if teams and mode != "teams":
        raise InvalidConfig("Only 2 vs 2 has teams (T-78).")
    seats = MODES[mode][2]
    if n not in seats:
        allowed = " or ".join(map(str, seats))
        raise InvalidConfig(f"{MODES[mode][0]} is for {allowed} players, not {n} (T-75).")
    return mode, n


def check_teams(value: Any) -> list[list[int]]:
    """``config["teams"]`` for 2 vs 2: two teams of two seats covering 0-3 once (T-78)."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(t, list) and len(t) == 2 for t in value)
        or not all(_whole(seat) for t in value for seat in t)
    ):
        raise InvalidConfig("teams is two lists of two seat numbers, e.g. [[0, 2], [1, 3]] (T-78).")
    if sorted(seat for t in value for seat in t) != [0, 1, 2, 3]:
        raise InvalidConfig("teams must list every seat from 0 to 3 exactly once (T-78).")
    return [list(t) for t in value]


def seating(db: Any, config: Mapping[str, Any], decks: Sequence[Any], rng: list[int]) -> Seating:
    """The seating of a new game of a player mode (the duel, free-for-all, 2 vs 2).

    Draws the first player from ``rng`` (T-14) unless ``config["first"]`` names one."""
    mode, n = resolve_mode(config, decks)
    if mode in VILLAIN_MODES:
        raise InvalidConfig(f"{MODES[mode][0]} is played against the villains (T-81..T-101).")
    key = config.get("scenario", SCENARIO[mode])
    if not isinstance(key, str) or key not in db.scenarios:
        raise InvalidConfig(f"No scenario {str(key)[:40]!r}.")
    scen = db.scenario(key)
    if mode not in scen.modes:
        raise InvalidConfig(
            f"«{scen.name_ru}» is not played as {MODES[mode][0]} "
            f"(it offers: {', '.join(scen.modes)}; T-75)."
        )
    teams = None
    if mode == "teams":
        if not config.get("teams"):
            raise InvalidConfig("2 vs 2 needs teams, e.g. [[0, 2], [1, 3]] (T-78).")
        teams = check_teams(config["teams"])
    if "first" in config:
        first = config["first"]
        if not _whole(first) or not 0 <= first < n:
            raise InvalidConfig(f"first is a seat from 0 to {n - 1}")
    else:
        first = randbelow(rng, n)  # T-14
    if teams is None:
        order = tuple((first + k) % n for k in range(n))
        position = {seat: k + 1 for k, seat in enumerate(order)}
        gate = {seat: k for k, seat in enumerate(order)}
        sides = tuple((seat,) for seat in order)
    else:
        one = next(t for t in teams if first in t)
        two = next(t for t in teams if first not in t)
        one = [first] + [s for s in one if s != first]
        pos_one, pos_two = scen.modes[mode].teams
        position = {**dict(zip(one, pos_one, strict=True)), **dict(zip(two, pos_two, strict=True))}
        gate = {**dict.fromkeys(one, 0), **dict.fromkeys(two, 1)}  # T-78: Team-1 / Team-2
        order = (one[0], two[0], one[1], two[1])
        sides = (tuple(one), tuple(two))
    return Seating(mode, key, n, first, order, position, gate, sides)


# -- sides ------------------------------------------------------------------------------------


def side_of(s: State, seat: int) -> int:
    """The side of ``seat``: its team's index in 2 vs 2, else the seat itself."""
    return s["players"][seat].get("side", seat)


def side_seats(s: State, seat: int) -> tuple[int, ...]:
    """The seats on ``seat``'s side (itself included)."""
    me = side_of(s, seat)
    return tuple(p["seat"] for p in s["players"] if p.get("side", p["seat"]) == me)


def is_enemy(s: State, seat: int, other: int) -> bool:
    """Whether ``other``'s champions are enemies of ``seat``'s (T-80, T-79)."""
    return side_of(s, seat) != side_of(s, other)


def side_index(s: State, seat: int) -> int:
    """The index in ``s["sides"]`` (turn order) of the side ``seat`` is on."""
    for k, seats in enumerate(s["sides"]):
        if seat in seats:
            return k
    raise ValueError(f"seat {seat!r} is on no side")


def in_play(s: State, seats: Sequence[int]) -> list[int]:
    """``seats`` without those who have left the game."""
    return [seat for seat in seats if seat not in s["out"]]


def standing_sides(s: State) -> list[int]:
    """The indexes of the sides with a player still in the game."""
    return [k for k, seats in enumerate(s["sides"]) if in_play(s, seats)]


def lead(s: State, k: int) -> int:
    """The seat that holds side ``k``'s shared things (its treasure, T-79): the side's
    first seat."""
    return s["sides"][k][0]


def side_index_of(seating: Seating, seat: int) -> int:
    """The side a new game gives ``seat``: its team's index in 2 vs 2, else the seat."""
    if seating.mode != "teams":
        return seat
    return next(k for k, side in enumerate(seating.sides) if seat in side)


def limit_winners(s: State) -> list[int]:
    """Who wins a free-for-all that reaches its round limit (decision 0055): it ends like
    any free-for-all, every player placed by glory (T-80: one winner, the others by their
    glory), so the player with the most glory wins, players level at the top share the win;
    when every player still in the game is level, and in every other mode, it is a draw
    (``[]``)."""
    if s.get("mode") != "ffa":
        return []
    standing = [p for p in s["players"] if p["seat"] not in s["out"]]
    if not standing:
        return []
    top = max(p["glory"] for p in standing)
    leaders = [p["seat"] for p in standing if p["glory"] == top]
    return [] if len(leaders) == len(standing) else leaders
