"""Online matches settled by people, the event's time bank, the round-complete notice.

- Time called on an online round keeps the games the engine decided; the game in
  progress becomes a drawn game and its session ends with its clocks stopped.
- An official's result ends the match's running game (aborted); the tasks still queued
  for it (clock checks, bot moves) change nothing.
- Each match's time bank is the event's ``time_bank_minutes``.
- A completed round is written in the audit log once, and the console says what to do.

Ascension games (two players, no decklists); tasks run in-process as a worker runs them.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.ascension.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.acting import concede
from play.services.ending import end_match_sessions
from play.services.starting import start_match, start_round_games
from tests.tournaments.factories import make_event, seat_users
from tournaments.models import AuditEntry, Match, Round
from tournaments.services.decklists import submit_decklist
from tournaments.services.errors import TournamentError
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.results import call_time, enter_result
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


def online_round(alice, players: int = 2, **fields):
    fields.setdefault("best_of", 3)
    event, _regs = make_event(
        alice, players=players, game_system="ascension", swiss_rounds=2, play_online=True, **fields
    )
    rnd = publish_round(alice, pair_next_round(alice, event))
    return event, rnd


def game_one_conceded(alice, **fields):
    """A best-of-3 online match where game 1 went to seat 1 (seat 0 conceded); game 2 runs."""
    event, rnd = online_round(alice, **fields)
    match = rnd.matches.get()
    first, _second = seat_users(match)
    concede(first, start_match(match))
    game2 = GameSession.objects.get(match=match, game_number=2)
    assert game2.status == GameSession.Status.RUNNING
    return event, rnd, match, game2


def test_time_called_keeps_the_engines_game_and_the_game_in_progress_is_drawn(
    alice, django_capture_on_commit_callbacks
):
    _event, rnd, match, game2 = game_one_conceded(alice)
    acting = game2.seats.exclude(deadline=None).get()
    seq = game2.seq
    with django_capture_on_commit_callbacks(execute=True):
        assert call_time(alice, rnd) == 1
    match.refresh_from_db()
    # Game 1 (won by seat 1) stands; game 2, in progress at time, is a drawn game: 0-1-1.
    assert list(match.games.order_by("number").values_list("winner_seat", flat=True)) == [1, None]
    assert list(match.seats.order_by("seat").values_list("game_wins", flat=True)) == [0, 1]
    assert match.game_draws == 1 and match.result_source == Match.Source.TIME
    assert match.winner.user == seat_users(match)[1]
    game2.refresh_from_db()
    assert game2.status == GameSession.Status.FINISHED
    assert game2.end_reason == GameSession.EndReason.TIME and game2.result["draw"] is True
    assert not game2.seats.exclude(deadline=None).exists()  # every clock stopped
    acting.refresh_from_db()
    assert acting.time_left is not None and acting.clock_check_at is None
    # The tasks still queued for game 2 find it over.
    assert tasks.clock_expired.apply(args=(game2.pk, acting.number, seq)).get() is False
    assert tasks.bot_move.apply(args=(game2.pk, seq)).get() is None
    (mover,) = SYSTEM.to_act(game2.state)
    assert (
        tasks.apply_action.apply(args=(game2.pk, mover, seq, {"type": "end_turn"})).get() == "over"
    )
    assert not GameSession.objects.filter(match=match, game_number=3).exists()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED


def test_an_officials_result_ends_the_running_game_and_its_clocks(
    alice, django_capture_on_commit_callbacks
):
    _event, _rnd, match, game2 = game_one_conceded(alice)
    with django_capture_on_commit_callbacks(execute=True):
        enter_result(alice, match, [0, 0])
    game2.refresh_from_db()
    assert game2.status == GameSession.Status.ABORTED
    assert game2.end_reason == GameSession.EndReason.ABORTED and game2.finished_at
    assert not game2.seats.exclude(deadline=None).exists()
    match.refresh_from_db()
    assert match.result_source == Match.Source.ORGANISER
    assert list(match.games.values_list("winner_seat", flat=True)) == [0, 0]
    # The engine's late word on the aborted game changes nothing in the match.
    assert end_match_sessions(match.pk) == 0
    assert tasks.bot_move.apply(args=(game2.pk, game2.seq)).get() is None


def test_a_lost_end_of_the_games_is_done_by_the_sweep(alice, django_capture_on_commit_callbacks):
    from tournaments import sweeps

    _event, _rnd, match, game2 = game_one_conceded(alice)
    with django_capture_on_commit_callbacks(execute=False):
        enter_result(alice, match, [0, 0])
    game2.refresh_from_db()
    assert game2.status == GameSession.Status.RUNNING  # the callback was lost
    assert sweeps.sweep()["ended"] == 1
    game2.refresh_from_db()
    assert game2.status == GameSession.Status.ABORTED
    assert sweeps.sweep()["ended"] == 0


def test_each_match_gets_the_events_time_bank(alice, client):
    _event, rnd = online_round(alice, time_bank_minutes=7)
    match = rnd.matches.get()
    session = start_match(match)
    assert session.time_bank == 7 * 60
    assert set(session.seats.values_list("time_left", flat=True)) <= {7 * 60.0}
    concede(seat_users(match)[0], session)
    game2 = GameSession.objects.get(match=match, game_number=2)
    assert game2.time_bank == 7 * 60
    # start_round_games and the match page use it too
    _other, other_round = online_round(alice, time_bank_minutes=3)
    (started,) = start_round_games(other_round)
    assert started.time_bank == 180
    _third, third_round = online_round(alice, time_bank_minutes=11)
    third = third_round.matches.get()
    client.force_login(seat_users(third)[0])
    client.post(reverse("play:match", args=[third.pk]))
    assert third.play_sessions.get().time_bank == 11 * 60


def test_a_completed_round_is_audited_once_and_the_console_says_to_pair_the_next(
    alice, client, django_capture_on_commit_callbacks
):
    event, rnd = online_round(alice, players=4)
    client.force_login(alice)
    for match in rnd.matches.order_by("table"):
        enter_result(alice, match, [0, 0])
    completed = AuditEntry.objects.filter(event=event, action=AuditEntry.Action.COMPLETE)
    assert completed.count() == 1 and completed.get().data == {"round": 1}
    page = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert "Round 1 complete — pair round 2." in page
    assert 'id="round-notice"' in page
    # The console refreshes itself when results come in.
    assert 'id="flow" data-live' in page and 'id="console-rounds" data-live' in page
    # An override after the round completed writes no second COMPLETE.
    enter_result(alice, rnd.matches.order_by("table").first(), [1, 1])
    assert completed.count() == 1


def test_a_self_running_event_says_it_ran_the_next_round_itself(
    alice, client, django_capture_on_commit_callbacks
):
    from tournaments.tasks import advance_event

    event, rnd = online_round(alice, players=4, auto_advance=True)
    with django_capture_on_commit_callbacks(execute=False):
        for match in rnd.matches.order_by("table"):
            enter_result(alice, match, [0, 0])
    advance_event.apply(args=(event.pk,))
    assert event.rounds.get(number=2).status == Round.Status.PUBLISHED
    client.force_login(alice)
    page = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert "Round 1 complete — the event ran Round 2 itself." in page


def test_a_game_without_decklists_refuses_a_list_everywhere_and_the_console_shows_none(
    alice, client
):
    from rest_framework.test import APIClient

    from engine.core import registry

    assert registry.get("ascension").needs_decklists is False  # the registry decides
    event, regs = make_event(alice, players=2, start=False, game_system="ascension")
    player = regs[0].user
    with pytest.raises(TournamentError, match="without decklists"):
        submit_decklist(player, regs[0], "3 Anything")
    client.force_login(player)
    url = reverse("tournaments:decklist", args=[event.slug])
    page = client.get(url).content.decode()
    assert 'id="no-decklists"' in page and "without decklists" in page
    assert 'name="text"' not in page  # no form to fill in
    posted = client.post(url, {"text": "3 Anything"}, follow=True).content.decode()
    assert "without decklists" in posted
    api = APIClient()
    api.force_authenticate(player)
    answer = api.put(
        f"/api/events/{event.slug}/registrations/{regs[0].pk}/decklist/",
        {"text": "3 Anything"},
        format="json",
    )
    assert 400 <= answer.status_code < 500 and "without decklists" in answer.content.decode()
    from tournaments.models import Decklist

    assert not Decklist.objects.filter(registration__event=event).exists()
    client.force_login(alice)
    console = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert "Lock decklists now" not in console
    assert ">Decklist</th>" not in console
    # A game with decklists keeps both.
    other, _regs = make_event(alice, players=2, start=False, game_system="voskhozhdenie")
    console = client.get(reverse("tournaments:manage", args=[other.slug])).content.decode()
    assert "Lock decklists now" in console and ">Decklist</th>" in console


def play_bots(rnd: Round, django_capture_on_commit_callbacks, limit: int = 50_000) -> None:
    """Every game of the round through the bots' task, as the workers would, game after game."""
    for _ in range(limit):
        running = list(GameSession.objects.filter(match__round=rnd, status="running"))
        if not running:
            return
        for session in running:
            with django_capture_on_commit_callbacks(execute=False):
                tasks.bot_move.apply(args=(session.pk, session.seq))
    raise AssertionError("the bots did not finish the round")


@pytest.mark.slow
def test_a_top_cut_played_online_by_bots_runs_the_bracket_to_the_end_of_the_event(
    alice, make_user, django_capture_on_commit_callbacks
):
    from tournaments.models import Event
    from tournaments.tasks import advance_event

    event = create_event(
        alice, name="Bot cut", game_system="ascension", swiss_rounds=1, top_cut=4, best_of=1,
        play_online=True, auto_advance=True,
    )  # fmt: skip
    for n in range(4):
        bot = make_user(f"cutbot{n}")
        register(event, user=bot, display_name=f"Bot {n}", is_bot=True)
    event = start_event(alice, event)
    with django_capture_on_commit_callbacks(execute=False):
        rnd = publish_round(alice, pair_next_round(alice, event))
    kinds = []
    for _ in range(4):
        assert tasks.start_round_games.apply(args=(rnd.pk,)).get() >= 1
        play_bots(rnd, django_capture_on_commit_callbacks)
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.COMPLETED
        assert all(
            m.result_source in (Match.Source.ENGINE, Match.Source.BYE) for m in rnd.matches.all()
        )
        kinds.append(rnd.kind)
        with django_capture_on_commit_callbacks(execute=False):
            advance_event.apply(args=(event.pk,))
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        rnd = event.rounds.order_by("-number").first()
        assert rnd.status == Round.Status.PUBLISHED
    assert event.status == Event.Status.FINISHED
    assert kinds == [Round.Kind.SWISS, Round.Kind.ELIMINATION, Round.Kind.ELIMINATION]
    final = event.rounds.order_by("-number").first().matches.get()
    assert final.winner_id is not None and final.result_source == Match.Source.ENGINE
