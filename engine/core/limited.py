"""What a game with boosters gives the drafting app: its limited kit.

The registry names it (``GameSystemInfo.limited``, loaded with ``info.load("limited")``).
The drafting app drafts, seals and builds decks for any system whose entry has a kit and
booster sets (``draft_sets``, ``boosters_per_player``, ``sealed_boosters``); it calls only
what is listed here, so it never reads a game's cards itself. Card ids are strings, a
pack and a pool are lists of ids, and a built deck maps a section key to ids (one item
per copy). Everything is pure and deterministic: randomness comes from the seed or the
``engine.core.rng`` state given.

A kit has:

* ``sections``: the parts of a deck (``DeckSection``), in the order a list shows them;
* ``min_pool``: the fewest cards a pool may have for a legal deck (a pod whose boosters
  give fewer is refused);
* ``supply``: cards an organiser may hand to every player besides their pool
  (``SupplyRule``), or None;
* ``rules_text(language)``: the limited deck rules in one paragraph, for the deck builder;
* ``face(card_id, language)``: what a page shows of a card (``CardFace``);
* ``known(card_id)``: is it a card of this game;
* ``pool_size(set_codes)``: cards one player gets from these boosters (``LimitedError``
  if a set is unknown or has no boosters);
* ``draft_packs(set_codes, seats, seed)``: ``packs[seat][booster_round]``;
* ``sealed_pool(set_codes, seed)``: one player's opened boosters, as one pool;
* ``bot_pick(pack, pool, rng)``: the id a bot takes from ``pack``;
* ``bot_deck(pool)``: the deck a bot builds from ``pool`` (legal whenever the pool allows);
* ``supply_choices(set_codes)``: the cards an organiser may supply for these sets;
* ``deck_needs(pool)``: what a legal deck needs that a pool must give (``DeckNeed``: e.g.
  Cities 1/2, Main Deck 14/20), shown while the player drafts and when no deck can be
  built; ``pool`` includes any cards the organiser supplies.

Checking a built deck and writing it as a list belong to the system's decklist service
(``engine.core.decklists``: ``check_sections``, ``write``), the same one that checks
lists pasted for constructed events, in the format the event names (draft or sealed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable

from engine.core import rng as rng_mod


class LimitedError(ValueError):
    """Boosters that cannot be made: an unknown set, a set without boosters, an empty slot."""


def deal_packs(
    set_codes: Sequence[str],
    seats: int,
    seed: int,
    booster_set: Callable[[str], Any],
    open_booster: Callable[[Any, list[int]], list[str]],
    error: type[LimitedError] = LimitedError,
) -> list[list[list[str]]]:
    """``packs[seat][booster_round]``: the boosters of a draft, reproducible from ``seed``.

    Booster round ``r`` uses set ``set_codes[r]`` for every seat (``booster_set(code)``, the
    game's set, refusing one without boosters). One generator, seeded with ``seed``, opens
    the boosters (``open_booster(set, rng)``) seat by seat, round by round. Bad arguments
    raise ``error`` (the game's own ``LimitedError``).
    """
    if isinstance(set_codes, str):
        raise error("set_codes is a list of set codes, not one string")
    if not set_codes:
        raise error("a draft needs at least one booster round")
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
        raise error(f"a draft needs at least one seat, not {seats!r}")
    sets = [booster_set(code) for code in set_codes]
    state = rng_mod.seed_state(seed)
    return [[open_booster(card_set, state) for card_set in sets] for _seat in range(seats)]


def _pick(language: str, en: str, ru: str) -> str:
    return ru if language.startswith("ru") and ru else en


@dataclass(frozen=True)
class DeckSection:
    """One part of a deck, e.g. «Восхождение»'s Main Deck. ``target`` is what the deck
    builder shows next to the count ("2", "20+", "≤5")."""

    key: str
    name: str
    name_ru: str = ""
    target: str = ""

    def label(self, language: str = "en") -> str:
        return _pick(language, self.name, self.name_ru)


@dataclass(frozen=True)
class SupplyRule:
    """Cards an organiser may give every player besides their pool, ``copies`` of each, at
    most ``most`` different ones (e.g. «Восхождение»'s Cities, AMB-05). ``name``: what
    they are called, in the plural; ``help``: one sentence for the organiser."""

    name: str
    name_ru: str
    help: str
    help_ru: str
    copies: int = 1
    most: int = 12

    def label(self, language: str = "en") -> str:
        return _pick(language, self.name, self.name_ru)

    def explain(self, language: str = "en") -> str:
        return _pick(language, self.help, self.help_ru)


@dataclass(frozen=True)
class DeckNeed:
    """One thing every legal deck needs from the pool, and how much of it the pool has:
    ``have`` of ``need`` (e.g. Cities 1/2 under rule ``4.5.5.1``). ``have`` counts only
    what a deck could really use (a Main Deck card of a colour no City allows does not
    count); ``met`` once it reaches ``need``."""

    key: str
    name: str
    name_ru: str
    have: int
    need: int
    rule: str = ""

    @property
    def met(self) -> bool:
        return self.have >= self.need

    @property
    def missing(self) -> int:
        return max(0, self.need - self.have)

    def label(self, language: str = "en") -> str:
        return _pick(language, self.name, self.name_ru)


@dataclass(frozen=True)
class CardStat:
    symbol: str  # shown before the value, e.g. "⚔"
    title: str  # its name, for the tooltip, in the page's language
    value: int | str


@dataclass(frozen=True)
class CardFace:
    """What a draft or deck page shows of a card, in one language. The ``*_key`` fields
    sort a pool (by type, then colour, then cost, then name); ``section`` is where the
    deck builder suggests the card goes first."""

    id: str
    name: str
    type: str
    type_name: str
    cost: str = ""
    cost_value: int = 0
    colours: tuple[str, ...] = ()  # keys, used as CSS classes ("white", "red"...)
    colour_names: tuple[str, ...] = ()
    stats: tuple[CardStat, ...] = ()
    tags: tuple[str, ...] = ()  # short notes, e.g. "Reinforcement"
    text: str = ""
    rarity: str = ""
    type_key: int = 9
    colour_key: str = "9"
    section: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


@runtime_checkable
class LimitedKit(Protocol):
    sections: tuple[DeckSection, ...]
    min_pool: int
    supply: SupplyRule | None

    def rules_text(self, language: str = "en") -> str: ...

    def face(self, card_id: str, language: str = "en") -> CardFace: ...

    def known(self, card_id: str) -> bool: ...

    def pool_size(self, set_codes: Sequence[str]) -> int: ...

    def draft_packs(
        self, set_codes: Sequence[str], seats: int, seed: int
    ) -> list[list[list[str]]]: ...

    def sealed_pool(self, set_codes: Sequence[str], seed: int) -> list[str]: ...

    def bot_pick(self, pack: Sequence[str], pool: Sequence[str], rng: list[int]) -> str: ...

    def bot_deck(self, pool: Sequence[str]) -> dict[str, list[str]]: ...

    def supply_choices(self, set_codes: Sequence[str]) -> list[str]: ...

    def deck_needs(self, pool: Sequence[str]) -> list[DeckNeed]: ...
