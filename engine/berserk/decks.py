"""Decklists of Berserk (ККИ «Берсерк»): reading what players paste, and the deck rules
100.2–100.4.

Pure Python (no Django). The module-level ``DECKLISTS`` is what the registry loads
(``engine.berserk.decks:DECKLISTS``, the protocol of ``engine.core.decklists``); the
functions under it work with any card lookup, so tests and tools need no card data:

* ``parse_deck(text, cards, *, language) -> ParsedDeck``: every unreadable line at once,
  with its number (an unknown name comes with a "did you mean" suggestion);
* ``check_deck(deck, fmt, *, config, pool, banned, language) -> list[Violation]``: every
  broken deck rule of the format at once, each with its rule number;
* ``validate_deck(text, fmt, cards, ...) -> DeckReport``: both;
* ``write_deck(card_ids, cards, *, language) -> text``: a deck as a list the reader reads
  back.

``cards`` is a ``CardLookup`` or anything it wraps: an object with ``find(name)`` (and
``card(id)``, like the game's ``CardDB``), a mapping name -> ``Card``, or a callable
name -> ``Card | None``.

The rules (100.2а, 100.2б, 100.3, С: Орда): a constructed deck has at least 30 cards, a
draft or sealed deck at least 20, any deck at most 50 (the numbers are ``Config``
fields, D-2); in constructed at most 3 copies of a name, 5 of a name with Horde. Cards
with the same name are copies [Г: Копия]; a name is counted by its Russian form (the
authoritative text), a card without one by its English name. A draft or sealed deck
uses only its player's pool (counted by name too, so another printing of a pooled card
is the same card). Tournament ban lists (100.4) are a ``banned`` argument.

A list is one card a line: ``3 Name``, ``3x Name``, ``Name x3`` or just ``Name`` (one
copy), the name in Russian or English; blank lines, comments (``#``, ``//``) and heading
lines (``Deck``, ``Колода:``, ``Main (30)``…, or any first line ending in a colon) are
skipped.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from engine.berserk.config import DEFAULT, Config
from engine.berserk.model import Card
from engine.core.decklists import DeckReport, Violation
from engine.core.text import text_lines

FORMATS = ("constructed", "draft", "sealed")
LIMITED = ("draft", "sealed")
SECTION = "deck"  # the one section of a deck built in the browser
MAX_COPIES_PER_LINE = 99  # more on one line is a typo, whatever the format

FORMAT_NAMES = {
    "constructed": ("Constructed", "Констрактед"),
    "draft": ("Draft", "Драфт"),
    "sealed": ("Sealed", "Силед"),
}

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
    "empty": ("The decklist has no cards.", "В списке колоды нет карт."),
    "min": (
        "A {format} deck must have at least {n} cards; this one has {have}.",
        "В колоде для формата «{format}» должно быть не меньше {n} карт; сейчас {have}.",
    ),
    "max": (
        "A deck may have at most {n} cards; this one has {have}.",
        "В колоде может быть не больше {n} карт; сейчас {have}.",
    ),
    "copies": (
        "At most {limit} copies of a card with the same name: {card} has {n}.",
        "Не больше {limit} копий карты с одинаковым названием: {card} — {n}.",
    ),
    "copies_horde": (
        "At most {limit} copies of a card with Horde: {card} has {n}.",
        "Не больше {limit} копий карты с Ордой: {card} — {n}.",
    ),
    "pool": (
        "A {format} deck may use only cards from your pool: {parts}.",
        "В колоде для формата «{format}» могут быть только карты из вашего пула: {parts}.",
    ),
    "pool_part": (
        "{card} ({need} in the deck, {have} in the pool)",
        "{card} (в колоде {need}, в пуле {have})",
    ),
    "banned": ("Banned in this tournament: {cards}.", "Запрещены на этом турнире: {cards}."),
}

_HEADINGS = {
    "deck",
    "decklist",
    "deck list",
    "main",
    "main deck",
    "maindeck",
    "cards",
    "колода",
    "основная колода",
    "список колоды",
    "карты",
    "деклист",
}
_HEADING_RE = re.compile(r"^(?P<title>[^\d:()]+?)\s*(?:\(\s*\d+\s*\))?\s*:?\s*$")
_COUNT_RE = re.compile(
    r"^(?P<count>[+-]?\d+)(?:\s*[xх×*]\s+|[xх×*]|\s+)(?P<name>.*)$", re.IGNORECASE
)
_TRAILING_COUNT_RE = re.compile(r"^(?P<name>.*?\S)\s+[xх×*]\s*(?P<count>\d+)$", re.IGNORECASE)
_QUOTES = str.maketrans({"«": "", "»": "", "“": "", "”": "", "„": "", '"': "", "’": "'", "`": "'"})


def _t(language: str, key: str, **params: Any) -> str:
    en, ru = _MESSAGES[key]
    return (ru if _ru(language) else en).format(**params)


def _ru(language: str) -> bool:
    return language.startswith("ru")


def _quote(text: str, language: str) -> str:
    return f"«{text}»" if _ru(language) else f"“{text}”"


def normalise_name(name: str) -> str:
    """A card name as looked up: quotes dropped, case and ё folded, spaces collapsed."""
    text = name.translate(_QUOTES).replace("ё", "е").replace("Ё", "Е")
    return " ".join(text.casefold().split())


def card_key(card: Card) -> str:
    """A card's identity for copies [Г: Копия]: its Russian name (else English), normalised."""
    return normalise_name(card.name_ru or card.name_en or card.id)


def _has_cyrillic(text: str) -> bool:
    return any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in text)


def _display(card: Card, language: str) -> str:
    return card.name(language) or card.name_ru or card.name_en or card.id


# ---------------------------------------------------------------- card lookup


class CardLookup:
    """Names and ids to ``Card``s over whatever card data there is.

    ``source``: an object with ``find(name) -> Card | None`` (and ``card(id) -> Card``,
    raising ``KeyError``; ``all_cards()`` for suggestions), a mapping name -> ``Card`` or a
    callable name -> ``Card | None``. ``names``: the card names to suggest from, when the
    source cannot list them.
    """

    def __init__(self, source: Any, names: Iterable[str] | None = None):
        self.source = source
        self._by_name: dict[str, Card] = {}
        self._by_id: dict[str, Card] = {}
        self._find: Callable[[str], Card | None] | None = None
        self._card: Callable[[str], Card] | None = None
        self._extra_names = list(names or ())
        if isinstance(source, Mapping):
            for key, card in source.items():
                self._add(card, str(key))
        elif hasattr(source, "find"):
            self._find = source.find
            self._card = getattr(source, "card", None)
        elif callable(source):
            self._find = source
        else:
            raise TypeError("a card lookup needs find(name), a mapping or a callable")

    @classmethod
    def of(cls, source: Any) -> CardLookup:
        return source if isinstance(source, CardLookup) else cls(source)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> CardLookup:
        """A lookup over these cards by Russian name, English name and id."""
        return cls({card.id: card for card in cards})

    def _add(self, card: Card, *keys: str) -> None:
        for key in (*keys, card.name_ru, card.name_en, card.id):
            if key:
                self._by_name.setdefault(normalise_name(key), card)
        self._by_id.setdefault(card.id, card)

    def find(self, name: str) -> Card | None:
        """The card of this name (Russian or English) or id, or None."""
        for attempt in dict.fromkeys((name.strip(), name.translate(_QUOTES).strip())):
            card = self._by_name.get(normalise_name(attempt))
            if card is None and self._find is not None:
                card = self._find(attempt)
            if card is not None:
                return card
        return None

    def card(self, card_id: str) -> Card:
        """The card with this id; ``KeyError`` if there is none."""
        if card_id in self._by_id:
            return self._by_id[card_id]
        if self._card is not None:
            return self._card(card_id)
        if self._find is not None:
            card = self._find(card_id)
            if card is not None and card.id == card_id:
                return card
        raise KeyError(card_id)

    def names(self) -> list[str]:
        """Every card name known (Russian and English), for suggestions."""
        out = list(self._extra_names)
        for card in self._by_id.values():
            out += [card.name_ru, card.name_en]
        source = self.source
        cards: Any = None
        if hasattr(source, "all_cards"):
            cards = source.all_cards()
        elif not isinstance(source, Mapping) and hasattr(source, "cards"):
            cards = source.cards() if callable(source.cards) else source.cards
        if isinstance(cards, Mapping):
            cards = cards.values()
        for card in cards or ():
            if isinstance(card, Card):
                out += [card.name_ru, card.name_en]
        return [n for n in dict.fromkeys(out) if n]


# ---------------------------------------------------------------- data


@dataclass(frozen=True)
class DeckEntry:
    card: Card
    count: int
    line: int = 0  # 0: not from a text


@dataclass(frozen=True)
class ParsedDeck:
    """A decklist read; ``problems`` are the lines that could not be read."""

    entries: tuple[DeckEntry, ...] = ()
    problems: tuple[Violation, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def cards(self) -> list[Card]:
        """One item per copy, in the order of the list."""
        return [entry.card for entry in self.entries for _ in range(entry.count)]

    def card_ids(self) -> list[str]:
        return [card.id for card in self.cards()]

    def size(self) -> int:
        return sum(entry.count for entry in self.entries)

    def counts(self) -> Counter[str]:
        """Copies by name (``card_key``)."""
        out: Counter[str] = Counter()
        for entry in self.entries:
            out[card_key(entry.card)] += entry.count
        return out

    @classmethod
    def of(cls, cards: Iterable[Card]) -> ParsedDeck:
        """A deck from card objects (one item per copy), for code and tests."""
        counted: dict[str, list[Any]] = {}
        for card in cards:
            slot = counted.setdefault(card.id, [card, 0])
            slot[1] += 1
        return cls(entries=tuple(DeckEntry(card, n) for card, n in counted.values()))


# ---------------------------------------------------------------- reading


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


def _is_heading(line: str, first: bool) -> bool:
    match = _HEADING_RE.match(line)
    if not match:
        return False
    if normalise_name(match.group("title")) in _HEADINGS:
        return True
    return first and line.endswith(":")


def _unknown(name: str, lookup: CardLookup, language: str) -> str:
    names = {normalise_name(n): n for n in lookup.names()}
    cyrillic = _has_cyrillic(name)
    candidates = {k: d for k, d in names.items() if _has_cyrillic(d) == cyrillic} or names
    close = difflib.get_close_matches(normalise_name(name), list(candidates), n=3, cutoff=0.6)
    message = _t(language, "unknown", name=name)
    if close:
        found = _t(language, "or").join(_quote(candidates[c], language) for c in close)
        message += _t(language, "did_you_mean", names=found)
    return message


def parse_deck(text: str, cards: Any, *, language: str = "en") -> ParsedDeck:
    """Read a pasted list; ``problems`` holds every line that could not be read."""
    lookup = CardLookup.of(cards)
    entries: dict[str, DeckEntry] = {}
    problems: list[Violation] = []
    first = True
    for number, raw in enumerate(text_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        line = re.sub(r"\s+(#|//).*$", "", line).strip()
        was_first, first = first, False
        if _is_heading(line, was_first):
            continue
        count, name = _split_count(line)
        if name is None:
            problems.append(Violation("", _t(language, "bad_line", line=line), line=number))
            continue
        if count is None or count < 1:
            problems.append(Violation("", _t(language, "count_low", name=name), line=number))
            continue
        if count > MAX_COPIES_PER_LINE:
            problems.append(
                Violation(
                    "",
                    _t(language, "count_high", count=count, name=name, max=MAX_COPIES_PER_LINE),
                    line=number,
                )
            )
            continue
        card = lookup.find(name)
        if card is None:
            problems.append(Violation("", _unknown(name, lookup, language), line=number))
            continue
        if card.id in entries:
            old = entries[card.id]
            entries[card.id] = DeckEntry(card, old.count + count, old.line)
        else:
            entries[card.id] = DeckEntry(card, count, number)
    if not entries and not problems:
        problems.append(Violation("", _t(language, "empty")))
    return ParsedDeck(entries=tuple(entries.values()), problems=tuple(problems))


# ---------------------------------------------------------------- checking


def _spec(fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown Berserk format {fmt!r} (known: {', '.join(FORMATS)})")
    return fmt


def deck_minimum(fmt: str, config: Config = DEFAULT) -> int:
    """100.2а: 30 cards for constructed, 20 for draft or sealed."""
    return config.deck_min_limited if _spec(fmt) in LIMITED else config.deck_min_constructed


def copy_limit(cards: Sequence[Card], config: Config = DEFAULT) -> int:
    """100.2б, С: Орда: the copies allowed of a name; Horde on any of them allows 5."""
    if any(card.has("horde") for card in cards):
        return config.horde_copy_limit
    return config.copy_limit


def _pool_counts(pool: Mapping[Any, int], lookup: CardLookup) -> Counter[str]:
    out: Counter[str] = Counter()
    for item, count in pool.items():
        if isinstance(item, Card):
            out[card_key(item)] += count
            continue
        text = str(item)
        try:
            card: Card | None = lookup.card(text)
        except KeyError:
            card = lookup.find(text)
        out[card_key(card) if card is not None else normalise_name(text)] += count
    return out


def _unique(cards: Iterable[Card]) -> list[Card]:
    seen: dict[str, Card] = {}
    for card in cards:
        seen.setdefault(card_key(card), card)
    return list(seen.values())


def _ids(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(card.id for card in cards))


def check_deck(
    deck: ParsedDeck | Iterable[Card],
    fmt: str,
    *,
    config: Config = DEFAULT,
    pool: Mapping[Any, int] | None = None,
    banned: Iterable[str] = (),
    cards: Any = None,
    language: str = "en",
) -> list[Violation]:
    """Every deck rule of the format that the deck breaks, in rule order.

    ``pool`` (draft, sealed): copies by card id, ``Card`` or name; without it the pool is
    not checked. ``banned``: card names (either language) or ids (100.4). ``cards``: the
    lookup that turns the pool's ids into cards (a pool keyed by ``Card`` needs none).
    """
    _spec(fmt)
    parsed = deck if isinstance(deck, ParsedDeck) else ParsedDeck.of(deck)
    lang = language
    fmt_name = FORMAT_NAMES[fmt][1 if _ru(lang) else 0]
    all_cards = parsed.cards()

    def named(card: Card) -> str:
        return _quote(_display(card, lang), lang)

    out: list[Violation] = []
    # 100.2а: the minimum of the format
    minimum = deck_minimum(fmt, config)
    if len(all_cards) < minimum:
        out.append(
            Violation("100.2а", _t(lang, "min", format=fmt_name, n=minimum, have=len(all_cards)))
        )
    # 100.2б, С: Орда: copies in constructed
    if fmt not in LIMITED:
        by_name: dict[str, list[Card]] = {}
        for card in all_cards:
            by_name.setdefault(card_key(card), []).append(card)
        for group in by_name.values():
            limit = copy_limit(group, config)
            if len(group) > limit:
                horde = limit == config.horde_copy_limit != config.copy_limit
                out.append(
                    Violation(
                        "С: Орда" if horde else "100.2б",
                        _t(
                            lang,
                            "copies_horde" if horde else "copies",
                            limit=limit,
                            card=named(group[0]),
                            n=len(group),
                        ),
                        cards=_ids(group),
                    )
                )
    # 100.3: the maximum of any format
    if len(all_cards) > config.deck_max:
        out.append(Violation("100.3", _t(lang, "max", n=config.deck_max, have=len(all_cards))))
    # draft, sealed: only cards of the pool (by name)
    if fmt in LIMITED and pool is not None:
        have = _pool_counts(pool, CardLookup.of(cards if cards is not None else {}))
        need = parsed.counts()
        short = [c for c in _unique(all_cards) if need[card_key(c)] > have.get(card_key(c), 0)]
        if short:
            parts = ", ".join(
                _t(
                    lang,
                    "pool_part",
                    card=named(c),
                    need=need[card_key(c)],
                    have=have.get(card_key(c), 0),
                )
                for c in short
            )
            short_keys = {card_key(c) for c in short}
            out.append(
                Violation(
                    "100.2а",
                    _t(lang, "pool", format=fmt_name, parts=parts),
                    cards=_ids(c for c in all_cards if card_key(c) in short_keys),
                )
            )
    # 100.4: the tournament's ban list
    keys = {normalise_name(str(b)) for b in banned}
    if keys:
        hit = [
            c
            for c in _unique(all_cards)
            if keys & {card_key(c), normalise_name(c.name_en), normalise_name(c.id)}
        ]
        if hit:
            out.append(
                Violation(
                    "100.4",
                    _t(lang, "banned", cards=", ".join(named(c) for c in hit)),
                    cards=_ids(hit),
                )
            )
    return out


def validate_deck(
    text: str,
    fmt: str,
    cards: Any,
    *,
    config: Config = DEFAULT,
    pool: Mapping[Any, int] | None = None,
    banned: Iterable[str] = (),
    language: str = "en",
) -> DeckReport:
    """Read ``text`` and check it: every problem at once."""
    lookup = CardLookup.of(cards)
    deck = parse_deck(text, lookup, language=language)
    violations = check_deck(
        deck, fmt, config=config, pool=pool, banned=banned, cards=lookup, language=language
    )
    return DeckReport(deck, tuple(violations))


def rules_summary(
    fmt: str, language: str = "en", config: Config = DEFAULT
) -> list[tuple[str, str]]:
    """(rule number, text) of the format's deck rules, for display."""
    _spec(fmt)
    minimum = deck_minimum(fmt, config)
    if _ru(language):
        name = FORMAT_NAMES[fmt][1]
        out = [("100.2а", f"В колоде для формата «{name}» не меньше {minimum} карт.")]
        if fmt in LIMITED:
            out.append(("100.2а", "Только карты из вашего пула; копий — сколько есть в пуле."))
        else:
            out.append(
                (
                    "100.2б",
                    f"Не больше {config.copy_limit} копий карты с одинаковым названием "
                    f"(карты с Ордой — до {config.horde_copy_limit}).",
                )
            )
        out.append(("100.3", f"В колоде не больше {config.deck_max} карт."))
        out.append(("100.4", "Турнир может запрещать отдельные карты и издания."))
        return out
    name = FORMAT_NAMES[fmt][0]
    out = [("100.2а", f"A {name} deck has at least {minimum} cards.")]
    if fmt in LIMITED:
        out.append(("100.2а", "Only cards from your pool; as many copies as the pool has."))
    else:
        out.append(
            (
                "100.2б",
                f"At most {config.copy_limit} copies of a card with the same name "
                f"(up to {config.horde_copy_limit} of a card with Horde).",
            )
        )
    out.append(("100.3", f"A deck has at most {config.deck_max} cards."))
    out.append(("100.4", "A tournament may ban single cards and sets."))
    return out


def write_deck(card_ids: Iterable[str], cards: Any, *, language: str = "en") -> str:
    """The list ``parse_deck`` reads back: a heading, then ``N Name`` by name."""
    lookup = CardLookup.of(cards)
    counts = Counter(str(card_id) for card_id in card_ids)
    rows = sorted(
        ((_display(lookup.card(card_id), language), n) for card_id, n in counts.items()),
        key=lambda row: normalise_name(row[0]),
    )
    lines = ["Колода" if _ru(language) else "Deck"]
    lines += [f"{n} {name}" for name, n in rows]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the decklist service


class UnknownCard(ValueError):
    """A built deck names a card this game does not have."""


class Decklists:
    """The decklist service of ``engine.core.decklists`` for Berserk.

    The card data comes from ``engine.berserk.cards.load_system()`` on first use, unless
    a lookup is given (``Decklists(cards=...)``, e.g. in tests).
    """

    system = "berserk"
    formats = FORMATS
    sections = (SECTION,)

    def __init__(self, cards: Any = None, config: Config = DEFAULT):
        self._cards = cards
        self.config = config

    @property
    def db(self) -> CardLookup:
        if self._cards is None:
            from engine.berserk.cards import load_system  # written alongside this module

            return CardLookup.of(load_system())
        return CardLookup.of(self._cards)

    def validate(
        self,
        text: str,
        fmt: str,
        *,
        as_of: date | None = None,
        pool: Mapping[str, int] | None = None,
        language: str = "en",
        banned: Iterable[str] = (),
    ) -> DeckReport:
        return validate_deck(
            text, fmt, self.db, config=self.config, pool=pool, banned=banned, language=language
        )

    def rules_summary(self, fmt: str, language: str = "en") -> list[tuple[str, str]]:
        return rules_summary(fmt, language, self.config)

    def to_engine_deck(self, text: str) -> list[str]:
        """A stored list as card ids, one item per copy; unreadable lines are left out
        (the checker reports them when the list is saved)."""
        return parse_deck(text, self.db).card_ids()

    def check_sections(
        self,
        deck: Mapping[str, Sequence[str]],
        fmt: str,
        *,
        pool: Mapping[str, int],
        language: str = "en",
    ) -> list[dict[str, Any]]:
        """Every broken deck rule of a deck built in the browser (``{"deck": [ids]}``),
        with ``pool`` as the only source of cards. ``UnknownCard`` for an unknown id."""
        db = self.db
        try:
            cards = [db.card(str(card_id)) for card_id in deck.get(SECTION) or ()]
        except KeyError as exc:
            raise UnknownCard(str(exc.args[0] if exc.args else "")) from None
        violations = check_deck(
            cards, fmt, config=self.config, pool=Counter(pool), cards=db, language=language
        )
        return [v.as_dict() for v in violations]

    def write(self, deck: Mapping[str, Sequence[str]], language: str = "en") -> str:
        return write_deck(deck.get(SECTION) or (), self.db, language=language)


DECKLISTS = Decklists()
