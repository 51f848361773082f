"""Where a dreamsim decision's time goes: observe, the policy, the engine's step (per-call timer).

    PYTHONPATH=$PWD python benchmarks/speed/bench_dreamsim_calls.py --policy heuristic --games 120
    PYTHONPATH=/work/pre14 python $PWD/benchmarks/speed/bench_dreamsim_calls.py    # an older checkout

cProfile adds a fixed cost to every Python call and so inflates small, call-heavy functions such as
`observe`; this wraps only the three calls of `play_game`'s loop with `time.perf_counter` and sums
the durations, per decision (a call longer than 0.5 ms was interrupted by the scheduler on a shared
machine and is left out). `step` is `engine.apply_legal` (apply the choice, then run everything up to
the next decision, legal actions included); checkouts from before it existed inline the step in
`play_game`, whose time is then in `rest` (CPU time of the games minus the three sums: the loop,
the legality check, setup). Best of --repeats passes over the same seeds (caches warm after the
first).
"""
import argparse
import time
from time import perf_counter

import dreamsim
import dreamsim.game as game_module
import dreamsim.policies.policies as policies_module

LONG = 5e-4  # seconds: a call this long was preempted


def instrument(durations: dict) -> None:
    """Wrap observe, the step and every POLICIES entry so each call's duration is recorded."""
    observe, step = game_module.observe, getattr(game_module, "apply_legal", None)

    def timed_observe(s, p):
        t = perf_counter()
        o = observe(s, p)
        durations["observe"].append(perf_counter() - t)
        return o
    game_module.observe = timed_observe
    if step is not None:
        def timed_step(s, a, rng):
            t = perf_counter()
            step(s, a, rng)
            durations["step"].append(perf_counter() - t)
        game_module.apply_legal = timed_step

    def timed(choose):
        def call(*args):
            t = perf_counter()
            a = choose(*args)
            durations["policy"].append(perf_counter() - t)
            return a
        return call

    class Timed:
        """A policy whose calls (or per-game choosers) are timed; the same choices."""

        def __init__(self, policy):
            self.policy = policy
            self.name = getattr(policy, "name", None) or repr(policy)
            self.observes = getattr(policy, "observes", True)
            if hasattr(policy, "for_game"):
                self.for_game = lambda rng: timed(policy.for_game(rng))

        def __call__(self, obs, legal, rng):
            return timed(self.policy)(obs, legal, rng)

    for name, policy in list(policies_module.POLICIES.items()):
        policies_module.POLICIES[name] = Timed(policy)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    durations = {"observe": [], "policy": [], "step": []}
    instrument(durations)
    rules = dreamsim.Rules(players=4)
    dreamsim.play_game(rules, [a.policy] * 4, 10**6)
    best = None
    for _ in range(a.repeats):
        for v in durations.values():
            v.clear()
        c0, decisions = time.process_time(), 0
        for seed in range(a.games):
            decisions += dreamsim.play_game(rules, [a.policy] * 4, seed).decisions
        cpu = time.process_time() - c0
        sums = {k: sum(x for x in v if x < LONG) for k, v in durations.items()}
        if best is None or cpu < best[0]:
            best = (cpu, sums, decisions)
    cpu, sums, decisions = best
    print(f"dreamsim 4 x {a.policy}, {a.games} games, {decisions} decisions, CPU {cpu:.3f} s "
          f"({1e6 * cpu / decisions:.1f} us/decision)")
    for k, v in (*sums.items(), ("rest", cpu - sum(sums.values()))):
        print(f"  {k:8s} {v:7.3f} s  {1e6 * v / decisions:6.2f} us/decision")


if __name__ == "__main__":
    main()
