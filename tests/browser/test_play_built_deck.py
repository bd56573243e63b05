""" "Play this deck" from the deck builder: a Berserk draft deck of 20-odd cards (legal in
draft, 100.2а, not in constructed) is refused while it breaks a rule, on the builder with
the rule's number, and played against a bot once it is legal; a friend's table shows its
invitation link; on a desktop (1366×900) and a phone (390×844), in English and Russian.

The pod is drafted before Chromium starts (Django refuses ORM calls while Playwright
runs); its bot picks inline. With ``DRAFT_SCREENSHOTS=<dir>`` every page is saved there.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.creating import create_pod
from drafting.services.picks import make_pick
from drafting.services.starting import start_pod

from .test_draft_room import log_in, overflow
from .test_draft_seats import shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = (("desktop", DESKTOP), ("phone", PHONE))


@pytest.fixture
def drafted(bob, live_server_url):
    """Bob's Berserk draft, drafted to the end (45 cards): deck building."""
    pod = start_pod(
        bob,
        create_pod(
            bob,
            name="Thursday draft",
            game_system="berserk",
            seats_count=2,
            bots_inline=True,
            pick_max_seconds=600,
        ),
    )
    for _ in range(100):
        pod = Pod.objects.get(pk=pod.pk)
        if pod.status != Pod.Status.DRAFTING:
            break
        seat = Seat.objects.get(pod=pod, user=bob)
        pack = draft_core.current_pack(pod.state, seat.number)
        make_pick(bob, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    pod = Pod.objects.get(pk=pod.pk)
    assert pod.status == Pod.Status.BUILDING
    return pod


def fits(page: Page, what: str) -> None:
    assert overflow(page) <= 0, f"{what} is {overflow(page)}px wider than the window"


def test_play_this_deck_from_the_builder_against_a_bot_and_a_friend(drafted, new_page):
    pod = drafted
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    page.set_viewport_size(DESKTOP)
    page.goto(f"/draft/{pod.pk}/deck/")
    page.wait_for_load_state("load")
    expect(page.locator("#play-deck")).to_contain_text("Draft deck rules")

    # An empty deck is refused on the builder, with the rule broken; no table is made.
    page.locator("#play-deck-bot").click()
    refused = page.locator(".deck-refused")
    expect(refused).to_contain_text("This deck cannot be played yet")
    expect(refused).to_contain_text("No game was created.")
    expect(refused).to_contain_text("Rule 100.2")
    assert re.search(rf"/draft/{pod.pk}/deck/play/$", page.url)
    shoot(page, "play-deck-refused-desktop-en")

    # The suggestion (24 cards of the pool: draft, not constructed) plays a bot at once.
    page.goto(f"/draft/{pod.pk}/deck/?suggest=1")
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    for language in ("en", "ru"):
        if language != "en":
            with page.expect_navigation():
                page.select_option("select[name=language]", language)
            page.goto(f"/draft/{pod.pk}/deck/?suggest=1")
            expect(page.locator("#play-deck")).to_contain_text("Сыграть этой колодой")
        for size, viewport in SIZES:
            page.set_viewport_size(viewport)
            page.locator("#play-deck").scroll_into_view_if_needed()
            shoot(page, f"play-deck-builder-{size}-{language}")
            fits(page, f"the builder with Play this deck ({size}, {language})")
    page.set_viewport_size(PHONE)
    page.locator("#play-deck-bot").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("main")).to_contain_text("Бот (")
    shoot(page, "play-deck-table-phone-ru")
    fits(page, "the table (phone, ru)")
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")
    page.set_viewport_size(DESKTOP)
    expect(page.locator("main")).to_contain_text("Bot (")
    expect(page.locator(".built-deck")).to_contain_text("Your Draft deck · Thursday draft")
    shoot(page, "play-deck-table-desktop-en")

    # With a friend: the table waits, its invitation link shown.
    page.goto(f"/draft/{pod.pk}/deck/?suggest=1")
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    page.locator("#play-deck-friend").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("input.invite")).to_have_value(re.compile(r"/play/join/"))
    shoot(page, "play-deck-friend-desktop-en")
    assert errors == [], errors


def test_play_offers_a_format_for_a_pasted_list(bob, new_page, live_server_url):
    page = new_page()
    log_in(page, "bob")
    for language in ("en", "ru"):
        if language != "en":
            with page.expect_navigation():
                page.select_option("select[name=language]", language)
        for size, viewport in SIZES:
            page.set_viewport_size(viewport)
            page.goto("/play/")
            choice = page.locator("#new-berserk select[name=format]")
            expect(choice.locator("option")).to_have_count(3)
            expect(choice).to_have_value("constructed")
            choice.scroll_into_view_if_needed()
            shoot(page, f"play-format-{size}-{language}")
            fits(page, f"/play/ ({size}, {language})")
