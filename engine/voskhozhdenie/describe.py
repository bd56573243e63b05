"""«Восхождение» described to people (``engine.core.describe``): legal actions, pending
decisions and events as short sentences in English or Russian, and the printed details
of cards (name, type, cost, Strength, Supply, text).

Everything is read from a ``Reading`` built on the viewer's own view (rule 1.4.2: a
Main Deck is hidden from everyone, a hand from everyone but its owner), so an instance
the viewer may not see is "a hidden card" in every label. Seats are counted from 1, as
on the seat list. Zones are named as in rule 1.4.5.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from engine.core import table
from engine.core.describe import CardDescriber, Reading, named_seat, named_seats, text_lines
from engine.voskhozhdenie.cards import Card, CardDB

TYPES = {
    "city": ("City", "Город"),
    "squad": ("Squad", "Отряд"),
    "tactic": ("Tactic", "Тактика"),
    "order": ("Order", "Приказ"),
    "relic": ("Relic", "Реликвия"),
    "fortification": ("Fortification", "Укрепление"),
    "patron": ("Patron", "Покровитель"),
}
SUBTYPES = {  # the glossary of the rules digest (0.1)
    "soldier": ("Soldier", "Солдат"),
    "officer": ("Officer", "Офицер"),
    "nobility": ("Nobility", "Знать"),
    "mage": ("Mage", "Маг"),
    "rogue": ("Rogue", "Разбойник"),
    "worker": ("Worker", "Рабочий"),
    "monster": ("Monster", "Монстр"),
    "confrontation": ("Confrontation", "Противостояние"),
    "battle": ("Battle", "Битва"),
    "strategy": ("Strategy", "Стратегия"),
    "blessing": ("Blessing", "Благословение"),
    "spell": ("Spell", "Заклинание"),
    "curse": ("Curse", "Проклятие"),
    "providence": ("Providence", "Промысел"),
    "technology": ("Technology", "Техника"),
    "weapon": ("Weapon", "Оружие"),
    "treasure": ("Treasure", "Сокровище"),
    "gear": ("Gear", "Снаряжение"),
    "tool": ("Tool", "Инструмент"),
    "aspect": ("Aspect", "Аспект"),
    "initiate": ("Initiate", "Посвящённый"),
    "firstborn": ("Firstborn", "Первородный"),
}
COLOURS = {
    "white": ("White", "Белый"),
    "blue": ("Blue", "Синий"),
    "black": ("Black", "Чёрный"),
    "red": ("Red", "Красный"),
}
KEYWORDS = {"zeal": ("Zeal", "Рвение"), "reinforcement": ("Reinforcement", "Подкрепление")}
ZONES = {  # rule 1.4.5
    "main": ("Main Deck", "Основная колода"),
    "looked_at": ("Main Deck", "Основная колода"),
    "reinforcement": ("Reinforcement Deck", "Колода подкреплений"),
    "graveyard": ("Graveyard", "Кладбище"),
    "oblivion": ("Oblivion", "Небытие"),
    "hand": ("Hand", "Рука"),
    "battlefield": ("Battlefield", "Поле боя"),
    "queue": ("Queue", "Очередь"),
    "tactics": ("Battlefield", "Поле боя"),
}
STEPS = {
    "initiative": ("Initiative", "Инициатива"),
    "first_player": ("Choosing the first player", "Выбор первого игрока"),
    "mulligan": ("Mulligans", "Муллиганы"),
    "pregame": ("Before the first round", "Перед первым раундом"),
    "pregame_supply": ("Supply values", "Запас припасов"),
    "draw": ("Draw", "Взятие карт"),
    "coin": ("Coins", "Монеты"),
    "round_start": ("Round start", "Начало раунда"),
    "decree": ("Decrees", "Декреты"),
    "turn_start": ("Turn start", "Начало хода"),
    "action": ("Actions", "Действия"),
    "turn_end": ("Turn end", "Конец хода"),
    "tactics": ("Tactic Resolution", "Разрешение тактик"),
    "round_end": ("Round end", "Конец раунда"),
}
SHOWN_STEPS = frozenset({"decree", "tactics", "round_end"})  # the others are bookkeeping
# What an effect's choice is for (the pending "effect": the op waiting for picks).
EFFECT_PROMPTS = {
    "wound": ("Choose what to wound", "Выберите, что ранить"),
    "heal": ("Choose a Squad to heal", "Выберите отряд, который исцелить"),
    "restore": ("Choose what to restore", "Выберите, что восстановить"),
    "destroy": ("Choose what to destroy", "Выберите, что уничтожить"),
    "exile": ("Choose what to put into Oblivion", "Выберите, что отправить в Небытие"),
    "return_to_hand": (
        "Choose a card to return to its owner's Hand",
        "Выберите карту, которая вернётся в руку владельца",
    ),
    "to_bottom_of_deck": (
        "Choose a card to put at the bottom of its Main Deck",
        "Выберите карту, которая уйдёт под низ основной колоды",
    ),
    "return_from_graveyard": (
        "Choose a card to take back from the Graveyard",
        "Выберите карту, которую вернуть с кладбища",
    ),
    "unassign": (
        "Choose a Squad to remove from its Tactic",
        "Выберите отряд, который вывести из тактики",
    ),
    "modify_strength": ("Choose whose Strength changes", "Выберите, чья сила изменится"),
    "grant_keyword": ("Choose who gains the keyword", "Выберите, кто получит свойство"),
    "play_free": ("Choose a card to play for free", "Выберите карту, которую разыграть бесплатно"),
    "discard": ("Choose the cards to discard", "Выберите карты, которые сбросить"),
    "choose_one": ("Choose one", "Выберите одно"),
}
PENDING_KINDS = {
    "first_player": ("choosing who goes first", "выбирает первого игрока"),
    "mulligan": ("deciding on a mulligan", "решает, брать ли муллиган"),
    "discard_down": ("discarding down to their Supply", "сбрасывает лишние карты"),
    "decree": ("deciding on a Decree", "решает, издать ли декрет"),
    "tactic": ("choosing what their winning Tactic wounds", "выбирает цель победившей тактики"),
    "choose": ("making a choice for an effect", "делает выбор для эффекта"),
    "order": ("ordering their triggered abilities", "упорядочивает свои сработавшие способности"),
    "replacement": ("choosing which replacement applies", "выбирает, какая замена применяется"),
}
EVENT_WORDS = {  # replaceable events (AMB-31)
    "wounded": ("wounding", "ранение"),
    "healed": ("healing", "исцеление"),
    "drawn": ("drawing", "взятие карты"),
    "discarded": ("discarding", "сброс"),
    "destroyed": ("destruction", "уничтожение"),
}
ACTION_KINDS = {
    "pass": ("Pass", "Пас"),
    "play": ("Play a card", "Разыграть карту"),
    "declare": ("Declare a Tactic", "Объявить тактику"),
    "direct_attack": ("Direct Attack", "Прямое нападение"),
    "assign": ("Assign a Squad", "Назначить отряд"),
    "activate": ("Activate an ability", "Активировать способность"),
    "decree": ("Issue a Decree", "Издать декрет"),
    "decline": ("Decline", "Отказаться"),
    "discard": ("Discard", "Сбросить"),
    "first_player": ("First player", "Первый игрок"),
    "keep": ("Keep the hand", "Оставить руку"),
    "mulligan": ("Mulligan", "Муллиган"),
    "superiority": ("Superiority", "Превосходство"),
    "tactic_wound": ("Tactic wounds", "Ранение тактикой"),
    "choose": ("Choice", "Выбор"),
}


class VoskhozhdenieDescriber(CardDescriber[Card]):
    """The ``Describer`` of «Восхождение» over a card database (the engine's own)."""

    ACTION_KINDS = ACTION_KINDS

    def _load_db(self) -> CardDB:
        from engine.voskhozhdenie.game import SYSTEM

        return SYSTEM.db

    # -- cards -----------------------------------------------------------------------------

    def _lookup(self, card_id: str) -> Card:
        return self.db.card(card_id)

    @functools.cached_property
    def _places(self) -> dict[str, Mapping[str, str]]:
        return {k: v for s in self.db.sets for k, v in s.places.items()}

    def _subtype(self, reading: Reading, word: str) -> str:
        if word in SUBTYPES:
            return reading.pick(SUBTYPES[word])
        place = self._places.get(word)
        if place:
            return place.get(reading.language) or place.get("en") or word
        return word

    def ability_text(self, reading: Reading, card_id: Any, index: Any) -> str:
        """The rules-text line of ability ``index`` (docs/card-format.md: one line per
        keyword group, then one per ability, in order)."""
        card = self._card(card_id)
        if card is None or not isinstance(index, int):
            return ""
        lines = text_lines(card.text_ru if reading.ru else card.text_en)
        at = (1 if card.keywords else 0) + index
        return lines[at] if 0 <= at < len(lines) else ""

    def card(self, reading: Reading, card_id: str) -> dict[str, Any]:
        card = self._card(card_id)
        if card is None:
            return self.unknown_card(card_id)
        kind = reading.pick(TYPES.get(card.type), card.type)
        subtypes = [self._subtype(reading, w) for w in card.subtypes]
        if card.cost is None:
            cost = "—"
        elif card.cost.x:
            cost = "X"
        elif card.cost.supply:
            cost = reading.t(f"{card.cost.supply} Supply", f"{card.cost.supply} припас.")
        else:
            cost = str(card.cost.coins)
        colours = [reading.pick(COLOURS.get(c), c) for c in sorted(card.colours)]
        keywords = [reading.pick(KEYWORDS.get(k), k) for k in sorted(card.keywords)]
        return {
            "id": card.id,
            "name": card.name(reading.language),
            "type": card.type,
            "kind": kind + (" — " + ", ".join(subtypes) if subtypes else ""),
            "minor": card.minor,
            "cost": cost,
            "strength": card.strength,
            "supply": card.supply,
            "colours": ", ".join(colours) or reading.t("Neutral", "Нейтральная"),
            "keywords": keywords,
            "text": [
                line
                for line in text_lines(card.text_ru if reading.ru else card.text_en)
                if not _only_keywords(line, keywords)  # printed "Zeal.": shown as keywords
            ],
            "flavour": card.flavour_ru if reading.ru else card.flavour_en,
            "rarity": card.rarity,
        }

    def zone_name(self, reading: Reading, zone: str | None) -> str:
        return reading.pick(ZONES.get(zone or ""), zone or "")

    def _tactic(self, reading: Reading, tactic_id: Any) -> Mapping[str, Any] | None:
        for t in reading.view.get("tactics") or ():
            if t.get("id") == tactic_id:
                return t
        return None

    def tactic_name(self, reading: Reading, tactic_id: Any) -> str:
        t = self._tactic(reading, tactic_id)
        if t is None:
            return reading.t("a Tactic", "тактика")
        if t.get("direct_attack"):
            name = reading.t("Direct Attack", "Прямое нападение")
        else:
            name = self.card_name(reading, t.get("iid"))
        if t.get("defender") is not None:
            return f"{name} ({reading.seat(t.get('declarer'))} → {reading.seat(t['defender'])})"
        return f"{name} ({reading.seat(t.get('declarer'))})"

    # -- actions ---------------------------------------------------------------------------

    def action(self, reading: Reading, action: Mapping[str, Any]) -> dict[str, Any]:
        kind = action.get("type", "")
        t = reading.t
        iid = action.get("iid")
        pending = reading.view.get("pending") or {}
        card: int | None = iid if isinstance(iid, int) else None
        group = "turn"
        x = f" (X = {action['x']})" if "x" in action else ""
        if kind == "pass":
            short = t(
                "Pass: no more actions this round", "Пас: больше не действовать в этом раунде"
            )
        elif kind == "play":
            short = t("Play", "Разыграть") + x
        elif kind == "declare":
            if action.get("target") is not None:
                target = reading.seat(action["target"])
                short = t(f"Declare against {target}", f"Объявить — цель: {target}") + x
            else:
                short = t("Declare (a Battle)", "Объявить (битва)") + x
        elif kind == "direct_attack":
            target = reading.seat(action.get("target"))
            short = t(f"Direct Attack on {target}", f"Прямое нападение — цель: {target}")
        elif kind == "assign":
            tactic = self.tactic_name(reading, action.get("tactic"))
            if action.get("side") == "attack":
                short = t(f"Attack in {tactic}", f"В атаку: {tactic}")
            else:
                short = t(f"Defend against {tactic}", f"В защиту: {tactic}")
        elif kind in ("activate", "decree"):
            text = self.ability_text(reading, reading.known.get(iid), action.get("ability"))
            verb = (
                t("Activate", "Активировать")
                if kind == "activate"
                else t("Issue the Decree", "Издать декрет")
            )
            short = f"{verb}: {text}" if text else verb
            extra = []
            if action.get("discard"):
                discarded = ", ".join(self.card_name(reading, i) for i in action["discard"])
                extra.append(t(f"discarding {discarded}", f"сбросив {discarded}"))
            if action.get("sacrifice") is not None:
                gone = self.card_name(reading, action["sacrifice"])
                extra.append(t(f"sacrificing {gone}", f"пожертвовав {gone}"))
            if extra:
                short += " — " + ", ".join(extra)
        elif kind == "discard":
            short = t("Discard", "Сбросить")
        elif kind == "mulligan":
            short = t(
                "Mulligan: to the bottom of the Main Deck, draw a card",
                "Муллиган: под низ основной колоды, взять карту",
            )
        elif kind == "tactic_wound":
            card = action.get("target")
            amount = pending.get("amount", "?")
            short = t(f"Wound by {amount}", f"Ранить на {amount}")
        elif kind == "first_player":
            card = None
            short = t(
                f"{reading.seat(action.get('seat'))} goes first",
                f"Первым ходит: {reading.seat(action.get('seat'))}",
            )
            group = "decision"
        elif kind == "keep":
            short = t("Keep this hand", "Оставить эту руку")
            group = "decision"
        elif kind == "superiority":
            tactic = self.tactic_name(reading, pending.get("tactic"))
            short = t(f"Use the Superiority of {tactic}", f"Применить превосходство: {tactic}")
            group = "decision"
        elif kind == "decline":
            short = {
                "decree": t("Issue no Decree", "Не издавать декрет"),
                "tactic": t("Wound nothing", "Никого не ранить"),
            }.get(pending.get("kind"), t("Decline", "Отказаться"))
            group = "decision"
        elif kind == "choose":
            picks = list(action.get("picks") or [])
            labels = [self.option_label(reading, pending, p) for p in picks]
            short = (
                t("Choose: ", "Выбрать: ") + "; ".join(labels)
                if labels
                else t("Choose nothing", "Ничего не выбирать")
            )
            card = None
            group = "decision"
        else:
            short = self.action_kind(reading, kind)
        if card is not None:
            group = f"card:{card}"
            text = f"{short} — {self.card_name(reading, card)}"
        else:
            text = short
        return {"text": text, "short": short, "card": card, "group": group}

    # -- pending decisions -------------------------------------------------------------------

    def option_label(self, reading: Reading, pending: Mapping[str, Any], option: Any) -> str:
        """One option of a pending decision, as its chooser's view shows it."""
        kind = pending.get("kind")
        if kind == "first_player" or pending.get("pick") == "player":
            return reading.seat(option)
        if kind == "order":
            triggers = pending.get("triggers") or []
            if isinstance(option, int) and 0 <= option < len(triggers):
                return self._ability_of(
                    reading, triggers[option]["source"], triggers[option]["ability"]
                )
            return str(option)
        if kind == "replacement":
            for r in pending.get("replacements") or ():
                if r.get("option") == option:
                    source = r.get("source") or {}
                    return self._ability_of(reading, source.get("iid"), r.get("ability"))
            return str(option)
        if pending.get("effect") == "choose_one":
            source = reading.known.get(pending.get("source"))
            choices = self._choose_one_texts(reading, source)
            if isinstance(option, int) and 0 <= option < len(choices):
                return choices[option]
            return (
                reading.t(f"option {option + 1}", f"вариант {option + 1}")
                if isinstance(option, int)
                else str(option)
            )
        # A card instance: its name and where it is (a hidden one stays hidden).
        name = self.card_name(reading, option)
        zone = reading.where.get(option) if isinstance(option, int) else None
        if zone is None or option not in reading.known:
            return name
        owner = self._owner(reading, option)
        place = self.zone_name(reading, zone)
        if owner is not None and zone not in ("battlefield", "queue", "tactics"):
            return f"{name} ({place}, {reading.seat(owner)})"
        if owner is not None:
            return f"{name} ({reading.seat(owner)})"
        return f"{name} ({place})"

    def _owner(self, reading: Reading, iid: int) -> int | None:
        return reading.owners.get(iid)

    def _ability_of(self, reading: Reading, source: Any, ability: Any) -> str:
        name = self.card_name(reading, source)
        text = self.ability_text(reading, reading.known.get(source), ability)
        return f"{name}: {text}" if text else name

    def _choose_one_texts(self, reading: Reading, card_id: str | None) -> list[str]:
        card = self._card(card_id)
        if card is None:
            return []
        text = card.text_ru if reading.ru else card.text_en
        _head, sep, rest = text.partition(":")
        if not sep:
            return []
        parts = rest.replace("; или ", "; or ").split("; or ")
        return [p.strip().rstrip(".") for p in parts if p.strip()]

    def pending(self, reading: Reading) -> dict[str, Any] | None:
        pending = reading.view.get("pending")
        if not pending:
            return None
        t = reading.t
        kind = pending.get("kind", "")
        if not self.is_chooser(reading, pending):
            return self.waiting_on(reading, pending, reading.pick(PENDING_KINDS.get(kind), kind))
        details: list[str] = []
        count = pending.get("count")
        if kind == "first_player":
            text = t(
                "You won the Initiative: choose who goes first.",
                "Вы выиграли инициативу: выберите, кто ходит первым.",
            )
        elif kind == "mulligan":
            text = t(
                "Keep your opening hand, or put a card at the bottom of your Main Deck and draw one.",
                "Оставьте стартовую руку или положите карту под низ основной колоды и возьмите новую.",
            )
        elif kind == "discard_down":
            text = t(
                "Your hand is over your Supply: choose a card to discard.",
                "В руке больше карт, чем запас припасов: выберите карту для сброса.",
            )
        elif kind == "decree":
            text = t(
                "You may issue one Decree of your Cities, or none.",
                "Вы можете издать один декрет своих городов или отказаться.",
            )
        elif kind == "tactic":
            tactic = self.tactic_name(reading, pending.get("tactic"))
            amount = pending.get("amount")
            text = t(
                f"Your Tactic {tactic} won by {amount}: wound one of the defender's Cities or Squads by {amount}.",
                f"Ваша тактика {tactic} победила с перевесом {amount}: раньте город или отряд защитника на {amount}.",
            )
            if pending.get("superiority"):
                details.append(
                    t(
                        "Or use the Tactic's Superiority instead.",
                        "Или вместо этого примените превосходство тактики.",
                    )
                )
        elif kind == "order":
            text = t(
                "Several of your abilities triggered at once: choose which goes to the Queue first.",
                "Несколько ваших способностей сработали одновременно: выберите, какая первой встанет в очередь.",
            )
        elif kind == "replacement":
            event = reading.pick(
                EVENT_WORDS.get(pending.get("event", "")), pending.get("event", "")
            )
            affected = pending.get("affected")
            what = (
                self.card_name(reading, affected.get("iid"))
                if affected
                else t("a hidden card", "скрытая карта")
            )
            text = t(
                f"Several effects would replace the {event} of {what}: choose which one applies.",
                f"Несколько эффектов заменяют событие «{event}» для {what}: выберите, какой применяется.",
            )
        else:  # "choose": an effect waits for picks
            effect = pending.get("effect")
            prompt = reading.pick(
                EFFECT_PROMPTS.get(effect or ""), t("Make a choice", "Сделайте выбор")
            )
            if pending.get("pick") == "player":
                prompt = t("Choose an opponent", "Выберите оппонента")
            source = pending.get("source")
            text = (
                f"{prompt} ({t('for', 'для')} {self.card_name(reading, source)})"
                if source is not None
                else prompt
            )
            if isinstance(count, int) and count > 1:
                details.append(t(f"Pick {count}.", f"Выберите {count}."))
            if pending.get("optional"):
                details.append(t("You may choose nothing.", "Можно ничего не выбирать."))
            card_id = reading.known.get(source) if source is not None else None
            if card_id:
                lines = self.card(reading, card_id)["text"]
                details.extend(lines)
        options = [self.option_label(reading, pending, o) for o in pending.get("options") or ()]
        return {"text": text, "mine": True, "options": options, "details": details}

    # -- events ------------------------------------------------------------------------------

    def event(self, reading: Reading, event: Mapping[str, Any]) -> str | None:
        text = self._event(reading, event)
        return text[:1].upper() + text[1:] if text else text

    def _event(self, reading: Reading, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type", "")
        if kind == "left":
            return self.left(reading, event)
        t = reading.t
        seat = reading.seat
        who = seat(event.get("player"))
        name = self.card_name(reading, event.get("iid"))
        if kind == "step":
            if event.get("step") not in SHOWN_STEPS:
                return None
            return t(
                f"Round {event.get('round')}: {reading.pick(STEPS.get(event['step']))}",
                f"Раунд {event.get('round')}: {reading.pick(STEPS.get(event['step']))}",
            )
        if kind == "round":
            return t(f"Round {event.get('round')} begins", f"Начинается раунд {event.get('round')}")
        if kind == "initiative":
            rolls = event.get("rolls") or {}
            shown = ", ".join(f"{seat(int(k))}: {v}" for k, v in rolls.items() if str(k).isdigit())
            return t(f"Initiative rolls — {shown}", f"Броски инициативы — {shown}")
        if kind == "first_player":
            return t(
                f"{seat(event.get('chooser'))} chose who goes first: {seat(event.get('first'))}",
                f"{seat(event.get('chooser'))} выбирает первого игрока: {seat(event.get('first'))}",
            )
        if kind == "keep":
            return t(f"{who} keeps their hand", f"{who} оставляет руку")
        if kind == "mulligan":
            return t(f"{who} takes a mulligan", f"{who} берёт муллиган")
        if kind == "draw":
            n = event.get("count", 0)
            return t(f"{who} draws {n} card{'s' if n != 1 else ''}", f"{who} берёт карты: {n}")
        if kind == "pass":
            return t(f"{who} passes", f"{who} пасует")
        if kind == "played":
            name = self._event_card(reading, event)
            return t(f"{who} plays {name}", f"{who} разыгрывает {name}")
        if kind == "resolved":
            return t(f"{name} resolves", f"{name} разрешается")
        if kind == "ability_resolved":
            return t(
                f"An ability of {self.card_name(reading, event.get('source'))} resolves",
                f"Разрешается способность {self.card_name(reading, event.get('source'))}",
            )
        if kind in ("activate", "decree"):
            text = self.ability_text(
                reading, reading.known.get(event.get("iid")), event.get("ability")
            )
            owner = (
                self._owner(reading, event["iid"]) if isinstance(event.get("iid"), int) else None
            )
            lead = f"{seat(owner)}: " if owner is not None else ""
            verb = (
                t("activates", "активирует")
                if kind == "activate"
                else t("issues the Decree of", "издаёт декрет")
            )
            return f"{lead}{verb} {name}" + (f" — {text}" if text else "")
        if kind == "assign":
            tactic = self.tactic_name(reading, event.get("tactic"))
            if event.get("side") == "attack":
                return t(f"{name} attacks in {tactic}", f"{name} идёт в атаку: {tactic}")
            return t(f"{name} defends against {tactic}", f"{name} встаёт в защиту: {tactic}")
        if kind == "direct_attack":
            return t(
                f"{who} makes a Direct Attack on {seat(event.get('target'))}",
                f"{who} совершает прямое нападение — цель: {seat(event.get('target'))}",
            )
        if kind == "wounded":
            return t(
                f"{name} is wounded by {event.get('amount')}",
                f"{name} получает ранение {event.get('amount')}",
            )
        if kind == "tactic_wound":
            target = self.card_name(reading, event.get("target"))
            return t(
                f"The winning Tactic wounds {target} by {event.get('amount')}",
                f"Победившая тактика ранит {target} на {event.get('amount')}",
            )
        if kind == "city_ruined":
            return t(f"{name} is ruined", f"{name} разорён")
        if kind == "destroyed":
            return t(f"{name} is destroyed", f"{name} уничтожен(а)")
        if kind == "healed":
            return t(f"{name} is healed", f"{name} исцелён(а)")
        if kind == "created":
            name = self._event_card(reading, event)
            return t(f"{who} creates {name}", f"{who} создаёт {name}")
        if kind == "discard":
            name = self._event_card(reading, event)
            return t(f"{who} discards {name}", f"{who} сбрасывает {name}")
        if kind == "mill":
            name = self._event_card(reading, event)
            return t(
                f"{name} goes from the Main Deck of {who} to the Graveyard",
                f"{name} уходит из основной колоды ({who}) на кладбище",
            )
        if kind == "look_at_top":
            n = event.get("count", 0)
            return t(
                f"{who} looks at the top {n} card(s) of their Main Deck",
                f"{who} смотрит верхние карты своей основной колоды: {n}",
            )
        if kind == "replaced":
            what = reading.pick(EVENT_WORDS.get(event.get("event", "")), event.get("event", ""))
            source = self.card_name(reading, event.get("source"))
            return t(f"{source} replaces the {what}", f"{source} заменяет событие «{what}»")
        if kind == "tactic_resolved":
            result = {
                "win": t("the attack wins", "атака победила"),
                "lose": t("the defence holds", "защита выстояла"),
                "tie": t("a tie", "ничья"),
            }.get(event.get("result"), t("resolved", "разрешена"))
            return t(f"A Tactic is resolved: {result}", f"Тактика разрешена: {result}")
        if kind == "eliminated":
            return t(f"{who} is eliminated", f"{who} выбывает из игры")
        if kind == "game_over":
            if event.get("draw"):
                return t("Game over: a draw", "Конец игры: ничья")
            return self.winners(reading, event)
        return kind.replace("_", " ").capitalize()

    def _event_card(self, reading: Reading, event: Mapping[str, Any]) -> str:
        """An event that names its card (played, created, discarded, milled): public."""
        card = event.get("card")
        if isinstance(card, str):
            return f"«{self.printed_name(reading, card)}»"
        return self.card_name(reading, event.get("iid"))

    # -- the view's headline -----------------------------------------------------------------

    def step_name(self, reading: Reading, step: str | None) -> str:
        return reading.pick(STEPS.get(step or ""), step or "")


DESCRIBER = VoskhozhdenieDescriber()


# -- the table's plan (templates/play/voskhozhdenie/table.html, play/components/) -------------

# How the game goes, in brief, for the table's rules panel (each line cites its rules).
RULES_DIGEST = (
    (
        "Each round: draw up to your Supply, gain coins equal to it, issue Decrees (5.6.1, 5.6.2).",
        "Каждый раунд: доберите карты до запаса припасов, получите столько же монет, издайте декреты (5.6.1, 5.6.2).",
    ),
    (
        "On your turn do one thing: play a card, declare a Tactic or a Direct Attack, assign a Squad, activate an ability, or pass (5.6.3.2).",
        "В свой ход сделайте одно: разыграйте карту, объявите тактику или прямое нападение, назначьте отряд, активируйте способность или спасуйте (5.6.3.2).",
    ),
    (
        "Played cards and abilities wait in the Queue and resolve first in, first out (5.7, 6).",
        "Разыгранные карты и способности ждут в очереди и разрешаются по порядку (5.7, 6).",
    ),
    (
        "A Squad summoned this round may join a Tactic only with Zeal (5.6.3.2.3.1).",
        "Отряд, призванный в этом раунде, может войти в тактику только с рвением (5.6.3.2.3.1).",
    ),
    (
        "When all have passed, each Tactic compares its sides' Strength; the winner wounds by the difference or uses Superiority (5.6.4).",
        "Когда все спасовали, в каждой тактике сравнивается сила сторон; победитель ранит на разницу или применяет превосходство (5.6.4).",
    ),
    (
        "A City at 0 Strength is ruined; a player whose Cities are all ruined is eliminated, and the last one standing wins (2.3.1, 1.3.9).",
        "Город с силой 0 разорён; игрок, чьи города все разорены, выбывает, последний оставшийся побеждает (2.3.1, 1.3.9).",
    ),
)

PENDING_CARD_CHOICES = frozenset({"discard_down", "mulligan", "tactic", "choose"})
SUBJECT_ACTIONS = frozenset({"play", "declare", "assign", "activate", "decree"})


class _Table(table.Planner):
    """The plan of one viewer's table (see ``layout``)."""

    describer = DESCRIBER
    buttons = ("acts", "aims")  # aims: shown while the card a target belongs to is selected

    def __init__(self, view: Mapping[str, Any], legal: list[Mapping[str, Any]], reading: Reading):
        super().__init__(view, legal, reading)
        self.players: dict[int, dict[str, Any]] = {}
        self.tactics: dict[Any, dict[str, Any]] = {}

    # cards -------------------------------------------------------------------------------

    def hidden(self, iid: Any, zone: str) -> dict[str, Any]:
        return {**super().hidden(iid, zone), "zone": zone}

    def printed(self, c: Mapping[str, Any], card: Card, info: Mapping[str, Any]) -> dict[str, Any]:
        t = self.r.t
        strength = c.get("strength", card.strength)
        flags, cls = [], [f"t-{card.type}"]
        if c.get("ruined"):
            flags.append(t("ruined", "разорён"))
            cls.append("ruined")
        if c.get("wounded"):
            flags.append(t("wounded", "ранен"))
            cls.append("wounded")
        if c.get("side") == "attack":
            flags.append(t("attacking", "в атаке"))
            cls.append("attacking")
        elif c.get("side") == "defence":
            flags.append(t("defending", "в защите"))
            cls.append("defending")
        if c.get("kind") == "ability":
            flags.append(t("ability", "способность"))
        stats = []
        if strength is not None:
            mood = ""
            if isinstance(strength, int) and isinstance(card.strength, int):
                mood = (
                    "up" if strength > card.strength else "down" if strength < card.strength else ""
                )
            stats.append(
                {
                    "sym": "⚔",
                    "value": strength,
                    "cls": f"str {mood}".strip(),
                    "title": t("Strength", "Сила"),
                    "printed": card.strength,
                }
            )
        if card.supply:
            stats.append(
                {"sym": "⛁", "value": card.supply, "cls": "sup", "title": t("Supply", "Припасы")}
            )
        colours = sorted(card.colours)
        return {
            "kind": info["kind"],
            "cost": "" if info["cost"] == "—" else info["cost"],
            "colour": colours[0] if len(colours) == 1 else ("multi" if colours else "neutral"),
            "colours": info["colours"],
            "stats": stats,
            "printed": card.strength,
            "keywords": info["keywords"],
            "flags": flags,
            "cls": " ".join(cls),
        }

    # players -----------------------------------------------------------------------------

    def player(self, p: Mapping[str, Any]) -> dict[str, Any]:
        t = self.r.t
        seat = p["seat"]
        view = self.view
        mine = seat == self.r.you
        mine_cards = [c for c in view.get("battlefield") or () if c.get("owner") == seat]
        cities = [c for c in mine_cards if self._type(c) == "city"]
        squads = [c for c in mine_cards if self._type(c) == "squad"]
        others = [c for c in mine_cards if self._type(c) not in ("city", "squad", "tactic")]
        # Cities first, then the Squads and the other cards in play, in one lane (6.4).
        field = self.zone(
            "battlefield",
            self.d.zone_name(self.r, "battlefield"),
            cities + squads + others,
            lane=True,
        )
        if cities and len(field["cards"]) > len(cities):
            field["cards"][len(cities)]["cls"] += " gap-before"
        zones = [field]
        if p.get("looked_at"):
            zones.append(
                self.zone(
                    "looked_at",
                    t(
                        "Top of your Main Deck (you looked)",
                        "Верх вашей основной колоды (вы смотрели)",
                    ),
                    p["looked_at"],
                    lane=True,
                )
            )
        # The viewer plays from their Reinforcement Deck as from their hand (6.4.2): a strip
        # beside the hand; the other open zones are folded behind their counts.
        folded_keys = ["graveyard", "oblivion"]
        reserve = None
        if mine:
            reserve = self.zone(
                "reinforcement",
                self.d.zone_name(self.r, "reinforcement"),
                p.get("reinforcement") or [],
                strip=True,
            )
        else:
            folded_keys.insert(0, "reinforcement")
        folded = [
            self.zone(k, self.d.zone_name(self.r, k), p.get(k) or [], fold=True)
            for k in folded_keys
        ]
        badges = []
        if view.get("active") == seat and not view.get("finished"):
            badges.append({"text": t("turn", "ход"), "cls": "turn"})
        if p.get("passed"):
            badges.append({"text": t("passed", "пас"), "cls": "passed"})
        if p.get("eliminated"):
            badges.append({"text": t("eliminated", "выбыл"), "cls": "out"})
        stats = [
            {"key": "coins", "sym": "¤", "label": t("Coins", "Монеты"), "value": p.get("coins")},
            {
                "key": "supply",
                "sym": "⛁",
                "label": t("Supply", "Запас припасов"),
                "value": p.get("supply"),
            },
            {
                "key": "deck",
                "sym": "▤",
                "label": self.d.zone_name(self.r, "main"),
                "value": p.get("main_count"),
            },
            {
                "key": "hand",
                "sym": "✋",
                "label": self.d.zone_name(self.r, "hand"),
                "value": p.get("hand_count"),
            },
        ]
        if p.get("mulligans"):
            stats.append(
                {
                    "key": "mull",
                    "sym": "↻",
                    "label": t("Mulligans", "Муллиганы"),
                    "value": p["mulligans"],
                }
            )
        out = {
            "seat": seat,
            "number": seat + 1,
            "name": self.r.seat_names.get(seat) or t(f"Seat {seat + 1}", f"Место {seat + 1}"),
            "mine": mine,
            "out": bool(p.get("eliminated")),
            "acting": self.acting(seat),
            "badges": badges,
            "stats": stats,
            "zones": zones,
            "folded": folded,
            "reserve": reserve,
            "backs": [] if mine else list(range(min(int(p.get("hand_count") or 0), 12))),
            "hand": (
                self.zone(
                    "hand",
                    t("Your hand", "Ваша рука"),
                    p["hand"],
                    strip=True,
                    empty=t("Your hand is empty", "Рука пуста"),
                )
                if p.get("hand") is not None
                else None
            ),
            "acts": [],
            "aims": [],
        }
        self.players[seat] = out
        return out

    def acting(self, seat: int) -> bool:
        pending = self.view.get("pending")
        if pending:
            return pending.get("player") == seat
        return self.view.get("active") == seat and not self.view.get("finished")

    def _type(self, c: Mapping[str, Any]) -> str:
        card = self.d._card(c.get("card"))
        return card.type if card is not None else ""

    # the shared middle: Tactics and the Queue ----------------------------------------------

    def tactic(self, tac: Mapping[str, Any]) -> dict[str, Any]:
        t = self.r.t
        by_iid = {c["iid"]: c for c in self.view.get("battlefield") or ()}

        def side(iids: list[Any], label: str) -> dict[str, Any]:
            cards = [by_iid[i] for i in iids if i in by_iid]
            total = sum(c.get("strength") or 0 for c in cards)
            chips = [
                {
                    "iid": c["iid"],
                    "name": self.d.printed_name(self.r, c["card"]),
                    "power": c.get("strength"),
                }
                for c in cards
            ]
            return {"label": label, "total": total, "chips": chips}

        card = None
        if not tac.get("direct_attack") and tac.get("card"):
            card = self.face({"iid": tac.get("iid"), "card": tac["card"]}, "tactics")
        declarer, defender = tac.get("declarer"), tac.get("defender")
        who = self.r.seat(declarer)
        if defender is not None:
            who += " → " + self.r.seat(defender)
        out = {
            "id": tac.get("id"),
            "title": t("Direct Attack", "Прямое нападение") if card is None else card["name"],
            "card": card,
            "who": who,
            "ready": bool(tac.get("ready")),
            "sides": [
                side(tac.get("attack") or [], t("Attack", "Атака")),
                side(tac.get("defence") or [], t("Defence", "Защита")),
            ],
            "aims": [],
        }
        self.tactics[tac.get("id")] = out
        return out

    def queue(self) -> list[dict[str, Any]]:
        t = self.r.t
        out = []
        for n, q in enumerate(self.view.get("queue") or ()):
            who = self.r.seat(q.get("controller"))
            if q.get("kind") == "ability":
                if q.get("card"):
                    face = self.face(
                        {"iid": q.get("source"), "card": q["card"], "kind": "ability"}, "queue"
                    )
                    text = self.d.ability_text(self.r, q["card"], q.get("ability"))
                else:
                    face, text = None, t("an ability of a hidden card", "способность скрытой карты")
            else:
                face, text = self.face(q, "queue"), ""
            out.append({"n": n + 1, "card": face, "text": text, "who": who, "next": n == 0})
        return out

    # actions -----------------------------------------------------------------------------

    def place(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        """Put each legal action where it is taken: on the card it is about (chosen first,
        its bar below), on a card or player the pending choice asks for, or in the bar."""
        t = self.r.t
        pending = self.view.get("pending") or {}
        subjects: dict[int, list[tuple[int, Mapping[str, Any]]]] = {}
        prompt: list[dict[str, Any]] = []
        turn: list[dict[str, Any]] = []
        for k, a in enumerate(self.legal):
            about = self.d.action(self.r, a)
            kind = a.get("type")
            iid = a.get("iid")
            drawn = self.cards.get(iid) if isinstance(iid, int) else None
            if kind in SUBJECT_ACTIONS and drawn:
                subjects.setdefault(iid, []).append((k, a))
                continue
            form = table.act(k, a, about["text"], about["short"])
            if kind in ("discard", "mulligan") and drawn:
                form["short"] = about["short"].split(":")[0]
                form["name"] = drawn[0]["name"]
                drawn[-1]["acts"].append(form)
            elif kind == "tactic_wound" and self.cards.get(a.get("target")):
                face = self.cards[a["target"]][0]
                form["name"] = face["name"]
                face["acts"].append(form)
            elif kind == "choose" and self._pick_card(pending, a):
                face = self.cards[a["picks"][0]][0]
                form["short"] = t("Choose", "Выбрать")
                form["name"] = face["name"]
                face["acts"].append(form)
            elif kind == "direct_attack" and a.get("target") in self.players:
                form["short"] = t("Direct Attack", "Прямое нападение")
                self.players[a["target"]]["acts"].append(form)
            elif kind in ("pass",) or not pending:
                turn.append(form)
            else:
                prompt.append(form)
        bars = []
        for iid, items in subjects.items():
            face = self.cards[iid][0]
            face["sel"] = True
            plain, steps = table.steppers(items, lambda a: self.d.action(self.r, a)["short"])
            forms = []
            aimed = False
            for k, a in plain:
                about = self.d.action(self.r, a)
                form = table.act(k, a, about["text"], about["short"], face["name"])
                forms.append(form)
                aimed = self._aim(iid, a, form["id"], about["short"]) or aimed
            for step in steps:
                first = json.loads(step["options"][0]["json"])
                aimed = self._aim(iid, first, step["id"], step["label"]) or aimed
            bars.append(
                {
                    "iid": iid,
                    "name": face["name"],
                    "face": face,
                    "acts": forms,
                    "steppers": steps,
                    "aimed": aimed,
                }
            )
        return bars, prompt, turn

    def _pick_card(self, pending: Mapping[str, Any], a: Mapping[str, Any]) -> bool:
        picks = a.get("picks") or []
        if len(picks) != 1 or not isinstance(picks[0], int) or picks[0] not in self.cards:
            return False
        if pending.get("kind") in ("first_player", "order", "replacement"):
            return False
        return pending.get("pick") != "player" and pending.get("effect") != "choose_one"

    def _aim(self, iid: int, a: Mapping[str, Any], form: str, label: str) -> bool:
        """A target the chosen card's action points at, a player or a Tactic: its button
        there (shown while the card is chosen). False when the action has none."""
        aim = {"for": iid, "form": form, "label": label}
        if a.get("type") == "declare" and a.get("target") in self.players:
            aim["label"] = self.r.t("Declare against", "Объявить против")
            self.players[a["target"]]["aims"].append(aim)
            return True
        if a.get("type") == "assign" and a.get("tactic") in self.tactics:
            attack = a.get("side") == "attack"
            aim["label"] = (
                self.r.t("Attack", "В атаку") if attack else self.r.t("Defend", "В защиту")
            )
            self.tactics[a["tactic"]]["aims"].append({**aim, "side": a.get("side")})
            return True
        return False

    def shown_step(self) -> str | None:
        """The step to name. The engine marks the turn's end as soon as the action is
        taken (one action per turn, 5.6.3.2), but the Turn-end effects (5.6.3.3) begin
        only once the Queue is empty (5.7): until then the action's card or ability is
        still resolving, and its decisions are the Actions step's. Only a turn-end
        trigger in the Queue means that the turn's end has begun."""
        view = self.view
        step = view.get("step")
        queue = view.get("queue") or ()
        if step != "turn_end" or not (queue or view.get("pending")):
            return step
        for q in queue:
            card = self.d._card(q.get("card")) if q.get("kind") == "ability" else None
            ability = q.get("ability")
            if card is not None and isinstance(ability, int) and ability < len(card.abilities):
                trigger = card.abilities[ability].get("trigger") or {}
                if trigger.get("event") == "turn_end":
                    return step
        return "action"

    # the whole plan ----------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        t = self.r.t
        view = self.view
        you = self.r.you
        players = {p["seat"]: self.player(p) for p in view.get("players") or ()}
        top, bottom = table.seating(list(players), you)
        tactics = [self.tactic(x) for x in view.get("tactics") or ()]
        queue = self.queue()
        bars, prompt_acts, turn = self.place()
        pending = (
            self.d.pending(self.r) if view.get("pending") and not view.get("finished") else None
        )
        prompt = None
        if pending is not None:
            prompt = {**pending, "acts": prompt_acts}
            if bars:
                prompt["hint"] = t(
                    "Choose a highlighted card, then its action in the bar.",
                    "Выберите подсвеченную карту, затем её действие в панели.",
                )
            if any(f["acts"] for faces in self.cards.values() for f in faces):
                prompt["hint"] = t(
                    "Choose on a highlighted card, or below.",
                    "Выберите на подсвеченной карте или ниже.",
                )
        elif prompt_acts:
            turn = prompt_acts + turn
        # Before the deal (a table waiting for its seats) there is no round to name.
        head = []
        if view.get("round") is not None:
            head.append({"label": t("Round", "Раунд"), "value": view["round"]})
        # A finished game (1.3.9, 1.2.5) has no step under way and nobody to act: the end
        # screen says how it ended.
        over = bool(view.get("finished"))
        step = self.shown_step()
        if step and not over:
            head.append({"label": t("Step", "Шаг"), "value": self.d.step_name(self.r, step)})
        if over:
            head.append({"label": "", "value": t("Game over", "Игра окончена"), "cls": "over"})
        elif view.get("active") is not None:
            head.append(
                {"label": t("Turn", "Ход"), "value": self.r.seat(view["active"]), "cls": "turn"}
            )
        order = view.get("turn_order") or []
        if len(order) > 1:
            head.append(
                {
                    "label": t("Turn order", "Порядок ходов"),
                    "value": " → ".join(str(s + 1) for s in order),
                }
            )
        return {
            "you": you,
            "spectator": you is None,
            "head": head,
            "opponents": [players[s] for s in top],
            "me": players.get(bottom) if bottom is not None else None,
            "tactics": tactics,
            "queue": queue,
            "prompt": prompt,
            "bars": bars,
            "turn": turn,
            "count": len(self.legal),
            "rules": {
                "title": t("How «Восхождение» is played", "Как играть в «Восхождение»"),
                "lines": [self.r.pick(line) for line in RULES_DIGEST],
            },
            "finished": bool(view.get("finished")),
        }


def layout(
    view: Mapping[str, Any] | None,
    legal: Any = (),
    language: str | None = "en",
    names: Mapping[Any, Any] | None = None,
) -> dict[str, Any]:
    """The table's plan for this viewer's view and legal actions (``engine.core.table``):
    players with their zones as cards (the opponents first, the viewer last), the Tactics
    and the Queue, the pending prompt, and each legal action placed where it is taken."""
    return _Table.plan(view, legal, language, names)


def ending(state: Mapping[str, Any], language: str, names: Mapping[int, str]) -> str | None:
    """How a finished game was decided (``engine.core.protocol``'s ``ending``): the last
    opponent's Cities all ruined (2.3.1.2), so the others win (1.3.9); or, with no winner,
    a draw (1.3.10) by an event rule (1.3.3: idle Rounds, the Round limit) or because the
    last players were eliminated together (AMB-34)."""
    if not state.get("finished"):
        return None
    ru = language == "ru"
    winners = list(state.get("winners") or ())
    elim = list(state.get("elim") or ())
    if winners:
        if not elim:
            return None
        lost = named_seat(names, elim[-1], language)
        who = named_seats(names, winners, language)
        many = len(winners) > 1
        return (
            f"Все Города игрока {lost} разрушены (2.3.1.2) — "
            f"{'побеждают' if many else 'побеждает'} {who} (1.3.9)"
            if ru
            else f"All of {lost}'s Cities are ruined (2.3.1.2) — {who} {'win' if many else 'wins'} (1.3.9)"
        )
    idle = state.get("idle")
    if isinstance(idle, Mapping) and idle.get("count", 0) >= idle.get("limit", 1):
        n = idle.get("limit")
        return (
            f"Все игроки только пасовали, Раундов подряд: {n} (1.3.3) — ничья (1.3.10)"
            if ru
            else f"For {n} Rounds in a row every player only passed (1.3.3) — a draw (1.3.10)"
        )
    limit = state.get("round_limit")
    if isinstance(limit, int) and state.get("round", 0) >= limit:
        return (
            f"Сыгран последний, {limit}-й Раунд (1.3.3) — ничья (1.3.10)"
            if ru
            else f"The last Round ({limit}) was played (1.3.3) — a draw (1.3.10)"
        )
    return (
        "Последние игроки выбыли одновременно (AMB-34) — ничья (1.3.10)"
        if ru
        else "The last players were eliminated at the same time (AMB-34) — a draw (1.3.10)"
    )


def _only_keywords(line: str, keywords: list[str]) -> bool:
    """A printed line that only names keywords the card shows apart ("Zeal." or
    "Zeal. Reinforcement."): said once, in the keyword line, not again in the text."""
    shown = {k.casefold() for k in keywords}
    parts = {part.strip().casefold() for part in line.replace(",", ".").split(".")} - {""}
    return bool(shown) and bool(parts) and parts <= shown
