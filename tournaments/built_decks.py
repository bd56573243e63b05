"""A deck built from a pool, handed from the page it was built on to a casual table.

The deck builder (the drafting app) checks a deck with the game's own deck rules for
the format it was built for; the play app seats it at a table. Neither app imports the
other, so the builder hands the deck over as a signed ticket: the owner, the game, the
format, the deck (section key -> card ids), the pool it was checked against, where it
was built and a nonce of the page it was sent from. The signature is what lets the table
trust the pool and the owner; the table checks the deck again with the same rules
(``Decklists.check_sections``) before anything is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core import signing

SALT = "gauntlet.built-deck"
MAX_AGE = 60 * 60  # seconds a ticket stays good: the builder page is reloaded by then


class TicketError(ValueError):
    """A ticket that was tampered with, has expired, or is not a ticket at all."""


@dataclass(frozen=True)
class BuiltDeck:
    """One built deck. ``origin`` says where it was built (e.g. ``{"kind": "pod", "pod":
    12, "seat": 3, "label": "Friday draft", "url": "/draft/12/deck/"}``); ``sets`` are the
    booster sets its pool came from and ``supplied`` the cards an organiser gave every
    player besides (each copy listed), so an opponent's deck can come from the same."""

    owner: int
    system: str
    format: str
    deck: Mapping[str, Sequence[str]]
    pool: Sequence[str]
    origin: Mapping[str, Any] = field(default_factory=dict)
    sets: Sequence[str] = ()
    supplied: Sequence[str] = ()
    nonce: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "system": self.system,
            "format": self.format,
            "deck": {key: list(ids) for key, ids in self.deck.items()},
            "pool": list(self.pool),
            "origin": dict(self.origin),
            "sets": list(self.sets),
            "supplied": list(self.supplied),
            "nonce": self.nonce,
        }


def sign(built: BuiltDeck) -> str:
    """The ticket of ``built``: URL-safe text, compressed (a pool is a few hundred ids)."""
    return signing.dumps(built.as_dict(), salt=SALT, compress=True)


def unsign(ticket: str, max_age: int = MAX_AGE) -> BuiltDeck:
    """The deck a ticket carries, or ``TicketError``."""
    try:
        data = signing.loads(ticket or "", salt=SALT, max_age=max_age)
        deck = data["deck"]
        if not isinstance(deck, dict):
            raise TypeError("deck")
        return BuiltDeck(
            owner=int(data["owner"]),
            system=str(data["system"]),
            format=str(data["format"]),
            deck={str(k): [str(c) for c in v] for k, v in deck.items()},
            pool=[str(c) for c in data["pool"]],
            origin=dict(data.get("origin") or {}),
            sets=[str(s) for s in data.get("sets") or ()],
            supplied=[str(c) for c in data.get("supplied") or ()],
            nonce=str(data.get("nonce") or ""),
        )
    except signing.SignatureExpired:
        raise TicketError("expired") from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise TicketError("bad") from None
