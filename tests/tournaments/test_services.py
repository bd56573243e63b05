"""Tournament services on PostgreSQL: registration to the last round."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import make_event, play_round, seat_users
from tournaments.models import (
    AuditEntry,
    Event,
    Match,
    MatchSeat,
    Registration,
    Round,
    StandingsSnapshot,
)
from tournaments.services.decklists import lock_decklists, submit_decklist
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.events import add_staff, remove_staff, update_event
from tournaments.services.pairing import (
    advance,
    pair_next_round,
    publish_round,
    repair_round,
    swap_players,
)
from tournaments.services.players import check_in, drop, readd, register
from tournaments.services.results import call_time, confirm_result, enter_result, report_result
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


def standings_of(event):
    return {row["name"]: row for row in StandingsSnapshot.objects.get(event=event).rows}


# ---------------------------------------------------------------- registration


def test_a_user_registers_once_and_only_while_registration_is_open(alice, bob):
    event, _ = make_event(alice, players=0, start=False)
    reg = register(event, user=bob)
    assert reg.display_name == "bob" and reg.status == Registration.Status.REGISTERED
    with pytest.raises(TournamentError, match="already registered"):
        register(event, user=bob)
    assert event.registrations.count() == 1


def test_anonymous_visitors_cannot_register(alice):
    from django.contrib.auth.models import AnonymousUser

    event, _ = make_event(alice, players=0, start=False)
    with pytest.raises(NotAllowed):
        register(event, user=AnonymousUser())
    assert not event.registrations.exists()


def test_event_cap_refuses_the_extra_player(alice, bob, charlie):
    event, _ = make_event(alice, players=0, start=False, max_players=1)
    register(event, user=bob)
    with pytest.raises(TournamentError, match="full"):
        register(event, user=charlie)


def test_players_who_did_not_check_in_are_dropped_at_the_start(alice):
    event, regs = make_event(alice, players=4, start=False)
    for reg in regs[:3]:
        check_in(reg.user, reg)
    event = start_event(alice, event)
    statuses = dict(event.registrations.values_list("display_name", "status"))
    assert statuses["Player 04"] == Registration.Status.DROPPED
    assert [s for s in statuses.values() if s == Registration.Status.CHECKED_IN].__len__() == 3


def test_check_in_is_closed_once_the_event_runs(alice):
    _event, regs = make_event(alice, players=2)
    with pytest.raises(TournamentError, match="Check-in is over"):
        check_in(regs[0].user, regs[0])


def test_start_takes_the_recommended_number_of_rounds(alice):
    event, _ = make_event(alice, players=20, swiss_rounds=None)
    assert event.swiss_rounds == 5  # MTR Appendix E: 17-32 players, 5 rounds


def test_a_single_player_cannot_start_an_event(alice):
    event, _ = make_event(alice, players=1, start=False)
    with pytest.raises(TournamentError, match="two players"):
        start_event(alice, event)
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION


# ---------------------------------------------------------------- pairing and rounds


def test_round_goes_draft_then_published_then_completed(alice):
    event, _ = make_event(alice, players=8)
    rnd = pair_next_round(alice, event)
    assert rnd.status == Round.Status.DRAFT and rnd.matches.count() == 4
    publish_round(alice, rnd)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED and rnd.ends_at is not None
    for match in rnd.matches.all():
        enter_result(alice, match, [0, 0])
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED


def test_next_round_cannot_be_paired_while_results_are_missing(alice):
    event, _ = make_event(alice, players=8)
    rnd = publish_round(alice, pair_next_round(alice, event))
    enter_result(alice, rnd.matches.first(), [0, 0])
    with pytest.raises(TournamentError, match="3 result"):
        pair_next_round(alice, event)
    assert event.rounds.count() == 1


def test_a_draft_round_must_be_published_before_the_next(alice):
    event, _ = make_event(alice, players=4)
    pair_next_round(alice, event)
    with pytest.raises(TournamentError, match="not published"):
        pair_next_round(alice, event)


def test_repairing_a_draft_round_replaces_its_pairings_and_is_audited(alice):
    event, _ = make_event(alice, players=8)
    rnd = pair_next_round(alice, event)
    new = repair_round(alice, rnd)
    assert new.number == 1 and event.rounds.count() == 1
    assert event.audit.filter(action=AuditEntry.Action.REPAIR, actor=alice).exists()
    publish_round(alice, new)
    with pytest.raises(TournamentError, match="not published yet"):
        repair_round(alice, new)


def test_odd_field_gives_one_bye_worth_a_two_nil_win(alice):
    event, _ = make_event(alice, players=5)
    rnd = publish_round(alice, pair_next_round(alice, event))
    bye = rnd.matches.get(is_bye=True)
    assert bye.status == Match.Status.FINAL and bye.result_source == Match.Source.BYE
    seat = bye.seats.get()
    assert seat.game_wins == 2
    row = next(
        r
        for r in StandingsSnapshot.objects.get(event=event).rows
        if r["player"] == seat.registration_id
    )
    assert row["points"] == 3 and row["byes"] == 1


def test_swiss_avoids_rematches_across_rounds(alice):
    event, _ = make_event(alice, players=8, swiss_rounds=3)
    for _ in range(3):
        play_round(alice, event)
    pairs = set()
    for match in Match.objects.filter(round__event=event):
        key = frozenset(match.seats.values_list("registration_id", flat=True))
        assert key not in pairs
        pairs.add(key)


def test_swapping_players_in_a_draft_round(alice):
    event, _regs = make_event(alice, players=4)
    rnd = pair_next_round(alice, event)
    seats = list(MatchSeat.objects.filter(round=rnd).order_by("match__table", "seat"))
    a, c = seats[0].registration, seats[2].registration
    swap_players(alice, rnd, a, c)
    assert MatchSeat.objects.get(round=rnd, registration=a).match_id == seats[2].match_id
    assert MatchSeat.objects.get(round=rnd, registration=c).match_id == seats[0].match_id
    assert event.audit.filter(action=AuditEntry.Action.SWAP).exists()


# ---------------------------------------------------------------- results


def test_opponent_confirming_the_same_result_makes_it_final(alice):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.get()
    first, second = seat_users(match)
    report_result(first, match, [0, 1, 0])
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    confirm_result(second, match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result_source == Match.Source.CONFIRMED
    assert list(match.games.values_list("winner_seat", flat=True)) == [0, 1, 0]
    assert match.winner.user == first


def test_mismatched_reports_go_to_the_organiser(alice):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    first, second = seat_users(match)
    report_result(first, match, [0, 0])
    report_result(second, match, [1, 1])
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    assert event.audit.filter(action=AuditEntry.Action.DISPUTE).exists()
    enter_result(alice, match, [0, 1, 1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.winner.user == second


def test_three_nil_in_a_best_of_three_is_refused_and_changes_nothing(alice):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    first, _ = seat_users(match)
    with pytest.raises(TournamentError, match="already decided"):
        report_result(first, match, [0, 0, 0])
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and not match.reports.exists()


def test_a_result_for_a_finished_match_is_refused(alice):
    event, _ = make_event(alice, players=4, swiss_rounds=2)
    match = publish_round(alice, pair_next_round(alice, event)).matches.first()
    enter_result(alice, match, [0, 0])
    first, _ = seat_users(match)
    with pytest.raises(TournamentError, match="final result"):
        report_result(first, match, [1, 1])


def test_only_the_players_of_a_match_can_report_it(alice, bob):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    with pytest.raises(NotAllowed):
        report_result(bob, match, [0, 0])


def test_organiser_override_of_a_completed_round_is_audited_and_rescored(alice):
    event, _ = make_event(alice, players=4, swiss_rounds=2)
    rnd = play_round(alice, event)
    match = rnd.matches.order_by("table").first()
    winner_before = match.seats.get(seat=0).registration.display_name
    assert standings_of(event)[winner_before]["points"] == 3
    enter_result(alice, match, [1, 1])
    assert standings_of(event)[winner_before]["points"] == 0
    entry = event.audit.filter(action=AuditEntry.Action.RESULT_OVERRIDE).first()
    assert entry.actor == alice and "was 2-0" in entry.summary


def test_elimination_matches_cannot_be_drawn(alice):
    event, _ = make_event(alice, players=4, structure=Event.Structure.SINGLE_ELIMINATION)
    match = publish_round(alice, pair_next_round(alice, event)).matches.first()
    with pytest.raises(TournamentError, match="cannot end in a draw"):
        enter_result(alice, match, [0, 1])


def test_time_called_makes_the_unfinished_game_a_draw(alice):
    event, _ = make_event(alice, players=4, swiss_rounds=2)
    rnd = publish_round(alice, pair_next_round(alice, event))
    reported, silent = rnd.matches.order_by("table")
    report_result(seat_users(reported)[0], reported, [0])
    settled = call_time(alice, rnd)
    assert settled == 2
    reported.refresh_from_db()
    silent.refresh_from_db()
    assert list(reported.games.values_list("winner_seat", flat=True)) == [0, None]
    assert reported.winner is not None  # 1-0-1: a win
    assert silent.winner is None and silent.game_draws == 1  # 0-0-1: a drawn match
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED


# ---------------------------------------------------------------- drops and late entry


def test_dropped_player_is_not_paired_but_still_counts_for_opponents(alice):
    event, _regs = make_event(alice, players=4, swiss_rounds=3)
    rnd = play_round(alice, event)
    loser = rnd.matches.order_by("table").first().seats.get(seat=1).registration
    drop(alice, loser, "had to leave")
    loser.refresh_from_db()
    assert loser.status == Registration.Status.DROPPED and loser.dropped_after_round == 1
    rnd2 = pair_next_round(alice, event)
    assert not MatchSeat.objects.filter(round=rnd2, registration=loser).exists()
    row = standings_of(event)[loser.display_name]
    assert row["dropped"] is True
    audit = event.audit.get(action=AuditEntry.Action.DROP)
    assert audit.actor == alice and "had to leave" in audit.summary


def test_player_can_drop_themselves_and_organiser_can_readd(alice):
    event, regs = make_event(alice, players=4, swiss_rounds=3)
    play_round(alice, event)
    drop(regs[0].user, regs[0])
    readd(alice, regs[0])
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN
    assert event.audit.filter(action=AuditEntry.Action.READD, actor=alice).exists()
    rnd = pair_next_round(alice, event)
    assert MatchSeat.objects.filter(round=rnd, registration=regs[0]).exists()


def test_late_entry_counts_missed_rounds_as_losses(alice, bob):
    event, _ = make_event(alice, players=4, swiss_rounds=3)
    play_round(alice, event)
    late = register(event, user=bob, display_name="Latecomer", actor=alice)
    assert late.first_round == 2
    row = standings_of(event)["Latecomer"]
    assert (row["wins"], row["losses"], row["points"]) == (0, 1, 0)
    rnd = pair_next_round(alice, event)
    assert MatchSeat.objects.filter(round=rnd, registration=late).exists()
    assert event.audit.filter(action=AuditEntry.Action.LATE_ENTRY).exists()


def test_players_cannot_enter_late_by_themselves(alice, bob):
    event, _ = make_event(alice, players=4)
    with pytest.raises(TournamentError, match="closed"):
        register(event, user=bob)


# ---------------------------------------------------------------- permissions


@pytest.mark.parametrize(
    "action",
    [
        lambda u, e: pair_next_round(u, e),
        lambda u, e: update_event(u, e, name="Mine now"),
        lambda u, e: start_event(u, e),
        lambda u, e: lock_decklists(u, e),
    ],
    ids=["pair", "edit", "start", "lock"],
)
def test_non_organisers_cannot_run_the_event(alice, bob, action):
    event, _ = make_event(alice, players=4, start=False)
    with pytest.raises(NotAllowed):
        action(bob, event)
    event.refresh_from_db()
    assert event.name == "Test Open" and event.status == Event.Status.REGISTRATION


def test_judges_enter_results_but_cannot_pair(alice, bob):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    add_staff(alice, event, bob, "judge")
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    enter_result(bob, match, [0, 0])
    with pytest.raises(NotAllowed):
        pair_next_round(bob, event)


def test_co_organiser_can_pair(alice, bob):
    event, _ = make_event(alice, players=4)
    add_staff(alice, event, bob, "organiser")
    assert pair_next_round(bob, event).number == 1


def test_the_last_organiser_cannot_be_removed(alice):
    event, _ = make_event(alice, players=0, start=False)
    with pytest.raises(TournamentError, match="at least one organiser"):
        remove_staff(alice, event, alice)


# ---------------------------------------------------------------- decklists


def test_decklists_lock_at_the_deadline_and_at_the_start(alice):
    from datetime import timedelta

    from django.utils import timezone

    event, regs = make_event(alice, players=2, start=False)
    submit_decklist(regs[0].user, regs[0], "2 City\n40 Card")
    update_event(alice, event, decklist_deadline=timezone.now() - timedelta(minutes=1))
    event.refresh_from_db()
    with pytest.raises(TournamentError, match="locked"):
        submit_decklist(regs[0].user, regs[0], "changed")
    start_event(alice, event)
    regs[0].decklist.refresh_from_db()
    assert regs[0].decklist.locked and regs[0].decklist.text == "2 City\n40 Card"


# ---------------------------------------------------------------- whole events


def test_swiss_with_top_eight_runs_to_a_champion(alice):
    event, _ = make_event(alice, players=16, swiss_rounds=4, top_cut=8)
    while True:
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        play_round(alice, event)
    titles = list(event.rounds.filter(kind=Round.Kind.ELIMINATION).values_list("title", flat=True))
    assert titles == ["Quarterfinals", "Semifinals", "Final"]
    rows = StandingsSnapshot.objects.get(event=event).rows
    assert rows[0]["playoff_finish"] == 1
    assert [r["playoff_finish"] for r in rows[:8]] == [1, 2, 3, 3, 5, 5, 5, 5]


def test_top_cut_is_seeded_one_against_eight(alice):
    event, _ = make_event(alice, players=16, swiss_rounds=4, top_cut=8)
    for _ in range(4):
        play_round(alice, event)
    event.refresh_from_db()
    seeds = event.bracket["seeds"]
    qf = pair_next_round(alice, event)
    first = qf.matches.order_by("table").first()
    assert set(first.seats.values_list("registration_id", flat=True)) == {seeds[0], seeds[7]}


@pytest.mark.parametrize("reset_needed", [True, False])
def test_double_elimination_finishes_with_and_without_the_reset(alice, reset_needed):
    event, _ = make_event(alice, players=4, structure=Event.Structure.DOUBLE_ELIMINATION)

    def pick(match):
        # In the grand final the losers' bracket champion (seat 1) wins when a reset is wanted.
        if match.bracket_code == "GF1":
            return [1, 1] if reset_needed else [0, 0]
        return [0, 0]

    for _ in range(10):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        play_round(alice, event, pick)
    assert event.status == Event.Status.FINISHED
    codes = set(Match.objects.filter(round__event=event).values_list("bracket_code", flat=True))
    assert ("GF2" in codes) is reset_needed


def test_round_robin_plays_everyone_once(alice):
    event, _regs = make_event(alice, players=5, structure=Event.Structure.ROUND_ROBIN)
    for _ in range(5):
        play_round(alice, event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    pairs = [
        frozenset(m.seats.values_list("registration_id", flat=True))
        for m in Match.objects.filter(round__event=event)
    ]
    assert len(pairs) == len(set(pairs)) == 10


def test_self_running_event_pairs_the_next_round_itself(alice):
    event, _ = make_event(alice, players=4, swiss_rounds=2, auto_advance=True)
    rnd = publish_round(alice, pair_next_round(alice, event))
    for match in rnd.matches.all():
        enter_result(alice, match, [0, 0])
    # The task is queued on commit; run what it runs.
    nxt = advance(event)
    assert nxt is not None and nxt.number == 2 and nxt.status == Round.Status.PUBLISHED
    assert advance(event) is None  # a second run changes nothing


def test_failed_repair_keeps_the_draft_round(alice):
    event, regs = make_event(alice, players=4)
    rnd = pair_next_round(alice, event)
    for reg in regs[1:]:
        drop(alice, reg)
    with pytest.raises(TournamentError, match="Fewer than two"):
        repair_round(alice, rnd)
    assert Round.objects.filter(pk=rnd.pk, status=Round.Status.DRAFT).exists()


def test_round_robin_matches_can_be_drawn(alice):
    event, _ = make_event(alice, players=4, structure=Event.Structure.ROUND_ROBIN)
    match = publish_round(alice, pair_next_round(alice, event)).matches.first()
    enter_result(alice, match, [0, 1])
    match.refresh_from_db()
    assert match.is_final and match.winner is None
