"""IS-MCTS options `topk` (the root restricted to the rollout policy's best-scored actions) and
`eps` (epsilon-noisy rollouts): they parse, refuse bad values clearly, keep the
one winning move of a hand-built position, and leave a game deterministic for its seed."""
from __future__ import annotations

import numpy as np
import pytest

import analyses
import dreamsim
from analyses.games import resolve_policies
from analyses.search import ISMCTSPolicy, parse_ismcts
from dreamsim.engine.scenario import build_state as dream_position


def _dream_one_winning_move():
    """Seat 0 on the Bridge with a Midnight Star and one action left: only the Star wakes it."""
    return dream_position(where=["Bridge", "Corridor 1"], hands=[["star", "walk", "walk", "vertigo", "walk"], []],
                          actions_left=1)


def _winners(s):
    out = []
    for a in dreamsim.legal_actions(s):
        t = s.clone()
        dreamsim.apply_action(t, a, np.random.default_rng(0))
        if t.is_terminal and t.winner == s.current_player:
            out.append(a)
    return out


def test_options_parse_and_are_named_in_the_repr():
    p = resolve_policies(dreamsim, "ismcts:40:paired=1:z=0:topk=3:eps=0.1:rollout=tuned,heuristic", 2)[0]
    assert (p.topk, p.eps, p.rollout, p.paired, p.z) == (3, 0.1, "tuned", True, 0.0)
    assert repr(p).endswith("paired=True, z=0.0, topk=3, eps=0.1)")
    assert parse_ismcts(dreamsim, "ismcts:5").topk == 0 and parse_ismcts(dreamsim, "ismcts:5").eps == 0.0


@pytest.mark.parametrize("spec,message", [
    ("ismcts:5:topk=-1", "topk must be a non-negative integer"), ("ismcts:5:topk=x", "expects int"),
    ("ismcts:5:eps=1.5", r"eps must be in \[0, 1\]"), ("ismcts:5:eps=-0.1", r"eps must be in \[0, 1\]"),
    ("ismcts:5:topk=2:rollout=random", "action_scores"),
])
def test_a_bad_option_is_a_clear_value_error(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve_policies(dreamsim, f"{spec},heuristic", 2)


def test_candidates_are_the_heuristics_top_k_and_keep_its_choice():
    s = dreamsim.new_game(dreamsim.Rules(players=2), 7)
    legal = tuple(dreamsim.legal_actions(s))
    obs = dreamsim.observe(s, s.current_player)
    heuristic = dreamsim.POLICIES["heuristic"]
    scores = heuristic.action_scores(obs, legal)
    assert len(scores) == len(legal) > 3
    policy = ISMCTSPolicy("dreamsim", iterations=10, topk=3)
    cands = policy.candidates(obs, legal)
    assert len(cands) == 3 and all(a in legal for a in cands)
    kept = sorted(scores[legal.index(a)] for a in cands)
    dropped = [sc for a, sc in zip(legal, scores) if a not in cands]
    assert kept[0] >= max(dropped)
    choice = heuristic(obs, legal, np.random.default_rng(0))
    worst = min(range(len(legal)), key=lambda i: (scores[i], -i))
    assert legal[worst] in policy.candidates(obs, legal, hint=legal[worst])  # the hint is always kept
    assert len(policy.candidates(obs, legal, hint=choice)) == 3
    assert ISMCTSPolicy("dreamsim", iterations=10, topk=len(legal)).candidates(obs, legal) == list(legal)


@pytest.mark.parametrize("paired", [False, True])
def test_topk_search_finds_the_one_winning_move(paired):
    s = _dream_one_winning_move()
    legal = dreamsim.legal_actions(s)
    win = _winners(s)
    assert len(win) == 1 and len(legal) >= 3
    policy = ISMCTSPolicy("dreamsim", iterations=40, topk=2, eps=0.2, paired=paired, z=0.0)
    assert win[0] in policy.candidates(dreamsim.observe(s, 0), legal)
    for seed in range(3):
        assert policy(dreamsim.observe(s, 0), legal, np.random.default_rng(seed)) == win[0]


def test_a_game_with_the_options_is_deterministic_for_its_seed():
    spec = "ismcts:6:paired=1:z=0:topk=3:eps=0.1:cutoff=20:rollout=tuned"
    runs = [analyses.simulate("dreamsim", 1, rules={"players": 2}, policies=f"{spec},heuristic", seed=4,
                              progress=False) for _ in range(2)]
    assert runs[0].equals(runs[1])
    assert set(runs[0]["seat0_policy"]) | set(runs[0]["seat1_policy"]) == {spec, "heuristic"}


def test_action_scores_are_what_the_heuristic_maximises():
    """Along a played game, the heuristic's choice has the best score of `action_scores`, except
    when it digs (a stuck plan plays its best discard or card play instead of passing)."""
    rules = dreamsim.Rules(players=2)
    heuristic = dreamsim.POLICIES["heuristic"]
    checked = digs = 0
    for seed in range(3, 9):
        s = dreamsim.new_game(rules, seed)
        chance = np.random.default_rng(seed)
        while not s.is_terminal:
            legal = tuple(dreamsim.legal_actions(s))
            obs = dreamsim.observe(s, s.current_player)
            a = heuristic(obs, legal, np.random.default_rng(checked))
            if len(legal) > 1:
                scores = heuristic.action_scores(obs, legal)
                best = max(scores)
                top = [x for x, sc in zip(legal, scores) if sc == best]
                if a in top:
                    checked += 1
                else:
                    assert type(top[0]).__name__ == "Pass"  # the dig rule
                    digs += 1
            dreamsim.apply_action(s, a, chance)
    assert checked >= 30
