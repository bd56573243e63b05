"""The game page and the pushes and table fetches that reach it late (static/js/play.js).

A push older than the table the page shows (sent before the page loaded, or before it
last redrew, and delivered after) fetches nothing, so the table is not redrawn under the
player's hands; the push of a later move is fetched as before. Two moves in quick
succession make two fetches of the table at once: when the earlier one's answer comes
last, it is not drawn over the later table.

The test process pushes to the server's pages through the shared Redis channel layer
(``live_server_url``), as a worker would.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from config import push
from play.models import GameSession
from play.services.acting import apply_action
from play.services.engines import engine_of
from play.services.payloads import _update_message, payloads, session_group
from play.services.starting import create_friend_game, join_game
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Counts the table fetches whose answer the page has read (play.js reads them with
# ``text()``, and decides on each in the promise callback right after).
COUNT_TABLES_READ = """() => {
    window.tablesRead = 0;
    const fetchFirst = window.fetch;
    window.fetch = (...args) => fetchFirst(...args).then(response => {
        const read = response.text.bind(response);
        response.text = () => read().then(text => { window.tablesRead += 1; return text; });
        return response;
    });
}"""


def friends_game(alice, bob) -> int:
    """A running Ascension game of alice and bob, with no clocks."""
    session = create_friend_game(alice, "ascension")
    join_game(bob, session.invite_token)
    return session.pk


def end_turn(session_id: int) -> int:
    """The seat to act ends its turn; the game's seq after it."""
    session = GameSession.objects.get(pk=session_id)
    (seat,) = engine_of(session.system).to_act(session.state)
    assert apply_action(session_id, seat, session.seq, {"type": "end_turn"}).status == "applied"
    return GameSession.objects.get(pk=session_id).seq


def push_of_now(session_id: int) -> list[tuple[str, dict]]:
    """The push the game's present position makes (every seat's view and the public one)."""
    session = GameSession.objects.get(pk=session_id)
    seats = list(session.seats.all())
    data = payloads(session, [*(s.number for s in seats), None], seats)
    return [(session_group(session_id), _update_message(data))]


def open_game(new_page, session_id: int, seq: int):
    page = new_page()
    log_in(page, "alice")
    page.goto(f"/play/{session_id}/")
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    expect(page.locator("body")).to_have_attribute("data-live", "on")  # the socket is open
    return page


def test_a_late_push_of_an_older_move_fetches_nothing(alice, bob, new_page, db_thread):
    session_id = db_thread(friends_game, alice, bob)
    stale = db_thread(push_of_now, session_id)  # the position at seq 0
    assert db_thread(end_turn, session_id) == 1
    page = open_game(new_page, session_id, 1)
    table = re.compile(rf"/play/{session_id}/table/")
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if table.search(r.url) else None)

    push.send(stale)  # delivered late: the page already shows seq 1
    assert db_thread(end_turn, session_id) == 2  # then a later move's push
    expect(page.locator("#play")).to_have_attribute("data-seq", "2")
    # One socket delivers in order: a fetch for the stale push would have come first.
    assert len(fetched) == 1, fetched


def test_a_table_fetched_late_is_not_drawn_over_a_later_one(alice, bob, new_page, db_thread):
    session_id = db_thread(friends_game, alice, bob)
    page = open_game(new_page, session_id, 0)
    page.evaluate(COUNT_TABLES_READ)
    held = []  # the first fetch: its answer, read from the server, given to the page later

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(re.compile(rf"/play/{session_id}/table/"), hold_the_first)
    assert db_thread(end_turn, session_id) == 1
    deadline = time.monotonic() + 10
    while not held:  # the page asked for the table of seq 1: its answer is held back
        assert time.monotonic() < deadline, "the page did not fetch the table"
        page.wait_for_timeout(20)
    assert db_thread(end_turn, session_id) == 2
    expect(page.locator("#play")).to_have_attribute("data-seq", "2")  # the second fetch

    route, answer = held[0]
    assert 'data-seq="1"' in answer.text()
    route.fulfill(response=answer)  # the first answer comes last
    page.wait_for_function("() => window.tablesRead === 2")
    expect(page.locator("#play")).to_have_attribute("data-seq", "2")
    expect(page.locator(".play-panel")).to_have_attribute("data-seq", "2")


def test_a_table_fetch_that_fails_raises_no_script_error_and_the_next_one_draws(
    alice, bob, new_page, db_thread
):
    """The server out of reach for a moment (a restart): the table fetched on a push fails
    quietly, not as an uncaught error of the page; the next push draws the table."""
    session_id = db_thread(friends_game, alice, bob)
    page = open_game(new_page, session_id, 0)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    table = re.compile(rf"/play/{session_id}/table/")
    failed: list[str] = []

    def refuse(route):
        failed.append(route.request.url)
        route.abort("connectionrefused")

    page.route(table, refuse)
    assert db_thread(end_turn, session_id) == 1
    deadline = time.monotonic() + 10
    while not failed:
        assert time.monotonic() < deadline, "the page did not fetch the table"
        page.wait_for_timeout(20)
    page.wait_for_timeout(300)  # the failed fetch's promise settles
    page.unroute(table)
    assert db_thread(end_turn, session_id) == 2
    expect(page.locator("#play")).to_have_attribute("data-seq", "2")
    assert errors == [], errors
