"""Instructions per decision of a card game's `play_game`, counted by valgrind, for checkouts side by side.

    python benchmarks/tools/instructions_ab.py --game dreamsim --policy heuristic /work/pre14 $PWD
    python benchmarks/tools/instructions_ab.py --game nerathsim --policy balanced --n1 2 --n2 12 /work/base $PWD

A wall-clock or CPU-time A/B (`bench_ab.py`) moves by ±10% from one run to the next on a machine
shared with other jobs; the number of instructions a game executes does not depend on the load.
For each checkout this runs `play_game` over seeds 0..N1 and 0..N2 under `valgrind --tool=cachegrind
--cache-sim=no` (I refs: instructions executed) with PYTHONHASHSEED=0, and reports the difference
per decision: games N1..N2 with caches warmed by games 0..N1, import and start-up cancelled out.
nerathsim plays the short free-for-all game (bench_ab's workload) from seed 50,000 on and also
reports instructions per game.
Instructions are not time (a cache miss costs more than an add), so this complements the timed A/B,
it does not replace it. Needs valgrind; ~20x slower than a plain run.
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import importlib, sys
game, policy, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
module = importlib.import_module(game)
rules, first = (module.Rules(mode="free_for_all"), 50_000) if game == "nerathsim" else (module.Rules(players=4), 0)
decisions = 0
for seed in range(first, first + n):
    decisions += module.play_game(rules, [policy] * 4, seed).decisions
print("decisions", decisions)
"""


def count(checkout: Path, game: str, policy: str, games: int) -> tuple[int, int]:
    """(instructions, decisions) of importing `game` and playing seeds 0..games-1."""
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", CHILD, game, policy, str(games)],
                         env=env, cwd="/", capture_output=True, text=True, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    decisions = re.search(r"^decisions (\d+)$", out.stdout, re.MULTILINE)
    if refs is None or decisions is None:
        raise RuntimeError(f"no instruction count from valgrind for {checkout}: {out.stderr[-500:]}")
    return int(refs.group(1).replace(",", "")), int(decisions.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkouts", nargs="+", type=Path, help="the first is the reference of the ratios")
    ap.add_argument("--game", default="dreamsim", choices=("dreamsim", "nightsim", "nerathsim"))
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--n1", type=int, default=20, help="games that warm the caches (not counted)")
    ap.add_argument("--n2", type=int, default=220, help="games N1..N2 are counted")
    a = ap.parse_args()
    rows = []
    for checkout in a.checkouts:
        i1, d1 = count(checkout, a.game, a.policy, a.n1)
        i2, d2 = count(checkout, a.game, a.policy, a.n2)
        rows.append((checkout, d2 - d1, (i2 - i1) / (d2 - d1), (i2 - i1) / (a.n2 - a.n1)))
    print(f"{a.game} 4 x {a.policy}, games {a.n1}..{a.n2}, instructions per decision (valgrind I refs)")
    ref = rows[0][2]
    for checkout, decisions, per, per_game in rows:
        print(f"{str(checkout):40s} {decisions:7d} decisions {per:10,.0f} instr/decision {per_game:14,.0f} "
              f"instr/game   speed vs first {ref / per:5.3f}")


if __name__ == "__main__":
    main()
