"""Planning the movement phase: attacks on enemy land (the smallest force whose odds reach the
threshold), on enemy fleets, landings from warships, heroes into dungeons, and where the idle
units go (toward threatened regions or the front)."""
from __future__ import annotations

from collections import Counter

from .. import dungeons as dg
from ..battle import ingame as gb
from ..game_actions import Embark, EndPhase, Move, Sail, Unload
from .estimates import quick_odds, win_odds
from .planner import Planner

END = EndPhase()


def _reachers(reach: dict, aim: list) -> dict:
    """{target: [(src, unit), ...]}: for each region worth attacking (`aim[region]`) that some free unit
    reaches (`reach`: destinations by (src, unit)), the units reaching it in `reach`'s order. A target's
    candidates are then its list's entries with units still free: what a walk of every free unit asking
    whether it reaches the target finds, in the same order, for a fraction of the lookups."""
    out: dict[int, list] = {}
    for key, dests in reach.items():
        for dst in dests:
            if aim[dst]:
                got = out.get(dst)
                if got is None:
                    out[dst] = [key]
                else:
                    got.append(key)
    return out


class MovementPlanner(Planner):
    """The movement phase's plan (`movement()`)."""

    def movement(self) -> list:
        obs, b, t, pol = self.obs, self.b, self.t, self.pol
        me = self.me
        avail: dict[tuple, int] = {}          # (src, u) -> units still free
        for r in obs.mobile_regions():
            for (u, m), c in obs.mobile(r).items():
                if m > 0 and c > 0:
                    avail[(r, u)] = avail.get((r, u), 0) + c
        reach: dict[tuple, dict] = {}
        for (r, u) in avail:
            reach[(r, u)] = obs.destinations(r, t.names[u])
        front = self.front_distance()
        # keep a garrison in front-line regions, and one unit in every region without a castle
        keep: dict[int, int] = {}
        cu = t.castle_u
        for (r, u) in avail:
            if b.is_sea[r] or obs.owner[r] != me:
                continue
            castle = obs.units(r, me)[cu] > 0
            need = pol.garrison if front[r] == 1 else 0
            if pol.hold_regions and not castle:
                need = max(need, 1)
            if need:
                keep[r] = need
        self.keep = keep
        plan: list = self._garrison(avail, reach, keep)
        # targets: enemy land regions (and enemy fleets) some unit can reach, each with the free units
        # (src, unit) that reach it, in `avail`'s order (the order a walk of `avail` meets them)
        self.enemy_land(0)
        el, is_sea = self._el, b.is_sea
        aim = [el[x] or (is_sea[x] and obs.hostile(x)) for x in range(len(el))]   # worth attacking, by region
        reachers = _reachers(reach, aim)
        self.used_ships = set()
        if pol.naval:
            plan += self._naval(avail, reach)
        scored = []
        for r in reachers:
            if b.is_sea[r]:
                continue                      # fleets: _naval
            dfd = self.enemy_army(r)
            scored.append((-self.target_value(r) / (1.0 + sum(dfd)), r, dfd))
        scored.sort()
        committed: dict[int, list] = {}
        for _neg, r, dfd in scored:
            at_sea = False
            cands = [key for key in reachers[r] if avail[key] > 0]
            if not cands:
                continue
            if sum(dfd) == 0:
                if at_sea:
                    continue
                # empty enemy region: the cheapest unit that can take it
                best = None
                for src, u in cands:
                    if not (t.land[u] or (t.flyer[u] and obs.rules.flyers_capture)):
                        continue
                    if not self._can_spare(src, u, avail, 1):
                        continue
                    k = (t.flyer[u], t.cost[u], src)
                    if best is None or k < best[0]:
                        best = (k, src, u)
                if best is not None:
                    _, src, u = best
                    avail[(src, u)] -= 1
                    plan.append(Move(src, r, t.names[u], 1))
                    committed.setdefault(r, [0] * t.U)[u] += 1
                continue
            force = self._assemble(r, dfd, cands, avail, keep, at_sea)
            if force is None:
                continue
            for (src, u), k in force.items():
                avail[(src, u)] -= k
                plan.append(Move(src, r, t.names[u], k))
                row = committed.setdefault(r, [0] * t.U)
                row[u] += k
        if pol.explore and obs.cards is not None and obs.rules.dungeons:
            plan += self._explore(avail, reach)
        if pol.amphibious:
            plan += self._amphibious(avail, committed)
        plan += self._redeploy(avail, reach, keep)
        plan.append(END)
        return plan

    def _garrison(self, avail: dict, reach: dict, keep: dict) -> list:
        """The capital and the castles worth VP (`guards`) keep the free land units that hold them with the
        policy's target chance against what the enemies can bring on their coming turns (`hold_chance`:
        the battle calculator), counting the weakest units as the ones that stay; a region the units there
        cannot hold draws free units that can walk or fly in (the strongest defenders first) before any
        attack is planned. Sets `keep` and returns the moves in."""
        t = self.t
        out = []
        guards = self.guards()
        if not guards:
            return out
        td = gb.side_table(self.br, "defender", False)
        for r, target in sorted(guards.items(), key=lambda kv: (-kv[1], kv[0])):
            if not self.reachable(r):
                continue
            base = self.defenders(r)
            free = {u: n for (src, u), n in avail.items() if src == r and n > 0 and (t.land[u] or t.flyer[u])}
            for u, n in free.items():
                base[u] -= n                   # free units may leave: the garrison is what is kept
            if self.hold_chance(r, base, target) >= target:
                continue
            kept = 0
            held = False
            for u in self.defence_order({u: n for u, n in free.items() if t.land[u]}):
                for _ in range(free[u]):
                    base[u] += 1
                    kept += 1
                    if self.hold_chance(r, base, target) >= target:
                        held = True
                        break
                if held:
                    break
            keep[r] = max(keep.get(r, 0), kept)
            if held:
                continue
            # not enough here: free units elsewhere that reach r without a fight come in, strongest first
            cands = []
            for (src, u), n in avail.items():
                if src == r or n <= 0 or t.ship[u] or not (t.land[u] or t.flyer[u]):
                    continue
                got = reach[(src, u)].get(r)
                if got is None or got[1]:
                    continue
                cands.append((-(td.dice[u] * td.p[u] * td.htk[u]), t.cost[u], src, u))
            cands.sort()
            for _v, _c, src, u in cands:
                k = 0
                while avail[(src, u)] > 0 and self._can_spare(src, u, avail, 1) and not held:
                    avail[(src, u)] -= 1
                    base[u] += 1
                    k += 1
                    held = self.hold_chance(r, base, target) >= target
                if k:
                    out.append(Move(src, r, t.names[u], k))
                if held:
                    break
        return out

    def _naval(self, avail: dict, reach: dict) -> list:
        """Attack enemy fleets with empty warships (and flyers) when the odds reach the threshold."""
        obs, b, t, pol = self.obs, self.b, self.t, self.pol
        me = self.me
        out = []
        fleets = [r for r in b.sea_regions if obs.hostile(r)]
        if not fleets:
            return out
        ships = [sv for sv in obs.ships if sv.owner == me and not sv.unloaded and sv.landing < 0 and not sv.cargo
                 and sv.moves > 0]
        ship_reach = {sv.id: obs.ship_destinations(sv.id) for sv in ships}
        t_ship = {sv.id: t.idx[sv.unit] for sv in ships}
        # the free flyers, dearest first (a stable sort: `avail`'s order among equals), sorted once for every fleet
        flyers = [k for k in sorted(avail, key=lambda k: -t.cost[k[1]]) if t.flyer[k[1]]]
        value = {}
        for r in fleets:
            dfd = self.enemy_army(r)
            value[r] = sum(c * t.cost[u] for u, c in enumerate(dfd))
        for r in sorted(fleets, key=lambda r: (-value[r], r)):
            dfd = self.enemy_army(r)
            if not sum(dfd):
                continue
            att = [0] * t.U
            chosen_ships, chosen_flyers = [], {}
            cands = [("ship", sv.id) for sv in ships if sv.id not in self.used_ships and r in ship_reach[sv.id]]
            for src, u in flyers:
                n = avail[(src, u)]
                if n > 0 and r in reach[(src, u)]:
                    cands += [("fly", (src, u))] * n
            if not cands:
                continue
            total = att[:]
            for kind, x in cands:
                total[t_ship[x] if kind == "ship" else x[1]] += 1
            if quick_odds(self.br, total, dfd, True) < pol.attack_threshold - 0.15:
                continue
            ok = False
            for kind, x in cands:
                if kind == "ship":
                    chosen_ships.append(x)
                    att[t_ship[x]] += 1
                else:
                    chosen_flyers[x] = chosen_flyers.get(x, 0) + 1
                    att[x[1]] += 1
                if win_odds(self.br, att, dfd, True, pol.attack_threshold, cache=pol.odds_cache) >= pol.attack_threshold:
                    ok = True
                    break
            if not ok:
                continue
            for sid in chosen_ships:
                self.used_ships.add(sid)
                out.append(Sail(sid, r))
            for (src, u), k in chosen_flyers.items():
                avail[(src, u)] -= k
                out.append(Move(src, r, t.names[u], k))
        return out

    def _explore(self, avail: dict, reach: dict) -> list:
        """Free heroes into dungeons with guardians: the fewest (up to 3) whose chance reaches the threshold."""
        obs, b, t, pol = self.obs, self.b, self.t, self.pol
        out = []
        cs = obs.cards
        for r in range(b.n):
            if not b.is_dungeon[r]:
                continue
            tokens, shown, _given = obs.dungeon(r)
            if not tokens or any(any(row) for q, row in enumerate(obs.unit_counts[r]) if q not in self.F):
                continue
            cands = sorted(((src, u) for (src, u), n in avail.items() if n > 0 and t.hero[u] and r in reach[(src, u)]
                            and self._can_spare(src, u, avail, 1)),
                           key=lambda k: (t.cost[k[1]], k[0]))
            pool = [(src, u) for src, u in cands for _ in range(avail[(src, u)])][:3]   # one entry per hero
            chosen = None
            for k in range(1, len(pool) + 1):
                heroes = tuple(sorted(Counter(t.names[u] for _src, u in pool[:k]).items()))
                if shown is not None:
                    p = dg.fight_chance(obs.rules.battle, shown, heroes)
                else:
                    p = dg.expected_chance(obs.rules.battle, cs.supply, cs.guardians, heroes, tokens)
                if p >= pol.explore_threshold:
                    chosen = pool[:k]
                    break
            if chosen is None:
                continue
            for src, u in chosen:
                avail[(src, u)] -= 1
                out.append(Move(src, r, t.names[u], 1))
        return out

    def _can_spare(self, src: int, u: int, avail: dict, k: int) -> bool:
        need = self.keep.get(src, 0)
        if not need or not self.t.land[u]:
            return True
        left = sum(n for (r, uu), n in avail.items() if r == src and self.t.land[uu]) - k
        return left >= need

    def _assemble(self, r: int, dfd: list, cands: list, avail: dict, keep: dict, at_sea: bool) -> dict | None:
        """Smallest force (greedy by added fighting value per gold) whose odds reach the threshold."""
        t, pol = self.t, self.pol
        ta = gb.side_table(self.br, "attacker", at_sea)
        pool = []
        spare: dict[int, int] = {}
        land = t.land
        land_at: dict[int, int] = {}            # free land units by region
        for (src, u), n in avail.items():
            if land[u]:
                land_at[src] = land_at.get(src, 0) + n
        for src, u in cands:
            n = avail[(src, u)]
            if n > 0 and (ta.fights[u] or t.ship[u]):
                pool.append([src, u, n])
            if land[u] and src not in spare:
                spare[src] = land_at[src] - keep.get(src, 0)
        if not pool:
            return None
        att = [0] * t.U
        total = [0] * t.U
        left = dict(spare)
        for src, u, n in pool:
            if t.land[u]:
                n = min(n, max(0, left[src]))
                left[src] -= n
            total[u] += n
        thr = pol.attack_threshold
        if quick_odds(self.br, total, dfd, at_sea) < thr - 0.15:
            return None
        force: dict = {}
        size = 0
        gains = {}                                  # added fighting value per gold, by unit type
        for _src, u, _n in pool:
            if u not in gains:
                gain = (ta.dice[u] * ta.p[u] * (1.25 if ta.fs[u] else 1.0) + 0.35 * ta.htk[u]) / max(1, t.cost[u])
                if t.flyer[u]:
                    gain *= 0.8     # flyers are kept for flexibility unless needed
                gains[u] = gain
        while size < pol.max_attackers:
            best, best_gain = None, -1.0
            for item in pool:
                src, u, n = item
                if n <= 0 or (land[u] and spare[src] <= 0):
                    continue
                gain = gains[u]
                if gain > best_gain:
                    best, best_gain = item, gain
            if best is None:
                break
            best[2] -= 1
            if t.land[best[1]]:
                spare[best[0]] -= 1
            att[best[1]] += 1
            force[(best[0], best[1])] = force.get((best[0], best[1]), 0) + 1
            size += 1
            if size >= 2 or sum(dfd) <= 1:
                if win_odds(self.br, att, dfd, at_sea, thr, cache=pol.odds_cache) >= thr:
                    return force
        return None

    def _amphibious(self, avail: dict, committed: dict) -> list:
        """Warships carry idle land units to an enemy coast when the landing (with the other attackers there)
        reaches the attack threshold: a ship loads from a friendly coast next to its sea, or first sails to a
        sea next to one (ships may sail, load and sail on), and lands on an enemy coast next to a sea it can
        reach after loading. A landing too weak alone waits for other ships aiming at the same coast: those
        that together reach the threshold land together."""
        obs, b, t, pol = self.obs, self.b, self.t, self.pol
        me = self.me
        out = []
        waiting: dict[int, list] = {}         # target -> [(value, ship, pickup sea, landing sea, coast, units)]
        for sh in obs.ships:
            if sh.owner != me or sh.unloaded or sh.landing >= 0 or sh.id in self.used_ships:
                continue
            cap = sh.capacity - len(sh.cargo)
            dests = {dst: c for dst, (c, st) in obs.ship_destinations(sh.id).items() if not st}
            if sh.cargo:
                loads = [(sh.region, None, [t.idx[n] for n in sh.cargo])]
            else:
                if obs.hostile(sh.region):
                    continue
                loads = []
                for sea in [sh.region] + sorted(dests, key=lambda x: (dests[x], x)):
                    got = self._load(sea, cap, avail)
                    if got is not None:
                        loads.append((sea, got[0], got[1]))
                        if len(loads) >= 3:
                            break
            best = None
            for pickup, coast, carried in loads:
                # seas to land from: where it stands (after sailing to the pickup), and where it can sail on
                # from its own sea (a ship that loads where it stands keeps all its moves)
                seas = {pickup: 0}
                if pickup == sh.region:
                    seas.update(dests)
                for sea in seas:
                    for x in b.adj[sea]:
                        if not self.enemy_land(x):
                            continue
                        entry = self._landing(x, committed, sh.id, pickup, sea, coast, carried, pol.landing_gain)
                        if entry is None:
                            continue
                        v = entry[0]
                        if best is None or v > best[0]:
                            best = entry
                        waiting.setdefault(x, []).append(entry)
            if best is None or best[1] < pol.attack_threshold:
                continue
            out += self._land(best, avail, committed)
        # landings too weak alone: ships aiming at the same coast, together
        for x in sorted(waiting, key=lambda x: -self.target_value(x)):
            att = committed.get(x, [0] * t.U)[:]
            chosen, ships, taken = [], set(), {}
            for entry in sorted(waiting[x], key=lambda e: -e[0]):
                _v, _p, sid, _pickup, _sea, coast, carried, _x = entry
                if sid in ships or sid in self.used_ships:
                    continue
                if coast is not None:
                    need = {}
                    for u in carried:
                        need[u] = need.get(u, 0) + 1
                    if any(avail.get((coast, u), 0) - taken.get((coast, u), 0) < k for u, k in need.items()):
                        continue
                    if not self._can_spare(coast, carried[0], avail, len(carried) + sum(
                            k for (c, _u), k in taken.items() if c == coast)):
                        continue
                    for u, k in need.items():
                        taken[(coast, u)] = taken.get((coast, u), 0) + k
                chosen.append(entry)
                ships.add(sid)
                for u in carried:
                    att[u] += 1
                if len(chosen) >= 2 and quick_odds(self.br, att, self.enemy_army(x), False) >= pol.attack_threshold:
                    for e in chosen:
                        out += self._land(e, avail, committed)
                    break
        return out

    def _landing(self, x: int, committed: dict, sid: int, pickup: int, sea: int, coast, carried: list, gain: bool):
        """`_amphibious`'s entry (value, odds, ship, pickup sea, landing sea, coast, units carried, target) for a
        landing on coast x: worth the coast's value times the attack's odds there. With `gain`
        (`WarPolicy.landing_gain`) worth what it adds instead: an empty coast takes one unit (the cheapest aboard
        a ship that loads here; a loaded ship lands its whole cargo) and is worth nothing where a committed land
        unit already takes it (None); a defended one is worth the odds its load adds to the committed attack."""
        t = self.t
        base = committed.get(x, [0] * t.U)
        dfd = self.enemy_army(x)
        carry, p0 = carried, 0.0
        if gain and not any(dfd):
            if any(base[u] and t.land[u] for u in range(t.U)):
                return None
            if coast is not None:
                carry = [min(carried, key=lambda u: t.cost[u])]
            p = 1.0
        else:
            att = base[:]
            for u in carry:
                att[u] += 1
            p = quick_odds(self.br, att, dfd, False)
            if gain and any(base):
                p0 = quick_odds(self.br, base, dfd, False)
        return (self.target_value(x) * (p - p0), p, sid, pickup, sea, coast, carry, x)

    def _load(self, sea: int, cap: int, avail: dict):
        """(coast, unit indices) of the idle land units, dearest first and up to `cap`, that a friendly coast
        next to `sea` can spare (units that have not moved), or None."""
        obs, b, t = self.obs, self.b, self.t
        for x in b.adj[sea]:
            if not obs.friendly_land(x):
                continue
            units = [(u, avail.get((x, u), 0)) for u in range(t.U) if t.land[u] and t.carriable[u]]
            units = [(u, n) for u, n in units if n > 0 and obs.mobile(x).get((u, t.move[u]), 0) > 0]
            if not units:
                continue
            units.sort(key=lambda un: -t.cost[un[0]])
            carried = []
            for u, n in units:
                n = min(n, obs.mobile(x).get((u, t.move[u]), 0))
                while n > 0 and len(carried) < cap and self._can_spare(x, u, avail, len(carried) + 1):
                    carried.append(u)
                    n -= 1
            if carried:
                return x, carried
        return None

    def _land(self, entry, avail: dict, committed: dict) -> list:
        """The actions of one landing (`_amphibious`'s entry) and its bookkeeping."""
        t = self.t
        _v, _p, sid, pickup, sea, coast, carried, x = entry
        out = []
        ship = next(sh for sh in self.obs.ships if sh.id == sid)
        if pickup != ship.region:
            out.append(Sail(sid, pickup))
        if coast is not None:
            for u in carried:
                avail[(coast, u)] -= 1
                out.append(Embark(coast, sid, t.names[u]))
        if sea != pickup:
            out.append(Sail(sid, sea))
        out.append(Unload(sid, x))
        self.used_ships.add(sid)
        row = committed.setdefault(x, [0] * t.U)
        for u in carried:
            row[u] += 1
        return out

    def _redeploy(self, avail: dict, reach: dict, keep: dict) -> list:
        """Idle units: toward threatened own regions (share `defend`) or toward the front."""
        obs, b, t, pol = self.obs, self.b, self.t, self.pol
        front = self.front_distance()
        out = []
        threatened = []
        owner, me, is_sea = obs.owner, self.me, b.is_sea
        for r in range(b.n):
            if owner[r] == me and not is_sea[r] and front[r] <= 2:
                th = self.threat(r)
                de = self.defence(r)
                if th > de:
                    threatened.append((th - de, r))
        threatened.sort(reverse=True)
        spare = {}
        for (src, u), n in avail.items():
            if t.land[u] and n > 0:
                spare[src] = spare.get(src, 0) + n
        for src in spare:
            spare[src] -= keep.get(src, 0)
        for (src, u), n in sorted(avail.items(), key=lambda kv: (-t.cost[kv[0][1]], kv[0])):
            if n <= 0 or t.ship[u]:
                continue
            dests = reach[(src, u)]
            if not dests:
                continue
            if t.flyer[u]:
                continue      # flyers hold position (they strike from where they stand)
            if front[src] == 1 and pol.defend >= 0.5:
                continue      # front-line units hold the line
            n = min(n, max(0, spare.get(src, 0)))
            if n <= 0:
                continue
            spare[src] -= n
            k_def = int(round(n * pol.defend))
            moved = 0
            if threatened and k_def:
                for _gap, r in threatened:
                    if r in dests and r != src and not dests[r][1]:
                        out.append(Move(src, r, t.names[u], k_def))
                        moved = k_def
                        break
            rest = n - moved
            if rest <= 0:
                continue
            best = None
            for dst, (cost, stop, able) in dests.items():
                if stop or b.is_sea[dst] or obs.owner[dst] not in self.F:
                    continue
                if front[dst] < front[src]:
                    k = (front[dst], -cost, dst)
                    if best is None or k < best[0]:
                        best = (k, dst)
            if best is not None:
                out.append(Move(src, best[1], t.names[u], rest))
        return out
