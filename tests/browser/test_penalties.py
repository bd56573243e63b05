"""A judge issues a game loss from the console; the match is settled and the standings
follow. A game loss in the middle of a best-of-3 is recorded as the match's first game:
the players report the rest, with that game filled in, on a laptop and a phone, in
English and Russian (``PENALTY_SCREENSHOTS=<dir>`` saves the pages)."""

from __future__ import annotations

import os
from pathlib import Path

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


# ---------------------------------------------------------------- a game loss mid-match

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def shoot(page: Page, name: str) -> None:
    """With ``PENALTY_SCREENSHOTS=<dir>``, the whole page as a PNG."""
    folder = os.environ.get("PENALTY_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _best_of_three(alice, judge, make_user) -> tuple[str, int, list[str]]:
    """A best-of-3 Swiss event of two players with accounts, round 1 being played; its
    slug, the match's id and the players' usernames in seat order."""
    from tournaments.models import EventStaff
    from tournaments.services.events import add_staff, create_event
    from tournaments.services.pairing import pair_next_round, publish_round
    from tournaments.services.players import register
    from tournaments.services.starting import start_event

    event = create_event(alice, name="Mid-match Night", swiss_rounds=2, best_of=3)
    add_staff(alice, event, judge, EventStaff.Role.JUDGE)
    for name in ("anya", "boris"):
        register(event, user=make_user(name), display_name=name.capitalize())
    start_event(alice, event)
    match = publish_round(alice, pair_next_round(alice, event)).matches.get()
    seats = [s.registration.user.username for s in match.seats.order_by("seat")]
    return event.slug, match.pk, seats


def _score(match_id: int) -> tuple:
    from tournaments.models import Match

    match = Match.objects.get(pk=match_id)
    games = list(match.games.order_by("number").values_list("winner_seat", flat=True))
    return match.status, games, [s.game_wins for s in match.seats.order_by("seat")]


def test_a_game_loss_in_the_middle_of_a_match_is_the_first_game_of_the_report(
    alice, make_user, db_thread, new_page
):
    judge = db_thread(make_user, "judy")
    slug, match_id, (first, second) = db_thread(_best_of_three, alice, judge, make_user)
    offender, opponent = first, second  # seat 0 is penalised: game 1 goes to seat 1

    page: Page = new_page()
    log_in(page, "judy")
    page.goto(f"/events/{slug}/manage/")
    form = page.locator("#penalties #issue-penalty")
    form.get_by_label("Penalty").select_option(label="Game loss")
    form.get_by_label("Player").select_option(label=offender.capitalize())
    form.get_by_label("Match").select_option(value=str(match_id))
    form.get_by_label("Reason").fill("Arrived 12 minutes late")
    form.get_by_role("button", name="Issue").click()
    expect(page.locator(".messages")).to_contain_text("Penalty issued.")
    log = page.locator("#penalty-log")
    expect(log).to_contain_text(f"Game 1 to {opponent.capitalize()}: 0-1")
    expect(log).to_contain_text("goes on")
    page.goto(f"/events/{slug}/pairings/")
    expect(page.locator("main")).not_to_contain_text("Final")  # still being played

    # The penalised player reports the rest: game 1 is there already, filled in.
    player = new_page()
    log_in(player, offender)
    for language in ("en", "ru"):
        player.set_viewport_size(LAPTOP)
        player.goto(f"/events/{slug}/my-match/")
        if language == "ru":
            with player.expect_navigation():
                player.select_option("select[name=language]", "ru")
        expect(player.locator(".recorded-games")).to_be_visible()
        expect(player.locator("select[name=game_1]")).to_have_value("1")
        shoot(player, f"mid-match-report-{language}-laptop")
        player.set_viewport_size(PHONE)
        overflow = player.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the report page is {overflow}px wider than a phone"
        shoot(player, f"mid-match-report-{language}-phone")
    with player.expect_navigation():
        player.select_option("select[name=language]", "en")
    player.select_option("select[name=game_2]", "0")
    player.select_option("select[name=game_3]", "0")
    player.get_by_role("button", name="Report result").click()
    expect(player.locator(".messages")).to_contain_text("Result reported.")

    other = new_page()
    log_in(other, opponent)
    other.goto(f"/events/{slug}/my-match/")
    other.get_by_role("button", name="Confirm this result").click()
    expect(other.locator(".messages")).to_contain_text("Result confirmed.")
    assert db_thread(_score, match_id) == ("final", [1, 0, 0], [2, 1])

    page.goto(f"/events/{slug}/standings/")
    rows = page.locator("table.standings tbody tr")
    expect(rows.first).to_contain_text(offender.capitalize())  # won 2-1 after the loss
    expect(rows.first.locator(".profile-link")).to_have_attribute("href", f"/players/{offender}/")


# ---------------------------------------------------------------- the log in the reader's language


def _penalised(alice, judge) -> str:
    """A best-of-3 event of four guests, round 1 published: a match loss at table 1, a
    disqualification at table 2 (issued by the judge); the event's slug."""
    from tournaments.models import EventStaff
    from tournaments.services.events import add_staff, create_event
    from tournaments.services.pairing import pair_next_round, publish_round
    from tournaments.services.penalties import issue_penalty, penalty_types
    from tournaments.services.players import register
    from tournaments.services.starting import start_event

    event = create_event(alice, name="Language Night", swiss_rounds=2, best_of=3)
    add_staff(alice, event, judge, EventStaff.Role.JUDGE)
    for name in ("Anya", "Boris", "Vera", "Gleb"):
        register(event, display_name=name, actor=alice)
    start_event(alice, event)
    first, second = publish_round(alice, pair_next_round(alice, event)).matches.order_by("table")
    kinds = {t.effect: t for t in penalty_types(event)}
    offender = first.seats.order_by("seat")[0].registration
    issue_penalty(judge, kinds["match_loss"], offender, "Marked cards", first)
    cheat = second.seats.order_by("seat")[0].registration
    issue_penalty(judge, kinds["disqualification"], cheat, "Collusion")
    return event.slug


def test_the_penalty_log_speaks_the_readers_language(alice, make_user, db_thread, new_page):
    judge = db_thread(make_user, "judy")
    slug = db_thread(_penalised, alice, judge)

    page: Page = new_page()
    log_in(page, "alice")
    for language in ("en", "ru"):
        page.set_viewport_size(LAPTOP)
        page.goto(f"/events/{slug}/manage/")
        if language == "ru":
            with page.expect_navigation():
                page.select_option("select[name=language]", "ru")
        log = page.locator("#penalty-log")
        if language == "en":
            expect(log).to_contain_text("Match settled for")
            expect(log).to_contain_text("dropped")
        else:
            expect(log).to_contain_text("Матч засчитан игроку")
            expect(log).not_to_contain_text("Match settled for")
        log.scroll_into_view_if_needed()
        shoot(page, f"penalty-log-{language}-laptop")
        page.set_viewport_size(PHONE)
        shoot(page, f"penalty-log-{language}-phone")
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")
