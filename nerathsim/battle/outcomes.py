"""`EndTable`: the distribution of how a battle ends, shared by the exact solver and Monte Carlo.

One row per distinct end: outcome code, the attacker's and defender's survivors per unit
type (healed), the defender's units captured by the attacker, and the row's probability
(Monte Carlo also keeps the row's count). `odds.BattleOdds` is computed from it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ATTACKER_WINS, DEFENDER_HOLDS, DRAW, RETREAT = 0, 1, 2, 3


@dataclass(frozen=True)
class EndTable:
    units: tuple[str, ...]          # column order of the survivor arrays (table order)
    outcome: np.ndarray             # (k,) int8 outcome code
    attacker: np.ndarray            # (k, U) survivors
    defender: np.ndarray            # (k, U) survivors still the defender's
    captured: np.ndarray            # (k, U) defender's units taken by the attacker
    prob: np.ndarray                # (k,) probability of the row
    rounds: np.ndarray              # rounds[r] = P(battle lasts r rounds)
    expected_rounds: float
    attacker_start: np.ndarray      # (U,)
    defender_start: np.ndarray      # (U,)
    costs: np.ndarray               # (U,) gold per unit
    counts: np.ndarray | None = None  # Monte Carlo: battles per row
    n: int | None = None            # Monte Carlo: battles simulated
    pruned: float = 0.0             # exact: probability mass dropped below the pruning threshold
    engine: str | None = None       # Monte Carlo: 'python' (numpy engine) or 'kernel' (numba) — which one ran


def collapse(units, outcome, attacker, defender, captured, weight):
    """Merge identical rows (same outcome and survivors), summing `weight`; sorted by outcome then weight."""
    keys = np.column_stack([outcome.astype(np.int64), attacker, defender, captured]).astype(np.int64)
    radices = keys.max(axis=0) + 1 if len(keys) else np.ones(keys.shape[1], dtype=np.int64)
    if float(np.prod(radices.astype(float))) < 2.0 ** 62:
        mult = np.concatenate([[1], np.cumprod(radices[:-1])]).astype(np.int64)
        codes, inverse = np.unique(keys @ mult, return_inverse=True)
        uniq = (codes[:, None] // mult[None, :]) % radices[None, :]
    else:
        uniq, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    w = np.bincount(inverse, weights=weight, minlength=len(uniq))
    order = np.lexsort((-w, uniq[:, 0]))
    uniq, w = uniq[order], w[order]
    U = len(units)
    return (uniq[:, 0].astype(np.int8), uniq[:, 1:1 + U], uniq[:, 1 + U:1 + 2 * U], uniq[:, 1 + 2 * U:], w)
