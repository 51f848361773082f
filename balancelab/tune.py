"""`balancelab tune-policy GAME`: search a heuristic's weights against a pool of opponents (optuna,
common random numbers, successive halving), then confirm the best on fresh seeds.

Prints the best parameters and the confirmation table (tuned vs the start policy, win rate with
its 95% interval, the deal as the unit). `--out FILE` writes the data file a game package loads
as its `tuned` policy (e.g. nightsim/data/tuned.json), with its provenance.
"""
from __future__ import annotations

import shlex

from analyses.rebalance_search import parse_budget
from analyses.tune import tune_policy


def run_tune(args) -> int:
    budget = args.trials if args.trials is not None else (args.budget or 40)
    parse_budget(budget)
    result = tune_policy(args.game, start=args.start, pool=args.pool, budget=budget,
                         games_per_trial=args.games_per_trial, seed=args.seed, n_jobs=args.jobs,
                         players=args.players, reduction_factor=args.reduction_factor, rungs=args.rungs,
                         confirm_games=args.confirm_games, radius=args.radius, storage=args.storage, warm_start=args.warm_start,
                         seats=args.seats, engine=args.engine,
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
                        ("--confirm-games", args.confirm_games), ("--radius", args.radius), ("--players", args.players),
                        ("--seats", None if args.seats is None else ",".join(str(q + 1) for q in args.seats)), ("--seed", args.seed),
                        ("--jobs", args.jobs), ("--engine", args.engine), *(("--warm-start", w) for w in args.warm_start or ()),
                        ("--storage", args.storage),
                        ("--out", args.out)):
        if value is not None:
            parts += [flag, str(value)]
    return shlex.join(parts)
