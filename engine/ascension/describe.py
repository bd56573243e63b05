"""Ascension described to people (``engine.core.describe``): cards with cost, honor,
faction and text; legal actions, pending choices and events as sentences in English or
Russian. Read only from a ``Reading`` of the viewer's own view: another player's hand
and every deck are counts there, so no label can name a card in them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ascension.cards import Card, CardDB
from engine.core.describe import CardDescriber, Reading, text_lines

TYPES = {
    "hero": ("Hero", "Герой"),
    "construct": ("Construct", "Конструкт"),
    "monster": ("Monster", "Монстр"),
}
FACTIONS = {
    "enlightened": ("Enlightened", "Просвещённые"),
    "lifebound": ("Lifebound", "Дети Жизни"),
    "mechana": ("Mechana", "Механа"),
    "void": ("Void", "Пустота"),
}
PLACES = {
    "hand": ("hand", "рука"),
    "discard": ("discard pile", "сброс"),
    "center": ("center row", "центральный ряд"),
    "any": ("hand or discard pile", "рука или сброс"),
}
PENDING = {  # (prompt for the chooser, what the others are told)
    "banish": (
        ("Choose a card to banish to the Void", "Выберите карту, которую изгнать в Пустоту"),
        ("choosing a card to banish", "выбирает карту для изгнания"),
    ),
    "defeat_free": (
        ("Choose a Monster to defeat for free", "Выберите монстра, которого победить бесплатно"),
        ("choosing a Monster to defeat", "выбирает монстра для победы"),
    ),
    "acquire_free": (
        ("Choose a card to acquire for free", "Выберите карту, которую получить бесплатно"),
        ("choosing a card to acquire", "выбирает карту для получения"),
    ),
    "keep": (
        ("Choose the one Construct you keep", "Выберите один конструкт, который останется"),
        ("choosing the Construct to keep", "выбирает, какой конструкт оставить"),
    ),
}
ACTION_KINDS = {
    "play": ("Play", "Сыграть"),
    "activate": ("Use a Construct", "Использовать конструкт"),
    "acquire": ("Acquire", "Получить"),
    "defeat": ("Defeat", "Победить"),
    "end_turn": ("End turn", "Закончить ход"),
    "choose": ("Choice", "Выбор"),
}


class AscensionDescriber(CardDescriber[Card]):
    ACTION_KINDS = ACTION_KINDS

    def _load_db(self) -> CardDB:
        from engine.ascension.game import SYSTEM

        return SYSTEM.db

    def _lookup(self, card_id: str) -> Card:
        return self.db.cards[card_id]

    def card(self, reading: Reading, card_id: str) -> dict[str, Any]:
        card = self._card(card_id)
        if card is None:
            return self.unknown_card(card_id)
        text = card.text_ru if reading.ru else card.text_en
        resource = (
            reading.t("power", "сила") if card.type == "monster" else reading.t("runes", "руны")
        )
        return {
            "id": card.id,
            "name": self.printed_name(reading, card_id),
            "type": card.type,
            "kind": reading.pick(TYPES.get(card.type), card.type),
            "faction": reading.pick(FACTIONS.get(card.faction or ""), "")
            or reading.t("Neutral", "Без фракции"),
            "faction_key": card.faction or "neutral",
            "cost": card.cost,
            "cost_label": f"{card.cost} {resource}",
            "honor": card.honor,
            "text": text_lines(text),
            "flavour": card.flavour_ru if reading.ru else card.flavour_en,
        }

    def _cost(self, reading: Reading, card_id: Any) -> str:
        card = self._card(card_id)
        return "" if card is None else self.card(reading, card_id)["cost_label"]

    def action(self, reading: Reading, action: Mapping[str, Any]) -> dict[str, Any]:
        kind = action.get("type", "")
        t = reading.t
        iid = action.get("iid")
        card: int | None = iid if isinstance(iid, int) and not isinstance(iid, bool) else None
        if "pile" in action:
            name = f"«{self.printed_name(reading, action['pile'])}»"
            card_id = action["pile"]
        else:
            name = self.card_name(reading, iid)
            card_id = reading.known.get(iid) if card is not None else None
        cost = self._cost(reading, card_id)
        if kind == "play":
            short = t("Play", "Сыграть")
        elif kind == "activate":
            short = t("Use", "Использовать")
        elif kind == "acquire":
            short = (
                t(f"Acquire ({cost})", f"Получить ({cost})") if cost else t("Acquire", "Получить")
            )
        elif kind == "defeat":
            short = t(f"Defeat ({cost})", f"Победить ({cost})") if cost else t("Defeat", "Победить")
        elif kind == "end_turn":
            short = t("End turn", "Закончить ход")
        elif kind == "choose":
            pending = reading.view.get("pending") or {}
            if iid is None:
                short = t("Choose none", "Ничего не выбирать")
            else:
                verb = {
                    "banish": t("Banish", "Изгнать"),
                    "defeat_free": t("Defeat for free", "Победить бесплатно"),
                    "acquire_free": t("Acquire for free", "Получить бесплатно"),
                    "keep": t("Keep", "Оставить"),
                }.get(pending.get("kind"), t("Choose", "Выбрать"))
                short = verb
        else:
            short = self.action_kind(reading, kind)
        text = f"{short}: {name}" if (card is not None or "pile" in action) else short
        return {
            "text": text,
            "short": short,
            "card": card,
            "group": f"card:{card}" if card is not None else kind,
        }

    def pending(self, reading: Reading) -> dict[str, Any] | None:
        pending = reading.view.get("pending")
        if not pending:
            return None
        kind = pending.get("kind", "")
        words = PENDING.get(kind)
        if not self.is_chooser(reading, pending):
            return self.waiting_on(
                reading, pending, reading.pick(words[1] if words else None, kind)
            )
        text = reading.pick(words[0] if words else None, kind)
        details = []
        where = pending.get("from")
        if where:
            place = reading.pick(PLACES.get(where), where)
            details.append(reading.t(f"From: {place}.", f"Откуда: {place}."))
        if pending.get("to") == "deck":
            details.append(reading.t("It goes on top of your deck.", "Она ляжет на верх колоды."))
        if pending.get("optional"):
            details.append(reading.t("You may choose none.", "Можно ничего не выбирать."))
        src = pending.get("src")
        if src is not None:
            text += reading.t(
                f" (for {self.card_name(reading, src)})", f" (для {self.card_name(reading, src)})"
            )
        options = [self.card_name(reading, o) for o in pending.get("options") or ()]
        return {"text": text, "mine": True, "options": options, "details": details}

    def event(self, reading: Reading, event: Mapping[str, Any]) -> str | None:
        kind = event.get("type", "")
        if kind == "left":
            return self.left(reading, event)
        t = reading.t
        who = reading.seat(event.get("seat"))
        card = event.get("card")
        name = (
            f"«{self.printed_name(reading, card)}»"
            if isinstance(card, str)
            else self.card_name(reading, event.get("iid"))
        )
        samael = t("Samael", "Самаэль")
        texts = {
            "play": (f"{who} plays {name}", f"{who} играет {name}"),
            "activate": (f"{who} uses {name}", f"{who} использует {name}"),
            "acquire": (f"{who} acquires {name}", f"{who} получает {name}"),
            "defeat": (f"{who} defeats {name}", f"{who} побеждает {name}"),
            "end_turn": (f"{who} ends the turn", f"{who} заканчивает ход"),
            "banish": (f"{who} banishes {name}", f"{who} изгоняет {name}"),
            "destroy": (f"{name} of {who} is destroyed", f"{name} ({who}) уничтожен"),
            "refill": (f"{name} enters the center row", f"{name} выходит в центральный ряд"),
            "reshuffle": (f"{who} shuffles their discard pile", f"{who} перемешивает сброс"),
            "reveal": (f"{who} reveals {name}", f"{who} открывает {name}"),
            "steal": (
                f"{who} takes a random card from {reading.seat(event.get('from'))}",
                f"{who} забирает случайную карту у: {reading.seat(event.get('from'))}",
            ),
            "pool_empty": (
                "The honor pool is empty: this is the last round",
                "Запас чести исчерпан: идёт последний раунд",
            ),
            "void_reshuffled": (
                "The Void is shuffled into the center deck",
                "Пустота замешана в центральную колоду",
            ),
            "samael_turn": (f"{samael}'s turn", f"Ход: {samael}"),
            "samael_defeat": (f"{samael} defeats {name}", f"{samael} побеждает {name}"),
            "samael_acquire": (f"{samael} takes {name}", f"{samael} забирает {name}"),
        }
        if kind in texts:
            return reading.pick(texts[kind])
        if kind == "draw":
            n = event.get("count", 0)
            return t(f"{who} draws {n}", f"{who} берёт карты: {n}")
        if kind == "honor":
            target = who if event.get("seat") is not None else samael
            return t(
                f"{target} gains {event.get('amount')} honor ({event.get('pool')} left in the pool)",
                f"{target}: +{event.get('amount')} чести (в запасе {event.get('pool')})",
            )
        if kind == "decline":
            return t(f"{who} chooses nothing", f"{who} ничего не выбирает")
        if kind == "game_over":
            return self.winners(reading, event)
        return kind.replace("_", " ").capitalize()


DESCRIBER = AscensionDescriber()
