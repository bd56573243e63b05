"""Decklists and the limited kit of «High card» (``engine.core.decklists``,
``engine.core.limited``).

Deck rules: HC-1, a constructed deck has exactly 10 cards; HC-2, at most 2 copies of a
card; HC-3, a limited deck has at least 8 cards, all from the player's pool. A list is
one card a line, ``N Name`` or ``Name``, in English or Russian; a line ``Deck`` /
``Колода`` is a heading.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import rng
from engine.core.limited import CardFace, CardStat, DeckNeed, DeckSection, LimitedError
from tests.toygame.cards import BY_NAME, CARDS, SET, SUITS

LIMITED = ("draft", "sealed")
BOOSTER = 6


@dataclass(frozen=True)
class Problem:
    rule: str
    message: str
    line: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message, "line": self.line, "cards": []}


@dataclass(frozen=True)
class Report:
    cards: tuple[str, ...]
    problems: tuple[Problem, ...]

    @property
    def is_legal(self) -> bool:
        return not self.problems


def _parse(text: str) -> tuple[list[str], list[Problem]]:
    cards, problems = [], []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.casefold() in ("deck", "колода"):
            continue
        count, _, name = line.partition(" ")
        if not count.isdigit():
            count, name = "1", line
        card = BY_NAME.get(name.strip().casefold())
        if card is None or not 1 <= int(count) <= 99:
            problems.append(Problem("", f"Cannot read {line[:60]!r}.", number))
            continue
        cards.extend([card.id] * int(count))
    return cards, problems


def _check(cards: Sequence[str], fmt: str, pool: Mapping[str, int] | None) -> list[Problem]:
    problems = []
    if fmt in LIMITED:
        if len(cards) < 8:
            problems.append(Problem("HC-3", "A limited deck has at least 8 cards."))
        if pool is not None and Counter(cards) - Counter(pool):
            problems.append(Problem("HC-3", "Only cards of your pool."))
        return problems
    if len(cards) != 10:
        problems.append(Problem("HC-1", "A deck has exactly 10 cards."))
    if any(n > 2 for n in Counter(cards).values()):
        problems.append(Problem("HC-2", "At most 2 copies of a card."))
    return problems


class Decklists:
    def validate(self, text, fmt, *, as_of=None, pool=None, language="en") -> Report:
        cards, problems = _parse(text)
        return Report(tuple(cards), tuple(problems + _check(cards, fmt, pool)))

    def rules_summary(self, fmt: str, language: str = "en") -> list[tuple[str, str]]:
        if fmt in LIMITED:
            return [("HC-3", "At least 8 cards, all from your pool.")]
        return [("HC-1", "Exactly 10 cards."), ("HC-2", "At most 2 copies of a card.")]

    def to_engine_deck(self, text: str) -> list[str]:
        return _parse(text)[0]

    def check_sections(self, deck, fmt, *, pool, language="en") -> list[dict[str, Any]]:
        return [p.as_dict() for p in _check(list(deck.get("deck") or ()), fmt, pool)]

    def write(self, deck: Mapping[str, Sequence[str]], language: str = "en") -> str:
        counts = Counter(deck.get("deck") or ())
        lines = ["Колода" if language == "ru" else "Deck"]
        lines += [f"{n} {CARDS[c].name(language)}" for c, n in sorted(counts.items())]
        return "\n".join(lines) + "\n"


class Kit:
    sections = (DeckSection("deck", "Deck", "Колода", target="8+"),)
    min_pool = 8
    supply = None

    def rules_text(self, language: str = "en") -> str:
        return "Колода: не меньше 8 карт из пула." if language == "ru" else "At least 8 cards."

    def face(self, card_id: str, language: str = "en") -> CardFace:
        card = CARDS[card_id]
        suit = SUITS[card.suit][1 if language == "ru" else 0]
        return CardFace(
            id=card.id,
            name=card.name(language),
            type="card",
            type_name=suit,
            cost=str(card.value),
            cost_value=card.value,
            colours=(card.suit,),
            colour_names=(suit,),
            stats=(CardStat("★", "Value", card.value),),
            rarity=card.rarity,
            colour_key=str(list(SUITS).index(card.suit)),
            type_key=0,
        )

    def known(self, card_id: str) -> bool:
        return card_id in CARDS

    def pool_size(self, set_codes: Sequence[str]) -> int:
        for code in set_codes:
            if code != SET:
                raise LimitedError(f"unknown set {code!r}")
        return BOOSTER * len(set_codes)

    def draft_packs(self, set_codes, seats, seed) -> list[list[list[str]]]:
        self.pool_size(set_codes)
        state = rng.seed_state(seed)
        packs = []
        for _seat in range(seats):
            boosters = []
            for _code in set_codes:
                ids = sorted(CARDS)
                rng.shuffle(state, ids)
                boosters.append(ids[:BOOSTER])
            packs.append(boosters)
        return packs

    def sealed_pool(self, set_codes, seed) -> list[str]:
        return [c for booster in self.draft_packs(set_codes, 1, seed)[0] for c in booster]

    def bot_pick(self, pack, pool, rng_state) -> str:
        best = max(CARDS[c].value for c in pack)
        return rng.choice(rng_state, sorted(c for c in pack if CARDS[c].value == best))

    def bot_deck(self, pool: Sequence[str]) -> dict[str, list[str]]:
        return {"deck": sorted(pool, key=lambda c: -CARDS[c].value)[:10]}

    def supply_choices(self, set_codes) -> list[str]:
        return []

    def deck_needs(self, pool: Sequence[str]) -> list[DeckNeed]:
        return [DeckNeed("deck", "Deck", "Колода", len(pool), 8, "HC-3")]


DECKLISTS = Decklists()
KIT = Kit()


def random_list(seed: int) -> str:
    """A legal constructed list (10 cards, two copies at most)."""
    ids = random.Random(seed).sample(sorted(CARDS), 10)
    return DECKLISTS.write({"deck": ids})
