"""Paired designs: the deal, not the game, is the unit of every variance and test.

Under ``seat_order="rotate"`` the k rotations of one deal share a seed, and a sweep plays the
same deals under every variant (common random numbers), so the games of a deal are not
independent: luck that belongs to a seat repeats in every rotation (too narrow naive intervals,
design effect > 1), while a policy that wins from any seat wins once per seat per deal (too
wide, design effect < 1). A *cluster* is the set of games that share a seed (``game_seed``,
else ``deal``, else each row alone).

- `cluster_ids(df)`: the cluster of each game.
- `rates(successes, trials, clusters, expected)`: rates of several groups at once. When every
  cluster holds at most one trial (``random`` and ``fixed`` seat orders) this is the plain
  design: Wilson interval and exact binomial test, as in `stats.proportions`. Otherwise the
  rate is a ratio estimator over clusters with the cluster-robust (CR1) variance
      var(p) = C / (C - 1) * sum_c (S_c - p T_c)^2 / T^2,
  the design effect is var(p) / (p (1 - p) / T), the interval is Wilson's at the effective
  n = T / design effect, and the test the score test at that n (the interval inverted).
- `uniformity(won, clusters)`: the omnibus test that every seat wins equally often: Pearson's
  chi-square, with the second-order Rao–Scott correction (Satterthwaite) of its design-effect
  matrix when games are clustered (or a game has several winners).
- `paired_difference(treated, base, clusters)`: mean paired difference with a cluster-robust t
  interval (C - 1 degrees of freedom); scipy's paired t test when every cluster is one pair.
- `mean_interval(values, clusters)`: cluster-robust t interval of a mean.
- `ratio_difference(y1, n1, y0, n0, clusters)`: difference of two ratios sum(y1)/sum(n1) -
  sum(y0)/sum(n0) whose units share clusters (the with/without groups of one table, or the two arms
  of a paired comparison), with the linearised cluster-robust (CR1) variance
      var = C / (C - 1) * sum_c u_c^2,  u_c = (Y1_c - p1 N1_c) / N1 - (Y0_c - p0 N0_c) / N0,
  a t interval and test on C - 1 degrees of freedom (with one unit per cluster and n = 1 this is
  the paired t test).
- `holm(p_values)`: Holm's family-wise step-down adjustment.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from . import stats as plain

INDEPENDENT = "independent games: Wilson, exact binomial"
CLUSTERED = "deal as the unit: cluster-robust, Wilson at effective n"
CHI2_INDEPENDENT = "Pearson chi-square"
CHI2_CLUSTERED = "Rao-Scott chi-square (deal as the unit)"


def cluster_ids(df: pd.DataFrame) -> np.ndarray:
    """Cluster code (0..C-1) of every row: games sharing a seed form one cluster."""
    for column in ("game_seed", "deal"):
        if column in df.columns:
            return pd.factorize(df[column].to_numpy(), sort=False)[0]
    return np.arange(len(df))


def _codes(clusters, n: int) -> np.ndarray:
    if clusters is None:
        return np.arange(n)
    return pd.factorize(np.asarray(clusters), sort=False)[0]


def _totals(values: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Per-cluster sums of `values` (units x groups) -> (clusters x groups)."""
    out = np.zeros((int(codes.max()) + 1 if len(codes) else 0, values.shape[1]))
    np.add.at(out, codes, values)
    return out


def is_independent(trials, clusters) -> bool:
    """True when no cluster holds more than one trial (each game its own unit)."""
    trials = np.asarray(trials, dtype=float)
    if len(trials) == 0:
        return True        # no trial shares a cluster (reshape(0, -1) cannot infer a width)
    trials = trials.reshape(len(trials), -1)
    codes = _codes(clusters, len(trials))
    return bool(_totals(trials, codes).max() <= 1)


def rates(successes, trials, clusters=None, expected=None, confidence: float = 0.95) -> pd.DataFrame:
    """Rates of G groups from per-unit counts (units x G arrays, units = games).

    Columns as `stats.proportions` (n, wins, rate, ci_low, ci_high [, expected, effect_pp,
    p_value]) plus deals (clusters with a trial), design_effect and method.
    """
    s = np.asarray(successes, dtype=float)
    t = np.asarray(trials, dtype=float)
    if s.ndim == 1:
        s = s[:, None]
    if t.ndim == 1:
        t = t[:, None]
    t = np.broadcast_to(t, s.shape)
    codes = _codes(clusters, len(s))
    n, k = t.sum(axis=0), s.sum(axis=0)
    t_c, s_c = _totals(t, codes), _totals(s, codes)
    deals = (t_c > 0).sum(axis=0)
    if t_c.size == 0 or (t_c.max() <= 1 and np.isin(s, (0.0, 1.0)).all()):
        table = plain.proportions(k.astype(np.int64), n.astype(np.int64), expected, confidence)
        return table.assign(deals=deals.astype(np.int64), design_effect=np.where(n > 0, 1.0, np.nan),
                            method=INDEPENDENT)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / np.maximum(n, 1), np.nan)
        residual = s_c - p * t_c
        var = deals / np.maximum(deals - 1, 1) * (residual ** 2).sum(axis=0) / n ** 2
        binomial = p * (1 - p) / n
        deff = np.where(binomial > 0, var / binomial, np.nan)
    z = stats.norm.ppf(0.5 + confidence / 2)
    effective = np.where(np.isfinite(deff), n / np.maximum(np.nan_to_num(deff, nan=1.0), 1e-12), n)
    low, high = wilson_bounds(p, effective, z)
    table = pd.DataFrame({"n": n.astype(np.int64), "wins": k.astype(np.int64) if np.all(k == k.round()) else k,
                          "rate": p, "ci_low": low, "ci_high": high})
    if expected is not None:
        e = np.broadcast_to(np.asarray(expected, dtype=float), p.shape)
        table["expected"] = e
        table["effect_pp"] = 100 * (p - e)
        table["p_value"] = score_pvalue(p, e, effective)
    return table.assign(deals=deals.astype(np.int64), design_effect=deff, method=CLUSTERED)


def wilson_bounds(p, n, z):
    """Wilson score interval of rate p at (possibly fractional) sample size n."""
    p, n = np.asarray(p, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        denominator = 1 + z ** 2 / n
        centre = (p + z ** 2 / (2 * n)) / denominator
        half = z / denominator * np.sqrt(np.clip(p * (1 - p) / n + z ** 2 / (4 * n ** 2), 0, None))
        low, high = np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
    low, high = np.where(p == 0, 0.0, low), np.where(p == 1, 1.0, high)
    bad = ~(n > 0) | np.isnan(p)
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


def score_pvalue(p, p0, n):
    """Two-sided score test of rate p against p0 at effective sample size n."""
    p, p0, n = (np.asarray(x, dtype=float) for x in (p, p0, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(p0 * (1 - p0) / n)
        zscore = np.abs(p - p0) / se
        out = 2 * stats.norm.sf(zscore)
    out = np.where((se == 0) & (p == p0), 1.0, out)
    return np.where(np.isnan(p) | ~(n > 0), np.nan, out)


def uniformity(won, clusters=None) -> dict:
    """Omnibus test that every seat wins equally often (won: decided games x seats, bool).

    Returns chi2, chi2_df, chi2_p, design_effect (mean eigenvalue of the design-effect
    matrix; 1 for independent games) and method.
    """
    won = np.asarray(won, dtype=float)
    counts = won.sum(axis=0)
    seats = won.shape[1] if won.ndim == 2 else 0
    empty = {"chi2": math.nan, "chi2_df": math.nan, "chi2_p": math.nan, "design_effect": math.nan,
             "method": CHI2_INDEPENDENT}
    if seats < 2 or counts.sum() == 0:
        return empty
    codes = _codes(clusters, len(won))
    single = bool((won.sum(axis=1) == 1).all())
    chi2, chi2_p = plain.seat_uniformity(counts)
    if single and is_independent(np.ones(len(won)), codes):
        return {"chi2": chi2, "chi2_df": float(seats - 1), "chi2_p": chi2_p, "design_effect": 1.0,
                "method": CHI2_INDEPENDENT}
    total = counts.sum()
    share = counts / total
    per_cluster = _totals(won, codes)
    residual = per_cluster - per_cluster.sum(axis=1, keepdims=True) * share
    clusters_n = len(per_cluster)
    v = clusters_n / max(clusters_n - 1, 1) * residual.T @ residual / total ** 2
    pi0 = np.full(seats, 1 / seats)
    null = (np.diag(pi0) - np.outer(pi0, pi0)) / total
    d = np.linalg.solve(null[:-1, :-1], v[:-1, :-1])
    trace, trace2 = float(np.trace(d)), float(np.trace(d @ d))
    if trace <= 0 or trace2 <= 0:   # every cluster shares its wins exactly equally: no variation at all
        return {"chi2": 0.0 if chi2 == 0 else math.inf, "chi2_df": float(seats - 1),
                "chi2_p": 1.0 if chi2 == 0 else 0.0, "design_effect": 0.0, "method": CHI2_CLUSTERED}
    statistic, df = chi2 * trace / trace2, trace ** 2 / trace2
    return {"chi2": float(statistic), "chi2_df": float(df), "chi2_p": float(stats.chi2.sf(statistic, df)),
            "design_effect": trace / (seats - 1), "method": CHI2_CLUSTERED}


def paired_difference(treated, base, clusters=None, confidence: float = 0.95) -> dict:
    """Mean of `treated - base` with its interval and p-value, the deal as the unit.

    Keys: n, diff, ci_low, ci_high, p_value, deals, design_effect, method.
    """
    treated, base = np.asarray(treated, dtype=float), np.asarray(base, dtype=float)
    codes = _codes(clusters, len(treated))
    if is_independent(np.ones(len(treated)), codes):
        return {**plain.paired_difference(treated, base, confidence), "deals": len(treated),
                "design_effect": 1.0, "method": "paired t (independent pairs)"}
    low, high, p, deff, deals = _cluster_mean(treated - base, codes, confidence)
    return {"n": len(treated), "diff": float(np.mean(treated - base)), "ci_low": low, "ci_high": high,
            "p_value": p, "deals": deals, "design_effect": deff,
            "method": "paired t, deal as the unit"}


def mean_interval(values, clusters=None, confidence: float = 0.95, seed: int = 0) -> tuple[float, float]:
    """Interval for a mean: `stats.mean_interval` (bootstrap) for independent values, else
    the cluster-robust t interval."""
    x = np.asarray(values, dtype=float)
    codes = _codes(clusters, len(x))
    if is_independent(np.ones(len(x)), codes):
        return plain.mean_interval(x, confidence, seed)
    low, high, *_ = _cluster_mean(x, codes, confidence)
    return low, high


def _cluster_mean(x: np.ndarray, codes: np.ndarray, confidence: float):
    """(low, high, p-value against 0, design effect, clusters) of mean(x) with CR1 variance."""
    keep = ~np.isnan(x)
    x, codes = x[keep], pd.factorize(codes[keep])[0]
    n = len(x)
    if n < 2:
        return math.nan, math.nan, math.nan, math.nan, 0
    mean = x.mean()
    sums = np.bincount(codes, weights=x)
    sizes = np.bincount(codes)
    deals = len(sums)
    var = deals / max(deals - 1, 1) * ((sums - sizes * mean) ** 2).sum() / n ** 2
    naive = x.var(ddof=1) / n
    deff = var / naive if naive > 0 else math.nan
    if var == 0:
        return float(mean), float(mean), 1.0 if mean == 0 else 0.0, deff, deals
    se = math.sqrt(var)
    dof = max(deals - 1, 1)
    q = stats.t.ppf(0.5 + confidence / 2, dof)
    p = 2 * stats.t.sf(abs(mean) / se, dof)
    return float(mean - q * se), float(mean + q * se), float(p), float(deff), deals


def ratio_difference(y1, n1, y0, n0, clusters=None, confidence: float = 0.95) -> dict:
    """sum(y1)/sum(n1) - sum(y0)/sum(n0) with its interval and p-value, the cluster as the unit.

    Arrays are per unit (a game, or a seat in a game); `n1`, `n0` are each unit's weight in the
    two groups (0/1 membership, or 1 for a plain mean). Keys: diff, rate1, rate0, ci_low, ci_high,
    p_value, deals (clusters with a unit in either group), design_effect (variance over the
    variance with every unit its own cluster) and method.
    """
    y1, n1, y0, n0 = (np.asarray(a, dtype=float) for a in (y1, n1, y0, n0))
    codes = _codes(clusters, len(y1))
    keep = (n1 > 0) | (n0 > 0)
    y1, n1, y0, n0, codes = y1[keep], n1[keep], y0[keep], n0[keep], pd.factorize(codes[keep])[0]
    total1, total0 = n1.sum(), n0.sum()
    out = {"diff": math.nan, "rate1": math.nan, "rate0": math.nan, "ci_low": math.nan, "ci_high": math.nan,
           "p_value": math.nan, "deals": int(codes.max()) + 1 if len(codes) else 0, "design_effect": math.nan,
           "method": "ratio difference, deal as the unit (cluster-robust t)"}
    if total1 <= 0 or total0 <= 0:
        return out
    p1, p0 = y1.sum() / total1, y0.sum() / total0
    diff = p1 - p0
    unit = (y1 - p1 * n1) / total1 - (y0 - p0 * n0) / total0
    per_cluster = np.bincount(codes, weights=unit)
    deals = len(per_cluster)
    out.update(diff=float(diff), rate1=float(p1), rate0=float(p0))
    if deals < 2:
        return out
    var = deals / (deals - 1) * float((per_cluster ** 2).sum())
    units_var = len(unit) / (len(unit) - 1) * float((unit ** 2).sum()) if len(unit) > 1 else math.nan
    out["design_effect"] = var / units_var if units_var > 0 else math.nan
    if var <= 1e-30:     # every cluster contributes exactly its share: no sampling variation at all
        return {**out, "ci_low": float(diff), "ci_high": float(diff), "p_value": 1.0 if abs(diff) < 1e-15 else 0.0}
    se = math.sqrt(var)
    q = stats.t.ppf(0.5 + confidence / 2, deals - 1)
    return {**out, "ci_low": float(diff - q * se), "ci_high": float(diff + q * se),
            "p_value": float(2 * stats.t.sf(abs(diff) / se, deals - 1))}


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN and does not count in the family)."""
    p, out, order = ranked(p_values)
    m = len(order)
    if m:
        out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out


def ranked(p_values) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(p, out, order): the p-values as floats, an all-NaN result to fill, and the positions of the
    non-NaN ones from the smallest p up (ties in their order)."""
    p = np.asarray(p_values, dtype=float)
    valid = np.flatnonzero(~np.isnan(p))
    return p, np.full(p.shape, np.nan), valid[np.argsort(p[valid], kind="stable")]
