"""Midnighters batch kernel, part 1a: the automatic rules (no decision) — the PRNG, the frame stack,
cards, the board, the refill and nightmares (`turn` builds a turn on them: its start, playing a
card and resolving it). Each function names its counterpart in the engine (`engine/engine.py` and
the modules beside it); the state is the int64 array `M` laid out in `layout`.
"""
from __future__ import annotations

from simcore.stream_kernel import below
from simcore.stream_kernel import shuffle as stream_shuffle

from ..engine import cards as C
from . import layout as K
from .cache import INLINE, njit  # (also registers the numba cache locator before any @njit)


# --- random draws: simcore's SplitMix64 streams (rs[0] chance, rs[1 + i] seat i's policy) --------
@njit(cache=True, error_model="numpy", _nrt=False)
def rand_below(M, rs, n):
    """A uniform integer in [0, n) from the chance stream (`Stream.below` of the engine's chance)."""
    M[K.G_RNG_CALLS] += 1
    return below(rs, 0, n)


@njit(cache=True, error_model="numpy", _nrt=False)
def shuffle(M, rs, off, n):
    """Fisher-Yates on M[off:off+n] with the chance stream (`Stream.shuffle`, the engine's `shuffled`)."""
    if n > 1:
        M[K.G_RNG_CALLS] += n - 1
    stream_shuffle(M, off, n, rs, 0)


# --- stack ------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False)
def push(M, kind):
    """A new frame on top (fields zeroed); returns its base index in M. On overflow (never seen)
    the game stops with G_ERROR set, and kernel.play_arrays raises."""
    sp = M[K.G_SP]
    if sp >= K.STACK_CAP:
        M[K.G_ERROR] = 1
        M[K.G_TERM] = 1
        sp = K.STACK_CAP - 1
    base = K.O_STACK + sp * K.FRAME_W
    M[base + K.FR_KIND] = kind
    for i in range(K.FR_KIND + 1, K.FRAME_W):
        M[base + i] = 0
    M[K.G_SP] = sp + 1
    return base


@njit(cache=True, error_model="numpy", _nrt=False)
def insert_frame(M, at, kind, p):
    """Insert frame [kind, p] at depth `at`, shifting the frames above it up (engine: stack.insert);
    p is its seat field (REFILL_P of an F_REFILL)."""
    sp = M[K.G_SP]
    if sp >= K.STACK_CAP:
        M[K.G_ERROR] = 1
        M[K.G_TERM] = 1
        return
    for i in range(K.O_STACK + (sp + 1) * K.FRAME_W - 1, K.O_STACK + (at + 1) * K.FRAME_W - 1, -1):
        M[i] = M[i - K.FRAME_W]
    base = K.O_STACK + at * K.FRAME_W
    M[base + K.FR_KIND] = kind
    M[base + K.REFILL_P] = p
    for i in range(K.REFILL_P + 1, K.FRAME_W):
        M[base + i] = 0
    M[K.G_SP] = sp + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def top(M):
    return K.O_STACK + (M[K.G_SP] - 1) * K.FRAME_W


# --- small helpers ------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False)
def dec(M, p):
    """engine._dec: the Dreamcatcher trap's owner decides for a captured turn player."""
    c = M[K.G_CTRL]
    return c if (p == M[K.G_TP] and c >= 0) else p


@njit(cache=True, error_model="numpy", _nrt=False)
def has_nightmare(M, p):
    h = K.O_HAND + p * K.N_KINDS
    for k in range(C.RED, K.N_KINDS):
        if M[h + k] > 0:
            return True
    return False


@njit(cache=True, error_model="numpy", _nrt=False)
def takeable(M, p):
    """Cards that may leave p's hand (never the Black Nightmare)."""
    return M[K.O_HSIZE + p] - M[K.O_HAND + p * K.N_KINDS + C.BLACK]


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_limit(M, p):
    """engine.hand_limit."""
    size = M[K.R_HAND]
    if p != M[K.G_HORROR]:
        return size
    mode = M[K.R_HORROR_LIMIT]
    if mode != K.HL_NIGHTMARES_FREE:
        return size + 1 if mode == K.HL_BLACK_FREE else size
    h = K.O_HAND + p * K.N_KINDS
    for k in range(C.RED, K.N_KINDS):
        size += M[h + k]
    return size


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_add(M, p, k):
    M[K.O_HAND + p * K.N_KINDS + k] += 1
    M[K.O_HSIZE + p] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_remove(M, p, k):
    M[K.O_HAND + p * K.N_KINDS + k] -= 1
    M[K.O_HSIZE + p] -= 1


@njit(cache=True, error_model="numpy", _nrt=False)
def to_discard(M, k):
    M[K.O_DISC + k] += 1
    M[K.G_DISC_N] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def blind_card(M, rs, p):
    """A card picked blindly among p's takeable cards (each card equally likely); -1 if none."""
    n = takeable(M, p)
    if n <= 0:
        return -1
    r = rand_below(M, rs, n)
    h = K.O_HAND + p * K.N_KINDS
    for k in range(K.N_KINDS):
        if k == C.BLACK:
            continue
        c = M[h + k]
        if r < c:
            return k
        r -= c
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def trap_at(M, q, loc, kind):
    return K.O_TRAPS + (q * K.N_LOC + loc) * K.N_PARTNERS + kind


@njit(cache=True, error_model="numpy", _nrt=False)
def win(M, seat, horror):
    M[K.G_WINNER] = seat
    M[K.G_TERM] = 1
    if horror:
        M[K.G_HWON] = 1
    else:
        M[K.G_WOKE] = seat


@njit(cache=True, error_model="numpy", _nrt=False)
def neutralise(M):
    M[K.G_RED] = 0
    M[K.G_BLUE] = 0
    M[K.G_MULTI] = 0
    M[K.G_SLOW] = 0


@njit(cache=True, error_model="numpy", _nrt=False)
def consume_trap(M, q, loc, kind):
    M[trap_at(M, q, loc, kind)] -= 1
    M[K.O_TRAPN + q] -= 1
    if kind != C.STAR:
        M[K.G_NTRAPS] -= 1
    to_discard(M, loc - K.SU_TO_LOC)  # the Suspense card of `loc` (SUSPENSE_OF)
    to_discard(M, kind)
    M[K.O_STATS + K.ST_TRAPS_SPRUNG * K.MAX_SEATS + q] += 1


@njit(cache=True, error_model="numpy", _nrt=False)
def can_activate(M, p, loc):
    """engine._can_activate."""
    if loc < C.FOREST:
        return False
    if loc != C.TOWN_HALL and (M[K.G_BLUE] >> p) & 1 and p != M[K.G_HORROR]:
        return False
    if loc == C.BRIDGE:
        return p != M[K.G_HORROR] and not has_nightmare(M, p)
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def near_bridge(M, with_horror):
    """engine.near_bridge as a bit set of seats."""
    bc = M[K.O_CELL_OF + C.BRIDGE]
    n = M[K.G_N]
    out = 0
    for q in range(n):
        if not with_horror and q == M[K.G_HORROR]:
            continue
        w = M[K.O_WHERE + q]
        if w == C.BRIDGE:
            out |= 1 << q
            continue
        for d in range(K.N_DIRS):
            c2 = M[K.O_NB + bc * K.N_DIRS + d]
            if c2 >= 0 and M[K.O_GRID + c2] == w:
                out |= 1 << q
                break
    return out


# --- board --------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False)
def apply_vop(M, loc, op):
    """engine._apply_vop: 0-3 move (swap cells with the neighbour), 4-6 rotate, else nothing."""
    if op < K.VOP_ROTATE:
        c1 = M[K.O_CELL_OF + loc]
        c2 = M[K.O_NB + c1 * K.N_DIRS + op]
        if c2 >= 0:
            other = M[K.O_GRID + c2]
            M[K.O_GRID + c1] = other
            M[K.O_GRID + c2] = loc
            M[K.O_CELL_OF + loc] = c2
            if other >= 0:
                M[K.O_CELL_OF + other] = c1
    elif op < K.NO_MOVE:
        M[K.O_ROT + loc] = (M[K.O_ROT + loc] + op - K.VOP_TURN0) % K.N_ROTS


# --- drawing ------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, inline=INLINE)
def draw_card(M, rs):
    """engine._draw_card with deck_exhaustion="reshuffle"; -1 when nothing can be drawn."""
    if M[K.G_DECK_N] == 0:
        if M[K.G_DISC_N] == 0:
            return -1
        n = 0
        for k in range(K.N_KINDS):
            for _ in range(M[K.O_DISC + k]):
                M[K.O_DECK + n] = k
                n += 1
            M[K.O_DISC + k] = 0
        M[K.G_DISC_N] = 0
        shuffle(M, rs, K.O_DECK, n)
        M[K.G_DECK_N] = n
    M[K.G_DECK_N] -= 1
    return M[K.O_DECK + M[K.G_DECK_N]]


@njit(cache=True, error_model="numpy", _nrt=False)
def shuffle_in_nightmares(M, rs):
    """engine._shuffle_in_nightmares: the six nightmares (cards.NIGHTMARES, in kind order) on top of
    the deck, then the whole deck shuffled."""
    top_ = M[K.G_DECK_N]
    for k in range(C.RED, K.N_KINDS):
        M[K.O_DECK + top_] = k
        top_ += 1
    shuffle(M, rs, K.O_DECK, top_)
    M[K.G_DECK_N] = top_
    M[K.G_RESERVE] = 0


@njit(cache=True, error_model="numpy", _nrt=False, inline=INLINE)
def refill(M, rs, p):
    """engine._refill: draw up to the hand limit; False when a nightmare pushed a decision."""
    size = hand_limit(M, p)
    while M[K.O_HSIZE + p] < size:
        c = draw_card(M, rs)
        if c < 0:
            break
        hand_add(M, p, c)
        if c >= C.RED:
            M[K.O_STATS + K.ST_NIGHTMARES * K.MAX_SEATS + p] += 1
            if nightmare_drawn(M, rs, p, c):
                return False
            size = hand_limit(M, p)  # p may have just become the Horror: the nightmare need not count
    M[K.O_OWED + p] = 0
    return True


# --- nightmares ---------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False)
def nightmare_drawn(M, rs, p, kind):
    """engine._nightmare_drawn. True if a decision was pushed."""
    n = M[K.G_N]
    if M[K.O_WHERE + p] == C.TOWN_HALL and not (kind == C.BLACK and M[K.R_BLACK_TH]):
        return False
    if kind == C.BLACK:
        return apply_nightmare(M, rs, p, kind, 0)
    affected = 0
    for q in range(n):
        if q != M[K.G_HORROR] and M[K.O_WHERE + q] != C.TOWN_HALL:
            affected |= 1 << q
    ask_n = 0
    for i in range(n):
        q = (p + i) % n
        if M[trap_at(M, q, C.TOWN_HALL, C.STAR)] > 0:
            M[K.O_TMP + ask_n] = q
            ask_n += 1
    if ask_n:
        f = push(M, K.F_NIGHT)
        M[f + K.FR_DEC] = -1
        M[f + K.NIGHT_DRAWER] = p
        M[f + K.NIGHT_KIND] = kind
        M[f + K.NIGHT_AFFECTED] = affected
        M[f + K.FR_ASK_N] = ask_n
        for i in range(ask_n):
            M[f + K.FR_ASK + i] = M[K.O_TMP + i]
        return True
    return apply_nightmare(M, rs, p, kind, affected)


@njit(cache=True, error_model="numpy", _nrt=False)
def apply_nightmare(M, rs, p, kind, affected):
    """engine._apply_nightmare on the `affected` seats."""
    n = M[K.G_N]
    if kind == C.RED:
        M[K.G_RED] |= affected
    elif kind == C.BLUE:
        M[K.G_BLUE] |= affected
    elif kind == C.PURPLE:
        m = 0
        for q in range(n):
            if (affected >> q) & 1:
                M[K.O_TMP + m] = q
                m += 1
        if m >= 2:  # each passes hand and traps to the counter-clockwise neighbour in the group
            tsz = K.N_LOC * K.N_PARTNERS
            for i in range(m):
                q = M[K.O_TMP + i]
                rec = K.O_TMP + K.TMP_PX + i * K.PX_W
                for x in range(K.N_KINDS):  # element by element: a slice copy would allocate (no NRT here)
                    M[rec + x] = M[K.O_HAND + q * K.N_KINDS + x]
                M[rec + K.PX_HSIZE] = M[K.O_HSIZE + q]
                M[rec + K.PX_TRAPN] = M[K.O_TRAPN + q]
                for x in range(tsz):
                    M[K.O_TMP2 + i * tsz + x] = M[K.O_TRAPS + q * tsz + x]
            for i in range(m):
                q = M[K.O_TMP + i]
                j = (i + 1) % m
                src = K.O_TMP + K.TMP_PX + j * K.PX_W
                for x in range(K.N_KINDS):
                    M[K.O_HAND + q * K.N_KINDS + x] = M[src + x]
                M[K.O_HSIZE + q] = M[src + K.PX_HSIZE]
                M[K.O_TRAPN + q] = M[src + K.PX_TRAPN]
                for x in range(tsz):
                    M[K.O_TRAPS + q * tsz + x] = M[K.O_TMP2 + j * tsz + x]
    elif kind == C.BLACK:
        M[K.G_HORROR] = p
        bit = ~(1 << p)
        M[K.G_RED] &= bit
        M[K.G_BLUE] &= bit
        M[K.G_MULTI] &= bit
        M[K.G_SLOW] &= bit
    elif kind == C.MULTI:
        here = M[K.O_WHERE + p]
        for q in range(n):
            if (affected >> q) & 1:
                M[K.O_WHERE + q] = here
        M[K.G_MULTI] |= affected
        M[K.G_SLOW] &= ~affected
    elif kind == C.COLOURLESS:
        M[K.G_SLOW] |= affected
        M[K.G_MULTI] &= ~affected
        if affected:
            placer = M[K.G_HORROR]
            if placer < 0:
                st = M[K.R_STAGER]
                placer = n - 1 if st == K.STAGER_LAST else 0 if st == K.STAGER_FIRST else -1
            if placer < 0:  # stager="chance": each victim to a Corridor at random, in seat order
                for q in range(n):
                    if (affected >> q) & 1:
                        M[K.O_WHERE + q] = rand_below(M, rs, K.N_CORRIDORS)
                return False
            f = push(M, K.F_PLACE)
            M[f + K.FR_DEC] = placer
            M[f + K.PLACE_VICTIMS] = affected
            return True
    return False
