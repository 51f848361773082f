"""What one player may see: own hand, everything public, counts of hidden things.

`observe(state, player)` is cheap (nothing is copied until a property is read), because it
is built once per decision. Policies must use only these properties.
"""
from __future__ import annotations

from .engine import F_HERALD, F_PENALTY, State


class Observation:
    __slots__ = ("_s", "player")

    def __init__(self, state: State, player: int):
        self._s = state
        self.player = player

    # the decision
    @property
    def decision(self) -> str:
        return self._s.decision

    @property
    def turn_player(self) -> int:
        return self._s.turn_player

    @property
    def actions_left(self) -> int:
        return self._s.actions_left

    @property
    def turn_legion(self) -> int:
        """Legion of the card played as an action this turn (-1: none yet)."""
        return self._s.turn_legion

    @property
    def discard_picked(self) -> tuple[int, ...]:
        """Cards already chosen in the discard action under way (empty otherwise)."""
        s = self._s
        return tuple(s.stack[-1][2]) if s.stack and s.stack[-1][0] == 0 else ()

    @property
    def revealed(self) -> tuple[int, ...]:
        """Cards a Herald turned over and not yet placed."""
        s = self._s
        return tuple(s.stack[-1][2]) if s.stack and s.stack[-1][0] == F_HERALD else ()

    @property
    def penalty_legion(self) -> int:
        s = self._s
        return s.stack[-1][1] if s.stack and s.stack[-1][0] == F_PENALTY else -1

    # private to this player
    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self._s.hands[self.player])

    # public
    @property
    def n_players(self) -> int:
        return self._s.n

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._s.hands)

    @property
    def creatures(self) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
        """Per player, per creature: (cards in build order, seal card id or -1)."""
        return tuple(tuple((tuple(c.cards), c.seal) for c in crs) for crs in self._s.creatures)

    def my_creatures(self) -> list:
        """This player's creatures as (cards, seal) pairs (a fresh list)."""
        return [(c.cards[:], c.seal) for c in self._s.creatures[self.player]]

    @property
    def complete_counts(self) -> tuple[int, ...]:
        return tuple(self._s.complete_count(p) for p in range(self._s.n))

    @property
    def deck_size(self) -> int:
        return len(self._s.deck)

    @property
    def discard_pile(self) -> tuple[int, ...]:
        return tuple(self._s.discard)

    @property
    def turns(self) -> int:
        return self._s.turns

    @property
    def rules(self):
        return self._s.rules

    @property
    def table(self):
        """Card facts by card id: .legion, .ability, .fits, .is_seal, .cards."""
        return self._s.table

    def __repr__(self):
        return (f"Observation(player={self.player}, decision={self.decision!r}, hand={self.hand}, "
                f"creatures={self.creatures}, deck={self.deck_size})")


def observe(state: State, player: int) -> Observation:
    return Observation(state, player)
