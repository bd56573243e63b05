"""A game's rows as the other modules read them: the session row locked for a change,
its seats in seat order, the seat a user holds, and who may watch a game."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from play import rows
from play.models import GameSession, SessionSeat
from tournaments.models import Match, Round
from tournaments.services.permissions import is_official

User = AbstractBaseUser | AnonymousUser


def seat_of(user: User | None, session: GameSession) -> SessionSeat | None:
    if user is None or not user.is_authenticated:
        return None
    return session.seats.filter(user=user).first()


def may_see_match(user: User | None, match: Match, is_player: bool) -> bool:
    """A match of an unpublished round is the officials' alone (the API hides it too);
    a published one is its players' and, for a listed event, anyone's. Match and game
    ids are sequential, so to anyone else it answers as if there were no such match."""
    event = match.round.event
    if is_official(user, event):
        return True
    if match.round.status == Round.Status.DRAFT:
        return False
    return is_player or event.is_public


def may_watch(user: User | None, session: GameSession) -> bool:
    """A casual game is anyone's to watch; an event's game, as its match is
    (``may_see_match``): of an unlisted event, its players' and officials' only."""
    if session.match_id is None:
        return True
    match = Match.objects.select_related("round__event").get(pk=session.match_id)
    if match.round.event.is_public and match.round.status != Round.Status.DRAFT:
        return True  # anyone's: no more to ask
    is_player = seat_of(user, session) is not None or (
        user is not None
        and user.is_authenticated
        and match.seats.filter(registration__user=user).exists()
    )
    return may_see_match(user, match, is_player)


def lock_session(session_id: int) -> GameSession | None:
    """The session row, locked until the transaction ends (``select_for_update``)."""
    found = rows.select(GameSession, "id", [session_id], lock=True)
    return found[0] if found else None


def session_seats(session: GameSession) -> list[SessionSeat]:
    """The session's seats in seat order (each knowing its session without a query)."""
    seats = rows.select(SessionSeat, "session", [session.pk], order_by="number")
    to_session = SessionSeat._meta.get_field("session")
    for seat in seats:
        to_session.set_cached_value(seat, session)
    return seats
