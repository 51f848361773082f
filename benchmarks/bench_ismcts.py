"""Strength and speed of IS-MCTS against the best shipped heuristic (issue 17 targets).

2-player games, seats rotated (deal k is played twice, IS-MCTS in seat 0 then in seat 1, the
same seed), IS-MCTS at a budget vs Nightmarium's `greedy` / Midnighters' `heuristic`. Prints
the search policy's win rate with its 95% Wilson interval and n, timeouts, and wall seconds
per game on one core. Targets: win rate >= 60% with the lower bound > 50%, <= 10 s per game.

    PYTHONPATH=$PWD python benchmarks/bench_ismcts.py --game nightsim --deals 20 --iterations 100
    PYTHONPATH=$PWD python benchmarks/bench_ismcts.py --game dreamsim --deals 20 --iterations 100
"""
from __future__ import annotations

import argparse
import time

from scipy.stats import binomtest

from analyses.games import load_game, resolve_policies

OPPONENT = {"nightsim": "greedy", "dreamsim": "heuristic"}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(OPPONENT), default="nightsim")
    ap.add_argument("--deals", type=int, default=10, help="deals; each is played with seats rotated (2 games)")
    ap.add_argument("--iterations", type=int, default=100, help="per decision (the policy default)")
    ap.add_argument("--options", default="", help="extra ismcts options, e.g. ':cutoff=40:c=1.0'")
    ap.add_argument("--opponent", default=None)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    module = load_game(args.game)
    spec = f"ismcts:{args.iterations}{args.options}"
    opponent = args.opponent or OPPONENT[args.game]
    search = resolve_policies(module, f"{spec},{opponent}", 2)[0]
    rules = module.Rules(players=2)
    wins = games = timeouts = 0
    seconds = []
    for deal in range(args.deals):
        for seat in (0, 1):
            seats = [search, opponent] if seat == 0 else [opponent, search]
            t0 = time.perf_counter()
            res = module.play_game(rules, seats, seed=args.seed + deal)
            seconds.append(time.perf_counter() - t0)
            games += 1
            wins += res.winner == seat
            timeouts += res.timed_out
        ci = binomtest(wins, games).proportion_ci(method="wilson")
        print(f"  after {games:4d} games: {wins / games:.3f} [{ci.low:.3f}, {ci.high:.3f}]", flush=True)
    ci = binomtest(wins, games).proportion_ci(method="wilson")
    print(f"{args.game} 2p: {search!r} vs {opponent!r}, seats rotated, seed {args.seed}")
    print(f"win rate {wins / games:.3f} (95% Wilson [{ci.low:.3f}, {ci.high:.3f}], n={games}, wins {wins}, "
          f"timeouts {timeouts})")
    print(f"seconds per game: mean {sum(seconds) / games:.2f}, max {max(seconds):.2f} (one process, loaded machine)")


if __name__ == "__main__":
    main()
