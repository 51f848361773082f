"""The all-games balance study: standard line-ups per game, simulated and analysed.

`simulate_study` plays every standard run of every installed game (optionally storing each
results table under `out_dir/<game>/<run>.parquet`); `load_study_runs` reads such a folder
back; `analyse_study` turns the runs into a `Study` of DataFrames that `reports.build`
renders. Simulation and analysis are separate so a report can be rebuilt from stored runs.

Standard runs of a game (n = the study's games per game):
- ``main``: the game's default player count, its strongest policy in every seat (n games):
  first-player advantage, seat win rates, game length, card/ability impact;
- ``mixed``: one seat per policy of the game's pool (n/2 games): win rate by policy. In a team
  game (Nerath's alliances) a fixed line-up would always pair the same two policies as
  partners, so the mixed games are split over line-ups that give every policy every partner
  (``mixed``, ``mixed-2``, ``mixed-3``);
- ``duel-A-B``: two-player games of each pair of pool policies (n/4 split over the pairs):
  the policy × policy matrix and ratings;
- ``sweep``: the main policy over each value of one rules field, e.g. players 2–5
  (n/4 per value, common random numbers);
- ``fix-<field>=<value>`` (or ``fix-<name>``): a candidate rule change (see `analyses.fixes`), n/2 games with the
  main run's seeds, played only when the game's Rules has that field.
"""
from __future__ import annotations

import dataclasses
import datetime
import importlib.util
import itertools
import platform
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from . import unit_cost
from .card_impact import CAVEAT, card_impact, faction_stats, opening_impact, purchase_mix, split_outcomes
from .checks import game_warnings
from .findings import game_findings, study_findings
from .first_player import first_player_advantage
from .fixes import Fix, available, fix_effects
from .game_length import game_length
from .games import KNOWN_GAMES, load_game
from .io import read_results, write_results
from .metadata import package_version
from .multiplicity import with_family
from .options import STUDY_GAMES
from .runner import simulate
from .sweep import effects
from .teams import teams
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
    impact: bool = True             # card/ability impact tables (opening hands: causal; in game: association)
    teams: bool = False             # seats win together (alliances): team framing, partners rotated
    fixes: tuple = ()               # candidate rule changes (analyses.fixes.Fix) tried when the field exists


DEFAULT_GAMES = STUDY_GAMES  # `balancelab report --games`: the study's size (see run_sizes)

PLANS = {
    "nightsim": StudyPlan("nightsim", "Nightmarium", "greedy", ("greedy", "purist", "aggressor", "random"),
                          fixes=(Fix("last_seat", "last_seat_extra_cards", 1,
                                     "deal the last seat one extra card at the start"),)),
    "dreamsim": StudyPlan("dreamsim", "Midnighters (Полуночники)", "heuristic",
                          ("runner", "trickster", "heuristic", "random"), weight=0.5),
    "nerathsim": StudyPlan("nerathsim", "D&D: Conquest of Nerath", "balanced",
                           ("balanced", "aggressive", "defensive", "random"), sweep_values=(2, 3, 4),
                           weight=0.1, impact=False, teams=True,
                           fixes=(Fix("team", "turn_order", ("karkoth", "iron_circle", "vailin", "nerath"),
                                      "let both realms of Karkoth's alliance move first (turn order Karkoth, "
                                      "Iron Circle, Vailin, Nerath)", name="turn_order=alliance_first"),
                                  Fix("team", "turn_order", "nerath_first",
                                      "let Nerath move first (turn order Nerath, Karkoth, Vailin, Iron Circle)"))),
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
    team_game: bool                 # seats win together: teams, not seats, are the unit of balance
    teams: pd.DataFrame             # per team (alliance): win rate vs fair share (empty unless team_game)
    fixes: pd.DataFrame             # rule changes tried: before/after (analyses.fixes.fix_effects)
    fix_ideas: tuple                # every candidate Fix of the plan (played or not)
    impact_outcomes: pd.DataFrame   # outcome-like stats (completions, activations, VP): shown apart
    main_policy: str
    pool: tuple
    extra: dict                     # title -> DataFrame (game-specific tables)
    assumptions: pd.DataFrame       # from the game's RULES.md
    seed: int
    setup_note: str = ""            # the game's SETUP_NOTE: what its board and starting forces are (shown first)
    findings: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)   # analyses.findings
    warnings: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)   # analyses.checks
    family: object = None           # analyses.multiplicity.Family: the game's tests, adjusted together
    ladder_findings: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)  # the skill ladder's, by rung
    confirmation: object = None     # analyses.replication.Measured: the fresh run the findings are confirmed on
    #: each card (family) in the opening hand: causal, paired within deals (analyses.card_impact.opening_impact)
    opening_impact: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)
    #: policy -> `analyses.sensitivity` table (shipped or given): each claim's quantity under every other reading
    sensitivity: dict = dataclasses.field(default_factory=dict)
    #: run name -> the engine that played it ('kernel' or 'python'; `run_engines`)
    engines: dict = dataclasses.field(default_factory=dict)
    #: run name -> why engine='auto' played it with Python (the kernel's refusal), for the runs that fell back
    engine_fallbacks: dict = dataclasses.field(default_factory=dict)


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
    findings: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)   # across games (verdicts first)

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


PARTNER_ORDERS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))   # partners (seats 0+2, 1+3): ac/bd, ab/cd, ad/bc


def run_sizes(plan: StudyPlan, n_games: int, module=None) -> dict[str, int]:
    """Games per run of `plan` for `n_games` (fixes only when `module`'s Rules has their field)."""
    n = max(8, int(n_games * plan.weight))
    pairs = list(itertools.combinations(plan.pool, 2))
    sizes = {"main": n}
    if plan.teams and len(plan.pool) == 4:
        for k, name in enumerate(_mixed_names()):
            sizes[name] = max(4, n // 2 // len(PARTNER_ORDERS))
    else:
        sizes["mixed"] = max(8, n // 2)
    for a, b in pairs:
        sizes[f"duel-{a}-{b}"] = max(4, n // (4 * len(pairs)))
    for value in plan.sweep_values:
        sizes[f"sweep-{plan.sweep_field}={value}"] = max(4, n // 4)
    for fix in (available(module, plan.fixes) if module is not None else ()):
        sizes[fix.run] = max(8, n // 2)
    return sizes


def _mixed_names() -> list[str]:
    return ["mixed"] + [f"mixed-{k + 1}" for k in range(1, len(PARTNER_ORDERS))]


def describe_sizes(sizes: dict) -> str:
    """'main 3,000 · mixed 1,500 · 6 duels × 125 · players 2–5: 4 × 750' (for the stage line)."""
    parts, duels, sweeps, mixed = [], [], [], []
    for run, n in sizes.items():
        if run.startswith("duel-"):
            duels.append(n)
        elif run.startswith("sweep-"):
            sweeps.append((run[len("sweep-"):], n))
        elif run.startswith("mixed"):
            mixed.append(n)
        else:
            parts.append(f"{run} {n:,}")
    if mixed:
        parts.insert(1, f"mixed {sum(mixed):,}" + (f" ({len(mixed)} partner line-ups)" if len(mixed) > 1 else ""))
    if duels:
        parts.append(f"{len(duels)} duels × {duels[0]:,}")
    if sweeps:
        field = sweeps[0][0].split("=")[0]
        values = [s.split("=", 1)[1] for s, _ in sweeps]
        parts.append(f"{field} {values[0]}–{values[-1]}: {len(sweeps)} × {sweeps[0][1]:,}")
    return " · ".join(parts)


def simulate_study(n_games: int = 4000, games=None, seed: int = 0, n_jobs: int = 1, out_dir=None,
                   progress: bool = True, engine: str = "auto") -> tuple[dict, dict]:
    """Play the standard runs of each installed game. Returns ({game: {run: df}}, skipped).

    engine: `simulate`'s, for every run ('auto': the game's batch kernel where it plays the run's rules
    and line-up, else Python; each run's ``attrs["engine"]`` and ``engine_fallback`` say which and why).
    The card games' kernels play the Python engine's games, so the tables are the same either way."""
    plans, skipped = available_games(games)
    runs = {}
    for stage, (name, plan) in enumerate(plans.items(), 1):
        module = load_game(name)
        base_players = module.Rules().players
        sizes = run_sizes(plan, n_games, module)
        game_runs = {}
        with _stage_bar(progress, stage, len(plans), plan, sizes) as bar:
            for run, size in sizes.items():
                rules, policies = _run_setup(plan, run, base_players)
                bar.set_postfix_str(_run_label(run, policies), refresh=True)
                df = simulate(name, size, rules=rules, policies=policies, seed=seed, n_jobs=n_jobs, progress=bar,
                              engine=engine)
                df.attrs["study_run"] = run
                game_runs[run] = df
                if out_dir is not None:
                    write_results(df, Path(out_dir) / name / f"{run}.parquet")
            bar.set_postfix_str("done", refresh=True)
        runs[name] = game_runs
    return runs, skipped


def _stage_bar(progress: bool, stage: int, stages: int, plan: StudyPlan, sizes: dict):
    """One labelled bar per game (stage), after a stage line saying what it plays."""
    if progress:
        print(f"[{stage}/{stages}] {plan.title}: {sum(sizes.values()):,} games — {describe_sizes(sizes)}",
              file=sys.stderr, flush=True)
    return tqdm(total=sum(sizes.values()), desc=f"[{stage}/{stages}] {plan.title}", unit="game",
                disable=not progress, dynamic_ncols=True, smoothing=0.1, file=sys.stderr)


def _run_label(run: str, policies) -> str:
    """What the bar shows while a run plays, e.g. 'duel: greedy vs purist'."""
    if run.startswith("duel-"):
        return "duel: " + " vs ".join(policies)
    if isinstance(policies, str):
        return f"{run.replace('sweep-', '').replace('fix-', 'rule change: ')} ({policies} in every seat)"
    return f"{run}: {', '.join(policies)}"


def _run_setup(plan: StudyPlan, run: str, players: int):
    if run == "main":
        return None, [plan.main] * players
    if run.startswith("mixed"):
        pool = [plan.pool[i % len(plan.pool)] for i in range(players)]
        if plan.teams and len(pool) == len(PARTNER_ORDERS[0]):
            order = PARTNER_ORDERS[_mixed_names().index(run)]
            pool = [pool[i] for i in order]
        return None, pool
    if run.startswith("fix-"):
        fix = next((f for f in plan.fixes if f.run == run), None)
        if fix is None:
            raise ValueError(f"run {run!r} is not a rule change of the {plan.game} study")
        return {fix.field: fix.value}, plan.main
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
        df = read_results(path)
        try:
            folder_game = load_game(path.parent.name).__name__
        except ValueError:
            folder_game = path.parent.name
        if folder_game != load_game(df.attrs["game"]).__name__:
            raise ValueError(f"{str(path)!r}: metadata field 'game' is {df.attrs['game']!r}, but the file is in the "
                             f"folder of {path.parent.name}: move it to {load_game(df.attrs['game']).__name__}/")
        runs.setdefault(path.parent.name, {})[path.stem] = df
    if not runs:
        raise ValueError(f"{str(folder)!r} holds no study results (<game>/<run>.parquet)")
    return runs


def analyse_study(runs: dict, skipped: dict | None = None, command: str = "", seed: int = 0,
                  n_games: int = 0) -> Study:
    """Every analysis of the report, from the runs of `simulate_study` / `load_study_runs`."""
    order = sorted(runs, key=lambda g: (list(PLANS).index(g) if g in PLANS else len(PLANS), g))
    games = {name: analyse_game(name, runs[name]) for name in order}
    across = study_findings(games)
    return Study(games=games, findings=across, command=command, seed=seed, n_games=n_games,
                 created=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                 package_version=package_version(), git_commit=_git_commit(),
                 machine=f"{platform.node()} · {platform.machine()} · Python {platform.python_version()}",
                 skipped=dict(skipped or {}))


def analyse_game(name: str, game_runs: dict) -> GameStudy:
    plan = PLANS.get(name) or StudyPlan(name, name, "", ())
    main = game_runs["main"]
    fpa = first_player_advantage(main)
    main_rates = win_rates(main)
    mixed_runs = [df for run, df in game_runs.items() if run.startswith("mixed")]
    mixed = win_rates(pd.concat(mixed_runs, ignore_index=True)) if mixed_runs else None
    duels = [df for run, df in game_runs.items() if run.startswith("duel-")]
    duel_rates = win_rates(pd.concat(duels, ignore_index=True)) if duels else None
    sweep_runs = {run.split("=", 1)[1]: df for run, df in game_runs.items() if run.startswith("sweep-")}
    sweep_field = next((run[len("sweep-"):].split("=")[0] for run in game_runs if run.startswith("sweep-")), "")
    sweep_table = effects(sweep_runs) if sweep_runs else pd.DataFrame()
    sweep_seats = (first_player_advantage(pd.concat(list(sweep_runs.values()), ignore_index=True)).seats
                   if sweep_runs else pd.DataFrame())
    impact_all = card_impact(main).impact if plan.impact else pd.DataFrame()
    impact, impact_outcomes = split_outcomes(impact_all)
    team_game = plan.teams
    fixes = fix_effects(main, {run: df for run, df in game_runs.items() if run.startswith("fix-")}, plan.fixes)
    policy_reprs = {}
    for df in game_runs.values():
        policy_reprs.update(zip(df.attrs.get("policies", []), df.attrs.get("policy_reprs", [])))
    g = GameStudy(
        game=name, title=plan.title, rules_version=str(main.attrs.get("rules_version", "")),
        rules=main.attrs.get("rules", {}), policy_reprs=policy_reprs,
        games_played=sum(len(df) for df in game_runs.values()),
        runs={run: len(df) for run, df in game_runs.items()},
        engines=run_engines(game_runs), engine_fallbacks=run_engine_fallbacks(game_runs),
        fpa_summary=fpa.summary, fpa_seats=fpa.seats, outcomes=main_rates.outcomes,
        by_policy=mixed.by_policy if mixed else pd.DataFrame(),
        by_faction=main_rates.by_faction,
        matrix=duel_rates.matrix if duel_rates else pd.DataFrame(),
        ratings=duel_rates.ratings if duel_rates else pd.DataFrame(),
        length=game_length(main).summary, turns=main["turns"].astype(int),
        sweep_field=sweep_field, sweep=sweep_table, sweep_seats=sweep_seats,
        impact=impact, impact_caveat=CAVEAT, team_game=team_game,
        teams=teams(main) if team_game else pd.DataFrame(), fixes=fixes, fix_ideas=tuple(plan.fixes),
        impact_outcomes=impact_outcomes, main_policy=plan.main, pool=tuple(plan.pool),
        extra=game_extras(name, main, fpa.events),
        assumptions=rules_assumptions(name), seed=int(main.attrs.get("seed", 0)), setup_note=setup_note(name),
        opening_impact=opening_impact(main) if plan.impact else pd.DataFrame(),
    )
    g = with_family(g)
    return dataclasses.replace(g, findings=game_findings(g), warnings=game_warnings(g))


def run_engines(game_runs: dict) -> dict:
    """{run: the engine that played it} from each run's metadata (runs stored before engines were
    recorded were all played by the Python engine)."""
    return {run: str(df.attrs.get("engine", "python")) for run, df in game_runs.items()}


def run_engine_fallbacks(game_runs: dict) -> dict:
    """{run: why engine='auto' played it with Python} for the runs whose metadata says so."""
    return {run: str(df.attrs["engine_fallback"]) for run, df in game_runs.items() if df.attrs.get("engine_fallback")}


def game_extras(name: str, main: pd.DataFrame, events: pd.DataFrame) -> dict:
    """Game-specific tables: per-game events (e.g. the Midnight Horror won), Nerath's unit costs."""
    extras = {"Game events (main run)": events} if len(events) else {}
    mix = purchase_mix(main)
    if len(mix):
        extras["Purchase mix: share of gold per unit type, winners vs losers (main run; association)"] = mix
    if name == "nerathsim":
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
        extras["Best 12-gold army attacking 12 footsoldiers (exact)"] = unit_cost.best_army(12, role="attack").head(5)
        extras["Best 12-gold army defending against 12 footsoldiers (exact)"] = (
            unit_cost.best_army(12, role="defence").head(5))
        extras["Break-even prices against footsoldiers (exact)"] = unit_cost.break_even_prices().reset_index()
        extras["Lanchester scaling (exact battles, fitted exponent)"] = unit_cost.lanchester_fits().reset_index()
    return extras


def setup_note(game: str) -> str:
    """The game module's ``SETUP_NOTE`` (a static sentence such as "the board is a reconstruction"), or ""
    for a game without one or one that cannot be imported here."""
    try:
        module = load_game(game)
    except ValueError:
        return ""
    return str(getattr(module, "SETUP_NOTE", "") or "")


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

    The first column is taken as the id when it looks like one (G3, D12; a decision id after it is
    kept: "G2 (D-win-timing)"), else the row's decision id (**D-...**) or a dash; the next two columns
    are the gap and the decision taken.
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
        ident = re.match(r"^([A-Z]{1,3}\d+[a-z]?)(?:[,\s]+(.*))?$", cells[0])   # "G2" or "G2, **D-win-timing**"
        if ident and len(cells) >= 3:
            extra = _plain(ident.group(2) or "")
            rows.append((ident.group(1) + (f" ({extra})" if extra else ""), _plain(cells[1]), _plain(cells[2])))
        elif len(cells) >= 2:   # a table without an id column: the row's decision id (**D-...**) if it has one
            named = re.search(r",?\s*\*\*(D-[\w-]+)\*\*", cells[0])
            gap = cells[0].replace(named.group(0), "") if named else cells[0]
            rows.append((named.group(1) if named else "—", _plain(gap), _plain(cells[1])))
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
