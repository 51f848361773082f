"""The game loop's planned path: at the later decisions of a phase the built-in war
heuristic has planned (movement, regroup, buy, reinforce), `play_game` asks `WarPolicy.planned` with the
engine's own rule check instead of building an observation, and the game is the same.

- games (records and event logs) equal the games played with every decision asked through an
  observation, over seeds, both modes and line-ups mixing every built-in policy;
- the path is taken (most planned decisions build no observation) and only for the exact class: a
  subclass is asked at every decision;
- `planned` answers what `__call__` answers from the observation, at every planned decision of seeded
  games, and the engine's check on the live state says what `action in legal` says on the public copy;
- `planned` by hand: another phase's plan is not followed, illegal actions are dropped, a used-up plan
  gives None.
"""
from __future__ import annotations

import copy
import dataclasses
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerathsim as api
from nerathsim import engine as E
from nerathsim import game as G
from nerathsim.game import LegalActions
from nerathsim.game_actions import EndPhase, Move
from nerathsim.phases import PHASES
from nerathsim.policies import BALANCED, POLICIES, WarPolicy
from nerathsim.policies.war import PLANNED
from nerathsim.public_copy import SeatCaches

FFA = api.Rules(mode="free_for_all")
ALLY = api.Rules()


def _game(rules, line_up, seed):
    r = api.play_game(rules, line_up, seed, record=True)
    return r.to_record(), r.log


def _asked_always(monkeypatch):
    """Turn the planned path off: every decision asked through an observation, as before it existed."""
    monkeypatch.setattr(G, "_planned", lambda policy, s, p: None)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), ffa=st.booleans(),
       line_up=st.sampled_from([["balanced"] * 4, ["aggressive", "defensive", "balanced", "tuned"],
                                ["random", "balanced", "tuned", "balanced"]]))
def test_games_equal_the_games_asked_through_observations(monkeypatch, seed, ffa, line_up):
    line_up = [p for p in line_up if p in POLICIES] + ["balanced"] * sum(p not in POLICIES for p in line_up)
    rules = FFA if ffa else ALLY
    fast = _game(rules, line_up, seed)
    with monkeypatch.context() as m:
        _asked_always(m)
        slow = _game(rules, line_up, seed)
    assert fast == slow


def _count_observations(monkeypatch) -> list:
    made = [0]
    real = G.Observation

    def counting(*args, **kwargs):
        made[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(G, "Observation", counting)
    return made


def test_the_path_is_taken_for_war_policies_and_only_for_the_exact_class(monkeypatch):
    made = _count_observations(monkeypatch)
    r = api.play_game(FFA, ["balanced"] * 4, 3)
    assert made[0] < 0.7 * r.decisions              # about half the decisions follow a plan

    class Cautious(WarPolicy):                       # a subclass may decide otherwise: always asked
        pass

    sub = Cautious(name="balanced")
    made[0] = 0
    again = api.play_game(FFA, [sub] * 4, 3)
    assert made[0] == again.decisions
    assert again.to_record() == r.to_record()         # the same numbers play the same game


def test_planned_answers_what_the_policy_answers_and_the_engine_check_equals_the_copys():
    pol = dataclasses.replace(BALANCED)
    rng = np.random.default_rng(5)
    for rules, seed in ((FFA, 21), (ALLY, 22)):
        chance = np.random.default_rng(seed)
        s = E.new_game(rules, chance)
        caches = [SeatCaches() for _ in range(4)]
        compared = 0
        while not s.is_terminal and s.decisions < 700:
            p = s.current_player
            ph = PHASES[s.phase]
            obs = G.Observation(s, p, caches[p])
            legal = LegalActions.of(obs)
            plan = s.memo[p].get("plan")
            if ph in PLANNED and plan is not None and plan[0] == pol.plan_key(obs):
                # every action left in the plan: the live check says what the copy's `in` says
                assert all(E.is_legal(s, a) == (a in legal) for a in plan[1])
                memo = copy.deepcopy(s.memo[p])
                got = pol.planned(memo, (s.turns, ph, s.decider), lambda a: E.is_legal(s, a))
                expected = pol(obs, legal, rng)
                assert got == expected or (got is None and expected in (EndPhase(), legal[0]))
                assert memo["plan"][1] == s.memo[p]["plan"][1]   # the same actions dropped
                compared += 1
                a = expected
            else:
                a = pol(obs, legal, rng)
            E.apply_legal(s, a, chance)
        assert compared > 50


def test_planned_by_hand():
    pol = BALANCED
    key = (4, PHASES[E.PH_MOVE], 2)
    assert pol.planned({}, key, lambda a: True) is None
    memo = {"plan": ((3, PHASES[E.PH_MOVE], 2), deque(["x"]), 0)}
    assert pol.planned(memo, key, lambda a: True) is None and list(memo["plan"][1]) == ["x"]   # untouched
    memo = {"plan": (key, deque(["bad", "worse", "good", "later"]), 0)}
    assert pol.planned(memo, key, lambda a: a in ("good", "later")) == "good"
    assert list(memo["plan"][1]) == ["later"]
    assert pol.planned(memo, key, lambda a: False) is None and not memo["plan"][1]


@pytest.mark.parametrize("name", ["balanced", "aggressive", "defensive"])
def test_builtin_heuristics_are_war_policies_of_the_exact_class(name):
    assert type(POLICIES[name]) is WarPolicy


def test_the_game_loops_planned_path_drops_what_the_engine_finds_illegal():
    """Seeded plans are legal at their turn almost always; a plan adopted from elsewhere (a search's) may
    not be: `game._planned` checks each action with the engine's rule check and skips the illegal ones."""
    chance, rng = np.random.default_rng(3), np.random.default_rng(4)
    s = E.new_game(FFA, chance)
    while PHASES[s.phase] is not PHASES[E.PH_MOVE]:      # the first realm's event cards, then its movement
        obs = G.Observation(s, s.current_player)
        E.apply_legal(s, BALANCED(obs, LegalActions.of(obs), rng), chance)
    p, me = s.current_player, s.decider
    legal = E.legal_actions(s)
    good = next(a for a in legal if type(a) is Move)
    bad = [Move(good.src, good.dst, good.unit, good.count + 99), Move(-1, 0, good.unit, 1), "nonsense"]
    assert not any(E.is_legal(s, a) for a in bad)
    later = [a for a in legal if type(a) is Move and a != good][:1]
    BALANCED.adopt_plan(G.Observation(s, p), [*bad, good, *later])
    assert G._planned(BALANCED, s, p) == good
    assert list(s.memo[p]["plan"][1]) == later
    BALANCED.adopt_plan(G.Observation(s, p), bad)
    assert G._planned(BALANCED, s, p) is None and not s.memo[p]["plan"][1]   # used up: the policy is asked
    assert me == s.decider
