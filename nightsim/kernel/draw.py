"""Drawing and discarding, and the small state helpers of the Nightmarium batch kernel (numba):
the deck with its reshuffle, hands, creatures and the frame stack. The random streams are
`simcore.stream_kernel`'s (the numbers the Python engine's `simcore.stream.Stream` draws). The
layout of the arrays is `layout.py`; the rules built on these, `core.py` and
`abilities.py`.
"""
from __future__ import annotations

from simcore.kernel_cache import njit
from simcore.stream_kernel import seed_streams, shuffle  # noqa: F401  (seed_streams: core.seed_streams)

from .cache import INLINE  # (also registers the numba cache locator before any @njit)
from .layout import (
    CR_CARDS,
    CRC,
    CRID,
    CRLEN,
    CRN,
    DECK,
    DISC,
    FITS,
    FMAX,
    FR,
    FR_KIND,
    FR_PLAYER,
    FW,
    G_DECK_N,
    G_DISC_N,
    G_FR_N,
    G_PICK_N,
    G_RESHUFFLES,
    HAND,
    HAND_N,
    HEAD,
    LEGS,
    LM,
    N_STATS,
    NCM,
    PICKED,
    RS_CHANCE,
    S_DISCARDED,
    S_DRAWN,
    STATS,
    TORSO,
)


# ============================================================================ cards and creatures
@njit(cache=True, _nrt=False, inline=INLINE)
def _hand_remove(st, p, card):
    n = st[HAND_N + p]
    i = 0
    while st[HAND + p * NCM + i] != card:
        i += 1
    for j in range(i, n - 1):
        st[HAND + p * NCM + j] = st[HAND + p * NCM + j + 1]
    st[HAND_N + p] = n - 1


@njit(cache=True, _nrt=False, inline=INLINE)
def complete_count(st, p):
    c = 0
    for k in range(st[CRN + p]):
        if st[CRLEN + p * LM + k] == CR_CARDS:
            c += 1
    return c


@njit(cache=True, _nrt=False, inline=INLINE)
def _find(st, p, cid):
    for k in range(st[CRN + p]):
        if st[CRID + p * LM + k] == cid:
            return k
    return -1


@njit(cache=True, _nrt=False)
def _remove_creature(st, p, k):
    n = st[CRN + p]
    for j in range(k, n - 1):
        st[CRC + (p * LM + j) * CR_CARDS + LEGS] = st[CRC + (p * LM + j + 1) * CR_CARDS + LEGS]
        st[CRC + (p * LM + j) * CR_CARDS + TORSO] = st[CRC + (p * LM + j + 1) * CR_CARDS + TORSO]
        st[CRC + (p * LM + j) * CR_CARDS + HEAD] = st[CRC + (p * LM + j + 1) * CR_CARDS + HEAD]
        st[CRLEN + p * LM + j] = st[CRLEN + p * LM + j + 1]
        st[CRID + p * LM + j] = st[CRID + p * LM + j + 1]
    st[CRN + p] = n - 1


@njit(cache=True, _nrt=False)
def _push(st, kind, player):
    i = st[G_FR_N]
    if i >= FMAX:
        raise RuntimeError("nightsim kernel: frame stack overflow")
    st[FR + (i) * FW + FR_KIND] = kind
    st[FR + (i) * FW + FR_PLAYER] = player
    st[G_FR_N] = i + 1
    return i


@njit(cache=True, _nrt=False)
def _fits_somewhere(st, tb, p, card, limit):
    """Whether `card` has a placement for seat p (engine:_placements is not empty)."""
    for k in range(st[CRN + p]):
        n = st[CRLEN + p * LM + k]
        if n < CR_CARDS and tb[FITS + card * CR_CARDS + n]:
            return True
    return tb[FITS + card * CR_CARDS + LEGS] != 0 and st[CRN + p] < limit


# ============================================================================ drawing and discarding
@njit(cache=True, _nrt=False, inline=INLINE)
def _draw_card(st, rs):
    """The top card; an empty deck takes the shuffled discard pile; -1 when both are empty."""
    if st[G_DECK_N] == 0:
        n = st[G_DISC_N]
        if n == 0:
            return -1
        for i in range(n):
            st[DECK + i] = st[DISC + i]
        shuffle(st, DECK, n, rs, RS_CHANCE)   # state._draw_card: the pile, Fisher-Yates with chance's stream
        st[G_DECK_N] = n
        st[G_DISC_N] = 0
        st[G_RESHUFFLES] += 1
    st[G_DECK_N] -= 1
    return st[DECK + st[G_DECK_N]]


@njit(cache=True, _nrt=False, inline=INLINE)
def _draw_into_hand(st, rs, p, k):
    got = 0
    for _ in range(k):
        c = _draw_card(st, rs)
        if c < 0:
            break
        st[HAND + p * NCM + st[HAND_N + p]] = c
        st[HAND_N + p] += 1
        got += 1
    st[STATS + p * N_STATS + S_DRAWN] += got
    return got


@njit(cache=True, _nrt=False)
def _discard_and_draw(st, tb, rs, p):
    """Action 2: discard the chosen X cards (in the chosen order), draw X // 2."""
    m = st[G_PICK_N]
    for j in range(m):
        _hand_remove(st, p, st[PICKED + j])
        st[DISC + st[G_DISC_N]] = st[PICKED + j]
        st[G_DISC_N] += 1
    st[STATS + p * N_STATS + S_DISCARDED] += m
    st[G_PICK_N] = 0
    _draw_into_hand(st, rs, p, m // 2)
