"""Win rates of the study's standard line-ups (analyses.study.PLANS: `main` and `mixed`).

Run against any checkout (e.g. before/after a rules change) by putting it first on the path:
    PYTHONPATH=<tree> python benchmarks/lineup_winrates.py --games nightsim=2000 dreamsim=2000 nerathsim=300
Prints, per game and line-up, win rate by policy (games with rotated seats; 95% Wilson
intervals from analyses.win_rates) and the timeout rate.
"""
from __future__ import annotations

import argparse
import time

import analyses
from analyses.study import PLANS, _run_setup


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", nargs="+", default=["nightsim=2000", "dreamsim=2000", "nerathsim=300"])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for item in args.games:
        name, n = item.split("=")
        plan = PLANS[name]
        module = analyses.games.load_game(name)
        players = module.Rules().players
        version = getattr(module, "RULES_VERSION", "?")
        for run in ("main", "mixed"):
            rules, policies = _run_setup(plan, run, players)
            t = time.time()
            df = analyses.simulate(name, int(n), rules=rules, policies=policies, seed=args.seed,
                                   n_jobs=1, progress=False)
            wr = analyses.win_rates(df)
            out = wr.outcomes
            to = out[out.outcome == "timeout"].iloc[0]
            print(f"## {name} {version} {run} ({players} players, {len(df)} games, {time.time() - t:.0f}s) "
                  f"timeouts {to['rate']:.3f} [{to.ci_low:.3f}, {to.ci_high:.3f}]")
            table = wr.by_policy if run == "mixed" else wr.by_seat
            cols = [c for c in ("policy", "seat", "games", "wins", "win_rate", "ci_low", "ci_high") if c in table]
            print(table[cols].to_string(index=False), flush=True)


if __name__ == "__main__":
    main()
