"""Paired A/B of two nightsim checkouts in ONE process: every seed is played by both, back to back.

    python benchmarks/tools/bench_nightsim_paired.py --a /work/base --b $PWD --policy greedy --seeds 300

On a machine shared by many processes, whole-run rates of two checkouts measured minutes apart
differ by +-15% from load alone. Here checkout A's `nightsim` is loaded under another name
(`nightsim_a`) beside checkout B's, and each seed is played with A and with B in turn (the order
alternating), timed in CPU nanoseconds. Printed: the median over seeds of time(A) / time(B)
(> 1: B is faster) and the 20th percentile of each side's CPU time per decision (the least
disturbed games). Both sides must give the same record for every seed, which is checked too.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path


def load(name: str, checkout: Path):
    """The package checkout/nightsim imported as `name` (its relative imports stay inside it)."""
    path = checkout / "nightsim"
    spec = importlib.util.spec_from_file_location(name, path / "__init__.py", submodule_search_locations=[str(path)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", type=Path, required=True, help="checkout A (e.g. the commit before)")
    ap.add_argument("--b", type=Path, required=True, help="checkout B (e.g. the commit after)")
    ap.add_argument("--policy", default="greedy", help="played in every seat")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3, help="passes over the seeds")
    a = ap.parse_args()
    mod_a, mod_b = load("nightsim_a", a.a), load("nightsim", a.b)
    rules = {mod_a: mod_a.Rules(players=a.players), mod_b: mod_b.Rules(players=a.players)}
    policies = [a.policy] * a.players
    clock = time.process_time_ns
    ratios, per_dec = [], {mod_a: [], mod_b: []}
    for r in range(a.rounds):
        for seed in range(a.seeds):
            order = (mod_a, mod_b) if (seed + r) % 2 else (mod_b, mod_a)
            took, records = {}, {}
            for m in order:
                c0 = clock()
                result = m.play_game(rules[m], policies, seed)
                took[m] = clock() - c0
                records[m] = result.to_record()
                per_dec[m].append(took[m] / result.decisions)
            if records[mod_a] != records[mod_b]:
                raise SystemExit(f"seed {seed}: the records differ. Reproduce with play_game(Rules(players="
                                 f"{a.players}), {policies!r}, {seed}) in each checkout")
            ratios.append(took[mod_a] / took[mod_b])

    def p20(values):
        return sorted(values)[len(values) // 5]

    print(f"nightsim {a.players}p {a.policy}: {len(ratios)} paired games (A = {a.a}, B = {a.b}), records identical")
    print(f"  median per-seed CPU time A/B: {statistics.median(ratios):.3f}   (> 1: B faster)")
    print(f"  p20 CPU per decision: A {p20(per_dec[mod_a]):,.0f} ns, B {p20(per_dec[mod_b]):,.0f} ns, "
          f"A/B {p20(per_dec[mod_a]) / p20(per_dec[mod_b]):.3f}")


if __name__ == "__main__":
    main()
