"""Conquest of Nerath: alliance and free-for-all balance under each turn order (evidence run).

For every turn order that keeps evil and good realms alternating (`nerathsim.knobs.ALTERNATING_ORDERS`,
the published order and the TURN_ORDERS variants among them), plays `--games` alliance games and
`--games` free-for-all games at the published resources (common seeds across orders) and prints the
Karkoth + Iron Circle alliance share and each realm's free-for-all share, each with its 95% interval
(the `alliance_balance` / `faction_balance` tables of `analyses.objectives`), and the CPU time.

    PYTHONPATH=$PWD python benchmarks/studies/nerath_turn_orders.py --games 300 --policies tuned
"""
from __future__ import annotations

import argparse
import os
import time

import analyses
import nerathsim
from analyses.objectives import make_objective
from nerathsim.knobs import ALTERNATING_ORDERS


def _cell(row) -> str:
    return f"{100 * row.value:5.1f} [{100 * row.ci_low:4.1f}, {100 * row.ci_high:4.1f}]"


def _evil_share(table):
    """The Karkoth + Iron Circle row of an alliance table (from the other alliance's row when the
    evil alliance never won: the team table knows only teams that won)."""
    for measure, row in table.iterrows():
        if "karkoth" in measure and "iron_circle" in measure:
            return row
    row = next(r for m, r in table.iterrows() if "vailin" in m and "nerath" in m).copy()
    row["value"], row["ci_low"], row["ci_high"] = 1 - row["value"], 1 - row["ci_high"], 1 - row["ci_low"]
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games per mode per order (default 300)")
    parser.add_argument("--policies", default="tuned")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--orders", help="comma-separated turn_order names (default: every alternating order)")
    parser.add_argument("--rule", action="append", default=[], metavar="FIELD=VALUE",
                        help="a Rules field on top of the published game (repeatable)")
    args = parser.parse_args(argv)
    orders = args.orders.split(",") if args.orders else list(ALTERNATING_ORDERS)
    extra = dict(r.split("=", 1) for r in args.rule)
    alliance, ffa = make_objective("alliance_balance"), make_objective("faction_balance")
    print(f"policies {args.policies}, {args.games} games per mode per order, seed {args.seed}, "
          f"load {os.getloadavg()[0]:.2f}; shares in % [95% interval]")
    print(f"{'turn_order':38s} {'K+IC alliance':>19s} | {'FFA karkoth':>19s} {'vailin':>19s} {'iron_circle':>19s} "
          f"{'nerath':>19s} | worst FFA off 25 | CPU s")
    for name in orders:
        cpu = time.process_time()
        rules = analyses.games.make_rules(nerathsim, {**extra, "turn_order": name})
        a = analyses.simulate(nerathsim, args.games, rules=rules, policies=args.policies, seed=args.seed,
                              n_jobs=1, progress=False, engine="auto")
        f = analyses.simulate(nerathsim, args.games, rules=analyses.games.make_rules(nerathsim, rules,
                                                                                     mode="free_for_all"),
                              policies=args.policies, seed=args.seed, n_jobs=1, progress=False, engine="auto")
        at = alliance.table(a, rules).set_index("measure")
        ft = ffa.table(f, rules).set_index("measure")
        k_ic = _evil_share(at)
        realms = [ft.loc[f"{r} win rate"] for r in ("karkoth", "vailin", "iron_circle", "nerath")]
        worst = max(abs(r.value - (r.target_low + r.target_high) / 2) for r in realms)
        print(f"{name:38s} {_cell(k_ic)} | " + " ".join(_cell(r) for r in realms)
              + f" | {100 * worst:5.1f} pts | {time.process_time() - cpu:6.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
