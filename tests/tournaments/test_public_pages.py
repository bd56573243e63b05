"""The public pages of an event: the list, the header, the overview, pairings, standings and
the bracket say what a player looks for (game, date, organiser, records, winners, the
champion), in both languages, within a query and a page-weight budget."""

from __future__ import annotations

import csv
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from engine.core import registry
from tests.tournaments.factories import make_event, play_round
from tournaments.models import Event, Match, Round
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.results import enter_result
from tournaments.services.starting import start_event

pytestmark = pytest.mark.django_db

# Queries a page may take, whatever the size of the event (measured, with a little room).
QUERY_BUDGET = {
    "event_list": 3,
    "event_detail": 15,
    "pairings": 12,
    "standings": 9,
    "bracket": 11,
}
# Bytes a page of an eight-player event may weigh.
PAGE_BYTES = 20_000


def url(name: str, event: Event, **kw) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": event.slug, **kw})


def text(response) -> str:
    """The page as text, tags removed and whitespace collapsed."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def in_russian(client) -> None:
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})


def finish(organiser, event: Event, pick=lambda match: [0, 0]) -> Event:
    """Play every round (the Swiss, then the top cut) until the event is over."""
    for _ in range(12):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return event
        play_round(organiser, event, pick)
    raise AssertionError("the event did not finish")


def cup(organiser, users, **settings) -> tuple[Event, Match]:
    """A single-elimination event of four, its semifinals played: the final is ready."""
    event = create_event(organiser, name="Cup", structure="single_elim", best_of=3, **settings)
    for user in users:
        register(event, user=user, display_name=user.username.title())
    start_event(organiser, event)
    for match in publish_round(organiser, pair_next_round(organiser, event)).matches.all():
        enter_result(organiser, match, [0, 0])
    return event, publish_round(organiser, pair_next_round(organiser, event)).matches.get()


@pytest.fixture
def erin(make_user):
    return make_user("erin")


# ---------------------------------------------------------------- game, date, organiser


def test_the_event_list_names_the_game_the_date_and_the_organiser(client, alice):
    starts = datetime(2026, 12, 5, 10, 30, tzinfo=UTC)
    event, _ = make_event(alice, players=2, start=False, starts_at=starts)
    body = text(client.get(reverse("tournaments:event_list")))
    assert registry.get(event.game_system).name in body
    assert formats.date_format(timezone.localtime(starts), "DATE_FORMAT") in body
    assert "by alice" in body


def test_an_event_without_a_start_shows_the_day_it_was_created(client, alice):
    event, _ = make_event(alice, players=2, start=False)
    body = text(client.get(reverse("tournaments:event_list")))
    assert formats.date_format(timezone.localtime(event.created_at), "DATE_FORMAT") in body


def test_the_event_header_names_the_game_the_date_and_the_organiser(client, alice):
    starts = timezone.now() + timedelta(days=3)
    event, _ = make_event(alice, players=2, start=False, starts_at=starts)
    for name in ("event_detail", "pairings", "standings"):
        head = text(client.get(url(name, event))).split("Overview")[0]
        assert registry.get(event.game_system).name in head, name
        assert "organised by alice" in head, name
        assert formats.date_format(timezone.localtime(starts), "DATETIME_FORMAT") in head, name


# ---------------------------------------------------------------- pairings


def _rows(response) -> dict[str, str]:
    """The pairings table's rows as text, by table number."""
    html = response.content.decode()
    table = html[html.index('<table class="pairings">') :]
    table = table[: table.index("</table>")]
    rows = {}
    for row in re.findall(r"<tr data-match.*?</tr>", table, flags=re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        rows[re.sub(r"<[^>]+>", "", cells[0]).strip()] = row
    return rows


def test_pairings_show_records_going_in_the_winner_in_bold_and_a_clear_result(client, alice):
    event, _regs = make_event(alice, players=4, swiss_rounds=3)
    play_round(alice, event, lambda match: [0, 0])  # seat 0 wins every table 2-0
    second = publish_round(alice, pair_next_round(alice, event))
    first_table, second_table = second.matches.order_by("table")
    enter_result(alice, first_table, [0, 1, 1])  # seat 1 wins 2-1
    enter_result(alice, second_table, [0, 1, None])  # a drawn match, one drawn game

    response = client.get(url("pairings", event) + "?round=2")
    rows = _rows(response)
    winner = first_table.seats.get(seat=1).registration.display_name
    loser = first_table.seats.get(seat=0).registration.display_name
    first_row = re.sub(r"\s+", " ", rows["1"])
    assert f'<strong class="winner"><a href="/events/{event.slug}/players/' in first_row
    assert not re.search(rf"<strong[^>]*><a [^>]*>{loser}<", first_row)
    assert re.search(rf'<strong class="winner"><a [^>]*>{winner}</a></strong>', first_row)
    assert f"{winner} won 2–1" in re.sub(r"<[^>]+>", "", first_row)
    # Round 1's winners met in round 2: each comes in 1-0-0 with 3 points.
    assert first_row.count("1-0-0 · 3 points") == 2
    second_row = re.sub(r"<[^>]+>", "", rows["2"])
    assert "Draw 1–1" in second_row and "+ 1 drawn game" in second_row
    assert second_row.count("0-1-0 · 0 points") == 2
    assert "winner" not in rows["2"]


def test_a_bye_reads_as_a_bye_and_round_one_shows_no_records(client, alice):
    event, _ = make_event(alice, players=3, swiss_rounds=2)
    publish_round(alice, pair_next_round(alice, event))
    body = text(client.get(url("pairings", event)))
    assert "Bye (counts as a 2–0 win)" in body
    assert "0-0-0" not in body


# ---------------------------------------------------------------- bracket


def test_the_bracket_draws_its_lines_links_names_and_crowns_the_champion(
    client, alice, bob, charlie, dave, erin
):
    event, final = cup(alice, [bob, charlie, dave, erin])
    response = client.get(url("bracket", event))
    html = response.content.decode()
    assert 'class="col joins-pairs"' in html  # the semifinals join in pairs
    assert 'class="col joins-none fed"' in html  # the final is fed by them
    assert 'id="champion"' not in html
    for seat in final.seats.all():
        assert f'href="/events/{event.slug}/players/{seat.registration_id}/"' in html
    assert "bracket-hint hint-c2" in html

    enter_result(alice, final, [1, 1])
    champion = final.seats.get(seat=1).registration
    body = text(client.get(url("bracket", event)))
    assert f"Champion: {champion.display_name}" in body


def test_a_split_final_shows_first_place_shared(client, alice, bob, charlie, dave, erin):
    event, final = cup(alice, [bob, charlie, dave, erin], allow_split_finals=True)
    enter_result(alice, final, [None, None, None])
    body = text(client.get(url("bracket", event)))
    a, b = (s.registration.display_name for s in final.seats.order_by("seat"))
    assert f"First place shared (split final): {a} and {b}" in body
    assert "Champion:" not in body
    pairings = text(client.get(url("pairings", event)))
    assert "Split 0–0: first place shared" in pairings


def test_an_eight_player_bracket_asks_phones_to_scroll_to_the_final(client, alice):
    event, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    publish_round(alice, pair_next_round(alice, event))
    html = client.get(url("bracket", event)).content.decode()
    assert html.count('class="col joins-pairs') == 2
    assert "bracket-hint hint-c3" in html
    assert "Scroll sideways to see the later rounds and the final" in html


# ---------------------------------------------------------------- overview and standings


def test_the_overview_has_full_width_standings_and_pins_my_match(client, alice):
    event, regs = make_event(alice, players=4, swiss_rounds=3)
    play_round(alice, event)
    publish_round(alice, pair_next_round(alice, event))
    me = regs[0]
    client.force_login(me.user)
    html = client.get(url("event_detail", event)).content.decode()
    pinned = html.index('id="my-current-match"')
    standings = html.index('class="overview-standings"')
    assert pinned < standings
    assert "grid2" not in html[: html.index("</main>")]
    standings_html = html[standings:]
    for column in ("OMW%", "GW%", "OGW%", "MW%"):
        assert column in standings_html
    match = Match.objects.get(round__number=2, seats__registration=me)
    opponent = match.seats.exclude(registration=me).get().registration.display_name
    card = text_of(html[pinned : html.index("</section>", pinned)])
    assert f"Opponent: {opponent}" in card
    assert f"table {match.table}" in card


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_visitor_without_a_match_sees_no_pinned_card(client, alice, bob):
    event, _ = make_event(alice, players=4, swiss_rounds=2)
    publish_round(alice, pair_next_round(alice, event))
    client.force_login(bob)
    assert 'id="my-current-match"' not in client.get(url("event_detail", event)).content.decode()


def test_no_tiebreak_figures_before_a_match_is_played(client, alice):
    event, _ = make_event(alice, players=4, swiss_rounds=2)
    publish_round(alice, pair_next_round(alice, event))
    body = text(client.get(url("standings", event)))
    assert "No round completed yet" in body
    assert "33.33" not in body and "0.00" not in body
    assert body.count("—") >= 4 * 4


def test_a_bracket_event_shows_no_swiss_records_and_counts_its_rounds(client, alice):
    """Single elimination, finished: no Swiss round was played, so the pairings neither
    show every player's empty Swiss record nor the standings say no round was completed."""
    event, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    for _ in range(3):
        play_round(alice, event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    standings = text(client.get(url("standings", event)))
    assert "No round completed yet" not in standings
    assert "3 bracket rounds completed" in standings
    for page in (url("pairings", event), url("pairings", event) + "?round=2"):
        body = text(client.get(page))
        assert "0-0-0" not in body and "Swiss record" not in body, page
    for page in (url("pairings", event), url("event_detail", event)):
        assert 'class="record"' not in client.get(page).content.decode(), page


def test_the_rounds_counted_match_the_records_after_a_top_cut(client, alice):
    event, _ = make_event(alice, players=8, swiss_rounds=2, top_cut=4)
    finish(alice, event)
    assert event.rounds.filter(kind=Round.Kind.ELIMINATION).count() == 2
    body = text(client.get(url("standings", event)))
    assert "After 2 completed rounds" in body
    assert "2 elimination rounds: the top cut is ranked by its finish" in body
    assert "After 4" not in body
    html = client.get(url("standings", event)).content.decode()
    records = re.findall(r'<td class="num">(\d+)-(\d+)-(\d+)</td>', html)
    assert len(records) == 8
    assert all(sum(map(int, r)) == 2 for r in records)


def test_plurals_read_right_in_english_and_russian(client, alice):
    event, _ = make_event(alice, players=4, swiss_rounds=1)
    play_round(alice, event)
    body = text(client.get(url("event_detail", event)))
    assert "1 Swiss round " in body or "1 Swiss round·" in body or "1 Swiss round ·" in body
    assert "After 1 completed round " in body or "After 1 completed round·" in body
    assert "1 Swiss rounds" not in body and "round(s)" not in body
    in_russian(client)
    body = text(client.get(url("event_detail", event)))
    assert "1 раунд по швейцарской системе" in body
    assert "Завершён 1 раунд" in body
    event2, _ = make_event(alice, players=4, swiss_rounds=3, name="Three")
    play_round(alice, event2)
    play_round(alice, event2, lambda match: [1, 1])
    body = text(client.get(url("standings", event2)))
    assert "Завершено 2 раунда" in body
    pairings = text(client.get(url("pairings", event2)))
    assert re.search(r"\d-\d-\d · \d+ очк(о|а|ов)", pairings)


# ---------------------------------------------------------------- budgets


@pytest.mark.parametrize("players", [8, 24])
def test_each_public_page_keeps_to_its_query_and_weight_budget(
    client, alice, django_assert_max_num_queries, players
):
    event, regs = make_event(alice, players=players, swiss_rounds=3, top_cut=4)
    finish(alice, event)
    client.force_login(regs[0].user)
    pages = {name: url(name, event) for name in QUERY_BUDGET if name != "event_list"}
    pages["event_list"] = reverse("tournaments:event_list")
    for name, address in pages.items():
        with django_assert_max_num_queries(QUERY_BUDGET[name]):
            response = client.get(address)
        assert response.status_code == 200, name
        if players == 8:
            assert len(response.content) < PAGE_BYTES, (name, len(response.content))


def test_a_double_elimination_bracket_joins_its_losers_rounds_straight_across(client, alice):
    event, _ = make_event(alice, players=8, structure="double_elim", swiss_rounds=0)
    publish_round(alice, pair_next_round(alice, event))
    html = client.get(url("bracket", event)).content.decode()
    assert 'class="col joins-pairs"' in html  # winners round 1 into round 2
    assert "joins-straight" in html  # a losers round into the next, one to one
    assert html.count('class="slot"') == 15  # 7 winners, 6 losers, the grand final and its reset


def test_pods_show_placement_points_going_in_and_the_winner_in_bold(client, alice):
    from tests.tournaments.test_pod_events import pod_event
    from tournaments.services.placements import enter_placements

    event, _ = pod_event(alice, players=8)
    first = publish_round(alice, pair_next_round(alice, event))
    for match in first.matches.order_by("table"):
        enter_placements(alice, match, [1, 2, 3, 4])
    winners = [
        m.seats.get(seat=0).registration.display_name for m in first.matches.order_by("table")
    ]
    html = client.get(url("pairings", event) + "?round=1").content.decode()
    for name in winners:
        assert re.search(rf'<strong class="winner"><a [^>]*>{name}</a> \(1\)</strong>', html)
    publish_round(alice, pair_next_round(alice, event))
    body = text(client.get(url("pairings", event)))
    assert "placement points going into this round" in body
    for name in winners:
        assert f"{name} 4 points" in body


def test_pairings_by_name_show_each_players_record_and_points_going_in(client, alice):
    event, _regs = make_event(alice, players=6, swiss_rounds=3)
    play_round(alice, event, lambda match: [0, 0])  # seat 0 wins every table 2-0
    second = publish_round(alice, pair_next_round(alice, event))
    html = client.get(url("pairings", event)).content.decode()
    listing = html[html.index("Pairings by name") :]
    listing = listing[: listing.index("</table>")]
    rows = re.findall(r"<tr>.*?</tr>|<tr class=\"me\">.*?</tr>", listing, flags=re.S)[1:]
    names = [re.sub(r"<[^>]+>", "", re.findall(r"<td>(.*?)<br>", r, flags=re.S)[0]) for r in rows]
    assert len(rows) == 6 and names == sorted(names, key=str.lower)
    winners = {
        m.seats.get(seat=0).registration.display_name
        for m in event.rounds.get(number=1).matches.all()
    }
    for row in rows:
        cells = [re.sub(r"<[^>]+>", " ", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        player, table, opponent = (re.sub(r"\s+", " ", c).strip() for c in cells)
        player, opponent = (re.sub(r" @\S+", "", c) for c in (player, opponent))  # profiles
        name = re.sub(r" \d+-\d+-\d+ · .*$", "", player)
        going_in = "1-0-0 · 3 points" if name in winners else "0-1-0 · 0 points"
        assert player == f"{name} {going_in}", row
        match = second.matches.get(table=int(table))
        other = match.seats.exclude(registration__display_name=name).get().registration
        other_in = "1-0-0 · 3 points" if other.display_name in winners else "0-1-0 · 0 points"
        assert opponent == f"{other.display_name} {other_in}", row


def test_the_standings_hint_phones_to_scroll_and_keep_the_names_in_place(client, alice):
    event, _ = make_event(alice, players=4, swiss_rounds=3)
    play_round(alice, event)
    html = client.get(url("standings", event)).content.decode()
    assert html.count('class="scroll-hint standings-hint"') == 1
    assert "Scroll sideways to see every column; the names stay in place" in html


def test_an_empty_drop_into_the_losers_bracket_says_bye_not_a_dash(client, alice):
    """Six players: seeds 1 and 2 have byes in winners round 1, so those walkovers drop
    nobody into losers round 1; the page says "bye" there, as in winners round 1, and
    keeps the dash for a player not known yet."""
    event, _ = make_event(alice, players=6, structure="double_elim", swiss_rounds=0)
    play_round(alice, event)
    html = client.get(url("bracket", event)).content.decode()
    losers = re.split(r'<section class="bsec ', html)[2]
    first = losers.split('<li class="col ')[1]  # losers round 1
    assert first.count('<em class="muted">bye</em>') == 2
    assert '<span class="muted">—</span>' not in first
    assert '<span class="muted">—</span>' in losers.split('<li class="col ')[2]  # still to come


def test_a_double_elimination_bracket_shows_its_sections_and_joins_both_finals(client, alice):
    event, _ = make_event(alice, players=8, structure="double_elim", swiss_rounds=0)
    publish_round(alice, pair_next_round(alice, event))
    html = client.get(url("bracket", event)).content.decode()
    sections = re.findall(
        r'<section class="bsec bsec-(\w+)">\s*<h2 class="bsec-title"><span>([^<]+)<', html
    )
    assert sections == [
        ("winners", "Winners bracket"),
        ("losers", "Losers bracket"),
        ("final", "Grand final"),
    ]
    winners, losers, final = re.split(r'<section class="bsec ', html)[1:]
    # Each side's last column goes on to the grand final, whose first column is fed.
    assert winners.count("joins-final") == 1 and "Winners final" in winners.split("joins-final")[1]
    assert losers.count("joins-final") == 1 and "Losers final" in losers.split("joins-final")[1]
    assert re.search(r'class="col joins-\w+ fed">\s*<h3 title="Grand final"', final)
    # The first column of each side is fed by nothing drawn before it.
    for side in (winners, losers):
        assert " fed" not in re.findall(r'<li class="col [^"]*"', side)[0]


def test_long_russian_round_titles_take_two_lines_instead_of_an_ellipsis(client, alice):
    double, _ = make_event(alice, players=8, structure="double_elim", swiss_rounds=0)
    publish_round(alice, pair_next_round(alice, double))
    single, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    publish_round(alice, pair_next_round(alice, single))
    # In English every title and match label fits one line: they stay one line high.
    for event in (double, single):
        html = client.get(url("bracket", event)).content.decode()
        assert "heads-2" not in html and "labels-2" not in html
    in_russian(client)
    html = client.get(url("bracket", double)).content.decode()
    assert 'title="Четвертьфиналы верхней сетки"' in html
    assert '<div class="label">Четвертьфинал верхней сетки 1</div>' in html
    assert '<div class="bracket-scroll heads-2 labels-2"' in html
    html = client.get(url("bracket", single)).content.decode()
    assert "heads-2" not in html and "labels-2" not in html


def test_a_single_elimination_bracket_is_one_row_without_sections(client, alice):
    event, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    publish_round(alice, pair_next_round(alice, event))
    html = client.get(url("bracket", event)).content.decode()
    assert "bsec" not in html and "joins-final" not in html


def test_pods_by_name_show_each_players_points_going_in_and_their_pod(client, alice):
    from tests.tournaments.test_pod_events import pod_event
    from tournaments.services.placements import enter_placements

    event, _ = pod_event(alice, players=8)
    first = publish_round(alice, pair_next_round(alice, event))
    for match in first.matches.order_by("table"):
        enter_placements(alice, match, [1, 2, 3, 4])
    second = publish_round(alice, pair_next_round(alice, event))
    html = client.get(url("pairings", event)).content.decode()
    listing = html[html.index("Pairings by name") :]
    listing = listing[: listing.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", listing, flags=re.S)[1:]
    assert len(rows) == 8
    points = {
        s.registration.display_name: {1: 4, 2: 2, 3: 1, 4: 0}[s.placement]
        for m in first.matches.all()
        for s in m.seats.all()
    }
    pod_of = {
        s.registration.display_name: m.table for m in second.matches.all() for s in m.seats.all()
    }
    names = []
    for row in rows:
        cells = [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        player, pod, others = cells
        name = re.sub(r" \d+ points?$", "", player)
        names.append(name)
        assert player.endswith(f" {points[name]} point" + ("" if points[name] == 1 else "s"))
        assert int(pod) == pod_of[name]
        assert others.count("point") == 3  # three opponents, each with their points
    assert names == sorted(names, key=str.lower)


# ---------------------------------------------------------------- bracket-only standings


def _table_rows(html: str) -> list[list[str]]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip() for cell in cells]
        for cells in (re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in body.split("</tr>"))
        if cells
    ]


def test_a_bracket_event_ranks_by_its_finish_without_swiss_columns(client, alice):
    event, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    finish(alice, event)
    html = client.get(url("standings", event)).content.decode()
    assert "OMW%" not in html and "GW%" not in html and "Points" not in html
    rows = _table_rows(html)
    assert [r[0] for r in rows] == ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]
    assert rows[0][2] == "3-0-0" and rows[1][2] == "2-1-0"
    assert [r[2] for r in rows[2:4]] == ["1-1-0", "1-1-0"]
    assert all(r[2] == "0-1-0" for r in rows[4:])
    assert "Champion" in rows[0][1]
    overview = client.get(url("event_detail", event)).content.decode()
    assert "0-0-0" not in overview and "3–4" in overview
    in_russian(client)
    assert "Место" in client.get(url("standings", event)).content.decode()


def test_a_split_final_shares_places_one_and_two_in_the_standings(
    client, alice, bob, charlie, dave, erin
):
    event, final = cup(alice, [bob, charlie, dave, erin], allow_split_finals=True)
    enter_result(alice, final, [None, None, None])
    rows = _table_rows(client.get(url("standings", event)).content.decode())
    assert [r[0] for r in rows] == ["1–2", "1–2", "3–4", "3–4"]
    assert all("Split final" in r[1] for r in rows[:2]) and "Champion" not in rows[0][1]
    assert [r[2] for r in rows[:2]] == ["1-0-1", "1-0-1"]


def test_the_standings_csv_of_a_bracket_event_matches_its_page(client, alice):
    event, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    finish(alice, event)
    page = _table_rows(client.get(url("standings", event)).content.decode())
    lines = client.get(url("standings_csv", event)).content.decode().splitlines()
    rows = list(csv.reader(lines))
    assert rows[0] == ["place", "player", "wins", "losses", "draws", "dropped"]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3–4", "3–4", "5–8", "5–8", "5–8", "5–8"]
    assert all(p[1].startswith(r[1] + " ") for r, p in zip(rows[1:], page, strict=True))
    assert ["-".join(r[2:5]) for r in rows[1:]] == [p[2] for p in page]
    swiss, _ = make_event(alice, players=4)
    play_round(alice, swiss)
    header = client.get(url("standings_csv", swiss)).content.decode().splitlines()[0]
    assert header.startswith("rank,player,points,wins,losses,draws,omw")


def test_a_double_elimination_event_places_3_and_4_apart(client, alice):
    event, _ = make_event(alice, players=8, structure="double_elim", swiss_rounds=0)
    finish(alice, event)
    rows = _table_rows(client.get(url("standings", event)).content.decode())
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5–6", "5–6", "7–8", "7–8"]
    assert all(r[2].endswith("-2-0") for r in rows[2:])


def test_a_bracket_in_progress_shows_the_places_still_open(client, alice):
    event, _ = make_event(alice, players=8, structure="single_elim", swiss_rounds=0)
    play_round(alice, event)
    rows = _table_rows(client.get(url("standings", event)).content.decode())
    assert [r[0] for r in rows] == ["1–4"] * 4 + ["5–8"] * 4


# ---------------------------------------------------------------- round status words


def test_public_pages_say_a_round_is_in_progress_or_finished(client, alice):
    event, _ = make_event(alice, players=4, swiss_rounds=2)
    play_round(alice, event)
    publish_round(alice, pair_next_round(alice, event))
    for page in (url("pairings", event), url("event_detail", event)):
        html = client.get(page).content.decode()
        assert 'status-published">In progress</span>' in html, page
        assert "Published" not in html, page
    html = client.get(url("pairings", event) + "?round=1").content.decode()
    assert 'status-completed">Finished</span>' in html
    in_russian(client)
    html = client.get(url("pairings", event)).content.decode()
    assert 'status-published">Идёт</span>' in html and "Опубликован" not in html
