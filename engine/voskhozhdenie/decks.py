"""Decklists of «Восхождение»: reading what players paste, and the deck rules 4.4–4.5.5.

Pure Python (no Django). The module-level ``CHECKER`` is what the registry loads
(``engine.voskhozhdenie.decks:CHECKER``). Its shape is game-neutral so that other
game systems can provide their own checker with the same methods:

* ``parse(text, db) -> ParsedDeck``: every problem of the text at once, with line
  numbers (unknown cards come with a "did you mean" suggestion);
* ``check(deck, fmt, db, *, as_of, chosen_sets, banned, pool) -> list[Violation]``:
  every broken deck-construction rule of the format at once, each with its rule number;
* ``validate(text, fmt, db, ...) -> DeckReport``: both, for the tournament site;
* ``can_change_deck(fmt, old, new, pool=None, db=None) -> list[Violation]``: may a
  player swap cards between games of a match (3.1.1, 4.5.x.12, 4.5.5.10, AMB-09);
* ``rules_summary(fmt) -> list[tuple[str, str]]``: the format's rules for display.

Decisions of Part 2 of the rules digest that are encoded here:

* AMB-05: Draft Cities come from the player's pool; two copies of one City are allowed.
* AMB-08: Draft has no copy limit (copies are limited by the pool only).
* AMB-10: for each colour C, Main + Reinforcement cards of colour C ≤ 10 × Cities of
  colour C; a multicolour card counts toward each of its colours; Neutral cards are
  exempt; Cities themselves are not counted.
* AMB-11: copies are counted by the full Russian name (2.2.1) across the Full Deck;
  "Minor" is the card's ``minor`` flag.
* AMB-12: Standard = the 4 most recent releases as of the event date; Chosen = the
  season's list of releases in ``engine/sets/voskhozhdenie/_formats.json``; ban lists
  are data in the same file (3.3).
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from engine.core.decklists import DeckReport, Violation
from engine.core.text import text_lines
from engine.voskhozhdenie.cards import COLOURS, Card, CardDB, normalise_name

FORMATS_FILE = Path(__file__).resolve().parent.parent / "sets" / "voskhozhdenie" / "_formats.json"

SECTIONS = ("cities", "main", "reinforcements")
SECTION_TITLES = {"cities": "Cities", "main": "Main Deck", "reinforcements": "Reinforcement Deck"}

# Section headers a player may write (case-insensitive, optional trailing colon and count).
_HEADERS = {
    "cities": ("cities", "city set", "города", "набор городов"),
    "main": ("main deck", "main", "maindeck", "основная колода", "основная"),
    "reinforcements": (
        "reinforcements",
        "reinforcement deck",
        "reinforcements deck",
        "подкрепления",
        "колода подкреплений",
        "колода подкрепления",
    ),
}
_HEADER_LOOKUP = {
    normalise_name(name): section for section, names in _HEADERS.items() for name in names
}
_HEADER_RE = re.compile(r"^(?P<title>[^\d:()]+?)\s*(?:\(\s*\d+\s*\))?\s*:?\s*$")
_COUNT_RE = re.compile(
    r"^(?P<count>[+-]?\d+)(?:\s*[xх×*]\s+|[xх×*]|\s+)(?P<name>.*)$", re.IGNORECASE
)
_TRAILING_COUNT_RE = re.compile(r"^(?P<name>.*?\S)\s+[xх×*]\s*(?P<count>\d+)$", re.IGNORECASE)
_QUOTES = str.maketrans({"«": "", "»": "", "“": "", "”": "", "„": "", '"': "", "’": "'", "`": "'"})

MAX_COPIES_PER_LINE = 99  # more than this on one line is a typo, whatever the format

# Messages for players, in English and Russian (``language="ru"``).
_MESSAGES: Mapping[str, tuple[str, str]] = {
    "bad_line": (
        "Cannot read “{line}”: write a count and a card name, like “3 Card name”.",
        "Не удалось прочитать «{line}»: напишите количество и название карты, "
        "например «3 Название карты».",
    ),
    "count_low": (
        "The count of “{name}” must be at least 1.",
        "Количество карт «{name}» должно быть не меньше 1.",
    ),
    "count_high": (
        "{count} copies of “{name}” cannot be right (at most {max} per line).",
        "«{name}»: {count} — слишком много (не больше {max} в строке).",
    ),
    "unknown": ("Unknown card “{name}”.", "Неизвестная карта «{name}»."),
    "did_you_mean": (" Did you mean {names}?", " Возможно, вы имели в виду {names}?"),
    "or": (" or ", " или "),
    "before_section": (
        "“{name}” comes before any section header: put it under “Cities”, “Main deck” "
        "or “Reinforcements”.",
        "«{name}» стоит до заголовка раздела: поместите карту под «Города», "
        "«Основная колода» или «Подкрепления».",
    ),
    "empty": ("The decklist has no cards.", "В списке колоды нет карт."),
    "cities_count": (
        "The City set must have exactly {n} Cities; this one has {have}.",
        "Набор городов должен состоять ровно из {n} карт Города; в нём {have}.",
    ),
    "not_cities": (
        "Only City cards go in the City set: {cards}.",
        "В наборе городов могут быть только карты Города: {cards}.",
    ),
    "cities_different": (
        "The {n} Cities must all be different: {cards} is there more than once.",
        "Города в наборе должны быть разными: {cards} встречается больше одного раза.",
    ),
    "copies": (
        "At most {limit} copies of a card in the whole deck: {card} has {n}.",
        "Во всей колоде может быть не больше {limit} копий одной карты: {card} — {n}.",
    ),
    "minor": (
        "Minor cards cannot be in a deck: {cards}.",
        "Карты с приставкой «Малый» нельзя включать в колоду: {cards}.",
    ),
    "main": (
        "The Main Deck must have at least {n} cards; it has {have}.",
        "В основной колоде должно быть не меньше {n} карт; сейчас {have}.",
    ),
    "reinforcement_size": (
        "The Reinforcement Deck may have at most {n} cards; it has {have}.",
        "В колоде подкреплений может быть не больше {n} карт; сейчас {have}.",
    ),
    "reinforcement_only": (
        "The Reinforcement Deck may hold only cards with the keyword “Reinforcement” "
        "and Patrons: {cards}.",
        "В колоде подкреплений могут быть только карты с ключевым словом «Подкрепление» "
        "и Покровители: {cards}.",
    ),
    "patron": (
        "A deck may have at most one Patron; this one has {n}: {cards}.",
        "В колоде может быть не больше одного Покровителя; сейчас их {n}: {cards}.",
    ),
    "main_placement": (
        "Cities and Patrons cannot be in the Main Deck: {cards}.",
        "Города и Покровители не могут быть в основной колоде: {cards}.",
    ),
    "reinforcement_placement": (
        "Cities cannot be in the Reinforcement Deck: {cards}.",
        "Города не могут быть в колоде подкреплений: {cards}.",
    ),
    "colour_none": (
        "{Colour} cards need a {Colour} City: the deck has {n_cards} and no {colour} City "
        "({cards}).",
        "Для карт цвета «{colour}» нужен Город этого цвета, а его нет; карт этого цвета "
        "в колоде: {n} ({cards}).",
    ),
    "colour_over": (
        "At most 10 {colour} cards per {Colour} City: {n_cities} allow {limit}, "
        "the Main and Reinforcement Decks have {n}.",
        "Не больше 10 карт цвета «{colour}» на каждый Город этого цвета: Городов этого "
        "цвета — {cities}, значит можно {limit}, а в основной колоде и колоде подкреплений — {n}.",
    ),
    "releases_latest": (
        "Only cards from the last 4 releases{as_of} may be used: {cards}.",
        "Можно использовать только карты последних 4 выпусков{as_of}: {cards}.",
    ),
    "as_of": (" as of {date}", " на {date}"),
    "releases_chosen": (
        "Only cards from the releases of this Chosen season{season} may be used: {cards}.",
        "Можно использовать только карты выпусков текущего сезона «Избранного»{season}: {cards}.",
    ),
    "pool": (
        "A Draft deck may use only cards from your pool: {parts}.",
        "В колоде драфта могут быть только карты из вашего пула: {parts}.",
    ),
    "pool_part": (
        "{card} ({need} in the deck, {have} in the pool)",
        "{card} (в колоде {need}, в пуле {have})",
    ),
    "banned": ("Banned in {format}: {cards}.", "Запрещено в формате «{format}»: {cards}."),
    "change": (
        "In {format} the deck cannot be changed once the match has started.",
        "В формате «{format}» колоду нельзя менять после начала матча.",
    ),
    "pool_needed": (
        "The Draft pool is needed to change the deck.",
        "Чтобы сменить колоду, нужен пул драфта.",
    ),
}
COLOUR_NAMES_RU = {"white": "белый", "blue": "синий", "black": "чёрный", "red": "красный"}
FORMAT_NAMES_RU = {
    "standard": "Стандарт",
    "eternal": "Вечный",
    "chosen": "Избранный",
    "blitz": "Блиц",
    "draft": "Драфт",
    "sealed": "Силед",
}


def _t(language: str, key: str, **params: Any) -> str:
    en, ru = _MESSAGES[key]
    return (ru if language == "ru" else en).format(**params)


def _quote(text: str, language: str) -> str:
    return f"«{text}»" if language == "ru" else f"“{text}”"


# ---------------------------------------------------------------- data


@dataclass(frozen=True)
class DeckEntry:
    card: Card
    count: int
    section: str
    line: int = 0  # 0: not from a text


@dataclass(frozen=True)
class ParsedDeck:
    """A decklist split into sections; ``problems`` are the lines that could not be read."""

    entries: tuple[DeckEntry, ...] = ()
    problems: tuple[Violation, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def section(self, name: str) -> tuple[DeckEntry, ...]:
        return tuple(e for e in self.entries if e.section == name)

    def cards(self, section: str | None = None) -> list[Card]:
        """The cards of one section (or of the Full Deck), one item per copy."""
        out: list[Card] = []
        for entry in self.entries:
            if section is None or entry.section == section:
                out.extend([entry.card] * entry.count)
        return out

    def full_deck(self) -> list[Card]:
        """Rule 4.4: the City set plus the Main Deck and the Reinforcement Deck."""
        return self.cards()

    def size(self, section: str | None = None) -> int:
        return sum(e.count for e in self.entries if section is None or e.section == section)

    def counts(self, section: str | None = None) -> Counter[str]:
        """Copies by card (normalised full Russian name, rule 2.2.1)."""
        out: Counter[str] = Counter()
        for entry in self.entries:
            if section is None or entry.section == section:
                out[card_key(entry.card)] += entry.count
        return out

    @classmethod
    def of(
        cls,
        cities: Iterable[Card] = (),
        main: Iterable[Card] = (),
        reinforcements: Iterable[Card] = (),
    ) -> ParsedDeck:
        """A deck from card objects (one item per copy), for code and tests."""
        entries: list[DeckEntry] = []
        for section, cards in (
            ("cities", cities),
            ("main", main),
            ("reinforcements", reinforcements),
        ):
            counted: dict[str, list] = {}
            for card in cards:
                slot = counted.setdefault(card.id, [card, 0])
                slot[1] += 1
            entries.extend(DeckEntry(card, n, section) for card, n in counted.values())
        return cls(entries=tuple(entries))


@dataclass(frozen=True)
class FormatSpec:
    key: str
    name: str
    base: str  # the rule section, "4.5.1"
    cities: int
    cities_different: bool
    copy_limit: int | None  # None: no limit (Draft, AMB-08)
    main_min: int
    reinforcement_max: int
    releases: str | None  # "latest" (Standard), "chosen", or None: any release
    limited: bool = False
    # item numbers under ``base`` (Draft has no copy-limit item, so its numbers shift)
    items: Mapping[str, int] = field(default_factory=dict)

    def rule(self, what: str) -> str:
        return f"{self.base}.{self.items[what]}"


_CONSTRUCTED_ITEMS = {
    "cities": 1,
    "copies": 2,
    "minor": 3,
    "main": 4,
    "reinforcement_size": 5,
    "reinforcement_only": 6,
    "patron": 7,
    "placement": 8,
    "colour": 9,
    "neutral": 10,
}
_DRAFT_ITEMS = {
    "cities": 1,
    "minor": 2,
    "main": 3,
    "reinforcement_size": 4,
    "reinforcement_only": 5,
    "patron": 6,
    "placement": 7,
    "colour": 8,
    "neutral": 9,
    "change": 10,
    "pool": 10,
}

_DRAFT = FormatSpec(
    "draft",
    "Draft",
    "4.5.5",
    2,
    False,
    None,
    20,
    5,
    None,
    limited=True,
    items=_DRAFT_ITEMS,
)
FORMATS: Mapping[str, FormatSpec] = {
    "standard": FormatSpec(
        "standard",
        "Standard",
        "4.5.1",
        4,
        True,
        3,
        40,
        10,
        "latest",
        items={**_CONSTRUCTED_ITEMS, "releases": 11, "change": 12},
    ),
    "eternal": FormatSpec(
        "eternal",
        "Eternal",
        "4.5.2",
        4,
        True,
        3,
        40,
        10,
        None,
        items={**_CONSTRUCTED_ITEMS, "change": 11},
    ),
    "chosen": FormatSpec(
        "chosen",
        "Chosen",
        "4.5.3",
        4,
        True,
        3,
        40,
        10,
        "chosen",
        items={**_CONSTRUCTED_ITEMS, "releases": 11, "change": 12},
    ),
    "blitz": FormatSpec(
        "blitz",
        "Blitz",
        "4.5.4",
        2,
        True,
        3,
        20,
        5,
        None,
        items={**_CONSTRUCTED_ITEMS, "change": 11},
    ),
    "draft": _DRAFT,
    # Sealed pools are built under the Draft deck rules (4.5.5), against the pool.
    "sealed": replace(_DRAFT, key="sealed", name="Sealed"),
}
STANDARD_RELEASES = 4  # rule 3.2.1 / 4.5.1.11


@dataclass(frozen=True)
class FormatRules:
    """The data of ``_formats.json``: ban lists per format (3.3) and the Chosen season."""

    banned: Mapping[str, frozenset[str]] = field(default_factory=dict)
    chosen_season: str = ""
    chosen_sets: tuple[str, ...] = ()

    @classmethod
    def load(cls, path: Path | str | None = None) -> FormatRules:
        path = Path(path) if path is not None else FORMATS_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        banned = {
            str(fmt): frozenset(str(name) for name in names or ())
            for fmt, names in (data.get("banned") or {}).items()
        }
        chosen = data.get("chosen") or {}
        return cls(
            banned=banned,
            chosen_season=str(chosen.get("season", "")),
            chosen_sets=tuple(str(code) for code in chosen.get("sets", ())),
        )


def card_key(card: Card) -> str:
    """A card's identity: its full Russian name (rule 2.2.1), normalised."""
    return normalise_name(card.name_ru)


def _has_cyrillic(text: str) -> bool:
    return any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in text)


# ---------------------------------------------------------------- the checker


class DeckChecker:
    system = "voskhozhdenie"
    formats = FORMATS
    sections = SECTIONS

    def __init__(self, rules_file: Path | str | None = None):
        self._rules_file = rules_file
        self._rules: FormatRules | None = None

    # ------------------------------------------------------------ data file

    def format_rules(self) -> FormatRules:
        if self._rules is None:
            self._rules = FormatRules.load(self._rules_file)
        return self._rules

    def reload(self) -> None:
        self._rules = None

    def spec(self, fmt: str) -> FormatSpec:
        try:
            return FORMATS[fmt]
        except KeyError:
            raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})") from None

    # ------------------------------------------------------------ parsing

    def parse(self, text: str, db: CardDB, *, language: str = "en") -> ParsedDeck:
        """Read a pasted list; ``problems`` holds every line that could not be read."""
        lang = language
        entries: dict[tuple[str, str], DeckEntry] = {}
        order: list[tuple[str, str]] = []
        problems: list[Violation] = []
        section: str | None = None
        names: list[tuple[str, str]] | None = None  # (normalised, display), built on demand

        for number, raw in enumerate(text_lines(text), start=1):
            line = raw.strip()
            if not line or line.startswith("#") or line.startswith("//"):
                continue
            line = re.sub(r"\s+#.*$", "", line).strip()
            header = _HEADER_RE.match(line)
            if header:
                found = _HEADER_LOOKUP.get(normalise_name(header.group("title")))
                if found:
                    section = found
                    continue
            count, name = self._split_count(line)
            if name is None:
                problems.append(Violation("", _t(lang, "bad_line", line=line), line=number))
                continue
            if count is None or count < 1:
                problems.append(Violation("", _t(lang, "count_low", name=name), line=number))
                continue
            if count > MAX_COPIES_PER_LINE:
                problems.append(
                    Violation(
                        "",
                        _t(lang, "count_high", count=count, name=name, max=MAX_COPIES_PER_LINE),
                        line=number,
                    )
                )
                continue
            card = self._lookup(name, db)
            if card is None:
                if names is None:
                    names = self._names(db)
                problems.append(Violation("", self._unknown(name, names, lang), line=number))
                continue
            if section is None:
                problems.append(
                    Violation(
                        "", _t(lang, "before_section", name=name), line=number, cards=(card.id,)
                    )
                )
                continue
            key = (section, card.id)
            if key in entries:
                old = entries[key]
                entries[key] = DeckEntry(card, old.count + count, section, old.line)
            else:
                entries[key] = DeckEntry(card, count, section, number)
                order.append(key)
        if not entries and not problems:
            problems.append(Violation("", _t(lang, "empty"), line=None))
        return ParsedDeck(entries=tuple(entries[k] for k in order), problems=tuple(problems))

    @staticmethod
    def _split_count(line: str) -> tuple[int | None, str | None]:
        match = _COUNT_RE.match(line)
        if match:
            name = match.group("name").strip()
            return int(match.group("count")), (name or None)
        match = _TRAILING_COUNT_RE.match(line)
        if match:
            return int(match.group("count")), match.group("name").strip()
        if line.isdigit():
            return None, None
        return 1, line

    @staticmethod
    def _lookup(name: str, db: CardDB) -> Card | None:
        card = db.find(name)
        if card is None:
            card = db.find(name.translate(_QUOTES))
        return card

    @staticmethod
    def _names(db: CardDB) -> list[tuple[str, str]]:
        seen: dict[str, str] = {}
        for card in db.all_cards():
            for display in (card.name_ru, card.name_en):
                if display:
                    seen.setdefault(normalise_name(display), display)
        return list(seen.items())

    @staticmethod
    def _unknown(name: str, names: list[tuple[str, str]], language: str = "en") -> str:
        key = normalise_name(name.translate(_QUOTES))
        cyrillic = _has_cyrillic(name)
        candidates = {n: d for n, d in names if _has_cyrillic(d) == cyrillic} or dict(names)
        close = difflib.get_close_matches(key, list(candidates), n=3, cutoff=0.6)
        message = _t(language, "unknown", name=name)
        if close:
            found = _t(language, "or").join(_quote(candidates[c], language) for c in close)
            message += _t(language, "did_you_mean", names=found)
        return message

    # ------------------------------------------------------------ checking

    def check(
        self,
        deck: ParsedDeck,
        fmt: str,
        db: CardDB,
        *,
        as_of: date | None = None,
        chosen_sets: Sequence[str] | None = None,
        banned: Collection[str] | None = None,
        pool: Mapping[Any, int] | None = None,
        language: str = "en",
    ) -> list[Violation]:
        """Every rule of 4.5.x that the deck breaks, in rule order.

        ``chosen_sets`` and ``banned`` default to the data file (``_formats.json``);
        ``banned`` holds Russian or English card names or card ids. ``pool`` (Draft)
        counts the cards a player drafted, keyed by card, card id or card name; without
        it the pool rule is not checked.
        """
        spec = self.spec(fmt)
        rules = self.format_rules()
        if banned is None:
            banned = rules.banned.get(fmt, frozenset())
        if chosen_sets is None:
            chosen_sets = rules.chosen_sets

        lang = language
        format_name = FORMAT_NAMES_RU.get(fmt, spec.name) if lang == "ru" else spec.name

        def named(card: Card) -> str:
            return _quote(card.name(lang) or card.name_ru, lang)

        def listing(cards: Iterable[Card]) -> str:
            return ", ".join(named(c) for c in _unique(cards))

        out: list[Violation] = []
        cities = deck.cards("cities")
        main = deck.cards("main")
        reinf = deck.cards("reinforcements")
        full = cities + main + reinf

        # x.1: the City set
        rule = spec.rule("cities")
        if len(cities) != spec.cities:
            out.append(Violation(rule, _t(lang, "cities_count", n=spec.cities, have=len(cities))))
        not_cities = [c for c in cities if c.type != "city"]
        if not_cities:
            out.append(
                Violation(
                    rule,
                    _t(lang, "not_cities", cards=listing(not_cities)),
                    cards=_ids(not_cities),
                )
            )
        if spec.cities_different:
            repeated = _repeated([c for c in cities if c.type == "city"])
            if repeated:
                out.append(
                    Violation(
                        rule,
                        _t(lang, "cities_different", n=spec.cities, cards=listing(repeated)),
                        cards=_ids(repeated),
                    )
                )

        # x.2: at most 3 copies of a card (by Russian name) across the Full Deck
        if spec.copy_limit is not None:
            by_key: dict[str, list[Card]] = {}
            for card in full:
                by_key.setdefault(card_key(card), []).append(card)
            over = [cards for cards in by_key.values() if len(cards) > spec.copy_limit]
            for cards in over:
                out.append(
                    Violation(
                        spec.rule("copies"),
                        _t(
                            lang,
                            "copies",
                            limit=spec.copy_limit,
                            card=named(cards[0]),
                            n=len(cards),
                        ),
                        cards=_ids(cards),
                    )
                )

        # x.3: no Minor cards
        minors = [c for c in full if c.minor]
        if minors:
            out.append(
                Violation(
                    spec.rule("minor"),
                    _t(lang, "minor", cards=listing(minors)),
                    cards=_ids(minors),
                )
            )

        # x.4: Main Deck minimum
        if len(main) < spec.main_min:
            out.append(
                Violation(
                    spec.rule("main"),
                    _t(lang, "main", n=spec.main_min, have=len(main)),
                )
            )

        # x.5: Reinforcement Deck maximum
        if len(reinf) > spec.reinforcement_max:
            out.append(
                Violation(
                    spec.rule("reinforcement_size"),
                    _t(lang, "reinforcement_size", n=spec.reinforcement_max, have=len(reinf)),
                )
            )

        # x.6: Reinforcement Deck: keyword "Reinforcement" or Patron
        wrong = [
            c
            for c in reinf
            if c.type != "city" and c.type != "patron" and "reinforcement" not in c.keywords
        ]
        if wrong:
            out.append(
                Violation(
                    spec.rule("reinforcement_only"),
                    _t(lang, "reinforcement_only", cards=listing(wrong)),
                    cards=_ids(wrong),
                )
            )

        # x.7: at most one Patron
        patrons = [c for c in full if c.type == "patron"]
        if len(patrons) > 1:
            out.append(
                Violation(
                    spec.rule("patron"),
                    _t(lang, "patron", n=len(patrons), cards=listing(patrons)),
                    cards=_ids(patrons),
                )
            )

        # x.8: no City or Patron in the Main Deck, no City in the Reinforcement Deck
        misplaced_main = [c for c in main if c.type in ("city", "patron")]
        if misplaced_main:
            out.append(
                Violation(
                    spec.rule("placement"),
                    _t(lang, "main_placement", cards=listing(misplaced_main)),
                    cards=_ids(misplaced_main),
                )
            )
        misplaced_reinf = [c for c in reinf if c.type == "city"]
        if misplaced_reinf:
            out.append(
                Violation(
                    spec.rule("placement"),
                    _t(lang, "reinforcement_placement", cards=listing(misplaced_reinf)),
                    cards=_ids(misplaced_reinf),
                )
            )

        # x.9 (AMB-10): per colour, at most 10 cards per City of that colour; Neutral exempt
        city_colours = Counter(col for c in cities if c.type == "city" for col in c.colours)
        coloured = [c for c in main + reinf if c.type != "city"]
        for colour in COLOURS:
            of_colour = [c for c in coloured if colour in c.colours]
            limit = 10 * city_colours[colour]
            if len(of_colour) > limit:
                params = {
                    "colour": COLOUR_NAMES_RU[colour] if lang == "ru" else colour,
                    "Colour": colour.capitalize(),
                    "n": len(of_colour),
                    "n_cards": _plural(len(of_colour), colour + " card"),
                    "cities": city_colours[colour],
                    "n_cities": _plural(city_colours[colour], colour + " City", colour + " Cities"),
                    "limit": limit,
                    "cards": listing(of_colour),
                }
                text = _t(lang, "colour_none" if limit == 0 else "colour_over", **params)
                out.append(Violation(spec.rule("colour"), text, cards=_ids(of_colour)))

        # x.11: releases (Standard: last 4 as of the date; Chosen: the season's list)
        if spec.releases is not None:
            if spec.releases == "latest":
                allowed = {s.code for s in db.latest_sets(STANDARD_RELEASES, as_of)}
                when = _t(lang, "as_of", date=as_of.isoformat()) if as_of else ""
                key, params = "releases_latest", {"as_of": when}
            else:
                known = {s.code for s in db.sets}
                allowed = {code for code in chosen_sets if code in known}  # unknown codes: ignored
                season = (
                    f" ({rules.chosen_season})"
                    if rules.chosen_season and chosen_sets is rules.chosen_sets
                    else ""
                )
                key, params = "releases_chosen", {"season": season}
            outside = [
                c
                for c in _unique(full)
                if not any(p.set_code in allowed for p in (db.printings(c) or (c,)))
            ]
            if outside:
                out.append(
                    Violation(
                        spec.rule("releases"),
                        _t(lang, key, cards=listing(outside), **params),
                        cards=_ids(outside),
                    )
                )

        # Draft: every card from the player's pool (3.1.2, 4.5.5.10)
        if spec.limited and pool is not None:
            have = _pool_counts(pool, db)
            need = deck.counts()
            missing = [k for k, n in need.items() if n > have.get(k, 0)]
            if missing:
                parts = []
                cards_missing = []
                for entry in deck.entries:
                    if card_key(entry.card) in missing:
                        cards_missing.append(entry.card)
                for card in _unique(cards_missing):
                    key = card_key(card)
                    parts.append(
                        _t(
                            lang,
                            "pool_part",
                            card=named(card),
                            need=need[key],
                            have=have.get(key, 0),
                        )
                    )
                out.append(
                    Violation(
                        spec.rule("pool"),
                        _t(lang, "pool", parts=", ".join(parts)),
                        cards=_ids(cards_missing),
                    )
                )

        # 3.3: ban lists
        if banned:
            keys = {normalise_name(b) for b in banned}
            hit = [
                c
                for c in _unique(full)
                if card_key(c) in keys
                or normalise_name(c.name_en) in keys
                or normalise_name(c.id) in keys
            ]
            if hit:
                out.append(
                    Violation(
                        "3.3",
                        _t(lang, "banned", format=format_name, cards=listing(hit)),
                        cards=_ids(hit),
                    )
                )
        return out

    def validate(
        self,
        text: str,
        fmt: str,
        db: CardDB,
        *,
        as_of: date | None = None,
        chosen_sets: Sequence[str] | None = None,
        banned: Collection[str] | None = None,
        pool: Mapping[Any, int] | None = None,
        language: str = "en",
    ) -> DeckReport:
        deck = self.parse(text, db, language=language)
        violations = self.check(
            deck,
            fmt,
            db,
            as_of=as_of,
            chosen_sets=chosen_sets,
            banned=banned,
            pool=pool,
            language=language,
        )
        return DeckReport(deck, tuple(violations))

    def can_change_deck(
        self,
        fmt: str,
        old: ParsedDeck,
        new: ParsedDeck,
        pool: Mapping[Any, int] | None = None,
        db: CardDB | None = None,
        *,
        language: str = "en",
    ) -> list[Violation]:
        """May a player use ``new`` instead of ``old`` between games of a match? [] = yes.

        Constructed formats: never (3.1.1, 4.5.x.12/11). Draft (4.5.5.10, AMB-09): yes, if
        the new deck uses only cards of the pool and satisfies 4.5.5.
        """
        spec = self.spec(fmt)
        if not spec.limited:
            if _shape(old) == _shape(new):
                return []
            return [
                Violation(
                    spec.rule("change"),
                    _t(
                        language,
                        "change",
                        format=FORMAT_NAMES_RU[fmt] if language == "ru" else spec.name,
                    ),
                )
            ]
        if pool is None:
            return [Violation(spec.rule("pool"), _t(language, "pool_needed"))]
        if db is None:
            db = CardDB.build(self.system, ())
        return self.check(new, fmt, db, pool=pool, language=language)

    def rules_summary(self, fmt: str, language: str = "en") -> list[tuple[str, str]]:
        """(rule number, text) of the format's deck rules, for display."""
        spec = self.spec(fmt)
        rules = self.format_rules()
        r = spec.rule
        ru = language == "ru"
        sets = ", ".join(rules.chosen_sets) or ("будут объявлены" if ru else "to be announced")
        if ru:
            different = "разных " if spec.cities_different else ""
            texts = {
                "4.4": "Общая колода — это набор городов, основная колода и колода подкреплений.",
                "cities": f"Набор городов — ровно {spec.cities} {different}карты Города.",
                "copies": f"Не больше {spec.copy_limit} копий любой карты (по русскому названию).",
                "minor": "Никаких карт с приставкой «Малый».",
                "main": f"В основной колоде не меньше {spec.main_min} карт (без максимума).",
                "reinforcement_size": (
                    f"В колоде подкреплений не больше {spec.reinforcement_max} карт."
                ),
                "reinforcement_only": "В колоде подкреплений — только карты с ключевым словом "
                "«Подкрепление» и Покровители.",
                "patron": "Не больше одного Покровителя.",
                "placement": "В основной колоде нет Городов и Покровителей; в колоде подкреплений "
                "нет Городов.",
                "colour": "Для каждого цвета: не больше 10 карт этого цвета в основной колоде и "
                "колоде подкреплений на каждый Город этого цвета.",
                "neutral": "Нейтральных карт — сколько угодно.",
                "latest": "Только карты последних 4 выпусков.",
                "chosen": f"Только карты выпусков сезона: {sets}.",
                "limited": "Только карты из вашего пула драфта; между партиями матча колоду "
                "можно менять картами того же пула.",
                "constructed": "Колоду нельзя менять во время матча.",
                "banned": "Запрещены: ",
            }
        else:
            different = "different " if spec.cities_different else ""
            texts = {
                "4.4": "The Full Deck is the City set plus the Main Deck and the Reinforcement "
                "Deck.",
                "cities": f"The City set has exactly {spec.cities} {different}City cards.",
                "copies": f"At most {spec.copy_limit} copies of any card (by its Russian name).",
                "minor": "No cards with the “Minor” prefix.",
                "main": f"The Main Deck has at least {spec.main_min} cards (no maximum).",
                "reinforcement_size": (
                    f"The Reinforcement Deck has at most {spec.reinforcement_max} cards."
                ),
                "reinforcement_only": "The Reinforcement Deck holds only cards with the keyword "
                "“Reinforcement” and Patrons.",
                "patron": "At most one Patron card.",
                "placement": "No Cities or Patrons in the Main Deck; no Cities in the "
                "Reinforcement Deck.",
                "colour": "For each colour: at most 10 cards of that colour in the Main and "
                "Reinforcement Decks per City of that colour.",
                "neutral": "Any number of Neutral cards.",
                "latest": "Only cards from the last 4 releases.",
                "chosen": f"Only cards from the season's releases: {sets}.",
                "limited": "Only cards from your draft pool; the deck may be changed between "
                "games of a match, with cards of the same pool.",
                "constructed": "The deck cannot be changed during a match.",
                "banned": "Banned: ",
            }
        out = [("4.4", texts["4.4"]), (r("cities"), texts["cities"])]
        if spec.copy_limit is not None:
            out.append((r("copies"), texts["copies"]))
        for item in (
            "minor",
            "main",
            "reinforcement_size",
            "reinforcement_only",
            "patron",
            "placement",
            "colour",
            "neutral",
        ):
            out.append((r(item), texts[item]))
        if spec.releases is not None:
            out.append((r("releases"), texts[spec.releases]))
        out.append((r("change"), texts["limited" if spec.limited else "constructed"]))
        if rules.banned.get(fmt):
            out.append(("3.3", texts["banned"] + ", ".join(sorted(rules.banned[fmt])) + "."))
        return out


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _unique(cards: Iterable[Card]) -> list[Card]:
    seen: set[str] = set()
    out = []
    for card in cards:
        key = card_key(card)
        if key not in seen:
            seen.add(key)
            out.append(card)
    return out


def _repeated(cards: Iterable[Card]) -> list[Card]:
    counts = Counter(card_key(c) for c in cards)
    return [c for c in _unique(cards) if counts[card_key(c)] > 1]


def _ids(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c.id for c in cards))


def _shape(deck: ParsedDeck) -> dict[str, Counter[str]]:
    return {section: deck.counts(section) for section in SECTIONS}


def _pool_counts(pool: Mapping[Any, int], db: CardDB) -> Counter[str]:
    out: Counter[str] = Counter()
    for item, count in pool.items():
        if isinstance(item, Card):
            out[card_key(item)] += count
            continue
        text = str(item)
        card = None
        try:
            card = db.card(text)
        except KeyError:
            card = db.find(text)
        out[card_key(card) if card is not None else normalise_name(text)] += count
    return out


CHECKER = DeckChecker()


def can_change_deck(
    fmt: str,
    old: ParsedDeck,
    new: ParsedDeck,
    pool: Mapping[Any, int] | None = None,
    db: CardDB | None = None,
    *,
    language: str = "en",
) -> list[Violation]:
    """Module-level shortcut for ``CHECKER.can_change_deck``."""
    return CHECKER.can_change_deck(fmt, old, new, pool, db, language=language)


# ---------------------------------------------------------------- decklists for the engine

# The engine's deck dict names the Reinforcement Deck in the singular (game.new_game).
_ENGINE_PARTS = {"cities": "cities", "main": "main", "reinforcements": "reinforcement"}


def to_engine_deck(text: str, db: CardDB) -> dict[str, list[str]]:
    """A stored decklist as ``new_game`` takes it: ``{"cities", "main", "reinforcement"}``.

    Each list holds card ids, one item per copy, in the order of the list. Lines that
    cannot be read are left out (the checker reports them when the list is saved).
    """
    deck = CHECKER.parse(text, db)
    out: dict[str, list[str]] = {"cities": [], "main": [], "reinforcement": []}
    for entry in deck.entries:
        out[_ENGINE_PARTS[entry.section]].extend([entry.card.id] * entry.count)
    return out


def deck_text(deck: Mapping[str, Iterable[str]], db: CardDB, *, language: str = "ru") -> str:
    """The decklist text of an engine deck dict (the reverse of ``to_engine_deck``).

    Cards are written by their full printed name (Russian by default, rule 2.2.1) with a
    count, under the section headers the parser reads.
    """
    lines: list[str] = []
    for section, part in _ENGINE_PARTS.items():
        ids = list(deck.get(part) or ())
        if not ids:
            continue
        counts: dict[str, int] = {}
        for card_id in ids:
            counts[card_id] = counts.get(card_id, 0) + 1
        if lines:
            lines.append("")
        lines.append(SECTION_TITLES[section])
        for card_id, count in counts.items():
            card = db.card(card_id)
            name = (card.name_en if language == "en" else card.name_ru) or card.name_ru or card_id
            lines.append(f"{count} {name}")
    return "\n".join(lines) + "\n"


# The game-neutral hook of the play app: ``registry.get(system).load("decks").to_engine_deck``.
DeckChecker.to_engine_deck = staticmethod(to_engine_deck)  # type: ignore[attr-defined]
