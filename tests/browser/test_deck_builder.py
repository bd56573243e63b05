"""From the draft to a deck in the browser: the pass line and what a legal deck still
needs in the draft room, the deck builder's columns (a tap moves a card, a drag drops it
in a column), its counts and cost curve, a refused deck's broken rules, and a suggestion
that says why no legal deck exists; on a desktop (1366×900) and a phone (390×844), in
English and Russian.

Pods are made before Chromium starts (Django refuses ORM calls while Playwright runs);
their bots pick inline. With ``DRAFT_SCREENSHOTS=<dir>`` every page is saved there.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.creating import create_pod, quick_pod
from drafting.services.picks import make_pick
from drafting.services.pools import supply_choices
from drafting.services.starting import start_pod
from engine.voskhozhdenie.loader import load_system

from .test_draft_room import log_in, overflow
from .test_draft_seats import shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = (("desktop", DESKTOP), ("phone", PHONE))


def small_pod(user, name: str) -> Pod:
    pod = create_pod(
        user,
        name=name,
        seats_count=4,
        set_codes=["VS1", "VS1"],
        bots_inline=True,
        pick_max_seconds=600,
    )
    return start_pod(user, pod)


def pick_first(pod: Pod, user, picks: int) -> Pod:
    for _ in range(picks):
        pod = Pod.objects.get(pk=pod.pk)
        if pod.status != Pod.Status.DRAFTING:
            break
        seat = Seat.objects.get(pod=pod, user=user)
        pack = draft_core.current_pack(pod.state, seat.number)
        make_pick(user, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])
    return Pod.objects.get(pk=pod.pk)


@pytest.fixture
def pods(bob, live_server_url):
    """Bob mid-draft (3 picks made), Bob in a sealed pod, and Bob after a draft whose pool
    keeps one City only (no legal deck without supplied Cities)."""
    drafting = pick_first(small_pod(bob, "Room table"), bob, 3)
    sealed = quick_pod(bob, kind=Pod.Kind.SEALED)
    short = pick_first(small_pod(bob, "Short of Cities"), bob, 100)
    assert short.status == Pod.Status.BUILDING
    seat = Seat.objects.get(pod=short, user=bob)
    db = load_system(short.game_system)
    pool = list(short.state["pools"][seat.number])
    cities = [c for c in pool if db.card(c).type == "city"]
    state = dict(short.state)
    pools = list(state["pools"])
    city = cities[0] if cities else supply_choices(short)[0]
    pools[seat.number] = [c for c in pool if c not in cities] + [city]
    state["pools"] = pools
    Pod.objects.filter(pk=short.pk).update(state=state)
    return {"drafting": drafting, "sealed": sealed, "short": short}


def fits(page: Page, what: str) -> None:
    assert overflow(page) <= 0, f"{what} is {overflow(page)}px wider than the window"


def column(page: Page, key: str):
    return page.locator(f'.deck-column[data-section="{key}"]')


def count_of(page: Page, key: str) -> int:
    return int(column(page, key).locator("[data-count]").inner_text())


def test_the_draft_room_shows_the_pass_line_and_what_a_deck_needs(pods, new_page):
    pod = pods["drafting"]
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    # A double click picks the card; its highlight is never an error.
    refused: list[str] = []
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    page.goto(f"/draft/{pod.pk}/")
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 2 · pick 4")
    page.wait_for_load_state("load")
    page.locator(".pick-form .dcard").nth(2).dblclick()
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 2 · pick 5")
    page.wait_for_timeout(800)  # a highlight would have gone out by now
    expect(page.locator("ol.pool li")).to_have_count(4)
    assert refused == [], refused
    for language, passing, needs in (
        ("en", "Passing left", "A legal deck needs"),
        ("ru", "Передача налево", "Для легальной колоды нужно"),
    ):
        if language != "en":
            with page.expect_navigation():
                page.select_option("select[name=language]", language)
        for size, viewport in SIZES:
            page.set_viewport_size(viewport)
            page.goto(f"/draft/{pod.pk}/")
            expect(page.locator(".passing")).to_contain_text(passing)
            expect(page.locator(".passing")).to_contain_text(re.compile(r"\(\S+ \d\)"))
            expect(page.locator(".deck-needs")).to_contain_text(needs)
            expect(page.locator(".deck-needs .need")).to_have_count(2)
            shoot(page, f"builder-room-{size}-{language}")
            fits(page, f"the draft room ({size}, {language})")
    assert errors == [], errors


def test_the_deck_builder_moves_cards_by_tap_and_drag_and_refuses_with_rule_numbers(pods, new_page):
    pod = pods["sealed"]
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    page.set_viewport_size(DESKTOP)
    page.goto(f"/draft/{pod.pk}/deck/")
    expect(page.locator(".deck-pool li")).to_have_count(90)
    assert count_of(page, "") == 90 and count_of(page, "main") == 0
    page.wait_for_load_state("load")

    # A tap on a sideboard card puts it in the deck; a tap in the deck takes it out.
    card = column(page, "").locator("li", has=page.locator("[data-move]")).nth(40)
    card_id = card.get_attribute("data-card")
    home = card.get_attribute("data-home")
    card.locator("[data-move]").click()
    moved = column(page, home).locator(f'li[data-card="{card_id}"]')
    expect(moved).to_have_count(1)
    expect(column(page, home).locator("[data-count]")).to_have_text("1")
    expect(page.locator(f'#deck-check [data-count-of="{home}"] strong')).to_have_text("1")
    expect(page.locator("#deck-check .curve")).to_be_visible()

    # Submitting so small a deck is refused with every broken rule and its number.
    page.locator("#submit-deck").click()
    refused = page.locator(".deck-refused")
    expect(refused).to_contain_text("Nothing was saved.")
    expect(refused).to_contain_text("Rule 4.5.5.1:")
    expect(refused).to_contain_text("Rule 4.5.5.3:")
    shoot(page, "builder-refused-desktop-en")
    # The page keeps the deck as it was sent.
    expect(column(page, home).locator(f'li[data-card="{card_id}"]')).to_have_count(1)
    page.wait_for_load_state("load")
    column(page, home).locator(f'li[data-card="{card_id}"] [data-move]').first.click()
    expect(column(page, home).locator("[data-count]")).to_have_text("0")

    # A drag drops a card into any column.
    dragged = column(page, "").locator("li").first
    dragged_id = dragged.get_attribute("data-card")
    box = dragged.bounding_box()
    # Held by its line of details (the name is a button, the menu a select).
    dragged.drag_to(
        column(page, "reinforcement"), source_position={"x": 12, "y": box["height"] - 5}
    )
    expect(column(page, "reinforcement").locator(f'li[data-card="{dragged_id}"]')).to_have_count(1)
    expect(page.locator('#deck-check [data-count-of="reinforcement"] strong')).to_have_text("1")
    value = column(page, "reinforcement").locator(f'li[data-card="{dragged_id}"] select')
    expect(value).to_have_value("reinforcement")

    # The suggestion is legal and is saved as it stands.
    page.locator("#suggest-deck").click()
    expect(page.locator("#deck-check")).to_contain_text("This deck is legal.")
    assert count_of(page, "cities") == 2 and count_of(page, "main") >= 20
    for size, viewport in SIZES:
        page.set_viewport_size(viewport)
        shoot(page, f"builder-suggested-{size}-en")
        fits(page, f"the deck builder ({size})")
    page.set_viewport_size(DESKTOP)
    page.locator("#submit-deck").click()
    expect(page.locator(".messages")).to_contain_text("Deck saved.")
    expect(page.locator(".deck-text")).to_contain_text("Cities")
    assert errors == [], errors


def test_suggest_says_why_no_legal_deck_exists_in_both_languages(pods, new_page):
    pod = pods["short"]
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    for language, headline, missing in (
        ("en", "No legal deck can be built from this pool.", "the pool gives 1 of 2"),
        ("ru", "Из этого пула нельзя собрать легальную колоду.", "в пуле 1 из 2"),
    ):
        if language != "en":
            with page.expect_navigation():
                page.select_option("select[name=language]", language)
        for size, viewport in SIZES:
            page.set_viewport_size(viewport)
            page.goto(f"/draft/{pod.pk}/deck/?suggest=1")
            box = page.locator(".no-deck")
            expect(box).to_contain_text(headline)
            expect(box).to_contain_text("4.5.5.1")
            expect(box).to_contain_text(missing)
            expect(box.locator(".supply-note")).to_be_visible()
            shoot(page, f"builder-no-deck-{size}-{language}")
            fits(page, f"the suggestion that fails ({size}, {language})")
            if size == "desktop":
                shoot(page, f"builder-columns-{size}-{language}")
        page.set_viewport_size(PHONE)
        page.goto(f"/draft/{pod.pk}/deck/")
        shoot(page, f"builder-empty-phone-{language}")
        fits(page, f"the empty builder ({language})")
    assert errors == [], errors


def _touch(cdp, kind: str, x: float | None = None, y: float | None = None) -> None:
    points = [] if x is None else [{"x": x, "y": y, "id": 1, "radiusX": 4, "radiusY": 4}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def _finger(page: Page, cdp, start: dict, end: dict, hold_ms: int, steps: int = 12) -> None:
    """A finger down on ``start``, held ``hold_ms``, moved to ``end`` and lifted (the touch
    events a phone sends; the browser makes its pointer events of them)."""
    _touch(cdp, "touchStart", start["x"], start["y"])
    page.wait_for_timeout(hold_ms)
    for k in range(1, steps + 1):
        x = start["x"] + (end["x"] - start["x"]) * k / steps
        y = start["y"] + (end["y"] - start["y"]) * k / steps
        _touch(cdp, "touchMove", x, y)
        page.wait_for_timeout(16)
    _touch(cdp, "touchEnd")


def test_a_finger_drags_a_card_between_the_sideboard_and_the_deck_and_a_tap_still_moves_it(
    pods, browser, live_server_url
):
    pod = pods["sealed"]
    context = browser.new_context(
        base_url=live_server_url, locale="en-US", viewport=PHONE, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "bob")
    page.goto(f"/draft/{pod.pk}/deck/")
    expect(page.locator(".deck-pool li")).to_have_count(90)
    page.wait_for_load_state("load")
    cdp = context.new_cdp_session(page)

    def centre(locator) -> dict:
        locator.scroll_into_view_if_needed()
        box = locator.bounding_box()
        return {"x": box["x"] + 12, "y": box["y"] + box["height"] - 6}

    # A tap on the card's name still moves it into the deck, and back.
    card = column(page, "").locator("li").nth(3)
    slot, home = card.locator("select").get_attribute("name"), card.get_attribute("data-home")
    card.locator("[data-move]").tap()
    expect(column(page, home).locator(f'select[name="{slot}"]')).to_have_count(1)
    column(page, home).locator(f'li:has(select[name="{slot}"]) [data-move]').tap()
    expect(column(page, "").locator(f'select[name="{slot}"]')).to_have_count(1)
    expect(column(page, home).locator("[data-count]")).to_have_text("0")

    # A quick swipe over a card scrolls the page and leaves the card where it is.
    swiped = column(page, "").locator("li").nth(6)
    swiped_slot = swiped.locator("select").get_attribute("name")
    start = centre(swiped)
    _finger(page, cdp, start, {"x": start["x"], "y": start["y"] - 150}, hold_ms=0)
    page.wait_for_timeout(300)
    expect(column(page, "").locator(f'select[name="{swiped_slot}"]')).to_have_count(1)

    # Held a moment, the card follows the finger into the column it is dropped on.
    for target in ("reinforcement", ""):
        dragged = (column(page, "") if target else column(page, "reinforcement")).locator("li")
        dragged = dragged.first
        dragged_slot = dragged.locator("select").get_attribute("name")
        drop = column(page, target).locator("h2")
        drop.scroll_into_view_if_needed()
        start, drop_box = centre(dragged), drop.bounding_box()
        if not 0 < drop_box["y"] < PHONE["height"]:  # both within the screen the finger reaches
            page.evaluate("(y) => window.scrollBy(0, y)", drop_box["y"] - 200)
            drop_box = drop.bounding_box()
            start = {
                **start,
                "y": dragged.bounding_box()["y"] + dragged.bounding_box()["height"] - 6,
            }
        end = {"x": drop_box["x"] + 40, "y": drop_box["y"] + drop_box["height"] / 2}
        _finger(page, cdp, start, end, hold_ms=450)
        moved = column(page, target).locator(f'select[name="{dragged_slot}"]')
        expect(moved).to_have_count(1)
        expect(moved).to_have_value(target)
        expect(page.locator(".deck-column.drop-here")).to_have_count(0)
        expect(page.locator(".touch-dragging")).to_have_count(0)
        if target:
            expect(page.locator('#deck-check [data-count-of="reinforcement"] strong')).to_have_text(
                "1"
            )
            shoot(page, "builder-touch-dragged-phone-en")
    assert errors == [], errors
    context.close()


@pytest.fixture
def sealed_pod(bob, live_server_url):
    return quick_pod(bob, kind=Pod.Kind.SEALED)


CLIPPED = """els => els.filter(b => b.scrollHeight > b.clientHeight + 1
    || b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim())"""


def test_every_name_in_the_builder_is_whole_a_city_has_no_cost_and_the_pod_is_named(
    sealed_pod, new_page
):
    """No card's name is cut off by its section menu, in the sideboard or the deck; a City
    (no Cost, rule 2.1.2.1) shows an empty cost, not a dot; a quick pod is named by its
    game and its format; on a desktop and a phone, in English and Russian."""
    pod = sealed_pod
    page = new_page()
    log_in(page, "bob")
    for language, title in (
        ("en", f"Voskhozhdenie (Восхождение) · Sealed · pod {pod.pk}"),
        ("ru", f"Восхождение · Силед · стол {pod.pk}"),
    ):
        page.set_viewport_size(DESKTOP)
        page.goto(f"/draft/{pod.pk}/deck/")
        if language != "en":
            with page.expect_navigation():
                page.select_option("select[name=language]", language)
        expect(page.locator(".meta")).to_contain_text(title)
        assert title in page.title()
        for query, what in (("", "sideboard"), ("?suggest=1", "suggested")):
            for size, viewport in SIZES:
                page.set_viewport_size(viewport)
                page.goto(f"/draft/{pod.pk}/deck/{query}")
                expect(page.locator(".deck-pool li")).to_have_count(90)
                names = page.locator(".deck-column .card-move")
                assert names.evaluate_all(CLIPPED) == [], (size, language, what)
                costs = page.locator(".deck-pool .mini-cost").all_inner_texts()
                assert "·" not in costs
                cities = page.locator(
                    ".deck-pool li",
                    has=page.locator("small", has_text="City" if language == "en" else "Город"),
                )
                assert cities.count() >= 2
                for text in cities.locator(".mini-cost").all_inner_texts():
                    assert text.strip() == ""
                shoot(page, f"builder-names-{what}-{size}-{language}")
                fits(page, f"the deck builder ({size}, {language})")


def test_the_submit_bar_keeps_to_the_foot_of_a_phone_screen_and_covers_nothing_at_the_end(
    sealed_pod, new_page
):
    """The "Submit deck" bar is sticky in the deck form: mid-page it sits at the bottom of
    the phone's screen (a full-page screenshot draws it where that screen ended), and at
    the end of the form it is back in its own place, below the last card, covering none."""
    page = new_page()
    log_in(page, "bob")
    page.set_viewport_size(PHONE)
    page.goto(f"/draft/{sealed_pod.pk}/deck/")
    expect(page.locator(".deck-pool li")).to_have_count(90)
    bar = page.locator("#deck-form .pick-bar")
    page.evaluate("window.scrollTo(0, 2000)")
    box = bar.bounding_box()
    assert abs(box["y"] + box["height"] - PHONE["height"]) < 2, box
    page.locator(".deck-pool li").last.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    box = bar.bounding_box()
    last = page.locator(".builder").bounding_box()
    assert box["y"] >= last["y"] + last["height"] - 1, (box, last)
