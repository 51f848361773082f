"""Same-deal comparison of several Midnighters policies against one opponent.

Every arm plays the SAME deals (seeds --seed.. --seed+deals-1) against `heuristic` (or --opponent)
in 2-player games, each deal twice with seats rotated, deal by deal, the arms one after another in
one process (the deal is the unit: its score is wins / 2). An arm is a policy name (`tuned`), an
IS-MCTS spec (`ismcts:100:paired=1:z=0:topk=3:rollout=tuned`), or a cheating ceiling of a spec:
`cheat:SPEC` (the search's every determinisation is the true state) or `hands:SPEC` (the true hands
and traps, the deck order redrawn; `benchmarks/studies/bench_dreamsim_ceiling.py`).

    PYTHONPATH=$PWD python benchmarks/studies/bench_dreamsim_paired.py --deals 50 --seed 1000 \\
        --arms tuned,ismcts:100,ismcts:100:paired=1:z=0:topk=3:rollout=tuned --jsonl /tmp/paired.jsonl

Prints per arm: wins/games, win rate with its 95% Wilson interval, CPU seconds per game (process
time, one core: mean, 90th percentile, max, games over 10 s); and for every pair of arms the
paired difference of their per-deal scores with a 95% t interval over deals and the sign test's
deals won / lost. --jsonl keeps one line per game (arm, deal, seat, won, cpu) so that a run can be
stopped and still analysed (`--analyse FILE` prints the tables of such a file without playing).
"""
from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import binomtest
from scipy.stats import t as student_t

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_dreamsim_ceiling import cheat_module, play_cheat  # noqa: E402

import dreamsim  # noqa: E402
from analyses.games import resolve_policies  # noqa: E402
from analyses.search.ismcts import parse_ismcts  # noqa: E402

TARGET_SECONDS = 10.0


def make_arm(spec: str, opponent: str):
    """play(seat, seed) -> winner for one arm against `opponent`."""
    rules = dreamsim.Rules(players=2)
    kind, _, rest = spec.partition(":")
    if kind in ("cheat", "hands"):
        holder: dict = {}
        policy = parse_ismcts(cheat_module(holder, shuffle_deck=kind == "hands"), rest)
        return lambda seat, seed: play_cheat(rules, policy, opponent, seat, seed, holder)
    policy = resolve_policies(dreamsim, f"{spec},{opponent}", 2)[0]

    def play(seat, seed):
        seats = [policy, opponent] if seat == 0 else [opponent, policy]
        return dreamsim.play_game(rules, seats, seed=seed).winner
    return play


def _t(x) -> tuple:
    x = np.asarray(x, dtype=float)
    m = float(x.mean())
    if len(x) < 2:
        return m, float("nan"), float("nan")
    h = float(student_t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))
    return m, m - h, m + h


def report(rows: list, arms: list) -> None:
    """The tables of a run's game rows (dicts with arm, deal, seat, won, cpu)."""
    by_arm = collections.defaultdict(dict)  # arm -> deal -> [won per seat]
    cpu = collections.defaultdict(list)
    for r in rows:
        by_arm[r["arm"]].setdefault(r["deal"], []).append(r["won"])
        cpu[r["arm"]].append(r["cpu"])
    arms = [a for a in arms if a in by_arm] + [a for a in by_arm if a not in arms]
    print(f"{'arm':55s} {'wins/n':>9s} {'rate':>6s} {'95% Wilson':>15s} {'CPU s/game mean':>15s} {'p90':>6s} "
          f"{'max':>6s} {'>10s':>5s}")
    for a in arms:
        games = [w for ws in by_arm[a].values() for w in ws]
        k, n = int(sum(games)), len(games)
        ci = binomtest(k, n).proportion_ci(method="wilson")
        c = np.asarray(cpu[a])
        print(f"{a:55s} {k:4d}/{n:<4d} {k / n:6.3f} [{ci.low:.3f}, {ci.high:.3f}] {c.mean():15.2f} "
              f"{np.percentile(c, 90):6.2f} {c.max():6.2f} {int((c > TARGET_SECONDS).sum()):5d}")
    print("paired by deal (score = wins/2 per deal; only deals both arms finished with both seats):")
    for a, b in itertools.combinations(arms, 2):
        deals = [d for d in by_arm[a] if d in by_arm[b] and len(by_arm[a][d]) == 2 == len(by_arm[b][d])]
        if len(deals) < 2:
            continue
        diff = [(sum(by_arm[a][d]) - sum(by_arm[b][d])) / 2 for d in deals]
        m, lo, hi = _t(diff)
        up, down = sum(x > 0 for x in diff), sum(x < 0 for x in diff)
        p = binomtest(up, up + down).pvalue if up + down else 1.0
        print(f"  {a} - {b}: {m:+.3f} [{lo:+.3f}, {hi:+.3f}] over {len(deals)} deals; deals better {up}, "
              f"worse {down}, sign test p={p:.3f}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arms", default="tuned,ismcts:100,ismcts:100:paired=1:z=0:topk=3:rollout=tuned",
                    help="comma-separated arms: policy names, ismcts specs, cheat:SPEC, hands:SPEC")
    ap.add_argument("--deals", type=int, default=10, help="deals; each played by every arm with seats rotated")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--jsonl", default=None, help="append one line per game to this file")
    ap.add_argument("--analyse", default=None, help="print the tables of a --jsonl file and stop")
    args = ap.parse_args(argv)
    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    if args.analyse:
        rows = [json.loads(line) for line in Path(args.analyse).read_text().splitlines() if line.strip()]
        return report(rows, arms)
    players = {a: make_arm(a, args.opponent) for a in arms}
    out = open(args.jsonl, "a", encoding="utf-8") if args.jsonl else None
    rows = []
    for deal in range(args.seed, args.seed + args.deals):
        line = []
        for a in arms:
            w = 0
            for seat in (0, 1):
                t0 = time.process_time()
                won = int(players[a](seat, deal) == seat)
                row = {"arm": a, "deal": deal, "seat": seat, "won": won, "cpu": time.process_time() - t0,
                       "opponent": args.opponent}
                rows.append(row)
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                w += won
            line.append(f"{w}/2")
        print(f"deal {deal}: " + " ".join(line) + f"  (load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"dreamsim 2p vs {args.opponent}, seats rotated, deals {args.seed}..{args.seed + args.deals - 1}, "
          f"load {os.getloadavg()[0]:.1f}")
    report(rows, arms)


if __name__ == "__main__":
    main()
