"""The strict reading of card set files, shared by every game system (docs/card-format.md).

A set file is one JSON object per release, in ``engine/sets/<system>/``::

    {"code": "VS1", "name": {"ru": ..., "en": ...}, "released": "2026-03-14",
     "cards": [{"number": 17, "name": {"ru": ..., "en": ...}, ...}, ...]}

Each game system keeps its own fields and rules (``engine.voskhozhdenie.loader``,
``engine.ascension.cards``); this module gives them the same guarantees:

- ``read_json`` refuses a missing file, text that is not UTF-8, bad JSON and a key given
  twice in one object (JSON itself would keep the last one silently);
- ``Checker.unknown`` refuses fields the system does not define, ``Checker.required``
  missing ones, and ``Checker.integer``/``boolean``/``text_pair``/``str_list`` values of
  the wrong type;
- ``set_header`` checks the fields every set has (``code``, ``name``, ``released``,
  ``cards``);
- every problem is a :class:`CardDataError` naming the file, the card (its id and
  Russian name) and the field::

      engine/sets/voskhozhdenie/vs1.json: card VS1-017 «Name»: strength: a Tactic has
      no Strength (rule 2.1.9.1)

Pure Python, no Django.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

SETS_DIR = Path(__file__).resolve().parent.parent / "sets"
REPO_ROOT = SETS_DIR.parent.parent

SET_CODE = re.compile(r"^[A-Z][A-Z0-9]{1,7}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class CardDataError(ValueError):
    """A set file that does not follow docs/card-format.md.

    ``source`` is the file (relative to the repository), ``card`` the card (id and Russian
    name) or ``None`` for the set itself, ``field`` the path of the field in the card or
    the set (``abilities[0].effects[1].op``, empty for the whole object), ``message`` what
    is wrong.
    """

    def __init__(self, source: str, message: str, card: str | None = None, field: str = ""):
        where = [source]
        if card:
            where.append(f"card {card}")
        if field:
            where.append(field)
        super().__init__(": ".join([*where, message]))
        self.source = source
        self.card = card
        self.field = field
        self.message = message


def display(path: Path) -> str:
    """How an error names a file: relative to the repository when it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def card_id(code: str, number: int) -> str:
    """A card's id: its set's code and its number padded to 3 digits (``VS1-017``)."""
    return f"{code}-{number:03d}"


def card_label(card: str, name: Any) -> str:
    """How an error names a card: ``VS1-017 «Russian name»``, or the id alone."""
    return f"{card} «{name}»" if isinstance(name, str) and name else card


def set_files(folder: Path) -> list[Path]:
    """The set files of a folder, by name: ``*.json`` but not the ``_``-prefixed ones."""
    return sorted(p for p in Path(folder).glob("*.json") if not p.name.startswith("_"))


class Checker:
    """Raises CardDataError with the file and the card currently being read."""

    def __init__(self, source: str):
        self.source = source
        self.card: str | None = None

    def fail(self, field: str, message: str) -> CardDataError:
        return CardDataError(self.source, message, self.card, field)

    def at_card(self, code: str, number: int, name: Any = None) -> str:
        """From now on errors name this card (``name`` its Russian name, if known); the id."""
        ident = card_id(code, number)
        self.card = card_label(ident, name)
        return ident

    def unknown(self, value: Mapping[str, Any], allowed: Iterable[str], field: str = "") -> None:
        """No field beyond ``allowed`` (a typo is an error, not a silently ignored field)."""
        extra = set(value) - set(allowed)
        if extra:
            raise self.fail(field, f"unknown field(s) {', '.join(sorted(extra))}")

    def required(self, value: Mapping[str, Any], names: Iterable[str]) -> None:
        for name in names:
            if name not in value:
                raise self.fail(name, "is required")

    def text_pair(self, value: Any, field: str, allow_empty: bool = False) -> tuple[str, str]:
        if not isinstance(value, Mapping) or set(value) != {"ru", "en"}:
            raise self.fail(field, 'needs exactly the languages {"ru": ..., "en": ...}')
        for lang in ("ru", "en"):
            text = value[lang]
            if not isinstance(text, str):
                raise self.fail(f"{field}.{lang}", "must be a string")
            if not allow_empty and not text.strip():
                raise self.fail(f"{field}.{lang}", "must not be empty")
        return value["ru"], value["en"]

    def integer(self, value: Any, field: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"must be an integer, not {value!r}")
        if value < minimum:
            raise self.fail(field, f"must be at least {minimum}, not {value}")
        return value

    def boolean(self, value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(field, "must be true or false")
        return value

    def str_list(self, value: Any, field: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(field, "must be a list of strings")
        if len(set(value)) != len(value):
            raise self.fail(field, "lists the same value twice")
        return value


@dataclass(frozen=True)
class SetHeader:
    """The fields every set file has, checked."""

    code: str
    name_ru: str
    name_en: str
    released: date
    cards: list[Any]  # the raw cards, for the game system to read


def set_header(data: Any, fields: Iterable[str], check: Checker) -> SetHeader:
    """Check the set object: no field beyond ``fields``, then ``code``, ``name``,
    ``released`` (an ISO date) and ``cards`` (a non-empty list)."""
    if not isinstance(data, Mapping):
        raise check.fail("", "a set file holds one JSON object")
    check.unknown(data, fields)
    check.required(data, ("code", "name", "released", "cards"))
    code = data["code"]
    if not isinstance(code, str) or not SET_CODE.match(code):
        raise check.fail("code", "must be capital letters and digits, e.g. VS1")
    name_ru, name_en = check.text_pair(data["name"], "name")
    released = data["released"]
    if not isinstance(released, str) or not _DATE.match(released):
        raise check.fail("released", f"must be an ISO date YYYY-MM-DD, not {released!r}")
    try:
        released_date = date.fromisoformat(released)
    except ValueError:
        raise check.fail("released", f"{released!r} is not a real date") from None
    cards = data["cards"]
    if not isinstance(cards, list) or not cards:
        raise check.fail("cards", "must be a non-empty list")
    return SetHeader(code, name_ru, name_en, released_date, cards)


# ---------------------------------------------------------------- reading the file


class _Duplicated(dict):
    """An object of the file that gives ``key`` twice."""

    key = ""


def read_json(path: Path, check: Checker) -> Any:
    """A set file's JSON, strictly: a missing file, bad JSON, text that is not UTF-8 and a
    key given twice in one object are each a ``CardDataError`` naming the file (and, for a
    key given twice, the card and the field)."""
    duplicated: list[_Duplicated] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result and not duplicated:
                marked = _Duplicated(pairs)
                marked.key = key
                duplicated.append(marked)
                return marked
            result[key] = value
        return result

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"), object_pairs_hook=pairs_hook)
    except FileNotFoundError:
        raise check.fail("", "no such file") from None
    except json.JSONDecodeError as exc:
        raise check.fail("", f"not valid JSON: {exc}") from None
    except UnicodeDecodeError:
        raise check.fail("", "not UTF-8 text") from None
    if duplicated:
        raise _duplicate_error(data, duplicated[0], check)
    return data


def _duplicate_error(data: Any, marked: _Duplicated, check: Checker) -> CardDataError:
    """Name the card and the field of the key given twice."""
    message = f"the key {marked.key!r} appears twice in one object"
    path = next(_path_to(data, marked, ""), "")
    field = f"{path}.{marked.key}" if path else marked.key
    cards = data.get("cards") if isinstance(data, Mapping) else None
    match = re.match(r"^cards\[(\d+)\](?:\.(.*))?$", field)
    raw = cards[int(match.group(1))] if match and isinstance(cards, list) else None
    if isinstance(raw, Mapping):
        code, number = data.get("code"), raw.get("number")
        if isinstance(code, str) and isinstance(number, int) and not isinstance(number, bool):
            name = raw.get("name")
            check.card = card_label(
                card_id(code, number), name.get("ru") if isinstance(name, Mapping) else None
            )
            field = match.group(2) or ""
    error = check.fail(field, message)
    check.card = None
    return error


def _path_to(value: Any, target: Any, path: str) -> Iterator[str]:
    """The path of ``target`` inside ``value`` (``cards[3].abilities[0]``)."""
    if value is target:
        yield path
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _path_to(item, target, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _path_to(item, target, f"{path}[{i}]")
