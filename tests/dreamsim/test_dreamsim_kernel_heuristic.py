"""The compiled heuristic of the dreamsim batch kernel (dreamsim/kernel_heur*.py) against
`HeuristicPolicy`, the reference, at hand-built positions: the same scores and the same action;
and the kernel's hook (which policies it plays, batches, analyses' engine="auto"). Whole games,
record for record, are in test_dreamsim_kernel_equality.py. The first test to run compiles the
kernel (or loads it from numba's cache)."""
import dataclasses

import numpy as np
import pytest

import analyses
import dreamsim
from dreamsim.engine.actions import ALLOW, CANCEL, STAR, Allow
from dreamsim.engine.observation import observe
from dreamsim.engine.scenario import build_state, step
from dreamsim.kernel import bridge as KB
from dreamsim.kernel import layout as K
from dreamsim.kernel.heur_play import heur_scores_top
from dreamsim.kernel.play_batch import KERNEL, weights_row
from dreamsim.policies.policies import POLICIES, HeuristicPolicy, Weights
from dreamsim.policies.scoring import _SCORE, _Context

R2 = dreamsim.Rules(players=2)
R4 = dreamsim.Rules(players=4)


class Fixed:
    """A stand-in for a policy's Generator: random() always gives `u` (the tie-break's position)."""

    def __init__(self, u):
        self.u = u

    def random(self):
        return self.u


def python_scores(policy, obs, legal):
    """HeuristicPolicy.__call__'s score of each legal action."""
    if type(legal[-1]) is Allow:
        score = policy._reaction_scorer(obs)
        return [score(a) for a in legal]
    ctx = _Context(obs, policy.weights, *policy._tables)
    return [_SCORE[type(a)](ctx, a) for a in legal]


def kernel_scores(s, policy):
    """({engine action: the kernel's score}, the action it must play whatever the tie-break or None)."""
    M = KB.from_state(s)
    out = np.zeros(K.ACTS_CAP)
    n, forced = heur_scores_top(M, weights_row(policy), out)
    rows = M[K.O_ACTS:K.O_ACTS + K.ACTS_W * n].reshape(n, K.ACTS_W)
    acts = [KB._TO_ENGINE[int(r[K.AC_CODE])](int(r[K.AC_A]), int(r[K.AC_B])) for r in rows]
    return dict(zip(acts, out[:n].tolist())), (acts[forced] if forced >= 0 else None)


def agree(s, policy) -> str | None:
    """None when the kernel scores and chooses like `policy` at s's decision, else what differs."""
    legal = tuple(s.legal)
    obs = observe(s, s.current_player)
    ks, forced = kernel_scores(s, policy)
    ps = dict(zip(legal, python_scores(policy, obs, legal)))
    if set(ks) != set(ps):
        return f"legal actions {sorted(map(repr, ks))} != {sorted(map(repr, ps))}"
    diff = [(a, ps[a], ks[a]) for a in legal if abs(ps[a] - ks[a]) > 1e-9]
    if diff:
        return f"scores {diff}"
    first, last = policy(obs, legal, Fixed(0.0)), policy(obs, legal, Fixed(1 - 1e-12))
    if forced is not None:
        return None if first == last == forced else f"forced {forced!r}, Python {first!r} / {last!r}"
    top = max(ks.values())
    best = {a for a, v in ks.items() if v == top}
    return None if first in best and last in best else f"best {best}, Python {first!r} / {last!r}"


# ------------------------------------------------------------------ hand-built positions
def test_waking_on_the_bridge_is_played_in_both():
    s = build_state(R2, where=["Bridge", "Corridor 1"], hands=[["star", "walk", "vertigo"], ["walk"]])
    policy = POLICIES["heuristic"]
    assert agree(s, policy) is None
    scores, forced = kernel_scores(s, policy)
    assert forced is None and max(scores, key=scores.get) == STAR and scores[STAR] == policy.weights.win
    assert policy(observe(s, 0), tuple(s.legal), Fixed(0.0)) == STAR


def test_a_rivals_waking_is_cancelled_in_both():
    s = build_state(R2, where=["Bridge", "Corridor 1"], hands=[["star", "walk"], ["dutch", "walk"]])
    step(s, STAR)                                    # seat 1 is asked whether to cancel
    assert s.current_player == 1 and set(s.legal) == {CANCEL, ALLOW}
    policy = POLICIES["heuristic"]
    assert agree(s, policy) is None
    scores, _ = kernel_scores(s, policy)
    w = policy.weights
    assert scores == {CANCEL: w.block - w.respond_cost, ALLOW: 0.0}


# ------------------------------------------------------------------ the hook
def test_the_kernel_plays_every_heuristic_policy_and_refuses_others():
    for name in ("heuristic", "runner", "trickster", "horror", "tuned"):
        assert KERNEL.supports(R4, [name] * 4)
    assert KERNEL.supports(R4, [HeuristicPolicy(Weights(hinder=1.5)), "random", POLICIES["tuned"], "heuristic"])

    class Mine(HeuristicPolicy):   # a subclass may score differently: no kernel
        pass

    assert "mine" in KERNEL.refusal(R4, [Mine(name="mine")] + ["heuristic"] * 3)
    quarter = dataclasses.replace(R4, vertigo_rotation="quarter")
    assert "vertigo_rotation" in KERNEL.refusal(quarter, ["heuristic"] * 4)
    with pytest.raises(ValueError, match="Rules.vertigo_rotation.*Reproduce with"):
        KERNEL.play_batch(quarter, ["heuristic"] * 4, [1])


def test_a_heuristic_game_is_a_function_of_its_seed_and_lineup_not_of_its_batch():
    seeds = [7, 2 ** 62 + 1, 0, 2 ** 64 - 1]
    lineups = [("heuristic",) * 4, ("tuned", "random", "heuristic", "random"), ("random",) * 4, ("heuristic",) * 4]
    together = KERNEL.play_batch(R4, lineups, seeds)
    alone = [KERNEL.play_batch(R4, [lineup], [s])[0] for lineup, s in zip(lineups, seeds)]
    assert together == alone
    assert together[1]["seat0_policy"] == "tuned" and together[1]["seat1_policy"] == "random"
    assert together[2] == KERNEL.play_batch(R4, ["random"] * 4, [0])[0]   # all-random games: the random kernel


def test_analyses_auto_runs_the_heuristic_in_the_kernel():
    df = analyses.simulate("dreamsim", 8, policies="heuristic", seed=2, engine="auto", progress=False)
    assert df.attrs["engine"] == "kernel" and len(df) == 8
    quarter = analyses.simulate("dreamsim", 4, policies="heuristic", rules={"vertigo_rotation": "quarter"}, seed=2,
                                engine="auto", progress=False)
    assert quarter.attrs["engine"] == "python"
