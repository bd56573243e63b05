"""Every page fits a phone: nothing wider than a 360-pixel screen but scrolling tables."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.tournaments.factories import make_event, play_round
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import drop

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def running_event(alice, live_server_url):
    """A 10-player event with a Swiss round played, one in progress and a top 4 ahead.

    Built before Chromium starts: Django refuses ORM calls while Playwright runs.
    """
    event, regs = make_event(alice, players=10, swiss_rounds=2, top_cut=4)
    play_round(alice, event)
    publish_round(alice, pair_next_round(alice, event))
    drop(alice, regs[-1], "left early")
    return event, regs


def overflow(page) -> int:
    """How far the page is wider than the screen (scrolling table wrappers excluded)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_public_and_player_pages_fit_a_phone(running_event, new_page):
    event, regs = running_event
    page = new_page()
    page.set_viewport_size(PHONE)
    public = [
        "/",
        f"/events/{event.slug}/",
        f"/events/{event.slug}/pairings/",
        f"/events/{event.slug}/standings/",
        f"/events/{event.slug}/bracket/",
        f"/events/{event.slug}/players/{regs[0].pk}/",
        "/accounts/login/",
        "/accounts/signup/",
    ]
    for path in public:
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
        assert overflow(page) <= 0, f"{path} is {overflow(page)}px wider than a phone"


def test_organiser_console_fits_a_phone(running_event, new_page):
    event, _ = running_event
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("pw-alice")
    page.locator("main").get_by_role("button", name="Log in").click()
    for path in (f"/events/{event.slug}/manage/", "/events/new/"):
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
        assert overflow(page) <= 0, f"{path} is {overflow(page)}px wider than a phone"
    page.goto(f"/events/{event.slug}/manage/")
    expect(page.locator("#results .quick-results").first).to_be_visible()
