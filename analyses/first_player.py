"""First-player advantage: does the seat you sit in change your chance of winning?

For each player count and lineup (the policies at the table) in the results:
- `seats`: each seat's win rate over decided games with its Wilson interval, the effect
  against the fair share (1/players when one seat wins) in percentage points, and the
  exact binomial p-value;
- `summary`: games, decided games, timeouts (rate and interval), the chi-square test that all seats win equally
  often, Ludii-style Balance (1 - (highest - lowest seat win rate)), AdvantageP1 (seat 0's
  win rate over decided games), and the decided games a binomial test would need to detect
  a seat that wins `delta` (default 1 point) more than its fair share (alpha 0.05, power 0.8).

Paired designs (``seat_order="rotate"``: the rotations of one deal share a seed) are analysed
with the deal as the unit (see `analyses.clusters`): seat intervals and tests from the
cluster-robust variance (Wilson at the effective n, score test), the omnibus chi-square with
the Rao–Scott second-order correction; with one game per deal (``random``, ``fixed``) the
plain Wilson interval, exact binomial test and Pearson chi-square. The omnibus test comes
first (`summary.chi2_p`); the per-seat p-values are also given after Holm's family-wise
correction over the seats of one lineup (`seats.p_holm`). `summary` reports `deals`, the
design effect (`design_effect`: mean eigenvalue of the chi-square's design-effect matrix,
`seats.design_effect` per seat), the test's `chi2_df` and the `method`; the games needed to
detect a 1-point edge are multiplied by the largest seat design effect.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import frames
from .clusters import cluster_ids, rates, uniformity
from .stats import games_needed
from .tables import Tables, front, stack
from .win_rates import GameView


@dataclass(frozen=True)
class FirstPlayerAdvantage(Tables):
    summary: pd.DataFrame
    seats: pd.DataFrame
    events: pd.DataFrame  # per-game yes/no outcomes of the game (e.g. the Midnight Horror won)


def first_player_advantage(df: pd.DataFrame, confidence: float = 0.95, delta: float = 0.01,
                           alpha: float = 0.05, power: float = 0.8) -> FirstPlayerAdvantage:
    """Per-seat win rates against the fair share, by player count and lineup."""
    keys = [frames.players(df), frames.lineup(df)]
    summaries, seat_tables = [], []
    for (n_players, lineup), games in df.groupby(keys, sort=True, observed=True):
        view = GameView(games, int(n_players))
        seats = view.by_seat(confidence).assign(lineup=lineup).pipe(front, ["players", "lineup", "seat"])
        seat_tables.append(seats)
        summaries.append(_summary(games, view, seats, lineup, delta, alpha, power, confidence))
    summary, seats = stack(summaries), stack(seat_tables)
    for table in (summary, seats):
        if len(table):
            table.attrs["method"] = "; ".join(dict.fromkeys(table["method"].astype(str)))
    return FirstPlayerAdvantage(summary=summary, seats=seats, events=game_events(df, confidence))


def game_events(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Rate of each per-game yes/no stat of the game (columns like `horror_won`, `woke`), with
    its Wilson interval and n, by player count. Empty when the game records none."""
    columns = [c for c in df.columns if df[c].dtype == bool and c != "timed_out" and not c.startswith("seat")]
    tables = []
    for n_players, games in df.groupby(frames.players(df), sort=True):
        if columns:
            table = rates(games[columns].to_numpy(float), np.ones((len(games), 1)), cluster_ids(games),
                          confidence=confidence)
            table.insert(0, "event", columns)
            tables.append(table.rename(columns={"wins": "games_with"}).assign(players=int(n_players))
                          .pipe(front, ["players", "event"]))
    return stack(tables)


def _summary(games: pd.DataFrame, view: GameView, seats: pd.DataFrame, lineup: str,
             delta: float, alpha: float, power: float, confidence: float) -> pd.DataFrame:
    decided = len(view.df)
    timeouts = int(games["timed_out"].astype(bool).sum())
    timeout = rates(games["timed_out"].to_numpy(float), np.ones((len(games), 1)), cluster_ids(games),
                    confidence=confidence)
    timeout_low, timeout_high = float(timeout["ci_low"].iloc[0]), float(timeout["ci_high"].iloc[0])
    omnibus = uniformity(view.won, view.clusters)
    seat_rates = seats["win_rate"]
    needed = games_needed(delta, view.expected, alpha, power) if 0 < view.expected + delta < 1 else np.nan
    seat_deff = seats["design_effect"].max() if len(seats) else np.nan
    if np.isfinite(needed) and np.isfinite(seat_deff) and seat_deff != 1.0:
        needed = int(np.ceil(needed * seat_deff))
    return pd.DataFrame([{
        "players": view.n_players, "lineup": lineup, "games": len(games), "decided": decided,
        "timeouts": timeouts, "timeout_rate": timeouts / len(games),
        "timeout_ci_low": timeout_low, "timeout_ci_high": timeout_high,
        "chi2": omnibus["chi2"], "chi2_p": omnibus["chi2_p"],
        "balance": 1 - (seat_rates.max() - seat_rates.min()) if decided else np.nan,
        "advantage_p1": seat_rates.iloc[0] if decided else np.nan,
        f"games_to_detect_{100 * delta:g}pp": needed,
        "chi2_df": omnibus["chi2_df"], "deals": int(len(np.unique(cluster_ids(games)))),
        "design_effect": omnibus["design_effect"],
        "method": f"{seats['method'].iloc[0]}; {omnibus['method']}" if len(seats) else omnibus["method"],
    }])
