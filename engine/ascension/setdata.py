"""The source of ``engine/sets/ascension/asc1.json``: every card as one Python call.

The rules text of each card is generated from its abilities in both languages
(``engine.ascension.effects.card_text``). Every name and text here is original. To change
a card, edit it here and run::

    .venv/bin/python -m engine.ascension.setdata          # rewrite the JSON
    .venv/bin/python -m engine.ascension.setdata --check  # compare only

``tests/engine/ascension/test_cards.py`` fails when the JSON and this script disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.ascension.effects import card_text

OUT = Path(__file__).resolve().parent.parent / "sets" / "ascension" / "asc1.json"
CODE = "ASC1"


# Op shorthands.
def runes(n: int) -> dict:
    return {"op": "runes", "amount": n}


def power(n: int) -> dict:
    return {"op": "power", "amount": n}


def honor(n: int) -> dict:
    return {"op": "honor", "amount": n}


def draw(n: int = 1) -> dict:
    return {"op": "draw", "count": n}


def banish(where: str, optional: bool = True) -> dict:
    return {"op": "banish", "from": where, "optional": optional}


def if_control(n: int, then: list, faction: str | None = None) -> dict:
    body: dict[str, Any] = {"min": n}
    if faction:
        body["faction"] = faction
    return {"op": "if", "cond": {"control": body}, "then": then}


def if_played(n: int, then: list, faction: str | None = None, type_: str | None = None) -> dict:
    body: dict[str, Any] = {"min": n}
    if faction:
        body["faction"] = faction
    if type_:
        body["type"] = type_
    return {"op": "if", "cond": {"played": body}, "then": then}


_cards: list[dict] = []


def _add(
    ru: str,
    en: str,
    type_: str,
    cost: int,
    copies: int,
    abilities: list[dict],
    *,
    faction: str | None = None,
    honor_value: int = 0,
    pile: str = "center",
    flavour: tuple[str, str] | None = None,
) -> None:
    card: dict[str, Any] = {
        "number": len(_cards) + 1,
        "name": {"ru": ru, "en": en},
        "type": type_,
        "faction": faction,
        "cost": cost,
        "honor": honor_value,
        "copies": copies,
        "pile": pile,
        "text": {
            "ru": card_text(abilities, faction, "ru"),
            "en": card_text(abilities, faction, "en"),
        },
    }
    if flavour:
        card["flavour"] = {"ru": flavour[0], "en": flavour[1]}
    card["abilities"] = abilities
    _cards.append(card)


def hero(ru, en, faction, cost, honor_value, copies, play, unite=None, flavour=None):
    abilities = [{"kind": "play", "effects": play}]
    if unite:
        abilities.append({"kind": "unite", "effects": unite})
    _add(ru, en, "hero", cost, copies, abilities, faction=faction, honor_value=honor_value,
         flavour=flavour)  # fmt: skip


def construct(ru, en, faction, cost, honor_value, copies, activate=None, play=None, unite=None):
    abilities = []
    if play:
        abilities.append({"kind": "play", "effects": play})
    if activate:
        abilities.append({"kind": "activate", "effects": activate})
    if unite:
        abilities.append({"kind": "unite", "effects": unite})
    _add(ru, en, "construct", cost, copies, abilities, faction=faction, honor_value=honor_value)


def monster(ru, en, cost, copies, reward, flavour=None):
    _add(ru, en, "monster", cost, copies, [{"kind": "reward", "effects": reward}], flavour=flavour)


# --- Starter cards (A-6; AA-2: stats are data, the usual values) ---------------------
_add("Ученик", "Apprentice", "hero", 0, 8, [{"kind": "play", "effects": [runes(1)]}],
     pile="starter")  # fmt: skip
_add("Ополченец", "Militia", "hero", 0, 2, [{"kind": "play", "effects": [power(1)]}],
     pile="starter")  # fmt: skip
# --- Always-available piles (A-4, A-8; AA-2) ------------------------------------------
_add("Мистик", "Mystic", "hero", 3, 20, [{"kind": "play", "effects": [runes(2)]}],
     honor_value=1, pile="always")  # fmt: skip
_add("Тяжёлая пехота", "Heavy Infantry", "hero", 2, 20, [{"kind": "play", "effects": [power(2)]}],
     honor_value=1, pile="always")  # fmt: skip
_add("Культист", "Cultist", "monster", 2, 1, [{"kind": "reward", "effects": [honor(1)]}],
     pile="always")  # fmt: skip

# --- Enlightened (17 cards) --------------------------------------------------------------
E = "enlightened"
hero("Хор отголосков", "Choir of Echoes", E, 1, 0, 3, [runes(1)], unite=[runes(1)])
hero("Учёный с фонарём", "Lantern Scholar", E, 2, 1, 3, [draw(1)],
     flavour=("Ночь длинна, а книга ещё длиннее.", "The night is long; the book is longer."))  # fmt: skip
hero("Адепт Звёздного колодца", "Starwell Adept", E, 3, 1, 3, [runes(1), draw(1)])
hero("Призменный оракул", "Prism Oracle", E, 4, 2, 2, [runes(2)], unite=[draw(1)])
hero("Певчий небесного стекла", "Skyglass Cantor", E, 5, 2, 2, [draw(2)])
hero("Архивариус Завесы", "Veil Archivist", E, 6, 3, 1,
     [runes(3), {"op": "reveal_top", "match": {"type": "hero"}, "then": [honor(2)]}])  # fmt: skip
hero("Светоносный магистр", "Luminous Magister", E, 7, 4, 1, [runes(2), draw(2)])
construct("Рассветная линза", "Dawn Lens", E, 4, 2, 2, activate=[draw(1)])

# --- Lifebound (19 cards) ----------------------------------------------------------------
L = "lifebound"
hero("Садовник тернокорня", "Thornroot Tender", L, 1, 1, 3, [runes(1)], unite=[honor(1)])
hero("Побег-посыльный", "Sapling Runner", L, 2, 0, 3, [runes(1)], unite=[draw(1)])
hero("Мохоспинный глашатай", "Mossback Herald", L, 2, 1, 3, [runes(2)])
hero("Зовущая рощу", "Grovecaller", L, 3, 1, 3, [honor(1)], unite=[runes(2)])
hero("Хранительница семян", "Seedkeeper Matron", L, 4, 2, 2, [runes(2)], unite=[honor(2)])
hero("Великан Дубовое Сердце", "Oakheart Giant", L, 6, 3, 2, [runes(3), honor(1)],
     flavour=("Где он прошёл, через год шумит лес.", "Where he walked, a forest stands a year later."))  # fmt: skip
hero("Старейшина Глубоколесья", "Elder of the Deepwood", L, 7, 4, 1, [runes(2), honor(2)],
     unite=[honor(2)])  # fmt: skip
construct("Тотем цветения", "Bloomtide Totem", L, 4, 2, 2,
          activate=[if_played(1, [honor(1)], faction=L, type_="hero")])  # fmt: skip

# --- Mechana (17 cards) ------------------------------------------------------------------
M = "mechana"
hero("Паровой курьер", "Steam Courier", M, 1, 0, 2, [power(1)], unite=[runes(1)])
hero("Шестерёночник", "Gearwright", M, 2, 1, 3, [runes(1), if_control(1, [runes(1)])])
hero("Литейный мудрец", "Foundry Savant", M, 3, 1, 3, [runes(1), power(1),
     if_control(2, [runes(2)])])  # fmt: skip
hero("Заводной землемер", "Clockwork Surveyor", M, 4, 2, 2, [runes(2)], unite=[runes(1)])
construct("Клёпаный пёс", "Rivet Hound", M, 2, 1, 3, activate=[power(1)])
construct("Грозовой ткацкий станок", "Storm Loom", M, 3, 1, 2, activate=[runes(1)])
construct("Машина развоплощения", "Engine of Unmaking", M, 5, 2, 1, activate=[banish("center")])
construct("Латунный колосс", "Brass Colossus", M, 6, 3, 1, activate=[power(2)])

# --- Void (17 cards) ---------------------------------------------------------------------
V = "void"
hero("Шептунья руин", "Ruin Whisperer", V, 1, 0, 3, [power(1)], unite=[power(1)])
hero("Пепельный послушник", "Ashen Acolyte", V, 2, 1, 3, [power(1), banish("hand")])
hero("Сумрачный жнец", "Gloam Reaver", V, 3, 1, 3, [power(2)])
hero("Полая арбитресса", "Hollow Arbiter", V, 4, 2, 2, [power(2), banish("hand_or_discard")])
hero("Охотник Ночной Пасти", "Nightmaw Hunter", V, 5, 2, 2, [power(3)], unite=[power(1)])
hero("Теневой палач", "Umbral Executioner", V, 6, 3, 1, [power(2),
     {"op": "defeat_free", "max_cost": 4}])  # fmt: skip
hero("Владыка Бездны", "Abyssal Warlord", V, 7, 4, 1, [power(4), banish("center")])
construct("Печать пустоты", "Hollow Sigil", V, 3, 1, 2, activate=[power(1)])

# --- Monsters (30 cards) -----------------------------------------------------------------
monster("Сточный бес", "Gutter Imp", 2, 5, [honor(1), runes(1)])
monster("Падальный коршун", "Carrion Kite", 2, 1, [honor(1), banish("discard")])
monster("Болотный скрытень", "Bog Lurker", 3, 5, [honor(2)])
monster("Рой осколков", "Shard Swarm", 3, 2, [honor(1), draw(1)])
monster("Ржавый призрак", "Rust Wraith", 4, 3, [honor(2), banish("center")])
monster("Пепельная ведьма", "Cinder Hag", 4, 3, [honor(2), banish("hand_or_discard")])
monster("Громовой змей", "Thunder Wyrm", 5, 3, [honor(3), draw(1)])
monster("Полый исполин", "Hollow Giant", 5, 2,
        [honor(2), {"op": "acquire_free", "max_cost": 3, "types": ["hero"]}])  # fmt: skip
monster("Пожиратель гор", "Mountain Devourer", 6, 2, [honor(4)],
        flavour=("Хребты для него — хлебные корки.", "To it, mountain ridges are bread crusts."))  # fmt: skip
monster("Утопленный владыка", "Drowned Sovereign", 6, 1, [honor(4), {"op": "opponents_keep_one"}])
monster("Обманщик-мистраль", "Mistral Trickster", 6, 1, [honor(3), {"op": "steal_random"}])
monster("Ужас погостного цвета", "Gravebloom Horror", 7, 1,
        [honor(4), {"op": "acquire_free", "max_cost": 5, "to": "deck_top"}])  # fmt: skip
monster("Звездоед", "Star-Eater", 8, 1, [honor(6)])


def build() -> dict:
    return {
        "code": CODE,
        "name": {"ru": "Возвышение: Расколотое небо", "en": "Ascension: The Sundered Sky"},
        "released": "2026-04-01",
        "cards": _cards,
    }


def dumps() -> str:
    return json.dumps(build(), ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = dumps()
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from engine/ascension/setdata.py")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(_cards)} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
