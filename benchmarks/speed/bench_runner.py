"""Throughput and memory of analyses.simulate (prints figures; asserts nothing).

    python benchmarks/speed/bench_runner.py                       # nightsim, 20,000 games for the speedup
    python benchmarks/speed/bench_runner.py --games 4000 --memory-games 20000   # quicker
    python benchmarks/speed/bench_runner.py --million             # also really run 1,000,000 games

(a) overhead of simulate(n_jobs=1) over a plain `play_game` loop          (target <= 10%),
    also as the time simulate spends outside play_game (robust to other load)
(b) speedup of n_jobs=2 over n_jobs=1 on --games games                    (target >= 1.7x)
    timed from a cold start: the n_jobs=2 figure includes starting the worker processes
(c) parent-process memory per --memory-games games, extrapolated to 1,000,000 (target < 1 GB),
    and the parent's side of a 1,000,000-game run measured directly: 1,000 chunk frames of
    recorded rows held and concatenated (what the parent does while workers play)

Wall-clock figures need idle CPUs. On a shared machine they mostly measure the neighbours,
so every figure is also given in CPU seconds (psutil): (a) CPU time of the loop vs simulate;
(b) the busiest worker's CPU time (start-up included) against the serial run's CPU time,
which is the speedup the run would reach on idle CPUs; and the machine's own ceiling right
now (a pure-Python loop on 2 processes vs 1).
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import types
from typing import NamedTuple

import psutil
from joblib import Parallel, delayed

import analyses
from analyses import frames
from analyses.games import PROTOCOL, load_game, make_rules, resolve_policies


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    module = load_game(args.game)
    rules = make_rules(module, dict(r.split("=", 1) for r in args.rule) or None)
    lineup = resolve_policies(module, args.policies, rules.players)
    run = dict(rules=rules, policies=lineup, seed=args.seed, progress=False)
    print(f"benchmark of analyses.simulate on {module.__name__} ({module.RULES_VERSION}), policies "
          f"{','.join(map(str, lineup))}, {os.cpu_count()} CPUs")

    loop, simulated = overhead(module, rules, lineup, args.overhead_games, run, args.repeat)
    outside = outside_play_game(module, args.overhead_games, run)
    print(f"(a) overhead on {args.overhead_games} games: play_game loop {loop.wall:.2f} s wall / {loop.cpu:.2f} s CPU "
          f"({1e3 * loop.cpu / args.overhead_games:.2f} ms/game), simulate(n_jobs=1) {simulated.wall:.2f} s / "
          f"{simulated.cpu:.2f} s -> {percent(simulated.wall, loop.wall)} wall, "
          f"{percent(simulated.cpu, loop.cpu)} CPU; time outside play_game within one simulate run: "
          f"{100 * outside:+.1f}% (target <= 10%)")

    serial, parallel, workers = speedup(module, args.games, run, args.jobs)
    print(f"(b) speedup on {args.games} games: n_jobs=1 {serial.wall:.1f} s, n_jobs={args.jobs} {parallel.wall:.1f} s "
          f"(cold start) -> {serial.wall / parallel.wall:.2f}x wall; CPU: serial {serial.cpu:.1f} s, workers "
          f"{' + '.join(f'{w:.1f}' for w in workers)} s -> {serial.cpu / max(workers):.2f}x on idle CPUs "
          f"(target >= 1.7x); machine ceiling now {machine_ceiling(args.jobs, args.ceiling_loops):.2f}x")

    for n_games in [args.memory_games] + ([1_000_000] if args.million else []):
        growth, peak, frame = memory(module, n_games, run, args.jobs)
        scale = 1_000_000 / n_games
        print(f"(c) memory on {n_games} games: parent RSS +{growth / 2**20:.0f} MB (peak +{peak / 2**20:.0f} MB), "
              f"DataFrame {frame / 2**20:.1f} MB -> 1,000,000 games: peak ~{scale * peak / 2**30:.2f} GB "
              f"(target < 1 GB)")
    peak, frame = assembly_memory(module, run, args.assembly_chunks, args.assembly_chunk_games)
    rows = args.assembly_chunks * args.assembly_chunk_games
    print(f"    the parent's side measured at scale: {args.assembly_chunks} chunks x {args.assembly_chunk_games} rows "
          f"of recorded games held and concatenated: peak +{peak / 2**20:.0f} MB for a {frame / 2**20:.0f} MB "
          f"table of {rows:,} rows")


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nightsim")
    parser.add_argument("--policies", default="random")
    parser.add_argument("--rule", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--games", type=int, default=20_000, help="games for the speedup figure (b)")
    parser.add_argument("--overhead-games", type=int, default=2_000, help="games for the overhead figure (a)")
    parser.add_argument("--memory-games", type=int, default=100_000, help="games for the memory figure (c)")
    parser.add_argument("--million", action="store_true", help="also measure a real 1,000,000-game run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2, help="best of this many timings for (a)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--assembly-chunks", type=int, default=1000, help="chunks for the parent-side check")
    parser.add_argument("--assembly-chunk-games", type=int, default=1000, help="games per chunk there")
    parser.add_argument("--ceiling-loops", type=int, default=20_000_000, help="work for the CPU-ceiling check")
    return parser.parse_args(argv)


class Timing(NamedTuple):
    wall: float  # seconds
    cpu: float   # CPU seconds of this process


def timed(function) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    function()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu)


def best_of(function, repeat: int) -> Timing:
    timings = [timed(function) for _ in range(max(1, repeat))]
    return Timing(min(t.wall for t in timings), min(t.cpu for t in timings))


def percent(value: float, base: float) -> str:
    return f"{100 * (value / base - 1):+.1f}%"


def overhead(module, rules, lineup, n_games, run, repeat) -> tuple[Timing, Timing]:
    """Best-of-`repeat` timings of a plain loop and of simulate(n_jobs=1) over the same games."""
    def plain_loop():
        for i in range(n_games):
            module.play_game(rules, lineup, seed=i)

    def through_simulate():
        analyses.simulate(module, n_games, n_jobs=1, seat_order="fixed", **run)

    return best_of(plain_loop, repeat), best_of(through_simulate, repeat)


def outside_play_game(module, n_games, run) -> float:
    """Share of simulate(n_jobs=1)'s time spent outside play_game, relative to the time inside.

    Both are measured in the same run (play_game is wrapped with a timer), so load from other
    processes affects them alike: the figure that stays meaningful on a busy machine.
    """
    inside = [0.0]

    def timed_play_game(*args, **kwargs):
        started = time.perf_counter()
        result = module.play_game(*args, **kwargs)
        inside[0] += time.perf_counter() - started
        return result

    wrapper = types.ModuleType(f"timed_{module.__name__}")
    wrapper.__dict__.update({name: getattr(module, name) for name in PROTOCOL}, play_game=timed_play_game)
    sys.modules[wrapper.__name__] = wrapper  # the runner looks games up by module name
    try:
        total = timed(lambda: analyses.simulate(wrapper, n_games, n_jobs=1, seat_order="fixed", **run)).wall
    finally:
        del sys.modules[wrapper.__name__]
    return total / inside[0] - 1


def speedup(module, n_games, run, jobs) -> tuple[Timing, Timing, list[float]]:
    """Serial timing, parallel timing (run first: cold start) and each busy worker's CPU seconds."""
    before = worker_cpu()
    parallel = timed(lambda: analyses.simulate(module, n_games, n_jobs=jobs, **run))
    after = worker_cpu()
    used = sorted((cpu - before.get(pid, 0.0) for pid, cpu in after.items()), reverse=True)
    serial = timed(lambda: analyses.simulate(module, n_games, n_jobs=1, **run))
    return serial, parallel, [cpu for cpu in used if cpu > 0.05] or [parallel.wall]


def worker_cpu() -> dict[int, float]:
    """CPU seconds used so far by each child process (the joblib workers)."""
    usage = {}
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        usage[child.pid] = times.user + times.system
    return usage


def machine_ceiling(jobs: int, loops: int) -> float:
    """Speedup of `jobs` processes over one on pure-Python work: what the CPUs allow right now."""
    Parallel(n_jobs=jobs)(delayed(_spin)(1) for _ in range(jobs))  # workers started
    serial = timed(lambda: _spin(loops)).wall
    parallel = timed(lambda: Parallel(n_jobs=jobs)(delayed(_spin)(loops // jobs) for _ in range(jobs))).wall
    return serial / parallel


def _spin(loops: int) -> int:
    total = 0
    for i in range(loops):
        total += i
    return total


def memory(module, n_games, run, jobs):
    """(RSS growth after the run, peak RSS growth during it, DataFrame bytes) in the parent process."""
    analyses.simulate(module, 2 * jobs, n_jobs=jobs, **run)  # start workers and imports first
    with RssSampler() as sampler:
        df = analyses.simulate(module, n_games, n_jobs=jobs, **run)
    return sampler.last - sampler.start, sampler.peak - sampler.start, int(df.memory_usage(deep=True).sum())


def assembly_memory(module, run, chunks: int = 1000, chunk_games: int = 1000):
    """Peak RSS growth while the parent holds `chunks` chunk frames and concatenates them.

    This is the parent's whole job in a 1,000,000-game run (the games themselves are played
    in the workers), measured on copies of one chunk of real rows instead of playing them.
    """
    chunk = analyses.simulate(module, chunk_games, **run)
    with RssSampler() as sampler:
        table = frames.concat_frames([chunk.copy() for _ in range(chunks)])
    return sampler.peak - sampler.start, int(table.memory_usage(deep=True).sum())


class RssSampler:
    """Samples this process's resident memory every 20 ms while active."""

    def __init__(self):
        self.process = psutil.Process()
        self.start = self.peak = self.last = self.process.memory_info().rss
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.last = self.process.memory_info().rss
        self.peak = max(self.peak, self.last)


if __name__ == "__main__":
    main()
