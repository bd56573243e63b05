"""The source of ``engine/sets/berserk/bk1.json``: every card as one Python call.

An original set: every name and text here is invented for Gauntlet (no printed Berserk
card is copied). The rules text of each card is generated from its abilities in both
languages (``engine.berserk.cards.card_text``), so it always says what the abilities do.
To change a card, edit its call here and run::

    .venv/bin/python -m engine.berserk.setdata          # rewrite the JSON
    .venv/bin/python -m engine.berserk.setdata --check  # compare only (exit 1 if it differs)

``tests/engine/berserk/test_cards.py`` fails when the JSON and this script disagree.

Shorthands: ``c`` a creature, ``fly`` a flying creature, ``sym`` a symbiote, ``par`` a
parasite, ``terrain``, ``artifact``, ``equip``; ``n`` a named ability (§13), ``s`` a
scripted one (docs/card-format.md, "Berserk: scripted abilities"). ``cost`` "X" is a cost-X
card [202.4]; ``g=True`` an elite (gold) card [202.2]; rarity ``r`` is "c", "u" or "r".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.berserk.cards import card_text

OUT = Path(__file__).resolve().parent.parent / "sets" / "berserk" / "bk1.json"
CODE = "BK1"
BOOSTER = {
    "size": 15,
    "slots": [
        {"rarity": "common", "count": 11},
        {"rarity": "uncommon", "count": 3},
        {"rarity": "rare", "count": 1},
    ],
}
RARITY = {"c": "common", "u": "uncommon", "r": "rare"}

_cards: list[dict] = []
_element = "neutral"


def element(name: str) -> None:
    """The element of the cards that follow [202.8]; "neutral" for none [202.9]."""
    global _element
    _element = name


def n(name: str, x: int | None = None, of: str = "") -> dict:
    """A named ability of the Словарь (§13)."""
    ability: dict[str, Any] = {"name": name}
    if x is not None:
        ability["x"] = x
    if of:
        ability["of"] = of
    return ability


def s(when: str, do: str, amount: Any = None, target: str = "self", **more: Any) -> dict:
    """A scripted ability."""
    script: dict[str, Any] = {"when": when, "do": do}
    if amount is not None:
        script["amount"] = amount
    script["target"] = target
    if "cls" in more:
        script["class"] = more.pop("cls")
    if "if_" in more:
        script["if"] = more.pop("if_")
    script.update(more)
    return {"script": script}


def grant(target: str, ability: dict, **more: Any) -> dict:
    return s("static", "grant", None, target, ability=ability, **more)


def _add(ru: str, en: str, type_: str, cost: Any, g: bool, r: str, ab: list, **fields: Any) -> None:
    card: dict[str, Any] = {"number": len(_cards) + 1, "name": {"ru": ru, "en": en}}
    card["type"] = type_
    if fields.get("subtype"):
        card["subtype"] = fields["subtype"]
    card["element"] = _element
    card["cost"] = 0 if cost == "X" else cost
    if cost == "X":
        card["cost_x"] = True
    card["elite"] = g
    for key in ("movement", "lives"):
        if fields.get(key):
            card[key] = fields[key]
    if fields.get("strike"):
        card["strike"] = [int(v) for v in fields["strike"].split("-")]
    if fields.get("cls"):
        card["classes"] = list(fields["cls"])
    card["abilities"] = ab
    card["rarity"] = RARITY[r]
    card["text"] = {"ru": card_text(ab, "ru", type_), "en": card_text(ab, "en", type_)}
    _cards.append(card)


def c(ru, en, cost, lives, strike, mv, cls=(), ab=(), g=False, r="c"):
    _add(ru, en, "creature", cost, g, r, list(ab), movement=mv, lives=lives, strike=strike,
         cls=cls)  # fmt: skip


def fly(ru, en, cost, lives, strike, cls=(), ab=(), g=False, r="c"):
    _add(ru, en, "creature", cost, g, r, list(ab), subtype="flying", lives=lives,
         strike=strike, cls=cls)  # fmt: skip


def sym(ru, en, cost, lives, strike, cls=(), ab=(), g=False, r="c"):
    _add(ru, en, "creature", cost, g, r, list(ab), subtype="symbiote", lives=lives,
         strike=strike, cls=cls)  # fmt: skip


def par(ru, en, cost, lives, strike, cls=(), ab=(), g=False, r="c"):
    _add(ru, en, "creature", cost, g, r, list(ab), subtype="parasite", lives=lives,
         strike=strike, cls=cls)  # fmt: skip


def terrain(ru, en, cost, ab=(), g=False, r="c"):
    _add(ru, en, "terrain", cost, g, r, list(ab))


def artifact(ru, en, cost, lives, ab=(), g=False, r="c"):
    _add(ru, en, "artifact", cost, g, r, list(ab), lives=lives)


def equip(ru, en, cost, cls, ab=(), g=False, r="c"):
    _add(ru, en, "equipment", cost, g, r, list(ab), cls=cls)


W, M, B, SP, UD, H = ["warrior"], ["mage"], ["beast"], ["spirit"], ["undead"], ["hunter"]
STATIC = "static"

# --- Steppe (Степи) ------------------------------------------------------------------
element("steppe")
c("Степной дозорный", "Steppe Lookout", 1, 2, "1-1-2", 2, H)
c("Юный наездник", "Young Rider", 2, 3, "1-2-2", 2, W, [n("vanguard")])
c("Лучник ковыльных равнин", "Feathergrass Archer", 2, 2, "1-1-1", 1, H, [n("shot", 1)])
c("Копейщик орды", "Horde Spearman", 1, 2, "1-1-2", 1, W, [n("horde")])
c("Метатель арканов", "Lasso Thrower", 3, 3, "1-2-2", 2, H, [n("throw", 2)])
c("Вожак табуна", "Herd Leader", 4, 5, "2-2-3", 2, B,
  [n("manoeuvre"), s(STATIC, "strike_bonus", 1, "all_adjacent_own", cls="beast")], r="u")  # fmt: skip
c("Пыльный всадник", "Dust Rider", 3, 4, "1-2-3", 3, W, [n("jump")])
c("Знаменосец кочевья", "Camp Standard-Bearer", 3, 4, "1-2-2", 1, W,
  [n("formation"), s(STATIC, "strike_bonus", 1, if_="in_formation")])  # fmt: skip
c("Ветряной шаман", "Wind Shaman", 4, 3, "1-1-2", 1, M, [n("discharge", 2)])
c("Рубака-степняк", "Steppe Cutthroat", 4, 5, "2-3-3", 2, W, [n("experience_attack", 1)])
c("Конный стрелок", "Mounted Bowman", 5, 4, "1-2-3", 2, H,
  [n("shot", 2), n("experience_shooting", 1)], r="u")  # fmt: skip
c("Табунщица", "Horse Herder", 2, 3, "1-1-2", 2, H, [s("after_strike", "heal", 1)])
c("Гонец курганов", "Barrow Courier", 1, 2, "1-1-1", 3)
c("Страж кочевья", "Camp Warden", 3, 5, "1-2-2", 1, W,
  [n("experience_defence", 1), n("formation")])  # fmt: skip
c("Степной волкодав", "Steppe Wolfhound", 2, 3, "2-2-2", 2, B, [n("wrath")])
c("Ханский телохранитель", "Khan's Bodyguard", 5, 6, "2-3-4", 1, W,
  [n("directed"), n("steadfastness")], g=True, r="u")  # fmt: skip
c("Сказитель ветров", "Teller of Winds", 3, 3, "1-1-2", 1, M,
  [s("activated", "heal", 2, "any_own")])  # fmt: skip
c("Буревой всадник", "Stormrider", 6, 6, "2-3-4", 2, W,
  [n("vanguard"), n("unanswerable")], g=True, r="r")  # fmt: skip
c("Хан Бескрайней Степи", "Khan of the Endless Steppe", 8, 8, "3-4-5", 2, W,
  [n("uniqueness"), n("accuracy"), s(STATIC, "strike_bonus", 1, "all_own", cls="warrior")],
  g=True, r="r")  # fmt: skip
c("Загонщик", "Beater", 2, 3, "1-2-2", 2, H, [n("unity", 1)])
c("Меткий кочевник", "Sharp-Eyed Nomad", 4, 4, "1-2-2", 2, H,
  [n("shot", 2), n("range", 3), n("accuracy")], g=True, r="u")  # fmt: skip
c("Ковыльная пехота", "Grassland Footmen", 1, 3, "1-1-1", 1, W, [n("horde"), n("formation")])
c("Поединщик кургана", "Barrow Duelist", 5, 5, "2-3-4", 2, W, [n("experience_attack", 2)],
  g=True, r="u")  # fmt: skip
c("Дитя суховея", "Child of the Dry Wind", "X", 2, "1-1-1", 2, SP,
  [s("start_of_battle", "add_lives", "x")], r="r")  # fmt: skip
c("Степная лучница", "Steppe Bowwoman", 3, 3, "1-1-2", 2, H, [n("shot", 1), n("range", 2)])
fly("Степной орёл", "Steppe Eagle", 3, 3, "1-2-2", B, [n("directed")])
fly("Ветрокрыл", "Windwing", 5, 4, "2-2-3", B, [n("wrath")], g=True, r="u")
fly("Гроза курганов", "Terror of the Barrows", 7, 6, "2-3-4", SP,
    [n("experience_attack", 1), n("unanswerable")], g=True, r="r")  # fmt: skip
sym("Гривастый дух", "Maned Spirit", 2, 2, "1-1-1", SP, [s(STATIC, "movement_bonus", 1, "host")])
sym("Шёпот ковыля", "Feathergrass Whisper", 3, 2, "1-1-2", SP,
    [grant("host", n("experience_attack", 1))], r="u")  # fmt: skip
par("Степной клещ", "Steppe Tick", 2, 2, "1-1-1", B, [s(STATIC, "roll_bonus", -1, "host")])
terrain("Бескрайняя степь", "Boundless Steppe", 3,
        [s(STATIC, "movement_bonus", 1, "all_own", cls="warrior")], r="u")  # fmt: skip
terrain("Курганное поле", "Field of Barrows", 2,
        [s(STATIC, "roll_bonus", 1, "all_own", cls="hunter")])  # fmt: skip
artifact("Боевой барабан", "War Drum", 3, 3,
         [s(STATIC, "strike_bonus", 1, "all_adjacent_own")], r="u")  # fmt: skip
artifact("Сигнальный костёр", "Signal Fire", 1, 2, [s("activated", "open", None, "any_own")])
artifact("Кочевая катапульта", "Nomad Catapult", 4, 4, [n("throw", 2), n("range", 4)])
equip("Изогнутая сабля", "Curved Sabre", 2, ["weapon"], [s(STATIC, "strike_bonus", 1, "host")])
equip("Кожаный панцирь", "Leather Cuirass", 2, ["armour"], [grant("host", n("armour", 1))])
equip("Плетёный щит", "Wicker Shield", 1, ["shield"], [grant("host", n("protection", of="shots"))])

# --- Forest (Лес) --------------------------------------------------------------------
element("forest")
c("Лесной следопыт", "Forest Tracker", 1, 2, "1-1-1", 2, H, [n("stealth")])
c("Лучница чащи", "Thicket Archer", 2, 2, "1-1-2", 1, H, [n("shot", 1)])
c("Целительница рощи", "Grove Healer", 2, 2, "1-1-1", 1, M, [n("heal", 2)])
c("Мшистый страж", "Mossy Sentinel", 3, 5, "1-2-2", 1, SP, [n("regeneration", 1)])
c("Секач", "Tusked Boar", 3, 4, "2-2-3", 2, B, [n("thick_skin")])
c("Матёрый медведь", "Old Bear", 5, 7, "2-3-4", 1, B,
  [n("clumsiness", 1), n("regeneration", 1)], g=True, r="u")  # fmt: skip
c("Друид лесной тропы", "Druid of the Forest Path", 4, 3, "1-1-2", 1, M,
  [n("summon", of="beast")], r="u")  # fmt: skip
c("Шептунья листвы", "Leaf Whisperer", 3, 3, "1-1-2", 1, M,
  [n("blessing"), s(STATIC, "prevent", 1, "all_adjacent_own")])  # fmt: skip
c("Ядовитый стрелок", "Venom Archer", 3, 3, "1-1-2", 1, H, [n("shot", 1), n("poison", 1)])
c("Хранитель дуба", "Oak Keeper", 4, 6, "1-2-3", 1, SP, [n("gift_of_life", 2)])
c("Лесной волк", "Forest Wolf", 2, 3, "1-2-2", 2, B, [n("horde")])
c("Рысь-невидимка", "Unseen Lynx", 3, 3, "2-2-2", 2, B, [n("stealth"), n("jump")], r="u")
c("Метательница шишек", "Pinecone Pelter", 2, 2, "1-1-2", 1, H,
  [n("throw", 1), n("experience_throwing", 1)])  # fmt: skip
c("Отшельник омелы", "Mistletoe Hermit", 4, 3, "1-1-1", 1, M, [n("redistribution", 2)],
  r="u")  # fmt: skip
c("Корневик", "Rootling", 1, 3, "1-1-1", 1, SP, [n("cache")])
c("Лесная дозорная", "Woodland Sentry", 3, 4, "1-2-2", 1, W,
  [n("formation"), s(STATIC, "roll_bonus", 1, if_="in_formation")])  # fmt: skip
c("Бортник", "Honey Gatherer", 2, 3, "1-1-2", 1, H, [s("turn_end", "heal", 1, "adjacent_own")])
c("Олень-вожак", "Stag Leader", 4, 5, "2-2-3", 2, B, [n("manoeuvre")])
c("Лесничий-клинок", "Bladewarden of the Wood", 5, 5, "2-3-3", 2, W,
  [n("experience_defence", 1), n("protection", of="poison")], g=True, r="u")  # fmt: skip
c("Великий пастух зверей", "Great Shepherd of Beasts", 7, 6, "2-3-3", 1, M,
  [n("uniqueness"), n("summon", of="beast"),
   s(STATIC, "strike_bonus", 1, "all_own", cls="beast")], g=True, r="r")  # fmt: skip
c("Древний ясень", "Ancient Ash-Tree", 8, 10, "2-3-5", 1, SP,
  [n("thick_skin"), n("regeneration", 2), n("clumsiness", 1)], g=True, r="r")  # fmt: skip
c("Певец чащи", "Thicket Singer", 3, 3, "1-1-2", 1, M, [s("activated", "heal", 2, "any_own")])
c("Рой светлячков", "Firefly Swarm", 1, 2, "1-1-1", 2, B, [n("horde"), n("stealth")])
c("Росток великана", "Giant's Sapling", "X", 2, "1-1-2", 1, SP,
  [s("start_of_battle", "add_lives", "x"), n("regeneration", 1)], r="r")  # fmt: skip
c("Заступник опушки", "Defender of the Glade", 4, 5, "1-2-3", 1, W,
  [n("experience_defence", 1), s(STATIC, "block_move", None, "all_adjacent_enemy")],
  g=True)  # fmt: skip
fly("Сова-вещунья", "Seer Owl", 3, 2, "1-1-2", B, [n("blessing")])
fly("Ястреб опушки", "Glade Hawk", 2, 2, "1-1-2", B, [n("directed")])
fly("Фея терновника", "Thorn Fairy", 5, 3, "1-2-2", SP,
    [n("gift_of_life", 1), n("protection", of="magic")], g=True, r="u")  # fmt: skip
sym("Лоза-обвивальщица", "Binding Vine", 2, 2, "1-1-1", SP,
    [grant("host", n("regeneration", 1))], r="u")  # fmt: skip
sym("Дух кроны", "Canopy Spirit", 3, 2, "1-1-2", SP, [s(STATIC, "roll_bonus", 1, "host")])
par("Гриб-трутовик", "Bracket Fungus", 2, 2, "1-1-1", (), [s("turn_start", "wound", 1, "host")])
terrain("Заповедная роща", "Sacred Grove", 3,
        [grant("all_own", n("regeneration", 1), cls="spirit")], r="u")  # fmt: skip
terrain("Туманная чаща", "Misty Thicket", 2, [grant("all_own", n("stealth"), cls="hunter")])
artifact("Родник исцеления", "Healing Spring", 3, 3,
         [s("activated", "heal", 2, "any_own"), s(STATIC, "death_survive", 1, "all_adjacent_own")],
         r="u")  # fmt: skip
artifact("Ловчая сеть", "Hunter's Net", 2, 2, [n("throw", 1)])
artifact("Тотем лесного зверя", "Forest Beast Totem", 4, 4,
         [s(STATIC, "strike_bonus", 1, "all_adjacent_own", cls="beast")], r="r")  # fmt: skip
equip("Охотничий лук", "Hunting Bow", 2, ["weapon"], [grant("host", n("shot", 1))])
equip("Плащ из листьев", "Cloak of Leaves", 1, ["armour"], [grant("host", n("stealth"))])
equip("Корьевой щит", "Bark Shield", 2, ["shield"], [grant("host", n("protection", of="poison"))])

# --- Mountains (Горы) ----------------------------------------------------------------
element("mountains")
c("Горный страж", "Mountain Guard", 2, 4, "1-1-2", 1, W, [n("armour", 1)])
c("Щитоносец ущелья", "Gorge Shieldbearer", 3, 5, "1-2-2", 1, W,
  [n("formation"), n("armour", 1), s(STATIC, "strike_bonus", 1, if_="in_formation")])  # fmt: skip
c("Рудокоп", "Ore Digger", 1, 3, "1-1-2", 1, W, [n("horde")])
c("Камнеметатель", "Stone Hurler", 3, 3, "1-2-2", 1, H, [n("throw", 2)])
c("Валунный великан", "Boulder Giant", 6, 9, "2-3-5", 1, B,
  [n("clumsiness", 2), n("thick_skin")], r="u")  # fmt: skip
c("Кузнец рун", "Rune Smith", 4, 4, "1-2-2", 1, M,
  [n("protection", of="shots"), s("activated", "add_lives", 1, "any_own")], r="u")  # fmt: skip
c("Скальный козёл", "Crag Goat", 2, 3, "1-2-2", 2, B, [n("jump")])
c("Копьеносец перевала", "Pass Pikeman", 3, 4, "1-2-3", 1, W, [n("strike_through_row", 2)])
c("Ветеран стены", "Wall Veteran", 4, 6, "2-2-3", 1, W,
  [n("experience_defence", 2), n("steadfastness")], r="u")  # fmt: skip
c("Старейшина гор", "Mountain Elder", 7, 7, "2-3-4", 1, M,
  [n("uniqueness"), n("armour", 2), grant("all_adjacent_own", n("armour", 1))],
  g=True, r="r")  # fmt: skip
c("Громобой", "Thunderhammer", 5, 6, "2-3-4", 1, W, [n("unanswerable")], g=True, r="u")
c("Палач ущелья", "Gorge Executioner", 5, 5, "2-3-3", 1, W, [n("finishing", 2)], g=True)
c("Каменная ящерица", "Stone Lizard", 2, 3, "1-1-2", 1, B, [n("thick_skin")])
c("Пещерный медведь", "Cave Bear", 4, 6, "2-3-3", 1, B,
  [n("clumsiness", 1), s(STATIC, "block_move", None, "all_adjacent_enemy")])  # fmt: skip
c("Горный арбалетчик", "Mountain Crossbowman", 4, 3, "1-2-2", 1, H,
  [n("shot", 2), n("range", 3), n("experience_shooting", 1)], r="u")  # fmt: skip
c("Хранитель рудных жил", "Keeper of the Lodes", 3, 4, "1-1-2", 1, SP,
  [n("concentration"), n("protection", of="magic")])  # fmt: skip
c("Бронированный вепрь", "Armoured Boar", 5, 6, "2-2-4", 2, B, [n("armour", 2)], g=True)
c("Стойкий новобранец", "Steady Recruit", 1, 2, "1-1-1", 1, W, [n("steadfastness")])
c("Дозорный вершин", "Peak Watchman", 2, 3, "1-1-2", 1, H, [n("shot", 1), n("cache")])
c("Рунный жрец", "Rune Priest", 5, 4, "1-1-2", 1, M,
  [n("discharge", 2), n("experience_discharge", 1)], r="u")  # fmt: skip
c("Вождь подгорного клана", "Chief of the Underhill Clan", 8, 8, "3-4-5", 1, W,
  [n("uniqueness"), n("directed"), n("armour", 1),
   s(STATIC, "strike_bonus", 1, "all_own", cls="warrior")], g=True, r="r")  # fmt: skip
c("Ожившая скала", "Living Rock", "X", 2, "1-2-2", 1, SP,
  [s("start_of_battle", "add_lives", "x"), n("clumsiness", 1)], r="r")  # fmt: skip
c("Пращник", "Slinger", 2, 2, "1-1-2", 1, H, [n("throw", 1), n("experience_throwing", 1)])
c("Скальный мастер топора", "Crag Axemaster", 3, 4, "2-2-3", 1, W, [n("experience_attack", 1)])
c("Подгорный сапёр", "Underhill Sapper", 2, 3, "1-2-2", 1, W, [s("on_death", "wound", 1,
  "adjacent_enemy")])  # fmt: skip
fly("Горный гриф", "Mountain Vulture", 3, 3, "1-2-2", B, [n("corpse_eating")])
fly("Каменнокрыл", "Stonewing", 6, 6, "2-3-3", B, [n("armour", 1), n("thick_skin")],
    g=True, r="u")  # fmt: skip
fly("Орёл вершин", "Summit Eagle", 4, 3, "2-2-3", B, [n("accuracy")])
sym("Дух горна", "Forge Spirit", 3, 2, "1-1-1", SP, [s(STATIC, "strike_bonus", 1, "host")])
sym("Каменная кожа", "Stoneskin Spirit", 2, 2, "1-1-1", SP, [grant("host", n("armour", 1))],
    r="u")  # fmt: skip
par("Пещерная пиявка", "Cave Leech", 2, 2, "1-1-1", B, [s(STATIC, "strike_bonus", -1, "host")])
terrain("Подгорные чертоги", "Underhill Halls", 3,
        [grant("all_own", n("armour", 1), cls="warrior")], g=True, r="r")  # fmt: skip
terrain("Узкий перевал", "Narrow Pass", 2,
        [grant("all_own", n("experience_shooting", 1), cls="hunter")])  # fmt: skip
artifact("Крепостная баллиста", "Fortress Ballista", 4, 5, [n("shot", 2), n("range", 5)],
         r="u")  # fmt: skip
artifact("Наковальня предков", "Ancestors' Anvil", 3, 4,
         [s("activated", "add_lives", 1, "any_own")])  # fmt: skip
artifact("Рунный камень", "Runestone", 2, 3,
         [n("protection", of="magic"), s(STATIC, "roll_bonus", 1, "all_adjacent_own")])  # fmt: skip
equip("Боевой молот", "War Hammer", 3, ["weapon"], [s(STATIC, "strike_bonus", 1, "host")])
equip("Кольчуга подгорья", "Underhill Mail", 3, ["armour"], [grant("host", n("armour", 2))],
      r="u")  # fmt: skip
equip("Башенный щит", "Tower Shield", 2, ["shield"], [grant("host", n("protection", of="throws"))])
equip("Щит с шипом", "Spiked Buckler", 3, ["weapon", "shield"],
      [s(STATIC, "strike_bonus", 1, "host"), grant("host", n("protection", of="shots"))],
      g=True, r="r")  # fmt: skip

# --- Swamps (Болота) -----------------------------------------------------------------
element("swamps")
c("Трясинный жабоед", "Mire Toad-Eater", 1, 2, "1-1-1", 1, B, [n("corpse_eating")])
c("Гнилозуб", "Rotfang", 3, 4, "1-2-2", 1, B, [n("poison", 1)])
c("Топляк", "Drowned One", 2, 3, "1-1-2", 1, UD, [n("incarnation", 3)])
c("Тинный змей", "Silt Serpent", 4, 5, "2-2-3", 2, B, [n("plague")], r="u")
c("Болотная ведунья", "Bog Hag", 3, 3, "1-1-2", 1, M,
  [n("curse"), s(STATIC, "no_tokens", None, "all_adjacent_enemy")])  # fmt: skip
c("Ядовитая жаба", "Venom Toad", 1, 2, "1-1-1", 1, B, [n("poison", 1), n("horde")])
c("Болотный прыгун", "Marsh Leaper", 2, 3, "1-2-2", 2, B, [n("jump")])
c("Собиратель мха", "Moss Gatherer", 2, 3, "1-1-2", 1, M, [s("activated", "heal", 1, "any_own")])
c("Гниющий великан", "Rotting Giant", 6, 8, "2-3-4", 1, UD, [n("fear", 1), n("clumsiness", 1)])
c("Болотный огонёк", "Marsh Wisp", 3, 2, "1-1-2", 2, SP, [n("incorporeal"), n("teleport")],
  r="u")  # fmt: skip
c("Тростниковый стрелок", "Reed Archer", 2, 3, "1-1-2", 1, H, [n("shot", 1), n("vulnerability")])
c("Шаман топей", "Fen Shaman", 4, 3, "1-1-2", 1, M, [n("fading", 1), n("discharge", 1)], r="u")
c("Трупоед низин", "Lowland Carrion-Eater", 4, 5, "2-2-3", 1, B,
  [n("corpse_eating"), n("thirst", 1)])  # fmt: skip
c("Пиявочник", "Leech Keeper", 3, 4, "1-2-2", 1, H, [n("vampirism")])
c("Тварь из омута", "Thing from the Pool", 5, 6, "2-3-3", 1, B, [n("fear", 1), n("stealth")],
  g=True, r="u")  # fmt: skip
c("Болотный рыцарь", "Marsh Knight", 5, 6, "2-3-4", 1, W,
  [n("protection", of="poison"), n("experience_attack", 1)], g=True)  # fmt: skip
c("Чумной знахарь", "Plague Herbalist", 4, 3, "1-1-2", 1, M, [n("plague"), n("heal", 1)])
c("Хозяйка трясины", "Mistress of the Mire", 8, 7, "2-3-4", 1, M,
  [n("uniqueness"), n("curse"), n("teleport"),
   s(STATIC, "roll_bonus", -1, "all_adjacent_enemy")], g=True, r="r")  # fmt: skip
c("Полуутопленник", "Half-Drowned", 1, 3, "1-2-2", 1, UD, [n("vulnerability")])
c("Трясинный удав", "Quagmire Constrictor", 4, 5, "1-2-3", 1, B, [n("thirst", 2)])
c("Зыбун", "Quickmire Elemental", "X", 2, "1-1-1", 1, SP,
  [s("start_of_battle", "add_lives", "x"), n("incarnation", 2)], r="r")  # fmt: skip
c("Болотный охотник", "Fen Hunter", 3, 3, "1-2-2", 2, H, [n("finishing", 1)])
c("Жабий вождь", "Toad Chieftain", 5, 5, "2-2-3", 1, B,
  [s(STATIC, "strike_bonus", 1, "all_adjacent_own", cls="beast")], g=True, r="u")  # fmt: skip
c("Утопец-воитель", "Drowned Warrior", 3, 4, "1-2-3", 1, UD, [n("incarnation", 4), n("wrath")])
c("Тинная черепаха", "Silt Turtle", 3, 6, "1-1-2", 1, B, [n("thick_skin"), n("clumsiness", 1)])
fly("Кровососущий рой", "Bloodsucking Swarm", 2, 2, "1-1-1", B, [n("vampirism"), n("horde")])
fly("Цапля-падальщица", "Carrion Heron", 3, 3, "1-2-2", B, [n("poison", 1)])
fly("Мглистый нетопырь", "Gloom Bat", 4, 3, "1-2-3", B, [n("fear", 1)], r="u")
sym("Слизень-спутник", "Companion Slug", 2, 2, "1-1-1", B,
    [grant("host", n("protection", of="poison"))])  # fmt: skip
sym("Дух тумана", "Fog Spirit", 3, 2, "1-1-1", SP, [grant("host", n("stealth"))], r="u")
par("Трясинная пиявка", "Mire Leech", 2, 2, "1-1-1", B, [s("turn_start", "wound", 1, "host")])
par("Чумная блоха", "Plague Flea", 3, 2, "1-1-1", B, [n("plague")], r="u")
terrain("Гиблая топь", "Deadly Bog", 3, [grant("all_own", n("poison", 1), cls="beast")], r="u")
terrain("Туманные низины", "Foggy Lowlands", 2,
        [s(STATIC, "roll_bonus", 1, "all_own", cls="beast")])  # fmt: skip
artifact("Котёл с отравой", "Cauldron of Venom", 3, 3,
         [s("activated", "wound", 1, "any_enemy")], r="u")  # fmt: skip
artifact("Идол трясины", "Idol of the Mire", 4, 4,
         [s(STATIC, "roll_bonus", -1, "all_adjacent_enemy"),
          s(STATIC, "no_tokens", None, "all_adjacent_enemy")])  # fmt: skip
artifact("Сосуд гнили", "Jar of Rot", 2, 2, [s("on_death", "wound", 2, "adjacent_enemy")])
equip("Зазубренный гарпун", "Barbed Harpoon", 2, ["weapon"], [grant("host", n("throw", 1))])
equip("Чешуйчатая броня", "Scale Armour", 3, ["armour"],
      [grant("host", n("protection", of="poison"))])  # fmt: skip
equip("Щит из панциря", "Carapace Shield", 2, ["shield"], [grant("host", n("armour", 1))])

# --- Darkness (Тьма) -----------------------------------------------------------------
element("darkness")
c("Скелет-воин", "Skeleton Warrior", 1, 2, "1-1-2", 1, UD, [n("horde")])
c("Поднятый мертвец", "Risen Corpse", 2, 3, "1-2-2", 1, UD, [n("incarnation", 3)])
c("Тёмный адепт", "Dark Adept", 2, 2, "1-1-1", 1, M, [n("discharge", 1)])
c("Упырь-полуночник", "Midnight Ghoul", 3, 4, "1-2-3", 1, UD, [n("vampirism")])
c("Призрачный страж", "Phantom Guard", 3, 3, "1-2-2", 1, SP,
  [n("incorporeal"), n("protection", of="shots")])  # fmt: skip
c("Некромант склепа", "Crypt Necromancer", 5, 4, "1-1-2", 1, M,
  [n("resurrection", of="undead")], g=True, r="u")  # fmt: skip
c("Чернокнижник", "Warlock", 4, 3, "1-1-2", 1, M,
  [n("discharge", 2), n("experience_discharge", 1)], r="u")  # fmt: skip
c("Костяной рыцарь", "Bone Knight", 5, 6, "2-3-4", 1, UD, [n("fear", 1), n("armour", 1)],
  g=True)  # fmt: skip
c("Ночной душитель", "Night Strangler", 3, 3, "2-2-3", 2, UD,
  [n("stealth"), n("finishing", 2)], r="u")  # fmt: skip
c("Могильщик", "Gravedigger", 2, 3, "1-1-2", 1, UD, [n("resurrection", of="undead")])
c("Теневой убийца", "Shadow Assassin", 4, 3, "2-3-3", 2, W, [n("teleport"), n("directed")],
  r="u")  # fmt: skip
c("Проклятый жрец", "Accursed Priest", 3, 3, "1-1-2", 1, M, [n("curse"), n("meditation")])
c("Лич-отшельник", "Hermit Lich", 6, 5, "1-2-2", 1, UD,
  [n("meditation"), n("concentration"), n("discharge", 3)], g=True, r="r")  # fmt: skip
c("Призрак забвения", "Wraith of Oblivion", 4, 3, "1-2-2", 1, SP,
  [n("incorporeal"), n("fading", 1),
   s("activated", "lose_abilities", None, "any_enemy")])  # fmt: skip
c("Падший паладин", "Fallen Paladin", 6, 7, "2-3-4", 1, W, [n("vampirism"), n("wrath")],
  g=True, r="u")  # fmt: skip
c("Подвальная крыса", "Cellar Rat", 1, 2, "1-1-1", 2, B, [n("horde"), n("plague")])
c("Дух-мститель", "Vengeful Spirit", 3, 2, "1-2-2", 1, SP,
  [s("on_death", "wound", 2, "adjacent_enemy")])  # fmt: skip
c("Владыка Безлунной Ночи", "Lord of the Moonless Night", 9, 8, "3-4-5", 1, UD,
  [n("uniqueness"), n("vampirism"), n("fear", 2), n("protection", of="magic")],
  g=True, r="r")  # fmt: skip
c("Тёмный страж врат", "Dark Gatewarden", 4, 6, "1-2-3", 1, UD,
  [n("experience_defence", 1), n("steadfastness")])  # fmt: skip
c("Сосуд теней", "Vessel of Shadows", "X", 2, "1-1-2", 1, SP,
  [s("start_of_battle", "gain_token", "x"), n("concentration")], r="r")  # fmt: skip
c("Зомби-носильщик", "Zombie Porter", 2, 4, "1-1-1", 1, UD,
  [n("clumsiness", 1), n("incarnation", 2)])  # fmt: skip
c("Кровавый культист", "Blood Cultist", 2, 2, "1-2-2", 1, M,
  [s("after_strike", "add_lives", 1)])  # fmt: skip
c("Шепчущий во тьме", "Whisperer in the Dark", 3, 3, "1-1-2", 1, M,
  [n("redistribution", 1), s(STATIC, "death_to_deck", None, "all_adjacent_enemy")])  # fmt: skip
c("Тёмный мечник", "Dark Swordsman", 3, 4, "2-2-3", 2, W,
  [n("experience_attack", 1), n("unity", 2)])  # fmt: skip
c("Ловец душ", "Soul Catcher", 4, 4, "1-2-2", 1, M,
  [n("concentration"), s("activated", "wound", 2, "any_enemy", tokens=2),
   s("starts_with", "gain_token", 1),
   s("activated", "take_control", None, "any_enemy", tokens=3)], g=True)  # fmt: skip
fly("Нетопырь-кровопийца", "Bloodsucker Bat", 2, 2, "1-1-2", B, [n("vampirism")])
fly("Костяной змей небес", "Bone Sky-Serpent", 8, 7, "2-3-4", UD,
    [n("fear", 1), n("discharge", 2)], g=True, r="r")  # fmt: skip
fly("Горгулья", "Gargoyle", 4, 4, "1-2-3", SP, [n("thick_skin"), n("steadfastness")], r="u")
sym("Тень-спутник", "Companion Shade", 2, 2, "1-1-1", SP,
    [n("incorporeal"), s(STATIC, "strike_bonus", 1, "host")])  # fmt: skip
sym("Шёпот мёртвых", "Whisper of the Dead", 3, 2, "1-1-1", SP, [grant("host", n("fear", 1))],
    r="u")  # fmt: skip
par("Червь-пожиратель", "Devouring Worm", 2, 2, "1-1-1", B, [grant("host", n("vulnerability"))])
terrain("Проклятое кладбище", "Cursed Graveyard", 3,
        [grant("all_own", n("regeneration", 1), cls="undead")], r="u")  # fmt: skip
terrain("Башня тьмы", "Tower of Darkness", 4,
        [grant("all_own", n("experience_discharge", 1), cls="mage")], g=True, r="r")  # fmt: skip
artifact("Чёрный обелиск", "Black Obelisk", 4, 5,
         [n("discharge", 1), n("protection", of="magic")], r="u")  # fmt: skip
artifact("Череп-оберег", "Skull Ward", 2, 2, [n("fear", 1)])
artifact("Рунический саркофаг", "Runed Sarcophagus", 5, 5, [n("resurrection", of="undead")],
         g=True, r="r")  # fmt: skip
equip("Меч-кровопийца", "Bloodthirsty Sword", 3, ["weapon"], [grant("host", n("vampirism"))],
      r="u")  # fmt: skip
equip("Доспех мертвеца", "Dead Man's Armour", 2, ["armour"], [grant("host", n("armour", 1))])
equip("Щит из черепов", "Skull Shield", 2, ["shield"],
      [grant("host", n("protection", of="magic"))])  # fmt: skip

# --- Neutral (Нейтральные) -----------------------------------------------------------
element("neutral")
c("Наёмник-копейщик", "Hired Spearman", 2, 3, "1-2-2", 1, W, [n("strike_through_row", 1)])
c("Бродячий мечник", "Wandering Swordsman", 3, 4, "1-2-3", 2, W,
  [n("manoeuvre"), s(STATIC, "death_to_deck", None, "all_adjacent_own")])  # fmt: skip
c("Дорожный стражник", "Road Guard", 2, 4, "1-1-2", 1, W,
  [n("formation"), s(STATIC, "strike_bonus", 1, if_="in_formation")])  # fmt: skip
c("Странствующий маг", "Wandering Mage", 4, 3, "1-1-2", 1, M,
  [n("discharge", 1), n("protection", of="spells")], r="u")  # fmt: skip
c("Охотник за головами", "Bounty Hunter", 4, 4, "2-2-3", 2, H, [n("finishing", 1)])
c("Деревенский ополченец", "Village Militiaman", 1, 2, "1-1-1", 1, W, [n("horde")])
c("Пилигрим", "Pilgrim", 2, 3, "1-1-1", 1, M,
  [n("blessing"), s(STATIC, "prevent", 1, "all_adjacent_enemy")])  # fmt: skip
c("Дуэлянт", "Duellist", 3, 3, "2-2-2", 2, W, [n("directed"), n("unanswerable")], r="u")
c("Старый ветеран", "Old Veteran", 4, 5, "2-2-3", 1, W,
  [n("experience_attack", 1), n("experience_defence", 1)], r="u")  # fmt: skip
c("Бродячий знахарь", "Travelling Healer", 2, 2, "1-1-1", 1, M,
  [n("heal", 1), s(STATIC, "death_survive", 1, "all_adjacent_own")])  # fmt: skip
c("Прыткий вор", "Nimble Thief", 2, 2, "1-1-2", 2, H, [n("stealth"), n("manoeuvre")])
c("Железный голем", "Iron Golem", 6, 8, "2-3-4", 1, SP,
  [n("armour", 2), n("clumsiness", 1), n("vulnerability", of="magic")], g=True, r="u")  # fmt: skip
c("Странствующий рыцарь", "Knight-Errant", 5, 6, "2-3-4", 2, W,
  [n("uniqueness"), n("unanswerable")], g=True, r="r")  # fmt: skip
c("Звездочёт", "Stargazer", 3, 2, "1-1-1", 1, M,
  [n("concentration"), s("activated", "heal", 2, "any_own", tokens=2),
   s("starts_with", "gain_token", 1),
   s("activated", "take_control", None, "any_enemy", tokens=3)])  # fmt: skip
c("Дозорный заставы", "Outpost Sentry", 10, 10, "3-4-6", 1, W,
  [n("steadfastness"), n("armour", 2), n("vulnerability", of="discharges")], g=True, r="r")  # fmt: skip
fly("Вестовой сокол", "Courier Falcon", 1, 2, "1-1-1", B, [n("cache")])
fly("Наёмный грифон", "Hired Griffin", 5, 5, "2-2-3", B, g=True, r="u")
sym("Дух-хранитель", "Guardian Spirit", 3, 2, "1-1-1", SP, [grant("host", n("steadfastness"))],
    r="u")  # fmt: skip
par("Жалящий паук", "Stinging Spider", 2, 2, "1-1-1", B, [s("turn_start", "wound", 1, "host")])
terrain("Старый тракт", "Old Highway", 2, [s(STATIC, "movement_bonus", 1, "all_own", cls="hunter")])
artifact("Сторожевая башня", "Watchtower", 3, 4, [n("shot", 1), n("range", 3), n("cache")])
artifact("Походный лазарет", "Field Infirmary", 4, 4,
         [s("activated", "heal", 3, "any_own", instant=True)],
         r="u")  # fmt: skip
artifact("Кристалл силы", "Power Crystal", "X", 2,
         [s("start_of_battle", "gain_token", "x"),
          s("activated", "heal", 1, "any_own", tokens=1)], r="r")  # fmt: skip
equip("Простой меч", "Plain Sword", 1, ["weapon"], [s(STATIC, "strike_bonus", 1, "host")])
equip("Стёганка", "Padded Jacket", 1, ["armour"], [grant("host", n("armour", 1))])
equip("Круглый щит", "Round Shield", 1, ["shield"], [grant("host", n("protection", of="throws"))])
equip("Латы странника", "Wayfarer's Plate", 5, ["armour", "shield"],
      [grant("host", n("armour", 2)), grant("host", n("protection", of="shots"))],
      g=True, r="r")  # fmt: skip
equip("Знамя наёмников", "Mercenary Banner", 4, ["weapon"],
      [n("uniqueness"), s(STATIC, "strike_bonus", 1, "host"),
       s(STATIC, "strike_bonus", 1, "all_adjacent_own", cls="warrior")], g=True, r="r")  # fmt: skip


def build() -> dict:
    return {
        "code": CODE,
        "name": {"ru": "Берсерк: Пробуждение стихий", "en": "Berserk: Wakening of the Elements"},
        "released": "2026-06-01",
        "booster": BOOSTER,
        "cards": _cards,
    }


def dumps() -> str:
    return json.dumps(build(), ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = dumps()
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from engine/berserk/setdata.py")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(_cards)} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
