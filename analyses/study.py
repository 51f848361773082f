"""The all-games balance study: standard line-ups per game, simulated and analysed.

`simulate_study` plays every standard run of every installed game (optionally storing each
results table under `out_dir/<game>/<run>.parquet`); `load_study_runs` reads such a folder
back; `analyse_study` turns the runs into a `Study` of DataFrames that `reports.build`
renders. Simulation and analysis are separate so a report can be rebuilt from stored runs.

Standard runs of a game (n = the study's games per game):
- ``main``: the game's default player count, its strongest policy in every seat (n games):
  first-player advantage, seat win rates, game length, card/ability impact;
- ``mixed``: one seat per policy of the game's pool (n/2 games): win rate by policy;
- ``duel-A-B``: two-player games of each pair of pool policies (n/4 split over the pairs):
  the policy × policy matrix and ratings;
- ``sweep``: the main policy over each value of one rules field, e.g. players 2–5
  (n/4 per value, common random numbers).
"""
from __future__ import annotations

import dataclasses
import datetime
import importlib.util
import itertools
import platform
import re
import subprocess
from pathlib import Path

import pandas as pd

from .card_impact import CAVEAT, card_impact, purchase_mix
from .first_player import first_player_advantage
from .game_length import game_length
from .games import KNOWN_GAMES, load_game
from .io import read_results, write_results
from .metadata import package_version
from .runner import simulate
from .sweep import effects
from .win_rates import win_rates


@dataclasses.dataclass(frozen=True)
class StudyPlan:
    """The standard line-ups of one game."""

    game: str
    title: str
    main: str                       # policy in every seat of the main run
    pool: tuple[str, ...]           # policies compared in the mixed run and the duels
    sweep_field: str = "players"
    sweep_values: tuple = (2, 3, 4, 5)
    weight: float = 1.0             # share of the study's games (slow games get fewer)
    impact: bool = True             # card/ability impact table


PLANS = {
    "nightsim": StudyPlan("nightsim", "Nightmarium", "greedy", ("greedy", "purist", "aggressor", "random")),
    "dreamsim": StudyPlan("dreamsim", "Midnighters (Полуночники)", "heuristic",
                          ("runner", "trickster", "heuristic", "random"), weight=0.5),
    "nerathsim": StudyPlan("nerathsim", "D&D: Conquest of Nerath", "balanced",
                           ("balanced", "aggressive", "defensive", "random"), sweep_values=(2, 3, 4),
                           weight=0.1, impact=False),
}


@dataclasses.dataclass(frozen=True)
class GameStudy:
    """Everything the report shows for one game (DataFrames and plain values)."""

    game: str
    title: str
    rules_version: str
    rules: dict
    policy_reprs: dict
    games_played: int
    runs: dict                      # run name -> number of games
    fpa_summary: pd.DataFrame
    fpa_seats: pd.DataFrame
    outcomes: pd.DataFrame
    by_policy: pd.DataFrame
    by_faction: pd.DataFrame
    matrix: pd.DataFrame
    ratings: pd.DataFrame
    length: pd.DataFrame
    turns: pd.Series
    sweep_field: str
    sweep: pd.DataFrame
    sweep_seats: pd.DataFrame
    impact: pd.DataFrame
    impact_caveat: str
    extra: dict                     # title -> DataFrame (game-specific tables)
    assumptions: pd.DataFrame       # from the game's RULES.md
    seed: int


@dataclasses.dataclass(frozen=True)
class Study:
    games: dict                     # game name -> GameStudy
    command: str
    seed: int
    n_games: int
    created: str
    package_version: str
    git_commit: str
    machine: str
    skipped: dict                   # game -> reason it is not in the study

    @property
    def games_played(self) -> int:
        return sum(g.games_played for g in self.games.values())


def available_games(names=None) -> tuple[dict, dict]:
    """(plans of installed games, {game: reason} for the others)."""
    plans, skipped = {}, {}
    for name in names or PLANS:
        if name not in PLANS:
            raise ValueError(f"no standard study for game {name!r}; known: {', '.join(PLANS)}")
        try:
            module = load_game(name)
            missing = [p for p in (PLANS[name].main, *PLANS[name].pool) if p not in module.POLICIES]
            if missing:
                raise ValueError(f"policies {missing} not available")
        except ValueError as exc:
            skipped[name] = str(exc)
            continue
        plans[name] = PLANS[name]
    return plans, skipped


def run_sizes(plan: StudyPlan, n_games: int) -> dict[str, int]:
    n = max(8, int(n_games * plan.weight))
    pairs = list(itertools.combinations(plan.pool, 2))
    sizes = {"main": n, "mixed": max(8, n // 2)}
    for a, b in pairs:
        sizes[f"duel-{a}-{b}"] = max(4, n // (4 * len(pairs)))
    for value in plan.sweep_values:
        sizes[f"sweep-{plan.sweep_field}={value}"] = max(4, n // 4)
    return sizes


def simulate_study(n_games: int = 4000, games=None, seed: int = 0, n_jobs: int = 1, out_dir=None,
                   progress: bool = True) -> tuple[dict, dict]:
    """Play the standard runs of each installed game. Returns ({game: {run: df}}, skipped)."""
    plans, skipped = available_games(games)
    runs = {}
    for name, plan in plans.items():
        module = load_game(name)
        base_players = module.Rules().players
        sizes = run_sizes(plan, n_games)
        game_runs = {}
        for run, size in sizes.items():
            rules, policies = _run_setup(plan, run, base_players)
            df = simulate(name, size, rules=rules, policies=policies, seed=seed, n_jobs=n_jobs, progress=progress)
            df.attrs["study_run"] = run
            game_runs[run] = df
            if out_dir is not None:
                write_results(df, Path(out_dir) / name / f"{run}.parquet")
        runs[name] = game_runs
    return runs, skipped


def _run_setup(plan: StudyPlan, run: str, players: int):
    if run == "main":
        return None, [plan.main] * players
    if run == "mixed":
        return None, [plan.pool[i % len(plan.pool)] for i in range(players)]
    if run.startswith("duel-"):
        a, b = run[len("duel-"):].split("-", 1)
        return {"players": 2}, [a, b]
    field, value = run[len("sweep-"):].split("=", 1)
    value = int(value) if value.lstrip("-").isdigit() else value
    return {field: value}, plan.main


def load_study_runs(folder) -> dict:
    """Read `folder/<game>/<run>.parquet` files written by `simulate_study(out_dir=...)`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"cannot read study folder {str(folder)!r}: no such folder")
    runs = {}
    for path in sorted(folder.glob("*/*.parquet")):
        runs.setdefault(path.parent.name, {})[path.stem] = read_results(path)
    if not runs:
        raise ValueError(f"{str(folder)!r} holds no study results (<game>/<run>.parquet)")
    return runs


def analyse_study(runs: dict, skipped: dict | None = None, command: str = "", seed: int = 0,
                  n_games: int = 0) -> Study:
    """Every analysis of the report, from the runs of `simulate_study` / `load_study_runs`."""
    order = sorted(runs, key=lambda g: (list(PLANS).index(g) if g in PLANS else len(PLANS), g))
    games = {name: analyse_game(name, runs[name]) for name in order}
    return Study(games=games, command=command, seed=seed, n_games=n_games,
                 created=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                 package_version=package_version(), git_commit=_git_commit(),
                 machine=f"{platform.node()} · {platform.machine()} · Python {platform.python_version()}",
                 skipped=dict(skipped or {}))


def analyse_game(name: str, game_runs: dict) -> GameStudy:
    plan = PLANS.get(name) or StudyPlan(name, name, "", ())
    main = game_runs["main"]
    fpa = first_player_advantage(main)
    main_rates = win_rates(main)
    mixed = win_rates(game_runs["mixed"]) if "mixed" in game_runs else None
    duels = [df for run, df in game_runs.items() if run.startswith("duel-")]
    duel_rates = win_rates(pd.concat(duels, ignore_index=True)) if duels else None
    sweep_runs = {run.split("=", 1)[1]: df for run, df in game_runs.items() if run.startswith("sweep-")}
    sweep_field = next((run[len("sweep-"):].split("=")[0] for run in game_runs if run.startswith("sweep-")), "")
    sweep_table = effects(sweep_runs) if sweep_runs else pd.DataFrame()
    sweep_seats = (first_player_advantage(pd.concat(list(sweep_runs.values()), ignore_index=True)).seats
                   if sweep_runs else pd.DataFrame())
    impact = card_impact(main).impact if plan.impact else pd.DataFrame()
    policy_reprs = {}
    for df in game_runs.values():
        policy_reprs.update(zip(df.attrs.get("policies", []), df.attrs.get("policy_reprs", [])))
    return GameStudy(
        game=name, title=plan.title, rules_version=str(main.attrs.get("rules_version", "")),
        rules=main.attrs.get("rules", {}), policy_reprs=policy_reprs,
        games_played=sum(len(df) for df in game_runs.values()),
        runs={run: len(df) for run, df in game_runs.items()},
        fpa_summary=fpa.summary, fpa_seats=fpa.seats, outcomes=main_rates.outcomes,
        by_policy=mixed.by_policy if mixed else pd.DataFrame(),
        by_faction=main_rates.by_faction,
        matrix=duel_rates.matrix if duel_rates else pd.DataFrame(),
        ratings=duel_rates.ratings if duel_rates else pd.DataFrame(),
        length=game_length(main).summary, turns=main["turns"].astype(int),
        sweep_field=sweep_field, sweep=sweep_table, sweep_seats=sweep_seats,
        impact=impact, impact_caveat=CAVEAT, extra=game_extras(name, main, fpa.events),
        assumptions=rules_assumptions(name), seed=int(main.attrs.get("seed", 0)),
    )


def game_extras(name: str, main: pd.DataFrame, events: pd.DataFrame) -> dict:
    """Game-specific tables: per-game events (e.g. the Midnight Horror won), Nerath's unit costs."""
    extras = {"Game events (main run)": events} if len(events) else {}
    mix = purchase_mix(main)
    if len(mix):
        extras["Purchase mix: share of gold per unit type, winners vs losers (main run; association)"] = mix
    if name == "nerathsim":
        from . import unit_cost
        from .card_impact import faction_stats
        cards = faction_stats(main, ("events_played", "cards_cancelled", "cards_weakened", "card_gold", "card_units", "dungeons_explored",
                                     "dungeons_won/dungeons_explored", "treasures", "treasure_vp"))
        if len(cards):
            extras["Cards and dungeons per realm (main run: mean per game, 95% t interval; "
                   "dungeon success: Wilson)"] = cards
        extras["Unit efficiency (exact)"] = unit_cost.unit_efficiency().reset_index()
        duels = unit_cost.duel_matrix()
        for budget in unit_cost.BUDGETS:
            extras[f"Equal-budget duels, {budget} gold: attacker's win chance (exact)"] = (
                unit_cost.duel_pivot(duels, budget).reset_index())
        extras["Best 12-gold army on attack (exact)"] = unit_cost.best_army(12, role="attack").head(5)
        extras["Best 12-gold army on defence (exact)"] = unit_cost.best_army(12, role="defence").head(5)
        extras["Break-even prices against footsoldiers (exact)"] = unit_cost.break_even_prices().reset_index()
        extras["Lanchester scaling (exact battles, fitted exponent)"] = unit_cost.lanchester_fits().reset_index()
    return extras


def rules_assumptions(game: str) -> pd.DataFrame:
    """The gap-decision rows of the game's RULES.md (id, gap, decision), for the methodology."""
    spec = importlib.util.find_spec(KNOWN_GAMES.get(game, game))
    rows = []
    if spec is None or spec.origin is None:
        return pd.DataFrame(rows, columns=["id", "gap", "decision"])
    for path in sorted(Path(spec.origin).parent.glob("RULES*.md")):
        rows += _decision_rows(path.read_text(encoding="utf-8"))
    return pd.DataFrame(rows, columns=["id", "gap", "decision"])


def _decision_rows(text: str) -> list[tuple[str, str, str]]:
    """Rows of the tables under a heading that mentions gaps: (id, gap, decision).

    The first column is taken as the id when it looks like one (G3, D12), else rows are
    numbered; the next two columns are the gap and the decision taken.
    """
    rows, in_gaps, header_seen = [], False, False
    for line in text.splitlines():
        if line.startswith("#"):
            in_gaps, header_seen = bool(re.search(r"\bgaps?\b", line, re.I)), False
            continue
        if not in_gaps or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not header_seen or set("".join(cells)) <= set("-: "):
            header_seen = True
            continue
        if re.match(r"^[A-Z]{1,3}\d+[a-z]?$", cells[0]) and len(cells) >= 3:
            rows.append((cells[0], _plain(cells[1]), _plain(cells[2])))
        elif len(cells) >= 2:
            rows.append((f"#{len(rows) + 1}", _plain(cells[0]), _plain(cells[1])))
    return rows


def _plain(cell: str) -> str:
    return re.sub(r"[*`]", "", cell)


def _git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).parent)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"
