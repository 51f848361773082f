"""What each reading of `dreamsim.DECISIONS` does to the game: every alternative against the reading
we play, on the same seeds (common random numbers: game i has the same deal and streams in both
arms, so the game is the unit of a paired comparison).

Prints one row per alternative: games per arm, the first seat's win rate (the seat the report's
Midnighters finding is about), the share of games the Horror wins, the share of timeouts and the mean
number of turns, each as the alternative's value and its paired difference from the default with a
95% interval (mean of the per-game differences ± 1.96 standard errors).

    PYTHONPATH=$PWD python benchmarks/dreamsim_decisions.py --games 1000 --policies heuristic --jobs 2
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

import dreamsim
from analyses import simulate

Z = 1.959963984540054


def _outcomes(df) -> dict:
    """Per game: did seat 0 win, did the Horror win, did it time out, how many turns."""
    winner = df["winner"].to_numpy(dtype=float, na_value=np.nan)
    return {
        "seat 1 wins": (winner == 0).astype(float),
        "Horror wins": df["horror_won"].to_numpy(dtype=float),
        "timeouts": df["timed_out"].to_numpy(dtype=float),
        "turns": df["turns"].to_numpy(dtype=float),
    }


def _paired(alt: np.ndarray, base: np.ndarray) -> tuple[float, float, float]:
    """Mean of alt, and the paired difference alt - base with its 95% interval half-width."""
    d = alt - base
    half = Z * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.inf
    return float(alt.mean()), float(d.mean()), half


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per arm (default 1000)")
    ap.add_argument("--policies", default="heuristic", help="every seat's policy (default heuristic)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=20261207)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default="", help="comma-separated decision ids (default: all)")
    args = ap.parse_args(argv)
    if not 1 <= args.games <= 1_000_000:
        ap.error("--games must be 1..1000000")
    wanted = [x for x in args.only.split(",") if x]
    unknown = [x for x in wanted if x not in dreamsim.decisions.BY_ID]
    if unknown:
        ap.error(f"unknown decision id(s): {', '.join(unknown)}; known: {', '.join(dreamsim.decisions.BY_ID)}")
    decisions = [d for d in dreamsim.DECISIONS if not wanted or d.id in wanted]
    base_rules = dreamsim.Rules(players=args.players)
    kw = dict(policies=args.policies, seed=args.seed, n_jobs=args.jobs, seat_order="fixed", progress=False,
              engine="python")
    t0 = time.time()
    base = _outcomes(simulate("dreamsim", args.games, rules=base_rules, **kw))
    print(f"# dreamsim {dreamsim.RULES_VERSION}, {args.players} x {args.policies}, {args.games} games per arm, "
          f"seed {args.seed}; paired differences (alternative - default) with 95% intervals")
    print(f"{'default':<42}" + "".join(f"{k:>26}" for k in base))
    print(f"{'(the readings we play)':<42}" + "".join(
        f"{(100 * v.mean() if k != 'turns' else v.mean()):>26.1f}" for k, v in base.items()))
    for d in decisions:
        for alt, rules in zip(d.alternatives, d.variants(base_rules)):
            out = _outcomes(simulate("dreamsim", args.games, rules=rules, **kw))
            cells = []
            for k in base:
                m, diff, half = _paired(out[k], base[k])
                scale = 1.0 if k == "turns" else 100.0
                cells.append(f"{scale * m:6.1f} ({scale * diff:+5.1f} ± {scale * half:4.1f})")
            print(f"{d.id + ' ' + d.field + '=' + repr(alt):<42}" + "".join(f"{c:>26}" for c in cells), flush=True)
    print(f"# {time.time() - t0:.0f} s wall; rates in %, turns as counted by GameResult.turns (seat-turns)")


if __name__ == "__main__":
    main()
