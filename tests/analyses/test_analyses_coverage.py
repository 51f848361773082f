"""Do the intervals mean what they say? Repeated runs of the toy game, whose odds are exact.

Consecutive blocks of games of one long run are independent repeated runs (every game's seed
is derived from (seed, game number) alone). Seeds are fixed, so these tests never flake; the
tolerances are 4 standard errors of the coverage estimate, so they would also pass for almost
any other seed.
"""
import math

import numpy as np
import pytest
from scipy import stats as sps

import analyses
from analyses import frames, stats

BLOCKS, BLOCK_GAMES, PLAYERS = 400, 100, 4


def exact_coverage(n: int, p: float, confidence: float = 0.95) -> float:
    """P(the Wilson interval of Binomial(n, p) covers p), summed over every outcome."""
    covered = [k for k in range(n + 1) if stats.wilson_interval(k, n, confidence)[0] <= p
               <= stats.wilson_interval(k, n, confidence)[1]]
    return float(sps.binom.pmf(covered, n, p).sum())


@pytest.fixture(scope="module")
def fair_blocks(toy):
    rules = toy.Rules(players=PLAYERS)
    truth, timeout = toy.win_probabilities(rules, ["random"] * PLAYERS)
    assert truth == pytest.approx([1 / PLAYERS] * PLAYERS) and timeout < 1e-20
    df = analyses.simulate("toygame", BLOCKS * BLOCK_GAMES, rules=rules, policies="random",
                           seat_order="fixed", seed=2024, n_jobs=2, progress=False)
    wins = frames.seat_wins(df).reshape(BLOCKS, BLOCK_GAMES, PLAYERS).sum(axis=1)
    return wins, truth


def test_wilson_intervals_cover_the_true_seat_win_rate_about_95_percent(fair_blocks):
    wins, truth = fair_blocks
    table = stats.proportions(wins[:, 0], BLOCK_GAMES)
    covered = ((table["ci_low"] <= truth[0]) & (truth[0] <= table["ci_high"])).mean()
    expected = exact_coverage(BLOCK_GAMES, truth[0])
    assert 0.93 < expected < 0.97  # Wilson at n=100 is close to nominal
    assert abs(covered - expected) < 4 * math.sqrt(expected * (1 - expected) / BLOCKS)


def test_all_seats_cover_too(fair_blocks):
    wins, truth = fair_blocks
    table = stats.proportions(wins.ravel(), BLOCK_GAMES)
    p = np.tile(truth, BLOCKS)
    covered = ((table["ci_low"] <= p) & (p <= table["ci_high"])).mean()
    expected = exact_coverage(BLOCK_GAMES, truth[0])
    # seats of one block are dependent: use the standard error of BLOCKS (not 4x as many) draws
    assert abs(covered - expected) < 4 * math.sqrt(expected * (1 - expected) / BLOCKS)


def test_exact_test_rejects_a_fair_seat_at_about_the_nominal_rate(fair_blocks):
    wins, truth = fair_blocks
    pvalues = np.array([stats.binomial_pvalue(k, BLOCK_GAMES, truth[0]) for k in wins[:, 0]])
    rejected = (pvalues <= 0.05).mean()
    exact_size = float(sum(sps.binom.pmf(k, BLOCK_GAMES, truth[0]) for k in range(BLOCK_GAMES + 1)
                           if stats.binomial_pvalue(k, BLOCK_GAMES, truth[0]) <= 0.05))
    assert exact_size <= 0.05
    assert abs(rejected - exact_size) < 4 * math.sqrt(exact_size * (1 - exact_size) / BLOCKS)


def test_first_player_advantage_finds_the_true_rates_of_a_biased_game(toy):
    rules = toy.Rules(players=PLAYERS, bias=0.3, max_rounds=6)
    truth, timeout = toy.win_probabilities(rules, ["random"] * PLAYERS)
    df = analyses.simulate("toygame", 6000, rules=rules, policies="random", seed=5, progress=False)
    result = analyses.first_player_advantage(df)
    seats, summary = result.seats, result.summary.iloc[0]
    decided = 6000 - summary["timeouts"]
    share = truth / (1 - timeout)  # win rate among decided games
    tolerance = 4 * np.sqrt(share * (1 - share) / decided)
    assert np.all(np.abs(seats["win_rate"].to_numpy() - share) < tolerance)
    assert abs(summary["timeouts"] / 6000 - timeout) < 4 * math.sqrt(timeout * (1 - timeout) / 6000)
    assert seats["p_value"].iloc[0] < 1e-6 and summary["chi2_p"] < 1e-6
    assert seats["effect_pp"].iloc[0] == pytest.approx(100 * (seats["win_rate"].iloc[0] - 0.25))
