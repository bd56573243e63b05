"""The registry of game systems.

The tournament, drafting and play apps ask this registry which games exist, which
formats each offers and whether an event of that game needs decklists. The rules
engines themselves plug in here as they are written; until then a system is
described by its metadata alone.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any


@dataclass(frozen=True)
class Format:
    key: str
    name: str
    name_ru: str = ""  # the name on Russian pages (``label``)
    limited: bool = False  # decks built at the event (draft, sealed) rather than brought
    sealed: bool = False  # limited decks from opened boosters, not a draft (a pod of pools)
    # A team format: each entrant is a team of this many players, paired and ranked as one;
    # an online game of two teams seats every member (``TableMode.teams`` convention).
    team_size: int = 1
    # The format whose deck rules each player's list follows (empty: this format's own),
    # e.g. a team format whose decks are built as in Standard.
    deck_format: str = ""
    # The players a game an event of this format may seat (``Event.players_per_game``:
    # entrants a game, pods when more than two); empty: any the game is played by.
    players_per_game: tuple[int, ...] = ()

    @property
    def is_team(self) -> bool:
        return self.team_size > 1

    @property
    def deck_rules(self) -> str:
        return self.deck_format or self.key

    def seats(self, players_per_game: int) -> bool:
        """Whether an event of this format may seat ``players_per_game`` entrants a game."""
        return not self.players_per_game or players_per_game in self.players_per_game

    def label(self, language: str = "en") -> str:
        return self.name_ru if language.startswith("ru") and self.name_ru else self.name


@dataclass(frozen=True)
class TableMode:
    """A way to seat a casual game (the play app): everyone alone, teams of allies, or a
    variant of the game the engine deals from its config.

    ``teams`` lists the seats of each team (seat 0 is the game's creator); it goes to the
    engine as ``config["teams"]`` (``engine.voskhozhdenie.game`` takes it, rule 1.2.2).
    ``players`` are the table sizes the mode is offered for (empty: every size).
    ``engine_config`` is more engine config the mode's games are dealt with (plain JSON
    values, e.g. ``{"mode": "coop"}``); the apps pass it on unread.
    """

    key: str
    name: str
    players: tuple[int, ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()
    engine_config: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)
    name_ru: str = ""  # the name on Russian pages (``label``)
    # the seat the table's creator takes (0: the first); the other seats go to friends,
    # then bots, in seat order - e.g. a side of the game only one seat can play
    creator_seat: int = 0

    def label(self, language: str = "en") -> str:
        return self.name_ru if language.startswith("ru") and self.name_ru else self.name

    def fits(self, players: int) -> bool:
        return not self.players or players in self.players

    def config(self) -> dict[str, Any]:
        """The engine config of a game seated this way (a fresh copy)."""
        config = copy.deepcopy(dict(self.engine_config))
        if self.teams:
            config["teams"] = [list(team) for team in self.teams]
        return config

    def seated(self, config: Mapping[str, Any]) -> bool:
        """Whether a game dealt with ``config`` was seated this way: it carries every key
        of this mode's own config (a mode with none matches none)."""
        own = self.config()
        return bool(own) and all(config.get(k) == v for k, v in own.items())


FREE_FOR_ALL = TableMode("ffa", "Free-for-all", name_ru="Каждый сам за себя")


@dataclass(frozen=True)
class GameSystemInfo:
    key: str
    name: str
    name_ru: str = ""  # the name on Russian pages (``label``)
    min_players: int = 2
    max_players: int = 2
    needs_decklists: bool = True
    formats: tuple[Format, ...] = field(default_factory=tuple)
    # Dotted paths, imported on first use so that the registry stays cheap to load:
    engine: str = ""  # a module-level GameSystem object, e.g. "engine.voskhozhdenie.game:SYSTEM"
    decks: str = ""  # the decklist service (engine.core.decklists), e.g. "engine.voskhozhdenie.decklists:DECKLISTS"
    simulation: str = ""  # bots and sample decks for the simulator and the bench
    limited: str = ""  # boosters, draft bots and deck sections (engine.core.limited)
    # Limited play (the drafting app): the set each booster comes from by default, and how
    # many boosters a player opens in a draft and in sealed (0: the game has no boosters).
    draft_sets: tuple[str, ...] = ()
    boosters_per_player: int = 0
    sealed_boosters: int = 0
    # Casual play (the play app). ``solo``: the engine deals a one-player game (its config
    # ``{"players": 1}``), e.g. against an automated opponent. ``table_modes``: how a
    # casual table of several players may be seated. Systems with decklists: the format a
    # pasted deck is checked in, and a file of ready-made decks under ``engine/sets/``
    # (``engine.core.starters``) for players without one of their own and for bots.
    solo: bool = False
    table_modes: tuple[TableMode, ...] = (FREE_FOR_ALL,)
    casual_format: str = ""
    starter_decks: str = ""
    # Online play: the engine config every game on the site starts from (the play app
    # merges a game's own config over it), for event rules a game must have online,
    # e.g. an end to a game nobody moves on.
    play_config: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def label(self, language: str = "en") -> str:
        return self.name_ru if language.startswith("ru") and self.name_ru else self.name

    def load(self, what: str):
        """The engine ("engine"), decklist service ("decks"), simulation kit ("simulation")
        or limited kit ("limited")."""
        path = getattr(self, what)
        if not path:
            raise UnknownGameSystem(f"{self.name} has no {what} yet")
        module_name, _, attr = path.partition(":")
        module = importlib.import_module(module_name)
        return getattr(module, attr)

    def load_starter_decks(self):
        """The ready-made decks of ``starter_decks`` (``engine.core.starters.StarterDeck``)."""
        if not self.starter_decks:
            return ()
        return _starter_decks(self.starter_decks)

    def table_mode(self, key: str) -> TableMode:
        for mode in self.table_modes:
            if mode.key == key:
                return mode
        raise UnknownGameSystem(f"{self.name} has no table mode {key!r}")

    def format(self, key: str) -> Format:
        for fmt in self.formats:
            if fmt.key == key:
                return fmt
        raise UnknownGameSystem(f"{self.name} has no format {key!r}")


class UnknownGameSystem(LookupError):
    pass


@cache
def _starter_decks(path: str):
    from engine.core.starters import load_starter_decks

    return load_starter_decks(path)


_REGISTRY: dict[str, GameSystemInfo] = {}


def register(info: GameSystemInfo) -> GameSystemInfo:
    if info.key in _REGISTRY:
        raise ValueError(f"game system {info.key!r} is registered twice")
    _REGISTRY[info.key] = info
    return info


def unregister(key: str) -> None:
    """Take a system out again (a test's own game, registered for one test)."""
    _REGISTRY.pop(key, None)


def get(key: str) -> GameSystemInfo:
    try:
        return _REGISTRY[key]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameSystem(f"unknown game system {key!r} (known: {known})") from None


def all_systems() -> list[GameSystemInfo]:
    return sorted(_REGISTRY.values(), key=lambda info: info.key)


def default_system() -> GameSystemInfo:
    """The system an event or a pod gets when none is named: the first registered."""
    if not _REGISTRY:
        raise UnknownGameSystem("no game system is registered")
    return next(iter(_REGISTRY.values()))


def default_drafting_system() -> GameSystemInfo:
    """The system a pod gets when none is named: the first registered with boosters."""
    for info in _REGISTRY.values():
        if info.limited and info.draft_sets and info.boosters_per_player:
            return info
    raise UnknownGameSystem("no game system with boosters is registered")


def drafting_systems() -> list[GameSystemInfo]:
    """The systems a pod can draft: a limited kit and booster sets, in registration order."""
    return [i for i in _REGISTRY.values() if i.limited and i.draft_sets and i.boosters_per_player]


def all_formats(language: str = "en") -> list[tuple[str, str]]:
    """Every format key of every system, once, with its name(s): for a form's choices."""
    names: dict[str, list[str]] = {}
    for info in all_systems():
        for fmt in info.formats:
            if fmt.label(language) not in names.setdefault(fmt.key, []):
                names[fmt.key].append(fmt.label(language))
    return [(key, " / ".join(label)) for key, label in names.items()]


register(
    GameSystemInfo(
        key="voskhozhdenie",
        name="Voskhozhdenie (Восхождение)",
        name_ru="Восхождение",
        min_players=2,
        max_players=4,
        formats=(
            Format("standard", "Standard", "Стандарт"),
            Format("eternal", "Eternal", "Вечный"),
            Format("chosen", "Chosen", "Избранный"),
            Format("blitz", "Blitz", "Блиц"),
            Format("draft", "Draft", "Драфт", limited=True),
            # Built under the Draft rules (4.5.5).
            Format("sealed", "Sealed", "Силед", limited=True, sealed=True),
            # Teams of two (1.2.2): each player brings a deck built as in Standard or Blitz;
            # a match of two teams is a game of four, allies seated side by side.
            Format(
                "team_standard",
                "Team Standard (2 vs 2)",
                "Командный стандарт (2 на 2)",
                team_size=2,
                deck_format="standard",
            ),
            Format(
                "team_blitz",
                "Team Blitz (2 vs 2)",
                "Командный блиц (2 на 2)",
                team_size=2,
                deck_format="blitz",
            ),
        ),
        engine="engine.voskhozhdenie.game:SYSTEM",
        decks="engine.voskhozhdenie.decklists:DECKLISTS",
        simulation="engine.voskhozhdenie.simkit:KIT",
        limited="engine.voskhozhdenie.limited:KIT",
        draft_sets=("VS1",),
        boosters_per_player=4,  # 3.2.5: four boosters a player
        sealed_boosters=6,
        table_modes=(
            FREE_FOR_ALL,
            # Allies (1.2.2, 1.2.3): seats 0 and 1 against 2 and 3; turns alternate
            # between the teams (5.3.1, AMB-14) whatever the seating.
            TableMode(
                "2v2",
                "Two against two (allies)",
                players=(4,),
                teams=((0, 1), (2, 3)),
                name_ru="Двое на двое (союзники)",
            ),
        ),
        casual_format="standard",
        starter_decks="voskhozhdenie/_starters.txt",
        # Event rules (1.3.3) that end a game nobody can win as a draw (1.3.10): ten
        # Rounds in a row in which everyone only passed (with both Main Decks drawn out,
        # 6.2.2 and AMB-16, players who keep passing would play on for ever), and the end
        # of Round 60 (boards that hold each other off; most games end by Round 10).
        play_config={"idle_rounds": 10, "round_limit": 60},
    )
)

register(
    GameSystemInfo(
        key="ascension",
        name="Ascension (deck-building game)",
        name_ru="Ascension (колодостроительная игра)",
        min_players=2,
        max_players=4,
        needs_decklists=False,  # everyone plays the shared starter decks and center deck
        formats=(Format("standard", "Standard", "Стандарт"),),
        engine="engine.ascension.game:SYSTEM",
        simulation="engine.ascension.simkit:KIT",
        solo=True,  # one player against Samael (A-47..A-51)
    )
)

register(
    GameSystemInfo(
        key="berserk",
        name="Berserk (Берсерк)",
        name_ru="Берсерк",
        min_players=2,
        max_players=2,  # 100.1: two players
        formats=(
            Format("constructed", "Constructed", "Констрактед"),  # 100.2а: 30-50 cards
            Format("draft", "Draft", "Драфт", limited=True),  # 100.2а: 20-50 from the pool
            Format("sealed", "Sealed", "Силед", limited=True, sealed=True),
        ),
        engine="engine.berserk.game:SYSTEM",
        decks="engine.berserk.decks:DECKLISTS",
        simulation="engine.berserk.simkit:KIT",
        limited="engine.berserk.limited:KIT",
        draft_sets=("BK1",),
        boosters_per_player=3,  # 15-card boosters: 45 cards drafted
        sealed_boosters=6,
        casual_format="constructed",
        starter_decks="berserk/_starters.txt",
    )
)


def _villain_modes() -> tuple[TableMode, ...]:
    """The tables against the villains of Ascension Tactics: each mode at Normal, Hard
    and Nightmare (T-101), its engine config ``{"mode": ..., "difficulty": ...}``."""
    modes = []
    for key, short, name, name_ru, players in (
        ("solo", "solo", "Solo against the villains", "В одиночку против злодеев", 1),
        ("coop", "coop", "Co-op against the villains", "Вдвоём против злодеев", 2),
        (
            "archvillain",
            "arch",
            "Archvillain (hero against the villain player)",
            "Архизлодей (герой против игрока-злодея)",
            2,
        ),
    ):
        for level, label, label_ru in (
            ("normal", "", ""),
            ("hard", "Hard", "сложно"),
            ("nightmare", "Nightmare", "кошмар"),
        ):
            modes.append(
                TableMode(
                    key if level == "normal" else f"{short}_{level}",
                    f"{name}, {label}" if label else name,
                    players=(players,),
                    engine_config={"mode": key, "difficulty": level},
                    name_ru=f"{name_ru}, {label_ru}" if label_ru else name_ru,
                )
            )
    # Archvillain with the table's creator in the villain player's seat (seat 1, T-99)
    for level, label, label_ru in (
        ("normal", "", ""),
        ("hard", ", Hard", ", сложно"),
        ("nightmare", ", Nightmare", ", кошмар"),
    ):
        modes.append(
            TableMode(
                "arch_villain" if level == "normal" else f"arch_villain_{level}",
                f"Archvillain (you play the villains){label}",
                players=(2,),
                engine_config={"mode": "archvillain", "difficulty": level},
                name_ru=f"Архизлодей (вы играете за злодеев){label_ru}",
                creator_seat=1,
            )
        )
    return tuple(modes)


register(
    GameSystemInfo(
        key="tactics",
        name="Ascension Tactics",
        name_ru="Ascension: Тактика",
        min_players=2,
        max_players=4,  # T-75: the duel, free-for-all for 3-4 (T-80), 2 vs 2 (T-78)
        needs_decklists=False,  # starting decks and reserves come from the scenario
        formats=(
            # T-75: two players, each for themselves; Swiss or elimination like any duel.
            Format("duel", "Duel", "Дуэль", players_per_game=(2,)),
            # T-80: every player for themselves in a pod of 3-4, one winner, the others
            # placed by their glory; an event seats its players in pods and ranks them by
            # placement points (tournaments.pods), as any game of more than two.
            Format(
                "ffa",
                "Free-for-all (pods of 3-4)",
                "Все против всех (по 3–4)",
                players_per_game=(3, 4),
            ),
            # T-78/T-79: teams of two, paired and ranked as one entrant; a match of two
            # teams is one game of four, seated by the table mode "2v2" (each teammate at
            # their own seat), and both teammates win together.
            Format(
                "2v2",
                "Two against two (teams)",
                "Двое на двое (команды)",
                team_size=2,
                players_per_game=(2,),
            ),
        ),
        engine="engine.tactics.game:SYSTEM",
        simulation="engine.tactics.simkit:KIT",
        solo=True,  # T-81..T-95: one player against the villains
        table_modes=(
            FREE_FOR_ALL,  # 2 players: the duel; 3-4: every player for themselves (T-80)
            # T-78/T-79: seats 0 and 2 against 1 and 3, each team on one shore.
            TableMode(
                "2v2",
                "Two against two",
                players=(4,),
                teams=((0, 2), (1, 3)),
                name_ru="Двое на двое",
            ),
            # Against the villains (T-81..T-101), each at the three difficulties of T-101:
            # solo (one seat), co-op (two heroes, T-96..T-98) and archvillain (the hero at
            # seat 0, the villain player at seat 1, T-99/T-100).
            *_villain_modes(),
        ),
    )
)
