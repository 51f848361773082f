"""`dreamsim.policies.value.PlanValue`, the plan-cost value estimate a search may cut its rollouts off
with (`ismcts:N:cutoff=K:value=plan`): exact costs and rewards of hand-built positions,
a finished game's true rewards, and its use by name from a policy list."""
from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import analyses
import dreamsim
import nightsim
from analyses.games import resolve_policies
from dreamsim.engine.scenario import build_state
from dreamsim.policies.value import BETA, TEMPO, PlanValue


def _softmax(logits):
    e = [math.exp(x) for x in logits]
    return [x / sum(e) for x in e]


def test_costs_are_the_actions_each_seat_needs_and_the_rewards_their_softmax():
    # seat 0 stands on the Bridge with a Midnight Star (1 action: play it); seat 1 in Corridor 1
    # with an empty hand (the heuristics' plan cost 7: walks and a Star it must still draw)
    s = build_state(where=["Bridge", "Corridor 1"], hands=[["star", "walk", "walk", "vertigo", "walk"], []],
                    actions_left=1)
    v = PlanValue(beta=0.5, tempo=0.25)
    assert v.costs(s) == [1.0, 7.0]
    assert v(s) == pytest.approx(_softmax([-0.5 * 1 + 0.25, -0.5 * 7]))
    assert PlanValue()(s) == pytest.approx(_softmax([-BETA * 1 + TEMPO, -BETA * 7]))
    flat = PlanValue(beta=0.0, tempo=0.0)(s)
    assert flat == pytest.approx([0.5, 0.5])


def test_the_seat_nearer_its_goal_is_valued_higher_whoever_moves():
    near = build_state(where=["Bridge", "Corridor 1"], hands=[["star"], ["walk"]], turn_player=1)
    far = build_state(where=["Corridor 1", "Bridge"], hands=[["walk"], ["star"]], turn_player=1)
    v = PlanValue()
    assert v(near)[0] > 0.5 > v(far)[0]
    assert sum(v(near)) == pytest.approx(1.0) and sum(v(far)) == pytest.approx(1.0)


def test_a_finished_game_is_valued_by_its_winner():
    s = build_state(where=["Bridge", "Corridor 1"], hands=[["star", "walk", "walk", "vertigo", "walk"], []],
                    actions_left=1)
    star = next(a for a in dreamsim.legal_actions(s) if type(a) is dreamsim.Star)
    dreamsim.apply_action(s, star, np.random.default_rng(0))
    assert s.is_terminal and s.winner == 0
    assert PlanValue()(s) == [1.0, 0.0]


def test_a_pickled_estimate_is_equal_and_values_alike_without_its_caches():
    s = build_state(where=["Bridge", "Corridor 1"], hands=[["star"], ["walk"]])
    v = PlanValue(beta=0.3, tempo=0.1)
    before = v(s)
    w = pickle.loads(pickle.dumps(v))
    assert w == v and w(s) == before and w._tables[2] is not v._tables[2]


def test_a_bad_beta_is_refused():
    with pytest.raises(ValueError, match="beta must be >= 0"):
        PlanValue(beta=-1.0)


def test_value_by_name_in_a_search_spec():
    p = resolve_policies(dreamsim, "ismcts:8:cutoff=3:value=plan,heuristic", 2)[0]
    assert isinstance(p.value, PlanValue) and p.cutoff == 3
    assert repr(p).endswith("value=plan)")
    q = resolve_policies(dreamsim, "ismcts:8:cutoff=3:value=plan,heuristic", 2)[0]
    assert q.value is not p.value and q.value == p.value and q == p   # every search owns its estimate's caches
    assert PlanValue(beta=0.2) != PlanValue(beta=0.3) and hash(PlanValue()) == hash(PlanValue())
    with pytest.raises(ValueError, match="unknown value estimate 'nope'"):
        resolve_policies(dreamsim, "ismcts:8:value=nope,heuristic", 2)
    with pytest.raises(ValueError, match="known: none"):
        resolve_policies(nightsim, "ismcts:8:value=plan,greedy", 2)


def test_a_cut_off_search_game_is_deterministic_for_its_seed():
    spec = "ismcts:6:paired=1:z=0:topk=3:rollout=tuned:cutoff=4:value=plan"
    runs = [analyses.simulate("dreamsim", 1, rules={"players": 2}, policies=f"{spec},heuristic", seed=2,
                              progress=False) for _ in range(2)]
    assert runs[0].equals(runs[1])
