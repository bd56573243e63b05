"""The Ascension Tactics table described for drawing: one seat's ``view`` and its legal
actions turned into what the SVG hex board and the panels around it show.

``layout(view, legal, language)`` returns plain data (no Django, nothing but what the
view already shows):

* the battlefield: every cell of the scenario as a pointy-top hexagon in pixels (axial
  ``(q, r)`` of ``engine.tactics.hexes``), turned so that the viewer's own portal is at
  the bottom, with its terrain (a class per type, and a legend), portals and their
  colour, shrines with their glory and who controls them now (T-64), face-down treasure
  tokens (T-12: only the cells), and the champions as pieces (owner, DEF left, STR, SPD);
* aiming: for each champion the viewer may act with, a layer of the cells it may enter
  at (``command`` with a portal), move to (``move``) and attack (``attack``), each attack
  with the straight line of sight drawn from the attacker to the target (``hexes.lines``,
  the same lines ``terrain.line_of_sight`` judges, D-3); a ranged champion's enemies in
  reach but out of sight get the blocked line with the blocking cells marked; a champion
  not yet commanded shows where its speed would take it (``terrain.reachable``);
* the panels: the viewer's hand with the play buttons, the central row and the piles
  with costs and the acquire buttons, the reserves, each player's runes, power, glory and
  treasure (another player's hand and treasure only as counts: the view holds no more),
  the turn buttons (gate, cultist, done, end turn, treasure), the pending choice, and the
  champion draft when the view has one;
* ``actions``: every legal action once with a label, so a page without its script (or a
  test) can offer them all as buttons.

Labels are in English or Russian (``language``), from the card data and the words here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.describe import CardDescriber, Reading, Words, named_seats
from engine.tactics import hexes, terrain
from engine.tactics.cards import TacticsDB, load_system
from engine.tactics.model import FACTIONS, KEYWORDS, TERRAIN, TOKENS, Card

SIZE = 30.0  # the circumradius of one hexagon, in SVG units
SQRT3 = math.sqrt(3.0)
MAX_SEATS = 4

WORDS: dict[str, Words] = {
    "plain": ("Plain", "Обычная ячейка"),
    "portal": ("Portal", "Портал"),
    "play": ("Play", "Сыграть"),
    "equip": ("Equip {name}", "Снарядить: {name}"),
    "acquire": ("Acquire", "Получить"),
    "gate": ("Use the gate", "Использовать врата"),
    "command": ("Command ({n} power)", "Приказ ({n} мощи)"),
    "enter": ("Enter at {cell}", "Ввести в {cell}"),
    "cultist": ("New cultist at {cell}", "Новый культист в {cell}"),
    "cultist_home": ("New cultist at your portal", "Новый культист на вашем портале"),
    "enter_home": ("Enter at your portal", "Ввести через ваш портал"),
    "move": ("Move to {cell}", "Идти в {cell}"),
    "attack": ("Attack {name}", "Атаковать: {name}"),
    "done": ("End the command", "Завершить приказ"),
    "end_turn": ("End turn", "Закончить ход"),
    "treasure": ("Treasure {what} to {name}", "Сокровище {what}: {name}"),
    "decline": ("Decline", "Отказаться"),
    "pick": ("Pick {name}", "Выбрать: {name}"),
    "unknown": ("{kind}", "{kind}"),
    "cell": ("cell {cell}", "ячейка {cell}"),
    "hidden": ("a hidden card", "скрытая карта"),
}
KINDS: dict[str, Words] = {
    "hero": ("Hero", "Герой"),
    "construct": ("Construct", "Конструкт"),
    "champion": ("Champion", "Чемпион"),
    "monster": ("Monster", "Монстр"),
    "cultist": ("Cultist", "Культист"),
    "villain": ("Villain", "Злодей"),
    "gate": ("Gate", "Врата"),
    "scheme": ("Scheme", "Замысел"),
}
VILLAIN_WORDS: dict[str, Words] = {  # the villains' panel
    "mode_solo": ("Solo", "Одиночная игра"),
    "mode_coop": ("Co-op", "Совместная игра"),
    "mode_archvillain": ("Archvillain", "Архизлодей"),
    "level_normal": ("Normal", "Обычная"),
    "level_hard": ("Hard", "Сложная"),
    "level_nightmare": ("Nightmare", "Кошмар"),
    "surge_word": ("surge", "всплеск"),
}
STAT_SHORT: dict[str, Words] = {
    "strength": ("STR", "СИЛ"),
    "defence": ("DEF", "ЗАЩ"),
    "speed": ("SPD", "СКР"),
}
PENDING: dict[str, Words] = {
    "ambush": ("Ambush: play it now?", "Засада: разыграть сейчас?"),
    "banish": ("Choose a card to banish", "Выберите карту для изгнания"),
    "acquire": ("Choose a card to acquire", "Выберите карту, которую получите"),
    "command": ("Choose a champion to command", "Выберите чемпиона для приказа"),
    "enter": ("Choose a champion to enter", "Выберите чемпиона, который войдёт на поле"),
    "move": ("Choose where to move", "Выберите, куда идти"),
    "damage": ("Choose who takes the damage", "Выберите, кто получит урон"),
    "destroy": ("Choose a construct to destroy", "Выберите конструкт для уничтожения"),
    "boost": ("Choose a champion to strengthen", "Выберите чемпиона для усиления"),
    "grant": ("Choose a champion to strengthen", "Выберите чемпиона для усиления"),
    "terrain": ("Choose a cell", "Выберите ячейку"),
    # the archvillain's choices on the schemes (T-100)
    "villain_enter": ("Choose where the villain enters", "Выберите, где войдёт злодей"),
    "villain_damage": ("Choose who takes the damage", "Выберите, кто получит урон"),
    "villain_terrain": (
        "Choose a cell for the corrupted land",
        "Выберите ячейку для порченой земли",
    ),
    "villain_cultist": (
        "Choose a cell for the villain cultist",
        "Выберите ячейку для культиста злодеев",
    ),
}


# -- small helpers -----------------------------------------------------------------------------


def _t(language: str, words: Words, **values: Any) -> str:
    text = words[1] if language == "ru" else words[0]
    return text.format(**values) if values else text


def _lang(language: str | None) -> str:
    return "ru" if (language or "").lower().startswith("ru") else "en"


def _seat(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_cell(text: Any) -> hexes.Hex | None:
    """``"q,r"`` as a hex; None for anything else."""
    if not isinstance(text, str):
        return None
    try:
        return hexes.parse_hex(text)
    except (ValueError, TypeError):
        return None


def cell_text(h: hexes.Hex) -> str:
    return f"{h[0]},{h[1]}"


def compact(action: Mapping[str, Any]) -> str:
    """An action as the compact JSON the table posts (as play.js and the generic table)."""
    return json.dumps(action, separators=(",", ":"))


def pixel(h: hexes.Hex, size: float = SIZE) -> tuple[float, float]:
    """The centre of a pointy-top hexagon of circumradius ``size`` (y grows downwards)."""
    q, r = h
    return (size * SQRT3 * (q + r / 2), size * 1.5 * r)


def corners(x: float, y: float, size: float = SIZE) -> str:
    """The six corners of the pointy-top hexagon centred on ``(x, y)`` as SVG points."""
    out = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        out.append(f"{x + size * math.cos(angle):.1f},{y + size * math.sin(angle):.1f}")
    return " ".join(out)


def turn_for(own_portals: Sequence[hexes.Hex]) -> int:
    """The sixths of a turn that put ``own_portals`` (their mean) lowest on the screen:
    each player sees the board from their own side."""
    if not own_portals:
        return 0
    best, best_y = 0, None
    for steps in range(6):
        y = sum(pixel(hexes.rotate(h, steps))[1] for h in own_portals)
        x = sum(pixel(hexes.rotate(h, steps))[0] for h in own_portals)
        score = (round(y, 3), -abs(round(x, 3)))
        if best_y is None or score > best_y:
            best, best_y = steps, score
    return best


class _Db:
    """The card data, loaded once (``load_system`` is cached)."""

    def __init__(self, db: TacticsDB | None = None):
        self.db = db or load_system()
        self.treasures = [t for s in self.db.sets for t in s.treasures]

    def card(self, card_id: Any) -> Card | None:
        if not isinstance(card_id, str):
            return None
        try:
            return self.db[card_id]
        except KeyError:
            return None


_DEFAULT: _Db | None = None


def _data(db: TacticsDB | None) -> _Db:
    global _DEFAULT
    if db is not None:
        return _Db(db)
    if _DEFAULT is None:
        _DEFAULT = _Db()
    return _DEFAULT


# -- cards -------------------------------------------------------------------------------------


def card_info(data: _Db, card_id: Any, language: str) -> dict[str, Any]:
    """A card's printed details: name, kind, faction, cost, command, stats, keywords, text."""
    card = data.card(card_id)
    if card is None:
        return {"id": card_id, "name": str(card_id), "kind": "", "text": [], "keywords": []}
    kw = [_t(language, KEYWORDS[k][:2]) for k in card.keywords if k in KEYWORDS]
    equip = None
    if card.equip is not None:
        parts = [
            f"+{getattr(card.equip, s)} {_t(language, STAT_SHORT[s])}"
            for s in ("strength", "defence", "speed")
            if getattr(card.equip, s)
        ]
        parts += [_t(language, KEYWORDS[k][:2]) for k in card.equip.keywords if k in KEYWORDS]
        equip = ", ".join(parts)
    return {
        "id": card.id,
        "name": card.name(language),
        "type": card.type,
        "kind": _t(language, KINDS.get(card.type, (card.type, card.type))),
        "faction": card.faction or "",
        "faction_name": _t(language, FACTIONS[card.faction]) if card.faction in FACTIONS else "",
        "cost": card.cost,
        "pays": "power" if card.type == "monster" else "runes",
        "command": card.command,
        "strength": card.strength,
        "defence": card.defence,
        "speed": card.speed,
        "keywords": kw,
        "equip": equip,
        "text": [line.strip() for line in card.text(language).splitlines() if line.strip()],
    }


def _initials(name: str) -> str:
    words = [w for w in name.replace(",", " ").split() if w[:1].isalpha()]
    if not words:
        return name[:2]
    if len(words) == 1:
        return words[0][:2]
    return (words[0][0] + words[1][0]).upper()


def fig_stats(data: _Db, fig: Mapping[str, Any]) -> dict[str, int]:
    """STR, DEF and SPD as the engine counts them: printed (SPD 3 by default, T-39), plus
    boosts and the constructs it carries (T-20)."""
    card = data.card(fig.get("card"))
    boost = fig.get("boost") or {}
    out = {}
    for stat in ("strength", "defence", "speed"):
        base = getattr(card, stat, None) if card is not None else None
        base = (3 if stat == "speed" else 0) if base is None else base
        total = base + int(boost.get(stat, 0) or 0)
        for eq in fig.get("equip") or ():
            ec = data.card(eq.get("card") if isinstance(eq, Mapping) else None)
            if ec is not None and ec.equip is not None:
                total += getattr(ec.equip, stat)
        out[stat] = max(0, total)
    return out


def fig_keywords(data: _Db, fig: Mapping[str, Any]) -> set[str]:
    card = data.card(fig.get("card"))
    kw = set(card.keywords if card is not None else ()) | set(fig.get("grants") or ())
    for eq in fig.get("equip") or ():
        ec = data.card(eq.get("card") if isinstance(eq, Mapping) else None)
        if ec is not None and ec.equip is not None:
            kw |= set(ec.equip.keywords)
    return kw


def treasure_text(data: _Db, kind: Any, language: str) -> str:
    """A treasure token's kind as what it gives: "+2 STR", "Ranged attack"."""
    if not isinstance(kind, int) or not 0 <= kind < len(data.treasures):
        return "?"
    t = data.treasures[kind]
    parts = [
        f"+{amount} {_t(language, STAT_SHORT.get(stat, (stat, stat)))}" for stat, amount in t.boosts
    ]
    if t.grant:
        parts.append(_t(language, KEYWORDS[t.grant][:2]) if t.grant in KEYWORDS else t.grant)
    return ", ".join(parts)


# -- the layout --------------------------------------------------------------------------------


class _Builder:
    """One viewer's plan, built from their view and legal actions (``layout``)."""

    def __init__(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], language: str, data: _Db
    ):
        self.view = view
        self.legal = [a for a in legal if isinstance(a, Mapping)]
        self.language = language
        self.data = data
        self.you = _seat(view.get("you"))
        self.figs = [f for f in view.get("figs") or () if isinstance(f, Mapping)]
        self.by_id = {f.get("id"): f for f in self.figs}
        # Each seat's side (2 vs 2: the team, T-79); otherwise the seat itself.
        self.sides = {
            p.get("seat"): p.get("side", p.get("seat"))
            for p in view.get("players") or ()
            if isinstance(p, Mapping)
        }
        scen_key = view.get("scenario")
        self.scenario = self.data.db.scenarios.get(scen_key) if isinstance(scen_key, str) else None
        ter = {k: v for k, v in (view.get("terrain") or {}).items() if parse_cell(k) is not None}
        owner = {k: v for k, v in (view.get("owner") or {}).items() if parse_cell(k) is not None}
        cells = set(self.scenario.cells) if self.scenario is not None else set()
        cells |= {parse_cell(k) for k in ter} | {parse_cell(k) for k in owner}
        cells |= {parse_cell(f.get("cell")) for f in self.figs if parse_cell(f.get("cell"))}
        cells.discard(None)
        self.cells: set[hexes.Hex] = cells  # type: ignore[assignment]
        self.terrain = ter
        self.owner = owner
        self.bf = (
            terrain.Battlefield(
                frozenset(self.cells),
                {
                    parse_cell(k): v
                    for k, v in ter.items()
                    if v in terrain.Terrain.__members__.values()
                },
                {
                    parse_cell(k): v
                    for k, v in owner.items()
                    if ter.get(k) in ("portal", "beacon") and _seat(v) is not None
                },
                enchanted=self._enchanted(),
            )
            if self.cells
            else None
        )
        # A player sees the board from their side; a spectator from the first seat's.
        side = self.you if self.you is not None else 0
        own = [parse_cell(k) for k, v in owner.items() if v == side and ter.get(k) == "portal"]
        self.turn = turn_for([h for h in own if h is not None])

    def _enchanted(self) -> terrain.EnchantedLand:
        """The scenario's enchanted land (T-63), as the engine reads it: the first cell's."""
        lands = self.scenario.enchanted if self.scenario is not None else {}
        if not lands:
            return terrain.EnchantedLand()
        first = lands[min(lands)]
        return terrain.EnchantedLand(first.impassable, first.blocks_los, first.extra_cost)

    # geometry

    def xy(self, h: hexes.Hex) -> tuple[float, float]:
        x, y = pixel(hexes.rotate(h, self.turn))
        return (round(x, 1), round(y, 1))

    def at(self, key: Any) -> dict[str, Any] | None:
        h = parse_cell(key)
        if h is None:
            return None
        x, y = self.xy(h)
        return {"key": cell_text(h), "x": x, "y": y, "points": corners(x, y, SIZE - 2)}

    def act(self, action: Mapping[str, Any]) -> dict[str, Any]:
        return {"json": compact(action), "label": self.label(action), "type": action.get("type")}

    def home_portal(self, cell: Any) -> bool:
        """Whether ``cell`` is the viewer's one portal (T-35): a button naming it so says
        where on the board it is; the cell's numbers (``0,-5``) are drawn nowhere."""
        h = parse_cell(cell)
        own = {
            parse_cell(k)
            for k, v in self.owner.items()
            if _seat(v) == self.you and self.terrain.get(k) == "portal"
        }
        return self.you is not None and h is not None and own == {h}

    def label(self, a: Mapping[str, Any]) -> str:
        """The words of a button for the legal action ``a``."""
        kind = a.get("type")
        if kind == "play":
            return (
                self.words("equip", name=self.fig_name(a["fig"]))
                if "fig" in a
                else self.words("play")
            )
        if kind == "acquire":
            return self.words("acquire")
        if kind in ("gate", "done", "end_turn"):
            return self.words(str(kind))
        if kind == "command":
            fig = self.by_id.get(a.get("fig"), {})
            card = self.data.card(fig.get("card"))
            cost = card.command if card is not None and card.command is not None else 0
            text = self.words("command", n=cost)
            if "cell" in a:
                if self.home_portal(a["cell"]):
                    return self.words("enter_home") + " · " + text
                return self.words("enter", cell=a["cell"]) + " · " + text
            return text
        if kind == "cultist":
            if self.home_portal(a.get("cell")):
                return self.words("cultist_home")
            return self.words("cultist", cell=a.get("cell"))
        if kind == "move":
            return self.words("move", cell=a.get("cell"))
        if kind == "attack":
            victim = next((f for f in self.figs if f.get("cell") == a.get("cell")), None)
            return self.words(
                "attack", name=self.name(victim.get("card")) if victim else a.get("cell")
            )
        if kind == "treasure":
            # The viewer's tokens (2 vs 2: the team's, held by one of its seats, T-79).
            kinds = next(
                (
                    p["treasure"]
                    for p in self.view.get("players") or ()
                    if isinstance(p, Mapping)
                    and isinstance(p.get("treasure"), list)
                    and p["treasure"]
                    and self.side(p.get("seat")) == self.side(self.you)
                ),
                [],
            )
            i = a.get("i")
            what = (
                treasure_text(self.data, kinds[i], self.language)
                if isinstance(i, int) and 0 <= i < len(kinds)
                else "?"
            )
            return self.words("treasure", what=what, name=self.fig_name(a.get("fig")))
        if kind == "choose":
            i = a.get("i")
            if i is None:
                return self.words("decline")
            pend = self.view.get("pending") if isinstance(self.view.get("pending"), Mapping) else {}
            options = pend.get("options") if isinstance(pend.get("options"), list) else []
            return self.option_label(
                options[i] if isinstance(i, int) and 0 <= i < len(options) else None
            )
        if kind == "pick":
            return self.words("pick", name=self.name(a.get("champion")))
        return self.words("unknown", kind=str(kind or "?").replace("_", " "))

    def name(self, card_id: Any) -> str:
        card = self.data.card(card_id)
        return card.name(self.language) if card is not None else str(card_id)

    def fig_name(self, fig_id: Any) -> str:
        fig = self.by_id.get(fig_id)
        return self.name(fig.get("card")) if fig is not None else "?"

    def words(self, key: str, **values: Any) -> str:
        return _t(self.language, WORDS[key], **values)

    # the parts

    def board(self) -> dict[str, Any]:
        if not self.cells:
            return {"cells": [], "viewbox": "0 0 10 10", "legend": []}
        positions = {
            parse_cell(f["cell"]): self.side(f["owner"])
            for f in self.figs
            if parse_cell(f.get("cell")) is not None and _seat(f.get("owner")) is not None
        }
        by_side = terrain.shrine_control(self.bf, positions) if self.bf is not None else {}
        # The colour of a side is its first seat's.
        control = {
            h: min((s for s in self.sides if self.side(s) == side), default=side)
            if side is not None
            else None
            for h, side in by_side.items()
        }
        glory = self.scenario.shrine_glory if self.scenario is not None else None
        treasure = {t for t in self.view.get("treasure_cells") or () if isinstance(t, str)}
        cells = []
        used = set()
        for h in sorted(self.cells, key=lambda c: (self.xy(c)[1], self.xy(c)[0])):
            key = cell_text(h)
            kind = self.terrain.get(key, "plain")
            used.add(kind)
            x, y = self.xy(h)
            cells.append(
                {
                    "key": key,
                    "x": x,
                    "y": y,
                    "points": corners(x, y),
                    "terrain": kind,
                    "name": self.terrain_name(kind),
                    "owner": _seat(self.owner.get(key)),
                    "shrine": kind == "shrine",
                    "glory": glory if kind == "shrine" else None,
                    "control": control.get(h) if kind == "shrine" else None,
                    "treasure": key in treasure,
                    "label_y": round(y + 22, 1),
                    "chest_x": round(x + 12, 1),
                    "chest_y": round(y - 12, 1),
                }
            )
        xs = [c["x"] for c in cells]
        ys = [c["y"] for c in cells]
        pad = SIZE + 4
        minx, miny = min(xs) - pad, min(ys) - pad
        width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
        order = [
            "plain",
            "forest",
            "corrupted",
            "enchanted",
            "shrine",
            "beacon",
            "portal",
            "disabled_portal",
        ]
        legend = [{"terrain": k, "name": self.terrain_name(k)} for k in order if k in used]
        legend += [
            {"terrain": k, "name": self.terrain_name(k)} for k in sorted(used) if k not in order
        ]
        return {
            "cells": cells,
            "viewbox": f"{minx:.1f} {miny:.1f} {width:.1f} {height:.1f}",
            "legend": legend,
            "treasure": bool(treasure),
        }

    def terrain_name(self, kind: str) -> str:
        if kind in TERRAIN:
            return _t(self.language, TERRAIN[kind][:2])
        if kind in WORDS:
            return self.words(kind)
        return kind.replace("_", " ").capitalize()

    def piece(self, fig: Mapping[str, Any]) -> dict[str, Any]:
        stats = fig_stats(self.data, fig)
        card = self.data.card(fig.get("card"))
        name = self.name(fig.get("card"))
        damage = int(fig.get("damage") or 0)
        cmd = self.view.get("cmd") or {}
        out = {
            "id": fig.get("id"),
            "card": fig.get("card"),
            "name": name,
            "short": _initials(name),
            "owner": _seat(fig.get("owner")),
            "colour": _colour(fig.get("owner")),
            "mine": self.you is not None and fig.get("owner") == self.you,
            "cell": fig.get("cell"),
            "damage": damage,
            "health": max(0, stats["defence"] - damage),
            "strength": stats["strength"],
            "defence": stats["defence"],
            "speed": stats["speed"],
            "command": card.command if card is not None else None,
            "exhausted": bool(fig.get("exhausted")),
            "commanded": isinstance(cmd, Mapping) and cmd.get("fig") == fig.get("id"),
            "cultist": card is not None and card.type == "cultist",
            "keywords": [
                _t(self.language, KEYWORDS[k][:2])
                for k in sorted(fig_keywords(self.data, fig))
                if k in KEYWORDS
            ],
            "equip": [
                self.name(e.get("card")) for e in fig.get("equip") or () if isinstance(e, Mapping)
            ],
            "info": card_info(self.data, fig.get("card"), self.language),
        }
        at = self.at(fig.get("cell"))
        if at is not None:
            out.update(x=at["x"], y=at["y"])
            health_share = out["health"] / stats["defence"] if stats["defence"] else 0
            out["bar"] = round(36 * health_share, 1)
        return out

    def side(self, seat: Any) -> Any:
        return self.sides.get(seat, seat)

    def enemies_of(self, seat: Any) -> set[hexes.Hex]:
        """The cells of the champions of every other side (T-79, T-80)."""
        return {
            h
            for f in self.figs
            if self.side(f.get("owner")) != self.side(seat)
            and (h := parse_cell(f.get("cell"))) is not None
        }

    def allies_of(self, seat: Any, but: Any = None) -> set[hexes.Hex]:
        """The cells of the champions of ``seat``'s side but ``but`` (teammates' too)."""
        return {
            h
            for f in self.figs
            if self.side(f.get("owner")) == self.side(seat)
            and f.get("id") != but
            and (h := parse_cell(f.get("cell"))) is not None
        }

    def side_seats(self, seat: Any) -> tuple[Any, ...]:
        return tuple(s for s in self.sides if self.side(s) == self.side(seat)) or (seat,)

    def sight(self, start: hexes.Hex, target: hexes.Hex, enemies: set[hexes.Hex]) -> dict[str, Any]:
        """The line from ``start`` to ``target`` as drawn: the clear nudged line if there is
        one (D-3), else the first, with the cells that block it."""
        foes = enemies - {start, target}
        best = None
        for ln in hexes.lines(start, target):
            mid = ln[1:-1]
            blocking = [
                h
                for h in mid
                if h in foes
                or h not in self.cells
                or (self.bf is not None and terrain.blocks_sight(self.bf, h))
            ]
            if not blocking:
                best = (ln, [])
                break
            if best is None:
                best = (ln, blocking)
        assert best is not None
        ln, blocking = best
        x1, y1 = self.xy(start)
        x2, y2 = self.xy(target)
        return {
            "line": f"{x1},{y1} {x2},{y2}",
            "x1": x1,
            "y1": y1,
            "x2": x2,
            "y2": y2,
            "path": " ".join(f"{self.xy(h)[0]},{self.xy(h)[1]}" for h in ln),
            "clear": not blocking,
            "blocks": [
                dict(zip(("x", "y"), self.xy(h), strict=True)) for h in blocking if h in self.cells
            ],
            "dots": [dict(zip(("x", "y"), self.xy(h), strict=True)) for h in ln[1:-1]],
        }

    def layers(self) -> list[dict[str, Any]]:
        """What each of the viewer's champions may do on the board, by champion."""
        layers: dict[Any, dict[str, Any]] = {}
        cmd = self.view.get("cmd") if isinstance(self.view.get("cmd"), Mapping) else None

        def layer(fig_id: Any) -> dict[str, Any]:
            if fig_id not in layers:
                fig = self.by_id.get(fig_id, {})
                layers[fig_id] = {
                    "fig": fig_id,
                    "name": self.fig_name(fig_id),
                    "on_board": parse_cell(fig.get("cell")) is not None,
                    "active": cmd is not None and cmd.get("fig") == fig_id,
                    "command": None,
                    "entries": [],
                    "moves": [],
                    "attacks": [],
                    "blocked": [],
                    "reach": [],
                    "origin": self.at(fig.get("cell")),
                }
            return layers[fig_id]

        cmd_fig = cmd.get("fig") if cmd is not None else None
        for a in self.legal:
            kind = a.get("type")
            if kind == "command" and a.get("fig") in self.by_id:
                if "cell" in a:
                    at = self.at(a["cell"])
                    if at is not None:
                        at["action"] = self.act(a)
                        layer(a["fig"])["entries"].append(at)
                else:
                    layer(a["fig"])["command"] = self.act(a)
            elif kind == "move" and cmd_fig in self.by_id:
                at = self.at(a.get("cell"))
                if at is not None:
                    at["action"] = self.act(a)
                    layer(cmd_fig)["moves"].append(at)
            elif kind == "attack" and cmd_fig in self.by_id:
                at = self.at(a.get("cell"))
                fig = self.by_id[cmd_fig]
                start = parse_cell(fig.get("cell"))
                target = parse_cell(a.get("cell"))
                if at is None or start is None or target is None:
                    continue
                at["action"] = self.act(a)
                at["sight"] = self.sight(start, target, self.enemies_of(fig.get("owner")))
                layer(cmd_fig)["attacks"].append(at)
        # A ranged champion under command: enemies in reach but out of sight.
        if cmd_fig in layers and layers[cmd_fig]["on_board"]:
            fig = self.by_id[cmd_fig]
            start = parse_cell(fig.get("cell"))
            kw = fig_keywords(self.data, fig)
            aimed = {a["key"] for a in layers[cmd_fig]["attacks"]}
            if (
                start is not None
                and "ranged" in kw
                and any(a.get("type") == "attack" for a in self.legal)
            ):
                foes = self.enemies_of(fig.get("owner"))
                for h in sorted(foes):
                    if (
                        cell_text(h) in aimed
                        or not 1 < hexes.distance(start, h) <= terrain.RANGED_REACH
                    ):
                        continue
                    at = self.at(cell_text(h))
                    if at is not None:
                        at["sight"] = self.sight(start, h, foes)
                        layers[cmd_fig]["blocked"].append(at)
        # Champions on the board not yet commanded: where their speed would take them.
        for fig_id, lay in layers.items():
            fig = self.by_id.get(fig_id, {})
            start = parse_cell(fig.get("cell"))
            if lay["active"] or start is None or self.bf is None or lay["command"] is None:
                continue
            speed = fig_stats(self.data, fig)["speed"]
            try:
                reach = terrain.reachable(
                    self.bf,
                    start,
                    speed,
                    enemies=self.enemies_of(fig.get("owner")),
                    allies=self.allies_of(fig.get("owner"), fig_id),
                    seats=self.side_seats(fig.get("owner")),
                )
            except ValueError:
                reach = {}
            lay["reach"] = [self.at(cell_text(h)) for h in reach]
        out = list(layers.values())
        out.sort(key=lambda lay: (not lay["active"], not lay["on_board"], str(lay["fig"])))
        return out

    def players(self) -> list[dict[str, Any]]:
        out = []
        active = _seat(self.view.get("active"))
        draft = self.view.get("draft")
        if isinstance(draft, Mapping) and not draft.get("finished"):
            # During the champion draft the turn is the pick (T-77): the badge follows it.
            active = _seat(draft.get("to_pick"))
        to_act = set(self.view.get("to_act") or ())
        goal = villain_goal = None
        if self.scenario is not None:
            mode = self.scenario.modes.get(self.view.get("mode") or "duel")
            if mode is not None:
                goal = mode.victory.get("glory")
                villain_goal = mode.victory.get("villain_glory")  # the villain side (T-95)
        vside = self.view.get("villains")
        vseat = _seat(vside.get("seat")) if isinstance(vside, Mapping) else None
        for p in self.view.get("players") or ():
            if not isinstance(p, Mapping):
                continue
            seat = _seat(p.get("seat"))
            mine = seat is not None and seat == self.you
            hand = p.get("hand")
            treasure = p.get("treasure")
            out.append(
                {
                    "seat": seat,
                    "number": seat + 1 if seat is not None else None,
                    "mine": mine,
                    "active": seat == active,
                    "acting": seat in to_act,
                    "glory": p.get("glory", 0),
                    "goal": villain_goal if seat is not None and seat == vseat else goal,
                    "runes": p.get("runes", 0),
                    "power": p.get("power", 0),
                    "hand_count": p.get(
                        "hand_count", len(hand) if isinstance(hand, list) else hand
                    ),
                    "deck": p.get("deck", 0),
                    "discard": len(p.get("discard") or ()),
                    "played": [
                        {
                            "iid": c.get("iid"),
                            "name": self.name(c.get("card")),
                            "info": card_info(self.data, c.get("card"), self.language),
                        }
                        for c in p.get("played") or ()
                        if isinstance(c, Mapping)
                    ],
                    "gate": self.name(p.get("gate")) if p.get("gate") else "",
                    "gate_used": bool(p.get("gate_used")),
                    "treasure_count": len(treasure)
                    if isinstance(treasure, list)
                    else treasure or 0,
                    "treasure": [treasure_text(self.data, k, self.language) for k in treasure]
                    if mine and isinstance(treasure, list)
                    else [],
                    "reserve": [
                        self.piece(f)
                        for f in self.figs
                        if f.get("owner") == seat and parse_cell(f.get("cell")) is None
                    ],
                    "on_board": sum(
                        1
                        for f in self.figs
                        if f.get("owner") == seat and parse_cell(f.get("cell")) is not None
                    ),
                }
            )
        return out

    def hand(self) -> list[dict[str, Any]]:
        me = next(
            (
                p
                for p in self.view.get("players") or ()
                if isinstance(p, Mapping) and p.get("seat") == self.you
            ),
            None,
        )
        if me is None or not isinstance(me.get("hand"), list):
            return []
        out = []
        for c in me["hand"]:
            if not isinstance(c, Mapping):
                continue
            acts = []
            for a in self.legal:
                if a.get("type") == "play" and a.get("iid") == c.get("iid"):
                    acts.append(self.act(a))
            out.append(
                {
                    "iid": c.get("iid"),
                    "card": c.get("card"),
                    "info": card_info(self.data, c.get("card"), self.language),
                    "actions": acts,
                }
            )
        return out

    def row(self) -> list[dict[str, Any]]:
        out = []
        for c in self.view.get("row") or ():
            if not isinstance(c, Mapping):
                out.append(None)
                continue
            acts = [
                self.act(a)
                for a in self.legal
                if a.get("type") == "acquire" and a.get("iid") == c.get("iid") and "pile" not in a
            ]
            out.append(
                {
                    "iid": c.get("iid"),
                    "card": c.get("card"),
                    "info": card_info(self.data, c.get("card"), self.language),
                    "actions": acts,
                }
            )
        return out

    def piles(self) -> list[dict[str, Any]]:
        out = []
        for cid, count in (self.view.get("piles") or {}).items():
            acts = [
                self.act(a)
                for a in self.legal
                if a.get("type") == "acquire" and a.get("pile") == cid
            ]
            out.append(
                {
                    "card": cid,
                    "count": count,
                    "info": card_info(self.data, cid, self.language),
                    "actions": acts,
                }
            )
        return out

    def turn_buttons(self) -> list[dict[str, Any]]:
        out = []
        for a in self.legal:
            if a.get("type") in ("gate", "cultist", "done", "treasure"):
                out.append(self.act(a))
        for a in self.legal:
            if a.get("type") == "end_turn":
                out.append(self.act(a))
        return out

    def option_label(self, option: Any) -> str:
        if not isinstance(option, Mapping):
            return str(option)
        parts = []
        if "fig" in option:
            parts.append(f"«{self.fig_name(option['fig'])}»")
        if "iid" in option:
            known = self.known_card(option["iid"])
            parts.append(f"«{self.name(known)}»" if known else self.words("hidden"))
        if "zone" in option:
            parts.append(f"({option['zone']})")
        if "cell" in option:
            parts.append(self.words("cell", cell=option["cell"]))
        return " ".join(parts) or compact(option)

    def known_card(self, iid: Any) -> str | None:
        def walk(value: Any) -> str | None:
            if isinstance(value, Mapping):
                if value.get("iid") == iid and isinstance(value.get("card"), str):
                    return value["card"]
                for v in value.values():
                    found = walk(v)
                    if found:
                        return found
            elif isinstance(value, list):
                for v in value:
                    found = walk(v)
                    if found:
                        return found
            return None

        return walk({k: v for k, v in self.view.items() if k != "pending"}) or (
            walk(self.view.get("pending"))
            if isinstance(self.view.get("pending"), Mapping)
            else None
        )

    def pending(self) -> dict[str, Any] | None:
        pend = self.view.get("pending")
        if not isinstance(pend, Mapping):
            return None
        kind = str(pend.get("kind") or "")
        mine = self.you is not None and pend.get("player") == self.you
        options = pend.get("options") if isinstance(pend.get("options"), list) else []
        buttons = []
        cells = []
        for a in self.legal:
            if a.get("type") != "choose":
                continue
            i = a.get("i")
            if i is None:
                buttons.append(self.act(a))
                continue
            option = options[i] if isinstance(i, int) and 0 <= i < len(options) else None
            button = self.act(a)
            buttons.append(button)
            if isinstance(option, Mapping) and "cell" in option and "fig" not in option:
                at = self.at(option["cell"])
                if at is not None:
                    at["action"] = button
                    cells.append(at)
        return {
            "kind": kind,
            "text": _t(self.language, PENDING.get(kind, (kind, kind))),
            "mine": mine,
            "player": _seat(pend.get("player")),
            "options": buttons,
            "cells": cells,
        }

    def villains(self) -> dict[str, Any] | None:
        """The villains' panel (T-81..T-101), from the view's ``villains`` part: the mode
        and difficulty, the villains' glory and goal, the threat level (the discarded
        schemes, T-85), the scheme deck's count (T-87: empty means their win), the scheme
        on the table (this turn's, else the last one played), the archvillain's hand (the
        cards to their own seat, a count to the others, T-99), the boss's Surge (T-93) and
        the villains with their tokens, and the villain cultists on the battlefield (T-94).
        None outside the villain modes."""
        v = self.view.get("villains")
        if not isinstance(v, Mapping):
            return None
        lang = self.language
        seat = _seat(v.get("seat"))

        def scheme(entry: Any) -> dict[str, Any] | None:
            if not isinstance(entry, Mapping):
                return None
            info = card_info(self.data, entry.get("card"), lang)
            card = self.data.card(entry.get("card"))
            level = card.threat if card is not None else None
            info["threat"] = level
            info["awake"] = level is not None and int(v.get("threat") or 0) >= level
            return info

        revealed = [x for x in map(scheme, v.get("revealed") or ()) if x]
        discard = list(v.get("scheme_discard") or ())
        current = revealed or ([scheme(discard[-1])] if discard else [])
        hand = v.get("hand")
        tokens = {i: t for t, i in (v.get("tokens") or {}).items()}
        boss_id = (v.get("tokens") or {}).get("boss")
        surge: list[str] = []
        figures, cultists = [], 0
        for f in self.figs:
            if _seat(f.get("owner")) != seat or seat is None or f.get("gone"):
                continue
            card = self.data.card(f.get("card"))
            if card is not None and card.type == "cultist":
                cultists += 1 if parse_cell(f.get("cell")) is not None else 0
                continue
            token = tokens.get(f.get("id"))
            if f.get("id") == boss_id and card is not None:
                surge = [
                    line.strip()
                    for line in card.text(lang).splitlines()
                    if line.strip().lower().startswith(_t(lang, VILLAIN_WORDS["surge_word"]))
                ]
            stats = fig_stats(self.data, f)
            figures.append(
                {
                    "id": f.get("id"),
                    "name": self.name(f.get("card")),
                    "token": _t(lang, TOKENS[token]) if token in TOKENS else "",
                    "target": (v.get("targets") or {}).get(token, "") if token else "",
                    "boss": f.get("id") == boss_id,
                    "on_board": parse_cell(f.get("cell")) is not None,
                    "glory": card.glory if card is not None else None,
                    "strength": stats["strength"],
                    "defence": stats["defence"],
                }
            )
        figures.sort(key=lambda x: (not x["boss"], str(x["token"])))
        level = str(v.get("difficulty") or "normal")
        return {
            "mode": str(v.get("mode") or ""),
            "mode_name": _t(lang, VILLAIN_WORDS.get(f"mode_{v.get('mode')}", ("", ""))),
            "difficulty": level,
            "difficulty_name": _t(lang, VILLAIN_WORDS.get(f"level_{level}", (level, level))),
            "seat": seat,
            "player": bool(v.get("player")),
            "mine": bool(v.get("player")) and seat is not None and seat == self.you,
            "glory": v.get("glory", 0),
            "goal": v.get("goal"),
            "threat": v.get("threat", 0),
            "deck": v.get("scheme_deck", 0),
            "discarded": len(discard),
            "current": current,
            "this_turn": bool(revealed),
            "hand": [x for x in map(scheme, hand) if x] if isinstance(hand, list) else [],
            "hand_count": len(hand) if isinstance(hand, list) else hand,
            "surge": surge,
            "figures": figures,
            "cultists": cultists,
            "won": bool(v.get("won")),
        }

    def draft(self) -> dict[str, Any] | None:
        draft = self.view.get("draft")
        if not isinstance(draft, Mapping) or draft.get("finished"):
            return None
        picks = {a.get("champion"): a for a in self.legal if a.get("type") == "pick"}
        row = []
        for cid in draft.get("row") or ():
            a = picks.get(cid)
            acts = [self.act(a)] if a else []
            row.append(
                {"card": cid, "info": card_info(self.data, cid, self.language), "actions": acts}
            )
        picked = []
        for seat, ids in (draft.get("picked") or {}).items():
            try:
                number = int(seat)
            except (TypeError, ValueError):
                continue
            picked.append(
                {
                    "seat": number,
                    "number": number + 1,
                    "mine": number == self.you,
                    "cards": [card_info(self.data, c, self.language) for c in ids or ()],
                }
            )
        picked.sort(key=lambda p: p["seat"])
        to_pick = _seat(draft.get("to_pick"))
        return {
            "row": row,
            "picked": picked,
            "to_pick": to_pick,
            "to_pick_number": to_pick + 1 if to_pick is not None else None,
            "mine": to_pick is not None and to_pick == self.you,
            "quota": draft.get("quota"),
        }

    def everything(self) -> list[dict[str, Any]]:
        """Every legal action with its label (those placed elsewhere keep their label)."""
        labels: dict[str, str] = {}
        for group in (self._layers, self._hand, self._row, self._piles):
            _collect_labels(group, labels)
        for b in (
            self._turn
            + (self._pending or {}).get("options", [])
            + [a for r in (self._draft or {}).get("row", []) for a in r["actions"]]
        ):
            labels.setdefault(b["json"], b["label"])
        out = []
        for a in self.legal:
            text = compact(a)
            out.append(
                {"json": text, "label": labels.get(text) or self.label(a), "type": a.get("type")}
            )
        return out

    def build(self) -> dict[str, Any]:
        board = self.board()
        self._layers = self.layers()
        self._hand = self.hand()
        self._row = self.row()
        self._piles = self.piles()
        self._turn = self.turn_buttons()
        self._pending = self.pending()
        self._draft = self.draft()
        pieces = [self.piece(f) for f in self.figs if parse_cell(f.get("cell")) is not None]
        selectable = {lay["fig"] for lay in self._layers}
        for p in pieces:
            p["selectable"] = p["id"] in selectable
        active = _seat(self.view.get("active"))
        cmd = self.view.get("cmd") if isinstance(self.view.get("cmd"), Mapping) else None
        return {
            "you": self.you,
            "spectator": self.you is None,
            "turned": self.turn,
            "active": active,
            "active_number": active + 1 if active is not None else None,
            "my_turn": self.you is not None and self.you in (self.view.get("to_act") or ()),
            "round": self.view.get("round"),
            "max_rounds": self.view.get("max_rounds"),
            "finished": bool(self.view.get("finished")),
            "winners": [w + 1 for w in self.view.get("winners") or () if _seat(w) is not None],
            "draw": bool(self.view.get("draw")),
            "scenario": self.scenario.name(self.language) if self.scenario is not None else "",
            "center": self.view.get("center"),
            "bag": self.view.get("bag"),
            "board": board,
            "pieces": pieces,
            "layers": self._layers,
            "commanding": self.fig_name(cmd.get("fig")) if cmd is not None else "",
            "players": self.players(),
            "hand": self._hand,
            "row": self._row,
            "piles": self._piles,
            "buttons": self._turn,
            "pending": self._pending,
            "draft": self._draft,
            "villains": self.villains(),
            "actions": self.everything(),
        }


def _colour(owner: Any) -> str:
    """The colour class of a seat's pieces: ``s0``..``s3``; ``villain`` for the rest."""
    seat = _seat(owner)
    return f"s{seat}" if seat is not None and 0 <= seat < MAX_SEATS else "villain"


def _collect_labels(value: Any, labels: dict[str, str]) -> None:
    if isinstance(value, Mapping):
        if isinstance(value.get("json"), str) and isinstance(value.get("label"), str):
            labels.setdefault(value["json"], value["label"])
        for v in value.values():
            _collect_labels(v, labels)
    elif isinstance(value, list):
        for v in value:
            _collect_labels(v, labels)


def layout(
    view: Mapping[str, Any] | None,
    legal: Sequence[Mapping[str, Any]] = (),
    language: str | None = "en",
    db: TacticsDB | None = None,
) -> dict[str, Any]:
    """What the table draws for this view (see the module docstring)."""
    return _Builder(view or {}, legal or (), _lang(language), _data(db)).build()


# -- the describer of engine.core.describe: action labels and the game log -------------------

ACTION_KINDS: dict[str, Words] = {
    "pick": ("Champion draft", "Драфт чемпионов"),
    "play": ("Play", "Розыгрыш"),
    "gate": ("Gate", "Врата"),
    "acquire": ("Acquire", "Получение"),
    "command": ("Command", "Приказ"),
    "cultist": ("Cultist", "Культист"),
    "move": ("Move", "Движение"),
    "attack": ("Attack", "Атака"),
    "done": ("End of the command", "Конец приказа"),
    "treasure": ("Treasure", "Сокровище"),
    "choose": ("Choice", "Выбор"),
    "end_turn": ("End turn", "Конец хода"),
}


class TacticsDescriber(CardDescriber[Card]):
    """Sentences for the play app (``engine.core.describe.Describer``): the legal actions
    as the table labels them, the pending choice, and the events of the game log. A
    champion is named from the reading's view (its ``figs``); a card in a hand only when
    the reading knows it."""

    ACTION_KINDS = ACTION_KINDS

    def __init__(self, db: TacticsDB | None = None):
        super().__init__(db)
        self._last: tuple[Reading, _Builder] | None = None
        self._cards: _Db | None = None

    @property
    def _data(self) -> _Db:
        if self._cards is None:
            self._cards = _Db(self.db)
        return self._cards

    def _load_db(self) -> TacticsDB:
        return load_system()

    def _lookup(self, card_id: str) -> Card:
        return self.db[card_id]

    def card(self, reading: Reading, card_id: str) -> dict[str, Any]:
        if self._card(card_id) is None:
            return self.unknown_card(card_id)
        info = card_info(self._data, card_id, reading.language)
        info["faction_key"] = info["faction"] or "neutral"
        info["faction"] = info["faction_name"]
        return info

    def _fig(self, reading: Reading, fig_id: Any) -> str:
        for f in reading.view.get("figs") or ():
            if isinstance(f, Mapping) and f.get("id") == fig_id:
                return f"«{self.printed_name(reading, f.get('card'))}»"
        return reading.t("a champion", "чемпион")

    def _builder(self, reading: Reading) -> _Builder:
        """One builder per reading (the table labels every legal action of one view)."""
        last = self._last
        if last is not None and last[0] is reading:
            return last[1]
        builder = _Builder(reading.view, (), reading.language, self._data)
        self._last = (reading, builder)
        return builder

    def action(self, reading: Reading, action: Mapping[str, Any]) -> dict[str, Any]:
        kind = str(action.get("type", ""))
        text = self._builder(reading).label(action)
        iid = action.get("iid")
        card = iid if isinstance(iid, int) and not isinstance(iid, bool) else None
        return {"text": text, "short": text, "card": card, "group": kind}

    def pending(self, reading: Reading) -> dict[str, Any] | None:
        pend = reading.view.get("pending")
        if not isinstance(pend, Mapping):
            return None
        kind = str(pend.get("kind") or "")
        doing = reading.pick(PENDING.get(kind), kind)
        if not self.is_chooser(reading, pend):
            return self.waiting_on(reading, pend, doing)
        options = pend.get("options") if isinstance(pend.get("options"), list) else []
        builder = self._builder(reading)
        return {
            "text": doing,
            "mine": True,
            "options": [builder.option_label(o) for o in options],
            "details": [reading.t("You may decline.", "Можно отказаться.")]
            if pend.get("optional")
            else [],
        }

    def event(self, reading: Reading, event: Mapping[str, Any]) -> str | None:
        kind = str(event.get("type", ""))
        if kind == "left":
            return self.left(reading, event)
        if kind == "game_over":
            if event.get("draw"):
                return reading.t("Game over: a draw", "Конец игры: ничья")
            return self.winners(reading, event)
        t = reading.t
        who = reading.seat(event.get("seat"))
        card = event.get("card")
        name = (
            f"«{self.printed_name(reading, card)}»"
            if isinstance(card, str)
            else self.card_name(reading, event.get("iid"))
        )
        fig = self._fig(reading, event.get("fig"))
        n = event.get("amount", event.get("count"))
        cell = event.get("cell")
        steps = max(0, len(event.get("path") or ()) - 1)
        texts: dict[str, Words] = {
            "draft_pick": (
                f"{who} drafts «{self.printed_name(reading, event.get('champion'))}»",
                f"{who} выбирает «{self.printed_name(reading, event.get('champion'))}»",
            ),
            "draft_done": ("The champion draft is over", "Драфт чемпионов окончен"),
            "gate": (
                f"{who} uses the gate: {event.get('runes')}▲ {event.get('power')}◆",
                f"{who} использует врата: {event.get('runes')}▲ {event.get('power')}◆",
            ),
            "play": (f"{who} plays {name}", f"{who} играет {name}"),
            "acquire": (f"{who} acquires {name}", f"{who} получает {name}"),
            "row": (f"{name} enters the central row", f"{name} выходит в центральный ряд"),
            "banish": (f"{who} banishes {name}", f"{who} изгоняет {name}"),
            "command": (f"{who} commands {fig}", f"{who} отдаёт приказ: {fig}"),
            "enter": (f"{fig} enters the battlefield", f"{fig} входит на поле боя"),
            "move": (f"{fig} moves {steps} cells", f"{fig} проходит ячеек: {steps}"),
            "attack": (
                f"{fig} attacks {', '.join(self._fig(reading, x) for x in event.get('targets') or ())}",
                f"{fig} атакует: {', '.join(self._fig(reading, x) for x in event.get('targets') or ())}",
            ),
            "damage": (f"{fig} takes {n} damage", f"{fig} получает урон: {n}"),
            "defeat": (f"{fig} is defeated", f"{fig} повержен"),
            "command_done": (f"{who} ends the command", f"{who} завершает приказ"),
            "treasure_taken": (f"{who} takes a treasure token", f"{who} забирает жетон сокровища"),
            "treasure_gained": (f"{who} gains a treasure token", f"{who} получает жетон сокровища"),
            "treasure_used": (
                f"{who} uses a treasure on {fig}",
                f"{who} использует сокровище: {fig}",
            ),
            "treasure_revealed": ("A treasure token is revealed", "Открыт жетон сокровища"),
            "draw": (f"{who} draws {n}", f"{who} берёт карты: {n}"),
            "reshuffle": (f"{who} shuffles their discard pile", f"{who} перемешивает сброс"),
            "center_reshuffle": ("The central deck is shuffled", "Центральная колода перемешана"),
            "glory": (
                f"{who} gains {n} glory ({event.get('total')} in all)",
                f"{who}: +{n} славы (всего {event.get('total')})",
            ),
            "end_turn": (f"{who} ends the turn", f"{who} заканчивает ход"),
            "pass": (f"{who} passes", f"{who} пасует"),
            "decline": (f"{who} declines", f"{who} отказывается"),
            "destroy": (f"{name} of {fig} is destroyed", f"{name} ({fig}) уничтожен"),
            "terrain": (
                f"{cell} becomes {TERRAIN.get(str(event.get('terrain')), (event.get('terrain'),) * 2)[0]}",
                f"{cell}: {TERRAIN.get(str(event.get('terrain')), (event.get('terrain'),) * 2)[1]}",
            ),
        }
        if kind in texts:
            return reading.pick(texts[kind])
        if kind == "skipped_effect":
            return None
        return t(kind.replace("_", " ").capitalize(), kind.replace("_", " ").capitalize())


DESCRIBER = TacticsDescriber()


def ending(state: Mapping[str, Any], language: str, names: Mapping[int, str]) -> str | None:
    """How a finished game was decided (``engine.core.protocol``'s ``ending``), from the
    public facts of the final state: a side reached the scenario's glory (T-25; a team
    together, T-79), the villains won (their glory, T-95; their scheme deck ran out, T-87,
    D-18), or the last round was played (T-80: the most glory wins, else a draw)."""
    if not state.get("finished"):
        return None
    ru = language == "ru"
    players = list(state.get("players") or ())
    winners = [w for w in state.get("winners") or () if 0 <= w < len(players)]
    victory = state.get("victory") or {}
    villain = state.get("villain")
    if isinstance(villain, Mapping) and villain.get("won"):
        goal = victory.get("villain_glory")
        seat = villain.get("seat")
        glory = players[seat]["glory"] if isinstance(seat, int) and seat < len(players) else 0
        if goal is not None and glory >= goal:
            return (
                f"Злодеи набрали {glory} славы (T-95) — злодеи побеждают"
                if ru
                else f"The villains reached {glory} glory (T-95) — the villains win"
            )
        if state.get("out"):
            return None  # the last hero left
        return (
            "Колода замыслов злодеев кончилась (T-87) — злодеи побеждают"
            if ru
            else "The villains' scheme deck ran out (T-87) — the villains win"
        )
    if state.get("round", 0) > state.get("max_rounds", 0):
        last = state.get("max_rounds")
        if winners:
            who = named_seats(names, winners, language)
            glory = players[winners[0]]["glory"]
            return (
                f"Сыгран последний, {last}-й раунд — больше всех славы ({glory}) у: {who} (T-80)"
                if ru
                else f"The last round ({last}) was played — most glory ({glory}): {who} (T-80)"
            )
        return (
            f"Сыгран последний, {last}-й раунд — ничья"
            if ru
            else f"The last round ({last}) was played — a draw"
        )
    goal = victory.get("glory", 30)
    if winners and players[winners[0]]["glory"] >= goal:
        who = named_seats(names, winners, language)
        glory = players[winners[0]]["glory"]
        if len(winners) > 1:
            return (
                f"{who} вместе набрали {glory} славы (T-25, T-79)"
                if ru
                else f"{who} reached {glory} glory together (T-25, T-79)"
            )
        return (
            f"{who} набирает {glory} славы (T-25)" if ru else f"{who} reached {glory} glory (T-25)"
        )
    return None
