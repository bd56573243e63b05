"""The rules of «High card», as a ``GameSystem`` (``engine.core.protocol``).

Two players, each with a deck of cards (ids). Setup: each deck is shuffled and each
player draws five. Play: the first player leads a card from their hand, the other
answers; the higher value takes the trick (equal values: nobody), and the taker (or,
on a tie, the leader) leads next. After five tricks the one with more tricks wins;
equal tricks are a draw. A player who leaves loses.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import rng
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.legality import check_action, check_shape
from engine.core.protocol import LEAVE_REASONS, GameResult
from tests.toygame.cards import CARDS

HAND = 5
TRICKS = 5


class HighCard:
    key = "highcard"

    def new_game(self, config: Mapping[str, Any], decks: Sequence[Any], seed: int) -> dict:
        if len(decks) != 2:
            raise ValueError("High card is a game for two")
        state_rng = rng.seed_state(seed)
        hands, piles = [], []
        for deck in decks:
            pile = list(deck or sorted(CARDS))  # no deck: the whole set
            rng.shuffle(state_rng, pile)
            hands.append(sorted(pile[:HAND]))
            piles.append(len(pile) - HAND)
        return {
            "rng": state_rng,
            "hands": hands,
            "library": piles,
            "leader": 0,
            "table": [],  # the card led this trick, if any: [[seat, card]]
            "tricks": [0, 0],
            "played": 0,
            "finished": False,
            "winner": None,
            "left": [],
        }

    def to_act(self, state: Mapping[str, Any]) -> tuple[int, ...]:
        if state["finished"]:
            return ()
        return ((state["leader"] + len(state["table"])) % 2,)

    def legal_actions(self, state: Mapping[str, Any], player: int) -> list[dict]:
        if player not in self.to_act(state):
            return []
        return [{"type": "play", "card": card} for card in state["hands"][player]]

    def apply(self, state: Mapping[str, Any], player: int, action: Any):
        if state["finished"]:
            raise IllegalAction("The game is over.")
        form = check_shape(action)
        if type(player) is int and player not in self.to_act(state):
            raise NotYourTurn("It is not your turn.")
        check_action(self, state, player, action, None, form)
        s = copy.deepcopy(dict(state))
        s["hands"][player].remove(action["card"])
        s["table"].append([player, action["card"]])
        events: list[dict] = [{"type": "played", "seat": player, "card": action["card"]}]
        if len(s["table"]) == 2:
            (lead_seat, lead), (_other, answer) = s["table"]
            a, b = CARDS[lead].value, CARDS[answer].value
            taker = None if a == b else (lead_seat if a > b else 1 - lead_seat)
            if taker is not None:
                s["tricks"][taker] += 1
                s["leader"] = taker
            s["table"] = []
            s["played"] += 1
            events.append({"type": "trick", "taker": taker})
            if s["played"] == TRICKS:
                s["finished"] = True
                t0, t1 = s["tricks"]
                s["winner"] = None if t0 == t1 else (0 if t0 > t1 else 1)
                events.append({"type": "end", "winner": s["winner"]})
        return s, events

    def leave(self, state: Mapping[str, Any], player: int, reason: str):
        if state["finished"]:
            raise IllegalAction("The game is over.")
        if reason not in LEAVE_REASONS or player not in (0, 1):
            raise IllegalAction("Nobody can leave that way.")
        s = copy.deepcopy(dict(state))
        s["finished"], s["winner"], s["left"] = True, 1 - player, [player]
        return s, [{"type": "left", "seat": player, "reason": reason}]

    def result(self, state: Mapping[str, Any]) -> GameResult:
        if not state["finished"]:
            return GameResult(False)
        winner = state["winner"]
        if winner is None:
            return GameResult(True, draw=True)
        return GameResult(True, winners=(winner,), eliminated=(1 - winner,))

    def view(self, state: Mapping[str, Any], player: int | None) -> dict[str, Any]:
        """Everyone sees the table and the tricks; a hand only its owner (a count else)."""
        return {
            "you": player,
            "hands": [
                list(hand) if seat == player else len(hand)
                for seat, hand in enumerate(state["hands"])
            ],
            "library": list(state["library"]),
            "table": copy.deepcopy(state["table"]),
            "tricks": list(state["tricks"]),
            "to_act": list(self.to_act(state)),
            "finished": state["finished"],
            "winner": state["winner"],
        }

    def card_name(self, card_id: str, language: str = "en") -> str:
        card = CARDS.get(card_id)
        return card.name(language) if card else str(card_id)


SYSTEM = HighCard()
