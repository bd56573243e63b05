"""The simulation kit plays legal decks: the deck checker accepts every deck it builds."""

from __future__ import annotations

import pytest

from engine.simulate import load_kit
from engine.voskhozhdenie.decks import CHECKER, ParsedDeck
from engine.voskhozhdenie.simkit import legal_deck

KIT = load_kit("voskhozhdenie")
REAL, _POOL = KIT.system(False)
N = 60  # decks per format


def _violations(db, deck, fmt):
    parsed = ParsedDeck.of(
        [db.card(c) for c in deck["cities"]],
        [db.card(c) for c in deck["main"]],
        [db.card(c) for c in deck["reinforcement"]],
    )
    newest = max(s.released for s in db.sets)
    return CHECKER.check(parsed, fmt, db, as_of=newest)


def test_the_kit_plays_the_real_sets():
    assert _POOL == "real sets"


@pytest.mark.rule("4.5.1", "4.5.2", "4.5.3", "4.5.4")
@pytest.mark.parametrize("fmt", KIT.formats)
def test_kit_decks_pass_the_deck_checker(fmt):
    """N kit decks of each format, as of the newest set's date: no broken rule (colours
    4.5.x.9, releases 4.5.1.11 / 4.5.3.11, copies 4.5.x.2, sizes, Patrons)."""
    bad = {}
    for seed in range(N // 2):
        for i, deck in enumerate(KIT.decks(REAL, 2, seed, fmt)):
            problems = _violations(REAL.db, deck, fmt)
            if problems:
                bad[(seed, i)] = [str(v) for v in problems]
    assert not bad, bad


def test_kit_decks_vary_and_replay_from_their_seed():
    decks = [KIT.decks(REAL, 1, seed)[0] for seed in range(10)]
    assert len({tuple(d["cities"]) for d in decks}) > 5
    assert KIT.decks(REAL, 3, 7) == KIT.decks(REAL, 3, 7)


@pytest.mark.rule("4.5.1.11")
def test_standard_decks_use_only_the_last_four_releases():
    db = REAL.db
    allowed = {s.code for s in db.latest_sets(4)}
    assert len(db.sets) > 4  # so the oldest release is really out
    for seed in range(20):
        deck = legal_deck(db, seed, "standard")
        for cid in deck["cities"] + deck["main"] + deck["reinforcement"]:
            card = db.card(cid)
            assert any(p.set_code in allowed for p in db.printings(card) or (card,)), cid


def test_a_pool_without_enough_cities_is_a_clear_error():
    sample, _ = KIT.system(True)
    with pytest.raises(ValueError, match="Cities"):
        legal_deck(sample.db, 1, "standard")
    # the synthetic pool still gives (legal-ish) decks of the format's shape
    deck = KIT.decks(sample, 1, 1, "standard")[0]
    assert len(deck["main"]) == 40


def test_team_config_is_two_teams_in_alternate_seats():
    assert KIT.game_config(2) == {}
    assert KIT.game_config(4, teams=True) == {"teams": [[0, 2], [1, 3]]}
    assert KIT.game_config(6, teams=True) == {"teams": [[0, 2, 4], [1, 3, 5]]}
    with pytest.raises(ValueError):
        KIT.game_config(3, teams=True)
