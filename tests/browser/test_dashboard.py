"""The staff dashboard on a 360-pixel phone: it fits, draws its charts, refreshes its
panels by itself, and an error opens to its traceback.

Django refuses ORM calls in the thread where Playwright's event loop runs, so the data
added while the page is open is written from one helper thread.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from dashboard import services as dashboard_services
from tests.dashboard.helpers import bot_game, drafting_pod, running_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def busy_site(alice, make_user, live_server_url):
    """Built before Chromium starts: an event, a pod, a game, an error, and a staff user."""
    make_user("sam", is_staff=True)
    event = running_event(alice, name="Phone Open")
    pod = drafting_pod(alice)
    bot_game(alice, actions=3)
    dashboard_services.record_error(
        {
            "logger": "django.request",
            "source": "request",
            "method": "GET",
            "path": "/events/" + "very-long-path-segment/" * 8,
            "status_code": 500,
            "message": "Internal Server Error: /events/",
            "exception": "RuntimeError: something broke while rendering the standings",
            "traceback": "Traceback (most recent call last):\n"
            + '  File "x.py", line 1, in f\n' * 40
            + "RuntimeError: "
            + "an-unbroken-very-long-word-" * 12,
            "fingerprint": "phone",
        }
    )
    return event, pod


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def log_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.locator("main").get_by_role("button", name="Log in").click()


def test_the_dashboard_fits_a_phone_draws_charts_and_refreshes_itself(
    busy_site, new_page, db_thread, alice
):
    event, pod = busy_site
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "sam", "pw-sam")
    page.get_by_role("link", name="Dashboard").click()
    expect(page.get_by_role("heading", name="Staff dashboard")).to_be_visible()
    page.goto("/staff/?every=2")

    expect(page.locator('[data-figure="events-running"]')).to_have_text("1")
    expect(page.locator(f'#panel-events [data-event="{event.slug}"]')).to_be_visible()
    expect(page.locator('[data-figure="pods-drafting"]')).to_have_text("1")
    expect(page.locator(f'#panel-pods [data-pod="{pod.pk}"]')).to_contain_text("/480")
    expect(page.locator('[data-figure="games-running"]')).to_have_text("1")
    expect(page.locator('[data-figure="errors-last-hour"]')).to_have_text("1")
    assert overflow(page) <= 0, f"the dashboard is {overflow(page)}px wider than a phone"

    # The charts are drawn, inside the screen, with this minute's actions as a bar.
    charts = page.locator("#panel-activity svg.chart")
    expect(charts).to_have_count(2)
    for i in range(2):
        box = charts.nth(i).bounding_box()
        assert box and box["width"] > 250 and box["x"] >= 0 and box["x"] + box["width"] <= 360
    heights = (
        page.locator("#panel-activity svg.chart")
        .first.locator("rect.bar")
        .evaluate_all("bars => bars.map(b => b.getBBox().height)")
    )
    assert len(heights) == 60 and heights[-1] > 0

    # New work appears without reloading the page: the panels poll.
    page.evaluate("window.__kept = true")
    db_thread(lambda: running_event(alice, name="Second Open"))
    expect(page.locator('[data-figure="events-running"]')).to_have_text("2", timeout=30_000)
    assert page.evaluate("window.__kept") is True  # the same page, not a reload
    assert overflow(page) <= 0

    # An error opens to its page, which fits too.
    page.locator("#panel-errors [data-error] a").first.click()
    expect(page.get_by_role("heading", name="Traceback")).to_be_visible()
    expect(page.locator("main")).to_contain_text("something broke while rendering the standings")
    assert overflow(page) <= 0, f"the error page is {overflow(page)}px wider than a phone"


def test_a_player_cannot_open_the_dashboard(busy_site, new_page):
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "alice", "pw-alice")
    expect(page.get_by_role("link", name="Dashboard")).to_have_count(0)
    response = page.goto("/staff/")
    assert response.status == 403
