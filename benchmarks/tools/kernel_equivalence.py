"""Kernel against engine: every per-game statistic's mean, with the standard error of the difference.

    python benchmarks/tools/kernel_equivalence.py [engine games, default 1000] [kernel games, default 40000]

For each lineup (random and greedy at 2 and 4 players, greedy against three random), prints the
engine's mean, the kernel's mean, the SE of their difference and z = diff / SE; the test
`tests/nightsim/test_nightsim_kernel.py::test_every_per_game_statistic_has_the_engines_mean`
requires |z| < 4 for every statistic on smaller samples.
"""
from __future__ import annotations

import sys

from nightsim import Rules
from nightsim.kernel_check import compare, format_rows

LINEUPS = [("random", "random"), ("random",) * 4, ("greedy", "greedy"), ("greedy",) * 4,
           ("greedy", "random", "random", "random")]


def main(n_engine: int = 1000, n_kernel: int = 40000) -> None:
    for lineup in LINEUPS:
        rows = compare(Rules(players=len(lineup)), lineup, n_engine, n_kernel, seed=2026)
        worst = max(rows, key=lambda r: abs(r.z))
        print(f"== {','.join(lineup)}: {n_engine} engine games, {n_kernel} kernel games; "
              f"largest |z| = {abs(worst.z):.2f} ({worst.stat}) ==")
        print(format_rows(rows))
        print()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
