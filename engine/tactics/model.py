"""The data model of Ascension Tactics (key ``tactics``): cards, champions and scenarios.

Everything the rules engine reads of a card or a scenario (``docs/card-format.md``,
"Tactics"; rule ids T-n and decisions D-n of ``/work/shared/rules/tactics.md``):

- a **champion** (T-18) is a card plus a figure: acquire cost (runes; a monster's is power,
  T-21/T-30; a reserve champion of the draft pool has none), command cost (power, T-34),
  STR, DEF, SPD (3 by default, T-39), the keywords of §9 as data (``KEYWORDS``) and its
  abilities (``Ability``: Slaughter, when attacked, when commanded, ...);
- a **hero** (T-19) is played for its effects; a **construct** (T-20) equips a champion with
  the boosts of ``Equip`` and may give it keywords and abilities;
- the **cultist** card (T-50), the **gates** (T-14/T-15), the **villains** (T-81..T-94: the
  glory a player gains for defeating one, T-90; a boss has glory >= 4 and a Surge, T-82/T-93)
  and the **schemes** (T-85: a top effect, a threat level and a bottom effect);
- a **scenario** (D-2): a hex map in axial coordinates ``(q, r)`` (D-1; the files write a
  cell as the text key ``"q,r"``), its terrain (§10), shrines and their glory (T-64),
  treasure cells (T-12/T-67), and per mode the portals of each seat, the teams, the villain
  entry cells, the target-token cells (T-83/T-89), the villains, the scheme deck and the
  victory condition.

Effects are small declarative dicts (``{"op": "runes", "amount": 2}``), validated by
``engine.tactics.cards`` against ``OPS``. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.tactics import hexes

Cell = hexes.Hex  # axial (q, r), D-1

# ---------------------------------------------------------------- vocabularies

FACTIONS: dict[str, tuple[str, str]] = {  # T-22: key -> (English, Russian)
    "enlightened": ("Enlightened", "Просветлённые"),
    "lifebound": ("Lifebound", "Жизнепоклонники"),
    "mechana": ("Mechana", "Механа"),
    "void": ("Void", "Бездна"),
}
# Russian genitive/dative for "Devotion to ...": «Преданность Механе».
FACTION_DATIVE_RU = {
    "enlightened": "Просветлённым",
    "lifebound": "Жизнепоклонникам",
    "mechana": "Механе",
    "void": "Бездне",
}

# The static keywords of §9 (T-53..T-56): key -> (English, Russian, rule). Devotion,
# Ambush and Slaughter are triggers of abilities (``TRIGGERS``), not static keywords.
KEYWORDS: dict[str, tuple[str, str, str]] = {
    "double_attack": ("Double attack", "Двойная атака", "T-53"),
    "ranged": ("Ranged attack", "Дальняя атака", "T-54"),
    "counter_strike": ("Counter-strike", "Ответный удар", "T-55"),
    "area_attack": ("Area attack", "Атака по области", "T-56"),
}
RANGED_RANGE = 3  # T-54: "up to 3 cells", hex distance (D-1)

# Card types (§4) and the piles they come from (T-7).
TYPES = (
    "champion",  # T-18: reserve (draft pool) or central deck, acquired with runes
    "monster",  # T-21: a champion of the central deck acquired with power
    "hero",  # T-19
    "construct",  # T-20
    "cultist",  # T-50: the shared card, never acquired
    "gate",  # T-14/T-15
    "villain",  # T-81..T-94
    "scheme",  # T-85
)
CHAMPION_TYPES = ("champion", "monster", "cultist", "villain")
PILES = {
    "reserve": "the 24 blue-back champions, the draft pool (T-7, T-16, T-76)",
    "center": "the central deck, black frame (T-7, T-17)",
    "starter": "each player's starting deck (T-9)",
    "always": "the always-available piles (T-11, T-32)",
    "cultist": "the shared Cultist card (T-11, T-50)",
    "gate": "the gates (T-14)",
    "villain": "the villain champions (T-81)",
    "scheme": "the scheme deck (T-84)",
}
TYPE_PILES: dict[str, tuple[str, ...]] = {
    "champion": ("reserve", "center"),
    "monster": ("center",),
    "hero": ("center", "starter", "always"),
    "construct": ("center",),
    "cultist": ("cultist",),
    "gate": ("gate",),
    "villain": ("villain",),
    "scheme": ("scheme",),
}

STATS = ("strength", "defence", "speed")  # STR, DEF, SPD (T-18, T-39)
STAT_NAMES = {  # key -> (English, Russian dative "к силе")
    "strength": ("STR", "силе"),
    "defence": ("DEF", "защите"),
    "speed": ("SPD", "скорости"),
}
DEFAULT_SPEED = 3  # T-39

# Ability triggers (D-20): key -> (English prefix, Russian prefix, the types that may have it)
TRIGGERS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "play": ("", "", ("hero", "construct")),  # T-28: when played
    "ambush": ("Ambush: ", "Засада: ", ("hero", "construct", "champion", "monster")),  # T-33
    "devotion": ("", "", ("hero", "construct")),  # T-52; the prefix names the faction
    "slaughter": ("Slaughter: ", "Бойня: ", ("champion", "monster", "construct", "villain")),
    "attacked": (
        "When this champion is attacked: ",
        "Когда этого чемпиона атакуют: ",
        ("champion", "monster", "villain"),
    ),
    "command": (
        "When you command this champion: ",
        "Когда вы отдаёте приказ этому чемпиону: ",
        ("champion", "monster"),
    ),
    "turn_start": (
        "At the start of your turn: ",
        "В начале вашего хода: ",
        ("champion", "monster", "construct"),
    ),
    "surge": ("Surge: ", "Всплеск: ", ("villain",)),  # T-93: bosses only
    "threat": ("", "", ("villain",)),  # T-92: works while discarded schemes >= threat
}
SLAUGHTER_RULE = "T-57"

# Who an effect acts on: key -> (English, Russian accusative, Russian dative).
TARGETS: dict[str, tuple[str, str, str]] = {
    "self": ("this champion", "этого чемпиона", "этому чемпиону"),
    "equipped": ("the equipped champion", "снаряжённого чемпиона", "снаряжённому чемпиону"),
    "own": ("a champion of yours", "своего чемпиона", "своему чемпиону"),
    "own_board": (
        "a champion of yours on the battlefield",
        "своего чемпиона на поле боя",
        "своему чемпиону на поле боя",
    ),
    "own_reserve": (
        "a champion of yours off the battlefield",
        "своего чемпиона вне поля боя",
        "своему чемпиону вне поля боя",
    ),
    "all_own_board": (
        "each champion of yours on the battlefield",
        "каждого своего чемпиона на поле боя",
        "каждому своему чемпиону на поле боя",
    ),
    "cultist": ("a cultist of yours", "своего культиста", "своему культисту"),
    "enemy": (
        "an enemy champion on the battlefield",
        "вражеского чемпиона на поле боя",
        "вражескому чемпиону на поле боя",
    ),
    "adjacent_enemy": (
        "an enemy next to this champion",
        "врага рядом с этим чемпионом",
        "врагу рядом с этим чемпионом",
    ),
    "all_adjacent_enemies": (
        "each enemy next to this champion",
        "каждого врага рядом с этим чемпионом",
        "каждому врагу рядом с этим чемпионом",
    ),
    "attacker": ("the attacker", "атакующего", "атакующему"),
    "all_villains": (
        "each villain champion",
        "каждого чемпиона злодеев",
        "каждому чемпиону злодеев",
    ),
}
# Target tokens (T-67c, T-83): the boss's kind and three others.
TOKENS: dict[str, tuple[str, str]] = {
    "boss": ("the crown", "корона"),
    "a": ("the sword", "меч"),
    "b": ("the shield", "щит"),
    "c": ("the eye", "око"),
}
TOKEN_GENITIVE_RU = {"boss": "короны", "a": "меча", "b": "щита", "c": "ока"}

# Terrain (§10) a scenario places on cells; "plain" is every other cell.
TERRAIN: dict[str, tuple[str, str, str]] = {  # key -> (English, Russian, rule)
    "forest": ("Forest", "Лес", "T-61"),
    "corrupted": ("Corrupted land", "Порченая земля", "T-62"),
    "enchanted": ("Enchanted land", "Зачарованная земля", "T-63"),
    "shrine": ("Shrine", "Святилище", "T-64"),
    "beacon": ("Beacon", "Маяк", "T-65"),
    "disabled_portal": ("Disabled portal", "Отключённый портал", "T-60"),
}
PLACEABLE_TERRAIN = ("forest", "corrupted")  # what a card may put on a plain cell (T-58)

# Modes of play (T-75..T-101): key -> (English, Russian, seats).
MODES: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "duel": ("2 players", "2 игрока", (2,)),
    "ffa": ("Free-for-all", "Все против всех", (3, 4)),  # T-80
    "teams": ("2 vs 2", "2 на 2", (4,)),  # T-78/T-79
    "solo": ("Solo", "Одиночная игра", (1,)),  # T-81..T-95
    "coop": ("Co-op", "Кооперативная игра", (2,)),  # T-96..T-98
    "archvillain": ("Archvillain", "Архизлодей", (2,)),  # T-99..T-101: 1 hero + villain player
}
VILLAIN_MODES = ("solo", "coop", "archvillain")


# ---------------------------------------------------------------- cards


@dataclass(frozen=True)
class Ability:
    """One ability: ``when`` a key of ``TRIGGERS``, its ``effects`` (dicts of ``OPS``);
    ``faction`` for Devotion (T-52), ``threat`` for a villain's threat-gated ability (T-92)."""

    when: str
    effects: tuple[Mapping[str, Any], ...]
    faction: str | None = None
    threat: int | None = None


@dataclass(frozen=True)
class Equip:
    """What a construct adds to the champion it equips (T-20)."""

    strength: int = 0
    defence: int = 0
    speed: int = 0
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Card:
    """A card of Ascension Tactics. Fields that do not apply to a type are ``None``/empty."""

    id: str  # "TC1-017"
    set_code: str
    number: int
    name_ru: str
    name_en: str
    type: str  # TYPES
    pile: str  # PILES
    faction: str | None = None  # FACTIONS; None is neutral
    cost: int | None = None  # runes (hero, construct, champion) or power (monster); None: none
    copies: int = 1  # copies in its pile (center: in the central deck; starter: per deck)
    # champions, monsters, cultists, villains
    command: int | None = None  # power to command (T-34)
    strength: int | None = None
    defence: int | None = None
    speed: int | None = None
    keywords: tuple[str, ...] = ()
    figures: int = 1  # T-106: figures on the battlefield for this one card
    # constructs
    equip: Equip | None = None
    # villains
    glory: int | None = None  # the glory a player gains for defeating it (T-90); boss if >= 4
    # schemes (T-85)
    top: tuple[Mapping[str, Any], ...] = ()
    threat: int | None = None
    bottom: tuple[Mapping[str, Any], ...] = ()
    # gates (T-14/T-15)
    seat: int | None = None
    every_turn: tuple[Mapping[str, Any], ...] = ()
    first_turn: tuple[Mapping[str, Any], ...] = ()
    abilities: tuple[Ability, ...] = ()
    text_ru: str = ""
    text_en: str = ""
    flavour: tuple[str, str] | None = field(default=None, compare=False)

    def name(self, language: str = "en") -> str:
        return self.name_ru if language.startswith("ru") else self.name_en

    def text(self, language: str = "en") -> str:
        return self.text_ru if language.startswith("ru") else self.text_en

    @property
    def is_champion(self) -> bool:
        """A figure on the battlefield (T-18, T-21, T-50, T-81)."""
        return self.type in CHAMPION_TYPES

    @property
    def is_boss(self) -> bool:
        return self.type == "villain" and (self.glory or 0) >= 4  # T-82

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def abilities_when(self, when: str) -> list[Ability]:
        return [a for a in self.abilities if a.when == when]


# ---------------------------------------------------------------- scenarios


@dataclass(frozen=True)
class Enchanted:
    """The scenario's rules for an enchanted-land cell (T-63, D-2)."""

    impassable: bool = False
    blocks_los: bool = False
    extra_cost: int = 0  # added to the cost of entering it (as terrain.EnchantedLand)
    aura: Mapping[str, Any] | None = None  # a boost for a champion standing on it


@dataclass(frozen=True)
class ModeSetup:
    """How a scenario is played in one mode: per seat its portals (T-35, T-59), the teams
    (T-78), and for the villain modes their entry cells, the target-token cells (T-83),
    the villains (boss first), the scheme deck (T-84) and the difficulty discard (T-101)."""

    mode: str
    seats: tuple[int, ...]  # the player counts allowed
    portals: Mapping[int, tuple[Cell, ...]]  # seat -> its portal cells
    victory: Mapping[str, int]  # {"glory": 30} (T-25); villains may also win by glory
    teams: tuple[tuple[int, ...], ...] = ()
    reserves: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # recommended
    villain_entry: tuple[Cell, ...] = ()
    targets: Mapping[str, Cell] = field(default_factory=dict)  # token -> cell
    villains: tuple[str, ...] = ()  # card ids: the boss first
    schemes: tuple[str, ...] = ()  # card ids of the scheme deck (one per copy)
    # D-2 beacon rules: the glory a side gains at the end of its turn while it controls
    # every beacon of the map (T-65: the scenario defines what beacons do); 0: none
    beacon_glory: int = 0


@dataclass(frozen=True)
class Scenario:
    key: str
    number: int
    name_ru: str
    name_en: str
    rules_ru: str
    rules_en: str
    cells: frozenset[Cell]
    terrain: Mapping[Cell, str]  # TERRAIN; absent = plain
    enchanted: Mapping[Cell, Enchanted]
    shrine_glory: int  # T-64, D-4
    treasure: tuple[Cell, ...]  # T-12
    modes: Mapping[str, ModeSetup]
    source: str = ""

    def name(self, language: str = "en") -> str:
        return self.name_ru if language.startswith("ru") else self.name_en

    def passable(self, cell: Cell) -> bool:
        """On the map and not an impassable enchanted land (T-63)."""
        if cell not in self.cells:
            return False
        if self.terrain.get(cell) == "enchanted":
            return not self.enchanted[cell].impassable
        return True

    def shrines(self) -> list[Cell]:
        return sorted(c for c, t in self.terrain.items() if t == "shrine")


def cell_key(cell: Cell) -> str:
    """The file's form of a cell: ``"q,r"`` (D-1; the same as ``hexes.hex_text``)."""
    return hexes.hex_text(cell)


def parse_cell(text: str) -> Cell:
    """``"q,r"`` -> ``(q, r)``; ValueError if it is not two integers written canonically
    (no spaces, no brackets: the files are generated, so one spelling per cell; the lenient
    reader is ``hexes.parse_hex``)."""
    if not isinstance(text, str):
        raise ValueError("a cell is the text 'q,r'")
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"a cell is 'q,r', not {text!r}")
    try:
        q, r = (int(p) for p in parts)
    except ValueError:
        raise ValueError(f"a cell is two integers 'q,r', not {text!r}") from None
    if cell_key((q, r)) != text:
        raise ValueError(f"write the cell as {cell_key((q, r))!r}, not {text!r}")
    return (q, r)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six adjacent cells (D-1; ``engine.tactics.hexes.neighbours``)."""
    return hexes.neighbours(cell)


def distance(a: Cell, b: Cell) -> int:
    """Hex distance (D-1; ``engine.tactics.hexes.distance``)."""
    return hexes.distance(a, b)


def hexagon(radius: int) -> frozenset[Cell]:
    """Every cell with |q|, |r|, |q+r| <= radius (3r^2+3r+1 cells; ``hexes.hexagon``)."""
    return hexes.hexagon(radius)
