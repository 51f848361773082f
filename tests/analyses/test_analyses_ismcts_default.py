"""`ismcts:default`: a game's default search. dreamsim declares its own (`SEARCH_DEFAULT`,
the spec the paired benchmark benchmarks/studies/bench_dreamsim_paired.py measured best); a game without one
gets the ISMCTSPolicy defaults (`ismcts:100`). Options given after `default` override the game's."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import analyses
import dreamsim
import nightsim
from analyses.games import resolve_policies
from analyses.search import ISMCTSPolicy, parse_ismcts
from analyses.search.ismcts import DEFAULT_ITERATIONS, default_spec
from dreamsim.engine.scenario import build_state as dream_position
from dreamsim.policies.value import PlanValue


def test_dreamsim_declares_a_paired_top3_search_with_cut_off_tuned_rollouts():
    spec = dreamsim.SEARCH_DEFAULT
    assert default_spec(dreamsim) == default_spec("dreamsim") == spec
    p = resolve_policies(dreamsim, "ismcts:default,heuristic", 2)[0]
    assert p.name == "ismcts:default"
    assert dataclasses.replace(p, name=spec) == parse_ismcts(dreamsim, spec)
    assert (p.iterations, p.paired, p.z, p.topk, p.rollout, p.cutoff) == (200, True, 0.0, 3, "tuned", 6)
    assert isinstance(p.value, PlanValue)


def test_a_game_without_its_own_default_gets_the_policy_defaults():
    assert not hasattr(nightsim, "SEARCH_DEFAULT")
    assert default_spec(nightsim) == f"ismcts:{DEFAULT_ITERATIONS}"
    p = parse_ismcts(nightsim, "ismcts:default")
    assert dataclasses.replace(p, name="x") == ISMCTSPolicy("nightsim", name="x")
    assert p.iterations == DEFAULT_ITERATIONS == ISMCTSPolicy("nightsim").iterations


def test_options_after_default_override_the_games_own():
    p = parse_ismcts(dreamsim, "ismcts:default:topk=2:z=1.5")
    assert (p.topk, p.z, p.paired, p.rollout, p.iterations) == (2, 1.5, True, "tuned", 200)
    assert p.name == "ismcts:default:topk=2:z=1.5"
    assert parse_ismcts(dreamsim, "ismcts:DEFAULT").name == "ismcts:DEFAULT"


@pytest.mark.parametrize("spec,message", [
    ("ismcts:default:depth=3", "bad option"), ("ismcts:default:topk=x", "expects int"),
    ("ismcts:defaults", "positive integer"),
])
def test_a_bad_default_spec_is_a_clear_value_error(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve_policies(dreamsim, f"{spec},heuristic", 2)


def test_the_default_search_finds_the_one_winning_move():
    # seat 0 on the Bridge with a Midnight Star and one action left: only the Star wakes it
    s = dream_position(where=["Bridge", "Corridor 1"], hands=[["star", "walk", "walk", "vertigo", "walk"], []],
                       actions_left=1)
    legal = dreamsim.legal_actions(s)
    win = []
    for a in legal:
        t = s.clone()
        dreamsim.apply_action(t, a, np.random.default_rng(0))
        if t.is_terminal and t.winner == 0:
            win.append(a)
    assert len(win) == 1 and len(legal) >= 4
    policy = parse_ismcts(dreamsim, "ismcts:default")
    for seed in range(3):
        assert policy(dreamsim.observe(s, 0), legal, np.random.default_rng(seed)) == win[0]


def test_a_game_with_the_default_search_is_deterministic_and_labelled_as_given():
    runs = [analyses.simulate("dreamsim", 1, rules={"players": 2}, policies="ismcts:default:cutoff=4,heuristic",
                              seed=3, progress=False) for _ in range(2)]
    assert runs[0].equals(runs[1])
    assert set(runs[0]["seat0_policy"]) | set(runs[0]["seat1_policy"]) == {"ismcts:default:cutoff=4", "heuristic"}
