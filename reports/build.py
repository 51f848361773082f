"""`build(study, out_path)`: one self-contained HTML balance report from an `analyses.Study`.

Renders only: every number comes from the DataFrames of the study. Templates are jinja2
with autoescaping, so a policy or rules value can never inject markup; tables are rendered
by pandas with escaping and then marked safe.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2
import pandas as pd
from markupsafe import Markup

from . import figures

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("reports", "templates"),
    autoescape=jinja2.select_autoescape(["html", "j2"], default=True),
    undefined=jinja2.StrictUndefined,
)


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


def build(study, out_path="balance-report.html") -> Path:
    """Write the report for `study` (from `analyses.study.analyse_study`) and return its path."""
    games = {name: _game_view(g) for name, g in study.games.items()}
    html = _ENV.get_template("report.html.j2").render(study=_StudyView(study, games))
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out


class _StudyView:
    """The study with its games replaced by render-ready views."""

    def __init__(self, study, games):
        self._study, self.games = study, games

    def __getattr__(self, name):
        return getattr(self._study, name)


def headline(g) -> dict:
    """The headline numbers of a game (all read from the study's tables)."""
    summary = g.fpa_summary.iloc[0]
    seat0 = g.fpa_seats[(g.fpa_seats["lineup"] == summary["lineup"]) & (g.fpa_seats["seat"] == 0)].iloc[0]
    timeouts = g.outcomes[g.outcomes["outcome"] == "timeout"].iloc[0]
    return {
        "players": int(summary["players"]), "lineup": str(summary["lineup"]), "games": int(summary["games"]),
        "effect_pp": float(seat0["effect_pp"]), "expected": float(seat0["expected"]),
        "effect_low": 100 * (float(seat0["ci_low"]) - float(seat0["expected"])),
        "effect_high": 100 * (float(seat0["ci_high"]) - float(seat0["expected"])),
        "p_value": float(seat0["p_value"]), "balance": float(summary["balance"]),
        "chi2_p": float(summary["chi2_p"]), "timeout_rate": float(timeouts["rate"]),
        "timeout_low": float(timeouts["ci_low"]), "timeout_high": float(timeouts["ci_high"]),
    }


class _GameView:
    def __init__(self, g, headline, figs, tables, assumptions_html):
        self._g, self.headline, self.figures, self.tables = g, headline, figs, tables
        self.assumptions_html = assumptions_html

    def __getattr__(self, name):
        return getattr(self._g, name)


def _game_view(g) -> _GameView:
    h = headline(g)
    return _GameView(g, h, _figures(g, h), _tables(g), _html(g.assumptions, max_rows=None))


def _figures(g, h) -> list[Figure]:
    figs = []
    seats = g.fpa_seats[g.fpa_seats["lineup"] == h["lineup"]]
    figs.append(Figure("win rate by seat", f"Win rate by seat, {h['players']} players ({h['lineup']}), {h['games']:,} games; "
                       "bars: Wilson 95% intervals; dashed: fair share.",
                       figures.rate_bars(seats, "seat", f"{g.title}: win rate by seat")))
    if len(g.by_policy):
        figs.append(Figure("win rate by policy", "Per-seat win rate of each policy at a mixed table, 95% intervals.",
                           figures.rate_bars(g.by_policy, "policy", f"{g.title}: win rate by policy")))
    if len(g.by_faction):
        figs.append(Figure("win rate by faction", "Win rate of each faction (realm), 95% intervals.",
                           figures.rate_bars(g.by_faction, g.by_faction.columns[1], f"{g.title}: win rate by faction")))
    if len(g.matrix):
        figs.append(Figure("policy matrix", "Two-player duels: row policy's win rate against the column policy.",
                           figures.heatmap(g.matrix, f"{g.title}: policy × policy"), 460))
    figs.append(Figure("game length", f"Turns per game in the main run ({h['games']:,} games).",
                       figures.histogram(g.turns, f"{g.title}: game length")))
    if len(g.sweep_seats):
        figs.append(Figure("sweep", f"Sweep of {g.sweep_field}: each seat's win rate minus its fair share (95% "
                           "intervals) and mean turns, same seeds for every value.",
                           figures.sweep_lines(g.sweep_seats, g.sweep, g.sweep_field, f"{g.title}: {g.sweep_field}"), 800))
    efficiency = g.extra.get("Unit efficiency (exact)")
    if efficiency is not None:
        figs.append(Figure("unit efficiency", "Expected hits per gold on attack and defence, and hits absorbed "
                           "per gold (exact, land battles).", figures.hits_per_gold(efficiency, "Unit cost efficiency"), 680))
    duels = g.extra.get("Equal-budget duels, 12 gold: attacker's win chance (exact)")
    if duels is not None:
        figs.append(Figure("equal-budget duels", "Each unit type attacking each other with 12 gold of each: "
                           "the attacker's exact win chance.",
                           figures.pivot_heatmap(duels, "Equal-budget duels (12 gold)", "defender", "attacker"), 460))
    if len(g.impact):
        figs.append(Figure("card and ability impact", "Win rate of seats with vs without each event (main run). "
                           + g.impact_caveat, figures.impact_bars(g.impact, f"{g.title}: card and ability impact"), 600))
    return figs


def _tables(g) -> list[Table]:
    tables = [
        Table("First-player advantage", "seat win rates vs fair share, exact binomial p-values", _html(g.fpa_seats), True),
        Table("Seat test summary", "χ² of equal seat wins, Balance, AdvantageP1, games to detect 1 point", _html(g.fpa_summary)),
        Table("Outcomes", "decided games and timeouts", _html(g.outcomes)),
        Table("Game length", "turns and decisions", _html(g.length)),
    ]
    if len(g.by_policy):
        tables.append(Table("Win rate by policy", "mixed table", _html(g.by_policy)))
    if len(g.by_faction):
        tables.append(Table("Win rate by faction", "", _html(g.by_faction)))
    if len(g.ratings):
        tables.append(Table("Policy ratings", "Bradley–Terry from the duels, Elo scale", _html(g.ratings)))
    if len(g.sweep):
        tables.append(Table(f"Sweep of {g.sweep_field}", "paired differences against the first value", _html(g.sweep)))
    if len(g.impact):
        tables.append(Table("Card and ability impact", g.impact_caveat, _html(g.impact)))
    for title, table in g.extra.items():
        tables.append(Table(title, "", _html(table), True))
    return tables


def _html(df: pd.DataFrame, max_rows: int | None = 60) -> Markup:
    """A DataFrame as an escaped HTML table (pandas escapes cell text)."""
    text = df.to_html(index=False, escape=True, max_rows=max_rows, na_rep="–", border=0,
                      float_format=lambda v: f"{v:.4g}")
    return Markup(text)
