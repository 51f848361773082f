"""Throughput of the dreamsim numba batch kernel (dreamsim/kernel/play_batch.py) on one
core: decisions/s and games/s of `random` in every seat, its compile (or cache-load) time, and
the ratio to OpenSpiel's hearts measured in the same run (target: >= 20x hearts steps/s).

    python benchmarks/speed/bench_dreamsim_kernel.py                      # 2 and 4 players, ~3 s each
    python benchmarks/speed/bench_dreamsim_kernel.py --players 4 --seconds 10 --games 5000
    python benchmarks/speed/bench_dreamsim_kernel.py --python             # also the Python engine, same seeds

Rates are CPU time of this process (time.process_time) and wall time; the machines here are
shared, so the ratio to hearts — measured by wall time in a subprocess right before and after
the kernel — is the figure to compare. Best of 3 rounds. The first run on a machine compiles the
kernel (numba, `cache=True`) and prints how long that took; later runs load it from the cache.
"""
from __future__ import annotations

import argparse
import time

import dreamsim
from dreamsim.kernel.play import GAME_FIELDS
from dreamsim.kernel.play_batch import KERNEL, warm_up

from hearts_ref import hearts_steps_per_second


def kernel_rate(players: int, games: int, seconds: float, first_seed: int) -> dict:
    """Best of 3 rounds of `games` games each (repeated until `seconds`/3 have passed)."""
    rules = dreamsim.Rules(players=players)
    policies = ["random"] * players
    best = None
    seed = first_seed
    for _ in range(3):
        n_games = n_dec = 0
        w0, c0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - w0 < seconds / 3:
            per_game, _ = KERNEL.play_arrays(rules, policies, range(seed, seed + games))
            seed += games
            n_games += games
            n_dec += int(per_game[:, GAME_FIELDS.index("decisions")].sum())
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        rate = {"games": n_games, "decisions": n_dec, "dec_wall": n_dec / wall, "dec_cpu": n_dec / cpu,
                "games_wall": n_games / wall, "games_cpu": n_games / cpu}
        if best is None or rate["dec_wall"] > best["dec_wall"]:
            best = rate
    return best


def records_rate(players: int, games: int) -> float:
    """Games/s of play_batch (the kernel plus building to_record()-shaped dicts)."""
    t0 = time.perf_counter()
    KERNEL.play_batch(dreamsim.Rules(players=players), ["random"] * players, range(games))
    return games / (time.perf_counter() - t0)


def python_rate(players: int, games: int) -> float:
    rules = dreamsim.Rules(players=players)
    t0 = time.perf_counter()
    decisions = sum(dreamsim.play_game(rules, ["random"] * players, s).decisions for s in range(games))
    return decisions / (time.perf_counter() - t0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--seconds", type=float, default=3.0, help="per player count (3 rounds)")
    ap.add_argument("--games", type=int, default=2000, help="games per kernel call")
    ap.add_argument("--hearts-seconds", type=float, default=2.0)
    ap.add_argument("--python", action="store_true", help="also time the Python engine (200 games)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    compile_s = warm_up()
    print(f"kernel compile/load: {compile_s:.1f} s (first call; import + compile {time.perf_counter() - t0:.1f} s)")
    hearts_before = hearts_steps_per_second(args.hearts_seconds)
    rows = []
    for players in args.players:
        rows.append((players, kernel_rate(players, args.games, args.seconds, 1_000_000 * players),
                     records_rate(players, min(args.games, 2000)),
                     python_rate(players, 200) if args.python else None))
    hearts_after = hearts_steps_per_second(args.hearts_seconds)
    hearts = None if hearts_before is None else (hearts_before + hearts_after) / 2
    print(f"hearts reference: {hearts_before and round(hearts_before):,} / {hearts_after and round(hearts_after):,} "
          f"steps/s (before / after)" if hearts else "hearts reference: pyspiel not installed")
    print(f"{'players':>7} {'decisions/s':>13} {'(cpu)':>13} {'games/s':>9} {'(cpu)':>9} {'records/s':>10} "
          f"{'x hearts':>9} {'target':>7} {'python dec/s':>13}")
    for players, r, rec, py in rows:
        ratio = f"{r['dec_wall'] / hearts:.1f}" if hearts else "-"
        print(f"{players:>7} {r['dec_wall']:>13,.0f} {r['dec_cpu']:>13,.0f} {r['games_wall']:>9,.0f} "
              f"{r['games_cpu']:>9,.0f} {rec:>10,.0f} {ratio:>9} {'20':>7} "
              f"{(f'{py:,.0f}' if py else '-'):>13}")


if __name__ == "__main__":
    main()
