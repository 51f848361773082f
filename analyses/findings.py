"""Findings: the study's answers as short sentences, generated from its DataFrames.

Each finding is one sentence with its number, interval and n, e.g. "Seat 4 of 4 (last to play)
wins 20.9% [19.5, 22.4] of 3,000 games against a fair 25.0% — disadvantaged by 4.1 points
(p < 0.001)". `game_findings(g)` gives a DataFrame for one `GameStudy`, sorted by the size of
the effect (points), followed by what was *not* found and how far the policies can be trusted.

Every number in a sentence is a value of one row of one of the game's tables: the finding
records that table (`source`: a GameStudy attribute, or ``extra:<title>``), the row and the
columns with their format (`numbers`: ``"win_rate:pct,ci_low+ci_high:ci,games:n,p_value:p"``),
so a reader (and the report's browser test) can check the sentence against the data.

The table's columns and the number formats are in `analyses.findings_format`; the confirmation of the
selected claims on a fresh run and the order of the findings in `analyses.findings_confirm`. This module
writes the sentences of one game (`game_findings`) and of the whole study (`verdict`, `study_findings`).
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd

from .findings_confirm import CONFIRMED, _confirmed_first, confirm, sort_findings
from .findings_format import (
    ALPHA,
    COLUMNS,
    CONFIRMED_STATUS,
    NO_CONFIRMATION,
    NOT_CONFIRMED,
    ci,
    formatted_numbers,
    n_,
    p_column,
    pct,
    pts,
    rate_of,
    source_table,
    words,
)
from .multiplicity import p_label, p_text

#: the names other modules read from here; the formats and the confirmation live in `findings_format`
#: and `findings_confirm`
__all__ = ["ALPHA", "COLUMNS", "CONFIRMED", "CONFIRMED_STATUS", "NO_CONFIRMATION", "NOT_CONFIRMED", "ci", "confirm",
           "formatted_numbers", "game_findings", "n_", "p_column", "p_text", "pct", "pts", "sort_findings",
           "source_table", "study_findings", "verdict", "words"]

# --- one game ----------------------------------------------------------------------------------

class _Collector:
    def __init__(self, g):
        self.g, self.rows = g, []
        self.family = getattr(g, "family", None)

    def p(self, r: pd.Series, pcol: str) -> str:
        """A p-value as the page writes it: its value, its adjustment and its test."""
        test = str(r["test"]) if "test" in r.index and isinstance(r["test"], str) else ""
        if pcol == "p_family" and self.family is not None:
            return p_label(r[pcol], test, self.family)
        if pcol == "p_holm":
            return f"{p_text(r[pcol])}, Holm-adjusted within its table" + (f", {test}" if test else "")
        return p_label(r[pcol], test, None)

    def add(self, kind, text, effect=np.nan, source="", row=-1, numbers="", significant=False, key=None):
        """One sentence; `significant` marks a claim selected on the discovery run (its adjusted p-value
        below ALPHA), which `key` (the columns that find its row again) lets a confirmation run re-measure."""
        if source and row >= 0:   # the sentence must show exactly the table's values
            shown = formatted_numbers(source_table(self.g, source).loc[row], numbers)
            missing = [s for s in shown if s not in text]
            assert not missing, f"finding {text!r} does not show {missing}"
        self.rows.append({"game": self.g.game, "title": self.g.title, "kind": kind, "text": text,
                          "effect": float(effect), "source": source, "row": int(row), "numbers": numbers,
                          "significant": bool(significant), "selected": bool(significant and key is not None),
                          "status": "", "key": json.dumps(key, default=str) if key is not None else "",
                          "confirm_row": -1, "confirm_numbers": "", "robustness": ""})


def game_findings(g, confirmation=None) -> pd.DataFrame:
    """The findings of one game, largest effect first; not-found and trust statements last.

    Each claim is selected on `g`'s runs (the discovery run: its p-value adjusted over the game's
    family, `analyses.multiplicity`, below ALPHA) and measured again on `confirmation` (default
    ``g.confirmation``: the tables of a fresh run with new seeds, `analyses.replication.measure`): its
    sentence then adds the confirmation's estimate, interval and p-value (Holm-adjusted over the game's
    confirmations) and says "confirmed" or "not confirmed"; only a confirmed claim is `significant`."""
    c = _Collector(g)
    if g.team_game:
        _teams(c)
    else:
        _seats(c)
    _policies(c)
    _fixes(c)
    _impact(c)
    _sweep(c)
    _events(c)
    _units(c)
    _length(c)
    _trust(c)
    table = pd.DataFrame(c.rows, columns=COLUMNS)
    measured = confirmation if confirmation is not None else getattr(g, "confirmation", None)
    table = confirm(table, measured, getattr(getattr(g, "family", None), "method", "holm"))
    return _confirmed_first(sort_findings(table))


def _seat_name(seat: int, players: int) -> str:
    where = " (first to play)" if seat == 0 else " (last to play)" if seat == players - 1 else ""
    return f"Seat {seat + 1} of {players}{where}"


def _seats(c: _Collector) -> None:
    g = c.g
    seats = g.fpa_seats
    if not len(seats):
        return
    lineup = g.fpa_summary.iloc[0]["lineup"]
    seats = seats[seats["lineup"] == lineup]
    pcol = p_column(seats)
    players = int(seats["players"].iloc[0])
    spec = f"win_rate:pct,ci_low+ci_high:ci,games:n,expected:pct,effect_pp:abs_pts,{pcol}:p"
    significant = seats[seats[pcol] < ALPHA]
    for i, r in significant.iterrows():
        side = "advantaged" if r["effect_pp"] > 0 else "disadvantaged"
        c.add("seat", f"{_seat_name(int(r['seat']), players)} wins {rate_of(r)} games against a fair "
                      f"{pct(r['expected'])} — {side} by {abs(r['effect_pp']):.1f} points ({c.p(r, pcol)}).",
              r["effect_pp"], "fpa_seats", i, spec, True, {"lineup": lineup, "seat": int(r["seat"])})
    if not len(significant):
        i = seats["effect_pp"].abs().idxmax()
        r = seats.loc[i]
        c.add("not_found", f"No seat is favoured: every seat wins within {abs(r['effect_pp']):.1f} points of the fair "
                           f"{pct(r['expected'])} (largest gap: seat {int(r['seat']) + 1}, {rate_of(r)} games, "
                           f"{c.p(r, pcol)}).",
              r["effect_pp"], "fpa_seats", i, spec)


def _teams(c: _Collector) -> None:
    t = c.g.teams
    if not len(t):
        return
    pcol = p_column(t)
    i = t["win_rate"].idxmin()
    r = t.loc[i]
    spec = f"win_rate:pct,ci_low+ci_high:ci,games:n,expected:pct,effect_pp:abs_pts,{pcol}:p"
    other = " and ".join(words(x) for x in t.loc[t.index != i, "team"])
    if r[pcol] < ALPHA:
        c.add("team", f"The alliances are unbalanced: {words(r['team'])} wins {rate_of(r)} games against a fair "
                      f"{pct(r['expected'])} — {abs(r['effect_pp']):.1f} points short ({c.p(r, pcol)}); {other} "
                      f"wins the rest.",
              r["effect_pp"], "teams", i, spec, True, {"team": r["team"]})
    else:
        c.add("not_found", f"Neither alliance is favoured: {words(r['team'])} wins {rate_of(r)} games against a fair "
                           f"{pct(r['expected'])} ({abs(r['effect_pp']):.1f} points short, {c.p(r, pcol)}).",
              r["effect_pp"], "teams", i, spec)


def _policies(c: _Collector) -> None:
    g = c.g
    bp = g.by_policy
    if len(bp):
        pcol = p_column(bp)
        order = bp.sort_values("win_rate", ascending=False, kind="mergesort")
        i = order.index[0]
        r = bp.loc[i]
        partners = " (partners rotated)" if g.team_game else ""
        spec = f"win_rate:pct,ci_low+ci_high:ci,games:n,expected:pct,effect_pp:pts,{pcol}:p"
        tied = order[np.isclose(order["win_rate"], r["win_rate"], rtol=0, atol=1e-12)]
        if len(tied) > 1:       # a tie names no winner
            names = " and ".join(words(x) for x in tied["policy"])
            c.add("policy", f"At the mixed table{partners} no single policy is strongest: {names} are tied, each "
                            f"winning {rate_of(r)} games against a fair {pct(r['expected'])} ({pts(r['effect_pp'])}, "
                            f"{c.p(r, pcol)}).",
                  r["effect_pp"], "by_policy", i, spec)
        else:
            runner = bp.loc[order.index[1]] if len(order) > 1 else None
            close = runner is not None and runner["win_rate"] >= r["ci_low"]
            lead = ("wins most often, but not separably" if close else "is strongest")
            rival = (f"; {words(runner['policy'])} wins {pct(runner['win_rate'])}, inside that interval, so the two are "
                     f"not separable" if close else "")
            c.add("policy", f"At the mixed table{partners} the {words(r['policy'])} policy {lead}: it wins "
                            f"{rate_of(r)} games against a fair {pct(r['expected'])} ({pts(r['effect_pp'])}, "
                            f"{c.p(r, pcol)}){rival}.",
                  r["effect_pp"], "by_policy", i, spec, r[pcol] < ALPHA, {"policy": r["policy"]})
    m = g.matrix
    if len(m) and len(g.ratings):
        best = g.ratings.sort_values("elo", ascending=False).iloc[0]["policy"]
        rows = m[m["policy"] == best]
        spec = "win_rate:pct,ci_low+ci_high:ci,games:n"
        pcol = p_column(m)
        # dominant = it beats every rival: the largest adjusted p-value of its duels decides (intersection-union)
        if len(rows) and (rows["ci_low"] > 0.5).all() and (rows["win_rate"] > 0.5).all() and (
                pcol not in rows or (rows[pcol] < ALPHA).all()):
            i = rows["win_rate"].idxmin()
            r = m.loc[i]
            worst = rows.loc[rows[pcol].idxmax()] if pcol in rows else r
            c.add("policy", f"The {words(best)} policy is dominant: it beats every other policy in two-player duels, "
                            f"even its closest rival {words(r['opponent'])} ({rate_of(r)} games; largest of its duels' "
                            f"{c.p(worst, pcol)}).",
                  100 * (r["win_rate"] - 0.5), "matrix", i, spec, True, {"policy": best})
        elif len(rows):
            i = rows["win_rate"].idxmin()
            r = m.loc[i]
            c.add("not_found", f"No policy is dominant: the top-rated {words(best)} does not clearly beat "
                               f"{words(r['opponent'])} in two-player duels ({rate_of(r)} games).",
                  100 * (r["win_rate"] - 0.5), "matrix", i, spec)


def _fixes(c: _Collector) -> None:
    g = c.g
    played = set()
    pcol = p_column(g.fixes) if len(g.fixes) else "p_value"
    for i, r in g.fixes.iterrows():
        played.add((r["field"], r["value"]))
        significant = r[pcol] < ALPHA
        verdict = ("it helps: closer to a fair" if r["closer"] else "it makes it worse: further from a fair"
                   ) if significant else "no clear change against a fair"
        c.add("fix", f"Rule change tried — {r['change']}: {words(r['measure'])} {pct(r['before'])} "
                     f"{ci(r['before_low'], r['before_high'])} before, {pct(r['after'])} {ci(r['after_low'], r['after_high'])} "
                     f"after, over the same {n_(r['games'])} deals ({pts(r['diff_pp'])} "
                     f"{ci(r['diff_low'], r['diff_high'], 1.0)}, {c.p(r, pcol)}); {verdict} "
                     f"{pct(r['expected'])}.",
              r["diff_pp"], "fixes", i,
              "before:pct,before_low+before_high:ci,after:pct,after_low+after_high:ci,games:n,diff_pp:pts,"
              f"diff_low+diff_high:ci_pts,{pcol}:p,expected:pct", significant, {"change": r["change"]})
    _confirmed(c)
    for fix in g.fix_ideas:
        if (fix.field, str(fix.value)) in played or not _triggered(g, fix.trigger):
            continue
        c.add("fix", f"Rule change to try: {fix.text}. (The simulator has no rule switch for this yet, so it is "
                     f"not tested here.)")


def _confirmed(c: _Collector) -> None:
    """Each rule change a stored re-balancing study confirmed (`analyses.confirmed`): the seat it
    helps most, before and after with intervals over the confirmation's fresh games, and the band
    every seat reaches. When this report finds the seats even, the sentence says so and names what
    the change still improves (the longer run measured the gap this report is too small to see)."""
    g = c.g
    imbalanced = any(r["kind"] in ("seat", "team") and r["significant"] for r in c.rows)
    for title, table in getattr(g, "extra", {}).items():
        if not title.startswith(CONFIRMED[len("extra:"):]) or not len(table):
            continue
        seats = table[table["seat"].notna()]
        if not len(seats):
            continue
        fair = (seats["target_low"] + seats["target_high"]) / 2
        i = (seats["before"] - fair).abs().idxmax()
        r, a = table.loc[i], table.attrs
        centre, tol = 50 * (r["target_low"] + r["target_high"]), 50 * (r["target_high"] - r["target_low"])
        seat = "s" + _seat_name(int(r["seat"]) - 1, len(seats))[1:]       # 'seat 1 of 4 (first to play)'
        within = "every seat is then within" if bool(seats["within_after"].all()) else "not every seat is within"
        length = table[table["measure"] == "mean turns"]
        turns = (f"; a game lasts {float(length['before'].iloc[0]):.1f} turns on average before and "
                 f"{float(length['after'].iloc[0]):.1f} after") if len(length) else ""
        lead = "" if imbalanced else ("This report's games find no seat clearly favoured, but a longer run "
                                      "shows what this change improves. ")
        c.add("fix", f"{lead}Confirmed rule change — {a['words']} ({a['code']}): {seat} wins "
                     f"{pct(r['before'])} {ci(r['before_low'], r['before_high'])} under the published rules and "
                     f"{pct(r['after'])} {ci(r['after_low'], r['after_high'])} with the change, over {n_(r['n'])} "
                     f"fresh games each; {within} {centre:.0f} ± {tol:g} points{turns}.",
              100 * (abs(r["before"] - fair[i]) - abs(r["after"] - fair[i])), f"extra:{title}", i,
              "before:pct,before_low+before_high:ci,after:pct,after_low+after_high:ci,n:n",
              not bool(r["within_before"]))


def _triggered(g, trigger: str) -> bool:
    """Is the imbalance this fix is aimed at among the significant findings?"""
    if trigger == "team":
        return bool(len(g.teams)) and bool((g.teams[p_column(g.teams)] < ALPHA).any())
    seats = g.fpa_seats
    if not len(seats):
        return False
    seats = seats[seats["lineup"] == g.fpa_summary.iloc[0]["lineup"]]
    r = seats.iloc[-1] if trigger == "last_seat" else seats.iloc[0]
    return bool(r[p_column(seats)] < ALPHA and r["effect_pp"] < 0)


def _dealt(r: pd.Series) -> str:
    """'at least one Necronauts card' (a family) or '“Midnight Star”' (a card)."""
    return f"at least one {r['item']} card" if r["kind"] == "family" else f"“{r['item']}”"


def _impact(c: _Collector) -> None:
    """Cards in the opening hand, paired within deals (causal: the deal decides who holds them); only the
    rows of the level the game states findings at. The in-game impact table is association and never
    becomes a sentence."""
    table = getattr(c.g, "opening_impact", None)
    if table is None or not len(table) or "finding" not in table.columns:
        return
    imp = table[table["finding"].astype(bool)]
    if not len(imp):
        return
    pcol = p_column(imp)
    spec = (f"win_with:pct,win_without:pct,diff_pp:pts,diff_low+diff_high:ci_pts,n_with:n,n_without:n,deals:n,"
            f"{pcol}:p")
    significant = imp[imp[pcol] < ALPHA]
    order = significant["diff_pp"].abs().sort_values(ascending=False, kind="mergesort").index
    for i in order[:3]:
        r = imp.loc[i]
        c.add("impact", f"Seats dealt {_dealt(r)} in their opening hand won {pct(r['win_with'])} of "
                        f"{n_(r['n_with'])} seats, against {pct(r['win_without'])} of {n_(r['n_without'])} dealt "
                        f"none: {pts(r['diff_pp'])} {ci(r['diff_low'], r['diff_high'], 1.0)}, paired within "
                        f"{n_(r['deals'])} deals ({c.p(r, pcol)}; causal: the deal decides who holds it).",
              r["diff_pp"], "opening_impact", i, spec, True, {"item": r["item"], "kind": r["kind"]})
    if len(order) > 3:
        names = ", ".join(f"{words(x)}" for x in imp.loc[order[3:], "item"])
        c.add("impact", f"{len(order) - 3} more pass this run's test as well (see the opening-hand table), but only "
                        f"the three largest are measured again on fresh games, so read these as unconfirmed: {names}.",
              significant=False)
    rest = imp[~(imp[pcol] < ALPHA)]
    if len(rest):
        i = rest["diff_pp"].abs().idxmax()
        r = imp.loc[i]
        c.add("not_found", f"No clear effect of {len(rest)} of the {len(imp)} card groups in the opening hand: none "
                           f"moves a seat's win rate by more than {abs(r['diff_pp']):.1f} points (largest: "
                           f"{_dealt(r)}, {pts(r['diff_pp'])} {ci(r['diff_low'], r['diff_high'], 1.0)}, "
                           f"{c.p(r, pcol)}).",
              r["diff_pp"], "opening_impact", i, f"diff_pp:pts,diff_low+diff_high:ci_pts,{pcol}:p")


def _sweep(c: _Collector) -> None:
    g = c.g
    main_players = int(g.fpa_summary.iloc[0]["players"]) if len(g.fpa_summary) else None
    if g.team_game:
        sw = g.sweep
        if not len(sw):
            return
        rates = sw[sw["metric"].str.endswith("_win_rate") & (sw["metric"] != "seat0_win_rate")]
        rates = rates[rates["value"].astype(str) != str(main_players)]
        if not len(rates):
            return
        i = (rates["estimate"] - 0.5).abs().idxmax()
        r = sw.loc[i]
        who = words(r["metric"][:-len("_win_rate")].replace("+", " + "))
        setting = f"{r['value']} players" if g.sweep_field == "players" else f"{words(g.sweep_field)} = {r['value']}"
        c.add("sweep", f"With {setting}, {who} wins {rate_of(r, 'estimate', 'n')} games (a rate, not a test).",
              100 * (r["estimate"] - 0.5), "sweep", i, "estimate:pct,ci_low+ci_high:ci,n:n")
        return
    seats = g.sweep_seats
    if not len(seats):
        return
    others = seats[seats["players"] != main_players]
    pcol = p_column(seats)
    sig = others[others[pcol] < ALPHA]
    if not len(sig):
        return
    i = sig["effect_pp"].abs().idxmax()
    r = seats.loc[i]
    c.add("sweep", f"With {int(r['players'])} players, seat {int(r['seat']) + 1} wins {rate_of(r)} games against a "
                   f"fair {pct(r['expected'])} ({pts(r['effect_pp'])}, {c.p(r, pcol)}).", r["effect_pp"],
          "sweep_seats", i,
          f"win_rate:pct,ci_low+ci_high:ci,games:n,expected:pct,effect_pp:pts,{pcol}:p", True,
          {"players": int(r["players"]), "seat": int(r["seat"])})


def _events(c: _Collector) -> None:
    title = "Game events (main run)"
    events = c.g.extra.get(title)
    if events is None:
        return
    for i, r in events.iterrows():
        c.add("event", f"“{words(r['event'])}” happens in {rate_of(r, 'rate', 'n')} games.", np.nan,
              f"extra:{title}", i, "rate:pct,ci_low+ci_high:ci,n:n")


def _units(c: _Collector) -> None:
    title = "Break-even prices against footsoldiers (exact)"
    prices = c.g.extra.get(title)
    if prices is None or not len(prices):
        return
    rows = prices.dropna(subset=["attack_value_ratio"])
    rows = rows[rows["attack_value_ratio"] < 1]
    if not len(rows):
        return
    i = rows["attack_value_ratio"].idxmin()
    r = prices.loc[i]
    c.add("units", f"Footsoldiers are the best buy: on attack a {words(r['unit'])} is worth only "
                   f"{float(r['attack_value_ratio']):.2f} of its {float(r['cost']):g}-gold price in footsoldiers "
                   f"(exact battles; break-even price {float(r['break_even_attack']):.1f} gold). Rule change to try: "
                   f"lower its price towards {max(1, round(float(r['break_even_attack'])))} gold.",
          100 * (float(r["attack_value_ratio"]) - 1), f"extra:{title}", i,
          "attack_value_ratio:ratio,cost:num,break_even_attack:mean")


def _length(c: _Collector) -> None:
    g = c.g
    length = g.length
    if len(length):
        i = length.index[length["metric"] == "turns"][0]
        r = length.loc[i]
        c.add("length", f"A game lasts {float(r['median']):g} turns at the median (80% of games between "
                        f"{float(r['p10']):.0f} and {float(r['p90']):.0f}; mean {float(r['mean']):.1f} "
                        f"[{float(r['ci_low']):.1f}, {float(r['ci_high']):.1f}], {n_(r['n'])} games).",
              np.nan, "length", i, "median:num,p10:int,p90:int,mean:mean,n:n")
    s = g.fpa_summary
    if len(s):
        r = s.iloc[0]
        if r["timeouts"] > 0:
            c.add("timeouts", f"{pct(r['timeout_rate'])} {ci(r['timeout_ci_low'], r['timeout_ci_high'])} of "
                              f"{n_(r['games'])} games hit the turn cap without a winner.",
                  100 * r["timeout_rate"], "fpa_summary", s.index[0],
                  "timeout_rate:pct,timeout_ci_low+timeout_ci_high:ci,games:n", r["timeout_rate"] > 0.01)


def _trust(c: _Collector) -> None:
    g = c.g
    m = g.matrix
    main = g.main_policy
    rows = m[(m["policy"] == main) & (m["opponent"] == "random")] if len(m) else m
    rank = ""
    if len(g.ratings):
        order = list(g.ratings.sort_values("elo", ascending=False)["policy"])
        if main in order:
            k = order.index(main) + 1
            rank = (f" and is the top-rated of the {len(order)} policies" if k == 1 else
                    f" but is rated {k} of {len(order)} policies (the {words(order[0])} policy rates higher)")
    if len(rows):
        i = rows.index[0]
        r = m.loc[i]
        c.add("trust", f"How far to trust this: the findings rest on the {words(main)} policy in every seat. It beats "
                       f"random play in {rate_of(r)} two-player duels{rank}; expert players may find lines it misses, "
                       f"so treat small effects as properties of this policy.", np.nan, "matrix", i,
              "win_rate:pct,ci_low+ci_high:ci,games:n")
    else:
        c.add("trust", f"How far to trust this: the findings rest on the {words(main)} policy in every seat"
                       f"{rank}; expert players may find lines it misses.")


# --- the whole study ----------------------------------------------------------------------------

def verdict(g, findings: pd.DataFrame) -> str:
    """One sentence: is the game balanced where it matters (seats, or alliances in a team game)?"""
    unit = "alliance" if g.team_game else "seat"
    seats = findings[findings["kind"].isin(["seat", "team"])]
    hits = seats[seats["significant"]]
    if len(hits):
        worst = hits.iloc[0]
        return f"{g.title}: not balanced by {unit} — {worst['text'][0].lower()}{worst['text'][1:]}"
    status = set(seats["status"]) if "status" in seats else set()
    if NOT_CONFIRMED in status:
        return (f"{g.title}: no {unit} is clearly favoured with these policies — the first run's {unit} gap was not "
                "confirmed on fresh games.")
    if NO_CONFIRMATION in status:
        return (f"{g.title}: a {unit} gap was found on the first run but is not yet confirmed (no confirmation "
                "run).")
    return f"{g.title}: no {unit} is clearly favoured with these policies."


def study_findings(games: dict, per_game: dict | None = None, top: int = 6, per_game_top: int = 2) -> pd.DataFrame:
    """Across games: each game's verdict followed by its rule changes tried or confirmed (what each did
    to the imbalance), then the largest significant effects of all games (at most `per_game_top` per game, none that
    rests on a flagged number: fewer than 30 games, 0% or 100%)."""
    per_game = per_game or {name: g.findings for name, g in games.items()}
    rows, picked = [], []
    for name, g in games.items():
        f = per_game[name]
        hits = f[f["kind"].isin(["seat", "team"]) & f["significant"]]
        src = hits.iloc[0] if len(hits) else None
        rows.append({"game": name, "title": g.title, "kind": "verdict", "text": verdict(g, f),
                     "effect": src["effect"] if src is not None else np.nan,
                     "source": src["source"] if src is not None else "", "row": src["row"] if src is not None else -1,
                     "numbers": src["numbers"] if src is not None else "", "significant": src is not None,
                     "selected": False, "status": src.get("status", "") if src is not None else "",
                     "key": "", "confirm_row": src.get("confirm_row", -1) if src is not None else -1,
                     "confirm_numbers": src.get("confirm_numbers", "") if src is not None else "",
                     "robustness": src.get("robustness", "") if src is not None else ""})
        warned = getattr(g, "warnings", None)
        flagged = set()
        if warned is not None and len(warned):
            w = warned[warned["kind"].isin(["few_games", "extreme_rate"])]
            flagged = set(zip(w["source"], w["row"]))
        fixes = f[(f["kind"] == "fix") & f["source"].astype(bool)]    # next to the verdict they answer
        rows += fixes.assign(text=g.title + ": " + fixes["text"]).to_dict("records")
        ok = f[f["significant"] & ~f["kind"].isin(["seat", "team", "fix"])]
        ok = ok[[(s_, r_) not in flagged for s_, r_ in zip(ok["source"], ok["row"])]]
        picked.append(ok.head(per_game_top))
    effects = pd.concat(picked, ignore_index=True) if picked else pd.DataFrame(columns=COLUMNS)
    if len(effects):
        effects = effects.assign(size=effects["effect"].abs()).sort_values("size", ascending=False).head(top)
        effects = effects.drop(columns="size")
    if len(effects):
        effects = effects.assign(text=effects["title"] + ": " + effects["text"])
    return pd.concat([pd.DataFrame(rows, columns=COLUMNS), effects], ignore_index=True)
