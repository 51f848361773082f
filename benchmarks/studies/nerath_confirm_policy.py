"""Conquest of Nerath: confirm a policy against an opponent on fresh deals, as `balancelab tune-policy` does.

The candidate plays one seat and the opponent the other three (the opponent is also its ally), rotated over
the four realms on the same deals (`analyses.tune.Arena`); the win rate has its 95% interval with the deal as
the unit (`analyses.tune.confirm`, its target: a gain of >= 5 points over the opponent's own score in the same
seats, its lower bound above 0; with every seat rotated, >= 55% with the lower bound above 50%). Used to check a change
to a shipped policy by hand, e.g. `tuned` against `balanced` and against the previous `tuned`:

    nice -n 5 env PYTHONPATH=$PWD python benchmarks/studies/nerath_confirm_policy.py --candidate tuned \\
        --opponent balanced --games 800 --seed 20261207
    nice -n 5 env PYTHONPATH=$PWD python benchmarks/studies/nerath_confirm_policy.py --candidate tuned \\
        --opponent tuned --opponent-params hold_regions=true --games 800 --seed 20261208
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import nerathsim
from analyses.tune import Arena, confirm
from nerathsim.policies import POLICIES, with_params

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nerath_policy_by_realm import _params  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidate", default="tuned", help="a registered policy (default tuned)")
    ap.add_argument("--candidate-params", default="", help="parameters to change, name=value,...")
    ap.add_argument("--opponent", default="balanced", help="a registered policy (default balanced)")
    ap.add_argument("--opponent-params", default="", help="parameters to change, name=value,...")
    ap.add_argument("--games", type=int, default=800, help="games (default 800: 200 deals x 4 seats)")
    ap.add_argument("--seed", type=int, required=True, help="a seed no search used")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = ap.parse_args(argv)
    for name in (args.candidate, args.opponent):
        if name not in POLICIES:
            ap.error(f"unknown policy {name!r}; known: {', '.join(POLICIES)}")
    if args.games < 8:
        ap.error("--games must be at least 8")
    try:
        cand = with_params(POLICIES[args.candidate], _params(args.candidate_params), name="candidate")
        opp = with_params(POLICIES[args.opponent], _params(args.opponent_params), name="opponent")
    except ValueError as exc:
        ap.error(str(exc))
    print("$ " + " ".join(["python", *sys.argv]))
    t0 = time.process_time()
    arena = Arena(nerathsim, nerathsim.Rules(), 4, n_jobs=args.jobs)
    row, _table = confirm(arena, cand, opp, args.opponent, args.games, args.seed)
    print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}))
    print(f"{args.candidate}{' with ' + args.candidate_params if args.candidate_params else ''} against "
          f"{args.opponent}{' with ' + args.opponent_params if args.opponent_params else ''}: "
          f"{100 * row['win_rate']:.1f}% [{100 * row['ci_low']:.1f}, {100 * row['ci_high']:.1f}] over {row['games']} "
          f"games ({row['deals']} deals); CPU {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
