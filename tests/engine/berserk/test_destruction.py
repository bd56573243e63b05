"""The destruction effect on the stack from every source (402.3, 402.3а, 402.3б; decision
0063): the wounds of influences (Thirst, scripted abilities, Redistribution), Poison,
Fading, Fear and Finishing give a ``destruction`` object with a priority window of its own
(215.8-215.9), which Field Infirmary's instant heal (404.6) may answer; the Vanguard Step
destroys at once (300.6, D-30). Small positions of the real set BK1."""

from __future__ import annotations

import pytest

from engine.berserk.game import SYSTEM
from tests.engine.berserk.test_game import PLAIN, STURDY, at, battle, do, passes, rolls_rng

INFIRMARY = "BK1-219"  # Field Infirmary: Instant. Close: heal a chosen own creature by 3
CONSTRICTOR = "BK1-138"  # Quagmire Constrictor: Thirst 2, 5 lives
ROTFANG = "BK1-120"  # Rotfang: Poison 1, 4 lives
SHAMAN = "BK1-130"  # Fen Shaman: Fading 1, 3 lives
CAULDRON = "BK1-153"  # Cauldron of Venom: close: 1 wound to a chosen enemy creature
HERMIT = "BK1-053"  # Mistletoe Hermit: Redistribution 2
EXECUTIONER = "BK1-090"  # Gorge Executioner: Finishing 2
GIANT = "BK1-127"  # Rotting Giant: Fear 1, 8 lives
RIDER = "BK1-002"  # Young Rider: Vanguard
FUNGUS = "BK1-070"  # Bracket Fungus (parasite): at the start of your turn, 1 wound to its host


def _on_top(s, card, chain=None):
    """The top object is the destruction effect of ``card`` (of ``chain``, if given), and
    the card is still in play at 0 lives or below (402.3а)."""
    top = s["stack"][-1]
    assert top["kind"] == "destruction" and top["card"] == card
    assert chain is None or top["chain"] == chain
    assert str(card) in s["pieces"] and SYSTEM.lives(s, card) <= 0
    assert {"chain": top["chain"], "kind": "destruction", "card": card} in SYSTEM.view(s, None)[
        "stack"
    ]


def _heal(s, seat, infirmary, card):
    """``seat`` declares Field Infirmary's instant heal on ``card`` (offered: 404.6) and
    the players pass through its six objects (216.1б)."""
    heal = {"type": "ability", "ability": "script0", "card": infirmary, "target": card}
    assert s["priority"]["holder"] == seat and heal in SYSTEM.legal_actions(s, seat)
    s, _ = do(s, seat, heal)
    s, _ = passes(s, 2 * 6)
    assert s["pieces"][str(infirmary)]["closed"]
    return s


def _survives(s, card, seat):
    """Two passes execute the destruction: the card has lives again, so it is cancelled
    (402.3б) and the card stays in play."""
    n = s["stack"][-1]["chain"]
    assert SYSTEM.lives(s, card) > 0
    s, events = passes(s, 2)
    assert {"type": "destruction_cancelled", "card": card, "chain": n, "rule": "402.3б"} in events
    assert str(card) in s["pieces"] and card not in s["players"][seat]["grave"]
    return s


def _destroyed(events, card):
    return [e["rule"] for e in events if e["type"] == "destroyed" and e["card"] == card]


@pytest.mark.rule("С: Жажда", "310.1", "311.4", "402.3а", "402.3б", "404.6", "CK-072")
def test_thirst_gives_a_destruction_on_the_stack_answered_at_the_turn_start():
    """Thirst wounds at the Turn Preparation, when nobody holds priority (310.1): the
    prey's destruction effect is on the stack when the active player gets priority
    (311.4, 405.2). The prey's owner answers with Field Infirmary; it survives."""
    s = battle(
        [
            (0, CONSTRICTOR, "C1", {"closed": True}),
            (1, PLAIN, "C1'"),
            (1, INFIRMARY, "C3'"),
        ],
        active=1,
    )
    prey, infirmary = at(s, "C1'"), at(s, "C3'")
    s, events = passes(s, 4)  # seat 1's turn ends; seat 0's Turn Start
    assert s["active"] == 0 and s["priority"]["holder"] == 0
    assert {"type": "destruction_effect", "card": prey, "chain": 0, "rule": "402.3а"} in events
    assert not _destroyed(events, prey)
    _on_top(s, prey, chain=0)
    s, _ = do(s, 0, {"type": "pass"})
    s = _heal(s, 1, infirmary, prey)
    s = _survives(s, prey, 1)
    assert SYSTEM.lives(s, prey) == 2 and not s["stack"]


@pytest.mark.rule("С: Отравление", "311.4", "402.3а", "402.3б", "404.6", "CK-072")
def test_poison_gives_a_destruction_on_the_stack_its_owner_heals_in_the_window():
    """Rotfang (1 life left) wounds itself by Poison 1 at its owner's Turn Start (311.4):
    its destruction goes on the stack; the active player answers it with Field Infirmary
    and Rotfang survives. Without the answer, two passes destroy it."""
    spec = [(0, ROTFANG, "C2", {"wounds": 3}), (0, INFIRMARY, "A3"), (1, STURDY, "E3'")]
    s = battle(spec, active=1)
    me, infirmary = at(s, "C2"), at(s, "A3")
    s, events = passes(s, 4)
    assert s["active"] == 0 and not _destroyed(events, me)
    assert any(e["type"] == "wounds" and e.get("rule") == "С: Отравление" for e in events)
    _on_top(s, me, chain=0)
    s = _heal(s, 0, infirmary, me)
    s = _survives(s, me, 0)
    assert SYSTEM.lives(s, me) == 3
    s = battle(spec, active=1)
    me = at(s, "C2")
    s, _ = passes(s, 4)
    _on_top(s, me)
    s, events = passes(s, 2)
    assert _destroyed(events, me) == ["402.3"] and me in s["players"][0]["grave"]


@pytest.mark.rule("С: Угасание", "311.4", "402.3а", "402.3б", "404.6", "CK-072")
def test_fading_gives_a_destruction_on_the_stack_its_owner_heals_in_the_window():
    s = battle(
        [(0, SHAMAN, "C2", {"wounds": 2}), (0, INFIRMARY, "A3"), (1, STURDY, "E3'")],
        active=1,
    )
    me, infirmary = at(s, "C2"), at(s, "A3")
    s, events = passes(s, 4)
    assert any(e["type"] == "wounds" and e.get("rule") == "С: Угасание" for e in events)
    _on_top(s, me, chain=0)
    s = _heal(s, 0, infirmary, me)
    s = _survives(s, me, 0)
    assert SYSTEM.lives(s, me) == 3


@pytest.mark.rule("401.5", "405", "402.3а", "402.3б", "404.6", "CK-072")
def test_a_scripted_wound_gives_a_destruction_above_its_chain_answered_by_the_victim():
    """Cauldron of Venom (close: 1 wound to a chosen enemy creature) wounds a Lookout at
    1 life: at the Wounds object of the Cauldron's chain its destruction goes on top,
    above that chain's Payment and End objects; the active player passes, the Lookout's
    owner heals it, and it survives."""
    s = battle([(0, CAULDRON, "A3"), (1, PLAIN, "C1'", {"wounds": 1}), (1, INFIRMARY, "C3'")])
    cauldron, them, infirmary = at(s, "A3"), at(s, "C1'"), at(s, "C3'")
    s, _ = do(s, 0, {"type": "ability", "ability": "script0", "card": cauldron, "target": them})
    s, events = passes(s, 2 * 4)  # Declaration, Target, Defense, Wounds
    assert {"type": "destruction_effect", "card": them, "chain": 1, "rule": "402.3а"} in events
    _on_top(s, them, chain=1)
    assert [o["kind"] for o in s["stack"]] == ["end", "payment", "destruction"]
    s, _ = do(s, 0, {"type": "pass"})
    s = _heal(s, 1, infirmary, them)
    s = _survives(s, them, 1)
    assert SYSTEM.lives(s, them) == 2


@pytest.mark.rule("С: Перераспределение", "402.3а", "402.3б", "404.6", "CK-072")
def test_redistribution_gives_a_destruction_on_the_stack_answered_by_the_victim():
    """Mistletoe Hermit heals its own Teller of 2 wounds and gives them to a Lookout at 2
    lives: the Lookout's destruction goes on the stack; its owner heals it in the window."""
    s = battle(
        [
            (0, HERMIT, "A3"),
            (0, STURDY, "B3", {"wounds": 2}),
            (1, PLAIN, "C1'"),
            (1, INFIRMARY, "C3'"),
        ]
    )
    hermit, mine, them, infirmary = at(s, "A3"), at(s, "B3"), at(s, "C1'"), at(s, "C3'")
    action = {"type": "ability", "ability": "redistribution", "card": hermit}
    s, _ = do(s, 0, {**action, "target": mine, "to": them})
    s, events = passes(s, 2 * 4)
    assert SYSTEM.lives(s, mine) == 3 and not _destroyed(events, them)
    _on_top(s, them, chain=1)
    s, _ = do(s, 0, {"type": "pass"})
    s = _heal(s, 1, infirmary, them)
    _survives(s, them, 1)


@pytest.mark.rule("С: Добивание", "402.3", "402.3а", "402.3б", "404.6")
def test_finishing_gives_a_destruction_on_the_stack_that_no_heal_cancels():
    """Finishing says "destroy": the ability gives the destruction effect (402.3), which
    goes on the stack (402.3а) and may be answered (404.6); but no wounds gave it, so the
    Teller, healed in the window to full lives, is destroyed all the same (402.3б)."""
    s = battle([(0, EXECUTIONER, "C1"), (1, STURDY, "C1'", {"wounds": 1}), (1, INFIRMARY, "C3'")])
    me, them, infirmary = at(s, "C1"), at(s, "C1'"), at(s, "C3'")
    s, _ = do(s, 0, {"type": "ability", "ability": "finishing", "card": me, "target": them})
    s, events = passes(s, 2 * 4)
    assert {
        "type": "destruction_effect",
        "card": them,
        "chain": 1,
        "rule": "402.3а",
        "wounds": False,
    } in events
    top = s["stack"][-1]
    assert top["kind"] == "destruction" and top["card"] == them and top["wounds"] is False
    assert str(them) in s["pieces"] and not _destroyed(events, them)
    s, _ = do(s, 0, {"type": "pass"})
    s = _heal(s, 1, infirmary, them)
    assert SYSTEM.lives(s, them) == 3 and s["stack"][-1]["kind"] == "destruction"
    s, events = passes(s, 2)
    assert _destroyed(events, them) == ["С: Добивание"] and them in s["players"][1]["grave"]
    assert not any(e["type"] == "destruction_cancelled" for e in events)


@pytest.mark.rule("С: Страх", "216.4", "402.3а", "402.3б", "404.6", "CK-072")
def test_fear_gives_the_attacker_a_destruction_that_its_owner_answers_and_the_strike_goes_on():
    """A Lookout at 1 life strikes a Rotting Giant (Fear 1): at the Target object it wounds
    itself to 0, and its destruction goes on top of the strike's chain; its owner heals it
    with Field Infirmary, the destruction is cancelled, and the strike goes on to its Roll
    object."""
    s = battle([(0, PLAIN, "C1", {"wounds": 1}), (0, INFIRMARY, "A3"), (1, GIANT, "C1'")])
    me, infirmary, giant = at(s, "C1"), at(s, "A3"), at(s, "C1'")
    s, _ = do(s, 0, {"type": "strike", "card": me, "target": giant})
    s, events = passes(s, 2 * 2)  # Declaration, Target
    assert any(e["type"] == "wounds" and e.get("rule") == "С: Страх" for e in events)
    _on_top(s, me, chain=1)
    assert s["stack"][-2]["kind"] == "roll"
    s = _heal(s, 0, infirmary, me)
    s = _survives(s, me, 0)
    assert s["stack"][-1]["kind"] == "roll" and s["chains"]["1"]["source"] == me


@pytest.mark.rule("308", "300.6", "D-30", "402.3")
def test_the_vanguard_step_destroys_at_once_with_no_stack():
    """In the Vanguard Step nobody holds priority (300.6) and the strike runs with no
    stack (D-30): the target at 0 lives is destroyed within the strike, no destruction
    object goes on the stack, and no instant ability is offered."""
    s = battle([(0, RIDER, "C1"), (1, PLAIN, "C1'", {"wounds": 1}), (1, INFIRMARY, "C3'")])
    me, them = at(s, "C1"), at(s, "C1'")
    s.update(phase="vanguard", vanguard=0, turn=0, priority=None)
    s["rng"] = rolls_rng(6)
    s, events = do(s, 0, {"type": "strike", "card": me, "target": them})
    assert _destroyed(events, them) == ["402.3"] and them in s["players"][1]["grave"]
    assert not any(e["type"] == "destruction_effect" for e in events)
    assert not any(o["kind"] == "destruction" for o in s["stack"])


@pytest.mark.rule("402.3", "402.3а", "311.4")
def test_a_card_with_a_pending_destruction_does_not_get_a_second_one():
    """402.3: a card that already had fewer than one life does not get the destruction
    effect again. At its owner's Turn Start Rotfang (1 life left) wounds itself by Poison
    1, then the Bracket Fungus it hosts wounds it by 1 more: one destruction object."""
    s = battle(
        [(0, ROTFANG, "C2", {"wounds": 3}), (0, FUNGUS, "C2"), (1, STURDY, "E3'")],
        active=1,
    )
    me = at(s, "C2")
    fungus = next(int(k) for k in s["pieces"] if s["cards"][int(k)] == FUNGUS)
    s["pieces"][str(fungus)]["host"] = me
    s, events = passes(s, 4)
    assert s["pieces"][str(me)]["wounds"] == 5
    _on_top(s, me)
    assert [o["card"] for o in s["stack"] if o["kind"] == "destruction"] == [me]
    assert [e["card"] for e in events if e["type"] == "destruction_effect"] == [me]
    s, events = passes(s, 2)  # the host dies, then the Fungus it hosted (210.7)
    assert _destroyed(events, me) == ["402.3"] and _destroyed(events, fungus) == ["210.7"]


@pytest.mark.rule("402.3а", "311.4")
def test_the_table_shows_a_destruction_of_no_chain_on_top_naming_its_card():
    """The table's stack lists a destruction that no chain gave (Poison at the Turn Start)
    on top with the card it destroys, and no chain's source and target beside it."""
    from django.template.loader import render_to_string
    from django.utils import translation

    s = battle([(0, ROTFANG, "C2", {"wounds": 3}), (1, STURDY, "E3'")], active=1)
    me = at(s, "C2")
    s, _ = passes(s, 4)
    _on_top(s, me, chain=0)
    context = {"view": SYSTEM.view(s, 1), "data": {}, "seats": [], "session": {"system": "berserk"}}
    with translation.override("en"):
        html = render_to_string("play/berserk/_stack.html", context)
    top = html.split('<li class="bt-obj top"', 1)[1].split("</li>", 1)[0]
    assert 'data-kind="destruction"' in top and 'data-chain="0"' in top
    assert f'data-iid="{me}"' in top and "Rotfang" in top and "bt-chain" not in top


@pytest.mark.rule("404.6", "215.6")
def test_no_instant_search_where_the_games_cards_have_no_instant_ability(monkeypatch):
    """The per-game summary of the cards (``_Facts.instant``) lets a game with no instant
    ability skip the search at every window; with Field Infirmary in the game, its
    abilities are looked at while an object is on top."""
    looked: list[int] = []

    def ability_actions(s, seat, iid, keys=None):
        looked.append(iid)
        return []

    s = battle([(0, PLAIN, "C1"), (1, STURDY, "C1'", {"wounds": 1}), (1, PLAIN, "A3'")])
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s, _ = do(s, 0, {"type": "pass"})
    monkeypatch.setattr(SYSTEM, "_ability_actions", ability_actions)
    assert SYSTEM.legal_actions(s, 1)[0] == {"type": "pass"} and looked == []
    s = battle([(0, PLAIN, "C1"), (1, STURDY, "C1'", {"wounds": 1}), (1, INFIRMARY, "A3'")])
    s, _ = do(s, 0, {"type": "strike", "card": at(s, "C1"), "target": at(s, "C1'")})
    s, _ = do(s, 0, {"type": "pass"})
    SYSTEM.legal_actions(s, 1)
    assert looked == [at(s, "A3'")]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_pending_decision_names_the_card_a_destruction_destroys(language):
    """Poison's destruction (no chain) on top: the words for the holder of priority name
    the poisoned card, not an attack."""
    from engine.berserk.describe import DESCRIBER
    from engine.core.describe import Reading

    s = battle([(0, ROTFANG, "C2", {"wounds": 3}), (1, STURDY, "E3'")], active=1)
    s, _ = passes(s, 4)
    _on_top(s, at(s, "C2"))
    reading = Reading.of(SYSTEM.view(s, 0), language, {0: "alice", 1: "bob"}, [])
    details = " ".join(DESCRIBER.pending(reading)["details"])
    assert ("Rotfang" if language == "en" else "Гнилозуб") in details
    assert ("attack" if language == "en" else "атака") not in details
