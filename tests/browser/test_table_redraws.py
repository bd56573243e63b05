"""A casual game against a bot, as a player starts it from /play/, seen on a desktop while
the table redraws: the table's own stylesheets (the links inside ``#play``) stay applied
through every redraw (``static/js/play.js``), and the hand of a game with nothing beside
it takes the whole row (``static/css/cards.css``); conceded, the end screen and the
replay's steps (``static/js/replay.js``) likewise.

Also what a player sees of a table change as it happens: a friend table's invitation goes
once the table has started, and a «Восхождение» Direct Attack's title stays in its box on a
Russian phone.

The game is started by the page's own form on an embedded-mode daphne (its worker plays
the bot), so the redraws are those of a real game: the player's moves and the bot's.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Counts the animation frames in which a stylesheet the table links has no loaded sheet
# anywhere in the document (the table drawn unstyled).
WATCH_STYLES = """() => {
  window.unstyledFrames = 0;
  const loaded = (href) => [...document.querySelectorAll('link[rel="stylesheet"]')]
    .some((l) => l.getAttribute("href") === href && l.sheet);
  const tick = () => {
    const links = [...document.querySelectorAll('#play link[rel="stylesheet"]')];
    if (links.some((l) => !loaded(l.getAttribute("href")))) { window.unstyledFrames += 1; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def test_an_ascension_table_keeps_its_styles_through_redraws_and_its_hand_fills_the_row(
    alice, embedded_server, browser
):
    context = browser.new_context(base_url=embedded_server, locale="en-US", viewport=DESKTOP)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, "alice")
    page.goto("/play/")
    page.locator("#new-ascension").get_by_role("button", name="Start").click()
    table = page.locator(".play-table.asc")
    expect(table.locator(".tb-player.mine [data-zone=hand] .tb-card")).to_have_count(5)

    # The hand strip has no zone beside it: it spans its row, not three fifths of it.
    # (Measured inside the row's padding: on a desktop the row sticks above the bar with
    # padding of its own.)
    hand = table.locator(".tb-player.mine [data-zone=hand]").bounding_box()
    row = table.locator(".tb-player.mine .tb-handrow").evaluate(
        """el => { const s = getComputedStyle(el);
                   return el.getBoundingClientRect().width - parseFloat(s.paddingLeft)
                          - parseFloat(s.paddingRight); }"""
    )
    assert hand and hand["width"] >= row - 2, (hand, row)

    page.evaluate(WATCH_STYLES)
    redraws = 0
    for _ in range(12):
        seq = page.locator("#play").get_attribute("data-seq")
        buttons = page.locator("#play .asc-actions form.act button")
        if buttons.count():
            buttons.first.click()
        expect(page.locator("#play")).not_to_have_attribute("data-seq", seq)
        redraws += 1
        if page.locator(".play-result").count():
            break
    assert redraws >= 5
    assert page.evaluate("window.unstyledFrames") == 0

    # Conceded: the end screen names the winner and offers the next game; the replay's
    # steps keep the table's styles too.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("form.concede button").click()
    end = page.locator(".play-end")
    expect(end.locator(".play-end-winner")).to_contain_text("Bot (heuristic)")
    expect(end.locator("form.rematch button")).to_be_visible()
    end.get_by_role("link", name="Watch the replay").click()
    expect(page.locator("[data-play]")).to_be_visible()
    page.evaluate(WATCH_STYLES.replace("#play", "#replay"))
    total = int(page.locator("#replay").get_attribute("data-total"))
    page.locator("[data-go=first]").click()
    expect(page.locator("[data-step-out]")).to_have_text(f"0 / {total}")
    for k in (1, 2, 3):
        page.locator("[data-go=forward]").click()
        expect(page.locator("[data-step-out]")).to_have_text(f"{k} / {total}")
    assert page.evaluate("window.unstyledFrames") == 0
    assert errors == []
    context.close()


def test_the_invitation_goes_from_the_page_once_the_friend_table_starts(
    alice, bob, new_page, db_thread
):
    from play.models import GameSession
    from play.services.starting import join_game

    page = new_page()
    page.set_viewport_size(DESKTOP)
    log_in(page, "alice")
    page.goto("/play/")
    page.locator("#new-ascension select[name=bots]").select_option("0")
    page.locator("#new-ascension").get_by_role("button", name="Start").click()
    invite = page.locator(".play-invite")
    expect(invite).to_be_visible()
    expect(page.locator("#play")).to_have_attribute("data-status", "waiting")
    token = db_thread(lambda: GameSession.objects.get(created_by=alice).invite_token)
    db_thread(join_game, bob, token)
    # The push redraws the table as started: the invitation to a full table goes with it.
    expect(page.locator("#play")).to_have_attribute("data-status", "running")
    expect(invite).to_be_hidden()


def _direct_attack(session_id: int) -> int:
    """The staged turn of the «Восхождение» table tests with a Direct Attack declared by
    seat 0 (a Tactic in play with no card: its title in the dashed box). The seq."""
    from engine.voskhozhdenie.game import SYSTEM
    from play.models import GameSession
    from play.services.acting import apply_action
    from tests.browser.test_voskhozhdenie_table import _staged

    seq = _staged(session_id)
    state = GameSession.objects.get(pk=session_id).state
    action = next(a for a in SYSTEM.legal_actions(state, 0) if a["type"] == "direct_attack")
    assert apply_action(session_id, 0, seq, action).status == "applied"
    return seq + 1


def test_a_direct_attacks_title_stays_in_its_box_on_a_russian_phone(
    alice, bob, live_server_url, db_thread, browser
):
    from tests.browser.conftest import PHONE
    from tests.browser.test_voskhozhdenie_table import _deal

    session_id = db_thread(lambda: _deal(alice, bob, bot=False).pk)
    seq = db_thread(_direct_attack, session_id)
    context = browser.new_context(base_url=live_server_url, locale="en-US", viewport=PHONE)
    page = context.new_page()
    log_in(page, "alice")
    context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server_url}])
    page.goto(f"/play/{session_id}/")
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq))
    box = page.locator(".vt-direct").first
    expect(box).to_contain_text("Прямое нападение")
    # Nothing of the title sticks out of its dashed box, and no word of it is broken:
    # two words, at most two lines.
    assert box.evaluate("el => el.scrollWidth - el.clientWidth") <= 0
    lines = box.evaluate(
        """el => { const r = document.createRange(); r.selectNodeContents(el);
          return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }"""
    )
    assert lines <= 2, lines
    context.close()
