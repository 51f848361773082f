"""Dispatch: the one entry to every decision. `legal_actions`, `is_legal` and `apply_legal` ask the
frame the state rests at (`current_frame(s)`: a card window, a pending card, a casualty choice, hits to
place, running amok — each answers through its owning module's `Decision`), and at the turn's own
decisions (no frame) route by the decision kind (`s.phase`) to the `Decision` of the module that owns
that part of the turn (`DECISIONS`); EndPhase goes on to the next part of the turn (`END_PHASE_NEXT`, the turn's order);
`_advance`, the one advance loop, skips decisions whose only legal action would be EndPhase.

    movement   PH_MOVE, PH_REGROUP, PH_REINFORCE     combat     PH_COMBAT, PH_CASUALTY, PH_HIT,
    reinforce  PH_BUY                                            PH_PRESS, PH_AMOK
    windows    PH_EVENT (a CardWindow or PendingCard frame)
"""
from __future__ import annotations

import numpy as np

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
from . import combat, movement, reinforce, windows
from .combat import _start_combat
from .common import _event
from .movement import _anything_to_move, _end_regroup, _may_end_regroup
from .reinforce import _any_buy, _start_buy, _start_reinforce
from .state import (
    PH_AMOK,
    PH_BUY,
    PH_CASUALTY,
    PH_EVENT,
    PH_HIT,
    PH_MOVE,
    PH_REGROUP,
    PH_REINFORCE,
    IllegalActionError,
    State,
    as_generator,
)
from .turn import _end_turn

#: decision kind -> the Decision (legal, is_legal, apply) of the module owning it
DECISIONS = {
    PH_MOVE: movement.DECISION, PH_REGROUP: movement.DECISION, PH_REINFORCE: movement.DECISION,
    PH_BUY: reinforce.DECISION, PH_EVENT: windows.DECISION, **combat.DECISIONS,
}
MOVEMENT_PHASES = (PH_MOVE, PH_REGROUP, PH_REINFORCE)


def _end_movement(s: State, rng) -> None:
    _event(s, "end_movement", realm=REALMS[s.realm])
    _start_combat(s, rng)


def _regroup_to_buy(s: State, rng) -> None:
    _end_regroup(s)
    _start_buy(s)


def _buy_to_reinforce(s: State, rng) -> None:
    _start_reinforce(s)


#: what EndPhase does in each decision that has it: the next part of the turn
END_PHASE_NEXT = {PH_MOVE: _end_movement, PH_REGROUP: _regroup_to_buy, PH_BUY: _buy_to_reinforce,
                  PH_REINFORCE: _end_turn}


def current_frame(s: State):
    """The frame the state rests at, whose `decider` is `s.decider`: the pending card or the card window
    (PH_EVENT), the next casualty choice (PH_CASUALTY), the hits being placed (PH_HIT), the amok
    decision (PH_AMOK); None at the turn's own decisions (movement, battle order, press or retreat, buy)."""
    ph = s.phase
    if ph == PH_EVENT:
        return s.pending if s.pending is not None else s.window
    if ph == PH_CASUALTY:
        return s.battle.next_casualty_choice if s.battle is not None and s.battle.queue else None
    if ph == PH_HIT:
        return s.battle.next_hits if s.battle is not None and s.battle.hits else None
    if ph == PH_AMOK:
        return s.amok
    return None


def _decision(s: State):
    """What answers the current decision: the frame the state rests at (which answers through its owning
    module's `Decision`), or at the turn's own decisions (no frame) that module's `Decision` for `s.phase`."""
    f = current_frame(s)
    return f if f is not None else DECISIONS.get(s.phase)


def legal_actions(s: State) -> list:
    """Every legal action of the current decision (empty only when the game is over)."""
    if s.is_terminal:
        return []
    if s._legal is not None:
        return s._legal
    d = _decision(s)
    if d is None:
        raise AssertionError(f"no decision in phase {s.phase}")
    out = d.legal(s)
    s._legal = out
    return out


def legal_by_kind(s: State) -> list:
    """The legal actions grouped by kind, kinds in order of first appearance in legal_actions(s)
    and actions within a kind in listing order (moves as a lazily decoded MoveList)."""
    if s.is_terminal:
        return []
    if s.phase in MOVEMENT_PHASES:
        return movement.legal_by_kind(s)
    kinds: dict = {}
    for a in legal_actions(s):
        kinds.setdefault(type(a), []).append(a)
    return list(kinds.values())


def is_legal(s: State, a) -> bool:
    """True iff `a` is in legal_actions(s), without listing every legal action (the owning module's check)."""
    if s.is_terminal:
        return False
    d = _decision(s)
    if d is None:
        return False
    try:
        return d.is_legal(s, a)
    except (TypeError, IndexError, KeyError):
        return False


def apply_action(s: State, action, rng) -> None:
    """Validate `action` against the legal actions, apply it, and advance to the next decision."""
    if not is_legal(s, action):
        legal = legal_actions(s)
        raise IllegalActionError(
            f"illegal action {action!r} for seat {s.current_player} ({REALMS[s.decider]}) at decision "
            f"{s.decision!r}; legal: {legal!r}"
        )
    apply_legal(s, action, as_generator(rng))


def apply_legal(s: State, a, rng: np.random.Generator) -> None:
    """Apply an action already known to be legal (the game loop's fast path): log the decision, let the
    owning module apply it (EndPhase: the next part of the turn), then `_advance`."""
    if s.log is not None:
        s.log.append({"event": "decision", "round": s.round + 1, "turn_realm": REALMS[s.realm], "seat": s.current_player,
                      "realm": REALMS[s.decider], "decision": s.decision, "action": repr(a),
                      "text": describe_action(s, a)})
    s.decisions += 1
    s._legal = None
    if type(a) is EndPhase:
        nxt = END_PHASE_NEXT.get(s.phase)
        if nxt is None:
            raise IllegalActionError(f"unknown action {a!r}")
        nxt(s, rng)
    else:
        d = _decision(s)
        if d is None:
            raise IllegalActionError(f"unknown action {a!r}")
        d.apply(s, a, rng)
    _advance(s, rng)


def _advance(s: State, rng) -> None:
    """Skip decisions whose only legal action is to end the phase (nothing to move, buy or place)."""
    while not s.is_terminal:
        ph = s.phase
        if ph == PH_MOVE:
            if _anything_to_move(s):
                return
            _event(s, "end_movement", realm=REALMS[s.realm], auto=True)
            _start_combat(s, rng)
        elif ph == PH_REGROUP:
            if _anything_to_move(s) or not _may_end_regroup(s):
                return
            _regroup_to_buy(s, rng)
        elif ph == PH_BUY:
            if _any_buy(s):
                return
            _buy_to_reinforce(s, rng)
        elif ph == PH_REINFORCE:
            if _anything_to_move(s):
                return
            _end_turn(s, rng)
        else:
            return


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
