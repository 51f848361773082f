"""Automatic warnings: numbers a reader should not take at face value.

`game_warnings(g)` scans the tables of one `GameStudy` and returns one row per flagged number:

- ``few_games``: a rate that rests on fewer than 30 games (or seats);
- ``extreme_rate``: a rate of exactly 0% or 100% (its interval then rests on n alone, and a
  rule or a policy may be broken) — except a two-player duel against random play, which a working
  heuristic may well win every time;
- ``zero_turns``: games that ended after 0 turns (before anyone acted);
- ``timeouts``: more than 1% of games hit the turn cap without a winner;
- ``rank_disagreement``: two tables rank the policies differently (the mixed table and the
  two-player duels name a different strongest policy).

Columns: ``kind, source, row, message``; ``source`` is the GameStudy attribute (or
``extra:<title>``) and ``row`` the row index there (-1 for the table as a whole), so the report
can put a marker beside the number.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .findings import words

MIN_GAMES = 30
MAX_TIMEOUT_RATE = 0.01
KINDS = ("few_games", "extreme_rate", "zero_turns", "timeouts", "rank_disagreement")
COLUMNS = ["kind", "source", "row", "message"]


def _row(kind, source, row, message) -> dict:
    return {"kind": kind, "source": source, "row": int(row), "message": message}


def _label(r: pd.Series) -> str:
    parts = []
    for key in ("team", "policy", "faction", "seat", "stat", "event", "measure", "metric"):
        if key in r.index and pd.notna(r[key]):
            v = r[key]
            if key == "metric":
                v = "seat 1 win rate" if v == "seat0_win_rate" else str(v).replace("+", " + ")
            parts.append(f"seat {int(v) + 1}" if key == "seat" else str(v).replace("_", " "))
    if "opponent" in r.index and pd.notna(r["opponent"]):
        parts.append(f"vs {str(r['opponent']).replace('_', ' ')}")
    if "players" in r.index and "seat" in r.index:
        parts.insert(0, f"{int(r['players'])} players,")
    if "value" in r.index:
        parts.insert(0, f"at {words(r['value'])}:")
    return " ".join(parts) or "row"


def rate_checks(table: pd.DataFrame, source: str, rates=("win_rate",), n: str = "games",
                what: str = "games") -> list[dict]:
    """few_games / extreme_rate rows of one table of rates (`rates`: columns of 0..1 rates, `n`:
    the column of games each rests on). Sweep-style tables (metric, estimate) are read per metric."""
    out = []
    if table is None or not len(table):
        return out
    for i, r in table.iterrows():
        if "metric" in table.columns and "estimate" in rates and (not str(r["metric"]).endswith("_rate")
                                                                   or r["metric"] == "timeout_rate"):
            continue   # a mean, or the turn-cap rate (0% is good news; > 1% is its own warning)
        count = r.get(n)
        if count is not None and pd.notna(count) and int(count) < MIN_GAMES:
            out.append(_row("few_games", source, i, f"{_label(r)}: rests on only {int(count)} {what} "
                                                     f"(fewer than {MIN_GAMES}); read it as a rough guide."))
        for col in rates:
            v = r.get(col)
            if v is not None and pd.notna(v) and (v == 0 or v == 1):
                out.append(_row("extreme_rate", source, i, f"{_label(r)}: a rate of {100 * v:.0f}% — nothing else "
                                                           f"happened in {int(count) if count is not None and pd.notna(count) else 'any'} "
                                                           f"{what}; check the rules and policies behind it."))
                break
    return out


def zero_turn_check(turns: pd.Series, source: str = "length") -> list[dict]:
    turns = np.asarray(turns)
    zero = int((turns == 0).sum())
    if not zero:
        return []
    return [_row("zero_turns", source, -1, f"{zero:,} of {len(turns):,} games ended after 0 turns (before every "
                                          f"player had acted); the minimum game length is 0.")]


def timeout_check(summary: pd.DataFrame, source: str = "fpa_summary") -> list[dict]:
    out = []
    for i, r in summary.iterrows() if summary is not None and len(summary) else []:
        if r["timeout_rate"] > MAX_TIMEOUT_RATE:
            out.append(_row("timeouts", source, i, f"{100 * r['timeout_rate']:.1f}% of {int(r['games']):,} games hit "
                                                   f"the turn cap (more than {100 * MAX_TIMEOUT_RATE:.0f}%): the win "
                                                   f"rates leave those games out."))
    return out


def sweep_timeout_check(sweep: pd.DataFrame, source: str = "sweep") -> list[dict]:
    out = []
    if sweep is None or not len(sweep):
        return out
    for i, r in sweep[sweep["metric"] == "timeout_rate"].iterrows():
        if r["estimate"] > MAX_TIMEOUT_RATE:
            out.append(_row("timeouts", source, i, f"at {words(r['value'])}: {100 * r['estimate']:.1f}% of {int(r['n']):,} "
                                                   f"games hit the turn cap (more than {100 * MAX_TIMEOUT_RATE:.0f}%)."))
    return out


def rank_check(by_policy: pd.DataFrame, ratings: pd.DataFrame, source: str = "by_policy") -> list[dict]:
    """Warn when the mixed table and the duel ratings name a different strongest policy."""
    if by_policy is None or ratings is None or not len(by_policy) or not len(ratings):
        return []
    common = set(by_policy["policy"]) & set(ratings["policy"])
    if len(common) < 2:
        return []
    mixed = by_policy[by_policy["policy"].isin(common)].sort_values("win_rate", ascending=False)
    duels = ratings[ratings["policy"].isin(common)].sort_values("elo", ascending=False)
    top_mixed, top_duels = mixed.iloc[0]["policy"], duels.iloc[0]["policy"]
    if top_mixed == top_duels:
        return []
    order_m = ", ".join(str(p).replace("_", " ") for p in mixed["policy"])
    order_d = ", ".join(str(p).replace("_", " ") for p in duels["policy"])
    return [_row("rank_disagreement", source, mixed.index[0],
                 f"The tables disagree on the strongest policy: the mixed table ranks {order_m}; the two-player duels "
                 f"rate {order_d}. The ranking depends on the table (player count, partners, opponents).")]


def _expected_sweep(matrix: pd.DataFrame, warning: dict) -> bool:
    """A duel against random play won (or lost) every time: what a working heuristic should do, not a
    number to distrust."""
    if warning["kind"] != "extreme_rate":
        return False
    r = matrix.loc[warning["row"]]
    return "random" in (str(r.get("policy")), str(r.get("opponent"))) and str(r.get("policy")) != str(r.get("opponent"))


def game_warnings(g) -> pd.DataFrame:
    """Every warning of one GameStudy (see the module docstring)."""
    rows = []
    rows += rate_checks(g.fpa_seats, "fpa_seats")
    rows += rate_checks(g.teams, "teams")
    rows += rate_checks(g.by_policy, "by_policy")
    rows += rate_checks(g.by_faction, "by_faction")
    rows += [w for w in rate_checks(g.matrix, "matrix") if not _expected_sweep(g.matrix, w)]
    rows += rate_checks(g.sweep_seats, "sweep_seats")
    rows += rate_checks(g.sweep, "sweep", rates=("estimate",), n="n")
    rows += rate_checks(g.fixes, "fixes", rates=("before", "after"))
    rows += rate_checks(g.impact, "impact", rates=("win_with", "win_without"), n="n_with", what="seats")
    events = g.extra.get("Game events (main run)")
    rows += rate_checks(events, "extra:Game events (main run)", rates=(), n="n")
    rows += zero_turn_check(g.turns)
    rows += timeout_check(g.fpa_summary)
    rows += sweep_timeout_check(g.sweep)
    rows += rank_check(g.by_policy, g.ratings)
    return pd.DataFrame(rows, columns=COLUMNS)
