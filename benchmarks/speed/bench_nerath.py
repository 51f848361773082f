"""Speed of the full Conquest of Nerath game on one core, and the heuristics' strength.

    python benchmarks/speed/bench_nerath.py                      # speed: 60 games per line (~1 min)
    python benchmarks/speed/bench_nerath.py --games 200
    python benchmarks/speed/bench_nerath.py --strength --jobs 2  # win rates of balanced vs random / defensive

Target: a short (13 VP) 4-realm free-for-all game with `balanced` in every seat has a
median <= 250 ms on one core (>= 4 games/s).

Speed lines: per game, median wall-clock and CPU (process) time, mean and 90th percentile
wall-clock milliseconds, games/s, decisions/s, and
how many exact `battle_odds` solves the heuristics made. Each registered WarPolicy keeps its own
cache of exact odds by army composition (`WarPolicy.odds_cache`), so the first games of a process
pay for more solves; "cold" is the first game with every cache emptied. Machines here are shared:
rerun when the load is high.

Strength lines: `balanced` in one seat against three copies of another policy (the seat
rotates every game, so each realm is played equally often); a seat's fair share is 25%.
Intervals are Wilson 95% (scipy).
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from joblib import Parallel, delayed
from scipy.stats import binomtest

import nerathsim as api
from nerathsim import policies as P


def exact_calls() -> int:
    """Exact solves made so far by the registered policies' odds caches."""
    return sum(p.odds_cache.calls for p in P.POLICIES.values() if hasattr(p, "odds_cache"))


def speed(rules, lineup, games: int, seed0: int = 0) -> dict:
    times, cpu, decisions = [], [], 0
    calls0 = exact_calls()
    for i in range(games):
        t0, c0 = time.perf_counter(), time.process_time()
        res = api.play_game(rules, lineup, seed0 + i)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        decisions += res.decisions
    total = sum(times)
    return {"median_ms": 1000 * statistics.median(times), "cpu_median_ms": 1000 * statistics.median(cpu),
            "mean_ms": 1000 * total / games,
            "p90_ms": 1000 * float(np.percentile(times, 90)), "games_s": games / total,
            "decisions_s": decisions / total, "exact_per_game": (exact_calls() - calls0) / games}


def cold_game(rules, lineup, seed: int = 10_000) -> float:
    for p in P.POLICIES.values():
        if hasattr(p, "odds_cache"):
            p.odds_cache.clear()
    t0 = time.perf_counter()
    api.play_game(rules, lineup, seed)
    return 1000 * (time.perf_counter() - t0)


def _one(rules, lineup, seed):
    res = api.play_game(rules, lineup, seed)
    return res.winner, res.timed_out, res.stats["rounds"]


def strength(rules, hero: str, other: str, games: int, jobs: int) -> dict:
    """`hero` in one seat (rotating), `other` in the rest: the hero's win share."""
    lineups = []
    for i in range(games):
        lu = [other] * 4
        lu[i % 4] = hero
        lineups.append(lu)
    out = Parallel(n_jobs=jobs)(delayed(_one)(rules, lu, i) for i, lu in enumerate(lineups))
    wins = sum(1 for i, (w, _t, _r) in enumerate(out) if w == i % 4)
    timeouts = sum(1 for _w, t, _r in out if t)
    return {"wins": wins, "games": games, "timeouts": timeouts, "rounds": float(np.mean([r for *_, r in out]))}


def wilson(k: int, n: int) -> tuple[float, float]:
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return ci.low, ci.high


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="games per speed line (default 60)")
    ap.add_argument("--strength", action="store_true", help="also measure balanced vs random and vs defensive")
    ap.add_argument("--strength-games", type=int, default=400, help="games per strength line (default 400)")
    ap.add_argument("--jobs", type=int, default=1, help="workers for the strength lines (default 1)")
    args = ap.parse_args()
    ffa = api.Rules(mode="free_for_all")                  # short game: 13 VP, nerath map, 4 realms
    print(f"nerathsim {api.RULES_VERSION}; map {ffa.board.name} ({ffa.board.n} regions); one core")
    cold = cold_game(ffa, ["balanced"] * 4)
    lines = [
        ("FFA 13 VP, 4 x balanced", ffa, ["balanced"] * 4),
        ("  same, events and dungeons off", api.Rules(mode="free_for_all", events=False, dungeons=False),
         ["balanced"] * 4),
        ("FFA long (capitals or 8 treasures)", api.Rules(mode="free_for_all", game_length="long"), ["balanced"] * 4),
        ("FFA 13 VP, 4 x aggressive", ffa, ["aggressive"] * 4),
        ("alliance 20 VP, 4 x balanced", api.Rules(), ["balanced"] * 4),
        ("FFA 20 VP (medium), 4 x balanced", api.Rules(mode="free_for_all", game_length="medium"), ["balanced"] * 4),
        ("FFA, 4 x random (to the 30-round cap)", ffa, ["random"] * 4),
    ]
    print(f"cold first game (empty odds cache), 4 x balanced FFA: {cold:.0f} ms")
    print(f"{'line':40s} {'median':>8s} {'cpu med':>8s} {'mean':>8s} {'p90':>8s} {'games/s':>8s} {'decisions/s':>12s} "
          f"{'exact/game':>10s}")
    for label, rules, lineup in lines:
        n = args.games if "random" not in lineup else max(10, args.games // 4)
        r = speed(rules, lineup, n)
        print(f"{label:40s} {r['median_ms']:6.0f}ms {r['cpu_median_ms']:6.0f}ms {r['mean_ms']:6.0f}ms {r['p90_ms']:6.0f}ms "
              f"{r['games_s']:8.2f} {r['decisions_s']:12.0f} {r['exact_per_game']:10.2f}")
    if args.strength:
        print(f"\nstrength: one seat (rotating) against three others, FFA 13 VP, {args.strength_games} games each; "
              f"fair share 25%")
        for hero, other in (("balanced", "random"), ("balanced", "defensive"), ("defensive", "balanced"),
                            ("balanced", "aggressive"), ("aggressive", "balanced")):
            r = strength(ffa, hero, other, args.strength_games, args.jobs)
            lo, hi = wilson(r["wins"], r["games"])
            print(f"  {hero:>10s} vs 3 x {other:<10s}: {r['wins']:4d}/{r['games']} = {r['wins'] / r['games']:5.1%} "
                  f"[{lo:5.1%}, {hi:5.1%}]  timeouts {r['timeouts']}, mean rounds {r['rounds']:.1f}")


if __name__ == "__main__":
    main()
