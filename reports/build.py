"""`build(study, out_path)`: one self-contained HTML balance report from an `analyses.Study`.

Renders only: every number comes from the DataFrames of the study (findings and warnings
included: `analyses.findings`, `analyses.checks`). Templates are jinja2 with autoescaping, so a
policy or rules value can never inject markup; tables are rendered by pandas with escaping and
then marked safe.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import pandas as pd
from markupsafe import Markup, escape

from analyses import safe_io
from analyses.confirmed import TITLE as CONFIRMED_TITLE
from analyses.multiplicity import named_test, p_label

from . import figures
from .ladder import ladder_view
from .replay import write_replays
from .sensitivity import sensitivity_view
from .words import (
    GLOSSARY,
    interval_cell,
    label,
    people_seats,
    plain_value,
    policy_parameters,
    present,
    turn_words,
)

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("reports", "templates"),
    autoescape=jinja2.select_autoescape(["html", "j2"], default=True),
    undefined=jinja2.StrictUndefined,
)
_ENV.filters["plain"] = plain_value     # a rules value as text: never a raw Python tuple or list
_ENV.filters["words"] = lambda text: Markup(_keep_words(f">{escape(str(text))}<")[1:-1])   # no word split
WARNING_WORDS = {"few_games": "fewer than 30 games", "extreme_rate": "0% or 100%", "zero_turns": "0-turn games",
                 "timeouts": "turn cap over 1%", "rank_disagreement": "rankings disagree"}


@dataclass(frozen=True)
class Figure:
    title: str
    caption: str
    uri: str
    width: int = 520


@dataclass(frozen=True)
class Table:
    title: str
    note: str
    html: Markup
    open: bool = False
    warnings: list = field(default_factory=list)


def build(study, out_path="balance-report.html", ladders=None, replays=None) -> Path:
    """Write the report for `study` (from `analyses.study.analyse_study`) and return its path.

    ladders: optional {game: analyses.ladder.Ladder} (stored by `balancelab ladder --out`): each
    such game gets a "Skill ladder" section rendered from it.
    replays: optional {game: analyses.replay.GameRecord} (`analyses.replay.example_replays`): each is
    written as a replay page into `<report name>-replays/` next to the report and linked under
    "Watch a game".
    """
    ladders = ladders or {}
    games = {name: _game_view(g, ladders.get(name)) for name, g in study.games.items()}
    out = Path(out_path)
    links = _replay_links(replays or {}, out)
    html = _ENV.get_template("report.html.j2").render(
        study=_StudyView(study, games), glossary=GLOSSARY, findings=_finding_items(study.findings),
        warning_words=WARNING_WORDS, replays=links, stored=stored_results(study, ladders))
    out.parent.mkdir(parents=True, exist_ok=True)
    return safe_io.write_text(out, html)


def _replay_links(replays: dict, out: Path) -> list[dict]:
    """Write the replay pages beside the report; the links the "Watch a game" section shows."""
    if not replays:
        return []
    folder = f"{out.stem}-replays"
    paths = write_replays(replays, out.parent / folder)
    return [{"game": game, "title": r.title, "source": r.source, "turns": r.result["turns"],
             "href": f"{folder}/{paths[game].name}"} for game, r in replays.items()]


def stored_results(study, ladders) -> list[dict]:
    """Where each stored result the report renders came from (the appendix): kind, game, command,
    commit, date, rules version, games; one entry per result."""
    out = []
    for name, g in study.games.items():
        ladder = ladders.get(name)
        if ladder is not None and (ladder.metadata.get("shipped") or {}).get("details"):
            out.append(ladder.metadata["shipped"]["details"])
        for table in list(g.extra.values()) + list((getattr(g, "sensitivity", None) or {}).values()):
            details = table.attrs.get("shipped")
            details = details.get("details") if isinstance(details, dict) and "details" in details else details
            if details and details not in out:
                out.append(details)
    return out


class _StudyView:
    """The study with its games replaced by render-ready views."""

    def __init__(self, study, games):
        self._study, self.games = study, games

    def __getattr__(self, name):
        return getattr(self._study, name)


def headline(g) -> dict:
    """The headline numbers of a game (all read from the study's tables): the seat furthest from
    its fair share (in a team game the weakest alliance), not simply seat 1."""
    summary = g.fpa_summary.iloc[0]
    if getattr(g, "team_game", False) and len(g.teams):
        row = g.teams.loc[g.teams["win_rate"].idxmin()]
        unit = f"{row['team'].replace('_', ' ')} alliance"
    else:
        row = headline_seat(g)
        seat, players = int(row["seat"]), int(summary["players"])
        where = " (first to play)" if seat == 0 else " (last to play)" if seat == players - 1 else ""
        unit = f"seat {seat + 1}{where}, the largest gap from the fair share"
    timeouts = g.outcomes[g.outcomes["outcome"] == "timeout"].iloc[0]
    family = getattr(g, "family", None)
    pcol = "p_family" if family is not None and "p_family" in row.index and pd.notna(row["p_family"]) else "p_value"
    test = str(row["test"]) if "test" in row.index and isinstance(row["test"], str) else named_test(row.get("method"))
    p_shown = float(row[pcol])
    chi2_p = float(g.fpa_summary.iloc[0].get("p_family", summary["chi2_p"]))
    if not pd.notna(chi2_p):
        chi2_p = float(summary["chi2_p"])
    chi2_test = named_test(summary.get("method"))
    return {
        "players": int(summary["players"]), "lineup": str(summary["lineup"]), "games": int(summary["games"]),
        "unit": unit, "win_rate": float(row["win_rate"]),
        "effect_pp": float(row["effect_pp"]), "expected": float(row["expected"]),
        "effect_low": 100 * (float(row["ci_low"]) - float(row["expected"])),
        "effect_high": 100 * (float(row["ci_high"]) - float(row["expected"])),
        "p_value": p_shown, "balance": float(summary["balance"]),
        "chi2_p": chi2_p, "timeout_rate": float(timeouts["rate"]),
        "timeout_low": float(timeouts["ci_low"]), "timeout_high": float(timeouts["ci_high"]),
        "p_text": p_label(p_shown, test, family if pcol == "p_family" else None),
        "chi2_text": p_label(chi2_p, chi2_test, family if "p_family" in g.fpa_summary else None),
    }


def headline_seat(g) -> pd.Series:
    """The main run's seat whose win rate is furthest from its fair share."""
    seats = g.fpa_seats[g.fpa_seats["lineup"] == g.fpa_summary.iloc[0]["lineup"]]
    return seats.loc[seats["effect_pp"].abs().idxmax()]


class _GameView:
    def __init__(self, g, **parts):
        self._g = g
        self.__dict__.update(parts)

    def __getattr__(self, name):
        return getattr(self._g, name)


def _game_view(g, ladder=None) -> _GameView:
    h = headline(g)
    warnings = g.warnings if len(g.warnings) else pd.DataFrame(columns=["kind", "source", "row", "message"])
    return _GameView(g, headline=h, figures=_figures(g, h), tables=_tables(g, warnings),
                     assumptions_html=_html(present(g.assumptions).map(lambda t: people_seats(t)),
                                            max_rows=None),
                     finding_items=_finding_items(g.findings, warnings),
                     family_words=g.family.words() if getattr(g, "family", None) is not None else "",
                     confirm_games=(g.confirmation.games_played if getattr(g, "confirmation", None) is not None
                                    else None),
                     warning_list=_warning_list(warnings), engine_text=engine_text(g),
                     policy_params={name: policy_parameters(r) for name, r in g.policy_reprs.items()},
                     ladder=ladder_view(ladder, lambda df: _html(df, max_rows=None), _ladder_findings(g))
                     if ladder is not None else None,
                     readings=sensitivity_view(g, lambda df: _html(df, max_rows=None)))


def engine_text(g) -> str:
    """Which engine played the game's runs, in words: the compiled batch kernel (the same games as the
    Python engine for the same seeds) or the Python engine, and for a run where the kernel was asked for
    and could not play, why ("" for a study that recorded no engines)."""
    engines = dict(getattr(g, "engines", None) or {})
    fallbacks = dict(getattr(g, "engine_fallbacks", None) or {})
    if not engines:
        return ""
    kernel = [run for run, e in engines.items() if e == "kernel"]
    python = [run for run, e in engines.items() if e != "kernel"]
    reasons = list(dict.fromkeys(fallbacks[run] for run in python if run in fallbacks))
    why = f" ({'; '.join(reasons)})" if reasons else ""
    if not python:
        return "Engine: the compiled batch kernel (it plays the Python engine's games for the same seeds)."
    if not kernel:
        return f"Engine: Python{why}."
    return (f"Engine: the compiled batch kernel for {', '.join(kernel)} (the Python engine's games for the same seeds); "
            f"Python for {', '.join(python)}{why}.")


def _ladder_findings(g):
    """The ladder's findings judged within the game's family (`analyses.robustness`), when they are."""
    table = getattr(g, "ladder_findings", None)
    return table if table is not None and len(table) else None


def _finding_items(findings: pd.DataFrame, warnings: pd.DataFrame | None = None) -> list[dict]:
    items = []
    for _, f in findings.iterrows() if findings is not None and len(findings) else []:
        marks = []
        if warnings is not None and f["source"] and len(warnings):
            hit = warnings[(warnings["source"] == f["source"]) & (warnings["row"] == f["row"])]
            marks = [WARNING_WORDS[k] for k in dict.fromkeys(hit["kind"])]
        items.append({"text": f["text"], "kind": f["kind"], "game": f["game"], "source": f["source"],
                      "row": int(f["row"]), "numbers": f["numbers"], "significant": bool(f["significant"]),
                      "warnings": marks, "status": str(f.get("status", "") or ""),
                      "confirm_row": int(f.get("confirm_row", -1)), "confirm_numbers": str(f.get("confirm_numbers", "") or ""),
                      "robustness": str(f.get("robustness", "") or "")})
    return items


def _warning_list(warnings: pd.DataFrame) -> list[dict]:
    """One line per warning kind and table (the row messages collapsed to a count and an example)."""
    out = []
    for (kind, source), rows in warnings.groupby(["kind", "source"], sort=False):
        msg = rows.iloc[0]["message"]
        more = f" (and {len(rows) - 1} more in this table)" if len(rows) > 1 else ""
        out.append({"kind": kind, "words": WARNING_WORDS[kind], "where": _SOURCE_TITLES.get(source, source),
                    "message": msg + more})
    return out


_SOURCE_TITLES = {"fpa_seats": "win rate by seat", "fpa_summary": "seat test summary", "teams": "win rate by alliance",
                  "by_policy": "mixed table", "by_faction": "win rate by realm", "matrix": "two-player duels",
                  "sweep_seats": "sweep, seats", "sweep": "sweep", "fixes": "rule changes tried",
                  "impact": "card and ability impact", "opening_impact": "opening-hand impact", "length": "game length",
                  "extra:Game events (main run)": "game events"}


def _figures(g, h) -> list[Figure]:
    figs = []
    if g.team_game and len(g.teams):
        teams = g.teams.assign(team=g.teams["team"].str.replace("_", " "))
        figs.append(Figure("win rate by alliance", f"Win rate of each alliance, {h['games']:,} games; bars: 95% "
                           "intervals; dashed: fair share (two alliances: 50%).",
                           figures.rate_bars(teams, "team", f"{g.title}: win rate by alliance")))
    else:
        seats = g.fpa_seats[g.fpa_seats["lineup"] == h["lineup"]].assign(seat=lambda t: t["seat"] + 1)
        figs.append(Figure("win rate by seat", f"Win rate by seat (1 = first to play), {h['players']} players, "
                           f"{h['games']:,} games, {g.main_policy} policy in every seat; bars: 95% intervals; "
                           "dashed: fair share.", figures.rate_bars(seats, "seat", f"{g.title}: win rate by seat")))
    if len(g.by_faction):
        note = " Realms of one alliance win together, so their bars match their alliance's." if g.team_game else ""
        figs.append(Figure("win rate by faction", "Win rate of each realm, 95% intervals." + note,
                           figures.rate_bars(g.by_faction, "faction", f"{g.title}: win rate by realm")))
    if len(g.by_policy):
        how = " Partners are rotated so no policy always plays with the same ally." if g.team_game else ""
        figs.append(Figure("win rate by policy", "Each policy's win rate at the mixed table (one seat per policy, "
                           "seats rotated), 95% intervals." + how,
                           figures.rate_bars(g.by_policy, "policy", f"{g.title}: win rate by policy")))
    if len(g.matrix):
        figs.append(Figure("policy matrix", "Two-player duels: the row policy's win rate against the column "
                           "policy, with the games each cell rests on (n).",
                           figures.heatmap(g.matrix, f"{g.title}: policy × policy"), 480))
    edge, tail = figures.histogram_bulk(g.turns)
    tail_note = f" The {tail:,} longest games (over {edge:,} turns) are counted in the legend, not drawn." if tail else ""
    turn, axis = turn_words(g.game)
    k = figures.step(g.turns)
    steps = (f" Every game lasted a multiple of {k} turns (a game ends only after a full round), so the bars are "
             f"{k} turns apart." if k > 1 else "")
    figs.append(Figure("game length", f"Turns per game in the main run ({h['games']:,} games); a turn is {turn}."
                       f"{steps}{tail_note}",
                       figures.histogram(g.turns, f"{g.title}: game length", xlabel=f"turns ({axis})")))
    sweep = _sweep_figure(g)
    if sweep is not None:
        figs.append(sweep)
    efficiency = g.extra.get("Unit efficiency (exact)")
    if efficiency is not None:
        figs.append(Figure("unit efficiency", "Expected hits per gold on attack and defence, and hits absorbed "
                           "per gold (exact, land battles).", figures.hits_per_gold(efficiency, "Unit cost efficiency"), 700))
    duels = g.extra.get("Equal-budget duels, 12 gold: attacker's win chance (exact)")
    if duels is not None:
        figs.append(Figure("equal-budget duels", "Each unit type attacking each other with 12 gold of each: "
                           "the attacker's exact win chance.",
                           figures.pivot_heatmap(duels, "Equal-budget duels (12 gold)", "defender", "attacker"), 520))
    opening = getattr(g, "opening_impact", None)
    if opening is not None and len(opening) and "finding" in opening.columns and opening["finding"].any():
        shown = opening[opening["finding"].astype(bool)]
        figs.append(Figure("opening-hand impact", "Win rate of seats dealt each card group in their opening hand minus "
                           "seats dealt none, paired within deals (main run; 95% intervals). The deal decides who holds "
                           "a card, so this is its effect, not an association; these rows are the ones Findings are "
                           "stated from.", figures.opening_bars(shown, f"{g.title}: opening hand, with − without"), 620))
    if len(g.impact):
        figs.append(Figure("card and ability impact", "Win rate of seats with vs without each card, ability or "
                           "event (main run), every row of the table below. " + g.impact_caveat,
                           figures.impact_bars(g.impact, f"{g.title}: card and ability impact"), 620))
    if len(g.impact_outcomes):
        figs.append(Figure("outcomes, not causes", "Outcome-like statistics (the win condition or progress towards "
                           "it): they rise with winning by definition, so they are shown apart from the impact.",
                           figures.impact_bars(g.impact_outcomes, f"{g.title}: outcomes (not causes)"), 620))
    return figs


def _sweep_figure(g) -> Figure | None:
    if not len(g.sweep):
        return None
    turns = g.sweep[g.sweep["metric"] == "turns"]
    field = g.sweep_field
    if g.team_game:
        rates = g.sweep[g.sweep["metric"].str.endswith("_win_rate") & (g.sweep["metric"] != "seat0_win_rate")]
        lines = pd.DataFrame({"group": rates["metric"].str[:-len("_win_rate")].str.replace("+", " + "),
                              "value": rates["value"], "y": 100 * rates["estimate"], "low": 100 * rates["ci_low"],
                              "high": 100 * rates["ci_high"]})
        ylabel, what = "win rate (%)", "each realm's (or alliance's) win rate"
    else:
        s = g.sweep_seats
        lines = pd.DataFrame({"group": "seat " + (s["seat"] + 1).astype(str), "value": s["players"],
                              "y": s["effect_pp"], "low": 100 * (s["ci_low"] - s["expected"]),
                              "high": 100 * (s["ci_high"] - s["expected"])})
        ylabel, what = "win rate − fair share (points)", "each seat's win rate minus its fair share"
    return Figure("sweep", f"Sweep of {field.replace('_', ' ')}: {what} (95% intervals) and mean turns, "
                  "same seeds for every value.", figures.sweep_lines(lines, turns, field, f"{g.title}: {field}", ylabel), 820)


def _marked(table: pd.DataFrame, warnings: pd.DataFrame, source: str) -> pd.DataFrame:
    """`table` (already in words) with a ⚠ column naming the warnings of each flagged row."""
    rows = warnings[warnings["source"] == source] if len(warnings) else warnings
    if not len(rows) or not len(table):
        return table
    marks = {}
    for _, w in rows.iterrows():
        marks.setdefault(int(w["row"]), []).append(WARNING_WORDS[w["kind"]])
    column = ["; ".join(dict.fromkeys(marks.get(i, []))) for i in range(len(table))]
    return table.assign(**{"⚠": column}) if any(column) else table


def _table(title, note, df, warnings, source="", open_=False, keep=(), family=None) -> Table:
    shown = present(df.reset_index(drop=True), keep=keep)
    shown = _marked(shown, warnings, source) if source else shown
    if family is not None:       # the adjusted p-value's header names its adjustment and family
        shown = shown.rename(columns={"p-value (adjusted over this game's tests)": f"p-value ({family.words()})"})
    return Table(title, note, _html(shown), open_)


def _tables(g, warnings) -> list[Table]:
    t = []
    family = getattr(g, "family", None)
    opening = getattr(g, "opening_impact", None)

    def _table(*args, **kwargs):
        return _plain_table(*args, **kwargs, family=family)

    if g.team_game:
        t.append(_table("Win rate by alliance", "each alliance against its fair share; the test of each row is named "
                        "beside its p-values (unadjusted, and adjusted over this game's tests)",
                        g.teams, warnings, "teams", True))
        t.append(_table("Win rate by realm", "realms of one alliance win together", g.by_faction, warnings, "by_faction"))
    else:
        lineup = g.fpa_summary.iloc[0]["lineup"]
        seats = g.fpa_seats[g.fpa_seats["lineup"] == lineup]
        t.append(_table("Win rate by seat", "seat 1 plays first; each seat against its fair share (exact binomial, or the "
                        "deal as the unit when seats rotate); the test is named beside the p-values (unadjusted, and "
                        "adjusted over this game's tests)", seats, warnings, "fpa_seats", True))
        t.append(_table("Seat test summary", "are all seats equal (χ²), balance, and the games needed to detect a "
                        "1-point seat edge", g.fpa_summary.rename(columns=_detect_label), warnings, "fpa_summary"))
    if len(g.fixes):
        t.append(_table("Rule changes tried", "the same deals before and after the change (paired)",
                        g.fixes, warnings, "fixes", True))
    t.append(_table("Outcomes", "games with a winner, turn-cap timeouts, games without a winner", g.outcomes, warnings))
    t.append(_table("Game length", "turns and decisions per game", g.length, warnings))
    if len(g.by_policy):
        t.append(_table("Win rate by policy (mixed table)", "one seat per policy" +
                        (", partners rotated" if g.team_game else ""), g.by_policy, warnings, "by_policy"))
    if len(g.matrix):
        t.append(Table("Two-player duels", "row policy's win rate against the column policy [95% interval], n games",
                       _html(_duel_pivot(g.matrix, warnings))))
    if len(g.ratings):
        t.append(_table("Policy ratings", "one strength per policy from all duels (Bradley–Terry, Elo scale)",
                        g.ratings, warnings))
    if len(g.sweep):
        t.append(Table(f"Sweep of {g.sweep_field.replace('_', ' ')}", "each measure per setting [95% interval]; "
                       "changes are paired against the first setting", _html(_sweep_pivot(g.sweep))))
    if opening is not None and len(opening):
        kinds = ", ".join(opening.attrs.get("finding_kinds", []))
        t.append(_table("Opening-hand impact (causal)", "win rate with the card (or card group) in the starting hand "
                        "minus without, paired within deals; the deal randomises who holds it. Rows of kind "
                        f"{kinds or 'card, family'} are tests of this game's family and may become Findings; the "
                        "others are adjusted (Holm) within this table only", opening, warnings, "opening_impact"))
    if len(g.impact):
        t.append(_table("Card and ability impact (association)", g.impact_caveat + " Never stated as a Finding.",
                        g.impact, warnings, "impact"))
    if len(g.impact_outcomes):
        t.append(_table("Outcomes, not causes", "the win condition or progress towards it", g.impact_outcomes, warnings))
    for title, table in g.extra.items():
        t.append(_extra_table(title, table, warnings))
    return t


def _detect_label(column: str) -> str:
    if column.startswith("games_to_detect_"):
        return f"games needed to detect a {column[len('games_to_detect_'):-2]}-point seat edge"
    return column


def _duel_pivot(matrix: pd.DataFrame, warnings: pd.DataFrame) -> pd.DataFrame:
    flagged = set(warnings.loc[warnings["source"] == "matrix", "row"]) if len(warnings) else set()
    cells = matrix.assign(cell=[interval_cell(r.win_rate, r.ci_low, r.ci_high, "rate", n=r.games) + f", n={int(r.games)}"
                                + (" ⚠" if i in flagged else "") for i, r in matrix.iterrows()])
    pivot = cells.pivot_table(index="policy", columns="opponent", values="cell", aggfunc="first", observed=True)
    pivot = pivot.fillna("–").reset_index()
    pivot.columns = ["policy ↓ against →"] + [str(c).replace("_", " ") for c in pivot.columns[1:]]
    return pivot


def _sweep_pivot(sweep: pd.DataFrame) -> pd.DataFrame:
    def cell(r):
        text = interval_cell(r["estimate"], r["ci_low"], r["ci_high"], "metric", str(r["metric"]), n=r["n"])
        if pd.notna(r.get("diff")):
            change = interval_cell(r["diff"], r["diff_ci_low"], r["diff_ci_high"], "metric_diff", str(r["metric"]))
            text += f"; change {change.split(' [')[0]}"
        return text + f", n={int(r['n'])}"
    cells = sweep.assign(cell=[cell(r) for _, r in sweep.iterrows()])
    order = list(dict.fromkeys(sweep["metric"]))
    pivot = cells.pivot_table(index="metric", columns="value", values="cell", aggfunc="first", sort=False)
    pivot = pivot.reindex(order).fillna("–").reset_index()
    pivot["metric"] = pivot["metric"].map(lambda m: "seat 1 win rate" if m == "seat0_win_rate" else label(m))
    pivot.columns = ["measure ↓ setting →"] + [str(c) for c in pivot.columns[1:]]
    return pivot


_plain_table = _table


def _extra_table(title: str, table: pd.DataFrame, warnings) -> Table:
    if title.startswith("Game events"):
        return _table(title, "yes/no events per game", table, warnings, "extra:" + title, True)
    if title.startswith("Cards and dungeons per realm"):
        cells = table.assign(cell=[interval_cell(r["mean"], r["ci_low"], r["ci_high"],
                                                 "rate" if "/" in str(r["stat"]) else "number")
                                   for _, r in table.iterrows()])
        pivot = cells.pivot_table(index="stat", columns="faction", values="cell", aggfunc="first", sort=False)
        pivot = pivot.reindex(list(dict.fromkeys(table["stat"]))).reset_index()
        pivot["stat"] = pivot["stat"].map(lambda s: s.replace("dungeons_won/dungeons_explored", "dungeon success rate")
                                          .replace("_", " "))
        pivot.columns = ["per game ↓ realm →"] + [str(c).replace("_", " ") for c in pivot.columns[1:]]
        n = int(table["games"].max()) if len(table) else 0
        return Table(title, f"mean per game [95% interval] over {n:,} games", _html(pivot))
    if title.startswith("Equal-budget duels"):
        pivot = table.copy()
        pivot.columns = ["attacker ↓ defender →"] + [str(c).replace("_", " ") for c in pivot.columns[1:]]
        pivot.iloc[:, 0] = pivot.iloc[:, 0].astype(str).str.replace("_", " ")
        for c in pivot.columns[1:]:
            pivot[c] = [f"{100 * v:.0f}%" for v in pivot[c]]
        return Table(title, "the attacker's chance to win, exact", _html(pivot))
    if title.startswith("Unit efficiency"):
        land = [c for c in table.columns if not c.startswith("sea_")]
        sea = ["unit"] + [c for c in table.columns if c.startswith("sea_")]
        html = _html(present(table[land])) + Markup("<p class='note'>At sea:</p>") + _html(
            present(table[sea].dropna(subset=[c for c in sea if c != "unit"], how="all")))
        return Table(title, "exact expectations per battle round", html)
    if title.startswith(CONFIRMED_TITLE):
        a = table.attrs
        note = (f"{a['words']} ({a['code']}; published: {a['published']}); the published rules and the change, "
                f"{a['games']:,} fresh games each, and the band each measure had to reach")
        return Table(title, note, _html(_confirmed_cells(table)), True)
    if title.startswith("Suggested fixes") and table.attrs.get("provenance"):
        return _table(title, table.attrs["provenance"], table, warnings)
    if title.startswith("Best "):
        return _table(title, "every army that spends exactly the budget, ranked by its exact chance to win against as many "
                      "footsoldiers as the budget buys", _no_empty(table), warnings)
    return _table(title, "", table, warnings)


def _confirmed_cells(table: pd.DataFrame) -> pd.DataFrame:
    """A confirmed change's measures: before and after [95% interval], games, the band to reach."""
    rows = []
    for _, r in table.iterrows():
        rate = str(r["measure"]).endswith("rate")
        kind = "rate" if rate else "number"
        band = (f"{100 * r['target_low']:.1f}–{100 * r['target_high']:.1f}%" if rate else
                f"{r['target_low']:.1f}–{r['target_high']:.1f}")
        rows.append({"measured": str(r["measure"]).replace("mean turns", "turns per game (mean)"),
                     "published rules [95% interval]": interval_cell(r["before"], r["before_low"], r["before_high"], kind),
                     "with the change [95% interval]": interval_cell(r["after"], r["after_low"], r["after_high"], kind),
                     "games each": f"{int(r['n']):,}", "band to reach": band,
                     "within the band, published → changed": f"{_yes(r['within_before'])} → {_yes(r['within_after'])}"})
    return pd.DataFrame(rows)


def _yes(v) -> str:
    return "yes" if bool(v) else "no"


def _no_empty(table: pd.DataFrame) -> pd.DataFrame:
    """Drop unit-count columns that are 0 in every row."""
    numeric = [c for c in table.columns if pd.api.types.is_integer_dtype(table[c]) and c != "rank"]
    return table.drop(columns=[c for c in numeric if (table[c] == 0).all()])


def _html(df: pd.DataFrame, max_rows: int | None = 60) -> Markup:
    """A DataFrame as an escaped HTML table (pandas escapes cell text), in a scrolling box. Cells wrap
    only between words (the stylesheet), and a hyphenated word ("p-value", "two-player") is kept on
    one line, so no word or number is ever split across lines."""
    text = df.to_html(index=False, escape=True, max_rows=max_rows, na_rep="–", border=0,
                      float_format=lambda v: f"{v:.4g}")
    return Markup('<div class="table-wrap">') + Markup(_keep_words(text)) + Markup("</div>")


_TEXT = re.compile(r">([^<]+)<")
_HYPHENATED = re.compile(r"(?=[^\s<>]*\w)[^\s<>]*[-–‐][^\s<>]*")   # a token with a hyphen or dash


SHORT_CELL = 36   # characters: a cell this short (a number with its interval) stays on one line


def _keep_words(html: str) -> str:
    """Wrap a short cell's text, and each hyphenated word of a longer one, in a no-wrap span (the
    cell text is already escaped, so it holds no markup)."""
    def cell(m):
        text = m.group(1)
        if not text.strip():
            return m.group(0)
        if len(text) <= SHORT_CELL:
            return f'><span class="nw">{text}</span><'
        return ">" + _HYPHENATED.sub(lambda w: f'<span class="nw">{w.group(0)}</span>', text) + "<"
    return _TEXT.sub(cell, html)
