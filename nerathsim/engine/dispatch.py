"""Dispatch: the one entry to every decision. The state rests at the frame on top of its one stack,
`s.stack` (`current_frame(s)`), and `legal_actions`, `is_legal` and `apply_legal` only ask it; after the
frame applies a choice, `simcore.frames.drive`, the lab's one driver, steps the top frame until one rests:
a part of the turn with nothing to choose (its only legal action would be EndPhase: nothing to move, buy
or place) finishes in its `step`, and the part beneath begins.

    frame (module)                         decision kind    beneath it / after it
    turn.Income                            (none)           the bottom: income, the next realm's turn
    movement.Reinforcements                PH_REINFORCE     EndPhase: Income
    reinforce.BuyUnits                     PH_BUY           EndPhase: Reinforcements
    movement.Regroup                       PH_REGROUP       EndPhase: BuyUnits
    combat.BattleOrder                     PH_COMBAT        no fight left: Regroup
    movement.Movement                      PH_MOVE          EndPhase: BattleOrder
    combat.PressOrRetreat, AmokFrame       PH_PRESS, PH_AMOK        pushed above BattleOrder
    fight.CasualtyChoice, HitsToPlace      PH_CASUALTY, PH_HIT      a battle's queued decisions, pushed at once above
                                                                    BattleOrder (the next on top); the frame beneath
                                                                    resumes: the next one, or the battle goes on
    windows.CardWindow                     PH_EVENT         pushed above Movement, BattleOrder (or a battle's
                                                            casualty choices) or BuyUnits, which resume
    windows.PendingCard                    PH_EVENT         pushed above its CardWindow
"""
from __future__ import annotations

import numpy as np

from simcore.actions import shown
from simcore.frames import drive

from ..game_actions import (
    Amok,
    Buy,
    Casualties,
    Embark,
    EndPhase,
    Fight,
    Hit,
    Move,
    Pass,
    PlayCard,
    PressOn,
    RetreatTo,
    Sail,
    Unload,
)
from ..maps import REALMS
from .combat import AmokFrame, BattleOrder, PressOrRetreat
from .fight import CasualtyChoice, HitsToPlace
from .movement import Movement, Regroup, Reinforcements
from .reinforce import BuyUnits
from .state import PH_EVENT, IllegalActionError, State, as_generator
from .turn import Income
from .windows import CardWindow, PendingCard

#: every frame class, by the decision kind it rests at (`Income` rests at none)
FRAMES = {cls.phase: cls for cls in (Movement, BattleOrder, CasualtyChoice, PressOrRetreat, AmokFrame, Regroup,
                                     BuyUnits, Reinforcements, HitsToPlace)}
FRAMES[PH_EVENT] = (CardWindow, PendingCard)
FRAME_TYPES = (Income, Movement, BattleOrder, CasualtyChoice, HitsToPlace, PressOrRetreat, AmokFrame, Regroup,
               BuyUnits, Reinforcements, CardWindow, PendingCard)


def current_frame(s: State):
    """The frame the state rests at (the top of `s.stack`), whose `decider` is `s.decider` and `seat`
    `s.current_player`; None once the game is over."""
    if s.is_terminal or not s.stack:
        return None
    return s.stack[-1]


def legal_actions(s: State) -> list:
    """Every legal action of the current decision (empty only when the game is over)."""
    if s.is_terminal:
        return []
    if s._legal is not None:
        return s._legal
    out = s.stack[-1].legal(s)
    s._legal = out
    return out


def legal_by_kind(s: State) -> list:
    """The legal actions grouped by kind, kinds in order of first appearance in legal_actions(s)
    and actions within a kind in listing order (moves as a lazily decoded MoveList)."""
    if s.is_terminal:
        return []
    got = s.stack[-1].by_kind(s)
    if got is not None:
        return got
    kinds: dict = {}
    for a in legal_actions(s):
        kinds.setdefault(type(a), []).append(a)
    return list(kinds.values())


def is_legal(s: State, a) -> bool:
    """True iff `a` is in legal_actions(s), without listing every legal action (the frame's own check)."""
    if s.is_terminal or not s.stack:
        return False
    try:
        return s.stack[-1].is_legal(s, a)
    except (TypeError, IndexError, KeyError):
        return False


def apply_action(s: State, action, rng) -> None:
    """Validate `action` against the legal actions, apply it, and advance to the next decision."""
    try:
        legal_one = is_legal(s, action)
    except Exception:  # noqa: BLE001  # an action that cannot even be compared is not legal
        legal_one = False
    if not legal_one:
        legal = legal_actions(s)
        raise IllegalActionError(
            f"illegal action {shown(action)} for seat {s.current_player} ({REALMS[s.decider]}) at decision "
            f"{s.decision!r}; legal: {legal!r}"
        )
    apply_legal(s, action, as_generator(rng))


def apply_legal(s: State, a, rng: np.random.Generator) -> None:
    """Apply an action already known to be legal (the game loop's fast path): log the decision, let the
    frame on top apply it (EndPhase: the part of the turn finishes), then `drive` to the next decision."""
    if s.log is not None:
        s.log.append({"event": "decision", "round": s.round + 1, "turn_realm": REALMS[s.realm], "seat": s.current_player,
                      "realm": REALMS[s.decider], "decision": s.decision, "action": repr(a),
                      "text": describe_action(s, a)})
    s.decisions += 1
    s._legal = None
    s.stack[-1].apply(s, a, rng)
    drive(s, rng)


# ---------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------
def describe_action(s: State, a) -> str:
    """The action in words, with region names."""
    nm = s.board.names
    ty = type(a)
    if ty is EndPhase:
        return f"end {s.decision}"
    if ty is Move:
        return f"move {a.count} {a.unit} {nm[a.src]} -> {nm[a.dst]}"
    if ty is Embark:
        return f"{a.unit} at {nm[a.src]} boards warship {a.ship}"
    if ty is Sail:
        return f"warship {a.ship} sails to {nm[a.dst]}"
    if ty is Unload:
        return f"warship {a.ship} lands its cargo on {nm[a.dst]}"
    if ty is Fight:
        return f"fight the battle at {nm[a.region]}"
    if ty is Casualties:
        return f"casualty order: {a.order}"
    if ty is Hit:
        return f"take the hit on {a.unit.replace('damage:', 'a fresh ')}" + (" (wounded)" if a.unit.startswith("damage:") else "")
    if ty is PressOn:
        return "press the attack"
    if ty is RetreatTo:
        return f"retreat to {nm[a.dst]}"
    if ty is Amok:
        return f"a monster runs amok into {nm[a.dst]}"
    if ty is Pass:
        return "play no (more) cards" if s.phase == PH_EVENT else "no (more) running amok"
    if ty is PlayCard:
        c = s.cards.cards[a.card]
        where = f" at {nm[a.target]}" if a.target >= 0 else ""
        src = f" from {nm[a.source]}" if a.source >= 0 else ""
        return f"play {c.kind} card {c.name!r}{where}{src}"
    if ty is Buy:
        return f"buy a {a.unit} at {nm[a.at]}"
    return repr(a)
