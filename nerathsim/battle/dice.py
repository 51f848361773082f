"""Dice maths of Conquest of Nerath battles: the chance of a hit, hit distributions, and
exact samplers of binomial hits.

Seed: "Man rammer ved at slå en 6'er eller mere med terningen" — a die hits on a roll of at least
the threshold: d6 1/6, d8 3/8, d10 5/10, d12 7/12, d20 15/20. A side's hits in one step are the sum
of one binomial per die size (a Poisson binomial): `poisson_binomial_pmf` for the exact solver and
the luck figure, Vose alias tables (`alias_tables`, `joint_alias_tables`) for Monte Carlo.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy import stats


def hit_probability(die: int, hit_threshold: int = 6) -> float:
    """Seed: "Man rammer ved at slå en 6'er eller mere" — P(roll >= threshold) on a fair die."""
    return max(0, die - hit_threshold + 1) / die


@lru_cache(maxsize=4096)
def binomial_pmf(n: int, p: float) -> np.ndarray:
    """P(k hits) for n dice of hit probability p, by convolving n Bernoulli(p) trials."""
    pmf = np.array([1.0])
    step = np.array([1.0 - p, p])
    for _ in range(n):
        pmf = np.convolve(pmf, step)
    pmf.setflags(write=False)
    return pmf


@lru_cache(maxsize=65536)
def poisson_binomial_pmf(pool: tuple[tuple[float, int], ...]) -> np.ndarray:
    """P(k hits) for a pool of ((hit probability, dice), ...): the convolution of the binomials."""
    pmf = np.array([1.0])
    for p, n in pool:
        pmf = np.convolve(pmf, binomial_pmf(n, p))
    pmf.setflags(write=False)
    return pmf


# ----------------------------------------------------------------------------------------
# Binomial sampling by alias tables
# ----------------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def alias_tables(n_max: int, p: float) -> tuple[np.ndarray, np.ndarray, int]:
    """Vose alias tables for Binomial(n, p), n = 0..n_max, flattened as [n * K + j] (K = n_max + 1)."""
    K = n_max + 1
    prob = np.ones((K, K))
    alias = np.zeros((K, K), dtype=np.int64)
    for n in range(K):
        pmf = np.zeros(K)
        pmf[: n + 1] = stats.binom.pmf(np.arange(n + 1), n, p)
        pmf /= pmf.sum()
        prob[n], alias[n] = vose(pmf)
    prob.setflags(write=False)
    alias.setflags(write=False)
    return prob.reshape(-1), alias.reshape(-1), K


def vose(pmf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vose's alias method: (prob, alias) such that drawing j uniformly and keeping j with
    probability prob[j], else alias[j], samples from `pmf`."""
    K = len(pmf)
    scaled = pmf * K
    prob = np.ones(K)
    alias = np.arange(K)
    small = [i for i in range(K) if scaled[i] < 1.0]
    large = [i for i in range(K) if scaled[i] >= 1.0]
    while small and large:
        s, l = small.pop(), large.pop()
        prob[s], alias[s] = scaled[s], l
        scaled[l] = scaled[l] + scaled[s] - 1.0
        (small if scaled[l] < 1.0 else large).append(l)
    for i in small + large:
        prob[i], alias[i] = 1.0, i
    return prob, alias


def alias_draw(key: np.ndarray, prob: np.ndarray, alias: np.ndarray, K: int, rng) -> np.ndarray:
    """One draw per entry of `key` from the flattened alias tables (row `key`, width K), by `rng`."""
    x = rng.random(len(key)) * K
    j = x.astype(np.intp)
    flat = key * K + j
    return np.where(x - j < prob[flat], j, alias[flat])


@lru_cache(maxsize=256)
def joint_alias_tables(spec: tuple[tuple[int, float], ...]):
    """Alias tables of the total hits for every combination of dice counts (n_1, ..., n_m) <= n_max."""
    radices = tuple(n_max + 1 for n_max, _ in spec)
    K = sum(n_max for n_max, _ in spec) + 1
    keys = int(np.prod(radices))
    prob = np.ones((keys, K))
    alias = np.zeros((keys, K), dtype=np.intp)
    for key in range(keys):
        rest, ns = key, []
        for r in reversed(radices):
            ns.append(rest % r)
            rest //= r
        ns.reverse()
        pmf = np.array([1.0])
        for (n_max, p), n in zip(spec, ns):
            pmf = np.convolve(pmf, stats.binom.pmf(np.arange(n + 1), n, p))
        full = np.zeros(K)
        full[: len(pmf)] = pmf / pmf.sum()
        prob[key], alias[key] = vose(full)
    return prob.reshape(-1), alias.reshape(-1), K, radices
