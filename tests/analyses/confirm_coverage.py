"""Coverage of the confirmation runs of `analyses.rebalance` and `analyses.tune_policy` on the toy game.

Each run calls the real function (its search, then its confirmation run on fresh seeds) on the toy
game (tests/analyses/toygame.py), whose exact odds are known (`toygame.win_probabilities`), with
deal-level luck that makes the games of a deal correlated:

- `rebalance_runs`: objective ``seat_balance + alliance_balance@teams=true`` (each term scored on
  its own games; the confirmation sized and played per condition), line-up ``random + 3 coin``
  (as strong as each other, distinct, so seats rotate: 4 games per deal), knob ``bias``. With
  ``seat_luck`` a deal hands every rotation to the same seat (a seat's wins repeat within a deal:
  a per-game analysis is too narrow). The truth of a measure is the exact win rate of the
  *proposed* rules, whichever setting the search picked (the confirmation plays fresh seeds, so
  its intervals must cover whatever was selected).
- `tune_runs`: a `StrongPolicy` whose parameter `lucky` (chance of picking the lucky die) is
  tuned against the start policy (`lucky` = 0: never the lucky die), seats rotated, common random numbers. With
  ``die_luck`` a deal decides the lucky die (always or never a success): luck that belongs to the
  policy that picks it, in every seat of the deal (a per-game analysis is too narrow); with
  ``seat_luck`` the rotations of a deal split the lucky seat's win (too wide). With
  ``choices=(0.2,)`` the tuned policy equals its opponent, so each deal is played once and every
  deal scores exactly 1/players.

Every row holds the truth, the interval the code reports (the deal as the unit) and the *naive*
interval from the same table's counts, every game an independent trial: Wilson at n games for a
rate (what `clusters.rates` gives one game per deal), a t interval of the per-game scores for
the tuned win rate. The test (tests/analyses/test_analyses_confirm_coverage.py) and
`benchmarks/studies/bench_coverage.py --rebalance R --tune R` call these.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from analyses.clusters import wilson_bounds
from analyses.rebalance_search import rebalance
from analyses.tune import tune_policy

import toygame as toy

Z95 = float(stats.norm.ppf(0.975))
COIN = toy.StrongPolicy(lucky=0.5, name="coin")
LINEUP = (toy.POLICIES["random"], COIN, COIN, COIN)     # equally strong, distinct: 4 rotations per deal
TEAMS = "teams=true"
START = toy.StrongPolicy(lucky=0.0, name="start")
EXACT = 1e-12      # a degenerate interval (every deal scores the same) covers a truth equal to float rounding


def rebalance_truth(rules: toy.Rules) -> dict:
    """{measure label: exact win rate over decided games} of LINEUP under rotated seats, for the
    seats of `rules` and the teams of `rules` with teams=True (the objective's two conditions)."""
    out = {}
    for label, r in (("", rules), (TEAMS, toy.Rules(**{**rules.to_dict(), "teams": True}))):
        won = np.zeros(r.players)
        decided = 0.0
        for k in range(r.players):
            p, timeout = toy.win_probabilities(r, list(toy.rotation(LINEUP, k)))
            won, decided = won + p, decided + 1 - timeout
        rate = won / decided
        if label:
            half = r.players // 2
            out.update({f"[{label}] seat {s} + seat {s + half} win rate": rate[s] for s in range(half)})
        else:
            out.update({f"seat {s} win rate": rate[s] for s in range(r.players)})
    return out


def rebalance_runs(runs: int, seed: int = 0, seat_luck: float = 0.4, die_luck: float = 0.0,
                   tolerance: float = 0.08, precision: float = 1.0, confirm_games: int | None = None,
                   first_games: int = 40, bias: float = 0.6, knobs: str = "bias=0:0.6:0.3",
                   budget: int = 3) -> pd.DataFrame:
    """One row per run and confirmation measure: truth, reported interval, naive interval."""
    objective = f"seat_balance(tolerance={tolerance})+alliance_balance(tolerance={tolerance})@{TEAMS}"
    rows = []
    for run in range(runs):
        result = rebalance(toy, objective, knobs=knobs, rules={"bias": bias, "seat_luck": seat_luck,
                                                               "die_luck": die_luck},
                           policies=list(LINEUP), budget=budget, first_games=first_games, rungs=1,
                           confirm_games=confirm_games, confirm_precision=precision, seed=seed + run)
        proposed = float(result.proposal.set_index("knob").loc["bias", "proposed"])
        truth = rebalance_truth(toy.Rules(bias=proposed, seat_luck=seat_luck, die_luck=die_luck))
        for row in result.table.itertuples(index=False):
            naive_low, naive_high = wilson_bounds(row.after, row.n, Z95)
            condition = TEAMS if row.measure.startswith(f"[{TEAMS}]") else ""
            rows.append({"run": run, "condition": condition or "as given", "measure": row.measure,
                         "bias": proposed, "truth": truth[row.measure], "value": row.after,
                         "ci_low": row.after_low, "ci_high": row.after_high, "n": int(row.n),
                         "confirm_games": result.confirm_sizes[condition],
                         "naive_low": float(naive_low), "naive_high": float(naive_high)})
    return _covered(pd.DataFrame(rows))


def tune_truth(rules: toy.Rules, tuned, start, players: int, seats=None) -> float:
    """Exact mean score of `tuned` against `start`: one tuned seat, rotated over `seats` (every seat by
    default); a game without a winner scores 1/players."""
    seats = range(players) if seats is None else seats
    total = 0.0
    for seat in seats:
        lineup = [start] * players
        lineup[seat] = tuned
        p, timeout = toy.win_probabilities(rules, lineup)
        total += p[seat] + timeout / players
    return total / len(seats)


def tune_runs(runs: int, seed: int = 0, players: int = 2, seat_luck: float = 0.0, die_luck: float = 0.6,
              edge: float = 1.0, confirm_games: int = 400, games_per_trial: int = 40,
              choices: tuple = (0.8, 1.0), budget: int = 2, bias: float = 0.0, seats=None) -> pd.DataFrame:
    """One row per run: truth, the confirmation's interval (deal as the unit), naive interval; and the
    gain over the start in the same seats: its truth and the confirmation's interval (paired by deal)."""
    rules = {"edge": edge, "seat_luck": seat_luck, "die_luck": die_luck, "bias": bias}
    rows = []
    for run in range(runs):
        result = tune_policy(toy, start=START, pool=[START], space=[{"name": "lucky", "choices": list(choices)}],
                             rules=rules, players=players, budget=budget, games_per_trial=games_per_trial,
                             rungs=1, confirm_games=confirm_games, seed=seed + run, seats=seats)
        conf = result.confirmation.iloc[0]
        exact_rules = toy.Rules(players=players, **rules)
        truth = tune_truth(exact_rules, result.policy, START, players, seats)
        gain_truth = truth - tune_truth(exact_rules, START, START, players, seats)
        n, mean = int(conf["games"]), float(conf["win_rate"])
        second = (int(conf["wins"]) + int(conf["no_winner"]) / players ** 2) / n     # mean of the squared scores
        sd = math.sqrt(max(second - mean ** 2, 0.0) * n / max(n - 1, 1))
        half = float(stats.t.ppf(0.975, max(n - 1, 1))) * sd / math.sqrt(n)
        rows.append({"run": run, "measure": "tuned win rate", "lucky": result.params["lucky"], "truth": truth,
                     "value": mean, "ci_low": float(conf["ci_low"]), "ci_high": float(conf["ci_high"]), "n": n,
                     "deals": int(conf["deals"]), "naive_low": mean - half, "naive_high": mean + half,
                     "gain_truth": gain_truth, "gain": float(conf["gain"]), "gain_low": float(conf["gain_low"]),
                     "gain_high": float(conf["gain_high"]), "baseline": float(conf["baseline"])})
    table = _covered(pd.DataFrame(rows))
    table["gain_covered"] = (table["gain_low"] - EXACT <= table["gain_truth"]) & (
        table["gain_truth"] <= table["gain_high"] + EXACT)
    return table


def _covered(table: pd.DataFrame) -> pd.DataFrame:
    truth = table["truth"]
    table["covered"] = (table["ci_low"] - EXACT <= truth) & (truth <= table["ci_high"] + EXACT)
    table["naive_covered"] = (table["naive_low"] - EXACT <= truth) & (truth <= table["naive_high"] + EXACT)
    with np.errstate(divide="ignore", invalid="ignore"):
        table["width_ratio"] = (table["ci_high"] - table["ci_low"]) / (table["naive_high"] - table["naive_low"])
    return table


def summary(table: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Coverage (reported and naive), mean squared width ratio (≈ design effect), runs, mean n."""
    groups = table.groupby(by, sort=False) if by else [("all", table)]
    rows = []
    for key, part in groups:
        runs = part["run"].nunique()
        rows.append({by or "rows": key, "runs": runs, "measures": len(part), "mean n": part["n"].mean(),
                     "coverage": part["covered"].mean(), "naive coverage": part["naive_covered"].mean(),
                     "(width / naive)^2": float(np.nanmean(part["width_ratio"] ** 2)),
                     "coverage SE": math.sqrt(0.95 * 0.05 / runs)})
    return pd.DataFrame(rows)

