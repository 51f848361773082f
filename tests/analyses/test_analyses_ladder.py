"""The skill ladder (analyses/ladder.py, analyses/ladder_stats.py): Bradley–Terry on synthetic data,
the ladder on the toy game with policies of known strength, robust marking, skill depth, the CLI."""
import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

import analyses
import nightsim
from analyses import ladder as L
from analyses import ladder_stats as ls
from analyses.stats import ELO_PER_NAT, bradley_terry

import toygame

TOY_RULES = {"base": 0.2, "edge": 1.0}
PLAIN = toygame.StrongPolicy(lucky=0.0, name="plain")   # never the lucky die: weaker than random


def synthetic_deals(theta, deals, rng):
    """(deals, k, k) scores of a round-robin with two games per pairing and deal, from known log-strengths."""
    k = len(theta)
    d = np.zeros((deals, k, k))
    p = expit(np.subtract.outer(theta, theta))
    for i in range(k):
        for j in range(i + 1, k):
            wins = (rng.random((deals, 2)) < p[i, j]).sum(axis=1)
            d[:, i, j] += wins
            d[:, j, i] += 2 - wins
    return d


def test_the_fit_is_the_maximum_likelihood_of_stats_bradley_terry():
    rng = np.random.default_rng(5)
    wins = synthetic_deals(np.array([0.0, 0.4, 1.3]), 100, rng).sum(axis=0) + 0.5 * (1 - np.eye(3))
    names = ["a", "b", "c"]
    reference = bradley_terry(pd.DataFrame(wins, index=names, columns=names))["log_strength"].to_numpy()
    np.testing.assert_allclose(ls.fit_log_strengths(wins), reference, atol=1e-6)
    batched = ls.fit_log_strengths(np.stack([wins, wins.T]))
    np.testing.assert_allclose(batched[0], reference, atol=1e-6)
    np.testing.assert_allclose(batched[1], -reference, atol=1e-6)


def test_bradley_terry_recovers_known_strengths_within_their_standard_errors():
    theta = np.array([0.0, 0.3, 0.8, 1.6])
    truth = ELO_PER_NAT * (theta - theta[0])
    ratings, boot = ls.ladder_ratings(synthetic_deals(theta, 400, np.random.default_rng(11)), list("abcd"),
                                      anchor="a", bootstrap=1000, seed=2)
    assert ratings.attrs["anchor"] == "a" and ratings["elo"].iloc[0] == 0
    error = ratings["elo"].to_numpy() - truth
    se = ratings["se"].to_numpy()
    assert np.all(np.abs(error[1:]) < 3 * se[1:]), (error, se)
    # deals are independent and games within a deal too: the bootstrap agrees with the Fisher information
    np.testing.assert_allclose(se[1:], ratings["se_fisher"].to_numpy()[1:], rtol=0.25)
    assert list(ratings["rank"]) == [4, 3, 2, 1]
    assert np.all((ratings["elo_low"] <= ratings["elo"]) & (ratings["elo"] <= ratings["elo_high"]))
    assert boot.shape == (1000, 4)


def test_skill_depth_counts_the_levels_of_a_greedy_chain_of_significant_steps():
    rng = np.random.default_rng(0)
    elo = np.array([0.0, 10.0, 200.0, 215.0, 400.0])
    boot = elo + rng.normal(0, 20, size=(2000, 5))
    depth = ls.skill_depth(elo, boot)
    assert depth["levels"] == 3 and depth["chain"] == [0, 2, 4]
    assert list(depth["level"]) == [1, 1, 2, 2, 3]
    assert depth["span"] == 400 and depth["span_low"] < 400 < depth["span_high"]
    assert ls.skill_depth(np.zeros(3), rng.normal(0, 5, (500, 3)))["levels"] == 1


def findings(rows):
    return pd.DataFrame(rows, columns=["finding", "rung", "estimate", "significant"])


def test_a_finding_is_robust_only_when_sign_and_significance_hold_at_the_top_two_rungs():
    table = findings([
        ("holds", "weak", -1.0, False), ("holds", "good", 5.0, True), ("holds", "best", 4.0, True),
        ("flips", "good", 5.0, True), ("flips", "best", -4.0, True),
        ("fades", "weak", 9.0, True), ("fades", "good", 5.0, True), ("fades", "best", 1.0, False),
        ("below", "good", -3.0, True), ("below", "best", -2.5, True),
        ("missing", "weak", 3.0, True), ("missing", "good", 3.0, True),
    ])
    out = ls.mark_robust(table, ["best", "good"])
    verdict = out.groupby("finding")["robust"].first()
    assert verdict.to_dict() == {"below": True, "fades": False, "flips": False, "holds": True, "missing": False}
    words = out.groupby("finding")["verdict"].first()
    assert words["fades"] == "not significant at best"
    assert words["flips"] == "sign differs between the top two rungs"
    assert words["missing"] == "not measured at best"
    assert words["below"].startswith("robust: significantly below")
    assert out.loc[out["rung"] == "weak", "top"].eq(False).all() and out["robust"].dtype == bool


@pytest.fixture(scope="module")
def toy_ladder():
    return L.skill_ladder(toygame, [PLAIN, "random", "strong"], games=600, findings_games=600, seed=4,
                          rules={**TOY_RULES, "bias": 0.6}, bootstrap=1000, progress=False)


def test_the_toy_ladder_orders_policies_of_known_strength(toy_ladder):
    r = toy_ladder.ratings.set_index("rung")
    assert r.loc["random", "elo"] == 0
    assert r.loc["plain", "elo"] < 0 < r.loc["strong", "elo"]
    assert toy_ladder.metadata["levels"] == 3 and toy_ladder.metadata["chain"] == ["plain", "random", "strong"]
    assert list(r["level"].loc[["plain", "random", "strong"]]) == [1, 2, 3]
    m = toy_ladder.metadata
    assert m["games_played"] == 3 * 600 + 3 * 600 == m["rating_games"] + m["findings_games_played"]
    assert m["top"] == ["strong", "random"] and m["deals"] == 300


def test_the_toy_ladder_pairing_scores_match_the_exact_odds(toy_ladder):
    rules = toygame.Rules(players=2, bias=0.6, **TOY_RULES)
    policies = {"plain": PLAIN, "random": toygame.RandomPolicy(), "strong": toygame.StrongPolicy()}
    for _, row in toy_ladder.pairwise.iterrows():
        a, b = policies[row["rung"]], policies[row["opponent"]]
        first, t1 = toygame.win_probabilities(rules, [a, b])      # a in seat 0, then in seat 1
        second, t2 = toygame.win_probabilities(rules, [b, a])
        exact = (first[0] + t1 / 2 + second[1] + t2 / 2) / 2
        se = (row["ci_high"] - row["ci_low"]) / (2 * 1.96)
        assert abs(row["score"] - exact) < 3.5 * se, (row["rung"], row["opponent"], row["score"], exact)
        assert row["wins"] + row["losses"] + row["draws"] == row["games"] == 600


def test_the_seat_bias_of_the_toy_game_is_a_robust_finding_at_every_rung(toy_ladder):
    f = toy_ladder.findings
    seat1 = f[f["finding"] == "seat 1: win rate − fair share"]
    assert list(seat1["rung"]) == ["plain", "random", "strong"]          # weakest to strongest
    assert (seat1["estimate"] > 0).all() and seat1["significant"].all() and seat1["robust"].all()
    assert set(f.loc[f["top"], "rung"]) == {"strong", "random"}
    assert (f["games"] == 600).all()


def test_without_a_seat_bias_the_toy_seats_are_not_a_robust_finding():
    ladder = L.skill_ladder(toygame, [PLAIN, "strong"], games=40, findings_games=400, seed=1, rules=TOY_RULES,
                            bootstrap=200, progress=False)
    assert not ladder.findings["robust"].any()
    assert ladder.findings["verdict"].str.startswith("not significant").all()


def test_default_ladders_take_random_the_heuristics_tuned_and_search_where_it_resolves(monkeypatch):
    rungs = L.default_ladder("nightsim")
    assert rungs[0] == "random" and {"greedy", "purist", "aggressor", "heuristic"} <= set(rungs)
    assert rungs[-2:] == [f"ismcts:{n}" for n in L.SEARCH_BUDGETS["nightsim"]]
    monkeypatch.setitem(nightsim.POLICIES, "tuned", nightsim.POLICIES["greedy"])
    assert L.default_ladder("nightsim")[-3:] == ["tuned", *rungs[-2:]]       # tuned just below the search rungs
    nerath = L.default_ladder("nerath")
    assert hasattr(analyses.load_game("nerath"), "sample_state")
    assert nerath[0] == "random" and "balanced" in nerath
    assert nerath[-1:] == [f"ismcts:{n}" for n in L.SEARCH_BUDGETS["nerathsim"]] == ["ismcts:4:base=tuned:steps=0:margin=1e-9"]


@pytest.mark.parametrize("ladder, message", [
    (["random"], "at least two rungs"), (["random", "random"], "given twice"), (["random", "nope"], "unknown policy"),
])
def test_a_bad_ladder_is_refused_before_any_game(ladder, message):
    with pytest.raises(ValueError, match=message):
        L.skill_ladder(toygame, ladder, games=2, progress=False)


def test_cli_ladder_prints_the_tables_and_stores_a_result_the_report_can_read(tmp_path, capsys, run):
    out = tmp_path / "ladder.json"
    code, text, err = run(capsys, "ladder", "toygame", "--ladder", "random,strong", "--games", "20",
                          "--findings-games", "10", "--bootstrap", "50", "--out", str(out), "--no-progress")
    assert code == 0, err
    assert "skill depth" in text and "== ratings ==" in text and "== findings by rung ==" in text
    stored = L.Ladder.load(out)
    assert stored.metadata["game"] == "toygame" and stored.metadata["games_played"] == 20 + 2 * 10
    assert list(stored.ratings["rung"]) == ["random", "strong"] and stored.findings["robust"].dtype == bool
    assert set(L.load_ladders(tmp_path)) == {"toygame"}
    code, _, err = run(capsys, "ladder", "toygame", "--ladder", "random,strong", "--games", "2", "--out", str(out))
    assert code == 2 and "--force" in err
    code, _, err = run(capsys, "ladder", "toygame", "--games", "0")
    assert code == 2 and "--games" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="not a skill ladder file"):
        L.Ladder.load(bad)


def test_every_deal_is_played_in_both_seat_orders_even_by_rungs_with_equal_parameters():
    # nightsim's `heuristic` has `greedy`'s parameters: simulate would merge them into one seat order
    runs = {(0, 1): L.play_pairing(nightsim, "greedy", "heuristic", 5, {"players": 2}, 3, 1, None, False),
            (0, 2): L.play_pairing(nightsim, "greedy", "random", 5, {"players": 2}, 3, 1, None, False)}
    record = L.pairing_records(runs, ["greedy", "heuristic", "random"])
    for _, games in record.groupby(["a", "b"]):
        assert sorted(games["deal"]) == sorted(list(range(5)) * 2)
        assert all(sorted(seats) == [0, 1] for _, seats in games.groupby("deal")["a_seat"])
    seeds = [df.groupby("deal")["game_seed"].first() for df in runs.values()]
    assert seeds[0].equals(seeds[1])                                      # the same deals in every pairing


def shared_deals(theta, deals, rng):
    """Like `synthetic_deals`, but a deal decides both of its games of a pairing alike (the deal's
    cards win whichever seat order is played): games within a deal are not independent, while every
    pairing's expected score, and so the Bradley–Terry truth, is unchanged."""
    k = len(theta)
    d = np.zeros((deals, k, k))
    p = expit(np.subtract.outer(theta, theta))
    for i in range(k):
        for j in range(i + 1, k):
            wins = 2.0 * (rng.random(deals) < p[i, j])
            d[:, i, j] += wins
            d[:, j, i] += 2 - wins
    return d


def test_deal_bootstrap_intervals_cover_the_truth_when_a_deal_decides_both_its_games():
    """Coverage by simulation under the ladder's paired design: 95% bootstrap-over-deals intervals
    of each rating cover the known truth at about the nominal rate, while intervals from the Fisher
    information (every game independent) are too narrow by about sqrt(2) and under-cover."""
    theta = np.array([0.0, 0.5, 1.0])
    truth = ELO_PER_NAT * (theta - theta[0])
    rng = np.random.default_rng(17)
    runs, hit_boot, hit_fisher = 200, 0, 0
    for r in range(runs):
        ratings, _ = ls.ladder_ratings(shared_deals(theta, 80, rng), list("abc"), anchor="a", bootstrap=300, seed=r)
        elo, se_f = ratings["elo"].to_numpy()[1:], ratings["se_fisher"].to_numpy()[1:]
        inside = (ratings["elo_low"].to_numpy()[1:] <= truth[1:]) & (truth[1:] <= ratings["elo_high"].to_numpy()[1:])
        hit_boot += inside.sum()
        hit_fisher += (np.abs(elo - truth[1:]) <= 1.96 * se_f).sum()
    n = 2 * runs
    boot, fisher = hit_boot / n, hit_fisher / n
    se = np.sqrt(0.95 * 0.05 / n)    # about 1.1 points; the runs' ratings of b and c are correlated, so allow 4 se
    assert abs(boot - 0.95) < 4 * se + 0.01, (boot, fisher)
    assert fisher < 0.90, fisher      # about 0.83 expected: the naive analysis is overconfident


def test_the_midnighters_default_ladder_tops_with_its_default_search():
    rungs = L.default_ladder("dreamsim")
    assert rungs[-2:] == ["ismcts:40", "ismcts:default"]
    top = L.resolve_policies(analyses.load_game("dreamsim"), "ismcts:default", 1)[0]
    assert "tuned" in repr(top)            # dreamsim.SEARCH_DEFAULT: tuned rollouts, not the plain search
