"""What one player may see: own hand, the board, everything public, counts of hidden things.

`observe(state, player)` copies what the seat may know into a plain value (tuples, ints,
dicts of ints; issue 13): an observation holds no reference to the State, so a policy cannot
read other hands, face-down traps or the deck order through it. `play_game` builds one per
decision, for the seat that decides.

Hidden: other hands (only their sizes), the deck, the discard pile (its size and top card;
the whole pile only while you take from it at the Square), face-down traps (others' trap
counts only; your own traps with their cards), a trap's partner card and the location named by its Suspense card while it is being set
(the context of a "trap partner card" decision goes to the setter only).
Seen because the rules show them: the Motel target's hand while you take from it, the hand
of the Midnighter whose turn you play after springing a Dreamcatcher trap.
"""
from __future__ import annotations

from operator import itemgetter

from .activations import MotelTake, SquareTake
from .board import adjacent_locations
from .cards import BRIDGE
from .state import (  # the vocabulary of Observation.context, re-exported for policies
    CANCELLED,
    INTERCEPTED,
    P_DEXTRA,
    P_DREDUCE,
    P_STAR,
    P_STEAL,
    P_TRAP,
    P_VERT,
    P_WALK,
    PLAY_NAMES,
    S_ANY,
    S_GIVE,
    S_PLAIN,
    State,
)

__all__ = ["Observation", "observe", "CANCELLED", "INTERCEPTED", "P_DEXTRA", "P_DREDUCE", "P_STAR", "P_STEAL",
           "P_TRAP", "P_VERT", "P_WALK", "PLAY_NAMES", "S_ANY", "S_GIVE", "S_PLAIN"]

_FIELDS = ("player", "decision", "turn_player", "controller", "acting_for", "actions_left", "context", "hand",
           "own_hand", "my_traps", "discard_pile", "motel_hand", "n_players", "hand_sizes", "trap_counts", "where",
           "board", "horror", "effects", "debt", "deck_size", "discard_size", "discard_top", "turns", "rules")


class Observation(tuple):
    """What one seat may know at one moment, as plain values (see the module docstring): an
    immutable tuple of the fields below, each readable by name.

    decision / turn_player / controller (-1: none) / acting_for (the seat whose hand and avatar
    this decision is about) / actions_left / context (specifics of the decision) / hand (the
    hand acting_for holds, when that is you or the turn you play after a Dreamcatcher trap) /
    own_hand / my_traps ((location, partner kind) of your prepared traps) / discard_pile (only
    while you take from it at the Square) / motel_hand (only while you take from it) /
    n_players / hand_sizes / trap_counts / where / board ((rows, cols, grid, cell_of, rot,
    neighbours)) / near_bridge (computed from the board) / horror / effects (bit masks) / debt /
    deck_size / discard_size / discard_top / turns / rules.
    """

    __slots__ = ()

    def __new__(cls, *values):
        if len(values) != len(_FIELDS):
            raise ValueError(f"Observation needs {len(_FIELDS)} values: {', '.join(_FIELDS)}")
        return tuple.__new__(cls, values)

    @property
    def near_bridge(self) -> tuple[int, ...]:
        """Midnighters (not the Horror) on the Bridge or next to it (the Restaurant's reach)."""
        rows, cols, grid, cell_of, rot, nb = self.board
        zone = {BRIDGE, *adjacent_locations(grid, cell_of, nb, BRIDGE)}
        h = self.horror
        return tuple(q for q, w in enumerate(self.where) if q != h and w in zone)

    def to_dict(self) -> dict:
        return dict(zip(_FIELDS, self))

    def __repr__(self):
        return (f"Observation(player={self.player}, decision={self.decision!r}, hand={self.hand}, "
                f"where={self.where}, horror={self.horror})")


for _i, _name in enumerate(_FIELDS):
    setattr(Observation, _name, property(itemgetter(_i), doc=f"the observation's {_name}"))


def _acting_for(s: State, player: int) -> int:
    if s.controller == player and s.controller >= 0 and s.stack:
        f = s.stack[-1]
        if not f.out_of_turn:
            return f.acting_for(s)
    return player


def _context(s: State, player: int) -> dict:
    """Specifics of the current decision (which location, which target, the play reacted to)."""
    if not s.stack or s.is_terminal:
        return {}
    return s.stack[-1].context(player)


def observe(state: State, player: int) -> Observation:
    """A copy of what `player` may know now."""
    s = state
    top = type(s.stack[-1]) if s.stack and not s.is_terminal else None
    deciding = s.current_player == player and not s.is_terminal
    actor = _acting_for(s, player)
    m, c = s.multi, s.slow
    speed = 0 if not (m | c) else (15 if bin(m).count("1") >= bin(c).count("1") else 16)
    discard = s.discard
    return Observation(
        player, s.decision, s.turn_player, s.controller, actor, s.actions_left, _context(s, player),
        tuple(s.hands[actor]), tuple(s.hands[player]), tuple(s.traps[player]),
        tuple(discard) if top is SquareTake and deciding else None,
        tuple(s.hands[s.stack[-1].target]) if top is MotelTake and deciding else None,
        s.n, tuple(map(len, s.hands)), tuple(map(len, s.traps)), tuple(s.where),
        (s.rows, s.cols, tuple(s.grid), tuple(s.cell_of), tuple(s.rot), s.nb), s.horror,
        {"red": s.red, "blue": s.blue, "multi": m, "colourless": c, "speed_mask": m | c, "speed": speed},
        tuple(s.debt), len(s.deck), len(discard), discard[-1] if discard else -1, s.turns, s.rules,
    )
