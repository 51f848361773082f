"""The compiled policies and whole-game loop of the Nightmarium batch kernel (numba).

`nightsim/kernel/core.py` holds the state layout and the rules (legal actions, applying an
action, advancing); this module the policies (`RandomPolicy`, `HeuristicPolicy` scores) and the
loop that plays whole games of a batch. `nightsim/kernel/play_batch.py` is the Python side.
"""
from __future__ import annotations

import numpy as np

from simcore.kernel_cache import njit
from simcore.stream_kernel import below, shuffle

from .cache import INLINE  # (also registers the numba cache locator before any @njit)
from .core import (
    apply_action,
    legal_actions,
)
from .draw import (
    complete_count,
    seed_streams,
)
from .layout import (
    A_DCARD,
    A_DEVOUR,
    A_DRAW,
    A_KIND,
    A_PEN,
    A_PLAY,
    A_SCAV,
    A_START,
    A_STOP,
    A_TAKE,
    A_X,
    A_Y,
    A_Z,
    ABILITY,
    AMAX,
    CR_CARDS,
    CRC,
    CRLEN,
    CRN,
    DECK,
    DEVOURER,
    EXECUTIONER,
    FITS,
    G_AL,
    G_CP,
    G_DEC,
    G_DECK_N,
    G_FR_N,
    G_PICK_N,
    G_SIZE,
    G_TERM,
    G_TIMEOUT,
    G_TL,
    G_TURNS,
    G_WINNER,
    HAND,
    HAND_N,
    LEGION,
    LEGS,
    LM,
    MAX_DRAW,
    MOCKER,
    N_STATS,
    N_WEIGHTS,
    NCM,
    OUT_DECISIONS,
    OUT_TIMED_OUT,
    OUT_TURNS,
    OUT_WINNER,
    P_APT,
    P_CARDS,
    P_EXTRA_LAST,
    P_FEWER_FIRST,
    P_FEWER_SEATS,
    P_HAND,
    P_LIMIT,
    P_PLAYERS,
    P_TO_WIN,
    PM,
    POL_RANDOM,
    PRM,
    RS_CHANCE,
    RS_SEAT,
    SCAVENGER,
    ST_SIZE,
    STATS,
    TORSO,
    W_ABIL,
    W_COMPLETE,
    W_CROWD,
    W_DEVOUR_CTX,
    W_DISCARD,
    W_DISCARD_DEAD,
    W_DISCARD_EXTRA,
    W_DISCARD_VALUE,
    W_DRAW,
    W_DRAW_HAND,
    W_EXEC_CTX,
    W_EXTEND,
    W_EXTRAS,
    W_FIT_VALUE,
    W_FOLLOW,
    W_LEADER,
    W_MIXED,
    W_MOCKER_CTX,
    W_PAIR,
    W_PURE,
    W_SAME,
    W_SCAV_CTX,
    W_START,
    W_THREAT,
    W_WIN,
)


# ============================================================================ policies
@njit(cache=True, _nrt=False, inline=INLINE)
def _fits_now(st, tb, q, card):
    """Whether `card` fits an open slot of one of seat q's creatures, or starts one (limit aside)."""
    for k in range(st[CRN + q]):
        m = st[CRLEN + q * LM + k]
        if m < CR_CARDS and tb[FITS + card * CR_CARDS + m]:
            return True
    return tb[FITS + card * CR_CARDS + LEGS] != 0


@njit(cache=True, _nrt=False, inline=INLINE)
def _card_value(st, tb, q, card, w):
    """HeuristicPolicy: a card's ability value, + fit_value (1 in greedy) if it fits one of seat q's
    creatures or starts one."""
    ab = tb[ABILITY + card]
    v = w[W_ABIL + ab] if ab >= 0 else 0.0
    if _fits_now(st, tb, q, card):
        v += w[W_FIT_VALUE]
    return v


@njit(cache=True, _nrt=False, inline=INLINE)
def _playable_after(st, tb, q, card, y, after):
    """Whether `card` can be placed once seat q's creature y (-1: a new one) holds `after` cards."""
    n = st[CRN + q]
    for k in range(n):
        m = after if k == y else st[CRLEN + q * LM + k]
        if m < CR_CARDS and tb[FITS + card * CR_CARDS + m]:
            return True
    if y < 0:
        if after < CR_CARDS and tb[FITS + card * CR_CARDS + after]:
            return True
        n += 1
    return tb[FITS + card * CR_CARDS + LEGS] != 0 and n < tb[PRM + P_LIMIT]


@njit(cache=True, _nrt=False)
def play_extras(st, tb, q, x, y, w):
    """What the context features (Weights.win ... pair) add to placing card x on seat q's creature y
    (-1: a new one): policies:_Context.play_extras, the same arithmetic in the same order."""
    after = 1 if y < 0 else st[CRLEN + q * LM + y] + 1
    hn = st[HAND_N + q]
    ex = 0.0
    if after == CR_CARDS:
        mine = complete_count(st, q)
        if mine + 1 >= tb[PRM + P_TO_WIN]:
            ex += w[W_WIN]
        for j in range(CR_CARDS):
            c = st[CRC + (q * LM + y) * CR_CARDS + j] if j < CR_CARDS - 1 else x
            ab = tb[ABILITY + c]
            if ab == MOCKER:
                live = 0.0
                for i in range(hn):
                    h = st[HAND + q * NCM + i]
                    if h != x and _playable_after(st, tb, q, h, y, after):
                        live = 1.0
                        break
                ex += w[W_MOCKER_CTX] * live
            elif ab == EXECUTIONER:
                most = 0
                for o in range(tb[PRM + P_PLAYERS]):
                    if o != q:
                        most = max(most, complete_count(st, o))
                ex += w[W_EXEC_CTX] * most
            elif ab == SCAVENGER:
                big = 0
                for o in range(tb[PRM + P_PLAYERS]):
                    if o != q:
                        for k in range(st[CRN + o]):
                            m = st[CRLEN + o * LM + k]
                            if m < CR_CARDS:
                                big = max(big, m)
                ex += w[W_SCAV_CTX] * big
            elif ab == DEVOURER:
                cost = -1
                for k in range(st[CRN + q]):
                    if k != y:
                        m = st[CRLEN + q * LM + k]
                        m = m + 5 if m == CR_CARDS else m
                        cost = m if cost < 0 else min(cost, m)
                ex += w[W_DEVOUR_CTX] * max(cost, 0)
    else:
        for i in range(hn):
            h = st[HAND + q * NCM + i]
            if h != x and tb[FITS + h * CR_CARDS + after]:
                ex += w[W_FOLLOW]
                break
        if y < 0:
            open_ = 0
            for k in range(st[CRN + q]):
                if st[CRLEN + q * LM + k] < CR_CARDS:
                    open_ += 1
            ex += w[W_CROWD] * open_
    if st[G_FR_N] == 0 and st[G_AL] >= 2:
        lg = tb[LEGION + x]
        for i in range(hn):
            h = st[HAND + q * NCM + i]
            if h != x and tb[LEGION + h] == lg and _playable_after(st, tb, q, h, y, after):
                ex += w[W_PAIR]
                break
    return ex


@njit(cache=True, _nrt=False, inline=INLINE)
def score_action(st, tb, rs, acts, i, q, w):
    """HeuristicPolicy's score of action acts[i] for the deciding seat q (policies:_Context.score)."""
    kind = acts[i, A_KIND]
    x = acts[i, A_X]
    y = acts[i, A_Y]
    if kind == A_PLAY:
        if y < 0:
            return w[W_START] + play_extras(st, tb, q, x, y, w) if w[W_EXTRAS] != 0.0 else w[W_START]
        lg = tb[LEGION + x]
        m = st[CRLEN + q * LM + y]
        cr = CRC + (q * LM + y) * CR_CARDS   # m is 1 or 2 (an open creature): no loop, no branch
        same = (1 if tb[LEGION + st[cr + LEGS]] == lg else 0) + (
            1 if m > 1 and tb[LEGION + st[cr + TORSO]] == lg else 0)
        sc = w[W_SAME] * same + w[W_MIXED] * (m - same)
        if m == CR_CARDS - 1:
            total = 0.0
            for j in range(CR_CARDS):
                c = st[cr + j] if j < CR_CARDS - 1 else x
                ab = tb[ABILITY + c]   # an unconditional load and a select (total is never -0.0)
                total = total + (w[W_ABIL + max(ab, 0)] if ab >= 0 else 0.0)
            sc += w[W_COMPLETE] + total
            if same == CR_CARDS - 1:
                sc += w[W_PURE]
        else:
            sc = sc + w[W_EXTEND]
        return sc + play_extras(st, tb, q, x, y, w) if w[W_EXTRAS] != 0.0 else sc
    if kind == A_DRAW:
        return w[W_DRAW] + w[W_DRAW_HAND] * st[HAND_N + q] if w[W_EXTRAS] != 0.0 else w[W_DRAW]
    if kind == A_START:
        if w[W_EXTRAS] == 0.0:
            return w[W_DISCARD]
        dead = 0
        for i in range(st[HAND_N + q]):
            if not _fits_now(st, tb, q, st[HAND + q * NCM + i]):
                dead += 1
        return w[W_DISCARD] + w[W_DISCARD_DEAD] * dead
    if kind == A_DCARD:
        return (1.0 if st[G_PICK_N] < 2 else w[W_DISCARD_EXTRA]) - w[W_DISCARD_VALUE] * _card_value(st, tb, q, x, w)
    if kind == A_STOP:
        return 0.0
    if kind == A_PEN:
        return -_card_value(st, tb, q, x, w)
    if kind == A_TAKE or kind == A_SCAV:
        m = st[CRLEN + x * LM + y]
        bonus = 2.0 if kind == A_TAKE and m == CR_CARDS else 0.0
        done = acts[i, A_Z]   # complete_count(st, x), listed once per owner by legal_actions
        sc = w[W_LEADER] * done + m + bonus
        if w[W_EXTRAS] == 0.0:
            return sc
        near = 1.0 if done >= tb[PRM + P_TO_WIN] - 1 else 0.0
        return sc + w[W_THREAT] * near
    if kind == A_DEVOUR:
        m = st[CRLEN + q * LM + x]
        return -m - (5.0 if m == 3 else 0.0)
    return 0.0  # A_DECLINE


@njit(cache=True, _nrt=False, inline=INLINE)
def choose(st, tb, rs, acts, n, q, pol_kind, w, ties):
    """Index of the action seat q's policy picks (RandomPolicy / HeuristicPolicy semantics)."""
    if pol_kind == POL_RANDOM:
        if n > MAX_DRAW:   # beyond Stream.below's range, where the Python engine raises too
            raise RuntimeError("nightsim kernel: more legal actions than a random stream draws among")
        return below(rs, RS_SEAT + q, n)   # RandomPolicy: legal[rng.integers(len(legal))]
    if n == 1:
        return 0
    best = score_action(st, tb, rs, acts, 0, q, w)
    ties[0] = 0
    nt = 1
    for i in range(1, n):
        # branch-free: i goes to ties[0] (a new best) or ties[nt], kept (nt advances) on a tie;
        # a lower score's write is overwritten later (mispredicted branches cost more than this)
        sc = score_action(st, tb, rs, acts, i, q, w)
        gt = sc > best
        ties[0 if gt else nt] = i
        nt = 1 if gt else nt + (1 if sc == best else 0)
        best = sc if gt else best
    if nt == 1:
        return ties[0]
    if nt > MAX_DRAW:
        raise RuntimeError("nightsim kernel: more tied actions than a random stream draws among")
    return ties[below(rs, RS_SEAT + q, nt)]   # HeuristicPolicy: the tied, rng.integers(len(tied))


# ============================================================================ whole games
@njit(cache=True, _nrt=False)
def new_game(st, tb, rs, seed):
    """Shuffle, deal `hand_size` to each seat (plus the last seat's extra cards), seat 0 starts."""
    seed_streams(rs, seed)
    nc = tb[PRM + P_CARDS]
    n = tb[PRM + P_PLAYERS]
    for i in range(G_SIZE):
        st[i] = 0
    for i in range(nc):
        st[DECK + i] = i
    shuffle(st, DECK, nc, rs, RS_CHANCE)   # state.new_game: chance.permutation(cards), Fisher-Yates
    st[G_DECK_N] = nc
    for p in range(n):
        st[CRN + p] = 0
        for k in range(tb[PRM + P_HAND]):
            st[G_DECK_N] -= 1
            st[HAND + p * NCM + k] = st[DECK + st[G_DECK_N]]
        st[HAND_N + p] = tb[PRM + P_HAND]
    for _ in range(tb[PRM + P_EXTRA_LAST]):
        st[G_DECK_N] -= 1
        st[HAND + (n - 1) * NCM + st[HAND_N + n - 1]] = st[DECK + st[G_DECK_N]]
        st[HAND_N + n - 1] += 1
    for p in range(n):
        for j in range(N_STATS):
            st[STATS + p * N_STATS + j] = 0
    st[G_AL] = tb[PRM + P_APT] - tb[PRM + P_FEWER_FIRST]     # design variant: a reduced first turn
    if tb[PRM + P_FEWER_SEATS] > 0:                           # design variant: a reduced first round
        st[G_AL] -= 1
    st[G_TL] = -1
    st[G_WINNER] = -1


@njit(cache=True, _nrt=False)
def play_out(st, tb, rs, seat_kind, seat_w, acts, ties):
    """Play the game in st to its end with one policy per seat."""
    while not st[G_TERM]:
        q = st[G_CP]
        n = legal_actions(st, tb, rs, acts)
        i = choose(st, tb, rs, acts, n, q, seat_kind[q], seat_w[q], ties)
        apply_action(st, tb, rs, acts, i)


def new_buffers():
    """(st, rs, acts, ties): a fresh state, random streams and room for any decision's legal actions."""
    return (np.zeros(ST_SIZE, np.int64), np.zeros(RS_SEAT + PM, np.uint64), np.zeros((AMAX, A_Z + 1), np.int64),
            np.zeros(AMAX, np.int64))


@njit(cache=True, _nrt=False)
def play_games(st, tb, rs, acts, ties, seat_kind, seat_w, seeds, pol_kind, pol_w, seat_pol, out_game, out_score,
               out_stats):
    """Play one game per seed; seat_pol[i, seat] indexes the policy tables (pol_kind, pol_w);
    seat_kind int64[P] and seat_w float64[P, N_WEIGHTS] are scratch (nothing is allocated in the
    kernel: every function is compiled without reference counting, `_nrt=False`, which made
    calls three times cheaper).

    out_game[i] = (winner or -1, turns played, decisions, timed_out); out_score[i, seat] =
    complete creatures at the end; out_stats[i, seat, :] = the stats in record order.
    """
    n = tb[PRM + P_PLAYERS]
    for i in range(seeds.shape[0]):
        for p in range(n):
            seat_kind[p] = pol_kind[seat_pol[i, p]]
            for j in range(N_WEIGHTS):
                seat_w[p, j] = pol_w[seat_pol[i, p], j]
        new_game(st, tb, rs, seeds[i])
        play_out(st, tb, rs, seat_kind, seat_w, acts, ties)
        won = st[G_WINNER] >= 0
        out_game[i, OUT_WINNER] = st[G_WINNER]
        out_game[i, OUT_TURNS] = st[G_TURNS] + (1 if won else 0)
        out_game[i, OUT_DECISIONS] = st[G_DEC]
        out_game[i, OUT_TIMED_OUT] = st[G_TIMEOUT]
        for p in range(n):
            out_score[i, p] = complete_count(st, p)
            for j in range(N_STATS):
                out_stats[i, p, j] = st[STATS + p * N_STATS + j]
