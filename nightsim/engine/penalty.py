"""The pure-legion penalty: "If you complete a creature whose three cards all belong to the same
legion, the opponents must discard a card of that legion from their hand. If they do not have
a card of that legion, they must discard two cards." Each victim chooses out of turn.
"""
from __future__ import annotations

from .state import Frame, State, _event


class Penalty(Frame):
    """The opponents in `victims` (clockwise from the completing seat) each give up cards: `count`
    more for the victim deciding now (`victims[0]`), of `legion` only when `same_legion`."""

    __slots__ = ("legion", "victims", "count", "same_legion")
    decision = "pure-legion penalty discard"

    def __init__(self, legion: int, victims: list):
        self.legion, self.victims, self.count, self.same_legion = legion, victims, 0, False

    @property
    def seat(self) -> int:
        """The victim deciding now."""
        return self.victims[0]

    def step(self, s: State, rng) -> bool:
        """Rest at the next victim who still owes cards; pop when every victim is done."""
        if self.count > 0:
            s.current_player = self.victims[0]
            return True
        victims, legion, leg = self.victims, self.legion, s.table.legion
        while victims:
            hand = s.hands[victims[0]]
            for c in hand:  # a card of the legion in hand
                if leg[c] == legion:
                    self.count, self.same_legion = 1, True
                    s.current_player = victims[0]
                    return True
            if hand:
                self.count, self.same_legion = min(2, len(hand)), False
                s.current_player = victims[0]
                return True
            victims.pop(0)
        s.stack.pop()
        return False

    def legal(self, s: State) -> list:
        penalty = s._acts.penalty
        hand = s.hands[self.victims[0]]
        if self.same_legion:
            legion, leg = self.legion, s.table.legion
            return [penalty[c] for c in hand if leg[c] == legion]
        return [penalty[c] for c in hand]

    def apply(self, s: State, a, rng) -> None:
        victim = self.victims[0]
        card = a.card
        s.hands[victim].remove(card)
        s.discard.append(card)
        s.stats["cards_discarded"][victim] += 1
        if s.log is not None:
            _event(s, "penalty_discard", victim, victim=victim, card=card)
        self.count -= 1
        if self.count == 0:
            self.victims.pop(0)
