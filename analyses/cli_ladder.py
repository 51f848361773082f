"""`balancelab ladder GAME`: the skill ladder (analyses/ladder.py) on the command line.

    balancelab ladder nightsim --jobs 2 --out runs/ladders/nightsim.json
    balancelab ladder nightsim --games 40 --findings-games 40 --ladder random,greedy,ismcts:10
    balancelab report --from runs/study --ladder runs/ladders      # a "Skill ladder" section per game

Prints the ratings, the pairwise table and the findings by rung; `--out` stores the result as
JSON for `balancelab report --ladder FILE_OR_FOLDER` (the report renders it, never simulates).
"""
from __future__ import annotations

import argparse
from pathlib import Path

from . import safe_io
from .cli_checks import check_output_file
from .ladder import (
    DEFAULT_FINDINGS_GAMES,
    DEFAULT_GAMES,
    SEARCH_FINDINGS_GAMES,
    SEARCH_GAMES,
    default_ladder,
    skill_ladder,
)
from .runner import BACKENDS

EXAMPLES = """\
examples:
  balancelab ladder nightsim --jobs 2 --out runs/ladders/nightsim.json
  balancelab ladder dreamsim --jobs 2 --out runs/ladders/dreamsim.json
  balancelab ladder nerath --jobs 2 --out runs/ladders/nerathsim.json      # search rungs: 4 games per pairing
  balancelab ladder nerath --jobs 2 --search-games 20 --search-findings-games 20  # ~3.5 h of CPU: tighter search rungs
  balancelab ladder nightsim --games 40 --findings-games 40 --ladder random,greedy,ismcts:10
  balancelab ladder nightsim --findings-players 4 --findings-games 100     # the 4-player seats
  balancelab ladder nightsim --backend dask --scheduler tcp://host:8786    # on a dask cluster
then: balancelab report --from runs/study --ladder runs/ladders
"""


def add_subcommands(commands) -> None:
    """Register `ladder` on an argparse subparsers object."""
    sub = commands.add_parser(
        "ladder", help="skill ladder: ratings of random, the heuristics and search, and the findings at each rung",
        description="Round-robin of the ladder's rungs (2-player games, seats rotated, the same deals for every "
                    "pairing), Bradley–Terry ratings on the Elo scale with 95% intervals (bootstrap over deals), "
                    "the skill depth, and the game's balance findings re-measured at each rung (self-play), each "
                    "marked robust when it holds with the same sign at the two top-rated rungs.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.add_argument("game", help="nightsim (nightmarium), dreamsim (midnighters), nerathsim (nerath) or a module path")
    sub.add_argument("--games", type=int, default=None,
                     help=f"games per pairing, whole deals of 2 (default per game: {_defaults(DEFAULT_GAMES)})")
    sub.add_argument("--findings-games", type=int, default=None,
                     help=f"self-play games per rung for the findings, 0 = none "
                          f"(default per game: {_defaults(DEFAULT_FINDINGS_GAMES)})")
    sub.add_argument("--search-games", type=int, default=None,
                     help=f"at most this many games for a pairing with a search rung (ismcts:N), on the first of "
                          f"the same deals (default: {_defaults(SEARCH_GAMES)}; other games: --games)")
    sub.add_argument("--search-findings-games", type=int, default=None,
                     help=f"at most this many self-play games of a search rung (default: "
                          f"{_defaults(SEARCH_FINDINGS_GAMES)}; other games: --findings-games)")
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
    sub.set_defaults(command=run_ladder)


def _defaults(table: dict) -> str:
    return ", ".join(f"{game} {n}" for game, n in table.items())


def run_ladder(args) -> int:
    for flag, value, least in (("--games", args.games, 1), ("--findings-games", args.findings_games, 0),
                               ("--search-games", args.search_games, 1),
                               ("--search-findings-games", args.search_findings_games, 0),
                               ("--players", args.players, 1), ("--findings-players", args.findings_players, 1),
                               ("--bootstrap", args.bootstrap, 0), ("--seed", args.seed, 0)):
        if value is not None and value < least:
            raise ValueError(f"{flag} must be at least {least}, got {value}")
    if args.jobs == 0:
        raise ValueError("--jobs must be a positive number of workers or -1 (all cores)")
    if args.out is not None:
        check_output_file(args.out, "--out", "ladder.json")
        safe_io.check_new_file(args.out, "--out", args.force, "a ladder file")
    ladder = args.ladder if args.ladder is not None else default_ladder(args.game)
    result = skill_ladder(args.game, ladder=ladder, games=args.games, seed=args.seed, n_jobs=args.jobs,
                          players=args.players, findings_games=args.findings_games,
                          findings_players=args.findings_players, bootstrap=args.bootstrap, progress=args.progress,
                          search_games=args.search_games, search_findings_games=args.search_findings_games,
                          backend=args.backend, scheduler=args.scheduler)
    print(result.to_text())
    if args.out is not None:
        print(f"\nwrote {result.save(args.out)}")
    return 0
