"""A game's rows as the other modules read them: the session row locked for a change,
its seats in seat order, and the seat a user holds."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from play import rows
from play.models import GameSession, SessionSeat

User = AbstractBaseUser | AnonymousUser


def seat_of(user: User | None, session: GameSession) -> SessionSeat | None:
    if user is None or not user.is_authenticated:
        return None
    return session.seats.filter(user=user).first()


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
