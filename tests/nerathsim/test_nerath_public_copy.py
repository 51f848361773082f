"""A policy sees only its observation and the legal actions (docs/ARCHITECTURE.md §6): the
Nerath observation wraps a public copy of the state, and nothing a policy can reach through it or through
the legal actions (by any path: attributes, private ones included, and the objects they hold) is a
mutable object the engine also holds — the reach caches, the board's and the unit tables' lookups, the
placement spots, a battle's tables and frames are the copy's own or read-only. The one exception is the
seat's own notebook (`memo`), which the game keeps for the policy on purpose."""
from __future__ import annotations

import dataclasses
import gc
import types

import numpy as np
import pytest

import nerathsim as api
from nerathsim import engine as E
from nerathsim.frozen import FrozenDict
from nerathsim.game import LegalActions
from nerathsim.observation import observe

#: never walked into: code and classes are shared by every game and hold no game data
_CODE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType, types.MethodType,
         types.MethodDescriptorType, types.WrapperDescriptorType, types.GetSetDescriptorType,
         types.MemberDescriptorType, property, staticmethod, classmethod)
_VALUES = (tuple, frozenset, str, bytes, int, float, complex, bool, type(None), types.MappingProxyType, FrozenDict)


def _reachable(roots) -> dict:
    """id -> object for everything reachable from `roots` by the garbage collector's references (through a
    read-only `MappingProxyType`: the keys and values it shows)."""
    seen, stack = {}, list(roots)
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, _CODE):
            continue
        seen[id(o)] = o
        if isinstance(o, types.MappingProxyType):     # a read-only view: what it shows, not the dict behind it
            stack.extend(o.keys())
            stack.extend(o.values())
        else:
            stack.extend(gc.get_referents(o))
    return seen


def _frozen_dicts(objs) -> set:
    """ids of the attribute dicts of objects whose fields cannot be set (frozen dataclasses, the unit
    tables): part of a value, not a container of their own."""
    return {id(o.__dict__) for o in objs if isinstance(getattr(o, "__dict__", None), dict) and not isinstance(o, type)
            and not _changeable(o)}


def _changeable(o) -> bool:
    """Can this object be changed in place by ordinary means?"""
    if isinstance(o, _VALUES):
        return False
    if isinstance(o, (dict, list, set, bytearray)):
        return True
    if isinstance(o, np.ndarray):
        return o.flags.writeable
    names = [n for c in type(o).__mro__ for n in getattr(c, "__slots__", ()) if n not in ("__dict__", "__weakref__")]
    names += list(getattr(o, "__dict__", {}))
    for n in names[:1]:                          # try to set one field to its own value
        try:
            setattr(o, n, getattr(o, n))
        except (AttributeError, TypeError, dataclasses.FrozenInstanceError):
            return False
        return True
    return False


def shared_changeable(s, seat: int) -> list:
    """What a policy of `seat` can reach through observe(s, seat) and the legal actions that the engine
    also holds and that can be changed in place (besides the seat's notebook)."""
    obs = observe(s, seat)
    legal = LegalActions.of(obs)
    list(legal)
    legal.by_kind()
    if obs.battle is not None:
        obs.retreat_options()
    engine = _reachable([s])
    mine = _reachable([s.memo[seat]])
    policy = _reachable([obs, legal])
    skip = _frozen_dicts(engine.values()) | set(mine)
    return [o for i, o in policy.items() if i in engine and i not in skip and _changeable(o)]


GAMES = [(api.Rules(map="small", mode="free_for_all"), 1),
         (dataclasses.replace(api.Rules(map="small", mode="free_for_all"), casualty_choice="order"), 2),
         (api.Rules(map="small"), 3)]


@pytest.mark.parametrize("rules, seed", GAMES)
def test_nothing_a_policy_reaches_is_changeable_engine_data(rules, seed):
    """Random play; every 7th decision (and every battle decision), the policy's reach is checked."""
    rng = np.random.default_rng(seed)
    s = E.new_game(rules, seed)
    checked = set()
    for _ in range(700):
        if s.is_terminal:
            break
        if s.decisions % 7 == 0 or s.battle is not None or s.pending is not None:
            found = shared_changeable(s, s.current_player)
            assert not found, (s.decision, [(type(o).__name__, repr(o)[:80]) for o in found[:8]])
            checked.add(s.decision)
        legal = E.legal_actions(s)
        E.apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
    assert {"movement", "reinforcements: buy"} <= checked, checked


def test_the_engine_still_fills_its_own_caches_and_the_copy_reads_them():
    """The copy sees the engine's reach entries (in its seat's own table) and keeps its own work to itself."""
    s = E.new_game(api.Rules(map="small", mode="free_for_all"), 5)
    E.legal_actions(s)                                     # the engine lists its moves: its caches fill
    engine_entries = len(s.reach) + len(s.reach_land)
    obs = observe(s, s.current_player)
    src = next(r for r, g in s.mob.items() if g)
    unit = s.tab.names[next(u for (u, m), c in s.mob[src].items() if c)]
    seen = obs.destinations(src, unit)
    assert seen and len(s.reach) + len(s.reach_land) == engine_entries   # the copy's work added nothing there
    assert seen == E.destinations(s, src, unit)
    assert len(s.reach) + len(s.reach_land) > engine_entries             # the engine's own work fills them
    obs = observe(s, s.current_player)
    c = obs._s
    assert obs.destinations(src, unit) == seen and c.reach_land is not s.reach_land   # the engine's entries, copied
    assert all(c.reach_land[k] is v for k, v in s.reach_land.items())
    with pytest.raises(TypeError):
        obs.board.index["x"] = 0
    with pytest.raises(AttributeError):
        obs.tables.cost = ()
    assert isinstance(obs.tables.cost, tuple) and isinstance(obs.board.rings(0), tuple)
