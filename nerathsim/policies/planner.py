"""`Planner`: what a WarPolicy reads off the board when it plans a phase — enemy land and armies,
the distance to the front, the threat to and defence of a region, a region's worth. The phase
plans build on it (`movement.MovementPlanner`, `reinforcements.ReinforcementPlanner`)."""
from __future__ import annotations

from collections import deque

from ..battle import ingame as gb
from .estimates import win_odds


def _row_strength(row, s1: list, s2: list, a1: float, a2: float) -> tuple:
    """(a1, a2) plus a realm's units `row` times their strengths within one and two steps, unit by unit."""
    for c, v1, v2 in zip(row, s1, s2):
        if c:
            a1 += c * v1
            a2 += c * v2
    return a1, a2


class Planner:
    """Builds one phase's plan for a WarPolicy from the observation."""

    def __init__(self, pol, obs, rng):
        self.pol, self.obs, self.rng = pol, obs, rng
        self.b = obs.board
        self.t = obs.tables
        self.me = obs.realm
        self.F = obs.friends(self.me)
        self.br = obs.rules.battle
        self._front = None

    # helpers ------------------------------------------------------------------------------------
    def enemy_land(self, r: int) -> bool:
        el = self.__dict__.get("_el")
        if el is None:
            b, owner, F = self.b, self.obs.owner, self.F
            el = self._el = [not b.is_sea[x] and not b.is_dungeon[x] and owner[x] not in F for x in range(b.n)]
        return el[r]

    def enemy_army(self, r: int) -> list:
        """Counts per unit type of every enemy realm at `r` (worked out once per region and plan: the
        observation does not change while the plan is made; callers only read it)."""
        armies = self.__dict__.get("_armies")
        if armies is None:
            armies = self._armies = {}
        out = armies.get(r)
        if out is None:
            out = [0] * self.t.U
            obs, F = self.obs, self.F
            at_sea = self.b.is_sea[r]
            reg = obs.unit_counts[r]
            for q in range(4):
                if q in F:
                    continue
                row = obs.army(r, q) if at_sea else reg[q]      # on land: the counts (no warships, no cargo)
                if any(row):
                    out = [a + c for a, c in zip(out, row)]
            armies[r] = out
        return out

    def front_distance(self) -> tuple:
        """Land steps from each region to the nearest enemy land region (through any land); remembered in
        the policy's `odds_cache.fronts` by (board, owners, friends), of which it is a pure function."""
        if self._front is not None:
            return self._front
        b = self.b
        cache = getattr(self.pol, "odds_cache", None)
        key = None
        if cache is not None:
            key = (b, tuple(self.obs.owner), self.F)
            got = cache.fronts.get(key)
            if got is not None:
                self._front = got
                return got
        dist = [1 << 20] * b.n
        q = deque()
        self.enemy_land(0)
        el = self._el
        for r in range(b.n):
            if el[r]:
                dist[r] = 0
                q.append(r)
        adj, is_sea = b.adj, b.is_sea
        while q:
            r = q.popleft()
            d = dist[r] + 1
            for x in adj[r]:
                if is_sea[x] or dist[x] <= d:
                    continue
                dist[x] = d
                q.append(x)
        dist = self._front = tuple(dist)
        if key is not None:
            if len(cache.fronts) >= 4096:
                cache.fronts.clear()
            cache.fronts[key] = dist
        return dist

    def _powers(self):
        """The enemies' strength standing in each region that one and two steps reach: (by region, by
        region), worked out once per plan. Remembered in the policy's `odds_cache.powers` with the unit
        counts it was made from: an observation's `unit_counts` is a value whose regions are shared from
        one observation to the next while their counts do not change (the same objects, the same
        numbers), so a region whose counts are the very object the remembered figures were made from
        keeps them, and the others are worked out again."""
        pw = self.__dict__.get("_pw")
        if pw is not None:
            return pw
        counts = self.obs.unit_counts
        cache = getattr(self.pol, "odds_cache", None)
        key = (self.F, self.br)
        before = None
        if cache is not None:
            got = cache.powers.get(key)
            if got is not None:
                if got[0] is counts:
                    pw = self._pw = got[1]
                    return pw
                if len(got[0]) == len(counts):
                    before = got
        b = self.b
        s1, s2, rows = self._strengths(cache)
        pw1, pw2 = [0.0] * b.n, [0.0] * b.n
        enemies = [q for q in range(4) if q not in self.F]
        old, (old1, old2) = before if before is not None else ((), ((), ()))
        for y, reg in enumerate(counts):
            if old and old[y] is reg:
                pw1[y], pw2[y] = old1[y], old2[y]
                continue
            for q in enemies:
                row = reg[q]
                if not any(row):
                    continue
                a1, a2 = pw1[y], pw2[y]
                if a1 == 0.0 and a2 == 0.0:
                    # the row's sums from 0.0, remembered by row (the same additions in the same order)
                    got = rows.get(row)
                    if got is None:
                        got = rows[row] = _row_strength(row, s1, s2, 0.0, 0.0)
                    pw1[y], pw2[y] = got
                else:
                    pw1[y], pw2[y] = _row_strength(row, s1, s2, a1, a2)
        pw = self._pw = (tuple(pw1), tuple(pw2))
        if cache is not None:
            cache.powers[key] = (counts, pw)
        return pw

    def _strengths(self, cache) -> tuple:
        """(a unit's strength within one step, within two steps, by unit: 0.0 where it does not count, since
        adding c * 0.0 changes no sum; a dict of a row's two sums from 0.0 by row) for `_powers`: kept in the
        policy's `odds_cache.powers` by (unit tables, battle rules), of which they are pure functions."""
        key = ("strengths", self.t, self.br)
        got = cache.powers.get(key) if cache is not None else None
        if got is None:
            t = self.t
            ta = gb.side_table(self.br, "attacker", False)
            s1 = [ta.dice[u] * ta.p[u] if not t.castle[u] and t.move[u] >= 1 else 0.0 for u in range(t.U)]
            s2 = [v if t.move[u] >= 2 else 0.0 for u, v in enumerate(s1)]
            got = (s1, s2, {})
            if cache is not None:
                cache.powers[key] = got
        elif len(got[2]) > 50_000:             # bounded: a row's sums are worked out again when asked
            got[2].clear()
        return got

    def threat(self, r: int) -> float:
        """Expected hits per round enemy units within their reach (one or two steps) could bring against r
        (worked out once per region and plan: the observation does not change while the plan is made)."""
        threats = self.__dict__.get("_threats")
        if threats is None:
            threats = self._threats = {}
        got = threats.get(r)
        if got is None:
            pw1, pw2 = self.__dict__.get("_pw") or self._powers()
            one, two = self.b.rings(r)
            got = threats[r] = sum([pw1[y] for y in one]) + sum([pw2[y] for y in two])
        return got

    def defence(self, r: int) -> float:
        """The defending dice strength of the realm and its friends at r (once per region and plan)."""
        defences = self.__dict__.get("_defences")
        if defences is None:
            defences = self._defences = {}
        got = defences.get(r)
        if got is not None:
            return got
        td = self.__dict__.get("_td")
        if td is None:
            td = self._td = gb.side_table(self.br, "defender", False)
        dice, p, htk = td.dice, td.p, td.htk
        tot = 0.0
        reg = self.obs.unit_counts[r]
        for q in self.F:
            for u, c in enumerate(reg[q]):
                if c:
                    tot += c * dice[u] * p[u] * htk[u]
        defences[r] = tot
        return tot

    def target_value(self, r: int) -> float:
        b, rules = self.b, self.obs.rules
        v = 1.0 + b.gold[r]
        area = b.start_area[r]
        if area >= 0 and area not in self.F:
            v += 4.0 * (rules.capital_vp if b.capital_of[r] == area else rules.region_vp)
        if self.obs.units(r, self.obs.owner[r])[self.t.castle_u] if self.obs.owner[r] >= 0 else 0:
            v += 1.0
        return v

    # the coming enemy turns: what can reach a region, and the chance a garrison holds it -----------
    def enemies(self) -> tuple:
        """The realms not friends of this one (each has a turn before this realm's next)."""
        return tuple(q for q in range(4) if q not in self.F)

    def threat_armies(self, r: int) -> list:
        """Per enemy realm with a unit in reach, the army (counts by unit type) it could bring against `r` on
        its coming turn: every one of its units whose full move reaches `r` by land or air
        (`Observation.turn_reach`, the movement rules' own reach on that realm's terrain), plus what its
        warships could land there (the cargo aboard, then the strongest carriable units on its coasts the
        ship passes, up to the room aboard). Worked out once per region and plan."""
        got = self.__dict__.setdefault("_threat_armies", {}).get(r)
        if got is not None:
            return got
        obs, t = self.obs, self.t
        ta = self.__dict__.get("_ta")
        if ta is None:
            ta = self._ta = gb.side_table(self.br, "attacker", False)
        out = []
        near = frozenset(self.guards())
        if r not in near:
            near = frozenset((r,))
        for q in self.enemies():
            by_land, landings = obs.turn_reach(q, near)
            army = [0] * t.U
            used: dict = {}
            for src, u, c in by_land.get(r, ()):
                army[u] += c
                used[(src, u)] = used.get((src, u), 0) + c
            for _sid, room, cargo, boarders in landings.get(r, ()):
                for u in cargo:
                    army[u] += 1
                free = sorted(((ta.dice[u] * ta.p[u], src, u, c - used.get((src, u), 0)) for src, u, c in boarders),
                              reverse=True)
                for _v, src, u, c in free:
                    k = min(c, room)
                    if k <= 0:
                        continue
                    army[u] += k
                    used[(src, u)] = used.get((src, u), 0) + k
                    room -= k
                    if room <= 0:
                        break
            if any(army):
                out.append(army)
        self._threat_armies[r] = out
        return out

    def reachable(self, r: int) -> bool:
        """True when some enemy unit could attack `r` on its coming turn."""
        return bool(self.threat_armies(r))

    def hold_chance(self, r: int, defenders: list, target: float = 0.5) -> float:
        """The chance that `defenders` (counts by unit type, the castle included) hold `r` against the
        strongest single enemy attack that can reach it on the coming turns (the worst of the enemy realms'
        armies; each realm attacks on its own turn): 1 - P(attacker wins), by the battle calculator (exact
        near `target`, a calibrated estimate far from it or for very large battles)."""
        worst = 1.0
        for army in self.threat_armies(r):
            p = win_odds(self.br, army, defenders, False, 1.0 - target, band=0.12, max_units=40,
                         cache=self.pol.odds_cache)
            worst = min(worst, 1.0 - p)
        return worst

    def defenders(self, r: int) -> list:
        """Counts by unit type of the realm's and its friends' units standing at `r` (the castle included)."""
        out = [0] * self.t.U
        reg = self.obs.unit_counts[r]
        for q in self.F:
            for u, c in enumerate(reg[q]):
                out[u] += c
        return out

    def guards(self) -> dict:
        """{region: target hold chance} for the regions this realm must garrison: its castles that an enemy
        capture would score VP for — the capital at the policy's `capital_hold`, others at `castle_hold` —
        when the target is above 0."""
        got = self.__dict__.get("_guards")
        if got is not None:
            return got
        obs, b, me, pol = self.obs, self.b, self.me, self.pol
        cu = self.t.castle_u
        out = {}
        enemies = self.enemies()
        for r in range(b.n):
            if obs.owner[r] != me or b.is_sea[r] or not obs.unit_counts[r][me][cu]:
                continue
            if b.capital_of[r] >= 0:
                target = pol.capital_hold
            else:
                area = b.start_area[r]
                worth = area >= 0 and obs.rules.region_vp > 0 and any(area not in obs.friends(q) for q in enemies)
                target = pol.castle_hold if worth else 0.0
            if target > 0.0:
                out[r] = target
        self._guards = out
        return out

    def defence_order(self, units: dict) -> list:
        """Unit types of `units` ({unit: count}) weakest in defence first (then cheapest): the ones assumed
        to stay behind when a garrison is counted (so the count holds whichever units leave)."""
        td = gb.side_table(self.br, "defender", False)
        return sorted(units, key=lambda u: (td.dice[u] * td.p[u] * td.htk[u], self.t.cost[u], u))
