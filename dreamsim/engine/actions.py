"""Actions: small hashable values, one per decision, with reprs that read like the rulebook.

Card arguments are *kind codes* (cards of a kind are interchangeable), locations are
location ids, seats are seat numbers, directions are 0 up, 1 right, 2 down, 3 left.
The engine interns every action value, so legal-action lists are built without allocation.
"""
from __future__ import annotations

from typing import NamedTuple

from simcore.actions import kinds_apart

from .cards import DIRECTION_NAMES, KIND_NAMES, LOCATION_NAMES

# Vertigo operations: 0..3 move the location one cell in that direction (swapping with what
# is there, a location or an empty cell); 4..6 rotate it 1..3 quarter turns clockwise;
# NO_MOVE / NO_TURN are the Vertigo trap's "leave it" choices.
NO_MOVE, NO_TURN = 7, 8
OP_NAMES = ("move up", "move right", "move down", "move left",
            "rotate 90° clockwise", "rotate 180°", "rotate 90° anticlockwise", "no move", "no turn")


class Walk(NamedTuple):
    """Dreamwalk: move along an arrow of your location into the adjacent location."""

    direction: int

    def __repr__(self):
        return f"Walk({DIRECTION_NAMES[self.direction]})"


class Vertigo(NamedTuple):
    """Vertigo on your or an adjacent location (the operation is the next decision)."""

    location: int

    def __repr__(self):
        return f"Vertigo({LOCATION_NAMES[self.location]})"


class VertigoOp(NamedTuple):
    """Sub-choice: how the location is moved or rotated."""

    op: int

    def __repr__(self):
        return f"VertigoOp({OP_NAMES[self.op]})"


class Star(NamedTuple):
    """Midnight Star: activate the location you are in."""

    def __repr__(self):
        return "Star()"


class SetTrap(NamedTuple):
    """Suspense of `location` + another director card (chosen next): a face-down trap. 2 actions."""

    location: int

    def __repr__(self):
        return f"SetTrap({LOCATION_NAMES[self.location]})"


class TrapPartner(NamedTuple):
    """Sub-choice: the director card paired with the Suspense card."""

    kind: int

    def __repr__(self):
        return f"TrapPartner({KIND_NAMES[self.kind]})"


class DutchExtra(NamedTuple):
    """Dutch Angle on your turn: 1 additional action now, 1 fewer next turn."""

    def __repr__(self):
        return "DutchExtra()"


class DutchReduce(NamedTuple):
    """Dutch Angle on your turn: `target` has 1 action fewer next turn, and so do you."""

    target: int


class Steal(NamedTuple):
    """Dreamcatcher on your turn: blindly take 1 card from `target`."""

    target: int


class Pass(NamedTuple):
    """End your turn (the remaining actions are lost)."""

    def __repr__(self):
        return "Pass()"


class Cancel(NamedTuple):
    """Out of turn: a Dutch Angle cancels the card being played (or another Dutch Angle)."""

    def __repr__(self):
        return "Cancel()"


class Intercept(NamedTuple):
    """Out of turn: a Dreamcatcher intercepts the card being played (or another Dreamcatcher)."""

    def __repr__(self):
        return "Intercept()"


class Allow(NamedTuple):
    """Out of turn: let it happen (no reaction)."""

    def __repr__(self):
        return "Allow()"


class Spring(NamedTuple):
    """Activate your prepared trap (Suspense of `location` + a `kind` card). 0 actions."""

    location: int
    kind: int

    def __repr__(self):
        return f"Spring({LOCATION_NAMES[self.location]}, {KIND_NAMES[self.kind]})"


class Hold(NamedTuple):
    """Do not activate a trap now."""

    def __repr__(self):
        return "Hold()"


class Target(NamedTuple):
    """Sub-choice: a Midnighter (Motel, Restaurant, Dreamwalk and Dutch Angle traps)."""

    seat: int


class To(NamedTuple):
    """Sub-choice: a destination location (Forest, Dreamwalk trap, Colourless placement)."""

    location: int

    def __repr__(self):
        return f"To({LOCATION_NAMES[self.location]})"


class Take(NamedTuple):
    """Sub-choice: take a card of this kind (Square: from the discard pile; Motel: from the target)."""

    kind: int

    def __repr__(self):
        return f"Take({KIND_NAMES[self.kind]})"


class StopTaking(NamedTuple):
    def __repr__(self):
        return "StopTaking()"


class Discard(NamedTuple):
    """Sub-choice: discard a card of this kind (surplus, Town Hall nightmare)."""

    kind: int

    def __repr__(self):
        return f"Discard({KIND_NAMES[self.kind]})"


class Give(NamedTuple):
    """Sub-choice (Motel surplus): give a card of this kind to the Midnighter you took from."""

    kind: int

    def __repr__(self):
        return f"Give({KIND_NAMES[self.kind]})"


class Mix(NamedTuple):
    """Restaurant: blindly mix the hands of the Midnighters on or next to the Bridge."""

    def __repr__(self):
        return "Mix()"


class Count(NamedTuple):
    """Restaurant: blindly discard this many (1..3) cards of the chosen Midnighter."""

    n: int


ACTION_TYPES = (Walk, Vertigo, VertigoOp, Star, SetTrap, TrapPartner, DutchExtra, DutchReduce, Steal, Pass,
                Cancel, Intercept, Allow, Spring, Hold, Target, To, Take, StopTaking, Discard, Give, Mix, Count)


kinds_apart(ACTION_TYPES)   # actions of different kinds never compare equal

# interned values -------------------------------------------------------------------------
WALK = tuple(Walk(d) for d in range(4))
VERTIGO = tuple(Vertigo(l) for l in range(12))
VOP = tuple(VertigoOp(o) for o in range(9))
STAR, PASS, DUTCH_EXTRA = Star(), Pass(), DutchExtra()
SET_TRAP = tuple(SetTrap(l) for l in range(12))
PARTNER = tuple(TrapPartner(k) for k in range(17))
DUTCH_REDUCE = tuple(DutchReduce(p) for p in range(6))
STEAL = tuple(Steal(p) for p in range(6))
CANCEL, INTERCEPT, ALLOW, HOLD, STOP, MIX = Cancel(), Intercept(), Allow(), Hold(), StopTaking(), Mix()
SPRING = tuple(tuple(Spring(l, k) for k in range(17)) for l in range(12))
TARGET = tuple(Target(p) for p in range(6))
TO = tuple(To(l) for l in range(12))
TAKE = tuple(Take(k) for k in range(17))
DISCARD = tuple(Discard(k) for k in range(17))
GIVE = tuple(Give(k) for k in range(17))
COUNT = tuple(Count(n) for n in range(4))
