"""Claims measured again and put in order: a selected finding (adjusted p-value below ALPHA on the
discovery run) is re-measured on the fresh confirmation run (`confirm`), and a game's findings are
sorted significant first, then by the size of the effect (`sort_findings`), a confirmed rule change
right after the imbalance it fixes (`_confirmed_first`).
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd

from .findings_format import ALPHA, CONFIRMED_STATUS, KINDS, NO_CONFIRMATION, NOT_CONFIRMED, ci, n_, pct, pts, words
from .multiplicity import adjust, p_text

#: per source table: (estimate, low, high, n, effect, numbers spec) of the confirmation's row
_CONFIRM = {
    "rate": ("win_rate", "ci_low", "ci_high", "games", "effect_pp",
             "win_rate:pct,ci_low+ci_high:ci,games:n,effect_pp:pts,p_value:p"),
    "impact": ("diff_pp", "diff_low", "diff_high", "n_with", "diff_pp",
               "diff_pp:pts,diff_low+diff_high:ci_pts,n_with:n,n_without:n,p_value:p"),
    "fixes": ("diff_pp", "diff_low", "diff_high", "games", "diff_pp",
              "diff_pp:pts,diff_low+diff_high:ci_pts,games:n,p_value:p"),
}


def _lookup(table, key: dict) -> pd.DataFrame:
    """The rows of a confirmation table that `key` (column -> value) names."""
    if table is None or not len(table) or any(k not in table.columns for k in key):
        return pd.DataFrame()
    hit = pd.Series(True, index=table.index)
    for column, value in key.items():
        hit &= table[column].astype(str) == str(value)
    return table[hit]


def _measure_again(source: str, table, key: dict):
    """(row index, raw p-value, effect, text) of a finding in the confirmation's table, or None."""
    rows = _lookup(table, key)
    if not len(rows):
        return None
    if source == "matrix":          # dominant: every duel must be won; its weakest duel decides
        i = rows["win_rate"].idxmin()
        r = rows.loc[i]
        won = bool((rows["win_rate"] > 0.5).all())
        p = float(rows["p_value"].max())
        return i, p, (100 * (r["win_rate"] - 0.5) if won else -abs(100 * (r["win_rate"] - 0.5))), (
            f"against {words(r['opponent'])} {pct(r['win_rate'])} {ci(r['ci_low'], r['ci_high'])} of "
            f"{n_(r['games'])} fresh games (the largest of its duels'"), "win_rate:pct,ci_low+ci_high:ci,games:n"
    i = rows.index[0]
    r = rows.loc[i]
    kind = "impact" if source in ("impact", "opening_impact") else "fixes" if source == "fixes" else "rate"
    est, low, high, n, effect, spec = _CONFIRM[kind]
    if kind == "rate":
        text = f"{pct(r[est])} {ci(r[low], r[high])} of {n_(r[n])} fresh games ({pts(r[effect])},"
    elif kind == "impact":
        text = (f"{pts(r[est])} {ci(r[low], r[high], 1.0)} over {n_(r['n_with'])} seats with and "
                f"{n_(r['n_without'])} without, fresh games (")
    else:
        text = f"{pts(r[est])} {ci(r[low], r[high], 1.0)} over {n_(r[n])} fresh deals ("
    return i, float(r["p_value"]), float(r[effect]), text, spec


def confirm(findings: pd.DataFrame, measured, method: str = "holm") -> pd.DataFrame:
    """`findings` with each selected claim measured on the confirmation run `measured` (None: no such
    run). A claim is confirmed when the fresh estimate has the discovery's sign and its p-value,
    adjusted (`method`) over the claims of this game, is below ALPHA; a claim that does not confirm
    stays, marked "not confirmed"."""
    out = findings.copy()
    chosen = out.index[out["selected"].astype(bool)]
    if not len(chosen):
        return out
    if measured is None:
        for i in chosen:
            out.at[i, "status"], out.at[i, "significant"] = NO_CONFIRMATION, False
            out.at[i, "text"] = (out.at[i, "text"] + " Not yet confirmed: this report has no confirmation run "
                                 "(fresh games) to measure it again.")
        return out
    again = {}
    for i in chosen:
        source = out.at[i, "source"]
        again[i] = _measure_again(source, getattr(measured, source, None), json.loads(out.at[i, "key"]))
    raw = np.array([np.nan if again[i] is None else again[i][1] for i in chosen])
    adjusted = adjust(raw, method)
    label = "Holm-adjusted" if method == "holm" else "Benjamini–Hochberg-adjusted"
    for i, p in zip(chosen, adjusted):
        found = again[i]
        if found is None:
            out.at[i, "status"], out.at[i, "significant"] = NOT_CONFIRMED, False
            out.at[i, "text"] += " Not confirmed: the confirmation run did not measure it."
            continue
        row, _, effect, text, spec = found
        same_sign = np.sign(effect) == np.sign(out.at[i, "effect"]) and effect != 0
        ok = bool(same_sign and p < ALPHA)
        table = getattr(measured, out.at[i, "source"])
        test = table.at[row, "test"] if "test" in table.columns else ""
        test = test if isinstance(test, str) else ""        # a row without a named test (NaN) names none
        p_words = f"{p_text(p)}, {label} over this game's {len(chosen)} confirmation test(s)" + (
            f", {test}" if test else "")
        opposite = np.sign(effect) == -np.sign(out.at[i, "effect"]) and effect != 0
        verdict = ("confirmed" if ok else "not confirmed: the fresh games point the other way" if opposite
                   else "not confirmed: read the first run's result as chance")
        out.at[i, "text"] += f" Confirmation run: {text}{'' if text.endswith('(') else ' '}{p_words}) — {verdict}."
        out.at[i, "status"] = CONFIRMED_STATUS if ok else NOT_CONFIRMED
        out.at[i, "significant"] = ok
        out.at[i, "confirm_row"], out.at[i, "confirm_numbers"] = int(row), spec
    return out


CONFIRMED = "extra:Confirmed rule change"


def _confirmed_first(table: pd.DataFrame) -> pd.DataFrame:
    """A confirmed rule change right after the imbalance it fixes (the significant seat or alliance
    findings), or first among the rest when this report finds none."""
    if not len(table):
        return table
    confirmed = table["source"].astype(str).str.startswith(CONFIRMED)
    if not confirmed.any():
        return table
    rest = table[~confirmed]
    imbalance = rest["kind"].isin(["seat", "team"]) & rest["significant"]
    at = int(imbalance.to_numpy().nonzero()[0].max()) + 1 if imbalance.any() else 0
    return pd.concat([rest.iloc[:at], table[confirmed], rest.iloc[at:]], ignore_index=True)


def sort_findings(table: pd.DataFrame) -> pd.DataFrame:
    """Significant effects by size, then the rest by size, then not-found and trust statements."""
    if not len(table):
        return table
    last = table["kind"].isin(["not_found", "trust"])
    size = table["effect"].abs().fillna(-1.0)
    order = pd.DataFrame({"last": last, "sig": ~table["significant"], "size": -size,
                          "kind": table["kind"].map(KINDS.index)})
    return table.loc[order.sort_values(["last", "sig", "size", "kind"], kind="mergesort").index].reset_index(drop=True)
