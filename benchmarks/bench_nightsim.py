"""Throughput of nightsim on one core: games/s and decisions/s, 4 players.

    python benchmarks/bench_nightsim.py            # ~10 s per policy set
    python benchmarks/bench_nightsim.py --seconds 30 --players 4 --seals

Target (issue 2): >= 100,000 decisions/s for 4-player `random` on one core.
Prints the best of 3 timed rounds (machines here are shared; the best round is the least
disturbed). For the ratio to OpenSpiel, run ../shared/bench/openspiel_hearts.py beside it.
"""
import argparse

from _throughput import measure

import nightsim


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seals", action="store_true")
    args = ap.parse_args()
    rules = nightsim.Rules(players=args.players, seals=args.seals)
    print(f"nightsim {nightsim.RULES_VERSION}, {args.players} players, seals={args.seals}, one core")
    for name in ("random", "greedy"):
        g, d = measure(nightsim.play_game, rules, [name] * args.players, args.seconds)
        print(f"{name:>8}: {g:8.0f} games/s  {d:10.0f} decisions/s")


if __name__ == "__main__":
    main()
