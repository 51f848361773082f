"""The Nightmarium engine: legal actions, applying an action, and advancing to the next decision.

One decision = one step (OpenSpiel style). Everything that needs no choice (dealing,
drawing, reshuffling, activating an ability without a choice, ending a turn) runs inside
`apply_action`; the state then rests at the next decision, whose owner is
`state.current_player` — which may be a victim choosing a penalty discard out of turn.

Pending work lives on `state.stack`, a list of `Frame` objects (`state.py`, the protocol of
`simcore.frames`) whose bottom is the turn player's turn action (`turn.TurnActions`). Every
frame answers the same calls — `legal`, `apply`, `step` — so this module only dispatches to
the top frame, and `simcore.frames.drive` steps the stack to the next decision. The rules
themselves live in `turn.py` (the deal and the turn's actions), `creatures.py` (placing,
completion, abilities, seals) and `penalty.py` (the pure-legion penalty).
"""
from __future__ import annotations

from simcore.actions import shown
from simcore.frames import drive
from simcore.stream import chance_stream as as_stream

from .actions import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    PlaySeal,
    Reactivate,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
)
from .cards import BODY_PARTS, LEGIONS
from .creatures import SealReactivation
from .state import STAT_NAMES, Creature, IllegalActionError, State
from .turn import new_game


def top_frame(s: State):
    """The frame whose decision is pending: the top of the stack."""
    return s.stack[-1]


def legal_actions(s: State) -> list:
    """Every legal action of the current decision (empty only when the game is over)."""
    if s.is_terminal:
        return []
    return s.stack[-1].legal(s)


def apply_action(s: State, action, rng) -> None:
    """Validate `action` against the legal actions, apply it, and drive on to the next decision."""
    legal = legal_actions(s)
    if action not in legal:
        raise IllegalActionError(
            f"illegal action {shown(action)} for player {s.current_player} at decision "
            f"{s.decision!r}; legal: {legal!r}"
        )
    apply_legal(s, action, as_stream(rng))


def apply_legal(s: State, a, rng) -> None:
    """Apply an action already known to be legal (the game loop's fast path)."""
    if s.log is not None:
        s.log.append({"event": "decision", "turn": s.turns, "player": s.current_player, "decision": s.decision,
                      "action": repr(a), "text": describe_action(s, a), "action_type": type(a).__name__,
                      "action_args": a._asdict()})
    s.decisions += 1
    if not s.stack[-1].apply(s, a, rng):  # True: it rests at a decision already (`state.Frame`)
        drive(s, rng)


def describe_action(s: State, a) -> str:
    """A rulebook-like sentence for an action in state s (for logs and errors)."""
    t = type(a)
    cards = s.table.cards
    if t is Play:
        where = "a new creature" if a.creature is None else f"creature {a.creature}"
        return f"play {cards[a.card]!r} as {BODY_PARTS[a.slot]} on {where}"
    if t is PlaySeal:
        return f"seal creature {a.creature} of player {a.owner} with {cards[a.card]!r}"
    if t in (DiscardCard, PenaltyDiscard):
        return f"{'discard' if t is DiscardCard else 'give up'} {cards[a.card]!r}"
    if t is Take:
        return f"take the top card of creature {a.creature} of player {a.owner}"
    if t is Scavenge:
        return f"discard the uncompleted creature {a.creature} of player {a.owner}"
    if t is Devour:
        return f"discard the top card of own creature {a.creature}"
    if t is Reactivate:
        return "activate the sealed creature's parts of the seal's legion again"
    if t is Decline:
        return ("decline the seal's re-activation" if type(top_frame(s)) is SealReactivation
                else "decline the Scavenger")
    return {Draw: "draw a card", StartDiscard: "start discarding cards",
            StopDiscard: "stop choosing: discard them and draw half"}.get(t, repr(a))


__all__ = [
    "State", "Creature", "IllegalActionError", "new_game", "legal_actions", "apply_action",
    "apply_legal", "describe_action", "top_frame", "LEGIONS", "STAT_NAMES",
]
