"""The `balancelab` commands: the full argument parser and the simulate / fpa / winrates / length /
sweep commands. `analyses.cli` (the entry point) imports this module only when a command runs, so
`balancelab --help` answers without loading pandas, numba or the games.
"""
from __future__ import annotations

import argparse
import os
import sys
import textwrap
import time
from pathlib import Path

from . import (  # report; battle, units; games, policies, rules
    cli_info,
    cli_ladder,
    cli_nerath,
    cli_rebalance,
    cli_replay,
    cli_report,
    cli_sensitivity,
    cli_tune,
    limits,
)
from .checkpoint import simulate_to_file
from .cli import DESCRIPTION, EXAMPLES, PROG, Parser
from .cli_text import FORMATS, header, tables_text, write_frames
from .cli_types import assignment as _assignment
from .cli_types import comma_list as _comma_list
from .cli_types import jobs as _jobs
from .cli_types import non_negative_int as _non_negative_int
from .cli_types import positive_int as _positive_int
from .first_player import first_player_advantage
from .game_length import game_length
from .games import load_game
from .io import read_results
from .metadata import rules_dict
from .plan import SEAT_ORDERS
from .runner import BACKENDS, ENGINES, simulate
from .sweep import sweep
from .win_rates import win_rates


def build_parser() -> Parser:
    parser = Parser(prog=PROG, description=DESCRIPTION,
                    epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND", parser_class=Parser)

    sim = _command(commands, "simulate", "play games and write one row per game to a results file", run_simulate)
    _simulation_options(sim, game_required=True)
    sim.add_argument("--out", required=True, type=Path, help="results file (.parquet; .csv with --csv)")
    sim.add_argument("--csv", action="store_true", help="write CSV plus a .meta.json sidecar instead of Parquet")
    sim.add_argument("--resume", action="store_true", help="finish an interrupted run of the same command")
    sim.add_argument("--force", action="store_true", help="overwrite a finished --out file (start over)")

    for name, help_text, handler in (
        ("fpa", "first-player advantage: each seat's win rate against the fair share", run_fpa),
        ("winrates", "win rates by seat, policy and faction; policy matrix and ratings", run_winrates),
        ("length", "game length: turns and decisions, overall and by winning seat", run_length),
    ):
        sub = _command(commands, name, help_text, handler)
        _simulation_options(sub, game_required=False)
        sub.add_argument("--in", dest="input", type=Path, metavar="RESULTS", help="analyse a results file instead")
        _format_options(sub)
        if name == "winrates":
            sub.add_argument("--by", type=_comma_list, default=None, metavar="TABLES",
                             help="only these tables: outcomes, seat, policy, faction, matrix, ratings")

    sw = _command(commands, "sweep", "vary one rules field (or policy parameter) with common random numbers",
                  run_sweep)
    _simulation_options(sw, game_required=True)
    sw.add_argument("--field", required=True, help="Rules field (or policy parameter with --policy-param)")
    sw.add_argument("--values", required=True, type=_comma_list, help="comma-separated values, e.g. 2,3,4")
    sw.add_argument("--policy-param", metavar="POLICY", help="vary parameter FIELD of this registered policy")
    _format_options(sw)

    cli_nerath.add_subcommands(commands)
    cli_report.add_subcommands(commands)
    cli_replay.add_subcommands(commands)
    cli_rebalance.add_subcommands(commands)
    cli_tune.add_subcommands(commands)
    cli_ladder.add_subcommands(commands)
    cli_sensitivity.add_subcommands(commands)
    cli_info.add_subcommands(commands)
    cli_info.set_examples(commands)      # each subcommand's --help shows its own examples
    for sub in commands.choices.values():  # and the limits every size is checked against
        sub.epilog = (sub.epilog or "") + "\n" + textwrap.fill(limits.HELP, 100) + "\n"
        sub.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _command(commands, name: str, help_text: str, handler) -> Parser:
    sub = commands.add_parser(name, help=help_text, description=help_text, epilog=EXAMPLES,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.set_defaults(command=handler)
    return sub


def _format_options(sub: Parser) -> None:
    sub.add_argument("--format", choices=FORMATS, default="table",
                     help="table (compact, for people; default), or every column of every table for machines: "
                          "csv, json, parquet (parquet needs --out)")
    sub.add_argument("--out", type=Path, default=None, metavar="FILE",
                     help="with --format csv|json|parquet: write the tables here instead of printing them")


def _simulation_options(sub: Parser, game_required: bool) -> None:
    sub.add_argument("game", nargs=None if game_required else "?",
                     help="nightsim (nightmarium), dreamsim (midnighters), nerathsim (nerath) or a module path")
    sub.add_argument("--games", type=_positive_int, default=1000, help="number of games (default 1000)")
    sub.add_argument("--players", type=_positive_int, help="number of players (Rules.players)")
    sub.add_argument("--policies", help="one policy for every seat, or one per seat: greedy,random,random "
                     "(default: the game's main policy in every seat, as in `balancelab report`: "
                     f"{cli_info.default_policies_help()}; see `balancelab games` and `balancelab policies GAME`)")
    sub.add_argument("--seed", type=_non_negative_int, default=0, help="run seed (default 0)")
    sub.add_argument("--jobs", type=_jobs, default=1, help="parallel workers (-1 = all cores; default 1)")
    sub.add_argument("--backend", choices=BACKENDS, help="joblib backend (default loky)")
    sub.add_argument("--scheduler", help="address of a running dask scheduler, e.g. tcp://host:8786 (implies --backend dask)")
    sub.add_argument("--rule", action="append", default=[], type=_assignment, metavar="FIELD=VALUE",
                     help="change a Rules field (repeatable), e.g. --rule creatures_to_win=6; "
                          "`balancelab rules GAME` lists the fields")
    sub.add_argument("--seat-order", choices=SEAT_ORDERS, default="rotate",
                     help="rotate (paired games, default), random or fixed")
    sub.add_argument("--chunk-size", type=_positive_int, help="games per joblib task (default: automatic)")
    sub.add_argument("--engine", choices=ENGINES, default="python",
                     help="python (the reference engine, default), kernel (the game's compiled batch kernel: "
                          "same rules; nightsim's plays the same games) or auto (the kernel when it plays these rules and "
                          "policies)")
    sub.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")


# --- commands ---------------------------------------------------------------------------

def run_simulate(args) -> int:
    out = args.out.with_suffix(".csv") if args.csv else args.out
    if not args.resume:  # a resumed run plays only what is missing; timing games for it would play more
        announce_duration(args, args.games)
    started = time.perf_counter()
    df = simulate_to_file(args.game, args.games, out, resume=args.resume, force=args.force, csv=args.csv,
                          chunk_size=args.chunk_size, **_run_options(args))
    print(_header(df))
    print(f"wrote {len(df)} games to {out} in {time.perf_counter() - started:.1f} s")
    return 0


def run_fpa(args) -> int:
    return _report(args, first_player_advantage)


WINRATE_TABLES = {"outcomes": "outcomes", "seat": "by_seat", "policy": "by_policy", "faction": "by_faction",
                  "matrix": "matrix", "ratings": "ratings"}


def run_winrates(args) -> int:
    if args.by is None:
        return _report(args, win_rates)
    unknown = [b for b in args.by if b not in WINRATE_TABLES]
    if unknown:
        raise ValueError(f"--by: unknown table(s) {', '.join(unknown)}; allowed: {', '.join(WINRATE_TABLES)}")
    df = _results(args)
    tables = win_rates(df).tables()
    return _print(args, df, {WINRATE_TABLES[by]: tables[WINRATE_TABLES[by]] for by in args.by})


def run_length(args) -> int:
    return _report(args, game_length)


def run_sweep(args) -> int:
    options = _run_options(args)
    announce_duration(args, args.games * len(args.values))
    result = sweep(args.game, args.field, args.values, args.games, policy_param=args.policy_param,
                   chunk_size=args.chunk_size, **options)
    first = next(iter(result.runs.values()))
    what = f"{args.policy_param}.{args.field}" if args.policy_param else args.field
    others = _rules_text(first.attrs, skip=() if args.policy_param else (args.field,))
    swept = (f"{what} swept over {', '.join(map(str, result.runs))} (the same deals for every value); "
             f"other rules {others.replace(' (others as published)', '; others as published')}")
    return _print(args, first, result.tables(), swept=swept)


def _report(args, question) -> int:
    df = _results(args)
    return _print(args, df, question(df).tables())


def _print(args, df, tables: dict, swept: str | None = None) -> int:
    """The tables for people (a header and compact tables), or every column for machines (--format)."""
    if args.format != "table":
        text = write_frames(tables, args.format, args.out)
        print(text if text is not None else f"wrote {args.format} to {args.out}", end="" if text else "\n")
        return 0
    if args.out is not None:
        raise ValueError("--out needs --format csv, json or parquet (the table is printed)")
    print(_header(df, swept) + "\n")
    print(tables_text(tables))
    return 0


def _results(args):
    """The results to analyse: read from --in, or simulated on the spot."""
    if (args.input is None) == (args.game is None):
        raise ValueError("give either a GAME to simulate or --in RESULTS to read")
    if args.input is not None:
        return read_results(args.input)
    announce_duration(args, args.games)
    return simulate(args.game, args.games, chunk_size=args.chunk_size, **_run_options(args))


ANNOUNCE_AFTER = 30.0     # seconds: a run expected to take longer says so before it starts
TIMED_GAMES = 3           # games timed for the estimate (fewer when one game is slow)
MIN_GAMES_TO_TIME = 20    # a shorter run starts at once


def announce_duration(args, n_games: int, out=None, clock=time.perf_counter) -> float | None:
    """Time a few games of this run (on one worker, the Python engine; their results are not used)
    and, when the whole run is expected to take longer than ANNOUNCE_AFTER, print the estimate to
    stderr before it starts. Returns the estimate in seconds (None when not timed)."""
    if n_games < MIN_GAMES_TO_TIME or getattr(args, "engine", "python") != "python":
        return None     # a compiled kernel's first games time its compilation, not its games
    options = {**_run_options(args), "n_jobs": 1, "progress": False, "backend": None, "scheduler": None}
    per_game, played, started = 0.0, 0, clock()
    while played < TIMED_GAMES:
        simulate(args.game, 1, **{**options, "seed": options["seed"] + played})
        played += 1
        per_game = (clock() - started) / played
        if per_game > 1.0:          # one slow game is estimate enough
            break
    workers = (os.cpu_count() or 1) if args.jobs == -1 else args.jobs
    estimate = per_game * n_games / max(1, min(workers, n_games))
    if estimate > ANNOUNCE_AFTER:
        print(f"{PROG}: this run will take about {_duration(estimate)} ({n_games:,} games at about "
              f"{per_game:.2g} s a game from {played} timed game(s), {workers} worker(s)); Ctrl-C stops it",
              file=out or sys.stderr, flush=True)
    return estimate


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.1f} hours"


def _run_options(args) -> dict:
    """Keyword arguments for simulate/sweep from the shared options."""
    rules = dict(args.rule)
    if args.players is not None:
        rules["players"] = args.players
    return {"rules": rules or None, "policies": args.policies, "seed": args.seed, "n_jobs": args.jobs,
            "backend": args.backend, "seat_order": args.seat_order, "progress": args.progress,
            "scheduler": args.scheduler, "engine": args.engine}


def _header(df, swept: str | None = None) -> str:
    """What was played, in words (`analyses.cli_text.header`): game, games, seats, seed, line-up, rules."""
    try:
        default = cli_info.default_policy(load_game(df.attrs["game"]))
    except (KeyError, ValueError, ImportError):
        default = None
    return header(df, _rules_text(df.attrs), default, swept)


def _rules_text(attrs: dict, skip=()) -> str:
    """The rules that differ from the game's defaults (all of them if the game is not installed),
    leaving out the fields in `skip` (a sweep's field, named on its own)."""
    rules = {k: v for k, v in attrs.get("rules", {}).items() if k not in skip}
    try:
        defaults = rules_dict(load_game(attrs["game"]).Rules())
    except (KeyError, ValueError, ImportError):
        defaults = {}
    changed = {k: v for k, v in rules.items() if defaults.get(k, object()) != v}
    text = " ".join(f"{k}={v}" for k, v in changed.items())
    return f"{text} (others as published)" if text else "as published"


# --- argument types ---------------------------------------------------------------------
