"""Coverage and false-positive rate of `card_impact` on a toy with no effect, per seat order.

The long version of tests/analyses/test_analyses_impact_coverage.py (runs drawn from the toy's exact
clustered model, tests/analyses/impact_coverage.py): for each design (rotate / random / fixed) and
stat (``hand``: belongs to the seat; ``style``: belongs to the policy) it prints the share of 95%
intervals of the win-rate difference that cover 0 and the share of tests rejecting at 0.05, for the
reported analysis (the deal as the unit) and the naive one (every seat of every game independent:
Fisher's exact test and a normal interval), with the binomial standard error of a coverage.

    PYTHONPATH=$PWD:$PWD/tests/analyses python benchmarks/studies/bench_impact_coverage.py --runs 2000
"""
from __future__ import annotations

import argparse
import math
import time

import impact_coverage as ic


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000, help="runs per design (default 1000)")
    ap.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    ap.add_argument("--seat-luck", type=float, default=0.5)
    ap.add_argument("--policy-luck", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.runs < 1 or args.games < 4 or args.games % 4:
        ap.error("--runs must be positive and --games a positive multiple of 4")
    print(f"# {args.runs} runs per design, {args.games} games per run, seat luck {args.seat_luck}, "
          f"policy luck {args.policy_luck}; coverage SE {math.sqrt(0.95 * 0.05 / args.runs):.4f}, "
          f"false positive SE {math.sqrt(0.05 * 0.95 / args.runs):.4f}")
    for design in ic.DESIGNS:
        t0 = time.time()
        table = ic.runs(design, args.runs, seed=args.seed, n_games=args.games, seat_luck=args.seat_luck,
                        policy_luck=args.policy_luck)
        print(ic.summary(table).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        print(f"# {design}: {time.time() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main()
