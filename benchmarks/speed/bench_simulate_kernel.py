"""`analyses.simulate` through a batch kernel against the bare kernel loop (prints figures; asserts nothing).

    PYTHONPATH=$PWD python benchmarks/speed/bench_simulate_kernel.py                  # nightsim random, 4 seats, 200,000
    PYTHONPATH=$PWD python benchmarks/speed/bench_simulate_kernel.py --games 50000 --policies greedy
    PYTHONPATH=$PWD python benchmarks/speed/bench_simulate_kernel.py --game dreamsim --games 20000

Both sides play the same games (the same seeds, the lineup as given under seat_order='fixed'; with
--seat-order rotate, simulate rotates a lineup of distinct policies and the bare loop does not):

- bare: `KERNEL.play_columns(rules, lineups, seeds)` in batches of `--batch` games (default: the chunk
  `simulate` plays in one process, `runner.auto_chunk_size`), the seeds computed beforehand and not timed;
- simulate: `analyses.simulate(game, n, engine='kernel', n_jobs=1, progress=False, seat_order='fixed')`,
  everything included (seeds, chunks, the compact frame, the run's metadata).

Figures are CPU seconds of this process (`time.process_time`), best of `--repeat`, so other load on the
machine changes them less than wall time; the ratio bare/simulate is the share of the bare kernel's rate
that `simulate` reaches (target >= 0.7). Then the CPU seconds of the parts of `simulate` outside the
kernel on one run (cProfile's cumulative times for the frame building and the seeds). Run once before
timing to compile the kernel (or load numba's cache): the first call of a fresh checkout compiles.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

import analyses
from analyses.games import load_game, make_rules, resolve_policies
from analyses.plan import deal_seed
from analyses.runner import auto_chunk_size


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    module = load_game(args.game)
    rules = make_rules(module, dict(r.split("=", 1) for r in args.rule) or {"players": args.players})
    lineup = tuple(resolve_policies(module, args.policies, rules.players))
    seeds = [deal_seed(args.seed, i) for i in range(args.games)]
    batch = args.batch or auto_chunk_size(args.games, 1, progress=False, engine="kernel")
    kernel = module.KERNEL
    print(f"command: {' '.join([sys.executable.rsplit('/', 1)[-1], *sys.argv])}")
    print(f"{module.__name__} kernel, {rules.players} seats, policies {','.join(map(str, lineup))}, "
          f"{args.games:,} games, bare batches of {batch:,}")
    kernel.play_columns(rules, [lineup] * 2, seeds[:2])   # compile or load the cache: not timed

    def bare():
        for a in range(0, args.games, batch):
            part = seeds[a:a + batch]
            kernel.play_columns(rules, [lineup] * len(part), part)

    def through_simulate():
        return analyses.simulate(module, args.games, rules=rules, policies=list(lineup), seed=args.seed,
                                 engine="kernel", n_jobs=1, progress=False, seat_order=args.seat_order)

    bare_cpu = best_cpu(bare, args.repeat)
    simulate_cpu = best_cpu(through_simulate, args.repeat)
    print(f"bare kernel loop : {bare_cpu:7.2f} CPU s  ({args.games / bare_cpu:,.0f} games/s)")
    print(f"simulate(kernel) : {simulate_cpu:7.2f} CPU s  ({args.games / simulate_cpu:,.0f} games/s)")
    print(f"simulate reaches {bare_cpu / simulate_cpu:.2f} of the bare kernel's rate (target >= 0.70); "
          f"outside the kernel: {simulate_cpu - bare_cpu:.2f} CPU s ({1e6 * (simulate_cpu - bare_cpu) / args.games:.1f} "
          f"us/game)")
    if args.profile:
        profile(through_simulate, args.profile)


def best_cpu(function, repeat: int) -> float:
    best = float("inf")
    for _ in range(max(1, repeat)):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


def profile(function, top: int) -> None:
    """cProfile of one run: the functions with the largest cumulative time (where the overhead goes)."""
    profiler = cProfile.Profile()
    profiler.enable()
    function()
    profiler.disable()
    print(f"\nprofile of one simulate run (top {top} by cumulative time):")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(top)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nightsim")
    parser.add_argument("--policies", default="random")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rule", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--batch", type=int, default=0,
                        help="bare loop's games per call (default: the chunk simulate plays in one process)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seat-order", default="fixed", choices=("fixed", "rotate"),
                        help="simulate's seat order (rotate: the bare loop plays the base lineup in every game)")
    parser.add_argument("--repeat", type=int, default=2, help="best of this many timings")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="also print cProfile's top N functions")
    return parser.parse_args(argv)


if __name__ == "__main__":
    main()
