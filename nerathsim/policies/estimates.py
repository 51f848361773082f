"""Battle odds for the heuristics: a cheap calibrated estimate, and the exact solver for the close calls.

`quick_odds` is the Lanchester ratio of expected hits x hits to absorb, through a logistic fitted to
the exact solver (mean error 3 points); `exact_odds` is `odds.battle_odds` (exact), solved once per
process in the shared, value-keyed table `battle.odds_table.SHARED` (every policy and every game of the
process reuses it) and remembered by army composition in an `OddsCache` that belongs to one policy
object (`WarPolicy.odds_cache`), never to this module; `win_odds` asks the exact solver only when the estimate is near the threshold.
"""
from __future__ import annotations

import math

from ..battle import ingame as gb
from ..battle.odds_table import solved_attacker_wins

_QUICK = (0.2736, 1.5716, -0.1872)   # fitted on 700 random battles against battle_odds (exact)


class OddsCache:
    """Exact odds by (battle rules, attacker counts, defender counts, at sea), for one policy object, and
    the land distance of every region to the front by (board, owners, the realm's friends) (`fronts`,
    `planner.Planner.front_distance`: a pure function of those values, read-only tuples), and the enemy
    strength by region by (the realm's friends, battle rules) with the unit counts it was made from
    (`powers`, `planner.Planner._powers`: used only while those very counts are observed; and under
    ("strengths", unit tables, battle rules) the units' strengths and a row's sums by row, `Planner._strengths`).

    Bounded (cleared when it reaches `max_size` entries); `calls` counts the answers it had to fetch from
    the shared table of solved odds (`battle.odds_table.SHARED`, whose `solves` counts the exact solves). It is never pickled or copied with its policy: a policy sent to a worker
    process starts with an empty cache (its answers do not depend on the cache, only its speed)."""

    __slots__ = ("table", "max_size", "calls", "fronts", "powers")

    def __init__(self, max_size: int = 200_000):
        self.table: dict = {}
        self.max_size = max_size
        self.calls = 0
        self.fronts: dict = {}
        self.powers: dict = {}

    def clear(self) -> None:
        self.table.clear()
        self.fronts.clear()
        self.powers.clear()

    def __len__(self) -> int:
        return len(self.table)

    def __reduce__(self):
        return (OddsCache, (self.max_size,))

    def __repr__(self):
        return f"OddsCache({len(self.table)} entries, {self.calls} exact solves)"


def _quick_weights(brules, at_sea: bool) -> tuple:
    """Per side (attacker, defender), per unit type: (dice x P(hit), or None for a unit that does not fight;
    the first-strike factor; hits to kill, or 0 for a unit that takes no hits): `quick_odds`'s numbers."""
    out = []
    for role in ("attacker", "defender"):
        t = gb.side_table(brules, role, at_sea)
        out.append(tuple((t.dice[u] * t.p[u] if t.fights[u] else None, 1.25 if t.fs[u] else 1.0,
                          t.htk[u] if t.takes[u] else 0) for u in range(t.U)))
    return tuple(out)


def quick_odds(brules, att: list, dfd: list, at_sea: bool) -> float:
    """Cheap estimate of P(attacker wins) for count lists (unit table order)."""
    wa, wd = gb.rules_derived(brules, ("quick_odds", at_sea), _quick_weights, at_sea)
    a = d = 0.0
    ha = hd = 0
    for c, (w, f, h) in zip(att, wa):
        if c:
            if w is not None:
                a += w * c * f      # the same products, in the same order, as dice * p * c * factor
            ha += h * c
    for c, (w, f, h) in zip(dfd, wd):
        if c:
            if w is not None:
                d += w * c * f
            hd += h * c
    if hd == 0:
        return 1.0 if ha > 0 else 0.0
    if ha == 0 or a == 0:
        return 0.0
    if d == 0:
        return 1.0
    k0, k1, c0 = _QUICK
    z = (k0 + k1 * math.sqrt(min(ha, hd))) * math.log(a * ha / (d * hd)) + c0
    if z > 30:
        return 1.0
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def exact_odds(brules, att: list, dfd: list, at_sea: bool, cache: OddsCache | None = None) -> float:
    """P(attacker wins) from the battles module's exact solver (`battle_odds`), through the process-wide
    table of solved odds (`battle.odds_table`, keyed by the battle rules' fingerprint and the armies),
    remembered in `cache` (a policy's `OddsCache`) by composition when one is given; the quick estimate
    for armies the solver refuses."""
    key = (gb.fingerprint(brules), tuple(att), tuple(dfd), at_sea)
    if cache is not None:
        got = cache.table.get(key)
        if got is not None:
            return got
    p = solved_attacker_wins(brules, key[1], key[2], at_sea)
    if p is None:
        p = quick_odds(brules, att, dfd, at_sea)
    if cache is not None:
        cache.calls += 1
        if len(cache.table) >= cache.max_size:
            cache.table.clear()
        cache.table[key] = p
    return p


def win_odds(brules, att: list, dfd: list, at_sea: bool, threshold: float, band: float = 0.08,
             max_units: int = 24, cache: OddsCache | None = None) -> float:
    """Quick estimate; exact when it falls within `band` of the decision threshold (and the battle is small
    enough for the exact solver to be quick)."""
    q = quick_odds(brules, att, dfd, at_sea)
    if abs(q - threshold) < band and sum(att) + sum(dfd) <= max_units:
        return exact_odds(brules, att, dfd, at_sea, cache)
    return q
