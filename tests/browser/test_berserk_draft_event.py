"""A Berserk Draft event in the browser: a player drafts a pod of eight with seven bots
(three boosters, passed left, right, left), builds a legal deck of 20 to 50 cards from
the pool with the live check of 100.2а, and is paired in round 1 of the Swiss once the
organiser starts the event. The same pages as «Восхождение»'s: what differs comes from
the game's limited kit and decklist service.

As in test_draft_room.py, the pod is made before Chromium starts and its bots pick
inline (no Celery worker runs beside the test server).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from drafting.models import Pod
from drafting.services.creating import create_event_pods
from drafting.services.starting import start_event_pods
from engine.berserk.limited import KIT
from engine.core import rng
from tests.browser.conftest import log_in
from tournaments.services.events import create_event
from tournaments.services.players import register

from .test_draft_room import overflow, pack_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 900}
PICKS = 45  # 3 boosters of 15 cards (BK1)


@pytest.fixture
def berserk_draft(alice, bob, live_server_url):
    event = create_event(
        alice, name="Berserk Draft", game_system="berserk", format="draft", swiss_rounds=2
    )
    register(event, user=bob, display_name="Bob")
    for n in range(1, 8):
        register(event, display_name=f"Bot {n}", actor=alice, is_bot=True)
    (pod,) = create_event_pods(alice, event, bots_inline=True, pick_max_seconds=600)
    start_event_pods(alice, event)
    return event, Pod.objects.get(pk=pod.pk)


def shoot(page: Page, name: str) -> None:
    import os

    folder = os.environ.get("DRAFT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def test_a_berserk_pod_of_eight_goes_into_a_swiss_event(berserk_draft, new_page):
    event, pod = berserk_draft
    page = new_page()
    page.set_viewport_size(DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    page.goto(f"/events/{event.slug}/")
    page.locator("#my-pod").click()
    expect(page).to_have_url(re.compile(rf"/draft/{pod.pk}/$"))
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 3 · pick 1")
    expect(page.locator(".pick-form .dcard")).to_have_count(15)
    # Each face shows its cost once: the crystal (◆ elite, ◇ ordinary) appears once.
    for text in page.locator(".pick-form .dcard").all_inner_texts():
        assert text.count("◆") + text.count("◇") == 1, text
    shoot(page, "berserk-room")

    pool: list[str] = []
    for number in range(1, PICKS + 1):
        expect(page.locator(".pick-form input[name=pick]")).to_have_value(str(number))
        if number % 15 == 1 and number > 1:  # a new booster: the pool first
            page.get_by_role("button", name="Open the booster now").click()
        cards = pack_cards(page)
        assert len(cards) == 15 - (number - 1) % 15, (number, len(cards))
        card = KIT.bot_pick(cards, pool, rng.seed_state(len(pool)))
        page.locator(f".pick-form .dcard[data-card='{card}']").click()
        page.locator(".pick-button").click()
        pool.append(card)

    expect(page).to_have_url(re.compile(rf"/draft/{pod.pk}/deck/$"))
    expect(page.locator(".deck-pool li")).to_have_count(PICKS)
    page.get_by_role("link", name="Suggest a deck").click()
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    page.wait_for_load_state("load")
    shoot(page, "berserk-deck")
    # The check is live: a deck cut below 20 cards breaks 100.2а at once.
    in_deck = ".deck-pool select:has(option[value='deck']:checked)"
    chosen = page.locator(in_deck).count()
    assert 20 <= chosen <= 50
    # A card moved to the sideboard changes column, so the deck's selects are asked
    # afresh each time.
    removed = ""
    for left in range(chosen, 19, -1):
        expect(page.locator(in_deck)).to_have_count(left)
        removed = page.locator(in_deck).first.get_attribute("name") or ""
        page.locator(in_deck).first.select_option("")
    expect(page.locator("#deck-check")).to_contain_text("rule 100.2а")
    page.locator(f".deck-pool select[name='{removed}']").select_option("deck")
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    page.locator("#submit-deck").click()
    expect(page.locator(".messages")).to_contain_text("Deck saved.")
    expect(page.locator(".deck-text")).to_contain_text("Deck")

    organiser = new_page()
    log_in(organiser, "alice")
    organiser.goto(f"/events/{event.slug}/manage/")
    expect(organiser.locator("#pods")).to_contain_text("Finished")
    expect(organiser.locator("#players")).to_contain_text("legal")
    organiser.get_by_role("button", name="Close registration and start").click()
    expect(organiser.locator(".messages")).to_contain_text("The event has started.")
    organiser.locator("#pair-round").click()
    organiser.locator("#publish-round").click()
    expect(organiser.locator(".messages")).to_contain_text("Round published.")

    page.goto(f"/events/{event.slug}/my-match/")
    expect(page.locator("#match-panel")).to_contain_text("Round 1")
    expect(page.locator("#match-panel")).to_contain_text(re.compile(r"Opponent: Bot \d"))
    assert overflow(page) <= 0
    assert errors == [], errors
