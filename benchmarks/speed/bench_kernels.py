"""Batch kernels: decisions/s and games/s on one core, compile time, ratio to hearts.

    python benchmarks/speed/bench_kernels.py [seconds per workload, default 3] [--no-compile]

Prints, for each game with a `KERNEL` (nightsim; dreamsim when its kernel is there), and each of
its workloads (a 4-player line-up of one policy: the random kernel, the greedy/heuristic one), the
compile cost of a first call in a fresh process with an empty numba cache, as CPU seconds (user +
system of that process: the figure to compare on a shared machine) and wall seconds, then the first
call of a second fresh process on that cache (what every later run pays; skipped with --no-compile);
the first call's time here (loading the cache `cache=True` wrote), then the 4-player random and
greedy/heuristic rates (best of 3 rounds), and each rate as a multiple of OpenSpiel's hearts steps/s
measured in the same run, interleaved (target: >= 20x). The build is the environment's
(BALANCELAB_KERNEL_INLINE, `simcore.kernel_cache.INLINE`; the shipped one when unset).

Measured on a quiet 2-core machine, fresh compile in CPU seconds of the shipped builds (every kernel
function compiled once per argument types, `simcore.kernel_cache.njit`): nightsim random 40, greedy 45
(numba's versions per constant took the dreamsim heuristic to 157); dreamsim heuristic 60-65 and random
36-41 for the kernel whose decision functions are compiled on their own. dreamsim ships its "never"
build with them inlined into its game loops (`dreamsim/kernel/cache.py`); on a 2-core machine at load
~7, paired runs against that kernel: heuristic 36-38 CPU s against 40-43, random 20-21 against 24, and
4 x random 21.4x hearts against 16.4x in back-to-back runs (1.2-1.3x the decisions/s interleaved). The
"always" build (BALANCELAB_KERNEL_INLINE) took over 135 for the heuristic; nightsim ships "always". A
second process on the cache: 1-2 CPU s.
"""
from __future__ import annotations

import importlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hearts_ref import hearts_steps_per_second  # noqa: E402

TARGET = 20.0
WORKLOADS = {"nightsim": ("random", "greedy"), "dreamsim": ("random", "heuristic")}


def kernel_rate(module, policy: str, seconds: float) -> tuple[float, float]:
    """(decisions/s, games/s) of whole records, as analyses.simulate gets them (play_columns when the
    kernel has it, else play_batch): best of 3 rounds of seconds/3, batches of fresh seeds."""
    rules = module.Rules(players=4)
    best, seed, batch = (0.0, 0.0), 10_000, 2000
    for _ in range(3):
        t0 = time.perf_counter()
        games = decisions = 0
        while time.perf_counter() - t0 < seconds / 3:
            lineups, seeds = [(policy,) * 4] * batch, range(seed, seed + batch)
            if hasattr(module.KERNEL, "play_columns"):
                decisions += int(np.sum(module.KERNEL.play_columns(rules, lineups, seeds)["decisions"]))
            else:
                decisions += sum(r["decisions"] for r in module.KERNEL.play_batch(rules, lineups, seeds))
            seed += batch
            games += batch
        dt = time.perf_counter() - t0
        if decisions / dt > best[0]:
            best = (decisions / dt, games / dt)
    return best


def _arrays_decisions(module, kernel, rules, policy: str, seeds) -> int:
    """Decisions of a batch through the kernel's array API: nightsim's play_arrays takes one lineup per
    game and returns named columns, dreamsim's takes one lineup for all and returns (per game, per seat)."""
    if module.__name__ == "dreamsim":
        per_game, _ = kernel.play_arrays(rules, [policy] * 4, seeds)
        decisions = importlib.import_module("dreamsim.kernel.play").GAME_FIELDS.index("decisions")
        return int(per_game[:, decisions].sum())
    return int(np.sum(kernel.play_arrays(rules, [(policy,) * 4] * len(seeds), seeds)["decisions"]))


def kernel_arrays_rate(module, policy: str, seconds: float) -> float | None:
    """decisions/s of the array API without building records (`kernel.play_arrays`), if any."""
    kernel = importlib.import_module(module.__name__ + ".kernel.play_batch")
    if getattr(kernel, "play_arrays", None) is None:
        return None
    rules = module.Rules(players=4)
    best, seed, batch = 0.0, 50_000, 5000
    for _ in range(3):
        t0 = time.perf_counter()
        decisions = 0
        while time.perf_counter() - t0 < seconds / 3:
            decisions += _arrays_decisions(module, kernel, rules, policy, range(seed, seed + batch))
            seed += batch
        best = max(best, decisions / (time.perf_counter() - t0))
    return best


def _child_run(code: str, env: dict) -> tuple[float, float]:
    """(CPU s, wall s) of `python -c code` in a new process: user + system time of the child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def fresh_compile_seconds(game: str, policy: str) -> tuple[float, float, float, float]:
    """(CPU s, wall s) of a first 4-player batch of `policy` in a new process whose numba cache is
    empty (the compile cost), then (CPU s, wall s) of the same in a second new process on that cache."""
    code = (f"import {game}; r = {game}.Rules(players=4); "
            f"{game}.KERNEL.play_batch(r, [({policy!r},) * 4], [1])")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        return _child_run(code, env) + _child_run(code, env)


def main(seconds: float = 3.0, compile_time: bool = True) -> None:
    games = []
    for name in WORKLOADS:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if getattr(module, "KERNEL", None) is not None:
            games.append(module)
    print(f"{'workload':36} {'decisions/s':>12} {'games/s':>9} {'x hearts':>9}  target")
    for module in games:
        if compile_time:
            for policy in WORKLOADS[module.__name__]:
                if not module.KERNEL.supports(module.Rules(players=4), [policy] * 4):
                    continue
                cpu, wall, cached_cpu, cached_wall = fresh_compile_seconds(module.__name__, policy)
                print(f"{module.__name__} 4p {policy} first call, new process: empty cache {cpu:.1f} CPU s "
                      f"({wall:.1f} s wall), cached {cached_cpu:.1f} CPU s ({cached_wall:.1f} s wall)")
        t0 = time.perf_counter()
        for policy in WORKLOADS[module.__name__]:
            if module.KERNEL.supports(module.Rules(players=4), [policy] * 4):
                module.KERNEL.play_batch(module.Rules(players=4), [(policy,) * 4], [1])
        print(f"{module.__name__} kernel first call here (cache load or compile): {time.perf_counter() - t0:.1f} s")
        for policy in WORKLOADS[module.__name__]:
            if not module.KERNEL.supports(module.Rules(players=4), [policy] * 4):
                print(f"{module.__name__} 4p {policy}: no kernel for this policy")
                continue
            hearts = hearts_steps_per_second(2.0)
            rate, games_per_s = kernel_rate(module, policy, seconds)
            arrays = kernel_arrays_rate(module, policy, seconds)
            ratio = f"{rate / hearts:9.1f}" if hearts else "      n/a"
            print(f"{module.__name__} 4p {policy} (columns)".ljust(36)
                  + f" {rate:12,.0f} {games_per_s:9,.0f} {ratio}  >= {TARGET:.0f}x")
            if arrays is not None:
                ratio = f"{arrays / hearts:9.1f}" if hearts else "      n/a"
                print(f"{module.__name__} 4p {policy} (arrays)".ljust(36) + f" {arrays:12,.0f} {'':>9} {ratio}")
            print(f"{'  hearts reference (same run)':36} {hearts or float('nan'):12,.0f}")


if __name__ == "__main__":
    numbers = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(float(numbers[0]) if numbers else 3.0, compile_time="--no-compile" not in sys.argv)
