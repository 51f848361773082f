"""nightsim through the public API (`play_game`) against OpenSpiel hearts, measured in the same run.

    PYTHONPATH=$PWD python benchmarks/speed/bench_vs_hearts.py              # ~6 s per workload per round
    PYTHONPATH=$PWD python benchmarks/speed/bench_vs_hearts.py --seconds 6 --rounds 3

Targets (decisions/s as a ratio to hearts steps/s on the same machine, same run):
4-player random >= 1.0x, greedy >= 0.4x. Each round measures hearts, then every nightsim
workload (best of 3 sub-rounds each, see _throughput.measure), then hearts again; the ratio
uses the mean of the two hearts figures around it, so a machine that slows down or speeds
up during the round biases neither side. Prints one line per round and workload, then the
median ratio over the rounds.
"""
import argparse
import statistics

import nightsim

from _throughput import measure
from hearts_ref import hearts_steps_per_second

WORKLOADS = [("random", ["random"] * 4, 1.0), ("greedy", ["greedy"] * 4, 0.4)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=6.0, help="per workload and round (hearts: the same)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rules = nightsim.Rules(players=4)
    print(f"nightsim {nightsim.RULES_VERSION}, 4 players, one core, play_game; hearts = OpenSpiel C++ via Python")
    ratios = {name: [] for name, _, _ in WORKLOADS}
    for r in range(args.rounds):
        before = hearts_steps_per_second(args.seconds)
        rates = {name: measure(nightsim.play_game, rules, pols, args.seconds)[1] for name, pols, _ in WORKLOADS}
        after = hearts_steps_per_second(args.seconds)
        if before is None or after is None:
            print("pyspiel (or ../shared/bench/openspiel_hearts.py) is missing: rates only")
            for name, rate in rates.items():
                print(f"  {name:>7}: {rate:9.0f} decisions/s")
            return
        hearts = (before + after) / 2
        print(f"round {r + 1}: hearts {before:9.0f} / {after:9.0f} steps/s")
        for name, _, target in WORKLOADS:
            ratios[name].append(rates[name] / hearts)
            print(f"  {name:>7}: {rates[name]:9.0f} decisions/s  {rates[name] / hearts:5.2f}x hearts  (target {target}x)")
    print("median over rounds:")
    for name, _, target in WORKLOADS:
        m = statistics.median(ratios[name])
        print(f"  {name:>7}: {m:5.2f}x hearts  target {target:.1f}x  {'met' if m >= target else 'NOT met'}")


if __name__ == "__main__":
    main()
