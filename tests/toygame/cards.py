"""The cards of «High card»: 24 cards, a value from 1 to 12 in two suits, one set (HC1)."""

from __future__ import annotations

from dataclasses import dataclass

SET = "HC1"
SUITS = {"sun": ("Sun", "Солнце"), "moon": ("Moon", "Луна")}


@dataclass(frozen=True)
class Card:
    id: str
    suit: str
    value: int

    def name(self, language: str = "en") -> str:
        en, ru = SUITS[self.suit]
        return f"{ru if language == 'ru' else en} {self.value}"

    @property
    def rarity(self) -> str:
        return "rare" if self.value >= 11 else "uncommon" if self.value >= 8 else "common"


CARDS = {
    f"HC1-{n:02d}": Card(f"HC1-{n:02d}", "sun" if n <= 12 else "moon", (n - 1) % 12 + 1)
    for n in range(1, 25)
}
BY_NAME = {card.name(lang).casefold(): card for card in CARDS.values() for lang in ("en", "ru")}
