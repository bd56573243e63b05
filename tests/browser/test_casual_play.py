"""A visitor's first casual games on a phone: sign up from the play page, come back to
it, start a «Восхождение» game against a bot with a starter deck, and a solo Ascension
game with Samael on the table. Every page fits a 360-pixel screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_a_visitor_signs_up_and_takes_a_seat_against_a_bot_on_a_phone(live_server_url, new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    page.goto("/play/")
    assert overflow(page) <= 0
    page.get_by_role("link", name="Sign up and play").click()
    page.locator("input[name=username]").fill("visitor")
    page.locator("input[name=password1]").fill("a-long-pass-123")
    page.locator("input[name=password2]").fill("a-long-pass-123")
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/play/$"))
    assert overflow(page) <= 0, f"the play page is {overflow(page)}px wider than a phone"
    section = page.locator("#new-voskhozhdenie")
    expect(section.get_by_role("radio").first).to_be_checked()
    section.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator(".play-seat")).to_have_count(2)
    assert overflow(page) <= 0

    page.goto("/play/")
    page.locator("#new-ascension").get_by_role("button", name="Play solo").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator(".asc-samael")).to_be_visible()
    expect(page.locator(".asc-samael-score")).to_have_text("0")
    assert overflow(page) <= 0
