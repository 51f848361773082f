"""The macro search's skipped rollouts: a rollout that cannot change the choice is left out, and the
search chooses exactly as it does playing every rollout (the same choice, the generator left in the
same place, the same games)."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import nerathsim
from analyses.games import resolve_policies
from analyses.search import MacroSearchPolicy, parse_macro
from analyses.search.macro import _best_final_score, _schedule
from nerathsim import engine as E
from nerathsim import observe
from nerathsim.game import LegalActions
from nerathsim.rules import Rules


def _passes(d, margin, z) -> bool:
    """The search's final test on paired differences `d`, as `choose` computes it."""
    d = np.asarray(d, dtype=float)
    gain = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else 0.0
    return gain > margin + z * se and gain > 0.0


def test_the_bound_never_says_no_to_values_that_would_pass():
    """Over every sequence of further differences on a grid (the values a rollout gives: rank shares in
    sixths and twelfths), whenever one passes the final test, the bound is above the slack."""
    grid = sorted({a - b for a in np.arange(13) / 12 for b in np.arange(13) / 12})
    rng = np.random.default_rng(5)
    for _ in range(80):
        k = int(rng.integers(0, 4))
        d = list(rng.choice(grid, size=k))
        more = int(rng.integers(1, 3))
        margin, z = float(rng.choice([0.0, 0.05])), float(rng.choice([0.0, 1.0, 2.0]))
        bound = _best_final_score(d, more, -1.0, 1.0, margin, z)
        if any(_passes(d + list(x), margin, z) for x in itertools.product(grid, repeat=more)):
            assert bound > -1e-9, (d, more, margin, z)


def test_the_bound_by_hand():
    # one difference of -1 so far, one to come: mean (t - 1) / 2 never beats its SE |t + 1| / 2
    assert _best_final_score([-1.0], 1, -1.0, 1.0, 0.0, 1.0) == pytest.approx(-1.0)
    # one of +0.5 so far: another +0.5 passes (gain 0.5, SE 0)
    assert _best_final_score([0.5], 1, -1.0, 1.0, 0.0, 1.0) == pytest.approx(0.5)
    # z = 0: the mean alone; one value to come at most 1 -> (0 + 1) / 2
    assert _best_final_score([0.0], 1, -1.0, 1.0, 0.1, 0.0) == pytest.approx(0.4)
    # the last difference known to lie in [-0.75, 0.25] (the heuristic's rollout scored 0.75)
    assert _best_final_score([0.25], 1, -0.75, 0.25, 0.0, 1.0) == pytest.approx(0.25)


@pytest.mark.parametrize("K,rollouts,plan", [
    (2, 4, [(2, 2)]), (3, 4, [(3, 1), (2, 1)]), (7, 4, [(7, 1), (4, 1), (2, 1)]),
    (6, 24, [(6, 1), (3, 3), (2, 4)]), (5, 40, [(5, 2), (3, 5), (2, 7)]),
])
def test_the_schedule_is_sequential_halvings(K, rollouts, plan):
    assert _schedule(K, rollouts) == plan


def _positions(seed: int, want: int) -> list:
    """Mid-game decisions of `tuned` with more than one candidate (a state to observe at each)."""
    rules = Rules(mode="free_for_all")
    s = nerathsim.new_game(rules, seed)
    rng = np.random.default_rng(seed)
    tuned = nerathsim.POLICIES["tuned"]
    out = []
    while len(out) < want and not s.is_terminal:
        p = s.current_player
        obs = observe(s, p)
        legal = LegalActions.of(obs)
        if len(nerathsim.macro_candidates(tuned, obs, legal, np.random.default_rng(0))) > 1:
            out.append(s.clone())
        E.apply_action(s, tuned(obs, legal, rng), rng)
    return out


def test_skipping_chooses_as_playing_every_rollout_does():
    skipped = 0
    for s in _positions(3, 6):
        p = s.current_player
        made = []
        for skip in (True, False):
            search = MacroSearchPolicy("nerathsim", rollouts=4, base="tuned", cutoff=1, skip=skip)
            obs = observe(s.clone(), p)
            rng = np.random.default_rng(17)
            cands = nerathsim.macro_candidates(nerathsim.POLICIES["tuned"], obs, LegalActions.of(obs), rng)
            best, means = search.choose(obs, cands, rng)
            made.append((best, int(rng.integers(2**63)), search.stats))
        (best, after, stats), (best0, after0, stats0) = made
        assert (best, after) == (best0, after0)
        assert stats["rollouts"] + stats["skipped"] == stats0["rollouts"] and stats0["skipped"] == 0
        assert stats0["rollouts"] == sum(a * n for a, n in _schedule(len(cands), 4))
        skipped += stats["skipped"]
    assert skipped > 0


def test_a_game_is_the_same_with_and_without_skipping():
    rules = Rules(mode="free_for_all", max_rounds=1)
    games = []
    for spec in ("macro:4:base=tuned:cutoff=1", "macro:4:base=tuned:cutoff=1:skip=0"):
        pols = resolve_policies(nerathsim, [spec, "tuned", "tuned", "tuned"], 4)
        games.append(nerathsim.play_game(rules, pols, seed=7, record=True))
    assert games[0].to_record() | {"seat0_policy": ""} == games[1].to_record() | {"seat0_policy": ""}
    assert games[0].log == games[1].log


def test_skip_is_an_option():
    assert parse_macro(nerathsim, "macro:4:skip=0").skip is False
    assert parse_macro(nerathsim, "macro:4").skip is True
    assert "skip=False" in repr(parse_macro(nerathsim, "macro:4:skip=no"))
    assert "skip" not in repr(parse_macro(nerathsim, "macro:4"))
    with pytest.raises(ValueError, match="option skip expects flag, got 'maybe'"):
        parse_macro(nerathsim, "macro:4:skip=maybe")
    with pytest.raises(ValueError, match="skip must be True or False"):
        MacroSearchPolicy("nerathsim", skip=1)


def _press_position():
    """A position at a press-or-retreat decision with two candidates (from a `tuned` game)."""
    rules = Rules(mode="free_for_all")
    tuned = nerathsim.POLICIES["tuned"]
    for seed in range(1, 6):
        s = nerathsim.new_game(rules, seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            obs = observe(s, s.current_player)
            legal = LegalActions.of(obs)
            if s.phase == E.PH_PRESS and len(nerathsim.macro_candidates(tuned, obs, legal, rng)) == 2:
                return s
            E.apply_action(s, tuned(obs, legal, rng), rng)
    raise AssertionError("no press-or-retreat decision with two candidates in seeds 1-5")


def test_steps_off_leaves_press_or_retreat_to_the_heuristic():
    s = _press_position()
    p = s.current_player
    tuned = nerathsim.POLICIES["tuned"]
    obs = observe(s.clone(), p)
    own = tuned(obs, LegalActions.of(obs), np.random.default_rng(0))
    off = MacroSearchPolicy("nerathsim", rollouts=4, base="tuned", cutoff=1, steps=False)
    obs = observe(s.clone(), p)
    assert off(obs, LegalActions.of(obs), np.random.default_rng(0)) == own
    assert off.stats["rollouts"] == 0
    on = MacroSearchPolicy("nerathsim", rollouts=4, base="tuned", cutoff=1)
    obs = observe(s.clone(), p)
    on(obs, LegalActions.of(obs), np.random.default_rng(0))
    assert on.stats["rollouts"] >= 2                 # searched: at least one sample of both alternatives
    assert parse_macro(nerathsim, "macro:4:steps=0").steps is False and "steps=False" in repr(off)
