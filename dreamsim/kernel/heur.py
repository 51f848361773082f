"""Midnighters batch kernel, part 5: the heuristic (`HeuristicPolicy`, `policies/context.py`
compiled): the facts of one decision, value() of a position and the best board a Vertigo makes
(the score of each kind of action is in `heur_score`).

The facts live in two small arrays: `X` (ints: the deciding seat, the seat acted for, the frame,
the actor's hand, where everyone stands, scratch hands and places) and `XF` (floats: the sign,
the actor's card values, value() now). A hypothetical position is a place array in `X` (`X_WHERE`
now, `X_W2` moved) and a plan-cost key (`heur_board`). Every scoring function names its
Python counterpart; arithmetic is written in the same order, so scores are the same floats.

Functions called from one place only are `inline="always"` (compile time: cache.py).
"""
from __future__ import annotations

from ..engine import cards as C
from . import layout as K
from .cache import njit  # (also registers the numba cache locator before any @njit)
from .heur_board import (
    BD_NOW,
    BD_OP,
    BLOCKED,
    INF,
    N_OPS,
    W_AVOID_HORROR,
    W_CV,
    W_DIG,
    W_HINDER,
    W_MEAN_DRAW,
    W_NEED_STAR,
    W_NEED_WALK,
    W_PARALYSE,
    W_PROGRESS,
    board_after,
    dist,
    key_add,
    key_free,
    key_strict,
    plan_cost,
    public_cost,
    same_board,
)

# --- the facts: X (int64) -------------------------------------------------------------------------
X_ME = 0          # the deciding seat (obs.player)
X_ACTOR = 1       # the seat whose hand and avatar the decision is about (obs.acting_for)
X_HORROR = 2      # the Horror's seat (-1: none yet)
X_N = 3           # players
X_FK = 4          # the decision frame's kind (F_*: obs.decision)
X_F = 5           # the decision frame's offset in M
X_REM = 6         # _Facts.remaining()
X_HAVE_BASE = 7   # 1 once XF[XF_BASE] holds value() now
X_HAND = 8        # the actor's hand: count per kind (obs.hand)
X_H2 = X_HAND + K.N_KINDS     # a hypothetical hand
X_WHERE = X_H2 + K.N_KINDS    # where each seat stands (obs.where)
X_W2 = X_WHERE + K.MAX_SEATS  # a hypothetical `where`
X_KEY = X_W2 + K.MAX_SEATS    # the actor's plan-cost key now (_Facts.k), 11 ints
X_BOARD = X_KEY + 11          # 1 once row BD_NOW holds a board of this game's rules (kept across decisions)
X_BGEN = X_BOARD + 1          # the number of the board in row BD_NOW (+1 at each new board)
X_OPGEN = X_BGEN + 1          # per location: the X_BGEN its Vertigo boards were made at (0: never) ...
X_OPN = X_OPGEN + K.N_LOC     # ... and their number
X_SIZE = X_OPN + K.N_LOC
# --- XF (float64) ---------------------------------------------------------------------------------
XF_SIGN = 0       # 1.0, or -1.0 when acting for a captured rival
XF_CS = 1         # card values of the actor's hand (_Facts.cs)
XF_BASE = 2       # value() now
XF_GEN = 3        # the memo's generation: entries of an older one are stale (another board, or
                  # another seat's need weights)
MEMO = 128        # the plan costs on the board now, per (key, location), direct-mapped:
XF_MK = 4         # the entry's key code,
XF_MG = XF_MK + MEMO  # the decision it was worked out at,
XF_MV = XF_MG + MEMO  # the plan cost (the Python heuristic keeps them in the board's memo)
XF_NEED = XF_MV + MEMO  # the need_walk, need_star and need_vertigo weights the memo's plan costs used
XF_SIZE = XF_NEED + 3

#: P_DRAW: chance that a card drawn is a Dreamwalk / Vertigo / Midnight Star (policies.context._P_DRAW)
P_DW = 36 / 102
P_VERT = 12 / 102
P_STAR = 12 / 102


@njit(cache=True, error_model="numpy", _nrt=False)
def pc(M, BD, W, XF, b, key, x):
    """plan_cost(b, key, x), remembered for the board now (a pure function of the board, the key,
    x and the need weights: kept across decisions while they stay the same, as the Python
    heuristic keeps it in the board's memo)."""
    if b != BD_NOW or key[2] >= 32 or key[3] >= 32 or key[4] >= 32 or key[5] >= 8:
        return plan_cost(M, BD, W, b, key, x)
    code = x + 16 * (key[2] + 32 * (key[3] + 32 * (key[4] + 32 * (key[5] + 8 * (
        key[0] + 2 * (key[1] + 2 * (key[6] + 2 * (key[7] + 2 * (key[8] + 2 * (key[9] + 2 * key[10]))))))))))
    slot = (code ^ (code >> 7) ^ (code >> 14) ^ (code >> 21)) & (MEMO - 1)
    if XF[XF_MG + slot] == XF[XF_GEN] and XF[XF_MK + slot] == code:
        return XF[XF_MV + slot]
    c = plan_cost(M, BD, W, b, key, x)
    XF[XF_MK + slot] = code
    XF[XF_MG + slot] = XF[XF_GEN]
    XF[XF_MV + slot] = c
    return c


@njit(cache=True, error_model="numpy", _nrt=False)
def get_key(X):
    o = X_KEY
    return (X[o], X[o + 1], X[o + 2], X[o + 3], X[o + 4], X[o + 5], X[o + 6], X[o + 7], X[o + 8], X[o + 9],
            X[o + 10])


@njit(cache=True, error_model="numpy", _nrt=False)
def profile(M, X, h, gone, blue_gone):
    """_Facts.profile: the plan-cost key of the actor holding the hand at X[h:h + N_KINDS]."""
    actor = X[X_ACTOR]
    hs = X[X_HORROR]
    horror = 1 if actor == hs else 0
    nm = 0
    blue = 0
    if not horror:
        for k in range(C.RED, K.N_KINDS):
            if k != C.BLACK:
                nm += X[h + k]
        nm = nm - gone
        if nm < 0:
            nm = 0
        blue = 0 if blue_gone else (M[K.G_BLUE] >> actor) & 1
    sq = mo = th1 = 0
    if nm or blue:  # _Facts.tail(): may the Square / the Motel take a nightmare, the Town Hall takes one
        sq = 1 if M[K.G_DISC_N] > 0 else 0
        for q in range(X[X_N]):
            if q != actor and q != hs and M[K.O_HSIZE + q] > 0:
                mo = 1
        th1 = 1  # Rules.town_hall_discards == "one" (the kernel's rules)
    return (0, horror, X[h + C.DREAMWALK], X[h + C.STAR], X[h + C.VERTIGO], nm, blue, sq, mo, th1, 1)


@njit(cache=True, error_model="numpy", _nrt=False)
def card_sum(W, X, h):
    s = 0.0
    for k in range(K.N_KINDS):
        for _ in range(X[h + k]):
            s += W[W_CV + k]
    return s


@njit(cache=True, error_model="numpy", _nrt=False)
def rest(M, BD, W, X, b, wo):
    """_Facts.rest: the leading rival's route on board b, the Horror's company (places at X[wo:])."""
    me, actor, hs, n = X[X_ME], X[X_ACTOR], X[X_HORROR], X[X_N]
    lead = BLOCKED
    for q in range(n):
        if q != me and q != actor:
            pc = public_cost(BD, b, X[wo + q], q == hs)
            if pc < lead:
                lead = pc
    r = W[W_HINDER] * min(lead, 8.0)
    if me == hs:
        here = X[wo + hs]
        victims = 0
        for q in range(n):
            if q != me and X[wo + q] == here:
                victims += 1
        r += min(W[W_PARALYSE] * victims, 0.8 * W[W_PROGRESS])
    return r


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def blue_deadlock(M, X, horror_at):
    if horror_at != C.TOWN_HALL:
        return False
    mids = ((1 << X[X_N]) - 1) & ~(1 << X[X_HORROR])
    return M[K.G_BLUE] & mids == mids


@njit(cache=True, error_model="numpy", _nrt=False)
def value(M, BD, W, X, XF, b, wo, key, cs):
    """_Facts.value: my view of the position (board b, places X[wo:], the actor's key and card values)."""
    me, actor, h = X[X_ME], X[X_ACTOR], X[X_HORROR]
    x = X[wo + actor]
    cost = pc(M, BD, W, XF, b, key, x)
    v = XF[XF_SIGN] * (-W[W_PROGRESS] * cost + 0.1 * cs) + rest(M, BD, W, X, b, wo)
    if h >= 0 and h != me and X[wo + me] == X[wo + h]:
        # standing with the Horror paralyses me from my next turn on, unless I win before
        if not (actor == me and cost <= X[X_REM] and pc(M, BD, W, XF, b, key_free(key), x) == cost) \
                and not blue_deadlock(M, X, X[wo + h]):
            v -= W[W_AVOID_HORROR]
    return v


@njit(cache=True, error_model="numpy", _nrt=False)
def base(M, BD, W, X, XF):
    if not X[X_HAVE_BASE]:
        XF[XF_BASE] = value(M, BD, W, X, XF, BD_NOW, X_WHERE, get_key(X), XF[XF_CS])
        X[X_HAVE_BASE] = 1
    return XF[XF_BASE]


@njit(cache=True, error_model="numpy", _nrt=False)
def moved(X, seat, to):
    """X_W2 := where, with `seat` at `to`; its offset."""
    for q in range(K.MAX_SEATS):
        X[X_W2 + q] = X[X_WHERE + q]
    X[X_W2 + seat] = to
    return X_W2


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_copy(X):
    """X_H2 := the actor's hand."""
    for k in range(K.N_KINDS):
        X[X_H2 + k] = X[X_HAND + k]


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_value(M, BD, W, X, XF, gone):
    """_Facts.hand_value of the hand at X_H2 (nightmares_gone=gone)."""
    return value(M, BD, W, X, XF, BD_NOW, X_WHERE, profile(M, X, X_H2, gone, False), card_sum(W, X, X_H2))


@njit(cache=True, error_model="numpy", _nrt=False)
def hand_delta(M, BD, W, X, XF, k2, dcs):
    """_Facts.hand_delta: value() with the actor's key k2 and card values + dcs, less value() now."""
    me, h = X[X_ME], X[X_HORROR]
    if h >= 0 and h != me and X[X_WHERE + me] == X[X_WHERE + h]:  # the Horror's company: in full
        return value(M, BD, W, X, XF, BD_NOW, X_WHERE, k2, XF[XF_CS] + dcs) - base(M, BD, W, X, XF)
    x = X[X_WHERE + X[X_ACTOR]]
    c0 = pc(M, BD, W, XF, BD_NOW, get_key(X), x)
    return XF[XF_SIGN] * (W[W_PROGRESS] * (c0 - pc(M, BD, W, XF, BD_NOW, k2, x)) + 0.1 * dcs)


@njit(cache=True, error_model="numpy", _nrt=False)
def minus(M, BD, W, X, XF, kind):
    return hand_delta(M, BD, W, X, XF, key_add(get_key(X), kind, -1), -W[W_CV + kind])


@njit(cache=True, error_model="numpy", _nrt=False)
def draw_gain(M, BD, W, X, XF, key):
    """_Facts.draw_gain: the expected gain of drawing one card into a hand of plan-cost key `key`."""
    x = X[X_WHERE + X[X_ACTOR]]
    b0 = pc(M, BD, W, XF, BD_NOW, key, x)
    gain = 0.0
    gain += P_DW * (b0 - pc(M, BD, W, XF, BD_NOW, key_add(key, C.DREAMWALK, 1), x))
    gain += P_VERT * (b0 - pc(M, BD, W, XF, BD_NOW, key_add(key, C.VERTIGO, 1), x))
    gain += P_STAR * (b0 - pc(M, BD, W, XF, BD_NOW, key_add(key, C.STAR, 1), x))
    return XF[XF_SIGN] * W[W_DIG] * (W[W_PROGRESS] * gain + 0.1 * W[W_MEAN_DRAW])


@njit(cache=True, error_model="numpy", _nrt=False)
def stuck(M, BD, W, X, XF):
    """_Facts.stuck: my turn would end unused while my plan lacks cards."""
    if X[X_ACTOR] != X[X_ME] or X[X_FK] != K.F_TURN:
        return False
    x = X[X_WHERE + X[X_ME]]
    k = get_key(X)
    return pc(M, BD, W, XF, BD_NOW, key_free(k), x) < pc(M, BD, W, XF, BD_NOW, k, x)


@njit(cache=True, error_model="numpy", _nrt=False)
def leader(BD, X):
    """_Facts.leader: the rival closest to winning, from public information (-1: none)."""
    best, bc = -1, BLOCKED + 1
    for q in range(X[X_N]):
        if q != X[X_ME]:
            c = public_cost(BD, BD_NOW, X[X_WHERE + q], q == X[X_HORROR])
            if c < bc:
                best, bc = q, c
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def closeness(BD, X, seat):
    return 4.0 / public_cost(BD, BD_NOW, X[X_WHERE + seat], seat == X[X_HORROR])


@njit(cache=True, error_model="numpy", _nrt=False)
def is_rival(X, seat):
    me = X[X_ME]
    return seat != me and (me == X[X_HORROR] or seat != X[X_HORROR])


@njit(cache=True, error_model="numpy", _nrt=False)
def nightmares_in(M, X, h):
    """Nightmares but the Black in the hand at X[h:] (RED <= k != BLACK)."""
    c = 0
    for k in range(C.RED, K.N_KINDS):
        if k != C.BLACK:
            c += X[h + k]
    return c


# --- Vertigo ------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def op_boards(M, BD, X, loc):
    """_Facts.op_boards: the distinct boards one Vertigo operation on `loc` makes, other than the
    board now, into rows BD_OP + loc * N_OPS ..; their number (duplicates among them are kept:
    only maxima are taken over them). Made once per board now (X_BGEN), like the Python memo."""
    if X[X_OPGEN + loc] == X[X_BGEN]:
        return X[X_OPN + loc]
    row = BD_OP + loc * N_OPS
    cell = M[K.O_CELL_OF + loc]
    nb_ = 0
    for o in range(K.NO_MOVE):  # op_ops: the moves onto the grid, then the rotations (vertigo_rotation="any")
        if o < K.VOP_ROTATE and M[K.O_NB + cell * K.N_DIRS + o] < 0:
            continue
        board_after(M, BD, row + nb_, BD_NOW, loc, o)
        if not same_board(M, BD, row + nb_, BD_NOW):
            nb_ += 1
    X[X_OPGEN + loc] = X[X_BGEN]
    X[X_OPN + loc] = nb_
    return nb_


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def op_cost(M, BD, W, b, key, x):
    """One entry of _Facts.op_costs: my plan cost (key, at x) on an op board b."""
    if key[5] or key[6]:  # nightmares or the Blue: the general way
        return plan_cost(M, BD, W, b, key, x)
    goal = C.TOWN_HALL if key[1] else C.BRIDGE
    d = dist(BD, b, goal, x)
    f = dist(BD, b, C.FOREST, x)
    nw = 0.0 if key[0] else W[W_NEED_WALK]
    ns = 0.0 if key[0] else W[W_NEED_STAR]
    Wn, Sn = key[2], key[3]
    c = BLOCKED
    if d < INF:
        c = d + 1.0
        if d > Wn:
            c += nw * (d - Wn)
        if Sn < 1:
            c += ns
    if f < INF:
        c2 = f + 2.0
        if f > Wn:
            c2 += nw * (f - Wn)
        if Sn < 2:
            c2 += ns * (2 - Sn)
        if c2 < c:
            c = c2
    elif d >= INF and key[10]:
        c = plan_cost(M, BD, W, b, key, x)
    return c


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def best_vertigo(M, BD, W, X, XF, loc):
    """_Facts.best_vertigo: the best value() one Vertigo card played on `loc` reaches."""
    k = key_add(get_key(X), C.VERTIGO, -1)
    x = X[X_WHERE + X[X_ACTOR]]
    ks = key_strict(k)
    if pc(M, BD, W, XF, BD_NOW, ks, x) < BLOCKED:  # my route exists: one the Vertigo blocks is just blocked
        k = ks
    nb_ = op_boards(M, BD, X, loc)
    row = BD_OP + loc * N_OPS
    sign = XF[XF_SIGN]
    f = -sign * W[W_PROGRESS]
    best = 0.0
    for i in range(nb_):
        v = f * op_cost(M, BD, W, row + i, k, x) + rest(M, BD, W, X, row + i, X_WHERE)
        if i == 0 or v > best:
            best = v
    if nb_ == 0:  # nothing a Vertigo here would change
        return base(M, BD, W, X, XF) - 0.1 * sign * W[W_CV + C.VERTIGO]
    return best + sign * 0.1 * (XF[XF_CS] - W[W_CV + C.VERTIGO])
