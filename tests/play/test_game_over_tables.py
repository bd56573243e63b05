"""A game that is over claims nobody is to act: after a concession each game's table
drops its step, its turn and its "to act" markers (the end screen says how it ended)."""

from __future__ import annotations

import importlib
import re

import pytest
from django.test import Client
from django.urls import reverse

from engine.tactics import draft as champion_draft
from play.models import GameSession
from play.services.acting import apply_action
from play.services.engines import engine_of
from play.services.starting import create_bot_game

pytestmark = pytest.mark.django_db

# What claims someone is to act on each game's table, and the state in which it shows.
TURN_MARKS = {
    # «Восхождение»: the headline's step and turn (its Actions step, 5.6.3).
    "voskhozhdenie": (
        lambda s: s["step"] == "action" and s["active"] is not None,
        ['class="tb-hstat turn"', '<span class="muted">Step</span>'],
    ),
    "ascension": (lambda s: True, ['class="tb-hstat turn"']),
    "berserk": (lambda s: s["phase"] == "main", ["Active: <strong>"]),
    # The champion draft, the bot's pick (seat 2).
    "tactics": (lambda s: champion_draft.to_pick(s["draft"]) == 1, ["Seat 2 is picking."]),
}


def table_head(html: str) -> str:
    """The table without its log (which tells what happened, turns included)."""
    return re.split(r'class="play-log', html)[0]


@pytest.mark.parametrize("system", sorted(TURN_MARKS))
def test_a_conceded_game_names_nobody_to_act(alice, system):
    ready, marks = TURN_MARKS[system]
    session = create_bot_game(alice, system)
    engine = engine_of(system)
    bots = importlib.import_module(f"engine.{system}.bots")
    for k in range(300):  # both seats played like the bot until the markers show
        session.refresh_from_db()
        if ready(session.state):
            break
        (seat, *_rest) = engine.to_act(session.state)
        action = bots.make_bot("heuristic", engine, k).choose(session.state, seat)
        assert apply_action(session.pk, seat, session.seq, action).status == "applied"
    client = Client()
    client.force_login(alice)
    table = reverse("play:table", args=[session.pk])
    before = table_head(client.get(table).content.decode())
    for mark in marks:
        assert mark in before, (mark, "shown while the game runs")
    assert client.post(reverse("play:concede", args=[session.pk])).status_code == 302
    session.refresh_from_db()
    assert session.status == GameSession.Status.FINISHED
    after = table_head(client.get(table).content.decode())
    assert "Game over" in after
    for mark in marks:
        assert mark not in after, (mark, "still shown once the game is over")
