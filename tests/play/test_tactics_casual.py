"""Ascension Tactics on the site: a duel against a bot from `/play/`, decided by its rules
engine and replayed from the log. The table is the platform's generic one for now."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.tactics.bots import make_bot
from engine.tactics.game import SYSTEM
from play import tasks
from play.models import GameSession
from play.services.reading import replay_state

pytestmark = pytest.mark.django_db

BRAIN = make_bot("heuristic", SYSTEM, 3)


def test_a_tactics_duel_against_a_bot_is_played_to_the_end(client, alice):
    client.force_login(alice)
    assert 'id="new-tactics"' in client.get(reverse("play:home")).content.decode()
    client.post(reverse("play:new_bot_game"), {"system": "tactics", "bot": "heuristic"})
    session = GameSession.objects.get(system="tactics")
    assert client.get(reverse("play:game", args=[session.pk])).status_code == 200
    for _ in range(3000):
        session = GameSession.objects.get(pk=session.pk)
        if session.status != GameSession.Status.RUNNING:
            break
        (seat,) = SYSTEM.to_act(session.state)
        if session.seats.get(number=seat).is_bot:
            assert tasks.bot_move.apply(args=(session.pk, session.seq)).get() == "applied"
        else:
            action = BRAIN.choose(session.state, seat)
            args = (session.pk, seat, session.seq, action)
            assert tasks.apply_action.apply(args=args).get() == "applied"
    assert session.status == GameSession.Status.FINISHED
    assert replay_state(session) == session.state
    assert client.get(reverse("play:replay", args=[session.pk])).status_code == 200
