"""An organiser runs a round in the console; a visitor's standings page follows live."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Anya", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ilya"]
# (games won by the first player, by the second, drawn games) for tables 1-4.
RESULTS = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (1, 1, 1)]
# Three wins (3 points), one draw (1 point each), three losses.
POINTS_AFTER_ROUND_1 = ["3", "3", "3", "1", "1", "0", "0", "0"]
# An idle spell on the open standings page, longer than channels-redis's 5 s BZPOPMIN.
IDLE_MS = 8_000


def log_in(page: Page, username: str) -> None:
    page.goto("/")
    page.locator("header").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(f"pw-{username}")
    page.locator("main").get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name=f"Log out ({username})")).to_be_visible()


def create_event(page: Page, name: str) -> str:
    page.locator("header").get_by_role("link", name="New event").click()
    expect(page.get_by_role("heading", name="New event")).to_be_visible()
    page.locator("#id_name").fill(name)
    page.locator("#id_structure").select_option("swiss")
    page.locator("#id_swiss_rounds").fill("3")
    page.locator("#id_top_cut").select_option("0")
    page.locator("#id_best_of").select_option("3")
    page.locator("#id_max_players").fill("8")
    page.get_by_role("button", name="Create event").click()
    expect(page).to_have_url(re.compile(r"/events/[\w-]+/manage/$"))
    expect(page.locator(".messages")).to_contain_text("Event created.")
    return re.search(r"/events/([\w-]+)/manage/", page.url).group(1)


def assert_one_open_socket(sockets: list[dict]) -> None:
    summary = [(ws["url"], "closed" if ws["closed"] else "open") for ws in sockets]
    assert len(sockets) == 1 and not sockets[0]["closed"], (
        "the standings page's live socket did not stay open (the page reconnects after a "
        f"close; look for 'Exception inside application' in the daphne log): {summary}"
    )
    assert re.search(r"/ws/events/\d+/$", sockets[0]["url"]), summary


def flow_message(page: Page, text: str) -> None:
    expect(page.locator(".messages")).to_contain_text(text)


def test_standings_follow_results_live(alice, live_server_url, new_page):
    organiser = new_page()
    log_in(organiser, "alice")
    slug = create_event(organiser, "Live Standings Cup")
    expect(organiser.locator(".event-head h1")).to_have_text("Live Standings Cup")
    expect(organiser.locator(".event-head .meta")).to_contain_text("Best of 3")

    players = organiser.locator("#players")
    for count, name in enumerate(PLAYERS, start=1):
        players.get_by_placeholder("Name", exact=True).fill(name)
        players.get_by_role("button", name="Add player").click()
        expect(players.get_by_role("heading", level=2)).to_have_text(f"Players ({count})")
    for name in PLAYERS:
        expect(players.get_by_role("link", name=name, exact=True)).to_be_visible()
    # The organiser steps away to the list of events (a page without a live socket).
    organiser.locator("header").get_by_role("link", name="Events").click()
    expect(organiser.get_by_role("heading", name="Events")).to_be_visible()

    # An anonymous visitor opens the standings before the event starts, and keeps it open.
    visitor = new_page()
    page_errors: list[str] = []
    visitor.on("pageerror", lambda exc: page_errors.append(str(exc)))
    navigations: list[str] = []
    visitor.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame == visitor.main_frame else None,
    )
    sockets: list[dict] = []

    def watch(ws) -> None:
        state = {"url": ws.url, "frames": [], "closed": False}
        ws.on("framereceived", lambda payload: state["frames"].append(payload))
        ws.on("close", lambda _ws: state.update(closed=True))
        sockets.append(state)

    visitor.on("websocket", watch)
    standings_path = f"/events/{slug}/standings/"
    visitor.goto(standings_path)
    standings = visitor.locator("#standings")
    expect(standings).to_contain_text("Standings appear once the event has started.")
    expect(visitor.locator("body")).to_have_attribute("data-live", "on", timeout=10_000)
    visitor.evaluate("window.__marker = 1")
    points = standings.locator("table.standings tbody tr td:nth-child(3)")

    # Nothing happens for a while, as between two results at a real event. This is
    # not a synchronisation sleep: the page's socket, the only one open, must survive
    # an idle spell longer than the channel layer's 5-second blocking read of Redis.
    visitor.wait_for_timeout(IDLE_MS)
    assert_one_open_socket(sockets)

    organiser.get_by_role("link", name="Live Standings Cup").click()
    expect(organiser.locator(".event-head h1")).to_have_text("Live Standings Cup")
    organiser.locator(".event-head").get_by_role("link", name="Console").click()
    organiser.get_by_role("button", name="Close registration and start").click()
    flow_message(organiser, "The event has started.")
    expect(organiser.locator(".event-head .badge")).to_have_text("Running")
    # Starting the event makes the (all-zero) standings appear on the open page.
    expect(points).to_have_text(["0"] * 8)

    organiser.locator("#pair-round").click()
    flow_message(organiser, "Round paired: review it, then publish.")
    expect(organiser.locator("#review tbody tr")).to_have_count(4)
    organiser.locator("#publish-round").click()
    flow_message(organiser, "Round published.")

    results = organiser.locator("#results")
    expect(results.get_by_role("heading", level=2)).to_contain_text("Round 1")
    expect(results.locator("form.result-form")).to_have_count(4)

    for table, (wins_0, wins_1, draws) in enumerate(RESULTS, start=1):
        row = organiser.locator("#results tbody tr").nth(table - 1)
        expect(row.locator("td").first).to_have_text(str(table))
        row.locator("details.per-game summary").click()  # the per-game counts
        form = row.locator("form.result-form")
        form.locator("input[name=wins_0]").fill(str(wins_0))
        form.locator("input[name=wins_1]").fill(str(wins_1))
        form.locator("input[name=draws]").fill(str(draws))
        form.get_by_role("button", name="Save").click()
        flow_message(organiser, "Result saved.")
        if table < len(RESULTS):
            expect(
                organiser.locator("#results tbody tr").nth(table - 1).locator(".badge")
            ).to_have_text("Final")

    # The last result completes the round: the console moves on ...
    expect(organiser.locator("#results")).to_have_count(0)
    expect(organiser.locator("#pair-round")).to_be_visible()

    # ... and the visitor's page shows the new standings without being reloaded.
    expect(points).to_have_text(POINTS_AFTER_ROUND_1, timeout=10_000)
    expect(standings).to_contain_text("After 1 completed round ")
    expect(standings.locator("tbody tr").first.locator("td").nth(3)).to_have_text("1-0-0")
    assert visitor.evaluate("window.__marker") == 1, "the standings page was reloaded"
    expect(visitor).to_have_url(re.compile(re.escape(standings_path) + "$"))
    assert len(navigations) == 1, f"the standings page navigated: {navigations}"
    assert page_errors == [], f"JavaScript errors on the standings page: {page_errors}"
    # The update came over the one websocket the page opened, which stayed open: the
    # page did not merely catch up after reconnecting (it re-fetches everything then).
    assert_one_open_socket(sockets)
    frames = sockets[0]["frames"]
    assert any("standings" in str(frame) for frame in frames), f"no standings notice: {frames}"
