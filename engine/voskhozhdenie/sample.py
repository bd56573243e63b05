"""A small synthetic card pool (not a real set) for tests, the benchmark and bots.

``sample_db()`` returns a CardDB of made-up cards that exercise every card type and the
common ability kinds; ``sample_deck(db, seed)`` builds a legal-ish Blitz-sized deck from
any CardDB (the simulator uses it with the real sets too).
"""

from __future__ import annotations

import random
from datetime import date

from engine.voskhozhdenie.cards import Card, CardDB, CardSet, Cost


def card(
    cid: str,
    type_: str,
    *,
    cost: Cost | None = None,
    strength: int | None = None,
    subtypes: tuple[str, ...] = (),
    colours: frozenset[str] = frozenset(),
    supply: int = 0,
    keywords: frozenset[str] = frozenset(),
    minor: bool = False,
    abilities: tuple = (),
) -> Card:
    """A Card with test-friendly defaults; ``cid`` doubles as both names."""
    default_sub = {
        "city": ("fort",),
        "squad": ("soldier",),
        "tactic": ("confrontation",),
        "order": ("strategy",),
        "relic": ("tool",),
        "fortification": ("wall",),
        "patron": ("aspect",),
    }
    return Card(
        id=cid,
        set_code="TST",
        number=abs(hash(cid)) % 1000,
        name_ru=cid,
        name_en=cid,
        type=type_,
        subtypes=subtypes or default_sub[type_],
        colours=colours,
        cost=cost,
        strength=strength,
        supply=supply,
        keywords=keywords,
        minor=minor,
        abilities=tuple(abilities),
    )


def make_db(cards: list[Card]) -> CardDB:
    return CardDB.build(
        "voskhozhdenie", [CardSet("TST", "Тест", "Test", date(2020, 1, 1), tuple(cards))]
    )


def sample_cards() -> list[Card]:
    c = Cost
    return [
        card("CITY-A", "city", strength=10, supply=2),
        card("CITY-B", "city", strength=8, supply=2),
        card("CITY-C", "city", strength=12, supply=1),
        card("SQ-1", "squad", cost=c(1), strength=2),
        card("SQ-2", "squad", cost=c(2), strength=3),
        card("SQ-3", "squad", cost=c(3), strength=5),
        card("SQ-Z", "squad", cost=c(2), strength=3, keywords=frozenset({"zeal"})),
        card(
            "SQ-DRAW",
            "squad",
            cost=c(3),
            strength=3,
            abilities=(
                {
                    "kind": "triggered",
                    "trigger": {"event": "enters_battlefield", "card": "self"},
                    "effects": [{"op": "draw", "count": 1}],
                },
            ),
        ),
        card(
            "SQ-LORD",
            "squad",
            cost=c(4),
            strength=4,
            subtypes=("officer",),
            abilities=(
                {
                    "kind": "static",
                    "effects": [
                        {
                            "op": "strength",
                            "amount": 1,
                            "target": {
                                "select": "all",
                                "filter": {"type": "squad", "owner": "you", "other": True},
                            },
                        }
                    ],
                },
            ),
        ),
        card(
            "TAC-C",
            "tactic",
            cost=c(1),
            abilities=(
                {
                    "kind": "superiority",
                    "effects": [{"op": "draw", "count": 2}],
                },
                {
                    "kind": "outcome",
                    "result": "win",
                    "effects": [{"op": "gain_coins", "amount": 1}],
                },
            ),
        ),
        card("TAC-B", "tactic", cost=c(1), subtypes=("battle",)),
        card(
            "ORD-BOLT",
            "order",
            cost=c(2),
            subtypes=("spell",),
            abilities=(
                {
                    "kind": "dynamic",
                    "effects": [
                        {
                            "op": "wound",
                            "amount": 3,
                            "target": {
                                "select": "choose",
                                "filter": {"type": ["squad", "city"], "owner": "opponent"},
                            },
                        }
                    ],
                },
            ),
        ),
        card(
            "ORD-X",
            "order",
            cost=c(x=True),
            abilities=(
                {"kind": "dynamic", "effects": [{"op": "gain_coins", "amount": {"x": True}}]},
            ),
        ),
        card("FORT", "fortification", cost=c(2), strength=6),
        card(
            "RELIC",
            "relic",
            cost=c(1),
            abilities=(
                {
                    "kind": "activated",
                    "cost": [{"op": "pay", "coins": 1}],
                    "limit": "round",
                    "effects": [{"op": "draw", "count": 1}],
                },
            ),
        ),
        card(
            "BANNER",
            "relic",
            cost=c(2),
            abilities=(
                {
                    "kind": "decree",
                    "condition": {"coins_at_least": 1},
                    "effects": [{"op": "gain_coins", "amount": 1}],
                },
            ),
        ),
        card(
            "PATRON",
            "patron",
            cost=c(5),
            strength=7,
            abilities=(
                {
                    "kind": "triggered",
                    "trigger": {"event": "round_start"},
                    "effects": [{"op": "gain_coins", "amount": 1}],
                },
            ),
        ),
        card(
            "SQ-REINF",
            "squad",
            cost=c(3),
            strength=4,
            keywords=frozenset({"reinforcement"}),
        ),
        card("TOKEN", "squad", strength=1, minor=True),
        card("NOCOST", "squad", strength=9),
    ]


def sample_db() -> CardDB:
    return make_db(sample_cards())


# The card pools ``sample_deck`` draws from, per card database (the entry holds the
# database, so its id is not reused while it is here) and per set of colours.
_POOLS: dict[int, dict] = {}


def _pools(db: CardDB) -> dict:
    hit = _POOLS.get(id(db))
    if hit is None or hit["db"] is not db:
        cards = [c for c in db.all_cards() if not c.minor]
        if len(_POOLS) > 64:
            _POOLS.clear()
        hit = _POOLS[id(db)] = {
            "db": db,
            "cards": cards,
            "cities": [c.id for c in cards if c.type == "city"],
            "by_colours": {},
        }
    return hit


def _by_colours(pools: dict, colours: frozenset[str]) -> tuple[list, list]:
    """The playable Main Deck cards and the Reinforcement candidates of these colours."""
    hit = pools["by_colours"].get(colours)
    if hit is None:
        cards = pools["cards"]
        playable = [
            c
            for c in cards
            if c.type not in ("city", "patron")
            and c.cost is not None
            and (not c.colours or c.colours <= colours)
        ]
        reinforcement = [
            c.id
            for c in cards
            if (c.type == "patron" or "reinforcement" in c.keywords)
            and c.cost is not None
            and (not c.colours or c.colours <= colours)
        ]
        hit = pools["by_colours"][colours] = (playable, reinforcement)
    return hit


def sample_deck(db: CardDB, seed: int, cities: int = 2, main: int = 20) -> dict:
    """A random legal-ish deck: ``cities`` different Cities, a Main Deck of playable
    non-Minor cards (at most 3 copies each), up to 5 Reinforcement cards."""
    r = random.Random(seed)
    pools = _pools(db)
    city_pool = pools["cities"]
    chosen = r.sample(city_pool, min(cities, len(city_pool)))
    colours: set[str] = set()
    for cid in chosen:
        colours |= db.card(cid).colours
    playable, reinforcement = _by_colours(pools, frozenset(colours))
    main_ids: list[str] = []
    while len(main_ids) < main and playable:
        pick = r.choice(playable)
        if main_ids.count(pick.id) < 3:
            main_ids.append(pick.id)
    reinforcement = list(reinforcement)  # shuffled below: the cached list stays as it is
    r.shuffle(reinforcement)
    reinf: list[str] = []
    patrons = 0
    for cid in reinforcement:
        if len(reinf) >= 5:
            break
        if db.card(cid).type == "patron":
            if patrons:
                continue
            patrons += 1
        reinf.append(cid)
    return {"cities": chosen, "main": main_ids, "reinforcement": reinf}
