"""The confirmation runs of `analyses.rebalance` (per condition) and `analyses.tune_policy` cover the
truth at 95%: proved by simulation on the toy game, through the real functions.

Each run calls `rebalance(...)` or `tune_policy(...)` end to end (search, then the confirmation on
fresh seeds) on the toy game, whose exact odds are known, with deal-level luck that makes the games
of a deal correlated (tests/analyses/confirm_coverage.py says how). Seeds are fixed, so nothing
flakes. With R runs a coverage estimate has binomial standard error sqrt(0.95 * 0.05 / R); a
reported coverage must lie within 3 of those of 95% (pooled measures of a run count as one run: a
conservative standard error). Each test also shows it can fail: the naive interval computed from the
same tables (every game an independent trial) falls below that band where the deal's luck repeats
in its games. The long version: `python benchmarks/studies/bench_coverage.py --rebalance 1000 --tune 1000`.
"""
from __future__ import annotations

import math

import pytest

import analyses

import confirm_coverage as cc


def band(runs: int) -> tuple[float, float]:
    se = math.sqrt(0.95 * 0.05 / runs)
    return 0.95 - 3 * se, 0.95 + 3 * se


def test_rebalance_confirms_each_condition_on_its_own_rotated_deals_and_covers_the_truth():
    runs = 40
    table = cc.rebalance_runs(runs, seed=1000, seat_luck=0.4)
    low, high = band(runs)
    assert set(table["condition"]) == {"as given", cc.TEAMS}
    assert table.groupby("run")["measure"].nunique().eq(6).all()         # 4 seats + 2 teams per run
    assert table["bias"].nunique() > 1                                     # the search picked different settings
    sizes = table.groupby(["run", "condition"])["confirm_games"].first().unstack()
    assert (sizes["as given"] != sizes[cc.TEAMS]).any()                    # each condition sized on its own
    for condition, part in table.groupby("condition"):
        assert low <= part["covered"].mean() <= high, condition
        # the seat's luck repeats in the 4 rotations of a deal: intervals wider than a per-game analysis,
        assert (part["width_ratio"] ** 2).mean() > 1.5, condition
        # and a per-game (naive) interval under-covers: the test above would fail with it
        assert part["naive_covered"].mean() < low, condition


@pytest.mark.parametrize("case", [
    dict(players=4, die_luck=0.8, seat_luck=0.0),      # luck of the policy: the same in every seat of a deal
    dict(players=2, die_luck=0.0, seat_luck=0.5),      # luck of the seat: split between the rotations
], ids=["policy-luck", "seat-luck"])
def test_tune_policy_confirmation_with_rotated_seats_and_common_deals_covers_the_truth(case):
    runs = 80 if case["die_luck"] else 40
    table = cc.tune_runs(runs, seed=2000, budget=1, **case)     # one trial: the confirmation is what is tested
    low, high = band(runs)
    assert (table["deals"] * case["players"] == table["n"]).all()        # every deal played in every seat
    assert (table["lucky"] != cc.START.lucky).all()
    assert low <= table["covered"].mean() <= high
    assert low <= table["gain_covered"].mean() <= high                 # the gain over the start's own 1/2
    ratio = (table["width_ratio"] ** 2).mean()
    if case["die_luck"]:
        assert ratio > 1.5 and table["naive_covered"].mean() < low      # a per-game interval fails the test
    else:
        assert ratio < 0.5 and table["naive_covered"].mean() > 0.97     # a per-game interval is far too wide


def test_one_seats_gain_over_the_starts_own_score_there_covers_the_truth():
    # seat 2 of 3 wins far more than its share whoever plays it (seat 1 is handicapped), and the deal's luck
    # repeats in the candidate's game and the start's self-play game of that deal: the pair is the unit
    runs = 40
    table = cc.tune_runs(runs, seed=4000, players=3, die_luck=0.5, bias=-0.8, seats=(1,), budget=1)
    low, high = band(runs)
    assert (table["deals"] == table["n"]).all()                          # one game a deal: the candidate's seat
    assert (table["baseline"] > 0.4).all() and (table["gain_truth"] > 0.02).all()
    assert low <= table["gain_covered"].mean() <= high
    # the win rate alone, judged against a fixed bar, would mistake the seat for the player
    assert (table["truth"] - table["gain_truth"] > 0.4).all()


def test_a_tuned_policy_equal_to_its_opponent_plays_each_deal_once_and_its_interval_is_the_exact_share():
    table = cc.tune_runs(4, seed=3000, players=4, die_luck=0.8, choices=(cc.START.lucky,), budget=1)
    assert (table["lucky"] == cc.START.lucky).all() and (table["deals"] * 4 == table["n"]).all()
    # every deal scores exactly 1/players (one game read from each seat), so the deal-level interval
    # is that point, which is the truth; a per-game analysis would report a spread that is not there
    assert table["truth"].to_numpy() == pytest.approx(0.25, abs=1e-12)
    assert table["ci_low"].to_numpy() == pytest.approx(0.25, abs=1e-12)
    assert table["ci_high"].to_numpy() == pytest.approx(0.25, abs=1e-12)
    assert table["covered"].all() and (table["naive_high"] - table["naive_low"] > 0.05).all()


def test_the_toys_die_luck_is_played_as_its_exact_odds_say(toy):
    """The exact odds the coverage tests use as truth, checked against 20,000 played games
    (|observed - exact| < 4 standard errors for every seat)."""
    rules = toy.Rules(players=4, die_luck=0.5, bias=0.3, seat_luck=0.2)
    lineup = ["strong", "random", "random", "random"]
    df = analyses.simulate(toy, 20_000, rules=rules, policies=lineup, seed=5, seat_order="fixed", progress=False)
    p, timeout = toy.win_probabilities(rules, lineup)
    for seat in range(4):
        observed = (df["winner"] == seat).mean()
        assert abs(observed - p[seat]) < 4 * math.sqrt(p[seat] * (1 - p[seat]) / len(df)), seat
    # always the lucky die: a loaded deal goes to the first seat, a dead one to nobody (a timeout)
    p, timeout = toy.win_probabilities(toy.Rules(players=2, die_luck=1.0), ["strong", "strong"])
    assert p == pytest.approx([0.5, 0.0]) and timeout == pytest.approx(0.5)
    df = analyses.simulate(toy, 200, rules=toy.Rules(players=2, die_luck=1.0), policies="strong,strong", seed=1,
                           seat_order="fixed", progress=False)
    assert set(df["winner"].dropna()) == {0} and 0.35 < df["timed_out"].mean() < 0.65
