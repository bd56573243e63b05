"""What every card game's table plan shares (``layout`` in ``engine/<game>/describe.py``,
drawn by the components of ``templates/play/components/``): legal actions as forms, the
actions that differ only in a number folded into one stepper, and the seats ordered the
way a table is seen (the opponents at the top, the viewer at the bottom); and ``Planner``,
the part of a game's planner that draws cards as faces.

A plan is plain data read from the viewer's own view and legal actions only, so it can
never hold anything the view hides. Like the engines, this module imports nothing from
Django. See docs/decisions/0056-one-table-from-shared-components.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.core.describe import Reading

Action = Mapping[str, Any]


def compact(action: Action) -> str:
    """An action as the act forms post it (the same JSON the play app has always posted)."""
    return json.dumps(action, separators=(",", ":"))


def act(k: int, action: Action, label: str, short: str = "", name: str = "") -> dict[str, Any]:
    """One legal action as a form: ``k`` its index in the legal list (the form's id),
    ``label`` the whole sentence, ``short`` the verb shown on a card (``name``: the card's
    name, read out after the short label for screen readers and tests)."""
    return {
        "k": k,
        "id": f"tb-f-{k}",
        "json": compact(action),
        "type": str(action.get("type", "")),
        "label": label,
        "short": short or label,
        "name": name,
    }


def without(action: Action, key: str) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != key}


def steppers(
    items: Sequence[tuple[int, Action]],
    label_of: Callable[[Action], str],
    key: str = "x",
) -> tuple[list[tuple[int, Action]], list[dict[str, Any]]]:
    """Split ``items`` (index, action) into the plain ones and the steppers: actions equal
    but for the number ``key`` become one stepper ``{"id", "label", "options": [{"x",
    "json", "k"}], "min", "max", "start"}`` (the number chosen with − and +, one button
    posts it). ``label_of`` names an action without its number ("Play")."""
    groups: dict[str, list[tuple[int, Action]]] = {}
    order: list[str] = []
    plain: list[tuple[int, Action]] = []
    for k, a in items:
        if key not in a or not isinstance(a.get(key), int):
            plain.append((k, a))
            continue
        g = compact(without(a, key))
        if g not in groups:
            groups[g] = []
            order.append(g)
        groups[g].append((k, a))
    out = []
    for g in order:
        members = sorted(groups[g], key=lambda item: item[1][key])
        first_k, first = members[0]
        values = [a[key] for _, a in members]
        out.append(
            {
                "id": f"tb-x-{first_k}",
                "label": label_of(without(first, key)),
                "options": [{"x": a[key], "json": compact(a), "k": k} for k, a in members],
                "min": min(values),
                "max": max(values),
                "start": values[0],
                "type": str(first.get("type", "")),
            }
        )
    return plain, out


def seating(seats: Iterable[int], you: int | None) -> tuple[list[int], int | None]:
    """The opponents in turn from the viewer's left (the seats after theirs), and the seat
    drawn at the bottom: the viewer's, or a spectator's first seat."""
    seats = list(seats)
    if not seats:
        return [], None
    bottom = you if you in seats else seats[0]
    at = seats.index(bottom)
    return seats[at + 1 :] + seats[:at], bottom


def names_of(names: Mapping[Any, Any] | None) -> dict[int, str]:
    """Seat → player's name, from what the play app passes (keys may be text)."""
    out: dict[int, str] = {}
    for key, value in (names or {}).items():
        try:
            out[int(key)] = str(value)
        except (TypeError, ValueError):
            continue
    return out


def long_word(name: str, limit: int = 7) -> bool:
    """Whether a card's name has a word too long for a card's title line at the usual size
    (the table prints it smaller rather than break the word)."""
    return any(len(word) > limit for word in str(name).replace("-", " ").split())


class Planner:
    """What every game's table planner (``_Table`` in ``engine/<game>/describe.py``) shares:
    the viewer's view, legal actions and ``Reading``, each card drawn as a face (its
    printed name, text and flavour; a card the view hides is a face-down "hidden card"),
    and the faces drawn for each instance, so that ``place`` can put an action on its card.

    A game's planner names its ``describer``, prints the rest of a face in ``printed``
    and builds the whole plan in ``build``; ``plan`` is its ``layout``.
    """

    describer: Any  # the game's ``CardDescriber``
    buttons: tuple[str, ...] = ("acts",)  # a face's lists of buttons, empty when drawn

    def __init__(self, view: Mapping[str, Any], legal: list[Action], reading: Reading):
        self.view = view
        self.legal = legal
        self.r = reading
        self.d = self.describer
        self.cards: dict[int, list[dict[str, Any]]] = {}  # iid -> its drawn faces

    @classmethod
    def plan(
        cls,
        view: Mapping[str, Any] | None,
        legal: Any = (),
        language: str | None = "en",
        names: Mapping[Any, Any] | None = None,
    ) -> dict[str, Any]:
        """The table's plan for this viewer's view and legal actions (a game's ``layout``)."""
        reading = Reading.of(view or {}, language, names_of(names))
        return cls(view or {}, [a for a in legal or () if isinstance(a, Mapping)], reading).build()

    def build(self) -> dict[str, Any]:
        raise NotImplementedError

    def hidden(self, iid: Any, zone: str) -> dict[str, Any]:
        """The face of a card the view does not show."""
        return {
            "iid": iid,
            "hidden": True,
            "name": self.r.t("a hidden card", "скрытая карта"),
            **{b: [] for b in self.buttons},
            "flags": [],
            "cls": "down",
        }

    def printed(self, c: Mapping[str, Any], card: Any, info: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own part of a face shown face up (``info``: the describer's ``card``):
        its kind, cost, colour, stats, keywords, flags and class."""
        raise NotImplementedError

    def face(self, c: Mapping[str, Any] | None, zone: str, **extra: Any) -> dict[str, Any]:
        """Card instance ``c`` (``{"iid", "card"}``) drawn in ``zone``; ``extra`` is added."""
        card_id = c.get("card") if c else None
        iid = c.get("iid") if c else None
        card = self.d._card(card_id)
        if card is None:
            return self.hidden(iid, zone)
        info = self.d.card(self.r, card_id)
        face = {
            "iid": iid,
            "id": card_id,
            "hidden": False,
            "name": info["name"],
            "long": long_word(info["name"]),
            "type": card.type,
            **self.printed(c or {}, card, info),
            "text": info["text"],
            "flavour": info["flavour"],
            "zone": zone,
            **{b: [] for b in self.buttons},  # filled by ``place``
            "sel": False,  # the card acts when selected (its bar below the table)
            **extra,
        }
        if isinstance(iid, int):
            self.cards.setdefault(iid, []).append(face)
        return face

    def zone(self, key: str, label: str, cards: Any, **extra: Any) -> dict[str, Any]:
        faces = [self.face(c, key) for c in cards or ()]
        return {"key": key, "label": label, "count": len(faces), "cards": faces, **extra}
