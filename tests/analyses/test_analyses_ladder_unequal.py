"""Skill ladder with fewer games for the search rungs (Nerath's search rungs within 30 minutes):
unequal games per pairing and per rung on the toy game with a known ordering, the stratified
bootstrap over deals, and Nerath's default ladder."""
import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

import analyses
from analyses import ladder as L
from analyses import ladder_stats as ls
from analyses.stats import ELO_PER_NAT
from reports.ladder import ladder_view
from reports.ladder import pairwise_table as report_pairwise

import toygame

TOY_RULES = {"base": 0.2, "edge": 1.0, "bias": 0.6}
PLAIN = toygame.StrongPolicy(lucky=0.0, name="plain")   # never the lucky die: weaker than random


@pytest.fixture(scope="module")
def uneven():
    return L.skill_ladder(toygame, [PLAIN, "random", "strong"], games=600, findings_games=600, search_games=200,
                          search_findings_games=150, search_rungs=["strong"], seed=4, rules=TOY_RULES,
                          bootstrap=1000, progress=False)


def test_pairings_with_a_search_rung_play_fewer_games_on_the_first_of_the_same_deals(uneven):
    pw = uneven.pairwise.set_index(["rung", "opponent"])
    assert pw.loc[("plain", "random"), "games"] == 600
    assert pw.loc[("plain", "strong"), "games"] == pw.loc[("random", "strong"), "games"] == 200
    f = uneven.findings
    assert set(f.loc[f["rung"] == "strong", "games"]) == {150} and set(f.loc[f["rung"] != "strong", "games"]) == {600}
    r = uneven.ratings.set_index("rung")
    assert list(r.loc[["plain", "random", "strong"], "games"]) == [800, 800, 400]
    m = uneven.metadata
    assert m["search_rungs"] == ["strong"] and m["search_games_per_pairing"] == 200
    assert m["search_findings_games"] == 150 and m["pairing_games"]["random vs strong"] == 200
    assert m["rating_games"] == 600 + 2 * 200 and m["findings_games_played"] == 2 * 600 + 150
    assert "search rungs (strong): 200 games per pairing, 150 self-play games" in uneven.to_text()


def test_the_uneven_toy_ladder_keeps_the_known_ordering_and_exact_odds(uneven):
    r = uneven.ratings.set_index("rung")
    assert r.loc["plain", "elo"] < 0 == r.loc["random", "elo"] < r.loc["strong", "elo"]
    assert uneven.metadata["chain"] == ["plain", "random", "strong"]
    rules = toygame.Rules(players=2, **TOY_RULES)
    policies = {"plain": PLAIN, "random": toygame.RandomPolicy(), "strong": toygame.StrongPolicy()}
    for _, row in uneven.pairwise.iterrows():
        a, b = policies[row["rung"]], policies[row["opponent"]]
        first, t1 = toygame.win_probabilities(rules, [a, b])
        second, t2 = toygame.win_probabilities(rules, [b, a])
        exact = (first[0] + t1 / 2 + second[1] + t2 / 2) / 2
        se = (row["ci_high"] - row["ci_low"]) / (2 * 1.96)
        assert abs(row["score"] - exact) < 3.5 * se, (row["rung"], row["opponent"], row["score"], exact)
    # fewer games, wider intervals: the search rung's rating interval is the widest
    width = r["elo_high"] - r["elo_low"]
    assert width["strong"] > width["plain"]
    seat1 = uneven.findings[uneven.findings["finding"] == "seat 1: win rate − fair share"]
    assert seat1["significant"].all() and seat1["robust"].all() and (seat1["estimate"] > 0).all()


def test_the_bootstrap_draws_deals_within_strata_of_equal_pairings():
    d = np.zeros((10, 3, 3))
    d[:, 0, 1] = d[:, 1, 0] = 1          # every deal: rungs 0 and 1
    d[:4, 0, 2] = 2                      # deals 0-3 only: rung 2 (a search rung) against 0 and 1
    d[:4, 2, 1] = 2
    assert list(ls.deal_strata(d)) == [0] * 4 + [1] * 6
    counts = ls.deal_counts(d, 500, np.random.default_rng(1))
    assert (counts[:, :4].sum(axis=1) == 4).all() and (counts[:, 4:].sum(axis=1) == 6).all()
    assert counts[:, 0].std() > 0.5                                      # deals are redrawn within a stratum
    same = np.ones((10, 2, 2)) - np.eye(2)                                # one stratum: the plain bootstrap
    assert np.array_equal(ls.deal_counts(same, 50, np.random.default_rng(3)),
                          np.random.default_rng(3).multinomial(10, np.full(10, 0.1), size=50).astype(float))


def uneven_deals(theta, deals, few, rng, alike=True):
    """(deals, 3, 3): rungs 0 and 1 play every deal, rung 2 (the search rung) only deals 0..few-1;
    alike: a deal decides both of its games of a pairing alike (games within a deal are dependent),
    else the two games are independent."""
    d = np.zeros((deals, 3, 3))
    p = expit(np.subtract.outer(theta, theta))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        n = deals if j < 2 else few
        wins = 2.0 * (rng.random(n) < p[i, j]) if alike else (rng.random((n, 2)) < p[i, j]).sum(axis=1)
        d[:n, i, j] += wins
        d[:n, j, i] += 2 - wins
    return d


def test_stratified_deal_bootstrap_covers_the_truth_with_unequal_games_per_pairing():
    theta = np.array([0.0, 0.5, 1.0])
    truth = ELO_PER_NAT * (theta - theta[0])
    rng = np.random.default_rng(23)
    runs, hits = 200, np.zeros(2)
    for r in range(runs):
        ratings, _ = ls.ladder_ratings(uneven_deals(theta, 120, 30, rng), list("abc"), anchor="a", bootstrap=300,
                                       seed=r)
        low, high = ratings["elo_low"].to_numpy()[1:], ratings["elo_high"].to_numpy()[1:]
        hits += (low <= truth[1:]) & (truth[1:] <= high)
    se = np.sqrt(0.95 * 0.05 / runs)        # about 1.5 points per rung
    assert (np.abs(hits / runs - 0.95) < 4 * se + 0.01).all(), hits / runs


def test_a_stratum_of_two_deals_is_redrawn_game_by_game_and_then_covers_the_truth(monkeypatch):
    """Nerath's design: the search rung plays 2 deals (4 games) per pairing. A bootstrap over those 2
    deals has at most 3 outcomes and under-covers badly; redrawing their games at the observed rate
    (independent games here, as simulated) covers at least the nominal rate."""
    theta = np.array([0.0, 0.5, 1.0])
    truth = ELO_PER_NAT * (theta - theta[0])

    def coverage():
        rng = np.random.default_rng(5)
        hits = np.zeros(2)
        for r in range(150):
            d = uneven_deals(theta, 120, 2, rng, alike=False)
            ratings, _ = ls.ladder_ratings(d, list("abc"), anchor="a", bootstrap=300, seed=r)
            low, high = ratings["elo_low"].to_numpy()[1:], ratings["elo_high"].to_numpy()[1:]
            hits += (low <= truth[1:]) & (truth[1:] <= high)
        return hits / 150

    se = np.sqrt(0.95 * 0.05 / 150)         # about 1.8 points
    assert (coverage() > 0.95 - 3 * se).all()
    monkeypatch.setattr(ls, "MIN_STRATUM_DEALS", 0)                     # every stratum resampled by deals
    assert coverage()[1] < 0.80                                         # about 0.63: far too narrow


def test_nerath_default_ladder_has_one_search_rung_played_100_games_a_pairing():
    rungs = L.default_ladder("nerath")
    assert rungs[0] == "random" and "balanced" in rungs and rungs[-2] == "tuned"
    assert rungs[-1:] == ["ismcts:4:base=tuned:steps=0:margin=1e-9"]
    module = analyses.load_game("nerath")
    entries = L.resolve_policies(module, rungs, len(rungs))
    assert [L.is_search_rung(e) for e in entries] == [False] * (len(rungs) - 1) + [True]
    assert "tuned" in repr(entries[-1]) and "rollouts=4" in repr(entries[-1])
    assert L.SEARCH_GAMES["nerathsim"] == L.SEARCH_FINDINGS_GAMES["nerathsim"] == 100   # no verdict on fewer
    assert L.SEARCH_GAMES["nerathsim"] < L.DEFAULT_GAMES["nerathsim"]


def test_bad_search_counts_and_rungs_are_refused_before_any_game():
    with pytest.raises(ValueError, match="search_games"):
        L.skill_ladder(toygame, ["random", "strong"], games=2, search_games=0, progress=False)
    with pytest.raises(ValueError, match="search_findings_games"):
        L.skill_ladder(toygame, ["random", "strong"], games=2, search_findings_games=-1, progress=False)
    with pytest.raises(ValueError, match="not a rung"):
        L.skill_ladder(toygame, ["random", "strong"], games=2, search_rungs=["nope"], progress=False)


def test_the_report_view_shows_the_search_rungs_fewer_games(uneven):
    view = ladder_view(uneven, lambda df: df)
    assert "the search rungs (strong) 200 games per pairing, on the first 100 of those deals" in view["summary"]
    assert "150 self-play games" in view["summary"]
    assert "--search-games 200 --search-findings-games 150" in view["command"]
    cells = view["findings"]
    assert cells.filter(like="strong").iloc[0, 0].endswith("; 150 games")
    assert cells.filter(like="random").iloc[0, 0].endswith("; 600 games")
    assert set(view["pairwise"]["interval unit"]) == {"deals"}          # every pairing has >= 10 deals


def test_the_report_names_games_as_the_unit_of_a_two_deal_pairing():
    split = pd.DataFrame({"a": 0, "b": 1, "deal": [0, 0, 1, 1], "a_seat": [0, 1, 0, 1],
                          "score": [1.0, 0.0, 0.0, 1.0], "decided": True})
    table = report_pairwise(L.pairwise_table(split, ["x", "y"], np.zeros(2), np.zeros((0, 2))))
    assert list(table["interval unit"]) == ["games"] and list(table["games"]) == ["4"]


def paired_record(deals, p, seat_swing, rng):
    """One pairing's rating games as `pairing_records` gives them: each deal played twice with the
    seats swapped; the deal favours one seat by ±seat_swing, so a's true score over both orders is p."""
    tilt = seat_swing * rng.choice([-1.0, 1.0], size=deals)
    first = rng.random(deals) < p + tilt          # a in seat 0
    second = rng.random(deals) < p - tilt         # a in seat 1
    score = np.column_stack([first, second]).astype(float).ravel()
    return pd.DataFrame({"a": 0, "b": 1, "deal": np.repeat(np.arange(deals), 2), "a_seat": np.tile([0, 1], deals),
                         "score": score, "decided": True})


def test_a_pairing_of_two_deals_gets_a_game_level_interval():
    """Nerath's search pairings play 2 deals (4 games). An interval clustered by deal from 2 deals is
    no estimate (two deals that each split 1–1 give [0.5, 0.5]); under the lab's paired design (seats
    swapped inside a deal, deals favouring a seat) the game-level interval covers the truth."""
    split = pd.DataFrame({"a": 0, "b": 1, "deal": [0, 0, 1, 1], "a_seat": [0, 1, 0, 1],
                          "score": [1.0, 0.0, 0.0, 1.0], "decided": True})
    row = L.pairwise_table(split, ["x", "y"], np.zeros(2), np.zeros((0, 2))).iloc[0]
    assert row["unit"] == "game" and row["score"] == 0.5
    assert row["ci_low"] < 0.2 and row["ci_high"] > 0.8 and row["p_value"] == pytest.approx(1.0)
    rng = np.random.default_rng(17)
    runs = 400
    for p in (0.5, 0.7):
        hits = 0
        for _ in range(runs):
            row = L.pairwise_table(paired_record(2, p, 0.2, rng), ["x", "y"], np.zeros(2), np.zeros((0, 2))).iloc[0]
            hits += row["ci_low"] <= p <= row["ci_high"]
        assert hits / runs > 0.95 - 3 * np.sqrt(0.95 * 0.05 / runs), (p, hits / runs)


def test_a_pairing_of_many_deals_keeps_the_deal_as_the_unit_and_covers_the_truth():
    rng = np.random.default_rng(29)
    runs, hits = 300, 0
    for _ in range(runs):
        row = L.pairwise_table(paired_record(60, 0.6, 0.3, rng), ["x", "y"], np.zeros(2), np.zeros((0, 2))).iloc[0]
        assert row["unit"] == "deal"
        hits += row["ci_low"] <= 0.6 <= row["ci_high"]
    assert abs(hits / runs - 0.95) < 4 * np.sqrt(0.95 * 0.05 / runs) + 0.01, hits / runs


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_the_search_rungs_games_played_in_one_pool_are_the_games_simulate_plays(n_jobs):
    """A search rung's pairings and self-play run game by game in one pool (`play_search_games`); with as
    many games as the other rungs they must give the ladder that playing them run by run gives."""
    kwargs = dict(games=60, findings_games=40, search_games=60, search_findings_games=40, seed=8, rules=TOY_RULES,
                  bootstrap=200, progress=False)
    pooled = L.skill_ladder(toygame, [PLAIN, "random", "strong"], search_rungs=["strong"], n_jobs=n_jobs, **kwargs)
    plain = L.skill_ladder(toygame, [PLAIN, "random", "strong"], search_rungs=[], **kwargs)
    assert pooled.metadata["search_rungs"] == ["strong"] and plain.metadata["search_rungs"] == []
    pd.testing.assert_frame_equal(pooled.ratings, plain.ratings)
    pd.testing.assert_frame_equal(pooled.pairwise, plain.pairwise)
    pd.testing.assert_frame_equal(pooled.findings, plain.findings)


def test_simulate_runs_returns_what_simulate_returns_run_by_run():
    runs = {"a": {"n_games": 7, "rules": {**TOY_RULES, "players": 2}, "policies": ["random", "strong"], "seed": 3, "seat_order": "fixed"},
            "b": {"n_games": 5, "rules": TOY_RULES, "policies": "strong", "seed": 4}}
    got = analyses.runner.simulate_runs(toygame, runs, n_jobs=2, progress=False)
    for key, arguments in runs.items():
        want = analyses.simulate(toygame, progress=False, **arguments)
        pd.testing.assert_frame_equal(got[key], want)
        assert got[key].attrs == want.attrs
