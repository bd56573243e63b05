"""A person plays a whole Ascension Tactics duel against a bot through
``templates/play/tactics/table.html``: started from ``/play/``, the champion draft (a pick
button on a champion card), then every turn by clicking what the table offers: cards'
buttons (play, acquire), a champion chosen on the SVG board or in the reserve and a
highlighted portal, cell or target clicked (entering, moving, attacking along the line of
sight drawn on the board), the turn buttons; to the end of the game. The person's moves
are those of the engine's heuristic bot, found and clicked on the page.

As in test_berserk_table.py the daphne server has no Celery worker: a click posts the move
(play.js, fetch, 202) and the test then runs what the task would run
(``acting.apply_action`` with the clicked action and ``seq``), and the bot's moves
(``acting.run_bot``). With ``PLAY_SCREENSHOTS=<dir>`` the table is saved there, desktop
and phone, English and Russian. A spectator's page names no card of a hand.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play.models import GameSession
from play.services.acting import apply_action, run_bot
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    TACTICS_BOARD_DRAWN,
    compact,
    log_in,
    overflow,
    posted_actions,
    screenshot,
    start_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_CLICKS = 900
SEED = 11  # a game in which the person drafts, plays, acquires, commands, moves and attacks
BRAIN = make_bot("heuristic", SYSTEM, 5)
RESERVES = [
    ["TC1-012", "TC1-017", "TC1-011", "TC1-033"],
    ["TC1-015", "TC1-032", "TC1-018", "TC1-019"],
]


def _turn(session_id: int, person: int) -> tuple[str, int, list[dict], dict]:
    """Let the bot move while it is to act; then the seq, the person's actions, the state."""
    while True:
        session = GameSession.objects.get(pk=session_id)
        if session.status != GameSession.Status.RUNNING:
            return session.status, session.seq, [], session.state
        (seat,) = SYSTEM.to_act(session.state)
        if seat == person:
            return (
                session.status,
                session.seq,
                SYSTEM.legal_actions(session.state, seat),
                session.state,
            )
        run_bot(session_id, session.seq)


def _apply(session_id: int, person: int, seq: int, action: dict) -> str:
    return apply_action(session_id, person, seq, action).status


def _deal_again(session_id: int, seed: int) -> None:
    """The game the page started, dealt again from a fixed seed: every run plays the same
    game (one where the person gets to attack)."""
    session = GameSession.objects.get(pk=session_id)
    decks = list(session.decks) if session.decks else [None, None]
    session.seed = seed
    session.state = SYSTEM.new_game(session.config, decks, seed)
    session.save(update_fields=["seed", "state"])


def _seat_of(session_id: int, username: str) -> int:
    return GameSession.objects.get(pk=session_id).seats.get(user__username=username).number


def shoot(page: Page, name: str) -> None:
    screenshot(page, f"tactics-{name}", TACTICS_BOARD_DRAWN)


def css(action: dict) -> str:
    return compact(action).replace("\\", "\\\\").replace("'", "\\'")


def click_action(page: Page, action: dict, state: dict) -> None:
    """Click the action where the table puts it."""
    table = page.locator(".tx.play-table")
    kind = action["type"]
    value = css(action)
    if kind == "command":
        fig = action["fig"]
        if "cell" in action:
            table.locator(f".tx-pick[data-fig='{fig}']").click()
            layer = table.locator(f".tx-layer[data-for='{fig}']")
            expect(layer).to_be_visible()
            target = layer.locator(f".tx-entry[data-cell='{action['cell']}'] polygon")
        else:
            table.locator(f".tx-piece[data-fig='{fig}']").click()
            bar = table.locator(f".tx-selbar[data-for='{fig}']")
            expect(bar).to_be_visible()
            expect(table.locator(f".tx-layer[data-for='{fig}'] .tx-reach").first).to_be_attached()
            target = bar.locator(f"button[data-action='{value}']")
    elif kind in ("move", "attack"):
        fig = state["cmd"]["fig"]
        layer = table.locator(f".tx-layer.on[data-for='{fig}']")
        expect(layer).to_be_visible()
        shape = "tx-move" if kind == "move" else "tx-aim"
        target = layer.locator(f".{shape}[data-cell='{action['cell']}'] polygon")
        if kind == "attack":
            expect(layer.locator(f".tx-aim[data-cell='{action['cell']}'] .tx-ray")).to_have_count(1)
    elif kind == "pick":
        target = table.locator(f".tx-draft button[data-action='{value}']")
    elif kind in ("play", "acquire"):
        zone = "hand" if kind == "play" else "row"
        target = table.locator(f"[data-zone={zone}] button[data-action='{value}']")
    elif kind == "choose":
        target = table.locator(f".tx-pending button[data-action='{value}']")
    else:
        target = table.locator(f".tx-turnp button[data-action='{value}']")
    expect(target).to_have_count(1)
    target.click()


def check_table(page: Page, state: dict, person: int) -> None:
    """The champions on the board are in their cells; the other player's hand is a
    count; no card of that hand is named anywhere on the page."""
    board = page.locator(".tx-board")
    on_board = [f for f in state["figs"] if f["cell"] is not None and not f["gone"]]
    expect(board.locator(".tx-piece")).to_have_count(len(on_board))
    for f in on_board:
        expect(board.locator(f".tx-piece[data-fig='{f['id']}']")).to_have_attribute(
            "data-cell", f["cell"]
        )
    other = state["players"][1 - person]
    # The table (the game log below it names the cards public events showed).
    html = unescape(page.locator(".tx.play-table").inner_html())
    open_ids = {state["cards"][i] for i in state["row"] if i is not None} | set(state["piles"])
    for p in state["players"]:
        open_ids |= {state["cards"][i] for i in p["discard"] + p["played"]}
    open_ids |= {state["cards"][i] for i in state["players"][person]["hand"]}
    for i in other["hand"]:
        card = SYSTEM.info[state["cards"][i]]
        if card.id not in open_ids:
            assert card.name_en not in html and card.name_ru not in html, card.name_en


def test_a_person_plays_a_whole_tactics_duel_against_a_bot_on_the_hex_table(
    alice, live_server_url, db_thread, new_page, open_page
):
    page, errors = open_page("/play/", "alice")
    section = page.locator("#new-tactics")
    if section.locator("select[name=bot]").count():
        section.locator("select[name=bot]").select_option("random")
    section.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    session_id = int(page.url.rstrip("/").split("/")[-1])
    person = db_thread(_seat_of, session_id, "alice")
    assert person == 0
    db_thread(_deal_again, session_id, SEED)
    page.reload()
    table = page.locator(".tx.play-table")
    expect(table.locator(".tx-board")).to_be_visible()

    clicked: list[str] = []
    shot: set[str] = set()
    for _ in range(MAX_CLICKS):
        status, seq, legal, state = db_thread(_turn, session_id, person)
        if status != GameSession.Status.RUNNING:
            break
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than the window"
        assert sorted(posted_actions(page, ".tx-all")) == sorted(compact(a) for a in legal)
        if state.get("phase") != "draft":
            check_table(page, state, person)
        action = BRAIN.choose(state, person)
        attacks = [a for a in legal if a["type"] == "attack"]
        if attacks and action["type"] != "attack":
            action = attacks[0]  # the person never misses a chance to aim
        kind = action["type"]
        moment = {"pick": "draft", "move": "move", "attack": "aim"}.get(kind)
        if moment == "aim":
            page.locator(f".tx-aim[data-cell='{action['cell']}'] polygon").hover()
        if moment and moment not in shot:
            shoot(page, f"{moment}-desktop-en")
            if moment == "move":
                watcher = new_page()
                watcher.set_viewport_size(DESKTOP)
                watcher.goto(f"/play/{session_id}/spectate/")
                expect(watcher.locator(".tx-board .tx-piece")).not_to_have_count(0)
                expect(watcher.locator("[data-zone=hand]")).to_have_count(0)
                expect(watcher.locator(".tx-all")).to_have_count(0)
                shoot(watcher, "spectator-desktop-en")
                watcher.close()
            if moment != "draft":
                page.set_viewport_size(PHONE)
                assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than a phone"
                shoot(page, f"{moment}-phone-en")
                page.set_viewport_size(DESKTOP)
            shot.add(moment)
        with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as posted:
            click_action(page, action, state)
        assert posted.value.status == 202, posted.value.text()
        assert db_thread(_apply, session_id, person, seq, action) == "applied"
        clicked.append(kind)

    status, seq, _legal, state = db_thread(_turn, session_id, person)
    assert status == GameSession.Status.FINISHED, f"not over after {len(clicked)} clicks"
    kinds = set(clicked)
    assert {"pick", "play", "acquire", "command", "move", "attack", "end_turn"} <= kinds, kinds
    expect(page.locator("#play")).to_have_attribute("data-status", "finished")
    expect(table.locator("[data-zone=player]")).to_have_count(2)
    expect(page.locator(".play-result")).to_be_visible()
    check_table(page, state, person)
    shoot(page, "end-desktop-en")
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than the phone"
    shoot(page, "end-phone-en")
    with page.expect_navigation():
        page.select_option("select[name=language]", "ru")
    expect(table.locator(".tx-board")).to_be_visible()
    assert overflow(page) <= 0
    shoot(page, "end-phone-ru")
    page.set_viewport_size(DESKTOP)
    shoot(page, "end-desktop-ru")

    # The replay page opens on the finished game.
    page.goto(f"/play/{session_id}/replay/")
    expect(page.locator("h1")).to_be_visible()
    assert not errors, errors


@pytest.fixture
def running_duel(alice):
    """A duel of alice against a bot, no draft, alice (seat 0) holding cards of the central
    deck: cards that no one else may see."""
    config = {"reserves": RESERVES, "first": 0}
    session = start_table("tactics", alice, [alice, "heuristic"], 3, config=config)
    state = session.state
    hand = state["center"][-5:]
    state["center"] = state["center"][:-5]
    state["players"][0]["hand"] = hand
    session.state = state
    session.save(update_fields=["state"])
    return session


def _hand_names(session: GameSession) -> set[str]:
    state = session.state
    open_ids = {state["cards"][i] for i in state["row"] if i is not None}
    open_ids |= {state["cards"][i] for i in state["players"][1]["hand"]}
    names = set()
    for i in state["players"][0]["hand"]:
        card = SYSTEM.info[state["cards"][i]]
        if card.id not in open_ids:
            names |= {card.name_en, card.name_ru}
    return names


def test_a_spectator_sees_the_board_and_no_card_of_a_hand(running_duel, client, bob):
    names = _hand_names(running_duel)
    assert names
    client.force_login(bob)
    for url in (
        reverse("play:spectate", args=[running_duel.pk]),
        reverse("play:table", args=[running_duel.pk]) + "?spectate=1",
    ):
        for language in ("en", "ru"):
            client.cookies["django_language"] = language
            html = unescape(client.get(url).content.decode())
            assert "tx-board" in html
            assert [n for n in names if n in html] == []
            assert "tx-hand" not in html  # a spectator has no hand on the table
    client.force_login(running_duel.created_by)
    client.cookies["django_language"] = "en"
    html = unescape(client.get(reverse("play:game", args=[running_duel.pk])).content.decode())
    assert [n for n in names if n in html]  # the owner sees them


def _gate_used(alice) -> int:
    """A duel of alice against a bot, alice's gate used: her reserve may be brought in."""
    config = {"reserves": RESERVES, "first": 0}
    session = start_table("tactics", alice, [alice, "heuristic"], 3, config=config)
    assert apply_action(session.pk, 0, session.seq, {"type": "gate"}).status == "applied"
    return session.pk


def test_bring_in_from_the_reserve_on_a_phone_shows_the_portals_to_tap(
    alice, live_server_url, db_thread, browser
):
    """On a phone the reserve is far below the board: "Bring in" scrolls the board up, so
    the lit portals and the bar saying what to do are on screen (not a tap that seems to
    do nothing)."""
    session_id = db_thread(_gate_used, alice)
    context = browser.new_context(base_url=live_server_url, locale="en-US")
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size(PHONE)
    log_in(page, "alice")
    page.goto(f"/play/{session_id}/")
    pick = page.locator(".tx-reserve .tx-pick").first
    pick.scroll_into_view_if_needed()
    expect(page.locator(".tx-board")).not_to_be_in_viewport()
    fig = pick.get_attribute("data-fig")
    pick.click()
    expect(page.locator(f".tx-selbar.on[data-for='{fig}']")).to_be_in_viewport()
    expect(page.locator(f".tx-layer.on[data-for='{fig}'] .tx-entry").first).to_be_in_viewport()
    assert not errors, errors
