"""What many play tests need: legal Blitz decklists, a session read again, and a
websocket to a game (``own_channel_layer`` is in ``conftest.py``)."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from engine.voskhozhdenie.decks import CHECKER, deck_text
from engine.voskhozhdenie.game import SYSTEM as VOSKHOZHDENIE
from engine.voskhozhdenie.sample import sample_deck
from play.models import GameSession


def legal_deck_text(seed: int) -> str:
    """A «Восхождение» decklist that passes the Blitz checks, the same for the same seed."""
    for attempt in range(200):
        deck = sample_deck(VOSKHOZHDENIE.db, seed * 1000 + attempt, cities=2, main=20)
        text = deck_text(deck, VOSKHOZHDENIE.db)
        if not CHECKER.validate(text, "blitz", VOSKHOZHDENIE.db).problems:
            return text
    raise AssertionError("no legal sample deck")


def fresh(session: GameSession) -> GameSession:
    return GameSession.objects.get(pk=session.pk)


def communicator(session: GameSession, user, spectate: bool = False) -> WebsocketCommunicator:
    """A socket to the game (or its spectator channel) as ``user``; None: an anonymous one.

    The pushes of what the test did before (a move, the game's start) leave from the
    process's push thread after ``push.send`` has returned; they are waited for here, so
    one still on its way cannot reach the socket after the view it gets on connect.
    """
    from django.contrib.auth.models import AnonymousUser

    from config import push
    from config.asgi import application

    push.flush()

    path = f"/ws/play/{session.pk}/" + ("spectate/" if spectate else "")
    comm = WebsocketCommunicator(
        application, path, headers=[(b"host", b"testserver"), (b"origin", b"http://testserver")]
    )
    comm.scope["user"] = user if user is not None else AnonymousUser()
    return comm
