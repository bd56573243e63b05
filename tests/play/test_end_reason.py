"""The end screen of a game the rules decided says how, in the game's own words (its
optional ``ending`` hook, ``engine.core.protocol``), on the table and the replay's last
step; a game without the hook keeps the generic line (tests/toygame)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from play.models import GameSession
from play.services.starting import create_bot_game
from tests.play.test_casual import play

pytestmark = pytest.mark.django_db


def end_of(page: str) -> str:
    start = page.index('class="play-end')
    return page[start : page.index("</section>", start)]


def test_the_end_screen_says_how_the_rules_decided_the_game(client, alice):
    session = play(create_bot_game(alice, "ascension", "heuristic"), 20_000)
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
