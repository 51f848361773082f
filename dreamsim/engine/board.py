"""Grid geometry shared by the engine and the policies: parsing a layout, neighbours,
arrows, Dreamwalk moves and shortest routes.

A board is a grid of `rows` x `cols` cells; `grid[cell]` is a location id or -1 (a gap),
`cell_of[loc]` its cell and `rot[loc]` its rotation (clockwise quarter turns).
"""
from __future__ import annotations

from functools import lru_cache

from .cards import ARROW_MASK, ARROWS, BRIDGE, CORRIDORS, FOREST, LETTER_OF, LETTERS, LOCATION_NAMES, N_LOCATIONS

_TYPES_ORDER = {"F": FOREST, "S": FOREST + 1, "M": FOREST + 2, "R": FOREST + 3, "T": FOREST + 4, "B": BRIDGE}


def parse_layout(layout) -> tuple[int, int, list[int], list[int], int]:
    """Rules.layout -> (rows, cols, grid, rot, start_cell). Raises ValueError naming Rules.layout.

    Each row is a string of space-separated tokens: a letter C F S M R T B (Corridor, Forest,
    Square, Motel, Restaurant, Town Hall, Bridge), optionally followed by a rotation digit
    0-3 (clockwise quarter turns) and/or '*' (the start Corridor); '.' is an empty cell.
    """
    if isinstance(layout, str) or not isinstance(layout, tuple) or not layout:
        raise ValueError("Rules.layout must be a non-empty tuple of row strings, e.g. ('R B T F', 'C S M C', 'C C* C C')")
    rows = [str(r).split() for r in layout]
    cols = len(rows[0])
    if cols == 0 or any(len(r) != cols for r in rows):
        raise ValueError(f"Rules.layout: every row needs the same number of cells, got {[len(r) for r in rows]}")
    grid, rot, start = [], [0] * N_LOCATIONS, -1
    next_corridor = 0
    seen = set()
    for token in (t for r in rows for t in r):
        cell = len(grid)
        if token == ".":
            grid.append(-1)
            continue
        letter, rest = token[0].upper(), token[1:]
        if letter not in LETTERS:
            raise ValueError(f"Rules.layout: unknown location {token!r}; use C F S M R T B or '.'")
        star = "*" in rest
        rest = rest.replace("*", "")
        if rest and (not rest.isdigit() or int(rest) > 3):
            raise ValueError(f"Rules.layout: bad rotation in {token!r}; use a digit 0-3")
        if letter == "C":
            if next_corridor >= 6:
                raise ValueError("Rules.layout: more than 6 Corridors")
            loc = CORRIDORS[next_corridor]
            next_corridor += 1
        else:
            loc = _TYPES_ORDER[letter]
            if loc in seen:
                raise ValueError(f"Rules.layout: location {LETTERS[letter]} appears twice")
        if star:
            if letter != "C" or start >= 0:
                raise ValueError("Rules.layout: '*' marks exactly one start Corridor")
            start = cell
        seen.add(loc)
        rot[loc] = int(rest) if rest else 0
        grid.append(loc)
    if len(seen) != N_LOCATIONS:
        missing = [LETTER_OF.get(l, "C") for l in range(N_LOCATIONS) if l not in seen]
        raise ValueError(f"Rules.layout must hold the 12 locations (6 C, and F S M R T B once each); missing {missing}")
    if start < 0:  # default start: the left-most Corridor of the bottom-most row that has one
        cols_ = cols
        for r in range(len(rows) - 1, -1, -1):
            row_cells = [r * cols_ + c for c in range(cols_) if 0 <= grid[r * cols_ + c] < 6]
            if row_cells:
                start = row_cells[0]
                break
    return len(rows), cols, grid, rot, start


@lru_cache(maxsize=None)
def neighbours(rows: int, cols: int) -> tuple[tuple[int, int, int, int], ...]:
    """neighbours(rows, cols)[cell][d] -> the cell one step in direction d, or -1 off the board."""
    out = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        out.append((
            cell - cols if r > 0 else -1,
            cell + 1 if c < cols - 1 else -1,
            cell + cols if r < rows - 1 else -1,
            cell - 1 if c > 0 else -1,
        ))
    return tuple(out)


def walk_targets(grid, cell_of, rot, nb, loc: int, return_arrow: bool) -> list[tuple[int, int]]:
    """Dreamwalk from `loc`: [(direction, target location)] along the location's arrows."""
    out = []
    cell = cell_of[loc]
    for d in ARROWS[loc][rot[loc]]:
        c2 = nb[cell][d]
        if c2 < 0:
            continue
        t = grid[c2]
        if t < 0:
            continue
        if return_arrow and (d + 2) % 4 not in ARROWS[t][rot[t]]:
            continue
        out.append((d, t))
    return out


def distances_to(grid, cell_of, rot, nb, target: int, return_arrow: bool) -> list[int]:
    """Dreamwalk steps from every location to `target` on the current board (99 = unreachable)."""
    # reverse BFS: predecessors of t are locations whose arrow leads to t
    n = len(cell_of)
    preds = [[] for _ in range(n)]
    for loc in range(n):
        for _, t in walk_targets(grid, cell_of, rot, nb, loc, return_arrow):
            preds[t].append(loc)
    dist = [99] * n
    dist[target] = 0
    frontier = [target]
    while frontier:
        nxt = []
        for t in frontier:
            for p in preds[t]:
                if dist[p] == 99:
                    dist[p] = dist[t] + 1
                    nxt.append(p)
        frontier = nxt
    return dist


class WalkGraph:
    """The Dreamwalk graph of one board: `dist_to(goal)` gives the steps from every location to
    `goal` (99 = no route), by a breadth-first search over the 12 locations done once per goal.
    `relaxed_to(goal)` also lets a step go against the arrows at the price of one more action
    (a Vertigo turning the location first). `after(loc, op)` is the board after a Vertigo
    operation. Boards are immutable values here: get them from a `Boards` table (`walk_graph`
    uses the module's), which keeps the ones it has built (policies look at the same board, and
    at the same boards one Vertigo away, decision after decision); `after` gets its boards from
    the same table (`boards`). `memo` is a scratch dict for the table's owner to derive more
    from the board (each heuristic policy owns its table: `policies.plan.Memo`)."""

    __slots__ = ("rows", "cols", "grid", "rot", "ret", "nb", "pred", "rpred", "dists", "relaxed", "afters",
                 "memo", "boards")

    def __init__(self, rows: int, cols: int, grid: tuple, rot: tuple, ret: bool, boards: "Boards | None" = None):
        self.rows, self.cols, self.grid, self.rot, self.ret = rows, cols, grid, rot, ret
        self.boards = boards
        self.nb = neighbours(rows, cols)
        targets = _arrow_cells(rows, cols)
        pred = [0] * N_LOCATIONS  # pred[t]: bit set of the locations with an arrow into t
        for cell, loc in enumerate(grid):
            if loc >= 0:
                bit = 1 << loc
                for d, c2 in targets[cell][ARROW_MASK[loc][rot[loc]]]:
                    t = grid[c2]
                    if t >= 0 and (not ret or (d + 2) % 4 in ARROWS[t][rot[t]]):
                        pred[t] |= bit
        self.pred = tuple(pred)
        self.rpred = None  # built by relaxed_to
        self.dists = [None] * N_LOCATIONS
        self.relaxed = [None] * N_LOCATIONS
        self.afters = {}
        self.memo = {}

    def _relaxed_pred(self) -> list:
        """Per target: (location, 1 along an arrow / 2 against one) for each orthogonal neighbour."""
        grid, rot, nb, ret = self.grid, self.rot, self.nb, self.ret
        rpred = [[] for _ in range(N_LOCATIONS)]
        for cell, loc in enumerate(grid):
            if loc < 0:
                continue
            arrows = ARROWS[loc][rot[loc]]
            for d in range(4):
                c2 = nb[cell][d]
                if c2 < 0:
                    continue
                t = grid[c2]
                if t < 0:
                    continue
                along = d in arrows and not (ret and (d + 2) % 4 not in ARROWS[t][rot[t]])
                rpred[t].append((loc, 1 if along else 2))
        return tuple(map(tuple, rpred))

    def dist_to(self, goal: int) -> list[int]:
        d = self.dists[goal]
        if d is None:
            d = [99] * N_LOCATIONS
            d[goal] = 0
            pred, seen, frontier, step = self.pred, 1 << goal, (goal,), 1
            while True:  # breadth first, a level at a time, on bit sets of locations
                reach = 0
                for t in frontier:
                    reach |= pred[t]
                reach &= ~seen
                if not reach:
                    break
                seen |= reach
                frontier = _BITS[reach]
                for p in frontier:
                    d[p] = step
                step += 1
            d = self.dists[goal] = tuple(d)
        return d

    def relaxed_to(self, goal: int) -> tuple[list[int], list[int]]:
        """(actions, turns) from every location to `goal` when a step against the arrows costs
        2 actions (turn the location with a Vertigo, then walk): the fewest actions, and among
        those the fewest turns. 99 actions: not even so (gaps)."""
        r = self.relaxed[goal]
        if r is None:  # Dijkstra with a bucket per cost (edges cost 1 or 2)
            cost, turns = [99] * N_LOCATIONS, [0] * N_LOCATIONS
            cost[goal] = 0
            buckets = [[goal]]
            rpred = self.rpred
            if rpred is None:
                rpred = self.rpred = self._relaxed_pred()
            c = 0
            while c < len(buckets):
                for v in buckets[c]:
                    if cost[v] != c:
                        continue
                    n = turns[v]
                    for u, e in rpred[v]:
                        c2 = c + e
                        if c2 < cost[u] or (c2 == cost[u] and n + e - 1 < turns[u]):
                            cost[u], turns[u] = c2, n + e - 1
                            while len(buckets) <= c2:
                                buckets.append([])
                            buckets[c2].append(u)
                c += 1
            r = self.relaxed[goal] = (tuple(cost), tuple(turns))
        return r

    def cell_of(self, loc: int) -> int:
        return self.grid.index(loc)

    def after(self, loc: int, op: int) -> "WalkGraph":
        """The board after Vertigo operation `op` on `loc` (0-3 move that way, 4-6 rotate 1-3
        quarter turns clockwise, anything else: unchanged)."""
        key = (loc, op)
        g = self.afters.get(key)
        if g is None:
            grid, rot = list(self.grid), list(self.rot)
            if op < 4:
                c1 = grid.index(loc)
                c2 = self.nb[c1][op]
                if c2 >= 0:
                    grid[c1], grid[c2] = grid[c2], loc
            elif op < 7:
                rot[loc] = (rot[loc] + op - 3) % 4
            g = self.afters[key] = (self.boards or _GRAPHS).get(self.rows, self.cols, tuple(grid), tuple(rot),
                                                                self.ret)
        return g


#: _BITS[mask] -> the locations in a bit set of locations
_BITS = tuple(tuple(i for i in range(N_LOCATIONS) if (m >> i) & 1) for m in range(1 << N_LOCATIONS))


@lru_cache(maxsize=None)
def _arrow_cells(rows: int, cols: int) -> tuple:
    """[cell][arrow mask] -> ((direction, neighbour cell), ...) for the arrows that stay on the grid."""
    nb = neighbours(rows, cols)
    return tuple(tuple(tuple((d, nb[cell][d]) for d in range(4) if (mask >> d) & 1 and nb[cell][d] >= 0)
                       for mask in range(16)) for cell in range(rows * cols))


#: boards kept per table, with what the owner derived from them (~10 kB each); the older half goes when full
GRAPH_CACHE_SIZE = 8_000


#: rotation & mask = the rotation that matters: a Corridor or the Town Hall turned half round has
#: the same arrows, so those boards are one
_ROT_MASK = tuple(1 if ARROWS[loc][0] == ARROWS[loc][2] else 3 for loc in range(N_LOCATIONS))


class Boards:
    """A bounded table of `WalkGraph`s by board (at most `GRAPH_CACHE_SIZE`; the older half is
    dropped when full). Each heuristic policy owns one (`policies.plan.Memo`), so what it derives
    in `WalkGraph.memo` is never shared with another policy."""

    __slots__ = ("graphs",)

    def __init__(self):
        self.graphs = {}

    def get(self, rows: int, cols: int, grid: tuple, rot: tuple, ret: bool) -> WalkGraph:
        """The (kept) WalkGraph of a board given as tuples."""
        rot = tuple(map(int.__and__, rot, _ROT_MASK))
        key = (rows, cols, ret, grid, rot)
        graphs = self.graphs
        g = graphs.get(key)
        if g is None:
            if len(graphs) >= GRAPH_CACHE_SIZE:
                self.forget_older_half()
            g = graphs[key] = WalkGraph(rows, cols, grid, rot, ret, self)
        return g

    def forget_older_half(self) -> None:
        graphs = self.graphs
        for key in list(graphs)[: len(graphs) // 2]:
            del graphs[key]
        for g in graphs.values():  # no board kept may point at a forgotten one
            g.afters.clear()
            for k in [k for k, v in g.memo.items() if type(v) is tuple and v and type(v[0]) is WalkGraph]:
                del g.memo[k]

    def clear(self) -> None:
        self.graphs.clear()


#: the table `walk_graph` reads (tests); the policies use their own. Engine-side
#: and bounded (GRAPH_CACHE_SIZE): a WalkGraph's distances are a pure function of the immutable board,
#: and no policy writes in the memos of these boards.
_GRAPHS = Boards()


def walk_graph(rows: int, cols: int, grid: tuple, rot: tuple, ret: bool) -> WalkGraph:
    """The (cached) WalkGraph of a board given as tuples, from the module's table."""
    return _GRAPHS.get(rows, cols, grid, rot, ret)


def _forget_older_half() -> None:
    _GRAPHS.forget_older_half()


def adjacent_locations(grid, cell_of, nb, loc: int) -> list[int]:
    """Locations orthogonally next to `loc` on the grid (arrows do not matter)."""
    return [grid[c] for c in nb[cell_of[loc]] if c >= 0 and grid[c] >= 0]


def render(grid, rot, rows: int, cols: int, where=None) -> str:
    """A small text picture of the board (for logs and debugging)."""
    arrow_chr = "^>v<"
    lines = []
    for r in range(rows):
        cells = []
        for c in range(cols):
            loc = grid[r * cols + c]
            if loc < 0:
                cells.append(f"{'.':16}")
                continue
            name = LOCATION_NAMES[loc].replace("Corridor ", "C")
            arrows = "".join(arrow_chr[d] for d in ARROWS[loc][rot[loc]])
            who = "" if where is None else "".join(str(p) for p, l in enumerate(where) if l == loc)
            cells.append(f"{name}[{arrows}]{('@' + who) if who else '':<4}"[:16].ljust(16))
        lines.append(" ".join(cells))
    return "\n".join(lines)
