"""What the command line prints: a plain header and compact tables a person reads (at most 100
columns), and the full frames for machines (`--format csv|json|parquet`).

The tables keep the analyses' numbers and change only their form: seats numbered from 1 (seat 1
plays first), rates as percentages with their 95% interval in one cell, p-values as "< 0.001",
headers in words; bookkeeping columns (method, deals, design effect) are left to `--format`. The
DataFrame API keeps its own columns (seats from 0); this module only prints.
"""
from __future__ import annotations

import io
import json
import re
import textwrap

import pandas as pd

from analyses.findings import p_text
from analyses.options import TABLE_FORMATS as FORMATS

WIDTH = 100

#: (value, low, high, kind) shown as one "value [low, high]" cell
INTERVALS = [("win_rate", "ci_low", "ci_high", "rate"), ("rate", "ci_low", "ci_high", "rate"),
             ("estimate", "ci_low", "ci_high", "metric"), ("mean", "ci_low", "ci_high", "number"),
             ("diff", "diff_ci_low", "diff_ci_high", "diff"), ("elo", "elo_low", "elo_high", "number"),
             ("timeout_rate", "timeout_ci_low", "timeout_ci_high", "rate"),
             ("share", "share_ci_low", "share_ci_high", "rate")]
RATES = {"expected", "balance", "advantage_p1"}
P_VALUES = {"p_value", "p_holm", "chi2_p", "diff_p", "p_adjusted"}
HIDDEN = {"method", "deals", "design_effect", "chi2", "chi2_df", "se", "log_strength", "strength", "pseudo_wins",
          "diff_design_effect", "se_model"}
LABELS = {"players": "players", "lineup": "line-up", "seat": "seat", "seats": "seats", "games": "games",
          "decided": "decided", "wins": "wins", "win_rate": "win rate [95% CI]", "rate": "rate [95% CI]",
          "expected": "fair", "effect_pp": "vs fair", "p_value": "p", "p_holm": "p (Holm)",
          "chi2_p": "seats equal? p", "balance": "balance", "advantage_p1": "seat 1 rate", "timeouts": "timeouts",
          "timeout_rate": "turn cap [95% CI]", "policy": "policy", "opponent": "against", "faction": "faction",
          "team": "alliance", "outcome": "outcome", "n": "games", "elo": "rating [95% CI]", "metric": "measure",
          "estimate": "value [95% CI]", "value": "setting", "diff": "change [95% CI]", "diff_p": "p",
          "mean": "mean [95% CI]", "median": "median", "p10": "10%", "p25": "25%", "p75": "75%", "p90": "90%", "min": "min", "max": "max",
          "std": "sd", "event": "event", "games_with": "games with", "comparisons": "duels",
          "winner": "winner", "share": "share [95% CI]", "count": "count"}
#: columns dropped first when a table is wider than WIDTH (least useful first)
SHED = ["std", "p25", "p75", "p10", "p90", "min", "max", "decided", "timeouts", "wins", "timeout_rate",
        "games_to_detect_1pp", "p_value", "comparisons", "players", "lineup"]


def header(df: pd.DataFrame, rules_text: str, default_policy: str | None = None, swept: str | None = None) -> str:
    """Two lines: what was played (game, games, seed, seat order, the line-up in words: "random play
    in every seat" when it is) and the rules that differ from the published game."""
    a = df.attrs
    policies = [str(p) for p in a.get("policies", [])]
    players = len(policies)
    if policies and len(set(policies)) == 1:
        who = policies[0]
        lineup = "random play in every seat (random moves)" if who == "random" else f"{who} in every seat"
        if who == default_policy:
            lineup += ", the command-line default: choose with --policies, e.g. --policies greedy"
    else:
        lineup = "seats " + ", ".join(f"{i + 1} {p}" for i, p in enumerate(policies))
    order = {"rotate": "seats rotated over each deal", "random": "seats drawn at random",
             "fixed": "seats fixed"}.get(str(a.get("seat_order")), f"seat order {a.get('seat_order')}")
    first = (f"{a.get('game')} ({a.get('rules_version')}): {len(df):,} games, {players} players, {order}, "
             f"seed {a.get('seed')}")
    rules = f"rules: {rules_text}" if not swept else f"rules: {swept}"
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="    ", break_long_words=False,
                                    break_on_hyphens=False) for line in (first, f"line-up: {lineup}", rules))


def compact(table: pd.DataFrame, name: str = "") -> tuple[pd.DataFrame, list[str]]:
    """`table` as strings for people (see the module docstring), narrowed to WIDTH; returns it and
    the names of the columns left out for width."""
    df = table.reset_index(drop=True)
    out, used = {}, set()
    for col in df.columns:
        if col in HIDDEN or col in used:
            continue
        if (col in ("lineup", "players") or (col == "seats" and pd.api.types.is_numeric_dtype(df[col]))) and \
                df[col].nunique(dropna=False) <= 1:
            continue
        fam = next((f for f in INTERVALS if f[0] == col and f[1] in df and f[2] in df), None)
        if fam:
            value, low, high, kind = fam
            used.update((low, high))
            metrics = df["metric"].astype(str) if "metric" in df else pd.Series("", index=df.index)
            out[col] = [_interval(v, lo, hi, kind, m) for v, lo, hi, m in zip(df[value], df[low], df[high], metrics)]
        elif col in P_VALUES:
            out[col] = ["–" if pd.isna(p) else p_text(float(p))[2:].replace("= ", "") for p in df[col]]
        elif col == "effect_pp":
            out[col] = ["–" if pd.isna(v) else f"{float(v):+.1f} pts" for v in df[col]]
        elif col in RATES:
            out[col] = ["–" if pd.isna(v) else f"{100 * float(v):.1f}%" for v in df[col]]
        elif col == "seat":
            out[col] = [str(int(v) + 1) for v in df[col]]
        elif col == "seats" and not pd.api.types.is_numeric_dtype(df[col]):
            out[col] = [_seats(v) for v in df[col]]
        elif col == "metric":
            out[col] = [metric_words(v) for v in df[col]]
        elif pd.api.types.is_float_dtype(df[col]):
            out[col] = ["–" if pd.isna(v) else f"{float(v):,.4g}" for v in df[col]]
        elif pd.api.types.is_integer_dtype(df[col]):
            out[col] = [f"{int(v):,}" for v in df[col]]
        else:
            out[col] = ["–" if not isinstance(v, (list, tuple)) and pd.isna(v) else _plain(v) for v in df[col]]
    for col in used:
        out.pop(col, None)
    shown = pd.DataFrame(out)
    left_out = []
    for col in SHED:
        if _width(shown) <= WIDTH:
            break
        if col in shown.columns and len(shown.columns) > 2:
            shown = shown.drop(columns=col)
            left_out.append(label(col))
    return shown.rename(columns=label), left_out


def label(col: str) -> str:
    if col in LABELS:
        return LABELS[col]
    m = re.match(r"^games_to_detect_(.+)pp$", col)
    if m:
        return f"games for a {m.group(1)}-pt edge"
    return col.replace("_", " ")


def metric_words(metric) -> str:
    """'seat0_win_rate' -> 'seat 1 win rate'; 'turns' -> 'turns'."""
    m = re.match(r"^seat(\d+)_(.*)$", str(metric))
    if m:
        return f"seat {int(m.group(1)) + 1} {m.group(2).replace('_', ' ')}"
    return str(metric).replace("_", " ")


def text_table(shown: pd.DataFrame) -> str:
    """Left-aligned words, right-aligned numbers, two spaces between columns."""
    if not len(shown):
        return "(none)"
    cols = list(shown.columns)
    widths = [max(len(str(c)), *(len(str(v)) for v in shown[c])) for c in cols]
    numeric = [bool(shown[c].map(lambda v: bool(re.match(r"^[-+<–\d]", str(v)))).all()) for c in cols]

    def line(values):
        return "  ".join(str(v).rjust(w) if num else str(v).ljust(w)
                         for v, w, num in zip(values, widths, numeric)).rstrip()
    return "\n".join([line(cols)] + [line(r) for r in shown.itertuples(index=False)])


def tables_text(tables: dict) -> str:
    """Every non-empty table: a title line, the compact table, and what was left out for width."""
    blocks = []
    for name, table in tables.items():
        if not len(table):
            continue
        shown, left_out = compact(table, name)
        more = f"\n(not shown for width: {', '.join(left_out)}; --format csv gives every column)" if left_out else ""
        blocks.append(f"{TITLES.get(name, name.replace('_', ' '))}\n{text_table(shown)}{more}")
    return "\n\n".join(blocks)


TITLES = {"summary": "Summary", "seats": "Win rate by seat (seat 1 plays first)", "events": "Game events",
          "outcomes": "Outcomes", "by_seat": "Win rate by seat (seat 1 plays first)", "by_policy": "Win rate by policy",
          "by_faction": "Win rate by faction", "matrix": "Two-player duels: the row policy against the other",
          "ratings": "Policy ratings (Bradley–Terry, Elo scale)", "effects": "Each measure per setting, "
          "changes paired against the first setting", "by_winner": "Game length by winning seat"}


def full_frame(tables: dict) -> pd.DataFrame:
    """Every table in one frame with a `table` column (for --format csv/parquet), the API's columns."""
    parts = [t.assign(table=name) for name, t in tables.items() if len(t)]
    frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["table"])
    return frame[["table"] + [c for c in frame.columns if c != "table"]]


def write_frames(tables: dict, fmt: str, out=None) -> str | None:
    """The full frames as csv, json or parquet: written to `out` (parquet needs it), else returned as text."""
    if fmt == "json":
        text = json.dumps({name: json.loads(t.to_json(orient="records")) for name, t in tables.items()}, indent=1)
    elif fmt == "csv":
        buf = io.StringIO()
        full_frame(tables).to_csv(buf, index=False)
        text = buf.getvalue()
    elif fmt == "parquet":
        if out is None:
            raise ValueError("--format parquet needs --out FILE (parquet is not text)")
        frame = full_frame(tables)
        for c in frame.columns:
            if frame[c].dtype == object:
                frame[c] = frame[c].map(lambda v: None if v is None or (isinstance(v, float) and pd.isna(v)) else str(v))
        frame.to_parquet(out, index=False)
        return None
    else:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if out is not None:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
        return None
    return text


def _interval(v, low, high, kind: str, metric: str) -> str:
    if v is None or pd.isna(v):
        return "–"
    rate = kind == "rate" or (kind in ("metric", "diff") and str(metric).endswith("_rate"))
    if rate and kind == "diff":
        text, lo, hi = f"{100 * v:+.1f} pts", f"{100 * low:+.1f}", f"{100 * high:+.1f}"
    elif rate:
        text, lo, hi = f"{100 * v:.1f}%", f"{100 * low:.1f}", f"{100 * high:.1f}"
    elif kind == "diff":
        text, lo, hi = f"{v:+.3g}", f"{low:+.3g}", f"{high:+.3g}"
    else:
        text, lo, hi = f"{v:.3g}", f"{low:.3g}", f"{high:.3g}"
    return text if pd.isna(low) or pd.isna(high) else f"{text} [{lo}, {hi}]"


def _seats(v) -> str:
    parts = str(v).split("+")
    return "+".join(str(int(p) + 1) for p in parts) if all(p.strip().isdigit() for p in parts) else str(v)


def _plain(v) -> str:
    if isinstance(v, (list, tuple)):
        return ", ".join(map(str, v))
    seat = re.match(r"^seat (\d+)$", str(v))           # a winner stored as 'seat 0': seats from 1 for people
    return f"seat {int(seat.group(1)) + 1}" if seat else str(v).replace("_", " ")


def _width(shown: pd.DataFrame) -> int:
    if not len(shown.columns):
        return 0
    widths = [max(len(label(c)), *(len(str(x)) for x in shown[c])) if len(shown) else len(label(c))
              for c in shown.columns]
    return sum(widths) + 2 * (len(widths) - 1)
