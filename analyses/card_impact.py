"""Card and ability impact: how a seat's win rate differs with and without each per-seat stat.

For every per-seat stat of a results table (``seat{i}_<stat>``: abilities activated, cards of a
legion played, pure creatures, traps sprung, ...) the seats of the decided games are split in
two groups — those where the stat happened (> 0) and those where it did not — and each group's
win rate is given with its interval and n, and the difference in points with its interval and
p-value. When nearly every seat has the stat (or nearly none), "happened" carries no information,
so the split is at the median instead (``split`` says which).

The deal is the unit of every interval and test (`analyses.clusters`): the seats of one game are
not independent (one of them wins), and under ``seat_order="rotate"`` the games of one deal share
a seed, so a seat's hand — and with it both its stats and its luck — repeats in every rotation.
Treating each seat of each game as an independent trial makes the intervals far too narrow there
(a stat with no effect at all came out significant in about a third of runs). So the group rates
are ratio estimators with the cluster-robust variance (`clusters.rates`: Wilson at the effective
n), the difference is `clusters.ratio_difference` (linearised over deals, t on deals - 1 degrees
of freedom), and each row gives ``deals``, ``design_effect`` and ``method``. The same holds for the
winners-against-losers means (`means`, `purchase_mix`) and for `faction_stats`.
tests/analyses/test_analyses_impact_coverage.py proves the coverage on a toy with no effect
under every seat order.

Outcome-like stats — the win condition itself or progress towards it (creatures completed,
activations, VP) — say nothing about what *causes* a win; `split_outcomes` puts them apart.
Two stats that split the seats identically (e.g. Midnighters' ``played_catcher`` and
``intercepts``) are one row, named ``played_catcher = intercepts``.

This is association, not cause: a seat that completed more creatures both activated more
abilities and was likelier to win. Compare within one policy (``policy=``) to remove the
largest confounder, and use `analyses.sweep` (which changes the rules) for causal answers.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd
from scipy import stats as sps

from . import clusters
from .frames import decided, seat_count, seat_wins
from .games import load_game
from .tables import Tables

NOT_STATS = {"policy", "score", "faction"}
CAVEAT = ("Association, not cause: seats that did more of anything also tended to get further in the game. "
          "Differences within one policy remove the largest confounder.")
_SEAT_STAT = re.compile(r"^seat(\d+)_(.+)$")
#: per-seat stats that are the win condition or progress towards it, not causes of winning
OUTCOME_STATS = re.compile(r"^(completed|creatures|activations|vp|.+_vp|score|actions|regions|conquests|capitals)$")


@dataclasses.dataclass(frozen=True)
class CardImpact(Tables):
    impact: pd.DataFrame
    means: pd.DataFrame


def per_seat_stats(df: pd.DataFrame) -> list[str]:
    """Names of the numeric per-seat stats present for seat 0 (e.g. 'ability_herald')."""
    names = []
    for column in df.columns:
        m = _SEAT_STAT.match(str(column))
        if m and m.group(1) == "0" and m.group(2) not in NOT_STATS and pd.api.types.is_numeric_dtype(df[column]):
            names.append(m.group(2))
    return names


def long_seats(df: pd.DataFrame, stat_names: list[str]) -> pd.DataFrame:
    """One row per (decided game, seat): seat, deal (the cluster of the game, `clusters.cluster_ids`),
    policy, won, and each stat."""
    games = df[decided(df)]
    wins = seat_wins(games)
    deals = clusters.cluster_ids(games)
    frames = []
    for seat in range(seat_count(df)):
        if f"seat{seat}_policy" not in games:
            continue
        block = {"seat": seat, "deal": deals, "policy": games[f"seat{seat}_policy"].astype(str).to_numpy(),
                 "won": wins[:, seat]}
        for name in stat_names:
            column = f"seat{seat}_{name}"
            block[name] = games[column].to_numpy(dtype=float) if column in games else np.nan
        frames.append(pd.DataFrame(block))
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return out[out["policy"] != "nan"] if len(out) else out


def card_impact(df: pd.DataFrame, stats: list[str] | None = None, policy: str | None = None,
                confidence: float = 0.95) -> CardImpact:
    """Win rate with vs without each per-seat stat (see the module docstring)."""
    names = per_seat_stats(df) if stats is None else list(stats)
    unknown = [n for n in names if f"seat0_{n}" not in df.columns]
    if unknown:
        raise ValueError(f"unknown per-seat stat(s) {unknown}; known: {', '.join(per_seat_stats(df))}")
    seats = long_seats(df, names)
    if policy is not None:
        if policy not in set(seats["policy"]):
            raise ValueError(f"policy {policy!r} sat in no decided game; known: {sorted(set(seats['policy']))}")
        seats = seats[seats["policy"] == policy]
    rows, mean_rows, splits = [], [], {}
    for name in names:
        values = seats[name].to_numpy()
        ok = ~np.isnan(values)
        values, won, deal = values[ok], seats["won"].to_numpy(bool)[ok], seats["deal"].to_numpy()[ok]
        if not len(values):
            continue
        mean_rows.append(_means_row(name, values, won, deal, confidence))
        share = float(np.mean(values > 0))
        if 0.05 <= share <= 0.95:
            split, has = "> 0", values > 0
        else:
            median = float(np.median(values))
            split, has = f"> {median:g} (median)", values > median
        if has.all() or not has.any():
            continue
        key = has.tobytes()
        if key in splits:                 # same seats as an earlier stat: one row, both names
            rows[splits[key]]["stat"] += f" = {name}"
            continue
        splits[key] = len(rows)
        rows.append(_impact_row(name, split, has, won, deal, confidence))
    impact = pd.DataFrame(rows)
    if len(impact):
        impact = impact.sort_values("diff_pp", ascending=False, ignore_index=True)
    return CardImpact(impact=impact, means=pd.DataFrame(mean_rows))


def is_outcome(stat: str) -> bool:
    """True for an outcome-like stat (or a merged row any of whose names is one)."""
    return any(OUTCOME_STATS.match(name.strip()) for name in str(stat).split("="))


def split_outcomes(impact: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(impact rows of possible causes, rows of outcome-like stats), both in the original order."""
    if not len(impact):
        return impact, impact
    outcome = impact["stat"].map(is_outcome).to_numpy(bool)
    return impact[~outcome].reset_index(drop=True), impact[outcome].reset_index(drop=True)


def _impact_row(name: str, split: str, has: np.ndarray, won: np.ndarray, deal: np.ndarray,
                confidence: float) -> dict:
    """Win rate with and without the stat, and their difference, with the deal as the unit."""
    k1, n1 = int(won[has].sum()), int(has.sum())
    k0, n0 = int(won[~has].sum()), int((~has).sum())
    groups = np.column_stack([has, ~has]).astype(float)
    rates = clusters.rates(groups * won[:, None], groups, deal, confidence=confidence)
    diff = clusters.ratio_difference(won & has, has, won & ~has, ~has, deal, confidence)
    return {
        "stat": name, "split": split,
        "n_with": n1, "win_with": k1 / n1, "with_low": rates["ci_low"][0], "with_high": rates["ci_high"][0],
        "n_without": n0, "win_without": k0 / n0, "without_low": rates["ci_low"][1], "without_high": rates["ci_high"][1],
        "diff_pp": 100 * diff["diff"], "diff_low": 100 * diff["ci_low"], "diff_high": 100 * diff["ci_high"],
        "p_value": diff["p_value"], "deals": diff["deals"], "design_effect": diff["design_effect"],
        "method": diff["method"],
    }


def _means_row(name: str, values: np.ndarray, won: np.ndarray, deal: np.ndarray, confidence: float) -> dict:
    """Mean of the stat for winning and losing seats, and the test of their difference with the
    deal as the unit (`clusters.ratio_difference`)."""
    w, l = values[won], values[~won]
    diff = clusters.ratio_difference(values * won, won, values * ~won, ~won, deal, confidence)
    p = diff["p_value"] if len(w) and len(l) and np.ptp(values) > 0 else np.nan
    return {"stat": name, "n_winners": len(w), "mean_winners": float(w.mean()) if len(w) else np.nan,
            "n_losers": len(l), "mean_losers": float(l.mean()) if len(l) else np.nan, "p_value": p,
            "deals": diff["deals"]}


def purchase_mix(df: pd.DataFrame, prefix: str = "spent_", total: str = "gold_spent",
                 confidence: float = 0.95) -> pd.DataFrame:
    """Share of the gold each seat spent on each unit type, winners against losers.

    One row per unit type: mean share among winning seats and among losing seats of decided
    games (each with its interval and n), the difference in points and its p-value, the deal as
    the unit (`clusters.mean_interval`, `clusters.ratio_difference`). Association, not cause (see
    the module docstring). Empty when the game records no purchases.
    """
    names = [n for n in per_seat_stats(df) if n.startswith(prefix)]
    if not names or f"seat0_{total}" not in df.columns:
        return pd.DataFrame()
    seats = long_seats(df, names + [total])
    seats = seats[seats[total] > 0]
    won = seats["won"].to_numpy(bool)
    deal = seats["deal"].to_numpy()
    rows = []
    for name in names:
        share = (seats[name] / seats[total]).to_numpy(float)
        w, l = share[won], share[~won]
        if len(w) < 2 or len(l) < 2:
            continue
        (wl, wh), (ll, lh) = (_mean_interval(share[mask], deal[mask], confidence) for mask in (won, ~won))
        diff = clusters.ratio_difference(share * won, won, share * ~won, ~won, deal, confidence)
        p = diff["p_value"] if np.ptp(share) > 0 else np.nan
        rows.append({"unit": name[len(prefix):], "n_winners": len(w), "share_winners": float(w.mean()),
                     "winners_low": wl, "winners_high": wh, "n_losers": len(l), "share_losers": float(l.mean()),
                     "losers_low": ll, "losers_high": lh, "diff_pp": 100 * float(w.mean() - l.mean()), "p_value": p,
                     "deals": diff["deals"]})
    return pd.DataFrame(rows)


def _mean_interval(x: np.ndarray, deal: np.ndarray, confidence: float) -> tuple[float, float]:
    """Interval of a mean with the deal as the unit; a constant sample is its own interval."""
    if len(x) < 2:
        return np.nan, np.nan
    if np.ptp(x) == 0:
        return float(x[0]), float(x[0])
    if clusters.is_independent(np.ones(len(x)), deal):
        low, high = sps.t.interval(confidence, len(x) - 1, loc=x.mean(), scale=sps.sem(x))
        return float(low), float(high)
    return clusters.mean_interval(x, deal, confidence)


def faction_stats(df: pd.DataFrame, stats, factions=None, confidence: float = 0.95) -> pd.DataFrame:
    """Per-faction means of recorded per-faction stats (columns ``<faction>_<stat>``, e.g. Nerath's
    ``karkoth_dungeons_won``): one row per faction and stat with the mean per game, its t interval,
    the number of games, and the games' total. A ratio row ``<a>/<b>`` (e.g. ``dungeons_won/dungeons_explored``)
    gives total a over total b with a Wilson interval (at the effective n when games share deals).
    The deal is the unit of both intervals. Factions default to the game's FACTIONS."""
    if factions is None:
        module = load_game(df.attrs["game"]) if "game" in df.attrs else None
        factions = getattr(module, "FACTIONS", ()) if module is not None else ()
    deal = clusters.cluster_ids(df)
    rows = []
    for faction in factions:
        for stat in stats:
            if "/" in stat:
                a, b = stat.split("/", 1)
                ca, cb = f"{faction}_{a}", f"{faction}_{b}"
                if ca not in df.columns or cb not in df.columns:
                    continue
                ka, nb = df[ca].to_numpy(float), df[cb].to_numpy(float)
                k, n = int(ka.sum()), int(nb.sum())
                low, high = np.nan, np.nan
                if n:
                    table = clusters.rates(ka, nb, deal, confidence=confidence)
                    low, high = float(table["ci_low"].iloc[0]), float(table["ci_high"].iloc[0])
                rows.append({"faction": faction, "stat": stat, "games": len(df), "mean": k / n if n else np.nan,
                             "ci_low": low, "ci_high": high, "total": f"{k}/{n}"})
                continue
            col = f"{faction}_{stat}"
            if col not in df.columns:
                continue
            x = df[col].to_numpy(float)
            low, high = _mean_interval(x, deal, confidence)
            rows.append({"faction": faction, "stat": stat, "games": len(x), "mean": float(x.mean()),
                         "ci_low": low, "ci_high": high, "total": f"{x.sum():g}"})
    return pd.DataFrame(rows, columns=["faction", "stat", "games", "mean", "ci_low", "ci_high", "total"])
