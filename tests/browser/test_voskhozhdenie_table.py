"""A person plays «Восхождение» against a bot on a phone-sized screen (360 px), only
through the table's action buttons, on ``templates/play/voskhozhdenie/table.html``.

The game is dealt with sample decks before Chromium starts. As in test_ascension_game.py
the daphne server has no Celery worker: a click posts the move (play.js, fetch, 202) and
the test then runs what the task would run (``play.services.acting.apply_action`` with
the clicked button's action and ``seq``), and the bot's moves (``acting.run_bot``), each
on one helper thread (Django refuses ORM calls in Playwright's thread). The page follows
by the server's pushes.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import transaction
from playwright.sync_api import Page, expect

from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.sample import sample_deck
from play.models import GameSession, SessionSeat
from play.services.acting import apply_action, run_bot
from play.services.starting import _start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
HUMAN_MOVES = 14  # clicks: the opening decisions and a few turns of two rounds
# The person's plan: go first, keep the hand, play what they can, attack, then pass.
PRIORITY = ["first_player", "keep", "decline", "play", "declare", "assign", "tactic_wound",
            "choose", "discard", "direct_attack", "activate", "pass", "decree", "superiority",
            "mulligan"]  # fmt: skip


@pytest.fixture
def bot_game(alice, live_server_url):
    decks = [sample_deck(SYSTEM.db, 11 + k, cities=2, main=20) for k in range(2)]
    with transaction.atomic():
        session = GameSession.objects.create(
            system="voskhozhdenie", created_by=alice, decks=decks, seed=7
        )
        SessionSeat.objects.create(session=session, number=0, user=alice)
        SessionSeat.objects.create(session=session, number=1, is_bot=True, bot_name="heuristic")
        _start(session)
    return session


def _turn(session_id: int) -> tuple[str, int, int, list[dict]]:
    """Let the bot move while it is to act; then who acts, at which seq, with what."""
    while True:
        session = GameSession.objects.get(pk=session_id)
        if session.status != GameSession.Status.RUNNING:
            return session.status, -1, session.seq, []
        (seat,) = SYSTEM.to_act(session.state)
        if seat == 0:
            return session.status, seat, session.seq, SYSTEM.legal_actions(session.state, 0)
        run_bot(session_id, session.seq)


def _apply(session_id: int, seq: int, action: dict) -> str:
    return apply_action(session_id, 0, seq, action).status


def _round(session_id: int) -> int:
    return GameSession.objects.get(pk=session_id).state["round"]


def compact(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_a_person_plays_several_turns_against_a_bot_on_a_phone(bot_game, db_thread, new_page):
    session_id = bot_game.pk
    page = new_page()
    page.set_viewport_size(PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("pw-alice")
    page.locator("main").get_by_role("button", name="Log in").click()
    page.goto(f"/play/{session_id}/")
    table = page.locator(".vt.play-table")
    expect(table.locator("[data-zone=queue]")).to_be_visible()
    expect(table.locator("[data-zone=tactics]")).to_be_visible()

    kinds_clicked = []
    for _ in range(HUMAN_MOVES):
        status, _seat, seq, legal = db_thread(_turn, session_id)
        if status != GameSession.Status.RUNNING:
            break
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than the phone"
        action = min(legal, key=lambda a: PRIORITY.index(a["type"]))
        values = page.eval_on_selector_all(
            ".vt .actions form.act input[name=action]", "els => els.map(e => e.value)"
        )
        assert sorted(values) == sorted(compact(a) for a in legal)
        button = page.locator(".vt .actions form.act button").nth(values.index(compact(action)))
        label = button.inner_text()
        assert "iid" not in label and "choice_id" not in label, label
        if action["type"] == "first_player":
            expect(table.locator("[data-zone=pending]")).to_contain_text("choose who goes first")
            assert label == "Seat 1 (alice, you) goes first"
        if action["type"] == "play":
            assert label == "Play"  # under the card it is about
            group = page.locator(f".vt .actions .action-group[data-iid='{action['iid']}']")
            expect(group.locator(".gc-name")).to_have_count(1)
        with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as posted:
            button.click()
        assert posted.value.status == 202, posted.value.text()
        assert db_thread(_apply, session_id, seq, action) == "applied"
        kinds_clicked.append(action["type"])

    assert {"first_player", "keep", "play"} <= set(kinds_clicked), kinds_clicked
    assert db_thread(_round, session_id) >= 2

    # The page caught up; card details open on tap, on the phone.
    status, _seat, seq, _legal = db_thread(_turn, session_id)
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    card = table.locator("[data-zone=battlefield] .gc").first
    card.locator("summary").click()
    expect(card.locator(".gc-body")).to_be_visible()
    expect(card.locator(".gc-kind")).to_contain_text("City")
    assert overflow(page) <= 0
    log = page.locator(".play-log")
    expect(log).to_contain_text("Round 2 begins")
    expect(log).to_contain_text("Seat 1 (alice, you) plays «")
    expect(log).not_to_contain_text("iid")
    assert not errors
