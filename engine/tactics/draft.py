"""The champion draft of Ascension Tactics as the game's setup phase (T-76..T-78, D-13).

``config["draft"]`` (default **true**) starts a game in the phase ``"draft"``: the 24
draftable champions (the blue-back ones, not the central deck's, T-76) are shuffled from
the game's seed and 6 revealed; the player taking the last turn picks one, the gap is
refilled at once, then the next player in reverse turn order picks, and so on, in a
repeating cycle (T-77, D-13), until the reserves are full: 4 each with 2 players, 3 each
with 3-4 (T-77). The leftovers go back to the box. The order is the game-neutral open-row
draft of ``engine.core.opendraft``.

2 vs 2 (T-78): the teams alternate, team 2 (the one moving second) first, until each
team has 6, split 3 and 3. The split is made by the picks: the team's picks alternate
between its two players, each pick going to the picker's own reserve (team 2's first
player, team 1's first player, team 2's second player, team 1's second player, ...), so
both teammates draft and each ends with 3. (The rulebook lets a team split its 6 after
the draft; picking for oneself is the same split, decided pick by pick.)

The action is ``{"type": "pick", "champion": "<card id>"}`` for the seat to pick
(``to_act``); each pick is an event ``{"type": "draft_pick", "seat", "champion",
"revealed"}`` (``revealed``: the card that refilled the gap, None once the deck is
empty), and the end of the draft ``{"type": "draft_done", "reserves": [[...] per seat]}``.
The row, the picks and the deck's size are open information (``view``); the deck's
order is not.

``config["draft"] = false`` skips the phase: the reserves are then ``config["reserves"]``
(one list of champion ids per seat) or drawn from the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import opendraft
from engine.core.errors import IllegalAction, InvalidConfig
from engine.core.protocol import Action, Event

PHASE = "draft"


def wanted(config: dict[str, Any]) -> bool:
    """Whether the game starts with the draft: ``config["draft"]``, default true unless
    ``config["reserves"]`` names the reserves."""
    value = config.get("draft", "reserves" not in config)
    if type(value) is not bool:
        raise InvalidConfig("draft is true or false (T-76).")
    if value and "reserves" in config:
        raise InvalidConfig("Give either draft or reserves: the draft fills the reserves (T-16).")
    return value


def quota(mode: str, players: int) -> int:
    """Champions per player (T-77; T-78: 6 a team, 3 a player)."""
    if mode == "teams":
        return opendraft.champion_quota(4, "teams") // 2
    return opendraft.champion_quota(players)


def pick_order(sides: Sequence[Sequence[int]]) -> list[int]:
    """The game seats as the open-row draft's seats, in turn order: its last seat picks
    first, then backwards, over and over (T-77). For 2 vs 2 (two sides of two, turn order
    team 1 then team 2) the picks go T2a, T1a, T2b, T1b (T-78, D-13)."""
    if len(sides) == 2 and all(len(side) == 2 for side in sides):
        (t1a, t1b), (t2a, t2b) = sides
        return [t1b, t2b, t1a, t2a]
    return [side[0] for side in sides]


def start(pool: Sequence[str], sides: Sequence[Sequence[int]], per_seat: int) -> dict:
    """The draft's state: the open row (``engine.core.opendraft``) and its seats. ``pool``
    is already shuffled from the game's seed."""
    order = pick_order(sides)
    try:
        row = opendraft.new_open_row(list(pool), len(order), quota=per_seat, history=False)
    except opendraft.DraftError as exc:
        raise InvalidConfig(f"{exc.message} (T-76)") from None
    return {**row, "order": order}


def to_pick(d: dict) -> int | None:
    """The game seat to pick now (None: the draft is over)."""
    k = opendraft.to_pick(d)
    return None if k is None else d["order"][k]


def legal(d: dict, seat: int) -> list[Action]:
    if to_pick(d) != seat:
        return []
    return [{"type": "pick", "champion": cid} for cid in d["row"]]


def pick(d: dict, seat: int, action: Action, events: list[Event]) -> dict:
    """The draft after ``seat`` picks ``action["champion"]`` (checked: it is offered)."""
    k = d["order"].index(seat)
    before = set(d["row"])
    try:
        new = opendraft.pick(d, k, action["champion"])
    except opendraft.DraftError as exc:  # pragma: no cover - only offered picks arrive
        raise IllegalAction(exc.message, "T-77") from None
    new["order"] = list(d["order"])
    added = [c for c in new["row"] if c not in before]
    events.append(
        {
            "type": "draft_pick",
            "seat": seat,
            "champion": action["champion"],
            "revealed": added[0] if added else None,
        }
    )
    return new


def reserves(d: dict) -> dict[int, list[str]]:
    """Game seat -> its drafted champions, in pick order."""
    return {seat: list(d["pools"][k]) for k, seat in enumerate(d["order"])}


def view(d: dict | None) -> dict[str, Any] | None:
    """What everyone sees of the draft: the row, the picks, who picks, the quota, the
    deck's size (its order stays hidden)."""
    if d is None:
        return None
    return {
        "row": list(d["row"]),
        "picked": {seat: list(cards) for seat, cards in reserves(d).items()},
        "to_pick": to_pick(d),
        "quota": d["quota"],
        "deck": len(d["deck"]),
        "finished": bool(d["finished"]),
    }


def champion_value(card: Any) -> float:
    """A rough worth of a champion for the bots' picks: its stats and keywords against
    its command cost."""
    keywords = {"ranged": 2.0, "double_attack": 2.5, "counter_strike": 1.5, "area_attack": 2.0}
    score = (card.strength or 0) * 1.2 + (card.defence or 0) + 0.5 * (card.speed or 3)
    score += sum(keywords.get(k, 0.5) for k in card.keywords)
    score += 0.8 * len(card.abilities)
    return score - 0.9 * (card.command or 0)
