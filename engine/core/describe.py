"""Describing a game to people: short sentences for legal actions, pending decisions and
events, and the printed details of cards, in the viewer's language.

Every engine that wants readable tables ships a ``Describer`` (registered in
``engine.core.registry`` as ``describer``). Its methods read only a ``Reading``: the
viewer's own ``view(state, seat)`` plus the public events of the game, never the full
state. A card instance the viewer may not see (another player's hand, any Main Deck) is
therefore unknown to the describer and is called "a hidden card": a label can never name
it. Like the engines, this module imports nothing from Django; the phrases are kept here
in English and Russian (the languages the card data is printed in).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from engine.core.protocol import LEAVE

LANGUAGES = ("en", "ru")
Words = tuple[str, str]  # one phrase as (English, Russian)


def language_of(code: str | None) -> str:
    """``"ru"`` for any Russian locale (``ru``, ``ru-RU``), else ``"en"``."""
    return "ru" if (code or "").lower().startswith("ru") else "en"


@dataclass
class Reading:
    """What one viewer may read: their view, their language and the seats' names.

    ``known`` maps card instances (iid) to card ids for every instance the view shows,
    plus those named by public events (a card that was played, discarded or created was
    seen by everyone at that moment). Build it with ``Reading.of``.
    """

    view: Mapping[str, Any]
    language: str = "en"
    seat_names: Mapping[int, str] = field(default_factory=dict)
    known: dict[int, str] = field(default_factory=dict)
    where: dict[int, str] = field(default_factory=dict)  # iid -> zone word, when known
    owners: dict[int, int] = field(default_factory=dict)  # iid -> owner seat, when shown

    @classmethod
    def of(
        cls,
        view: Mapping[str, Any] | None,
        language: str | None = "en",
        seat_names: Mapping[int, str] | None = None,
        events: Iterable[Mapping[str, Any]] = (),
        named: Mapping[int, str] | None = None,
    ) -> Reading:
        """``events`` in the order they happened; ``named``: what the events before them
        named (``named_by_events`` of the earlier part of the log), so a long game's
        reading needs only its latest events."""
        reading = cls(view or {}, language_of(language), dict(seat_names or {}))
        reading.known = named_by_events(events, named)
        reading._collect(reading.view, None)
        return reading

    def _collect(self, value: Any, zone: str | None) -> None:
        if isinstance(value, Mapping):
            iid, card = value.get("iid"), value.get("card")
            if isinstance(iid, int) and not isinstance(iid, bool) and isinstance(card, str):
                self.known[iid] = card  # the view's own word wins over an event's
                if zone is not None:
                    self.where.setdefault(iid, zone)
                owner = value.get("owner")
                if isinstance(owner, int) and not isinstance(owner, bool):
                    self.owners[iid] = owner
            for key, item in value.items():
                self._collect(item, key if isinstance(item, list | tuple) else zone)
        elif isinstance(value, list | tuple):
            for item in value:
                self._collect(item, zone)

    @property
    def ru(self) -> bool:
        return self.language == "ru"

    def t(self, en: str, ru: str) -> str:
        return ru if self.ru else en

    def pick(self, words: Words | None, fallback: str = "") -> str:
        """The viewer's half of an (English, Russian) pair; ``fallback`` when there is none
        (a word the tables of a describer do not know yet)."""
        if words is None:
            return fallback
        return self.t(*words)

    @property
    def you(self) -> int | None:
        you = self.view.get("you")
        return you if isinstance(you, int) and not isinstance(you, bool) else None

    def seat(self, seat: Any) -> str:
        """A seat as people count it (from 1), with the player's name, and "you"."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            return self.t("nobody", "никто")
        text = self.t(f"Seat {seat + 1}", f"Место {seat + 1}")
        name = self.seat_names.get(seat)
        extra = [name] if name else []
        if seat == self.you:
            extra.append(self.t("you", "вы"))
        return f"{text} ({', '.join(extra)})" if extra else text

    def seats(self, seats: Iterable[Any]) -> str:
        return ", ".join(self.seat(s) for s in seats) or "—"


def named_by_events(
    events: Iterable[Mapping[str, Any]], named: Mapping[int, str] | None = None
) -> dict[int, str]:
    """The card instances (iid -> card id) public events name, the first naming of each
    kept: ``named`` (the same of the events before these, or nothing) folded on with
    ``events`` in order. Folding a log in parts gives what folding it whole gives."""
    known = dict(named or {})
    for event in events:
        iid, card = event.get("iid"), event.get("card")
        if isinstance(iid, int) and isinstance(card, str):
            known.setdefault(iid, card)
    return known


class Describer(Protocol):
    """The game-neutral interface the play app uses (see the module docstring)."""

    def card(self, reading: Reading, card_id: str) -> dict[str, Any]:
        """Printed details: name, kind, cost, stats, faction/colours, text lines."""
        ...

    def card_name(self, reading: Reading, iid: Any) -> str:
        """«Name» of an instance the reading knows, else "a hidden card"."""
        ...

    def action(self, reading: Reading, action: Mapping[str, Any]) -> dict[str, Any]:
        """``{"text": sentence, "short": verb phrase, "card": iid or None, "group": key}``."""
        ...

    def pending(self, reading: Reading) -> dict[str, Any] | None:
        """``{"text", "mine", "options": [sentence], "details": [sentence]}`` or None."""
        ...

    def event(self, reading: Reading, event: Mapping[str, Any]) -> str | None:
        """A sentence for a public event; None for bookkeeping not worth showing."""
        ...

    def action_kind(self, reading: Reading, kind: str) -> str:
        """The title of a kind of action (a game log line's heading)."""
        ...


def text_lines(text: str) -> list[str]:
    """A printed text as its non-blank lines, stripped (one ability or keyword group each)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


CardT = TypeVar("CardT")


class CardDescriber(Generic[CardT]):
    """What the describers of every game share: the card database loaded on first use,
    cards named only when the reading knows them, the titles of the kinds of action and
    what the other players are told while someone else decides.

    A game's describer sets ``ACTION_KINDS`` and implements ``_load_db`` (its engine's
    database) and ``_lookup`` (one card by id, ``KeyError`` for an unknown one). Card
    objects only need ``name_en`` and ``name_ru``.
    """

    ACTION_KINDS: ClassVar[Mapping[str, Words]] = {}

    def __init__(self, db: Any = None):
        self._db = db

    @property
    def db(self) -> Any:
        if self._db is None:
            self._db = self._load_db()
        return self._db

    def _load_db(self) -> Any:
        raise NotImplementedError

    def _lookup(self, card_id: str) -> CardT:
        raise NotImplementedError

    def _card(self, card_id: Any) -> CardT | None:
        if not isinstance(card_id, str):
            return None
        try:
            return self._lookup(card_id)
        except KeyError:
            return None

    def printed_name(self, reading: Reading, card_id: Any) -> str:
        card: Any = self._card(card_id)
        if card is None:
            return str(card_id)
        return card.name_ru if reading.ru else card.name_en

    def unknown_card(self, card_id: Any) -> dict[str, Any]:
        """The details of a card id the database does not hold: its id, nothing more."""
        return {"id": card_id, "name": str(card_id), "text": []}

    def card_name(self, reading: Reading, iid: Any) -> str:
        card_id = reading.known.get(iid) if isinstance(iid, int) else None
        if card_id is None:
            return reading.t("a hidden card", "скрытая карта")
        return f"«{self.printed_name(reading, card_id)}»"

    def action_kind(self, reading: Reading, kind: str) -> str:
        if kind == LEAVE:  # every system's departures (``GameSystem.leave``)
            return reading.pick(("Left the game", "Вышел из игры"))
        return reading.pick(self.ACTION_KINDS.get(kind), kind.replace("_", " ").capitalize())

    def left(self, reading: Reading, event: Mapping[str, Any]) -> str:
        """Every system's departure event (``GameSystem.leave``): who left, and why."""
        seat = event.get("seat", event.get("player"))
        who = reading.seat(seat)
        if event.get("reason") == "time":
            return reading.pick(
                (f"{who} ran out of time and is out", f"{who}: время вышло, выбывает")
            )
        return reading.pick((f"{who} conceded and is out", f"{who} сдаётся и выбывает"))

    def is_chooser(self, reading: Reading, pending: Mapping[str, Any]) -> bool:
        """Whether the viewer is the one a pending decision waits for."""
        chooser = pending.get("player")
        return chooser is not None and chooser == reading.you

    def waiting_on(
        self, reading: Reading, pending: Mapping[str, Any], doing: str
    ) -> dict[str, Any]:
        """The pending decision as the other players see it: who decides, and what about."""
        return {
            "text": f"{reading.seat(pending.get('player'))}: {doing}",
            "mine": False,
            "options": [],
            "details": [],
        }

    def winners(self, reading: Reading, event: Mapping[str, Any]) -> str:
        """The ``game_over`` sentence naming the winners."""
        winners = reading.seats(event.get("winners") or ())
        return reading.t(f"Game over — winner: {winners}", f"Конец игры — победитель: {winners}")


def describer_for(system_key: str) -> Describer | None:
    """The describer of a game system: ``DESCRIBER`` in ``engine/<system>/describe.py``
    (None for a system without one; the play app then falls back to generic labels)."""
    import importlib

    try:
        module = importlib.import_module(f"engine.{system_key}.describe")
    except ModuleNotFoundError:
        return None
    return getattr(module, "DESCRIBER", None)


def named_seat(names: Mapping[int, str], seat: Any, language: str) -> str:
    """A seat by its player's name, else as people count it (from 1): the seats of an
    engine's ``ending`` sentence (``engine.core.protocol``)."""
    name = names.get(seat) if isinstance(seat, int) else None
    if name:
        return name
    if not isinstance(seat, int) or isinstance(seat, bool):
        return "никто" if language == "ru" else "nobody"
    return f"Место {seat + 1}" if language == "ru" else f"Seat {seat + 1}"


def named_seats(names: Mapping[int, str], seats: Iterable[Any], language: str) -> str:
    """Several seats named as ``named_seat`` names one: "a, b and c"."""
    words = [named_seat(names, s, language) for s in seats]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {'и' if language == 'ru' else 'and'} {words[-1]}"
