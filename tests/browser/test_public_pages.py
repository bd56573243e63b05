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
            shoot(page, f"overview-{tag}")

            page.goto(f"/events/{open_.slug}/pairings/?round=3")
            expect(page.locator("table.pairings .record").first).to_be_visible()
            expect(page.locator("table.pairings strong.winner").first).to_be_visible()
            shoot(page, f"pairings-{tag}")

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
            if screen == "desktop":
                page.goto(f"/events/{double.slug}/bracket/")
                expect(page.locator(".joins-straight").first).to_be_visible()
                shoot(page, f"double-{tag}")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
