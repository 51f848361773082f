"""Strength and speed of IS-MCTS against the best shipped heuristic ( targets).

2-player games, seats rotated (deal k is played twice, IS-MCTS in seat 0 then in seat 1, the
same seed), IS-MCTS at a budget vs Nightmarium's `greedy` / Midnighters' `heuristic`. Prints
the search policy's win rate with its 95% Wilson interval and n, timeouts, and wall seconds
per game on one core. Targets: win rate >= 60% with the lower bound > 50%, <= 10 s per game.

    PYTHONPATH=$PWD python benchmarks/studies/bench_ismcts.py --game nightsim --deals 20 --iterations 100
    PYTHONPATH=$PWD python benchmarks/studies/bench_ismcts.py --game dreamsim --deals 20 --iterations 100
    PYTHONPATH=$PWD python benchmarks/studies/bench_ismcts.py --game dreamsim --deals 20   # its default search

Without --iterations the search is the game's default (`ismcts:default`: the game's SEARCH_DEFAULT,
dreamsim's and nerathsim's, else ismcts:100). benchmarks/studies/bench_dreamsim_paired.py compares Midnighters searches on the same deals.

Nerath (`--game nerathsim`): 4-seat free-for-all short games, the search seat (`ismcts:N`, Nerath's
macro search, N rollouts per macro decision) against 3 x `balanced`, each deal played four times
with the searcher in each seat (so over every realm), plus the same deal with `balanced` in every
seat (common random numbers: the same chance stream, the baseline for each seat). Prints, with 95%
intervals over deals (the deal is the unit) and n: the searcher's win rate (fair share 25%) and
balanced's win rate in the same seats and deals, their paired difference; and the issue's measure,
the share of (game, balanced opponent) pairs in which the searcher finishes ahead (a win first,
then VP; ties half; 50% = as strong as balanced; target >= 55%). CPU seconds per game
(time.process_time, one core).

    PYTHONPATH=$PWD python benchmarks/studies/bench_ismcts.py --game nerathsim --deals 6 --iterations 24

`--design alliance` (Nerath): the 1-vs-3 design that confirmed Nerath's `tuned` (analyses.tune.confirm):
alliance mode, short game, the search in one realm and the opponent in the other three (the search's ally
included), rotated over the four realms on each deal (seeds --seed, --seed + 1, ...); a game scores 1 when
the search's alliance wins, 0 when it loses, 1/2 without a winner (fair share 50%, target >= 55% with the
lower bound > 50%); 95% interval with the deal as the unit (cluster-robust, analyses.clusters). Progress
per deal, CPU seconds per game (mean, max, games over 60 s); --out writes one CSV row per game as it ends,
and --summarize CSV prints the result of such a file (whole deals; e.g. of a run stopped at a deadline).

    PYTHONPATH=$PWD python benchmarks/studies/bench_ismcts.py --game nerathsim --design alliance --deals 60 --seed 1000
    PYTHONPATH=$PWD python benchmarks/studies/bench_ismcts.py --game nerathsim --design alliance --deals 20 --opponent tuned
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from scipy.stats import binomtest
from scipy.stats import t as student_t

from analyses import clusters
from analyses.games import load_game, resolve_policies

OPPONENT = {"nightsim": "greedy", "dreamsim": "heuristic", "nerathsim": "balanced"}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(OPPONENT), default="nightsim")
    ap.add_argument("--deals", type=int, default=10, help="deals; each is played with seats rotated (2 games)")
    ap.add_argument("--iterations", type=int, default=None,
                    help="per decision (default: the game's default search, `ismcts:default`)")
    ap.add_argument("--options", default="", help="extra ismcts options, e.g. ':cutoff=40:c=1.0'")
    ap.add_argument("--opponent", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--design", choices=("ffa", "alliance"), default="ffa",
                    help="Nerath: free-for-all vs 3 opponents (ffa), or 1-vs-3 in alliance mode (alliance)")
    ap.add_argument("--out", default=None, help="Nerath alliance: write one CSV row per game here, as they finish")
    ap.add_argument("--summarize", default=None, metavar="CSV",
                    help="Nerath alliance: print the result of a (possibly interrupted) run's --out file, whole deals")
    args = ap.parse_args(argv)
    if args.summarize:
        return alliance_summary(pd.read_csv(args.summarize))
    module = load_game(args.game)
    if args.game == "nerathsim":
        if args.design == "alliance":
            return nerath_alliance(module, args)
        return nerath(module, args)
    spec = f"ismcts:{args.iterations or 'default'}{args.options}"
    opponent = args.opponent or OPPONENT[args.game]
    search = resolve_policies(module, f"{spec},{opponent}", 2)[0]
    rules = module.Rules(players=2)
    wins = games = timeouts = 0
    seconds, cpu = [], []
    for deal in range(args.deals):
        for seat in (0, 1):
            seats = [search, opponent] if seat == 0 else [opponent, search]
            t0, c0 = time.perf_counter(), time.process_time()
            res = module.play_game(rules, seats, seed=args.seed + deal)
            seconds.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            games += 1
            wins += res.winner == seat
            timeouts += res.timed_out
        ci = binomtest(wins, games).proportion_ci(method="wilson")
        print(f"  after {games:4d} games: {wins / games:.3f} [{ci.low:.3f}, {ci.high:.3f}]", flush=True)
    ci = binomtest(wins, games).proportion_ci(method="wilson")
    print(f"{args.game} 2p: {search!r} vs {opponent!r}, seats rotated, seed {args.seed}")
    print(f"win rate {wins / games:.3f} (95% Wilson [{ci.low:.3f}, {ci.high:.3f}], n={games}, wins {wins}, "
          f"timeouts {timeouts})")
    print(f"seconds per game: mean {sum(seconds) / games:.2f}, max {max(seconds):.2f} (one process, loaded machine); "
          f"CPU seconds per game: mean {sum(cpu) / games:.2f}, max {max(cpu):.2f} (target <= 10)")


def _mean_ci(per_deal: list) -> tuple:
    """Mean of per-deal values and its 95% t interval (the deal is the unit)."""
    x = np.asarray(per_deal, dtype=float)
    m = float(x.mean())
    if len(x) < 2:
        return m, float("nan"), float("nan")
    h = float(student_t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))
    return m, m - h, m + h


def _ahead(res, seat: int) -> float:
    """Share of the other seats `seat` finished ahead of: the winner first, then VP (ties half)."""
    w = res.winner
    won = () if w is None else (w if isinstance(w, tuple) else (w,))
    key = [(q in won, v) for q, v in enumerate(res.scores)]
    others = [o for o in range(len(key)) if o != seat]
    return sum(1.0 if key[seat] > key[o] else 0.5 if key[seat] == key[o] else 0.0 for o in others) / len(others)


def nerath(module, args) -> None:
    rules = module.Rules(mode="free_for_all")
    spec = f"ismcts:{args.iterations or 'default'}{args.options}"
    opponent = args.opponent or OPPONENT["nerathsim"]
    search = resolve_policies(module, f"{spec},{opponent},{opponent},{opponent}", 4)[0]
    wins, base_wins, ahead, diff = [], [], [], []
    seconds, timeouts, games = [], 0, 0
    for deal in range(args.deals):
        seed = args.seed + deal
        base = module.play_game(rules, [opponent] * 4, seed=seed)
        w = b = a = 0.0
        for seat in range(4):
            seats = [opponent] * 4
            seats[seat] = search
            t0 = time.process_time()
            res = module.play_game(rules, seats, seed=seed)
            seconds.append(time.process_time() - t0)
            games += 1
            timeouts += res.timed_out
            w += res.winner == seat
            b += base.winner == seat
            a += _ahead(res, seat)
        wins.append(w / 4)
        base_wins.append(b / 4)
        ahead.append(a / 4)
        diff.append((w - b) / 4)
        m, lo, hi = _mean_ci(ahead)
        print(f"  deal {seed}: search wins {w:.0f}/4, balanced wins {b:.0f}/4 in the same seats, ahead {a / 4:.3f}; "
              f"after {games:4d} games: ahead of balanced {m:.3f} [{lo:.3f}, {hi:.3f}], "
              f"wins {sum(wins) * 4:.0f}, {np.mean(seconds):.1f} CPU s/game", flush=True)
    print(f"nerathsim free-for-all short, 1 x {search!r} vs 3 x {opponent!r}, seat rotated over the four realms, "
          f"seeds {args.seed}..{args.seed + args.deals - 1}")
    n = f"n={games} games, {args.deals} deals"
    m, lo, hi = _mean_ci(ahead)
    print(f"finishes ahead of a balanced opponent: {m:.3f} (95% CI over deals [{lo:.3f}, {hi:.3f}], {n}); "
          "target >= 0.55, 0.5 = as strong as balanced")
    ci = binomtest(int(round(sum(wins) * 4)), games).proportion_ci(method="wilson")
    print(f"search seat's win rate: {np.mean(wins):.3f} (Wilson [{ci.low:.3f}, {ci.high:.3f}], {n}; fair share 0.25); "
          f"balanced in the same seats and deals: {np.mean(base_wins):.3f}")
    m, lo, hi = _mean_ci(diff)
    print(f"paired difference (search - balanced, same seat and deal): {m:+.3f} (95% CI [{lo:+.3f}, {hi:+.3f}]); "
          f"timeouts {timeouts}")
    print(f"CPU seconds per game (search seat's games): mean {np.mean(seconds):.1f}, max {max(seconds):.1f} "
          "(target <= 60)")


def nerath_alliance(module, args) -> None:
    """1-vs-3 in alliance mode (the design that confirmed Nerath's `tuned`, analyses.tune.confirm): the
    search in one realm, the opponent in the other three (the search's ally included), rotated over the
    four realms on each deal; a game scores 1 when the search's alliance wins, 0 when it loses, 1/2
    without a winner (fair share 50%); 95% interval with the deal as the unit (cluster-robust)."""
    rules = module.Rules()                      # alliance, short game
    spec = f"ismcts:{args.iterations or 'default'}{args.options}"
    opponent = args.opponent or OPPONENT["nerathsim"]
    search = resolve_policies(module, f"{spec},{opponent},{opponent},{opponent}", 4)[0]
    rows = []
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    if out:
        out.write("deal,seed,seat,realm,score,won,lost,cpu_s,turns,timed_out\n")
    for deal in range(args.deals):
        seed = args.seed + deal
        for seat in range(4):
            seats = [opponent] * 4
            seats[seat] = search
            c0 = time.process_time()
            res = module.play_game(rules, seats, seed=seed)
            cpu = time.process_time() - c0
            w = res.winner
            won = () if w is None else (w if isinstance(w, tuple) else (w,))
            score = 0.5 if w is None else float(seat in won)
            row = {"deal": deal, "seed": seed, "seat": seat, "realm": module.REALMS[seat], "score": score,
                   "won": w is not None and seat in won, "lost": w is not None and seat not in won, "cpu_s": cpu,
                   "turns": res.turns, "timed_out": res.timed_out}
            rows.append(row)
            if out:
                out.write(",".join(str(v) for v in row.values()) + "\n")
                out.flush()
        df = pd.DataFrame(rows)
        low, high = clusters.mean_interval(df["score"].to_numpy(), df["deal"].to_numpy())
        mine = df[df["deal"] == deal]
        print(f"  deal {seed}: score {mine['score'].sum():.1f}/4, CPU s {mine['cpu_s'].mean():.1f} "
              f"(max {mine['cpu_s'].max():.1f}); after {len(df):4d} games: {df['score'].mean():.3f} "
              f"[{low:.3f}, {high:.3f}], CPU s/game mean {df['cpu_s'].mean():.1f} max {df['cpu_s'].max():.1f}",
              flush=True)
    if out:
        out.close()
    print(f"nerathsim alliance short, 1 x {search!r} vs 3 x {opponent!r} (the search's ally included), the search "
          f"rotated over the four realms, seeds {args.seed}..{args.seed + args.deals - 1}")
    alliance_summary(pd.DataFrame(rows))


def alliance_summary(df: pd.DataFrame) -> None:
    """Print the 1-vs-3 alliance result of the games in `df` (rows as --out writes them; only whole deals)."""
    whole = df.groupby("deal")["seat"].transform("count") == 4
    df = df[whole]
    low, high = clusters.mean_interval(df["score"].to_numpy(), df["deal"].to_numpy())
    per_deal = df.groupby("deal")["score"].mean()
    deals = df["deal"].nunique()
    print(f"search alliance's win rate: {df['score'].mean():.3f} (95% CI, the deal as the unit, "
          f"[{low:.3f}, {high:.3f}]; n={len(df)} games, {deals} deals; wins {int(df['won'].sum())}, "
          f"losses {int(df['lost'].sum())}, no winner {int((~df['won'] & ~df['lost']).sum())}; "
          f"per-deal SD {per_deal.std(ddof=1):.3f}); fair share 0.5, target >= 0.55")
    by_realm = df.groupby("realm", sort=False)["score"].agg(["mean", "count"])
    print("by the search's realm: " + ", ".join(f"{r} {m:.3f} (n={int(c)})" for r, (m, c) in by_realm.iterrows()))
    print(f"CPU seconds per game: mean {df['cpu_s'].mean():.1f}, max {df['cpu_s'].max():.1f}, "
          f"over 60 s: {int((df['cpu_s'] > 60).sum())} of {len(df)} (target <= 60)")


if __name__ == "__main__":
    main()
