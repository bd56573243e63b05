"""A person plays «Восхождение» on its table (``templates/play/voskhozhdenie/table.html``,
the shared components of ``templates/play/components/`` and ``static/js/table.js``):
against a bot on a phone through the table only, and a staged turn on a desktop that
chooses a card and then its highlighted target, picks X with the stepper and answers a
prompt on a highlighted card.

As in test_ascension_game.py the daphne server has no Celery worker: a click posts the
move (play.js, fetch, 202) and the test then runs what the task would run
(``play.services.acting.apply_action`` with the posted action and ``seq``), and the other
seat's moves (``acting.run_bot`` or ``apply_action``), each on one helper thread (Django
refuses ORM calls in Playwright's thread). The page follows by the server's pushes. With
``PLAY_SCREENSHOTS=<dir>`` the table is saved at 1366x900 and 390x844, in English and
Russian.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from engine.voskhozhdenie.game import SYSTEM
from engine.voskhozhdenie.sample import sample_deck
from play.models import GameSession
from play.services.acting import apply_action, run_bot
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    compact,
    overflow,
    posted_actions,
    shoot_shared_table,
    start_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HUMAN_MOVES = 14  # clicks: the opening decisions and a few turns of two rounds
# The person's plan: go first, keep the hand, play what they can, attack, then pass.
PRIORITY = ["first_player", "keep", "decline", "play", "declare", "assign", "tactic_wound",
            "choose", "discard", "direct_attack", "activate", "pass", "decree", "superiority",
            "mulligan"]  # fmt: skip
FISTFIGHT, FIREBALL, PIRATE, WARRIOR = "VS0-016", "VS1-150", "VS0-012", "VS1-129"


def _deal(alice, other, *, bot: bool) -> GameSession:
    decks = [sample_deck(SYSTEM.db, 11 + k, cities=2, main=20) for k in range(2)]
    seats = [alice, "heuristic" if bot else other]
    return start_table("voskhozhdenie", alice, seats, 7, decks=decks)


@pytest.fixture
def bot_game(alice, live_server_url):
    return _deal(alice, None, bot=True)


def _staged(session_id: int) -> int:
    """Seat 0 goes first and both keep; then, in the Actions step of round 1 (a test's own
    position, set on the dealt state): seat 0 holds a Confrontation (Fistfight), an X
    order (Fireball) and a Squad with Zeal (River Pirate) with 8 coins, and seat 1 has a
    Squad in play (Young Warrior) for Fireball to wound. The seq to act at."""
    session = GameSession.objects.get(pk=session_id)
    while session.state["step"] != "action":
        (seat,) = SYSTEM.to_act(session.state)
        legal = SYSTEM.legal_actions(session.state, seat)
        action = next(
            (a for a in legal if a["type"] in ("keep", "decline") or a.get("seat") == 0), legal[0]
        )
        assert apply_action(session.pk, seat, session.seq, action).status == "applied"
        session.refresh_from_db()
    state = session.state
    assert state["active"] == 0
    me, them = state["players"]
    for iid, card in zip(me["hand"], (FISTFIGHT, FIREBALL, PIRATE), strict=False):
        state["cards"][iid]["card"] = card
    me["coins"] = 8
    iid = them["hand"].pop()
    state["cards"][iid].update(
        card=WARRIOR, zone="battlefield", strength=2, wounded=False, ruined=False,
        entered=0, tactic=None, side=None,
    )  # fmt: skip
    state["battlefield"].append(iid)
    session.state = state
    session.save(update_fields=["state"])
    return session.seq


def _turn(session_id: int) -> tuple[str, int, int, list[dict]]:
    """Let the bot move while it is to act; then who acts, at which seq, with what."""
    while True:
        session = GameSession.objects.get(pk=session_id)
        if session.status != GameSession.Status.RUNNING:
            return session.status, -1, session.seq, []
        (seat,) = SYSTEM.to_act(session.state)
        if seat == 0 or not session.seats.get(number=seat).is_bot:
            return session.status, seat, session.seq, SYSTEM.legal_actions(session.state, seat)
        run_bot(session_id, session.seq)


def _apply(session_id: int, seat: int, seq: int, action: dict) -> str:
    return apply_action(session_id, seat, seq, action).status


def _round(session_id: int) -> int:
    return GameSession.objects.get(pk=session_id).state["round"]


def _state(session_id: int) -> dict:
    return GameSession.objects.get(pk=session_id).state


def css(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")


def shoot(page: Page, name: str) -> None:
    shoot_shared_table(page, f"voskhozhdenie-{name}")


def assert_hand_above_the_bar(page: Page) -> None:
    """The viewer's hand is wholly on the first screen, above the bar at the bottom."""
    page.evaluate("window.scrollTo(0, 0)")
    viewport = page.viewport_size or {}
    hand = page.locator(".tb-player.mine [data-zone=hand]").bounding_box()
    bar = page.locator(".tb-dock").bounding_box()
    assert hand and bar
    limit = viewport["height"] - bar["height"]
    assert hand["y"] + hand["height"] <= limit, (
        f"the hand ends at {hand['y'] + hand['height']:.0f}px, below {limit:.0f}px "
        f"(a {viewport['height']}px window less the bar's {bar['height']:.0f}px)"
    )


def assert_names_fit(page: Page) -> None:
    """No card's name needs a word broken at a letter: with that forbidden, each fits."""
    wide = page.evaluate(
        """() => Array.from(document.querySelectorAll('.tb .tb-name')).filter(el => {
            const was = el.style.overflowWrap;
            el.style.overflowWrap = 'normal';
            const over = el.scrollWidth > el.clientWidth + 1;
            el.style.overflowWrap = was;
            return over;
        }).map(el => el.textContent)"""
    )
    assert not wide, f"names that break inside a word: {wide}"


def assert_bar_leaves_the_end_visible(page: Page) -> None:
    """Scrolled to the end of the table, the bar (sticky at the bottom of the window)
    sits below the viewer's cards, not over them."""
    page.evaluate("document.querySelector('.tb-main').scrollIntoView({block: 'end'})")
    page.evaluate("window.scrollBy(0, document.querySelector('.tb-dock').offsetHeight)")
    last = page.locator(".tb-me").bounding_box()
    bar = page.locator(".tb-dock").bounding_box()
    assert last and bar
    assert last["y"] + last["height"] <= bar["y"] + 1, (last, bar)
    page.evaluate("window.scrollTo(0, 0)")


def log_in(page: Page, name: str) -> None:
    page.goto("/accounts/login/")
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill(f"pw-{name}")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*login)"))


def posted(page: Page, session_id: int, action: dict, click) -> None:
    """``click()`` posts ``action`` (202: queued for the worker, which is the test)."""
    with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as response:
        click()
    assert response.value.status == 202, response.value.text()
    body = response.value.request.post_data or ""
    assert compact(action) in body, body


def click_action(page: Page, session_id: int, action: dict) -> str:
    """Take ``action`` on the table the way a person does: choose its card when it is in
    a card's bar, step X to its value, press the button. The button's text."""
    value = compact(action)
    field = page.locator(f".tb form.act input[name=action][value='{css(value)}']")
    expect(field).to_have_count(1)
    form = field.locator("xpath=ancestor::form[1]")
    bar = form.locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' tb-bar ')][1]")
    if bar.count():
        iid = bar.get_attribute("data-for")
        page.locator(f".tb-card.can-sel[data-iid='{iid}'] label.tb-pick").first.click()
        expect(bar).to_be_visible()
    if field.get_attribute("type") == "radio":
        plus = form.locator(".tb-plus")
        while not field.is_checked():
            plus.click()
        expect(form.locator(".tb-xv")).to_have_text(str(action["x"]))
        button = form.locator("button[type=submit]")
    else:
        button = form.locator("button[type=submit]")
    label = button.inner_text()
    posted(page, session_id, action, button.click)
    return label


def test_a_person_plays_several_turns_against_a_bot_on_a_phone(
    bot_game, db_thread, browser, live_server_url
):
    session_id = bot_game.pk
    context = browser.new_context(
        base_url=live_server_url, locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "alice")
    page.goto(f"/play/{session_id}/")
    table = page.locator(".vt.play-table")
    expect(table.locator("[data-zone=queue]")).to_be_visible()
    expect(table.locator("[data-zone=tactics]")).to_be_visible()
    expect(table.locator(".tb-rules summary")).to_have_text("Rules")

    kinds_clicked = []
    for _ in range(HUMAN_MOVES):
        status, _seat, seq, legal = db_thread(_turn, session_id)
        if status != GameSession.Status.RUNNING:
            break
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        assert overflow(page) <= 0, f"the table is {overflow(page)}px wider than the phone"
        # Every legal action is posted by exactly one form field, nothing else.
        assert sorted(posted_actions(page, ".tb")) == sorted(compact(a) for a in legal)
        action = min(legal, key=lambda a: PRIORITY.index(a["type"]))
        if action["type"] == "first_player":
            expect(table.locator("[data-zone=pending]")).to_contain_text("choose who goes first")
        label = click_action(page, session_id, action)
        assert "iid" not in label and "choice_id" not in label, label
        if action["type"] == "first_player":
            assert label == "Seat 1 (alice, you) goes first"
        if action["type"] == "play":
            assert label.startswith("Play")  # in the bar of the card chosen
        assert db_thread(_apply, session_id, 0, seq, action) == "applied"
        kinds_clicked.append(action["type"])

    assert {"first_player", "keep", "play"} <= set(kinds_clicked), kinds_clicked
    assert db_thread(_round, session_id) >= 2

    # The page caught up; a card's text opens as a sheet on a tap, on the phone.
    status, _seat, seq, _legal = db_thread(_turn, session_id)
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    shoot(page, "phone-en-round2")
    city = table.locator(".tb-player.mine [data-zone=battlefield] .tb-card.t-city").first
    city.locator(".tb-type").tap()
    pop = table.locator(".tb-pop")
    expect(pop).to_be_visible()
    expect(pop.locator(".gc-kind")).to_contain_text("City")
    expect(pop).to_have_css("bottom", "0px")  # a sheet at the bottom of the phone
    expect(pop).to_have_css("position", "fixed")
    pop.locator(".tb-pop-x").tap()
    expect(pop).to_be_hidden()
    # The hand is one strip that scrolls sideways, not a wall of cards.
    hand = table.locator(".tb-player.mine [data-zone=hand] .tb-cards")
    if hand.locator(".tb-card").count() > 3:
        assert hand.evaluate("el => el.scrollWidth > el.clientWidth")
    assert overflow(page) <= 0
    log = page.locator(".play-log")
    expect(log).to_contain_text("Round 2 begins")
    expect(log).to_contain_text("Seat 1 (alice, you) plays «")
    expect(log).not_to_contain_text("iid")
    assert not errors


def test_choose_a_card_then_its_target_step_x_and_answer_a_prompt(
    alice, bob, live_server_url, db_thread, browser
):
    session_id = db_thread(lambda: _deal(alice, bob, bot=False).pk)
    seq = db_thread(_staged, session_id)
    state = db_thread(_state, session_id)
    hand = state["players"][0]["hand"]
    fistfight, fireball, pirate = hand[0], hand[1], hand[2]
    warrior = state["battlefield"][-1]
    errors: list[str] = []

    def page_for(name: str, locale: str, size: dict) -> Page:
        context = browser.new_context(base_url=live_server_url, locale=locale)
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.set_viewport_size(size)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, name)
        page.goto(f"/play/{session_id}/")
        return page

    page = page_for("alice", "en-US", DESKTOP)
    phone_ru = page_for("alice", "ru-RU", PHONE)
    table = page.locator(".vt.play-table")
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    # Opponents at the top, the viewer at the bottom, cards drawn as cards.
    players = table.locator(".tb-player")
    expect(players.nth(0)).to_have_attribute("data-seat", "1")
    expect(players.nth(1)).to_have_attribute("data-seat", "0")
    warrior_card = table.locator(f".tb-player[data-seat='1'] .tb-card[data-iid='{warrior}']")
    expect(warrior_card.locator(".tb-name")).to_have_text("Young Warrior")
    expect(warrior_card.locator(".tb-stat.str")).to_have_text(re.compile(r"^⚔\d+$"))
    # Hidden information: bob's hand is a count, his deck too.
    html = page.content()
    for iid in db_thread(_state, session_id)["players"][1]["hand"]:
        assert f'data-iid="{iid}"' not in html
    # The text of a card on hover, beside it (a desktop).
    table.locator(f".tb-card[data-iid='{fireball}']").hover()
    expect(table.locator(".tb-pop")).to_contain_text("Wound target opponent's Squad by X.")
    for p in (page, phone_ru):
        assert overflow(p) <= 0
    # The first screen of a desktop holds the table: the whole hand above the bar.
    assert_hand_above_the_bar(page)
    # Long names wrap between words or at syllables, never inside one at a letter: with
    # breaking inside words forbidden, every name still fits its card (Russian: the long
    # words carry soft hyphens, «Пер-во-род-ный»).
    assert_names_fit(phone_ru)
    assert_names_fit(page)
    hyphenated = phone_ru.eval_on_selector_all(
        ".tb-name.long", "els => els.filter(e => e.textContent.includes('\\u00ad')).length"
    )
    assert hyphenated >= 1
    # On a phone the bar at the bottom never hides the end of the table.
    assert_bar_leaves_the_end_visible(phone_ru)
    shoot(page, "desktop-en-turn")
    shoot(phone_ru, "phone-ru-turn")
    # The rules in brief, from the table's head, each line citing its rules.
    rules = phone_ru.locator(".tb-rules")
    rules.locator("summary").click()
    expect(rules.locator(".tb-rules-body h3")).to_have_text("Как играть в «Восхождение»")
    expect(rules.locator(".tb-rules-body li")).to_have_count(6)
    expect(rules.locator(".tb-rules-body")).to_contain_text("(5.6.3.2)")
    assert overflow(phone_ru) <= 0
    shoot(phone_ru, "phone-ru-rules")
    rules.locator("summary").click()
    expect(rules.locator(".tb-rules-body")).to_be_hidden()

    # 1. Choose Fistfight, then the highlighted opponent: declared against seat 2.
    declare = {"type": "declare", "iid": fistfight, "target": 1}
    bob_panel = table.locator(".tb-player[data-seat='1']")
    expect(bob_panel.locator(".tb-aim")).to_be_hidden()
    table.locator(f".tb-card[data-iid='{fistfight}'] label.tb-pick").click()
    expect(table.locator(f".tb-card[data-iid='{fistfight}']")).to_have_class(re.compile("chosen"))
    expect(bob_panel).to_have_class(re.compile("tb-target"))
    aim = bob_panel.locator(".tb-aim.on")
    expect(aim).to_have_text("Declare against")
    shoot(page, "desktop-en-target")
    posted(page, session_id, declare, aim.click)
    assert db_thread(_apply, session_id, 0, seq, declare) == "applied"
    seq += 1
    assert db_thread(_apply, session_id, 1, seq, {"type": "pass"}) == "applied"
    seq += 1

    # 2. Choose the River Pirate and play it from the bar.
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    label = click_action(page, session_id, {"type": "play", "iid": pirate})
    assert label.startswith("Play")
    assert db_thread(_apply, session_id, 0, seq, {"type": "play", "iid": pirate}) == "applied"
    seq += 1

    # 3. Fireball: X with the stepper (− value +, bounded by the coins), one Play button.
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    table.locator(f".tb-card[data-iid='{fireball}'] label.tb-pick").click()
    step = table.locator(f".tb-bar[data-for='{fireball}'] form.tb-step")
    expect(step).to_be_visible()
    expect(step.locator(".tb-xv")).to_have_text("0")
    expect(step.locator(".tb-minus")).to_be_disabled()
    coins = db_thread(_state, session_id)["players"][0]["coins"]
    expect(step.locator("input[type=radio]")).to_have_count(coins + 1)  # X = 0..coins
    expect(step.locator("button[type=submit]")).to_have_count(1)
    for _ in range(4):
        step.locator(".tb-plus").click()
    step.locator(".tb-minus").click()
    expect(step.locator(".tb-xv")).to_have_text("3")
    shoot(page, "desktop-en-stepper")
    fire = {"type": "play", "iid": fireball, "x": 3}
    posted(page, session_id, fire, step.locator("button[type=submit]").click)
    assert db_thread(_apply, session_id, 0, seq, fire) == "applied"
    seq += 1

    # 4. The prompt: Fireball asks for a Squad; the warrior is highlighted with a button.
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    prompt = table.locator("[data-zone=pending]")
    expect(prompt).to_contain_text("Choose what to wound")
    target = table.locator(f".tb-card.can-act[data-iid='{warrior}']")
    expect(target).to_be_visible()
    shoot(page, "desktop-en-prompt")
    expect(phone_ru.locator("[data-zone=pending]")).to_contain_text("Выберите, что ранить")
    shoot(phone_ru, "phone-ru-prompt")
    phone_ru.set_viewport_size(DESKTOP)
    shoot(phone_ru, "desktop-ru-prompt")
    phone_ru.set_viewport_size(PHONE)
    legal = SYSTEM.legal_actions(db_thread(_state, session_id), 0)
    choose = next(a for a in legal if a["type"] == "choose" and a["picks"] == [warrior])
    posted(page, session_id, choose, target.locator("button[type=submit]").click)
    assert db_thread(_apply, session_id, 0, seq, choose) == "applied"
    seq += 1
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    expect(page.locator(".play-log")).to_contain_text("«Young Warrior» is destroyed")

    # 5. Choose the Pirate in play, then the attacking side of the Tactic (5.6.3.2.3).
    tactic = table.locator("[data-zone=tactics] .vt-tactic")
    table.locator(f".tb-card[data-iid='{pirate}'] label.tb-pick").click()
    expect(tactic).to_have_class(re.compile("tb-target"))
    attack = tactic.locator(".vt-side.atk .tb-aim.on")
    expect(attack).to_have_text("Attack")
    expect(tactic.locator(".vt-side.def .tb-aim.on")).to_have_text("Defend")
    shoot(page, "desktop-en-assign")
    assign = next(
        a
        for a in SYSTEM.legal_actions(db_thread(_state, session_id), 0)
        if a["type"] == "assign" and a["iid"] == pirate and a["side"] == "attack"
    )
    posted(page, session_id, assign, attack.click)
    assert db_thread(_apply, session_id, 0, seq, assign) == "applied"
    seq += 1
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    expect(tactic.locator(".vt-side.atk .tb-chip")).to_contain_text("River Pirate")
    assert overflow(phone_ru) <= 0
    assert not errors


OATH = "VS1-033"  # Oath of Fealty: an Order whose owner chooses one of two effects


def _staged_tactic_and_choice(session_id: int) -> int:
    """The staged turn of ``_staged`` with Oath of Fealty for Fireball, played on: seat 0
    declares Fistfight against seat 1 (a Tactic in play), seat 1 passes, seat 0 plays
    the Oath, whose owner is then asked to choose one of its two effects (a prompt with
    several options and the card's text). The seq to act at."""
    seq = _staged(session_id)
    session = GameSession.objects.get(pk=session_id)
    state = session.state
    fistfight, oath = state["players"][0]["hand"][:2]
    state["cards"][oath]["card"] = OATH
    session.save(update_fields=["state"])
    for seat, action in (
        (0, {"type": "declare", "iid": fistfight, "target": 1}),
        (1, {"type": "pass"}),
        (0, {"type": "play", "iid": oath}),
    ):
        assert apply_action(session_id, seat, seq, action).status == "applied", action
        seq += 1
    state = GameSession.objects.get(pk=session_id).state
    assert state["tactics"] and state["pending"]["kind"] == "choose"
    assert state["pending"]["player"] == 0 and len(state["pending"]["options"]) >= 2
    return seq


def test_the_hand_stays_above_the_bar_with_a_tactic_in_play_and_a_tall_prompt(
    alice, bob, live_server_url, db_thread, browser
):
    session_id = db_thread(lambda: _deal(alice, bob, bot=False).pk)
    seq = db_thread(_staged_tactic_and_choice, session_id)
    errors: list[str] = []
    pages = {}
    for name, locale, size in (
        ("desktop-en", "en-US", DESKTOP),
        ("desktop-ru", "ru-RU", DESKTOP),
        ("phone-en", "en-US", PHONE),
        ("phone-ru", "ru-RU", PHONE),
    ):
        context = browser.new_context(base_url=live_server_url, locale=locale)
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.set_viewport_size(size)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, "alice")
        page.goto(f"/play/{session_id}/")
        expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
        pages[name] = page
    for name, page in pages.items():
        table = page.locator(".vt.play-table")
        expect(table.locator("[data-zone=tactics] .vt-tactic")).to_have_count(1)
        prompt = table.locator("[data-zone=pending]")
        expect(prompt.locator("button[type=submit]")).to_have_count(2)
        expect(prompt.locator(".tb-pline").first).to_be_visible()  # the card's text
        shoot(page, f"{name}-tactic-prompt")
        assert overflow(page) <= 0, name
        if name.startswith("desktop"):
            # The first screen still holds the whole hand above the (taller) bar.
            assert_hand_above_the_bar(page)
        else:
            assert_bar_leaves_the_end_visible(page)
    expect(pages["desktop-ru"].locator("[data-zone=pending]")).to_contain_text("Выберите")
    assert not errors


def _looked_at_the_top(session_id: int) -> int:
    """The staged turn of ``_staged``, and seat 0 has looked at the top two cards of its
    Main Deck (as Wasteland Scout's effect lets it): the seq to act at."""
    seq = _staged(session_id)
    session = GameSession.objects.get(pk=session_id)
    me = session.state["players"][0]
    me["looked"] = list(me["main"][:2])
    session.save(update_fields=["state"])
    return seq


def test_the_top_of_the_main_deck_one_looked_at_is_on_screen_above_the_bar(
    alice, bob, live_server_url, db_thread, browser
):
    """On a desktop the hand row stays above the bar (0065); the cards the viewer looked
    at on top of their Main Deck are shown with it, not under it: their label and cards
    are on the first screen and nothing covers them."""
    session_id = db_thread(lambda: _deal(alice, bob, bot=False).pk)
    seq = db_thread(_looked_at_the_top, session_id)
    context = browser.new_context(base_url=live_server_url, locale="en-US")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_viewport_size(DESKTOP)
    log_in(page, "alice")
    page.goto(f"/play/{session_id}/")
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    zone = page.locator(".tb-player.mine [data-zone=looked_at]")
    expect(zone.locator(".tb-card")).to_have_count(2)
    expect(zone.locator(".tb-zlabel")).to_contain_text("Top of your Main Deck")
    shoot(page, "desktop-looked-at")
    page.evaluate("window.scrollTo(0, 0)")
    bar = page.locator(".tb-dock").bounding_box()
    box = zone.bounding_box()
    assert bar and box
    assert box["y"] + box["height"] <= DESKTOP["height"] - bar["height"], box
    covered = page.evaluate(
        """() => Array.from(document.querySelectorAll(
            '.tb-player.mine [data-zone=looked_at] .tb-zlabel, .tb-player.mine [data-zone=looked_at] .tb-card'
        )).filter(el => {
            const r = el.getBoundingClientRect();
            const x = r.left + Math.min(r.width / 2, 20);
            return [r.top + 4, r.top + r.height / 2, r.bottom - 4].some(y => {
                const hit = document.elementFromPoint(x, y);
                return !(hit && el.contains(hit));
            });
        }).map(el => el.textContent.trim().slice(0, 40))"""
    )
    assert not covered, f"covered on the first screen: {covered}"
    assert_hand_above_the_bar(page)
