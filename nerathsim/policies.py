"""Policies: `policy(observation, legal_actions, rng) -> action`.

`RandomPolicy` picks uniformly among the legal actions (aimless; its games end at the round cap
or when someone stumbles to the VP target). Every war-game heuristic is one `WarPolicy`, a
frozen record of numbers analyses can sweep (`dataclasses.replace(BALANCED, attack_threshold=0.6)`):

* it plans a whole phase at its first decision (movement: which regions to attack with which
  units, where the rest go, which warships carry whom; reinforcements: what to buy and where)
  and emits the plan step by step from `observation.memo`;
* it picks fights and retreats with battle odds: a calibrated cheap estimate (the Lanchester
  ratio of expected hits x hits to absorb, through a logistic fitted to the exact solver: mean
  error 3 points) screens every candidate, and `battle_odds` (exact, cached by army
  composition for the whole process) decides the borderline ones;
* `Purchase` is the buying strategy: a weight per unit type (0 = never buys it), so analyses can
  compare unit mixes in real games (`Purchase.without("dragon")`).

`aggressive`, `defensive` and `balanced` differ only in their numbers.
"""
from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field, replace

from . import dungeons as dg
from . import engine as E
from .battle import ingame as gb
from .game_actions import Amok, Buy, Casualties, Embark, EndPhase, Hit, Move, Pass, PlayCard, RetreatTo, Sail, Unload

END = EndPhase()


class RandomPolicy:
    """Legal but aimless.

    Default (`flat=False`): choose an action *kind* uniformly among the kinds that are legal
    (end the phase, move, embark, sail, unload, buy, fight, retreat, ...), then one action of
    that kind uniformly. A flat uniform choice over every legal action (`flat=True`) almost
    never ends a movement phase while a unit can still move — there are hundreds of moves and
    one EndPhase — so its games crawl through every possible step; the two-level choice keeps
    random games a few thousand decisions long, which makes random-vs-random studies cheap.
    """

    def __init__(self, flat: bool = False):
        self.flat = flat
        self.name = "uniform" if flat else "random"

    def __call__(self, obs, legal, rng):
        if self.flat:
            return legal[int(rng.random() * len(legal))]
        by_kind = getattr(legal, "by_kind", None)
        if by_kind is not None:
            groups = by_kind()
        else:
            kinds: dict = {}
            for a in legal:
                kinds.setdefault(type(a), []).append(a)
            groups = list(kinds.values())
        group = groups[int(rng.random() * len(groups))]
        return group[int(rng.random() * len(group))]

    def __repr__(self):
        return f"RandomPolicy(flat={self.flat})"


# ---------------------------------------------------------------------------------------
# Battle odds for the heuristics
# ---------------------------------------------------------------------------------------
_QUICK = (0.2736, 1.5716, -0.1872)   # fitted on 700 random battles against battle_odds (exact)
_EXACT_CACHE: dict = {}
_EXACT_MAX = 200_000
EXACT_CALLS = [0]                     # how many exact solves this process made (benchmark figure)


def quick_odds(brules, att: list, dfd: list, at_sea: bool) -> float:
    """Cheap estimate of P(attacker wins) for count lists (unit table order)."""
    ta = gb.side_table(brules, "attacker", at_sea)
    td = gb.side_table(brules, "defender", at_sea)
    a = d = 0.0
    ha = hd = 0
    for u in range(ta.U):
        c = att[u]
        if c:
            if ta.fights[u]:
                a += ta.dice[u] * ta.p[u] * c * (1.25 if ta.fs[u] else 1.0)
            if ta.takes[u]:
                ha += ta.htk[u] * c
        c = dfd[u]
        if c:
            if td.fights[u]:
                d += td.dice[u] * td.p[u] * c * (1.25 if td.fs[u] else 1.0)
            if td.takes[u]:
                hd += td.htk[u] * c
    if hd == 0:
        return 1.0 if ha > 0 else 0.0
    if ha == 0 or a == 0:
        return 0.0
    if d == 0:
        return 1.0
    k0, k1, c0 = _QUICK
    z = (k0 + k1 * math.sqrt(min(ha, hd))) * math.log(a * ha / (d * hd)) + c0
    if z > 30:
        return 1.0
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def exact_odds(brules, att: list, dfd: list, at_sea: bool) -> float:
    """P(attacker wins) from the battles module's exact solver (`battle_odds`), cached by composition."""
    key = (gb.fingerprint(brules), tuple(att), tuple(dfd), at_sea)
    got = _EXACT_CACHE.get(key)
    if got is not None:
        return got
    from .battle.odds import battle_odds
    names = brules.units.names
    a = {names[u]: c for u, c in enumerate(att) if c}
    d = {names[u]: c for u, c in enumerate(dfd) if c}
    try:
        p = float(battle_odds(a, d, at_sea=at_sea, rules=brules).attacker_wins)
    except ValueError:
        p = quick_odds(brules, att, dfd, at_sea)
    EXACT_CALLS[0] += 1
    if len(_EXACT_CACHE) >= _EXACT_MAX:
        _EXACT_CACHE.clear()
    _EXACT_CACHE[key] = p
    return p


def win_odds(brules, att: list, dfd: list, at_sea: bool, threshold: float, band: float = 0.08,
             max_units: int = 24) -> float:
    """Quick estimate; exact when it falls within `band` of the decision threshold (and the battle is small
    enough for the exact solver to be quick)."""
    q = quick_odds(brules, att, dfd, at_sea)
    if abs(q - threshold) < band and sum(att) + sum(dfd) <= max_units:
        return exact_odds(brules, att, dfd, at_sea)
    return q


# ---------------------------------------------------------------------------------------
# Purchase strategy
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Purchase:
    """Which units to buy: `weights` = ((unit, weight), ...); each purchase draws a unit type with
    probability proportional to its weight among those affordable and placeable. A weight of 0
    means never. `ships` caps warships bought per turn; `castles` allows buying a castle while the
    realm holds fewer than this many."""

    weights: tuple = (("footsoldier", 4.0), ("siege_engine", 2.0), ("fighter", 1.5), ("wizard", 1.0),
                      ("monster", 1.5), ("storm_elemental", 0.5), ("dragon", 1.0), ("warship", 0.5))
    ships: int = 1
    castles: int = 0
    save: int = 0                  # gold kept back each turn

    def weight(self, unit: str) -> float:
        for name, w in self.weights:
            if name == unit:
                return float(w)
        return 0.0

    def without(self, unit: str) -> "Purchase":
        """The same strategy never buying `unit` (e.g. "never buys dragons")."""
        return replace(self, weights=tuple((n, 0.0 if n == unit else w) for n, w in self.weights))

    def with_weight(self, unit: str, weight: float) -> "Purchase":
        names = [n for n, _ in self.weights]
        if unit in names:
            return replace(self, weights=tuple((n, weight if n == unit else w) for n, w in self.weights))
        return replace(self, weights=self.weights + ((unit, weight),))


def take_hit(obs, legal) -> Hit:
    """Decision Hit: the place that loses least — a free wound on a fresh dragon first, then the
    hit that destroys the least gold, counting at sea the heroes that drown with a warship (so a
    fleet gives up its fighters and wizards before the ship that carries them), ties: the weaker
    dice go first. The same yardstick as the battle calculator's default order (combat.default_plan)."""
    bv = obs.battle
    me = obs.realm
    mine = bv.attacker_units if me == bv.attacker else bv.defender_units.get(me, {})
    return min(legal, key=lambda a: hit_cost(obs.rules.battle, mine, bv.at_sea,
                                              "attacker" if me == bv.attacker else "defender", a.unit))


def hit_cost(brules, mine: dict, at_sea: bool, role: str, token: str) -> tuple:
    """(gold destroyed, dice strength lost, table index) of putting the next hit on `token`."""
    table = brules.units
    if token.startswith("damage:"):
        return (0, 0.0, table.index(token[len("damage:"):]))
    unit = table[token]

    def strength(u):
        return u.dice(role, at_sea) * u.hit_probability(brules.threshold(role))

    gold, power = unit.cost, strength(unit)
    if at_sea and unit.capacity:
        aboard = [table[n] for n, c in mine.items() if table[n].domain == "land" for _ in range(c)]
        cap = sum(table[n].capacity * c for n, c in mine.items())
        excess = len(aboard) - (cap - unit.capacity)
        if excess > 0:   # the engine drowns non-fighting cargo first, cheapest first; count the heroes lost
            aboard.sort(key=lambda u: (strength(u) > 0, u.cost, strength(u), table.index(u.name)))
            gold += sum(u.cost for u in aboard[:excess] if strength(u) > 0)
            power += sum(strength(u) for u in aboard[:excess])
    return (gold, power, table.index(token))


# ---------------------------------------------------------------------------------------
# The war-game heuristic
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WarPolicy:
    """A war-game heuristic. Every field is a number (or a Purchase) analyses can sweep."""

    name: str = "balanced"
    attack_threshold: float = 0.6     # P(win) needed to attack an occupied region
    retreat_below: float = 0.25       # retreat when P(win from here on) drops below this
    garrison: int = 0                 # extra land units kept in a front-line region that sends attackers
    defend: float = 0.35              # share of idle units sent to threatened regions (rest go to the front)
    max_attackers: int = 14           # largest stack sent against one region
    amphibious: bool = True           # use warships to land troops on enemy coasts
    naval: bool = True                # attack enemy fleets when the odds are good
    amok: bool = True                 # let monsters run amok
    hold_regions: bool = True         # never leave an owned region without a castle empty (no free walk-ins)
    play_events: bool = True          # play event/treasure cards (False: keep them all, answer nothing)
    explore: bool = True              # send free heroes into dungeons
    explore_threshold: float = 0.55   # P(heroes beat the guardians) needed to explore (face down: averaged)
    flee_below: float = 0.3           # in a dungeon, flee when P(win from here on) drops below this
    purchase: Purchase = field(default_factory=Purchase)

    def __call__(self, obs, legal, rng):
        ph = obs.phase
        if ph == E.PH_CASUALTY:
            return Casualties(gb.CASUALTY_ORDERS[0])
        if ph == E.PH_HIT:
            return take_hit(obs, legal)
        if ph == E.PH_COMBAT:
            return self._fight_order(obs, legal)
        if ph == E.PH_PRESS:
            return self._press_or_retreat(obs, legal)
        if ph == E.PH_AMOK:
            return self._amok(obs, legal)
        if ph == E.PH_EVENT:
            return self._cards(obs, legal, rng)
        if ph in (E.PH_MOVE, E.PH_REGROUP, E.PH_BUY, E.PH_REINFORCE):
            return self._from_plan(obs, legal, rng)
        return legal[0]

    def __repr__(self):
        fields_ = ", ".join(f"{k}={getattr(self, k)!r}" for k in ("name", "attack_threshold", "retreat_below",
                                                                   "garrison", "defend", "amphibious", "naval"))
        return f"WarPolicy({fields_}, purchase={self.purchase!r})"

    # --- plans --------------------------------------------------------------------------------
    def _from_plan(self, obs, legal, rng):
        memo = obs.memo
        key = (obs.turns, obs.phase, obs.realm)
        plan = memo.get("plan")
        if plan is None or plan[0] != key:
            plan = (key, deque(self._make_plan(obs, rng)), 0)
            memo["plan"] = plan
        queue = plan[1]
        while queue:
            a = queue.popleft()
            if a in legal:
                return a
        if END in legal:
            return END
        return legal[0]

    def _make_plan(self, obs, rng) -> list:
        ph = obs.phase
        if ph == E.PH_MOVE:
            return _Planner(self, obs, rng).movement()
        if ph == E.PH_REGROUP:
            return _Planner(self, obs, rng).regroup()
        if ph == E.PH_BUY:
            return _Planner(self, obs, rng).buy()
        return _Planner(self, obs, rng).reinforce()

    # --- battle decisions ---------------------------------------------------------------------
    def _fight_order(self, obs, legal):
        """Empty enemy regions first (no risk; their monsters may run amok), then battles, then dungeons."""
        b = obs.board
        F = obs.friends(obs.realm)

        def rank(a):
            r = a.region
            enemies = any(any(obs.units(r, q)) for q in range(4) if q not in F) or any(
                sv.region == r and sv.owner not in F for sv in obs.ships)
            return (2 if b.is_dungeon[r] and not enemies else 1 if enemies else 0, r)
        return min(legal, key=rank)

    def _cards(self, obs, legal, rng):
        """Play every card that can be played: reactions always answer; a place/move card goes where the
        threat most exceeds the defence (units come from the region farthest from the front)."""
        plays = [a for a in legal if type(a) is PlayCard]
        if not plays or not (self.play_events or Pass() not in legal):
            return Pass() if Pass() in legal else legal[0]
        if len(plays) == 1 or obs.pending_card is not None:
            return plays[0]
        pl = _Planner(self, obs, rng)
        front = pl.front_distance()
        b = obs.board

        def score(a):
            v = 0.0
            if a.target >= 0 and not b.is_sea[a.target] and (obs.window is None or obs.window[0] != "combat"):
                v += pl.threat(a.target) - pl.defence(a.target) - 0.5 * min(front[a.target], 10)
            if a.source >= 0:
                v += 0.5 * min(front[a.source], 10) - 0.5 * pl.threat(a.source)
            return (v, -a.card, -a.target, -a.source)
        return max(plays, key=score)

    def _press_or_retreat(self, obs, legal):
        if len(legal) == 1:
            return legal[0]
        bv = obs.battle
        if bv.dungeon:
            _n, guardians, _given = obs.dungeon(bv.region)
            left = tuple(sorted(bv.defender_units.get(-1, {}).items()))
            p = dg.fight_chance(obs.rules.battle, guardians, tuple(sorted(bv.attacker_units.items())), left)
            if p >= self.flee_below:
                return legal[0]
            return max((a for a in legal if isinstance(a, RetreatTo)), key=lambda a: (-a.dst,))
        t = obs.tables
        att = [bv.attacker_units.get(n, 0) for n in t.names]
        dfd = [0] * t.U
        for units in bv.defender_units.values():
            for n, c in units.items():
                dfd[t.idx[n]] += c
        p = win_odds(obs.rules.battle, att, dfd, bv.at_sea, self.retreat_below)
        if p >= self.retreat_below:
            return legal[0]   # PressOn
        options = [a for a in legal if isinstance(a, RetreatTo)]
        me = obs.realm
        best = max(options, key=lambda a: (sum(obs.units(a.dst, me)), -a.dst))
        return best

    def _amok(self, obs, legal):
        if not self.amok:
            return Pass()
        b = obs.board
        F = obs.friends(obs.realm)

        def value(a):
            if not isinstance(a, Amok):
                return -1
            r = a.dst
            v = b.gold[r]
            if b.start_area[r] >= 0 and b.start_area[r] not in F:
                v += 10 * (obs.rules.capital_vp if b.capital_of[r] >= 0 else obs.rules.region_vp)
            return v
        return max(legal, key=value)


class _Planner:
    """Builds one phase's plan for a WarPolicy from the observation."""

    def __init__(self, pol: WarPolicy, obs, rng):
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
        out = [0] * self.t.U
        for q in range(4):
            if q in self.F:
                continue
            for u, c in enumerate(self.obs.army(r, q)):
                out[u] += c
        return out

    def front_distance(self) -> list:
        """Land steps from each region to the nearest enemy land region (through any land)."""
        if self._front is not None:
            return self._front
        b = self.b
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
        self._front = dist
        return dist

    def _powers(self):
        pw = self.__dict__.get("_pw")
        if pw is None:
            b, t = self.b, self.t
            ta = gb.side_table(self.br, "attacker", False)
            strength = [ta.dice[u] * ta.p[u] if not t.castle[u] else 0.0 for u in range(t.U)]
            pw1, pw2 = [0.0] * b.n, [0.0] * b.n
            enemies = [q for q in range(4) if q not in self.F]
            for y in range(b.n):
                for q in enemies:
                    row = self.obs.units(y, q)
                    for u in range(t.U):
                        c = row[u]
                        if c and t.move[u] >= 1:
                            v = c * strength[u]
                            pw1[y] += v
                            if t.move[u] >= 2:
                                pw2[y] += v
            pw = self._pw = (pw1, pw2)
        return pw

    def threat(self, r: int) -> float:
        """Expected hits per round enemy units within their reach (one or two steps) could bring against r."""
        pw1, pw2 = self._powers()
        one, two = self.b.rings(r)
        return sum(pw1[y] for y in one) + sum(pw2[y] for y in two)

    def defence(self, r: int) -> float:
        td = gb.side_table(self.br, "defender", False)
        tot = 0.0
        for q in self.F:
            row = self.obs.units(r, q)
            for u in range(self.t.U):
                if row[u]:
                    tot += row[u] * td.dice[u] * td.p[u] * td.htk[u]
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

    # movement -----------------------------------------------------------------------------------
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
        plan: list = []
        # targets: enemy land regions (and enemy fleets) some unit can reach
        targets = set()
        for key, dests in reach.items():
            for dst in dests:
                if (self.enemy_land(dst)) or (b.is_sea[dst] and obs.hostile(dst)):
                    targets.add(dst)
        self.used_ships = set()
        if pol.naval:
            plan += self._naval(avail, reach)
        scored = []
        for r in targets:
            if b.is_sea[r]:
                continue                      # fleets: _naval
            dfd = self.enemy_army(r)
            scored.append((-self.target_value(r) / (1.0 + sum(dfd)), r, dfd))
        scored.sort()
        committed: dict[int, list] = {}
        for _neg, r, dfd in scored:
            at_sea = False
            cands = []
            for (src, u), n in avail.items():
                free = n
                if free <= 0 or r not in reach[(src, u)]:
                    continue
                if at_sea and not (t.ship[u] or t.flyer[u]):
                    continue
                cands.append((src, u))
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
            for (src, u), n in sorted(avail.items(), key=lambda kv: -t.cost[kv[0][1]]):
                if n > 0 and t.flyer[u] and r in reach[(src, u)]:
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
                if win_odds(self.br, att, dfd, True, pol.attack_threshold) >= pol.attack_threshold:
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
            if not tokens or any(any(obs.units(r, q)) for q in range(4) if q not in self.F):
                continue
            cands = sorted(((src, u) for (src, u), n in avail.items() if n > 0 and t.hero[u] and r in reach[(src, u)]),
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
        for src, u in cands:
            n = avail[(src, u)]
            if n > 0 and (ta.fights[u] or t.ship[u]):
                pool.append([src, u, n])
            if t.land[u] and src not in spare:
                spare[src] = sum(avail[k] for k in avail if k[0] == src and t.land[k[1]]) - keep.get(src, 0)
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
        while size < pol.max_attackers:
            best, best_gain = None, -1.0
            for item in pool:
                src, u, n = item
                if n <= 0 or (t.land[u] and spare[src] <= 0):
                    continue
                gain = (ta.dice[u] * ta.p[u] * (1.25 if ta.fs[u] else 1.0) + 0.35 * ta.htk[u]) / max(1, t.cost[u])
                if t.flyer[u]:
                    gain *= 0.8     # flyers are kept for flexibility unless needed
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
                if win_odds(self.br, att, dfd, at_sea, thr) >= thr:
                    return force
        return None

    def _amphibious(self, avail: dict, committed: dict) -> list:
        """Empty warships next to a friendly coast with idle land units carry two of them to an enemy
        coast they can reach, when the landing (with any other attackers there) has good odds."""
        obs, b, t, pol = self.obs, self.b, self.t, self.pol
        me = self.me
        out = []
        for sh in obs.ships:
            if sh.owner != me or sh.unloaded or sh.landing >= 0 or sh.id in self.used_ships:
                continue
            cap = sh.capacity - len(sh.cargo)
            src_coast = None
            if sh.cargo:
                carried = [t.idx[n] for n in sh.cargo]
            else:
                carried = []
                if obs.hostile(sh.region):
                    continue
                # idle land units on an adjacent friendly coast
                for x in b.adj[sh.region]:
                    if not obs.friendly_land(x):
                        continue
                    units = [(u, avail.get((x, u), 0)) for u in range(t.U) if t.land[u] and t.carriable[u]]
                    units = [(u, n) for u, n in units if n > 0 and (x, u) in avail
                             and obs.mobile(x).get((u, t.move[u]), 0) > 0]
                    if sum(n for _, n in units) >= 1:
                        src_coast = x
                        units.sort(key=lambda un: -t.cost[un[0]])
                        for u, n in units:
                            while n > 0 and len(carried) < cap:
                                if not self._can_spare(x, u, avail, 1):
                                    break
                                carried.append(u)
                                n -= 1
                        break
                if not carried:
                    continue
            seas = {sh.region: 0}
            seas.update({dst: c for dst, (c, st) in obs.ship_destinations(sh.id).items() if not st})
            best = None
            for sea in seas:
                for x in b.adj[sea]:
                    if not self.enemy_land(x):
                        continue
                    att = committed.get(x, [0] * t.U)[:]
                    for u in carried:
                        att[u] += 1
                    p = quick_odds(self.br, att, self.enemy_army(x), False)
                    if p >= pol.attack_threshold:
                        v = self.target_value(x) * p
                        if best is None or v > best[0]:
                            best = (v, sea, x)
            if best is None:
                continue
            _, sea, x = best
            if src_coast is not None:
                for u in carried:
                    avail[(src_coast, u)] -= 1
                    out.append(Embark(src_coast, sh.id, t.names[u]))
            if sea != sh.region:
                out.append(Sail(sh.id, sea))
            out.append(Unload(sh.id, x))
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
        for r in range(b.n):
            if obs.owner[r] == self.me and not b.is_sea[r] and front[r] <= 2:
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

    # regroup ------------------------------------------------------------------------------------
    def regroup(self) -> list:
        obs, b, t = self.obs, self.b, self.t
        out = []
        front = self.front_distance()
        for r in obs.mobile_regions():
            for (u, m), c in list(obs.mobile(r).items()):
                if m <= 0 or c <= 0:
                    continue
                dests = obs.destinations(r, t.names[u])
                here_ok = obs.friendly_land(r) or (t.flyer[u] and t.sea_ender[u] and b.is_sea[r]
                                                   and not obs.hostile(r))
                if b.is_dungeon[r] and t.hero[u]:
                    here_ok = False
                if here_ok:
                    continue
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
        n_castles = sum(1 for r in range(b.n) if obs.owner[r] == me and obs.units(r, me)[t.castle_u])
        ships_bought = 0
        out = []
        weights = [(t.idx[n], w) for n, w in pol.purchase.weights if n in t.idx and w > 0]
        rng = self.rng
        guard = 0
        while gold > 0 and guard < 200:
            guard += 1
            options = []
            for u, w in weights:
                if t.cost[u] > gold:
                    continue
                if t.ship[u]:
                    if ships_bought >= pol.purchase.ships or not sea_sites:
                        continue
                    if not any(self._sea_room(x, castles, placed) for x in sea_sites):
                        continue
                elif t.castle[u]:
                    if n_castles >= pol.purchase.castles:
                        continue
                elif not any(room(r) > 0 for r in land_sites if r in castles) and not fallback:
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
                sites = [r for r in range(b.n) if obs.owner[r] == me and not b.is_sea[r] and not b.is_dungeon[r]
                         and not any(obs.units(r, q)[t.castle_u] for q in range(4))]
                if not sites:
                    weights = [(uu, w) for uu, w in weights if uu != u]
                    continue
                at = min(sites, key=lambda r: (front[r], r))
                n_castles += 1
                c = None
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
        for r in obs.mobile_regions():
            if front[r] <= 1:
                continue
            for (u, m), c in list(obs.mobile(r).items()):
                if m <= 0 or c <= 0 or t.flyer[u]:
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
        out.append(END)
        return out


RANDOM = RandomPolicy()
BALANCED = WarPolicy(name="balanced")
AGGRESSIVE = WarPolicy(name="aggressive", attack_threshold=0.55, retreat_below=0.15, garrison=0, defend=0.2,
                       max_attackers=16,
                       purchase=Purchase(weights=(("footsoldier", 3.0), ("siege_engine", 3.0), ("fighter", 1.0),
                                                  ("wizard", 1.0), ("monster", 2.0), ("storm_elemental", 0.5),
                                                  ("dragon", 1.5), ("warship", 0.5))))
DEFENSIVE = WarPolicy(name="defensive", attack_threshold=0.85, retreat_below=0.45, garrison=2, defend=0.8,
                      amphibious=False, naval=False,
                      purchase=Purchase(weights=(("footsoldier", 6.0), ("siege_engine", 1.0), ("fighter", 1.0),
                                                 ("wizard", 1.0), ("monster", 1.0), ("dragon", 0.5)), ships=0))

POLICIES = {
    "random": RANDOM,
    "balanced": BALANCED,
    "aggressive": AGGRESSIVE,
    "defensive": DEFENSIVE,
}
