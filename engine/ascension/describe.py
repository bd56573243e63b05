"""Ascension described to people (``engine.core.describe``): cards with cost, honor,
faction and text; legal actions, pending choices and events as sentences in English or
Russian. Read only from a ``Reading`` of the viewer's own view: another player's hand
and every deck are counts there, so no label can name a card in them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ascension.cards import Card, CardDB
from engine.core import table
from engine.core.describe import CardDescriber, Reading, named_seat, text_lines

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
    "hand_or_discard": ("hand or discard pile", "рука или сброс"),
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


def _price(reading: Reading, cost: Any, *, monster: bool) -> str:
    """A card's price as a count of its resource: runes to acquire it, power to defeat a
    Monster (A-25, A-29), in the words' number: "1 rune", «5 рун»."""
    if monster:
        return reading.t(f"{cost} power", f"сила {cost}")
    if not isinstance(cost, int):
        return reading.t(f"{cost} runes", f"{cost} рун")
    if not reading.ru:
        return f"{cost} rune" if cost == 1 else f"{cost} runes"
    ones, tens = cost % 10, cost % 100
    if ones == 1 and tens != 11:
        return f"{cost} руна"
    if 2 <= ones <= 4 and not 12 <= tens <= 14:
        return f"{cost} руны"
    return f"{cost} рун"


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
        cost_label = _price(reading, card.cost, monster=card.type == "monster")
        return {
            "id": card.id,
            "name": self.printed_name(reading, card_id),
            "type": card.type,
            "kind": reading.pick(TYPES.get(card.type), card.type),
            "faction": reading.pick(FACTIONS.get(card.faction or ""), "")
            or reading.t("Neutral", "Без фракции"),
            "faction_key": card.faction or "neutral",
            "cost": card.cost,
            "cost_label": cost_label,
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


# -- the table's plan (templates/play/ascension/table.html, play/components/) ----------------

RULES_DIGEST = (
    (
        "On your turn play every card you like from your hand: Heroes give runes, power and effects; Constructs stay in play (A-22, A-23, A-24).",
        "В свой ход играйте с руки любые карты: герои дают руны, силу и эффекты; конструкты остаются в игре (A-22, A-23, A-24).",
    ),
    (
        "Spend runes to acquire Heroes and Constructs from the center row or the Mystic and Heavy Infantry piles; they go to your discard pile (A-25, A-26, A-27).",
        "Тратьте руны, чтобы получать героев и конструкты из центрального ряда или стопок Мистиков и Тяжёлой пехоты; они уходят в ваш сброс (A-25, A-26, A-27).",
    ),
    (
        "Spend power to defeat Monsters, the Cultist always among them, for honor and rewards (A-29, A-30, A-31).",
        "Тратьте силу, чтобы побеждать монстров, в том числе всегда доступного Культиста, ради чести и наград (A-29, A-30, A-31).",
    ),
    (
        "A card taken from the center row is replaced at once from the center deck (A-28).",
        "Взятая из центрального ряда карта сразу заменяется из центральной колоды (A-28).",
    ),
    (
        "When the honor pool runs out the round is finished; the most honor, tokens and cards together, wins, a tie going to the player who took a turn later (A-41, A-43, A-44).",
        "Когда запас чести кончается, раунд доигрывается; побеждает больше всех чести (жетоны и карты), при равенстве — тот, кто ходил позже (A-41, A-43, A-44).",
    ),
)


class _Table(table.Planner):
    """The plan of one viewer's Ascension table (see ``layout``)."""

    describer = DESCRIBER

    def __init__(self, view: Mapping[str, Any], legal: list[Mapping[str, Any]], reading: Reading):
        super().__init__(view, legal, reading)
        self.piles: dict[str, dict[str, Any]] = {}

    def printed(self, c: Mapping[str, Any], card: Card, info: Mapping[str, Any]) -> dict[str, Any]:
        stats = []
        if card.honor:
            stats.append(
                {"sym": "★", "value": card.honor, "cls": "hon", "title": self.r.t("Honor", "Честь")}
            )
        return {
            "kind": info["kind"] + (f" · {info['faction']}" if card.faction else ""),
            "cost": f"{card.cost}{'⚔' if card.type == 'monster' else '◆'}" if card.cost else "",
            "cost_title": info["cost_label"],
            "colour": card.faction or "neutral",
            "colours": info["faction"],
            "stats": stats,
            "keywords": [],
            "flags": [],
            "cls": f"asc-card t-{card.type}",
        }

    def player(self, p: Mapping[str, Any]) -> dict[str, Any]:
        t = self.r.t
        view = self.view
        seat = p["seat"]
        mine = seat == self.r.you
        active = view.get("active") == seat and not view.get("finished")
        used = set(p.get("used") or ())
        constructs = self.zone(
            "constructs",
            t("Constructs in play", "Конструкты в игре"),
            p.get("constructs"),
            lane=True,
            cls="asc-constructs",
            empty="—",
        )
        for face in constructs["cards"]:
            if face.get("iid") in used:
                face["cls"] += " used"
                face["flags"].append(t("used", "использован"))
        zones = [constructs]
        if p.get("played"):
            zones.append(
                self.zone(
                    "played",
                    t("Played this turn", "Сыграно в этом ходу"),
                    p["played"],
                    lane=True,
                    cls="asc-played",
                )
            )
        hand = None
        if isinstance(p.get("hand"), list):
            hand = self.zone(
                "hand",
                t("Your hand", "Ваша рука"),
                p["hand"],
                strip=True,
                cls="asc-hand",
                empty="—",
            )
        stats = [
            {
                "key": "honor",
                "cls": "asc-honor",
                "label": t("Honor", "Честь"),
                "value": p.get("honor"),
            },
            {
                "key": "runes",
                "cls": "asc-runes",
                "label": t("Runes", "Руны"),
                "value": p.get("runes"),
            },
            {
                "key": "power",
                "cls": "asc-power",
                "label": t("Power", "Сила"),
                "value": p.get("power"),
            },
            {
                "key": "hand",
                "cls": "asc-hand-count",
                "label": t("Hand", "Рука"),
                "value": p.get("hand_count"),
            },
            {
                "key": "deck",
                "cls": "asc-deck",
                "label": t("Deck", "Колода"),
                "value": p.get("deck"),
            },
            {
                "key": "discard",
                "cls": "asc-discard",
                "label": t("Discard", "Сброс"),
                "value": len(p.get("discard") or ()),
            },
        ]
        badges = []
        if active:
            badges.append({"text": t("to act", "ходит"), "cls": "turn"})
        if seat in (view.get("out") or ()):
            badges.append({"text": t("out of the game", "выбыл"), "cls": "out"})
        return {
            "seat": seat,
            "number": seat + 1,
            "name": self.r.seat_names.get(seat) or t(f"Seat {seat + 1}", f"Место {seat + 1}"),
            "mine": mine,
            "out": seat in (view.get("out") or ()),
            "acting": seat in (view.get("to_act") or ()),
            "cls": "asc-player" + (" active" if active else ""),
            "badges": badges,
            "stats": stats,
            "zones": zones,
            "folded": [
                self.zone("discard", t("Discard pile", "Сброс"), p.get("discard"), fold=True)
            ],
            "hand": hand,
            "reserve": None,
            "backs": [] if mine else list(range(min(int(p.get("hand_count") or 0), 12))),
            "acts": [],
            "aims": [],
        }

    def center(self) -> tuple[dict[str, Any], dict[str, Any]]:
        t = self.r.t
        row = {
            "key": "row",
            "label": t("Center row", "Центральный ряд"),
            "count": sum(1 for c in self.view.get("row") or () if c),
            "cards": [self.face(c, "row") if c else None for c in self.view.get("row") or ()],
            "cls": "asc-row",
            "lane": True,
        }
        piles = []
        for card_id, count in (self.view.get("piles") or {}).items():
            face = self.face({"card": card_id}, "piles", count=count)
            face["cls"] += " pile"
            self.piles[card_id] = face
            piles.append(face)
        return row, {
            "key": "piles",
            "label": t("Always available", "Всегда доступны"),
            "count": len(piles),
            "cards": piles,
            "cls": "asc-piles",
        }

    def place(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        t = self.r.t
        prompt: list[dict[str, Any]] = []
        turn: list[dict[str, Any]] = []
        pending = self.view.get("pending") or {}
        for k, a in enumerate(self.legal):
            about = self.d.action(self.r, a)
            iid = a.get("iid")
            face = None
            if "pile" in a:
                face = self.piles.get(a["pile"])
            elif isinstance(iid, int) and self.cards.get(iid):
                face = self.cards[iid][0]
            if face is not None:
                # On the card its price is printed already: the verb alone.
                short = about["short"].split(" (")[0]
                face["acts"].append(table.act(k, a, about["text"], short, face["name"]))
            elif a.get("type") == "end_turn" or not pending:
                turn.append(table.act(k, a, about["text"], about["short"]))
            else:
                prompt.append(table.act(k, a, about["text"], about["short"]))
        if pending and any(f["acts"] for faces in self.cards.values() for f in faces):
            self.hint = t(
                "Choose on a highlighted card, or below.",
                "Выберите на подсвеченной карте или ниже.",
            )
        return prompt, turn

    def build(self) -> dict[str, Any]:
        t = self.r.t
        view = self.view
        self.hint = ""
        players = {p["seat"]: self.player(p) for p in view.get("players") or ()}
        top, bottom = table.seating(list(players), self.r.you)
        row, piles = self.center()
        void = self.zone("void", t("The Void", "Пустота"), view.get("void"), fold=True)
        samael = view.get("samael")
        samael_pile = (
            self.zone(
                "samael", t("Samael's pile", "Стопка Самаэля"), samael.get("cards"), fold=True
            )
            if samael
            else None
        )
        prompt_acts, turn = self.place()
        pending = self.d.pending(self.r) if view.get("pending") else None
        prompt = None
        if pending is not None:
            prompt = {**pending, "acts": prompt_acts, "hint": self.hint}
        elif prompt_acts:
            turn = prompt_acts + turn
        active = view.get("active")
        head = [
            {
                "label": t("Honor pool", "Запас чести"),
                "value": view.get("pool"),
                "vcls": "asc-pool",
            },
            {"label": t("Round", "Раунд"), "value": view.get("round")},
        ]
        if active is not None and not view.get("finished"):
            head.append({"label": t("Turn", "Ход"), "value": self.r.seat(active), "cls": "turn"})
        head.append({"label": t("Center deck", "Центральная колода"), "value": view.get("center")})
        return {
            "you": self.r.you,
            "spectator": self.r.you is None,
            "head": head,
            "pool": view.get("pool"),
            "ending": bool(view.get("ending")),
            "opponents": [players[s] for s in top],
            "me": players.get(bottom) if bottom is not None else None,
            "row": row,
            "piles": piles,
            "void": void,
            "samael": samael,
            "samael_pile": samael_pile,
            "prompt": prompt,
            "bars": [],
            "turn": turn,
            "count": len(self.legal),
            "finished": bool(view.get("finished")),
            "scores": [  # the final score by the players' names, as the seats show them
                {
                    "number": k + 1,
                    "score": s,
                    "name": self.r.seat_names.get(k) or t(f"Seat {k + 1}", f"Место {k + 1}"),
                    "mine": k == self.r.you,
                }
                for k, s in enumerate(view.get("scores") or ())
            ],
            "winners": list(view.get("winners") or ()),
            "rules": {
                "title": t("How Ascension is played", "Как играть в Ascension"),
                "lines": [self.r.pick(line) for line in RULES_DIGEST],
            },
        }


def layout(
    view: Mapping[str, Any] | None,
    legal: Any = (),
    language: str | None = "en",
    names: Mapping[Any, Any] | None = None,
) -> dict[str, Any]:
    """The table's plan for this viewer's view and legal actions (``engine.core.table``):
    the players with their zones as cards (the opponents first, the viewer last), the
    center row and the piles, the pending prompt, and each legal action on its card."""
    return _Table.plan(view, legal, language, names)


def ending(state: Mapping[str, Any], language: str, names: Mapping[int, str]) -> str | None:
    """How a finished game was decided (``engine.core.protocol``'s ``ending``): the honor
    pool ran out (A-41), then the most honor wins (A-43, ties to the later seat: A-44);
    solo, against Samael's total (A-51). The totals are public once the game is over."""
    if not state.get("finished"):
        return None
    ru = language == "ru"
    scores = list(state.get("scores") or ())
    winners = list(state.get("winners") or ())
    if state.get("n") == 1 and scores:
        you, samael = scores[0], state.get("samael_score", 0)
        who = named_seat(names, 0, language)
        if winners:
            return (
                f"Запас чести исчерпан: {who} — {you}, Самаэль — {samael} (A-51)"
                if ru
                else f"The honor pool ran out: {who} {you}, Samael {samael} (A-51)"
            )
        return (
            f"Запас чести исчерпан: {who} — {you}, Самаэль — {samael}, побеждает Самаэль (A-51)"
            if ru
            else f"The honor pool ran out: {who} {you}, Samael {samael} — Samael wins (A-51)"
        )
    if not state.get("ending") or len(winners) != 1 or not scores:
        return None  # the last player left after the others did: no rule decided it
    out = set(state.get("out") or ())
    standing = sorted(
        (seat for seat in range(len(scores)) if seat not in out),
        key=lambda seat: (seat not in winners, -scores[seat], seat),
    )
    totals = ", ".join(f"{named_seat(names, seat, language)} {scores[seat]}" for seat in standing)
    who = named_seat(names, winners[0], language)
    return (
        f"Запас чести исчерпан (A-41) — побеждает больше всех чести: {totals} (A-43)"
        if ru
        else f"The honor pool ran out (A-41) — most honor wins: {totals} (A-43)"
    )
