"""Midnighters batch kernel, part 2: the decisions — for every decision frame of `engine/engine.py`
its legal actions (written to the buffer at `O_ACTS` as (code, a, b), one entry per distinct
action, like the engine's legal list), its `apply` and its `finish` (no legal action left).
"""
from __future__ import annotations

import numpy as np

from ..engine import cards as C
from . import layout as K
from .cache import GAME_LOOPS, njit  # (also registers the numba cache locator before any @njit)
from .core import (
    apply_nightmare,
    blind_card,
    can_activate,
    consume_trap,
    dec,
    hand_add,
    hand_limit,
    hand_remove,
    near_bridge,
    neutralise,
    push,
    shuffle,
    takeable,
    to_discard,
    top,
    trap_at,
    win,
)
from .turn import (
    play_card,
    play_done,
    start_play,
    turn_finish,
)

#: ARROWS_NP[loc, rot] -> bit set of the arrow directions (cards.ARROW_MASK)
ARROWS_NP = np.array(C.ARROW_MASK, dtype=np.int64)
NO_MOVE = K.NO_MOVE  # actions.NO_MOVE: the Vertigo trap's "no move" when its location has no cell to move to


@njit(cache=True, error_model="numpy", _nrt=False)
def add(M, n, code, a, b):
    base = K.O_ACTS + K.ACTS_W * n
    M[base + K.AC_CODE] = code
    M[base + K.AC_A] = a
    M[base + K.AC_B] = b
    return n + 1


# --- the turn -----------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def turn_legal(M, f):
    """engine._turn_legal."""
    al = M[K.G_AL]
    if al <= 0:
        return 0
    p = M[K.G_TP]
    hz = M[K.G_HORROR]
    if M[K.R_PARALYSIS_NOW] and hz >= 0 and p != hz and M[K.O_WHERE + p] == M[K.O_WHERE + hz]:
        M[K.G_AL] = 0  # paralysis="immediate": the turn ends at once, its actions lost
        return 0
    c = M[K.G_CTRL]
    M[f + K.FR_DEC] = c if c >= 0 else p
    n = 0
    h = K.O_HAND + p * K.N_KINDS
    loc = M[K.O_WHERE + p]
    cell = M[K.O_CELL_OF + loc]
    if M[h + C.DREAMWALK] > 0:
        arrows = ARROWS_NP[loc, M[K.O_ROT + loc]]
        for d in range(K.N_DIRS):
            if (arrows >> d) & 1:
                c2 = M[K.O_NB + cell * K.N_DIRS + d]
                if c2 >= 0 and M[K.O_GRID + c2] >= 0:
                    n = add(M, n, K.A_WALK, d, 0)
    if M[h + C.VERTIGO] > 0:
        n = add(M, n, K.A_VERT, loc, 0)
        for d in range(K.N_DIRS):
            c2 = M[K.O_NB + cell * K.N_DIRS + d]
            if c2 >= 0 and M[K.O_GRID + c2] >= 0:
                n = add(M, n, K.A_VERT, M[K.O_GRID + c2], 0)
    if M[h + C.STAR] > 0 and can_activate(M, p, loc):
        n = add(M, n, K.A_STAR, 0, 0)
    if al >= M[K.R_TRAP_A] and not (p != M[K.G_HORROR] and (M[K.G_RED] >> p) & 1):
        partner = False
        for k in range(K.N_PARTNERS):
            if M[h + k] > 0:
                partner = True
        if partner:
            for k in range(C.SU_FOREST, C.SU_BRIDGE + 1):
                if M[h + k] > 0:
                    n = add(M, n, K.A_SETTRAP, k + K.SU_TO_LOC, 0)  # the Suspense card's location (SUSPENSE_OF)
    players = M[K.G_N]
    if al >= M[K.R_DUTCH_A] and M[h + C.DUTCH] > 0:
        n = add(M, n, K.A_DEXTRA, 0, 0)
        for t in range(players):
            if t != p:
                n = add(M, n, K.A_DREDUCE, t, 0)
    if M[K.R_DISCARD_ACTION]:
        for k in range(C.SU_BRIDGE + 1):
            if M[h + k] > 0:
                n = add(M, n, K.A_DISCARD, k, 0)
    if M[h + C.CATCHER] > 0 and al >= M[K.R_STEAL_A]:
        for t in range(players):
            if t != p and takeable(M, t) > 0:
                n = add(M, n, K.A_STEAL, t, 0)
    return add(M, n, K.A_PASS, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def turn_apply(M, rs, f, code, a):
    """engine._turn_apply."""
    p = M[K.G_TP]
    if code == K.A_PASS:
        M[K.G_AL] = 0
        M[K.G_SP] -= 1
        turn_finish(M, rs)
        return
    M[K.O_STATS + K.ST_ACTIONS * K.MAX_SEATS + p] += 1
    d = M[f + K.FR_DEC]
    if code == K.A_DISCARD:
        M[K.G_AL] -= 1
        hand_remove(M, p, a)
        M[K.O_OWED + p] += 1
        to_discard(M, a)
        M[K.O_STATS + K.ST_DISCARDS * K.MAX_SEATS + p] += 1
        play_done(M, rs, p)
    elif code == K.A_WALK:
        M[K.G_AL] -= 1
        play_card(M, p, C.DREAMWALK)
        start_play(M, rs, p, K.P_WALK, a, 0, 1, C.DREAMWALK, 0, True)
    elif code == K.A_VERT:
        M[K.G_AL] -= 1
        play_card(M, p, C.VERTIGO)
        g = push(M, K.F_VOP)
        M[g + K.FR_DEC] = d
        M[g + K.FR_SEAT] = p
        M[g + K.VOP_LOC] = a
    elif code == K.A_STAR:
        M[K.G_AL] -= 1
        play_card(M, p, C.STAR)
        start_play(M, rs, p, K.P_STAR, M[K.O_WHERE + p], 0, 1, C.STAR, 0, True)
    elif code == K.A_SETTRAP:
        M[K.G_AL] -= M[K.R_TRAP_A]
        play_card(M, p, a - K.SU_TO_LOC)  # SUSPENSE_OF[a]
        g = push(M, K.F_PARTNER)
        M[g + K.FR_DEC] = d
        M[g + K.FR_SEAT] = p
        M[g + K.PARTNER_LOC] = a
    elif code == K.A_DEXTRA:
        M[K.G_AL] -= M[K.R_DUTCH_A]
        play_card(M, p, C.DUTCH)
        start_play(M, rs, p, K.P_DEXTRA, 0, 0, 1, C.DUTCH, 0, True)
    elif code == K.A_DREDUCE:
        M[K.G_AL] -= M[K.R_DUTCH_A]
        play_card(M, p, C.DUTCH)
        start_play(M, rs, p, K.P_DREDUCE, a, 0, 1, C.DUTCH, 0, True)
    elif code == K.A_STEAL:
        M[K.G_AL] -= M[K.R_STEAL_A]
        play_card(M, p, C.CATCHER)
        start_play(M, rs, p, K.P_STEAL, a, 0, 1, C.CATCHER, 0, True)


@njit(cache=True, error_model="numpy", _nrt=False)
def vop_legal(M, f):
    loc = M[f + K.VOP_LOC]
    cell = M[K.O_CELL_OF + loc]
    n = 0
    for d in range(K.N_DIRS):
        if M[K.O_NB + cell * K.N_DIRS + d] >= 0:
            n = add(M, n, K.A_VOP, d, 0)
    for op in range(K.VOP_ROTATE, K.NO_MOVE):  # vertigo_rotation="any"
        n = add(M, n, K.A_VOP, op, 0)
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def partner_legal(M, f):
    h = K.O_HAND + M[f + K.FR_SEAT] * K.N_KINDS
    n = 0
    for k in range(K.N_PARTNERS):
        if M[h + k] > 0:
            n = add(M, n, K.A_PARTNER, k, 0)
    return n


# --- reactions ----------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def react_legal(M, f):
    """engine._react_legal (intercept_own_turn=False)."""
    ask_n = M[f + K.FR_ASK_N]
    m = M[K.G_CHAIN_N]
    if m:
        top_kind = M[K.O_CHAIN + K.CHAIN_W * (m - 1) + K.CH_KIND]
        code = K.A_CANCEL if top_kind == C.DUTCH else K.A_INTERCEPT
        barred = -1 if top_kind == C.DUTCH else M[K.G_TP]
        while M[f + K.REACT_POS] < ask_n:
            q = M[f + K.FR_ASK + M[f + K.REACT_POS]]
            if M[K.O_HAND + q * K.N_KINDS + top_kind] > 0 and q != barred:
                M[f + K.FR_DEC] = q
                n = add(M, 0, code, 0, 0)
                return add(M, n, K.A_ALLOW, 0, 0)
            M[f + K.REACT_POS] += 1
        return 0
    while M[f + K.REACT_POS] < ask_n:
        q = M[f + K.FR_ASK + M[f + K.REACT_POS]]
        da = M[K.O_HAND + q * K.N_KINDS + C.DUTCH] > 0
        dc = M[K.O_HAND + q * K.N_KINDS + C.CATCHER] > 0
        if da or dc:
            M[f + K.FR_DEC] = q
            n = 0
            if da:
                n = add(M, n, K.A_CANCEL, 0, 0)
            if dc:
                n = add(M, n, K.A_INTERCEPT, 0, 0)
            return add(M, n, K.A_ALLOW, 0, 0)
        M[f + K.REACT_POS] += 1
    return 0


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def react_apply(M, f, code):
    if code == K.A_ALLOW:
        M[f + K.REACT_POS] += 1
        return
    q = M[f + K.FR_DEC]
    players = M[K.G_N]
    if code == K.A_CANCEL:
        play_card(M, q, C.DUTCH)
        M[K.O_DEBT + q] += M[K.R_CANCEL_DEBT]
        M[K.O_STATS + K.ST_CANCELS * K.MAX_SEATS + q] += 1
        kind = C.DUTCH
    else:
        play_card(M, q, C.CATCHER)
        M[K.O_DEBT + q] += 1
        M[K.O_STATS + K.ST_INTERCEPTS * K.MAX_SEATS + q] += 1
        kind = C.CATCHER
    m = M[K.G_CHAIN_N]
    M[K.O_CHAIN + K.CHAIN_W * m + K.CH_SEAT] = q
    M[K.O_CHAIN + K.CHAIN_W * m + K.CH_KIND] = kind
    M[K.G_CHAIN_N] = m + 1
    M[f + K.FR_ASK_N] = players - 1
    for i in range(1, players):
        M[f + K.FR_ASK + i - 1] = (q + i) % players
    M[f + K.REACT_POS] = 0


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def react_finish(M):
    """engine._react_finish (intercept_takes="played"): resolve the chain from its top."""
    M[K.G_SP] -= 1
    m = M[K.G_CHAIN_N]
    if m == 0:
        return
    res = top(M)  # the play answered (F_RESOLVE) lies right under the reaction window
    takes = K.O_TMP  # takes[i]: the seat that intercepts chain item i (0: the play), else -1
    for i in range(m + 1):
        M[takes + i] = -1
    neutral = 0
    for i in range(m, 0, -1):
        if (neutral >> i) & 1:
            continue
        if M[K.O_CHAIN + K.CHAIN_W * (i - 1) + K.CH_KIND] == C.CATCHER:
            M[takes + i - 1] = M[K.O_CHAIN + K.CHAIN_W * (i - 1) + K.CH_SEAT]
        neutral |= 1 << (i - 1)
    takers = K.O_TMP + K.TMP_TAKERS
    nt = 0
    for i in range(1, m + 1):
        kind = M[K.O_CHAIN + K.CHAIN_W * (i - 1) + K.CH_KIND]
        t = M[takes + i]
        if t >= 0:
            hand_add(M, t, kind)
            M[takers + nt] = t
            nt += 1
        else:
            to_discard(M, kind)
    if neutral & 1:
        nc = M[res + K.RES_NC]
        t = M[takes]
        if t >= 0:
            M[res + K.RES_STATUS] = K.INTERCEPTED
            hand_add(M, t, M[res + K.RES_C0 + nc - 1])  # the played card; of a trap, the partner card
            for j in range(nc - 1):
                to_discard(M, M[res + K.RES_C0 + j])
            M[takers + nt] = t
            nt += 1
        else:
            M[res + K.RES_STATUS] = K.CANCELLED
            for j in range(nc):
                to_discard(M, M[res + K.RES_C0 + j])
    for i in range(nt):
        seat = M[takers + i]
        first = True
        for j in range(i):
            if M[takers + j] == seat:
                first = False
        if first:
            g = push(M, K.F_SURPLUS)
            M[g + K.FR_DEC] = dec(M, seat)
            M[g + K.FR_SEAT] = seat
            M[g + K.SUR_MODE] = K.S_PLAIN
            M[g + K.SUR_OTHER] = -1


# --- activations --------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False)
def startrap_legal(M, f):
    loc = M[f + K.STRAP_LOC]
    while M[f + K.STRAP_POS] < M[f + K.FR_ASK_N]:
        q = M[f + K.FR_ASK + M[f + K.STRAP_POS]]
        if M[trap_at(M, q, loc, C.STAR)] > 0 and not (q != M[K.G_HORROR] and (M[K.G_RED] >> q) & 1):
            M[f + K.FR_DEC] = q
            n = add(M, 0, K.A_SPRING, loc, C.STAR)
            return add(M, n, K.A_HOLD, 0, 0)
        M[f + K.STRAP_POS] += 1
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def startrap_apply(M, f, code):
    if code == K.A_HOLD:
        M[f + K.STRAP_POS] += 1
        return
    q = M[f + K.FR_DEC]
    consume_trap(M, q, M[f + K.STRAP_LOC], C.STAR)
    M[f - K.FRAME_W + K.ACT_B] = q  # the activation (F_ACT) right under it: the benefits go to q
    M[K.G_SP] -= 1


@njit(cache=True, error_model="numpy", _nrt=False)
def take_legal(M, pile, taken, black_ok):
    """Square / Motel: TAKE per distinct kind in `pile` (up to TAKE_MAX cards), then STOP."""
    if taken >= K.TAKE_MAX:
        return 0
    n = 0
    for k in range(K.N_KINDS):
        if M[pile + k] > 0 and (black_ok or k != C.BLACK):
            n = add(M, n, K.A_TAKE, k, 0)
    if n == 0:
        return 0
    return add(M, n, K.A_STOP, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def rest_legal(M, f):
    """engine._rest_legal (restaurant_discard_horror=True)."""
    elig = near_bridge(M, False)
    n = 0
    count = 0
    cards = 0
    for q in range(M[K.G_N]):
        if (elig >> q) & 1:
            count += 1
            cards += M[K.O_HSIZE + q]
    if count >= 2 and cards > 0:
        n = add(M, n, K.A_MIX, 0, 0)
    if M[K.G_HORROR] >= 0:
        elig = near_bridge(M, True)
    for q in range(M[K.G_N]):
        if (elig >> q) & 1 and takeable(M, q) > 0:
            n = add(M, n, K.A_TARGET, q, 0)
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def mix(M, rs):
    """The Restaurant's mix: the hands near the Bridge (not the Horror's) shuffled together and
    dealt back in the same sizes."""
    elig = near_bridge(M, False)
    pool = K.O_TMP
    size = 0
    for q in range(M[K.G_N]):
        if (elig >> q) & 1:
            h = K.O_HAND + q * K.N_KINDS
            for k in range(K.N_KINDS):
                for _ in range(M[h + k]):
                    M[pool + size] = k
                    size += 1
                M[h + k] = 0
    shuffle(M, rs, pool, size)
    i = 0
    for q in range(M[K.G_N]):
        if (elig >> q) & 1:
            h = K.O_HAND + q * K.N_KINDS
            for _ in range(M[K.O_HSIZE + q]):
                M[h + M[pool + i]] += 1
                i += 1


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def surplus_legal(M, f):
    """engine._surplus_legal."""
    p = M[f + K.FR_SEAT]
    mode = M[f + K.SUR_MODE]
    if M[K.O_HSIZE + p] <= hand_limit(M, p) - M[K.O_OWED + p]:
        return 0
    h = K.O_HAND + p * K.N_KINDS
    n = 0
    if mode == K.S_GIVE:
        for k in range(K.N_KINDS):
            if M[h + k] > 0 and k != C.BLACK:
                n = add(M, n, K.A_GIVE, k, 0)
    for k in range(K.N_KINDS):
        if M[h + k] > 0 and (k < C.RED or (mode == K.S_ANY and k != C.BLACK)):
            n = add(M, n, K.A_DISCARD, k, 0)
    return n


# --- traps --------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def springable(M, q, turnstart):
    """engine._springable (dreamwalk_trap_self="corridor"), written to the buffer; the count."""
    if (M[K.G_RED] >> q) & 1 and q != M[K.G_HORROR]:
        return 0
    n = 0
    players = M[K.G_N]
    here = M[K.O_WHERE + q]
    v = M[K.G_TP]
    base = K.O_TRAPS + q * K.N_LOC * K.N_PARTNERS
    for loc in range(K.N_LOC):
        t = base + loc * K.N_PARTNERS
        if M[t + C.DREAMWALK] > 0:
            n = add(M, n, K.A_SPRING, loc, C.DREAMWALK)
        if M[t + C.VERTIGO] > 0:
            n = add(M, n, K.A_SPRING, loc, C.VERTIGO)
        if M[t + C.DUTCH] > 0 and here != loc:  # swap places with someone in the trap's location
            for other in range(players):
                if other != q and M[K.O_WHERE + other] == loc:
                    n = add(M, n, K.A_SPRING, loc, C.DUTCH)
                    break
        if M[t + C.CATCHER] > 0 and turnstart and M[K.G_CTRL] < 0 and v != q and M[K.O_WHERE + v] == loc:
            n = add(M, n, K.A_SPRING, loc, C.CATCHER)  # at the start of the victim's turn, in its location
    return n


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def traps_legal(M, f):
    """engine._traps_legal: the owners are listed when the window opens."""
    players = M[K.G_N]
    if not M[f + K.TRAPS_LISTED]:
        M[f + K.TRAPS_LISTED] = 1
        k = 0
        for i in range(players):
            q = (M[K.G_TP] + i) % players
            if M[K.O_TRAPN + q] > 0:
                M[f + K.FR_ASK + k] = q
                k += 1
        M[f + K.FR_ASK_N] = k
    while M[f + K.TRAPS_POS] < M[f + K.FR_ASK_N]:
        q = M[f + K.FR_ASK + M[f + K.TRAPS_POS]]
        if M[K.O_TRAPN + q] > 0:
            n = springable(M, q, M[f + K.TRAPS_TURN_START])
            if n:
                M[f + K.FR_DEC] = q
                return add(M, n, K.A_HOLD, 0, 0)
        M[f + K.TRAPS_POS] += 1
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def traps_apply(M, f, code, loc, kind):
    if code == K.A_HOLD:
        M[f + K.TRAPS_POS] += 1
        return
    q = M[f + K.FR_DEC]
    consume_trap(M, q, loc, kind)
    if kind == C.DREAMWALK:
        g = push(M, K.F_WTRAP_T)
        M[g + K.FR_DEC] = q
        M[g + K.WTRAP_LOC] = loc
    elif kind == C.VERTIGO:
        g = push(M, K.F_VTRAP)
        M[g + K.FR_DEC] = q
        M[g + K.VTRAP_LOC] = loc
    elif kind == C.DUTCH:
        g = push(M, K.F_DTRAP)
        M[g + K.FR_DEC] = q
        M[g + K.DTRAP_LOC] = loc
    else:
        M[K.G_CTRL] = q  # a Dreamcatcher trap: q plays the turn player's turn


@njit(cache=True, error_model="numpy", _nrt=False)
def night_apply(M, f, code):
    """engine._night_apply: a Town Hall Star trap answers a drawn nightmare."""
    if code == K.A_HOLD:
        M[f + K.NIGHT_POS] += 1
        return
    q = M[f + K.FR_DEC]
    p = M[f + K.NIGHT_DRAWER]
    kind = M[f + K.NIGHT_KIND]
    M[K.G_SP] -= 1
    consume_trap(M, q, C.TOWN_HALL, C.STAR)
    if q == M[K.G_HORROR]:  # horror_remote_town_hall_wins=True
        win(M, q, True)
        return
    neutralise(M)
    if M[K.O_HAND + p * K.N_KINDS + kind] > 0:
        hand_remove(M, p, kind)
        to_discard(M, kind)


@njit(cache=True, error_model="numpy", _nrt=False)
def blind_discard(M, rs, target, count):
    """The Restaurant's blind discard of `count` cards of `target` (never the Black Nightmare)."""
    for _ in range(count):
        card = blind_card(M, rs, target)
        if card < 0:
            break
        hand_remove(M, target, card)
        to_discard(M, card)


@njit(cache=True, error_model="numpy", _nrt=False)
def take_from_discard(M, p, k):
    M[K.O_DISC + k] -= 1
    M[K.G_DISC_N] -= 1
    hand_add(M, p, k)


@njit(cache=True, error_model="numpy", _nrt=False)
def night_finish(M, rs, f):
    p = M[f + K.NIGHT_DRAWER]
    kind = M[f + K.NIGHT_KIND]
    affected = M[f + K.NIGHT_AFFECTED]
    M[K.G_SP] -= 1
    apply_nightmare(M, rs, p, kind, affected)

