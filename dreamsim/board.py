"""Grid geometry shared by the engine and the policies: parsing a layout, neighbours,
arrows, Dreamwalk moves and shortest routes.

A board is a grid of `rows` x `cols` cells; `grid[cell]` is a location id or -1 (a gap),
`cell_of[loc]` its cell and `rot[loc]` its rotation (clockwise quarter turns).
"""
from __future__ import annotations

from functools import lru_cache

from .cards import ARROWS, BRIDGE, CORRIDORS, FOREST, LETTER_OF, LETTERS, N_LOCATIONS

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


def adjacent_locations(grid, cell_of, nb, loc: int) -> list[int]:
    """Locations orthogonally next to `loc` on the grid (arrows do not matter)."""
    return [grid[c] for c in nb[cell_of[loc]] if c >= 0 and grid[c] >= 0]


def render(grid, rot, rows: int, cols: int, where=None) -> str:
    """A small text picture of the board (for logs and debugging)."""
    from .cards import LOCATION_NAMES
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
