"""The findings table's columns and statuses, and the formats of the numbers its sentences show.

Shared by the sentences (`analyses.findings`), their confirmation (`analyses.findings_confirm`) and
anyone checking a sentence against its table (the report's browser test).
"""
from __future__ import annotations

import ast

import pandas as pd

from .multiplicity import p_text

ALPHA = 0.05
COLUMNS = ["game", "title", "kind", "text", "effect", "source", "row", "numbers", "significant",
           "selected", "status", "key", "confirm_row", "confirm_numbers", "robustness"]
#: a finding's status: chosen on the discovery run, then measured on a fresh confirmation run
CONFIRMED_STATUS, NOT_CONFIRMED, NO_CONFIRMATION = "confirmed", "not confirmed", "no confirmation run"
#: kinds in the order they are listed when effects tie; "not_found" and "trust" always come last
KINDS = ("verdict", "seat", "team", "policy", "fix", "impact", "sweep", "event", "units", "length", "timeouts",
         "not_found", "trust")


# --- the formats shared by the sentences and by anyone checking them ---------------------------

def pct(x: float) -> str:
    """0.2093 -> '20.9%'."""
    return f"{100 * float(x):.1f}%"


def ci(low: float, high: float, scale: float = 100.0) -> str:
    """A 95% interval of a rate in percent: '[19.5, 22.4]'."""
    return f"[{scale * float(low):.1f}, {scale * float(high):.1f}]"


def pts(x: float) -> str:
    """Signed points: '+4.1 points'."""
    return f"{float(x):+.1f} points"


def n_(x) -> str:
    return f"{int(x):,}"


def rate_of(r: pd.Series, rate: str = "win_rate", n: str = "games") -> str:
    """A rate of a table's row with its interval and its count: '20.9% [19.5, 22.4] of 3,000'."""
    return f"{pct(r[rate])} {ci(r['ci_low'], r['ci_high'])} of {n_(r[n])}"


def words(name) -> str:
    """A name or value as words: 'iron_circle' -> 'iron circle'; a tuple or list, or its Python text
    "('karkoth', 'nerath')", -> 'karkoth, nerath' (never a raw Python literal)."""
    if isinstance(name, str) and name[:1] in "([" and name[-1:] in ")]":
        try:
            name = ast.literal_eval(name)
        except (ValueError, SyntaxError):
            pass
    if isinstance(name, (tuple, list)):
        return ", ".join(words(x) for x in name)
    return str(name).replace("_", " ")


#: format -> a function of (row, its column names): one column, or two for an interval (a spec that gives
#: another number of columns fails loudly)
FORMATS = {"pct": lambda r, a: pct(r[a]), "ci": lambda r, lo, hi: ci(r[lo], r[hi]),
           "ci_pts": lambda r, lo, hi: ci(r[lo], r[hi], 1.0), "pts": lambda r, a: pts(r[a]),
           "abs_pts": lambda r, a: f"{abs(float(r[a])):.1f} points", "n": lambda r, a: n_(r[a]),
           "p": lambda r, a: p_text(r[a]), "num": lambda r, a: f"{float(r[a]):g}", "int": lambda r, a: f"{float(r[a]):.0f}",
           "mean": lambda r, a: f"{float(r[a]):.1f}", "ratio": lambda r, a: f"{float(r[a]):.2f}"}


def formatted_numbers(row: pd.Series, numbers: str) -> list[str]:
    """The strings a finding shows for `row` under its `numbers` spec (see `analyses.findings`)."""
    out = []
    for item in filter(None, numbers.split(",")):
        columns, kind = item.split(":")
        out.append(FORMATS[kind](row, *columns.split("+")))
    return out


def source_table(g, source: str) -> pd.DataFrame:
    """The DataFrame a finding of game study `g` was built from."""
    if source.startswith("extra:"):
        return g.extra[source[len("extra:"):]]
    return getattr(g, source)


def p_column(table: pd.DataFrame) -> str:
    """The p-value column to judge by: the game's family-adjusted one (`analyses.multiplicity`), else
    another multiplicity-adjusted one when the table has it."""
    for name in ("p_family", "p_holm", "p_adjusted", "p_value"):
        if name in table.columns:
            return name
    return "p_value"
