"""Ready-made starter decks for casual games: a plain-text file of decklists per game.

A game system that needs decks names its file in the registry
(``GameSystemInfo.starter_decks``, a path under ``engine/sets/``). The file holds one
block per deck::

    # comment lines before the first deck are ignored
    === dawn-onslaught
    name: Dawn Onslaught
    name_ru: Рассветный натиск
    about: White and red: many cheap Squads.

    Cities
    1 Светлоград
    ...

A block opens with ``=== <key>`` (lower-case letters, digits and hyphens); the
``name``, ``name_ru``, ``about`` and ``about_ru`` lines right after it describe the deck;
everything else, up to the next block, is the decklist exactly as a player would paste
it, read later by the game's own deck checker. Pure Python, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SETS_DIR = Path(__file__).resolve().parent.parent / "sets"

_OPEN = re.compile(r"^===\s*(?P<key>[a-z0-9][a-z0-9-]*)\s*$")
_META = re.compile(r"^(?P<field>name|name_ru|about|about_ru)\s*:\s*(?P<value>.*?)\s*$")


class StarterDeckError(ValueError):
    """The starter deck file cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class StarterDeck:
    key: str
    name: str
    text: str  # the decklist, in the game's plain-text format
    name_ru: str = ""
    about: str = ""
    about_ru: str = ""

    def title(self, language: str = "en") -> str:
        return (self.name_ru if language.startswith("ru") else "") or self.name

    def description(self, language: str = "en") -> str:
        return (self.about_ru if language.startswith("ru") else "") or self.about


def parse_starter_decks(text: str, source: str = "<starter decks>") -> tuple[StarterDeck, ...]:
    """Every deck block of ``text``, in file order; a repeated key or a nameless deck is an error."""
    decks: list[StarterDeck] = []
    current: dict[str, str] | None = None
    body: list[str] = []
    in_meta = False

    def close(line_no: int) -> None:
        if current is None:
            return
        if not current.get("name"):
            raise StarterDeckError(f"{source}: deck {current['key']!r} has no name line")
        deck_text = "\n".join(body).strip()
        if not deck_text:
            raise StarterDeckError(f"{source}: deck {current['key']!r} has no cards")
        decks.append(
            StarterDeck(
                key=current["key"],
                name=current["name"],
                name_ru=current.get("name_ru", ""),
                about=current.get("about", ""),
                about_ru=current.get("about_ru", ""),
                text=deck_text + "\n",
            )
        )

    for number, raw in enumerate((text or "").splitlines(), start=1):
        opened = _OPEN.match(raw.strip())
        if opened:
            close(number)
            key = opened.group("key")
            if any(d.key == key for d in decks):
                raise StarterDeckError(f"{source}, line {number}: deck {key!r} appears twice")
            current, body, in_meta = {"key": key}, [], True
            continue
        if current is None:
            if raw.strip() and not raw.lstrip().startswith("#"):
                raise StarterDeckError(
                    f"{source}, line {number}: text before the first '=== <key>' line"
                )
            continue
        meta = _META.match(raw.strip()) if in_meta else None
        if meta:
            current[meta.group("field")] = meta.group("value")
            continue
        in_meta = False
        body.append(raw)
    close(0)
    return tuple(decks)


def load_starter_decks(path: str | Path) -> tuple[StarterDeck, ...]:
    """The decks of a file; a relative ``path`` is taken under ``engine/sets/``."""
    full = Path(path)
    if not full.is_absolute():
        full = SETS_DIR / full
    try:
        text = full.read_text(encoding="utf-8")
    except OSError as exc:
        raise StarterDeckError(f"cannot read starter decks {full}: {exc}") from None
    return parse_starter_decks(text, str(full))
