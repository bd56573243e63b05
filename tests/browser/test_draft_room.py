"""A player drafts a whole pod of a Draft event against 7 bots on a phone, builds a legal
deck, and is paired in round 1 once the organiser starts the event.

The pod is made and started before Chromium starts (Django refuses ORM calls while
Playwright runs). The daphne server has no Celery worker here, so the pod's bots pick
inline (``bots_inline``), inside the request of the player's pick; the product's pods
use Celery tasks for that (tests/drafting/test_pods.py covers them).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from drafting.models import Pod
from drafting.services.creating import create_event_pods
from drafting.services.starting import start_event_pods
from engine.core import rng
from engine.voskhozhdenie import draftbots as bots
from engine.voskhozhdenie import loader
from tests.browser.conftest import log_in
from tournaments.services.events import create_event
from tournaments.services.players import register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
PICKS = 60  # 4 boosters of 15 cards (VS1)


@pytest.fixture
def draft_event(alice, bob, live_server_url):
    event = create_event(alice, name="Draft Night", format="draft", swiss_rounds=3)
    register(event, user=bob, display_name="Bob")
    for n in range(1, 8):
        register(event, display_name=f"Bot {n}", actor=alice, is_bot=True)
    (pod,) = create_event_pods(alice, event, bots_inline=True, pick_max_seconds=600)
    start_event_pods(alice, event)
    return event, Pod.objects.get(pk=pod.pk)


def overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def choose(pack: list[str], pool: list[str]) -> str:
    """The drafter follows the bots' plan (pure functions, no database): stay in two
    colours and keep the Cities of those colours."""
    db = loader.load_system("voskhozhdenie")
    cards = [db.card(c) for c in pack]
    return bots.bot_pick(cards, [db.card(c) for c in pool], rng.seed_state(len(pool)))


def pack_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(".pick-form .dcard", "els => els.map(e => e.dataset.card)")


def test_a_player_drafts_against_bots_builds_a_deck_and_is_paired(draft_event, new_page):
    event, pod = draft_event
    page = new_page()
    page.set_viewport_size(PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    log_in(page, "bob")

    page.goto(f"/events/{event.slug}/")
    page.locator("#my-pod").click()
    expect(page).to_have_url(re.compile(rf"/draft/{pod.pk}/$"))
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 4 · pick 1")
    expect(page.locator(".pick-form .dcard")).to_have_count(15)
    expect(page.locator("#seat-panel .timer .clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(page.locator("body")).to_have_attribute("data-live", "on")
    assert any(re.search(rf"/ws/draft/{pod.pk}/$", url) for url in sockets), sockets
    assert overflow(page) <= 0, f"the draft room is {overflow(page)}px wider than a phone"

    # A tap highlights a card; a reload restores the pack, the pick and the highlight.
    second = page.locator(".pick-form .dcard").nth(1)
    card_id = second.get_attribute("data-card")
    with page.expect_response(lambda r: r.url.endswith("/highlight/")) as highlighted:
        second.click()
    assert highlighted.value.status == 204
    page.reload()
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 4 · pick 1")
    expect(page.locator(f".pick-form input[value='{card_id}']")).to_be_checked()

    # The organiser watches the pod's console: it follows the picks live, without cards.
    organiser = new_page()
    log_in(organiser, "alice")
    organiser.goto(f"/draft/{pod.pk}/manage/")
    bob_row = organiser.locator('#manage-seats tr[data-name="Bob"]')
    expect(bob_row.locator("td").nth(2)).to_have_text("0")
    expect(organiser.locator("body")).to_have_attribute("data-live", "on")

    pool: list[str] = []
    for number in range(1, PICKS + 1):
        expect(page.locator(".pick-form input[name=pick]")).to_have_value(str(number))
        if number % 15 == 1 and number > 1:  # a new booster: review time over the pool first
            expect(page.locator("[data-review-until]")).to_be_visible()
            page.get_by_role("button", name="Open the booster now").click()
        cards = pack_cards(page)
        assert len(cards) == 15 - (number - 1) % 15, (number, len(cards))
        card = choose(cards, pool)
        page.locator(f".pick-form .dcard[data-card='{card}']").click()
        page.locator(".pick-button").click()
        pool.append(card)
        if number == 3:
            expect(bob_row.locator("td").nth(2)).to_have_text("3")
            assert organiser.locator(".dcard").count() == 0
        if number == 20:  # the picks so far, sortable, survive the live refreshes
            expect(page.locator("ol.pool li")).to_have_count(20)
            page.get_by_role("button", name="Cost").click()
            costs = page.eval_on_selector_all("ol.pool li", "els => els.map(e => +e.dataset.cost)")
            assert costs == sorted(costs)
            page.get_by_role("button", name="Pick order").click()

    # The last pick ends the draft: deck building.
    expect(page).to_have_url(re.compile(rf"/draft/{pod.pk}/deck/$"))
    expect(page.get_by_role("heading", name="Build your deck")).to_be_visible()
    expect(page.locator(".deck-pool li")).to_have_count(PICKS)
    expect(page.locator(".timer .clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    assert overflow(page) <= 0, f"deck building is {overflow(page)}px wider than a phone"

    page.get_by_role("link", name="Suggest a deck").click()
    expect(page).to_have_url(re.compile(r"\?suggest=1$"))
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    # The live check is bound once htmx has run (deferred scripts, then "load").
    page.wait_for_load_state("load")
    # The check is live: taking a City out breaks rule 4.5.5.1 at once.
    index = page.eval_on_selector_all(
        ".deck-pool select", "els => els.findIndex(e => e.value === 'cities')"
    )
    # By its name: a card moved out of the deck changes column, so its place in the page.
    name = page.locator(".deck-pool select").nth(index).get_attribute("name")
    city = page.locator(f'.deck-pool select[name="{name}"]')
    city.select_option("")
    expect(page.locator("#deck-check")).to_contain_text("rule 4.5.5.1")
    city.select_option("cities")
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    page.locator("#submit-deck").click()
    expect(page.locator(".messages")).to_contain_text("Deck saved.")
    expect(page.locator(".pod-head .badge")).to_have_text("Finished")
    expect(page.locator(".deck-text")).to_contain_text("Cities")

    # The organiser starts the event and pairs round 1.
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
    assert errors == [], errors
