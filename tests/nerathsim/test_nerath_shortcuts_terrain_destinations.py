"""Shortcuts of the reach cache, a single group's destinations, the terrain refresh and the hostile-units
check: each gives exactly what it stands in for.

- `_reach` picks its cache written out (no `_cache_for` call): every entry it stores lands in the table
  `_cache_for` names for its unit class and mode;
- `destinations` of a single group of units builds its dict without checking each destination's cost
  against the group's moves left, because `_reach` lists only destinations costing at most the budget
  it was asked for: on seeded positions of every phase, the same dict (same order) as the plain walk;
- `_refresh_terrain` passes over a sea whose counts equal an all-zero table (compared in C) instead of
  asking `any` of every row, and the start of a turn, of the regroup and its end pass over a realm's
  all-zero row the same way: the same terrain, on the engine's lists and on a public copy's tuples (which
  never equal the zero lists, so they take the plain check), and the same mobile units;
- `effects._hostile_units` is a plain loop instead of `any` over a generator: the same answer.
"""
from __future__ import annotations

import numpy as np

import nerathsim as api
from nerathsim import effects as EF
from nerathsim import engine as E
from nerathsim.engine import terrain as T
from nerathsim.engine import turn as TU

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


def _plain_terrain(s) -> tuple:
    """(hostile, friendly land) as `_refresh_terrain` worked them out before: every sea's rows asked."""
    b, F = s.board, s.friends[s.realm]
    hostile, fr_land = [False] * b.n, [False] * b.n
    for r in b.land_regions:
        if s.owner[r] in F:
            fr_land[r] = True
        else:
            hostile[r] = True
    for r in b.sea_regions:
        if any(any(s.units[r][q]) for q in range(4) if q not in F):
            hostile[r] = True
    for sh in s.ships:
        if sh.owner not in F:
            hostile[sh.region] = True
    return hostile, fr_land


def _plain_turn_mob(s) -> dict:
    """The mobile units at the start of a turn, every region's row walked."""
    t, p, out = s.tab, s.realm, {}
    for r in range(s.board.n):
        for u in range(t.U):
            c = s.units[r][p][u]
            if c and t.mobile[u]:
                out.setdefault(r, {})[(u, t.move[u])] = c
    return out


def test_the_terrain_and_the_turns_mobile_units_are_the_plain_ones_on_lists_and_on_tuples(balanced_decisions):
    checked = seas_held = hostile_found = 0
    for seed in (31, 32):
        for step, (s, _obs) in enumerate(balanced_decisions(FFA, seed, 1500)):
            if step % 5 == 0:
                as_tuples = s.clone()
                as_tuples.units = tuple(tuple(tuple(row) for row in reg) for reg in s.units)
                for st in (s.clone(), as_tuples):              # the engine's lists, a public copy's tuples
                    T._refresh_terrain(st)
                    assert (st.hostile, st.fr_land) == _plain_terrain(st)
                    checked += 1
                    seas_held += sum(any(map(any, st.units[r])) for r in st.board.sea_regions)
                    for r in range(st.board.n):
                        for q in range(4):
                            plain = any(x not in st.friends[q] and any(st.units[r][x]) for x in range(4))
                            assert EF._hostile_units(st, r, q) is plain
                            hostile_found += plain
                    TU._start_turn(st, np.random.default_rng(0))
                    assert st.mob == _plain_turn_mob(st)
    assert checked > 100 and seas_held > 20 and hostile_found > 100


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


def test_single_group_destinations_and_the_written_out_cache_pick_match_the_plain_ones(balanced_decisions):
    checked, seen_modes = 0, set()
    for seed in (21, 22, 23):
        for s, _obs in balanced_decisions(FFA, seed, 1500):
            checked += _check(s, seen_modes)
    assert checked > 500
    modes = {mode for mode, _cls in seen_modes}
    classes = {cls for _mode, cls in seen_modes}
    assert {E.M_MOVE, E.M_REGROUP} <= modes and {E.C_LAND, E.C_FLY} <= classes
