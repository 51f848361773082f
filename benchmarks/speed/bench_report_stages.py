"""The default report's card-game stages: CPU and wall seconds, engine 'python' against 'auto' (prints figures).

    PYTHONPATH=$PWD python benchmarks/speed/bench_report_stages.py                       # the default report's sizes
    PYTHONPATH=$PWD python benchmarks/speed/bench_report_stages.py --games 600 --compare # smaller, and the tables compared

For each card game (Nightmarium, Midnighters) the report's stages are played as `balancelab report` plays them
(`analyses.study.simulate_study` for the game's standard runs, then `analyses.replication.simulate_confirmation`
for the claims its analysis selected), once with engine='python' (what the report played before it took the
batch kernels) and once with engine='auto', in one process with n_jobs=1 (so the CPU seconds are all of
this process: `time.process_time`), the two engines alternating game by game on the same machine.

With --compare every table of the game's report section (`analyses.study.analyse_game`: each DataFrame of the
`GameStudy`) and every run's frame is compared between the engines (`pandas.testing.assert_frame_equal`):
the kernels play the Python engine's games for the same seeds, so the report must be the same.

The kernels come from numba's cache: a fresh checkout compiles them on the first call (a few minutes for
Midnighters'), so run the script once before timing, or pass --warm to play one kernel game of each first.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time

import pandas as pd

from analyses.games import load_game
from analyses.options import STUDY_GAMES
from analyses.replication import simulate_confirmation
from analyses.study import analyse_study, simulate_study

CARD_GAMES = ("nightsim", "dreamsim")


def stage(name: str, games: int, seed: int, engine: str) -> tuple[dict, dict, float, float, float, float]:
    """(runs, confirmation runs, CPU and wall seconds of the study runs, CPU and wall of the confirmation)."""
    cpu, wall = time.process_time(), time.perf_counter()
    runs, _ = simulate_study(games, games=[name], seed=seed, progress=False, engine=engine)
    study_cpu, study_wall = time.process_time() - cpu, time.perf_counter() - wall
    study = analyse_study(runs, seed=seed, n_games=games)
    cpu, wall = time.process_time(), time.perf_counter()
    confirmation = simulate_confirmation(study, seed=seed, progress=False, engine=engine)
    return runs, confirmation, study_cpu, study_wall, time.process_time() - cpu, time.perf_counter() - wall


def compare(name: str, python: dict, auto: dict) -> int:
    """Every run's frame and every table of the game's report section, Python against auto; the count compared."""
    count = 0
    for run, df in python.items():
        pd.testing.assert_frame_equal(df, auto[run])
        count += 1
    a = analyse_study({name: python}).games[name]
    b = analyse_study({name: auto}).games[name]
    for field in dataclasses.fields(a):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(x, pd.DataFrame):
            pd.testing.assert_frame_equal(x, y)
            count += 1
        elif isinstance(x, pd.Series):
            pd.testing.assert_series_equal(x, y)
            count += 1
        elif isinstance(x, dict) and field.name == "extra":
            for title, table in x.items():
                pd.testing.assert_frame_equal(table, y[title])
                count += 1
    return count


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=STUDY_GAMES, help=f"the report's --games (default {STUDY_GAMES})")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=CARD_GAMES, help="one card game (default both)")
    parser.add_argument("--compare", action="store_true", help="also compare every frame and table of the two engines")
    parser.add_argument("--warm", action="store_true", help="play one kernel game of each game first (compile/load)")
    args = parser.parse_args(argv)
    print(f"command: python {' '.join(sys.argv)}")
    names = args.game or list(CARD_GAMES)
    if args.warm:
        for name in names:
            module = load_game(name)
            module.KERNEL.play_batch(module.Rules(), [(PLAN_MAIN[name],) * module.Rules().players], [1])
    totals = {"python": [0.0, 0.0], "auto": [0.0, 0.0]}
    for name in names:
        played = {}
        for engine in ("python", "auto"):
            runs, confirmation, s_cpu, s_wall, c_cpu, c_wall = stage(name, args.games, args.seed, engine)
            played[engine] = (runs, confirmation)
            totals[engine][0] += s_cpu + c_cpu
            totals[engine][1] += s_wall + c_wall
            n = sum(len(df) for df in runs[name].values())
            m = sum(len(df) for game in confirmation.values() for df in game.values())
            engines = sorted({df.attrs["engine"] for df in runs[name].values()})
            print(f"{name:9} engine={engine:6}: study runs {n:6,} games {s_cpu:7.1f} CPU s ({s_wall:7.1f} s wall); "
                  f"confirmation {m:6,} games {c_cpu:7.1f} CPU s ({c_wall:7.1f} s wall); played by {'+'.join(engines)}")
        if args.compare:
            count = compare(name, played["python"][0][name], played["auto"][0][name])
            for game, runs in played["python"][1].items():
                for run, df in runs.items():
                    pd.testing.assert_frame_equal(df, played["auto"][1][game][run])
                    count += 1
            print(f"{name:9} the same under both engines: {count} frames and report tables compared, all equal")
    py, auto = totals["python"], totals["auto"]
    print(f"card-game stages: python {py[0]:.1f} CPU s ({py[1]:.1f} s wall), auto {auto[0]:.1f} CPU s "
          f"({auto[1]:.1f} s wall) -> {py[0] / auto[0]:.1f}x CPU, {py[1] / auto[1]:.1f}x wall (target >= 5x)")


PLAN_MAIN = {"nightsim": "greedy", "dreamsim": "heuristic"}


if __name__ == "__main__":
    main()
