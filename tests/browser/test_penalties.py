"""A judge issues a game loss from the console; the match is settled and the standings
follow."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _event_with_a_match(alice, judge) -> tuple[str, str, int]:
    """A best-of-1 Swiss event of two guests, round 1 published; its slug, the guest to
    penalise and the match's id."""
    from tournaments.models import EventStaff
    from tournaments.services.events import add_staff, create_event
    from tournaments.services.pairing import pair_next_round, publish_round
    from tournaments.services.players import register
    from tournaments.services.starting import start_event

    event = create_event(alice, name="Penalty Night", swiss_rounds=2, best_of=1)
    add_staff(alice, event, judge, EventStaff.Role.JUDGE)
    for name in ("Anya", "Boris"):
        register(event, display_name=name, actor=alice)
    start_event(alice, event)
    rnd = publish_round(alice, pair_next_round(alice, event))
    match = rnd.matches.get()
    return event.slug, "Anya", match.pk


def test_a_judge_issues_a_game_loss_and_the_standings_change(alice, make_user, db_thread, new_page):
    judge = db_thread(make_user, "judy")
    slug, offender, match_id = db_thread(_event_with_a_match, alice, judge)

    page: Page = new_page()
    log_in(page, "judy")
    page.goto(f"/events/{slug}/manage/")
    section = page.locator("#penalties")
    form = section.locator("#issue-penalty")
    form.get_by_label("Penalty").select_option(label="Game loss")
    form.get_by_label("Player").select_option(label=offender)
    form.get_by_label("Match").select_option(value=str(match_id))
    form.get_by_label("Reason").fill("Arrived 12 minutes late")
    form.get_by_role("button", name="Issue").click()

    expect(page.locator(".messages")).to_contain_text("Penalty issued.")
    log = page.locator("#penalty-log")
    expect(log).to_contain_text("Arrived 12 minutes late")
    expect(log).to_contain_text("Game 1 to Boris")

    page.goto(f"/events/{slug}/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows.first).to_contain_text("Boris")
    expect(rows.first).to_contain_text("3")
    expect(rows.nth(1)).to_contain_text("Anya")
