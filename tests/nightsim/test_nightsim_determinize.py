"""nightsim.sample_state: a state consistent with one seat's observation,
the other hands and the deck order dealt at random — consistency, frequencies, playing on."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import nightsim
from nightsim import apply_action, legal_actions, observe, sample_state
from nightsim.engine.determinize import unseen_cards


def _positions(seed: int, policy: str, players: int | None = None, seals: bool = False):
    rules = nightsim.Rules(players=players or 2 + seed % 4, seals=seals)
    s = nightsim.new_game(rules, seed)
    rng = np.random.default_rng(seed)
    pol = nightsim.POLICIES[policy]
    while not s.is_terminal:
        yield s.clone()
        legal = legal_actions(s)
        apply_action(s, pol(observe(s, s.current_player), legal, rng), rng)


@pytest.mark.parametrize("seed,policy,seals", [(0, "random", False), (1, "greedy", False), (2, "random", True),
                                               (3, "greedy", True), (4, "aggressor", False)])
def test_the_sampled_state_looks_to_the_seat_exactly_like_its_observation(seed, policy, seals):
    rng = np.random.default_rng(100 + seed)
    checked = 0
    for s in _positions(seed, policy, seals=seals):
        for p in range(s.n):
            obs = observe(s, p)
            t = sample_state(obs, rng)
            assert observe(t, p) == obs, f"seed {seed}, seat {p}, {s!r}"
            assert sorted(t.all_cards()) == sorted(s.all_cards())
            checked += 1
    assert checked >= 20


def test_a_discard_under_way_of_another_seat_is_a_subset_of_its_hand():
    """Another seat's picks so far are hidden (their number is public): sampled from its hand."""
    rng = np.random.default_rng(3)
    for seed in range(40):
        for s in _positions(seed, "random", players=2):
            top = s.stack[-1]
            if type(top).__name__ == "Discard" and top.picked:
                other = 1 - top.seat
                obs = observe(s, other)
                assert obs.frames[-1][-1] == ("H", len(top.picked))
                t = sample_state(obs, rng)
                picked = t.stack[-1].picked
                assert len(picked) == len(top.picked) and set(picked) <= set(t.hands[top.seat])
                assert observe(t, other) == obs
                return
    raise AssertionError("no discard under way in 40 games")


@pytest.mark.parametrize("seed", [0, 1])
def test_the_sampled_state_plays_on_legally_to_the_end(seed):
    rng = np.random.default_rng(seed)
    for i, s in enumerate(_positions(seed, "greedy")):
        if i % 5:
            continue
        t = sample_state(observe(s, s.current_player), rng)
        assert legal_actions(t) == legal_actions(s.clone())
        while not t.is_terminal:
            legal = legal_actions(t)
            assert legal
            apply_action(t, legal[int(rng.integers(len(legal)))], rng)


def test_every_unseen_card_lands_in_each_hidden_place_with_the_right_frequency():
    """Mid-game, 3 players: each unseen card is in seat q's hand with probability
    hand size / unseen cards, and on top of the deck with probability 1 / unseen (chi-square)."""
    s = next(x for i, x in enumerate(_positions(6, "greedy", players=3)) if i == 12)
    obs = observe(s, 0)
    pool = unseen_cards(obs)
    size = len(obs.rules.table.cards)
    rng = np.random.default_rng(17)
    n = 4000
    hands = {1: np.zeros(size), 2: np.zeros(size)}
    top = np.zeros(size)
    for _ in range(n):
        t = sample_state(obs, rng)
        for q in hands:
            hands[q][t.hands[q]] += 1
        top[t.deck[-1]] += 1
    for q, counts in hands.items():
        assert counts.sum() == n * obs.hand_sizes[q]
        assert counts[[c for c in range(size) if c not in pool]].sum() == 0  # seen cards never
        got = counts[pool]
        assert stats.chisquare(got, np.full(len(pool), got.sum() / len(pool))).pvalue > 1e-3
    got = top[pool]
    assert got.sum() == n and stats.chisquare(got).pvalue > 1e-3


def test_a_finished_game_or_a_foreign_value_is_refused():
    s = nightsim.new_game(nightsim.Rules(players=2), 0)
    s.is_terminal = True
    with pytest.raises(ValueError, match="Reproduce with"):
        sample_state(observe(s, 0), np.random.default_rng(0))
    with pytest.raises(ValueError, match="Observation"):
        sample_state((1, 2, 3), np.random.default_rng(0))
