"""A/B speed of the batch kernels of two checkouts, interleaved: CPU seconds of the same batches.

    python benchmarks/tools/kernel_ab.py /path/to/checkout_a /path/to/checkout_b [--rounds 12]
    python benchmarks/tools/kernel_ab.py A B --engine      # play_game instead: the Python engines

Starts one worker process per checkout (PYTHONPATH = that checkout), warms both kernels up (a
first call may compile: numba caches it), then for each round and workload asks the two workers,
in alternating order, to play the same batch (same rules, policies and seeds) through the array
API and report the CPU time it took (`time.process_time`, which a busy shared machine disturbs
less than wall time). Prints, per workload, the minimum over the rounds for each checkout (the
least disturbed run) and B / A. Workloads: nightsim 4 x random and 4 x greedy, dreamsim 4 x random
and 4 x heuristic; with --engine the same line-ups through `play_game`, game by game. --only NAME
(repeatable, a substring of the workload names) times only those.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import dreamsim
import dreamsim.kernel.play as dkp
import dreamsim.kernel.play_batch as dk  # a worker imports the checkout on its PYTHONPATH
import nightsim
import nightsim.kernel.play_batch as nk
from dreamsim import Rules as DRules
from nightsim import Rules as NRules

WORKLOADS = {  # name -> (game, policy, games per batch)
    "nightsim 4p random": ("nightsim", "random", 16000),
    "nightsim 4p greedy": ("nightsim", "greedy", 16000),
    "dreamsim 4p random": ("dreamsim", "random", 4000),
    "dreamsim 4p heuristic": ("dreamsim", "heuristic", 3000),
}
ENGINE_WORKLOADS = {  # name -> (game, policy, games per batch), through play_game
    "nightsim 4p random": ("nightsim", "random", 1000),
    "nightsim 4p greedy": ("nightsim", "greedy", 600),
    "dreamsim 4p random": ("dreamsim", "random", 300),
    "dreamsim 4p heuristic": ("dreamsim", "heuristic", 200),
}
FIRST_SEED = 90_000


def chosen(workloads: dict, only: list[str]) -> dict:
    """The workloads whose names contain one of `only` (all of them when it is empty)."""
    return {name: w for name, w in workloads.items() if not only or any(o in name for o in only)}


def worker(engine: bool, only: list[str]) -> None:
    """Answer one JSON line per request: {"workload": name} -> {"cpu": seconds, "decisions": n}."""
    workloads = chosen(ENGINE_WORKLOADS if engine else WORKLOADS, only)

    def play(name: str) -> tuple[float, int]:
        game, policy, n = workloads[name]
        seeds = range(FIRST_SEED, FIRST_SEED + n)
        t0 = time.process_time()
        if engine:
            module = nightsim if game == "nightsim" else dreamsim
            rules = module.Rules(players=4)
            decisions = sum(module.play_game(rules, [policy] * 4, seed).decisions for seed in seeds)
        elif game == "nightsim":
            decisions = int(nk.play_arrays(NRules(players=4), [(policy,) * 4] * n, seeds)["decisions"].sum())
        else:
            per_game, _ = dk.play_arrays(DRules(players=4), [policy] * 4, seeds)
            decisions = int(per_game[:, dkp.GAME_FIELDS.index("decisions")].sum())
        return time.process_time() - t0, decisions

    for name in workloads:  # compile or load the cache, and warm up
        play(name)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        cpu, decisions = play(json.loads(line)["workload"])
        print(json.dumps({"cpu": cpu, "decisions": decisions}), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--engine", action="store_true", help="time play_game, not the kernels")
    ap.add_argument("--only", action="append", default=[], help="workloads whose name contains this")
    args = ap.parse_args()
    workloads = chosen(ENGINE_WORKLOADS if args.engine else WORKLOADS, args.only)
    procs = {}
    for side, path in (("A", args.a), ("B", args.b)):
        env = {**os.environ, "PYTHONPATH": os.path.abspath(path)}
        cmd = ([sys.executable, os.path.abspath(__file__), "--worker"] + (["--engine"] if args.engine else [])
               + [f"--only={o}" for o in args.only])
        procs[side] = subprocess.Popen(cmd, env=env,
                                       cwd=os.path.abspath(path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True)
    for p in procs.values():
        json.loads(p.stdout.readline())
    times = {(w, s): [] for w in workloads for s in procs}
    decisions = {}
    for r in range(args.rounds):
        for w in workloads:
            for side in (("A", "B") if r % 2 == 0 else ("B", "A")):
                p = procs[side]
                p.stdin.write(json.dumps({"workload": w}) + "\n")
                p.stdin.flush()
                out = json.loads(p.stdout.readline())
                times[w, side].append(out["cpu"])
                decisions.setdefault((w, side), out["decisions"])
    for p in procs.values():
        p.stdin.close()
        p.wait()
    print(f"A = {args.a}\nB = {args.b}\n{args.rounds} rounds, alternating order; CPU seconds per batch, "
          "min (median) over the rounds")
    print(f"{'workload':22} {'A min':>8} {'A med':>8} {'B min':>8} {'B med':>8} {'B/A min':>8}  same decisions")
    for w in workloads:
        a, b = sorted(times[w, "A"]), sorted(times[w, "B"])
        print(f"{w:22} {a[0]:8.3f} {a[len(a) // 2]:8.3f} {b[0]:8.3f} {b[len(b) // 2]:8.3f} {b[0] / a[0]:8.3f}  "
              f"{decisions[w, 'A'] == decisions[w, 'B']}")


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker("--engine" in sys.argv, [a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")])
    else:
        main()
