"""Win rates of the study's standard line-ups (analyses.study.PLANS: `main` and `mixed`).

Run against any checkout (e.g. before/after a rules change) by putting it first on the path:
    PYTHONPATH=<tree> python benchmarks/studies/lineup_winrates.py --games nightsim=2000 dreamsim=2000 nerathsim=300
Prints, per game and line-up, the win rate of each seat (`main`: one policy in every seat) or
policy (`mixed`), with two 95% intervals: Wilson over games (analyses.win_rates) and one with the
deal as the unit (the rotated games of a mixed line-up share a deal's cards: mean of the per-deal
win shares ± 1.96 standard errors over the deals; a `main` line-up has one game per deal, so both
intervals agree), and the timeout rate. Nerath's seats win as alliances (seats 0+2, 1+3).
"""
from __future__ import annotations

import argparse
import math
import time

import pandas as pd

import analyses
from analyses.study import PLANS, _run_setup


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", nargs="+", default=["nightsim=2000", "dreamsim=2000", "nerathsim=300"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", nargs="+", default=["main", "mixed"], choices=["main", "mixed"])
    args = ap.parse_args(argv)
    for item in args.games:
        name, n = item.split("=")
        plan = PLANS[name]
        module = analyses.games.load_game(name)
        players = module.Rules().players
        version = getattr(module, "RULES_VERSION", "?")
        for run in args.runs:
            rules, policies = _run_setup(plan, run, players)
            t = time.time()
            df = analyses.simulate(name, int(n), rules=rules, policies=policies, seed=args.seed,
                                   n_jobs=1, progress=False)
            wr = analyses.win_rates(df)
            out = wr.outcomes
            to = out[out.outcome == "timeout"].iloc[0]
            print(f"## {name} {version} {run} ({players} players, {len(df)} games, {time.time() - t:.0f}s) "
                  f"timeouts {to['rate']:.3f} [{to.ci_low:.3f}, {to.ci_high:.3f}]")
            table = (wr.by_policy if run == "mixed" else wr.by_seat).copy()
            cols = [c for c in ("policy", "seat", "games", "wins", "win_rate", "ci_low", "ci_high") if c in table]
            table = table[cols]
            lows, highs, deals = [], [], []
            for _i, row in table.iterrows():
                lo, hi, d = deal_interval(df, players, policy=row.get("policy"), seat=row.get("seat"))
                lows.append(lo), highs.append(hi), deals.append(d)
            table["deals"], table["deal_low"], table["deal_high"] = deals, lows, highs
            print(table.to_string(index=False), flush=True)


def deal_interval(df, players, policy=None, seat=None):
    """95% interval of a win rate with the deal as the unit: per deal, the share of its games the
    seat (or the policy, wherever it sat) won; mean ± 1.96 SE over the deals."""
    shares = []
    for _deal, g in df.groupby("deal"):
        won = n = 0
        for _j, r in g.iterrows():
            for s in range(players):
                if (seat is not None and s != seat) or (policy is not None and r[f"seat{s}_policy"] != policy):
                    continue
                w = r["winner"]
                if w is None or (not isinstance(w, (str, tuple, list)) and pd.isna(w)):
                    continue                      # a timeout: left out (as analyses.win_rates: decided games)
                n += 1
                if isinstance(w, str):            # a team's seats, "0+2"
                    w = tuple(int(x) for x in w.split("+")) if w else None
                won += (w == s) or (isinstance(w, (tuple, list)) and s in w)
        if n:
            shares.append(won / n)
    d = len(shares)
    mean = sum(shares) / d
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / (d - 1)) if d > 1 else 0.0
    return max(0.0, mean - 1.96 * sd / math.sqrt(d)), min(1.0, mean + 1.96 * sd / math.sqrt(d)), d


if __name__ == "__main__":
    main()
