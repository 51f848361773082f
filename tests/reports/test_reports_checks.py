"""Automatic warnings (analyses.checks): one test per kind, on hand-built tables."""
import pandas as pd

from analyses.checks import (
    KINDS,
    MIN_GAMES,
    rank_check,
    rate_checks,
    sweep_timeout_check,
    timeout_check,
    zero_turn_check,
)


def rates(**columns):
    return pd.DataFrame(columns)


def test_a_rate_on_fewer_than_30_games_is_flagged_and_30_is_not():
    table = rates(policy=["a", "b"], games=[MIN_GAMES - 1, MIN_GAMES], win_rate=[0.4, 0.6])
    found = rate_checks(table, "by_policy")
    assert [(w["kind"], w["row"]) for w in found] == [("few_games", 0)]
    assert "29 games" in found[0]["message"] and found[0]["source"] == "by_policy"


def test_a_rate_of_0_or_100_percent_is_flagged():
    table = rates(policy=["a", "b", "c"], games=[75, 75, 75], win_rate=[0.0, 1.0, 0.5])
    found = rate_checks(table, "by_policy")
    assert [(w["kind"], w["row"]) for w in found] == [("extreme_rate", 0), ("extreme_rate", 1)]
    assert "100%" in found[1]["message"]


def test_sweep_rates_are_checked_per_metric_but_means_and_the_turn_cap_rate_are_not():
    sweep = rates(value=[3, 3, 3], metric=["karkoth_win_rate", "turns", "timeout_rate"], n=[75, 75, 75],
                  estimate=[1.0, 30.0, 0.0])
    found = rate_checks(sweep, "sweep", rates=("estimate",), n="n")
    assert [(w["kind"], w["row"]) for w in found] == [("extreme_rate", 0)]
    assert "at 3:" in found[0]["message"] and "karkoth" in found[0]["message"]


def test_games_of_0_turns_are_flagged():
    assert zero_turn_check(pd.Series([5, 0, 12, 0]))[0]["kind"] == "zero_turns"
    assert "2 of 4 games" in zero_turn_check(pd.Series([5, 0, 12, 0]))[0]["message"]
    assert zero_turn_check(pd.Series([1, 2, 3])) == []


def test_a_timeout_rate_above_1_percent_is_flagged():
    summary = rates(games=[1000, 1000], timeout_rate=[0.011, 0.01])
    assert [w["row"] for w in timeout_check(summary)] == [0]
    sweep = rates(value=[2, 5], metric=["timeout_rate", "timeout_rate"], n=[50, 50], estimate=[0.0, 0.04])
    found = sweep_timeout_check(sweep)
    assert [(w["kind"], w["row"]) for w in found] == [("timeouts", 1)]


def test_rankings_that_disagree_between_tables_are_flagged():
    mixed = rates(policy=["aggressive", "balanced", "random"], win_rate=[0.05, 0.6, 0.0])
    ratings = rates(policy=["aggressive", "balanced", "random"], elo=[200.0, 100.0, -300.0])
    found = rank_check(mixed, ratings)
    assert [w["kind"] for w in found] == ["rank_disagreement"]
    assert "balanced, aggressive, random" in found[0]["message"]
    agree = rates(policy=["aggressive", "balanced", "random"], elo=[50.0, 100.0, -300.0])
    assert rank_check(mixed, agree) == []


def test_every_kind_has_a_test_above():
    assert set(KINDS) == {"few_games", "extreme_rate", "zero_turns", "timeouts", "rank_disagreement"}
