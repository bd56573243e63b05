"""A security net over every URL of the site: each pattern, each role, each method.

The patterns are read from ``django.urls.get_resolver()`` (through every include; the
admin only at its index), and every converter is filled from a database the offline
demo filled (``manage.py demo --offline``), with what it lacks added on top: a running
event with a published and an unpublished (draft) round, an unlisted event with an
online game, an unlisted Sealed event's pod, an event open for registration, casual
games (running, finished, waiting for a friend, Ascension), and casual pods in every
state, two of them drafted by their creator. Each pattern is filled with real
objects, a nonexistent id and, where the converter allows, an odd value; a pattern
the walk cannot fill fails ``test_every_pattern_has_a_filler``, so the net stays
complete when a page is added.

Roles, each its own ``Client`` through the real middleware: anonymous, an outsider
(logged in, no relation to anything), a player (registered in the events, seated in
the pods and games), a spectator (another player of the demo event, at none of the
games and in none of the casual pods), the organiser (of the events, creator of the
pods) and a staff member (``is_staff``, for the staff dashboard).

What the net guarantees:

* no GET, no POST (empty, form junk or JSON junk, with a CSRF token) and no GET of an
  API route with odd paging or query parameters answers 5xx (or raises);
* a POST without a CSRF token is refused with 403 (an anonymous request to the API,
  which has no session to protect, with a 4xx) and changes nothing in the database;
* organiser consoles, the staff dashboard, the admin, the audit log, decklists, seats,
  pick logs and pod consoles answer 2xx only to the roles that may see them; event
  management actions are refused to everyone but the officials;
* a match of an unpublished round is the officials' alone (pages and API); a drafter
  never reads another seat's picks (or its pool's colours) before the pod finishes; a
  spectator never gets a player's hand; the API's paged lists refuse odd ``limit`` and
  ``offset`` values with 400; an unlisted event's games and pods are on no list.

Every POST runs in a savepoint that is rolled back (the GETs of one address share one),
and the client's cookies are restored, so each request finds the same world; the
world itself is built once per module (per xdist worker) in a transaction rolled back
at the end. Failures are collected and reported together, each with its method, URL
and role. API rate limits are lifted for the walk (a 429 would hide the answer).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import io
import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils import timezone
from rest_framework.views import APIView

from dashboard.models import ErrorRecord
from dashboard.views import PANELS
from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.changes import bot_choice
from drafting.services.creating import create_event_pods, create_pod, quick_pod
from drafting.services.decks import finish_building
from drafting.services.picks import make_pick
from drafting.services.seats import join_pod
from drafting.services.starting import start_event_pods, start_pod
from engine.core import registry
from play.models import GameSession
from play.services.acting import apply_action, concede
from play.services.starting import create_bot_game, create_friend_game, start_match
from tests.play.helpers import legal_deck_text
from tournaments.models import Event, EventStaff, Match, MatchSeat, Registration, Round
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import add_staff, create_event
from tournaments.services.pairing import pair_next_round, publish_round, swap_players
from tournaments.services.penalties import issue_penalty, penalty_types
from tournaments.services.players import register
from tournaments.services.results import enter_result
from tournaments.services.series import add_event as add_series_event
from tournaments.services.series import create_series
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "spectator", "organiser", "staff")
MISSING = 999_999  # an id nothing has
HUGE = 99_999_999_999_999_999_999  # an id no database column holds
ODD_TEXT = "\x00"  # a NUL: PostgreSQL text cannot hold it
LOGIN = "/accounts/login/"

# ---------------------------------------------------------------- the world


@dataclass
class World:
    """What the walk fills the patterns with, each object under the name (tag) the
    rules know it by."""

    users: dict[str, Any]  # role -> user (anonymous: None)
    judge: Any
    event: dict[str, Event]  # demo, live, unlisted, open
    reg: dict[tuple[str, str], Registration]  # (event, role) -> registration
    match: dict[str, Match]
    round_number: dict[str, int]
    pod: dict[str, Pod]
    seat: dict[tuple[str, str], Seat]  # (pod, role or "bot") -> seat
    session: dict[str, GameSession]
    error: ErrorRecord
    penalty: dict[str, Any] = field(default_factory=dict)  # "issued", "type"
    series: dict[str, Any] = field(default_factory=dict)  # "league"


def _draft_humans(pod: Pod) -> Pod:
    """Every human seat picks as a bot would whenever it holds a pack (bots inline)."""
    for _ in range(1000):
        pod = Pod.objects.get(pk=pod.pk)
        if pod.status != Pod.Status.DRAFTING:
            return pod
        for seat in pod.seats.filter(is_bot=False, user__isnull=False).select_related("user"):
            pack = draft_core.current_pack(pod.state, seat.number)
            if pack is None:
                continue
            card = bot_choice(pod, seat.number, pack["cards"])
            number = draft_core.pick_number(pod.state, seat.number)
            make_pick(seat.user, pod, number, card)
            break
    raise AssertionError("the draft did not end")


def _play_until_every_hand_holds_cards(session: GameSession) -> GameSession:
    """Moves chosen like the heuristic bot, for every seat, until both hold cards."""
    from engine.voskhozhdenie.bots import make_bot
    from engine.voskhozhdenie.game import SYSTEM

    brain = make_bot("heuristic", SYSTEM, 3)
    for _ in range(400):
        session = GameSession.objects.get(pk=session.pk)
        assert session.status == GameSession.Status.RUNNING
        if all(p["hand"] for p in session.state["players"]):
            return session
        (seat,) = SYSTEM.to_act(session.state)
        action = brain.choose(session.state, seat)
        assert apply_action(session.pk, seat, session.seq, action).status == "applied"
    raise AssertionError("nobody drew a card")


def _drafted_pod(creator, other, name: str) -> Pod:
    """A casual pod of three seats, drafted to the end: its creator and ``other`` draft
    in it, a bot takes the third seat. Left in deck building."""
    pod = create_pod(creator, name=name, seats_count=3, bots_inline=True)
    join_pod(other, pod)
    pod = _draft_humans(start_pod(creator, pod))
    assert pod.status == Pod.Status.BUILDING
    return pod


def build_world() -> World:
    user_model = get_user_model()
    call_command(
        "demo",
        "--offline",
        "--no-serve",
        *("--players", "8", "--rounds", "2", "--top", "2", "--seed", "11"),
        stdout=io.StringIO(),
    )
    organiser = user_model.objects.get(username="organiser")
    player = user_model.objects.get(username="player01")
    spectator = user_model.objects.get(username="player02")
    outsider = user_model.objects.create_user("outsider", password="pw-outsider")
    staff = user_model.objects.create_user("staffer", password="pw-staffer", is_staff=True)
    judge = user_model.objects.create_user("judge", password="pw-judge")
    users = {
        "anonymous": None,
        "outsider": outsider,
        "player": player,
        "spectator": spectator,
        "organiser": organiser,
        "staff": staff,
    }

    # The demo's finished Draft event: the player's last match, pod and registration.
    demo = Event.objects.get(name__startswith="Demo Open")
    reg = {
        ("demo", "player"): demo.registrations.get(user=player),
        ("demo", "spectator"): demo.registrations.get(user=spectator),
    }
    match = {
        "demo": Match.objects.filter(seats__registration=reg["demo", "player"])
        .order_by("-round__number")
        .first()
    }

    # A running event: round 1 played, round 2 paired but not published (a draft).
    live = create_event(organiser, name="Live Cup", swiss_rounds=3, best_of=1)
    add_staff(organiser, live, judge, EventStaff.Role.JUDGE)
    reg["live", "player"] = register(live, user=player)
    reg["live", "spectator"] = register(live, user=spectator)
    guests = [register(live, display_name=f"Guest {n}", actor=organiser) for n in (1, 2)]
    live = start_event(organiser, live)
    first = publish_round(organiser, pair_next_round(organiser, live))
    for played in first.matches.filter(is_bye=False):
        enter_result(organiser, played, [0])
    second = pair_next_round(organiser, live)
    seats = dict(MatchSeat.objects.filter(round=second).values_list("registration_id", "match_id"))
    if seats[reg["live", "player"].pk] == seats[reg["live", "spectator"].pk]:
        swap_players(organiser, second, reg["live", "spectator"], guests[0])
        seats = dict(
            MatchSeat.objects.filter(round=second).values_list("registration_id", "match_id")
        )
    match["live-draft"] = Match.objects.get(pk=seats[reg["live", "player"].pk])
    match["live-published"] = first.matches.filter(seats__registration=reg["live", "player"]).get()
    assert match["live-draft"].round.status == Round.Status.DRAFT
    # The judge's log of the live event: a warning to the player in round 1.
    warning = penalty_types(live)[0]
    penalty = {
        "type": warning,
        "issued": issue_penalty(
            judge, warning, reg["live", "player"], "Slow play", match["live-published"]
        ),
    }

    # An event open for registration: the player and a guest are in.
    upcoming = create_event(organiser, name="Open Day", swiss_rounds=3)
    reg["open", "player"] = register(upcoming, user=player)
    register(upcoming, display_name="Guest O", actor=organiser)

    # An unlisted event played online: its only match has a game running.
    unlisted = create_event(
        organiser,
        name="Back Room",
        is_public=False,
        format="blitz",
        swiss_rounds=1,
        best_of=1,
        play_online=True,
    )
    reg["unlisted", "player"] = register(unlisted, user=player)
    guest = register(unlisted, display_name="Guest U", actor=organiser)
    submit_decklist(player, reg["unlisted", "player"], legal_deck_text(1))
    submit_decklist(organiser, guest, legal_deck_text(2))
    unlisted = start_event(organiser, unlisted)
    only = publish_round(organiser, pair_next_round(organiser, unlisted))
    match["unlisted"] = only.matches.get()
    session = {"event": start_match(match["unlisted"])}

    # Casual games of the player: against a bot, in Ascension, conceded, for a friend.
    session["bot"] = _play_until_every_hand_holds_cards(create_bot_game(player, "voskhozhdenie"))
    session["ascension"] = create_bot_game(player, "ascension")
    session["finished"] = create_bot_game(player, "voskhozhdenie")
    concede(player, session["finished"])
    session["friend"] = create_friend_game(player, "voskhozhdenie")

    # Pods: the demo's; casual ones waiting, drafting, sealed, building and finished (the
    # last two drafted by their creator, the organiser, with the player and a bot).
    pod = {"demo": Pod.objects.get(event=demo)}
    pod["waiting"] = create_pod(organiser, name="Open table")
    join_pod(player, pod["waiting"])
    pod["drafting"] = quick_pod(player)
    pod["sealed"] = quick_pod(player, kind=Pod.Kind.SEALED)
    pod["building"] = _drafted_pod(organiser, player, "Still building")
    pod["finished"] = _drafted_pod(organiser, player, "All built")
    Pod.objects.filter(pk=pod["finished"].pk).update(build_deadline=timezone.now())
    assert finish_building(pod["finished"].pk)
    # An unlisted Sealed event of bots: its pod is built (and finished) at the start.
    secret = create_event(
        organiser, name="Secret Sealed", is_public=False, format="sealed", swiss_rounds=1
    )
    for n in (1, 2):
        register(secret, display_name=f"Bot {n}", actor=organiser, is_bot=True)
    create_event_pods(organiser, secret, bots_inline=True)
    (pod["secret"],) = start_event_pods(organiser, secret)
    for key in pod:
        pod[key] = Pod.objects.get(pk=pod[key].pk)
    seat = {}
    for key, one in pod.items():
        for s in one.seats.all():
            role = next((r for r, u in users.items() if u is not None and u.pk == s.user_id), None)
            if role is not None:
                seat[key, role] = s
            elif s.is_bot and (key, "bot") not in seat:
                seat[key, "bot"] = s
    error = ErrorRecord.objects.create(
        source=ErrorRecord.Source.REQUEST,
        logger="django.request",
        message="Internal Server Error: /somewhere/",
        exception="ValueError: boom",
        traceback="Traceback (most recent call last):\nValueError: boom",
        fingerprint="walk",
        method="GET",
        path="/somewhere/",
        status_code=500,
        username="outsider",
    )
    league = create_series(organiser, "Walk League")
    add_series_event(organiser, league, demo)
    return World(
        users=users,
        judge=judge,
        event={"demo": demo, "live": live, "unlisted": unlisted, "open": upcoming},
        reg=reg,
        match=match,
        round_number={"demo": demo.rounds.count(), "live-published": 1, "live-draft": 2},
        pod=pod,
        seat=seat,
        session={k: GameSession.objects.get(pk=v.pk) for k, v in session.items()},
        error=error,
        penalty=penalty,
        series={"league": league},
    )


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The world, built once per module (per xdist worker) inside a transaction that is
    rolled back at the end: nothing of it outlives the module."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build_world()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


# ---------------------------------------------------------------- the patterns


def all_routes() -> dict[str, URLPattern]:
    """Every route of the site (through the includes), but the admin's inner pages."""
    found: dict[str, URLPattern] = {}

    def walk(patterns: Iterable[Any], prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif route.startswith("static/") or (route.startswith("admin/") and route != "admin/"):
                continue
            else:
                found.setdefault(route, p)

    walk(get_resolver().url_patterns, "")
    return found


CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


@dataclass(frozen=True)
class Target:
    """One filled pattern: ``tags`` say which objects it names ("event": "live")."""

    route: str
    url: str
    tags: tuple[tuple[str, str], ...]
    real: bool  # every value names an existing object

    def tag(self, name: str) -> str | None:
        return dict(self.tags).get(name)


Fill = tuple[dict[str, Any], dict[str, str], bool]  # kwargs, tags, real
Filler = Callable[[World], list[Fill]]


def _events(key: str) -> Filler:
    def fill(w: World) -> list[Fill]:
        fills: list[Fill] = [({key: e.slug}, {"event": n}, True) for n, e in w.event.items()]
        fills.append(({key: "no-such-event"}, {"event": "missing"}, False))
        fills.append(({key: "x" * 300}, {"event": "odd"}, False))
        return fills

    return fill


def _event_regs(key: str) -> Filler:
    def fill(w: World) -> list[Fill]:
        fills: list[Fill] = [
            ({key: w.event[ev].slug, "pk": r.pk}, {"event": ev, "reg": role}, True)
            for (ev, role), r in w.reg.items()
        ]
        demo, mine = w.event["demo"].slug, w.reg["demo", "player"].pk
        other = w.reg["live", "player"].pk  # a registration of another event
        return [
            *fills,
            ({key: demo, "pk": other}, {"event": "demo", "reg": "other-event"}, False),
            ({key: demo, "pk": MISSING}, {"event": "demo", "reg": "missing"}, False),
            ({key: demo, "pk": HUGE}, {"event": "demo", "reg": "odd"}, False),
            ({key: "no-such-event", "pk": mine}, {"event": "missing"}, False),
        ]

    return fill


def _event_rounds(key: str) -> Filler:
    def fill(w: World) -> list[Fill]:
        demo, live, last = w.event["demo"].slug, w.event["live"].slug, w.round_number["demo"]
        return [
            ({key: demo, "number": 1}, {"event": "demo", "round": "published"}, True),
            ({key: demo, "number": last}, {"event": "demo", "round": "final"}, True),
            ({key: live, "number": 1}, {"event": "live", "round": "published"}, True),
            ({key: live, "number": 2}, {"event": "live", "round": "draft"}, True),
            ({key: w.event["unlisted"].slug, "number": 1}, {"event": "unlisted"}, True),
            ({key: demo, "number": MISSING}, {"event": "demo", "round": "missing"}, False),
            ({key: demo, "number": 0}, {"event": "demo", "round": "zero"}, False),
            ({key: demo, "number": HUGE}, {"event": "demo", "round": "odd"}, False),
            ({key: "no-such-event", "number": 1}, {"event": "missing"}, False),
        ]

    return fill


def _event_matches(key: str) -> Filler:
    def fill(w: World) -> list[Fill]:
        demo, live, m = w.event["demo"].slug, w.event["live"].slug, w.match
        return [
            ({key: demo, "pk": m["demo"].pk}, {"event": "demo", "match": "final"}, True),
            ({key: live, "pk": m["live-published"].pk}, {"event": "live"}, True),
            ({key: live, "pk": m["live-draft"].pk}, {"event": "live", "match": "draft"}, True),
            ({key: w.event["unlisted"].slug, "pk": m["unlisted"].pk}, {"event": "unlisted"}, True),
            ({key: demo, "pk": m["live-draft"].pk}, {"event": "demo", "match": "other"}, False),
            ({key: demo, "pk": MISSING}, {"event": "demo", "match": "missing"}, False),
            ({key: demo, "pk": HUGE}, {"event": "demo", "match": "odd"}, False),
        ]

    return fill


def _event_penalties(key: str) -> Filler:
    """The live event's penalty (or penalty type): under its event, under another, missing."""

    def fill(w: World) -> list[Fill]:
        live, demo, pk = w.event["live"].slug, w.event["demo"].slug, w.penalty[key].pk
        return [
            ({"event_slug": live, "pk": pk}, {"event": "live"}, True),
            ({"event_slug": demo, "pk": pk}, {"event": "demo", "penalty": "other"}, False),
            ({"event_slug": live, "pk": MISSING}, {"event": "live", "penalty": "missing"}, False),
            ({"event_slug": live, "pk": HUGE}, {"event": "live", "penalty": "odd"}, False),
        ]

    return fill


def _pods(w: World) -> list[Fill]:
    fills: list[Fill] = [({"pk": p.pk}, {"pod": name}, True) for name, p in w.pod.items()]
    return [*fills, ({"pk": MISSING}, {"pod": "missing"}, False), ({"pk": HUGE}, {}, False)]


def _pod_seats(key: str, base: int) -> Filler:
    """Seats by number: 0-based in the pages, 1-based (``base`` 1) in the API. Every
    seat of the pods with picks to hide, the player's elsewhere."""

    def fill(w: World) -> list[Fill]:
        fills: list[Fill] = [
            ({"pk": w.pod[p].pk, key: s.number + base}, {"pod": p, "seat": who}, True)
            for (p, who), s in w.seat.items()
            if who == "player" or p in ("building", "finished", "drafting")
        ]
        building = w.pod["building"].pk
        fills += [
            ({"pk": building, key: MISSING}, {"pod": "building", "seat": "missing"}, False),
            ({"pk": building, key: HUGE}, {"pod": "building", "seat": "odd"}, False),
            ({"pk": MISSING, key: base}, {"pod": "missing"}, False),
        ]
        if base:
            fills.append(({"pk": building, key: 0}, {"pod": "building", "seat": "zero"}, False))
        return fills

    return fill


def _sessions(w: World) -> list[Fill]:
    fills: list[Fill] = [({"session_id": s.pk}, {"session": n}, True) for n, s in w.session.items()]
    return [*fills, ({"session_id": MISSING}, {}, False), ({"session_id": HUGE}, {}, False)]


def _tokens(w: World) -> list[Fill]:
    return [
        ({"token": w.session["friend"].invite_token}, {"session": "friend"}, True),
        ({"token": "no-such-token"}, {}, False),
        ({"token": ODD_TEXT}, {}, False),
        ({"token": "é" * 300}, {}, False),
    ]


def _matches(w: World) -> list[Fill]:
    fills: list[Fill] = [({"match_id": m.pk}, {"match": n}, True) for n, m in w.match.items()]
    return [*fills, ({"match_id": MISSING}, {}, False), ({"match_id": HUGE}, {}, False)]


def _errors(w: World) -> list[Fill]:
    return [({"pk": w.error.pk}, {}, True), ({"pk": MISSING}, {}, False), ({"pk": HUGE}, {}, False)]


def _panels(w: World) -> list[Fill]:
    fills: list[Fill] = [({"name": name}, {}, True) for name in PANELS]
    return [*fills, ({"name": "nope"}, {}, False), ({"name": ODD_TEXT}, {}, False)]


def _games(key: str) -> Filler:
    """Every registered game's key (a leaderboard), an unknown one and an odd one."""

    def fill(w: World) -> list[Fill]:
        fills: list[Fill] = [({key: info.key}, {}, True) for info in registry.all_systems()]
        return [*fills, ({key: "nope"}, {}, False), ({key: ODD_TEXT}, {}, False)]

    return fill


def _players(key: str) -> Filler:
    """A player's and the organiser's profile, an unknown name and an odd one."""

    def fill(w: World) -> list[Fill]:
        real = [({key: w.users[r].username}, {}, True) for r in ("player", "organiser")]
        return [*real, ({key: "no-such-player"}, {}, False), ({key: ODD_TEXT}, {}, False)]

    return fill


def _series(key: str, event_key: str | None = None) -> Filler:
    """The walk's series (with its event, if ``event_key``), a missing and an odd one."""

    def fill(w: World) -> list[Fill]:
        slug = w.series["league"].slug
        extra = {event_key: w.event["demo"].slug} if event_key else {}
        return [
            ({key: slug, **extra}, {"series": "league"}, True),
            ({key: "no-such-series", **extra}, {"series": "missing"}, False),
            ({key: "x" * 300, **extra}, {"series": "odd"}, False),
        ]

    return fill


def _printouts(key: str) -> Filler:
    """Every printout of the finished demo event; the live event's slips and pairings (a
    round under review); the open event's pairings (no round yet) and decklist sheets; an
    unknown printout and a missing event."""

    def fill(w: World) -> list[Fill]:
        asks = [("demo", kind) for kind in PRINT_KINDS]
        asks += [("live", "slips"), ("live", "pairings"), ("open", "pairings")]
        asks += [("open", "decklists")]
        fills: list[Fill] = [
            ({key: w.event[ev].slug, "kind": kind}, {"event": ev, "printout": kind}, True)
            for ev, kind in asks
        ]
        demo = w.event["demo"].slug
        fills.append(({key: demo, "kind": "nope"}, {"event": "demo", "printout": "nope"}, False))
        fills.append(({key: "no-such-event", "kind": "slips"}, {"event": "missing"}, False))
        return fills

    return fill


PRINT_KINDS = ("pairings", "pairings-by-name", "slips", "standings", "decklists")
SELF_ACTIONS = ("check-in", "drop")
MANAGE_ACTIONS = (
    "start", "make-pods", "start-pods", "pair", "publish", "repair", "swap", "time", "result",
    "correct", "add-player", "check-in", "drop", "readd", "settings", "staff", "lock-decklists",
    "penalty", "revoke-penalty", "penalty-type", "remove-penalty-type", "replace-member",
    "fixed-table",
)  # fmt: skip
POD_ACTIONS = ("join", "leave", "reclaim", "bot", "start", "cities")


def _actions(objects: Filler, actions: tuple[str, ...]) -> Filler:
    """Every action on every real object; an unknown and an odd action on the first;
    the first action on the objects that do not exist."""

    def fill(w: World) -> list[Fill]:
        fills: list[Fill] = []
        named = objects(w)
        real = [(kw, tags) for kw, tags, is_real in named if is_real]
        for kwargs, tags in real:
            fills += [({**kwargs, "action": a}, {**tags, "action": a}, True) for a in actions]
        kwargs, tags = real[0]
        fills += [
            ({**kwargs, "action": "nope"}, {**tags, "action": "nope"}, False),
            ({**kwargs, "action": ODD_TEXT}, {**tags, "action": "odd"}, False),
        ]
        for kwargs, tags, is_real in named:
            if not is_real:
                fills.append(({**kwargs, "action": actions[0]}, tags, False))
        return fills

    return fill


# Every route with converters, and how the walk fills it. A route missing here fails
# test_every_pattern_has_a_filler: add it (and its rules below) with the page.
EVENT_API = "api/events/<slug:event_slug>"
FILLERS: dict[str, Filler] = {
    "api/drafts/pods/<int:pk>/": _pods,
    "api/drafts/pods/<int:pk>/seat/": _pods,
    "api/drafts/pods/<int:pk>/pick/": _pods,
    "api/drafts/pods/<int:pk>/seats/<int:number>/picks/": _pod_seats("number", 1),
    "api/events/<slug:slug>/": _events("slug"),
    "api/events/<slug:slug>/start/": _events("slug"),
    f"{EVENT_API}/standings/": _events("event_slug"),
    f"{EVENT_API}/audit/": _events("event_slug"),
    f"{EVENT_API}/registrations/": _events("event_slug"),
    f"{EVENT_API}/registrations/add/": _events("event_slug"),
    f"{EVENT_API}/registrations/team/": _events("event_slug"),
    f"{EVENT_API}/registrations/<int:pk>/": _event_regs("event_slug"),
    f"{EVENT_API}/registrations/<int:pk>/check-in/": _event_regs("event_slug"),
    f"{EVENT_API}/registrations/<int:pk>/decklist/": _event_regs("event_slug"),
    f"{EVENT_API}/registrations/<int:pk>/decks/": _event_regs("event_slug"),
    f"{EVENT_API}/registrations/<int:pk>/drop/": _event_regs("event_slug"),
    f"{EVENT_API}/registrations/<int:pk>/readd/": _event_regs("event_slug"),
    f"{EVENT_API}/registrations/<int:pk>/replace-member/": _event_regs("event_slug"),
    f"{EVENT_API}/rounds/": _events("event_slug"),
    f"{EVENT_API}/rounds/<int:number>/": _event_rounds("event_slug"),
    f"{EVENT_API}/rounds/<int:number>/call-time/": _event_rounds("event_slug"),
    f"{EVENT_API}/rounds/<int:number>/pairings/": _event_rounds("event_slug"),
    f"{EVENT_API}/rounds/<int:number>/publish/": _event_rounds("event_slug"),
    f"{EVENT_API}/rounds/<int:number>/repair/": _event_rounds("event_slug"),
    f"{EVENT_API}/matches/<int:pk>/": _event_matches("event_slug"),
    f"{EVENT_API}/matches/<int:pk>/confirm/": _event_matches("event_slug"),
    f"{EVENT_API}/matches/<int:pk>/report/": _event_matches("event_slug"),
    f"{EVENT_API}/matches/<int:pk>/result/": _event_matches("event_slug"),
    f"{EVENT_API}/penalty-types/": _events("event_slug"),
    f"{EVENT_API}/penalty-types/<int:pk>/": _event_penalties("type"),
    f"{EVENT_API}/penalties/": _events("event_slug"),
    f"{EVENT_API}/penalties/<int:pk>/": _event_penalties("issued"),
    f"{EVENT_API}/penalties/<int:pk>/revoke/": _event_penalties("issued"),
    "draft/<int:pk>/": _pods,
    "draft/<int:pk>/panel/": _pods,
    "draft/<int:pk>/overview/": _pods,
    "draft/<int:pk>/pick/": _pods,
    "draft/<int:pk>/highlight/": _pods,
    "draft/<int:pk>/do/<str:action>/": _actions(_pods, POD_ACTIONS),
    "draft/<int:pk>/manage/": _pods,
    "draft/<int:pk>/deck/": _pods,
    "draft/<int:pk>/deck/check/": _pods,
    "draft/<int:pk>/deck/play/": _pods,
    "draft/<int:pk>/log/<int:seat>.json": _pod_seats("seat", 0),
    "draft/<int:pk>/log/<int:seat>.txt": _pod_seats("seat", 0),
    "draft/<int:pk>/replay/<int:seat>/": _pod_seats("seat", 0),
    "play/join/<str:token>/": _tokens,
    "play/match/<int:match_id>/": _matches,
    "play/<int:session_id>/": _sessions,
    "play/<int:session_id>/table/": _sessions,
    "play/<int:session_id>/state/": _sessions,
    "play/<int:session_id>/act/": _sessions,
    "play/<int:session_id>/concede/": _sessions,
    "play/<int:session_id>/abort/": _sessions,
    "play/<int:session_id>/leave/": _sessions,
    "play/<int:session_id>/spectate/": _sessions,
    "play/<int:session_id>/replay/": _sessions,
    "play/<int:session_id>/replay/step/": _sessions,
    "play/<int:session_id>/rematch/": _sessions,
    "staff/panel/<str:name>/": _panels,
    "ratings/<str:game>/": _games("game"),
    "api/ratings/<str:game_system>/": _games("game_system"),
    "staff/errors/<int:pk>/": _errors,
    "players/<str:username>/": _players("username"),
    "api/players/<str:username>/": _players("username"),
    "series/<slug:slug>/": _series("slug"),
    "series/<slug:slug>/edit/": _series("slug"),
    "api/series/<slug:slug>/": _series("slug"),
    "api/series/<slug:slug>/events/": _series("slug"),
    "api/series/<slug:slug>/events/<slug:event_slug>/": _series("slug", "event_slug"),
    "events/<slug:slug>/": _events("slug"),
    "events/<slug:slug>/pairings/": _events("slug"),
    "events/<slug:slug>/pairings.csv": _events("slug"),
    "events/<slug:slug>/standings/": _events("slug"),
    "events/<slug:slug>/standings.csv": _events("slug"),
    "events/<slug:slug>/bracket/": _events("slug"),
    "events/<slug:slug>/players/<int:pk>/": _event_regs("slug"),
    "events/<slug:slug>/register/": _events("slug"),
    "events/<slug:slug>/me/<str:action>/": _actions(_events("slug"), SELF_ACTIONS),
    "events/<slug:slug>/decklist/": _events("slug"),
    "events/<slug:slug>/my-match/": _events("slug"),
    "events/<slug:slug>/manage/": _events("slug"),
    "events/<slug:slug>/penalties.csv": _events("slug"),
    "events/<slug:slug>/manage/<str:action>/": _actions(_events("slug"), MANAGE_ACTIONS),
    "events/<slug:slug>/print/<str:kind>/": _printouts("slug"),
    "events/<slug:slug>/print/<str:kind>.pdf": _printouts("slug"),
    f"{EVENT_API}/printouts/<str:kind>/": _printouts("event_slug"),
}


def _url(route: str, kwargs: dict[str, Any]) -> str:
    return "/" + CONVERTER.sub(lambda m: quote(str(kwargs[m.group(2)]), safe=""), route)


def targets(w: World) -> list[Target]:
    out = []
    for route in all_routes():
        if not CONVERTER.search(route):
            out.append(Target(route, "/" + route, (), True))
            continue
        for kwargs, tags, real in FILLERS[route](w):
            out.append(Target(route, _url(route, kwargs), tuple(sorted(tags.items())), real))
    return out


# ---------------------------------------------------------------- who may see what

# Pages that only some may open (a 2xx to anyone else is a leak), by what decides it.
EVENT_OFFICIALS_ONLY = {
    "events/<slug:slug>/manage/",
    "events/<slug:slug>/penalties.csv",
    "api/events/<slug:event_slug>/penalty-types/",
    "api/events/<slug:event_slug>/penalties/",
    "api/events/<slug:event_slug>/penalties/<int:pk>/",
}
EVENT_ORGANISERS_ONLY = {"api/events/<slug:event_slug>/audit/"}
STAFF_ONLY = {
    "admin/",
    "staff/",
    "staff/panel/<str:name>/",
    "staff/errors/",
    "staff/errors/<int:pk>/",
    "staff/metrics.json",
}
POD_MANAGERS_ONLY = {"draft/<int:pk>/manage/"}
SERIES_ORGANISERS_ONLY = {"series/<slug:slug>/edit/"}
POD_SEATED_ONLY = {
    "draft/<int:pk>/panel/",
    "draft/<int:pk>/deck/",
    "api/drafts/pods/<int:pk>/seat/",
}
PICK_LOGS = {
    "draft/<int:pk>/log/<int:seat>.json",
    "draft/<int:pk>/log/<int:seat>.txt",
    "draft/<int:pk>/replay/<int:seat>/",
    "api/drafts/pods/<int:pk>/seats/<int:number>/picks/",
}
# Printouts: the result slips and decklist sheets are the officials' (the pairings and
# standings are as public as their pages).
PRINTOUTS = {
    "events/<slug:slug>/print/<str:kind>/",
    "events/<slug:slug>/print/<str:kind>.pdf",
    "api/events/<slug:event_slug>/printouts/<str:kind>/",
}
OFFICIALS_PRINTOUTS = {"slips", "decklists"}
DECKLISTS = {
    "api/events/<slug:event_slug>/registrations/<int:pk>/decklist/",
    "api/events/<slug:event_slug>/registrations/<int:pk>/decks/",
}
# A round not yet published, and its matches, are the officials' alone.
UNPUBLISHED = {
    "play/match/<int:match_id>/",
    "api/events/<slug:event_slug>/rounds/<int:number>/",
    "api/events/<slug:event_slug>/rounds/<int:number>/pairings/",
    "api/events/<slug:event_slug>/matches/<int:pk>/",
}
# Changes only an event's officials may make: anyone else is refused (401, 403, 404, 405,
# or sent to log in), the console's actions with 403 before anything else.
OFFICIAL_CHANGES = {
    "events/<slug:slug>/manage/<str:action>/",
    "api/events/<slug:slug>/start/",
    "api/events/<slug:event_slug>/registrations/add/",
    "api/events/<slug:event_slug>/registrations/<int:pk>/readd/",
    "api/events/<slug:event_slug>/registrations/<int:pk>/replace-member/",
    "api/events/<slug:event_slug>/rounds/<int:number>/call-time/",
    "api/events/<slug:event_slug>/rounds/<int:number>/publish/",
    "api/events/<slug:event_slug>/rounds/<int:number>/repair/",
    "api/events/<slug:event_slug>/matches/<int:pk>/result/",
    "api/events/<slug:event_slug>/penalty-types/",
    "api/events/<slug:event_slug>/penalty-types/<int:pk>/",
    "api/events/<slug:event_slug>/penalties/",
    "api/events/<slug:event_slug>/penalties/<int:pk>/revoke/",
}
POD_MANAGERS = {
    "demo": {"organiser"},
    "waiting": {"organiser"},
    "drafting": {"player"},
    "sealed": {"player"},
    "building": {"organiser"},
    "finished": {"organiser"},
    "secret": {"organiser"},
}
# A seat's picks are its own player's; everybody's in a casual pod that finished and in
# a pod of an event that finished (the demo's), nobody else's before.
PICKS_SHOWN_TO_ALL = {"demo", "finished"}


def seated(w: World, pod: str) -> set[str]:
    return {role for (p, role) in w.seat if p == pod and role != "bot"}


def may_open(w: World, target: Target, role: str) -> bool:
    """May ``role`` get a 2xx for GET ``target``? (True where no rule applies.)"""
    route, event, pod = target.route, target.tag("event"), target.tag("pod")
    if route in STAFF_ONLY:
        return role == "staff"
    if route in EVENT_OFFICIALS_ONLY | EVENT_ORGANISERS_ONLY:
        return role == "organiser" and event in w.event
    if route in SERIES_ORGANISERS_ONLY:
        return role == "organiser"
    if route in POD_MANAGERS_ONLY:
        return role in POD_MANAGERS.get(pod, ())
    if route in POD_SEATED_ONLY:
        return pod in w.pod and role in seated(w, pod)
    if route in PICK_LOGS:
        seat = target.tag("seat")
        return pod in PICKS_SHOWN_TO_ALL or (seat == role and role in seated(w, pod))
    if route in DECKLISTS:
        return role in ("organiser", target.tag("reg"))
    if route in PRINTOUTS and target.tag("printout") in OFFICIALS_PRINTOUTS:
        return role == "organiser" and event in w.event
    unpublished = target.tag("round") == "draft" or target.tag("match") in ("draft", "live-draft")
    if route in UNPUBLISHED and unpublished:
        return role == "organiser"
    if route == "play/match/<int:match_id>/" and target.tag("match") == "unlisted":
        return role in ("organiser", "player")  # an unlisted event: its players' too
    if route.startswith("play/<int:session_id>/") and target.tag("session") == "event":
        return role in ("organiser", "player")  # a game of an unlisted event: the same
    if pod == "secret":
        return role in POD_MANAGERS["secret"]  # an unlisted event's pod: no seat is a person's
    return True


# ---------------------------------------------------------------- requests

# Who asks a page again with odd query parameters: the first of these it opens to; and
# who asks the API so.
QUERY_ROLES = ("player", "organiser", "staff", "spectator", "outsider", "anonymous")
API_QUERY_ROLES = ("anonymous", "player", "organiser")
HTMX = {"HTTP_HX_REQUEST": "true"}  # as a fragment refreshing itself asks


def roles_for(target: Target, method: str) -> tuple[str, ...]:
    """Who asks a filled pattern. A GET of a real object: every role (what each may see
    is checked). Otherwise fewer, one of each kind of access that takes the view down
    another path: the staff only on the staff's pages (elsewhere it is an outsider), and
    for a nonexistent id or an odd value, or one of a console's many actions (refused
    alike to all who may not act), the anonymous visitor (GET only), a player and an
    organiser."""
    staff = ("staff",) if target.route in STAFF_ONLY else ()
    if method == "GET" and target.real:
        return ROLES
    if target.real and target.tag("action") is None:
        return (*(r for r in ROLES if r != "staff"), *staff)
    if method == "GET" or target.tag("action") is not None:
        return ("anonymous", "player", "organiser", *staff)
    return ("player", "organiser", *staff)


@dataclass
class Clients:
    plain: dict[str, Client]
    strict: dict[str, Client]  # enforce_csrf_checks=True


@pytest.fixture
def clients(world: World) -> Clients:
    plain, strict = {}, {}
    for role, user in world.users.items():
        plain[role] = Client()
        strict[role] = Client(enforce_csrf_checks=True)
        if user is not None:
            plain[role].force_login(user)
            strict[role].force_login(user)
    return Clients(plain, strict)


@pytest.fixture(autouse=True)
def unthrottled(settings):
    """No API rate limit while the walk runs: it sends thousands of requests a minute,
    and a 429 would hide what the view itself answers."""
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = dict.fromkeys(rest.get("DEFAULT_THROTTLE_RATES") or {})
    settings.REST_FRAMEWORK = rest


@pytest.fixture
def quiet():
    """No warning per refused request (thousands of 403, 404 and 405): errors only."""
    loggers = [logging.getLogger(n) for n in ("django.request", "django.security.csrf")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


@dataclass
class Outcome:
    status: int
    body: bytes = b""
    location: str = ""
    error: str = ""  # the exception a request raised (counted as a 500)


@dataclass
class Report:
    failures: list[str] = field(default_factory=list)
    requests: int = 0

    def fail(self, role: str, method: str, url: str, what: str) -> None:
        self.failures.append(f"{method} {url} as {role}: {what}")

    def check(self) -> None:
        print(f"{self.requests} requests")  # shown with pytest -s
        if self.failures:
            shown = "\n  ".join(self.failures[:150])
            more = len(self.failures) - 150
            tail = f"\n  ... and {more} more" if more > 0 else ""
            pytest.fail(
                f"{len(self.failures)} failure(s) in {self.requests} requests:\n  {shown}{tail}",
                pytrace=False,
            )


def _where(exc: BaseException) -> str:
    """The innermost frame of the project's own code in the traceback."""
    root = f"{settings.BASE_DIR}/"
    tb, place = exc.__traceback__, ""
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.startswith(root) and not name.startswith((f"{root}.venv/", f"{root}tests/")):
            place = f" at {name.removeprefix(root)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return place


def _request(client: Client, method: str, url: str, kwargs: dict[str, Any]) -> Outcome:
    """One request (raising what the view raised), the client's cookies kept as they
    were before it (a logout, a language)."""
    cookies = copy.deepcopy(client.cookies)
    try:
        response = getattr(client, method)(url, **kwargs)
    finally:
        client.cookies = cookies
    body = b"" if getattr(response, "streaming", False) else response.content
    return Outcome(response.status_code, body, response.get("Location", ""))


def send(client: Client, method: str, url: str, *, keep: bool = False, **kwargs: Any) -> Outcome:
    """One request in a savepoint rolled back afterwards (``keep``: not rolled back); an
    exception is answered as a 500 that says what was raised, and where."""
    try:
        with transaction.atomic():
            outcome = _request(client, method, url, kwargs)
            if not keep:
                transaction.set_rollback(True)
    except Exception as exc:  # the test client re-raises what the view raised
        return Outcome(500, error=f"{type(exc).__name__}: {exc}"[:300] + _where(exc))
    return outcome


Ask = tuple[Client, str, str, dict[str, Any]]  # client, method, url, keyword arguments


def send_many(asks: list[Ask]) -> list[Outcome]:
    """Requests that change nothing (GETs), in one savepoint rolled back after the last
    (fewer round trips than a savepoint each); from one that raises on, one by one."""
    done: list[Outcome] = []
    try:
        with transaction.atomic():
            for client, method, url, kwargs in asks:
                done.append(_request(client, method, url, kwargs))
            transaction.set_rollback(True)
    except Exception:
        pass  # the one that raised is asked again below, in a savepoint of its own
    return done + [send(c, m, u, **kw) for c, m, u, kw in asks[len(done) :]]


def no_5xx(report: Report, role: str, method: str, url: str, outcome: Outcome) -> None:
    report.requests += 1
    if outcome.status >= 500:
        report.fail(role, method, url, outcome.error or f"{outcome.status}")


class Unserved:
    """Routes that do not serve a method (every logged-in role got 405 for the first
    filled address): the other addresses of the route are not asked with it again."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.routes: set[str] = set()

    def skip(self, target: Target) -> bool:
        return target.route in self.routes

    def learn(self, target: Target, statuses: dict[str, int]) -> None:
        if target.route not in self.seen:
            self.seen.add(target.route)
            if all(status == 405 for role, status in statuses.items() if role != "anonymous"):
                self.routes.add(target.route)


JUNK_FORM = {
    "registration": "abc",
    "round": ODD_TEXT,
    "match": str(HUGE),
    "first": "-1",
    "second": "x",
    "pick": "abc",
    "card": ODD_TEXT,
    "seat": str(HUGE),
    "seq": "-1",
    "action": "{",
    "system": ODD_TEXT,
    "bot": "x",
    "minutes": "1e9",
    "players": str(HUGE),
    "bots": "-1",
    "mode": ODD_TEXT,
    "deck": "zzz",
    "decklist": ODD_TEXT,
    "username": ODD_TEXT,
    "password": ODD_TEXT,
    "display_name": ODD_TEXT,
    "name": ODD_TEXT,
    "reason": ODD_TEXT + "x" * 5000,
    "text": ODD_TEXT,
    "kind": "zzz",
    "role": "zzz",
    "game_1": "2",
    "wins_0": "abc",
    "place_0": "99",
    "slot-0": "main",
    "city": ["x", ODD_TEXT],
    "confirm": "1",
    "remove": "1",
    "from": "manage",
    "anchor": "#a\r\nSet-Cookie: x=1",
    "language": ODD_TEXT,
    "next": "//evil.example/",
}
JUNK_JSON = json.dumps(
    {
        "games": "x",
        "placements": [HUGE, -1],
        "scores": "x",
        "pick_number": "x",
        "card": None,
        "text": None,
        "username": {"a": 1},
        "display_name": ["x"],
        "reason": 5,
        "seq": {"x": 1},
        "action": [],
        "name": ODD_TEXT,
        "swiss_rounds": HUGE,
        "best_of": "x",
        "is_public": "maybe",
    }
)
JUNK_JSON_LIST = "[1, null]"

POSTS = (
    ("POST empty", {}),
    ("POST form junk", {"data": JUNK_FORM, **HTMX}),
    ("POST JSON junk", {"data": JUNK_JSON, "content_type": "application/json"}),
    ("POST JSON list", {"data": JUNK_JSON_LIST, "content_type": "application/json"}),
)
ODD_QUERIES = (
    "?limit=100000000000000000000",
    "?limit=-1",
    "?limit=abc",
    "?offset=99999999999999999999",
    "?page=x",
    "?format=json",
    "?ordering=zzz",
    "?search=%00",
)
PAGE_QUERY = (
    "?round=%00&pick=99999999999999999999&step=-1&every=abc&page=x&fragment=1&suggest=1"
    "&spectate=1&as=text&next=%2F%2Fevil.example%2F"
)


API_DOCS = ("api/schema", "api/docs", "api/redoc")  # pages about the API, not of it


def is_api(route: str) -> bool:
    return route.startswith("api/") and not route.startswith(API_DOCS)


@functools.cache
def drf_methods(route: str) -> frozenset[str]:
    """The methods a REST framework route serves (empty: a Django view). Such a view is
    exempt from Django's CSRF check: the framework checks it for a logged-in session."""
    callback = all_routes()[route].callback
    cls = getattr(callback, "cls", None)
    if cls is None or not issubclass(cls, APIView):
        return frozenset()
    actions = getattr(callback, "actions", None)
    if actions:
        return frozenset(actions)
    return frozenset(m for m in cls.http_method_names if m != "options" and hasattr(cls, m))


def posts_for(route: str) -> list[tuple[str, dict[str, Any]]]:
    """The bodies a route is sent: JSON junk where the view reads JSON (a page reading
    a form finds it as empty as the empty POST), form junk where it reads a form."""
    empty, form, *as_json = POSTS
    if is_api(route):
        return [empty, *as_json]
    if route.endswith("/act/"):  # a game's move: a form or JSON
        return list(POSTS)
    return [empty, form]


def paged_lists(routes: dict[str, URLPattern]) -> set[str]:
    """The API routes answering a paged list (DRF ``list`` with a pagination class)."""
    out = set()
    for route, pattern in routes.items():
        cls = getattr(pattern.callback, "cls", None)
        actions = getattr(pattern.callback, "actions", None) or {}
        if cls is not None and actions.get("get") == "list" and cls.pagination_class is not None:
            out.add(route)
    return out


# ---------------------------------------------------------------- the net is complete


def test_every_pattern_has_a_filler(world):
    routes = all_routes()
    with_converters = {r for r in routes if CONVERTER.search(r)}
    assert with_converters - set(FILLERS) == set(), "patterns the walk cannot fill"
    assert set(FILLERS) - set(routes) == set(), "fillers of patterns that are gone"
    assert len(routes) >= 80  # the site's pages, the API's, the dashboard's
    for target in targets(world):
        match = resolve(target.url)
        assert match.route == target.route, f"{target.url} resolves to {match.route}"
    for route in with_converters:
        assert any(real for _kw, _tags, real in FILLERS[route](world)), route


# ---------------------------------------------------------------- the walk


def _get_walk(world: World, clients: Clients, api: bool) -> None:
    report, unserved = Report(), Unserved()
    routes = {route for route in all_routes() if is_api(route) is api}
    reached: set[str] = set()
    opened: set[tuple[str, str]] = set()
    for target in targets(world):
        if target.route not in routes or unserved.skip(target):
            continue
        statuses = {}
        roles = roles_for(target, "GET")
        outcomes = send_many([(clients.plain[role], "get", target.url, {}) for role in roles])
        for role, outcome in zip(roles, outcomes, strict=True):
            no_5xx(report, role, "GET", target.url, outcome)
            statuses[role] = outcome.status
            if outcome.status != 404:
                reached.add(target.route)
            if 200 <= outcome.status < 300:
                opened.add((target.route, role))
                if not may_open(world, target, role):
                    report.fail(role, "GET", target.url, f"{outcome.status}: must not open")
            if (
                role == "anonymous"
                and 300 <= outcome.status < 400
                and target.route in STAFF_ONLY | EVENT_OFFICIALS_ONLY | POD_MANAGERS_ONLY
                and not outcome.location.startswith((LOGIN, "/admin/login/"))
            ):
                report.fail(role, "GET", target.url, f"redirect to {outcome.location}")
        unserved.learn(target, statuses)
        # The page again with odd query parameters, as one who sees the most of it.
        shown = [role for role in QUERY_ROLES if 200 <= statuses.get(role, 0) < 300]
        if target.real and not api and shown:
            odd = target.url + PAGE_QUERY
            (outcome,) = send_many([(clients.plain[shown[0]], "get", odd, HTMX)])
            no_5xx(report, shown[0], "GET", odd, outcome)
    missed = routes - reached
    if missed:
        report.failures.append(f"never reached a real object: {sorted(missed)}")
    # The net means something: the guarded pages do open to their own roles.
    own = [(r, "staff") for r in STAFF_ONLY]
    own += [(r, "organiser") for r in EVENT_OFFICIALS_ONLY | EVENT_ORGANISERS_ONLY]
    own += [(r, "organiser") for r in POD_MANAGERS_ONLY | PRINTOUTS]
    own += [(r, "player") for r in PICK_LOGS | POD_SEATED_ONLY | DECKLISTS]
    for route, role in own:
        assert route not in routes or (route, role) in opened, (route, role)
    report.check()


def test_every_page_get_answers_without_5xx_and_only_to_those_allowed(world, clients, quiet):
    """GET every filled page (not the API) as every role, and with odd query parameters:
    never a 5xx; the guarded pages open only to their roles; every pattern reaches a
    real object for somebody (something other than 404)."""
    _get_walk(world, clients, api=False)


def test_every_api_get_answers_without_5xx_and_only_to_those_allowed(world, clients, quiet):
    """The same for the API."""
    _get_walk(world, clients, api=True)


def _post_walk(world: World, clients: Clients, api: bool) -> Report:
    report, unserved = Report(), Unserved()
    for target in targets(world):
        if is_api(target.route) is not api or unserved.skip(target):
            continue
        bodies = posts_for(target.route)
        if target.route in unserved.seen:  # a body of the wrong shape: once a route is enough
            bodies = [(method, kwargs) for method, kwargs in bodies if method != "POST JSON list"]
        statuses = {}
        for role in roles_for(target, "POST"):
            for method, kwargs in bodies:
                outcome = send(clients.plain[role], "post", target.url, **kwargs)
                statuses.setdefault(role, outcome.status)
                no_5xx(report, role, method, target.url, outcome)
                if target.route in OFFICIAL_CHANGES and role != "organiser":
                    refused = outcome.status in (401, 403, 404, 405) or (
                        role == "anonymous" and outcome.location.startswith(LOGIN)
                    )
                    if not refused:
                        report.fail(role, method, target.url, f"{outcome.status}: not refused")
            if api and target.real:
                for method in sorted(drf_methods(target.route) & {"put", "patch", "delete"}):
                    outcome = send(
                        clients.plain[role],
                        method,
                        target.url,
                        data=JUNK_JSON,
                        content_type="application/json",
                    )
                    no_5xx(report, role, method.upper(), target.url, outcome)
        unserved.learn(target, statuses)
    return report


def test_every_page_post_with_a_csrf_token_answers_without_5xx(world, clients, quiet):
    """POST every filled page (not the API) as every role, empty and with form junk
    (JSON junk where the view reads JSON): never a 5xx; the officials' actions are
    refused to everybody else."""
    _post_walk(world, clients, api=False).check()


def test_every_api_post_with_a_csrf_token_answers_without_5xx(world, clients, quiet):
    """The same for the API (empty, JSON junk and a JSON list), and PUT, PATCH or
    DELETE with JSON junk where a route serves them."""
    _post_walk(world, clients, api=True).check()


FINGERPRINTED_APPS = ("tournaments", "drafting", "play", "dashboard", "authtoken", "auth")


def fingerprint() -> dict[str, str]:
    """A digest of every row of the project's tables (and the users and tokens)."""
    out = {}
    for model in apps.get_models():
        if model._meta.app_label in FINGERPRINTED_APPS and not model._meta.proxy:
            rows = list(model.objects.order_by("pk").values_list())
            out[model._meta.label] = hashlib.sha256(repr(rows).encode()).hexdigest()
    return out


def test_a_post_without_csrf_token_is_refused_and_changes_nothing(world, clients, quiet):
    """Every pattern, every role, POST (form junk) without a CSRF token: 403 (an
    anonymous API request, which has no session to protect: a 4xx), and the database
    unchanged. The requests are not rolled back one by one here: the database is
    compared after all of them. (A CSRF refusal comes before the view, whatever the
    address names: each route is asked with its first filled address.) Each client holds
    the site's CSRF cookie, as a visitor's browser would: only the token is missing, as
    in a form posted from another site."""
    report = Report()
    for client in clients.strict.values():
        assert "csrftoken" in client.get(LOGIN).cookies
    before = fingerprint()
    asked: set[str] = set()
    for target in targets(world):
        if target.route in asked:
            continue
        asked.add(target.route)
        for role in ROLES:
            outcome = send(clients.strict[role], "post", target.url, keep=True, data=JUNK_FORM)
            no_5xx(report, role, "POST without CSRF", target.url, outcome)
            refused = outcome.status == 403 or (
                role == "anonymous" and drf_methods(target.route) and 400 <= outcome.status < 500
            )
            if not refused:
                report.fail(role, "POST without CSRF", target.url, f"{outcome.status}")
    assert asked == set(all_routes())
    after = fingerprint()
    changed = sorted(label for label in before if before[label] != after.get(label))
    if changed:
        report.failures.append(f"POSTs without a CSRF token changed {changed}")
    report.check()


def test_api_routes_survive_odd_query_parameters(world, clients, quiet):
    """GET every API route with odd paging and query parameters: never a 5xx; a paged
    list refuses a limit or offset out of range with 400."""
    report, unserved = Report(), Unserved()
    paged = paged_lists(all_routes())
    refused: set[str] = set()
    per_route: dict[str, int] = {}
    for target in targets(world):
        if not is_api(target.route) or not target.real or unserved.skip(target):
            continue
        per_route[target.route] = per_route.get(target.route, 0) + 1
        if per_route[target.route] > 2:
            continue  # two real addresses of each route are enough here
        plain = send_many([(clients.plain[r], "get", target.url, {}) for r in API_QUERY_ROLES])
        statuses = {
            role: outcome.status for role, outcome in zip(API_QUERY_ROLES, plain, strict=True)
        }
        unserved.learn(target, statuses)
        asks = [(r, q) for r in API_QUERY_ROLES if statuses[r] != 405 for q in ODD_QUERIES]
        outcomes = send_many([(clients.plain[r], "get", target.url + q, {}) for r, q in asks])
        for (role, query), outcome in zip(asks, outcomes, strict=True):
            url = target.url + query
            no_5xx(report, role, "GET", url, outcome)
            if target.route in paged and query.startswith(("?limit", "?offset")):
                if outcome.status in (200, 400):
                    refused.add(target.route)
                if outcome.status == 200:
                    report.fail(role, "GET", url, "200: a bad limit or offset was accepted")
    assert paged >= {
        "api/events/",
        "api/events/<slug:event_slug>/registrations/",
        "api/events/<slug:event_slug>/audit/",
    }
    assert refused == paged, "every paged list was asked by someone who may read it"
    report.check()


# ---------------------------------------------------------------- the rules, one by one


def test_consoles_and_the_audit_log_never_open_to_anonymous_or_outsiders(world, clients):
    demo, pod = world.event["demo"].slug, world.pod["building"].pk
    guarded = [
        "/staff/",
        "/staff/errors/",
        f"/staff/errors/{world.error.pk}/",
        "/staff/panel/events/",
        "/staff/metrics.json",
        "/admin/",
        f"/events/{demo}/manage/",
        f"/api/events/{demo}/audit/",
        f"/draft/{pod}/manage/",
    ]
    for url in guarded:
        anonymous = send(clients.plain["anonymous"], "get", url)
        assert anonymous.status in (302, 401, 403), (url, anonymous.status)
        if anonymous.status == 302:
            assert anonymous.location.startswith((LOGIN, "/admin/login/")), url
        assert send(clients.plain["outsider"], "get", url).status in (302, 403, 404), url
    for url in guarded[:6]:
        assert send(clients.plain["staff"], "get", url).status == 200, url
    for url in guarded[6:]:
        assert send(clients.plain["organiser"], "get", url).status == 200, url
    for action in ("pair", "publish", "result", "add-player", "settings", "staff"):
        url = f"/events/{world.event['live'].slug}/manage/{action}/"
        assert send(clients.plain["outsider"], "post", url, data=JUNK_FORM).status == 403
        assert send(clients.plain["player"], "post", url, data=JUNK_FORM).status == 403


def test_a_match_of_an_unpublished_round_is_the_officials_alone(world, clients):
    live = world.event["live"]
    match = world.match["live-draft"]
    page = f"/play/match/{match.pk}/"
    assert send(clients.plain["anonymous"], "get", page).location.startswith(LOGIN)
    for role in ("outsider", "player", "spectator", "staff"):
        assert send(clients.plain[role], "get", page).status == 404, role
    assert send(clients.plain["player"], "post", page).status == 404  # nor started
    judge = Client()
    judge.force_login(world.judge)
    for official in (clients.plain["organiser"], judge):
        assert send(official, "get", page).status == 200
    # The published round's match is its players' (and, the event being listed, anyone's).
    published = f"/play/match/{world.match['live-published'].pk}/"
    assert send(clients.plain["player"], "get", published).status == 200
    # The API hides the round, its pairings and its matches alike.
    api = f"/api/events/{live.slug}"
    hidden = [f"{api}/rounds/2/", f"{api}/rounds/2/pairings/", f"{api}/matches/{match.pk}/"]
    for role in ("anonymous", "outsider", "player", "spectator", "staff"):
        client = clients.plain[role]
        for url in hidden:
            assert send(client, "get", url).status == 404, (role, url)
        listed = json.loads(send(client, "get", f"{api}/rounds/").body)
        assert [r["number"] for r in listed] == [1], role
    for official in (clients.plain["organiser"], judge):
        for url in hidden:
            assert send(official, "get", url).status == 200, url
        listed = json.loads(send(official, "get", f"{api}/rounds/").body)
        assert [r["number"] for r in listed] == [1, 2]
    # An unlisted event's published match: its players and officials only.
    unlisted = f"/play/match/{world.match['unlisted'].pk}/"
    assert send(clients.plain["outsider"], "get", unlisted).status == 404
    assert send(clients.plain["player"], "get", unlisted).status == 302  # to its game


def test_an_unlisted_event_is_listed_nowhere(world, clients):
    """Not on the event list, nor the API's, nor among the games to watch or the pods."""
    game, pod = world.session["event"], world.pod["secret"]
    assert game.status == GameSession.Status.RUNNING and pod.status == Pod.Status.FINISHED
    casual_game, casual_pod = world.session["bot"], world.pod["finished"]
    for role in ("anonymous", "outsider", "player", "staff"):
        client = clients.plain[role]
        events_page = send(client, "get", "/").body.decode()
        api = json.loads(send(client, "get", "/api/events/").body)
        assert world.event["demo"].slug in events_page
        assert world.event["unlisted"].slug not in events_page, role
        assert pod.event.slug not in events_page, role
        slugs = {e["slug"] for e in api["results"]}
        assert world.event["demo"].slug in slugs and world.event["unlisted"].slug not in slugs
        games = send(client, "get", "/play/").body.decode()
        assert f'href="/play/{casual_game.pk}/spectate/"' in games, role
        assert f'href="/play/{game.pk}/spectate/"' not in games, role
        pods = send(client, "get", "/draft/").body.decode()
        assert f'href="/draft/{casual_pod.pk}/"' in pods, role
        assert f'href="/draft/{pod.pk}/"' not in pods and "Secret Sealed" not in pods, role


def _seat_row(page: str, number: int) -> str:
    start = page.index(f'<tr data-seat="{number}"')
    return page[start : page.index("</tr>", start)]


def test_a_drafting_creator_reads_no_other_seat_before_the_pod_finishes(world, clients):
    organiser = clients.plain["organiser"]
    for name, finished in (("building", False), ("finished", True)):
        pod = world.pod[name]
        assert pod.status == (Pod.Status.FINISHED if finished else Pod.Status.BUILDING)
        own, other = world.seat[name, "organiser"].number, world.seat[name, "player"].number
        bot = world.seat[name, "bot"].number
        for number in (other, bot):
            for url in (
                f"/draft/{pod.pk}/log/{number}.json",
                f"/draft/{pod.pk}/log/{number}.txt",
                f"/draft/{pod.pk}/replay/{number}/",
                f"/api/drafts/pods/{pod.pk}/seats/{number + 1}/picks/",
            ):
                expected = 200 if finished else 403
                assert send(organiser, "get", url).status == expected, url
        assert send(organiser, "get", f"/draft/{pod.pk}/log/{own}.json").status == 200
        # The player cannot read the creator's picks either until the end.
        mine = send(clients.plain["player"], "get", f"/draft/{pod.pk}/log/{own}.json")
        assert mine.status == (200 if finished else 403)
        console = send(organiser, "get", f"/draft/{pod.pk}/manage/")
        assert console.status == 200
        page = console.body.decode()
        assert '<small class="muted">' in _seat_row(page, own)  # its own pool's colours
        for number in (other, bot):
            row = _seat_row(page, number)
            assert ('<small class="muted">' in row) is finished, (name, number)
            assert (f"/log/{number}.json" in row) is finished, (name, number)


def test_a_spectator_never_gets_a_players_hand(world, clients):
    session = world.session["bot"]
    state = session.state
    (mine,) = [p for p in state["players"] if p["seat"] == 0]
    hand = set(mine["hand"])
    assert hand, "the player holds cards: the check means something"

    def iids_in(data: Any) -> set[int]:
        found = set()
        if isinstance(data, dict):
            if isinstance(data.get("iid"), int) and "card" in data:
                found.add(data["iid"])
            for value in data.values():
                found |= iids_in(value)
        elif isinstance(data, list):
            for value in data:
                found |= iids_in(value)
        return found

    own = json.loads(send(clients.plain["player"], "get", f"/play/{session.pk}/state/").body)
    assert hand <= iids_in(own)
    player_page = send(clients.plain["player"], "get", f"/play/{session.pk}/").body.decode()
    assert all(f'data-iid="{iid}"' in player_page for iid in hand)
    for role in ("anonymous", "outsider", "spectator", "organiser", "staff"):
        client = clients.plain[role]
        game = send(client, "get", f"/play/{session.pk}/")
        assert game.status == 302 and game.location.endswith(f"/play/{session.pk}/spectate/")
        data = json.loads(send(client, "get", f"/play/{session.pk}/state/").body)
        assert not hand & iids_in(data), role
        for url in (f"/play/{session.pk}/spectate/", f"/play/{session.pk}/table/"):
            page = send(client, "get", url)
            assert page.status == 200
            text = page.body.decode()
            assert not [iid for iid in hand if f'data-iid="{iid}"' in text], (role, url)


def test_the_api_lists_refuse_a_huge_limit_with_400(world, clients):
    organiser = clients.plain["organiser"]
    slug = world.event["demo"].slug
    for url in (
        "/api/events/",
        f"/api/events/{slug}/registrations/",
        f"/api/events/{slug}/audit/",
    ):
        for query in ("?limit=100000000000000000000", "?limit=-1", "?offset=99999999999999999999"):
            outcome = send(organiser, "get", url + query)
            assert outcome.status == 400, (url + query, outcome.status, outcome.error)
            assert json.loads(outcome.body), url + query
        assert send(organiser, "get", url + "?limit=2").status == 200
