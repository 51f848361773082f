"""The "Our readings of the rules" section of a game, rendered from its `analyses.sensitivity` tables.

Renders only: each table was played by `balancelab sensitivity GAME --policies P` (shipped with the
package, `analyses.shipped`) and holds, for every alternative reading of the rules the game's DECISIONS
list, the paired difference of each headline quantity from the published reading. The section shows the
main policy's table (one row per reading, one column per headline quantity) and, when the game has runs
for several policies (Nerath: every heuristic rung of its skill ladder), the headline unit's win rate at
each of them with the effect of every reading.
"""
from __future__ import annotations

import pandas as pd

from analyses.findings import ALPHA
from analyses.sensitivity import TURNS, format_diff, is_rate, seat_quantity, team_quantity
from analyses.stats import wilson_interval


def _units(g, table: pd.DataFrame) -> dict:
    """{quantity: column label} of the headline quantities: each alliance (by its first seat) in a team
    game, else every seat; then the game length."""
    quantities = list(dict.fromkeys(table["quantity"]))
    out = {}
    if getattr(g, "team_game", False) and len(getattr(g, "teams", ())):
        for _, r in g.teams.iterrows():
            q = team_quantity(r["seats"])
            if q in quantities:
                out[q] = f"{str(r['team']).replace('_', ' ')} win rate"
    else:
        out = {q: q for q in quantities if q.startswith("seat ")}
    if TURNS in quantities:
        out[TURNS] = "game length"
    return out


def _cell(r) -> str:
    mark = " *" if r["p_holm"] < ALPHA else ""
    return format_diff(r["quantity"], r["diff"], r["ci_low"], r["ci_high"]) + mark


def _default_cell(quantity: str, value: float, games: int, seat_order: str | None) -> str:
    """The published reading's value: a rate with its Wilson interval over the arm's games when every game is
    its own deal (seat order fixed, as the shipped runs), the rate alone when rotated games share deals, or
    the game length."""
    if not is_rate(quantity):
        return f"{value:.1f} turns"
    if seat_order != "fixed":
        return f"{100 * value:.1f}%"
    low, high = wilson_interval(round(value * games), games)
    return f"{100 * value:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def readings_table(g, table: pd.DataFrame) -> pd.DataFrame:
    """One row for the published reading (its values) and one per alternative (its paired differences)."""
    units = _units(g, table)
    games = int(table["games"].max()) if len(table) else 0
    first = table.drop_duplicates("quantity").set_index("quantity")
    rows = [{"decision": "published reading", "alternative": "(as played)",
             **{label: _default_cell(q, float(first.at[q, "default"]), games, table.attrs.get("seat_order")) for q, label in units.items()}}]
    for (decision, alternative), part in table.groupby(["decision", "alternative"], sort=False):
        cells = part.set_index("quantity", drop=False)
        rows.append({"decision": decision, "alternative": f"{part['field'].iloc[0]} = {alternative}",
                     **{label: _cell(cells.loc[q]) for q, label in units.items() if q in cells.index}})
    return pd.DataFrame(rows)


def rungs_table(g, tables: dict) -> pd.DataFrame | None:
    """The headline unit's win rate (the weakest alliance, or seat 1) at each policy with a run, and the effect
    of every reading on it; None with fewer than two runs."""
    if len(tables) < 2:
        return None
    quantity, label = _headline(g)
    columns = {}
    for policy, table in tables.items():
        part = table[table["quantity"] == quantity]
        if not len(part):
            continue
        games = int(part["games"].max())
        cells = {("published reading", "(as played)"): _default_cell(quantity, float(part["default"].iloc[0]), games,
                                                                    table.attrs.get("seat_order"))}
        for _, r in part.iterrows():
            cells[(r["decision"], f"{r['field']} = {r['alternative']}")] = _cell(r)
        columns[f"{policy} ({games:,} games an arm)"] = cells
    if len(columns) < 2:
        return None
    frame = pd.DataFrame(columns)
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["decision", "alternative"])
    frame = frame.reset_index().fillna("–")
    frame.attrs["unit"] = label
    return frame


def _headline(g) -> tuple[str, str]:
    if getattr(g, "team_game", False) and len(getattr(g, "teams", ())):
        r = g.teams.loc[g.teams["win_rate"].idxmin()]
        return team_quantity(r["seats"]), f"{str(r['team']).replace('_', ' ')} win rate"
    return seat_quantity(0), "seat 1 win rate"


def sensitivity_view(g, html) -> dict | None:
    """Render-ready parts of the section (through `html`, the report's table renderer), or None when the
    game has no sensitivity table."""
    tables = dict(getattr(g, "sensitivity", {}) or {})
    if not tables:
        return None
    main = tables.get(g.main_policy)
    order = ([g.main_policy] if main is not None else []) + [p for p in tables if p != g.main_policy]
    tables = {p: tables[p] for p in order}
    first = next(iter(tables.values()))
    a = first.attrs
    provenance = [t.attrs["shipped"]["provenance"] for t in tables.values() if t.attrs.get("shipped")]
    stale = any((t.attrs.get("shipped") or {}).get("stale") for t in tables.values())
    decisions = first["decision"].nunique()
    arms = len(first[["decision", "alternative"]].drop_duplicates())
    summary = (f"Where the rulebook is silent or unclear we chose a reading (the decisions below, each listed with "
               f"its evidence in the game's RULES.md). Each alternative reading was played on the same seeds as the "
               f"published one: {decisions} decisions, {arms} alternatives, {int(first['games'].max()):,} paired "
               f"games an arm, {a.get('players')} players, seat order {a.get('seat_order')}. A cell is the "
               f"alternative minus the published reading with its 95% interval (the deal as the unit); * marks a "
               f"shift significant after Holm over that policy's table. Each finding's robustness line says which "
               f"readings it depends on.")
    view = {"summary": summary, "provenance": provenance, "stale": stale, "tables": [], "rungs": None}
    for policy, table in tables.items():
        label = "the report's policy" if policy == g.main_policy else "another policy"
        view["tables"].append({"title": f"{policy} in every seat ({label})", "html": html(readings_table(g, table)),
                               "open": policy == g.main_policy})
    rungs = rungs_table(g, tables)
    if rungs is not None:
        view["rungs"] = {"title": f"{rungs.attrs['unit']} at every policy with a run, and each reading's effect on it",
                         "html": html(rungs)}
    return view
