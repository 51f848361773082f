"""Midnighters batch kernel, part 1b: a turn of the automatic rules — its start (turn cap, nightmares
entering, actions, sleep paralysis), its end, playing a card and resolving it, and a location's
activation. Each function names its counterpart in `engine/turn.py`; the helpers (PRNG, stack,
cards, refill, nightmares) are `core`'s.
"""
from __future__ import annotations

from ..engine import cards as C
from . import layout as K
from .cache import INLINE, njit  # (also registers the numba cache locator before any @njit)
from .core import (
    apply_vop,
    blind_card,
    dec,
    hand_add,
    hand_limit,
    hand_remove,
    has_nightmare,
    insert_frame,
    neutralise,
    push,
    refill,
    shuffle_in_nightmares,
    to_discard,
    trap_at,
    win,
)


# --- turns --------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, inline=INLINE)
def begin_turn(M, rs):
    """engine._begin_turn: turn cap, nightmares entering, actions, sleep paralysis, the turn-start trap window."""
    n = M[K.G_N]
    while True:
        if M[K.G_TURNS] >= 0:
            M[K.G_TP] = (M[K.G_TP] + 1) % n
        M[K.G_TURNS] += 1
        if M[K.G_TURNS] >= M[K.R_MAX_TURNS]:
            M[K.G_TERM] = 1
            M[K.G_TIMEOUT] = 1
            return
        if M[K.G_TURNS] == n and M[K.G_RESERVE] and M[K.R_NIGHTMARES] == K.NM_AFTER_FIRST_ROUND:
            shuffle_in_nightmares(M, rs)
        p = M[K.G_TP]
        M[K.G_CTRL] = -1
        M[K.G_CUR] = p
        base = M[K.R_APT]
        h = M[K.G_HORROR]
        if p != h and ((M[K.G_MULTI] | M[K.G_SLOW]) >> p) & 1:
            base = M[K.R_MULTI_A] if (M[K.G_MULTI] >> p) & 1 else M[K.R_SLOW_A]
        if M[K.G_TURNS] < n:  # each seat's first turn (design variants: per-seat compensation)
            if p < M[K.R_EXTRA_FIRST]:
                base += 1
            if p >= n - M[K.R_REDUCED_LAST] and base > 1:  # keeps at least one action
                base -= 1
        d = M[K.O_DEBT + p]
        if d:
            M[K.G_AL] = base - d if d < base else 0
            if M[K.R_DEBT_CARRY]:
                M[K.O_DEBT + p] = d - base if d > base else 0
            else:
                M[K.O_DEBT + p] = 0
        else:
            M[K.G_AL] = base
        if h >= 0 and p != h and M[K.O_WHERE + p] == M[K.O_WHERE + h]:
            M[K.O_STATS + K.ST_SKIPPED * K.MAX_SEATS + p] += 1
            M[K.G_AL] = 0
            continue
        break
    f = push(M, K.F_TURN)
    M[f + K.FR_DEC] = M[K.G_TP]
    if M[K.G_NTRAPS]:
        f = push(M, K.F_TRAPS)
        M[f + K.FR_DEC] = -1
        M[f + K.TRAPS_TURN_START] = 1


@njit(cache=True, error_model="numpy", _nrt=False, inline=INLINE)
def turn_finish(M, rs):
    """engine._turn_finish (the turn frame is already popped)."""
    p = M[K.G_TP]
    at = M[K.G_SP]
    if M[K.O_HSIZE + p] >= hand_limit(M, p):
        M[K.O_OWED + p] = 0
        begin_turn(M, rs)
    elif refill(M, rs, p):
        begin_turn(M, rs)
    else:
        insert_frame(M, at, K.F_REFILL, p)
        insert_frame(M, at, K.F_NEXT, 0)


# --- card plays ---------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False)
def play_card(M, p, kind):
    """engine._play_card: the card leaves the hand (owed a refill; played_* stat)."""
    hand_remove(M, p, kind)
    M[K.O_OWED + p] += 1
    if kind <= C.CATCHER:
        M[K.O_STATS + (K.ST_DREAMWALK + kind) * K.MAX_SEATS + p] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def start_play(M, rs, p, ptype, a1, a2, nc, c0, c1, reactable):
    """engine._start_play: the reaction window if anyone can answer, else resolve at once."""
    n = M[K.G_N]
    done = push(M, K.F_PLAYDONE)
    M[done + K.PLAYDONE_P] = p
    depth_done = M[K.G_SP]
    if reactable:
        c = M[K.G_CTRL]
        ask_n = 0
        found = False
        for i in range(1, n):
            q = (p + i) % n
            if q == c:
                continue
            M[K.O_TMP + ask_n] = q
            ask_n += 1
            if M[K.O_HAND + q * K.N_KINDS + C.DUTCH] > 0 or M[K.O_HAND + q * K.N_KINDS + C.CATCHER] > 0:
                found = True
        if found:
            f = push(M, K.F_RESOLVE)
            M[f + K.RES_P] = p
            M[f + K.RES_TYPE] = ptype
            M[f + K.RES_A1] = a1
            M[f + K.RES_A2] = a2
            M[f + K.RES_NC] = nc
            M[f + K.RES_C0] = c0
            M[f + K.RES_C0 + 1] = c1  # (unused when nc == 1)
            f = push(M, K.F_REACT)
            M[f + K.FR_DEC] = -1
            M[f + K.FR_ASK_N] = ask_n
            for i in range(ask_n):
                M[f + K.FR_ASK + i] = M[K.O_TMP + i]
            M[K.G_CHAIN_N] = 0
            return
    resolve(M, rs, p, ptype, a1, a2, nc, c0, c1)
    if M[K.G_SP] == depth_done:  # the resolution asked for nothing more
        M[K.G_SP] -= 1
        play_done(M, rs, p)


@njit(cache=True, error_model="numpy", _nrt=False)
def resolve(M, rs, p, ptype, a1, a2, nc, c0, c1):
    """engine._resolve: what a card play does (it was not cancelled or intercepted)."""
    if ptype == K.P_TRAP:
        M[trap_at(M, p, a1, a2)] += 1
        M[K.O_TRAPN + p] += 1
        if a2 != C.STAR:
            M[K.G_NTRAPS] += 1
        M[K.O_STATS + K.ST_TRAPS_SET * K.MAX_SEATS + p] += 1
        return
    to_discard(M, c0)
    if nc > 1:
        to_discard(M, c1)
    if ptype == K.P_WALK:
        c2 = M[K.O_NB + M[K.O_CELL_OF + M[K.O_WHERE + p]] * K.N_DIRS + a1]
        t = M[K.O_GRID + c2] if c2 >= 0 else -1
        if t >= 0:
            M[K.O_WHERE + p] = t
    elif ptype == K.P_VERT:
        apply_vop(M, a1, a2)
    elif ptype == K.P_STAR:
        M[K.O_STATS + K.ST_ACTIVATIONS * K.MAX_SEATS + p] += 1
        f = push(M, K.F_ACT)
        M[f + K.ACT_LOC] = a1
        M[f + K.ACT_B] = p
        M[f + K.ACT_REMOTE] = 0
        if a1 != C.TOWN_HALL:
            n = M[K.G_N]
            ask_n = 0
            for i in range(1, n + 1):
                q = (p + i) % n
                if q != p and M[trap_at(M, q, a1, C.STAR)] > 0:
                    M[K.O_TMP + ask_n] = q
                    ask_n += 1
            if ask_n:
                f = push(M, K.F_STARTRAP)
                M[f + K.FR_DEC] = -1
                M[f + K.STRAP_LOC] = a1
                M[f + K.STRAP_ACTOR] = p
                M[f + K.FR_ASK_N] = ask_n
                for i in range(ask_n):
                    M[f + K.FR_ASK + i] = M[K.O_TMP + i]
    elif ptype == K.P_DEXTRA:
        M[K.G_AL] += 1
        M[K.O_DEBT + p] += 1
    elif ptype == K.P_DREDUCE:
        M[K.O_DEBT + a1] += 1
        M[K.O_DEBT + p] += 1
    elif ptype == K.P_STEAL:
        card = blind_card(M, rs, a1)
        if card >= 0:
            hand_remove(M, a1, card)
            hand_add(M, p, card)
            f = push(M, K.F_SURPLUS)
            M[f + K.FR_DEC] = dec(M, p)
            M[f + K.FR_SEAT] = p
            M[f + K.SUR_MODE] = K.S_PLAIN
            M[f + K.SUR_OTHER] = -1


@njit(cache=True, error_model="numpy", _nrt=False, inline=INLINE)
def play_done(M, rs, p):
    """engine._play_done (refill="after_play"): refills from p clockwise, then the trap window."""
    n = M[K.G_N]
    if M[K.G_NTRAPS]:
        f = push(M, K.F_TRAPS)
        M[f + K.FR_DEC] = -1
    total = 0
    for q in range(n):
        total += M[K.O_OWED + q]
    if total == M[K.O_OWED + p]:
        if M[K.O_OWED + p]:
            at = M[K.G_SP]
            if not refill(M, rs, p):
                insert_frame(M, at, K.F_REFILL, p)
        return
    for i in range(n):
        q = (p + i) % n
        if M[K.O_OWED + q]:
            at = M[K.G_SP]
            if not refill(M, rs, q):
                for j in range(i, n):  # the rest of the refill waits under the decision, q on top
                    r = (p + j) % n
                    if M[K.O_OWED + r]:
                        insert_frame(M, at, K.F_REFILL, r)
                return


@njit(cache=True, error_model="numpy", _nrt=False)
def act_run(M, loc, b, remote):
    """engine._act_run: the beneficiary `b` activates `loc` (the frame is already popped)."""
    d = dec(M, b)
    if loc == C.FOREST:
        f = push(M, K.F_FOREST)
        M[f + K.FR_DEC] = d
        M[f + K.FR_SEAT] = b
    elif loc == C.SQUARE:
        f = push(M, K.F_SURPLUS)
        M[f + K.FR_DEC] = d
        M[f + K.FR_SEAT] = b
        M[f + K.SUR_MODE] = K.S_ANY
        M[f + K.SUR_OTHER] = -1
        f = push(M, K.F_SQUARE)
        M[f + K.FR_DEC] = d
        M[f + K.FR_SEAT] = b
    elif loc == C.MOTEL:
        f = push(M, K.F_MOTEL_T)
        M[f + K.FR_DEC] = d
        M[f + K.FR_SEAT] = b
    elif loc == C.RESTAURANT:
        f = push(M, K.F_REST)
        M[f + K.FR_DEC] = d
        M[f + K.FR_SEAT] = b
    elif loc == C.TOWN_HALL:
        if b == M[K.G_HORROR]:  # horror_remote_town_hall_wins=True: remote or not
            win(M, b, True)
            return
        neutralise(M)
        h = K.O_HAND + b * K.N_KINDS
        for k in range(C.RED, K.N_KINDS):  # town_hall_discards="one": a decision if any nightmare but the Black
            if k != C.BLACK and M[h + k] > 0:
                f = push(M, K.F_TH)
                M[f + K.FR_DEC] = d
                M[f + K.FR_SEAT] = b
                break
    elif loc == C.BRIDGE:
        if b != M[K.G_HORROR] and not has_nightmare(M, b):
            win(M, b, False)
