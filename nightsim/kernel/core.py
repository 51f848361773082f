"""The compiled core of the Nightmarium batch kernel (numba, `@njit(cache=True)`).

The same rules as `nightsim/engine/engine.py` (RULES.md section (a); seals excluded), on flat integer
arrays instead of objects, one decision at a time like the engine: legal actions are listed in
the engine's order, a policy picks one, it is applied, and everything that needs no decision
runs until the next one. `nightsim/kernel/play.py` holds the compiled policies and the loop
over whole games, `nightsim/kernel/play_batch.py` the Python side (which rules and policies are supported,
batches, records); `nightsim/kernel/bridge.py` loads an engine `State` into these arrays so
tests can compare both engines on hand-built positions.

Inlining: the functions of one decision (legal_actions, apply_action, advance and the helpers
they call on every decision) are `inline="always"` (`cache.INLINE`: the shipped build), so
`play.play_out` is one function: numba passes each array as a struct of ~7 words, and these
calls cost more than their work
(perf: 4 x greedy 25% faster, 4 x random 35%; the rare helpers stay calls). They remain
callable one by one from Python (tests, the bridge).

Modules: `layout.py` the layout of the arrays (st, tb, actions: named offsets and
fields), `draw.py` random numbers, drawing and discarding and small state helpers,
`abilities.py` the abilities' chain and the pure-legion penalty, this module a
decision (legal actions, applying one, advancing). `core.X` also reads the names of
those modules (module `__getattr__`), so the Python side (`kernel._core()`, the bridge, tests)
sees the kernel as one namespace.
"""
from __future__ import annotations

from simcore.kernel_cache import njit

from . import (
    abilities,  # with draw and layout: what __getattr__ (at the end) forwards to
    cache,  # noqa: F401  (registers the numba cache locator before any @njit)
    draw,
    layout,
)
from .abilities import (
    _activation_step,
    _penalty_discard,
    _penalty_pending,
    _push_penalty,
)
from .cache import INLINE
from .draw import (
    _discard_and_draw,
    _draw_into_hand,
    _fits_somewhere,
    _hand_remove,
    _push,
    _remove_creature,
    complete_count,
)
from .layout import (
    A_DCARD,
    A_DECLINE,
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
    ACT_ID,
    ACT_Q,
    ACT_QN,
    CR_CARDS,
    CRC,
    CRID,
    CRLEN,
    CRN,
    DEV_SRC,
    DISC,
    F_ACT,
    F_DEVOUR,
    F_DISCARD,
    F_EXEC,
    F_HERALD,
    F_MOCKER,
    F_PENALTY,
    F_SCAV,
    FITS,
    FR,
    FR_KIND,
    FR_PLAYER,
    FW,
    G_AL,
    G_CP,
    G_DEC,
    G_DISC_N,
    G_FR_N,
    G_NEXT_ID,
    G_PICK_N,
    G_TERM,
    G_TIMEOUT,
    G_TL,
    G_TP,
    G_TURNS,
    G_WINNER,
    HAND,
    HAND_N,
    HEAD,
    HER_N,
    HER_R,
    LEGION,
    LEGS,
    LM,
    N_STATS,
    NCM,
    P_APT,
    P_FEWER_SEATS,
    P_LIMIT,
    P_MAX_TURNS,
    P_MIN_DISCARD,
    P_PEN_BEFORE,
    P_PLAYERS,
    P_SCAV_OPT,
    P_TO_WIN,
    P_WIN_IMMEDIATE,
    PEN_LEGION,
    PEN_OF_LEGION,
    PEN_V,
    PICKED,
    PRM,
    S_COMPLETED,
    S_LEGION,
    S_PURE,
    STATS,
    TORSO,
)


# ============================================================================ legal actions
@njit(cache=True, _nrt=False, inline=INLINE)
def _emit_placements(st, tb, acts, n, p, card, limit):
    for k in range(st[CRN + p]):
        m = st[CRLEN + p * LM + k]
        if m < CR_CARDS and tb[FITS + card * CR_CARDS + m]:
            acts[n, A_KIND] = A_PLAY
            acts[n, A_X] = card
            acts[n, A_Y] = k
            n += 1
    if tb[FITS + card * CR_CARDS + LEGS] and st[CRN + p] < limit:
        acts[n, A_KIND] = A_PLAY
        acts[n, A_X] = card
        acts[n, A_Y] = -1
        n += 1
    return n


@njit(cache=True, _nrt=False, inline=INLINE)
def _emit(acts, n, kind, x, y):
    acts[n, A_KIND] = kind
    acts[n, A_X] = x
    acts[n, A_Y] = y
    return n + 1


@njit(cache=True, _nrt=False, inline=INLINE)
def legal_actions(st, tb, rs, acts):
    """Fill acts with the legal actions of the current decision, in the engine's order; return their count."""
    limit = tb[PRM + P_LIMIT]
    n = 0
    if st[G_TERM]:
        return 0
    if st[G_FR_N] == 0:
        p = st[G_TP]
        n = _emit(acts, n, A_DRAW, 0, 0)
        if st[HAND_N + p] >= tb[PRM + P_MIN_DISCARD]:
            n = _emit(acts, n, A_START, 0, 0)
        tl = st[G_TL]
        # the seat's creatures by the slot they have open (m cards placed: slot m is next), as bit
        # sets packed in one int (byte m: creatures k with m cards; complete ones land in byte 3),
        # so each card checks three table entries, not every creature. Branch-free: the outcomes
        # of these tests follow the cards, and mispredicted branches cost more than the work
        crn = st[CRN + p]
        opens = 0
        for k in range(crn):
            opens |= 1 << (st[CRLEN + p * LM + k] * LM + k)
        room = 1 if crn < limit else 0
        for i in range(st[HAND_N + p]):
            c = st[HAND + p * NCM + i]
            f = FITS + c * CR_CARDS
            ok = 1 if tl < 0 or tb[LEGION + c] == tl else 0   # the turn's legion, once set
            fit = (opens & -tb[f + LEGS]) | ((opens >> LM) & -tb[f + TORSO]) | ((opens >> (2 * LM)) & -tb[f + HEAD])
            fit &= -ok
            # every creature's row is written; only those the card fits are kept (n advances; bits
            # 0..crn-1 of fit are read, so the other bytes of `opens` need no mask)
            for k in range(crn):
                acts[n, A_KIND] = A_PLAY
                acts[n, A_X] = c
                acts[n, A_Y] = k
                n += (fit >> k) & 1
            acts[n, A_KIND] = A_PLAY
            acts[n, A_X] = c
            acts[n, A_Y] = -1
            n += room & tb[f + LEGS] & ok
        return n
    f = st[G_FR_N] - 1
    kind = st[FR + f * FW + FR_KIND]
    p = st[FR + f * FW + FR_PLAYER]
    if kind == F_DISCARD:
        for i in range(st[HAND_N + p]):
            c = st[HAND + p * NCM + i]
            chosen = False
            for j in range(st[G_PICK_N]):
                if st[PICKED + j] == c:
                    chosen = True
                    break
            if not chosen:
                n = _emit(acts, n, A_DCARD, c, 0)
        if st[G_PICK_N] >= tb[PRM + P_MIN_DISCARD]:
            n = _emit(acts, n, A_STOP, 0, 0)
    elif kind == F_PENALTY:
        v = st[FR + f * FW + PEN_V]
        lg = st[FR + f * FW + PEN_LEGION]
        anyc = 1 - st[FR + f * FW + PEN_OF_LEGION]
        for i in range(st[HAND_N + v]):   # write-always rows, kept when legal (branch-free, as above)
            c = st[HAND + v * NCM + i]
            _emit(acts, n, A_PEN, c, 0)
            n += anyc | (1 if tb[LEGION + c] == lg else 0)
    elif kind == F_HERALD:
        for i in range(st[FR + f * FW + HER_N]):
            n = _emit_placements(st, tb, acts, n, p, st[FR + f * FW + HER_R + i], limit)
    elif kind == F_MOCKER:
        for i in range(st[HAND_N + p]):
            n = _emit_placements(st, tb, acts, n, p, st[HAND + p * NCM + i], limit)
    elif kind == F_EXEC:
        for o in range(tb[PRM + P_PLAYERS]):
            if o != p:
                done = complete_count(st, o)   # A_Z: the owner's complete creatures (score_action)
                for k in range(st[CRN + o]):
                    _emit(acts, n, A_TAKE, o, k)
                    acts[n, A_Z] = done
                    n += 1
    elif kind == F_SCAV:
        for o in range(tb[PRM + P_PLAYERS]):
            if o != p:
                done = complete_count(st, o)
                for k in range(st[CRN + o]):
                    _emit(acts, n, A_SCAV, o, k)
                    acts[n, A_Z] = done
                    n += 1 if st[CRLEN + o * LM + k] < CR_CARDS else 0
        if tb[PRM + P_SCAV_OPT]:
            n = _emit(acts, n, A_DECLINE, 0, 0)
    elif kind == F_DEVOUR:
        src = st[FR + f * FW + DEV_SRC]
        for k in range(st[CRN + p]):
            _emit(acts, n, A_DEVOUR, k, 0)
            n += 1 if st[CRID + p * LM + k] != src else 0
    return n


# ============================================================================ applying an action
@njit(cache=True, _nrt=False)
def _check_win(st, tb, rs, p):
    if complete_count(st, p) >= tb[PRM + P_TO_WIN]:
        st[G_WINNER] = p
        st[G_TERM] = 1
        return True
    return False


@njit(cache=True, _nrt=False, inline=INLINE)
def _place(st, tb, rs, p, card, k):
    """Put a body card on creature k of seat p (-1: a new creature), then check completion."""
    if k < 0:
        k = st[CRN + p]
        st[CRC + (p * LM + k) * CR_CARDS + LEGS] = card
        st[CRLEN + p * LM + k] = 1
        st[CRID + p * LM + k] = st[G_NEXT_ID]
        st[G_NEXT_ID] += 1
        st[CRN + p] = k + 1
    else:
        st[CRC + (p * LM + k) * CR_CARDS + st[CRLEN + p * LM + k]] = card
        st[CRLEN + p * LM + k] += 1
    st[STATS + p * N_STATS + S_LEGION + tb[LEGION + card]] += 1
    if st[CRLEN + p * LM + k] == CR_CARDS:
        _complete(st, tb, rs, p, k)


@njit(cache=True, _nrt=False, inline=INLINE)
def _complete(st, tb, rs, p, k):
    """Activation frame (head, torso, legs) and, for a pure creature, the opponents' penalty."""
    st[STATS + p * N_STATS + S_COMPLETED] += 1
    cr = CRC + (p * LM + k) * CR_CARDS
    a, b, c = st[cr + LEGS], st[cr + TORSO], st[cr + HEAD]
    pure = tb[LEGION + a] == tb[LEGION + b] and tb[LEGION + b] == tb[LEGION + c]
    if pure:
        st[STATS + p * N_STATS + S_PURE] += 1
    if tb[PRM + P_WIN_IMMEDIATE] and _check_win(st, tb, rs, p):
        return
    if pure and not tb[PRM + P_PEN_BEFORE]:
        _push_penalty(st, tb, p, tb[LEGION + a])
    i = _push(st, F_ACT, p)
    st[FR + (i) * FW + ACT_ID] = st[CRID + p * LM + k]
    st[FR + (i) * FW + ACT_Q + LEGS] = a
    st[FR + (i) * FW + ACT_Q + TORSO] = b
    st[FR + (i) * FW + ACT_Q + HEAD] = c
    st[FR + (i) * FW + ACT_QN] = CR_CARDS
    if pure and tb[PRM + P_PEN_BEFORE]:
        _push_penalty(st, tb, p, tb[LEGION + a])


@njit(cache=True, _nrt=False, inline=INLINE)
def _play_from_hand(st, tb, rs, p, card, k):
    _hand_remove(st, p, card)
    _place(st, tb, rs, p, card, k)


@njit(cache=True, _nrt=False, inline=INLINE)
def apply_action(st, tb, rs, acts, idx):
    """Apply legal action acts[idx], then advance to the next decision (engine:apply_legal)."""
    kind = acts[idx, A_KIND]
    x = acts[idx, A_X]
    y = acts[idx, A_Y]
    st[G_DEC] += 1
    if st[G_FR_N] == 0:
        tp = st[G_TP]
        st[G_AL] -= 1
        if kind == A_DRAW:
            _draw_into_hand(st, rs, tp, 1)
        elif kind == A_START:
            _push(st, F_DISCARD, tp)
            st[G_PICK_N] = 0
        else:  # A_PLAY
            st[G_TL] = tb[LEGION + x]
            _play_from_hand(st, tb, rs, tp, x, y)
    else:
        f = st[G_FR_N] - 1
        fk = st[FR + f * FW + FR_KIND]
        p = st[FR + f * FW + FR_PLAYER]
        if fk == F_DISCARD:
            if kind == A_DCARD:
                st[PICKED + st[G_PICK_N]] = x
                st[G_PICK_N] += 1
            else:
                st[G_FR_N] -= 1
                _discard_and_draw(st, tb, rs, p)
        elif fk == F_PENALTY:
            _penalty_discard(st, f, x)
        elif fk == F_HERALD:
            m = st[FR + f * FW + HER_N]
            j = 0
            while st[FR + f * FW + HER_R + j] != x:
                j += 1
            for t in range(j, m - 1):
                st[FR + f * FW + HER_R + t] = st[FR + f * FW + HER_R + t + 1]
            st[FR + f * FW + HER_N] = m - 1
            _place(st, tb, rs, p, x, y)
        elif fk == F_MOCKER:
            st[G_FR_N] -= 1
            _play_from_hand(st, tb, rs, p, x, y)
        elif fk == F_EXEC:
            st[G_FR_N] -= 1
            st[CRLEN + x * LM + y] -= 1
            card = st[CRC + (x * LM + y) * CR_CARDS + st[CRLEN + x * LM + y]]
            st[HAND + p * NCM + st[HAND_N + p]] = card
            st[HAND_N + p] += 1
            if st[CRLEN + x * LM + y] == 0:
                _remove_creature(st, x, y)
        elif fk == F_SCAV:
            st[G_FR_N] -= 1
            if kind == A_SCAV:
                for j in range(st[CRLEN + x * LM + y]):
                    st[DISC + st[G_DISC_N]] = st[CRC + (x * LM + y) * CR_CARDS + j]
                    st[G_DISC_N] += 1
                _remove_creature(st, x, y)
        else:  # F_DEVOUR
            st[G_FR_N] -= 1
            st[CRLEN + p * LM + x] -= 1
            st[DISC + st[G_DISC_N]] = st[CRC + (p * LM + x) * CR_CARDS + st[CRLEN + p * LM + x]]
            st[G_DISC_N] += 1
            if st[CRLEN + p * LM + x] == 0:
                _remove_creature(st, p, x)
    advance(st, tb, rs)


# ============================================================================ advancing
@njit(cache=True, _nrt=False, inline=INLINE)
def advance(st, tb, rs):
    """Run everything that needs no decision; stop at the next decision or the game's end."""
    while not st[G_TERM]:
        if st[G_FR_N] == 0:
            if not tb[PRM + P_WIN_IMMEDIATE] and _check_win(st, tb, rs, st[G_TP]):
                return
            if st[G_AL] > 0:
                st[G_CP] = st[G_TP]
                return
            _end_turn(st, tb)
            continue
        f = st[G_FR_N] - 1
        kind = st[FR + f * FW + FR_KIND]
        if kind == F_ACT:
            _activation_step(st, tb, rs, f)
        elif kind == F_PENALTY:
            if _penalty_pending(st, tb, rs, f):
                st[G_CP] = st[FR + f * FW + PEN_V]
                return
            st[G_FR_N] -= 1
        elif kind == F_HERALD:
            p = st[FR + f * FW + FR_PLAYER]
            can = False
            for i in range(st[FR + f * FW + HER_N]):
                if _fits_somewhere(st, tb, p, st[FR + f * FW + HER_R + i], tb[PRM + P_LIMIT]):
                    can = True
                    break
            if can:
                st[G_CP] = p
                return
            st[G_FR_N] -= 1
            for i in range(st[FR + f * FW + HER_N]):
                st[DISC + st[G_DISC_N]] = st[FR + f * FW + HER_R + i]
                st[G_DISC_N] += 1
        else:
            st[G_CP] = st[FR + f * FW + FR_PLAYER]
            return


@njit(cache=True, _nrt=False)
def _end_turn(st, tb):
    st[G_TURNS] += 1
    if st[G_TURNS] >= tb[PRM + P_MAX_TURNS]:
        st[G_TERM] = 1
        st[G_TIMEOUT] = 1
        return
    st[G_TP] = (st[G_TP] + 1) % tb[PRM + P_PLAYERS]
    st[G_CP] = st[G_TP]
    st[G_AL] = tb[PRM + P_APT]
    if st[G_TURNS] < tb[PRM + P_FEWER_SEATS]:     # design variant: the first round's reduced turns
        st[G_AL] -= 1
    st[G_TL] = -1


def __getattr__(name):
    """The names of layout, draw and abilities as attributes of this module."""
    for module in (layout, draw, abilities):
        if name in vars(module):
            return vars(module)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
