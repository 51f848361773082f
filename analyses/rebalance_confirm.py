"""The confirmation run of a re-balancing search (`analyses.rebalance_search`): the proposal and the
published game played on fresh seeds, per condition of the objective (each term's games under its
own Rules), sized from the standard error so every interval can decide (`confirmation_size`), and
the before/after tables with their 95% intervals (the deal as the unit: `analyses.objectives`) for
the objective and its side effects. The search's own estimates are biased by selection; only this
run decides. Its coverage is proved by simulation (tests/analyses/test_analyses_confirm_coverage.py).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from .objectives import apply_condition, condition_label, restrict, side_effect_objectives
from .options import CONFIRM_PRECISION
from .rebalance_games import _tag, fresh_seed
from .tables import stack
from .teams import is_team_game

CONFIRM_DIR = "confirm"
CONFIRM_MAX = 200_000     # games per side at most, when the size comes from the standard error


def confirm(module, obj, runs: dict, conds: list, base_at: dict, after_rules, proposed: dict, published: dict,
            reference, sizes: list, seed: int, confirm_games: int | None, confirm_precision: float, store):
    """Play the published game and the proposal on fresh seeds under each condition of `obj`
    (`runs`: {condition: _Runner}; `base_at`: the published Rules under each condition) and
    compare them. Returns (table, side_effects, confirm_seed, confirm_games, confirm_sizes):
    confirm_sizes maps each condition's label ('' = as given) to its games per side."""
    sides = side_effect_objectives(module, obj)
    confirm_sizes = {}
    confirm_seed = fresh_seed(seed)
    after_at = {c: apply_condition(module, after_rules, c) for c in conds}
    folder = None if store is None else Path(store) / CONFIRM_DIR
    tables, side_tables = [], []
    for c in conds:
        part, run = restrict(obj, c), runs[c]
        n_c = confirm_games or confirmation_size(part, run.frame(after_at[c], sizes[-1], tag=_tag(proposed)),
                                                 after_at[c],
                                                 confirm_precision, run.per_deal)
        before_df = run.confirm_frame(base_at[c], n_c, confirm_seed, folder, _tag(published))
        after_df = (before_df if proposed == published else
                    run.confirm_frame(after_at[c], n_c, confirm_seed, folder, _tag(proposed)))
        tables.append(before_after(part, before_df, after_df, base_at[c], after_at[c]))
        watch = [s.bind(reference) for s in sides if s.condition == c
                 and (s.name != "alliance_balance" or is_team_game(before_df))]
        side_tables.append(before_after_many(watch, before_df, after_df, base_at[c], after_at[c]))
        confirm_sizes[condition_label(c)] = n_c
    return stack(tables), stack(side_tables), confirm_seed, max(confirm_sizes.values()), confirm_sizes


def confirmation_size(obj, df: pd.DataFrame, rules, precision: float = CONFIRM_PRECISION, per_deal: int = 1,
                      cap: int = CONFIRM_MAX) -> int:
    """Games per side for a confirmation run that can decide the objective: from the intervals of
    `df` (the proposal's search games), the n at which every measure's 95% half-width is at most
    `precision` × its band's half-width (a half-width shrinks as 1/sqrt(n)); at least len(df), at
    most `cap`, whole deals. Seat balance at ±1.5 points, a 25% share: about 20,000 games."""
    table = obj.table(df, rules)
    n_have = max(1, len(df))
    need = n_have
    for row in table.itertuples(index=False):
        half, band = (row.ci_high - row.ci_low) / 2, (row.target_high - row.target_low) / 2
        if not (np.isfinite(half) and np.isfinite(band)) or half <= 0 or band <= 0:
            continue
        need = max(need, int(math.ceil(n_have * (half / (precision * band)) ** 2)))
    need = min(need, cap)
    return int(math.ceil(need / per_deal) * per_deal)


def before_after(obj, before_df, after_df, before_rules, after_rules) -> pd.DataFrame:
    """One row per measure: before and after, each with its interval, the band and whether it is inside."""
    b = obj.table(before_df, before_rules)
    a = obj.table(after_df, after_rules)
    if not len(a):
        return pd.DataFrame()
    out = a[["objective", "measure", "target_low", "target_high"]].copy()
    b = b.set_index("measure").reindex(a["measure"])
    out["before"], out["before_low"], out["before_high"] = (b["value"].to_numpy(), b["ci_low"].to_numpy(),
                                                            b["ci_high"].to_numpy())
    out["after"], out["after_low"], out["after_high"] = a["value"], a["ci_low"], a["ci_high"]
    out["n"] = a["n"]
    out["within_before"] = b["within"].fillna(False).astype(bool).to_numpy()
    out["within_after"] = a["within"].astype(bool)
    return out.reset_index(drop=True)


def before_after_many(objs, before_df, after_df, before_rules, after_rules) -> pd.DataFrame:
    return stack([before_after(o, before_df, after_df, before_rules, after_rules) for o in objs])
