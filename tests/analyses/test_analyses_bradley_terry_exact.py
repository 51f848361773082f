"""Bradley–Terry by hand: two policies, a beat b 30 times and lost 10 (analyses.stats.bradley_terry).

The maximum-likelihood log-strength gap is ln 3 (P(a beats b) = 3/4), centred to ±ln 3 / 2; the
Fisher information of the gap is n p (1 - p) = 40 · 3/4 · 1/4 = 7.5, so each centred log-strength
has se = sqrt(1 / 30). With every comparison its own cluster the CR1 sandwich equals that times
sqrt(C / (C - 1)) = sqrt(40 / 39) (the scores are 1/4 per win and -3/4 per loss of a: sum of
squares 30/16 + 90/16 = 7.5, the information itself).
"""
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from analyses import stats

WINS = pd.DataFrame([[0, 30], [10, 0]], index=["a", "b"], columns=["a", "b"])


def test_two_policies_get_the_log_odds_of_their_record_and_the_fisher_standard_error():
    table = stats.bradley_terry(WINS)
    half_gap = math.log(3) / 2
    assert table.loc["a", "log_strength"] == pytest.approx(half_gap, abs=1e-6)
    assert table.loc["b", "log_strength"] == pytest.approx(-half_gap, abs=1e-6)
    assert table["comparisons"].tolist() == [40, 40] and table["wins"].tolist() == [30, 10]
    assert table["se"].to_numpy() == pytest.approx([math.sqrt(1 / 30)] * 2, rel=1e-6)


def test_the_elo_interval_is_the_estimate_plus_and_minus_z_standard_errors():
    table = stats.bradley_terry(WINS, confidence=0.9)
    z = sps.norm.ppf(0.95)
    for name in ("a", "b"):
        row = table.loc[name]
        assert row["elo_low"] < row["elo"] < row["elo_high"]
        assert row["elo_high"] - row["elo"] == pytest.approx(stats.ELO_PER_NAT * z * row["se"], rel=1e-9)
        assert row["elo"] - row["elo_low"] == pytest.approx(stats.ELO_PER_NAT * z * row["se"], rel=1e-9)
    assert table.loc["a", "elo"] - table.loc["b", "elo"] == pytest.approx(400 * math.log10(3), rel=1e-6)


def test_the_sandwich_of_independent_comparisons_is_the_fisher_se_times_the_small_sample_factor():
    winner = np.array([0] * 30 + [1] * 10)
    loser = 1 - winner
    table = stats.bradley_terry(WINS, comparisons=(winner, loser, np.arange(40)))
    expected = math.sqrt(1 / 30 * 40 / 39)
    assert table["se"].to_numpy() == pytest.approx([expected] * 2, rel=1e-6)
    assert table["se_model"].to_numpy() == pytest.approx([math.sqrt(1 / 30)] * 2, rel=1e-6)
    assert table["design_effect"].to_numpy() == pytest.approx([40 / 39] * 2, rel=1e-6)


def test_comparisons_repeated_in_one_deal_widen_the_sandwich_by_the_deal_size():
    winner = np.repeat(np.array([0] * 30 + [1] * 10), 2)
    loser = 1 - winner
    wins = WINS * 2
    table = stats.bradley_terry(wins, comparisons=(winner, loser, np.repeat(np.arange(40), 2)))
    # each deal counts its comparison twice: the score doubles per cluster, the information doubles
    assert table["se"].to_numpy() == pytest.approx([math.sqrt(1 / 30 * 40 / 39)] * 2, rel=1e-6)
    assert table["se_model"].to_numpy() == pytest.approx([math.sqrt(1 / 60)] * 2, rel=1e-6)


def test_an_exact_test_of_no_trials_has_no_p_value():
    assert math.isnan(stats.binomial_pvalue(0, 0, 0.5))


def test_the_power_of_the_exact_test_under_the_null_is_its_exact_size():
    # n = 10, p0 = 1/2: the test at 5% rejects k <= 1 or k >= 9, probability 22 / 1024
    assert stats.binomial_power(10, 0.5, 0.5) == pytest.approx(22 / 1024, rel=1e-12)


def test_a_test_that_can_never_reject_has_no_power():
    # n = 3, p0 = 1/2: the smallest two-sided p-value is 1/4, above 5%
    assert stats.binomial_power(3, 0.5, 0.9) == 0.0


def test_a_mean_of_exactly_the_bootstrap_limit_is_still_bootstrapped():
    x = np.random.default_rng(5).exponential(size=stats.BOOTSTRAP_MAX)
    low, high = stats.mean_interval(x)
    t_low, t_high = sps.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=sps.sem(x))
    assert (low, high) != pytest.approx((t_low, t_high), rel=1e-12)
    assert low < x.mean() < high


def test_seats_that_never_won_give_no_seat_test_and_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chi2, p = stats.seat_uniformity([0, 0, 0, 0])
    assert math.isnan(chi2) and math.isnan(p)
