"""The speed table: every speed workload, its rate, its ratio to OpenSpiel hearts measured in the
same run, and its target.

    PYTHONPATH=$PWD python benchmarks/speed/bench_all.py                 # ~3 min on a quiet machine
    PYTHONPATH=$PWD python benchmarks/speed/bench_all.py --seconds 2 --nerath-games 10 --scale-rounds 0
    PYTHONPATH=$PWD python benchmarks/speed/bench_all.py --rounds 3      # each card-game row 3 times: median, range

Hearts (`../shared/bench/openspiel_hearts.py`, C++ driven by a Python loop) is measured before and
after each workload; a workload's ratio uses the mean of the two, so a machine that speeds up or
slows down during the run biases neither side. The Nerath target (50 ms per short free-for-all
game, 4 x balanced) is stated in hearts time as well: 50 ms ~ 15k hearts steps on a quiet machine, so
the row's target is 15,000 / hearts steps/s. The first calls of the numba kernels (compilation or
the on-disk cache) happen before any timing and are printed. Without pyspiel the table has rates
only. The last row: `simulate` of 4,000 nightsim games with n_jobs=2 against n_jobs=1,
each from a cold start, as a share of the machine's own 2-process ceiling measured in the same
rounds (`bench_scale.py`, which also prints the scale curve).
"""
import argparse
import statistics
import time

import bench_scale
import numpy as np

import dreamsim
import nerathsim
import nightsim

from _throughput import measure
from hearts_ref import hearts_steps_per_second

NERATH_HEARTS_STEPS = 15_000   # 50 ms of a quiet machine's hearts steps
BATTLES_TARGET = 10e6           # battles per CPU second
BATTLE = ({"footsoldier": 6, "siege_engine": 2}, {"footsoldier": 8})
SCALE_SHARE_TARGET = 0.8        # n_jobs=2 speedup as a share of the machine's 2-process ceiling (item 4)


def api_rate(module, policy, seconds):
    return measure(module.play_game, module.Rules(players=4), [policy] * 4, seconds)[1]


def kernel_rate(module, policy, seconds, batch=2000):
    """decisions/s of whole records through the game's KERNEL (as analyses.simulate gets them)."""
    rules, best, seed = module.Rules(players=4), 0.0, 1_000_000
    for _ in range(3):
        t0, decisions = time.perf_counter(), 0
        while time.perf_counter() - t0 < seconds / 3:
            lineups, seeds = [(policy,) * 4] * batch, range(seed, seed + batch)
            if hasattr(module.KERNEL, "play_columns"):
                decisions += int(np.sum(module.KERNEL.play_columns(rules, lineups, seeds)["decisions"]))
            else:
                decisions += sum(r["decisions"] for r in module.KERNEL.play_batch(rules, lineups, seeds))
            seed += batch
        best = max(best, decisions / (time.perf_counter() - t0))
    return best


def nerath_ms(games):
    """Median CPU ms of a short free-for-all game, 4 x balanced, fresh seeds (policies' caches warm)."""
    rules = nerathsim.Rules(mode="free_for_all")
    nerathsim.play_game(rules, ["balanced"] * 4, 99_999)
    cpu = []
    for seed in range(games):
        c0 = time.process_time()
        nerathsim.play_game(rules, ["balanced"] * 4, 50_000 + seed)
        cpu.append(time.process_time() - c0)
    return 1000 * statistics.median(cpu)


def battles_per_cpu_second(n=1_000_000):
    best = 0.0
    for _ in range(3):
        c0 = time.process_time()
        nerathsim.battle_odds(*BATTLE, method="monte_carlo", n=n, seed=1, engine="kernel")
        best = max(best, n / (time.process_time() - c0))
    return best


def warm_kernels():
    """First calls of every kernel (compile, or load numba's on-disk cache), timed."""
    out = {}
    for name, module, policies in (("nightsim", nightsim, ("random", "greedy")),
                                   ("dreamsim", dreamsim, ("random", "heuristic"))):
        t0 = time.perf_counter()
        for p in policies:
            module.KERNEL.play_batch(module.Rules(players=4), [(p,) * 4], [1])
        out[name] = time.perf_counter() - t0
    t0 = time.perf_counter()
    nerathsim.battle_odds(*BATTLE, method="monte_carlo", n=1000, seed=1, engine="kernel")
    out["nerath battles"] = time.perf_counter() - t0
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=4.0, help="per workload (hearts: 2 s before and after)")
    ap.add_argument("--nerath-games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds of each card-game row (hearts before and after each); with more than one the "
                         "row prints the median ratio and its range, since one run's ratio moves by +-20%% "
                         "on a shared VM")
    ap.add_argument("--scale-rounds", type=int, default=3,
                    help="rounds of bench_scale's n_jobs=1 vs 2 speedup (4,000 nightsim games); 0 skips the row")
    a = ap.parse_args()
    warm = warm_kernels()
    print("first kernel calls (compile or numba cache): "
          + ", ".join(f"{k} {v:.1f} s" for k, v in warm.items()))
    kernel_policies = {"dreamsim": dreamsim.KERNEL}
    rows = [
        ("nightsim 4p random, play_game", "decisions/s", lambda: api_rate(nightsim, "random", a.seconds), 1.0),
        ("nightsim 4p greedy, play_game", "decisions/s", lambda: api_rate(nightsim, "greedy", a.seconds), 0.4),
        ("dreamsim 4p random, play_game", "decisions/s", lambda: api_rate(dreamsim, "random", a.seconds), 1.0),
        ("dreamsim 4p heuristic, play_game", "decisions/s", lambda: api_rate(dreamsim, "heuristic", a.seconds), 0.4),
        ("nightsim kernel 4p random", "decisions/s", lambda: kernel_rate(nightsim, "random", a.seconds), 20.0),
        ("nightsim kernel 4p greedy", "decisions/s", lambda: kernel_rate(nightsim, "greedy", a.seconds), 20.0),
        ("dreamsim kernel 4p random", "decisions/s", lambda: kernel_rate(dreamsim, "random", a.seconds), 20.0),
    ]
    rules4 = dreamsim.Rules(players=4)
    if kernel_policies["dreamsim"].supports(rules4, ["heuristic"] * 4):
        rows.append(("dreamsim kernel 4p heuristic", "decisions/s",
                     lambda: kernel_rate(dreamsim, "heuristic", a.seconds), 20.0))
    else:
        print("dreamsim kernel 4p heuristic: no kernel for the heuristic yet (target 20x hearts): not measured")
    print(f"{'workload':36s} {'rate':>14s} {'unit':14s} {'x hearts':>9s} {'target':>8s}  met"
          + ("" if a.rounds == 1 else f"   (median of {a.rounds} rounds; [lowest, highest] ratio)"))
    for label, unit, fn, target in rows:
        rates, ratios = [], []
        for _ in range(a.rounds):
            before = hearts_steps_per_second(2.0)
            rates.append(fn())
            after = hearts_steps_per_second(2.0)
            if before is not None and after is not None:
                ratios.append(rates[-1] / ((before + after) / 2))
        rate = statistics.median(rates)
        if not ratios:
            print(f"{label:36s} {rate:14,.0f} {unit:14s} {'-':>9s} {target:7.1f}x   (no pyspiel)")
            continue
        ratio = statistics.median(ratios)
        spread = "" if a.rounds == 1 else f"   [{min(ratios):.2f}, {max(ratios):.2f}]"
        print(f"{label:36s} {rate:14,.0f} {unit:14s} {ratio:8.2f}x {target:7.1f}x  "
              f"{'yes' if ratio >= target else 'NO'}{spread}")
    before = hearts_steps_per_second(2.0)
    ms = nerath_ms(a.nerath_games)
    after = hearts_steps_per_second(2.0)
    if before and after:
        hearts = (before + after) / 2
        target_ms = 1000 * NERATH_HEARTS_STEPS / hearts
        print(f"{'nerath FFA short, 4 x balanced':36s} {ms:14.0f} {'ms/game (CPU)':14s} "
              f"{ms / 1000 * hearts:8.0f}  {target_ms:5.0f}ms  {'yes' if ms <= target_ms else 'NO'}"
              f"   (x hearts column: hearts steps of time; target {NERATH_HEARTS_STEPS:,})")
    else:
        print(f"{'nerath FFA short, 4 x balanced':36s} {ms:14.0f} {'ms/game (CPU)':14s} (target 50 ms, quiet machine)")
    rate = battles_per_cpu_second()
    print(f"{'nerath battle Monte Carlo (kernel)':36s} {rate:14,.0f} {'battles/CPU s':14s} {'-':>9s} "
          f"{BATTLES_TARGET / 1e6:5.0f} M/s  {'yes' if rate >= BATTLES_TARGET else 'NO'}")
    if a.scale_rounds > 0:
        share = statistics.median(bench_scale.speedup_shares(bench_scale.parse_args(["--repeat", str(a.scale_rounds)])))
        print(f"{'simulate 4,000 games, n_jobs=2':36s} {share:14.2f} {'of 2-proc max':14s} {'-':>9s} "
              f"{SCALE_SHARE_TARGET:7.1f}   {'yes' if share >= SCALE_SHARE_TARGET else 'NO'}"
              f"   (median of {a.scale_rounds} cold-start rounds; bench_scale.py prints each)")


if __name__ == "__main__":
    main()
