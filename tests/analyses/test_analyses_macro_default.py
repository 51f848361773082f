"""Nerath's default search: `ismcts:default` / `macro:default` resolve to the spec the game
declares (`nerathsim.SEARCH_DEFAULT`: the macro search at 16 rollouts over `tuned`'s plans, chosen so a
short game stays within 60 s of CPU, benchmarks/studies/bench_ismcts.py); options given after `default` override
the game's; a game without its own gets `macro:DEFAULT_ROLLOUTS` over its DEFAULT_POLICY."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import nerathsim
from analyses.games import resolve_policies
from analyses.search import MacroSearchPolicy, parse_macro
from analyses.search.ismcts import default_spec
from analyses.search.macro import DEFAULT_ROLLOUTS
from nerathsim import engine as E
from nerathsim import observe
from nerathsim.game import LegalActions
from nerathsim.rules import Rules
from nerathsim.scenario import build_state, region

#: the last round (round cap 1): a capture now is the only way to reach 13 VP before the game times out
LAST_ROUND = Rules(mode="free_for_all", max_rounds=1, events=False, dungeons=False)


def test_nerath_declares_a_16_rollout_search_over_tuned():
    spec = nerathsim.SEARCH_DEFAULT
    assert spec == "ismcts:16:base=tuned" and "tuned" in nerathsim.POLICIES
    assert default_spec(nerathsim) == default_spec("nerathsim") == spec
    p = resolve_policies(nerathsim, "ismcts:default,balanced,balanced,balanced", 4)[0]
    assert isinstance(p, MacroSearchPolicy) and p.name == "ismcts:default"
    assert dataclasses.replace(p, name=spec) == parse_macro(nerathsim, spec)
    assert (p.rollouts, p.base, p.rollout, p.cutoff, p.margin, p.z) == (16, "tuned", "tuned", 2, 0.0, 1.0)
    q = resolve_policies(nerathsim, ["macro:default", "balanced", "balanced", "balanced"], 4)[0]
    assert q.name == "macro:default" and dataclasses.replace(q, name=spec) == dataclasses.replace(p, name=spec)


def test_options_after_default_override_nerath_own():
    p = parse_macro(nerathsim, "ismcts:default:base=balanced:cutoff=3")
    assert (p.rollouts, p.base, p.rollout, p.cutoff, p.name) == (16, "balanced", "balanced", 3,
                                                                 "ismcts:default:base=balanced:cutoff=3")
    p = parse_macro(nerathsim, "macro:DEFAULT:rollout=balanced")
    assert (p.rollouts, p.base, p.rollout) == (16, "tuned", "balanced")


def test_a_game_without_its_own_default_gets_the_macro_search_defaults(monkeypatch):
    monkeypatch.delattr(nerathsim, "SEARCH_DEFAULT")
    p = parse_macro(nerathsim, "macro:default")
    assert dataclasses.replace(p, name="x") == MacroSearchPolicy("nerathsim", name="x")
    assert (p.rollouts, p.base) == (DEFAULT_ROLLOUTS, nerathsim.DEFAULT_POLICY) == (24, "balanced")


@pytest.mark.parametrize("spec,message", [
    ("ismcts:default:c=1.0", "bad option 'c=1.0'"), ("macro:default:cutoff=soon", "expects int"),
    ("ismcts:defaults", "positive integer"), ("macro:default:base=genius", "unknown base policy 'genius'"),
])
def test_a_bad_default_spec_is_a_clear_value_error(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve_policies(nerathsim, [spec, "balanced", "balanced", "balanced"], 4)


def _play_on(s, policies, rng):
    while not s.is_terminal:
        p = s.current_player
        obs = observe(s, p)
        E.apply_action(s, policies[p](obs, LegalActions.of(obs), rng), rng)
    return s


def test_the_default_search_finds_the_one_winning_plan_in_the_last_round():
    """Karkoth at 12 VP beside empty Seagate (1 VP) in the last round: a heuristic that keeps a unit in every
    region without a castle (`balanced`, hold_regions) holds Dreadgate and the game times out; only walking
    in wins. The default search over `balanced`'s plans takes it, and so does `tuned`, which leaves such
    regions free."""
    s = build_state(LAST_ROUND, units={"Dreadgate": {"karkoth": "1 footsoldier"}}, vp={"karkoth": 12},
                    realm="karkoth")
    balanced, tuned = nerathsim.BALANCED, nerathsim.POLICIES["tuned"]
    assert balanced.hold_regions and not tuned.hold_regions
    assert _play_on(s.clone(), [balanced] * 4, np.random.default_rng(0)).timed_out
    walked = _play_on(s.clone(), [tuned] + [balanced] * 3, np.random.default_rng(0))
    assert walked.winner == 0 and walked.vp[0] == 13
    search = parse_macro(nerathsim, "ismcts:default:base=balanced")
    probe = observe(s.clone(), 0)
    a = search(probe, LegalActions.of(probe), np.random.default_rng(2))
    assert a == nerathsim.Move(region(s, "Dreadgate"), region(s, "Seagate"), "footsoldier", 1)
    end = _play_on(s, [search] + [balanced] * 3, np.random.default_rng(3))
    assert end.winner == 0 and end.vp[0] == 13
