"""Matplotlib figures for the report, each returned as an inline PNG data URI.

Every function draws from a DataFrame the analyses computed; none of them computes a
statistic. Rates are drawn with their interval as error bars and the fair share as a line.
"""
from __future__ import annotations

import base64
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

COLOR = "#3b6ea8"
ACCENT = "#c0504d"
DPI = 110


def to_data_uri(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _errors(table: pd.DataFrame, rate: str, low: str, high: str) -> np.ndarray:
    r = table[rate].to_numpy(float)
    return np.vstack([r - table[low].to_numpy(float), table[high].to_numpy(float) - r]).clip(min=0)


def rate_bars(table: pd.DataFrame, label: str, title: str, rate="win_rate", low="ci_low", high="ci_high",
              expected: str | None = "expected", ylabel="win rate") -> str:
    """Bars of a rate per row with the interval as error bars and the fair share as a line."""
    fig, ax = plt.subplots(figsize=(5.2, 3.0))
    x = np.arange(len(table))
    ax.bar(x, table[rate], color=COLOR, yerr=_errors(table, rate, low, high), capsize=4, ecolor="black")
    if expected and expected in table:
        for i, e in enumerate(table[expected]):
            ax.hlines(e, i - 0.4, i + 0.4, colors=ACCENT, linestyles="--", label="fair share" if i == 0 else None)
        ax.legend(loc="upper right", fontsize=8, frameon=False)
    ax.set_xticks(x, [str(v) for v in table[label]], rotation=0 if len(table) < 6 else 30)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.set_ylim(0, max(0.05, float(np.nanmax(table[high]))) * 1.15)
    ax.spines[["top", "right"]].set_visible(False)
    return to_data_uri(fig)


def heatmap(matrix: pd.DataFrame, title: str, value="win_rate", xlabel="opponent", ylabel="policy") -> str:
    """Policy × opponent heat map of a win rate (row policy's rate against the column policy)."""
    pivot = matrix.pivot_table(index="policy", columns="opponent", values=value, observed=True)
    fig, ax = plt.subplots(figsize=(4.8, 3.8))
    im = ax.imshow(pivot.to_numpy(float), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(pivot.columns)), pivot.columns, rotation=30)
    ax.set_yticks(range(len(pivot.index)), pivot.index)
    for i in range(pivot.shape[0]):
        for j in range(pivot.shape[1]):
            v = pivot.iat[i, j]
            if not np.isnan(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return to_data_uri(fig)


def histogram(values: pd.Series, title: str, xlabel: str = "turns") -> str:
    fig, ax = plt.subplots(figsize=(5.2, 3.0))
    v = np.asarray(values, dtype=float)
    bins = min(40, max(5, int(np.sqrt(len(v)))))
    ax.hist(v, bins=bins, color=COLOR, edgecolor="white")
    ax.axvline(np.median(v), color=ACCENT, linestyle="--", label=f"median {np.median(v):g}")
    ax.legend(fontsize=8, frameon=False)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    return to_data_uri(fig)


def sweep_lines(seats: pd.DataFrame, effects: pd.DataFrame, field: str, title: str) -> str:
    """Left: seat win rates minus the fair share per value of `field`; right: mean turns."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.4, 3.0))
    if len(seats):
        for seat, rows in seats.groupby("seat"):
            rows = rows.sort_values("players")
            y = 100 * (rows["win_rate"] - rows["expected"])
            err = 100 * _errors(rows, "win_rate", "ci_low", "ci_high")
            ax1.errorbar(rows["players"] + 0.05 * seat, y, yerr=err, marker="o", capsize=3, label=f"seat {seat}")
        ax1.axhline(0, color="grey", lw=0.8)
        ax1.set_xlabel("players")
        ax1.set_ylabel("win rate − fair share (points)")
        ax1.legend(fontsize=7, frameon=False, ncol=2)
    turns = effects[effects["metric"] == "turns"] if len(effects) else effects
    if len(turns):
        x = [str(v) for v in turns["value"]]
        y = turns["estimate"].to_numpy(float)
        err = np.vstack([y - turns["ci_low"].to_numpy(float), turns["ci_high"].to_numpy(float) - y]).clip(min=0)
        ax2.errorbar(x, y, yerr=err, marker="o", capsize=3, color=COLOR)
        ax2.set_xlabel(field)
        ax2.set_ylabel("mean turns")
    for ax in (ax1, ax2):
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(title, fontsize=10)
    return to_data_uri(fig)


def impact_bars(impact: pd.DataFrame, title: str, top: int = 14) -> str:
    """Horizontal bars: win-rate difference (points) with vs without each stat, with interval."""
    table = impact.head(top).iloc[::-1]
    fig, ax = plt.subplots(figsize=(6.4, 0.32 * len(table) + 1.2))
    y = np.arange(len(table))
    d = table["diff_pp"].to_numpy(float)
    err = np.vstack([d - table["diff_low"].to_numpy(float), table["diff_high"].to_numpy(float) - d]).clip(min=0)
    ax.barh(y, d, xerr=err, color=[COLOR if v >= 0 else ACCENT for v in d], capsize=3)
    ax.set_yticks(y, [f"{s} ({sp})" for s, sp in zip(table["stat"], table["split"])], fontsize=8)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("win rate with − without (points)")
    ax.set_title(title, fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    return to_data_uri(fig)


def hits_per_gold(efficiency: pd.DataFrame, title: str) -> str:
    """Grouped bars: expected hits per gold on attack and on defence, and hits absorbed per gold."""
    table = efficiency.set_index("unit") if "unit" in efficiency else efficiency
    cols = [("attack_hits_per_gold", "attack"), ("defence_hits_per_gold", "defence"),
            ("hits_absorbed_per_gold", "hits absorbed")]
    fig, ax = plt.subplots(figsize=(7.2, 3.0))
    x = np.arange(len(table))
    for k, (col, label) in enumerate(cols):
        ax.bar(x + (k - 1) * 0.27, table[col].fillna(0).to_numpy(float), width=0.27, label=label)
    ax.set_xticks(x, table.index, rotation=30)
    ax.set_ylabel("per gold")
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title, fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    return to_data_uri(fig)


def pivot_heatmap(pivot: pd.DataFrame, title: str, xlabel: str, ylabel: str) -> str:
    """Heat map of a ready pivot table (first column = row labels) of probabilities."""
    table = pivot.set_index(pivot.columns[0])
    return heatmap(table.stack().rename("value").reset_index().set_axis(["policy", "opponent", "value"], axis=1),
                   title, value="value", xlabel=xlabel, ylabel=ylabel)
