"""The event console of a Draft event on a phone: the pod settings' checkbox sits beside
its label, as the event form's do (not alone on a line above it, centred)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE
from tournaments.services.events import create_event
from tournaments.services.players import register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def draft_event(alice, bob, live_server_url):
    """Made before Chromium starts (the test body runs beside its event loop)."""
    event = create_event(alice, name="Berserk Draft", game_system="berserk", format="draft")
    register(event, user=bob, display_name="Bob")
    return event


def test_the_pick_timer_checkbox_sits_beside_its_label(draft_event, open_page):
    event = draft_event
    page, errors = open_page(f"/events/{event.slug}/manage/", user="alice", viewport=PHONE)
    box = page.locator("#pods input[name=timer]").bounding_box()
    label = page.locator("#pods label", has=page.locator("input[name=timer]"))
    text = label.bounding_box()
    assert box is not None and text is not None
    # One line: the label is hardly taller than the box, and the box starts it.
    assert text["height"] < box["height"] * 2.5, (box, text)
    assert box["x"] - text["x"] <= 8 and box["width"] < 30, (box, text)
    assert errors == []


def test_the_add_player_fields_show_their_whole_placeholder_on_a_russian_phone(
    draft_event, new_page
):
    from tests.browser.conftest import log_in

    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, "alice")
    page.context.add_cookies(
        [{"name": "django_language", "value": "ru", "url": page.evaluate("location.origin")}]
    )
    page.goto(f"/events/{draft_event.slug}/manage/")
    for name in ("display_name", "username"):
        field = page.locator(f"#players form input[name={name}]")
        room, needed = field.evaluate(
            """el => {
                const style = getComputedStyle(el);
                const ctx = document.createElement("canvas").getContext("2d");
                ctx.font = style.font;
                const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
                return [el.clientWidth - pad, ctx.measureText(el.placeholder).width];
            }"""
        )
        assert needed <= room, (name, field.get_attribute("placeholder"), needed, room)
