"""Exact battle odds by probability propagation over casualty states.

State: the casualty state of both sides (counts per unit type and damage, incl. damaged
dragons and silenced castles). With a casualty order the owner's choice depends only on
how many hits the side has taken, so a side's states form a chain (hits taken 0, 1, …);
with a custom callable they are found by search. Each state is computed once (dynamic
programming over the state lattice — memoisation without recursion).

One round from (a, d) — seed steps 1–3:
  first strike: both sides' first strikers roll together, hits removed at once;
  other attacks: the survivors roll together; each side takes its hits.
Each side's hits per step follow a Poisson-binomial distribution: the convolution of one
binomial per die size, per-die hit probability P(roll >= 6) (d6 1/6, d8 3/8, d10 5/10,
d12 7/12, d20 15/20).

The round matrix P (from state to state) is upper triangular in a topological order (a side
never gets healthier), its diagonal the no-hit self-loop. Solving (I - P)ᵀ v = b block by
block (one block per attacker state) renormalises the self-loop geometrically, v being the
expected number of visits; states whose mass is below `prune` do not propagate further and
the dropped mass is reported. The distribution of rounds is found by stepping P round by
round until the mass still fighting is below `prune`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import sparse
from scipy.linalg import lapack

from .army import Army, BattleState, Situation, health, start_battle
from .casualties import CasualtyPlan, assign_hits, resolve_casualties
from .dice import hit_probability, poisson_binomial_pmf
from .outcomes import ATTACKER_WINS, DEFENDER_HOLDS, DRAW, RETREAT, EndTable, collapse
from .rules import BattleRules
from .steps import Retreat, dice_pool

MAX_STATES = 6000          # pair states; beyond this the dense round matrix is too large
MAX_SIDE_STATES = 1000     # casualty states of one side; beyond this building the chain takes minutes
DEFAULT_PRUNE = 1e-12
MAX_ROUNDS = 100_000
ROUNDS_FLOOR = 1e-15       # the rounds distribution is stepped until less than this is still fighting


# ----------------------------------------------------------------------------------------
# Hit distributions
# ----------------------------------------------------------------------------------------
def hits_pmf(army: Army, situation: Situation, first_strike: bool) -> np.ndarray:
    """Distribution of the hits this side scores in one step (first strike or other attacks)."""
    threshold = situation.rules.threshold(situation.role)
    pool = dice_pool(army, situation, first_strike)
    return poisson_binomial_pmf(tuple((hit_probability(die, threshold), pool[die]) for die in sorted(pool)))


# ----------------------------------------------------------------------------------------
# One side's casualty states
# ----------------------------------------------------------------------------------------
@dataclass
class SideStates:
    states: list            # Army per state, in topological order (state 0 = start)
    health: np.ndarray      # hits each state can still take
    size: np.ndarray        # units present (for Retreat.at_units)
    fs: list                # pmf of hits dealt by first strikers, per state
    main: list              # pmf of hits dealt in step 2, per state
    trans: np.ndarray | None = None   # trans[s, h]: state after taking h hits

    @property
    def alive(self) -> np.ndarray:
        return self.health > 0


def side_states(army: Army, choice, situation: Situation, max_hits: int) -> SideStates:
    """Every casualty state a side can reach, and where h hits take each of them."""
    if isinstance(choice, CasualtyPlan):
        states, hp, size, fs, main = plan_chain(army, choice, situation)
        S = len(states)
        trans = np.minimum(np.arange(S)[:, None] + np.arange(max_hits + 1)[None, :], S - 1)
        side = SideStates(states=states, health=hp, size=size, fs=fs, main=main)
        side.trans = trans
        return side
    states, trans = _search(army, choice, situation, max_hits)
    side = SideStates(
        states=states,
        health=np.array([health(s, situation) for s in states]),
        size=np.array([s.size for s in states]),
        fs=[hits_pmf(s, situation, True) for s in states],
        main=[hits_pmf(s, situation, False) for s in states],
    )
    side.trans = trans
    return side


#: `plan_chain`'s answers by (army, plan, situation): plain values in, read-only maths out (docs/ARCHITECTURE.md
#: §6 item 3), so whoever asks first changes no answer; bounded (emptied when it reaches `PLAN_CHAINS_MAX`)
_PLAN_CHAINS: dict = {}
PLAN_CHAINS_MAX = 4096


def plan_chain(army: Army, plan: CasualtyPlan, situation: Situation) -> tuple:
    """A side's casualty chain under a fixed plan and its per-state numbers, as `side_states` uses them:
    (states, health, size, first-strike hit pmfs, other hit pmfs), tuples and read-only arrays. Worked out
    once per (army, plan, situation) and remembered (a battle's side recurs in many battles: the same
    garrison against other attackers), the same values to the last bit as working them out again."""
    key = (army, plan, situation)
    got = _PLAN_CHAINS.get(key)
    if got is None:
        states = tuple(casualty_chain(army, plan, situation))
        hp = np.array([health(s, situation) for s in states])
        size = np.array([s.size for s in states])
        fs = tuple(hits_pmf(s, situation, True) for s in states)
        main = tuple(hits_pmf(s, situation, False) for s in states)
        for a in (hp, size, *fs, *main):
            a.setflags(write=False)
        if len(_PLAN_CHAINS) >= PLAN_CHAINS_MAX:
            _PLAN_CHAINS.clear()
        got = _PLAN_CHAINS[key] = (states, hp, size, fs, main)
    return got


def casualty_chain(army: Army, plan: CasualtyPlan, situation: Situation) -> list:
    """With a fixed order, the state after h hits is the state after h single hits."""
    states = [army]
    while health(states[-1], situation) > 0:
        states.append(assign_hits(states[-1], 1, plan, situation))
    return states


def _search(army: Army, choice, situation: Situation, max_hits: int):
    """States reachable under an arbitrary casualty choice, sorted healthiest first."""
    index = {army: 0}
    states = [army]
    edges = {}
    i = 0
    while i < len(states):
        s = states[i]
        hp = health(s, situation)
        for h in range(1, max_hits + 1):
            take = min(h, hp)
            if take == 0:
                t = s
            elif (i, take) in edges:
                t = states[edges[(i, take)]]
            else:
                t = choice(s, take, situation)
                if not isinstance(t, Army):
                    raise ValueError(f"casualty choice must return an Army, got {t!r}")
                if health(t, situation) > hp - take or t.size > s.size:
                    raise ValueError(f"casualty choice did not assign {take} hit(s) to {s}: got {t}")
            if t not in index:
                index[t] = len(states)
                states.append(t)
            edges[(i, h)] = index[t]
        i += 1
    hp = [health(s, situation) for s in states]
    order = sorted(range(len(states)), key=lambda k: (-hp[k], k))
    rank = {old: new for new, old in enumerate(order)}
    trans = np.zeros((len(states), max_hits + 1), dtype=np.int64)
    for k in range(len(states)):
        trans[rank[k], 0] = rank[k]
        for h in range(1, max_hits + 1):
            trans[rank[k], h] = rank[edges[(k, h)]]
    return [states[k] for k in order], trans


# ----------------------------------------------------------------------------------------
# The round matrix
# ----------------------------------------------------------------------------------------
def _pmf_matrix(pmfs: list, width: int) -> np.ndarray:
    out = np.zeros((len(pmfs), width))
    for i, p in enumerate(pmfs):
        out[i, :len(p)] = p
    return out


def _step(hitter_pmf: np.ndarray, target_trans: np.ndarray) -> np.ndarray:
    """M[y, x, x'] = P(target goes x -> x' | hitter in state y)."""
    S = target_trans.shape[0]
    onehot = (target_trans[:, :, None] == np.arange(S)[None, None, :]).astype(float)  # (S, K, S)
    return np.einsum("yh,xhz->yxz", hitter_pmf, onehot)


def _sub_round(A: SideStates, D: SideStates, pa: np.ndarray, pd: np.ndarray) -> np.ndarray:
    """Both sides fire at once: P[(a, d), (a', d')] for hit pmfs pa (A's state) and pd (D's)."""
    MA = _step(pd, A.trans)          # (SD, SA, SA): attacker's moves given the defender's state
    MD = _step(pa, D.trans)          # (SA, SD, SD)
    SA, SD = MA.shape[1], MD.shape[1]
    return np.einsum("dab,adc->adbc", MA, MD).reshape(SA * SD, SA * SD)


def round_matrix(A: SideStates, D: SideStates) -> np.ndarray:
    """Probability of going from pair state (a, d) to (a', d') in one full round."""
    wa, wd = D.trans.shape[1], A.trans.shape[1]   # hits A deals land on D (width of D.trans), and back
    main = _sub_round(A, D, _pmf_matrix(A.main, wa), _pmf_matrix(D.main, wd))
    if all(len(p) == 1 for p in A.fs) and all(len(p) == 1 for p in D.fs):
        return main
    first = _sub_round(A, D, _pmf_matrix(A.fs, wa), _pmf_matrix(D.fs, wd))
    return np.asarray(sparse.csr_matrix(first) @ main)


# ----------------------------------------------------------------------------------------
# Solving
# ----------------------------------------------------------------------------------------
@dataclass
class Chain:
    """The battle as a Markov chain over pair states (a, d), flat index a * SD + d."""

    state: BattleState
    rules: BattleRules
    A: SideStates
    D: SideStates
    P: np.ndarray

    @property
    def shape(self):
        return len(self.A.states), len(self.D.states)

    def both_alive(self) -> np.ndarray:
        return (self.A.alive[:, None] & self.D.alive[None, :]).reshape(-1)


class BattleTooLarge(ValueError):
    """The battle has more casualty states than the exact solver takes (use Monte Carlo)."""


def check_exact_size(state: BattleState, rules: BattleRules) -> None:
    """Refuse, before any work, a battle the exact solver cannot take.

    Whatever the casualty choice, a side that can take h more hits passes through at least
    h + 1 casualty states, so (h_a + 1) * (h_d + 1) > MAX_STATES, or h + 1 > MAX_SIDE_STATES
    on one side, is too large for sure. This costs nothing even for 10^11 footsoldiers;
    build_chain checks the real count again.
    """
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    na, nd = health(state.attacker, sa) + 1, health(state.defender, sd) + 1
    if max(na, nd) > MAX_SIDE_STATES:
        raise BattleTooLarge(f"battle too large for the exact solver (at least {na} x {nd} casualty states, "
                             f"limit {MAX_SIDE_STATES} per side); use method='monte_carlo'")
    if na * nd > MAX_STATES:
        raise BattleTooLarge(f"battle too large for the exact solver (at least {na} x {nd} casualty states, "
                             f"limit {MAX_STATES} pairs); use method='monte_carlo'")


def build_chain(state: BattleState, rules: BattleRules, choices) -> Chain:
    check_exact_size(state, rules)
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    fa, fd = hits_pmf(state.attacker, sa, True), hits_pmf(state.defender, sd, True)
    ma, md = hits_pmf(state.attacker, sa, False), hits_pmf(state.defender, sd, False)
    max_on_a = max(len(fd), len(md)) - 1
    max_on_d = max(len(fa), len(ma)) - 1
    A = side_states(state.attacker, choices[0], sa, max_on_a)
    D = side_states(state.defender, choices[1], sd, max_on_d)
    n = len(A.states) * len(D.states)
    if n > MAX_STATES:
        raise BattleTooLarge(f"battle too large for the exact solver ({len(A.states)} x {len(D.states)} casualty "
                         f"states, limit {MAX_STATES} pairs); use method='monte_carlo'")
    return Chain(state, rules, A, D, round_matrix(A, D))


def continuing(chain: Chain, retreat: Retreat, win: np.ndarray | None) -> np.ndarray:
    """Pair states after which the battle goes on (both stand and no stationary retreat trigger)."""
    cont = chain.both_alive()
    SA, SD = chain.shape
    if retreat.at_units is not None:
        cont &= ~np.repeat(chain.A.size <= retreat.at_units, SD)
    if retreat.below_win_chance is not None:
        cont &= ~(win < retreat.below_win_chance)
    return cont


def win_chances(chain: Chain) -> np.ndarray:
    """Attacker's chance of winning from each pair state by fighting on to the end."""
    alive = chain.both_alive()
    SA, SD = chain.shape
    win_end = (chain.A.alive[:, None] & ~chain.D.alive[None, :]).reshape(-1).astype(float)
    idx = np.flatnonzero(alive)
    P = chain.P
    Q = P[np.ix_(idx, idx)]
    rhs = P[idx] @ win_end
    x = win_end.copy()
    if len(idx):
        x[idx] = _triangular_solve(np.eye(len(idx)) - Q, rhs, lower=False)
    return np.clip(x, 0.0, 1.0)


def _triangular_solve(a: np.ndarray, b: np.ndarray, lower: bool, transposed: bool = False) -> np.ndarray:
    """Solve a x = b (or aᵀ x = b) for triangular `a` (LAPACK dtrtrs, without scipy's checks)."""
    x, info = lapack.dtrtrs(a, b, lower=int(lower), trans=int(transposed))
    if info != 0:
        raise ArithmeticError(f"singular round matrix (LAPACK info {info}): a state cannot be left")
    return x


def visits(chain: Chain, cont: np.ndarray, prune: float) -> tuple[np.ndarray, float]:
    """Expected visits to each pair state after round 1; the initial round is always fought.

    Block forward substitution, one block per attacker state: within a block only the
    defender can lose units (or nothing happens: the geometric self-loop on the diagonal).
    """
    SA, SD = chain.shape
    P = chain.P
    b = P[0].copy()                  # after round 1 (seed: the attacker moved in, so one round is fought)
    v = np.zeros_like(b)
    eye = np.eye(SD)
    for a in range(SA):
        rows = slice(a * SD, (a + 1) * SD)
        c = cont[rows]
        T = P[rows, rows] * c[:, None]
        va = _triangular_solve(eye - T, b[rows], lower=False, transposed=True)
        va[c & (va < prune)] = 0.0   # negligible states do not propagate
        v[rows] = va
        if a + 1 < SA:
            b[(a + 1) * SD:] += (va * c) @ P[rows, (a + 1) * SD:]
    return v, float(max(0.0, 1.0 - v[~cont].sum()))


def rounds_distribution(chain: Chain, cont_after: np.ndarray, prune: float, limit: int | None = None
                        ) -> tuple[np.ndarray, np.ndarray]:
    """(rounds pmf, mass ending in each state) by stepping the round matrix.

    With `limit` (Retreat.after_rounds) every battle still going after that round retreats.
    Stepping stops once less than max(prune, ROUNDS_FLOOR) of the mass is still fighting.
    """
    stop = max(prune, ROUNDS_FLOOR)
    P = chain.P
    m = P[0].copy()
    ends = np.zeros_like(m)
    pmf = [0.0]
    r = 1
    while True:
        going = m * cont_after
        ended = m - going
        ends += ended
        if limit is not None and r >= limit:
            ends += going
            pmf.append(ended.sum() + going.sum())
            break
        pmf.append(ended.sum())
        alive = going.sum()
        if alive < stop or r >= MAX_ROUNDS:
            break
        m = going @ P
        r += 1
    return np.array(pmf), ends


def solve(state: BattleState, rules: BattleRules, choices, retreat: Retreat, prune: float = DEFAULT_PRUNE
          ) -> EndTable:
    """Exact end-state table of a battle from `state` (usually round 0)."""
    table = rules.units
    names = table.names
    costs = np.array([table[n].cost for n in names])
    start_a = _vector(state.attacker.counts(), names)
    start_d = _vector(state.defender.counts(), names)
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    if health(state.attacker, sa) == 0 or health(state.defender, sd) == 0:
        return _immediate(state, rules, names, costs, start_a, start_d)
    chain = build_chain(state, rules, choices)
    SA, SD = chain.shape
    win = win_chances(chain) if retreat.below_win_chance is not None else None
    cont = continuing(chain, retreat, win)
    limit = None if retreat.after_rounds is None else max(1, retreat.after_rounds - state.round)
    rounds, ends = rounds_distribution(chain, cont, prune, limit)
    if limit is None:
        v, pruned = visits(chain, cont, prune)
        ends_final = np.where(cont, 0.0, v)
        expected_rounds = 1.0 + float(v[cont].sum())
    else:
        ends_final = ends
        pruned = float(max(0.0, 1.0 - ends.sum()))
        expected_rounds = float(np.arange(len(rounds)) @ rounds)
    return _end_table(chain, ends_final, cont, names, costs, start_a, start_d, rounds, expected_rounds, pruned)


def attacker_wins_sum(state: BattleState, rules: BattleRules, choices, prune: float = DEFAULT_PRUNE) -> float:
    """`solve(state, rules, choices, Retreat.parse(None), prune)`'s P(attacker wins), the sum of its
    ATTACKER_WINS rows, to the last bit, without the rest of the end table: no rounds distribution (with no
    retreat it feeds only `rounds` and `expected_rounds`) and only the rows the attacker wins merged. Those
    rows are merged as `collapse` merges them (the same groups: survivors and captured units; each group's
    weights added by `bincount` in the same order) and summed in `collapse`'s order (by weight, largest
    first; groups of equal weight add the same value whichever comes first)."""
    table = rules.units
    names = table.names
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    if health(state.attacker, sa) == 0 or health(state.defender, sd) == 0:
        end = solve(state, rules, choices, Retreat.parse(None), prune)
        return float(end.prob[end.outcome == ATTACKER_WINS].sum())
    chain = build_chain(state, rules, choices)
    SA, SD = chain.shape
    cont = continuing(chain, Retreat.parse(None), None)
    v, _pruned = visits(chain, cont, prune)
    ends = np.where(cont, 0.0, v)
    idx = np.flatnonzero(ends > 0)
    a_idx, d_idx = idx // SD, idx % SD
    won = chain.A.alive[a_idx] & ~chain.D.alive[d_idx]
    if not won.any():
        return 0.0
    idx, a_idx, d_idx = idx[won], a_idx[won], d_idx[won]
    capt = np.array([table[n].captured for n in names])
    surv_a = np.array([present_units(s, rules, names) for s in chain.A.states])
    surv_d = np.array([present_units(s, rules, names) for s in chain.D.states])
    dfd = surv_d[d_idx] * capt                # a wiped-out side keeps only its castles ...
    captured = dfd * capt                     # ... which the attacker takes
    keys = np.column_stack([surv_a[a_idx], captured]).astype(np.int64)
    radices = keys.max(axis=0) + 1
    if float(np.prod(radices.astype(float))) < 2.0 ** 62:      # one number per row (as `collapse` does)
        mult = np.concatenate([[1], np.cumprod(radices[:-1])]).astype(np.int64)
        groups, inverse = np.unique(keys @ mult, return_inverse=True)
    else:
        groups, inverse = np.unique(keys, axis=0, return_inverse=True)
    w = np.bincount(inverse.reshape(-1), weights=ends[idx], minlength=len(groups))
    w = np.ascontiguousarray(w[np.argsort(-w, kind="stable")])
    return float(w.sum())


def _vector(counts: dict, names) -> np.ndarray:
    return np.array([counts.get(n, 0) for n in names], dtype=np.int64)


def present_units(army: Army, rules: BattleRules, names) -> np.ndarray:
    """Units still on the field (a silenced castle counts: it is there to be captured)."""
    table = rules.units
    out = np.zeros(len(names), dtype=np.int64)
    for n, d, c in army.groups:
        if d < table[n].hits_to_kill or table[n].captured:
            out[names.index(n)] += c
    return out


def _end_table(chain, ends, cont, names, costs, start_a, start_d, rounds, expected_rounds, pruned) -> EndTable:
    rules = chain.rules
    SA, SD = chain.shape
    idx = np.flatnonzero(ends > 0)        # where battles ended (after_rounds: still-fighting states retreat)
    a_idx, d_idx = idx // SD, idx % SD
    a_alive, d_alive = chain.A.alive[a_idx], chain.D.alive[d_idx]
    outcome = np.where(a_alive & d_alive, RETREAT,
                       np.where(a_alive, ATTACKER_WINS, np.where(d_alive, DEFENDER_HOLDS, DRAW))).astype(np.int8)
    capt = np.array([rules.units[n].captured for n in names])
    surv_a = np.array([present_units(s, rules, names) for s in chain.A.states])
    surv_d = np.array([present_units(s, rules, names) for s in chain.D.states])
    att = surv_a[a_idx] * a_alive[:, None]
    dfd = surv_d[d_idx].copy()
    dfd[~d_alive] *= capt                     # a wiped-out side keeps only its castles
    won = outcome == ATTACKER_WINS
    captured = np.where(won[:, None], dfd * capt, 0)
    dfd = np.where(won[:, None], 0, dfd)
    o, att, dfd, captured, w = collapse(names, outcome, att, dfd, captured, ends[idx])
    return EndTable(names, o, att, dfd, captured, w, rounds, expected_rounds, start_a, start_d, costs,
                    pruned=pruned)


def _immediate(state, rules, names, costs, start_a, start_d) -> EndTable:
    """A side that cannot take a single hit (a lone castle in 'never_hit' mode) loses at once."""
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    a_alive, d_alive = health(state.attacker, sa) > 0, health(state.defender, sd) > 0
    capt = np.array([rules.units[n].captured for n in names])
    att = present_units(state.attacker, rules, names) if a_alive else np.zeros(len(names), dtype=np.int64)
    dfd = present_units(state.defender, rules, names)
    if not d_alive:
        dfd = dfd * capt
    code = ATTACKER_WINS if a_alive and not d_alive else (DEFENDER_HOLDS if d_alive else DRAW)
    captured = dfd * capt if code == ATTACKER_WINS else np.zeros_like(dfd)
    if code == ATTACKER_WINS:
        dfd = np.zeros_like(dfd)
    return EndTable(names, np.array([code], dtype=np.int8), att[None], dfd[None], captured[None], np.array([1.0]),
                    np.array([1.0]), 0.0, start_a, start_d, costs)


# ----------------------------------------------------------------------------------------
# Entry points
# ----------------------------------------------------------------------------------------
def exact_battle(attacker, defender, at_sea: bool = False, rules: BattleRules | None = None,
                 casualty_order=None, retreat=None, prune: float = DEFAULT_PRUNE) -> EndTable:
    """Exact end-state table for two armies (dicts, text or Army)."""
    rules = rules or BattleRules()
    if isinstance(prune, bool) or not isinstance(prune, (int, float)) or not 0 <= prune < 1e-3:
        raise ValueError(f"prune must be a probability threshold in [0, 0.001), got {prune!r}")
    state = start_battle(attacker, defender, at_sea, rules)
    choices = resolve_casualties(casualty_order, state, rules)
    return solve(state, rules, choices, Retreat.parse(retreat), prune)


@lru_cache(maxsize=1024)
def _win_table(state: BattleState, rules: BattleRules, choices: tuple):
    chain = build_chain(state, rules, choices)
    return chain, win_chances(chain)


def attacker_win_chance(state: BattleState, rules: BattleRules, choices) -> float:
    """The attacker's exact chance of winning from `state` by fighting on to the end.

    Used by Retreat(below_win_chance=...) in `combat.resolve_battle` and the Monte Carlo calculators; cached per state.
    """
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    if health(state.defender, sd) == 0:
        return 1.0 if health(state.attacker, sa) > 0 else 0.0
    if health(state.attacker, sa) == 0:
        return 0.0
    base = BattleState(state.attacker, state.defender, state.at_sea)
    _, win = _win_table(base, rules, tuple(choices))
    return float(win[0])
