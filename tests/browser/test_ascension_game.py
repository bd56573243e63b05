"""Two people play a 2-player online game of Ascension to its natural end, each in their
own Chromium context, on the Ascension table (``templates/play/ascension/table.html``).

Every move goes the way it goes on the site: a click on one of the table's action buttons
posts it (play.js, fetch, 202), the server queues ``play.tasks.apply_action``, a Celery
worker applies it (``play.services.acting.apply_action``) and the push redraws both
pages. The test never touches the game's state: it only clicks, choosing the button the way a simple
player would (the first button of the best kind: make the pending choice, play a card,
use a Construct, fight, buy, end the turn).

The worker: the session's daphne (``conftest.py``) has none in Redis mode, and a worker
process on the Redis queue would share it with every other test process on that Redis
database (``make test`` runs two), so this test starts its own daphne in embedded mode (no
``REDIS_URL``): one process on the test database whose in-memory broker feeds its own
embedded Celery worker (``config.embedded``): the default way to run the site.

To keep it short the game is dealt with the engine's ``honor_pool`` setting (a house rule
in the session's config, docs/ascension.md) at 2 instead of 60: with seed 10 and the plan
above that is a whole game of 32 moves over 2 rounds (plays, acquisitions, Monsters
defeated, a reshuffle at each player's second end of turn), which ends in a 5-5 tie won by
the player who took a turn later (A-41, A-44). The embedded worker takes up to a second to
pick up each queued move (kombu's in-memory transport polls once a second), so a move
costs about a second here, and the 60 honor of the rulebook (about 400 moves) would take
minutes.
"""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from play.models import GameSession
from play.services.reading import replay_state
from play.services.starting import create_friend_game, join_game
from tests.browser.conftest import DESKTOP, PHONE, log_in, posted_actions, shoot_shared_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 10
POOL = 2  # config["honor_pool"]; the rulebook's pool for 2 players is 60
MAX_MOVES = 400
# The players' plan: the first button of the best kind.
PRIORITY = {"choose": 0, "play": 1, "activate": 2, "defeat": 3, "acquire": 4, "end_turn": 5}


@pytest.fixture
def ascension_game(alice, bob, live_server_url):
    session = create_friend_game(alice, "ascension", time_bank=None)
    session.seed = SEED
    session.config = {**session.config, "honor_pool": POOL}  # dealt when bob joins
    session.save(update_fields=["seed", "config"])
    session = join_game(bob, session.invite_token)
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    assert session.state["pool"] == session.state["pool_start"] == POOL
    return session


def _final(session_id: int):
    session = GameSession.objects.get(pk=session_id)
    log = list(session.actions.order_by("seq").values_list("seq", "seat", "action"))
    return session, log, replay_state(session)


def _seq(page: Page) -> int:
    return int(page.locator("#play").get_attribute("data-seq"))


def shoot(page: Page, name: str) -> None:
    """With ``PLAY_SCREENSHOTS=<dir>``: the table as it is seen (a phone whole)."""
    shoot_shared_table(page, f"ascension-{name}")


# The viewer's hand ends above the bar's top on a desktop's first screen (what it is short
# of, in px; positive means under the bar), and the bar's height.
HAND_UNDER_BAR = """() => {
  window.scrollTo(0, 0);
  const hand = document.querySelector(".tb-player.mine [data-zone=hand]");
  const bar = document.querySelector(".tb-dock");
  if (!hand || !bar) { return [0, 0]; }
  const h = hand.getBoundingClientRect(), b = bar.getBoundingClientRect();
  return [h.bottom - b.top, b.height];
}"""


def assert_hand_above_the_bar(page: Page) -> float:
    """However tall the bar grows (a prompt of several lines), the hand stays on the
    desktop's first screen just above it (tablefit.js, decision 0065). The bar's height."""
    # The bar is measured again once it has changed size after a redraw.
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(f"() => ({HAND_UNDER_BAR})()[0] <= 0.5", timeout=3_000)
    under, height = page.evaluate(HAND_UNDER_BAR)
    assert under <= 0.5, f"the hand ends {under:.0f}px under the top of a {height:.0f}px bar"
    return height


def test_two_players_play_an_ascension_game_to_its_end_through_the_worker(
    ascension_game, embedded_server, db_thread, browser
):
    session_id = ascension_game.pk
    pages: dict[int, Page] = {}
    errors: list[str] = []
    for seat, name in ((0, "alice"), (1, "bob")):
        context = browser.new_context(base_url=embedded_server, locale="en-US")
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.set_viewport_size(PHONE if seat else DESKTOP)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, name)
        page.goto(f"/play/{session_id}/")
        pages[seat] = page

    for seat, page in pages.items():
        table = page.locator(".play-table.asc")
        expect(table.locator(".asc-row .asc-card")).to_have_count(6)
        for pile in ("Mystic", "Heavy Infantry", "Cultist"):
            expect(table.locator(".asc-piles")).to_contain_text(pile)
        expect(table.locator(".asc-pool")).to_have_text(str(POOL))
        expect(table.locator(".asc-player")).to_have_count(2)
        expect(
            table.locator(f".asc-player.mine[data-seat='{seat}'] .asc-hand .asc-card")
        ).to_have_count(5)
        expect(table.locator(".asc-hand")).to_have_count(1)  # only your own hand is shown
        expect(table.locator(".asc-player.mine .asc-deck")).to_have_text("5")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        # Cards drawn as cards: cost and text on each card of the row, honor where printed.
        first = table.locator(".asc-row .asc-card").first
        expect(first.locator(".tb-name")).not_to_be_empty()
        expect(first.locator(".gc-body .gc-kind")).to_have_count(1)
        # Acting: the buttons are on the cards they are about (the hand's Play buttons).
        if page.locator(".asc-actions").count():
            expect(table.locator(".asc-hand .asc-card.can-act").first).to_be_visible()
        if not seat:  # a desktop's first screen holds the table: the hand above the bar
            page.evaluate("window.scrollTo(0, 0)")
            hand = table.locator(".tb-player.mine [data-zone=hand]").bounding_box()
            bar = table.locator(".tb-dock").bounding_box()
            assert hand and bar
            assert hand["y"] + hand["height"] <= DESKTOP["height"] - bar["height"], (hand, bar)
        shoot(page, f"{'phone' if seat else 'desktop'}-en-start")

    clicked: list[tuple[int, int, dict]] = []
    seq = _seq(pages[0])
    started = time.monotonic()
    while True:
        for page in pages.values():  # both tables show the same position
            expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        assert_hand_above_the_bar(pages[0])  # a desktop's first screen after each move
        if pages[0].locator(".play-result").count():
            break
        acting = [seat for seat, page in pages.items() if page.locator(".asc-actions").count()]
        assert len(acting) == 1, f"at seq {seq} the buttons are on seats {acting}"
        (seat,) = acting
        page = pages[seat]
        values = posted_actions(page, ".asc-actions")
        choice = min(range(len(values)), key=lambda k: PRIORITY[json.loads(values[k])["type"]])
        button = page.locator(".asc-actions form.act button").nth(choice)
        with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as posted:
            button.click()
        assert posted.value.status == 202, posted.value.text()  # queued for the worker
        clicked.append((seq, seat, json.loads(values[choice])))
        seq += 1
        assert len(clicked) < MAX_MOVES, "the game did not end"
        if len(clicked) == 6:
            for s_, p_ in pages.items():
                expect(p_.locator("#play")).to_have_attribute("data-seq", str(seq))
                shoot(p_, f"{'phone' if s_ else 'desktop'}-en-move6")
    elapsed = time.monotonic() - started

    session, log, replayed = db_thread(_final, session_id)
    assert session.status == GameSession.Status.FINISHED
    # Every move in the log is a click, applied by the worker in the order clicked, and the
    # seed, the config and that log rebuild the final state (no one else changed it).
    assert log == [(s, seat, action) for s, seat, action in clicked]
    assert replayed == session.state
    state = session.state
    assert state["pool"] == 0 and state["ending"] and state["finished"]
    assert state["players"][0]["turns"] == state["players"][1]["turns"]  # a whole round, A-41
    scores = state["scores"]
    (winner,) = session.result["winners"]
    # the most honor wins; a tie goes to the player who took a turn later.
    later = (state["first"] + 1) % 2
    assert winner == (max((0, 1), key=lambda s: (scores[s], s == later)))
    for viewer, page in pages.items():
        result = page.locator(".play-result")
        expect(result).to_contain_text("Game over")
        expect(result).to_contain_text(f"seat {winner + 1}")
        final = page.locator(".asc-final")
        expect(final).to_contain_text("Final honor")
        for seat, name in ((0, "alice"), (1, "bob")):  # by name, the viewer as "you"
            you = " (you)" if seat == viewer else ""
            expect(final).to_contain_text(f"{name}{you} {scores[seat]}")
        expect(page.locator(".asc-actions")).to_have_count(0)
    shoot(pages[0], "desktop-en-final")
    assert not errors
    print(f"{len(clicked)} moves in {elapsed:.1f} s ({elapsed / len(clicked) * 1000:.0f} ms each)")


def _to_a_banish_prompt(session_id: int) -> int:
    """Seed 10, the rulebook's pool: both play by ``PRIORITY`` until seat 0 is asked which
    card to banish (A-23), a prompt of several lines (its text, where from, "you may choose
    none", the button). The seq to act at."""
    from engine.ascension.game import SYSTEM
    from play.services.acting import apply_action

    for _ in range(MAX_MOVES):
        session = GameSession.objects.get(pk=session_id)
        pending = session.state["pending"]
        if pending and pending["player"] == 0 and pending["kind"] == "banish":
            return session.seq
        (seat,) = SYSTEM.to_act(session.state)
        legal = SYSTEM.legal_actions(session.state, seat)
        action = min(legal, key=lambda a: PRIORITY[a["type"]])
        assert apply_action(session_id, seat, session.seq, action).status == "applied"
    raise AssertionError("no banish prompt for seat 0")


def test_the_hand_stays_above_a_tall_prompt_on_a_desktop(
    alice, bob, live_server_url, db_thread, browser
):
    from tests.browser.conftest import start_table

    session_id = db_thread(lambda: start_table("ascension", alice, [alice, bob], SEED).pk)
    seq = db_thread(_to_a_banish_prompt, session_id)
    context = browser.new_context(base_url=live_server_url, locale="en-US")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_viewport_size(DESKTOP)
    log_in(page, "alice")
    for language in ("en", "ru"):
        if language == "ru":
            with page.expect_navigation():
                page.select_option("select[name=language]", "ru")
        page.goto(f"/play/{session_id}/")
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        prompt = page.locator(".tb-prompt.mine")
        expect(prompt.locator("button")).not_to_have_count(0)
        # Without the hand kept above it, this bar covered the hand's lower part (~350 px).
        assert assert_hand_above_the_bar(page) > 120
        shoot(page, f"desktop-{language}-banish-prompt")
