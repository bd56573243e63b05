"""What the simulator and the engine bench need to play «Восхождение» bot games.

Decks from the real card sets are legal for the format the kit is asked for: the deck
checker (``engine.voskhozhdenie.decks``) accepts them as of the newest set's release
date (``legal_deck``; a test runs many of them through the checker). The synthetic
pool of ``engine.voskhozhdenie.sample`` is a test pool, not a set: it holds only three
Cities, so its decks stay "legal-ish" (``sample_deck``: Blitz-sized City sets and Main
Decks of the size the format asks for).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from datetime import date
from typing import Any

from engine.voskhozhdenie.bots import make_bot as _make_bot
from engine.voskhozhdenie.cards import Card, CardDB
from engine.voskhozhdenie.decks import (
    CHECKER,
    FORMATS,
    STANDARD_RELEASES,
    FormatSpec,
    card_key,
)
from engine.voskhozhdenie.game import Voskhozhdenie
from engine.voskhozhdenie.sample import sample_db, sample_deck

# The constructed formats the kit builds decks for (Draft needs a drafted pool).
KIT_FORMATS = ("standard", "eternal", "chosen", "blitz")
SAMPLE_SET = "TST"  # the set code of the synthetic pool (``sample.make_db``)
ATTEMPTS = 50  # City sets tried before a pool is declared unable to give a legal deck


def _allowed_sets(db: CardDB, fmt: str, as_of: date | None) -> set[str] | None:
    """The release codes a format allows (4.5.1.11, 4.5.3.11), or None: any release."""
    releases = FORMATS[fmt].releases
    if releases == "latest":
        return {s.code for s in db.latest_sets(STANDARD_RELEASES, as_of)}
    if releases == "chosen":
        return set(CHECKER.format_rules().chosen_sets)
    return None


# Legal cards per card database and allowed releases (the entry holds the database, so its id
# is not reused while it is here).
_LEGAL: dict[tuple[int, frozenset[str] | None], tuple[CardDB, list[Card]]] = {}


def _legal_cards(db: CardDB, allowed: set[str] | None) -> list[Card]:
    """Non-Minor cards (4.5.x.3) of which some printing is in an allowed release, one per
    name (2.2.1), in a stable order."""
    out: dict[str, Card] = {}
    for c in db.all_cards():
        if c.minor or card_key(c) in out:
            continue
        if allowed is None or any(p.set_code in allowed for p in (db.printings(c) or (c,))):
            out[card_key(c)] = c
    return list(out.values())


def legal_deck(db: CardDB, seed: int, fmt: str = "standard", as_of: date | None = None) -> dict:
    """A random deck of ``fmt`` that the deck checker accepts as of ``as_of`` (default: the
    newest set's release date), as ``new_game`` takes it.

    The City set is drawn first (different Cities, 4.5.x.1); the colour budget is 10 cards
    per City of a colour (4.5.x.9, AMB-10; Neutral cards are free, 4.5.x.10); the Main
    Deck gets exactly the minimum size from the playable cards (a Cost, not a City nor a
    Patron, 4.5.x.8) and the Reinforcement Deck up to its maximum from the cards with
    "Reinforcement" and at most one Patron (4.5.x.5-7), at most 3 copies of a name in the
    Full Deck (4.5.x.2). Raises ValueError when the pool cannot give such a deck.
    """
    spec = FORMATS[fmt]
    if spec.limited:
        raise ValueError(f"{fmt} decks are built from a drafted pool")
    if as_of is None:
        as_of = max(s.released for s in db.sets)
    allowed = _allowed_sets(db, fmt, as_of)
    key = (id(db), frozenset(allowed) if allowed is not None else None)
    hit = _LEGAL.get(key)
    if hit is None or hit[0] is not db:
        if len(_LEGAL) > 64:
            _LEGAL.clear()
        hit = _LEGAL[key] = (db, _legal_cards(db, allowed))
    legal = hit[1]
    cities = [c for c in legal if c.type == "city"]
    playable = [c for c in legal if c.type not in ("city", "patron") and c.cost is not None]
    reinforcing = [
        c
        for c in legal
        if c.cost is not None and (c.type == "patron" or "reinforcement" in c.keywords)
    ]
    if len(cities) < spec.cities:
        raise ValueError(f"the pool has {len(cities)} legal Cities; {fmt} needs {spec.cities}")
    r = random.Random(seed)
    for _ in range(ATTEMPTS):
        deck = _fill(r, spec, r.sample(cities, spec.cities), playable, reinforcing)
        if deck is not None:
            return deck
    raise ValueError(f"no legal {fmt} deck found in the pool after {ATTEMPTS} City sets")


def _fill(
    r: random.Random,
    spec: FormatSpec,
    chosen: list[Card],
    playable: list[Card],
    reinforcing: list[Card],
) -> dict | None:
    """The Reinforcement and Main Decks for this City set, or None if they cannot be filled."""
    budget = Counter(
        {col: 10 * n for col, n in Counter(c for x in chosen for c in x.colours).items()}
    )
    copies: Counter[str] = Counter()

    def fits(card: Card) -> bool:
        limit = spec.copy_limit
        if limit is not None and copies[card_key(card)] >= limit:
            return False
        return all(budget[col] > 0 for col in card.colours)

    def take(card: Card, into: list[str]) -> None:
        copies[card_key(card)] += 1
        for col in card.colours:
            budget[col] -= 1
        into.append(card.id)

    reinf: list[str] = []
    patron = False
    for card in r.sample(reinforcing, len(reinforcing)):
        if len(reinf) >= spec.reinforcement_max:
            break
        if card.type == "patron" and patron:
            continue
        if fits(card):
            patron = patron or card.type == "patron"
            take(card, reinf)
    main: list[str] = []
    # each name up to 3 times, in a random order: a uniform-ish mix of the legal cards
    slots = [c for c in playable for _ in range(spec.copy_limit or 3)]
    r.shuffle(slots)
    for card in slots:
        if len(main) >= spec.main_min:
            break
        if fits(card):
            take(card, main)
    if len(main) < spec.main_min:
        return None
    r.shuffle(main)
    return {"cities": [c.id for c in chosen], "main": main, "reinforcement": reinf}


def is_sample_db(db: CardDB) -> bool:
    return [s.code for s in db.sets] == [SAMPLE_SET]


class Kit:
    key = "voskhozhdenie"
    formats = KIT_FORMATS

    def system(self, sample: bool) -> tuple[Voskhozhdenie, str]:
        """The engine over the real card sets (or the synthetic pool), and which one it is."""
        if not sample:
            try:
                from engine.voskhozhdenie.loader import load_system

                db = load_system("voskhozhdenie")
                if any(c.type == "city" for c in db.all_cards()):
                    return Voskhozhdenie(db), "real sets"
                print("(the real sets hold no City: using the sample pool)", file=sys.stderr)
            except Exception as exc:  # the loader names the bad file, card and field
                print(f"(cannot load the real sets: {exc}; using the sample pool)", file=sys.stderr)
        return Voskhozhdenie(sample_db()), "sample pool"

    def decks(self, system: Voskhozhdenie, players: int, seed: int, fmt: str = "standard") -> list:
        """One deck per seat: legal for ``fmt`` from the real sets (``legal_deck``), legal-ish
        from the synthetic pool."""
        if is_sample_db(system.db):
            spec = FORMATS[fmt]
            return [
                sample_deck(system.db, seed * 31 + i, cities=spec.cities, main=spec.main_min)
                for i in range(players)
            ]
        return [legal_deck(system.db, seed * 31 + i, fmt) for i in range(players)]

    def game_config(self, players: int, teams: bool = False) -> dict[str, Any]:
        """The game config for ``players`` seats; ``teams``: two teams of allies (1.2.2) in
        alternate seats, e.g. 2v2 = [[0, 2], [1, 3]] (5.3.1: turns alternate between them)."""
        if not teams:
            return {}
        if players < 4 or players % 2:
            raise ValueError("teams need an even number of players, at least 4 (2v2)")
        return {"teams": [list(range(0, players, 2)), list(range(1, players, 2))]}

    def make_bot(self, name: str, system: Any, seed: int):
        return _make_bot(name, system, seed)


KIT = Kit()
