"""Fingerprints of the batch kernels' per-game outputs: one sha256 per workload over the raw int64
arrays `play_arrays` returns, for fixed seeds, so a refactor of a kernel can be checked to change
nothing at all (same games, same statistics) by running it before and after:

    PYTHONPATH=/path/to/old/checkout python benchmarks/tools/kernel_output_hashes.py > before.txt
    PYTHONPATH=$PWD python benchmarks/tools/kernel_output_hashes.py > after.txt && diff before.txt after.txt

    python benchmarks/tools/kernel_output_hashes.py --only dreamsim --scale 0.1   # quick check

Workloads cover every policy each kernel plays (nightsim: random and every HeuristicPolicy in
POLICIES, mixed line-ups rotated over the games; dreamsim: random, and as "dreamsim-heuristic"
every HeuristicPolicy in POLICIES, alone and mixed with random) and the rule parameters each
kernel takes (players 2..6, the nightsim timing/scavenger/discard/deal knobs, the dreamsim action
prices, debt and discard switches and a layout with gaps). Default: 30,000 games per game (timings go to stderr). The
first run compiles each kernel (~1 min each; numba caches it for later runs).
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time

import numpy as np

import dreamsim
import nightsim
from dreamsim.kernel import play_batch as dkernel
from nightsim.kernel import play_batch as nkernel

NIGHT_POLICIES = ("random", "greedy", "purist", "aggressor", "heuristic")

#: (label, rules, line-ups cycled over the games, games)
NIGHTSIM = [
    ("4p random", nightsim.Rules(players=4), [("random",) * 4], 5000),
    ("4p greedy", nightsim.Rules(players=4), [("greedy",) * 4], 5000),
    ("4p every heuristic, rotated", nightsim.Rules(players=4),
     [tuple(NIGHT_POLICIES[(i + j) % 5] for j in range(4)) for i in range(5)], 5000),
    ("2p random v heuristic", nightsim.Rules(players=2), [("random", "heuristic"), ("heuristic", "random")], 5000),
    ("3p after-abilities, end-of-action, optional scavenger, min_discard 2, extra card",
     nightsim.Rules(players=3, penalty_timing="after_abilities", win_timing="end_of_action",
                    scavenger_optional=True, min_discard=2, last_seat_extra_cards=1),
     [("aggressor", "purist", "random"), ("greedy", "random", "heuristic")], 5000),
    ("5p mixed, creature_limit 6", nightsim.Rules(players=5, creature_limit=6),
     [("greedy", "random", "purist", "aggressor", "heuristic")], 5000),
]

DREAM_GAP_LAYOUT = ("R B T F .", "C S M C .", "C C* C C .")
DREAMSIM = [
    ("4p random", dreamsim.Rules(players=4), 10000),
    ("2p random", dreamsim.Rules(players=2), 5000),
    ("6p random", dreamsim.Rules(players=6), 5000),
    ("3p prices, no debt carry, no discard action, hand 6",
     dreamsim.Rules(players=3, max_turns=200, hand_size=6, actions_per_turn=3, multicolour_actions=4,
                    colourless_actions=2, trap_actions=1, dutch_angle_actions=1, steal_actions=2, cancel_debt=2,
                    debt_carries_over=False, discard_action=False), 5000),
    ("5p layout with gaps", dreamsim.Rules(players=5, layout=DREAM_GAP_LAYOUT), 5000),
]
DREAM_POLICIES = ("heuristic", "runner", "trickster", "horror", "tuned", "random")
#: the heuristic kernel (dreamsim/kernel/heur*.py): (label, rules, line-ups cycled over the games, games)
DREAMSIM_HEURISTIC = [
    ("4p heuristic", dreamsim.Rules(players=4), [("heuristic",) * 4], 4000),
    ("4p every policy, rotated", dreamsim.Rules(players=4),
     [tuple(DREAM_POLICIES[(i + j) % 6] for j in range(4)) for i in range(6)], 4000),
    ("3p prices, no debt carry, hand 6, heuristic v tuned v random",
     dreamsim.Rules(players=3, max_turns=200, hand_size=6, actions_per_turn=3, trap_actions=1, steal_actions=2,
                    debt_carries_over=False), [("heuristic", "tuned", "random"), ("random", "heuristic", "tuned")], 2000),
    ("5p layout with gaps, heuristic", dreamsim.Rules(players=5, layout=DREAM_GAP_LAYOUT), [("heuristic",) * 5], 1000),
]
FIRST_SEED = 7_000_000


def digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def nightsim_rows(scale: float):
    for label, rules, lineups, n in NIGHTSIM:
        n = max(1, int(n * scale))
        games = [lineups[i % len(lineups)] for i in range(n)]
        out = nkernel.play_arrays(rules, games, range(FIRST_SEED, FIRST_SEED + n))
        yield label, n, digest(*(out[k] for k in ("winner", "turns", "decisions", "timed_out", "score", "stats")))


def dreamsim_rows(scale: float):
    for label, rules, n in DREAMSIM:
        n = max(1, int(n * scale))
        out_game, out_seat = dkernel.play_arrays(rules, ["random"] * rules.players,
                                                 range(FIRST_SEED, FIRST_SEED + n))
        yield label, n, digest(out_game, out_seat)


def dreamsim_heuristic_rows(scale: float):
    for label, rules, lineups, n in DREAMSIM_HEURISTIC:
        n = max(1, int(n * scale))
        games = [lineups[i % len(lineups)] for i in range(n)]
        out_game, out_seat = dkernel.play_arrays(rules, games, range(FIRST_SEED, FIRST_SEED + n))
        yield label, n, digest(out_game, out_seat)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("nightsim", "dreamsim", "dreamsim-heuristic"), action="append")
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the default games per workload")
    args = ap.parse_args(argv)
    games = args.only or ["nightsim", "dreamsim", "dreamsim-heuristic"]
    for game, rows in (("nightsim", nightsim_rows), ("dreamsim", dreamsim_rows),
                       ("dreamsim-heuristic", dreamsim_heuristic_rows)):
        if game not in games:
            continue
        t0 = time.perf_counter()
        total = hashlib.sha256()
        count = 0
        for label, n, h in rows(args.scale):
            print(f"{game:9} {n:6d} games  {h}  {label}", flush=True)
            total.update(h.encode())
            count += n
        print(f"{game:9} {count:6d} games  {total.hexdigest()[:16]}  ALL", flush=True)
        print(f"# {game}: {time.perf_counter() - t0:.0f} s (compile included)", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
