"""The limited kit of Berserk (ККИ «Берсерк», ``engine.core.limited``): boosters
(``boosters``), draft bots (``draftbots``), the one deck section and the card faces the
drafting pages show.

A draft or sealed deck has at least 20 cards, all from the player's pool [100.2а], and
at most 50 [100.3]; the decklist service (``engine.berserk.decks:DECKLISTS``, section
"deck") checks it. Nothing is supplied by the organiser.

A card's face: its element is its colour (the key of ``ELEMENTS`` as the CSS class, the
name in the page's language; a neutral card has no colour key and the neutral name), the
type with the subtype ("Flying creature", «Летающее существо»), the cost with its
eliteness (``4◆``: elite, paid in gold; ``4◇``: ordinary, paid in silver or gold [202.2,
D-6]; ``2+X◇`` for a cost N+X [202.4]), the stats (lives ♥, simple strike ⚔ "1-2-3",
movement ➜, where the card has them; the cost is shown once, as ``cost``), the named
abilities with their X and the classes as tags, the rules text, the rarity, and the sort
keys (type, element, cost).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.berserk import boosters, draftbots
from engine.berserk.cards import CLASSES, CardDB, ability_text, load_system
from engine.berserk.config import DEFAULT
from engine.berserk.model import ELEMENT_NAMES, ELEMENTS, NAMED, Card
from engine.core.limited import CardFace, CardStat, DeckNeed, DeckSection

SYSTEM = "berserk"
SECTION = "deck"  # engine.berserk.decks.SECTION

# Kind (the subtype, else the type) -> (English, Russian), in the order a pool shows them.
TYPE_NAMES: dict[str, tuple[str, str]] = {
    "creature": ("Creature", "Существо"),
    "flying": ("Flying creature", "Летающее существо"),
    "symbiote": ("Symbiote", "Симбиот"),
    "parasite": ("Parasite", "Паразит"),
    "terrain": ("Terrain", "Местность"),
    "artifact": ("Artifact", "Артефакт"),
    "equipment": ("Equipment", "Экипировка"),
}
_TYPE_ORDER = {key: n for n, key in enumerate(TYPE_NAMES)}
ELITE = "◆"  # a gold crystal: elite [202.2]
ORDINARY = "◇"  # a silver crystal: ordinary [202.2]
_WORDS: dict[str, tuple[str, str]] = {
    "lives": ("Lives", "Жизни"),
    "strike": ("Simple strike: weak-medium-strong", "Простой удар: слабый-средний-сильный"),
    "movement": ("Movement", "Движение"),
}


def _ru(language: str) -> bool:
    return language.startswith("ru")


def _say(pair: tuple[str, str], language: str) -> str:
    return pair[1] if _ru(language) else pair[0]


class Kit:
    sections = (DeckSection(SECTION, "Deck", "Колода", target="20–50"),)  # 100.2а, 100.3
    min_pool = DEFAULT.deck_min_limited  # 100.2а: a limited deck has at least 20 cards
    supply = None

    def __init__(self, directory: str | None = None):
        self.directory = directory

    @property
    def db(self) -> CardDB:
        return load_system(self.directory)

    def rules_text(self, language: str = "en") -> str:
        low, high = DEFAULT.deck_min_limited, DEFAULT.deck_max
        if _ru(language):
            return (
                f"Колода для драфта и силеда (100.2а, 100.3): от {low} до {high} карт, только "
                "из вашего пула (копий карты — сколько их в пуле). При наборе отряда каждая "
                "стихия сверх двух стоит 1 золотой кристалл (304.6), поэтому обычно колоду "
                "собирают из двух стихий и нейтральных карт."
            )
        return (
            f"Draft and sealed deck rules (100.2а, 100.3): {low} to {high} cards, all from "
            "your pool (as many copies of a card as the pool has). In recruitment each "
            "element beyond two costs 1 gold crystal (304.6), so a deck usually keeps to two "
            "elements and neutral cards."
        )

    def known(self, card_id: str) -> bool:
        return card_id in self.db

    def face(self, card_id: str, language: str = "en") -> CardFace:
        return card_face(self.db.card(card_id), "ru" if _ru(language) else "en")

    def pool_size(self, set_codes: Sequence[str]) -> int:
        return boosters.pool_size(set_codes, self.db)

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
        return []  # Berserk's limited formats supply nothing

    def deck_needs(self, pool: Sequence[str]) -> list[DeckNeed]:
        """At least 20 cards of the pool [100.2а]; any card of the pool may be used."""
        need = DEFAULT.deck_min_limited
        return [DeckNeed(SECTION, "Deck", "Колода", len(pool), need, "100.2а")]


def cost_text(card: Card) -> str:
    """The cost with its eliteness: ``4◆``, ``3◇``, ``X◇``, ``2+X◆`` [202.2, 202.4]."""
    mark = ELITE if card.elite else ORDINARY
    if card.cost_x:
        return f"{card.cost}+X{mark}" if card.cost else f"X{mark}"
    return f"{card.cost}{mark}"


def _tags(card: Card, lang: str) -> tuple[str, ...]:
    tags = []
    for ability in card.abilities:
        if not ability.name:
            continue
        if ability.name in ("summon", "resurrection"):  # the class, not the whole text
            name = _say(NAMED[ability.name][:2], lang)
            cls = _say(CLASSES[ability.of], lang) if ability.of in CLASSES else ""
            tags.append(f"{name} ({cls})" if cls else name)
        else:
            tags.append(ability_text(ability, lang, card.type))
    tags += [_say(CLASSES[c], lang) for c in card.classes if c in CLASSES]
    return tuple(dict.fromkeys(tags))


def card_face(card: Card, lang: str = "en") -> CardFace:
    """What a draft or deck page shows of ``card`` in ``lang`` ("en" or "ru")."""
    kind = draftbots.kind(card)
    stats = []
    if card.lives:
        stats.append(CardStat("♥", _say(_WORDS["lives"], lang), card.lives))
    if card.type == "creature":
        stats.append(CardStat("⚔", _say(_WORDS["strike"], lang), "-".join(map(str, card.strike))))
    if card.movement:
        stats.append(CardStat("➜", _say(_WORDS["movement"], lang), card.movement))
    element = card.element if card.element in ELEMENTS else ""
    return CardFace(
        id=card.id,
        name=card.name(lang),
        type=kind,
        type_name=_say(TYPE_NAMES.get(kind, (kind, kind)), lang),
        cost=cost_text(card),
        cost_value=card.cost,
        colours=(element,) if element else (),
        colour_names=(_say(ELEMENT_NAMES[element], lang),),
        stats=tuple(stats),
        tags=_tags(card, lang),
        text=card.text_ru if lang == "ru" else card.text_en,
        rarity=card.rarity,
        type_key=_TYPE_ORDER.get(kind, 9),
        colour_key=str(ELEMENTS.index(element)) if element else "9",
        section=SECTION,
    )


KIT = Kit()
