"""The rules engine of Ascension (the deck-building game): a GameSystem over plain JSON data.

Rule ids (A-n), gaps (AA-n) and checks (AC-n) are those of
``/work/shared/rules/ascension_dbg.md``. Cards come from ``engine/sets/ascension/*.json``
(``engine.ascension.cards``); their abilities use the effect language of
``engine.ascension.effects``.

State layout
============

One ``dict`` of JSON data (``json.loads(json.dumps(state)) == state``)::

    v            format version (1)
    n            players (1 = the solo game against Samael, A-47..A-51)
    cards        card id of every card instance, indexed by instance id (iid); never
                 changes during a game (ownership is the zone a card is in, A-62)
    players      per seat: hand, deck (index -1 = top; hidden), discard (open), played
                 (Heroes played this turn, A-17), constructs (in play = controlled, A-20),
                 honor (tokens), runes, power, used (Constructs activated this turn,
                 AA-12), united (Unite sources triggered this turn, AA-3), log (iids
                 played this turn, in order), turns (turns taken)
    row          the center row: 6 slots, iid or None (AA-7: an empty slot)
    center       the center deck (index -1 = top; hidden)
    void         the Void pile (open; banished and defeated center cards)
    box          banished Apprentices and Militia (A-35), out of the game
    piles        the always-available piles: card id -> [iids] (A-8)
    samael       solo only: {"cards": [set-aside iids], "honor": tokens}; else None
    pool         honor left in the pool; pool_start its setup value; reserve the honor
                 taken from the box once the pool was empty (A-42, AA-5). Invariant:
                 pool + every token taken == pool_start + reserve
    first        the first player (A-12); active: the seat whose turn it is
    round        the round number (one turn per player, from ``first``, AA-4)
    ending       the pool ran out: the game ends when the round ends (A-41) / solo: at
                 the end of this turn (A-51)
    pending      a decision an effect waits for, or None: {"player", "kind" (banish,
                 defeat_free, acquire_free, keep), "options": [iids], "optional", ...}
    todo         effect ops still to carry out, front first: {"p": seat, "op", "src"}
    rng          the seeded generator (engine.core.rng); never shown in a view
    log          how many actions were applied
    finished, winners, scores (list by seat), samael_score (solo)

Actions
=======

``{"type": "play", "iid"}`` (a card from hand, A-23), ``{"type": "activate", "iid"}``
(a controlled Construct's once-per-turn ability, A-58/A-59), ``{"type": "acquire",
"iid"}`` or ``{"type": "acquire", "pile": card_id}`` (A-25..A-27), ``{"type": "defeat",
"iid"}`` or ``{"type": "defeat", "pile": card_id}`` (A-29, A-30), ``{"type":
"end_turn"}`` (A-38) and, while a decision is pending, ``{"type": "choose", "iid": iid |
None}`` (None declines an optional choice).

Decisions (all AA recommendations adopted; see docs/ascension.md)
=================================================================

* AA-1/AA-2: every stat is card data; the starter and always-available cards use the
  usual values (Apprentice 1 rune, Militia 1 power, Mystic cost 3 / 2 runes / 1 honor,
  Heavy Infantry cost 2 / 2 power / 1 honor, Cultist 2 power / 1 honor).
* AA-3 Unite: triggers when the same player plays *another* Hero of the card's faction
  later in the same turn while the Unite Hero was played this turn (or the Unite
  Construct is in play, on its controller's turns); at most once per card per turn.
* AA-4 tie-break: the tied player seated latest in turn order from the first player.
* AA-5: honor is an integer; a gain larger than the pool takes the rest from the box
  (``reserve``) and the end trigger fires when the pool reaches 0. Solo: the game ends at
  the end of the turn (the player's or Samael's) in which the pool empties.
* AA-6: Samael pays nothing, never takes always-available cards, takes the 2 rightmost
  cards one at a time (each time the rightmost card present), gains only the
  unconditional honor of a Monster's reward; "opponent" effects skip him; a tie is not
  a player win.
* AA-7: an exhausted center deck and Void leave the slot empty. AA-8: draw what you can.
  AA-9: revealing from an empty deck reshuffles first. AA-10: destroyed Constructs go to
  the controller's discard pile. AA-11: the Cultist cannot be banished. AA-12:
  once-per-turn use tracked per Construct, only on the controller's turn. AA-13:
  Apprentices and Militia have honor value 0 (data). AA-14: acquired cards go to the
  discard pile unless the card text says otherwise (A-5).
* Choices an effect needs are made at once (A-23): a pending decision blocks every other
  action. Victims of ``opponents_keep_one`` choose their own Construct to keep, in turn
  order from the player who triggered it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.ascension.cards import Card, CardDB, load_system
from engine.ascension.effects import reward_honor
from engine.core.errors import IllegalAction, InvalidConfig, NotYourTurn
from engine.core.legality import check_action, check_shape
from engine.core.protocol import Action, Event, GameResult, State
from engine.core.rng import randbelow, seed_state, shuffle

HAND_SIZE = 5
ROW_SIZE = 6
HONOR_PER_PLAYER = 30
SOLO_POOL = 50
PLAYER_ZONES = ("hand", "deck", "discard", "played", "constructs")


def _copy(s: State) -> State:
    """A structural copy of every part ``apply`` may change (``cards`` never changes)."""
    t = s.copy()
    t["players"] = [
        {
            **p,
            "hand": p["hand"][:],
            "deck": p["deck"][:],
            "discard": p["discard"][:],
            "played": p["played"][:],
            "constructs": p["constructs"][:],
            "used": p["used"][:],
            "united": p["united"][:],
            "log": p["log"][:],
        }
        for p in s["players"]
    ]
    t["row"] = s["row"][:]
    t["center"] = s["center"][:]
    t["void"] = s["void"][:]
    t["box"] = s["box"][:]
    t["piles"] = {k: v[:] for k, v in s["piles"].items()}
    t["rng"] = s["rng"][:]
    t["todo"] = s["todo"][:]
    if s["samael"] is not None:
        t["samael"] = {"cards": s["samael"]["cards"][:], "honor": s["samael"]["honor"]}
    return t


class Ascension:
    """The Ascension GameSystem. ``SYSTEM`` is the instance over the default card sets."""

    key = "ascension"
    # Events that show a card to everyone by the rules, wherever it came from: a card is
    # banished openly and a revealed top card is shown.
    PUBLIC_REVEALS = frozenset({"banish", "reveal"})

    def __init__(self, db: CardDB | None = None):
        self.db = db or load_system()
        self.info: dict[str, Card] = dict(self.db.cards)
        self.play_ops = {cid: c.effects("play") for cid, c in self.info.items()}
        self.unite_ops = {cid: c.effects("unite") for cid, c in self.info.items()}
        self.activate_ops = {cid: c.effects("activate") for cid, c in self.info.items()}
        self.reward_ops = {cid: c.effects("reward") for cid, c in self.info.items()}

    # -- helpers ----------------------------------------------------------------------

    def card(self, state: State, iid: int) -> Card:
        return self.info[state["cards"][iid]]

    def name(self, state: State, iid: int) -> str:
        return f"«{self.card(state, iid).name_en}»"

    # -- setup ------------------------------------------------------------------------

    def new_game(self, config: Mapping[str, Any], decks: Sequence[Any], seed: int) -> State:
        config = dict(config or {})
        n = config.get("players")
        if n is None:
            n = len(decks) if decks else 2
        if decks and len(decks) != n:
            raise InvalidConfig(f"{len(decks)} decks given for {n} players")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
            raise InvalidConfig("Ascension is played by 1 to 4 players (A-3)")
        rng = seed_state(seed)
        cards: list[str] = []

        def make(card: Card, count: int) -> list[int]:
            start = len(cards)
            cards.extend([card.id] * count)
            return list(range(start, start + count))

        players = []
        for seat in range(n):
            deck: list[int] = []
            for card in self.db.by_pile("starter"):  # 8 Apprentices + 2 Militia
                deck.extend(make(card, card.copies))
            shuffle(rng, deck)
            hand = [deck.pop() for _ in range(HAND_SIZE)]
            players.append(
                {
                    "seat": seat,
                    "hand": hand,
                    "deck": deck,
                    "discard": [],
                    "played": [],
                    "constructs": [],
                    "honor": 0,
                    "runes": 0,
                    "power": 0,
                    "used": [],
                    "united": [],
                    "log": [],
                    "turns": 0,
                }
            )
        piles = {card.id: make(card, card.copies) for card in self.db.by_pile("always")}
        center: list[int] = []
        for card in self.db.by_pile("center"):
            center.extend(make(card, card.copies))
        shuffle(rng, center)
        row = [center.pop() if center else None for _ in range(ROW_SIZE)]
        if "first" in config:
            first = config["first"]
            if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
                raise InvalidConfig(f"first must be a seat from 0 to {n - 1}")
        else:
            first = randbelow(rng, n) if n > 1 else 0
        pool = SOLO_POOL if n == 1 else HONOR_PER_PLAYER * n
        if config.get("honor_pool") is not None:
            # A house rule for short games (and tests of whole games): a smaller or larger
            # pool; the end trigger is unchanged. Absent: the rulebook's pool.
            pool = config["honor_pool"]
            if isinstance(pool, bool) or not isinstance(pool, int) or not 1 <= pool <= 1000:
                raise InvalidConfig("honor_pool must be a whole number from 1 to 1000 (A-11)")
        return {
            "v": 1,
            "n": n,
            "cards": cards,
            "players": players,
            "row": row,
            "center": center,
            "void": [],
            "box": [],
            "piles": piles,
            "samael": {"cards": [], "honor": 0} if n == 1 else None,
            "pool": pool,
            "pool_start": pool,
            "reserve": 0,
            "first": first,
            "active": first,
            "round": 1,
            "ending": False,
            "pending": None,
            "todo": [],
            "rng": rng,
            "log": 0,
            "out": [],  # seats that left the game (``leave``), in order
            "finished": False,
            "winners": [],
            "scores": [],
            "samael_score": None,
        }

    # -- whose turn ---------------------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        if state["finished"]:
            return ()
        pending = state["pending"]
        if pending is not None:
            return (pending["player"],)
        return (state["active"],)

    # -- legal actions ------------------------------------------------------------------

    def legal_actions(self, state: State, player: int) -> list[Action]:
        if state["finished"]:
            return []
        pending = state["pending"]
        if pending is not None:
            if pending["player"] != player:
                return []
            actions = [{"type": "choose", "iid": iid} for iid in pending["options"]]
            if pending["optional"]:
                actions.append({"type": "choose", "iid": None})
            return actions
        if state["active"] != player:
            return []
        info, cards = self.info, state["cards"]
        p = state["players"][player]
        actions: list[Action] = [{"type": "play", "iid": iid} for iid in p["hand"]]
        used = p["used"]
        for iid in p["constructs"]:
            if iid not in used and self.activate_ops[cards[iid]]:
                actions.append({"type": "activate", "iid": iid})
        runes, power = p["runes"], p["power"]
        for iid in state["row"]:
            if iid is None:
                continue
            c = info[cards[iid]]
            if c.type == "monster":
                if c.cost <= power:
                    actions.append({"type": "defeat", "iid": iid})
            elif c.cost <= runes:
                actions.append({"type": "acquire", "iid": iid})
        for cid, pile in state["piles"].items():
            c = info[cid]
            if c.type == "monster":
                if pile and c.cost <= power:
                    actions.append({"type": "defeat", "pile": cid})
            elif pile and c.cost <= runes:
                actions.append({"type": "acquire", "pile": cid})
        actions.append({"type": "end_turn"})
        return actions

    # -- apply --------------------------------------------------------------------------

    def apply(self, state: State, player: int, action: Action) -> tuple[State, list[Event]]:
        if state["finished"]:
            raise IllegalAction("The game is over.", "A-41")
        form = check_shape(action)
        kind = action["type"]
        pending = state["pending"]
        if pending is not None:
            if player != pending["player"]:
                raise NotYourTurn(
                    f"Player {pending['player'] + 1} is making a choice; wait for them.", "A-23"
                )
            if kind != "choose":
                raise IllegalAction("First finish the choice the last effect asks for.", "A-23")
        elif kind == "choose":
            raise IllegalAction("There is nothing to choose now.", "A-23")
        elif player != state["active"]:
            raise NotYourTurn(f"It is player {state['active'] + 1}'s turn, not yours.", "A-22")
        handler = self._handlers.get(kind)
        if handler is None:
            raise IllegalAction(
                f"Unknown action {kind[:40]!r}; use play, activate, acquire, defeat, end_turn "
                "or choose."
            )
        # One of ``legal_actions``, exactly; else the handler, on a copy, says why not.
        check_action(
            self,
            state,
            player,
            action,
            lambda: handler(self, _copy(state), player, action, []),
            form,
        )
        s = _copy(state)
        events: list[Event] = []
        handler(self, s, player, action, events)
        self._run(s, events)
        s["log"] += 1
        return s, events

    def _iid(self, action: Action) -> int:
        iid = action.get("iid")
        if isinstance(iid, bool) or not isinstance(iid, int):
            raise IllegalAction('Name the card with "iid" (its instance number).')
        return iid

    def _do_play(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        p = s["players"][seat]
        if iid not in p["hand"]:
            raise IllegalAction("You can only play a card from your hand.", "A-23")
        cid = s["cards"][iid]
        card = self.info[cid]
        p["hand"].remove(iid)
        items = [{"p": seat, "op": op, "src": iid} for op in self.play_ops[cid]]
        if card.type == "construct":
            p["constructs"].append(iid)  # it stays in play
        else:
            # A-46/AA-3: Unite of Heroes played earlier this turn and Constructs in play.
            if card.type == "hero" and card.faction is not None:
                for src in p["played"] + p["constructs"]:
                    other = self.info[s["cards"][src]]
                    if (
                        other.faction == card.faction
                        and src not in p["united"]
                        and self.unite_ops[other.id]
                    ):
                        p["united"].append(src)
                        items.extend(
                            {"p": seat, "op": op, "src": src} for op in self.unite_ops[other.id]
                        )
            p["played"].append(iid)
        p["log"].append(iid)
        events.append({"type": "play", "seat": seat, "iid": iid, "card": cid})
        s["todo"][0:0] = items

    def _do_activate(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        iid = self._iid(action)
        p = s["players"][seat]
        if iid not in p["constructs"]:
            raise IllegalAction(
                "You can only use a Construct you control (in play in front of you).", "A-20"
            )
        cid = s["cards"][iid]
        ops = self.activate_ops[cid]
        if not ops:
            raise IllegalAction(f"{self.name(s, iid)} has no ability to use.", "A-24")
        if iid in p["used"]:
            raise IllegalAction(
                f"You already used {self.name(s, iid)} this turn (once per turn).", "A-59"
            )
        p["used"].append(iid)
        events.append({"type": "activate", "seat": seat, "iid": iid, "card": cid})
        s["todo"][0:0] = [{"p": seat, "op": op, "src": iid} for op in ops]

    def _do_acquire(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        if "pile" in action:
            cid = action["pile"]
            pile = s["piles"].get(cid)
            if pile is None:
                raise IllegalAction("There is no such always-available pile.", "A-8")
            card = self.info[cid]
            if card.type == "monster":
                raise IllegalAction(f"«{card.name_en}» is a Monster: defeat it instead.", "A-21")
            if not pile:
                raise IllegalAction(
                    f"The «{card.name_en}» pile is empty; no more can be acquired.", "A-56"
                )
            self._pay(p, "runes", card, "A-25")
            iid = pile.pop()
            p["discard"].append(iid)
            events.append({"type": "acquire", "seat": seat, "iid": iid, "card": cid})
            return
        iid = self._iid(action)
        slot = self._row_slot(s, iid)
        card = self.card(s, iid)
        if card.type == "monster":
            raise IllegalAction(
                f"{self.name(s, iid)} is a Monster: defeat it with power instead.", "A-21"
            )
        self._pay(p, "runes", card, "A-25")
        self._take_from_row(s, slot, seat, "discard", events)

    def _do_defeat(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        if "pile" in action:
            cid = action["pile"]
            if cid not in s["piles"]:
                raise IllegalAction("There is no such always-available pile.", "A-8")
            card = self.info[cid]
            if card.type != "monster":
                raise IllegalAction(f"«{card.name_en}» is not a Monster: acquire it.", "A-27")
            if not s["piles"][cid]:
                raise IllegalAction(f"There is no «{card.name_en}» to defeat.", "A-30")
            self._pay(p, "power", card, "A-30")
            # the Cultist stays where it is and may be defeated again.
            events.append({"type": "defeat", "seat": seat, "card": cid})
            s["todo"][0:0] = [{"p": seat, "op": op, "src": None} for op in self.reward_ops[cid]]
            return
        iid = self._iid(action)
        slot = self._row_slot(s, iid)
        card = self.card(s, iid)
        if card.type != "monster":
            raise IllegalAction(
                f"{self.name(s, iid)} is not a Monster: acquire it with runes.", "A-25"
            )
        self._pay(p, "power", card, "A-29")
        self._defeat_row(s, slot, seat, events)

    def _do_end_turn(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        p = s["players"][seat]
        # hand and played Heroes to the discard pile, Constructs stay; resources lost.
        p["discard"].extend(p["hand"])
        p["discard"].extend(p["played"])
        p["hand"] = []
        p["played"] = []
        p["runes"] = p["power"] = 0
        p["used"] = []
        p["united"] = []
        p["log"] = []
        p["turns"] += 1
        self._draw(s, seat, HAND_SIZE, events)
        events.append({"type": "end_turn", "seat": seat})
        if s["n"] == 1:
            if s["ending"]:  # the end of the turn in which the pool ran out
                self._finish(s, events)
                return
            self._samael_turn(s, events)
            if s["ending"]:
                self._finish(s, events)
                return
            s["round"] += 1
            return
        if self._pass_turn(s, seat):
            self._finish(s, events)

    def _pass_turn(self, s: State, seat: int) -> bool:
        """The turn goes clockwise (A-12) to the next player still in the game; when it
        comes round to the first player again the round is complete, and the game ends if
        the honor pool ran out during it (A-41): True, for the caller to finish it."""
        n, out = s["n"], s.get("out", ())
        nxt = seat
        while True:
            nxt = (nxt + 1) % n
            if nxt == s["first"]:
                if s["ending"]:
                    return True
                s["round"] += 1
            if nxt not in out:
                break
        s["active"] = nxt
        return False

    def leave(self, state: State, player: int, reason: str) -> tuple[State, list[Event]]:
        """The player concedes or runs out of time and leaves the game, which goes on for
        the others: they place below everyone still in, a player who left earlier below
        one who left later; the last player left wins. Solo, Samael wins (A-51)."""
        if state["finished"]:
            raise IllegalAction("The game is over.", "A-41")
        n = state["n"]
        if type(player) is not int or not 0 <= player < n:
            raise IllegalAction("There is no such player in this game.")
        out = list(state.get("out", ()))
        if player in out:
            raise IllegalAction("You are out of this game already.")
        s = _copy(state)
        s["out"] = [*out, player]
        events: list[Event] = [{"type": "left", "seat": player, "reason": reason}]
        if n - len(s["out"]) <= 1:
            self._finish(s, events)
        else:
            # Their decisions lapse and what was still to happen to them does not.
            if s["pending"] is not None and s["pending"]["player"] == player:
                s["pending"] = None
            s["todo"] = [t for t in s["todo"] if t["p"] != player]
            if s["active"] == player:
                s["pending"] = None
                s["todo"] = []
                if self._pass_turn(s, player):
                    self._finish(s, events)
            else:
                self._run(s, events)
        s["log"] += 1
        return s, events

    def _do_choose(self, s: State, seat: int, action: Action, events: list[Event]) -> None:
        pending = s["pending"]
        iid = action.get("iid")
        if iid is None:
            if not pending["optional"]:
                raise IllegalAction("This choice is not optional: pick one of the cards.", "A-23")
            s["pending"] = None
            events.append({"type": "decline", "seat": seat, "kind": pending["kind"]})
            return
        if isinstance(iid, bool) or not isinstance(iid, int) or iid not in pending["options"]:
            raise IllegalAction("Choose one of the cards offered.", pending.get("rule"))
        s["pending"] = None
        kind = pending["kind"]
        if kind == "banish":
            self._banish(s, seat, iid, events)
        elif kind == "defeat_free":
            self._defeat_row(s, s["row"].index(iid), seat, events)
        elif kind == "acquire_free":
            self._take_from_row(s, s["row"].index(iid), seat, pending["to"], events)
        elif kind == "keep":
            p = s["players"][seat]
            for other in [c for c in p["constructs"] if c != iid]:
                p["constructs"].remove(other)  # A-19, AA-10: to its controller's discard
                p["discard"].append(other)
                events.append({"type": "destroy", "seat": seat, "iid": other,
                               "card": s["cards"][other]})  # fmt: skip

    _handlers = {
        "play": _do_play,
        "activate": _do_activate,
        "acquire": _do_acquire,
        "defeat": _do_defeat,
        "end_turn": _do_end_turn,
        "choose": _do_choose,
    }

    # -- mechanics ----------------------------------------------------------------------

    def _pay(self, p: dict, resource: str, card: Card, rule: str) -> None:
        if p[resource] < card.cost:
            word = "runes" if resource == "runes" else "power"
            verb = "acquire" if resource == "runes" else "defeat"
            raise IllegalAction(
                f"You need {card.cost} {word} to {verb} «{card.name_en}», "
                f"but you have {p[resource]}.",
                rule,
            )
        p[resource] -= card.cost

    def _row_slot(self, s: State, iid: int) -> int:
        try:
            return s["row"].index(iid)
        except ValueError:
            raise IllegalAction("That card is not in the center row.", "A-25") from None

    def _refill(self, s: State, slot: int, events: list[Event]) -> None:
        """A card left ``slot``: refill at once (A-28, A-57); solo: shift right (A-49)."""
        row = s["row"]
        if s["n"] == 1:
            del row[slot]
            row.insert(0, None)
            slot = 0
        else:
            row[slot] = None
        center = s["center"]
        if not center and s["void"]:
            # the Void becomes the new center deck, without starter/always cards.
            for iid in s["void"]:
                c = self.info[s["cards"][iid]]
                if c.pile == "center":
                    center.append(iid)
                elif c.pile == "starter":
                    s["box"].append(iid)
                else:
                    s["piles"][c.id].append(iid)
            s["void"] = []
            shuffle(s["rng"], center)
            events.append({"type": "void_reshuffled", "count": len(center)})
        if center:  # AA-7: otherwise the slot stays empty
            iid = center.pop()
            row[slot] = iid
            events.append({"type": "refill", "slot": slot, "iid": iid, "card": s["cards"][iid]})

    def _take_from_row(self, s: State, slot: int, seat: int, to: str, events: list[Event]):
        iid = s["row"][slot]
        p = s["players"][seat]
        if to == "hand":
            p["hand"].append(iid)
        elif to == "deck_top":
            p["deck"].append(iid)
        else:
            p["discard"].append(iid)
        events.append({"type": "acquire", "seat": seat, "iid": iid, "card": s["cards"][iid]})
        self._refill(s, slot, events)

    def _defeat_row(self, s: State, slot: int, seat: int, events: list[Event]) -> None:
        iid = s["row"][slot]
        cid = s["cards"][iid]
        s["void"].append(iid)  # 1. to the Void, 2. refill, 3. reward
        events.append({"type": "defeat", "seat": seat, "iid": iid, "card": cid})
        self._refill(s, slot, events)
        s["todo"][0:0] = [{"p": seat, "op": op, "src": iid} for op in self.reward_ops[cid]]

    def _send_away(self, s: State, iid: int) -> str:
        """Where a banished card goes (A-35): the box, its pile or the Void."""
        c = self.info[s["cards"][iid]]
        if c.pile == "starter":
            s["box"].append(iid)
            return "box"
        if c.pile == "always":
            s["piles"][c.id].append(iid)
            return "pile"
        s["void"].append(iid)
        return "void"

    def _banish(self, s: State, seat: int, iid: int, events: list[Event]) -> None:
        p = s["players"][seat]
        if iid in s["row"]:
            slot = s["row"].index(iid)
            s["void"].append(iid)  # no reward
            events.append({"type": "banish", "seat": seat, "iid": iid, "card": s["cards"][iid],
                           "from": "center", "to": "void"})  # fmt: skip
            self._refill(s, slot, events)
            return
        zone = "hand" if iid in p["hand"] else "discard"
        p[zone].remove(iid)
        to = self._send_away(s, iid)
        events.append({"type": "banish", "seat": seat, "iid": iid, "card": s["cards"][iid],
                       "from": zone, "to": to})  # fmt: skip

    def _reshuffle(self, s: State, seat: int, events: list[Event]) -> None:
        p = s["players"][seat]
        # cards played this turn are not in the discard pile yet.
        p["deck"] = p["discard"]
        p["discard"] = []
        shuffle(s["rng"], p["deck"])
        events.append({"type": "reshuffle", "seat": seat})

    def _draw(self, s: State, seat: int, count: int, events: list[Event]) -> int:
        p = s["players"][seat]
        drawn = 0
        for _ in range(count):
            if not p["deck"]:
                if not p["discard"]:
                    break  # AA-8
                self._reshuffle(s, seat, events)
            p["hand"].append(p["deck"].pop())
            drawn += 1
        if drawn:
            events.append({"type": "draw", "seat": seat, "count": drawn})
        return drawn

    def _gain_honor(self, s: State, seat: int | None, amount: int, events: list[Event]) -> None:
        take = min(s["pool"], amount)
        s["pool"] -= take
        s["reserve"] += amount - take  # the rest from the box
        if seat is None:
            s["samael"]["honor"] += amount
        else:
            s["players"][seat]["honor"] += amount
        events.append({"type": "honor", "seat": seat, "amount": amount, "pool": s["pool"]})
        if s["pool"] == 0 and not s["ending"]:
            s["ending"] = True  # A-41, AA-5
            events.append({"type": "pool_empty"})

    def _matches(self, card: Card, match: Mapping[str, Any]) -> bool:
        t = match.get("type")
        f = match.get("faction")
        return (t is None or card.type == t) and (f is None or card.faction == f)

    def _cond(self, s: State, seat: int, src: int | None, cond: Mapping[str, Any]) -> bool:
        ((name, body),) = cond.items()
        p = s["players"][seat]
        if name == "control":
            f = body.get("faction")
            count = sum(
                1 for c in p["constructs"] if f is None or self.info[s["cards"][c]].faction == f
            )
            return count >= body["min"]
        count = sum(
            1 for c in p["log"] if c != src and self._matches(self.info[s["cards"][c]], body)
        )
        return count >= body["min"]

    def _run(self, s: State, events: list[Event]) -> None:
        """Carry out queued ops until one needs a decision (A-23) or none are left."""
        todo = s["todo"]
        while todo and s["pending"] is None:
            item = todo.pop(0)
            self._op(s, item["p"], item["op"], item["src"], events)

    def _op(self, s: State, seat: int, op: Mapping[str, Any], src, events: list[Event]) -> None:
        name = op["op"]
        p = s["players"][seat]
        if name == "runes" or name == "power":
            p[name] += op["amount"]
        elif name == "honor":
            self._gain_honor(s, seat, op["amount"], events)
        elif name == "draw":
            self._draw(s, seat, op["count"], events)
        elif name == "banish":
            where = op["from"]
            if where == "center":
                options = [c for c in s["row"] if c is not None]
            elif where == "hand":
                options = p["hand"][:]  # played cards are no longer in hand
            elif where == "discard":
                options = p["discard"][:]
            else:
                options = p["hand"] + p["discard"]
            if options:
                s["pending"] = {"player": seat, "kind": "banish", "from": where,
                                "options": options, "optional": bool(op.get("optional")),
                                "src": src, "rule": "A-33"}  # fmt: skip
        elif name == "defeat_free":
            options = [
                c
                for c in s["row"]
                if c is not None
                and self.info[s["cards"][c]].type == "monster"
                and self.info[s["cards"][c]].cost <= op["max_cost"]
            ]
            if options:
                s["pending"] = {"player": seat, "kind": "defeat_free", "options": options,
                                "optional": True, "src": src, "rule": "A-29"}  # fmt: skip
        elif name == "acquire_free":
            types = op.get("types", ("hero", "construct"))
            options = [
                c
                for c in s["row"]
                if c is not None
                and self.info[s["cards"][c]].type in types
                and self.info[s["cards"][c]].cost <= op["max_cost"]
            ]
            if options:
                s["pending"] = {"player": seat, "kind": "acquire_free", "options": options,
                                "optional": True, "to": op.get("to", "discard"), "src": src,
                                "rule": "A-25"}  # fmt: skip
        elif name == "if":
            ops = op["then"] if self._cond(s, seat, src, op["cond"]) else op.get("else", [])
            s["todo"][0:0] = [{"p": seat, "op": o, "src": src} for o in ops]
        elif name == "reveal_top":
            if not p["deck"] and p["discard"]:
                self._reshuffle(s, seat, events)  # A-39, AA-9
            if p["deck"]:
                top = p["deck"][-1]
                card = self.info[s["cards"][top]]
                events.append({"type": "reveal", "seat": seat, "iid": top, "card": card.id})
                if self._matches(card, op["match"]):
                    s["todo"][0:0] = [{"p": seat, "op": o, "src": src} for o in op["then"]]
        elif name == "opponents_keep_one":
            n, out = s["n"], s.get("out", ())
            s["todo"][0:0] = [
                {"p": (seat + k) % n, "op": {"op": "_keep_one"}, "src": src}
                for k in range(1, n)
                if (seat + k) % n not in out
            ]
        elif name == "_keep_one":
            if len(p["constructs"]) > 1:  # a single Construct is kept
                s["pending"] = {"player": seat, "kind": "keep", "options": p["constructs"][:],
                                "optional": False, "src": src, "rule": "A-61"}  # fmt: skip
        elif name == "steal_random":
            n = s["n"]
            for k in range(1, n):  # A-62; solo: Samael has no hand (AA-6)
                victim = s["players"][(seat + k) % n]
                if victim["hand"] and victim["seat"] not in s.get("out", ()):
                    taken = victim["hand"].pop(randbelow(s["rng"], len(victim["hand"])))
                    p["hand"].append(taken)
                    events.append({"type": "steal", "seat": seat, "from": victim["seat"]})
        else:  # pragma: no cover - the loader validates every op
            raise IllegalAction(f"unknown op {name!r}")

    # -- solo -------------------------------------------------------------------------

    def _samael_turn(self, s: State, events: list[Event]) -> None:
        """A-50, AA-6: Samael takes the 2 rightmost center-row cards, paying nothing."""
        events.append({"type": "samael_turn"})
        for _ in range(2):
            row = s["row"]
            slot = max((i for i, c in enumerate(row) if c is not None), default=None)
            if slot is None:
                return
            iid = row[slot]
            cid = s["cards"][iid]
            card = self.info[cid]
            if card.type == "monster":
                s["void"].append(iid)
                events.append({"type": "samael_defeat", "iid": iid, "card": cid})
                self._refill(s, slot, events)
                honor = reward_honor(self.reward_ops[cid])
                if honor:
                    self._gain_honor(s, None, honor, events)
            else:
                s["samael"]["cards"].append(iid)
                events.append({"type": "samael_acquire", "iid": iid, "card": cid})
                self._refill(s, slot, events)

    # -- end of the game --------------------------------------------------------------

    def score(self, state: State, seat: int) -> int:
        """A-43: honor tokens + honor values of every card the player has."""
        p = state["players"][seat]
        info, cards = self.info, state["cards"]
        total = p["honor"]
        for zone in PLAYER_ZONES:
            for iid in p[zone]:
                total += info[cards[iid]].honor
        return total

    def samael_score(self, state: State) -> int:
        sam = state["samael"]
        return sam["honor"] + sum(self.info[state["cards"][i]].honor for i in sam["cards"])

    def placements(self, state: State) -> list[int]:
        """Seats from first place to last: by score, ties to the later seat (A-44, AA-4)."""
        n, first = state["n"], state["first"]
        out = list(state.get("out", ()))
        still = [seat for seat in range(n) if seat not in out]
        ranked = sorted(
            still, key=lambda seat: (self.score(state, seat), (seat - first) % n), reverse=True
        )
        return ranked + out[::-1]  # who left: below everyone still in, the last to leave first

    def _finish(self, s: State, events: list[Event]) -> None:
        s["finished"] = True
        s["pending"] = None
        s["scores"] = [self.score(s, seat) for seat in range(s["n"])]
        if s["n"] == 1:
            s["samael_score"] = self.samael_score(s)
            beat = s["scores"][0] > s["samael_score"] and not s.get("out")
            s["winners"] = [0] if beat else []
        else:
            s["winners"] = [self.placements(s)[0]]
        events.append({"type": "game_over", "winners": s["winners"], "scores": s["scores"]})

    def result(self, state: State) -> GameResult:
        if not state["finished"]:
            return GameResult(finished=False, eliminated=tuple(state.get("out", ())))
        return GameResult(
            finished=True,
            winners=tuple(state["winners"]),
            draw=False,
            eliminated=tuple(state.get("out", ())),
            scores=dict(enumerate(state["scores"])),
        )

    def ending(self, state: State, language: str, names: Mapping[int, str]) -> str | None:
        """How the finished game was decided, in words (``engine.core.protocol``)."""
        from engine.ascension.describe import ending

        return ending(state, language, names)

    # -- views --------------------------------------------------------------------------

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator). Hidden: other hands, every deck's
        order and content, the center deck (counts only); the rest is open."""
        cards = state["cards"]

        def open_(iids):
            return [{"iid": i, "card": cards[i]} for i in iids]

        players = []
        for p in state["players"]:
            mine = p["seat"] == player
            players.append(
                {
                    "seat": p["seat"],
                    "hand": open_(p["hand"]) if mine else len(p["hand"]),
                    "hand_count": len(p["hand"]),
                    "deck": len(p["deck"]),
                    "discard": open_(p["discard"]),
                    "played": open_(p["played"]),
                    "constructs": open_(p["constructs"]),
                    "used": p["used"][:],
                    "honor": p["honor"],
                    "runes": p["runes"],
                    "power": p["power"],
                    "turns": p["turns"],
                }
            )
        pending = state["pending"]
        if pending is not None and pending["player"] != player:
            pending = {"player": pending["player"], "kind": pending["kind"]}
        elif pending is not None:
            pending = dict(pending)
        samael = state["samael"]
        return {
            "you": player,
            "n": state["n"],
            "first": state["first"],
            "active": state["active"],
            "round": state["round"],
            "to_act": list(self.to_act(state)),
            "pool": state["pool"],
            "ending": state["ending"],
            "finished": state["finished"],
            "out": list(state.get("out", ())),
            "winners": state["winners"][:],
            "scores": state["scores"][:],
            "row": [None if i is None else {"iid": i, "card": cards[i]} for i in state["row"]],
            "center": len(state["center"]),
            "void": open_(state["void"]),
            "box": open_(state["box"]),
            "piles": {cid: len(pile) for cid, pile in state["piles"].items()},
            "players": players,
            # Solo: Samael's set-aside cards are open, so his score is too.
            "samael": None
            if samael is None
            else {
                "cards": open_(samael["cards"]),
                "honor": samael["honor"],
                "score": self.samael_score(state),
            },
            "pending": pending,
        }


SYSTEM = Ascension()
