"""The limited kit of «Восхождение» (``engine.core.limited``): boosters (``boosters``,
AMB-04), draft bots (``draftbots``), the Draft deck's sections (4.4, 4.5.5) and the Cities
an organiser may supply (AMB-05)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.core.limited import CardFace, CardStat, DeckNeed, DeckSection, SupplyRule
from engine.voskhozhdenie import boosters, draftbots, loader
from engine.voskhozhdenie.cards import COLOURS, Card, CardDB

SYSTEM = "voskhozhdenie"

_TYPES = {  # type key: (English, Russian), in the order a pool shows them
    "city": ("City", "Город"),
    "squad": ("Squad", "Отряд"),
    "tactic": ("Tactic", "Тактика"),
    "order": ("Order", "Приказ"),
    "relic": ("Relic", "Реликвия"),
    "fortification": ("Fortification", "Укрепление"),
    "patron": ("Patron", "Покровитель"),
}
_TYPE_ORDER = {key: n for n, key in enumerate(_TYPES)}
_COLOURS = {
    "white": ("White", "Белый"),
    "blue": ("Blue", "Синий"),
    "black": ("Black", "Чёрный"),
    "red": ("Red", "Красный"),
}
_COLOUR_ORDER = {key: n for n, key in enumerate(_COLOURS)}
_WORDS = {
    "neutral": ("Neutral", "Нейтральный"),
    "strength": ("Strength", "Сила"),
    "supply": ("Supply", "Снабжение"),
    "reinforcement": ("Reinforcement", "Подкрепление"),
}


def _say(pair: tuple[str, str], language: str) -> str:
    return pair[1] if language.startswith("ru") else pair[0]


class Kit:
    sections = (
        DeckSection("cities", "City", "Город", target="2"),  # 4.5.5.1
        DeckSection("main", "Main", "Основная колода", target="20+"),  # 4.5.5.3
        DeckSection("reinforcement", "Reinforcement", "Подкрепление", target="≤5"),  # 4.5.5.4
    )
    min_pool = 22  # AMB-04: 2 Cities + 20 Main Deck cards
    supply = SupplyRule(  # AMB-05: two copies, as a deck has 2 Cities (4.5.5.1)
        "Cities",
        "Города",
        "By default a deck's two Cities come from the player's drafted pool. Cities chosen "
        "here are given to every player besides: each may put up to two copies of them in "
        "their deck (AMB-05).",
        "Обычно два Города для колоды игрок берёт из своего пула драфта. Города, выбранные "
        "здесь, дополнительно получает каждый игрок: любой из них можно положить в свою "
        "колоду не больше чем в двух экземплярах (AMB-05).",
        copies=2,
        most=12,
    )

    def __init__(self, system: str = SYSTEM):
        self.system = system

    @property
    def db(self) -> CardDB:
        return loader.load_system(self.system)

    def rules_text(self, language: str = "en") -> str:
        if language.startswith("ru"):
            return (
                "Правила колоды для драфта (4.5.5): 2 Города из вашего пула, не меньше 20 "
                "карт в основной колоде, не больше 5 подкреплений (карты «Подкрепление» или "
                "один Покровитель), не больше 10 карт одного цвета на каждый Город этого "
                "цвета."
            )
        return (
            "Draft deck rules (4.5.5): 2 Cities from your pool, at least 20 Main Deck cards, "
            "at most 5 Reinforcements (Reinforcement cards or one Patron), at most 10 cards "
            "of a colour per City of that colour."
        )

    def known(self, card_id: str) -> bool:
        try:
            self.db.card(card_id)
        except KeyError:
            return False
        return True

    def face(self, card_id: str, language: str = "en") -> CardFace:
        card = self.db.card(card_id)
        return _face(card, "ru" if language.startswith("ru") else "en")

    def pool_size(self, set_codes: Sequence[str]) -> int:
        return boosters.draft_pool_size(set_codes, self.db)

    def draft_packs(self, set_codes: Sequence[str], seats: int, seed: int) -> list[list[list[str]]]:
        return boosters.draft_packs(set_codes, seats, self.db, seed)

    def sealed_pool(self, set_codes: Sequence[str], seed: int) -> list[str]:
        return boosters.sealed_pool(set_codes, self.db, seed)

    def bot_pick(self, pack: Sequence[str], pool: Sequence[str], rng: list[int]) -> str:
        db = self.db
        return draftbots.bot_pick([db.card(c) for c in pack], [db.card(c) for c in pool], rng)

    def bot_deck(self, pool: Sequence[str]) -> dict[str, list[str]]:
        db = self.db
        return draftbots.bot_build_deck([db.card(c) for c in pool])

    def supply_choices(self, set_codes: Sequence[str]) -> list[str]:
        """The Cities of the sets the boosters come from (AMB-05)."""
        codes = set(set_codes)
        return [c.id for c in self.db.all_cards() if c.type == "city" and c.set_code in codes]

    def deck_needs(self, pool: Sequence[str]) -> list[DeckNeed]:
        """2 Cities (4.5.5.1) and 20 Main Deck cards (4.5.5.3) the pool's Cities allow.

        The Main Deck count is the most cards one pair of the pool's Cities lets a deck
        hold under 4.5.5.8 (10 cards of a colour per City of that colour; Neutral cards
        free; no Minor cards, 4.5.5.2; no Cities or Patrons, 4.5.5.7). With fewer than two
        Cities, each missing City counts as one of the colour the pool has most cards of
        (a City still to be drafted), so the count shows what the pool's cards would give.
        """
        db = self.db
        cards = [c for c in (db.card(card_id) for card_id in pool) if not c.minor]
        cities = [c for c in cards if c.type == "city"]
        others = [c for c in cards if c.type not in ("city", "patron")]
        pairs: list[tuple[Card, ...]] = list(combinations(cities, 2)) or [tuple(cities)]
        seen: set[tuple[str, ...]] = set()
        main = 0
        for pair in pairs:
            key = tuple(sorted(c.id for c in pair))
            if key not in seen:
                seen.add(key)
                main = max(main, _main_fits(pair, others, 2 - len(pair)))
        return [
            DeckNeed("cities", "Cities", "Города", len(cities), 2, "4.5.5.1"),
            DeckNeed(
                "main", "Main Deck", "Основная колода", main, draftbots.MAIN_TARGET, "4.5.5.3"
            ),
        ]


def _main_fits(cities: Sequence[Card], others: Sequence[Card], missing: int = 0) -> int:
    """How many of ``others`` a Main Deck with these Cities (and ``missing`` more, each of
    the colour with the most cards beyond the room there is) can hold (4.5.5.8): Neutral
    cards first, then one-colour cards, then the rest, while each colour has room."""
    room = dict.fromkeys(COLOURS, 0)
    for city in cities:
        for colour in city.colours:
            room[colour] += 10
    tally = {colour: sum(colour in c.colours for c in others) for colour in COLOURS}
    for _slot in range(missing):
        best = max(
            COLOURS, key=lambda colour: (tally[colour] - room[colour], -COLOURS.index(colour))
        )
        room[best] += 10
    fits = 0
    for card in sorted(others, key=lambda c: (len(c.colours), c.id)):
        if all(room.get(colour, 0) > 0 for colour in card.colours):
            for colour in card.colours:
                room[colour] -= 1
            fits += 1
    return fits


def _face(card: Card, lang: str) -> CardFace:
    if card.cost is None:
        cost = ""
    elif card.cost.x:
        cost = "X"
    elif card.cost.supply:
        cost = f"{card.cost.supply}⚑"
    else:
        cost = str(card.cost.coins)
    colours = tuple(sorted(card.colours, key=_COLOUR_ORDER.__getitem__))
    stats = []
    if card.strength:
        stats.append(CardStat("⚔", _say(_WORDS["strength"], lang), card.strength))
    if card.supply:
        stats.append(CardStat("⚑", _say(_WORDS["supply"], lang), card.supply))
    return CardFace(
        id=card.id,
        name=card.name(lang),
        type=card.type,
        type_name=_say(_TYPES[card.type], lang) if card.type in _TYPES else card.type,
        cost=cost,
        cost_value=card.cost_value,
        colours=colours,
        colour_names=tuple(_say(_COLOURS[c], lang) for c in colours)
        or (_say(_WORDS["neutral"], lang),),
        stats=tuple(stats),
        tags=(_say(_WORDS["reinforcement"], lang),) if "reinforcement" in card.keywords else (),
        text=card.text_ru if lang == "ru" else card.text_en,
        rarity=card.rarity,
        type_key=_TYPE_ORDER.get(card.type, 9),
        colour_key="".join(str(_COLOUR_ORDER[c]) for c in colours) or "9",
        section="cities" if card.type == "city" else "",
    )


KIT = Kit()
