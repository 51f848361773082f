"""`card_impact` is honest under every seat order: on a toy with no effect its nominal 95% interval
of the difference covers 0 at 95% and its test rejects at 5%, within simulation error.

Runs are drawn from the toy's exact clustered model (tests/analyses/impact_coverage.py says how):
a per-seat stat that belongs to the seat (``hand``: the same in every rotation of a deal, like the
seat's luck) and one that belongs to the policy (``style``: it follows the policy from seat to seat,
like the policy's luck), both independent of who wins. Seeds are fixed, so nothing flakes; the
band is 3 binomial standard errors around the nominal rate, counted over runs (the two stats of a
run share their winners, so they count as one run: conservative). The naive analysis of the same
counts (every seat of every game independent: Fisher's exact test) fails the same band under
rotated seats, so the test can fail. The long version, with the figures:
`python benchmarks/studies/bench_impact_coverage.py --runs 2000`.
"""
from __future__ import annotations

import math

import pytest

import impact_coverage as ic

RUNS = 100


def band(nominal: float, runs: int) -> tuple[float, float]:
    se = math.sqrt(nominal * (1 - nominal) / runs)
    return nominal - 3 * se, nominal + 3 * se


@pytest.mark.parametrize("design", ic.DESIGNS)
def test_the_interval_of_a_stat_without_effect_covers_zero_and_its_test_rejects_at_five_percent(design):
    table = ic.runs(design, RUNS, seed={"rotate": 1, "random": 2, "fixed": 3}[design], seat_luck=0.5)
    assert set(table["stat"]) == {"hand", "style"} and table["run"].nunique() == RUNS
    games_per_deal = 4 if design == "rotate" else 1
    assert (table["deals"] == 200 // games_per_deal).all()          # the deal is the unit
    low, high = band(0.95, RUNS)
    assert low <= table["covered"].mean() <= high
    low, high = band(0.05, RUNS)
    assert low <= table["significant"].mean() <= high
    if design == "rotate":
        # a seat's luck and its hand repeat in the 4 rotations of a deal: the naive analysis of the
        # same counts is far too narrow, and would fail this very test
        hand = table[table["stat"] == "hand"]
        assert hand["naive_covered"].mean() < band(0.95, RUNS)[0]
        assert hand["naive_significant"].mean() > band(0.05, RUNS)[1]
