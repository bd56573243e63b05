"""The judge's log: penalties issued by judges, applied to results and players, revoked by
the organiser, seen by the officials only, exported as CSV, through the services, the API
and the console."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.db import connection
from django.utils import translation
from rest_framework.test import APIClient

from tests.races import run_together
from tests.tournaments.factories import make_event
from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    Match,
    Penalty,
    PenaltyType,
    Registration,
    StandingsSnapshot,
    StatusError,
)
from tournaments.results import check_placements, placements_with_last
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.events import add_staff, create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.penalties import (
    add_penalty_type,
    issue_penalty,
    penalty_types,
    remove_penalty_type,
    revoke_penalty,
)
from tournaments.services.placements import enter_placements, report_placements
from tournaments.services.players import register
from tournaments.services.results import call_time, enter_result, report_result
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def judy(make_user):
    return make_user("judy")


@pytest.fixture
def erin(make_user):
    return make_user("erin")


def _event(alice, judy, players, best_of: int = 3, name: str = "Friday Night") -> Event:
    event = create_event(alice, name=name, swiss_rounds=3, best_of=best_of)
    add_staff(alice, event, judy, EventStaff.Role.JUDGE)
    for user in players:
        register(event, user=user)
    start_event(alice, event)
    publish_round(alice, pair_next_round(alice, event))
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def event(alice, judy, bob, charlie, dave, erin) -> Event:
    return _event(alice, judy, [bob, charlie, dave, erin])


def kind(event: Event, effect: str) -> PenaltyType:
    return next(t for t in penalty_types(event) if t.effect == effect)


def matches(event: Event) -> list[Match]:
    return list(Match.objects.filter(round__event=event, round__number=1).order_by("table"))


def seats(match: Match) -> list[Registration]:
    return [s.registration for s in match.seats.select_related("registration").order_by("seat")]


def score(match: Match) -> tuple:
    match.refresh_from_db()
    wins = [s.game_wins for s in match.seats.order_by("seat")]
    return (match.status, *wins, match.game_draws)


def state(event: Event) -> tuple:
    """Everything a refused request must leave as it was."""
    return (
        Penalty.objects.filter(event=event).count(),
        AuditEntry.objects.filter(event=event).count(),
        [score(m) for m in matches(event)],
        sorted(event.registrations.values_list("pk", "status")),
    )


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def url(event: Event, tail: str = "") -> str:
    return f"/api/events/{event.slug}/penalties/{tail}"


# ---------------------------------------------------------------- the list


def test_every_event_starts_with_the_four_penalties_of_the_mtr(event):
    assert [(t.name, t.effect) for t in penalty_types(event)] == [
        ("Warning", "warning"),
        ("Game loss", "game_loss"),
        ("Match loss", "match_loss"),
        ("Disqualification", "disqualification"),
    ]
    assert len(penalty_types(event)) == 4  # asked again: not written twice


def test_the_organiser_adds_and_removes_penalties_of_the_list(event, alice, judy):
    slow = add_penalty_type(alice, event, "Slow play", "warning")
    assert AuditEntry.objects.filter(event=event, action="penalty_types").count() == 1
    with pytest.raises(TournamentError, match="already has a penalty called Slow play"):
        add_penalty_type(alice, event, "Slow play", "game_loss")
    with pytest.raises(TournamentError, match="Unknown effect"):
        add_penalty_type(alice, event, "Odd", "banishment")
    with pytest.raises(NotAllowed):
        add_penalty_type(judy, event, "Tardiness", "game_loss")
    remove_penalty_type(alice, slow)
    assert not PenaltyType.objects.filter(pk=slow.pk).exists()


def test_a_penalty_once_issued_stays_in_the_list(event, alice, judy):
    warning = kind(event, "warning")
    issue_penalty(judy, warning, seats(matches(event)[0])[0], "Drawing extra cards")
    with pytest.raises(TournamentError, match="has been issued"):
        remove_penalty_type(alice, warning)


# ---------------------------------------------------------------- issuing


def test_a_judge_issues_a_warning_that_changes_nothing_but_the_log(event, judy):
    match = matches(event)[0]
    player = seats(match)[0]
    before = score(match)

    penalty = issue_penalty(judy, kind(event, "warning"), player, "Looking at a card", match)

    assert (penalty.name, penalty.judge, penalty.round_number, penalty.table) == (
        "Warning",
        judy,
        1,
        match.table,
    )
    assert score(match) == before
    entry = AuditEntry.objects.get(event=event, action="penalty")
    assert entry.actor == judy and "Looking at a card" in entry.summary


def test_a_match_loss_settles_the_match_for_the_opponent_and_the_standings_follow(
    event, alice, judy
):
    first, second = matches(event)
    loser, winner = seats(first)
    enter_result(alice, second, [0, 0])

    penalty = issue_penalty(judy, kind(event, "match_loss"), loser, "Marked cards", first)

    assert score(first) == (Match.Status.FINAL, 0, 2, 0)
    first.refresh_from_db()
    assert first.winner_id == winner.pk
    assert penalty.result_before == {"status": "pending", "source": "", "games": None}
    rows = {r["player"]: r for r in StandingsSnapshot.objects.get(event=event).rows}
    assert rows[winner.pk]["points"] == 3 and rows[loser.pk]["points"] == 0
    actions = set(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert {"penalty", "override"} <= actions


def test_a_match_loss_overrides_a_final_result_and_revoking_puts_it_back(event, alice, judy):
    first = matches(event)[0]
    loser, _winner = seats(first)
    enter_result(alice, first, [0, 1, 0])

    penalty = issue_penalty(judy, kind(event, "match_loss"), loser, "Bribery", first)
    assert score(first) == (Match.Status.FINAL, 0, 2, 0)

    penalty = revoke_penalty(alice, penalty, "Misheard")
    assert score(first) == (Match.Status.FINAL, 2, 1, 0)
    assert penalty.status == Penalty.Status.REVOKED and penalty.revoked_by == alice
    assert penalty.revoke_outcome.startswith("Result of table")
    assert AuditEntry.objects.filter(event=event, action="penalty_revoked").count() == 1
    with pytest.raises(TournamentError, match="already been revoked"):
        revoke_penalty(alice, penalty)


def test_a_game_loss_in_a_best_of_one_decides_the_match(alice, judy, bob, charlie):
    event = _event(alice, judy, [bob, charlie], best_of=1, name="Bo1")
    (match,) = matches(event)
    player, _other = seats(match)

    issue_penalty(judy, kind(event, "game_loss"), player, "Tardiness", match)

    assert score(match) == (Match.Status.FINAL, 0, 1, 0)


def test_a_game_loss_in_a_match_being_played_records_that_game_and_the_match_goes_on(event, judy):
    match = matches(event)[0]
    player, opponent = seats(match)

    penalty = issue_penalty(judy, kind(event, "game_loss"), player, "Tardiness", match)

    assert score(match) == (Match.Status.PENDING, 0, 1, 0)  # 0-1, still being played
    assert list(match.games.values_list("number", "winner_seat")) == [(1, 1)]
    assert "goes on" in penalty.outcome
    assert penalty.result_before == {
        "status": "pending",
        "source": "",
        "games": None,
        "recorded": [],
    }
    entry = AuditEntry.objects.get(event=event, action="penalty")
    assert entry.data["result_before"]["recorded"] == []
    assert f"Game 1 to {opponent.display_name}: 0-1" in entry.summary


def test_a_result_entered_through_the_api_begins_with_a_judges_game_loss(event, alice, judy):
    match = matches(event)[0]
    player, _opponent = seats(match)
    issue_penalty(judy, kind(event, "game_loss"), player, "Tardiness", match)  # game 1: seat 1
    api = APIClient()
    api.force_authenticate(alice)
    url = f"/api/events/{event.slug}/matches/{match.pk}/result/"

    refused = api.post(url, {"games": [0, 0]}, format="json")  # would wipe the game loss out
    assert refused.status_code in (400, 409)
    assert "already recorded by a judge" in refused.json()["detail"]
    assert score(match) == (Match.Status.PENDING, 0, 1, 0)

    assert api.post(url, {"games": [1, 0, 0]}, format="json").status_code == 200
    assert score(match) == (Match.Status.FINAL, 2, 1, 0)


def test_the_players_report_the_rest_of_a_match_after_a_game_loss(event, judy):
    match = matches(event)[0]
    player, opponent = seats(match)
    issue_penalty(judy, kind(event, "game_loss"), player, "Tardiness", match)
    before = state(event)

    with pytest.raises(TournamentError, match=r"already recorded by a judge \(game 1: "):
        report_result(player.user, match, [0, 0])  # leaves the penalty game out
    assert state(event) == before and not match.reports.exists()

    report_result(player.user, match, [1, 0, 0])
    report_result(opponent.user, match, [1, 0, 0])

    assert score(match) == (Match.Status.FINAL, 2, 1, 0)
    assert list(match.games.values_list("winner_seat", flat=True)) == [1, 0, 0]


def test_online_a_game_loss_that_does_not_decide_the_match_takes_the_next_game(alice, judy, bob):
    # Decision 0066: no game is played for it; tests/play/test_online_game_losses.py has
    # the games being played.
    event = _event(alice, judy, [bob, judy.__class__.objects.create_user("zed")], name="Net")
    Event.objects.filter(pk=event.pk).update(play_online=True)
    match = matches(event)[0]

    penalty = issue_penalty(judy, kind(event, "game_loss"), seats(match)[0], "Slow", match)

    assert score(match) == (Match.Status.PENDING, 0, 1, 0)
    assert list(match.games.values_list("winner_seat", flat=True)) == [1]
    assert "played online" in penalty.outcome and penalty.result_before["online"] is True


def test_a_second_game_loss_in_a_match_being_played_decides_it(event, judy):
    match = matches(event)[0]
    player = seats(match)[0]
    loss = kind(event, "game_loss")

    issue_penalty(judy, loss, player, "Tardiness", match)
    issue_penalty(judy, loss, player, "Tardiness again", match)

    assert score(match) == (Match.Status.FINAL, 0, 2, 0)


def test_time_called_after_a_game_loss_keeps_that_game(event, alice, judy):
    match = matches(event)[0]
    issue_penalty(judy, kind(event, "game_loss"), seats(match)[0], "Tardiness", match)

    call_time(alice, match.round)

    assert score(match) == (Match.Status.FINAL, 0, 1, 1)  # the game, then a drawn one


def test_revoking_a_game_loss_of_a_match_being_played_takes_the_game_off(event, alice, judy):
    match = matches(event)[0]
    penalty = issue_penalty(judy, kind(event, "game_loss"), seats(match)[0], "Late", match)

    revoked = revoke_penalty(alice, penalty)

    assert score(match) == (Match.Status.PENDING, 0, 0, 0)
    assert not match.games.exists()
    assert revoked.revoke_outcome.startswith("Game loss taken off")


def test_a_game_loss_after_the_players_reported_is_refused(event, judy):
    match = matches(event)[0]
    player, opponent = seats(match)
    report_result(player.user, match, [0, 0])
    before = state(event)

    with pytest.raises(TournamentError, match="already reported"):
        issue_penalty(judy, kind(event, "game_loss"), opponent, "Late", match)

    assert state(event) == before


def test_the_report_form_shows_the_recorded_game_filled_in(event, judy, client):
    match = matches(event)[0]
    player, _opponent = seats(match)
    issue_penalty(judy, kind(event, "game_loss"), player, "Tardiness", match)
    client.force_login(player.user)

    page = client.get(f"/events/{event.slug}/my-match/").content.decode()

    assert 'class="msg recorded-games"' in page
    game_1 = page[page.index('name="game_1"') : page.index('name="game_2"')]
    assert '<option value="1" selected>' in game_1
    assert "selected" not in page[page.index('name="game_2"') :].split("</select>")[0]


# ---------------------------------------------------------------- pods


@pytest.mark.parametrize(
    ("placements", "last", "expected"),
    [
        ((1, 2, 3, 4), {0}, (4, 1, 2, 3)),
        ((1, 2, 3, 4), {3}, (1, 2, 3, 4)),  # already last: unchanged
        ((1, 1, 3, 4), {1}, (1, 4, 2, 3)),
        ((2, 2, 1, 4), {2}, (1, 1, 4, 3)),  # a tie stays a tie
        ((1, 2, 3, 4), {0, 1}, (3, 3, 1, 2)),  # two put last share the last place
        ((1, 2, 3), {1}, (1, 3, 2)),
    ],
)
def test_placements_with_last_closes_up_the_others_in_their_order(placements, last, expected):
    result = placements_with_last(placements, last)
    assert result == expected
    assert check_placements(list(result), len(placements)) == expected  # a valid pod result


def _pod(alice, judy) -> tuple[Event, Match]:
    event, _regs = make_event(
        alice, players=4, players_per_game=4, swiss_rounds=2, best_of=1, start=True
    )
    add_staff(alice, event, judy, EventStaff.Role.JUDGE)
    rnd = publish_round(alice, pair_next_round(alice, event))
    return Event.objects.get(pk=event.pk), rnd.matches.get()


def placements(match: Match) -> list:
    return list(match.seats.order_by("seat").values_list("placement", flat=True))


@pytest.mark.parametrize("effect", ["game_loss", "match_loss"])
def test_a_loss_in_a_final_pod_puts_the_player_last_and_revoking_puts_it_back(alice, judy, effect):
    event, match = _pod(alice, judy)
    enter_placements(alice, match, [1, 2, 3, 4])
    player = seats(match)[0]

    penalty = issue_penalty(judy, kind(event, effect), player, "Marked cards", match)

    assert placements(match) == [4, 1, 2, 3]
    assert penalty.result_before["placements"] == [1, 2, 3, 4]
    assert "placed last: 4-1-2-3" in penalty.outcome
    revoked = revoke_penalty(alice, penalty)
    assert placements(match) == [1, 2, 3, 4]
    assert revoked.revoke_outcome.startswith("Placements of table")


def test_a_loss_to_a_player_already_last_in_a_final_pod_changes_no_result(alice, judy):
    event, match = _pod(alice, judy)
    enter_placements(alice, match, [2, 1, 3, 4])
    overrides = AuditEntry.objects.filter(event=event, action="override").count()

    penalty = issue_penalty(judy, kind(event, "match_loss"), seats(match)[3], "Late", match)

    assert placements(match) == [2, 1, 3, 4] and "already placed last" in penalty.outcome
    assert AuditEntry.objects.filter(event=event, action="override").count() == overrides
    assert penalty.result_before is None


def test_a_loss_in_a_pod_being_played_puts_the_player_last_whatever_is_reported(alice, judy):
    event, match = _pod(alice, judy)
    player = seats(match)[2]

    penalty = issue_penalty(judy, kind(event, "game_loss"), player, "Tardiness", match)
    assert "last place" in penalty.outcome and placements(match) == [None] * 4

    for reg in seats(match):
        report_placements(reg.user, match, [2, 3, 1, 4])

    assert placements(match) == [1, 2, 4, 3]
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL


def test_two_players_given_a_loss_in_one_pod_share_the_last_place(alice, judy):
    event, match = _pod(alice, judy)
    first, second, _third, _fourth = seats(match)
    issue_penalty(judy, kind(event, "match_loss"), first, "Collusion", match)
    issue_penalty(judy, kind(event, "match_loss"), second, "Collusion", match)

    enter_placements(alice, match, [1, 2, 3, 4])

    assert placements(match) == [3, 3, 1, 2]


def test_a_disqualification_in_a_pod_drops_the_player(alice, judy):
    event, match = _pod(alice, judy)
    player = seats(match)[1]

    issue_penalty(judy, kind(event, "disqualification"), player, "Cheating", match)

    player.refresh_from_db()
    assert player.status == Registration.Status.DROPPED


def test_a_game_loss_gives_the_opponent_a_game_of_an_undecided_final_result(event, alice, judy):
    match = matches(event)[0]
    player = seats(match)[0]
    enter_result(alice, match, [0, 1, None])  # time: 1-1 and a drawn game

    issue_penalty(judy, kind(event, "game_loss"), player, "Deck problem", match)

    assert score(match) == (Match.Status.FINAL, 1, 2, 1)


def test_a_game_loss_after_a_decided_match_is_refused_and_changes_nothing(event, alice, judy):
    match = matches(event)[0]
    player = seats(match)[0]
    enter_result(alice, match, [0, 0])
    before = state(event)

    with pytest.raises(TournamentError, match=r"already decided \(2-0\).*next match"):
        issue_penalty(judy, kind(event, "game_loss"), player, "Deck problem", match)

    assert state(event) == before


def test_a_disqualification_drops_the_player_with_the_reason(event, alice, judy):
    player = seats(matches(event)[0])[0]

    penalty = issue_penalty(judy, kind(event, "disqualification"), player, "Cheating")

    player.refresh_from_db()
    assert player.status == Registration.Status.DROPPED
    assert player.drop_reason == "Disqualified: Cheating"
    revoked = revoke_penalty(alice, penalty)
    assert "re-add" in revoked.revoke_outcome


def test_a_disqualified_player_loses_the_match_in_progress_as_with_a_match_loss(
    event, alice, judy, client
):
    """No match named: the player's match being played goes to the opponent 2-0, audited
    as a match loss's result; revoking says what to fix, as a match loss's does (0067)."""
    match = matches(event)[0]
    player, opponent = seats(match)

    penalty = issue_penalty(judy, kind(event, "disqualification"), player, "Cheating")

    assert score(match) == (Match.Status.FINAL, 0, 2, 0)
    match.refresh_from_db()
    assert match.winner_id == opponent.pk
    assert (penalty.match_id, penalty.round_number, penalty.table) == (match.pk, 1, match.table)
    assert penalty.result_before == {"status": "pending", "source": "", "games": None}
    assert penalty.outcome == f"{player.display_name} dropped; Match settled for {opponent}: 0-2"
    assert AuditEntry.objects.filter(event=event, action="override", data__match=match.pk).exists()
    client.force_login(alice)
    desk = client.get(f"/events/{event.slug}/manage/").content.decode()
    row = re.search(rf'<tr id="match-{match.pk}">.*?</tr>', desk, re.S).group(0)
    assert "status-final" in row and "status-pending" not in row  # no longer "Playing"
    rows = {r["player"]: r for r in StandingsSnapshot.objects.get(event=event).rows}
    assert rows[opponent.pk]["points"] == 3 and rows[player.pk]["losses"] == 1

    revoked = revoke_penalty(alice, penalty)
    assert "enter the right result" in revoked.revoke_outcome
    assert "re-add" in revoked.revoke_outcome


def test_revoking_a_disqualification_puts_back_a_result_it_changed(event, alice, judy):
    """A disqualification that settled a match reverses through the match loss's path:
    the result it replaced comes back while the match is as the penalty left it."""
    from tournaments.services.penalties import _undo

    match = matches(event)[0]
    player, _opponent = seats(match)
    penalty = issue_penalty(judy, kind(event, "disqualification"), player, "Cheating")
    # As if the match had been final 2-1 for the player when the penalty settled it.
    Penalty.objects.filter(pk=penalty.pk).update(
        result_before={"status": "final", "source": "official", "games": [0, 1, 0]}
    )
    penalty.refresh_from_db()

    line = _undo(alice, penalty)

    assert score(match) == (Match.Status.FINAL, 2, 1, 0)
    assert str(line).startswith("Result of table") and "re-add" in str(line)


def test_a_disqualification_leaves_a_final_match_and_a_player_without_one_alone(event, alice, judy):
    match = matches(event)[0]
    player = seats(match)[0]
    enter_result(alice, match, [0, 1, 0])
    versions = sorted(Match.objects.filter(round__event=event).values_list("pk", "version"))

    penalty = issue_penalty(judy, kind(event, "disqualification"), player, "Cheating")

    assert score(match) == (Match.Status.FINAL, 2, 1, 0)
    assert penalty.match_id is None and penalty.result_before is None
    assert sorted(Match.objects.filter(round__event=event).values_list("pk", "version")) == (
        versions
    )
    player.refresh_from_db()
    assert player.status == Registration.Status.DROPPED


def test_online_a_disqualification_ends_the_game_being_played_and_settles_the_match(
    alice, judy, django_capture_on_commit_callbacks
):
    """Online the match loss's path locks the games being played and ends the one in
    progress, its state kept, as a deciding match loss does (0066, 0067)."""
    from play.models import GameSession
    from tests.play.test_online_game_losses import games, one_nil, registrations

    event, _rnd, match, game2 = one_nil(alice, judy)  # 0-1, game 2 being played
    player, opponent = registrations(match)

    with django_capture_on_commit_callbacks(execute=True):
        penalty = issue_penalty(judy, kind(event, "disqualification"), player, "Collusion")

    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.winner_id == opponent.pk
    assert games(match) == [1, 1] and penalty.match_id == match.pk
    game2.refresh_from_db()
    assert game2.status == GameSession.Status.ABORTED


def test_a_disqualification_in_a_pod_being_played_puts_the_player_last(alice, judy):
    event, match = _pod(alice, judy)
    player = seats(match)[0]

    issue_penalty(judy, kind(event, "disqualification"), player, "Cheating")

    enter_placements(alice, match, [1, 2, 3, 4])
    assert placements(match) == [4, 1, 2, 3]


def test_revoking_a_match_loss_on_a_match_without_a_final_result_says_what_to_fix(
    event, alice, judy
):
    match = matches(event)[0]
    penalty = issue_penalty(judy, kind(event, "match_loss"), seats(match)[0], "Cheat", match)

    revoked = revoke_penalty(alice, penalty)

    assert score(match) == (Match.Status.FINAL, 0, 2, 0)  # cannot go back to being played
    assert "enter the right result" in revoked.revoke_outcome


def test_revoking_leaves_a_result_changed_after_the_penalty_alone(event, alice, judy):
    match = matches(event)[0]
    enter_result(alice, match, [0, 0])
    penalty = issue_penalty(judy, kind(event, "match_loss"), seats(match)[0], "Cheat", match)
    enter_result(alice, match, [1, 0, 0])

    revoked = revoke_penalty(alice, penalty)

    assert score(match) == (Match.Status.FINAL, 2, 1, 0)
    assert "changed after the penalty" in revoked.revoke_outcome


# ---------------------------------------------------------------- who may


def test_judges_and_organisers_issue_and_only_organisers_revoke(event, alice, judy, bob):
    player = seats(matches(event)[0])[0]
    warning = kind(event, "warning")
    with pytest.raises(NotAllowed):
        issue_penalty(bob, warning, player, "I saw it")
    by_organiser = issue_penalty(alice, warning, player, "Slow play")
    by_judge = issue_penalty(judy, warning, player, "Slow play again")
    with pytest.raises(NotAllowed):
        revoke_penalty(judy, by_judge)
    revoke_penalty(alice, by_organiser)


@pytest.mark.parametrize(
    ("who", "expected"), [(None, 401), ("bob", 403), ("judy", 200), ("alice", 200)]
)
def test_the_log_is_read_by_officials_only(event, judy, who, expected, request):
    issue_penalty(judy, kind(event, "warning"), seats(matches(event)[0])[0], "Slow play")
    user = request.getfixturevalue(who) if who else None

    for tail in ("", "?player=1"):
        assert client_for(user).get(url(event, tail)).status_code == expected
    types = client_for(user).get(f"/api/events/{event.slug}/penalty-types/")
    assert types.status_code == expected


def test_a_judge_issues_through_the_api_and_the_organiser_revokes(event, alice, judy, bob):
    match = matches(event)[0]
    player = seats(match)[0]
    body = {
        "penalty_type": kind(event, "match_loss").pk,
        "player": player.pk,
        "match": match.pk,
        "reason": "Marked sleeves",
    }
    assert client_for().post(url(event), body, format="json").status_code == 401
    assert client_for(bob).post(url(event), body, format="json").status_code == 403

    answer = client_for(judy).post(url(event), body, format="json")

    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert (data["judge"], data["effect"], data["table"]) == ("judy", "match_loss", match.table)
    revoke = url(event, f"{data['id']}/revoke/")
    assert client_for(judy).post(revoke, {}, format="json").status_code == 403
    revoked = client_for(alice).post(revoke, {"note": "wrong table"}, format="json")
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    assert client_for(alice).post(revoke, {}, format="json").status_code == 409
    listed = client_for(judy).get(url(event, f"?player={player.pk}")).json()["results"]
    assert [p["id"] for p in listed] == [data["id"]]


def _bad_bodies(event, other_event):
    first, second = matches(event)
    player = seats(first)[0]
    loss = kind(event, "match_loss").pk
    other_match = matches(other_event)[0]
    return {
        "unknown player": {"penalty_type": loss, "player": 999999, "match": first.pk},
        "player of another event": {
            "penalty_type": loss,
            "player": seats(other_match)[0].pk,
            "match": first.pk,
        },
        "unknown penalty": {"penalty_type": 999999, "player": player.pk, "match": first.pk},
        "penalty of another event": {
            "penalty_type": kind(other_event, "match_loss").pk,
            "player": player.pk,
            "match": first.pk,
        },
        "match of another event": {
            "penalty_type": loss,
            "player": player.pk,
            "match": other_match.pk,
        },
        "player not in that match": {
            "penalty_type": loss,
            "player": player.pk,
            "match": second.pk,
        },
        "no match for a match loss": {"penalty_type": loss, "player": player.pk},
        "no reason": {"penalty_type": loss, "player": player.pk, "match": first.pk},
        "not a number": {"penalty_type": "one", "player": player.pk, "match": first.pk},
    }


def test_bad_input_gets_a_clear_400_and_changes_nothing(event, alice, judy, make_user):
    others = [make_user(f"other{n}") for n in range(2)]
    other_event = _event(alice, judy, others, name="Elsewhere")
    before = state(event)

    for name, body in _bad_bodies(event, other_event).items():
        body = {"reason": "Because", **body} if name != "no reason" else body
        answer = client_for(judy).post(url(event), body, format="json")
        assert answer.status_code == 400, (name, answer.status_code)
        fields = set(answer.json())
        assert fields & {"detail", "player", "penalty_type", "match", "reason"}, name

    assert state(event) == before
    detail = client_for(judy).post(
        url(event), {**_bad_bodies(event, other_event)["player not in that match"], "reason": "x"}
    )
    assert "does not play in table" in detail.json()["detail"]


def test_the_penalty_list_through_the_api(event, alice, judy):
    types = f"/api/events/{event.slug}/penalty-types/"
    body = {"name": "Tardiness", "effect": "game_loss"}
    assert client_for(judy).post(types, body, format="json").status_code == 403
    created = client_for(alice).post(types, body, format="json")
    assert created.status_code == 201
    assert client_for(alice).post(types, body, format="json").status_code == 400
    bad = client_for(alice).post(types, {"name": "X", "effect": "exile"}, format="json")
    assert bad.status_code == 400
    issue_penalty(judy, kind(event, "warning"), seats(matches(event)[0])[0], "Slow")
    warning = kind(event, "warning").pk
    assert client_for(alice).delete(f"{types}{warning}/").status_code == 409
    assert client_for(alice).delete(f"{types}{created.json()['id']}/").status_code == 204


def test_the_schema_documents_the_penalty_endpoints(db):
    paths = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = paths.json()["paths"]
    assert "/api/events/{event_slug}/penalties/" in paths
    assert "/api/events/{event_slug}/penalties/{id}/revoke/" in paths
    assert "/api/events/{event_slug}/penalty-types/{id}/" in paths


# ---------------------------------------------------------------- pages


def test_penalties_show_on_the_players_page_to_officials_only(
    event, client, alice, judy, bob, charlie
):
    match = matches(event)[0]
    player = seats(match)[0]
    issue_penalty(judy, kind(event, "warning"), player, "Secret-reason-42")
    page = f"/events/{event.slug}/players/{player.pk}/"

    for official in (alice, judy):
        client.force_login(official)
        assert b"Secret-reason-42" in client.get(page).content
    for outsider in (player.user, bob if player.user != bob else charlie):
        client.force_login(outsider)
        body = client.get(page).content
        assert b"Secret-reason-42" not in body and b"player-penalties" not in body
    client.logout()
    assert b"Secret-reason-42" not in client.get(page).content
    client.force_login(player.user)
    for public in ("", "standings/", "pairings/"):
        assert b"Secret-reason-42" not in client.get(f"/events/{event.slug}/{public}").content


def test_the_log_is_exported_as_csv_for_officials(event, client, judy, bob):
    player = seats(matches(event)[0])[0]
    issue_penalty(judy, kind(event, "warning"), player, "=HYPERLINK(1)")
    address = f"/events/{event.slug}/penalties.csv"

    client.force_login(bob)
    assert client.get(address).status_code == 403
    client.force_login(judy)
    answer = client.get(address)

    assert answer.status_code == 200
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [(r["player"], r["penalty"], r["judge"]) for r in rows] == [
        (player.display_name, "Warning", "judy")
    ]
    assert rows[0]["reason"] == "'=HYPERLINK(1)"  # never a formula in a spreadsheet


def test_a_judge_issues_a_game_loss_from_the_console(alice, judy, bob, charlie, client):
    event = _event(alice, judy, [bob, charlie], best_of=1, name="Console Bo1")
    (match,) = matches(event)
    player = seats(match)[0]
    client.force_login(judy)
    console = client.get(f"/events/{event.slug}/manage/")
    assert b'id="penalties"' in console.content

    answer = client.post(
        f"/events/{event.slug}/manage/penalty/",
        {
            "penalty_type": kind(event, "game_loss").pk,
            "registration": player.pk,
            "match": match.pk,
            "reason": "Tardiness",
        },
        follow=True,
    )

    assert b"Penalty issued." in answer.content
    assert score(match) == (Match.Status.FINAL, 0, 1, 0)
    assert b"Tardiness" in client.get(f"/events/{event.slug}/manage/").content


def test_the_console_refuses_bad_input_with_a_message_and_changes_nothing(event, client, judy):
    client.force_login(judy)
    before = state(event)
    first, second = matches(event)
    answer = client.post(
        f"/events/{event.slug}/manage/penalty/",
        {
            "penalty_type": kind(event, "game_loss").pk,
            "registration": seats(first)[0].pk,
            "match": second.pk,
            "reason": "Tardiness",
        },
        follow=True,
    )
    assert b"does not play in table" in answer.content
    for junk in ({"penalty_type": "x"}, {"penalty": "99999"}):
        for action in ("penalty", "revoke-penalty", "remove-penalty-type"):
            client.post(f"/events/{event.slug}/manage/{action}/", junk)
    assert state(event) == before


def test_a_revoked_penalty_never_goes_back_to_issued(event, alice, judy):
    penalty = issue_penalty(judy, kind(event, "warning"), seats(matches(event)[0])[0], "Slow")
    assert Penalty.TRANSITIONS == {"issued": ("revoked",), "revoked": ()}
    penalty = revoke_penalty(alice, penalty)
    with pytest.raises(StatusError):
        penalty.set_status(Penalty.Status.ISSUED)


def test_a_disqualifications_reason_is_not_shown_to_the_public(event, client, judy, bob):
    player = seats(matches(event)[0])[0]
    issue_penalty(judy, kind(event, "disqualification"), player, "Stacked-deck-7")
    page = f"/events/{event.slug}/players/{player.pk}/"

    assert b"Stacked-deck-7" not in client.get(page).content
    other = bob if player.user != bob else seats(matches(event)[1])[0].user
    client.force_login(other)
    assert b"Stacked-deck-7" not in client.get(page).content
    api = client.get(f"/api/events/{event.slug}/registrations/{player.pk}/").json()
    assert api["drop_reason"] is None
    client.force_login(judy)
    assert b"Stacked-deck-7" in client.get(page).content


# ---------------------------------------------------------------- races


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_judges_issuing_game_losses_at_once_are_applied_one_after_the_other(
    alice, judy, bob, charlie, dave, erin
):
    event = _event(alice, judy, [bob, charlie, dave, erin])
    match = matches(event)[0]
    first, second = seats(match)
    enter_result(alice, match, [None])  # time called after one drawn game
    loss = kind(event, "game_loss")

    outcomes = run_together(
        lambda: issue_penalty(judy, loss, first, "Deck problem", match),
        lambda: issue_penalty(alice, loss, second, "Deck problem", match),
    )

    assert sorted(k for k, _ in outcomes) == ["ok", "ok"], outcomes
    assert score(match) == (Match.Status.FINAL, 1, 1, 1)  # a game each, in turn
    assert Penalty.objects.filter(match=match).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_a_game_loss_and_a_report_at_once_never_lose_the_game(
    alice, judy, bob, charlie, dave, erin
):
    event = _event(alice, judy, [bob, charlie, dave, erin])
    match = matches(event)[0]
    player = seats(match)[0]

    outcomes = run_together(
        lambda: issue_penalty(judy, kind(event, "game_loss"), player, "Late", match),
        lambda: report_result(player.user, match, [0, 0]),
    )

    kinds = [k for k, _ in outcomes]
    assert sorted(kinds) == ["error", "ok"], outcomes  # one of them is refused
    if kinds[0] == "ok":  # the penalty first: the report leaving game 1 out is refused
        assert list(match.games.values_list("winner_seat", flat=True)) == [1]
        assert not match.reports.exists()
    else:  # the report first: the game loss belongs to the next match
        assert not Penalty.objects.filter(event=event).exists() and not match.games.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_organisers_revoking_at_once_revoke_once(alice, judy, bob, charlie, dave, erin):
    event = _event(alice, judy, [bob, charlie, dave, erin])
    add_staff(alice, event, bob, EventStaff.Role.ORGANISER)
    match = matches(event)[0]
    enter_result(alice, match, [0, 0])
    penalty = issue_penalty(judy, kind(event, "match_loss"), seats(match)[0], "Cheat", match)

    outcomes = run_together(
        lambda: revoke_penalty(alice, penalty), lambda: revoke_penalty(bob, penalty)
    )

    assert sorted(k for k, _ in outcomes) == ["error", "ok"], outcomes
    assert isinstance(next(v for k, v in outcomes if k == "error"), TournamentError)
    assert AuditEntry.objects.filter(event=event, action="penalty_revoked").count() == 1
    assert score(match) == (Match.Status.FINAL, 2, 0, 0)


# ---------------------------------------------------------------- the reader's language


def test_the_penalty_tables_show_the_outcome_in_the_readers_language(event, client, alice, judy):
    match = matches(event)[0]
    player = seats(match)[0]
    penalty = issue_penalty(judy, kind(event, "match_loss"), player, "Cheat-77", match)
    assert penalty.outcome_message == "Match settled for %(player)s: %(score)s"
    english = penalty.outcome  # the English line stays on the row

    client.force_login(alice)
    for page in (f"/events/{event.slug}/manage/", f"/events/{event.slug}/players/{player.pk}/"):
        client.cookies["django_language"] = "ru"
        russian = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "Матч засчитан игроку" in russian and english not in russian, page
        client.cookies["django_language"] = "en"
        assert english in client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_csv_and_the_api_give_the_outcome_in_the_requests_language(event, client, alice, judy):
    match = matches(event)[0]
    enter_result(alice, match, [0, 0])
    penalty = issue_penalty(judy, kind(event, "match_loss"), seats(match)[0], "Cheat-78", match)
    revoke_penalty(alice, penalty)
    penalty.refresh_from_db()
    english = (penalty.outcome, penalty.revoke_outcome)
    assert english[0].startswith("Match settled for") and english[1].startswith("Result of")

    client.force_login(judy)
    address = f"/events/{event.slug}/penalties.csv"
    client.cookies["django_language"] = "ru"
    (row,) = csv.DictReader(io.StringIO(client.get(address).content.decode()))
    assert row["outcome"].startswith("Матч засчитан игроку"), row["outcome"]
    assert row["revoke_outcome"].startswith("Результат стола 1, "), row["revoke_outcome"]
    client.cookies["django_language"] = "en"
    (row,) = csv.DictReader(io.StringIO(client.get(address).content.decode()))
    assert (row["outcome"], row["revoke_outcome"]) == english

    api = client_for(judy)
    (item,) = api.get(url(event), HTTP_ACCEPT_LANGUAGE="ru").json()["results"]
    assert item["outcome"].startswith("Матч засчитан игроку"), item["outcome"]
    assert item["revoke_outcome"].startswith("Результат стола 1, ")
    (item,) = api.get(url(event), HTTP_ACCEPT_LANGUAGE="en").json()["results"]
    assert (item["outcome"], item["revoke_outcome"]) == english
    penalty.refresh_from_db()
    assert (penalty.outcome, penalty.revoke_outcome) == english  # stored as it was


def test_a_penalty_from_before_the_messages_shows_its_stored_english(event, client, alice, judy):
    player = seats(matches(event)[0])[0]
    penalty = issue_penalty(judy, kind(event, "disqualification"), player, "Cheat")
    Penalty.objects.filter(pk=penalty.pk).update(
        outcome="Old stored outcome", outcome_message="", outcome_params={}
    )
    penalty.refresh_from_db()
    with translation.override("ru"):
        assert penalty.outcome_line == "Old stored outcome"
    client.force_login(alice)
    client.cookies["django_language"] = "ru"
    page = client.get(f"/events/{event.slug}/manage/", HTTP_ACCEPT_LANGUAGE="ru")
    assert "Old stored outcome" in page.content.decode()


def test_a_revocations_outcome_is_shown_in_the_readers_language(event, alice, judy):
    match = matches(event)[0]
    enter_result(alice, match, [0, 0])
    penalty = issue_penalty(judy, kind(event, "match_loss"), seats(match)[0], "Cheat", match)
    revoked = revoke_penalty(alice, penalty)
    assert revoked.revoke_message == "Result of table %(table)s of %(round)s put back: %(score)s"
    with translation.override("ru"):
        line = revoked.revoke_outcome_line
    assert line.startswith("Результат стола 1, ") and "восстановлен: 2-0" in line, line


def test_a_disqualifications_drop_reason_is_a_line_of_its_own_in_the_readers_language(
    event, client, alice, judy, monkeypatch
):
    from tournaments import audit_text

    player = seats(matches(event)[0])[0]
    issue_penalty(judy, kind(event, "disqualification"), player, "Marked cards")

    player.refresh_from_db()
    assert player.drop_reason == "Disqualified: Marked cards"  # the English, as before
    assert (player.drop_message, player.drop_params) == (
        "Disqualified: %(reason)s",
        {"reason": "Marked cards"},
    )
    entry = AuditEntry.objects.get(event=event, action="drop")
    assert entry.params["reason"] == {
        "@line": "Disqualified: %(reason)s",
        "params": {"reason": "Marked cards"},
    }
    # Shown through the catalogue of the reader's language, the inner line too.
    russian = {
        "Disqualified: %(reason)s": "Дисквалифицирован(а): %(reason)s",
        "Dropped %(name)s: %(reason)s": "Выбыл(а) %(name)s: %(reason)s",
    }
    monkeypatch.setattr(audit_text, "gettext", lambda msgid: russian.get(msgid, msgid))
    assert player.drop_reason_line == "Дисквалифицирован(а): Marked cards"
    assert entry.text == f"Выбыл(а) {player.display_name}: Дисквалифицирован(а): Marked cards"
    client.force_login(alice)
    page = client.get(f"/events/{event.slug}/players/{player.pk}/").content.decode()
    assert "Дисквалифицирован(а): Marked cards" in page
    console = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Дисквалифицирован(а): Marked cards" in console


def test_a_drop_reason_from_before_or_in_the_players_words_is_shown_as_written(event, bob):
    reg = event.registrations.get(user=bob)
    from tournaments.services.players import drop

    drop(bob, reg, "Train to catch")
    reg.refresh_from_db()
    assert reg.drop_message == "" and reg.drop_reason == "Train to catch"
    with translation.override("ru"):
        assert reg.drop_reason_line == "Train to catch"
