"""The villain modes of Ascension Tactics: solo, co-op and archvillain [§14 T-81..T-101].

Rule ids T-n, decisions D-n and checklist ids C-n are those of the digest
``/work/shared/rules/tactics.md`` (the Russian rulebook ``/work/shared/seeds/003_*`` wins
where they differ). ``engine.tactics.game`` calls the functions here through small hooks;
this module never imports it (the engine is passed in as ``system``).

The villains are a side of the board, not a player: their figures belong to the **villain
side** ``state["villain"]["seat"]``, the number after the last hero seat (1 in solo and
archvillain, 2 in co-op), which has a card-less entry in ``players`` (``"villain": True``)
so that the engine's questions about sides and glory have an answer. In solo and co-op they act inside the engine, right after the heroes' turn
(T-86), deterministic from the seed; in archvillain that side is a seat played by a person
(T-99/T-100), who plays ``scheme`` actions, commands the villains with the ordinary
``move`` / ``attack`` / ``done``, answers the scheme cards' choices with ``choose`` and ends
the villain turn with ``end_turn``.

What is played:

* setup (T-81..T-84): the scenario's recommended reserve (or ``config["reserves"]``), its
  four villains (the boss first), the boss's crown token and the other three tokens dealt
  to the other villains from the seed (T-83); central-deck champions sharing a villain's
  name go to the box (T-84); the scheme deck shuffled; the hero goes first with gate 1
  (T-84); ``difficulty`` normal / hard / nightmare discards 0 / 4 / 8 schemes, which count
  toward threat (T-101, C-67);
* the villain turn (T-86): reveal a scheme and resolve it, reveal a second one, discard
  both (they do not count toward threat this turn), the villains score the shrines they
  control (T-64); a scheme's top effect always resolves, its bottom one only when the
  discarded schemes reach its threat (T-85, C-59); a reveal from an empty deck is the
  villains' win (T-87, C-60);
* commanding a villain (T-89..T-91, D-17): it enters on a free villain entry cell when
  off the battlefield, never exhausts and may be commanded again (T-90, C-61); the
  algorithm of T-91 (``command_villain``) with the priority of D-4 (highest STR);
* Surge (T-93): the boss's Surge, even off the battlefield; villain cultists (T-94, C-66):
  on the token's cell or a free neighbour, no cap, 1 glory each; threat-gated villain
  abilities (T-92) as static boosts (``static_bonus``);
* defeating a villain gives its glory at once (T-90, C-62); its constructs are banished
  (T-92, C-65); villains ignore treasure (T-90) and, in solo and co-op, corrupted land
  (T-62; in archvillain the scenario's own only, its rule);
* victory (T-95): the heroes at the scenario's ``glory``, the villains at its
  ``villain_glory`` or by T-87; in archvillain a draw from an empty scheme deck is also
  the villains' win (D-18);
* archvillain (T-99..T-101, C-68): the villain player holds 3 schemes, plays 2 one after
  the other and draws back to 3 at the end of the turn; they move and attack freely and
  make every choice on the schemes, and get no instant shrine glory (T-100).

Choices the rules leave to "you" in solo (T-88, "you break ties" in T-91) go to a fixed
policy (D-17): the lowest figure id, the first cell in sorted ``(q, r)`` order, and for the
free choices of the schemes the option least harmful to the heroes, the player's own
choice (T-88, T-94; ``_heroes_choice``). Villains ignore every corrupted land in solo and
co-op (T-62); in archvillain only the scenario's own.

Co-op (T-96..T-98): two heroes on one side (``sides``), a joint turn as in 2 vs 2 (D-14,
``engine.tactics.modes``), each entering only through their own portal (T-97, C-69),
glory shared and the victory together (T-79); the villains act after both have passed.

Reserves (T-81, T-82, T-96): ``config["draft"]`` runs the game's champion draft
(``engine.tactics.draft``; the default in co-op): one hero picks 4 in a row, two heroes 3
each, seat 1 first (D-13); the villain team is then a random boss and three random
villains of glory <= 3 (T-82). Without it: ``config["reserves"]``, else the scenario's
recommended reserve (solo, archvillain), else champions drawn from the seed.

Not built: a limit on the villain cultist figures (T-94: unknown).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.errors import IllegalAction, InvalidConfig
from engine.core.protocol import Action, Event, State
from engine.core.rng import seed_state, shuffle
from engine.tactics import draft as champion_draft
from engine.tactics import hexes, modes, terrain
from engine.tactics.model import VILLAIN_MODES

DEFAULT_SCENARIO = "ash_queens_lair"
DIFFICULTY = {"normal": 0, "hard": 4, "nightmare": 8}  # T-101: schemes discarded at setup
SEATS = {"solo": 1, "coop": 2, "archvillain": 2}  # the table (archvillain: hero + villains)
HEROES = {"solo": 1, "coop": 2, "archvillain": 1}  # T-96: two heroes; T-99: "or one player"
RESERVE = {"solo": 4, "coop": 3, "archvillain": 4}  # T-81: 4; T-96: 3 each
ROW_SIZE = 6  # T-17
SCHEMES_PER_TURN = 2  # T-86, T-99
SCHEME_HAND = 3  # T-99
CULTIST_GLORY = 1  # T-94
DEFAULT_MAX_ROUNDS = 40
TOKENS = ("boss", "a", "b", "c")  # T-83
VILLAIN_KINDS = ("villain_enter", "villain_cultist", "villain_damage", "villain_terrain")


def ck(cell: Sequence[int]) -> str:
    return hexes.hex_text((cell[0], cell[1]))


def pc(text: str) -> tuple[int, int]:
    q, r = text.split(",")
    return (int(q), int(r))


# -- who is who ------------------------------------------------------------------------


def wanted(config: Mapping[str, Any]) -> bool:
    """Whether ``config`` asks for a villain mode: ``mode`` solo / coop / archvillain, or a
    one-player table with no mode (the play app's solo game, ``{"players": 1}``)."""
    mode = config.get("mode")
    return mode in VILLAIN_MODES or (mode is None and config.get("players") == 1)


def side(s: State) -> int | None:
    """The villain side's number (the owner of the villain figures), or None outside the
    villain modes."""
    v = s.get("villain")
    return None if v is None else v["seat"]


def is_villain_seat(s: State, seat: int) -> bool:
    """The archvillain's seat (T-99): the villain side when a person plays it."""
    v = s.get("villain")
    return v is not None and v["player"] and seat == v["seat"]


def is_villain_fig(s: State, fig: dict) -> bool:
    v = s.get("villain")
    return v is not None and fig["owner"] == v["seat"]


def heroes(s: State) -> list[int]:
    return [p["seat"] for p in s["players"] if not p.get("villain")]


def threat(s: State) -> int:
    """The threat level: the number of discarded schemes (T-85; this turn's are not yet)."""
    return len(s["villain"]["discard"])


# -- setup [T-81..T-84, T-101] ------------------------------------------------------------


def new_game(system: Any, config: Mapping[str, Any], decks: Sequence[Any], seed: int) -> State:
    config = dict(config)
    mode = config.get("mode", "solo")
    if mode not in SEATS:
        raise InvalidConfig(f"Unknown villain mode {mode!r} (solo, coop or archvillain).")
    seats = SEATS[mode]
    n = config.get("players", len(decks) if decks else seats)
    if n != seats or (decks and len(decks) != seats):
        raise InvalidConfig(f"The {mode} mode is played by {seats} player(s) (T-75).")
    key = config.get("scenario", DEFAULT_SCENARIO)
    if not isinstance(key, str) or key not in system.db.scenarios:
        raise InvalidConfig(f"No scenario {key!r}.")
    scen = system.db.scenario(key)
    if mode not in scen.modes:
        raise InvalidConfig(f"The scenario {key!r} has no {mode} mode (T-75).")
    setup = scen.modes[mode]
    difficulty = config.get("difficulty", "normal")
    if difficulty not in DIFFICULTY:
        raise InvalidConfig("difficulty is normal, hard or nightmare (T-101).")
    max_rounds = config.get("max_rounds", DEFAULT_MAX_ROUNDS)
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise InvalidConfig("max_rounds must be a whole number >= 1")
    if config.get("first", 0) != 0 or isinstance(config.get("first"), bool):
        raise InvalidConfig("Against the villains the player goes first (T-84): first is 0.")
    info = system.info
    rng = seed_state(seed)
    cards: list[str] = []

    def make(cid: str) -> int:
        cards.append(cid)
        return len(cards) - 1

    hero_seats = HEROES[mode]
    villain_seat = hero_seats
    gates = system.db.gates()
    players = []
    for seat in range(hero_seats):
        deck = [make(cid) for cid in system.db.starters()]  # T-9, D-5
        players.append(
            modes.new_player(
                seat,
                gate=gates[0].id,  # T-84: you go first; T-96: both take Team-1 gates
                gate_no=seat + 1,  # the scenario's portals of this seat (T-97)
                side=0,
                deck=deck,
                rng=rng,
            )
        )
    piles = {c.id: [make(c.id) for _ in range(c.copies)] for c in system.db.always()}  # T-11
    drafting = _drafting(config, mode)
    villain_ids = list(setup.villains)
    if drafting:  # T-82: a random boss and three random villains of glory <= 3
        bosses = sorted(c.id for c in system.db.bosses())
        minions = sorted(c.id for c in system.db.villains() if (c.glory or 0) <= 3)
        shuffle(rng, bosses)
        shuffle(rng, minions)
        villain_ids = bosses[:1] + minions[:3]
    if len(villain_ids) != len(TOKENS) or not info[villain_ids[0]].is_boss:
        raise InvalidConfig(f"The scenario {key!r} needs a boss and three villains (T-82).")
    villain_names = {info[c].name_en for c in villain_ids}
    center: list[int] = []
    box: list[int] = []
    for cid in system.db.central_deck():
        iid = make(cid)
        c = info[cid]
        # T-84: no champion twice; the central copies of a villain go to the box
        (box if c.is_champion and c.name_en in villain_names else center).append(iid)
    shuffle(rng, center)  # T-17
    row = [center.pop() for _ in range(ROW_SIZE)]
    ter: dict[str, str] = {ck(c): t for c, t in scen.terrain.items()}
    owner: dict[str, int] = {}
    for seat in range(hero_seats):
        for cell in setup.portals.get(seat + 1, ()):
            ter[ck(cell)] = "portal"
            owner[ck(cell)] = seat
    bag = [k for k, t in enumerate(system.treasures) for _ in range(t.count)]
    shuffle(rng, bag)  # T-12
    board_treasure = {}
    for cell in sorted(scen.treasure):
        if bag:
            board_treasure[ck(cell)] = bag.pop()
    # the villain side sits after the heroes: a player entry with no cards (T-84: no deck,
    # no gate), so that every "whose side" question of the engine has an answer
    players.append(
        modes.new_player(
            villain_seat,
            gate=None,
            gate_no=None,
            side=villain_seat,
            deck=[],
            rng=None,
            villain=True,
            gate_used=True,
        )
    )
    figs: list[dict] = []
    chosen = config.get("reserves")
    if chosen is not None and (not isinstance(chosen, list) or len(chosen) != hero_seats):
        raise InvalidConfig("reserves is a list of card ids for each hero seat.")
    # T-81: the config's reserve, else the recommended one (archvillain reuses the solo
    # setup's, T-99), else champions drawn from the seed
    recommended = setup.reserves or (scen.modes["solo"].reserves if "solo" in scen.modes else {})
    pool = sorted(c.id for c in system.db.champions() if c.name_en not in villain_names)
    shuffle(rng, pool)
    for seat in range(hero_seats):
        if drafting:
            break  # the reserves come from the draft (T-81, T-96)
        if chosen is not None:
            ids = chosen[seat]
            if not isinstance(ids, list) or not ids:
                raise InvalidConfig("reserves is a list of card ids for each hero seat.")
        else:
            k = RESERVE[mode]
            ids = list(recommended.get(seat + 1, ())) if hero_seats == 1 else []
            ids = ids or pool[seat * k : (seat + 1) * k]
        for cid in ids:
            if not isinstance(cid, str) or cid not in info or info[cid].type != "champion":
                raise InvalidConfig(f"{cid!r} is not a champion")
            if info[cid].name_en in villain_names:
                raise InvalidConfig(f"{cid!r} is one of the villains (T-82: no champion twice).")
            system._new_figs(figs, cid, seat, make(cid))  # T-106
    # the villains (T-81, T-83): the boss holds the crown, the others a random token each
    others = list(TOKENS[1:])
    shuffle(rng, others)
    tokens = {}
    for token, cid in zip(("boss", *others), villain_ids, strict=True):
        tokens[token] = system._new_fig(figs, cid, villain_seat, make(cid))["id"]
    deck = [make(cid) for cid in setup.schemes]
    shuffle(rng, deck)  # T-84
    discard = [deck.pop() for _ in range(min(DIFFICULTY[difficulty], len(deck)))]  # T-101
    hand = [deck.pop() for _ in range(min(SCHEME_HAND, len(deck)))] if mode == "archvillain" else []
    return {
        "v": 1,
        "mode": mode,
        "scenario": key,
        "victory": dict(setup.victory),
        "shrine_glory": scen.shrine_glory,
        "cells": sorted(ck(c) for c in scen.cells),
        "max_rounds": max_rounds,
        "cards": cards,
        "players": players,
        "figs": figs,
        "row": row,
        "center": center,
        "banished": [],
        "box": box,
        "piles": piles,
        "terrain": ter,
        "owner": owner,
        "board_treasure": board_treasure,
        "bag": bag,
        "treasure_discard": [],
        "first": 0,
        "active": 0,
        "round": 1,
        "cmd": None,
        "pending": None,
        "todo": [],
        "rng": rng,
        "log": 0,
        "out": [],
        "finished": False,
        "winners": [],
        "draw": False,
        "sides": [list(range(hero_seats)), [villain_seat]],
        "acting": [] if drafting else list(range(hero_seats)),
        "phase": champion_draft.PHASE if drafting else "play",
        "draft": (
            champion_draft.start(pool, [(h,) for h in range(hero_seats)], RESERVE[mode])
            if drafting
            else None
        ),
        "villain": {
            "seat": villain_seat,
            "player": mode == "archvillain",
            "difficulty": difficulty,
            "tokens": tokens,
            "targets": {t: ck(c) for t, c in sorted(setup.targets.items())},
            "entry": [ck(c) for c in setup.villain_entry],
            # the scenario's corrupted land does not harm the villains (its rules)
            "safe": sorted(ck(c) for c, t in scen.terrain.items() if t == "corrupted"),
            "deck": deck,
            "discard": discard,
            "hand": hand,
            "revealed": [],  # this turn's schemes, discarded at step 3 (T-86)
            "queue": [],  # effects of the schemes still to resolve
            "turns": 0,
            "won": False,
        },
    }


def _drafting(config: Mapping[str, Any], mode: str) -> bool:
    """Whether the heroes draft their reserves (T-76/T-77 as setup phase, the game's
    ``engine.tactics.draft``): ``config["draft"]``, by default in co-op (T-96) and not in
    solo and archvillain, which use the scenario's recommended champions (T-81)."""
    value = config.get("draft", mode == "coop" and "reserves" not in config)
    if type(value) is not bool:
        raise InvalidConfig("draft is true or false (T-76).")
    if value and "reserves" in config:
        raise InvalidConfig("Give either draft or reserves: the draft fills the reserves (T-16).")
    return value


# -- continuous effects ----------------------------------------------------------------


def static_bonus(system: Any, s: State, fig: dict, stat: str) -> int:
    """The boosts of the villains' threat-gated abilities (T-92): "Threat n: ..." works while
    the discarded schemes are at least n; ``self`` boosts that villain, ``all_villains``
    every villain figure, cultists included."""
    v = s.get("villain")
    if v is None or fig["owner"] != v["seat"]:
        return 0
    level = len(v["discard"])
    total = 0
    for f in s["figs"]:
        if f["owner"] != v["seat"] or f["gone"]:
            continue
        for a in system.card_of(f).abilities_when("threat"):
            if (a.threat or 0) > level:
                continue
            for e in a.effects:
                if e.get("op") != "boost" or e.get("stat") != stat:
                    continue
                if e.get("target") == "all_villains" or f["id"] == fig["id"]:
                    total += e["amount"]
    return total


def _ignores_corruption(s: State, fig: dict, cell: Any) -> bool:
    """T-62: villains ignore corrupted land in solo and co-op; in archvillain only the
    scenario's own corrupted land spares them (the scenario's rule), not land a scheme
    places."""
    v = s.get("villain")
    if v is None or fig["owner"] != v["seat"]:
        return False
    return s["mode"] in ("solo", "coop") or ck(cell) in v["safe"]


def corruption(s: State, fig: dict, bf: terrain.Battlefield, path: Sequence[Any]) -> int:
    """The damage of corrupted land on a move along ``path`` (T-62, C-47), none for a
    villain where it ignores the land (``_ignores_corruption``)."""
    cells = [tuple(h) for h in path]
    cells = cells[:1] + [h for h in cells[1:] if not _ignores_corruption(s, fig, h)]
    return terrain.corruption_damage(bf, cells)


def harmed(s: State, fig: dict) -> bool:
    """Whether the turn-start damage of corrupted land (T-62, D-12) touches ``fig``."""
    return fig["cell"] is None or not _ignores_corruption(s, fig, pc(fig["cell"]))


def shared_portals(system: Any, s: State, seat: int, occupied: set) -> list[str]:
    """T-97: in co-op a disabled portal one hero has activated (T-60) admits both; the
    heroes' own starting portals stay each one's own (C-69)."""
    v = s.get("villain")
    if v is None or s["mode"] != "coop" or seat not in heroes(s):
        return []
    opened = system.db.scenario(s["scenario"]).terrain
    return [
        c
        for c, o in sorted(s["owner"].items())
        if o != seat
        and o in heroes(s)
        and opened.get(pc(c)) == "disabled_portal"
        and s["terrain"].get(c) == "portal"
        and pc(c) not in occupied
    ]


# -- glory and the end ------------------------------------------------------------------


def hero_glory(system: Any, s: State, amount: int, events: list[Event]) -> None:
    """Glory for the heroes: the active hero, or seat 0 on the villains' turn."""
    seat = s["active"] if s["active"] in heroes(s) else heroes(s)[0]
    system._glory(s, seat, amount, events)


def villain_glory(system: Any, s: State, amount: int, events: list[Event]) -> None:
    v = s["villain"]
    p = s["players"][v["seat"]]
    p["glory"] += amount
    events.append({"type": "villain_glory", "amount": amount, "total": p["glory"]})
    goal = s["victory"].get("villain_glory")
    if goal is not None and p["glory"] >= goal and not s["finished"]:  # T-95
        villains_win(system, s, events, "glory")


def villains_win(system: Any, s: State, events: list[Event], why: str) -> None:
    """The villains win (T-87, T-95, D-18): the villain seat in archvillain; in solo no
    seat wins (the hero lost)."""
    v = s["villain"]
    v["won"] = True
    events.append({"type": "villains_win", "why": why})
    system._finish(s, [v["seat"]] if v["player"] else [], events)


def defeat(system: Any, s: State, fig: dict, events: list[Event]) -> None:
    """A villain figure is defeated: off the battlefield, not exhausted (T-90), its
    constructs banished (T-92, C-65), its glory to the heroes at once (T-90, T-94, C-62)."""
    events.append({"type": "defeat", "fig": fig["id"], "seat": fig["owner"]})
    fig["cell"] = None
    fig["damage"] = 0
    s["banished"].extend(fig["equip"])
    fig["equip"] = []
    if system.is_cultist(fig):
        fig["gone"] = True
        glory = CULTIST_GLORY
    else:
        glory = system.card_of(fig).glory or 0
    if glory:
        hero_glory(system, s, glory, events)


def leave_winners(s: State, player: int) -> list[int]:
    """Who wins when ``player`` leaves: the other side (nobody for the villains in solo)."""
    v = s["villain"]
    if is_villain_seat(s, player):
        return heroes(s)
    return [v["seat"]] if v["player"] else []


def seats(s: State) -> list[int]:
    """The seats of the table: the heroes, and the archvillain's (T-99)."""
    v = s["villain"]
    return heroes(s) + ([v["seat"]] if v["player"] else [])


def is_seat(s: State, p: dict) -> bool:
    """Whether a player entry is a seat of the table (not the villain side of solo)."""
    return not p.get("villain") or s["villain"]["player"]


def leave(system: Any, state: State, player: int, reason: str) -> tuple[State, list[Event]]:
    """A seat leaves. The archvillain leaving: the heroes win; the last hero leaving: the
    villains win (T-95; in solo and co-op nobody); a co-op hero leaving: their champions
    leave the battlefield and the other hero plays on."""
    if type(player) is not int or player not in seats(state):
        raise IllegalAction("There is no such player in this game.")
    if player in state["out"]:
        raise IllegalAction("This player has left the game already.")
    s = copy.deepcopy(state)
    s["out"].append(player)
    events: list[Event] = [{"type": "left", "seat": player, "reason": reason}]
    staying = [h for h in heroes(s) if h not in s["out"]]
    if is_villain_seat(s, player):
        system._finish(s, staying, events)
    elif not staying:
        s["villain"]["won"] = True
        system._finish(s, leave_winners(s, player), events)
    else:
        for f in s["figs"]:
            if f["owner"] == player and not f["gone"]:
                f["cell"] = None
                f["gone"] = True
        if s["pending"] is not None and s["pending"]["player"] == player:
            s["pending"] = None
        s["todo"] = [item for item in s["todo"] if item["seat"] != player]
        system._check_command(s)
        if player in s["acting"]:
            s["acting"].remove(player)
            if s["active"] == player:
                s["active"] = s["acting"][0] if s["acting"] else staying[0]
            if not s["acting"]:
                system._next_side(s, 0, events)
        system._run(s, events)
    s["log"] += 1
    return s, events


# -- the villain turn [T-86, T-87, T-99] ------------------------------------------------


def turn_started(system: Any, s: State, seat: int, events: list[Event]) -> None:
    """A turn has started (after the corrupted land of D-12): if it is the villains', in
    solo it is played out at once; the archvillain plays it (T-86, T-99)."""
    v = s.get("villain")
    if v is None or seat != v["seat"]:
        return
    v["revealed"] = []
    events.append({"type": "villain_turn", "seat": v["seat"]})
    advance(system, s, events)


def advance(system: Any, s: State, events: list[Event]) -> None:
    """Resolve the schemes' effects until one needs the archvillain (a choice or a
    command) or, in solo, until the villain turn is over."""
    v = s.get("villain")
    if v is None:
        return
    while not s["finished"] and s["pending"] is None and s["cmd"] is None and not s["todo"]:
        if s["active"] != v["seat"]:
            return
        if v["queue"]:
            resolve(system, s, v["queue"].pop(0), events)
            continue
        if v["player"]:
            return  # the archvillain plays the next scheme or ends the turn
        if len(v["revealed"]) < SCHEMES_PER_TURN:
            if not v["deck"]:  # T-87, C-60
                villains_win(system, s, events, "schemes")
                return
            play_scheme(system, s, v["deck"].pop(), events)
            continue
        end_villain_turn(system, s, events)
        return


def play_scheme(system: Any, s: State, iid: int, events: list[Event]) -> None:
    """Reveal (or, for the archvillain, play) a scheme: its top effect always, its bottom
    effect only when the discarded schemes reach its threat level (T-85, C-59)."""
    v = s["villain"]
    card = system.info[s["cards"][iid]]
    v["revealed"].append(iid)
    bottom = card.threat is not None and threat(s) >= card.threat
    events.append({"type": "scheme", "iid": iid, "card": card.id, "threat": threat(s),
                   "bottom": bottom})  # fmt: skip
    effects = list(card.top) + (list(card.bottom) if bottom else [])
    v["queue"][:0] = expand(effects, None)


def expand(effects: Sequence[Mapping[str, Any]], fig: int | None) -> list[dict]:
    """Queue items: one ``order`` per token of a "command" effect, in its order (T-89)."""
    out = []
    for e in effects:
        if e["op"] == "villain_command":
            out += [{"op": "order", "token": t} for t in e["tokens"]]
        else:
            out.append({**e, "fig": fig})
    return out


def end_villain_turn(system: Any, s: State, events: list[Event]) -> None:
    """Steps 3 and 4 of T-86 (discard both schemes, shrine glory), the archvillain's draw
    back to 3 (T-99, D-18), then the cleanup of D-6 and the heroes' turn."""
    v = s["villain"]
    v["discard"].extend(v["revealed"])  # step 3
    v["revealed"] = []
    positions = {pc(f["cell"]): f["owner"] for f in system.on_board(s)}
    control = terrain.shrine_control(system.bf(s), positions)
    n = sum(1 for who in control.values() if who == v["seat"])
    if n:
        villain_glory(system, s, n * s["shrine_glory"], events)  # step 4 (T-64)
    if s["finished"]:
        return
    if v["player"]:
        need = SCHEME_HAND - len(v["hand"])
        if need > len(v["deck"]):  # D-18
            villains_win(system, s, events, "schemes")
            return
        v["hand"] += [v["deck"].pop() for _ in range(need)]
        events.append({"type": "scheme_draw", "count": need})
    for f in s["figs"]:  # D-6
        f["damage"] = 0
        f["boost"] = {"strength": 0, "defence": 0, "speed": 0}
        f["grants"] = []
    v["turns"] += 1
    s["players"][v["seat"]]["turns"] += 1
    events.append({"type": "end_turn", "seat": v["seat"]})
    k = next(k for k, side in enumerate(s["sides"]) if v["seat"] in side)
    system._next_side(s, k, events)  # a new round, the heroes' turn


# -- resolving the scheme effects ---------------------------------------------------------


def resolve(system: Any, s: State, e: dict, events: list[Event]) -> None:
    v = s["villain"]
    op = e["op"]
    if op == "order":
        order(system, s, e["token"], events)
    elif op == "surge":  # T-93: the boss's Surge, even off the battlefield
        boss = s["figs"][v["tokens"]["boss"]]
        effects = [x for a in system.card_of(boss).abilities_when("surge") for x in a.effects]
        events.append({"type": "surge", "fig": boss["id"]})
        v["queue"][:0] = expand(effects, boss["id"])
    elif op == "cultist":
        spawn_cultist(system, s, e, events)
    elif op == "villain_glory":
        villain_glory(system, s, e["amount"], events)
    elif op == "boost":
        for f in villain_figs(s, e.get("target"), e.get("fig")):
            f["boost"][e["stat"]] += e["amount"]  # until the end of the turn (T-6)
        events.append({"type": "villain_boost", "stat": e["stat"], "amount": e["amount"]})
    elif op == "damage":
        foes = hero_figs(system, s)
        if e.get("target") == "all_adjacent_enemies":
            me = s["figs"][e["fig"]] if e.get("fig") is not None else None
            if me is None or me["cell"] is None:
                return
            hits = [f for f in foes if hexes.adjacent(pc(f["cell"]), pc(me["cell"]))]
            system._damage(s, [(f, e["amount"]) for f in hits], events)
            return
        opts = [{"fig": f["id"]} for f in foes]
        decide(system, s, "villain_damage", opts, e, events)
    elif op == "terrain":
        bf = system.bf(s)
        taken = {f["cell"] for f in system.on_board(s)}
        opts = [
            {"cell": ck(h)}
            for h in sorted(bf.cells)
            if terrain.can_place_terrain(bf, h) and ck(h) not in taken
        ]
        decide(system, s, "villain_terrain", opts, e, events)
    else:
        events.append({"type": "skipped_effect", "op": op})


def villain_figs(s: State, target: str | None, me: int | None) -> list[dict]:
    v = s["villain"]
    figs = [f for f in s["figs"] if f["owner"] == v["seat"] and not f["gone"]]
    if target == "self":
        return [f for f in figs if f["id"] == me]
    return figs


def hero_figs(system: Any, s: State) -> list[dict]:
    return [f for f in system.on_board(s) if f["owner"] in heroes(s)]


def decide(system: Any, s: State, kind: str, opts: list[dict], e: dict, events: list) -> None:
    """A choice on a scheme: the archvillain's (a ``pending``), or the policy's in solo
    (T-88, D-17). No option: the effect is done as far as possible, i.e. not at all (T-4)."""
    if not opts:
        events.append({"type": "villain_nothing", "kind": kind})
        return
    v = s["villain"]
    if v["player"] and len(opts) > 1:
        s["pending"] = {"player": v["seat"], "kind": kind, "optional": False,
                        "options": opts, "effect": e, "fig": e.get("fig")}  # fmt: skip
        return
    i = 0 if v["player"] else _heroes_choice(system, s, kind, opts, e)
    carry_out(system, s, kind, opts[i], e, events)


def _heroes_choice(system: Any, s: State, kind: str, opts: list[dict], e: dict) -> int:
    """The solo and co-op policy for a free choice on a scheme: T-88 leaves it to the
    player ("you"), and T-94 names the cultist's neighbour "of your choice", so the option
    that harms the heroes least (D-17: a fixed policy): the damage on a champion it does
    not defeat, the one with the lowest STR; corrupted land farthest from the heroes'
    champions (or portals); a cultist on the free cell farthest from the shrines; ties:
    the first."""
    if kind == "villain_damage":

        def key(i: int):
            f = s["figs"][opts[i]["fig"]]
            left = system.stat(s, f, "defence") - f["damage"]
            return (e["amount"] >= left, system.stat(s, f, "strength"), f["id"])

        return min(range(len(opts)), key=key)
    if kind == "villain_terrain":
        near = [pc(f["cell"]) for f in hero_figs(system, s)] or [
            pc(c) for c, o in s["owner"].items() if o in heroes(s)
        ]
        if near:
            return max(
                range(len(opts)),
                key=lambda i: (min(hexes.distance(pc(opts[i]["cell"]), h) for h in near), -i),
            )
    if kind == "villain_cultist":
        shrines = [pc(c) for c, t in s["terrain"].items() if t == "shrine"]
        if shrines:
            return max(
                range(len(opts)),
                key=lambda i: (min(hexes.distance(pc(opts[i]["cell"]), h) for h in shrines), -i),
            )
    return 0


def _worst_for_heroes(system: Any, s: State, kind: str, opts: list[dict], e: dict) -> int:
    """The archvillain bot's choice on a scheme (T-100: the villain player makes every
    choice): damage the champion it defeats, else the one with the highest STR (D-4);
    corrupted land nearest to the heroes' champions (or portals); a cultist on the first
    free cell; ties: the first."""
    if kind == "villain_damage":

        def key(i: int):
            f = s["figs"][opts[i]["fig"]]
            left = system.stat(s, f, "defence") - f["damage"]
            return (e["amount"] >= left, system.stat(s, f, "strength"), -f["id"])

        return max(range(len(opts)), key=key)
    if kind == "villain_terrain":
        near = [pc(f["cell"]) for f in hero_figs(system, s)] or [
            pc(c) for c, o in s["owner"].items() if o in heroes(s)
        ]
        if near:
            return min(
                range(len(opts)),
                key=lambda i: (min(hexes.distance(pc(opts[i]["cell"]), h) for h in near), i),
            )
    return 0


def carry_out(system: Any, s: State, kind: str, opt: dict, e: dict, events: list) -> None:
    v = s["villain"]
    if kind == "villain_damage":
        system._damage(s, [(s["figs"][opt["fig"]], e["amount"])], events)
    elif kind == "villain_terrain":
        bf = terrain.place_terrain(system.bf(s), pc(opt["cell"]), e["terrain"])
        system._set_bf(s, bf)
        events.append({"type": "terrain", "cell": opt["cell"], "terrain": e["terrain"]})
    elif kind == "villain_cultist":
        fig = system._new_fig(s["figs"], system.cultist_card.id, v["seat"], None)
        fig["cell"] = opt["cell"]  # placed, not moved (D-10); treasure ignored (T-90)
        events.append({"type": "enter", "seat": v["seat"], "fig": fig["id"],
                       "cell": opt["cell"], "cultist": True})  # fmt: skip
    elif kind == "villain_enter":
        fig = s["figs"][opt["fig"]]
        system._enter(s, fig, opt["cell"], events)
        begin_command(system, s, fig)


def spawn_cultist(system: Any, s: State, e: dict, events: list[Event]) -> None:
    """T-94: a villain cultist on the token's cell, else on a free neighbour (the chooser's
    pick), else nowhere (C-66). Villains have no cultist cap."""
    v = s["villain"]
    occupied = {pc(f["cell"]) for f in system.on_board(s)}
    cells = terrain.spawn_cells(system.bf(s), pc(v["targets"][e["token"]]), occupied,
                                seats=(v["seat"],))  # fmt: skip
    decide(system, s, "villain_cultist", [{"cell": ck(h)} for h in cells], e, events)


# -- commanding a villain [T-89..T-91, D-17] ------------------------------------------------


def order(system: Any, s: State, token: str, events: list[Event]) -> None:
    """ "Command (token)": the villain holding that token (T-89). Off the battlefield it
    enters on a free villain entry cell (none free: nothing happens, T-4). It never
    exhausts and may be commanded again this turn (T-90, C-61)."""
    v = s["villain"]
    fig = s["figs"][v["tokens"][token]]
    events.append({"type": "command", "seat": v["seat"], "fig": fig["id"], "card": fig["card"],
                   "token": token})  # fmt: skip
    if fig["cell"] is None:
        occupied = {f["cell"] for f in system.on_board(s)}
        free = [c for c in v["entry"] if c not in occupied]
        if not free:
            events.append({"type": "villain_nothing", "kind": "villain_enter"})
            return
        if v["player"]:
            opts = [{"fig": fig["id"], "cell": c} for c in free]
            decide(system, s, "villain_enter", opts, {"op": "order", "token": token}, events)
            return
        target = pc(v["targets"][token])
        best = terrain.closest(system.bf(s), [pc(c) for c in free], target,
                               enemies=_foe_cells(system, s))  # fmt: skip
        system._enter(s, fig, ck(best[0]), events)
    begin_command(system, s, fig)
    if not v["player"]:
        command_villain(system, s, fig, pc(v["targets"][token]), events)
        s["cmd"] = None


def begin_command(system: Any, s: State, fig: dict) -> None:
    double = "double_attack" in system.keywords(s, fig)  # T-53
    s["cmd"] = {"fig": fig["id"], "moved": False, "attacks": 2 if double else 1}


def _foe_cells(system: Any, s: State) -> set[tuple[int, int]]:
    return {pc(f["cell"]) for f in hero_figs(system, s)}


def _foes_by_cell(system: Any, s: State) -> dict[tuple[int, int], dict]:
    return {pc(f["cell"]): f for f in hero_figs(system, s)}


def _in_reach(system: Any, s: State, fig: dict, at: tuple[int, int]) -> list[dict]:
    """The heroes' champions a villain standing on ``at`` could attack (T-44, T-54)."""
    by_cell = _foes_by_cell(system, s)
    ranged = "ranged" in system.keywords(s, fig)
    cells = terrain.attack_targets(system.bf(s), at, set(by_cell), ranged=ranged)
    return [by_cell[h] for h in cells]


def _priority(system: Any, s: State, f: dict) -> tuple[int, int]:
    """D-4: the highest STR first; a tie goes to the lowest figure id (T-91: "you" break
    it, D-17: a fixed policy)."""
    return (system.stat(s, f, "strength"), -f["id"])


def kill_plan(system: Any, s: State, fig: dict, target: tuple[int, int]):
    """T-91 "Yes": can the villain defeat a heroes' champion with its move and/or its
    attacks (D-17: one move, then every attack it has, Double attack included)? Returns
    (victim, cell to move to first or None) or None."""
    here = pc(fig["cell"])
    hits = s["cmd"]["attacks"] if s["cmd"] else 1
    power = system.stat(s, fig, "strength") * hits
    ends = [here] + [pc(c) for c in system._moves(s, fig)]
    where: dict[int, list[tuple[int, int]]] = {}
    victims: dict[int, dict] = {}
    for end in ends:
        for f in _in_reach(system, s, fig, end):
            if power >= system.stat(s, f, "defence") - f["damage"]:
                where.setdefault(f["id"], []).append(end)
                victims[f["id"]] = f
    if not victims:
        return None
    victim = max(victims.values(), key=lambda f: _priority(system, s, f))
    cells = where[victim["id"]]
    if here in cells:
        return victim, None
    best = terrain.closest(system.bf(s), cells, target, enemies=_foe_cells(system, s))
    return victim, best[0]


def step_toward(system: Any, s: State, fig: dict, target: tuple[int, int], events: list) -> None:
    """Move toward the target along a shortest way (T-91 "No" 2): onto it, next to it when
    it is taken, else as close as the move allows; no move when already as close as it
    can get. Ties: the first cell in (q, r) order (D-17)."""
    here = pc(fig["cell"])
    moves = [pc(c) for c in system._moves(s, fig)]
    if not moves:
        return
    best = terrain.closest(system.bf(s), [here, *moves], target, enemies=_foe_cells(system, s))
    if here in best:
        return
    move(system, s, fig, best[0], events)


def move(system: Any, s: State, fig: dict, dest: tuple[int, int], events: list) -> None:
    s["cmd"]["moved"] = True
    system._move(s, fig, ck(dest), system.stat(s, fig, "speed"), events)
    system._check_command(s)


def attack(system: Any, s: State, fig: dict, victim: dict, events: list) -> None:
    system._do_attack(s, fig["owner"], {"type": "attack", "cell": victim["cell"]}, events)
    system._check_command(s)


def strike(system: Any, s: State, fig: dict, first: dict | None, events: list) -> None:
    """Use every attack the command has: ``first`` while it stands, then the heroes'
    champion with the highest STR in reach (D-4)."""
    while s["cmd"] is not None and s["cmd"]["attacks"] > 0 and fig["cell"] is not None:
        reach = _in_reach(system, s, fig, pc(fig["cell"]))
        if not reach:
            return
        if first is not None and first["cell"] is not None and first in reach:
            victim = first
        else:
            victim = max(reach, key=lambda f: _priority(system, s, f))
        attack(system, s, fig, victim, events)


def command_villain(
    system: Any, s: State, fig: dict, target: tuple[int, int], events: list[Event]
) -> None:
    """The villain algorithm of T-91 for a villain on the battlefield (C-61, C-63, C-64)."""
    plan = kill_plan(system, s, fig, target)
    if plan is not None:  # "Yes"
        victim, dest = plan
        if dest is not None:
            move(system, s, fig, dest, events)  # 2: the approach closest to its target
        if s["cmd"] is None:
            return
        strike(system, s, fig, victim, events)  # 1: the victim with the highest STR
        if dest is None and s["cmd"] is not None and fig["cell"] is not None:
            step_toward(system, s, fig, target, events)  # 3: then toward its target
        return
    # "No" 1: next to (or on) the shrine of its target: no move, the shrine's glory now
    bf = system.bf(s)
    here = pc(fig["cell"])
    if bf.terrain.get(target) is terrain.Terrain.SHRINE and hexes.distance(here, target) <= 1:
        events.append({"type": "villain_shrine", "fig": fig["id"], "cell": ck(target)})
        villain_glory(system, s, s["shrine_glory"], events)
        return
    step_toward(system, s, fig, target, events)  # "No" 2
    if s["cmd"] is not None and fig["cell"] is not None:
        strike(system, s, fig, None, events)  # "No" 3


# -- the archvillain's seat [T-99, T-100] --------------------------------------------------


def legal_actions(system: Any, s: State, seat: int) -> list[Action]:
    """The archvillain's actions when no choice is pending: a free command of the villain
    in progress (``move`` / ``attack`` / ``done``, T-100), else ``scheme`` (2 a turn, T-99)
    or ``end_turn`` after the second one."""
    v = s["villain"]
    cmd = s["cmd"]
    acts: list[Action] = []
    if cmd is not None:
        fig = s["figs"][cmd["fig"]]
        if not cmd["moved"]:
            acts += [{"type": "move", "cell": c} for c in system._moves(s, fig)]
        if cmd["attacks"] > 0:
            acts += [{"type": "attack", "cell": c} for c in system._targets(s, fig)]
        acts.append({"type": "done"})
        return acts
    if v["queue"]:
        return []
    if len(v["revealed"]) < SCHEMES_PER_TURN:
        return [{"type": "scheme", "iid": i} for i in v["hand"]]
    return [{"type": "end_turn"}]


def do_scheme(system: Any, s: State, seat: int, action: Action, events: list[Event]) -> None:
    """The archvillain plays a scheme from their hand (T-99)."""
    v = s["villain"]
    iid = action["iid"]
    if iid not in v["hand"]:  # pragma: no cover - legality is membership
        raise IllegalAction("That scheme is not in your hand.", "T-99")
    v["hand"].remove(iid)
    play_scheme(system, s, iid, events)


def is_villain_choice(pending: dict | None) -> bool:
    return pending is not None and pending["kind"] in VILLAIN_KINDS


def do_choose(system: Any, s: State, seat: int, action: Action, events: list[Event]) -> None:
    pend = s["pending"]
    s["pending"] = None
    opt = pend["options"][action["i"]]
    carry_out(system, s, pend["kind"], opt, pend["effect"], events)


# -- what a seat sees -----------------------------------------------------------------------


def view(s: State, player: int | None) -> dict[str, Any] | None:
    """The villains' side of ``view`` (public but the scheme deck's order and the
    archvillain's hand, D-21)."""
    v = s.get("villain")
    if v is None:
        return None
    cards = s["cards"]

    def open_(iids):
        return [{"iid": i, "card": cards[i]} for i in iids]

    mine = v["player"] and player == v["seat"]
    return {
        "mode": s["mode"],
        "seat": v["seat"],
        "player": v["player"],
        "difficulty": v["difficulty"],
        "glory": s["players"][v["seat"]]["glory"],
        "goal": s["victory"].get("villain_glory"),
        "tokens": dict(v["tokens"]),
        "targets": dict(v["targets"]),
        "entry": list(v["entry"]),
        "scheme_deck": len(v["deck"]),
        "scheme_discard": open_(v["discard"]),
        "threat": len(v["discard"]),
        "revealed": open_(v["revealed"]),
        "hand": open_(v["hand"]) if mine else len(v["hand"]),
        "won": v["won"],
    }


# -- a bot for the archvillain's seat -------------------------------------------------------


def token_of(s: State, fig: dict) -> str | None:
    return next((t for t, i in s["villain"]["tokens"].items() if i == fig["id"]), None)


def _scheme_worth(system: Any, s: State, iid: int) -> float:
    card = system.info[s["cards"][iid]]
    effects = list(card.top)
    if card.threat is not None and threat(s) >= card.threat:
        effects += list(card.bottom)
    worth = 0.0
    for e in effects:
        if e["op"] == "villain_command":
            worth += 2.0 * len(e["tokens"])
        elif e["op"] == "villain_glory":
            worth += 1.5 * e["amount"]
        else:
            worth += 1.0
    return worth


def villain_bot(system: Any, s: State, seat: int) -> Action:
    """The archvillain's heuristic (T-100): the scheme worth most now (commands, glory,
    active bottom effects), each command played as the T-91 algorithm would play it (a
    kill first, else toward the villain's target), the solo policy for choices."""
    pend = s["pending"]
    if pend is not None:
        if pend["kind"] == "villain_enter":
            fig = s["figs"][pend["options"][0]["fig"]]
            target = pc(s["villain"]["targets"][token_of(s, fig) or "boss"])
            cells = [pc(o["cell"]) for o in pend["options"]]
            best = terrain.closest(system.bf(s), cells, target, enemies=_foe_cells(system, s))
            return {"type": "choose", "i": cells.index(best[0])}
        return {"type": "choose", "i": _worst_for_heroes(system, s, pend["kind"],
                                                         pend["options"], pend["effect"])}  # fmt: skip
    cmd = s["cmd"]
    if cmd is not None:
        fig = s["figs"][cmd["fig"]]
        token = token_of(s, fig)
        here = pc(fig["cell"])
        reach = _in_reach(system, s, fig, here) if cmd["attacks"] > 0 else []
        power = system.stat(s, fig, "strength") * cmd["attacks"]
        kills = [f for f in reach if power >= system.stat(s, f, "defence") - f["damage"]]
        if kills:
            return {
                "type": "attack",
                "cell": max(kills, key=lambda f: _priority(system, s, f))["cell"],
            }
        if not cmd["moved"] and token is not None:
            target = pc(s["villain"]["targets"][token])
            plan = kill_plan(system, s, fig, target) if cmd["attacks"] > 0 else None
            if plan is not None and plan[1] is not None:
                return {"type": "move", "cell": ck(plan[1])}
            moves = [pc(c) for c in system._moves(s, fig)]
            if moves:
                best = terrain.closest(system.bf(s), [here, *moves], target,
                                       enemies=_foe_cells(system, s))  # fmt: skip
                if here not in best:
                    return {"type": "move", "cell": ck(best[0])}
        if reach:
            return {
                "type": "attack",
                "cell": max(reach, key=lambda f: _priority(system, s, f))["cell"],
            }
        return {"type": "done"}
    acts = legal_actions(system, s, seat)
    schemes = [a for a in acts if a["type"] == "scheme"]
    if schemes:
        return max(schemes, key=lambda a: (_scheme_worth(system, s, a["iid"]), -a["iid"]))
    return acts[0]


# -- hints for the heroes' heuristic bot ------------------------------------------------------


def _gives(card: Any, op: str) -> int:
    return sum(
        e.get("amount", 0)
        for a in card.abilities
        if a.when in ("play", "devotion")
        for e in a.effects
        if e["op"] == op
    )


def hero_hint(system: Any, s: State, seat: int, legal: list[Action]) -> Action | None:
    """What the heroes' heuristic does differently against the villains, or None for its
    usual choice: with no command in progress, a champion on the battlefield that can
    defeat a villain figure is commanded first (its glory comes at once, T-90, T-94), and
    runes go to the cards that give power (commands are what win against the schemes)."""
    if s["pending"] is not None:
        return None
    if s["cmd"] is not None:
        return _hero_command(system, s, seat, legal)
    p = s["players"][seat]
    info, cards = system.info, s["cards"]
    foes = [f for f in system.on_board(s) if is_villain_fig(s, f)]
    for a in legal:
        if a["type"] != "command" or "cell" in a:
            continue
        fig = s["figs"][a["fig"]]
        power = system.stat(s, fig, "strength") * (
            2 if "double_attack" in system.keywords(s, fig) else 1
        )
        spots = [pc(fig["cell"])] + [pc(c) for c in system._moves(s, fig)]
        ranged = "ranged" in system.keywords(s, fig)
        cells = {pc(f["cell"]): f for f in foes}
        for h in spots:
            for t in terrain.attack_targets(system.bf(s), h, set(cells), ranged=ranged):
                f = cells[t]
                if power >= system.stat(s, f, "defence") - f["damage"]:
                    return a
    if any(a["type"] in ("play", "gate", "command") for a in legal):
        return None
    buys = [a for a in legal if a["type"] == "acquire"]
    power_buys = []
    for a in buys:
        c = info[cards[a["iid"]]] if "iid" in a else info[a["pile"]]
        if c.type in ("hero", "construct") and _gives(c, "power") >= 2:
            power_buys.append((_gives(c, "power"), c.cost or 0, "iid" in a, a))
    if power_buys and p["runes"] >= 2:
        return max(power_buys, key=lambda x: x[:3])[3]
    return None


def _shrine_score(system: Any, s: State, seat: int, fig: dict, at: tuple[int, int]) -> float:
    """How the shrines stand for the heroes with ``fig`` on ``at``: +10 for each one they
    would control (T-64: strictly the most champions around it), +4 for each one taken
    from the villains, minus a little for the way to the nearest one."""
    bf = system.bf(s)
    side = set(heroes(s))
    positions = {pc(f["cell"]): f["owner"] for f in system.on_board(s) if f["id"] != fig["id"]}
    before = terrain.shrine_control(bf, {h: 0 if o in side else 1 for h, o in
                                         {**positions, pc(fig["cell"]): seat}.items()})  # fmt: skip
    positions[at] = seat
    after = terrain.shrine_control(bf, {h: 0 if o in side else 1 for h, o in positions.items()})
    score = 0.0
    for shrine, who in after.items():
        if who == 0:
            score += 10
        elif before.get(shrine) == 1:
            score += 4
    near = min((hexes.distance(at, sh) for sh in after), default=0)
    return score - 0.3 * near


def _hero_command(system: Any, s: State, seat: int, legal: list[Action]) -> Action | None:
    """A command against the villains: defeat a villain figure if it can (the most glory
    first), else move where the heroes hold the most shrines, then attack what is left."""
    cmd = s["cmd"]
    fig = s["figs"][cmd["fig"]]
    if fig["owner"] != seat or fig["cell"] is None:
        return None
    attacks = [a for a in legal if a["type"] == "attack"]
    by_cell = {f["cell"]: f for f in system.on_board(s) if is_villain_fig(s, f)}
    strength = system.stat(s, fig, "strength")

    def glory(f: dict) -> int:
        return CULTIST_GLORY if system.is_cultist(f) else system.card_of(f).glory or 0

    kills = [
        a
        for a in attacks
        if a["cell"] in by_cell
        and strength >= system.stat(s, by_cell[a["cell"]], "defence") - by_cell[a["cell"]]["damage"]
    ]
    if kills:
        return max(kills, key=lambda a: (glory(by_cell[a["cell"]]), a["cell"]))
    moves = [a for a in legal if a["type"] == "move"]
    if moves:

        def score(cell: str) -> float:
            return _shrine_score(system, s, seat, fig, pc(cell))

        here = score(fig["cell"])
        best = max(moves, key=lambda a: (score(a["cell"]), a["cell"]))
        if score(best["cell"]) > here:
            return best
    safe = [a for a in attacks if "counter_strike" not in system.keywords(s, by_cell[a["cell"]])]
    if safe:
        return max(safe, key=lambda a: (glory(by_cell[a["cell"]]), a["cell"]))
    return {"type": "done"} if {"type": "done"} in legal else None
