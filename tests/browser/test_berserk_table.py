"""A person plays Berserk against a bot through ``templates/play/berserk/table.html``:
turn order, deal, recruitment, placement (a card chosen, then a highlighted cell), the
reveal, and the first turns (a move or a strike chosen on the board, the stack passed),
only by clicking what the table offers. The board shows the person's cards in their
cells, from their side, and the bot's hidden cards only as face-down tiles. A card's full
text opens on hover (desktop) or tap (phone); a chosen card stays chosen while the table
is redrawn unchanged and is let go once the game moves on; a fight shows its dice and its
row of the strike table, and the card names in the stack's and the fight's lines open the
cards' texts too. A Resurrection or a Redistribution is chosen on the board, from a menu
on each cell or creature it may act on. A spectator sees the board with no hidden card
named.

As in test_voskhozhdenie_table.py the daphne server has no Celery worker: a click posts
the move (play.js, fetch, 202) and the test then runs what the task would run
(``acting.apply_action`` with the clicked action and ``seq``), and the bot's moves
(``acting.run_bot``), on one helper thread. With ``PLAY_SCREENSHOTS=<dir>`` the table is
saved there, desktop and phone, English and Russian.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from engine.berserk.game import SYSTEM
from engine.berserk.limited import KIT
from engine.core import registry
from play import decks as casual_decks
from play.models import GameSession, SessionSeat
from play.services.acting import apply_action, concede, run_bot
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    compact,
    overflow,
    posted_actions,
    screenshot,
    start_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECRUITS = 6  # cards the person recruits before finishing
MAX_CLICKS = 160
# The table's stylesheet (it comes with each redraw) applies: the board is drawn.
BOARD_DRAWN = (".bt-board", "display", "grid")


def _starter_decks() -> list:
    """The first two starter decks, for seats 0 and 1."""
    starters = registry.get("berserk").load_starter_decks()
    return [
        casual_decks.deck_for("berserk", casual_decks.DeckChoice(starters[k].key), k + 1)
        for k in (0, 1)
    ]


def _seed_where_seat_0_chooses(decks: list) -> int:
    for seed in range(1, 200):
        if SYSTEM.new_game({}, decks, seed)["chooser"] == 0:
            return seed
    raise AssertionError("no seed lets seat 0 choose the turn order")


@pytest.fixture
def bot_game(alice, live_server_url):
    decks = _starter_decks()
    seed = _seed_where_seat_0_chooses(decks)
    return start_table("berserk", alice, [alice, "heuristic"], seed, decks=decks)


@pytest.fixture
def bot_vs_bot(alice, live_server_url):
    """Two bots at the table, played on to the reveal: every card placed face down."""
    decks = _starter_decks()
    session = start_table("berserk", alice, ["heuristic", "random"], 7, decks=decks)
    _bots_until(session.pk, _placing)
    return session


def _ability_on_the_board(state: dict) -> dict | None:
    """Seat 0's first playable ability aimed at a card on a cell, if it has one now."""
    if state["phase"] != "main" or list(SYSTEM.to_act(state)) != [0]:
        return None
    for a in SYSTEM.legal_actions(state, 0):
        target = state["pieces"].get(str(a.get("target")))
        on_board = target is not None and target["cell"] is not None
        if a["type"] == "ability" and on_board and "to" not in a and "bring" not in a:
            return a
    return None


@pytest.fixture
def ability_game(alice, live_server_url):
    """Two bots play random decks until seat 0 may use an ability on a card on the board;
    then alice takes seat 0. The game and that ability."""
    for seed in range(1, 6):
        session = start_table("berserk", alice, ["heuristic", "heuristic"], seed, decks=[])
        for _ in range(400):
            session.refresh_from_db()
            if session.status != GameSession.Status.RUNNING:
                break
            found = _ability_on_the_board(session.state)
            if found is not None:
                SessionSeat.objects.filter(session=session, number=0).update(
                    is_bot=False, bot_name="", user=alice
                )
                return session, found, SYSTEM.legal_actions(session.state, 0)
            run_bot(session.pk, session.seq)
    raise AssertionError("no game offered seat 0 an ability on the board")


@pytest.fixture
def conceded_game(alice, live_server_url):
    """Two bots play into the battle; then alice takes seat 0 and concedes. The game, and
    the seq and state of a moment of the placement (every card face down)."""
    decks = _starter_decks()
    session = start_table("berserk", alice, ["heuristic", "heuristic"], 11, decks=decks)
    placing = _bots_until(session.pk, _placing)
    _bots_until(session.pk, _fighting)
    SessionSeat.objects.filter(session=session, number=0).update(
        is_bot=False, bot_name="", user=alice
    )
    concede(alice, session)
    return GameSession.objects.get(pk=session.pk), *placing


def _placing(state: dict) -> bool:
    return state["phase"] == "place" and len(state["pieces"]) >= 4


def _fighting(state: dict) -> bool:
    return state["phase"] == "main"


def _bots_until(session_id: int, reached) -> tuple[int, dict]:
    """Let the bots play until ``reached(state)``; the seq and the state then."""
    for _ in range(2000):
        session = GameSession.objects.get(pk=session_id)
        if reached(session.state) or session.status != GameSession.Status.RUNNING:
            return session.seq, session.state
        run_bot(session_id, session.seq)
    raise AssertionError(f"the bots did not reach {reached.__name__}")


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


def shoot(page: Page, name: str, full_page: bool = True, keep_mouse: bool = False) -> None:
    """The board as it is (``keep_mouse``: with the card text the pointer opened, else none
    under a pointer left where the last click was)."""
    screenshot(page, f"berserk-{name}", BOARD_DRAWN, full_page, pointer_away=not keep_mouse)


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


def hidden_names(state: dict) -> set[str]:
    """The names, in both languages, of the cards hidden from a spectator that are nowhere
    open (a copy of a hidden card may be open elsewhere)."""
    cards = state["cards"]
    hidden = {cards[int(k)] for k, q in state["pieces"].items() if q["hidden"]}
    open_ids = {cards[int(k)] for k, q in state["pieces"].items() if not q["hidden"]}
    open_ids |= {cards[i] for p in state["players"] for i in p["grave"]}
    return {KIT.face(c, lang).name for c in hidden - open_ids for lang in ("en", "ru")}


def check_nothing_hidden_named(page: Page, state: dict, what: str) -> None:
    """A board where every card is face down to the viewer (a spectator's, a replay's at
    the placement): the hidden cards are face-down tiles naming no instance, ``what`` (the
    page) names none of them and offers no move."""
    table = page.locator(".bt.play-table")
    expect(table.locator(".bt-cell")).to_have_count(30)
    hidden = [q for q in state["pieces"].values() if q["hidden"]]
    assert hidden, "no card is face down"
    expect(table.locator(".bt-piece.down")).to_have_count(len(hidden))
    expect(table.locator(".bt-piece[data-iid]")).to_have_count(0)
    html = page.content()
    for name in hidden_names(state):
        assert name not in html, f"{what} names the hidden {name}"
    assert not table.locator("form.act").count(), f"{what} offers moves"


def check_redraw_keeps_the_choice(page: Page, card: int) -> None:
    """A redraw with nothing changed (the page's safety net) keeps the chosen card."""
    page.locator(f".bt-piece[data-iid='{card}'] label.bt-pick").click()
    expect(page.locator(f"#bt-sel-{card}")).to_be_checked()
    page.evaluate(
        """() => new Promise(done => {
            document.addEventListener("play:redrawn", () => done(), {once: true});
            document.getElementById("play").dataset.silenceMs = "1";
        })"""
    )
    page.evaluate("() => { delete document.getElementById('play').dataset.silenceMs; }")
    expect(page.locator(f"#bt-sel-{card}")).to_be_checked()
    expect(page.locator(f".bt-layer[data-for='{card}']")).to_be_visible()


def check_card_text_on_hover(page: Page, where: str = ".bt-board .bt-piece[data-iid]") -> None:
    """With a mouse, pointing at an open card shows its full text beside it."""
    tile = page.locator(where).first
    card_id = tile.get_attribute("data-card")
    tile.locator(".bt-name, .bt-cname").first.hover()
    pop = page.locator(".bt-pop")
    expect(pop).to_be_visible()
    face = KIT.face(card_id, "en")
    expect(pop.locator(".bt-i-name")).to_have_text(face.name)
    if face.text:
        expect(pop.locator(".bt-i-text")).to_contain_text(face.text.splitlines()[0])
    page.mouse.move(2, 2)
    expect(pop).to_be_hidden()


def check_card_text_on_tap(page: Page, language: str, name: str) -> None:
    """On a phone a tap on a card that does not act opens its text at the bottom; ✕ closes it."""
    tile = page.locator(".bt-board .bt-piece[data-iid]:not(:has(.bt-pick))").first
    card_id = tile.get_attribute("data-card")
    tile.locator(".bt-name").click()
    pop = page.locator(".bt-pop.pinned")
    expect(pop).to_be_visible()
    expect(pop.locator(".bt-i-name")).to_have_text(KIT.face(card_id, language).name)
    box = pop.bounding_box()
    size = page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, box
    assert abs(box["y"] + box["height"] - size["height"]) <= 2, (box, size)
    shoot(page, name, full_page=False)  # as the phone shows it: the sheet at the bottom
    pop.locator(".bt-pop-x").click()
    page.mouse.move(0, 0)  # a mouse left on the board would point at the next card
    expect(page.locator(".bt-pop")).to_be_hidden()


def check_fight(page: Page, state: dict) -> None:
    """The last fight: its dice and the row of the strike table it fell on."""
    fight = state.get("last_fight")
    if not fight:
        return
    box = page.locator("[data-zone=fight]")
    expect(box).to_be_visible()
    expect(box.locator(".bt-dice").first).to_have_text(str(fight["rolls"][0]))
    row = fight["row"]
    expect(box.locator(".bt-rowno")).to_have_text(
        "—" if row is None else (f"+{row}" if row > 0 else str(row))
    )


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


def test_a_person_plays_berserk_against_a_bot_through_the_table(bot_game, db_thread, open_page):
    session_id = bot_game.pk
    page, errors = open_page(f"/play/{session_id}/", "alice")
    table = page.locator(".bt.play-table")
    expect(table.locator("[data-zone=battlefield]")).to_be_visible()
    expect(table.locator(".bt-cell")).to_have_count(30)

    clicked: list[str] = []
    shot: set[str] = set()
    recruited = 0
    acted_turn = None  # the turn in which the person last moved or struck
    hovered = kept = fought = False
    for _ in range(MAX_CLICKS):
        status, seq, legal, state = db_thread(_turn, session_id)
        if status != GameSession.Status.RUNNING:
            break
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        phase = state["phase"]
        assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than the window"
        # Every legal action is on the page (at least in the list below the board).
        assert sorted(posted_actions(page, ".bt-all")) == sorted(compact(a) for a in legal)
        check_board(page, state)
        if phase == "main":
            # Whatever was chosen before the game moved on is let go.
            expect(page.locator("#bt-sel-none")).to_be_checked()
            if state.get("last_fight"):
                check_fight(page, state)
                fought = True
            if not hovered:
                check_card_text_on_hover(page)
                hovered = True
        if phase == "recruit" and "recruit" not in shot:
            check_card_text_on_hover(page, ".bt-decision .bt-chip[data-iid]")  # the Deal zone
        if phase == "recruit":
            # A card with an X cost offers its values in one list, not a button each.
            xs = [compact(a) for a in legal if a["type"] == "recruit" and "x" in a]
            options = page.eval_on_selector_all(
                ".bt-decision .bt-xform select[name=action] option", "els => els.map(e => e.value)"
            )
            assert sorted(options) == sorted(xs)
        if phase not in shot and phase in ("first", "recruit", "place", "reveal", "main"):
            shoot(page, f"{phase}-desktop-en")
            shot.add(phase)
        if phase == "place":
            assert page.locator(".bt-field.flip").count() == (1 if state["first"] == 1 else 0)
            if "place-phone-en" not in shot:
                page.set_viewport_size(PHONE)
                assert overflow(page) <= 0, "the placement is wider than the phone"
                shoot(page, "place-phone-en", full_page=False)
                shot.add("place-phone-en")
                page.set_viewport_size(DESKTOP)
        action = choose(legal, recruited, acted_turn == state["turn"])
        if not kept and action["type"] in ("move", "strike"):
            check_redraw_keeps_the_choice(page, action["card"])
            kept = True
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
    assert hovered and kept, (hovered, kept)

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
    check_card_text_on_tap(page, "en", "card-phone-en")
    page.context.add_cookies(
        [{"name": "django_language", "value": "ru", "url": page.url.split("/play/")[0]}]
    )
    page.reload()
    expect(table.locator("[data-zone=stack] h3")).to_contain_text("Стек")
    assert overflow(page) <= 0
    shoot(page, "turns-phone-ru")
    check_card_text_on_tap(page, "ru", "card-phone-ru")
    page.set_viewport_size(DESKTOP)
    shoot(page, "turns-desktop-ru")
    check_fight(page, state)
    assert not errors
    print("fights seen on the way:", fought)


def test_a_spectator_sees_the_board_and_no_hidden_card(bot_vs_bot, db_thread, open_page):
    session_id = bot_vs_bot.pk
    page, errors = open_page(f"/play/{session_id}/")
    expect(page).to_have_url(re.compile(rf"/play/{session_id}/spectate/$"))
    table = page.locator(".bt.play-table")
    state = db_thread(lambda: GameSession.objects.get(pk=session_id).state)
    check_nothing_hidden_named(page, state, "the spectator's page")
    shoot(page, "spectator-reveal-desktop-en")

    # On into the battle: open cards are named and readable, hidden ones still are not.
    seq, state = db_thread(_bots_until, session_id, _fighting)
    assert state["phase"] == "main"
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    for language in ("en", "ru"):
        if language == "ru":
            with page.expect_navigation():
                page.select_option("select[name=language]", "ru")
        html = page.content()
        for name in hidden_names(state):
            assert name not in html, f"the spectator's page names the hidden {name}"
        opened = [q for q in state["pieces"].values() if not q["hidden"] and q["cell"]]
        expect(table.locator(".bt-board .bt-piece[data-iid]")).to_have_count(
            len([q for q in opened if q["host"] is None])
        )
        assert overflow(page) <= 0
        shoot(page, f"spectator-main-desktop-{language}")
        page.set_viewport_size(PHONE)
        assert overflow(page) <= 0
        shoot(page, f"spectator-main-phone-{language}")
        if opened:
            check_card_text_on_tap(page, language, f"spectator-card-phone-{language}")
        page.set_viewport_size(DESKTOP)
    assert not errors


def test_an_ability_is_offered_on_its_targets_cell(ability_game, db_thread, open_page):
    session, ability, legal = ability_game
    page, errors = open_page(f"/play/{session.pk}/", "alice")
    card = ability["card"]
    page.locator(f".bt-piece[data-iid='{card}'] label.bt-pick").click()
    layer = page.locator(f".bt-layer[data-for='{card}']")
    expect(layer).to_be_visible()
    value = compact(ability).replace("\\", "\\\\").replace("'", "\\'")
    button = layer.locator(f".go-ability button[data-action='{value}']")
    expect(button).to_be_visible()
    # The button stands on the target's cell, in the target's tile.
    target = page.locator(f".bt-board .bt-piece[data-iid='{ability['target']}']").bounding_box()
    box = button.bounding_box()
    assert (
        target["x"] - 4 <= box["x"] and box["x"] + box["width"] <= target["x"] + target["width"] + 4
    )
    # Cards in the Additional Zones it may act on are marked too (their buttons: the caption).
    pieces = session.state["pieces"]
    aimed = {
        a["target"]
        for a in legal
        if a.get("card") == card and "target" in a and pieces[str(a["target"])]["cell"] is None
    }
    expect(page.locator(".bt-az .bt-piece.bt-aim")).to_have_count(len(aimed))
    layer.locator(".bt-ibtn").click()
    expect(page.locator(".bt-pop.pinned")).to_be_visible()
    shoot(page, "ability-desktop-en")
    page.locator(".bt-pop-x").click()
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0
    shoot(page, "ability-phone-en", full_page=False)
    with page.expect_response(re.compile(rf"/play/{session.pk}/act/$")) as posted:
        button.click()
    assert posted.value.status == 202, posted.value.text()
    assert not errors


def test_a_replay_draws_the_board_and_no_hidden_card(conceded_game, open_page):
    session, placing_seq, placing = conceded_game
    assert session.is_over
    page, errors = open_page(f"/play/{session.pk}/replay/?step={placing_seq}")
    table = page.locator(".bt.play-table")
    check_nothing_hidden_named(page, placing, "the replay")
    shoot(page, "replay-placing-desktop-en")

    final = session.state
    page.goto(f"/play/{session.pk}/replay/")
    opened = [q for q in final["pieces"].values() if not q["hidden"] and q["cell"]]
    expect(table.locator(".bt-board .bt-piece[data-iid]")).to_have_count(
        len([q for q in opened if q["host"] is None])
    )
    html = page.content()
    for name in hidden_names(final):
        assert name not in html, f"the replay names the hidden {name}"
    shoot(page, "replay-end-desktop-en")
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0
    shoot(page, "replay-end-phone-en")
    if opened:
        check_card_text_on_tap(page, "en", "replay-card-phone-en")
    assert not errors


HERMIT = "BK1-053"  # Mistletoe Hermit: Redistribution 2
NECROMANCER = "BK1-164"  # Crypt Necromancer: Resurrection (Undead), cost 5
CORPSE = "BK1-160"  # Risen Corpse: undead, cost 2


@pytest.fixture
def special_game(alice, live_server_url):
    """Alice (seat 0) against a bot in a position of her Main Phase where her Hermit may
    redistribute (her Teller on B2 is wounded) and her Necromancer may resurrect the Risen
    Corpse of her Graveyard: the session's state replaced by that position."""
    from tests.engine.berserk.test_game import PLAIN, STURDY, at, battle

    s = battle(
        [
            (0, HERMIT, "C3"),
            (0, STURDY, "B2", {"wounds": 2}),
            (0, NECROMANCER, "D2"),
            (1, PLAIN, "A3'"),
            (1, STURDY, "C1'"),
        ]
    )
    corpse = s["players"][0]["deck"].pop()
    s["cards"][corpse] = CORPSE
    s["players"][0]["grave"].append(corpse)
    session = start_table("berserk", alice, [alice, "heuristic"], 3, decks=[])
    GameSession.objects.filter(pk=session.pk).update(state=s)
    marks = {"hermit": at(s, "C3"), "wounded": at(s, "B2"), "necromancer": at(s, "D2")}
    return GameSession.objects.get(pk=session.pk), marks


def test_redistribution_and_resurrection_are_chosen_on_the_board(
    special_game, db_thread, open_page
):
    """A Resurrection offers a menu on each cell it may fill (the Graveyard cards it may
    bring); a Redistribution one on the creature it heals (the enemies it may wound, the
    one pointed at marked on the board). Once declared, the names in the stack's line open
    the card's text like the cards on the board, with a mouse and with a tap."""
    session, marks = special_game
    legal = SYSTEM.legal_actions(session.state, 0)
    page, errors = open_page(f"/play/{session.pk}/", "alice")

    necro = marks["necromancer"]
    raised = [a for a in legal if a.get("ability") == "resurrection"]
    assert raised
    page.locator(f".bt-piece[data-iid='{necro}'] label.bt-pick").click()
    layer = page.locator(f".bt-layer[data-for='{necro}']")
    expect(layer.locator(".go-menu")).to_have_count(len({a["cell"] for a in raised}))
    first = raised[0]
    where = layer.locator(f".go-menu:has(button[data-action='{compact(first)}'])")
    expect(where).to_have_count(1)
    expect(where.locator(".bt-menu-list")).to_be_hidden()
    where.locator("summary").click()
    expect(where.locator(".bt-menu-list button")).to_have_count(
        len([a for a in raised if a["cell"] == first["cell"]])
    )
    expect(where.locator(f"button[data-action='{compact(first)}']")).to_be_visible()
    cell = page.locator(f'.bt-board .bt-cell[data-cell="{first["cell"]}"]').bounding_box()
    box = where.bounding_box()
    assert cell["x"] - 4 <= box["x"] and box["x"] + box["width"] <= cell["x"] + cell["width"] + 4
    shoot(page, "resurrection-desktop-en")

    hermit, wounded = marks["hermit"], marks["wounded"]
    shared = [a for a in legal if a.get("ability") == "redistribution"]
    assert shared and {a["target"] for a in shared} == {wounded}
    page.locator(f".bt-piece[data-iid='{hermit}'] label.bt-pick").click()
    layer = page.locator(f".bt-layer[data-for='{hermit}']")
    menu = layer.locator(".go-menu")
    expect(menu).to_have_count(1)
    tile = page.locator(f".bt-board .bt-piece[data-iid='{wounded}']").bounding_box()
    box = menu.bounding_box()
    assert tile["x"] - 4 <= box["x"] and box["x"] + box["width"] <= tile["x"] + tile["width"] + 4
    menu.locator("summary").click()
    options = menu.locator(".bt-menu-list button")
    expect(options).to_have_count(len(shared))
    chosen = shared[0]
    option = menu.locator(f"button[data-action='{compact(chosen)}']")
    option.hover()
    expect(page.locator(f".bt-piece[data-iid='{chosen['to']}'].bt-mark")).to_have_count(1)
    shoot(page, "redistribution-desktop-en", keep_mouse=True)
    page.set_viewport_size(PHONE)
    assert overflow(page) <= 0
    expect(option).to_be_visible()
    shoot(page, "redistribution-phone-en", full_page=False)
    page.set_viewport_size(DESKTOP)
    with page.expect_response(re.compile(rf"/play/{session.pk}/act/$")) as posted:
        option.click()
    assert posted.value.status == 202, posted.value.text()
    assert db_thread(_apply, session.pk, session.seq, chosen) == "applied"

    # The stack's line names the Hermit and its target: each opens the card's text.
    refs = page.locator("[data-zone=stack] .bt-chain .bt-ref[data-iid]")
    expect(refs).to_have_count(2)
    ref = page.locator(f"[data-zone=stack] .bt-ref[data-iid='{hermit}']").first
    ref.hover()
    pop = page.locator(".bt-pop")
    expect(pop).to_be_visible()
    expect(pop.locator(".bt-i-name")).to_have_text(KIT.face(HERMIT, "en").name)
    shoot(page, "stack-ref-desktop-en", full_page=False, keep_mouse=True)
    page.mouse.move(2, 2)
    expect(pop).to_be_hidden()
    page.set_viewport_size(PHONE)
    page.locator(f"[data-zone=stack] .bt-ref[data-iid='{wounded}']").first.click()
    expect(page.locator(".bt-pop.pinned .bt-i-name")).to_have_text(KIT.face(STURDY_ID, "en").name)
    shoot(page, "stack-ref-phone-en", full_page=False)
    page.locator(".bt-pop-x").click()
    assert not errors


STURDY_ID = "BK1-017"  # Teller of Winds (tests.engine.berserk.test_game.STURDY)


CLOAK_ID = "BK1-077"  # Cloak of Leaves: armour; its host has Stealth


@pytest.fixture
def destruction_game(alice, live_server_url):
    """Alice (seat 0) struck the bot's Teller of Winds down to 0 lives: its destruction
    effect is on top of the stack (402.3а) and she holds priority. The bot keeps a
    creature hidden on C3' with a Cloak of Leaves on it (decision 0053)."""
    from tests.engine.berserk.test_game import PLAIN, STURDY, at, battle, do, passes, rolls_rng

    s = battle(
        [
            (0, PLAIN, "C1"),
            (1, STURDY, "C1'", {"closed": True, "wounds": 1}),
            (1, HERMIT, "C3'", {"hidden": True}),
            (1, CLOAK_ID, "C3'"),
        ]
    )
    hidden, teller = at(s, "C3'"), at(s, "C1'")
    cloak = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == CLOAK_ID)
    s["pieces"][str(cloak)]["host"] = hidden
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": teller})
    s["rng"] = rolls_rng(6)
    s, _ = passes(s, 2 * 7)
    assert s["stack"][-1]["kind"] == "destruction" and s["priority"]["holder"] == 0
    session = start_table("berserk", alice, [alice, "heuristic"], 3, decks=[])
    GameSession.objects.filter(pk=session.pk).update(state=s)
    return GameSession.objects.get(pk=session.pk), {"teller": teller, "cloak": cloak}


def test_a_pending_destruction_and_equipment_on_a_hidden_card_are_shown(
    destruction_game, open_page
):
    """The stack shows the destruction effect on top, naming the card it destroys (402.3а);
    the bot's face-down tile on C3' shows the Cloak of Leaves on it (open information,
    206.5, 306.2(2)) and still names no hidden card."""
    session, marks = destruction_game
    page, errors = open_page(f"/play/{session.pk}/", "alice")
    for language in ("en", "ru"):
        if language == "ru":
            with page.expect_navigation():
                page.select_option("select[name=language]", "ru")
        top = page.locator("[data-zone=stack] .bt-obj.top")
        expect(top).to_have_attribute("data-kind", "destruction")
        expect(top.locator(f".bt-ref[data-iid='{marks['teller']}']").first).to_be_visible()
        tile = page.locator('.bt-board .bt-piece.down[data-cell="C3\'"]')
        expect(tile).to_have_count(1)
        hosted = tile.locator(f".bt-hosted[data-iid='{marks['cloak']}']")
        expect(hosted).to_contain_text(KIT.face(CLOAK_ID, language).name)
        expect(page.locator(f".bt-board .bt-piece[data-iid='{marks['cloak']}']")).to_have_count(0)
        html = page.content()
        for name in hidden_names(session.state):
            assert name not in html, f"the page names the hidden {name}"
        shoot(page, f"destruction-desktop-{language}")
        page.set_viewport_size(PHONE)
        assert overflow(page) <= 0
        shoot(page, f"destruction-phone-{language}", full_page=False)
        page.set_viewport_size(DESKTOP)
    assert not errors
