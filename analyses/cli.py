"""The `balancelab` command: simulate to a file, or answer a balance question.

Bad input (unknown game, policy or rules field, a value of the wrong type, --games 0, an
unreadable or foreign results file) prints one line to stderr and exits with code 2.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import (  # report; battle, units; games, policies, rules
    cli_checks,
    cli_info,
    cli_ladder,
    cli_nerath,
    cli_rebalance,
    cli_report,
    cli_tune,
)
from .checkpoint import simulate_to_file
from .first_player import first_player_advantage
from .game_length import game_length
from .games import load_game
from .io import read_results
from .metadata import rules_dict
from .plan import SEAT_ORDERS
from .runner import BACKENDS, ENGINES, simulate
from .sweep import sweep
from .tables import format_table
from .win_rates import win_rates

PROG = "balancelab"
EXAMPLES = """\
examples:
  balancelab fpa nightsim --games 20000 --jobs 2
  balancelab simulate nightsim --games 100000 --players 3 --policies greedy,random,random \\
      --seed 7 --jobs 8 --out runs/greedy3.parquet
  balancelab simulate nightsim --games 100000 ... --out runs/greedy3.parquet --resume   # after Ctrl-C
  balancelab winrates --in runs/greedy3.parquet
  balancelab length nightsim --games 2000 --rule creatures_to_win=6
  balancelab sweep nightsim --field players --values 2,3,4,5 --games 4000 --jobs 2
  balancelab sweep nightsim --policy-param greedy --field weights.pure --values 0,2,5 \\
      --policies greedy,random,random,random --games 4000
  balancelab fpa nightsim --games 200000 --backend dask --scheduler tcp://host:8786
  balancelab games                  # the games; then: balancelab policies GAME, balancelab rules GAME
  balancelab report                 # the balance report of every game (the main job)
  balancelab ladder nightsim --jobs 2 --out runs/ladders/nightsim.json   # skill ladder; report --ladder
each command shows its own examples: balancelab COMMAND --help
"""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit code 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 2 bad input, 130 interrupted)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or an argparse error already printed
        return int(exc.code or 0)
    try:
        if getattr(args, "policies", "") is None and getattr(args, "game", None) is not None:
            args.policies = cli_info.default_policy(load_game(args.game))   # the game's main policy, not random
        cli_checks.validate(args)        # every value checked before any game is played
        return args.command(args)
    except (ValueError, OSError) as exc:
        print(f"{PROG}: error: {cli_checks.flag_words(_one_line(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        hint = " (rerun the same command with --resume to finish)" if getattr(args, "out", None) else ""
        print(f"{PROG}: interrupted{hint}", file=sys.stderr)
        return 130


def build_parser() -> Parser:
    parser = Parser(prog=PROG, description="Simulate tabletop games in bulk and answer balance questions.",
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
        if name == "winrates":
            sub.add_argument("--by", type=_comma_list, default=None, metavar="TABLES",
                             help="only these tables: outcomes, seat, policy, faction, matrix, ratings")

    sw = _command(commands, "sweep", "vary one rules field (or policy parameter) with common random numbers",
                  run_sweep)
    _simulation_options(sw, game_required=True)
    sw.add_argument("--field", required=True, help="Rules field (or policy parameter with --policy-param)")
    sw.add_argument("--values", required=True, type=_comma_list, help="comma-separated values, e.g. 2,3,4")
    sw.add_argument("--policy-param", metavar="POLICY", help="vary parameter FIELD of this registered policy")

    cli_nerath.add_subcommands(commands)
    cli_report.add_subcommands(commands)
    cli_rebalance.add_subcommands(commands)
    cli_tune.add_subcommands(commands)
    cli_ladder.add_subcommands(commands)
    cli_info.add_subcommands(commands)
    cli_info.set_examples(commands)      # each subcommand's --help shows its own examples
    return parser


def _command(commands, name: str, help_text: str, handler) -> Parser:
    sub = commands.add_parser(name, help=help_text, description=help_text, epilog=EXAMPLES,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.set_defaults(command=handler)
    return sub


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
                          "same rules, own random streams) or auto (the kernel when it plays these rules and "
                          "policies)")
    sub.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")


# --- commands ---------------------------------------------------------------------------

def run_simulate(args) -> int:
    out = args.out.with_suffix(".csv") if args.csv else args.out
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
    print(_header(df) + "\n")
    tables = win_rates(df).tables()
    for by in args.by:
        table = tables[WINRATE_TABLES[by]]
        print(f"== {WINRATE_TABLES[by]} ==\n{format_table(table) if len(table) else '(none for this game)'}\n")
    return 0


def run_length(args) -> int:
    return _report(args, game_length)


def run_sweep(args) -> int:
    options = _run_options(args)
    result = sweep(args.game, args.field, args.values, args.games, policy_param=args.policy_param,
                   chunk_size=args.chunk_size, **options)
    first = next(iter(result.runs.values()))
    what = f"{args.policy_param}.{args.field}" if args.policy_param else f"Rules.{args.field}"
    print(_header(first))
    print(f"sweep of {what} over {', '.join(map(str, result.runs))}; same seeds for every value\n")
    print(result.to_text())
    return 0


def _report(args, question) -> int:
    df = _results(args)
    print(_header(df) + "\n")
    print(question(df).to_text())
    return 0


def _results(args):
    """The results to analyse: read from --in, or simulated on the spot."""
    if (args.input is None) == (args.game is None):
        raise ValueError("give either a GAME to simulate or --in RESULTS to read")
    if args.input is not None:
        return read_results(args.input)
    return simulate(args.game, args.games, chunk_size=args.chunk_size, **_run_options(args))


def _run_options(args) -> dict:
    """Keyword arguments for simulate/sweep from the shared options."""
    rules = dict(args.rule)
    if args.players is not None:
        rules["players"] = args.players
    return {"rules": rules or None, "policies": args.policies, "seed": args.seed, "n_jobs": args.jobs,
            "backend": args.backend, "seat_order": args.seat_order, "progress": args.progress,
            "scheduler": args.scheduler, "engine": args.engine}


def _header(df) -> str:
    """Two lines saying what was played: game, rules version, games, seed, policies, changed rules."""
    a = df.attrs
    return (f"{a.get('game')} ({a.get('rules_version')}): {len(df)} games, seed {a.get('seed')}, "
            f"seat order {a.get('seat_order')}, policies {','.join(map(str, a.get('policies', [])))}\n"
            f"rules: {_rules_text(a)}")


def _rules_text(attrs: dict) -> str:
    """The rules that differ from the game's defaults (all of them if the game is not installed)."""
    rules = attrs.get("rules", {})
    try:
        defaults = rules_dict(load_game(attrs["game"]).Rules())
    except (KeyError, ValueError, ImportError):
        defaults = {}
    changed = {k: v for k, v in rules.items() if defaults.get(k, object()) != v}
    text = " ".join(f"{k}={v}" for k, v in changed.items())
    return f"{text} (others as published)" if text else "as published"


# --- argument types ---------------------------------------------------------------------

def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _non_negative_int(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return value


def _jobs(text: str) -> int:
    value = _int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be a positive number of workers or -1 (all cores)")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def _assignment(text: str) -> tuple[str, str]:
    field, sep, value = text.partition("=")
    if not sep or not field.strip():
        raise argparse.ArgumentTypeError(f"expected FIELD=VALUE, got {text!r}")
    return field.strip(), value.strip()


def _comma_list(text: str) -> list[str]:
    values = [v.strip() for v in text.split(",") if v.strip()]
    if not values:
        raise argparse.ArgumentTypeError("give at least one value")
    return values


def _one_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__

