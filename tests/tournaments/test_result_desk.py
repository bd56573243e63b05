"""The console's result desk: one-click results fitted to the match length, per-game
counts, no-shows, and correcting a result of a completed round after a preview of what
changes (standings before and after, later pairings), audited."""

from __future__ import annotations

import json

import pytest

from engine.core import registry
from tests.tournaments.factories import make_event, play_round
from tournaments.models import AuditEntry, Event, Match, MatchSeat, Round, StandingsSnapshot
from tournaments.results import ResultError, parse_score, quick_scores
from tournaments.services.corrections import correct_result, preview_correction
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.pairing import pair_next_round, publish_round

# ---------------------------------------------------------------- pure: the buttons


def values(best_of: int, allow_draw: bool = True) -> list[str]:
    return [q.value for q in quick_scores(best_of, allow_draw) if q.kind in ("a", "b", "draw")]


def test_best_of_three_offers_the_usual_scores():
    assert values(3) == ["2-0-0", "2-1-0", "1-2-0", "0-2-0", "1-1-0", "0-0-1"]
    kinds = [q.kind for q in quick_scores(3)]
    assert kinds[-2:] == ["no_show_a", "no_show_b"]


def test_the_buttons_fit_best_of_one_and_best_of_five():
    assert values(1) == ["1-0-0", "0-1-0", "0-0-1"]
    assert values(5) == [
        "3-0-0", "3-1-0", "3-2-0", "2-3-0", "1-3-0", "0-3-0", "1-1-0", "2-2-0", "0-0-1",
    ]  # fmt: skip


def test_elimination_matches_get_no_draw_buttons():
    assert values(3, allow_draw=False) == ["2-0-0", "2-1-0", "1-2-0", "0-2-0"]


@pytest.mark.parametrize("bad", ["", "2-0", "2-0-0-0", "a-b-c", "-1-0-0", "２-0-0", "100-0-0"])
def test_a_score_that_is_not_three_counts_is_refused(bad):
    with pytest.raises(ResultError):
        parse_score(bad)


# ---------------------------------------------------------------- the live round


pytestmark = pytest.mark.django_db


def live_round(alice, players=4, **fields):
    event, _regs = make_event(alice, players=players, **fields)
    rnd = publish_round(alice, pair_next_round(alice, event))
    return event, rnd


def manage_url(event, action=""):
    return f"/events/{event.slug}/manage/" + (f"{action}/" if action else "")


def wins(match: Match) -> list[int]:
    return list(match.seats.order_by("seat").values_list("game_wins", flat=True))


def names(match: Match) -> list[str]:
    return [s.registration.display_name for s in match.seats.order_by("seat")]


def test_console_shows_one_click_results_named_for_the_players(client, alice):
    event, rnd = live_round(alice)
    match = rnd.matches.order_by("table").first()
    a, b = names(match)
    client.force_login(alice)
    page = client.get(manage_url(event)).content.decode()
    for label in (f"{a} 2–0", f"{a} 2–1", f"{b} 2–1", f"{b} 2–0", "1–1", "Draw"):
        assert label in page
    assert f"No show: {b}" in page
    assert f"Wins {a}" in page and "Drawn games" in page  # the labelled per-game boxes


def test_one_click_enters_the_result_and_audits_it(client, alice):
    event, rnd = live_round(alice)
    match = rnd.matches.order_by("table").first()
    client.force_login(alice)
    response = client.post(
        manage_url(event, "result"), {"match": match.pk, "score": "1-2-0", "anchor": "#results"}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and wins(match) == [1, 2]
    assert match.result_source == Match.Source.ORGANISER
    entry = event.audit.get(action=AuditEntry.Action.RESULT_OVERRIDE)
    assert entry.actor == alice and entry.data["match"] == match.pk


def test_no_show_gives_the_present_player_the_match_and_says_so(client, alice):
    event, rnd = live_round(alice, best_of=5)
    match = rnd.matches.order_by("table").first()
    absent = names(match)[1]
    client.force_login(alice)
    client.post(manage_url(event, "result"), {"match": match.pk, "no_show": "1"})
    match.refresh_from_db()
    assert wins(match) == [3, 0]
    entry = event.audit.get(action=AuditEntry.Action.RESULT_OVERRIDE)
    assert f"no show: {absent}" in entry.summary and entry.data["note"] == f"no show: {absent}"


def test_per_game_counts_still_work(client, alice):
    event, rnd = live_round(alice)
    match = rnd.matches.order_by("table").first()
    client.force_login(alice)
    client.post(
        manage_url(event, "result"),
        {"match": match.pk, "wins_0": "1", "wins_1": "1", "draws": "1"},
    )
    match.refresh_from_db()
    assert wins(match) == [1, 1] and match.game_draws == 1 and match.winner_id is None


@pytest.mark.parametrize(
    "data", [{"score": "3-0-0"}, {"score": "x"}, {"no_show": "2"}, {"score": "2-2-0"}]
)
def test_a_bad_click_is_a_clear_error_that_changes_nothing(client, alice, data):
    event, rnd = live_round(alice)
    match = rnd.matches.order_by("table").first()
    client.force_login(alice)
    response = client.post(manage_url(event, "result"), {"match": match.pk, **data}, follow=True)
    assert response.status_code == 200
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    match.refresh_from_db()
    assert match.status != Match.Status.FINAL
    assert not event.audit.filter(action=AuditEntry.Action.RESULT_OVERRIDE).exists()


def test_players_cannot_use_the_desk(client, alice):
    event, rnd = live_round(alice)
    match = rnd.matches.order_by("table").first()
    player = match.seats.first().registration.user
    client.force_login(player)
    response = client.post(manage_url(event, "result"), {"match": match.pk, "score": "2-0-0"})
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.status != Match.Status.FINAL


# ---------------------------------------------------------------- corrections


def two_rounds_played(alice):
    """Eight players, two rounds played where seat 0 always wins 2-0."""
    event, _regs = make_event(alice, players=8, swiss_rounds=3)
    first = play_round(alice, event)
    second = play_round(alice, event)
    return event, first, second


def pairings(rnd: Round) -> list[tuple[int, int]]:
    return list(
        MatchSeat.objects.filter(round=rnd).order_by("match__table", "seat")
        .values_list("match__table", "registration_id")
    )  # fmt: skip


def test_preview_shows_standings_before_and_after_and_writes_nothing(alice):
    event, first, _second = two_rounds_played(alice)
    match = first.matches.order_by("table").first()
    a, b = names(match)
    audits = event.audit.count()
    preview = preview_correction(alice, match, [1, 1])
    assert preview.current == "2-0" and preview.outcome.score == "0-2"
    changed = {row.name: row for row in preview.changed_standings}
    assert changed[a].points_before - changed[a].points_after == 3
    assert changed[b].points_after - changed[b].points_before == 3
    # round 2 paired the winners of round 1 together: both players' round-2 pairings
    # now join players of different points
    assert {p.round for p in preview.later} == {2}
    assert preview.inconsistent and all(p.round == 2 for p in preview.inconsistent)
    match.refresh_from_db()
    assert wins(match) == [2, 0] and event.audit.count() == audits


def test_confirmed_correction_is_audited_rebuilds_standings_and_keeps_pairings(alice):
    event, first, second = two_rounds_played(alice)
    match = first.matches.order_by("table").first()
    a, b = names(match)
    played = pairings(second)
    expected = {
        row.name: row.points_after for row in preview_correction(alice, match, [1, 1]).standings
    }
    correct_result(alice, match, [1, 1])
    match.refresh_from_db()
    assert wins(match) == [0, 2]
    entry = event.audit.filter(action=AuditEntry.Action.RESULT_OVERRIDE).latest("pk")
    assert "(was 2-0)" in entry.summary and entry.data["note"].startswith("correction")
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert {r["name"]: r["points"] for r in snapshot.rows} == expected
    assert expected[b] >= 3 and expected[a] <= 3
    assert pairings(second) == played


def test_only_completed_swiss_rounds_are_corrected_here(alice, bob):
    _event, rnd = live_round(alice)
    match = rnd.matches.order_by("table").first()
    with pytest.raises(TournamentError):
        preview_correction(alice, match, [0, 0])
    _event2, first, _second = two_rounds_played(alice)
    done = first.matches.order_by("table").first()
    with pytest.raises(NotAllowed):
        preview_correction(bob, done, [1, 1])
    with pytest.raises(NotAllowed):
        correct_result(bob, done, [1, 1])
    with pytest.raises(TournamentError):
        preview_correction(alice, done, [1, 1, 1])  # not a best-of-3 result
    with pytest.raises(TournamentError, match="already"):
        correct_result(alice, done, [0, 0])  # the result it has


def test_console_previews_then_confirms_a_correction(client, alice):
    event, first, _second = two_rounds_played(alice)
    match = first.matches.order_by("table").first()
    client.force_login(alice)
    page = client.get(manage_url(event), {"correct": match.pk}).content.decode()
    assert "Correct an earlier result" in page and 'name="correct"' in page
    page = client.get(manage_url(event), {"correct": match.pk, "score": "0-2-0"}).content.decode()
    assert "Standings before and after" in page
    assert "Later rounds keep the pairings they were played with." in page
    assert "would likely have been paired differently" in page
    match.refresh_from_db()
    assert wins(match) == [2, 0]  # a preview changes nothing
    response = client.post(
        manage_url(event, "correct"), {"match": match.pk, "score": "0-2-0", "anchor": "#correct"}
    )
    assert response.status_code == 302 and response["Location"].endswith("#correct")
    match.refresh_from_db()
    assert wins(match) == [0, 2]


def test_console_preview_of_a_bad_result_is_an_error_on_the_page(client, alice):
    event, first, _second = two_rounds_played(alice)
    match = first.matches.order_by("table").first()
    client.force_login(alice)
    page = client.get(manage_url(event), {"correct": match.pk, "score": "3-0-0"}).content.decode()
    assert 'class="msg error"' in page and "Confirm the correction" not in page


def test_correcting_a_live_round_through_the_correct_action_is_refused(client, alice):
    event, rnd = live_round(alice)
    match = rnd.matches.order_by("table").first()
    client.force_login(alice)
    response = client.post(
        manage_url(event, "correct"), {"match": match.pk, "score": "2-0-0"}, follow=True
    )
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    match.refresh_from_db()
    assert match.status != Match.Status.FINAL


# ---------------------------------------------------------------- the create-event form


def test_create_form_is_in_sections_and_says_when_a_field_applies(client, alice):
    client.force_login(alice)
    page = client.get("/events/new/").content.decode()
    for legend in ("Basics", "Format and structure", "Timing", "Online play", "Advanced"):
        assert f"<legend>{legend}</legend>" in page
    assert page.count('name="') >= 20  # every field is still on the page without JS
    assert 'data-applies="[{&quot;structure&quot;: [&quot;double_elim&quot;]}]"' in page
    assert "[{&quot;play_online&quot;: [&quot;on&quot;]}]" in page
    assert "js/event_form.js" in page and "<script>" not in page


def test_create_form_offers_each_game_its_formats_and_pods_where_a_format_has_them(client, alice):
    client.force_login(alice)
    response = client.get("/events/new/")
    form = response.context["form"]
    formats = json.loads(form["game_system"].field.widget.attrs["data-formats"])
    assert formats == {s.key: [f.key for f in s.formats] for s in registry.all_systems()}
    assert 'data-formats="{&quot;' in response.content.decode()
    rule = {
        field.name: json.loads(applies)
        for section in response.context["sections"]
        for field, applies in section["fields"]
        if applies
    }["players_per_game"]
    pods = {
        (g, f) for condition in rule for g in condition["game_system"] for f in condition["format"]
    }
    assert ("tactics", "ffa") in pods
    assert all(condition["structure"] == ["swiss"] for condition in rule)  # pods: Swiss only
    assert not {("tactics", "duel"), ("tactics", "2v2"), ("voskhozhdenie", "team_standard")} & pods
    assert not any(g == "berserk" for g, _f in pods)  # a game of two players only
    deadline = response.content.decode().split('name="decklist_deadline"')[0]
    deadline = deadline[deadline.rindex("data-applies=") :]
    with_lists = [s.key for s in registry.all_systems() if s.needs_decklists]
    assert with_lists and all(f"&quot;{key}&quot;" in deadline for key in with_lists)
    assert "&quot;tactics&quot;" not in deadline  # no decklists: no deadline to set


def test_create_form_still_validates_fields_that_do_not_apply(client, alice):
    client.force_login(alice)
    response = client.post(
        "/events/new/",
        {
            "name": "Hidden",
            "game_system": "",
            "structure": "swiss",
            "best_of": "3",
            "top_cut": "0",
            "round_minutes": "50",
            "players_per_game": "2",
            "tiebreaks": "mtr",
            "time_bank_minutes": "0",  # online play is off, so the field was hidden
        },
    )
    assert response.status_code == 200
    assert "time_bank_minutes" in response.context["form"].errors
    assert not Event.objects.filter(name="Hidden").exists()


def test_the_correction_list_costs_no_query_per_round(client, alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event, _regs = make_event(alice, players=8, swiss_rounds=4)
    client.force_login(alice)
    counts = []
    for _ in range(3):
        play_round(alice, event)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(manage_url(event)).status_code == 200
        counts.append(len(queries))
    assert counts[1] == counts[2], counts  # a third completed round costs nothing more
