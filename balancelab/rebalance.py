"""`balancelab rebalance GAME`: search knobs for the smallest fix of an imbalance, then confirm it.

Prints the proposal as a diff against the published game, the before/after table from the
confirmation run on fresh seeds (95% intervals) and the side effects on the other objectives.
"""
from __future__ import annotations

from analyses.knobs import load_knobs_file, parse_knobs
from analyses.rebalance_search import parse_budget, rebalance


def run_rebalance(args) -> int:
    knobs = {}
    if args.knobs_file is not None:
        knobs.update(load_knobs_file(args.knobs_file))
    if args.knobs:
        knobs.update(parse_knobs(args.knobs))
    parse_budget(args.budget)
    rules = dict(args.rule)
    if args.players is not None:
        rules["players"] = args.players
    result = rebalance(args.game, args.objective, knobs=knobs or None, budget=args.budget, rules=rules or None,
                       policies=args.policies, seed=args.seed, n_jobs=args.jobs, backend=args.backend,
                       scheduler=args.scheduler, first_games=args.first_games, reduction_factor=args.reduction_factor,
                       rungs=args.rungs, confirm_games=args.confirm_games, cost_weight=args.cost_weight,
                       max_knobs=args.max_knobs, store=args.store, resume=args.resume, progress=args.progress,
                       engine=args.engine, confirm_precision=args.confirm_precision)
    print(result.to_text())
    return 0
