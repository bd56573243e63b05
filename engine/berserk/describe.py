"""Berserk described to people (``engine.core.describe``): legal actions, the decision the
game waits for and events as short sentences in English or Russian, and the printed
details of cards (name, type, element, cost, lives, simple strike, movement, abilities).

Everything is read from a ``Reading`` of the viewer's own ``view`` (206.5-206.7: the
opponent's Deal and Recruit zones are counts, a hidden card only its owner and cell)
plus the events themselves. Berserk's view and events name an instance as ``card`` (its
number) and its card id as ``id``, so this describer gathers what the reading may name
itself: every ``{"card": n, "id": ...}`` of the view (cards in play, Graveyards, the
viewer's own Deal and Recruit zones) and the ``id`` that a ``reveal``, ``destroyed`` or ``taken``
event makes public. Any other instance is "a hidden card"; a hidden card in play is
described by its cell. Cell names are the view's (``A1``..``E3'``, 207.5).

A chain of objects (216.1) is told across several events (``strike``, ``target``,
``roll``, ``result``, ``calculation``, ``wounds``...): the describer remembers, per
reading, which cards each chain number concerns as it reads the log in order, so the
dice and the strike-table result name the attacker and the retaliator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.berserk import cards as card_data
from engine.berserk.limited import ELITE, ORDINARY, TYPE_NAMES, cost_text
from engine.berserk.model import ELEMENT_NAMES, NAMED, Ability, Card, printed_id
from engine.core.describe import CardDescriber, Reading, Words, named_seat, text_lines

PHASES: dict[str, Words] = {
    "first": ("Turn order", "Очерёдность хода"),
    "deal": ("Deal", "Раздача"),
    "recruit": ("Recruitment", "Набор отряда"),
    "place": ("Placement", "Расстановка"),
    "reveal": ("Reveal", "Вскрытие"),
    "host": ("Hosts", "Носители"),
    "vanguard": ("Vanguard", "Авангард"),
    "main": ("Main Phase", "Основная фаза"),
    "final": ("Final Phase", "Заключительная фаза"),
    "over": ("Game over", "Игра окончена"),
}
ACTION_KINDS: dict[str, Words] = {
    "choose_first": ("Turn order", "Очерёдность хода"),
    "redeal": ("Redeal", "Пересдача"),
    "keep": ("Keep the deal", "Оставить раздачу"),
    "recruit": ("Recruit", "Набор в отряд"),
    "recruit_done": ("Finish recruiting", "Завершить набор"),
    "place": ("Place", "Расстановка"),
    "keep_hidden": ("Keep hidden", "Оставить скрытой"),
    "reveal_done": ("Reveal", "Вскрытие"),
    "host": ("Host", "Носитель"),
    "move": ("Move", "Движение"),
    "strike": ("Strike", "Удар"),
    "defender": ("Defender", "Защитник"),
    "weaken": ("Weaken", "Ослабление"),
    "ability": ("Ability", "Способность"),
    "reveal": ("Reveal (Stealth)", "Открыть (Скрытность)"),
    "slow": ("Slow action", "Медленное действие"),
    "pass": ("Pass", "Пас"),
}
TO_A_CELL = ("jump", "teleport", "summon", "resurrection")  # the ability names a cell
KINDS: dict[str, Words] = {  # the strength of an attack [205.4-205.6]
    "weak": ("weak", "слабый"),
    "medium": ("medium", "средний"),
    "strong": ("strong", "сильный"),
    "miss": ("miss", "промах"),
}
STACK_OBJECTS: dict[str, Words] = {  # 216.1
    "declaration": ("Declaration", "Объявление"),
    "target": ("Target", "Цель"),
    "roll": ("Roll", "Бросок"),
    "result": ("Result", "Результат"),
    "calculation": ("Calculation", "Расчёт"),
    "defense": ("Defense", "Защита"),
    "wounds": ("Wounds", "Раны"),
    "payment": ("Payment", "Оплата"),
    "end": ("End", "Конец"),
    "destruction": ("Destruction", "Уничтожение"),  # 402.3а: a destruction effect
}
RULE_CAUSES: dict[str, Words] = {  # why a card wounds, heals or reveals itself
    "С: Отравление": ("Poison", "Отравление"),
    "С: Угасание": ("Fading", "Угасание"),
    "С: Страх": ("Fear", "Страх"),
    "С: Регенерация": ("Regeneration", "Регенерация"),
    "С: Вампиризм": ("Vampirism", "Вампиризм"),
    "С: Скрытность": ("Stealth", "Скрытность"),
    "С: Авангард": ("Vanguard", "Авангард"),
    "211.9": ("slow action", "медленное действие"),
}
# Any other named ability as the cause of an event ("С: Прыжок" -> Jump).
RULE_CAUSES.update(
    {
        f"С: {ru}".casefold(): (en, ru)
        for en, ru, _x in NAMED.values()
        if f"С: {ru}" not in RULE_CAUSES
    }
)


def _plural_ru(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class BerserkDescriber(CardDescriber[Card]):
    """The ``Describer`` of Berserk over a card database (the engine's own)."""

    ACTION_KINDS = ACTION_KINDS

    def _load_db(self) -> Any:
        from engine.berserk.game import SYSTEM

        return SYSTEM.db

    def _lookup(self, card_id: str) -> Card:
        return self.db.card(printed_id(card_id))  # a blank twin (407.4): its printed card

    # -- what the reading may name ---------------------------------------------------------

    def _learn(self, reading: Reading) -> dict[str, Any]:
        """Fill ``reading.known`` / ``where`` / ``owners`` from the view once (Berserk's
        ``{"card": n, "id": ...}``), and keep this describer's notes on the reading: the
        hidden cards' cells and the chains read so far."""
        notes = reading.__dict__.get("_berserk")
        if notes is not None:
            return notes
        notes = {"chains": {}, "hidden_cells": []}
        reading.__dict__["_berserk"] = notes
        view = reading.view
        for player in view.get("players") or ():
            seat = _int(player.get("seat")) if isinstance(player, Mapping) else None
            for zone in ("deal", "recruit", "grave"):
                items = player.get(zone) if isinstance(player, Mapping) else None
                if isinstance(items, list):
                    for item in items:
                        self._note(reading, item, zone, seat)
        for piece in view.get("pieces") or ():
            if not isinstance(piece, Mapping):
                continue
            if piece.get("hidden") and _int(piece.get("card")) is None:
                notes["hidden_cells"].append((piece.get("owner"), piece.get("cell")))
                continue
            zone = piece.get("zone") or "battlefield"
            self._note(reading, piece, zone, _int(piece.get("owner")))
        for n, chain in (view.get("chains") or {}).items():
            if isinstance(chain, Mapping) and "source" in chain:
                notes["chains"][str(n)] = {
                    "source": chain.get("source"),
                    "target": chain.get("target"),
                    "ability": None,
                }
        return notes

    @staticmethod
    def _note(reading: Reading, item: Any, zone: str, owner: int | None) -> None:
        if not isinstance(item, Mapping):
            return
        iid, card_id = _int(item.get("card")), item.get("id")
        if iid is None or not isinstance(card_id, str):
            return
        reading.known[iid] = card_id
        reading.where.setdefault(iid, zone)
        if owner is not None:
            reading.owners.setdefault(iid, owner)

    def card_name(self, reading: Reading, iid: Any) -> str:
        self._learn(reading)
        return super().card_name(reading, iid)

    def _named(self, reading: Reading, card_id: Any) -> str:
        return f"«{self.printed_name(reading, card_id)}»"

    def _hidden_at(self, reading: Reading, cell: Any, case: str = "nom") -> str:
        """A hidden card by its cell, in the case a Russian sentence needs."""
        if not isinstance(cell, str):
            return reading.t("a hidden card", "скрытая карта")
        words = {
            "nom": (f"the hidden card on {cell}", f"скрытая карта на {cell}"),
            "acc": (f"the hidden card on {cell}", f"скрытую карту на {cell}"),
            "dat": (f"the hidden card on {cell}", f"скрытой карте на {cell}"),
        }
        return reading.pick(words[case])

    def _target(self, reading: Reading, action: Mapping[str, Any], case: str = "nom") -> str:
        if "cell" in action and "target" not in action:
            return self._hidden_at(reading, action.get("cell"), case)
        return self.card_name(reading, action.get("target"))

    # -- cards -------------------------------------------------------------------------------

    def abilities(self, reading: Reading, card: Card) -> list[str]:
        return [card_data.ability_text(a, reading.language, card.type) for a in card.abilities]

    def card(self, reading: Reading, card_id: str) -> dict[str, Any]:
        card = self._card(card_id)
        if card is None:
            return self.unknown_card(card_id)
        kind = card.subtype or card.type
        strike = "-".join(map(str, card.strike)) if card.type == "creature" else None
        element = reading.pick(ELEMENT_NAMES.get(card.element), card.element)
        classes = [reading.pick(card_data.CLASSES.get(c), c) for c in card.classes]
        return {
            "id": card.id,
            "name": card.name(reading.language),
            "type": kind,
            "kind": reading.pick(TYPE_NAMES.get(kind), kind),
            "element": element,
            "element_key": card.element or "neutral",
            "cost": cost_text(card),
            "cost_value": card.cost,
            "elite": card.elite,
            "cost_label": reading.t(
                "elite (gold)" if card.elite else "ordinary (silver or gold)",
                "элитная (золото)" if card.elite else "обычная (серебро или золото)",
            ),
            "lives": card.lives or None,
            "strike": strike,
            "movement": card.movement or None,
            "classes": classes,
            "abilities": self.abilities(reading, card),
            "text": text_lines(card.text_ru if reading.ru else card.text_en),
            "rarity": card.rarity,
        }

    def _ability_words(self, reading: Reading, source: Any, ability: Any) -> str:
        """A playable ability as the card prints it ("Shot 2", «Выстрел на 2»)."""
        card = self._card(reading.known.get(source)) if _int(source) is not None else None
        if isinstance(ability, str) and ability.startswith("script"):  # the card's n-th ability
            n = int(ability[6:]) if ability[6:].isdigit() else None
            if card is not None and n is not None and n < len(card.abilities):
                return card_data.ability_text(card.abilities[n], reading.language, card.type)
            return reading.t("an ability", "способность")
        if not isinstance(ability, str) or not ability:
            return reading.t("an ability", "способность")
        if ability not in NAMED:
            return ability
        printed = next((a for a in card.abilities if a.name == ability), None) if card else None
        if printed is not None:
            return card_data.ability_text(printed, reading.language, card.type)
        if ability in ("summon", "resurrection"):  # their words need the class they name
            return reading.pick(NAMED[ability][:2])
        return card_data.ability_text(Ability(name=ability), reading.language)

    def _cost(self, card: Card | None, x: Any) -> str:
        if card is None:
            return ""
        if card.cost_x and _int(x) is not None:
            return f"{card.cost + x}{ELITE if card.elite else ORDINARY}"
        return cost_text(card)

    # -- actions -----------------------------------------------------------------------------

    def action(self, reading: Reading, action: Mapping[str, Any]) -> dict[str, Any]:
        self._learn(reading)
        kind = action.get("type", "")
        t = reading.t
        iid = _int(action.get("card"))
        name = self.card_name(reading, iid) if iid is not None else ""
        group = "turn"
        card: int | None = iid
        short = text = ""
        if kind == "choose_first":
            who = reading.seat(action.get("first"))
            short = text = t(f"{who} goes first", f"Первым ходит: {who}")
            group = "decision"
        elif kind == "redeal":
            short = text = t("Redeal (1 gold)", "Пересдать (1 золотой)")
            group = "decision"
        elif kind == "keep":
            short = text = t("Keep", "Оставить")
            group = "decision"
        elif kind == "recruit":
            face = self._card(reading.known.get(iid)) if iid is not None else None
            cost = self._cost(face, action.get("x"))
            x = action.get("x")
            extra = f"X = {x}, {cost}" if x is not None else cost
            short = t(f"Recruit ({extra})", f"Взять в отряд ({extra})")
            text = t(f"Recruit {name} ({extra})", f"Взять в отряд {name} ({extra})")
        elif kind == "recruit_done":
            short = text = t("Finish recruiting", "Закончить набор отряда")
            group = "decision"
        elif kind == "place":
            cell = action.get("cell")
            short = t(f"Place on {cell}", f"Выставить на {cell}")
            text = t(f"Place {name} on {cell}", f"Выставить {name} на {cell}")
        elif kind == "keep_hidden":
            short = t("Keep hidden", "Оставить скрытой")
            text = t(f"Keep {name} hidden", f"Оставить {name} скрытой")
        elif kind == "reveal_done":
            short = text = t("Reveal the rest", "Открыть остальные карты")
            group = "decision"
        elif kind == "host":
            host = self.card_name(reading, action.get("host"))
            short = t(f"Attach to {host}", f"Прикрепить к {host}")
            text = t(f"Attach {name} to {host}", f"Прикрепить {name} к {host}")
        elif kind == "move":
            cell = action.get("cell")
            short = t(f"Move to {cell}", f"Переместить на {cell}")
            text = t(f"Move {name} to {cell}", f"Переместить {name} на {cell}")
        elif kind == "strike":
            target = self._target(reading, action, "acc")
            short = t(f"Strike {target}", f"Ударить {target}")
            text = t(f"Strike {target} with {name}", f"Ударить {target} картой {name}")
        elif kind == "ability":
            ability = action.get("ability")
            words = self._ability_words(reading, iid, ability)
            cell = action.get("cell")
            if ability in TO_A_CELL and ability != "resurrection":
                short = t(f"{words}: to {cell}", f"{words}: на {cell}")
                text = t(f"{short} with {name}", f"{short} — {name}")
            elif ability == "resurrection":
                brought = self.card_name(reading, action.get("bring"))
                short = t(f"{words}: {brought} onto {cell}", f"{words}: {brought} на {cell}")
                text = t(f"{short} with {name}", f"{short} — {name}")
            elif ability == "manoeuvre":
                target = self._target(reading, action)
                short = t(f"{words}: swap with {target}", f"{words}: поменяться местами с {target}")
                text = t(f"{short} ({name})", f"{short} ({name})")
            elif ability == "redistribution":
                healed = self.card_name(reading, action.get("target"))
                hurt = self.card_name(reading, action.get("to"))
                short = t(
                    f"{words}: heal {healed}, wound {hurt}",
                    f"{words}: излечить {healed}, ранить {hurt}",
                )
                text = t(f"{short} with {name}", f"{short} — {name}")
            elif isinstance(ability, str) and ability.startswith("script"):
                target = self._target(reading, action)
                short = f"{words} — {target}"
                text = t(f"{short} ({name})", f"{short} ({name})")
            elif ability in ("heal", "finishing"):
                target = self._target(reading, action, "acc")
                verb = (
                    t(f"Heal {target}", f"Излечить {target}")
                    if ability == "heal"
                    else t(f"Finish off {target}", f"Добить {target}")
                )
                short = f"{verb} ({words})"
                text = t(f"{verb} with {name} ({words})", f"{verb} картой {name} ({words})")
            else:
                target = self._target(reading, action, "dat")
                short = t(f"{words} at {target}", f"{words} по {target}")
                text = t(f"{short} with {name}", f"{short} картой {name}")
        elif kind == "slow":
            short = t(
                "Slow action (close, to strike a flyer next turn)",
                "Медленное действие (закрыться, чтобы в следующий ход ударить летающего)",
            )
            text = t(
                f"Slow action with {name}: it closes to strike a flyer next turn",
                f"Медленное действие картой {name}: она закрывается, чтобы в следующий ход "
                "ударить летающее существо",
            )
        elif kind == "reveal":
            short = t("Reveal (Stealth)", "Открыть (Скрытность)")
            text = t(f"Reveal {name} (Stealth)", f"Открыть {name} (Скрытность)")
        elif kind == "defender":
            short = t("Assign as defender", "Назначить защитником")
            text = t(f"Assign {name} as defender", f"Назначить {name} защитником")
        elif kind == "weaken":
            short = text = t("Weaken", "Ослабить")
            card = None
        elif kind == "pass":
            short = text = t("Pass", "Пас")
            card = None
        else:
            short = text = self.action_kind(reading, kind)
        if group != "turn":
            card = None
        elif card is not None:
            group = f"card:{card}"
        return {"text": text, "short": short, "card": card, "group": group}

    # -- the decision the game waits for ---------------------------------------------------

    def _chain_words(self, reading: Reading, n: Any) -> str:
        chain = self._learn(reading)["chains"].get(str(n))
        if not chain:
            return reading.t("an attack", "атака")
        source = self.card_name(reading, chain.get("source"))
        target = self.card_name(reading, chain.get("target"))
        ability = chain.get("ability")
        if ability:
            words = self._ability_words(reading, chain.get("source"), ability)
            return reading.t(
                f"{words} of {source} on {target}", f"{words} карты {source} по {target}"
            )
        return reading.t(f"the strike of {source} on {target}", f"удар {source} по {target}")

    def pending(self, reading: Reading) -> dict[str, Any] | None:
        self._learn(reading)
        view = reading.view
        to_act = [s for s in view.get("to_act") or () if _int(s) is not None]
        phase = view.get("phase")
        if view.get("finished") or not to_act or phase == "over":
            return None
        t = reading.t
        player = to_act[0]
        stack = [o for o in view.get("stack") or () if isinstance(o, Mapping)]
        top = stack[-1] if stack else None
        on_top = ""
        if top is not None and top.get("kind") == "destruction":  # 402.3а: of any source
            name = self.card_name(reading, top.get("card"))
            on_top = t(
                f"On top of the stack: the destruction of {name}.",
                f"На вершине стека: уничтожение карты {name}.",
            )
        elif top is not None:
            obj = reading.pick(STACK_OBJECTS.get(top.get("kind", "")), str(top.get("kind")))
            what = self._chain_words(reading, top.get("chain"))
            on_top = t(
                f"On top of the stack: the {obj} object of {what}.",
                f"На вершине стека: объект «{obj}» — {what}.",
            )
        doing = {
            "first": ("choosing who goes first", "выбирает, кто ходит первым"),
            "deal": ("deciding on the deal", "решает, оставить ли раздачу"),
            "recruit": ("recruiting a squad", "набирает отряд"),
            "place": ("placing the squad", "расставляет отряд"),
            "reveal": ("choosing cards to keep hidden", "выбирает карты, оставляемые скрытыми"),
            "host": ("attaching cards to hosts", "прикрепляет карты к носителям"),
            "vanguard": ("making Vanguard strikes", "наносит удары Авангарда"),
            "main": ("holding priority", "имеет приоритет"),
            "final": (
                "holding priority in the Final Phase",
                "имеет приоритет в заключительной фазе",
            ),
        }
        if player != reading.you:
            out = self.waiting_on(
                reading, {"player": player}, reading.pick(doing.get(phase or ""), str(phase))
            )
            if on_top:
                out["details"].append(on_top)
            return out
        me = next(
            (
                p
                for p in view.get("players") or ()
                if isinstance(p, Mapping) and p.get("seat") == player
            ),
            {},
        )
        details: list[str] = []
        options: list[str] = []
        # 404.6: the cards of yours offered an instant ability now (your view's
        # ``instants``; hidden ones too, D-21: declaring reveals them, 415.2)
        offered = [i for i in view.get("instants") or () if _int(i) is not None]
        hidden = {
            p.get("card")
            for p in view.get("pieces") or ()
            if isinstance(p, Mapping) and p.get("hidden") and p.get("card") in offered
        }
        instant = ", ".join(
            self.card_name(reading, i)
            + (
                t(" (hidden: using it reveals it)", " (скрыта: применение её вскроет)")
                if i in hidden
                else ""
            )
            for i in offered
        )
        use_instant = t(
            f"You may also use the instant ability of {instant}.",
            f"Можно также применить внезапное действие карты {instant}.",
        )
        if phase == "first":
            text = t("Choose who goes first.", "Выберите, кто ходит первым.")
            dice = self._order_dice(reading)
            if dice:
                text = t(
                    f"You won the roll{dice}: choose who goes first.",
                    f"Вы выиграли бросок{dice}: выберите, кто ходит первым.",
                )
            options = [reading.seat(0), reading.seat(1)]
        elif phase == "deal":
            text = t(
                "Keep your deal, or redeal it for 1 gold crystal.",
                "Оставьте раздачу или пересдайте её за 1 золотой кристалл.",
            )
            details.append(self._crystals(reading, me))
        elif phase == "recruit":
            text = t(
                "Recruit your squad from the Deal zone, then finish recruiting.",
                "Наберите отряд из зоны раздачи и завершите набор.",
            )
            details.append(self._crystals(reading, me))
        elif phase == "place":
            n = me.get("recruit_count", 0)
            text = t(
                f"Place your recruited cards face down ({n} left).",
                f"Выставьте набранные карты рубашкой вверх (осталось: {n}).",
            )
        elif phase == "reveal":
            text = t(
                "You may keep cards of your third row hidden; then reveal the rest.",
                "Можно оставить скрытыми карты своего третьего ряда, затем открыть остальные.",
            )
        elif phase == "host":
            text = t(
                "Attach your equipment, symbiotes and parasites to their hosts.",
                "Прикрепите экипировку, симбиотов и паразитов к носителям.",
            )
        elif phase == "vanguard":
            text = t(
                "Strike with your Vanguard creatures, or pass.",
                "Нанесите удары существами с Авангардом или спасуйте.",
            )
        elif top is not None and top.get("kind") == "target" and player != view.get("active"):
            text = t(
                "You may assign a defender against this strike, or pass.",
                "Можно назначить защитника против этого удара или спасовать.",
            )
            if instant:
                details.append(use_instant)
        elif top is not None and top.get("kind") == "destruction":
            text = t(
                "A destruction is pending: you may answer it with an instant ability, or pass.",
                "Ожидается уничтожение: можно ответить внезапным действием или спасовать.",
            )
            if instant:
                text = t(
                    f"A destruction is pending: you may answer it with the instant ability "
                    f"of {instant}, or pass.",
                    f"Ожидается уничтожение: можно ответить внезапным действием карты "
                    f"{instant} или спасовать.",
                )
        elif top is not None and top.get("kind") == "calculation":
            text = t(
                "You have priority: you may weaken the exchange, or pass.",
                "У вас приоритет: можно ослабить удар или спасовать.",
            )
            if instant:
                details.append(use_instant)
        elif top is not None and instant:
            text = t(
                f"You have priority: you may use the instant ability of {instant}, "
                "or pass to let the stack resolve.",
                f"У вас приоритет: можно применить внезапное действие карты {instant} "
                "или спасовать, чтобы стек разрешился.",
            )
        elif top is not None:
            text = t(
                "You have priority: pass to let the stack resolve.",
                "У вас приоритет: спасуйте, чтобы стек разрешился.",
            )
        elif phase == "final" and instant:
            text = t(
                f"Final Phase: you may use the instant ability of {instant}, "
                "or pass to end the turn.",
                f"Заключительная фаза: можно применить внезапное действие карты {instant} "
                "или спасовать, чтобы закончить ход.",
            )
        elif phase == "final":
            text = t(
                "Final Phase: pass to end the turn.",
                "Заключительная фаза: спасуйте, чтобы закончить ход.",
            )
        elif player == view.get("active"):
            text = t(
                "Your Main Phase: move, strike, use an ability, or pass.",
                "Ваша основная фаза: перемещайтесь, бейте, применяйте способности или пасуйте.",
            )
        elif instant:
            text = t(
                f"You have priority: you may use the instant ability of {instant}, or pass.",
                f"У вас приоритет: можно применить внезапное действие карты {instant} "
                "или спасовать.",
            )
        else:
            text = t("You have priority: pass.", "У вас приоритет: спасуйте.")
        if on_top:
            details.append(on_top)
        return {"text": text, "mine": True, "options": options, "details": details}

    def _order_dice(self, reading: Reading) -> str:
        """The last roll for the turn order [302.2] (seat 1's die first), or ""."""
        rolls = reading.view.get("order_rolls") or []
        if not rolls or not isinstance(rolls[-1], list | tuple) or len(rolls[-1]) != 2:
            return ""
        a, b = rolls[-1]
        first, second = reading.seat(0), reading.seat(1)
        return reading.t(
            f" (dice: {first} {a}, {second} {b})", f" (кубики: {first} — {a}, {second} — {b})"
        )

    def _crystals(self, reading: Reading, player: Mapping[str, Any]) -> str:
        gold, silver = player.get("gold"), player.get("silver")
        return reading.t(
            f"Crystals: {gold} gold, {silver} silver.",
            f"Кристаллы: золотых {gold}, серебряных {silver}.",
        )

    # -- events ------------------------------------------------------------------------------

    def event(self, reading: Reading, event: Mapping[str, Any]) -> str | None:
        notes = self._learn(reading)
        iid, card_id = _int(event.get("card")), event.get("id")
        public = event.get("type") in ("reveal", "destroyed", "taken")  # shown to everyone then
        if public and iid is not None and isinstance(card_id, str):
            reading.known.setdefault(iid, card_id)
        text = self._event(reading, event, notes["chains"])
        return text[:1].upper() + text[1:] if text else text

    def _remember(self, chains: dict, event: Mapping[str, Any]) -> dict[str, Any]:
        n = str(event.get("chain", 0))
        kind = event.get("type")
        chain = chains.setdefault(n, {"source": None, "target": None, "ability": None})
        if kind in ("strike", "ability"):
            chain.update(source=event.get("card"), target=event.get("target"))
            chain["ability"] = event.get("ability") if kind == "ability" else None
        elif kind in ("target", "calculation"):
            chain.update(source=event.get("attacker"), target=event.get("retaliator"))
        elif kind == "redirected":
            chain["target"] = event.get("target")
        return chain

    def _event(self, reading: Reading, event: Mapping[str, Any], chains: dict) -> str | None:
        kind = event.get("type", "")
        if kind == "left":
            return self.left(reading, event)
        t = reading.t
        seat = reading.seat
        who = seat(event.get("seat"))
        name = self.card_name(reading, event.get("card"))
        if isinstance(event.get("id"), str) and kind in ("reveal", "destroyed", "taken"):
            name = self._named(reading, event["id"])
        chain = (
            self._remember(chains, event)
            if kind
            in (
                "strike",
                "ability",
                "target",
                "roll",
                "result",
                "calculation",
                "redirected",
                "defender",
                "blocked",
                "cancelled",
            )
            else None
        )
        attacker = self.card_name(reading, chain["source"]) if chain else ""
        retaliator = self.card_name(reading, chain["target"]) if chain else ""
        if chain and chain["source"] is None:
            attacker = t("the attacker", "атакующий")
            retaliator = t("the target", "цель")
        rule = str(event.get("rule"))
        cause = RULE_CAUSES.get(rule) or RULE_CAUSES.get(rule.casefold())
        because = f" ({reading.pick(cause)})" if cause else ""
        if kind == "first_player":
            chooser, first = seat(event.get("chooser")), seat(event.get("seat"))
            dice = self._order_dice(reading)
            return t(
                f"{chooser} chooses who goes first: {first}{dice}",
                f"{chooser} выбирает, кто ходит первым: {first}{dice}",
            )
        if kind == "deal":
            counts = event.get("counts") or []
            n = counts[0] if counts else "?"
            return t(
                f"Crystals are granted; each player is dealt {n} cards",
                f"Игроки получают кристаллы и по {n} карт в раздачу",
            )
        if kind == "redeal":
            return t(
                f"{who} redeals for 1 gold ({event.get('gold')} gold left)",
                f"{who} пересдаёт за 1 золотой (осталось золотых: {event.get('gold')})",
            )
        if kind == "keep":
            return t(f"{who} keeps the deal", f"{who} оставляет раздачу")
        if kind == "recruit":
            n = _int(event.get("count")) or 0
            return t(
                f"{who} recruits a card ({n} in the squad)",
                f"{who} берёт карту в отряд (в отряде: {n})",
            )
        if kind == "recruit_done":
            return t(f"{who} finishes recruiting", f"{who} заканчивает набор отряда")
        if kind == "deal_returned":
            return t(
                "The cards left in the Deal zones are shuffled back into the decks",
                "Оставшиеся в раздаче карты замешиваются обратно в колоды",
            )
        if kind == "place":
            cell = event.get("cell")
            return t(
                f"{who} places a card face down on {cell}",
                f"{who} выставляет карту рубашкой вверх на {cell}",
            )
        if kind == "keep_hidden":
            cell = event.get("cell")
            return t(
                f"{who} keeps the card on {cell} hidden",
                f"{who} оставляет скрытой карту на {cell}",
            )
        if kind == "reveal":
            cell = event.get("cell")
            where = t(f" on {cell}", f" на {cell}") if isinstance(cell, str) else ""
            x = f" (X = {event['x']})" if _int(event.get("x")) is not None else ""
            if event.get("instant"):  # 415.2, D-21: it declares an instant ability
                because = t(
                    " (it declares an instant ability)", " (она заявляет внезапное действие)"
                )
            return t(
                f"{name} of {who} is revealed{where}{x}{because}",
                f"{who}: открыта карта {name}{where}{x}{because}",
            )
        if kind == "additional_zone":
            return t(
                f"{name} goes from {event.get('from')} to the Additional Zone of {who}",
                f"{who}: {name} переходит с {event.get('from')} в дополнительную зону",
            )
        if kind == "host":
            cell = event.get("cell")
            if "host" not in event:  # a hidden host (decision 0053): by its cell
                host = self._hidden_at(reading, cell, "dat")
                return t(f"{name} is attached to {host}", f"{name} крепится к {host}")
            host = self.card_name(reading, event.get("host"))
            where = t(f" on {cell}", f" на {cell}") if isinstance(cell, str) else ""
            return t(f"{name} is attached to {host}{where}", f"{name} крепится к {host}{where}")
        if kind == "turn":
            active = seat(event.get("active"))
            return t(
                f"Turn {event.get('turn')}: {active} is the active player",
                f"Ход {event.get('turn')}: активный игрок — {active}",
            )
        if kind == "final_phase":
            return t("The Final Phase of the turn begins", "Начинается заключительная фаза хода")
        if kind == "pass":
            return t(f"{who} passes", f"{who} пасует")
        if kind == "move":
            return t(
                f"{name} moves from {event.get('from')} to {event.get('to')}",
                f"{name} перемещается с {event.get('from')} на {event.get('to')}",
            )
        if kind == "strike":
            return t(
                f"{attacker} strikes {retaliator}{because}",
                f"{attacker} наносит удар по {retaliator}{because}",
            )
        if kind == "ability":
            ability = event.get("ability")
            words = self._ability_words(reading, event.get("card"), ability)
            cell = event.get("cell")
            if ability in TO_A_CELL and isinstance(cell, str):
                return t(
                    f"{attacker} uses {words}: {cell}", f"{attacker} применяет «{words}»: {cell}"
                )
            if ability == "manoeuvre":
                return t(
                    f"{attacker} uses {words} to swap places with {retaliator}",
                    f"{attacker} применяет «{words}» и меняется местами с {retaliator}",
                )
            return t(
                f"{attacker} uses {words} on {retaliator}",
                f"{attacker} применяет «{words}» к {retaliator}",
            )
        text = self._effect(reading, event, name, who, because)
        if text is not None:
            return text
        if kind == "blocked":
            return t(
                "The attack is blocked: the revealed target cannot be attacked",
                "Атака отменена: открывшуюся цель нельзя атаковать",
            )
        if kind == "cancelled":
            return t(
                f"The attack of {attacker} on {retaliator} is cancelled: it is no longer legal",
                f"Атака {attacker} на {retaliator} отменена: она больше невозможна",
            )
        if kind == "target":
            return t(f"{attacker} targets {retaliator}", f"{attacker} выбирает целью {retaliator}")
        if kind == "roll":
            a, r = self._pair(event.get("rolls"))
            if r is None:
                return t(f"Die: {attacker} rolls {a}", f"Кубик: у {attacker} выпало {a}")
            return t(
                f"Dice: {attacker} rolls {a}, {retaliator} rolls {r}",
                f"Кубики: {attacker} — {a}, {retaliator} — {r}",
            )
        if kind == "result":
            a, r = self._pair(event.get("final"))
            if r is None:
                return t(
                    f"Result with modifiers: {attacker} {a}",
                    f"Результат с модификаторами: {attacker} — {a}",
                )
            return t(
                f"Results with modifiers: {attacker} {a}, {retaliator} {r}",
                f"Результаты с модификаторами: {attacker} — {a}, {retaliator} — {r}",
            )
        if kind == "calculation":
            return self._calculation(reading, event, attacker, retaliator)
        if kind == "defender":
            defender = name
            if chain and chain["target"] is not None:
                return t(
                    f"{defender} steps in to defend {retaliator}",
                    f"{defender} встаёт на защиту {retaliator}",
                )
            return t(f"{defender} is assigned as defender", f"{defender} назначен защитником")
        if kind == "redirected":
            return t(
                f"The strike of {attacker} is redirected to {retaliator}",
                f"Удар {attacker} перенаправлен на {retaliator}",
            )
        if kind == "weaken":
            return t(f"{who} weakens the exchange", f"{who} ослабляет удар")
        if kind == "wounds":
            n = _int(event.get("amount")) or 0
            return t(
                f"{name} takes {n} wound{'s' if n != 1 else ''}{because}",
                f"{name} получает {n} {_plural_ru(n, 'рану', 'раны', 'ран')}{because}",
            )
        if kind == "healed":
            n = event.get("amount")
            return t(f"{name} heals {n}{because}", f"{name} излечивается на {n}{because}")
        if kind == "destroyed":
            owner = seat(event.get("seat"))
            rule = event.get("rule")
            if rule == "307.1":
                return t(
                    f"{name} of {owner} has no host and goes to the Graveyard",
                    f"{owner}: {name} остаётся без носителя и уходит на кладбище",
                )
            if rule == "210.7":
                return t(
                    f"{name} of {owner} goes to the Graveyard with its host",
                    f"{owner}: {name} уходит на кладбище вместе с носителем",
                )
            if rule == "С: Добивание":
                return t(
                    f"{name} of {owner} is finished off and goes to the Graveyard",
                    f"{owner}: {name} добита и уходит на кладбище",
                )
            if rule == "С: Бестелесность":
                return t(
                    f"{name} of {owner} (Incorporeal) shares a cell and goes to the Graveyard",
                    f"{owner}: {name} (Бестелесность) делит клетку с другой картой и уходит на кладбище",
                )
            return t(
                f"{name} of {owner} is destroyed and goes to the Graveyard",
                f"{owner}: {name} погибает и уходит на кладбище",
            )
        if kind == "game_over":
            return self._game_over(reading, event)
        return self.action_kind(reading, kind)

    @staticmethod
    def _lives_left(event: Mapping[str, Any]) -> str:
        n = event.get("lives")
        return f"{n} life" if n == 1 else f"{n} lives"

    def _ability_name(self, reading: Reading, key: Any) -> str:
        named = NAMED.get(key) if isinstance(key, str) else None
        return reading.pick(named[:2], str(key)) if named else str(key)

    def _effect(
        self, reading: Reading, event: Mapping[str, Any], name: str, who: str, because: str
    ) -> str | None:
        """The events of abilities that act by themselves (relocations, Thirst, tokens,
        cards taken into a squad, gained and lost abilities...), or None."""
        t = reading.t
        kind = event.get("type")
        if kind == "relocate":
            return t(
                f"{name} moves from {event.get('from')} to {event.get('to')}{because}",
                f"{name} перемещается с {event.get('from')} на {event.get('to')}{because}",
            )
        if kind == "thirst":
            prey = self.card_name(reading, event.get("target"))
            return t(
                f"{name} quenches its Thirst on {prey}",
                f"{name} утоляет Жажду: цель — {prey}",
            )
        if kind == "stays_closed":
            return t(
                f"{name} stays closed: there is nobody to quench its Thirst on",
                f"{name} остаётся закрытой: утолить Жажду не на ком",
            )
        if kind == "move_blocked":
            by = self.card_name(reading, event.get("source"))
            return t(
                f"{by} blocks the move of {name}; the movement is spent all the same",
                f"{by} блокирует движение: {name} остаётся на месте, движение потрачено",
            )
        if kind == "control":
            return t(
                f"{who} takes control of {name}{because}",
                f"{who}: {name} переходит под контроль{because}",
            )
        if kind == "destruction_effect" and event.get("wounds") is False:  # С: Добивание
            return t(
                f"{name} is to be destroyed: its destruction goes on the stack",
                f"{name}: уничтожение ложится в стек",
            )
        if kind == "destruction_effect":  # 402.3а: on the stack, to be answered
            return t(
                f"{name} is at 0 lives: its destruction goes on the stack",
                f"{name} без жизней: уничтожение ложится в стек",
            )
        if kind == "destruction_cancelled":
            return t(
                f"{name} has lives again: its destruction is cancelled",
                f"{name} снова с жизнями: уничтожение отменено",
            )
        if kind == "no_tokens":
            by = self.card_name(reading, event.get("source"))
            return t(
                f"{name} gets no token: {by} forbids it",
                f"{name} не получает фишку: {by} это запрещает",
            )
        if kind == "replaced":
            by = self.card_name(reading, event.get("source"))
            if event.get("instead") == "death_to_deck":
                return t(
                    f"Instead of dying, {name} returns to its owner's deck ({by})",
                    f"Вместо гибели {name} возвращается в колоду владельца ({by})",
                )
            return t(
                f"Instead of dying, {name} is left with {self._lives_left(event)} ({by})",
                f"{name} не погибает: вместо этого остаётся жизней — {event.get('lives')} ({by})",
            )
        if kind == "token":
            n = event.get("tokens")
            return t(
                f"{name} gets a token ({n} in all){because}",
                f"{name} получает фишку (всего: {n}){because}",
            )
        if kind == "taken":
            cell = event.get("cell")
            where = (
                t(f" on {cell}", f" на {cell}")
                if isinstance(cell, str)
                else t(" in the Additional Zone", " в дополнительную зону")
            )
            return t(
                f"{name} joins the squad of {who}{where}{because}",
                f"{who}: {name} входит в отряд{where}{because}",
            )
        if kind == "slow":
            return t(
                f"{name} makes a slow action: it closes and may strike a flyer next turn",
                f"{name} совершает медленное действие: закрывается и в следующий ход может "
                "ударить летающее существо",
            )
        if kind == "summon_none":
            return t(
                f"{who} finds no card to summon; the deck is shuffled",
                f"{who}: подходящей карты для вызова нет, колода перемешана",
            )
        if kind == "opened":
            return t(f"{name} opens{because}", f"{name} открывается{because}")
        if kind == "tokens_paid":
            n = _int(event.get("amount")) or 0
            paid_for = self.card_name(reading, event.get("for"))
            if event.get("for") == event.get("card"):
                return t(
                    f"{name} removes {n} {'token' if n == 1 else 'tokens'} to pay its ability",
                    f"{name} снимает фишки ({n}), чтобы оплатить свою способность",
                )
            return t(
                f"{name} removes {n} {'token' if n == 1 else 'tokens'} to pay for {paid_for}",
                f"{name} снимает фишки ({n}) в оплату способности {paid_for}",
            )
        if kind == "prevented":
            return t(f"Nothing happens to {name}{because}", f"На {name} это не действует{because}")
        if kind == "shown":
            cards = event.get("cards")
            shown = (
                ", ".join(self._named(reading, c) for c in cards if isinstance(c, str))
                if isinstance(cards, list)
                else ""
            )
            gained = event.get("gained")
            gains = (
                ", ".join(self._ability_name(reading, g) for g in gained)
                if isinstance(gained, list)
                else ""
            )
            text = t(
                f"{who} shows {shown or 'no card'} from the deck{because}",
                f"{who} показывает из колоды: {shown or 'ничего'}{because}",
            )
            if gains:
                text += t(f"; gained: {gains}", f"; получено: {gains}")
            return text
        if kind == "gained":
            ability = self._ability_name(reading, event.get("ability"))
            return t(f"{name} gains {ability}{because}", f"{name} получает «{ability}»{because}")
        if kind == "lost":
            ability = self._ability_name(reading, event.get("ability"))
            return t(f"{name} loses {ability}{because}", f"{name} теряет «{ability}»{because}")
        if kind == "lost_all":  # 407.4
            return t(
                f"{name} loses all its abilities until the end of the battle{because}",
                f"{name} лишается всех особенностей до конца боя{because}",
            )
        if kind == "lives":
            n = _int(event.get("amount")) or 0
            source = self.card_name(reading, event.get("source"))
            return t(
                f"{name} gets {n} additional {'life' if n == 1 else 'lives'} from {source}{because}",
                f"{name} получает дополнительные жизни ({n}) от {source}{because}",
            )
        return None

    @staticmethod
    def _pair(value: Any) -> tuple[Any, Any]:
        if isinstance(value, list | tuple) and len(value) == 2:
            return value[0], value[1]
        return "?", None

    def _calculation(
        self, reading: Reading, event: Mapping[str, Any], attacker: str, retaliator: str
    ) -> str:
        t = reading.t
        a, r = self._pair(event.get("rolls"))
        kinds = event.get("kinds") or ["miss", "miss"]
        ka = reading.pick(KINDS.get(kinds[0]), str(kinds[0]))
        weakened = t(" (weakened)", " (ослаблено)") if event.get("weakened") else ""
        if r is None:
            return t(
                f"Strength of the attack: {attacker} — {ka} (result {a}, no blow back)",
                f"Сила атаки: {attacker} — {ka} (результат {a}, без ответного удара)",
            )
        kr = reading.pick(KINDS.get(kinds[1]), str(kinds[1]))
        row = event.get("row")
        row_text = f"{row:+d}" if _int(row) is not None else "?"
        return t(
            f"Strike table: {a} against {r} (row {row_text}) — "
            f"{attacker}: {ka}, {retaliator}: {kr}{weakened}",
            f"Таблица ударов: {a} против {r} (строка {row_text}) — "
            f"{attacker}: {ka}, {retaliator}: {kr}{weakened}",
        )

    def _game_over(self, reading: Reading, event: Mapping[str, Any]) -> str:
        t = reading.t
        reason = event.get("reason")
        if event.get("draw"):
            if reason == "turn_limit":
                return t(
                    "Game over: a draw — the turn limit is reached",
                    "Конец игры: ничья — достигнут предел ходов",
                )
            return t(
                "Game over: a draw — neither player has a creature left",
                "Конец игры: ничья — ни у кого не осталось существ",
            )
        text = self.winners(reading, event)
        if reason == "no_creatures":
            losers = [s for s in (0, 1) if s not in (event.get("winners") or ())]
            if len(losers) == 1:
                lost = reading.seat(losers[0])
                text += t(f" ({lost} has no creature left)", f" ({lost}: не осталось существ)")
        return text

    # -- the view's headline -----------------------------------------------------------------

    def phase_name(self, reading: Reading, phase: str | None) -> str:
        return reading.pick(PHASES.get(phase or ""), phase or "")

    def step_name(self, reading: Reading, step: str | None) -> str:
        """The play app asks for ``view["step"]``; Berserk's view calls it ``phase``."""
        return self.phase_name(reading, step or reading.view.get("phase"))


DESCRIBER = BerserkDescriber()


def ending(state: Mapping[str, Any], language: str, names: Mapping[int, str]) -> str | None:
    """How a finished game was decided (``engine.core.protocol``'s ``ending``), from the
    public facts of the final state: the turn limit, or who has no creature left (102.3а;
    both at once, a draw: 102.4). A departure (102.3б) ends a game by no rule of play."""
    if not state.get("finished") or state.get("out"):
        return None
    ru = language == "ru"
    winners = list(state.get("winners") or ())
    limit = (state.get("config") or {}).get("turn_limit")
    if state.get("draw"):
        if isinstance(limit, int) and state.get("turn", 0) >= limit:
            return (
                f"Достигнут предел в {limit} ходов — ничья"
                if ru
                else f"The limit of {limit} turns was reached — a draw"
            )
        return (
            "Ни у одного игрока не осталось существ — ничья (102.4)"
            if ru
            else "Neither player has a creature left — a draw (102.4)"
        )
    if len(winners) != 1:
        return None
    lost = named_seat(names, 1 - winners[0], language)
    return (
        f"У игрока {lost} не осталось существ (102.3а)"
        if ru
        else f"{lost} has no creatures left (102.3а)"
    )
