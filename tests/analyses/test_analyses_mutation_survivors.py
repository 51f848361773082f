"""Edge cases of analyses.stats that planted bugs (mutants, see benchmarks/tools/mutation.py) slipped
past: two-seat games, bad sample-size inputs, and results with one or two data points."""
import math

import pytest
from scipy import stats as sps

from analyses.stats import binomial_power, games_needed, mean_interval, paired_difference, seat_uniformity


def test_seat_uniformity_works_for_two_seat_games():
    chi2, p = seat_uniformity([30, 10])
    assert chi2 == pytest.approx(10.0) and p == pytest.approx(sps.chi2.sf(10.0, 1))
    assert seat_uniformity([20, 20]) == (0.0, 1.0)


def test_seat_uniformity_is_undefined_for_one_seat_or_no_wins():
    assert all(math.isnan(x) for x in seat_uniformity([5]))
    assert all(math.isnan(x) for x in seat_uniformity([0, 0]))
    assert all(math.isnan(x) for x in seat_uniformity([0, 0, 0]))
    chi2, p = seat_uniformity([1, 0])      # one win is a number
    assert chi2 == pytest.approx(1.0) and 0 < p < 1


def test_games_needed_follows_the_normal_approximation():
    # ((1.95996 * 0.5 + 0.84162 * sqrt(0.6 * 0.4)) / 0.1)^2 = 193.8 -> 194; one-sided z = 1.64485 -> 152.4 -> 153
    assert games_needed(0.1, 0.5) == 194
    assert games_needed(0.1, 0.5, alternative="greater") == 153
    assert games_needed(-0.1, 0.5) == 194                 # symmetric around a half
    assert 0.75 < binomial_power(194, 0.5, 0.6) < 0.85


@pytest.mark.parametrize("delta, p0", [(0.1, 0.0), (0.1, 1.0), (0.1, -0.2), (0.1, 1.2), (0.5, 0.6), (-0.6, 0.5),
                                       (0.5, 0.5), (-0.5, 0.5), (0.0, 0.5)])
def test_games_needed_refuses_rates_outside_zero_one_and_a_zero_difference(delta, p0):
    with pytest.raises(ValueError, match="need 0 < p0 < 1"):
        games_needed(delta, p0)


def test_mean_interval_needs_two_values_and_a_constant_sample_is_a_point():
    assert all(math.isnan(x) for x in mean_interval([3.0]))
    assert all(math.isnan(x) for x in mean_interval([3.0, float("nan")]))   # NaN values do not count
    low, high = mean_interval([1.0, 2.0])
    assert low <= 1.5 <= high and not math.isnan(low)
    assert mean_interval([2.0, 2.0]) == (2.0, 2.0)


def test_paired_difference_needs_two_pairs_and_a_constant_difference_is_exact():
    one = paired_difference([1.0], [0.0])
    assert one["n"] == 1 and all(math.isnan(one[k]) for k in ("diff", "ci_low", "ci_high", "p_value"))
    two = paired_difference([1.0, 2.0], [0.0, 0.0])
    assert two["n"] == 2 and two["diff"] == 1.5 and two["ci_low"] < 1.5 < two["ci_high"]
    assert two["p_value"] == pytest.approx(sps.ttest_rel([1.0, 2.0], [0.0, 0.0]).pvalue)
    assert paired_difference([1.0, 1.0], [0.0, 0.0]) == {"n": 2, "diff": 1.0, "ci_low": 1.0, "ci_high": 1.0,
                                                         "p_value": 0.0}
    assert paired_difference([1.0, 1.0], [1.0, 1.0])["p_value"] == 1.0
