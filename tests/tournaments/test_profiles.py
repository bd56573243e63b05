"""A player's profile across events: events, finishes, records, public decklists only,
head-to-head, and the page's query budget."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import make_event, play_round, seat_users
from tournaments.models import Event, MatchSeat
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import create_event, update_event
from tournaments.services.players import register
from tournaments.services.profiles import player_profile
from tournaments.services.starting import start_event

DECK = "2 City\n40 Card"


def run_event(organiser, users, name="Cup", finish=True, **fields):
    event = create_event(
        organiser, name=name, structure=Event.Structure.ROUND_ROBIN, best_of=1, **fields
    )
    regs = [register(event, user=u, display_name=u.username) for u in users]
    for reg in regs:
        submit_decklist(reg.user, reg, DECK + f"\n# {reg.user.username}")
    event = start_event(organiser, event)
    rounds = len(users) + 1 if finish else 1
    for _ in range(rounds):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        play_round(organiser, event, lambda match: [0])
    event.refresh_from_db()
    return event


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


def expected_record(user):
    wins = losses = 0
    for seat in MatchSeat.objects.filter(
        registration__user=user, match__status="final", match__is_bye=False
    ).select_related("match"):
        if seat.match.winner_id == seat.registration_id:
            wins += 1
        else:
            losses += 1
    return wins, losses


@pytest.mark.django_db
def test_the_profile_lists_events_finishes_and_records(alice, players):
    first = run_event(alice, players, "Week 1")
    second = run_event(alice, players[:3], "Week 2")
    ann = players[0]
    profile = player_profile(ann)
    assert {e.event for e in profile.entries} == {first, second}
    for entry in profile.entries:
        rows = entry.event.standings_snapshot.rows
        row = next(r for r in rows if r["player"] == entry.registration.pk)
        assert (entry.rank, entry.of) == (row["rank"], len(rows))
    wins, losses = expected_record(ann)
    assert (profile.record.wins, profile.record.losses, profile.record.draws) == (
        wins,
        losses,
        0,
    )
    assert len(profile.by_game) == 1 and profile.by_game[0][2].matches == wins + losses


@pytest.mark.django_db
def test_a_running_event_has_no_finish_and_never_shows_decklists(alice, players):
    running = run_event(alice, players, "Running", finish=False, decklists_public=True)
    assert running.status == Event.Status.RUNNING
    entry = player_profile(players[0]).entries[0]
    assert entry.rank is None and entry.deck is None


@pytest.mark.django_db
def test_decklists_are_shown_only_for_finished_events_that_publish_them(client, alice, players):
    hidden = run_event(alice, players, "Hidden")
    shown = run_event(alice, players, "Shown", decklists_public=True)
    decks = {e.event: e.deck for e in player_profile(players[0]).entries}
    assert decks[hidden] is None
    assert decks[shown].endswith("# ann")
    page = client.get(reverse("tournaments:profile", args=["ann"])).content.decode()
    assert page.count("# ann") == 1 and "# ben" not in page


@pytest.mark.django_db
def test_publishing_decklists_is_an_audited_event_setting(alice):
    event = create_event(alice, name="Cup")
    update_event(alice, event, decklists_public=True)
    event.refresh_from_db()
    assert event.decklists_public
    assert event.audit.filter(action="edit").exists()


@pytest.mark.django_db
def test_an_unlisted_event_is_not_on_the_profile(alice, players):
    run_event(alice, players, "Private", is_public=False)
    assert player_profile(players[0]).entries == []


@pytest.mark.django_db
def test_head_to_head_counts_the_matches_between_two_players(client, alice, players):
    run_event(alice, players, "Week 1")
    run_event(alice, players, "Week 2")
    ann, ben = players[0], players[1]
    h2h = player_profile(ann, vs=ben).head_to_head
    assert h2h.record.matches == 2
    mirrored = player_profile(ben, vs=ann).head_to_head
    assert (mirrored.record.wins, mirrored.record.losses) == (h2h.record.losses, h2h.record.wins)
    page = client.get(reverse("tournaments:profile", args=["ann"]), {"vs": "ben"})
    assert "ann against ben" in page.content.decode()
    unknown = client.get(reverse("tournaments:profile", args=["ann"]), {"vs": "nobody"})
    assert "No player is called nobody" in unknown.content.decode()


@pytest.mark.django_db
def test_head_to_head_names_a_playoff_round_by_its_title(client, alice):
    event, _regs = make_event(alice, players=4, swiss_rounds=1, top_cut=2, best_of=1)
    play_round(alice, event, lambda match: [0])
    final = play_round(alice, event, lambda match: [0])
    assert final.title == "Final"
    first, second = seat_users(final.matches.get())
    url = reverse("tournaments:profile", args=[first.username])
    page = client.get(url, {"vs": second.username}).content.decode()
    assert f"{event.name}</a>, Final: Won" in page
    client.cookies["django_language"] = "ru"
    page = client.get(url, {"vs": second.username}).content.decode()
    assert f"{event.name}</a>, Финал: " in page


@pytest.mark.django_db
def test_an_unknown_player_has_no_profile(client):
    assert client.get(reverse("tournaments:profile", args=["ghost"])).status_code == 404


@pytest.mark.django_db
def test_the_profile_reads_a_fixed_number_of_queries(
    client, alice, players, django_assert_max_num_queries
):
    run_event(alice, players, "Week 1", decklists_public=True)
    url = reverse("tournaments:profile", args=["ann"])
    with django_assert_max_num_queries(12) as small:
        client.get(url, {"vs": "ben"})
    for n in range(2, 5):
        run_event(alice, players, f"Week {n}", decklists_public=True)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(url, {"vs": "ben"})
    assert response.status_code == 200


@pytest.mark.django_db
def test_the_api_gives_the_profile_with_public_decklists_only(client, alice, players):
    run_event(alice, players, "Hidden")
    run_event(alice, players, "Shown", decklists_public=True)
    run_event(alice, players, "Running", finish=False, decklists_public=True)
    body = client.get("/api/players/ann/", {"vs": "ben"}).json()
    decks = {e["name"]: e["decklist"] for e in body["events"]}
    assert decks["Hidden"] is None and decks["Running"] is None
    assert decks["Shown"].endswith("# ann")
    assert body["head_to_head"]["opponent"] == "ben"
    assert body["head_to_head"]["record"]["wins"] + body["head_to_head"]["record"]["losses"] >= 2
    assert sum(body["record"].values()) == sum(
        g["record"]["wins"] + g["record"]["losses"] + g["record"]["draws"] for g in body["games"]
    )
    assert client.get("/api/players/ghost/").status_code == 404
    assert client.get("/api/players/ann/", {"vs": "ghost"}).status_code == 404


# ---------------------------------------------------------------- finding the pages


@pytest.mark.django_db
def test_the_site_navigation_leads_to_ratings_series_and_ones_own_profile(client, alice):
    anonymous = client.get("/").content.decode()
    assert f'href="{reverse("tournaments:ratings")}"' in anonymous
    assert f'href="{reverse("tournaments:series_list")}"' in anonymous
    assert "my-profile" not in anonymous
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert f'href="/players/{alice.username}/" class="my-profile"' in page


@pytest.mark.django_db
def test_the_ratings_page_lists_every_game_of_the_registry(client, alice, players):
    from engine.core import registry
    from tournaments.services import ratings

    event = run_event(alice, players)
    for rnd in event.rounds.all():
        ratings.rate_round(rnd.pk)
    page = client.get(reverse("tournaments:ratings")).content.decode()
    for game in registry.all_systems():
        assert f'href="{reverse("tournaments:leaderboard", args=[game.key])}"' in page
    assert 'href="/players/ann/"' in page  # the game played has its best players listed
    board = client.get(reverse("tournaments:leaderboard", args=[event.game_system]))
    assert 'href="/players/ann/"' in board.content.decode()


@pytest.mark.django_db
def test_event_pages_link_the_games_ratings_and_the_events_series(client, alice, players):
    from tournaments.services.series import add_event, create_series

    event = run_event(alice, players)
    league = create_series(alice, "Spring League")
    add_event(alice, league, event)
    page = client.get(reverse("tournaments:event_detail", args=[event.slug])).content.decode()
    assert f'href="{reverse("tournaments:leaderboard", args=[event.game_system])}"' in page
    assert f'href="{reverse("tournaments:series_detail", args=[league.slug])}"' in page


@pytest.mark.django_db
def test_standings_and_pairings_link_each_player_to_their_profile(client, alice, players):
    event = run_event(alice, players, finish=False)
    guest = Event.objects.get(pk=event.pk)
    standings = client.get(reverse("tournaments:standings", args=[guest.slug])).content.decode()
    pairings = client.get(reverse("tournaments:pairings", args=[guest.slug])).content.decode()
    for user in players:
        link = f'<a href="/players/{user.username}/" class="profile-link muted"'
        assert link in standings, user.username
        assert link in pairings, user.username


@pytest.mark.django_db
def test_a_guest_entered_by_name_has_no_profile_link(client, alice, players):
    event = create_event(alice, name="Guests", structure=Event.Structure.ROUND_ROBIN, best_of=1)
    register(event, user=None, display_name="Walk-in", actor=alice)
    register(event, user=players[0], display_name="ann")
    event = start_event(alice, event)
    play_round(alice, event, lambda match: [0])
    page = client.get(reverse("tournaments:standings", args=[event.slug])).content.decode()
    assert 'href="/players/ann/"' in page
    assert page.count('class="profile-link muted"') == 1


# ---------------------------------------------------------------- the event form


@pytest.mark.django_db
def test_the_event_form_has_a_switch_for_published_decklists(client, alice):
    from engine.core import registry

    client.force_login(alice)
    page = client.get(reverse("tournaments:event_create")).content.decode()
    section = page[page.index('id="section-basics"') :].split("</fieldset>")[0]
    assert 'name="decklists_public"' in section and 'type="checkbox"' in section
    assert section.index('name="is_public"') < section.index('name="decklists_public"')
    with_lists = [s.key for s in registry.all_systems() if s.needs_decklists]
    without = [s.key for s in registry.all_systems() if not s.needs_decklists]
    field = section[: section.index('name="decklists_public"')]
    rule = field[field.rindex("data-applies=") :].split(">")[0]
    assert all(key in rule for key in with_lists)
    assert not any(f"&quot;{key}&quot;" in rule for key in without)

    response = client.post(
        reverse("tournaments:event_create"),
        {
            "name": "Open Lists",
            "game_system": registry.default_system().key,
            "format": registry.default_system().formats[0].key,
            "structure": "swiss",
            "players_per_game": 2,
            "swiss_rounds": 3,
            "top_cut": 0,
            "best_of": 3,
            "seeding": "none",
            "round_minutes": 50,
            "tiebreaks": "mtr",
            "is_public": "on",
            "decklists_public": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(name="Open Lists")
    assert event.decklists_public


@pytest.mark.django_db
def test_the_console_settings_switch_published_decklists_with_an_audit_entry(client, alice):
    event = create_event(alice, name="Settings Cup")
    client.force_login(alice)
    console = client.get(reverse("tournaments:manage", args=[event.slug])).content.decode()
    assert 'name="decklists_public"' in console
    from tournaments.forms import EventForm

    data = {k: v for k, v in EventForm(instance=event).initial.items() if v is not None}
    data.update({"decklists_public": "on", "game_system": event.game_system})
    for key in ("is_public", "auto_advance", "play_online", "grand_final_reset"):
        if data.get(key) is True:
            data[key] = "on"
        elif data.get(key) is False:
            data.pop(key)
    if data.get("allow_split_finals") is False:
        data.pop("allow_split_finals")
    client.post(reverse("tournaments:manage_action", args=[event.slug, "settings"]), data)
    event.refresh_from_db()
    assert event.decklists_public
    assert event.audit.filter(action="edit", summary__icontains="decklists_public").exists()
