"""`analyses.clusters` on hand-built data: every function against values worked out by hand from the
formulas of its docstring (the cluster-robust CR1 variance, Wilson at the effective n, the score test,
the Rao-Scott correction, the linearised ratio difference, Holm), and each branch (independent units,
empty groups, no variation at all) with the value it must give."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analyses import clusters
from analyses import stats as plain
from analyses.clusters import (
    CHI2_CLUSTERED,
    CHI2_INDEPENDENT,
    CLUSTERED,
    INDEPENDENT,
    cluster_ids,
    holm,
    is_independent,
    mean_interval,
    paired_difference,
    rates,
    ratio_difference,
    score_pvalue,
    uniformity,
    wilson_bounds,
)

Z95 = 1.959963984540054
T975_2 = 4.302652729749464     # t quantile 0.975 on 2 degrees of freedom


def wilson(p, n, z=Z95):
    """Wilson's score interval, written out."""
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(centre - half, 0.0), min(centre + half, 1.0)


# -- cluster ids and independence ------------------------------------------------------------------
def test_clusters_are_the_seed_then_the_deal_numbered_in_order_of_first_appearance():
    df = pd.DataFrame({"game_seed": [7, 3, 7, 9], "deal": [0, 0, 1, 1]})
    assert cluster_ids(df).tolist() == [0, 1, 0, 2]
    assert cluster_ids(df.drop(columns="game_seed")).tolist() == [0, 0, 1, 1]
    assert cluster_ids(pd.DataFrame({"x": [5, 5, 5]})).tolist() == [0, 1, 2]


def test_independence_means_at_most_one_trial_per_cluster_and_group():
    assert is_independent([1, 1, 1], [4, 2, 9])
    assert not is_independent([1, 1, 1], [4, 4, 9])
    assert is_independent([1, 0, 1], [4, 4, 9])                 # the other unit of cluster 4 has no trial
    assert is_independent([[1, 0], [0, 1]], ["a", "a"])          # one trial per group in the cluster
    assert not is_independent([[1, 0], [1, 1]], ["a", "a"])
    assert is_independent([], [])                                # no trial: nothing shares a cluster
    assert is_independent([1, 1], None) and not is_independent([2], None)


# -- rates -------------------------------------------------------------------------------------------
def test_clustered_rates_are_ratio_estimators_with_the_cr1_variance_and_wilson_at_the_effective_n():
    # units (games) in clusters 0, 0, 1, 1, 2; two groups
    trials = np.array([[1, 1], [1, 0], [1, 1], [1, 0], [1, 2]])
    wins = np.array([[1, 0], [1, 0], [0, 1], [0, 0], [1, 1]])
    table = rates(wins, trials, [0, 0, 1, 1, 2], expected=[0.5, 0.25])
    assert table["n"].tolist() == [5, 4] and table["wins"].tolist() == [3, 2]
    assert table["deals"].tolist() == [3, 3] and (table["method"] == CLUSTERED).all()
    # group 0: cluster totals trials (2, 2, 1), wins (2, 0, 1), p = 0.6; residuals 0.8, -1.2, 0.4
    var0 = 3 / 2 * (0.8 ** 2 + 1.2 ** 2 + 0.4 ** 2) / 25
    # group 1: trials (1, 1, 2), wins (0, 1, 1), p = 0.5; residuals -0.5, 0.5, 0
    var1 = 3 / 2 * (0.5 ** 2 + 0.5 ** 2) / 16
    deff = np.array([var0 / (0.6 * 0.4 / 5), var1 / (0.25 / 4)])
    assert table["design_effect"].to_numpy() == pytest.approx(deff, rel=1e-12)
    assert deff == pytest.approx([2.8, 0.75])
    assert table["rate"].tolist() == pytest.approx([0.6, 0.5])
    for i, (p, n) in enumerate([(0.6, 5 / 2.8), (0.5, 4 / 0.75)]):
        assert (table["ci_low"][i], table["ci_high"][i]) == pytest.approx(wilson(p, n), rel=1e-12)
    assert table["effect_pp"].tolist() == pytest.approx([10.0, 25.0])
    assert table["expected"].tolist() == [0.5, 0.25]
    z = [0.1 / math.sqrt(0.25 / (5 / 2.8)), 0.25 / math.sqrt(0.25 * 0.75 / (4 / 0.75))]
    assert table["p_value"].tolist() == pytest.approx([2 * stats.norm.sf(v) for v in z], rel=1e-12)


def test_clustered_rates_of_one_group_and_of_a_group_without_trials():
    table = rates([1, 1, 0, 1], [1, 1, 1, 1], [0, 0, 1, 1])
    # p = 0.75; cluster residuals 2 - 1.5, 1 - 1.5: var = 2 * 0.5 / 16
    assert table["rate"][0] == pytest.approx(0.75)
    assert table["design_effect"][0] == pytest.approx((2 * 0.5 / 16) / (0.75 * 0.25 / 4))
    assert "p_value" not in table and table["method"][0] == CLUSTERED
    empty = rates([[1, 0], [1, 0], [0, 0]], [[1, 0], [1, 0], [1, 0]], [0, 0, 1], expected=0.5)
    assert empty["n"].tolist() == [3, 0] and empty["deals"].tolist() == [2, 0]
    assert math.isnan(empty["rate"][1]) and math.isnan(empty["ci_low"][1]) and math.isnan(empty["p_value"][1])
    assert math.isnan(empty["design_effect"][1])


def test_fractional_successes_are_never_read_as_independent_wins():
    table = rates([0.5, 1.0, 0.0], [1, 1, 1], [0, 1, 2])
    assert table["method"][0] == CLUSTERED and table["wins"][0] == pytest.approx(1.5)
    assert table["rate"][0] == pytest.approx(0.5)


def test_independent_units_get_the_plain_wilson_and_exact_binomial_table():
    wins = np.array([[1, 0], [0, 1], [1, 0], [1, 0], [0, 0]])
    table = rates(wins, 1, None, expected=0.5)
    want = plain.proportions([3, 1], [5, 5], 0.5)
    for column in ("n", "wins", "rate", "ci_low", "ci_high", "effect_pp", "p_value"):
        assert table[column].tolist() == pytest.approx(want[column].tolist(), rel=1e-12)
    assert table["deals"].tolist() == [5, 5] and table["design_effect"].tolist() == [1.0, 1.0]
    assert (table["method"] == INDEPENDENT).all()
    none = rates(np.zeros((2, 2)), np.array([[1, 0], [1, 0]]), [0, 1])
    assert none["deals"].tolist() == [2, 0] and none["design_effect"][0] == 1.0
    assert math.isnan(none["design_effect"][1])


def test_rates_of_no_units_are_an_empty_independent_table():
    table = rates(np.zeros((0, 2)), np.zeros((0, 2)), [])
    assert table["n"].tolist() == [0, 0] and (table["method"] == INDEPENDENT).all()


# -- Wilson bounds and the score test -----------------------------------------------------------------
def test_wilson_bounds_at_fractional_n_and_at_the_edges():
    low, high = wilson_bounds([0.3, 0.0, 1.0, 0.5, np.nan], [10, 8, 8, 0, 5], Z95)
    assert (low[0], high[0]) == pytest.approx(wilson(0.3, 10), rel=1e-12)
    assert (low[0], high[0]) == pytest.approx((0.1078, 0.6032), abs=1e-4)   # the textbook 3 of 10
    assert low[1] == 0.0 and high[1] == pytest.approx(wilson(0.0, 8)[1], rel=1e-12)
    assert high[2] == 1.0 and low[2] == pytest.approx(wilson(1.0, 8)[0], rel=1e-12)
    assert np.isnan([low[3], high[3], low[4], high[4]]).all()
    lo, hi = wilson_bounds(0.25, 2.5, 1.0)
    assert (float(lo), float(hi)) == pytest.approx(wilson(0.25, 2.5, 1.0), rel=1e-12)


def test_score_pvalue_against_an_expected_rate():
    p = score_pvalue([0.6, 0.0, 0.3, 0.5, np.nan], [0.5, 0.0, 0.0, 0.5, 0.5], [100, 10, 10, 0, 10])
    assert p[0] == pytest.approx(2 * stats.norm.sf(2.0), rel=1e-12)     # z = 0.1 / sqrt(0.25 / 100)
    assert p[1] == 1.0                                                   # at the expected rate exactly
    assert p[2] == pytest.approx(0.0)                                     # off an expected rate of 0
    assert np.isnan(p[3]) and np.isnan(p[4])


# -- uniformity -------------------------------------------------------------------------------------
def rao_scott(won, codes):
    """The second-order Rao-Scott chi-square of the docstring, written out with loops."""
    won = np.asarray(won, dtype=float)
    k = won.shape[1]
    counts = won.sum(axis=0)
    total = counts.sum()
    chi2 = sum((c - total / k) ** 2 / (total / k) for c in counts)
    ids = sorted(set(codes))
    per = np.array([won[np.asarray(codes) == c].sum(axis=0) for c in ids])
    res = per - per.sum(axis=1, keepdims=True) * counts / total
    v = len(ids) / (len(ids) - 1) * res.T @ res / total ** 2
    null = (np.eye(k) / k - np.full((k, k), 1 / k ** 2)) / total
    d = np.linalg.inv(null[:k - 1, :k - 1]) @ v[:k - 1, :k - 1]
    t1, t2 = np.trace(d), np.trace(d @ d)
    return chi2 * t1 / t2, t1 * t1 / t2, t1 / (k - 1)


def test_uniformity_of_two_seats_in_deals_is_the_chi_square_over_the_design_effect():
    # four deals of two games: seat 0 wins 2, 1, 0, 2 of them
    won = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1], [1, 0], [1, 0]])
    codes = [0, 0, 1, 1, 2, 2, 3, 3]
    out = uniformity(won, codes)
    # share 5/8; seat-0 residuals 0.75, -0.25, -1.25, 0.75: v = 4/3 * 2.75 / 64, null = 0.25 / 8
    deff = (4 / 3 * 2.75 / 64) / (0.25 / 8)
    assert out["design_effect"] == pytest.approx(deff) and deff == pytest.approx(11 / 6)
    assert out["chi2"] == pytest.approx(0.5 / deff) and out["chi2_df"] == pytest.approx(1.0)
    assert out["chi2_p"] == pytest.approx(stats.chi2.sf(0.5 / deff, 1), rel=1e-12)
    assert out["method"] == CHI2_CLUSTERED


def test_uniformity_of_three_seats_in_deals_matches_the_rao_scott_formula():
    won = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 1, 0],
                    [1, 0, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]])
    codes = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    out = uniformity(won, codes)
    chi2, df, deff = rao_scott(won, codes)
    assert (out["chi2"], out["chi2_df"], out["design_effect"]) == pytest.approx((chi2, df, deff), rel=1e-10)
    assert out["chi2_p"] == pytest.approx(stats.chi2.sf(chi2, df), rel=1e-10)
    assert df != pytest.approx(2.0) and deff != pytest.approx(1.0)


def test_uniformity_of_independent_single_winner_games_is_pearsons_chi_square():
    won = np.array([[1, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1], [1, 0, 0]])
    out = uniformity(won, None)
    # counts 4, 1, 1 against 2 each: (4 + 1 + 1) / 2 = 3 on 2 df
    assert out == {"chi2": pytest.approx(3.0), "chi2_df": 2.0, "chi2_p": pytest.approx(math.exp(-1.5)),
                   "design_effect": 1.0, "method": CHI2_INDEPENDENT}


def test_a_game_with_two_winners_takes_the_clustered_test_even_in_independent_games():
    won = np.array([[1, 1, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]])
    out = uniformity(won, None)
    chi2, df, deff = rao_scott(won, list(range(5)))
    assert out["method"] == CHI2_CLUSTERED
    assert (out["chi2"], out["chi2_df"], out["design_effect"]) == pytest.approx((chi2, df, deff), rel=1e-10)


def test_deals_that_share_their_wins_exactly_have_no_variation_to_test():
    even = uniformity(np.array([[1, 0], [0, 1], [1, 0], [0, 1]]), [0, 0, 1, 1])
    assert even == {"chi2": 0.0, "chi2_df": 1.0, "chi2_p": 1.0, "design_effect": 0.0, "method": CHI2_CLUSTERED}
    uneven = uniformity(np.array([[1, 0], [1, 0], [0, 1]] * 2), [0, 0, 0, 1, 1, 1])
    assert uneven["chi2"] == math.inf and uneven["chi2_p"] == 0.0 and uneven["design_effect"] == 0.0


def test_uniformity_of_one_seat_or_no_wins_is_empty():
    for won in (np.ones((3, 1)), np.zeros((3, 2))):
        out = uniformity(won, [0, 0, 1])
        assert math.isnan(out["chi2"]) and math.isnan(out["chi2_p"]) and out["method"] == CHI2_INDEPENDENT


# -- paired differences and means ---------------------------------------------------------------------
def test_a_clustered_paired_difference_is_the_mean_with_its_cr1_t_interval():
    treated, base = np.array([3, 4, 2, 5, 7]), np.array([2, 1, 0, 3, 0])   # differences 1, 3, 2, 2, 7
    out = paired_difference(treated, base, [0, 0, 1, 1, 2])
    # mean 3; cluster sums 4, 4, 7 less sizes x mean: -2, -2, 4; var = 3/2 * 24 / 25 = 1.44, se 1.2
    assert out["diff"] == pytest.approx(3.0) and out["n"] == 5 and out["deals"] == 3
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((3 - T975_2 * 1.2, 3 + T975_2 * 1.2), rel=1e-12)
    assert out["p_value"] == pytest.approx(1 - 2.5 / math.sqrt(2.5 ** 2 + 2), rel=1e-12)   # t = 2.5 on 2 df
    assert out["design_effect"] == pytest.approx(1.44 / (5.5 / 5))
    assert out["method"] == "paired t, deal as the unit"


def test_a_paired_difference_over_two_clusters_has_one_degree_of_freedom():
    out = paired_difference([1.0, 3.0, 5.0], [0.0, 0.0, 0.0], [0, 0, 1])
    # mean 3; cluster sums 4, 5 less sizes x mean: -2, 2; var = 2/1 * 8 / 9, se 4/3, t = 2.25 on 1 df
    se = 4 / 3
    q = stats.t.ppf(0.975, 1)
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((3 - q * se, 3 + q * se), rel=1e-12)
    assert out["p_value"] == pytest.approx(2 * stats.t.sf(2.25, 1), rel=1e-12)
    assert out["design_effect"] == pytest.approx((16 / 9) / (4 / 3), rel=1e-12) and out["deals"] == 2


def test_one_cluster_has_no_variation_between_clusters():
    out = paired_difference([1.0, 2.0], [0.0, 0.0], [0, 0])
    assert (out["diff"], out["ci_low"], out["ci_high"], out["p_value"]) == (1.5, 1.5, 1.5, 0.0)
    assert (out["deals"], out["design_effect"]) == (1, 0.0)


def test_an_independent_paired_difference_is_scipys_paired_t():
    treated, base = [3.0, 4.0, 2.0, 6.0], [1.0, 1.0, 1.0, 1.0]
    out = paired_difference(treated, base, [0, 1, 2, 3])
    want = plain.paired_difference(treated, base)
    assert {k: out[k] for k in want} == pytest.approx(want)
    assert (out["deals"], out["design_effect"], out["method"]) == (4, 1.0, "paired t (independent pairs)")


def test_clustered_means_without_variation_or_with_too_few_values():
    zero = paired_difference([1, 1, 2, 2], [1, 1, 2, 2], [0, 0, 1, 1])
    assert (zero["diff"], zero["ci_low"], zero["ci_high"], zero["p_value"]) == (0.0, 0.0, 0.0, 1.0)
    assert math.isnan(zero["design_effect"]) and zero["deals"] == 2
    shift = paired_difference([2, 2, 2, 2], [1, 1, 1, 1], [0, 0, 1, 1])
    assert (shift["ci_low"], shift["ci_high"], shift["p_value"]) == (1.0, 1.0, 0.0)
    one = paired_difference([1.0, np.nan, np.nan], [0.0, 0.0, 0.0], [0, 0, 1])
    assert one["deals"] == 0 and math.isnan(one["ci_low"]) and math.isnan(one["p_value"])


def test_constant_values_have_no_design_effect_even_when_cluster_sums_round():
    # eight 0.1s per cluster: the values have no variance at all, but the cluster sums (0.7999999999999999)
    # and sizes x mean (0.8) differ in the last bit, so the cluster variance is a rounding residue
    out = paired_difference(np.full(16, 0.1), np.zeros(16), np.repeat([0, 1], 8))
    assert math.isnan(out["design_effect"]) and out["diff"] == pytest.approx(0.1)


def test_mean_interval_is_the_bootstrap_for_independent_values_and_cr1_t_in_deals():
    x = [1.0, 3.0, 2.0, 2.0, 7.0]
    assert mean_interval(x, None, seed=3) == pytest.approx(plain.mean_interval(x, 0.95, 3))
    assert mean_interval(x, [0, 0, 1, 1, 2]) == pytest.approx((3 - T975_2 * 1.2, 3 + T975_2 * 1.2), rel=1e-12)
    low, high = mean_interval(x, [0, 0, 1, 1, 2], confidence=0.5)
    q = stats.t.ppf(0.75, 2)
    assert (low, high) == pytest.approx((3 - q * 1.2, 3 + q * 1.2), rel=1e-12)


# -- ratio difference ----------------------------------------------------------------------------------
def test_the_ratio_difference_is_linearised_over_clusters():
    # six units in clusters 0, 0, 1, 1, 2, 2; the first of each cluster in group 1, the second in group 0
    won = np.array([1, 0, 1, 1, 0, 0], dtype=float)
    in1 = np.array([1, 0, 1, 0, 1, 0], dtype=float)
    out = ratio_difference(won * in1, in1, won * (1 - in1), 1 - in1, [0, 0, 1, 1, 2, 2])
    # p1 = 2/3, p0 = 1/3; unit terms (y1 - p1 n1)/3 - (y0 - p0 n0)/3 by cluster: (1/9 + 1/9), (1/9 - 2/9), (-2/9 + 1/9)
    u = np.array([2 / 9, -1 / 9, -1 / 9])
    var = 3 / 2 * (u ** 2).sum()
    se = math.sqrt(var)
    assert (out["diff"], out["rate1"], out["rate0"]) == pytest.approx((1 / 3, 2 / 3, 1 / 3))
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((1 / 3 - T975_2 * se, 1 / 3 + T975_2 * se), rel=1e-12)
    assert out["p_value"] == pytest.approx(2 * stats.t.sf((1 / 3) / se, 2), rel=1e-12)
    units = np.array([1 / 9, 1 / 9, 1 / 9, -2 / 9, -2 / 9, 1 / 9])
    assert out["design_effect"] == pytest.approx(var / (6 / 5 * (units ** 2).sum()), rel=1e-12)
    assert out["deals"] == 3


def test_ratio_difference_of_an_empty_group_or_one_cluster_has_no_interval():
    empty = ratio_difference([0, 0, 0], [0, 0, 0], [1, 0, 1], [1, 1, 1], [0, 1, 1])
    assert empty["deals"] == 2 and all(math.isnan(empty[k]) for k in ("diff", "rate1", "rate0", "p_value"))
    other = ratio_difference([1, 0], [1, 1], [0, 0], [0, 0], [0, 1])
    assert other["deals"] == 2 and math.isnan(other["rate1"]) and math.isnan(other["diff"])
    single = ratio_difference([1, 0], [1, 0], [0, 1], [0, 1], [5, 5])
    assert (single["diff"], single["rate1"], single["rate0"], single["deals"]) == (0.0, 1.0, 1.0, 1)
    assert math.isnan(single["ci_low"]) and math.isnan(single["p_value"]) and math.isnan(single["design_effect"])
    nothing = ratio_difference([1, 1], [0, 0], [1, 1], [0, 0], [0, 1])
    assert nothing["deals"] == 0 and math.isnan(nothing["diff"])          # no unit in either group
    dropped = ratio_difference([1, 0, 9], [1, 0, 0], [0, 1, 9], [0, 1, 0], [5, 5, 6])
    assert dropped["deals"] == 1                                # a unit in neither group is no unit


def test_a_ratio_difference_of_two_units_in_two_clusters_has_its_design_effect():
    # both units in both groups: p1 = p0 = 0.5, unit terms +0.5 and -0.5, var = 2 * 0.5 = units' var
    out = ratio_difference([1, 0], [1, 1], [0, 1], [1, 1], [0, 1])
    assert (out["diff"], out["design_effect"], out["deals"]) == (0.0, pytest.approx(1.0), 2)
    q = stats.t.ppf(0.975, 1)
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((-q, q), rel=1e-12) and out["p_value"] == 1.0


def test_a_ratio_difference_without_variation_is_its_own_interval():
    same = ratio_difference([1, 0, 1, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1])
    assert (same["diff"], same["ci_low"], same["ci_high"], same["p_value"]) == (0.0, 0.0, 0.0, 1.0)
    gap = ratio_difference([1, 0, 1, 0], [1, 0, 1, 0], [0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1])
    assert (gap["diff"], gap["ci_low"], gap["ci_high"], gap["p_value"]) == (1.0, 1.0, 1.0, 0.0)
    assert gap["rate1"] == 1.0 and gap["rate0"] == 0.0


def test_a_ratio_difference_of_independent_units_is_welchs_unpooled_difference():
    won = np.array([1, 0, 1, 1, 0, 1, 0, 0], dtype=float)
    in1 = np.array([1, 1, 1, 1, 0, 0, 0, 0], dtype=float)
    out = ratio_difference(won * in1, in1, won * (1 - in1), 1 - in1, None, confidence=0.9)
    u = np.where(in1 == 1, (won - 0.75) / 4, -(won - 0.25) / 4)
    se = math.sqrt(8 / 7 * (u ** 2).sum())
    q = stats.t.ppf(0.95, 7)
    assert (out["ci_low"], out["ci_high"]) == pytest.approx((0.5 - q * se, 0.5 + q * se), rel=1e-12)
    assert out["design_effect"] == pytest.approx(1.0)


# -- Holm ---------------------------------------------------------------------------------------------------
def test_holm_multiplies_the_sorted_p_values_by_m_m_minus_1_and_keeps_them_monotone():
    out = holm([0.01, 0.04, 0.03, np.nan])
    assert out[:3].tolist() == pytest.approx([0.03, 0.06, 0.06]) and np.isnan(out[3])
    assert holm([0.3, 0.6]).tolist() == pytest.approx([0.6, 0.6])
    assert holm([0.9, 0.8]).tolist() == [1.0, 1.0]
    assert holm([0.02, 0.02]).tolist() == pytest.approx([0.04, 0.04])
    assert np.isnan(holm([np.nan, np.nan])).all() and len(holm([])) == 0


def test_the_module_names_its_methods():
    assert clusters.INDEPENDENT.startswith("independent") and clusters.CLUSTERED.startswith("deal as the unit")
