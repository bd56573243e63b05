"""The end screen of a game the rules decided says how, in the game's own words (its
optional ``ending`` hook, ``engine.core.protocol``), on the table and the replay's last
step; a game without the hook keeps the generic line (tests/toygame)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.ascension.bots import make_bot
from engine.ascension.game import SYSTEM as ASCENSION
from play import tasks
from play.models import GameSession
from play.services.starting import create_bot_game
from tests.play.helpers import fresh

pytestmark = pytest.mark.django_db


def play_to_the_end(session: GameSession) -> GameSession:
    brain = make_bot("heuristic", ASCENSION, 5)
    for _ in range(20_000):
        session = fresh(session)
        if session.status != GameSession.Status.RUNNING:
            return session
        (seat,) = ASCENSION.to_act(session.state)
        if session.seats.get(number=seat).is_bot:
            assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
        else:
            action = brain.choose(session.state, seat)
            args = (session.pk, seat, session.seq, action)
            assert tasks.apply_action.apply(args=args).get() == "applied"
    raise AssertionError("the game did not end")


def end_of(page: str) -> str:
    start = page.index('class="play-end')
    return page[start : page.index("</section>", start)]


def test_the_end_screen_says_how_the_rules_decided_the_game(client, alice):
    session = play_to_the_end(create_bot_game(alice, "ascension", "heuristic"))
    assert session.end_reason == GameSession.EndReason.RULES
    scores = session.state["scores"]
    client.force_login(alice)
    end = end_of(client.get(reverse("play:game", args=[session.pk])).content.decode())
    assert "Decided by the rules." not in end
    assert "The honor pool ran out (A-41) — most honor wins:" in end
    assert f"alice {scores[0]}" in end and f"Bot (heuristic) {scores[1]}" in end
    replay = client.get(reverse("play:replay", args=[session.pk]), {"step": session.seq})
    assert "The honor pool ran out (A-41)" in end_of(replay.content.decode())
    client.cookies["django_language"] = "ru"
    ru = end_of(client.get(reverse("play:game", args=[session.pk])).content.decode())
    assert "Запас чести исчерпан (A-41)" in ru and f"alice {scores[0]}" in ru
