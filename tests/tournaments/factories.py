"""Building events for tests through the same services the site uses."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tournaments.models import Event, Match, Round
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.results import enter_result
from tournaments.services.starting import start_event


def make_event(organiser, players: int = 8, start: bool = True, **fields) -> tuple[Event, list]:
    """An event with ``players`` registered users (p01, p02, ...) and, if ``start``, started."""
    defaults = {"name": "Test Open", "swiss_rounds": 3, "best_of": 3}
    defaults.update(fields)
    event = create_event(organiser, **defaults)
    User = get_user_model()
    regs = []
    for n in range(1, players + 1):
        user, _ = User.objects.get_or_create(username=f"p{n:02d}-{event.pk}")
        regs.append(register(event, user=user, display_name=f"Player {n:02d}"))
    if start:
        event = start_event(organiser, event)
    return event, regs


def play_round(organiser, event: Event, pick=lambda match: [0, 0]) -> Round:
    """Pair, publish and enter a result for every match of the next round."""
    rnd = publish_round(organiser, pair_next_round(organiser, event))
    for match in rnd.matches.filter(is_bye=False).order_by("table"):
        enter_result(organiser, match, pick(match))
    rnd.refresh_from_db()
    return rnd


def seat_users(match: Match):
    return [
        seat.registration.user
        for seat in match.seats.order_by("seat").select_related("registration__user")
    ]
