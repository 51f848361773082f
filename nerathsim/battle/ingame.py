"""Battles inside the full game: the battles module's procedure on small integer arrays.

`steps.fight_round` is the reference implementation of the seed's steps 1–3 (first strike,
other attacks, take damage). A whole game fights hundreds of rounds, so the engine plays the
same steps here on plain lists: an army is, per unit type (table order), a list of counts by
damage taken, the last slot holding *silenced* castles (damage = hits_to_kill, kept to be
captured). Casualty choices are the battles module's `CasualtyPlan`s (built once per battle
by `casualties.default_plan` / `casualties.CasualtyOrder`) compiled to index lists.

With one army per side and the same Generator, `fight_round` here and `steps.fight_round`
draw the same numbers and reach the same casualties; tests/nerathsim/test_nerath_game_combat.py
checks it. Allied defenders (two realms in one region) roll separately — the dice are
independent, so the hit distribution is the same — and split the hits they take as the seed
says (`split_hits`).
"""
from __future__ import annotations

import weakref
from functools import lru_cache
from operator import getitem, mul

import numpy as np

from .army import Army, Situation
from .casualties import DAMAGE_PREFIX, CasualtyOrder, default_plan
from .dice import hit_probability, poisson_binomial_pmf
from .rules import BattleRules

CASUALTY_ORDERS = ("cheapest", "weakest")
"""Casualty orders a side may choose at the start of a battle (decision `Casualties`):

cheapest — the battles module's default plan: free first hits on dragons, then cheapest first,
           ties by weaker dice (land units drown cheapest first);
weakest  — fewest expected hits per round first (keeps the strongest dice), ties cheapest first.
"""


class SideTable:
    """Per-unit facts of one role (attacker/defender) on one battlefield (land/sea)."""

    __slots__ = ("U", "names", "dice", "die", "p", "thr", "reroll", "htk", "captured", "capacity", "land", "cost", "fights",
                 "takes", "fs", "take_idx", "roll_idx", "land_idx", "fight_cap_idx", "never_hit", "dmg_fight",
                 "at_sea", "role", "situation", "strength", "plans", "upto")

    def __init__(self, brules: BattleRules, role: str, at_sea: bool):
        table = brules.units
        sit = Situation(role, at_sea, brules)
        self.situation = sit
        self.role, self.at_sea = role, at_sea
        us = table.units
        self.U = len(us)
        self.names = table.names
        self.dice = [u.dice(role, at_sea) for u in us]
        self.die = [u.die for u in us]
        self.thr = [brules.threshold(role)] * self.U     # the roll each unit needs (a card may lower it)
        self.reroll = [False] * self.U                   # a card lets it re-roll misses
        self.p = [hit_probability(u.die, brules.threshold(role)) for u in us]
        self.htk = [u.hits_to_kill for u in us]
        self.upto = tuple(slice(0, k) for k in self.htk)   # a row's healed counts: row[upto[u]] (`present`)
        self.captured = [u.captured for u in us]
        self.capacity = [u.capacity for u in us]
        self.land = [u.domain == "land" for u in us]
        self.cost = [u.cost for u in us]
        self.fights = [sit.fights(u) for u in us]
        self.takes = [sit.takes_hits(u) for u in us]
        self.fs = [u.first_strike for u in us]
        self.take_idx = [i for i in range(self.U) if self.takes[i]]
        self.roll_idx = {first: [i for i in range(self.U) if self.fs[i] == first and self.fights[i] and self.dice[i]]
                         for first in (True, False)}
        self.land_idx = [i for i in range(self.U) if self.land[i]]
        self.fight_cap_idx = [i for i in range(self.U) if self.fights[i] and self.capacity[i]]
        self.never_hit = brules.castle_mode == "never_hit"
        self.dmg_fight = brules.damaged_units_fight
        self.strength = [sit.strength(u) for u in us]
        self.plans = {}


_PER_RULES: dict = {}   # id(BattleRules) -> (weakref, {"tables": {...}, "fingerprint": str})


def _rules_cache(brules: BattleRules) -> dict:
    """Derived data kept per BattleRules object, outside the object (so it is never pickled and
    no slow dataclass hash is needed)."""
    key = id(brules)
    got = _PER_RULES.get(key)
    if got is not None and got[0]() is brules:
        return got[1]
    if len(_PER_RULES) > 256:
        for k in [k for k, (ref, _c) in _PER_RULES.items() if ref() is None]:
            del _PER_RULES[k]
    cache = {"tables": {}, "fingerprint": None}
    _PER_RULES[key] = (weakref.ref(brules), cache)
    return cache


def side_table(brules: BattleRules, role: str, at_sea: bool) -> SideTable:
    """The SideTable of (role, battlefield) for these battle rules (cached)."""
    tables = _rules_cache(brules)["tables"]
    key = (role, at_sea)
    t = tables.get(key)
    if t is None:
        t = tables[key] = SideTable(brules, role, at_sea)
    return t


def rules_derived(brules: BattleRules, key: tuple, make, *args):
    """`make(brules, *args)`, worked out once per BattleRules object and `key` and kept with its side tables
    (read-only data derived from the rules, e.g. the war heuristic's quick-odds weights)."""
    cache = _rules_cache(brules)
    got = cache.get(key)
    if got is None:
        got = cache[key] = make(brules, *args)
    return got


def fingerprint(brules: BattleRules) -> str:
    """A string equal for equal BattleRules (a cache key across games), computed once per object."""
    cache = _rules_cache(brules)
    if cache["fingerprint"] is None:
        cache["fingerprint"] = repr(brules.to_dict())
    return cache["fingerprint"]


@lru_cache(maxsize=4096)
def unit_loss(brules: BattleRules, role: str, at_sea: bool, token: str) -> tuple:
    """(gold, dice strength, table index, capacity) that a hit on `token` (a unit name, or "damage:<name>", a
    free wound) takes from a side in `role` on this battlefield, before any cargo drowning with it: a free
    wound costs (0, 0.0); a unit its cost and its dice times its hit probability. A pure function of its
    arguments (the war heuristic's `decisions.hit_cost` asks it at every hit), cached."""
    table = brules.units
    if token.startswith("damage:"):
        return (0, 0.0, table.index(token[len("damage:"):]), 0)
    unit = table[token]
    return (unit.cost, unit.dice(role, at_sea) * unit.hit_probability(brules.threshold(role)), table.index(token),
            unit.capacity)


# ---------------------------------------------------------------------------------------
# Armies: list (per unit type) of lists (count per damage level, last = silenced)
# ---------------------------------------------------------------------------------------
def new_army(t: SideTable, counts) -> list:
    """An undamaged army from a per-unit count list (table order)."""
    return [[c] + [0] * t.htk[u] for u, c in enumerate(counts)]


def copy_army(army: list) -> list:
    return [row[:] for row in army]


def health(t: SideTable, army: list) -> int:
    """Hits the side can still take (army.health)."""
    h = 0
    for u in t.take_idx:
        row = army[u]
        k = t.htk[u]
        if k == 1:
            h += row[0]
        else:
            for d in range(k):
                h += (k - d) * row[d]
    return h


def present(t: SideTable, army: list, keep_silenced: bool = False) -> list:
    """Units on the field per type (not silenced, unless keep_silenced) — healed counts."""
    if keep_silenced:
        return list(map(sum, army[:t.U]))
    return list(map(sum, map(getitem, army, t.upto)))     # sum(row[:htk[u]]) unit by unit


def size(army: list) -> int:
    return sum(sum(row) for row in army)


def pool(t: SideTable, army: list, first: bool, alive: bool) -> dict:
    """{(die, p): dice} rolled in the first-strike (first=True) or other-attacks step (steps.dice_pool).

    Keyed by die and hit probability: a card's battle bonus (`modified_table`) changes a unit type's
    probability, so two units with the same die may roll at different odds."""
    out: dict = {}
    for u in t.roll_idx[first]:
        row = army[u]
        k = t.htk[u]
        n = row[0] if k == 1 else (sum(row[:k]) if t.dmg_fight else row[0])
        if not n:
            continue
        if t.never_hit and t.captured[u] and not alive:
            continue
        key = (t.die[u], t.p[u])
        out[key] = out.get(key, 0) + n * t.dice[u]
    return out


def roll(t: SideTable, army: list, rng: np.random.Generator, first: bool) -> int:
    """steps.roll_hits: one binomial draw per die size (and hit probability), smallest die first.

    The probabilities are the table's own (`SideTable.p`: the rules' threshold for this role, and
    any battle bonus)."""
    return roll_pool(side_pool(t, army, first), rng)


def side_pool(t: SideTable, army: list, first: bool) -> dict:
    """The army's `pool` in a step as `roll` and `hit_distribution` work it out (alive: not a castle-only
    army that is silenced). A step of a battle works it out once for both (`roll_pool`, `pool_distribution`)."""
    return pool(t, army, first, not t.never_hit or health(t, army) > 0)


def roll_pool(pl: dict, rng: np.random.Generator) -> int:
    """`roll` of the army whose pool is `pl` (`side_pool`): the same draws, smallest die first."""
    hits = 0
    for key in sorted(pl):
        hits += int(rng.binomial(pl[key], key[1]))
    return hits


BONUSES = ("extra_dice", "reroll_misses", "first_strike", "plus_to_hit")


def modified_table(t: SideTable, bonuses: tuple) -> SideTable:
    """A copy of `t` with card battle bonuses: ((bonus, unit index or -1 for every unit, amount), ...).

    extra_dice: +amount dice per unit; plus_to_hit: hits on (threshold - amount)+; reroll_misses:
    missed dice are rolled once more (p' = p + (1 - p) p); first_strike: rolls in the first-strike step.
    Bonuses stack in the order given. Casualty plans are rebuilt for the copy."""
    key = (id(t), bonuses)
    got = _MODIFIED.get(key)
    if got is not None and got[0] is t:
        return got[1]
    m = SideTable.__new__(SideTable)
    for name in SideTable.__slots__:
        setattr(m, name, getattr(t, name))
    # lists, also when `t` is a read-only public copy (tuples) that a determinised state was built from
    m.dice, m.thr, m.fs, m.reroll = list(t.dice), list(t.thr), list(t.fs), list(t.reroll)
    m.plans = {}
    for bonus, unit, amount in bonuses:
        if bonus not in BONUSES:
            raise ValueError(f"unknown battle bonus {bonus!r}; known: {', '.join(BONUSES)}")
        for u in (range(t.U) if unit < 0 else (unit,)):
            if not t.fights[u] or not t.dice[u]:
                continue
            if bonus == "extra_dice":
                m.dice[u] += amount
            elif bonus == "first_strike":
                m.fs[u] = True
            elif bonus == "reroll_misses":
                m.reroll[u] = True
            else:   # plus_to_hit
                m.thr[u] = max(1, m.thr[u] - amount)
    m.p = [hit_probability(d, thr) for d, thr in zip(t.die, m.thr)]
    m.p = [p + (1.0 - p) * p if r else p for p, r in zip(m.p, m.reroll)]
    m.strength = [n * p for n, p in zip(m.dice, m.p)]      # as Situation.strength: dice x P(hit)
    m.roll_idx = {first: [i for i in range(m.U) if m.fs[i] == first and m.fights[i] and m.dice[i]]
                  for first in (True, False)}
    if len(_MODIFIED) > 4096:
        _MODIFIED.clear()
    _MODIFIED[key] = (t, m)
    return m


_MODIFIED: dict = {}


class Plan:
    """A compiled `CasualtyPlan`: hits = [(is_damage_token, unit index)], drown = [unit index]."""

    __slots__ = ("hits", "drown", "source", "loads")

    def __init__(self, hits, drown, source=None, loads=None):
        self.hits = hits
        self.drown = drown
        self.source = source
        self.loads = loads      # per-ship drowning: cargo count vectors of the warships in sinking order


def with_loads(plan: Plan, loads: tuple) -> Plan:
    """`plan` for a fleet whose warships carry `loads` (per ship, in the order they sink): a sunk
    warship's cargo drowns with it (seed: "Enheder om bord på et warship, der udslettes, drukner")."""
    return Plan(plan.hits, plan.drown, plan.source, loads)


def compile_plan(t: SideTable, counts, order: str = "cheapest") -> Plan:
    """The side's casualty plan for this battle, built by the battles module from its army (cached)."""
    key = (tuple(counts), order)
    got = t.plans.get(key)
    if got is None:
        got = _compile_plan(t, counts, order)
        plans = t.plans
        if type(plans) is dict:     # a read-only public copy's table (in a determinised state) keeps none
            if len(plans) > 20000:
                plans.clear()
            plans[key] = got
    return got


def _compile_plan(t: SideTable, counts, order: str) -> Plan:
    army = Army.of({t.names[u]: c for u, c in enumerate(counts) if c})
    if order == "cheapest":
        plan = default_plan(army, t.situation)
    elif order == "weakest":
        names = [t.names[u] for u in sorted((u for u in range(t.U) if counts[u]),
                                            key=lambda u: (t.strength[u], t.cost[u], u))]
        plan = CasualtyOrder(tuple(names)).plan(army, t.situation)
    else:
        raise ValueError(f"unknown casualty order {order!r}; orders: {', '.join(CASUALTY_ORDERS)}")
    index = {n: i for i, n in enumerate(t.names)}
    hits = []
    for tok in plan.hits:
        if tok.startswith(DAMAGE_PREFIX):
            hits.append((True, index[tok[len(DAMAGE_PREFIX):]]))
        elif t.takes[index[tok]]:
            hits.append((False, index[tok]))
    return Plan(hits, [index[n] for n in plan.drown], plan)


def _one_hit(t: SideTable, army: list, plan: Plan) -> None:
    for dmg, u in plan.hits:
        row = army[u]
        k = t.htk[u]
        if dmg:
            for d in range(k - 1):
                if row[d]:
                    row[d] -= 1
                    row[d + 1] += 1
                    return
            continue
        d = k - 1
        while d >= 0 and not row[d]:
            d -= 1
        if d < 0:
            continue
        if d + 1 < k:
            row[d] -= 1
            row[d + 1] += 1
            return
        row[d] -= 1
        if t.captured[u]:
            row[k] += 1          # silenced, stays to be captured
            return
        if t.capacity[u] and t.at_sea:
            drown(t, army, plan)
        return
    raise ValueError("casualty plan leaves no unit to hit")


def drown(t: SideTable, army: list, plan: Plan) -> None:
    """casualties.drown_cargo: land units beyond the surviving warships' capacity drown, plan's drown order.
    With `plan.loads` (per ship): each type keeps at most what the warships still afloat carry, the
    first ships of `loads` being the ones sunk."""
    if plan.loads is not None:
        afloat = sum(sum(army[u][:t.htk[u]]) for u in t.fight_cap_idx)
        sunk = len(plan.loads) - afloat
        for u in t.land_idx:
            allowed = sum(load[u] for load in plan.loads[sunk:]) if sunk > 0 else None
            row = army[u]
            excess = sum(row) - allowed if allowed is not None else 0
            for d in range(len(row) - 1, -1, -1):
                if excess <= 0:
                    break
                k = min(row[d], excess)
                row[d] -= k
                excess -= k
        return
    aboard = sum(sum(army[u]) for u in t.land_idx)
    cap = 0
    for u in t.fight_cap_idx:
        cap += t.capacity[u] * sum(army[u][:t.htk[u]])
    excess = aboard - cap
    for u in plan.drown:
        if excess <= 0:
            break
        row = army[u]
        for d in range(len(row) - 1, -1, -1):
            if excess <= 0:
                break
            k = min(row[d], excess)
            row[d] -= k
            excess -= k


def assign(t: SideTable, army: list, hits: int, plan: Plan) -> None:
    """casualties.assign_hits with a plan, in place: hits one at a time until the side is wiped out."""
    h = health(t, army)
    for _ in range(hits):
        if h <= 0:
            break
        _one_hit(t, army, plan)
        h = health(t, army)


def split_hits(hits: int, healths: list, troops: list, owner_first: int, mode: str) -> list:
    """How `hits` against allied defenders are shared (seed, Alliance).

    equal: "fordeles skaden ligeligt mellem jer. I tilfælde af et ulige tal får spilleren med flest
    tropper på feltet størst skade. Hvis din alliancepartner mister alle sine tropper, og stadig har
    skade tilbage, fordeles den ud på dine tropper." Ties in troops: the region's holder takes the odd hit.
    region_owner_first: the region's holder takes every hit until wiped out, then the ally.
    """
    k = len(healths)
    if k == 1:
        return [hits]
    a, b = 0, 1
    if mode == "region_owner_first":
        big = owner_first
    else:
        big = a if (troops[a], a == owner_first) >= (troops[b], b == owner_first) else b
    small = 1 - big
    out = [0, 0]
    if mode == "region_owner_first":
        out[big] = min(hits, healths[big])
        out[small] = min(hits - out[big], healths[small])
        return out
    out[big] = (hits + 1) // 2
    out[small] = hits // 2
    for x, y in ((small, big), (big, small)):
        if out[x] > healths[x]:
            out[y] += out[x] - healths[x]
            out[x] = healths[x]
    out[big] = min(out[big], healths[big])
    out[small] = min(out[small], healths[small])
    return out


def gold_value(t: SideTable, army: list) -> int:
    """Gold of the units still alive (silenced castles excluded: they are not lost)."""
    g = 0
    for u in range(t.U):
        row = army[u]
        g += t.cost[u] * sum(row[:t.htk[u]])
    return g


def lost_value(t: SideTable, army: list) -> int:
    """Gold of the units alive or silenced (units destroyed are what is missing from this)."""
    return sum(map(mul, t.cost, map(sum, army)))       # unit by unit, in table order


# ---------------------------------------------------------------------------------------
# Exact expectations for the luck figure
# ---------------------------------------------------------------------------------------
@lru_cache(maxsize=65536)
def pool_pmf(items: tuple) -> np.ndarray:
    """P(k hits) for ((p, dice), ...): the convolution of binomials (dice.poisson_binomial_pmf)."""
    return poisson_binomial_pmf(items)


def _pool_items(sides, first: bool) -> tuple:
    """((p, dice), ...) of every die the sides [(SideTable, army), ...] roll in a step, pooled by
    (die, p) in key order: the argument of `pool_pmf`."""
    total: dict = {}
    for t, army in sides:
        alive = not t.never_hit or health(t, army) > 0
        for key, n in pool(t, army, first, alive).items():
            total[key] = total.get(key, 0) + n
    return tuple((key[1], total[key]) for key in sorted(total))


def pmf_sides(sides: list, first: bool) -> np.ndarray:
    """Distribution of the hits one side scores in a step: its armies (one or several allies), each
    with its own table: [(SideTable, army), ...]."""
    return pool_pmf(_pool_items(sides, first))


@lru_cache(maxsize=65536)
def pool_pmf_values(items: tuple) -> tuple:
    """`pool_pmf(items)` as a tuple of Python floats: the same numbers, cheap to index one by one
    (the luck figure's expectations read every entry)."""
    return tuple(pool_pmf(items).tolist())


def hit_distribution(sides: list, first: bool) -> tuple:
    """`pmf_sides(sides, first)` as a tuple of floats (`pool_pmf_values`), cached by the dice pooled."""
    return pool_pmf_values(_pool_items(sides, first))


def pool_distribution(pools: list) -> tuple:
    """`hit_distribution` of the sides whose pools (`side_pool`) are `pools`: the same tuple."""
    if len(pools) == 1:
        pl = pools[0]
        return pool_pmf_values(tuple((key[1], pl[key]) for key in sorted(pl)))
    total: dict = {}
    for pl in pools:
        for key, n in pl.items():
            total[key] = total.get(key, 0) + n
    return pool_pmf_values(tuple((key[1], total[key]) for key in sorted(total)))


# ---------------------------------------------------------------------------------------
# Hit by hit (Rules.casualty_choice="each_hit"): the owner places each hit
# ---------------------------------------------------------------------------------------
def hit_options(t: SideTable, army: list) -> list:
    """[(is_damage_token, unit index)] of the distinct places the next hit may go, table order:
    a non-lethal hit on a multi-hit unit that can take one, and a hit on the most damaged unit of
    each type that takes hits (a wounded dragon dies; an undamaged one is only wounded, so it is
    offered once, as the damage token)."""
    out = []
    for u in t.take_idx:
        row = army[u]
        k = t.htk[u]
        if k == 1:
            if row[0]:
                out.append((False, u))
            continue
        if any(row[d] for d in range(k - 1)):
            out.append((True, u))
        if row[k - 1]:
            out.append((False, u))
    return out


def hit_token(t: SideTable, dmg: bool, u: int) -> str:
    """The name of a hit option: the unit's name, or "damage:<unit>" for a non-lethal hit."""
    return (DAMAGE_PREFIX if dmg else "") + t.names[u]


def apply_hit(t: SideTable, army: list, dmg: bool, u: int, drown_order: list, loads=None) -> None:
    """One hit on the chosen unit, in place; a sinking warship drowns the cargo its fleet cannot carry
    (with `loads`, per ship: the cargo of the warship that sinks, see `drown`)."""
    _one_hit(t, army, Plan([(dmg, u)], drown_order, loads=loads))


def dice_by_unit(t: SideTable, army: list, first: bool) -> dict:
    """{unit name: dice} the side rolls in this step (the same dice as `pool`), for the event log."""
    alive = not t.never_hit or health(t, army) > 0
    out = {}
    for u in t.roll_idx[first]:
        row = army[u]
        k = t.htk[u]
        n = row[0] if k == 1 else (sum(row[:k]) if t.dmg_fight else row[0])
        if not n or (t.never_hit and t.captured[u] and not alive):
            continue
        out[t.names[u]] = n * t.dice[u]
    return out
