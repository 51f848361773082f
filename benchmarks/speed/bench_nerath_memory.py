"""Memory over many Nerath games in one process: resident memory, objects the collector tracks, and CPU
per game, printed every tenth of the run (the raised collector threshold while a
game runs, `nerathsim.game.quiet_gc`, must keep memory flat — compare a checkout before and after).

    PYTHONPATH=$PWD python benchmarks/speed/bench_nerath_memory.py --games 1000

Short free-for-all games, 4 x balanced, seeds 50,000 on (as bench_all.py). Resident memory grows a
little at first while the process-wide caches fill (the table of solved odds, the policies' caches).
"""
import argparse
import gc
import os
import time

import nerathsim


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    a = ap.parse_args()
    rules = nerathsim.Rules(mode="free_for_all")
    step = max(1, a.games // 10)
    c0 = time.process_time()
    print(f"{'games':>6s} {'RSS MB':>8s} {'gc objects':>11s} {'CPU ms/game':>12s}")
    for i in range(a.games):
        nerathsim.play_game(rules, ["balanced"] * 4, 50_000 + i)
        if (i + 1) % step == 0 or i + 1 == a.games:
            print(f"{i + 1:6d} {rss_mb():8.1f} {len(gc.get_objects()):11d} "
                  f"{1000 * (time.process_time() - c0) / (i + 1):12.1f}", flush=True)


if __name__ == "__main__":
    main()
