"""Throughput of dreamsim on one core: games/s and decisions/s.

    python benchmarks/bench_dreamsim.py                 # ~10 s per policy set, 4 players
    python benchmarks/bench_dreamsim.py --seconds 30 --players 6 --policies random runner

Target (issue 7): >= 100,000 decisions/s for 4-player `random` on one core.
Prints the best of 3 timed rounds (machines here are shared; the best round is the least
disturbed). For the ratio to OpenSpiel, run ../shared/bench/openspiel_hearts.py beside it.
"""
import argparse

from _throughput import measure

import dreamsim


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policies", nargs="+", default=["random", "runner"],
                    help="policy names; each is benchmarked with every seat playing it")
    args = ap.parse_args()
    rules = dreamsim.Rules(players=args.players)
    print(f"dreamsim {dreamsim.RULES_VERSION}, {args.players} players, one core")
    for name in args.policies:
        g, d = measure(dreamsim.play_game, rules, [name] * args.players, args.seconds)
        print(f"{name:>10}: {g:8.0f} games/s  {d:10.0f} decisions/s")


if __name__ == "__main__":
    main()
