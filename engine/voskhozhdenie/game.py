"""The rules engine of «Восхождение» (Voskhozhdenie): a GameSystem over plain JSON data.

Rule numbers below are those of ``/work/shared/rules/voskhozhdenie.md`` (the corrected
English digest); "AMB-nn" are its recommended decisions, all adopted unless noted under
*Deviations*.

State layout
============

A state is one ``dict`` of JSON data only (dicts with ``str`` keys, lists, str, int,
bool, None), so ``json.loads(json.dumps(state)) == state``::

    v             format version (1)
    n             number of players; seats are 0..n-1 in the order of ``decks``
    teams         list of teams (lists of seats); a team's list order is the order the
                  team chose for its own turns (5.3.1). Without allies: one seat each.
    dice          [count, sides] of the Initiative roll (5.3, default 1d20)
    options       rule flags for the alternatives of AMB-01/17/18/26 (DEFAULT_OPTIONS)
    players       one dict per seat: seat, team, coins, supply (the base Supply value of
                  5.5; statics may add to it), eliminated, mulligans, passed, and the
                  individual zones as lists of instance ids (1.4.5):
                  main (ordered, index 0 = top, hidden), hand (private),
                  reinforcement, graveyard, oblivion (open); "looked" (only once a
                  "look_at_top" effect made them look): the Main Deck cards they last
                  looked at, top first, shown in their own view only while still in the
                  Main Deck (forgotten when that deck is shuffled)
    cards         every card instance, indexed by its instance id ``iid``:
                  {iid, card (card id), owner, zone, strength (current Strength of a
                  City/Fortification, printed Strength otherwise, None without Strength),
                  wounded, ruined, entered (round it entered the Battlefield),
                  tactic (id of the Tactic it is assigned to), side ("attack"/"defence")}
    battlefield   the shared open zone (1.4.5.7): instance ids
    queue         the shared ordered open zone (1.4.5.8): objects, head first:
                  {"kind": "card", "iid", "controller", "x", "defender"} or
                  {"kind": "ability", "source", "ab" (ability index on the card),
                   "controller", "ctx"}; an Order being carried out stays at the head
                  with "resolving": true until its effects are done (6.4.3)
    gone          instances that left the game (Minor components 2.1.5.3, the cards of
                  eliminated players 1.3.8 / AMB-33): a pseudo-zone, so every instance is
                  always in exactly one list
    tactics       Tactics in play, in the order they were played (5.6.4):
                  {id, iid (None for a Direct Attack, AMB-03), declarer, defender
                  (None for a Battle, AMB-22), battle, ready (resolved onto the
                  Battlefield), attack: [iids], defence: [iids]}
    next_id       the next id for Tactics and pending decisions
    tr            progress of Tactic Resolution: {"tactic": id, "sub": step, "result"}
    replacing     (only while one runs) replacement abilities applied to the current
                  event, so each applies at most once (AMB-31)
    initiative    the Initiative rolls (5.3): one list of [seat, total] per roll-off
    stage         "initiative" | "mulligan" | "pregame" | "rounds" | "over"
    round, step   the round number and the current step (see *Flow*)
    idx, flag     progress pointers inside the current step
    turn_order    seats in turn order (5.3); first = turn_order[0]
    active        the seat whose turn it is (Actions phase)
    pending       the decision the engine waits for, or None:
                  {id, player, kind, options, ...}; kinds: first_player, mulligan,
                  discard_down, decree, tactic, choose (an effect's choice), order
                  (6.3.14: the order of one player's simultaneous triggers),
                  replacement (AMB-31: which of several replacements applies; "event",
                  "iid", "event_player", "replacements": [{source, ability}])
    frames        the effect interpreter's stack: [{"ops": [...], "ctx": {...}}];
                  the top frame runs first (a replacement ability pushes a frame, 6.3.12)
    waiting       triggered abilities that triggered and are not yet queued
    temp          effects of dynamic ops that last "until end of turn/round"
                  (modify_strength, grant_keyword): {kind, amount|keyword, iids,
                  duration, controller}
    used          activated-ability limits and Decrees issued this phase
    trig, stat, repl  instance ids whose cards have triggered / static / replacement
                  abilities (speeds up scans)
    rng           the seeded generator (engine.core.rng); never shown in a view
    log           how many actions were applied
    elim          eliminated seats in order; winners, draw, finished: the result
    idle          only with the event rule ``config["idle_rounds"]``: {limit, count (Rounds
                  in a row in which everyone only passed), acted (someone did more this
                  Round)}; at the limit the game is a draw
    round_limit   only with the event rule ``config["round_limit"]``: the game is a draw
                  at the end of that Round if nobody has won by then

Flow
====

``_Game.advance`` runs the game until a player must decide. In every iteration it first
queues waiting triggers (6.3.13 turn order from the active player, or the first player
outside turns, AMB-27; 6.3.14 the owner's order as a decision), then runs the top
interpreter frame, then resolves the head of the Queue (6.5.2, AMB-30), and only when all
three are empty does it move the game on (5.7). The steps are:

    initiative -> pending first_player -> mulligan (pending per player, turn order) ->
    pregame (game_start triggers, then Supply values, 5.5) -> rounds:
    draw -> coin -> round_start -> decree -> turn_start -> action (the active player
    acts) -> turn_end -> ... -> tactics (5.6.4 sub-steps choose/outcome/others/cleanup)
    -> round_end -> draw ...

``apply`` copies the state (``copy_state``: a structural copy of every mutable part,
about 8x faster than a deep copy; the ability ops shared with the card cache are never
mutated), validates the action against the rules on the copy (IllegalAction with the rule
number and a message for the player), performs it and advances. The input state is never
mutated (a property test checks this after every action).

Performance: ``_Game`` caches the cards that lost their abilities, the filtered static ops
and the available Decrees, keyed by a version counter that every mutation bumps. The table
of static abilities in force is keyed by the sources in force (on the Battlefield, not
wounded Squads) and shared between states (``Voskhozhdenie._stat_memo``); the index of
triggered abilities by event is kept per "trig" list object, which is copy-on-write like
"stat" and "repl" (``new_instance`` replaces them), so copies share them. Card instance
dicts are copy-on-write too (``_Game.mut``). ``legal_actions`` in the Actions phase checks
each card and Squad once (``action_phase_actions``, the same checks as ``validate``, which
a test compares); read-only rules objects (legal actions, bots, views) memoise Strength,
and the heuristic bot reuses the one that listed its legal actions, and keep the static
ops by name once computed. Filters are prepared once per filter dict (``_Filter``: zone
and owner words, and the verdict of the card-level keys by card id), ``matching`` checks
zone, owner and card keys inline over the zone, counts stop once a condition holds, and
pending answers that are legal as built are listed without validating each. The
recorded games of ``tests/engine/voskhozhdenie/fingerprints.json`` replay identically
through these (states, events, legal actions and views). Simultaneous eliminations: the elimination check waits until the
current effect op is carried out, so one effect that ruins the last Cities of several
players eliminates them together (AMB-34: possibly a draw).

Decisions and deviations
========================

* Adopted as recommended: AMB-01 (mulligan to the bottom, then draw), AMB-02, AMB-03,
  AMB-13, AMB-14, AMB-15, AMB-16, AMB-17 (coins persist), AMB-18 (Supply fixed after
  5.5; "supply" statics add to it), AMB-19 (X chosen on play; Supply-symbol costs paid in
  coins), AMB-20, AMB-21, AMB-22 (conservative), AMB-23, AMB-24, AMB-25, AMB-26,
  AMB-27, AMB-28 (Strength statics on the Battlefield only), AMB-29 (literal: only the
  Main Deck is hidden), AMB-30, AMB-31, AMB-32, AMB-33, AMB-34, AMB-35, AMB-36,
  AMB-37 (a Direct Attack's wound targets are those of any Confrontation), AMB-39 (the
  Draw step of round 1 applies normally: draw 1 or discard down from the 5-card hand),
  AMB-40.
* Static abilities come from cards on the Battlefield only (the rules do not say where a
  static ability's source must be; cards in hand granting global statics would be odd).
* Activated abilities can be activated from the Battlefield only, as the turn's action
  (5.6.3.2.5). The "exile_from_graveyard" cost exiles the oldest cards of the Graveyard
  (no choice is offered) and a Confrontation played by ``play_free`` is declared against
  the first opponent in turn order.
* A team's internal order (5.3.1) is the order of its list in ``config["teams"]``,
  rotated so that the chosen first player leads their team.
* 6.2.1.1.5 is approximated: two "lose_abilities" statics whose sources remove each
  other's abilities are both ignored; other dependency chains are applied in one pass.
  Only the stages the effect language can express are modelled: abilities (stage 4:
  "lose_abilities", "keyword"), Strength (7), cost (8) and prohibitions ("cannot").
* Replacement abilities (6.3.11) can replace these events: wounded, healed, drawn,
  discarded, destroyed (a lethal wound or the "destroy" op; not the costs
  "destroy_self"/"sacrifice"). Other events in a "replaces" never match.
  When several replacements match one event, the owner of the affected object (the
  player, for a draw) chooses which one is carried out (AMB-31): a pending
  "replacement" decision, answered like "choose" with one pick. The event is prevented
  at once; the chosen replacement's effects run next (6.3.12), and the others do not
  apply to it (each applies at most once to one event). The choice is asked once the
  effect op that caused the event is carried out, like a single replacement's effects.
* The AMB-22 alternative (Battles against all opponents) is not offered as an option;
  AMB-01's "shuffle back", AMB-17's "reset coins", AMB-18's "recompute Supply" and
  AMB-26's "consecutive passes" are (``config["options"]``, DEFAULT_OPTIONS).
* A Tactic card that leaves the Battlefield before it resolves leaves play: its Squads are
  removed from it and it is not resolved (inferred).
* Rule 1.4.3 (components in several zones at once) never arises: no op of the effect
  language puts a component in two zones, and every instance is in exactly one zone list.
  AMB-38 (``owners`` as a set) is therefore not followed: each instance has one ``owner``
  seat, and every move into an individual zone uses the owner's zone (``move``), so a set
  would always hold that one seat (1.4.3.2 never adds an owner). Visibility follows the
  one zone (views.py); the nearest cases to 1.4.3.3 and 1.4.3.4 are a card leaving the
  hidden Main Deck for an open zone (seen by all at once) and "look_at_top" (the cards
  stay in the hidden Main Deck and are shown to the looking player only). Tests
  CK-053..CK-055 in ``tests/engine/voskhozhdenie/test_zones.py`` assert exactly this. An
  effect that moves a card into another player's zone, or shares a card, would need the
  set (and a new fingerprint record).
* The "choose" selector asks for all picks at once (``{"type": "choose", "choice_id",
  "picks": [...]}``); ``legal_actions`` lists at most MAX_COMBOS combinations of them.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import rng
from engine.core.errors import EngineBug, IllegalAction, InvalidConfig, NotYourTurn
from engine.core.legality import ActionSchema, Int, ListOf, Nullable, check_action, check_shape
from engine.core.protocol import Action, Event, GameResult, State
from engine.voskhozhdenie import effects as fx
from engine.voskhozhdenie.cards import Card, CardDB

MAX_MULLIGANS = 5  # 5.4
OPENING_HAND = 5  # 5.4
INDIVIDUAL_ZONES = ("main", "hand", "reinforcement", "graveyard", "oblivion")
ZONE_NAMES = {"main_deck": "main"}  # effect-language zone names -> state zone names
MAX_COMBOS = 24  # bound on listed combinations of picks
MAX_PLAYERS = 8  # the registry offers at most 4; the engine's own bound on a table
DICE = {"1d20": (1, 20), "2d6": (2, 6)}  # 5.3
HIDDEN_ZONES = ("hand", "main")  # zones whose cards only their owner may know (1.4.2)
MAX_PICKS = 200  # bound on the values of one choice (cards in play are far fewer)
# Rule flags for the alternatives Part 2 of the rules digest asks for (config["options"]).
DEFAULT_OPTIONS = {
    "mulligan": "bottom",  # AMB-01: "bottom" (recommended) or "shuffle" (back into the deck)
    "coins_reset": False,  # AMB-17: unspent coins are lost at Round End
    "supply_recompute": False,  # AMB-18: Supply = symbols of non-ruined Cities each round
    "passing": "final",  # AMB-26: "final" (recommended) or "consecutive"
}


def plain(value: Any) -> Any:
    """Deep-convert card data (Mappings, tuples) to JSON data."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(plain(v) for v in value)
    return value


# "trig", "stat" and "repl" are shared between copies: ``new_instance`` replaces them
# rather than appending in place, so a list object always has the same contents.
_LIST_KEYS = ("battlefield", "gone", "turn_order", "elim", "winners", "rng", "waiting")


def copy_state(state: State) -> State:
    """A structural copy of everything ``apply`` may mutate (about 8x faster than a deep
    copy). Immutable leaves are shared: ability ops inside frames and the waiting and
    pending entries are never mutated in place (they are replaced). The card instance
    dicts are shared too: ``_Game.mut`` copies one before its first change."""
    new = dict(state)
    players = []
    for p in state["players"]:
        q = p.copy()
        # a player's only lists (INDIVIDUAL_ZONES), unrolled
        q["main"] = p["main"][:]
        q["hand"] = p["hand"][:]
        q["reinforcement"] = p["reinforcement"][:]
        q["graveyard"] = p["graveyard"][:]
        q["oblivion"] = p["oblivion"][:]
        players.append(q)
    new["players"] = players
    new["cards"] = state["cards"][:]  # the card dicts are copied on write (_Game.mut)
    # _LIST_KEYS, unrolled
    new["battlefield"] = state["battlefield"][:]
    new["gone"] = state["gone"][:]
    new["turn_order"] = state["turn_order"][:]
    new["elim"] = state["elim"][:]
    new["winners"] = state["winners"][:]
    new["rng"] = state["rng"][:]
    new["waiting"] = state["waiting"][:]
    if "idle" in state:  # the idle-rounds event rule's counters, when the event sets it
        new["idle"] = state["idle"].copy()
    # (empty lists are the common case: no comprehension then)
    queue = state["queue"]
    new["queue"] = [o.copy() for o in queue] if queue else []
    tactics = state["tactics"]
    new["tactics"] = (
        [dict(t, attack=t["attack"][:], defence=t["defence"][:]) for t in tactics]
        if tactics
        else []
    )
    frames = state["frames"]
    new["frames"] = [{"ops": f["ops"][:], "ctx": f["ctx"].copy()} for f in frames] if frames else []
    temp = state["temp"]
    new["temp"] = [dict(t, iids=t["iids"][:]) for t in temp] if temp else []
    new["used"] = state["used"].copy()
    if state["tr"] is not None:
        new["tr"] = state["tr"].copy()
    if "replacing" in state:
        new["replacing"] = state["replacing"][:]
    return new


_EMPTY: list = []
# Pending decisions whose candidate answers are all legal as built (each is taken from the
# pending options, or is "decline"): ``legal_actions`` lists them without validating.
_VALID_BY_CONSTRUCTION = frozenset({"first_player", "discard_down", "decree", "tactic"})
_NO_FILTER: dict = {}  # a selector without "filter" (never changed)


class _Filter:
    """An effect-language filter, prepared once: its zone and owner words, whether it
    needs the instance's state, and the verdict of its card-level keys by card id."""

    __slots__ = ("by_card", "flt", "owner", "state", "zone")

    def __init__(self, flt: Mapping):
        self.flt = flt  # keeps the dict alive, so its id names it while memoised
        zone = flt.get("zone")
        self.zone = None if zone is None else ZONE_NAMES.get(zone, zone)
        self.owner = flt.get("owner", "any")
        card_keys = ("type", "subtype", "colour", "minor", "name")
        self.by_card: dict[str, bool] | None = {} if any(k in flt for k in card_keys) else None
        state_keys = ("wounded", "assigned", "ruined", "max_strength", "min_strength")
        self.state = any(k in flt for k in (*state_keys, "keyword", "other"))

    def card_ok(self, card: Card, card_id: str) -> bool:
        flt = self.flt
        if "type" in flt:
            types = flt["type"] if isinstance(flt["type"], list) else [flt["type"]]
            if card.type not in types:
                return False
        if "subtype" in flt:
            subs = flt["subtype"] if isinstance(flt["subtype"], list) else [flt["subtype"]]
            if not set(subs) & set(card.subtypes):
                return False
        if "colour" in flt:
            cols = flt["colour"] if isinstance(flt["colour"], list) else [flt["colour"]]
            if not set(cols) & set(card.colours):
                return False
        if "minor" in flt and card.minor != flt["minor"]:
            return False
        return not ("name" in flt and card_id != flt["name"])


# Prepared filters by the id of their dict (the entry holds the dict, so the id is not
# reused while it is here). Filters are card data or built once per use, never changed
# after their first match.
_FILTERS: dict[int, _Filter] = {}


_OWNED: dict[tuple[int, str, bool], tuple[Mapping, dict]] = {}


def _with_owner(flt: Mapping, owner: str, force: bool = True) -> dict:
    """A copy of a card-data filter with its "owner" set (or defaulted: ``force=False``),
    made once per filter and owner."""
    key = (id(flt), owner, force)
    hit = _OWNED.get(key)
    if hit is not None and hit[0] is flt:
        return hit[1]
    derived = dict(flt)
    if force:
        derived["owner"] = owner
    else:
        derived.setdefault("owner", owner)
    if len(_OWNED) > 4096:
        _OWNED.clear()
    _OWNED[key] = (flt, derived)  # holds ``flt``: its id is not reused while here
    return derived


def _compile_filter(flt: Mapping) -> _Filter:
    if len(_FILTERS) > 8192:
        _FILTERS.clear()
    f = _FILTERS[id(flt)] = _Filter(flt)
    return f


def _ceil_half(value: int) -> int:
    return -(-value // 2)


class _Info:
    """Cached per-card data: the abilities by kind, as plain JSON data."""

    __slots__ = (
        "abilities",
        "activated",
        "by_kind",
        "card",
        "decrees",
        "events",
        "pay_only",
        "triggered_by",
    )

    def __init__(self, card: Card):
        self.card = card
        self.abilities = [plain(a) for a in card.abilities]
        self.by_kind: dict[str, list[int]] = {}
        self.events: set[str] = set()  # trigger events of its triggered abilities
        # its triggered abilities by trigger event, in ability order
        self.triggered_by: dict[str, list[int]] = {}
        for i, ability in enumerate(self.abilities):
            self.by_kind.setdefault(ability["kind"], []).append(i)
            if ability["kind"] == "triggered":
                self.events.add(ability["trigger"]["event"])
                self.triggered_by.setdefault(ability["trigger"]["event"], []).append(i)
        self.activated = tuple(self.by_kind.get("activated", ()))
        # Activated abilities whose only cost is a fixed number of coins (6.3.5):
        # {ability: (coins, limit)}, checked without building the cost context.
        self.pay_only: dict[int, tuple[int, Any]] = {}
        for i in self.activated:
            costs = self.abilities[i]["cost"]
            if len(costs) == 1 and costs[0]["op"] == "pay" and type(costs[0]["coins"]) is int:
                self.pay_only[i] = (costs[0]["coins"], self.abilities[i].get("limit"))
        self.decrees = tuple(self.by_kind.get("decree", ()))

    def kind(self, kind: str) -> list[int]:
        return self.by_kind.get(kind, [])


class Voskhozhdenie:
    """The GameSystem of «Восхождение», bound to a card database."""

    key = "voskhozhdenie"

    def __init__(self, db: CardDB | None = None):
        self._db = db
        # Every card id of a game's instances is added by ``new_instance``; ``info`` adds
        # the others (a state built by another system object). A plain dict: subscripts
        # of an exact dict are the fastest lookup.
        self._infos: dict[str, _Info] = {}
        # Tables of static abilities by the sources in force ((iid, _Info) pairs), and
        # trigger indexes by the (copy-on-write, so never changing) "trig" list object.
        self._stat_memo: dict[tuple, dict] = {}
        self._trig_memo: dict[int, tuple[list, dict]] = {}
        # (instance, is a Squad, (instance, _Info)) of each source of static abilities, by the
        # (copy-on-write) "stat" list object.
        self._stat_pairs: dict[int, tuple[list, list]] = {}

    # -- card data -----------------------------------------------------------------------

    @property
    def db(self) -> CardDB:
        if self._db is None:
            try:
                from engine.voskhozhdenie.loader import load_system
            except ImportError as exc:  # pragma: no cover - the loader is written elsewhere
                raise InvalidConfig(
                    "the card loader (engine.voskhozhdenie.loader.load_system) is not available"
                ) from exc
            self._db = load_system("voskhozhdenie")
        return self._db

    def info(self, card_id: str) -> _Info:
        try:
            return self._infos[card_id]
        except KeyError:
            info = self._infos[card_id] = _Info(self.db.card(card_id))
            return info

    # -- protocol ------------------------------------------------------------------------

    def new_game(self, config: Mapping[str, Any], decks: Sequence[Any], seed: int) -> State:
        config = dict(config or {})
        n = len(decks)
        if n < 2:
            raise InvalidConfig("a game needs at least two players (rule 1.3.5)")
        if n > MAX_PLAYERS:
            raise InvalidConfig(f"a game has at most {MAX_PLAYERS} players")
        teams = config.get("teams") or [[seat] for seat in range(n)]
        if (
            not isinstance(teams, list)
            or not all(isinstance(team, list) and team for team in teams)
            or not all(type(seat) is int for team in teams for seat in team)
        ):
            raise InvalidConfig("teams is a list of non-empty lists of seat numbers (1.2.2)")
        seats = sorted(seat for team in teams for seat in team)
        if seats != list(range(n)):
            raise InvalidConfig("teams must list every seat exactly once")
        if len(teams) < 2:
            # 1.2.4, 1.3.9: a game needs opponents, or nobody could ever win it.
            raise InvalidConfig("a game needs at least two teams: every player needs an opponent")
        dice = config.get("dice", "1d20")
        if not isinstance(dice, str) or dice.lower() not in DICE:  # 5.3: 1d20 or 2d6
            raise InvalidConfig(f"dice is 1d20 or 2d6 (rule 5.3), not {str(dice)[:20]!r}")
        count, sides = DICE[dice.lower()]
        team_of = {seat: t for t, team in enumerate(teams) for seat in team}
        options = {**DEFAULT_OPTIONS, **(config.get("options") or {})}
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise InvalidConfig(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        if options["mulligan"] not in ("bottom", "shuffle"):
            raise InvalidConfig("options.mulligan is 'bottom' or 'shuffle'")
        if options["passing"] not in ("final", "consecutive"):
            raise InvalidConfig("options.passing is 'final' or 'consecutive'")
        idle_rounds = config.get("idle_rounds")
        round_limit = config.get("round_limit")
        for key, value in (("idle_rounds", idle_rounds), ("round_limit", round_limit)):
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < 1
            ):
                raise InvalidConfig(
                    f"{key} must be a whole number of rounds, at least 1, not {value!r}"
                )
        state: State = {
            "v": 1,
            "n": n,
            "teams": [list(team) for team in teams],
            "dice": [count, sides],
            "options": options,
            "players": [],
            "cards": [],
            "battlefield": [],
            "queue": [],
            "gone": [],
            "tactics": [],
            "next_id": 1,
            "stage": "initiative",
            "round": 0,
            "step": "initiative",
            "idx": 0,
            "flag": False,
            "tr": None,
            "initiative": [],
            "turn_order": [],
            "active": None,
            "pending": None,
            "frames": [],
            "waiting": [],
            "temp": [],
            "used": {},
            "trig": [],
            "stat": [],
            "repl": [],
            "rng": rng.seed_state(seed),
            "log": 0,
            "elim": [],
            "winners": [],
            "draw": False,
            "finished": False,
        }
        if idle_rounds is not None:
            # An event rule (1.3.3), not a rule of the game: so many Rounds in a row in
            # which nobody did anything but pass end the game without a winner (1.3.10).
            state["idle"] = {"limit": idle_rounds, "count": 0, "acted": False}
        if round_limit is not None:
            state["round_limit"] = round_limit  # event rule (1.3.3): a draw after that Round
        g = _Game(self, state)
        entries = []  # (seat, zone, card id), in deck-list order
        for seat, deck in enumerate(decks):
            state["players"].append(
                {
                    "seat": seat,
                    "team": team_of[seat],
                    "coins": 0,
                    "supply": 0,
                    "eliminated": False,
                    "mulligans": 0,
                    "passed": False,
                    "main": [],
                    "hand": [],
                    "reinforcement": [],
                    "graveyard": [],
                    "oblivion": [],
                }
            )
            if not isinstance(deck, Mapping):
                raise InvalidConfig(f"deck {seat} must be a dict with cities, main, reinforcement")
            for part, zone in (
                ("cities", "battlefield"),
                ("main", "main"),
                ("reinforcement", "reinforcement"),
            ):
                cards = deck.get(part) or ()
                if not isinstance(cards, Sequence) or isinstance(cards, str):
                    raise InvalidConfig(f"deck {seat}: {part} must be a list of card ids")
                for card_id in cards:
                    try:
                        card = self.db.card(card_id)
                    except (KeyError, TypeError):
                        raise InvalidConfig(f"deck {seat}: unknown card {card_id!r}") from None
                    if part == "cities" and card.type != "city":
                        raise InvalidConfig(f"deck {seat}: {card_id} is not a City")
                    entries.append((seat, zone, card_id))
        # 1.4.2.6, 1.4.2.7: an instance id must not name a hidden card, so ids are dealt
        # in an order drawn from the game's generator. (Seeds below ``rng.LEGACY_SEEDS``,
        # the fixed seeds of tests and recorded games, keep deck-list order and so their
        # recorded sequences; every game on the site has a full seed.)
        order = list(range(len(entries)))
        if seed >= rng.LEGACY_SEEDS:
            rng.shuffle(state["rng"], order)
        iids = [0] * len(entries)
        for k in order:
            seat, zone, card_id = entries[k]
            iids[k] = g.new_instance(card_id, seat, zone)
        for (seat, zone, _card_id), iid in zip(entries, iids, strict=True):
            if zone == "battlefield":
                state["battlefield"].append(iid)
            else:
                state["players"][seat][zone].append(iid)
        for seat in range(n):
            # 5.2.1: each Main Deck is shuffled separately.
            rng.shuffle(state["rng"], state["players"][seat]["main"])
        g.advance()
        return state

    def to_act(self, state: State) -> tuple[int, ...]:
        if state["finished"]:
            return ()
        pending = state["pending"]
        if pending is not None:
            return (pending["player"],)
        if state["step"] == "action" and state["active"] is not None:
            return (state["active"],)
        return ()

    # Actions whose every choice ``legal_actions`` cannot list: their exact shape here,
    # the rest is ``_Game.validate``'s (engine.core.legality).
    ACTION_SCHEMAS: ClassVar[dict[str, ActionSchema]] = {
        # 6.2: picks out of a pending choice (``legal_actions`` lists up to MAX_COMBOS).
        "choose": ActionSchema(
            required={"choice_id": Int(0), "picks": ListOf(Int(0), MAX_PICKS)},
        ),
        # 6.3.5: an activation with the cards chosen to pay its cost.
        "activate": ActionSchema(
            required={"iid": Int(0), "ability": Int(0)},
            optional={"discard": ListOf(Int(0), MAX_PICKS), "sacrifice": Nullable(Int(0))},
        ),
    }

    def legal_actions(self, state: State, player: int) -> list[Action]:
        return self.legal_actions_game(state, player)[0]

    def legal_actions_game(self, state: State, player: int) -> tuple[list[Action], _Game]:
        """``legal_actions`` and the read-only rules object over ``state`` that computed
        them (a bot reuses its caches)."""
        g = _Game(self, state, readonly=True)
        if player not in self.to_act(state):
            return [], g
        if state["pending"] is None and (state["queue"] or state["frames"] or state["waiting"]):
            return [], g  # 5.7: nobody acts while the Queue is not empty
        if state["pending"] is None:
            return g.action_phase_actions(player), g
        kind = state["pending"]["kind"]
        if kind in _VALID_BY_CONSTRUCTION:
            return g.candidates(player), g
        if kind == "mulligan":  # 5.4: keep, or mulligan a card while fewer than five
            out = g.candidates(player)
            return (out if state["players"][player]["mulligans"] < MAX_MULLIGANS else out[:1]), g
        out = []
        for action in g.candidates(player):
            try:
                g.validate(player, action)
            except IllegalAction:
                continue
            out.append(action)
        out.extend(g._trusted)  # already checked by ``candidates``
        return out, g

    def apply(self, state: State, player: int, action: Action) -> tuple[State, list[Event]]:
        if state["finished"]:
            raise IllegalAction("The game is over.", "1.3.9")
        form = check_shape(action)
        if type(player) is not int or player not in self.to_act(state):
            raise NotYourTurn("It is not your turn to act.", "5.6.3")
        # Offered by ``legal_actions`` (or fitting its schema); else ``validate`` says why not.
        check_action(
            self,
            state,
            player,
            action,
            lambda: _Game(self, state, readonly=True).validate(player, action),
            form,
        )
        new = copy_state(state)
        g = _Game(self, new)
        g.validate(player, action)  # on the copy: the input stays untouched either way
        g.perform(player, dict(action))
        g.advance()
        new["log"] += 1
        return new, g.events

    def leave(self, state: State, player: int, reason: str) -> tuple[State, list[Event]]:
        """The player concedes or runs out of time: they are eliminated (1.3.7, 1.3.8 with
        AMB-33) and play goes on for the others; when all of a player's opponents are out,
        that player's team wins (1.3.9). A decision they owe is answered first with the
        least the rules allow (keep, decline, pass, or the first choice offered), so every
        effect under way finishes as the rules carry it out."""
        if state["finished"]:
            raise IllegalAction("The game is over.", "1.3.9")
        players = state["players"]
        if type(player) is not int or not 0 <= player < len(players):
            raise IllegalAction("There is no such player in this game.")
        if players[player]["eliminated"]:
            raise IllegalAction("You are out of this game already.", "1.3.7")
        new = copy_state(state)
        events: list[Event] = [{"type": "left", "player": player, "reason": reason}]
        for _ in range(1000):
            pending = new["pending"]
            if new["finished"] or pending is None or pending["player"] != player:
                break
            answer = _least_answer(self.legal_actions(new, player))
            if answer is None:
                break
            g = _Game(self, new)
            g.perform(player, answer)
            g.advance()
            events.extend(g.events)
        if not new["finished"]:
            g = _Game(self, new)
            g.eliminate(player)
            g.advance()
            events.extend(g.events)
        new["log"] += 1
        return new, events

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        from engine.voskhozhdenie.views import build_view

        return build_view(self, state, player)

    def result(self, state: State) -> GameResult:
        return GameResult(
            finished=state["finished"],
            winners=tuple(state["winners"]),
            draw=state["draw"],
            eliminated=tuple(state["elim"]),
        )


class _Game:
    """The rules over one state dict (mutated in place: callers pass a copy)."""

    __slots__ = (
        "_busy",
        "_cache",
        "_deferred",
        "_fast",
        "_filtered",
        "_own",
        "_ro_ops",
        "_stat_cache",
        "_strength",
        "_trig_index",
        "_trusted",
        "_ver",
        "_zw",
        "events",
        "s",
        "sys",
    )

    def __init__(self, system: Voskhozhdenie, state: State, readonly: bool = False):
        self.sys = system
        self.s = state
        self.events: list[Event] = []
        self._busy = False
        # Cache of the static sources and lost abilities, valid while ``_ver`` is
        # unchanged; every mutation that can change them bumps ``_ver``.
        self._ver = 0
        self._cache: dict[str, tuple[int, Any]] = {}
        # ``_statics``: (version, cards and Battlefield sizes, table, sources in force,
        # writes of zone or wounded, "stat" list)
        self._stat_cache: tuple[int, int, int, dict, tuple, int, list] | None = None
        self._filtered: tuple[tuple, dict] | None = None
        self._trusted: list[Action] = []
        self._fast = True  # legal_actions: trust the per-card checks of ``candidates``
        self._deferred: list[int] | None = None  # eliminations waiting for an effect
        self._own: set[int] = set()  # card dicts already copied for this state (``mut``)
        # Strength by instance, for callers that never mutate the state (legal actions,
        # bots, views).
        self._strength: dict[int, int | None] | None = {} if readonly else None
        # The same callers never change the state, so the static tables are fixed: the
        # static ops by name, once computed (``static_ops``).
        self._ro_ops: dict[str, list] | None = {} if readonly else None
        self._trig_index: tuple | None = None  # (the "trig" list object, by event)
        self._zw = 0  # writes of a card's "zone" or "wounded" (the static sources' state)

    # ===================================================================================
    # basic accessors
    # ===================================================================================

    def card(self, iid: int) -> Card:
        cid = self.s["cards"][iid]["card"]
        try:
            return self.sys._infos[cid].card
        except KeyError:
            return self.sys.info(cid).card

    def info(self, iid: int) -> _Info:
        cid = self.s["cards"][iid]["card"]
        try:
            return self.sys._infos[cid]
        except KeyError:
            return self.sys.info(cid)

    def mut(self, iid: int) -> dict:
        """The card instance dict of ``iid``, to change it: ``copy_state`` shares the dicts
        with the input state, so the first change copies it. Every write to a card dict
        goes through here; a dict returned by ``mut`` stays the state's own."""
        cards = self.s["cards"]
        if iid in self._own:
            return cards[iid]
        self._own.add(iid)
        c = cards[iid] = cards[iid].copy()
        return c

    def player(self, seat: int) -> dict:
        return self.s["players"][seat]

    def alive(self) -> list[int]:
        out = []  # (a plain loop: cheaper than a comprehension for a few players)
        for p in self.s["players"]:
            if not p["eliminated"]:
                out.append(p["seat"])
        return out

    def allies(self, a: int, b: int) -> bool:
        players = self.s["players"]
        return players[a]["team"] == players[b]["team"]

    def opponents(self, seat: int, alive_only: bool = True) -> list[int]:
        players = self.s["players"]
        team = players[seat]["team"]
        out = []
        for q in self.order_from(seat):
            other = players[q]
            if other["team"] != team and not (alive_only and other["eliminated"]):
                out.append(q)
        return out

    def order_from(self, seat: int | None) -> list[int]:
        """Turn order starting at ``seat`` (6.3.13, 6.6.1); seat order before 5.3."""
        order = self.s["turn_order"] or list(range(self.s["n"]))
        if seat is None or seat not in order:
            return list(order)
        i = order.index(seat)
        return order[i:] + order[:i] if i else order[:]

    def sim_start(self) -> int | None:
        """AMB-27: the active player during a turn, else the first player."""
        if self.s["step"] in ("turn_start", "action", "turn_end"):
            return self.s["active"]
        return self.s["turn_order"][0] if self.s["turn_order"] else 0

    def emit(self, kind: str, **data: Any) -> None:
        data["type"] = kind
        self.events.append(data)

    def new_instance(self, card_id: str, owner: int, zone: str) -> int:
        self._ver += 1
        s = self.s
        card = self.sys.info(card_id).card
        iid = len(s["cards"])
        s["cards"].append(
            {
                "iid": iid,
                "card": card_id,
                "owner": owner,
                "zone": zone,
                "strength": card.strength,
                "wounded": False,
                "ruined": False,
                "entered": 0 if zone == "battlefield" else None,
                "tactic": None,
                "side": None,
            }
        )
        self._own.add(iid)
        info = self.sys.info(card_id)
        if info.kind("triggered"):
            s["trig"] = [*s["trig"], iid]  # copy-on-write: shared between state copies
        if info.kind("static"):
            s["stat"] = [*s["stat"], iid]
        if info.kind("replacement"):
            s["repl"] = [*s["repl"], iid]
        return iid

    def zone_list(self, iid: int) -> list:
        c = self.s["cards"][iid]
        zone = c["zone"]
        if zone in ("battlefield", "gone"):
            return self.s[zone]
        if zone == "queue":
            raise EngineBug("the Queue holds objects, not ids")
        return self.s["players"][c["owner"]][zone]

    # ===================================================================================
    # static abilities (6.2.1.1): computed on demand, in stage order
    # ===================================================================================

    def _statics(self) -> dict:
        """The static abilities in force, grouped by op, cached until the next mutation:
        {"sources": [(src, op)], "by_name": {op: [(src, op)]}, "lose": bool,
        "filtered": {op: [(src, op)] whose source still has its abilities}}."""
        hit = self._stat_cache
        if hit is not None and self._ro_ops is not None:
            return hit[3]  # a read-only caller: the state never changes
        s = self.s
        ver = self._ver
        n_cards = len(s["cards"])
        n_bf = len(s["battlefield"])
        if hit is not None and hit[1] == n_cards and hit[2] == n_bf:
            if hit[0] == ver:
                return hit[3]
            # Which sources are in force depends only on the "zone" and "wounded" of the
            # instances in "stat": with no such write since the table was found (and the
            # same "stat" list), the sources are the same ones, and so is the table.
            if hit[5] == self._zw and hit[6] is s["stat"]:
                self._stat_cache = (ver, n_cards, n_bf, hit[3], hit[4], hit[5], hit[6])
                return hit[3]
        # The table depends only on which sources are in force (and their cards): find
        # them, and reuse the table built for the same sources (here or in another state).
        cards = s["cards"]
        stat = s["stat"]
        pairs = self.sys._stat_pairs.get(id(stat))
        if pairs is None or pairs[0] is not stat or len(pairs[1]) != len(stat):
            memo = self.sys._stat_pairs
            if len(memo) > 4096:
                memo.clear()
            found = []
            for src in stat:
                info = self.info(src)
                found.append((src, info.card.type == "squad", (src, info)))
            pairs = memo[id(stat)] = (stat, found)  # holds the list: its id stays its own
        sig = []
        for src, squad, pair in pairs[1]:
            c = cards[src]
            if c["zone"] != "battlefield" or (squad and c["wounded"]):
                continue
            sig.append(pair)  # (src, info), built once
        sig_t = tuple(sig)
        if hit is not None and hit[4] == sig_t:
            table = hit[3]
        else:
            memo = self.sys._stat_memo
            table = memo.get(sig_t)
            if table is None:
                sources = []
                by_name: dict[str, list] = {}
                for src, info in sig_t:
                    for i in info.kind("static"):
                        for op in info.abilities[i]["effects"]:
                            sources.append((src, op))
                            by_name.setdefault(op["op"], []).append((src, op))
                table = {
                    "sources": sources,
                    "by_name": by_name,
                    "lose": "lose_abilities" in by_name,
                }
                if len(memo) > 4096:
                    memo.clear()
                memo[sig_t] = table
        self._stat_cache = (ver, n_cards, n_bf, table, sig_t, self._zw, stat)
        return table

    def static_sources(self) -> list[tuple[int, dict]]:
        """(source iid, static op) for every static ability on the Battlefield."""
        return self._statics()["sources"]

    def lost_abilities(self) -> set[int]:
        """Stage 6.2.1.1.1.4: instances without abilities (wounded Squads 2.3.2.3 and the
        targets of "lose_abilities" statics)."""
        s = self.s
        if not s["stat"] or self._busy:
            return set()
        key = (self._ver, len(self.s["cards"]), len(self.s["battlefield"]))
        hit = self._cache.get("lost")
        if hit is not None and hit[0] == key:
            return hit[1]
        self._busy = True
        try:
            lost = self._lost_abilities()
        finally:
            self._busy = False
        self._cache["lost"] = (key, lost)
        return lost

    def _lost_abilities(self) -> set[int]:
        removers: dict[int, set[int]] = {}
        for src, op in self.static_sources():
            if op["op"] == "lose_abilities":
                removers.setdefault(src, set()).update(self.static_targets(src, op))
        lost: set[int] = set()
        for src, targets in removers.items():
            for t in targets:
                if t in removers and src in removers[t] and t != src:
                    continue  # 6.2.1.1.5: mutually dependent, neither applies
                lost.add(t)
        return lost

    def has_abilities(self, iid: int, lost: set[int] | None = None) -> bool:
        c = self.s["cards"][iid]
        if c["wounded"] and self.card(iid).type == "squad":
            return False  # 2.3.2.3
        if lost is not None:
            return iid not in lost
        if not self.s["stat"] or not self._statics()["lose"]:
            return True
        return iid not in self.lost_abilities()

    def static_ops(self, name: str) -> list[tuple[int, dict]]:
        """Static ops of one kind whose source still has its abilities (stage 4 first)."""
        ro = self._ro_ops
        if ro is not None:
            hit = ro.get(name)
            if hit is not None:
                return hit
            if not self._busy:
                found = ro[name] = self._static_ops(name)
                return found
        return self._static_ops(name)

    def _static_ops(self, name: str) -> list[tuple[int, dict]]:
        if not self.s["stat"]:
            return []
        table = self._statics()
        found = table["by_name"].get(name, _EMPTY)
        if not found or not table["lose"]:
            return found
        # Some source removes abilities: filter, cached until the next mutation.
        s = self.s
        key = (self._ver, len(s["cards"]), len(s["battlefield"]))
        filtered = self._filtered
        if filtered is None or filtered[0] != key:
            filtered = self._filtered = (key, {})
        hit = filtered[1].get(name)
        if hit is not None:
            return hit
        lost = self.lost_abilities()
        found = [(src, op) for src, op in found if src not in lost]
        if not self._busy:  # not while the lost set itself is being computed
            filtered[1][name] = found
        return found

    def static_targets(self, src: int, op: dict) -> list[int]:
        target = op.get("target") or {"select": "self"}
        ctx = {"controller": self.s["cards"][src]["owner"], "source": src}
        if target.get("select") in ("self", "event_card"):
            return [src]
        return self.matching(target.get("filter", _NO_FILTER), ctx)

    def static_applies(self, src: int, op: dict, iid: int) -> bool:
        """Does a static op of ``src`` apply to ``iid`` (without listing every target)?"""
        target = op.get("target")
        if not target:  # no target: the source itself
            return iid == src
        select = target.get("select")
        if select == "self" or select == "event_card":
            return iid == src
        ctx = {"controller": self.s["cards"][src]["owner"], "source": src}
        return self.matches(target.get("filter", _NO_FILTER), iid, ctx)

    def strength(self, iid: int) -> int | None:
        """Current Strength (2.1.9): base, then static and temporary changes (stage 7);
        Strength statics apply on the Battlefield only (AMB-28)."""
        memo = self._strength
        if memo is not None and not self._busy:
            if iid in memo:
                return memo[iid]
            memo[iid] = value = self._strength_of(iid)
            return value
        return self._strength_of(iid)

    def _strength_of(self, iid: int) -> int | None:
        s = self.s
        c = s["cards"][iid]
        base = c["strength"]
        if base is None or c["zone"] != "battlefield":
            return self.card(iid).strength if base is not None else None
        total = base
        for src, op in self.static_ops("strength"):
            if self.static_applies(src, op, iid):
                amount = op["amount"]
                if type(amount) is not int:
                    amount = self.amount(amount, {"controller": s["cards"][src]["owner"]})
                total += amount
        for t in s["temp"]:
            if t["kind"] == "strength" and iid in t["iids"]:
                total += t["amount"]
        return total

    def has_keyword(self, iid: int, keyword: str) -> bool:
        if not self.has_abilities(iid):
            return False
        if keyword in self.card(iid).keywords:
            return True
        for src, op in self.static_ops("keyword"):
            if op["keyword"] == keyword and self.static_applies(src, op, iid):
                return True
        temp = self.s["temp"]
        return bool(temp) and any(
            t["kind"] == "keyword" and t["keyword"] == keyword and iid in t["iids"] for t in temp
        )

    def cost(self, iid: int) -> int:
        """The cost when interacting (2.1.2), then cost statics (stage 8), at least 0."""
        value = self.card(iid).cost_value
        for src, op in self.static_ops("cost"):
            if self.static_applies(src, op, iid):
                value += self.amount(op["amount"], {"controller": self.s["cards"][src]["owner"]})
        return max(0, value)

    def supply(self, seat: int) -> int:
        value = self.player(seat)["supply"]
        for src, op in self.static_ops("supply"):
            if self.s["cards"][src]["owner"] == seat:
                value += self.amount(op["amount"], {"controller": seat})
        return max(0, value)

    def max_direct_attacks(self) -> int:
        """5.6.3.2.2.2: non-eliminated players + 1 (plus statics)."""
        value = 1
        for p in self.s["players"]:
            if not p["eliminated"]:
                value += 1
        for src, op in self.static_ops("max_direct_attacks"):
            value += self.amount(op["amount"], {"controller": self.s["cards"][src]["owner"]})
        return value

    def prohibited(self, action: str, seat: int | None = None, iid: int | None = None) -> bool:
        """1.1.3, 6.2.1.1.3: a "cannot" static forbids, whatever permits."""
        for src, op in self.static_ops("cannot"):
            if op["action"] != action:
                continue
            owner = self.s["cards"][src]["owner"]
            ctx = {"controller": owner, "source": src}
            if (
                "player" in op
                and seat is not None
                and seat not in self.players_word(op["player"], ctx, choose=False)
            ):
                continue
            if "target" in op and (iid is None or not self.static_applies(src, op, iid)):
                continue
            return True
        return False

    # ===================================================================================
    # filters, selectors, amounts, conditions
    # ===================================================================================

    def matches(self, flt: Mapping, iid: int, ctx: Mapping, any_zone: bool = False) -> bool:
        """Does instance ``iid`` match an effect-language filter? ``any_zone``: a filter
        without "zone" matches in every zone (trigger and replacement filters: the card of
        a "destroyed" or "discarded" event is already in the Graveyard)."""
        f = _FILTERS.get(id(flt))
        if f is None or f.flt is not flt:
            f = _compile_filter(flt)
        c = self.s["cards"][iid]
        zone = f.zone
        if zone is None:
            if not any_zone and c["zone"] != "battlefield":
                return False
        elif c["zone"] != zone:
            return False
        owner = f.owner
        if owner != "any":
            me = ctx.get("controller")
            if owner == "you":
                if c["owner"] != me:
                    return False
            elif owner == "opponent":
                if me is None or self.allies(me, c["owner"]):
                    return False
            elif owner == "ally":
                if me is None or c["owner"] == me or not self.allies(me, c["owner"]):
                    return False
            elif owner == "defender" and c["owner"] != ctx.get("defender"):
                return False
        by_card = f.by_card
        if by_card is not None:  # type, subtype, colour, minor, name: fixed per card
            ok = by_card.get(c["card"])
            if ok is None:
                cid = c["card"]
                ok = by_card[cid] = f.card_ok(self.sys.info(cid).card, cid)
            if not ok:
                return False
        if not f.state:
            return True
        return self._state_matches(flt, c, iid, ctx)

    def _state_matches(self, flt: Mapping, c: dict, iid: int, ctx: Mapping) -> bool:
        """The checks of ``matches`` that need the instance's state (``_Filter.state``)."""
        if "wounded" in flt and bool(c["wounded"]) != flt["wounded"]:
            return False
        if "assigned" in flt and (c["tactic"] is not None) != flt["assigned"]:
            return False
        if "ruined" in flt and bool(c["ruined"]) != flt["ruined"]:
            return False
        if "max_strength" in flt or "min_strength" in flt:
            value = self.strength(iid)
            if value is None:
                return False
            if "max_strength" in flt and value > flt["max_strength"]:
                return False
            if "min_strength" in flt and value < flt["min_strength"]:
                return False
        if "keyword" in flt and not self.has_keyword(iid, flt["keyword"]):
            return False
        return not (flt.get("other") and iid == ctx.get("source"))

    def zone_candidates(self, flt: Mapping, ctx: Mapping) -> list[int]:
        s = self.s
        zone = flt.get("zone", "battlefield")
        zone = ZONE_NAMES.get(zone, zone)
        if zone == "battlefield":
            return list(s["battlefield"])
        if zone == "queue":
            return [o["iid"] for o in s["queue"] if o["kind"] == "card"]
        out = []
        for p in s["players"]:
            out.extend(p[zone])
        return out

    def matching(self, flt: Mapping, ctx: Mapping) -> list[int]:
        """The instances of the filter's zone that match it, in zone order."""
        return self.prefilter(flt, ctx, self.zone_candidates(flt, ctx), True)

    def prefilter(self, flt: Mapping, ctx: Mapping, candidates: list[int], full: bool) -> list:
        """``candidates`` that pass the filter's zone, owner and card-level keys (the
        checks of ``matches`` that need no rules); with ``full`` only those that match."""
        f = _FILTERS.get(id(flt))
        if f is None or f.flt is not flt:
            f = _compile_filter(flt)
        owner = f.owner
        me = ctx.get("controller")
        if owner not in ("any", "you", "opponent"):  # the other words: ask ``matches``
            return [i for i in candidates if self.matches(flt, i, ctx)] if full else candidates
        if owner == "opponent" and me is None:
            return []
        players = self.s["players"]
        team = players[me]["team"] if owner == "opponent" else None
        cards = self.s["cards"]
        zone = f.zone or "battlefield"
        by_card = f.by_card
        out = []
        for i in candidates:
            c = cards[i]
            if c["zone"] != zone:
                continue
            if owner == "you":
                if c["owner"] != me:
                    continue
            elif team is not None and players[c["owner"]]["team"] == team:
                continue
            if by_card is not None:
                cid = c["card"]
                ok = by_card.get(cid)
                if ok is None:
                    ok = by_card[cid] = f.card_ok(self.sys.info(cid).card, cid)
                if not ok:
                    continue
            out.append(i)
        if full and f.state:  # the other checks of ``matches`` are made above
            return [i for i in out if self._state_matches(flt, cards[i], i, ctx)]
        return out

    def count_matching(self, flt: Mapping, ctx: Mapping, enough: int | None = None) -> int:
        """How many instances match (counting stops at ``enough``)."""
        found = self.prefilter(flt, ctx, self.zone_candidates(flt, ctx), False)
        f = _FILTERS[id(flt)]  # prepared by ``prefilter``
        if not f.state and f.owner in ("any", "you", "opponent"):
            # ``prefilter`` made every check ``matches`` would make: each one matches.
            count = len(found)
            return enough if enough is not None and 0 < enough < count else count
        count = 0
        if f.owner in ("any", "you", "opponent"):
            # ``prefilter`` made the other checks of ``matches``: only the state remains.
            cards = self.s["cards"]
            for i in found:
                if self._state_matches(flt, cards[i], i, ctx):
                    count += 1
                    if count == enough:
                        break
            return count
        for i in found:
            if self.matches(flt, i, ctx):
                count += 1
                if count == enough:
                    break
        return count

    def amount(self, value: Any, ctx: Mapping) -> int:
        if isinstance(value, int):
            return value
        if isinstance(value, Mapping):
            if value.get("x"):
                return int(ctx.get("x") or 0)
            if "count" in value:
                flt = value["count"]
                return len(self.matching(flt, ctx))
        raise EngineBug(f"bad amount {value!r}")

    def players_word(self, word: str | None, ctx: Mapping, choose: bool = True) -> list[int]:
        """The seats an effect's ``player`` word names (choose_opponent is resolved by a
        pending choice before this is called: ctx["_player"])."""
        me = ctx.get("controller")
        if word in (None, "you"):
            return [me]
        if word == "each_opponent":
            return self.opponents(me)
        if word == "each_player":
            return [q for q in self.order_from(me) if not self.player(q)["eliminated"]]
        if word == "defender":
            return [ctx["defender"]] if ctx.get("defender") is not None else []
        if word == "event_player":
            return [ctx["event_player"]] if ctx.get("event_player") is not None else []
        if word == "owner":
            ref = ctx.get("event_card")
            if ref is None:
                ref = ctx.get("source")
            return [self.s["cards"][ref]["owner"]] if ref is not None else [me]
        if word == "choose_opponent":
            if "_player" in ctx:
                return [ctx["_player"]]
            return self.opponents(me)[:1] if not choose else self.opponents(me)
        raise EngineBug(f"bad player word {word!r}")

    def condition(self, cond: Mapping, ctx: Mapping) -> bool:
        ((name, arg),) = cond.items()
        me = ctx.get("controller")

        def amount_of(a: Any) -> int:
            if isinstance(a, Mapping) and "amount" in a:
                return self.amount(a["amount"], ctx)
            return self.amount(a, ctx)

        if name == "all":
            return all(self.condition(c, ctx) for c in arg)
        if name == "any":
            return any(self.condition(c, ctx) for c in arg)
        if name == "not":
            return not self.condition(arg, ctx)
        if name == "control":
            flt = _with_owner(arg["filter"], "you", force=False)
            least = arg.get("min", 1)
            if "max" not in arg:  # enough once ``least`` are found
                return self.count_matching(flt, ctx, least) >= least
            count = self.count_matching(flt, ctx)
            return count >= least and count <= arg["max"]
        if name == "opponent_has":
            flt = _with_owner(arg["filter"], "opponent")
            least = arg.get("min", 1)
            return self.count_matching(flt, ctx, least) >= least
        if name == "coins_at_least":
            return self.player(me)["coins"] >= amount_of(arg)
        if name == "hand_at_most":
            return len(self.player(me)["hand"]) <= amount_of(arg)
        if name == "hand_at_least":
            return len(self.player(me)["hand"]) >= amount_of(arg)
        if name == "round_at_least":
            return self.s["round"] >= amount_of(arg)
        if name == "cities_ruined_at_least":
            word = arg.get("player", "you") if isinstance(arg, Mapping) else "you"
            need = amount_of(arg)
            for q in self.players_word(word, ctx, choose=False):
                ruined = sum(
                    1
                    for i in self.s["battlefield"]
                    if self.s["cards"][i]["owner"] == q and self.s["cards"][i]["ruined"]
                )
                if ruined >= need:
                    return True
            return False
        raise EngineBug(f"unknown condition {name!r}")

    # ===================================================================================
    # zone moves (1.4.4) and card rules (2.3)
    # ===================================================================================

    def move(self, iid: int, dest: str, bottom: bool = True) -> None:
        """Move an instance to ``dest`` (a zone name; individual zones are the owner's)."""
        self._ver += 1
        s = self.s
        c = s["cards"][iid]
        src = c["zone"]
        card = self.card(iid)
        if src == dest == "battlefield":
            return
        if dest == "battlefield" and card.type == "order":
            dest = "graveyard"  # 2.3.4.2
        if src == "battlefield" and card.minor and dest != "battlefield":
            dest = "gone"  # 2.1.5.3, AMB-35
        c = self.mut(iid)
        if src != "queue":
            self.zone_list(iid).remove(iid)
        # 1.4.4 step 1: effects that depend on the zone stop applying.
        for t in s["temp"]:
            if iid in t["iids"]:
                t["iids"].remove(iid)
        if src == "battlefield":
            self.unassign(iid)
            if card.type == "tactic":
                # A Tactic that leaves the Battlefield before it resolves is gone from play:
                # its Squads are removed from it (inferred from 5.6.4.5).
                for t in [t for t in s["tactics"] if t["iid"] == iid]:
                    for side in ("attack", "defence"):
                        for i in list(t[side]):
                            self.unassign(i)
                    s["tactics"].remove(t)
            c["wounded"] = False  # AMB-32
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            c["ruined"] = False
            c["strength"] = card.strength  # 2.3.6.2, AMB-32
            c["entered"] = None
        c["zone"] = dest
        self._zw += 1  # a zone or wounded status changed (``_statics``)
        if dest in ("battlefield", "gone"):
            s[dest].append(iid)
        elif dest == "main" and not bottom:
            s["players"][c["owner"]]["main"].insert(0, iid)
        else:
            s["players"][c["owner"]][dest].append(iid)
        if dest == "battlefield":
            c["entered"] = s["round"]  # AMB-24
            self.trigger("enters_battlefield", iid, c["owner"])
        if src == "battlefield":
            self.trigger("leaves_battlefield", iid, c["owner"])
            if dest == "graveyard":
                self.trigger("destroyed", iid, c["owner"])

    def unassign(self, iid: int) -> None:
        self._ver += 1
        c = self.s["cards"][iid]
        tid = c["tactic"]
        if tid is None:
            return
        c = self.mut(iid)
        for t in self.s["tactics"]:
            if t["id"] == tid:
                side = t[c["side"]]
                if iid in side:
                    side.remove(iid)
        c["tactic"] = None
        c["side"] = None

    def wound(self, iid: int, amount: int, ctx: Mapping | None = None) -> None:
        """2.3.1.5 / 2.3.2.6 / 2.3.6.2 / 2.3.7.2; amounts <= 0 do nothing (AMB-32)."""
        self._ver += 1
        s = self.s
        c = s["cards"][iid]
        if amount <= 0 or c["zone"] != "battlefield":
            return
        if self.prohibited("be_wounded", iid=iid):
            return
        if self.replace("wounded", iid, c["owner"], {"amount": amount}):
            return
        c = self.mut(iid)
        kind = self.card(iid).type
        if kind == "city":
            if c["ruined"]:
                return  # 2.3.1.4
            c["strength"] -= amount
            self.emit("wounded", iid=iid, amount=amount)
            self.trigger("wounded", iid, c["owner"])
            if self.strength(iid) <= 0:
                c["ruined"] = True  # 2.3.1.5
                self.emit("city_ruined", iid=iid)
                self.trigger("city_ruined", iid, c["owner"])
                self.check_elimination(c["owner"])
        elif kind == "squad":
            value = self.strength(iid) or 0
            if amount >= value:
                self.destroy(iid)  # 2.3.2.6.1
            elif amount >= _ceil_half(value):
                if c["wounded"]:
                    self.destroy(iid)  # 2.3.2.6.3
                else:
                    c["wounded"] = True  # 2.3.2.6.2
                    self._zw += 1  # a zone or wounded status changed (``_statics``)
                    self.unassign(iid)  # 2.3.2.5
                    self.emit("wounded", iid=iid, amount=amount)
                    self.trigger("wounded", iid, c["owner"])
            # 2.3.2.6.4: less than half does nothing
        elif kind == "fortification":
            c["strength"] -= amount
            self.emit("wounded", iid=iid, amount=amount)
            self.trigger("wounded", iid, c["owner"])
            if self.strength(iid) <= 0:
                self.destroy(iid)  # 2.3.6.2 (Strength reset in move)
        elif kind == "patron" and amount >= (self.strength(iid) or 0):
            self.destroy(iid)  # 2.3.7.2.1; else nothing (2.3.7.2.2)

    def destroy(self, iid: int) -> None:
        """To the owner's Graveyard from the Battlefield (replaceable: "destroyed")."""
        c = self.s["cards"][iid]
        if c["zone"] != "battlefield":
            return
        if self.replace("destroyed", iid, c["owner"]):
            return
        self.emit("destroyed", iid=iid)
        self.move(iid, "graveyard")

    def heal(self, iid: int) -> None:
        self._ver += 1
        c = self.s["cards"][iid]
        if c["zone"] == "battlefield" and c["wounded"]:
            if self.replace("healed", iid, c["owner"]):
                return
            c = self.mut(iid)
            c["wounded"] = False  # 2.3.2.8
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            self.emit("healed", iid=iid)
            self.trigger("healed", iid, c["owner"])

    def restore(self, iid: int) -> bool:
        self._ver += 1
        c = self.s["cards"][iid]
        kind = self.card(iid).type
        if c["zone"] != "battlefield" or kind not in ("city", "fortification"):
            return False
        if kind == "city" and c["ruined"]:
            return False  # 2.3.1.7
        self.mut(iid)["strength"] = self.card(iid).strength  # 2.3.1.8, 2.3.6.5
        return True

    def check_elimination(self, seat: int) -> None:
        """2.3.1.2: a player whose Cities are all ruined is eliminated. Inside one effect
        the check waits until the effect is carried out, so that players ruined by the same
        effect are eliminated simultaneously (AMB-34: possibly a draw)."""
        s = self.s
        if s["players"][seat]["eliminated"]:
            return
        if self._deferred is not None:
            if seat not in self._deferred:
                self._deferred.append(seat)
            return
        cities = [
            i
            for i in s["battlefield"]
            if s["cards"][i]["owner"] == seat and self.card(i).type == "city"
        ]
        if cities and all(s["cards"][i]["ruined"] for i in cities):
            self.eliminate(seat)

    def all_ruined(self, seat: int) -> bool:
        s = self.s
        cities = [
            i
            for i in s["battlefield"]
            if s["cards"][i]["owner"] == seat and self.card(i).type == "city"
        ]
        return bool(cities) and all(s["cards"][i]["ruined"] for i in cities)

    def eliminate_many(self, seats: list[int]) -> None:
        """Simultaneous elimination: everyone first, then one game-over check."""
        seats = [q for q in seats if not self.player(q)["eliminated"] and self.all_ruined(q)]
        for q in seats:
            self.eliminate(q, check=False)
        if seats:
            self.check_game_over()

    def eliminate(self, seat: int, check: bool = True) -> None:
        """1.3.8 with AMB-33: the player's cards leave the game, their effects end."""
        self._ver += 1
        s = self.s
        p = s["players"][seat]
        p["eliminated"] = True
        p["passed"] = True
        s["elim"].append(seat)
        self.emit("eliminated", player=seat)
        self.trigger("eliminated", None, seat)
        # Tactics declared by them are removed unresolved.
        for t in list(s["tactics"]):
            if t["declarer"] == seat:
                for side in ("attack", "defence"):
                    for i in list(t[side]):
                        self.unassign(i)
                s["tactics"].remove(t)
        s["queue"] = [o for o in s["queue"] if o["controller"] != seat]
        s["frames"] = [f for f in s["frames"] if f["ctx"].get("controller") != seat]
        s["waiting"] = [w for w in s["waiting"] if w["controller"] != seat]
        s["temp"] = [t for t in s["temp"] if t["controller"] != seat]
        for iid in range(len(s["cards"])):
            c = s["cards"][iid]
            if c["owner"] == seat and c["zone"] != "gone":
                c = self.mut(iid)
                if c["zone"] == "battlefield":
                    self.unassign(c["iid"])
                if c["zone"] != "queue":
                    self.zone_list(c["iid"]).remove(c["iid"])
                c["zone"] = "gone"
                self._zw += 1  # a zone or wounded status changed (``_statics``)
                s["gone"].append(c["iid"])
        if s["pending"] is not None and s["pending"]["player"] == seat:
            s["pending"] = None
        if check:
            self.check_game_over()

    def idle_round_ends_game(self) -> bool:
        """The event rule ``idle_rounds`` (1.3.3): after that many Rounds in a row in which
        every player only passed, the game ends and, with no winner, is a draw (1.3.10)."""
        s = self.s
        idle = s["idle"]
        idle["count"] = 0 if idle["acted"] else idle["count"] + 1
        idle["acted"] = False
        if idle["count"] < idle["limit"]:
            return False
        self.end_as_draw("idle_rounds")
        return True

    def end_as_draw(self, reason: str) -> None:
        """An event rule ends the game (1.3.3); nobody has won, so it is a draw (1.3.10)."""
        s = self.s
        s["finished"] = True
        s["stage"] = "over"
        s["pending"] = None
        s["draw"] = True
        self.emit("game_over", winners=[], draw=True, reason=reason)

    def check_game_over(self) -> None:
        """1.3.9, 1.2.3, 1.2.5, 1.3.10 (AMB-34)."""
        s = self.s
        alive_teams = {p["team"] for p in s["players"] if not p["eliminated"]}
        if len(alive_teams) > 1 or s["finished"]:
            return
        s["finished"] = True
        s["stage"] = "over"
        s["pending"] = None
        if alive_teams:
            (team,) = alive_teams
            s["winners"] = sorted(s["teams"][team])
        else:
            s["draw"] = True
        self.emit("game_over", winners=s["winners"], draw=s["draw"])

    # ===================================================================================
    # triggers (6.3.7-6.3.9, 6.3.13, 6.3.14) and replacements (6.3.11, 6.3.12)
    # ===================================================================================

    def trigger(self, event: str, iid: int | None, seat: int | None) -> None:
        s = self.s
        if not s["trig"]:
            return
        lost = None
        trig = s["trig"]
        index = self._trig_index
        if index is None or index[0] is not trig or index[2] != len(trig):
            memo = self.sys._trig_memo
            index = memo.get(id(trig))
            if index is None or index[0] is not trig or index[2] != len(trig):
                by_event: dict[str, list[int]] = {}
                for src in trig:
                    for name in self.info(src).events:
                        by_event.setdefault(name, []).append(src)
                if len(memo) > 4096:
                    memo.clear()
                index = memo[id(trig)] = (trig, by_event, len(trig))
            self._trig_index = index
        for src in index[1].get(event, ()):
            c = s["cards"][src]
            if c["zone"] in ("main", "gone"):
                continue  # 6.3.9: hidden zones (AMB-29: only the Main Deck is hidden)
            info = self.info(src)
            for i in info.triggered_by.get(event, ()):
                trig = info.abilities[i]["trigger"]
                if not self.event_matches(trig, src, iid, seat):
                    continue
                if lost is None:
                    lost = self.lost_abilities()
                if not self.has_abilities(src, lost):
                    continue
                s["waiting"].append(
                    {
                        "source": src,
                        "ab": i,
                        "controller": c["owner"],
                        "ctx": {"event_card": iid, "event_player": seat},
                    }
                )

    def event_matches(self, trig: Mapping, src: int, iid: int | None, seat: int | None) -> bool:
        owner = self.s["cards"][src]["owner"]
        want = trig.get("card")
        if want == "self":
            if iid != src:
                return False
        elif want is not None and (
            iid is None
            or not self.matches(want, iid, {"controller": owner, "source": src}, any_zone=True)
        ):
            return False
        who = trig.get("player", "any")
        if who == "you" and seat != owner:
            return False
        return not (who == "opponent" and (seat is None or self.allies(owner, seat)))

    def replace(
        self, event: str, iid: int | None, seat: int | None, extra: Mapping | None = None
    ) -> bool:
        """6.3.11: replacement abilities whose replaced effect is this event; True if the
        event is replaced. AMB-31: each replacement applies at most once to one event (no
        loops), and when several apply, the owner of the affected object chooses which
        one is carried out (a pending "replacement" decision; the others do not apply to
        this event unless it happens again)."""
        s = self.s
        if not s["repl"]:
            return False
        done = s.setdefault("replacing", [])
        found: list[list[int]] = []
        for src in s["repl"]:
            c = s["cards"][src]
            if c["zone"] in ("main", "gone") or not self.has_abilities(src):
                continue
            info = self.info(src)
            for i in info.kind("replacement"):
                if f"{src}:{i}:{event}:{iid}" in done:
                    continue
                rep = info.abilities[i]["replaces"]
                if rep["event"] != event or not self.event_matches(rep, src, iid, seat):
                    continue
                found.append([src, i])
        if not found:
            return False
        if len(found) == 1:
            self.carry_out_replacement(found[0][0], found[0][1], event, iid, seat)
            return True
        # AMB-31: the affected object's owner (the player of a card-less event) decides,
        # once the effect being carried out is done (6.3.12: before anything else).
        chooser = s["cards"][iid]["owner"] if iid is not None else seat
        op = {"op": "_choose_replacement", "event": event, "iid": iid, "seat": seat}
        op["found"] = found
        s["frames"].append({"ops": [op], "ctx": {"controller": chooser}})
        return True

    def carry_out_replacement(
        self, src: int, ab: int, event: str, iid: int | None, seat: int | None
    ) -> None:
        """6.3.12: prevent the event and carry out the replacing effects at once, without
        the Queue (a frame on top of the interpreter's stack)."""
        key = f"{src}:{ab}:{event}:{iid}"
        self.s.setdefault("replacing", []).append(key)
        ctx = {
            "controller": self.s["cards"][src]["owner"],
            "source": src,
            "event_card": iid,
            "event_player": seat,
        }
        effects = self.info(src).abilities[ab]["effects"]
        self.s["frames"].append({"ops": [*effects, {"op": "_end_replace", "key": key}], "ctx": ctx})
        self.emit("replaced", source=src, event=event)

    def flush_waiting(self) -> bool:
        """Queue waiting triggers; returns False if a player must order theirs."""
        s = self.s
        waiting = s["waiting"]
        if not waiting:
            return True
        for seat in self.order_from(self.sim_start()):
            mine = [w for w in waiting if w["controller"] == seat]
            if not mine:
                continue
            distinct = {(w["source"], w["ab"]) for w in mine}
            if len(mine) > 1 and len(distinct) > 1:
                self.set_pending(
                    seat,
                    "order",
                    options=list(range(len(mine))),
                    count=1,
                    triggers=[{"source": w["source"], "ability": w["ab"]} for w in mine],
                )
                return False  # 6.3.14: the owner chooses the order
            for w in mine:
                self.enqueue_trigger(w)
                waiting.remove(w)
        for w in list(waiting):  # controllers no longer in turn order
            self.enqueue_trigger(w)
            waiting.remove(w)
        return True

    def enqueue_trigger(self, w: Mapping) -> None:
        ctx = dict(w["ctx"])
        ctx.update(controller=w["controller"], source=w["source"])
        self.s["queue"].append(
            {
                "kind": "ability",
                "source": w["source"],
                "ab": w["ab"],
                "controller": w["controller"],
                "ctx": ctx,
            }
        )

    # ===================================================================================
    # pending decisions
    # ===================================================================================

    def set_pending(self, seat: int, kind: str, **data: Any) -> None:
        s = self.s
        pending = {"id": s["next_id"], "player": seat, "kind": kind}
        s["next_id"] += 1
        pending.update(data)
        s["pending"] = pending

    # ===================================================================================
    # the interpreter (6.2, 6.3): frames of ops
    # ===================================================================================

    def run_op(self) -> None:
        s = self.s
        frame = s["frames"][-1]
        if not frame["ops"]:
            s["frames"].pop()
            return
        op = frame["ops"].pop(0)
        ctx = frame["ctx"]
        if not frame["ops"]:
            s["frames"].pop()
        self.execute(op, ctx)

    def push(self, ops: list, ctx: Mapping) -> None:
        self.s["frames"].append({"ops": list(ops), "ctx": dict(ctx)})

    def ask(self, op: Mapping, ctx: Mapping, seat: int, options: list, count: int, **kw):
        """Suspend ``op`` until ``seat`` picks from ``options`` (an effect's choice)."""
        self.set_pending(
            seat, "choose", options=options, count=count, op=dict(op), ctx=dict(ctx), **kw
        )

    def select(self, op: Mapping, ctx: Mapping, key: str = "target") -> list[int] | None:
        """Resolve the selector of ``op``; None if a choice is now pending."""
        sel = op[key]
        kind = sel["select"]
        if kind == "self":
            src = ctx.get("source")
            return [src] if src is not None else []
        if kind == "event_card":
            ev = ctx.get("event_card")
            return [ev] if ev is not None else []
        if "_picks" in op:
            return list(op["_picks"])
        flt = sel.get("filter", _NO_FILTER)
        found = self.matching(flt, ctx)
        if kind == "all":
            return found
        count = self.amount(sel.get("count", 1), ctx)
        if kind == "random":
            found = list(found)
            rng.shuffle(self.s["rng"], found)
            return found[:count]
        me = ctx.get("controller")
        found = [
            i
            for i in found
            if self.s["cards"][i]["owner"] == me or not self.prohibited("be_targeted", iid=i)
        ]
        optional = bool(sel.get("optional"))
        if not found or count <= 0:
            return []
        if len(found) <= count and not optional:
            return found  # no real choice
        self.ask(op, ctx, me, found, min(count, len(found)), optional=optional)
        return None

    def execute(self, op: Mapping, ctx: dict) -> None:
        self._ver += 1
        name = op["op"]
        handler = getattr(self, "op_" + name.lstrip("_"), None)
        if handler is not None and self._deferred is None:
            self._deferred = []
            try:
                self.execute_op(handler, op, ctx)
            finally:
                deferred, self._deferred = self._deferred, None
            self.eliminate_many(deferred)
            return
        self.execute_op(handler, op, ctx)

    def execute_op(self, handler, op: Mapping, ctx: dict) -> None:
        name = op["op"]
        if handler is None:
            raise EngineBug(f"op {name!r} is not implemented")
        # Player words that need a choice first (choose_opponent).
        if op.get("player") == "choose_opponent" and "_player" not in ctx:
            options = self.opponents(ctx["controller"])
            if len(options) > 1:
                self.set_pending(
                    ctx["controller"],
                    "choose",
                    options=options,
                    count=1,
                    op=dict(op),
                    ctx=dict(ctx),
                    pick="player",
                )
                return
            ctx = dict(ctx, _player=options[0] if options else None)
            if options == []:
                return
        handler(op, ctx)

    # -- dynamic ops (engine.voskhozhdenie.effects.DYNAMIC_OPS) --------------------------------

    def op_draw(self, op, ctx):
        n = self.amount(op["count"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            self.draw(seat, n)

    def draw(self, seat: int, n: int) -> int:
        """1.4.5.2.1 / 1.4.5.6.1: top of the Main Deck to the Hand; as many as possible
        (6.2.2, AMB-16)."""
        p = self.player(seat)
        drawn = 0
        for _ in range(n):
            if not p["main"] or p["eliminated"] or self.prohibited("draw", seat=seat):
                break
            iid = p["main"][0]
            if self.replace("drawn", iid, seat):
                continue
            self.move(iid, "hand")
            drawn += 1
            self.trigger("drawn", iid, seat)
        if drawn:
            self.emit("draw", player=seat, count=drawn)
        return drawn

    def op_discard(self, op, ctx):
        n = self.amount(op["count"], ctx)
        if "_player_one" in op:
            seats = [op["_player_one"]]
        else:
            seats = self.players_word(op.get("player"), ctx)
        if "_picks" in op:
            for iid in op["_picks"]:
                self.discard(iid)
            return
        for k, seat in enumerate(seats):
            hand = self.player(seat)["hand"]
            if not hand or n <= 0:
                continue
            if op.get("random"):
                cards = list(hand)
                rng.shuffle(self.s["rng"], cards)
                for iid in cards[:n]:
                    self.discard(iid)
            elif len(hand) <= n:
                for iid in list(hand):
                    self.discard(iid)
            else:
                rest = [dict(op, _player_one=q) for q in seats[k + 1 :]]
                if rest:  # the others discard after this choice
                    self.push(rest, ctx)
                self.set_pending(
                    seat,
                    "choose",
                    options=list(hand),
                    count=n,
                    op=dict(op),
                    ctx=dict(ctx),
                )
                return

    def discard(self, iid: int) -> None:
        c = self.s["cards"][iid]
        seat = c["owner"]
        if self.replace("discarded", iid, seat):
            return
        self.move(iid, "graveyard")
        self.emit("discard", player=seat, iid=iid, card=c["card"])
        self.trigger("discarded", iid, seat)

    def op_mill(self, op, ctx):
        n = self.amount(op["count"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            main = self.player(seat)["main"]
            for iid in main[:n]:
                self.move(iid, "graveyard")
                self.emit("mill", player=seat, iid=iid, card=self.s["cards"][iid]["card"])

    def op_gain_coins(self, op, ctx):
        n = self.amount(op["amount"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            self.player(seat)["coins"] += max(0, n)

    def op_lose_coins(self, op, ctx):
        n = self.amount(op["amount"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            p = self.player(seat)
            p["coins"] = max(0, p["coins"] - max(0, n))

    def op_change_supply(self, op, ctx):
        n = self.amount(op["amount"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            p = self.player(seat)
            p["supply"] = max(0, p["supply"] + n)

    def op_wound(self, op, ctx):
        targets = self.select(op, ctx)
        if targets is None:
            return
        n = self.amount(op["amount"], ctx)
        for iid in targets:
            self.wound(iid, n, ctx)

    def op_heal(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.heal(iid)

    def op_restore(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.restore(iid)

    def op_destroy(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.destroy(iid)

    def _to_zone(self, op, ctx, dest: str, bottom: bool = True):
        targets = self.select(op, ctx)
        for iid in targets or ():
            if self.s["cards"][iid]["zone"] not in ("gone", "queue", dest):
                self.move(iid, dest, bottom=bottom)

    def op_exile(self, op, ctx):
        self._to_zone(op, ctx, "oblivion")

    def op_return_to_hand(self, op, ctx):
        self._to_zone(op, ctx, "hand")

    def op_to_bottom_of_deck(self, op, ctx):
        self._to_zone(op, ctx, "main")

    def op_return_from_graveyard(self, op, ctx):
        targets = self.select(op, ctx)
        for iid in targets or ():
            if self.s["cards"][iid]["zone"] == "graveyard":
                self.move(iid, "hand")

    def op_unassign(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            self.unassign(iid)

    def op_create_minor(self, op, ctx):
        n = self.amount(op.get("count", 1), ctx)
        for seat in self.players_word(op.get("player"), ctx):
            for _ in range(n):
                iid = self.new_instance(op["card"], seat, "limbo")
                c = self.mut(iid)  # new: already this state's own
                c["zone"] = "battlefield"
                self._zw += 1  # a zone or wounded status changed (``_statics``)
                self.s["battlefield"].append(iid)
                c["entered"] = self.s["round"]
                self.emit("created", iid=iid, card=op["card"], player=seat)
                self.trigger("enters_battlefield", iid, seat)

    def _temp(self, kind: str, value: Any, op, ctx):
        self._ver += 1
        targets = self.select(op, ctx)
        if targets is None:
            return
        entry = {
            "kind": kind,
            "iids": list(targets),
            "duration": op.get("duration", "turn"),
            "controller": ctx.get("controller"),
        }
        entry["amount" if kind == "strength" else "keyword"] = value
        self.s["temp"].append(entry)

    def op_modify_strength(self, op, ctx):
        self._temp("strength", self.amount(op["amount"], ctx), op, ctx)

    def op_grant_keyword(self, op, ctx):
        self._temp("keyword", op["keyword"], op, ctx)

    def op_play_free(self, op, ctx):
        for iid in self.select(op, ctx) or ():
            c = self.s["cards"][iid]
            if c["zone"] in ("battlefield", "queue", "gone") or self.card(iid).cost is None:
                continue  # 2.1.2.1: no Cost, cannot be played (AMB-19)
            defender = None
            if self.card(iid).type == "tactic" and "confrontation" in self.card(iid).subtypes:
                opp = self.opponents(ctx["controller"])
                if not opp:
                    continue
                defender = opp[0]
            self.play(ctx["controller"], iid, x=0, defender=defender, pay=False)

    def op_look_at_top(self, op, ctx):
        """The player looks at the top cards of their Main Deck: the event tells everyone
        how many; the cards themselves appear in that player's view only ("looked")."""
        n = self.amount(op["count"], ctx)
        for seat in self.players_word(op.get("player"), ctx):
            p = self.player(seat)
            p["looked"] = p["main"][: max(0, n)]  # replaced, never changed in place
            self.emit("look_at_top", player=seat, count=min(n, len(p["main"])))

    def op_choose_one(self, op, ctx):
        if "_picks" in op:
            self.push(op["options"][op["_picks"][0]], ctx)
            return
        self.ask(op, ctx, ctx["controller"], list(range(len(op["options"]))), 1)

    def op_if(self, op, ctx):
        branch = op["then"] if self.condition(op["condition"], ctx) else op.get("else")
        if branch:
            self.push(branch, ctx)

    def op_repeat(self, op, ctx):
        times = self.amount(op["times"], ctx)
        if times > 0:
            self.push(list(op["effects"]) * times, ctx)

    # -- internal ops ------------------------------------------------------------------

    def op_choose_replacement(self, op, ctx):
        """AMB-31: ask the affected object's owner which replacement is carried out."""
        found = op["found"]
        self.set_pending(
            ctx["controller"],
            "replacement",
            options=list(range(len(found))),
            count=1,
            event=op["event"],
            iid=op["iid"],
            event_player=op["seat"],
            replacements=[{"source": src, "ability": ab} for src, ab in found],
        )

    def op_end_replace(self, op, ctx):
        done = self.s.get("replacing", [])
        if op["key"] in done:
            done.remove(op["key"])
        if not done:
            self.s.pop("replacing", None)

    def op_finish_order(self, op, ctx):
        """6.4.3: after its dynamic abilities, an Order goes to its owner's Graveyard."""
        iid = op["iid"]
        c = self.s["cards"][iid]
        self.s["queue"] = [
            o for o in self.s["queue"] if not (o["kind"] == "card" and o["iid"] == iid)
        ]
        if c["zone"] == "queue":
            self.mut(iid)["zone"] = "graveyard"
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            self.s["players"][c["owner"]]["graveyard"].append(iid)

    # ===================================================================================
    # playing cards (6.4) and the Queue (6.5)
    # ===================================================================================

    def play(
        self, seat: int, iid: int, x: int = 0, defender: int | None = None, pay: bool = True
    ) -> None:
        """6.4.2: reveal, pay, enter the Queue, trigger "played"."""
        s = self.s
        c = self.mut(iid)
        card = self.card(iid)
        if pay:
            price = self.cost(iid) + (x if card.cost is not None and card.cost.x else 0)
            self.player(seat)["coins"] -= price  # 6.4.2.2 (checked by validate)
        self.zone_list(iid).remove(iid)
        c["zone"] = "queue"
        self._zw += 1  # a zone or wounded status changed (``_statics``)
        s["queue"].append(
            {"kind": "card", "iid": iid, "controller": seat, "x": x, "defender": defender}
        )
        self.emit("played", player=seat, iid=iid, card=c["card"])
        if card.type == "tactic":
            # 5.6.4: Tactics resolve in the order they were played.
            s["tactics"].append(
                {
                    "id": s["next_id"],
                    "iid": iid,
                    "declarer": seat,
                    "defender": defender,
                    "battle": "battle" in card.subtypes,
                    "ready": False,
                    "attack": [],
                    "defence": [],
                }
            )
            s["next_id"] += 1
            self.trigger("tactic_declared", iid, seat)
        self.trigger("played", iid, seat)  # 6.4.2.4

    def resolve_head(self) -> None:
        """6.5.2: resolve the object at the start of the Queue."""
        self._ver += 1
        s = self.s
        obj = s["queue"][0]
        if obj.get("resolving"):  # its effects ended early (e.g. the owner was eliminated)
            self.op_finish_order({"iid": obj["iid"]}, {})
            return
        if obj["kind"] == "card" and self.card(obj["iid"]).type == "order":
            obj["resolving"] = True  # stays at the head of the Queue until carried out
        else:
            s["queue"].pop(0)
        if obj["kind"] == "card":
            iid = obj["iid"]
            info = self.info(iid)
            if self.card(iid).type == "order":
                # 6.4.3, 6.3.1.1: carry out the dynamic abilities, then to the Graveyard.
                ctx = {
                    "controller": obj["controller"],
                    "source": iid,
                    "x": obj.get("x", 0),
                    "defender": obj.get("defender"),
                }
                ops: list = []
                for i in info.kind("dynamic"):
                    ops.extend(info.abilities[i]["effects"])
                ops.append({"op": "_finish_order", "iid": iid})
                self.push(ops, ctx)
                self.emit("resolved", iid=iid)
                return
            c = self.mut(iid)
            c["zone"] = "limbo"
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            s["battlefield"].append(iid)
            c["zone"] = "battlefield"
            self._zw += 1  # a zone or wounded status changed (``_statics``)
            c["entered"] = s["round"]
            for t in s["tactics"]:
                if t["iid"] == iid:
                    t["ready"] = True
            self.emit("resolved", iid=iid)
            self.trigger("enters_battlefield", iid, c["owner"])
            return
        # An ability copy (6.3.2, 6.3.3).
        src = obj["source"]
        info = self.info(src)
        ability = info.abilities[obj["ab"]]
        if self.s["cards"][src]["zone"] in HIDDEN_ZONES:
            # 1.4.2.6, 1.4.2.7: a card in a Hand or Main Deck stays unnamed to the table
            # (its id and ability number would tell which card it is); its effects show.
            self.emit("ability_resolved", source=None, ability=None, player=obj["controller"])
        else:
            self.emit("ability_resolved", source=src, ability=obj["ab"])
        self.push(ability["effects"], obj["ctx"])

    # ===================================================================================
    # the flow (5.1-5.8)
    # ===================================================================================

    def advance(self) -> None:
        s = self.s
        for _ in range(100000):
            if s["finished"] or s["pending"] is not None:
                return
            if s["waiting"] and not self.flush_waiting():
                return
            if s["frames"]:
                self.run_op()
                continue
            if "replacing" in s:
                del s["replacing"]  # no replacement is being carried out any more
            if s["queue"]:
                self.resolve_head()  # 5.7: nothing else happens until it is empty
                continue
            if not self.step():
                return
        raise EngineBug("the game did not reach a decision in 100000 steps")

    def goto(self, step: str) -> None:
        self.s["step"] = step
        self.s["idx"] = 0
        self.s["flag"] = False
        self.emit("step", step=step, round=self.s["round"])

    def step(self) -> bool:
        """Perform one automatic step; False when a player must act."""
        self._ver += 1
        s = self.s
        step = s["step"]
        # the most frequent steps first
        if step == "turn_start":
            self.trigger("turn_start", None, s["active"])  # 5.6.3.1
            s["step"] = "action"
            return True
        if step == "action":
            if self.player(s["active"])["eliminated"] or self.player(s["active"])["passed"]:
                s["step"] = "turn_end"
                return True
            return False  # the active player acts
        if step == "turn_end":
            if not s["flag"]:
                s["flag"] = True
                self.trigger("turn_end", None, s["active"])  # 5.6.3.3
                return True
            if s["temp"]:
                s["temp"] = [t for t in s["temp"] if t["duration"] != "turn"]
            if any(k.startswith("t:") for k in s["used"]):
                s["used"] = {k: v for k, v in s["used"].items() if not k.startswith("t:")}
            self.next_turn()
            return True
        if step == "initiative":
            self.initiative()
            return True
        if step == "mulligan":
            order = s["turn_order"]
            while s["idx"] < len(order) and self.player(order[s["idx"]])["eliminated"]:
                s["idx"] += 1
            if s["idx"] < len(order):
                self.set_pending(order[s["idx"]], "mulligan")
                return True
            s["stage"] = "pregame"
            self.goto("pregame")
            return True
        if step == "pregame":
            # 5.5: start-of-game effects trigger, then Supply values are set.
            self.trigger("game_start", None, None)
            self.goto("pregame_supply")
            return True
        if step == "pregame_supply":
            for p in s["players"]:
                p["supply"] = self.city_supply(p["seat"])
            s["stage"] = "rounds"
            self.new_round()
            return True
        if step == "draw":
            return self.draw_step()
        if step == "coin":
            for seat in self.order_from(self.sim_start()):
                p = self.player(seat)
                if not p["eliminated"]:
                    p["coins"] += self.supply(seat)  # 5.6.1.2
            self.goto("round_start")
            return True
        if step == "round_start":
            self.trigger("round_start", None, None)  # 5.6.1.3
            self.goto("decree")
            return True
        if step == "decree":
            return self.decree_step()
        if step == "tactics":
            self.tactic_step()
            return True
        if step == "round_end":
            if not s["flag"]:
                s["flag"] = True
                self.trigger("round_end", None, None)  # 5.6.5.1
                return True
            s["temp"] = [t for t in s["temp"] if t["duration"] not in ("turn", "round")]
            if "idle" in s and self.idle_round_ends_game():
                return True
            if s.get("round_limit") is not None and s["round"] >= s["round_limit"]:
                self.end_as_draw("round_limit")
                return True
            self.new_round()
            return True
        raise EngineBug(f"unknown step {step!r}")

    def city_supply(self, seat: int, skip_ruined: bool = False) -> int:
        """5.5: the Supply symbols on all of a player's Cities."""
        s = self.s
        return sum(
            self.card(i).supply
            for i in s["battlefield"]
            if s["cards"][i]["owner"] == seat
            and self.card(i).type == "city"
            and not (skip_ruined and s["cards"][i]["ruined"])
        )

    def initiative(self) -> None:
        """5.3, AMB-13: everyone rolls; tied highest players re-roll among themselves."""
        s = self.s
        count, sides = s["dice"]
        rolling = self.alive()
        rolls: dict[int, int] = {}
        while True:
            rolls = {seat: rng.roll(s["rng"], count, sides) for seat in rolling}
            s["initiative"].append([[seat, v] for seat, v in rolls.items()])  # public record
            self.emit("initiative", rolls={str(k): v for k, v in rolls.items()})
            best = max(rolls.values())
            rolling = [seat for seat, v in rolls.items() if v == best]
            if len(rolling) == 1:
                break
        self.set_pending(rolling[0], "first_player", options=self.alive())
        s["step"] = "first_player"

    def set_turn_order(self, first: int) -> None:
        """5.3.1 / 5.3.2 / AMB-14."""
        s = self.s
        n = s["n"]
        seating = [(first + k) % n for k in range(n)]
        if all(len(team) == 1 for team in s["teams"]):
            s["turn_order"] = seating
            return
        team_of = {seat: s["players"][seat]["team"] for seat in range(n)}
        team_order: list[int] = []
        for seat in seating:
            if team_of[seat] not in team_order:
                team_order.append(team_of[seat])
        lanes = []
        for t in team_order:
            members = list(s["teams"][t])
            if first in members:
                k = members.index(first)
                members = members[k:] + members[:k]
            lanes.append(members)
        order = []
        for k in range(max(len(lane) for lane in lanes)):
            for lane in lanes:
                if k < len(lane):
                    order.append(lane[k])
        s["turn_order"] = order

    def new_round(self) -> None:
        s = self.s
        options = s["options"]
        if options["coins_reset"] and s["round"] >= 1:
            for p in s["players"]:
                p["coins"] = 0  # AMB-17 option
        s["round"] += 1
        for p in s["players"]:
            p["passed"] = p["eliminated"]
            if options["supply_recompute"] and s["round"] > 1:
                p["supply"] = self.city_supply(p["seat"], skip_ruined=True)  # AMB-18 option
        s["used"] = {k: v for k, v in s["used"].items() if not k.startswith(("r:", "t:", "d:"))}
        self.emit("round", round=s["round"])
        self.goto("draw")

    def draw_step(self) -> bool:
        """5.6.1.1 with AMB-15: draw exactly 1 below Supply; discard down above it."""
        s = self.s
        order = [q for q in s["turn_order"] if not self.player(q)["eliminated"]]
        while s["idx"] < len(order):
            seat = order[s["idx"]]
            p = self.player(seat)
            supply = self.supply(seat)
            if len(p["hand"]) < supply and not s["flag"]:
                self.draw(seat, 1)
                s["idx"] += 1
                continue
            if len(p["hand"]) > supply:
                s["flag"] = True  # discarding: no draw for this player
                self.set_pending(seat, "discard_down", options=list(p["hand"]))
                return True
            s["flag"] = False
            s["idx"] += 1
        self.goto("coin")
        return True

    def available_decrees(self, seat: int) -> list[dict]:
        """AMB-02: a Decree whose condition holds, on the Battlefield, not yet issued this
        Decree phase."""
        s = self.s
        key = (self._ver, len(s["cards"]), len(s["battlefield"]), len(s["used"]))
        hit = self._cache.get(f"decrees:{seat}")
        if hit is not None and hit[0] == key:
            return hit[1]
        out = []
        cards = s["cards"]
        infos = self.sys._infos
        for iid in s["battlefield"]:
            c = cards[iid]
            if c["owner"] != seat:
                continue
            try:
                info = infos[c["card"]]
            except KeyError:
                info = self.sys.info(c["card"])
            for i in info.decrees:
                if f"d:{iid}:{i}" in s["used"] or not self.has_abilities(iid):
                    continue
                ctx = {"controller": seat, "source": iid}
                if self.condition(info.abilities[i]["condition"], ctx):
                    out.append({"type": "decree", "iid": iid, "ability": i})
        self._cache[f"decrees:{seat}"] = (key, out)
        return [dict(a) for a in out]

    def decree_step(self) -> bool:
        """5.6.2 / AMB-02: one Decree each, from the first player, until a full pass over
        the players issues none."""
        s = self.s
        order = s["turn_order"]
        while True:
            if s["idx"] >= len(order):
                if s["flag"]:
                    s["idx"] = 0
                    s["flag"] = False
                    continue
                self.start_actions()
                return True
            seat = order[s["idx"]]
            if not self.player(seat)["eliminated"] and self.available_decrees(seat):
                self.set_pending(seat, "decree")
                return True
            s["idx"] += 1

    def start_actions(self) -> None:
        s = self.s
        first = next((q for q in s["turn_order"] if not self.player(q)["eliminated"]), None)
        s["active"] = first
        self.goto("turn_start")

    def next_turn(self) -> None:
        """5.6.3 / AMB-26: the next player who has not passed; else Tactic Resolution."""
        s = self.s
        order = self.order_from(s["active"])
        consecutive = s["options"]["passing"] == "consecutive"
        everyone_passed = all(p["passed"] or p["eliminated"] for p in s["players"])
        for seat in order[1:] + order[:1]:
            p = self.player(seat)
            if p["eliminated"]:
                continue
            if not p["passed"] or (consecutive and not everyone_passed):
                s["active"] = seat
                self.goto("turn_start")
                return
        s["active"] = None
        s["tr"] = {"sub": "choose"}
        self.goto("tactics")

    def tactic_step(self) -> None:
        """5.6.4: each Tactic in the order played: 1-2 choose, 3 outcome, 4 others,
        5 unassign, 6 to the Graveyard."""
        s = self.s
        ready = [t for t in s["tactics"] if t["ready"]]
        if not ready:
            s["tactics"] = []
            s["tr"] = None
            self.goto("round_end")
            return
        t = ready[0]
        if s["tr"].get("tactic") != t["id"]:
            s["tr"] = {"sub": "choose", "tactic": t["id"]}
        sub = s["tr"]["sub"]
        if sub == "choose":
            attack, defence = self.side_totals(t)
            s["tr"]["sub"] = "outcome"
            if attack > defence and not self.player(t["declarer"])["eliminated"]:
                options = self.tactic_targets(t)
                sup = self.superiority(t)
                if options or sup:
                    self.set_pending(
                        t["declarer"],
                        "tactic",
                        tactic=t["id"],
                        amount=attack - defence,
                        options=options,
                        superiority=sup,
                    )
            return
        if sub == "outcome":
            attack, defence = self.side_totals(t)
            s["tr"]["sub"] = "others"
            result = "win" if attack > defence else "lose" if attack < defence else "tie"
            s["tr"]["result"] = result
            if t["iid"] is not None and self.has_abilities(t["iid"]):
                info = self.info(t["iid"])
                for i in info.kind("outcome"):  # 5.6.4.3: trigger simultaneously
                    if info.abilities[i]["result"] in (result, "any"):
                        s["waiting"].append(
                            {
                                "source": t["iid"],
                                "ab": i,
                                "controller": t["declarer"],
                                "ctx": {
                                    "event_card": t["iid"],
                                    "event_player": t["declarer"],
                                    "defender": t["defender"],
                                },
                            }
                        )
            return
        if sub == "others":
            s["tr"]["sub"] = "cleanup"
            if t["iid"] is not None:
                self.trigger("tactic_resolved", t["iid"], t["declarer"])  # 5.6.4.4
            return
        # 5.6.4.5 / 5.6.4.6
        for side in ("attack", "defence"):
            for iid in list(t[side]):
                self.unassign(iid)
        s["tactics"].remove(t)
        if t["iid"] is not None and s["cards"][t["iid"]]["zone"] == "battlefield":
            self.move(t["iid"], "graveyard")
        self.emit("tactic_resolved", tactic=t["id"], result=s["tr"].get("result"))
        s["tr"] = {"sub": "choose"}

    def side_totals(self, t: Mapping) -> tuple[int, int]:
        """5.6.4.1, AMB-25: the current Strength of the Squads on each side."""
        strength = self.strength
        attack = 0
        for i in t["attack"]:
            attack += strength(i) or 0
        defence = 0
        for i in t["defence"]:
            defence += strength(i) or 0
        return attack, defence

    def tactic_targets(self, t: Mapping) -> list[int]:
        """5.6.4.2.1, AMB-25, CK-118: a Squad in this Tactic, a Squad in no Tactic, or a
        non-ruined City of the defender."""
        s = self.s
        out = []
        for iid in s["battlefield"]:
            c = s["cards"][iid]
            kind = self.card(iid).type
            if (kind == "squad" and (c["tactic"] is None or c["tactic"] == t["id"])) or (
                kind == "city"
                and t["defender"] is not None
                and c["owner"] == t["defender"]
                and not c["ruined"]
            ):
                out.append(iid)
        return out

    def superiority(self, t: Mapping) -> bool:
        if t["iid"] is None or not self.has_abilities(t["iid"]):
            return False
        return bool(self.info(t["iid"]).kind("superiority"))

    # ===================================================================================
    # actions: candidates (for legal_actions), validation, performing
    # ===================================================================================

    def candidates(self, seat: int) -> list[Action]:
        s = self.s
        pending = s["pending"]
        if pending is not None:
            kind = pending["kind"]
            if kind == "first_player":
                return [{"type": "first_player", "seat": q} for q in pending["options"]]
            if kind == "mulligan":
                hand = self.player(seat)["hand"]
                return [{"type": "keep"}] + [{"type": "mulligan", "iid": i} for i in hand]
            if kind == "discard_down":
                return [{"type": "discard", "iid": i} for i in pending["options"]]
            if kind == "decree":
                return [*self.available_decrees(seat), {"type": "decline"}]
            if kind == "tactic":
                out = [{"type": "tactic_wound", "target": i} for i in pending["options"]]
                if pending["superiority"]:
                    out.append({"type": "superiority"})
                return [*out, {"type": "decline"}]
            if kind in ("choose", "order", "replacement"):
                options = pending["options"]
                count = min(pending["count"], len(options))
                combos = itertools.islice(itertools.combinations(options, count), MAX_COMBOS)
                out = [
                    {"type": "choose", "choice_id": pending["id"], "picks": list(c)} for c in combos
                ]
                if pending.get("optional"):
                    out.append({"type": "choose", "choice_id": pending["id"], "picks": []})
                return out
            return []
        out: list[Action] = [{"type": "pass"}]
        trusted = self._trusted = []
        p = self.player(seat)
        opponents = self.opponents(seat)
        # Playing and declaring (6.4.2, 5.6.3.2.2, 5.6.3.2.4): checked here once per card
        # (the same checks as ``validate``; a test compares both paths).
        fast = self._fast
        target = trusted if fast else out
        can_declare = not self.prohibited("declare_tactic", seat=seat)
        can_orders = not self.prohibited("play_orders", seat=seat)
        coins = p["coins"]
        for zone in ("hand", "reinforcement"):
            for iid in p[zone]:
                card = self.card(iid)
                kind = card.type
                if kind == "city" or (kind == "tactic" and zone != "hand"):
                    continue
                if fast:
                    if card.cost is None or self.cost(iid) > coins:
                        continue
                    if kind == "tactic" and not can_declare:
                        continue
                    if kind == "order" and not can_orders:
                        continue
                xs = self.x_options(iid, seat)
                if kind != "tactic":
                    target.extend(self._with_x({"type": "play", "iid": iid}, x) for x in xs)
                elif "confrontation" in card.subtypes:
                    for q in opponents:
                        target.extend(
                            self._with_x({"type": "declare", "iid": iid, "target": q}, x)
                            for x in xs
                        )
                else:
                    target.extend(self._with_x({"type": "declare", "iid": iid}, x) for x in xs)
        for q in opponents:
            out.append({"type": "direct_attack", "target": q})
        ready = [t for t in s["tactics"] if t["ready"]]
        if ready:
            for iid in s["battlefield"]:
                c = s["cards"][iid]
                if c["owner"] == seat and self.card(iid).type == "squad" and c["tactic"] is None:
                    try:
                        self.check_assignable(seat, iid)
                    except IllegalAction:
                        continue
                    for t in ready:  # checked once per Squad: no need to validate again
                        trusted.extend(
                            {"type": "assign", "iid": iid, "tactic": t["id"], "side": side}
                            for side in ("attack", "defence")
                        )
        for iid in s["battlefield"]:
            if s["cards"][iid]["owner"] != seat:
                continue
            info = self.info(iid)
            for i in info.kind("activated"):
                out.append(self.activation(iid, i, seat))
        return out

    def action_phase_actions(self, seat: int) -> list[Action]:
        """``legal_actions`` in the Actions phase: the candidates of ``candidates`` in the
        same order, each checked once here with the checks of ``validate`` (the caller
        made sure that ``seat`` is the active player and the Queue is empty; a test
        compares this with validating every candidate)."""
        s = self.s
        cards = s["cards"]
        infos = self.sys._infos
        p = s["players"][seat]
        out: list[Action] = [{"type": "pass"}]
        opponents = self.opponents(seat)
        cannot = bool(self.static_ops("cannot"))  # any prohibition at all (1.1.3)?
        can_declare = not (cannot and self.prohibited("declare_tactic", seat=seat))
        if opponents and can_declare:  # 5.6.3.2.2.2
            existing = sum(1 for t in s["tactics"] if t["iid"] is None)
            if existing < self.max_direct_attacks():
                out.extend({"type": "direct_attack", "target": q} for q in opponents)
        ready = [t["id"] for t in s["tactics"] if t["ready"]]
        used = s["used"]
        squads = []  # Squads that may be assignable (checked below)
        for iid in s["battlefield"]:
            c = cards[iid]
            if c["owner"] != seat:
                continue
            try:
                info = infos[c["card"]]
            except KeyError:
                info = self.sys.info(c["card"])
            if ready and c["tactic"] is None and not c["wounded"] and info.card.type == "squad":
                squads.append(iid)
            for i in info.activated:  # own card, on the Battlefield, its ability
                pay = info.pay_only.get(i)
                if pay is not None:  # the checks of activation_error for a coin cost
                    if not self.has_abilities(iid):
                        continue
                    limit = pay[1]
                    if limit and f"{limit[0]}:{iid}:{i}" in used:
                        continue
                    if p["coins"] < pay[0]:
                        continue
                    out.append({"type": "activate", "iid": iid, "ability": i})
                    continue
                action = self.activation(iid, i, seat)
                if self.activation_error(seat, iid, i, action) is None:
                    out.append(action)
        # Playing and declaring (6.4.2, 5.6.3.2.2, 5.6.3.2.4).
        can_orders = not (cannot and self.prohibited("play_orders", seat=seat))
        coins = p["coins"]
        cost_ops = self.static_ops("cost")
        for zone in ("hand", "reinforcement"):
            for iid in p[zone]:
                try:
                    card = infos[cards[iid]["card"]].card
                except KeyError:
                    card = self.info(iid).card
                kind = card.type
                if kind == "city" or (kind == "tactic" and zone != "hand"):
                    continue
                printed = card.cost
                if printed is None:
                    continue
                cost = self.cost(iid) if cost_ops else max(0, card.cost_value)
                if cost > coins:
                    continue
                if kind == "tactic":
                    if not can_declare:
                        continue
                elif kind == "order" and not can_orders:
                    continue
                if not printed.x:
                    if kind != "tactic":
                        out.append({"type": "play", "iid": iid})
                    elif "confrontation" in card.subtypes:
                        out.extend({"type": "declare", "iid": iid, "target": q} for q in opponents)
                    else:
                        out.append({"type": "declare", "iid": iid})
                    continue
                xs = range(0, max(0, min(coins - cost, 10)) + 1)
                if kind != "tactic":
                    out.extend(self._with_x({"type": "play", "iid": iid}, x) for x in xs)
                elif "confrontation" in card.subtypes:
                    for q in opponents:
                        out.extend(
                            self._with_x({"type": "declare", "iid": iid, "target": q}, x)
                            for x in xs
                        )
                else:
                    out.extend(self._with_x({"type": "declare", "iid": iid}, x) for x in xs)
        # Assigning (5.6.3.2.3): each Squad checked once, for every (Tactic, side).
        if squads:
            may_assign = not (cannot and self.prohibited("assign", seat=seat))
            rnd = s["round"]
            for iid in squads:
                if cards[iid]["entered"] == rnd and not self.has_keyword(iid, "zeal"):
                    continue
                if not may_assign or (cannot and self.prohibited("be_assigned", iid=iid)):
                    continue
                for tid in ready:
                    out.append({"type": "assign", "iid": iid, "tactic": tid, "side": "attack"})
                    out.append({"type": "assign", "iid": iid, "tactic": tid, "side": "defence"})
        return out

    @staticmethod
    def _with_x(action: dict, x: int | None) -> dict:
        if x is not None:
            action["x"] = x
        return action

    def x_options(self, iid: int, seat: int) -> list[int | None]:
        card = self.card(iid)
        if card.cost is None or not card.cost.x:
            return [None]
        spare = self.player(seat)["coins"] - self.cost(iid)
        return list(range(0, max(0, min(spare, 10)) + 1))

    def activation(self, iid: int, ab: int, seat: int) -> dict:
        """An activate action with concrete cost choices (first cards that fit)."""
        action: dict = {"type": "activate", "iid": iid, "ability": ab}
        ability = self.info(iid).abilities[ab]
        for cost in ability["cost"]:
            if cost["op"] == "discard":
                n = self.amount(cost["count"], {"controller": seat})
                action["discard"] = list(self.player(seat)["hand"][:n])
            elif cost["op"] == "sacrifice":
                ctx = {"controller": seat, "source": iid}
                if cost["target"]["select"] == "self":
                    action["sacrifice"] = iid
                else:  # the first card that fits
                    flt = _with_owner(cost["target"].get("filter", _NO_FILTER), "you")
                    found = self.prefilter(flt, ctx, self.zone_candidates(flt, ctx), False)
                    action["sacrifice"] = next(
                        (i for i in found if self.matches(flt, i, ctx)), None
                    )
        return action

    def validate(self, seat: int, action: Mapping) -> None:
        """Raise IllegalAction (with the rule) unless ``action`` is legal for ``seat``."""
        s = self.s
        kind = action.get("type")
        pending = s["pending"]
        if pending is not None:
            self.validate_pending(seat, action, pending)
            return
        if s["step"] != "action" or s["active"] != seat:
            raise NotYourTurn("It is not your turn.", "5.6.3")
        if s["queue"] or s["frames"] or s["waiting"]:
            raise IllegalAction("The Queue must be empty before anyone acts.", "5.7")
        p = self.player(seat)
        if kind == "pass":
            return
        if kind in ("declare", "play"):
            iid = self.own_card(action, seat)
            c = s["cards"][iid]
            card = self.card(iid)
            if kind == "declare":
                if card.type != "tactic":
                    raise IllegalAction("Only a Tactic can be declared.", "5.6.3.2.2")
                if c["zone"] != "hand":
                    raise IllegalAction("You declare Tactics from your hand.", "5.6.3.2.2")
                if self.prohibited("declare_tactic", seat=seat):
                    raise IllegalAction("An effect forbids you to declare Tactics.", "1.1.3")
                if "confrontation" in card.subtypes:
                    target = action.get("target")
                    if target not in self.opponents(seat):
                        raise IllegalAction(
                            "A Confrontation is declared against exactly one opponent.",
                            "5.6.3.2.2.1",
                        )
            else:
                if card.type == "tactic":
                    raise IllegalAction("Tactics are declared, not played.", "5.6.3.2.2")
                if c["zone"] not in ("hand", "reinforcement"):
                    raise IllegalAction(
                        "You can play cards from your hand or Reinforcement Deck.", "5.6.3.2.4"
                    )
                if card.type == "order" and self.prohibited("play_orders", seat=seat):
                    raise IllegalAction("An effect forbids you to play Orders.", "1.1.3")
            if card.cost is None:
                raise IllegalAction("A card without a Cost cannot be played.", "2.1.2.1")
            x = action.get("x", 0) if card.cost.x else 0
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                raise IllegalAction("X must be a whole number of at least 0.", "2.1.2.2")
            if self.cost(iid) + x > p["coins"]:
                raise IllegalAction("You do not have enough coins to pay the cost.", "6.4.2.2")
            return
        if kind == "direct_attack":
            if action.get("target") not in self.opponents(seat):
                raise IllegalAction(
                    "A Direct Attack is made against exactly one opponent.", "5.6.3.2.2.1"
                )
            existing = sum(1 for t in s["tactics"] if t["iid"] is None)
            if existing >= self.max_direct_attacks():
                raise IllegalAction(
                    "There are already as many Direct Attacks as non-eliminated players + 1.",
                    "5.6.3.2.2.2",
                )
            if self.prohibited("declare_tactic", seat=seat):
                raise IllegalAction("An effect forbids you to declare Tactics.", "1.1.3")
            return
        if kind == "assign":
            iid = self.own_card(action, seat)
            self.check_assignable(seat, iid)
            tactic = self.tactic_by_id(action.get("tactic"))
            if tactic is None or not tactic["ready"]:
                raise IllegalAction("There is no such Tactic in play.", "5.6.3.2.3")
            if action.get("side") not in ("attack", "defence"):
                raise IllegalAction("Choose the side: attack or defence.", "5.6.3.2.3.2")
            return
        if kind == "activate":
            self.validate_activation(seat, action)
            return
        raise IllegalAction(f"Unknown action {kind!r} now.", "5.6.3.2")

    def check_assignable(self, seat: int, iid: int) -> None:
        """5.6.3.2.3 with AMB-23/AMB-24: may ``seat`` assign this Squad to a Tactic?"""
        s = self.s
        c = s["cards"][iid]
        if self.card(iid).type != "squad" or c["zone"] != "battlefield":
            raise IllegalAction(
                "You can assign only your own Squads on the Battlefield.", "5.6.3.2.3"
            )
        if c["wounded"]:
            raise IllegalAction("A wounded Squad cannot be assigned.", "2.3.2.4")
        if c["tactic"] is not None:
            raise IllegalAction("This Squad is already assigned to a Tactic.", "5.6.3.2.3")
        if c["entered"] == s["round"] and not self.has_keyword(iid, "zeal"):
            raise IllegalAction(
                "A Squad summoned this round needs Zeal to be assigned.", "5.6.3.2.3.1"
            )
        if self.prohibited("assign", seat=seat) or self.prohibited("be_assigned", iid=iid):
            raise IllegalAction("An effect forbids this assignment.", "1.1.3")

    def own_card(self, action: Mapping, seat: int) -> int:
        iid = action.get("iid")
        if not isinstance(iid, int) or isinstance(iid, bool) or not 0 <= iid < len(self.s["cards"]):
            raise IllegalAction("There is no such card.")
        if self.s["cards"][iid]["owner"] != seat:
            raise IllegalAction("That card is not yours.", "5.6.3.2.3")
        return iid

    def tactic_by_id(self, tid: Any) -> dict | None:
        for t in self.s["tactics"]:
            if t["id"] == tid:
                return t
        return None

    def validate_activation(self, seat: int, action: Mapping) -> None:
        s = self.s
        iid = self.own_card(action, seat)
        info = self.info(iid)
        ab = action.get("ability")
        if ab not in info.kind("activated"):
            raise IllegalAction("That card has no such activated ability.", "6.3.1.3")
        if s["cards"][iid]["zone"] != "battlefield":
            raise IllegalAction("Only cards on the Battlefield can activate abilities.", "6.3.6")
        error = self.activation_error(seat, iid, ab, action)
        if error is not None:
            raise IllegalAction(*error)

    def activation_error(
        self, seat: int, iid: int, ab: int, action: Mapping
    ) -> tuple[str, str] | None:
        """Why one's own card on the Battlefield cannot activate ability ``ab`` as
        ``action`` says (message, rule), or None if it can (6.3.5)."""
        s = self.s
        if not self.has_abilities(iid):
            return "This card has lost its abilities.", "2.3.2.3"
        ability = self.info(iid).abilities[ab]
        limit = ability.get("limit")
        if limit and f"{limit[0]}:{iid}:{ab}" in s["used"]:
            return f"This ability can be activated once per {limit}.", "6.3.5"
        p = self.player(seat)
        for cost in ability["cost"]:
            op = cost["op"]
            ctx = {"controller": seat, "source": iid}
            if op == "pay" and p["coins"] < self.amount(cost["coins"], ctx):
                return "You do not have enough coins.", "6.3.5"
            if op == "discard":
                n = self.amount(cost["count"], ctx)
                picks = action.get("discard") or []
                if (
                    len(picks) != n
                    or len(set(picks)) != n
                    or any(i not in p["hand"] for i in picks)
                ):
                    return f"Discard exactly {n} card(s) from your hand.", "6.3.5"
            if op == "exile_from_graveyard" and len(p["graveyard"]) < self.amount(
                cost["count"], ctx
            ):
                return "Not enough cards in your Graveyard.", "6.3.5"
            if op == "sacrifice":
                target = action.get("sacrifice")
                flt = _with_owner(cost["target"].get("filter", _NO_FILTER), "you")
                if cost["target"]["select"] == "self":
                    ok = target == iid
                else:
                    ok = (
                        isinstance(target, int)
                        and target in self.zone_candidates(flt, ctx)
                        and self.matches(flt, target, ctx)
                    )
                if not ok:
                    return "Choose one of your cards to sacrifice.", "6.3.5"
        return None

    def validate_pending(self, seat: int, action: Mapping, pending: Mapping) -> None:
        if pending["player"] != seat:
            raise NotYourTurn("Another player must decide first.")
        kind = action.get("type")
        pk = pending["kind"]
        p = self.player(seat)
        if pk == "first_player":
            if kind != "first_player" or action.get("seat") not in pending["options"]:
                raise IllegalAction("Choose which player takes the first turn.", "5.3")
            return
        if pk == "mulligan":
            if kind == "keep":
                return
            if kind != "mulligan":
                raise IllegalAction("Mulligan a card or keep your hand.", "5.4")
            if p["mulligans"] >= MAX_MULLIGANS:
                raise IllegalAction("You cannot mulligan more than five times.", "5.4")
            if action.get("iid") not in p["hand"]:
                raise IllegalAction("Choose a card from your hand.", "5.4")
            return
        if pk == "discard_down":
            if kind != "discard" or action.get("iid") not in pending["options"]:
                raise IllegalAction(
                    "Discard a card from your hand down to your Supply value.", "5.6.1.1"
                )
            return
        if pk == "decree":
            if kind == "decline":
                return
            wanted = {"type": "decree", "iid": action.get("iid"), "ability": action.get("ability")}
            if kind != "decree" or wanted not in self.available_decrees(seat):
                raise IllegalAction("You cannot issue that Decree now.", "5.6.2.1")
            return
        if pk == "tactic":
            if kind == "decline":
                return
            if kind == "superiority" and pending["superiority"]:
                return
            if kind == "tactic_wound" and action.get("target") in pending["options"]:
                return
            raise IllegalAction(
                "Wound a Squad in this Tactic, a Squad in no Tactic or a City of the "
                "defender, or use Superiority.",
                "5.6.4.2.1",
            )
        if pk in ("choose", "order", "replacement"):
            if kind != "choose" or action.get("choice_id") != pending["id"]:
                raise IllegalAction("Answer the pending choice.", "6.2")
            picks = action.get("picks")
            count = min(pending["count"], len(pending["options"]))
            if (
                not isinstance(picks, list)
                or len(set(map(repr, picks))) != len(picks)
                or any(x not in pending["options"] for x in picks)
            ):
                raise IllegalAction("Pick from the offered options.", "6.2")
            if len(picks) != count and not (pending.get("optional") and len(picks) <= count):
                raise IllegalAction(f"Pick exactly {count} option(s).", "6.2")
            return
        raise EngineBug(f"unknown pending kind {pk!r}")

    def perform(self, seat: int, action: dict) -> None:
        self._ver += 1
        s = self.s
        kind = action["type"]
        pending = s["pending"]
        if pending is not None:
            s["pending"] = None
            self.perform_pending(seat, action, pending)
            return
        p = self.player(seat)
        if kind == "pass":
            p["passed"] = True  # AMB-26: final for this Actions phase
            self.emit("pass", player=seat)
        elif kind == "declare":
            self.play(seat, action["iid"], x=action.get("x", 0), defender=action.get("target"))
        elif kind == "play":
            self.play(seat, action["iid"], x=action.get("x", 0))
        elif kind == "direct_attack":
            s["tactics"].append(
                {
                    "id": s["next_id"],
                    "iid": None,
                    "declarer": seat,
                    "defender": action["target"],
                    "battle": False,
                    "ready": True,
                    "attack": [],
                    "defence": [],
                }
            )
            s["next_id"] += 1
            self.emit("direct_attack", player=seat, target=action["target"])
            self.trigger("direct_attack", None, seat)  # effects.EVENTS: no event card
        elif kind == "assign":
            c = self.mut(action["iid"])
            t = self.tactic_by_id(action["tactic"])
            t[action["side"]].append(action["iid"])
            c["tactic"] = t["id"]
            c["side"] = action["side"]
            self.emit("assign", iid=action["iid"], tactic=t["id"], side=action["side"])
            self.trigger("assigned", action["iid"], seat)
        elif kind == "activate":
            self.activate(seat, action)
        if kind != "pass" and "idle" in s:
            s["idle"]["acted"] = True
        if kind != "pass" and s["options"]["passing"] == "consecutive":
            for q in s["players"]:  # the AMB-26 alternative: only consecutive passes count
                q["passed"] = q["eliminated"]
        s["step"] = "turn_end"  # 5.6.3.2: one action per turn
        s["flag"] = False

    def activate(self, seat: int, action: Mapping) -> None:
        """6.3.5, 6.3.6: pay the cost, then a copy goes to the end of the Queue."""
        s = self.s
        iid = action["iid"]
        ab = action["ability"]
        ability = self.info(iid).abilities[ab]
        ctx = {"controller": seat, "source": iid}
        p = self.player(seat)
        for cost in ability["cost"]:
            op = cost["op"]
            if op == "pay":
                p["coins"] -= self.amount(cost["coins"], ctx)
            elif op == "discard":
                for i in action["discard"]:
                    self.discard(i)
            elif op == "wound_self":
                self.wound(iid, self.amount(cost["amount"], ctx), ctx)
            elif op == "destroy_self":
                if s["cards"][iid]["zone"] == "battlefield":
                    self.move(iid, "graveyard")
            elif op == "exile_from_graveyard":
                for i in list(p["graveyard"][: self.amount(cost["count"], ctx)]):
                    self.move(i, "oblivion")
            elif op == "sacrifice" and s["cards"][action["sacrifice"]]["zone"] == "battlefield":
                self.move(action["sacrifice"], "graveyard")
        if ability.get("limit"):
            s["used"][f"{ability['limit'][0]}:{iid}:{ab}"] = s["round"]
        s["queue"].append(
            {"kind": "ability", "source": iid, "ab": ab, "controller": seat, "ctx": ctx}
        )
        self.emit("activate", iid=iid, ability=ab)

    def perform_pending(self, seat: int, action: dict, pending: dict) -> None:
        s = self.s
        pk = pending["kind"]
        kind = action["type"]
        p = self.player(seat)
        if pk == "first_player":
            self.set_turn_order(action["seat"])
            self.emit("first_player", chooser=seat, first=action["seat"])
            for q in s["turn_order"]:
                self.draw(q, OPENING_HAND)  # 5.4
            s["stage"] = "mulligan"
            self.goto("mulligan")
        elif pk == "mulligan":
            if kind == "keep":
                s["idx"] += 1
                self.emit("keep", player=seat)
            else:
                # AMB-01: the card goes to the bottom of the Main Deck, then draw 1.
                self.move(action["iid"], "main")
                if s["options"]["mulligan"] == "shuffle":
                    rng.shuffle(s["rng"], p["main"])  # the AMB-01 alternative
                    p.pop("looked", None)  # the order they saw is gone
                p["mulligans"] += 1
                self.emit("mulligan", player=seat)
                self.draw(seat, 1)
        elif pk == "discard_down":
            self.discard(action["iid"])
        elif pk == "decree":
            if kind == "decline":
                s["idx"] += 1
                return
            iid, ab = action["iid"], action["ability"]
            s["used"][f"d:{iid}:{ab}"] = s["round"]
            ctx = {"controller": seat, "source": iid}
            s["queue"].append(
                {"kind": "ability", "source": iid, "ab": ab, "controller": seat, "ctx": ctx}
            )
            self.emit("decree", iid=iid, ability=ab)
            self.trigger("decree_issued", iid, seat)
            s["flag"] = True
            s["idx"] += 1
        elif pk == "tactic":
            t = self.tactic_by_id(pending["tactic"])
            if kind == "tactic_wound":
                self.emit("tactic_wound", target=action["target"], amount=pending["amount"])
                ctx = {"controller": seat, "defender": t["defender"] if t else None}
                self.wound(action["target"], pending["amount"], ctx)  # 5.6.4.2.1
            elif kind == "superiority" and t is not None:
                info = self.info(t["iid"])
                ctx = {"controller": seat, "source": t["iid"], "defender": t["defender"]}
                ops = [op for i in info.kind("superiority") for op in info.abilities[i]["effects"]]
                self.push(ops, ctx)  # 5.6.4.2.2
        elif pk == "order":
            w = s["waiting"].pop(
                [k for k, w in enumerate(s["waiting"]) if w["controller"] == seat][
                    action["picks"][0]
                ]
            )
            self.enqueue_trigger(w)  # 6.3.14: the owner's chosen order
        elif pk == "replacement":  # AMB-31: the chosen replacement is carried out
            chosen = pending["replacements"][action["picks"][0]]
            self.carry_out_replacement(
                chosen["source"],
                chosen["ability"],
                pending["event"],
                pending["iid"],
                pending["event_player"],
            )
        elif pk == "choose":
            op = dict(pending["op"])
            ctx = dict(pending["ctx"])
            if pending.get("pick") == "player":
                ctx["_player"] = action["picks"][0]
            else:
                op["_picks"] = list(action["picks"])
            self.push([op], ctx)


def _least_answer(actions: list[Action]) -> Action | None:
    """The answer a departing player gives to a decision they owe: keep, decline or pass
    where offered, else an empty choice where it may be empty, else the first offered."""
    for action in actions:
        if action["type"] in ("keep", "decline", "pass"):
            return action
    for action in actions:
        if action["type"] == "choose" and not action.get("picks"):
            return action
    return actions[0] if actions else None


@functools.cache
def _default_system() -> Voskhozhdenie:
    return Voskhozhdenie()


class _LazySystem:
    """``SYSTEM``: the engine bound to the default card database, loaded on first use."""

    key = "voskhozhdenie"

    def __getattr__(self, name: str) -> Any:
        return getattr(_default_system(), name)

    def new_game(self, config, decks, seed):
        return _default_system().new_game(config, decks, seed)

    def legal_actions(self, state, player):
        return _default_system().legal_actions(state, player)

    def apply(self, state, player, action):
        return _default_system().apply(state, player, action)

    def view(self, state, player):
        return _default_system().view(state, player)

    def result(self, state):
        return _default_system().result(state)

    def to_act(self, state):
        return _default_system().to_act(state)

    def leave(self, state, player, reason):
        return _default_system().leave(state, player, reason)


SYSTEM = _LazySystem()

# Every op of the effect language has a handler here (checked by the tests).
IMPLEMENTED_DYNAMIC_OPS = tuple(
    name for name in fx.DYNAMIC_OPS if callable(getattr(_Game, "op_" + name, None))
)
