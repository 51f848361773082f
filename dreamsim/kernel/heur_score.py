"""Midnighters batch kernel, part 6: the heuristic's score of each kind of action
(`policies.scoring._Context`'s scoring methods and `play_threat` compiled), read from the facts of
the decision (`heur`). `score` is the `_SCORE` table by the kernel's action code.

Functions called from one place only are `inline="always"` (compile time: cache.py).
"""
from __future__ import annotations

from ..engine import cards as C
from . import layout as K
from .cache import njit  # (also registers the numba cache locator before any @njit)
from .heur import (
    X_ACTOR,
    X_F,
    X_FK,
    X_H2,
    X_HAND,
    X_HORROR,
    X_ME,
    X_N,
    X_W2,
    X_WHERE,
    XF_CS,
    XF_SIGN,
    base,
    best_vertigo,
    card_sum,
    closeness,
    draw_gain,
    get_key,
    hand_copy,
    hand_delta,
    hand_value,
    is_rival,
    leader,
    minus,
    moved,
    nightmares_in,
    pc,
    profile,
    stuck,
    value,
)
from .heur_board import (
    BD_G1,
    BD_G2,
    BD_NOW,
    W_BLOCK,
    W_BLOCK_WALK,
    W_CAPTURE,
    W_CATCHER_VALUE,
    W_CV,
    W_DUTCH_EXTRA,
    W_DUTCH_REDUCE,
    W_DUTCH_VALUE,
    W_HINDER,
    W_PROGRESS,
    W_RESPOND_COST,
    W_SHED,
    W_SPRING_MIN,
    W_STEAL,
    W_TRAP,
    W_TRAP_STAR_BRIDGE,
    W_TRAP_WALK_BRIDGE,
    W_WASTE,
    W_WIN,
    board_after,
    key_add,
    key_free,
)


# --- scoring --------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_walk(M, BD, W, X, XF, d):
    actor = X[X_ACTOR]
    loc = X[X_WHERE + actor]
    to = M[K.O_GRID + M[K.O_NB + M[K.O_CELL_OF + loc] * K.N_DIRS + d]]
    wo = moved(X, actor, to)
    return value(M, BD, W, X, XF, BD_NOW, wo, key_add(get_key(X), C.DREAMWALK, -1),
                 XF[XF_CS] - W[W_CV + C.DREAMWALK]) - base(M, BD, W, X, XF)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_discard(M, BD, W, X, XF, kind):
    fk = X[X_FK]
    if fk == K.F_TURN:  # dig: an action for a card from the deck
        return minus(M, BD, W, X, XF, kind) + draw_gain(M, BD, W, X, XF, key_add(get_key(X), kind, -1)) - 0.05
    if fk == K.F_TH:
        return 0.0
    # a surplus card: keep the best hand (a nightmare may go only at the Square)
    if kind >= C.RED and M[X[X_F] + K.SUR_MODE] != K.S_ANY:
        return -1000.0
    return minus(M, BD, W, X, XF, kind) + (W[W_SHED] if kind >= C.RED else 0.0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_give(M, BD, W, X, XF, kind):
    v = minus(M, BD, W, X, XF, kind)
    other = M[X[X_F] + K.SUR_OTHER]
    if kind >= C.RED:
        return v + (W[W_SHED] if is_rival(X, other) else 0.0)
    return v - (0.1 * W[W_CV + kind] if is_rival(X, other) else 0.0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_take(M, BD, W, X, XF, kind):
    v = hand_delta(M, BD, W, X, XF, key_add(get_key(X), kind, 1), W[W_CV + kind])
    if X[X_FK] == K.F_MOTEL_TAKE:
        v += 0.05 * W[W_CV + kind]  # and the rival loses it
    return v


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_star(M, BD, W, X, XF):
    actor = X[X_ACTOR]
    hs = X[X_HORROR]
    loc = X[X_WHERE + actor]
    sign = XF[XF_SIGN]
    hand_copy(X)
    if X[X_H2 + C.STAR] > 0:
        X[X_H2 + C.STAR] -= 1
    if loc == C.BRIDGE:  # legal only when it wakes
        return sign * W[W_WIN]
    if loc == C.TOWN_HALL:
        if actor == hs:
            return sign * W[W_WIN]
        k = profile(M, X, X_H2, 1, True)  # town_hall_discards="one": one nightmare goes
        for kind in range(C.RED, K.N_KINDS):
            if kind != C.BLACK and X[X_H2 + kind] > 0:
                X[X_H2 + kind] -= 1
                break
        v = value(M, BD, W, X, XF, BD_NOW, X_WHERE, k, card_sum(W, X, X_H2))
        if ((M[K.G_RED] | M[K.G_SLOW]) >> actor) & 1:  # the Town Hall lifts a Red or a Colourless
            v += sign * W[W_PROGRESS]
        return v - base(M, BD, W, X, XF)
    if loc == C.FOREST:
        k = profile(M, X, X_H2, 0, False)
        cs = card_sum(W, X, X_H2)
        best = 0.0
        first = True
        for to in range(K.N_LOC):
            if to != loc:
                v = value(M, BD, W, X, XF, BD_NOW, moved(X, actor, to), k, cs)
                if first or v > best:
                    best = v
                    first = False
        return best - base(M, BD, W, X, XF)
    if loc == C.SQUARE or loc == C.MOTEL:
        if loc == C.SQUARE:
            pool = M[K.G_DISC_N]
        else:
            pool = 0
            for q in range(X[X_N]):
                if q != actor and q != hs and M[K.O_HSIZE + q] > pool:
                    pool = M[K.O_HSIZE + q]
        nm = nightmares_in(M, X, X_H2)
        gone = min(nm, 3, pool)
        # the three cards taken: the Stars and Dreamwalks the plan lacks, as far as a pool of this
        # size holds them on average
        room = 3
        for i in range(2):
            kind = C.STAR if i == 0 else C.DREAMWALK
            share = 12 / 96 if i == 0 else 36 / 96
            m = min(room, int(pool * share + 0.5))
            for _ in range(m):
                before = hand_value(M, BD, W, X, XF, 0)
                X[X_H2 + kind] += 1
                if hand_value(M, BD, W, X, XF, 0) > before + 1e-9:
                    room -= 1
                else:
                    X[X_H2 + kind] -= 1
        if gone >= nm:
            for kind in range(C.RED, K.N_KINDS):
                if kind != C.BLACK:
                    X[X_H2 + kind] = 0
        v = hand_value(M, BD, W, X, XF, gone) - base(M, BD, W, X, XF)
        if loc == C.MOTEL:
            for q in range(X[X_N]):
                if is_rival(X, q):
                    v += 0.1 * W[W_HINDER]
                    break
        return v if v > 0 else v + W[W_WASTE]
    if loc == C.RESTAURANT:
        near = 0
        zone = near_zone(M)
        for q in range(X[X_N]):
            if q != hs and (zone >> M[K.O_WHERE + q]) & 1 and is_rival(X, q):
                near += 1
        v = hand_value(M, BD, W, X, XF, 0) - base(M, BD, W, X, XF)
        return v + W[W_HINDER] * 3 * near + (0.0 if near else W[W_WASTE])
    return W[W_WASTE]


@njit(cache=True, error_model="numpy", _nrt=False)
def near_zone(M):
    """The Bridge and the locations next to it, as a bit set of locations (Observation.near_bridge)."""
    bc = M[K.O_CELL_OF + C.BRIDGE]
    zone = 1 << C.BRIDGE
    for d in range(K.N_DIRS):
        c2 = M[K.O_NB + bc * K.N_DIRS + d]
        if c2 >= 0 and M[K.O_GRID + c2] >= 0:
            zone |= 1 << M[K.O_GRID + c2]
    return zone


@njit(cache=True, error_model="numpy", _nrt=False)
def trap_bonus(W, loc, kind):
    v = W[W_TRAP] - 0.5 * W[W_CV + kind]
    if loc == C.BRIDGE and kind == C.STAR:
        v += W[W_TRAP_STAR_BRIDGE]
    if loc == C.BRIDGE and kind == C.DREAMWALK:
        v += W[W_TRAP_WALK_BRIDGE]
    if loc == C.TOWN_HALL and kind == C.STAR:
        v += W[W_TRAP] * 0.5
    return v


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_set_trap(M, BD, W, X, XF, loc):
    if X[X_ACTOR] != X[X_ME]:
        return -5.0
    su = W[W_CV + loc - K.SU_TO_LOC]  # the Suspense card of loc
    bv = -1e9
    for k in range(K.N_PARTNERS):  # best_partner
        if X[X_HAND + k] > 0:
            v = trap_bonus(W, loc, k) + minus(M, BD, W, X, XF, k) - 0.1 * XF[XF_SIGN] * su
            if v > bv:
                bv = v
    return bv - (W[W_PROGRESS] * 0.5 if W[W_TRAP] <= 0 else 0.0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_extra(M, BD, W, X, XF):
    """An extra action is worth it if my whole plan fits in this turn with it."""
    actor = X[X_ACTOR]
    if actor != X[X_ME]:
        return -5.0
    hand_copy(X)
    if X[X_H2 + C.DUTCH] > 0:
        X[X_H2 + C.DUTCH] -= 1
    k = profile(M, X, X_H2, 0, False)
    x = X[X_WHERE + actor]
    cost = pc(M, BD, W, XF, BD_NOW, k, x)
    have = M[K.G_AL]
    complete = pc(M, BD, W, XF, BD_NOW, key_free(k), x) == cost  # no card missing
    if complete and have < cost <= have + 1:
        return W[W_WIN] * 0.3
    return W[W_DUTCH_EXTRA]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_reduce(M, BD, W, X, target):
    return (W[W_DUTCH_REDUCE] * closeness(BD, X, target) if target == leader(BD, X) else -5.0) \
        - 0.1 * W[W_DUTCH_VALUE]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_steal(M, BD, W, X, XF, target):
    v = (W[W_STEAL] * closeness(BD, X, target) if is_rival(X, target) else -5.0) - 0.1 * W[W_CATCHER_VALUE]
    if X[X_ACTOR] == X[X_ME] and M[K.O_HSIZE + target] and stuck(M, BD, W, X, XF):
        # a card taken blindly is a card drawn from a hand: as good a dig as the deck's
        v += draw_gain(M, BD, W, X, XF, key_add(get_key(X), C.CATCHER, -1))
    return v


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def play_threat(M, BD, W, X):
    """policies.scoring.play_threat: how much I want the play being reacted to NOT to happen."""
    me, hs = X[X_ME], X[X_HORROR]
    pf = X[X_F] - K.FRAME_W  # the play (F_RESOLVE) beneath its reaction window
    actor, ptype = M[pf + K.RES_P], M[pf + K.RES_TYPE]
    if actor == me:
        return -W[W_BLOCK]
    if M[K.G_CTRL] == me and actor == M[K.G_TP]:
        return 0.0
    rival = me == hs or actor != hs
    if ptype == K.P_STAR:
        loc = M[pf + K.RES_A1]
        if loc == C.BRIDGE and actor != hs:
            if M[K.O_TRAPS + (me * K.N_LOC + C.BRIDGE) * K.N_PARTNERS + C.STAR] > 0 and me != hs:
                clean = True
                for k in range(C.RED, K.N_KINDS):
                    if M[K.O_HAND + me * K.N_KINDS + k] > 0:
                        clean = False
                if clean:
                    return -W[W_WIN]  # my Star trap will steal the waking
            return W[W_BLOCK]
        if loc == C.TOWN_HALL and actor == hs:
            return W[W_BLOCK]
        if loc == C.FOREST and rival and W[W_BLOCK_WALK] != 0 and actor == leader(BD, X):
            return W[W_BLOCK_WALK] * 2
        return 0.0
    if ptype == K.P_WALK and rival and W[W_BLOCK_WALK] != 0:
        if actor == leader(BD, X):
            return W[W_BLOCK_WALK] * closeness(BD, X, actor)
    return 0.0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_react(M, BD, W, X, code):
    """HeuristicPolicy._reaction_scorer (= _Context.score_react) for Cancel / Intercept / Allow."""
    if code == K.A_ALLOW:
        return 0.0
    threat = play_threat(M, BD, W, X)
    resolves = M[K.G_CHAIN_N] % 2 == 0
    if resolves == (threat < 0) or abs(threat) < 1e-9:
        return -W[W_RESPOND_COST]
    return abs(threat) - W[W_RESPOND_COST] + (1.0 if code == K.A_INTERCEPT else 0.0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_spring(M, BD, W, X, XF, loc, kind):
    me = X[X_ME]
    n = X[X_N]
    if kind == C.STAR:
        if X[X_FK] == K.F_NIGHT:  # "Town Hall trap against a nightmare"
            if me == X[X_HORROR]:
                return -1.0
            card = M[X[X_F] + K.NIGHT_KIND]
            return 20.0 if card == C.COLOURLESS or card == C.BLUE or card == C.PURPLE or card == C.RED else -1.0
        if loc == C.BRIDGE:
            return W[W_WIN]
        return 10.0
    b0 = base(M, BD, W, X, XF)
    k = get_key(X)
    cs = XF[XF_CS]
    if kind == C.DREAMWALK:
        best = -1e9
        for q in range(n):
            if X[X_WHERE + q] == loc or q == me:
                for c in range(K.N_CORRIDORS):
                    best = max(best, value(M, BD, W, X, XF, BD_NOW, moved(X, q, c), k, cs) - b0)
        return best - W[W_SPRING_MIN]
    if kind == C.VERTIGO:
        best = b0
        cell = M[K.O_CELL_OF + loc]
        for o in range(K.NO_MOVE):  # op_ops(loc) (vertigo_trap_optional=False: move, then rotate)
            if o < K.VOP_ROTATE and M[K.O_NB + cell * K.N_DIRS + o] < 0:
                continue
            board_after(M, BD, BD_G1, BD_NOW, loc, o)
            for r in range(K.VOP_ROTATE, K.NO_MOVE):
                board_after(M, BD, BD_G2, BD_G1, loc, r)
                best = max(best, value(M, BD, W, X, XF, BD_G2, X_WHERE, k, cs))
        return best - b0 - W[W_SPRING_MIN]
    if kind == C.DUTCH:
        best = -1e9
        for q in range(n):
            if q != me and X[X_WHERE + q] == loc:
                for s in range(K.MAX_SEATS):
                    X[X_W2 + s] = X[X_WHERE + s]
                X[X_W2 + q], X[X_W2 + me] = X[X_WHERE + me], X[X_WHERE + q]
                best = max(best, value(M, BD, W, X, XF, BD_NOW, X_W2, k, cs) - b0)
        return best - W[W_SPRING_MIN]
    if kind == C.CATCHER:
        v = M[K.G_TP]
        return (W[W_CAPTURE] * closeness(BD, X, v) if is_rival(X, v) else -5.0) - W[W_SPRING_MIN] + 6.0
    return -1.0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_to(M, BD, W, X, XF, loc):
    fk = X[X_FK]
    f = X[X_F]
    k = get_key(X)
    cs = XF[XF_CS]
    if fk == K.F_FOREST:
        return value(M, BD, W, X, XF, BD_NOW, moved(X, X[X_ACTOR], loc), k, cs)
    if fk == K.F_PLACE:
        victims = M[f + K.PLACE_VICTIMS]
        q = 0
        while not (victims >> q) & 1:
            q += 1
        return value(M, BD, W, X, XF, BD_NOW, moved(X, q, loc), k, cs)
    if fk == K.F_WTRAP_TO:
        return value(M, BD, W, X, XF, BD_NOW, moved(X, M[f + K.WTO_TARGET], loc), k, cs)
    return 0.0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_target(M, BD, W, X, XF, seat):
    fk = X[X_FK]
    if fk == K.F_MOTEL_T:
        if nightmares_in(M, X, X_HAND) > 0:
            return 5.0 + closeness(BD, X, seat) if is_rival(X, seat) else 0.0
        return (closeness(BD, X, seat) if is_rival(X, seat) else -1.0) + M[K.O_HSIZE + seat] * 0.1
    if fk == K.F_REST:
        return closeness(BD, X, seat) * 3 if is_rival(X, seat) else -5.0
    k = get_key(X)
    cs = XF[XF_CS]
    if fk == K.F_WTRAP_T:
        b0 = base(M, BD, W, X, XF)
        best = 0.0
        for c in range(K.N_CORRIDORS):
            v = value(M, BD, W, X, XF, BD_NOW, moved(X, seat, c), k, cs)
            if c == 0 or v > best:
                best = v
        return best - b0
    if fk == K.F_DTRAP:
        me = X[X_ME]
        for s in range(K.MAX_SEATS):
            X[X_W2 + s] = X[X_WHERE + s]
        X[X_W2 + seat], X[X_W2 + me] = X[X_WHERE + me], X[X_WHERE + seat]
        return value(M, BD, W, X, XF, BD_NOW, X_W2, k, cs)
    return 0.0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def score_mix(M, X, W):
    me, hs = X[X_ME], X[X_HORROR]
    zone = near_zone(M)
    me_near = False
    rival_near = False
    for q in range(X[X_N]):
        if q != hs and (zone >> M[K.O_WHERE + q]) & 1:
            if q == me:
                me_near = True
            if is_rival(X, q):
                rival_near = True
    if me_near:
        for k in range(C.RED, K.N_KINDS):
            if k != C.BLACK and M[K.O_HAND + me * K.N_KINDS + k] > 0:
                return W[W_SHED] * 0.5
    return 1.0 if rival_near else -1.0


@njit(cache=True, error_model="numpy", _nrt=False)
def score(M, BD, W, X, XF, code, a, b):
    """_SCORE[type(action)](context, action) for the kernel's action (code, a, b)."""
    if code == K.A_PASS or code == K.A_ALLOW or code == K.A_HOLD or code == K.A_STOP:
        return 0.0
    if code == K.A_WALK:
        return score_walk(M, BD, W, X, XF, a)
    if code == K.A_DISCARD:
        return score_discard(M, BD, W, X, XF, a)
    if code == K.A_VERT:
        return best_vertigo(M, BD, W, X, XF, a) - base(M, BD, W, X, XF)
    if code == K.A_VOP:
        fk = X[X_FK]
        loc = M[X[X_F] + (K.VOP_LOC if fk == K.F_VOP else K.VTRAP_LOC)]
        board_after(M, BD, BD_G1, BD_NOW, loc, a)
        return value(M, BD, W, X, XF, BD_G1, X_WHERE, get_key(X), XF[XF_CS]) - base(M, BD, W, X, XF)
    if code == K.A_STAR:
        return score_star(M, BD, W, X, XF)
    if code == K.A_CANCEL or code == K.A_INTERCEPT:
        return score_react(M, BD, W, X, code)
    if code == K.A_SPRING:
        return score_spring(M, BD, W, X, XF, a, b)
    if code == K.A_SETTRAP:
        return score_set_trap(M, BD, W, X, XF, a)
    if code == K.A_PARTNER:
        return trap_bonus(W, M[X[X_F] + K.PARTNER_LOC], a) + minus(M, BD, W, X, XF, a)
    if code == K.A_DEXTRA:
        return score_extra(M, BD, W, X, XF)
    if code == K.A_DREDUCE:
        return score_reduce(M, BD, W, X, a)
    if code == K.A_STEAL:
        return score_steal(M, BD, W, X, XF, a)
    if code == K.A_TO:
        return score_to(M, BD, W, X, XF, a)
    if code == K.A_TARGET:
        return score_target(M, BD, W, X, XF, a)
    if code == K.A_TAKE:
        return score_take(M, BD, W, X, XF, a)
    if code == K.A_GIVE:
        return score_give(M, BD, W, X, XF, a)
    if code == K.A_MIX:
        return score_mix(M, X, W)
    if code == K.A_COUNT:
        return float(a) if is_rival(X, M[X[X_F] + K.RESTN_TARGET]) else float(-a)
    return 0.0
