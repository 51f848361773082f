"""Monte Carlo battles, vectorised across battles with numpy.

Each side is an array of unit counts per (unit type, damage) slot and per battle. A round
is the seed's procedure applied to all battles still going at once: first strike (both
sides' first strikers roll together, hits removed at once), other attacks (simultaneous),
casualties by the side's casualty order (the same `CasualtyPlan` as the reference
`casualties.assign_hits`, compiled into array operations), drowning at sea, then step 4 (the
`Retreat` rule) and step 5. Hits per die size are binomial draws: by default from exact
per-die-size alias tables (Vose), or `sampler="numpy"` for `Generator.binomial`.

Battles run in chunks of CHUNK; chunk i draws from SeedSequence(seed, spawn_key=(i,)), so a
run of n battles is a prefix of a run of more and does not depend on anything but (seed, n).

This numpy engine is the reference and the default (`engine="python"`); `engine="kernel"` plays
the same battles compiled with numba (`kernel.py`, its own random stream) and `"auto"` picks the
kernel when numba imports.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .army import Situation, start_battle
from .casualties import DAMAGE_PREFIX, CasualtyPlan, resolve_casualties
from .dice import alias_draw, alias_tables, hit_probability, joint_alias_tables
from .exact import build_chain, win_chances
from .outcomes import ATTACKER_WINS, DEFENDER_HOLDS, DRAW, RETREAT, EndTable, collapse
from .rules import BattleRules
from .steps import Retreat

CHUNK = 1 << 16
SAMPLERS = ("alias", "numpy")
ENGINES = ("python", "kernel", "auto")
MAX_ROUNDS = 100_000
MAX_UNITS = 1000   # units per side; beyond this the per-die-size alias tables and rounds take minutes
#: battles of one call: the numpy engine keeps an 8-byte end code per battle and runs ~1 M battles/s
#: (20 M: 160 MB, ~20 s); the kernel keeps only counts and runs >= 10 M/s (200 M: ~20 s)
MAX_BATTLES = {"python": 20_000_000, "kernel": 200_000_000}


# ----------------------------------------------------------------------------------------
# One side compiled into arrays
# ----------------------------------------------------------------------------------------
@dataclass
class _Dice:
    """Dice of one die size in one step: sum of weight * count over `rows`, plus `cond` rows
    (castles in 'never_hit' mode) only while the side still stands."""

    p: float
    rows: list                  # [(slot, dice per unit)]
    cond: list                  # same, conditional
    n_max: int


class StepSampler:
    """Samples one side's hits in one step for many battles.

    The hits of each die size are Binomial(dice, p); their sum is drawn from one joint alias
    table indexed by the dice counts when that table is small, else one alias draw per die
    size (or numpy's Generator.binomial with sampler='numpy').
    """

    JOINT_KEYS = 512

    def __init__(self, dice: list):
        self.dice = dice
        keys = 1
        for d in dice:
            keys *= d.n_max + 1
        self.joint = None
        if len(dice) > 1 and keys <= self.JOINT_KEYS:
            self.joint = joint_alias_tables(tuple((d.n_max, d.p) for d in dice))

    def __bool__(self) -> bool:
        return bool(self.dice)

    @staticmethod
    def _count(c: np.ndarray, d: _Dice, alive) -> np.ndarray:
        n = None
        for row, w in d.rows:
            term = c[row] * w if w != 1 else c[row]
            n = term if n is None else n + term
        if d.cond:
            extra = None
            for row, w in d.cond:
                term = c[row] * w
                extra = term if extra is None else extra + term
            extra = extra * alive
            n = extra if n is None else n + extra
        return n

    def draw(self, c: np.ndarray, alive: np.ndarray, rng: np.random.Generator, sampler: str) -> np.ndarray:
        B = c.shape[1]
        if not self.dice:
            return np.zeros(B, dtype=c.dtype)
        counts = [self._count(c, d, alive) for d in self.dice]
        if sampler == "numpy":
            hits = np.zeros(B, dtype=np.int64)
            for n, d in zip(counts, self.dice):
                hits += rng.binomial(n, d.p)
            return hits.astype(c.dtype)
        if self.joint is not None:
            prob, alias, K, radices = self.joint
            key = counts[0].astype(np.intp)
            for n, r in zip(counts[1:], radices[1:]):
                key = key * r + n
            return alias_draw(key, prob, alias, K, rng).astype(c.dtype, copy=False)
        hits = None
        for n, d in zip(counts, self.dice):
            prob, alias, K = alias_tables(d.n_max, d.p)
            h = alias_draw(n.astype(np.intp), prob, alias, K, rng)
            hits = h if hits is None else hits + h
        return hits.astype(c.dtype, copy=False)


@dataclass
class CompiledSide:
    slots: list                     # (unit, damage) per row
    start: np.ndarray               # (S,) counts at the start
    hp: list                        # [(slot, hits each unit there can still take)] for slots that take hits
    fs: StepSampler                 # first strike
    main: StepSampler               # other attacks
    ops: list                       # compiled casualty plan
    unit_rows: np.ndarray           # (U, S) 0/1: which slots are units of table type u


def compile_side(army, plan: CasualtyPlan, situation: Situation) -> CompiledSide:
    rules = situation.rules
    table = rules.units
    names = table.names
    slots = []
    for name in names:
        if army.count(name):
            u = table[name]
            levels = u.hits_to_kill + (1 if u.captured else 0)   # silenced level for castles
            slots += [(name, d) for d in range(levels)]
    index = {s: i for i, s in enumerate(slots)}
    S = len(slots)
    start = np.zeros(S, dtype=np.int64)
    for n, d, c in army.groups:
        start[index[(n, d)]] += c
    hp = np.array([(table[n].hits_to_kill - d) if situation.takes_hits(table[n]) and d < table[n].hits_to_kill
                   else 0 for n, d in slots], dtype=np.int64)

    def pools(first_strike: bool) -> StepSampler:
        by_die: dict[int, tuple[list, list]] = {}
        for i, (n, d) in enumerate(slots):
            u = table[n]
            if u.first_strike != first_strike or not situation.fights(u) or d >= u.hits_to_kill:
                continue
            if d > 0 and not rules.damaged_units_fight:
                continue
            dice = u.dice(situation.role, situation.at_sea)
            if not dice:
                continue
            rows, cond = by_die.setdefault(u.die, ([], []))
            (cond if u.captured and rules.castle_mode == "never_hit" else rows).append((i, dice))
        out = []
        for die in sorted(by_die):
            rows, cond = by_die[die]
            n_max = int(sum(start[i] * w for i, w in rows + cond))
            out.append(_Dice(hit_probability(die, rules.threshold(situation.role)), rows, cond, n_max))
        return StepSampler(out)

    unit_rows = np.zeros((len(names), S), dtype=np.int64)
    for i, (n, d) in enumerate(slots):
        unit_rows[names.index(n), i] = 1
    hp_rows = [(i, int(h)) for i, h in enumerate(hp) if h > 0]
    return CompiledSide(slots, start, hp_rows, pools(True), pools(False), _compile_plan(plan, slots, situation),
                        unit_rows)


def _standing(c: np.ndarray, hp_rows: list) -> np.ndarray:
    """Battles in which the side can still take a hit (is not wiped out)."""
    total = None
    for row, _ in hp_rows:
        total = c[row] if total is None else total + c[row]
    return total > 0 if total is not None else np.zeros(c.shape[1], dtype=bool)


def _compile_plan(plan: CasualtyPlan, slots: list, situation: Situation) -> list:
    """The casualty plan as array operations (same effect as applying the hits one by one)."""
    table = situation.rules.units
    index = {s: i for i, s in enumerate(slots)}
    present = {n for n, _ in slots}
    ops = []
    for token in plan.hits:
        if token.startswith(DAMAGE_PREFIX):
            name = token[len(DAMAGE_PREFIX):]
            if name not in present:
                continue
            u = table[name]
            ops.append(("damage", [index[(name, d)] for d in range(u.hits_to_kill)]))
            continue
        if token not in present or not situation.takes_hits(table[token]):
            continue
        u = table[token]
        rows = [index[(token, d)] for d in range(u.hits_to_kill)]
        silenced = index[(token, u.hits_to_kill)] if u.captured else None
        ops.append(("kill", rows, silenced))
        if u.capacity and situation.at_sea:
            ops.append(("drown",))
    carriers = [(i, table[n].capacity) for i, (n, d) in enumerate(slots)
                if table[n].capacity and situation.fights(table[n]) and d < table[n].hits_to_kill]
    land = [i for i, (n, _) in enumerate(slots) if table[n].domain == "land"]
    drown_rows = []
    for name in plan.drown:
        drown_rows += sorted((i for i, (n, _) in enumerate(slots) if n == name), key=lambda i: -slots[i][1])
    return [op if op[0] != "drown" else ("drown", carriers, land, drown_rows) for op in ops]


def apply_hits(c: np.ndarray, hits: np.ndarray, ops: list) -> None:
    """Assign `hits` (per battle) to the counts `c` (slots x battles) in place."""
    h = hits.copy()
    for op in ops:
        kind = op[0]
        if kind == "damage":
            rows = op[1]
            for d in range(len(rows) - 1):      # least damaged first, each unit survives the hit
                take = np.minimum(h, c[rows[d]])
                c[rows[d]] -= take
                c[rows[d + 1]] += take
                h -= take
        elif kind == "kill":
            rows, silenced = op[1], op[2]
            levels = len(rows)
            for d in range(levels - 1, -1, -1):  # the most damaged first
                need = levels - d
                if need == 1:
                    k = np.minimum(h, c[rows[d]])
                else:
                    k = np.minimum(c[rows[d]], h // need)
                c[rows[d]] -= k
                if silenced is not None:
                    c[silenced] += k
                h -= k * need
                if need > 1:
                    for r in range(1, need):     # leftover hits wound one more unit
                        m = ((h == r) & (c[rows[d]] > 0)).astype(c.dtype)
                        c[rows[d]] -= m
                        c[rows[d + r]] += m
                        h -= m * r
        else:  # drown: land units beyond the surviving warships' capacity
            carriers, land, drown_rows = op[1], op[2], op[3]
            capacity = sum(c[i] * cap for i, cap in carriers) if carriers else 0
            excess = np.maximum(c[land].sum(axis=0) - capacity, 0)
            for i in drown_rows:
                k = np.minimum(excess, c[i])
                c[i] -= k
                excess -= k


# ----------------------------------------------------------------------------------------
# The kernel
# ----------------------------------------------------------------------------------------
def resolve_engine(engine: str, sampler: str = "alias") -> str:
    """'python' or 'kernel' for an `engine` argument: 'auto' is the numba kernel when numba imports and
    the sampler is the default, else the numpy engine."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "kernel" and sampler != "alias":
        raise ValueError(f"sampler={sampler!r} applies to engine='python'; the kernel samples from its own "
                         f"alias tables (use sampler='alias' or engine='python')")
    if engine == "auto":
        if sampler != "alias":
            return "python"
        try:
            _kernel_module()
        except ImportError:
            return "python"
        return "kernel"
    return engine


def _kernel_module():
    # numba takes about a second to import: only callers that ask for the compiled engine pay for it
    from . import kernel  # noqa: PLC0415
    return kernel


def simulate(state, rules: BattleRules, plans, retreat: Retreat, n: int, seed: int,
             sampler: str = "alias", chunk: int = CHUNK, engine: str = "python") -> EndTable:
    """End-state table of `n` simulated battles from `state`, by the numpy engine (`engine="python"`, the
    reference) or the numba kernel (`"kernel"`; `"auto"`: the kernel when numba is there)."""
    check_mc_size(state)
    chosen = resolve_engine(engine, sampler)
    if n > MAX_BATTLES[chosen]:
        raise ValueError(f"n={n:,} battles is above the limit of {MAX_BATTLES[chosen]:,} for the {chosen} engine"
                         + (f" (the kernel takes up to {MAX_BATTLES['kernel']:,})" if chosen == "python" else ""))
    if chosen == "kernel":
        kernel = _kernel_module()
        outcome, att, dfd, weight, rounds_hist = kernel.simulate_kernel(state, rules, plans, retreat, n, seed)
        start_a = np.array([state.attacker.count(x) for x in rules.units.names])
        start_d = np.array([state.defender.count(x) for x in rules.units.names])
        return _table(rules.units.names, rules, outcome, att, dfd, weight, rounds_hist, n, start_a, start_d,
                      "kernel")
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    A = compile_side(state.attacker, plans[0], sa)
    D = compile_side(state.defender, plans[1], sd)
    names = rules.units.names
    win = None
    if retreat.below_win_chance is not None:
        chain = build_chain(state, rules, plans)
        win = win_chances(chain).reshape(chain.shape)
    coder = _EndCoder(A.unit_rows @ A.start, D.unit_rows @ D.start)
    codes = []
    rounds_hist = np.zeros(1, dtype=np.int64)
    for i, start in enumerate(range(0, n, chunk)):
        size = min(chunk, n - start)
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i,))))
        chunk_codes, hist = _run_chunk(A, D, size, rng, retreat, win, sampler, state.round, coder)
        codes.append(chunk_codes)
        if len(hist) > len(rounds_hist):
            rounds_hist = np.pad(rounds_hist, (0, len(hist) - len(rounds_hist)))
        rounds_hist[: len(hist)] += hist
    outcome, att, dfd, weight = coder.decode(np.concatenate(codes))
    return _table(names, rules, outcome, att, dfd, weight, rounds_hist, n, A.unit_rows @ A.start,
                  D.unit_rows @ D.start, "python")


def check_mc_size(state) -> None:
    """Refuse, before any work, an army of more than MAX_UNITS units."""
    for role, army in (("attacker", state.attacker), ("defender", state.defender)):
        if army.size > MAX_UNITS:
            raise ValueError(f"battle too large for Monte Carlo: the {role} has {army.size:,} units, "
                             f"limit {MAX_UNITS:,} per side")


class _EndCoder:
    """Packs (outcome, attacker survivors, defender survivors) of a battle into one integer."""

    def __init__(self, start_a: np.ndarray, start_d: np.ndarray):
        radices = [4] + [int(x) + 1 for x in start_a] + [int(x) + 1 for x in start_d]
        total = 1
        for r in radices:
            total *= r
        self.packed = total < 2 ** 62
        self.U = len(start_a)
        mult, m = [], 1
        for r in radices:
            mult.append(m)
            m *= r
        self.radices = np.array(radices, dtype=np.int64)
        self.mult = np.array(mult, dtype=np.int64) if self.packed else None
        self.total = total

    def encode(self, outcome: np.ndarray, att: np.ndarray, dfd: np.ndarray) -> np.ndarray:
        rows = [outcome] + list(att) + list(dfd)
        if not self.packed:
            return np.column_stack(rows).astype(np.int64)
        code = outcome.astype(np.int64)
        for row, m, r in zip(rows[1:], self.mult[1:], self.radices[1:]):
            if r > 1:
                code += row * int(m)
        return code

    def decode(self, codes: np.ndarray):
        if self.packed:
            if self.total <= 1 << 22:
                counts = np.bincount(codes, minlength=0)
                uniq = np.flatnonzero(counts)
                counts = counts[uniq]
            else:
                uniq, counts = np.unique(codes, return_counts=True)
            rows = (uniq[:, None] // self.mult[None, :]) % self.radices[None, :]
        else:
            rows, counts = np.unique(codes, axis=0, return_counts=True)
        U = self.U
        return rows[:, 0].astype(np.int8), rows[:, 1:1 + U], rows[:, 1 + U:], counts.astype(float)


def _run_chunk(A: CompiledSide, D: CompiledSide, size: int, rng, retreat: Retreat, win, sampler, round0: int,
               coder: _EndCoder):
    """Play `size` battles to the end; returns their end codes and the histogram of rounds."""
    dtype = np.int32
    a = np.repeat(A.start[:, None].astype(dtype), size, axis=1)
    d = np.repeat(D.start[:, None].astype(dtype), size, axis=1)
    track = win is not None
    taken_a = np.zeros(size, dtype=np.intp) if track else None
    taken_d = np.zeros(size, dtype=np.intp) if track else None
    has_fs = bool(A.fs or D.fs)
    out = []
    hist = [0]
    r = round0
    alive_a, alive_d = _standing(a, A.hp), _standing(d, D.hp)
    while a.shape[1]:
        r += 1
        if r - round0 > MAX_ROUNDS:
            raise RuntimeError(f"battles still undecided after {MAX_ROUNDS} rounds")
        steps = ((A.fs, D.fs), (A.main, D.main)) if has_fs else ((A.main, D.main),)
        for sample_a, sample_d in steps:
            ha = sample_a.draw(a, alive_a, rng, sampler)      # both sides roll together ...
            hd = sample_d.draw(d, alive_d, rng, sampler)
            apply_hits(a, hd, A.ops)                           # ... then take their hits
            apply_hits(d, ha, D.ops)
            if track:
                taken_a += hd
                taken_d += ha
            alive_a, alive_d = _standing(a, A.hp), _standing(d, D.hp)
        both = alive_a & alive_d
        done = ~both
        retreating = None
        if not retreat.never:
            retreating = np.zeros_like(both)
            if retreat.after_rounds is not None and r >= retreat.after_rounds:
                retreating |= both
            if retreat.at_units is not None:
                retreating |= both & (a.sum(axis=0) <= retreat.at_units)
            if track:
                ia = np.minimum(taken_a, win.shape[0] - 1)
                id_ = np.minimum(taken_d, win.shape[1] - 1)
                retreating |= both & (win[ia, id_] < retreat.below_win_chance)
            done |= retreating
        idx = np.flatnonzero(done)
        hist.append(len(idx))
        if len(idx):
            fa, fd = alive_a.take(idx), alive_d.take(idx)
            code = np.where(fa, np.where(fd, RETREAT, ATTACKER_WINS), np.where(fd, DEFENDER_HOLDS, DRAW))
            survivors_a = (A.unit_rows @ np.take(a, idx, axis=1)) * fa
            survivors_d = D.unit_rows @ np.take(d, idx, axis=1)  # a wiped-out defender holds only its castles
            out.append(coder.encode(code, survivors_a, survivors_d))
            keep = np.flatnonzero(~done)
            a, d = np.take(a, keep, axis=1), np.take(d, keep, axis=1)
            alive_a, alive_d = alive_a.take(keep), alive_d.take(keep)
            if track:
                taken_a, taken_d = taken_a.take(keep), taken_d.take(keep)
    return np.concatenate(out), np.array(hist, dtype=np.int64)


def _table(names, rules, outcome, att, dfd, weight, rounds_hist, n, start_a, start_d, engine) -> EndTable:
    capt = np.array([rules.units[x].captured for x in names])
    won = (outcome == ATTACKER_WINS)[:, None]
    captured = np.where(won, dfd * capt, 0)
    dfd = np.where(won, 0, dfd)
    o, a, d, c, w = collapse(names, outcome, att, dfd, captured, weight)
    counts = np.rint(w).astype(np.int64)
    rounds = rounds_hist / n
    costs = np.array([rules.units[x].cost for x in names])
    return EndTable(names, o, a, d, c, counts / n, rounds, float(np.arange(len(rounds)) @ rounds),
                    start_a, start_d, costs, counts=counts, n=n, engine=engine)


def monte_carlo_battle(attacker, defender, at_sea: bool = False, rules: BattleRules | None = None,
                       casualty_order=None, retreat=None, n: int = 100_000, seed: int = 0,
                       sampler: str = "alias", engine: str = "python") -> EndTable:
    """Simulate `n` battles; returns the end-state table with counts.

    engine: 'python' (the numpy engine, the reference; `sampler` chooses its binomial draws), 'kernel'
    (the numba kernel of `kernel.py`, ≥ 10 M battles/s; its own random stream, so other battles than
    the numpy engine's for the same seed, with the same distribution) or 'auto' (the kernel when numba
    imports). `EndTable.engine` says which one ran."""
    rules = rules or BattleRules()
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer number of battles, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler must be one of {', '.join(SAMPLERS)}, got {sampler!r}")
    resolve_engine(engine, sampler)
    state = start_battle(attacker, defender, at_sea, rules)
    plans = resolve_casualties(casualty_order, state, rules)
    for role, plan in zip(("attacker", "defender"), plans):
        if not isinstance(plan, CasualtyPlan):
            raise ValueError(f"monte_carlo needs a casualty order (list of unit names) for the {role}, not a "
                             f"callable; use method='exact' or resolve_battle")
    return simulate(state, rules, plans, Retreat.parse(retreat), int(n), int(seed), sampler, engine=engine)
