"""Conquest of Nerath: how the computer players guard their capitals and use their battle cards.

For each policy (4 x the same policy, the published alliance game, seeds `--seed` .. `--seed + games - 1`)
prints per realm: the share of its turns that end with its capital guarded by the castle alone (reachable
or not), and with it also reachable by an enemy unit on its coming turn (`nerathsim.defence.capital_exposed`), capitals lost per game, battle cards played and
wasted per game (`wasted_bonus`: the named unit absent from the battle), its attacks won per attack; and
the evil alliance's (Karkoth + Iron Circle) win rate with its 95% Wilson interval (a game without a winner
counts as not won). `--out FILE` also writes the figures as JSON.

    nice -n 5 env PYTHONPATH=$PWD python benchmarks/studies/nerath_capital_defence.py --games 40
"""
from __future__ import annotations

import argparse
import json
import time

from analyses.stats import wilson_interval
from nerathsim.defence import play_measured
from nerathsim.maps import REALMS
from nerathsim.policies import POLICIES, with_params
from nerathsim.rules import Rules


def measure(policy: str, games: int, seed: int, rules: Rules, lineup=None) -> dict:
    per = {k: [0] * 4 for k in ("turns", "alone", "exposed", "capitals_lost", "battle_cards",
                                "wasted_cards", "attacks", "attacks_won")}
    evil = decided = 0
    cpu = time.process_time()
    for g in range(games):
        res, st = play_measured(rules, lineup or [policy] * rules.players, seed + g)
        for k in ("turns", "alone", "exposed", "capitals_lost", "battle_cards", "wasted_cards"):
            for q in range(4):
                per[k][q] += getattr(st, k)[q]
        for k in ("attacks", "attacks_won"):
            for q in range(4):
                per[k][q] += res.realm_stats[k][q]
        w = res.winner
        if w is not None:
            decided += 1
            seats = w if isinstance(w, tuple) else (w,)
            realms = {q for s in seats for q in rules.seating[s]}
            evil += REALMS.index("karkoth") in realms
    lo, hi = wilson_interval(evil, games)
    return {"policy": policy, "games": games, "seed": seed, "cpu_s": round(time.process_time() - cpu, 1),
            "evil_wins": evil, "decided": decided, "evil_rate": evil / games, "evil_ci": [lo, hi], **per}


def show(m: dict) -> None:
    n = m["games"]
    print(f"\n{m['policy']}, {n} games (seeds {m['seed']}-{m['seed'] + n - 1}), {m['cpu_s']} s CPU")
    print(f"{'realm':12s} {'castle alone %':>14s} {'exposed %':>10s} {'capitals lost/game':>19s} {'battle cards/game':>18s} "
          f"{'wasted/game':>12s} {'attacks won %':>14s}")
    for q, name in enumerate(REALMS):
        t = max(1, m["turns"][q])
        a = max(1, m["attacks"][q])
        print(f"{name:12s} {100 * m['alone'][q] / t:14.1f} {100 * m['exposed'][q] / t:10.1f} {m['capitals_lost'][q] / n:19.2f} "
              f"{m['battle_cards'][q] / n:18.2f} {m['wasted_cards'][q] / n:12.2f} {100 * m['attacks_won'][q] / a:14.1f}")
    lo, hi = m["evil_ci"]
    print(f"evil alliance (Karkoth + Iron Circle) wins {100 * m['evil_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
          f"({m['evil_wins']} of {n}; {m['decided']} decided)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per policy (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--policies", default="balanced,aggressive,defensive,tuned",
                        help="comma-separated policy names (those not known are skipped with a note)")
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    parser.add_argument("--mixed", action="store_true",
                        help="also play each policy with garrisons (capital_hold, castle_hold) in one alliance only: "
                             "the other alliance plays it with both at 0")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    rules = Rules()
    out = []
    for name in args.policies.split(","):
        if name not in POLICIES:
            print(f"(policy {name!r} not known here: skipped)")
            continue
        runs = [(f"{name} x 4", None)]
        if args.mixed:
            bare = with_params(POLICIES[name], {"capital_hold": 0.0, "castle_hold": 0.0}, name=f"{name}-nohold")
            pol = POLICIES[name]
            runs += [(f"{name}: evil garrisons, good holds 0", [pol, bare, pol, bare]),
                     (f"{name}: good garrisons, evil holds 0", [bare, pol, bare, pol])]
        for label, lineup in runs:
            m = measure(name, args.games, args.seed, rules, lineup)
            m["policy"] = label
            show(m)
            out.append(m)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
