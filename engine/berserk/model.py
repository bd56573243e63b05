"""The card data of Berserk (200-214): what every module of the engine reads of a card.

A card's properties [200.7]: name, element, cost and eliteness, movement, the flying or
symbiote icon (the subtype), lives, the X-Y-Z simple strike, the type and, for
equipment, its classes; everything else is an ability [403.2]. Named abilities of the
Словарь (digest §13) are data: a key of ``NAMED`` and, where the ability has one, its X.
A creature's class (e.g. «Воин») is an ability too [208.6] and lives in ``classes``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

ELEMENTS = ("steppe", "forest", "mountains", "swamps", "darkness")  # 202.8
ELEMENT_NAMES = {
    "steppe": ("Steppe", "Степи"),
    "forest": ("Forest", "Лес"),
    "mountains": ("Mountains", "Горы"),
    "swamps": ("Swamps", "Болота"),
    "darkness": ("Darkness", "Тьма"),
    "": ("Neutral", "Нейтральная"),
}
TYPES = ("creature", "terrain", "artifact", "equipment")  # 208.1
SUBTYPES = ("", "flying", "symbiote", "parasite")  # 208.2: creatures only
EQUIPMENT_CLASSES = ("weapon", "armour", "shield")  # 214.2

# The named abilities of the Словарь (digest §13): key -> (English, Russian, takes X).
NAMED: dict[str, tuple[str, str, bool]] = {
    "vanguard": ("Vanguard", "Авангард", False),
    "unanswerable": ("Unanswerable Strike", "Безответный удар", False),
    "incorporeal": ("Incorporeal", "Бестелесность", False),
    "blessing": ("Blessing", "Благословление", False),
    "curse": ("Curse", "Проклятье", False),
    "armour": ("Armour", "Броня", True),
    "vampirism": ("Vampirism", "Вампиризм", False),
    "resurrection": ("Resurrection", "Возрождение", False),
    "summon": ("Summon", "Вызов", False),
    "shot": ("Shot", "Выстрел", True),
    "throw": ("Throw", "Метание", True),
    "discharge": ("Discharge", "Разряд", True),
    "wrath": ("Wrath", "Гнев", False),
    "range": ("Range", "Дальность", True),
    "gift_of_life": ("Gift of Life", "Дар Жизни", True),
    "finishing": ("Finishing", "Добивание", True),
    "unity": ("Unity", "Единение", True),
    "thirst": ("Thirst", "Жажда", True),
    "protection": ("Protection", "Защита", False),  # from a kind: ``of``
    "heal": ("Heal", "Излечение", True),
    "incarnation": ("Incarnation", "Инкарнация", True),
    "concentration": ("Concentration", "Концентрация", False),
    "manoeuvre": ("Manoeuvre", "Манёвр", False),
    "meditation": ("Meditation", "Медитация", False),
    "directed": ("Directed Strike", "Направленный удар", False),
    "clumsiness": ("Clumsiness", "Неповоротливость", True),
    "experience_attack": ("Experience in Attack", "Опыт в Атаке", True),
    "experience_defence": ("Experience in Defence", "Опыт в Защите", True),
    "experience_shooting": ("Experience in Shooting", "Опыт в Стрельбе", True),
    "experience_throwing": ("Experience in Throwing", "Опыт в Метании", True),
    "experience_discharge": ("Experience in Discharge", "Опыт в Разряде", True),
    "horde": ("Horde", "Орда", False),
    "poison": ("Poison", "Отравление", True),
    "redistribution": ("Redistribution", "Перераспределение", True),
    "jump": ("Jump", "Прыжок", False),
    "teleport": ("Teleport", "Телепортация", False),
    "regeneration": ("Regeneration", "Регенерация", True),
    "stealth": ("Stealth", "Скрытность", False),
    "steadfastness": ("Steadfastness", "Стойкость", False),
    "fear": ("Fear", "Страх", True),
    "formation": ("Formation", "Строй", False),
    "cache": ("Cache", "Схрон", False),
    "thick_skin": ("Thick Skin", "Толстокожесть", False),
    "accuracy": ("Accuracy", "Точность", False),
    "corpse_eating": ("Corpse-eating", "Трупоедство", False),
    "fading": ("Fading", "Угасание", True),
    "strike_through_row": ("Strike Through a Row", "Удар через ряд", True),
    "uniqueness": ("Uniqueness", "Уникальность", False),
    "vulnerability": ("Vulnerability", "Уязвимость", False),
    "plague": ("Plague", "Чума", False),
}


BLANK = "~blank"  # the id suffix of a card's twin that has lost all abilities (407.4)


def is_blank(card_id: str) -> bool:
    """Whether ``card_id`` names a card's twin without abilities (407.4)."""
    return card_id.endswith(BLANK)


def printed_id(card_id: str) -> str:
    """The printed card a card id stands for (the blank twin's card, 407.4)."""
    return card_id[: -len(BLANK)] if card_id.endswith(BLANK) else card_id


@dataclass(frozen=True)
class Ability:
    """One ability of a card: a named one (``name`` a key of ``NAMED``, ``x`` its number,
    ``of`` what it concerns, e.g. Protection from "magic"), or a card's own scripted
    text (``name`` "" and ``script``: the effect description the engine runs)."""

    name: str = ""
    x: int | None = None
    of: str = ""
    script: Any = None


@dataclass(frozen=True)
class Card:
    id: str  # set code and number, e.g. "BK1-017"
    set_code: str
    number: int
    name_ru: str
    name_en: str
    type: str = "creature"
    subtype: str = ""  # creatures: "", "flying", "symbiote", "parasite"
    element: str = ""  # "" = neutral [202.9]
    cost: int = 0
    elite: bool = False  # paid in gold (elite) or silver (ordinary) [202.2]
    cost_x: bool = False  # cost X or N+X, announced at reveal [202.4]
    movement: int = 0
    lives: int = 0
    strike: tuple[int, int, int] = (0, 0, 0)  # weak, medium, strong [205.7]
    classes: tuple[str, ...] = ()  # creature classes and equipment classes [208.6, 214.2]
    abilities: tuple[Ability, ...] = ()
    text_ru: str = ""
    text_en: str = ""
    rarity: str = "common"
    extra: dict = field(default_factory=dict, hash=False, compare=False)

    def name(self, language: str = "en") -> str:
        return self.name_ru if language.startswith("ru") else self.name_en

    @functools.cached_property
    def named(self) -> frozenset[str]:
        """The names of the card's named abilities (read often: cached on the card)."""
        return frozenset(a.name for a in self.abilities if a.name)

    def has(self, name: str) -> bool:
        return name in self.named

    @functools.cached_property
    def _ofs(self) -> dict[str, tuple[str, ...]]:
        ofs: dict[str, list[str]] = {}
        for a in self.abilities:
            ofs.setdefault(a.name, []).append(a.of)
        return {name: tuple(kinds) for name, kinds in ofs.items()}

    def ofs(self, name: str) -> tuple[str, ...]:
        """What each copy of a named ability concerns (``of``), in the card's order."""
        return self._ofs.get(name, ())

    @functools.cached_property
    def _xs(self) -> dict[str, int]:
        """Each ability name's highest X (0 for none), read often: cached on the card."""
        xs: dict[str, int] = {}
        for a in self.abilities:
            xs[a.name] = max(xs.get(a.name, 0), a.x or 0)
        return xs

    def ability_x(self, name: str) -> int | None:
        """The X of a named ability; with several copies, the highest acts [414.4]."""
        return self._xs.get(name)

    @functools.cached_property
    def is_creature(self) -> bool:
        return self.type == "creature"

    @functools.cached_property
    def is_flyer(self) -> bool:
        return self.type == "creature" and self.subtype == "flying"
