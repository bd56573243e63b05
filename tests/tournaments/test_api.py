"""The REST API (tournaments.api): who may do what, results, errors, schema."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    Match,
    Registration,
    ResultReport,
    Round,
    StandingsSnapshot,
)
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import add_staff, create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.permissions import is_organiser
from tournaments.services.players import drop, register
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- helpers


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def events_url(slug: str = "", tail: str = "") -> str:
    return f"/api/events/{slug + '/' if slug else ''}{tail}"


@pytest.fixture
def event(alice):
    return create_event(alice, name="Spring Open", swiss_rounds=3, best_of=3)


@pytest.fixture
def erin(make_user):
    return make_user("erin")


@pytest.fixture
def started(event, alice, bob, charlie, dave, erin):
    """Four players, started, round 1 paired but still a draft."""
    for user in (bob, charlie, dave, erin):
        register(event, user=user)
    start_event(alice, event)
    pair_next_round(alice, event)
    return event


@pytest.fixture
def playing(started, alice):
    """Round 1 published: two matches waiting for results."""
    publish_round(alice, started.rounds.get(number=1))
    return started


def match_of(event: Event, user, number: int = 1) -> Match:
    return Match.objects.get(
        round__event=event, round__number=number, seats__registration__user=user
    )


def opponent_of(match: Match, user):
    return next(s.registration.user for s in match.seats.all() if s.registration.user_id != user.pk)


def seat_of(match: Match, user) -> int:
    return next(s.seat for s in match.seats.all() if s.registration.user_id == user.pk)


def match_url(event: Event, match: Match, action: str = "") -> str:
    return events_url(event.slug, f"matches/{match.pk}/" + (f"{action}/" if action else ""))


def snapshot_of(match: Match) -> tuple:
    match.refresh_from_db()
    return (
        match.status,
        match.winner_id,
        match.version,
        list(match.games.values_list("winner_seat", flat=True)),
        sorted(match.seats.values_list("game_wins", flat=True)),
        ResultReport.objects.filter(match=match).count(),
    )


# ---------------------------------------------------------------- events


def test_event_list_shows_public_events_to_everyone_and_unlisted_ones_to_their_staff(alice, bob):
    create_event(alice, name="Open Day")
    create_event(alice, name="Staff Only", is_public=False)

    anonymous = client_for().get(events_url())
    assert anonymous.status_code == 200
    assert [e["name"] for e in anonymous.json()["results"]] == ["Open Day"]
    assert anonymous.json()["count"] == 1

    as_bob = client_for(bob).get(events_url()).json()["results"]
    assert [e["name"] for e in as_bob] == ["Open Day"]

    as_alice = client_for(alice).get(events_url()).json()["results"]
    assert sorted(e["name"] for e in as_alice) == ["Open Day", "Staff Only"]


def test_event_list_counts_players_once_however_many_staff_the_event_has(alice, bob, charlie):
    event = create_event(alice, name="Crowded Staff")
    add_staff(alice, event, charlie, EventStaff.Role.JUDGE)
    register(event, user=bob)

    rows = client_for(alice).get(events_url()).json()["results"]

    assert [(e["slug"], e["player_count"]) for e in rows] == [("crowded-staff", 1)]


def test_retrieve_event_by_slug_returns_its_settings_and_state_without_the_seed(event, bob):
    register(event, user=bob)

    response = client_for().get(events_url(event.slug))

    assert response.status_code == 200
    body = response.json()
    assert body["slug"] == "spring-open"
    assert body["name"] == "Spring Open"
    assert body["best_of"] == 3
    assert body["swiss_rounds"] == 3
    assert body["status"] == "registration"
    assert body["player_count"] == 1
    assert "seed" not in body
    assert "bracket" not in body


def test_logged_in_user_creates_an_event_and_becomes_its_organiser(bob):
    response = client_for(bob).post(
        events_url(),
        {"name": "Bob's Cup", "best_of": 1, "tiebreaks": "pokemon", "max_players": 16},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["slug"] == "bobs-cup"
    assert body["best_of"] == 1
    assert body["tiebreaks"] == "pokemon"
    assert body["player_count"] == 0
    event = Event.objects.get(slug="bobs-cup")
    assert event.created_by == bob
    assert is_organiser(bob, event)
    assert event.audit.filter(action=AuditEntry.Action.CREATE).count() == 1


def test_create_event_with_an_explicit_slug_uses_it(bob):
    response = client_for(bob).post(events_url(), {"name": "Cup", "slug": "my-cup"}, format="json")

    assert response.status_code == 201
    assert response.json()["slug"] == "my-cup"
    assert client_for().get(events_url("my-cup")).status_code == 200


def test_create_event_with_a_slug_already_taken_is_400(event, bob):
    response = client_for(bob).post(
        events_url(), {"name": "Copycat", "slug": event.slug}, format="json"
    )

    assert response.status_code == 400
    assert "slug" in response.json()
    assert Event.objects.count() == 1


def test_create_event_refuses_invalid_settings_with_400_and_creates_nothing(bob):
    client = client_for(bob)

    bad_length = client.post(events_url(), {"name": "X", "best_of": 4}, format="json")
    no_name = client.post(events_url(), {"best_of": 3}, format="json")
    bad_game = client.post(events_url(), {"name": "X", "game_system": "chess"}, format="json")

    assert bad_length.status_code == 400
    assert "best_of" in bad_length.json()
    assert no_name.status_code == 400
    assert "name" in no_name.json()
    assert bad_game.status_code == 400
    assert "chess" in bad_game.json()["detail"]
    assert not Event.objects.exists()


def test_anonymous_cannot_create_an_event(db):
    response = client_for().post(events_url(), {"name": "Sneaky"}, format="json")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert not Event.objects.exists()


def test_organiser_changes_settings_with_patch_and_it_is_audited(event, alice):
    response = client_for(alice).patch(
        events_url(event.slug), {"location": "Club 7", "round_minutes": 45}, format="json"
    )

    assert response.status_code == 200, response.content
    assert response.json()["location"] == "Club 7"
    event.refresh_from_db()
    assert (event.location, event.round_minutes) == ("Club 7", 45)
    assert event.audit.filter(action=AuditEntry.Action.EDIT).exists()


def test_patch_cannot_change_the_slug(event, alice):
    response = client_for(alice).patch(events_url(event.slug), {"slug": "moved"}, format="json")

    assert response.status_code == 200
    assert Event.objects.filter(slug="spring-open").exists()


def test_frozen_setting_after_the_start_is_refused_with_400(started, alice):
    response = client_for(alice).patch(events_url(started.slug), {"best_of": 5}, format="json")

    assert response.status_code == 400
    assert "best_of" in response.json()["detail"]
    started.refresh_from_db()
    assert started.best_of == 3


def test_non_organiser_cannot_edit_an_event(event, bob):
    response = client_for(bob).patch(events_url(event.slug), {"name": "Mine now"}, format="json")

    assert response.status_code == 403
    assert response.json() == {"detail": "Only an organiser of this event can do that."}
    event.refresh_from_db()
    assert event.name == "Spring Open"


def test_non_organiser_gets_403_even_for_an_invalid_edit(event, bob):
    response = client_for(bob).patch(events_url(event.slug), {"best_of": 7}, format="json")

    assert response.status_code == 403


def test_anonymous_edit_is_401(event):
    response = client_for().patch(events_url(event.slug), {"name": "Anon"}, format="json")

    assert response.status_code == 401
    event.refresh_from_db()
    assert event.name == "Spring Open"


def test_unknown_event_is_404_everywhere(bob):
    client = client_for(bob)
    for url in (
        events_url("no-such-event"),
        events_url("no-such-event", "registrations/"),
        events_url("no-such-event", "rounds/"),
        events_url("no-such-event", "standings/"),
        events_url("no-such-event", "audit/"),
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "no-such-event" in response.json()["detail"]
    assert client.post(events_url("no-such-event", "rounds/")).status_code == 404
    assert client.post(events_url("no-such-event", "registrations/"), {}).status_code == 404


def test_unknown_round_and_match_are_404(playing, alice):
    client = client_for(alice)

    assert client.get(events_url(playing.slug, "rounds/9/")).status_code == 404
    assert client.get(events_url(playing.slug, "rounds/9/pairings/")).status_code == 404
    assert (
        client.post(
            events_url(playing.slug, "matches/999999/report/"), {"games": [0, 0]}, format="json"
        ).status_code
        == 404
    )


def test_a_match_of_another_event_is_404_under_this_event(playing, alice, bob):
    other = create_event(alice, name="Other")
    match = match_of(playing, bob)

    response = client_for(bob).get(events_url(other.slug, f"matches/{match.pk}/"))

    assert response.status_code == 404


def test_malformed_json_is_400_with_a_clear_message(event, alice):
    response = client_for(alice).generic(
        "PATCH", events_url(event.slug), '{"name": "Broken",', content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["detail"].startswith("JSON parse error")
    event.refresh_from_db()
    assert event.name == "Spring Open"


def test_malformed_json_in_a_result_report_is_400(playing, bob):
    match = match_of(playing, bob)

    response = client_for(bob).generic(
        "POST",
        match_url(playing, match, "report"),
        "{games: [0, 0]}",
        content_type="application/json",
    )

    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]


# ---------------------------------------------------------------- registrations


def test_logged_in_player_registers_themself(event, bob):
    response = client_for(bob).post(
        events_url(event.slug, "registrations/"), {"display_name": "Bobby"}, format="json"
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["display_name"] == "Bobby"
    assert body["status"] == "registered"
    assert body["is_me"] is True
    assert Registration.objects.get(event=event).user == bob


def test_registering_twice_is_a_409_conflict(event, bob):
    client = client_for(bob)
    client.post(events_url(event.slug, "registrations/"), {}, format="json")

    again = client.post(events_url(event.slug, "registrations/"), {}, format="json")

    assert again.status_code == 409
    assert again.json()["detail"] == "You are already registered for this event."
    assert event.registrations.count() == 1


def test_anonymous_cannot_register(event):
    response = client_for().post(events_url(event.slug, "registrations/"), {}, format="json")

    assert response.status_code == 401
    assert not event.registrations.exists()


def test_registration_list_is_public_and_hides_drop_reasons(event, alice, bob, charlie):
    reg = register(event, user=bob)
    register(event, user=charlie)
    start_event(alice, event)
    drop(alice, reg, "family emergency")

    public = client_for().get(events_url(event.slug, "registrations/")).json()["results"]
    own = client_for(bob).get(events_url(event.slug, "registrations/")).json()["results"]
    organiser = client_for(alice).get(events_url(event.slug, "registrations/")).json()["results"]

    assert [(r["display_name"], r["status"]) for r in public] == [
        ("bob", "dropped"),
        ("charlie", "checked_in"),
    ]
    assert public[0]["drop_reason"] is None
    assert own[0]["drop_reason"] == "family emergency"
    assert organiser[0]["drop_reason"] == "family emergency"


def test_organiser_adds_a_player_with_or_without_an_account(event, alice, bob):
    client = client_for(alice)

    with_account = client.post(
        events_url(event.slug, "registrations/add/"), {"username": "bob"}, format="json"
    )
    guest = client.post(
        events_url(event.slug, "registrations/add/"),
        {"display_name": "Walk-in Wendy"},
        format="json",
    )
    unknown = client.post(
        events_url(event.slug, "registrations/add/"), {"username": "nobody"}, format="json"
    )
    empty = client.post(events_url(event.slug, "registrations/add/"), {}, format="json")

    assert with_account.status_code == 201
    assert Registration.objects.get(pk=with_account.json()["id"]).user == bob
    assert guest.status_code == 201
    assert guest.json()["display_name"] == "Walk-in Wendy"
    assert unknown.status_code == 400
    assert "nobody" in unknown.json()["username"][0]
    assert empty.status_code == 400
    assert event.registrations.count() == 2
    assert event.audit.filter(action=AuditEntry.Action.REGISTER).count() == 2


def test_player_cannot_add_other_players(event, bob):
    response = client_for(bob).post(
        events_url(event.slug, "registrations/add/"), {"display_name": "Friend"}, format="json"
    )

    assert response.status_code == 403
    assert not event.registrations.exists()


def test_player_checks_in_and_drops_before_the_start_leaving_no_trace(event, bob):
    client = client_for(bob)
    reg_id = client.post(events_url(event.slug, "registrations/"), {}, format="json").json()["id"]

    checked = client.post(events_url(event.slug, f"registrations/{reg_id}/check-in/"))
    dropped = client.post(
        events_url(event.slug, f"registrations/{reg_id}/drop/"), {}, format="json"
    )

    assert checked.status_code == 200
    assert checked.json()["status"] == "checked_in"
    assert dropped.status_code == 204
    assert not event.registrations.exists()


def test_player_cannot_check_in_or_drop_someone_else(event, bob, charlie):
    reg = register(event, user=charlie)
    client = client_for(bob)

    assert (
        client.post(events_url(event.slug, f"registrations/{reg.pk}/check-in/")).status_code == 403
    )
    assert client.post(events_url(event.slug, f"registrations/{reg.pk}/drop/")).status_code == 403
    reg.refresh_from_db()
    assert reg.status == Registration.Status.REGISTERED


def test_organiser_drops_and_readds_a_player_during_the_event(started, alice, bob):
    reg = Registration.objects.get(event=started, user=bob)
    client = client_for(alice)

    dropped = client.post(
        events_url(started.slug, f"registrations/{reg.pk}/drop/"), {"reason": "left"}, format="json"
    )
    again = client.post(events_url(started.slug, f"registrations/{reg.pk}/drop/"))
    readded = client.post(events_url(started.slug, f"registrations/{reg.pk}/readd/"))

    assert dropped.status_code == 200
    assert dropped.json()["status"] == "dropped"
    assert again.status_code == 409
    assert "already dropped" in again.json()["detail"]
    assert readded.status_code == 200
    assert readded.json()["status"] == "checked_in"


def test_player_cannot_readd_themself(started, alice, bob):
    reg = Registration.objects.get(event=started, user=bob)
    drop(alice, reg)

    response = client_for(bob).post(events_url(started.slug, f"registrations/{reg.pk}/readd/"))

    assert response.status_code == 403
    reg.refresh_from_db()
    assert reg.status == Registration.Status.DROPPED


def test_check_in_after_the_start_is_a_409_conflict(started, bob):
    reg = Registration.objects.get(event=started, user=bob)

    response = client_for(bob).post(events_url(started.slug, f"registrations/{reg.pk}/check-in/"))

    assert response.status_code == 409
    assert response.json()["detail"] == "Check-in is over: the event has started."


# ---------------------------------------------------------------- decklists


def test_decklist_is_seen_only_by_its_owner_and_the_event_officials(
    event, alice, bob, charlie, dave
):
    reg = register(event, user=bob)
    add_staff(alice, event, dave, EventStaff.Role.JUDGE)
    url = events_url(event.slug, f"registrations/{reg.pk}/decklist/")

    submitted = client_for(bob).put(url, {"text": "4 Secret Tech\n56 Lands"}, format="json")

    assert submitted.status_code == 200, submitted.content
    assert submitted.json()["text"] == "4 Secret Tech\n56 Lands"
    for user in (bob, alice, dave):
        response = client_for(user).get(url)
        assert response.status_code == 200, user
        assert response.json()["text"] == "4 Secret Tech\n56 Lands"
    assert client_for(charlie).get(url).status_code == 403
    assert client_for().get(url).status_code == 401
    listing = client_for(charlie).get(events_url(event.slug, "registrations/")).content
    detail = client_for(charlie).get(events_url(event.slug, f"registrations/{reg.pk}/")).content
    assert b"Secret Tech" not in listing
    assert b"Secret Tech" not in detail


def test_other_player_cannot_submit_a_decklist_for_someone(event, bob, charlie):
    reg = register(event, user=bob)

    response = client_for(charlie).put(
        events_url(event.slug, f"registrations/{reg.pk}/decklist/"), {"text": "junk"}, format="json"
    )

    assert response.status_code == 403
    assert not hasattr(Registration.objects.get(pk=reg.pk), "decklist")


def test_decklists_lock_when_the_event_starts(event, alice, bob, charlie):
    reg = register(event, user=bob)
    register(event, user=charlie)
    submit_decklist(bob, reg, "60 Islands")
    start_event(alice, event)

    response = client_for(bob).put(
        events_url(event.slug, f"registrations/{reg.pk}/decklist/"), {"text": "new"}, format="json"
    )

    assert response.status_code == 409
    assert Registration.objects.get(pk=reg.pk).decklist.text == "60 Islands"


# ---------------------------------------------------------------- rounds


def test_organiser_starts_pairs_publishes_and_the_round_list_shows_status(
    event, alice, bob, charlie, dave, erin
):
    for user in (bob, charlie, dave, erin):
        register(event, user=user)
    client = client_for(alice)

    started = client.post(events_url(event.slug, "start/"))
    paired = client.post(events_url(event.slug, "rounds/"))
    published = client.post(events_url(event.slug, "rounds/1/publish/"))
    rounds = client_for().get(events_url(event.slug, "rounds/"))

    assert started.status_code == 200
    assert started.json()["status"] == "running"
    assert paired.status_code == 201, paired.content
    assert (paired.json()["number"], paired.json()["status"]) == (1, "draft")
    assert paired.json()["matches"] == 2
    assert published.status_code == 200
    assert published.json()["status"] == "published"
    assert rounds.status_code == 200
    assert [(r["number"], r["status"], r["results_missing"]) for r in rounds.json()] == [
        (1, "published", 2)
    ]


def test_organiser_repairs_a_draft_round(started, alice):
    response = client_for(alice).post(events_url(started.slug, "rounds/1/repair/"))

    assert response.status_code == 200
    assert (response.json()["number"], response.json()["status"]) == (1, "draft")
    assert started.rounds.count() == 1
    assert started.audit.filter(action=AuditEntry.Action.REPAIR).exists()


def test_publishing_twice_and_repairing_a_published_round_are_409(playing, alice):
    client = client_for(alice)

    publish = client.post(events_url(playing.slug, "rounds/1/publish/"))
    repair = client.post(events_url(playing.slug, "rounds/1/repair/"))

    assert publish.status_code == 409
    assert publish.json()["detail"] == "Round 1 is already published."
    assert repair.status_code == 409
    assert "not published yet" in repair.json()["detail"]


def test_pairing_the_next_round_while_results_are_missing_is_409(playing, alice):
    response = client_for(alice).post(events_url(playing.slug, "rounds/"))

    assert response.status_code == 409
    assert response.json()["detail"] == "Round 1 still has 2 result(s) missing."
    assert playing.rounds.count() == 1


def test_pairing_before_the_start_is_409(event, alice):
    response = client_for(alice).post(events_url(event.slug, "rounds/"))

    assert response.status_code == 409
    assert response.json()["detail"] == "Start the event before pairing."


def test_non_organiser_cannot_start_pair_publish_or_repair(started, bob, charlie):
    client = client_for(bob)
    before = list(started.rounds.values_list("number", "status"))
    matches_before = list(Match.objects.filter(round__event=started).values_list("pk", flat=True))

    responses = [
        client.post(events_url(started.slug, "start/")),
        client.post(events_url(started.slug, "rounds/")),
        client.post(events_url(started.slug, "rounds/1/publish/")),
        client.post(events_url(started.slug, "rounds/1/repair/")),
    ]

    assert [r.status_code for r in responses] == [403, 403, 403, 403]
    assert all(
        r.json()["detail"] == "Only an organiser of this event can do that." for r in responses
    )
    assert list(started.rounds.values_list("number", "status")) == before
    assert (
        list(Match.objects.filter(round__event=started).values_list("pk", flat=True))
        == matches_before
    )


def test_judge_cannot_pair_or_publish(started, alice, make_user):
    judge = make_user("judy")
    add_staff(alice, started, judge, EventStaff.Role.JUDGE)
    client = client_for(judge)

    assert client.post(events_url(started.slug, "rounds/1/publish/")).status_code == 403
    assert client.post(events_url(started.slug, "rounds/1/repair/")).status_code == 403
    assert started.rounds.get(number=1).status == Round.Status.DRAFT


def test_anonymous_pairing_is_401(started):
    response = client_for().post(events_url(started.slug, "rounds/1/publish/"))

    assert response.status_code == 401
    assert started.rounds.get(number=1).status == Round.Status.DRAFT


def test_draft_round_pairings_are_hidden_from_players(started, alice, bob):
    player = client_for(bob)
    organiser = client_for(alice)

    assert player.get(events_url(started.slug, "rounds/")).json() == []
    assert player.get(events_url(started.slug, "rounds/1/")).status_code == 404
    assert player.get(events_url(started.slug, "rounds/1/pairings/")).status_code == 404
    match = match_of(started, bob)
    assert player.get(match_url(started, match)).status_code == 404
    assert [r["status"] for r in organiser.get(events_url(started.slug, "rounds/")).json()] == [
        "draft"
    ]
    assert len(organiser.get(events_url(started.slug, "rounds/1/pairings/")).json()) == 2


def test_pairings_list_seats_players_game_wins_and_status(playing, bob):
    response = client_for().get(events_url(playing.slug, "rounds/1/pairings/"))

    assert response.status_code == 200
    matches = response.json()
    assert [m["table"] for m in matches] == [1, 2]
    names = sorted(seat["name"] for m in matches for seat in m["seats"])
    assert names == ["bob", "charlie", "dave", "erin"]
    first = matches[0]
    assert first["status"] == "pending"
    assert first["best_of"] == 3
    assert [s["seat"] for s in first["seats"]] == [0, 1]
    assert all(s["game_wins"] == 0 for s in first["seats"])
    assert first["games"] == []
    assert first["winner"] is None


# ---------------------------------------------------------------- results


def test_report_and_confirm_make_the_match_final_and_change_the_standings(playing):
    before = client_for().get(events_url(playing.slug, "standings/")).json()
    assert before["after_round"] == 0
    assert [row["points"] for row in before["rows"]] == [0, 0, 0, 0]
    winners = []
    for match in Match.objects.filter(round__event=playing).order_by("table"):
        player, opponent = (seat.registration.user for seat in match.seats.order_by("seat"))
        winners.append(player.username)
        games = [0, 1, 0]  # the reporter, in seat 0, wins 2-1

        reported = client_for(player).post(
            match_url(playing, match, "report"), {"games": games}, format="json"
        )
        assert reported.status_code == 200, reported.content
        assert reported.json()["status"] == "reported"

        confirmed = client_for(opponent).post(match_url(playing, match, "confirm"))
        assert confirmed.status_code == 200, confirmed.content
        body = confirmed.json()
        assert body["status"] == "final"
        assert body["result_source"] == "confirmed"
        assert body["games"] == games
        assert body["winner"] == Registration.objects.get(event=playing, user=player).pk
        wins = {s["name"]: s["game_wins"] for s in body["seats"]}
        assert wins[player.username] == 2
        assert wins[opponent.username] == 1

    standings = client_for().get(events_url(playing.slug, "standings/"))
    assert standings.status_code == 200
    data = standings.json()
    assert data["after_round"] == 1
    assert data["ruleset"] == "mtr"
    rows = {row["name"]: row for row in data["rows"]}
    assert set(rows) == {"bob", "charlie", "dave", "erin"}
    for winner in winners:
        assert (rows[winner]["points"], rows[winner]["wins"], rows[winner]["losses"]) == (3, 1, 0)
        assert rows[winner]["gw"] == pytest.approx(2 / 3)
    assert sorted(row["rank"] for row in data["rows"]) == [1, 2, 3, 4]
    assert {
        "mw",
        "gw",
        "omw",
        "ogw",
        "oomw",
        "matches",
        "byes",
        "draws",
        "dropped",
        "playoff_finish",
        "player",
    } <= set(data["rows"][0])
    assert playing.rounds.get(number=1).status == Round.Status.COMPLETED


def test_standings_are_empty_before_the_event_starts(event):
    response = client_for().get(events_url(event.slug, "standings/"))

    assert response.status_code == 200
    assert response.json() == {"after_round": 0, "ruleset": "mtr", "computed_at": None, "rows": []}


def test_mismatched_reports_mark_the_match_disputed(playing, bob):
    match = match_of(playing, bob)
    opponent = opponent_of(match, bob)
    me = seat_of(match, bob)

    client_for(bob).post(match_url(playing, match, "report"), {"games": [me, me]}, format="json")
    response = client_for(opponent).post(
        match_url(playing, match, "report"), {"games": [1 - me, 1 - me]}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["status"] == "disputed"
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    assert match.winner_id is None
    assert playing.audit.filter(action=AuditEntry.Action.DISPUTE).exists()


def test_three_nil_in_a_best_of_three_is_400_and_changes_nothing(playing, bob):
    match = match_of(playing, bob)
    before = snapshot_of(match)

    response = client_for(bob).post(
        match_url(playing, match, "report"), {"games": [0, 0, 0]}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["detail"] == (
        "The match was already decided before game 3: a best-of-3 ends when a player wins 2 games."
    )
    assert snapshot_of(match) == before


def test_games_that_are_not_seats_are_400(playing, bob):
    match = match_of(playing, bob)
    client = client_for(bob)

    not_a_seat = client.post(match_url(playing, match, "report"), {"games": [2, 0]}, format="json")
    not_a_list = client.post(match_url(playing, match, "report"), {"games": "2-0"}, format="json")
    missing = client.post(match_url(playing, match, "report"), {}, format="json")

    assert not_a_seat.status_code == 400
    assert "is not a seat of this match" in not_a_seat.json()["detail"]
    assert not_a_list.status_code == 400
    assert "games" in not_a_list.json()
    assert missing.status_code == 400
    assert "games" in missing.json()
    assert not ResultReport.objects.filter(match=match).exists()


def test_reporting_a_finished_match_is_a_409_conflict(playing, bob):
    match = match_of(playing, bob)
    opponent = opponent_of(match, bob)
    me = seat_of(match, bob)
    client_for(bob).post(match_url(playing, match, "report"), {"games": [me, me]}, format="json")
    client_for(opponent).post(match_url(playing, match, "confirm"))
    before = snapshot_of(match)

    response = client_for(bob).post(
        match_url(playing, match, "report"), {"games": [1 - me, 1 - me]}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["detail"] == "This match already has a final result."
    assert snapshot_of(match) == before


def test_confirming_without_an_opponent_report_is_409(playing, bob):
    match = match_of(playing, bob)

    response = client_for(bob).post(match_url(playing, match, "confirm"))

    assert response.status_code == 409
    assert response.json()["detail"] == "There is no report from your opponent to confirm."


def test_only_the_players_of_a_match_can_report_it(playing, bob, alice):
    match = match_of(playing, bob)
    other = next(
        r.user
        for r in playing.registrations.all()
        if r.user_id not in {s.registration.user_id for s in match.seats.all()}
    )
    before = snapshot_of(match)

    outsider = client_for(other).post(
        match_url(playing, match, "report"), {"games": [0, 0, 0]}, format="json"
    )
    organiser = client_for(alice).post(
        match_url(playing, match, "report"), {"games": [0, 0]}, format="json"
    )
    anonymous = client_for().post(
        match_url(playing, match, "report"), {"games": [0, 0]}, format="json"
    )

    assert outsider.status_code == 403
    assert outsider.json()["detail"] == "Only the players of this match can report its result."
    assert organiser.status_code == 403
    assert anonymous.status_code == 401
    assert snapshot_of(match) == before


def test_pending_reports_are_seen_only_by_the_players_and_officials(playing, alice, bob):
    match = match_of(playing, bob)
    opponent = opponent_of(match, bob)
    other = next(
        r.user for r in playing.registrations.all() if r.user_id not in {bob.pk, opponent.pk}
    )
    client_for(bob).post(match_url(playing, match, "report"), {"games": [0, 0]}, format="json")

    def reports(user):
        return client_for(user).get(match_url(playing, match)).json()["reports"]

    assert reports(bob)[0]["games"] == [0, 0]
    assert reports(opponent)[0]["games"] == [0, 0]
    assert reports(alice)[0]["games"] == [0, 0]
    assert reports(other) is None
    assert reports(None) is None
    pairings = client_for().get(events_url(playing.slug, "rounds/1/pairings/")).json()
    assert all(m["reports"] is None for m in pairings)


def test_organiser_overrides_a_result_and_it_is_audited(playing, alice, bob):
    match = match_of(playing, bob)
    me = seat_of(match, bob)
    client = client_for(alice)

    entered = client.post(
        match_url(playing, match, "result"), {"games": [me, None, me]}, format="json"
    )
    overridden = client.post(
        match_url(playing, match, "result"), {"games": [1 - me, 1 - me]}, format="json"
    )

    assert entered.status_code == 200, entered.content
    assert entered.json()["game_draws"] == 1
    assert overridden.status_code == 200
    body = overridden.json()
    assert body["status"] == "final"
    assert body["result_source"] == "organiser"
    assert body["games"] == [1 - me, 1 - me]
    assert body["winner"] != Registration.objects.get(event=playing, user=bob).pk
    entries = playing.audit.filter(action=AuditEntry.Action.RESULT_OVERRIDE)
    assert entries.count() == 2
    previous = "2-0-1" if me == 0 else "0-2-1"  # game wins by seat, then drawn games
    assert f"(was {previous})" in entries.first().summary


def test_organiser_override_with_an_impossible_result_is_400(playing, alice, bob):
    match = match_of(playing, bob)
    before = snapshot_of(match)

    response = client_for(alice).post(
        match_url(playing, match, "result"), {"games": [1, 1, 1]}, format="json"
    )

    assert response.status_code == 400
    assert "already decided" in response.json()["detail"]
    assert snapshot_of(match) == before


def test_non_official_cannot_override_a_result(playing, bob):
    match = match_of(playing, bob)
    before = snapshot_of(match)

    own = client_for(bob).post(
        match_url(playing, match, "result"), {"games": [0, 0]}, format="json"
    )
    invalid = client_for(bob).post(
        match_url(playing, match, "result"), {"games": [0, 0, 0]}, format="json"
    )

    assert own.status_code == 403
    assert own.json()["detail"] == "Only an organiser or judge of this event can do that."
    assert invalid.status_code == 403
    assert snapshot_of(match) == before
    assert not playing.audit.filter(action=AuditEntry.Action.RESULT_OVERRIDE).exists()


def test_result_for_a_draft_round_is_409(started, alice, bob):
    match = match_of(started, bob)

    response = client_for(alice).post(
        match_url(started, match, "result"), {"games": [0, 0]}, format="json"
    )

    assert response.status_code == 409
    assert response.json()["detail"] == "Publish the round before entering results."


def test_organiser_calls_time_and_open_matches_become_draws(playing, alice):
    response = client_for(alice).post(events_url(playing.slug, "rounds/1/call-time/"))

    assert response.status_code == 200
    assert response.json()["status"] == "completed"
    assert set(
        Match.objects.filter(round__event=playing).values_list("result_source", flat=True)
    ) == {"time"}


# ---------------------------------------------------------------- audit log


def test_audit_log_is_for_organisers_only(playing, alice, bob, charlie):
    add_staff(alice, playing, charlie, EventStaff.Role.JUDGE)
    url = events_url(playing.slug, "audit/")

    organiser = client_for(alice).get(url)

    assert organiser.status_code == 200
    body = organiser.json()
    actions = [entry["action"] for entry in body["results"]]
    assert actions[0] == "staff"
    assert {"create", "pair", "publish"} <= set(actions)
    assert body["results"][0]["actor"] == "alice"
    assert client_for(bob).get(url).status_code == 403
    assert client_for(charlie).get(url).status_code == 403
    assert client_for().get(url).status_code == 401


# ---------------------------------------------------------------- token auth


def test_organiser_gets_a_token_and_uses_it_to_pair(event, alice, bob, charlie):
    register(event, user=bob)
    register(event, user=charlie)
    client = APIClient()

    token = client.post("/api/token/", {"username": "alice", "password": "pw-alice"}, format="json")

    assert token.status_code == 200
    key = token.json()["token"]
    assert Token.objects.get(key=key).user == alice
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.post(events_url(event.slug, "start/")).status_code == 200
    paired = client.post(events_url(event.slug, "rounds/"))
    assert paired.status_code == 201
    assert event.rounds.count() == 1


def test_wrong_password_gets_no_token(alice):
    response = APIClient().post(
        "/api/token/", {"username": "alice", "password": "wrong"}, format="json"
    )

    assert response.status_code == 400
    assert not Token.objects.exists()


def test_invalid_token_is_401(event):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = client.post(events_url(event.slug, "rounds/"))

    assert response.status_code == 401
    assert not event.rounds.exists()


def test_token_of_a_non_organiser_is_refused_with_403(started, bob):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")

    response = client.post(events_url(started.slug, "rounds/1/publish/"))

    assert response.status_code == 403
    assert started.rounds.get(number=1).status == Round.Status.DRAFT


# ---------------------------------------------------------------- schema


def test_schema_endpoint_returns_the_openapi_document(db):
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Gauntlet API"
    paths = schema["paths"]
    assert "/api/events/{slug}/" in paths
    assert "/api/events/{event_slug}/matches/{id}/report/" in paths
    assert "/api/events/{event_slug}/standings/" in paths
    assert "/api/token/" in paths


def test_docs_page_renders(client):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    assert b"swagger-ui" in response.content
    # Its start script is a file of its own (no inline script under the CSP), naming the schema.
    assert b'<script src="/api/docs/?script="></script>' in response.content
    script = client.get("/api/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert b"/api/schema/" in script.content


def test_standings_snapshot_is_served_as_stored(event, alice, bob, charlie):
    reg_b = register(event, user=bob)
    reg_c = register(event, user=charlie)
    start_event(alice, event)
    snapshot = StandingsSnapshot.objects.get(event=event)

    rows = client_for().get(events_url(event.slug, "standings/")).json()["rows"]

    assert {row["player"] for row in rows} == {reg_b.pk, reg_c.pk}
    assert len(rows) == len(snapshot.rows)
