"""Game length: turns and decisions, their distribution and their means by winning seat.

The deal is the unit: under rotated seats the games of one deal share a seed, so means get the
cluster-robust t interval over deals and shares the deal-level interval (`analyses.clusters`);
with one game per deal, the bootstrap and Wilson intervals.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import clusters, frames
from .clusters import cluster_ids
from .tables import Tables, front, stack

METRICS = ("turns", "decisions")
QUANTILES = {"min": 0.0, "p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9, "max": 1.0}


@dataclass(frozen=True)
class GameLength(Tables):
    summary: pd.DataFrame    # per player count and metric: n, mean (interval), std, quantiles
    by_winner: pd.DataFrame  # per player count, winner (seat, team, 'timeout', 'none'; share of games
                             # with its Wilson interval) and metric


def game_length(df: pd.DataFrame, confidence: float = 0.95, seed: int = 0) -> GameLength:
    """Distribution of turns and decisions, overall and by winning seat (bootstrap intervals)."""
    summaries, by_winner = [], []
    for n_players, games in df.groupby(frames.players(df), sort=True):
        summaries.append(describe(games, confidence, seed).assign(players=int(n_players)))
        labels = winner_labels(games)
        deals = cluster_ids(games)
        for label, group in games.groupby(labels, sort=True):
            table = describe(group, confidence, seed)[["metric", "n", "mean", "ci_low", "ci_high", "median"]]
            share = clusters.rates((labels == label).to_numpy(float), np.ones(len(games)), deals, confidence=confidence)
            share_low, share_high = float(share["ci_low"].iloc[0]), float(share["ci_high"].iloc[0])
            by_winner.append(table.assign(players=int(n_players), winner=label, share=len(group) / len(games),
                                          share_ci_low=share_low, share_ci_high=share_high))
    summary = front(stack(summaries), ["players", "metric"])
    by_winner = stack(by_winner)
    if len(by_winner):
        by_winner = front(by_winner, ["players", "winner", "share", "share_ci_low", "share_ci_high", "metric"])
    return GameLength(summary=summary, by_winner=by_winner)


def describe(games: pd.DataFrame, confidence: float = 0.95, seed: int = 0) -> pd.DataFrame:
    """One row per metric: n, mean with its interval, std and quantiles."""
    rows = []
    deals = cluster_ids(games)
    for metric in METRICS:
        values = games[metric].to_numpy(dtype=float)
        low, high = clusters.mean_interval(values, deals, confidence, seed)
        row = {"metric": metric, "n": len(values), "mean": values.mean() if len(values) else np.nan,
               "ci_low": low, "ci_high": high, "std": values.std(ddof=1) if len(values) > 1 else np.nan}
        row.update({name: np.quantile(values, q) if len(values) else np.nan for name, q in QUANTILES.items()})
        rows.append(row)
    return pd.DataFrame(rows)


def winner_labels(df: pd.DataFrame) -> pd.Series:
    """'seat 0', 'seats 0+2', 'timeout' or 'none' for each game."""
    winner = df["winner"].astype("string").fillna("").astype(object).to_numpy()
    team = np.array(["+" in w for w in winner], dtype=bool)
    labels = np.where(winner == "", "none", np.where(team, "seats " + winner, "seat " + winner))
    labels[df["timed_out"].to_numpy(dtype=bool)] = "timeout"
    return pd.Series(labels, index=df.index, name="winner")
