"""The villains' panel of the Ascension Tactics table (``templates/play/tactics/table.html``,
the plan of ``engine.tactics.describe``): in solo at Hard the hero sees the scheme deck's
count, the threat level, the scheme played last, the villain cultists and the villains
with their tokens; in archvillain the creator at the villain player's seat (the table mode
``arch_villain``, decision 0055) sees their own schemes. Desktop and phone, English and
Russian; with ``PLAY_SCREENSHOTS=<dir>`` the pages are saved there.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from engine.tactics.game import SYSTEM
from play.models import GameSession
from play.services.acting import apply_action, run_bot
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    TACTICS_BOARD_DRAWN,
    overflow,
    screenshot,
    start_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page: Page, name: str) -> None:
    screenshot(page, f"tactics-villains-{name}", TACTICS_BOARD_DRAWN)


def _solo_after_a_villain_turn(user) -> int:
    """A solo game at Hard; the hero ends the first turn, the villains play two schemes."""
    config = {"mode": "solo", "difficulty": "hard"}
    session = start_table("tactics", user, [user], 4, config=config)
    assert apply_action(session.pk, 0, session.seq, {"type": "end_turn"}).status == "applied"
    return session.pk


def _arch_villain_turn(user) -> int:
    """Archvillain with ``user`` at the villain seat; the bot's hero turn is played."""
    config = {"mode": "archvillain", "difficulty": "normal"}
    session = start_table("tactics", user, ["heuristic", user], 6, config=config)
    for _ in range(500):
        session = GameSession.objects.get(pk=session.pk)
        if SYSTEM.to_act(session.state) == (1,):
            iid = session.state["villain"]["hand"][0]  # T-99: the villain plays a scheme
            action = {"type": "scheme", "iid": iid}
            assert apply_action(session.pk, 1, session.seq, action).status == "applied"
            return session.pk
        run_bot(session.pk, session.seq)
    raise AssertionError("the hero's turn did not end")


def _state(session_id: int) -> dict:
    return GameSession.objects.get(pk=session_id).state


def _look(page: Page, name: str, words: tuple[str, str]) -> None:
    """The panel at desktop and phone size, in English then in Russian."""
    panel = page.locator(".tx [data-zone=villains]")
    for lang, heading in zip(("en", "ru"), words, strict=True):
        if lang == "ru":
            page.context.add_cookies(
                [{"name": "django_language", "value": "ru", "url": page.url.split("/play/")[0]}]
            )
            page.reload()
        expect(panel.locator("h3")).to_contain_text(heading)
        for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            expect(panel).to_be_visible()
            assert overflow(page) <= 0, f"the table is {overflow(page)}px wider ({size}, {lang})"
            shoot(page, f"{name}-{size}-{lang}")


def test_the_hero_sees_the_villains_panel_in_solo(alice, live_server_url, db_thread, open_page):
    session_id = db_thread(_solo_after_a_villain_turn, alice)
    state = db_thread(_state, session_id)
    v = state["villain"]
    page, errors = open_page(f"/play/{session_id}/", "alice")
    panel = page.locator(".tx [data-zone=villains]")
    expect(panel).to_be_visible()
    expect(panel.locator("[data-v=deck]")).to_have_text(str(len(v["deck"])))
    expect(panel.locator("[data-v=threat]")).to_have_text(str(len(v["discard"])))
    last = SYSTEM.info[state["cards"][v["discard"][-1]]]
    expect(panel).to_contain_text(last.name_en)
    expect(panel.locator(".tx-res.villain")).to_have_count(4)  # T-81: four villains
    _look(page, "solo", ("Hard", "Сложная"))  # the engine's words (describe.py)
    assert not errors, errors


def test_the_creator_plays_the_villains_and_sees_their_schemes(
    alice, live_server_url, db_thread, open_page
):
    session_id = db_thread(_arch_villain_turn, alice)
    state = db_thread(_state, session_id)
    page, _errors = open_page(f"/play/{session_id}/", "alice")
    panel = page.locator(".tx [data-zone=villains]")
    expect(panel).to_be_visible()
    hand = [SYSTEM.info[state["cards"][i]].name_en for i in state["villain"]["hand"]]
    for name in hand:
        expect(panel).to_contain_text(name)
    # the scheme played this turn and the two left in hand
    expect(panel.locator(".tx-scheme")).to_have_count(len(hand) + 1)
    assert len(hand) == 2
    _look(page, "arch", ("Normal", "Обычная"))
