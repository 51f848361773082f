"""The abilities' chain and the pure-legion penalty of the Nightmarium batch kernel (numba):
a completed creature's activation frame, head first, each ability carried out or pushed as the
decision it needs (engine:_activation_step, engine/creatures.py), and the opponents' penalty discards
(engine/penalty.py). `core.py` calls these from applying an action and advancing.
"""
from __future__ import annotations

from simcore.kernel_cache import njit

from .cache import INLINE  # (also registers the numba cache locator before any @njit)
from .draw import (
    _draw_card,
    _draw_into_hand,
    _find,
    _fits_somewhere,
    _hand_remove,
    _push,
)
from .layout import (
    ABILITY,
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
    EXECUTIONER,
    F_DEVOUR,
    F_EXEC,
    F_HERALD,
    F_MOCKER,
    F_PENALTY,
    F_SCAV,
    FR,
    FR_PLAYER,
    FW,
    G_DISC_N,
    G_FR_N,
    HAND,
    HAND_N,
    HER_N,
    HER_R,
    HERALD,
    LEGION,
    LM,
    MOCKER,
    N_STATS,
    NCM,
    P_LIMIT,
    P_PLAYERS,
    PEN_LEFT,
    PEN_LEGION,
    PEN_OF_LEGION,
    PEN_V,
    PEN_VN,
    PRM,
    S_ABILITY,
    S_DISCARDED,
    SCAVENGER,
    STATS,
    WEEPER,
)


# ============================================================================ the pure-legion penalty
@njit(cache=True, _nrt=False)
def _push_penalty(st, tb, p, lg):
    i = _push(st, F_PENALTY, p)
    n = tb[PRM + P_PLAYERS]
    st[FR + (i) * FW + PEN_LEGION] = lg
    st[FR + (i) * FW + PEN_LEFT] = 0
    st[FR + (i) * FW + PEN_OF_LEGION] = 0
    st[FR + (i) * FW + PEN_VN] = n - 1
    for j in range(1, n):
        st[FR + (i) * FW + PEN_V + j - 1] = (p + j) % n


@njit(cache=True, _nrt=False)
def _penalty_pending(st, tb, rs, f):
    """Victims clockwise: one card of the legion, else two cards (or what is left)."""
    if st[FR + f * FW + PEN_LEFT] > 0:
        return True
    lg = st[FR + f * FW + PEN_LEGION]
    while st[FR + f * FW + PEN_VN] > 0:
        v = st[FR + f * FW + PEN_V]
        for i in range(st[HAND_N + v]):
            if tb[LEGION + st[HAND + v * NCM + i]] == lg:
                st[FR + f * FW + PEN_LEFT] = 1
                st[FR + f * FW + PEN_OF_LEGION] = 1
                return True
        if st[HAND_N + v] > 0:
            st[FR + f * FW + PEN_LEFT] = min(2, st[HAND_N + v])
            st[FR + f * FW + PEN_OF_LEGION] = 0
            return True
        _pop_victim(st, f)
    return False


@njit(cache=True, _nrt=False)
def _penalty_discard(st, f, card):
    v = st[FR + f * FW + PEN_V]
    _hand_remove(st, v, card)
    st[DISC + st[G_DISC_N]] = card
    st[G_DISC_N] += 1
    st[STATS + v * N_STATS + S_DISCARDED] += 1
    st[FR + f * FW + PEN_LEFT] -= 1
    if st[FR + f * FW + PEN_LEFT] == 0:
        _pop_victim(st, f)


@njit(cache=True, _nrt=False)
def _pop_victim(st, f):
    vn = st[FR + f * FW + PEN_VN]
    for j in range(vn - 1):
        st[FR + f * FW + PEN_V + j] = st[FR + f * FW + PEN_V + j + 1]
    st[FR + f * FW + PEN_VN] = vn - 1


# ============================================================================ abilities
@njit(cache=True, _nrt=False, inline=INLINE)
def _activation_step(st, tb, rs, f):
    """The next abilities of frame f's creature, head first; a failed one stops the rest; a
    card that left the creature meanwhile is skipped (engine:_activation_step)."""
    p = st[FR + f * FW + FR_PLAYER]
    cid = st[FR + f * FW + ACT_ID]
    while st[FR + f * FW + ACT_QN] > 0:
        st[FR + f * FW + ACT_QN] -= 1
        card = st[FR + f * FW + ACT_Q + st[FR + f * FW + ACT_QN]]
        ab = tb[ABILITY + card]
        if ab < 0:
            continue
        k = _find(st, p, cid)
        if k < 0:
            continue
        there = False
        for j in range(st[CRLEN + p * LM + k]):
            if st[CRC + (p * LM + k) * CR_CARDS + j] == card:
                there = True
        if not there:
            continue
        if _start_ability(st, tb, rs, p, cid, ab):
            st[STATS + p * N_STATS + S_ABILITY + ab] += 1
            if st[G_FR_N] - 1 != f:
                return
        else:
            st[FR + f * FW + ACT_QN] = 0
    if st[G_FR_N] - 1 == f:
        st[G_FR_N] -= 1


@njit(cache=True, _nrt=False, inline=INLINE)
def _start_ability(st, tb, rs, p, cid, ab):
    """Carry out an ability or push the decision it needs; False if it cannot be carried out."""
    if ab == WEEPER:
        return _draw_into_hand(st, rs, p, 2) > 0
    if ab == HERALD:
        c0 = _draw_card(st, rs)
        if c0 < 0:
            return False
        c1 = _draw_card(st, rs)
        i = _push(st, F_HERALD, p)
        st[FR + (i) * FW + HER_R] = c0
        st[FR + (i) * FW + HER_R + 1] = c1
        st[FR + (i) * FW + HER_N] = 1 if c1 < 0 else 2
        return True
    if ab == MOCKER:
        for i in range(st[HAND_N + p]):
            if _fits_somewhere(st, tb, p, st[HAND + p * NCM + i], tb[PRM + P_LIMIT]):
                _push(st, F_MOCKER, p)
                return True
        return False
    n = tb[PRM + P_PLAYERS]
    if ab == EXECUTIONER:
        for o in range(n):
            if o != p and st[CRN + o] > 0:
                _push(st, F_EXEC, p)
                return True
        return False
    if ab == SCAVENGER:
        for o in range(n):
            if o != p:
                for k in range(st[CRN + o]):
                    if st[CRLEN + o * LM + k] < CR_CARDS:
                        _push(st, F_SCAV, p)
                        return True
        return False
    # DEVOURER: one of your *other* creatures
    for k in range(st[CRN + p]):
        if st[CRID + p * LM + k] != cid:
            i = _push(st, F_DEVOUR, p)
            st[FR + (i) * FW + DEV_SRC] = cid
            return True
    return False
