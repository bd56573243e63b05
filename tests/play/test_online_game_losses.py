"""A judge's game loss in a match played online (decision 0066).

The game loss takes the match's next game number, won by the opponent, with no game
played for it; the game in progress plays on as the game after it. 1-0 and a game loss
is 1-1, and the game being played decides. A game loss that decides the match finishes
it: the game in progress ends (aborted, its state kept). Revoking while the match is as
the penalty left it takes the game off and gives the game in progress its number back.
The games being played are locked before the match, as the end of a game locks them, so a
game ending while the penalty is issued is settled one before the other.

Ascension games (two players, no decklists); tasks run in-process as a worker runs them.
"""

from __future__ import annotations

import pytest
from django.db import connection

from play import tasks
from play.models import GameSession
from play.services.acting import concede
from play.services.starting import start_match
from tests.races import run_together
from tests.tournaments.factories import make_event, seat_users
from tournaments.models import AuditEntry, Event, EventStaff, Match, Penalty, Round
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.events import add_staff, create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.penalties import issue_penalty, penalty_types, revoke_penalty
from tournaments.services.players import register
from tournaments.services.standings import refresh_standings
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def judy(make_user):
    return make_user("judy")


def online_round(alice, judy):
    event, _regs = make_event(
        alice, players=2, game_system="ascension", swiss_rounds=2, best_of=3, play_online=True
    )
    add_staff(alice, event, judy, EventStaff.Role.JUDGE)
    rnd = publish_round(alice, pair_next_round(alice, event))
    return event, rnd, rnd.matches.get()


def game_loss(event: Event):
    return next(t for t in penalty_types(event) if t.effect == "game_loss")


def registrations(match: Match) -> list:
    return [s.registration for s in match.seats.select_related("registration").order_by("seat")]


def games(match: Match) -> list:
    return list(match.games.order_by("number").values_list("winner_seat", flat=True))


def wins(match: Match) -> list[int]:
    return list(match.seats.order_by("seat").values_list("game_wins", flat=True))


def one_nil(alice, judy):
    """Game 1 to seat 1 (seat 0 conceded); game 2 is being played."""
    event, rnd, match = online_round(alice, judy)
    concede(seat_users(match)[0], start_match(match))
    game2 = GameSession.objects.get(match=match, game_number=2)
    assert game2.status == GameSession.Status.RUNNING
    return event, rnd, match, game2


def test_a_game_loss_at_one_nil_makes_it_one_all_and_the_game_being_played_decides(alice, judy):
    event, _rnd, match, game2 = one_nil(alice, judy)
    leader = registrations(match)[1]

    penalty = issue_penalty(judy, game_loss(event), leader, "Marked cards", match)

    match.refresh_from_db()
    assert games(match) == [1, 0] and wins(match) == [1, 1]  # 1-1: no game played for it
    assert match.status == Match.Status.PENDING
    game2.refresh_from_db()
    assert game2.game_number == 3 and game2.status == GameSession.Status.RUNNING  # plays on
    assert penalty.result_before == {
        "status": "pending",
        "source": "",
        "games": None,
        "recorded": [1],
        "online": True,
    }
    assert penalty.match_version == match.version
    entry = AuditEntry.objects.get(event=event, action="penalty")
    assert entry.data["result_before"]["online"] is True
    assert "Game 2 to" in entry.summary and "goes on with game 3" in entry.summary

    concede(seat_users(match)[1], game2)  # the leader loses the game being played

    match.refresh_from_db()
    assert games(match) == [1, 0, 0] and wins(match) == [2, 1]
    assert match.status == Match.Status.FINAL and match.result_source == Match.Source.ENGINE
    assert match.winner_id == registrations(match)[0].pk
    assert not GameSession.objects.filter(match=match, game_number=4).exists()
    rows = {r["name"]: r for r in refresh_standings(event).rows}
    assert rows[registrations(match)[0].display_name]["points"] == 3
    assert rows[leader.display_name]["points"] == 0


def test_the_game_after_the_game_loss_is_dealt_when_the_game_being_played_ends(alice, judy):
    event, _rnd, match, game2 = one_nil(alice, judy)
    issue_penalty(judy, game_loss(event), registrations(match)[1], "Slow play", match)

    concede(seat_users(match)[0], game2)  # seat 0 loses game 3: 1-2, the match is over
    match.refresh_from_db()
    assert games(match) == [1, 0, 1] and match.status == Match.Status.FINAL

    # And the other way: a game loss at 0-0 before the first game was dealt.
    event2, _rnd2, match2 = online_round(alice, judy)
    issue_penalty(judy, game_loss(event2), registrations(match2)[0], "Late", match2)
    assert games(match2) == [1] and not match2.play_sessions.exists()
    first = start_match(match2)
    assert first.game_number == 2  # game 1 is the game loss: the first dealt is game 2
    concede(seat_users(match2)[0], first)
    match2.refresh_from_db()
    assert games(match2) == [1, 1] and match2.status == Match.Status.FINAL


def test_a_game_loss_that_decides_the_match_ends_the_game_being_played_keeping_its_state(
    alice, judy, django_capture_on_commit_callbacks
):
    event, rnd, match, game2 = one_nil(alice, judy)
    state, seq = game2.state, game2.seq

    with django_capture_on_commit_callbacks(execute=True):
        penalty = issue_penalty(judy, game_loss(event), registrations(match)[0], "Cheat", match)

    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and games(match) == [1, 1]
    assert match.winner_id == registrations(match)[1].pk
    assert match.result_source == Match.Source.ORGANISER
    game2.refresh_from_db()
    assert game2.status == GameSession.Status.ABORTED and game2.game_number == 2
    assert game2.state == state and game2.seq == seq  # stopped as it stood
    assert not game2.seats.exclude(deadline=None).exists()  # its clocks stopped
    assert tasks.bot_move.apply(args=(game2.pk, seq)).get() is None  # a late task: nothing
    assert penalty.result_before["games"] is None and "Game 2 to" in penalty.outcome
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED


def test_revoking_before_the_next_game_is_recorded_takes_the_game_loss_off(alice, judy):
    event, _rnd, match, game2 = one_nil(alice, judy)
    penalty = issue_penalty(judy, game_loss(event), registrations(match)[1], "Slow play", match)

    revoke_penalty(alice, penalty, "Wrong player")

    match.refresh_from_db()
    assert games(match) == [1] and wins(match) == [0, 1]
    game2.refresh_from_db()
    assert game2.game_number == 2 and game2.status == GameSession.Status.RUNNING
    entry = AuditEntry.objects.get(event=event, action="penalty_revoked")
    assert "Game loss taken off" in entry.summary
    penalty.refresh_from_db()
    assert "Game loss taken off" in penalty.revoke_outcome_line
    concede(seat_users(match)[0], game2)  # recorded as game 2 again
    match.refresh_from_db()
    assert games(match) == [1, 1] and match.status == Match.Status.FINAL


def test_revoking_after_a_later_game_was_recorded_leaves_the_result_and_says_so(
    alice, judy, make_user
):
    event, _rnd, match, game2 = online_round_best_of_five(alice, judy)
    penalty = issue_penalty(judy, game_loss(event), registrations(match)[1], "Slow", match)
    concede(seat_users(match)[1], game2)  # game 3 to seat 0: 2-1, game 4 dealt
    assert games(match) == [1, 0, 0]

    revoke_penalty(alice, penalty)

    assert games(match) == [1, 0, 0]  # the match moved on: the organiser sets it right
    penalty.refresh_from_db()
    assert "changed after the penalty" in penalty.revoke_outcome
    assert GameSession.objects.get(match=match, game_number=4).status == "running"


def online_round_best_of_five(alice, judy):
    event, _regs = make_event(
        alice, players=2, game_system="ascension", swiss_rounds=2, best_of=5, play_online=True
    )
    add_staff(alice, event, judy, EventStaff.Role.JUDGE)
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.get()
    concede(seat_users(match)[0], start_match(match))
    return event, rnd, match, GameSession.objects.get(match=match, game_number=2)


def test_only_officials_issue_and_only_organisers_revoke_an_online_game_loss(alice, judy):
    from django.contrib.auth.models import AnonymousUser

    event, _rnd, match, game2 = one_nil(alice, judy)
    player = seat_users(match)[0]
    for who in (AnonymousUser(), player):
        with pytest.raises(NotAllowed):
            issue_penalty(who, game_loss(event), registrations(match)[1], "Slow", match)
    assert games(match) == [1]
    penalty = issue_penalty(judy, game_loss(event), registrations(match)[1], "Slow", match)
    for who in (AnonymousUser(), player, judy):
        with pytest.raises(NotAllowed):
            revoke_penalty(who, penalty)
    assert games(match) == [1, 0]
    game2.refresh_from_db()
    assert game2.game_number == 3


def test_a_game_loss_after_the_engine_decided_the_match_is_refused(alice, judy):
    event, _rnd, match, game2 = one_nil(alice, judy)
    concede(seat_users(match)[0], game2)  # 0-2: decided
    with pytest.raises(TournamentError, match="already decided"):
        issue_penalty(judy, game_loss(event), registrations(match)[0], "Late", match)
    assert games(match) == [1, 1] and not Penalty.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_a_game_ending_while_the_game_loss_is_issued_is_settled_one_before_the_other(alice, judy):
    event, _rnd, match, game2 = one_nil(alice, judy)
    leader = registrations(match)[1]
    loser = seat_users(match)[0]

    outcomes = run_together(
        lambda: issue_penalty(judy, game_loss(event), leader, "Marked cards", match),
        lambda: concede(loser, GameSession.objects.get(pk=game2.pk)),
    )

    assert outcomes[1][0] == "ok", outcomes  # the game always ends
    match.refresh_from_db()
    game2.refresh_from_db()
    assert game2.status == GameSession.Status.FINISHED
    assert match.status == Match.Status.FINAL
    if outcomes[0][0] == "ok":  # the penalty first: game 2 is the game loss, then game 3
        assert games(match) == [1, 0, 1] and game2.game_number == 3
        assert Penalty.objects.get().result_before["recorded"] == [1]
    else:  # the game first: 0-2, and a game loss after the match is refused
        assert isinstance(outcomes[0][1], TournamentError)
        assert games(match) == [1, 1] and game2.game_number == 2
        assert not Penalty.objects.exists()
    assert wins(match) == [games(match).count(0), games(match).count(1)]
    assert GameSession.objects.filter(match=match).count() == len(games(match)) - (
        1 if outcomes[0][0] == "ok" else 0
    )


def play_bots(rnd: Round, capture, limit: int = 50_000) -> None:
    for _ in range(limit):
        running = list(GameSession.objects.filter(match__round=rnd, status="running"))
        if not running:
            return
        for session in running:
            with capture(execute=False):
                tasks.bot_move.apply(args=(session.pk, session.seq))
    raise AssertionError("the bots did not finish the round")


def test_bots_play_on_after_a_game_loss_and_the_result_flows_into_the_standings(
    alice, judy, make_user, django_capture_on_commit_callbacks
):
    event = create_event(
        alice, name="Bot night", game_system="ascension", swiss_rounds=2, best_of=3,
        play_online=True,
    )  # fmt: skip
    add_staff(alice, event, judy, EventStaff.Role.JUDGE)
    for n in range(2):
        register(event, user=make_user(f"glbot{n}"), display_name=f"Bot {n}", is_bot=True)
    event = start_event(alice, event)
    with django_capture_on_commit_callbacks(execute=False):
        rnd = publish_round(alice, pair_next_round(alice, event))
    assert tasks.start_round_games.apply(args=(rnd.pk,)).get() == 1
    match = rnd.matches.get()
    game1 = match.play_sessions.get()
    penalised = registrations(match)[0]

    with django_capture_on_commit_callbacks(execute=True):
        issue_penalty(judy, game_loss(event), penalised, "Deck problem", match)
    game1.refresh_from_db()
    assert games(match) == [1] and game1.game_number == 2  # the bots play game 2 on

    play_bots(rnd, django_capture_on_commit_callbacks)

    match.refresh_from_db()
    recorded = games(match)
    assert recorded[0] == 1 and match.status == Match.Status.FINAL
    assert wins(match) == [recorded.count(0), recorded.count(1)]
    assert max(wins(match)) == 2 and len(recorded) in (2, 3)
    played = match.play_sessions.filter(status="finished").order_by("game_number")
    assert list(played.values_list("game_number", flat=True)) == list(
        range(2, len(recorded) + 1)
    )  # every game but the game loss was played
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    rows = {r["name"]: r for r in refresh_standings(event).rows}
    winner = match.winner.display_name
    loser = next(r.display_name for r in registrations(match) if r.display_name != winner)
    assert rows[winner]["points"] == 3 and rows[loser]["points"] == 0
    # The game loss counts in the game-win percentages of the standings (MTR, Appendix C).
    penalised_games = recorded.count(registrations(match).index(penalised))
    assert rows[penalised.display_name]["gw"] == pytest.approx(
        max(penalised_games / len(recorded), 1 / 3)
    )


def test_a_game_dealt_between_the_locks_makes_the_penalty_look_again(alice, judy, monkeypatch):
    from tournaments import announce

    event, _rnd, match, game2 = one_nil(alice, judy)
    games_online = announce.online_games()
    real = games_online.open_games
    calls = []

    def moved_once(match_id):
        calls.append(match_id)
        seen = real(match_id)
        return [*seen, (0, 99)] if len(calls) == 1 else seen  # a game "dealt" meanwhile

    monkeypatch.setattr(games_online, "open_games", moved_once)
    issue_penalty(judy, game_loss(event), registrations(match)[1], "Slow play", match)
    assert len(calls) == 2  # looked again, then applied once
    assert games(match) == [1, 0] and Penalty.objects.count() == 1
    assert AuditEntry.objects.filter(event=event, action="penalty").count() == 1
    game2.refresh_from_db()
    assert game2.game_number == 3

    monkeypatch.setattr(games_online, "open_games", lambda match_id: [(0, 99)])  # never still
    with pytest.raises(TournamentError, match="issue the penalty again"):
        issue_penalty(judy, game_loss(event), registrations(match)[0], "Slow play", match)
    assert games(match) == [1, 0] and Penalty.objects.count() == 1  # nothing written
    game2.refresh_from_db()
    assert game2.game_number == 3
