"""card_impact on a hand-made results table with known counts."""
import pandas as pd
import pytest
from scipy import stats

from analyses.card_impact import card_impact, per_seat_stats, purchase_mix


def table():
    # 10 decided 2-seat games + 1 timeout. seat0 used "herald" in games 0-5, seat1 in 6-9.
    winner = [0, 0, 0, 0, 1, 1, 1, 1, 0, 1, None]
    herald0 = [1, 2, 1, 1, 1, 1, 0, 0, 0, 0, 5]
    herald1 = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 5]
    return pd.DataFrame({
        "game": range(11), "winner": pd.array(winner, dtype="Int8"), "turns": 10, "decisions": 20,
        "timed_out": [False] * 10 + [True],
        "seat0_policy": pd.Categorical(["a"] * 11), "seat1_policy": pd.Categorical(["b"] * 11),
        "seat0_score": 1, "seat1_score": 1,
        "seat0_ability_herald": herald0, "seat1_ability_herald": herald1,
    })


def test_with_and_without_counts_are_exact():
    r = card_impact(table())
    row = r.impact.set_index("stat").loc["ability_herald"]
    # seats with herald > 0 (timeout excluded): seat0 games 0-5 (won 0,1,2,3 -> 4 of 6), seat1 games 6-9 (won 6,7,9 -> 3 of 4)
    assert (row.n_with, row.n_without) == (10, 10)
    assert row.win_with == pytest.approx(7 / 10)
    # without: seat1 games 0-5 (won 4,5 -> 2 of 6), seat0 games 6-9 (won 8 -> 1 of 4)
    assert row.win_without == pytest.approx(3 / 10)
    assert row.diff_pp == pytest.approx(40.0)
    # the game is the unit (its two seats are one trial each, and one of them wins): per game,
    # u = (won_with - 0.7 * n_with) / 10 - (won_without - 0.3 * n_without) / 10 is +0.06 in the
    # 7 games where the seat with the stat won and -0.14 in the 3 where it lost; var = 10/9 * sum u^2
    se = (10 / 9 * (7 * 0.06 ** 2 + 3 * 0.14 ** 2)) ** 0.5
    t975 = stats.t.ppf(0.975, 9)
    assert row.p_value == pytest.approx(2 * stats.t.sf(0.4 / se, 9), rel=1e-9)
    assert (row.diff_low, row.diff_high) == pytest.approx((100 * (0.4 - t975 * se), 100 * (0.4 + t975 * se)), rel=1e-9)
    assert row.deals == 10 and row.p_value > stats.fisher_exact([[7, 3], [3, 7]]).pvalue
    assert row.with_low < 0.7 < row.with_high
    means = r.means.set_index("stat").loc["ability_herald"]
    # winning seats: seat0 in games 0,1,2,3,8 (1,2,1,1,0) and seat1 in games 4,5,6,7,9 (0,0,1,1,1)
    assert means.n_winners == 10 and means.mean_winners == pytest.approx(8 / 10)


def test_policy_filter_and_errors():
    r = card_impact(table(), policy="a")
    row = r.impact.set_index("stat").loc["ability_herald"]
    assert (row.n_with, row.n_without) == (6, 4)
    with pytest.raises(ValueError, match="unknown per-seat stat"):
        card_impact(table(), stats=["nope"])
    with pytest.raises(ValueError, match="policy 'zzz'"):
        card_impact(table(), policy="zzz")
    assert per_seat_stats(table()) == ["ability_herald"]


def test_purchase_mix_of_winners_and_losers():
    df = table()
    df["seat0_gold_spent"], df["seat1_gold_spent"] = 10, 10
    df["seat0_spent_dragon"] = [10] * 4 + [0] * 7      # seat0 bought dragons in games 0-3 (all won)
    df["seat1_spent_dragon"] = [0] * 11
    row = purchase_mix(df).set_index("unit").loc["dragon"]
    # decided games 0-9: winners = seat0 in 0,1,2,3,8 (shares 1,1,1,1,0) and seat1 in 4,5,6,7,9 (0)
    assert (row.n_winners, row.n_losers) == (10, 10)
    assert row.share_winners == pytest.approx(0.4) and row.share_losers == pytest.approx(0.0)
    assert row.diff_pp == pytest.approx(40.0)
    assert purchase_mix(table()).empty  # no purchases recorded
