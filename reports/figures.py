"""Matplotlib figures for the report, each returned as an inline PNG data URI.

Every function draws from a DataFrame the analyses computed; none of them computes a
statistic. Rates are drawn with their interval as error bars and the fair share as a line.
Figures are built on `matplotlib.figure.Figure` directly, so importing this module never
switches the matplotlib backend (a notebook keeps its inline plots).
"""
from __future__ import annotations

import base64
import io
import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, MultipleLocator, PercentFormatter

COLOR = "#3b6ea8"
ACCENT = "#c0504d"
DPI = 110


def to_data_uri(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def words(label) -> str:
    """A column or policy name as words ('storm_elemental' -> 'storm elemental')."""
    return str(label).replace("_", " ")


def _errors(table: pd.DataFrame, rate: str, low: str, high: str, scale: float = 1.0) -> np.ndarray:
    r = table[rate].to_numpy(float)
    return scale * np.vstack([r - table[low].to_numpy(float), table[high].to_numpy(float) - r]).clip(min=0)


def _wrap(label, width: int) -> str:
    """A label as words on lines of about `width` characters, never splitting a word."""
    return textwrap.fill(words(label), width, break_long_words=False, break_on_hyphens=False)


def _clean(ax) -> None:
    ax.spines[["top", "right"]].set_visible(False)


def rate_bars(table: pd.DataFrame, label: str, title: str, rate="win_rate", low="ci_low", high="ci_high",
              expected: str | None = "expected", ylabel="win rate") -> str:
    """Bars of a rate per row (in %) with the interval as error bars, n under each bar, and the
    fair share as a dashed line; the legend sits outside the plot."""
    fig = Figure(figsize=(max(5.6, 1.0 * len(table) + 1.6), 3.0))
    ax = fig.subplots()
    x = np.arange(len(table))
    ax.bar(x, 100 * table[rate], color=COLOR, yerr=_errors(table, rate, low, high, 100), capsize=4, ecolor="black",
           label="win rate, 95% interval")
    if expected and expected in table:
        for i, e in enumerate(table[expected]):
            ax.hlines(100 * e, i - 0.4, i + 0.4, colors=ACCENT, linestyles="--", label="fair share" if i == 0 else None)
    n = table["games"] if "games" in table else None
    names = [_wrap(v, 11) for v in table[label]]
    ticks = [f"{name}\nn={int(k):,}" for name, k in zip(names, n)] if n is not None else names
    ax.set_xticks(x, ticks, fontsize=8)
    ax.set_ylabel(f"{ylabel} (%)")
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_title(title, fontsize=10)
    ax.set_ylim(0, min(100, max(5.0, 100 * float(np.nanmax(table[high]))) * 1.15))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    _clean(ax)
    return to_data_uri(fig)


def heatmap(matrix: pd.DataFrame, title: str, value="win_rate", xlabel="opponent", ylabel="policy",
            count: str | None = "games", percent: bool = True) -> str:
    """Row × column heat map of a rate, each cell labelled with its value and (when `count` is
    a column) the games it rests on."""
    pivot = matrix.pivot_table(index="policy", columns="opponent", values=value, observed=True, aggfunc="first")
    counts = (matrix.pivot_table(index="policy", columns="opponent", values=count, observed=True, aggfunc="first")
              .reindex(index=pivot.index, columns=pivot.columns) if count and count in matrix else None)
    size = max(len(pivot.columns), len(pivot.index))
    fig = Figure(figsize=(1.1 * size + 2.4, 0.8 * size + 1.8))
    ax = fig.subplots()
    im = ax.imshow(pivot.to_numpy(float), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(pivot.columns)), [_wrap(c, 10) for c in pivot.columns], fontsize=8)
    ax.set_yticks(range(len(pivot.index)), [words(i) for i in pivot.index], fontsize=8)
    for i in range(pivot.shape[0]):
        for j in range(pivot.shape[1]):
            v = pivot.iat[i, j]
            if np.isnan(v):
                continue
            text = f"{100 * v:.0f}%" if percent else f"{v:.2f}"
            if counts is not None and not np.isnan(counts.iat[i, j]):
                text += f"\nn={int(counts.iat[i, j])}"
            ax.text(j, i, text, ha="center", va="center", fontsize=7,
                    color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    bar.ax.yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=0))
    return to_data_uri(fig)


def histogram_bulk(values) -> tuple[int, int]:
    """(upper edge of the drawn bulk: the 99th percentile rounded down to a whole turn, number of
    games beyond it)."""
    v = np.asarray(values, dtype=float)
    if not len(v):
        return 0, 0
    edge = int(np.floor(np.percentile(v, 99)))
    return edge, int((v > edge).sum())


def step(values) -> int:
    """The step whole-number counts come in (4 when every game lasts a multiple of 4 turns, as when a
    game ends only after a full round of 4 turns); 1 otherwise."""
    v = np.asarray(values, dtype=float)
    if not len(v) or not np.all(v == np.round(v)):
        return 1
    return max(1, int(np.gcd.reduce(np.abs(v).astype(np.int64))))


def histogram(values: pd.Series, title: str, xlabel: str = "turns") -> str:
    """Histogram of the bulk (up to the 99th percentile); the longer tail is counted in the legend.
    Whole-number counts get one bar per value they can take (a game that ends only after full rounds
    of 4 turns: one bar per 4 turns, as wide as its step), and whole-number ticks."""
    fig = Figure(figsize=(5.6, 3.0))
    ax = fig.subplots()
    v = np.asarray(values, dtype=float)
    edge, tail = histogram_bulk(v)
    bulk = v[v <= edge]
    k = step(v)
    low = bulk.min() if len(bulk) else 0
    span = max(1.0, edge - low)
    bins = (np.arange(low, edge + k + 1, k) - k / 2 if span / k <= 60
            else min(40, max(5, int(np.sqrt(len(v))))))
    ax.hist(bulk, bins=bins, color=COLOR, edgecolor="white", label=f"{len(bulk):,} games")
    ax.axvline(np.median(v), color=ACCENT, linestyle="--", label=f"median {np.median(v):g}")
    if tail:
        unit = xlabel.split(" (")[0]
        ax.plot([], [], " ", label=f"{tail:,} longer games (over {edge:,} {unit}) not drawn;\n"
                                   f"the longest: {v.max():,.0f} {unit}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 4, 5, 10]) if k == 1 else
                               MultipleLocator(k * max(1, int(np.ceil(span / k / 8)))))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=10)
    _clean(ax)
    return to_data_uri(fig)


def sweep_lines(lines: pd.DataFrame, turns: pd.DataFrame, field: str, title: str, ylabel: str) -> str:
    """Left: one line per group (`group`, `value`, `y`, `low`, `high`, in points or %); right: mean
    turns per value. Integer values of `field` get integer ticks; the legend sits outside."""
    fig = Figure(figsize=(9.0, 3.1))
    ax1, ax2 = fig.subplots(1, 2)
    lines = lines.assign(value=lines["value"].astype(str))
    turns = turns.assign(value=turns["value"].astype(str)) if len(turns) else turns
    values = sorted(set(lines["value"]) | set(turns["value"] if len(turns) else []), key=_order)
    position = {v: i for i, v in enumerate(values)}
    groups = list(dict.fromkeys(lines["group"]))
    for k, group in enumerate(groups):
        rows = lines[lines["group"] == group]
        x = np.array([position[v] for v in rows["value"]], dtype=float) + dodge(k, len(groups))
        y = rows["y"].to_numpy(float)
        err = np.vstack([y - rows["low"].to_numpy(float), rows["high"].to_numpy(float) - y]).clip(min=0)
        ax1.errorbar(x, y, yerr=err, marker="o", capsize=3, label=words(group))
    ax1.axhline(0 if "points" in ylabel else 50, color="grey", lw=0.8)
    ax1.set_ylabel(ylabel)
    if len(turns):
        x = [position[v] for v in turns["value"]]
        y = turns["estimate"].to_numpy(float)
        err = np.vstack([y - turns["ci_low"].to_numpy(float), turns["ci_high"].to_numpy(float) - y]).clip(min=0)
        ax2.errorbar(x, y, yerr=err, marker="o", capsize=3, color=COLOR)
        ax2.set_ylabel("mean turns per game")
    for ax in (ax1, ax2):
        ax.set_xticks(range(len(values)), [str(v) for v in values])
        ax.set_xlim(-0.5, len(values) - 0.5)
        ax.set_xlabel(words(field))
        _clean(ax)
    handles, labels = ax1.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(0.99, 0.9), fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.subplots_adjust(wspace=0.3)
    return to_data_uri(fig)


DODGE = 0.5   # the width (in setting steps) the markers of one setting are spread over


def dodge(k: int, groups: int) -> float:
    """The x offset of group k of `groups` at one setting, so markers (and their intervals) of
    different groups sit side by side instead of on top of each other."""
    return 0.0 if groups < 2 else DODGE * (k / (groups - 1) - 0.5)


def _order(value):
    try:
        return (0, float(value), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(value))


def impact_bars(impact: pd.DataFrame, title: str) -> str:
    """Horizontal bars of every row: win-rate difference (points) with vs without each stat."""
    labels = [f"{words(s)} ({split_label(sp)})" for s, sp in zip(impact["stat"], impact["split"])]
    return _difference_bars(impact, labels, "win rate with − without (percentage points)", title)


def opening_bars(table: pd.DataFrame, title: str) -> str:
    """Horizontal bars of every row: win-rate difference (points) with − without each card group in the
    opening hand, with its interval."""
    labels = [str(item) for item in table["item"]]
    return _difference_bars(table, labels, "win rate, dealt − not dealt (percentage points)", title)


def _difference_bars(table: pd.DataFrame, labels: list, xlabel: str, title: str) -> str:
    """One bar per row (the first at the top): ``diff_pp`` with its ``diff_low``..``diff_high`` interval."""
    rows = table.iloc[::-1]
    fig = Figure(figsize=(6.6, 0.3 * len(rows) + 1.3))
    ax = fig.subplots()
    y = np.arange(len(rows))
    d = rows["diff_pp"].to_numpy(float)
    err = np.vstack([d - rows["diff_low"].to_numpy(float), rows["diff_high"].to_numpy(float) - d]).clip(min=0)
    ax.barh(y, d, xerr=err, color=[COLOR if v >= 0 else ACCENT for v in d], capsize=3)
    ax.set_yticks(y, labels[::-1], fontsize=8)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    _clean(ax)
    return to_data_uri(fig)


def split_label(split) -> str:
    """'> 0' -> '> 0'; '> 4 (median)' -> '> 4, the median' (no nested brackets in a label)."""
    text = str(split).strip()
    return text.replace(" (median)", ", the median")


def hits_per_gold(efficiency: pd.DataFrame, title: str) -> str:
    """Grouped bars: expected hits per gold on attack and on defence, and hits absorbed per gold."""
    table = efficiency.set_index("unit") if "unit" in efficiency else efficiency
    cols = [("attack_hits_per_gold", "hits per gold, attack"), ("defence_hits_per_gold", "hits per gold, defence"),
            ("hits_absorbed_per_gold", "hits absorbed per gold")]
    fig = Figure(figsize=(7.6, 3.0))
    ax = fig.subplots()
    x = np.arange(len(table))
    for k, (col, label) in enumerate(cols):
        ax.bar(x + (k - 1) * 0.27, table[col].fillna(0).to_numpy(float), width=0.27, label=label)
    ax.set_xticks(x, [_wrap(u, 10) for u in table.index], fontsize=8)
    ax.set_ylabel("per gold")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_title(title, fontsize=10)
    _clean(ax)
    return to_data_uri(fig)


def pivot_heatmap(pivot: pd.DataFrame, title: str, xlabel: str, ylabel: str) -> str:
    """Heat map of a ready pivot table (first column = row labels) of probabilities (exact: no n)."""
    table = pivot.set_index(pivot.columns[0])
    long = table.stack().rename("value").reset_index().set_axis(["policy", "opponent", "value"], axis=1)
    return heatmap(long, title, value="value", xlabel=xlabel, ylabel=ylabel, count=None)
