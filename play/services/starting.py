"""Starting games: casual tables (against bots, friends or alone) and the games of a match.

A casual game starts at once, or when the invite link fills its last seat
(``join_game``). A tournament match's game 1 is dealt when its round is published
(``start_round_games``, ``start_match``); each later game when the one before it ends
(``ending``, through ``create_match_game``). Either way the engine deals the game with
the system's online config and the players' decks (``engine_config``, ``engine_deck``),
and the clocks start (``clocks.after_change``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine.core import registry
from engine.core.errors import EngineError
from engine.core.protocol import GameSystem
from play.models import GameSession, SessionSeat, new_game_seed
from play.services.clocks import after_change
from play.services.engines import bot_names, engine_of
from play.services.errors import NotAllowed, PlayError
from play.services.sessions import User, session_seats
from tournaments.models import Event, Match, Round, TeamMember

logger = logging.getLogger("gauntlet.play")

DEFAULT_BOT = "heuristic"
CASUAL_TIME_BANK = 15 * 60  # seconds per player for a game against a friend
MATCH_TIME_BANK = 25 * 60  # seconds per match when an event gives none (Event.time_bank_minutes)


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
    origin_key: str | None = None,
) -> GameSession:
    """A casual table of ``players`` seats: the user at seat 0 (or the mode's
    ``creator_seat``), bots at the last ``bots`` other seats, friends at the other seats
    between, through the invite link (``join_game``).

    It starts at once when no seat waits for a friend, else when the last one is taken.
    ``players == 1`` is the solo game of a system whose engine deals one (registry
    ``solo``). ``mode`` is one of the system's ``table_modes`` (default: free-for-all),
    fitting the number of seats; its engine config goes to the engine with the game's.
    ``deck`` (a ``play.decks.DeckChoice``) is the user's deck for a system that needs
    decks: a starter deck or a pasted list, checked here before anything is stored (a
    bad list raises ``DeckRefused`` with every problem), or a ``CheckedDeck`` built
    from a pool; bots get a starter deck chosen with the game's seed, or, when the
    user's deck was checked in a limited format, a deck of that format
    (``play.decks.opponent_deck``). The table records the format and where the deck
    came from (``deck_format``, ``deck_origin``); ``origin_key`` is stored unique, so a
    second table for the same request fails with ``IntegrityError``.
    """
    from play import decks as casual_decks

    if not user.is_authenticated:
        raise NotAllowed(_("Log in to play."))
    _check_system(system)
    info = registry.get(system)
    players, bots = _whole(players), _whole(bots)
    if players == 1:
        if not info.solo:
            raise PlayError(
                _("%(game)s has no solo game.") % {"game": info.label(get_language() or "en")}
            )
        bots = 0
    elif not info.min_players <= players <= info.max_players:
        raise PlayError(
            _("%(game)s is played by %(min)s to %(max)s players.")
            % {
                "game": info.label(get_language() or "en"),
                "min": info.min_players,
                "max": info.max_players,
            }
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
    if not table.fits(players):
        raise PlayError(
            _("%(mode)s needs %(n)s players.")
            % {"mode": table.name, "n": " / ".join(map(str, table.players))}
        )
    config = engine_config(
        system, {"players": 1, **table.config()} if players == 1 else table.config()
    )
    seed = new_game_seed()
    friends = players - bots - 1
    # the creator's seat (the mode's, e.g. a side only one seat plays), then friends, then
    # bots in seat order
    mine = table.creator_seat if 0 <= table.creator_seat < players else 0
    others = [number for number in range(players) if number != mine]
    friend_seats = set(others[:friends])
    seat_decks: list[Any] = []
    deck_format, origin = "", {}
    if casual_decks.needs_deck(system):
        deck_format, origin = _deck_record(system, deck)
        limited = casual_decks.is_limited(system, deck_format)
        bot_decks: list[str] = []

        def bot_deck(number: int) -> Any:
            if not limited:
                return casual_decks.deck_for(system, None, seed + number)
            built, source = casual_decks.opponent_deck(
                system,
                deck_format,
                seed + number,
                getattr(deck, "sets", ()),
                getattr(deck, "supplied", ()),
            )
            bot_decks.append(source)
            return built

        # Checked before any row is written: a refused list leaves nothing behind.
        seat_decks = [
            casual_decks.deck_for(system, deck, seed)
            if number == mine
            else None
            if number in friend_seats
            else bot_deck(number)
            for number in range(players)
        ]
        if bot_decks:
            origin["bots"] = bot_decks
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
            deck_format=deck_format,
            deck_origin=origin,
            origin_key=origin_key,
        )
        SessionSeat.objects.create(session=session, number=mine, user=user, time_left=time_bank)
        for number in others:
            if number in friend_seats:
                SessionSeat.objects.create(session=session, number=number, time_left=time_bank)
            else:
                SessionSeat.objects.create(
                    session=session, number=number, is_bot=True, bot_name=bot
                )
        if not friends:
            _start(session)
    return session


def _deck_record(system: str, deck: Any) -> tuple[str, dict[str, Any]]:
    """The format the creator's deck is checked in and where it comes from, as the
    table records them (``GameSession.deck_format``, ``deck_origin``)."""
    from play import decks as casual_decks

    casual = registry.get(system).casual_format
    if isinstance(deck, casual_decks.CheckedDeck):
        return deck.format, dict(deck.origin)
    if isinstance(deck, casual_decks.DeckChoice) and deck.choice == casual_decks.PASTE:
        return deck.format or casual, {"kind": "paste"}
    if isinstance(deck, casual_decks.DeckChoice) and deck.choice:
        return casual, {"kind": "starter", "key": deck.choice}
    return casual, {"kind": "starter"}


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
    origin_key: str | None = None,
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
        origin_key=origin_key,
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
    origin_key: str | None = None,
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
        origin_key=origin_key,
    )


def create_solo_game(
    user: User, system: str, *, time_bank: int | None = None, mode: str = ""
) -> GameSession:
    """A one-player game, for a system whose engine deals one (registry ``solo``), seated
    by one of its one-seat table modes if ``mode`` names one."""
    return create_casual_game(user, system, players=1, mode=mode, time_bank=time_bank)


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
    seats = session_seats(session)
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
    after_change(session, seats, system, now)


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
    (``ending._record_in_match``). Who goes first is left to the engine. Each player's time
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
        # Game 1, or the game after those a game loss took before any was dealt (0066).
        number = match.games.count() + 1
        return create_match_game(match, number, time_bank=time_bank, config=dict(config or {}))


def engine_deck(system: str, text: str | None) -> Any:
    """A stored decklist as the engine of ``system`` takes it (game-neutral).

    The system's decklist service (``registry.get(system).load("decks")``,
    ``engine.core.decklists``) turns the text into the engine's deck; a system without decklists, or a
    player without one, gives ``None`` and the engine deals its own decks.
    """
    if not text:
        return None
    info = registry.get(system)
    if not info.needs_decklists or not info.decks:
        return None
    return info.load("decks").to_engine_deck(text)


def _match_places(match, match_seats) -> tuple[list[tuple[Any, int | None, str | None]], dict]:
    """Who sits where at a game of the match: (match seat, user id, deck text) by game
    seat number, and the engine config of the seating.

    A player's match: one game seat per match seat, the decklist of the registration. A
    match of two teams (``registry.Format.team_size``): every member at their own seat,
    with their own deck, the teams seated as the game's table mode of that many allies
    says (``TableMode.teams``, the engine's ``config["teams"]``), else side by side.
    """
    event = match.round.event
    size = event.team_size
    if size < 2:
        places = []
        for ms in match_seats:
            decklist = getattr(ms.registration, "decklist", None)
            text = decklist.text if decklist is not None else None
            places.append((ms, ms.registration.user_id, text))
        return places, {}
    teams = _team_seating(event.game_info, len(match_seats), size)
    members: dict[int, list[TeamMember]] = {}
    for member in TeamMember.objects.filter(
        registration_id__in=[ms.registration_id for ms in match_seats]
    ).order_by("position"):
        members.setdefault(member.registration_id, []).append(member)
    by_number: dict[int, tuple[Any, int | None, str | None]] = {}
    for ms, numbers in zip(match_seats, teams, strict=True):
        team = members.get(ms.registration_id, [])
        if len(team) != size:
            raise PlayError(
                _("The team %(team)s has %(n)d members, not %(size)d.")
                % {"team": ms.registration.display_name, "n": len(team), "size": size}
            )
        for number, member in zip(numbers, team, strict=True):
            by_number[number] = (ms, member.user_id, member.deck or None)
    places = [by_number[number] for number in sorted(by_number)]
    return places, {"teams": [list(numbers) for numbers in teams]}


def _team_seating(info: registry.GameSystemInfo, teams: int, size: int) -> list[list[int]]:
    """The seat numbers of each team: the game's own table mode for ``teams`` teams of
    ``size`` when it has one, else each team side by side."""
    for mode in info.table_modes:
        if len(mode.teams) == teams and all(len(team) == size for team in mode.teams):
            return [list(team) for team in mode.teams]
    return [[t * size + k for k in range(size)] for t in range(teams)]


def engine_config(system: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """The engine config a game on the site is dealt with: the game system's online
    defaults (``GameSystemInfo.play_config``), then the game's own. Stored with the
    session, so a replay deals the game exactly as it was dealt."""
    return {**registry.get(system).play_config, **config}


def create_match_game(
    match,
    number: int,
    *,
    time_bank: int | None,
    config: dict,
    banks: Mapping[int, float | None] | None = None,
) -> GameSession:
    """Deal game ``number`` of the match. ``banks``: each game seat's time left from the
    game before (by seat number), else ``time_bank``."""
    match_seats = list(
        match.seats.select_related("registration", "registration__decklist").order_by("seat")
    )
    system = match.round.event.game_system
    places, seating = _match_places(match, match_seats)
    session = GameSession.objects.create(
        system=system,
        match=match,
        game_number=number,
        config=engine_config(system, {**config, **seating}),
        decks=[engine_deck(system, text) for _ms, _user, text in places],
        time_bank=time_bank,
    )
    for index, (ms, user_id, _text) in enumerate(places):
        reg = ms.registration
        left = time_bank if banks is None else banks.get(index, time_bank)
        SessionSeat.objects.create(
            session=session,
            number=index,
            user_id=user_id,
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
