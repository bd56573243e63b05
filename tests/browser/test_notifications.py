"""Live notices: players with the event's page open see their table appear the moment the
organiser publishes a round, on a desktop and on a phone, in English and in Russian;
then one opens the list of notices and marks it read.

The site runs in embedded mode here (``embedded_server``): the notices are made by a
Celery task, and the session's daphne has no worker. With ``NOTICE_SCREENSHOTS=<dir>``
every page is also saved there.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# Who watches, on what, in which language.
WATCHERS = [
    ("bob", DESKTOP, "en"),
    ("vera", DESKTOP, "ru"),
    ("dasha", PHONE, "en"),
    ("gleb", PHONE, "ru"),
]


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("NOTICE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"notices-{name}.png"), full_page=False)


@pytest.fixture
def paired_event(alice, make_user, live_server_url):
    """An event of four players with its first round paired (not yet published), and a
    logged-in session for each person; built before Chromium starts."""
    event = create_event(alice, name="Notice Cup", swiss_rounds=3, best_of=3)
    for name, _size, _lang in WATCHERS:
        register(event, user=make_user(name), display_name=name.capitalize())
    start_event(alice, event)
    rnd = pair_next_round(alice, event)
    sessions = {}
    for user in [alice, *(reg.user for reg in event.registrations.all())]:
        client = Client()
        client.force_login(user)
        sessions[user.username] = client.cookies["sessionid"].value
    tables = {
        seat.registration.user.username: (match.table, others)
        for match in rnd.matches.prefetch_related("seats__registration__user")
        for seat in match.seats.all()
        for others in [[s.registration.display_name for s in match.seats.all() if s.pk != seat.pk]]
    }
    return event, sessions, tables


def open_as(browser, base_url: str, session: str, viewport: dict, lang: str) -> Page:
    context = browser.new_context(
        base_url=base_url, viewport=viewport, locale="ru-RU" if lang == "ru" else "en-US"
    )
    context.set_default_timeout(15_000)
    context.add_cookies(
        [
            {"name": "sessionid", "value": session, "url": base_url},
            {"name": "django_language", "value": lang, "url": base_url},
        ]
    )
    return context.new_page()


def test_players_see_a_live_notice_when_a_round_is_published(
    paired_event, embedded_server, browser
):
    event, sessions, tables = paired_event
    pages = {}
    for name, viewport, lang in WATCHERS:
        page = open_as(browser, embedded_server, sessions[name], viewport, lang)
        page.goto(f"/events/{event.slug}/")
        expect(page.locator("[data-live-notices]")).to_have_attribute("data-connected", "on")
        expect(page.locator("[data-notice-count]")).to_be_hidden()  # nothing unread yet
        pages[name] = page

    organiser = open_as(browser, embedded_server, sessions["alice"], DESKTOP, "en")
    organiser.goto(f"/events/{event.slug}/manage/")
    organiser.locator("#publish-round").click()
    expect(organiser.locator(".messages")).to_contain_text("Round published.")
    # The organiser does not play: no notice for her.
    expect(organiser.locator(".live-notice")).to_have_count(0)

    for name, viewport, lang in WATCHERS:
        page = pages[name]
        table, others = tables[name]
        notice = page.locator(".live-notice")
        expect(notice).to_have_count(1)
        expect(notice).to_contain_text("Раунд 1" if lang == "ru" else "Round 1")
        expect(notice).to_contain_text("Notice Cup")
        expect(notice).to_contain_text(str(table))
        expect(notice).to_contain_text(others[0])
        expect(page.locator("[data-notice-count]")).to_have_text("1")
        size = "phone" if viewport is PHONE else "desktop"
        shoot(page, f"live-{size}-{lang}")
        if viewport is PHONE:
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"the notice makes the page {overflow}px wider than a phone"

    # Bob follows his notice to his match, then reads the list and marks it read.
    bob = pages["bob"]
    bob.locator(".live-notice a").click()
    expect(bob).to_have_url(re.compile(rf"/events/{event.slug}/my-match/$"))
    for name, viewport, lang in WATCHERS:
        page = pages[name]
        page.goto("/notifications/")
        expect(page.locator(".notice-item.unread")).to_have_count(1)
        size = "phone" if viewport is PHONE else "desktop"
        shoot(page, f"list-{size}-{lang}")
    bob.get_by_role("button", name="Mark read").click()
    expect(bob.locator(".notice-item.unread")).to_have_count(0)
    expect(bob.locator(".notice-item")).to_have_count(1)
    expect(bob.locator("[data-notice-count]")).to_be_hidden()

    vera = pages["vera"]
    vera.goto("/notifications/settings/")
    expect(vera.locator("input[type=checkbox]")).to_have_count(6)
    shoot(vera, "settings-desktop-ru")
    pages["dasha"].goto("/notifications/settings/")
    shoot(pages["dasha"], "settings-phone-en")
