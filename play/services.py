"""Every change of an online game, one named function each.

Flow of one action (docs: DESIGN.md, "Flow of one online game"):

1. ``submit_action`` (called by the view or the websocket) checks that the user holds a
   seat that may act now and enqueues ``play.tasks.apply_action`` with JSON arguments;
2. the worker runs ``apply_action``: it locks the session row, refuses a stale ``seq``
   or an action out of turn, calls the engine (``IllegalAction`` changes nothing and
   goes back to that player), stores the new state, appends the ``ActionLog`` row, bumps
   ``seq`` and moves the clocks, all in one transaction;
3. after commit each seat's own view goes to that seat's channel group and the public
   view to spectators; the next bot move and the clock tasks are scheduled.

Every task carries the ``seq`` it was made for, so a retry after a worker crash
(``acks_late``), a late clock or a second bot move changes nothing: the lock serialises
them, the ``seq`` check refuses all but the first, and the unique ``(session, seq)``
constraint backs it.

Nothing here knows a particular game: the engine comes from the registry
(``registry.get(system).load("engine")``) and the bots from the ``bots`` module next to
the engine's module (``engine.<system>.bots``: ``BOTS`` and ``make_bot``).
"""

from __future__ import annotations

import importlib
import json
import logging
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from config import push
from engine.core import registry
from engine.core.errors import EngineError, IllegalAction
from engine.core.legality import check_shape
from engine.core.protocol import GameResult, GameSystem, State, leave_action, replay
from play import rows
from play.models import ActionLog, GameSession, SessionSeat, new_game_seed
from tournaments import services as tournament_services
from tournaments.models import Event, Match, Round
from tournaments.results import ResultError, game_placements

logger = logging.getLogger("gauntlet.play")

User = AbstractBaseUser | AnonymousUser

DEFAULT_BOT = "heuristic"
BOT_DELAY_SECONDS = 0.4  # a bot answers after a short pause, so people can follow its moves
CASUAL_TIME_BANK = 15 * 60  # seconds per player for a game against a friend
MATCH_TIME_BANK = 25 * 60  # seconds per match when an event gives none (Event.time_bank_minutes)
# A move taken this close to its seat's deadline is marked pending on the seat until a
# worker applies it, and the clock check waits for it (up to the grace, past the deadline).
PENDING_WINDOW_SECONDS = 15.0
PENDING_GRACE_SECONDS = 60.0
PENDING_RECHECK_SECONDS = 2.0
# A game called before the rules decided it (a capped demo game, time in a round).
DRAWN = GameResult(finished=True, winners=(), draw=True, eliminated=())


class PlayError(Exception):
    """Something the person can fix; the message is shown to them as it is."""


class NotAllowed(PlayError):
    """The person may not do this."""


# ---------------------------------------------------------------- engines and bots


def move_limit() -> int | None:
    """Most actions in one game (``PLAY_MAX_MOVES``; None: no limit), then it is a draw."""
    from django.conf import settings

    value = getattr(settings, "PLAY_MAX_MOVES", None)
    return int(value) if value else None


def bot_delay() -> float:
    """Seconds a bot waits before moving (``PLAY_BOT_DELAY_SECONDS``; the demo uses 0)."""
    from django.conf import settings

    return float(getattr(settings, "PLAY_BOT_DELAY_SECONDS", BOT_DELAY_SECONDS))


def engine_of(system: str) -> GameSystem:
    try:
        return registry.get(system).load("engine")
    except registry.UnknownGameSystem as exc:
        raise PlayError(str(exc)) from None


def _bots_module(system: str):
    path = registry.get(system).engine
    if not path:
        return None
    package = path.partition(":")[0].rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.bots")
    except ImportError:
        return None


def bot_names(system: str) -> list[str]:
    module = _bots_module(system)
    return list(getattr(module, "BOTS", {})) if module else []


def playable_systems() -> list[tuple[registry.GameSystemInfo, list[str]]]:
    """Game systems with an engine that loads, each with the names of its bots."""
    found = []
    for info in registry.all_systems():
        if not info.engine:
            continue
        try:
            info.load("engine")
        except Exception:  # an engine being written may not import yet
            logger.info("game system %s has no working engine", info.key)
            continue
        found.append((info, bot_names(info.key)))
    return found


def _bot_seed(session: GameSession, seat: int, seq: int) -> int:
    # A fresh generator per move, derived from the game's seed: a bot move is a pure
    # function of the stored state, so a retried task chooses the same action.
    return (session.seed * 1_000_003 + seat * 10_007 + seq) & ((1 << 62) - 1)


def bot_action(session: GameSession, seat: SessionSeat) -> dict[str, Any]:
    module = _bots_module(session.system)
    if module is None:
        raise PlayError(_("This game has no bots."))
    bot = module.make_bot(
        seat.bot_name, engine_of(session.system), _bot_seed(session, seat.number, session.seq)
    )
    return bot.choose(session.state, seat.number)


def card_label(system: GameSystem, card_id: Any, language: str = "en") -> str:
    """A card's printed name where the engine's card database knows it, else its id."""
    namer = getattr(system, "card_name", None)
    if callable(namer):
        return str(namer(card_id, language))
    db = getattr(system, "db", None)
    card = None
    for lookup in ("card", "__getitem__"):
        method = getattr(db, lookup, None)
        if callable(method):
            try:
                card = method(card_id)
                break
            except Exception:
                continue
    if card is None:
        return str(card_id)
    name = getattr(card, "name_ru" if language == "ru" else "name_en", None)
    return str(name or card_id)


# ---------------------------------------------------------------- groups and payloads


def session_group(session_id: int) -> str:
    """Every socket of a game, players' and spectators'. What is pushed to it carries
    each seat's own view and the public one; each socket sends on only its own part
    (``play.consumers``), so a change costs one message to the channel layer."""
    return f"play-{session_id}"


def seat_of(user: User | None, session: GameSession) -> SessionSeat | None:
    if user is None or not user.is_authenticated:
        return None
    return session.seats.filter(user=user).first()


def clocks(
    session: GameSession, seats: Iterable[SessionSeat], now: datetime | None = None
) -> list[dict]:
    now = now or timezone.now()
    out = []
    for seat in seats:
        left = seat.time_left
        if left is not None and seat.deadline is not None:
            left = max(0.0, (seat.deadline - now).total_seconds())
        out.append(
            {
                "seat": seat.number,
                "time_left": None if left is None else round(left, 1),
                "deadline": seat.deadline.isoformat() if seat.deadline else None,
            }
        )
    return out


def payload(
    session: GameSession, seat: int | None, seats: Sequence[SessionSeat] | None = None
) -> dict[str, Any]:
    """What one seat (or a spectator, ``None``) is sent: its own view, never another's."""
    return payloads(session, [seat], seats)[seat]


def payloads(
    session: GameSession,
    numbers: Iterable[int | None],
    seats: Sequence[SessionSeat] | None = None,
) -> dict[int | None, dict[str, Any]]:
    """The payload of each of ``numbers`` (``None``: spectators), sharing what is common.

    The public parts (whose turn, clocks, result, the next game) are worked out once;
    each seat then gets its own view and, only if it is to act, its legal actions.
    """
    system = engine_of(session.system)
    if seats is None:
        seats = list(session.seats.all())
    running = session.status == GameSession.Status.RUNNING and session.state is not None
    to_act = list(system.to_act(session.state)) if running else []
    common = {
        "session": session.pk,
        "seq": session.seq,
        "status": session.status,
        "to_act": to_act,
        "clocks": clocks(session, seats),
        "result": session.result,
        "end_reason": session.end_reason,
        "next": _next_game(session),
    }
    out: dict[int | None, dict[str, Any]] = {}
    for number in numbers:
        legal = (
            system.legal_actions(session.state, number)
            if running and number is not None and number in to_act
            else []
        )
        view = None if session.state is None else system.view(session.state, number)
        out[number] = {**common, "seat": number, "view": view, "legal": legal}
    return out


def _next_game(session: GameSession) -> int | None:
    if not session.match_id or not session.is_over:
        return None
    return (
        GameSession.objects.filter(match_id=session.match_id, game_number=session.game_number + 1)
        .values_list("pk", flat=True)
        .first()
    )


def _send(messages: Sequence[tuple[str, dict]]) -> None:
    # A missed push must never undo a stored move; the page catches up.
    push.send(messages)


def push_views(session_id: int) -> None:
    """Send every seat its own view and spectators the public one (call after commit)."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None:
        return
    _push_session(session, list(session.seats.all()))


def _push_session(session: GameSession, seats: Sequence[SessionSeat]) -> None:
    """``push_views`` from rows already in memory (as stored by the transaction just committed)."""
    people = [s.number for s in seats if not s.is_bot]
    data = payloads(session, [*people, None], seats)
    _send([(session_group(session.pk), _update_message(data))])


def _update_message(data: Mapping[int | None, dict[str, Any]]) -> dict[str, Any]:
    """Each view serialised once, here, keyed by seat (``"public"``: spectators): each
    socket of the group sends its own text as it is.

    ``seq``, ``status`` and ``to_act`` (public) ride along so the socket can check the
    next move of its seat without asking the database (``check_move``).
    """
    views = {
        "public" if number is None else str(number): json.dumps(
            {"type": "update", "data": payload}, separators=(",", ":"), cls=DjangoJSONEncoder
        )
        for number, payload in data.items()
    }
    common = data[None]
    return {
        "type": "play.update",
        "views": views,
        "seq": common["seq"],
        "status": common["status"],
        "to_act": common["to_act"],
        # Each running clock's deadline (seconds since the epoch): a socket marks a move
        # taken near it as pending (``queue_move``) without asking the database.
        "deadlines": deadlines(common["clocks"]),
    }


def deadlines(clocks: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Seat (as text) -> its running clock's deadline, in seconds since the epoch."""
    return {
        str(c["seat"]): datetime.fromisoformat(c["deadline"]).timestamp()
        for c in clocks
        if c.get("deadline")
    }


def _push_on_commit(session: GameSession, seats: Sequence[SessionSeat]) -> None:
    seats = list(seats)
    transaction.on_commit(lambda: _push_session(session, seats), robust=True)


def _push_error_on_commit(session_id: int, seat: int, seq: int, message: str) -> None:
    data = {"session": session_id, "seat": seat, "seq": seq, "error": message}
    transaction.on_commit(
        lambda: _send([(session_group(session_id), {"type": "play.error", "data": data})])
    )


# ---------------------------------------------------------------- starting games


def _new_token() -> str:
    return secrets.token_urlsafe(16)


def _check_system(system: str) -> GameSystem:
    try:
        registry.get(system)
    except registry.UnknownGameSystem:
        raise PlayError(_("Unknown game: %(key)s.") % {"key": system}) from None
    return engine_of(system)


def create_casual_game(
    user: User,
    system: str,
    *,
    players: int = 2,
    bots: int = 0,
    bot: str = DEFAULT_BOT,
    mode: str = "",
    deck: Any = None,
    time_bank: int | None = None,
) -> GameSession:
    """A casual table of ``players`` seats: the user at seat 0, bots at the last ``bots``
    seats, friends at the seats between, through the invite link (``join_game``).

    It starts at once when no seat waits for a friend, else when the last one is taken.
    ``players == 1`` is the solo game of a system whose engine deals one (registry
    ``solo``). ``mode`` is one of the system's ``table_modes`` (default: free-for-all).
    ``deck`` (a ``play.decks.DeckChoice``) is the user's deck for a system that needs
    decks: a starter deck or a pasted list, checked here before anything is stored (a
    bad list raises ``DeckRefused`` with every problem); bots get a starter deck chosen
    with the game's seed.
    """
    from play import decks as casual_decks

    if not user.is_authenticated:
        raise NotAllowed(_("Log in to play."))
    _check_system(system)
    info = registry.get(system)
    players, bots = _whole(players), _whole(bots)
    if players == 1:
        if not info.solo:
            raise PlayError(_("%(game)s has no solo game.") % {"game": info.name})
        bots = 0
    elif not info.min_players <= players <= info.max_players:
        raise PlayError(
            _("%(game)s is played by %(min)s to %(max)s players.")
            % {"game": info.name, "min": info.min_players, "max": info.max_players}
        )
    if not 0 <= bots < players:
        raise PlayError(_("Bots can take at most %(n)s of the seats.") % {"n": players - 1})
    if bots and bot not in bot_names(system):
        known = ", ".join(bot_names(system)) or "—"
        raise PlayError(
            _("Unknown bot %(bot)s (this game has: %(known)s).") % {"bot": bot, "known": known}
        )
    try:
        table = info.table_mode(mode or registry.FREE_FOR_ALL.key)
    except registry.UnknownGameSystem:
        raise PlayError(_("Unknown way to seat the players: %(mode)s.") % {"mode": mode}) from None
    if players > 1 and not table.fits(players):
        raise PlayError(
            _("%(mode)s needs %(n)s players.")
            % {"mode": table.name, "n": " / ".join(map(str, table.players))}
        )
    config = engine_config(system, {"players": 1} if players == 1 else table.config())
    seed = new_game_seed()
    friends = players - bots - 1
    seat_decks: list[Any] = []
    if casual_decks.needs_deck(system):
        # Checked before any row is written: a refused list leaves nothing behind.
        seat_decks = [casual_decks.deck_for(system, deck, seed)]
        seat_decks += [None] * friends
        seat_decks += [
            casual_decks.deck_for(system, None, seed + number)
            for number in range(1 + friends, players)
        ]
    with transaction.atomic():
        if friends:
            _check_open_invitations(user)
        session = GameSession.objects.create(
            system=system,
            created_by=user,
            config=config,
            decks=seat_decks,
            seed=seed,
            time_bank=time_bank,
            invite_token=_new_token() if friends else None,
        )
        SessionSeat.objects.create(session=session, number=0, user=user, time_left=time_bank)
        for number in range(1, players):
            if number <= friends:
                SessionSeat.objects.create(session=session, number=number, time_left=time_bank)
            else:
                SessionSeat.objects.create(
                    session=session, number=number, is_bot=True, bot_name=bot
                )
        if not friends:
            _start(session)
    return session


OPEN_INVITATIONS = 10  # casual games a player may have waiting for friends at once


def _check_open_invitations(user: User) -> None:
    """Refuse a new invitation while the user has ``OPEN_INVITATIONS`` games waiting for
    friends. The user's row is locked first, so two requests at once cannot both pass."""
    # The request's user is a lazy wrapper: lock through the user model, not its type.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    waiting = GameSession.objects.filter(
        created_by=user, match__isnull=True, status=GameSession.Status.WAITING
    ).count()
    if waiting >= OPEN_INVITATIONS:
        raise PlayError(
            _(
                "You already have %(n)s games waiting for players: call one off "
                "(or wait for your friends) before inviting to another."
            )
            % {"n": waiting}
        )


def _whole(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise PlayError(_("The number of seats must be a whole number.")) from None


def create_bot_game(
    user: User,
    system: str,
    bot: str = DEFAULT_BOT,
    *,
    bots: int = 1,
    time_bank: int | None = None,
    mode: str = "",
    deck: Any = None,
) -> GameSession:
    """A casual game: the user at seat 0 against ``bots`` bots; it starts at once."""
    return create_casual_game(
        user,
        system,
        players=_whole(bots) + 1,
        bots=bots,
        bot=bot,
        mode=mode,
        deck=deck,
        time_bank=time_bank,
    )


def create_friend_game(
    user: User,
    system: str,
    *,
    players: int = 2,
    bots: int = 0,
    bot: str = DEFAULT_BOT,
    mode: str = "",
    deck: Any = None,
    time_bank: int | None = CASUAL_TIME_BANK,
) -> GameSession:
    """A casual game against friends: it waits until the invite link fills every seat."""
    if _whole(bots) >= _whole(players) - 1:
        raise PlayError(_("Leave at least one seat for a friend."))
    return create_casual_game(
        user,
        system,
        players=players,
        bots=bots,
        bot=bot,
        mode=mode,
        deck=deck,
        time_bank=time_bank,
    )


def create_solo_game(user: User, system: str, *, time_bank: int | None = None) -> GameSession:
    """A one-player game, for a system whose engine deals one (registry ``solo``)."""
    return create_casual_game(user, system, players=1, time_bank=time_bank)


def join_game(user: User, token: str, deck: Any = None) -> GameSession:
    """Take an open seat through an invite link; the game starts when the last one fills.

    ``deck`` (a ``play.decks.DeckChoice``) as for ``create_casual_game``: checked before
    the seat is taken, so a refused list takes no seat.
    """
    from play import decks as casual_decks

    if not user.is_authenticated:
        raise NotAllowed(_("Log in to play."))
    found = GameSession.objects.filter(invite_token=token).values_list("system", "seed").first()
    if found is None:
        raise PlayError(_("This invitation is not valid."))
    system, seed = found
    seated = GameSession.objects.filter(invite_token=token, seats__user=user).exists()
    needs = casual_decks.needs_deck(system) and not seated
    chosen = casual_decks.deck_for(system, deck, seed + user.pk) if needs else None
    with transaction.atomic():
        session = GameSession.objects.select_for_update().filter(invite_token=token).first()
        if session is None:
            raise PlayError(_("This invitation is not valid."))
        if session.seats.filter(user=user).exists():
            return session
        if session.status != GameSession.Status.WAITING:
            raise PlayError(_("This game has already started."))
        seat = session.seats.filter(user__isnull=True, is_bot=False).order_by("number").first()
        if seat is None:
            raise PlayError(_("This game is full."))
        seat.user = user
        seat.save(update_fields=["user"])
        if needs:
            decks = list(session.decks) or [None] * session.seats.count()
            decks[seat.number] = chosen
            session.decks = decks
            session.save(update_fields=["decks", "updated_at"])
        if not session.seats.filter(user__isnull=True, is_bot=False).exists():
            _start(session)
    return session


def _start(session: GameSession) -> None:
    """Deal the game (inside the caller's transaction) and start the clocks."""
    system = engine_of(session.system)
    seats = _seats(session)
    decks = list(session.decks) if session.decks else [None] * len(seats)
    try:
        state = system.new_game(session.config, decks, session.seed)
    except EngineError as exc:
        raise PlayError(_("This game cannot start: %(why)s") % {"why": exc}) from None
    now = timezone.now()
    session.state = state
    session.set_status(GameSession.Status.RUNNING)
    session.started_at = now
    session.save(update_fields=["state", "status", "started_at", "updated_at"])
    _after_change(session, seats, system, now)


def _lock_match(match_id: int):
    return Match.objects.select_for_update().select_related("round").get(pk=match_id)


class _EventBank:
    """The default of ``time_bank`` for tournament games: the event's own setting."""

    def __repr__(self) -> str:
        return "the event's time bank"


EVENT_TIME_BANK: Any = _EventBank()


def event_time_bank(event) -> int:
    """Seconds each player has for a whole match of ``event`` (``Event.time_bank_minutes``)."""
    minutes = getattr(event, "time_bank_minutes", None)
    return int(minutes) * 60 if minutes else MATCH_TIME_BANK


def start_match(match, *, time_bank: int | None = EVENT_TIME_BANK, config: Mapping | None = None):
    """The session of the match's current game, created if needed (idempotent).

    Game 1 is created here; each later game is created when the previous one ends
    (``_record_in_match``). Who goes first is left to the engine. Each player's time
    bank lasts the whole match: by default the event's ``time_bank_minutes``
    (``None``: untimed). Returns ``None`` once the match is decided.
    """
    with transaction.atomic():
        match = _lock_match(match.pk)
        if time_bank is EVENT_TIME_BANK:
            time_bank = event_time_bank(
                Event.objects.only("time_bank_minutes").get(pk=match.round.event_id)
            )
        current = match.play_sessions.order_by("-game_number").first()
        if current is not None:
            return None if match.status == Match.Status.FINAL and current.is_over else current
        if match.is_bye or match.status == Match.Status.FINAL:
            raise PlayError(_("This match has no game to play."))
        if match.round.status != Round.Status.PUBLISHED:
            raise PlayError(_("This round is not being played."))
        return _create_match_game(match, 1, time_bank=time_bank, config=dict(config or {}))


def engine_deck(system: str, text: str | None) -> Any:
    """A stored decklist as the engine of ``system`` takes it (game-neutral).

    The system's deck checker (``registry.get(system).load("decks")``) turns the text into
    the engine's deck with ``to_engine_deck(text, db)``; a system without decklists, or a
    player without one, gives ``None`` and the engine deals its own decks.
    """
    if not text:
        return None
    info = registry.get(system)
    if not info.needs_decklists or not info.decks:
        return None
    checker = info.load("decks")
    convert = getattr(checker, "to_engine_deck", None)
    if not callable(convert):
        return text
    return convert(text, getattr(engine_of(system), "db", None))


def _match_decks(match, match_seats) -> list[Any]:
    """Each player's deck as the engine takes it, from the registration's decklist."""
    system = match.round.event.game_system
    decks = []
    for ms in match_seats:
        decklist = getattr(ms.registration, "decklist", None)
        decks.append(engine_deck(system, decklist.text if decklist is not None else None))
    return decks


def engine_config(system: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """The engine config a game on the site is dealt with: the game system's online
    defaults (``GameSystemInfo.play_config``), then the game's own. Stored with the
    session, so a replay deals the game exactly as it was dealt."""
    return {**registry.get(system).play_config, **config}


def _create_match_game(
    match,
    number: int,
    *,
    time_bank: int | None,
    config: dict,
    banks: Mapping[int, float | None] | None = None,
) -> GameSession:
    match_seats = list(
        match.seats.select_related("registration", "registration__decklist").order_by("seat")
    )
    session = GameSession.objects.create(
        system=match.round.event.game_system,
        match=match,
        game_number=number,
        config=engine_config(match.round.event.game_system, config),
        decks=_match_decks(match, match_seats),
        time_bank=time_bank,
    )
    for index, ms in enumerate(match_seats):
        reg = ms.registration
        left = time_bank if banks is None else banks.get(ms.pk, time_bank)
        SessionSeat.objects.create(
            session=session,
            number=index,
            user_id=reg.user_id,
            is_bot=reg.is_bot,
            bot_name=DEFAULT_BOT if reg.is_bot else "",
            match_seat=ms,
            time_left=None if reg.is_bot else left,
        )
    _start(session)
    return session


def start_round_games(
    rnd, *, time_bank: int | None = EVENT_TIME_BANK, config: Mapping | None = None
) -> list[GameSession]:
    """Create game 1 of every playable match of a round (idempotent).

    ``config`` is engine config over the system's online defaults, as for ``start_match``
    (the round's task passes none); a match's later games keep game 1's config. A match
    whose game cannot start (a missing or unreadable decklist, a final result entered
    already) is logged and left to the players' reports and the officials.
    """
    sessions = []
    for match in rnd.matches.filter(is_bye=False).order_by("table"):
        try:
            session = start_match(match, time_bank=time_bank, config=config)
        except PlayError as exc:
            logger.warning("no online game for match %s: %s", match.pk, exc)
            continue
        if session is not None:
            sessions.append(session)
    return sessions


# ---------------------------------------------------------------- acting


def parse_seq(value: Any) -> int:
    """A move's ``seq``: a whole number (an int, or its digits as text), nothing else."""
    if type(value) is int and value >= 0:
        return value
    if type(value) is str and value.isascii() and value.isdigit() and len(value) <= 12:
        return int(value)
    raise PlayError(_("seq must be a whole number."))


def check_move(
    seat: int, seq: Any, action: Any, *, current: int, status: str, to_act: Iterable[int]
) -> int:
    """The checks made before a move is queued, over what is known of the game; the seq.

    Pure: the HTTP view gives it the stored row, the websocket what it last relayed to
    that seat. The worker checks again under the row lock, so these only spare a task
    and answer at once.
    """
    seq = parse_seq(seq)
    if not isinstance(action, dict):
        raise PlayError(_('An action is an object with a "type".'))
    try:
        check_shape(action)  # the engine's own first check (engine.core.legality)
    except IllegalAction as exc:
        raise PlayError(str(exc)) from None
    if status != GameSession.Status.RUNNING:
        raise PlayError(_("This game is not being played."))
    if seq != current:
        raise PlayError(_("The game has moved on; look at the table again."))
    if seat not in to_act:
        raise NotAllowed(_("It is not your turn."))
    return seq


def queue_move(
    session_id: int,
    seat: int,
    seq: int,
    action: dict[str, Any],
    deadline: datetime | float | None = None,
) -> None:
    """Hand the move to a worker (``play.tasks.apply_action``); a broker down is an error.

    ``deadline`` is the seat's running clock's, as the caller knows it (the HTTP view from
    the row it read, the socket from the last push). A move taken within
    ``PENDING_WINDOW_SECONDS`` of it is first marked pending on the seat, so a clock check
    that a slow or restarted worker lets run first does not flag a move made in time
    (``flag_time``); other moves cost no query.
    """
    from play import tasks

    # When the move was made: the worker judges it against the clock at this moment.
    now = timezone.now()
    args = (session_id, seat, seq, action, now.timestamp())
    marked = _mark_pending(session_id, seat, now, deadline)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: tasks.apply_action.delay(*args))
        return
    try:
        tasks.apply_action.delay(*args)
    except OperationalError:  # the broker is down: nothing was queued, so nothing changed
        logger.warning("move for session %s at seq %s not queued: broker down", session_id, seq)
        if marked:
            SessionSeat.objects.filter(
                session_id=session_id, number=seat, pending_move_at=now
            ).update(pending_move_at=None)
        raise PlayError(_("The game server cannot take moves right now; try again.")) from None


def _mark_pending(
    session_id: int, seat: int, now: datetime, deadline: datetime | float | None
) -> bool:
    """Near the deadline, record on the seat that a move made at ``now`` is on its way.

    A compare-and-set: the earliest pending move stands (a later one changes nothing).
    """
    if deadline is None:
        return False
    if isinstance(deadline, datetime):
        deadline = deadline.timestamp()
    if deadline - now.timestamp() > PENDING_WINDOW_SECONDS:
        return False
    return bool(
        SessionSeat.objects.filter(
            session_id=session_id, number=seat, pending_move_at__isnull=True
        ).update(pending_move_at=now)
    )


def submit_action(user: User, session: GameSession | int, seq: Any, action: Any) -> int:
    """Check who acts and enqueue the action for a worker; returns the acting seat.

    ``session`` may be the row or its id: the checks read the current row in one query
    (the user's seat, status, ``seq`` and the state whose turn it is).
    """
    session_id = session if isinstance(session, int) else session.pk
    row = None
    if user is not None and user.is_authenticated:
        row = (
            SessionSeat.objects.filter(session_id=session_id, user=user)
            .values_list(
                "number",
                "session__status",
                "session__seq",
                "session__system",
                "session__state",
                "deadline",
            )
            .first()
        )
    if row is None:
        parse_seq(seq)
        raise NotAllowed(_("Only the players of this game can act in it."))
    number, status, current, system_key, state, deadline = row
    running = status == GameSession.Status.RUNNING and state is not None
    to_act = engine_of(system_key).to_act(state) if running else ()
    seq = check_move(number, seq, action, current=current, status=status, to_act=to_act)
    queue_move(session_id, number, seq, action, deadline)
    return number


@dataclass(frozen=True)
class Applied:
    """What became of one action: ``status`` is applied, stale, over, illegal or not_yours."""

    status: str
    message: str = ""
    seq: int | None = None


def _lock(session_id: int) -> GameSession | None:
    """The session row, locked until the transaction ends (``select_for_update``)."""
    found = rows.select(GameSession, "id", [session_id], lock=True)
    return found[0] if found else None


def _seats(session: GameSession) -> list[SessionSeat]:
    """The session's seats in seat order (each knowing its session without a query)."""
    seats = rows.select(SessionSeat, "session", [session.pk], order_by="number")
    to_session = SessionSeat._meta.get_field("session")
    for seat in seats:
        to_session.set_cached_value(seat, session)
    return seats


def _made_at(submitted_at: float | None, now: datetime) -> datetime:
    """When a move counts as made on the clock: when the server took it, never later than now."""
    if submitted_at is None:
        return now
    try:
        made = datetime.fromtimestamp(float(submitted_at), tz=now.tzinfo)
    except (TypeError, ValueError, OverflowError, OSError):
        return now
    return min(made, now)


def apply_action(
    session_id: int,
    seat: int,
    seq: int,
    action: dict[str, Any],
    *,
    submitted_at: float | None = None,
) -> Applied:
    """Apply one action under the session's row lock (the body of the task).

    ``submitted_at`` is when the server took the move (``queue_move``): the move is
    judged against the acting seat's clock at that moment, and the time it used is
    charged up to then, so a move made in time is not lost on time because a worker
    was slow, or was killed and the move delivered again. Bots' moves carry none.
    """
    with transaction.atomic():
        session = _lock(session_id)
        if session is None or session.status != GameSession.Status.RUNNING:
            return Applied("over")
        if session.seq != seq:
            # A repeated delivery, or a move made on an old view: that page catches up.
            message = _("The game has moved on; look at the table again.")
            _push_error_on_commit(session_id, seat, seq, message)
            if submitted_at is not None:  # a player's move: no longer on its way
                SessionSeat.objects.filter(
                    session_id=session_id,
                    number=seat,
                    pending_move_at__lte=_made_at(submitted_at, timezone.now()),
                ).update(pending_move_at=None)
            return Applied("stale", message, session.seq)
        system = engine_of(session.system)
        seats = _seats(session)
        now = timezone.now()
        acting = next((s for s in seats if s.number == seat), None)
        made = _made_at(submitted_at, now)
        if acting is None or seat not in system.to_act(session.state):
            if acting is not None:
                _clear_pending(acting, made)
            _push_error_on_commit(session_id, seat, seq, _("It is not your turn."))
            return Applied("not_yours", _("It is not your turn."), seq)
        if acting.deadline is not None and acting.deadline <= made:
            _leave_game(session, seats, system, acting, GameSession.EndReason.TIME, now)
            return Applied("over", _("Your time ran out."), seq)
        try:
            state, events = system.apply(session.state, seat, action)
        except IllegalAction as exc:
            _clear_pending(acting, made)
            _push_error_on_commit(session_id, seat, seq, str(exc))
            return Applied("illegal", str(exc), seq)
        except Exception:  # an engine bug: no input may make the task fail
            logger.exception("engine failed in session %s at seq %s", session_id, seq)
            _clear_pending(acting, made)
            message = _("The rules engine failed on this action; nothing changed.")
            _push_error_on_commit(session_id, seat, seq, message)
            return Applied("illegal", message, seq)
        _before_commit_hook(session_id, seq)
        rows.insert(
            ActionLog(session_id=session.pk, seq=seq, seat=seat, action=action, events=events)
        )
        session.state = state
        session.seq = seq + 1
        result = system.result(state)
        _charge_until(acting, () if result.finished else system.to_act(state), made, now)
        _clear_pending(acting, made)
        limit = move_limit()
        if result.finished:
            _finish(session, seats, result, GameSession.EndReason.RULES, now)
        elif limit is not None and session.seq >= limit:
            # A capped game (the demo): called like time in a round, a drawn game.
            _finish(session, seats, DRAWN, GameSession.EndReason.TIME, now)
        else:
            rows.update([session], ["state", "seq", "updated_at"])
            _after_change(session, seats, system, now)
    return Applied("applied", seq=seq + 1)


def _charge_until(
    acting: SessionSeat, to_act: Iterable[int], made: datetime, now: datetime
) -> None:
    """The mover's clock stopped when the move was made: ``_run_clocks`` then charges it
    up to ``made``, not to the moment a worker got to the move (the deadline it charges
    against moves on by the worker's delay). A clock that runs on (the seat acts again)
    keeps its deadline, as ``_run_clocks`` keeps it."""
    if acting.deadline is None or acting.time_left is None or made >= now:
        return
    if acting.number in set(to_act):
        return
    acting.deadline = acting.deadline + (now - made)


def _clear_pending(acting: SessionSeat, made: datetime) -> None:
    """The seat's pending move (if any, made no later than this one) has been applied.

    Rare (a move near the deadline), so its own UPDATE: ``_run_clocks`` stores a seat
    only when its clock changes."""
    if acting.pending_move_at is None or acting.pending_move_at > made:
        return
    acting.pending_move_at = None
    SessionSeat.objects.filter(pk=acting.pk).update(pending_move_at=None)


def _before_commit_hook(session_id: int, seq: int) -> None:
    """Test-only pause point (``PLAY_TEST_SLEEP_AT_SEQ``): lets a test kill a worker mid-action."""
    import os
    import time

    spec = os.environ.get("PLAY_TEST_SLEEP_AT_SEQ")
    if not spec:
        return
    target, _sep, seconds = spec.partition(":")
    if int(target) == seq:
        marker = os.environ.get("PLAY_TEST_SLEEP_MARKER")
        if marker:
            with open(marker, "a") as fh:
                fh.write(f"{session_id}:{seq}\n")
        time.sleep(float(seconds or 30))


def run_bot(session_id: int, seq: int) -> Applied | None:
    """A bot to act at ``seq`` chooses and applies its action (the body of the task)."""
    session = GameSession.objects.filter(pk=session_id).first()
    if session is None or session.status != GameSession.Status.RUNNING or session.seq != seq:
        return None
    system = engine_of(session.system)
    to_act = system.to_act(session.state)
    seat = session.seats.filter(is_bot=True, number__in=list(to_act)).order_by("number").first()
    if seat is None:
        return None
    return apply_action(session_id, seat.number, seq, bot_action(session, seat))


def flag_time(session_id: int, seat: int, seq: int) -> bool:
    """The clock task of ``seat`` fell due: if its time has run out, that player loses.

    ``seq`` is the move the task was queued at; what counts is the seat's clock now. If
    the seat is not to act (its clock stopped) the task has nothing to do; if its
    deadline lies ahead the task queues itself for it. Harmless if late or twice.
    """
    with transaction.atomic():
        session = _lock(session_id)
        if session is None or session.status != GameSession.Status.RUNNING:
            return False
        seats = _seats(session)
        acting = next((s for s in seats if s.number == seat), None)
        if acting is None:
            return False
        system = engine_of(session.system)
        now = timezone.now()
        running = acting.deadline is not None and seat in system.to_act(session.state)
        if running and acting.deadline <= now and _move_on_its_way(acting, now):
            # A move made in time is still with a worker: look again shortly.
            due = min(
                now + timedelta(seconds=PENDING_RECHECK_SECONDS),
                acting.deadline + timedelta(seconds=PENDING_GRACE_SECONDS),
            )
            acting.clock_check_at = _schedule_clock(session.pk, seat, session.seq, due)
            acting.save(update_fields=["clock_check_at"])
            return False
        if running and acting.deadline <= now:
            _leave_game(session, seats, system, acting, GameSession.EndReason.TIME, now)
            return True
        # Another task still to come (a second of slack for one delivered a hair early).
        due = acting.clock_check_at
        pending = due is not None and due > now + timedelta(seconds=1)
        if running:
            if pending and due <= acting.deadline:
                return False
            acting.clock_check_at = _schedule_clock(session.pk, seat, session.seq, acting.deadline)
        else:
            if pending:
                return False
            acting.clock_check_at = None
        acting.save(update_fields=["clock_check_at"])
    return False


def _move_on_its_way(acting: SessionSeat, now: datetime) -> bool:
    """The seat made a move before its deadline that no worker has applied yet, and the
    grace for it (``PENDING_GRACE_SECONDS`` past the deadline: a lost task) still runs."""
    made = acting.pending_move_at
    return (
        made is not None
        and acting.deadline is not None
        and made < acting.deadline
        and now < acting.deadline + timedelta(seconds=PENDING_GRACE_SECONDS)
    )


def concede(user: User, session: GameSession) -> GameSession:
    """A player gives up the game (at any time, on anyone's turn)."""
    with transaction.atomic():
        session = _lock(session.pk)
        seat = seat_of(user, session)
        if seat is None:
            raise NotAllowed(_("Only the players of this game can concede it."))
        if session.status != GameSession.Status.RUNNING:
            raise PlayError(_("This game is not being played."))
        system = engine_of(session.system)
        if seat.number in system.result(session.state).eliminated:
            raise PlayError(_("You are out of this game already."))
        seats = _seats(session)
        acting = next(s for s in seats if s.number == seat.number)
        _leave_game(
            session,
            seats,
            system,
            acting,
            GameSession.EndReason.CONCEDE,
            timezone.now(),
        )
    return session


def abort(user: User, session: GameSession) -> GameSession:
    """The creator calls off a casual game that has not started."""
    with transaction.atomic():
        session = _lock(session.pk)
        if session.created_by_id != getattr(user, "pk", None) or session.match_id:
            raise NotAllowed(_("Only the player who created this game can call it off."))
        if session.status != GameSession.Status.WAITING:
            raise PlayError(_("Only a game that has not started can be called off."))
        session.set_status(GameSession.Status.ABORTED)
        session.end_reason = GameSession.EndReason.ABORTED
        session.finished_at = timezone.now()
        session.save(update_fields=["status", "end_reason", "finished_at", "updated_at"])
    return session


# ---------------------------------------------------------------- clocks and the end


def _run_clocks(
    session: GameSession, seats: Sequence[SessionSeat], to_act: Iterable[int], now: datetime
) -> None:
    """Charge the time used since each running clock started; start the clocks of who acts now.

    Bots have no clock (their ``time_left`` is None): they never run out of time. A seat
    whose clock starts gets a clock task only when none is queued that falls due by its
    new deadline: the bank only shrinks, so a deadline is never earlier than the one
    before it, and the queued task, finding the deadline moved on, queues itself for the
    new one (``flag_time``). One task per seat then covers a whole game instead of one
    per move. A clock that keeps running (its seat acts again) is left as it is, so most
    moves of a turn store no seat at all; one UPDATE stores the seats that changed.
    """
    acting = set(to_act)
    running = session.status == GameSession.Status.RUNNING
    changed = []
    for seat in seats:
        dirty = False
        if (
            running
            and seat.number in acting
            and not seat.is_bot
            and seat.deadline is not None
            and seat.time_left is not None
        ):
            # Acts again (most moves of a turn): the clock runs on to the same deadline,
            # so nothing is stored (charging it and restarting it gives the same row).
            continue
        if seat.deadline is not None and seat.time_left is not None:
            seat.time_left = max(0.0, (seat.deadline - now).total_seconds())
            seat.deadline = None
            seat.pending_move_at = None  # its clock stopped: no move of its is on its way
            dirty = True
        if running and seat.number in acting and not seat.is_bot and seat.time_left is not None:
            seat.deadline = now + timedelta(seconds=seat.time_left)
            due = seat.clock_check_at
            if due is None or due <= now or due > seat.deadline:
                seat.clock_check_at = _schedule_clock(
                    session.pk, seat.number, session.seq, seat.deadline
                )
            dirty = True
        if dirty:
            changed.append(seat)
    rows.update(changed, ["time_left", "deadline", "clock_check_at", "pending_move_at"])


def _schedule_clock(session_id: int, seat: int, seq: int, eta: datetime) -> datetime:
    """Queue the seat's clock check for ``eta`` (or sooner, ``config.celery.queue_at``: the
    check then queues itself again for the deadline, ``flag_time``); returns when it is due."""
    from config.celery import queue_at
    from play import tasks

    return queue_at(tasks.clock_expired, (session_id, seat, seq), eta)


def _after_change(
    session: GameSession, seats: Sequence[SessionSeat], system: GameSystem, now: datetime
) -> None:
    """Move the clocks, then after commit push the views and schedule bots and clocks."""
    from play import tasks

    to_act = system.to_act(session.state)
    _run_clocks(session, seats, to_act, now)
    session_id, seq = session.pk, session.seq
    _push_on_commit(session, seats)
    if any(s.is_bot and s.number in to_act for s in seats):
        delay = bot_delay()
        transaction.on_commit(
            lambda: tasks.bot_move.apply_async((session_id, seq), countdown=delay),
            robust=True,
        )


def _result_json(result: GameResult) -> dict[str, Any]:
    return {
        "winners": list(result.winners),
        "draw": result.draw,
        "eliminated": list(result.eliminated),
        "scores": {str(k): v for k, v in dict(result.scores).items()},
    }


def _leave_game(
    session: GameSession,
    seats: Sequence[SessionSeat],
    system: GameSystem,
    loser: SessionSeat,
    reason: str,
    now: datetime,
) -> None:
    """A player conceded or ran out of time: they leave the game through the engine
    (``GameSystem.leave``: each system by its own rules), and the departure is logged
    like a move, so a replay rebuilds it. A two-sided game ends with it; in a game of
    more seats the others play on, and the seats' placements follow the order in which
    players left."""
    seq = session.seq
    try:
        state, events = system.leave(session.state, loser.number, reason)
    except IllegalAction:  # out already: nothing more to take from them
        return
    rows.insert(
        ActionLog(
            session_id=session.pk,
            seq=seq,
            seat=loser.number,
            action=leave_action(reason),
            events=events,
        )
    )
    session.state = state
    session.seq = seq + 1
    result = system.result(state)
    if result.finished:
        _finish(session, seats, result, reason, now)
    else:
        rows.update([session], ["state", "seq", "updated_at"])
        _after_change(session, seats, system, now)


def _finish(
    session: GameSession,
    seats: Sequence[SessionSeat],
    result: GameResult,
    reason: str,
    now: datetime,
) -> None:
    session.set_status(GameSession.Status.FINISHED)
    session.result = _result_json(result)
    session.end_reason = reason
    session.finished_at = now
    session.save(
        update_fields=[
            "state",
            "seq",
            "status",
            "result",
            "end_reason",
            "finished_at",
            "updated_at",
        ]
    )
    _run_clocks(session, seats, (), now)  # stops every clock, keeping what is left in the bank
    _push_on_commit(session, seats)
    if session.match_id:
        _record_in_match(session, seats, result)


def _match_outcome(
    seats: Sequence[SessionSeat], result: GameResult
) -> tuple[int | None, list[int] | None, list[int | None] | None]:
    """A finished game as the tournament takes it, by match seat.

    The sole winner's match seat (``None`` on a draw or a shared win), every match
    seat's placement (``tournaments.results.game_placements``: elimination order, rule
    1.3, then the game's scores; a player who conceded or ran out of time is reported as
    eliminated by ``_leave_game`` and so places last) and the scores, if the game
    keeps one for every seat.
    """
    by_number = {s.number: s for s in seats}
    winner: int | None = None
    if not result.draw and len(result.winners) == 1:
        match_seat = by_number[result.winners[0]].match_seat
        winner = match_seat.seat if match_seat is not None else None
    numbers = sorted(by_number)
    index = {number: k for k, number in enumerate(numbers)}
    scores = dict(result.scores or {})
    try:
        places = game_placements(
            len(numbers),
            winners=[index[n] for n in result.winners if n in index],
            draw=result.draw,
            eliminated=[index[n] for n in result.eliminated if n in index],
            scores={index[n]: v for n, v in scores.items() if n in index},
        )
    except ResultError as exc:  # a two-player match needs only the winner
        logger.warning("no placements from result %s: %s", result, exc)
        return winner, None, None
    order = sorted(
        numbers,
        key=lambda n: by_number[n].match_seat.seat if by_number[n].match_seat else n,
    )
    placements = [places[index[n]] for n in order]
    seat_scores = [scores.get(n) for n in order] if scores else None
    return winner, placements, seat_scores


def _record_in_match(
    session: GameSession, seats: Sequence[SessionSeat], result: GameResult
) -> None:
    """Hand the game to the tournament; start the next game while the match is undecided."""
    winner, placements, scores = _match_outcome(seats, result)
    try:
        with transaction.atomic():
            match = tournament_services.record_engine_result(
                session.match,
                session.game_number,
                winner_seat=winner,
                placements=placements,
                scores=scores,
            )
    except tournament_services.TournamentError as exc:
        logger.warning("game %s not recorded in match %s: %s", session.pk, session.match_id, exc)
        return
    if match.status == Match.Status.FINAL:
        return
    banks = {s.match_seat_id: s.time_left for s in seats if s.match_seat_id}
    _create_match_game(
        match,
        session.game_number + 1,
        time_bank=session.time_bank,
        config=dict(session.config),
        banks=banks,
    )


def end_match_sessions(match_id: int) -> int:
    """The match was settled without the engine (time called, an official's result, the
    players' agreeing reports): end its games still being played; how many were ended.

    Called after the tournament's transaction committed, and again by the sweep, so it
    is harmless twice. A game in progress when time was called becomes a drawn game
    (``Match.Source.TIME``: the tournament counted it as one), any other is aborted.
    Either way the clocks stop (the time used is charged), and the tasks still queued
    for the game (bot moves, clock checks) find it over and change nothing. Each seat's
    page gets the final view.
    """
    match = Match.objects.filter(pk=match_id).only("status", "result_source").first()
    if match is None or match.status != Match.Status.FINAL:
        return 0
    if match.result_source == Match.Source.ENGINE:
        return 0  # the engine decided it: its games end by the rules
    open_ids = list(
        GameSession.objects.filter(
            match_id=match_id,
            status__in=[GameSession.Status.WAITING, GameSession.Status.RUNNING],
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    ended = 0
    for session_id in open_ids:
        with transaction.atomic():
            session = _lock(session_id)
            if session is None or session.is_over:
                continue
            seats = _seats(session)
            now = timezone.now()
            was_running = session.status == GameSession.Status.RUNNING
            if was_running and match.result_source == Match.Source.TIME:
                session.set_status(GameSession.Status.FINISHED)
                session.result = _result_json(DRAWN)
                session.end_reason = GameSession.EndReason.TIME
            else:
                session.set_status(GameSession.Status.ABORTED)
                session.end_reason = GameSession.EndReason.ABORTED
            session.finished_at = now
            session.save(
                update_fields=["status", "result", "end_reason", "finished_at", "updated_at"]
            )
            _run_clocks(session, seats, (), now)  # stops every clock, charging the time used
            for seat in seats:
                seat.clock_check_at = None
            SessionSeat.objects.filter(session=session).update(clock_check_at=None)
            _push_on_commit(session, seats)
            ended += 1
    if ended:
        logger.info("match %s settled without the engine: %s game(s) ended", match_id, ended)
    return ended


# ---------------------------------------------------------------- reading


def game_log(session: GameSession) -> list[dict[str, Any]]:
    """The public record of the game: who did what (action type) and the events it caused."""
    return [
        {
            "seq": row.seq,
            "seat": row.seat,
            "type": row.action.get("type", "?"),
            "events": row.events,
        }
        for row in session.actions.order_by("seq")
    ]


def replay_state(session: GameSession, upto: int | None = None) -> State:
    """The state after the first ``upto`` actions, recomputed from the seed and the log."""
    system = engine_of(session.system)
    rows = session.actions.order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lt=upto)
    decks = list(session.decks) if session.decks else [None] * session.seats.count()
    return replay(system, session.config, decks, session.seed, ((r.seat, r.action) for r in rows))
