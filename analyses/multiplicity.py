"""Error control across a game's section of the report: one family of tests per game.

Every test whose result can become a sentence of a game's Findings is one member of that game's
family: each seat against its fair share and the χ² test that all seats win equally often, each
alliance, each policy at the mixed table, each realm, each two-player duel (one test per pair of
policies), each card family of the opening-hand impact table (causal; the in-game impact table is
association and never becomes a sentence, so it is not a member), each seat of the player-count sweep, each
rule change tried, and each finding of the game's skill ladder at each rung. The report adjusts the
p-values of the whole family with Holm's step-down method (family-wise error at most 5% per game,
whatever the dependence between the tests); `bh` (Benjamini–Hochberg, false discovery rate) is the
alternative, chosen with ``method="bh"``.

- `holm(p)`, `bh(p)`: adjusted p-values (NaN stays NaN and does not count in the family).
- `named_test(method)`: the test behind a table row's p-value, in words, from its ``method`` column.
- `game_family(g)`: one row per member of game study `g`'s family: source table, row, raw p-value,
  test.
- `with_family(g, method)`: `g` with a ``p_family`` column (the adjusted p-value) and a ``test``
  column on every table of the family, and the family's size and method in ``g.family``.
- `p_label(p, test, family)`: "p = 0.03, Holm-adjusted over the 24 tests of this game, two-sided exact
  binomial test" — how every p-value is written on the page.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from .card_impact import OPENING_METHOD
from .clusters import CLUSTERED, INDEPENDENT, holm, ranked

METHODS = {"holm": "Holm-adjusted", "bh": "Benjamini–Hochberg-adjusted"}
DEFAULT_METHOD = "holm"
FAMILY_COLUMNS = ["source", "row", "p_raw", "test"]

#: the method strings of `analyses.clusters` and its callers -> the test, in words
TESTS = {
    INDEPENDENT: "two-sided exact binomial test",
    CLUSTERED: "two-sided score test, deal as the unit",
    "Pearson chi-square": "Pearson χ² test that all seats win equally often",
    "Rao-Scott chi-square (deal as the unit)": "Rao–Scott χ² test that all seats win equally often, deal as the unit",
    "ratio difference, deal as the unit (cluster-robust t)": "two-sided cluster-robust t test, deal as the unit",
    "paired t (independent pairs)": "two-sided paired t test",
    "paired t, deal as the unit": "two-sided paired t test, deal as the unit",
    OPENING_METHOD: "two-sided paired t test over deals",
}


#: a skill ladder's findings: self-play puts one policy in every seat, so each game is its own deal
LADDER_TESTS = {"seat": "two-sided exact binomial test", "alliance": "two-sided exact binomial test",
                "impact": TESTS["ratio difference, deal as the unit (cluster-robust t)"]}


def bh(p_values) -> np.ndarray:
    """Benjamini–Hochberg step-up adjusted p-values (NaN stays NaN and does not count)."""
    p, out, order = ranked(p_values)
    m = len(order)
    if m:
        scaled = p[order] * m / np.arange(1, m + 1)
        out[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return out


def adjust(p_values, method: str = DEFAULT_METHOD) -> np.ndarray:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    return holm(p_values) if method == "holm" else bh(p_values)


def named_test(method) -> str:
    """The test behind a p-value, from a table's ``method`` text ('' when unknown)."""
    text = str(method) if method is not None and not (isinstance(method, float) and math.isnan(method)) else ""
    if text in TESTS:
        return TESTS[text]
    for key, words in TESTS.items():   # a summary's 'seat method; omnibus method': the omnibus part
        if text.endswith("; " + key):
            return words
    return text


@dataclasses.dataclass(frozen=True)
class Family:
    """The size and adjustment of one game's family (what every p-value label names)."""

    size: int
    method: str = DEFAULT_METHOD

    @property
    def adjusted(self) -> str:
        return METHODS[self.method]

    def words(self) -> str:
        return f"{self.adjusted} over the {self.size} tests of this game"


def p_label(p, test: str, family: Family | None) -> str:
    """'p = 0.034, Holm-adjusted over the 24 tests of this game, two-sided exact binomial test'."""
    parts = [p_text(p), family.words() if family is not None else "unadjusted"]
    if test:
        parts.append(test)
    return ", ".join(parts)


def p_text(p) -> str:
    """'p < 0.001', 'p = 0.034', 'p = 0.21'."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "p not available"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}" if p < 0.01 else f"p = {p:.2f}"


# --- the family of one game ------------------------------------------------------------------

def _main_lineup(g):
    return g.fpa_summary.iloc[0]["lineup"] if len(g.fpa_summary) else None


def _main_players(g):
    return int(g.fpa_summary.iloc[0]["players"]) if len(g.fpa_summary) else None


def _rows(table: pd.DataFrame, source: str, column: str, keep=None) -> list[dict]:
    if table is None or not len(table) or column not in table.columns:
        return []
    rows = table if keep is None else table[keep]
    methods = rows["method"] if "method" in rows.columns else pd.Series("", index=rows.index)
    return [{"source": source, "row": int(i), "p_raw": float(rows.at[i, column]),
             "test": named_test(methods.at[i])} for i in rows.index if pd.notna(rows.at[i, column])]


def _one_per_pair(matrix: pd.DataFrame) -> pd.Series:
    """The first row of each unordered pair of policies (a duel's two rows are one test)."""
    seen, keep = set(), []
    for a, b in zip(matrix["policy"], matrix["opponent"]):
        pair = frozenset((a, b))
        keep.append(pair not in seen)
        seen.add(pair)
    return pd.Series(keep, index=matrix.index)


def game_family(g) -> pd.DataFrame:
    """Every test of game study `g` whose result can become a sentence (see the module docstring)."""
    rows = []
    seats = g.fpa_seats
    if len(seats):
        rows += _rows(seats, "fpa_seats", "p_value", seats["lineup"] == _main_lineup(g))
    summary = g.fpa_summary
    if len(summary) and not g.team_game:
        rows += _rows(summary.iloc[:1], "fpa_summary", "chi2_p")
    rows += _rows(g.teams, "teams", "p_value")
    rows += _rows(g.by_policy, "by_policy", "p_value")
    rows += _rows(g.by_faction, "by_faction", "p_value")
    if len(g.matrix) and "p_value" in g.matrix.columns:
        rows += _rows(g.matrix, "matrix", "p_value", _one_per_pair(g.matrix))
    opening = getattr(g, "opening_impact", None)
    if opening is not None and len(opening) and "finding" in opening.columns:
        rows += _rows(opening, "opening_impact", "p_value", opening["finding"].astype(bool))
    sweep = g.sweep_seats
    if len(sweep):
        rows += _rows(sweep, "sweep_seats", "p_value", sweep["players"] != _main_players(g))
    rows += _rows(g.fixes, "fixes", "p_value")
    ladder = getattr(g, "ladder_findings", None)
    if ladder is not None and len(ladder):
        rows += [{"source": "ladder", "row": int(i), "p_raw": float(r["p_value"]), "test": LADDER_TESTS.get(
                  str(r.get("kind")), LADDER_TESTS["seat"])} for i, r in ladder.iterrows() if pd.notna(r["p_value"])]
    return pd.DataFrame(rows, columns=FAMILY_COLUMNS)


def with_family(g, method: str = DEFAULT_METHOD):
    """`g` with each table of its family carrying ``p_family`` (adjusted over the whole family) and
    ``test``, and ``g.family`` (a `Family`) saying how many tests and which adjustment."""
    family = game_family(g)
    family["p_family"] = adjust(family["p_raw"].to_numpy(), method)
    changes = {}
    for source, rows in family.groupby("source", sort=False):
        attribute = "ladder_findings" if source == "ladder" else source
        table = getattr(g, attribute).copy()
        table["p_family"] = np.nan
        table["test"] = table["method"].map(named_test) if "method" in table.columns else ""
        table.loc[rows["row"].to_numpy(), "p_family"] = rows["p_family"].to_numpy()
        table.loc[rows["row"].to_numpy(), "test"] = rows["test"].to_numpy()
        table.attrs = dict(getattr(g, attribute).attrs)
        if source == "matrix":      # a duel's mirrored row reads its pair's adjusted p-value
            done = dict(zip(zip(table.loc[rows["row"], "policy"], table.loc[rows["row"], "opponent"]),
                            rows["p_family"]))
            table["p_family"] = [done.get((a, b), done.get((b, a), np.nan))
                                 for a, b in zip(table["policy"], table["opponent"])]
        changes[attribute] = table
    return dataclasses.replace(g, **changes, family=Family(len(family), method))
