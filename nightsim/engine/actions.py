"""Actions: small hashable values, one per decision, with reprs that read like the rulebook.

Card and creature arguments are indices: `card` is the card id (index into `rules.table`),
`creature` is the position in the owner's list of creatures at the time of the decision
(`None` in `Play` starts a new creature), `slot` is 0 legs, 1 torso, 2 head.
The engine interns every action value, so legal-action lists are built without allocation.
"""
from __future__ import annotations

from typing import NamedTuple

from simcore.actions import kinds_apart

from .cards import BODY_PARTS


class Draw(NamedTuple):
    """Action 1: draw a card from the common deck."""

    def __repr__(self):
        return "Draw()"


class StartDiscard(NamedTuple):
    """Action 2 begins: discard X cards (chosen one by one with DiscardCard), draw ⌊X/2⌋."""

    def __repr__(self):
        return "StartDiscard()"


class DiscardCard(NamedTuple):
    """Sub-choice of action 2: add this hand card to the cards being discarded."""

    card: int


class StopDiscard(NamedTuple):
    """Sub-choice of action 2: done choosing; discard them and draw ⌊X/2⌋."""

    def __repr__(self):
        return "StopDiscard()"


class Play(NamedTuple):
    """Place a body card: action 3, a Mocker's play or a Herald's placement."""

    card: int
    creature: int | None  # None = start a new creature
    slot: int

    def __repr__(self):
        where = "new creature" if self.creature is None else f"creature {self.creature}"
        return f"Play(card={self.card}, {where}, {BODY_PARTS[self.slot]})"


class PlaySeal(NamedTuple):
    """Legions of Horrors: put a seal on a completed creature (owner's index, creature)."""

    card: int
    owner: int
    creature: int


class Take(NamedTuple):
    """Executioner: take the top card of `owner`'s creature into your hand."""

    owner: int
    creature: int


class Scavenge(NamedTuple):
    """Scavenger: discard `owner`'s uncompleted creature."""

    owner: int
    creature: int


class Devour(NamedTuple):
    """Devourer: discard the top card of one of your other creatures."""

    creature: int


class Decline(NamedTuple):
    """Decline what is optional: a Scavenger (only with Rules.scavenger_optional) or a seal's
    re-activation (Rules.seal_reactivation_optional, the default)."""

    def __repr__(self):
        return "Decline()"


class Reactivate(NamedTuple):
    """Legions of Horrors: activate the sealed creature's parts of the seal's legion once more."""

    def __repr__(self):
        return "Reactivate()"


class PenaltyDiscard(NamedTuple):
    """Pure-legion penalty, chosen by the victim out of turn: discard this hand card."""

    card: int


ACTION_TYPES = (Draw, StartDiscard, DiscardCard, StopDiscard, Play, PlaySeal, Take, Scavenge, Devour, Decline, PenaltyDiscard,
                Reactivate)
kinds_apart(ACTION_TYPES)   # actions of different kinds never compare equal
