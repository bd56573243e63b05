"""Series: the pure season table, the series services (who may change what, the audit),
the public page and form, and the API."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from tests.tournaments.factories import play_round
from tournaments import seasons
from tournaments.models import Event, Registration, Series, SeriesAuditEntry, SeriesEvent
from tournaments.seasons import DEFAULT_POINTS, Finish, PointsTable, PointsTableError
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.events import create_event
from tournaments.services.players import register
from tournaments.services.series import (
    add_event,
    create_series,
    parse_points,
    remove_event,
    season_rows,
    update_series,
)
from tournaments.services.starting import start_event

# ---------------------------------------------------------------- the pure season table


def test_a_finish_earns_the_points_of_its_band():
    assert [DEFAULT_POINTS.points_for_place(p) for p in range(1, 11)] == [
        10, 7, 5, 5, 3, 3, 3, 3, 1, 1,
    ]  # fmt: skip


def test_points_add_up_over_events_and_rank_the_season():
    finishes = [
        Finish("a", "ann", 1), Finish("a", "ben", 2), Finish("a", "cat", 3),
        Finish("b", "ben", 1), Finish("b", "cat", 2), Finish("b", "ann", 9),
    ]  # fmt: skip
    rows = seasons.season_table(finishes, DEFAULT_POINTS)
    assert [(r.rank, r.player, r.points) for r in rows] == [
        (1, "ben", 17), (2, "cat", 12), (3, "ann", 11),
    ]  # fmt: skip
    assert rows[0].finishes == {"a": (2, 7), "b": (1, 10)}
    assert rows[2].best == 1 and rows[2].events == 2


def test_players_who_tie_share_the_points_of_the_places_they_cover():
    table = PointsTable(places=((1, 10), (2, 7), (3, 6), (4, 4)), participation=1)
    finishes = [Finish("e", "ann", 1), Finish("e", "ben", 1), Finish("e", "cat", 3),
                Finish("e", "dan", 3), Finish("e", "eve", 3)]  # fmt: skip
    points = {r.player: r.points for r in seasons.season_table(finishes, table)}
    assert points["ann"] == points["ben"] == Fraction(17, 2)
    assert points["cat"] == points["dan"] == points["eve"] == Fraction(11, 3)


def test_equal_points_are_split_by_better_finishes_then_shared():
    finishes = [Finish("a", "ann", 1), Finish("b", "ben", 2), Finish("c", "ben", 9),
                Finish("d", "ben", 9), Finish("e", "ben", 9), Finish("a", "cat", 2),
                Finish("b", "dan", 1)]  # fmt: skip
    rows = seasons.season_table(finishes, DEFAULT_POINTS)
    ranks = {r.player: r.rank for r in rows}
    assert ranks == {"ann": 1, "dan": 1, "ben": 3, "cat": 4}


def test_no_finishes_make_an_empty_table():
    assert seasons.season_table([], DEFAULT_POINTS) == []


@pytest.mark.parametrize(
    "places, participation",
    [
        (((2, 5), (1, 3)), 0),  # bands out of order
        (((1, 5), (2, 7)), 0),  # a lower place earning more
        (((1, -1),), 0),  # negative points
        (((1, 5),), 6),  # participation above the last band
        (((1, 5),), -1),
    ],
)
def test_a_points_table_that_cannot_be_used_is_refused(places, participation):
    with pytest.raises(PointsTableError):
        PointsTable(places=places, participation=participation)


def test_a_player_twice_in_one_event_is_refused():
    with pytest.raises(ValueError, match="more than once"):
        seasons.season_table([Finish("a", "ann", 1), Finish("a", "ann", 2)], DEFAULT_POINTS)


def test_the_points_table_round_trips_through_its_stored_form():
    assert PointsTable.from_dict(DEFAULT_POINTS.as_dict()) == DEFAULT_POINTS
    with pytest.raises(PointsTableError):
        PointsTable.from_dict({"places": [[1]]})
    with pytest.raises(PointsTableError):
        PointsTable.from_dict("10,7,5")


# ---------------------------------------------------------------- services


def finished_event(organiser, users, name="Cup", structure=Event.Structure.ROUND_ROBIN):
    """A round robin (or ``structure``) of ``users``, seat 0 always winning, played to its
    final standings."""
    event = create_event(organiser, name=name, structure=structure, best_of=1)
    for user in users:
        register(event, user=user, display_name=user.username)
    event = start_event(organiser, event)
    for _ in range(len(users) + 1):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        play_round(organiser, event, lambda match: [0])
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


@pytest.mark.django_db
def test_an_organiser_builds_a_series_and_every_change_is_audited(alice, players):
    series = create_series(alice, "Winter League")
    first = finished_event(alice, players, "Week 1")
    second = finished_event(alice, players[:3], "Week 2")
    add_event(alice, series, first)
    add_event(alice, series, second)
    update_series(alice, series, name="Winter League 2026")
    remove_event(alice, series, second)
    actions = list(series.audit.order_by("pk").values_list("action", flat=True))
    assert actions == ["create", "add_event", "add_event", "edit", "remove_event"]
    assert list(series.events.all()) == [first]


@pytest.mark.django_db
def test_the_season_table_adds_the_final_standings_of_finished_events(alice, players):
    series = create_series(alice, "League")
    first = finished_event(alice, players, "Week 1")
    second = finished_event(alice, players[:3], "Week 2")
    running = create_event(alice, name="Week 3")
    for event in (first, second, running):
        add_event(alice, series, event)
    rows = season_rows(series)
    expected: dict[str, float] = {}
    for event in (first, second):
        for row in event.standings_snapshot.rows:
            name = row["name"]
            expected[name] = expected.get(name, 0) + DEFAULT_POINTS.points_for_place(row["rank"])
    assert {r.user.username: r.points for r in rows} == expected
    assert [r.points for r in rows] == sorted(expected.values(), reverse=True)
    assert all(len(r.finishes) == 3 and r.finishes[2] is None for r in rows)


def test_teammates_who_finished_first_each_earn_first_place_points():
    # One team of two members first, a player second: no tie, whatever the team's size.
    finishes = [
        Finish("cup", "ann", 1, entry="team"),
        Finish("cup", "ben", 1, entry="team"),
        Finish("cup", "cat", 2, entry="cat"),
    ]
    rows = {r.player: r for r in seasons.season_table(finishes, DEFAULT_POINTS)}
    assert rows["ann"].points == rows["ben"].points == 10 and rows["cat"].points == 7
    assert seasons.places_covered(finishes) == {("cup", 1): 1, ("cup", 2): 2}


@pytest.mark.django_db
def test_a_bracket_events_shared_places_are_shared_in_the_season(alice, players, client):
    """The semifinal losers of a single elimination share 3–4 in the event's standings,
    and so in the season: the points of 3rd and 4th between them, "#3–4" on the page."""
    event = finished_event(alice, players, "Knockout", Event.Structure.SINGLE_ELIMINATION)
    places = sorted(row["place"] for row in event.standings_snapshot.rows)
    assert places == ["1", "2", "3–4", "3–4"]
    series = create_series(alice, "League")
    add_event(alice, series, event)
    shared = [r for r in season_rows(series) if r.finishes[0][2] == "3–4"]
    assert len(shared) == 2 and all(r.rank == 3 for r in shared)
    both = (DEFAULT_POINTS.points_for_place(3) + DEFAULT_POINTS.points_for_place(4)) / 2
    assert all(r.points == both for r in shared)
    page = client.get(reverse("tournaments:series_detail", args=[series.slug])).content.decode()
    assert page.count("(#3–4)") == 2 and "(#4)" not in page
    # A semifinal loser's profile says the same.
    loser = shared[0].user.username
    profile = client.get(reverse("tournaments:profile", args=[loser])).content.decode()
    assert "3–4 of 4" in profile and "4 of 4" not in profile.replace("3–4 of 4", "")


@pytest.mark.django_db
def test_only_the_series_organiser_may_change_it(alice, bob, charlie, players):
    series = create_series(alice, "League")
    event = create_event(alice, name="Alice's cup")
    bobs = create_event(bob, name="Bob's cup")
    with pytest.raises(NotAllowed):
        add_event(bob, series, bobs)
    with pytest.raises(NotAllowed):
        update_series(charlie, series, name="Mine")
    with pytest.raises(NotAllowed):
        add_event(alice, series, bobs)  # not her event
    add_event(alice, series, event)
    with pytest.raises(NotAllowed):
        remove_event(bob, series, event)
    assert SeriesEvent.objects.filter(series=series).count() == 1
    assert series.audit.count() == 2


@pytest.mark.django_db
def test_bad_input_is_a_clear_error_that_changes_nothing(alice):
    series = create_series(alice, "League")
    event = create_event(alice, name="Cup")
    add_event(alice, series, event)
    before = SeriesAuditEntry.objects.count()
    with pytest.raises(TournamentError, match="already"):
        add_event(alice, series, event)
    with pytest.raises(TournamentError, match="points table"):
        update_series(alice, series, points={"places": [[2, 5], [1, 9]], "participation": 0})
    with pytest.raises(TournamentError, match="name"):
        update_series(alice, series, name="  ")
    with pytest.raises(TournamentError):
        parse_points("1-10", "1")
    with pytest.raises(TournamentError):
        parse_points("1:10", "x")
    remove_event(alice, series, event)
    with pytest.raises(TournamentError, match="not in the series"):
        remove_event(alice, series, event)
    series.refresh_from_db()
    assert series.name == "League" and series.points == DEFAULT_POINTS.as_dict()
    assert SeriesAuditEntry.objects.count() == before + 1
    assert parse_points("1:10, 2:7; 4:5", "1") == {
        "places": [[1, 10], [2, 7], [4, 5]],
        "participation": 1,
    }


# ---------------------------------------------------------------- pages


@pytest.mark.django_db
def test_the_series_page_is_public_and_shows_the_table(
    client, alice, players, django_assert_max_num_queries
):
    series = create_series(alice, "League")
    for n in range(3):
        add_event(alice, series, finished_event(alice, players, f"Week {n}"))
    with django_assert_max_num_queries(10):
        response = client.get(reverse("tournaments:series_detail", args=[series.slug]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Week 2" in text and reverse("tournaments:profile", args=["ann"]) in text
    assert "Manage the series" not in text
    # The season's table is standings: in Russian not "Стол", the table players sit at.
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    text = client.get(reverse("tournaments:series_detail", args=[series.slug])).content.decode()
    assert "<h2>Турнирная таблица</h2>" in text and "<h2>Стол</h2>" not in text


@pytest.mark.django_db
def test_the_form_creates_a_series_and_adds_and_removes_events(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        reverse("tournaments:series_create"),
        {"name": "Spring", "places": "1:5, 2:3", "participation": "1"},
    )
    series = Series.objects.get(name="Spring")
    assert response.status_code == 302
    assert series.points == {"places": [[1, 5], [2, 3]], "participation": 1}
    event = create_event(alice, name="Cup")
    edit = reverse("tournaments:series_edit", args=[series.slug])
    assert "Cup" in client.get(edit).content.decode()
    client.post(edit, {"op": "add", "event": event.slug})
    assert list(series.events.all()) == [event]
    client.post(edit, {"op": "remove", "event": event.slug})
    assert not series.events.exists()
    response = client.post(edit, {"op": "save", "name": "Spring", "places": "oops"}, follow=True)
    assert "last place:points" in response.content.decode()
    client.force_login(bob)
    assert client.get(edit).status_code == 403
    assert client.post(edit, {"op": "add", "event": event.slug}).status_code == 403
    client.logout()
    assert client.get(edit).status_code == 302
    assert client.get(reverse("tournaments:series_create")).status_code == 302


# ---------------------------------------------------------------- API


@pytest.fixture
def api():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "who, create, change, add, remove",
    [
        ("anonymous", 401, 401, 401, 401),
        ("player", 201, 403, 403, 403),
        ("series organiser", 201, 200, 200, 200),
        ("another organiser", 201, 403, 403, 403),
    ],
)
def test_the_api_lets_only_the_series_organiser_change_it(
    api, alice, bob, charlie, who, create, change, add, remove
):
    series = create_series(alice, "League")
    kept = create_event(alice, name="Kept")
    add_event(alice, series, kept)
    event = create_event(alice, name="Cup")
    create_event(charlie, name="Charlie's cup")
    user = {"player": bob, "series organiser": alice, "another organiser": charlie}.get(who)
    if user is not None:
        api.force_authenticate(user)
    base = f"/api/series/{series.slug}/"
    assert api.get("/api/series/").status_code == 200
    assert api.get(base).status_code == 200
    assert api.post("/api/series/", {"name": "Mine"}, format="json").status_code == create
    assert api.patch(base, {"name": "Renamed"}, format="json").status_code == change
    assert api.post(base + "events/", {"event": event.slug}, format="json").status_code == add
    assert api.delete(base + f"events/{kept.slug}/").status_code == remove
    series.refresh_from_db()
    changed = who == "series organiser"
    assert (series.name == "Renamed") is changed
    assert set(series.events.values_list("slug", flat=True)) == (
        {event.slug} if changed else {kept.slug}
    )


@pytest.mark.django_db
def test_the_api_shows_the_table_and_refuses_bad_input(api, alice, bob, players):
    finished = finished_event(alice, players, "Week 1")
    api.force_authenticate(alice)
    created = api.post(
        "/api/series/",
        {"name": "League", "points": {"places": [[1, 3], [2, 2]], "participation": 1}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    base = f"/api/series/{created.json()['slug']}/"
    assert api.post(base + "events/", {"event": finished.slug}, format="json").status_code == 200
    body = api.get(base).json()
    assert body["events"] == [finished.slug]
    assert sorted(r["points"] for r in body["table"]) == [1, 1, 2, 3]
    bad = api.patch(
        base, {"points": {"places": [[2, 3], [1, 5]], "participation": 0}}, format="json"
    )
    assert bad.status_code == 400 and "points table" in bad.json()["detail"]
    again = api.post(base + "events/", {"event": finished.slug}, format="json")
    assert again.status_code == 400
    assert api.post(base + "events/", {"event": "nope"}, format="json").status_code == 404
    assert api.delete(base + "events/nope/").status_code == 404
    assert api.get("/api/series/nope/").status_code == 404
    bobs = create_event(bob, name="Bob's")
    assert api.post(base + "events/", {"event": bobs.slug}, format="json").status_code == 403
    assert api.get(base).json()["events"] == [finished.slug]


@pytest.mark.django_db
def test_the_series_page_lists_every_series_with_its_events(client, alice, players):
    empty = client.get(reverse("tournaments:series_list")).content.decode()
    assert "No series yet." in empty
    league = create_series(alice, "Autumn League")
    add_event(alice, league, finished_event(alice, players, "Week 1"))
    page = client.get(reverse("tournaments:series_list")).content.decode()
    assert f'href="{reverse("tournaments:series_detail", args=[league.slug])}"' in page
    assert 'href="/players/alice/"' in page  # its organiser's profile
    row = page[page.index("Autumn League") :].split("</tr>")[0]
    assert '<td class="num">1</td>' in row
    client.force_login(alice)
    own = client.get(reverse("tournaments:series_list")).content.decode()
    assert f'href="{reverse("tournaments:series_create")}"' in own


@pytest.mark.django_db
def test_the_series_table_names_players_as_they_entered_with_their_profile_link(
    client, alice, players
):
    series = create_series(alice, "League")
    event = finished_event(alice, players, "Week 1")
    Registration.objects.filter(event=event, user=players[0]).update(display_name="Ann Lee")
    add_event(alice, series, event)
    html = client.get(reverse("tournaments:series_detail", args=[series.slug])).content.decode()
    row = next(r for r in html.split("<tr>") if "Ann Lee" in r)
    assert f'href="{reverse("tournaments:profile", args=["ann"])}"' in row
    assert ">@ann</a>" in row
    assert ">ann</a>" not in html
