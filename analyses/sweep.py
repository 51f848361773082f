"""Sweeps: vary one Rules field (or one policy parameter) and measure the effect.

Every variant plays the same game numbers with the same seeds (common random numbers), so
game `i` of one variant is paired with game `i` of every other, and the differences against
the first value are paired differences: much narrower intervals than independent runs give.

The effect table has one row per value and metric:
- ``seat0_win_rate``: seat 0's wins per game (a timeout is not a win), Wilson interval;
- ``<policy>_win_rate`` (policy-parameter sweeps): that policy's per-seat win rate;
- ``<faction>_win_rate`` (games that record seat{i}_faction, e.g. Nerath's realms): that faction's wins
  per game, Wilson interval (in alliance play both partners of a winning team win);
- ``turns``: mean turns per game, bootstrap interval;
- ``timeout_rate``: share of games that timed out, Wilson interval;
with ``diff`` (against the first value), its paired t interval and p-value.

The deal is the unit: under ``seat_order="rotate"`` the rotations of one deal share a seed, so
the paired differences of one deal are one cluster (`clusters.paired_difference`: cluster-robust
t interval with deals - 1 degrees of freedom), and so are the per-value intervals
(`clusters.rates` for 0/1 outcomes, `clusters.mean_interval` otherwise). With one game per deal
(``random``, ``fixed``) these are the plain paired t test, Wilson and bootstrap intervals.
Columns ``deals``, ``diff_design_effect`` and ``method`` say which.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from . import clusters, frames
from .clusters import cluster_ids
from .games import load_game, make_rules, resolve_policies, with_parameter
from .runner import simulate
from .tables import Tables, front


@dataclasses.dataclass(frozen=True)
class Sweep(Tables):
    effects: pd.DataFrame
    runs: dict = dataclasses.field(default_factory=dict, repr=False, metadata={"table": False})


def sweep(game, field: str, values, n_games: int, rules=None, policies=None, seed: int = 0,
          n_jobs: int = 1, backend: str | None = None, seat_order: str = "rotate",
          policy_param: str | None = None, progress: bool = True, scheduler: str | None = None,
          chunk_size: int | None = None, confidence: float = 0.95, engine: str = "auto") -> Sweep:
    """Simulate `n_games` for each value of `field` with the same seeds and tabulate the effects.

    field: a Rules field, or with `policy_param="greedy"` a parameter of that registered
    policy (dotted for nested dataclasses, e.g. "weights.pure"); string values are converted
    to the field's type. `Sweep.runs` maps each value to its results DataFrame. `engine` is
    simulate's ('auto' by default: the game's batch kernel for each value it can play, else Python;
    each run's ``attrs["engine"]`` says which, ``attrs["engine_fallback"]`` why not the kernel).
    """
    module = load_game(game)
    values = list(values)
    if not values:
        raise ValueError("sweep: give at least one value")
    runs = {}
    for value in values:
        label, variant_rules, variant_policies = _variant(module, rules, policies, field, value, policy_param)
        if label in runs:
            raise ValueError(f"sweep: value {value!r} is given twice")
        runs[label] = simulate(module, n_games, rules=variant_rules, policies=variant_policies, seed=seed,
                               n_jobs=n_jobs, backend=backend, seat_order=seat_order, progress=progress,
                               scheduler=scheduler, chunk_size=chunk_size, engine=engine)
    return Sweep(effects=effects(runs, confidence, seed, policy_param), runs=runs)


def _variant(module, rules, policies, field, value, policy_param):
    """(value as converted, rules, policies) of one variant."""
    base = make_rules(module, rules)
    if policy_param is None:
        variant = make_rules(module, base, **{field: value})
        return getattr(variant, field), variant, policies
    lineup = resolve_policies(module, policies, base.players)
    if policy_param not in lineup:
        raise ValueError(f"policy_param {policy_param!r} is not among the policies {', '.join(map(str, lineup))}")
    changed = with_parameter(module.POLICIES[policy_param], field, value)
    label = changed
    for attr in field.split("."):
        label = getattr(label, attr)
    return label, base, [changed if entry == policy_param else entry for entry in lineup]


def effects(runs: dict, confidence: float = 0.95, seed: int = 0, policy: str | None = None) -> pd.DataFrame:
    """Effect table of paired runs {value: results}, differences against the first value.

    With `policy`, also that policy's per-seat win rate (``<policy>_win_rate``). Game `i` of
    every run is paired with game `i` of the first; the games of one deal (shared seed) form
    one cluster.
    """
    first = next(iter(runs.values()))
    base = _metrics(first, policy)
    base_clusters = cluster_ids(first)
    rows = []
    for i, (value, df) in enumerate(runs.items()):
        groups = cluster_ids(df)
        for metric, per_game in _metrics(df, policy).items():
            low, high, method = _interval(metric, per_game, groups, confidence, seed)
            row = {"value": value, "metric": metric, "n": len(per_game), "estimate": per_game.mean(),
                   "ci_low": low, "ci_high": high}
            if i and metric in base:          # (a faction seated only in some variants has no baseline)
                paired = min(len(per_game), len(base[metric]))
                diff = clusters.paired_difference(per_game[:paired], base[metric][:paired],
                                                  base_clusters[:paired], confidence)
                row.update({"diff": diff["diff"], "diff_ci_low": diff["ci_low"], "diff_ci_high": diff["ci_high"],
                            "diff_p": diff["p_value"], "deals": diff["deals"],
                            "diff_design_effect": diff["design_effect"], "method": diff["method"]})
            else:
                row.update({"deals": int(len(np.unique(groups))), "method": method})
            rows.append(row)
    table = pd.DataFrame(rows).reindex(columns=["value", "metric", "n", "estimate", "ci_low", "ci_high", "diff",
                                                "diff_ci_low", "diff_ci_high", "diff_p", "deals",
                                                "diff_design_effect", "method"])
    table = front(table, ["value", "metric"])
    table.attrs["method"] = "; ".join(dict.fromkeys(table["method"].astype(str)))
    return table


def _metrics(df: pd.DataFrame, policy: str | None) -> dict[str, np.ndarray]:
    """Per-game values of each metric (paired across variants by game number)."""
    won = frames.seat_wins(df) & ~df["timed_out"].to_numpy(dtype=bool)[:, None]
    metrics = {"seat0_win_rate": won[:, 0].astype(float)}
    if policy is not None:
        seats = (df[frames.policy_columns(df)].astype(object) == policy).to_numpy()
        with np.errstate(invalid="ignore"):
            metrics[f"{policy}_win_rate"] = (won & seats).sum(axis=1) / seats.sum(axis=1)
    metrics.update(_faction_metrics(df, won))
    metrics["turns"] = df["turns"].to_numpy(dtype=float)
    metrics["timeout_rate"] = df["timed_out"].to_numpy(dtype=float)
    return metrics


def _faction_metrics(df: pd.DataFrame, won: np.ndarray) -> dict[str, np.ndarray]:
    """``<faction>_win_rate`` for every faction seated in every game (from the seat{i}_faction columns):
    per game 1 when a seat playing it won (a team win counts for each of its factions)."""
    n = won.shape[1]
    columns = [f"seat{i}_faction" for i in range(n)]
    if not all(c in df.columns for c in columns):
        return {}
    seated = df[columns].astype(object).to_numpy()
    out = {}
    for faction in sorted({f for f in np.unique(seated.astype(str)) if f and f != "nan"}):
        here = seated == faction
        if not here.any(axis=1).all():
            continue
        out[f"{faction}_win_rate"] = (won & here).any(axis=1).astype(float)
    return out


def _interval(metric: str, per_game: np.ndarray, groups: np.ndarray, confidence: float,
              seed: int) -> tuple[float, float, str]:
    """Wilson (or its clustered version) for 0/1 outcomes, else bootstrap or cluster-robust t."""
    if np.isin(per_game, (0.0, 1.0)).all():
        table = clusters.rates(per_game, np.ones(len(per_game)), groups, confidence=confidence)
        return float(table["ci_low"].iloc[0]), float(table["ci_high"].iloc[0]), str(table["method"].iloc[0])
    independent = clusters.is_independent(np.ones(len(per_game)), groups)
    low, high = clusters.mean_interval(per_game, groups, confidence, seed)
    return low, high, ("bootstrap (independent games)" if independent else "t, deal as the unit")
