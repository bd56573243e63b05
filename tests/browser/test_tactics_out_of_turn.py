"""A treasure used out of turn at the Ascension Tactics table (T-67, C-55): during the
bot's turn the person holding a token sees the "Out of turn" panel with the treasure
buttons, clicks one (play.js posts it, 202), and once the move is applied (run here, as
the server has no worker) the table is redrawn with the token spent and the bot still to
act. With ``PLAY_SCREENSHOTS=<dir>`` the panel is saved there, desktop and phone, English
and Russian.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from engine.core.protocol import interrupts
from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play.models import GameSession
from play.services.acting import apply_action
from play.services.starting import create_bot_game
from tests.browser.conftest import DESKTOP, PHONE, TACTICS_BOARD_DRAWN, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BRAIN = make_bot("heuristic", SYSTEM, 11)
DEF_TOKEN = 1  # +2 DEF (C-55)


def _bots_turn_with_a_token(username: str) -> tuple[int, int, list[dict]]:
    """A game of the user against a bot, played on to the bot's turn, the user holding a
    +2 DEF token; the game, its seq and what the user may do out of turn."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=username)
    session = create_bot_game(user, "tactics", "heuristic")
    state = session.state
    for _ in range(400):
        if state.get("phase") != "draft" and SYSTEM.to_act(state) == (1,):
            break
        (seat,) = SYSTEM.to_act(state)
        state, _events = SYSTEM.apply(state, seat, BRAIN.choose(state, seat))
    state["players"][0]["treasure"].append(DEF_TOKEN)
    GameSession.objects.filter(pk=session.pk).update(state=state)
    session = GameSession.objects.get(pk=session.pk)
    return session.pk, session.seq, interrupts(SYSTEM, session.state, 0)


def _apply(session_id: int, seq: int, action: dict) -> tuple[str, list, tuple]:
    status = apply_action(session_id, 0, seq, action).status
    state = GameSession.objects.get(pk=session_id).state
    return status, state["players"][0]["treasure"], tuple(SYSTEM.to_act(state))


def shoot(page: Page, name: str) -> None:
    screenshot(page, f"tactics-{name}", TACTICS_BOARD_DRAWN)


def test_a_person_uses_a_treasure_during_the_bots_turn(
    alice, live_server_url, db_thread, open_page
):
    session_id, seq, offered = db_thread(_bots_turn_with_a_token, "alice")
    assert offered
    page, errors = open_page(f"/play/{session_id}/", "alice")
    panel = page.locator("[data-zone=turn]")
    expect(panel.get_by_role("heading", name="Out of turn")).to_be_visible()
    buttons = panel.locator("button[data-type=treasure]")
    expect(buttons).to_have_count(len(offered))
    shoot(page, "out-of-turn-desktop-en")
    page.set_viewport_size(PHONE)
    shoot(page, "out-of-turn-phone-en")
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server_url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(panel.locator("button[data-type=treasure]")).to_have_count(len(offered))
    shoot(page, "out-of-turn-phone-ru")
    page.set_viewport_size(DESKTOP)
    shoot(page, "out-of-turn-desktop-ru")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server_url}])
    page.reload()

    action = json.loads(buttons.first.get_attribute("data-action"))
    assert action in offered
    with page.expect_response(re.compile(rf"/play/{session_id}/act/$")) as posted:
        buttons.first.click()
    assert posted.value.status == 202, posted.value.text()
    status, tokens, to_act = db_thread(_apply, session_id, seq, action)
    assert (status, tokens, to_act) == ("applied", [], (1,))
    # The push redraws the table: the token is spent, nothing is offered out of turn.
    expect(page.locator("#play")).to_have_attribute("data-seq", str(seq + 1))
    expect(page.locator("[data-zone=turn]")).to_have_count(0)
    assert errors == []
