"""Midnighters batch kernel, part 4: the heuristic's model of the board (`policies/plan.py` and
`board.WalkGraph` compiled): boards one Vertigo away, Dreamwalk distances, routes that turn a
location where an arrow is missing, the plan cost and a rival's public cost.

A board is one row of the workspace `BD` (`BD_ROWS` rows of `B_SIZE` ints): its grid, cell per
location and rotations, the arrows into each location as bit sets (`B_PRED`), and the distances
worked out so far (`B_DIST`, `B_RC`, `B_RT`, flagged in `B_DHAVE` / `B_RHAVE`). Row `BD_NOW` is
the board of the decision; from `BD_OP` on, N_OPS rows per location: the boards a Vertigo
operation on it makes.

A plan-cost key is the tuple of `policies.plan.plan_cost`'s key with the three weights replaced
by `free` (1: `key_free`, missing cards cost nothing): (free, horror, walks, stars, vertigos,
nightmares, blue, square_ok, motel_ok, town_hall_one, relax) — `KEY_*` name the places. The
Python heuristic memoises all of this per board; the kernel keeps row BD_NOW (its distances), the
plan costs on it and the Vertigo boards of each location (with their distances) from one
decision to the next while the board stays the same, and works the trap's boards (BD_G1, BD_G2)
out again when it needs them (the values are pure functions of the board and the key, so they
are the same).

The heuristic's functions are compiled without numba's reference counting (`_nrt=False`: they
allocate nothing, they only read and write the arrays they are given). With it, the atomic
increments and decrements of the arrays passed at each of their many small calls took ~60% of a
heuristic game's time (perf, 4 x heuristic).

Functions called from one place only are `inline="always"` (compile time: cache.py).
"""
from __future__ import annotations

import numpy as np

from ..engine import cards as C
from . import layout as K
from .cache import njit  # (also registers the numba cache locator before any @njit)

#: ARROWS_NP[loc, rot] -> bit set of the arrow directions (cards.ARROW_MASK)
ARROWS_NP = np.array(C.ARROW_MASK, dtype=np.int64)
#: rotation & ROT_MASK_NP[loc] = the rotation that matters (board._ROT_MASK: a Corridor or the Town Hall
#: turned half round has the same arrows)
ROT_MASK_NP = np.array([1 if C.ARROWS[loc][0] == C.ARROWS[loc][2] else 3 for loc in range(C.N_LOCATIONS)],
                       dtype=np.int64)

#: BIT_INDEX[1 << i] = i for the locations' bits (a set bit's location)
BIT_INDEX = np.zeros(1 << C.N_LOCATIONS, dtype=np.int64)
for _i in range(C.N_LOCATIONS):
    BIT_INDEX[1 << _i] = _i

INF = 99                # policies.plan._INF: no route
BLOCKED = 40.0          # policies.plan._BLOCKED: plan cost when no route leads to the goal

# --- a board row of BD ---------------------------------------------------------------------------
B_GRID = 0                          # location per cell (-1: a gap), K.MAX_CELLS
B_CELL = B_GRID + K.MAX_CELLS       # cell per location
B_ROT = B_CELL + K.N_LOC            # rotation per location
B_PRED = B_ROT + K.N_LOC            # per location: bit set of the locations with an arrow into it
B_DHAVE = B_PRED + K.N_LOC          # per goal: 1 once its distances are in B_DIST
B_DIST = B_DHAVE + K.N_LOC          # [goal][location] Dreamwalk steps (INF: none)
B_RHAVE = B_DIST + K.N_LOC * K.N_LOC  # per goal: 1 once B_RC / B_RT hold it
B_RC = B_RHAVE + K.N_LOC            # [goal][location] actions when a step against the arrows costs 2
B_RT = B_RC + K.N_LOC * K.N_LOC     # [goal][location] ... and among those the fewest turns
B_SIZE = B_RT + K.N_LOC * K.N_LOC
BD_NOW = 0        # the board of the decision
BD_G1 = 1         # a Vertigo trap: the board after its move ...
BD_G2 = 2         # ... and after its rotation
BD_SCRATCH = 3    # scratch of plan_cost: the ways to win (S_OPTS), the legs of a route (S_LEGS, S_SECONDS)
BD_OP = 4         # BD_OP + loc * N_OPS ..: the boards one Vertigo operation on loc makes (kept while
N_OPS = K.NO_MOVE  # the board now stays the same, like their distances)
BD_ROWS = BD_OP + K.N_LOC * N_OPS
S_OPTS = 0        # up to S_MAX_OPTS rows of (walks, turns, stars, via the Town Hall)
S_MAX_OPTS = 16
S_LEGS = S_OPTS + 4 * S_MAX_OPTS    # up to 4 rows of (walks, turns, stars)
S_SECONDS = S_LEGS + 4 * 3
assert S_SECONDS + 4 * 3 <= B_SIZE

# --- plan-cost keys ------------------------------------------------------------------------------
(KEY_FREE, KEY_HORROR, KEY_W, KEY_S, KEY_V, KEY_NM, KEY_BLUE, KEY_SQ, KEY_MO, KEY_TH1, KEY_RELAX) = range(11)

# --- weights: the Weights fields in order (kernel.WEIGHT_FIELDS), then the derived card values ----
(W_PROGRESS, W_HINDER, W_WIN, W_BLOCK, W_BLOCK_WALK, W_RESPOND_COST, W_SHED, W_TRAP, W_TRAP_STAR_BRIDGE,
 W_TRAP_WALK_BRIDGE, W_SPRING_MIN, W_DUTCH_EXTRA, W_DUTCH_REDUCE, W_STEAL, W_CAPTURE, W_PARALYSE, W_AVOID_HORROR,
 W_NEED_WALK, W_NEED_STAR, W_NEED_VERTIGO, W_WASTE, W_STAR_VALUE, W_WALK_VALUE, W_VERTIGO_VALUE, W_DUTCH_VALUE,
 W_CATCHER_VALUE, W_SUSPENSE_VALUE, W_NIGHTMARE_VALUE, W_DIG) = range(29)
N_WEIGHT_FIELDS = 29
W_CV = N_WEIGHT_FIELDS            # Weights.card_value of each kind, K.N_KINDS of them
W_MEAN_DRAW = W_CV + K.N_KINDS    # the mean card value of a card drawn from the published deck
N_W = W_MEAN_DRAW + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def board_pred(M, BD, b):
    """The arrows into each location of board row b (WalkGraph.pred; dreamwalk_return_arrow=False),
    and no distance known yet."""
    for t in range(K.N_LOC):
        BD[b, B_PRED + t] = 0
        BD[b, B_DHAVE + t] = 0
        BD[b, B_RHAVE + t] = 0
    for cell in range(M[K.G_NCELLS]):
        loc = BD[b, B_GRID + cell]
        if loc < 0:
            continue
        arrows = ARROWS_NP[loc, BD[b, B_ROT + loc]]
        for d in range(K.N_DIRS):
            if (arrows >> d) & 1:
                c2 = M[K.O_NB + cell * K.N_DIRS + d]
                if c2 >= 0:
                    t = BD[b, B_GRID + c2]
                    if t >= 0:
                        BD[b, B_PRED + t] |= 1 << loc


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def board_load(M, BD, b):
    """Board row b := the game's board now."""
    for c in range(M[K.G_NCELLS]):
        BD[b, B_GRID + c] = M[K.O_GRID + c]
    for loc in range(K.N_LOC):
        BD[b, B_CELL + loc] = M[K.O_CELL_OF + loc]
        BD[b, B_ROT + loc] = M[K.O_ROT + loc]
    board_pred(M, BD, b)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def board_is(M, BD, b):
    """Board row b is the game's board now (the same grid, cells and rotations)."""
    for c in range(M[K.G_NCELLS]):
        if BD[b, B_GRID + c] != M[K.O_GRID + c]:
            return False
    for loc in range(K.N_LOC):
        if BD[b, B_CELL + loc] != M[K.O_CELL_OF + loc] or BD[b, B_ROT + loc] != M[K.O_ROT + loc]:
            return False
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def board_after(M, BD, dst, src, loc, op):
    """Board row dst := board src after Vertigo operation `op` on `loc` (WalkGraph.after: 0-3
    move that way, 4-6 rotate 1-3 quarter turns clockwise, anything else: unchanged)."""
    for c in range(M[K.G_NCELLS]):
        BD[dst, B_GRID + c] = BD[src, B_GRID + c]
    for x in range(K.N_LOC):
        BD[dst, B_CELL + x] = BD[src, B_CELL + x]
        BD[dst, B_ROT + x] = BD[src, B_ROT + x]
    if op < K.VOP_ROTATE:
        c1 = BD[dst, B_CELL + loc]
        c2 = M[K.O_NB + c1 * K.N_DIRS + op]
        if c2 >= 0:
            other = BD[dst, B_GRID + c2]
            BD[dst, B_GRID + c1] = other
            BD[dst, B_GRID + c2] = loc
            BD[dst, B_CELL + loc] = c2
            if other >= 0:
                BD[dst, B_CELL + other] = c1
    elif op < K.NO_MOVE:
        BD[dst, B_ROT + loc] = (BD[dst, B_ROT + loc] + op - K.VOP_TURN0) % K.N_ROTS
    board_pred(M, BD, dst)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def same_board(M, BD, a, b):
    """Boards a and b are one board (Boards.get: the same grid and the rotations that matter)."""
    for c in range(M[K.G_NCELLS]):
        if BD[a, B_GRID + c] != BD[b, B_GRID + c]:
            return False
    for x in range(K.N_LOC):
        if (BD[a, B_ROT + x] & ROT_MASK_NP[x]) != (BD[b, B_ROT + x] & ROT_MASK_NP[x]):
            return False
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def dist(BD, b, goal, x):
    """WalkGraph.dist_to(goal)[x]: Dreamwalk steps from x to goal on board b (INF: no route)."""
    if not BD[b, B_DHAVE + goal]:
        o = B_DIST + goal * K.N_LOC
        for y in range(K.N_LOC):
            BD[b, o + y] = INF
        BD[b, o + goal] = 0
        seen = 1 << goal
        frontier = 1 << goal
        step = 1
        while True:  # breadth first, a level at a time, on bit sets of locations
            reach = 0
            f = frontier
            while f:
                low = f & -f
                reach |= BD[b, B_PRED + BIT_INDEX[low]]
                f ^= low
            reach &= ~seen
            if reach == 0:
                break
            seen |= reach
            f = reach
            while f:
                low = f & -f
                BD[b, o + BIT_INDEX[low]] = step
                f ^= low
            frontier = reach
            step += 1
        BD[b, B_DHAVE + goal] = 1
    return BD[b, B_DIST + goal * K.N_LOC + x]


@njit(cache=True, error_model="numpy", _nrt=False)
def relaxed(M, BD, b, goal):
    """WalkGraph.relaxed_to(goal) into B_RC / B_RT of board b: the fewest actions from every
    location when a step against the arrows costs 2 (turn, then walk), and among those the fewest
    turns (the lexicographic least (actions, turns), as the engine's bucketed Dijkstra finds)."""
    if BD[b, B_RHAVE + goal]:
        return
    oc = B_RC + goal * K.N_LOC
    ot = B_RT + goal * K.N_LOC
    for y in range(K.N_LOC):
        BD[b, oc + y] = INF
        BD[b, ot + y] = 0
    BD[b, oc + goal] = 0
    changed = True
    while changed:
        changed = False
        for u in range(K.N_LOC):
            cell = BD[b, B_CELL + u]
            arrows = ARROWS_NP[u, BD[b, B_ROT + u]]
            for d in range(K.N_DIRS):
                c2 = M[K.O_NB + cell * K.N_DIRS + d]
                if c2 < 0:
                    continue
                v = BD[b, B_GRID + c2]
                if v < 0 or BD[b, oc + v] >= INF:
                    continue
                e = 1 if (arrows >> d) & 1 else 2
                c = BD[b, oc + v] + e
                t = BD[b, ot + v] + e - 1
                if c < BD[b, oc + u] or (c == BD[b, oc + u] and t < BD[b, ot + u]):
                    BD[b, oc + u] = c
                    BD[b, ot + u] = t
                    changed = True
    BD[b, B_RHAVE + goal] = 1


@njit(cache=True, error_model="numpy", _nrt=False)
def _leg(BD, o, n, walks, turns, stars):
    """Row n of the (walks, turns, stars) rows at BD[BD_SCRATCH, o:] := the way given; n + 1."""
    i = o + 3 * n
    BD[BD_SCRATCH, i] = walks
    BD[BD_SCRATCH, i + 1] = turns
    BD[BD_SCRATCH, i + 2] = stars
    return n + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def _legs(M, BD, b, goal, y, forest, relax, o):
    """policies.plan._legs: ways (walks, turns, stars) to stand on `goal` from `y`, as rows at
    BD[BD_SCRATCH, o:]; their number."""
    d = dist(BD, b, goal, y)
    f = dist(BD, b, C.FOREST, y) if forest and goal != C.FOREST else INF
    n = 0
    if d < INF:
        n = _leg(BD, o, n, d, 0, 0)
        if f < INF:
            n = _leg(BD, o, n, f, 0, 1)
        return n
    if not relax:
        if f < INF:
            n = _leg(BD, o, n, f, 0, 1)
        return n
    relaxed(M, BD, b, goal)
    rc = BD[b, B_RC + goal * K.N_LOC + y]
    rt = BD[b, B_RT + goal * K.N_LOC + y]
    n = _leg(BD, o, n, rc - rt, rt, 0)
    if f < INF:
        n = _leg(BD, o, n, f, 0, 1)
    elif forest and goal != C.FOREST:
        relaxed(M, BD, b, C.FOREST)
        fc = BD[b, B_RC + C.FOREST * K.N_LOC + y]
        ft = BD[b, B_RT + C.FOREST * K.N_LOC + y]
        n = _leg(BD, o, n, fc - ft, ft, 1)
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def _opt(BD, n, walks, turns, stars, th):
    i = S_OPTS + 4 * n
    BD[BD_SCRATCH, i] = walks
    BD[BD_SCRATCH, i + 1] = turns
    BD[BD_SCRATCH, i + 2] = stars
    BD[BD_SCRATCH, i + 3] = th
    return n + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def _options_once(M, BD, b, x, horror, shed, blue, sq, mo, relax):
    """policies.plan._options for one value of `relax`: (walks, turns, stars, via the Town Hall)
    rows at BD[BD_SCRATCH, S_OPTS:]; their number (only ways with walks < INF)."""
    n = 0
    S = BD_SCRATCH
    if horror:
        m = _legs(M, BD, b, C.TOWN_HALL, x, True, relax, S_LEGS)
        for i in range(m):
            j = S_LEGS + 3 * i
            if BD[S, j] < INF:
                n = _opt(BD, n, BD[S, j], BD[S, j + 1], BD[S, j + 2] + 1, 0)
    elif shed or blue:
        for s in range(3):
            if s == 0:
                spot = C.TOWN_HALL
            elif s == 1:
                if blue or not sq:
                    continue
                spot = C.SQUARE
            else:
                if blue or not mo:
                    continue
                spot = C.MOTEL
            ns = _legs(M, BD, b, C.BRIDGE, spot, True, relax, S_SECONDS)
            m = _legs(M, BD, b, spot, x, not blue, relax, S_LEGS)  # Blue forbids the Forest too
            for i in range(m):
                j = S_LEGS + 3 * i
                if BD[S, j] < INF:
                    for jj in range(ns):
                        k = S_SECONDS + 3 * jj
                        w = BD[S, j] + BD[S, k]
                        if w < INF:
                            n = _opt(BD, n, w, BD[S, j + 1] + BD[S, k + 1], BD[S, j + 2] + BD[S, k + 2] + 2,
                                     1 if spot == C.TOWN_HALL else 0)
    else:
        m = _legs(M, BD, b, C.BRIDGE, x, True, relax, S_LEGS)
        for i in range(m):
            j = S_LEGS + 3 * i
            if BD[S, j] < INF:
                n = _opt(BD, n, BD[S, j], BD[S, j + 1], BD[S, j + 2] + 1, 0)
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def plan_cost(M, BD, W, b, key, x):
    """policies.plan._plan_cost: actions the player of plan-cost key `key` needs to win from x on
    board b."""
    free = key[KEY_FREE]
    nw = 0.0 if free else W[W_NEED_WALK]
    ns = 0.0 if free else W[W_NEED_STAR]
    nv = 0.0 if free else W[W_NEED_VERTIGO]
    horror = key[KEY_HORROR]
    Wn, Sn, Vn, nm, blue = key[KEY_W], key[KEY_S], key[KEY_V], key[KEY_NM], key[KEY_BLUE]
    if nm == 0 and not blue:
        # the usual case: walk there and a Star, or walk to the Forest, a Star there and a Star
        goal = C.TOWN_HALL if horror else C.BRIDGE
        d = dist(BD, b, goal, x)
        if d < INF:
            c = d + 1.0
            if d > Wn:
                c += nw * (d - Wn)
            if Sn < 1:
                c += ns
            f = dist(BD, b, C.FOREST, x)
            if f < INF:
                c2 = f + 2.0
                if f > Wn:
                    c2 += nw * (f - Wn)
                if Sn < 2:
                    c2 += ns * (2 - Sn)
                if c2 < c:
                    c = c2
            return c
    shed = nm > 0
    n = 0
    if key[KEY_RELAX]:
        n = _options_once(M, BD, b, x, horror, shed, blue, key[KEY_SQ], key[KEY_MO], False)
    if n == 0:
        n = _options_once(M, BD, b, x, horror, shed, blue, key[KEY_SQ], key[KEY_MO], key[KEY_RELAX] != 0)
    extra = nm - 1 if (key[KEY_TH1] and nm > 1) else 0  # the Town Hall takes one nightmare a Star
    best = BLOCKED
    for i in range(n):
        j = S_OPTS + 4 * i
        walks, turns, stars = BD[BD_SCRATCH, j], BD[BD_SCRATCH, j + 1], BD[BD_SCRATCH, j + 2]
        if BD[BD_SCRATCH, j + 3]:
            stars += extra
        c = float(walks + turns + stars)
        if walks > Wn:
            c += nw * (walks - Wn)
        if stars > Sn:
            c += ns * (stars - Sn)
        if turns > Vn:
            c += nv * (turns - Vn)
        if c < best:
            best = c
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def public_cost(BD, b, x, horror):
    """policies.plan.public_cost: a rival's route + 1 Star from what is public (BLOCKED: none)."""
    goal = C.TOWN_HALL if horror else C.BRIDGE
    d = dist(BD, b, goal, x)
    f = dist(BD, b, C.FOREST, x) + 1
    c = (d if d < f else f) + 1
    return float(c) if c < INF else BLOCKED


@njit(cache=True, error_model="numpy", _nrt=False)
def key_add(key, kind, d):
    """policies.plan._key_add: the key with `d` more cards of `kind` in the hand (never below 0)."""
    if kind == C.DREAMWALK:
        i = KEY_W
    elif kind == C.STAR:
        i = KEY_S
    elif kind == C.VERTIGO:
        i = KEY_V
    elif kind < C.RED or kind == C.BLACK or key[KEY_HORROR]:
        return key  # no effect on the plan (the Horror ignores nightmares)
    else:
        i = KEY_NM
    v = key[i] + d
    if v < 0:
        v = 0
    return (key[0] if i != 0 else v, key[1], key[2] if i != 2 else v, key[3] if i != 3 else v,
            key[4] if i != 4 else v, key[5] if i != 5 else v, key[6], key[7], key[8], key[9], key[10])


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def key_strict(key):
    """policies.plan.key_strict: the key without `relax`."""
    return (key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7], key[8], key[9], 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def key_free(key):
    """policies.plan.key_free: the key with no cost for missing cards."""
    return (1, key[1], key[2], key[3], key[4], key[5], key[6], key[7], key[8], key[9], key[10])
