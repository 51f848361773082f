"""`balancelab tune-policy GAME`: search a heuristic's weights against a pool of opponents (optuna,
common random numbers, successive halving), then confirm the best on fresh seeds.

Prints the best parameters and the confirmation table (tuned vs the start policy, win rate with
its 95% interval, the deal as the unit). `--out FILE` writes the data file a game package loads
as its `tuned` policy (e.g. nightsim/data/tuned.json), with its provenance.
"""
from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from .rebalance_search import parse_budget
from .runner import ENGINES
from .tune import tune_policy

EXAMPLES = """\
examples:
  balancelab tune-policy nightsim --start greedy --budget 12m --games-per-trial 600 --rungs 3 --engine auto \\
      --out nightsim/data/tuned.json
  balancelab tune-policy midnighters --trials 30 --games-per-trial 64 --storage sqlite:///runs/tune-dream.db
  balancelab tune-policy nerath --start balanced --pool balanced --trials 20 --games-per-trial 48 --jobs 2
"""


def add_subcommands(commands) -> None:
    sub = commands.add_parser("tune-policy", help="tune a heuristic's weights against a pool of opponents, "
                                                  "and confirm the result on fresh seeds",
                              description=__doc__, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.set_defaults(command=run_tune)
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


def run_tune(args) -> int:
    budget = args.trials if args.trials is not None else (args.budget or 40)
    parse_budget(budget)
    result = tune_policy(args.game, start=args.start, pool=args.pool, budget=budget,
                         games_per_trial=args.games_per_trial, seed=args.seed, n_jobs=args.jobs,
                         players=args.players, reduction_factor=args.reduction_factor, rungs=args.rungs,
                         confirm_games=args.confirm_games, radius=args.radius, storage=args.storage, warm_start=args.warm_start,
                         engine=args.engine,
                         progress=args.progress, command=command_text(args))
    print(result.to_text())
    if args.out is not None:
        print(f"\nwrote {result.write(args.out)}")
    return 0


def command_text(args) -> str:
    """The command line that reproduces this search (every option that was given)."""
    parts = ["balancelab", "tune-policy", args.game]
    for flag, value in (("--start", args.start), ("--pool", args.pool), ("--trials", args.trials),
                        ("--budget", args.budget), ("--games-per-trial", args.games_per_trial),
                        ("--rungs", args.rungs), ("--reduction-factor", args.reduction_factor),
                        ("--confirm-games", args.confirm_games), ("--radius", args.radius), ("--players", args.players), ("--seed", args.seed),
                        ("--jobs", args.jobs), ("--engine", args.engine), *(("--warm-start", w) for w in args.warm_start or ()),
                        ("--storage", args.storage),
                        ("--out", args.out)):
        if value is not None:
            parts += [flag, str(value)]
    return shlex.join(parts)
