"""`balancelab rebalance GAME`: search knobs for the smallest fix of an imbalance, then confirm it.

Prints the proposal as a diff against the published game, the before/after table from the
confirmation run on fresh seeds (95% intervals) and the side effects on the other objectives.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from .cli_info import default_policies_help
from .knobs import load_knobs_file, parse_knobs
from .objectives import OBJECTIVES
from .rebalance_search import CONFIRM_PRECISION, parse_budget, rebalance
from .runner import BACKENDS, ENGINES

EXAMPLES = """\
examples:
  balancelab rebalance nightsim --policies greedy --objective seat_balance --max-knobs 2 --budget 30m \\
      --jobs 2 --store runs/rebalance-night
  balancelab rebalance nightsim ... --store runs/rebalance-night --resume      # continue a stopped search
  balancelab rebalance nightsim --knobs last_seat_extra_cards,hand_size=4:6:1 --budget 40
  balancelab rebalance nerath --objective unit_value_parity --knobs-file prices.toml --budget 200
  balancelab rebalance midnighters --policies heuristic --objective "seat_balance(tolerance=0.02)"
  balancelab rebalance nerath --policies tuned --objective "alliance_balance+faction_balance@mode=free_for_all" \
      --knobs map.realm_gold.karkoth,map.realm_gold.iron_circle --max-knobs 2 --store runs/rebalance-nerath
objectives: """ + ", ".join(OBJECTIVES) + """; weighted sums: "seat_balance+0.5*game_length";
conditions: a term after '@' is measured in games with those Rules fields set (its own frame):
"alliance_balance+faction_balance@mode=free_for_all" balances the alliances AND the realms in free-for-all
"""


def add_subcommands(commands) -> None:
    sub = commands.add_parser("rebalance", help="find the smallest rule change that fixes an imbalance, and confirm it",
                              description=__doc__, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub.set_defaults(command=run_rebalance)
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


def _assignment(text: str) -> tuple[str, str]:
    field, sep, value = text.partition("=")
    if not sep or not field.strip():
        raise argparse.ArgumentTypeError(f"expected FIELD=VALUE, got {text!r}")
    return field.strip(), value.strip()
