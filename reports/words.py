"""Plain words for the report: column headers, number formats, the glossary.

`present(df)` turns an analysis table into a table a designer can read: rates as percentages
with their interval in one cell ("20.9% [19.5, 22.4]"), p-values as "< 0.001", effects as
signed points, counts with thousands separators, headers in words, and columns that carry no
information here (a constant line-up, one seat per policy) left out. It formats; it never
computes a statistic.
"""
from __future__ import annotations

import ast
import math
import re

import pandas as pd

from analyses.findings import p_text

#: (value column, low column, high column, kind): an estimate and its 95% interval, shown in one cell
INTERVALS = [
    ("win_rate", "ci_low", "ci_high", "rate"), ("rate", "ci_low", "ci_high", "rate"),
    ("estimate", "ci_low", "ci_high", "metric"), ("mean", "ci_low", "ci_high", "number"),
    ("diff", "diff_ci_low", "diff_ci_high", "metric_diff"),
    ("timeout_rate", "timeout_ci_low", "timeout_ci_high", "rate"),
    ("win_with", "with_low", "with_high", "rate"), ("win_without", "without_low", "without_high", "rate"),
    ("diff_pp", "diff_low", "diff_high", "points"),
    ("share_winners", "winners_low", "winners_high", "rate"), ("share_losers", "losers_low", "losers_high", "rate"),
    ("before", "before_low", "before_high", "rate"), ("after", "after_low", "after_high", "rate"),
    ("elo", "elo_low", "elo_high", "number"),
]
RATES = {"expected", "advantage_p1", "balance", "p_hit", "win", "draw", "loss", "attacker_wins", "defender_wins",
         "equal_gold_win_smallest", "equal_gold_win_largest", "share"}
POINTS = {"effect_pp"}
P_VALUES = {"p_value", "chi2_p", "diff_p", "p_holm", "p_adjusted", "p_family"}
#: left out of every table: internal or redundant with another column (`p_holm`, adjusted within one table,
#: gives way to `p_family`, adjusted over the game's whole family, so no number shows two adjusted p-values)
DROP = {"log_strength", "strength", "se", "pseudo_wins", "trigger", "field", "value_raw", "se_model", "method",
        "p_holm"}

LABELS = {
    "players": "players", "lineup": "line-up", "seat": "seat", "seats": "seats per game", "games": "games",
    "decided": "games with a winner", "wins": "wins", "win_rate": "win rate [95% interval]",
    "rate": "share [95% interval]", "expected": "fair share", "effect_pp": "difference from fair share",
    "p_value": "p-value (unadjusted)", "p_holm": "p-value (Holm-adjusted within the table)",
    "p_family": "p-value (adjusted over this game's tests)", "test": "test", "deals": "deals",
    "design_effect": "design effect", "diff_design_effect": "design effect of the difference",
    "chi2_df": "χ² degrees of freedom", "chi2": "χ² statistic", "chi2_p": "all seats equal? p-value (unadjusted)",
    "balance": "balance (100% = all seats equal)", "advantage_p1": "first seat's win rate",
    "timeouts": "games that hit the turn cap", "timeout_rate": "turn-cap rate [95% interval]",
    "policy": "policy", "opponent": "against", "faction": "realm", "team": "alliance", "outcome": "outcome",
    "n": "games", "count": "games", "comparisons": "comparisons", "elo": "rating (Elo scale) [95% interval]",
    "metric": "measure", "estimate": "value [95% interval]", "value": "setting",
    "diff": "change from the first setting [95% interval]", "diff_p": "p-value of the change (unadjusted, paired t test)",
    "stat": "card, ability or event", "split": "seats counted as “with”", "n_with": "seats with",
    "win_with": "win rate with [95% interval]", "n_without": "seats without",
    "win_without": "win rate without [95% interval]", "diff_pp": "difference (points) [95% interval]",
    "mean": "mean [95% interval]", "std": "standard deviation", "min": "shortest", "p10": "10th percentile",
    "p25": "25th percentile", "median": "median", "p75": "75th percentile", "p90": "90th percentile", "max": "longest",
    "n_winners": "winning seats", "share_winners": "share of gold, winners [95% interval]",
    "n_losers": "losing seats", "share_losers": "share of gold, losers [95% interval]",
    "unit": "unit", "cost": "price (gold)", "die": "die", "p_hit": "chance to hit", "hits_to_kill": "hits to kill",
    "first_strike": "strikes first", "change": "rule change", "measure": "measured",
    "closer": "closer to the fair share?", "before": "before [95% interval]", "after": "after [95% interval]", "event": "event", "games_with": "games with it",
    "total": "total", "army": "army", "rank": "rank", "win": "wins the battle", "draw": "draw", "loss": "loses",
    "gold_lost": "gold lost (expected)", "gold_swing": "gold swing in its favour (expected)",
    "break_even_attack": "break-even price on attack", "attack_value_ratio": "worth / price, attack",
    "break_even_defence": "break-even price on defence", "defence_value_ratio": "worth / price, defence",
    "alpha": "scaling exponent", "K": "scale factor", "rmse": "fit error (RMSE)", "battles": "battles fitted",
    "equal_gold_win_smallest": "win at equal gold, smallest armies", "n_smallest": "units (smallest)",
    "equal_gold_win_largest": "win at equal gold, largest armies", "n_largest": "units (largest)",
    "id": "id", "gap": "what the rules leave open", "decision": "decision taken", "warning": "⚠",
}

#: what one counted turn is, per game (the x axis of game length, the sweep's mean turns)
TURN_WORDS = {
    "nightsim": ("one player's turn", "one turn = one player's turn"),
    "dreamsim": ("one player's turn", "one turn = one player's turn"),
    "nerathsim": ("one realm's turn (its six phases; every realm plays once a round)",
                  "one turn = one realm's turn; 4 realms = 1 round"),
}


def turn_words(game: str) -> tuple[str, str]:
    """(a turn in words for a caption, the axis label's short form) of `game`."""
    return TURN_WORDS.get(game, ("one player's turn", "one turn = one player's turn"))


GLOSSARY = [
    ("win rate", "The share of decided games (someone won) that a seat, policy, alliance or realm won."),
    ("fair share", "The win rate every seat would have if the game were balanced: 1 in 4 at four players, "
                   "1 in 2 for two alliances."),
    ("95% interval", "The range that holds the true rate with 95% confidence, given the number of games "
                     "(Wilson interval for rates, t interval for means)."),
    ("points", "Percentage points: 20% against a fair 25% is 5 points short."),
    ("p-value", "How often a difference at least this large would appear by chance if there were none; "
                "below 0.05 we call it significant. Shown as “< 0.001” when tiny."),
    ("n", "The number of games (or seats) a number rests on; below 30 it is flagged ⚠."),
    ("policy", "A computer player: a fixed way of choosing moves (its settings are listed under Methodology)."),
    ("mixed table", "Games with one seat per policy, seats rotated so every policy sits in every seat."),
    ("duel", "A two-player game of one policy against another."),
    ("rating (Elo scale)", "One strength number per policy fitted to all duels (Bradley–Terry model); "
                           "100 points apart means the stronger wins about 64% of their games."),
    ("alliance", "Conquest of Nerath's teams: Karkoth with the Iron Circle, Vailin with Nerath; partners win together."),
    ("association, not cause", "Seats that did something more often also won more often; "
                               "this does not show that doing it made them win."),
    ("outcome", "A statistic that is the win condition or progress towards it (completed creatures, "
                "activations, victory points): it rises with winning and is listed apart, not as an impact."),
    ("turn", "One player's turn (in Conquest of Nerath one realm's turn: every realm plays once a round, "
             "and a game ends only after a full round). Game length is counted in turns."),
    ("turn cap", "A safety limit on game length; a game reaching it ends without a winner (a timeout)."),
    ("paired games", "Two rule variants played with the same seeds (same shuffles and dice), so the difference "
                     "between them is measured game by game."),
    ("exact", "Computed from the probabilities of every dice roll, not sampled: no interval is needed."),
]


def label(column) -> str:
    """The column header in words."""
    name = str(column)
    if name in LABELS:
        return LABELS[name]
    m = re.match(r"^(.*)_win_rate$", name)
    if m:
        return f"{m.group(1).replace('+', ' + ').replace('_', ' ')} win rate"
    return name.replace("_", " ")


def _num(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) >= 1):
        return f"{int(v):,}"
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:,.0f}"
    return str(v)


MIN_GAMES = 30   # an interval from fewer games is marked (analyses.checks flags the same numbers)
FEW = " ⚠ few games"


def plain_value(v) -> str:
    """A value as text a person reads: a tuple or list (or its Python text, "('a', 'b')") as 'a, b',
    None as 'none', true/false as 'yes'/'no'; never a raw Python literal."""
    if isinstance(v, str) and v[:1] in "([{" and v[-1:] in ")]}":
        try:
            v = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            return v
    if isinstance(v, dict):
        inner = any(isinstance(x, dict) for x in v.values())
        return ("; " if inner else ", ").join(f"{str(k).replace('_', ' ')}{': ' if inner else ' '}{plain_value(x)}"
                                            for k, x in v.items()) or "none"
    if isinstance(v, (tuple, list)):
        return ", ".join(plain_value(x) for x in v) or "none"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def seats_text(v) -> str:
    """An alliance's seats, stored from 0 ('0+2'), numbered from 1 for people: 'seats 1 + 3'."""
    parts = str(v).split("+")
    if all(p.strip().isdigit() for p in parts):
        return " + ".join(str(int(p) + 1) for p in parts)
    return str(v)


_SEAT_NUMBER = re.compile(r"\b([Ss]eats?) (\d+(?:\s*(?:,|\+|and|or)\s*\d+)*)\b(?!\s*(?:players|cards|games))")


def people_seats(text: str) -> str:
    """Text written for the code (seats numbered from 0: 'Seat 0 starts', 'seats 0 and 2') with seats
    numbered from 1 as the report numbers them ('Seat 1 starts', 'seats 1 and 3')."""
    return _SEAT_NUMBER.sub(lambda m: m.group(1) + " " + re.sub(r"\d+", lambda d: str(int(d.group(0)) + 1),
                                                                m.group(2)), str(text))


def percent(v) -> str:
    return "–" if v is None or pd.isna(v) else f"{100 * float(v):.1f}%"


def interval_cell(v, low, high, kind: str, metric: str = "", n=None) -> str:
    """An estimate and its 95% interval in one cell; an interval from fewer than 30 games (`n`) is
    marked "⚠ few games"."""
    if v is None or pd.isna(v):
        return "–"
    few = FEW if n is not None and pd.notna(n) and float(n) < MIN_GAMES and not (pd.isna(low) or pd.isna(high)) else ""
    return _interval_text(v, low, high, kind, metric) + few


def _interval_text(v, low, high, kind: str, metric: str) -> str:
    is_rate = kind in ("rate", "share") or (kind.startswith("metric") and metric.endswith("_rate"))
    if kind == "points":
        text, lo, hi = f"{float(v):+.1f}", f"{float(low):+.1f}", f"{float(high):+.1f}"
    elif is_rate and kind == "metric_diff":
        text, lo, hi = f"{100 * float(v):+.1f} pts", f"{100 * float(low):+.1f}", f"{100 * float(high):+.1f}"
    elif is_rate:
        text, lo, hi = percent(v), f"{100 * float(low):.1f}", f"{100 * float(high):.1f}"
    else:
        text, lo, hi = f"{float(v):.3g}", f"{float(low):.3g}", f"{float(high):.3g}"
    if pd.isna(low) or pd.isna(high):
        return text
    return f"{text} [{lo}, {hi}]"


def present(df: pd.DataFrame, keep=()) -> pd.DataFrame:
    """`df` as strings in plain words (see the module docstring). `keep`: columns never dropped."""
    if not len(df):
        return df
    df = df.copy()
    out = {}
    used = set()
    columns = list(df.columns)
    counts = next((df[c] for c in ("games", "n", "decided") if c in df.columns and pd.api.types.is_numeric_dtype(df[c])),
                  pd.Series(None, index=df.index, dtype=object))
    for col in columns:
        if col in DROP or col in used:
            continue
        if col not in keep and _uninformative(df, col):
            continue
        fam = next((f for f in INTERVALS if f[0] == col and f[1] in df.columns and f[2] in df.columns), None)
        if fam:
            value, low, high, kind = fam
            used.update((low, high))
            metrics = df["metric"].astype(str) if "metric" in df.columns else pd.Series("", index=df.index)
            sizes = df[_count_column(df, col)] if _count_column(df, col) else counts
            out[label(col)] = [interval_cell(v, lo, hi, kind, m, k) for v, lo, hi, m, k in
                               zip(df[value], df[low], df[high], metrics, sizes)]
        elif col in P_VALUES:
            out[label(col)] = [("–" if pd.isna(p) else p_text(float(p))[2:].replace("= ", "")) for p in df[col]]
        elif col in POINTS:
            out[label(col)] = ["–" if pd.isna(v) else f"{float(v):+.1f} points" for v in df[col]]
        elif col in RATES or col.endswith("_rate"):
            out[label(col)] = [percent(v) for v in df[col]]
        elif pd.api.types.is_bool_dtype(df[col]):
            out[label(col)] = ["yes" if v else "no" for v in df[col]]
        elif col == "seat":
            out[label(col)] = [f"{int(v) + 1}" for v in df[col]]
        elif col == "seats" and not pd.api.types.is_numeric_dtype(df[col]):
            out["seats (1 = first to play)"] = [seats_text(v) for v in df[col]]
        elif pd.api.types.is_numeric_dtype(df[col]):
            out[label(col)] = [_num(v.item() if hasattr(v, "item") else v) for v in df[col]]
        else:
            out[label(col)] = [plain_value(v).replace("_", " ") if _present(v) else "–" for v in df[col]]
    for col in used:
        out.pop(label(col), None)
    return pd.DataFrame(out)


def _present(v) -> bool:
    return isinstance(v, (tuple, list)) or pd.notna(v)


#: the games an interval column rests on, where it is not the table's "games" column
COUNT_OF = {"win_with": "n_with", "win_without": "n_without", "share_winners": "n_winners",
            "share_losers": "n_losers"}


def _count_column(df: pd.DataFrame, col: str) -> str | None:
    name = COUNT_OF.get(col)
    return name if name in df.columns else None


def _uninformative(df: pd.DataFrame, col: str) -> bool:
    """A column that says nothing here: a constant line-up or players count, one seat per policy."""
    values = df[col]
    if col in ("lineup", "players", "seats") and values.nunique(dropna=False) == 1:
        return True
    return bool(values.isna().all())


def policy_parameters(text: str) -> str:
    """'WarPolicy(name='balanced', attack_threshold=0.6, ...)' -> 'attack threshold 0.6, ...'; nested
    settings in words too ("Purchase(weights=(('footsoldier', 4.0),))" -> 'purchase: weights footsoldier 4'),
    never a raw Python tuple."""
    m = re.match(r"^\s*\w+\((.*)\)\s*$", str(text), re.S)
    body = m.group(1) if m else str(text)
    body = re.sub(r"name='[^']*',?\s*", "", body)
    body = re.sub(r"\('([^']*)', ([^()]*?)\)", lambda p: f"{p.group(1)} {_number(p.group(2))}", body)
    body = re.sub(r"\b[A-Z]\w*\(", "(", body)                     # nested class names
    body = re.sub(r"(\w+)=", lambda k: k.group(1).replace("_", " ") + " ", body)
    body = body.replace("'", "").replace("True", "yes").replace("False", "no").replace("_", " ")
    body = re.sub(r"\(\(([^()]*)\)\)", r"(\1)", body)
    return body.strip().rstrip(",") or "no parameters"


def _number(text: str) -> str:
    try:
        return f"{float(text):g}"
    except ValueError:
        return text
