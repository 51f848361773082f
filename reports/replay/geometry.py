"""Where the Nerath map's regions are drawn: the map's grid of cells when it has one, else a ring layout."""
from __future__ import annotations

import math

CELL = 60


def map_geometry(ctx: dict) -> dict:
    """{width, height, cells: [[x, y, region]], borders: [[x1, y1, x2, y2]], centre: [[x, y]] per region,
    links: [[a, b]] (drawn only without cells)}."""
    layout = ctx.get("layout")
    n = len(ctx["names"])
    if layout:
        return _grid(layout, n)
    return _ring(ctx["adj"], n)


def _grid(layout, n: int) -> dict:
    rows, cols = len(layout), len(layout[0])
    cells, borders, where = [], [], {}
    for y, row in enumerate(layout):
        for x, r in enumerate(row):
            cells.append([x * CELL, y * CELL, r])
            where.setdefault(r, []).append((x, y))
            if x + 1 < cols and layout[y][x + 1] != r:
                borders.append([(x + 1) * CELL, y * CELL, (x + 1) * CELL, (y + 1) * CELL])
            if y + 1 < rows and layout[y + 1][x] != r:
                borders.append([x * CELL, (y + 1) * CELL, (x + 1) * CELL, (y + 1) * CELL])
    centre = []
    for r in range(n):
        spots = where.get(r) or [(0, 0)]
        mx = sum(x for x, _ in spots) / len(spots)
        my = sum(y for _, y in spots) / len(spots)
        x, y = min(spots, key=lambda s: (s[0] - mx) ** 2 + (s[1] - my) ** 2)   # a cell of its own
        centre.append([x * CELL + CELL // 2, y * CELL + CELL // 2])
    return {"width": cols * CELL, "height": rows * CELL, "cells": cells, "borders": borders, "centre": centre,
            "links": []}


def _ring(adj, n: int) -> dict:
    size = max(600, 40 * n)
    radius = size / 2 - 60
    centre = [[round(size / 2 + radius * math.cos(2 * math.pi * r / n)),
               round(size / 2 + radius * math.sin(2 * math.pi * r / n))] for r in range(n)]
    links = sorted({(min(a, b), max(a, b)) for a in range(n) for b in adj[a]})
    return {"width": size, "height": size, "cells": [], "borders": [], "centre": centre,
            "links": [list(x) for x in links]}
