"""Coverage of `analyses.card_impact` on a toy with no effect, under every seat order of the lab.

Each run is a results table drawn from the toy game's exact clustered model
(`toygame.paired_runs`): four fair seats (lineup a, b, c, d), games grouped in deals as
`analyses.simulate` groups them ('rotate': deals of 4 rotations sharing a seed; 'random' and
'fixed': one game per deal). Two per-seat stats are drawn per deal, independently of who wins, so
the true difference in win rate with and without each is exactly 0:

- ``hand`` (0/1) belongs to the seat: drawn once per deal and seat, the same in every rotation
  (a seat's dealt hand). With ``seat_luck`` the deal hands every rotation to the same seat, so
  a seat's stat and its win repeat together within a deal.
- ``style`` (a count) belongs to the policy: drawn once per deal and policy, following the policy
  from seat to seat. With ``policy_luck`` the first policy wins every rotation of the deal.

Every row holds the reported interval and p-value (the deal as the unit) and the naive ones from
the same counts (every seat of every game an independent trial: Fisher's exact test and a normal
interval), so a test shows both that the code covers and that the naive analysis would fail.
The test (tests/analyses/test_analyses_impact_coverage.py) and `benchmarks/studies/bench_impact_coverage.py`
call these.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from analyses.card_impact import card_impact

import toygame as toy

LINEUP = ("a", "b", "c", "d")
DESIGNS = ("rotate", "random", "fixed")
Z95 = float(stats.norm.ppf(0.975))


def impact_table(design: str, rng, n_games: int = 200, seat_luck: float = 0.4, policy_luck: float = 0.2,
                 hand_share: float = 0.5, style_mean: float = 1.5) -> pd.DataFrame:
    """One results table of `n_games` games with the stats ``hand`` and ``style`` (no effect)."""
    players = len(LINEUP)
    shares = np.full((players, players), 1 / players)
    winners, deal, rot, _ = toy.paired_runs(shares, 1, n_games, design, rng, seat_luck=seat_luck,
                                            policy_luck=policy_luck)
    df = toy.results_frame(winners[0], deal, rot[0], LINEUP)
    deals = int(deal.max()) + 1
    hand = rng.random((deals, players)) < hand_share                    # per deal and seat
    style = rng.poisson(style_mean, size=(deals, players))              # per deal and policy (base seat)
    r = rot[0]
    for seat in range(players):
        df[f"seat{seat}_hand"] = hand[deal, seat].astype(np.int64)
        base = (seat - r) % players                                      # the policy in this seat: base seat
        df[f"seat{seat}_style"] = style[deal, base].astype(np.int64)
    return df


def runs(design: str, n_runs: int, seed: int = 0, **kwargs) -> pd.DataFrame:
    """One row per run and stat: reported and naive interval of the difference (points), p-values."""
    rng = np.random.default_rng(seed)
    rows = []
    for run in range(n_runs):
        impact = card_impact(impact_table(design, rng, **kwargs)).impact
        for r in impact.itertuples(index=False):
            p1, p0 = r.win_with, r.win_without
            half = 100 * Z95 * math.sqrt(p1 * (1 - p1) / r.n_with + p0 * (1 - p0) / r.n_without)
            k1, k0 = round(p1 * r.n_with), round(p0 * r.n_without)
            naive_p = stats.fisher_exact([[k1, r.n_with - k1], [k0, r.n_without - k0]]).pvalue
            rows.append({"design": design, "run": run, "stat": r.stat, "diff_pp": r.diff_pp, "ci_low": r.diff_low,
                         "ci_high": r.diff_high, "p_value": r.p_value, "deals": r.deals,
                         "naive_low": r.diff_pp - half, "naive_high": r.diff_pp + half, "naive_p": float(naive_p)})
    table = pd.DataFrame(rows)
    table["covered"] = (table["ci_low"] <= 0) & (0 <= table["ci_high"])
    table["naive_covered"] = (table["naive_low"] <= 0) & (0 <= table["naive_high"])
    table["significant"] = table["p_value"] < 0.05
    table["naive_significant"] = table["naive_p"] < 0.05
    return table


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Coverage and false positive rate, reported and naive, per design and stat."""
    out = table.groupby(["design", "stat"], sort=False).agg(
        runs=("run", "nunique"), coverage=("covered", "mean"), naive_coverage=("naive_covered", "mean"),
        false_positives=("significant", "mean"), naive_false_positives=("naive_significant", "mean"))
    return out.reset_index()
