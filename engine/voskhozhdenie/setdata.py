"""The source of the «Восхождение» set files ``engine/sets/voskhozhdenie/vs*.json``.

The JSON files are what the game reads (``engine.voskhozhdenie.loader``, format:
docs/card-format.md); this module is how they are written. Every card is one call
(``b.S(...)`` for a Squad, ``b.C`` City, ``b.T`` Tactic, ``b.O`` Order, ``b.R`` Relic,
``b.F`` Fortification, ``b.P`` Patron, ``b.M`` Minor Squad) whose abilities are built by
small functions returning the JSON ability together with its English and Russian wording,
so the rules text of a card always says exactly what its abilities do. To change a card,
change its call here and run::

    .venv/bin/python -m engine.voskhozhdenie.setdata          # rewrite the JSON
    .venv/bin/python -m engine.voskhozhdenie.setdata --check  # compare only (exit 1)

``tests/engine/test_cards.py`` fails when the JSON and this module disagree.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parent.parent / "sets" / "voskhozhdenie"


# ====================================================================== wording


def plural_ru(n, one: str, few: str, many: str) -> str:
    if n == "X":
        return many
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def cards_en(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def cards_ru(n: int) -> str:
    return "карту" if n == 1 else f"{n} {plural_ru(n, 'карту', 'карты', 'карт')}"


def coins_en(n) -> str:
    if n == "X":
        return "X coins"
    return f"{n} coin" + ("" if n == 1 else "s")


def coins_ru(n) -> str:
    if n == "X":
        return "X монет"
    return f"{n} {plural_ru(n, 'монету', 'монеты', 'монет')}"


def amount(n):
    return {"x": True} if n == "X" else n


def lower1(s: str) -> str:
    return s[:1].lower() + s[1:] if s else s


def upper1(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def nodot(s: str) -> str:
    return s[:-1] if s.endswith(".") else s


# How a card refers to itself: en, ru nominative, ru accusative, ru gender (m/f/n).
SELF_NAMES = {
    "city": ("this City", "этот город", "этот город", "m"),
    "squad": ("this Squad", "этот отряд", "этот отряд", "m"),
    "tactic": ("this Tactic", "эта тактика", "эту тактику", "f"),
    "order": ("this Order", "этот приказ", "этот приказ", "m"),
    "relic": ("this Relic", "эта реликвия", "эту реликвию", "f"),
    "fortification": ("this Fortification", "это укрепление", "это укрепление", "n"),
    "patron": ("this Patron", "этот покровитель", "этого покровителя", "m"),
}
GENDER_END = {"m": "", "f": "а", "n": "о"}


@dataclass
class Tgt:
    sel: dict
    en: str
    ru_nom: str
    ru_acc: str = ""
    plural: bool = False
    gender: str = "m"

    def phr(self, ctype: str, case: str = "en") -> str:
        text = {"en": self.en, "nom": self.ru_nom, "acc": self.ru_acc or self.ru_nom}[case]
        # A Russian participial phrase after its noun is closed by a comma (",." is fixed later).
        return text + "," if case != "en" and ", " in text else text


class SelfTgt(Tgt):
    def phr(self, ctype: str, case: str = "en") -> str:
        en, nom, acc, _ = SELF_NAMES[ctype]
        return {"en": en, "nom": nom, "acc": acc}[case]


SELF = SelfTgt({"select": "self"}, "", "")


def choose(filt: dict, en: str, nom: str, acc: str = "", gender="m", optional=False, count=None):
    sel: dict[str, Any] = {"select": "choose", "filter": filt}
    if count is not None:
        sel["count"] = count
    if optional:
        sel["optional"] = True
    return Tgt(sel, en, nom, acc, plural=bool(count and count > 1), gender=gender)


def every(filt: dict, en: str, nom: str, acc: str = "", gender="m"):
    return Tgt({"select": "all", "filter": filt}, en, nom, acc, plural=True, gender=gender)


EVENT_CARD = Tgt({"select": "event_card"}, "that card", "эта карта", "эту карту", gender="f")
EVENT_SQUAD = Tgt({"select": "event_card"}, "that Squad", "этот отряд")


def verb(t: Tgt, en_sg: str, en_pl: str, ru_sg: str, ru_pl: str, ctype: str):
    plural = t.plural and not isinstance(t, SelfTgt)
    return (en_pl if plural else en_sg), (ru_pl if plural else ru_sg)


@dataclass
class Eff:
    op: dict
    en: Any  # callable(ctype) -> str, or str
    ru: Any

    def render(self, ctype: str) -> tuple[str, str]:
        en = self.en(ctype) if callable(self.en) else self.en
        ru = self.ru(ctype) if callable(self.ru) else self.ru
        return en, ru.replace(",.", ".")


def _who(player: str, en_you: str, en_other: str, ru_you: str, ru_other: str):
    """Sentences for the acting player: 'you' (imperative) or another."""
    names = {
        "each_opponent": ("Each opponent", "Каждый оппонент"),
        "choose_opponent": ("Target opponent", "Выбранный оппонент"),
        "each_player": ("Each player", "Каждый игрок"),
        "defender": ("The defending player", "Защищающийся игрок"),
    }
    if player == "you":
        return en_you, ru_you
    en_name, ru_name = names[player]
    return f"{en_name} {en_other}", f"{ru_name} {ru_other}"


def _with_player(op: dict, player: str) -> dict:
    if player != "you":
        op["player"] = player
    return op


# ---- dynamic effects ----


def draw(n: int, player: str = "you") -> Eff:
    en, ru = _who(
        player,
        f"Draw {cards_en(n)}.",
        f"draws {cards_en(n)}.",
        f"Возьмите {cards_ru(n)}.",
        f"берёт {cards_ru(n)}.",
    )
    return Eff(_with_player({"op": "draw", "count": amount(n)}, player), en, ru)


def discard(n: int, player: str = "you") -> Eff:
    en, ru = _who(
        player,
        f"Discard {cards_en(n)}.",
        f"discards {cards_en(n)}.",
        f"Сбросьте {cards_ru(n)}.",
        f"сбрасывает {cards_ru(n)}.",
    )
    return Eff(_with_player({"op": "discard", "count": n}, player), en, ru)


def mill(n: int, player: str = "each_opponent") -> Eff:
    top_en = "the top card" if n == 1 else f"the top {n} cards"
    top_ru = (
        "верхнюю карту"
        if n == 1
        else f"{n} {plural_ru(n, 'верхнюю карту', 'верхние карты', 'верхних карт')}"
    )
    en, ru = _who(
        player,
        f"Put {top_en} of your Main Deck into your Graveyard.",
        f"puts {top_en} of their Main Deck into their Graveyard.",
        f"Положите {top_ru} вашей основной колоды в кладбище.",
        f"кладёт {top_ru} своей основной колоды в своё кладбище.",
    )
    return Eff(_with_player({"op": "mill", "count": n}, player), en, ru)


def gain(n, player: str = "you") -> Eff:
    en, ru = _who(
        player,
        f"Gain {coins_en(n)}.",
        f"gains {coins_en(n)}.",
        f"Получите {coins_ru(n)}.",
        f"получает {coins_ru(n)}.",
    )
    return Eff(_with_player({"op": "gain_coins", "amount": amount(n)}, player), en, ru)


def lose(n, player: str = "each_opponent") -> Eff:
    en, ru = _who(
        player,
        f"Lose {coins_en(n)}.",
        f"loses {coins_en(n)}.",
        f"Потеряйте {coins_ru(n)}.",
        f"теряет {coins_ru(n)}.",
    )
    return Eff(_with_player({"op": "lose_coins", "amount": amount(n)}, player), en, ru)


def supply_up(n: int = 1) -> Eff:
    return Eff(
        {"op": "change_supply", "amount": n},
        f"Increase your Supply value by {n}.",
        f"Увеличьте ваш запас припасов на {n}.",
    )


def wound(n, t: Tgt) -> Eff:
    return Eff(
        {"op": "wound", "amount": amount(n), "target": t.sel},
        lambda c: f"Wound {t.phr(c)} by {n}.",
        lambda c: f"Раньте {t.phr(c, 'acc')} на {n}.",
    )


def _simple(op: str, en: str, ru: str):
    def build(t: Tgt) -> Eff:
        return Eff(
            {"op": op, "target": t.sel},
            lambda c: en.format(t=t.phr(c)),
            lambda c: ru.format(t=t.phr(c, "acc")),
        )

    return build


heal = _simple("heal", "Heal {t}.", "Исцелите {t}.")
restore = _simple("restore", "Restore {t}.", "Восстановите {t}.")
destroy = _simple("destroy", "Destroy {t}.", "Уничтожьте {t}.")
exile = _simple("exile", "Put {t} into Oblivion.", "Отправьте {t} в Небытие.")
unassign = _simple("unassign", "Remove {t} from its Tactic.", "Выведите {t} из тактики.")
to_bottom = _simple(
    "to_bottom_of_deck",
    "Put {t} on the bottom of its owner's Main Deck.",
    "Положите {t} под низ основной колоды владельца.",
)
play_free = _simple(
    "play_free", "Play {t} without paying its cost.", "Разыграйте {t}, не оплачивая стоимость."
)
from_graveyard = _simple("return_from_graveyard", "Return {t} to your hand.", "Верните {t} в руку.")


def bounce(t: Tgt) -> Eff:
    def en(c):
        return f"Return {t.phr(c)} to " + (
            "their owners' hands." if t.plural else "its owner's hand."
        )

    def ru(c):
        return f"Верните {t.phr(c, 'acc')} в " + (
            "руки владельцев." if t.plural else "руку владельца."
        )

    return Eff({"op": "return_to_hand", "target": t.sel}, en, ru)


DURATION = {
    "turn": (" until end of turn", " до конца хода"),
    "round": (" until end of round", " до конца раунда"),
    "permanent": ("", ""),
}


def pump(n: int, t: Tgt, duration: str = "turn") -> Eff:
    sign = f"+{n}" if n >= 0 else f"−{-n}"
    d_en, d_ru = DURATION[duration]

    def en(c):
        v, _ = verb(t, "gets", "get", "", "", c)
        return upper1(f"{t.phr(c)} {v} {sign} Strength{d_en}.")

    def ru(c):
        _, v = verb(t, "", "", "получает", "получают", c)
        return upper1(f"{t.phr(c, 'nom')} {v} {sign} к силе{d_ru}.")

    return Eff(
        {"op": "modify_strength", "amount": n, "target": t.sel, "duration": duration}, en, ru
    )


KW = {"zeal": ("Zeal", "Рвение"), "reinforcement": ("Reinforcement", "Подкрепление")}


def grant(kw: str, t: Tgt, duration: str = "round") -> Eff:
    d_en, d_ru = DURATION[duration]

    def en(c):
        v, _ = verb(t, "gains", "gain", "", "", c)
        return upper1(f"{t.phr(c)} {v} {KW[kw][0]}{d_en}.")

    def ru(c):
        _, v = verb(t, "", "", "получает", "получают", c)
        return upper1(f"{t.phr(c, 'nom')} {v} {KW[kw][1]}{d_ru}.")

    return Eff(
        {"op": "grant_keyword", "keyword": kw, "target": t.sel, "duration": duration}, en, ru
    )


def look(n: int) -> Eff:
    if n == 1:
        return Eff(
            {"op": "look_at_top", "count": 1},
            "Look at the top card of your Main Deck.",
            "Посмотрите верхнюю карту вашей основной колоды.",
        )
    return Eff(
        {"op": "look_at_top", "count": n},
        f"Look at the top {n} cards of your Main Deck.",
        f"Посмотрите {n} {plural_ru(n, 'верхнюю карту', 'верхние карты', 'верхних карт')} "
        "вашей основной колоды.",
    )


MINORS: dict[str, tuple[str, str, str]] = {}  # id -> (en name, ru name, type)
MINOR_TYPE = {
    "squad": (("Minor Squad", "Minor Squads"), ("малый отряд", "малых отряда", "малых отрядов")),
}


def create(card_id: str, n: int = 1) -> Eff:
    def en(c):
        name_en, _, ctype = MINORS[card_id]
        kind = MINOR_TYPE[ctype][0][0 if n == 1 else 1]
        return f"Create a {kind} «{name_en}»." if n == 1 else f"Create {n} {kind} «{name_en}»."

    def ru(c):
        _, name_ru, ctype = MINORS[card_id]
        one, few, many = MINOR_TYPE[ctype][1]
        if n == 1:
            return f"Создайте {one} «{name_ru}»."
        return f"Создайте {n} {plural_ru(n, one, few, many)} «{name_ru}»."

    op: dict[str, Any] = {"op": "create_minor", "card": card_id}
    if n != 1:
        op["count"] = n
    return Eff(op, en, ru)


def choose_one(*options: list[Eff]) -> Eff:
    def part(opt, c, i):
        return (" and " if i == 0 else " и ").join(nodot(lower1(e.render(c)[i])) for e in opt)

    def en(c):
        return "Choose one: " + "; or ".join(part(o, c, 0) for o in options) + "."

    def ru(c):
        return "Выберите одно: " + "; или ".join(part(o, c, 1) for o in options) + "."

    return Eff({"op": "choose_one", "options": [[e.op for e in o] for o in options]}, en, ru)


def if_(cond: Cond, *then: Eff) -> Eff:
    def en(c):
        return f"If {cond.en}, " + " ".join(
            lower1(e.render(c)[0]) if i == 0 else e.render(c)[0] for i, e in enumerate(then)
        )

    def ru(c):
        return f"Если {cond.ru}, " + " ".join(
            lower1(e.render(c)[1]) if i == 0 else e.render(c)[1] for i, e in enumerate(then)
        )

    return Eff({"op": "if", "condition": cond.data, "then": [e.op for e in then]}, en, ru)


# ---- static effects ----


def s_strength(n: int, t: Tgt) -> Eff:
    sign = f"+{n}" if n >= 0 else f"−{-n}"

    def en(c):
        v, _ = verb(t, "gets", "get", "", "", c)
        return upper1(f"{t.phr(c)} {v} {sign} Strength.")

    def ru(c):
        _, v = verb(t, "", "", "получает", "получают", c)
        return upper1(f"{t.phr(c, 'nom')} {v} {sign} к силе.")

    return Eff({"op": "strength", "amount": n, "target": t.sel}, en, ru)


def s_keyword(kw: str, t: Tgt) -> Eff:
    def en(c):
        v, _ = verb(t, "has", "have", "", "", c)
        return upper1(f"{t.phr(c)} {v} {KW[kw][0]}.")

    def ru(c):
        _, v = verb(t, "", "", "имеет", "имеют", c)
        return upper1(f"{t.phr(c, 'nom')} {v} {KW[kw][1]}.")

    return Eff({"op": "keyword", "keyword": kw, "target": t.sel}, en, ru)


def s_cost(n: int, t: Tgt) -> Eff:
    more_en = "less" if n < 0 else "more"
    more_ru = "меньше" if n < 0 else "больше"
    return Eff(
        {"op": "cost", "amount": n, "target": t.sel},
        lambda c: upper1(f"{t.phr(c)} cost {abs(n)} {more_en}."),
        lambda c: upper1(f"{t.phr(c, 'nom')} стоят на {abs(n)} {more_ru}."),
    )


CANNOT = {
    "be_wounded": ("cannot be wounded", "нельзя ранить"),
    "be_targeted": ("cannot be chosen by effects", "нельзя выбирать эффектами"),
    "be_assigned": ("cannot be assigned to Tactics", "нельзя назначать в тактики"),
}


def s_cannot(action: str, t: Tgt) -> Eff:
    en_v, ru_v = CANNOT[action]
    return Eff(
        {"op": "cannot", "action": action, "target": t.sel},
        lambda c: upper1(f"{t.phr(c)} {en_v}."),
        lambda c: upper1(f"{t.phr(c, 'acc')} {ru_v}."),
    )


def s_player_cannot(action: str, player: str) -> Eff:
    texts = {
        ("play_orders", "each_opponent"): (
            "Opponents cannot play Orders.",
            "Оппоненты не могут разыгрывать приказы.",
        ),
        ("declare_tactic", "each_opponent"): (
            "Opponents cannot declare Tactics.",
            "Оппоненты не могут объявлять тактики.",
        ),
        ("draw", "each_opponent"): (
            "Opponents cannot draw cards.",
            "Оппоненты не могут брать карты.",
        ),
    }
    en, ru = texts[(action, player)]
    return Eff({"op": "cannot", "action": action, "player": player}, en, ru)


def s_supply(n: int = 1) -> Eff:
    return Eff(
        {"op": "supply", "amount": n},
        lambda c: (
            f"While {SELF_NAMES[c][0]} is on the Battlefield, your Supply value is "
            f"increased by {n}."
        ),
        lambda c: f"Пока {SELF_NAMES[c][1]} на поле боя, ваш запас припасов больше на {n}.",
    )


def s_direct(n: int = 1) -> Eff:
    return Eff(
        {"op": "max_direct_attacks", "amount": n},
        f"The maximum number of Direct Attacks in the game is increased by {n}.",
        f"Максимальное число прямых нападений в игре увеличено на {n}.",
    )


# ---- conditions ----


@dataclass
class Cond:
    data: dict
    en: str
    ru: str


def c_coins(n: int) -> Cond:
    return Cond(
        {"coins_at_least": n},
        f"you have at least {n} coins",
        f"у вас не меньше {n} {plural_ru(n, 'монеты', 'монет', 'монет')}",
    )


def c_hand_max(n: int) -> Cond:
    return Cond(
        {"hand_at_most": n},
        f"you have at most {cards_en(n).replace('a card', '1 card')} in hand",
        f"у вас в руке не больше {n} {plural_ru(n, 'карты', 'карт', 'карт')}",
    )


def c_hand_min(n: int) -> Cond:
    return Cond(
        {"hand_at_least": n},
        f"you have at least {cards_en(n).replace('a card', '1 card')} in hand",
        f"у вас в руке не меньше {n} {plural_ru(n, 'карты', 'карт', 'карт')}",
    )


def c_round(n: int) -> Cond:
    return Cond({"round_at_least": n}, f"it is round {n} or later", f"идёт раунд {n} или позже")


# (filter, en plural noun, ru genitive plural noun, ru genitive singular)
# Things a condition counts: filter, English plural and singular, Russian genitive plural
# ("не меньше 2 отрядов") and nominative singular ("у вас есть отряд").
NOUNS = {
    "squad": ({"type": "squad"}, "Squads", "a Squad", "отрядов", "отряд"),
    "relic": ({"type": "relic"}, "Relics", "a Relic", "реликвий", "реликвия"),
    "fortification": (
        {"type": "fortification"},
        "Fortifications",
        "a Fortification",
        "укреплений",
        "укрепление",
    ),
    "wounded_squad": (
        {"type": "squad", "wounded": True},
        "wounded Squads",
        "a wounded Squad",
        "раненых отрядов",
        "раненый отряд",
    ),
    "ruined_city": (
        {"type": "city", "ruined": True},
        "ruined Cities",
        "a ruined City",
        "разорённых городов",
        "разорённый город",
    ),
}


def c_control(noun: str, n: int = 1) -> Cond:
    filt, en, en_sg, ru_pl, ru_nom = NOUNS[noun]
    data = {"control": {"filter": {**filt, "owner": "you"}, "min": n}}
    if n == 1:
        return Cond(data, f"you have {en_sg}", f"у вас есть {ru_nom}")
    return Cond(data, f"you have at least {n} {en}", f"у вас не меньше {n} {ru_pl}")


def c_no(noun: str) -> Cond:
    filt, en, _, ru_pl, _ = NOUNS[noun]
    return Cond(
        {"not": {"control": {"filter": {**filt, "owner": "you"}}}},
        f"you have no {en}",
        f"у вас нет {ru_pl}",
    )


def c_opp(noun: str, n: int = 1) -> Cond:
    filt, en, en_sg, ru_pl, ru_nom = NOUNS[noun]
    data = {"opponent_has": {"filter": filt, "min": n}}
    if n == 1:
        return Cond(data, f"an opponent has {en_sg}", f"у оппонента есть {ru_nom}")
    return Cond(data, f"an opponent has at least {n} {en}", f"у оппонента не меньше {n} {ru_pl}")


# ---- triggers ----


def _self_t(en_tail: str, ru_tail: str, en_pre: str = "When", ru_pre: str = "Когда"):
    def en(c):
        return f"{en_pre} {SELF_NAMES[c][0]} {en_tail},"

    def ru(c):
        g = GENDER_END[SELF_NAMES[c][3]]
        return f"{ru_pre} {SELF_NAMES[c][1]} {ru_tail.format(g=g)},"

    return en, ru


TRIGGERS: dict[str, tuple[dict, Any, Any]] = {
    "enters": (
        {"event": "enters_battlefield", "card": "self"},
        *_self_t("enters the Battlefield", "выходит на поле боя"),
    ),
    "destroyed": ({"event": "destroyed", "card": "self"}, *_self_t("is destroyed", "уничтожен{g}")),
    "wounded": (
        {"event": "wounded", "card": "self"},
        *_self_t("is wounded", "ранен{g}", "Whenever", "Каждый раз, когда"),
    ),
    "assigned": (
        {"event": "assigned", "card": "self"},
        *_self_t(
            "is assigned to a Tactic", "назначен{g} в тактику", "Whenever", "Каждый раз, когда"
        ),
    ),
    "leaves": (
        {"event": "leaves_battlefield", "card": "self"},
        *_self_t("leaves the Battlefield", "покидает поле боя"),
    ),
    "played": ({"event": "played", "card": "self"}, *_self_t("is played", "разыгран{g}")),
    "game_start": ({"event": "game_start"}, "At the start of the game,", "В начале партии"),
    "round_start": (
        {"event": "round_start"},
        "At the start of each round,",
        "В начале каждого раунда",
    ),
    "round_end": ({"event": "round_end"}, "At the end of each round,", "В конце каждого раунда"),
    "turn_start": (
        {"event": "turn_start", "player": "you"},
        "At the start of your turn,",
        "В начале вашего хода",
    ),
    "you_play_order": (
        {"event": "played", "card": {"type": "order"}, "player": "you"},
        "Whenever you play an Order,",
        "Каждый раз, когда вы разыгрываете приказ,",
    ),
    "you_play_relic": (
        {"event": "played", "card": {"type": "relic"}, "player": "you"},
        "Whenever you play a Relic,",
        "Каждый раз, когда вы разыгрываете реликвию,",
    ),
    "opp_play_order": (
        {"event": "played", "card": {"type": "order"}, "player": "opponent"},
        "Whenever an opponent plays an Order,",
        "Каждый раз, когда оппонент разыгрывает приказ,",
    ),
    "enemy_squad_destroyed": (
        {"event": "destroyed", "card": {"type": "squad", "owner": "opponent"}},
        "Whenever an opponent's Squad is destroyed,",
        "Каждый раз, когда уничтожен отряд оппонента,",
    ),
    "your_squad_destroyed": (
        {"event": "destroyed", "card": {"type": "squad", "owner": "you", "other": True}},
        "Whenever another Squad of yours is destroyed,",
        "Каждый раз, когда уничтожен другой ваш отряд,",
    ),
    "your_city_wounded": (
        {"event": "wounded", "card": {"type": "city", "owner": "you"}},
        "Whenever one of your Cities is wounded,",
        "Каждый раз, когда ранен ваш город,",
    ),
    "city_ruined": (
        {"event": "city_ruined"},
        "Whenever a City is ruined,",
        "Каждый раз, когда разорён город,",
    ),
    "direct_attack": (
        {"event": "direct_attack", "player": "you"},
        "Whenever you create a Direct Attack,",
        "Каждый раз, когда вы создаёте прямое нападение,",
    ),
    "opp_tactic": (
        {"event": "tactic_declared", "player": "opponent"},
        "Whenever an opponent declares a Tactic,",
        "Каждый раз, когда оппонент объявляет тактику,",
    ),
    "tactic_resolved": (
        {"event": "tactic_resolved", "player": "you"},
        "Whenever a Tactic you declared is resolved,",
        "Каждый раз, когда разрешается объявленная вами тактика,",
    ),
    "decree_issued": (
        {"event": "decree_issued", "player": "you"},
        "Whenever you issue a Decree,",
        "Каждый раз, когда вы издаёте декрет,",
    ),
    "opp_discards": (
        {"event": "discarded", "player": "opponent"},
        "Whenever an opponent discards a card,",
        "Каждый раз, когда оппонент сбрасывает карту,",
    ),
    "you_draw": (
        {"event": "drawn", "player": "you"},
        "Whenever you draw a card,",
        "Каждый раз, когда вы берёте карту,",
    ),
    "squad_healed": (
        {"event": "healed", "card": {"type": "squad", "owner": "you"}},
        "Whenever a Squad of yours is healed,",
        "Каждый раз, когда исцелён ваш отряд,",
    ),
    "eliminated": (
        {"event": "eliminated"},
        "Whenever a player is eliminated,",
        "Каждый раз, когда игрок выбывает,",
    ),
}
REPLACES: dict[str, tuple[dict, Any, Any]] = {
    "destroyed": (
        {"event": "destroyed", "card": "self"},
        lambda c: f"If {SELF_NAMES[c][0]} would be destroyed, instead",
        lambda c: (
            f"Если {SELF_NAMES[c][1]} долж{'ен' if SELF_NAMES[c][3] == 'm' else 'н' + GENDER_END[SELF_NAMES[c][3]]} "
            f"быть уничтожен{GENDER_END[SELF_NAMES[c][3]]}, вместо этого"
        ),
    ),
    "wounded": (
        {"event": "wounded", "card": "self"},
        lambda c: f"If {SELF_NAMES[c][0]} would be wounded, instead",
        lambda c: (
            f"Если {SELF_NAMES[c][1]} долж{'ен' if SELF_NAMES[c][3] == 'm' else 'н' + GENDER_END[SELF_NAMES[c][3]]} "
            f"быть ранен{GENDER_END[SELF_NAMES[c][3]]}, вместо этого"
        ),
    ),
    "ally_destroyed": (
        {"event": "destroyed", "card": {"type": "squad", "owner": "you", "other": True}},
        "If another Squad of yours would be destroyed, instead",
        "Если другой ваш отряд должен быть уничтожен, вместо этого",
    ),
    "city_ruined": (
        {"event": "city_ruined", "card": {"type": "city", "owner": "you"}},
        "If one of your Cities would be ruined, instead",
        "Если ваш город должен быть разорён, вместо этого",
    ),
}


# ---- abilities ----


def _join(effs: list[Eff], c: str, i: int, lower_first: bool = True) -> str:
    parts = [e.render(c)[i] for e in effs]
    if lower_first:
        parts[0] = lower1(parts[0])
    return " ".join(parts)


def _call(x, c):
    return x(c) if callable(x) else x


@dataclass
class Ab:
    data: dict
    effs: list[Eff]
    kind: str
    head: Any = None  # (en, ru) callables or strings
    tail: tuple[str, str] = ("", "")
    extra: dict = field(default_factory=dict)

    def render(self, c: str) -> tuple[dict, str, str]:
        data = {"kind": self.kind, **self.data, "effects": [e.op for e in self.effs]}
        if self.head is None:
            en, ru = _join(self.effs, c, 0, False), _join(self.effs, c, 1, False)
        else:
            h_en, h_ru, sep = self.head
            en = f"{_call(h_en, c)}{sep}{_join(self.effs, c, 0)}"
            ru = f"{_call(h_ru, c)}{sep}{_join(self.effs, c, 1)}"
        return data, en + self.tail[0], ru + self.tail[1]


def dynamic(*effs: Eff) -> Ab:
    return Ab({}, list(effs), "dynamic")


def static(*effs: Eff) -> Ab:
    return Ab({}, list(effs), "static")


def trig(name: str, *effs: Eff) -> Ab:
    t, en, ru = TRIGGERS[name]
    return Ab({"trigger": t}, list(effs), "triggered", (en, ru, " "))


def replace(name: str, *effs: Eff) -> Ab:
    t, en, ru = REPLACES[name]
    return Ab({"replaces": t}, list(effs), "replacement", (en, ru, " "))


COSTS = {
    "destroy_self": (
        lambda c: f"Destroy {SELF_NAMES[c][0]}",
        lambda c: f"Уничтожьте {SELF_NAMES[c][2]}",
    ),
}


def activated(costs: list, *effs: Eff, limit: str | None = None) -> Ab:
    data_costs = []
    en_parts, ru_parts = [], []
    for cost in costs:
        kind, *args = cost if isinstance(cost, tuple) else (cost,)
        if kind == "pay":
            n = args[0]
            data_costs.append({"op": "pay", "coins": n})
            en_parts.append(lambda c, n=n: f"Pay {coins_en(n)}")
            ru_parts.append(lambda c, n=n: f"Заплатите {coins_ru(n)}")
        elif kind == "discard":
            n = args[0]
            data_costs.append({"op": "discard", "count": n})
            en_parts.append(lambda c, n=n: f"Discard {cards_en(n)}")
            ru_parts.append(lambda c, n=n: f"Сбросьте {cards_ru(n)}")
        elif kind == "wound_self":
            n = args[0]
            data_costs.append({"op": "wound_self", "amount": n})
            en_parts.append(lambda c, n=n: f"Wound {SELF_NAMES[c][0]} by {n}")
            ru_parts.append(lambda c, n=n: f"Раньте {SELF_NAMES[c][2]} на {n}")
        elif kind == "destroy_self":
            data_costs.append({"op": "destroy_self"})
            en_parts.append(COSTS["destroy_self"][0])
            ru_parts.append(COSTS["destroy_self"][1])
        elif kind == "exile_gy":
            n = args[0]
            data_costs.append({"op": "exile_from_graveyard", "count": n})
            en_parts.append(lambda c, n=n: f"Put {cards_en(n)} from your Graveyard into Oblivion")
            ru_parts.append(lambda c, n=n: f"Отправьте {cards_ru(n)} из вашего кладбища в Небытие")
        elif kind == "sacrifice":
            data_costs.append(
                {
                    "op": "sacrifice",
                    "target": {
                        "select": "choose",
                        "filter": {"type": "squad", "owner": "you", "other": True},
                    },
                }
            )
            en_parts.append(lambda c: "Destroy another Squad of yours")
            ru_parts.append(lambda c: "Уничтожьте другой ваш отряд")
        else:
            raise ValueError(kind)
    data: dict[str, Any] = {"cost": data_costs}
    tail = ("", "")
    if limit:
        data["limit"] = limit
        tail = (
            f" Activate only once per {limit}.",
            " Не чаще раза за " + ("раунд." if limit == "round" else "ход."),
        )
    head = (
        lambda c: upper1(", ".join(lower1(p(c)) for p in en_parts)),
        lambda c: upper1(", ".join(lower1(p(c)) for p in ru_parts)),
        ": ",
    )
    return Ab(data, list(effs), "activated", head, tail)


def decree(cond: Cond, *effs: Eff) -> Ab:
    return Ab(
        {"condition": cond.data},
        list(effs),
        "decree",
        (f"Decree ({cond.en})", f"Декрет ({cond.ru})", ": "),
    )


def superiority(*effs: Eff) -> Ab:
    return Ab({}, list(effs), "superiority", ("Superiority", "Превосходство", ": "))


OUTCOME = {
    "win": ("Outcome — victory", "Исход — победа"),
    "lose": ("Outcome — defeat", "Исход — поражение"),
    "tie": ("Outcome — tie", "Исход — ничья"),
    "any": ("Outcome", "Исход"),
}


def outcome(result: str, *effs: Eff) -> Ab:
    en, ru = OUTCOME[result]
    return Ab({"result": result}, list(effs), "outcome", (en, ru, ": "))


# ====================================================================== set builder and shared targets

COL = {"W": "white", "U": "blue", "B": "black", "R": "red"}
KWTEXT = {"zeal": ("Zeal.", "Рвение."), "reinforcement": ("Reinforcement.", "Подкрепление.")}


class SetBuilder:
    """One set file being written. Cards are numbered in the order they are added.

    Shorthands (``col`` is a string of colour letters, W U B R, "" for Neutral;
    ``subs`` a comma-separated string of subtypes, or a place key for City/Fortification;
    ``cost`` an int, "X", {"supply": n} or None)::

        b.S(ru, en, col, cost, strength, subs, rarity, *abilities, kw=(), flavour=None)
        b.C(ru, en, col, strength, supply, place, rarity, *abilities)   # no Cost
        b.T / b.O(ru, en, col, cost, subtype, rarity, *abilities)      # no Strength
        b.R(ru, en, col, cost, subs, rarity, *abilities, kw=())
        b.F(ru, en, col, cost, strength, place, rarity, *abilities, kw=())
        b.P(ru, en, col, cost, strength, subtype, rarity, *abilities)
        b.M(number, ru, en, col, strength, subs, *abilities, kw=())      # a Minor Squad
    """

    def __init__(self, code, ru, en, released, places, booster=None):
        self.code = code
        self.data = {
            "code": code,
            "name": {"ru": ru, "en": en},
            "released": released,
            "booster": booster,
            "places": places,
            "cards": [],
        }
        self.n = 0

    def next_id(self):
        return f"{self.code}-{self.n + 1:03d}"

    def add(
        self,
        ctype,
        ru,
        en,
        col,
        cost,
        strength,
        subs,
        rarity,
        abilities,
        kw=(),
        supply=0,
        minor=False,
        flavour=None,
        number=None,
    ):
        if number is None:
            self.n += 1
            number = self.n
        subtypes = [s for s in subs.split(",") if s] if isinstance(subs, str) else list(subs)
        abl, en_lines, ru_lines = [], [], []
        if kw:
            en_lines.append(" ".join(KWTEXT[k][0] for k in kw))
            ru_lines.append(" ".join(KWTEXT[k][1] for k in kw))
        for ab in abilities:
            data, t_en, t_ru = ab.render(ctype)
            abl.append(data)
            en_lines.append(t_en)
            ru_lines.append(t_ru)
        card = {
            "number": number,
            "name": {"ru": ru, "en": en},
            "type": ctype,
            "subtypes": subtypes,
            "colours": [COL[c] for c in col],
            "cost": cost,
            "strength": strength,
            "supply": supply,
            "keywords": list(kw),
            "minor": minor,
            "rarity": rarity,
            "text": {"ru": "\n".join(ru_lines), "en": "\n".join(en_lines)},
        }
        if flavour:
            card["flavour"] = {"ru": flavour[0], "en": flavour[1]}
        card["abilities"] = abl
        self.data["cards"].append(card)
        card_id = f"{self.code}-{number:03d}"
        if minor:
            MINORS[card_id] = (en, ru, ctype)
        return card_id

    # Shorthands per type.
    def S(self, ru, en, col, cost, strength, subs, rarity, *abilities, kw=(), flavour=None):
        return self.add(
            "squad", ru, en, col, cost, strength, subs, rarity, abilities, kw, flavour=flavour
        )

    def T(self, ru, en, col, cost, sub, rarity, *abilities, flavour=None):
        return self.add("tactic", ru, en, col, cost, None, sub, rarity, abilities, flavour=flavour)

    def O(self, ru, en, col, cost, sub, rarity, *abilities, flavour=None):  # noqa: E743
        return self.add("order", ru, en, col, cost, None, sub, rarity, abilities, flavour=flavour)

    def R(self, ru, en, col, cost, subs, rarity, *abilities, kw=(), flavour=None):
        return self.add(
            "relic", ru, en, col, cost, None, subs, rarity, abilities, kw, flavour=flavour
        )

    def F(
        self, ru, en, col, cost, strength, place, rarity, *abilities, kw=(), supply=0, flavour=None
    ):
        return self.add(
            "fortification",
            ru,
            en,
            col,
            cost,
            strength,
            place,
            rarity,
            abilities,
            kw,
            supply=supply,
            flavour=flavour,
        )

    def C(self, ru, en, col, strength, supply, place, rarity, *abilities, flavour=None):
        return self.add(
            "city",
            ru,
            en,
            col,
            None,
            strength,
            place,
            rarity,
            abilities,
            supply=supply,
            flavour=flavour,
        )

    def P(self, ru, en, col, cost, strength, sub, rarity, *abilities, kw=(), flavour=None):
        return self.add(
            "patron", ru, en, col, cost, strength, sub, rarity, abilities, kw, flavour=flavour
        )

    def M(self, number, ru, en, col, strength, subs, *abilities, kw=()):
        """A Minor Squad: no Cost, created by effects only."""
        return self.add(
            "squad",
            ru,
            en,
            col,
            None,
            strength,
            subs,
            "common",
            abilities,
            kw,
            minor=True,
            number=number,
        )

    def text(self) -> str:
        return json.dumps(self.data, ensure_ascii=False, indent=1) + "\n"


# ---- shared targets ----
ENEMY_SQUAD = choose(
    {"type": "squad", "owner": "opponent"}, "target opponent's Squad", "выбранный отряд оппонента"
)
ANY_SQUAD = choose({"type": "squad"}, "target Squad", "выбранный отряд")
YOUR_SQUAD = choose(
    {"type": "squad", "owner": "you"}, "target Squad of yours", "выбранный ваш отряд"
)
OTHER_YOUR_SQUAD = choose(
    {"type": "squad", "owner": "you", "other": True},
    "another target Squad of yours",
    "другой выбранный ваш отряд",
)
WOUNDED_YOUR_SQUAD = choose(
    {"type": "squad", "owner": "you", "wounded": True},
    "target wounded Squad of yours",
    "выбранный раненый ваш отряд",
)
ASSIGNED_ENEMY = choose(
    {"type": "squad", "owner": "opponent", "assigned": True},
    "target opponent's Squad assigned to a Tactic",
    "выбранный отряд оппонента, назначенный в тактику",
)
ASSIGNED_ANY = choose(
    {"type": "squad", "assigned": True},
    "target Squad assigned to a Tactic",
    "выбранный отряд, назначенный в тактику",
)
SMALL_ENEMY = choose(
    {"type": "squad", "owner": "opponent", "max_strength": 2},
    "target opponent's Squad with Strength 2 or less",
    "выбранный отряд оппонента с силой 2 или меньше",
)
BIG_ENEMY = choose(
    {"type": "squad", "owner": "opponent", "min_strength": 5},
    "target opponent's Squad with Strength 5 or more",
    "выбранный отряд оппонента с силой 5 или больше",
)
WOUNDED_ENEMY = choose(
    {"type": "squad", "owner": "opponent", "wounded": True},
    "target wounded Squad of an opponent",
    "выбранный раненый отряд оппонента",
)
UNASSIGNED_ENEMY = choose(
    {"type": "squad", "owner": "opponent", "assigned": False},
    "target opponent's Squad not assigned to a Tactic",
    "выбранный отряд оппонента, не назначенный в тактику",
)
ENEMY_CITY = choose(
    {"type": "city", "owner": "opponent"}, "target opponent's City", "выбранный город оппонента"
)
DEFENDER_CITY = choose(
    {"type": "city", "owner": "defender"},
    "target City of the defending player",
    "выбранный город защищающегося игрока",
)
YOUR_CITY = choose({"type": "city", "owner": "you"}, "target City of yours", "выбранный ваш город")
ENEMY_RELIC = choose(
    {"type": "relic", "owner": "opponent"},
    "target opponent's Relic",
    "выбранная реликвия оппонента",
    "выбранную реликвию оппонента",
    gender="f",
)
ANY_RELIC = choose(
    {"type": "relic"}, "target Relic", "выбранная реликвия", "выбранную реликвию", gender="f"
)
ENEMY_FORT = choose(
    {"type": "fortification", "owner": "opponent"},
    "target opponent's Fortification",
    "выбранное укрепление оппонента",
)
YOUR_FORT = choose(
    {"type": "fortification", "owner": "you"},
    "target Fortification of yours",
    "выбранное ваше укрепление",
)
ENEMY_PATRON = choose(
    {"type": "patron", "owner": "opponent"},
    "target opponent's Patron",
    "выбранный покровитель оппонента",
    "выбранного покровителя оппонента",
)
GY_SQUAD = choose(
    {"type": "squad", "owner": "you", "zone": "graveyard"},
    "target Squad card in your Graveyard",
    "выбранная карта отряда из вашего кладбища",
    "выбранную карту отряда из вашего кладбища",
    gender="f",
)
GY_ORDER = choose(
    {"type": "order", "owner": "you", "zone": "graveyard"},
    "target Order card in your Graveyard",
    "выбранная карта приказа из вашего кладбища",
    "выбранную карту приказа из вашего кладбища",
    gender="f",
)
GY_ENEMY = choose(
    {"owner": "opponent", "zone": "graveyard"},
    "target card in an opponent's Graveyard",
    "выбранная карта из кладбища оппонента",
    "выбранную карту из кладбища оппонента",
    gender="f",
)
HAND_SMALL_SQUAD = choose(
    {"type": "squad", "owner": "you", "zone": "hand", "max_strength": 2},
    "a Squad card with Strength 2 or less from your hand",
    "карта отряда с силой 2 или меньше из вашей руки",
    "карту отряда с силой 2 или меньше из вашей руки",
    gender="f",
)
HAND_REINFORCEMENT = choose(
    {"owner": "you", "zone": "reinforcement", "keyword": "reinforcement", "max_strength": 3},
    "a card with Reinforcement and Strength 3 or less from your Reinforcement Deck",
    "карта с Подкреплением и силой 3 или меньше из вашей колоды подкреплений",
    "карту с Подкреплением и силой 3 или меньше из вашей колоды подкреплений",
    gender="f",
)

YOUR_SQUADS = every({"type": "squad", "owner": "you"}, "your Squads", "ваши отряды")
OTHER_YOUR_SQUADS = every(
    {"type": "squad", "owner": "you", "other": True}, "your other Squads", "другие ваши отряды"
)


def yours(subtype, en, ru):
    return every({"type": "squad", "owner": "you", "subtype": subtype}, en, ru)


YOUR_SOLDIERS = yours("soldier", "your Soldiers", "ваши солдаты")
YOUR_OFFICERS = yours("officer", "your Officers", "ваши офицеры")
YOUR_MAGES = yours("mage", "your Mages", "ваши маги")
YOUR_ROGUES = yours("rogue", "your Rogues", "ваши разбойники")
YOUR_MONSTERS = yours("monster", "your Monsters", "ваши монстры")
YOUR_WORKERS = yours("worker", "your Workers", "ваши рабочие")
YOUR_NOBLES = yours("nobility", "your Nobility", "ваша знать")
YOUR_NOBLES.plural = False  # "Your Nobility gets" / "Ваша знать получает"
ALL_ENEMY_SQUADS = every(
    {"type": "squad", "owner": "opponent"}, "opponents' Squads", "отряды оппонентов"
)
ALL_ASSIGNED_ENEMY = every(
    {"type": "squad", "owner": "opponent", "assigned": True},
    "opponents' Squads assigned to Tactics",
    "отряды оппонентов, назначенные в тактики",
)
ALL_SMALL = every(
    {"type": "squad", "max_strength": 2},
    "all Squads with Strength 2 or less",
    "все отряды с силой 2 или меньше",
)
ALL_WOUNDED = every({"type": "squad", "wounded": True}, "all wounded Squads", "все раненые отряды")
YOUR_WOUNDED = every(
    {"type": "squad", "owner": "you", "wounded": True}, "your wounded Squads", "ваши раненые отряды"
)
YOUR_ASSIGNED = every(
    {"type": "squad", "owner": "you", "assigned": True},
    "your Squads assigned to Tactics",
    "ваши отряды, назначенные в тактики",
)
YOUR_CITIES = every({"type": "city", "owner": "you"}, "your Cities", "ваши города")
YOUR_FORTS = every(
    {"type": "fortification", "owner": "you"}, "your Fortifications", "ваши укрепления"
)
YOUR_MINORS = every(
    {"type": "squad", "owner": "you", "minor": True}, "your Minor Squads", "ваши малые отряды"
)
ORDERS_IN_HAND = every(
    {"type": "order", "owner": "you", "zone": "hand"}, "Orders in your hand", "приказы в вашей руке"
)
RELICS_IN_HAND = every(
    {"type": "relic", "owner": "you", "zone": "hand"},
    "Relics in your hand",
    "реликвии в вашей руке",
)
TACTICS_IN_HAND = every(
    {"type": "tactic", "owner": "you", "zone": "hand"},
    "Tactics in your hand",
    "тактики в вашей руке",
)
ENEMY_ORDERS_IN_HAND = every(
    {"type": "order", "owner": "opponent", "zone": "hand"},
    "Orders in opponents' hands",
    "приказы в руках оппонентов",
)


# ====================================================================== VS1

PLACES = {
    "dawn_order": {"ru": "Рассветный Орден", "en": "Order of the Dawn"},
    "mist_college": {"ru": "Туманная Коллегия", "en": "Mist College"},
    "midnight_court": {"ru": "Полночный Двор", "en": "Midnight Court"},
    "ash_clans": {"ru": "Пепельные Кланы", "en": "Ash Clans"},
    "free_cities": {"ru": "Вольные города", "en": "Free Cities"},
    "river_march": {"ru": "Заречная марка", "en": "River March"},
    "northern_wastes": {"ru": "Северные пустоши", "en": "Northern Wastes"},
    "mechanics_guild": {"ru": "Гильдия механиков", "en": "Mechanics' Guild"},
    "salt_coast": {"ru": "Солёный берег", "en": "Salt Coast"},
}
NON_CITY = ["squad", "tactic", "order", "relic", "fortification", "patron"]
BOOSTER = {
    "size": 15,
    "slots": [
        {"rarity": "common", "count": 10, "types": NON_CITY},
        {"rarity": "uncommon", "count": 3, "types": NON_CITY},
        {
            "rarity": "rare",
            "count": 1,
            "types": NON_CITY,
            "upgrade": "legendary",
            "upgrade_chance": 0.125,
        },
        {
            "rarity": "common",
            "count": 1,
            "types": ["city"],
            "upgrade": "uncommon",
            "upgrade_chance": 0.25,
        },
    ],
}

MILITIA = "VS1-301"
WRAITH = "VS1-302"
SPARK = "VS1-303"
MIRAGE = "VS1-304"
SENTRY = "VS1-305"


def build_vs1() -> SetBuilder:
    # fmt: off
    b = SetBuilder("VS1", "Восхождение: Пробуждение", "Voskhozhdenie: Awakening", "2026-03-14",
                   PLACES, BOOSTER)
    # Minor components first (numbered 301+, after the booster cards), so effects can name them.
    b.M(301, "Ополченец", "Militia", "W", 1, "soldier")
    b.M(302, "Призрак", "Wraith", "B", 2, "monster",
        replace("destroyed", exile(SELF)))
    b.M(303, "Искра", "Spark", "R", 1, "monster", kw=("zeal",))
    b.M(304, "Морок", "Mirage", "U", 2, "mage", static(s_cannot("be_targeted", SELF)))
    b.M(305, "Заводной страж", "Clockwork Sentry", "", 2, "worker")

    # ------------------------------------------------------------------ White
    b.C("Светлоград", "Svetlograd", "W", 12, 2, "dawn_order", "common",
        flavour=("Город, где колокола звонят до рассвета.",
                 "A city whose bells ring before the dawn."))
    b.C("Белая Застава", "White Outpost", "W", 10, 2, "river_march", "common",
        static(s_strength(1, YOUR_SOLDIERS)))
    b.C("Собор Зари", "Cathedral of Daybreak", "W", 9, 2, "dawn_order", "uncommon",
        decree(c_hand_max(2), draw(1)))
    b.C("Солнечный Брод", "Sunford", "W", 11, 1, "free_cities", "common",
        trig("round_start", heal(WOUNDED_YOUR_SQUAD)))

    b.S("Послушник Зари", "Dawn Novice", "W", 1, 1, "soldier", "common",
        trig("enters", gain(1)))
    b.S("Страж ворот", "Gate Warden", "W", 2, 3, "soldier", "common")
    b.S("Копейщик Ордена", "Order Spearman", "W", 2, 2, "soldier", "common",
        trig("assigned", pump(1, SELF)))
    b.S("Сестра милосердия", "Sister of Mercy", "W", 2, 2, "worker", "common",
        trig("enters", heal(WOUNDED_YOUR_SQUAD)))
    b.S("Знаменосец", "Standard-Bearer", "W", 3, 2, "soldier,officer", "common",
        static(s_strength(1, OTHER_YOUR_SQUADS)))
    b.S("Паладин Рассвета", "Paladin of Daybreak", "W", 4, 5, "soldier,nobility", "uncommon",
        replace("wounded", lose(2, "you")))
    b.S("Капитан дозора", "Watch Captain", "W", 3, 3, "officer", "common",
        trig("enters", create(MILITIA)))
    b.S("Вестник Зари", "Herald of Daybreak", "W", 2, 1, "officer", "common",
        trig("enters", create(MILITIA, 2)))
    b.S("Сборщик податей", "Tithe Collector", "W", 2, 2, "worker", "common",
        decree(c_coins(5), gain(1)))
    b.S("Благородная дама", "Gracious Lady", "W", 3, 2, "nobility", "uncommon",
        decree(c_hand_min(4), heal(WOUNDED_YOUR_SQUAD), gain(1)))
    b.S("Рыцарь-наставник", "Knight Mentor", "W", 4, 4, "soldier,officer", "uncommon",
        static(s_strength(1, YOUR_MINORS)))
    b.S("Хранитель ключей", "Keeper of Keys", "W", 3, 3, "worker", "common",
        trig("destroyed", restore(YOUR_CITY)))
    b.S("Светлый маг", "Lightbinder", "W", 3, 2, "mage", "common",
        activated([("pay", 1)], heal(WOUNDED_YOUR_SQUAD), limit="round"))
    b.S("Щит Ордена", "Shield of the Order", "W", 3, 4, "soldier", "common",
        kw=("reinforcement",))
    b.S("Лорд-протектор", "Lord Protector", "W", 6, 6, "nobility,officer", "rare",
        static(s_strength(1, YOUR_SQUADS)), trig("enters", heal(WOUNDED_YOUR_SQUAD)))
    b.S("Небесный грифон", "Sky Griffin", "W", 5, 5, "monster", "uncommon",
        kw=("zeal",))
    b.S("Святая Ирина Заступница", "Saint Irina the Intercessor", "W", 7, 7, "nobility,mage",
        "legendary", replace("ally_destroyed", bounce(EVENT_SQUAD)),
        trig("round_start", heal(WOUNDED_YOUR_SQUAD)))

    b.T("Стена щитов", "Shield Wall", "W", 2, "battle", "common",
        outcome("any", heal(WOUNDED_YOUR_SQUAD)))
    b.T("Правый суд", "Righteous Judgement", "W", 3, "confrontation", "common",
        superiority(restore(YOUR_CITY)))
    b.T("Рассветный натиск", "Dawn Charge", "W", 3, "confrontation", "uncommon",
        superiority(create(MILITIA, 2)), outcome("win", gain(1)))
    b.T("Оборона переправы", "Holding the Ford", "W", 1, "battle", "common",
        outcome("tie", draw(1)))
    b.T("Священный поход", "Sacred March", "W", 5, "battle", "rare",
        superiority(pump(2, YOUR_SQUADS, "round")), outcome("win", heal(WOUNDED_YOUR_SQUAD)))

    b.O("Молитва о стойкости", "Prayer of Endurance", "W", 1, "blessing", "common",
        dynamic(pump(2, YOUR_SQUAD)))
    b.O("Призыв ополчения", "Call the Levy", "W", 2, "strategy", "common",
        dynamic(create(MILITIA, 2)))
    b.O("Исцеляющий свет", "Healing Light", "W", 1, "blessing", "common",
        dynamic(heal(WOUNDED_YOUR_SQUAD), draw(1)))
    b.O("Восстановление стен", "Rebuild the Walls", "W", 3, "providence", "uncommon",
        dynamic(restore(YOUR_CITY)))
    b.O("Благословение Зари", "Blessing of Daybreak", "W", 3, "blessing", "uncommon",
        dynamic(pump(1, YOUR_SQUADS, "round"), grant("zeal", YOUR_SQUADS, "round")))
    b.O("Десятина", "The Tithe", "W", 0, "providence", "common",
        dynamic(if_(c_control("squad", 3), gain(2))))
    b.O("Клятва верности", "Oath of Fealty", "W", 2, "strategy", "rare",
        dynamic(choose_one([heal(WOUNDED_YOUR_SQUAD), draw(1)],
                           [create(MILITIA, 3)])))

    b.R("Знамя Рассвета", "Banner of Daybreak", "W", 3, "treasure", "uncommon",
        static(s_strength(1, YOUR_SOLDIERS)))
    b.R("Посеребрённый щит", "Silvered Shield", "W", 2, "gear", "common",
        activated([("pay", 2)], heal(WOUNDED_YOUR_SQUAD)), kw=("reinforcement",))
    b.R("Колокол набата", "Alarm Bell", "W", 1, "tool", "common",
        activated([("destroy_self",)], create(MILITIA, 2)))
    b.R("Реликварий святых", "Reliquary of Saints", "W", 4, "treasure", "rare",
        trig("your_squad_destroyed", gain(1)), kw=("reinforcement",))

    b.F("Сторожевая башня", "Watchtower", "W", 2, 4, "river_march", "common",
        trig("enters", look(2)))
    b.F("Бастион Ордена", "Bastion of the Order", "W", 4, 8, "dawn_order", "uncommon",
        static(s_strength(2, YOUR_CITIES)))
    b.F("Часовня на стене", "Wall Chapel", "W", 3, 5, "dawn_order", "common",
        decree(c_control("wounded_squad"), heal(WOUNDED_YOUR_SQUAD)), kw=("reinforcement",))
    b.F("Палисад", "Palisade", "W", 1, 3, "free_cities", "common")

    b.P("Заря Неугасимая", "The Unfading Dawn", "W", 5, 8, "aspect", "legendary",
        static(s_strength(1, YOUR_SQUADS)),
        decree(c_coins(3), restore(YOUR_CITY)))

    # ------------------------------------------------------------------ Blue
    b.C("Туманная Гавань", "Mist Harbour", "U", 10, 2, "mist_college", "common",
        flavour=("В тумане гавани теряются даже чайки.",
                 "Even the gulls lose their way in the harbour fog."))
    b.C("Звёздная Библиотека", "Star Library", "U", 8, 2, "mist_college", "uncommon",
        decree(c_hand_max(3), draw(1)))
    b.C("Солеварня", "Saltworks", "U", 11, 1, "salt_coast", "common",
        trig("game_start", look(3)))
    b.C("Маяк Ясности", "Lighthouse of Clarity", "U", 12, 2, "salt_coast", "common")

    b.S("Ученик Коллегии", "College Apprentice", "U", 1, 1, "mage", "common",
        trig("enters", look(2)))
    b.S("Писарь туманов", "Mist Scribe", "U", 2, 1, "mage,worker", "common",
        trig("enters", draw(1)))
    b.S("Береговой дозорный", "Shore Lookout", "U", 2, 2, "soldier", "common",
        static(s_cannot("be_targeted", SELF)))
    b.S("Ловец течений", "Current Catcher", "U", 3, 3, "rogue", "common",
        trig("assigned", look(1)))
    b.S("Заклинатель тумана", "Fogcaller", "U", 3, 2, "mage", "common",
        trig("enters", create(MIRAGE)))
    b.S("Магистр Коллегии", "College Magister", "U", 4, 3, "mage,nobility", "uncommon",
        static(s_cost(-1, ORDERS_IN_HAND)))
    b.S("Морской змей", "Sea Serpent", "U", 6, 6, "monster", "rare",
        trig("enters", bounce(ENEMY_SQUAD)))
    b.S("Хранитель свитков", "Scroll Keeper", "U", 2, 2, "worker", "common",
        activated([("pay", 2)], from_graveyard(GY_ORDER), limit="round"))
    b.S("Тайный советник", "Secret Counsellor", "U", 3, 2, "nobility,rogue", "uncommon",
        decree(c_hand_max(1), draw(2)))
    b.S("Волнорез", "Breakwater Guard", "U", 3, 4, "soldier", "common",
        kw=("reinforcement",))
    b.S("Иллюзионист", "Illusionist", "U", 2, 2, "mage", "common",
        activated([("pay", 1), ("wound_self", 1)], unassign(ASSIGNED_ANY)))
    b.S("Штурман", "Navigator", "U", 2, 2, "officer,worker", "common",
        trig("turn_start", look(1)))
    b.S("Туманный призрак", "Fog Phantom", "U", 4, 3, "monster", "uncommon",
        replace("destroyed", bounce(SELF)))
    b.S("Звездочёт", "Stargazer", "U", 3, 1, "mage", "common",
        trig("you_play_order", look(1)))
    b.S("Архимаг Велимир", "Archmage Velimir", "U", 7, 5, "mage,nobility", "legendary",
        trig("you_play_order", draw(1)), static(s_cost(-1, ORDERS_IN_HAND)))
    b.S("Капитан каравеллы", "Caravel Captain", "U", 4, 4, "officer", "common",
        trig("enters", draw(1), discard(1)))

    b.T("Манёвр в тумане", "Manoeuvre in the Fog", "U", 2, "confrontation", "common",
        superiority(bounce(ASSIGNED_ENEMY)))
    b.T("Морская блокада", "Naval Blockade", "U", 3, "confrontation", "uncommon",
        outcome("win", discard(1, "defender")), superiority(draw(2)))
    b.T("Спор мудрецов", "Debate of Sages", "U", 1, "battle", "common",
        outcome("any", look(2)))
    b.T("Отражение", "Reflection", "U", 2, "battle", "common",
        outcome("lose", draw(1)))
    b.T("Прилив", "High Tide", "U", 4, "confrontation", "rare",
        superiority(bounce(ALL_ASSIGNED_ENEMY)))

    b.O("Озарение", "Insight", "U", 2, "spell", "common", dynamic(draw(2)))
    b.O("Отзыв", "Recall", "U", 2, "spell", "common", dynamic(bounce(ENEMY_SQUAD)))
    b.O("Предвидение", "Foresight", "U", 1, "providence", "common",
        dynamic(look(3), draw(1)))
    b.O("Рассеяние", "Dispersal", "U", 1, "spell", "common", dynamic(unassign(ASSIGNED_ANY)))
    b.O("Туманная завеса", "Veil of Mist", "U", 3, "spell", "uncommon",
        dynamic(create(MIRAGE, 2)))
    b.O("Глубинное знание", "Deep Knowledge", "U", "X", "spell", "rare",
        dynamic(draw("X")))
    b.O("Возвращение к истокам", "Back to the Source", "U", 3, "strategy", "uncommon",
        dynamic(to_bottom(ENEMY_SQUAD)))

    b.R("Хрустальная сфера", "Crystal Orb", "U", 2, "tool", "common",
        activated([("pay", 1)], look(2), limit="round"))
    b.R("Астролябия", "Astrolabe", "U", 3, "technology,tool", "uncommon",
        trig("round_start", look(1)), kw=("reinforcement",))
    b.R("Посох прилива", "Staff of the Tide", "U", 3, "weapon", "common",
        activated([("pay", 2), ("discard", 1)], bounce(SMALL_ENEMY)))
    b.R("Кодекс Коллегии", "Codex of the College", "U", 5, "treasure", "rare",
        static(s_cost(-1, ORDERS_IN_HAND)), trig("you_play_order", gain(1)))

    b.F("Морская стена", "Sea Wall", "U", 2, 5, "salt_coast", "common")
    b.F("Башня наблюдателя", "Observer's Tower", "U", 3, 4, "mist_college", "common",
        decree(c_hand_max(2), look(2), draw(1)))
    b.F("Зеркальный бастион", "Mirror Bastion", "U", 4, 6, "mist_college", "uncommon",
        static(s_cannot("be_targeted", SELF)), kw=("reinforcement",))
    b.F("Маячная башня", "Beacon Tower", "U", 3, 4, "salt_coast", "uncommon",
        static(s_supply(1)))

    b.P("Хозяйка Туманов", "Mistress of Mists", "U", 5, 6, "firstborn", "rare",
        static(s_cost(-1, ORDERS_IN_HAND)), trig("round_start", look(2)))

    # ------------------------------------------------------------------ Black
    b.C("Полночный Чертог", "Midnight Hall", "B", 10, 2, "midnight_court", "common",
        flavour=("Здесь не гасят свечей — здесь гасят надежды.",
                 "Here they do not snuff candles; they snuff hopes."))
    b.C("Чернотопь", "Blackmire", "B", 11, 1, "northern_wastes", "common",
        trig("enemy_squad_destroyed", gain(1)))
    b.C("Склеп Королей", "Crypt of Kings", "B", 9, 2, "midnight_court", "uncommon",
        decree(c_control("wounded_squad"), from_graveyard(GY_SQUAD)))
    b.C("Воронья Пристань", "Ravenwharf", "B", 12, 2, "salt_coast", "common")

    b.S("Гробокопатель", "Gravedigger", "B", 2, 2, "worker", "common",
        trig("enters", from_graveyard(GY_SQUAD)))
    b.S("Ночной вор", "Night Thief", "B", 1, 1, "rogue", "common",
        trig("assigned", lose(1)))
    b.S("Отравитель", "Poisoner", "B", 2, 2, "rogue", "common",
        trig("enters", wound(1, ENEMY_SQUAD)))
    b.S("Некромант-ученик", "Apprentice Necromancer", "B", 3, 2, "mage", "common",
        trig("your_squad_destroyed", create(WRAITH)))
    b.S("Костяной рыцарь", "Bone Knight", "B", 4, 4, "soldier,monster", "common",
        replace("destroyed", to_bottom(SELF)))
    b.S("Упырь", "Ghoul", "B", 3, 3, "monster", "common", kw=("zeal",))
    b.S("Шептунья", "Whisperer", "B", 2, 1, "mage,rogue", "common",
        trig("enters", discard(1, "choose_opponent")))
    b.S("Граф Полуночи", "Count of Midnight", "B", 5, 4, "nobility", "uncommon",
        decree(c_opp("wounded_squad"), destroy(WOUNDED_ENEMY)))
    b.S("Палач", "Executioner", "B", 4, 3, "soldier", "uncommon",
        activated([("pay", 2)], destroy(WOUNDED_ENEMY), limit="round"))
    b.S("Чумной лекарь", "Plague Doctor", "B", 3, 2, "worker,mage", "common",
        trig("destroyed", wound(2, ENEMY_SQUAD)))
    b.S("Стражник склепа", "Crypt Guard", "B", 3, 4, "soldier", "common",
        kw=("reinforcement",))
    b.S("Теневой клинок", "Shadow Blade", "B", 3, 2, "rogue", "uncommon",
        static(s_cannot("be_targeted", SELF)), trig("assigned", wound(1, ASSIGNED_ENEMY)))
    b.S("Вампирша-баронесса", "Vampire Baroness", "B", 5, 5, "nobility,monster", "rare",
        trig("enemy_squad_destroyed", heal(SELF), gain(1)))
    b.S("Ворон-соглядатай", "Spy Raven", "B", 1, 1, "monster", "common",
        trig("enters", mill(2)))
    b.S("Кладбищенский сторож", "Graveyard Watchman", "B", 2, 3, "worker", "common",
        activated([("exile_gy", 2)], gain(1), limit="round"))
    b.S("Владыка Костей Морох", "Moroch, Lord of Bones", "B", 7, 6, "monster,nobility",
        "legendary", trig("enters", create(WRAITH, 2)),
        trig("your_squad_destroyed", wound(2, ENEMY_SQUAD)))

    b.T("Засада в ночи", "Night Ambush", "B", 2, "confrontation", "common",
        superiority(destroy(WOUNDED_ENEMY)))
    b.T("Кровавая жатва", "Blood Harvest", "B", 3, "battle", "uncommon",
        outcome("win", from_graveyard(GY_SQUAD)))
    b.T("Тайный сговор", "Secret Pact", "B", 1, "confrontation", "common",
        outcome("any", discard(1, "defender")))
    b.T("Пляска мертвецов", "Dance of the Dead", "B", 3, "battle", "common",
        outcome("lose", create(WRAITH)))
    b.T("Последний вздох", "Last Breath", "B", 4, "confrontation", "rare",
        superiority(destroy(ENEMY_SQUAD)), outcome("win", lose(2, "defender")))

    b.O("Порча", "Hex", "B", 2, "curse", "common", dynamic(wound(2, ENEMY_SQUAD)))
    b.O("Смертный приговор", "Death Sentence", "B", 4, "curse", "uncommon",
        dynamic(destroy(ENEMY_SQUAD)))
    b.O("Поднять мёртвых", "Raise the Dead", "B", 3, "spell", "common",
        dynamic(create(WRAITH, 2)))
    b.O("Шёпот в темноте", "Whispers in the Dark", "B", 1, "curse", "common",
        dynamic(discard(1, "each_opponent")))
    b.O("Сделка с тенью", "Bargain with the Shade", "B", 0, "providence", "common",
        dynamic(draw(2), lose(2, "you")))
    b.O("Чёрный мор", "Black Pestilence", "B", 6, "curse", "rare",
        dynamic(wound(2, every({"type": "squad"}, "all Squads", "все отряды"))))
    b.O("Забвение", "Oblivion's Call", "B", 2, "spell", "uncommon",
        dynamic(exile(GY_ENEMY), draw(1)))

    b.R("Кинжал отравителя", "Poisoner's Dagger", "B", 2, "weapon", "common",
        activated([("pay", 1), ("discard", 1)], wound(1, ENEMY_SQUAD)))
    b.R("Череп предка", "Ancestor's Skull", "B", 2, "treasure", "common",
        activated([("destroy_self",)], from_graveyard(GY_SQUAD)), kw=("reinforcement",))
    b.R("Фонарь душ", "Lantern of Souls", "B", 3, "tool", "uncommon",
        trig("enemy_squad_destroyed", create(WRAITH)))
    b.R("Корона Полуночи", "Crown of Midnight", "B", 5, "treasure,gear", "rare",
        static(s_strength(1, YOUR_MONSTERS)), decree(c_coins(4), discard(1, "each_opponent")))

    b.F("Кладбищенская ограда", "Cemetery Fence", "B", 1, 3, "midnight_court", "common")
    b.F("Проклятый курган", "Cursed Barrow", "B", 3, 5, "northern_wastes", "common",
        trig("destroyed", create(WRAITH, 2)))
    b.F("Чёрная цитадель", "Black Citadel", "B", 5, 8, "midnight_court", "uncommon",
        trig("round_end", lose(1)), kw=("reinforcement",))
    b.F("Топь-ловушка", "Mire Trap", "B", 2, 3, "northern_wastes", "common",
        trig("destroyed", wound(2, ENEMY_SQUAD)))

    b.P("Посвящённая Ночи", "Initiate of the Night", "B", 4, 5, "initiate", "rare",
        trig("enemy_squad_destroyed", draw(1)), activated([("sacrifice",)], gain(2)))

    # ------------------------------------------------------------------ Red
    b.C("Огнегорье", "Firepeak", "R", 11, 2, "ash_clans",
        "common", flavour=("Гора дышит — кланы слушают.", "The mountain breathes; the clans listen."))
    b.C("Пепельный Острог", "Ash Stockade", "R", 10, 2, "ash_clans", "common",
        trig("direct_attack", gain(1)))
    b.C("Кузня Гнева", "Forge of Wrath", "R", 9, 2, "ash_clans", "uncommon",
        decree(c_round(3), wound(1, ENEMY_SQUAD)))
    b.C("Северный Рубеж", "Northern Frontier", "R", 13, 1, "northern_wastes", "common")

    b.S("Юный воитель", "Young Warrior", "R", 1, 2, "soldier", "common", kw=("zeal",))
    b.S("Берсерк", "Berserker", "R", 3, 4, "soldier", "common", kw=("zeal",),
        flavour=("Сначала рубит, потом спрашивает — если вообще спрашивает.",
                 "He cuts first and asks later, if he asks at all."))
    b.S("Поджигатель", "Firebrand", "R", 2, 2, "rogue", "common",
        trig("enters", wound(1, ENEMY_SQUAD)))
    b.S("Вожак стаи", "Pack Leader", "R", 4, 3, "monster,officer", "uncommon",
        static(s_keyword("zeal", YOUR_MONSTERS)))
    b.S("Огненный маг", "Fire Mage", "R", 3, 2, "mage", "common",
        activated([("pay", 2)], wound(2, ENEMY_SQUAD), limit="round"))
    b.S("Налётчик", "Raider", "R", 2, 2, "rogue,soldier", "common",
        trig("direct_attack", pump(2, SELF)))
    b.S("Вождь клана", "Clan Chieftain", "R", 5, 5, "officer,nobility", "uncommon",
        trig("enters", grant("zeal", YOUR_SQUADS)))
    b.S("Пепельный волк", "Ash Wolf", "R", 2, 3, "monster", "common")
    b.S("Заклинательница искр", "Spark Caller", "R", 3, 2, "mage", "common",
        trig("enters", create(SPARK, 2)))
    b.S("Таран-носец", "Ram Bearer", "R", 4, 4, "worker,soldier", "common",
        trig("assigned", wound(1, ENEMY_CITY)))
    b.S("Горный тролль", "Mountain Troll", "R", 5, 7, "monster", "uncommon",
        replace("wounded", pump(-1, SELF, "round")))
    b.S("Застрельщик", "Skirmisher", "R", 2, 2, "soldier", "common", kw=("zeal", "reinforcement"))
    b.S("Кузнец войны", "Warsmith", "R", 3, 3, "worker", "common",
        activated([("pay", 1)], pump(1, YOUR_SQUAD), limit="turn"))
    b.S("Огненный дракон", "Fire Drake", "R", 7, 7, "monster", "rare",
        trig("enters", wound(3, ENEMY_SQUAD)), kw=("zeal",))
    b.S("Пламенная Ярослава", "Yaroslava the Blazing", "R", 6, 5, "officer,mage", "legendary",
        trig("direct_attack", wound(2, ENEMY_CITY)), static(s_direct(1)), kw=("zeal",))
    b.S("Пленник ярости", "Rage Captive", "R", 1, 3, "monster", "common",
        trig("round_end", wound(2, SELF)), kw=("zeal",))

    b.T("Набег", "Raid", "R", 1, "confrontation", "common",
        superiority(wound(2, DEFENDER_CITY)))
    b.T("Кровавая сеча", "Bloody Melee", "R", 2, "battle", "common",
        outcome("any", wound(1, ASSIGNED_ANY)))
    b.T("Огненный вал", "Wall of Fire", "R", 3, "confrontation", "uncommon",
        superiority(wound(3, ENEMY_SQUAD)), outcome("win", create(SPARK)))
    b.T("Штурм", "Storming", "R", 4, "confrontation", "common",
        outcome("win", wound(2, DEFENDER_CITY)))
    b.T("Великая битва", "The Great Battle", "R", 5, "battle", "rare",
        superiority(wound(2, ALL_ASSIGNED_ENEMY)), outcome("tie", draw(1)))

    b.O("Огненный шар", "Fireball", "R", "X", "spell", "uncommon",
        dynamic(wound("X", ENEMY_SQUAD)))
    b.O("Боевой клич", "War Cry", "R", 1, "strategy", "common",
        dynamic(grant("zeal", YOUR_SQUAD)))
    b.O("Поджог", "Arson", "R", 2, "spell", "common", dynamic(wound(2, ENEMY_CITY)))
    b.O("Ярость предков", "Ancestral Fury", "R", 2, "blessing", "common",
        dynamic(pump(3, YOUR_SQUAD)))
    b.O("Разрушить стены", "Tear Down the Walls", "R", 3, "strategy", "uncommon",
        dynamic(destroy(ENEMY_FORT)))
    b.O("Рой искр", "Swarm of Sparks", "R", 3, "spell", "common", dynamic(create(SPARK, 3)))
    b.O("Извержение", "Eruption", "R", 6, "spell", "rare",
        dynamic(wound(3, ALL_ENEMY_SQUADS), wound(2, ENEMY_CITY)))

    b.R("Топор вождя", "Chieftain's Axe", "R", 3, "weapon", "common",
        static(s_strength(1, YOUR_OFFICERS)))
    b.R("Боевой рог", "War Horn", "R", 2, "tool", "common",
        activated([("destroy_self",)], grant("zeal", YOUR_SQUADS, "turn")),
        kw=("reinforcement",))
    b.R("Осадная катапульта", "Siege Catapult", "R", 4, "technology,weapon", "uncommon",
        activated([("pay", 3)], wound(2, ENEMY_CITY), limit="round"))
    b.R("Сердце вулкана", "Heart of the Volcano", "R", 5, "treasure", "rare",
        trig("round_start", create(SPARK)), static(s_direct(1)))

    b.F("Частокол кланов", "Clan Stakewall", "R", 1, 3, "ash_clans", "common")
    b.F("Дозорный костёр", "Signal Fire", "R", 2, 3, "ash_clans", "common",
        trig("your_city_wounded", create(SPARK)))
    b.F("Боевой лагерь", "War Camp", "R", 3, 5, "northern_wastes", "uncommon",
        static(s_direct(1)), kw=("reinforcement",))
    b.F("Огненный ров", "Fire Moat", "R", 3, 4, "ash_clans", "common",
        trig("wounded", wound(1, ENEMY_SQUAD)))

    b.P("Первородный Пламени", "Firstborn of Flame", "R", 6, 7, "firstborn", "legendary",
        static(s_keyword("zeal", YOUR_SQUADS), s_direct(1)))

    # ------------------------------------------------------------------ Multicolour
    b.S("Рыцарь-чародей", "Spellsword Knight", "WU", 4, 4, "soldier,mage", "uncommon",
        trig("you_play_order", pump(1, SELF)))
    b.S("Теневой инквизитор", "Shadow Inquisitor", "WB", 4, 3, "officer,rogue", "uncommon",
        trig("enters", destroy(WOUNDED_ENEMY)))
    b.S("Ледяной шаман", "Frost Shaman", "UR", 3, 3, "mage,monster", "uncommon",
        trig("enters", unassign(ASSIGNED_ENEMY), wound(1, ENEMY_SQUAD)))
    b.S("Кровавый барон", "Blood Baron", "BR", 5, 5, "nobility,soldier", "rare",
        trig("enemy_squad_destroyed", gain(1)), kw=("zeal",))
    b.O("Союз Зари и Пламени", "Alliance of Dawn and Flame", "WR", 3, "strategy", "rare",
        dynamic(create(MILITIA, 2), create(SPARK, 2)))
    b.T("Переговоры под луной", "Moonlit Parley", "UB", 2, "confrontation", "uncommon",
        superiority(discard(2, "defender")), outcome("any", look(2)))
    b.C("Перекрёсток Миров", "Crossroads of Worlds", "WU", 10, 2, "free_cities", "rare",
        decree(c_coins(6), draw(1)))
    b.C("Пепельный Склеп", "Ash Crypt", "BR", 10, 2, "northern_wastes", "rare",
        trig("city_ruined", gain(2)))

    # ------------------------------------------------------------------ Neutral
    b.C("Вольный Торжок", "Free Market Town", "", 9, 2, "free_cities", "common",
        decree(c_coins(8), supply_up(1)))
    b.C("Механоград", "Mechanograd", "", 10, 1, "mechanics_guild", "common",
        trig("you_play_relic", gain(1)))

    b.S("Наёмник", "Sellsword", "", 2, 2, "soldier", "common")
    b.S("Каменщик", "Stonemason", "", 2, 1, "worker", "common",
        trig("enters", restore(YOUR_FORT)))
    b.S("Странствующий торговец", "Wandering Merchant", "", 2, 1, "worker,rogue", "common",
        trig("enters", gain(2)))
    b.S("Механик Гильдии", "Guild Mechanic", "", 3, 2, "worker", "common",
        trig("enters", create(SENTRY)))
    b.S("Заводной голем", "Clockwork Golem", "", 5, 6, "monster,worker", "uncommon",
        kw=("reinforcement",))
    b.S("Атаман наёмников", "Mercenary Ataman", "", 4, 3, "officer", "uncommon",
        static(s_strength(1, YOUR_SOLDIERS)), kw=("reinforcement",))
    b.S("Бродячий рыцарь", "Wandering Knight", "", 3, 3, "soldier,nobility", "common")
    b.S("Охотник за головами", "Bounty Hunter", "", 3, 2, "rogue", "common",
        trig("enemy_squad_destroyed", gain(1)))
    b.S("Старый ветеран", "Old Veteran", "", 1, 2, "soldier", "common",
        kw=("reinforcement",))
    b.S("Изобретатель Громов", "Inventor Gromov", "", 4, 2, "worker,mage", "rare",
        trig("you_play_relic", draw(1)), static(s_cost(-1, RELICS_IN_HAND)))
    b.S("Разведчик пустошей", "Wasteland Scout", "", 1, 1, "rogue", "common",
        trig("enters", look(2)), kw=("zeal",))
    b.S("Стальной колосс", "Steel Colossus", "", 8, 9, "monster", "rare",
        static(s_cannot("be_targeted", SELF)))

    b.T("Дуэль", "Duel", "", 1, "confrontation", "common",
        outcome("win", gain(1)))
    b.T("Пограничная стычка", "Border Skirmish", "", 2, "confrontation", "common",
        superiority(gain(3)))
    b.T("Турнир", "Tournament", "", 2, "battle", "uncommon",
        outcome("win", draw(1)), outcome("lose", gain(1)))
    b.T("Осада", "Siege", "", 4, "confrontation", "uncommon",
        superiority(destroy(ENEMY_FORT)), outcome("win", wound(1, DEFENDER_CITY)))

    b.O("Подкуп", "Bribe", "", 2, "strategy", "common", dynamic(unassign(ASSIGNED_ENEMY)))
    b.O("Сбор припасов", "Gather Supplies", "", 3, "providence", "uncommon",
        dynamic(supply_up(1)))
    b.O("Торговый путь", "Trade Route", "", 1, "providence", "common", dynamic(gain(3)))
    b.O("Военный совет", "Council of War", "", 2, "strategy", "common",
        dynamic(look(3), draw(1)))
    b.O("Ремонт", "Repairs", "", 1, "providence", "common",
        dynamic(choose_one([restore(YOUR_FORT)], [heal(WOUNDED_YOUR_SQUAD)])))

    b.R("Подзорная труба", "Spyglass", "", 1, "tool", "common",
        activated([("pay", 1)], look(1)))
    b.R("Паровой молот", "Steam Hammer", "", 3, "technology,tool", "common",
        activated([("pay", 2)], wound(2, ENEMY_FORT)), kw=("reinforcement",))
    b.R("Кольчуга", "Chainmail", "", 2, "gear", "common",
        activated([("pay", 1)], pump(1, YOUR_SQUAD, "round"), limit="round"))
    b.R("Золотой кубок", "Golden Goblet", "", 3, "treasure", "uncommon",
        trig("round_start", gain(1)))
    b.R("Часы Гильдии", "Guild Clock", "", 4, "technology", "rare",
        decree(c_round(2), draw(1)), kw=("reinforcement",))

    b.F("Сторожевая застава", "Border Post", "", 2, 4, "free_cities", "common")
    b.F("Гильдейский склад", "Guild Warehouse", "", 3, 4, "mechanics_guild", "uncommon",
        static(s_supply(1)))
    b.F("Механическая стена", "Mechanical Wall", "", 4, 7, "mechanics_guild", "common",
        kw=("reinforcement",))

    b.P("Странник Меж Мирами", "Wanderer Between Worlds", "", 4, 5, "initiate", "rare",
        trig("round_start", look(1)), activated([("pay", 3)], draw(1), limit="round"))
    b.P("Аспект Равновесия", "Aspect of Balance", "", 5, 6, "aspect", "legendary",
        decree(c_hand_max(2), draw(1), gain(1)))

    # Extra commons and uncommons to round out the colours.
    b.S("Оруженосец", "Squire", "W", 1, 2, "soldier", "common")
    b.S("Монах-летописец", "Chronicler Monk", "W", 2, 1, "worker,mage", "common",
        decree(c_no("wounded_squad"), look(2)))
    b.S("Морской волк", "Old Sea Dog", "U", 3, 3, "soldier,rogue", "common")
    b.S("Медуза глубин", "Deep Jellyfish", "U", 2, 2, "monster", "common",
        trig("wounded", bounce(SELF)))
    b.S("Могильный червь", "Grave Worm", "B", 2, 3, "monster", "common",
        activated([("exile_gy", 1)], pump(1, SELF)))
    b.S("Скупщик краденого", "Fence", "B", 2, 1, "rogue,worker", "common",
        trig("opp_discards", gain(1)))
    b.S("Дикий вепрь", "Wild Boar", "R", 3, 4, "monster", "common")
    b.S("Метатель копий", "Javelineer", "R", 2, 1, "soldier", "common",
        activated([("destroy_self",)], wound(2, ENEMY_SQUAD)))
    b.S("Сказитель", "Storyteller", "", 2, 1, "nobility,worker", "common",
        trig("decree_issued", gain(1)))
    b.S("Ночной сторож", "Night Watchman", "", 2, 2, "soldier,worker", "common",
        trig("opp_tactic", look(1)))
    b.O("Отступление", "Retreat", "", 0, "strategy", "common", dynamic(unassign(YOUR_SQUAD)))
    b.O("Подмога", "Reinforcements Arrive", "", 2, "strategy", "uncommon",
        dynamic(play_free(HAND_SMALL_SQUAD)))
    b.O("Клятва Восхождения", "Oath of Ascension", "W", 5, "blessing", "legendary",
        dynamic(restore(YOUR_CITY), pump(2, YOUR_SQUADS, "round"), draw(1)))
    b.O("Проклятие немоты", "Curse of Silence", "B", 3, "curse", "uncommon",
        dynamic(discard(2, "choose_opponent")))
    b.O("Вызов подкреплений", "Summon Reinforcements", "", 3, "strategy", "rare",
        dynamic(play_free(HAND_REINFORCEMENT)))
    b.T("Испытание силы", "Trial of Strength", "", 3, "battle", "common",
        outcome("win", pump(1, YOUR_ASSIGNED, "round")))
    b.R("Щит из драконьей чешуи", "Dragonscale Shield", "R", 4, "gear,treasure", "uncommon",
        static(s_cannot("be_wounded", YOUR_FORTS)))
    b.R("Манускрипт тумана", "Mist Manuscript", "U", 1, "treasure", "common",
        activated([("destroy_self",)], draw(1)))
    b.F("Дозорная вышка", "Lookout Post", "U", 1, 2, "salt_coast", "common",
        trig("opp_tactic", draw(1)))
    b.F("Солнечные врата", "Sun Gate", "W", 3, 6, "dawn_order", "common")
    b.S("Гонец", "Courier", "", 1, 1, "worker", "common",
        trig("enters", draw(1), discard(1)), kw=("zeal",))
    b.S("Кочевник степей", "Steppe Nomad", "R", 2, 2, "soldier,rogue", "common",
        trig("enters", gain(1)))
    b.S("Пророчица", "Prophetess", "U", 4, 2, "mage,nobility", "rare",
        decree(c_hand_max(2), draw(2)), static(s_cost(-1, TACTICS_IN_HAND)))
    b.S("Дева-воительница", "Shieldmaiden", "W", 3, 3, "soldier", "common", kw=("zeal",))
    b.S("Трупоед", "Carrion Eater", "B", 4, 4, "monster", "common",
        trig("enemy_squad_destroyed", pump(1, SELF, "round")))
    b.S("Дьяк Коллегии", "College Clerk", "U", 1, 1, "worker", "common",
        trig("you_play_order", gain(1)))
    # Costs paid in Supply symbols instead of coins (rule 2.1.2.3).
    b.S("Интендант", "Quartermaster", "", {"supply": 2}, 4, "officer,worker", "uncommon",
        trig("enters", gain(2)))
    b.F("Зернохранилище", "Granary", "", {"supply": 1}, 4, "free_cities", "rare",
        trig("round_start", gain(1)))
    # fmt: on
    return b


# ====================================================================== VS0, VS2, VS3, VS4

SMALL_BOOSTER = {
    "size": 10,
    "slots": [
        {"rarity": "common", "count": 6, "types": NON_CITY},
        {"rarity": "uncommon", "count": 2, "types": NON_CITY},
        {
            "rarity": "rare",
            "count": 1,
            "types": NON_CITY,
            "upgrade": "legendary",
            "upgrade_chance": 0.125,
        },
        {"rarity": "common", "count": 1, "types": ["city"]},
    ],
}


def vs0() -> SetBuilder:
    # fmt: off
    b = SetBuilder("VS0", "Восхождение: Пролог", "Voskhozhdenie: Prologue", "2025-10-04", {
        "river_march": {"ru": "Заречная марка", "en": "River March"},
        "free_cities": {"ru": "Вольные города", "en": "Free Cities"},
        "old_kingdom": {"ru": "Старое королевство", "en": "Old Kingdom"},
    })
    b.C("Старый Кремль", "Old Kremlin", "W", 11, 2, "old_kingdom", "common")
    b.C("Речной Порт", "River Port", "U", 10, 2, "river_march", "common")
    b.C("Ночной Посад", "Night Suburb", "B", 10, 2, "old_kingdom", "common")
    b.C("Горный Острог", "Mountain Fort", "R", 11, 2, "river_march", "common")
    b.C("Ярмарочный Город", "Fair Town", "", 9, 2, "free_cities", "common")
    b.S("Дружинник", "Retainer", "W", 2, 2, "soldier", "common")
    b.S("Воевода", "Voivode", "W", 4, 4, "officer,nobility", "uncommon",
        static(s_strength(1, YOUR_SOLDIERS)))
    b.S("Лодочник", "Boatman", "U", 1, 1, "worker", "common", trig("enters", look(2)))
    b.S("Волхв", "Volkhv", "U", 3, 2, "mage", "uncommon", trig("enters", draw(1)))
    b.S("Лиходей", "Villain", "B", 2, 2, "rogue", "common", trig("assigned", lose(1)))
    b.S("Упырь-отшельник", "Hermit Ghoul", "B", 3, 3, "monster", "common")
    b.S("Ушкуйник", "River Pirate", "R", 2, 2, "rogue,soldier", "common", kw=("zeal",))
    b.S("Медведь-шатун", "Rogue Bear", "R", 4, 5, "monster", "common")
    b.S("Плотник", "Carpenter", "", 1, 1, "worker", "common", trig("enters", restore(YOUR_FORT)))
    b.S("Наёмный лучник", "Hired Archer", "", 2, 2, "soldier", "common", kw=("reinforcement",))
    b.T("Кулачный бой", "Fistfight", "", 1, "confrontation", "common",
        superiority(gain(2)))
    b.T("Стенка на стенку", "Wall Against Wall", "R", 2, "battle", "common",
        outcome("any", gain(1)))
    b.O("Добрая весть", "Good Tidings", "W", 1, "blessing", "common", dynamic(heal(WOUNDED_YOUR_SQUAD), gain(1)))
    b.O("Гадание", "Fortune-Telling", "U", 1, "providence", "common", dynamic(look(3)))
    b.O("Сглаз", "Evil Eye", "B", 1, "curse", "common", dynamic(wound(1, ENEMY_SQUAD)))
    b.O("Пожар", "Blaze", "R", 3, "spell", "uncommon", dynamic(wound(2, ENEMY_CITY)))
    b.R("Оберег", "Charm", "", 1, "treasure", "common",
        activated([("destroy_self",)], heal(WOUNDED_YOUR_SQUAD)))
    b.F("Засека", "Abatis", "", 2, 4, "river_march", "common")
    b.P("Дух Предков", "Spirit of the Ancestors", "", 4, 5, "aspect", "rare",
        trig("round_start", gain(1)))
    # fmt: on
    return b


def vs2() -> SetBuilder:
    # fmt: off
    b = SetBuilder("VS2", "Эхо Чернотопи", "Echoes of Blackmire", "2026-05-23", {
        "northern_wastes": {"ru": "Северные пустоши", "en": "Northern Wastes"},
        "midnight_court": {"ru": "Полночный Двор", "en": "Midnight Court"},
        "mist_college": {"ru": "Туманная Коллегия", "en": "Mist College"},
        "drowned_villages": {"ru": "Затопленные сёла", "en": "Drowned Villages"},
        "free_cities": {"ru": "Вольные города", "en": "Free Cities"},
    }, SMALL_BOOSTER)
    drowned = b.M(101, "Утопленник", "Drowned One", "B", 2, "monster",
                  replace("destroyed", exile(SELF)))
    b.C("Гнилые Мостки", "Rotten Boardwalk", "B", 10, 2, "drowned_villages", "common",
        trig("your_squad_destroyed", gain(1)))
    b.C("Затонувший Звон", "Sunken Chime", "U", 9, 2, "drowned_villages", "common",
        decree(c_hand_max(2), look(2)))
    b.C("Болотный Скит", "Marsh Hermitage", "W", 11, 1, "northern_wastes", "common",
        trig("round_start", heal(WOUNDED_YOUR_SQUAD)))
    b.C("Кострище", "Firepit", "R", 12, 2, "northern_wastes", "common")
    b.C("Туманный Хутор", "Misty Farmstead", "", 10, 2, "free_cities", "uncommon")
    b.S("Болотница", "Marsh Maiden", "B", 2, 2, "monster", "common",
        trig("enters", create(drowned)))
    b.S("Утопленный капитан", "Drowned Captain", "B", 4, 3, "officer,monster", "uncommon",
        trig("your_squad_destroyed", create(drowned)))
    b.S("Собиратель костей", "Bone Collector", "B", 3, 2, "worker", "common",
        activated([("exile_gy", 2)], from_graveyard(GY_SQUAD), limit="round"))
    b.S("Туманный дозор", "Mist Patrol", "U", 2, 2, "soldier", "common",
        trig("assigned", look(1)))
    b.S("Ведунья", "Wise Woman", "U", 3, 2, "mage", "common", trig("enters", mill(2, "you"),
                                                                    draw(1)))
    b.S("Странник болот", "Bog Wanderer", "", 2, 2, "rogue", "common", kw=("zeal",))
    b.S("Лекарь пустошей", "Wasteland Healer", "W", 2, 1, "worker", "common",
        trig("enters", heal(WOUNDED_YOUR_SQUAD)))
    b.S("Пепельный охотник", "Ash Hunter", "R", 3, 3, "soldier", "common",
        trig("enters", wound(1, WOUNDED_ENEMY)))
    b.S("Наёмник", "Sellsword", "", 2, 2, "soldier", "common")  # reprint of VS1's card
    b.S("Топляк", "Sunken Log Beast", "B", 5, 6, "monster", "rare",
        replace("destroyed", to_bottom(SELF)), kw=("reinforcement",))
    b.S("Королева Утопленников", "Queen of the Drowned", "B", 6, 5, "nobility,monster",
        "legendary", trig("enters", create(drowned, 2)), static(s_strength(1, YOUR_MINORS)))
    b.T("Болотная трясина", "Quagmire", "B", 2, "confrontation", "common",
        superiority(unassign(ASSIGNED_ENEMY), wound(1, ENEMY_SQUAD)))
    b.T("Туманная засада", "Misty Ambush", "U", 2, "battle", "common",
        outcome("win", draw(1)))
    b.T("Ночная вылазка", "Night Sortie", "", 3, "confrontation", "uncommon",
        outcome("any", mill(2, "defender")))
    b.O("Зов трясины", "Call of the Mire", "B", 2, "spell", "common",
        dynamic(create(drowned), mill(1, "you")))
    b.O("Вспомнить былое", "Remember the Past", "U", 2, "providence", "common",
        dynamic(from_graveyard(GY_ORDER)))
    b.O("Болотная лихорадка", "Marsh Fever", "B", 3, "curse", "uncommon",
        dynamic(wound(1, ALL_ENEMY_SQUADS), discard(1, "each_opponent")))
    b.O("Очищение", "Purification", "W", 1, "blessing", "common",
        dynamic(exile(GY_ENEMY), heal(WOUNDED_YOUR_SQUAD)))
    b.R("Чёрный фонарь", "Black Lantern", "B", 2, "tool", "common",
        trig("enemy_squad_destroyed", mill(1)))
    b.R("Сеть рыбака", "Fisher's Net", "U", 2, "tool,gear", "uncommon",
        activated([("pay", 2)], unassign(ASSIGNED_ENEMY), limit="round"))
    b.F("Гать", "Corduroy Road", "", 1, 3, "drowned_villages", "common")
    b.F("Курган утопленников", "Barrow of the Drowned", "B", 3, 5, "drowned_villages", "rare",
        trig("destroyed", create(drowned, 2)))
    b.P("Посвящённый Глубин", "Initiate of the Deep", "U", 5, 5, "initiate", "rare",
        decree(c_hand_min(5), discard(1), draw(2)))
    # fmt: on
    return b


def vs3() -> SetBuilder:
    # fmt: off
    b = SetBuilder("VS3", "Пламя Севера", "Flame of the North", "2026-08-01", {
        "ash_clans": {"ru": "Пепельные Кланы", "en": "Ash Clans"},
        "dawn_order": {"ru": "Рассветный Орден", "en": "Order of the Dawn"},
        "frost_gate": {"ru": "Морозные врата", "en": "Frost Gate"},
        "salt_coast": {"ru": "Солёный берег", "en": "Salt Coast"},
    }, SMALL_BOOSTER)
    b.C("Морозные Врата", "Frost Gate", "W", 12, 2, "frost_gate", "common",
        static(s_strength(1, YOUR_SOLDIERS)))
    b.C("Пылающий Стан", "Burning Camp", "R", 10, 2, "ash_clans", "common",
        trig("direct_attack", create(SPARK)))
    b.C("Ледяная Бухта", "Icy Bay", "U", 11, 2, "salt_coast", "common")
    b.C("Вороний Утёс", "Raven Cliff", "B", 10, 2, "frost_gate", "common",
        trig("enemy_squad_destroyed", lose(1)))
    b.C("Северная Ставка", "Northern Headquarters", "WR", 10, 2, "frost_gate", "uncommon",
        static(s_direct(1)))
    b.S("Ледяной страж", "Ice Sentinel", "W", 3, 4, "soldier", "common",
        static(s_cannot("be_targeted", SELF)))
    b.S("Северный рыцарь", "Northern Knight", "W", 4, 4, "soldier,nobility", "common",
        trig("assigned", heal(WOUNDED_YOUR_SQUAD)))
    b.S("Огненная валькирия", "Fire Valkyrie", "WR", 5, 5, "soldier,mage", "rare",
        trig("direct_attack", pump(2, YOUR_ASSIGNED)), kw=("zeal",))
    b.S("Пеплорождённый", "Ashborn", "R", 2, 2, "monster", "common",
        trig("destroyed", create(SPARK)), kw=("zeal",))
    b.S("Вестник набега", "Raid Herald", "R", 3, 2, "officer", "common",
        trig("direct_attack", draw(1)))
    b.S("Ледяной великан", "Frost Giant", "U", 6, 7, "monster", "uncommon",
        trig("enters", unassign(ASSIGNED_ENEMY)))
    b.S("Разведчица фьордов", "Fjord Scout", "U", 2, 1, "rogue", "common",
        trig("enters", look(3)))
    b.S("Мародёр", "Marauder", "B", 2, 2, "rogue", "common",
        trig("assigned", lose(1)))
    b.S("Кузнец рун", "Runesmith", "", 3, 2, "worker,mage", "common",
        activated([("pay", 2)], pump(2, YOUR_SQUAD), limit="round"))
    b.S("Страж ворот", "Gate Warden", "W", 2, 3, "soldier", "common")  # reprint of VS1's card
    b.S("Ярл Пепла", "Jarl of Ash", "R", 6, 6, "nobility,officer", "legendary",
        static(s_keyword("zeal", YOUR_SQUADS)),
        trig("direct_attack", wound(2, ENEMY_CITY)))
    b.T("Прорыв", "Breakthrough", "R", 2, "confrontation", "common",
        superiority(wound(3, DEFENDER_CITY)))
    b.T("Ледяная стена", "Ice Wall", "W", 2, "battle", "common",
        outcome("tie", heal(WOUNDED_YOUR_SQUAD), draw(1)))
    b.T("Северная сага", "Northern Saga", "", 4, "battle", "uncommon",
        superiority(draw(2)), outcome("win", gain(2)))
    b.O("Клич ярла", "Jarl's Call", "R", 2, "strategy", "common",
        dynamic(grant("zeal", YOUR_SQUADS, "turn")))
    b.O("Оттепель", "Thaw", "W", 2, "blessing", "common",
        dynamic(restore(YOUR_CITY)))
    b.O("Буран", "Blizzard", "U", 4, "spell", "uncommon",
        dynamic(bounce(ALL_ASSIGNED_ENEMY)))
    b.O("Пепельный дождь", "Ash Rain", "R", 3, "spell", "common",
        dynamic(wound(1, every(
            {"type": "squad", "owner": "opponent", "assigned": False},
            "opponents' Squads not assigned to Tactics",
            "отряды оппонентов, не назначенные в тактики"))))
    b.R("Рунный щит", "Rune Shield", "W", 2, "gear", "common",
        activated([("pay", 1)], heal(WOUNDED_YOUR_SQUAD), limit="round"),
        kw=("reinforcement",))
    b.R("Боевой таран", "Battering Ram", "R", 3, "technology,weapon", "uncommon",
        trig("direct_attack", wound(1, ENEMY_FORT)))
    b.F("Снежный вал", "Snow Rampart", "W", 2, 5, "frost_gate", "common")
    b.F("Сигнальная башня", "Signal Tower", "R", 3, 4, "ash_clans", "rare",
        static(s_direct(1)), kw=("reinforcement",))
    b.P("Аспект Зимы", "Aspect of Winter", "U", 5, 6, "aspect", "rare",
        static(s_cost(1, ENEMY_ORDERS_IN_HAND)))
    # fmt: on
    return b


def vs4() -> SetBuilder:
    # fmt: off
    b = SetBuilder("VS4", "Гильдия и Корона", "Guild and Crown", "2026-10-17", {
        "mechanics_guild": {"ru": "Гильдия механиков", "en": "Mechanics' Guild"},
        "crown_lands": {"ru": "Коронные земли", "en": "Crown Lands"},
        "free_cities": {"ru": "Вольные города", "en": "Free Cities"},
    }, SMALL_BOOSTER)
    b.C("Коронный Град", "Crown City", "W", 12, 2, "crown_lands", "common",
        decree(c_coins(5), draw(1)))
    b.C("Часовая Башня", "Clock Tower City", "U", 10, 2, "mechanics_guild", "common",
        trig("you_play_relic", look(1)))
    b.C("Тёмный Рынок", "Dark Market", "B", 10, 2, "free_cities", "common",
        trig("opp_discards", gain(1)))
    b.C("Литейный Двор", "Foundry Yard", "R", 11, 2, "mechanics_guild", "common")
    b.C("Торговая Палата", "Chamber of Trade", "", 9, 2, "free_cities", "uncommon",
        decree(c_coins(7), supply_up(1)))
    b.S("Королевский гвардеец", "Royal Guardsman", "W", 3, 3, "soldier", "common",
        kw=("reinforcement",))
    b.S("Придворный маг", "Court Mage", "U", 3, 2, "mage,nobility", "common",
        decree(c_hand_max(3), draw(1)))
    b.S("Казначей", "Treasurer", "", 2, 1, "nobility,worker", "common",
        decree(c_coins(4), gain(1)))
    b.S("Подмастерье", "Journeyman", "", 1, 1, "worker", "common",
        trig("enters", create(SENTRY)))
    b.S("Паровой рыцарь", "Steam Knight", "", 5, 5, "soldier,worker", "uncommon",
        replace("wounded", lose(1, "you")))
    b.S("Шпион короны", "Crown Spy", "B", 2, 2, "rogue", "common",
        trig("enters", discard(1, "choose_opponent")))
    b.S("Механический дракон", "Mechanical Dragon", "R", 7, 7, "monster", "rare",
        trig("enters", wound(2, ENEMY_FORT)), kw=("zeal",))
    b.S("Герцогиня", "Duchess", "W", 4, 3, "nobility", "uncommon",
        trig("decree_issued", heal(WOUNDED_YOUR_SQUAD)))
    b.S("Сборщик налогов", "Tax Collector", "B", 3, 2, "worker,officer", "common",
        decree(c_round(2), lose(1)))
    b.S("Король Ярополк", "King Yaropolk", "W", 7, 6, "nobility,officer", "legendary",
        static(s_strength(1, YOUR_SQUADS)), decree(c_coins(3), create(MILITIA, 2)))
    b.S("Огненный механик", "Fire Mechanic", "R", 2, 2, "worker", "common",
        activated([("destroy_self",)], wound(2, ENEMY_FORT)))
    b.T("Придворная интрига", "Court Intrigue", "B", 2, "confrontation", "common",
        superiority(discard(2, "defender")))
    b.T("Торговая война", "Trade War", "", 2, "confrontation", "common",
        outcome("win", lose(2, "defender")))
    b.T("Королевский турнир", "Royal Tournament", "W", 3, "battle", "uncommon",
        outcome("win", gain(2)), outcome("tie", draw(1)))
    b.O("Указ короля", "King's Edict", "W", 2, "strategy", "common",
        dynamic(if_(c_control("squad", 2), gain(2))))
    b.O("Чертежи", "Blueprints", "U", 1, "providence", "common", dynamic(look(2), draw(1)))
    b.O("Переплавка", "Smelting", "R", 2, "spell", "common", dynamic(destroy(ENEMY_RELIC)))
    b.O("Шантаж", "Blackmail", "B", 2, "curse", "uncommon",
        dynamic(choose_one([lose(3)], [discard(1, "each_opponent")])))
    b.R("Заводной помощник", "Clockwork Assistant", "", 2, "technology", "common",
        trig("round_start", gain(1)), kw=("reinforcement",))
    b.R("Корона Восхождения", "Crown of Ascension", "", 5, "treasure,gear", "rare",
        static(s_strength(1, YOUR_NOBLES)), decree(c_coins(6), draw(2)))
    b.F("Гильдейская мастерская", "Guild Workshop", "", 3, 4, "mechanics_guild", "common",
        static(s_cost(-1, RELICS_IN_HAND)))
    b.F("Королевская крепость", "Royal Fortress", "W", 5, 9, "crown_lands", "uncommon",
        static(s_supply(1)))
    b.P("Первородный Механизм", "The Firstborn Mechanism", "", 6, 7, "firstborn", "legendary",
        trig("round_start", create(SENTRY)), static(s_strength(1, YOUR_WORKERS)))
    # fmt: on
    return b


# ====================================================================== main

BUILDERS = (vs0, build_vs1, vs2, vs3, vs4)


def render_all() -> dict[str, str]:
    """File name -> JSON text of every set."""
    MINORS.clear()
    files = {}
    for make in BUILDERS:
        b = make()
        files[f"{b.code.lower()}.json"] = b.text()
    return files


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, text in render_all().items():
        path = OUT_DIR / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"out of date: {', '.join(stale)} (run python -m engine.voskhozhdenie.setdata)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
