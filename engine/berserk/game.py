"""Berserk (ККИ «Берсерк»): the two-player GameSystem (``SYSTEM``, key "berserk").

Rule numbers are those of the Russian text (``../shared/seeds/004_*``); D-n are the
digest's decisions (``../shared/rules/berserk.md`` §15), each a ``Config`` setting.

**Preliminary Phase** [301-308]

* ``new_game``: decks are lists of card ids (``None``: a random legal constructed deck of
  30 cards drawn from the seed, ``random_deck``); each deck is shuffled (101.2) and its
  cards numbered in the shuffled order, so a card's number says nothing of what it is.
  Turn order [302.2]: both roll a die, ties rerolled (D-9); the higher roller chooses the
  first player (``choose_first``). ``config["chooser"]`` (a match: the previous game's
  winner) chooses without a roll.
* Deal Step [302]: crystals granted once (D-5: 23 gold + 22 silver, +1 silver to the
  second player, 101.3), ``Config.deal_size`` cards dealt; ``redeal`` (1 gold, while
  gold >= 1: D-34) and ``keep``, the first player finishing first (302.3а-б).
* Recruit Preparation [303]: no "до набора отряда" ability is interpreted: it passes at once.
* Recruitment [304]: the first player, then the second (the zones are private, so this is
  D-8's simultaneous recruitment in effect): ``recruit`` {card, x for an X cost} and
  ``recruit_done``; refusals come from ``engine.berserk.recruit`` with their rule numbers.
  The Deal cards left are shuffled back into the deck (304.7).
* Placement [305]: the first player places every recruited card, then the second
  (``place`` {card, cell}); hidden, one card a cell, the zone growing when full.
* Reveal [306]: X-cost cards first, X announced (306.2(1)); then the first player's cards;
  the second player may keep cards of their third row hidden (``keep_hidden`` {card} /
  ``reveal_done``), never symbiotes, equipment, parasites or X-cost cards (306.2(2), D-22);
  they are revealed at the end of the first player's first turn (D-22). Terrains and
  flyers go to the Additional Zone (306.3). Hosts (``host`` {card, host}): equipment, then
  symbiotes, then parasites, each time the first player's first; mandatory while possible
  (306.4-306.8), so the step offers no way to skip.
* Start of Battle [307]: unhosted equipment, symbiotes and parasites die (307.1). No
  "в начале боя" trigger is interpreted yet, so its priority passes at once.
* Vanguard Step [308, D-30]: the first player, then the second, may ``strike`` with each
  open Vanguard creature an adjacent enemy card (or ``pass``, after which that player
  declares nothing more); the strike executes at once with no stack, as with Unanswerable
  Strike (one die), and closes the striker (``Config.vanguard_closes``); a player with no
  such strike passes at once. The no-creatures loss is checked from here on (D-10).

**Turns** [309-313]: Turn Start opens the active player's closed cards and clears their
movement markers (311.1-311.2), then Regeneration, Poison and Fading fire (311.4). Main Phase with priority (``engine.berserk.stack``): with an
empty stack the active player may ``move`` (203), ``strike`` (205.2), use a playable
``ability`` (below) or ``pass``; a Stealth card's owner may ``reveal`` it. A strike
pushes a full chain of nine objects (216.1а); each object is a priority window of two
passes: while the Target object is on top the non-active player may assign a
``defender`` (205.3, a redirection of two objects, 412.4); the higher roller may
``weaken`` while the Calculation object is on top (216.7, D-16). Executing: Target (reveals
a hidden target, 415.2: hidden targets are revealed at declaration, D-20), Roll (both
roll in a fight of two open creatures, else the attacker alone: 205.4-205.6), Result,
Calculation (``engine.berserk.fight``; value modifiers), Defense (Armour), Wounds (both sides at once,
D-15; a card at 0 lives or below goes to its owner's Graveyard, hosted cards after their
host: 210.6, 214.8 — destruction executes at once, not as a stacked trigger, 402.3а),
Payment (closes the attacker, D-11, and the defender, 216.12а), End. A double pass on an
empty stack ends the Main Phase; one in the Final Phase hands the turn over (313.2).

Playable abilities [404.7] (``ability`` {ability, card, target | cell}: non-instant and
closing like the simple strike, D-11: the active player's open revealed card that has
neither acted nor moved, Main Phase, empty stack; a hidden target is named by its cell and
revealed, 415.2-415.4): **Shot X / Throw X / Discharge X** (ranged attacks, 401.3-401.5:
an enemy card anywhere, flyers in the Additional Zone included, or within Range X king
moves if the card has Range; a full chain of nine objects, no defender, only the attacker
rolls and the strength comes from one die, 205.4, D-17; attack for X, 205.7а); **Heal X**
(six objects, no dice, 216.1б: a wounded non-incorporeal creature loses up to X wounds,
416.2); **Finishing X** (six objects: destroys an adjacent non-incorporeal creature with X
or fewer current lives, re-checked at the Wounds object). **Stealth** (``reveal`` {card},
415.5: no stack; the engine always keeps Stealth cards hidden at the Reveal Step, 415.2б,
and D-22 does not reveal them).

Static and triggered abilities: Armour X (the first X wounds of non-magical attacks each
turn: not discharges), Directed Strike and Accuracy (no defender), Unanswerable Strike (the
target does not fight back), Flight (Additional Zone, adjacent to nothing, strikes
anything, cannot be struck by non-flyers: 211.4-211.8; the 211.9 "slow action" is not
modelled), Cache (no flyer may target it), Incorporeal (moves onto occupied cells; dies at
the handover of the turn if it shares a cell with a card that is not its own symbiote or
parasite; the "does anything else" death is not modelled), Vanguard (above). Die
modifiers: Experience in Attack / Defence / Shooting / Throwing / Discharge, Clumsiness,
Blessing / Curse (+1 / -1 to all the card's rolls). Value modifiers [216.8]: Vulnerability
(+1 to every attack on it; Vulnerability to magic / discharges: to discharges) and Wrath
(+1 to a simple strike on a card wounded by an attack this turn). Protection from shots /
throws / magic (411.1, 411.4: magic covers discharges): the card is no target of them
(a hidden one revealed as such blocks the attack, 415.4). Fear X (when the Target object of
an attack on it executes, the attacker wounds itself for X unless it has Fear). Vampirism
(after its simple strike's wounds on a non-incorporeal creature, when attacking or
striking back: heals them, the excess as additional lives, 204.2). At the active player's
Turn Start [311.4, D-27], for each of their cards open then: Regeneration X (creatures:
heal X), then Poison X (creatures; lost by incorporeal ones and Protection from poison) and
Fading X (any card that takes wounds): the card wounds itself for X ("ранится"; a hidden
one is revealed, 415.2). Poison is the poisoned card's own ability (С: Отравление: the
creature that has it is the poisoned one); nothing applies it to another card yet.

Not interpreted: Steadfastness and Thick Skin (nothing interpreted is what they stop: Fear,
Poison and Fading are self-wounding, no "при атаке" ability of an attacker is
interpreted), Formation, Jump, Teleport, Manoeuvre, Strike Through a Row, Plague,
Corpse-eating, Thirst, Concentration, Incarnation, Gift of Life, Unity, Summon,
Resurrection, Redistribution, Meditation, and every scripted card text. Blocked moves
(203.3) cannot happen, as nothing blocks a move yet.

**End** [102]: a player who controls no creature (Battlefield + Additional Zone, hidden ones
included, true types) loses when anyone gets priority with the stack empty, from the Start
of Battle (D-10); both at once is a draw (102.4). ``leave`` loses at once. ``turn_limit``
(config, default 60 turns) ends the game as a draw when that turn ends.

State: plain JSON data. Cards are numbered ``0..n-1`` (``cards[iid]`` the card id,
``owner[iid]``); every card is in exactly one of a player's ``deck``, ``deal``,
``recruit``, ``grave`` or ``pieces`` (the cards in play, keyed by ``str(iid)``; a piece's
``extra`` is its additional lives, ``hurt`` the turn it last took wounds from an attack).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.berserk import board, fight, recruit, stack
from engine.berserk.cards import CardDB, load_system, normalise_name
from engine.berserk.config import Config
from engine.berserk.model import Card
from engine.core import rng
from engine.core.errors import IllegalAction, InvalidConfig
from engine.core.legality import check_action, check_shape
from engine.core.protocol import LEAVE_REASONS, Action, Event, GameResult, State

_CONFIGS: dict[str, Config] = {}
GAME_KEYS = ("turn_limit", "chooser")  # the game's own settings, beside ``Config``'s
DEFAULT_TURN_LIMIT = 60
DECK_SIZE = 30
BATTLE_PHASES = ("main", "final", "vanguard")  # from the Vanguard Step on (D-10, 306.3)
# Ranged attacks [401.3-401.5, С: Выстрел / Метание / Разряд]: the ability -> the kinds a
# Protection from which covers it (411.4: protection from magic covers discharges), and
# its Experience (С: Опыт в Стрельбе / Метании / Разряде).
RANGED = {
    "shot": ("shots",),
    "throw": ("throws",),
    "discharge": ("discharges", "magic"),
}
EXPERIENCE = {
    "shot": "experience_shooting",
    "throw": "experience_throwing",
    "discharge": "experience_discharge",
}
PLAYABLE = ("shot", "throw", "discharge", "heal", "finishing")  # declared with "ability"
_RULE = {
    "shot": "С: Выстрел",
    "throw": "С: Метание",
    "discharge": "С: Разряд",
    "heal": "С: Излечение",
    "finishing": "С: Добивание",
}


def _clone(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: _clone(v) for k, v in value.items()}
    if kind is list:
        return [_clone(v) for v in value]
    return value


def _copy(state: State) -> State:
    """A copy of every part ``apply`` may change: containers changed in place are copied,
    values that are only ever replaced (cells, rolls, stack objects) are shared."""
    out = dict(state)
    out["players"] = [
        {
            **p,
            "deck": p["deck"][:],
            "deal": p["deal"][:],
            "recruit": p["recruit"][:],
            "grave": p["grave"][:],
            "paid": dict(p["paid"]),
        }
        for p in state["players"]
    ]
    out["pieces"] = {k: q.copy() for k, q in state["pieces"].items()}
    out["stack"] = state["stack"][:]
    out["chains"] = {k: dict(c) for k, c in state["chains"].items()}
    out["rng"] = state["rng"][:]
    out["keep_hidden"] = state["keep_hidden"][:]
    if state["priority"] is not None:
        out["priority"] = dict(state["priority"])
    return out


_CELL_NAMES = {
    (x, y): board.cell_name((x, y)) for x in range(board.WIDTH) for y in range(board.HEIGHT)
}


_NEIGHBOURS = {cell: board.orthogonal_neighbours(cell) for cell in _CELL_NAMES}


def _name(cell: Sequence[int] | None) -> str | None:
    return None if cell is None else _CELL_NAMES[(cell[0], cell[1])]


def _same(offered: Action, sent: Action) -> bool:
    """``canonical(offered) == canonical(sent)`` for an offered action (an object of texts
    and whole numbers): the same keys and equal values of the very same types."""
    if type(sent) is not dict or len(sent) != len(offered):
        return False
    for key, value in offered.items():
        other = sent.get(key, _same)
        if type(other) is not type(value) or other != value:
            return False
    return True


def _err(rule: str, message: str) -> IllegalAction:
    return IllegalAction(message, rule)


def random_deck(db: CardDB, rng_state: list[int], size: int = DECK_SIZE) -> list[str]:
    """A random legal constructed deck [100.2а-б]: ``size`` cards of two random elements
    and neutral cards, at most 3 copies of a name (5 with Horde)."""
    elements = sorted({c.element for c in db.all_cards() if c.element})
    first = elements[rng.randbelow(rng_state, len(elements))]
    second = elements[rng.randbelow(rng_state, len(elements))]
    pool = sorted(
        (c for c in db.all_cards() if c.element in ("", first, second)), key=lambda c: c.id
    )
    counts: dict[str, int] = {}
    deck: list[str] = []
    while len(deck) < size:
        card = pool[rng.randbelow(rng_state, len(pool))]
        key = normalise_name(card.name_ru or card.name_en)
        limit = 5 if card.has("horde") else 3
        if counts.get(key, 0) < limit:
            counts[key] = counts.get(key, 0) + 1
            deck.append(card.id)
    return deck


def _blessed(card: Card) -> int:
    """С: Благословление / Проклятье: +1 / -1 to all of the card's die rolls."""
    return card.has("blessing") - card.has("curse")


class Berserk:
    """The Berserk GameSystem (two players). ``SYSTEM`` is the instance over set BK1."""

    key = "berserk"

    def __init__(self, db: CardDB | None = None):
        self.db = db or load_system()
        self.info: dict[str, Card] = dict(self.db.cards)
        self._playable: dict[str, tuple[str, ...]] = {}  # card id -> its PLAYABLE abilities
        self._handlers = {
            "choose_first": Berserk._do_choose_first,
            "redeal": Berserk._do_redeal,
            "keep": Berserk._do_keep,
            "recruit": Berserk._do_recruit,
            "recruit_done": Berserk._do_recruit_done,
            "place": Berserk._do_place,
            "keep_hidden": Berserk._do_keep_hidden,
            "reveal_done": Berserk._do_reveal_done,
            "host": Berserk._do_host,
            "pass": Berserk._do_pass,
            "move": Berserk._do_move,
            "strike": Berserk._do_strike,
            "ability": Berserk._do_ability,
            "reveal": Berserk._do_reveal,
            "defender": Berserk._do_defender,
            "weaken": Berserk._do_weaken,
        }
        self._phase_actions = {
            "first": ("choose_first",),
            "deal": ("redeal", "keep"),
            "recruit": ("recruit", "recruit_done"),
            "place": ("place",),
            "reveal": ("keep_hidden", "reveal_done"),
            "host": ("host",),
            "vanguard": ("strike", "pass"),
            "main": ("pass", "move", "strike", "ability", "reveal", "defender", "weaken"),
            "final": ("pass", "reveal"),
        }

    # -- helpers ------------------------------------------------------------------------

    def card(self, state: State, iid: int) -> Card:
        return self.info[state["cards"][iid]]

    @staticmethod
    def cfg(state: State) -> Config:
        key = repr(sorted(state["config"].items()))
        cfg = _CONFIGS.get(key)
        if cfg is None:
            cfg = Config.of({k: v for k, v in state["config"].items() if k not in GAME_KEYS})
            _CONFIGS[key] = cfg
        return cfg

    @staticmethod
    def role(state: State, seat: int) -> int:
        """``board.FIRST`` for the first player, ``board.SECOND`` for the second."""
        return board.FIRST if seat == state["first"] else board.SECOND

    @staticmethod
    def piece(state: State, iid: int) -> dict | None:
        return state["pieces"].get(str(iid))

    def _pieces_of(self, state: State, seat: int) -> list[int]:
        return [int(k) for k, p in state["pieces"].items() if p["owner"] == seat]

    def _occupants(self, state: State, cell: Sequence[int]) -> list[int]:
        """The cards standing on ``cell`` (hosted cards ride with their host, not counted)."""
        return [
            int(k)
            for k, p in state["pieces"].items()
            if p["cell"] == list(cell) and p["host"] is None
        ]

    def _iid(self, action: Action, key: str = "card") -> int:
        value = action.get(key)
        if type(value) is not int:
            raise IllegalAction(f'Name the card with "{key}" (its number).')
        return value

    # -- setup --------------------------------------------------------------------------

    def new_game(self, config: Mapping[str, Any], decks: Sequence[Any], seed: int) -> State:
        config = dict(config or {})
        if config.get("players", 2) != 2:
            raise InvalidConfig("Berserk is a game for two players [100.1].")
        config.pop("players", None)
        config.pop("seed", None)
        try:
            cfg = Config.of({k: v for k, v in config.items() if k not in GAME_KEYS})
        except (ValueError, TypeError) as exc:
            raise InvalidConfig(str(exc)) from None
        turn_limit = config.get("turn_limit", DEFAULT_TURN_LIMIT)
        chooser = config.get("chooser")
        if type(turn_limit) is not int or turn_limit < 1:
            raise InvalidConfig("turn_limit is a whole number of turns, 1 or more.")
        if chooser is not None and chooser not in (0, 1):
            raise InvalidConfig("chooser is a seat: 0 or 1.")
        decks = list(decks) if decks else [None, None]
        if len(decks) != 2:
            raise InvalidConfig(f"{len(decks)} decks given for 2 players")
        state_rng = rng.seed_state(seed)
        lists: list[list[str]] = []
        for seat, deck in enumerate(decks):
            if deck is None:
                deck = random_deck(self.db, state_rng, cfg.deck_min_constructed)
            deck = list(deck)
            unknown = [c for c in deck if not isinstance(c, str) or c not in self.info]
            if unknown:
                raise InvalidConfig(f"deck {seat}: unknown cards {unknown[:5]}")
            if not cfg.deck_min_limited <= len(deck) <= cfg.deck_max:
                raise InvalidConfig(
                    f"deck {seat}: {len(deck)} cards (from {cfg.deck_min_limited} to "
                    f"{cfg.deck_max}) [100.2а, 100.3]"
                )
            rng.shuffle(state_rng, deck)  # 101.2
            lists.append(deck)
        cards = lists[0] + lists[1]
        owner = [0] * len(lists[0]) + [1] * len(lists[1])
        n0 = len(lists[0])
        players = []
        for seat in (0, 1):
            iids = list(range(n0)) if seat == 0 else list(range(n0, len(cards)))
            players.append(
                {
                    "deck": iids,
                    "deal": [],
                    "recruit": [],
                    "grave": [],
                    "gold": 0,
                    "silver": 0,
                    "gold_start": 0,
                    "silver_start": 0,
                    "kept": False,
                    "redeals": 0,
                    "done": False,
                    "paid": {},
                    "bonus_used": False,
                }
            )
        s: State = {
            "config": {**config, "turn_limit": turn_limit, "chooser": chooser},
            "cards": cards,
            "owner": owner,
            "rng": state_rng,
            "players": players,
            "pieces": {},
            "phase": "first",
            "first": None,
            "active": None,
            "chooser": chooser,
            "order_rolls": [],
            "turn": 0,
            "round": 0,
            "priority": None,
            "stack": [],
            "chains": {},
            "next_chain": 1,
            "keep_hidden": [],
            "last_roll": None,
            "last_fight": None,
            "finished": False,
            "winners": [],
            "draw": False,
            "out": [],
            "log": 0,
        }
        if chooser is None:  # 302.2: roll; ties are rerolled (D-9)
            while True:
                a, b = rng.randbelow(state_rng, 6) + 1, rng.randbelow(state_rng, 6) + 1
                s["order_rolls"].append([a, b])
                if a != b:
                    break
            s["chooser"] = 0 if a > b else 1
        return s

    # -- whose turn ---------------------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        if state["finished"]:
            return ()
        phase = state["phase"]
        first = state["first"]
        if phase == "first":
            return (state["chooser"],)
        if phase == "deal":
            return (first,) if not state["players"][first]["kept"] else (1 - first,)
        if phase == "recruit":
            return (first,) if not state["players"][first]["done"] else (1 - first,)
        if phase == "place":
            return (first,) if state["players"][first]["recruit"] else (1 - first,)
        if phase == "reveal":
            return (1 - first,)
        if phase == "host":
            key = recruit.next_assignment(self._host_pieces(state), first_player=first)
            return (state["pieces"][key]["owner"],) if key is not None else ()
        if phase == "vanguard":
            return (state["vanguard"],)
        return (state["priority"]["holder"],)

    # -- legal actions ------------------------------------------------------------------

    def legal_actions(self, state: State, player: int) -> list[Action]:
        if state["finished"] or player not in self.to_act(state):
            return []
        phase = state["phase"]
        p = state["players"][player]
        if phase == "first":
            return [{"type": "choose_first", "first": 0}, {"type": "choose_first", "first": 1}]
        if phase == "deal":
            out: list[Action] = []
            if self._redeal_problem(state, player) is None:
                out.append({"type": "redeal"})
            out.append({"type": "keep"})
            return out
        if phase == "recruit":
            out = self._recruit_actions(state, player, p["deal"])
            out.append({"type": "recruit_done"})
            return out
        if phase == "place":
            return self._place_actions(state, player, p["recruit"])
        if phase == "reveal":
            out = [{"type": "keep_hidden", "card": iid} for iid in self._may_stay_hidden(state)]
            out.append({"type": "reveal_done"})
            return out
        if phase == "host":
            return self._host_actions(state, player)
        if phase == "vanguard":
            return self._vanguard_actions(state, player)
        return self._battle_actions(state, player)

    def _offered(self, state: State, player: int, kind: str, action: Action) -> list[Action] | None:
        """Some of ``legal_actions(state, player)``, in the same form, among them every
        one that could equal ``action`` (of its type and card), without building the rest
        where that is costly; ``None`` when none could. ``player`` is one of
        ``to_act(state)`` and ``kind`` an action of the phase. A sent action found here is
        offered; one not found goes through ``_check`` (the full list, the same
        refusals)."""
        phase = state["phase"]
        if kind == "pass":  # offered first in the battle phases, last in the Vanguard Step
            return [{"type": "pass"}]
        if kind in ("keep", "recruit_done", "reveal_done"):  # always offered in their step
            return [{"type": kind}]
        iid = action.get("card")
        if type(iid) is int and kind in ("recruit", "place", "move", "strike", "ability"):
            if phase == "recruit":
                if iid not in state["players"][player]["deal"]:
                    return None
                return self._recruit_actions(state, player, (iid,))
            if phase == "place":
                if iid not in state["players"][player]["recruit"]:
                    return None
                return self._place_actions(state, player, (iid,))
            if phase == "main":
                return self._battle_actions(state, player, only=iid)
        return self.legal_actions(state, player)

    # -- apply --------------------------------------------------------------------------

    def apply(self, state: State, player: int, action: Action) -> tuple[State, list[Event]]:
        if not self._is_offered(state, player, action):
            self._check(state, player, action)  # refuses, or finds it offered after all
        s = _copy(state)
        events: list[Event] = []
        self._handlers[action["type"]](self, s, player, action, events)
        self._settle(s, events)
        s["log"] += 1
        return s, events

    def _is_offered(self, state: State, player: Any, action: Any) -> bool:
        """Whether ``action`` is, as sent, one of ``legal_actions(state, player)``, found
        among the few offered actions it could be (``_offered``). Such an action passes
        every check of ``_check``; ``False`` says only that ``_check`` must decide."""
        if type(action) is not dict or type(player) is not int or state["finished"]:
            return False
        kind = action.get("type")
        if type(kind) is not str or kind not in self._phase_actions.get(state["phase"], ()):
            return False
        if player not in self.to_act(state):
            return False
        offered = self._offered(state, player, kind, action)
        return offered is not None and any(_same(c, action) for c in offered)

    def _check(self, state: State, player: Any, action: Any) -> None:
        """Every check of a sent action, in order, with its refusal (``IllegalAction``,
        ``NotYourTurn``); the state is only read."""
        form = check_shape(action)
        if state["finished"]:
            raise IllegalAction("The game is over.", "102.1")
        kind = action["type"]
        handler = self._handlers.get(kind)
        if handler is None:
            raise IllegalAction(f"Unknown action {kind[:40]!r}.")
        if player in self.to_act(state) and kind not in self._phase_actions[state["phase"]]:
            if state["phase"] == "host":
                self._refuse_skip(state, player)
            raise IllegalAction(
                f"You cannot do {kind[:40]!r} in this step.", _PHASE_RULE[state["phase"]]
            )
        check_action(
            self,
            state,
            player,
            action,
            lambda: handler(self, _copy(state), player, action, []),
            form,
        )

    # -- the Deal Step [302] ------------------------------------------------------------

    def _do_choose_first(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        first = action.get("first")
        if first not in (0, 1) or type(first) is not int:
            raise _err("302.2", 'Choose the first player: "first" is 0 or 1.')
        s["first"] = first
        events.append({"type": "first_player", "seat": first, "chooser": seat})
        crystals = recruit.set_turn_order(
            recruit.grant_crystals(self.cfg(s)), first, config=self.cfg(s)
        )
        n = self.cfg(s).deal_size
        for p, c in zip(s["players"], crystals, strict=True):
            p["gold"], p["silver"] = c.gold, c.silver
            p["deck"], p["deal"] = recruit.deal(p["deck"], n)
        events.append({"type": "deal", "counts": [len(p["deal"]) for p in s["players"]]})
        s["phase"] = "deal"

    def _deal_step(self, s: State) -> recruit.DealStep:
        ps = s["players"]
        return recruit.DealStep(
            first=s["first"],
            crystals=(
                recruit.Crystals(ps[0]["gold"], ps[0]["silver"]),
                recruit.Crystals(ps[1]["gold"], ps[1]["silver"]),
            ),
            kept=(ps[0]["kept"], ps[1]["kept"]),
            redeals=(ps[0]["redeals"], ps[1]["redeals"]),
        )

    def _redeal_problem(self, s: State, seat: int) -> IllegalAction | None:
        try:
            recruit.redeal(self._deal_step(s), seat)
        except IllegalAction as exc:
            return exc
        return None

    def _do_redeal(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        recruit.redeal(self._deal_step(s), seat)  # refuses with 302.3 / 302.3а-б
        p = s["players"][seat]
        p["gold"] -= 1
        p["redeals"] += 1
        p["deck"], p["deal"] = recruit.redeal_cards(p["deck"], p["deal"], s["rng"])
        events.append({"type": "redeal", "seat": seat, "count": len(p["deal"]), "gold": p["gold"]})

    def _do_keep(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        recruit.keep(self._deal_step(s), seat)
        s["players"][seat]["kept"] = True
        events.append({"type": "keep", "seat": seat})
        if all(p["kept"] for p in s["players"]):
            for p in s["players"]:  # Recruit Preparation [303]: no ability interpreted
                p["gold_start"], p["silver_start"] = p["gold"], p["silver"]
            s["phase"] = "recruit"

    # -- the Recruitment Step [304] -----------------------------------------------------

    def _recruit_actions(self, s: State, seat: int, iids: Sequence[int]) -> list[Action]:
        """The ``recruit`` actions open for the Deal cards ``iids``, in their order."""
        out: list[Action] = []
        zone = self._recruit_zone(s, seat)
        cfg = self.cfg(s)
        for iid in iids:
            card = self.card(s, iid)
            if card.cost_x:
                x = 0
                while True:
                    try:
                        recruit.check_recruit(zone, card, x=x, config=cfg)
                    except IllegalAction:
                        break
                    out.append({"type": "recruit", "card": iid, "x": x})
                    x += 1
            else:
                try:
                    recruit.check_recruit(zone, card, config=cfg)
                except IllegalAction:
                    continue
                out.append({"type": "recruit", "card": iid})
        return out

    def _recruit_zone(self, s: State, seat: int) -> recruit.Recruit:
        p = s["players"][seat]
        cards = tuple(
            recruit.Recruited(self.card(s, iid), *p["paid"][str(iid)]) for iid in p["recruit"]
        )
        return recruit.Recruit(
            gold=p["gold_start"],
            silver=p["silver_start"],
            cards=cards,
            bonus_used=p["bonus_used"],
        )

    def _do_recruit(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        iid = self._iid(action)
        if iid not in p["deal"]:
            raise _err("304.1", "Recruit a card from your Deal zone.")
        x = action.get("x")
        if x is not None and type(x) is not int:
            raise _err("202.4", "X is a whole number.")
        zone = recruit.recruit(
            self._recruit_zone(s, seat), self.card(s, iid), x=x, config=self.cfg(s)
        )
        entry = zone.cards[-1]
        p["deal"].remove(iid)
        p["recruit"].append(iid)
        p["paid"][str(iid)] = [entry.gold, entry.silver, entry.x]
        p["bonus_used"] = zone.bonus_used
        p["gold"] = zone.gold_left
        p["silver"] = zone.silver_left
        events.append({"type": "recruit", "seat": seat, "count": len(p["recruit"])})

    def _do_recruit_done(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        s["players"][seat]["done"] = True
        events.append({"type": "recruit_done", "seat": seat})
        if all(p["done"] for p in s["players"]):
            for p in s["players"]:  # 304.7: the Deal cards left go back, shuffled
                p["deck"] = p["deck"] + p["deal"]
                p["deal"] = []
                rng.shuffle(s["rng"], p["deck"])
            events.append({"type": "deal_returned"})
            s["phase"] = "place"

    # -- the Placement Step [305] -------------------------------------------------------

    def _place_actions(self, s: State, seat: int, iids: Sequence[int]) -> list[Action]:
        """The ``place`` actions open for the Recruit cards ``iids``, in their order."""
        filled = [tuple(q["cell"]) for q in s["pieces"].values() if q["owner"] == seat]
        free = board.placement_cells(self.role(s, seat), filled)
        names = sorted(board.cell_name(c) for c in free)
        return [{"type": "place", "card": iid, "cell": name} for iid in iids for name in names]

    def _do_place(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        iid = self._iid(action)
        if iid not in p["recruit"]:
            raise _err("305.1", "Place a card from your Recruit zone.")
        cell_name = action.get("cell")
        if type(cell_name) is not str:
            raise _err("207.5", 'Name the cell with "cell", e.g. "B2".')
        placed = {
            _name(q["cell"]): recruit.Placed(self.card(s, int(k)), q["owner"])
            for k, q in s["pieces"].items()
        }
        after = recruit.place(
            placed,
            self.card(s, iid),
            cell_name,
            owner=seat,
            first=seat == s["first"],
        )
        (name,) = set(after) - set(placed)
        cell = board.parse_cell(name)
        p["recruit"].remove(iid)
        s["pieces"][str(iid)] = self._new_piece(seat, list(cell), p["paid"][str(iid)][2])
        events.append({"type": "place", "seat": seat, "cell": name})

    @staticmethod
    def _new_piece(owner: int, cell: list[int] | None, x: int | None = None) -> dict:
        return {
            "owner": owner,
            "cell": cell,
            "hidden": True,
            "closed": False,
            "marks": 0,
            "wounds": 0,
            "host": None,
            "acted": False,
            "moved": False,
            "armour": 0,
            "x": x,
            "extra": 0,  # additional lives [204.2]
            "hurt": None,  # the turn it last took wounds from an attack (С: Гнев)
        }

    # -- the Reveal Step [306] ----------------------------------------------------------

    def _reveal(self, s: State, iid: int, events: list[Event], rule: str) -> None:
        """Turn a hidden card face up [306.2, 415.2]; a revealed flyer or terrain goes to
        the Additional Zone (306.3, 211.2)."""
        q = s["pieces"][str(iid)]
        if not q["hidden"]:
            return
        q["hidden"] = False
        card = self.card(s, iid)
        event = {
            "type": "reveal",
            "card": iid,
            "id": card.id,
            "seat": q["owner"],
            "cell": _name(q["cell"]),
            "rule": rule,
        }
        if card.cost_x:
            event["x"] = q["x"]
        events.append(event)
        if s["phase"] in BATTLE_PHASES:
            self._to_additional_zone(s, iid, events)

    def _to_additional_zone(self, s: State, iid: int, events: list[Event]) -> None:
        q = s["pieces"][str(iid)]
        card = self.card(s, iid)
        if q["cell"] is not None and (card.is_flyer or card.type == "terrain"):
            events.append(
                {
                    "type": "additional_zone",
                    "card": iid,
                    "seat": q["owner"],
                    "from": _name(q["cell"]),
                }
            )
            q["cell"] = None

    def _stealthy(self, s: State, iid: int) -> bool:
        """С: Скрытность, 415.2б: stays hidden at the Reveal Step (the engine always takes
        that option, X-cost cards excepted: 306.2(1)); its owner reveals it at will."""
        card = self.card(s, iid)
        return card.has("stealth") and not card.cost_x

    def _do_reveal(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        """С: Скрытность: the owner, holding priority, reveals a hidden Stealth card; a
        playable ability that does not use the stack (415.5)."""
        iid = self._iid(action)
        q = s["pieces"].get(str(iid))
        if q is None or q["owner"] != seat or not q["hidden"] or not self._stealthy(s, iid):
            raise _err("415.5", "Only your own hidden Stealth card may be revealed at will.")
        self._reveal(s, iid, events, "С: Скрытность")
        s["priority"] = {"holder": seat, "passes": 0}

    def _may_stay_hidden(self, s: State) -> list[int]:
        """306.2(2), D-22: the second player's hidden cards of their third row, save
        symbiotes, equipment, parasites and X-cost cards (always revealed)."""
        second = 1 - s["first"]
        out = []
        for iid in self._pieces_of(s, second):
            q = s["pieces"][str(iid)]
            card = self.card(s, iid)
            if (
                q["hidden"]
                and iid not in s["keep_hidden"]
                and q["cell"] is not None
                and board.is_third_row(tuple(q["cell"]), board.SECOND)
                and card.type != "equipment"
                and card.subtype not in ("symbiote", "parasite")
                and not card.cost_x
            ):
                out.append(iid)
        return sorted(out)

    def _start_reveal(self, s: State, events: list[Event]) -> None:
        first = s["first"]
        for seat in (first, 1 - first):  # 306.2(1): X costs first
            for iid in sorted(self._pieces_of(s, seat)):
                if self.card(s, iid).cost_x:
                    self._reveal(s, iid, events, "306.2")
        for iid in sorted(self._pieces_of(s, first)):  # 306.2(2): the first player's
            if not self._stealthy(s, iid):
                self._reveal(s, iid, events, "306.2")
        if self._may_stay_hidden(s):
            s["phase"] = "reveal"
        else:
            self._finish_reveal(s, events)

    def _do_keep_hidden(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        if iid not in self._may_stay_hidden(s):
            raise _err(
                "306.2",
                "Only hidden cards of your third row may stay hidden, never symbiotes, "
                "equipment, parasites or X-cost cards.",
            )
        s["keep_hidden"].append(iid)
        events.append(
            {"type": "keep_hidden", "seat": seat, "cell": _name(s["pieces"][str(iid)]["cell"])}
        )

    def _do_reveal_done(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        self._finish_reveal(s, events)

    def _finish_reveal(self, s: State, events: list[Event]) -> None:
        first = s["first"]
        for iid in sorted(self._pieces_of(s, 1 - first)):
            if iid not in s["keep_hidden"] and not self._stealthy(s, iid):
                self._reveal(s, iid, events, "306.2")
        for seat in (first, 1 - first):  # 306.3
            for iid in sorted(self._pieces_of(s, seat)):
                if not s["pieces"][str(iid)]["hidden"]:
                    self._to_additional_zone(s, iid, events)
        s["phase"] = "host"
        if recruit.next_assignment(self._host_pieces(s), first_player=first) is None:
            self._start_battle(s, events)

    def _host_pieces(self, s: State) -> dict[str, recruit.Piece]:
        return {
            k: recruit.Piece(
                self.card(s, int(k)),
                q["owner"],
                _name(q["cell"]),
                q["hidden"],
                None if q["host"] is None else str(q["host"]),
            )
            for k, q in s["pieces"].items()
        }

    def _host_actions(self, s: State, seat: int) -> list[Action]:
        pieces = self._host_pieces(s)
        key = recruit.next_assignment(pieces, first_player=s["first"])
        if key is None or pieces[key].owner != seat:
            return []
        kind = pieces[key].kind
        out = []
        for k in sorted(pieces, key=int):
            if pieces[k].owner == seat and pieces[k].kind == kind and pieces[k].host is None:
                for h in recruit.legal_hosts(pieces, k, first_player=s["first"]):
                    out.append({"type": "host", "card": int(k), "host": int(h)})
        return out

    def _refuse_skip(self, s: State, seat: int) -> None:
        pieces = self._host_pieces(s)
        key = recruit.next_assignment(pieces, first_player=s["first"])
        if key is not None:
            recruit.check_skip(pieces, key, first_player=s["first"])  # 306.7

    def _do_host(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid, host = self._iid(action), self._iid(action, "host")
        pieces = self._host_pieces(s)
        if str(iid) not in pieces or pieces[str(iid)].owner != seat:
            raise _err("306.4", "Assign a host to one of your own cards.")
        after = recruit.assign_host(pieces, str(iid), str(host), first_player=s["first"])
        del after
        q = s["pieces"][str(iid)]
        events.append(
            {
                "type": "host",
                "card": iid,
                "host": host,
                "from": _name(q["cell"]),
                "cell": _name(s["pieces"][str(host)]["cell"]),
            }
        )
        q["host"] = host
        q["cell"] = list(s["pieces"][str(host)]["cell"])
        if recruit.next_assignment(self._host_pieces(s), first_player=s["first"]) is None:
            self._start_battle(s, events)

    # -- Start of Battle [307-308] ------------------------------------------------------

    def _start_battle(self, s: State, events: list[Event]) -> None:
        for key in recruit.unhosted(self._host_pieces(s)):  # 307.1
            self._destroy(s, int(key), events, "307.1")
        # 307.2-307.5: no start-of-battle trigger is interpreted: both pass.
        s["phase"] = "vanguard"  # 308
        s["vanguard"] = s["first"]
        self._next_vanguard(s, events)

    # -- the Vanguard Step [308, С: Авангард, D-30] -------------------------------------

    def _vanguard_strikers(self, s: State, seat: int) -> list[int]:
        out = []
        for iid in sorted(self._pieces_of(s, seat)):
            q = s["pieces"][str(iid)]
            card = self.card(s, iid)
            if (
                card.has("vanguard")
                and card.type == "creature"
                and not (q["hidden"] or q["closed"] or q["acted"])
                and q["cell"] is not None
                and self._strike_targets(s, iid)
            ):
                out.append(iid)
        return out

    def _next_vanguard(self, s: State, events: list[Event]) -> None:
        """308.1-308.3: the first player's Vanguard strikes, then the second's; a player
        with none passes at once; then the Preliminary Phase ends and the first turn
        begins."""
        while s["vanguard"] is not None and not self._vanguard_strikers(s, s["vanguard"]):
            s["vanguard"] = 1 - s["first"] if s["vanguard"] == s["first"] else None
        if s["vanguard"] is None and not s["finished"]:
            s.pop("vanguard", None)
            s["phase"] = "main"
            s["turn"] = 0
            self._begin_turn(s, s["first"], events)

    def _vanguard_actions(self, s: State, seat: int) -> list[Action]:
        out: list[Action] = []
        for iid in self._vanguard_strikers(s, seat):
            for target in self._strike_targets(s, iid):
                tq = s["pieces"][str(target)]
                if tq["hidden"]:
                    out.append({"type": "strike", "card": iid, "cell": _name(tq["cell"])})
                else:
                    out.append({"type": "strike", "card": iid, "target": target})
        out.append({"type": "pass"})
        return out

    def _vanguard_strike(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        """С: Авангард: a simple strike on an adjacent enemy card as with Unanswerable
        Strike (the target does not fight: one die, 205.4), executed at once with no stack
        (301.2, D-30); the striker closes (``Config.vanguard_closes``)."""
        iid = self._iid(action)
        if iid not in self._vanguard_strikers(s, seat):
            raise _err("С: Авангард", "Strike with an open Vanguard creature that has not struck.")
        target = self._named_target(s, action)
        problem = self._target_problem(s, iid, target)
        if problem is not None:
            raise problem
        q = s["pieces"][str(iid)]
        q["acted"] = True
        q["closed"] = q["closed"] or self.cfg(s).vanguard_closes
        events.append({"type": "strike", "card": iid, "target": target, "rule": "С: Авангард"})
        self._reveal(s, target, events, "415.2")
        if self._target_problem(s, iid, target) is not None:
            events.append({"type": "blocked", "rule": "415.4"})
            self._next_vanguard(s, events)
            return
        chain = {"source": iid, "target": target, "fight": False}
        self._fear(s, 0, iid, target, events)
        if str(iid) not in s["pieces"]:
            self._next_vanguard(s, events)
            return
        src = self.card(s, iid)
        a = rng.randbelow(s["rng"], 6) + 1
        da = (src.ability_x("experience_attack") or 0) - (src.ability_x("clumsiness") or 0)
        fa = fight.final_roll(a, (da, _blessed(src)))
        kind = fight.strength(fa)
        amount = fight.strike_value(src.strike, kind, *self._value_mods(s, chain, iid, target))
        amount = self._after_armour(s, target, amount)
        s["last_roll"] = {"chain": 0, "rolls": [a, None]}
        events.append({"type": "roll", "chain": 0, "rolls": [a, None], "rule": "С: Авангард"})
        events.append(
            {
                "type": "calculation",
                "attacker": iid,
                "retaliator": target,
                "rolls": [fa, None],
                "row": None,
                "kinds": [kind, fight.MISS],
                "weakened": False,
                "chain": 0,
            }
        )
        if amount > 0:
            tq = s["pieces"][str(target)]
            tq["wounds"] += amount
            tq["hurt"] = s["turn"]
            events.append({"type": "wounds", "card": target, "amount": amount})
            if self.lives(s, target) <= 0:
                self._destroy(s, target, events, "402.3")
            self._vampirism(s, iid, target, amount, events)
        self._next_vanguard(s, events)

    # -- turns [309-313] ----------------------------------------------------------------

    def _begin_turn(self, s: State, seat: int, events: list[Event]) -> None:
        s["turn"] += 1
        s["round"] = s["turn"]
        s["active"] = seat
        s["phase"] = "main"
        for q in s["pieces"].values():
            q["armour"] = 0  # Armour: "during each player's turn"
            if q["owner"] == seat:  # 311.1-311.2
                q["closed"] = False
                q["marks"] = 0
                q["acted"] = False
                q["moved"] = False
        s["priority"] = stack.new_priority(seat)
        events.append({"type": "turn", "turn": s["turn"], "active": seat})
        self._turn_start_triggers(s, seat, events)

    def _turn_start_triggers(self, s: State, seat: int, events: list[Event]) -> None:
        """311.4: Regeneration, Poison and Fading of the active player's cards open at the
        turn's start (D-27); the player orders them, Regeneration first. Poison and Fading
        wound the card itself ("ранится": Steadfastness does not help)."""
        for key in sorted(s["pieces"], key=int):
            q = s["pieces"].get(key)
            if q is None or q["owner"] != seat or q["closed"]:
                continue
            iid = int(key)
            card = self.card(s, iid)
            regen = card.ability_x("regeneration") if card.type == "creature" else None
            poison = card.ability_x("poison")
            if poison and (
                card.type != "creature"
                or card.has("incorporeal")
                or any(a.name == "protection" and a.of == "poison" for a in card.abilities)
            ):
                poison = None  # lost as a base effect (С: Отравление)
            fading = card.ability_x("fading")
            if card.type in ("terrain", "equipment"):  # 212.1, 214.1: no wounds
                poison = fading = None
            if regen and q["wounds"] > 0:
                healed = min(regen, q["wounds"])
                q["wounds"] -= healed
                events.append(
                    {"type": "healed", "card": iid, "amount": healed, "rule": "С: Регенерация"}
                )
            for x, rule in ((poison, "С: Отравление"), (fading, "С: Угасание")):
                if not x or key not in s["pieces"]:
                    continue
                if q["hidden"]:  # 415.2: a firing trigger reveals its card
                    self._reveal(s, iid, events, "415.2")
                q["wounds"] += x
                events.append({"type": "wounds", "card": iid, "amount": x, "rule": rule})
                if self.lives(s, iid) <= 0:
                    self._destroy(s, iid, events, "402.3")

    def _end_turn(self, s: State, events: list[Event]) -> None:
        """313.2: the turn ends; D-22: the second player's hidden cards are revealed at the
        end of the first player's first turn; incorporeal creatures sharing a cell die."""
        if s["turn"] == 1 and self.cfg(s).reveal_hidden_row_after_first_turn:
            for iid in sorted(self._pieces_of(s, 1 - s["first"])):
                if s["pieces"][str(iid)]["hidden"] and not self._stealthy(s, iid):
                    self._reveal(s, iid, events, "306.2")
        for key in sorted(s["pieces"], key=int):
            q = s["pieces"].get(key)
            if q is None or q["cell"] is None or q["host"] is not None:
                continue
            if self.card(s, int(key)).has("incorporeal"):
                others = [o for o in self._occupants(s, q["cell"]) if o != int(key)]
                if others:
                    self._destroy(s, int(key), events, "С: Бестелесность")
        if s["turn"] >= s["config"]["turn_limit"]:
            self._finish(s, events, winners=[], draw=True, reason="turn_limit")
            return
        self._begin_turn(s, 1 - s["active"], events)

    def _battle_actions(self, s: State, seat: int, only: int | None = None) -> list[Action]:
        """The battle's legal actions; ``only``: just those of that card (and ``pass``)."""
        out: list[Action] = [{"type": "pass"}]
        pieces = s["pieces"]
        if only is None:  # (number, piece) of this player's cards, by number
            mine = sorted([(int(k), q) for k, q in pieces.items() if q["owner"] == seat])
        else:
            q = pieces.get(str(only))
            mine = [(only, q)] if q is not None and q["owner"] == seat else []
        for iid, q in mine:  # С: Скрытность, whenever holding priority
            if q["hidden"] and self._stealthy(s, iid):
                out.append({"type": "reveal", "card": iid})
        if s["phase"] != "main":
            return out
        st = s["stack"]
        if not st:
            if seat != s["active"]:
                return out
            occupied = {
                (q["cell"][0], q["cell"][1])
                for q in pieces.values()
                if q["cell"] is not None and q["host"] is None
            }
            keys = sorted(pieces, key=int)
            theirs = [int(k) for k in keys if pieces[k]["owner"] != seat]
            # _mover_problem, _striker_problem and _actor_problem inlined: the card is the
            # active player's, in the Main Phase, the stack empty.
            for iid, q in mine:
                if q["hidden"] or q["closed"] or q["acted"]:
                    continue  # no move, strike or ability (D-21, 203.6, 209.3, 104.4)
                card = self.card(s, iid)
                if card.type == "creature":
                    if (
                        not card.subtype
                        and q["cell"] is not None
                        and q["host"] is None
                        and q["marks"] < card.movement
                    ):  # then _move_problem, inlined
                        ghost = card.has("incorporeal")
                        for cell in _NEIGHBOURS[(q["cell"][0], q["cell"][1])]:
                            if ghost or cell not in occupied:
                                out.append({"type": "move", "card": iid, "cell": _CELL_NAMES[cell]})
                    if not q["moved"]:
                        for target in self._strike_targets(s, iid, theirs):
                            tq = pieces[str(target)]
                            if tq["hidden"]:
                                out.append(
                                    {"type": "strike", "card": iid, "cell": _name(tq["cell"])}
                                )
                            else:
                                out.append({"type": "strike", "card": iid, "target": target})
                if not q["moved"]:
                    out.extend(self._ability_actions(s, seat, iid, keys))
            return out
        top = st[-1]
        chain = s["chains"].get(str(top["chain"]))
        if top["kind"] == "target" and chain is not None and chain.get("strike"):
            for iid, _q in mine:
                if self._defender_problem(s, seat, chain, iid) is None:
                    out.append({"type": "defender", "card": iid})
        weakening = top["kind"] == "calculation" and chain is not None
        if weakening and self._weaken_problem(s, seat, chain) is None:
            out.append({"type": "weaken"})
        return out

    # -- moves [203] --------------------------------------------------------------------

    def _mover_problem(self, s: State, seat: int, iid: int) -> IllegalAction | None:
        q = s["pieces"].get(str(iid))
        if q is None or q["owner"] != seat:
            return _err("203.1", "Move one of your own cards on the Battlefield.")
        if s["phase"] != "main" or s["active"] != seat:
            return _err("203.5", "No moving in the opponent's turn.")
        if s["stack"]:
            return _err("203.8", "Moving is not instant: the stack must be empty.")
        card = self.card(s, iid)
        if q["hidden"]:
            return _err("D-21", "A hidden card may declare only instant abilities.")
        if card.type != "creature" or card.subtype or q["cell"] is None or q["host"] is not None:
            rule = "203.10" if card.is_flyer else "203.9"
            return _err(rule, "Only a creature with no subtype on the Battlefield moves.")
        if q["closed"]:
            return _err("203.6", "A closed card cannot move.")
        if q["acted"]:
            return _err("Г: Действие карты", "A card that acted this turn cannot move.")
        if q["marks"] >= card.movement:
            return _err(
                "203.4",
                f"No movement left: {card.movement} movement, {q['marks']} markers.",
            )
        return None

    def _move_problem(
        self, s: State, seat: int, iid: int, cell: tuple[int, int]
    ) -> IllegalAction | None:
        problem = self._mover_problem(s, seat, iid)
        if problem is not None:
            return problem
        q = s["pieces"][str(iid)]
        if not board.on_board(cell) or not board.orthogonally_adjacent(tuple(q["cell"]), cell):
            return _err("203.2", "A move is one step along a vertical or a horizontal.")
        if self._occupants(s, cell) and not self.card(s, iid).has("incorporeal"):
            return _err("Г: Занятая клетка", f"{board.cell_name(cell)} is occupied.")
        return None

    def _do_move(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        name = action.get("cell")
        try:
            cell = board.parse_cell(name) if type(name) is str else None
        except ValueError:
            cell = None
        if cell is None:
            raise _err("207.5", 'Name the cell with "cell", e.g. "B2".')
        problem = self._move_problem(s, seat, iid, cell)
        if problem is not None:
            raise problem
        q = s["pieces"][str(iid)]
        old = _name(q["cell"])
        q["marks"] += 1  # 203.3
        q["moved"] = True  # 203.11
        q["cell"] = list(cell)
        for other in s["pieces"].values():  # 210.8, 214.9: hosted cards move along
            if other["host"] == iid:
                other["cell"] = list(cell)
        events.append({"type": "move", "card": iid, "from": old, "to": board.cell_name(cell)})
        s["priority"] = stack.after_declare_or_execute(s["active"])

    # -- strikes [205, 216] -------------------------------------------------------------

    def _striker_problem(self, s: State, seat: int, iid: int) -> IllegalAction | None:
        q = s["pieces"].get(str(iid))
        if q is None or q["owner"] != seat:
            return _err("205.2", "Strike with one of your own cards in play.")
        if s["phase"] != "main" or s["active"] != seat:
            return _err("205.2а", "A simple strike only in your own turn, as the active player.")
        if s["stack"]:
            return _err("205.2а", "A simple strike needs an empty stack.")
        card = self.card(s, iid)
        if q["hidden"]:
            return _err("D-21", "A hidden card may declare only instant abilities.")
        if card.type != "creature":
            return _err("209.2", "Only creatures make simple strikes.")
        if q["closed"]:
            return _err("209.3", "A closed creature cannot strike.")
        if q["acted"]:
            return _err("Г: Действие карты", "This card has acted this turn.")
        if q["moved"]:
            return _err("203.11", "A card that moved this turn cannot take closing actions.")
        return None

    def _adjacent(self, s: State, a: int, b: int) -> bool:
        """Card adjacency: cells a king's move apart (207.7), hosted cards sharing their
        host's (210.9, 210.9а); flyers are adjacent to nothing (211.4)."""
        qa, qb = s["pieces"][str(a)], s["pieces"][str(b)]
        if qa["cell"] is None or qb["cell"] is None:
            return False
        if (self.card(s, a).is_flyer and not qa["hidden"]) or (
            self.card(s, b).is_flyer and not qb["hidden"]
        ):
            return False  # a hidden card is only a card on its cell (415.3)
        if qa["cell"] == qb["cell"]:
            return qa["host"] == b or qb["host"] == a
        (ax, ay), (bx, by) = qa["cell"], qb["cell"]
        return max(abs(ax - bx), abs(ay - by)) == 1  # board.adjacent, inlined

    def _target_problem(self, s: State, source: int, target: int) -> IllegalAction | None:
        tq = s["pieces"].get(str(target))
        sq = s["pieces"][str(source)]
        if tq is None or tq["owner"] == sq["owner"]:
            return _err("205.2", "Strike an enemy card in play.")
        src, tgt = self.card(s, source), self.card(s, target)
        if src.is_flyer:  # 211.5
            if tgt.has("cache") and not tq["hidden"]:
                return _err("С: Схрон", "A card with Cache cannot be the target of a flyer.")
            return None
        if not tq["hidden"] and tgt.is_flyer:
            return _err("211.8", "A non-flying creature cannot strike a flyer.")
        if not self._adjacent(s, source, target):
            return _err("205.2", "A simple strike hits an adjacent card.")
        return None

    def _strike_targets(self, s: State, source: int, enemies: list[int] | None = None) -> list[int]:
        """The cards ``source`` may strike; ``enemies``: its owner's opponent's cards in
        play, sorted, if the caller has them."""
        sq = s["pieces"][str(source)]
        owner = sq["owner"]
        candidates = sorted(self._pieces_of(s, 1 - owner)) if enemies is None else enemies
        if not self.card(s, source).is_flyer:  # only adjacent cards can be legal
            if sq["cell"] is None:
                return []
            x, y = sq["cell"]
            candidates = [
                t
                for t in candidates
                if (c := s["pieces"][str(t)]["cell"]) is not None
                and abs(c[0] - x) <= 1
                and abs(c[1] - y) <= 1
            ]
        return [t for t in candidates if self._target_problem(s, source, t) is None]

    def _do_strike(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        if s["phase"] == "vanguard":
            self._vanguard_strike(s, seat, action, events)
            return
        iid = self._iid(action)
        problem = self._striker_problem(s, seat, iid)
        if problem is not None:
            raise problem
        target = self._named_target(s, action)
        problem = self._target_problem(s, iid, target)
        if problem is not None:
            raise problem
        self._declare(s, seat, iid, target, None, events)

    def _named_target(self, s: State, action: Action) -> int:
        """The target of a declaration: ``target`` (an open card's number) or ``cell`` (a
        hidden card's cell: its number is secret, 206.5)."""
        if "cell" in action:  # a hidden target, named by its cell
            name = action.get("cell")
            try:
                cell = list(board.parse_cell(name)) if type(name) is str else None
            except ValueError:
                cell = None
            hidden = [
                int(k)
                for k, q in s["pieces"].items()
                if cell is not None and q["cell"] == cell and q["hidden"]
            ]
            if not hidden:
                raise _err("205.2", "No hidden card there.")
            return hidden[0]
        target = self._iid(action, "target")
        tq = s["pieces"].get(str(target))
        if tq is not None and tq["hidden"]:
            raise _err("205.2", "Name a hidden target by its cell.")
        return target

    def _declare(
        self,
        s: State,
        seat: int,
        iid: int,
        target: int,
        ability: str | None,
        events: list[Event],
    ) -> None:
        """Push the chain of a simple strike (``ability`` None) or a playable ability: nine
        objects with dice, six without (216.1а-б); a hidden target is revealed and, if that
        makes the declaration illegal, the chain is blocked (415.2, 415.4, D-20)."""
        n = s["next_chain"]
        s["next_chain"] += 1
        chain = {
            "strike": ability is None,
            "controller": seat,
            "source": iid,
            "initial": target,
            "target": target,
            "defender": None,
            "redirected": False,
            "fight": False,
            "rolls": None,
            "final": None,
            "weakened": False,
            "blocked": False,
        }
        if ability is not None:
            chain["ability"] = ability
        s["chains"][str(n)] = chain
        dice = ability is None or ability in RANGED
        s["stack"] = stack.push_chain(s["stack"], n, dice=dice)  # 216.1а-б
        if ability is None:
            events.append({"type": "strike", "chain": n, "card": iid, "target": target})
        else:
            events.append(
                {"type": "ability", "ability": ability, "chain": n, "card": iid, "target": target}
            )
        if s["pieces"][str(target)]["hidden"]:  # 415.2, D-20: revealed on becoming a target
            self._reveal(s, target, events, "415.2")
            if self._chain_target_problem(s, chain) is not None:  # 415.4: blocked
                chain["blocked"] = True
                s["stack"] = stack.remove_chain(s["stack"], n, keep_payment=True)
                s["stack"].append({"chain": n, "kind": "end", "seen": False})
                s["stack"][-1], s["stack"][-2] = s["stack"][-2], s["stack"][-1]
                events.append({"type": "blocked", "chain": n, "rule": "415.4"})
        s["priority"] = stack.after_declare_or_execute(s["active"])

    def _chain_target_problem(self, s: State, chain: dict) -> IllegalAction | None:
        ability = chain.get("ability")
        if ability is None:
            return self._target_problem(s, chain["source"], chain["target"])
        return self._ability_target_problem(s, ability, chain["source"], chain["target"])

    # -- playable abilities [404]: shots, throws, discharges, Heal, Finishing ------------

    def _actor_problem(self, s: State, seat: int, iid: int, ability: str) -> IllegalAction | None:
        """A non-instant closing ability [404.7, D-11]: the active player's open, revealed
        card that has neither acted nor moved this turn, in the Main Phase, the stack empty."""
        q = s["pieces"].get(str(iid))
        if q is None or q["owner"] != seat:
            return _err("404.2", "Use an ability of one of your own cards in play.")
        if ability not in PLAYABLE or not self.card(s, iid).has(ability):
            return _err("404.1", f"This card has no playable {ability[:20]!r} ability.")
        if s["phase"] != "main" or s["active"] != seat:
            return _err("404.7", "A non-instant ability only in your own Main Phase.")
        if s["stack"]:
            return _err("404.7", "A non-instant ability needs an empty stack.")
        if q["hidden"]:
            return _err("D-21", "A hidden card may declare only instant abilities.")
        if q["closed"]:
            return _err("104.4", "A closed card cannot pay a closing cost.")
        if q["acted"]:
            return _err("Г: Действие карты", "This card has acted this turn.")
        if q["moved"]:
            return _err("203.11", "A card that moved this turn cannot take closing actions.")
        return None

    def protected(self, s: State, iid: int, ability: str) -> bool:
        """411.1, 411.4: Protection from the ability's kind (from magic covers discharges)."""
        kinds = RANGED.get(ability, ())
        return any(a.name == "protection" and a.of in kinds for a in self.card(s, iid).abilities)

    def _ability_target_problem(
        self, s: State, ability: str, source: int, target: int
    ) -> IllegalAction | None:
        tq = s["pieces"].get(str(target))
        sq = s["pieces"][str(source)]
        if tq is None:
            return _err("400.2", "Name a card in play.")
        tgt = self.card(s, target)
        rule = _RULE[ability]
        if ability in RANGED:
            if tq["owner"] == sq["owner"]:
                return _err(rule, "Attack an enemy card in play.")
            reach = self.card(s, source).ability_x("range")
            if reach is not None and sq["cell"] is not None and tq["cell"] is not None:
                (ax, ay), (bx, by) = sq["cell"], tq["cell"]
                if max(abs(ax - bx), abs(ay - by)) > reach:  # С: Дальность, king moves
                    return _err("С: Дальность", f"Out of range: Range {reach}.")
            if not tq["hidden"] and self.protected(s, target, ability):
                return _err("411.1", f"The target has Protection from {RANGED[ability][0]}.")
            return None
        if tq["hidden"]:  # 415.3: a hidden card is a legal target, its conditions met
            if ability == "finishing" and self._adjacent(s, source, target):
                return None
            return _err(rule, "Heal or finish an open creature (finishing: an adjacent one).")
        if tgt.type != "creature" or tgt.has("incorporeal"):
            return _err(rule, "The target is a non-incorporeal creature.")
        if ability == "heal":
            if tq["wounds"] <= 0:
                return _err(rule, "The target has no wounds to heal.")
            return None
        if target == source or not self._adjacent(s, source, target):
            return _err(rule, "Finishing destroys an adjacent creature.")
        x = self.card(s, source).ability_x("finishing") or 0
        if self.lives(s, target) > x:
            return _err(rule, f"Finishing {x}: the target has more than {x} lives.")
        return None

    def _ability_actions(
        self, s: State, seat: int, iid: int, keys: list[str] | None = None
    ) -> list[Action]:
        """``iid``'s playable abilities and their targets; ``keys``: the pieces' keys in
        their numbers' order, if the caller has them."""
        out: list[Action] = []
        card = self.card(s, iid)
        playable = self._playable.get(card.id)
        if playable is None:
            playable = self._playable[card.id] = tuple(a for a in PLAYABLE if card.has(a))
        for ability in playable:
            if self._actor_problem(s, seat, iid, ability) is not None:
                continue
            if keys is None:
                keys = sorted(s["pieces"], key=int)
            for key in keys:
                target = int(key)
                if self._ability_target_problem(s, ability, iid, target) is None:
                    tq = s["pieces"][key]
                    if tq["hidden"]:
                        out.append(
                            {
                                "type": "ability",
                                "ability": ability,
                                "card": iid,
                                "cell": _name(tq["cell"]),
                            }
                        )
                    else:
                        out.append(
                            {"type": "ability", "ability": ability, "card": iid, "target": target}
                        )
        return out

    def _do_ability(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        ability = action.get("ability")
        if type(ability) is not str:
            raise _err("404.1", 'Name the ability with "ability", e.g. "shot".')
        problem = self._actor_problem(s, seat, iid, ability)
        if problem is not None:
            raise problem
        target = self._named_target(s, action)
        problem = self._ability_target_problem(s, ability, iid, target)
        if problem is not None:
            raise problem
        self._declare(s, seat, iid, target, ability, events)

    def _defender_problem(self, s: State, seat: int, chain: dict, iid: int) -> IllegalAction | None:
        st = s["stack"]
        if not st or st[-1]["kind"] != "target" or not chain.get("strike"):
            return _err("216.3", "A defender is assigned while a strike's Target object is on top.")
        if seat == s["active"]:
            return _err("205.3в", "Only the non-active player assigns a defender.")
        if chain["redirected"]:
            return _err("412.5", "This strike has already been redirected.")
        src = self.card(s, chain["source"])
        if src.has("directed") or src.has("accuracy"):
            rule = "С: Направленный удар" if src.has("directed") else "С: Точность"
            return _err(rule, "No defender may be assigned against this strike.")
        q = s["pieces"].get(str(iid))
        if q is None or q["owner"] != seat:
            return _err("205.3а", "The defender is one of your own creatures.")
        if iid == chain["target"]:
            return _err("205.3а", "The target cannot defend itself.")
        card = self.card(s, iid)
        if card.type != "creature" or q["hidden"]:
            return _err("205.3а", "The defender is an open creature (hidden cards do not defend).")
        if q["closed"]:
            return _err("205.3а", "A closed creature cannot defend.")
        source, target = chain["source"], chain["target"]
        if str(source) not in s["pieces"] or str(target) not in s["pieces"]:
            return _err("205.3а", "The strike has no source or target any more.")
        src_flyer = src.is_flyer
        tgt_flyer = self.card(s, target).is_flyer
        if card.is_flyer:  # 211.6: a flyer defends against a flyer only
            if not src_flyer:
                return _err("211.6", "A flyer never defends against a non-flyer's attack.")
            return None
        if src_flyer:  # 211.6: a non-flyer adjacent to a Battlefield target may defend
            if tgt_flyer or not self._adjacent(s, iid, target):
                return _err("211.6", "The defender must stand next to the target.")
            return None
        if not (self._adjacent(s, iid, source) and self._adjacent(s, iid, target)):
            return _err(
                "205.3а", "The defender must be adjacent to both the source and the target."
            )
        return None

    def _do_defender(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        if not s["stack"]:
            raise _err("216.3", "There is no strike to defend against.")
        n = s["stack"][-1]["chain"]
        chain = s["chains"].get(str(n))
        if chain is None:
            raise _err("216.3", "There is no strike to defend against.")
        problem = self._defender_problem(s, seat, chain, iid)
        if problem is not None:
            raise problem
        m = s["next_chain"]
        s["next_chain"] += 1
        s["chains"][str(m)] = {"redirect": n, "defender": iid, "controller": seat}
        s["stack"] = [*s["stack"], *stack.chain_objects(m, kinds=stack.REDIRECTION_CHAIN)]
        events.append({"type": "defender", "chain": n, "card": iid})
        s["priority"] = stack.after_declare_or_execute(s["active"])

    def _weaken_problem(self, s: State, seat: int, chain: dict) -> IllegalAction | None:
        st = s["stack"]
        if not st or st[-1]["kind"] != "calculation" or not chain.get("strike"):
            return _err("216.7", "Weakening is chosen while the Calculation object is on top.")
        if chain["weakened"]:
            return _err("216.7", "Already weakened.")
        if not chain["fight"] or chain["final"] is None:
            return _err("216.7", "Only in a fight of two open creatures.")
        a, r = chain["final"]
        who = fight.weakener(a, r, self.cfg(s))
        if who is None:
            return _err("D-16", "No exchange to weaken here.")
        party = chain["source"] if who == "attacker" else chain["target"]
        if s["owner"][party] != seat:
            return _err("216.7", "Only the player who rolled higher may weaken.")
        return None

    def _do_weaken(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        n = s["stack"][-1]["chain"] if s["stack"] else None
        chain = s["chains"].get(str(n)) if n is not None else None
        if chain is None:
            raise _err("216.7", "Nothing to weaken.")
        problem = self._weaken_problem(s, seat, chain)
        if problem is not None:
            raise problem
        chain["weakened"] = True
        events.append({"type": "weaken", "chain": n, "seat": seat})
        s["priority"] = stack.after_declare_or_execute(s["active"])

    # -- priority and execution [215] ---------------------------------------------------

    def _do_pass(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        if s["phase"] == "vanguard":  # 308.2: a player who passed declares nothing more
            events.append({"type": "pass", "seat": seat})
            s["vanguard"] = 1 - seat if seat == s["first"] else None
            self._next_vanguard(s, events)
            return
        if s["stack"]:
            s["stack"] = stack.mark_seen(s["stack"])
        priority, outcome = stack.after_pass(s["priority"], s["stack"])
        s["priority"] = priority
        events.append({"type": "pass", "seat": seat})
        if outcome == "execute":
            obj, s["stack"] = stack.pop(s["stack"])
            self._execute(s, obj, events)
            s["priority"] = stack.after_declare_or_execute(s["active"])
        elif outcome == "end":
            if s["phase"] == "main":  # 312 -> 313
                s["phase"] = "final"
                s["priority"] = stack.new_priority(s["active"])
                events.append({"type": "final_phase"})
            else:
                self._end_turn(s, events)

    def _execute(self, s: State, obj: dict, events: list[Event]) -> None:
        n = obj["chain"]
        chain = s["chains"].get(str(n))
        kind = obj["kind"]
        if chain is None:
            return
        if "redirect" in chain:  # 412.4: a defender's Wounds object redirects
            if kind == "wounds":
                strike = s["chains"].get(str(chain["redirect"]))
                d = chain["defender"]
                if strike is not None and str(d) in s["pieces"]:
                    strike["target"] = d
                    strike["defender"] = d
                    strike["redirected"] = True
                    events.append({"type": "redirected", "chain": chain["redirect"], "target": d})
            elif kind == "payment":
                del s["chains"][str(n)]
            return
        source, target = chain["source"], chain["target"]
        present = str(source) in s["pieces"] and str(target) in s["pieces"]
        if kind in ("target", "roll", "result", "calculation", "defense", "wounds") and not present:
            if kind == "target":  # 409, 423.1: illegal at execution, cancelled unpaid
                s["stack"] = stack.remove_chain(s["stack"], n)
                del s["chains"][str(n)]
                events.append({"type": "cancelled", "chain": n, "rule": "423.1"})
            return
        ability = chain.get("ability")
        if kind == "target":
            self._reveal(s, target, events, "216.4")
            if self._chain_target_problem(s, chain) is not None and not chain["redirected"]:
                s["stack"] = stack.remove_chain(s["stack"], n)
                del s["chains"][str(n)]
                events.append({"type": "cancelled", "chain": n, "rule": "423.1"})
                return
            events.append({"type": "target", "chain": n, "attacker": source, "retaliator": target})
            if ability is None or ability in RANGED:
                self._fear(s, n, source, target, events)
        elif kind == "roll":
            tq = s["pieces"][str(target)]
            src, tgt = self.card(s, source), self.card(s, target)
            chain["fight"] = fight.fights_back(
                fight.MELEE if ability is None else fight.RANGED,
                attacker_open=not s["pieces"][str(source)]["closed"],
                retaliator_open=not tq["closed"] and not tq["hidden"],
                retaliator_fights=tgt.type == "creature" and not src.has("unanswerable"),
            )
            a = rng.randbelow(s["rng"], 6) + 1
            r = rng.randbelow(s["rng"], 6) + 1 if chain["fight"] else None
            chain["rolls"] = [a, r]
            s["last_roll"] = {"chain": n, "rolls": [a, r]}
            events.append({"type": "roll", "chain": n, "rolls": [a, r]})
        elif kind == "result":
            a, r = chain["rolls"]
            src, tgt = self.card(s, source), self.card(s, target)
            if ability is None:  # С: Опыт в Атаке, Неповоротливость
                da = (src.ability_x("experience_attack") or 0) - (src.ability_x("clumsiness") or 0)
            else:  # С: Опыт в Стрельбе / Метании / Разряде
                da = src.ability_x(EXPERIENCE[ability]) or 0
            fa = fight.final_roll(a, (da, _blessed(src)), open_fight=chain["fight"])
            fr = None
            if chain["fight"]:
                dr = (tgt.ability_x("experience_defence") or 0) - (tgt.ability_x("clumsiness") or 0)
                fr = fight.final_roll(r, (dr, _blessed(tgt)), open_fight=True)
            chain["final"] = [fa, fr]
            events.append({"type": "result", "chain": n, "final": [fa, fr]})
        elif kind == "calculation":
            fa, fr = chain["final"]
            src, tgt = self.card(s, source), self.card(s, target)
            if chain["fight"]:
                kinds = fight.strike_table(fa, fr)
                if chain["weakened"]:
                    kinds = fight.weaken(fa, fr, self.cfg(s))
                row = fight.table_row(fa - fr)
            else:
                kinds = (fight.strength(fa), fight.MISS)
                row = None
            chain["kinds"] = list(kinds)
            blow = src.strike if ability is None else fight.attack_for(src.ability_x(ability) or 0)
            chain["deal"] = [
                fight.strike_value(blow, kinds[0], *self._value_mods(s, chain, source, target)),
                fight.strike_value(
                    tgt.strike, kinds[1], *self._value_mods(s, chain, target, source)
                )
                if chain["fight"]
                else 0,
            ]
            s["last_fight"] = {
                "chain": n,
                "attacker": source,
                "retaliator": target,
                "rolls": [fa, fr],
                "row": row,
                "kinds": list(kinds),
                "weakened": chain["weakened"],
            }
            events.append({"type": "calculation", **s["last_fight"]})
        elif kind == "defense":
            if ability is not None and ability not in RANGED:
                return
            to_target, to_source = chain["deal"]
            if ability != "discharge":  # Armour: non-magical attacks only
                to_target = self._after_armour(s, target, to_target)
                to_source = self._after_armour(s, source, to_source)
            elif self.card(s, target).type in ("terrain", "equipment"):  # 212.1, 214.1
                to_target = 0
            chain["deal"] = [to_target, to_source]
        elif kind == "wounds" and ability == "heal":  # С: Излечение, 416.2
            q = s["pieces"][str(target)]
            healed = q["wounds"] - fight.heal(q["wounds"], self.card(s, source).ability_x("heal"))
            q["wounds"] -= healed
            events.append({"type": "healed", "card": target, "amount": healed, "chain": n})
        elif kind == "wounds" and ability == "finishing":  # С: Добивание
            if self._ability_target_problem(s, ability, source, target) is None:
                self._destroy(s, target, events, "С: Добивание")
        elif kind == "wounds":  # D-15: both sides at once
            to_target, to_source = chain["deal"]
            hits = [(target, to_target), (source, to_source)]
            for iid, amount in hits:
                if amount > 0:
                    q = s["pieces"][str(iid)]
                    q["wounds"] += amount
                    q["hurt"] = s["turn"]  # С: Гнев: wounded by an attack this turn
                    events.append({"type": "wounds", "card": iid, "amount": amount, "chain": n})
            for iid, amount in hits:
                if amount > 0 and str(iid) in s["pieces"] and self.lives(s, iid) <= 0:
                    self._destroy(s, iid, events, "402.3")
            if ability is None:  # С: Вампиризм, after the simple strike's wounds
                for iid, other, amount in (
                    (source, target, to_target),
                    (target, source, to_source),
                ):
                    self._vampirism(s, iid, other, amount, events)
        elif kind == "payment":
            closes = ability is not None or self.cfg(s).strike_closes_attacker  # D-11, 104.4
            if str(source) in s["pieces"] and closes:
                sq = s["pieces"][str(source)]
                sq["closed"] = True
                sq["acted"] = True
            d = chain["defender"]
            if d is not None and str(d) in s["pieces"]:  # 216.12а
                s["pieces"][str(d)]["closed"] = True
        elif kind == "end":  # 216.13
            del s["chains"][str(n)]

    def _value_mods(self, s: State, chain: dict, blower: int, struck: int) -> list[int]:
        """Modifiers of an attack's value on ``struck`` [216.8]: Vulnerability (+1 to every
        attack on it; to X: to X's wounds) and Wrath (+1 to a simple strike on a card
        wounded by an attack this turn)."""
        ability = chain.get("ability")
        out = []
        for a in self.card(s, struck).abilities:
            if a.name == "vulnerability" and (
                not a.of or (ability == "discharge" and a.of in ("magic", "discharges"))
            ):
                out.append(1)
                break
        wrath = ability is None and self.card(s, blower).has("wrath")
        if wrath and s["pieces"][str(struck)].get("hurt") == s["turn"]:
            out.append(1)
        return out

    def _fear(self, s: State, n: int, source: int, target: int, events: list[Event]) -> None:
        """С: Страх X: the card attacking this one wounds itself for X, unless it has Fear."""
        fear = self.card(s, target).ability_x("fear")
        src = self.card(s, source)
        if not fear or src.has("fear") or src.type in ("terrain", "equipment"):
            return
        s["pieces"][str(source)]["wounds"] += fear
        events.append(
            {"type": "wounds", "card": source, "amount": fear, "chain": n, "rule": "С: Страх"}
        )
        if self.lives(s, source) <= 0:
            self._destroy(s, source, events, "402.3")

    def _vampirism(self, s: State, iid: int, other: int, amount: int, events: list[Event]) -> None:
        """С: Вампиризм: after dealing X simple-strike wounds to a non-incorporeal creature,
        heal X; what exceeds the wounds becomes additional lives."""
        if amount <= 0 or str(iid) not in s["pieces"] or not self.card(s, iid).has("vampirism"):
            return
        victim = self.card(s, other)
        if victim.type != "creature" or victim.has("incorporeal"):
            return
        q = s["pieces"][str(iid)]
        healed = min(amount, q["wounds"])
        q["wounds"] -= healed
        q["extra"] = q.get("extra", 0) + amount - healed
        events.append({"type": "healed", "card": iid, "amount": amount, "rule": "С: Вампиризм"})

    def _after_armour(self, s: State, iid: int, amount: int) -> int:
        card = self.card(s, iid)
        if card.type in ("terrain", "equipment"):  # 212.1, 214.1: no wounds
            return 0
        armour = card.ability_x("armour")
        if armour and amount > 0:
            q = s["pieces"][str(iid)]
            stopped = min(amount, max(0, armour - q["armour"]))
            q["armour"] += stopped
            return amount - stopped
        return amount

    def lives(self, s: State, iid: int) -> int:
        """Current lives [204.6]: reserve + additional lives - wounds (no negative lives yet)."""
        q = s["pieces"][str(iid)]
        return fight.current_lives(self.card(s, iid).lives, q.get("extra", 0), q["wounds"])

    def _destroy(self, s: State, iid: int, events: list[Event], rule: str) -> None:
        """The card goes to its owner's Graveyard, its hosted cards after it (210.6, 214.8)."""
        q = s["pieces"].pop(str(iid), None)
        if q is None:
            return
        s["players"][s["owner"][iid]]["grave"].append(iid)
        events.append(
            {
                "type": "destroyed",
                "card": iid,
                "id": s["cards"][iid],
                "seat": s["owner"][iid],
                "rule": rule,
            }
        )
        for key in sorted(s["pieces"], key=int):
            other = s["pieces"].get(key)
            if other is not None and other["host"] == iid:
                self._destroy(s, int(key), events, "210.7")

    # -- the end [102] ------------------------------------------------------------------

    def _settle(self, s: State, events: list[Event]) -> None:
        """After every action: the steps that run by themselves, then the base effect of
        102.3а / 421.2 whenever someone gets priority with the stack empty (D-10)."""
        if s["finished"]:
            return
        if s["phase"] == "place" and not any(p["recruit"] for p in s["players"]):
            self._start_reveal(s, events)
        if s["phase"] in BATTLE_PHASES and not s["stack"]:
            self._check_creatures(s, events)

    def _has_creatures(self, s: State, seat: int) -> bool:
        return any(
            q["owner"] == seat and self.card(s, int(k)).is_creature for k, q in s["pieces"].items()
        )

    def _check_creatures(self, s: State, events: list[Event]) -> None:
        lost = [seat for seat in (0, 1) if not self._has_creatures(s, seat)]
        if len(lost) == 2:
            self._finish(s, events, winners=[], draw=True, reason="no_creatures")
        elif lost:
            self._finish(s, events, winners=[1 - lost[0]], draw=False, reason="no_creatures")

    def _finish(
        self, s: State, events: list[Event], *, winners: list[int], draw: bool, reason: str
    ) -> None:
        s["finished"] = True
        s["winners"] = winners
        s["draw"] = draw
        s["phase"] = "over"
        s["priority"] = None
        events.append({"type": "game_over", "winners": winners, "draw": draw, "reason": reason})

    def leave(self, state: State, player: int, reason: str) -> tuple[State, list[Event]]:
        """102.3б: conceding (or running out of time) loses at once; the opponent wins."""
        if state["finished"]:
            raise IllegalAction("The game is over.", "102.1")
        if type(player) is not int or player not in (0, 1):
            raise IllegalAction("There is no such player in this game.")
        if reason not in LEAVE_REASONS:
            raise IllegalAction(f"A player leaves by {' or '.join(LEAVE_REASONS)}.")
        s = _copy(state)
        s["out"] = [player]
        events: list[Event] = [{"type": "left", "seat": player, "reason": reason}]
        self._finish(s, events, winners=[1 - player], draw=False, reason=reason)
        s["log"] += 1
        return s, events

    def next_game_config(self, config: Mapping[str, Any], result: GameResult) -> dict[str, Any]:
        """The next game of a match [302.2]: its winner chooses who goes first; after a
        drawn game the die decides again."""
        out = dict(config)
        out["chooser"] = result.winners[0] if len(result.winners) == 1 else None
        return out

    def result(self, state: State) -> GameResult:
        if not state["finished"]:
            return GameResult(finished=False)
        return GameResult(
            finished=True,
            winners=tuple(state["winners"]),
            draw=state["draw"],
            eliminated=tuple(state["out"]),
        )

    # -- views --------------------------------------------------------------------------

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator): their own Deal and Recruit zones
        in full, the opponent's as counts; decks as counts; Graveyards and revealed cards
        in full; a hidden card only as its owner and cell, save to its owner (206.5-206.7)."""
        cards = state["cards"]
        players = []
        for seat, p in enumerate(state["players"]):
            mine = seat == player
            players.append(
                {
                    "seat": seat,
                    "deck": len(p["deck"]),
                    "deal": [{"card": i, "id": cards[i]} for i in p["deal"]]
                    if mine
                    else len(p["deal"]),
                    "recruit": [{"card": i, "id": cards[i]} for i in p["recruit"]]
                    if mine
                    else len(p["recruit"]),
                    "deal_count": len(p["deal"]),
                    "recruit_count": len(p["recruit"]),
                    "grave": [{"card": i, "id": cards[i]} for i in p["grave"]],
                    "gold": p["gold"] if mine or state["phase"] not in ("recruit",) else None,
                    "silver": p["silver"] if mine or state["phase"] not in ("recruit",) else None,
                    "kept": p["kept"],
                    "redeals": p["redeals"],
                    "recruit_done": p["done"],
                }
            )
        pieces = []
        for key in sorted(state["pieces"], key=int):
            q = state["pieces"][key]
            iid = int(key)
            if q["hidden"] and q["owner"] != player:
                pieces.append({"owner": q["owner"], "cell": _name(q["cell"]), "hidden": True})
                continue
            card = self.info[cards[iid]]
            pieces.append(
                {
                    "card": iid,
                    "id": cards[iid],
                    "owner": q["owner"],
                    "cell": _name(q["cell"]),
                    "zone": "battlefield" if q["cell"] is not None else "additional",
                    "hidden": q["hidden"],
                    "closed": q["closed"],
                    "marks": q["marks"],
                    "wounds": q["wounds"],
                    "lives": card.lives + q.get("extra", 0) - q["wounds"],
                    "host": q["host"],
                    "x": q["x"] if not q["hidden"] or q["owner"] == player else None,
                }
            )
        chains = {}
        for n, chain in state["chains"].items():
            if "redirect" in chain:
                chains[n] = {"redirect": chain["redirect"], "defender": chain["defender"]}
            else:
                chains[n] = {
                    k: chain.get(k)
                    for k in (
                        "source",
                        "target",
                        "initial",
                        "defender",
                        "rolls",
                        "final",
                        "kinds",
                        "weakened",
                    )
                }
        priority = state["priority"]
        return {
            "you": player,
            "phase": state["phase"],
            "first": state["first"],
            "chooser": state["chooser"],
            "order_rolls": [r[:] for r in state["order_rolls"]],
            "active": state["active"],
            "turn": state["turn"],
            "turn_limit": state["config"]["turn_limit"],
            "to_act": list(self.to_act(state)),
            "priority": None if priority is None else priority["holder"],
            "stack": [{"chain": o["chain"], "kind": o["kind"]} for o in state["stack"]],
            "chains": chains,
            "last_roll": _clone(state["last_roll"]),
            "last_fight": _clone(state["last_fight"]),
            "players": players,
            "pieces": pieces,
            "finished": state["finished"],
            "winners": state["winners"][:],
            "draw": state["draw"],
        }


_PHASE_RULE = {
    "first": "302.2",
    "deal": "302.4",
    "recruit": "304.2",
    "place": "305.1",
    "reveal": "306.2",
    "host": "306.7",
    "vanguard": "308.1",
    "main": "312",
    "final": "313",
    "over": "102.1",
}

SYSTEM = Berserk()
