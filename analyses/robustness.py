"""How far a finding holds: against luck, stronger players and our own readings of the rules.

Each claim of a game's Findings gets one robustness line with three parts (`robustness`):

- luck: was it confirmed on the fresh confirmation run (`analyses.findings.confirm`);
- skill: the game's skill ladder (below);
- assumptions: the game's sensitivity run for the report's policy (`analyses.sensitivity`, shipped with
  the package or given to the report): the claim's quantity (a seat's or an alliance's win rate) under
  every alternative reading of the rules, on paired seeds; "holds under every alternative" when no
  shift is significant after Holm over the sensitivity table, else "depends on <decision id>" with the
  shift, its interval and the value under that reading (`assumptions_line`).

The skill part:

A skill ladder (`analyses.ladder`, stored or shipped) re-measures the seat/alliance balance and the
largest card effect in self-play at every rung, from random play to search. `with_ladders(study,
ladders)` puts each game's ladder findings into that game's family of tests (`analyses.multiplicity`:
one Holm adjustment over the report's tests and the ladder's), re-judges the ladder's verdicts on
the adjusted p-values (a rung with too few games never overturns a finding:
`analyses.ladder_stats.mark_robust`) and gives every claim of the game's Findings a robustness line:
which rungs it was checked at, with how many games, what each found.
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd

from .findings import (
    ALPHA,
    CONFIRMED_STATUS,
    NO_CONFIRMATION,
    NOT_CONFIRMED,
    game_findings,
    pct,
    pts,
    study_findings,
    words,
)
from .ladder_stats import MIN_RUNG_GAMES, mark_robust
from .multiplicity import p_label, p_text, with_family
from .sensitivity import format_diff, seat_quantity, team_quantity


def _ladder_rows(finding: pd.Series, ladder: pd.DataFrame) -> pd.DataFrame:
    """The ladder rows that measure the same thing as a claim (seat, alliance or card), or none."""
    if not len(ladder) or not finding["key"]:
        return ladder.iloc[:0]
    key = json.loads(finding["key"])
    names = ladder["finding"].astype(str)
    if finding["source"] == "fpa_seats" and "seat" in key:
        return ladder[names.str.startswith(f"seat {int(key['seat']) + 1} ") | names.str.startswith(
            f"seat {int(key['seat']) + 1}:")]
    if finding["source"] == "teams" and "team" in key:    # 'alliance X: ...' or a team game's 'seat 1 (X): ...'
        team = words(key["team"])
        return ladder[names.str.startswith(f"alliance {team}:") | names.str.contains(f" ({team}):", regex=False)]
    if finding["source"] == "impact" and "stat" in key:
        return ladder[names.str.startswith(f"{str(key['stat']).replace('_', ' ')}:")]
    return ladder.iloc[:0]


def skill_text(finding: pd.Series, ladder: pd.DataFrame | None, family=None) -> tuple[bool, str]:
    """(checked, text) of a claim on the game's skill ladder: whether any rung measured it, and what the
    rungs found ('checked in self-play at every rung ...: random (2,000 games) +0.4 points, p = 0.90; ...
    — robust: ...'), or why it was not checked."""
    if ladder is None or not len(ladder):
        return False, "this game has no skill ladder, so it was checked only with the report's own policies."
    rows = _ladder_rows(finding, ladder)
    if not len(rows):
        return False, "the skill ladder does not measure this finding, so it was not checked against stronger players."
    rows = rows.sort_values("elo") if "elo" in rows else rows
    pcol = "p_family" if "p_family" in rows else "p_value"
    parts = []
    for _, r in rows.iterrows():
        games = int(r["games"]) if "games" in r and pd.notna(r["games"]) else None
        where = f"{r['rung']} ({games:,} games)" if games is not None else str(r["rung"])
        if games is not None and games < MIN_RUNG_GAMES:
            parts.append(f"{where}: too few games to tell")
        elif pd.isna(r["estimate"]):
            parts.append(f"{where}: not measured (no game decided)")
        else:
            test = str(r["test"]) if "test" in r and isinstance(r["test"], str) else ""
            parts.append(f"{where} {pts(r['estimate'])}, {p_label(r[pcol], test, family if pcol == 'p_family' else None)}")
    return True, (f"checked in self-play at every rung of the skill ladder (weakest to strongest): "
                  f"{'; '.join(parts)} — {rows['verdict'].iloc[0]}.")


def _quantity(finding: pd.Series, g) -> str | None:
    """The sensitivity table's quantity that a claim states: a seat's win rate, or an alliance's (the win
    rate of its first seat: partners win together); None for any other claim."""
    key = json.loads(finding["key"]) if finding.get("key") else {}
    if finding["source"] == "fpa_seats" and "seat" in key:
        return seat_quantity(int(key["seat"]))
    if finding["source"] == "teams" and "team" in key and len(getattr(g, "teams", ())):
        rows = g.teams[g.teams["team"].astype(str) == str(key["team"])]
        if len(rows):
            return team_quantity(rows["seats"].iloc[0])
    return None


def _reading(r) -> str:
    return f"{r['decision']} ({r['field']} = {r['alternative']})"


def assumptions_line(finding: pd.Series, g, table: pd.DataFrame | None, alpha: float = ALPHA) -> str:
    """The assumptions part of a claim's robustness line, from `table` (the game's `sensitivity` table for
    the report's policy; None when there is none)."""
    if table is None or not len(table):
        return ("Assumptions: not checked, no sensitivity run of this policy is shipped (`balancelab sensitivity "
                f"{g.game} --policies {g.main_policy}`).")
    quantity = _quantity(finding, g)
    rows = table[table["quantity"] == quantity] if quantity is not None else table.iloc[:0]
    if not len(rows):
        return ("Assumptions: not re-measured; the sensitivity run measures the seats' and alliances' win rates "
                "and the game length, not this.")
    games = int(table["games"].max())
    tests = f"Holm-adjusted over the {len(table)} tests of the sensitivity table"
    hit = rows[rows["p_holm"] < alpha]
    if not len(hit):
        i = (rows["diff"].abs()).idxmax()
        r = rows.loc[i]
        return (f"Assumptions: holds under every alternative reading ({rows['decision'].nunique()} decisions, "
                f"{len(rows)} alternatives, {games:,} paired games each); the largest shift, {_reading(r)}, is "
                f"{format_diff(r['quantity'], r['diff'], r['ci_low'], r['ci_high'])} ({p_text(r['p_holm'])}, {tests}).")
    parts = [f"{_reading(r)}: {format_diff(r['quantity'], r['diff'], r['ci_low'], r['ci_high'])}, "
             f"{pct(r['value'])} under it against {pct(r['default'])} ({p_text(r['p_holm'])})"
             for _, r in hit.reindex(hit["diff"].abs().sort_values(ascending=False).index).iterrows()]
    return (f"Assumptions: depends on {'; '.join(parts)} — {tests}, {games:,} paired games an arm; every other "
            f"reading holds.")


def luck_line(finding: pd.Series) -> str:
    status = str(finding.get("status", "") or "")
    return {CONFIRMED_STATUS: "Luck: confirmed on a fresh run (above).",
            NOT_CONFIRMED: "Luck: not confirmed on a fresh run (above).",
            NO_CONFIRMATION: "Luck: not yet confirmed (no fresh run)."}.get(status, "Luck: not measured again.")


def robustness(finding: pd.Series, g, ladder: pd.DataFrame | None, table: pd.DataFrame | None) -> str:
    """One line: luck, skill and assumptions (see the module docstring)."""
    _, skill = skill_text(finding, ladder, getattr(g, "family", None))
    return f"Robustness — {luck_line(finding)} Skill: {skill} {assumptions_line(finding, g, table)}"


def with_ladders(study, ladders: dict, sensitivity: dict | None = None):
    """`study` with each game's ladder findings in its family and a robustness line on every claim;
    `sensitivity` ({game: {policy: table}}) gives each game's `sensitivity` tables (the one of its main
    policy judges the claims' assumptions)."""
    games = {}
    sensitivity = sensitivity or {}
    for name, g in study.games.items():
        tables = sensitivity.get(name, {})
        if tables:
            g = dataclasses.replace(g, sensitivity=dict(tables))
        ladder = ladders.get(name)
        if ladder is not None and len(ladder.findings):
            lf = ladder.findings.reset_index(drop=True)
            g = with_family(dataclasses.replace(g, ladder_findings=lf))
            lf = g.ladder_findings.copy()
            lf["significant"] = lf["p_family"].fillna(1.0) < ALPHA
            lf = mark_robust(lf, ladder.metadata.get("top", []))
            g = dataclasses.replace(g, ladder_findings=lf)
        f = game_findings(g)
        chosen = f["selected"].astype(bool) if "selected" in f else pd.Series(False, index=f.index)
        ladder_rows = g.ladder_findings if len(g.ladder_findings) else None
        table = getattr(g, "sensitivity", {}).get(g.main_policy)
        lines = [robustness(r, g, ladder_rows, table) if chosen[i] else "" for i, r in f.iterrows()]
        games[name] = dataclasses.replace(g, findings=f.assign(robustness=np.array(lines, dtype=object)))
    return dataclasses.replace(study, games=games, findings=study_findings(games))
