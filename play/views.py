"""Pages of online play: thin views over ``play.services``.

The table is rendered from the viewer's own ``view(state, seat)`` (a spectator's is
``view(state, None)``): nothing else of the state reaches a template. A game system may
ship its own table as ``templates/play/<system>/table.html``; otherwise the generic,
game-neutral table shows the view's zones, counts and open cards and the legal actions
as buttons.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from engine.core import registry
from engine.core.describe import Describer, Reading, describer_for
from engine.core.protocol import LEAVE, GameSystem
from engine.core.protocol import ending as ending_of
from play import decks as casual_decks
from play.forms import CasualGameForm, DeckForm
from play.models import GameSession, bot_label
from play.services.acting import abort as abort_game
from play.services.acting import concede as concede_game
from play.services.acting import give_up_seat, parse_seq, submit_action
from play.services.built import play_built_deck
from play.services.engines import card_label, engine_of, playable_systems
from play.services.errors import NotAllowed, PlayError
from play.services.payloads import payload
from play.services.reading import replay_state, table_log
from play.services.rematches import offered_rematch, rematch
from play.services.sessions import may_see_match, may_watch, seat_of
from play.services.starting import (
    CASUAL_TIME_BANK,
    DEFAULT_BOT,
    create_bot_game,
    create_casual_game,
    create_friend_game,
    create_solo_game,
    join_game,
    start_match,
)
from tournaments.built_decks import TicketError, unsign
from tournaments.models import Match

# ---------------------------------------------------------------- presenting a view


def _label(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


def _is_card(value: Any) -> bool:
    return isinstance(value, Mapping) and "card" in value and len(value) <= 3


# Keys whose numbers are seats (0-based in the engine, shown from 1 like the seat list).
SEAT_KEYS = frozenset(
    {"seat", "you", "active", "first", "to_act", "winners", "eliminated", "player"}
)


def _seat_numbers(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value + 1
    if isinstance(value, list | tuple) and all(isinstance(v, int) for v in value):
        return [v + 1 for v in value]
    return value


class Presenter:
    """Turns a view (plain JSON) into nodes the generic table template can show."""

    def __init__(
        self,
        system: GameSystem,
        seat: int | None,
        language: str,
        describer: Describer | None = None,
        reading: Reading | None = None,
    ):
        self.system = system
        self.seat = seat
        self.language = language
        self.names: dict[Any, str] = {}  # card instance -> printed name, for action labels
        # The engine's own describer (``engine/<system>/describe.py``), when it has one:
        # labels, card details and log lines read from the viewer's view only.
        self.describer = describer
        self.reading = reading
        self._info: dict[str, dict[str, Any]] = {}

    def info(self, card_id: Any) -> dict[str, Any] | None:
        """The card's printed details (name, cost, text...) for the details panel."""
        if self.describer is None or self.reading is None or not isinstance(card_id, str):
            return None
        if card_id not in self._info:
            self._info[card_id] = self.describer.card(self.reading, card_id)
        return self._info[card_id]

    def card(self, value: Mapping[str, Any]) -> dict[str, Any]:
        name = card_label(self.system, value["card"], self.language)
        if "iid" in value:
            self.names[value["iid"]] = name
        return {
            "iid": value.get("iid"),
            "card": value["card"],
            "name": name,
            "info": self.info(value["card"]),
        }

    def node(self, key: str, value: Any) -> dict[str, Any]:
        named = card_label(self.system, key, self.language)
        label = named if named != str(key) else _label(key)
        if key in SEAT_KEYS:
            value = _seat_numbers(value)
        if isinstance(value, Mapping):
            if _is_card(value):
                return {"kind": "cards", "label": label, "cards": [self.card(value)]}
            return {"kind": "group", "label": label, "children": self.children(value)}
        if isinstance(value, list | tuple):
            if value and all(v is None or _is_card(v) for v in value):
                return {
                    "kind": "cards",
                    "label": label,
                    "cards": [None if v is None else self.card(v) for v in value],
                }
            if value and all(isinstance(v, Mapping) for v in value):
                items = []
                for index, item in enumerate(value):
                    mine = "seat" in item and item["seat"] == self.seat and self.seat is not None
                    title = (
                        _("Seat %(n)s") % {"n": item["seat"] + 1}
                        if "seat" in item
                        else str(index + 1)
                    )
                    if mine:
                        title += " · " + _("you")
                    items.append(
                        {
                            "kind": "group",
                            "label": title,
                            "children": self.children(
                                {k: v for k, v in item.items() if k != "seat"}
                            ),
                            "mine": mine,
                        }
                    )
                return {"kind": "groups", "label": label, "items": items}
            if not value:
                return {"kind": "value", "label": label, "value": "—", "empty": True}
            return {
                "kind": "value",
                "label": label,
                "value": ", ".join(self.scalar(v) for v in value),
            }
        node = {"kind": "value", "label": label, "value": self.scalar(value)}
        if named != str(key):  # a pile of cards keyed by card id (Ascension's piles)
            node.update(card=key, info=self.info(key))
        return node

    def scalar(self, value: Any) -> str:
        if value is None:
            return "—"
        if value is True:
            return _("yes")
        if value is False:
            return _("no")
        if isinstance(value, Mapping | list | tuple):
            return json.dumps(value, ensure_ascii=False)
        return str(value)

    def children(self, mapping: Mapping[str, Any]) -> list[dict[str, Any]]:
        nodes = [self.node(k, v) for k, v in mapping.items()]
        # Plain values first (a summary line), then cards and groups.
        return sorted(nodes, key=lambda n: n["kind"] != "value")

    def action(self, action: Mapping[str, Any]) -> str:
        if self.describer is not None and self.reading is not None:
            return self.describer.action(self.reading, action)["text"]
        parts = [_label(action.get("type", "?"))]
        for key, value in action.items():
            if key == "type":
                continue
            if key == "iid" and value in self.names:
                parts.append(f"«{self.names[value]}»")
            elif key == "iid" and value is None:
                parts.append(_("(none)"))
            elif isinstance(value, str):
                parts.append(f"«{card_label(self.system, value, self.language)}»")
            else:
                parts.append(f"{key} {self.scalar(value)}")
        return " ".join(parts)

    def event(self, event: Mapping[str, Any]) -> str | None:
        """A log line; None for bookkeeping the engine's describer does not show."""
        if self.describer is not None and self.reading is not None:
            return self.describer.event(self.reading, event)
        parts = [_label(event.get("type", "?"))]
        for key, value in event.items():
            if key in ("type", "iid"):
                continue
            if key == "card":
                parts.append(f"«{card_label(self.system, value, self.language)}»")
            elif key == "seat" and isinstance(value, int):
                parts.append(_("by seat %(n)d") % {"n": value + 1})
            else:
                parts.append(f"{key} {self.scalar(value)}")
        return " ".join(parts)


def table_context(
    session: GameSession, seat: int | None, *, spectate: bool = False
) -> dict[str, Any]:
    """What the game page and its table fragment show ``seat`` (``None``: a spectator)."""
    system = engine_of(session.system)
    seats = list(session.seats.select_related("user").order_by("number"))
    data = payload(session, seat, seats)
    out = set(system.result(session.state).eliminated) if session.state else set()
    # The state is the row's; of the log, only its last moves and what it named (0065).
    log = table_log(session, total=data["seq"])
    context = _table_context(
        session,
        seat,
        system,
        data,
        log.rows,
        seats,
        out,
        spectate=spectate,
        named=log.named,
        total=log.total,
    )
    context["ending"] = _ending(session, seats, seat, data)
    return context


def _table_context(
    session: GameSession,
    seat: int | None,
    system: GameSystem,
    data: Mapping[str, Any],
    rows: list[dict[str, Any]],
    seats: list[Any],
    out: set[int],
    *,
    spectate: bool = False,
    log_rows: int = 60,
    named: Mapping[int, str] | None = None,
    total: int | None = None,
) -> dict[str, Any]:
    """The table of one view (``data``, as ``payload`` builds it) and the log of ``rows``:
    the live game's, or a replay's at one of its steps. ``rows`` may be the last part of
    the log only: ``named`` is then what the events before it named
    (``reading.table_log``) and ``total`` the number of moves."""
    language = _language()
    view = data["view"] or {}
    describer = describer_for(session.system)
    reading = None
    if describer is not None:
        # Everything a label may name: the viewer's own view and the public events.
        reading = Reading.of(
            view,
            language,
            {s.number: _seat_name(s) for s in seats if s.label},
            (e for row in rows for e in row["events"] if isinstance(e, Mapping)),
            named,
        )
    presenter = Presenter(system, seat, language, describer, reading)
    nodes = presenter.children(view)
    described = (
        [describer.action(reading, a) for a in data["legal"]]
        if describer is not None and reading is not None
        else None
    )
    legal = [
        {
            "label": presenter.action(a) if described is None else described[k]["text"],
            "short": None if described is None else described[k]["short"],
            "json": json.dumps(a, separators=(",", ":")),
        }
        for k, a in enumerate(data["legal"])
    ]
    clock_by_seat = {c["seat"]: c for c in data["clocks"]}
    log = []
    for row in rows[-log_rows:]:
        events = [presenter.event(e) for e in row["events"] if isinstance(e, Mapping)]
        if row["type"] == LEAVE:
            action = _left(row)
        elif describer is not None and reading is not None:
            action = describer.action_kind(reading, row["type"])
        else:
            action = _label(row["type"])
        log.append(
            {
                "seq": row["seq"],
                "seat": row["seat"] + 1,
                "who": reading.seat(row["seat"]) if reading is not None else None,
                "action": action,
                "events": [e for e in events if e],
            }
        )
    log.reverse()
    named = _named(system, view, language, presenter)
    return {
        "view": named,
        "names": _instance_names(named),
        "legal_groups": (
            _group_actions(legal, data["legal"])
            if described is None
            else _group_described(legal, described, presenter)
        ),
        "pending": (
            describer.pending(reading) if describer is not None and reading is not None else None
        ),
        "seat_names": (
            {s.number: reading.seat(s.number) for s in seats} if reading is not None else {}
        ),
        "by_iid": _instance_cards(named),
        "step_name": (
            describer.step_name(reading, view.get("step"))
            if reading is not None and hasattr(describer, "step_name")
            else ""
        ),
        "custom_table": _table_template(session) != "play/_table.html",
        "session": session,
        "data": data,
        "seat": seat,
        "spectate": spectate,
        "nodes": nodes,
        "legal": legal,
        "my_turn": seat is not None and seat in data["to_act"],
        "out": seat is not None and seat in out,
        "seats": [
            {
                "number": s.number,
                "label": _seat_name(s),
                "acting": s.number in data["to_act"],
                "out": s.number in out,
                "mine": s.number == seat,
                "clock": clock_by_seat.get(s.number),
            }
            for s in seats
        ],
        "log": log,
        "log_total": len(rows) if total is None else total,
        "winners": [w + 1 for w in (session.result or {}).get("winners", [])],
        "table_template": _table_template(session),
        "game_name": _game_name(session.system),
    }


def _game_name(system: str) -> str:
    try:
        return registry.get(system).label(get_language() or "en")
    except registry.UnknownGameSystem:
        return system


def _left(row: Mapping[str, Any]) -> str:
    """A departure in the log (``@leave``): why the seat left the game."""
    reason = (row.get("action") or {}).get("reason", "")
    if reason == GameSession.EndReason.TIME:
        return _("ran out of time")
    return _("conceded")


def _seat_name(seat: Any) -> str:
    """Who sits at a seat, as pages name them: the player's name, or the bot's."""
    if seat.is_bot:
        return _("Bot (%(name)s)") % {"name": bot_label(seat.bot_name)}
    return str(seat.label)


def _and(names: list[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return _("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}


def _mode_of(session: GameSession) -> str:
    """The table mode a casual game was seated with (its teams and engine config, as the
    game's config has them)."""
    try:
        modes = registry.get(session.system).table_modes
    except registry.UnknownGameSystem:
        return registry.FREE_FOR_ALL.key
    fitting = [mode for mode in modes if mode.seated(session.config or {})]
    if len(fitting) > 1:  # modes that differ only in the creator's seat
        mine = session.seats.filter(user_id=session.created_by_id).values_list("number", flat=True)
        seat = next(iter(mine), 0)
        fitting = [m for m in fitting if m.creator_seat == seat] or fitting
    return fitting[0].key if fitting else registry.FREE_FOR_ALL.key


def _play_again_url(session: GameSession, seats: list[Any]) -> str:
    """The new-game form of this game, with this table's seats, bots and mode chosen."""
    bots = [s for s in seats if s.is_bot]
    query = {
        "system": session.system,
        "players": len(seats),
        "bots": len(bots),
        "mode": _mode_of(session),
    }
    if bots:
        query["bot"] = bots[0].bot_name
    if session.time_bank is not None:
        query["minutes"] = session.time_bank // 60
    return f"{reverse('play:home')}?{urlencode(query)}#new-{session.system}"


def _decided(session: GameSession, names: Mapping[int, str]) -> str | None:
    """How the rules decided a finished game, in the game's own words (its optional
    ``ending`` hook, ``engine.core.protocol.ending``: public facts of the final state);
    None for a game without one."""
    if session.end_reason != GameSession.EndReason.RULES or not session.state:
        return None
    try:
        system = engine_of(session.system)
    except PlayError:
        return None
    return ending_of(system, session.state, _language(), names)


def _ending(
    session: GameSession, seats: list[Any], seat: int | None, data: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The end screen of a game that is over: who won (by name), how it ended, and what
    the viewer may do next (a rematch, another game, the replay, the match's next game)."""
    if not session.is_over:
        return None
    result = session.result or {}
    names = {s.number: _seat_name(s) for s in seats}
    winners = [n for n in result.get("winners", []) if n in names]
    left = None
    if session.end_reason in (GameSession.EndReason.CONCEDE, GameSession.EndReason.TIME):
        last = session.actions.filter(action__type=LEAVE).order_by("-seq").first()
        left = names.get(last.seat) if last is not None else None
    reasons = {
        GameSession.EndReason.CONCEDE: (
            _("%(name)s conceded.") % {"name": left} if left else _("A player conceded.")
        ),
        GameSession.EndReason.TIME: (
            _("%(name)s ran out of time.") % {"name": left}
            if left
            else _("A player ran out of time.")
        ),
        GameSession.EndReason.RULES: _decided(session, names) or _("Decided by the rules."),
        GameSession.EndReason.ABORTED: _("The game was called off before it started."),
    }
    aborted = session.status == GameSession.Status.ABORTED
    casual = session.match_id is None
    player = seat is not None
    offered = None
    if player and casual and not aborted:
        offer = offered_rematch(session, _seat_user(seats, seat))
        if offer is not None:
            offered = {
                "by": next((str(s.label) for s in seats if s.user_id == offer.created_by_id), ""),
                "url": reverse("play:join", args=[offer.invite_token]),
            }
    return {
        "aborted": aborted,
        "winners": _and([names[n] for n in winners]),
        "won": player and seat in winners,
        "team": len(winners) > 1,
        "draw": bool(result.get("draw")) and not winners,
        "reason": reasons.get(session.end_reason, ""),
        "rematch": player and casual and not aborted,
        "play_again": None if not player or not casual else _play_again_url(session, seats),
        "replay": None if aborted else reverse("play:replay", args=[session.pk]),
        "next": data.get("next"),
        "offered": offered,
    }


def _seat_user(seats: list[Any], number: int) -> Any:
    return next(s.user for s in seats if s.number == number)


def _card_type(system: GameSystem, card_id: Any) -> str:
    db = getattr(system, "db", None)
    lookup = getattr(db, "card", None)
    if not callable(lookup):
        return ""
    try:
        return str(getattr(lookup(card_id), "type", "") or "")
    except Exception:
        return ""


def _named(
    system: GameSystem, value: Any, language: str, presenter: Presenter | None = None
) -> Any:
    """The view with each card's printed ``name`` and ``type`` added (for game tables),
    and its printed details as ``info`` where the engine describes its cards."""
    if isinstance(value, Mapping):
        out = {k: _named(system, v, language, presenter) for k, v in value.items()}
        if isinstance(value.get("card"), str):
            out.setdefault("name", card_label(system, value["card"], language))
            out.setdefault("type", _card_type(system, value["card"]))
            if presenter is not None:
                out.setdefault("info", presenter.info(value["card"]))
        return out
    if isinstance(value, list | tuple):
        return [_named(system, v, language, presenter) for v in value]
    return value


def _instance_names(value: Any, found: dict[str, str] | None = None) -> dict[str, str]:
    """Card instance id (as text) → printed name, for everything the viewer may see."""
    found = {} if found is None else found
    if isinstance(value, Mapping):
        if "iid" in value and "name" in value and value["iid"] is not None:
            found[str(value["iid"])] = value["name"]
        for v in value.values():
            _instance_names(v, found)
    elif isinstance(value, list | tuple):
        for v in value:
            _instance_names(v, found)
    return found


def _instance_cards(value: Any, found: dict[str, Any] | None = None) -> dict[str, Any]:
    """Card instance id (as text) → the card as the view shows it (the first place
    found: the Battlefield before the Tactics that name it)."""
    found = {} if found is None else found
    if isinstance(value, Mapping):
        if "iid" in value and "name" in value and value["iid"] is not None:
            found.setdefault(str(value["iid"]), value)
        for v in value.values():
            _instance_cards(v, found)
    elif isinstance(value, list | tuple):
        for v in value:
            _instance_cards(v, found)
    return found


def _group_actions(labelled: list[dict[str, str]], actions: list[Any]) -> list[dict[str, Any]]:
    """The legal actions grouped by their ``type``, in the order the engine listed them."""
    groups: dict[str, list[dict[str, str]]] = {}
    for item, action in zip(labelled, actions, strict=False):
        kind = action.get("type", "?") if isinstance(action, Mapping) else "?"
        groups.setdefault(kind, []).append(item)
    return [
        {"kind": kind, "label": _label(kind), "actions": items} for kind, items in groups.items()
    ]


def _group_described(
    labelled: list[dict[str, Any]], described: list[dict[str, Any]], presenter: Presenter
) -> list[dict[str, Any]]:
    """Legal actions grouped as the engine's describer says: the pending decision first,
    then one group per card (the card shown once, its buttons with short labels), then
    the turn's other actions (pass, Direct Attacks)."""
    groups: dict[str, dict[str, Any]] = {}
    reading = presenter.reading
    for item, about in zip(labelled, described, strict=True):
        key = about["group"]
        group = groups.get(key)
        if group is None:
            card = None
            if about["card"] is not None and reading is not None:
                card_id = reading.known.get(about["card"])
                card = {
                    "iid": about["card"],
                    "card": card_id,
                    "name": presenter.info(card_id)["name"] if card_id else None,
                    "info": presenter.info(card_id),
                    "zone": reading.where.get(about["card"], ""),
                }
            group = groups[key] = {
                "kind": key.partition(":")[0],
                "label": "" if card else (_("Your decision") if key == "decision" else ""),
                "card": card,
                "actions": [],
            }
        group["actions"].append(
            {**item, "label": about["short"] if group["card"] else item["label"]}
        )
    order = {"decision": 0, "card": 1}
    return sorted(groups.values(), key=lambda g: order.get(g["kind"], 2))


def _table_template(session: GameSession) -> str:
    return select_template([f"play/{session.system}/table.html", "play/_table.html"]).template.name


def _check_watcher(request: HttpRequest, session: GameSession) -> None:
    """A game of an unlisted event, or of a round not yet published, is a 404 to those
    who may not watch it (``sessions.may_watch``): game ids are sequential."""
    if not may_watch(request.user, session):
        raise Http404("No such game.")


def _viewer_seat(request: HttpRequest, session: GameSession) -> int | None:
    seat = seat_of(request.user, session)
    return None if seat is None else seat.number


# ---------------------------------------------------------------- pages


def _language() -> str:
    return get_language() or "en"


def _deck_options(system: str) -> list[dict[str, str]]:
    """The starter decks of a game that needs decks, as the forms offer them."""
    language = _language()
    return [
        {"key": d.key, "title": d.title(language), "about": d.description(language)}
        for d in casual_decks.starter_decks(system)
    ]


def _tables(posted: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the new-game form offers for each playable game (all from the registry), with
    the values shown: what was posted for that game (a refused deck), else the quickest
    table, one seat against one bot with the first starter deck."""
    tables = []
    for info, bots in playable_systems():
        needs_deck = casual_decks.needs_deck(info.key)
        starters = _deck_options(info.key) if needs_deck else []
        shown = {
            "players": 2,
            "bots": 1,
            "bot": DEFAULT_BOT,
            "mode": registry.FREE_FOR_ALL.key,
            "deck": starters[0]["key"] if starters else casual_decks.PASTE,
            "decklist": "",
            "format": info.casual_format,
            "minutes": None,
        }
        if posted.get("system") == info.key:
            shown.update({k: v for k, v in posted.items() if k in shown and v not in ("", None)})
        tables.append(
            {
                "info": info,
                "bots": [{"key": b, "name": bot_label(b)} for b in bots],
                "seats": range(1 if info.solo else info.min_players, info.max_players + 1),
                "bot_counts": range(0, info.max_players),
                "modes": [
                    {"key": m.key, "name": m.label(_language()), "players": m.players}
                    for m in info.table_modes
                ],
                "needs_deck": needs_deck,
                "format": (
                    info.format(info.casual_format).label(_language()) if info.casual_format else ""
                ),
                "formats": [
                    {"key": f.key, "name": f.label(_language())}
                    for f in casual_decks.deck_formats(info.key)
                ],
                "starters": starters,
                "solo": info.solo,
                "shown": shown,
                "refused": posted.get("refused") if posted.get("system") == info.key else None,
            }
        )
    return tables


def _home(
    request: HttpRequest, status: int = 200, posted: Mapping[str, Any] | None = None
) -> HttpResponse:
    mine = GameSession.objects.none()
    if request.user.is_authenticated:
        mine = GameSession.objects.filter(seats__user=request.user).order_by("-created_at")[:20]
    # Games anyone may watch; not those of an unlisted event, which no list shows.
    watching = (
        GameSession.objects.filter(status=GameSession.Status.RUNNING)
        .exclude(match__round__event__is_public=False)
        .order_by("-updated_at")[:20]
    )
    context = {"tables": _tables(posted or {}), "mine": mine, "watching": watching}
    return render(request, "play/home.html", context, status=status)


# What the new-game form may be opened with (``?system=…&players=…``: "play again").
PRESELECT_NUMBERS = ("players", "bots", "minutes")
PRESELECT_TEXTS = ("system", "bot", "mode")


def _preselected(query: Mapping[str, str]) -> dict[str, Any]:
    """The new-game form's choices given in the address; whatever is not a fitting value
    is left out (the form shows its defaults for it)."""
    chosen: dict[str, Any] = {}
    for key in PRESELECT_TEXTS:
        value = query.get(key, "")
        if value and len(value) <= 40 and re.fullmatch(r"[\w-]+", value):
            chosen[key] = value
    for key in PRESELECT_NUMBERS:
        value = query.get(key, "")
        if value.isascii() and value.isdigit() and len(value) <= 3:
            chosen[key] = int(value)
    return chosen


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return _home(request, posted=_preselected(request.GET))


def _parse_time_bank(value: str | None) -> int | None:
    try:
        minutes = int(value or 0)
    except ValueError:
        raise PlayError(_("The clock must be a whole number of minutes.")) from None
    if minutes < 0 or minutes > 600:
        raise PlayError(_("The clock must be between 0 and 600 minutes."))
    return minutes * 60 or None


def _deck_of(request: HttpRequest) -> casual_decks.DeckChoice | None:
    form = DeckForm(request.POST)
    return form.deck_choice() if form.is_valid() else None


@login_required
@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    """The new-game form: seats, how many are bots, how they sit, the deck, the clock."""
    form = CasualGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.first_error())
        return redirect("play:home")
    data = form.cleaned_data
    friends = data["players"] - data["bots"] - 1
    try:
        session = create_casual_game(
            request.user,
            data["system"],
            players=data["players"],
            bots=data["bots"],
            bot=data["bot"] or DEFAULT_BOT,
            mode=data["mode"],
            deck=form.deck_choice(),
            time_bank=form.time_bank(CASUAL_TIME_BANK if friends > 0 else None),
        )
    except casual_decks.DeckRefused as exc:
        return _home(request, 400, {**data, "refused": exc.problems})
    except PlayError as exc:
        messages.error(request, str(exc))
        return redirect("play:home")
    return redirect("play:game", session.pk)


def _start_game(request: HttpRequest, create: Callable[[], GameSession]) -> HttpResponse:
    """Run one of the services that start a game (``create`` also reads the form, whose
    errors are ``PlayError`` too): to the new table, or home with the reason shown."""
    try:
        session = create()
    except PlayError as exc:
        messages.error(request, str(exc))
        return redirect("play:home")
    return redirect("play:game", session.pk)


@login_required
@require_POST
def new_solo_game(request: HttpRequest) -> HttpResponse:
    return _start_game(
        request,
        lambda: create_solo_game(
            request.user,
            request.POST.get("system", ""),
            time_bank=_parse_time_bank(request.POST.get("minutes")),
        ),
    )


@login_required
@require_POST
def new_bot_game(request: HttpRequest) -> HttpResponse:
    return _start_game(
        request,
        lambda: create_bot_game(
            request.user,
            request.POST.get("system", ""),
            request.POST.get("bot", DEFAULT_BOT),
            time_bank=_parse_time_bank(request.POST.get("minutes")),
            deck=_deck_of(request),
        ),
    )


@login_required
@require_POST
def new_friend_game(request: HttpRequest) -> HttpResponse:
    return _start_game(
        request,
        lambda: create_friend_game(
            request.user,
            request.POST.get("system", ""),
            time_bank=_parse_time_bank(request.POST.get("minutes", "15")),
            deck=_deck_of(request),
        ),
    )


@login_required
@require_POST
def built_deck_game(request: HttpRequest) -> HttpResponse:
    """A deck sent from the deck builder (its signed ``ticket``, in the address the
    builder's 307 sent the post to): to the new table, against a bot or waiting for a
    friend; a refused deck goes back to the builder with the reason."""
    ticket = request.GET.get("ticket") or request.POST.get("ticket", "")
    try:
        session = play_built_deck(
            request.user,
            ticket,
            request.POST.get("opponent", ""),
            bot=request.POST.get("bot") or DEFAULT_BOT,
        )
    except NotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except PlayError as exc:
        messages.error(request, str(exc))
        back = _built_deck_page(request, ticket)
        return redirect(back or "play:home")
    return redirect("play:game", session.pk)


def _built_deck_page(request: HttpRequest, ticket: str) -> str | None:
    """The deck builder a ticket was sent from, if it names a page of this site."""
    try:
        url = str(unsign(ticket).origin.get("url") or "")
    except TicketError:
        return None
    if url.startswith("/") and url_has_allowed_host_and_scheme(url, allowed_hosts=None):
        return url
    return None


def _join_page(
    request: HttpRequest, session: GameSession, token: str, status: int = 200, **extra: Any
) -> HttpResponse:
    needs_deck = casual_decks.needs_deck(session.system)
    seats = list(session.seats.select_related("user").order_by("number"))
    context = {
        "session": session,
        "token": token,
        "seats": seats,
        "open_seats": sum(1 for s in seats if s.user_id is None and not s.is_bot),
        "needs_deck": needs_deck,
        "starters": _deck_options(session.system) if needs_deck else [],
        "built": _built_note(session) if needs_deck else None,
        "posted": {},
        **extra,
    }
    return render(request, "play/join.html", context, status=status)


def _built_note(session: GameSession) -> dict[str, str] | None:
    """What the join page says of a table whose creator plays a deck built from a pool:
    its format and where it was built, and the rules the joiner's own deck follows."""
    origin = session.deck_origin or {}
    if origin.get("kind") != "pod" or not session.deck_format:
        return None
    info = registry.get(session.system)
    language = _language()
    try:
        built = info.format(session.deck_format).label(language)
        own = info.format(info.casual_format).label(language)
    except registry.UnknownGameSystem:
        return None
    url = str(origin.get("url") or "")
    return {
        "format": built,
        "where": str(origin.get("label") or ""),
        "url": url if url.startswith("/") else "",
        "own": own,
    }


# What ``play.services.starting._new_token`` makes (URL-safe base64). Anything else is no invitation:
# a NUL byte in the address made PostgreSQL refuse the lookup, and the page answered 500.
INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,40}")


@login_required
def join(request: HttpRequest, token: str) -> HttpResponse:
    if not INVITE_TOKEN.fullmatch(token):
        raise Http404("No such invitation.")
    session = get_object_or_404(GameSession, invite_token=token)
    if request.method == "POST":
        form = DeckForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Check the decklist."))
            return _join_page(request, session, token, 400)
        try:
            session = join_game(request.user, token, deck=form.deck_choice())
        except casual_decks.DeckRefused as exc:
            return _join_page(
                request, session, token, 400, refused=exc.problems, posted=form.cleaned_data
            )
        except PlayError as exc:
            messages.error(request, str(exc))
            return redirect("play:home")
        return redirect("play:game", session.pk)
    return _join_page(request, session, token)


@require_GET
def game(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(GameSession, pk=session_id)
    seat = _viewer_seat(request, session)
    if seat is None:
        _check_watcher(request, session)
        return redirect("play:spectate", session.pk)
    context = table_context(session, seat)
    if session.created_by_id == request.user.pk:
        context["built_deck"] = _built_note(session)
    if session.invite_token and session.status == GameSession.Status.WAITING:
        context["invite_url"] = request.build_absolute_uri(
            reverse("play:join", args=[session.invite_token])
        )
    return render(request, "play/game.html", context)


@require_GET
def spectate(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(GameSession, pk=session_id)
    _check_watcher(request, session)
    return render(request, "play/game.html", table_context(session, None, spectate=True))


@require_GET
def table(request: HttpRequest, session_id: int) -> HttpResponse:
    """The table fragment for whoever asks: their own seat's view, or the public one."""
    session = get_object_or_404(GameSession, pk=session_id)
    seat = None if request.GET.get("spectate") else _viewer_seat(request, session)
    if seat is None:
        _check_watcher(request, session)
    context = table_context(session, seat, spectate=seat is None)
    return render(request, "play/_panel.html", context)


@require_GET
def state(request: HttpRequest, session_id: int) -> JsonResponse:
    """The viewer's payload as JSON (the same as the websocket sends)."""
    session = get_object_or_404(GameSession, pk=session_id)
    seat = _viewer_seat(request, session)
    if seat is None:
        _check_watcher(request, session)
    return JsonResponse(payload(session, seat))


def _wants_json(request: HttpRequest) -> bool:
    return (
        request.content_type == "application/json"
        or request.headers.get("X-Requested-With") == "fetch"
        or "application/json" in request.headers.get("Accept", "")
    )


@login_required
@require_POST
def act(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(GameSession, pk=session_id)
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"{}")
        except (ValueError, RecursionError):
            body = {}
        if not isinstance(body, dict):
            body = {}
        seq, action = body.get("seq"), body.get("action")
    else:
        seq = request.POST.get("seq")
        try:
            action = json.loads(request.POST.get("action", ""))
        except (ValueError, RecursionError):
            action = None
    try:
        seat = submit_action(request.user, session, seq, action)
    except PlayError as exc:
        status = 403 if isinstance(exc, NotAllowed) else 409
        if _wants_json(request):
            return JsonResponse({"error": str(exc)}, status=status)
        messages.error(request, str(exc))
        return redirect("play:game", session.pk)
    if _wants_json(request):
        return JsonResponse({"queued": True, "seat": seat, "seq": parse_seq(seq)}, status=202)
    return redirect("play:game", session.pk)


def _seat_change(request: HttpRequest, session_id: int, change: Callable) -> GameSession | None:
    """``change(user, session)`` of a seat's own (concede, call off, give a seat back): the
    session, or None with the refusal put in the messages."""
    session = get_object_or_404(GameSession, pk=session_id)
    try:
        change(request.user, session)
    except PlayError as exc:
        messages.error(request, str(exc))
        return None
    return session


@login_required
@require_POST
def concede(request: HttpRequest, session_id: int) -> HttpResponse:
    _seat_change(request, session_id, concede_game)
    return redirect("play:game", session_id)


@login_required
@require_POST
def abort(request: HttpRequest, session_id: int) -> HttpResponse:
    """The creator calls off a game still waiting for its seats (``acting.abort``)."""
    _seat_change(request, session_id, abort_game)
    return redirect("play:game", session_id)


@login_required
@require_POST
def leave_seat(request: HttpRequest, session_id: int) -> HttpResponse:
    """A friend gives back the seat they took at a table still waiting for its players."""
    if _seat_change(request, session_id, give_up_seat) is None:
        return redirect("play:game", session_id)
    messages.success(request, _("You gave your seat back; the invitation can fill it again."))
    return redirect("play:home")


def _replay_problem(
    request: HttpRequest, session: GameSession | None, title: str, text: str, status: int
) -> HttpResponse:
    """A replay that cannot be shown as asked, said in words (never a bare 404)."""
    context = {"session": session, "title": title, "text": text}
    if session is not None and session.status == GameSession.Status.RUNNING:
        context["live"] = reverse("play:spectate", args=[session.pk])
    return render(request, "play/replay_problem.html", context, status=status)


def _replay_step(raw: str | None, last: int) -> int | None:
    """The step asked for (``?step=k``: the state after ``k`` moves), ``last`` when none
    is given; ``None`` for anything that is not a step of this game."""
    if raw is None or raw == "":
        return last
    raw = raw.strip()
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        return None
    step = int(raw)
    return step if step <= last else None


def replay_context(session: GameSession, step: int) -> dict[str, Any]:
    """The game's own table at ``step`` (the state after that many moves, rebuilt from the
    seed and the action log) in the public view, with no legal actions, and the log of
    the moves up to it: its last ``TABLE_LOG_ROWS``, as the live table shows (0065)."""
    system = engine_of(session.system)
    seats = list(session.seats.select_related("user").order_by("number"))
    state = replay_state(session, step)
    result = system.result(state)
    finished = result.finished or step == session.seq
    public = system.view(state, None)
    data = {
        "session": session.pk,
        "seq": step,
        "status": session.status,
        "to_act": [] if finished else list(system.to_act(state)),
        "clocks": [],
        "result": session.result if finished else None,
        "end_reason": session.end_reason if finished else "",
        "next": None,
        "seat": None,
        "view": public,
        "legal": [],
    }
    # Of the log, the last moves up to the step and what the moves before them named,
    # as the live table reads it (0065): a late step reads no more of the log.
    log = table_log(session, total=step)
    context = _table_context(
        session,
        None,
        system,
        data,
        log.rows,
        seats,
        set(result.eliminated),
        spectate=True,
        named=log.named,
        total=log.total,
    )
    base = reverse("play:replay", args=[session.pk])
    context.update(
        step=step,
        total=session.seq,
        previous=step - 1 if step > 0 else None,
        following=step + 1 if step < session.seq else None,
        replay_url=base,
        fragment_url=reverse("play:replay_step", args=[session.pk]),
    )
    if step == session.seq:
        ending = _ending(session, seats, None, data)
        if ending is not None:
            ending["replay"] = None  # this is the replay
        context["ending"] = ending
    return context


def _replay(request: HttpRequest, session_id: int, template: str) -> HttpResponse:
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None or not may_watch(request.user, session):
        return _replay_problem(
            request, None, _("No such game"), _("There is no game with this number."), 404
        )
    if not session.is_over:
        return _replay_problem(
            request,
            session,
            _("The replay is not ready yet"),
            _("The replay opens when the game ends."),
            404,
        )
    if session.state is None or session.started_at is None:
        return _replay_problem(
            request,
            session,
            _("Nothing to replay"),
            _("This game was called off before it started: no move was made."),
            404,
        )
    step = _replay_step(request.GET.get("step"), session.seq)
    if step is None:
        return _replay_problem(
            request,
            session,
            _("No such move"),
            _("This game has moves 0 to %(last)s: choose one of them.") % {"last": session.seq},
            400,
        )
    return render(request, template, replay_context(session, step))


@require_GET
def replay(request: HttpRequest, session_id: int) -> HttpResponse:
    """Step through a finished game on its own table: states recomputed from the seed and
    the action log, the public view only, whoever asks (the players included)."""
    return _replay(request, session_id, "play/replay.html")


@require_GET
def replay_step(request: HttpRequest, session_id: int) -> HttpResponse:
    """One step of the replay as the fragment the replay page swaps in (``replay.js``)."""
    return _replay(request, session_id, "play/_replay_frame.html")


@login_required
@require_POST
def rematch_game(request: HttpRequest, session_id: int) -> HttpResponse:
    """The same table again: at once against bots, else waiting for the other players."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None:
        messages.error(request, _("There is no game with this number."))
        return redirect("play:home")
    try:
        new = rematch(request.user, session)
    except PlayError as exc:
        messages.error(request, str(exc))
        return redirect("play:game", session.pk)
    return redirect("play:game", new.pk)


@login_required
def match_game(request: HttpRequest, match_id: int) -> HttpResponse:
    """A tournament match played online: the current game, started by a player on request."""
    match = get_object_or_404(Match.objects.select_related("round__event"), pk=match_id)
    is_player = match.seats.filter(registration__user=request.user).exists()
    if not may_see_match(request.user, match, is_player):
        raise Http404("No such match.")
    current = match.play_sessions.order_by("-game_number").first()
    if request.method == "POST":
        if not is_player:
            messages.error(request, _("Only the players of this match can start its games."))
        else:
            try:
                current = start_match(match) or current
            except PlayError as exc:
                messages.error(request, str(exc))
    if current is not None:
        return redirect("play:game", current.pk)
    return render(request, "play/match.html", {"match": match, "is_player": is_player})
