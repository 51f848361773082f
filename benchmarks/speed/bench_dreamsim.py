"""Throughput of dreamsim on one core (games/s, decisions/s), and the quality of the heuristic
line-ups (timeouts, wins against `random`).

    python benchmarks/speed/bench_dreamsim.py                 # ~10 s per policy set, 4 players
    python benchmarks/speed/bench_dreamsim.py --seconds 30 --players 6 --policies random runner
    python benchmarks/speed/bench_dreamsim.py --quality 300   # line-ups x 300 games, fixed seeds

Targets (through the public API): 4-player `random` >= 1.0 x the decisions/s of
OpenSpiel's hearts reference (steps/s, `hearts_ref.py`), the heuristics >= 0.4 x. The machines
here are shared, so hearts is measured in the same run, right before and right after each policy,
and each ratio is to the mean of those two figures (without pyspiel, no ratios are printed).
Prints the best of 3 timed rounds (the least disturbed one). Heuristic policies keep what they
learn about boards in module-level caches, so their first round is the slowest.

--quality plays each line-up on seeds 1000, 1001, ... (the same games every run) and prints the
share of games that hit the turn cap (95% Wilson interval) with the stall each timed-out game is
put down to (`dreamsim.game.timeout_cause`: frozen_horror, paralysed, blue_everyone,
nightmare_everyone, no_director_card, other), the share the focus policy won (woke up, or the
Horror's Town Hall), that anybody else won, that the Horror won, and the mean number of turns:
  <heuristic> in every seat, 2..6 players, for each shipped heuristic;
  runner + trickster + horror + heuristic (cycled over the seats), 2..6 players;
  <heuristic> vs random, 2 players, the heuristic's seat alternating (as test_dreamsim_api does);
  <heuristic> + 3 x random, 4 players, the heuristic's seat rotating;
  random in every seat, 2..6 players (random play may time out; its causes are reported).

--standard plays the line-ups `balancelab report` plays for dreamsim (analyses/study.py: main
4 x heuristic, mixed runner/trickster/heuristic/random, the 2-player duels of that pool, the
players sweep of 4 x heuristic) on seeds 0, 1, ... and prints each seat's win rate with its 95%
Wilson interval (run it on two checkouts to compare rule versions).
"""
import argparse
import collections
import itertools
import time

from scipy.stats import binomtest

import dreamsim

from _throughput import measure
from hearts_ref import hearts_steps_per_second

HEURISTICS = ("runner", "trickster", "horror", "heuristic")
#: targets: decisions/s as a multiple of hearts steps/s (any heuristic: the "heuristic" entry)
TARGETS = {"random": 1.0, "heuristic": 0.4}
HEARTS_SECONDS = 2.0
POOL = ("runner", "trickster", "heuristic", "random")  # analyses.study.PLANS["dreamsim"].pool


def wilson(k: int, n: int) -> str:
    ci = binomtest(k, n).proportion_ci(method="wilson")
    return f"{k / n:6.1%} [{ci.low:5.1%}, {ci.high:5.1%}]"


def lineup(rules, n_games, seats_for, label, seed0=1000):
    """seats_for(g) -> (policies, focus seats). Prints one row."""
    timeouts = focus = other = horror = turns = 0
    causes = collections.Counter()
    t0 = time.perf_counter()
    decisions = 0
    for g in range(n_games):
        pols, mine = seats_for(g)
        r = dreamsim.play_game(rules, pols, seed=seed0 + g)
        timeouts += r.timed_out
        if r.timed_out:
            causes[r.stats.get("timeout_cause", "?")] += 1
        turns += r.turns
        decisions += r.decisions
        horror += r.horror_won
        if r.winner is not None:
            if r.winner in mine:
                focus += 1
            else:
                other += 1
    dt = time.perf_counter() - t0
    why = ", ".join(f"{c} {k}" for c, k in causes.most_common()) or "-"
    print(f"{label:>34}: {n_games} games  timeouts {wilson(timeouts, n_games)} ({why})  won {focus / n_games:6.1%}  "
          f"others won {other / n_games:6.1%}  Horror won {horror / n_games:6.1%}  turns {turns / n_games:6.1f}  "
          f"({decisions / dt:,.0f} decisions/s)", flush=True)
    return timeouts


def quality(n_games):
    print(f"dreamsim {dreamsim.RULES_VERSION}: seeds 1000..{999 + n_games}; 'won' = the focus policy's seats")
    worst = 0.0
    for name in HEURISTICS:
        for n in range(2, 7):
            t = lineup(dreamsim.Rules(players=n), n_games, lambda g, p=name, n=n: ([p] * n, range(n)), f"{n} x {name}")
            worst = max(worst, t / n_games)
    for n in range(2, 7):
        def mixed(g, n=n):
            return [HEURISTICS[(g + i) % 4] for i in range(n)], range(n)
        t = lineup(dreamsim.Rules(players=n), n_games, mixed, f"mixed heuristics, {n} players")
        worst = max(worst, t / n_games)
    print(f"highest timeout rate of a heuristics-only line-up: {worst:.2%}")
    r4, r2 = dreamsim.Rules(players=4), dreamsim.Rules(players=2)
    for name in HEURISTICS:
        def two(g, p=name):
            pols = ["random", "random"]
            pols[g % 2] = p
            return pols, (g % 2,)
        lineup(r2, n_games, two, f"{name} vs random (2p)")
    for name in HEURISTICS:
        def four(g, p=name):
            pols = ["random"] * 4
            pols[g % 4] = p
            return pols, (g % 4,)
        lineup(r4, n_games, four, f"{name} + 3 x random (4p)")
    for n in range(2, 7):
        lineup(dreamsim.Rules(players=n), n_games, lambda g, n=n: (["random"] * n, range(n)), f"{n} x random")


def standard(n_games):
    """The study's dreamsim line-ups: each seat's win rate, Wilson 95% intervals."""
    print(f"dreamsim {dreamsim.RULES_VERSION}: standard line-ups, seeds 0..{n_games - 1}")
    runs = [("main 4 x heuristic", dreamsim.Rules(players=4), ["heuristic"] * 4),
            ("mixed", dreamsim.Rules(players=4), list(POOL))]
    runs += [(f"duel {a}-{b}", dreamsim.Rules(players=2), [a, b]) for a, b in itertools.combinations(POOL, 2)]
    runs += [(f"sweep players={n}", dreamsim.Rules(players=n), ["heuristic"] * n) for n in (2, 3, 5)]
    for label, rules, pols in runs:
        wins = collections.Counter()
        timeouts = horror = 0
        for g in range(n_games):
            r = dreamsim.play_game(rules, pols, seed=g)
            timeouts += r.timed_out
            horror += r.horror_won
            if r.winner is not None:
                wins[r.winner] += 1
        seats = "  ".join(f"seat {i} {p}: {wilson(wins[i], n_games)}" for i, p in enumerate(pols))
        print(f"{label}: n={n_games}  {seats}  Horror won {wilson(horror, n_games)}  timeouts {wilson(timeouts, n_games)}",
              flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policies", nargs="+", default=["random", "runner", "heuristic"],
                    help="policy names; each is benchmarked with every seat playing it")
    ap.add_argument("--quality", type=int, metavar="GAMES", default=0,
                    help="instead of the speed run: timeouts (with causes) and win rates of the heuristic line-ups")
    ap.add_argument("--standard", type=int, metavar="GAMES", default=0,
                    help="instead of the speed run: seat win rates of the study's standard line-ups")
    args = ap.parse_args()
    if args.quality:
        quality(args.quality)
        return
    if args.standard:
        standard(args.standard)
        return
    rules = dreamsim.Rules(players=args.players)
    print(f"dreamsim {dreamsim.RULES_VERSION}, {args.players} players, one core")
    hearts = hearts_steps_per_second(HEARTS_SECONDS)
    if hearts is None:
        print("(pyspiel not installed: no hearts reference, no ratios)")
    for name in args.policies:
        g, d = measure(dreamsim.play_game, rules, [name] * args.players, args.seconds)
        row = f"{name:>10}: {g:8.0f} games/s  {d:10.0f} decisions/s"
        if hearts is not None:
            after = hearts_steps_per_second(HEARTS_SECONDS)
            ref = (hearts + after) / 2
            target = TARGETS.get(name, TARGETS["heuristic"])
            ratio = d / ref
            row += (f"  hearts {ref:9.0f} steps/s  ratio {ratio:5.2f} x  target >= {target:.1f} x  "
                    f"{'met' if ratio >= target else 'NOT met'}")
            hearts = after
        print(row, flush=True)


if __name__ == "__main__":
    main()
