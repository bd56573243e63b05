"""The decklist service of «Восхождение» (``engine.core.decklists``): the deck checker of
``engine.voskhozhdenie.decks`` (rules 4.4-4.5.5) over this game's own card data."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from engine.voskhozhdenie import loader
from engine.voskhozhdenie.cards import CardDB
from engine.voskhozhdenie.decks import CHECKER, DeckChecker, DeckReport, ParsedDeck, to_engine_deck

# A deck built in the browser: the engine's deck parts (``game.new_game``).
SECTIONS = ("cities", "main", "reinforcement")
_TITLES = {
    "en": {"cities": "Cities", "main": "Main deck", "reinforcement": "Reinforcements"},
    "ru": {"cities": "Города", "main": "Основная колода", "reinforcement": "Подкрепления"},
}


class UnknownCard(ValueError):
    """A built deck names a card this game does not have."""


class Decklists:
    def __init__(self, checker: DeckChecker = CHECKER, system: str = "voskhozhdenie"):
        self.checker = checker
        self.system = system

    @property
    def db(self) -> CardDB:
        return loader.load_system(self.system)

    def validate(
        self,
        text: str,
        fmt: str,
        *,
        as_of: date | None = None,
        pool: Mapping[str, int] | None = None,
        language: str = "en",
    ) -> DeckReport:
        return self.checker.validate(text, fmt, self.db, as_of=as_of, pool=pool, language=language)

    def rules_summary(self, fmt: str, language: str = "en") -> list[tuple[str, str]]:
        return self.checker.rules_summary(fmt, language=language)

    def to_engine_deck(self, text: str) -> dict[str, list[str]]:
        return to_engine_deck(text, self.db)

    def check_sections(
        self,
        deck: Mapping[str, Sequence[str]],
        fmt: str,
        *,
        pool: Mapping[str, int],
        language: str = "en",
    ) -> list[dict[str, Any]]:
        """Every broken rule of 4.5.5 (Draft; sealed decks follow the same rules), with
        ``pool`` as the only source of cards. ``UnknownCard`` for an id of no card."""
        db = self.db
        parts = []
        for section in SECTIONS:
            try:
                parts.append([db.card(str(card_id)) for card_id in deck.get(section) or ()])
            except KeyError as exc:
                raise UnknownCard(str(exc.args[0] if exc.args else "")) from None
        parsed = ParsedDeck.of(*parts)
        violations = self.checker.check(parsed, fmt, db, pool=Counter(pool), language=language)
        return [v.as_dict() for v in violations]

    def write(self, deck: Mapping[str, Sequence[str]], language: str = "en") -> str:
        """The plain-text list the deck checker reads (and players can copy)."""
        db = self.db
        lang = "ru" if language == "ru" else "en"
        lines: list[str] = []
        for section in SECTIONS:
            counts = Counter(deck.get(section) or [])
            if not counts:
                continue
            lines.append(_TITLES[lang][section])
            for card_id, n in sorted(counts.items(), key=lambda item: db.card(item[0]).name(lang)):
                lines.append(f"{n} {db.card(card_id).name(lang)}")
            lines.append("")
        return "\n".join(lines).strip() + "\n"


DECKLISTS = Decklists()
