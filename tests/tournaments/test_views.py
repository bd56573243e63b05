"""Pages: who sees what, bad requests, query counts, CSV and languages."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.factories import make_event, play_round
from tournaments.models import Event, Match, Round
from tournaments.sample import bulk_event
from tournaments.services.decklists import submit_decklist
from tournaments.services.events import add_staff
from tournaments.services.pairing import pair_next_round, publish_round

pytestmark = pytest.mark.django_db


def url(name, event, **kw):
    return reverse(f"tournaments:{name}", kwargs={"slug": event.slug, **kw})


def test_public_pages_render_for_anonymous_visitors(client, alice):
    event, _ = make_event(alice, players=8, top_cut=4, swiss_rounds=2)
    play_round(alice, event)
    for name in ("event_detail", "pairings", "standings", "bracket"):
        response = client.get(url(name, event))
        assert response.status_code == 200, name
    assert b"Player 01" in client.get(url("standings", event)).content
    assert client.get(reverse("tournaments:event_list")).status_code == 200


def test_unknown_event_is_a_404(client):
    assert client.get("/events/no-such-event/standings/").status_code == 404


def test_console_is_for_organisers_and_judges_only(client, alice, bob, charlie):
    event, _ = make_event(alice, players=4, start=False)
    add_staff(alice, event, charlie, "judge")
    assert client.get(url("manage", event)).status_code == 302  # to the login page
    client.force_login(bob)
    assert client.get(url("manage", event)).status_code == 403
    response = client.post(url("manage_action", event, action="start"))
    assert response.status_code == 403
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION
    client.force_login(charlie)
    assert client.get(url("manage", event)).status_code == 200
    client.force_login(alice)
    response = client.get(url("manage", event))
    assert response.status_code == 200
    # The staff form's role is a short select beside the username, not a full-width one.
    staff = response.content.decode().split('id="staff"')[1].split("</form>")[0]
    assert re.search(r'<select name="role" class="w-12"', staff)


def test_organiser_runs_a_round_from_the_console(client, alice):
    event, _ = make_event(alice, players=4, swiss_rounds=1)
    client.force_login(alice)
    client.post(url("manage_action", event, action="pair"))
    rnd = event.rounds.get()
    client.post(url("manage_action", event, action="publish"), {"round": rnd.pk})
    for match in rnd.matches.all():
        response = client.post(
            url("manage_action", event, action="result"),
            {"match": match.pk, "wins_0": 2, "wins_1": 1, "draws": 0},
        )
        assert response.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_bad_result_from_the_console_shows_an_error_and_changes_nothing(client, alice):
    event, _ = make_event(alice, players=2, swiss_rounds=1)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    client.force_login(alice)
    response = client.post(
        url("manage_action", event, action="result"),
        {"match": match.pk, "wins_0": 3, "wins_1": 0},
        follow=True,
    )
    assert "already decided" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING


def test_pairing_with_results_missing_shows_a_clear_error(client, alice):
    event, _ = make_event(alice, players=4)
    publish_round(alice, pair_next_round(alice, event))
    client.force_login(alice)
    response = client.post(url("manage_action", event, action="pair"), follow=True)
    assert "result(s) missing" in response.content.decode()
    assert event.rounds.count() == 1


def test_player_reports_and_opponent_confirms_on_my_match(client, alice):
    event, _regs = make_event(alice, players=2, swiss_rounds=1)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    first, second = (s.registration.user for s in match.seats.order_by("seat"))
    client.force_login(first)
    page = client.get(url("my_match", event))
    assert page.status_code == 200 and b"Report result" in page.content
    # The match's length is named, not a bare figure after the opponent's name.
    assert "</strong> · Best of 3</p>" in page.content.decode()
    client.post(url("my_match", event), {"game_1": "0", "game_2": "1", "game_3": "0"})
    client.force_login(second)
    assert b"Confirm this result" in client.get(url("my_match", event)).content
    client.post(url("my_match", event), {"confirm": "1"})
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL


def test_registration_and_drop_through_the_event_page(client, alice, bob):
    event, _ = make_event(alice, players=0, start=False)
    client.force_login(bob)
    client.post(url("register", event), {"display_name": "Bobby"})
    assert event.registrations.get().display_name == "Bobby"
    client.post(url("self_action", event, action="check-in"))
    assert event.registrations.get().status == "checked_in"
    client.post(url("self_action", event, action="drop"))
    assert not event.registrations.exists()


def test_anonymous_register_redirects_to_login(client, alice):
    event, _ = make_event(alice, players=0, start=False)
    response = client.post(url("register", event))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not event.registrations.exists()


def test_decklist_is_visible_to_its_owner_and_organisers_only(client, alice, bob):
    event, regs = make_event(alice, players=2, start=False)
    submit_decklist(regs[0].user, regs[0], "2 Secret City")
    client.force_login(regs[1].user)
    assert b"Secret City" not in client.get(url("event_detail", event)).content
    assert client.get(url("manage", event)).status_code == 403
    client.force_login(alice)
    assert b"Secret City" in client.get(url("manage", event)).content


def test_standings_and_pairings_download_as_csv(client, alice):
    event, _ = make_event(alice, players=4)
    play_round(alice, event)
    standings = client.get(url("standings_csv", event))
    assert standings["Content-Type"].startswith("text/csv")
    lines = standings.content.decode().splitlines()
    assert lines[0].startswith("rank,player,points") and len(lines) == 5
    pairings = client.get(url("pairings_csv", event)).content.decode().splitlines()
    assert len(pairings) == 3 and pairings[1].startswith("1,1,")


def test_the_interface_speaks_russian(client, alice):
    event, _ = make_event(alice, players=2)
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    page = client.get(url("standings", event)).content.decode()
    assert "Турнирная таблица" in page


def test_signup_logs_the_new_user_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "password1": "a-long-Passphrase-42",
            "password2": "a-long-Passphrase-42",
        },
    )
    assert response.status_code == 302
    assert client.get(reverse("tournaments:event_create")).status_code == 200


def _standings_queries(client, event) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url("standings", event))
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.slow
def test_standings_page_query_count_does_not_grow_with_the_event(client, alice):
    small = bulk_event(alice, players=16, rounds=3, seed=3, name="Small")
    big = bulk_event(alice, players=2048, rounds=9, seed=4, name="Big")
    assert Round.objects.filter(event=big).count() == 9
    small_count = _standings_queries(client, small)
    big_count = _standings_queries(client, big)
    assert big_count == small_count <= 4
    client.force_login(alice)
    assert _standings_queries(client, big) == _standings_queries(client, small)


def test_event_list_counts_each_player_once_for_staff(client, alice, bob):
    event, _ = make_event(alice, players=1, start=False)
    add_staff(alice, event, bob, "judge")
    client.force_login(alice)
    page = client.get(reverse("tournaments:event_list"))
    assert [e.player_count for e in page.context["events"]] == [1]


@pytest.mark.parametrize(
    ("players", "structure"), [(5, "swiss"), (40, "swiss"), (8, "single_elim")]
)
def test_the_console_recommends_rounds_only_for_swiss_and_names_no_top_cut(
    client, alice, players, structure
):
    from tournaments.services.events import recommended_rounds

    event, _ = make_event(
        alice, players=players, start=False, structure=structure, swiss_rounds=3, top_cut=0
    )
    client.force_login(alice)
    page = client.get(url("manage", event)).content.decode()
    said = page.split('<p id="registered-count">')[1].split("</p>")[0]
    rounds, cut = recommended_rounds(players)
    if structure != "swiss":  # no Swiss rounds to recommend
        assert said == f"{players} registered."
    elif cut:
        assert said.endswith(f"{rounds} Swiss rounds, top cut {cut}.")
    else:
        assert said.endswith(f"{rounds} Swiss rounds, no top cut.")


def test_the_organisers_check_in_button_is_not_the_players_own(client, alice, bob):
    """In Russian a player checks in ("Отметиться", check yourself in) but an organiser
    checks a player in: the console's button has a word of its own."""
    event, _ = make_event(alice, players=0, start=False)
    client.force_login(bob)
    client.post(url("register", event), {"display_name": "Bobby"})
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    own = re.search(
        r"check-in/\">.*?<button type=\"submit\">([^<]+)<",
        client.get(url("event_detail", event)).content.decode(),
        re.S,
    )
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    console = client.get(url("manage", event)).content.decode()
    organisers = re.search(
        r"check-in/\">.*?<button class=\"secondary\" type=\"submit\">([^<]+)<", console, re.S
    )
    assert own and organisers
    assert own.group(1) == "Отметиться" and organisers.group(1) != own.group(1)


def test_the_console_offers_to_add_players_only_when_an_entry_can_be_taken(client, alice):
    """Before the start, and late in Swiss rounds; not in a bracket nor once finished,
    where the form could only end in an error."""
    client.force_login(alice)
    add = 'action="/events/{}/manage/add-player/"'
    fresh, _ = make_event(alice, players=2, start=False, name="Fresh")
    swiss, _ = make_event(alice, players=4, name="Swiss")
    cup, _ = make_event(alice, players=4, name="Cup", structure="single_elim", swiss_rounds=0)
    done, _ = make_event(alice, players=2, name="Done", structure="single_elim", swiss_rounds=0)
    play_round(alice, done)
    done.refresh_from_db()
    assert done.status == Event.Status.FINISHED
    for event, offered in ((fresh, True), (swiss, True), (cup, False), (done, False)):
        page = client.get(url("manage", event)).content.decode()
        assert (add.format(event.slug) in page) is offered, event.name


def test_a_locked_decklist_page_says_whether_the_player_submitted_one(client, alice):
    event, regs = make_event(alice, players=2, start=False)
    submit_decklist(regs[0].user, regs[0], "2 Secret City")
    event.decklists_locked = True
    event.save(update_fields=["decklists_locked"])
    client.force_login(regs[0].user)
    page = client.get(url("decklist", event)).content.decode()
    assert "Your decklist is locked." in page and "Secret City" in page
    client.force_login(regs[1].user)
    page = client.get(url("decklist", event)).content.decode()
    assert "Your decklist is locked." not in page
    assert "Decklists are locked: you did not submit one." in page


def test_signup_help_sits_under_its_field_as_plain_text_not_inside_the_label(client):
    html = client.get(reverse("signup")).content.decode()
    labels = re.findall(r"<label[^>]*>(.*?)</label>", html, re.S)
    assert labels and all("<input" not in lab and "characters" not in lab for lab in labels)
    help_block = re.search(r'<div class="help-text muted" id="id_username_helptext">', html)
    assert help_block, "the username help is its own block"
    assert 'aria-describedby="id_username_helptext"' in html
    with open("static/css/gauntlet.css", encoding="utf-8") as sheet:
        css = sheet.read()
    assert re.search(r"\.help-text \{[^}]*font-weight: normal", css)
