"""Statistics for balance questions, built on scipy rather than hand-rolled.

- `wilson_interval`, `binomial_pvalue`: scipy.stats.binomtest (Wilson score interval, exact test).
- `proportions`: a table of rates, each with its n, Wilson interval and (optionally) the
  exact binomial test against an expected rate.
- `seat_uniformity`: scipy.stats.chisquare of win counts against equal shares.
- `mean_interval`: scipy.stats.bootstrap interval for a mean (BCa up to 1,000 values,
  percentile up to 20,000); beyond that the Student-t interval, which then agrees with the
  bootstrap to the digits we report and costs nothing.
- `paired_difference`: mean and interval of paired differences (common random numbers),
  scipy.stats.ttest_rel.
- `games_needed` / `binomial_power`: sample size for a one-sample binomial test.
- `bradley_terry`: policy strengths from a wins matrix (maximum likelihood with
  scipy.optimize), with standard errors and an Elo-scale rating.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import optimize, stats
from scipy.sparse import csgraph as sparse_csgraph

BOOTSTRAP_BCA_MAX = 1_000
BOOTSTRAP_MAX = 20_000
ELO_PER_NAT = 400 / math.log(10)


def wilson_interval(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials ((nan, nan) when n == 0)."""
    if n == 0:
        return math.nan, math.nan
    # the interval does not depend on the tested p; p = k/n makes binomtest's p-value trivial (fast)
    ci = stats.binomtest(int(k), int(n), p=k / n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def binomial_pvalue(k: int, n: int, p: float, alternative: str = "two-sided") -> float:
    """Exact binomial test of k successes in n trials against success probability p."""
    if n == 0:
        return math.nan
    return float(stats.binomtest(int(k), int(n), p, alternative=alternative).pvalue)


def proportions(successes, trials, expected=None, confidence: float = 0.95) -> pd.DataFrame:
    """Rates with n, Wilson interval and, given `expected`, effect in points and exact p-value.

    Columns: n, wins, rate, ci_low, ci_high [, expected, effect_pp, p_value].
    """
    successes = np.asarray(successes, dtype=np.int64)
    trials = np.broadcast_to(np.asarray(trials, dtype=np.int64), successes.shape)
    intervals = [wilson_interval(k, n, confidence) for k, n in zip(successes, trials)]
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(trials > 0, successes / np.maximum(trials, 1), np.nan)
    table = pd.DataFrame({
        "n": trials, "wins": successes, "rate": rate,
        "ci_low": [lo for lo, _ in intervals], "ci_high": [hi for _, hi in intervals],
    })
    if expected is not None:
        expected = np.broadcast_to(np.asarray(expected, dtype=float), successes.shape)
        table["expected"] = expected
        table["effect_pp"] = 100 * (table["rate"] - expected)
        table["p_value"] = [binomial_pvalue(k, n, p) for k, n, p in zip(successes, trials, expected)]
    return table


def seat_uniformity(counts) -> tuple[float, float]:
    """Chi-square statistic and p-value of win counts per seat against equal shares."""
    counts = np.asarray(counts, dtype=float)
    if counts.sum() == 0 or len(counts) < 2:
        return math.nan, math.nan
    result = stats.chisquare(counts)
    return float(result.statistic), float(result.pvalue)


def mean_interval(values, confidence: float = 0.95, seed: int = 0) -> tuple[float, float]:
    """Interval for the mean of `values`: bootstrap (BCa/percentile) or, past 20,000 values, Student t."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if len(x) < 2:
        return math.nan, math.nan
    if np.all(x == x[0]):
        return float(x[0]), float(x[0])
    if len(x) > BOOTSTRAP_MAX:
        low, high = stats.t.interval(confidence, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        return float(low), float(high)
    method = "BCa" if len(x) <= BOOTSTRAP_BCA_MAX else "percentile"
    result = stats.bootstrap((x,), np.mean, confidence_level=confidence, n_resamples=1999,
                             method=method, rng=np.random.default_rng(seed))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def paired_difference(treated, base, confidence: float = 0.95) -> dict:
    """Mean of `treated - base` over paired observations, its t interval and p-value (ttest_rel)."""
    treated, base = np.asarray(treated, dtype=float), np.asarray(base, dtype=float)
    diff = treated - base
    n = len(diff)
    if n < 2:
        return {"n": n, "diff": math.nan, "ci_low": math.nan, "ci_high": math.nan, "p_value": math.nan}
    mean = float(diff.mean())
    if np.all(diff == diff[0]):
        return {"n": n, "diff": mean, "ci_low": mean, "ci_high": mean, "p_value": 1.0 if mean == 0 else 0.0}
    result = stats.ttest_rel(treated, base)
    ci = result.confidence_interval(confidence_level=confidence)
    return {"n": n, "diff": mean, "ci_low": float(ci.low), "ci_high": float(ci.high),
            "p_value": float(result.pvalue)}


def games_needed(delta: float, p0: float, alpha: float = 0.05, power: float = 0.8,
                 alternative: str = "two-sided") -> int:
    """Games needed for a binomial test at level `alpha` to detect a rate of p0 + delta with `power`.

    Normal approximation for a one-sample proportion test (e.g. Chow, Shao & Wang, *Sample
    Size Calculations in Clinical Research*, 4.1):
        n = ((z_a * sqrt(p0 (1 - p0)) + z_b * sqrt(p1 (1 - p1))) / delta)^2,  p1 = p0 + delta,
    with z_a = z(1 - alpha/2) two-sided (z(1 - alpha) one-sided) and z_b = z(power).
    `binomial_power` gives the exact power of the exact test for a given n.
    """
    p1 = p0 + delta
    if not (0 < p0 < 1 and 0 < p1 < 1 and delta != 0):
        raise ValueError(f"need 0 < p0 < 1, 0 < p0 + delta < 1 and delta != 0 (p0={p0}, delta={delta})")
    tail = alpha / 2 if alternative == "two-sided" else alpha
    z_alpha, z_beta = stats.norm.ppf(1 - tail), stats.norm.ppf(power)
    n = ((z_alpha * math.sqrt(p0 * (1 - p0)) + z_beta * math.sqrt(p1 * (1 - p1))) / delta) ** 2
    return math.ceil(n)


def binomial_power(n: int, p0: float, p1: float, alpha: float = 0.05) -> float:
    """Exact power of the two-sided exact binomial test of p0 with n trials when the truth is p1.

    The test rejects for k <= k_low or k >= k_high (its p-value falls as k moves away from
    n p0); both bounds are found by bisection on `binomial_pvalue`.
    """
    centre = math.floor(n * p0)
    k_low = _first_rejected(n, p0, alpha, range(centre, -1, -1))
    k_high = _first_rejected(n, p0, alpha, range(centre + 1, n + 1))
    power = stats.binom.cdf(k_low, n, p1) if k_low is not None else 0.0
    if k_high is not None:
        power += stats.binom.sf(k_high - 1, n, p1)
    return float(power)


def _first_rejected(n: int, p0: float, alpha: float, ks: range) -> int | None:
    """First k along `ks` (moving away from n p0) whose p-value is <= alpha, by bisection."""
    lo, hi = 0, len(ks)  # invariant: ks[:lo] not rejected, ks[hi:] rejected
    while lo < hi:
        mid = (lo + hi) // 2
        if binomial_pvalue(ks[mid], n, p0) <= alpha:
            hi = mid
        else:
            lo = mid + 1
    return ks[lo] if lo < len(ks) else None


class InfiniteRatingError(ValueError):
    """A Bradley–Terry maximum likelihood estimate does not exist (it is infinite)."""


def bradley_terry(wins: pd.DataFrame, pseudo_wins: float = 0.0, confidence: float = 0.95,
                  comparisons=None) -> pd.DataFrame:
    """Bradley–Terry strengths from a square wins matrix (wins.loc[a, b] = times a beat b).

    P(a beats b) = s_a / (s_a + s_b). Log-strengths are fitted by maximum likelihood
    (scipy.optimize.minimize) and centred to mean 0; standard errors come from the Fisher
    information (sum-to-zero constraint). `pseudo_wins` adds that many wins each way to every
    compared pair, which keeps the estimate finite when a policy never lost or never won.
    Columns: comparisons, wins, strength, log_strength, se, elo, elo_low, elo_high (Elo
    scale: 400 * log10 of the strength ratio).

    `comparisons`, when given, is (winner index, loser index, cluster) per comparison behind
    `wins` (indices into its rows; a cluster = the games of one deal): `se` is then the
    cluster-robust sandwich H^-1 (sum over clusters of score score^T) H^-1, and the table adds
    se_model (the Fisher-information one) and design_effect = (se / se_model)^2.
    """
    names = list(wins.index)
    observed = wins.loc[names, names].to_numpy(dtype=float, copy=True)
    np.fill_diagonal(observed, 0.0)
    pairs = observed + observed.T
    w = observed + pseudo_wins * (pairs > 0)
    if not connected(w):
        raise InfiniteRatingError("Bradley–Terry: some policy never won or never lost against the others; "
                         "the maximum likelihood is infinite (use pseudo_wins > 0)")
    theta = _fit_log_strengths(w)
    se = _log_strength_se(theta, w + w.T)
    extra = {}
    if comparisons is not None:
        se_model, se = se, _sandwich_se(theta, w + w.T, *comparisons)
        with np.errstate(invalid="ignore", divide="ignore"):
            extra = {"se_model": se_model, "design_effect": (se / se_model) ** 2}
    z = stats.norm.ppf(0.5 + confidence / 2)
    return pd.DataFrame({
        "comparisons": pairs.sum(axis=1).astype(np.int64),
        "wins": observed.sum(axis=1).astype(np.int64),
        "strength": np.exp(theta),
        "log_strength": theta,
        "se": se,
        "elo": ELO_PER_NAT * theta,
        "elo_low": ELO_PER_NAT * (theta - z * se),
        "elo_high": ELO_PER_NAT * (theta + z * se),
        **extra,
    }, index=pd.Index(names, name=wins.index.name))


def _fit_log_strengths(w: np.ndarray) -> np.ndarray:
    """Maximum-likelihood log-strengths (first fixed at 0 while fitting, then centred)."""
    games = w + w.T

    def negative_log_likelihood(free):
        theta = np.concatenate([[0.0], free])
        diff = theta[:, None] - theta[None, :]
        nll = -(w * stats.logistic.logcdf(diff)).sum()
        grad = -(w - games * stats.logistic.cdf(diff)).sum(axis=1)
        return nll, grad[1:]

    free = np.zeros(len(w) - 1)
    if len(free):
        free = optimize.minimize(negative_log_likelihood, free, jac=True, method="BFGS",
                                 options={"gtol": 1e-10, "maxiter": 10_000}).x
    theta = np.concatenate([[0.0], free])
    return theta - theta.mean()


def _log_strength_se(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    p = stats.logistic.cdf(theta[:, None] - theta[None, :])
    weights = games * p * (1 - p)
    information = np.diag(weights.sum(axis=1)) - weights
    covariance = np.linalg.pinv(information)
    return np.sqrt(np.clip(np.diag(covariance), 0, None))


def _sandwich_se(theta: np.ndarray, games: np.ndarray, winner, loser, cluster) -> np.ndarray:
    """Cluster-robust standard errors of the log-strengths (CR1 sandwich, sum-to-zero constraint)."""
    winner, loser = np.asarray(winner, dtype=np.int64), np.asarray(loser, dtype=np.int64)
    codes = pd.factorize(np.asarray(cluster), sort=False)[0]
    p = stats.logistic.cdf(theta[:, None] - theta[None, :])
    weights = games * p * (1 - p)
    bread = np.linalg.pinv(np.diag(weights.sum(axis=1)) - weights)
    scores = np.zeros((int(codes.max()) + 1 if len(codes) else 0, len(theta)))
    step = 1 - p[winner, loser]
    np.add.at(scores, (codes, winner), step)
    np.add.at(scores, (codes, loser), -step)
    scores -= scores.mean(axis=0)
    clusters = len(scores)
    meat = clusters / max(clusters - 1, 1) * scores.T @ scores
    covariance = bread @ meat @ bread
    return np.sqrt(np.clip(np.diag(covariance), 0, None))


def connected(w: np.ndarray) -> bool:
    """Every node reaches every other along the edges i -> j where w[i, j] > 0."""
    return bool(sparse_csgraph.connected_components(w > 0, directed=True, connection="strong")[0] == 1)
