"""The heuristics' model of the game: the *plan cost*, the number of actions a player still
needs to win, counted from the board and the hand (see `dreamsim.policies.policies`). Distances come
from `board.walk_graph`; results are memoised with the board (`g.memo`) under small int keys
(`key_id`). Every cache belongs to one policy's `Memo` (its boards and key tables).
"""
from __future__ import annotations

from itertools import count

from ..engine.board import Boards
from ..engine.cards import (
    BLACK,
    BRIDGE,
    DREAMWALK,
    FOREST,
    MOTEL,
    RED,
    SQUARE,
    TOWN_HALL,
)
from ..engine.cards import (
    STAR as STAR_CARD,
)
from ..engine.cards import (
    VERTIGO as VERTIGO_CARD,
)

#: entries per table of a `Memo` other than its boards (plan-cost key ids and what is derived from a
#: key, hand profiles, hands); a full table is emptied and refilled. What a table holds is a pure
#: function of its key, so the bound changes speed and memory, never a decision. At 100,000 the
#: hand tables of a mixed line-up (four policies, four Memos) were still filling after 20,000 games,
#: and a one-process run kept growing by some hundreds of MB; 20,000 entries fill in about 2,000
#: games, with no measurable change in speed (8.8 vs 8.5-9.1 ms CPU per mixed game).
TABLE_LIMIT = 20_000

_BLOCKED = 40.0  # plan cost when no route leads to the goal (above any reachable plan)
_INF = 99


# -------------------------------------------------------------------------------------------
# The plan cost
# -------------------------------------------------------------------------------------------
class Memo(Boards):
    """One heuristic policy's caches (`HeuristicPolicy` makes one; two policies never share one):
    the boards it has looked at with what it derived from them (`Boards`; `WalkGraph.memo`), the
    plan-cost key ids (`key_id`) and the keys derived from a key (`key_add`, `key_strict`,
    `key_free`), the plan keys of hands (`profiles`, see `_Facts.profile`), the plan key and card
    values of the hand a decision is about (`hands`) and the last board seen per board height (`last`). Every table is bounded.
    Key ids are never reused (`next_id` keeps counting after a clear), so memos keyed by an id
    stay right after a clear."""

    __slots__ = ("key_ids", "next_id", "added", "strict", "free", "profiles", "hands", "last")

    def __init__(self):
        super().__init__()
        self.key_ids = {}    # plan-cost key -> id
        self.next_id = count()
        self.added = {}      # (key id, kind, d) -> key_add
        self.strict = {}     # key id -> key_strict
        self.free = {}       # key id -> key_free
        self.profiles = {}   # (hand, is the Horror) -> profile, for hands without nightmares (and
        #                      (hand, is the Horror, nightmares gone, Blue gone, under the Blue, tail) for others)
        self.hands = {}      # the same -> (profile, card values), for the hand a decision is about
        self.last = {}       # rows -> (grid, rot, the WalkGraph of the last decision)

    def get(self, rows: int, cols: int, grid: tuple, rot: tuple, ret: bool):
        """Boards.get, first trying `rot` as given: the table is keyed by the rotations that matter
        (Boards.get masks them), so a board found under `rot` as it is is the board Boards.get
        finds (WalkGraph.after and the observation mostly pass rotations masked already)."""
        g = self.graphs.get((rows, cols, ret, grid, rot))
        return Boards.get(self, rows, cols, grid, rot, ret) if g is None else g

    def clear(self) -> None:
        super().clear()
        for d in (self.key_ids, self.added, self.strict, self.free, self.profiles, self.hands, self.last):
            d.clear()

    def is_empty(self) -> bool:
        return not (self.graphs or self.key_ids or self.added or self.strict or self.free or self.profiles
                    or self.hands or self.last)


def key_id(memo: Memo, key: tuple) -> int:
    """An int standing for a plan-cost key in `memo` (memo look-ups then hash an int)."""
    ids = memo.key_ids
    i = ids.get(key)
    if i is None:
        if len(ids) >= TABLE_LIMIT:
            ids.clear()
            memo.added.clear()
            memo.strict.clear()
            memo.free.clear()
        i = ids[key] = next(memo.next_id)
    return i


_COUNT_AT = {DREAMWALK: 4, STAR_CARD: 5, VERTIGO_CARD: 6}


def key_add(memo: Memo, k: tuple, kind: int, d: int) -> tuple:
    """k = (key id, key) with `d` more cards of `kind` in the hand."""
    mk = (k[0], kind, d)
    added = memo.added
    k2 = added.get(mk)
    if k2 is None:
        if len(added) >= TABLE_LIMIT:
            added.clear()
        k2 = added[mk] = _key_add(memo, k, kind, d)
    return k2


def _key_add(memo: Memo, k: tuple, kind: int, d: int) -> tuple:
    key = k[1]
    i = _COUNT_AT.get(kind)
    if i is None:
        if kind < RED or kind == BLACK or key[3]:  # no effect on the plan (the Horror ignores nightmares)
            return k
        i = 7
    n = key[i] + d
    key2 = key[:i] + (n if n > 0 else 0,) + key[i + 1:]
    return key_id(memo, key2), key2


def key_strict(memo: Memo, k: tuple) -> tuple:
    """k without `relax` (see plan_cost)."""
    k2 = memo.strict.get(k[0])
    if k2 is None:
        key = k[1]
        key2 = key[:12] + (False,)
        k2 = memo.strict[k[0]] = (key_id(memo, key2), key2)
    return k2


def key_free(memo: Memo, k: tuple) -> tuple:
    """k with no cost for missing cards (its plan cost counts the actions alone)."""
    k2 = memo.free.get(k[0])
    if k2 is None:
        key2 = (0.0, 0.0, 0.0) + k[1][3:]
        k2 = memo.free[k[0]] = (key_id(memo, key2), key2)
    return k2


def plan_cost(memo: Memo, g, key: tuple, x: int) -> float:
    """Actions the player described by `key` needs to win from location `x` on board `g` (a board
    of `memo`: `memo.get(...)`).

    key = (need_walk, need_star, need_vertigo, horror, walks, stars, vertigos, nightmares,
    blue, square_ok, motel_ok, town_hall_one, relax); kept in `g.memo`. Without `relax`, a
    board with no route along the arrows costs the flat _BLOCKED (cheaper to work out: boards
    a Vertigo would make are scored so when my route exists now).
    """
    return _plan_cost(g, (key_id(memo, key), key), x)


def _legs(g, goal: int, y: int, forest: bool, relax: bool = True) -> list:
    """Ways to stand on `goal` from `y`: (Dreamwalks, Vertigo turns, Midnight Stars) for walking
    along the arrows, and to the Forest followed by a Star that teleports (when `forest`).
    Only when no arrows lead there does a route count turns where an arrow is missing (a
    shortcut a Vertigo would open on a route that exists is seen when the Vertigo is scored).
    Without `relax`, a place no arrows lead to has no way."""
    d = (g.dists[goal] or g.dist_to(goal))[y]
    f = (g.dists[FOREST] or g.dist_to(FOREST))[y] if forest and goal != FOREST else _INF
    if d < _INF:
        return [(d, 0, 0), (f, 0, 1)] if f < _INF else [(d, 0, 0)]
    if not relax:
        return [(f, 0, 1)] if f < _INF else []
    rc, rt = g.relaxed_to(goal)
    out = [(rc[y] - rt[y], rt[y], 0)]
    if f < _INF:
        out.append((f, 0, 1))
    elif forest and goal != FOREST:
        fc, ft = g.relaxed_to(FOREST)
        out.append((fc[y] - ft[y], ft[y], 1))
    return out


def _options(g, x: int, horror: bool, shed: bool, blue: bool, sq: bool, mo: bool, relax: bool) -> tuple:
    """The ways to win from `x`: (Dreamwalks, Vertigo turns, Midnight Stars, via the Town Hall)
    — to the goal (the Town Hall for the Horror, else the Bridge) and a Star there; while
    shedding, first to the Town Hall / Square / Motel and a Star there. Kept in g.memo.
    `relax`: when the arrows offer no way at all, count the Vertigo turns that would (_legs)."""
    mk = ("opts", x, horror, shed, blue, sq, mo, relax)
    opts = g.memo.get(mk)
    if opts is None and relax:
        opts = _options(g, x, horror, shed, blue, sq, mo, False)
        if not opts:
            opts = None
    if opts is None:
        if horror:
            opts = [(w1, t1, s1 + 1, False) for w1, t1, s1 in _legs(g, TOWN_HALL, x, True, relax)]
        elif shed or blue:
            spots = [TOWN_HALL]
            if not blue:
                if sq:
                    spots.append(SQUARE)
                if mo:
                    spots.append(MOTEL)
            opts = []
            for spot in spots:
                seconds = _legs(g, BRIDGE, spot, True, relax)
                for w1, t1, s1 in _legs(g, spot, x, not blue, relax):  # Blue forbids the Forest too
                    if w1 < _INF:
                        for w2, t2, s2 in seconds:
                            opts.append((w1 + w2, t1 + t2, s1 + s2 + 2, spot == TOWN_HALL))
        else:
            opts = [(w1, t1, s1 + 1, False) for w1, t1, s1 in _legs(g, BRIDGE, x, True, relax)]
        opts = tuple([o for o in opts if o[0] < _INF])
    g.memo[mk] = opts
    return opts


def _plan_cost(g, k: tuple, x: int) -> float:
    """plan_cost with k = (key_id(key), key)."""
    memo = g.memo
    mk = k[0] * 16 + x
    c = memo.get(mk)
    if c is not None:
        return c
    nw, ns, nv, horror, W, S, V, nm, blue, sq, mo, th_one, relax = k[1]
    if not nm and not blue:
        # the usual case, written out: walk there and a Star, or walk to the Forest, a Star to
        # teleport there and a Star
        goal = TOWN_HALL if horror else BRIDGE
        d = (g.dists[goal] or g.dist_to(goal))[x]
        if d < _INF:
            c = d + 1.0
            if d > W:
                c += nw * (d - W)
            if S < 1:
                c += ns
            f = (g.dists[FOREST] or g.dist_to(FOREST))[x]
            if f < _INF:
                c2 = f + 2.0
                if f > W:
                    c2 += nw * (f - W)
                if S < 2:
                    c2 += ns * (2 - S)
                if c2 < c:
                    c = c2
            memo[mk] = c
            return c
    opts = _options(g, x, horror, nm > 0, blue, sq, mo, relax)
    extra = nm - 1 if (th_one and nm > 1) else 0  # the Town Hall takes one nightmare a Star
    best = _BLOCKED
    for walks, turns, stars, th in opts:
        if th:
            stars += extra
        c = walks + turns + stars
        if walks > W:
            c += nw * (walks - W)
        if stars > S:
            c += ns * (stars - S)
        if turns > V:
            c += nv * (turns - V)
        if c < best:
            best = c
    memo[mk] = best
    return best


def public_cost(g, x: int, horror: bool) -> float:
    """A rival's plan cost from what is public (the board, where it stands): its route + 1 Star
    (_BLOCKED without one; value() counts a rival's cost up to 8 only)."""
    mk = -1 - (2 * x + horror)
    c = g.memo.get(mk)
    if c is None:
        goal = TOWN_HALL if horror else BRIDGE
        c = min((g.dists[goal] or g.dist_to(goal))[x], (g.dists[FOREST] or g.dist_to(FOREST))[x] + 1) + 1
        c = g.memo[mk] = float(c) if c < _INF else _BLOCKED
    return c


def lead_cost(g, rivals: tuple) -> float:
    """The smallest public_cost of `rivals`, given as location + 16 for the Horror (kept in g.memo)."""
    memo = g.memo
    c = memo.get(rivals)
    if c is None:
        c = _BLOCKED
        for code in rivals:
            x, h = code & 15, code >= 16
            pc = memo.get(-1 - (2 * x + h))
            if pc is None:
                pc = public_cost(g, x, h)
            if pc < c:
                c = pc
        memo[rivals] = c
    return c
