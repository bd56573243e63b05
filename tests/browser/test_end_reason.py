"""The end screen of a game its rules decided, in a browser: under the winner, the game's
own sentence on how (here Ascension's honor pool, A-41/A-43), on a desktop and a phone, in
English and Russian; the replay's last step says the same. With ``PLAY_SCREENSHOTS=<dir>``
the end screen is saved there."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from play.services.starting import create_bot_game
from tests.browser.conftest import DESKTOP, PHONE, overflow, screenshot
from tests.play.test_casual import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished(alice):
    """alice's Ascension game against the heuristic bot, played to its end."""
    return play(create_bot_game(alice, "ascension", "heuristic"), 20_000)


def test_the_end_screen_says_how_the_rules_decided(finished, live_server_url, open_page):
    session = finished
    page, errors = open_page(f"/play/{session.pk}/", "alice")
    reason = page.locator(".play-end .play-end-reason")
    expect(reason).to_contain_text("The honor pool ran out (A-41) — most honor wins:")
    screenshot(page, "end-reason-desktop-en")
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0, f"the end screen is {overflow(page)}px wider than a phone"
    screenshot(page, "end-reason-phone-en")
    with page.expect_navigation():
        page.select_option("select[name=language]", "ru")
    expect(reason).to_contain_text("Запас чести исчерпан (A-41)")
    assert overflow(page) <= 0
    screenshot(page, "end-reason-phone-ru")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "end-reason-desktop-ru")
    page.goto(f"/play/{session.pk}/replay/")
    expect(page.locator("#replay .play-end-reason")).to_contain_text("Запас чести исчерпан")
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")
    assert not errors
