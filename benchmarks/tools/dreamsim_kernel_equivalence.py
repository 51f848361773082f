"""dreamsim kernel against the engine: every per-game statistic's mean, with the standard error
of the difference (pooled variance: the SE under "same distribution") and z = diff / SE.

    python benchmarks/tools/dreamsim_kernel_equivalence.py [engine games, default 500] [kernel games, default 20000]
    python benchmarks/tools/dreamsim_kernel_equivalence.py 300 20000 --players 4 --brief

`tests/dreamsim/test_dreamsim_kernel.py::test_every_per_game_statistic_has_the_engines_distribution`
requires |z| < 4 for every statistic (600 / 300 engine games at 2 / 4 players). Seat statistics
are per seat (seat0_..); --brief sums them over the seats.
"""
from __future__ import annotations

import argparse

import numpy as np

import dreamsim
from dreamsim.game import TIMEOUT_CAUSES
from dreamsim.kernel import KERNEL


def columns(records: list[dict], brief: bool) -> dict:
    n = sum(1 for k in records[0] if k.endswith("_policy"))
    cols = {}
    for key, value in records[0].items():
        if isinstance(value, (bool, int)) and not key.endswith("_score") and key not in ("winner", "horror_seat"):
            name = key.split("_", 1)[1] + " (all seats)" if brief and key.startswith("seat") else key
            cols[name] = cols.get(name, 0) + np.array([float(r[key]) for r in records])
    for i in range(n):
        cols[f"winner=={i}"] = np.array([r["winner"] == i for r in records], dtype=float)
        cols[f"horror_seat=={i}"] = np.array([r["horror_seat"] == i for r in records], dtype=float)
    for cause in TIMEOUT_CAUSES:
        cols[f"timeout_cause=={cause}"] = np.array([r["timeout_cause"] == cause for r in records], dtype=float)
    return cols


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine_games", type=int, nargs="?", default=500)
    ap.add_argument("kernel_games", type=int, nargs="?", default=20000)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--brief", action="store_true", help="seat statistics summed over the seats")
    args = ap.parse_args(argv)
    for players in args.players:
        rules, policies = dreamsim.Rules(players=players), ["random"] * players
        engine = columns([dreamsim.play_game(rules, policies, seed=s).to_record() for s in range(args.engine_games)],
                         args.brief)
        kernel = columns(KERNEL.play_batch(rules, policies, range(10**6, 10**6 + args.kernel_games)), args.brief)
        print(f"== {players} x random: {args.engine_games} engine games (seeds 0..), {args.kernel_games} kernel games ==")
        print(f"{'statistic':34} {'engine':>9} {'kernel':>9} {'SE':>8} {'z':>6}")
        worst = 0.0
        for key, e in engine.items():
            k = kernel[key]
            se = float(np.sqrt(np.concatenate([e, k]).var(ddof=1) * (1 / len(e) + 1 / len(k))))
            z = 0.0 if se == 0 else (k.mean() - e.mean()) / se
            worst = max(worst, abs(z))
            print(f"{key:34} {e.mean():9.3f} {k.mean():9.3f} {se:8.3f} {z:6.2f}")
        print(f"largest |z| = {worst:.2f}\n")


if __name__ == "__main__":
    main()
