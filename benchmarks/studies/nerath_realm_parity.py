"""Conquest of Nerath: is any realm's computer player systematically weaker than the others'?

Plays the published alliance game with one policy in every seat (seeds `--seed` .. `--seed + games - 1`) and
prints per realm (`nerathsim.parity`): possible captures per game (enemy regions its reachable force could
take with P >= 0.5 at the start of its turn) and the share of them it took, with a 95% interval clustered by
game, and every enemy region it took per game (possible or not); how many possible captures it could take together per
game, each unit attacking once and each warship landing once (`capture_capacity`), and the share of that it took; battles it started as attacker per game, their mean exact pre-battle odds, the observed win rate and
observed minus expected in points with a 95% interval clustered by game; then for each of the two figures the
joint Wald chi-square of equality across the four realms (clustered by game) and each realm against the other
three pooled (Holm-adjusted p); and per realm its possible captures by how they are open (empty or defended; by
land, by flyers alone, or only by sea: `capture_routes`) with the share of each taken. `--out FILE` also writes the
table as JSON.

    nice -n 5 env PYTHONPATH=$PWD python benchmarks/studies/nerath_realm_parity.py --games 200 --policy tuned --jobs 1
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time

from joblib import Parallel, delayed

from nerathsim.parity import ROUTES, parity_table, play_parity
from nerathsim.policies import POLICIES
from nerathsim.rules import Rules


def play_chunk(policy: str, seeds: list) -> tuple[list, float]:
    """The games of these seeds (4 x policy, the default rules): their ParityStats and the CPU seconds."""
    rules = Rules()
    cpu = time.process_time()
    out = [play_parity(rules, [policy] * rules.players, s)[1] for s in seeds]
    return out, time.process_time() - cpu


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _ci(lo_hi) -> str:
    lo, hi = lo_hi
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _p(p: float) -> str:
    return "<1e-15" if p < 1e-15 else f"{p:.3g}"


def show(tb: dict) -> str:
    lines = []
    head = (f"{'realm':12s} {'possible/game':>13s} {'captured share % [95%]':>24s} {'capacity/game':>12s} "
            f"{'share of capacity % [95%]':>24s} {'taken/game':>10s} {'attacks/game':>12s} "
            f"{'mean odds %':>11s} {'won %':>6s} {'obs-exp pts [95%]':>22s}")
    lines.append(head)
    for r in tb["realms"]:
        lines.append(f"{r['realm']:12s} {r['possible_per_game']:13.1f} {_pct(r['share']):>6s} {_ci(r['share_ci']):>17s} "
                     f"{r['capacity_per_game']:12.1f} {_pct(r['capacity_share']):>6s} {_ci(r['capacity_share_ci']):>17s} "
                     f"{r['captures'] / tb['games']:10.1f} {r['battles_per_game']:12.1f} {_pct(r['mean_odds']):>11s} {_pct(r['win_rate']):>6s} "
                     f"{100 * r['obs_minus_exp']:+6.1f} {_ci(r['obs_minus_exp_ci']):>15s}")
    for key, label in (("share_test", "captured share"), ("capacity_test", "share of capacity"),
                       ("battle_test", "battle obs - exp")):
        t = tb[key]
        per = ", ".join(f"{r['realm']} {100 * d:+.1f} pts p={_p(p)}"
                        for r, d, p in zip(tb["realms"], t["vs_rest"], t["vs_rest_holm"]))
        lines.append(f"equal across realms, {label}: Wald chi2 = {t['chi2']:.2f} on {t['df']} df, p = {_p(t['p'])}; "
                     f"each vs the rest (Holm): {per}")
    lines.append("possible captures by how they are open (nerathsim.parity.capture_routes), each cell: possible per "
                 "game: share taken % [95%]")
    routes = [f"{held} by {route}" for held, route in ROUTES]
    lines.append(f"{'realm':12s} " + " ".join(f"{name:>27s}" for name in routes))
    for r in tb["realms"]:
        cells = []
        for x in r["routes"]:
            share = f"{_pct(x['share'])} {_ci(x['share_ci'])}" if x["possible"] else "-"
            cells.append(f"{x['possible'] / tb['games']:5.1f}: {share:>20s}")
        lines.append(f"{r['realm']:12s} " + " ".join(f"{c:>27s}" for c in cells))
    inexact = sum(r["inexact_odds"] for r in tb["realms"])
    lines.append(f"battles whose odds the exact solver refused (calibrated estimate used): {inexact}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--policy", default="tuned", help="the policy in every seat (default tuned)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--out", default=None, help="write the table as JSON here")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2 (the intervals are clustered by game)")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.seed < 0:
        parser.error("--seed must be non-negative")
    if args.policy not in POLICIES:
        parser.error(f"--policy: unknown policy {args.policy!r}; known: {', '.join(sorted(POLICIES))}")
    print("$ " + " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]))
    wall = time.perf_counter()
    seeds = list(range(args.seed, args.seed + args.games))
    n = min(args.jobs * 4, args.games) if args.jobs > 1 else 1
    chunks = [seeds[i::n] for i in range(n)]
    parts = Parallel(n_jobs=args.jobs)(delayed(play_chunk)(args.policy, c) for c in chunks) if args.jobs > 1 \
        else [play_chunk(args.policy, chunks[0])]
    by_seed = {}
    for chunk, (stats, _cpu) in zip(chunks, parts):
        by_seed.update(zip(chunk, stats))
    games = [by_seed[s] for s in seeds]
    tb = parity_table(games)
    cpu = sum(c for _s, c in parts)
    print(f"4 x {args.policy}, the published alliance game, {args.games} games (seeds {seeds[0]}-{seeds[-1]}); "
          f"intervals clustered by game")
    print(show(tb))
    print(f"wall {time.perf_counter() - wall:.1f} s, game CPU {cpu:.1f} s ({cpu / args.games:.2f} s a game)")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"policy": args.policy, "seed": args.seed, **tb}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
