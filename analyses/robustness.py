"""How far a finding holds against stronger players: each claim checked on the game's skill ladder.

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

from .findings import ALPHA, game_findings, pts, study_findings, words
from .ladder_stats import MIN_RUNG_GAMES, mark_robust
from .multiplicity import p_label, with_family


def _ladder_rows(finding: pd.Series, ladder: pd.DataFrame) -> pd.DataFrame:
    """The ladder rows that measure the same thing as a claim (seat, alliance or card), or none."""
    if not len(ladder) or not finding["key"]:
        return ladder.iloc[:0]
    key = json.loads(finding["key"])
    names = ladder["finding"].astype(str)
    if finding["source"] == "fpa_seats" and "seat" in key:
        return ladder[names.str.startswith(f"seat {int(key['seat']) + 1} ") | names.str.startswith(
            f"seat {int(key['seat']) + 1}:")]
    if finding["source"] == "teams" and "team" in key:
        return ladder[names.str.startswith(f"alliance {words(key['team'])}:")]
    if finding["source"] == "impact" and "stat" in key:
        return ladder[names.str.startswith(f"{str(key['stat']).replace('_', ' ')}:")]
    return ladder.iloc[:0]


def robustness_line(finding: pd.Series, ladder: pd.DataFrame | None, family=None) -> str:
    """'Checked against stronger players (skill ladder, self-play): random (2,000 games) +0.4 points,
    p = 0.90; greedy (2,000 games) -4.3 points, p < 0.001; ... — robust: ...'."""
    if ladder is None or not len(ladder):
        return "Robustness: this game has no skill ladder, so it was checked only with the report's own policies."
    rows = _ladder_rows(finding, ladder)
    if not len(rows):
        return "Robustness: the skill ladder does not measure this finding, so it was not checked against stronger players."
    rows = rows.sort_values("elo") if "elo" in rows else rows
    pcol = "p_family" if "p_family" in rows else "p_value"
    parts = []
    for _, r in rows.iterrows():
        games = int(r["games"]) if "games" in r and pd.notna(r["games"]) else None
        where = f"{r['rung']} ({games:,} games)" if games is not None else str(r["rung"])
        if games is not None and games < MIN_RUNG_GAMES:
            parts.append(f"{where}: too few games to tell")
        else:
            test = str(r["test"]) if "test" in r and isinstance(r["test"], str) else ""
            parts.append(f"{where} {pts(r['estimate'])}, {p_label(r[pcol], test, family if pcol == 'p_family' else None)}")
    return (f"Robustness — checked in self-play at every rung of the skill ladder (weakest to strongest): "
            f"{'; '.join(parts)} — {rows['verdict'].iloc[0]}.")


def with_ladders(study, ladders: dict):
    """`study` with each game's ladder findings in its family and a robustness line on every claim."""
    games = {}
    for name, g in study.games.items():
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
        lines = [robustness_line(r, g.ladder_findings if len(g.ladder_findings) else None, g.family) if chosen[i] else ""
                 for i, r in f.iterrows()]
        games[name] = dataclasses.replace(g, findings=f.assign(robustness=np.array(lines, dtype=object)))
    return dataclasses.replace(study, games=games, findings=study_findings(games))
