"""Midnighters batch kernel, part 7: the heuristic's choice (`HeuristicPolicy.__call__` compiled)
and the game loop in which each seat plays its own policy (the built-in random one or a
heuristic with its weight row), many games per call.

A lineup is a row of `rows` (seat -> policy row); policy row r is `kinds[r]` (POL_RANDOM or
POL_HEURISTIC) with weights `WT[r]` (heur_board's W_* layout). The random seats choose as
in `play.run`; all draws come from the game's one SplitMix64 stream.

Functions called from one place only are `inline="always"` (compile time: cache.py).
"""
from __future__ import annotations

import numpy as np

from simcore.stream_kernel import below, seed_streams

from . import layout as K
from .cache import njit  # (also registers the numba cache locator before any @njit)
from .core import top
from .heur import (
    X_ACTOR,
    X_BGEN,
    X_BOARD,
    X_F,
    X_FK,
    X_HAND,
    X_HAVE_BASE,
    X_HORROR,
    X_KEY,
    X_ME,
    X_N,
    X_REM,
    X_SIZE,
    X_WHERE,
    XF_CS,
    XF_GEN,
    XF_NEED,
    XF_SIGN,
    XF_SIZE,
    card_sum,
    profile,
    stuck,
)
from .heur_board import (
    B_SIZE,
    BD_NOW,
    BD_ROWS,
    W_NEED_STAR,
    W_NEED_VERTIGO,
    W_NEED_WALK,
    board_is,
    board_load,
)
from .heur_score import score
from .play import apply, auto, deal, finish, legal, record_game

POL_RANDOM, POL_HEURISTIC = 0, 1


@njit(cache=True, error_model="numpy")
def new_buffers():
    """The heuristic's workspaces: boards BD, facts X and XF, the tied best actions and the scores."""
    return (np.zeros((BD_ROWS, B_SIZE), dtype=np.int64), np.zeros(X_SIZE, dtype=np.int64),
            np.zeros(XF_SIZE, dtype=np.float64), np.zeros(K.ACTS_CAP, dtype=np.int64),
            np.zeros(K.ACTS_CAP, dtype=np.float64))


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def facts(M, BD, W, X, XF, f, fk):
    """_Facts.__init__ for the decision at frame f (kind fk), its seat in M[G_CUR]."""
    me = M[K.G_CUR]
    ctrl = M[K.G_CTRL]
    actor = me
    if ctrl == me and ctrl >= 0 and not (fk == K.F_REACT or fk == K.F_STARTRAP or fk == K.F_TRAPS
                                         or fk == K.F_NIGHT):  # observation._acting_for (out-of-turn windows)
        actor = M[f + K.FR_SEAT] if fk == K.F_SURPLUS else M[K.G_TP]
    X[X_ME] = me
    X[X_ACTOR] = actor
    X[X_HORROR] = M[K.G_HORROR]
    X[X_N] = M[K.G_N]
    X[X_FK] = fk
    X[X_F] = f
    X[X_REM] = 0 if M[K.G_TP] != actor else M[K.G_AL] - (1 if fk == K.F_TURN else 0)
    X[X_HAVE_BASE] = 0
    # the board now: row BD_NOW and the plan-cost memo are kept from the last decision when the
    # board is the same (its distances and plan costs are pure functions of the board, as in the
    # Python heuristic's per-board memo); the memo also depends on the seat's need weights
    same = X[X_BOARD] == 1 and board_is(M, BD, BD_NOW)
    if not same or XF[XF_NEED] != W[W_NEED_WALK] or XF[XF_NEED + 1] != W[W_NEED_STAR] \
            or XF[XF_NEED + 2] != W[W_NEED_VERTIGO]:
        XF[XF_GEN] += 1
        XF[XF_NEED] = W[W_NEED_WALK]
        XF[XF_NEED + 1] = W[W_NEED_STAR]
        XF[XF_NEED + 2] = W[W_NEED_VERTIGO]
    if not same:
        board_load(M, BD, BD_NOW)
        X[X_BOARD] = 1
        X[X_BGEN] += 1  # the Vertigo boards of the last one are stale
    for k in range(K.N_KINDS):
        X[X_HAND + k] = M[K.O_HAND + actor * K.N_KINDS + k]
    for q in range(K.MAX_SEATS):
        X[X_WHERE + q] = M[K.O_WHERE + q]
    XF[XF_SIGN] = 1.0 if actor == me else -1.0  # a captured rival's progress is bad for me
    key = profile(M, X, X_HAND, 0, False)
    for i in range(11):
        X[X_KEY + i] = key[i]
    XF[XF_CS] = card_sum(W, X, X_HAND)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def is_cycle(code):
    """policies.scoring._CYCLES: turn actions that play a card from the hand (a way to dig)."""
    return (code == K.A_WALK or code == K.A_VERT or code == K.A_STAR or code == K.A_SETTRAP or code == K.A_DEXTRA
            or code == K.A_DREDUCE or code == K.A_STEAL)


@njit(cache=True, error_model="numpy", _nrt=False)
def scores(M, BD, W, X, XF, f, fk, n, out):
    """Every legal action's score into out[:n]; the index the heuristic must play whatever the
    tie-break (the dig of a stuck plan), else -1. Needs n >= 2."""
    facts(M, BD, W, X, XF, f, fk)
    react = M[K.O_ACTS + K.ACTS_W * (n - 1) + K.AC_CODE] == K.A_ALLOW
    best_i = -1
    best_s = 0.0
    dig, dig_s, cyc, cyc_s = -1, 0.0, -1, 0.0
    for i in range(n):
        base = K.O_ACTS + K.ACTS_W * i
        code = M[base + K.AC_CODE]
        sc = score(M, BD, W, X, XF, code, M[base + K.AC_A], M[base + K.AC_B])
        out[i] = sc
        if best_i < 0 or sc > best_s:
            best_i, best_s = i, sc
        if code == K.A_DISCARD:
            if dig < 0 or sc > dig_s:
                dig, dig_s = i, sc
        elif is_cycle(code) and (cyc < 0 or sc > cyc_s):
            cyc, cyc_s = i, sc
    if dig < 0:
        dig = cyc
    if dig >= 0 and not react and M[K.O_ACTS + K.ACTS_W * best_i + K.AC_CODE] == K.A_PASS and stuck(M, BD, W, X, XF):
        # passing never changes a hand: a plan that lacks cards digs for them instead
        return dig
    return -1


@njit(cache=True, error_model="numpy", inline="always")
def choose(M, rs, BD, W, X, XF, best, sc, f, fk, n):
    """HeuristicPolicy.__call__: the best-scoring legal action, ties broken uniformly at random."""
    if n == 1:
        return 0
    forced = scores(M, BD, W, X, XF, f, fk, n, sc)
    if forced >= 0:
        return forced
    top_s = sc[0]
    for i in range(1, n):
        if sc[i] > top_s:
            top_s = sc[i]
    m = 0
    for i in range(n):
        if sc[i] == top_s:
            best[m] = i
            m += 1
    return best[0] if m == 1 else best[below(rs, 1 + M[K.G_CUR], m)]  # the seat's stream, as HeuristicPolicy


@njit(cache=True, error_model="numpy", inline="always")
def run_policies(M, rs, BD, X, XF, best, sc, kinds, WT, rows, max_decisions):
    """play.run with seat q playing policy row rows[q]."""
    while not M[K.G_TERM]:
        f = top(M)
        k = M[f + K.FR_KIND]
        if k >= K.F_NEXT:
            auto(M, rs, f, k)
            continue
        n = legal(M, f, k)
        if n == 0:
            finish(M, rs, f, k)
            continue
        M[K.G_CUR] = M[f + K.FR_DEC]
        if max_decisions == 0:
            return
        max_decisions -= 1
        r = rows[M[K.G_CUR]]
        if kinds[r] == POL_HEURISTIC:
            i = choose(M, rs, BD, WT[r], X, XF, best, sc, f, k, n)
        else:
            i = below(rs, 1 + M[K.G_CUR], n)  # RandomPolicy: one draw from the seat's stream
        base = K.O_ACTS + K.ACTS_W * i
        M[K.G_DECS] += 1
        apply(M, rs, f, k, M[base + K.AC_CODE], M[base + K.AC_A], M[base + K.AC_B])


@njit(cache=True, error_model="numpy", python_calls=True)
def play_games_policies(M, seeds, kinds, WT, lineups, out_game, out_seat):
    """play.play_games with game g's seats playing policy rows lineups[g]."""
    rs = np.zeros(1 + K.MAX_SEATS, dtype=np.uint64)
    BD, X, XF, best, sc = new_buffers()
    for g in range(len(seeds)):
        seed_streams(rs, seeds[g])
        deal(M, rs)
        run_policies(M, rs, BD, X, XF, best, sc, kinds, WT, lineups[g], -1)
        record_game(M, g, out_game, out_seat)


@njit(cache=True, error_model="numpy", python_calls=True)
def heur_scores_top(M, W, out):
    """Tests: the scores of the legal actions of the decision on top (into the buffer and out);
    (their number, the forced index or -1)."""
    BD, X, XF, _, _ = new_buffers()
    f = top(M)
    k = M[f + K.FR_KIND]
    n = legal(M, f, k)
    M[K.G_CUR] = M[f + K.FR_DEC]
    if n < 2:
        return n, -1
    return n, scores(M, BD, W, X, XF, f, k, n, out)
