"""Planning phases 4 and 5: regroup (units that may not stay where they stand), buying (a weighted
draw among the affordable and placeable unit types), and moving the new units toward the front."""
from __future__ import annotations

from ..game_actions import Buy, EndPhase, Move
from .planner import Planner

END = EndPhase()


class ReinforcementPlanner(Planner):
    """The regroup, buy and reinforcement-move plans."""

    # regroup ------------------------------------------------------------------------------------
    def regroup(self) -> list:
        obs, b, t = self.obs, self.b, self.t
        out = []
        front = self.front_distance()
        for r in obs.mobile_regions():
            for (u, m), c in list(obs.mobile(r).items()):
                if m <= 0 or c <= 0:
                    continue
                here_ok = obs.friendly_land(r) or (t.flyer[u] and t.sea_ender[u] and b.is_sea[r]
                                                   and not obs.hostile(r))
                if b.is_dungeon[r] and t.hero[u]:
                    here_ok = False
                if here_ok:
                    continue                    # (its destinations are not worked out: nothing asks for them)
                dests = obs.destinations(r, t.names[u])
                if not dests:
                    continue
                dst = min(dests, key=lambda x: (b.is_sea[x], front[x] if self.pol.defend < 0.5 else -self.threat(x),
                                                dests[x][0], x))
                out.append(Move(r, dst, t.names[u], dests[dst][2]))
        out.append(END)
        return out

    # reinforcements -----------------------------------------------------------------------------
    def buy(self) -> list:
        obs, b, t, pol = self.obs, self.b, self.t, self.pol
        me = self.me
        gold = obs.gold[me] - pol.purchase.save
        spots = obs.placement_spots()
        castles = dict(spots["castles"])
        fallback = list(spots["fallback"])
        placed = {r: obs.placed(r) for r in castles}
        front = self.front_distance()
        land_sites = sorted(castles, key=lambda r: (front[r], r)) + fallback

        def room(r):
            lim = castles.get(r)
            return 1 << 30 if lim is None else lim - placed[r]

        sea_sites = []
        for r in sorted(castles, key=lambda r: (front[r], r)):
            for x in b.adj[r]:
                if b.is_sea[x] and not obs.hostile(x) and x not in sea_sites:
                    sea_sites.append(x)
        owner, counts, cu = obs.owner, obs.unit_counts, t.castle_u
        n_castles = sum(1 for r in range(b.n) if owner[r] == me and counts[r][me][cu])
        ships_bought = 0
        out = []
        weights = [(t.idx[n], w) for n, w in pol.purchase.weights if n in t.idx and w > 0]
        # castles to garrison (`guards`) that the units there would not hold: new land units go there first
        short = {}
        for r, target in self.guards().items():
            if r in castles and self.reachable(r):
                dfd = self.defenders(r)
                if self.hold_chance(r, dfd, target) < target:
                    short[r] = (target, dfd)
        rng = self.rng
        guard = 0
        while gold > 0 and guard < 200:
            guard += 1
            options = []
            land_room = sea_room = None         # somewhere to place a land unit, a warship (once per purchase)
            for u, w in weights:
                if t.cost[u] > gold:
                    continue
                if t.ship[u]:
                    if ships_bought >= pol.purchase.ships or not sea_sites:
                        continue
                    if sea_room is None:
                        sea_room = any(self._sea_room(x, castles, placed) for x in sea_sites)
                    if not sea_room:
                        continue
                elif t.castle[u]:
                    if n_castles >= pol.purchase.castles:
                        continue
                else:
                    if land_room is None:
                        land_room = any(room(r) > 0 for r in land_sites if r in castles) or bool(fallback)
                    if not land_room:
                        continue
                options.append((u, w))
            if not options:
                break
            total = sum(w for _, w in options)
            x = rng.random() * total
            for u, w in options:
                x -= w
                if x <= 0:
                    break
            if t.ship[u]:
                at = next(x for x in sea_sites if self._sea_room(x, castles, placed))
                c = self._charge(at, castles, placed)
                ships_bought += 1
            elif t.castle[u]:
                sites = [r for r in range(b.n) if owner[r] == me and not b.is_sea[r] and not b.is_dungeon[r]
                         and not any(row[cu] for row in counts[r])]
                if not sites:
                    weights = [(uu, w) for uu, w in weights if uu != u]
                    continue
                at = min(sites, key=lambda r: (front[r], r))
                n_castles += 1
                c = None
            else:
                at = next((r for r in short if room(r) > 0), None)
                if at is not None:
                    target, dfd = short[at]
                    dfd[u] += 1
                    if self.hold_chance(at, dfd, target) >= target:
                        del short[at]
                else:
                    at = next((r for r in land_sites if r not in castles or room(r) > 0), None)
                if at is None:
                    break
                c = at if at in castles else None
            if c is not None:
                placed[c] = placed.get(c, 0) + 1
            gold -= t.cost[u]
            out.append(Buy(t.names[u], at))
        out.append(END)
        return out

    def _sea_room(self, x: int, castles: dict, placed: dict) -> bool:
        for r in self.b.adj[x]:
            if r in castles and (castles[r] is None or castles[r] - placed.get(r, 0) > 0):
                return True
        return False

    def _charge(self, x: int, castles: dict, placed: dict):
        best, best_room = None, -1
        for r in self.b.adj[x]:
            if r in castles:
                room = (1 << 30) if castles[r] is None else castles[r] - placed.get(r, 0)
                if room > best_room:
                    best, best_room = r, room
        return best

    def reinforce(self) -> list:
        """New units step toward the front (balanced/aggressive) or stay (defensive)."""
        obs, b, t = self.obs, self.b, self.t
        out = []
        if self.pol.defend > 0.5:
            return [END]
        front = self.front_distance()
        guards = self.guards()
        for r in obs.mobile_regions():
            if front[r] <= 1:
                continue
            target = guards.get(r, 0.0)
            if target > 0.0 and not self.reachable(r):
                target = 0.0
            left = self.defenders(r)
            for (u, m), c in list(obs.mobile(r).items()):
                if m <= 0 or c <= 0 or t.flyer[u]:
                    continue
                if target > 0.0:
                    # a garrisoned castle lets new units go only while the rest still hold it
                    k = 0
                    while k < c:
                        left[u] -= 1
                        if self.hold_chance(r, left, target) < target:
                            left[u] += 1
                            break
                        k += 1
                    left[u] += k                # taken off again below for the units that do move
                    c = k
                    if c <= 0:
                        continue
                dests = obs.destinations(r, t.names[u])
                best = None
                for dst, (cost, stop, able) in dests.items():
                    if b.is_sea[dst] or front[dst] >= front[r]:
                        continue
                    k = (front[dst], dst)
                    if best is None or k < best[0]:
                        best = (k, dst, able)
                if best is not None:
                    out.append(Move(r, best[1], t.names[u], min(c, best[2])))
                    left[u] -= min(c, best[2])
        out.append(END)
        return out
