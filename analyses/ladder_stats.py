"""Statistics of the skill ladder (`analyses.ladder`): ratings, skill depth, robust findings.

- `fit_log_strengths(wins)`: Bradley–Terry maximum likelihood, P(i beats j) = 1 / (1 + exp(θj − θi)),
  by Newton's method on the log-likelihood with the Fisher information as the Hessian (the
  log-likelihood is concave; the sum-to-zero constraint is imposed by adding the all-ones
  matrix / k), vectorised over any leading axes so that a whole bootstrap is one call.
- `ladder_ratings(deal_scores, names, ...)`: ratings on the Elo scale (400 log10 of the
  strength ratio) anchored at one rung (0 by definition), with 95% intervals from a **percentile
  bootstrap over deals**: the deal (one seed, played by every pairing with seats rotated: common
  random numbers) is the independent unit, so each replicate draws the deals with replacement
  and keeps every game of a drawn deal, in every pairing. When pairings play unequal numbers of
  deals (fewer for a search rung: deals 0..n-1 of the same seeds), the deals fall into strata by
  the set of pairings that played them, and each replicate draws the deals with replacement
  within each stratum (a stratified bootstrap: every replicate keeps each pairing's number of
  games, as the design fixed it). A stratum of fewer than `MIN_STRATUM_DEALS` deals (Nerath's
  search pairings: 2) cannot be resampled usefully (2 deals give at most 3 distinct replicates and
  far too narrow intervals), so its pairings are redrawn as independent games at their observed
  rate, smoothed by the pseudo-wins (a parametric bootstrap; it ignores the correlation of the two
  games of a deal). The model-based (Fisher information) standard error is given
  beside it (`se_fisher`).
- `skill_depth(...)`: the rating span and the number of significantly distinct levels (below).
- `mark_robust(findings, top)`: a finding is robust when its sign and significance hold at the
  two top-rated rungs.

Draws (games without a winner, timeouts) count half a win to each side, the Elo convention.
Every played pairing gets `PSEUDO_WINS` = 0.5 wins each way before fitting (and in every
bootstrap replicate), which keeps the ratings finite when a rung never lost; with N games per
pairing it moves a pairing's win rate by at most 0.5 / (N + 1).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import expit

from .stats import ELO_PER_NAT

PSEUDO_WINS = 0.5
BOOTSTRAP = 2000
#: with several strata of deals (pairings with unequal counts), a stratum of fewer deals than this is
#: redrawn game by game (`binomial_scores`) rather than deal by deal
MIN_STRATUM_DEALS = 10


def fit_log_strengths(wins, tol: float = 1e-9, max_iter: int = 100) -> np.ndarray:
    """Maximum-likelihood Bradley–Terry log-strengths (natural log, centred to mean 0).

    wins: array (..., k, k), wins[..., i, j] = (possibly fractional) wins of i over j. Every
    pair of rungs must be connected both ways (give pseudo-wins), else the estimate is infinite.
    """
    w = np.asarray(wins, dtype=float)
    games = w + np.swapaxes(w, -1, -2)
    k = w.shape[-1]
    theta = np.zeros(w.shape[:-1])
    centre = np.full((k, k), 1.0 / k)
    eye = np.eye(k, dtype=bool)
    for _ in range(max_iter):
        p = expit(theta[..., :, None] - theta[..., None, :])
        grad = (w - games * p).sum(axis=-1)
        v = games * p * (1 - p)
        information = np.where(eye, v.sum(axis=-1)[..., :, None], -v)
        step = np.linalg.solve(information + centre, grad[..., None])[..., 0]
        biggest = np.abs(step).max(axis=-1, keepdims=True)
        theta = theta + step * np.minimum(1.0, 2.0 / np.maximum(biggest, 1e-300))  # at most 2 nats a step
        theta -= theta.mean(axis=-1, keepdims=True)
        if float(biggest.max()) < tol:
            break
    return theta


def fisher_covariance(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Model-based covariance of the log-strengths (pseudo-inverse of the Fisher information)."""
    p = expit(theta[:, None] - theta[None, :])
    v = games * p * (1 - p)
    return np.linalg.pinv(np.diag(v.sum(axis=1)) - v)


def with_pseudo_wins(wins: np.ndarray, played: np.ndarray) -> np.ndarray:
    """`wins` plus PSEUDO_WINS each way on every played pair (played: k x k booleans)."""
    return wins + PSEUDO_WINS * played


def ladder_ratings(deal_scores, names, anchor: str | None = None, bootstrap: int = BOOTSTRAP, seed: int = 0,
                   confidence: float = 0.95) -> tuple[pd.DataFrame, np.ndarray]:
    """Ratings table and the bootstrap replicates of the Elo ratings (bootstrap x k).

    deal_scores: (deals, k, k) array, [d, i, j] = score of rung i against rung j in deal d (a win
    1, a draw 0.5; both seats of the deal summed). anchor: the rung rated 0 (default: 'random'
    if it is a rung, else the lowest-rated rung). Columns: rung, elo, elo_low, elo_high (the
    percentile bootstrap over deals), se (bootstrap standard deviation), se_fisher (model-based,
    games as independent), games, score (points won / games), rank (1 = strongest).
    """
    d = np.asarray(deal_scores, dtype=float)
    n_deals, k = d.shape[0], d.shape[1]
    names = list(names)
    totals = d.sum(axis=0)
    games_ij = totals + totals.T
    played = games_ij > 0
    theta = fit_log_strengths(with_pseudo_wins(totals, played))
    a = _anchor_index(names, theta, anchor)
    elo = ELO_PER_NAT * (theta - theta[a])
    cov = fisher_covariance(theta, games_ij + 2 * PSEUDO_WINS * played)
    var = np.diag(cov) + cov[a, a] - 2 * cov[:, a]
    rng = np.random.default_rng(seed)
    if bootstrap > 0 and n_deals > 1:
        replicate_wins = replicate_scores(d, bootstrap, rng)
        replicate_played = replicate_wins + np.swapaxes(replicate_wins, 1, 2) > 0
        thetas = fit_log_strengths(replicate_wins + PSEUDO_WINS * replicate_played)
        boot = ELO_PER_NAT * (thetas - thetas[:, [a]])
    else:
        boot = np.full((0, k), np.nan)
    tail = (1 - confidence) / 2
    low, high = (np.quantile(boot, [tail, 1 - tail], axis=0) if len(boot) else (np.full(k, np.nan),) * 2)
    table = pd.DataFrame({
        "rung": names, "elo": elo, "elo_low": low, "elo_high": high,
        "se": boot.std(axis=0, ddof=1) if len(boot) > 1 else np.full(k, np.nan),
        "se_fisher": ELO_PER_NAT * np.sqrt(np.clip(var, 0, None)),
        "games": games_ij.sum(axis=1).round().astype(np.int64),
        "score": np.divide(totals.sum(axis=1), games_ij.sum(axis=1), out=np.full(k, np.nan),
                           where=games_ij.sum(axis=1) > 0),
    })
    table["rank"] = table["elo"].rank(ascending=False, method="first").astype(np.int64)
    table.attrs["anchor"] = names[a]
    return table, boot


def deal_strata(deal_scores) -> np.ndarray:
    """Stratum of each deal (0, 1, ... in order of first appearance): deals with the same set of
    played pairings share a stratum (one stratum when every pairing played every deal)."""
    d = np.asarray(deal_scores, dtype=float)
    played = (d + np.swapaxes(d, 1, 2) > 0).reshape(len(d), -1)
    _, first, inverse = np.unique(played, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))   # strata numbered by their first deal
    return order[inverse.reshape(-1)]


def replicate_scores(deal_scores, bootstrap: int, rng) -> np.ndarray:
    """(bootstrap, k, k) replicate score matrices: deals drawn with replacement within their stratum
    (`deal_counts`); when there are several strata, a stratum of fewer than MIN_STRATUM_DEALS deals
    is drawn game by game instead (`binomial_scores`), since a bootstrap over so few deals cannot
    estimate the spread (over 2 deals it has at most 3 outcomes)."""
    d = np.asarray(deal_scores, dtype=float)
    n, k = d.shape[0], d.shape[1]
    strata = deal_strata(d)
    sizes = np.bincount(strata)
    small = np.isin(strata, np.flatnonzero(sizes < MIN_STRATUM_DEALS)) if len(sizes) > 1 else np.zeros(n, bool)
    if not small.any():
        return (deal_counts(d, bootstrap, rng) @ d.reshape(n, k * k)).reshape(bootstrap, k, k)
    large = d[~small]
    out = (deal_counts(large, bootstrap, rng) @ large.reshape(len(large), k * k)).reshape(bootstrap, k, k)
    for stratum in np.unique(strata[small]):
        out += binomial_scores(d[strata == stratum].sum(axis=0), bootstrap, rng)
    return out


def binomial_scores(totals, bootstrap: int, rng) -> np.ndarray:
    """(bootstrap, k, k): each played pairing's games redrawn as independent games at its observed
    score rate, smoothed by PSEUDO_WINS ((score + 0.5) / (games + 1)); a parametric bootstrap for
    pairings with too few deals to resample (games as the unit, draws as half a game each way)."""
    totals = np.asarray(totals, dtype=float)
    k = totals.shape[0]
    out = np.zeros((bootstrap, k, k))
    games = totals + totals.T
    for i in range(k):
        for j in range(i + 1, k):
            n = int(round(games[i, j]))
            if n == 0:
                continue
            wins = rng.binomial(n, (totals[i, j] + PSEUDO_WINS) / (n + 2 * PSEUDO_WINS), size=bootstrap)
            out[:, i, j], out[:, j, i] = wins, n - wins
    return out


def deal_counts(deal_scores, bootstrap: int, rng) -> np.ndarray:
    """(bootstrap, deals): how often each deal is drawn in each replicate, deals drawn with replacement
    within their stratum (`deal_strata`); with one stratum, a plain bootstrap over all deals."""
    strata = deal_strata(deal_scores)
    n = len(strata)
    if strata.max() == 0:
        return rng.multinomial(n, np.full(n, 1.0 / n), size=bootstrap).astype(float)
    counts = np.zeros((bootstrap, n))
    for s in range(int(strata.max()) + 1):
        members = np.flatnonzero(strata == s)
        counts[:, members] = rng.multinomial(len(members), np.full(len(members), 1.0 / len(members)), size=bootstrap)
    return counts


def _anchor_index(names: list, theta: np.ndarray, anchor: str | None) -> int:
    if anchor is None:
        return names.index("random") if "random" in names else int(np.argmin(theta))
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not a rung of the ladder ({', '.join(names)})")
    return names.index(anchor)


def skill_depth(elo, boot: np.ndarray, confidence: float = 0.95) -> dict:
    """Rating span and significantly distinct levels (a greedy chain, in the spirit of Ludii's skill trace).

    Sort the rungs by rating. The chain starts at the lowest rung (level 1). Walking upwards, a
    rung joins the chain as the next level when the `confidence` bootstrap interval of its rating
    minus the rating of the chain's last member lies wholly above 0 (it beats that level
    significantly, the deal as the unit); otherwise it shares the level of the chain's last
    member. `levels` is the length of the chain, `level[i]` each rung's level (1 = lowest).
    `span` is the top rating minus the bottom rating, with the bootstrap interval of that difference.
    """
    elo = np.asarray(elo, dtype=float)
    order = np.argsort(elo, kind="stable")
    level = np.zeros(len(elo), dtype=np.int64)
    chain = [int(order[0])]
    level[order[0]] = 1
    tail = (1 - confidence) / 2
    for r in order[1:]:
        diff = boot[:, r] - boot[:, chain[-1]] if len(boot) else np.array([np.nan])
        if len(boot) and np.quantile(diff, tail) > 0:
            chain.append(int(r))
        level[r] = len(chain)
    top, bottom = int(order[-1]), int(order[0])
    span = float(elo[top] - elo[bottom])
    spread = boot[:, top] - boot[:, bottom] if len(boot) else np.array([np.nan])
    low, high = (np.quantile(spread, [tail, 1 - tail]) if len(boot) else (np.nan, np.nan))
    return {"span": span, "span_low": float(low), "span_high": float(high), "levels": len(chain),
            "chain": chain, "level": level}


def pairwise_elo(boot: np.ndarray, elo, i: int, j: int, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Rating difference elo[i] - elo[j], its bootstrap interval and two-sided bootstrap p-value."""
    diff = float(elo[i] - elo[j])
    if not len(boot):
        return diff, np.nan, np.nan, np.nan
    d = boot[:, i] - boot[:, j]
    tail = (1 - confidence) / 2
    low, high = np.quantile(d, [tail, 1 - tail])
    p = min(1.0, 2 * min((d <= 0).mean(), (d >= 0).mean()) + 1 / len(d))
    return diff, float(low), float(high), float(p)


#: a rung whose self-play measured a finding on fewer games decides nothing (neither confirms nor overturns it)
MIN_RUNG_GAMES = 100


def mark_robust(findings: pd.DataFrame, top, min_games: int = MIN_RUNG_GAMES) -> pd.DataFrame:
    """`findings` (one row per finding and rung: finding, rung, estimate, significant[, games]) with the
    finding's verdict on every row: `robust` (True when the finding is significant with the same
    sign at both rungs of `top`, the two top-rated rungs) and `verdict` in words. A top rung that
    measured the finding on fewer than `min_games` games does not decide: when the other top rung is
    significant the verdict says the small rung had too few games to tell (not robust, not refuted)."""
    out = findings.copy()
    out["top"] = out["rung"].isin(list(top))
    robust, verdicts = {}, {}
    for key, rows in out.groupby("finding", sort=False):
        at = {r: rows[rows["rung"] == r] for r in top}
        missing = [r for r, x in at.items() if not len(x)]
        if missing:
            robust[key], verdicts[key] = False, f"not measured at {', '.join(map(str, missing))}"
            continue
        games = {r: int(x["games"].iloc[0]) if "games" in x and pd.notna(x["games"].iloc[0]) else None
                 for r, x in at.items()}
        small = [r for r in at if games[r] is not None and games[r] < min_games]
        decided = {r: x for r, x in at.items() if r not in small}
        signs = [float(np.sign(x["estimate"].iloc[0])) for x in decided.values()]
        weak = [r for r, x in decided.items() if not bool(x["significant"].iloc[0])]
        few = "; ".join(f"too few games at {r} ({games[r]}) to tell" for r in small)
        if weak:
            robust[key], verdicts[key] = False, f"not significant at {', '.join(map(str, weak))}" + (
                f"; {few}" if few else "")
        elif not decided:
            robust[key], verdicts[key] = False, few
        elif len(set(signs)) > 1 or 0.0 in signs:
            robust[key], verdicts[key] = False, "sign differs between the top two rungs"
        elif small:
            word = "above" if signs[0] > 0 else "below"
            where = ", ".join(f"{r} ({games[r]:,} games)" if games[r] else str(r) for r in decided)
            robust[key], verdicts[key] = False, f"significantly {word} 0 at {where}; {few}"
        else:
            word = "above" if signs[0] > 0 else "below"
            robust[key], verdicts[key] = True, f"robust: significantly {word} 0 at both top rungs"
    out["robust"] = out["finding"].map(robust).astype(bool)
    out["verdict"] = out["finding"].map(verdicts)
    return out
