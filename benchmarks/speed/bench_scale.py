"""Scale curve of analyses.simulate, and n_jobs=2 as a share of the machine's 2-process ceiling.
Prints figures; asserts nothing.

    python benchmarks/speed/bench_scale.py                          # nightsim random: 1e3..1e5 games, 4,000-game speedup
    python benchmarks/speed/bench_scale.py --sizes 1000,10000 --repeat 3
    python benchmarks/speed/bench_scale.py --skip-curve --speedup-games 4000 --repeat 5

(1) time and peak memory of `simulate()` for each size: the Python engine up to --sizes, and
    the compiled kernel (`engine="kernel"`) up to --kernel-sizes when `simulate` accepts
    `engine=` (else those rows are skipped with a note).
(2) n_jobs=1 vs n_jobs=2 on --speedup-games games, each from a cold start (a fresh process:
    the n_jobs=2 time includes starting the workers and their imports), interleaved with the
    machine's own ceiling measured the same way: a plain CPU loop of the same total work in 1
    process vs split over 2 processes. The speedup is reported as a share of that ceiling,
    round by round and as the median, so load from other processes affects both alike. On a
    machine shared with other work the wall figures mostly measure the neighbours, so each
    round also prints CPU seconds: the serial run's and the busiest worker's (start-up included).
(3) what each worker pays before its first game: the CPU seconds a fresh interpreter spends
    importing the module of the function the runner sends to workers, and the game.

Every measurement runs in a fresh interpreter (`--child`), timed around the `simulate` call
only (the parent imports `analyses` and the game first), with the peak RSS of that process
and its workers sampled every 20 ms.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import statistics
import subprocess
import sys
import threading
import time

import psutil

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.child:
        print(json.dumps(child(args)))
        return
    import analyses  # noqa: PLC0415  # lazy: the --child runs import it themselves, timed separately

    kernel = "engine" in inspect.signature(analyses.simulate).parameters
    print(f"bench_scale: analyses from {os.path.dirname(analyses.__file__)}, game {args.game}, policies "
          f"{args.policies}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    if not args.skip_curve:
        print(f"(1) scale curve, n_jobs={args.jobs}")
        print(f"    {'engine':<7} {'games':>9} {'time s':>8} {'games/s':>9} {'peak RSS MB':>12}")
        for n in sizes(args.sizes):
            curve_row(args, "python", n)
        if kernel:
            for n in sizes(args.kernel_sizes):
                curve_row(args, "kernel", n)
        else:
            print("    kernel rows skipped: this checkout's analyses.simulate has no engine= option")
    if args.repeat < 1:
        return
    print(f"(2) speedup on {args.speedup_games} games, n_jobs=1 vs 2, cold start; ceiling = CPU loop in 1 vs 2 "
          f"processes, same run")
    shares = speedup_shares(args, report=print)
    print(f"    median share of the ceiling: {statistics.median(shares):.2f} (target >= 0.8)")
    module = importlib.import_module("analyses.runner").play_chunk.__module__
    startup = [run_child(args, "startup", module=module)["cpu"] for _ in range(args.repeat)]
    print(f"(3) worker start-up: a fresh interpreter importing the chunk function's module ({module}) and "
          f"{args.game}: {statistics.median(startup):.2f} CPU s (median of {args.repeat}; CPU seconds, robust to load)")


def speedup_shares(args, report=None) -> list[float]:
    """args.repeat interleaved rounds of (ceiling, n_jobs=1, n_jobs=2), each in fresh interpreters: the
    n_jobs=2 speedup on args.speedup_games games as a share of the machine's ceiling of that round.
    `benchmarks/speed/bench_all.py` prints the median as its scale row."""
    shares = []
    for r in range(args.repeat):
        ceiling = run_child(args, "ceiling")["ceiling"]
        serial = run_child(args, "simulate", games=args.speedup_games, jobs=1)
        parallel = run_child(args, "simulate", games=args.speedup_games, jobs=2)
        speedup = serial["wall"] / parallel["wall"]
        shares.append(speedup / ceiling)
        busiest = parallel["workers_cpu"][0] if parallel["workers_cpu"] else parallel["wall"]
        if report is not None:
            report(f"    round {r + 1}: n_jobs=1 {serial['wall']:.2f} s, n_jobs=2 {parallel['wall']:.2f} s -> "
                   f"{speedup:.2f}x; ceiling {ceiling:.2f}x -> share {speedup / ceiling:.2f} | CPU: serial "
                   f"{serial['cpu']:.2f} s, busiest worker {busiest:.2f} s (start-up included)")
    return shares


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nightsim")
    parser.add_argument("--policies", default="random")
    parser.add_argument("--sizes", default="1000,10000,100000", help="games per curve row (Python engine)")
    parser.add_argument("--kernel-sizes", default="1000,10000,100000,1000000", help="rows with engine='kernel'")
    parser.add_argument("--jobs", type=int, default=1, help="n_jobs of the curve rows")
    parser.add_argument("--speedup-games", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds of ceiling, n_jobs=1, n_jobs=2 (0: curve only)")
    parser.add_argument("--ceiling-loops", type=int, default=30_000_000, help="total work of the ceiling loop")
    parser.add_argument("--skip-curve", action="store_true")
    parser.add_argument("--child", choices=("simulate", "ceiling", "startup"), help=argparse.SUPPRESS)
    parser.add_argument("--module", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=1000, help=argparse.SUPPRESS)
    parser.add_argument("--engine", default=None, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def sizes(text: str) -> list[int]:
    return [int(float(s)) for s in text.split(",") if s.strip()]


def curve_row(args, engine: str, n: int) -> None:
    try:
        out = run_child(args, "simulate", games=n, jobs=args.jobs, engine=None if engine == "python" else engine)
    except SystemExit as failed:  # e.g. no kernel for these policies: say so and go on
        print(f"    {engine:<7} {n:>9,} failed: {str(failed).strip().splitlines()[-1]}")
        return
    print(f"    {engine:<7} {n:>9,} {out['wall']:>8.2f} {n / out['wall']:>9,.0f} {out['peak_rss'] / 2**20:>12.0f}")


def run_child(args, what: str, games: int | None = None, jobs: int | None = None, engine: str | None = None,
              module: str | None = None) -> dict:
    command = [sys.executable, os.path.join(HERE, "bench_scale.py"), "--child", what, "--game", args.game,
               "--policies", args.policies, "--ceiling-loops", str(args.ceiling_loops)]
    if games is not None:
        command += ["--games", str(games), "--jobs", str(jobs)]
    if engine is not None:
        command += ["--engine", engine]
    if module is not None:
        command += ["--module", module]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"child failed: {' '.join(command)}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def child(args) -> dict:
    if args.child == "ceiling":
        return {"ceiling": ceiling(args.ceiling_loops)}
    if args.child == "startup":
        cpu = time.process_time()
        importlib.import_module(args.module)
        importlib.import_module(args.game)
        return {"cpu": time.process_time() - cpu}
    import analyses  # noqa: PLC0415  # lazy: only the --child runs simulate
    from analyses.games import load_game  # noqa: PLC0415  # lazy: as above

    load_game(args.game)
    simulate = analyses.simulate
    extra = {} if args.engine is None else {"engine": args.engine}
    with RssSampler() as sampler:
        started, cpu = time.perf_counter(), time.process_time()
        df = simulate(args.game, args.games, policies=args.policies, n_jobs=args.jobs, progress=False, **extra)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert len(df) == args.games
    return {"wall": wall, "cpu": cpu, "peak_rss": sampler.peak, "workers_cpu": children_cpu()}


def children_cpu() -> list[float]:
    """CPU seconds used by each child process still alive (loky keeps its workers for reuse), start-up included."""
    usage = []
    for process in psutil.Process().children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        usage.append(times.user + times.system)
    return sorted(usage, reverse=True)


def ceiling(loops: int) -> float:
    """Time of `loops` iterations in one process over the time of loops/2 in each of two processes
    started beforehand (released together): the 2-process speedup the machine allows right now."""
    import multiprocessing as mp  # noqa: PLC0415  # lazy: only the ceiling child uses it

    context = mp.get_context("fork")
    started = time.perf_counter()
    _spin(loops)
    serial = time.perf_counter() - started
    go = context.Event()
    workers = [context.Process(target=_wait_and_spin, args=(go, loops // 2)) for _ in range(2)]
    for worker in workers:
        worker.start()
    time.sleep(0.2)
    started = time.perf_counter()
    go.set()
    for worker in workers:
        worker.join()
    return serial / (time.perf_counter() - started)


def _wait_and_spin(go, loops: int) -> None:
    go.wait()
    _spin(loops)


def _spin(loops: int) -> int:
    total = 0
    for i in range(loops):
        total += i
    return total


class RssSampler:
    """Peak resident memory of this process plus its child processes (the workers), sampled."""

    def __init__(self, interval: float = 0.02):
        self.interval, self.peak = interval, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> int:
        me = psutil.Process()
        total = me.memory_info().rss
        for process in me.children(recursive=True):
            try:
                total += process.memory_info().rss
            except psutil.Error:
                continue
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._sample())
            self._stop.wait(self.interval)

    def __enter__(self) -> RssSampler:
        self.peak = self._sample()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._sample())


if __name__ == "__main__":
    main()
