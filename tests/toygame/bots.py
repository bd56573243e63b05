"""Bots of «High card»: ``random`` plays any card; ``heuristic`` answers with the lowest
card that takes the trick (else its lowest) and leads its highest."""

from __future__ import annotations

import random
from typing import Any

from tests.toygame.cards import CARDS


class RandomBot:
    def __init__(self, system: Any, seed: int = 0):
        self.system, self.random = system, random.Random(seed)

    def choose(self, state: dict, seat: int) -> dict:
        return self.random.choice(self.system.legal_actions(state, seat))


class HeuristicBot(RandomBot):
    def choose(self, state: dict, seat: int) -> dict:
        hand = sorted(state["hands"][seat], key=lambda c: CARDS[c].value)
        if state["table"]:
            led = CARDS[state["table"][0][1]].value
            winning = [c for c in hand if CARDS[c].value > led]
            card = winning[0] if winning else hand[0]
        else:
            card = hand[-1]
        return {"type": "play", "card": card}


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, system: Any, seed: int = 0):
    return BOTS[name](system, seed)
