"""The caches of the Nerath game loop and its policies: each gives exactly what it stands in for.

- `Planner.front_distance` remembers the land distances to the front in the policy's `odds_cache.fronts`
  by (board, owners, friends): the same numbers as the breadth-first search it replaces, a read-only
  tuple, and a policy sent to another process starts without them;
- `BattleRules` hashes once per object: the dataclass hash of its fields, equal rules hash alike, and
  the remembered hash never travels with a pickle (string hashes differ between processes);
- a public copy's casualty plans are read-only copies made once per engine plan: equal to the engine's,
  never the engine's, and a clone of the copy (a sampled state) pickles them as plain plans;
- a plan's enemy strength by region (`Planner._powers`) kept for the regions whose counts are the very
  object it was made from: equal to a fresh count; a Move's legality check (`terrain.move_able`) says
  what the listing says;
- the luck figure's yardstick (`engine.fight._KEPT`, the gold a side keeps after each further hit, by
  army state) gives the expected losses of growing the chain, to the last bit, in both hit modes.
"""
from __future__ import annotations

import dataclasses
import pickle
from collections import deque

import numpy as np
import pytest

import nerathsim as api
from nerathsim import engine as E
from nerathsim.battle import ingame as gb
from nerathsim.battle.rules import BattleRules
from nerathsim.engine import fight as F
from nerathsim.game import LegalActions
from nerathsim.game_actions import Move
from nerathsim.observation import observe
from nerathsim.policies import BALANCED, POLICIES, OddsCache
from nerathsim.policies.planner import Planner
from nerathsim.public_copy import SeatCaches


def _bfs_front(obs) -> list:
    """The distance to the front as the planner worked it out before it was remembered (no cache)."""
    b, F = obs.board, obs.friends(obs.realm)
    enemy = [not b.is_sea[x] and not b.is_dungeon[x] and obs.owner[x] not in F for x in range(b.n)]
    dist = [1 << 20] * b.n
    q = deque(r for r in range(b.n) if enemy[r])
    for r in q:
        dist[r] = 0
    while q:
        r = q.popleft()
        for x in b.adj[r]:
            if not b.is_sea[x] and dist[x] > dist[r] + 1:
                dist[x] = dist[r] + 1
                q.append(x)
    return dist


def test_the_remembered_front_distances_are_the_searchs_at_every_planned_decision():
    pol = dataclasses.replace(BALANCED)                  # its own, empty cache
    rules = api.Rules(mode="free_for_all")
    rng = np.random.default_rng(11)
    s = E.new_game(rules, rng)
    hits = checked = 0
    for _ in range(1500):
        if s.is_terminal:
            break
        obs = observe(s, s.current_player)
        before = len(pol.odds_cache.fronts)
        front = Planner(pol, obs, rng).front_distance()
        hits += len(pol.odds_cache.fronts) == before
        assert type(front) is tuple and list(front) == _bfs_front(obs)
        checked += 1
        E.apply_legal(s, pol(obs, LegalActions.of(obs), rng), rng)
    assert checked > 200 and hits > checked // 2         # most decisions find the front already known
    assert all(type(k[0]) is type(rules.board) and type(k[1]) is tuple for k in pol.odds_cache.fronts)
    fresh = pickle.loads(pickle.dumps(pol))
    assert fresh == pol and len(fresh.odds_cache.fronts) == 0 and len(fresh.odds_cache) == 0
    pol.odds_cache.clear()
    assert len(pol.odds_cache.fronts) == 0


def test_an_odds_cache_starts_empty_and_clears_its_fronts():
    cache = OddsCache()
    cache.fronts["k"] = (0,)
    cache.clear()
    assert cache.fronts == {} and len(pickle.loads(pickle.dumps(cache)).fronts) == 0


def test_battle_rules_hash_once_like_the_dataclass_hash_and_never_pickle_it():
    a, b = BattleRules(), BattleRules()
    want = hash(tuple(getattr(a, f.name) for f in dataclasses.fields(a)))
    assert hash(a) == hash(b) == want and a == b
    assert a.__dict__.get("_hash") == want               # remembered on the object
    other = dataclasses.replace(a, hit_threshold=5)
    assert other != a and hash(other) == hash(tuple(getattr(other, f.name) for f in dataclasses.fields(other)))
    back = pickle.loads(pickle.dumps(a))
    assert back == a and "_hash" not in back.__dict__ and hash(back) == want
    assert dataclasses.asdict(back) == dataclasses.asdict(a) and "_hash" not in dataclasses.asdict(a)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.hit_threshold = 4


def test_a_public_copys_casualty_plans_are_read_only_copies_equal_to_the_engines():
    rules = api.Rules(mode="free_for_all")
    rng = np.random.default_rng(4)
    s = E.new_game(rules, rng)
    seen = 0
    for _ in range(3000):
        if s.is_terminal or seen > 30:
            break
        obs = observe(s, s.current_player)
        if s.battle is not None:
            for mine, eng in zip([obs._s.battle.att, *obs._s.battle.defs], [s.battle.att, *s.battle.defs]):
                if eng.plan is None:
                    continue
                seen += 1
                plan = mine.plan
                assert plan is not eng.plan and isinstance(plan, gb.Plan)
                assert list(plan.hits) == list(eng.plan.hits) and list(plan.drown) == list(eng.plan.drown)
                assert type(plan.hits) is tuple and type(plan.drown) is tuple
                with pytest.raises(AttributeError):
                    plan.hits = ()
                again = observe(s, s.current_player)
                assert [c.plan for c in [again._s.battle.att, *again._s.battle.defs]][0] is obs._s.battle.att.plan
                back = pickle.loads(pickle.dumps(obs._s.clone()))
                assert type(back.battle.att.plan) is gb.Plan and back.battle.att.plan.hits == obs._s.battle.att.plan.hits
        E.apply_legal(s, BALANCED(obs, LegalActions.of(obs), rng), rng)
    assert seen > 10


def _grown_chain_loss(ch, pmf, n) -> float:
    """The luck yardstick as it was before `fight._KEPT`: grow the chain to k+n-1 hits and read its values."""
    ch.at(ch.k + n - 1)
    lost, k = ch.lost, ch.k
    base, last = lost[k], len(lost) - 1
    e = 0.0
    for h in range(1, n):
        e += pmf[h] * (base - lost[min(k + h, last)])
    return np.float64(e)


@pytest.mark.parametrize("casualty_choice", ["each_hit", "order"])
def test_the_remembered_luck_yardstick_equals_growing_the_chain_to_the_last_bit(casualty_choice):
    rules = dataclasses.replace(api.Rules(mode="free_for_all"), casualty_choice=casualty_choice)
    rng = np.random.default_rng(8)
    s = E.new_game(rules, rng)
    compared = 0
    for _ in range(4000):
        if s.is_terminal or compared > 60:
            break
        bt = s.battle
        if bt is not None and not bt.dungeon:
            for ch in [bt.att, *bt.defs]:
                for first in (True, False):
                    pmf = gb.hit_distribution([(ch.t, ch.army)], first)
                    n = len(pmf)
                    if n <= 1:
                        continue
                    got = F._expected_chain_loss(ch, pmf, n)
                    twin = E.ArmyChain.__new__(E.ArmyChain)
                    for name in E.ArmyChain.__slots__:
                        setattr(twin, name, getattr(ch, name))
                    twin.states, twin.lost, twin.healths = [gb.copy_army(st) for st in ch.states], ch.lost[:], ch.healths[:]
                    assert got == _grown_chain_loss(twin, pmf, n) and type(got) is np.float64
                    compared += 1
        obs = observe(s, s.current_player)
        E.apply_legal(s, BALANCED(obs, LegalActions.of(obs), rng), rng)
    assert compared > 20


@pytest.mark.parametrize("rules, seed, policy", [(api.Rules(mode="free_for_all"), 2, "balanced"),
                                                 (api.Rules(map="small"), 3, "random")])
def test_a_moves_legality_check_answers_what_the_listing_says(rules, seed, policy):
    """`terrain.move_able` (one destination looked up, not all listed): every Move the listing has is
    legal, and one more unit than able, or a region not reached, is not (units with different moves
    left at one region included)."""
    pol = POLICIES[policy]
    rng = np.random.default_rng(seed)
    s = E.new_game(rules, rng)
    checked = split = 0
    for _ in range(3000):
        if s.is_terminal:
            break
        if s.phase in (E.PH_MOVE, E.PH_REGROUP, E.PH_REINFORCE):
            legal = set(a for a in E.legal_actions(s) if type(a) is Move)
            for src, groups in s.mob.items():
                split += len({m for (u, m), c in groups.items() if c > 0 and m > 0}) > 1
                for unit in {s.tab.names[u] for (u, m), c in groups.items() if c > 0}:
                    for dst in range(s.board.n):
                        for count in (1, 2, 3):
                            a = Move(src, dst, unit, count)
                            assert E.is_legal(s, a) == (a in legal), a
                            checked += 1
        obs = observe(s, s.current_player)
        E.apply_legal(s, pol(obs, LegalActions.of(obs), rng), rng)
    assert checked > 1000 and split > 0


def test_the_enemy_strength_kept_by_region_equals_a_fresh_count_at_every_plan():
    pol = dataclasses.replace(BALANCED)
    rules = api.Rules(mode="free_for_all")
    rng = np.random.default_rng(12)
    s = E.new_game(rules, rng)
    caches = [SeatCaches() for _ in range(rules.players)]     # the seats' shared unit counts, as in play_game
    from_cache = 0
    for _ in range(1500):
        if s.is_terminal:
            break
        obs = observe(s, s.current_player, caches[s.current_player])
        kept = pol.odds_cache.powers.get((obs.friends(obs.realm), rules.battle))
        got = Planner(pol, obs, rng)._powers()
        fresh = Planner(dataclasses.replace(BALANCED), obs, rng)._powers()   # another policy: an empty cache
        assert got == fresh
        from_cache += kept is not None and any(a is b for a, b in zip(kept[0], obs.unit_counts))
        E.apply_legal(s, pol(obs, LegalActions.of(obs), rng), rng)
    assert from_cache > 100
