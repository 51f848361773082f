"""dreamsim's batch kernel against the Python engine, record for record: for every line-up and rule set
of tests/dreamsim/test_dreamsim_kernel_equality.py, `KERNEL.play_batch(rules, lineup, seeds)` must equal
`[play_game(rules, lineup, seed).to_record() for seed in seeds]` for every seed. Prints, per case, the
seeds checked, the seeds that differ (the first one's differing fields and the decision where the two
part: `simcore.equality.compare`, `dreamsim.kernel.bridge.first_divergence`), and the engine's and the kernel's games/s.

    python benchmarks/tools/dreamsim_kernel_equality.py                   # 5000 seeds per case
    python benchmarks/tools/dreamsim_kernel_equality.py --seeds 500 --first 10000
    python benchmarks/tools/dreamsim_kernel_equality.py --cases 0,1,2                # some cases (in parallel runs)

Exit status 1 when any record differs.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

import dreamsim
from dreamsim.kernel import cache as kernel_cache
from dreamsim.kernel.bridge import first_divergence
from dreamsim.kernel.play_batch import KERNEL
from simcore.equality import compare

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "dreamsim"))
from test_dreamsim_kernel_equality import HINDER, LINEUPS, MIXED, RULE_SETS  # noqa: E402


def cases():
    for players, lineup, _ in LINEUPS:
        yield f"{players}p {','.join(lineup)}", dreamsim.Rules(players=players), list(lineup)
    for change in RULE_SETS:
        yield f"3p mixed {change}", dataclasses.replace(dreamsim.Rules(players=3), **change), list(MIXED)
    yield "4p swept weights", dreamsim.Rules(players=4), [HINDER, "random", "heuristic", HINDER]


def check(name, rules, lineup, seeds) -> int:
    c = compare(dreamsim.play_game, KERNEL.play_batch, rules, lineup, seeds, divergence=first_divergence)
    n = len(c.seeds)
    print(f"{name}: {n} seeds, {len(c.differing)} differ; kernel {n / c.kernel_seconds:,.0f} games/s, "
          f"engine {n / c.engine_seconds:,.0f} games/s", flush=True)
    if c.differing:
        print(f"    {c.message()}", flush=True)
    return len(c.differing)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5000, help="seeds per case (default 5000)")
    ap.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    ap.add_argument("--cases", default=None, help="only these cases, by number (e.g. 0,3,5; default all)")
    args = ap.parse_args(argv)
    chosen = None if args.cases is None else {int(x) for x in args.cases.split(",")}
    t = time.perf_counter()
    KERNEL.warm_up(("heuristic", "random"))
    print(f"kernel compiled or loaded in {time.perf_counter() - t:.1f} s "
          f"(BALANCELAB_KERNEL_INLINE={kernel_cache.INLINE})", flush=True)
    seeds = list(range(args.first, args.first + args.seeds))
    total = bad = 0
    for i, (name, rules, lineup) in enumerate(cases()):
        if chosen is not None and i not in chosen:
            continue
        bad += check(f"[{i}] {name}", rules, lineup, seeds)
        total += len(seeds)
    print(f"all: {total} games checked, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
