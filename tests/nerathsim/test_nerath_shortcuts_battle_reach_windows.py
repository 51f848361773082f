"""Shortcuts of the Nerath game loop (battle dice, retreat, quick odds, land reach, card windows, planner
strength): each gives exactly what it stands in for.

- a battle step works out each side's dice once (`ingame.side_pool`) for the hit distributions
  (`pool_distribution`) and the rolls (`roll_pool`): the same distributions and the same draws as
  `hit_distribution` and `roll`;
- after a round the battle asks `combat._can_retreat`, which says what `bool(retreat_options(s))` says;
- `estimates.quick_odds` reads its weights from a table made once per battle rules: the same float, to
  the last bit, as the sum over the side tables;
- the land reach (`terrain._reach`) is searched one distance at a time: the same destinations, in the
  same order, as the queue it replaces;
- whether a card window opens is `effects.window_has_plays`, which stops at the first card that can be
  played: what `bool(window_plays(...))` says;
- `Planner._powers` remembers a realm's row of units' strength by row, and `Planner.enemy_army` reads
  land regions' counts directly: the same figures as the plain sums over `Observation.army`.
"""
from __future__ import annotations

import dataclasses
import math
from collections import deque

import numpy as np
import pytest

import nerathsim as api
from nerathsim import effects as ef
from nerathsim import engine as E
from nerathsim.battle import ingame as gb
from nerathsim.engine import combat as C
from nerathsim.engine import terrain as T
from nerathsim.engine.state import C_HERO, C_LAND, M_MOVE, M_REGROUP, M_REINFORCE
from nerathsim.game import LegalActions
from nerathsim.observation import observe
from nerathsim.policies import BALANCED, POLICIES
from nerathsim.policies.estimates import _QUICK, quick_odds
from nerathsim.policies.planner import Planner
from nerathsim.public_copy import SeatCaches

FFA = api.Rules(mode="free_for_all")


def _play(rules, seed, steps, visit, lineup=("balanced",) * 4):
    """Drive a seeded game with the shipped policies, calling `visit(s)` at every decision."""
    rng = np.random.default_rng(seed)
    s = E.new_game(rules, rng)
    caches = [SeatCaches() for _ in range(rules.players)]
    for _ in range(steps):
        if s.is_terminal:
            break
        visit(s)
        p = s.current_player
        obs = observe(s, p, caches[p])
        E.apply_legal(s, POLICIES[lineup[p]](obs, LegalActions.of(obs), rng), rng)


# --- a step's dice, worked out once ---------------------------------------------------------------
def test_a_steps_pools_give_the_distributions_and_the_draws_of_the_plain_functions():
    compared = []

    def visit(s):
        bt = s.battle
        if bt is None or bt.dungeon:
            return
        for first in (True, False):
            sides = [(bt.att.t, bt.att.army)] + [(d.t, d.army) for d in bt.defs]
            pools = [gb.side_pool(t, army, first) for t, army in sides]
            assert gb.pool_distribution(pools[:1]) == gb.hit_distribution(sides[:1], first)
            assert gb.pool_distribution(pools[1:]) == gb.hit_distribution(sides[1:], first)
            for (t, army), pl in zip(sides, pools):
                a, b = np.random.default_rng(len(compared)), np.random.default_rng(len(compared))
                assert gb.roll_pool(pl, a) == gb.roll(t, army, b, first)
                assert a.random() == b.random()           # the same number of draws
            compared.append(len(sides))

    for seed in (3, 4):
        _play(FFA, seed, 1500, visit)
    assert len(compared) > 50 and max(compared) >= 2


def test_pool_distribution_of_no_side_and_of_allies_pools_their_dice():
    t = gb.side_table(FFA.battle, "defender", False)
    army = gb.new_army(t, [2, 1, 1, 0, 0, 1, 0, 0, 0])
    pl = gb.side_pool(t, army, False)
    assert gb.pool_distribution([]) == gb.hit_distribution([], False)
    assert gb.pool_distribution([pl, pl]) == gb.hit_distribution([(t, army), (t, army)], False)


# --- may the attacker retreat? ---------------------------------------------------------------------
@pytest.mark.parametrize("rules, seed", [(FFA, 5), (api.Rules(), 6), (api.Rules(casualty_choice="order"), 7)])
def test_can_retreat_says_what_the_retreat_options_say(monkeypatch, rules, seed):
    asked = {"land": 0, "sea": 0, "none": 0}
    plain = C._can_retreat

    def checked(s):
        got = plain(s)
        assert got == bool(C.retreat_options(s))
        asked["none" if not got else "sea" if s.battle.at_sea else "land"] += 1
        return got

    monkeypatch.setattr(C, "_can_retreat", checked)
    _play(rules, seed, 3000, lambda s: None)
    assert asked["land"] > 10 and asked["none"] + asked["sea"] > 0


# --- quick odds -------------------------------------------------------------------------------------
def _plain_quick_odds(brules, att, dfd, at_sea) -> float:
    """`quick_odds` as it read the side tables unit by unit before its weights were kept."""
    ta = gb.side_table(brules, "attacker", at_sea)
    td = gb.side_table(brules, "defender", at_sea)
    a = d = 0.0
    ha = hd = 0
    for u in range(ta.U):
        c = att[u]
        if c:
            if ta.fights[u]:
                a += ta.dice[u] * ta.p[u] * c * (1.25 if ta.fs[u] else 1.0)
            if ta.takes[u]:
                ha += ta.htk[u] * c
        c = dfd[u]
        if c:
            if td.fights[u]:
                d += td.dice[u] * td.p[u] * c * (1.25 if td.fs[u] else 1.0)
            if td.takes[u]:
                hd += td.htk[u] * c
    if hd == 0:
        return 1.0 if ha > 0 else 0.0
    if ha == 0 or a == 0:
        return 0.0
    if d == 0:
        return 1.0
    k0, k1, c0 = _QUICK
    z = (k0 + k1 * math.sqrt(min(ha, hd))) * math.log(a * ha / (d * hd)) + c0
    if z > 30:
        return 1.0
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


@pytest.mark.parametrize("brules", [FFA.battle, dataclasses.replace(FFA.battle, attacker_hit_threshold=5)],
                         ids=["published", "other-threshold"])
def test_quick_odds_is_the_plain_sum_to_the_last_bit(brules):
    rng = np.random.default_rng(31)
    U = gb.side_table(brules, "attacker", False).U
    for i in range(3000):
        att = [int(x) if rng.random() < 0.4 else 0 for x in rng.integers(0, 7, U)]
        dfd = [int(x) if rng.random() < 0.4 else 0 for x in rng.integers(0, 7, U)]
        at_sea = bool(i % 3 == 0)
        assert quick_odds(brules, att, dfd, at_sea) == _plain_quick_odds(brules, att, dfd, at_sea)


# --- land reach -------------------------------------------------------------------------------------
def _queue_reach(s, src, cls, budget, mode) -> tuple:
    """The land and hero reach as the queue search found it (before the search went one distance at a time)."""
    b, rules = s.board, s.rules
    adj, is_sea, is_dun, fr_land = b.adj, b.is_sea, b.is_dungeon, s.fr_land
    if mode == M_REGROUP and is_dun[src]:
        return tuple((x, 1, True) for x in adj[src] if fr_land[x])
    out = []
    dist = {src: 0}
    q = deque([src])
    enter_dungeon = mode == M_MOVE and (cls == C_HERO or rules.dungeon_entry == "all_land")
    while q:
        r = q.popleft()
        d = dist[r]
        if d >= budget:
            continue
        for x in adj[r]:
            if x in dist or is_sea[x]:
                continue
            if is_dun[x]:
                if enter_dungeon:
                    dist[x] = d + 1
                    out.append((x, d + 1, True))
                continue
            if fr_land[x]:
                dist[x] = d + 1
                out.append((x, d + 1, False))
                q.append(x)
            elif mode == M_MOVE:
                dist[x] = d + 1
                out.append((x, d + 1, True))
    return tuple(out)


@pytest.mark.parametrize("rules", [FFA, api.Rules(map="small"), api.Rules(mode="free_for_all", dungeon_entry="all_land")],
                         ids=["ffa", "small", "all-land-dungeons"])
def test_the_land_reach_is_the_queue_searchs_in_the_same_order(rules):
    rng = np.random.default_rng(17)
    s = E.new_game(rules, rng)
    b = s.board
    compared = 0
    for trial in range(40):
        s.owner = [int(rng.integers(0, 4)) if not b.is_sea[r] and not b.is_dungeon[r] else -1 for r in range(b.n)]
        s.realm = trial % 4
        T._refresh_terrain(s)
        for mode in (M_MOVE, M_REGROUP, M_REINFORCE):
            for cls in (C_LAND, C_HERO):
                for budget in (0, 1, 2, 3):
                    for src in range(b.n):
                        if b.is_sea[src]:
                            continue
                        s.reach_land = {}                 # worked out afresh, not read from the cache
                        assert T._reach(s, src, cls, budget, mode) == _queue_reach(s, src, cls, budget, mode)
                        compared += 1
    assert compared > 1000


# --- the planner's enemy armies and strength ----------------------------------------------------------
def _plain_powers(obs, brules) -> tuple:
    """`Planner._powers` summed region by region and realm by realm, nothing remembered."""
    b, t = obs.board, obs.tables
    F = obs.friends(obs.realm)
    ta = gb.side_table(brules, "attacker", False)
    s1 = [ta.dice[u] * ta.p[u] if not t.castle[u] and t.move[u] >= 1 else 0.0 for u in range(t.U)]
    s2 = [v if t.move[u] >= 2 else 0.0 for u, v in enumerate(s1)]
    pw1, pw2 = [0.0] * b.n, [0.0] * b.n
    for y, reg in enumerate(obs.unit_counts):
        for q in range(4):
            if q in F or not any(reg[q]):
                continue
            a1, a2 = pw1[y], pw2[y]
            for c, v1, v2 in zip(reg[q], s1, s2):
                if c:
                    a1 += c * v1
                    a2 += c * v2
            pw1[y], pw2[y] = a1, a2
    return tuple(pw1), tuple(pw2)


@pytest.mark.parametrize("rules, seed", [(FFA, 12), (api.Rules(), 13)], ids=["ffa", "alliance"])
def test_the_planners_enemy_strength_and_armies_are_the_plain_sums(rules, seed):
    pol = dataclasses.replace(BALANCED)                 # its own cache, kept through the game
    checked = shared = 0

    def visit(s):
        nonlocal checked, shared
        if s.phase not in (E.PH_MOVE, E.PH_REGROUP, E.PH_BUY, E.PH_REINFORCE):
            return
        obs = observe(s, s.current_player)
        pl = Planner(pol, obs, None)
        assert pl._powers() == _plain_powers(obs, rules.battle)
        F = obs.friends(obs.realm)
        for r in range(obs.board.n):
            plain = [sum(obs.army(r, q)[u] for q in range(4) if q not in F) for u in range(obs.tables.U)]
            assert pl.enemy_army(r) == plain
        checked += 1
        shared += len(pol.odds_cache.powers[("strengths", obs.tables, rules.battle)][2]) > 0

    _play(rules, seed, 2500, visit)
    assert checked > 100 and shared == checked


# --- whether a card window opens ------------------------------------------------------------------
@pytest.mark.parametrize("rules, seed", [(FFA, 8), (api.Rules(), 9)], ids=["ffa", "alliance"])
def test_a_window_opens_exactly_when_its_realm_has_a_play(monkeypatch, rules, seed):
    asked = {True: 0, False: 0}
    plain = ef.window_has_plays

    def checked(s, p, kind, region=-1, role=None):
        got = plain(s, p, kind, region, role)
        assert got == bool(ef.window_plays(s, p, kind, region, role))
        asked[got] += 1
        return got

    monkeypatch.setattr(ef, "window_has_plays", checked)
    _play(rules, seed, 3000, lambda s: None)
    assert asked[True] > 10 and asked[False] > 100
