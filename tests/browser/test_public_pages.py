"""The public pages of an event in a real browser, on a desktop and on a phone, in English
and in Russian: the event list, the overview with a player's own match pinned, the
pairings with records, and the bracket with its lines, its champion and, on a phone, the
hint to scroll sideways. With ``PUBLIC_SCREENSHOTS=<dir>`` each page is saved there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine.core import registry
from tests.browser.conftest import log_in
from tests.tournaments.factories import make_event, play_round
from tournaments.models import Event
from tournaments.services.pairing import pair_next_round, publish_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def _play_until(organiser, event: Event, rounds: int) -> None:
    for _ in range(rounds):
        play_round(organiser, event, lambda match: [0, 1, 0] if match.table % 2 else [1, 1])


@pytest.fixture
def events(alice, live_server_url):
    """An open with its final being played, and a finished cup of eight (built before
    Chromium starts: Django refuses ORM calls while Playwright runs)."""
    open_, _regs = make_event(alice, players=8, name="Autumn Open", swiss_rounds=3, top_cut=4)
    _play_until(alice, open_, 4)  # three Swiss rounds and the semifinals
    final = publish_round(alice, pair_next_round(alice, open_)).matches.get()
    finalist = final.seats.order_by("seat").first().registration.user
    finalist.set_password(f"pw-{finalist.username}")
    finalist.save()
    cup, _ = make_event(
        alice, players=8, name="Winter Cup", structure="single_elim", swiss_rounds=0
    )
    _play_until(alice, cup, 3)
    cup.refresh_from_db()
    assert cup.status == Event.Status.FINISHED
    double, _ = make_event(alice, players=8, name="Double", structure="double_elim", swiss_rounds=0)
    _play_until(alice, double, 2)
    return open_, cup, double, finalist.username


def shoot(page, name: str) -> None:
    folder = os.environ.get("PUBLIC_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def line_width(page, selector: str, pseudo: str, side: str) -> str:
    return page.locator(selector).first.evaluate(f"(el) => getComputedStyle(el, '{pseudo}').{side}")


def _assert_both_finals_join_the_grand_final(page) -> None:
    """The line from the winners' final down to the losers' final passes the grand final's
    match, and each of the three meets it (stubs of the same width either side)."""

    def centre(selector: str) -> tuple[float, float, float]:
        box = page.locator(selector).first.bounding_box()
        return box["x"], box["x"] + box["width"], box["y"] + box["height"] / 2

    _wx, w_right, w_y = centre(".bsec-winners .joins-final .bm")
    _lx, l_right, l_y = centre(".bsec-losers .joins-final .bm")
    g_left, _gx, g_y = centre(".bsec-final .col.fed .bm")
    assert w_y < g_y < l_y
    # The shorter side's final draws its line on to where the longer side's ends.
    w_line, l_line = (
        page.locator(f"{side} .joins-final .slot").first.evaluate(
            "(el) => { const r = el.getBoundingClientRect(), s = getComputedStyle(el, '::after');"
            " return [r.left + parseFloat(s.left), r.right - parseFloat(s.right)]; }"
        )
        for side in (".bsec-winners", ".bsec-losers")
    )
    assert abs(w_line[0] - w_right) < 1 and abs(l_line[0] - l_right) < 1
    assert abs(w_line[1] - l_line[1]) < 1
    bar = page.locator(".bsec-winners").evaluate(
        "(el) => { const r = el.getBoundingClientRect(), s = getComputedStyle(el, '::after');"
        " return {top: r.top + parseFloat(s.top), x: r.right - parseFloat(s.right),"
        " width: s.borderLeftWidth}; }"
    )
    scroll_y = page.evaluate("() => window.scrollY")
    assert bar["width"] == "2px"
    assert abs(bar["top"] + scroll_y - w_y) < 2  # the line starts at the winners' final
    assert abs(bar["x"] - w_line[1]) < 2 and bar["x"] < g_left


def test_public_pages_on_a_desktop_and_a_phone_in_both_languages(events, new_page):
    open_, cup, double, finalist = events
    info = registry.get(open_.game_system)
    page = new_page()
    log_in(page, finalist)
    for language in ("en", "ru"):
        if language == "ru":
            with page.expect_navigation():
                page.select_option("select[name=language]", "ru")
        for screen, size in SCREENS.items():
            page.set_viewport_size(size)
            tag = f"{language}-{screen}"

            page.goto("/")
            expect(page.locator("table.event-list")).to_contain_text(info.label(language))
            expect(page.locator("table.event-list")).to_contain_text("alice")
            shoot(page, f"events-{tag}")

            page.goto(f"/events/{open_.slug}/")
            pinned = page.locator("#my-current-match")
            expect(pinned).to_be_visible()
            assert (
                pinned.bounding_box()["y"] < page.locator(".overview-standings").bounding_box()["y"]
            )
            standings = page.locator(".overview-standings table.standings")
            expect(standings.locator("th").last).to_be_visible()
            assert standings.bounding_box()["width"] > size["width"] * 0.6 or screen == "phone"
            # Each status pill keeps to one line ("Идёт игра" broke in two on a phone).
            expect(page.locator("main .badge").first).to_be_visible()
            assert (
                page.locator("main .badge").evaluate_all(
                    "els => els.filter(e => e.offsetHeight >= 2 * parseFloat(getComputedStyle(e).fontSize))"
                    ".map(e => e.textContent)"
                )
                == []
            ), tag
            shoot(page, f"overview-{tag}")

            page.goto(f"/events/{open_.slug}/pairings/?round=3")
            expect(page.locator("table.pairings .record").first).to_be_visible()
            expect(page.locator("table.pairings strong.winner").first).to_be_visible()
            page.locator("details.by-name summary").click()
            by_name = page.locator("details.by-name table")
            expect(by_name.locator("tbody tr")).to_have_count(8)
            expect(by_name.locator("tbody tr").first.locator(".record").first).to_be_visible()
            shoot(page, f"pairings-{tag}")

            page.goto(f"/events/{open_.slug}/standings/")
            wrap = page.locator("#standings .table-wrap")
            name = page.locator("#standings table.standings tbody tr td:nth-child(2)").first
            hint = page.locator(".standings-hint")
            if screen == "phone":
                expect(hint).to_be_visible()
                assert wrap.evaluate("(el) => el.scrollWidth > el.clientWidth")
                wrap.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
                page.wait_for_function(
                    "() => document.querySelector('#standings .table-wrap').scrollLeft > 0"
                )
                # Scrolled to the last column, the names stay at the left edge, in full.
                assert abs(name.bounding_box()["x"] - wrap.bounding_box()["x"]) < 1
                expect(name).to_be_in_viewport(ratio=1)
                expect(page.locator("#standings table.standings th").last).to_be_in_viewport()
                shoot(page, f"standings-scrolled-{tag}")
                wrap.evaluate("(el) => { el.scrollLeft = 0; }")
            else:
                expect(hint).to_be_hidden()
            shoot(page, f"standings-{tag}")

            page.goto(f"/events/{cup.slug}/bracket/")
            expect(page.locator("#champion")).to_be_visible()
            assert line_width(page, ".joins-pairs .slot", "::after", "borderRightWidth") == "2px"
            assert line_width(page, ".fed .slot", "::before", "borderTopWidth") == "2px"
            scroller = page.locator(".bracket-scroll")
            wider = scroller.evaluate("(el) => el.scrollWidth > el.clientWidth")
            hint = page.locator(".bracket-hint")
            if screen == "phone":
                assert wider
                expect(hint).to_be_visible()
            else:
                assert not wider
                expect(hint).to_be_hidden()
            shoot(page, f"bracket-{tag}")
            page.goto(f"/events/{double.slug}/bracket/")
            expect(page.locator(".joins-straight").first).to_be_visible()
            expect(page.locator(".bsec-title")).to_have_count(3)
            _assert_both_finals_join_the_grand_final(page)
            # A long round title ("Четвертьфиналы верхней сетки") or match label
            # ("Четвертьфинал верхней сетки 1") wraps, never cut short.
            cut = page.locator(".bracket .col h3, .bracket .bm .label").evaluate_all(
                "els => els.filter(e => e.scrollWidth > e.clientWidth"
                " || e.scrollHeight > e.clientHeight).map(e => e.textContent)"
            )
            assert cut == [], (tag, cut)
            shoot(page, f"double-{tag}")
            # Scrolled to the losers' final, each side's heading stays at the left edge.
            scroller = page.locator(".bracket-scroll")
            page.locator(".bsec-losers .joins-final .bm").scroll_into_view_if_needed()
            left = scroller.bounding_box()["x"]
            assert scroller.evaluate("(el) => el.scrollLeft") > 0 or screen == "desktop"
            for side in (".bsec-winners", ".bsec-losers"):
                heading = page.locator(f"{side} .bsec-title span").bounding_box()
                assert abs(heading["x"] - left) < 2 and heading["x"] + heading["width"] < 390
            shoot(page, f"double-finals-{tag}")
            scroller.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
            expect(page.locator(".bsec-final .bm").last).to_be_in_viewport(ratio=1)
            shoot(page, f"double-scrolled-{tag}")
    expect(page.locator("html")).to_have_attribute("lang", "ru")


@pytest.fixture
def pairs_cup(alice, live_server_url, make_user):
    """A 2 vs 2 event of four teams, round 1 played and round 2 published."""
    from tournaments.services.events import create_event
    from tournaments.services.results import enter_result
    from tournaments.services.starting import start_event
    from tournaments.services.teams import register_team

    event = create_event(alice, name="Pairs Cup", format="team_standard", swiss_rounds=2, best_of=1)
    people = [make_user(name) for name in ("anya", "boris", "vera", "gleb", "dina", "egor", "zoya", "ivan")]  # fmt: skip
    for n in range(4):
        team = people[2 * n : 2 * n + 2]
        register_team(event, name=f"Team {n + 1}", members=team, actor=team[0])
    event = start_event(alice, event)
    for match in publish_round(alice, pair_next_round(alice, event)).matches.all():
        enter_result(alice, match, [0])
    publish_round(alice, pair_next_round(alice, event))
    return event


def test_team_rows_link_each_member_to_their_profile(pairs_cup, new_page):
    page = new_page()
    for language in ("en", "ru"):
        for screen, size in SCREENS.items():
            page.set_viewport_size(size)
            for tab, table in (("standings", "table.standings"), ("pairings", "table.pairings")):
                page.goto(f"/events/{pairs_cup.slug}/{tab}/")
                if language == "ru" and tab == "standings" and screen == "desktop":
                    with page.expect_navigation():
                        page.select_option("select[name=language]", "ru")
                links = page.locator(table).first.locator(".team-members a.member-link")
                expect(links).to_have_count(8)
                first = links.first.inner_text()
                expect(links.first).to_have_attribute("href", f"/players/{first[1:]}/")
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, (tab, screen, overflow)
                shoot(page, f"team-{tab}-{language}-{screen}")
    member = links.first.inner_text()[1:]  # "@anya" → "anya"
    links.first.click()
    page.wait_for_url(f"**/players/{member}/")
    expect(page.locator("main")).to_contain_text(member)


@pytest.fixture
def bracket_pages(alice, live_server_url):
    """A finished single elimination of eight in a series, and one whose final is being
    played (its finalist logs in, so the event page has a "My match" tab)."""
    from tournaments.services.series import add_event, create_series

    done, _ = make_event(alice, players=8, name="Walk Cup", structure="single_elim", swiss_rounds=0)
    _play_until(alice, done, 3)
    series = create_series(alice, "Walk Series")
    add_event(alice, series, done)
    live, _ = make_event(alice, players=8, name="Live Cup", structure="single_elim", swiss_rounds=0)
    _play_until(alice, live, 2)
    final = publish_round(alice, pair_next_round(alice, live)).matches.get()
    finalist = final.seats.order_by("seat").first().registration.user
    finalist.set_password(f"pw-{finalist.username}")
    finalist.save()
    return done, live, series.slug, finalist.username


def test_bracket_events_show_finishes_open_rounds_and_every_tab(bracket_pages, new_page):
    done, live, series_slug, finalist = bracket_pages
    anonymous, page = new_page(), new_page()
    log_in(page, finalist)
    for language in ("en", "ru"):
        if language == "ru":
            for each in (anonymous, page):
                each.goto("/")
                with each.expect_navigation():
                    each.select_option("select[name=language]", "ru")
        for screen, size in SCREENS.items():
            tag = f"{language}-{screen}"
            anonymous.set_viewport_size(size)
            anonymous.goto("/accounts/signup/")
            help_text = anonymous.locator("#id_username_helptext")
            expect(help_text).to_be_visible()
            assert help_text.evaluate("el => getComputedStyle(el).fontWeight") == "400"
            shoot(anonymous, f"signup-{tag}")

            page.set_viewport_size(size)
            page.goto(f"/series/{series_slug}/")
            expect(page.locator("main table").first).to_contain_text("Player 0")
            expect(page.locator("main table .profile-link").first).to_contain_text("@")
            shoot(page, f"series-{tag}")
            page.goto(f"/events/{done.slug}/standings/")
            table = page.locator("table.standings")
            expect(table.locator("th")).to_have_count(3)
            places = table.locator("tbody td.place").all_inner_texts()
            assert places == ["1", "2", "3–4", "3–4"] + ["5–8"] * 4, places
            shoot(page, f"standings-cup-{tag}")

            page.goto(f"/events/{live.slug}/pairings/")
            badge = page.locator("main h2 .badge").first
            expect(badge).to_have_text("In progress" if language == "en" else "Идёт")
            shoot(page, f"pairings-live-{tag}")
            page.goto(f"/events/{live.slug}/my-match/")
            tabs = page.locator("nav.tabs a")
            expect(tabs).to_have_count(5)
            for i in range(5):  # every tab whole on the screen, none scrolled off
                expect(tabs.nth(i)).to_be_in_viewport(ratio=1)
            assert page.locator("nav.tabs").evaluate("el => el.scrollWidth <= el.clientWidth")
            shoot(page, f"mymatch-live-{tag}")
            page.goto(f"/events/{live.slug}/")
            assert page.locator("table.standings tbody td.place").first.inner_text() == "1–2"
            shoot(page, f"overview-live-{tag}")
