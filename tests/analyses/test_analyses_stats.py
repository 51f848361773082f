"""analyses.stats against textbook values and direct scipy/numpy computations."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from analyses import stats


def wilson_formula(k, n, z=1.959963984540054):
    """The Wilson score interval written out (Wilson 1927), as an independent check."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k, n, low, high", [
    (50, 100, 0.4038, 0.5962),
    # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_textbook_values(k, n, low, high):
    lo, hi = stats.wilson_interval(k, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)
    assert (lo, hi) == pytest.approx(wilson_formula(k, n), abs=1e-12)


def test_wilson_interval_other_levels_and_empty():
    lo99, hi99 = stats.wilson_interval(50, 100, 0.99)
    assert (lo99, hi99) == pytest.approx(wilson_formula(50, 100, sps.norm.ppf(0.995)))
    assert all(math.isnan(v) for v in stats.wilson_interval(0, 0))


def test_binomial_pvalue_is_the_exact_test():
    assert stats.binomial_pvalue(40, 100, 0.5) == pytest.approx(2 * sps.binom.cdf(40, 100, 0.5))
    assert stats.binomial_pvalue(40, 100, 0.5) == pytest.approx(0.056888, abs=1e-6)
    assert stats.binomial_pvalue(7, 20, 0.25, "greater") == pytest.approx(sps.binom.sf(6, 20, 0.25))


def test_proportions_table():
    table = stats.proportions([25, 40], [100, 100], expected=0.25)
    assert list(table.columns) == ["n", "wins", "rate", "ci_low", "ci_high", "expected", "effect_pp", "p_value"]
    assert table["rate"].tolist() == [0.25, 0.40]
    assert table["effect_pp"].tolist() == pytest.approx([0.0, 15.0])
    assert table["p_value"].iloc[0] == 1.0
    assert table["p_value"].iloc[1] == pytest.approx(sps.binomtest(40, 100, 0.25).pvalue)


def test_seat_uniformity_is_pearson_chi_square():
    chi2, p = stats.seat_uniformity([30, 20, 25, 25])
    assert chi2 == pytest.approx(2.0)
    assert p == pytest.approx(sps.chi2.sf(2.0, 3))
    assert all(math.isnan(v) for v in stats.seat_uniformity([0, 0, 0]))


def test_mean_interval_bootstrap_agrees_with_t_on_normal_data():
    x = np.random.default_rng(1).normal(10, 2, 500)
    t_low, t_high = sps.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=sps.sem(x))
    low, high = stats.mean_interval(x)
    width = t_high - t_low
    assert abs(low - t_low) < 0.1 * width and abs(high - t_high) < 0.1 * width
    assert stats.mean_interval(x, seed=3) != stats.mean_interval(x, seed=4)
    assert stats.mean_interval(x) == stats.mean_interval(x)


def test_mean_interval_large_samples_use_student_t():
    x = np.random.default_rng(2).exponential(3, stats.BOOTSTRAP_MAX + 1)
    assert stats.mean_interval(x) == pytest.approx(sps.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=sps.sem(x)))
    assert stats.mean_interval([5, 5, 5]) == (5.0, 5.0)


def test_paired_difference_matches_ttest_rel():
    rng = np.random.default_rng(3)
    base = rng.normal(0, 1, 200)
    treated = base + 0.1 + rng.normal(0, 0.1, 200)
    result = stats.paired_difference(treated, base)
    reference = sps.ttest_rel(treated, base)
    ci = reference.confidence_interval()
    assert result["diff"] == pytest.approx((treated - base).mean())
    assert (result["ci_low"], result["ci_high"], result["p_value"]) == pytest.approx((ci.low, ci.high, reference.pvalue))
    same = stats.paired_difference(base, base)
    assert (same["diff"], same["ci_low"], same["ci_high"], same["p_value"]) == (0.0, 0.0, 0.0, 1.0)


def test_games_needed_textbook_value():
    # p0 = 0.5 vs p1 = 0.6, two-sided alpha 0.05, power 0.8: n = 194 (normal approximation,
    # e.g. Chow, Shao & Wang, Sample Size Calculations in Clinical Research, section 4.1)
    assert stats.games_needed(0.1, 0.5) == 194


def test_games_needed_gives_the_requested_exact_power():
    n = stats.games_needed(0.01, 0.25)
    assert 14_700 < n < 15_000
    assert stats.binomial_power(n, 0.25, 0.26) == pytest.approx(0.80, abs=0.01)
    assert stats.binomial_power(n // 4, 0.25, 0.26) < 0.3


def test_games_needed_rejects_impossible_targets():
    with pytest.raises(ValueError):
        stats.games_needed(0.6, 0.5)


def test_bradley_terry_two_policies_closed_form():
    wins = pd.DataFrame([[0, 30], [10, 0]], index=["a", "b"], columns=["a", "b"])
    table = stats.bradley_terry(wins)
    d = math.log(3)  # P(a beats b) = 30/40 = s_a / (s_a + s_b)
    assert table["log_strength"].tolist() == pytest.approx([d / 2, -d / 2], abs=1e-6)
    se_difference = math.sqrt(1 / (40 * 0.75 * 0.25))
    assert table["se"].tolist() == pytest.approx([se_difference / 2] * 2, rel=1e-4)
    assert table.loc["a", "elo"] - table.loc["b", "elo"] == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert table["comparisons"].tolist() == [40, 40] and table["wins"].tolist() == [30, 10]


def hunter_mm(w, iterations=2_000):
    """Zermelo/Hunter MM iteration for Bradley–Terry, as an independent reference."""
    p = np.ones(len(w))
    games = w + w.T
    for _ in range(iterations):
        p = w.sum(axis=1) / (games / (p[:, None] + p[None, :])).sum(axis=1)
        p /= np.exp(np.log(p).mean())
    return np.log(p)


def test_bradley_terry_matches_mm_and_solves_the_score_equations():
    w = np.array([[0, 12, 20, 9], [8, 0, 14, 6], [5, 9, 0, 4], [11, 14, 16, 0]], dtype=float)
    names = ["w", "x", "y", "z"]
    table = stats.bradley_terry(pd.DataFrame(w, index=names, columns=names))
    theta = table["log_strength"].to_numpy()
    assert theta == pytest.approx(hunter_mm(w), abs=1e-6)
    expected_wins = ((w + w.T) * sps.logistic.cdf(theta[:, None] - theta[None, :])).sum(axis=1)
    assert expected_wins == pytest.approx(w.sum(axis=1), abs=1e-5)
    assert theta.sum() == pytest.approx(0, abs=1e-9)


def test_bradley_terry_needs_pseudo_wins_when_a_policy_never_lost():
    wins = pd.DataFrame([[0, 5], [0, 0]], index=["a", "b"], columns=["a", "b"])
    with pytest.raises(stats.InfiniteRatingError):
        stats.bradley_terry(wins)
    table = stats.bradley_terry(wins, pseudo_wins=0.5)
    assert table.loc["a", "log_strength"] - table.loc["b", "log_strength"] == pytest.approx(math.log(5.5 / 0.5))


@pytest.mark.parametrize("n, p0, p1", [(60, 0.3, 0.45), (25, 0.5, 0.2), (200, 0.25, 0.25)])
def test_binomial_power_equals_brute_force_sum_over_the_rejection_region(n, p0, p1):
    rejected = [k for k in range(n + 1) if sps.binomtest(k, n, p0).pvalue <= 0.05]
    assert stats.binomial_power(n, p0, p1) == pytest.approx(sps.binom.pmf(rejected, n, p1).sum(), abs=1e-12)
