"""CPU seconds of a Nerath game with the ladder's search rung (`ismcts:4:base=tuned`), and a digest of
each game's record so that two versions of the code can be shown to play the same games.

Two line-ups, the same seeds: (a) one searcher against 3 x `tuned`, (b) 4 searchers (self-play).
Four realms, one per seat (`--players 4`, the default) or the ladder's 2-seat alliance game
(`--players 2`: the search seat plays both realms of its alliance). Prints per game the CPU seconds
(time.process_time, one process), the searcher's rollouts (the rollouts it played and the ones it
skipped: decision-preserving shortcuts) and a digest of `play_game(...).to_record()`; then the mean and
max per line-up. Games run one after another in this process, as a ladder worker runs them (the
process-wide table of solved battle odds warms up over the games).

    PYTHONPATH=$PWD nice -n 5 python benchmarks/speed/bench_nerath_search.py --seeds 1-6
    PYTHONPATH=$PWD nice -n 5 python benchmarks/speed/bench_nerath_search.py --seeds 1-6 --spec ismcts:4:base=tuned:exact=0

Compare the digests of two runs (before and after a change) to check that the games are the same.

`--versus OLD`: strength of `--spec` against the search setting OLD, head to head in the ladder's 2-seat
alliance game, each seed played twice (each setting in each seat); prints each game and the score of
`--spec` (a win 1, a loss 0, no winner 1/2; 0.5 = as strong as OLD) with a 95% t interval over seeds (the
seed is the unit), and the CPU seconds per game.

    PYTHONPATH=$PWD nice -n 5 python benchmarks/speed/bench_nerath_search.py --seeds 1-20 \
        --spec ismcts:4:base=tuned:steps=0 --versus ismcts:4:base=tuned
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import time

import numpy as np
from scipy.stats import t as student_t

from analyses.games import load_game, make_rules, resolve_policies
from analyses.search.macro import MacroSearchPolicy


def digest(res) -> str:
    """12 hex digits of the game's record (winner, turns, decisions, scores and every statistic)."""
    text = json.dumps(res.to_record(), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _seeds(text: str) -> list[int]:
    lo, dash, hi = text.partition("-")
    return list(range(int(lo), int(hi) + 1)) if dash else [int(x) for x in text.split(",")]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="ismcts:4:base=tuned", help="the search policy")
    ap.add_argument("--opponent", default="tuned")
    ap.add_argument("--seeds", default="1-6", help="e.g. 1-6 or 1,5,9")
    ap.add_argument("--players", type=int, default=4, choices=(2, 4))
    ap.add_argument("--lineup", choices=("one", "self", "both"), default="both")
    ap.add_argument("--versus", default=None, help="another search setting: play --spec against it (2 seats)")
    args = ap.parse_args(argv)
    module = load_game("nerathsim")
    if args.versus:
        return versus(module, args)
    rules = make_rules(module, {"players": args.players})
    seeds = _seeds(args.seeds)
    lineups = {"one": [args.spec] + [args.opponent] * (args.players - 1), "self": [args.spec] * args.players}
    names = ("one", "self") if args.lineup == "both" else (args.lineup,)
    print(f"nerathsim {args.players} players, seeds {seeds}, load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
          flush=True)
    summary = []
    for name in names:
        cpu = []
        for seed in seeds:
            policies = resolve_policies(module, lineups[name], args.players)
            searchers = {id(p): p for p in policies if isinstance(p, MacroSearchPolicy)}
            c0 = time.process_time()
            res = module.play_game(rules, policies, seed)
            cpu.append(time.process_time() - c0)
            played = sum(getattr(p, "stats", {}).get("rollouts", 0) for p in searchers.values())
            skipped = sum(getattr(p, "stats", {}).get("skipped", 0) for p in searchers.values())
            print(f"  {name:4s} seed {seed}: {cpu[-1]:6.2f} CPU s, turns {res.turns}, rollouts {played} "
                  f"(+{skipped} skipped), record {digest(res)}", flush=True)
        x = np.asarray(cpu)
        summary.append(f"{' vs '.join(lineups[name][:2]) if name == 'one' else lineups[name][0] + ' x' + str(args.players)}"
                       f" ({name}): CPU s per game mean {x.mean():.2f}, max {x.max():.2f}, n={len(x)}")
    print("\n".join(summary))


def versus(module, args) -> None:
    """`--spec` against `--versus` in the 2-seat game, both seat orders per seed (see the module docstring)."""
    rules = make_rules(module, {"players": 2})
    seeds = _seeds(args.seeds)
    print(f"nerathsim 2 seats: {args.spec} vs {args.versus}, seeds {seeds}, load {os.getloadavg()[0]:.1f}", flush=True)
    per_seed, cpu = [], []
    for seed in seeds:
        score = 0.0
        for seat in (0, 1):
            lineup = [args.spec, args.versus] if seat == 0 else [args.versus, args.spec]
            c0 = time.process_time()
            res = module.play_game(rules, resolve_policies(module, lineup, 2), seed)
            cpu.append(time.process_time() - c0)
            w = res.winner
            won = () if w is None else (w if isinstance(w, tuple) else (w,))
            s = 0.5 if w is None else float(seat in won)
            score += s / 2
            print(f"  seed {seed} {args.spec} in seat {seat}: score {s:.1f}, {cpu[-1]:.1f} CPU s", flush=True)
        per_seed.append(score)
        x = np.asarray(per_seed)
        h = float(student_t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")
        print(f"after {len(x)} seeds ({2 * len(x)} games): {args.spec} scores {x.mean():.3f} "
              f"[{x.mean() - h:.3f}, {x.mean() + h:.3f}] against {args.versus}; CPU s per game {np.mean(cpu):.1f}",
              flush=True)


if __name__ == "__main__":
    main()
