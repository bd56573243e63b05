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
* Start of Battle [307]: unhosted equipment, symbiotes and parasites die (307.1); the
  "в начале боя" scripts of revealed cards execute at once, the first player's first
  (307.2, 301.2), and its priority passes.
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
host: 210.6, 214.8; the destruction effect goes on the stack after the wounds' triggers,
an object of its own above the rest of the chain and a priority window, 402.3а, CK-072, and
is cancelled if the card has lives again when it executes, 402.3б; decision 0062),
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
anything, cannot be struck by non-flyers: 211.4-211.8; the 211.9 "slow action" below),
Cache (no flyer may target it), Incorporeal (moves onto occupied cells; dies at
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

More playable abilities (``ability``; six objects without dice, 216.1б, unless an attack):
**Strike Through a Row X** (a non-magical ranged attack, nine objects, on a card two cells
away along a vertical or horizontal over an empty cell or one of the striker's own);
**Jump** / **Teleport** ({cell}: an open subtype-less creature that has spent no movement
and not acted goes to any unoccupied cell, spending all its movement; no closing) and
**Manoeuvre** ({target}: it swaps with an orthogonally adjacent own subtype-less creature);
**Summon** / **Resurrection** ({cell}, Resurrection also {bring}: a creature of the named
class cheaper than the source joins the squad open on an unoccupied adjacent cell, from the
deck, the engine choosing the dearest, or from the Graveyard; a flyer goes to the
Additional Zone); **Redistribution X** ({target, to}: our reading for a card that lists no
targets: one of your wounded creatures is healed of up to X, and as many wounds go to one
revealed enemy creature); **scripted playable abilities** ("script<n>", the card's n-th
ability: close, or remove tokens (104.5), to heal, wound, give additional lives to or open a
chosen creature). A cell taken before the Wounds object cancels a cell-targeted ability
unpaid (103.3). The 211.9 **slow action** (``slow`` {card}, D-14): when the opponent has a
flyer and no other creature, an open non-flyer closes and may strike a flyer once in its
owner's next turn.

More static and triggered abilities: **Steadfastness** (no wounds from an influence the
opponent controls: Thirst, Redistribution, scripts); **Thick Skin** (protection from the
attacker's "при атаке" abilities: Plague); **Formation** (the card's «Строй: …» scripts act
while another own Formation creature stands orthogonally next to it); static scripts
"strike_bonus" and "roll_bonus" of revealed cards (self, host, own, adjacent, by class);
**Plague** (a melee strike gives the target Plague; a plague carrier rolling an odd raw
number wounds itself for its modified result); **Corpse-eating** (after destroying an
adjacent non-incorporeal enemy creature, not by a ranged attack, a full heal and Poison
lost, 407.5); **Gift of Life X** (on death: X additional lives to the creature of its
element with the fewest lives); **Unity X** (attacking with a simple strike, X cheaper
creatures of the deck are shown, cards with Plague or Vampirism first, and the attacker has
their Plague / Vampirism for this strike); **Thirst X** (at Turn Preparation a closed
creature wounds the adjacent enemy creature with the fewest lives for X, or stays closed);
**Concentration** (a token at the end of the opponent's turn if not wounded in it);
**Incarnation X** (a token at each of its owner's turns in the Graveyard; at X, back closed
on the first free cell of row 3, once); **Meditation** (token costs paid also with tokens of
the other revealed cards of its element); "в начале боя" scripts (307.2: tokens, additional
lives). Where a text gives its controller a choice at execution (which card Summon brings,
whom Thirst, Gift of Life or Incarnation pick, whether Unity shows), the engine chooses as
stated. Acquired and lost named abilities are kept on the piece (``gained``, ``lost``: 407.1,
407.5); negative lives (204.5) count against current lives.

The other scripts: static "grant" (equipment, symbiotes and parasites give their host,
terrains and creatures their controller's (adjacent) creatures of a class, a named ability,
rechecked at every priority, 406.1, and kept on the piece as ``granted``), static
"movement_bonus", "turn_start" / "turn_end" (311.4, 313.1), "on_death" and "after_strike"
(216.12) scripts; a chosen target of a triggered script is chosen by the engine (the most
wounded own creature to heal, the enemy creature with the fewest lives to wound).

Effects on other cards' actions (``engine.berserk.effects``): static blocks of moves
(410.5: the mover stays but gains its marker, 203.3), prohibitions to gain tokens (103.2),
preventions of both players (420.3б: the target controller's first, after the modifiers),
replacements of a death (419.6: the owner of the action chooses), "начинает бой с …"
(304.4: from the Recruit zone on), and taking control of an enemy creature (200.2б, 210.12).

Stealth given by a grant (decision 0053) reaches a hidden card, unlike the other grants:
an equipment or symbiote giving its host Stealth may take a hidden host (the second
player's third row, an exception to D-23), which D-22's reveal then spares and its owner
reveals at will. "Lose all abilities" (407.4, the script "lose_abilities"): the card's
number is given its blank twin (``blank_card``, id ``<id>~blank``: the same properties, no
named ability, script or creature class), so every rule reading printed abilities sees
none; the acquired ones (``gained``, ``granted``) stay; until the end of the battle (407.3);
the views name the printed card with ``"blank": true``.

Instant abilities [404.6] (a script with ``"instant": true``: BK1's Field Infirmary heal):
offered to whoever holds priority in the Main and Final Phases of either player's turn,
whatever is on top of the stack (decision 0063; a game whose cards have none never looks,
``_Facts.instant``); a card whose cost a chain on the stack still owes declares nothing
more (404.3). A hidden card (the second player's kept third row, a Stealth card) may
declare one too (D-21, ``Config.hidden_cards_declare_instants``): it is revealed first,
a public ``reveal`` event with ``"instant": true`` before the ``ability`` one (415.2: a
hidden card declaring an instant ability is revealed, a base effect off the stack); the
holder of priority's own view lists the cards offered one (``instants``). Every destruction effect of the battle's turns goes on the stack
(``_doom``, 402.3а, decision 0063): those of attacks, of influences (Thirst at 310, scripts,
Redistribution), of Poison and Fading (311.4), of Fear and Plague, and Finishing's (not
cancelled by lives regained: 402.3б speaks of wounds); the Vanguard Step and the Start of
Battle, with nobody holding priority (300.6), still destroy at once (D-30). The
"в конце хода" scripts fire as the Final Phase begins (313.1). A revealed card on a hidden host is open information: the views show it
on the host's cell (``on_hidden``), never the host (206.5, 306.2(2), decision 0062).

Not interpreted: Protection from spells and instant actions (nothing of those kinds
exists).

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

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.berserk import board, effects, fight, recruit, stack
from engine.berserk.cards import CardDB, load_system, normalise_name
from engine.berserk.config import Config
from engine.berserk.model import BLANK, Card, is_blank, printed_id
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
_SHOOTING = frozenset(RANGED)  # shots, throws, discharges: ``_ranged_actions``
# The objects whose execution changes no piece for a simple strike or a shot, throw or
# discharge (``Berserk._pieces_kept``): the rest (Target: Fear, reveal; Result: Plague,
# which ``_pieces_kept`` foresees from the rolls; Defense: preventions; Wounds; Payment:
# closing) do.
_PIECES_KEPT = frozenset(("declaration", "roll", "calculation", "end"))
# Where a target of these abilities may stand, as (the smaller, the larger) of the column
# and row distances from the source, both on the Battlefield: a condition of
# ``_ability_target_problem``, not all of it. Manoeuvre swaps with an orthogonal
# neighbour, Finishing destroys an adjacent card (207.7: a king's move, or the same cell
# hosted), Strike Through a Row hits two cells away along a vertical or horizontal.
_GEOMETRY = {
    "manoeuvre": frozenset({(0, 1)}),
    "finishing": frozenset({(0, 0), (0, 1), (1, 1)}),
    "strike_through_row": frozenset({(0, 2)}),
}
RANGED["strike_through_row"] = ()  # С: Удар Через Ряд: non-magical, no protection names it
# Declared with "ability" [404]: the ranged attacks, Heal, Finishing, Redistribution, the
# relocations (Jump, Teleport, Manoeuvre) and the takings into the squad (Summon,
# Resurrection).
PLAYABLE = (
    "shot",
    "throw",
    "discharge",
    "strike_through_row",
    "heal",
    "finishing",
    "redistribution",
    "jump",
    "teleport",
    "manoeuvre",
    "summon",
    "resurrection",
)
_RULE = {
    "shot": "С: Выстрел",
    "throw": "С: Метание",
    "discharge": "С: Разряд",
    "strike_through_row": "С: Удар Через Ряд",
    "heal": "С: Излечение",
    "finishing": "С: Добивание",
    "redistribution": "С: Перераспределение",
    "jump": "С: Прыжок",
    "teleport": "С: Телепортация",
    "manoeuvre": "С: Манёвр",
    "summon": "С: Вызов",
    "resurrection": "С: Возрождение",
}
RELOCATIONS = ("jump", "teleport", "manoeuvre")  # no closing: they spend all movement
SPECIAL = (*RELOCATIONS, "summon", "resurrection", "redistribution")  # no attack: six objects
TO_A_CELL = ("jump", "teleport", "summon", "resurrection")  # the cell is the target
# Abilities a card may gain for the Wounds object of its simple strike by Unity (С: Единение:
# "При [simple strike]…" abilities of the creatures shown).
ON_STRIKE = ("plague", "vampirism")
# Every named ability of the Словарь (digest §13) the engine interprets: a card of a set
# naming another one is refused by ``tests/engine/berserk/test_abilities.py``.
# The scripts the engine runs (docs/card-format.md, "Berserk: scripted abilities").
_ONCE = ("heal", "wound", "add_lives", "gain_token", "open")
SCRIPTS_RUN = {
    "static": ("strike_bonus", "roll_bonus", "movement_bonus", "grant", *effects.STATIC_EFFECTS),
    "starts_with": effects.STARTS_WITH,  # 304.4
    **dict.fromkeys(("start_of_battle", "turn_start", "turn_end", "on_death"), _ONCE),
    "after_strike": _ONCE,
    # on a chosen creature: "any_own" or "any_enemy"
    "activated": (*_ONCE, "take_control", "lose_abilities"),
}


def script_runs(script: Mapping[str, Any]) -> bool:
    """Whether the engine runs this script of a card (a test holds every set to it)."""
    if script.get("do") not in SCRIPTS_RUN.get(script.get("when"), ()):
        return False
    return script["when"] != "activated" or script.get("target") in ("any_own", "any_enemy")


IMPLEMENTED = frozenset(
    {
        *PLAYABLE,
        "vanguard",
        "unanswerable",
        "incorporeal",
        "blessing",
        "curse",
        "armour",
        "vampirism",
        "wrath",
        "range",
        "gift_of_life",
        "unity",
        "thirst",
        "protection",
        "incarnation",
        "concentration",
        "meditation",
        "directed",
        "clumsiness",
        "experience_attack",
        "experience_defence",
        "experience_shooting",
        "experience_throwing",
        "experience_discharge",
        "horde",
        "poison",
        "regeneration",
        "stealth",
        "steadfastness",
        "fear",
        "formation",
        "cache",
        "thick_skin",
        "accuracy",
        "corpse_eating",
        "fading",
        "uniqueness",
        "vulnerability",
        "plague",
    }
)


def _clone(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: _clone(v) for k, v in value.items()}
    if kind is list:
        return [_clone(v) for v in value]
    return value


def _copy(state: State, pieces: bool = True) -> State:
    """A copy of every part ``apply`` may change: containers changed in place are copied,
    values that are only ever replaced (cells, rolls, stack objects, decks and Graveyards)
    are shared; ``pieces`` False: the pieces too (an action that changes none of them in
    place, ``_pieces_kept``; the pieces' mapping is copied)."""
    out = dict(state)
    recruiting = state["phase"] == "recruit"  # "paid" is written only while recruiting
    # the Deal and Recruit zones change in place only while recruiting and placing
    setup = recruiting or state["phase"] == "place"
    players = []
    for p in state["players"]:
        c = p.copy()  # "deck" and "grave" are shared: replaced, never changed in place
        if setup:
            c["deal"] = p["deal"][:]
            c["recruit"] = p["recruit"][:]
        if recruiting:
            c["paid"] = dict(p["paid"])
        players.append(c)
    out["players"] = players
    if pieces:
        out["pieces"] = {k: q.copy() for k, q in state["pieces"].items()}
    else:
        out["pieces"] = dict(state["pieces"])
    out["stack"] = state["stack"][:]
    out["chains"] = {k: c.copy() for k, c in state["chains"].items()}
    out["rng"] = state["rng"][:]
    out["keep_hidden"] = state["keep_hidden"][:]
    out["grave_tokens"] = dict(state["grave_tokens"])
    if state["priority"] is not None:
        out["priority"] = dict(state["priority"])
    return out


def _first_pass(state: State) -> bool:
    """Whether a pass now is the first of two in the Main or Final Phase (215.6а): it only
    marks the top object seen and hands priority over, changing nothing in place."""
    return state["phase"] in ("main", "final") and state["priority"]["passes"] == 0


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


class _Info(dict):
    """Card id -> card: the set's cards, and the blank twins (407.4) made on first read
    (a state may name one that this process has not made yet)."""

    system: Berserk

    def __missing__(self, key: str) -> Card:
        if type(key) is str and is_blank(key) and printed_id(key) in self:
            return self.system.blank_card(printed_id(key))
        raise KeyError(key)


@dataclass(frozen=True)
class _Facts:
    """What a game's cards allow at all, for skipping searches that cannot find anything:
    the numbers of the cards with printed Stealth (``stealth``, in order), whether one
    grants Stealth (``stealth_given``); the cards with a
    static "grant" script (``granters``, as piece keys) or a value script (``valued``,
    piece keys); whether each card number's card is a creature (``creature``); the numbers
    of the cards with an instant playable ability (``instant``, in order: 404.6), so that
    a game without one never looks for instant answers."""

    stealth: tuple[int, ...]
    stealth_given: bool
    granters: frozenset[str]
    valued: tuple[str, ...]
    creature: tuple[bool, ...]
    instant: tuple[int, ...]


def _blessed(card: Card) -> int:
    """С: Благословление / Проклятье: +1 / -1 to all of the card's die rolls."""
    return card.has("blessing") - card.has("curse")


class Berserk:
    """The Berserk GameSystem (two players). ``SYSTEM`` is the instance over set BK1."""

    key = "berserk"

    def __init__(self, db: CardDB | None = None):
        self.db = db or load_system()
        self.info: dict[str, Card] = _Info(self.db.cards)
        self.info.system = self
        self._playable: dict[str, tuple[str, ...]] = {}  # card id -> its PLAYABLE abilities
        self._static_scripts: dict[str, tuple[dict, ...]] = {}  # card id -> value scripts
        self._activated_scripts: dict[str, tuple[tuple[str, dict], ...]] = {}
        self._script_index: dict[str, dict[str, dict]] = {}  # card id -> "script<n>" -> script
        self._valued = frozenset(card.id for card in self.info.values() if self._statics(card))
        self._movers = frozenset(  # cards whose static scripts give movement
            card.id
            for card in self.info.values()
            if any(a.script and a.script.get("do") == "movement_bonus" for a in card.abilities)
        )
        self._once_scripts: dict[tuple[str, str], tuple[dict, ...]] = {}
        self._grant_scripts: dict[str, tuple[dict, ...]] = {}
        self._granters = frozenset(  # cards whose static scripts grant a named ability
            card.id
            for card in self.info.values()
            if any(a.script and a.script.get("do") == "grant" for a in card.abilities)
        )
        self._stealth_cards = frozenset(  # С: Скрытность printed
            card.id for card in self.info.values() if card.has("stealth") and not card.cost_x
        )
        self._stealth_givers = frozenset(  # cards that grant Stealth
            card.id
            for card in self.info.values()
            if any(
                a.script
                and a.script.get("do") == "grant"
                and a.script["ability"]["name"] == "stealth"
                for a in card.abilities
            )
        )
        self._facts_slot: tuple[list[str], _Facts] | None = None
        self._last_offer: tuple[State, int, list[Action]] | None = None  # legal_actions
        self._token_cards = frozenset(  # cards with a playable ability paid in tokens
            card.id
            for card in self.info.values()
            if any(a.script and a.script.get("tokens") for a in card.abilities)
        )
        self._instant_cards = frozenset(  # cards with an instant playable ability (404.6)
            card.id
            for card in self.info.values()
            if any(a.script and a.script.get("instant") for a in card.abilities)
        )
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
            "slow": Berserk._do_slow,
        }
        self._phase_actions = {
            "first": ("choose_first",),
            "deal": ("redeal", "keep"),
            "recruit": ("recruit", "recruit_done"),
            "place": ("place",),
            "reveal": ("keep_hidden", "reveal_done"),
            "host": ("host",),
            "vanguard": ("strike", "pass"),
            "main": ("pass", "move", "strike", "ability", "reveal", "defender", "weaken", "slow"),
            "final": ("pass", "reveal", "ability"),  # 404.6: instant abilities
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

    def _facts(self, s: State) -> _Facts:
        """What the game's cards allow at all (``_Facts``), read from ``s["cards"]``, which
        stays the same all game: the last game's are kept, checked by equality."""
        cards = s["cards"]
        slot = self._facts_slot
        if slot is not None and slot[0] == cards:
            return slot[1]
        info = self.info
        facts = _Facts(
            stealth=tuple(i for i, c in enumerate(cards) if c in self._stealth_cards),
            stealth_given=not self._stealth_givers.isdisjoint(cards),
            granters=frozenset(str(i) for i, c in enumerate(cards) if c in self._granters),
            valued=tuple(str(i) for i, c in enumerate(cards) if c in self._valued),
            creature=tuple(info[c].type == "creature" for c in cards),
            instant=tuple(i for i, c in enumerate(cards) if c in self._instant_cards),
        )
        self._facts_slot = (list(cards), facts)
        return facts

    @staticmethod
    def piece(state: State, iid: int) -> dict | None:
        return state["pieces"].get(str(iid))

    def _pieces_of(self, state: State, seat: int) -> list[int]:
        return [int(k) for k, p in state["pieces"].items() if p["owner"] == seat]

    def _occupants(self, state: State, cell: Sequence[int]) -> list[int]:
        """The cards standing on ``cell`` (hosted cards ride with their host, not counted)."""
        where = list(cell)
        return [
            int(k) for k, p in state["pieces"].items() if p["cell"] == where and p["host"] is None
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
            "grave_tokens": {},  # tokens on cards in a Graveyard (С: Инкарнация)
            "incarnated": [],  # cards with the marker of incarnation
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
        if phase == "main" or phase == "final":  # the battle's turns: most of a game
            return (state["priority"]["holder"],)
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
        """The actions ``player`` may send now. The list is remembered with its state
        (``_is_offered``: one of these very objects sent back for this very state is
        offered without a search), so a caller changes copies of them, not them."""
        out = self._legal_actions(state, player)
        self._last_offer = (state, player, out)
        return out

    def recruit_offers(self, state: State, player: int, iid: int) -> list[Action]:
        """The ``recruit`` actions offered for Deal card ``iid`` (some of
        ``legal_actions``, remembered like them), for a bot that asks card by card."""
        if (
            state["phase"] != "recruit"
            or state["finished"]
            or player not in self.to_act(state)
            or iid not in state["players"][player]["deal"]
        ):
            return []
        out = self._recruit_actions(state, player, (iid,))
        self._last_offer = (state, player, out)
        return out

    def _legal_actions(self, state: State, player: int) -> list[Action]:
        phase = state["phase"]
        if (phase == "main" or phase == "final") and not state["finished"]:  # most of a game
            if player != state["priority"]["holder"]:  # to_act: the holder of priority
                return []
            return self._battle_actions(state, player)
        if state["finished"] or player not in self.to_act(state):
            return []
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
                return self._battle_actions(state, player, only=iid, kind=kind)
        return self.legal_actions(state, player)

    # -- apply --------------------------------------------------------------------------

    def apply(self, state: State, player: int, action: Action) -> tuple[State, list[Event]]:
        if not self._is_offered(state, player, action):
            self._check(state, player, action)  # refuses, or finds it offered after all
        # a first pass replaces the top object and the priority: the rest is shared
        kept = False  # the pieces and cards stay as they are: the grants too (406.1)
        if action["type"] == "pass" and state["phase"] in ("main", "final"):
            if state["priority"]["passes"] == 0:  # _first_pass
                s = dict(state)
            else:
                kept = self._pieces_kept(state)
                s = _copy(state, pieces=not kept)
        else:
            s = _copy(state)
        events: list[Event] = []
        self._handlers[action["type"]](self, s, player, action, events)
        self._settle(s, events, grants=not kept)
        s["log"] += 1
        return s, events

    def _pieces_kept(self, state: State) -> bool:
        """Whether the second pass on ``state`` (Main or Final Phase) changes no piece in
        place: it executes a Declaration, Roll, Calculation or End object of a simple
        strike or ranged attack, or its Result object with no Plague wound to give (an odd
        roll of a plague carrier, С: Чума), or an object of a redirection (412.4), or ends
        the phase (the stack empty: no, the turn's end changes pieces)."""
        st = state["stack"]
        if not st:
            return False
        top = st[-1]
        kind = top["kind"]
        if kind not in _PIECES_KEPT and kind != "result":
            return False
        chain = state["chains"].get(str(top["chain"]))
        if chain is None or "redirect" in chain:
            return True
        ability = chain.get("ability")
        if ability is not None and ability not in _SHOOTING:
            return False
        if kind == "result":  # _execute's Plague wounds, foreseen: the rolls are known
            rolls = chain.get("rolls")
            if rolls is None:
                return False
            return not any(
                raw is not None and raw % 2 and self._plagued(state, chain, iid)
                for iid, raw in zip((chain["source"], chain["target"]), rolls, strict=True)
            )
        return True

    def _is_offered(self, state: State, player: Any, action: Any) -> bool:
        """Whether ``action`` is, as sent, one of ``legal_actions(state, player)``, found
        among the few offered actions it could be (``_offered``). Such an action passes
        every check of ``_check``; ``False`` says only that ``_check`` must decide."""
        if type(action) is not dict or type(player) is not int or state["finished"]:
            return False
        last = self._last_offer
        if last is not None and last[0] is state and last[1] == player:
            for offered in last[2]:  # the very action object offered for this very state
                if offered is action:
                    return True
        kind = action.get("type")
        if kind == "pass" and state["phase"] in ("main", "final"):  # always offered first
            return len(action) == 1 and player == state["priority"]["holder"]
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
        # A card costing more than all the crystals left, the one-element bonus included
        # (304.1, 304.6а, D-7: what fits spends at most gold + silver + 1), is refused by
        # check_recruit whatever else holds: skipped before that words its refusal.
        budget = zone.gold + zone.silver + 1 - zone.gold_spent - zone.silver_spent
        for iid in iids:
            card = self.card(s, iid)
            if card.cost_x:
                x = 0
                while card.cost + x <= budget:
                    try:
                        recruit.check_recruit(zone, card, x=x, config=cfg)
                    except IllegalAction:
                        break
                    out.append({"type": "recruit", "card": iid, "x": x})
                    x += 1
            elif card.cost <= budget:
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
        effects.note_start(self, s, seat, iid)  # 304.4
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
        effects.on_place(s, seat, iid, s["pieces"][str(iid)])  # 304.4
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
            # set when needed: "negative" (negative lives, 204.5: markers, not wounds),
            # "wounded" (the turn it last took any wounds: С: Концентрация), "tokens"
            # (104.5), "gained" / "lost" (named abilities: 407.1, 407.5), "slow" (211.9)
        }

    # -- the Reveal Step [306] ----------------------------------------------------------

    def _reveal(
        self, s: State, iid: int, events: list[Event], rule: str, instant: bool = False
    ) -> None:
        """Turn a hidden card face up [306.2, 415.2]; a revealed flyer or terrain goes to
        the Additional Zone (306.3, 211.2). ``instant``: it declares an instant ability
        (415.2, D-21), said on the event."""
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
        if instant:
            event["instant"] = True
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
        that option, X-cost cards excepted: 306.2(1)); its owner reveals it at will.
        Printed or given: a grant of Stealth reaches a hidden card (decision 0053), e.g.
        from the equipment of a hidden host, which then stays hidden at D-22's reveal."""
        return self.has(s, iid, "stealth") and not self.card(s, iid).cost_x

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
        event = {
            "type": "host",
            "card": iid,
            "host": host,
            "from": _name(q["cell"]),
            "cell": _name(s["pieces"][str(host)]["cell"]),
        }
        if s["pieces"][str(host)]["hidden"]:  # decision 0053: named by its cell alone
            del event["host"]
        events.append(event)
        q["host"] = host
        q["cell"] = list(s["pieces"][str(host)]["cell"])
        if recruit.next_assignment(self._host_pieces(s), first_player=s["first"]) is None:
            self._start_battle(s, events)

    # -- Start of Battle [307-308] ------------------------------------------------------

    def _start_battle(self, s: State, events: list[Event]) -> None:
        for key in recruit.unhosted(self._host_pieces(s)):  # 307.1
            self._destroy(s, int(key), events, "307.1")
        self._recheck_grants(s)  # 406.1
        self._start_of_battle_scripts(s, events)  # 307.2-307.3
        s["phase"] = "vanguard"  # 308
        s["vanguard"] = s["first"]
        self._next_vanguard(s, events)

    def _start_of_battle_scripts(self, s: State, events: list[Event]) -> None:
        """307.2: "в начале боя" scripts of the revealed cards, the first player's first,
        each executed at once (301.2): "gain_token" puts tokens on the card, "add_lives"
        gives it additional lives (204.2); "x" is the X announced at reveal (306.2(1))."""
        first = s["first"]
        for seat in (first, 1 - first):
            for iid in sorted(self._pieces_of(s, seat)):
                q = s["pieces"].get(str(iid))
                if q is None or q["hidden"]:
                    continue  # D-21
                for a in self.card(s, iid).abilities:
                    script = a.script
                    if script is None or script["when"] != "start_of_battle":
                        continue
                    amount = script.get("amount")
                    amount = (q["x"] or 0) if amount == "x" else amount
                    if script.get("target", "self") != "self" or script["do"] not in (
                        "gain_token",
                        "add_lives",
                    ):
                        self._run_once(s, iid, script, events, q["cell"])
                        continue
                    if not amount:
                        continue
                    if script["do"] == "gain_token":
                        effects.gain_tokens(self, s, iid, amount, events, rule="307.2")
                    elif script["do"] == "add_lives":
                        q["extra"] += amount
                        events.append(
                            {
                                "type": "lives",
                                "card": iid,
                                "amount": amount,
                                "source": iid,
                                "rule": "307.2",
                            }
                        )

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
        da = (self.ability_x(s, iid, "experience_attack") or 0) - (src.ability_x("clumsiness") or 0)
        da += self._static_bonus(s, iid, "roll_bonus")
        fa = fight.final_roll(a, (da, _blessed(src)))
        kind = fight.strength(fa)
        amount = fight.strike_value(src.strike, kind, *self._value_mods(s, chain, iid, target))
        amount = effects.after_preventions(self, s, target, amount)  # 420
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
        if a % 2 and self._plagued(s, chain, iid):  # С: Чума
            self._self_wound(s, iid, max(0, fa), events, "С: Чума")
        if str(iid) not in s["pieces"]:
            self._next_vanguard(s, events)
            return
        near = self._near_for_corpse_eating(s, iid, target)
        if amount > 0:
            self._add_wounds(s, target, amount, events, attack=True)
            if self.lives(s, target) <= 0:  # D-30: no stack in the Vanguard Step (300.6)
                self._destroy(s, target, events, "402.3")
        self._plague_strike(s, chain, iid, target, events)
        if amount > 0:
            self._vampirism(s, iid, target, amount, events)
        self._corpse_eating(s, iid, target, near, events)
        self._next_vanguard(s, events)

    # -- turns [309-313] ----------------------------------------------------------------

    def _begin_turn(self, s: State, seat: int, events: list[Event]) -> None:
        s["turn"] += 1
        s["round"] = s["turn"]
        s["active"] = seat
        s["phase"] = "main"
        events.append({"type": "turn", "turn": s["turn"], "active": seat})
        self._recheck_grants(s)  # 406.1
        thirsty = self._thirst(s, seat, events)  # 310: before the turn starts
        for key, q in s["pieces"].items():
            q["armour"] = 0  # Armour: "during each player's turn"
            if q["owner"] == seat:  # 311.1-311.2
                if key not in thirsty:
                    q["closed"] = False
                q["marks"] = 0
                q["acted"] = False
                q["moved"] = False
        s["priority"] = stack.new_priority(seat)
        self._turn_start_triggers(s, seat, events)
        self._incarnation(s, seat, events)

    def _thirst(self, s: State, seat: int, events: list[Event]) -> set[str]:
        """С: Жажда X, at Turn Preparation (310): each closed creature of the active player
        with Thirst may wound an adjacent non-incorporeal creature for X; one that does not
        stays closed. The engine chooses for the player: an enemy creature it can wound
        (not Steadfast: Thirst is its owner's influence), the fewest lives first; it never
        wounds its own. Returns the keys of the cards that stay closed."""
        stay: set[str] = set()
        for key in sorted(s["pieces"], key=int):
            q = s["pieces"].get(key)
            if q is None or q["owner"] != seat or not q["closed"] or q["hidden"]:
                continue
            iid = int(key)
            card = self.card(s, iid)
            x = card.ability_x("thirst")
            if not x or not card.is_creature or card.is_flyer or not self.has(s, iid, "thirst"):
                continue
            prey = None
            for other in sorted(s["pieces"], key=int):
                o = s["pieces"][other]
                victim = self.card(s, int(other))
                if o["owner"] == seat or not victim.is_creature or victim.has("incorporeal"):
                    continue
                if o["hidden"] or self.has(s, int(other), "steadfastness"):
                    continue
                if not self._adjacent(s, iid, int(other)):
                    continue
                lives = self.lives(s, int(other))
                if prey is None or lives < prey[0]:
                    prey = (lives, int(other))
            if prey is None:
                stay.add(key)
                events.append({"type": "stays_closed", "card": iid, "rule": "С: Жажда"})
                continue
            events.append({"type": "thirst", "card": iid, "target": prey[1], "rule": "С: Жажда"})
            self._influence_wounds(s, seat, prey[1], x, events, "С: Жажда")
        return stay

    def _incarnation(self, s: State, seat: int, events: list[Event]) -> None:
        """С: Инкарнация X: at the start of its owner's turn a card in the Graveyard gets a
        token; at X tokens or more they are removed, it gets the marker of incarnation and
        joins the squad closed (D-33) on an unoccupied cell of its owner's third row (the
        engine takes the first from A to E; with none free it waits, keeping its tokens);
        a flyer goes to the Additional Zone, a symbiote, parasite or equipment dies. Back
        in the Graveyard with the marker, it has lost Incarnation."""
        p = s["players"][seat]
        tokens = s["grave_tokens"]
        role = self.role(s, seat)
        for iid in list(p["grave"]):
            card = self.card(s, iid)
            x = card.ability_x("incarnation")
            if not x or iid in s["incarnated"]:
                continue
            tokens[str(iid)] = tokens.get(str(iid), 0) + 1
            events.append(
                {"type": "token", "card": iid, "tokens": tokens[str(iid)], "rule": "С: Инкарнация"}
            )
            if tokens[str(iid)] < x:
                continue
            free = [c for c in board.third_row(role) if not self._occupants(s, c)]
            if not free:
                continue
            del tokens[str(iid)]
            s["incarnated"] = [*s["incarnated"], iid]
            p["grave"] = [g for g in p["grave"] if g != iid]
            q = self._new_piece(seat, None if card.is_flyer else list(sorted(free)[0]))
            q["hidden"] = False
            q["closed"] = True
            s["pieces"][str(iid)] = q
            events.append(
                {
                    "type": "taken",
                    "card": iid,
                    "id": card.id,
                    "seat": seat,
                    "cell": _name(q["cell"]),
                    "rule": "С: Инкарнация",
                }
            )
            if card.type == "equipment" or card.subtype in ("symbiote", "parasite"):
                self._destroy(s, iid, events, "С: Инкарнация")

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
            regen = self.ability_x(s, iid, "regeneration") if card.type == "creature" else None
            poison = self.ability_x(s, iid, "poison")
            if poison and (
                card.type != "creature"
                or card.has("incorporeal")
                or "poison" in self.kinds_of(s, iid, "protection")
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
                self._self_wound(s, iid, x, events, rule)
        self._moment_scripts(s, seat, "turn_start", events)  # 311.4

    def _once(self, card: Card, when: str) -> tuple[dict, ...]:
        """The card's scripts that happen at the moment ``when``."""
        known = self._once_scripts.get((card.id, when))
        if known is None:
            known = self._once_scripts[(card.id, when)] = tuple(
                a.script
                for a in card.abilities
                if a.script is not None and a.script["when"] == when
            )
        return known

    def _moment_scripts(self, s: State, seat: int, when: str, events: list[Event]) -> None:
        """The "в начале / в конце вашего хода" scripts (311.4, 313.1) of ``seat``'s
        revealed cards in play, by number."""
        for key in sorted(s["pieces"], key=int):
            q = s["pieces"].get(key)
            if q is None or q["owner"] != seat or q["hidden"]:
                continue
            for script in self._once(self.card(s, int(key)), when):
                if str(int(key)) in s["pieces"]:
                    self._run_once(s, int(key), script, events, q["cell"])

    def _chosen(
        self, s: State, seat: int, cell: list[int] | None, side: str, do: str, near: bool = True
    ) -> int | None:
        """The creature a triggered script picks ("a chosen adjacent creature of yours /
        enemy creature"), chosen by the engine for its controller: a revealed creature
        next to ``cell`` (flyers are next to nothing, 211.4) that it affects, the most
        wounded own one to heal, the enemy one with the fewest lives to wound."""
        if cell is None and near:
            return None
        best = None
        for key in sorted(s["pieces"], key=int):
            q = s["pieces"][key]
            other = self.card(s, int(key))
            if q["hidden"] or not other.is_creature or (near and q["cell"] is None):
                continue
            if (q["owner"] == seat) != (side == "own"):
                continue
            if near and (
                q["cell"] == cell
                or max(abs(q["cell"][0] - cell[0]), abs(q["cell"][1] - cell[1])) != 1
            ):
                continue
            if do == "heal" and (q["wounds"] <= 0 or other.has("incorporeal")):
                continue
            if do == "wound" and self.has(s, int(key), "steadfastness"):
                continue  # С: Стойкость: it would take nothing
            rank = -q["wounds"] if do == "heal" else self.lives(s, int(key))
            if best is None or rank < best[0]:
                best = (rank, int(key))
        return None if best is None else best[1]

    def _run_once(
        self, s: State, iid: int, script: dict, events: list[Event], cell: list[int] | None
    ) -> None:
        """One triggered script of card ``iid`` (which may have just died: ``cell`` is where
        it stood): heal, wound (an influence: С: Стойкость), add lives to its target."""
        seat = s["owner"][iid] if str(iid) not in s["pieces"] else s["pieces"][str(iid)]["owner"]
        target_kind = script.get("target", "self")
        if target_kind == "self":
            target = iid if str(iid) in s["pieces"] else None
        elif target_kind == "card":  # one of a group (below)
            target = script["card"]
        elif target_kind == "host":
            target = s["pieces"][str(iid)]["host"] if str(iid) in s["pieces"] else None
        elif target_kind in ("adjacent_own", "adjacent_enemy", "any_own", "any_enemy"):
            side = "own" if target_kind.endswith("own") else "enemy"
            near = target_kind.startswith("adjacent")
            target = self._chosen(s, seat, cell, side, script["do"], near)
        else:  # all_own, all_adjacent_own, all_adjacent_enemy: each of them, by number
            own = target_kind != "all_adjacent_enemy"
            for key in sorted(s["pieces"], key=int):
                q = s["pieces"].get(key)
                if q is None or q["hidden"] or int(key) == iid:
                    continue
                if (q["owner"] == seat) != own or not self.card(s, int(key)).is_creature:
                    continue
                cls = script.get("class")
                if cls and cls not in self.card(s, int(key)).classes:
                    continue
                if target_kind != "all_own" and (
                    cell is None
                    or q["cell"] is None
                    or max(abs(q["cell"][0] - cell[0]), abs(q["cell"][1] - cell[1])) != 1
                ):
                    continue
                self._run_once(s, iid, {**script, "target": "card", "card": int(key)}, events, cell)
            return
        if target is None or str(target) not in s["pieces"]:
            return
        amount = script.get("amount")
        if amount == "x":
            amount = (s["pieces"].get(str(iid)) or {}).get("x") or 0
        rule = "405"
        q = s["pieces"][str(target)]
        if script["do"] == "heal":
            healed = q["wounds"] - fight.heal(q["wounds"], amount)
            if healed:
                q["wounds"] -= healed
                events.append({"type": "healed", "card": target, "amount": healed, "rule": rule})
        elif script["do"] == "wound":
            if target == iid:
                self._self_wound(s, iid, amount, events, rule)
            else:
                self._influence_wounds(s, seat, target, amount, events, rule)
        elif script["do"] == "add_lives":
            q["extra"] += amount
            events.append(
                {"type": "lives", "card": target, "amount": amount, "source": iid, "rule": rule}
            )
        elif script["do"] == "gain_token":  # 104.5, 103.2
            effects.gain_tokens(self, s, target, amount, events, rule=rule)
        elif script["do"] == "open" and q["closed"]:
            q["closed"] = False
            events.append({"type": "opened", "card": target, "rule": rule})

    def _end_turn(self, s: State, events: list[Event]) -> None:
        """313.2: the turn ends; D-22: the second player's hidden cards are revealed at the
        end of the first player's first turn; incorporeal creatures sharing a cell die.
        (The "в конце хода" scripts fired as the Final Phase began, 313.1.)"""
        if s["turn"] == 1 and self.cfg(s).reveal_hidden_row_after_first_turn:
            for iid in sorted(self._pieces_of(s, 1 - s["first"])):
                if s["pieces"][str(iid)]["hidden"] and not self._stealthy(s, iid):
                    self._reveal(s, iid, events, "306.2")
        for key in sorted(s["pieces"], key=int):  # С: Концентрация
            q = s["pieces"][key]
            if q["owner"] == s["active"] or q["hidden"] or q.get("wounded") == s["turn"]:
                continue
            if self.has(s, int(key), "concentration"):
                effects.gain_tokens(self, s, int(key), 1, events, rule="С: Концентрация")
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

    def _battle_actions(
        self, s: State, seat: int, only: int | None = None, kind: str | None = None
    ) -> list[Action]:
        """The battle's legal actions; ``only``: just those of that card (and ``pass``);
        ``kind`` "move", "strike" or "ability": of the empty stack's, just those."""
        out: list[Action] = [{"type": "pass"}]
        pieces = s["pieces"]
        mine: list[tuple[int, dict]]
        facts = self._facts(s)  # read once: each reading compares the game's cards
        if only is None:  # С: Скрытность, whenever holding priority
            if facts.stealth_given:  # any hidden card may have Stealth given
                hidden = [int(k) for k, q in pieces.items() if q["hidden"] and q["owner"] == seat]
                hidden.sort()
            else:  # only the cards with printed Stealth, by number
                hidden = []
                for iid in facts.stealth:
                    q = pieces.get(str(iid))
                    if q is not None and q["hidden"] and q["owner"] == seat:
                        hidden.append(iid)
        else:
            q = pieces.get(str(only))
            mine = [(only, q)] if q is not None and q["owner"] == seat else []
            hidden = [only] if mine and q["hidden"] else []
        for iid in hidden:
            if self._stealthy(s, iid):
                out.append({"type": "reveal", "card": iid})
        st = s["stack"]
        if s["phase"] != "main":  # the Final Phase: instant abilities alone (404.6)
            if (kind is None or kind == "ability") and facts.instant:
                out.extend(self._instant_actions(s, seat, only))
            return out
        if only is None and not st and seat == s["active"]:
            # (number, piece) of this player's cards, by number
            mine = sorted([(int(k), q) for k, q in pieces.items() if q["owner"] == seat])
        if not st:
            if seat != s["active"]:  # 404.6: in the opponent's turn, instant abilities
                if (kind is None or kind == "ability") and facts.instant:
                    out.extend(self._instant_actions(s, seat, only))
                return out
            moves, strikes = kind in (None, "move"), kind in (None, "strike")
            abilities = kind in (None, "ability")
            occupied = (
                {
                    (q["cell"][0], q["cell"][1])
                    for q in pieces.values()
                    if q["cell"] is not None and q["host"] is None
                }
                if moves
                else set()
            )
            keys = sorted(pieces, key=int)
            theirs = [(int(k), pieces[k]["cell"]) for k in keys if pieces[k]["owner"] != seat]
            # _mover_problem, _striker_problem and _actor_problem inlined: the card is the
            # active player's, in the Main Phase, the stack empty.
            slow: bool | None = None  # 211.9, for every open non-flyer alike
            boost: bool | None = None  # whether a "movement_bonus" script is in play
            for iid, q in mine:
                if q["hidden"]:  # D-21: only an instant ability, which reveals it (415.2)
                    if abilities and iid in facts.instant:
                        out.extend(self._ability_actions(s, seat, iid, keys))
                    continue
                card = self.card(s, iid)
                if q["closed"] or q["acted"] or q["moved"]:  # no move, strike or closing
                    if abilities and card.id in self._token_cards:  # 203.6, 209.3, 104.4
                        out.extend(self._ability_actions(s, seat, iid, keys))
                    if q["closed"] or q["acted"]:
                        continue
                if card.type == "creature":
                    if moves and boost is None:
                        boost = self._boosted(s)
                    if (
                        moves
                        and not card.subtype
                        and q["cell"] is not None
                        and q["host"] is None
                        and q["marks"] < (self.movement(s, iid, True) if boost else card.movement)
                    ):  # then _move_problem, inlined
                        ghost = card.has("incorporeal")
                        for cell in _NEIGHBOURS[(q["cell"][0], q["cell"][1])]:
                            if ghost or cell not in occupied:
                                out.append({"type": "move", "card": iid, "cell": _CELL_NAMES[cell]})
                    if strikes and not q["moved"]:
                        for target in self._strike_targets(s, iid, theirs):
                            tq = pieces[str(target)]
                            if tq["hidden"]:
                                out.append(
                                    {"type": "strike", "card": iid, "cell": _name(tq["cell"])}
                                )
                            else:
                                out.append({"type": "strike", "card": iid, "target": target})
                        if not card.is_flyer:
                            if slow is None:
                                slow = self._slow_possible(s, seat)
                            if slow:
                                out.append({"type": "slow", "card": iid})
                if abilities and not q["moved"]:
                    if self._playable.get(card.id) == () and not q.get("granted"):
                        continue  # known to have no playable ability: none offered
                    out.extend(self._ability_actions(s, seat, iid, keys))
            return out
        # 404.6: with any object on top, the holder of priority may declare an instant
        # ability (after the defenders and the weakening of 216.3 and 216.7, if any)
        top = st[-1]
        instants = (kind is None or kind == "ability") and bool(facts.instant)
        if top["kind"] != "target" and top["kind"] != "calculation":
            if instants:
                out.extend(self._instant_actions(s, seat, only))
            return out  # no defender nor weakening to offer
        chain = s["chains"].get(str(top["chain"]))
        if (
            top["kind"] == "target"
            and chain is not None
            and chain.get("strike")
            and self._defence_problem(s, seat, chain) is None
        ):
            if only is None:  # (number, piece) of this player's cards, by number
                mine = sorted([(int(k), q) for k, q in pieces.items() if q["owner"] == seat])
            for iid, _q in mine:
                if self._defender_card_problem(s, seat, chain, iid) is None:
                    out.append({"type": "defender", "card": iid})
        weakening = top["kind"] == "calculation" and chain is not None
        if weakening and self._weaken_problem(s, seat, chain) is None:
            out.append({"type": "weaken"})
        if instants:
            out.extend(self._instant_actions(s, seat, only))
        return out

    def _instant_actions(self, s: State, seat: int, only: int | None) -> list[Action]:
        """The instant abilities (404.6) the holder of priority ``seat`` may declare where
        no non-instant one may be (a non-empty stack, the opponent's turn, the Final
        Phase): those of ``seat``'s cards with one, hidden ones too unless the game's
        setting says otherwise (D-21, 415.2: declaring reveals them), or of card ``only``.
        The game's cards say at once whether there is any (``_Facts.instant``)."""
        instant = self._facts(s).instant
        if not instant:
            return []
        out: list[Action] = []
        pieces = s["pieces"]
        tokens = self._token_cards
        cards = s["cards"]
        for iid in instant:
            if only is not None and iid != only:
                continue
            q = pieces.get(str(iid))
            if q is None or q["owner"] != seat:
                continue
            if q["hidden"] and not self.cfg(s).hidden_cards_declare_instants:
                continue  # D-21 turned off: a hidden card declares nothing
            if (q["closed"] or q["acted"] or q["moved"]) and cards[iid] not in tokens:
                continue  # 104.4, 203.11: no closing cost can be paid
            out.extend(self._ability_actions(s, seat, iid))
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
        movement = self.movement(s, iid)
        if q["marks"] >= movement:
            return _err(
                "203.4",
                f"No movement left: {movement} movement, {q['marks']} markers.",
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
        blocker = effects.move_blocker(self, s, iid)
        if blocker is not None:  # 410.5: blocked, paid all the same (203.3)
            events.append({"type": "move_blocked", "card": iid, "source": blocker, "rule": "203.3"})
            s["priority"] = stack.after_declare_or_execute(s["active"])
            return
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
        info, cards = self.info, s["cards"]
        if (info[cards[a]].is_flyer and not qa["hidden"]) or (
            info[cards[b]].is_flyer and not qb["hidden"]
        ):
            return False  # a hidden card is only a card on its cell (415.3)
        if qa["cell"] == qb["cell"]:
            return qa["host"] == b or qb["host"] == a
        (ax, ay), (bx, by) = qa["cell"], qb["cell"]
        return max(abs(ax - bx), abs(ay - by)) == 1  # board.adjacent, inlined

    def _target_problem(
        self, s: State, source: int, target: int, slow: bool = False
    ) -> IllegalAction | None:
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
            if slow or sq.get("slow") == s["turn"]:  # 211.9, D-14: the strike it granted
                return None
            return _err("211.8", "A non-flying creature cannot strike a flyer.")
        if not self._adjacent(s, source, target):
            return _err("205.2", "A simple strike hits an adjacent card.")
        return None

    def _strike_targets(
        self, s: State, source: int, enemies: list[tuple[int, Any]] | None = None
    ) -> list[int]:
        """The cards ``source`` may strike; ``enemies``: its owner's opponent's cards in
        play, sorted, with their cells, if the caller has them."""
        sq = s["pieces"][str(source)]
        if enemies is None:
            pieces = s["pieces"]
            theirs = sorted(self._pieces_of(s, 1 - sq["owner"]))
            enemies = [(t, pieces[str(t)]["cell"]) for t in theirs]
        if not self.card(s, source).is_flyer:  # only adjacent cards can be legal
            if sq["cell"] is None:
                return []
            x, y = sq["cell"]
            slow = sq.get("slow") == s["turn"]  # 211.9: and flyers
            # _target_problem inlined for a non-flyer source on the Battlefield: its
            # opponent's cards (``enemies``) adjacent to it or, with a slow strike, flyers
            pieces, info, cards = s["pieces"], self.info, s["cards"]
            out = []
            for t, c in enemies:
                if c is None:  # the Additional Zone: a flyer, for a slow strike only
                    if slow and not pieces[str(t)]["hidden"] and info[cards[t]].is_flyer:
                        out.append(t)
                    continue
                dx, dy = c[0] - x, c[1] - y
                if not (-1 <= dx <= 1 and -1 <= dy <= 1):
                    continue
                tq = pieces[str(t)]
                if not tq["hidden"] and info[cards[t]].is_flyer:  # 211.8, 211.9
                    if slow:
                        out.append(t)
                    continue
                if (dx == 0 and dy == 0) and tq["host"] != source and sq["host"] != t:
                    continue  # the same cell: adjacent only to its host or hosted card
                out.append(t)
            return out
        else:
            candidates = [t for t, _c in enemies]
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
        q = s["pieces"][str(iid)]
        if q.get("slow") is not None and self.card(s, target).is_flyer:
            q["slow"] = None  # 211.9: once
            self._declare(s, seat, iid, target, None, events, slow=True)
            return
        self._declare(s, seat, iid, target, None, events)

    def _slow_problem(self, s: State, seat: int, iid: int) -> IllegalAction | None:
        """211.9, D-14: a non-instant closing action of an open non-flyer when the opponent
        has no creature that is not a flyer (hidden cards count as such) and has a flyer."""
        problem = self._striker_problem(s, seat, iid)
        if problem is not None:
            return problem
        if self.card(s, iid).is_flyer:
            return _err("211.9", "A flyer strikes flyers without a slow action.")
        if not self._slow_possible(s, seat):
            return _err("211.9", "Only when the opponent has flyers and no other creatures.")
        return None

    def _slow_possible(self, s: State, seat: int) -> bool:
        """211.9: the opponent has a flyer and no creature that is not one (a hidden card
        counts as one that is not)."""
        flyers = False
        info, cards = self.info, s["cards"]
        for key, q in s["pieces"].items():
            if q["owner"] == seat:
                continue
            card = info[cards[int(key)]]
            if q["hidden"] or (card.type == "creature" and card.subtype != "flying"):
                return False
            flyers = flyers or card.subtype == "flying"
        return flyers

    def _do_slow(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        problem = self._slow_problem(s, seat, iid)
        if problem is not None:
            raise problem
        q = s["pieces"][str(iid)]
        q["closed"] = True
        q["acted"] = True
        q["slow"] = s["turn"] + 2  # its owner's next turn
        events.append({"type": "slow", "card": iid, "rule": "211.9"})
        s["priority"] = stack.after_declare_or_execute(s["active"])

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
        **extra: Any,
    ) -> None:
        """Push the chain of a simple strike (``ability`` None) or a playable ability: nine
        objects with dice, six without (216.1а-б); a hidden source (an instant ability, D-21)
        is revealed before it declares, a hidden target as it becomes the target, and if
        that makes the declaration illegal, the chain is blocked (415.2, 415.4, D-20)."""
        hidden_source = s["pieces"][str(iid)]["hidden"]
        if hidden_source:  # 415.2: "если заявляет внезапную особенность", off the stack
            self._reveal(s, iid, events, "415.2", instant=True)
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
        chain.update(extra)  # a cell (С: Прыжок ...), a card to bring, a second target
        s["chains"][str(n)] = chain
        dice = ability is None or ability in RANGED
        s["stack"] = stack.push_chain(s["stack"], n, dice=dice)  # 216.1а-б
        if ability is None:
            events.append({"type": "strike", "chain": n, "card": iid, "target": target})
        else:
            event: Event = {
                "type": "ability",
                "ability": ability,
                "chain": n,
                "card": iid,
                "target": target,
            }
            if "cell" in extra:
                event["cell"] = _name(extra["cell"])
            events.append(event)
        hidden_target = s["pieces"][str(target)]["hidden"]
        if hidden_target:  # 415.2, D-20: revealed on becoming a target
            self._reveal(s, target, events, "415.2")
        if (hidden_source or hidden_target) and self._chain_target_problem(s, chain) is not None:
            chain["blocked"] = True  # 415.4: made illegal by a reveal, blocked
            s["stack"] = stack.remove_chain(s["stack"], n, keep_payment=True)
            s["stack"].append({"chain": n, "kind": "end", "seen": False})
            s["stack"][-1], s["stack"][-2] = s["stack"][-2], s["stack"][-1]
            events.append({"type": "blocked", "chain": n, "rule": "415.4"})
        s["priority"] = stack.after_declare_or_execute(s["active"])

    def _chain_target_problem(self, s: State, chain: dict) -> IllegalAction | None:
        ability = chain.get("ability")
        if ability is None:
            return self._target_problem(
                s, chain["source"], chain["target"], chain.get("slow", False)
            )
        return self._ability_target_problem(s, ability, chain["source"], chain["target"])

    # -- playable abilities [404]: shots, throws, discharges, Heal, Finishing ------------

    def _actor_problem(self, s: State, seat: int, iid: int, ability: str) -> IllegalAction | None:
        """A non-instant closing ability [404.7, D-11]: the active player's open, revealed
        card that has neither acted nor moved this turn, in the Main Phase, the stack empty."""
        q = s["pieces"].get(str(iid))
        if q is None or q["owner"] != seat:
            return _err("404.2", "Use an ability of one of your own cards in play.")
        card = self.card(s, iid)
        script = self._script_of(card, ability)
        if script is None and (ability not in PLAYABLE or not self.has(s, iid, ability)):
            return _err("404.1", f"This card has no playable {ability[:20]!r} ability.")
        st = s["stack"]
        if script is not None and script.get("instant"):
            # 404.6: an instant ability, declared in any phase of either player's turn by
            # whoever holds priority, whatever is on the stack (215.6; 300.6: nobody holds
            # it in the Preliminary Phase)
            if s["phase"] != "main" and s["phase"] != "final":
                return _err("404.6", "An instant ability needs priority: not in this step.")
            if s["priority"]["holder"] != seat:
                return _err("215.6", "You do not hold priority.")
            if st and any(c.get("source") == iid for c in s["chains"].values()):
                # 404.3: its cost is owed to the Payment object of a chain on the stack
                return _err("404.3", "This card already pays for an ability on the stack.")
            if q["hidden"] and not self.cfg(s).hidden_cards_declare_instants:
                return _err("D-21", "In this game a hidden card declares no ability.")
            # D-21: a hidden card may declare it; _declare reveals it first (415.2)
        else:
            if s["phase"] != "main" or s["active"] != seat:
                return _err("404.7", "A non-instant ability only in your own Main Phase.")
            if st:
                return _err("404.7", "A non-instant ability needs an empty stack.")
            if q["hidden"]:
                return _err("D-21", "A hidden card may declare only instant abilities.")
        if script is not None and script.get("tokens"):  # paid with tokens, no closing
            if self._tokens_available(s, iid) < script["tokens"]:
                return _err("104.5", f"This ability costs {script['tokens']} tokens.")
            return None
        if q["closed"]:
            return _err("104.4", "A closed card cannot pay a closing cost.")
        if q["acted"]:
            return _err("Г: Действие карты", "This card has acted this turn.")
        if q["moved"]:
            return _err("203.11", "A card that moved this turn cannot take closing actions.")
        if ability in RELOCATIONS:  # С: Прыжок / Телепортация / Манёвр
            card = self.card(s, iid)
            if card.type != "creature" or card.subtype or q["cell"] is None or q["host"]:
                return _err(_RULE[ability], "Only a creature with no subtype on the Battlefield.")
            if q["marks"]:
                return _err(_RULE[ability], "This creature has spent movement this turn.")
        elif ability in ("summon", "resurrection") and q["cell"] is None:
            return _err(_RULE[ability], "The card brought stands next to the source.")
        return None

    def protected(self, s: State, iid: int, ability: str) -> bool:
        """411.1, 411.4: Protection from the ability's kind (from magic covers discharges)."""
        kinds = RANGED.get(ability, ())
        return any(of in kinds for of in self.kinds_of(s, iid, "protection"))

    def _ability_target_problem(
        self, s: State, ability: str, source: int, target: int
    ) -> IllegalAction | None:
        tq = s["pieces"].get(str(target))
        sq = s["pieces"][str(source)]
        if tq is None:
            return _err("400.2", "Name a card in play.")
        tgt = self.card(s, target)
        if ability.startswith("script"):
            return self._script_target_problem(s, ability, source, target)
        rule = _RULE[ability]
        if ability == "strike_through_row":
            if tq["owner"] == sq["owner"]:
                return _err(rule, "Attack an enemy card in play.")
            middle = None
            if sq["cell"] is not None and tq["cell"] is not None:
                middle = board.through_row_middle(tuple(sq["cell"]), tuple(tq["cell"]))
            if middle is None:
                return _err(rule, "The target is two cells away along a vertical or horizontal.")
            if any(s["owner"][o] != sq["owner"] for o in self._occupants(s, middle)):
                return _err(rule, "An enemy card stands between.")
            return None
        if ability == "manoeuvre":
            if (
                target == source
                or tq["owner"] != sq["owner"]
                or tq["hidden"]
                or tgt.type != "creature"
                or tgt.subtype
                or tq["cell"] is None
                or tq["host"] is not None
                or sq["cell"] is None
                or abs(tq["cell"][0] - sq["cell"][0]) + abs(tq["cell"][1] - sq["cell"][1]) != 1
            ):
                return _err(rule, "Swap with your own creature with no subtype next to it.")
            return None
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
            playable = self._playable[card.id] = tuple(a for a in PLAYABLE if card.has(a)) + tuple(
                key for key, _script in self._activated(card)
            )
        granted = s["pieces"][str(iid)].get("granted")
        if granted:  # shots and throws an equipment gives its host (406.1)
            playable += tuple(g[0] for g in granted if g[0] in PLAYABLE and g[0] not in playable)
        for ability in playable:
            if self._actor_problem(s, seat, iid, ability) is not None:
                continue
            if ability in TO_A_CELL or ability == "redistribution":
                out.extend(self._special_actions(s, seat, iid, ability))
                continue
            if keys is None:
                keys = sorted(s["pieces"], key=int)
            if ability in _SHOOTING:
                out.extend(self._ranged_actions(s, seat, iid, card, ability, keys))
                continue
            script = self._script_of(card, ability)
            side = script.get("target") if script is not None else None
            enemies = ability in RANGED or side == "any_enemy"  # the others fail at once
            friends = ability == "manoeuvre" or side == "any_own"
            # a heal refuses at once a card with no wounds (416.2, С: Излечение)
            heals = ability == "heal" or (script is not None and script["do"] == "heal")
            pieces = s["pieces"]
            # the cells a target must stand on, if the ability says (``_GEOMETRY``): most
            # cards fail there, skipped before the full check words their refusal
            shape = _GEOMETRY.get(ability)
            at = pieces[str(iid)]["cell"]
            for key in keys:
                tq = pieces[key]
                if (enemies and tq["owner"] == seat) or (friends and tq["owner"] != seat):
                    continue
                if heals and tq["wounds"] <= 0:
                    continue
                if shape is not None:
                    cell = tq["cell"]
                    if at is None or cell is None:
                        continue
                    dx, dy = abs(cell[0] - at[0]), abs(cell[1] - at[1])
                    if ((dx, dy) if dx <= dy else (dy, dx)) not in shape:
                        continue
                target = int(key)
                if self._ability_target_problem(s, ability, iid, target) is None:
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

    def _ranged_actions(
        self, s: State, seat: int, iid: int, card: Card, ability: str, keys: list[str]
    ) -> list[Action]:
        """The targets of a Shot, Throw or Discharge of ``card`` (``iid``, ``seat``'s, its
        ``_actor_problem`` None): ``_ability_target_problem`` inlined for them."""
        out: list[Action] = []
        pieces, info, cards = s["pieces"], self.info, s["cards"]
        reach = card.ability_x("range")
        here = pieces[str(iid)]["cell"]
        if here is None:
            reach = None
        for key in keys:
            tq = pieces[key]
            if tq["owner"] == seat:
                continue
            target = int(key)
            there = tq["cell"]
            if (  # С: Дальность, king moves
                reach is not None
                and there is not None
                and max(abs(here[0] - there[0]), abs(here[1] - there[1])) > reach
            ):
                continue
            if tq["hidden"]:
                out.append(
                    {"type": "ability", "ability": ability, "card": iid, "cell": _name(there)}
                )
                continue
            if (info[cards[target]].ofs("protection") or tq.get("granted")) and self.protected(
                s, target, ability
            ):
                continue  # 411.1
            out.append({"type": "ability", "ability": ability, "card": iid, "target": target})
        return out

    def _free_cells(self, s: State) -> list[tuple[int, int]]:
        """The Battlefield's cells no card stands on, in the order of their names' cells."""
        taken = {tuple(q["cell"]) for q in s["pieces"].values() if q["cell"] is not None}
        return [cell for cell in _CELL_NAMES if cell not in taken]

    def _cell_problem(
        self, s: State, ability: str, iid: int, cell: tuple[int, int], bring: int | None
    ) -> IllegalAction | None:
        """The cell (and, for Resurrection, the Graveyard card) of a Jump, a Teleport, a
        Summon or a Resurrection: an unoccupied cell, next to the source for a taking."""
        rule = _RULE[ability]
        if not board.on_board(cell) or self._occupants(s, cell):
            return _err(rule, "Name an unoccupied cell of the Battlefield.")
        if ability in ("summon", "resurrection"):
            here = s["pieces"][str(iid)]["cell"]
            if max(abs(here[0] - cell[0]), abs(here[1] - cell[1])) != 1:
                return _err(rule, "The card brought stands next to the source.")
        if ability == "resurrection":
            if bring not in s["players"][s["pieces"][str(iid)]["owner"]]["grave"]:
                return _err(rule, 'Name a card of your Graveyard with "bring".')
            if not self._eligible_for(s, iid, bring, ability):
                return _err(rule, "That card does not answer the ability's conditions.")
        return None

    def _special_actions(self, s: State, seat: int, iid: int, ability: str) -> list[Action]:
        """The declarations of a cell-targeted ability or a Redistribution."""
        out: list[Action] = []
        base = {"type": "ability", "ability": ability, "card": iid}
        if ability in ("jump", "teleport"):
            for cell in self._free_cells(s):
                out.append({**base, "cell": _CELL_NAMES[cell]})
        elif ability == "summon":
            for cell in self._free_cells(s):
                if self._cell_problem(s, ability, iid, cell, None) is None:
                    out.append({**base, "cell": _CELL_NAMES[cell]})
        elif ability == "resurrection":
            graves = [
                g for g in s["players"][seat]["grave"] if self._eligible_for(s, iid, g, ability)
            ]
            for cell in self._free_cells(s) if graves else ():
                if self._cell_problem(s, "summon", iid, cell, None) is None:
                    for g in sorted(graves):
                        out.append({**base, "cell": _CELL_NAMES[cell], "bring": g})
        else:  # redistribution
            keys = sorted(s["pieces"], key=int)
            for key in keys:
                if self._redistribution_problem(s, iid, int(key), None) is not None:
                    continue
                for other in keys:
                    if self._redistribution_problem(s, iid, int(key), int(other)) is None:
                        out.append({**base, "target": int(key), "to": int(other)})
        return out

    def _redistribution_problem(
        self, s: State, source: int, target: int, to: int | None
    ) -> IllegalAction | None:
        """С: Перераспределение X (our reading for a card that lists no targets: heal one
        of your wounded non-incorporeal creatures of up to X wounds, then deal as many
        wounds to one revealed enemy creature)."""
        rule = "С: Перераспределение"
        seat = s["pieces"][str(source)]["owner"]
        q = s["pieces"].get(str(target))
        if q is None or q["owner"] != seat or q["hidden"] or q["wounds"] <= 0:
            return _err(rule, "Heal one of your own wounded creatures.")
        card = self.card(s, target)
        if not card.is_creature or card.has("incorporeal"):
            return _err(rule, "Heal one of your own non-incorporeal creatures.")
        if to is None:
            return None
        tq = s["pieces"].get(str(to))
        if tq is None or tq["owner"] == seat or tq["hidden"] or not self.card(s, to).is_creature:
            return _err(rule, "Wound a revealed enemy creature.")
        return None

    def _do_ability(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        ability = action.get("ability")
        if type(ability) is not str:
            raise _err("404.1", 'Name the ability with "ability", e.g. "shot".')
        problem = self._actor_problem(s, seat, iid, ability)
        if problem is not None:
            raise problem
        if ability in TO_A_CELL:
            name = action.get("cell")
            try:
                cell = board.parse_cell(name) if type(name) is str else None
            except ValueError:
                cell = None
            if cell is None:
                raise _err("207.5", 'Name the cell with "cell", e.g. "B2".')
            bring = action.get("bring") if ability == "resurrection" else None
            if bring is not None and type(bring) is not int:
                raise _err(_RULE[ability], 'Name a card of your Graveyard with "bring".')
            problem = self._cell_problem(s, ability, iid, cell, bring)
            if problem is not None:
                raise problem
            self._declare(s, seat, iid, iid, ability, events, cell=list(cell), bring=bring)
            return
        if ability == "redistribution":
            target, to = self._iid(action, "target"), self._iid(action, "to")
            problem = self._redistribution_problem(s, iid, target, to)
            if problem is not None:
                raise problem
            self._declare(s, seat, iid, target, ability, events, to=to)
            return
        target = self._named_target(s, action)
        problem = self._ability_target_problem(s, ability, iid, target)
        if problem is not None:
            raise problem
        self._declare(s, seat, iid, target, ability, events)

    def _defender_problem(self, s: State, seat: int, chain: dict, iid: int) -> IllegalAction | None:
        problem = self._defence_problem(s, seat, chain)
        return problem if problem is not None else self._defender_card_problem(s, seat, chain, iid)

    def _defence_problem(self, s: State, seat: int, chain: dict) -> IllegalAction | None:
        """What keeps ``seat`` from assigning any defender to ``chain`` now."""
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
        return None

    def _defender_card_problem(
        self, s: State, seat: int, chain: dict, iid: int
    ) -> IllegalAction | None:
        """What keeps card ``iid`` from defending against ``chain``, any defender allowed."""
        src = self.card(s, chain["source"])
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
                # 313.1: "в конце хода" triggers fire as the Final Phase begins, so what
                # they give (a destruction effect, 402.3а) is on the stack before 313.2
                self._moment_scripts(s, s["active"], "turn_end", events)
            else:
                self._end_turn(s, events)

    def _execute(self, s: State, obj: dict, events: list[Event]) -> None:
        n = obj["chain"]
        if obj["kind"] == stack.DESTRUCTION:
            self._execute_destruction(s, obj, events)
            return
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
        if ability in SPECIAL or (ability is not None and ability.startswith("script")):
            self._execute_special(s, n, chain, kind, events)
            return
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
            if (
                ability is None
                and str(source) in s["pieces"]
                and self.has(s, source, "unity")
                and self.lives(s, source) > 0  # not doomed by Fear: its destruction is next
            ):
                self._unity(s, n, chain, events)
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
                da = self.ability_x(s, source, "experience_attack") or 0
                da -= src.ability_x("clumsiness") or 0
            else:  # С: Опыт в Стрельбе / Метании / Разряде
                da = self.ability_x(s, source, EXPERIENCE.get(ability, "")) or 0
            da += self._static_bonus(s, source, "roll_bonus")
            fa = fight.final_roll(a, (da, _blessed(src)), open_fight=chain["fight"])
            fr = None
            if chain["fight"]:
                dr = self.ability_x(s, target, "experience_defence") or 0
                dr -= tgt.ability_x("clumsiness") or 0
                dr += self._static_bonus(s, target, "roll_bonus")
                fr = fight.final_roll(r, (dr, _blessed(tgt)), open_fight=True)
            chain["final"] = [fa, fr]
            events.append({"type": "result", "chain": n, "final": [fa, fr]})
            for iid, raw, final in ((source, a, fa), (target, r, fr)):
                if raw is not None and raw % 2 and self._plagued(s, chain, iid):
                    self._self_wound(s, iid, max(0, final), events, "С: Чума", n)
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
            blow = (
                src.strike
                if ability is None
                else fight.attack_for(self.ability_x(s, source, ability) or 0)
            )
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
                to_target = effects.after_preventions(self, s, target, to_target)  # 420
                to_source = effects.after_preventions(self, s, source, to_source)
            elif self.card(s, target).type in ("terrain", "equipment"):  # 212.1, 214.1
                to_target = 0
            chain["deal"] = [to_target, to_source]
        elif kind == "wounds" and ability == "heal":  # С: Излечение, 416.2
            q = s["pieces"][str(target)]
            healed = q["wounds"] - fight.heal(q["wounds"], self.card(s, source).ability_x("heal"))
            q["wounds"] -= healed
            events.append({"type": "healed", "card": target, "amount": healed, "chain": n})
        elif kind == "wounds" and ability == "finishing":  # С: Добивание
            # "Уничтожить ...": the ability gives the destruction effect (402.3), which goes
            # on the stack (402.3а); no wounds gave it, so no heal cancels it (402.3б)
            if self._ability_target_problem(s, ability, source, target) is None:
                near = self._near_for_corpse_eating(s, source, target)
                self._doom(s, target, events, n, by=source, near=near, wounds=False)
        elif kind == "wounds":  # D-15: both sides at once
            to_target, to_source = chain["deal"]
            hits = [(target, to_target), (source, to_source)]
            near = ability is None and self._near_for_corpse_eating(s, source, target)
            for iid, amount in hits:  # С: Гнев: wounded by an attack this turn
                self._add_wounds(s, iid, amount, events, chain=n, attack=True)
            doomed = [  # 402.3: the wounds give these the destruction effect
                iid
                for iid, amount in hits
                if amount > 0 and str(iid) in s["pieces"] and self.lives(s, iid) <= 0
            ]
            if ability is None:  # after the simple strike's wounds
                self._plague_strike(s, chain, source, target, events)  # С: Чума
                for iid, other, amount in (
                    (source, target, to_target),
                    (target, source, to_source),
                ):
                    self._vampirism(s, iid, other, amount, events, chain)  # С: Вампиризм
            # 402.3а, CK-072: each destruction effect goes on the stack after the wounds'
            # triggers, an object of its own above the rest of this chain: a priority
            # window in which an instant ability may answer it (215.9, 404.6). The
            # target's is pushed last, so it executes first (as the engine destroyed the
            # target first before).
            for iid in reversed(doomed):
                if str(iid) in s["pieces"] and self.lives(s, iid) <= 0:
                    by = source if iid == target else target
                    self._doom(s, iid, events, n, by=by, near=bool(near))
                else:
                    events.append(
                        {"type": "destruction_cancelled", "card": iid, "chain": n, "rule": "402.3б"}
                    )
        elif kind == "payment":
            closes = ability is not None or self.cfg(s).strike_closes_attacker  # D-11, 104.4
            if str(source) in s["pieces"] and closes:
                sq = s["pieces"][str(source)]
                sq["closed"] = True
                sq["acted"] = True
            if ability is None and str(source) in s["pieces"]:  # "после" triggers, 216.12
                for script in self._once(self.card(s, source), "after_strike"):
                    self._run_once(s, source, script, events, s["pieces"][str(source)]["cell"])
            d = chain["defender"]
            if d is not None and str(d) in s["pieces"]:  # 216.12а
                s["pieces"][str(d)]["closed"] = True
        elif kind == "end":  # 216.13
            del s["chains"][str(n)]

    def _execute_destruction(self, s: State, obj: dict, events: list[Event]) -> None:
        """A destruction effect executes (402.3а): the card goes to its owner's Graveyard,
        its hosted cards after it (210.6, 214.8). One given by wounds is illegal and
        cancelled if the card has more than 0 lives now, e.g. healed by an instant ability
        while the object was on top (402.3б, CK-072); one given by an ability's text
        (С: Добивание) is not. Gone already, the card is not destroyed again."""
        iid, n = obj["card"], obj["chain"]
        if str(iid) not in s["pieces"]:
            return
        wounds = obj.get("wounds", True)
        if wounds and self.lives(s, iid) > 0:
            events.append(
                {"type": "destruction_cancelled", "card": iid, "chain": n, "rule": "402.3б"}
            )
            return
        self._destroy(s, iid, events, "402.3" if wounds else "С: Добивание")
        if obj["by"] is not None:
            self._corpse_eating(s, obj["by"], iid, obj["near"], events)  # С: Трупоедство

    # -- scripted playable abilities, tokens, Meditation --------------------------------

    def _activated(self, card: Card) -> tuple[tuple[str, dict], ...]:
        """The card's playable scripts ("when": "activated"), keyed "script<n>" by their
        place among its abilities: close (or remove tokens, 104.5) to heal, wound, give
        additional lives to or open a chosen creature."""
        known = self._activated_scripts.get(card.id)
        if known is None:
            known = self._activated_scripts[card.id] = tuple(
                (f"script{n}", a.script)
                for n, a in enumerate(card.abilities)
                if a.script is not None and a.script.get("when") == "activated"
            )
        return known

    def _script_of(self, card: Card, ability: str) -> dict | None:
        if not ability.startswith("script"):
            return None
        index = self._script_index.get(card.id)
        if index is None:
            index = self._script_index[card.id] = dict(self._activated(card))
        return index.get(ability)

    def _script_target_problem(
        self, s: State, ability: str, source: int, target: int
    ) -> IllegalAction | None:
        script = self._script_of(self.card(s, source), ability)
        if script is None:
            return _err("404.1", "No such ability.")
        tq = s["pieces"].get(str(target))
        seat = s["pieces"][str(source)]["owner"]
        if tq is None or tq["hidden"]:
            return _err("400.2", "Name a revealed creature in play.")
        card = self.card(s, target)
        own = script.get("target") == "any_own"
        if not card.is_creature or (tq["owner"] == seat) != own:
            return _err(
                "400.2", "Name " + ("a creature of yours." if own else "an enemy creature.")
            )
        do = script["do"]
        if do == "heal" and (tq["wounds"] <= 0 or card.has("incorporeal")):
            return _err("С: Излечение", "The target has no wounds to heal.")
        if do == "open" and not tq["closed"]:
            return _err("404", "The target is open already.")
        if do == "take_control":
            return effects.control_problem(self, s, seat, target)
        if do == "lose_abilities" and is_blank(s["cards"][target]):
            return _err("407.4", "This creature has lost all its abilities already.")
        return None

    def _run_script(self, s: State, n: int, chain: dict, events: list[Event]) -> None:
        source, target, seat = chain["source"], chain["target"], chain["controller"]
        script = self._script_of(self.card(s, source), chain["ability"])
        assert script is not None
        amount = script.get("amount")
        if amount == "x":
            amount = s["pieces"][str(source)]["x"] or 0
        q = s["pieces"][str(target)]
        do = script["do"]
        if do == "heal":  # 416.2
            healed = q["wounds"] - fight.heal(q["wounds"], amount)
            q["wounds"] -= healed
            events.append({"type": "healed", "card": target, "amount": healed, "chain": n})
        elif do == "wound":  # an influence (401.5): С: Стойкость
            self._influence_wounds(s, seat, target, amount, events, "401.5", n)
        elif do == "add_lives":  # 204.2
            q["extra"] += amount
            events.append(
                {"type": "lives", "card": target, "amount": amount, "source": source, "chain": n}
            )
        elif do == "gain_token":  # 104.5, 103.2
            effects.gain_tokens(self, s, target, amount, events, chain=n)
        elif do == "take_control":  # 200.2б, 210.12
            effects.take_control(s, target, seat, events, chain=n)
        elif do == "lose_abilities":  # 407.4
            self._lose_all(s, target, events, "407.4", chain=n)
        else:  # open
            q["closed"] = False
            events.append({"type": "opened", "card": target, "chain": n})

    def _token_payers(self, s: State, iid: int) -> list[int]:
        """Whose tokens pay ``iid``'s costs: its own; with С: Медитация also those of the
        other revealed cards of its element in its controller's squad (not a neutral card's)."""
        out = [iid]
        card = self.card(s, iid)
        if card.element and self.has(s, iid, "meditation"):
            seat = s["pieces"][str(iid)]["owner"]
            for key in sorted(s["pieces"], key=int):
                q = s["pieces"][key]
                if int(key) == iid or q["owner"] != seat or q["hidden"]:
                    continue
                if self.card(s, int(key)).element == card.element:
                    out.append(int(key))
        return out

    def _tokens_available(self, s: State, iid: int) -> int:
        return sum(s["pieces"][str(k)].get("tokens", 0) for k in self._token_payers(s, iid))

    def _pay_tokens(self, s: State, iid: int, n: int, events: list[Event]) -> None:
        """Remove ``n`` tokens, the card's own first (104.5, С: Медитация)."""
        for k in self._token_payers(s, iid):
            q = s["pieces"][str(k)]
            take = min(n, q.get("tokens", 0))
            if take:
                q["tokens"] -= take
                n -= take
                events.append({"type": "tokens_paid", "card": k, "amount": take, "for": iid})
            if not n:
                return

    def _execute_special(
        self, s: State, n: int, chain: dict, kind: str, events: list[Event]
    ) -> None:
        """The six objects of a relocation (Jump, Teleport, Manoeuvre), a taking into the
        squad (Summon, Resurrection) or a Redistribution (216.1б): the effect at the
        Wounds object, the costs at the Payment object."""
        ability, source, seat = chain["ability"], chain["source"], chain["controller"]
        rule = _RULE.get(ability, "404")
        if kind == "wounds":
            problem = self._special_problem(s, chain)
            if problem is not None:  # 103.3: wholly impossible now: cancelled unpaid
                s["stack"] = stack.remove_chain(s["stack"], n)
                del s["chains"][str(n)]
                events.append({"type": "cancelled", "chain": n, "rule": problem.rule})
                return
            if ability.startswith("script"):
                self._run_script(s, n, chain, events)
            elif ability in ("jump", "teleport"):
                self._relocate(s, source, chain["cell"], events, rule)
            elif ability == "manoeuvre":  # Г: Поменять местами: at once
                other = chain["target"]
                here = s["pieces"][str(source)]["cell"]
                there = s["pieces"][str(other)]["cell"]
                self._relocate(s, source, there, events, rule)
                self._relocate(s, other, here, events, rule)
                s["pieces"][str(other)]["moved"] = True  # 203.11
            elif ability == "redistribution":
                target, to = chain["target"], chain["to"]
                q = s["pieces"][str(target)]
                x = self.card(s, source).ability_x("redistribution") or 0
                healed = q["wounds"] - fight.heal(q["wounds"], x)
                q["wounds"] -= healed
                events.append(
                    {"type": "healed", "card": target, "amount": healed, "chain": n, "rule": rule}
                )
                self._influence_wounds(s, seat, to, healed, events, rule, n)
            else:
                self._take_into_squad(s, n, chain, events)
        elif kind == "payment":
            q = s["pieces"].get(str(source))
            if q is None:
                return
            script = self._script_of(self.card(s, source), ability)
            if ability in RELOCATIONS:  # spending all movement; 203.11
                q["marks"] = max(q["marks"], self.movement(s, source))
                q["moved"] = True
            elif script is not None and script.get("tokens"):  # 104.5, С: Медитация
                self._pay_tokens(s, source, script["tokens"], events)
            else:  # 104.4, D-11
                q["closed"] = True
                q["acted"] = True
        elif kind == "end":
            del s["chains"][str(n)]

    def _special_problem(self, s: State, chain: dict) -> IllegalAction | None:
        """Whether a relocation, taking or Redistribution can still be done at its Wounds
        object (a cell taken meanwhile: С: Возрождение, С: Вызов)."""
        ability, source = chain["ability"], chain["source"]
        if str(source) not in s["pieces"]:
            return _err("423.1", "The source has left play.")
        if ability.startswith("script"):
            return self._ability_target_problem(s, ability, source, chain["target"])
        if ability in TO_A_CELL:
            if self._occupants(s, chain["cell"]):
                return _err(_RULE[ability], "The cell has been taken.")
            if ability == "resurrection":
                bring = chain["bring"]
                if bring not in s["players"][chain["controller"]]["grave"]:
                    return _err("С: Возрождение", "The card has left the Graveyard.")
            return None
        if ability == "manoeuvre":
            return self._ability_target_problem(s, ability, source, chain["target"])
        if str(chain["target"]) not in s["pieces"] or str(chain["to"]) not in s["pieces"]:
            return _err("423.1", "A target has left play.")
        return None

    def _relocate(
        self, s: State, iid: int, cell: list[int], events: list[Event], rule: str
    ) -> None:
        """The card (and what it hosts: 210.8, 214.9) goes to ``cell``: a relocation, no
        step of movement (Г: Поместить на клетку)."""
        q = s["pieces"][str(iid)]
        old = _name(q["cell"])
        q["cell"] = list(cell)
        for other in s["pieces"].values():
            if other["host"] == iid:
                other["cell"] = list(cell)
        events.append(
            {"type": "relocate", "card": iid, "from": old, "to": _name(cell), "rule": rule}
        )

    def _take_into_squad(self, s: State, n: int, chain: dict, events: list[Event]) -> None:
        """С: Вызов (from the deck: the card is chosen now; the engine chooses the dearest,
        then the first in deck order; none: paid all the same; the deck is shuffled after,
        206.10) and С: Возрождение (the named Graveyard card): the card joins its
        controller's squad on the cell, open (a flyer goes to the Additional Zone, 211.2а)."""
        seat, source = chain["controller"], chain["source"]
        p = s["players"][seat]
        ability = chain["ability"]
        if ability == "summon":
            best = None
            for iid in p["deck"]:
                if self._eligible_for(s, source, iid, "summon"):
                    cost = self.card(s, iid).cost
                    if best is None or cost > best[0]:
                        best = (cost, iid)
            p["deck"] = p["deck"][:]
            rng.shuffle(s["rng"], p["deck"])  # 206.10: the deck was searched
            if best is None:
                events.append({"type": "summon_none", "chain": n, "seat": seat, "rule": "С: Вызов"})
                return
            iid = best[1]
            p["deck"].remove(iid)
        else:
            iid = chain["bring"]
            p["grave"] = p["grave"][:]
            p["grave"].remove(iid)
        card = self.card(s, iid)
        q = self._new_piece(seat, None if card.is_flyer else list(chain["cell"]))
        q["hidden"] = False
        s["pieces"][str(iid)] = q
        events.append(
            {
                "type": "taken",
                "card": iid,
                "id": card.id,
                "seat": seat,
                "cell": _name(q["cell"]),
                "chain": n,
                "rule": _RULE[ability],
            }
        )

    def _eligible_for(self, s: State, source: int, iid: int, ability: str) -> bool:
        card = self.card(s, iid)
        of = next((a.of for a in self.card(s, source).abilities if a.name == ability), None)
        return (
            of is not None
            and card.is_creature
            and card.subtype not in ("symbiote", "parasite")
            and of in card.classes
            and card.cost < self._cost(s, source)
        )

    def _value_mods(self, s: State, chain: dict, blower: int, struck: int) -> list[int]:
        """Modifiers of an attack's value on ``struck`` [216.8]: Vulnerability (+1 to every
        attack on it; to X: to X's wounds) and Wrath (+1 to a simple strike on a card
        wounded by an attack this turn)."""
        ability = chain.get("ability")
        out = []
        for of in self.kinds_of(s, struck, "vulnerability"):
            if not of or (ability == "discharge" and of in ("magic", "discharges")):
                out.append(1)
                break
        wrath = ability is None and self.card(s, blower).has("wrath")
        if wrath and s["pieces"][str(struck)].get("hurt") == s["turn"]:
            out.append(1)
        if ability is None or blower != chain["source"]:  # its simple strike (or strike back)
            bonus = self._static_bonus(s, blower, "strike_bonus")
            if bonus:
                out.append(bonus)
        return out

    def _fear(self, s: State, n: int, source: int, target: int, events: list[Event]) -> None:
        """С: Страх X: the card attacking this one wounds itself for X, unless it has Fear."""
        fear = self.ability_x(s, target, "fear")
        src = self.card(s, source)
        if not fear or self.has(s, source, "fear") or src.type in ("terrain", "equipment"):
            return
        s["pieces"][str(source)]["wounds"] += fear
        events.append(
            {"type": "wounds", "card": source, "amount": fear, "chain": n, "rule": "С: Страх"}
        )
        if self.lives(s, source) <= 0:  # 402.3а: on the stack (at once in the Vanguard Step)
            self._doom(s, source, events, n)

    # -- static scripts, Formation, Plague, Corpse-eating, Unity ---------------------------

    def _statics(self, card: Card) -> tuple[dict, ...]:
        """The card's static scripts that modify values: "strike_bonus", "roll_bonus"."""
        known = self._static_scripts.get(card.id)
        if known is None:
            known = self._static_scripts[card.id] = tuple(
                a.script
                for a in card.abilities
                if a.script is not None
                and a.script.get("when") == "static"
                and a.script.get("do") in ("strike_bonus", "roll_bonus", "movement_bonus")
            )
        return known

    def movement(self, s: State, iid: int, boost: bool | None = None) -> int:
        """A creature's movement [203.4] with the static "movement_bonus" scripts of the
        revealed cards in play (its symbiote, its terrain); ``boost`` False: none is in play."""
        movement = self.card(s, iid).movement
        if boost is None:
            boost = self._boosted(s)
        return movement + self._static_bonus(s, iid, "movement_bonus") if boost else movement

    def _boosted(self, s: State) -> bool:
        cards, movers = s["cards"], self._movers
        if movers.isdisjoint(cards):  # no card of this game gives movement
            return False
        return any(cards[int(k)] in movers for k in s["pieces"])

    def in_formation(self, s: State, iid: int) -> bool:
        """С: Строй: a subtype-less creature with Formation on the Battlefield while another
        of its controller's Formation creatures stands orthogonally next to it."""
        q = s["pieces"].get(str(iid))
        card = self.card(s, iid)
        if q is None or q["cell"] is None or q["hidden"] or q["host"] is not None:
            return False
        if card.type != "creature" or card.subtype or not self.has(s, iid, "formation"):
            return False
        x, y = q["cell"]
        for key, o in s["pieces"].items():
            if int(key) == iid or o["owner"] != q["owner"] or o["hidden"] or o["cell"] is None:
                continue
            if abs(o["cell"][0] - x) + abs(o["cell"][1] - y) != 1 or o["host"] is not None:
                continue
            other = self.card(s, int(key))
            if (
                other.type == "creature"
                and not other.subtype
                and self.has(s, int(key), "formation")
            ):
                return True
        return False

    def _static_bonus(self, s: State, iid: int, do: str) -> int:
        """The sum of the static scripts "strike_bonus" / "roll_bonus" of the revealed cards
        in play that apply to creature ``iid`` now (their targets: self, host, all own, all
        adjacent own or enemy, narrowed by class; «Строй: …» ones only in formation)."""
        q = s["pieces"].get(str(iid))
        if q is None:
            return 0
        card = self.card(s, iid)
        cards = s["cards"]
        if card.type != "creature":
            return 0
        total = 0
        info, statics, pieces = self.info, self._statics, s["pieces"]
        for key in self._facts(s).valued:  # the cards of this game with value scripts
            o = pieces.get(key)
            if o is None or o["hidden"]:
                continue  # not in play; D-21: a hidden card does nothing
            other = int(key)
            scripts = statics(info[cards[other]])
            for script in scripts:
                if script["do"] != do:
                    continue
                target = script.get("target", "self")
                if target == "self":
                    applies = other == iid
                elif target == "host":
                    applies = o["host"] == iid
                elif target == "all_own":
                    applies = o["owner"] == q["owner"] and other != iid
                elif target == "all_adjacent_own":
                    applies = o["owner"] == q["owner"] and other != iid
                    applies = applies and self._adjacent(s, other, iid)
                else:  # all_adjacent_enemy
                    applies = o["owner"] != q["owner"] and self._adjacent(s, other, iid)
                cls = script.get("class")
                if not applies or (cls and cls not in card.classes):
                    continue
                if script.get("if") == "in_formation" and not self.in_formation(s, other):
                    continue
                amount = script.get("amount")
                total += (o["x"] or 0) if amount == "x" else amount
        return total

    def _plagued(self, s: State, chain: dict, iid: int) -> bool:
        """С: Чума, printed, acquired, or gained by Unity for this strike."""
        if str(iid) not in s["pieces"] or not self.card(s, iid).is_creature:
            return False
        if iid == chain.get("source") and "plague" in chain.get("unity", ()):
            return True
        return self.has(s, iid, "plague")

    def _plague_strike(
        self, s: State, chain: dict, source: int, target: int, events: list[Event]
    ) -> None:
        """С: Чума: the creature attacked by a plague carrier's melee strike gets Plague;
        С: Толстокожесть protects it from this "при атаке" ability of its attacker."""
        if str(target) not in s["pieces"] or not self._plagued(s, chain, source):
            return
        if not self.card(s, target).is_creature:
            return
        if self.has(s, target, "thick_skin"):
            events.append({"type": "prevented", "card": target, "rule": "С: Толстокожесть"})
            return
        self._gain(s, target, "plague", events, "С: Чума")

    def _near_for_corpse_eating(self, s: State, a: int, b: int) -> bool:
        """С: Трупоедство: next to each other, or either a flyer (adjacency waived)."""
        if self.card(s, a).is_flyer or self.card(s, b).is_flyer:
            return True
        return self._adjacent(s, a, b)

    def _corpse_eating(
        self, s: State, killer: int, victim: int, near: bool, events: list[Event]
    ) -> None:
        """С: Трупоедство: a creature that destroyed a non-incorporeal enemy creature next to
        it (not by a ranged attack) is healed fully and loses Poison."""
        if not near or str(victim) in s["pieces"] or str(killer) not in s["pieces"]:
            return
        if victim not in s["players"][s["owner"][victim]]["grave"]:
            return
        prey = self.card(s, victim)
        if (
            not prey.is_creature
            or prey.has("incorporeal")
            or s["owner"][victim] == s["owner"][killer]
        ):
            return
        if not self.card(s, killer).is_creature or not self.has(s, killer, "corpse_eating"):
            return
        q = s["pieces"][str(killer)]
        healed, q["wounds"] = q["wounds"], 0
        events.append(
            {"type": "healed", "card": killer, "amount": healed, "rule": "С: Трупоедство"}
        )
        if self.has(s, killer, "poison"):
            self._lose(s, killer, "poison", events, "С: Трупоедство")

    def _unity(self, s: State, n: int, chain: dict, events: list[Event]) -> None:
        """С: Единение X: attacking with a simple strike, the creature may show exactly X
        different creatures of its controller's deck cheaper than itself; until the Wounds
        object it has their "при [simple strike]" abilities (Plague, Vampirism). The
        engine shows them only when one of them gives something: cards with such an
        ability first, in deck order; then the deck is shuffled (206.10)."""
        source = chain["source"]
        seat = s["pieces"][str(source)]["owner"]
        x = self.card(s, source).ability_x("unity") or 0
        cost = self._cost(s, source)
        useful: list[int] = []
        other: list[int] = []
        names: set[str] = set()
        for iid in s["players"][seat]["deck"]:
            card = self.card(s, iid)
            if not card.is_creature or card.cost >= cost or card.name_ru in names:
                continue
            names.add(card.name_ru)
            (useful if any(card.has(a) for a in ON_STRIKE) else other).append(iid)
        shown = (useful + other)[:x]
        if len(shown) < x or not useful:
            return
        gained = sorted({a for iid in shown for a in ON_STRIKE if self.card(s, iid).has(a)})
        chain["unity"] = gained
        events.append(
            {
                "type": "shown",
                "seat": seat,
                "cards": [s["cards"][iid] for iid in shown],
                "gained": gained,
                "chain": n,
                "rule": "С: Единение",
            }
        )
        deck = s["players"][seat]["deck"] = s["players"][seat]["deck"][:]
        rng.shuffle(s["rng"], deck)

    def _cost(self, s: State, iid: int) -> int:
        """A card's cost for "cheaper" (202.3б(2): eliteness ignored; X as announced)."""
        card = self.card(s, iid)
        q = s["pieces"].get(str(iid))
        return card.cost + ((q or {}).get("x") or 0 if card.cost_x else 0)

    def _vampirism(
        self,
        s: State,
        iid: int,
        other: int,
        amount: int,
        events: list[Event],
        chain: dict | None = None,
    ) -> None:
        """С: Вампиризм: after dealing X simple-strike wounds to a non-incorporeal creature,
        heal X; what exceeds the wounds becomes additional lives."""
        if amount <= 0 or str(iid) not in s["pieces"]:
            return
        unity = (
            chain is not None and iid == chain["source"] and "vampirism" in chain.get("unity", ())
        )
        if not (unity or self.has(s, iid, "vampirism")):
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
        armour = self.ability_x(s, iid, "armour")
        if armour and amount > 0:
            q = s["pieces"][str(iid)]
            stopped = min(amount, max(0, armour - q["armour"]))
            q["armour"] += stopped
            return amount - stopped
        return amount

    def lives(self, s: State, iid: int) -> int:
        """Current lives [204.6]: reserve + additional lives - wounds - negative lives."""
        q = s["pieces"][str(iid)]
        return fight.current_lives(
            self.card(s, iid).lives, q.get("extra", 0), q["wounds"], q.get("negative", 0)
        )

    def has(self, s: State, iid: int, name: str) -> bool:
        """Whether a card in play has the named ability now: printed or acquired (407.1:
        ``gained``), unless it lost it (407.5: ``lost`` removes printed and acquired
        copies alike and keeps it from being regained)."""
        q = s["pieces"].get(str(iid))
        if q is not None:
            if name in q.get("lost", ()):
                return False
            if name in q.get("gained", ()):
                return True
            granted = q.get("granted")
            if granted and any(g[0] == name for g in granted):
                return True
        return name in self.info[s["cards"][iid]].named  # self.card(s, iid).has(name)

    def ability_x(self, s: State, iid: int, name: str) -> int | None:
        """The X of a named ability the card has now, printed or granted by a static script
        (``granted``); with several copies the highest acts (414.4); lost: None (407.5)."""
        x = self.info[s["cards"][iid]].ability_x(name)
        q = s["pieces"].get(str(iid))
        if q is None:
            return x
        if name in q.get("lost", ()):
            return None
        for g in q.get("granted", ()):
            if g[0] == name:
                x = max(x or 0, g[1] or 0)
        return x

    def kinds_of(self, s: State, iid: int, name: str) -> list[str]:
        """What the card's Protections / Vulnerabilities concern (``of``), printed and
        granted; "" for a Vulnerability to everything."""
        out = list(self.card(s, iid).ofs(name))
        q = s["pieces"].get(str(iid))
        if q is not None:
            if name in q.get("lost", ()):
                return []
            out += [g[2] for g in q.get("granted", ()) if g[0] == name]
        return out

    def _grants(self, card: Card) -> tuple[dict, ...]:
        known = self._grant_scripts.get(card.id)
        if known is None:
            known = self._grant_scripts[card.id] = tuple(
                a.script
                for a in card.abilities
                if a.script is not None and a.script.get("do") == "grant"
            )
        return known

    def _recheck_grants(self, s: State) -> None:
        """406.1: the static "grant" scripts of the revealed cards in play, rechecked at
        every priority: equipment, symbiotes and parasites give their host, terrains and
        creatures all (adjacent) creatures of their controller (by class), a named ability,
        kept on each receiving piece as ``granted`` ([name, x, of], 407.1). Hidden cards
        neither give nor receive (D-21, 415.3)."""
        pieces, cards = s["pieces"], s["cards"]
        keys = self._facts(s).granters  # the pieces of this game that may grant
        sources: list[str] = []  # the revealed ones in play
        had: list[str] = []  # the pieces holding grants from the last recheck
        if keys:
            for k, o in pieces.items():  # both in one pass over the pieces
                if "granted" in o:
                    had.append(k)
                if k in keys and not o["hidden"]:
                    sources.append(k)
        elif any("granted" in o for o in pieces.values()):
            had = [k for k, o in pieces.items() if "granted" in o]
        if not sources and not had:
            return
        granted: dict[str, list[list[Any]]] = {}
        info = self.info
        for key in sources:
            o = pieces[key]
            src = int(key)
            for script in self._grants(info[cards[src]]):
                target = script.get("target")
                cls = script.get("class")
                a = script["ability"]
                entry = [a["name"], a.get("x"), a.get("of", "")]
                if target == "host":
                    candidates = [] if o["host"] is None else [str(o["host"])]
                else:
                    candidates = [k for k, tq in pieces.items() if tq["owner"] == o["owner"]]
                for tkey in candidates:
                    tq = pieces.get(tkey)
                    if tq is None or tkey == key or (tq["hidden"] and entry[0] != "stealth"):
                        continue  # Stealth alone reaches a hidden card (decision 0053)
                    tcard = info[cards[int(tkey)]]
                    if not tcard.is_creature or (cls and cls not in tcard.classes):
                        continue
                    if target == "all_adjacent_own" and not self._adjacent(s, src, int(tkey)):
                        continue
                    granted.setdefault(tkey, []).append(entry)
        # a piece changed is replaced: it may be shared (the pieces keep their order)
        for key, entries in granted.items():
            q = pieces[key]
            now = sorted(entries, key=lambda g: (g[0], g[1] or 0, g[2]))
            if q.get("granted") != now:
                pieces[key] = {**q, "granted": now}
        for key in had:
            if key not in granted:
                pieces[key] = {k: v for k, v in pieces[key].items() if k != "granted"}

    def _gain(self, s: State, iid: int, name: str, events: list[Event], rule: str) -> None:
        """The card acquires a named ability (407.1) for the rest of the battle (407.2)."""
        q = s["pieces"][str(iid)]
        if name in q.get("lost", ()) or self.has(s, iid, name):
            return
        q["gained"] = [*q.get("gained", ()), name]
        events.append({"type": "gained", "card": iid, "ability": name, "rule": rule})

    def _lose_all(
        self, s: State, iid: int, events: list[Event], rule: str, chain: int | None = None
    ) -> None:
        """407.4: the card loses all its abilities, printed named ones, scripts and its
        creature classes (208.6), but keeps its acquired ones (``gained``, ``granted``),
        until the end of the battle (407.3). Its number is given the card's blank twin
        (``blank_card``): every rule reads the card through ``cards``, so none of them
        sees a printed ability again; the views name the printed card (``printed_id``)."""
        cards = s["cards"]
        if is_blank(cards[iid]):
            return
        twin = self.blank_card(cards[iid])
        s["cards"] = [*cards]  # shared with the state applied to: replaced, not changed
        s["cards"][iid] = twin.id
        event: dict[str, Any] = {"type": "lost_all", "card": iid, "rule": rule}
        if chain is not None:
            event["chain"] = chain
        events.append(event)

    def blank_card(self, card_id: str) -> Card:
        """The twin of card ``card_id`` without abilities (407.4): the same properties
        (200.7), no named ability, script or creature class, no text; id ``<id>~blank``."""
        blank_id = card_id if is_blank(card_id) else card_id + BLANK
        twin = self.info.get(blank_id)
        if twin is None:
            card = self.info[card_id]
            twin = dataclasses.replace(
                card,
                id=blank_id,
                abilities=(),
                classes=() if card.type == "creature" else card.classes,
                text_ru="",
                text_en="",
                extra={**card.extra, "printed": card_id},
            )
            self.info[blank_id] = twin
        return twin

    def _lose(self, s: State, iid: int, name: str, events: list[Event], rule: str) -> None:
        """407.5: losing a named ability removes every copy and prevents regaining it."""
        q = s["pieces"][str(iid)]
        if name in q.get("lost", ()):
            return
        q["lost"] = [*q.get("lost", ()), name]
        q["gained"] = [g for g in q.get("gained", ()) if g != name]
        events.append({"type": "lost", "card": iid, "ability": name, "rule": rule})

    def _add_wounds(
        self,
        s: State,
        iid: int,
        amount: int,
        events: list[Event],
        *,
        rule: str | None = None,
        chain: int | None = None,
        attack: bool = False,
    ) -> None:
        """Put ``amount`` wounds on a card [204.4]; ``attack``: wounds of an attack (С: Гнев)."""
        if amount <= 0:
            return
        q = s["pieces"][str(iid)]
        q["wounds"] += amount
        q["wounded"] = s["turn"]
        if attack:
            q["hurt"] = s["turn"]
        event: Event = {"type": "wounds", "card": iid, "amount": amount}
        if chain is not None:
            event["chain"] = chain
        if rule is not None:
            event["rule"] = rule
        events.append(event)

    def _self_wound(
        self, s: State, iid: int, amount: int, events: list[Event], rule: str, chain: int = 0
    ) -> None:
        """The card wounds itself ("ранится": Steadfastness does not help); at 0 lives or
        below it gets the destruction effect (402.3, ``_doom``)."""
        if amount <= 0 or str(iid) not in s["pieces"]:
            return
        if s["pieces"][str(iid)]["hidden"]:  # 415.2: a firing trigger reveals its card
            self._reveal(s, iid, events, "415.2")
        self._add_wounds(s, iid, amount, events, rule=rule)
        if self.lives(s, iid) <= 0:
            self._doom(s, iid, events, chain)

    def _influence_wounds(
        self,
        s: State,
        controller: int,
        iid: int,
        amount: int,
        events: list[Event],
        rule: str,
        chain: int = 0,
    ) -> int:
        """Wounds dealt by an influence (a non-attack ability, 401.5) that ``controller``
        controls; С: Стойкость: none to a card of the other player. At 0 lives or below
        the card gets the destruction effect (402.3, ``_doom``). The wounds dealt."""
        q = s["pieces"].get(str(iid))
        if q is None or amount <= 0:
            return 0
        if q["owner"] != controller and self.has(s, iid, "steadfastness"):
            events.append({"type": "prevented", "card": iid, "rule": "С: Стойкость"})
            return 0
        self._add_wounds(s, iid, amount, events, rule=rule)
        if self.lives(s, iid) <= 0:
            self._doom(s, iid, events, chain)
        return amount

    def _doom(
        self,
        s: State,
        iid: int,
        events: list[Event],
        chain: int = 0,
        *,
        by: int | None = None,
        near: bool = False,
        wounds: bool = True,
    ) -> None:
        """Card ``iid`` gets the destruction effect (402.3): at 0 lives or below after
        wounds (``wounds``), or by an ability's text (С: Добивание, ``wounds`` False).

        In the battle's turns (the Main and Final Phases; the engine's Main Phase holds the
        Turn Preparation and Turn Start, 310-311) the effect goes on the stack like a
        trigger (402.3а, CK-072), an object of its own (``stack.DESTRUCTION``) on top:
        ``chain`` is the chain whose object gave it (0: none, e.g. Thirst at 310 or Poison
        and Fading at 311.4, whose objects wait for the first priority, 405.2, 311.4); the
        active player gets priority after the object that gave it (215.9), so an instant
        ability may answer it (404.6), and it is cancelled if wounds gave it and the card
        has lives again when it executes (402.3б). ``by`` and ``near``: who destroys it and
        whether next to it (С: Трупоедство). A card that has the effect pending does not get
        it again (402.3: it had fewer than one life before), and a hidden card is revealed
        as its triggered property fires (415.2).

        In the Preliminary Phase nobody holds priority (300.6) and effects execute at once
        (301.2): the Start of Battle (307) and the Vanguard Step (308, D-30: the strike runs
        with no stack), so there the card is destroyed at once."""
        if s["phase"] != "main" and s["phase"] != "final":  # 300.6, 301.2, D-30
            self._destroy(s, iid, events, "402.3")
            return
        st = s["stack"]
        for obj in st:
            if obj["kind"] == stack.DESTRUCTION and obj["card"] == iid:
                return  # 402.3: it already had fewer than one life
        if s["pieces"][str(iid)]["hidden"]:
            self._reveal(s, iid, events, "415.2")
        obj = stack.destruction_object(chain, iid, by=by, near=near)
        event: Event = {"type": "destruction_effect", "card": iid, "chain": chain, "rule": "402.3а"}
        if not wounds:  # 402.3б does not apply: no lives regained save the card
            obj["wounds"] = event["wounds"] = False
        st.append(obj)
        events.append(event)

    def _destroy(self, s: State, iid: int, events: list[Event], rule: str) -> None:
        """The card goes to its owner's Graveyard, its hosted cards after it (210.6, 214.8),
        unless a replacement effect applies (419, ``effects.replace_destruction``)."""
        if str(iid) not in s["pieces"] or effects.replace_destruction(self, s, iid, events, rule):
            return
        q = s["pieces"].pop(str(iid))
        p = s["players"][s["owner"][iid]]
        p["grave"] = [*p["grave"], iid]  # 206.3а: its owner's
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
        card = self.card(s, iid)
        if card.has("gift_of_life") and "gift_of_life" not in q.get("lost", ()):
            self._gift_of_life(s, iid, q["owner"], events)
        if not q["hidden"]:  # "При гибели" scripts [Г: При гибели]
            for script in self._once(card, "on_death"):
                self._run_once(s, iid, script, events, q["cell"])

    def _gift_of_life(self, s: State, iid: int, seat: int, events: list[Event]) -> None:
        """С: Дар Жизни X: on this card's death, a chosen creature of its element in its
        controller's squad gains X additional lives (no maximum: D-28). The engine chooses
        for the player: the one with the fewest current lives, then the lowest number."""
        card = self.card(s, iid)
        if not card.element:  # a neutral card has no element to share [202.9]
            return
        chosen = None
        for key in sorted(s["pieces"], key=int):
            q = s["pieces"][key]
            other = self.card(s, int(key))
            if q["owner"] != seat or q["hidden"] or not other.is_creature:
                continue
            if other.element != card.element:
                continue
            lives = self.lives(s, int(key))
            if chosen is None or lives < chosen[0]:
                chosen = (lives, int(key))
        if chosen is None:
            return
        target = chosen[1]
        x = card.ability_x("gift_of_life") or 0
        s["pieces"][str(target)]["extra"] += x
        events.append(
            {"type": "lives", "card": target, "amount": x, "source": iid, "rule": "С: Дар Жизни"}
        )

    # -- the end [102] ------------------------------------------------------------------

    def _settle(self, s: State, events: list[Event], grants: bool = True) -> None:
        """After every action: the steps that run by themselves, then the base effect of
        102.3а / 421.2 whenever someone gets priority with the stack empty (D-10).
        ``grants`` False: no piece changed, so the grants' recheck (406.1) would find what
        the last one did."""
        if s["finished"]:
            return
        if s["phase"] == "place" and not any(p["recruit"] for p in s["players"]):
            self._start_reveal(s, events)
        if grants and (len(events) != 1 or events[0]["type"] != "pass"):  # a bare pass:
            self._recheck_grants(s)  # 406.1 (changes nothing either)
        if s["phase"] in BATTLE_PHASES and not s["stack"]:
            self._check_creatures(s, events)

    def _has_creatures(self, s: State, seat: int) -> bool:
        cards, info = s["cards"], self.info
        return any(
            q["owner"] == seat and info[cards[int(k)]].type == "creature"
            for k, q in s["pieces"].items()
        )

    def _check_creatures(self, s: State, events: list[Event]) -> None:
        creature = self._facts(s).creature
        found = [False, False]  # _has_creatures of each seat, in one pass
        for k, q in s["pieces"].items():
            if creature[int(k)]:
                found[q["owner"]] = True
                if found[0] and found[1]:
                    return  # both have one: nothing more to look for
        lost = [seat for seat in (0, 1) if not found[seat]]
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

    def ending(self, state: State, language: str, names: Mapping[int, str]) -> str | None:
        """How the finished game was decided, in words (``engine.core.protocol``)."""
        from engine.berserk.describe import ending

        return ending(state, language, names)

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
        in full; a hidden card only as its owner and cell, save to its owner (206.5-206.7);
        to the holder of priority in the Main or Final Phase, ``instants``: their cards
        offered an instant ability now (404.6), when there are any."""
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
                    "grave": [{"card": i, "id": printed_id(cards[i])} for i in p["grave"]],
                    "gold": p["gold"] if mine or state["phase"] not in ("recruit",) else None,
                    "silver": p["silver"] if mine or state["phase"] not in ("recruit",) else None,
                    "kept": p["kept"],
                    "redeals": p["redeals"],
                    "recruit_done": p["done"],
                }
            )
        pieces = self._view_pieces(state, player)
        chains = _view_chains(state)
        priority = state["priority"]
        out: dict[str, Any] = {
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
            "stack": _view_stack(state),
            "chains": chains,
            "last_roll": _clone(state["last_roll"]),
            "last_fight": _clone(state["last_fight"]),
            "players": players,
            "pieces": pieces,
            "finished": state["finished"],
            "winners": state["winners"][:],
            "draw": state["draw"],
        }
        if (
            player is not None
            and priority is not None
            and priority["holder"] == player
            and (state["phase"] == "main" or state["phase"] == "final")
            and not state["finished"]
        ):
            # 404.6: the holder's own cards offered an instant ability now, hidden ones
            # too (D-21): in the holder's view alone, which shows them those cards anyway
            instants = sorted({a["card"] for a in self._instant_actions(state, player, None)})
            if instants:
                out["instants"] = instants
        return out

    def battle_view(self, state: State, player: int | None) -> dict[str, Any]:
        """The parts of ``view`` that a player reads in battle, the same values: the
        pieces, the chains, the stack, the phase, the active player and the turn."""
        return {
            "pieces": self._view_pieces(state, player),
            "chains": _view_chains(state),
            "stack": _view_stack(state),
            "phase": state["phase"],
            "active": state["active"],
            "turn": state["turn"],
        }

    def _view_pieces(self, state: State, player: int | None) -> list[dict[str, Any]]:
        # every view and every decision of the heuristic bot reads this: the helpers
        # (``_name``, ``is_blank``) inlined and each value read once
        cards, info, names = state["cards"], self.info, _CELL_NAMES
        everything = state["pieces"]
        pieces = []
        for key in sorted(everything, key=int):
            q = everything[key]
            iid = int(key)
            cell = q["cell"]
            name = None if cell is None else names[(cell[0], cell[1])]
            if q["hidden"] and q["owner"] != player:
                pieces.append({"owner": q["owner"], "cell": name, "hidden": True})
                continue
            card_id = cards[iid]
            get = q.get
            piece = {
                "card": iid,
                "id": card_id,
                "owner": q["owner"],
                "cell": name,
                "zone": "battlefield" if cell is not None else "additional",
                "hidden": q["hidden"],
                "closed": q["closed"],
                "marks": q["marks"],
                "wounds": q["wounds"],
                "lives": info[card_id].lives + get("extra", 0) - q["wounds"] - get("negative", 0),
                "tokens": get("tokens", 0),
                "slow": get("slow"),  # 211.9: the turn of its strike on a flyer
                "host": q["host"],
                "x": q["x"],  # the card is open, or the viewer's own
            }
            pieces.append(piece)
            h = q["host"]
            if h is not None:
                hq = everything.get(str(h))
                if hq is not None and hq["hidden"] and hq["owner"] != player:
                    # A revealed card on a hidden host (decision 0053) is open information:
                    # the Battlefield is open (206.5-206.7), equipment is never kept hidden
                    # (306.2(2)) and its host event was public. The host stays unnamed,
                    # like any hidden card: only "on_hidden", on the host's cell.
                    piece["host"] = None
                    piece["on_hidden"] = True
            if card_id.endswith(BLANK):  # 407.4: the printed card, without its abilities
                piece["id"] = printed_id(card_id)
                piece["blank"] = True
        return pieces


def _view_stack(state: State) -> list[dict[str, Any]]:
    """The stack's objects, bottom first: chain and kind, and the card a destruction
    effect destroys (402.3а; a revealed card: the wounds came after the Target object)."""
    return [
        {"chain": o["chain"], "kind": o["kind"]}
        if o["kind"] != "destruction"
        else {"chain": o["chain"], "kind": o["kind"], "card": o["card"]}
        for o in state["stack"]
    ]


def _view_chains(state: State) -> dict[str, dict[str, Any]]:
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
    return chains


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
