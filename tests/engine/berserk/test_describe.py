"""The describer of Berserk (engine/berserk/describe.py): sentences for legal actions, the
decision the game waits for and events, in English and Russian, built from one viewer's
view only (206.5-206.7: a hidden card is its owner and cell; the opponent's Deal and
Recruit zones are counts), and the printed details of cards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.berserk.bots import make_bot
from engine.berserk.describe import DESCRIBER
from engine.berserk.game import SYSTEM
from engine.berserk.model import printed_id
from engine.core.describe import Reading, describer_for

NAMES = {0: "alice", 1: "bob"}
ACTION_TYPES = {
    "choose_first",
    "redeal",
    "keep",
    "recruit",
    "recruit_done",
    "place",
    "keep_hidden",
    "reveal_done",
    "host",
    "move",
    "strike",
    "defender",
    "weaken",
    "ability",
    "reveal",
    "pass",
}
CYRILLIC = re.compile("[а-яА-ЯёЁ]")
RAW = re.compile(r"[{}\[\]]|«None»|\bNone\b|«»|'type'|\"")


def name(card_id: str, language: str = "en") -> str:
    return SYSTEM.db.card(card_id).name(language)


def hidden_names(state: dict, viewer: int | None, language: str) -> set[str]:
    """Names of cards hidden from ``viewer`` that no card it may see shares: decks, the
    opponent's Deal and Recruit zones, the opponent's hidden cards in play."""
    hidden: set[int] = set()
    seen: set[int] = set()
    for seat, p in enumerate(state["players"]):
        hidden.update(p["deck"])
        seen.update(p["grave"])
        (seen if seat == viewer else hidden).update(p["deal"] + p["recruit"])
    for key, q in state["pieces"].items():
        mine = q["owner"] == viewer
        (hidden if q["hidden"] and not mine else seen).add(int(key))
    ids = [printed_id(c) for c in state["cards"]]  # a blank twin (407.4) shows its card
    seen_ids = {ids[i] for i in seen}
    return {name(ids[i], language) for i in hidden if ids[i] not in seen_ids}


def check_sentence(text: str | None, language: str, what: object) -> None:
    assert text and text.strip(), what
    assert not RAW.search(text), (what, text)
    if language == "ru":
        assert CYRILLIC.search(text), (what, text)


def run(seed: int, bot: str, turn_limit: int = 14, keep_hidden: bool = False):
    """A bot game, yielding (state before, seat, legal actions, state after, new events)."""
    state = SYSTEM.new_game({"turn_limit": turn_limit}, [None, None], seed)
    bots = [make_bot(bot, SYSTEM, seed * 10 + k) for k in range(2)]
    for _ in range(4000):
        if not SYSTEM.to_act(state):
            return
        (seat,) = SYSTEM.to_act(state)
        legal = SYSTEM.legal_actions(state, seat)
        kept = [a for a in legal if a["type"] == "keep_hidden"]
        action = kept[0] if keep_hidden and kept else bots[seat].choose(state, seat)
        after, events = SYSTEM.apply(state, seat, action)
        yield state, seat, legal, after, events
        state = after


def test_the_registry_convention_finds_the_describer():
    assert describer_for("berserk") is DESCRIBER


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_action_and_event_of_bot_games_reads_as_a_sentence(language):
    """Random and heuristic bots over a few seeds: every legal action offered, every
    event and every pending decision is a non-empty sentence with no raw data, and no
    label names a card hidden from its viewer."""
    actions: set[str] = set()
    event_types: set[str] = set()
    guarded = 0  # readings with something to hide
    for seed, bot in ((1, "random"), (2, "heuristic"), (3, "random"), (4, "heuristic")):
        log: list[dict] = []
        for state, seat, legal, after, events in run(seed, bot, keep_hidden=seed == 3):
            for viewer in (0, 1, None):
                reading = Reading.of(SYSTEM.view(state, viewer), language, NAMES, log)
                texts = []
                pending = DESCRIBER.pending(reading)
                if pending is not None:
                    assert pending["mine"] == (viewer == seat)
                    texts += [pending["text"], *pending["options"], *pending["details"]]
                if viewer == seat:
                    for a in legal:
                        described = DESCRIBER.action(reading, a)
                        check_sentence(described["text"], language, a)
                        check_sentence(described["short"], language, a)
                        texts.append(described["text"])
                        actions.add(a["type"])
                for text in texts:
                    check_sentence(text, language, state["phase"])
                after_reading = Reading.of(SYSTEM.view(after, viewer), language, NAMES, log)
                lines = [DESCRIBER.event(after_reading, e) for e in log[-12:] + events]
                for e, line in zip(log[-12:] + events, lines, strict=True):
                    check_sentence(line, language, e)
                    event_types.add(e["type"])
                blob = "\n".join(line or "" for line in lines)
                forbidden = hidden_names(after, viewer, language)
                guarded += bool(forbidden)
                for word in forbidden:
                    assert f"«{word}»" not in blob, (viewer, word, blob)
                before = "\n".join(texts)
                for word in hidden_names(state, viewer, language):
                    assert f"«{word}»" not in before, (viewer, word, before)
            log += events
    assert guarded > 1000
    assert actions >= ACTION_TYPES - {"reveal"}, ACTION_TYPES - actions
    assert event_types >= {
        "first_player",
        "deal",
        "keep",
        "recruit",
        "recruit_done",
        "deal_returned",
        "place",
        "keep_hidden",
        "reveal",
        "host",
        "turn",
        "strike",
        "target",
        "roll",
        "result",
        "calculation",
        "wounds",
        "destroyed",
        "pass",
        "move",
        "final_phase",
        "defender",
        "redirected",
        "game_over",
    }, event_types


def kept_hidden_game() -> tuple[dict, list[dict], int]:
    """A game in its Main Phase in which the second player kept a card of their third row
    hidden (306.2(2)) and no card the first player sees shares its name; that card."""
    for seed in range(3, 40):
        log: list[dict] = []
        for _state, _seat, _legal, after, events in run(seed, "heuristic", keep_hidden=True):
            log += events
            if after["phase"] != "main":
                continue
            opponent = after["first"]
            for k, q in after["pieces"].items():
                if q["hidden"] and q["owner"] != opponent:
                    card_id = after["cards"][int(k)]
                    if name(card_id) not in hidden_names(after, opponent, "en"):
                        break  # a copy in sight: not a secret
                    return after, log, int(k)
            break
    raise AssertionError("no card stayed hidden")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_card_kept_hidden_is_never_named_to_the_opponent(language):
    state, log, iid = kept_hidden_game()
    owner, opponent = state["owner"][iid], 1 - state["owner"][iid]
    cell = SYSTEM.view(state, owner)["pieces"]
    cell = next(p["cell"] for p in cell if p.get("card") == iid)
    secret = f"«{name(state['cards'][iid], language)}»"
    theirs = Reading.of(SYSTEM.view(state, opponent), language, NAMES, log)
    hidden = "a hidden card" if language == "en" else "скрытая карта"
    assert DESCRIBER.card_name(theirs, iid) == hidden
    lines = [DESCRIBER.event(theirs, e) for e in log]
    fake = [
        {"type": "wounds", "card": iid, "amount": 1},
        {"type": "move", "card": iid, "from": cell, "to": cell},
        {"type": "host", "card": iid, "host": iid, "cell": cell},
        {"type": "defender", "card": iid, "chain": 99},
    ]
    lines += [DESCRIBER.event(theirs, e) for e in fake]
    assert secret.strip("«»") in hidden_names(state, opponent, language)
    assert all(secret not in line for line in lines if line)
    assert hidden.capitalize() in DESCRIBER.event(theirs, fake[0])
    # Keeping it hidden is told by its cell only, to everybody.
    kept = [line for e, line in zip(log, lines, strict=False) if e["type"] == "keep_hidden"]
    assert kept and all(re.search(r"[A-E][123]'?", line) for line in kept)
    # Its owner sees its name; a strike on it is offered by cell, naming nothing.
    mine = Reading.of(SYSTEM.view(state, owner), language, NAMES, log)
    assert DESCRIBER.card_name(mine, iid) == secret
    strike = {"type": "strike", "card": iid, "cell": cell}
    text = DESCRIBER.action(theirs, strike)["text"]
    assert cell in text and secret not in text


def test_actions_read_as_the_table_shows_them():
    state, log, _iid = kept_hidden_game()
    reading = Reading.of(SYSTEM.view(state, None), "en", NAMES, log)
    ru = Reading.of(SYSTEM.view(state, None), "ru", NAMES, log)
    pieces = [p for p in SYSTEM.view(state, None)["pieces"] if "card" in p]
    a, b = pieces[0], pieces[-1]
    na, nb = name(a["id"]), name(b["id"])
    strike = {"type": "strike", "card": a["card"], "target": b["card"]}
    assert DESCRIBER.action(reading, strike) == {
        "text": f"Strike «{nb}» with «{na}»",
        "short": f"Strike «{nb}»",
        "card": a["card"],
        "group": f"card:{a['card']}",
    }
    assert DESCRIBER.action(ru, strike)["text"] == (
        f"Ударить «{name(b['id'], 'ru')}» картой «{name(a['id'], 'ru')}»"
    )
    move = {"type": "move", "card": a["card"], "cell": "C2'"}
    assert DESCRIBER.action(reading, move)["text"] == f"Move «{na}» to C2'"
    assert DESCRIBER.action(reading, {"type": "pass"})["text"] == "Pass"
    assert DESCRIBER.action(reading, {"type": "weaken"})["text"] == "Weaken"
    assert DESCRIBER.action(reading, {"type": "keep"})["group"] == "decision"
    assert DESCRIBER.action(reading, {"type": "redeal"})["text"] == "Redeal (1 gold)"
    defend = {"type": "defender", "card": b["card"]}
    assert DESCRIBER.action(reading, defend)["text"] == f"Assign «{nb}» as defender"
    archer = SYSTEM.db.card("BK1-048")  # Venom Archer: Shot 1
    shooting = Reading(view={"you": 0}, known={7: archer.id, 8: b["id"]})
    shot = {"type": "ability", "ability": "shot", "card": 7, "target": 8}
    assert DESCRIBER.action(shooting, shot)["text"] == f"Shot 1 at «{nb}» with «Venom Archer»"
    shooting_ru = Reading(view={"you": 0}, language="ru", known={7: archer.id})
    hidden = {**shot, "cell": "B3'"}
    del hidden["target"]
    assert DESCRIBER.action(shooting_ru, hidden)["short"] == "Выстрел на 1 по скрытой карте на B3'"


def test_recruiting_and_placing_name_the_card_with_its_cost():
    state, seat, legal, _after, _events = next(
        step for step in run(2, "heuristic") if step[0]["phase"] == "recruit"
    )
    reading = Reading.of(SYSTEM.view(state, seat), "en", NAMES)
    recruit = next(a for a in legal if a["type"] == "recruit" and "x" not in a)
    card = SYSTEM.db.card(state["cards"][recruit["card"]])
    mark = "◆" if card.elite else "◇"
    assert DESCRIBER.action(reading, recruit)["text"] == (
        f"Recruit «{card.name_en}» ({card.cost}{mark})"
    )
    place = {"type": "place", "card": recruit["card"], "cell": "B2"}
    assert DESCRIBER.action(reading, place)["text"] == f"Place «{card.name_en}» on B2"
    other = Reading.of(SYSTEM.view(state, 1 - seat), "en", NAMES)
    assert "a hidden card" in DESCRIBER.action(other, recruit)["text"]
    assert DESCRIBER.card_name(other, recruit["card"]) == "a hidden card"
    pending = DESCRIBER.pending(reading)
    assert pending["mine"] and "Recruit" in pending["text"]
    waiting = DESCRIBER.pending(other)
    assert not waiting["mine"] and waiting["text"].startswith(f"Seat {seat + 1}")


def test_a_fight_tells_the_dice_the_table_row_and_the_wounds():
    log: list[dict] = []
    for _state, _seat, _legal, after, events in run(2, "heuristic"):  # noqa: B007
        log += events
        if any(e["type"] == "calculation" and e["rolls"][1] is not None for e in events):
            break
    reading = Reading.of(SYSTEM.view(after, 0), "en", NAMES, log)
    lines = {id(e): DESCRIBER.event(reading, e) for e in log}
    calc = next(e for e in reversed(log) if e["type"] == "calculation")
    text = lines[id(calc)]
    a, r = calc["rolls"]
    assert text.startswith(f"Strike table: {a} against {r} (row {calc['row']:+d})")
    for kind in calc["kinds"]:
        assert kind in text
    attacker = DESCRIBER.card_name(reading, calc["attacker"])
    roll = next(e for e in reversed(log) if e["type"] == "roll" and e["chain"] == calc["chain"])
    assert lines[id(roll)].startswith(f"Dice: {attacker} rolls {roll['rolls'][0]}")
    ru = Reading.of(SYSTEM.view(after, 0), "ru", NAMES, log)
    for e in log:
        DESCRIBER.event(ru, e)  # the chains are read in order
    assert DESCRIBER.event(ru, calc).startswith("Таблица ударов:")
    wounds = {"type": "wounds", "card": calc["attacker"], "amount": 3, "rule": "С: Страх"}
    assert DESCRIBER.event(reading, wounds) == f"{attacker} takes 3 wounds (Fear)"
    assert DESCRIBER.event(ru, wounds).endswith("получает 3 раны (Страх)")


def test_turns_deaths_and_the_end_are_told():
    reading = Reading.of({"you": 0}, "en", NAMES)
    assert DESCRIBER.event(reading, {"type": "turn", "turn": 3, "active": 1}) == (
        "Turn 3: Seat 2 (bob) is the active player"
    )
    dead = {"type": "destroyed", "card": 40, "id": "BK1-048", "seat": 1, "rule": "402.3"}
    assert DESCRIBER.event(reading, dead) == (
        "«Venom Archer» of Seat 2 (bob) is destroyed and goes to the Graveyard"
    )
    assert DESCRIBER.card_name(reading, 40) == "«Venom Archer»"  # public from then on
    over = {"type": "game_over", "winners": [0], "draw": False, "reason": "no_creatures"}
    assert DESCRIBER.event(reading, over) == (
        "Game over — winner: Seat 1 (alice, you) (Seat 2 (bob) has no creature left)"
    )
    ru = Reading.of({"you": 0}, "ru", NAMES)
    draw = {"type": "game_over", "winners": [], "draw": True, "reason": "turn_limit"}
    assert "ничья" in DESCRIBER.event(ru, draw)
    left = {"type": "left", "seat": 1, "reason": "concede"}
    assert DESCRIBER.event(reading, left) == "Seat 2 (bob) conceded and is out"


def test_card_details_are_the_printed_ones():
    info = DESCRIBER.card(Reading.of({}, "en"), "BK1-048")
    assert info["name"] == "Venom Archer" and info["kind"] == "Creature"
    assert info["element"] == "Forest" and info["cost"] == "3◇"
    assert (info["lives"], info["strike"], info["movement"]) == (3, "1-1-2", 1)
    assert info["abilities"] == ["Shot 1", "Poison 1"]
    assert info["text"] == ["Shot 1.", "Poison 1."]
    ru = DESCRIBER.card(Reading.of({}, "ru"), "BK1-048")
    assert ru["name"] == "Ядовитый стрелок" and ru["element"] == "Лес"
    assert ru["abilities"] == ["Выстрел на 1", "Отравление на 1"]
    assert DESCRIBER.card(Reading.of({}, "en"), "nope") == {
        "id": "nope",
        "name": "nope",
        "text": [],
    }


@pytest.mark.parametrize("language", ["en", "ru"])
def test_abilities_that_act_by_themselves_read_as_sentences(language):
    """Relocations, Thirst, tokens, cards taken into a squad, shown from a deck, abilities
    gained and lost, additional lives; the slow action (211.9) and the declarations that
    name a cell (Jump, Teleport, Summon, Resurrection), a swap or a second target."""
    state = next(
        after for _s, _seat, _l, after, _e in run(2, "heuristic") if after["phase"] == "main"
    )
    view = SYSTEM.view(state, 0)
    reading = Reading.of(view, language, NAMES, [])
    mine = [p for p in view["pieces"] if p.get("card") is not None and p["owner"] == 0]
    a, b = mine[0]["card"], mine[1]["card"]
    brought = state["cards"][a]
    events = [
        {"type": "relocate", "card": a, "from": "A1", "to": "B2", "rule": "С: Прыжок"},
        {"type": "thirst", "card": a, "target": b, "rule": "С: Жажда"},
        {"type": "stays_closed", "card": a, "rule": "С: Жажда"},
        {"type": "token", "card": a, "tokens": 2, "rule": "С: Инкарнация"},
        {"type": "taken", "card": 999, "id": brought, "seat": 1, "cell": "C2", "rule": "С: Вызов"},
        {"type": "taken", "card": 998, "id": brought, "seat": 1, "cell": None, "rule": "x"},
        {"type": "slow", "card": a, "rule": "211.9"},
        {"type": "summon_none", "chain": 5, "seat": 1, "rule": "С: Вызов"},
        {"type": "prevented", "card": a, "rule": "С: Стойкость"},
        {"type": "shown", "seat": 0, "cards": [brought], "gained": ["plague"], "chain": 4},
        {"type": "gained", "card": a, "ability": "plague", "rule": "С: Чума"},
        {"type": "lost", "card": a, "ability": "flight", "rule": "407.5"},
        {"type": "lives", "card": a, "amount": 2, "source": b, "rule": "С: Дар Жизни"},
        {"type": "opened", "card": a, "chain": 20},
        {"type": "tokens_paid", "card": a, "amount": 2, "for": a},
        {"type": "tokens_paid", "card": a, "amount": 1, "for": b},
        {"type": "ability", "ability": "jump", "chain": 3, "card": a, "target": a, "cell": "C2"},
        {"type": "ability", "ability": "manoeuvre", "chain": 3, "card": a, "target": b},
        {"type": "destruction_effect", "card": a, "chain": 0, "rule": "402.3а"},
        {"type": "destruction_effect", "card": a, "chain": 3, "rule": "402.3а", "wounds": False},
    ]
    for event in events:
        line = DESCRIBER.event(reading, event)
        check_sentence(line, language, event)
        assert line.casefold() != DESCRIBER.action_kind(reading, event["type"]).casefold(), event
    assert f"«{name(brought, language)}»" in DESCRIBER.event(reading, events[4])
    jump = next(e for e in events if e.get("ability") == "jump")
    assert "C2" in DESCRIBER.event(reading, jump)
    wounded, finished = (DESCRIBER.event(reading, e) for e in events[-2:])
    assert wounded != finished and "0" not in finished  # Finishing: not "at 0 lives"
    actions = [
        {"type": "slow", "card": a},
        {"type": "ability", "ability": "jump", "card": a, "cell": "C2"},
        {"type": "ability", "ability": "teleport", "card": a, "cell": "C2"},
        {"type": "ability", "ability": "summon", "card": a, "cell": "C2"},
        {"type": "ability", "ability": "resurrection", "card": a, "cell": "C2", "bring": b},
        {"type": "ability", "ability": "manoeuvre", "card": a, "target": b},
        {"type": "ability", "ability": "redistribution", "card": a, "target": a, "to": b},
    ]
    for action in actions:
        described = DESCRIBER.action(reading, action)
        check_sentence(described["text"], language, action)
        check_sentence(described["short"], language, action)
        assert described["group"] == f"card:{a}"
        if "cell" in action:
            assert "C2" in described["short"]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_scripted_ability_reads_as_the_card_prints_it(language):
    from engine.berserk.cards import ability_text

    card, n = next(
        (c, i)
        for c in SYSTEM.db.all_cards()
        for i, a in enumerate(c.abilities)
        if a.script is not None and a.script.get("when") == "activated"
    )
    pieces = [
        {"card": k, "id": card.id, "owner": 0, "cell": cell} for k, cell in ((1, "A1"), (2, "B1"))
    ]
    reading = Reading.of({"you": 0, "players": [], "pieces": pieces}, language, NAMES, [])
    action = {"type": "ability", "ability": f"script{n}", "card": 1, "target": 2}
    described = DESCRIBER.action(reading, action)
    for text in (described["text"], described["short"]):
        check_sentence(text, language, action)
        assert "script" not in text
        assert ability_text(card.abilities[n], language, card.type) in text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_event_the_engine_sends_has_words_of_its_own(language):
    """Each event type the engine's source can send reads as a sentence (a new event
    without words would show as its bare type)."""
    import engine.berserk.game as game_module

    source = Path(game_module.__file__).read_text(encoding="utf-8")
    types = set(re.findall(r'"type": "([a-z_]+)"', source))
    assert {"strike", "calculation", "game_over"} <= types
    reading = Reading.of({"you": 0, "players": [], "pieces": []}, language, NAMES, [])
    details = {
        "seat": 0,
        "card": 1,
        "target": 2,
        "host": 2,
        "source": 2,
        "for": 2,
        "chain": 1,
        "ability": "shot",
        "cell": "A1",
        "from": "A1",
        "to": "B1",
        "amount": 1,
        "count": 1,
        "tokens": 1,
        "gold": 1,
        "turn": 1,
        "active": 0,
        "chooser": 0,
        "counts": [15, 15],
        "rolls": [4, 2],
        "final": [4, 2],
        "kinds": ["medium", "weak"],
        "row": 2,
        "winners": [0],
        "cards": [],
        "gained": [],
    }
    for kind in sorted(types):
        line = DESCRIBER.event(reading, {**details, "type": kind})
        check_sentence(line, language, kind)
        assert line.casefold() != kind.replace("_", " ").casefold(), kind
