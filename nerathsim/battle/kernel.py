"""Monte Carlo battles compiled with numba: the same battles as `monte_carlo`, ≥ 10 M a second.

With a casualty order a side's choice depends only on how many hits it has taken, so its
casualty states form a chain (state h = the army after h single hits, `exact.casualty_chain`,
built from the reference `casualties.assign_hits`, drowning included). A battle is then a pair
state (attacker's state, defender's state), and one round of the seed's procedure is:

1. first strike: both sides' first strikers roll together (the hits of the state's dice pool,
   `steps.dice_pool`: one binomial per die size and hit chance, convolved), and both sides take
   their hits at once (state + hits, capped at the wiped-out state);
2. other attacks: the same with the other dice, from the states after step 1 (3. take damage);
4. while both stand, the attacker's `Retreat` rule (after N rounds, at K units or fewer, or the
   exact chance of winning by fighting on below P, `exact.win_chances`);
5. the result: who still stands.

Steps 1–3 of a round are one draw: every pair state has a Vose alias table of the pair state
after the round (`round_tables`, the composition of the two steps' exact hit distributions).
Battles whose tables would exceed MAX_PAIR_ENTRIES (huge armies) use the general loop
`_play_sides`: per step, one draw of each side's hits from its state's alias table.
Randomness: numba's own generator (one 32-bit word per draw), seeded per chunk of CHUNK battles from
``SeedSequence(seed, spawn_key=(i,))`` (its first 32-bit word), so a run of n battles is a
function of (seed, n) and a prefix of a longer run. The stream differs from the numpy engine's:
the two agree in distribution, not battle by battle (tests/nerathsim/test_nerath_battle_kernel.py).

numba is imported with this module (about a second); `monte_carlo.simulate` imports it only when
a caller asks for ``engine="kernel"`` or ``"auto"``. First-call compilation is cached on disk
(``cache=True``), stamped with this file and `outcomes.py` (`kernel_cache.py`).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy import stats

from simcore.kernel_cache import njit

from . import kernel_cache  # noqa: F401  (registers the numba cache locator before any @njit)
from .army import Army, BattleState, Situation, health
from .casualties import CasualtyPlan
from .dice import hit_probability
from .exact import build_chain, casualty_chain, present_units, win_chances
from .outcomes import ATTACKER_WINS, DEFENDER_HOLDS, DRAW, RETREAT
from .rules import BattleRules
from .steps import Retreat, dice_pool

CHUNK = 1 << 16          # battles per seed (as monte_carlo.CHUNK)
MAX_ROUNDS = 100_000     # as monte_carlo.MAX_ROUNDS
DENSE_CODES = 1 << 22    # end codes (4 x states x states) counted in the kernel up to this many
MAX_PAIR_ENTRIES = 1 << 21   # round-table entries (pair states x next states); beyond this the general loop
# one draw = one 32-bit word of numba's generator, u: the entry floor(u * K / 2^32) and, as the
# alias coin, the fraction (u * K mod 2^32) / 2^32 (each probability exact to 2^-32)
TINY = 1e-16             # hit counts of a state less likely than this are dropped (flat_pmfs)
TWO32 = 1 << 32
SHIFT = np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)
INV32 = 1.0 / (1 << 32)


# ----------------------------------------------------------------------------------------
# One side as a chain of casualty states, with the distribution of the hits it scores
# ----------------------------------------------------------------------------------------
class SideChain:
    """A side's casualty states under a fixed plan (`exact.casualty_chain`), and per state and step
    (first strike, other attacks) the pmf of the hits it scores, flattened: state s uses entries
    offset[s] .. offset[s] + width[s] of `pmf`."""

    def __init__(self, army: Army, plan: CasualtyPlan, situation: Situation, rules: BattleRules):
        self.states = casualty_chain(army, plan, situation)
        self.S = len(self.states)
        self.size = np.array([s.size for s in self.states], dtype=np.int64)
        self.alive = np.array([health(s, situation) > 0 for s in self.states])
        self.present = np.array([present_units(s, rules, rules.units.names) for s in self.states])
        self.fs = flat_pmfs([_pool(s, situation, True) for s in self.states])
        self.main = flat_pmfs([_pool(s, situation, False) for s in self.states])

    @property
    def has_first_strike(self) -> bool:
        return bool((self.fs[2] > 1).any())


def _pool(army: Army, situation: Situation, first_strike: bool) -> tuple:
    """((hit probability, dice), ...) rolled by this state in this step, smallest die first."""
    threshold = situation.rules.threshold(situation.role)
    pool = dice_pool(army, situation, first_strike)
    return tuple((hit_probability(die, threshold), pool[die]) for die in sorted(pool))


@lru_cache(maxsize=65536)
def pool_pmf(pool: tuple) -> np.ndarray:
    """P(k hits) of a pool ((p, dice), ...): the convolution of one binomial per entry (scipy's binomial
    pmf, so a 1000-dice pool costs one vectorised call, not 1000 convolutions as dice.binomial_pmf)."""
    pmf = np.array([1.0])
    for p, n in pool:
        pmf = np.convolve(pmf, stats.binom.pmf(np.arange(n + 1), n, p))
    pmf.setflags(write=False)
    return pmf


def flat_pmfs(pools: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pmf, offset, width): the hit pmf of every state, flattened. Hit counts less likely than TINY
    (e.g. 90 hits from 100 footsoldiers) are dropped: they change the distribution by less than
    width x TINY in total, far below what 2^-32 draws resolve, and keep the round tables small."""
    pmfs = []
    for pool in pools:
        pmf = pool_pmf(pool)
        keep = np.flatnonzero(pmf >= TINY)
        pmf = np.where(pmf >= TINY, pmf, 0.0)[: keep[-1] + 1]
        pmfs.append(pmf / pmf.sum())
    width = np.array([len(p) for p in pmfs], dtype=np.int64)
    offset = np.zeros(len(pmfs), dtype=np.int64)
    offset[1:] = np.cumsum(width)[:-1]
    return np.concatenate(pmfs), offset, width


# ----------------------------------------------------------------------------------------
# Alias tables (Vose), built in compiled code
# ----------------------------------------------------------------------------------------
@njit(cache=True)
def _vose(pmf, K, prob, alias, o):
    """Vose's alias table of pmf[0:K] into prob[o:o+K], alias[o:o+K] (alias as local indices)."""
    total = 0.0
    for j in range(K):
        total += pmf[j]
    scaled = np.empty(K)
    small = np.empty(K, dtype=np.int64)
    large = np.empty(K, dtype=np.int64)
    ns = 0
    nl = 0
    for j in range(K):
        scaled[j] = pmf[j] / total * K
        prob[o + j] = 1.0
        alias[o + j] = j
        if scaled[j] < 1.0:
            small[ns] = j
            ns += 1
        else:
            large[nl] = j
            nl += 1
    while ns > 0 and nl > 0:
        ns -= 1
        nl -= 1
        sm = small[ns]
        lg = large[nl]
        prob[o + sm] = scaled[sm]
        alias[o + sm] = lg
        scaled[lg] = scaled[lg] + scaled[sm] - 1.0
        if scaled[lg] < 1.0:
            small[ns] = lg
            ns += 1
        else:
            large[nl] = lg
            nl += 1


@njit(cache=True)
def _side_tables(pmf, offset, width, prob, alias):
    """Per-state alias tables of one side's hits (the general kernel)."""
    for s in range(len(offset)):
        _vose(pmf[offset[s]:offset[s] + width[s]], width[s], prob, alias, offset[s])


def round_bound(A: SideChain, D: SideChain) -> int:
    """An upper bound of the entries of the round tables: per pair state, the hits each side can score in a
    round (first strike + other attacks), capped at what the other side can take."""
    la, ld = A.S - 1, D.S - 1
    ka = np.minimum((A.fs[2] + A.main[2] - 1)[:, None], ld - np.arange(D.S)[None, :] + 1)
    kd = np.minimum((D.fs[2] + D.main[2] - 1)[None, :], la - np.arange(A.S)[:, None] + 1)
    k = ka * kd
    k[~(A.alive[:, None] & D.alive[None, :])] = 1
    return int(k.sum())


@njit(cache=True)
def _capped(pmf, off, w, cap):
    """The pmf of a side's hits, capped at `cap` hits (the mass beyond folded into the cap)."""
    k = min(w, cap + 1)
    out = np.zeros(k)
    for h in range(w):
        out[min(h, k - 1)] += pmf[off + h]
    return out


@njit(cache=True)
def _round_dist(a, d, SA, SD, alive_a, alive_d, a_fs, a_fs_off, a_fs_w, a_m, a_m_off, a_m_w,
                d_fs, d_fs_off, d_fs_w, d_m, d_m_off, d_m_w):
    """P(pair state after one round | a, d) on the rectangle [a, SA) x [d, SD), flattened row by row:
    1. both sides' first strikers fire at once, 2.–3. then both sides' other dice (a side wiped out in
    step 1 rolls nothing more and cannot be hit more)."""
    la = SA - 1
    ld = SD - 1
    W = SD - d
    R = np.zeros((SA - a) * W)
    fa = _capped(a_fs, a_fs_off[a], a_fs_w[a], ld - d)        # hits by A's first strikers, on D
    fd = _capped(d_fs, d_fs_off[d], d_fs_w[d], la - a)
    for i in range(len(fa)):
        for k in range(len(fd)):
            w = fa[i] * fd[k]
            if w == 0.0:
                continue
            qa = a + k
            qd = d + i
            if not (alive_a[qa] and alive_d[qd]):
                R[(qa - a) * W + (qd - d)] += w
                continue
            ma = _capped(a_m, a_m_off[qa], a_m_w[qa], ld - qd)
            md = _capped(d_m, d_m_off[qd], d_m_w[qd], la - qa)
            for i2 in range(len(ma)):
                for k2 in range(len(md)):
                    R[(qa + k2 - a) * W + (qd + i2 - d)] += w * ma[i2] * md[k2]
    return R


@njit(cache=True)
def _round_tables(SA, SD, alive_a, alive_d, a_fs, a_fs_off, a_fs_w, a_m, a_m_off, a_m_w,
                  d_fs, d_fs_off, d_fs_w, d_m, d_m_off, d_m_w, count_only, offsets, prob, keep_next, alias_next):
    """Per pair state, the alias table of the pair state after one whole round (count_only: fill `offsets`
    with the number of entries of each state instead)."""
    for a in range(SA):
        for d in range(SD):
            p = a * SD + d
            if not (alive_a[a] and alive_d[d]):        # the battle is over: a table of one entry, itself
                if count_only:
                    offsets[p] = 1
                else:
                    o = offsets[p]
                    prob[o] = 1.0
                    keep_next[o] = p
                    alias_next[o] = p
                continue
            R = _round_dist(a, d, SA, SD, alive_a, alive_d, a_fs, a_fs_off, a_fs_w, a_m, a_m_off, a_m_w,
                            d_fs, d_fs_off, d_fs_w, d_m, d_m_off, d_m_w)
            nz = np.flatnonzero(R)
            if count_only:
                offsets[p] = len(nz)
                continue
            K = len(nz)
            W = SD - d
            local = np.empty(K)
            alias = np.empty(K, dtype=np.int64)
            _vose(R[nz], K, local, alias, 0)
            o = offsets[p]
            for j in range(K):
                prob[o + j] = local[j]
                keep_next[o + j] = (a + nz[j] // W) * SD + d + nz[j] % W
                m = nz[alias[j]]
                alias_next[o + j] = (a + m // W) * SD + d + m % W


# ----------------------------------------------------------------------------------------
# The compiled battle loops
# ----------------------------------------------------------------------------------------
@njit(cache=True)
def _play_pairs(seeds, n, chunk, round0, prob, keep, alias, off, width,
                end, stay, after_rounds, dense, hist, codes, rounds_hist, max_rounds):
    """n battles on pair states, one draw per round from the pair's round table. end[p]: the outcome if
    the battle is over at p, else -1; stay[p]: no stationary retreat trigger at p. Returns 0, or -1 if
    a battle outlasts max_rounds."""
    done = 0
    for c in range(len(seeds)):
        np.random.seed(seeds[c])
        m = min(chunk, n - done)
        for b in range(m):
            p = 0
            r = round0
            while True:
                r += 1
                if r - round0 > max_rounds:
                    return -1
                K = width[p]                       # steps 1-3: the round's first strike, other attacks, damage
                if K > 1:
                    y = np.uint64(np.random.randint(0, TWO32)) * np.uint64(K)
                    o = off[p] + np.int64(y >> SHIFT)
                    p = keep[o] if (y & LOW32) * INV32 < prob[o] else alias[o]
                else:                              # one possible end of the round: no draw
                    p = keep[off[p]]
                outcome = end[p]
                if outcome < 0:                    # 4. both stand: the attacker presses on or retreats
                    if stay[p] and (after_rounds < 0 or r < after_rounds):
                        continue
                    outcome = RETREAT
                if dense:                          # 5. the result
                    hist[p * 4 + outcome] += 1
                else:
                    codes[done + b] = p * 4 + outcome
                rounds_hist[r - round0] += 1
                break
        done += m
    return 0


@njit(cache=True)
def _draw(prob, alias, o, K):
    """One draw from the alias table at prob[o:o+K], alias[o:o+K] (alias: local indices)."""
    if K == 1:
        return 0
    y = np.uint64(np.random.randint(0, TWO32)) * np.uint64(K)
    j = np.int64(y >> SHIFT)
    if (y & LOW32) * INV32 < prob[o + j]:
        return j
    return alias[o + j]


@njit(cache=True)
def _play_sides(seeds, n, chunk, round0, has_fs,
                a_fs_p, a_fs_al, a_fs_o, a_fs_k, a_p, a_al, a_o, a_k,
                d_fs_p, d_fs_al, d_fs_o, d_fs_k, d_p, d_al, d_o, d_k,
                end, stay, after_rounds, dense, hist, codes, rounds_hist, max_rounds):
    """The general loop (battles too large for pair tables): per step one draw of each side's hits."""
    SD = len(d_o)
    last_a = len(a_o) - 1
    last_d = SD - 1
    done = 0
    for c in range(len(seeds)):
        np.random.seed(seeds[c])
        m = min(chunk, n - done)
        for b in range(m):
            ha = 0
            hd = 0
            r = round0
            while True:
                r += 1
                if r - round0 > max_rounds:
                    return -1
                if has_fs:
                    xa = _draw(a_fs_p, a_fs_al, a_fs_o[ha], a_fs_k[ha])   # both sides roll together ...
                    xd = _draw(d_fs_p, d_fs_al, d_fs_o[hd], d_fs_k[hd])
                    ha = min(ha + xd, last_a)                             # ... then take their hits
                    hd = min(hd + xa, last_d)
                xa = _draw(a_p, a_al, a_o[ha], a_k[ha])
                xd = _draw(d_p, d_al, d_o[hd], d_k[hd])
                ha = min(ha + xd, last_a)
                hd = min(hd + xa, last_d)
                p = ha * SD + hd
                outcome = end[p]
                if outcome < 0:
                    if stay[p] and (after_rounds < 0 or r < after_rounds):
                        continue
                    outcome = RETREAT
                if dense:
                    hist[p * 4 + outcome] += 1
                else:
                    codes[done + b] = p * 4 + outcome
                rounds_hist[r - round0] += 1
                break
        done += m
    return 0


# ----------------------------------------------------------------------------------------
# Entry point (called by monte_carlo.simulate for engine="kernel")
# ----------------------------------------------------------------------------------------
def chunk_seeds(seed: int, n: int, chunk: int = CHUNK) -> np.ndarray:
    """The numba generator's seed for each chunk: the first word of SeedSequence(seed, spawn_key=(i,))."""
    k = -(-n // chunk)
    return np.array([np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, dtype=np.uint32)[0]
                     for i in range(k)], dtype=np.uint32)


def round_tables(A: SideChain, D: SideChain):
    """(prob, keep_next, alias_next, offset, width): every pair state's alias table of the next round."""
    args = (A.S, D.S, A.alive, D.alive, *A.fs, *A.main, *D.fs, *D.main)
    widths = np.zeros(A.S * D.S, dtype=np.int64)
    _round_tables(*args, True, widths, np.zeros(0), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32))
    offsets = np.zeros(len(widths), dtype=np.int64)
    offsets[1:] = np.cumsum(widths)[:-1]
    total = int(widths.sum())
    prob = np.ones(total)
    keep = np.zeros(total, dtype=np.int32)
    alias = np.zeros(total, dtype=np.int32)
    _round_tables(*args, False, offsets, prob, keep, alias)
    return prob, keep, alias, offsets, widths


def _side_step(side: SideChain, step: int):
    pmf, offset, width = side.fs if step == 0 else side.main
    prob = np.ones(len(pmf))
    alias = np.zeros(len(pmf), dtype=np.int64)
    _side_tables(pmf, offset, width, prob, alias)
    return prob, alias, offset, width


def simulate_kernel(state: BattleState, rules: BattleRules, plans, retreat: Retreat, n: int, seed: int,
                    chunk: int = CHUNK, pairs: bool | None = None):
    """(outcome, attacker survivors, defender survivors, counts, rounds histogram) of n battles from `state`,
    one row per distinct end (what `monte_carlo._table` takes). pairs: True = the pair-state loop, False =
    the general loop, None = pair states when their tables hold at most MAX_PAIR_ENTRIES entries."""
    sa, sd = state.situation("attacker", rules), state.situation("defender", rules)
    A = SideChain(state.attacker, plans[0], sa, rules)
    D = SideChain(state.defender, plans[1], sd, rules)
    both = A.alive[:, None] & D.alive[None, :]
    end = np.where(both, -1, np.where(A.alive[:, None], ATTACKER_WINS,
                                      np.where(D.alive[None, :], DEFENDER_HOLDS, DRAW))).astype(np.int64).reshape(-1)
    stay = np.ones((A.S, D.S), dtype=np.bool_)
    if retreat.at_units is not None:
        stay &= (A.size > retreat.at_units)[:, None]
    if retreat.below_win_chance is not None:
        chain = build_chain(state, rules, plans)      # the same chains: win[a, d] is the pair (a, d)
        stay &= ~(win_chances(chain).reshape(chain.shape) < retreat.below_win_chance)
    stay = stay.reshape(-1)
    has_fs = A.has_first_strike or D.has_first_strike
    n_codes = 4 * A.S * D.S
    dense = n_codes <= DENSE_CODES
    hist = np.zeros(n_codes if dense else 0, dtype=np.int64)
    codes = np.zeros(0 if dense else n, dtype=np.int64)
    rounds_hist = np.zeros(MAX_ROUNDS + 2, dtype=np.int64)
    after = -1 if retreat.after_rounds is None else retreat.after_rounds
    seeds = chunk_seeds(seed, n, chunk)
    if pairs is None:
        pairs = round_bound(A, D) <= MAX_PAIR_ENTRIES
    if pairs:
        status = _play_pairs(seeds, n, chunk, state.round, *round_tables(A, D),
                             end, stay, after, dense, hist, codes, rounds_hist, MAX_ROUNDS)
    else:
        status = _play_sides(seeds, n, chunk, state.round, has_fs, *_side_step(A, 0), *_side_step(A, 1),
                             *_side_step(D, 0), *_side_step(D, 1),
                             end, stay, after, dense, hist, codes, rounds_hist, MAX_ROUNDS)
    if status != 0:
        raise RuntimeError(f"battles still undecided after {MAX_ROUNDS} rounds")
    if dense:
        uniq = np.flatnonzero(hist)
        counts = hist[uniq]
    else:
        uniq, counts = np.unique(codes, return_counts=True)
    outcome = (uniq % 4).astype(np.int8)
    ha, hd = (uniq // 4) // D.S, (uniq // 4) % D.S
    capt = np.array([rules.units[x].captured for x in rules.units.names])
    att = A.present[ha] * A.alive[ha][:, None]
    dfd = D.present[hd].copy()
    dfd[~D.alive[hd]] *= capt               # a wiped-out defender holds only its castles
    last = int(np.flatnonzero(rounds_hist).max()) + 1
    return outcome, att, dfd, counts.astype(float), rounds_hist[:last]
