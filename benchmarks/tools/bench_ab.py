"""Same-run A/B of the Python-API workloads of two checkouts (e.g. before and after a refactor).

    python benchmarks/tools/bench_ab.py --a /path/to/old/checkout --b $PWD --rounds 3

Each round runs every workload once in a fresh process per checkout, alternating A, B, A, B, so a
machine that speeds up or slows down during the run biases neither side; the table gives the best
round of each side (the least disturbed; the machines here are shared) and the ratio B / A. The
workloads use only the public `play_game` of each game, so old checkouts run them unchanged:

- nightsim and dreamsim, 4 players, random and the shipped heuristic: decisions per second;
- Nerath, a short free-for-all game with 4 x balanced: CPU milliseconds per game (lower is better).

`--clock cpu` times the card games by the child's CPU time (`time.process_time`) instead of the wall
clock: on a machine shared with other jobs the wall clock counts the time a child waits for a core,
its CPU time does not (it still grows a little with contention for caches). `--only` limits the
workloads, e.g. `--only "dreamsim heuristic"`.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

WORKLOADS = (
    ("nightsim", "random"), ("nightsim", "greedy"),
    ("dreamsim", "random"), ("dreamsim", "heuristic"),
    ("nerathsim", "balanced"),
)

CHILD = r"""
import json, sys, time
import importlib
game, policy, seconds, nerath_games = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
clock = time.process_time if sys.argv[5] == "cpu" else time.perf_counter
module = importlib.import_module(game)
if game == "nerathsim":
    rules = module.Rules(mode="free_for_all")
    module.play_game(rules, [policy] * 4, 99_999)
    cpu = []
    for seed in range(nerath_games):
        c0 = time.process_time()
        module.play_game(rules, [policy] * 4, 50_000 + seed)
        cpu.append(time.process_time() - c0)
    cpu.sort()
    print(json.dumps({"value": 1000 * cpu[len(cpu) // 2], "unit": "ms/game"}))
else:
    rules = module.Rules(players=4)
    module.play_game(rules, [policy] * 4, 0)
    t0, decisions, seed = clock(), 0, 0
    while clock() - t0 < seconds:
        decisions += module.play_game(rules, [policy] * 4, seed).decisions
        seed += 1
    print(json.dumps({"value": decisions / (clock() - t0), "unit": "decisions/s"}))
"""


def run(checkout: Path, game: str, policy: str, seconds: float, nerath_games: int, clock: str = "wall") -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", CHILD, game, policy, str(seconds), str(nerath_games), clock],
                         env=env, cwd=str(checkout), capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", type=Path, required=True, help="checkout A (e.g. the commit before)")
    ap.add_argument("--b", type=Path, required=True, help="checkout B (e.g. the commit after)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3.0, help="per card-game workload and round")
    ap.add_argument("--nerath-games", type=int, default=15, help="per round (median CPU ms)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time the card games by the wall clock or by the child's CPU time")
    ap.add_argument("--only", action="append", metavar="'GAME POLICY'",
                    help="run only this workload (repeatable), e.g. 'dreamsim heuristic'")
    a = ap.parse_args()
    workloads = WORKLOADS
    if a.only:
        workloads = tuple(w for w in WORKLOADS if " ".join(w) in a.only)
        if len(workloads) != len(a.only):
            ap.error(f"--only: known workloads are {', '.join(' '.join(w) for w in WORKLOADS)}")
    for side in (a.a, a.b):
        if not (side / "nightsim").is_dir():
            ap.error(f"{side} is not a checkout of this repository (no nightsim/ folder)")
    best: dict = {}
    t0 = time.perf_counter()
    for _ in range(a.rounds):
        for game, policy in workloads:
            for side in ("a", "b"):
                r = run(getattr(a, side), game, policy, a.seconds, a.nerath_games, a.clock)
                key = (game, policy, side)
                better = min if r["unit"] == "ms/game" else max
                best[key] = r["value"] if key not in best else better(best[key], r["value"])
                best[(game, policy, "unit")] = r["unit"]
    print(f"A = {a.a}\nB = {a.b}\n{a.rounds} rounds, alternating A and B, best round of each "
          f"({time.perf_counter() - t0:.0f} s; card games timed by the {a.clock} clock; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())})")
    print(f"{'workload':28s} {'A':>12s} {'B':>12s} {'unit':12s} {'B/A':>6s}")
    for game, policy in workloads:
        va, vb, unit = best[(game, policy, "a")], best[(game, policy, "b")], best[(game, policy, "unit")]
        print(f"{game + ' ' + policy:28s} {va:12,.1f} {vb:12,.1f} {unit:12s} {vb / va:6.2f}")


if __name__ == "__main__":
    main()
