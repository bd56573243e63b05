"""Another game of a finished casual table: the same seats, the same settings, a new deal.

A rematch keeps each person and each bot at the seat they had, the engine config (the
table mode, the system's online rules), each seat's deck and the time bank; only the
seed is new. A table of the asker and bots starts at once. A table with other people
waits for them: their seats are open through an invitation, and the end screen of the
game they played shows them the way to it (``offered_rematch``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from play.models import GameSession, SessionSeat, new_game_seed
from play.services.errors import NotAllowed, PlayError
from play.services.sessions import User, seat_of
from play.services.starting import _check_open_invitations, _new_token, _start


def rematch(user: User, session: GameSession) -> GameSession:
    """A new game of ``session``'s table asked for by one of its players."""
    if seat_of(user, session) is None:
        raise NotAllowed(_("Only the players of this game can ask for a rematch."))
    if session.match_id:
        raise PlayError(_("The games of a tournament match are dealt by the match."))
    if session.status != GameSession.Status.FINISHED:
        raise PlayError(_("A rematch can be asked for once the game is over."))
    seats = list(session.seats.order_by("number"))
    others = [s for s in seats if not s.is_bot and s.user_id != user.pk]
    decks = list(session.decks or [])
    for seat in others:
        if seat.number < len(decks):
            decks[seat.number] = None  # each person who comes back brings a deck again
    with transaction.atomic():
        if others:
            _check_open_invitations(user)
        new = GameSession.objects.create(
            system=session.system,
            created_by=user,
            config=dict(session.config or {}),
            decks=decks,
            seed=new_game_seed(),
            time_bank=session.time_bank,
            invite_token=_new_token() if others else None,
            deck_format=session.deck_format,
            deck_origin=dict(session.deck_origin or {}),
        )
        for seat in seats:
            mine = seat.user_id == user.pk
            SessionSeat.objects.create(
                session=new,
                number=seat.number,
                user_id=user.pk if mine else None,
                is_bot=seat.is_bot,
                bot_name=seat.bot_name,
                time_left=None if seat.is_bot else session.time_bank,
            )
        if not others:
            _start(new)
    return new


def offered_rematch(session: GameSession, user: User) -> GameSession | None:
    """The rematch of ``session`` another of its players asked for and ``user`` (a player
    of it too) has not joined yet: a casual game of the same system that one of them
    created after this one ended and that still waits for players."""
    if not user.is_authenticated or session.match_id or session.finished_at is None:
        return None
    players = [
        uid
        for uid in session.seats.filter(user__isnull=False).values_list("user_id", flat=True)
        if uid != user.pk
    ]
    if not players or not session.seats.filter(user=user).exists():
        return None
    return (
        GameSession.objects.filter(
            system=session.system,
            match__isnull=True,
            status=GameSession.Status.WAITING,
            created_by_id__in=players,
            created_at__gte=session.finished_at,
            invite_token__isnull=False,
        )
        .exclude(seats__user=user)
        .order_by("created_at")
        .first()
    )
