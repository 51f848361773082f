"""Discovery, then confirmation: every claim of the report is selected on one run and measured on another.

The study's runs are the *discovery* run: `analyses.findings` selects the claims whose p-value,
adjusted over the game's family (`analyses.multiplicity`), is below 0.05. A selected number is biased
by its selection (the winner's curse), so each claim is played again on a fresh, independent
*confirmation* run: the same line-ups and rules, the same number of games as the discovery run (or
``scale`` times it), with seeds from a different branch of the run seed's SeedSequence
(`confirmation_seed`). Only the runs a selected claim needs are played (a seat or card claim: the
main run; a policy claim: the mixed table; a dominant policy: its duels; a sweep claim: that
setting; a rule change: the main run and the change, paired), so the report's extra cost is the size
of what it found, and nothing when it found nothing.

- `confirmation_seed(seed)`: the confirmation's run seed.
- `needed_runs(g)`: {run: games} of game study `g` that its selected claims need.
- `simulate_confirmation(study, ...)`: play them for every game -> {game: {run: df}}.
- `measure(name, runs)`: the tables of a confirmation run (`Measured`), as `analyses.study` builds them.
- `confirm_study(study, runs)`: `study` with each game's `confirmation` set and its findings regenerated.
- `confirmed_findings(discovery, confirmation, game)`: the library's entry point from results frames.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd

from .card_impact import card_impact, opening_impact, split_outcomes
from .findings import game_findings, study_findings
from .first_player import first_player_advantage
from .fixes import fix_effects
from .games import load_game
from .io import read_results, write_results
from .multiplicity import named_test
from .runner import simulate
from .study import PLANS, StudyPlan, _run_setup, _stage_bar, analyse_game
from .teams import teams
from .win_rates import win_rates

#: the SeedSequence branch of the confirmation runs (the discovery's games use spawn keys (deal, 0))
CONFIRM_BRANCH = 0x636F6E66   # "conf"
CONFIRM_DIR = "confirm"


def confirmation_seed(seed: int) -> int:
    """The run seed of the confirmation: a different branch of `seed`'s SeedSequence, so its games share
    no seed with the discovery run's."""
    state = np.random.SeedSequence(int(seed), spawn_key=(CONFIRM_BRANCH,)).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


@dataclasses.dataclass(frozen=True)
class Measured:
    """The tables of a confirmation run (empty where the run did not play what a table needs)."""

    seed: int
    runs: dict
    fpa_seats: pd.DataFrame
    teams: pd.DataFrame
    by_policy: pd.DataFrame
    matrix: pd.DataFrame
    impact: pd.DataFrame
    sweep_seats: pd.DataFrame
    fixes: pd.DataFrame
    opening_impact: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)

    @property
    def games_played(self) -> int:
        return sum(self.runs.values())


def _key(finding) -> dict:
    return json.loads(finding["key"]) if finding["key"] else {}


def needed_runs(g) -> dict:
    """{run: games} that the selected claims of game study `g` need (sized as the discovery run)."""
    f = g.findings
    if not len(f) or "selected" not in f:
        return {}
    need = []
    for _, r in f[f["selected"].astype(bool)].iterrows():
        source = r["source"]
        if source in ("fpa_seats", "teams", "impact", "opening_impact"):
            need.append("main")
        elif source == "by_policy":
            need += [run for run in g.runs if run.startswith("mixed")]
        elif source == "matrix":
            best = _key(r).get("policy")
            need += [run for run in g.runs if run.startswith("duel-") and best in run[len("duel-"):].split("-", 1)]
        elif source == "sweep_seats":
            players = _key(r).get("players")
            need += [run for run in g.runs if run == f"sweep-players={players}"]
        elif source == "fixes":
            change = _key(r).get("change")
            rows = g.fixes[g.fixes["change"].astype(str) == str(change)]
            need.append("main")
            need += [run for run in g.runs if run.startswith("fix-") and len(rows) and _fix_run(g, rows.iloc[0]) == run]
    return {run: g.runs[run] for run in dict.fromkeys(need) if run in g.runs}


def _fix_run(g, row) -> str | None:
    for fix in g.fix_ideas:
        if fix.field == row["field"] and str(fix.value) == str(row["value"]):
            return fix.run
    return None


def simulate_confirmation(study, seed: int = 0, n_jobs: int = 1, scale: float = 1.0, out_dir=None,
                          progress: bool = True, engine: str = "auto") -> dict:
    """Play the confirmation runs of every game of `study` ({game: {run: df}}; games whose claims need
    none are left out). `scale` multiplies each run's size (1: as large as the discovery run).
    engine: `simulate`'s for every run (as `study.simulate_study`)."""
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    fresh = confirmation_seed(seed)
    out = {}
    needs = {name: needed_runs(g) for name, g in study.games.items()}
    needs = {name: sizes for name, sizes in needs.items() if sizes}
    for stage, (name, sizes) in enumerate(needs.items(), 1):
        plan = PLANS.get(name) or StudyPlan(name, name, "", ())
        module = load_game(name)
        sizes = {run: max(4, int(round(n * scale))) for run, n in sizes.items()}
        label = dataclasses.replace(plan, title=f"{plan.title}: confirmation")
        runs = {}
        with _stage_bar(progress, stage, len(needs), label, sizes) as bar:
            for run, size in sizes.items():
                rules, policies = _run_setup(plan, run, module.Rules().players)
                df = simulate(name, size, rules=rules, policies=policies, seed=fresh, n_jobs=n_jobs, progress=bar,
                              engine=engine)
                df.attrs["study_run"] = run
                runs[run] = df
                if out_dir is not None:
                    write_results(df, Path(out_dir) / name / CONFIRM_DIR / f"{run}.parquet")
        out[name] = runs
    return out


def load_confirmation_runs(folder) -> dict:
    """The confirmation runs stored by `simulate_confirmation(out_dir=...)` ({} when there are none)."""
    runs = {}
    for path in sorted(Path(folder).glob(f"*/{CONFIRM_DIR}/*.parquet")):
        runs.setdefault(path.parent.parent.name, {})[path.stem] = read_results(path)
    return runs


def _labelled(table: pd.DataFrame) -> pd.DataFrame:
    if not len(table):
        return table
    out = table.copy()
    out["test"] = out["method"].map(named_test) if "method" in out.columns else ""
    return out


def measure(name: str, runs: dict) -> Measured:
    """The tables of a confirmation run `runs` ({run: df}) of game `name`, built as the study builds them."""
    plan = PLANS.get(name) or StudyPlan(name, name, "", ())
    empty = pd.DataFrame()
    main = runs.get("main")
    seats = first_player_advantage(main).seats if main is not None else empty
    mixed = [df for run, df in runs.items() if run.startswith("mixed")]
    duels = [df for run, df in runs.items() if run.startswith("duel-")]
    sweeps = [df for run, df in runs.items() if run.startswith("sweep-")]
    fix_runs = {run: df for run, df in runs.items() if run.startswith("fix-")}
    impact = split_outcomes(card_impact(main).impact)[0] if main is not None and plan.impact else empty
    return Measured(
        seed=int(main.attrs.get("seed", 0)) if main is not None else 0,
        runs={run: len(df) for run, df in runs.items()},
        fpa_seats=_labelled(seats),
        teams=_labelled(teams(main)) if main is not None and plan.teams else empty,
        by_policy=_labelled(win_rates(pd.concat(mixed, ignore_index=True)).by_policy) if mixed else empty,
        matrix=_labelled(win_rates(pd.concat(duels, ignore_index=True)).matrix) if duels else empty,
        impact=_labelled(impact),
        sweep_seats=_labelled(first_player_advantage(pd.concat(sweeps, ignore_index=True)).seats) if sweeps else empty,
        fixes=_labelled(fix_effects(main, fix_runs, plan.fixes)) if main is not None and fix_runs else empty,
        opening_impact=_labelled(opening_impact(main)) if main is not None and plan.impact else empty,
    )


def confirm_study(study, runs: dict):
    """`study` with each game's findings confirmed on `runs` ({game: {run: df}} of the confirmation)."""
    games = {}
    for name, g in study.games.items():
        measured = measure(name, runs[name]) if runs.get(name) else _nothing(g)
        g = dataclasses.replace(g, confirmation=measured)
        games[name] = dataclasses.replace(g, findings=game_findings(g))
    return dataclasses.replace(study, games=games, findings=study_findings(games))


def _nothing(g):
    """A game whose claims needed no run: an empty confirmation (no claim is left unmeasured)."""
    empty = pd.DataFrame()
    return Measured(0, {}, empty, empty, empty, empty, empty, empty, empty)


def confirmed_findings(discovery, confirmation=None, game: str | None = None) -> pd.DataFrame:
    """The findings of one game, selected on `discovery` and measured on `confirmation`.

    Each is a results DataFrame (`simulate`: the main run) or a dict {run name: DataFrame} of a study's
    runs (`main`, `mixed`, `duel-A-B`, `sweep-players=N`, `fix-...`); `game` defaults to
    ``discovery.attrs["game"]``. Without `confirmation`, selected claims read "not yet confirmed"."""
    discovery = discovery if isinstance(discovery, dict) else {"main": discovery}
    if "main" not in discovery:
        raise ValueError(f"discovery: needs a 'main' run, got runs {', '.join(map(str, discovery)) or 'none'}")
    name = game or discovery["main"].attrs.get("game")
    if not name:
        raise ValueError("game: give the game's name (the discovery frame has no attrs['game'])")
    g = analyse_game(name, discovery)
    if confirmation is None:
        return game_findings(g)
    confirmation = confirmation if isinstance(confirmation, dict) else {"main": confirmation}
    return game_findings(g, measure(name, confirmation))
