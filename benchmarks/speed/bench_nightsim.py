"""Throughput of nightsim on one core: games/s and decisions/s, 4 players, every shipped policy.

    python benchmarks/speed/bench_nightsim.py            # ~10 s per policy
    python benchmarks/speed/bench_nightsim.py --seconds 30 --players 4 --seals --policies random,greedy

Target: >= 100,000 decisions/s for 4-player `random` on one core.
Prints the best of 3 timed rounds (machines here are shared; the best round is the least
disturbed), and the cost of one `observe` (an observation is a copied value).
For the ratio to OpenSpiel hearts in the same run, use benchmarks/speed/bench_vs_hearts.py.
"""
import argparse
import time

import numpy as np

import nightsim
from nightsim.engine.engine import apply_legal

from _throughput import measure


def observe_cost(rules, n=20000) -> float:
    """Microseconds per observe() at a mid-game decision (the creatures' copy shared, as in play)."""
    rng = np.random.default_rng(1)
    s = nightsim.new_game(rules, rng)
    for _ in range(30 * rules.players):
        if s.is_terminal:
            break
        legal = nightsim.legal_actions(s)
        apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n):
            nightsim.observe(s, s.current_player)
        dt = (time.perf_counter() - t0) / n * 1e6
        best = dt if best is None or dt < best else best
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seals", action="store_true")
    ap.add_argument("--policies", default=",".join(nightsim.POLICIES),
                    help="comma-separated policy names, each played in every seat (default: all shipped)")
    args = ap.parse_args()
    names = [p.strip() for p in args.policies.split(",") if p.strip()]
    unknown = [p for p in names if p not in nightsim.POLICIES]
    if unknown:
        ap.error(f"unknown policies {unknown}; known: {', '.join(nightsim.POLICIES)}")
    rules = nightsim.Rules(players=args.players, seals=args.seals)
    print(f"nightsim {nightsim.RULES_VERSION}, {args.players} players, seals={args.seals}, one core")
    for name in names:
        g, d = measure(nightsim.play_game, rules, [name] * args.players, args.seconds)
        print(f"{name:>9}: {g:8.0f} games/s  {d:10.0f} decisions/s")
    print(f"  observe: {observe_cost(rules):8.2f} µs per call")


if __name__ == "__main__":
    main()
