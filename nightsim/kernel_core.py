"""The compiled core of the Nightmarium batch kernel (numba, `@njit(cache=True)`).

The same rules as `nightsim/engine.py` (RULES.md section (a); seals excluded), on flat integer
arrays instead of objects, one decision at a time like the engine: legal actions are listed in
the engine's order, a policy picks one, it is applied, and everything that needs no decision
runs until the next one. `nightsim/kernel_play.py` holds the compiled policies and the loop
over whole games, `nightsim/kernel.py` the Python side (which rules and policies are supported,
batches, records); `nightsim/kernel_bridge.py` loads an engine `State` into these arrays so
tests can compare both engines on hand-built positions.

Inlining: the functions of one decision (legal_actions, apply_action, advance and the helpers
they call on every decision) are `inline="always"`, so `kernel_play.play_out` is one function:
numba passes each array as a struct of ~7 words, and these calls cost more than their work
(perf: 4 x greedy 25% faster, 4 x random 35%; the rare helpers stay calls). They remain
callable one by one from Python (tests, the bridge).

State: one int64 array `st` (one game; reused across the games of a batch) with a fixed layout,
so every function takes three arrays (`st`, the tables `tb`, the random streams `rs`): numba
passes an array as a struct of ~8 words, and a state of 13 arrays made each call cost more
than the work it did. Sizes are fixed maxima (PM seats, LM creatures, NCM cards, FMAX frames);
`nightsim.kernel` refuses rules beyond them.
  st[G_*]                          scalars
  st[DECK + i], i < st[G_DECK_N]   the deck, top = last;  st[DISC + i]: the discard pile, top = last
  st[HAND + p * NCM + i]           hands in the engine's order (append; removing keeps the order)
  st[HAND_N + p]                   cards in hand
  st[CRC + (p * LM + k) * CR_CARDS + j]  creature k of seat p in the engine's list order, cards in build order
  st[CRLEN + p * LM + k]           its number of cards; st[CRID + p * LM + k] its identity (frames
                                   refer to creatures by it); st[CRN + p] creatures of seat p
  st[FR + f * FW + field]          the stack of pending frames, f = st[G_FR_N] - 1 on top
  st[PICKED + j]                   the cards chosen in a discard action under way
  st[STATS + p * N_STATS + s]      the per-seat stats of `GameResult.stats`, in record order
  rs uint64[1 + PM]                random streams: RS_CHANCE (shuffles), RS_SEAT + seat the seat's policy
Tables `tb` (int64): tb[LEGION + c], tb[ABILITY + c], tb[FITS + c * CR_CARDS + slot], tb[PRM + P_*].
Actions: int64 rows (A_KIND, A_X, A_Y, A_Z); see the A_* kinds below.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from . import kernel_cache  # noqa: F401  (registers the numba cache locator before any @njit)

# --- scalars in g ---------------------------------------------------------------------------
G_TP, G_CP, G_AL, G_TL, G_WINNER, G_TERM, G_TIMEOUT, G_TURNS, G_DEC = 0, 1, 2, 3, 4, 5, 6, 7, 8
G_DECK_N, G_DISC_N, G_FR_N, G_PICK_N, G_NEXT_ID, G_RESHUFFLES = 9, 10, 11, 12, 13, 14
G_SIZE = 16
# --- rule parameters in prm -----------------------------------------------------------------
P_PLAYERS, P_HAND, P_APT, P_TO_WIN, P_LIMIT, P_MAX_TURNS = 0, 1, 2, 3, 4, 5
P_PEN_BEFORE, P_WIN_IMMEDIATE, P_SCAV_OPT, P_MIN_DISCARD, P_EXTRA_LAST, P_CARDS = 6, 7, 8, 9, 10, 11
P_FEWER_FIRST, P_FEWER_SEATS = 12, 13   # design variant: a reduced first turn for the first seats
N_PRM = 14
# --- stats columns (the order of GameResult.stats) ------------------------------------------
S_COMPLETED, S_PURE, S_DRAWN, S_DISCARDED, S_SEALS, S_ABILITY, S_LEGION = 0, 1, 2, 3, 4, 5, 11
N_STATS = 15
# --- abilities (nightsim.cards) -------------------------------------------------------------
HERALD, WEEPER, MOCKER, EXECUTIONER, SCAVENGER, DEVOURER = 0, 1, 2, 3, 4, 5
# --- frames ---------------------------------------------------------------------------------
F_DISCARD, F_ACT, F_HERALD, F_MOCKER, F_EXEC, F_SCAV, F_DEVOUR, F_PENALTY = 0, 1, 2, 3, 4, 5, 6, 7
FW = 10          # fields: FR_KIND, FR_PLAYER, then per kind (below)
FR_KIND = 0      # every frame: its kind (F_*)
FR_PLAYER = 1    # every frame: the seat it acts for (F_PENALTY: the owner of the pure creature)
FMAX = 256
# F_ACT: 2 creature id, 3..5 queue (legs, torso, head; popped from the end), 6 queue length
ACT_ID, ACT_Q, ACT_QN = 2, 3, 6
# F_HERALD: 2 number of revealed cards, 3..4 the cards
HER_N, HER_R = 2, 3
# F_DEVOUR: 2 id of the activating creature
DEV_SRC = 2
# F_PENALTY: 2 legion, 3 cards still owed by the first victim, 4 of the legion (1) or any (0),
#            5 victims left, 6..9 the victims, clockwise
PEN_LEGION, PEN_LEFT, PEN_OF_LEGION, PEN_VN, PEN_V = 2, 3, 4, 5, 6
# --- layout of st and tb ------------------------------------------------------------------
PM, LM, NCM = 5, 8, 256   # most seats, creatures per seat and cards the kernel plays
CR_CARDS = 3              # cards of a complete creature, one per slot:
LEGS, TORSO, HEAD = 0, 1, 2   # the slots in build order (nightsim.cards.LEGS ...)
DECK = G_SIZE
DISC = DECK + NCM
HAND = DISC + NCM
HAND_N = HAND + PM * NCM
CRC = HAND_N + PM
CRLEN = CRC + PM * LM * CR_CARDS
CRID = CRLEN + PM * LM
CRN = CRID + PM * LM
FR = CRN + PM
PICKED = FR + FMAX * FW
STATS = PICKED + NCM
ST_SIZE = STATS + PM * N_STATS
LEGION, ABILITY, FITS = 0, NCM, 2 * NCM
PRM = 5 * NCM
TB_SIZE = PRM + N_PRM
AMAX = NCM * (LM + 1) + PM * LM + 8   # more than the legal actions of any decision
# --- actions --------------------------------------------------------------------------------
A_DRAW, A_START, A_PLAY, A_DCARD, A_STOP, A_PEN, A_TAKE, A_SCAV, A_DEVOUR, A_DECLINE = range(10)
A_KIND, A_X, A_Y, A_Z = 0, 1, 2, 3   # PLAY: card, creature (-1 new), slot; TAKE/SCAV: owner, creature
# --- policies -------------------------------------------------------------------------------
POL_RANDOM, POL_HEURISTIC = 0, 1
RS_CHANCE, RS_SEAT = 0, 1   # random streams: chance's, then one per seat (rs[RS_SEAT + seat])
# --- per-game outputs of kernel_play.play_games (out_game columns) ----------------------------
OUT_WINNER, OUT_TURNS, OUT_DECISIONS, OUT_TIMED_OUT = 0, 1, 2, 3
N_OUT = 4
# Weights fields, in nightsim.policies.Weights order
W_COMPLETE, W_EXTEND, W_START, W_SAME, W_MIXED, W_PURE, W_ABIL = 0, 1, 2, 3, 4, 5, 6
W_DRAW, W_DISCARD, W_LEADER, W_SEAL = 12, 13, 14, 15
W_WIN, W_FOLLOW, W_PAIR, W_CROWD, W_MOCKER_CTX, W_EXEC_CTX, W_SCAV_CTX, W_DEVOUR_CTX = range(16, 24)
W_DRAW_HAND, W_DISCARD_DEAD, W_DISCARD_EXTRA, W_DISCARD_VALUE, W_FIT_VALUE, W_THREAT = range(24, 30)
W_EXTRAS = 30   # not a Weights field: 1.0 when a context feature is on (Weights.extras()), else 0.0
N_WEIGHTS = 31

_GOLD = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U30, _U27, _U31, _U11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TWO_M53 = 1.0 / 9007199254740992.0


# ============================================================================ random numbers
@njit(cache=True, _nrt=False, inline="always")
def _mix(z):
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@njit(cache=True, _nrt=False)
def seed_streams(rs, seed):
    """SplitMix64 streams from a game seed: stream i starts at mix(mix(seed) + (i + 1) * golden)."""
    base = _mix(np.uint64(seed) ^ _M2)
    for i in range(rs.shape[0]):
        rs[i] = _mix(base + np.uint64(i + 1) * _GOLD)


@njit(cache=True, _nrt=False, inline="always")
def _rand(rs, i):
    """A float in [0, 1) from stream i (53 bits)."""
    z = rs[i] + _GOLD
    rs[i] = z
    return np.float64(_mix(z) >> _U11) * _TWO_M53


# ============================================================================ small helpers
@njit(cache=True, _nrt=False, inline="always")
def _hand_remove(st, p, card):
    n = st[HAND_N + p]
    i = 0
    while st[HAND + p * NCM + i] != card:
        i += 1
    for j in range(i, n - 1):
        st[HAND + p * NCM + j] = st[HAND + p * NCM + j + 1]
    st[HAND_N + p] = n - 1


@njit(cache=True, _nrt=False, inline="always")
def complete_count(st, p):
    c = 0
    for k in range(st[CRN + p]):
        if st[CRLEN + p * LM + k] == CR_CARDS:
            c += 1
    return c


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
def _draw_card(st, rs):
    """The top card; an empty deck takes the shuffled discard pile; -1 when both are empty."""
    if st[G_DECK_N] == 0:
        n = st[G_DISC_N]
        if n == 0:
            return -1
        for i in range(n):
            st[DECK + i] = st[DISC + i]
        for i in range(n - 1, 0, -1):
            j = int(_rand(rs, RS_CHANCE) * (i + 1))
            t = st[DECK + i]
            st[DECK + i] = st[DECK + j]
            st[DECK + j] = t
        st[G_DECK_N] = n
        st[G_DISC_N] = 0
        st[G_RESHUFFLES] += 1
    st[G_DECK_N] -= 1
    return st[DECK + st[G_DECK_N]]


@njit(cache=True, _nrt=False, inline="always")
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
def _fits_somewhere(st, tb, p, card, limit):
    """Whether `card` has a placement for seat p (engine:_placements is not empty)."""
    for k in range(st[CRN + p]):
        n = st[CRLEN + p * LM + k]
        if n < CR_CARDS and tb[FITS + card * CR_CARDS + n]:
            return True
    return tb[FITS + card * CR_CARDS + LEGS] != 0 and st[CRN + p] < limit


@njit(cache=True, _nrt=False, inline="always")
def _emit_placements(st, tb, acts, n, p, card, limit):
    for k in range(st[CRN + p]):
        m = st[CRLEN + p * LM + k]
        if m < CR_CARDS and tb[FITS + card * CR_CARDS + m]:
            acts[n, A_KIND] = A_PLAY
            acts[n, A_X] = card
            acts[n, A_Y] = k
            acts[n, A_Z] = m
            n += 1
    if tb[FITS + card * CR_CARDS + LEGS] and st[CRN + p] < limit:
        acts[n, A_KIND] = A_PLAY
        acts[n, A_X] = card
        acts[n, A_Y] = -1
        acts[n, A_Z] = 0
        n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def _emit(acts, n, kind, x, y):
    acts[n, A_KIND] = kind
    acts[n, A_X] = x
    acts[n, A_Y] = y
    acts[n, A_Z] = 0
    return n + 1


# ============================================================================ legal actions
@njit(cache=True, _nrt=False, inline="always")
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
        # the seat's creatures with an open slot, as bit sets by the slot they have open (m cards
        # placed: slot m is next), so each card checks three table entries, not every creature
        crn = st[CRN + p]
        open0 = open1 = open2 = 0
        for k in range(crn):
            m = st[CRLEN + p * LM + k]
            if m == LEGS:
                open0 |= 1 << k
            elif m == TORSO:
                open1 |= 1 << k
            elif m == HEAD:
                open2 |= 1 << k
        room = crn < limit
        for i in range(st[HAND_N + p]):
            c = st[HAND + p * NCM + i]
            if tl >= 0 and tb[LEGION + c] != tl:
                continue
            f = FITS + c * CR_CARDS
            fit = ((open0 if tb[f + LEGS] else 0) | (open1 if tb[f + TORSO] else 0)
                   | (open2 if tb[f + HEAD] else 0))
            k = 0
            while fit:
                if fit & 1:
                    acts[n, A_KIND] = A_PLAY
                    acts[n, A_X] = c
                    acts[n, A_Y] = k
                    acts[n, A_Z] = st[CRLEN + p * LM + k]
                    n += 1
                fit >>= 1
                k += 1
            if room and tb[f + LEGS]:
                acts[n, A_KIND] = A_PLAY
                acts[n, A_X] = c
                acts[n, A_Y] = -1
                acts[n, A_Z] = 0
                n += 1
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
        for i in range(st[HAND_N + v]):
            c = st[HAND + v * NCM + i]
            if st[FR + f * FW + PEN_OF_LEGION] == 0 or tb[LEGION + c] == lg:
                n = _emit(acts, n, A_PEN, c, 0)
    elif kind == F_HERALD:
        for i in range(st[FR + f * FW + HER_N]):
            n = _emit_placements(st, tb, acts, n, p, st[FR + f * FW + HER_R + i], limit)
    elif kind == F_MOCKER:
        for i in range(st[HAND_N + p]):
            n = _emit_placements(st, tb, acts, n, p, st[HAND + p * NCM + i], limit)
    elif kind == F_EXEC:
        for o in range(tb[PRM + P_PLAYERS]):
            if o != p:
                for k in range(st[CRN + o]):
                    n = _emit(acts, n, A_TAKE, o, k)
    elif kind == F_SCAV:
        for o in range(tb[PRM + P_PLAYERS]):
            if o != p:
                for k in range(st[CRN + o]):
                    if st[CRLEN + o * LM + k] < CR_CARDS:
                        n = _emit(acts, n, A_SCAV, o, k)
        if tb[PRM + P_SCAV_OPT]:
            n = _emit(acts, n, A_DECLINE, 0, 0)
    elif kind == F_DEVOUR:
        for k in range(st[CRN + p]):
            if st[CRID + p * LM + k] != st[FR + f * FW + DEV_SRC]:
                n = _emit(acts, n, A_DEVOUR, k, 0)
    return n


# ============================================================================ applying an action
@njit(cache=True, _nrt=False)
def _check_win(st, tb, rs, p):
    if complete_count(st, p) >= tb[PRM + P_TO_WIN]:
        st[G_WINNER] = p
        st[G_TERM] = 1
        return True
    return False


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
def _play_from_hand(st, tb, rs, p, card, k):
    _hand_remove(st, p, card)
    _place(st, tb, rs, p, card, k)


@njit(cache=True, _nrt=False, inline="always")
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


# ============================================================================ advancing
@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
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
