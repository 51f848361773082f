"""Speed of the Conquest of Nerath battle calculators on one core.

    python benchmarks/speed/bench_battle.py              # all figures
    python benchmarks/speed/bench_battle.py --n 2000000  # more Monte Carlo battles per timing

Targets:
- exact: 6 footsoldiers + 2 siege engines against 8 footsoldiers in under 5 ms;
  a mixed 20-against-20 battle in under 100 ms;
- Monte Carlo on the first battle: at least 1,000,000 battles/s on one core.
Target: the numba kernel (`engine="kernel"`) at least 10,000,000 battles/s on
one core; its first call (numba compilation, cached on disk) is printed too, cold (an empty cache
directory, in a fresh process) and warm (this process, the package's cache).
Each figure is the best of several timed runs (machines here are shared; the best run is
the least disturbed) of the public call `nerathsim.battle_odds`, everything included; Monte Carlo
rates are also given per CPU second of this process (time.process_time), which a loaded machine
disturbs less than the wall clock.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")   # one core: keep BLAS single-threaded

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import nerathsim  # noqa: E402

ISSUE = ({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})
MIXED = ({"footsoldier": 8, "siege_engine": 4, "fighter": 3, "wizard": 2, "monster": 2, "dragon": 1},
         {"footsoldier": 10, "siege_engine": 3, "fighter": 2, "monster": 2, "wizard": 1, "dragon": 1, "castle": 1})


def best_time(fn, repeats: int) -> float:
    return best_times(fn, repeats)[0]


def best_times(fn, repeats: int) -> tuple[float, float]:
    """(best wall time, best CPU time of this process) of `fn` over `repeats` runs after a warm-up."""
    fn()  # warm up (imports, caches of binomial tables)
    best, cpu = float("inf"), float("inf")
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return best, cpu


COLD = """
import time
t0 = time.perf_counter()
import nerathsim.battle.kernel
t1 = time.perf_counter()
import nerathsim
nerathsim.battle_odds({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8}, method="monte_carlo", n=1000,
                      engine="kernel")
print(t1 - t0, time.perf_counter() - t1)
"""


def kernel_first_call() -> tuple[float, float, float]:
    """(numba import, first call with an empty cache, first call with the package's cache), in fresh processes."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        cold = subprocess.run([sys.executable, "-c", COLD], env=env, capture_output=True, text=True, check=True)
    warm = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, check=True)
    imp, first = map(float, cold.stdout.split())
    return imp, first, float(warm.stdout.split()[1])


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
        t, cpu = best_times(lambda: nerathsim.battle_odds(*ISSUE, method="monte_carlo", n=args.n, seed=1,
                                                          sampler=sampler), max(2, args.repeats // 2))
        note = "(target >= 1,000,000/s)" if sampler == "alias" else "(Generator.binomial, for comparison)"
        print(f"monte_carlo python sampler={sampler:<6} {args.n:,} battles: {args.n / t:12,.0f} battles/s "
              f"({args.n / cpu:12,.0f} per CPU s)  {note}")

    imp, cold, warm = kernel_first_call()
    print(f"kernel first call: numba import {imp:.2f} s; compile (empty cache) {cold:.2f} s; "
          f"with the on-disk cache {warm:.2f} s")
    n_kernel = 10 * args.n
    for label, battle in (("6 footsoldier + 2 siege_engine vs 8 footsoldier", ISSUE),
                          ("mixed 20 vs 20 (first strike, dragons, castle)", MIXED)):
        t_py, cpu_py = best_times(lambda: nerathsim.battle_odds(*battle, method="monte_carlo", n=args.n, seed=1),
                                  max(2, args.repeats // 2))
        t, cpu = best_times(lambda: nerathsim.battle_odds(*battle, method="monte_carlo", n=n_kernel, seed=1,
                                                          engine="kernel"), max(2, args.repeats // 2))
        print(f"monte_carlo kernel {label}, {n_kernel:,} battles: {n_kernel / t:12,.0f} battles/s "
              f"({n_kernel / cpu:12,.0f} per CPU s; python {args.n / t_py:,.0f}/s, {args.n / cpu_py:,.0f} per CPU s; "
              f"x{t_py / args.n / (t / n_kernel):.1f})  (target >= 10,000,000/s)")

    rng_seeds = np.random.SeedSequence(0).spawn(2000)
    t0 = time.perf_counter()
    for s in rng_seeds:
        nerathsim.resolve_battle(*ISSUE, np.random.default_rng(s))
    rate = len(rng_seeds) / (time.perf_counter() - t0)
    print(f"reference step function (combat.resolve_battle, one battle at a time): {rate:,.0f} battles/s")


if __name__ == "__main__":
    main()
