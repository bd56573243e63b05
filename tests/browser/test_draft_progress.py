"""The seats table of a draft and the progress pushes that reach it late (static/js/draft.js);
the pick clock of a new pack (static/js/gauntlet.js).

The server sends a pod's progress at most once per interval, the last one offered going
out at its end: a page drawn from the pod's present state can then hear the progress of
an earlier pick. Such a push must not turn the table back (a seat showed 4 picks on the
console of a finished draft); a later one is shown as before.

The test process pushes to the server's pages through the shared Redis channel layer
(``live_server_url``), as a worker would.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from config import push
from drafting import draft as draft_core
from drafting.models import Pod, Seat
from drafting.services.creating import create_pod
from drafting.services.messages import pod_group, progress_message
from drafting.services.picks import make_pick
from drafting.services.starting import start_pod
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def progress_now(pod_id: int) -> dict:
    pod = Pod.objects.get(pk=pod_id)
    return progress_message(pod, pod.seats.all())


def pick_first(pod_id: int, user) -> None:
    pod = Pod.objects.get(pk=pod_id)
    seat = Seat.objects.get(pod=pod, user=user)
    pack = draft_core.current_pack(pod.state, seat.number)
    make_pick(user, pod, draft_core.pick_number(pod.state, seat.number), pack["cards"][0])


def started_pod(bob) -> int:
    """Bob and three bots that pick inline, two boosters."""
    pod = create_pod(bob, name="Late news", seats_count=4, set_codes=["VS1"] * 2, bots_inline=True)
    return start_pod(bob, pod).pk


def cells(page) -> list[str]:
    return page.locator("table.seats .p-picks").all_inner_texts()


# Every figure the seats table shows, in order, from now on.
WATCH_THE_TABLE = """() => {
    window.shown = [];
    const table = document.querySelector("table.seats");
    const read = () => window.shown.push(
        [...table.querySelectorAll(".p-picks")].map(cell => cell.textContent).join(","));
    new MutationObserver(read).observe(table, {subtree: true, childList: true, characterData: true});
}"""


def test_a_late_progress_push_of_an_earlier_pick_does_not_turn_the_seats_table_back(
    bob, live_server_url, new_page, db_thread
):
    pod_id = db_thread(started_pod, bob)
    db_thread(pick_first, pod_id, bob)
    stale = db_thread(progress_now, pod_id)  # after pick 1
    for _ in range(4):
        db_thread(pick_first, pod_id, bob)
    now = db_thread(progress_now, pod_id)  # after pick 5
    page = new_page()
    log_in(page, "bob")
    page.goto(f"/draft/{pod_id}/")
    expect(page.locator("body")).to_have_attribute("data-live", "on")  # the socket is open
    shown = [str(row[0]) for row in now["rows"]]
    assert cells(page) == shown and shown != [str(row[0]) for row in stale["rows"]]

    page.evaluate(WATCH_THE_TABLE)
    push.send([(pod_group(pod_id), stale)])  # delivered late: the page shows pick 5
    later = {**now, "rows": [[row[0] + 1, *row[1:]] for row in now["rows"]]}
    push.send([(pod_group(pod_id), later)])  # then a later pick's progress
    # One socket delivers in order: once the later one shows, the stale one was read.
    expect(page.locator("table.seats .p-picks").first).to_have_text(str(now["rows"][0][0] + 1))
    assert cells(page) == [str(row[0] + 1) for row in now["rows"]]
    going_back = ",".join(str(row[0]) for row in stale["rows"])
    assert going_back not in page.evaluate("window.shown")


# After the next pick, the pick clock as it reads two frames after the new pack is drawn.
CLOCK_AFTER_THE_NEXT_PACK = """() => {
    const area = document.getElementById("pack-area");
    const before = area.querySelector(".pick-title").textContent;
    window.clockAfter = new Promise(resolve => {
        new MutationObserver((_, watch) => {
            const title = area.querySelector(".pick-title");
            if (!title || title.textContent === before) return;
            watch.disconnect();
            requestAnimationFrame(() => requestAnimationFrame(() =>
                resolve(area.querySelector(".pick-timer .clock").textContent)));
        }).observe(area, {childList: true, subtree: true, characterData: true});
    });
}"""


# How often the pick clock is written in 1.5 seconds.
COUNT_CLOCK_WRITES = """() => new Promise(resolve => {
    let writes = 0;
    const clock = document.querySelector(".pick-timer .clock");
    const watch = new MutationObserver(changes => { writes += changes.length; });
    watch.observe(clock, {childList: true, characterData: true, subtree: true});
    setTimeout(() => { watch.disconnect(); resolve(writes); }, 1500);
})"""


def timed_pod(bob) -> int:
    """Bob and three bots that pick inline, ten minutes a pick."""
    pod = create_pod(
        bob,
        name="Against the clock",
        seats_count=4,
        set_codes=["VS1"] * 2,
        bots_inline=True,
        pick_max_seconds=600,
    )
    return start_pod(bob, pod).pk


def test_the_pick_clock_of_a_new_pack_shows_its_time_at_once(
    bob, live_server_url, new_page, db_thread
):
    """Not "--:--" until the next second's tick."""
    pod_id = db_thread(timed_pod, bob)
    page = new_page()
    log_in(page, "bob")
    page.goto(f"/draft/{pod_id}/")
    expect(page.locator("body")).to_have_attribute("data-live", "on")
    expect(page.locator(".pick-timer .clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    page.evaluate(CLOCK_AFTER_THE_NEXT_PACK)
    page.locator(".pick-form .dcard").first.click()
    page.locator(".pick-button").click()
    expect(page.locator(".pick-title")).to_have_text("Booster 1 of 2 · pick 2")
    assert re.fullmatch(r"\d+:\d\d", page.evaluate("() => window.clockAfter"))
    # And the clock is written once a second, not on every frame by its own echo.
    writes = page.evaluate(COUNT_CLOCK_WRITES)
    assert 1 <= writes <= 3, writes
