"""The "Skill ladder" section of a game, rendered from a stored `analyses.ladder.Ladder`.

Renders only: the ratings, the findings by rung and the pairings come from the ladder's
tables (written by `balancelab ladder GAME --out FILE`, read by `balancelab report --ladder`).
"""
from __future__ import annotations

import pandas as pd

from analyses.findings import p_text
from analyses.ladder_stats import MIN_RUNG_GAMES

from .words import interval_cell


def ladder_view(ladder, html, findings=None) -> dict:
    """Render-ready parts of one ladder: the summary sentence, the tables (through `html`, the report's
    escaping table renderer), the verdicts. `findings`: the ladder's findings judged within the game's
    family of tests (`analyses.robustness.with_ladders`), in place of the ladder's own."""
    m = ladder.metadata
    in_family = findings is not None and "p_family" in findings
    findings = findings if findings is not None else ladder.findings
    ratings = ladder.ratings.sort_values("elo", ascending=False)
    chain = " < ".join(str(r).replace("_", " ") for r in m.get("chain", []))
    summary = (f"{len(ratings)} rungs, {m.get('games_per_pairing', 0):,} games per pairing at {m.get('players')} "
               f"players (seats rotated, the same {m.get('deals', 0):,} deals for every pairing) and "
               f"{m.get('findings_games', 0):,} self-play games per rung at {m.get('findings_players')} players"
               f"{_search_counts(m)}: {m.get('games_played', 0):,} games, seed {m.get('seed')}. Skill depth: a span of "
               f"{m.get('span', float('nan')):.0f} Elo [{m.get('span_low', float('nan')):.0f}, "
               f"{m.get('span_high', float('nan')):.0f}] and {m.get('levels')} significantly distinct level(s) "
               f"({chain}).")
    adjusted = ("Holm-adjusted over this game's tests, the report's and the ladder's together"
                if in_family else "Holm-adjusted over the seats")
    method = (f"Bradley–Terry ratings by maximum likelihood on the Elo scale ({m.get('anchor')} = 0); 95% intervals: "
              f"{m.get('interval_method', '')}. Findings by rung: two-sided exact binomial test (self-play games are "
              f"independent; a card effect: two-sided cluster-robust t test), p-values {adjusted}. A finding is robust when it is significant "
              "(p < 0.05) with the same sign at the two top-rated rungs "
              f"({', '.join(map(str, m.get('top', [])))}); a top rung with fewer than {MIN_RUNG_GAMES} self-play games "
              "decides nothing: too small to confirm or overturn it. Pairings: p-value of the score against 50% (exact binomial or score test), "
              "unadjusted: the ratings, not findings.")
    shipped = m.get("shipped") or {}
    return {"summary": summary, "method": method, "command": _command(m),
            "provenance": shipped.get("provenance"), "stale": bool(shipped.get("stale")),
            "ratings": html(rating_table(ratings)),
            "findings": html(findings_table(findings, ratings)) if len(findings) else None,
            "pairwise": html(pairwise_table(ladder.pairwise)),
            "verdicts": verdicts(findings)}


def _search_counts(m: dict) -> str:
    """The search rungs' fewer games (analyses.ladder SEARCH_GAMES), when they play fewer."""
    if not m.get("search_rungs") or (m.get("search_games_per_pairing"), m.get("search_findings_games")) == (
            m.get("games_per_pairing"), m.get("findings_games")):
        return ""
    return (f"; the search rungs ({', '.join(map(str, m['search_rungs']))}) {m.get('search_games_per_pairing'):,} games "
            f"per pairing, on the first {m.get('search_games_per_pairing', 0) // 2:,} of those deals (the bootstrap "
            f"draws deals within the groups of deals played by the same pairings), and "
            f"{m.get('search_findings_games'):,} self-play games")


def _command(m: dict) -> str:
    search = (f" --search-games {m.get('search_games_per_pairing')} --search-findings-games "
              f"{m.get('search_findings_games')}" if m.get("search_rungs") else "")
    return (f"balancelab ladder {m.get('game')} --ladder {','.join(m.get('ladder', []))} --games "
            f"{m.get('games_per_pairing')} --findings-games {m.get('findings_games')}{search} --players "
            f"{m.get('players')} --findings-players {m.get('findings_players')} --seed {m.get('seed')}")


def rating_table(ratings: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "rung": ratings["rung"].astype(str),
        "rating (Elo scale) [95% interval]": [interval_cell(v, lo, hi, "points").replace("+", "")
                                              for v, lo, hi in zip(ratings["elo"], ratings["elo_low"], ratings["elo_high"])],
        "level": ratings["level"].astype(int), "games": [f"{int(g):,}" for g in ratings["games"]],
        "score (wins + draws/2)": [f"{100 * float(s):.1f}%" for s in ratings["score"]],
    })


def findings_table(findings: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """Findings as rows, rungs (weakest to strongest) as columns: the estimate in points [interval], p."""
    order = list(ratings.sort_values("elo")["rung"])
    uneven = "games" in findings and findings["games"].nunique() > 1    # fewer self-play games at a search rung
    cells = findings.assign(cell=[
        f"{interval_cell(r.estimate, r.ci_low, r.ci_high, 'points', n=getattr(r, 'games', None))} ({_p(r)})"
        f"{' *' if r.significant else ''}"
        f"{f'; {int(r.games):,} games' if uneven else ''}" for r in findings.itertuples()])
    pivot = cells.pivot_table(index="finding", columns="rung", values="cell", aggfunc="first", sort=False)
    pivot = pivot.reindex(index=list(dict.fromkeys(findings["finding"])),
                          columns=[r for r in order if r in pivot.columns]).fillna("–")
    verdict = findings.groupby("finding", sort=False)["verdict"].first()
    robust = findings.groupby("finding", sort=False)["robust"].first()
    pivot["robust?"] = [("✔ " if robust[f] else "✘ ") + str(verdict[f]) for f in pivot.index]
    pivot = pivot.reset_index()
    pivot.columns = ["finding (points) ↓ rung →"] + [str(c) for c in pivot.columns[1:]]
    return pivot


def _p(row) -> str:
    p = getattr(row, "p_family", float("nan"))
    p = p if pd.notna(p) else row.p_holm if pd.notna(row.p_holm) else row.p_value
    return p_text(float(p))


def pairwise_table(pairwise: pd.DataFrame) -> pd.DataFrame:
    """The pairings, each score with the unit its interval counts (`unit`: deals, clustered; games,
    Clopper–Pearson, for a pairing of fewer than 10 deals; ladders saved before that column: deals)."""
    unit = pairwise["unit"] if "unit" in pairwise else pd.Series("deal", index=pairwise.index)
    return pd.DataFrame({
        "rung": pairwise["rung"].astype(str), "against": pairwise["opponent"].astype(str),
        "games": [f"{int(g):,}" for g in pairwise["games"]],
        "wins–losses–draws": [f"{int(w)}–{int(lo)}–{int(d)}" for w, lo, d in
                              zip(pairwise["wins"], pairwise["losses"], pairwise["draws"])],
        "score [95% interval]": [interval_cell(s, lo, hi, "rate", n=g) for s, lo, hi, g in
                                 zip(pairwise["score"], pairwise["ci_low"], pairwise["ci_high"], pairwise["games"])],
        "interval unit": ["games" if u == "game" else "deals" for u in unit.fillna("deal")],
        "p-value against 50% (unadjusted, two-sided)": [p_text(float(p))[2:].replace("= ", "")
                                                        for p in pairwise["p_value"]],
        "rating difference [95% interval]": [interval_cell(v, lo, hi, "points") for v, lo, hi in
                                             zip(pairwise["elo_diff"], pairwise["elo_diff_low"], pairwise["elo_diff_high"])],
    })


def verdicts(findings: pd.DataFrame) -> list[dict]:
    """One line per finding: its name, robust or not, and why."""
    if not len(findings):
        return []
    first = findings.groupby("finding", sort=False)[["robust", "verdict"]].first()
    return [{"finding": f, "robust": bool(r.robust), "verdict": str(r.verdict),
             "state": "robust" if r.robust else "too few games" if str(r.verdict).startswith(("too few", "significantly"))
             else "not robust"} for f, r in first.iterrows()]
