"""Speed of the Conquest of Nerath battle calculators on one core.

    python benchmarks/bench_battle.py              # all figures
    python benchmarks/bench_battle.py --n 2000000  # more Monte Carlo battles per timing

Targets (issue 4):
- exact: 6 footsoldiers + 2 siege engines against 8 footsoldiers in under 5 ms;
  a mixed 20-against-20 battle in under 100 ms;
- Monte Carlo on the first battle: at least 1,000,000 battles/s on one core.
Each figure is the best of several timed runs (machines here are shared; the best run is
the least disturbed) of the public call `nerathsim.battle_odds`, everything included.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")   # one core: keep BLAS single-threaded

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import nerathsim  # noqa: E402

ISSUE = ({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})
MIXED = ({"footsoldier": 8, "siege_engine": 4, "fighter": 3, "wizard": 2, "monster": 2, "dragon": 1},
         {"footsoldier": 10, "siege_engine": 3, "fighter": 2, "monster": 2, "wizard": 1, "dragon": 1, "castle": 1})


def best_time(fn, repeats: int) -> float:
    fn()  # warm up (imports, caches of binomial tables)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1_000_000, help="Monte Carlo battles per timing (default 1,000,000)")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"nerathsim {nerathsim.RULES_VERSION}, numpy {np.__version__}, one core")

    t = best_time(lambda: nerathsim.battle_odds(*ISSUE), args.repeats * 4)
    print(f"exact  6 footsoldier + 2 siege_engine vs 8 footsoldier: {1e3 * t:7.2f} ms   (target < 5 ms)")
    t = best_time(lambda: nerathsim.battle_odds(*MIXED), args.repeats)
    print(f"exact  mixed 20 vs 20 (incl. dragons, wizards, castle): {1e3 * t:7.2f} ms   (target < 100 ms)")

    for sampler in ("alias", "numpy"):
        t = best_time(lambda: nerathsim.battle_odds(*ISSUE, method="monte_carlo", n=args.n, seed=1, sampler=sampler),
                      max(2, args.repeats // 2))
        note = "(target >= 1,000,000/s)" if sampler == "alias" else "(Generator.binomial, for comparison)"
        print(f"monte_carlo sampler={sampler:<6} {args.n:,} battles: {args.n / t:12,.0f} battles/s  {note}")

    rng_seeds = np.random.SeedSequence(0).spawn(2000)
    t0 = time.perf_counter()
    for s in rng_seeds:
        nerathsim.resolve_battle(*ISSUE, np.random.default_rng(s))
    rate = len(rng_seeds) / (time.perf_counter() - t0)
    print(f"engine step function (combat.resolve_battle, one battle at a time): {rate:,.0f} battles/s")


if __name__ == "__main__":
    main()
