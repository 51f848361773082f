"""CPU seconds of one skill-ladder game per kind of pairing (sizing a default ladder's game counts).

Plays the ladder's own games (2 players, seat order 'fixed', game d = deal d of run seed --seed,
both seat orders of each deal) one at a time in this process and prints, per pairing, the CPU
seconds (time.process_time) per game: mean, max and the games timed. A pairing is given as
A/B (A against B; A/A is a self-play game, as the findings play it). Nerath at 2 players is one
alliance against the other, so a search rung searches for both realms of its seat.

    PYTHONPATH=$PWD python benchmarks/speed/bench_ladder_costs.py --game nerathsim --deals 1 \
        --pairing tuned/balanced --pairing ismcts:4:base=tuned/tuned --pairing ismcts:default/tuned
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from analyses.games import load_game, make_rules, resolve_policies
from analyses.plan import deal_seed


def time_pairing(module, rules, a: str, b: str, deals: int, seed: int) -> list[float]:
    """CPU seconds of each game: deals 0..deals-1, `a` in seat 0 then `b` in seat 0 (a self-play
    pairing a/a plays each deal once)."""
    lineups = [[a, b]] if a == b else [[a, b], [b, a]]
    out = []
    for lineup in lineups:
        for deal in range(deals):
            policies = resolve_policies(module, lineup, rules.players)
            t0 = time.process_time()
            module.play_game(rules, policies, deal_seed(seed, deal))
            out.append(time.process_time() - t0)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="nerathsim")
    ap.add_argument("--pairing", action="append", required=True, help="A/B, repeatable")
    ap.add_argument("--deals", type=int, default=1)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    module = load_game(args.game)
    rules = make_rules(module, {"players": args.players})
    print(f"{module.__name__}: {args.players} players, deals 0..{args.deals - 1} of seed {args.seed}, "
          f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    print("pairing | games | CPU s per game: mean, max", flush=True)
    for pairing in args.pairing:
        a, _, b = pairing.partition("/")
        seconds = np.array(time_pairing(module, rules, a, b or a, args.deals, args.seed))
        print(f"{a} vs {b or a} | {len(seconds)} | {seconds.mean():.2f}, {seconds.max():.2f}  "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
