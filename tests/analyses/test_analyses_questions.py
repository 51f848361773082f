"""The balance questions: win_rates, first_player_advantage, game_length, sweep."""
import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import analyses
from analyses import stats


@pytest.fixture(scope="module")
def mixed():
    """strong + 3 random, rotated, with a short round cap so that some games time out."""
    return analyses.simulate("toygame", 2000, rules={"max_rounds": 3}, policies="strong,random,random,random",
                             seed=3, progress=False)


@pytest.fixture(scope="module")
def shuffled():
    """The same setup with seat_order='random': every game is its own deal."""
    return analyses.simulate("toygame", 2000, rules={"max_rounds": 3}, policies="strong,random,random,random",
                             seed=3, seat_order="random", progress=False)


def deal_interval(wins_per_game, deals, z=1.959963984540054):
    """By hand: Wilson at the effective n from the deal-level (cluster-robust) variance."""
    per_deal = pd.DataFrame({"w": wins_per_game, "t": 1.0, "deal": deals}).groupby("deal").sum()
    n, p = per_deal["t"].sum(), per_deal["w"].sum() / per_deal["t"].sum()
    c = len(per_deal)
    var = c / (c - 1) * ((per_deal["w"] - p * per_deal["t"]) ** 2).sum() / n ** 2
    m = p * (1 - p) / var
    centre, half = (p + z * z / (2 * m)) / (1 + z * z / m), z / (1 + z * z / m) * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m))
    return centre - half, centre + half


def test_outcomes_report_timeouts_apart(mixed):
    outcomes = analyses.win_rates(mixed).outcomes.set_index("outcome")
    assert outcomes["count"].sum() == len(mixed)
    assert outcomes.loc["timeout", "count"] == mixed["timed_out"].sum() > 0
    assert outcomes.loc["decided", "rate"] == pytest.approx(1 - mixed["timed_out"].mean())


def test_seat_win_rates_are_over_decided_games(mixed):
    by_seat = analyses.win_rates(mixed).by_seat
    decided = mixed[~mixed["timed_out"]]
    for seat in range(4):
        row = by_seat.iloc[seat]
        wins = int((decided["winner"] == seat).sum())
        assert (row["games"], row["wins"]) == (len(decided), wins)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            deal_interval((decided["winner"] == seat).to_numpy(float), decided["deal"]))
        assert row["deals"] == decided["deal"].nunique() and row["method"].startswith("deal as the unit")
    assert by_seat["expected"].tolist() == [0.25] * 4


def test_with_one_game_per_deal_seat_intervals_are_wilson_and_tests_exact(shuffled):
    by_seat = analyses.win_rates(shuffled).by_seat
    decided = shuffled[~shuffled["timed_out"]]
    for seat in range(4):
        row = by_seat.iloc[seat]
        wins = int((decided["winner"] == seat).sum())
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(stats.wilson_interval(wins, len(decided)))
        assert row["p_value"] == pytest.approx(stats.binomial_pvalue(wins, len(decided), 0.25))
        assert row["design_effect"] == 1.0 and row["method"].startswith("independent games")


def test_policy_rates_count_games_not_seats(mixed, shuffled):
    by_policy = analyses.win_rates(shuffled).by_policy.set_index("policy")
    random = by_policy.loc["random"]
    assert random["seats"] == 3 and random["games"] == (~shuffled["timed_out"]).sum()
    low, high = stats.wilson_interval(random["wins"], random["games"])
    assert (random["ci_low"], random["ci_high"]) == pytest.approx((low / 3, high / 3))
    by_policy = analyses.win_rates(mixed).by_policy.set_index("policy")
    random = by_policy.loc["random"]
    decided = mixed[~mixed["timed_out"]]
    strong_seat = (decided[[f"seat{s}_policy" for s in range(4)]] == "strong").to_numpy().argmax(axis=1)
    random_won = (decided["winner"].to_numpy(int) != strong_seat).astype(float)
    low, high = deal_interval(random_won, decided["deal"])
    assert (random["ci_low"], random["ci_high"]) == pytest.approx((low / 3, high / 3))
    assert by_policy.loc["strong", "win_rate"] > 0.25 > random["win_rate"]
    assert by_policy.loc["strong", "p_value"] < 0.01


def test_matrix_and_ratings_rank_the_stronger_policy_first(mixed):
    result = analyses.win_rates(mixed)
    matrix = result.matrix.set_index(["policy", "opponent"])
    assert matrix.loc[("strong", "random"), "win_rate"] > matrix.loc[("random", "strong"), "win_rate"]
    ratings = result.ratings.set_index("policy")
    assert ratings.loc["strong", "elo_low"] > ratings.loc["random", "elo_high"]
    # the winner beats each other seat of another policy: strong beats 3 randoms, a random beats strong
    strong_games = result.by_policy.set_index("policy").loc["strong", "wins"]
    random_games = result.by_policy.set_index("policy").loc["random", "wins"]
    assert ratings.loc["strong", "wins"] == 3 * strong_games and ratings.loc["random", "wins"] == random_games


def test_factions_from_an_argument(mixed):
    by_faction = analyses.win_rates(mixed, factions={0: "red", 1: "blue", 2: "red", 3: "blue"}).by_faction
    assert by_faction["faction"].tolist() == ["blue", "red"] and (by_faction["seats"] == 2).all()
    assert by_faction["win_rate"].sum() * 2 == pytest.approx(1.0)


def test_first_player_advantage_columns_and_ludii_metrics(mixed):
    result = analyses.first_player_advantage(mixed)
    seats, summary = result.seats, result.summary.iloc[0]
    assert {"win_rate", "ci_low", "ci_high", "p_value", "effect_pp", "games", "wins"} <= set(seats.columns)
    assert summary["balance"] == pytest.approx(1 - (seats["win_rate"].max() - seats["win_rate"].min()))
    assert summary["advantage_p1"] == seats["win_rate"].iloc[0]
    assert summary["games_to_detect_1pp"] == np.ceil(stats.games_needed(0.01, 0.25) * seats["design_effect"].max())
    assert summary["decided"] + summary["timeouts"] == summary["games"] == 2000
    assert summary["method"].endswith("Rao-Scott chi-square (deal as the unit)")
    assert summary["deals"] == 500 and summary["chi2_df"] != 3


def test_with_one_game_per_deal_the_omnibus_test_is_pearsons_chi_square(shuffled):
    result = analyses.first_player_advantage(shuffled)
    seats, summary = result.seats, result.summary.iloc[0]
    assert summary["games_to_detect_1pp"] == stats.games_needed(0.01, 0.25)
    assert summary["chi2_p"] == pytest.approx(stats.seat_uniformity(seats["wins"])[1])
    assert (summary["chi2_df"], summary["design_effect"]) == (3, 1.0)


def test_first_player_advantage_groups_player_counts_and_lineups():
    runs = [analyses.simulate("toygame", 120, rules={"players": 3}, policies="random", seed=1, progress=False),
            analyses.simulate("toygame", 120, rules={"players": 4}, policies="strong,random,random,random",
                              seed=1, progress=False),
            analyses.simulate("toygame", 120, rules={"players": 4}, policies="random", seed=1, progress=False)]
    result = analyses.first_player_advantage(pd.concat(runs, ignore_index=True))
    assert result.summary[["players", "lineup"]].values.tolist() == [
        [3, "random+random+random"], [4, "random+random+random+random"], [4, "random+random+random+strong"]]
    assert len(result.seats) == 3 + 4 + 4 and (result.summary["games"] == 120).all()
    assert str(result).startswith("== summary ==")


def test_game_length_summary_and_by_winner(mixed):
    result = analyses.game_length(mixed)
    turns = result.summary.set_index("metric").loc["turns"]
    assert turns["mean"] == pytest.approx(mixed["turns"].mean())
    assert turns["median"] == mixed["turns"].median() and turns["max"] == mixed["turns"].max()
    assert turns["ci_low"] < turns["mean"] < turns["ci_high"]
    by_winner = result.by_winner[result.by_winner["metric"] == "decisions"].set_index("winner")
    assert by_winner["share"].sum() == pytest.approx(1.0)
    assert by_winner.loc["timeout", "n"] == mixed["timed_out"].sum()
    assert by_winner.loc["seat 2", "mean"] == pytest.approx(mixed.loc[mixed["winner"] == 2, "decisions"].mean())


def test_sweep_uses_common_random_numbers_and_reports_paired_differences():
    result = analyses.sweep("toygame", "bias", ["0", "0.3"], 600, seed=4, progress=False)
    base, biased = result.runs.values()
    assert list(result.runs) == [0.0, 0.3]
    assert base["game_seed"].equals(biased["game_seed"])
    assert_frame_equal(base, analyses.simulate("toygame", 600, rules={"bias": 0.0}, seed=4, progress=False))
    effects = result.effects.set_index(["value", "metric"])
    seat0 = effects.loc[(0.3, "seat0_win_rate")]
    assert seat0["diff"] == pytest.approx(seat0["estimate"] - effects.loc[(0.0, "seat0_win_rate"), "estimate"])
    assert seat0["diff_ci_low"] > 0 and seat0["diff_p"] < 1e-3
    assert np.isnan(effects.loc[(0.0, "turns"), "diff"])


def test_sweep_of_a_policy_parameter(toy):
    result = analyses.sweep("toygame", "lucky", [0, "1"], 400, rules={"players": 2}, policies="strong,random",
                            policy_param="strong", progress=False)
    assert list(result.runs) == [0.0, 1.0]
    effects = result.effects.set_index(["value", "metric"])
    assert effects.loc[(1.0, "strong_win_rate"), "diff_ci_low"] > 0
    with pytest.raises(ValueError, match="'strong' is not among the policies"):
        analyses.sweep("toygame", "lucky", [0], 10, policies="random", policy_param="strong", progress=False)


def test_sweep_rejects_unknown_fields_and_repeated_values():
    with pytest.raises(ValueError, match="unknown Rules field 'speed'"):
        analyses.sweep("toygame", "speed", [1], 10, progress=False)
    with pytest.raises(ValueError, match="given twice"):
        analyses.sweep("toygame", "players", ["3", 3], 10, progress=False)


def test_questions_survive_a_run_where_every_game_times_out():
    df = analyses.simulate("toygame", 20, rules={"base": 1e-9, "max_rounds": 1}, policies="strong,random,random,random",
                           seed=1, progress=False)
    assert df["timed_out"].all()
    fpa = analyses.first_player_advantage(df)
    assert fpa.summary["timeouts"].iloc[0] == 20 and fpa.seats["win_rate"].isna().all()
    assert analyses.win_rates(df).outcomes.set_index("outcome").loc["timeout", "rate"] == 1.0
    assert analyses.game_length(df).by_winner["winner"].unique().tolist() == ["timeout"]
