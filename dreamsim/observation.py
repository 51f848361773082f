"""What one player may see: own hand, the board, everything public, counts of hidden things.

`observe(state, player)` is cheap: nothing is copied until a property is read, and every
property reads the state as it is then (`play_game` gives each seat one view for the whole
game). Policies must use only these properties.

Hidden: other hands (only their sizes), the deck, the discard pile (its size and top card;
the whole pile only while you take from it at the Square), face-down traps (others' trap
counts only; your own traps with their cards), a trap's partner card while it is being set.
Seen because the rules show them: the Motel target's hand while you take from it, the hand
of the Midnighter whose turn you play after springing a Dreamcatcher trap.
"""
from __future__ import annotations

from .engine import (
    F_DTRAP, F_MOTEL_TAKE, F_NIGHT, F_PARTNER, F_PLACE, F_REACT, F_REST_N, F_SQUARE, F_STARTRAP, F_SURPLUS, F_TRAPS,
    F_VOP, F_VTRAP, F_WTRAP_T, F_WTRAP_TO, P_TRAP, State, near_bridge,
)


class Observation:
    __slots__ = ("_s", "player")

    def __init__(self, state: State, player: int):
        self._s = state
        self.player = player

    # ---- the decision
    @property
    def decision(self) -> str:
        return self._s.decision

    @property
    def turn_player(self) -> int:
        """The Midnighter whose turn it is (whose avatar acts)."""
        return self._s.turn_player

    @property
    def controller(self) -> int:
        """The seat playing the turn player's turn after a Dreamcatcher trap (-1: none)."""
        return self._s.controller

    @property
    def acting_for(self) -> int:
        """The seat whose hand and avatar this decision is about (yourself, or the captured turn player)."""
        s = self._s
        if s.controller == self.player and s.controller >= 0 and s.stack and s.stack[-1][0] not in (F_TRAPS, F_REACT, F_NIGHT, F_STARTRAP):
            f = s.stack[-1]
            if f[0] == F_SURPLUS:
                return f[2]
            return s.turn_player
        return self.player

    @property
    def actions_left(self) -> int:
        return self._s.actions_left

    @property
    def context(self) -> dict:
        """Specifics of the current decision (which location, which target, the play reacted to)."""
        s = self._s
        if not s.stack or s.is_terminal:
            return {}
        f = s.stack[-1]
        k = f[0]
        if k == F_VOP or k == F_PARTNER:
            return {"location": f[3]}
        if k == F_REACT:
            play = f[5]
            ptype = play[2]
            ctx = {"actor": play[1], "play": ptype, "responses": tuple(f[2])}
            if ptype != P_TRAP:
                ctx.update(arg=play[3], arg2=play[4])
            return ctx
        if k == F_STARTRAP:
            return {"location": f[2], "actor": f[3]}
        if k in (F_WTRAP_T, F_DTRAP):
            return {"location": f[2]}
        if k == F_WTRAP_TO:
            return {"target": f[2], "location": f[3]}
        if k == F_VTRAP:
            return {"location": f[2], "stage": f[3]}
        if k == F_NIGHT:
            return {"drawer": f[2], "card": f[3]}
        if k == F_PLACE:
            return {"victim": f[2][0]}
        if k == F_SURPLUS:
            return {"mode": f[3], "other": f[4], "seat": f[2]}
        if k == F_REST_N:
            return {"target": f[3]}
        if k == F_MOTEL_TAKE:
            return {"target": f[3], "taken": f[4]}
        if k == F_SQUARE:
            return {"taken": f[3]}
        return {}

    # ---- private to this player
    @property
    def hand(self) -> tuple[int, ...]:
        """The hand this decision acts on (your own, or the captured turn player's)."""
        return tuple(self._s.hands[self.acting_for])

    @property
    def own_hand(self) -> tuple[int, ...]:
        return tuple(self._s.hands[self.player])

    @property
    def my_traps(self) -> tuple[tuple[int, int], ...]:
        """Your prepared traps as (location, partner card kind)."""
        return tuple(self._s.traps[self.player])

    @property
    def discard_pile(self) -> tuple[int, ...] | None:
        """The whole discard pile, only while you take from it at the Square."""
        s = self._s
        if s.stack and s.stack[-1][0] == F_SQUARE and s.current_player == self.player:
            return tuple(s.discard)
        return None

    @property
    def motel_hand(self) -> tuple[int, ...] | None:
        """The Motel target's hand, only while you take from it."""
        s = self._s
        if s.stack and s.stack[-1][0] == F_MOTEL_TAKE and s.current_player == self.player:
            return tuple(s.hands[s.stack[-1][3]])
        return None

    # ---- public
    @property
    def n_players(self) -> int:
        return self._s.n

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._s.hands)

    @property
    def trap_counts(self) -> tuple[int, ...]:
        return tuple(len(t) for t in self._s.traps)

    @property
    def where(self) -> tuple[int, ...]:
        """Location of every Midnighter's avatar."""
        return tuple(self._s.where)

    @property
    def board(self) -> tuple:
        """(rows, cols, grid, cell_of, rot, neighbours): the current grid of locations."""
        s = self._s
        return s.rows, s.cols, tuple(s.grid), tuple(s.cell_of), tuple(s.rot), s.nb

    @property
    def near_bridge(self) -> tuple[int, ...]:
        """Midnighters (not the Horror) on the Bridge or next to it (the Restaurant's reach)."""
        return tuple(near_bridge(self._s))

    @property
    def horror(self) -> int:
        return self._s.horror

    @property
    def effects(self) -> dict:
        """Lasting nightmare effects as bit masks of the affected seats: red, blue, multi
        (Multicoloured: 3 actions), colourless (1 action); speed_mask = multi | colourless.
        `speed` (MULTI, COLOURLESS or 0) is kept for old callers: the effect on most seats."""
        s = self._s
        m, c = s.multi, s.slow
        speed = 0 if not (m | c) else (15 if bin(m).count("1") >= bin(c).count("1") else 16)
        return {"red": s.red, "blue": s.blue, "multi": m, "colourless": c, "speed_mask": m | c, "speed": speed}

    @property
    def debt(self) -> tuple[int, ...]:
        """Actions each seat will lose at its next turn (Dutch Angle / Dreamcatcher prices)."""
        return tuple(self._s.debt)

    @property
    def deck_size(self) -> int:
        return len(self._s.deck)

    @property
    def discard_size(self) -> int:
        return len(self._s.discard)

    @property
    def discard_top(self) -> int:
        d = self._s.discard
        return d[-1] if d else -1

    @property
    def turns(self) -> int:
        return self._s.turns

    @property
    def rules(self):
        return self._s.rules

    def __repr__(self):
        return (f"Observation(player={self.player}, decision={self.decision!r}, hand={self.hand}, "
                f"where={self.where}, horror={self.horror})")


def observe(state: State, player: int) -> Observation:
    return Observation(state, player)
