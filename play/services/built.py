"""A deck sent from the deck builder to a casual table: against a bot, or a friend.

The builder hands the deck over as a signed ticket (``tournaments.built_decks``); only
its owner may seat it. The deck is checked again by the game's own deck service in the
format it was built for, against the pool it was built from (``play.decks.check_built``):
a refused deck creates nothing. The same request sent twice (a double click, a page
posted again) makes one table: the request's key is stored unique with the table
(``GameSession.origin_key``) and the database settles which post made it.
"""

from __future__ import annotations

import hashlib
import json

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from play import decks as casual_decks
from play.models import GameSession
from play.services.errors import NotAllowed, PlayError
from play.services.sessions import User
from play.services.starting import DEFAULT_BOT, create_bot_game, create_friend_game
from tournaments.built_decks import BuiltDeck, TicketError, unsign

BOT = "bot"
FRIEND = "friend"
OPPONENTS = (BOT, FRIEND)


def request_key(built: BuiltDeck, opponent: str, bot: str) -> str:
    """One request to play: the owner, the page's nonce, the opponent and the deck."""
    deck = json.dumps(
        {k: sorted(v) for k, v in built.deck.items()}, sort_keys=True, separators=(",", ":")
    )
    text = f"{built.owner}|{built.nonce}|{opponent}|{bot}|{built.system}|{built.format}|{deck}"
    return hashlib.sha256(text.encode()).hexdigest()


def read_ticket(user: User, ticket: str) -> BuiltDeck:
    """The deck a ticket carries, if ``user`` owns it."""
    if not user.is_authenticated:
        raise NotAllowed(_("Log in to play."))
    try:
        built = unsign(ticket)
    except TicketError:
        raise PlayError(
            _("This deck was sent from a page open too long: open the deck builder again.")
        ) from None
    if built.owner != user.pk:
        raise NotAllowed(_("Only the deck's owner can play it."))
    return built


def play_built_deck(
    user: User, ticket: str, opponent: str, *, bot: str = DEFAULT_BOT
) -> GameSession:
    """A casual table for the deck of ``ticket``: against a bot (it starts at once) or
    waiting for a friend (the invite link; the friend brings their own deck, checked as
    on /play/). ``DeckRefused`` names every broken rule, and nothing is created."""
    built = read_ticket(user, ticket)
    if opponent not in OPPONENTS:
        raise PlayError(_("Choose a bot or a friend to play against."))
    key = request_key(built, opponent, bot)
    made = GameSession.objects.filter(origin_key=key).first()
    if made is not None:
        return made
    deck = casual_decks.check_built(built)
    try:
        with transaction.atomic():
            if opponent == BOT:
                return create_bot_game(user, built.system, bot, deck=deck, origin_key=key)
            return create_friend_game(user, built.system, deck=deck, origin_key=key)
    except IntegrityError:
        # Another post of the same request made the table first.
        made = GameSession.objects.filter(origin_key=key).first()
        if made is None:
            raise
        return made
