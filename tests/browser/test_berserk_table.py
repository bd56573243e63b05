"""A person plays Berserk against a bot through ``templates/play/berserk/table.html``:
turn order, deal, recruitment, placement (a card chosen, then a highlighted cell), the
reveal, and the first turns (a move or a strike chosen on the board, the stack passed),
only by clicking what the table offers. The board shows the person's cards in their
cells, from their side, and the bot's hidden cards only as face-down tiles.

As in test_voskhozhdenie_table.py the daphne server has no Celery worker: a click posts
the move (play.js, fetch, 202) and the test then runs what the task would run
(``acting.apply_action`` with the clicked action and ``seq``), and the bot's moves
(``acting.run_bot``), on one helper thread. With ``PLAY_SCREENSHOTS=<dir>`` the table is
saved there, desktop and phone, English and Russian.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from django.db import transaction
from playwright.sync_api import Page, expect

from engine.berserk.game import SYSTEM
from engine.core import registry
from play import decks as casual_decks
from play.models import GameSession, SessionSeat
from play.services.acting import apply_action, run_bot
from play.services.starting import _start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
RECRUITS = 6  # cards the person recruits before finishing
MAX_CLICKS = 160


def _seed_where_seat_0_chooses(decks: list) -> int:
    for seed in range(1, 200):
        if SYSTEM.new_game({}, decks, seed)["chooser"] == 0:
            return seed
    raise AssertionError("no seed lets seat 0 choose the turn order")


@pytest.fixture
def bot_game(alice, live_server_url):
    starters = registry.get("berserk").load_starter_decks()
    decks = [
        casual_decks.deck_for("berserk", casual_decks.DeckChoice(starters[0].key), 1),
        casual_decks.deck_for("berserk", casual_decks.DeckChoice(starters[1].key), 2),
    ]
    with transaction.atomic():
        session = GameSession.objects.create(
            system="berserk",
            created_by=alice,
            decks=decks,
            seed=_seed_where_seat_0_chooses(decks),
        )
        SessionSeat.objects.create(session=session, number=0, user=alice)
        SessionSeat.objects.create(session=session, number=1, is_bot=True, bot_name="heuristic")
        _start(session)
    return session


def _turn(session_id: int) -> tuple[str, int, list[dict], dict]:
    """Let the bot move while it is to act; then the seq, the person's actions, the state."""
    while True:
        session = GameSession.objects.get(pk=session_id)
        if session.status != GameSession.Status.RUNNING:
            return session.status, session.seq, [], session.state
        (seat,) = SYSTEM.to_act(session.state)
        if seat == 0:
            legal = SYSTEM.legal_actions(session.state, 0)
            return session.status, session.seq, legal, session.state
        run_bot(session_id, session.seq)


def _apply(session_id: int, seq: int, action: dict) -> str:
    return apply_action(session_id, 0, seq, action).status


def compact(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"))


def overflow(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("PLAY_SCREENSHOTS")
    if folder:
        # The table's stylesheet comes with each redraw: wait until it applies.
        page.wait_for_function(
            "getComputedStyle(document.querySelector('.bt-board')).display === 'grid'"
        )
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"berserk-{name}.png"), full_page=True)


def choose(legal: list[dict], recruited: int, acted: bool) -> dict:
    """The person's plan: let the bot go first, keep the deal, recruit a few cards, place
    them, reveal, then strike if they can, else move once a turn, else pass."""
    by_type: dict[str, list[dict]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    if "choose_first" in by_type:
        return next(a for a in by_type["choose_first"] if a["first"] == 1)
    if "keep" in by_type:
        return by_type["keep"][0]
    if "recruit_done" in by_type:
        plain = [a for a in by_type.get("recruit", []) if "x" not in a]
        return plain[0] if plain and recruited < RECRUITS else by_type["recruit_done"][0]
    for kind in ("place", "host", "reveal_done"):
        if kind in by_type:
            return by_type[kind][0]
    if not acted:
        for kind in ("strike", "move"):
            if kind in by_type:
                return by_type[kind][0]
    return by_type.get("pass", legal)[0]


def check_board(page: Page, state: dict) -> None:
    """Every card of the person's on the Battlefield is in its cell; the bot's hidden
    cards are face-down tiles that name nothing."""
    board = page.locator(".bt-board")
    html = page.content()
    for key, piece in state["pieces"].items():
        cell = piece["cell"]
        if piece["owner"] == 0 and piece["host"] is None:
            if cell is not None:
                where = "ABCDE"[cell[0]] + ("3", "2", "1", "1'", "2'", "3'")[cell[1]]
                tile = board.locator(f".bt-piece[data-iid='{key}']")
                expect(tile).to_have_attribute("data-cell", where)
            else:
                expect(page.locator(f".bt-az.mine .bt-piece[data-iid='{key}']")).to_have_count(1)
        if piece["owner"] == 1 and piece["hidden"]:
            assert f'data-iid="{key}"' not in html
    hidden = [q for q in state["pieces"].values() if q["owner"] == 1 and q["hidden"]]
    expect(board.locator(".bt-piece.theirs.down")).to_have_count(len(hidden))
    visible_ids = {
        state["cards"][int(k)]
        for k, q in state["pieces"].items()
        if not (q["owner"] == 1 and q["hidden"])
    } | {state["cards"][i] for p in state["players"] for i in p["grave"]}
    visible_ids |= {state["cards"][i] for i in state["players"][0]["deal"]}
    visible_ids |= {state["cards"][i] for i in state["players"][0]["recruit"]}
    for key, q in state["pieces"].items():
        card_id = state["cards"][int(key)]
        if q["owner"] == 1 and q["hidden"] and card_id not in visible_ids:
            assert card_id not in html, f"the bot's hidden {card_id} is on the page"


def click_action(page: Page, action: dict) -> None:
    """Click the action where the table puts it: a card's moves, strikes, placements and
    hosts after choosing the card; the rest as buttons in the panels or on the cards."""
    value = compact(action).replace("\\", "\\\\").replace("'", "\\'")  # a CSS string
    if action["type"] in ("place", "move", "strike", "host"):
        card = action["card"]
        if action["type"] == "place":
            page.locator(f".bt-decision label[for='bt-sel-{card}']").click()
        else:
            page.locator(f".bt-piece[data-iid='{card}'] label.bt-pick").click()
        layer = page.locator(f".bt-layer[data-for='{card}']")
        expect(layer).to_be_visible()
        expect(layer.locator(".bt-selname")).not_to_be_empty()
        button = layer.locator(f"button[data-action='{value}']")
    elif action["type"] in ("keep_hidden", "defender"):
        button = page.locator(f".bt-piece button[data-action='{value}']")
    elif action["type"] in ("pass", "weaken"):
        button = page.locator(f".bt-stackp button[data-action='{value}']")
    else:
        button = page.locator(f".bt-decision button[data-action='{value}']")
    expect(button).to_have_count(1)
    expect(button).to_be_visible()
    button.click()


def test_a_person_plays_berserk_against_a_bot_through_the_table(bot_game, db_thread, new_page):
    session_id = bot_game.pk
    page = new_page()
    page.set_viewport_size(DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("pw-alice")
    page.locator("main").get_by_role("button", name="Log in").click()
    page.goto(f"/play/{session_id}/")
    table = page.locator(".bt.play-table")
    expect(table.locator("[data-zone=battlefield]")).to_be_visible()
    expect(table.locator(".bt-cell")).to_have_count(30)

    clicked: list[str] = []
    shot: set[str] = set()
    recruited = 0
    acted_turn = None  # the turn in which the person last moved or struck
    for _ in range(MAX_CLICKS):
        status, seq, legal, state = db_thread(_turn, session_id)
        if status != GameSession.Status.RUNNING:
            break
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        phase = state["phase"]
        assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than the window"
        # Every legal action is on the page (at least in the list below the board).
        values = page.eval_on_selector_all(
            ".bt-all form.act input[name=action]", "els => els.map(e => e.value)"
        )
        assert sorted(values) == sorted(compact(a) for a in legal)
        check_board(page, state)
        if phase not in shot and phase in ("first", "recruit", "place", "reveal", "main"):
            shoot(page, f"{phase}-desktop-en")
            shot.add(phase)
        if phase == "place":
            assert page.locator(".bt-field.flip").count() == (1 if state["first"] == 1 else 0)
        action = choose(legal, recruited, acted_turn == state["turn"])
        with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as posted:
            click_action(page, action)
        assert posted.value.status == 202, posted.value.text()
        assert db_thread(_apply, session_id, seq, action) == "applied"
        clicked.append(action["type"])
        if action["type"] == "recruit":
            recruited += 1
        if action["type"] in ("move", "strike"):
            acted_turn = state["turn"]
        if clicked.count("move") + clicked.count("strike") >= 2 and state["turn"] >= 3:
            break

    kinds = set(clicked)
    assert {"choose_first", "keep", "recruit", "recruit_done", "place"} <= kinds, clicked
    assert kinds & {"move", "strike"}, clicked
    assert "pass" in kinds, clicked

    # The page caught up: the board and the panels, desktop and phone, in both languages.
    status, seq, _legal, state = db_thread(_turn, session_id)
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    check_board(page, state)
    expect(table.locator("[data-zone=stack]")).to_be_visible()
    expect(table.locator("[data-zone=player]")).to_have_count(2)
    shoot(page, "turns-desktop-en")
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than the phone"
    shoot(page, "turns-phone-en")
    page.context.add_cookies(
        [{"name": "django_language", "value": "ru", "url": page.url.split("/play/")[0]}]
    )
    page.reload()
    expect(table.locator("[data-zone=stack] h3")).to_contain_text("Стек")
    assert overflow(page) <= 0
    shoot(page, "turns-phone-ru")
    page.set_viewport_size(DESKTOP)
    shoot(page, "turns-desktop-ru")
    assert not errors
