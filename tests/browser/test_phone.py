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


def test_notice_settings_fit_a_phone_in_russian(alice, live_server_url, new_page):
    """Each checkbox keeps its words ("на сайте", "по почте") on screen: the table needs
    no sideways scrolling, which hid half of the e-mail column."""
    from tests.browser.conftest import log_in

    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "alice")
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server_url}])
    page.goto("/notifications/settings/")
    expect(page.locator("h1")).to_have_text("Настройки уведомлений")
    wrap = page.locator(".notice-settings .table-wrap")
    expect(wrap.locator("label.check").last).to_contain_text("по почте")
    # The stylesheet has applied (the labels are left-aligned), then the table fits.
    expect(page.locator(".notice-settings td").first).to_have_css("text-align", "left")
    hidden = wrap.evaluate("el => el.scrollWidth - el.clientWidth")
    assert hidden <= 0, f"the notice settings are {hidden}px wider than a phone"
