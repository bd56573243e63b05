"""A hidden card declares its instant ability (digest §15 D-21: hidden cards are open and
"may only declare instant abilities, which reveal them"; 104.6 and 404.6: an instant
ability is declared in any phase of either player's turn by the player with priority;
415.2: a hidden card is revealed "если заявляет внезапную особенность", a base effect
that does not use the stack; 306.2(2): the second player's third row may stay hidden).
The setting ``hidden_cards_declare_instants`` (engine/berserk/config.py, decision 0063)
turns it off. Field Infirmary (BK1-219) is BK1's card with an instant ability."""

from __future__ import annotations

import json
import random

import pytest

from engine.berserk.describe import DESCRIBER
from engine.berserk.game import SYSTEM
from engine.core.describe import Reading
from engine.core.errors import IllegalAction
from tests.engine.berserk.test_game import (
    CARD_KEYS,
    PLAIN,
    STURDY,
    _hidden_from,
    _public,
    at,
    battle,
    do,
    passes,
    rolls_rng,
)

INFIRMARY = "BK1-219"  # Field Infirmary: Instant. Close: heal a chosen own creature by 3
HEALER = "BK1-042"  # Grove Healer: Heal 2 (not instant)
NAMES = {0: "alice", 1: "bob"}


def _kept_hidden(**config):
    """Seat 0's first turn; seat 1 (the second player) keeps Field Infirmary hidden on
    C3', its third row (306.2(2)), and has a wounded Teller of Winds on C1'."""
    s = battle(
        [
            (0, PLAIN, "C1"),
            (1, STURDY, "C1'", {"wounds": 1}),
            (1, INFIRMARY, "C3'", {"hidden": True}),
        ]
    )
    if config:
        s["config"] = {**s["config"], **config}
    infirmary, them = at(s, "C3'"), at(s, "C1'")
    heal = {"type": "ability", "ability": "script0", "card": infirmary, "target": them}
    return s, infirmary, them, heal


@pytest.mark.rule("104.6", "404.6", "D-21", "415.2", "306.2")
def test_a_hidden_instant_is_offered_to_its_owner_at_every_window():
    """The hidden Infirmary's heal is offered to seat 1 whenever it holds priority: in the
    opponent's Main Phase on an empty stack, with the Declaration object of a strike on
    top, and in the Final Phase; never to seat 0, nor without priority (215.6)."""
    s, infirmary, them, heal = _kept_hidden()
    assert s["pieces"][str(infirmary)]["hidden"]
    assert heal not in SYSTEM.legal_actions(s, 0)
    with pytest.raises(IllegalAction):
        do(s, 1, heal)
    on_empty, _ = do(s, 0, {"type": "pass"})
    assert heal in SYSTEM.legal_actions(on_empty, 1)
    assert SYSTEM.view(on_empty, 1)["instants"] == [infirmary]
    struck, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    struck, _ = do(struck, 0, {"type": "pass"})
    assert struck["stack"][-1]["kind"] == "declaration"
    assert heal in SYSTEM.legal_actions(struck, 1)
    final, _ = passes(s, 3)  # Main Phase over (313): seat 0, then seat 1, then seat 0
    assert final["phase"] == "final" and final["priority"]["holder"] == 1
    assert heal in SYSTEM.legal_actions(final, 1)
    assert final["pieces"][str(infirmary)]["hidden"]  # nothing revealed it meanwhile


@pytest.mark.rule("404.6", "404.7", "D-21", "415.2")
def test_in_its_own_main_phase_a_hidden_card_declares_only_its_instant_ability():
    """A hidden card of the active player (here seat 1's, kept hidden: as a Stealth card
    may stay) is offered its instant heal on an empty stack of its own Main Phase, found
    also when sent as a copy (the single card's offers); a hidden Grove Healer's Heal 2,
    not instant, is neither offered nor accepted (D-21)."""
    s = battle(
        [
            (0, PLAIN, "C1'"),
            (1, STURDY, "C1", {"wounds": 2}),
            (1, INFIRMARY, "C3", {"hidden": True}),
            (1, HEALER, "D3", {"hidden": True}),
        ],
        active=1,
        turn=2,
    )
    infirmary, healer, them = at(s, "C3"), at(s, "D3"), at(s, "C1")
    heal = {"type": "ability", "ability": "script0", "card": infirmary, "target": them}
    offered = SYSTEM.legal_actions(s, 1)
    assert heal in offered and not any(a.get("card") == healer for a in offered)
    with pytest.raises(IllegalAction) as info:
        do(s, 1, {"type": "ability", "ability": "heal", "card": healer, "target": them})
    assert info.value.rule == "D-21"
    s, events = do(s, 1, dict(heal))
    assert [e["type"] for e in events] == ["reveal", "ability"]
    assert not s["pieces"][str(infirmary)]["hidden"] and s["pieces"][str(healer)]["hidden"]


@pytest.mark.rule("415.2", "404.6", "D-21", "216.1")
def test_declaring_reveals_the_card_first_with_a_public_event_then_the_heal_goes_on():
    """The declaration reveals the Infirmary first: a ``reveal`` event (rule 415.2, no
    stack) before the ``ability`` event, both in every view's reach; the card is open
    (revealed, not closed: D-21) until its Payment object closes it, and the heal's six
    objects (216.1б) heal the Teller by its one wound."""
    s, infirmary, them, heal = _kept_hidden()
    s, _ = do(s, 0, {"type": "pass"})
    s, events = do(s, 1, heal)
    reveal = {
        "type": "reveal",
        "card": infirmary,
        "id": INFIRMARY,
        "seat": 1,
        "cell": "C3'",
        "rule": "415.2",
        "instant": True,
    }
    assert events[0] == reveal and events[1]["type"] == "ability"
    assert events[1]["card"] == infirmary and events[1]["target"] == them
    q = s["pieces"][str(infirmary)]
    assert not q["hidden"] and not q["closed"]
    for viewer in (0, None):
        shown = next(p for p in SYSTEM.view(s, viewer)["pieces"] if p["cell"] == "C3'")
        assert shown["card"] == infirmary and shown["id"] == INFIRMARY
    reading = Reading.of(SYSTEM.view(s, 0), "en", NAMES, events)
    line = DESCRIBER.event(reading, events[0])
    assert line.startswith("«Field Infirmary» of ") and line.endswith(
        " is revealed on C3' (it declares an instant ability)"
    )
    reading = Reading.of(SYSTEM.view(s, 0), "ru", NAMES, events)
    assert DESCRIBER.event(reading, events[0]).endswith(
        ": открыта карта «Походный лазарет» на C3' (она заявляет внезапное действие)"
    )
    assert [o["kind"] for o in s["stack"][-2:]] == ["target", "declaration"]
    s, _ = passes(s, 2 * 6)
    assert SYSTEM.lives(s, them) == 3 and s["pieces"][str(infirmary)]["closed"]


@pytest.mark.rule("206.5", "415.1", "D-21")
def test_the_opponents_view_holds_nothing_of_a_hidden_instant_before_its_declaration():
    """Before the declaration, seat 0 and a spectator see the Infirmary as its owner and
    cell only; the list of cards offered an instant (``instants``) is in seat 1's view
    alone; a twin game where the hidden card is another card looks the same to them, and
    the waiting sentence names nothing."""
    s, infirmary, _them, heal = _kept_hidden()
    s, events = do(s, 0, {"type": "pass"})
    assert heal in SYSTEM.legal_actions(s, 1)
    twin = dict(s, cards=list(s["cards"]))
    twin["cards"][infirmary] = HEALER
    assert heal not in SYSTEM.legal_actions(twin, 1)  # seat 1's offers do differ
    for viewer in (0, None):
        view = SYSTEM.view(s, viewer)
        assert {"owner": 1, "cell": "C3'", "hidden": True} in view["pieces"]
        assert all(p.get("card") != infirmary for p in view["pieces"])
        assert "instants" not in view and INFIRMARY not in json.dumps(view)
        assert SYSTEM.view(twin, viewer) == view
        for language, words in (("en", "Field Infirmary"), ("ru", "Походный лазарет")):
            pending = DESCRIBER.pending(Reading.of(view, language, NAMES, events))
            assert not pending["mine"]
            assert words not in json.dumps(pending, ensure_ascii=False)
    assert all(infirmary not in (e.get(k) for k in CARD_KEYS) for e in events)


@pytest.mark.rule("D-21", "404.6")
def test_with_the_setting_off_a_hidden_card_declares_no_instant():
    """``hidden_cards_declare_instants: False``: the hidden Infirmary is offered nothing,
    listed nowhere, and its heal is refused (D-21); revealed, it heals as before."""
    s, infirmary, _them, heal = _kept_hidden(hidden_cards_declare_instants=False)
    s, _ = do(s, 0, {"type": "pass"})
    assert SYSTEM.legal_actions(s, 1) == [{"type": "pass"}]
    assert "instants" not in SYSTEM.view(s, 1)
    with pytest.raises(IllegalAction) as info:
        do(s, 1, heal)
    assert info.value.rule == "D-21"
    s["pieces"][str(infirmary)]["hidden"] = False
    assert heal in SYSTEM.legal_actions(s, 1)


@pytest.mark.rule("404.6", "D-21")
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_priority_prompt_names_the_instant_ability_offered(language):
    """The sentence for the holder of priority says an instant can be used and names its
    card (said to be hidden, and that using it reveals it) when one is offered: on a
    stack object, on a pending destruction, in the opponent's turn, in the Final Phase;
    without one, the plain words."""
    ru = language == "ru"
    name = "«Походный лазарет»" if ru else "«Field Infirmary»"
    hidden = " (скрыта: применение её вскроет)" if ru else " (hidden: using it reveals it)"

    def text(state, seat=1):
        return DESCRIBER.pending(Reading.of(SYSTEM.view(state, seat), language, NAMES))["text"]

    s, infirmary, them, _heal = _kept_hidden()
    struck, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": them})
    struck, _ = do(struck, 0, {"type": "pass"})
    assert text(struck) == (
        f"У вас приоритет: можно применить внезапное действие карты {name}{hidden} "
        "или спасовать, чтобы стек разрешился."
        if ru
        else f"You have priority: you may use the instant ability of {name}{hidden}, "
        "or pass to let the stack resolve."
    )
    opponents, _ = do(s, 0, {"type": "pass"})
    assert text(opponents) == (
        f"У вас приоритет: можно применить внезапное действие карты {name}{hidden} или спасовать."
        if ru
        else f"You have priority: you may use the instant ability of {name}{hidden}, or pass."
    )
    final, _ = passes(s, 3)
    assert text(final) == (
        f"Заключительная фаза: можно применить внезапное действие карты {name}{hidden} "
        "или спасовать, чтобы закончить ход."
        if ru
        else f"Final Phase: you may use the instant ability of {name}{hidden}, "
        "or pass to end the turn."
    )
    # a revealed Infirmary, a destruction on top: named, without the hidden words
    s = battle(
        [
            (0, PLAIN, "C1"),
            (1, STURDY, "C1'", {"closed": True, "wounds": 1}),
            (1, INFIRMARY, "C3'"),
        ]
    )
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s["rng"] = rolls_rng(6)
    s, _ = passes(s, 2 * 7 + 1)
    assert s["stack"][-1]["kind"] == "destruction" and s["priority"]["holder"] == 1
    assert text(s) == (
        f"Ожидается уничтожение: можно ответить внезапным действием карты {name} или спасовать."
        if ru
        else f"A destruction is pending: you may answer it with the instant ability of {name}, "
        "or pass."
    )
    # none offered (the Infirmary closed): the plain words
    struck["pieces"][str(infirmary)]["closed"] = True
    assert "instants" not in SYSTEM.view(struck, 1)
    assert text(struck) == (
        "У вас приоритет: спасуйте, чтобы стек разрешился."
        if ru
        else "You have priority: pass to let the stack resolve."
    )


@pytest.mark.rule("206.5", "415.2", "D-21")
def test_random_play_around_hidden_instants_names_no_hidden_card():
    """Random choices from positions with two hidden Infirmaries: every event names only
    cards open before or after it (a declaration's reveal comes with it), and neither
    seat's view nor offers change when the other's hidden cards are other cards. Some of
    the games do declare a hidden heal."""
    declared = 0
    for seed in range(12):
        s = battle(
            [
                (0, PLAIN, "C1"),
                (0, STURDY, "B1"),
                (1, STURDY, "C1'", {"wounds": 1}),
                (1, PLAIN, "B1'", {"wounds": 1}),
                (1, INFIRMARY, "C3'", {"hidden": True}),
                (1, INFIRMARY, "D3'", {"hidden": True}),
            ]
        )
        s["rng"] = rolls_rng(seed % 6 + 1)
        rnd = random.Random(seed)
        for _step in range(120):
            if s["finished"]:
                break
            seat = SYSTEM.to_act(s)[0]
            action = rnd.choice(SYSTEM.legal_actions(s, seat))
            before = s
            s, events = do(s, seat, action)
            if action["type"] == "ability" and before["pieces"][str(action["card"])]["hidden"]:
                declared += 1
                assert events[0]["type"] == "reveal" and events[0]["card"] == action["card"]
            public = _public(before) | _public(s)
            for e in events:
                for key in CARD_KEYS:
                    if e.get(key) is not None:
                        assert e[key] in public, e
            for viewer in (0, 1):
                twin = dict(s, cards=list(s["cards"]))
                for iid in _hidden_from(s, viewer):
                    twin["cards"][iid] = HEALER if s["cards"][iid] != HEALER else PLAIN
                assert SYSTEM.view(twin, viewer) == SYSTEM.view(s, viewer)
                if viewer in SYSTEM.to_act(s):
                    assert SYSTEM.legal_actions(twin, viewer) == SYSTEM.legal_actions(s, viewer)
    assert declared >= 3
