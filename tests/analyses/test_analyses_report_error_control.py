"""A report's Findings control their errors on toy games with a known truth (fixed seeds, statistical tests).

Each simulated report runs the report's own code on a toy drawn from an exact model
(tests/analyses/report_toys.py): 4 fair seats with seat-bound luck (0.3) and 12 opening-hand cards, a
discovery and a confirmation run of 250 deals x 4 rotations (1,000 games each), one Holm family per report
(4 seats, the χ² of equal seats, 12 cards), claims selected on the discovery run and confirmed on the fresh
one. The null toy has no effect at all; in the effect toy card 0 doubles its holder's odds outside the lucky
deals (beta = 1: an exact +11.86 points).

- null toy: the share of reports stating a false finding (selected, then confirmed) is at most 5% plus 2
  binomial standard errors at 5% for the number of reports; the share selecting a false claim (the
  family-wise error of the Holm family, about 4% in the long run) at most 5% plus 3 of them;
- effect toy: the real effect is found (selected and confirmed) in at least 80% of reports (about 94% in the
  long run), false findings stay within the same bounds, and the printed confirmation estimate of the selected
  effect is unbiased: its mean minus the exact truth within 2 standard errors (the selected discovery
  estimate is not: the winner's curse puts it about 0.6 points high, which the long version shows);
- the exact truth (`report_toys.true_effect`) agrees with a large Monte-Carlo draw, and the fast seat tables
  the simulation uses are those `first_player_advantage` gives.

The long version, with the figures: `python benchmarks/studies/report_error_control.py --reports 400`.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyses.findings import ALPHA

import report_toys as rt

NULL_REPORTS, EFFECT_REPORTS = 100, 70


def _bound(n: int, errors: float = 2.0) -> float:
    """The nominal 5% plus `errors` binomial standard errors of a share over `n` reports."""
    return ALPHA + errors * math.sqrt(ALPHA * (1 - ALPHA) / n)


@pytest.mark.parametrize("seat_luck, beta, share", [(0.3, 1.0, 0.5), (0.5, 0.4, 0.25), (0.0, 2.0, 0.7)])
def test_the_exact_effect_of_the_card_agrees_with_a_large_monte_carlo_draw(seat_luck, beta, share):
    t = rt.Toy(deals=200_000, seat_luck=seat_luck, beta=beta, share=share, cards=1)
    d = rt.paired_differences(*rt.draw_run(t, np.random.default_rng(11)))
    se = d.std(ddof=1) / math.sqrt(len(d))
    truth = rt.true_effect(seat_luck, beta, share)
    assert abs(d.mean() - truth) <= 4 * se, (d.mean(), truth, se)
    assert se < 0.1 * truth                       # the draw is large enough to tell a wrong formula apart
    assert rt.true_effect(seat_luck, 0.0, share) == 0.0


def test_the_report_estimates_the_card_by_the_paired_difference_of_the_exact_truth():
    t = rt.effect_toy(deals=60)
    run = rt.draw_run(t, np.random.default_rng(5))
    table = rt.run_tables(t, run)[2]
    row = table[table["item"] == rt.EFFECT_CARD].iloc[0]
    d = rt.paired_differences(*run)
    assert row["deals"] == len(d)
    assert row["diff_pp"] == pytest.approx(100 * d.mean(), abs=1e-9)
    assert table["finding"].all() and set(table["item"]) == set(t.names)


def test_the_fast_seat_tables_are_those_of_first_player_advantage():
    t = rt.effect_toy(deals=60)
    run = rt.draw_run(t, np.random.default_rng(6))
    summary, seats = rt.seat_tables(run[0], run[1])
    report_summary, report_seats = rt.report_tables(t, run)
    pd.testing.assert_frame_equal(seats, report_seats)
    pd.testing.assert_frame_equal(summary, report_summary[summary.columns], check_dtype=False)


def test_a_report_on_the_null_toy_states_a_false_finding_at_most_at_the_nominal_rate():
    table = rt.reports(rt.Toy(), NULL_REPORTS, seed=20261207)
    stated, selected = table["false_stated"].mean(), table["false_selected"].mean()
    print(f"null toy, {NULL_REPORTS} reports: false finding stated {stated:.3f}, false claim selected {selected:.3f}, "
          f"bounds {_bound(NULL_REPORTS):.3f} and {_bound(NULL_REPORTS, 3):.3f}")
    assert not table["effect_selected"].any()
    assert stated <= _bound(NULL_REPORTS)
    assert stated <= selected <= _bound(NULL_REPORTS, 3)


def test_a_report_on_the_effect_toy_finds_the_effect_and_prints_an_unbiased_estimate_of_it():
    t = rt.effect_toy()
    table = rt.reports(t, EFFECT_REPORTS, seed=20261208)
    found = table["effect_stated"].mean()
    error, se, n = rt.estimate_error(table, t)
    print(f"effect toy, {EFFECT_REPORTS} reports: found {found:.3f}; printed estimate minus truth {error:+.2f} points "
          f"(SE {se:.2f}, {n} reports); false finding stated {table['false_stated'].mean():.3f}, false claim "
          f"selected {table['false_selected'].mean():.3f}")
    assert found >= 0.8
    assert n == table["effect_selected"].sum() and n >= 0.8 * EFFECT_REPORTS
    assert abs(error) <= 2 * se
    assert table["shown"].all()                   # the sentence shows the estimate the error is measured on
    assert table["false_stated"].mean() <= _bound(EFFECT_REPORTS)
    assert table["false_stated"].mean() <= table["false_selected"].mean() <= _bound(EFFECT_REPORTS, 3)


def test_a_toy_with_a_bad_setting_is_refused():
    for bad in ({"deals": 1}, {"seat_luck": 1.0}, {"beta": -0.5}, {"share": 0.0}, {"cards": 0}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            rt.Toy(**bad)
