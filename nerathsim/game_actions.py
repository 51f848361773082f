"""Actions of the full game: small hashable values, one per decision.

Regions are region indices of the map (`rules.board.names[i]` is the name), units are unit
names of the unit table, ships are ship ids (stable for the whole game). `describe_action`
in the engine renders any action with region names, e.g. "move 2 footsoldier Kar -> Kmarch".
"""
from __future__ import annotations

from typing import NamedTuple

from simcore.actions import kinds_apart


class EndPhase(NamedTuple):
    """End the current phase: movement, regroup, buying, or moving the new units."""

    def __repr__(self):
        return "EndPhase()"


class Move(NamedTuple):
    """Move `count` units of one type from `src` to `dst` along any legal path (movement,
    regroup, or the new units after buying). Units with the fewest moves left that can still
    reach `dst` go first."""

    src: int
    dst: int
    unit: str
    count: int


class Embark(NamedTuple):
    """A land unit on a coastal region goes aboard warship `ship` in an adjacent sea."""

    src: int
    ship: int
    unit: str


class Sail(NamedTuple):
    """Warship `ship` (with its cargo) sails to sea region `dst`."""

    ship: int
    dst: int


class Unload(NamedTuple):
    """Warship `ship` lands all its cargo on the adjacent coastal region `dst` (then may not move)."""

    ship: int
    dst: int


class Fight(NamedTuple):
    """Combat phase: resolve the battle in `region` next (the attacker orders the battles)."""

    region: int


class Casualties(NamedTuple):
    """At the start of a battle, a side chooses its casualty order (battle.ingame.CASUALTY_ORDERS)."""

    order: str


class Hit(NamedTuple):
    """Step 3 of a battle (Rules.casualty_choice="each_hit"): the owner puts its next hit on a `unit`
    (seed: "Du bestemmer, hvilken af dine tropper, der rammes"). A unit name hits the most damaged
    unit of that type (it dies, or a castle is silenced); "damage:dragon" wounds an undamaged dragon."""

    unit: str


class PressOn(NamedTuple):
    """Step 4 of a battle: the attacker fights another round."""

    def __repr__(self):
        return "PressOn()"


class RetreatTo(NamedTuple):
    """Step 4 of a battle: the attacker withdraws every attacking unit to `dst`."""

    dst: int


class Amok(NamedTuple):
    """After a won land battle, one surviving monster runs amok into the empty enemy region `dst`."""

    dst: int


class Pass(NamedTuple):
    """Decline (further) running amok."""

    def __repr__(self):
        return "Pass()"


class Buy(NamedTuple):
    """Reinforcements: buy one `unit` and place it at region `at` (a castle region, a sea next to
    a castle — for a land unit: into a warship there —, or the fallback region without castles)."""

    unit: str
    at: int


class PlayCard(NamedTuple):
    """Play card `card` (an id of `rules.cards`) from the hand: `target` is the region its
    place/move effect targets or the battle's region for a battle bonus (-1: none); `source`
    is the region a move_units effect takes units from (-1: none). `Pass()` ends the window."""
    card: int
    target: int = -1
    source: int = -1


ACTION_TYPES = (EndPhase, Move, Embark, Sail, Unload, Fight, Casualties, Hit, PressOn, RetreatTo, Amok, Pass, Buy, PlayCard)


kinds_apart(ACTION_TYPES)   # actions of different kinds never compare equal
