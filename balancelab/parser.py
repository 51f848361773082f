"""Every `balancelab` command's argument parser, built from argparse-level modules only.

`balancelab COMMAND --help` is answered from this parser without importing numpy, pandas, scipy,
numba or a game: the texts, choices and defaults it shows come from `analyses.options` and the
argument types from `balancelab.argtypes` (both standard library only). Each command is a `Handler`,
the name of its module and function in `HANDLERS`; the module, with its heavy imports, is imported
only when the command runs, after its arguments have been parsed.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import textwrap
from dataclasses import dataclass
from pathlib import Path

from analyses.options import (
    BACKENDS,
    CONFIRM_PRECISION,
    ENGINES,
    LADDER_FINDINGS_GAMES,
    LADDER_GAMES,
    LADDER_SEARCH_FINDINGS_GAMES,
    LADDER_SEARCH_GAMES,
    LIMITS_HELP,
    OBJECTIVES,
    SEAT_ORDERS,
    SENSITIVITY_FORMATS,
    SENSITIVITY_SEAT_ORDERS,
    STUDY_GAMES,
    STUDY_PLANS,
    TABLE_FORMATS,
)

from .argtypes import assignment as _assignment
from .argtypes import comma_list as _comma_list
from .argtypes import jobs as _jobs
from .argtypes import non_negative_int as _non_negative_int
from .argtypes import positive_int as _positive_int
from .argtypes import seat_numbers as _seat_numbers
from .cli import COMMANDS, DESCRIPTION, EXAMPLES, PROG, Parser
from .examples import (
    BATTLE_EXAMPLES,
    COMMAND_EXAMPLES,
    LADDER_EXAMPLES,
    REBALANCE_DESCRIPTION,
    REBALANCE_EXAMPLES,
    REPLAY_EXAMPLES,
    SENSITIVITY_EXAMPLES,
    TUNE_DESCRIPTION,
    TUNE_EXAMPLES,
)

#: command -> (module, function) that runs it; imported when the command runs, never for its --help
HANDLERS = {
    "simulate": ("balancelab.commands", "run_simulate"),
    "fpa": ("balancelab.commands", "run_fpa"),
    "winrates": ("balancelab.commands", "run_winrates"),
    "length": ("balancelab.commands", "run_length"),
    "sweep": ("balancelab.commands", "run_sweep"),
    "battle": ("balancelab.nerath", "run_battle"),
    "units": ("balancelab.nerath", "run_units"),
    "report": ("balancelab.report", "run_report"),
    "replay": ("balancelab.replay", "run_replay"),
    "rebalance": ("balancelab.rebalance", "run_rebalance"),
    "tune-policy": ("balancelab.tune", "run_tune"),
    "ladder": ("balancelab.ladder", "run_ladder"),
    "sensitivity": ("balancelab.sensitivity", "run_sensitivity"),
    "games": ("balancelab.info", "run_games"),
    "policies": ("balancelab.info", "run_policies"),
    "rules": ("balancelab.info", "run_rules"),
    "compile": ("balancelab.compile", "run_compile"),
}


@dataclass(frozen=True)
class Handler:
    """A command's function by name: `handler(args)` imports its module (after parsing) and calls it."""

    module: str
    function: str

    def __call__(self, args) -> int:
        return self.resolve()(args)

    def resolve(self):
        """The function itself (imports its module)."""
        return getattr(importlib.import_module(self.module), self.function)


@functools.cache
def handler(command: str) -> Handler:
    """The `Handler` of `command` (a name of HANDLERS); one object per command, so a parser that sets it
    as both `func` and `command` has `args.func is args.command`."""
    return Handler(*HANDLERS[command])


def build_parser() -> Parser:
    """The full parser: every command with its options, examples and limits."""
    parser = Parser(prog=PROG, description=DESCRIPTION,
                    epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND", parser_class=Parser)

    sim = _command(commands, "simulate", "play games and write one row per game to a results file")
    _simulation_options(sim, game_required=True)
    sim.add_argument("--out", required=True, type=Path, help="results file (.parquet; .csv with --csv)")
    sim.add_argument("--csv", action="store_true", help="write CSV plus a .meta.json sidecar instead of Parquet")
    sim.add_argument("--resume", action="store_true", help="finish an interrupted run of the same command")
    sim.add_argument("--force", action="store_true", help="overwrite a finished --out file (start over)")

    for name, help_text in (
        ("fpa", "first-player advantage: each seat's win rate against the fair share"),
        ("winrates", "win rates by seat, policy and faction; policy matrix and ratings"),
        ("length", "game length: turns and decisions, overall and by winning seat"),
    ):
        sub = _command(commands, name, help_text)
        _simulation_options(sub, game_required=False)
        sub.add_argument("--in", dest="input", type=Path, metavar="RESULTS", help="analyse a results file instead")
        _format_options(sub)
        if name == "winrates":
            sub.add_argument("--by", type=_comma_list, default=None, metavar="TABLES",
                             help="only these tables: outcomes, seat, policy, faction, matrix, ratings")

    sw = _command(commands, "sweep", "vary one rules field (or policy parameter) with common random numbers")
    _simulation_options(sw, game_required=True, engine="auto")
    sw.add_argument("--field", required=True, help="Rules field (or policy parameter with --policy-param)")
    sw.add_argument("--values", required=True, type=_comma_list, help="comma-separated values, e.g. 2,3,4")
    sw.add_argument("--policy-param", metavar="POLICY", help="vary parameter FIELD of this registered policy")
    _format_options(sw)

    add_battle_units(commands)
    add_report(commands)
    add_replay(commands)
    add_rebalance(commands)
    add_tune(commands)
    add_ladder(commands)
    add_sensitivity(commands)
    add_info(commands)
    add_compile(commands)
    set_examples(commands)      # each subcommand's --help shows its own examples
    for sub in commands.choices.values():  # and the limits every size is checked against
        sub.epilog = (sub.epilog or "") + "\n" + textwrap.fill(LIMITS_HELP, 100) + "\n"
        sub.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _command(commands, name: str, help_text: str) -> Parser:
    sub = commands.add_parser(name, help=help_text, description=help_text, epilog=EXAMPLES,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.set_defaults(command=handler(name))
    return sub


def _format_options(sub: Parser) -> None:
    sub.add_argument("--format", choices=TABLE_FORMATS, default="table",
                     help="table (compact, for people; default), or every column of every table for machines: "
                          "csv, json, parquet (parquet needs --out)")
    sub.add_argument("--out", type=Path, default=None, metavar="FILE",
                     help="with --format csv|json|parquet: write the tables here instead of printing them")


def _simulation_options(sub: Parser, game_required: bool, engine: str = "python") -> None:
    sub.add_argument("game", nargs=None if game_required else "?",
                     help="nightsim (nightmarium), dreamsim (midnighters), nerathsim (nerath) or a module path")
    sub.add_argument("--games", type=_positive_int, default=1000, help="number of games (default 1000)")
    sub.add_argument("--players", type=_positive_int, help="number of players (Rules.players)")
    sub.add_argument("--policies", help="one policy for every seat, or one per seat: greedy,random,random "
                     "(default: the game's main policy in every seat, as in `balancelab report`: "
                     f"{default_policies_help()}; see `balancelab games` and `balancelab policies GAME`)")
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
    sub.add_argument("--engine", choices=ENGINES, default=engine,
                     help=f"python (the reference engine), kernel (the game's compiled batch kernel: same rules, "
                          f"the same games) or auto (the kernel when it plays these rules and policies, else python); "
                          f"default {engine}")
    sub.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")


# --- battle, units ---
UNITS_TABLES = ("efficiency", "duels", "best", "break_even", "lanchester")


def add_battle_units(subparsers) -> None:
    """Register `battle` and `units` on an argparse subparsers object."""
    battle = subparsers.add_parser(
        "battle", help="Conquest of Nerath battle calculator: win odds, survivors, gold swing",
        description="Odds of one Conquest of Nerath battle (exact, or Monte Carlo with intervals).",
        epilog=BATTLE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    battle.add_argument("armies", nargs="+", metavar="ARMY",
                        help='ATTACKER vs DEFENDER, e.g. "6 footsoldier, 2 siege_engine" vs "8 footsoldier"')
    battle.add_argument("--sea", action="store_true", help="a sea battle (warships, flyers, heroes aboard)")
    battle.add_argument("--method", default=None,
                        help="exact or monte_carlo (default: exact, or monte_carlo when the battle is too large "
                             "for the exact solver; see LIMITS below)")
    battle.add_argument("--n", default="100000", help="battles to simulate with monte_carlo (default 100000)")
    battle.add_argument("--seed", default="0", help="seed for monte_carlo (default 0)")
    battle.add_argument("--engine", default="python",
                        help="monte_carlo engine: python (numpy, the reference; default), kernel (numba, "
                             ">= 10 M battles/s, its own random stream) or auto (kernel when numba imports)")
    battle.add_argument("--retreat", default=None, help="attacker's retreat rule: after:N, below:P, units:K")
    battle.add_argument("--order", default=None, help="casualty order for both sides, e.g. 'footsoldier, dragon'")
    battle.add_argument("--attacker-order", default=None, help="casualty order for the attacker")
    battle.add_argument("--defender-order", default=None, help="casualty order for the defender")
    battle.add_argument("--survivors", default="0", metavar="K", help="also print the K most likely ends")
    battle.add_argument("--rounds", action="store_true", help="also print the distribution of rounds")
    battle.set_defaults(func=handler("battle"), command=handler("battle"))

    units = subparsers.add_parser(
        "units", help="Conquest of Nerath unit cost efficiency: hits per gold, duels, best armies, break-even",
        description="Which Conquest of Nerath units are worth their gold (exact battle odds).",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    units.add_argument("--table", default="all", help=f"all (default) or one of {', '.join(UNITS_TABLES)}")
    units.add_argument("--budgets", default="6,12,30", help="equal-gold duel budgets (default 6,12,30)")
    units.add_argument("--best-budgets", default="6,12", help="budgets for the best army (default 6,12)")
    units.add_argument("--top", default="5", help="armies shown per best-army table (default 5)")
    units.add_argument("--break-even-budget", default="12", help="army size in gold for break-even prices")
    units.set_defaults(func=handler("units"), command=handler("units"))


# --- report ---
def add_report(subparsers) -> None:
    """Register `report` on an argparse subparsers object."""
    rep = subparsers.add_parser(
        "report", help="simulate every game and write the HTML balance report (the main job)",
        description="Simulate every installed game with its standard line-ups, analyse, and write one "
                    "self-contained HTML balance report.", epilog=epilog("report"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    rep.add_argument("--games", type=int, default=STUDY_GAMES,
                     help=f"size of the study (default {STUDY_GAMES}): each game's main run plays --games times "
                          f"its share ({games_shares()}); the mixed table, duels, sweep and rule changes "
                          "scale with it (`balancelab games` shows the totals)")
    rep.add_argument("--jobs", type=int, default=2, help="parallel workers (default 2, -1 = all cores)")
    rep.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    rep.add_argument("--out", type=Path, default=Path("balance-report.html"), help="report file")
    rep.add_argument("--only", default=None, help=f"comma-separated games (default all: {','.join(STUDY_PLANS)})")
    rep.add_argument("--save", type=Path, default=None, metavar="DIR", help="also store every run's results here")
    rep.add_argument("--from", dest="source", type=Path, default=None, metavar="DIR",
                     help="build from stored runs (written by --save) instead of simulating")
    rep.add_argument("--ladder", type=Path, default=None, metavar="FILE_OR_DIR",
                     help="add a 'Skill ladder' section per game from stored ladders (`balancelab ladder GAME "
                          "--out FILE`: one file, or a folder of *.json); rendered only, never simulated")
    rep.add_argument("--no-stored", dest="stored", action="store_false",
                     help="leave out the results shipped with the package (skill ladders, re-balancing studies; "
                          "each is shown with its command and rules version, marked stale when the rules changed)")
    rep.add_argument("--confirm-scale", type=float, default=1.0, metavar="X",
                     help="size of each confirmation run (fresh seeds, played only for the findings the first run "
                          "selected) as a multiple of the run it confirms (default 1: the same size)")
    rep.add_argument("--force", action="store_true",
                     help="replace an existing --out report; with --save: replace stored results")
    rep.add_argument("--engine", choices=ENGINES, default="auto",
                     help="engine that plays the games (default auto: a game's batch kernel when it plays the run's "
                          "rules and line-up, else Python; the card games' kernels play the Python engine's games, "
                          "so the report is the same either way, only faster)")
    rep.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bars")
    rep.set_defaults(func=handler("report"), command=handler("report"))


def games_shares() -> str:
    """'Nightmarium 1, Midnighters 0.5, ...' from the study plans' weights."""
    return ", ".join(f"{title.split(' (')[0]} {weight:g}" for title, _, weight in STUDY_PLANS.values())


# --- replay ---


def add_replay(commands) -> None:
    """Register `replay` on an argparse subparsers object."""
    sub = commands.add_parser(
        "replay", help="write one game as an HTML page to step through: the board, the log, a search box",
        description="Play one game with its event log kept (or replay game --game-index of a stored run) and "
                    "write one self-contained HTML page: the board after each event, the game's report beside it "
                    "with the current event highlighted, buttons and arrow keys to step, a search box.",
        epilog=REPLAY_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("game", nargs="?", help="nightsim (nightmarium), dreamsim (midnighters) or nerathsim (nerath)")
    sub.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    sub.add_argument("--players", type=int, default=None, help="number of players (Rules.players)")
    sub.add_argument("--policies", default=None, help="one policy for every seat, or one per seat: greedy,random")
    sub.add_argument("--rule", action="append", default=[], type=_assignment, metavar="FIELD=VALUE",
                     help="change a Rules field (repeatable)")
    sub.add_argument("--from", dest="results", type=Path, default=None, metavar="RESULTS_FILE",
                     help="replay a game of a stored run (its rules, the row's policies and seed)")
    sub.add_argument("--game-index", type=int, default=None, metavar="I", help="with --from: the row to replay")
    sub.add_argument("--out", type=Path, default=Path("game.html"), help="the page (default game.html)")
    sub.add_argument("--force", action="store_true", help="replace an existing --out file")
    sub.set_defaults(command=handler("replay"))


# --- rebalance ---


def add_rebalance(commands) -> None:
    sub = commands.add_parser("rebalance", help="find the smallest rule change that fixes an imbalance, and confirm it",
                              description=REBALANCE_DESCRIPTION, epilog=REBALANCE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.set_defaults(command=handler("rebalance"))
    sub.add_argument("game", help="nightsim (nightmarium), dreamsim (midnighters), nerathsim (nerath) or a module path")
    sub.add_argument("--objective", default="seat_balance",
                     help=f"objective ({', '.join(OBJECTIVES)}), with parameters "
                          "'seat_balance(tolerance=0.015)', a weighted sum 'seat_balance+0.5*game_length', and "
                          "terms measured under other rules 'alliance_balance+faction_balance@mode=free_for_all'")
    sub.add_argument("--knobs", help="knobs to turn: name=lo:hi:step (int/float) or name=a|b (choices), "
                                     "comma-separated; a bare name takes the game's declared range "
                                     "(default: every knob the game declares)")
    sub.add_argument("--knobs-file", type=Path, help="knobs from a TOML or JSON file ([knobs.NAME] low/high/step)")
    sub.add_argument("--budget", default="30m", help="candidates (e.g. 40) or time (30m, 90s, 1h); default 30m")
    sub.add_argument("--policies", help="one policy for every seat or one per seat (default: the game's main "
                     f"policy in every seat, as in `balancelab report`: {default_policies_help()})")
    sub.add_argument("--players", type=int, help="number of players (Rules.players)")
    sub.add_argument("--rule", action="append", default=[], type=_assignment, metavar="FIELD=VALUE",
                     help="the game to start from: change a Rules field (repeatable)")
    sub.add_argument("--seed", type=int, default=0, help="search seed (the confirmation uses fresh seeds from it)")
    sub.add_argument("--jobs", type=int, default=1, help="parallel workers (-1 = all cores; default 1)")
    sub.add_argument("--backend", choices=BACKENDS, help="joblib backend (default loky)")
    sub.add_argument("--scheduler", help="address of a running dask scheduler, e.g. tcp://host:8786 (implies --backend dask)")
    sub.add_argument("--engine", choices=ENGINES, default="auto",
                     help="engine that plays the games (default auto: the game's batch kernel when it can play "
                          "the rules and policies, else Python)")
    sub.add_argument("--first-games", type=int, default=200, help="games per candidate at the first rung (default 200)")
    sub.add_argument("--reduction-factor", type=int, default=3, help="successive halving factor (default 3)")
    sub.add_argument("--rungs", type=int, default=3, help="rungs of successive halving (default 3)")
    sub.add_argument("--confirm-games", type=int,
                     help="games per side of the confirmation run (default: sized from the standard error so every "
                          "95%% half-width is at most --confirm-precision × the band's half-width)")
    sub.add_argument("--confirm-precision", type=float, default=CONFIRM_PRECISION,
                     help=f"confirmation half-width as a share of the band's half-width (default {CONFIRM_PRECISION})")
    sub.add_argument("--max-knobs", type=int, help="at most this many knobs changed")
    sub.add_argument("--cost-weight", type=float, default=0.002,
                     help="weight of the change cost (knobs moved and how far) in the search (default 0.002)")
    sub.add_argument("--store", type=Path, help="folder that keeps the study (resumable)")
    sub.add_argument("--resume", action="store_true", help="continue the study stored in --store")
    sub.add_argument("--progress", action="store_true", help="print each finished candidate to stderr")


# --- tune-policy ---


def add_tune(commands) -> None:
    sub = commands.add_parser("tune-policy", help="tune a heuristic's weights against a pool of opponents, "
                                                  "and confirm the result on fresh seeds",
                              description=TUNE_DESCRIPTION, epilog=TUNE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.set_defaults(command=handler("tune-policy"))
    sub.add_argument("game", help="nightsim (nightmarium), dreamsim (midnighters), nerathsim (nerath) or a module path")
    sub.add_argument("--start", help="the heuristic to start from (default: the game's, e.g. greedy)")
    sub.add_argument("--pool", help="opponents, comma-separated (default: the start and the other shipped heuristics)")
    budget = sub.add_mutually_exclusive_group()
    budget.add_argument("--trials", type=int, help="number of trials (default 40)")
    budget.add_argument("--budget", help="time budget (30m, 90s, 1h) or a number of trials")
    sub.add_argument("--games-per-trial", type=int, default=200,
                     help="games of a trial's first rung, rounded up to whole deals (default 200)")
    sub.add_argument("--rungs", type=int, default=2, help="rungs of successive halving (default 2)")
    sub.add_argument("--reduction-factor", type=int, default=3, help="successive halving factor (default 3)")
    sub.add_argument("--confirm-games", type=int, help="games of the confirmation run (default 4 x the last rung)")
    sub.add_argument("--radius", type=float, help="search only start ± RADIUS × each numeric range (a trust "
                                                  "region around the start, e.g. 0.15; default: the whole space)")
    sub.add_argument("--players", type=int, help="seats per game (default: the game's TUNING, else 2)")
    sub.add_argument("--seats", type=_seat_numbers, help="the candidate's seats, counted from 1 (e.g. 2: Vailin in "
                     "Nerath's four-player game): tune that seat's own weights (default: every seat, rotated)")
    sub.add_argument("--seed", type=int, default=0, help="search seed (the confirmation uses fresh seeds from it)")
    sub.add_argument("--jobs", type=int, default=1, help="parallel workers (-1 = all cores; default 1)")
    sub.add_argument("--engine", choices=ENGINES, default="python",
                     help="engine of the search games (auto: a batch kernel when the game has one); "
                          "the confirmation always plays the Python engine")
    sub.add_argument("--warm-start", type=Path, action="append",
                     help="a tuned data file whose parameters are tried right after the start's (seeds a search "
                          "of a wider space; repeat for several)")
    sub.add_argument("--storage", help="optuna storage to keep (and resume) the search: sqlite:///FILE.db or FILE.journal")
    sub.add_argument("--out", type=Path, help="write the tuned policy's data file (parameters and provenance); "
                                              "checked before the search starts")
    sub.add_argument("--force", action="store_true", help="replace an existing --out file")
    sub.add_argument("--progress", action="store_true", help="print each finished trial to stderr")


# --- ladder ---


def add_ladder(commands) -> None:
    """Register `ladder` on an argparse subparsers object."""
    sub = commands.add_parser(
        "ladder", help="skill ladder: ratings of random, the heuristics and search, and the findings at each rung",
        description="Round-robin of the ladder's rungs (2-player games, seats rotated, the same deals for every "
                    "pairing), Bradley–Terry ratings on the Elo scale with 95% intervals (bootstrap over deals), "
                    "the skill depth, and the game's balance findings re-measured at each rung (self-play), each "
                    "marked robust when it holds with the same sign at the two top-rated rungs.",
        epilog=LADDER_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("game", help="nightsim (nightmarium), dreamsim (midnighters), nerathsim (nerath) or a module path")
    sub.add_argument("--games", type=int, default=None,
                     help=f"games per pairing, whole deals of 2 (default per game: {_defaults(LADDER_GAMES)})")
    sub.add_argument("--findings-games", type=int, default=None,
                     help=f"self-play games per rung for the findings, 0 = none "
                          f"(default per game: {_defaults(LADDER_FINDINGS_GAMES)})")
    sub.add_argument("--search-games", type=int, default=None,
                     help=f"at most this many games for a pairing with a search rung (ismcts:N), on the first of "
                          f"the same deals (default: {_defaults(LADDER_SEARCH_GAMES)}; other games: --games)")
    sub.add_argument("--search-findings-games", type=int, default=None,
                     help=f"at most this many self-play games of a search rung (default: "
                          f"{_defaults(LADDER_SEARCH_FINDINGS_GAMES)}; other games: --findings-games)")
    sub.add_argument("--ladder", default=None, metavar="A,B,C",
                     help="the rungs: policy names and ismcts:N specs (default: random, the heuristics, tuned if "
                          "shipped, ismcts at two budgets where the game supports search)")
    sub.add_argument("--players", type=int, default=2, help="seats of the rating games (default 2)")
    sub.add_argument("--findings-players", type=int, default=None, help="seats of the self-play games (default --players)")
    sub.add_argument("--bootstrap", type=int, default=2000, help="bootstrap replicates over deals (default 2000)")
    sub.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    sub.add_argument("--jobs", type=int, default=1, help="parallel workers (-1 = all cores; default 1)")
    sub.add_argument("--backend", choices=BACKENDS, help="joblib backend (default loky)")
    sub.add_argument("--scheduler", help="address of a running dask scheduler, e.g. tcp://host:8786 (implies --backend dask)")
    sub.add_argument("--out", type=Path, default=None, help="store the ladder as JSON (for report --ladder)")
    sub.add_argument("--force", action="store_true", help="replace an existing --out file")
    sub.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    sub.set_defaults(command=handler("ladder"))


def _defaults(table: dict) -> str:
    return ", ".join(f"{game} {n}" for game, n in table.items())


# --- sensitivity ---


def add_sensitivity(commands) -> None:
    """Register `sensitivity` on an argparse subparsers object."""
    sub = commands.add_parser(
        "sensitivity", help="re-measure the headline figures under each alternative reading of the rules",
        description="Play the published rules and each alternative reading listed in the game's DECISIONS on "
                    "the same seeds, and print each seat's win rate, the game length, the timeout share (and "
                    "the Horror's win share) as paired differences from the default, with one verdict per "
                    "decision: holds, or moves <quantity> by <diff> [95% interval] (Holm over the whole table).",
        epilog=SENSITIVITY_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("game", help="nightsim (nightmarium), dreamsim (midnighters) or nerathsim (nerath): a game "
                                  "with DECISIONS")
    sub.add_argument("--games", type=_positive_int, default=2000, help="games per arm (default 2000)")
    sub.add_argument("--policies", default=None, help="one policy for every seat, or one per seat: greedy,random")
    sub.add_argument("--players", type=_positive_int, default=None, help="number of players (Rules.players)")
    sub.add_argument("--rule", action="append", default=[], type=_assignment, metavar="FIELD=VALUE",
                     help="change a Rules field in every arm (repeatable)")
    sub.add_argument("--only", type=_comma_list, default=None, metavar="IDS",
                     help="comma-separated decision ids (default: all of the game's DECISIONS)")
    sub.add_argument("--jobs", type=_jobs, default=1, help="worker processes (-1 = all cores)")
    sub.add_argument("--seed", type=_non_negative_int, default=0, help="seed of the common deals (default 0)")
    sub.add_argument("--seat-order", choices=SENSITIVITY_SEAT_ORDERS, default="fixed",
                     help="fixed (default) or rotate: every policy in every seat, the deal as the paired unit")
    sub.add_argument("--engine", choices=("auto", "python", "kernel"), default="auto",
                     help="auto (default): the batch kernel when it plays every arm of a comparison")
    sub.add_argument("--format", choices=SENSITIVITY_FORMATS, default="text", help="text (default), csv or json")
    sub.add_argument("--progress", action="store_true", help="show a progress bar per arm on stderr")
    sub.add_argument("--out", default=None, help="also store the table and its settings as JSON (for the report's "
                                                 "shipped results; analyses.sensitivity.load reads it)")
    sub.add_argument("--force", action="store_true", help="replace an existing --out file")
    sub.set_defaults(command=handler("sensitivity"))


# --- games, policies, rules; every command's examples ---
#: the examples under each `balancelab COMMAND --help` (commands with their own text: below)


def epilog(command: str) -> str:
    """The 'examples:' block under `balancelab COMMAND --help`."""
    return "examples:\n" + COMMAND_EXAMPLES[command] + "\n"


def set_examples(commands) -> None:
    """Give every registered subcommand its own examples (argparse subparsers `commands`)."""
    for name, parser in commands.choices.items():
        if name in COMMAND_EXAMPLES:
            parser.epilog = epilog(name)
            parser.formatter_class = argparse.RawDescriptionHelpFormatter


def add_compile(commands) -> None:
    """Register `compile` on an argparse subparsers object."""
    help_text = dict(COMMANDS)["compile"]
    sub = commands.add_parser("compile", help=help_text, description=help_text + " (numba keeps them on disk)",
                              epilog=epilog("compile"), formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("only", nargs="*", metavar="GAME", help="only these games (default: every game with a kernel)")
    sub.set_defaults(command=handler("compile"))


def add_info(commands) -> None:
    """Register `games`, `policies` and `rules` on an argparse subparsers object."""
    for name, help_text, takes_game in (
        ("games", "list the games, their players, rules versions and the policies runs use", False),
        ("policies", "list a game's policies and their parameters (names for --policies, --policy-param)", True),
        ("rules", "list a game's Rules fields: default, allowed values, meaning (for --rule FIELD=VALUE)", True),
    ):
        sub = commands.add_parser(name, help=help_text, description=help_text, epilog=epilog(name),
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        if takes_game:
            sub.add_argument("game", help="nightsim (nightmarium), dreamsim (midnighters), nerathsim (nerath) "
                                          "or a module path")
        sub.set_defaults(command=handler(name))


def default_policies_help() -> str:
    """'greedy for nightsim, heuristic for dreamsim, balanced for nerathsim' (the standard studies' main
    policies, which `balancelab.info.default_policy` gives for these games; a test checks they agree)."""
    return ", ".join(f"{main} for {name}" for name, (_, main, _) in STUDY_PLANS.items())
