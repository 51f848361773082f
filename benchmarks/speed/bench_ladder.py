"""Time the default skill ladder per game ( target: `balancelab ladder GAME` <= 30 min on 2 cores).

Runs `analyses.skill_ladder(game, n_jobs=JOBS)` with the game's defaults (or --games /
--findings-games), prints the ladder's tables, the wall time and the CPU time of this process
and its joblib workers (psutil, read before the workers are shut down), and stores each ladder
as JSON in --out-dir for `balancelab report --ladder DIR`. On a shared machine the wall time
depends on the load; CPU seconds / 2 is the wall time on 2 free cores.

    PYTHONPATH=$PWD python benchmarks/speed/bench_ladder.py --game nightsim --jobs 2 --out-dir runs/ladders
    PYTHONPATH=$PWD python benchmarks/speed/bench_ladder.py --game nightsim --game dreamsim --game nerathsim
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import psutil

from analyses.ladder import default_ladder, skill_ladder


def cpu_seconds() -> float:
    """User + system CPU seconds of this process, its finished children and its live workers."""
    me = psutil.Process()
    t = me.cpu_times()
    total = t.user + t.system + t.children_user + t.children_system
    for child in me.children(recursive=True):
        try:
            c = child.cpu_times()
            total += c.user + c.system
        except psutil.Error:
            pass
    return total


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="repeatable (default: nightsim)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--games", type=int, default=None, help="games per pairing (default: the game's default)")
    ap.add_argument("--findings-games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out-dir", type=Path, default=Path("runs/ladders"))
    args = ap.parse_args(argv)
    for game in args.game or ["nightsim"]:
        rungs = default_ladder(game)
        print(f"== {game}: {', '.join(rungs)} (jobs {args.jobs}, {os.cpu_count()} cores on this machine, "
              f"load {os.getloadavg()[0]:.1f}) ==", flush=True)
        cpu0, t0 = cpu_seconds(), time.perf_counter()
        ladder = skill_ladder(game, games=args.games, findings_games=args.findings_games, seed=args.seed,
                              n_jobs=args.jobs, progress=False)
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - cpu0
        print(ladder.to_text())
        path = ladder.save(args.out_dir / f"{ladder.metadata['game']}.json")
        m = ladder.metadata
        print(f"\n{game}: {m['games_played']:,} games ({m['rating_games']:,} rating, {m['findings_games_played']:,} "
              f"self-play) in {wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU (= {cpu / 120:.1f} min on 2 free "
              f"cores); load now {os.getloadavg()[0]:.1f}; stored {path}\n", flush=True)


if __name__ == "__main__":
    main()
