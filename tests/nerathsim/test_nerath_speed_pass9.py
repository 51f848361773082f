"""The ninth Nerath speed pass (issue 16 item 3, session 32): each shortcut gives exactly what it stands in for.

- `_reach` picks its cache written out (no `_cache_for` call): every entry it stores lands in the table
  `_cache_for` names for its unit class and mode;
- `destinations` of a single group of units builds its dict without checking each destination's cost
  against the group's moves left, because `_reach` lists only destinations costing at most the budget
  it was asked for: on seeded positions of every phase, the same dict (same order) as the plain walk.
"""
from __future__ import annotations

import numpy as np

import nerathsim as api
from nerathsim import engine as E
from nerathsim.engine import terrain as T
from nerathsim.game import LegalActions
from nerathsim.observation import SeatCaches, observe
from nerathsim.policies import POLICIES

FFA = api.Rules(mode="free_for_all")


def _plain_destinations(s, src: int, unit: str) -> dict:
    """`destinations` as it was: every destination's cost checked against each group's moves left."""
    t = s.tab
    u = t.idx[unit]
    groups = s.mob.get(src)
    if not groups:
        return {}
    ms = [(m, c) for (uu, m), c in groups.items() if uu == u and m > 0 and c > 0]
    if not ms:
        return {}
    out = {}
    budget = max(m for m, _ in ms)
    for dst, cost, stop in T._reach(s, src, t.cls[u], budget, s.mode):
        able = sum(c for m, c in ms if m >= cost)
        if able:
            out[dst] = (cost, stop, able)
    return out


def _check(s, seen_modes: set) -> int:
    checked = 0
    for src, groups in list(s.mob.items()):
        for (u, m), c in list(groups.items()):
            if m <= 0 or c <= 0:
                continue
            name = s.tab.names[u]
            got = E.destinations(s, src, name)
            want = _plain_destinations(s, src, name)
            assert got == want and list(got) == list(want), (src, name, s.mode)
            cls = s.tab.cls[u]
            for budget in range(1, m + 1):
                reach = T._reach(s, src, cls, budget, s.mode)
                assert all(cost <= budget for _dst, cost, _stop in reach)
                key = (src, cls, budget, s.mode, s.rules.dungeon_entry)
                assert T._cache_for(s, cls, s.mode).get(key) is reach
            seen_modes.add((s.mode, cls))
            checked += 1
    for sh in s.ships:
        if sh.owner == s.realm and sh.moves > 0:
            reach = E.ship_reach(s, sh)
            assert all(cost <= sh.moves for _dst, cost, _stop in reach)
            key = (sh.region, E.C_SHIP, sh.moves, s.mode, s.rules.dungeon_entry)
            assert T._cache_for(s, E.C_SHIP, s.mode).get(key) is reach
    return checked


def test_single_group_destinations_and_the_written_out_cache_pick_match_the_plain_ones():
    checked, seen_modes = 0, set()
    for seed in (21, 22, 23):
        rng = np.random.default_rng(seed)
        s = E.new_game(FFA, rng)
        caches = [SeatCaches() for _ in range(4)]
        for _ in range(1500):
            if s.is_terminal:
                break
            checked += _check(s, seen_modes)
            p = s.current_player
            obs = observe(s, p, caches[p])
            E.apply_legal(s, POLICIES["balanced"](obs, LegalActions.of(obs), rng), rng)
    assert checked > 500
    modes = {mode for mode, _cls in seen_modes}
    classes = {cls for _mode, cls in seen_modes}
    assert {E.M_MOVE, E.M_REGROUP} <= modes and {E.C_LAND, E.C_FLY} <= classes
