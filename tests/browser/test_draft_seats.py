"""On a phone (360 px): the review before a new booster, a player leaving mid-draft, and
an organiser handing a seat to a bot from the pod's console; the draft room, the console
and the deck page never scroll sideways.

Pods are small (two boosters, four seats) and their bots pick inline (``bots_inline``),
inside the request that changed the pod, since the test server runs no Celery worker.
The pods are made, and the early picks made, before Chromium starts (Django refuses ORM
calls while Playwright runs). With ``DRAFT_SCREENSHOTS=<dir>`` each page is also saved
there as a full-page PNG, to be looked at.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.creating import create_event_pods, create_pod, quick_pod
from drafting.services.picks import make_pick
from drafting.services.starting import start_event_pods, start_pod
from tournaments.models import Event
from tournaments.services.events import create_event
from tournaments.services.players import register

from .test_draft_room import PHONE, log_in, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOOSTERS = ["VS1"] * 2


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("DRAFT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))
        page.screenshot(path=str(Path(folder) / f"{name}-full.png"), full_page=True)


def assert_fits(page: Page, what: str) -> None:
    """No sideways scrolling: not the page, nor the seats table inside its scroll box."""
    assert overflow(page) <= 0, f"{what} is {overflow(page)}px wider than a phone"
    hidden = page.eval_on_selector_all(
        ".table-wrap:has(table.seats)", "els => els.map(e => e.scrollWidth - e.clientWidth)"
    )
    assert all(width <= 0 for width in hidden), f"the seats table of {what} scrolls: {hidden}"


def phone_page(new_page, username: str) -> tuple[Page, list[str]]:
    page = new_page()
    page.set_viewport_size(PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, username)
    return page, errors


# ---------------------------------------------------------------- review time


@pytest.fixture
def review_pod(bob, live_server_url):
    """Bob and three bots, pick timer on, a minute of review: Bob has made 14 picks and
    holds the last card of the first booster."""
    pod = create_pod(
        bob,
        name="Review table",
        seats_count=4,
        set_codes=list(BOOSTERS),
        bots_inline=True,
        pick_max_seconds=600,
        review_seconds=60,
    )
    pod = start_pod(bob, pod)
    for _ in range(14):
        pod = Pod.objects.get(pk=pod.pk)
        seat = Seat.objects.get(pod=pod, user=bob)
        pack = draft_core.current_pack(pod.state, seat.number)
        number = draft_core.pick_number(pod.state, seat.number)
        make_pick(bob, pod, number, pack["cards"][0])
    return Pod.objects.get(pk=pod.pk)


def test_a_new_booster_opens_behind_a_review_of_the_pool_which_the_player_may_cut_short(
    review_pod, new_page
):
    page, errors = phone_page(new_page, "bob")
    page.goto(f"/draft/{review_pod.pk}/")
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 2 · pick 15")
    expect(page.locator("[data-review-until]")).to_have_count(0)
    page.locator(".pick-form .dcard").click()
    page.locator(".pick-button").click()

    # The second booster: the countdown over the pool, the pack folded away.
    review = page.locator("[data-review-until]")
    expect(review).to_be_visible()
    expect(review).to_contain_text("Booster 2 of 2 opens in")
    expect(review.locator(".clock")).to_have_text(re.compile(r"^(1:00|0:[3-5]\d)$"))
    expect(page.locator(".pick-form")).to_be_hidden()
    expect(page.locator("ol.pool li")).to_have_count(15)
    expect(page.locator("ol.pool li").first).to_be_visible()
    shoot(page, "room-review")
    assert_fits(page, "the draft room in review")
    # A reload keeps the review (the server renders it while it lasts).
    page.reload()
    expect(page.locator("[data-review-until]")).to_be_visible()
    expect(page.locator(".pick-form")).to_be_hidden()

    page.get_by_role("button", name="Open the booster now").click()
    expect(page.locator("[data-review-until]")).to_have_count(0)
    expect(page.locator(".pick-form")).to_be_visible()
    expect(page.locator(".pick-title")).to_have_text("Booster 2 of 2 · pick 1")
    expect(page.locator(".pick-form .dcard")).to_have_count(15)
    shoot(page, "room-pack")
    assert_fits(page, "the draft room")
    # Its second pick has no review.
    page.locator(".pick-form .dcard").first.click()
    page.locator(".pick-button").click()
    expect(page.locator(".pick-title")).to_have_text("Booster 2 of 2 · pick 2")
    expect(page.locator("[data-review-until]")).to_have_count(0)
    expect(page.locator(".pick-form")).to_be_visible()
    assert errors == [], errors


# ---------------------------------------------------------------- seats handed to bots


@pytest.fixture
def event_pod(alice, bob, charlie, live_server_url):
    """A Draft event's pod: Bob, Charlie and two bots, two boosters each, timer on."""
    event = create_event(alice, name="Thursday Draft", format="draft", swiss_rounds=2)
    # A fixed seed: the same boosters every run (a bot can still meet a pool that allows
    # no legal deck, a known weakness this test is not about).
    Event.objects.filter(pk=event.pk).update(seed=2026)
    event.refresh_from_db()
    register(event, user=bob)
    register(event, user=charlie)
    for n in (1, 2):
        register(event, display_name=f"Bot {n}", actor=alice, is_bot=True)
    (pod,) = create_event_pods(
        alice, event, boosters_per_player=2, bots_inline=True, pick_max_seconds=600
    )
    start_event_pods(alice, event)
    return Pod.objects.get(pk=pod.pk)


def seat_row(page: Page, name: str):
    # By the seat's own name: another row may name it too ("waiting on charlie (seat 2)").
    return page.locator(f'#manage-seats tr[data-name="{name}"]')


def test_the_organiser_hands_a_seat_to_a_bot_and_a_player_leaves_mid_draft(event_pod, new_page):
    organiser, organiser_errors = phone_page(new_page, "alice")
    organiser.goto(f"/draft/{event_pod.pk}/manage/")
    expect(organiser.locator("#manage-seats .badge").first).to_have_text("Drafting")
    shoot(organiser, "console-drafting")
    assert_fits(organiser, "the pod's console")

    # Charlie never picks: the organiser hands the seat to a bot, after confirming.
    charlie = seat_row(organiser, "charlie")
    organiser.once("dialog", lambda dialog: dialog.dismiss())
    charlie.get_by_role("button", name="Hand to a bot").click()
    expect(charlie.get_by_role("button", name="Hand to a bot")).to_be_visible()
    expect(charlie.locator("td").nth(2)).to_have_text("0")
    organiser.once("dialog", lambda dialog: dialog.accept())
    charlie.get_by_role("button", name="Hand to a bot").click()
    expect(organiser).to_have_url(re.compile(rf"/draft/{event_pod.pk}/manage/$"))
    expect(organiser.locator(".messages")).to_contain_text("A bot picks for that seat now.")
    expect(charlie).to_contain_text("handed to a bot")
    expect(charlie.get_by_role("button", name="Hand to a bot")).to_have_count(0)
    # The bot picked Charlie's packs at once (the first, and any passed on): they move on.
    expect(charlie.locator("td").nth(2)).to_have_text(re.compile(r"^[1-9]\d*$"))

    # Bob drafts a little, then leaves; the first time he thinks better of it.
    page, errors = phone_page(new_page, "bob")
    page.goto(f"/draft/{event_pod.pk}/")
    for number in (1, 2, 3):
        expect(page.locator(".pick-title")).to_have_text(f"Booster 1 of 2 · pick {number}")
        page.locator(".pick-form .dcard").first.click()
        page.locator(".pick-button").click()
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 2 · pick 4")
    shoot(page, "room-before-leaving")
    assert_fits(page, "the draft room")
    prompts: list[str] = []

    def answer(dialog, accept: bool) -> None:
        prompts.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.locator("#leave-draft").click()
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 2 · pick 4")
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.locator("#leave-draft").click()
    # The bots picked the rest of the draft inside the leave: the room, or deck building
    # if the draft's end reached the page first.
    expect(page).to_have_url(re.compile(rf"/draft/{event_pod.pk}/(deck/)?$"))
    assert len(prompts) == 2 and all("A bot will pick and build your deck" in p for p in prompts)
    page.goto(f"/draft/{event_pod.pk}/")
    expect(page.locator("#leave-draft")).to_have_count(0)
    # With every seat now a bot's, the draft and the deck building run to the end.
    expect(page.locator("#overview .badge").first).to_have_text("Finished")
    shoot(page, "room-after-leaving")
    assert_fits(page, "the draft room after leaving")

    organiser.goto(f"/draft/{event_pod.pk}/manage/")
    bob = seat_row(organiser, "bob")
    expect(bob).to_contain_text("left: bot picks")
    for row in (bob, seat_row(organiser, "charlie")):
        expect(row.locator("td").nth(2)).to_have_text(str(15 * len(BOOSTERS)))
        expect(row).to_contain_text("deck built by a bot")
    shoot(organiser, "console-finished")
    assert_fits(organiser, "the pod's console")

    # Bob's seat has its deck, built by the bot, and it says why.
    page.goto(f"/draft/{event_pod.pk}/deck/")
    expect(page.locator("main")).to_contain_text(
        "You left the draft, so a bot built this deck for your seat."
    )
    expect(page.locator(".deck-text")).to_contain_text("Cities")
    shoot(page, "deck-finished")
    assert_fits(page, "the deck page")
    assert errors == [] and organiser_errors == [], (errors, organiser_errors)


# ---------------------------------------------------------------- deck building


@pytest.fixture
def sealed_pod(bob, live_server_url):
    """Bob and seven bots open six boosters each (Sealed): deck building at once."""
    return quick_pod(bob, kind=Pod.Kind.SEALED)


def test_sealed_deck_building_fits_a_phone(sealed_pod, new_page):
    page, errors = phone_page(new_page, "bob")
    page.goto(f"/draft/{sealed_pod.pk}/deck/")
    expect(page.get_by_role("heading", name="Build your deck")).to_be_visible()
    expect(page.locator(".deck-pool li")).to_have_count(6 * 15)
    assert_fits(page, "deck building")
    page.get_by_role("link", name="Suggest a deck").click()
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    shoot(page, "deck-building")
    page.locator(".deck-pool li").nth(12).scroll_into_view_if_needed()
    shoot(page, "deck-building-list")
    assert_fits(page, "deck building with a suggestion")
    page.locator("#submit-deck").click()
    expect(page.locator(".messages")).to_contain_text("Deck saved.")
    expect(page.locator(".deck-text")).to_contain_text("Cities")
    assert_fits(page, "the saved deck")
    assert errors == [], errors


DESKTOP = {"width": 1366, "height": 900}


def test_deck_building_and_the_console_read_in_both_languages(sealed_pod, new_page):
    """The deck's parts, their targets and the supplied cards come from the game's kit,
    in the page's language: desktop and phone, English and Russian."""
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    for language, main_deck, supplied in (
        ("en", "Main", "Cities supplied by the organiser"),
        ("ru", "Основная колода", "Города от организатора"),
    ):
        if language != "en":  # the header's language menu, as a person switches
            with page.expect_navigation():
                page.select_option("select[name=language]", language)
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(f"/draft/{sealed_pod.pk}/deck/?suggest=1")
            counts = page.locator("#deck-check .deck-counts")
            expect(counts).to_contain_text(main_deck)
            expect(counts).to_contain_text("20+")
            shoot(page, f"deck-{size}-{language}")
            if size == "phone":
                assert_fits(page, f"deck building ({language})")
            page.goto(f"/draft/{sealed_pod.pk}/manage/")
            expect(page.locator("#supplied-cards h2")).to_have_text(supplied)
            shoot(page, f"console-{size}-{language}")
    assert errors == [], errors


@pytest.fixture
def berserk_pod(bob, live_server_url):
    return quick_pod(bob, kind=Pod.Kind.SEALED, game_system="berserk")


def test_a_berserk_sealed_pool_reads_in_both_languages(berserk_pod, new_page):
    """Another game's cards on the same deck page: elements as colours, crystals, lives
    and strikes from its kit, in English and Russian, on a phone and a desktop."""
    pod = berserk_pod
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    for language, deck in (("en", "Deck"), ("ru", "Колода")):
        if language != "en":
            with page.expect_navigation():
                page.select_option("select[name=language]", language)
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(f"/draft/{pod.pk}/deck/?suggest=1")
            expect(page.locator("#deck-check .deck-counts")).to_contain_text(deck)
            expect(page.locator("#deck-check")).to_contain_text("✓")
            expect(page.locator(".deck-pool li")).to_have_count(90)
            shoot(page, f"berserk-deck-{size}-{language}")
            if size == "phone":
                assert_fits(page, f"a Berserk pool ({language})")
    assert errors == [], errors
