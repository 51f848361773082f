"""The one frame stack of the Nerath engine (`State.stack`): the turn's parts lie on it in
turn order with the decision at rest on top, what resumes after a frame is the frame beneath it (never a
stored callback), the dispatcher routes only through the top frame, and a clone owns its own stack.
Random games with the shipped cards and guardians on the small map, each casualty rule."""
from __future__ import annotations

import ast
import dataclasses
import inspect

import numpy as np

import simcore.frames
from nerathsim import engine as E
from nerathsim.engine import dispatch
from nerathsim.rules import Rules

CARDS = Rules(map="small", mode="free_for_all")
GAMES = [(CARDS, 0), (CARDS, 1), (dataclasses.replace(CARDS, casualty_choice="order"), 2),
         (dataclasses.replace(CARDS, casualty_choice="order"), 3), (Rules(map="small"), 4)]
#: the parts of a turn from the bottom of the stack up
PARTS = (E.Income, E.Reinforcements, E.BuyUnits, E.Regroup, E.BattleOrder, E.Movement)
#: what may lie above each part while the state rests (bottom first; a battle's queued decisions, a run of
#: `CasualtyChoice`s or of `HitsToPlace`s pushed at once in the order they are resolved, count as one: `_collapsed`)
ABOVE = {
    E.Movement: {(), (E.CardWindow,), (E.CardWindow, E.PendingCard)},
    E.BattleOrder: {(), (E.CardWindow,), (E.CardWindow, E.PendingCard), (E.CasualtyChoice,), (E.HitsToPlace,),
                    (E.PressOrRetreat,), (E.AmokFrame,),
                    (E.CasualtyChoice, E.CardWindow), (E.CasualtyChoice, E.CardWindow, E.PendingCard)},
    E.Regroup: {()},
    E.BuyUnits: {(), (E.CardWindow,), (E.CardWindow, E.PendingCard)},
    E.Reinforcements: {()},
}


def _rests(games=GAMES, steps=1200):
    """Every state at rest in the random games, with its chance generator."""
    for rules, seed in games:
        rng = np.random.default_rng(seed)
        s = E.new_game(rules, seed)
        for _ in range(steps):
            if s.is_terminal:
                break
            yield s, rng
            legal = E.legal_actions(s)
            E.apply_legal(s, legal[int(rng.integers(len(legal)))], rng)


def _collapsed(above: tuple) -> tuple:
    """`above` with each run of a battle's queued decisions (CasualtyChoice or HitsToPlace) as one."""
    out = []
    for cls in above:
        if not (out and cls is out[-1] and cls in (E.CasualtyChoice, E.HitsToPlace)):
            out.append(cls)
    return tuple(out)


def test_the_stack_holds_the_turns_parts_in_order_and_the_decision_at_rest_on_top():
    seen = set()
    queued = set()
    for s, _rng in _rests():
        fr = s.stack
        parts = [f for f in fr if type(f) in PARTS]
        n = len(parts)
        assert tuple(type(f) for f in parts) == PARTS[:n] and fr[:n] == parts, fr     # parts at the bottom, in order
        assert all(f.realm == s.realm for f in parts)
        above = _collapsed(tuple(type(f) for f in fr[n:]))
        assert above in ABOVE[type(parts[-1])], fr
        if s.battle is not None:             # the battle's queued decisions are the stack's, next first (top-most)
            for cls, view in ((E.CasualtyChoice, s.battle.queue), (E.HitsToPlace, s.battle.hits)):
                mine = [f for f in reversed(fr) if type(f) is cls]
                assert view == mine, fr
                realms = [f.realm for f in mine]
                order = [ch.realm for ch in [s.battle.att, *s.battle.defs]]
                assert realms == sorted(realms, key=order.index) and len(set(realms)) == len(realms), fr
                if len(mine) > 1:
                    queued.add(cls.__name__)
        top = fr[-1]
        seen.add((type(parts[-1]).__name__, above))
        assert E.current_frame(s) is top and top.phase == s.phase and top.decider == s.decider
        if type(top) is E.HitsToPlace:
            assert top is s.battle.hits[0] and top is s.battle.next_hits
        if type(top) is E.CasualtyChoice:
            assert top is s.battle.queue[0]
        if type(top) in (E.CardWindow, E.PendingCard):
            windows = [f for f in fr[n:] if type(f) is E.CardWindow]      # (above the battle's casualty choices)
            assert windows == [s.window] and s.pending is (top if type(top) is E.PendingCard else None)
        assert s.amok is (top if type(top) is E.AmokFrame else None)
        for f in fr:                                     # what resumes after a frame is the frame beneath: no callbacks
            slots = [n for c in type(f).__mro__ for n in getattr(c, "__slots__", ())]
            assert not any(callable(getattr(f, n)) for n in slots), f
    kinds = {above[-1].__name__ for _part, above in seen if above}
    assert {"CardWindow", "PendingCard", "HitsToPlace", "CasualtyChoice", "PressOrRetreat"} <= kinds, seen
    assert {part for part, _above in seen} == {"Movement", "BattleOrder", "Regroup", "BuyUnits", "Reinforcements"}
    assert queued == {"CasualtyChoice", "HitsToPlace"}, queued      # several of a battle's decisions wait at once


def test_a_clone_owns_its_stack_and_its_changing_frames():
    checked = set()
    for s, _rng in _rests(GAMES[:3], 700):
        c = s.clone()
        assert c.stack is not s.stack and [type(f) for f in c.stack] == [type(f) for f in s.stack]
        for a, b in zip(s.stack, c.stack):
            if type(a) in (E.PendingCard, E.HitsToPlace, E.AmokFrame):
                assert b is not a and repr(b) == repr(a)
                checked.add(type(a).__name__)
            else:
                assert b is a                            # never changed: shared
        if type(s.stack[-1]) is E.HitsToPlace:
            assert c.stack[-1] is c.battle.hits[0]
        c.stack.pop()
        assert E.current_frame(s) is s.stack[-1] and len(s.stack) == len(c.stack) + 1
    assert {"PendingCard", "HitsToPlace"} <= checked, checked


def _names_read(fn) -> set:
    tree = ast.parse(inspect.getsource(fn))
    return {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}


def test_the_dispatcher_routes_only_through_the_top_frame():
    """legal_actions, legal_by_kind, is_legal, apply_legal and the lab's driver (`simcore.frames.drive`,
    the one loop after a choice) ask the top frame and never branch on the decision kind (`s.phase`) or
    on a table of decisions."""
    for fn in (dispatch.legal_actions, dispatch.legal_by_kind, dispatch.is_legal, dispatch.apply_legal,
               simcore.frames.drive, dispatch.current_frame):
        read = _names_read(fn)
        assert "phase" not in read and "stack" in read, fn.__name__
    assert dispatch.drive is simcore.frames.drive and "drive" in inspect.getsource(dispatch.apply_legal)
    assert not hasattr(dispatch, "DECISIONS") and not hasattr(dispatch, "END_PHASE_NEXT")
