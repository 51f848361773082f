"""Rule changes to try: a cheap paired run of one rules variant against the main run.

A study plan may name candidate fixes for the imbalances a game is prone to, e.g. "let Nerath
move first" for an alliance that wins too rarely, or "one extra starting card for the last
seat" where the game has such a Rules field. `simulate_study` plays each fix whose field exists
with the main run's seeds (game i of the fix is paired with game i of the main run: common
random numbers), and `fix_effects` measures what the fix was meant to move:

- trigger ``"team"``: the win rate of the team that won least often in the main run;
- trigger ``"last_seat"`` / ``"first_seat"``: that seat's win rate;

before (the main run's first n games) and after (the fix), each with its Wilson interval and
n, the fair share it should reach (``expected``) and whether the fix moved it closer
(``closer``), and the paired difference in points with its t interval and p-value. The deal is
the unit (`analyses.clusters`): under rotated seats the games of one deal share a seed, so
intervals and the paired test are cluster-robust over deals (plain Wilson and paired t with one
game per deal).
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from . import frames
from .clusters import cluster_ids, paired_difference, rates
from .teams import teams

TRIGGERS = ("team", "last_seat", "first_seat")


@dataclasses.dataclass(frozen=True)
class Fix:
    """A candidate rule change: `field` = `value`, aimed at the imbalance named by `trigger`."""

    trigger: str
    field: str
    value: object
    text: str                       # the change in words, e.g. "let Nerath move first"
    name: str = ""                  # short run name when the value is long (e.g. a turn order tuple)

    def __post_init__(self):
        if self.trigger not in TRIGGERS:
            raise ValueError(f"Fix.trigger must be one of {', '.join(TRIGGERS)}, got {self.trigger!r}")

    @property
    def run(self) -> str:
        """'fix-turn_order=nerath_first', or 'fix-<name>' when the fix has a name."""
        return f"fix-{self.name}" if self.name else f"fix-{self.field}={self.value}"


def fix_effects(main: pd.DataFrame, fix_runs: dict, fixes, confidence: float = 0.95) -> pd.DataFrame:
    """One row per fix that was played (`fix_runs`: run name -> results)."""
    rows = []
    for fix in fixes:
        after = fix_runs.get(fix.run)
        if after is None or not len(after):
            continue
        n = min(len(after), len(main))
        before = main.iloc[:n]
        after = after.iloc[:n]
        target, b, a, fair = _measure(fix.trigger, before, after)
        if b is None:
            continue
        kb, ka = int(b.sum()), int(a.sum())
        deals = cluster_ids(before)
        interval = rates(np.column_stack([b, a]), np.ones((n, 1)), deals, confidence=confidence)
        (bl, al), (bh, ah) = interval["ci_low"].tolist(), interval["ci_high"].tolist()
        diff = paired_difference(a, b, deals, confidence)
        rows.append({"change": fix.text, "field": fix.field, "value": str(fix.value), "trigger": fix.trigger,
                     "measure": target, "games": n, "expected": fair,
                     "before": kb / n, "before_low": bl, "before_high": bh,
                     "after": ka / n, "after_low": al, "after_high": ah,
                     "diff_pp": 100 * diff["diff"], "diff_low": 100 * diff["ci_low"],
                     "diff_high": 100 * diff["ci_high"], "p_value": diff["p_value"], "deals": diff["deals"],
                     "design_effect": diff["design_effect"], "method": diff["method"],
                     "closer": abs(ka / n - fair) < abs(kb / n - fair)})
    return pd.DataFrame(rows)


def _measure(trigger: str, before: pd.DataFrame, after: pd.DataFrame):
    """(what is measured, per-game 0/1 before, per-game 0/1 after, its fair share)."""
    won_b = frames.seat_wins(before) & ~before["timed_out"].to_numpy(bool)[:, None]
    won_a = frames.seat_wins(after) & ~after["timed_out"].to_numpy(bool)[:, None]
    if trigger == "team":
        table = teams(before)
        if not len(table):
            return None, None, None, None
        worst = table.sort_values("win_rate").iloc[0]
        seats = [int(s) for s in str(worst["seats"]).split("+")]
        return (f"{worst['team']} wins", won_b[:, seats].all(axis=1).astype(float),
                won_a[:, seats].all(axis=1).astype(float), float(worst["expected"]))
    seat = won_b.shape[1] - 1 if trigger == "last_seat" else 0
    label = f"seat {seat + 1} of {won_b.shape[1]} wins"
    return label, won_b[:, seat].astype(float), won_a[:, seat].astype(float), 1 / won_b.shape[1]


def available(module, fixes) -> list:
    """The fixes whose Rules field exists in this version of the game."""
    names = {f.name for f in dataclasses.fields(module.Rules)}
    return [f for f in fixes if f.field in names]
