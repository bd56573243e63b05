"""The end of a casual game and its replay, in a browser: alice concedes an Ascension game
against a bot, the end screen names the winner and offers a rematch, another game and the
replay; the replay steps through the recorded moves on the game's own table with its
controls (first, back, play and pause, forward, last, the slider); the rematch starts a
new game against the same bot at once.

The game's first moves are made before the browser starts (through the worker's task, as
the bot's are). With ``PLAY_SCREENSHOTS=<dir>`` the end screen and the replay are saved
there, desktop (1366×900) and phone (390×844), in English and Russian.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from engine.ascension.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.starting import create_bot_game
from tests.browser.conftest import DESKTOP, PHONE, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page: Page, name: str) -> None:
    screenshot(page, f"replay-{name}")


def _bots(session: GameSession) -> GameSession:
    for _ in range(500):
        session = GameSession.objects.get(pk=session.pk)
        if session.status != GameSession.Status.RUNNING or 0 in SYSTEM.to_act(session.state):
            return session
        tasks.bot_move.apply(args=(session.pk, session.seq))
    raise AssertionError("the bot did not stop")


@pytest.fixture
def started(alice):
    """alice's Ascension game against the heuristic bot, a dozen moves in, her turn."""
    session = _bots(create_bot_game(alice, "ascension", "heuristic"))
    for _ in range(12):
        action = SYSTEM.legal_actions(session.state, 0)[0]
        assert tasks.apply_action.apply(args=(session.pk, 0, session.seq, action)).get()
        session = _bots(session)
    assert session.status == GameSession.Status.RUNNING and session.seq >= 8
    return session


def test_alice_concedes_sees_the_end_screen_replays_the_game_and_asks_for_a_rematch(
    started, live_server_url, open_page
):
    session_id = started.pk
    page, errors = open_page(f"/play/{session_id}/", "alice")
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmation of a concession
    expect(page.locator("#play")).to_have_attribute("data-status", "running")
    page.get_by_role("button", name="Concede").click()

    # The end screen: the winner by name, how it ended, what comes next; nobody to act.
    end = page.locator(".play-end")
    expect(end).to_be_visible()
    expect(end.locator("h2")).to_have_text("Game over")
    expect(end).to_contain_text("Winner: Bot (heuristic)")
    expect(end).to_contain_text("alice conceded.")
    expect(page.locator(".play-seat .badge", has_text="to act")).to_have_count(0)
    for name in ("Rematch", "Play again", "Watch the replay"):
        expect(
            end.get_by_role("button", name=name).or_(end.get_by_role("link", name=name))
        ).to_be_visible()
    log = page.locator("details.play-log")
    expect(log).not_to_have_attribute("open", "")
    log.locator("summary").click()
    expect(log.locator("li[value]").first).to_be_visible()
    shoot(page, "end-desktop-en")
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0, f"the end screen is {overflow(page)}px wider than a phone"
    shoot(page, "end-phone-en")
    with page.expect_navigation():
        page.select_option("select[name=language]", "ru")
    expect(end.get_by_role("button", name="Реванш")).to_be_visible()
    assert overflow(page) <= 0
    shoot(page, "end-phone-ru")
    page.set_viewport_size(DESKTOP)
    shoot(page, "end-desktop-ru")
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")

    # "Play again": the new-game form of this game, against one bot.
    end.get_by_role("link", name="Play again").click()
    expect(page).to_have_url(re.compile(r"/play/\?.*system=ascension"))
    form = page.locator("#new-ascension")
    expect(form.locator("select[name=bots]")).to_have_value("1")
    page.go_back()

    # The replay: the same table, stepped with the controls.
    page.locator(".play-end").get_by_role("link", name="Watch the replay").click()
    expect(page).to_have_url(re.compile(rf"/play/{session_id}/replay/$"))
    total = int(page.locator("#replay").get_attribute("data-total"))
    where = page.locator(".replay-where")
    controls = page.locator("[data-replay-controls]")
    expect(where).to_contain_text(f"Move {total} of {total}")
    expect(page.locator("#replay .play-table.asc")).to_be_visible()
    expect(page.locator("#replay .play-end")).to_contain_text("Bot (heuristic)")
    shoot(page, "replay-last-desktop-en")
    controls.get_by_role("link", name="First move").click()
    expect(where).to_contain_text("Before the first move")
    expect(page).to_have_url(re.compile(r"\?step=0$"))
    expect(page.locator("#replay .play-end")).to_have_count(0)
    controls.get_by_role("link", name="Forward").click()
    expect(where).to_contain_text(f"Move 1 of {total}")
    controls.get_by_role("link", name="Forward").click()
    expect(where).to_contain_text(f"Move 2 of {total}")
    controls.get_by_role("link", name="Back").click()
    expect(where).to_contain_text(f"Move 1 of {total}")
    expect(page.locator("#replay .play-log li[value]")).to_have_count(1)
    controls.get_by_role("button", name="Play").click()
    expect(where).to_contain_text(f"Move 3 of {total}", timeout=8000)
    controls.get_by_role("button", name="Pause").click()
    stopped = page.locator("#replay").get_attribute("data-step")
    page.wait_for_timeout(1600)
    assert page.locator("#replay").get_attribute("data-step") == stopped
    slider = page.locator("#replay-step")
    slider.press("Home")
    for _ in range(5):
        slider.press("ArrowRight")
    expect(where).to_contain_text(f"Move 5 of {total}")
    expect(page).to_have_url(re.compile(r"\?step=5$"))
    shoot(page, "replay-step-desktop-en")
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0, f"the replay is {overflow(page)}px wider than a phone"
    shoot(page, "replay-step-phone-en")
    with page.expect_navigation():
        page.select_option("select[name=language]", "ru")
    expect(where).to_contain_text(f"Действие 5 из {total}")
    controls.get_by_role("link", name="Последнее действие").click()
    expect(where).to_contain_text(f"Действие {total} из {total}")
    assert overflow(page) <= 0
    shoot(page, "replay-last-phone-ru")
    page.set_viewport_size(DESKTOP)
    shoot(page, "replay-last-desktop-ru")
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")

    # A step that is not in the game: a clear page, not a server error.
    page.goto(f"/play/{session_id}/replay/?step={total + 5}")
    expect(page.locator("h1")).to_have_text("No such move")

    # The rematch: the same table, started at once against the same bot.
    page.goto(f"/play/{session_id}/")
    page.locator(".play-end").get_by_role("button", name="Rematch").click()
    expect(page).to_have_url(re.compile(r"/play/(\d+)/$"))
    new_id = int(page.url.rstrip("/").split("/")[-1])
    assert new_id != session_id
    expect(page.locator("#play")).to_have_attribute("data-status", "running")
    expect(page.locator(".play-seat")).to_have_count(2)
    expect(page.locator(".play-seat").nth(1)).to_contain_text("Bot (heuristic)")
    assert not errors, errors
