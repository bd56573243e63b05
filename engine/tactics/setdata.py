"""The source of ``engine/sets/tactics/tc1.json`` and ``_scenarios.json``: every card and
scenario as one Python call.

An original set: every name, text and map here is invented for Gauntlet (no printed card,
champion or scenario of Ascension Tactics is copied). The values the digest leaves to us
follow its decisions: the basic cards of D-5, the gates of D-4 (+2 power once per turn,
the first-turn bonuses of §19), a treasure bag of 24 (T-7). Each card's rules text is
generated from its data in both languages (``engine.tactics.cards.card_text``), so it
always says what the card does. To change a card, edit its call here and run::

    .venv/bin/python -m engine.tactics.setdata          # rewrite the JSON files
    .venv/bin/python -m engine.tactics.setdata --check  # compare only (exit 1 if one differs)

``tests/engine/tactics/test_cards.py`` fails when the JSON and this script disagree.

Shorthands: effects ``runes``, ``power``, ``glory``, ``draw``, ``banish``, ``acquire``,
``on_top``, ``command``, ``enter``, ``move``, ``dmg``, ``destroy``, ``treasure``,
``boost``, ``grant``, ``terrain``, and the villains' ``vcmd``, ``surge``, ``vcult``,
``vglory``; abilities ``play``, ``ambush``, ``devotion``, ``slaughter``, ``attacked``,
``on_command``, ``turn_start``, ``surge_ab``, ``threat``; cards ``reserve`` (a draftable
champion), ``champ`` (a central champion, runes), ``monster`` (power), ``hero``,
``construct``, ``villain``, ``scheme``, ``gate``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.tactics.cards import card_text

OUT_DIR = Path(__file__).resolve().parent.parent / "sets" / "tactics"
OUT = OUT_DIR / "tc1.json"
SCENARIOS_OUT = OUT_DIR / "_scenarios.json"
CODE = "TC1"

_cards: list[dict] = []
_faction: str | None = None

ENL, LIFE, MECH, VOID = "enlightened", "lifebound", "mechana", "void"
RANGED, DOUBLE, COUNTER, AREA = "ranged", "double_attack", "counter_strike", "area_attack"
STR, DEF, SPD = "strength", "defence", "speed"


# ---------------------------------------------------------------- effects
def runes(n: int) -> dict:
    return {"op": "runes", "amount": n}


def power(n: int) -> dict:
    return {"op": "power", "amount": n}


def glory(n: int) -> dict:
    return {"op": "glory", "amount": n}


def draw(n: int = 1) -> dict:
    return {"op": "draw", "count": n}


def banish(where: str = "hand_or_discard", optional: bool = True) -> dict:
    return {"op": "banish", "from": where, "optional": optional}


def acquire(type_: str, max_cost: int) -> dict:
    return {"op": "acquire", "type": type_, "max_cost": max_cost}


def on_top() -> dict:
    return {"op": "construct_on_top"}


def command(target: str = "own", discount: int | None = None) -> dict:
    effect: dict[str, Any] = {"op": "command", "target": target}
    if discount:
        effect["discount"] = discount
    return effect


def enter() -> dict:
    return {"op": "enter", "target": "own_reserve"}


def move(target: str, steps: int) -> dict:
    return {"op": "move", "target": target, "steps": steps}


def dmg(target: str, n: int) -> dict:
    return {"op": "damage", "target": target, "amount": n}


def destroy() -> dict:
    return {"op": "destroy", "target": "enemy"}


def treasure(mode: str = "gain") -> dict:
    return {"op": "treasure", "mode": mode}


def boost(stat: str, n: int, target: str = "own") -> dict:
    return {"op": "boost", "stat": stat, "amount": n, "target": target}


def grant(keyword: str, target: str = "own") -> dict:
    return {"op": "grant", "keyword": keyword, "target": target}


def terrain(kind: str) -> dict:
    return {"op": "terrain", "terrain": kind}


def vcmd(*tokens: str) -> dict:
    return {"op": "villain_command", "tokens": list(tokens)}


def surge() -> dict:
    return {"op": "surge"}


def vcult(token: str) -> dict:
    return {"op": "cultist", "token": token}


def vglory(n: int) -> dict:
    return {"op": "villain_glory", "amount": n}


# ---------------------------------------------------------------- abilities
def _ab(when: str, effects: tuple, **more: Any) -> dict:
    return {"when": when, **more, "effects": list(effects)}


def play(*effects: dict) -> dict:
    return _ab("play", effects)


def ambush(*effects: dict) -> dict:
    return _ab("ambush", effects)


def devotion(faction: str, *effects: dict) -> dict:
    return _ab("devotion", effects, faction=faction)


def slaughter(*effects: dict) -> dict:
    return _ab("slaughter", effects)


def attacked(*effects: dict) -> dict:
    return _ab("attacked", effects)


def on_command(*effects: dict) -> dict:
    return _ab("command", effects)


def turn_start(*effects: dict) -> dict:
    return _ab("turn_start", effects)


def surge_ab(*effects: dict) -> dict:
    return _ab("surge", effects)


def threat(level: int, *effects: dict) -> dict:
    return _ab("threat", effects, threat=level)


# ---------------------------------------------------------------- cards
def faction(name: str | None) -> None:
    """The faction of the cards that follow (T-22); None for neutral."""
    global _faction
    _faction = name


def _add(ru: str, en: str, type_: str, pile: str, **f: Any) -> None:
    card: dict[str, Any] = {"number": len(_cards) + 1, "name": {"ru": ru, "en": en}}
    card["type"] = type_
    card["pile"] = pile
    if type_ in ("champion", "monster", "hero", "construct", "villain") and _faction:
        card["faction"] = _faction
    for key in ("cost", "copies", "command", "strength", "defence", "speed"):
        if f.get(key) is not None and not (key == "copies" and f[key] == 1):
            card[key] = f[key]
    if f.get("keywords"):
        card["keywords"] = list(f["keywords"])
    if (f.get("figures") or 1) > 1:
        card["figures"] = f["figures"]  # T-106
    for key in ("equip", "glory", "top", "threat", "bottom", "seat", "every_turn"):
        if f.get(key) is not None:
            card[key] = f[key]
    if f.get("first_turn"):
        card["first_turn"] = f["first_turn"]
    if f.get("abilities"):
        card["abilities"] = list(f["abilities"])
    card["text"] = {"ru": card_text(card, "ru"), "en": card_text(card, "en")}
    _cards.append(card)


def reserve(ru, en, cmd, s, d, kw=(), ab=(), spd=3, figures=1):
    """A draftable champion of the reserve pool (T-7, T-16, T-76): no acquire cost;
    ``figures=2``: one card, two figures (T-106)."""
    _add(ru, en, "champion", "reserve", command=cmd, strength=s, defence=d, speed=spd,
         keywords=kw, abilities=ab, figures=figures)  # fmt: skip


def champ(ru, en, cost, cmd, s, d, kw=(), ab=(), spd=3):
    """A champion of the central deck, acquired with runes (T-29)."""
    _add(ru, en, "champion", "center", cost=cost, command=cmd, strength=s, defence=d,
         speed=spd, keywords=kw, abilities=ab)  # fmt: skip


def monster(ru, en, cost, cmd, s, d, kw=(), ab=(), spd=3):
    """A monster: a central champion acquired with power (T-21, T-30)."""
    _add(ru, en, "monster", "center", cost=cost, command=cmd, strength=s, defence=d,
         speed=spd, keywords=kw, abilities=ab)  # fmt: skip


def hero(ru, en, cost, *ab, copies=1, pile="center"):
    _add(ru, en, "hero", pile, cost=cost, copies=copies, abilities=ab)


def construct(ru, en, cost, s=0, d=0, spd=0, kw=(), ab=(), copies=1):
    equip: dict[str, Any] = {}
    for key, value in ((STR, s), (DEF, d), (SPD, spd)):
        if value:
            equip[key] = value
    if kw:
        equip["keywords"] = list(kw)
    _add(ru, en, "construct", "center", cost=cost, copies=copies, equip=equip, abilities=ab)


def villain(ru, en, glory_, s, d, kw=(), ab=(), spd=3):
    _add(ru, en, "villain", "villain", strength=s, defence=d, speed=spd, keywords=kw,
         glory=glory_, abilities=ab)  # fmt: skip


def scheme(ru, en, top, level, bottom):
    _add(ru, en, "scheme", "scheme", top=list(top), threat=level, bottom=list(bottom))


def gate(ru, en, seat, first=()):
    _add(ru, en, "gate", "gate", seat=seat, every_turn=[power(2)], first_turn=list(first))


# --- Basic cards (T-9, T-11, T-50; values D-5, D-4) ----------------------------------
faction(None)
hero("Ученик", "Apprentice", 0, play(runes(1)), copies=8, pile="starter")
hero("Ополченец", "Militia", 0, play(power(1)), copies=2, pile="starter")
hero("Мистик", "Mystic", 3, play(runes(2)), copies=15, pile="always")
hero("Тяжёлая пехота", "Heavy Infantry", 2, play(power(2)), copies=15, pile="always")
_add("Культист", "Cultist", "cultist", "cultist", command=2, strength=2, defence=1, speed=3)
gate("Врата первого", "Gate of the First", 1)
gate("Врата второго", "Gate of the Second", 2, [power(2)])
gate("Врата третьего", "Gate of the Third", 3, [power(2), runes(1)])
gate("Врата четвёртого", "Gate of the Fourth", 4, [power(2), runes(2)])

# --- The reserve: 24 draftable champions, 6 per faction (T-7, T-76) ------------------
faction(ENL)
reserve("Айра, лучница рассвета", "Aira, Dawn Archer", 3, 2, 3, [RANGED])
reserve("Тенн, хранитель огня", "Tenn, Keeper of the Flame", 3, 2, 5, [COUNTER])
reserve("Сель, провидица", "Sel the Seer", 2, 1, 3, [RANGED], [on_command(draw(1))])
reserve("Орен, паладин зари", "Oren, Paladin of Daybreak", 4, 3, 6, [COUNTER])
reserve("Илан, звёздный копейщик", "Ilan, Star Lancer", 4, 3, 4, (), [slaughter(glory(1))],
        spd=4)  # fmt: skip
reserve("Вейр, небесный каратель", "Veyr, Sky Chastiser", 5, 3, 5, [RANGED, AREA])
faction(LIFE)
reserve("Мира, травница", "Mira the Herbwife", 2, 1, 4, (),
        [on_command(boost(DEF, 2, "own_board"))])  # fmt: skip
reserve("Кай, волчий следопыт", "Kai, Wolf Tracker", 3, 3, 3, (),
        [turn_start(boost(SPD, 1, "self"))], spd=4)  # fmt: skip
reserve("Грон, дубовый страж", "Gron, Oak Warden", 4, 2, 7, [COUNTER])
reserve("Ласса, рогатая охотница", "Lassa, Antlered Huntress", 3, 2, 4, [RANGED])
reserve("Урх, медвежий шаман", "Urkh, Bear Shaman", 4, 4, 5, (), [slaughter(treasure())])
reserve("Жалящий рой", "The Stinging Swarm", 3, 2, 3, [DOUBLE], spd=4)
faction(MECH)
reserve("Страж М-7", "Ward-Engine M-7", 3, 2, 6)
reserve("Брасс, инженер", "Brass the Engineer", 2, 1, 4, (), [on_command(boost(DEF, 2, "self"))])
reserve("Кера, арбалетчица", "Kera, Bolt-Thrower", 3, 3, 3, [RANGED])
reserve("Дорн, паровой молот", "Dorn, Steam Hammer", 4, 4, 6, [AREA])
reserve("Часовой рыцарь", "Clockwork Knight", 4, 3, 5, [DOUBLE])
reserve("Това, искровая пушка", "Tova, Sparkcannon", 5, 4, 4, [RANGED], [slaughter(draw(1))])
faction(VOID)
reserve("Зара, теневой клинок", "Zara, Shadow Blade", 3, 3, 3, [DOUBLE])
reserve("Морг, пожиратель", "Morg the Devourer", 4, 4, 5, (), [slaughter(glory(1))])
reserve("Исса, пепельная ведьма", "Issa, Ash Witch", 3, 2, 3, [RANGED], [slaughter(banish())])
reserve("Рукх, костяной страж", "Rukh, Bone Sentinel", 3, 2, 5, [COUNTER])
reserve("Эль, вестник пустоты", "El, Herald of the Hollow", 5, 3, 6, [AREA],
        [attacked(dmg("attacker", 1))])  # fmt: skip
reserve("Нокс, кошмарный всадник", "Nox, Nightmare Rider", 4, 3, 4, spd=5)

# --- The central deck (T-17): 21 cards per faction ------------------------------------
faction(ENL)
hero("Ученица обсерватории", "Observatory Pupil", 2, play(runes(1), draw(1)), copies=2)
hero("Хранитель свитков", "Scroll Keeper", 3, play(runes(2)), devotion(ENL, draw(1)), copies=2)
hero("Светоносец", "Lightbearer", 4, play(runes(3)))
hero("Наставник зари", "Mentor of Daybreak", 5, play(draw(2)))
hero("Иконописец", "Icon Painter", 3, play(runes(1), power(1)), copies=2)
hero("Звездочёт башни", "Tower Stargazer", 2, play(draw(1)), ambush(draw(1)))
hero("Вестница небес", "Herald of the Heavens", 4, play(runes(2), grant(RANGED)))
hero("Архивариус", "Archivist", 6, play(acquire("hero", 4)))
hero("Мудрец сияния", "Sage of Radiance", 7, play(runes(3), draw(1)), devotion(ENL, glory(1)))
hero("Послушник света", "Novice of the Light", 1, play(runes(1)), copies=2)
construct("Посох рассвета", "Staff of Daybreak", 3, s=1, kw=[RANGED])
construct("Зеркальный щит", "Mirror Shield", 3, d=3)
construct("Нимб", "Halo", 4, d=2, kw=[COUNTER])
construct("Звёздный лук", "Star Bow", 5, s=2, kw=[RANGED])
construct("Оберег прозрения", "Charm of Insight", 2, d=1, ab=[slaughter(draw(1))])
champ("Рыцарь-пилигрим", "Pilgrim Knight", 5, 3, 3, 5)
champ("Лучник зенита", "Zenith Archer", 6, 4, 3, 4, [RANGED])
champ("Страж святилища", "Shrine Guardian", 7, 4, 3, 7, [COUNTER])
monster("Падший херувим", "Fallen Cherub", 4, 3, 3, 4, [RANGED])
monster("Каменный грифон", "Stone Griffin", 6, 4, 4, 6, spd=4)
monster("Сияющий колосс", "Radiant Colossus", 8, 5, 5, 8, [AREA], [slaughter(glory(2))])

faction(LIFE)
hero("Лесной гонец", "Forest Runner", 2, play(power(1), boost(SPD, 2)), copies=2)
hero("Друид рощи", "Grove Druid", 3, play(power(2)), devotion(LIFE, power(1)), copies=2)
hero("Певчая птица", "Songbird", 2, play(power(1)), ambush(treasure()))
hero("Искательница кладов", "Treasure Seeker", 4, play(treasure(), power(1)))
hero("Старейшина племени", "Tribe Elder", 5, play(power(3)))
hero("Целительница ран", "Wound-Tender", 3, play(power(1), boost(DEF, 2)), copies=2)
hero("Сеятель", "Sower", 3, play(runes(2)), devotion(LIFE, boost(STR, 1)))
hero("Дух дикой тропы", "Spirit of the Wild Path", 4, play(power(1), move("own_board", 2)))
hero("Зов стаи", "Call of the Pack", 6, play(power(2), command("own", 2)))
hero("Собиратель мёда", "Honey Gatherer", 1, play(power(1)), copies=2)
construct("Когти зверя", "Beast Claws", 2, s=2)
construct("Венец из лоз", "Crown of Vines", 3, d=2, spd=1)
construct("Шкура вожака", "Pack-Leader's Hide", 4, d=3, kw=[COUNTER])
construct("Сапоги ветра", "Boots of the Wind", 2, spd=2)
construct("Тотем охоты", "Hunting Totem", 5, s=2, ab=[slaughter(treasure())])
champ("Лесная рысь", "Forest Lynx", 4, 3, 3, 3, spd=5)
champ("Древо-страж", "Treeguard", 7, 5, 4, 8, [COUNTER])
champ("Сокольничая", "Falconer", 5, 3, 2, 4, [RANGED], [on_command(treasure("reveal"))])
monster("Болотная гидра", "Marsh Hydra", 5, 4, 3, 6, [DOUBLE])
monster("Дикий секач", "Wild Razorback", 3, 2, 3, 3)
monster("Громовой лось", "Thunder Elk", 6, 4, 4, 5, spd=5)

faction(MECH)
hero("Подмастерье кузни", "Forge Journeyman", 2, play(runes(1), on_top()), copies=2)
hero("Полевой механик", "Field Mechanic", 3, play(runes(2)), devotion(MECH, runes(1)), copies=2)
hero("Изобретатель", "Tinkerer", 4, play(acquire("construct", 3)))
hero("Шестерёнщица", "Cogwright", 2, play(runes(1)), devotion(MECH, draw(1)), copies=2)
hero("Литейщик", "Foundryman", 5, play(runes(3), on_top()))
hero("Оружейница", "Armsmith", 3, play(power(1), boost(STR, 2)))
hero("Паровой работник", "Steam Hand", 1, play(runes(1)), copies=2)
hero("Главный конструктор", "Chief Designer", 6, play(runes(2), draw(2)))
hero("Дрон-разведчик", "Scout Drone", 2, play(power(1)), ambush(draw(1)))
hero("Мастер щитов", "Shieldmaster", 4, play(runes(1), boost(DEF, 3)))
construct("Пневмомолот", "Pneumatic Hammer", 3, s=3)
construct("Экзоскелет", "Exoframe", 5, s=1, d=4)
construct("Наплечная турель", "Shoulder Turret", 4, s=1, kw=[RANGED])
construct("Пружинные поножи", "Spring Greaves", 2, d=1, spd=2)
construct("Клинки-маятники", "Pendulum Blades", 5, kw=[DOUBLE])
champ("Голем-кузнец", "Forge Golem", 6, 4, 4, 6)
champ("Дрон-снайпер", "Sniper Drone", 5, 3, 2, 3, [RANGED], spd=4)
champ("Осадный автоматон", "Siege Automaton", 8, 5, 5, 7, [RANGED, AREA])
monster("Ржавый паук", "Rust Spider", 4, 3, 2, 5, [COUNTER])
monster("Взбесившийся автомат", "Runaway Automaton", 6, 4, 4, 5, [DOUBLE])
monster("Железный змей", "Iron Wyrm", 9, 6, 6, 8, [RANGED, AREA])

faction(VOID)
hero("Пепельный аколит", "Ash Acolyte", 2, play(power(1), banish()), copies=2)
hero("Жнец теней", "Shadow Harvester", 4, play(power(2), banish()))
hero("Проклинатель", "Hexer", 3, play(dmg("enemy", 2)), copies=2)
hero("Поглотитель", "Hollow Eater", 5, play(power(3)))
hero("Шепчущий", "The Whisperer", 3, play(power(2)), devotion(VOID, dmg("enemy", 1)))
hero("Разрушитель", "Wrecker", 4, play(power(1), destroy()))
hero("Сеятель порчи", "Blight Sower", 2, play(power(1), terrain("corrupted")), copies=2)
hero("Пожиратель рядов", "Devourer of Rows", 3, play(power(1), banish("row", optional=False)))
hero("Гонец бездны", "Courier of the Abyss", 5, play(power(2), enter()))
hero("Владыка ужаса", "Lord of Dread", 7, play(power(4), dmg("enemy", 2)))
construct("Клинок бездны", "Abyss Blade", 3, s=2, ab=[slaughter(glory(1))])
construct("Плащ теней", "Cloak of Shadows", 2, d=2)
construct("Череп ужаса", "Skull of Dread", 4, kw=[AREA])
construct("Цепи мучений", "Chains of Torment", 3, s=1, ab=[slaughter(banish())])
construct("Кровавый венец", "Blood Crown", 5, s=2, d=2)
champ("Теневая гончая", "Shadow Hound", 4, 3, 3, 3, [DOUBLE])
champ("Жрица разлома", "Rift Priestess", 6, 4, 2, 5, [RANGED], [slaughter(banish())])
champ("Демон-палач", "Executioner Demon", 8, 5, 5, 6, [DOUBLE])
monster("Тварь из бездны", "Abyssal Horror", 7, 5, 5, 7, (), [slaughter(glory(2))])
monster("Голодный упырь", "Hungry Ghoul", 3, 2, 2, 3, (), [slaughter(power(1))])
monster("Кошмарный призрак", "Nightmare Wraith", 5, 4, 3, 5, [AREA])

# --- The villains (T-81..T-94): 2 bosses (glory >= 4, a Surge), 6 others ---------------
faction(VOID)
villain("Пепельная королева", "The Ash Queen", 5, 5, 9, [RANGED],
        [surge_ab(vcult("c"), boost(STR, 1, "all_villains"))])  # fmt: skip
villain("Пепельный мародёр", "Ash Marauder", 2, 3, 4, [DOUBLE])
villain("Ведьма-отступница", "Renegade Witch", 3, 3, 4, [RANGED],
        [threat(4, boost(STR, 2, "self"))])  # fmt: skip
villain("Бешеный пёс", "Rabid Hound", 1, 2, 2, spd=5)
faction(MECH)
villain("Ржавый повелитель", "The Rust Overlord", 6, 6, 10, [AREA, COUNTER],
        [surge_ab(dmg("all_adjacent_enemies", 4))])  # fmt: skip
villain("Чумной голем", "Plague Golem", 3, 3, 6, [COUNTER])
villain("Гнилой стрелок", "Rotten Bowman", 2, 2, 3, [RANGED])
villain("Скелет-знаменосец", "Skeleton Standard-Bearer", 1, 2, 3, (),
        [threat(6, boost(DEF, 2, "all_villains"))])  # fmt: skip

# --- The schemes (T-85): the top effect, the threat level, the bottom effect -----------
scheme("Сбор под знамёна", "Muster", [vcmd("a", "b")], 3, [vcult("c")])
scheme("Гнев короны", "Wrath of the Crown", [vcmd("boss")], 5, [surge()])
scheme("Тёмный обряд", "Dark Rite", [vcult("c")], 2, [vcmd("c")])
scheme("Клещи", "Pincers", [vcmd("b", "c")], 6, [boost(STR, 1, "all_villains")])
scheme("Набег", "Raid", [vcmd("a")], 4, [vcmd("a")])
scheme("Осада святилищ", "Siege of the Shrines", [vglory(2)], 5, [vglory(2)])
scheme("Ночной марш", "Night March", [vcmd("c", "a")], 7, [boost(SPD, 2, "all_villains")])
scheme("Западня", "Snare", [vcmd("b")], 3, [dmg("enemy", 2)])
scheme("Пробуждение", "Awakening", [surge()], 8, [vcmd("boss")])
scheme("Стена щитов", "Shield Wall", [boost(DEF, 2, "all_villains")], 4, [vcmd("b")])
scheme("Тень над полем", "Shadow over the Field", [terrain("corrupted")], 6,
       [vcmd("a", "b", "c")])  # fmt: skip
scheme("Жатва", "Reaping", [vcmd("a", "c")], 5, [vcult("a")])
scheme("Зов орды", "Call of the Horde", [vcult("a"), vcult("b")], 7, [surge()])
scheme("Приказ владыки", "The Overlord's Order", [vcmd("boss", "a")], 9, [vglory(3)])
scheme("Разведка боем", "Reconnaissance in Force", [vcmd("c")], 2,
       [boost(SPD, 1, "all_villains")])  # fmt: skip
scheme("Беспощадность", "Ruthlessness", [boost(STR, 1, "all_villains")], 4, [vcmd("boss")])
# the second part of the deck (decision 0055): 26 schemes, so that the discard of Hard
# and Nightmare (T-101) shortens the game without deciding it; high threat levels, so
# that the difficulty also wakes the bottom effects sooner
scheme("Охотничий рог", "Hunting Horn", [vcmd("a")], 5, [vcmd("c")])
scheme("Чёрные знамёна", "Black Banners", [vcult("c")], 6, [boost(DEF, 1, "all_villains")])
scheme("Кровавая дань", "Blood Tithe", [vglory(1)], 8, [vcult("b"), vcmd("b")])
scheme("Засада у брода", "Ambush at the Ford", [vcmd("b", "a")], 9, [dmg("enemy", 3)])
scheme("Пеплопад", "Ashfall", [vcmd("boss")], 10, [vglory(3)])
scheme("Тлеющая земля", "Smouldering Earth", [terrain("corrupted")], 10, [surge()])
scheme("Последний обряд", "Last Rites", [dmg("enemy", 2)], 11, [vglory(3)])
scheme("Взор королевы", "The Queen's Gaze", [vcmd("boss")], 12, [vcmd("a", "b")])
scheme("Шёпот в пепле", "Whispers in the Ash", [vcmd("c")], 5, [vcult("c")])
scheme("Лазутчики логова", "Scouts of the Lair", [vcmd("a")], 5, [boost(SPD, 1, "all_villains")])

# A draftable champion of two figures (T-106), added last so that no card number moves.
faction(VOID)
reserve("Близнецы Сумрака", "The Dusk Twins", 4, 2, 3, spd=4, figures=2)
faction(None)

TREASURES = [  # T-7: 24 tokens; the kinds of §19 (the boosts of T-67)
    {"count": 8, "boost": {STR: 2}},
    {"count": 8, "boost": {DEF: 2}},
    {"count": 6, "boost": {SPD: 1}},
    {"count": 2, "grant": RANGED},
]


def ids(*names: str) -> list[str]:
    """Card ids by English name."""
    by_name = {c["name"]["en"]: c["number"] for c in _cards}
    return [f"{CODE}-{by_name[n]:03d}" for n in names]


# ---------------------------------------------------------------- scenarios
_scenarios: list[dict] = []


def cells(*pairs: tuple[int, int]) -> list[str]:
    return [f"{q},{r}" for q, r in pairs]


def mirrored(*pairs: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells and their point reflections (q, r) -> (-q, -r): a fair 2-sided map."""
    out: list[tuple[int, int]] = []
    for q, r in pairs:
        for cell in ((q, r), (-q, -r)):
            if cell not in out:
                out.append(cell)
    return out


def scenario(key: str, ru: str, en: str, rules: tuple[str, str], radius: int, *,
             terrain_: dict[str, list[tuple[int, int]]], treasure_: list[tuple[int, int]],
             modes: dict, enchanted: dict | None = None, removed=(),
             shrine_glory: int = 2) -> None:  # fmt: skip
    ter: dict[str, str] = {}
    for kind, where in terrain_.items():
        for cell in cells(*where):
            assert cell not in ter, (key, cell)
            ter[cell] = kind
    data: dict[str, Any] = {
        "key": key,
        "number": len(_scenarios) + 1,
        "name": {"ru": ru, "en": en},
        "rules": {"ru": rules[0], "en": rules[1]},
        "board": {"radius": radius, "removed": cells(*removed)},
        "terrain": dict(sorted(ter.items(), key=lambda kv: _cell_order(kv[0]))),
        "enchanted": enchanted or {},
        "shrine_glory": shrine_glory,
        "treasure": cells(*treasure_),
        "modes": modes,
    }
    if not removed:
        del data["board"]["removed"]
    _scenarios.append(data)


def _cell_order(text: str) -> tuple[int, int]:
    q, r = text.split(",")
    return (int(r), int(q))


def portals(**seats: tuple[int, int] | list[tuple[int, int]]) -> dict[str, list[str]]:
    out = {}
    for seat, where in seats.items():
        where_list = where if isinstance(where, list) else [where]
        out[seat.lstrip("s")] = cells(*where_list)
    return out


SOLO_SCHEMES = ids(*(c["name"]["en"] for c in _cards if c["type"] == "scheme"))

# S1: two players. Radius 5 (91 cells), symmetric under (q, r) -> (-q, -r).
scenario(
    "stone_crossroads", "Каменный перекрёсток", "Stone Crossroads",
    ("Побеждает игрок, первым набравший 30 славы. Святилище в центре приносит 2 славы, "
     "как и два боковых.",
     "The first player to reach 30 glory wins. The central shrine gives 2 glory, as do "
     "the two side shrines."),
    5,
    terrain_={
        "shrine": [(0, 0), (-3, 0), (3, 0)],
        "forest": mirrored((1, 1), (-2, 3), (2, 2), (-4, 4)),
        "corrupted": mirrored((0, 2)),
        "disabled_portal": mirrored((-5, 5)),
    },
    treasure_=mirrored((-1, 3), (3, 1), (-3, 3)),
    modes={
        "duel": {
            "portals": portals(s1=(0, 5), s2=(0, -5)),
            "victory": {"glory": 30},
            "reserves": {
                "1": ids("Aira, Dawn Archer", "Gron, Oak Warden", "Dorn, Steam Hammer",
                         "Zara, Shadow Blade"),
                "2": ids("Oren, Paladin of Daybreak", "Lassa, Antlered Huntress",
                         "Clockwork Knight", "Morg the Devourer"),
            },
        },
    },
)  # fmt: skip

# S2: free-for-all for 3 or 4. Radius 6 (127 cells); each seat's portal on an edge, the
# same distance from the centre; seats 3 and 4 are the mirror of 1 and 2.
scenario(
    "four_spires", "Четыре шпиля", "Four Spires",
    ("Каждый сам за себя. Побеждает игрок, первым набравший 25 славы. Центральное "
     "святилище окружено лесом; четыре малых святилища стоят у шпилей.",
     "Every player for themselves. The first to reach 25 glory wins. The central shrine "
     "is ringed by forest; four small shrines stand by the spires."),
    6,
    terrain_={
        "shrine": [(0, 0), (-2, 4), (4, -2), (2, -4), (-4, 2)],
        "forest": [(1, -1), (-1, 1), (2, 0), (-2, 0), (0, 2), (0, -2)],
        "enchanted": [(3, 3), (-3, -3)],
        "corrupted": [(5, 0), (-5, 0), (0, 5), (0, -5)],
        "disabled_portal": [(6, -6), (-6, 6)],
    },
    enchanted={
        "-3,-3": {"impassable": True, "blocks_los": True},
        "3,3": {"impassable": True, "blocks_los": True},
    },
    treasure_=[(1, 1), (-1, -1), (4, -4), (-4, 4), (2, 3), (-2, -3), (3, -5), (-3, 5)],
    modes={
        "ffa": {
            "portals": portals(s1=(-3, 6), s2=(6, -3), s3=(3, -6), s4=(-6, 3)),
            "victory": {"glory": 25},
        },
    },
)  # fmt: skip

# S3: 2 vs 2. Radius 6; a chasm of impassable enchanted land splits the field, crossed by
# three fords; team 1 (seats 1 and 3) starts in the south, team 2 (2 and 4) in the north.
_chasm = [(-6, 0), (-5, 0), (-3, 0), (-2, 0), (2, 0), (3, 0), (5, 0), (6, 0)]
scenario(
    "two_shores", "Два берега", "Two Shores",
    ("Команда против команды. Пропасть пересекают три брода. Побеждает команда, первой "
     "набравшая 40 славы; святилища у бродов приносят по 3 славы. Маяки: команда, "
     "контролирующая оба маяка, в конце своего хода получает ещё 2 славы.",
     "Team against team. Three fords cross the chasm. The first team to reach 40 glory "
     "wins; the shrines by the fords give 3 glory each. Beacons: a team controlling both "
     "beacons gains 2 more glory at the end of its turn."),
    6,
    terrain_={
        "enchanted": _chasm,
        "shrine": [(0, 0), (-4, 0), (4, 0)],
        "forest": mirrored((-1, 3), (2, 2), (-4, 5)),
        "corrupted": mirrored((1, -1)),
        "beacon": [(-2, 6), (2, -6)],
    },
    enchanted={cell: {"impassable": True, "blocks_los": False} for cell in cells(*_chasm)},
    shrine_glory=3,
    treasure_=mirrored((0, 3), (-3, 4), (4, 1)),
    modes={
        "teams": {
            "portals": portals(s1=(-3, 6), s2=(3, -6), s3=(3, 3), s4=(-3, -3)),
            "teams": [[1, 3], [2, 4]],
            "victory": {"glory": 40},
            "beacon_glory": 2,
        },
    },
)  # fmt: skip

# S4: solo (also co-op and archvillain) against the villains. Radius 5.
_villains = ids("The Ash Queen", "Ash Marauder", "Renegade Witch", "Rotten Bowman")
_solo = {
    "villain_entry": cells((0, -5), (-1, -4), (1, -5)),
    "targets": {"boss": "0,0", "a": "-3,3", "b": "3,0", "c": "0,3"},
    "villains": _villains,
    "schemes": SOLO_SCHEMES,
}
scenario(
    "ash_queens_lair", "Логово Пепельной королевы", "Lair of the Ash Queen",
    ("Игра против злодеев. Игрок побеждает, набрав 20 славы (в совместной игре — 38 на "
     "двоих); злодеи — набрав 24 славы или если им нужно открыть карту замыслов, а колода "
     "пуста. Жетон короны лежит на центральном святилище, остальные жетоны целей — на "
     "подступах к нему. Порченая земля вокруг логова не вредит злодеям.",
     "Against the villains. The player wins at 20 glory (in co-op, 38 together); the "
     "villains win at 24 glory, or when they must reveal a scheme from an empty deck. The "
     "crown token lies on the central shrine, the other target tokens on the approaches "
     "to it. The corrupted land around the lair does not harm the villains."),
    5,
    terrain_={
        "shrine": [(0, 0), (-4, 2), (4, -2)],
        "forest": [(1, 1), (-1, -1), (-3, 1), (3, -1), (-2, 3), (2, -3)],
        "corrupted": [(-1, -3), (1, -4), (2, -5)],
        "enchanted": [(3, 1), (-3, -1)],
        "disabled_portal": [(-5, 5), (5, -5)],
    },
    enchanted={
        "-3,-1": {"impassable": False, "blocks_los": False, "aura": {DEF: 1}},
        "3,1": {"impassable": False, "blocks_los": False, "aura": {DEF: 1}},
    },
    treasure_=[(0, 2), (-4, 0), (4, 0), (-3, 4), (3, -4)],
    modes={
        "solo": {
            "portals": portals(s1=(0, 5)),
            "victory": {"glory": 20, "villain_glory": 24},  # decision 0055
            "reserves": {"1": ids("Aira, Dawn Archer", "Gron, Oak Warden",
                                  "Clockwork Knight", "Nox, Nightmare Rider")},
            **_solo,
        },
        "coop": {
            "portals": portals(s1=(-2, 5), s2=(2, 3)),
            "victory": {"glory": 38, "villain_glory": 24},
            **_solo,
        },
        "archvillain": {
            "portals": portals(s1=(0, 5)),
            "victory": {"glory": 20, "villain_glory": 24},  # decision 0055
            **_solo,
        },
    },
)  # fmt: skip


def build() -> dict:
    return {
        "code": CODE,
        "name": {"ru": "Тактика Восхождения: Первый поход", "en": "Ascension Tactics: First March"},
        "released": "2026-09-01",
        "treasures": TREASURES,
        "cards": _cards,
    }


def build_scenarios() -> dict:
    return {"system": "tactics", "scenarios": _scenarios}


def _dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def outputs() -> dict[Path, str]:
    """Every file this source writes, with its text."""
    return {OUT: _dumps(build()), SCENARIOS_OUT: _dumps(build_scenarios())}


def main(argv: list[str]) -> int:
    files = outputs()
    if "--check" in argv:
        stale = [p for p, text in files.items()
                 if not p.exists() or p.read_text(encoding="utf-8") != text]  # fmt: skip
        for path in stale:
            print(f"{path} differs from engine/tactics/setdata.py")
        if not stale:
            print("up to date")
        return 1 if stale else 0
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    print(f"{len(_cards)} cards, {len(_scenarios)} scenarios")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
