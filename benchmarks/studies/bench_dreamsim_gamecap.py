"""Re-play the heaviest games of a `bench_dreamsim_paired.py --jsonl` file with another search spec.

For a per-game bound such as `gamecap=N` (analyses.search.ismcts: after N searched decisions a seat plays
the rollout policy's own choice): every game of FILE whose CPU was at least --min-cpu seconds is played again
(same deal, same seat, against the same opponent) with --spec, and the script prints per game the winner, CPU
seconds (process time, one core), the searched decisions the chooser counted and whether the outcome is the
one FILE recorded; then the games where the cap was reached, outcomes kept / games, and the CPU maximum, with
the smallest CPU per searched decision (FILE's CPU / count, for games under the cap): a game under
--min-cpu could reach the cap only if it cost less than --min-cpu / N per searched decision.

    PYTHONPATH=$PWD python benchmarks/studies/bench_dreamsim_gamecap.py --jsonl confirm9000.jsonl \\
        --spec ismcts:default:gamecap=80 --min-cpu 2.5
"""
from __future__ import annotations

import argparse
import json
import os
import time

import dreamsim
from analyses.games import resolve_policies
from analyses.search.ismcts import CappedChooser


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jsonl", required=True, help="a bench_dreamsim_paired.py --jsonl file (one arm)")
    ap.add_argument("--spec", default="ismcts:default:gamecap=80")
    ap.add_argument("--min-cpu", type=float, default=2.5, help="re-play the games that took at least this (s)")
    args = ap.parse_args(argv)
    with open(args.jsonl) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    heavy = sorted((r for r in rows if r["cpu"] >= args.min_cpu), key=lambda r: -r["cpu"])
    policy = resolve_policies(dreamsim, f"{args.spec},heuristic", 2)[0]
    cap = policy.gamecap
    made: list = []
    make = policy.for_game

    class Keep:   # the search, keeping the chooser each game makes (to read its `searched`)
        observes = True

        def for_game(self, rng):
            made.append(make(rng))
            return made[-1]

        def __call__(self, observation, legal, rng):
            raise RuntimeError("play_game plays a policy through its for_game")

        def __repr__(self):
            return args.spec

    rules = dreamsim.Rules(players=2)
    kept, reached, cpus, per = 0, [], [], []
    print(f"{len(heavy)} of {len(rows)} games of {args.jsonl} with CPU >= {args.min_cpu} s, re-played with "
          f"{args.spec}, load {os.getloadavg()[0]:.1f}")
    for r in heavy:
        deal, seat, opponent = r["deal"], r["seat"], r.get("opponent", "heuristic")
        seats = [Keep(), opponent] if seat == 0 else [opponent, Keep()]
        t0 = time.process_time()
        winner = dreamsim.play_game(rules, seats, seed=deal).winner
        cpu = time.process_time() - t0
        chooser = made[-1]
        searched = chooser.searched if isinstance(chooser, CappedChooser) else -1
        won = int(winner == seat)
        kept += won == r["won"]
        cpus.append(cpu)
        if cap and searched >= cap:
            reached.append(f"{deal}/{seat}")
        elif searched > 0:
            per.append(r["cpu"] / searched)
        print(f"deal {deal} seat {seat}: won {won} (was {r['won']}), CPU {cpu:.2f} s (was {r['cpu']:.2f}), "
              f"searched {searched}", flush=True)
    print(f"cap {cap} reached in {len(reached)} games ({', '.join(reached) or 'none'}); outcomes as before "
          f"{kept}/{len(heavy)}; CPU s/game max {max(cpus, default=0):.2f}; CPU per searched decision "
          f"(games under the cap) min {min(per, default=float('nan')):.3f} s; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
