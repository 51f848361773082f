"""Kernel against engine: the mean of every per-game statistic, with the standard error of the difference.

    rows = compare(Rules(players=2), ("greedy", "random"), n_engine=400, n_kernel=20000)
    worst = max(abs(r.z) for r in rows)      # |kernel - engine| in standard errors

Used by `tests/nightsim/test_nightsim_kernel.py` (|z| < 4 for every statistic) and by
`benchmarks/kernel_equivalence.py` (prints the table). Both engines play the same lineup with
seeds derived from one `numpy.random.SeedSequence`; they do not share random streams, so the
comparison is statistical.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .game import play_game
from .kernel import play_batch


class Row(NamedTuple):
    stat: str
    engine_mean: float
    kernel_mean: float
    se: float          # standard error of (kernel mean - engine mean)
    z: float           # (kernel mean - engine mean) / se; 0 when both are constant and equal


def seeds(seed: int, n: int, stream: int) -> list[int]:
    """n game seeds (63 bits) from SeedSequence(seed); stream 0 for the engine, 1 for the kernel."""
    words = np.random.SeedSequence(seed, spawn_key=(stream,)).generate_state(n * 2, np.uint32)
    return [int(v >> np.uint64(1)) for v in words.view(np.uint64)]


def statistics(records: list[dict], players: int) -> dict[str, np.ndarray]:
    """Per-game values of every statistic: winner by seat (0/1), no winner, and every numeric column."""
    out = {}
    winners = [r["winner"] for r in records]
    for p in range(players):
        out[f"won_seat{p}"] = np.array([w == p for w in winners], float)
    out["no_winner"] = np.array([w is None for w in winners], float)
    for key, value in records[0].items():
        if key != "winner" and isinstance(value, (bool, int, float, np.integer)):
            out[key] = np.array([r[key] for r in records], float)
    return out


def compare(rules, lineup, n_engine: int, n_kernel: int, seed: int = 0) -> list[Row]:
    """Every statistic's mean in `n_engine` engine games and `n_kernel` kernel games of `lineup`."""
    lineup = tuple(lineup)
    engine = [play_game(rules, list(lineup), s).to_record() for s in seeds(seed, n_engine, 0)]
    kernel = play_batch(rules, [lineup] * n_kernel, seeds(seed, n_kernel, 1))
    a, b = statistics(engine, rules.players), statistics(kernel, rules.players)
    rows = []
    for stat in a:
        x, y = a[stat], b[stat]
        se = float(np.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y)))
        diff = float(y.mean() - x.mean())
        z = diff / se if se > 0 else (0.0 if diff == 0 else float("inf"))
        rows.append(Row(stat, float(x.mean()), float(y.mean()), se, z))
    return rows


def format_rows(rows: list[Row]) -> str:
    lines = [f"{'statistic':32} {'engine':>9} {'kernel':>9} {'SE':>7} {'z':>6}"]
    lines += [f"{r.stat:32} {r.engine_mean:9.3f} {r.kernel_mean:9.3f} {r.se:7.3f} {r.z:6.2f}" for r in rows]
    return "\n".join(lines)
