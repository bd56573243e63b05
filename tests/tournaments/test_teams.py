"""Team events (a team format of «Восхождение», 2 vs 2): teams register as one entrant,
are paired and ranked as one, and either teammate acts for the team."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.models import (
    AuditEntry,
    Event,
    EventStaff,
    Match,
    Registration,
    Round,
    TeamMember,
)
from tournaments.services.decklists import submit_decklist, submit_member_deck
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.events import add_staff, create_event, update_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import check_in, drop, register
from tournaments.services.results import confirm_result, enter_result, report_result
from tournaments.services.standings import refresh_standings
from tournaments.services.starting import start_event
from tournaments.services.teams import register_team, replace_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def team_event(alice):
    return create_event(alice, name="Pairs Cup", format="team_standard", swiss_rounds=2, best_of=1)


@pytest.fixture
def people(make_user):
    """Eight players: p1..p8."""
    return [make_user(f"p{n}") for n in range(1, 9)]


def four_teams(event, people) -> list[Registration]:
    return [
        register_team(
            event, name=f"Team {n}", members=people[2 * n : 2 * n + 2], actor=people[2 * n]
        )
        for n in range(4)
    ]


# ---------------------------------------------------------------- registering


def test_a_player_registers_a_team_naming_their_partner(team_event, bob, charlie):
    reg = register_team(team_event, name="Blue", members=[charlie, bob], actor=bob)
    assert reg.display_name == "Blue" and reg.user == bob  # the one who registered first
    members = list(reg.members.order_by("position").values_list("user__username", "position"))
    assert members == [("bob", 0), ("charlie", 1)]
    entry = team_event.audit.get(action=AuditEntry.Action.TEAM)
    assert entry.data["members"] == [bob.pk, charlie.pk]


def test_an_organiser_registers_any_team(team_event, alice, bob, charlie):
    reg = register_team(team_event, name="Red", members=[bob, charlie], actor=alice)
    assert list(reg.members.values_list("user__username", flat=True)) == ["bob", "charlie"]
    assert team_event.audit.filter(action=AuditEntry.Action.TEAM, actor=alice).exists()


def test_a_stranger_cannot_register_other_players_as_a_team(team_event, bob, charlie, dave):
    with pytest.raises(NotAllowed):
        register_team(team_event, name="Red", members=[bob, charlie], actor=dave)
    assert not team_event.registrations.exists()


def test_a_player_is_in_at_most_one_team(team_event, bob, charlie, dave):
    register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    with pytest.raises(TournamentError, match="charlie already plays in a team"):
        register_team(team_event, name="Green", members=[dave, charlie], actor=dave)
    assert team_event.registrations.count() == 1
    assert TeamMember.objects.filter(event=team_event).count() == 2


def test_the_database_refuses_a_player_in_two_teams(team_event, bob, charlie, dave):
    blue = register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    green = Registration.objects.create(event=team_event, display_name="Green", user=dave)
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.create(event=team_event, registration=green, user=charlie, position=1)
    assert blue.members.count() == 2


@pytest.mark.parametrize(
    "names, message",
    [
        (["bob"], "exactly 2 players"),
        (["bob", "charlie", "dave"], "exactly 2 players"),
        (["bob", "bob"], "only one place"),
    ],
)
def test_a_team_has_exactly_its_format_size(team_event, bob, charlie, dave, names, message):
    users = {"bob": bob, "charlie": charlie, "dave": dave}
    with pytest.raises(TournamentError, match=message):
        register_team(team_event, name="Odd", members=[users[n] for n in names], actor=bob)
    assert not team_event.registrations.exists()


def test_a_team_needs_a_name(team_event, bob, charlie):
    with pytest.raises(TournamentError, match="needs a name"):
        register_team(team_event, name="  ", members=[bob, charlie], actor=bob)


def test_single_players_and_teams_do_not_mix(alice, team_event, bob, charlie):
    with pytest.raises(TournamentError, match="teams of 2"):
        register(team_event, user=bob)
    single = create_event(alice, name="Solo Open", format="standard")
    with pytest.raises(TournamentError, match="not for teams"):
        register_team(single, name="Blue", members=[bob, charlie], actor=bob)
    assert not Registration.objects.exists()


def test_team_events_are_two_sided_and_keep_their_kind_of_entrant(alice, team_event, bob):
    with pytest.raises(TournamentError, match="players per game must be 2"):
        create_event(alice, name="Pods", format="team_standard", players_per_game=4, best_of=1)
    single = create_event(alice, name="Solo", format="standard")
    register(single, user=bob)
    with pytest.raises(TournamentError, match="cannot change between"):
        update_event(alice, single, format="team_standard")
    single.refresh_from_db()
    assert single.format == "standard"


def test_either_teammate_checks_in_and_drops_the_team(team_event, bob, charlie, dave):
    reg = register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    assert check_in(charlie, reg).status == Registration.Status.CHECKED_IN
    with pytest.raises(NotAllowed):
        drop(dave, reg)
    drop(charlie, reg)  # before the start: the entry is withdrawn
    assert not Registration.objects.filter(pk=reg.pk).exists()
    assert not TeamMember.objects.filter(event=team_event).exists()


def test_each_member_submits_their_own_deck(alice, team_event, bob, charlie, dave):
    reg = register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    with pytest.raises(TournamentError, match="each member submits their own deck"):
        submit_decklist(bob, reg, "1 x")
    bob_place, charlie_place = reg.members.order_by("position")
    saved = submit_member_deck(bob, bob_place, "Nonsense card 3")
    assert saved.deck == "Nonsense card 3" and saved.deck_is_legal is False
    assert saved.deck_problems
    with pytest.raises(NotAllowed):
        submit_member_deck(bob, charlie_place, "1 x")  # not his seat
    with pytest.raises(NotAllowed):
        submit_member_deck(dave, charlie_place, "1 x")
    submit_member_deck(alice, charlie_place, "2 y")  # an official may
    charlie_place.refresh_from_db()
    assert charlie_place.deck == "2 y"


# ---------------------------------------------------------------- pairing and standings


def test_teams_are_paired_and_ranked_as_one_entrant(alice, team_event, people):
    teams = four_teams(team_event, people)
    event = start_event(alice, team_event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    matches = list(rnd.matches.prefetch_related("seats"))
    assert len(matches) == 2 and not any(m.is_bye for m in matches)
    seated = sorted(s.registration_id for m in matches for s in m.seats.all())
    assert seated == sorted(t.pk for t in teams)
    for match in matches:
        enter_result(alice, match, [0])
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETED
    rows = refresh_standings(event).rows
    assert len(rows) == 4
    by_name = {row["name"]: row for row in rows}
    assert by_name["Team 0"]["members"] == ["p1", "p2"]
    assert sum(row["points"] for row in rows) == 6
    # Round 2 pairs the winners together, as for single players.
    second = pair_next_round(alice, event)
    winners = {m.winner_id for m in matches}
    for match in second.matches.prefetch_related("seats"):
        ids = {s.registration_id for s in match.seats.all()}
        assert ids <= winners or not ids & winners


def test_either_teammate_reports_and_confirms_for_the_team(alice, team_event, people):
    four_teams(team_event, people)
    event = start_event(alice, team_event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.order_by("table").first()
    first, second = [
        list(s.registration.members.order_by("position").values_list("user", flat=True))
        for s in match.seats.order_by("seat")
    ]
    users = {u.pk: u for u in people}
    report_result(users[first[1]], match, [0])  # the partner, not the registering player
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    with pytest.raises(TournamentError, match="no report from your opponent"):
        confirm_result(users[first[0]], match)  # a teammate cannot confirm their own side
    confirm_result(users[second[1]], match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.result_source == Match.Source.CONFIRMED
    assert match.winner.display_name == match.seats.get(seat=0).registration.display_name


def test_a_single_elimination_event_of_teams(alice, people):
    event = create_event(
        alice,
        name="Pairs Knockout",
        format="team_standard",
        structure=Event.Structure.SINGLE_ELIMINATION,
        best_of=1,
    )
    four_teams(event, people)
    event = start_event(alice, event)
    for _round in range(2):
        rnd = publish_round(alice, pair_next_round(alice, event))
        for match in rnd.matches.filter(is_bye=False):
            enter_result(alice, match, [0])
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = refresh_standings(event).rows
    assert rows[0]["members"] and rows[0]["rank"] == 1


# ---------------------------------------------------------------- API


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def team_url(event) -> str:
    return f"/api/events/{event.slug}/registrations/team/"


def test_api_anonymous_cannot_register_a_team(team_event):
    response = api().post(team_url(team_event), {"name": "X", "partners": ["bob"]}, format="json")
    assert response.status_code == 401
    assert not team_event.registrations.exists()


def test_api_a_player_registers_a_team_with_a_partner(team_event, bob, charlie):
    response = api(bob).post(
        team_url(team_event), {"name": "Blue", "partners": ["charlie"]}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["display_name"] == "Blue" and body["members"] == ["bob", "charlie"]
    assert body["is_me"]
    listed = api(charlie).get(f"/api/events/{team_event.slug}/registrations/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows[0]["is_me"] and rows[0]["members"] == ["bob", "charlie"]


def test_api_a_player_cannot_name_a_team_without_themself(team_event, bob, charlie, dave):
    response = api(dave).post(
        team_url(team_event), {"name": "Blue", "members": ["bob", "charlie"]}, format="json"
    )
    assert response.status_code == 403
    assert not team_event.registrations.exists()


def test_api_an_organiser_registers_a_team(team_event, alice, bob, charlie):
    response = api(alice).post(
        team_url(team_event), {"name": "Red", "members": ["bob", "charlie"]}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["members"] == ["bob", "charlie"]


def test_api_refusals_are_clear_and_change_nothing(team_event, bob, charlie, dave):
    register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    taken = api(dave).post(
        team_url(team_event), {"name": "Green", "partners": ["charlie"]}, format="json"
    )
    assert taken.status_code == 409 and "charlie" in taken.json()["detail"]
    unknown = api(dave).post(
        team_url(team_event), {"name": "Green", "partners": ["nobody"]}, format="json"
    )
    assert unknown.status_code == 400 and "nobody" in str(unknown.json())
    both = api(dave).post(
        team_url(team_event),
        {"name": "Green", "partners": ["bob"], "members": ["dave", "bob"]},
        format="json",
    )
    assert both.status_code == 400
    assert team_event.registrations.count() == 1


def test_api_team_decks_are_seen_by_the_team_and_officials(team_event, alice, bob, charlie, dave):
    reg = register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    url = f"/api/events/{team_event.slug}/registrations/{reg.pk}/decks/"
    saved = api(charlie).put(url, {"text": "Nonsense card 3"}, format="json")
    assert saved.status_code == 200, saved.content
    assert saved.json()["member"] == "charlie" and saved.json()["is_legal"] is False
    assert api(dave).get(url).status_code == 403
    assert api(dave).put(url, {"text": "1 x"}, format="json").status_code == 403
    assert api().get(url).status_code == 401
    assert [d["member"] for d in api(bob).get(url).json()] == ["bob", "charlie"]
    by_official = api(alice).put(url, {"member": "bob", "text": "2 y"}, format="json")
    assert by_official.status_code == 200 and by_official.json()["member"] == "bob"


# ---------------------------------------------------------------- pages


def test_pages_register_a_team_and_show_it(client, alice, team_event, bob, charlie, dave, erin):
    client.force_login(bob)
    page = client.get(reverse("tournaments:event_detail", args=[team_event.slug])).content
    assert b'id="register-team"' in page
    client.post(
        reverse("tournaments:register", args=[team_event.slug]),
        {"display_name": "Blue", "partner": "charlie"},
    )
    reg = team_event.registrations.get()
    assert list(reg.members.values_list("user__username", flat=True)) == ["bob", "charlie"]
    client.force_login(charlie)
    page = client.get(reverse("tournaments:event_detail", args=[team_event.slug])).content
    assert b'id="my-team"' in page and b"bob, charlie" in page
    deck_page = reverse("tournaments:decklist", args=[team_event.slug])
    assert client.get(deck_page).status_code == 200
    client.post(deck_page, {"text": "Nonsense card 3"})
    assert reg.members.get(user=charlie).deck == "Nonsense card 3"
    assert reg.members.get(user=bob).deck == ""  # each member's own

    client.force_login(alice)
    console = client.get(reverse("tournaments:manage", args=[team_event.slug])).content
    assert b'id="add-team"' in console
    client.post(
        reverse("tournaments:manage_action", args=[team_event.slug, "add-player"]),
        {"display_name": "Green", "member": ["dave", "erin"]},
    )
    assert team_event.registrations.count() == 2
    start_event(alice, team_event)
    page = client.get(reverse("tournaments:standings", args=[team_event.slug])).content.decode()
    assert "Green" in page and '>@dave</a>, <a href="/players/erin/"' in page


@pytest.fixture
def erin(make_user):
    return make_user("erin")


# ---------------------------------------------------------------- changing a team


def members_of(reg: Registration) -> list[str]:
    return list(reg.members.order_by("position").values_list("user__username", flat=True))


def team_state(event) -> tuple:
    return (
        sorted(TeamMember.objects.filter(event=event).values_list("user__username", "position")),
        sorted(event.registrations.values_list("display_name", "user__username")),
        event.audit.count(),
    )


def test_the_organiser_replaces_a_member_before_the_start(team_event, alice, bob, charlie, dave):
    reg = register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    reg.members.filter(user=bob).update(deck="bob's list", deck_is_legal=False)

    place = replace_member(alice, reg, bob, dave)

    reg.refresh_from_db()
    assert members_of(reg) == ["dave", "charlie"] and place.position == 0
    assert reg.user == dave  # the contact was the member who left
    assert place.deck == "" and place.deck_is_legal is None  # bob's deck left with him
    entry = team_event.audit.filter(action=AuditEntry.Action.TEAM).order_by("-pk").first()
    assert entry.actor == alice and "bob replaced by dave" in entry.summary
    assert entry.data["replaced"] == bob.pk and entry.data["member"] == dave.pk


def test_a_replacement_is_refused_once_the_event_has_started(alice, people):
    event = create_event(alice, name="Started", format="team_standard", swiss_rounds=2, best_of=1)
    teams = four_teams(event, people)
    start_event(alice, event)
    outsider = people[0].__class__.objects.create_user("late")
    before = team_state(event)

    with pytest.raises(TournamentError, match="The event has started"):
        replace_member(alice, teams[0], people[0], outsider)

    assert team_state(event) == before


@pytest.mark.parametrize(
    ("leaving", "joining", "message"),
    [
        ("dave", "erin", "dave is not a member of Blue"),
        ("bob", "charlie", "charlie already plays in the team Blue"),
        ("bob", "frank", "frank already plays in the team Green"),
    ],
)
def test_bad_replacements_are_refused_and_change_nothing(
    team_event, alice, make_user, bob, charlie, dave, erin, leaving, joining, message
):
    users = {u.username: u for u in (bob, charlie, dave, erin, make_user("frank"))}
    users["gina"] = make_user("gina")
    blue = register_team(team_event, name="Blue", members=[bob, charlie], actor=alice)
    register_team(team_event, name="Green", members=[users["frank"], users["gina"]], actor=alice)
    before = team_state(team_event)

    with pytest.raises(TournamentError, match=message):
        replace_member(alice, blue, users[leaving], users[joining])

    assert team_state(team_event) == before


def replace_url(event, reg) -> str:
    return f"/api/events/{event.slug}/registrations/{reg.pk}/replace-member/"


@pytest.mark.parametrize(
    ("who", "code"),
    [("anonymous", 401), ("player", 403), ("judge", 403), ("organiser", 200)],
)
def test_api_only_the_organiser_replaces_a_member(
    team_event, alice, bob, charlie, dave, erin, who, code
):
    add_staff(alice, team_event, erin, EventStaff.Role.JUDGE)
    reg = register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    user = {"anonymous": None, "player": bob, "judge": erin, "organiser": alice}[who]

    response = api(user).post(
        replace_url(team_event, reg), {"member": "charlie", "replacement": "dave"}, format="json"
    )

    assert response.status_code == code, response.content
    expected = ["bob", "dave"] if code == 200 else ["bob", "charlie"]
    assert members_of(reg) == expected
    if code == 200:
        assert response.json()["members"] == ["bob", "dave"]


def test_api_bad_replacements_answer_400_or_409_and_change_nothing(alice, people, bob):
    event = create_event(alice, name="Cup", format="team_standard", swiss_rounds=2, best_of=1)
    teams = four_teams(event, people)
    client = api(alice)
    before = team_state(event)

    unknown = client.post(
        replace_url(event, teams[0]), {"member": "p1", "replacement": "nobody"}, format="json"
    )
    not_in = client.post(
        replace_url(event, teams[0]), {"member": "p3", "replacement": "bob"}, format="json"
    )
    taken = client.post(
        replace_url(event, teams[0]), {"member": "p1", "replacement": "p3"}, format="json"
    )
    assert (unknown.status_code, not_in.status_code, taken.status_code) == (400, 400, 409)
    assert "nobody" in unknown.json()["replacement"][0]
    start_event(alice, event)
    started = client.post(
        replace_url(event, teams[0]), {"member": "p1", "replacement": "bob"}, format="json"
    )
    assert started.status_code == 409 and "has started" in started.json()["detail"]
    assert team_state(event)[:2] == before[:2]


def test_the_schema_documents_replacing_a_member(db):
    schema = api().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    path = schema["paths"]["/api/events/{event_slug}/registrations/{id}/replace-member/"]
    assert path["post"]["summary"] == "Replace a team member"


def test_the_console_replaces_a_member(client, team_event, alice, bob, charlie, dave):
    reg = register_team(team_event, name="Blue", members=[bob, charlie], actor=bob)
    client.force_login(alice)
    page = client.get(f"/events/{team_event.slug}/manage/").content.decode()
    assert "replace-member" in page

    client.post(
        f"/events/{team_event.slug}/manage/replace-member/",
        {"registration": reg.pk, "member": "charlie", "replacement": "dave"},
    )

    assert members_of(reg) == ["bob", "dave"]
    client.force_login(charlie)  # a player of the team cannot
    response = client.post(
        f"/events/{team_event.slug}/manage/replace-member/",
        {"registration": reg.pk, "member": "dave", "replacement": "charlie"},
    )
    assert response.status_code == 403 and members_of(reg) == ["bob", "dave"]


# ---------------------------------------------------------------- links to the members


@pytest.mark.parametrize("who", ["anonymous", "player", "judge", "organiser"])
def test_standings_and_pairings_link_each_team_member_to_their_profile(
    client, alice, team_event, people, make_user, who
):
    judge = make_user("judge-j")
    add_staff(alice, team_event, judge, EventStaff.Role.JUDGE)
    four_teams(team_event, people)
    people[3].is_active = False  # p4 closed their account: named, no profile to link
    people[3].save(update_fields=["is_active"])
    event = start_event(alice, team_event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    for match in rnd.matches.all():
        enter_result(alice, match, [0])
    viewer = {"anonymous": None, "player": people[0], "judge": judge, "organiser": alice}[who]
    if viewer is not None:
        client.force_login(viewer)
    profile = reverse("tournaments:profile", args=["p1"])
    for page in ("standings", "pairings"):
        html = client.get(reverse(f"tournaments:{page}", args=[event.slug])).content.decode()
        for name in ("p1", "p2", "p3", "p5", "p8"):
            link = reverse("tournaments:profile", args=[name])
            assert f'<a href="{link}" class="profile-link member-link"' in html, (page, name)
        assert f"{profile}" in html
        assert reverse("tournaments:profile", args=["p4"]) not in html, page
        assert "p4" in html  # still named
    rows = {row["name"]: row for row in refresh_standings(event).rows}
    assert rows["Team 1"]["members"] == ["p3", "p4"]
    assert rows["Team 1"]["member_accounts"] == ["p3"]


def test_a_standings_snapshot_from_before_names_the_members_without_links(
    client, alice, team_event, people
):
    from tournaments.models import StandingsSnapshot

    four_teams(team_event, people)
    event = start_event(alice, team_event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    for match in rnd.matches.all():
        enter_result(alice, match, [0])
    snapshot = StandingsSnapshot.objects.get(event=event)
    for row in snapshot.rows:
        row.pop("member_accounts")
    snapshot.save(update_fields=["rows"])
    html = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert "(p1, p2)" in html and "member-link" not in html
