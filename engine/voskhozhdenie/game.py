"""The rules engine of «Восхождение» (Voskhozhdenie): a GameSystem over plain JSON data.

Rule numbers below are those of ``/work/shared/rules/voskhozhdenie.md`` (the corrected
English digest); "AMB-nn" are its recommended decisions, all adopted unless noted under
*Deviations*.

This module is the GameSystem (setup 5.2, the protocol, ``SYSTEM``); the rules it applies
are ``engine.voskhozhdenie.rules.Rules``, one module per rule chapter: the state and its
access (``rules.state``), static abilities (``rules.statics``), the effect language's
terms (``rules.filters``), zone moves and card rules (``rules.zones``), elimination and
the end (``rules.ending``), triggers and replacements (``rules.triggers``), the effect
interpreter and its ops (``rules.interpreter``, ``rules.ops``), playing cards and the
Queue (``rules.playing``), the round flow (``rules.flow``), Tactic Resolution
(``rules.tactics``), legal actions (``rules.legal``) and performing them
(``rules.actions``).

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

``Rules.advance`` runs the game until a player must decide. In every iteration it first
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

Performance: ``Rules`` caches the cards that lost their abilities, the filtered static ops
and the available Decrees, keyed by a version counter that every mutation bumps. The table
of static abilities in force is keyed by the sources in force (on the Battlefield, not
wounded Squads) and shared between states (``Voskhozhdenie._stat_memo``); the index of
triggered abilities by event is kept per "trig" list object, which is copy-on-write like
"stat" and "repl" (``new_instance`` replaces them), so copies share them. Card instance
dicts are copy-on-write too (``Rules.mut``). ``legal_actions`` in the Actions phase checks
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
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.core import rng
from engine.core.errors import IllegalAction, InvalidConfig, NotYourTurn
from engine.core.legality import ActionSchema, Int, ListOf, Nullable, check_action, check_shape
from engine.core.protocol import Action, Event, GameResult, State
from engine.voskhozhdenie import effects as fx
from engine.voskhozhdenie.cards import CardDB
from engine.voskhozhdenie.rules import Rules
from engine.voskhozhdenie.rules.flow import MAX_MULLIGANS
from engine.voskhozhdenie.rules.state import CardInfo, copy_state

MAX_PLAYERS = 8  # the registry offers at most 4; the engine's own bound on a table
DICE = {"1d20": (1, 20), "2d6": (2, 6)}  # 5.3
MAX_PICKS = 200  # bound on the values of one choice (cards in play are far fewer)
# Rule flags for the alternatives Part 2 of the rules digest asks for (config["options"]).
DEFAULT_OPTIONS = {
    "mulligan": "bottom",  # AMB-01: "bottom" (recommended) or "shuffle" (back into the deck)
    "coins_reset": False,  # AMB-17: unspent coins are lost at Round End
    "supply_recompute": False,  # AMB-18: Supply = symbols of non-ruined Cities each round
    "passing": "final",  # AMB-26: "final" (recommended) or "consecutive"
}

# Pending decisions whose candidate answers are all legal as built (each is taken from the
# pending options, or is "decline"): ``legal_actions`` lists them without validating.
_VALID_BY_CONSTRUCTION = frozenset({"first_player", "discard_down", "decree", "tactic"})


class Voskhozhdenie:
    """The GameSystem of «Восхождение», bound to a card database."""

    key = "voskhozhdenie"

    def __init__(self, db: CardDB | None = None):
        self._db = db
        # Every card id of a game's instances is added by ``new_instance``; ``info`` adds
        # the others (a state built by another system object). A plain dict: subscripts
        # of an exact dict are the fastest lookup.
        self._infos: dict[str, CardInfo] = {}
        # Tables of static abilities by the sources in force ((iid, CardInfo) pairs), and
        # trigger indexes by the (copy-on-write, so never changing) "trig" list object.
        self._stat_memo: dict[tuple, dict] = {}
        self._trig_memo: dict[int, tuple[list, dict]] = {}
        # (instance, is a Squad, (instance, CardInfo)) of each source of static abilities, by the
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

    def info(self, card_id: str) -> CardInfo:
        try:
            return self._infos[card_id]
        except KeyError:
            info = self._infos[card_id] = CardInfo(self.db.card(card_id))
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
        g = Rules(self, state)
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
    # the rest is ``Rules.validate``'s (engine.core.legality).
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

    def legal_actions_game(self, state: State, player: int) -> tuple[list[Action], Rules]:
        """``legal_actions`` and the read-only rules object over ``state`` that computed
        them (a bot reuses its caches)."""
        g = Rules(self, state, readonly=True)
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
            lambda: Rules(self, state, readonly=True).validate(player, action),
            form,
        )
        new = copy_state(state)
        g = Rules(self, new)
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
            g = Rules(self, new)
            g.perform(player, answer)
            g.advance()
            events.extend(g.events)
        if not new["finished"]:
            g = Rules(self, new)
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

    def ending(self, state: State, language: str, names: Mapping[int, str]) -> str | None:
        """How the finished game was decided, in words (``engine.core.protocol``)."""
        from engine.voskhozhdenie.describe import ending

        return ending(state, language, names)


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
    name for name in fx.DYNAMIC_OPS if callable(getattr(Rules, "op_" + name, None))
)
