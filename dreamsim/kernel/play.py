"""Midnighters batch kernel, part 3: dispatch (the engine's LEGAL / APPLY / FINISH / AUTO
tables), the game loop with the built-in random policy, the deal, and many games per call.
"""
from __future__ import annotations

import numpy as np

from simcore.stream_kernel import below, seed_streams

from ..engine import cards as C
from ..engine.cards import COMPOSITION as _COMPOSITION
from . import layout as K
from .cache import GAME_LOOPS, njit  # (also registers the numba cache locator before any @njit)
from .core import (
    apply_vop,
    hand_add,
    hand_remove,
    has_nightmare,
    push,
    refill,
    shuffle,
    shuffle_in_nightmares,
    takeable,
    to_discard,
    top,
)
from .frames import (
    NO_MOVE,
    add,
    blind_discard,
    mix,
    night_apply,
    night_finish,
    partner_legal,
    react_apply,
    react_finish,
    react_legal,
    rest_legal,
    startrap_apply,
    startrap_legal,
    surplus_legal,
    take_from_discard,
    take_legal,
    traps_apply,
    traps_legal,
    turn_apply,
    turn_legal,
    vop_legal,
)
from .turn import (
    act_run,
    begin_turn,
    play_done,
    resolve,
    start_play,
    turn_finish,
)

ARROWS_NP = np.array(C.ARROW_MASK, dtype=np.int64)
#: the 96 director cards, by kind (cards.director_cards)
DIRECTORS = np.array([k for k in range(C.SU_BRIDGE + 1) for _ in range(_COMPOSITION[k])], dtype=np.int64)
assert len(DIRECTORS) == C.N_DIRECTOR
#: per-game outputs: GAME_FIELDS per game, SEAT_FIELDS per seat (K.N_STATS stats, then the Bridge distance)
GAME_FIELDS = ("winner", "turns", "decisions", "timed_out", "woke", "horror_won", "horror_seat", "timeout_cause")
(OUT_WINNER, OUT_TURNS, OUT_DECISIONS, OUT_TIMED_OUT, OUT_WOKE, OUT_HORROR_WON, OUT_HORROR_SEAT,
 OUT_CAUSE) = range(len(GAME_FIELDS))
OUT_BRIDGE = K.N_STATS  # the per-seat column after the stats: Dreamwalk steps to the Bridge at the end
SEAT_FIELDS = OUT_BRIDGE + 1
#: timeout causes as codes: 0 = not timed out, then game.TIMEOUT_CAUSES in order
TC_FROZEN, TC_PARALYSED, TC_BLUE, TC_NIGHTMARE, TC_NO_DIRECTOR, TC_OTHER = 1, 2, 3, 4, 5, 6


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def legal(M, f, k):
    """The legal actions of decision frame `f` (kind k) into the buffer; their number."""
    if k == K.F_TURN:
        return turn_legal(M, f)
    if k == K.F_REACT:
        return react_legal(M, f)
    if k == K.F_TRAPS:
        return traps_legal(M, f)
    if k == K.F_SURPLUS:
        return surplus_legal(M, f)
    if k == K.F_VOP:
        return vop_legal(M, f)
    if k == K.F_PARTNER:
        return partner_legal(M, f)
    if k == K.F_STARTRAP:
        return startrap_legal(M, f)
    n = 0
    if k == K.F_FOREST:
        here = M[K.O_WHERE + M[f + K.FR_SEAT]]
        for loc in range(K.N_LOC):
            if loc != here:
                n = add(M, n, K.A_TO, loc, 0)
    elif k == K.F_SQUARE:
        if M[K.G_DISC_N] > 0:
            n = take_legal(M, K.O_DISC, M[f + K.SQUARE_TAKEN], True)
    elif k == K.F_MOTEL_T:
        b = M[f + K.FR_SEAT]
        for t in range(M[K.G_N]):
            if t != b and t != M[K.G_HORROR]:
                n = add(M, n, K.A_TARGET, t, 0)
    elif k == K.F_MOTEL_TAKE:
        n = take_legal(M, K.O_HAND + M[f + K.MTAKE_TARGET] * K.N_KINDS, M[f + K.MTAKE_TAKEN], False)
    elif k == K.F_REST:
        n = rest_legal(M, f)
    elif k == K.F_REST_N:
        for c in range(1, min(K.REST_MAX, takeable(M, M[f + K.RESTN_TARGET])) + 1):
            n = add(M, n, K.A_COUNT, c, 0)
    elif k == K.F_TH:
        h = K.O_HAND + M[f + K.FR_SEAT] * K.N_KINDS
        for kind in range(C.RED, K.N_KINDS):
            if kind != C.BLACK and M[h + kind] > 0:
                n = add(M, n, K.A_DISCARD, kind, 0)
    elif k == K.F_WTRAP_T:
        q = M[f + K.FR_DEC]
        loc = M[f + K.WTRAP_LOC]
        seen_q = False
        for t in range(M[K.G_N]):
            if M[K.O_WHERE + t] == loc:
                n = add(M, n, K.A_TARGET, t, 0)
                seen_q = seen_q or t == q
        if not seen_q:  # dreamwalk_trap_self="corridor": "or move yourself"
            n = add(M, n, K.A_TARGET, q, 0)
    elif k == K.F_WTRAP_TO:
        w = M[K.O_WHERE + M[f + K.WTO_TARGET]]
        for c in range(K.N_CORRIDORS):
            if c != w:
                n = add(M, n, K.A_TO, c, 0)
    elif k == K.F_VTRAP:
        loc = M[f + K.VTRAP_LOC]
        if M[f + K.VTRAP_STAGE] == 0:  # move (vertigo_trap_optional=False), then rotate
            cell = M[K.O_CELL_OF + loc]
            for d in range(K.N_DIRS):
                if M[K.O_NB + cell * K.N_DIRS + d] >= 0:
                    n = add(M, n, K.A_VOP, d, 0)
            if n == 0:
                n = add(M, n, K.A_VOP, NO_MOVE, 0)
        else:
            for op in range(K.VOP_ROTATE, NO_MOVE):
                n = add(M, n, K.A_VOP, op, 0)
    elif k == K.F_DTRAP:
        q = M[f + K.FR_DEC]
        loc = M[f + K.DTRAP_LOC]
        for t in range(M[K.G_N]):
            if t != q and M[K.O_WHERE + t] == loc:
                n = add(M, n, K.A_TARGET, t, 0)
    elif k == K.F_NIGHT:
        while M[f + K.NIGHT_POS] < M[f + K.FR_ASK_N]:
            q = M[f + K.FR_ASK + M[f + K.NIGHT_POS]]
            if M[K.O_TRAPS + (q * K.N_LOC + C.TOWN_HALL) * K.N_PARTNERS + C.STAR] > 0:
                M[f + K.FR_DEC] = q
                n = add(M, 0, K.A_SPRING, C.TOWN_HALL, C.STAR)
                return add(M, n, K.A_HOLD, 0, 0)
            M[f + K.NIGHT_POS] += 1
    elif k == K.F_PLACE:
        for c in range(K.N_CORRIDORS):
            n = add(M, n, K.A_TO, c, 0)
    return n


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def apply(M, rs, f, k, code, a, b):
    """Apply legal action (code, a, b) at decision frame `f` (the engine's APPLY table)."""
    if k == K.F_TURN:
        turn_apply(M, rs, f, code, a)
    elif k == K.F_REACT:
        react_apply(M, f, code)
    elif k == K.F_TRAPS:
        traps_apply(M, f, code, a, b)
    elif k == K.F_SURPLUS:
        p = M[f + K.FR_SEAT]
        hand_remove(M, p, a)
        if code == K.A_GIVE:
            hand_add(M, M[f + K.SUR_OTHER], a)
        else:
            to_discard(M, a)
    elif k == K.F_VOP:
        p = M[f + K.FR_SEAT]
        loc = M[f + K.VOP_LOC]
        M[K.G_SP] -= 1
        start_play(M, rs, p, K.P_VERT, loc, a, 1, C.VERTIGO, 0, True)
    elif k == K.F_PARTNER:
        p = M[f + K.FR_SEAT]
        loc = M[f + K.PARTNER_LOC]
        M[K.G_SP] -= 1
        hand_remove(M, p, a)
        M[K.O_OWED + p] += 1
        start_play(M, rs, p, K.P_TRAP, loc, a, 2, loc - K.SU_TO_LOC, a, True)  # cancel_trap_setting=True
    elif k == K.F_STARTRAP:
        startrap_apply(M, f, code)
    elif k == K.F_FOREST:
        M[K.G_SP] -= 1
        M[K.O_WHERE + M[f + K.FR_SEAT]] = a
    elif k == K.F_SQUARE:
        if code == K.A_STOP:
            M[K.G_SP] -= 1
        else:
            take_from_discard(M, M[f + K.FR_SEAT], a)
            M[f + K.SQUARE_TAKEN] += 1
    elif k == K.F_MOTEL_T:
        d = M[f + K.FR_DEC]
        bb = M[f + K.FR_SEAT]
        M[K.G_SP] -= 1
        g = push(M, K.F_SURPLUS)
        M[g + K.FR_DEC] = d
        M[g + K.FR_SEAT] = bb
        M[g + K.SUR_MODE] = K.S_GIVE
        M[g + K.SUR_OTHER] = a
        g = push(M, K.F_MOTEL_TAKE)
        M[g + K.FR_DEC] = d
        M[g + K.FR_SEAT] = bb
        M[g + K.MTAKE_TARGET] = a
    elif k == K.F_MOTEL_TAKE:
        if code == K.A_STOP:
            M[K.G_SP] -= 1
        else:
            hand_remove(M, M[f + K.MTAKE_TARGET], a)
            hand_add(M, M[f + K.FR_SEAT], a)
            M[f + K.MTAKE_TAKEN] += 1
    elif k == K.F_REST:
        M[K.G_SP] -= 1
        if code == K.A_MIX:
            mix(M, rs)
        else:
            d = M[f + K.FR_DEC]
            bb = M[f + K.FR_SEAT]
            g = push(M, K.F_REST_N)
            M[g + K.FR_DEC] = d
            M[g + K.FR_SEAT] = bb
            M[g + K.RESTN_TARGET] = a
    elif k == K.F_REST_N:
        M[K.G_SP] -= 1
        blind_discard(M, rs, M[f + K.RESTN_TARGET], a)
    elif k == K.F_TH:
        M[K.G_SP] -= 1
        hand_remove(M, M[f + K.FR_SEAT], a)
        to_discard(M, a)
    elif k == K.F_WTRAP_T:
        q = M[f + K.FR_DEC]
        loc = M[f + K.WTRAP_LOC]
        M[K.G_SP] -= 1
        g = push(M, K.F_WTRAP_TO)
        M[g + K.FR_DEC] = q
        M[g + K.WTO_TARGET] = a
        M[g + K.WTO_LOC] = loc
    elif k == K.F_WTRAP_TO:
        M[K.G_SP] -= 1
        M[K.O_WHERE + M[f + K.WTO_TARGET]] = a
    elif k == K.F_VTRAP:
        apply_vop(M, M[f + K.VTRAP_LOC], a)
        if M[f + K.VTRAP_STAGE] == 0:
            M[f + K.VTRAP_STAGE] = 1
        else:
            M[K.G_SP] -= 1
    elif k == K.F_DTRAP:
        M[K.G_SP] -= 1
        q = M[f + K.FR_DEC]
        w = M[K.O_WHERE + q]
        M[K.O_WHERE + q] = M[K.O_WHERE + a]
        M[K.O_WHERE + a] = w
    elif k == K.F_NIGHT:
        night_apply(M, f, code)
    elif k == K.F_PLACE:
        victims = M[f + K.PLACE_VICTIMS]
        q = 0
        while not (victims >> q) & 1:
            q += 1
        M[K.O_WHERE + q] = a
        M[f + K.PLACE_VICTIMS] = victims & ~(1 << q)
        if M[f + K.PLACE_VICTIMS] == 0:
            M[K.G_SP] -= 1


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def finish(M, rs, f, k):
    """A decision frame with no legal action left (the engine's FINISH table)."""
    if k == K.F_TURN:
        M[K.G_SP] -= 1
        turn_finish(M, rs)
    elif k == K.F_REACT:
        react_finish(M)
    elif k == K.F_NIGHT:
        night_finish(M, rs, f)
    else:
        M[K.G_SP] -= 1


@njit(cache=True, error_model="numpy", _nrt=False, inline=GAME_LOOPS)
def auto(M, rs, f, k):
    """Frames that need no decision (the engine's AUTO table)."""
    if k == K.F_NEXT:
        M[K.G_SP] -= 1
        begin_turn(M, rs)
    elif k == K.F_RESOLVE:
        M[K.G_SP] -= 1
        if M[f + K.RES_STATUS] == K.RESOLVES:
            resolve(M, rs, M[f + K.RES_P], M[f + K.RES_TYPE], M[f + K.RES_A1], M[f + K.RES_A2], M[f + K.RES_NC],
                    M[f + K.RES_C0], M[f + K.RES_C0 + 1])
    elif k == K.F_PLAYDONE:
        M[K.G_SP] -= 1
        play_done(M, rs, M[f + K.PLAYDONE_P])
    elif k == K.F_ACT:
        M[K.G_SP] -= 1
        act_run(M, M[f + K.ACT_LOC], M[f + K.ACT_B], M[f + K.ACT_REMOTE])
    elif k == K.F_REFILL:
        if refill(M, rs, M[f + K.REFILL_P]):
            M[K.G_SP] -= 1


# --- the game loop ------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", _nrt=False, python_calls=True)
def run(M, rs, max_decisions):
    """Advance to the end of the game with the random policy in every seat: at each decision a
    uniform choice among the distinct legal actions (policies.RandomPolicy). Stops early after
    `max_decisions` decisions (-1: no limit), resting at a decision."""
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
        i = below(rs, 1 + M[K.G_CUR], n)  # RandomPolicy: one draw from the seat's stream
        base = K.O_ACTS + K.ACTS_W * i
        M[K.G_DECS] += 1
        apply(M, rs, f, k, M[base + K.AC_CODE], M[base + K.AC_A], M[base + K.AC_B])


@njit(cache=True, error_model="numpy", python_calls=True)
def deal(M, rs):
    """engine.new_game for the supported rules: the layout, everyone in the start Corridor, hands
    of K.R_HAND director cards, then the six nightmares shuffled into the deck (after_deal)."""
    n = M[K.G_N]
    cells = M[K.G_NCELLS]
    rows = M[K.G_ROWS]
    cols = M[K.G_COLS]
    for i in range(K.G_RNG_CALLS + 1):  # the game scalars (the rule parameters follow them)
        M[i] = 0
    M[K.G_N] = n
    M[K.G_NCELLS] = cells
    M[K.G_ROWS] = rows
    M[K.G_COLS] = cols
    for name in (K.G_CTRL, K.G_HORROR, K.G_WINNER, K.G_WOKE):
        M[name] = -1
    M[K.O_CELL_OF:K.O_CELL_OF + K.N_LOC] = 0
    for c in range(cells):
        loc = M[K.O_INIT_GRID + c]
        M[K.O_GRID + c] = loc
        if loc >= 0:
            M[K.O_CELL_OF + loc] = c
    # element by element (and the deck below): numba compiles an array-to-slice copy with its shape-mismatch
    # error message, about 2 CPU s of every first compilation
    for loc in range(K.N_LOC):
        M[K.O_ROT + loc] = M[K.O_INIT_ROT + loc]
    for q in range(K.MAX_SEATS):
        M[K.O_WHERE + q] = M[K.R_START_LOC + q] if q < n else -1
    M[K.O_HAND:K.O_HAND + K.MAX_SEATS * K.N_KINDS] = 0
    M[K.O_HSIZE:K.O_HSIZE + K.MAX_SEATS] = 0
    M[K.O_DISC:K.O_DISC + K.N_KINDS] = 0
    M[K.O_TRAPS:K.O_TRAPN + K.MAX_SEATS] = 0
    M[K.O_DEBT:K.O_DEBT + K.MAX_SEATS] = 0
    M[K.O_OWED:K.O_OWED + K.MAX_SEATS] = 0
    M[K.O_STATS:K.O_STATS + K.N_STATS * K.MAX_SEATS] = 0
    nd = len(DIRECTORS)
    for i in range(nd):
        M[K.O_DECK + i] = DIRECTORS[i]
    shuffle(M, rs, K.O_DECK, nd)
    top_ = nd
    for _ in range(M[K.R_HAND]):
        for q in range(n):
            top_ -= 1
            hand_add(M, q, M[K.O_DECK + top_])
    M[K.G_DECK_N] = top_
    M[K.G_RESERVE] = 1
    if M[K.R_NIGHTMARES] == K.NM_AFTER_DEAL:
        shuffle_in_nightmares(M, rs)
    M[K.G_TURNS] = -1
    push(M, K.F_NEXT)


@njit(cache=True, error_model="numpy")
def bridge_distance(M, loc):
    """Dreamwalk steps from `loc` to the Bridge on the current board (NO_ROUTE: no route)."""
    dist = np.full(K.N_LOC, K.NO_ROUTE, dtype=np.int64)
    dist[C.BRIDGE] = 0
    for step in range(1, K.N_LOC):
        changed = False
        for x in range(K.N_LOC):
            if dist[x] != K.NO_ROUTE:
                continue
            cell = M[K.O_CELL_OF + x]
            arrows = ARROWS_NP[x, M[K.O_ROT + x]]
            for d in range(K.N_DIRS):
                if (arrows >> d) & 1:
                    c2 = M[K.O_NB + cell * K.N_DIRS + d]
                    if c2 >= 0:
                        t = M[K.O_GRID + c2]
                        if t >= 0 and dist[t] == step - 1:
                            dist[x] = step
                            changed = True
                            break
        if not changed:
            break
    return dist[loc]


@njit(cache=True, error_model="numpy")
def timeout_cause(M):
    """game.timeout_cause as a code (TC_*)."""
    n = M[K.G_N]
    h = M[K.G_HORROR]
    if h >= 0:
        director = False
        for k in range(C.RED):
            if M[K.O_HAND + h * K.N_KINDS + k] > 0:
                director = True
        if not director:
            return TC_FROZEN
        together = True
        for q in range(n):
            if q != h and M[K.O_WHERE + q] != M[K.O_WHERE + h]:
                together = False
        if together:
            return TC_PARALYSED
    blue = True
    nightmare = True
    no_director = False
    for q in range(n):
        if q == h:
            continue
        if not (M[K.G_BLUE] >> q) & 1:
            blue = False
        if not has_nightmare(M, q):
            nightmare = False
        if M[K.O_HSIZE + q] == M[K.O_HAND + q * K.N_KINDS + C.RED:K.O_HAND + (q + 1) * K.N_KINDS].sum():
            no_director = True
    if blue:
        return TC_BLUE
    if nightmare:
        return TC_NIGHTMARE
    if no_director:
        return TC_NO_DIRECTOR
    return TC_OTHER


@njit(cache=True, error_model="numpy")
def record_game(M, g, out_game, out_seat):
    """Game g's per-game and per-seat results (the finished game in M) into the outputs."""
    n = M[K.G_N]
    timed_out = M[K.G_TIMEOUT]
    out_game[g, OUT_WINNER] = -1 if timed_out else M[K.G_WINNER]
    out_game[g, OUT_TURNS] = M[K.G_TURNS] if timed_out else M[K.G_TURNS] + 1
    out_game[g, OUT_DECISIONS] = M[K.G_DECS]
    out_game[g, OUT_TIMED_OUT] = timed_out
    out_game[g, OUT_WOKE] = M[K.G_WOKE]
    out_game[g, OUT_HORROR_WON] = M[K.G_HWON]
    out_game[g, OUT_HORROR_SEAT] = M[K.G_HORROR]
    out_game[g, OUT_CAUSE] = timeout_cause(M) if timed_out else 0
    for q in range(n):
        for s in range(K.N_STATS):
            out_seat[g, q, s] = M[K.O_STATS + s * K.MAX_SEATS + q]
        out_seat[g, q, OUT_BRIDGE] = bridge_distance(M, M[K.O_WHERE + q])


@njit(cache=True, error_model="numpy", python_calls=True)
def play_games(M, seeds, out_game, out_seat):
    """Play one game per seed (M holds the rules); per-game and per-seat results into the outputs."""
    rs = np.zeros(1 + K.MAX_SEATS, dtype=np.uint64)
    for g in range(len(seeds)):
        seed_streams(rs, seeds[g])
        deal(M, rs)
        run(M, rs, -1)
        record_game(M, g, out_game, out_seat)


# --- single steps (tests: the kernel against the engine at the same position) -------------------
@njit(cache=True, error_model="numpy", python_calls=True)
def legal_top(M):
    """The legal actions of the decision on top of the stack (into the buffer); their number."""
    f = top(M)
    return legal(M, f, M[f + K.FR_KIND])


@njit(cache=True, error_model="numpy", python_calls=True)
def apply_top(M, rs, code, a, b):
    """Apply one legal action at the decision on top, then advance to the next decision."""
    f = top(M)
    M[K.G_DECS] += 1
    apply(M, rs, f, M[f + K.FR_KIND], code, a, b)
    run(M, rs, 0)
