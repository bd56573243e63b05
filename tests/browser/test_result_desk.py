"""The organiser's result desk in a browser: one click enters a result, the per-game
boxes open behind a toggle, an earlier round's result is corrected after a preview, and
the create-event form shows only the fields that apply; on a laptop (1366×900) and a
phone (390×844), in English and Russian, never scrolling sideways.

The event (eight players, round 1 played, round 2 published) is made before Chromium
starts (Django refuses ORM calls while Playwright runs). With
``RESULT_DESK_SCREENSHOTS=<dir>`` each page is saved there as a full-page PNG.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from engine.core import registry
from tests.tournaments.factories import play_round
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import register
from tournaments.services.starting import start_event

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
NAMES = ["ana", "ben", "cleo", "dmitri", "eve", "fyodor", "gala", "hugo"]


def shoot(page: Page, name: str, focus: str) -> None:
    """The whole page, and the screen with ``focus`` scrolled to its top."""
    folder = os.environ.get("RESULT_DESK_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
        page.locator(focus).first.evaluate("el => el.scrollIntoView()")
        page.screenshot(path=str(Path(folder) / f"{name}-view.png"))


def overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.fixture
def desk_event(alice, make_user, live_server_url):
    """Eight players; round 1 played (the first seat won 2-0), round 2 being played.
    Returns the event and round 2's table 1 names, in seat order."""
    event = create_event(alice, name="Desk Open", swiss_rounds=3, best_of=3)
    for name in NAMES:
        register(event, user=make_user(name), display_name=name)
    event = start_event(alice, event)
    first = play_round(alice, event)
    second = publish_round(alice, pair_next_round(alice, event))
    table_one = second.matches.get(table=1)
    live = [s.registration.display_name for s in table_one.seats.order_by("seat")]
    earlier = first.matches.get(table=1)
    done = [s.registration.display_name for s in earlier.seats.order_by("seat")]
    return event, live, done, earlier.pk


def test_result_desk_and_create_form(desk_event, new_page):
    event, live, done, earlier_pk = desk_event
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "alice")
    console = f"/events/{event.slug}/manage/"

    for language in ("en", "ru"):
        page.set_viewport_size(LAPTOP)
        page.goto(console)
        if language == "ru":
            with page.expect_navigation():
                page.select_option("select[name=language]", "ru")
        row = page.locator("#results tbody tr").first
        buttons = row.locator(".quick-results button")
        expect(buttons).to_have_count(8)  # 2-0, 2-1, 1-2, 0-2, 1-1, draw, two no-shows
        if language == "en":
            expect(buttons.first).to_have_text(f"{live[0]} 2–0")
            row.get_by_role("button", name=f"{live[1]} 2–1").click()
            expect(page.locator(".messages")).to_contain_text("Result saved.")
            row = page.locator("#results tbody tr").first
            expect(row.locator("button.current")).to_have_text(f"{live[1]} 2–1")
        per_game = row.locator("details.per-game")
        per_game.locator("summary").click()
        expect(per_game.locator("input[name=wins_0]")).to_be_visible()
        expect(per_game.locator("label").first).to_contain_text(live[0])
        shoot(page, f"console-{language}-laptop", "#results")
        page.set_viewport_size(PHONE)
        assert overflow(page) <= 0, f"the console is {overflow(page)}px wider than a phone"
        shoot(page, f"console-{language}-phone", "#results")

        # correct round 1, table 1: the second player won after all
        page.set_viewport_size(LAPTOP)
        page.locator("#correct select[name=correct]").select_option(str(earlier_pk))
        with page.expect_navigation():
            page.locator(".correct-pick button").click()
        quick = page.locator("#correct .quick-results")
        with page.expect_navigation():
            quick.locator("button").nth(3 if language == "en" else 0).click()  # 0-2, then back
        preview = page.locator("#correction-preview")
        expect(preview).to_be_visible()
        expect(preview.locator("table.correction-standings")).to_contain_text(done[1])
        expect(preview.locator("table.correction-later")).to_contain_text(done[0])
        expect(preview.locator(".msg.notice")).to_be_visible()
        shoot(page, f"correction-{language}-laptop", "#correct")
        page.set_viewport_size(PHONE)
        assert overflow(page) <= 0, f"the preview is {overflow(page)}px wider than a phone"
        shoot(page, f"correction-{language}-phone", "#correction-preview")
        if language == "en":
            expect(preview).to_contain_text("Later rounds keep the pairings they were played with.")
            page.locator("#confirm-correction").click()
            expect(page.locator(".messages")).to_contain_text("Result corrected")
            expect(page.locator("#audit")).to_contain_text("correction of a completed round")

        # the create-event form: only what applies
        page.set_viewport_size(LAPTOP)
        page.goto("/events/new/")
        form = page.locator("form[data-event-form]")
        expect(form.locator("fieldset legend")).to_have_count(5)
        reset = form.locator("input[name=grand_final_reset]")
        bank = form.locator("input[name=time_bank_minutes]")
        expect(reset).to_be_hidden()
        expect(bank).to_be_hidden()
        form.locator("select[name=structure]").select_option("double_elim")
        expect(reset).to_be_visible()
        expect(form.locator("input[name=swiss_rounds]")).to_be_hidden()
        form.locator("input[name=play_online]").check()
        expect(bank).to_be_visible()
        shoot(page, f"event-form-{language}-laptop", "h1")
        page.set_viewport_size(PHONE)
        assert overflow(page) <= 0, f"the form is {overflow(page)}px wider than a phone"
        shoot(page, f"event-form-{language}-phone", "#section-structure")
        form.locator("select[name=structure]").select_option("swiss")
        expect(reset).to_be_hidden()
        # Each game offers its own formats; players per game shows only for pods.
        game, fmt = form.locator("select[name=game_system]"), form.locator("select[name=format]")
        seats = form.locator("select[name=players_per_game]")
        game.select_option("berserk")
        offered = [f.key for f in registry.get("berserk").formats]
        expect(fmt).to_have_value(offered[0])
        shown = "os => os.filter(o => !o.hidden && !o.disabled).map(o => o.value)"
        assert fmt.locator("option").evaluate_all(shown) == offered
        expect(seats).to_be_hidden()
        game.select_option("tactics")
        fmt.select_option("ffa")
        expect(seats).to_be_visible()
        seats.select_option("4")
        shoot(page, f"event-form-pods-{language}-phone", "#section-advanced")
        fmt.select_option("duel")
        expect(seats).to_be_hidden()
        expect(seats).to_have_value("2")  # what a duel needs, though hidden
        if language == "en":
            expect(page.locator("html")).to_have_attribute("lang", re.compile("^en"))
    assert errors == []


# Each row of the players' table: how many of its cells end above or below the row (a
# cell out of line draws its border apart from the others').
RAGGED_ROWS = (
    "rows => rows.filter(r => [...r.cells].some("
    "c => Math.abs(c.getBoundingClientRect().bottom - r.getBoundingClientRect().bottom) > 1"
    ")).length"
)


@pytest.fixture
def finished_cup(alice, make_user, live_server_url):
    """A finished single elimination of four: the console's players' table has no buttons
    left in its last column."""
    from tests.tournaments.factories import make_event

    event, _ = make_event(
        alice, players=4, name="Done Cup", structure="single_elim", swiss_rounds=0
    )
    play_round(alice, event)
    play_round(alice, event)
    return event


def test_the_players_table_keeps_its_rows_straight_once_the_event_is_over(finished_cup, new_page):
    page = new_page()
    log_in(page, "alice")
    for size in (LAPTOP, PHONE):
        page.set_viewport_size(size)
        page.goto(f"/events/{finished_cup.slug}/manage/")
        expect(page.locator("#players tbody tr")).to_have_count(4)
        if size == LAPTOP:  # on a phone each row is a card (see the test below)
            assert page.locator("#players tbody tr").evaluate_all(RAGGED_ROWS) == 0
        expect(page.locator("#players form[action$='/add-player/']")).to_have_count(0)


def test_on_a_phone_each_player_is_a_card_with_the_actions_on_their_own_line(desk_event, new_page):
    event, _live, _done, _pk = desk_event
    page = new_page()
    log_in(page, "alice")
    page.set_viewport_size(PHONE)
    page.goto(f"/events/{event.slug}/manage/")
    for language in ("en", "ru"):
        if language == "ru":
            with page.expect_navigation():
                page.select_option("select[name=language]", "ru")
        rows = page.locator("#players tbody tr")
        expect(rows).to_have_count(8)
        expect(page.locator("#players thead")).not_to_be_in_viewport()
        for i in (0, 7):
            row = rows.nth(i)
            row.scroll_into_view_if_needed()
            card = row.bounding_box()
            name = row.locator("td").first.bounding_box()
            actions = row.locator("td.player-actions").bounding_box()
            assert actions["y"] >= name["y"] + name["height"] - 1  # a line of their own
            assert actions["width"] > card["width"] * 0.8  # the card's full width
            for button in row.locator("td.player-actions button").all():
                expect(button).to_be_in_viewport(ratio=1)
        assert overflow(page) <= 0
        page.locator("#players").evaluate("el => el.scrollIntoView()")
        shoot(page, f"players-{language}-phone", "#players")
        page.set_viewport_size(LAPTOP)
        expect(page.locator("#players thead")).to_be_visible()
        assert page.locator("#players tbody tr").evaluate_all(RAGGED_ROWS) == 0
        shoot(page, f"players-{language}-laptop", "#players")
        page.set_viewport_size(PHONE)
