"""Time of `balancelab --help` and of every `balancelab COMMAND --help` (prints figures; asserts nothing).

    python benchmarks/speed/cli_help_time.py            # best of 3 runs of each, in a fresh interpreter
    python benchmarks/speed/cli_help_time.py --runs 5

Each help is a new process (`python -m balancelab ...`, what the `balancelab` script runs), so the
figure includes the interpreter's start; the best of the runs is shown because on a shared machine
the slower runs mostly measure the neighbours. The target is under 0.5 s for each: the parsers are
built from argparse-level modules only (balancelab/parser.py); `python -X importtime -m balancelab
COMMAND --help` shows what is imported. The interpreter's bare start is printed as the floor.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

from balancelab.cli import COMMANDS

TARGET = 0.5   # seconds


def best_time(argv: list[str], runs: int) -> float:
    """The shortest wall time of `runs` fresh runs of `argv` (each must exit 0)."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each help; the best is shown (default 3)")
    args = parser.parse_args(argv)
    floor = best_time([sys.executable, "-c", "pass"], args.runs)
    print(f"python start (the floor)          {floor:6.3f} s")
    rows = [("balancelab --help", ["--help"])] + [(f"balancelab {name} --help", [name, "--help"])
                                                  for name, _ in COMMANDS]
    slow = 0
    for label, command in rows:
        seconds = best_time([sys.executable, "-m", "balancelab", *command], args.runs)
        slow += seconds >= TARGET
        print(f"{label:<34}{seconds:6.3f} s{'   above the target' if seconds >= TARGET else ''}")
    print(f"best of {args.runs}; target < {TARGET} s: {len(rows) - slow} of {len(rows)} within it")


if __name__ == "__main__":
    main()
