"""The compiled heuristic of the dreamsim batch kernel (dreamsim/kernel_heur*.py, issue 16 item 2)
against `HeuristicPolicy`, the reference: at every decision of engine games played by the Python
heuristic, the kernel gives every legal action the same score and plays the same action (the
tie-break aside: the same set of best actions); at hand-built positions both play the expected
action; and whole kernel games have the engine's distribution of every per-game statistic over
fixed seeds (|difference of means| < 4 standard errors). The first test to run compiles the kernel
(or loads it from numba's cache)."""
import dataclasses
from collections import Counter

import numpy as np
import pytest

import analyses
import dreamsim
from dreamsim import kernel_bridge as KB
from dreamsim import kernel_layout as K
from dreamsim.actions import ALLOW, CANCEL, STAR, Allow
from dreamsim.engine import apply_legal, new_game
from dreamsim.kernel import KERNEL, weights_row
from dreamsim.kernel_heur_play import heur_scores_top
from dreamsim.observation import observe
from dreamsim.policies import POLICIES, HeuristicPolicy, Weights, with_params
from dreamsim.policy_scoring import _SCORE, _Context
from dreamsim.scenario import build_state, step

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


def _along_python_games(rules, policy, seeds, kinds):
    """Play engine games with `policy` in every seat; check the kernel at every decision with two
    or more actions. Returns (decisions checked, decisions where the dig of a stuck plan was forced)."""
    checked = forced = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        chance = np.random.default_rng(seed + 100)
        s = new_game(rules, chance)
        while not s.is_terminal:
            legal = tuple(s.legal)
            if len(legal) >= 2:
                why = agree(s, policy)
                assert why is None, (rules, policy.name, seed, s.decisions, s.decision, why)
                checked += 1
                kinds[s.decision] += 1
                forced += kernel_scores(s, policy)[1] is not None
            a = policy(observe(s, s.current_player), legal, rng)
            apply_legal(s, a, chance)
    return checked, forced


@pytest.mark.parametrize("players, name, change, seeds", [
    (4, "heuristic", {}, range(10)),
    (2, "tuned", {}, range(20)),
    (3, "trickster", {}, range(5)),
    (5, "horror", {}, range(3)),
    (6, "runner", {}, range(3)),
    (3, "heuristic", {"discard_action": False, "hand_size": 6}, range(4)),
    (4, "tuned", {"layout": ("R B T F .", "C S M C .", "C C* C C ."), "multicolour_actions": 4}, range(4)),
    (2, "heuristic", {"layout": ("R1 B2 T F3", "C S M1 C", "C C C* C2")}, range(10)),
])
def test_the_kernel_scores_and_chooses_like_the_python_heuristic_along_its_games(players, name, change, seeds):
    rules = dataclasses.replace(dreamsim.Rules(players=players), **change)
    kinds = Counter()
    checked, forced = _along_python_games(rules, POLICIES[name], seeds, kinds)
    assert checked > 20 * len(seeds)              # 25-150 decisions with a choice per game
    if players == 4 and not change:
        assert len(kinds) >= 12, kinds            # most kinds of decision were met
        assert forced > 0                         # and the dig of a stuck plan


def test_swept_weights_score_alike():
    policy = with_params(POLICIES["heuristic"], {"weights.hinder": 7.5, "weights.need_walk": 0.25,
                                                 "weights.avoid_horror": 12.0, "weights.dig": 2.0,
                                                 "weights.block_walk": 4.0, "weights.star_value": 9.0})
    checked, _ = _along_python_games(R4, policy, range(4), Counter())
    assert checked > 150


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


# ------------------------------------------------------------------ equal distributions
def _columns(records):
    """Every numeric per-game statistic, plus indicator columns for the winner by seat, the
    Horror's seat and the timeout cause."""
    cols = {}
    n = sum(1 for k in records[0] if k.endswith("_policy"))
    for key, value in records[0].items():
        if isinstance(value, (bool, int)) and not key.endswith("_score") and key not in ("winner", "horror_seat"):
            cols[key] = np.array([float(r[key]) for r in records])
    for i in range(n):
        cols[f"winner=={i}"] = np.array([r["winner"] == i for r in records], dtype=float)
        cols[f"horror_seat=={i}"] = np.array([r["horror_seat"] == i for r in records], dtype=float)
    for cause in dreamsim.game.TIMEOUT_CAUSES:
        cols[f"timeout_cause=={cause}"] = np.array([r["timeout_cause"] == cause for r in records], dtype=float)
    return cols


@pytest.mark.parametrize("players, policies, engine_games", [
    (4, ["heuristic"] * 4, 400),
    (3, ["tuned", "random", "trickster"], 300),
])
def test_every_per_game_statistic_has_the_engines_distribution(players, policies, engine_games):
    rules = dreamsim.Rules(players=players)
    engine = _columns([dreamsim.play_game(rules, policies, seed=s).to_record() for s in range(engine_games)])
    kernel = _columns(KERNEL.play_batch(rules, policies, range(50_000, 56_000)))
    assert engine.keys() == kernel.keys()
    for key, e in engine.items():
        k = kernel[key]
        se = np.sqrt(np.concatenate([e, k]).var(ddof=1) * (1 / len(e) + 1 / len(k)))
        diff = abs(e.mean() - k.mean())
        if se == 0:
            assert diff == 0, key
        else:
            assert diff < 4 * se, (key, e.mean(), k.mean(), se)


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
    seeds = [7, 2 ** 62 + 1, 0, 2 ** 70]
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
