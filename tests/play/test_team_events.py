"""An online team event: four teams of two play «Восхождение» 2 vs 2 (Team Blitz).

Each match of two teams is one game of four seats, dealt with ``config["teams"]``; every
member sits at their own seat with their own deck, so each plays from their own browser.
Two teams are people (their moves chosen like a bot's and sent as a person's), two are
bots; every task a worker would run is run here in-process (``task.apply``).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.core.protocol import GameResult
from engine.voskhozhdenie.bots import make_bot
from engine.voskhozhdenie.game import SYSTEM
from play import tasks
from play.models import GameSession, SessionSeat
from play.services.ending import _match_outcome
from tests.play.helpers import legal_deck_text
from tournaments.models import Event, Match, MatchSeat, Round
from tournaments.services.decklists import submit_member_deck
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.standings import refresh_standings
from tournaments.services.starting import start_event
from tournaments.services.teams import register_team
from tournaments.tasks import advance_event

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 7)


def step(session: GameSession) -> None:
    """One move: a bot's through its task, a person's through the task of a sent move."""
    (seat,) = SYSTEM.to_act(session.state)
    if session.seats.get(number=seat).is_bot:
        tasks.bot_move.apply(args=(session.pk, session.seq))
    else:
        action = BRAIN.choose(session.state, seat)
        tasks.apply_action.apply(args=(session.pk, seat, session.seq, action))


def drive(rnd: Round, limit: int = 20_000) -> None:
    for _ in range(limit):
        running = list(GameSession.objects.filter(match__round=rnd, status="running"))
        if not running:
            return
        for session in running:
            step(session)
    raise AssertionError("the games did not end")


def test_the_winning_team_wins_its_match_seat():
    first, second = MatchSeat(pk=1, seat=0), MatchSeat(pk=2, seat=1)
    seats = [
        SessionSeat(number=n, match_seat=ms) for n, ms in enumerate([first, first, second, second])
    ]
    won = GameResult(finished=True, winners=(2, 3), eliminated=(0, 1))
    assert _match_outcome(seats, won)[0] == 1
    survivor = GameResult(finished=True, winners=(1,), eliminated=(0, 2, 3))
    assert _match_outcome(seats, survivor)[0] == 0
    drawn = GameResult(finished=True, draw=True)
    assert _match_outcome(seats, drawn)[0] is None


@pytest.fixture
def team_event(alice, make_user):
    event = create_event(
        alice,
        name="Pairs Online",
        format="team_blitz",
        swiss_rounds=2,
        best_of=1,
        play_online=True,
        auto_advance=True,
    )
    for n in range(4):
        bots = n >= 2
        members = [make_user(f"{'bot' if bots else 'pl'}{n}{k}") for k in "ab"]
        reg = register_team(
            event,
            name=f"{'Bots' if bots else 'People'} {n}",
            members=members,
            actor=alice if bots else members[0],
            is_bot=bots,
        )
        for k, member in enumerate(reg.members.order_by("position")):
            submit_member_deck(member.user, member, legal_deck_text(20 + 2 * n + k))
    return event


def test_an_online_team_swiss_event_is_played_to_the_final_standings(
    alice, client, team_event, settings, django_capture_on_commit_callbacks
):
    settings.PLAY_MAX_MOVES = 300  # a game longer than this is a drawn game
    event = start_event(alice, team_event)
    with django_capture_on_commit_callbacks(execute=False):
        rnd = publish_round(alice, pair_next_round(alice, event))
    assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 2

    for session in GameSession.objects.filter(match__round=rnd):
        seats = list(session.seats.select_related("match_seat__registration").order_by("number"))
        assert len(seats) == 4 and len(session.state["players"]) == 4
        assert session.config["teams"] == [[0, 1], [2, 3]]
        assert all(isinstance(deck, dict) and deck["cities"] for deck in session.decks)
        match_seats = [s.match_seat for s in seats]
        assert match_seats[0] == match_seats[1] != match_seats[2] == match_seats[3]
        for seat in seats:  # each member at their own seat, in the team's order
            members = list(
                seat.match_seat.registration.members.order_by("position").values_list(
                    "user_id", flat=True
                )
            )
            assert seat.user_id == members[seat.number % 2]
            assert seat.is_bot == seat.match_seat.registration.is_bot

    # The partner (not only the member who registered the team) finds their own game.
    person = (
        GameSession.objects.filter(match__round=rnd, seats__is_bot=False)
        .first()
        .seats.filter(is_bot=False)
        .order_by("number")
        .last()
    )
    client.force_login(person.user)
    page = client.get(reverse("tournaments:my_match", args=[event.slug])).content.decode()
    assert reverse("play:game", args=[person.session_id]) in page

    with django_capture_on_commit_callbacks(execute=False):
        drive(rnd)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    for match in rnd.matches.all():
        assert match.status == Match.Status.FINAL
        assert match.result_source == Match.Source.ENGINE
        assert match.games.count() == match.play_sessions.filter(status="finished").count()

    # The event runs itself: round 2 is paired and published, its games dealt and played.
    with django_capture_on_commit_callbacks(execute=False):
        assert advance_event.apply(args=(event.pk,)).get() == 2
    second = event.rounds.get(number=2)
    assert second.status == Round.Status.PUBLISHED
    assert tasks.start_round_games.apply(args=(second.pk,)).get() == 2
    with django_capture_on_commit_callbacks(execute=False):
        drive(second)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED

    rows = refresh_standings(event).rows
    assert len(rows) == 4
    assert all(len(row["members"]) == 2 for row in rows)
    matches = Match.objects.filter(round__event=event)
    drawn = sum(1 for m in matches if m.winner_id is None)
    assert sum(row["points"] for row in rows) == 3 * 4 - drawn
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "People 0" in page and '>@pl0a</a>, <a href="/players/pl0b/"' in page  # 0066
