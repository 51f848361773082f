"""Terrain and reach for the realm whose turn it is, and the unit bookkeeping that keeps `s.mob`
(units that may still move, by moves left) in step with `s.units`."""
from __future__ import annotations

import heapq
import weakref
from collections import deque

from .state import C_FLY, C_FLY_SEA, C_HERO, C_LAND, C_SHIP, M_MOVE, M_REGROUP, State


def _refresh_terrain(s: State) -> None:
    """Friendly land and hostile spaces for the current realm; movement caches reset."""
    b, p = s.board, s.realm
    F = s.friends[p]
    n = b.n
    owner = s.owner
    hostile = [False] * n
    fr_land = [False] * n
    for r in b.land_regions:
        if owner[r] in F:
            fr_land[r] = True
        else:
            hostile[r] = True
    enemy = [q for q in range(4) if q not in F]
    units = s.units
    nobody = [[0] * s.tab.U] * 4            # a region's counts when no realm has a unit there
    for r in b.sea_regions:
        reg = units[r]
        if reg == nobody:                   # nobody's units there (most seas): no realm's row to look at
            continue                        # (compared in C: `not any(map(any, reg))` for counts)
        for q in enemy:
            if any(reg[q]):
                hostile[r] = True
                break
    for sh in s.ships:
        if sh.owner not in F:
            hostile[sh.region] = True
    s.hostile, s.fr_land = hostile, fr_land
    _reach_cache(s)


def _reach_cache(s: State) -> None:
    """Movement caches are kept per terrain: the same terrain gives the same destinations, so they
    survive from phase to phase and turn to turn while nothing changes. Land moves depend only on
    which land is friendly (`reach_land`); ships and flyers ending their moves in the regroup or
    reinforcement phases also on which seas hold enemies (`reach`); flyers in the movement phase
    on nothing but the map (a cache on the Board, see `_fly_cache`)."""
    store = s.reach_store
    land_sig = bytes(s.fr_land)
    sig = (land_sig, bytes(s.hostile))
    got = store.get(sig)
    if got is None:
        if len(store) > 1024:
            store.clear()
        got = store[sig] = {}
    s.reach = got
    got = store.get(land_sig)
    if got is None:
        got = store[land_sig] = {}
    s.reach_land = got


#: the flyers' movement-phase reach, which depends on the map alone: per Board (held weakly) and
#: flyer coast cost, shared by every game on that board (`State._reach_fly`), never by a policy
_FLY_REACH: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def fly_reach_cache(rules) -> dict:
    """The flyers' movement-phase reach cache for the board and coast cost of `rules`."""
    per = _FLY_REACH.get(rules.board)
    if per is None:
        per = _FLY_REACH[rules.board] = {}
    got = per.get(rules.flyer_coast_cost)
    if got is None:
        got = per[rules.flyer_coast_cost] = {}
    return got


def _fly_cache(s: State) -> dict:
    return s._reach_fly


def _cache_for(s: State, cls: int, mode: int) -> dict:
    if cls in (C_LAND, C_HERO):
        return s.reach_land
    if mode == M_MOVE and cls in (C_FLY, C_FLY_SEA):
        return _fly_cache(s)
    return s.reach


def _terrain_at(s: State, r: int) -> None:
    """Update the terrain flags of one region after a battle or a capture there."""
    b = s.board
    F = s.friends[s.realm]
    if b.is_sea[r]:
        reg = s.units[r]
        s.hostile[r] = any(any(reg[q]) for q in range(4) if q not in F) or any(
            sh.region == r and sh.owner not in F for sh in s.ships)
    elif not b.is_dungeon[r]:
        s.fr_land[r] = s.owner[r] in F
        s.hostile[r] = not s.fr_land[r]
    _reach_cache(s)


def _reach(s: State, src: int, cls: int, budget: int, mode: int) -> tuple:
    """((dst, cost, stops), ...) reachable from `src` by a unit of movement class `cls` with `budget` moves."""
    key = (src, cls, budget, mode, s.rules.dungeon_entry)
    # `_cache_for(s, cls, mode)`, written out: this runs at every destination listing and Move check
    if cls <= C_HERO:                               # C_LAND, C_HERO
        cache = s.reach_land
    elif mode == M_MOVE and cls != C_SHIP:          # C_FLY, C_FLY_SEA moving
        cache = s._reach_fly
    else:
        cache = s.reach
    got = cache.get(key)
    if got is not None:
        return got
    b, rules = s.board, s.rules
    adj, is_sea, is_dun = b.adj, b.is_sea, b.is_dungeon
    hostile, fr_land = s.hostile, s.fr_land
    out = []
    if cls in (C_LAND, C_HERO):
        if mode == M_REGROUP and is_dun[src]:
            out = [(x, 1, True) for x in adj[src] if fr_land[x]]     # heroes leave the dungeon: adjacent friendly land
        else:
            # breadth first, one distance at a time (the order a queue gives: each step's regions in the order
            # they were found); only friendly land is walked through
            seen = {src}
            frontier = [src]
            enter_dungeon = mode == M_MOVE and (cls == C_HERO or rules.dungeon_entry == "all_land")
            attack = mode == M_MOVE
            d = 0
            while frontier and d < budget:
                d += 1
                walked = []
                for r in frontier:
                    for x in adj[r]:
                        if x in seen or is_sea[x]:
                            continue
                        if is_dun[x]:
                            if enter_dungeon:
                                seen.add(x)
                                out.append((x, d, True))
                            continue
                        if fr_land[x]:
                            seen.add(x)
                            out.append((x, d, False))
                            walked.append(x)
                        elif attack:                                  # hostile land: stop there (an attack)
                            seen.add(x)
                            out.append((x, d, True))
                frontier = walked
    elif cls in (C_FLY, C_FLY_SEA):
        coast = rules.flyer_coast_cost
        dist = {src: 0}
        heap = [(0, src)]
        while heap:
            d, r = heapq.heappop(heap)
            if d > dist.get(r, 1 << 30):
                continue
            for x in adj[r]:
                nd = d + 1 + (coast if is_sea[x] != is_sea[r] else 0)
                if nd <= budget and nd < dist.get(x, 1 << 30):
                    dist[x] = nd
                    heapq.heappush(heap, (nd, x))
        for x, d in dist.items():
            if x == src or is_dun[x]:
                continue                                              # flyers may not end on a dungeon
            if mode != M_MOVE:                                        # regroup / new units: no new battles
                if not (fr_land[x] or (cls == C_FLY_SEA and is_sea[x] and not hostile[x])):
                    continue
            out.append((x, d, False))
        out.sort()
    else:  # ships
        dist = {src: 0}
        q = deque([src])
        while q:
            r = q.popleft()
            d = dist[r]
            if d >= budget:
                continue
            for x in adj[r]:
                if x in dist or not is_sea[x]:
                    continue
                if hostile[x]:
                    if mode == M_MOVE:
                        dist[x] = d + 1
                        out.append((x, d + 1, True))
                    continue
                dist[x] = d + 1
                out.append((x, d + 1, False))
                q.append(x)
    res = tuple(out)
    cache[key] = res
    return res


def destinations(s: State, src: int, unit: str) -> dict:
    """{dst: (cost, stops, units able)} for the current realm's `unit` at `src` in the current mode."""
    t = s.tab
    u = t.idx[unit]
    groups = s.mob.get(src)
    if not groups:
        return {}
    ms = [(m, c) for (uu, m), c in groups.items() if uu == u and m > 0 and c > 0]
    if not ms:
        return {}
    if len(ms) == 1:                    # one group (the usual case): all of it is able (`_reach` lists only
        budget, able = ms[0]            # destinations costing at most `budget`)
        return {dst: (cost, stop, able) for dst, cost, stop in _reach(s, src, t.cls[u], budget, s.mode)}
    out = {}
    budget = max(m for m, _ in ms)
    for dst, cost, stop in _reach(s, src, t.cls[u], budget, s.mode):
        able = sum(c for m, c in ms if m >= cost)
        if able:
            out[dst] = (cost, stop, able)
    return out


def ship_reach(s: State, ship) -> tuple:
    """((dst, cost, stops), ...) the warship `ship` can sail to now (its moves left, the current mode)."""
    return _reach(s, ship.region, C_SHIP, ship.moves, s.mode)


def move_able(s: State, src: int, u: int, dst: int) -> int:
    """`destinations(s, src, names[u]).get(dst)`'s units able (0 when `dst` is not among them), without
    listing every destination: the legality check of one Move."""
    groups = s.mob.get(src)
    if not groups:
        return 0
    ms = [(m, c) for (uu, m), c in groups.items() if uu == u and m > 0 and c > 0]
    if not ms:
        return 0
    if len(ms) == 1:
        budget, able = ms[0]
        for x, cost, _stop in _reach(s, src, s.tab.cls[u], budget, s.mode):
            if x == dst:
                return able if cost <= budget else 0
        return 0
    budget = max(m for m, _ in ms)
    for x, cost, _stop in _reach(s, src, s.tab.cls[u], budget, s.mode):
        if x == dst:
            return sum(c for m, c in ms if m >= cost)
    return 0


def _mob_add(s: State, r: int, u: int, n: int, m: int) -> None:
    g = s.mob.setdefault(r, {})
    g[(u, m)] = g.get((u, m), 0) + n


def _mob_remove(s: State, r: int, u: int, n: int) -> None:
    """Take n units of type u out of mob[r]: fewest moves left first (they are the ones lost)."""
    _mob_take_best(s, r, u, n, most_first=False)


def _mob_take_best(s: State, r: int, u: int, n: int, most_first: bool = True) -> list:
    """Take n units of type u out of mob[r], most moves left first (else fewest); returns [(m, count)]."""
    g = s.mob.get(r)
    out = []
    if not g:
        return out
    for m in sorted((m for uu, m in g if uu == u), reverse=most_first):
        if n <= 0:
            break
        key = (u, m)
        k = min(g[key], n)
        g[key] -= k
        n -= k
        out.append((m, k))
        if not g[key]:
            del g[key]
    return out


def _set_units(s: State, r: int, p: int, counts: list) -> None:
    """Set realm p's units at r (not ships) to `counts`, recording losses (mob follows)."""
    cur = s.units[r][p]
    t = s.tab
    s._touched.append(r)
    for u in range(t.U):
        d = counts[u] - cur[u]
        if d < 0:
            s.stats["units_lost"][p] += -d
            s.stats["gold_lost"][p] += -d * t.cost[u]
            if p == s.realm:
                _mob_remove(s, r, u, -d)
        cur[u] = counts[u]


def _move_units_out(s: State, r: int, dst: int, u: int, c: int) -> None:
    p = s.realm
    s.units[r][p][u] -= c
    s.units[dst][p][u] += c
    s._touched += (r, dst)
    for m, k in _mob_take_best(s, r, u, c):
        _mob_add(s, dst, u, k, 0 if not s.tab.flyer[u] else m)


class _RealmTerrain:
    """A scratch view of a state as realm `realm` would find it at the start of its turn (its friendly
    land, the spaces hostile to it, its reach tables): what `_refresh_terrain` and `_reach` read and write,
    so that the realm's reach comes from the very code that moves its units. Nothing of the state is
    written."""

    __slots__ = ("board", "rules", "tab", "realm", "friends", "owner", "units", "ships", "hostile", "fr_land",
                 "reach", "reach_land", "reach_store", "_reach_fly")

    def __init__(self, s: State, realm: int, store: dict):
        self.board, self.rules, self.tab, self.realm = s.board, s.rules, s.tab, realm
        self.friends, self.owner, self.units, self.ships = s.friends, s.owner, s.units, s.ships
        self.reach_store = store                 # reach tables by terrain: pure functions of their keys
        self._reach_fly = fly_reach_cache(s.rules)
        _refresh_terrain(self)


def turn_reach(s: State, realm: int, store: dict | None = None, near=None) -> tuple:
    """Where `realm`'s units could attack on its next turn, with every unit's full moves, as the movement
    rules move them (`_reach` in movement mode on the terrain `realm` would see): `(by_land, landings)`.

    `by_land`: {region: ((src, unit index, count), ...)} for its mobile units walking or flying there
    (hostile regions are where a move stops: attacks). `landings`: {region: ((ship id, room, cargo,
    boarders), ...)} for its warships: a hostile coast next to a sea the ship reaches (or stands on),
    `cargo` the unit indices aboard, `room` the free places, `boarders` ((src, unit index, count), ...) the
    carriable land units on its friendly coasts next to those seas (they may board before the ship sails on).
    `store`: reach tables to keep between calls (by terrain), else a fresh one. `near`: only the regions
    asked about (a collection; None: every region); units whose move could not cover the steps to them
    over the whole map (a lower bound of any reach) are not followed."""
    v = _RealmTerrain(s, realm, {} if store is None else store)
    t, b = s.tab, s.board
    far = [0] * b.n                     # steps to the nearest region of `near` (0 everywhere: no bound)
    if near is not None:
        far = [1 << 20] * b.n
        q = deque(near)
        for r in near:
            far[r] = 0
        while q:
            r = q.popleft()
            for x in b.adj[r]:
                if far[x] > far[r] + 1:
                    far[x] = far[r] + 1
                    q.append(x)
    by_land: dict = {}
    for r in range(b.n):
        row = s.units[r][realm]
        if not any(row):
            continue
        for u in range(t.U):
            c = row[u]
            if not c or not t.mobile[u] or (b.is_dungeon[r] and t.hero[u]) or far[r] > t.move[u]:
                continue
            for dst, _cost, _stop in _reach(v, r, t.cls[u], t.move[u], M_MOVE):
                if v.hostile[dst]:
                    by_land.setdefault(dst, []).append((r, u, c))
    landings: dict = {}
    for sh in s.ships:
        if sh.owner != realm or far[sh.region] > t.move[sh.utype] + 1:
            continue
        seas = [sh.region] + [x for x, _c, _st in _reach(v, sh.region, C_SHIP, t.move[sh.utype], M_MOVE)]
        coasts = {x for sea in seas for x in b.adj[sea] if not b.is_sea[x] and not b.is_dungeon[x]}
        room = t.capacity[sh.utype] - len(sh.cargo)
        boarders = []
        if room > 0:
            for x in sorted(coasts):
                if not v.fr_land[x]:
                    continue
                row = s.units[x][realm]
                boarders += [(x, u, row[u]) for u in range(t.U) if row[u] and t.land[u] and t.carriable[u]]
        entry = (sh.id, room, tuple(sh.cargo), tuple(boarders))
        for x in sorted(coasts):
            if v.hostile[x]:
                landings.setdefault(x, []).append(entry)
    if near is not None:
        by_land = {r: x for r, x in by_land.items() if r in near}
        landings = {r: x for r, x in landings.items() if r in near}
    return ({r: tuple(x) for r, x in by_land.items()}, {r: tuple(x) for r, x in landings.items()})
