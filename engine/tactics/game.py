"""The rules engine of Ascension Tactics (key ``tactics``): the duel (``duel``),
free-for-all for 3-4 players (``ffa``, T-80) and 2 vs 2 (``teams``, T-78/T-79).

Rule ids T-n and decisions D-n are those of the digest ``/work/shared/rules/tactics.md``
(the Russian rulebook ``/work/shared/seeds/003_*`` wins where they differ).

What it plays:

* seating (``engine.tactics.modes``): the mode from the player count and
  ``config["teams"]``, its scenario, gates and portals in turn order; every rule that says
  "you", "enemy" or "ally" reads the player's **side** (a seat, or a team in 2 vs 2);
* setup (§3): the first player at random takes gate 1 (T-14); each player shuffles
  8 Apprentice + 2 Militia (T-9, D-5) and draws 5 (T-10); Mystic / Heavy Infantry piles
  (T-11); the central deck shuffled and a row of 6 (T-17); treasure tokens shuffled, one
  face down on each treasure cell, the rest in the bag (T-12); the reserves: by default
  the champion draft, the phase ``"draft"`` before the first turn (T-76..T-78,
  ``engine.tactics.draft``); with ``config["draft"] = false`` named by
  ``config["reserves"]`` or drawn from the seed (4 each in the duel, 3 with 3-4 players);
* the turn (§5): ``play`` a card (heroes to the played zone, a construct equips one of
  your non-cultist champions, on or off the battlefield, T-20, D-16, C-13), ``gate``
  (+2 power once per turn, the gate's first-turn bonus on its owner's first turn, D-4,
  T-15), ``acquire`` from the row or the always-available piles (T-29..T-32; monsters for
  power, champions to the reserve), ``command`` (T-34..T-38: pay, enter through a free own
  portal, then ``move`` / ``attack`` / ``done``), ``cultist`` (a new cultist, T-50/T-51),
  ``treasure`` (use a token, also mid-command, T-37/T-67), ``end_turn`` (T-24, D-6);
* choices an effect needs are a ``pending`` answered with ``choose`` (T-2);
* keywords: Double attack, Ranged attack, Counter-strike, Area attack, Slaughter,
  Devotion, Ambush (§9, T-33); terrain via ``engine.tactics.terrain`` (forest, corrupted
  land on entry and at every turn start, disabled portals, treasure pick-up, shrines);
* turns by gate order (T-23, T-80); in 2 vs 2 a joint turn: either teammate acts (a
  command is finished first), ``end_turn`` is a teammate's pass and the turn ends when
  both passed, the end steps then run for each and shrines score once for the team
  (D-14, T-79); a team's treasure and glory are shared (T-79); beacons are taken by
  moving into or through them (T-65) and a scenario may give glory for holding all;
* victory: the scenario's glory (T-25, checked at once whenever glory is gained), one
  winner in free-for-all, a whole team in 2 vs 2; a draw after ``config["max_rounds"]``
  (default 40) rounds, but a free-for-all then ends placed by glory, its leader the winner
  (``modes.limit_winners``); ``leave``: the player is out, their champions leave the battlefield;
  a duel ends, otherwise the others play on until one side is left.

Effect ops interpreted (cards' ``abilities``, D-20): runes, power, glory, draw, banish
(hand_or_discard / hand / discard / row), acquire (free, by type and max cost),
construct_on_top, command (free or discounted), enter, move, damage (enemy,
adjacent_enemy, all_adjacent_enemies, attacker), destroy, treasure (gain / reveal),
boost, grant, terrain. Triggers: play, devotion, ambush, slaughter, attacked, command,
turn_start. Not interpreted (skipped): the villain ops (villain_command, surge, cultist,
villain_glory) and the ``threat``/``surge`` triggers, which belong to the villain modes.

Treasure may be used at any time (T-67, C-55): on one's own turn, mid-command included, and
on another's turn through ``interrupts`` (``apply`` takes such an action from a seat that
does not act now). Not done: a choice of entry portal for effect-driven entries (the
first free one is used).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.errors import IllegalAction, InvalidConfig, NotYourTurn
from engine.core.legality import check_action, check_shape
from engine.core.protocol import Action, Event, GameResult, State
from engine.core.rng import randbelow, seed_state, shuffle
from engine.tactics import draft as champion_draft
from engine.tactics import hexes, modes, terrain, villains
from engine.tactics.cards import TacticsDB, load_system
from engine.tactics.model import Card

HAND_SIZE = modes.HAND_SIZE  # T-10, T-24
ROW_SIZE = 6  # T-17
RESERVE_SIZE = 4  # T-77: 4 each with 2 players
BASES = 8  # T-8: figures on the battlefield per player
MAX_CULTISTS = 4  # T-50
DEFAULT_MAX_ROUNDS = 40
DEFAULT_SCENARIO = "stone_crossroads"
MODE = "duel"


# The text of a cell and back are asked for all the time: both remembered (a map has few
# cells; the tables start over past _CELLS_MAX entries).
_CK: dict[tuple[int, int], str] = {}
_PC: dict[str, tuple[int, int]] = {}
_CELLS_MAX = 10_000


def ck(cell: Sequence[int]) -> str:
    if type(cell) is tuple:
        text = _CK.get(cell)
        if text is not None:
            return text
    text = hexes.hex_text((cell[0], cell[1]))
    if type(cell) is tuple and type(cell[0]) is int and type(cell[1]) is int:
        if len(_CK) >= _CELLS_MAX:
            _CK.clear()
        _CK[cell] = text
    return text


def pc(text: str) -> tuple[int, int]:
    if type(text) is str:
        h = _PC.get(text)
        if h is not None:
            return h
    q, r = text.split(",")
    h = (int(q), int(r))
    if type(text) is str:
        if len(_PC) >= _CELLS_MAX:
            _PC.clear()
        _PC[text] = h
    return h


def _clone(v: Any) -> Any:
    """A deep copy of JSON-like data: every dict and list new, anything else shared."""
    if type(v) is dict:
        return {k: _clone(x) if type(x) is dict or type(x) is list else x for k, x in v.items()}
    if type(v) is list:
        if any(map(_IS_CONTAINER, map(type, v))):  # else a flat copy is the deep one
            return [_clone(x) if type(x) is dict or type(x) is list else x for x in v]
        return v[:]
    return v


_IS_CONTAINER = frozenset({dict, list}).__contains__

# How ``_copy`` copies a state: the parts the engine fills with plain values only (card
# ids, seats, cell texts, numbers) are copied one level deep, which for them is the deep
# copy ``_clone`` makes; figures and players, whose shape the engine fixes, two levels;
# any part not named here (the villains', the draft's, ``pending``, ``todo``) by ``_clone``.
_SCALARS = frozenset(
    {"v", "scenario", "shrine_glory", "max_rounds", "first", "active", "mode", "beacon_glory",
     "phase", "round", "log", "finished", "draw"}
)  # fmt: skip
_FLAT_LISTS = (
    "cells", "row", "center", "banished", "box", "bag", "treasure_discard", "out", "winners",
    "acting", "rng",
)  # fmt: skip
_FLAT_DICTS = ("victory", "terrain", "owner", "board_treasure", "cmd")
_LISTS = ("sides", "piles")  # a list or a dict of flat lists
_KNOWN = _SCALARS | {*_FLAT_LISTS, *_FLAT_DICTS, *_LISTS, "players", "figs", "cards"}
# A figure's and a player's keys (``_new_fig``, ``modes.new_player``): one with any other
# (a villain side's player) is copied by ``_clone``. The count tells them apart.
_FIG_SIZE = 11  # id card iid owner cell exhausted damage equip boost grants gone
_PLAYER_SIZE = 17  # seat gate gate_no side hand deck discard played runes power glory
# gate_used turns treasure factions devotion on_top


def _copy(s: State) -> State:
    """A deep copy of a state for ``apply`` to change (what ``_clone`` makes, faster: it
    knows the state's parts), but for ``cards``, which the engine never changes in place
    and which goes last, as it always has, and a finished ``draft`` (T-77), which it only
    reads (``engine.core.opendraft`` makes a new state for each pick in any case)."""
    t = s.copy()
    cards = t.pop("cards")
    for k in t.keys() - _KNOWN:
        v = t[k]
        if type(v) is dict or type(v) is list:
            if k == "draft" and v.get("finished") is True:
                continue  # a finished champion draft is only read from then on: shared
            t[k] = _clone(v)
    for k in _FLAT_LISTS:
        v = t.get(k)
        if type(v) is list:
            t[k] = v[:]
        elif v is not None:
            t[k] = _clone(v)
    for k in _FLAT_DICTS:
        v = t.get(k)
        if type(v) is dict:
            t[k] = v.copy()
        elif v is not None:
            t[k] = _clone(v)
    for k in _LISTS:
        v = t.get(k)
        if type(v) is list:
            t[k] = [x[:] if type(x) is list else _clone(x) for x in v]
        elif type(v) is dict:
            t[k] = {j: x[:] if type(x) is list else _clone(x) for j, x in v.items()}
        elif v is not None:
            t[k] = _clone(v)
    figs = t.get("figs")
    if type(figs) is list:
        t["figs"] = _figs(figs)
    elif figs is not None:
        t["figs"] = _clone(figs)
    players = t.get("players")
    if type(players) is list:
        t["players"] = _players(players)
    elif players is not None:
        t["players"] = _clone(players)
    t["cards"] = cards  # never changes
    return t


def _figs(figs: list) -> list:
    out = []
    for f in figs:
        if type(f) is dict and len(f) == _FIG_SIZE:  # the keys _new_fig gives it
            q = f.copy()
            try:
                q["equip"] = f["equip"][:]
                q["boost"] = f["boost"].copy()
                q["grants"] = f["grants"][:]
            except (KeyError, TypeError, AttributeError):  # pragma: no cover - not a figure
                q = _clone(f)
            out.append(q)
        else:
            out.append(_clone(f))
    return out


def _players(players: list) -> list:
    out = []
    for p in players:
        if type(p) is dict and len(p) == _PLAYER_SIZE:  # the keys new_player gives
            q = p.copy()
            try:
                q["hand"] = p["hand"][:]
                q["deck"] = p["deck"][:]
                q["discard"] = p["discard"][:]
                q["played"] = p["played"][:]
                q["treasure"] = p["treasure"][:]
                q["factions"] = p["factions"][:]
                q["devotion"] = [d[:] for d in p["devotion"]]
            except (KeyError, TypeError, AttributeError):  # pragma: no cover - not a player
                q = _clone(p)
            out.append(q)
        else:
            out.append(_clone(p))
    return out


_STATS = frozenset({"strength", "defence", "speed"})
_NOT_IN_COMMAND = ("play", "acquire", "command", "cultist", "gate", "end_turn")  # T-37


def _of_type(acts: list[Action], only: str | None) -> list[Action]:
    return acts if only is None else [a for a in acts if a["type"] == only]


class Tactics:
    """The Ascension Tactics GameSystem (duel). ``SYSTEM`` uses the default card sets."""

    key = "tactics"

    def __init__(self, db: TacticsDB | None = None):
        self.db = db or load_system()
        self.info: dict[str, Card] = dict(self.db.cards)
        self.treasures = [t for s in self.db.sets for t in s.treasures]
        self._bf_cache: dict[Any, terrain.Battlefield] = {}
        self._bf_last: tuple | None = None  # (scenario, terrain, owner, battlefield)
        self.cultist_card = self.db.cultist()

    # -- setup ------------------------------------------------------------------------

    def new_game(self, config: Mapping[str, Any], decks: Sequence[Any], seed: int) -> State:
        config = dict(config or {})
        if villains.wanted(config):  # solo, co-op, archvillain (T-81..T-101)
            return villains.new_game(self, config, decks, seed)
        max_rounds = config.get("max_rounds", DEFAULT_MAX_ROUNDS)
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise InvalidConfig("max_rounds must be a whole number >= 1")
        rng = seed_state(seed)
        seating = modes.seating(self.db, config, decks, rng)  # mode, scenario, gates (T-14)
        drafting = champion_draft.wanted(config)  # T-16, T-76
        key = seating.scenario
        scen = self.db.scenario(key)
        mode = scen.modes[seating.mode]
        n = seating.n
        cards: list[str] = []

        def make(cid: str, count: int = 1) -> list[int]:
            start = len(cards)
            cards.extend([cid] * count)
            return list(range(start, start + count))

        first = seating.first
        gates = self.db.gates()
        players = []
        for seat in range(n):
            deck: list[int] = []
            for cid in self.db.starters():  # T-9, D-5
                deck.extend(make(cid))
            players.append(
                modes.new_player(
                    seat,
                    gate=gates[seating.gate[seat]].id,  # T-14, T-78
                    gate_no=seating.position[seat],  # the scenario's portals (T-59)
                    side=modes.side_index_of(seating, seat),
                    deck=deck,
                    rng=rng,
                )
            )
        piles = {c.id: make(c.id, c.copies) for c in self.db.always()}  # T-11
        center: list[int] = []
        for cid in self.db.central_deck():
            center.extend(make(cid))
        shuffle(rng, center)  # T-17
        row = [center.pop() for _ in range(ROW_SIZE)]
        # terrain: the scenario's, plus the portals of each seat by gate order
        ter: dict[str, str] = {ck(c): t for c, t in scen.terrain.items()}
        owner: dict[str, int] = {}
        for seat in range(n):
            for cell in mode.portals.get(players[seat]["gate_no"], ()):
                ter[ck(cell)] = "portal"
                owner[ck(cell)] = seat
        bag = [k for k, t in enumerate(self.treasures) for _ in range(t.count)]
        shuffle(rng, bag)  # T-12
        board_treasure = {}
        for cell in sorted(scen.treasure):
            if bag:
                board_treasure[ck(cell)] = bag.pop()
        # reserves: the champion draft (T-76..T-78), named by the config, or drawn from the seed
        figs: list[dict] = []
        pool = sorted(c.id for c in self.db.champions())
        shuffle(rng, pool)
        per_seat = champion_draft.quota(seating.mode, n)
        chosen = self._check_reserves(config.get("reserves"), n)
        draft_state = None
        if drafting:
            draft_state = champion_draft.start(pool, seating.sides, per_seat)
        for seat in range(n):
            if drafting:
                break
            if chosen is not None:
                ids = list(chosen[seat])
            else:
                ids = pool[seat * per_seat : (seat + 1) * per_seat]
            for cid in ids:
                self._new_figs(figs, cid, seat, make(cid)[0])
        return {
            "v": 1,
            "scenario": key,
            "victory": dict(mode.victory),
            "shrine_glory": scen.shrine_glory,
            "cells": sorted(ck(c) for c in scen.cells),
            "max_rounds": max_rounds,
            "cards": cards,
            "players": players,
            "figs": figs,
            "row": row,
            "center": center,
            "banished": [],
            "box": [],
            "piles": piles,
            "terrain": ter,
            "owner": owner,
            "board_treasure": board_treasure,
            "bag": bag,
            "treasure_discard": [],
            "first": first,
            "active": first,
            "mode": seating.mode,
            "beacon_glory": mode.beacon_glory,  # D-2: the scenario's beacon rule (T-65)
            "sides": [list(side) for side in seating.sides],  # turn order (T-23, T-79)
            "acting": [] if drafting else list(seating.sides[0]),  # who may act this turn
            "phase": champion_draft.PHASE if drafting else "play",
            "draft": draft_state,
            "round": 1,
            "cmd": None,
            "pending": None,
            "todo": [],
            "rng": rng,
            "log": 0,
            "out": [],
            "finished": False,
            "winners": [],
            "draw": False,
        }

    def _check_reserves(self, chosen: Any, n: int) -> list[list[str]] | None:
        """``config["reserves"]``: one list of champion ids per seat (T-16), or None."""
        if chosen is None:
            return None
        if not isinstance(chosen, list) or len(chosen) != n:
            raise InvalidConfig(f"reserves is one list of champion ids per player ({n}).")
        for ids in chosen:
            if not isinstance(ids, list):
                raise InvalidConfig("reserves is one list of champion ids per player.")
            for cid in ids:
                if (
                    not isinstance(cid, str)
                    or cid not in self.info
                    or not self.info[cid].is_champion
                ):
                    raise InvalidConfig(f"{str(cid)[:40]!r} is not a champion")
        return chosen

    def _new_fig(self, figs: list, cid: str, seat: int, iid: int | None) -> dict:
        fig = {
            "id": len(figs),
            "card": cid,
            "iid": iid,
            "owner": seat,
            "cell": None,
            "exhausted": False,
            "damage": 0,
            "equip": [],
            "boost": {"strength": 0, "defence": 0, "speed": 0},
            "grants": [],
            "gone": False,
        }
        figs.append(fig)
        return fig

    def _new_figs(self, figs: list, cid: str, seat: int, iid: int) -> list[dict]:
        """A champion card's figures: one, or two sharing the card (T-106)."""
        return [self._new_fig(figs, cid, seat, iid) for _ in range(self.info[cid].figures)]

    def siblings(self, s: State, fig: dict) -> list[dict]:
        """The other figures of ``fig``'s card (T-106); none for a one-figure champion."""
        if fig["iid"] is None or self.info[fig["card"]].figures < 2:
            return []
        return [f for f in s["figs"] if f["iid"] == fig["iid"] and f is not fig]

    def equipped(self, s: State, fig: dict) -> list[int]:
        """The constructs boosting ``fig``: its card's, on whichever of its figures they
        were played (T-20; T-106: constructs boost both figures)."""
        if fig["iid"] is None or self.info[fig["card"]].figures < 2:
            return fig["equip"]
        return [i for f in s["figs"] if f["iid"] == fig["iid"] for i in f["equip"]]

    # -- the battlefield --------------------------------------------------------------

    def bf(self, s: State) -> terrain.Battlefield:
        last = self._bf_last  # the one asked for last: most often the one wanted again
        if (
            last is not None
            and s["scenario"] == last[0]
            and s["terrain"] == last[1]
            and s["owner"] == last[2]
        ):
            return last[3]
        key = (s["scenario"], frozenset(s["terrain"].items()), frozenset(s["owner"].items()))
        bf = self._bf_cache.get(key)
        if bf is None:
            if len(self._bf_cache) > 512:
                self._bf_cache.clear()
            bf = terrain.Battlefield(
                frozenset(pc(c) for c in s["cells"]),
                {pc(c): t for c, t in s["terrain"].items()},
                {pc(c): o for c, o in s["owner"].items()},
                enchanted=self._enchanted(s["scenario"]),
            )
            self._bf_cache[key] = bf
        self._bf_last = (s["scenario"], dict(s["terrain"]), dict(s["owner"]), bf)
        return bf

    def _enchanted(self, key: str) -> terrain.EnchantedLand:
        """The scenario's enchanted land (T-63): its cells share one set of rules (the
        battlefield model holds one), the first cell's."""
        lands = self.db.scenario(key).enchanted
        if not lands:
            return terrain.EnchantedLand()
        first = lands[min(lands)]
        return terrain.EnchantedLand(first.impassable, first.blocks_los, first.extra_cost)

    def _set_bf(self, s: State, bf: terrain.Battlefield) -> None:
        s["terrain"] = {ck(c): str(t) for c, t in bf.terrain.items()}
        s["owner"] = {ck(c): o for c, o in bf.owner.items()}

    # -- figures ----------------------------------------------------------------------

    def card_of(self, fig: dict) -> Card:
        return self.info[fig["card"]]

    def is_cultist(self, fig: dict) -> bool:
        return fig["iid"] is None

    def stat(self, s: State, fig: dict, stat: str) -> int:
        c = self.info[fig["card"]]
        if stat not in _STATS:
            raise KeyError(stat)
        base = getattr(c, stat)
        base = (3 if stat == "speed" else 0) if base is None else base
        total = base + fig["boost"][stat] + villains.static_bonus(self, s, fig, stat)  # T-92
        for iid in self.equipped(s, fig):  # T-20, T-106
            eq = self.info[s["cards"][iid]].equip
            if eq is not None:
                total += getattr(eq, stat)
        return max(0, total)

    def keywords(self, s: State, fig: dict) -> set[str]:
        kw = set(self.card_of(fig).keywords) | set(fig["grants"])
        for iid in self.equipped(s, fig):  # T-20, T-106
            eq = self.info[s["cards"][iid]].equip
            if eq is not None:
                kw |= set(eq.keywords)
        return kw

    def on_board(self, s: State, seat: int | None = None) -> list[dict]:
        return [
            f for f in s["figs"] if f["cell"] is not None and (seat is None or f["owner"] == seat)
        ]

    def cells_of(self, s: State, seat: int) -> set[tuple[int, int]]:
        return {pc(f["cell"]) for f in self.on_board(s, seat)}

    def free_portals(self, s: State, seat: int) -> list[str]:
        on = [f for f in s["figs"] if f["cell"] is not None]  # on_board
        if sum(1 for f in on if f["owner"] == seat) >= BASES:  # T-8
            return []
        occupied = {pc(f["cell"]) for f in on}
        cells = [ck(h) for h in terrain.entry_cells(self.bf(s), seat, occupied)]
        return cells + villains.shared_portals(self, s, seat, occupied)  # T-97

    def can_command(self, s: State, fig: dict, seat: int) -> bool:
        return fig["owner"] == seat and not fig["gone"] and not fig["exhausted"]

    def command_cost(self, fig: dict) -> int:
        return self.card_of(fig).command or 0

    # -- whose turn -------------------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        if state["finished"]:
            return ()
        if state["pending"] is not None:
            return (state["pending"]["player"],)
        if state.get("phase") == champion_draft.PHASE:
            seat = champion_draft.to_pick(state["draft"])
            return () if seat is None else (seat,)
        if state["cmd"] is not None:
            return (state["figs"][state["cmd"]["fig"]]["owner"],)  # T-37: one command at once
        if "acting" in state:
            return tuple(state["acting"])  # D-14: a joint turn, teammates who have not passed
        return (state["active"],)

    # -- legal actions ----------------------------------------------------------------

    def legal_actions(self, state: State, player: int) -> list[Action]:
        return self._legal(state, player, None)

    def _legal(self, state: State, player: int, only: str | None) -> list[Action]:
        """``legal_actions``, or with ``only`` an action type just the actions of that type
        (``apply`` checks an action against those), in the same order."""
        if state["finished"] or player not in self.to_act(state):
            return []
        s = state
        pending = s["pending"]
        if s.get("phase") == champion_draft.PHASE:
            return _of_type(champion_draft.legal(s["draft"], player), only)  # T-77
        if pending is not None:
            if only is not None and only != "choose":
                return []
            acts: list[Action] = [
                {"type": "choose", "i": i} for i in range(len(pending["options"]))
            ]
            if pending["optional"]:
                acts.append({"type": "choose", "i": None})
            return acts
        if villains.is_villain_seat(s, player):  # the archvillain (T-99, T-100)
            return _of_type(villains.legal_actions(self, s, player), only)
        p = s["players"][player]
        acts = self._treasure_actions(s, player) if only in (None, "treasure") else []
        cmd = s["cmd"]
        if cmd is not None:
            fig = s["figs"][cmd["fig"]]
            if not cmd["moved"] and only in (None, "move"):
                for cell in self._moves(s, fig):
                    acts.append({"type": "move", "cell": cell})
            if cmd["attacks"] > 0 and only in (None, "attack"):
                for cell in self._targets(s, fig):
                    acts.append({"type": "attack", "cell": cell})
            if only in (None, "done"):
                acts.append({"type": "done"})
            return acts
        info, cards, figs = self.info, s["cards"], s["figs"]
        if only in (None, "play"):
            for iid in p["hand"]:
                c = info[cards[iid]]
                if c.type == "construct":  # T-20, D-16, C-13: non-cultist champions of yours
                    seen = set()  # T-106: a card of two figures is equipped once
                    for f in figs:
                        if (
                            f["owner"] == player
                            and not f["gone"]
                            and f["iid"] is not None
                            and f["iid"] not in seen
                        ):
                            seen.add(f["iid"])
                            acts.append({"type": "play", "iid": iid, "fig": f["id"]})
                else:
                    acts.append({"type": "play", "iid": iid})
        if not p["gate_used"] and only in (None, "gate"):
            acts.append({"type": "gate"})
        power, runes = p["power"], p["runes"]
        if only in (None, "acquire"):  # _affordable (T-29, T-30)
            for iid in s["row"]:
                if iid is not None:
                    c = info[cards[iid]]
                    if (c.cost or 0) <= (power if c.type == "monster" else runes):
                        acts.append({"type": "acquire", "iid": iid})
            for cid, pile in s["piles"].items():
                if pile:
                    c = info[cid]
                    if (c.cost or 0) <= (power if c.type == "monster" else runes):
                        acts.append({"type": "acquire", "pile": cid})
        portals = None  # free_portals, asked for at most once
        if only in (None, "command"):
            for f in figs:
                if (
                    f["owner"] == player
                    and not f["gone"]
                    and not f["exhausted"]  # can_command
                    and (info[f["card"]].command or 0) <= power  # command_cost
                ):
                    if f["cell"] is not None:
                        acts.append({"type": "command", "fig": f["id"]})
                    else:
                        if portals is None:
                            portals = self.free_portals(s, player)
                        for cell in portals:
                            acts.append({"type": "command", "fig": f["id"], "cell": cell})
        if only in (None, "cultist"):
            cultists = sum(
                1
                for f in figs
                if f["cell"] is not None and f["owner"] == player and f["iid"] is None
            )
            if cultists < MAX_CULTISTS and (self.cultist_card.command or 0) <= power:
                if portals is None:
                    portals = self.free_portals(s, player)
                for cell in portals:
                    acts.append({"type": "cultist", "cell": cell})
        if only in (None, "end_turn"):
            acts.append({"type": "end_turn"})
        return acts

    def ending(self, state: State, language: str, names: Mapping[int, str]) -> str | None:
        """How the finished game was decided, in words (``engine.core.protocol``)."""
        from engine.tactics.describe import ending

        return ending(state, language, names)

    def interrupts(self, state: State, player: int) -> list[Action]:
        """What ``player`` may do while it is not their turn to act: use a treasure token
        on a champion of their own, at any time, even on an opponent's turn (T-67, D-15,
        C-55); the boost lasts until that turn ends (D-6). None during the champion draft,
        after the game, for a seat that left or for a seat that acts now (its
        ``legal_actions`` hold its treasure)."""
        if (
            state["finished"]
            or state.get("phase") == champion_draft.PHASE
            or type(player) is not int
            or not 0 <= player < len(state["players"])
            or player in state["out"]
            or player in self.to_act(state)
        ):
            return []
        return self._treasure_actions(state, player)

    def tokens(self, s: State, seat: int) -> list[int]:
        """The treasure tokens ``seat`` may use: its own, or in 2 vs 2 its team's, held in
        the list of the team's first seat (T-79, C-57)."""
        if s.get("mode") == "teams":
            return s["players"][modes.lead(s, modes.side_index(s, seat))]["treasure"]
        return s["players"][seat]["treasure"]

    def _treasure_actions(self, s: State, seat: int) -> list[Action]:
        acts = []
        seen = set()
        for i, kind in enumerate(self.tokens(s, seat)):
            if kind in seen:
                continue
            seen.add(kind)
            for f in s["figs"]:  # D-15: any champion of yours, on or off the battlefield
                if f["owner"] == seat and not f["gone"]:
                    acts.append({"type": "treasure", "i": i, "fig": f["id"]})
        return acts

    def _affordable(self, p: dict, c: Card) -> bool:
        cost = c.cost or 0
        return cost <= (p["power"] if c.type == "monster" else p["runes"])  # T-29/T-30

    def _enemies(self, s: State, seat: int) -> set[tuple[int, int]]:
        """The cells of ``seat``'s enemies: every other side's champions (T-79, T-80)."""
        return {pc(f["cell"]) for f in self.enemies_on_board(s, seat)}

    def enemies_on_board(self, s: State, seat: int) -> list[dict]:
        """The champions on the battlefield that are enemies of ``seat`` (T-79, T-80)."""
        return [f for f in self.on_board(s) if modes.is_enemy(s, seat, f["owner"])]

    def _side_cells(self, s: State, seat: int) -> set[tuple[int, int]]:
        """The cells of the champions of ``seat``'s side, teammates' included (T-79)."""
        side = modes.side_seats(s, seat)
        return {pc(f["cell"]) for f in self.on_board(s) if f["owner"] in side}

    def _moves(self, s: State, fig: dict, steps: int | None = None) -> list[str]:
        seat = fig["owner"]
        start = pc(fig["cell"])
        mp = self.stat(s, fig, "speed") if steps is None else steps  # T-39
        reach = terrain.reachable(
            self.bf(s),
            start,
            mp,
            enemies=self._enemies(s, seat),
            allies=self._side_cells(s, seat) - {start},  # T-41: teammates' too (T-79)
            seats=modes.side_seats(s, seat),  # T-43: a teammate's portal is no opponent's
        )
        return [ck(h) for h in reach]

    def _targets(self, s: State, fig: dict) -> list[str]:
        enemies = self._enemies(s, fig["owner"])
        ranged = "ranged" in self.keywords(s, fig)
        return [
            ck(h)
            for h in terrain.attack_targets(self.bf(s), pc(fig["cell"]), enemies, ranged=ranged)
        ]

    # -- apply ------------------------------------------------------------------------

    def apply(self, state: State, player: int, action: Action) -> tuple[State, list[Event]]:
        if state["finished"]:
            raise IllegalAction("The game is over.", "T-25")
        handler = self._offered(state, player, action)
        if handler is None:
            handler = self._check(state, player, action)
        s = _copy(state)
        events: list[Event] = []
        handler(self, s, player, action, events)
        self._run(s, events)
        self._check_command(s, events)
        villains.advance(self, s, events)  # the schemes still to resolve (T-86)
        s["log"] += 1
        return s, events

    def _offered(self, state: State, player: Any, action: Any) -> Any:
        """The handler of ``action`` if it is exactly one of the actions offered to
        ``player`` (the same keys, values and types of values: what ``check_action``'s
        canonical forms compare, as the offered ones hold plain values only), else None:
        then ``_check`` runs every check in turn and says what is wrong. Never raises."""
        if type(action) is not dict or type(player) is not int:
            return None
        kind = action.get("type")
        if type(kind) is not str:
            return None
        if player not in self.to_act(state):  # T-67, C-55: treasure on another's turn
            if kind == "treasure" and any(
                a == action and all(type(action[k]) is type(v) for k, v in a.items())
                for a in self.interrupts(state, player)
            ):
                return self._handlers[kind]
            return None
        if state.get("phase") == champion_draft.PHASE and kind != "pick":
            return None
        if state["pending"] is not None and kind != "choose":
            return None
        if state["cmd"] is not None and kind in _NOT_IN_COMMAND:
            return None
        handler = self._handlers.get(kind)
        if handler is None:
            return None
        for a in self._legal(state, player, kind):
            if a == action:
                for key, value in a.items():
                    if type(action[key]) is not type(value):
                        break
                else:
                    return handler
        return None

    def _check(self, state: State, player: Any, action: Any) -> Any:
        """``action``'s handler after every check (the shape, the turn, the phase, then
        ``check_action``); raises the first one that fails."""
        form = check_shape(action)
        kind = action["type"]
        if type(player) is not int or player not in self.to_act(state):
            if kind == "treasure" and type(player) is int and self.interrupts(state, player):
                raise IllegalAction("You hold no such treasure token, or that champion is not "
                                    "yours.", "T-67")  # fmt: skip
            raise NotYourTurn("It is not your turn to act.", "T-23")
        if state.get("phase") == champion_draft.PHASE and kind != "pick":
            raise IllegalAction("The champion draft comes first: pick a champion.", "T-76")
        if state["pending"] is not None and kind != "choose":
            raise IllegalAction("First make the choice the effect asks for.", "T-2")
        if state["cmd"] is not None and kind in _NOT_IN_COMMAND:
            raise IllegalAction("Finish the command first (done).", "T-37")
        handler = self._handlers.get(kind)
        if handler is None:
            raise IllegalAction(f"Unknown action {kind[:40]!r}.")
        # Only the offered actions of its type can equal it (the others are not made), and
        # of those only one equal to it by ``==`` too (the offered ones hold no floats,
        # tuples or other mappings): check_action compares those in their exact types, or,
        # if there are none, all of its type, so that a refusal says the same as ever.
        typed = self._legal(state, player, kind)
        offered = [a for a in typed if a == action] or typed
        check_action(self, state, player, action, None, form, offered)
        return handler  # e.g. an action sent as another kind of mapping

    def _do_pick(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        s["draft"] = champion_draft.pick(s["draft"], seat, action, events)  # T-77
        self._after_pick(s, events)

    def _after_pick(self, s: State, events: list[Event]) -> None:
        """Picks for seats that left the game (the first champion in the row), then, once
        every reserve is full, the champions to the reserves and the first turn (T-77)."""
        d = s["draft"]
        while not d["finished"] and champion_draft.to_pick(d) in s["out"]:
            seat = champion_draft.to_pick(d)
            d = champion_draft.pick(d, seat, {"type": "pick", "champion": d["row"][0]}, events)
        s["draft"] = d
        if not d["finished"]:
            return
        reserves = champion_draft.reserves(d)
        cards = list(s["cards"])  # the cards list is shared between states: a new one
        for seat in range(len(s["players"])):
            for cid in reserves.get(seat, []):
                cards.append(cid)
                for fig in self._new_figs(s["figs"], cid, seat, len(cards) - 1):
                    fig["gone"] = seat in s["out"]
        s["cards"] = cards
        s["phase"] = "play"
        first = modes.standing_sides(s)[0]  # gate order, skipping players who left (T-23)
        s["acting"] = modes.in_play(s, s["sides"][first])
        s["active"] = s["acting"][0]
        seats = range(len(s["players"]))
        events.append({"type": "draft_done", "reserves": [reserves.get(k, []) for k in seats]})

    def _do_gate(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        gate = self.info[p["gate"]]
        p["gate_used"] = True
        effects = list(gate.every_turn)
        if p["turns"] == 0:  # T-15, C-03: the first-turn bonus
            effects += list(gate.first_turn)
        for e in effects:
            p[e["op"]] += e["amount"]
        events.append({"type": "gate", "seat": seat, "runes": p["runes"], "power": p["power"]})

    def _do_play(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        iid = action["iid"]
        c = self.info[s["cards"][iid]]
        p["hand"].remove(iid)
        ev = {"type": "play", "seat": seat, "iid": iid, "card": c.id}
        if c.type == "construct":
            fig = s["figs"][action["fig"]]
            fig["equip"].append(iid)  # T-20
            ev["fig"] = fig["id"]
        else:
            p["played"].append(iid)  # T-28
        events.append(ev)
        src = action.get("fig")
        queue = [self._item(seat, a.effects, src, iid) for a in c.abilities_when("play")]
        # T-52 Devotion: this card's own, then the ones waiting for this faction (T-3)
        others = [self.info[s["cards"][i]].faction for i in p["played"] if i != iid] + p["factions"]
        for a in c.abilities_when("devotion"):
            if a.faction in others:
                queue.append(self._item(seat, a.effects, src, iid))
            else:
                p["devotion"].append([iid, a.faction])
        if c.faction is not None:
            still = []
            for wid, fac in p["devotion"]:
                if fac == c.faction and wid != iid:
                    wc = self.info[s["cards"][wid]]
                    for a in wc.abilities_when("devotion"):
                        if a.faction == fac:
                            queue.append(self._item(seat, a.effects, None, wid))
                else:
                    still.append([wid, fac])
            p["devotion"] = still
            if c.type == "construct":
                p["factions"].append(c.faction)
        s["todo"][:0] = queue

    def _item(self, seat: int, effects, fig: int | None, iid: int | None) -> dict:
        return {"seat": seat, "effects": [dict(e) for e in effects], "fig": fig, "iid": iid}

    def _do_acquire(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        if "iid" in action:
            iid = action["iid"]
            slot = s["row"].index(iid)
        else:
            iid = s["piles"][action["pile"]].pop()
            slot = None
        c = self.info[s["cards"][iid]]
        if c.type == "monster":
            p["power"] -= c.cost or 0  # T-30
        else:
            p["runes"] -= c.cost or 0  # T-29
        self._gain(s, seat, iid, slot, events)

    def _gain(self, s: State, seat: int, iid: int, slot: int | None, events: list[Event]) -> None:
        p = s["players"][seat]
        c = self.info[s["cards"][iid]]
        if slot is not None:
            s["row"][slot] = None
        if c.is_champion:
            self._new_figs(s["figs"], c.id, seat, iid)  # T-29: to the reserve
            where = "reserve"
        elif c.type == "construct" and p["on_top"]:
            p["deck"].append(iid)  # T-105: the top of the deck is the end of the list
            p["on_top"] = False
            where = "deck"
        else:
            p["discard"].append(iid)
            where = "discard"
        events.append({"type": "acquire", "seat": seat, "iid": iid, "card": c.id, "to": where})
        if slot is not None:
            self._refill(s, slot, events)  # T-31: before the Ambush
        ambush = c.abilities_when("ambush")
        if ambush:  # T-33: optional
            effects = [dict(e) for a in ambush for e in a.effects]
            s["todo"].insert(0, {"seat": seat, "ambush": effects, "iid": iid})

    def _refill(self, s: State, slot: int, events: list[Event]) -> None:
        if not s["center"] and s["banished"]:  # T-73
            s["center"] = s["banished"]
            s["banished"] = []
            shuffle(s["rng"], s["center"])
            events.append({"type": "center_reshuffle", "count": len(s["center"])})
        if s["center"]:
            iid = s["center"].pop()
            s["row"][slot] = iid
            events.append({"type": "row", "slot": slot, "iid": iid, "card": s["cards"][iid]})
        else:
            s["row"][slot] = None  # D-9

    def _do_command(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        fig = s["figs"][action["fig"]]
        p = s["players"][seat]
        p["power"] -= self.command_cost(fig)  # T-34
        self._start_command(s, fig, action.get("cell"), events)

    def _do_cultist(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        p["power"] -= self.cultist_card.command or 0
        fig = self._new_fig(s["figs"], self.cultist_card.id, seat, None)
        self._start_command(s, fig, action["cell"], events)

    def _start_command(self, s: State, fig: dict, cell: str | None, events: list[Event]) -> None:
        seat = fig["owner"]
        events.append({"type": "command", "seat": seat, "fig": fig["id"], "card": fig["card"]})
        if fig["cell"] is None:
            self._enter(s, fig, cell, events)  # T-35
        double = "double_attack" in self.keywords(s, fig)
        s["cmd"] = {"fig": fig["id"], "moved": False, "attacks": 2 if double else 1}
        fig["exhausted"] = True  # T-38 (it cannot be commanded again this turn)
        if any(self.can_command(s, f, seat) for f in self.siblings(s, fig)):
            s["cmd"]["then"] = True  # T-106: the other figure's command follows
        items = [self._item(seat, a.effects, fig["id"], fig["iid"])
                 for a in self.card_of(fig).abilities_when("command")]  # fmt: skip
        s["todo"][:0] = items

    def _enter(self, s: State, fig: dict, cell: str | None, events: list[Event]) -> None:
        fig["cell"] = cell
        fig["damage"] = 0
        events.append({"type": "enter", "seat": fig["owner"], "fig": fig["id"], "cell": cell})
        self._pick_treasure(s, fig, cell, events)  # T-67, D-10

    def _pick_treasure(self, s: State, fig: dict, cell: str, events: list[Event]) -> None:
        if villains.is_villain_fig(s, fig):
            return  # T-90: villains ignore treasure, it stays on the board
        kind = s["board_treasure"].pop(cell, None)
        if kind is not None:
            self.tokens(s, fig["owner"]).append(kind)
            events.append({"type": "treasure_taken", "seat": fig["owner"], "cell": cell})

    def _do_move(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        fig = s["figs"][s["cmd"]["fig"]]
        s["cmd"]["moved"] = True  # T-42
        self._move(s, fig, action["cell"], self.stat(s, fig, "speed"), events)

    def _move(self, s: State, fig: dict, dest: str, mp: int, events: list[Event]) -> None:
        seat = fig["owner"]
        bf = self.bf(s)
        start = pc(fig["cell"])
        path = terrain.path_to(
            bf,
            start,
            pc(dest),
            mp,
            enemies=self._enemies(s, seat),
            allies=self._side_cells(s, seat) - {start},  # T-41: teammates' too (T-79)
            seats=modes.side_seats(s, seat),  # T-43: a teammate's portal is no opponent's
        )
        if path is None:  # pragma: no cover - the offered cells are reachable
            raise IllegalAction("That cell is out of reach.", "T-39")
        fig["cell"] = dest
        events.append({"type": "move", "seat": seat, "fig": fig["id"],
                       "path": [ck(h) for h in path]})  # fmt: skip
        nbf = terrain.activate_portals(bf, path, seat)  # T-60
        nbf = terrain.capture_beacons(nbf, path, seat)  # T-65, D-10: into or through
        if nbf is not bf:
            self._set_bf(s, nbf)
        dmg = villains.corruption(s, fig, bf, path)  # T-62
        if dmg:
            self._damage(s, [(fig, dmg)], events)
        if fig["cell"] is not None:
            self._pick_treasure(s, fig, dest, events)  # T-67

    def _do_attack(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        fig = s["figs"][s["cmd"]["fig"]]
        s["cmd"]["attacks"] -= 1
        by_cell = {f["cell"]: f for f in self.enemies_on_board(s, seat)}
        if "area_attack" in self.keywords(s, fig):  # T-56: every enemy it could attack
            targets = [by_cell[c] for c in self._targets(s, fig)]
        else:
            targets = [by_cell[action["cell"]]]
        strength = self.stat(s, fig, "strength")
        hits = [(t, strength) for t in targets]
        back = 0
        attacked = []
        bf = self.bf(s)
        for t in targets:
            if "counter_strike" in self.keywords(s, t) and terrain.counter_strike_reaches(
                bf,
                pc(t["cell"]),
                pc(fig["cell"]),
                defender_ranged="ranged" in self.keywords(s, t),
                defender_enemies=self._enemies(s, t["owner"]),  # T-70: the defender's side
            ):  # T-55
                back += self.stat(s, t, "strength")
            for a in self.card_of(t).abilities_when("attacked"):
                for e in a.effects:
                    if e["op"] == "damage" and e.get("target") == "attacker":
                        back += e["amount"]
                    else:
                        attacked.append(self._item(t["owner"], [e], t["id"], t["iid"]))
        events.append({"type": "attack", "seat": seat, "fig": fig["id"],
                       "targets": [t["id"] for t in targets]})  # fmt: skip
        if back:
            hits.append((fig, back))
        slaughter_effects = [
            e for a in self.card_of(fig).abilities_when("slaughter") for e in a.effects
        ] + [
            e
            for iid in self.equipped(s, fig)
            for a in self.info[s["cards"][iid]].abilities_when("slaughter")
            for e in a.effects
        ]
        defeated = self._damage(s, hits, events)  # simultaneous (T-55, T-56)
        kills = [t for t in targets if t["id"] in defeated]
        for _ in kills:  # T-57, C-45: even if the attacker fell at the same moment
            if slaughter_effects:
                s["todo"].append(self._item(seat, slaughter_effects, fig["id"], fig["iid"]))
        s["todo"].extend(attacked)

    def _damage(self, s: State, hits: list, events: list[Event]) -> set[int]:
        """Deal damage at once, then defeat every champion with damage >= DEF (T-46)."""
        for fig, amount in hits:
            if fig["cell"] is None:
                continue  # T-49
            fig["damage"] += amount
            events.append({"type": "damage", "fig": fig["id"], "amount": amount})
        out = set()
        for fig, _ in hits:
            if fig["cell"] is not None and fig["damage"] >= self.stat(s, fig, "defence"):
                self._defeat(s, fig, events)
                out.add(fig["id"])
        return out

    def _defeat(self, s: State, fig: dict, events: list[Event]) -> None:
        """T-47: off the battlefield, its constructs destroyed, its card exhausted."""
        if villains.is_villain_fig(s, fig):
            return villains.defeat(self, s, fig, events)  # T-90, T-92, T-94
        owner = s["players"][fig["owner"]]
        events.append({"type": "defeat", "fig": fig["id"], "seat": fig["owner"]})
        fig["cell"] = None
        fig["damage"] = 0
        fig["exhausted"] = True
        keeper = [f for f in self.siblings(s, fig) if f["cell"] is not None]
        if keeper:  # T-106 (decision 0055): the card's constructs stay while a figure stands
            keeper[0]["equip"].extend(fig["equip"])
        else:
            owner["discard"].extend(fig["equip"])  # T-74
        fig["equip"] = []
        if self.is_cultist(fig):
            fig["gone"] = True

    def _do_done(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        events.append({"type": "command_done", "seat": seat, "fig": s["cmd"]["fig"]})
        self._then(s)
        s["cmd"] = None

    def _check_command(self, s: State, events: list[Event] | None = None) -> None:
        cmd = s["cmd"]
        if cmd is not None and s["figs"][cmd["fig"]]["cell"] is None:
            if events is not None:
                self._then(s)
            s["cmd"] = None  # the champion fell mid-command
            if events is not None and s["todo"] and s["pending"] is None:
                self._run(s, events)

    def _then(self, s: State) -> None:
        """T-106: a champion of two figures is commanded one figure after the other, for
        one command cost: the second figure's command (entering by a free portal if it is
        off the battlefield) follows the first's."""
        cmd = s["cmd"]
        if cmd is None or not cmd.get("then"):
            return
        fig = s["figs"][cmd["fig"]]
        cost = self.command_cost(fig)
        effect = {"op": "command", "target": "sibling", "discount": cost}
        s["todo"].append(self._item(fig["owner"], [effect], fig["id"], fig["iid"]))

    def _do_treasure(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        kind = self.tokens(s, seat).pop(action["i"])
        fig = s["figs"][action["fig"]]
        t = self.treasures[kind]
        for stat, amount in t.boosts:
            fig["boost"][stat] += amount
        if t.grant:
            fig["grants"].append(t.grant)
        s["treasure_discard"].append(kind)
        events.append({"type": "treasure_used", "seat": seat, "fig": fig["id"], "kind": kind,
                       "boosts": dict(t.boosts), "grant": t.grant})  # fmt: skip

    def _do_end_turn(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        acting = s.get("acting")
        if acting is not None and len(acting) > 1:  # D-14: a teammate still acts
            acting.remove(seat)
            events.append({"type": "pass", "seat": seat})
            return
        self._end_side_turn(s, seat, events)

    def _end_side_turn(self, s: State, seat: int, events: list[Event]) -> None:
        """T-24 for the side whose turn it is: steps 1-3 for each of its players, step 4
        once for the side (D-14, T-79), then D-6 and the next side's turn."""
        if villains.is_villain_seat(s, seat):
            return villains.end_villain_turn(self, s, events)  # T-86, T-99
        k = modes.side_index(s, seat)
        members = modes.in_play(s, s["sides"][k]) or [seat]
        for m in members:
            p = s["players"][m]
            # T-24 step 1
            p["discard"].extend(p["played"])
            p["discard"].extend(p["hand"])
            p["played"], p["hand"] = [], []
            p["runes"] = p["power"] = 0
            self._draw(s, m, HAND_SIZE, events)  # step 2
            for f in s["figs"]:  # step 3
                if f["owner"] == m and not f["gone"]:
                    f["exhausted"] = False
        # step 4: shrines (T-64), counted by side (T-79, C-58)
        positions = {pc(f["cell"]): modes.side_of(s, f["owner"]) for f in self.on_board(s)}
        control = terrain.shrine_control(self.bf(s), positions)
        mine = modes.side_of(s, seat)
        n = sum(1 for side in control.values() if side == mine)
        if n:
            self._glory(s, seat, n * s["shrine_glory"], events)
        beacons = [c for c, kind in s["terrain"].items() if kind == "beacon"]
        if s.get("beacon_glory") and beacons and not s["finished"]:  # T-65: the scenario's
            held = [s["owner"].get(c) for c in beacons]
            if all(o is not None and modes.side_of(s, o) == mine for o in held):
                self._glory(s, seat, s["beacon_glory"], events)
        if s["finished"]:
            return
        # D-6: cleanup
        for f in s["figs"]:
            f["damage"] = 0
            f["boost"] = {"strength": 0, "defence": 0, "speed": 0}
            f["grants"] = []
        for m in members:
            p = s["players"][m]
            p["gate_used"] = False
            p["factions"], p["devotion"] = [], []
            p["on_top"] = False
            p["turns"] += 1
            events.append({"type": "end_turn", "seat": m})
        self._next_side(s, k, events)

    def _next_side(self, s: State, k: int, events: list[Event]) -> None:
        """The turn passes to the next side in gate order that still has a player (T-23,
        T-80); a new round starts when it comes back to the first side."""
        standing = modes.standing_sides(s)
        nk = next((j for j in standing if j > k), standing[0])
        if nk <= k:
            s["round"] += 1
            if s["round"] > s["max_rounds"]:
                leaders = modes.limit_winners(s)  # a free-for-all: placed by glory (T-80)
                s["finished"] = True
                s["draw"] = not leaders
                s["winners"] = leaders
                s["acting"] = []
                events.append({"type": "game_over", "winners": leaders, "draw": not leaders})
                return
        members = modes.in_play(s, s["sides"][nk])
        s["active"] = members[0]
        s["acting"] = list(members)
        self._turn_start(s, members[0], events)

    def _turn_start(self, s: State, seat: int, events: list[Event]) -> None:
        bf = self.bf(s)
        hits = []
        corrupted = terrain.Terrain.CORRUPTED
        for f in self.on_board(s):  # T-62, D-12: every champion, every turn
            # terrain.turn_start_corruption of the one cell: whether it is corrupted land
            if bf.terrain.get(pc(f["cell"])) is corrupted and villains.harmed(s, f):
                hits.append((f, terrain.CORRUPTION_DAMAGE))
        if hits:
            self._damage(s, hits, events)
        side = modes.side_seats(s, seat)
        for f in s["figs"]:
            if f["owner"] in side and not f["gone"]:
                for a in self.card_of(f).abilities_when("turn_start"):
                    s["todo"].append(self._item(f["owner"], a.effects, f["id"], f["iid"]))
        villains.turn_started(self, s, seat, events)  # the villains' turn (T-86)

    def _draw(self, s: State, seat: int, count: int, events: list[Event]) -> int:
        p = s["players"][seat]
        drawn = 0
        for _ in range(count):
            if not p["deck"]:
                if not p["discard"]:
                    break
                p["deck"] = p["discard"]  # T-27: played heroes stay out
                p["discard"] = []
                shuffle(s["rng"], p["deck"])
                events.append({"type": "reshuffle", "seat": seat, "count": len(p["deck"])})
            p["hand"].append(p["deck"].pop())
            drawn += 1
        events.append({"type": "draw", "seat": seat, "count": drawn})
        return drawn

    def _glory(self, s: State, seat: int, amount: int, events: list[Event]) -> None:
        p = s["players"][seat]
        side = modes.side_seats(s, seat)
        for m in side:  # T-79: a team's glory is one total
            s["players"][m]["glory"] += amount
        events.append({"type": "glory", "seat": seat, "amount": amount, "total": p["glory"]})
        if p["glory"] >= s["victory"].get("glory", 30) and not s["finished"]:  # T-25
            self._finish(s, modes.in_play(s, side) or [seat], events)  # T-79: together

    def _finish(self, s: State, winners: list[int], events: list[Event]) -> None:
        s["finished"] = True
        s["winners"] = winners
        s["pending"] = None
        s["cmd"] = None
        s["todo"] = []
        events.append({"type": "game_over", "winners": winners, "draw": False})

    # -- effects ----------------------------------------------------------------------

    def _run(self, s: State, events: list[Event]) -> None:
        """Resolve queued effects until one needs a choice (a ``pending``) or none is left."""
        while s["todo"] and s["pending"] is None and not s["finished"]:
            item = s["todo"][0]
            if "ambush" in item:
                s["todo"].pop(0)
                s["pending"] = {"player": item["seat"], "kind": "ambush", "optional": True,
                                "options": [{"do": True}], "effects": item["ambush"]}  # fmt: skip
                continue
            if not item["effects"]:
                s["todo"].pop(0)
                continue
            effect = item["effects"].pop(0)
            self._op(s, item, effect, events)

    def _choice(self, s, item, effect, kind, options, optional=False) -> None:
        if not options:
            return  # T-4: as far as possible
        s["pending"] = {"player": item["seat"], "kind": kind, "optional": optional,
                        "options": options, "effect": effect, "fig": item.get("fig")}  # fmt: skip

    def _op(self, s: State, item: dict, e: dict, events: list[Event]) -> None:
        seat = item["seat"]
        p = s["players"][seat]
        op = e["op"]
        if op in ("runes", "power"):
            p[op] += e["amount"]
        elif op == "glory":
            self._glory(s, seat, e["amount"], events)
        elif op == "draw":
            self._draw(s, seat, e["count"], events)
        elif op == "construct_on_top":
            p["on_top"] = True
        elif op == "banish":
            src = e["from"]
            opts = []
            if src in ("hand", "hand_or_discard"):
                opts += [{"zone": "hand", "iid": i} for i in p["hand"]]  # T-72
            if src in ("discard", "hand_or_discard"):
                opts += [{"zone": "discard", "iid": i} for i in p["discard"]]
            if src == "row":
                opts += [{"zone": "row", "iid": i} for i in s["row"] if i is not None]
            self._choice(s, item, e, "banish", opts, bool(e.get("optional")))
        elif op == "acquire":
            want = e["type"]
            opts = []
            cands = [(i, "row") for i in s["row"] if i is not None]
            if want in ("card", "hero"):
                cands += [(pile[-1], "pile") for pile in s["piles"].values() if pile]
            for i, where in cands:
                c = self.info[s["cards"][i]]
                ok = (
                    c.type == want
                    or (want == "card" and c.type != "monster")
                    or (want == "champion" and c.type == "champion")
                )
                if ok and (c.cost or 0) <= e["max_cost"]:
                    opts.append({"zone": where, "iid": i})
            self._choice(s, item, e, "acquire", opts, False)
        elif op == "command":
            discount = e.get("discount") or 0
            opts = []
            for f in self._figs_for(s, item, e["target"]):
                if not self.can_command(s, f, seat):
                    continue
                if max(0, self.command_cost(f) - discount) > p["power"]:  # T-103
                    continue
                if f["cell"] is None and not self.free_portals(s, seat):
                    continue
                opts.append({"fig": f["id"]})
            self._choice(s, item, e, "command", opts, False)
        elif op == "enter":
            opts = []
            if self.free_portals(s, seat):
                opts = [{"fig": f["id"]} for f in self._figs_for(s, item, "own_reserve")]
            self._choice(s, item, e, "enter", opts, False)
        elif op == "move":
            opts = []
            for f in self._figs_for(s, item, e["target"]):
                if f["cell"] is not None:
                    opts += [{"fig": f["id"], "cell": c} for c in self._moves(s, f, e["steps"])]
            self._choice(s, item, e, "move", opts, True)
        elif op == "damage":
            figs = self._figs_for(s, item, e["target"])
            if e["target"] in ("all_adjacent_enemies", "attacker"):
                self._damage(s, [(f, e["amount"]) for f in figs], events)
            else:
                self._choice(s, item, e, "damage", [{"fig": f["id"]} for f in figs], False)
        elif op == "destroy":
            opts = [
                {"fig": f["id"], "iid": i}
                for f in self.enemies_on_board(s, seat)
                for i in f["equip"]
            ]
            self._choice(s, item, e, "destroy", opts, False)
        elif op == "treasure":
            self._treasure_from_bag(s, seat, e["mode"], events)
        elif op in ("boost", "grant"):
            figs = self._figs_for(s, item, e["target"])
            if e["target"] in ("self", "equipped", "all_own_board"):
                for f in figs:
                    self._boost(f, e)
            else:
                self._choice(s, item, e, op, [{"fig": f["id"]} for f in figs], False)
        elif op == "terrain":
            bf = self.bf(s)
            opts = [{"cell": ck(h)} for h in sorted(bf.cells) if terrain.can_place_terrain(bf, h)]
            self._choice(s, item, e, "terrain", opts, False)
        else:
            events.append({"type": "skipped_effect", "op": op})  # villain ops: other modes

    def _boost(self, f: dict, e: dict) -> None:
        if e["op"] == "boost":
            f["boost"][e["stat"]] += e["amount"]  # T-6: until the end of the turn
        elif e["keyword"] not in f["grants"]:
            f["grants"].append(e["keyword"])

    def _figs_for(self, s: State, item: dict, target: str) -> list[dict]:
        seat = item["seat"]
        own = [f for f in s["figs"] if f["owner"] == seat and not f["gone"]]
        me = s["figs"][item["fig"]] if item.get("fig") is not None else None
        enemies = self.enemies_on_board(s, seat)
        if target in ("self", "equipped"):
            return [me] if me is not None else []
        if target == "sibling":  # T-106
            return self.siblings(s, me) if me is not None else []
        if target == "own":
            return own
        if target in ("own_board", "all_own_board"):
            return [f for f in own if f["cell"] is not None]
        if target == "own_reserve":
            return [f for f in own if f["cell"] is None and not self.is_cultist(f)]
        if target == "cultist":
            return [f for f in own if self.is_cultist(f)]
        if target == "enemy":
            return enemies
        if target in ("adjacent_enemy", "all_adjacent_enemies"):
            if me is None or me["cell"] is None:
                return []
            return [f for f in enemies if hexes.adjacent(pc(f["cell"]), pc(me["cell"]))]
        if target == "attacker":
            cmd = s["cmd"]
            return [s["figs"][cmd["fig"]]] if cmd and s["figs"][cmd["fig"]]["cell"] else []
        return []

    def _treasure_from_bag(self, s: State, seat: int, mode: str, events: list[Event]) -> None:
        if not s["bag"]:
            s["bag"] = s["treasure_discard"]  # T-67: refill with the discarded ones
            s["treasure_discard"] = []
        if not s["bag"]:
            return
        kind = s["bag"].pop(randbelow(s["rng"], len(s["bag"])))
        if mode == "gain":
            self.tokens(s, seat).append(kind)
            events.append({"type": "treasure_gained", "seat": seat})
        else:
            s["treasure_discard"].append(kind)
            events.append({"type": "treasure_revealed", "seat": seat, "kind": kind})

    def _do_choose(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        if villains.is_villain_choice(s["pending"]):
            return villains.do_choose(self, s, seat, action, events)
        pend = s["pending"]
        s["pending"] = None
        i = action["i"]
        if i is None:
            events.append({"type": "decline", "seat": seat, "kind": pend["kind"]})
            return
        opt = pend["options"][i]
        kind = pend["kind"]
        p = s["players"][seat]
        if kind == "ambush":
            s["todo"].insert(0, {"seat": seat, "effects": pend["effects"], "fig": None,
                                 "iid": None})  # fmt: skip
        elif kind == "banish":
            self._banish(s, seat, opt["zone"], opt["iid"], events)
        elif kind == "acquire":
            iid = opt["iid"]
            if opt["zone"] == "row":
                self._gain(s, seat, iid, s["row"].index(iid), events)
            else:
                s["piles"][s["cards"][iid]].remove(iid)
                self._gain(s, seat, iid, None, events)
        elif kind == "command":
            fig = s["figs"][opt["fig"]]
            p["power"] -= max(0, self.command_cost(fig) - (pend["effect"].get("discount") or 0))
            cell = None if fig["cell"] else self.free_portals(s, seat)[0]
            self._start_command(s, fig, cell, events)
        elif kind == "enter":
            fig = s["figs"][opt["fig"]]
            self._enter(s, fig, self.free_portals(s, seat)[0], events)
        elif kind == "move":
            fig = s["figs"][opt["fig"]]
            self._move(s, fig, opt["cell"], pend["effect"]["steps"], events)
        elif kind == "damage":
            self._damage(s, [(s["figs"][opt["fig"]], pend["effect"]["amount"])], events)
        elif kind == "destroy":
            fig = s["figs"][opt["fig"]]
            fig["equip"].remove(opt["iid"])
            s["players"][fig["owner"]]["discard"].append(opt["iid"])  # T-74
            events.append({"type": "destroy", "fig": fig["id"], "iid": opt["iid"],
                           "card": s["cards"][opt["iid"]]})  # fmt: skip
            if fig["damage"] >= self.stat(s, fig, "defence"):  # T-48, D-7
                self._defeat(s, fig, events)
        elif kind in ("boost", "grant"):
            self._boost(s["figs"][opt["fig"]], pend["effect"])
        elif kind == "terrain":
            bf = terrain.place_terrain(self.bf(s), pc(opt["cell"]), pend["effect"]["terrain"])
            self._set_bf(s, bf)
            events.append({"type": "terrain", "cell": opt["cell"],
                           "terrain": pend["effect"]["terrain"]})  # fmt: skip

    def _banish(self, s: State, seat: int, zone: str, iid: int, events: list[Event]) -> None:
        p = s["players"][seat]
        c = self.info[s["cards"][iid]]
        if zone == "row":
            slot = s["row"].index(iid)
            s["row"][slot] = None
        else:
            p[zone].remove(iid)
        if c.pile == "starter":  # T-71
            s["box"].append(iid)
        elif c.pile == "always":
            s["piles"][c.id].append(iid)
        else:
            s["banished"].append(iid)
        events.append({"type": "banish", "seat": seat, "iid": iid, "card": c.id, "from": zone})
        if zone == "row":
            self._refill(s, slot, events)

    _handlers = {
        "play": _do_play,
        "gate": _do_gate,
        "acquire": _do_acquire,
        "command": _do_command,
        "cultist": _do_cultist,
        "move": _do_move,
        "attack": _do_attack,
        "done": _do_done,
        "treasure": _do_treasure,
        "end_turn": _do_end_turn,
        "choose": _do_choose,
        "pick": _do_pick,
        "scheme": villains.do_scheme,  # T-99
    }

    # -- leaving, result, view -----------------------------------------------------------

    def leave(self, state: State, player: int, reason: str) -> tuple[State, list[Event]]:
        """The player leaves: out of the game, their champions off the battlefield. A duel
        ends; in free-for-all and 2 vs 2 the others play on until one side is left, which
        wins (T-80: one winner; T-79: a team wins together)."""
        if state["finished"]:
            raise IllegalAction("The game is over.", "T-25")
        if state.get("villain") is not None:
            return villains.leave(self, state, player, reason)
        if type(player) is not int or not 0 <= player < len(state["players"]):
            raise IllegalAction("There is no such player in this game.")
        if player in state["out"]:
            raise IllegalAction("This player has left the game already.")
        s = _copy(state)
        s["out"].append(player)
        events: list[Event] = [{"type": "left", "seat": player, "reason": reason}]
        for f in s["figs"]:
            if f["owner"] == player and not f["gone"]:
                f["cell"] = None
                f["gone"] = True
        standing = modes.standing_sides(s)
        if len(standing) == 1:
            self._finish(s, modes.in_play(s, s["sides"][standing[0]]), events)
            s["log"] += 1
            return s, events
        if s["pending"] is not None and s["pending"]["player"] == player:
            s["pending"] = None
        s["todo"] = [item for item in s["todo"] if item["seat"] != player]
        self._check_command(s)
        if s.get("phase") == champion_draft.PHASE:
            self._after_pick(s, events)
        elif player in s["acting"]:
            s["acting"].remove(player)
            k = modes.side_index(s, player)
            if not s["acting"] and modes.in_play(s, s["sides"][k]):
                self._end_side_turn(s, modes.in_play(s, s["sides"][k])[0], events)  # D-14
            elif not s["acting"]:
                self._next_side(s, k, events)
            elif s["active"] == player:
                s["active"] = s["acting"][0]
        self._run(s, events)
        self._check_command(s)
        s["log"] += 1
        return s, events

    def result(self, state: State) -> GameResult:
        scores = {p["seat"]: p["glory"] for p in state["players"] if villains.is_seat(state, p)}
        if not state["finished"]:
            return GameResult(finished=False, scores=scores)
        return GameResult(
            finished=True,
            winners=tuple(state["winners"]),
            draw=state["draw"],
            eliminated=tuple(state["out"]),
            scores=scores,
        )

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator). Hidden (D-21): decks (counts), the
        other player's hand and treasure tokens (counts), the central deck and the bag
        (counts), the faces of the treasure tokens on the battlefield (cells only)."""
        cards = state["cards"]

        def open_(iids):
            return [{"iid": i, "card": cards[i]} for i in iids]

        players = []
        for p in state["players"]:
            mine = p["seat"] == player
            # T-79: a team's treasure is shared (held by its first seat): teammates see it
            team = (
                state.get("mode") == "teams"
                and type(player) is int
                and 0 <= player < len(state["players"])
                and modes.side_of(state, player) == p.get("side")
            )
            players.append(
                {
                    "seat": p["seat"],
                    "gate": p["gate"],
                    "hand": open_(p["hand"]) if mine else len(p["hand"]),
                    "hand_count": len(p["hand"]),
                    "deck": len(p["deck"]),
                    "discard": open_(p["discard"]),
                    "played": open_(p["played"]),
                    "runes": p["runes"],
                    "power": p["power"],
                    "glory": p["glory"],
                    "gate_used": p["gate_used"],
                    "turns": p["turns"],
                    "treasure": list(p["treasure"]) if mine or team else len(p["treasure"]),
                    "side": p.get("side", p["seat"]),
                    "position": p["gate_no"],
                }
            )
        figs = [
            {
                **{k: v for k, v in f.items() if k not in ("boost", "equip", "grants")},
                "equip": open_(f["equip"]),
                "boost": dict(f["boost"]),
                "grants": list(f["grants"]),
            }
            for f in state["figs"]
            if not f["gone"]
        ]
        pending = state["pending"]
        if pending is not None:
            if pending["player"] == player:
                pending = _clone(pending)
            else:
                pending = {"player": pending["player"], "kind": pending["kind"]}
        return {
            "you": player,
            "scenario": state["scenario"],
            "first": state["first"],
            "active": state["active"],
            "round": state["round"],
            "max_rounds": state["max_rounds"],
            "to_act": list(self.to_act(state)),
            "finished": state["finished"],
            "winners": list(state["winners"]),
            "draw": state["draw"],
            "out": list(state["out"]),
            "row": [None if i is None else {"iid": i, "card": cards[i]} for i in state["row"]],
            "center": len(state["center"]),
            "banished": open_(state["banished"]),
            "box": open_(state["box"]),
            "piles": {cid: len(pile) for cid, pile in state["piles"].items()},
            "terrain": dict(state["terrain"]),
            "owner": dict(state["owner"]),
            "treasure_cells": sorted(state["board_treasure"]),
            "bag": len(state["bag"]),
            "treasure_discard": list(state["treasure_discard"]),
            "figs": figs,
            "cmd": _clone(state["cmd"]),
            "players": players,
            "pending": pending,
            "mode": state.get("mode", MODE),
            "sides": [list(side) for side in state.get("sides", ())],
            "phase": state.get("phase", "play"),
            "draft": champion_draft.view(state.get("draft")),
            "villains": villains.view(state, player),  # None outside the villain modes
        }


SYSTEM = Tactics()
