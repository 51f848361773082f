"""What one player may see: own hand, everything public, counts of hidden things.

`observe(state, player)` returns an `Observation`: an immutable value (a NamedTuple of plain
ints, strings and tuples, plus the public `Rules`) copied out of the state when it is made.
It holds no reference to the `State`, so a policy cannot read another seat's hand or the
order of the deck, and later moves do not change an observation already handed out. Two
states that differ only in what `player` may not know (the other hands, the order of the
deck) give equal observations (`tests/nightsim/test_nightsim_observation.py`).
"""
from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from ..rules import Rules
from .creatures import (
    Activation,
    DevourerTarget,
    ExecutionerTarget,
    HeraldPlacement,
    MockerPlay,
    ScavengerTarget,
    SealReactivation,
)
from .penalty import Penalty
from .state import TURN_ACTION, Creature, State
from .turn import Discard, TurnActions

#: every kind of frame; its index is the kind code in `Observation.frames`
FRAME_TYPES = (TurnActions, Discard, SealReactivation, Activation, HeraldPlacement, MockerPlay, ExecutionerTarget,
               ScavengerTarget, DevourerTarget, Penalty)
FRAME_CODES = {t: i for i, t in enumerate(FRAME_TYPES)}


class Observation(NamedTuple):
    """One seat's view of the game at one decision. Card values are card ids."""

    player: int                     # the seat this observation belongs to
    current_player: int            # the seat whose decision it is
    decision: str                   # State.decision ("turn action", "Mocker play", …)
    turn_player: int
    actions_left: int
    turn_legion: int                # legion of the card played as an action this turn (-1: none yet)
    discard_picked: tuple           # cards already chosen in this seat's discard action under way
    revealed: tuple                 # cards a Herald turned over and not yet placed (public)
    penalty_legion: int             # legion of a pure-legion penalty under way (-1: none)
    reactivation: tuple             # a seal re-activation on offer: its abilities' cards, head first
    hand: tuple                     # this seat's hand (private)
    hand_sizes: tuple               # every seat's number of cards in hand (public)
    creatures: tuple                # per seat, per creature: (cards in build order, seal card id or -1)
    deck_size: int
    discard_pile: tuple             # face up, oldest first
    turns: int                      # completed turns
    rules: Rules
    frames: tuple = ()              # the pending work above the turn frame, bottom first, as plain tuples (`public_frames`)

    @property
    def n_players(self) -> int:
        return len(self.hand_sizes)

    @property
    def table(self):
        """Card facts by card id: .legion, .ability, .fits, .is_seal, .cards."""
        return self.rules.table

    @property
    def complete_counts(self) -> tuple[int, ...]:
        return tuple([[len(cards) for cards, _ in crs].count(3) for crs in self.creatures])

    def __repr__(self):
        return (f"Observation(player={self.player}, decision={self.decision!r}, hand={self.hand}, "
                f"creatures={self.creatures}, deck={self.deck_size})")


def observe(state: State, player: int) -> Observation:
    """The observation of seat `player` (any seat, not only the one deciding)."""
    s = state
    if not 0 <= player < s.n:   # a negative seat would index from the end: another seat's view
        raise ValueError(f"observe: seat {player!r} is not a seat of this {s.n}-player game (0..{s.n - 1})")
    view = s.creatures_view or creatures_view(s)
    discard = s._discard_view  # (the pile, its length, the pile as a tuple): the engine only appends to it
    if discard is None or discard[0] is not s.discard or discard[1] != len(s.discard):
        discard = s._discard_view = (s.discard, len(s.discard), tuple(s.discard))
    picked = revealed = reactivation = ()
    penalty = -1
    stack = s.stack
    if len(stack) == 1:  # the common case: the turn frame alone
        decision = "game over" if s.is_terminal else TURN_ACTION
        frames = ()
    else:
        f = stack[-1]
        kind = type(f)
        if kind is Discard:
            if f.seat == player:
                picked = tuple(f.picked)
        elif kind is HeraldPlacement:
            revealed = tuple(f.revealed)
        elif kind is Penalty:
            penalty = f.legion
        elif kind is SealReactivation:
            reactivation = tuple(f.queue[::-1])
        decision = "game over" if s.is_terminal else f.decision
        frames = public_frames(s, player)
    return _new(Observation, (
        player, s.current_player, decision, s.turn_player, s.actions_left,
        s.turn_legion, picked, revealed, penalty, reactivation, tuple(s.hands[player]),
        tuple(map(len, s.hands)), view, len(s.deck), discard[2], s.turns, s.rules,
        frames,
    ))


def creatures_view(s: State) -> tuple:
    """`Observation.creatures` (public: per seat, per creature, (cards, seal)), one value shared by
    every observation until a creature changes (`State.creatures_changed`), cached on the state."""
    view = s.creatures_view
    if view is None:
        view = s.creatures_view = tuple(seat_views(s))
    return view


def seat_views(s: State) -> list:
    """`creatures_view` as the state's own list of its seats' values (`State._seat_views`, rebuilt
    where a seat's creatures changed): what `HeuristicPolicy.choose` reads, without the tuple
    around it. Read it, never change it."""
    seats = s._seat_views
    if None in seats:
        for p, seat in enumerate(seats):
            if seat is None:
                seats[p] = tuple([(tuple(c.cards), c.seal) for c in s.creatures[p]])
    return seats


def _encode(s: State, x):
    if isinstance(x, Creature):
        for seat, crs in enumerate(s.creatures):
            for i, c in enumerate(crs):
                if c is x:
                    return ("C", seat, i)
        return ("K", tuple(x.cards), x.seal)  # a creature no longer on the table
    if isinstance(x, list):
        return ("L", tuple(x))
    return x


def _slot_names(t) -> tuple:
    """A frame class's fields in `Frame.fields()` order (base classes' slots first)."""
    return tuple(name for cls in reversed(t.__mro__) for name in getattr(cls, "__slots__", ()))


def _fields_getter(t):
    """One call that returns every field of a frame of class t as a tuple (`Frame.fields()` order)."""
    names = _slot_names(t)
    if len(names) > 1:
        return attrgetter(*names)  # a tuple of the attributes, in one C call
    return lambda f: tuple(getattr(f, n) for n in names)


#: per kind of frame: its code and its fields' getter
_FIELD_GETTERS = {t: (FRAME_CODES[t], _fields_getter(t)) for t in FRAME_TYPES}


def public_frames(s: State, player: int) -> tuple:
    """The stack above its bottom frame (the turn frame: `Observation.turn_player` says all it holds),
    bottom first, as plain tuples: the kind code (index in FRAME_TYPES), then the fields
    (`Frame.fields()` order). A creature is ("C", seat, index) on the table or ("K", cards,
    seal) off it; a list is ("L", items); the cards another seat has picked to discard so far are
    ("H", how many) — they are still in its hand, face down."""
    out = []
    for f in s.stack[1:]:
        t = type(f)
        if t is Discard and f.seat != player:
            out.append((FRAME_CODES[t], f.seat, ("H", len(f.picked))))
            continue
        code, get = _FIELD_GETTERS[t]
        row = [code]
        for v in get(f):  # the same values as _encode, with its common cases inlined
            tv = type(v)
            if tv is list:
                v = ("L", tuple(v))
            elif tv is not int and tv is not bool and tv is not str:
                v = _encode(s, v)
            row.append(v)
        out.append(tuple(row))
    return tuple(out)


_new = tuple.__new__  # positional construction without NamedTuple's keyword handling
